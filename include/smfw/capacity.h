/*
 * capacity.h - turning benchmark results into capacity decisions: metric
 * references ("ttft_p95"), SLOs, instance prices, cost per million output
 * tokens, the knee of a concurrency (or request-rate) sweep, a verdict per
 * sweep level, and the SageMaker autoscaling target that follows from it.
 *
 * Everything here is plain arithmetic over smfw_results (or numbers given
 * directly), so `smfw sweep`, `smfw compare`, reporters and third-party tools
 * compute the same figures. docs/capacity.md explains every rule.
 *
 * Units: latencies in ms, throughputs in tokens/s or requests/s (AIPerf's
 * display units), prices in USD per instance-hour.
 */
#ifndef SMFW_CAPACITY_H
#define SMFW_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

#include <smfw/results.h>
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

/* ---- cost and autoscaling ---------------------------------------------------- */

/**
 * USD per one million output tokens on one instance:
 *     usd_per_hour / (tokens_per_s * duty_cycle) * 1e6 / 3600.
 * duty_cycle in (0, 1] is the share of time the instance is really busy.
 * Returns NAN when the inputs do not allow a number (no throughput, no price).
 */
SMFW_API double smfw_cost_per_million_tokens(double usd_per_hour, double tokens_per_s,
                                             double duty_cycle);

/** The recommended SageMakerVariantInvocationsPerInstance target. */
typedef struct smfw_autoscaling {
    int valid;
    double concurrency;            /**< requests in flight per instance at the operating point */
    double mean_duration_s;        /**< mean request latency there */
    double invocations_per_minute; /**< concurrency * 60 / mean_duration_s (Little's law) */
    double headroom;               /**< fraction kept free (0.10 = 10% below) */
    double target;                 /**< floor(invocations_per_minute * (1 - headroom)), >= 1 */
} smfw_autoscaling;

/**
 * Compute the target from a concurrency and a mean request duration: an
 * instance serving `concurrency` requests at a time, each lasting
 * `mean_duration_s`, completes concurrency * 60 / mean_duration_s
 * invocations per minute; the target keeps `headroom` below that because a
 * GPU instance takes minutes to scale out. valid = 0 when inputs are not
 * positive.
 */
SMFW_API void smfw_autoscaling_compute(double concurrency, double mean_duration_s, double headroom,
                                       smfw_autoscaling *out);

/* ---- sweeps ------------------------------------------------------------------ */

/** What a sweep level looks like from the client. */
typedef enum smfw_sweep_verdict {
    SMFW_VERDICT_UNKNOWN = 0, /**< no valid requests */
    SMFW_VERDICT_IDLE,     /**< below the knee, throughput under idle_share of the sweep's peak */
    SMFW_VERDICT_HEALTHY,  /**< below the knee: more load still buys throughput */
    SMFW_VERDICT_KNEE,     /**< the knee: the last level where more load paid off */
    SMFW_VERDICT_QUEUEING, /**< above the knee: throughput barely grows, latency does */
    SMFW_VERDICT_SATURATED /**< above the knee and throughput no longer grows, or errors */
} smfw_sweep_verdict;

/** "idle", "healthy", "knee", "queueing", "saturated", "unknown". */
SMFW_API const char *smfw_sweep_verdict_name(smfw_sweep_verdict verdict);

/** One level of a sweep. Numbers in display units; NAN when not measured. */
typedef struct smfw_sweep_point {
    double load; /**< concurrency, or requests/s for a request-rate sweep */
    double ttft_p50_ms, ttft_p95_ms, itl_p50_ms, e2e_avg_ms, e2e_p50_ms, e2e_p95_ms;
    double output_tps, request_tps;
    uint64_t requests, errors;
    const smfw_results *results; /**< borrowed (may be NULL): used for SLOs */
    /* filled by smfw_sweep_analyze() */
    smfw_sweep_verdict verdict;
    double gain_per_doubling; /**< throughput gain to the next level per doubling of load, NAN at
                                 the last */
    int meets_slo;            /**< 1 / 0, or -1 when no SLO was given */
    double cost_per_mtok;     /**< USD per 1M output tokens, NAN without a price */
} smfw_sweep_point;

/** Fill a point's numbers from a run. */
SMFW_API void smfw_sweep_point_from_results(const smfw_results *results, double load,
                                            smfw_sweep_point *out);

/** Options of smfw_sweep_analyze(); zero fields take the defaults. */
typedef struct smfw_sweep_options {
    double knee_gain;      /**< gain per doubling below which load stops paying (0.10) */
    double idle_share;     /**< share of peak throughput below which a level is idle (0.25) */
    double max_error_rate; /**< error fraction above which a level is saturated (0.01) */
    const smfw_slo *slos;
    size_t n_slos;
    double usd_per_hour; /**< 0 = no price */
    double duty_cycle;   /**< (0, 1], default 1 */
    double headroom;     /**< autoscaling headroom, default 0.10; negative = 0 */
    int load_is_rate;    /**< levels are request rates, not concurrencies */
    /** Share of a level's requests that must meet every goodput SLO for the SLO knee
     *  (0 = the default 0.9). */
    double slo_attainment;
    const smfw_goodput_slo *goodput_slos; /**< the --goodput SLOs, for the reports (may be NULL) */
    size_t n_goodput_slos;
} smfw_sweep_options;

