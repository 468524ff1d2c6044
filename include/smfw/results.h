/*
 * results.h - the one results model shared by every backend and reporter.
 *
 * A run produces: run metadata (smfw_run_info), per-request records
 * (smfw_record, AIPerf's profile_export.jsonl schema) and per-metric
 * aggregates (smfw_stats, AIPerf's profile_export_aiperf.json schema).
 * The direct backend fills records from its own measurements and calls
 * smfw_results_compute(); the managed backend parses an AIPerf bundle
 * (smfw_results_load_aiperf_json / _jsonl). Reporters only read, and only
 * through the accessors ("reading results" below); backends build through the
 * setters ("building results"): since ABI 2.0 smfw_results and smfw_record are
 * opaque to plugins, so that a metric appended in a 2.x minor moves nothing a
 * compiled plugin depends on.
 *
 * Units: record values are kept in BASE units (ns for times, tokens,
 * tokens/sec...); aggregates in smfw_stats are in DISPLAY units (ms, sec...),
 * exactly what AIPerf writes. Statistics follow aiperf-compat.md §3: numpy
 * "linear" percentiles and population standard deviation, computed in base
 * units and then scaled.
 */
#ifndef SMFW_RESULTS_H
#define SMFW_RESULTS_H

#include <stdio.h>

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

struct json_t; /* jansson's json_t (<jansson.h>), for the typed JSON accessors */

/**
 * Metrics smfw knows: stable, append-only ids (a 2.x minor adds a metric at
 * the end, of any kind, and never renumbers one). Whether a metric has a
 * value per request is its kind (smfw_metric_info, smfw_metric_is_per_record()),
 * not its place. A plugin iterates up to smfw_metric_count(), the number the
 * running library knows, never SMFW_M_COUNT_ (what the plugin was compiled
 * with). The order of this enum is not the output order; see smfw_metric_info.
 */
typedef enum smfw_metric_id {
    /* per record (R) */
    SMFW_M_TIME_TO_FIRST_TOKEN = 0,
    SMFW_M_TIME_TO_SECOND_TOKEN = 1,
    SMFW_M_TIME_TO_FIRST_OUTPUT_TOKEN = 2,
    SMFW_M_REQUEST_LATENCY = 3,
    SMFW_M_INTER_TOKEN_LATENCY = 4,
    SMFW_M_INTER_CHUNK_LATENCY = 5, /**< a list per record, pooled for the summary */
    SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER = 6,
    SMFW_M_PREFILL_THROUGHPUT_PER_USER = 7,
    SMFW_M_OUTPUT_SEQUENCE_LENGTH = 8,
    SMFW_M_INPUT_SEQUENCE_LENGTH = 9,
    SMFW_M_OUTPUT_TOKEN_COUNT = 10,
    SMFW_M_REASONING_TOKEN_COUNT = 11,
    SMFW_M_USAGE_PROMPT_TOKENS = 12,
    SMFW_M_USAGE_COMPLETION_TOKENS = 13,
    SMFW_M_USAGE_TOTAL_TOKENS = 14,
    SMFW_M_USAGE_REASONING_TOKENS = 15,
    SMFW_M_ERROR_ISL = 16, /**< error records only */
    /* smfw's own per-record metrics (written under "smfw", never at AIPerf's top level) */
    SMFW_M_SCHEDULE_LAG = 17,                  /**< actual send - intended send */
    SMFW_M_TTFT_FROM_INTENDED = 18,            /**< first content - intended send */
    SMFW_M_REQUEST_LATENCY_FROM_INTENDED = 19, /**< last content - intended send */

    /* aggregates (A) and derived (D): single values. Appended metrics of any kind follow
     * SMFW_M_TOTAL_USAGE_REASONING_TOKENS. */
    SMFW_M_REQUEST_THROUGHPUT = 20,
    SMFW_M_OUTPUT_TOKEN_THROUGHPUT = 21,
    SMFW_M_GOODPUT = 22,
    SMFW_M_REQUEST_COUNT = 23,
    SMFW_M_ERROR_REQUEST_COUNT = 24,
    SMFW_M_GOOD_REQUEST_COUNT = 25,
    SMFW_M_MIN_REQUEST_TIMESTAMP = 26,
    SMFW_M_MAX_RESPONSE_TIMESTAMP = 27,
    SMFW_M_BENCHMARK_DURATION = 28,
    SMFW_M_TOTAL_OSL = 29,
    SMFW_M_TOTAL_ISL = 30,
    SMFW_M_TOTAL_OUTPUT_TOKENS = 31,
    SMFW_M_TOTAL_REASONING_TOKENS = 32,
    SMFW_M_TOTAL_TOKEN_THROUGHPUT = 33,
    SMFW_M_TOTAL_ERROR_ISL = 34,
    SMFW_M_TOTAL_USAGE_PROMPT_TOKENS = 35,
    SMFW_M_TOTAL_USAGE_COMPLETION_TOKENS = 36,
    SMFW_M_TOTAL_USAGE_TOTAL_TOKENS = 37,
    SMFW_M_TOTAL_USAGE_REASONING_TOKENS = 38,
    /* appended: the server's prefix-cache hits (usage.prompt_tokens_details.cached_tokens) */
    SMFW_M_USAGE_PROMPT_CACHED_TOKENS = 39,       /**< per record (R) */
    SMFW_M_TOTAL_USAGE_PROMPT_CACHED_TOKENS = 40, /**< derived sum */
    /* appended: AIPerf's server-usage vs client-count differences (|usage - count| / count x
     * 100), per record only when the counts are the client's own (a tokenizer) */
    SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT = 41,     /**< per record (R): usage_prompt vs ISL */
    SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT = 42, /**< per record (R): usage_completion vs OSL */
    SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT = 43,  /**< per record (R): usage vs reasoning count */
    SMFW_M_USAGE_DISCREPANCY_COUNT = 44,          /**< aggregate: records with a diff over 10 % */
#ifdef SMFW_TEST_APPEND_METRIC
    SMFW_M_TEST_APPENDED = 45, /**< test builds only: a record metric appended in a minor */
#endif
    SMFW_M_COUNT_ /**< ids this build knows (not a metric); plugins ask smfw_metric_count() */
} smfw_metric_id;

