/* metrics.c - the catalogue of AIPerf metrics (aiperf-compat.md §2) plus smfw's own. */
#include <string.h>

#include <smfw/results.h>

#define MS 1e-6
/* id, tag, header, base unit, display unit, scale, kind, larger_is_better, streaming_only,
 * integer_valued, smfw_only */
static const smfw_metric_info metric_table[SMFW_M_COUNT_] = {
    {SMFW_M_TIME_TO_FIRST_TOKEN, "time_to_first_token", "Time to First Token", "ns", "ms", MS,
     SMFW_METRIC_RECORD, 0, 1, 0, 0},
    {SMFW_M_TIME_TO_SECOND_TOKEN, "time_to_second_token", "Time to Second Token", "ns", "ms", MS,
     SMFW_METRIC_RECORD, 0, 1, 0, 0},
    {SMFW_M_TIME_TO_FIRST_OUTPUT_TOKEN, "time_to_first_output_token", "Time to First Output Token",
     "ns", "ms", MS, SMFW_METRIC_RECORD, 0, 1, 0, 0},
    {SMFW_M_REQUEST_LATENCY, "request_latency", "Request Latency", "ns", "ms", MS,
     SMFW_METRIC_RECORD, 0, 0, 0, 0},
    {SMFW_M_INTER_TOKEN_LATENCY, "inter_token_latency", "Inter Token Latency", "ns", "ms", MS,
     SMFW_METRIC_RECORD, 0, 1, 0, 0},
    {SMFW_M_INTER_CHUNK_LATENCY, "inter_chunk_latency", "Inter Chunk Latency", "ns", "ms", MS,
     SMFW_METRIC_RECORD, 0, 1, 0, 0},
    {SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER, "output_token_throughput_per_user",
     "Output Token Throughput Per User", "tokens/sec/user", "tokens/sec/user", 1.0,
     SMFW_METRIC_RECORD, 1, 1, 0, 0},
    {SMFW_M_PREFILL_THROUGHPUT_PER_USER, "prefill_throughput_per_user",
     "Prefill Throughput Per User", "tokens/sec/user", "tokens/sec/user", 1.0, SMFW_METRIC_RECORD,
     1, 1, 0, 0},
    {SMFW_M_OUTPUT_SEQUENCE_LENGTH, "output_sequence_length", "Output Sequence Length", "tokens",
     "tokens", 1.0, SMFW_METRIC_RECORD, 1, 0, 1, 0},
    {SMFW_M_INPUT_SEQUENCE_LENGTH, "input_sequence_length", "Input Sequence Length", "tokens",
     "tokens", 1.0, SMFW_METRIC_RECORD, 1, 0, 1, 0},
    {SMFW_M_OUTPUT_TOKEN_COUNT, "output_token_count", "Output Token Count", "tokens", "tokens", 1.0,
     SMFW_METRIC_RECORD, 1, 0, 1, 0},
    {SMFW_M_REASONING_TOKEN_COUNT, "reasoning_token_count", "Reasoning Token Count", "tokens",
     "tokens", 1.0, SMFW_METRIC_RECORD, 1, 0, 1, 0},
    {SMFW_M_USAGE_PROMPT_TOKENS, "usage_prompt_tokens", "Usage Prompt Tokens", "tokens", "tokens",
     1.0, SMFW_METRIC_RECORD, 1, 0, 1, 0},
    {SMFW_M_USAGE_COMPLETION_TOKENS, "usage_completion_tokens", "Usage Completion Tokens", "tokens",
     "tokens", 1.0, SMFW_METRIC_RECORD, 1, 0, 1, 0},
    {SMFW_M_USAGE_TOTAL_TOKENS, "usage_total_tokens", "Usage Total Tokens", "tokens", "tokens", 1.0,
     SMFW_METRIC_RECORD, 1, 0, 1, 0},
    {SMFW_M_USAGE_REASONING_TOKENS, "usage_reasoning_tokens", "Usage Reasoning Tokens", "tokens",
     "tokens", 1.0, SMFW_METRIC_RECORD, 1, 0, 1, 0},
    {SMFW_M_ERROR_ISL, "error_isl", "Error Input Sequence Length", "tokens", "tokens", 1.0,
     SMFW_METRIC_ERROR_RECORD, 0, 0, 1, 0},
    {SMFW_M_SCHEDULE_LAG, "schedule_lag", "Schedule Lag", "ns", "ms", MS, SMFW_METRIC_RECORD, 0, 0,
     0, 1},
    {SMFW_M_TTFT_FROM_INTENDED, "time_to_first_token_from_intended",
     "Time to First Token (from intended send)", "ns", "ms", MS, SMFW_METRIC_RECORD, 0, 1, 0, 1},
    {SMFW_M_REQUEST_LATENCY_FROM_INTENDED, "request_latency_from_intended",
     "Request Latency (from intended send)", "ns", "ms", MS, SMFW_METRIC_RECORD, 0, 0, 0, 1},
    {SMFW_M_REQUEST_THROUGHPUT, "request_throughput", "Request Throughput", "requests/sec",
     "requests/sec", 1.0, SMFW_METRIC_DERIVED, 1, 0, 0, 0},
    {SMFW_M_OUTPUT_TOKEN_THROUGHPUT, "output_token_throughput", "Output Token Throughput",
     "tokens/sec", "tokens/sec", 1.0, SMFW_METRIC_DERIVED, 1, 0, 0, 0},
    {SMFW_M_GOODPUT, "goodput", "Goodput", "requests/sec", "requests/sec", 1.0, SMFW_METRIC_DERIVED,
     1, 0, 0, 0},
    {SMFW_M_REQUEST_COUNT, "request_count", "Request Count", "requests", "requests", 1.0,
     SMFW_METRIC_AGGREGATE, 1, 0, 1, 0},
    {SMFW_M_ERROR_REQUEST_COUNT, "error_request_count", "Error Request Count", "requests",
     "requests", 1.0, SMFW_METRIC_AGGREGATE, 0, 0, 1, 0},
    {SMFW_M_GOOD_REQUEST_COUNT, "good_request_count", "Good Request Count", "requests", "requests",
     1.0, SMFW_METRIC_AGGREGATE, 1, 0, 1, 0},
    {SMFW_M_MIN_REQUEST_TIMESTAMP, "min_request_timestamp", "Minimum Request Timestamp", "ns", "ns",
     1.0, SMFW_METRIC_AGGREGATE, 0, 0, 1, 0},
    {SMFW_M_MAX_RESPONSE_TIMESTAMP, "max_response_timestamp", "Maximum Response Timestamp", "ns",
     "ns", 1.0, SMFW_METRIC_AGGREGATE, 0, 0, 1, 0},
    {SMFW_M_BENCHMARK_DURATION, "benchmark_duration", "Benchmark Duration", "ns", "sec", 1e-9,
     SMFW_METRIC_DERIVED, 0, 0, 0, 0},
    {SMFW_M_TOTAL_OSL, "total_osl", "Total Output Sequence Length", "tokens", "tokens", 1.0,
     SMFW_METRIC_DERIVED, 1, 0, 1, 0},
    {SMFW_M_TOTAL_ISL, "total_isl", "Total Input Sequence Length", "tokens", "tokens", 1.0,
     SMFW_METRIC_DERIVED, 1, 0, 1, 0},
    {SMFW_M_TOTAL_OUTPUT_TOKENS, "total_output_tokens", "Total Output Tokens", "tokens", "tokens",
     1.0, SMFW_METRIC_DERIVED, 1, 0, 1, 0},
    {SMFW_M_TOTAL_REASONING_TOKENS, "total_reasoning_tokens", "Total Reasoning Tokens", "tokens",
     "tokens", 1.0, SMFW_METRIC_DERIVED, 1, 0, 1, 0},
    {SMFW_M_TOTAL_TOKEN_THROUGHPUT, "total_token_throughput", "Total Token Throughput",
     "tokens/sec", "tokens/sec", 1.0, SMFW_METRIC_DERIVED, 1, 0, 0, 0},
    {SMFW_M_TOTAL_ERROR_ISL, "total_error_isl", "Total Error Input Sequence Length", "tokens",
     "tokens", 1.0, SMFW_METRIC_DERIVED, 0, 0, 1, 0},
    {SMFW_M_TOTAL_USAGE_PROMPT_TOKENS, "total_usage_prompt_tokens", "Total Usage Prompt Tokens",
     "tokens", "tokens", 1.0, SMFW_METRIC_DERIVED, 1, 0, 1, 0},
    {SMFW_M_TOTAL_USAGE_COMPLETION_TOKENS, "total_usage_completion_tokens",
     "Total Usage Completion Tokens", "tokens", "tokens", 1.0, SMFW_METRIC_DERIVED, 1, 0, 1, 0},
    {SMFW_M_TOTAL_USAGE_TOTAL_TOKENS, "total_usage_total_tokens", "Total Usage Total Tokens",
     "tokens", "tokens", 1.0, SMFW_METRIC_DERIVED, 1, 0, 1, 0},
    {SMFW_M_TOTAL_USAGE_REASONING_TOKENS, "total_usage_reasoning_tokens",
     "Total Usage Reasoning Tokens", "tokens", "tokens", 1.0, SMFW_METRIC_DERIVED, 1, 0, 1, 0},
    /* AIPerf's prefix-cache metrics, same tags (aiperf/metrics/types/usage_metrics.py) */
    {SMFW_M_USAGE_PROMPT_CACHED_TOKENS, "usage_prompt_cached_tokens", "Usage Prompt Cached Tokens",
     "tokens", "tokens", 1.0, SMFW_METRIC_RECORD, 1, 0, 1, 0},
    {SMFW_M_TOTAL_USAGE_PROMPT_CACHED_TOKENS, "total_usage_prompt_cached_tokens",
     "Total Usage Prompt Cached Tokens", "tokens", "tokens", 1.0, SMFW_METRIC_DERIVED, 1, 0, 1, 0},
    /* AIPerf's usage-discrepancy metrics, same tags and headers
     * (aiperf/metrics/types/usage_diff_metrics.py) */
    {SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT, "usage_prompt_tokens_diff_pct", "Usage Prompt Diff", "%",
     "%", 1.0, SMFW_METRIC_RECORD, 0, 0, 0, 0},
    {SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT, "usage_completion_tokens_diff_pct",
     "Usage Completion Diff %", "%", "%", 1.0, SMFW_METRIC_RECORD, 0, 0, 0, 0},
    {SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT, "usage_reasoning_tokens_diff_pct",
     "Usage Reasoning Diff %", "%", "%", 1.0, SMFW_METRIC_RECORD, 0, 0, 0, 0},
    {SMFW_M_USAGE_DISCREPANCY_COUNT, "usage_discrepancy_count", "Usage Discrepancy Count",
     "requests", "requests", 1.0, SMFW_METRIC_AGGREGATE, 0, 0, 1, 0},
#ifdef SMFW_TEST_APPEND_METRIC
    /* -DSMFW_TEST_APPEND_METRIC=ON: a record metric appended as a 2.x minor would (a copy of
     * the request latency), to show that plugins built without it still work. */
    {SMFW_M_TEST_APPENDED, "smfw_test_appended", "Test Appended Latency", "ns", "ms", MS,
     SMFW_METRIC_RECORD, 0, 0, 0, 1},
#endif
};

