/*
 * run_set.h - runs of runs: a set of benchmark runs at several load levels
 * (a concurrency or request-rate sweep, a managed job's concurrency list),
 * each level a results object with its folder, and the analysis over them:
 * a verdict per level, the knee, goodput per level and the SLO knee, and the
 * SageMaker autoscaling target that follows.
 *
 * Part of the plugin SDK: a backend that runs several levels in one run adds
 * each to the run context's set (backend.h; the core then runs the reporters
 * in each level's folder), a reporter renders an analysed set in its
 * write_set slot (reporter.h: sweep.md, sweep.csv, sweep.json, sweep.html),
 * and plugins read saved sweeps with smfw_run_set_load_dir(). The set's layout
 * is private (the program's capacity.h); plugins use the functions here.
 * Metric references ("ttft_p95") and SLOs, which the analysis judges levels
 * by, are here too. docs/capacity.md explains every rule.
 *
 * Units: latencies in ms, throughputs in tokens/s or requests/s (AIPerf's
 * display units), prices in USD per instance-hour.
 */
#ifndef SMFW_RUN_SET_H
#define SMFW_RUN_SET_H

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

/* ---- autoscaling ------------------------------------------------------------- */

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

/* ---- the analysis of a sweep ------------------------------------------------ */

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

/* ---- the set ---------------------------------------------------------------- */

/** A set of runs at several load levels (opaque). */
typedef struct smfw_run_set smfw_run_set;

/**
 * An empty set. `mode` is "concurrency" or "request_rate" (how a level's load
 * reads), `dir` the folder the levels live under (may be NULL). NULL when out
 * of memory.
 */
SMFW_API smfw_run_set *smfw_run_set_new(const char *mode, const char *dir);

SMFW_API void smfw_run_set_free(smfw_run_set *set);

/**
 * Add a level: `results` (owned by the set from now on, also when this fails),
 * its load (a concurrency or a request rate) and its folder (copied; may be
 * NULL). The level's point is filled from the results. SMFW_ERR_NOMEM only.
 */
SMFW_API smfw_status smfw_run_set_add(smfw_run_set *set, smfw_results *results, double load,
                                      const char *dir, smfw_error *err);

/** Number of levels. */
SMFW_API size_t smfw_run_set_count(const smfw_run_set *set);

/** Level i's results (borrowed), its folder (NULL when none) and its point (numbers, and after
 *  smfw_run_set_analyze() its verdict); NULL when i is out of range. */
SMFW_API const smfw_results *smfw_run_set_results(const smfw_run_set *set, size_t i);
SMFW_API const char *smfw_run_set_level_dir(const smfw_run_set *set, size_t i);
SMFW_API const smfw_sweep_point *smfw_run_set_point(const smfw_run_set *set, size_t i);

/** "concurrency" or "request_rate"; the folder; the instance type (NULL when unknown). */
SMFW_API const char *smfw_run_set_mode(const smfw_run_set *set);
SMFW_API const char *smfw_run_set_dir(const smfw_run_set *set);
SMFW_API const char *smfw_run_set_instance_type(const smfw_run_set *set);

/**
 * Sort the levels by load and analyse them (smfw_sweep_analyze() over the
 * set's points); `opts` may be NULL for the defaults, and when it gives no
 * price the set's own (sweep.json) is used.
 */
SMFW_API smfw_status smfw_run_set_analyze(smfw_run_set *set, const smfw_sweep_options *opts,
                                          smfw_sweep_analysis *out, smfw_error *err);

/**
 * Load a sweep folder: every `concurrency_<N>/` or `request_rate_<R>/`
 * folder found directly in `dir` or one level below (a managed bundle nests
 * them), each read with smfw_results_load_dir(), plus `sweep.json` when
 * present (instance type, price, duty cycle). Levels are sorted by load. A level folder
 * holding PARTIAL.txt (a level `smfw sweep` cut short) is left out, with a warning, as
 * the sweep that wrote it left it out of its analysis.
 */
SMFW_API smfw_status smfw_run_set_load_dir(const char *dir, smfw_run_set **out, smfw_error *err);

/* ---- what the reports of a set read (after smfw_run_set_analyze()) ---------- */

/** The sentence every sweep report ends with: the benchmark measures the instance only while
 *  the scalable target is pinned. */
#define SMFW_AUTOSCALING_PIN_REMINDER                                                              \
    "pin MinCapacity = MaxCapacity on the scalable target while benchmarking, or the test "        \
    "measures the scaling policy instead of the instance"

/** The options of the last smfw_run_set_analyze() (SLO arrays owned by the set), or NULL. */
SMFW_API const smfw_sweep_options *smfw_run_set_options(const smfw_run_set *set);

/** The verdict of the last smfw_run_set_analyze(), or NULL before one. */
SMFW_API const smfw_sweep_analysis *smfw_run_set_analysis(const smfw_run_set *set);

/** The instance price of the set in USD per hour (0 = unknown) and its duty cycle (1 = unknown). */
SMFW_API double smfw_run_set_usd_per_hour(const smfw_run_set *set);
SMFW_API double smfw_run_set_duty_cycle(const smfw_run_set *set);

/** 1 when the levels are request rates (mode "request_rate"), 0 for concurrencies. */
SMFW_API int smfw_run_set_is_rate(const smfw_run_set *set);

/** The goodput share the SLO knee needs: the options' slo_attainment, else the default. */
SMFW_API double smfw_run_set_slo_attainment(const smfw_run_set *set);

/**
 * The SLO knee of an analysed set (smfw_sweep_slo_knee()) when its reports show goodput (a
 * level carries goodput, or goodput SLOs were given), else -3: nothing to show.
 */
SMFW_API int smfw_run_set_slo_knee(const smfw_run_set *set);

/** How the SLO knee sits against the throughput knee, in words, or NULL without an SLO knee. */
SMFW_API const char *smfw_run_set_slo_knee_relation(const smfw_run_set *set);

/** Level i's verdict and marks ("healthy, highest within SLO, SLO knee, recommended"). */
SMFW_API void smfw_run_set_level_marks(const smfw_run_set *set, size_t i, char *buf, size_t size);

/**
 * The decision in words, one line each (knee, SLO level, SLO knee, operating point, cost,
 * autoscaling target, the pin reminder), every line starting with `bullet` ("- " for
 * Markdown, "" for lines to escape elsewhere). malloc'd; NULL without memory or analysis.
 */
SMFW_API char *smfw_run_set_summary(const smfw_run_set *set, const char *bullet);

/** One goodput SLO in AIPerf's form ("time_to_first_token:100"). */
SMFW_API void smfw_goodput_slo_text(const smfw_goodput_slo *slo, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_RUN_SET_H */