/** How a metric is produced. */
typedef enum smfw_metric_kind {
    SMFW_METRIC_RECORD = 0,   /**< value per valid record -> full statistics */
    SMFW_METRIC_ERROR_RECORD, /**< value per error record -> full statistics */
    SMFW_METRIC_AGGREGATE,    /**< one value over all records */
    SMFW_METRIC_DERIVED       /**< one value derived from other results */
} smfw_metric_kind;

/** Static facts about a metric. */
typedef struct smfw_metric_info {
    smfw_metric_id id;
    const char *tag;          /**< AIPerf tag, e.g. "time_to_first_token" */
    const char *header;       /**< AIPerf header text, e.g. "Time to First Token" */
    const char *base_unit;    /**< unit records are kept in ("ns", "tokens"...) */
    const char *display_unit; /**< unit of files and aggregates ("ms", "sec"...) */
    double display_scale;     /**< display = base * scale (ns->ms 1e-6) */
    smfw_metric_kind kind;
    int larger_is_better; /**< throughputs and counts of good things */
    int streaming_only;   /**< only when streaming */
    int integer_valued;   /**< token counts: written as integers per record */
    int smfw_only;        /**< smfw extension: lives in the "smfw" object */
} smfw_metric_info;

/** Facts about a metric id (never NULL for a valid id). */
SMFW_API const smfw_metric_info *smfw_metric_get(smfw_metric_id id);

/**
 * Find a metric by tag; also accepts the pre-release aliases ("ttft",
 * "ttst", "prefill_throughput"). Returns -1 when unknown.
 */
SMFW_API int smfw_metric_find(const char *tag);

/** Number of metric ids the running library knows (ids 0 .. count-1; grows in 2.x minors). */
SMFW_API int smfw_metric_count(void);

/** 1 when the metric has a value per request (kind RECORD or ERROR_RECORD), else 0. */
SMFW_API int smfw_metric_is_per_record(smfw_metric_id id);

/** Percentiles AIPerf reports, in file order. */
#define SMFW_PERCENTILE_COUNT 9
SMFW_API extern const double smfw_percentiles[SMFW_PERCENTILE_COUNT]; /* 1 5 10 25 50 75 90 95 99 */
SMFW_API extern const char *const smfw_percentile_keys[SMFW_PERCENTILE_COUNT]; /* "p1".."p99" */

