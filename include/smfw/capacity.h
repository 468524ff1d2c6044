/*
 * capacity.h - turning benchmark results into capacity decisions: metric
 * references ("ttft_p95"), SLOs, instance prices, cost per million output
 * tokens, and a sweep's reports. The analysis of a sweep (the knee, a verdict
 * per level, the autoscaling target) is the SDK's, run_set.h, included here.
 *
 * Everything here is plain arithmetic over smfw_results (or numbers given
 * directly), so `smfw sweep`, `smfw compare`, reporters and third-party tools
 * compute the same figures. docs/capacity.md explains every rule.
 *
 * Units: latencies in ms, throughputs in tokens/s or requests/s (AIPerf's
 * display units), prices in USD per instance-hour.
 *
 * Program API (installed in include/smfw-program, smfw-program.pc): unstable,
 * it may change in any release; plugins use the SDK only.
 */
#ifndef SMFW_CAPACITY_H
#define SMFW_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

#include <smfw/results.h>
#include <smfw/run_set.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- metric references ("ttft_p95", "output_token_throughput") ------------ */

/** Which statistic of a metric a reference reads. 0..8 are the percentiles p1..p99. */
typedef enum smfw_stat_ref {
    SMFW_STAT_REF_P1 = 0,
    SMFW_STAT_REF_P50 = 4,
    SMFW_STAT_REF_P90 = 6,
    SMFW_STAT_REF_P95 = 7,
    SMFW_STAT_REF_P99 = 8,
    SMFW_STAT_REF_AVG = 100,
    SMFW_STAT_REF_MIN = 101,
    SMFW_STAT_REF_MAX = 102,
    SMFW_STAT_REF_STD = 103
} smfw_stat_ref;

/** Pseudo metric id of a reference: errors / (valid + errors), a fraction. */
#define SMFW_METRIC_REF_ERROR_RATE (-2)

/** One number of a run: a metric (smfw_metric_id or SMFW_METRIC_REF_ERROR_RATE) and a statistic. */
typedef struct smfw_metric_ref {
    int metric;
    smfw_stat_ref stat;
} smfw_metric_ref;

/**
 * Parse a reference. Accepted forms: an AIPerf tag or alias alone (the
 * average: "output_token_throughput", "request_throughput"), or followed by
 * a statistic after '_', ':' or '.' ("ttft_p95", "time_to_first_token:p99",
 * "request_latency.avg", "itl_p50"). Aliases: ttft, ttst, ttfo, itl, icl,
 * e2e and latency (request_latency), tps and throughput
 * (output_token_throughput), rps (request_throughput), tps_per_user,
 * errors and error_rate. Statistics: avg, mean, min, max, std, p1 p5 p10 p25
 * p50 p75 p90 p95 p99. Single-value metrics only have avg.
 */
SMFW_API smfw_status smfw_metric_ref_parse(const char *text, smfw_metric_ref *out, smfw_error *err);

/** Canonical text of a reference ("time_to_first_token_p95"); buf of 96 bytes is enough. */
SMFW_API const char *smfw_metric_ref_name(const smfw_metric_ref *ref, char *buf, size_t size);

/** Short label for tables ("TTFT p95"). */
SMFW_API const char *smfw_metric_ref_label(const smfw_metric_ref *ref, char *buf, size_t size);

/** Display unit of the referenced number ("ms", "tokens/sec", "fraction"). */
SMFW_API const char *smfw_metric_ref_unit(const smfw_metric_ref *ref);

/** 1 when a larger value is better (throughputs), 0 when smaller is better (latencies, errors). */
SMFW_API int smfw_metric_ref_larger_is_better(const smfw_metric_ref *ref);

/** The referenced value of a run, in display units. Returns 1 when present, 0 when not. */
SMFW_API int smfw_metric_ref_value(const smfw_results *results, const smfw_metric_ref *ref,
                                   double *value);

/* ---- SLOs ------------------------------------------------------------------ */

/**
 * A service-level objective on one number: a maximum for smaller-is-better
 * numbers (TTFT p95 <= 2000 ms), a minimum for larger-is-better ones.
 */
typedef struct smfw_slo {
    smfw_metric_ref ref;
    double threshold; /**< display units (ms, tokens/s, fraction for error_rate) */
} smfw_slo;

