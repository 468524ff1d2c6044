/*
 * results_layout.h - the layout of smfw_record and smfw_results, for the
 * library and the program (src/, smfw-mock, the tests), which read and fill
 * them directly where speed or brevity asks for it.
 *
 * Program API, NOT part of the plugin SDK: plugins see both structs opaque
 * (smfw/results.h) and go through the accessors and setters, because this
 * layout changes whenever a metric is appended (values[] and stats[] are sized
 * by SMFW_M_COUNT_). tools/check_architecture.sh keeps plugins off it (R3).
 */
#ifndef SMFW_RESULTS_LAYOUT_H
#define SMFW_RESULTS_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include <smfw/results.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One request, as AIPerf exports it. Strings are heap-allocated and owned by
 * the record. Wall-clock fields are ns since the epoch; 0 means absent.
 */
struct smfw_record {
    /* metadata (AIPerf names) */
    int64_t session_num; /**< -1 = absent */
    char *x_request_id;  /**< also sent as X-Amzn-SageMaker-Inference-Id */
    char *x_correlation_id;
    char *conversation_id;
    int32_t turn_index;
    int64_t credit_issued_ns;
    int64_t request_start_ns;
    int64_t request_ack_ns;
    int64_t request_end_ns;
    int64_t cancellation_time_ns;
    char *worker_id;
    char *record_processor_id;
    int was_cancelled;
    /* smfw extras */
    int64_t intended_start_ns; /**< wall time the schedule wanted the send */
    int http_status;           /**< 0 = none */
    char *token_count_source;  /**< where ISL/OSL came from (SMFW_RECORD_TOKEN_COUNT_SOURCE) */
    /* metric values in BASE units, indexed by id (only per-record ids are used); bit i of
     * `present` = values[i] is set (record.c asserts the ids fit) */
    uint64_t present;
    double values[SMFW_M_COUNT_];
    double *icl; /**< inter-chunk latencies (ns), owned */
    size_t icl_len;
    /* NULL for a valid record */
    smfw_record_error *error;
    /** Metrics this version does not know, kept verbatim as a JSON object text (or NULL). */
    char *extra_metrics_json;
};

/** Results of one run. */
struct smfw_results {
    smfw_run_info info;
    smfw_record *records; /**< profiling records (valid and error), in completion order */
    size_t n_records;
    size_t records_cap;
    int records_complete; /**< 1 = every record of the run is present (aggregates recomputable) */
    smfw_stats stats[SMFW_M_COUNT_];
    smfw_extra_metric *extra;
    size_t n_extra;
    smfw_error_summary_entry *errors;
    size_t n_errors;
    void *internal_; /**< core-private (locks, JSONL sink); do not touch */
};

#ifdef __cplusplus
}
#endif
#endif /* SMFW_RESULTS_LAYOUT_H */