/** What a sweep says. Indexes refer to the (sorted) points; -1 = none. */
typedef struct smfw_sweep_analysis {
    int knee;      /**< the knee level, -1 when throughput still scaled at the last level */
    int slo_best;  /**< highest level meeting every SLO; -1 none; -2 no SLO given */
    int operating; /**< level the recommendation uses: min(knee, slo_best) where known */
    char operating_why[256];
    double cost_at_operating; /**< USD per 1M output tokens there, NAN without a price */
    smfw_autoscaling autoscaling;
    double measured_invocations_per_minute; /**< request_tps * 60 at the operating level */
} smfw_sweep_analysis;

/**
 * Sort the points by load and analyse them. The knee is the first level i
 * whose throughput gain per doubling of load, to the next level AND to every
 * later level, stays below knee_gain while TTFT p95 (e2e p95 without
 * streaming) rises from i to i+1: ((tps[j]/tps[i])^(1/log2(load[j]/load[i])) - 1).
 * Verdicts: levels above the knee are `saturated` when their throughput is
 * not above the previous level's or their error rate exceeds
 * max_error_rate, otherwise `queueing`; levels below are `idle` or
 * `healthy` by idle_share. Cost per level and at the operating level, and
 * the autoscaling target from the operating level (concurrency sweep:
 * concurrency and mean request latency; rate sweep: measured requests/s,
 * i.e. the same by Little's law).
 */
SMFW_API smfw_status smfw_sweep_analyze(smfw_sweep_point *points, size_t n,
                                        const smfw_sweep_options *opts, smfw_sweep_analysis *out,
                                        smfw_error *err);

/**
 * Throughput gain per doubling between two levels:
 * (tps_b / tps_a)^(1 / log2(load_b / load_a)) - 1. NAN when undefined.
 */
SMFW_API double smfw_gain_per_doubling(double load_a, double tps_a, double load_b, double tps_b);

/* ---- goodput per level and the SLO knee ------------------------------------ */

/** Default share of requests within the goodput SLOs that a level needs (the managed
 *  backend's sla_attainment defaults to the same 0.9). */
#define SMFW_SWEEP_SLO_ATTAINMENT 0.9

/** AIPerf's goodput of one sweep level, read from its run (goodput, good_request_count). */
typedef struct smfw_sweep_goodput {
    int present;    /**< the level's run has goodput (it ran with --goodput SLOs) */
    double goodput; /**< requests/s meeting every SLO: good / benchmark duration */
    uint64_t good;  /**< good_request_count */
    /** AIPerf's good_request_fraction: good / (request_count + error_request_count), so a
     *  level that drops traffic does not look good by its survivors; NAN without requests */
    double fraction;
    int gate_tripped; /**< the level failed its validity gate (error rate) */
    int attains;      /**< fraction >= attainment and the gate held */
} smfw_sweep_goodput;

/** Goodput of one level (point->results may be NULL: nothing present). attainment in (0, 1]. */
SMFW_API void smfw_sweep_goodput_of(const smfw_sweep_point *point, double attainment,
                                    smfw_sweep_goodput *out);

/**
 * The SLO knee of points sorted by load: the highest level i such that every level from
 * the lowest up to i attains (smfw_sweep_goodput_of), i.e. the level before the first
 * one that does not. Returns -1 when the lowest level already misses, -2 when no level
 * has goodput. A level without goodput among levels with it counts as missing. Partial
 * (interrupted) levels are never points of a sweep, so never the SLO knee.
 */
SMFW_API int smfw_sweep_slo_knee(const smfw_sweep_point *points, size_t n, double attainment);

/* ---- saved sweeps ------------------------------------------------------------ */

/** A sweep folder: one result folder per level plus sweep.json. */
typedef struct smfw_sweep {
    char *dir;
    char *mode;             /**< "concurrency" or "request_rate" */
    char *instance_type;    /**< from sweep.json or set by the caller; may be NULL */
    double usd_per_hour;    /**< 0 = unknown */
    double duty_cycle;      /**< 1 when unknown */
    smfw_results **results; /**< owned, one per point, same order */
    smfw_sweep_point *points;
    size_t n;
} smfw_sweep;

/**
 * Load a sweep folder: every `concurrency_<N>/` or `request_rate_<R>/`
 * folder found directly in `dir` or one level below (a managed bundle nests
 * them), each read with smfw_results_load_dir(), plus `sweep.json` when
 * present (instance type, price, duty cycle). Points are sorted by load. A level folder
 * holding PARTIAL.txt (a level `smfw sweep` cut short) is left out, with a warning, as
 * the sweep that wrote it left it out of its analysis.
 */
SMFW_API smfw_status smfw_sweep_load_dir(const char *dir, smfw_sweep **out, smfw_error *err);

SMFW_API void smfw_sweep_free(smfw_sweep *sweep);

/**
 * Write sweep.json, sweep.md, sweep.csv and sweep.html (the table, the knee
 * and the SLO level marked, throughput vs TTFT p95 chart) into dir.
 */
SMFW_API smfw_status smfw_sweep_write_reports(const smfw_sweep *sweep,
                                              const smfw_sweep_options *opts,
                                              const smfw_sweep_analysis *analysis, const char *dir,
                                              smfw_error *err);

/** The sweep table as Markdown (malloc'd; free()). */
SMFW_API char *smfw_sweep_markdown(const smfw_sweep *sweep, const smfw_sweep_options *opts,
                                   const smfw_sweep_analysis *analysis);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_CAPACITY_H */