/** Index of each percentile in smfw_stats.p (and smfw_percentiles): read p[SMFW_P95], not p[7]. */
typedef enum smfw_percentile_index {
    SMFW_P1 = 0,
    SMFW_P5 = 1,
    SMFW_P10 = 2,
    SMFW_P25 = 3,
    SMFW_P50 = 4,
    SMFW_P75 = 5,
    SMFW_P90 = 6,
    SMFW_P95 = 7,
    SMFW_P99 = 8
} smfw_percentile_index;

/** Which fields of an smfw_stats hold a value. */
enum {
    SMFW_STAT_AVG = 1u << 0,
    SMFW_STAT_MIN = 1u << 1,
    SMFW_STAT_MAX = 1u << 2,
    SMFW_STAT_STD = 1u << 3,
    SMFW_STAT_SUM = 1u << 4,
    SMFW_STAT_COUNT = 1u << 5,
    SMFW_STAT_P_FIRST = 1u << 6 /**< bit of p[i] is SMFW_STAT_P_FIRST << i */
};

/** Statistics of one metric, in display units. */
typedef struct smfw_stats {
    int present;     /**< the metric exists in this run */
    unsigned fields; /**< SMFW_STAT_* bits of the fields that hold a value */
    double avg, min, max, std, sum;
    double p[SMFW_PERCENTILE_COUNT];
    uint64_t count; /**< number of values */
} smfw_stats;

/**
 * numpy.percentile(method="linear") of sorted values (n >= 1), p in [0, 100],
 * bit-compatible with numpy's interpolation branch.
 */
SMFW_API double smfw_percentile_linear(const double *sorted, size_t n, double p);

/**
 * Full statistics of n values given in base units, scaled by `scale` into
 * display units: avg, min, max, p1..p99, population std, sum, count, each the
 * numpy result (np.percentile linear, np.mean, np.std, np.sum) times `scale`,
 * bit for bit (tests/unit/test_stats_numpy.c).
 * `values` is not modified (a sorted copy is made). n == 0 -> not present.
 */
SMFW_API smfw_status smfw_stats_compute(const double *values, size_t n, double scale,
                                        smfw_stats *out);

/**
 * numpy.sum of n values, to the bit: pairwise summation within each block of
 * 8192 values (numpy's reduce buffer), the blocks added in turn. 0 when n == 0.
 */
SMFW_API double smfw_stats_sum(const double *values, size_t n);

/** A single-value statistic (aggregate metrics). */
SMFW_API void smfw_stats_single(smfw_stats *out, double value);

/** smfw's classification of a failed request. */
typedef enum smfw_error_class {
    SMFW_ERRCLASS_NONE = 0,
    SMFW_ERRCLASS_CONNECT,      /**< could not connect / TLS / DNS */
    SMFW_ERRCLASS_CONNECTION,   /**< connection dropped mid-response */
    SMFW_ERRCLASS_TIMEOUT,      /**< request timeout (SageMaker: the 60 s invocation limit) */
    SMFW_ERRCLASS_THROTTLED,    /**< HTTP 400/429 ThrottlingException */
    SMFW_ERRCLASS_MODEL_ERROR,  /**< HTTP 424 ModelError (the container failed) */
    SMFW_ERRCLASS_VALIDATION,   /**< HTTP 400 ValidationError / bad request */
    SMFW_ERRCLASS_AUTH,         /**< HTTP 403 / signature / access denied */
    SMFW_ERRCLASS_UNAVAILABLE,  /**< HTTP 503 / 5xx service unavailable */
    SMFW_ERRCLASS_HTTP,         /**< any other non-200 status */
    SMFW_ERRCLASS_STREAM_ERROR, /**< error event inside the stream (ModelStreamError, SSE error) */
    SMFW_ERRCLASS_CRC,          /**< event-stream checksum mismatch */
    SMFW_ERRCLASS_PROTOCOL,     /**< unparseable response (bad UTF-8, JSON, truncated frame) */
    SMFW_ERRCLASS_INVALID,   /**< no content response at all (AIPerf InvalidInferenceResultError) */
    SMFW_ERRCLASS_CANCELLED, /**< cancelled (Ctrl-C, end of grace period): code 499 */
    SMFW_ERRCLASS_OTHER,
    SMFW_ERRCLASS_COUNT_
} smfw_error_class;

