/*
 * html_data.h - turning results into chart series for the html reporter:
 * TTFT per request over time, latency CDFs, dispersed output-token
 * throughput over time and errors over time. (The sweep chart reads its
 * levels as a run set, smfw/run_set.h.)
 */
#ifndef SMFW_HTML_DATA_H
#define SMFW_HTML_DATA_H

#include <stddef.h>
#include <stdint.h>

#include <smfw/results.h>

/** Points of one series; owns its arrays and strings. */
typedef struct html_xy {
    double *x, *y, *y0;
    char **titles;
    char **labels;
    size_t n, cap;
} html_xy;

void html_xy_free(html_xy *xy);

/**
 * TTFT (ms) of each valid record against its start (s from the first
 * request). At most max_points, evenly strided; *total = all candidates.
 * Returns -1 on allocation failure.
 */
int html_data_timeline(const smfw_results *r, size_t max_points, html_xy *out, size_t *total);

/**
 * CDF (percent of requests vs value in display units) of a record metric:
 * from the records when they hold values, else from the summary's
 * percentiles (*from_stats = 1). Returns -1 on allocation failure.
 */
int html_data_cdf(const smfw_results *r, smfw_metric_id id, size_t max_points, html_xy *out,
                  int *from_stats);

/** Time bins over the run: [t0, t0 + n * width). */
typedef struct html_bins {
    int64_t t0_ns;
    double width_s;
    size_t n;
} html_bins;

/** Bins covering every timed record (about `target` of them); 0 if no record has a time. */
int html_data_bins(const smfw_results *r, size_t target, html_bins *bins);

/**
 * AIPerf's "dispersed" output-token throughput per bin: each valid record
 * adds OSL / (end - first token) tokens/s between its first token and its
 * end (from its start when TTFT is unknown). Returns -1 on allocation failure.
 */
int html_data_throughput(const smfw_results *r, const html_bins *bins, html_xy *out);

/**
 * Failed requests per bin (by end time), one stacked-bar series per error
 * class that occurs; out must hold SMFW_ERRCLASS_COUNT_ entries and
 * classes[i] receives the class of out[i]. With no errors at all, one series
 * of zeros (class NONE). Returns the number of series, -1 on allocation failure.
 */
int html_data_errors(const smfw_results *r, const html_bins *bins, html_xy *out,
                     smfw_error_class *classes);

#endif /* SMFW_HTML_DATA_H */
