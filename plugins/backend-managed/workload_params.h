/*
 * workload_params.h - the WorkloadSpec parameters smfw documents as accepted
 * (AIPerf's options as SageMaker's benchmark names them), with their types.
 *
 * The one list: the managed backend checks every spec against it before any
 * call (workload_spec.c), and smfw-mock's CreateAIWorkloadConfig refuses a
 * parameter it does not name. Both compile workload_params.c in; the model
 * cannot decide this (WorkloadSpec.Inline is an opaque string there).
 */
#ifndef SMFW_MANAGED_WORKLOAD_PARAMS_H
#define SMFW_MANAGED_WORKLOAD_PARAMS_H

#include <stddef.h>

typedef enum workload_param_type {
    WP_INT_POS,    /* integer > 0 */
    WP_INT_NONNEG, /* integer >= 0 */
    WP_NUM_POS,    /* number > 0 */
    WP_NUM_NONNEG, /* number >= 0 */
    WP_PERCENT,    /* number in [0, 100] */
    WP_BOOL,
    WP_STRING,
    WP_INT_OR_LIST, /* concurrency: N or [N, ...] (a sweep) */
    WP_STR_OR_LIST, /* extra_inputs: "k:v" or ["k:v", ...] */
    WP_ENUM
} workload_param_type;

typedef struct workload_param {
    const char *name;
    workload_param_type type;
    const char *choices; /* WP_ENUM: "|a|b|c|" */
} workload_param;

/** The parameter of that name, or NULL when the list does not have it. */
const workload_param *workload_param_find(const char *name);

/** The i-th parameter (i < workload_param_count()), in the documented order. */
const workload_param *workload_param_at(size_t i);
size_t workload_param_count(void);

/** "a, b, c": every name, for messages; returns the length (snprintf's). */
int workload_param_names(char *out, size_t size);

#endif /* SMFW_MANAGED_WORKLOAD_PARAMS_H */