/** Stable name of an error class ("throttled", "model_error"...). */
SMFW_API const char *smfw_error_class_name(smfw_error_class cls);

/** The error of a failed request (AIPerf's "error" object plus smfw's class). */
typedef struct smfw_record_error {
    int has_code;
    int code;      /**< HTTP status, 499 (cancelled), 502 (SSE error event)... */
    char *type;    /**< reason phrase or error type ("ThrottlingException") */
    char *message; /**< body text or description (secrets masked, <= 4 KiB) */
    char *cause;   /**< optional */
    smfw_error_class error_class;
} smfw_record_error;

/**
 * One request, as AIPerf exports it: metadata, metric values in base units,
 * the inter-chunk latencies and the error of a failed request. Opaque: read
 * it with the accessors ("reading results"), build it with the setters
 * ("building results"); its layout is the library's (smfw/results_layout.h,
 * program API) and grows when a metric is appended.
 */
typedef struct smfw_record smfw_record;

/** A new, empty record (every optional field absent), or NULL without memory. */
SMFW_API smfw_record *smfw_record_new(void);

/** Free a record and what it owns. NULL is allowed. */
SMFW_API void smfw_record_free(smfw_record *rec);

/** Re-initialise a record: every optional field absent (what it owns is NOT freed). */
SMFW_API void smfw_record_init(smfw_record *rec);

/** Free what a record owns and re-init it. */
SMFW_API void smfw_record_clear(smfw_record *rec);

/** Set / test / read a record-level metric (base units). */
SMFW_API void smfw_record_set(smfw_record *rec, smfw_metric_id id, double value);
SMFW_API int smfw_record_has(const smfw_record *rec, smfw_metric_id id);

/** Attach an error (strings copied; message masked and capped at 4 KiB). */
SMFW_API smfw_status smfw_record_set_error(smfw_record *rec, smfw_error_class cls, int has_code,
                                           int code, const char *type, const char *message);

/**
 * Raw timing of one response, from which smfw_record_derive() computes the
 * per-record metrics exactly as aiperf-compat.md §2 defines them.
 * Monotonic timestamps in ns. Token counts: -1 = unknown.
 */
typedef struct smfw_response_timing {
    int streaming;             /**< 0: streaming-only metrics (TTFT, TTST, ITL, ICL...) are off */
    int64_t start_mono_ns;     /**< taken right before the request was started */
    int64_t intended_mono_ns;  /**< when the schedule wanted it (0 = same as start) */
    const int64_t *content_ns; /**< arrival of each content response, in order */
    size_t n_content;
    int64_t first_output_mono_ns; /**< first content response with non-reasoning text, 0 = none */
    int64_t input_tokens;         /**< ISL */
    int64_t output_tokens;        /**< non-reasoning output tokens */
    int64_t reasoning_tokens;     /**< reasoning tokens */
    int64_t usage_prompt_tokens, usage_completion_tokens, usage_total_tokens,
        usage_reasoning_tokens; /**< server usage, -1 = not sent */
} smfw_response_timing;

/**
 * Fill the record's metrics from a raw timing (TTFT, TTST, TTFO, latency,
 * ICL list, ITL, per-user throughputs, token counts, usage, and the
 * smfw-from-intended metrics). A response with no content response becomes
 * an error record (SMFW_ERRCLASS_INVALID, type InvalidInferenceResultError).
 */
SMFW_API smfw_status smfw_record_derive(smfw_record *rec, const smfw_response_timing *timing);

/**
 * Set (or replace) the metrics that follow from a valid record's output token counts:
 * output and reasoning token counts, OSL, and for streaming ITL and per-user throughput
 * (from the request latency and TTFT already in the record). -1 = unknown. Used by
 * smfw_record_derive() and by a backend that counts the tokens later (--tokenizer).
 */
SMFW_API void smfw_record_set_output_tokens(smfw_record *rec, int streaming, int64_t output_tokens,
                                            int64_t reasoning_tokens);

