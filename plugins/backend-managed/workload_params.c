/*
 * workload_params.c - the documented WorkloadSpec parameters (see
 * workload_params.h): one table, compiled into the managed backend and
 * into smfw-mock.
 */
#include "workload_params.h"

#include <stdio.h>
#include <string.h>

/* AIPerf's options as the benchmark's WorkloadSpec names them (snake_case CLI names). */
static const workload_param workload_params[] = {
    {"prompt_input_tokens_mean", WP_NUM_POS, NULL},
    {"prompt_input_tokens_stddev", WP_NUM_NONNEG, NULL},
    {"output_tokens_mean", WP_NUM_POS, NULL},
    {"output_tokens_stddev", WP_NUM_NONNEG, NULL},
    {"concurrency", WP_INT_OR_LIST, NULL},
    {"request_count", WP_INT_POS, NULL},
    {"request_rate", WP_NUM_POS, NULL},
    {"request_rate_mode", WP_ENUM, "|constant|poisson|gamma|"},
    {"arrival_smoothness", WP_NUM_POS, NULL},
    {"benchmark_duration", WP_NUM_POS, NULL},
    {"benchmark_grace_period", WP_NUM_NONNEG, NULL},
    {"warmup_request_count", WP_INT_NONNEG, NULL},
    {"warmup_duration", WP_NUM_NONNEG, NULL},
    {"warmup_concurrency", WP_INT_POS, NULL},
    {"warmup_request_rate", WP_NUM_POS, NULL},
    {"goodput", WP_STRING, NULL},
    {"extra_inputs", WP_STR_OR_LIST, NULL},
    {"streaming", WP_BOOL, NULL},
    {"tokenizer", WP_STRING, NULL},
    {"random_seed", WP_INT_NONNEG, NULL},
    {"custom_dataset_type", WP_ENUM, "|single_turn|multi_turn|mooncake_trace|random_pool|"},
    {"input_file", WP_STRING, NULL},
    {"public_dataset", WP_ENUM, "|sharegpt|"},
    {"num_dataset_entries", WP_INT_POS, NULL},
    {"dataset_sampling_strategy", WP_ENUM, "|sequential|random|shuffle|"},
    {"request_timeout_seconds", WP_NUM_POS, NULL},
    {"request_cancellation_rate", WP_PERCENT, NULL},
    {"request_cancellation_delay", WP_NUM_NONNEG, NULL},
    {"use_server_token_count", WP_BOOL, NULL},
    {"slice_duration", WP_NUM_POS, NULL},
};

size_t workload_param_count(void) {
    return sizeof workload_params / sizeof workload_params[0];
}

const workload_param *workload_param_at(size_t i) {
    return i < workload_param_count() ? &workload_params[i] : NULL;
}

const workload_param *workload_param_find(const char *name) {
    for (size_t i = 0; i < workload_param_count(); i++)
        if (strcmp(workload_params[i].name, name) == 0) return &workload_params[i];
    return NULL;
}

int workload_param_names(char *out, size_t size) {
    size_t o = 0;
    if (size) out[0] = '\0';
    for (size_t i = 0; i < workload_param_count(); i++) {
        int n = snprintf(o < size ? out + o : NULL, o < size ? size - o : 0, "%s%s", i ? ", " : "",
                         workload_params[i].name);
        if (n < 0) return n;
        o += (size_t)n;
    }
    return (int)o;
}
