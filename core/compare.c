/*
 * compare.c - per-metric deltas between two runs and the regression verdict
 * behind `smfw compare` (see include/smfw/compare.h).
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/compare.h>

#include "results_internal.h"

static const smfw_metric_ref default_metrics[] = {
    {SMFW_M_TIME_TO_FIRST_TOKEN, SMFW_STAT_REF_P50},
    {SMFW_M_TIME_TO_FIRST_TOKEN, SMFW_STAT_REF_P95},
    {SMFW_M_INTER_TOKEN_LATENCY, SMFW_STAT_REF_P50},
    {SMFW_M_REQUEST_LATENCY, SMFW_STAT_REF_P50},
    {SMFW_M_REQUEST_LATENCY, SMFW_STAT_REF_P95},
    {SMFW_M_OUTPUT_TOKEN_THROUGHPUT, SMFW_STAT_REF_AVG},
    {SMFW_M_REQUEST_THROUGHPUT, SMFW_STAT_REF_AVG},
    {SMFW_METRIC_REF_ERROR_RATE, SMFW_STAT_REF_AVG},
};

size_t smfw_compare_default_metrics(const smfw_metric_ref **out) {
    *out = default_metrics;
    return sizeof default_metrics / sizeof default_metrics[0];
}

void smfw_compare_result_free(smfw_compare_result *r) {
    if (!r) return;
    free(r->rows);
    for (size_t i = 0; i < r->n_notes; i++) free(r->notes[i]);
    free(r->notes);
    free(r);
}

static void add_note(smfw_compare_result *r, const char *fmt, ...) SMFW_PRINTF(2, 3);
static void add_note(smfw_compare_result *r, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **grown = realloc(r->notes, (r->n_notes + 1) * sizeof *grown);
    if (!grown) return;
    r->notes = grown;
    char *copy = strdup(buf);
    if (copy) r->notes[r->n_notes++] = copy;
}

static int str_differs(const char *a, const char *b) {
    return a && b && strcmp(a, b) != 0;
}

/* Differences of the workloads that make the numbers less comparable. */
static void workload_notes(smfw_compare_result *res, const smfw_run_info *a,
                           const smfw_run_info *b) {
    if (str_differs(a->endpoint_type, b->endpoint_type))
        add_note(res, "endpoint type differs: %s vs %s", a->endpoint_type, b->endpoint_type);
    if (a->streaming != b->streaming)
        add_note(res, "streaming differs: %s vs %s", a->streaming ? "on" : "off",
                 b->streaming ? "on" : "off");
    if (a->concurrency && b->concurrency && a->concurrency != b->concurrency)
        add_note(res, "concurrency differs: %lld vs %lld", (long long)a->concurrency,
                 (long long)b->concurrency);
    if (a->request_rate > 0 && b->request_rate > 0 && a->request_rate != b->request_rate)
        add_note(res, "request rate differs: %g vs %g requests/s", a->request_rate,
                 b->request_rate);
    if (str_differs(a->dataset_sha256, b->dataset_sha256))
        add_note(res, "dataset differs (sha256 %.12s... vs %.12s...)", a->dataset_sha256,
                 b->dataset_sha256);
    else if (str_differs(a->dataset_name, b->dataset_name))
        add_note(res, "dataset differs: %s vs %s", a->dataset_name, b->dataset_name);
    if (str_differs(a->token_count_source, b->token_count_source))
        add_note(res, "token counts come from different sources: %s vs %s", a->token_count_source,
                 b->token_count_source);
    if (str_differs(a->model, b->model))
        add_note(res, "model differs: %s vs %s", a->model, b->model);
    if (a->gate_tripped) add_note(res, "the base run failed its validity gate");
    if (b->gate_tripped) add_note(res, "the new run failed its validity gate");
}