/**
 * Parse "ttft_p95=2000ms,e2e_p95=30s,error_rate=1%" (also ':', '<=' or
 * '>=' between name and value). Time values accept the suffixes us, ms
 * (default), s and m; error_rate accepts a fraction or a percentage.
 * Appends to the array at *slos (realloc'd; free() it) and its length *n.
 */
SMFW_API smfw_status smfw_slo_parse_list(const char *text, smfw_slo **slos, size_t *n,
                                         smfw_error *err);

/**
 * Does a run meet every SLO? Returns 1 yes, 0 no. A number the run does not
 * have fails its SLO. When `failed` is given, the first failed SLO's text
 * ("ttft_p95 2412.5 > 2000") is written into it.
 */
SMFW_API int smfw_slo_check(const smfw_results *results, const smfw_slo *slos, size_t n,
                            char *failed, size_t failed_size);

/* ---- prices ---------------------------------------------------------------- */

/** An instance price table (conf/prices.conf format, see that file). */
typedef struct smfw_price_table smfw_price_table;

/**
 * Read a price table: `[region]` sections of `instance_type = USD per hour`
 * lines, plus a `[table]` section with `as_of`, `source`, `currency` and
 * `default_region`. Errors name the file and line.
 */
SMFW_API smfw_status smfw_price_table_load(const char *path, smfw_price_table **out,
                                           smfw_error *err);

/** The bundled table: <data dir>/conf/prices.conf in a source tree, <data dir>/prices.conf
 * installed. */
SMFW_API const char *smfw_price_table_default_path(char *buf, size_t size);

SMFW_API void smfw_price_table_free(smfw_price_table *table);

/**
 * Price of one instance type ("ml.g5.2xlarge") in a region (NULL = the
 * table's default region). SMFW_ERR_NOT_FOUND with a sentence listing the
 * region's known types otherwise.
 */
SMFW_API smfw_status smfw_price_table_lookup(const smfw_price_table *table,
                                             const char *instance_type, const char *region,
                                             double *usd_per_hour, smfw_error *err);

/** The table's `as_of` and `source` texts (may be NULL). */
SMFW_API const char *smfw_price_table_as_of(const smfw_price_table *table);
SMFW_API const char *smfw_price_table_source(const smfw_price_table *table);

/* ---- cost -------------------------------------------------------------------- */

/**
 * USD per one million output tokens on one instance:
 *     usd_per_hour / (tokens_per_s * duty_cycle) * 1e6 / 3600.
 * duty_cycle in (0, 1] is the share of time the instance is really busy.
 * Returns NAN when the inputs do not allow a number (no throughput, no price).
 */
SMFW_API double smfw_cost_per_million_tokens(double usd_per_hour, double tokens_per_s,
                                             double duty_cycle);

/* ---- a sweep's reports (the set's layout is the program's) -------------------- */

/**
 * A run set (run_set.h) as the program sees it. Plugins get it opaque and use
 * the functions of run_set.h; `smfw sweep` fills and reports it.
 */
struct smfw_run_set {
    char *dir;
    char *mode;             /**< "concurrency" or "request_rate" */
    char *instance_type;    /**< from sweep.json or set by the caller; may be NULL */
    double usd_per_hour;    /**< 0 = unknown */
    double duty_cycle;      /**< 1 when unknown */
    smfw_results **results; /**< owned, one per level, same order as points */
    char **level_dirs;      /**< owned, one per level (NULL entries: none) */
    smfw_sweep_point *points;
    size_t n, cap;
};

/**
 * Write sweep.json, sweep.md, sweep.csv and sweep.html (the table, the knee
 * and the SLO level marked, throughput vs TTFT p95 chart) into dir.
 */
SMFW_API smfw_status smfw_sweep_write_reports(const smfw_run_set *sweep,
                                              const smfw_sweep_options *opts,
                                              const smfw_sweep_analysis *analysis, const char *dir,
                                              smfw_error *err);

/** The sweep table as Markdown (malloc'd; free()). */
SMFW_API char *smfw_sweep_markdown(const smfw_run_set *sweep, const smfw_sweep_options *opts,
                                   const smfw_sweep_analysis *analysis);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_CAPACITY_H */
