/*
 * scheduler.h - arrival schedules on absolute CLOCK_MONOTONIC deadlines.
 *
 * Closed loop: each worker keeps its share of the concurrency in flight; a
 * slot that finishes sends again at once (intended time = completion).
 * Open loop: worker w of W owns a schedule of its own, so no lock is taken
 * per arrival:
 *   - constant rate R: arrival k of worker w at t0 + (w + k*W)/R, i.e. the
 *     workers' schedules interleave into one exact 1/R grid;
 *   - poisson rate R: each worker draws exponential gaps of mean W/R from its
 *     own seeded generator (a superposition of W Poisson processes of rate
 *     R/W is a Poisson process of rate R).
 *   - fixed schedule (--fixed-schedule): arrival k at t0 + offset_k / speedup,
 *     the offsets recorded in the dataset (one worker: arrival k is prompt k).
 * Deadlines are absolute (t0 + offset), so timer lateness never accumulates
 * into drift.
 */
#ifndef DIRECT_SCHEDULER_H
#define DIRECT_SCHEDULER_H

#include <stddef.h>
#include <stdint.h>

/** xoshiro256** generator, seeded by splitmix64 (deterministic across platforms). */
typedef struct direct_rng {
    uint64_t s[4];
} direct_rng;

void direct_rng_seed(direct_rng *r, uint64_t seed, uint64_t stream);
uint64_t direct_rng_next(direct_rng *r);
/** Uniform in (0, 1): never 0, so -log(u) is finite. */
double direct_rng_uniform(direct_rng *r);
/** Normal(mean, stddev) by Box-Muller. */
double direct_rng_normal(direct_rng *r, double mean, double stddev);
/** A random (version 4) UUID string, 36 characters + NUL. */
void direct_uuid4(direct_rng *r, char out[37]);

typedef enum direct_arrival {
    DIRECT_ARRIVAL_CLOSED = 0, /**< concurrency: send when a slot frees */
    DIRECT_ARRIVAL_CONSTANT,   /**< open loop, fixed gap 1/R */
    DIRECT_ARRIVAL_POISSON,    /**< open loop, exponential gaps, seeded */
    DIRECT_ARRIVAL_FIXED       /**< open loop, the dataset's recorded send times */
} direct_arrival;

typedef struct direct_arrivals {
    direct_arrival kind;
    double rate; /**< total requests per second, all workers */
    int worker, n_workers;
    int64_t t0;       /**< phase start (CLOCK_MONOTONIC ns) */
    uint64_t k;       /**< arrivals handed out so far by this worker */
    double elapsed_s; /**< poisson: sum of gaps so far */
    direct_rng rng;
    const int64_t *offsets_ns; /**< fixed: send offsets from the first request (not owned) */
    size_t n_offsets;
    double speedup; /**< fixed: offsets are divided by this (1 = as recorded) */
} direct_arrivals;

void direct_arrivals_init(direct_arrivals *a, direct_arrival kind, double rate, int worker,
                          int n_workers, int64_t t0, uint64_t seed);
/**
 * Make `a` a fixed schedule: arrival k at t0 + offsets_ns[k] / speedup, then none
 * (INT64_MAX). The offsets must stay valid while the schedule is used.
 */
void direct_arrivals_fixed(direct_arrivals *a, const int64_t *offsets_ns, size_t n, double speedup);

/**
 * Send offsets of a timed dataset, ns from the first (timestamps_ms[0] is the origin; the
 * caller orders them), for direct_arrivals_fixed(). Returns a malloc'd array, NULL when out of
 * memory.
 */
int64_t *direct_schedule_offsets(const int64_t *timestamps_ms, size_t n);

/** Deadline of the next arrival of this worker (absolute ns); advances the schedule. */
int64_t direct_arrivals_next(direct_arrivals *a);

/** Share i of `total` split over n (the first total % n get one more). */
int64_t direct_share(int64_t total, int n, int i);

/**
 * Default worker count: one per 128 connections in flight or 500 requests/s,
 * at least 1, at most `cpus`.
 */
int direct_default_workers(int64_t in_flight, double rate, int cpus);

#endif /* DIRECT_SCHEDULER_H */
