/*
 * run_summary.c - the one console summary of a run (smfw_run_summary_print,
 * include/smfw/app.h): `smfw run`, each sweep level, `smfw merge`, each run
 * of `smfw results` and the managed backend's levels all print this block,
 * so a number reads the same wherever it is shown. Rows take their label
 * from the metric table (header and display unit), values come straight
 * from the aggregates with two decimals, so they can be checked against
 * profile_export_aiperf.json.
 */
#include <stdio.h>

#include <smfw/results_layout.h>
#include <smfw/app.h>
#include <smfw/untrusted.h>

/* Percentile slots of smfw_stats.p (smfw_percentiles: 1 5 10 25 50 75 90 95 99). */
enum { P50 = 4, P90 = 6, P99 = 8 };

/* Metrics with a distribution, in the order they are printed. */
static const smfw_metric_id dist_rows[] = {
    SMFW_M_TIME_TO_FIRST_TOKEN,    SMFW_M_INTER_TOKEN_LATENCY,
    SMFW_M_REQUEST_LATENCY,        SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER,
    SMFW_M_OUTPUT_SEQUENCE_LENGTH, SMFW_M_INPUT_SEQUENCE_LENGTH};

/* Metrics with one value (the avg field), in the order they are printed. */
static const smfw_metric_id single_rows[] = {
    SMFW_M_OUTPUT_TOKEN_THROUGHPUT, SMFW_M_REQUEST_THROUGHPUT,  SMFW_M_GOODPUT,
    SMFW_M_REQUEST_COUNT,           SMFW_M_ERROR_REQUEST_COUNT, SMFW_M_BENCHMARK_DURATION};

#define LABEL_WIDTH 52
#define N_ROWS(a)   (sizeof(a) / sizeof((a)[0]))

static void put_label(FILE *out, smfw_metric_id id) {
    const smfw_metric_info *mi = smfw_metric_get(id);
    char label[128];
    snprintf(label, sizeof label, "%s (%s)", mi->header, mi->display_unit);
    fprintf(out, "  %-*s", LABEL_WIDTH, label);
}

static void put_percentile(FILE *out, const smfw_stats *s, int slot) {
    if (s->fields & (SMFW_STAT_P_FIRST << slot))
        fprintf(out, " %10.2f", s->p[slot]);
    else
        fprintf(out, " %10s", "-");
}

static void print_rows(FILE *out, const smfw_results *r) {
    int header = 0;
    for (size_t i = 0; i < N_ROWS(dist_rows); i++) {
        const smfw_stats *s = &r->stats[dist_rows[i]];
        if (!s->present) continue;
        if (!header) {
            fprintf(out, "  %-*s %10s %10s %10s %10s\n", LABEL_WIDTH, "metric", "avg", "p50", "p90",
                    "p99");
            header = 1;
        }
        put_label(out, dist_rows[i]);
        fprintf(out, " %10.2f", s->avg);
        put_percentile(out, s, P50);
        put_percentile(out, s, P90);
        put_percentile(out, s, P99);
        fputc('\n', out);
    }
    for (size_t i = 0; i < N_ROWS(single_rows); i++) {
        const smfw_stats *s = &r->stats[single_rows[i]];
        if (!s->present) continue;
        put_label(out, single_rows[i]);
        fprintf(out, " %10.2f\n", s->avg);
    }
}

static smfw_run_verdict print_verdict(FILE *out, const smfw_results *r, double gate,
                                      smfw_status status, int measured) {
    if (status == SMFW_ERR_CANCELLED) {
        fputs("  validity: not judged - the run was interrupted\n", out);
        return SMFW_RUN_VERDICT_NOT_JUDGED;
    }
    if (smfw_status_exit_code(status) == 2) {
        fputs("  validity: not judged - the run was stopped before it measured anything (see "
              "the error above)\n",
              out);
        return SMFW_RUN_VERDICT_NOT_JUDGED;
    }
    if (!measured) {
        fputs("  validity: not judged - no requests were measured\n", out);
        return SMFW_RUN_VERDICT_NOT_JUDGED;
    }
    const smfw_stats *ok = &r->stats[SMFW_M_REQUEST_COUNT];
    long long valid = ok->present ? (long long)ok->avg : 0;
    double rate = smfw_results_error_rate(r);
    if (r->info.gate_tripped) {
        /* failure_reason.txt may be a bundle's text: escaped, so it cannot fake a verdict. */
        fputs("  validity: FAILED - ", out);
        smfw_term_write(
            out, r->info.failure_reason ? r->info.failure_reason : "the validity gate tripped", 0);
        fputc('\n', out);
    } else if (rate > gate) {
        fprintf(out, "  validity: FAILED - error rate %.2f%% is above the gate of %.2f%%\n",
                rate * 100.0, gate * 100.0);
    } else {
        fprintf(out, "  validity: passed (error rate %.2f%%, gate %.2f%%)\n", rate * 100.0,
                gate * 100.0);
        return SMFW_RUN_VERDICT_PASSED;
    }
    fprintf(out, "            the metrics above cover the %lld valid requests\n", valid);
    return SMFW_RUN_VERDICT_FAILED;
}

smfw_run_verdict smfw_run_summary_print(FILE *out, const smfw_results *r,
                                        const smfw_run_summary_options *opts) {
    static const smfw_run_summary_options plain;
    if (!opts) opts = &plain;
    const char *target = r->info.target && *r->info.target ? r->info.target : NULL;
    fputc('\n', out);
    smfw_term_write(out, opts->title ? opts->title : target ? target : "benchmark results", 0);
    fputc('\n', out);
    if (opts->description) {
        fputs("  ", out);
        smfw_term_write(out, opts->description, 0);
        fputc('\n', out);
    }
    if (opts->title && target) {
        fputs("  target: ", out);
        smfw_term_write(out, target, 0);
        fputc('\n', out);
    }
    int measured =
        r->stats[SMFW_M_REQUEST_COUNT].present || r->stats[SMFW_M_ERROR_REQUEST_COUNT].present;
    if (measured)
        print_rows(out, r);
    else
        fputs("  no requests were measured\n", out);
    smfw_run_verdict v = print_verdict(out, r, opts->has_gate ? opts->gate : r->info.max_error_rate,
                                       opts->status, measured);
    if (opts->results_dir) {
        fputs("  results: ", out);
        smfw_term_write(out, opts->results_dir, 0);
        fputc('\n', out);
    }
    return v;
}
