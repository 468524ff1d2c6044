/*
 * compare.h - did the new run get slower? Per-metric deltas between a base
 * and a new run (either backend), each judged by its direction (larger is
 * better for throughputs, smaller for latencies and errors), against a
 * regression threshold. `smfw compare` exits 4 when any chosen metric
 * regressed beyond it: the nightly-canary gate.
 *
 * Program API (installed in include/smfw-program, smfw-program.pc): unstable,
 * it may change in any release; plugins use the SDK only.
 */
#ifndef SMFW_COMPARE_H
#define SMFW_COMPARE_H

#include <smfw/capacity.h>
#include <smfw/results.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One compared number. */
typedef struct smfw_compare_row {
    smfw_metric_ref ref;
    char name[96];    /**< canonical reference name ("time_to_first_token_p95") */
    char label[96];   /**< short label ("TTFT p95") */
    const char *unit; /**< display unit */
    int larger_is_better;
    int have_base, have_new;
    double base, value; /**< display units */
    double delta;       /**< value - base */
    double delta_pct;   /**< 100 * delta / |base|; +-INFINITY when base is 0 and value is not */
    double worse_pct;   /**< how much worse, in percent (negative = better) */
    int regressed;      /**< worse by more than the threshold, or missing from the new run */
    int improved;       /**< better by more than the threshold */
} smfw_compare_row;

/** The outcome of a comparison. */
typedef struct smfw_compare_result {
    smfw_compare_row *rows;
    size_t n_rows;
    double max_regression_pct; /**< the threshold used */
    size_t regressions;        /**< rows with regressed = 1 */
    char **notes;              /**< workload differences and other warnings */
    size_t n_notes;
} smfw_compare_result;

/**
 * The metrics compared when none are chosen: TTFT p50 and p95, ITL p50,
 * request latency p50 and p95, output token throughput, request throughput
 * and error rate. Returns their number and stores a static array in *out.
 */
SMFW_API size_t smfw_compare_default_metrics(const smfw_metric_ref **out);

/**
 * Compare `cur` against `base`. metrics == NULL uses the defaults. A metric
 * absent from both runs is left out; absent only from the new run counts as
 * a regression (a canary must not pass because a number vanished); absent
 * only from the base is shown without a verdict. Notes list differences of
 * the workloads (endpoint type, streaming, concurrency, request rate,
 * dataset) that make the numbers less comparable.
 */
SMFW_API smfw_status smfw_compare_results(const smfw_results *base, const smfw_results *cur,
                                          const smfw_metric_ref *metrics, size_t n_metrics,
                                          double max_regression_pct, smfw_compare_result **out,
                                          smfw_error *err);

SMFW_API void smfw_compare_result_free(smfw_compare_result *result);

/** Markdown report (malloc'd; free()). Labels name the two runs (folders). */
SMFW_API char *smfw_compare_markdown(const smfw_compare_result *result, const char *base_label,
                                     const char *new_label);

/** JSON report (malloc'd; free()), pretty-printed. */
SMFW_API char *smfw_compare_json(const smfw_compare_result *result, const char *base_label,
                                 const char *new_label);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_COMPARE_H */
