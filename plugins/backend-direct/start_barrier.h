/*
 * start_barrier.h - `--start-at TIME`: every shard of a run waits on CLOCK_REALTIME for one
 * agreed moment, so shards on several machines overlap exactly, and records how late it
 * began and how good its clock is (the merge judges the spread with both).
 */
#ifndef DIRECT_START_BARRIER_H
#define DIRECT_START_BARRIER_H

#include <signal.h>
#include <stdint.h>

#include <jansson.h>

#include <smfw/smfw.h>

typedef struct direct_start_barrier {
    int set;             /* a moment was given */
    int64_t at_wall_ns;  /* the agreed moment, CLOCK_REALTIME */
    int64_t began_ns;    /* when the profiling phase began, CLOCK_REALTIME */
    int64_t lateness_ns; /* began_ns - at_wall_ns when this shard began after the moment */
} direct_start_barrier;

/**
 * Parse an RFC 3339 time ("2026-12-01T22:30:00Z", fractions and +HH:MM offsets allowed)
 * or a delay from now ("+30s", "+2m"). NULL or "" = no barrier.
 */
smfw_status direct_start_barrier_parse(const char *text, int64_t now_wall_ns,
                                       direct_start_barrier *b, smfw_error *err);

/** Sleep until the moment (or until *cancel is set) and note when the phase begins. */
void direct_start_barrier_wait(direct_start_barrier *b, volatile sig_atomic_t *cancel, int quiet);

/** {"at", "began_wall_ns", "lateness_ms", "host", "clock": {synchronised, maxerror_us, ...}}. */
json_t *direct_start_barrier_json(const direct_start_barrier *b);

#endif /* DIRECT_START_BARRIER_H */