/** One distinct error of a run and how many records had it. */
typedef struct smfw_error_summary_entry {
    int has_code;
    int code;
    char *type;
    char *message;
    smfw_error_class error_class;
    uint64_t count;
} smfw_error_summary_entry;

/** A metric this version does not know (newer AIPerf bundles), kept for reporting. */
typedef struct smfw_extra_metric {
    char *tag;
    char *header; /**< from the CSV when known, else derived from the tag */
    char *unit;
    smfw_stats stats;
} smfw_extra_metric;

/** Metadata of a run. Strings heap-allocated, owned by the results; NULL = unknown. */
typedef struct smfw_run_info {
    char *run_name;
    char *backend; /**< "direct", "managed", ... */
    char *target;  /**< one human line: what was benchmarked */
    char *endpoint_name;
    char *inference_component;
    char *url;
    char *region;
    char *model;
    char *endpoint_type; /**< chat, completions, embeddings, tgi, template */
    int streaming;
    char *dataset_name;
    char *dataset_file;
    char *dataset_sha256;
    int64_t dataset_count;       /**< -1 unknown */
    char *dataset_token_lengths; /**< "estimated", "exact", "recorded" */
    char *token_count_source;    /**< "server_usage", "content_chunks", "tokenizer" */
    int64_t start_wall_ns;       /**< profiling phase start */
    int64_t end_wall_ns;         /**< last request finished */
    char *smfw_version;
    char *aiperf_version; /**< from a bundle, or smfw's compatibility string */
    char *schema_version;
    char *benchmark_id;
    int was_cancelled;
    int64_t concurrency;          /**< 0 = not set */
    double request_rate;          /**< 0 = not set */
    int64_t request_count_target; /**< 0 = not set */
    char *shard;                  /**< "I/N" when the run is one shard of several */
    /* validity gate (managed service behaviour, smfw's own for direct runs) */
    double max_error_rate; /**< fraction, default 0.01 */
    int gate_tripped;
    char *failure_reason;
    char *input_config_json; /**< AIPerf input_config object text (opaque) */
    char *smfw_json;         /**< smfw's extras object text (self-check, lag...) or NULL */
    char *job_name;          /**< managed: the benchmark job */
    char *source_dir;        /**< folder the results were read from, if any */
} smfw_run_info;

/**
 * Results of one run: run info, records, statistics per metric, extra metrics
 * of a newer AIPerf and the error summary. Opaque (accessors and setters
 * below); the layout is the library's (smfw/results_layout.h).
 */
typedef struct smfw_results smfw_results;

/** New, empty results (info fields NULL/0, max_error_rate 0.01). */
SMFW_API smfw_results *smfw_results_new(void);

/** Free results and everything they own. NULL is allowed. */
SMFW_API void smfw_results_free(smfw_results *results);

/** Replace a string field of the results (copies; NULL clears). */
SMFW_API void smfw_results_set_string(char **field, const char *value);

/**
 * Stream every record added from now on to `path` as profile_export.jsonl
 * lines, flushed per record (a crash keeps what completed).
 */
SMFW_API smfw_status smfw_results_open_jsonl(smfw_results *results, const char *path,
                                             smfw_error *err);

/**
 * Add a record, taking ownership of what it points to (the struct is copied
 * and *rec re-initialised). Thread-safe. Writes the JSONL line if a sink is open.
 */
SMFW_API smfw_status smfw_results_add_record(smfw_results *results, smfw_record *rec,
                                             smfw_error *err);

/** Close the JSONL sink (also done by smfw_results_free). */
SMFW_API smfw_status smfw_results_close_jsonl(smfw_results *results, smfw_error *err);

/** Options of smfw_results_compute(). */
typedef struct smfw_goodput_slo {
    smfw_metric_id metric;
    double threshold; /**< display units (ms for latencies) */
} smfw_goodput_slo;

/**
 * Parse goodput SLOs: each item holds one or more "metric:threshold" separated by white
 * space or commas (AIPerf's "time_to_first_token:100 inter_token_latency:3.4", or repeated
 * --goodput items). The metric is a per-request metric tag; the threshold a non-negative
 * number in the metric's display unit. *out is malloc'd (NULL when there is none).
 */