/* Every id has its row, in id order. */
_Static_assert(sizeof metric_table / sizeof metric_table[0] == SMFW_M_COUNT_,
               "metric_table needs one row per smfw_metric_id");

const double smfw_percentiles[SMFW_PERCENTILE_COUNT] = {1, 5, 10, 25, 50, 75, 90, 95, 99};
const char *const smfw_percentile_keys[SMFW_PERCENTILE_COUNT] = {"p1",  "p5",  "p10", "p25", "p50",
                                                                 "p75", "p90", "p95", "p99"};

const smfw_metric_info *smfw_metric_get(smfw_metric_id id) {
    if ((int)id < 0 || id >= SMFW_M_COUNT_) return NULL;
    return &metric_table[id];
}

int smfw_metric_count(void) {
    return SMFW_M_COUNT_;
}

int smfw_metric_is_per_record(smfw_metric_id id) {
    const smfw_metric_info *mi = smfw_metric_get(id);
    return mi && (mi->kind == SMFW_METRIC_RECORD || mi->kind == SMFW_METRIC_ERROR_RECORD);
}

int smfw_metric_find(const char *tag) {
    if (!tag) return -1;
    /* Pre-release tags (aiperf 2025-10) and the 0.3-era prefill name. */
    if (strcmp(tag, "ttft") == 0) return SMFW_M_TIME_TO_FIRST_TOKEN;
    if (strcmp(tag, "ttst") == 0) return SMFW_M_TIME_TO_SECOND_TOKEN;
    if (strcmp(tag, "prefill_throughput") == 0) return SMFW_M_PREFILL_THROUGHPUT_PER_USER;
    for (int i = 0; i < SMFW_M_COUNT_; i++)
        if (strcmp(metric_table[i].tag, tag) == 0) return i;
    return -1;
}