smfw_status smfw_compare_results(const smfw_results *base, const smfw_results *cur,
                                 const smfw_metric_ref *metrics, size_t n_metrics,
                                 double max_regression_pct, smfw_compare_result **out,
                                 smfw_error *err) {
    *out = NULL;
    if (!metrics) n_metrics = smfw_compare_default_metrics(&metrics);
    if (!(max_regression_pct >= 0) || !isfinite(max_regression_pct))
        return smfw_error_set(err, SMFW_ERR_USAGE, "the regression threshold must be >= 0%%");
    smfw_compare_result *res = calloc(1, sizeof *res);
    if (!res || !(res->rows = calloc(n_metrics ? n_metrics : 1, sizeof *res->rows))) {
        free(res);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    res->max_regression_pct = max_regression_pct;
    for (size_t i = 0; i < n_metrics; i++) {
        smfw_compare_row row;
        memset(&row, 0, sizeof row);
        row.ref = metrics[i];
        smfw_metric_ref_name(&row.ref, row.name, sizeof row.name);
        smfw_metric_ref_label(&row.ref, row.label, sizeof row.label);
        row.unit = smfw_metric_ref_unit(&row.ref);
        row.larger_is_better = smfw_metric_ref_larger_is_better(&row.ref);
        row.have_base = smfw_metric_ref_value(base, &row.ref, &row.base);
        row.have_new = smfw_metric_ref_value(cur, &row.ref, &row.value);
        if (!row.have_base && !row.have_new) continue;
        if (row.have_base && row.have_new) {
            row.delta = row.value - row.base;
            if (row.base != 0)
                row.delta_pct = 100.0 * row.delta / fabs(row.base);
            else
                row.delta_pct = row.delta == 0 ? 0.0 : (row.delta > 0 ? INFINITY : -INFINITY);
            row.worse_pct = row.larger_is_better ? -row.delta_pct : row.delta_pct;
            row.regressed = row.worse_pct > max_regression_pct;
            row.improved = -row.worse_pct > max_regression_pct;
        } else if (row.have_base) {
            row.regressed = 1; /* the number vanished from the new run */
            row.worse_pct = NAN;
            row.delta_pct = NAN;
        } else {
            row.worse_pct = NAN;
            row.delta_pct = NAN;
        }
        if (row.regressed) res->regressions++;
        res->rows[res->n_rows++] = row;
    }
    workload_notes(res, &base->info, &cur->info);
    *out = res;
    return SMFW_OK;
}

/* ---- reports ------------------------------------------------------------------ */

static void fmt_value(char *buf, size_t size, const smfw_compare_row *row, double v) {
    if (row->ref.metric == SMFW_METRIC_REF_ERROR_RATE)
        snprintf(buf, size, "%.2f%%", v * 100.0);
    else if (fabs(v) >= 1.0 || v == 0)
        snprintf(buf, size, "%.2f", v);
    else
        snprintf(buf, size, "%.4g", v);
}

static const char *verdict_text(const smfw_compare_row *row) {
    if (!row->have_new) return "REGRESSION (missing in new run)";
    if (!row->have_base) return "no baseline";
    if (row->regressed) return "REGRESSION";
    if (row->improved) return "improved";
    return "ok";
}

static void fmt_pct(char *buf, size_t size, double pct) {
    if (isnan(pct))
        snprintf(buf, size, "n/a");
    else if (isinf(pct))
        snprintf(buf, size, "%sinf", pct > 0 ? "+" : "-");
    else
        snprintf(buf, size, "%+.1f%%", pct);
}

char *smfw_compare_markdown(const smfw_compare_result *r, const char *base_label,
                            const char *new_label) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_printf(&b, "# smfw compare\n\n- Base: `%s`\n- New: `%s`\n",
                    base_label ? base_label : "base", new_label ? new_label : "new");
    smfw_buf_printf(&b,
                    "- Gate: a metric regresses when it is worse by more than %g%% (higher is "
                    "better for throughputs, lower for latencies and errors)\n\n",
                    r->max_regression_pct);
    smfw_buf_puts(&b, "| Metric | Unit | Base | New | Delta | Delta % | Better | Verdict |\n"
                      "|---|---|---:|---:|---:|---:|---|---|\n");
    for (size_t i = 0; i < r->n_rows; i++) {
        const smfw_compare_row *row = &r->rows[i];
        char bv[48] = "-", nv[48] = "-", dv[48] = "-", pv[32];
        if (row->have_base) fmt_value(bv, sizeof bv, row, row->base);
        if (row->have_new) fmt_value(nv, sizeof nv, row, row->value);
        if (row->have_base && row->have_new) {
            char tmp[48];
            fmt_value(tmp, sizeof tmp, row, row->delta);
            snprintf(dv, sizeof dv, "%s%s", row->delta >= 0 ? "+" : "", tmp);
        }
        fmt_pct(pv, sizeof pv, row->delta_pct);
        smfw_buf_printf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", row->label,
                        row->ref.metric == SMFW_METRIC_REF_ERROR_RATE ? "%" : row->unit, bv, nv, dv,
                        pv, row->larger_is_better ? "higher" : "lower", verdict_text(row));
    }
    if (r->regressions) {
        smfw_buf_printf(&b, "\n**Result: %zu regression%s beyond %g%%:**", r->regressions,
                        r->regressions == 1 ? "" : "s", r->max_regression_pct);
        for (size_t i = 0, k = 0; i < r->n_rows; i++) {
            const smfw_compare_row *row = &r->rows[i];
            if (!row->regressed) continue;
            char pv[32];
            fmt_pct(pv, sizeof pv, row->worse_pct);
            if (row->have_new)
                smfw_buf_printf(&b, "%s %s (%s worse)", k++ ? "," : "", row->label, pv);
            else
                smfw_buf_printf(&b, "%s %s (missing)", k++ ? "," : "", row->label);
        }
        smfw_buf_puts(&b, "\n");
    } else {
        smfw_buf_printf(&b, "\n**Result: no regression beyond %g%%.**\n", r->max_regression_pct);
    }
    if (r->n_notes) {
        smfw_buf_puts(&b, "\nNotes (the runs differ; compare with care):\n\n");
        for (size_t i = 0; i < r->n_notes; i++) smfw_buf_printf(&b, "- %s\n", r->notes[i]);
    }
    return smfw_buf_take(&b);
}