SMFW_API smfw_status smfw_goodput_parse(const char *const *items, size_t n_items,
                                        smfw_goodput_slo **out, size_t *n_out, smfw_error *err);

/**
 * Compute every aggregate from the records with AIPerf's rules: errors feed
 * only the error metrics and the error summary; ICL pooled; benchmark
 * duration from the first valid start to the last valid content response;
 * throughputs; totals; goodput when SLOs are given. Replaces stats[] and
 * errors[] (extra metrics are kept). Also evaluates the validity gate
 * (error rate > info.max_error_rate).
 */
SMFW_API smfw_status smfw_results_compute(smfw_results *results, const smfw_goodput_slo *slos,
                                          size_t n_slos, smfw_error *err);

/** Error rate errors / (valid + errors) from the records or, without records, from the stats. */
SMFW_API double smfw_results_error_rate(const smfw_results *results);

/* ---- reading results: the accessors reporters use ------------------------- */

/*
 * Reporters (and every other reader) read results through these functions: both
 * structs are opaque to plugins (ABI 2.0), and a metric appended in a 2.x minor must
 * not move anything a compiled reporter reads. smfw_stats, smfw_extra_metric,
 * smfw_error_summary_entry, smfw_record_error and smfw_run_info stay public value types handed out
 * by const pointer (owned by the results; a 2.x minor only appends fields at their end). Every
 * accessor accepts NULL results or records and then answers "absent".
 */

/** Statistics of a metric smfw knows, or NULL when the run has none (or id is out of range). */
SMFW_API const smfw_stats *smfw_results_stat(const smfw_results *results, smfw_metric_id id);

/** Number of metrics carried from a newer AIPerf than this version knows. */
SMFW_API size_t smfw_results_extra_count(const smfw_results *results);

/** Extra metric i (stored order), or NULL when i >= smfw_results_extra_count(). */
SMFW_API const smfw_extra_metric *smfw_results_extra(const smfw_results *results, size_t i);

/** Number of per-request records (valid and error). */
SMFW_API size_t smfw_results_record_count(const smfw_results *results);

/** Record i in completion order, or NULL when i >= smfw_results_record_count(). */
SMFW_API const smfw_record *smfw_results_record(const smfw_results *results, size_t i);

/** Number of distinct errors in the run's error summary. */
SMFW_API size_t smfw_results_error_summary_count(const smfw_results *results);

/** Error summary entry i, or NULL when i >= smfw_results_error_summary_count(). */
SMFW_API const smfw_error_summary_entry *smfw_results_error_summary(const smfw_results *results,
                                                                    size_t i);

/** The run's metadata (never NULL for non-NULL results; read its fields, do not write). */
SMFW_API const smfw_run_info *smfw_results_info(const smfw_results *results);

/**
 * AIPerf's input_config object of the run as jansson JSON, borrowed (do not modify or
 * decref; json_incref it to keep it in another document). Valid until the results are
 * freed or their input_config changes. NULL when the run has none or its text is not
 * JSON (then logged once as a warning).
 */
SMFW_API struct json_t *smfw_results_input_config(const smfw_results *results);

/** The client self-check object of the run (borrowed, as smfw_results_input_config), or NULL. */
SMFW_API struct json_t *smfw_results_client(const smfw_results *results);

/**
 * smfw's own object for profile_export_aiperf.json (the document
 * smfw_results_smfw_object_json writes) as a new jansson object: the caller
 * json_decref's it. NULL on allocation failure.
 */
SMFW_API struct json_t *smfw_results_smfw_object(const smfw_results *results);

/**
 * A record-level metric of a record, in base units: 1 and *out set when the record has
 * it, 0 when it does not (or id is not a record-level metric). The inter-chunk latencies
 * are a list, not one value: 0 here, read them with smfw_record_icl().
 */
SMFW_API int smfw_record_value(const smfw_record *rec, smfw_metric_id id, double *out);

/** The inter-chunk latencies (ns) of a record; *n = their number (0 and NULL when none). */
SMFW_API const double *smfw_record_icl(const smfw_record *rec, size_t *n);

