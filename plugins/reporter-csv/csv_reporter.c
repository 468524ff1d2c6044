/*
 * csv_reporter.c - the "csv" reporter: profile_export_aiperf.csv in AIPerf's
 * layout (aiperf-compat.md §4.3), written as Python's csv module writes it:
 * CRLF line endings, minimal quoting, a distribution section and a
 * single-value section, rows sorted by metric tag, numbers with two decimals
 * and empty cells for missing values. The "sum" column of AIPerf 0.8+ is
 * added after "max" when the statistics carry sums (and the setting allows).
 * smfw-only metrics (schedule lag...) are not written here; they are in the
 * JSON's "smfw" object.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/log.h>
#include <smfw/plugin.h>
#include <smfw/reporter.h>
#include <smfw/results.h>

#include "../reporter-common/rpt.h"
#include "csv_sweep.h"

#define CSV_REPORTER_FILE "profile_export_aiperf.csv"

typedef struct csv_reporter {
    int sum_column;
} csv_reporter;

/* One cell with Python csv.QUOTE_MINIMAL rules. */
static void csv_reporter_cell(smfw_buf *b, const char *s) {
    if (strpbrk(s, ",\"\r\n") == NULL) {
        smfw_buf_puts(b, s);
        return;
    }
    smfw_buf_append(b, "\"", 1);
    for (const char *p = s; *p; p++) {
        if (*p == '"') smfw_buf_append(b, "\"", 1);
        smfw_buf_append(b, p, 1);
    }
    smfw_buf_append(b, "\"", 1);
}

static void csv_reporter_number(smfw_buf *b, int has, double v) {
    smfw_buf_append(b, ",", 1);
    if (!has) return;
    char num[RPT_NUM_MAX];
    rpt_fixed2(v, num);
    smfw_buf_puts(b, num);
}

static void csv_reporter_label(smfw_buf *b, const rpt_metric *m) {
    smfw_buf label;
    smfw_buf_init(&label);
    rpt_metric_label(m, &label);
    csv_reporter_cell(b, label.data ? label.data : "");
    if (label.failed) b->failed = 1;
    smfw_buf_free(&label);
}

/* Render the whole file (exposed to the unit test through #include). */
static smfw_status csv_reporter_render(const smfw_results *r, int sum_column, smfw_buf *b,
                                       smfw_error *err) {
    rpt_metric *m = NULL;
    size_t n = rpt_metrics_collect(r, &m);
    if (n == (size_t)-1) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    rpt_metrics_sort_by_tag(m, n);

    int with_sum = 0;
    if (sum_column)
        for (size_t i = 0; i < n; i++)
            if (m[i].distribution && !m[i].smfw_only && (m[i].stats->fields & SMFW_STAT_SUM))
                with_sum = 1;

    smfw_buf_puts(b, "Metric,avg,min,max");
    if (with_sum) smfw_buf_puts(b, ",sum");
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++)
        smfw_buf_printf(b, ",%s", smfw_percentile_keys[i]);
    smfw_buf_puts(b, ",std\r\n");
    for (size_t i = 0; i < n; i++) {
        if (!m[i].distribution || m[i].smfw_only) continue;
        const smfw_stats *s = m[i].stats;
        csv_reporter_label(b, &m[i]);
        csv_reporter_number(b, s->fields & SMFW_STAT_AVG, s->avg);
        csv_reporter_number(b, s->fields & SMFW_STAT_MIN, s->min);
        csv_reporter_number(b, s->fields & SMFW_STAT_MAX, s->max);
        if (with_sum) csv_reporter_number(b, s->fields & SMFW_STAT_SUM, s->sum);
        for (int p = 0; p < SMFW_PERCENTILE_COUNT; p++)
            csv_reporter_number(b, s->fields & (SMFW_STAT_P_FIRST << p), s->p[p]);
        csv_reporter_number(b, s->fields & SMFW_STAT_STD, s->std);
        smfw_buf_puts(b, "\r\n");
    }
    smfw_buf_puts(b, "\r\nMetric,Value\r\n");
    for (size_t i = 0; i < n; i++) {
        if (m[i].distribution || m[i].smfw_only) continue;
        csv_reporter_label(b, &m[i]);
        csv_reporter_number(b, m[i].stats->fields & SMFW_STAT_AVG, m[i].stats->avg);
        smfw_buf_puts(b, "\r\n");
    }
    free(m);
    if (b->failed) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    return SMFW_OK;
}

/* [reporter.csv], bound by declaration (the defaults live in its declarations). */
static const smfw_setting_binding csv_bindings[] = {
    {NULL, "sum_column", SMFW_BIND_BOOL, offsetof(csv_reporter, sum_column), 0}, SMFW_BINDINGS_END};

static smfw_status csv_reporter_create(const smfw_settings *settings, void **ctx, smfw_error *err) {
    csv_reporter *self = calloc(1, sizeof *self);
    if (!self) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st = smfw_settings_bind(settings, csv_bindings, self, err);
    if (st != SMFW_OK) {
        free(self);
        return st;
    }
    *ctx = self;
    return SMFW_OK;
}

static smfw_status csv_reporter_write(void *ctx, const smfw_results *results,
                                      const char *output_dir, smfw_error *err) {
    csv_reporter *self = ctx;
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_status st = csv_reporter_render(results, self->sum_column, &b, err);
    if (st == SMFW_OK)
        st = rpt_write_file(output_dir, CSV_REPORTER_FILE, b.data, b.len, err);
    else
        smfw_error_prefix(err, "cannot write %s/%s", output_dir, CSV_REPORTER_FILE);
    smfw_buf_free(&b);
    if (st == SMFW_OK) SMFW_LOG_DEBUG("csv", "wrote %s/%s", output_dir, CSV_REPORTER_FILE);
    return st;
}

static void csv_reporter_destroy(void *ctx) {
    free(ctx);
}

static const smfw_setting_decl csv_reporter_settings[] = {
    {"sum_column", SMFW_SETTING_BOOL, "true",
     "add AIPerf 0.8+'s sum column after max when the statistics carry sums", NULL, NULL, 0, NULL},
    SMFW_SETTINGS_END};

static const smfw_reporter_output csv_reporter_outputs[] = {
    {CSV_REPORTER_FILE, "summary statistics in AIPerf's CSV layout"}, {NULL, NULL}};

static const smfw_reporter_ops csv_reporter_ops = {
    .size = sizeof(smfw_reporter_ops),
    .create = csv_reporter_create,
    .write = csv_reporter_write,
    .destroy = csv_reporter_destroy,
    .write_set = csv_sweep_write,
    .outputs = csv_reporter_outputs,
};

SMFW_PLUGIN_DEFINE(smfw_reporter_csv, SMFW_PLUGIN_REPORTER, "csv", SMFW_VERSION_STRING,
                   "profile_export_aiperf.csv in AIPerf's layout (CRLF, sections, 2 decimals)",
                   csv_reporter_settings, &csv_reporter_ops)
