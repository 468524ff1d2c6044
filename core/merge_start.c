/*
 * merge_start.c - did the shards run as one load? Each direct shard records when its
 * profiling phase began, the --start-at moment it waited for, its host and its clock's error
 * (smfw.client.start). Merged throughput divides by the union window, so shards that began
 * apart, or whose clocks disagree, make the merged run a different load from the one asked
 * for: judged against that window.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/log.h>
#include <smfw/merge.h>

#include "results_internal.h"

/* A spread or clock error above this share of the merged window is refused. */
#define START_SPREAD_FRACTION 0.02

typedef struct part_start {
    json_t *start; /* borrowed from doc */
    json_t *doc;
} part_start;

static const char *name_of(const smfw_results *p, const char *const *labels, size_t i) {
    if (p->info.shard) return p->info.shard;
    return labels && labels[i] ? labels[i] : "a part";
}

smfw_status smfw_merge_judge_start(const smfw_results *const *parts, const char *const *labels,
                                   size_t n, const smfw_results *merged,
                                   const smfw_merge_options *opts, smfw_merge_report *rep,
                                   smfw_error *err) {
    rep->start_known = rep->start_barrier = 0;
    rep->start_spread_ms = rep->start_lateness_ms = rep->clock_error_ms = rep->window_ms = 0;
    rep->hosts = 0;
    if (n < 2) return SMFW_OK;
    const smfw_stats *s = merged->stats;
    if (s[SMFW_M_MIN_REQUEST_TIMESTAMP].present && s[SMFW_M_MAX_RESPONSE_TIMESTAMP].present)
        rep->window_ms =
            (s[SMFW_M_MAX_RESPONSE_TIMESTAMP].avg - s[SMFW_M_MIN_REQUEST_TIMESTAMP].avg) / 1e6;
    int64_t first = INT64_MAX, last = INT64_MIN, at = 0;
    size_t i_last = 0, i_unsynced = n, known = 0, barrier = 0;
    const char *hosts[64];
    size_t n_hosts = 0, host_overflow = 0;
    double clock_err = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *doc =
            parts[i]->info.smfw_json ? json_loads(parts[i]->info.smfw_json, 0, NULL) : NULL;
        json_t *st = json_object_get(doc, "start");
        json_t *began = json_object_get(st, "began_wall_ns");
        if (json_is_integer(began)) {
            known++;
            int64_t b = (int64_t)json_integer_value(began);
            if (b < first) first = b;
            if (b > last) {
                last = b;
                i_last = i;
            }
            json_t *a = json_object_get(st, "at_wall_ns");
            if (json_is_integer(a) && (!barrier || json_integer_value(a) == at)) {
                at = (int64_t)json_integer_value(a);
                barrier++;
            }
            const char *h = json_string_value(json_object_get(st, "host"));
            size_t k = 0;
            while (h && k < n_hosts && strcmp(hosts[k], h) != 0) k++;
            if (h && k == n_hosts) {
                if (n_hosts < sizeof hosts / sizeof hosts[0])
                    hosts[n_hosts++] = strdup(h);
                else
                    host_overflow++;
            }
            json_t *c = json_object_get(st, "clock");
            if (json_is_false(json_object_get(c, "synchronised")) && i_unsynced == n)
                i_unsynced = i;
            json_t *me = json_object_get(c, "maxerror_us");
            if (json_is_integer(me) && json_integer_value(me) / 1e3 > clock_err)
                clock_err = (double)json_integer_value(me) / 1e3;
        }
        json_decref(doc);
    }
    rep->hosts = n_hosts + host_overflow;
    for (size_t k = 0; k < n_hosts; k++) free((void *)hosts[k]);
    if (known != n) return SMFW_OK; /* results from before --start-at: nothing to judge */
    rep->start_known = 1;
    rep->start_barrier = barrier == n;
    rep->start_spread_ms = (double)(last - first) / 1e6;
    if (rep->start_barrier && last > at) rep->start_lateness_ms = (double)(last - at) / 1e6;
    /* One host: one clock, its error cancels out of every difference. */
    int several_hosts = rep->hosts > 1;
    rep->clock_error_ms = several_hosts ? clock_err : 0;
    /* Without a barrier the parts were not meant to overlap (shards run one after another,
     * a bundle and its re-analysis): report, do not judge. */
    if (!rep->start_barrier || rep->window_ms <= 0) return SMFW_OK;
    double limit = START_SPREAD_FRACTION * rep->window_ms;
    char why[512];
    why[0] = '\0';
    if (rep->start_spread_ms > limit)
        snprintf(why, sizeof why,
                 "the shards began %.1f ms apart (%s last, %.1f ms after --start-at), more than "
                 "%.0f%% of the merged window of %.1f ms",
                 rep->start_spread_ms, name_of(parts[i_last], labels, i_last),
                 rep->start_lateness_ms, START_SPREAD_FRACTION * 100, rep->window_ms);
    else if (several_hosts && i_unsynced < n)
        snprintf(why, sizeof why,
                 "the shards ran on %zu hosts and %s's clock is not synchronised (adjtimex): "
                 "their start times cannot be compared",
                 rep->hosts, name_of(parts[i_unsynced], labels, i_unsynced));
    else if (several_hosts && rep->clock_error_ms > limit)
        snprintf(why, sizeof why,
                 "the shards' clocks may be off by up to %.1f ms (adjtimex maxerror), more than "
                 "%.0f%% of the merged window of %.1f ms",
                 rep->clock_error_ms, START_SPREAD_FRACTION * 100, rep->window_ms);
    if (!why[0]) return SMFW_OK;
    if (opts && opts->allow_start_spread) {
        SMFW_LOG_WARN(NULL, "%s; merged anyway (--allow-start-spread)", why);
        return SMFW_OK;
    }
    return smfw_error_set(err, SMFW_ERR_CONFIG,
                          "%s: they did not run as one load. Start them with a later --start-at "
                          "(synchronise the clocks with NTP/chrony), or give --allow-start-spread "
                          "to merge anyway",
                          why);
}

json_t *smfw_merge_start_json(const smfw_merge_report *rep) {
    json_t *o = json_object();
    json_object_set_new(o, "barrier", json_boolean(rep->start_barrier));
    json_object_set_new(o, "spread_ms", json_real(rep->start_spread_ms));
    if (rep->start_barrier)
        json_object_set_new(o, "latest_lateness_ms", json_real(rep->start_lateness_ms));
    json_object_set_new(o, "hosts", json_integer((json_int_t)rep->hosts));
    json_object_set_new(o, "clock_error_ms", json_real(rep->clock_error_ms));
    json_object_set_new(o, "window_ms", json_real(rep->window_ms));
    return o;
}
