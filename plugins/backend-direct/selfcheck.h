/*
 * selfcheck.h - the client checks itself: CPU used by the load generator,
 * event-loop pass times (how late a read can be stamped), send lag and late
 * sends against the schedule, dropped arrivals, how late timer wakes came and
 * what waking early for sends cost. When the client rather than
 * the endpoint limits the run, it says so.
 */
#ifndef DIRECT_SELFCHECK_H
#define DIRECT_SELFCHECK_H

#include "engine.h"

typedef struct direct_selfcheck {
    int workers, cores;
    double wall_s;           /* profiling phase */
    double process_cpu_s;    /* whole process during profiling */
    double worker_cpu_s;     /* sum over worker threads */
    double max_worker_busy;  /* max over workers of (cpu - spin)/wall */
    double spin_s;           /* sum over workers: polling for a due send (engine.c) */
    double send_lead_ms;     /* largest worker's lead at the end of the phase */
    double wake_late_max_ms; /* latest timer wake of the phase */
    direct_lag_hist loop_busy, send_lag, arrival_lag;
    uint64_t sends, late_sends, dropped_arrivals, dropped_in_flight, slot_growths;
    int64_t requests;
    int open_loop;
    double late_threshold_ms;
    char summary[768];
    char warning[1024]; /* "" when the client kept up */
} direct_selfcheck;

/** Gather the workers' numbers after a phase. */
void direct_selfcheck_collect(const direct_engine *eng, double wall_s, double process_cpu_s,
                              int64_t requests, direct_selfcheck *out);

/** JSON object text for info.smfw_json's "client" (malloc'd). */
char *direct_selfcheck_json(const direct_selfcheck *sc);

/** CPU seconds used by this process so far. */
double direct_process_cpu_s(void);

#endif /* DIRECT_SELFCHECK_H */