/** The wall-clock times of a record (append-only ids). */
typedef enum smfw_record_time {
    SMFW_RECORD_CREDIT_ISSUED = 0,
    SMFW_RECORD_REQUEST_START,
    SMFW_RECORD_REQUEST_ACK,
    SMFW_RECORD_REQUEST_END,
    SMFW_RECORD_CANCELLATION,
    SMFW_RECORD_INTENDED_START /**< when the schedule wanted the send */
} smfw_record_time;

/** A wall-clock time of a record, ns since the epoch; 0 when absent (or `which` is unknown). */
SMFW_API int64_t smfw_record_time_ns(const smfw_record *rec, smfw_record_time which);

/** The record's x_request_id (also sent as X-Amzn-SageMaker-Inference-Id), or NULL. */
SMFW_API const char *smfw_record_request_id(const smfw_record *rec);

/** The error of a failed record, or NULL for a valid one. */
SMFW_API const smfw_record_error *smfw_record_get_error(const smfw_record *rec);

/** The text fields of a record (append-only ids). */
typedef enum smfw_record_text_id {
    SMFW_RECORD_X_REQUEST_ID = 0, /**< also sent as X-Amzn-SageMaker-Inference-Id */
    SMFW_RECORD_X_CORRELATION_ID,
    SMFW_RECORD_CONVERSATION_ID,
    SMFW_RECORD_WORKER_ID,
    SMFW_RECORD_PROCESSOR_ID,      /**< AIPerf's record_processor_id */
    SMFW_RECORD_TOKEN_COUNT_SOURCE /**< where ISL/OSL came from: "tokenizer:<name>",
                                      "server_usage", "content_chunks", "estimated" */
} smfw_record_text_id;

/** A text field of a record, or NULL when absent (or `which` is unknown). */
SMFW_API const char *smfw_record_text(const smfw_record *rec, smfw_record_text_id which);

/** The record's session number (-1 = absent) and, through *turn_index when not NULL, its turn. */
SMFW_API int64_t smfw_record_session(const smfw_record *rec, int32_t *turn_index);

/** The HTTP status of the response (0 = none). */
SMFW_API int smfw_record_http_status(const smfw_record *rec);

/** 1 when the request was cancelled in flight (AIPerf's was_cancelled). */
SMFW_API int smfw_record_was_cancelled(const smfw_record *rec);

/* ---- building results: the setters backends use --------------------------- */

/*
 * Backends build records and run metadata through these functions, for the same reason
 * reporters read through the accessors above. A backend makes a record with
 * smfw_record_new(), fills it with these setters (plain stores, cheap enough for the
 * direct backend's completion path) and hands it to smfw_results_add_record(), which
 * takes what it holds and leaves it empty: reuse it, or smfw_record_free() it.
 */

/** Set a wall-clock time of a record (ns since the epoch, 0 = absent); unknown ids are ignored. */
SMFW_API void smfw_record_set_time(smfw_record *rec, smfw_record_time which, int64_t ns);

/**
 * Set a text field of a record (copied; NULL clears it). SMFW_ERR_NOMEM leaves the field
 * cleared, SMFW_ERR_UNSUPPORTED is an unknown id.
 */
SMFW_API smfw_status smfw_record_set_text(smfw_record *rec, smfw_record_text_id which,
                                          const char *value);

/**
 * AIPerf's usage_prompt/completion/reasoning_tokens_diff_pct from the record's own values:
 * |usage - client count| / client count x 100 against ISL, OSL and the reasoning count, each
 * set when both values exist and the client count is not 0 (else cleared). For a backend
 * whose token counts are its own (a tokenizer): against counts taken from the server's usage
 * the differences say nothing. Call it after the last smfw_record_set_output_tokens().
 */
SMFW_API void smfw_record_set_usage_diffs(smfw_record *rec);

/** Set the record's session number (-1 = absent) and turn index. */
SMFW_API void smfw_record_set_session(smfw_record *rec, int64_t session_num, int32_t turn_index);

/** Set the HTTP status of the response (0 = none). */
SMFW_API void smfw_record_set_http_status(smfw_record *rec, int status);

/** Mark the request cancelled in flight (AIPerf's was_cancelled). */
SMFW_API void smfw_record_set_cancelled(smfw_record *rec, int was_cancelled);