/* Headers of metrics newer AIPerf builds export that smfw keeps as extra metrics
 * (from the 0.10 fixture's CSV, whose rows are sorted by tag). */
static const struct {
    const char *tag, *header;
} extra_headers[] = {{"e2e_output_token_throughput", "E2E Output Token Throughput"},
                     {"http_req_blocked", "HTTP Blocked"},
                     {"http_req_chunks_received", "HTTP Chunks Received"},
                     {"http_req_chunks_sent", "HTTP Chunks Sent"},
                     {"http_req_connecting", "HTTP Connecting"},
                     {"http_req_connection_overhead", "HTTP Connection Overhead"},
                     {"http_req_connection_reused", "HTTP Connection Reused"},
                     {"http_req_data_received", "HTTP Data Received"},
                     {"http_req_data_sent", "HTTP Data Sent"},
                     {"http_req_dns_lookup", "HTTP DNS Lookup"},
                     {"http_req_duration", "HTTP Duration (excl. conn)"},
                     {"http_req_receiving", "HTTP Receiving"},
                     {"http_req_sending", "HTTP Sending"},
                     {"http_req_total", "HTTP Total Time"},
                     {"http_req_waiting", "HTTP Waiting (TTFB)"},
                     {"osl_mismatch_diff_pct", "OSL Mismatch Diff %"},
                     {"osl_mismatch_count", "OSL Mismatch Count"}};

const char *smfw_metric_known_extra_header(const char *tag) {
    for (size_t i = 0; i < sizeof extra_headers / sizeof extra_headers[0]; i++)
        if (strcmp(extra_headers[i].tag, tag) == 0) return extra_headers[i].header;
    return NULL;
}
