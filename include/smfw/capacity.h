/*
 * capacity.h - turning benchmark results into capacity decisions: metric
 * references ("ttft_p95"), SLOs, instance prices, cost per million output
 * tokens, and the layout of a run set. Metric references, SLOs and the
 * analysis of a sweep (the knee, a verdict per level, the autoscaling target)
 * are the SDK's, run_set.h, included here.
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

/* ---- the run set's layout (plugins see it opaque) ---------------------------- */

/**
 * A run set (run_set.h) as the program sees it. Plugins get it opaque and use
 * the functions of run_set.h; `smfw sweep` fills it, and the reporters' write_set
 * slots render it.
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
    /* set by smfw_run_set_analyze(): the options (their SLO arrays copied) and the verdict */
    int analyzed;
    smfw_sweep_options opts;
    smfw_slo *opt_slos;
    smfw_goodput_slo *opt_goodput_slos;
    smfw_sweep_analysis analysis;
};

#ifdef __cplusplus
}
#endif
#endif /* SMFW_CAPACITY_H */
