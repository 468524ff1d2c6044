/*
 * failfast.h - the verdict on a phase's first requests: when the first
 * min(10, budget) completed requests all failed in a way that will not change
 * (cannot connect, DNS, TLS, 401/403 and signature errors, 404 / unknown
 * endpoint) and none succeeded, the endpoint is gone or refuses us, and
 * sending the rest measures nothing. A nightly canary must tell that ("exit
 * 2, endpoint gone") from "2 % errors" (the validity gate, exit 3).
 */
#ifndef DIRECT_FAILFAST_H
#define DIRECT_FAILFAST_H

#include <stdint.h>

#include <smfw/results.h>

/** Requests judged at most: enough to rule out a blip, few enough to stop early. */
#define DIRECT_FAILFAST_WINDOW 10

typedef struct direct_failfast {
    int64_t window;     /**< min(DIRECT_FAILFAST_WINDOW, budget) */
    int64_t seen;       /**< completions judged so far */
    int decided;        /**< a success or a transient error was seen: no verdict */
    int tripped;        /**< every judged request failed permanently */
    smfw_status status; /**< SMFW_ERR_NETWORK, _AUTH or _NOT_FOUND, of the first failure */
    char reason[640];   /**< the first failure: class, type and message */
} direct_failfast;

/** Start a phase; budget is its request count (0 = bounded by time only). */
void direct_failfast_init(direct_failfast *f, int64_t budget);

/**
 * Judge one completion (records of either phase). Returns 1 exactly once, when
 * the window is full of permanent failures; 0 otherwise.
 */
int direct_failfast_add(direct_failfast *f, const smfw_record *rec, int is_error);

/**
 * 1 when the error will be the same for every request (and *status the
 * status it maps to), else 0.
 */
int direct_failfast_permanent(const smfw_record_error *e, smfw_status *status);

/** Set err to the stop's sentence (phase: "warm-up" or "profiling"); returns its status. */
smfw_status direct_failfast_error(const direct_failfast *f, const char *phase, smfw_error *err);

#endif