static json_t *num_or_null(int have, double v) {
    return have && isfinite(v) ? json_real(v) : json_null();
}

char *smfw_compare_json(const smfw_compare_result *r, const char *base_label,
                        const char *new_label) {
    json_t *root = json_object();
    if (!root) return NULL;
    json_object_set_new(root, "base", json_string(base_label ? base_label : "base"));
    json_object_set_new(root, "new", json_string(new_label ? new_label : "new"));
    json_object_set_new(root, "max_regression_pct", json_real(r->max_regression_pct));
    json_object_set_new(root, "regressions", json_integer((json_int_t)r->regressions));
    json_object_set_new(root, "passed", json_boolean(r->regressions == 0));
    json_t *rows = json_array();
    for (size_t i = 0; i < r->n_rows; i++) {
        const smfw_compare_row *row = &r->rows[i];
        json_t *o = json_object();
        json_object_set_new(o, "metric", json_string(row->name));
        json_object_set_new(o, "label", json_string(row->label));
        json_object_set_new(o, "unit", json_string(row->unit));
        json_object_set_new(
            o, "direction",
            json_string(row->larger_is_better ? "higher_is_better" : "lower_is_better"));
        json_object_set_new(o, "base", num_or_null(row->have_base, row->base));
        json_object_set_new(o, "new", num_or_null(row->have_new, row->value));
        int both = row->have_base && row->have_new;
        json_object_set_new(o, "delta", num_or_null(both, row->delta));
        json_object_set_new(o, "delta_pct", num_or_null(both, row->delta_pct));
        if (both && isinf(row->delta_pct))
            json_object_set_new(o, "delta_pct_infinite",
                                json_string(row->delta_pct > 0 ? "+" : "-"));
        json_object_set_new(o, "worse_pct", num_or_null(both, row->worse_pct));
        json_object_set_new(o, "regressed", json_boolean(row->regressed));
        json_object_set_new(o, "improved", json_boolean(row->improved));
        json_object_set_new(o, "verdict", json_string(verdict_text(row)));
        json_array_append_new(rows, o);
    }
    json_object_set_new(root, "metrics", rows);
    json_t *notes = json_array();
    for (size_t i = 0; i < r->n_notes; i++) json_array_append_new(notes, json_string(r->notes[i]));
    json_object_set_new(root, "notes", notes);
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    json_decref(root);
    return text;
}
