/*
 * selfcheck.c - the client's own health during a run (see selfcheck.h).
 */
#include "selfcheck.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <jansson.h>

double direct_process_cpu_s(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

void direct_selfcheck_collect(const direct_engine *eng, double wall_s, double process_cpu_s,
                              int64_t requests, direct_selfcheck *sc) {
    memset(sc, 0, sizeof *sc);
    sc->workers = eng->n_workers;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    sc->cores = cores > 0 ? (int)cores : 1;
    sc->wall_s = wall_s;
    sc->process_cpu_s = process_cpu_s;
    sc->requests = requests;
    sc->open_loop = eng->opt->arrival != DIRECT_ARRIVAL_CLOSED;
    sc->late_threshold_ms = eng->opt->late_threshold_s * 1e3;
    for (int i = 0; i < eng->n_workers; i++) {
        const direct_worker *w = &eng->workers[i];
        direct_lag_merge(&sc->loop_busy, &w->loop_busy);
        direct_lag_merge(&sc->send_lag, &w->send_lag);
        direct_lag_merge(&sc->arrival_lag, &w->timer_lag);
        sc->sends += w->sends;
        sc->late_sends += w->late_sends;
        sc->dropped_arrivals += w->dropped_arrivals;
        sc->dropped_in_flight += w->dropped_in_flight;
        sc->slot_growths += w->slot_growths;
        sc->worker_cpu_s += w->cpu_s;
        sc->spin_s += w->spin_s;
        if ((double)w->send_lead_ns / 1e6 > sc->send_lead_ms)
            sc->send_lead_ms = (double)w->send_lead_ns / 1e6;
        if ((double)w->wake_late_max_ns / 1e6 > sc->wake_late_max_ms)
            sc->wake_late_max_ms = (double)w->wake_late_max_ns / 1e6;
        /* Polling for a due send is waiting, not work: it is not what keeps a worker busy. */
        double busy = wall_s > 0 ? (w->cpu_s - w->spin_s) / wall_s : 0;
        if (busy > sc->max_worker_busy) sc->max_worker_busy = busy;
    }
    double late_pct = sc->sends ? 100.0 * (double)sc->late_sends / (double)sc->sends : 0;
    double busy_p99_ms = direct_lag_percentile(&sc->loop_busy, 99) / 1e6;
    double cpu_pct = wall_s > 0 ? 100.0 * process_cpu_s / wall_s : 0;
    double work_pct = wall_s > 0 ? 100.0 * (process_cpu_s - sc->spin_s) / wall_s : 0;
    snprintf(sc->summary, sizeof sc->summary,
             "%d worker%s, CPU %.1f %% of one core (%.2f CPU-s per 1000 requests), event-loop "
             "pass p99 %.3f ms, late sends %.2f %%%s",
             sc->workers, sc->workers == 1 ? "" : "s", cpu_pct,
             requests > 0 ? 1000.0 * process_cpu_s / (double)requests : 0.0, busy_p99_ms, late_pct,
             sc->dropped_arrivals ? ", some arrivals dropped" : "");
    if (eng->opt->arrival == DIRECT_ARRIVAL_FIXED) {
        /* What a replay is for: the share of requests sent at their recorded time. */
        size_t len = strlen(sc->summary);
        snprintf(sc->summary + len, sizeof sc->summary - len,
                 "; fixed schedule: %.2f %% of requests sent within %.1f ms of their recorded "
                 "offset",
                 100.0 - late_pct, sc->late_threshold_ms);
    }
    if (sc->open_loop) {
        size_t len = strlen(sc->summary);
        snprintf(sc->summary + len, sizeof sc->summary - len,
                 "; timer wakes up to %.3f ms late, so sends are polled for from %.3f ms before "
                 "(%.1f %% of one core)",
                 sc->wake_late_max_ms, sc->send_lead_ms,
                 wall_s > 0 ? 100.0 * sc->spin_s / wall_s : 0.0);
    }
    size_t n = 0;
    sc->warning[0] = '\0';
#define WARN(...)                                                                                  \
    do {                                                                                           \
        if (n < sizeof sc->warning)                                                                \
            n += (size_t)snprintf(sc->warning + n, sizeof sc->warning - n, __VA_ARGS__);           \
    } while (0)
    if (sc->max_worker_busy > 0.85)
        WARN("a load worker was busy %.0f %% of the time; ", sc->max_worker_busy * 100.0);
    if (work_pct > 90.0 * sc->cores)
        WARN("the client used %.0f %% CPU on %d cores; ", work_pct, sc->cores);
    if (busy_p99_ms > 1.0)
        WARN("event-loop passes took up to %.2f ms (p99), so arrival stamps may be late by that "
             "much; ",
             busy_p99_ms);
    if (sc->open_loop && late_pct > 5.0)
        WARN("%.1f %% of requests were sent more than %.1f ms after their scheduled time; ",
             late_pct, sc->late_threshold_ms);
    if (sc->dropped_arrivals)
        WARN("%llu scheduled arrivals were never sent; ", (unsigned long long)sc->dropped_arrivals);
    if (n)
        WARN("the client, not the endpoint, may be the bottleneck (try --workers, fewer "
             "other processes on this machine, or a bigger client host)");
#undef WARN
}

static json_t *lag_json(const direct_lag_hist *h) {
    json_t *o = json_object();
    json_object_set_new(o, "count", json_integer((json_int_t)h->n));
    json_object_set_new(o, "avg_ms", json_real(h->n ? h->sum_ns / (double)h->n / 1e6 : 0));
    json_object_set_new(o, "p50_ms", json_real(direct_lag_percentile(h, 50) / 1e6));
    json_object_set_new(o, "p99_ms", json_real(direct_lag_percentile(h, 99) / 1e6));
    json_object_set_new(o, "max_ms", json_real((double)h->max_ns / 1e6));
    return o;
}

char *direct_selfcheck_json(const direct_selfcheck *sc) {
    json_t *o = json_object();
    json_object_set_new(o, "workers", json_integer(sc->workers));
    json_object_set_new(o, "cores", json_integer(sc->cores));
    json_object_set_new(o, "wall_seconds", json_real(sc->wall_s));
    json_object_set_new(o, "cpu_seconds", json_real(sc->process_cpu_s));
    json_object_set_new(o, "worker_cpu_seconds", json_real(sc->worker_cpu_s));
    json_object_set_new(o, "cpu_percent_of_one_core",
                        json_real(sc->wall_s > 0 ? 100.0 * sc->process_cpu_s / sc->wall_s : 0));
    json_object_set_new(
        o, "cpu_seconds_per_1000_requests",
        json_real(sc->requests > 0 ? 1000.0 * sc->process_cpu_s / (double)sc->requests : 0));
    json_object_set_new(o, "max_worker_busy_fraction", json_real(sc->max_worker_busy));
    if (sc->open_loop) {
        json_object_set_new(o, "timer_wake_late_max_ms", json_real(sc->wake_late_max_ms));
        json_object_set_new(o, "send_lead_ms", json_real(sc->send_lead_ms));
        json_object_set_new(o, "send_poll_cpu_seconds", json_real(sc->spin_s));
    }
    json_object_set_new(o, "event_loop_pass", lag_json(&sc->loop_busy));
    json_object_set_new(o, "send_lag", lag_json(&sc->send_lag));
    if (sc->open_loop) json_object_set_new(o, "arrival_lag", lag_json(&sc->arrival_lag));
    json_object_set_new(o, "sends", json_integer((json_int_t)sc->sends));
    json_object_set_new(o, "late_sends", json_integer((json_int_t)sc->late_sends));
    json_object_set_new(o, "late_threshold_ms", json_real(sc->late_threshold_ms));
    json_object_set_new(
        o, "late_send_percent",
        json_real(sc->sends ? 100.0 * (double)sc->late_sends / (double)sc->sends : 0));
    json_object_set_new(o, "dropped_arrivals", json_integer((json_int_t)sc->dropped_arrivals));
    json_object_set_new(o, "dropped_in_flight_at_grace_end",
                        json_integer((json_int_t)sc->dropped_in_flight));
    json_object_set_new(o, "connection_pool_growths", json_integer((json_int_t)sc->slot_growths));
    json_object_set_new(o, "summary", json_string(sc->summary));
    if (sc->warning[0]) json_object_set_new(o, "warning", json_string(sc->warning));
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}