/**
 * The run's metadata to fill in (never NULL for non-NULL results): a backend sets its
 * fields, strings with smfw_results_set_string(). smfw_run_info stays a public value type;
 * its JSON fields are set with the two functions below, not as text.
 */
SMFW_API smfw_run_info *smfw_results_info_edit(smfw_results *results);

/**
 * The statistics of a metric smfw knows, to fill in (NULL when id is out of range): set
 * `present`, the values and their SMFW_STAT_* bits in `fields`. For a backend that reads
 * aggregates from elsewhere (a published set, a service's summary); one with records calls
 * smfw_results_compute() instead.
 */
SMFW_API smfw_stats *smfw_results_stat_edit(smfw_results *results, smfw_metric_id id);

/**
 * Set AIPerf's input_config object of the run (written compact; NULL clears it), what
 * smfw_results_input_config() then returns. SMFW_ERR_NOMEM when it cannot be written.
 */
SMFW_API smfw_status smfw_results_set_input_config(smfw_results *results,
                                                   const struct json_t *config);

/** Set the client self-check object of the run, as smfw_results_set_input_config(). */
SMFW_API smfw_status smfw_results_set_client(smfw_results *results, const struct json_t *client);

/**
 * Say whether every record of the run is present (1: aggregates can be recomputed from
 * them, as a direct run's; 0: a loaded bundle's sample), read by smfw_results_records_complete().
 */
SMFW_API void smfw_results_set_records_complete(smfw_results *results, int complete);

/** 1 when every record of the run is present (see smfw_results_set_records_complete()). */
SMFW_API int smfw_results_records_complete(const smfw_results *results);

/* ---- AIPerf file formats ------------------------------------------------ */

/**
 * Write one record as a compact profile_export.jsonl line (no newline) into
 * a malloc'd string (*out, caller frees).
 */
SMFW_API smfw_status smfw_record_to_jsonl(const smfw_record *rec, char **out, smfw_error *err);

/**
 * Parse one profile_export.jsonl line (every AIPerf version, including the
 * pre-release tags) into *rec (initialised by the call).
 */
SMFW_API smfw_status smfw_record_from_jsonl(const char *line, size_t len, smfw_record *rec,
                                            smfw_error *err);

/**
 * Read a whole profile_export.jsonl into the results' records. Errors name
 * the file and line. Sets records_complete = 0 (the caller knows better).
 */
SMFW_API smfw_status smfw_results_load_jsonl(smfw_results *results, const char *path,
                                             smfw_error *err);

/**
 * Read profile_export_aiperf.json (every AIPerf version: 0.3-era nulls and
 * the nested "records" form, 0.5, 0.8+ count/sum) into stats[], extra[],
 * errors[] and info (versions, input_config, was_cancelled, start/end time).
 */
SMFW_API smfw_status smfw_results_load_aiperf_json(smfw_results *results, const char *path,
                                                   smfw_error *err);

/**
 * Load a result folder: a direct run's output or an extracted managed bundle
 * (profile_export_aiperf.json, profile_export.jsonl, failure_reason.txt,
 * smfw_run.json when present).
 */
SMFW_API smfw_status smfw_results_load_dir(smfw_results *results, const char *dir, smfw_error *err);

/**
 * smfw's own object for profile_export_aiperf.json (key "smfw", ignored by
 * AIPerf readers): run metadata (backend, target, dataset identity, token
 * count source, validity gate, shard...), the smfw-only metrics' statistics
 * and info.smfw_json (client self-check...). Returns a malloc'd JSON text
 * (pretty-printed with `indent` spaces, 0 = compact). The inverse,
 * smfw_results_apply_smfw_object(), is called by the JSON loader.
 */
SMFW_API char *smfw_results_smfw_object_json(const smfw_results *results, int indent);
SMFW_API smfw_status smfw_results_apply_smfw_object(smfw_results *results, const char *json_text,
                                                    smfw_error *err);

/**
 * Format a double the way Python's repr() does (shortest text that reads
 * back to the same double; "64.0", "1.7625515347970678e+18"), as AIPerf's
 * files contain. buf needs 32 bytes. Returns buf.
 */
SMFW_API char *smfw_format_double(double value, char *buf);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_RESULTS_H */
