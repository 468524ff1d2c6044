/*
 * html_reporter.c - the "html" reporter: one self-contained report.html.
 *
 * Everything is inline (CSS and SVG drawn here; no script, no font, no
 * image, and a Content-Security-Policy that forbids fetching anything), so
 * the file opens anywhere, offline. Content: the run header, the verdict,
 * the headline table and errors (the same words as summary.md), then charts:
 * TTFT per request over the run, CDFs of TTFT, ITL and request latency,
 * output tokens/s over time, errors over time, and, when the result folder
 * holds the runs of a sweep (read as a run set, smfw/run_set.h, as `smfw
 * sweep` reads it), throughput against TTFT p95 with the knee.
 * Works for managed bundles too: the per-request charts come from
 * profile_export.jsonl and the CDFs fall back to the summary's percentiles.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/log.h>
#include <smfw/plugin.h>
#include <smfw/reporter.h>
#include <smfw/results.h>
#include <smfw/run_set.h>

#include "../reporter-common/rpt.h"
#include "html_sweep.h"
#include "html_data.h"
#include "html_svg.h"

#define HTML_REPORTER_FILE "report.html"

typedef struct html_reporter {
    int64_t max_points; /* per series, to keep the file small on long runs */
    int sweep;          /* look for sweep runs in sub-folders */
} html_reporter;

static const char *const html_palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static const char html_css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:24px auto;"
    "max-width:1200px;padding:0 16px;color:#1b1f24;background:#fff}"
    "h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 10px;border-bottom:1px "
    "solid #d0d7de;padding-bottom:4px}"
    "table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #d0d7de;padding:4px "
    "10px;text-align:left;vertical-align:top}th{background:#f6f8fa}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums}"
    ".verdict{padding:8px 12px;border-radius:6px;font-weight:600;display:inline-block}"
    ".verdict.ok{background:#dafbe1;color:#116329}.verdict.bad{background:#ffebe9;color:#82071e}"
    ".charts{display:flex;flex-wrap:wrap;gap:16px}figure.chart{margin:0;border:1px solid "
    "#d0d7de;border-radius:6px;padding:8px;flex:1 1 560px;max-width:740px}"
    "figcaption{font-weight:600;margin-bottom:4px}svg.chart-svg{width:100%;height:auto;"
    "display:block}"
    "svg .plot{fill:#fbfcfd;stroke:none}svg .grid line{stroke:#e4e8ec;stroke-width:1}"
    "svg .axes line{stroke:#57606a;stroke-width:1.2}svg text{font-size:11px;fill:#3d444d}"
    "svg .axis-label{font-size:12px;fill:#1b1f24}svg .line{stroke-width:1.6}"
    "svg circle.pt{stroke-width:0;fill-opacity:.75}svg circle.pt:hover{r:5;fill-opacity:1}"
    "svg rect.pt:hover{fill-opacity:.7}svg .pt-label{font-size:11px;fill:#1b1f24}"
    ".note{color:#57606a;font-size:12px;margin:4px 0}footer{margin-top:32px;color:#57606a;"
    "font-size:12px}";

static void html_td(smfw_buf *b, const char *text, int num) {
    smfw_buf_puts(b, num ? "<td class=\"num\">" : "<td>");
    html_escape(b, text);
    smfw_buf_puts(b, "</td>");
}

static void html_section_summary(smfw_buf *b, const smfw_results *r) {
    rpt_kv header[RPT_HEADER_MAX];
    size_t nh = rpt_run_header(r, header);
    smfw_buf_puts(b, "<section id=\"run\"><h2>Run</h2><table class=\"kv\">");
    for (size_t i = 0; i < nh; i++) {
        smfw_buf_puts(b, "<tr><th>");
        html_escape(b, header[i].key);
        smfw_buf_puts(b, "</th>");
        html_td(b, header[i].value, 0);
        smfw_buf_puts(b, "</tr>");
    }
    smfw_buf_puts(b, "</table></section>\n");

    rpt_headline_row rows[RPT_HEADLINE_MAX];
    size_t nr = rpt_headline(r, rows);
    smfw_buf_puts(b, "<section id=\"headline\"><h2>Headline</h2>");
    if (nr == 0) {
        smfw_buf_puts(b, "<p>No metrics were recorded.</p>");
    } else {
        smfw_buf_puts(b, "<table class=\"metrics\"><tr><th>Metric</th><th>avg</th><th>p50</th>"
                         "<th>p90</th><th>p99</th><th>unit</th></tr>");
        for (size_t i = 0; i < nr; i++) {
            smfw_buf_puts(b, "<tr>");
            html_td(b, rows[i].label, 0);
            html_td(b, rows[i].avg, 1);
            html_td(b, rows[i].p50, 1);
            html_td(b, rows[i].p90, 1);
            html_td(b, rows[i].p99, 1);
            html_td(b, rows[i].unit, 0);
            smfw_buf_puts(b, "</tr>");
        }
        smfw_buf_puts(b, "</table>");
    }
    smfw_buf_puts(b, "</section>\n");

    uint64_t by_class[SMFW_ERRCLASS_COUNT_];
    uint64_t total = rpt_errors_by_class(r, by_class);
    size_t n_errors = smfw_results_error_summary_count(r);
    smfw_buf_puts(b, "<section id=\"errors\"><h2>Errors</h2>");
    if (total == 0 && n_errors == 0) {
        smfw_buf_puts(b, "<p>No request failed.</p>");
    } else {
        smfw_buf_puts(b, "<table><tr><th>Class</th><th>Requests</th></tr>");
        for (int c = 0; c < SMFW_ERRCLASS_COUNT_; c++) {
            if (!by_class[c]) continue;
            char num[RPT_NUM_MAX];
            rpt_human((double)by_class[c], 0, num);
            smfw_buf_puts(b, "<tr>");
            html_td(b, smfw_error_class_name((smfw_error_class)c), 0);
            html_td(b, num, 1);
            smfw_buf_puts(b, "</tr>");
        }
        smfw_buf_puts(b, "</table><table><tr><th>Class</th><th>Code</th><th>Type</th>"
                         "<th>Message</th><th>Count</th></tr>");
        for (size_t i = 0; i < n_errors && i < 50; i++) {
            const smfw_error_summary_entry *e = smfw_results_error_summary(r, i);
            char code[16] = "", num[RPT_NUM_MAX];
            if (e->has_code) snprintf(code, sizeof code, "%d", e->code);
            rpt_human((double)e->count, 0, num);
            smfw_buf_puts(b, "<tr>");
            html_td(b, smfw_error_class_name(e->error_class), 0);
            html_td(b, code, 1);
            html_td(b, e->type ? e->type : "", 0);
            html_td(b, e->message ? e->message : "", 0);
            html_td(b, num, 1);
            smfw_buf_puts(b, "</tr>");
        }
        smfw_buf_puts(b, "</table>");
    }
    smfw_buf_puts(b, "</section>\n");
}

/* Render one chart from an html_xy, or say why there is none. */
static void html_one_series_chart(smfw_buf *b, html_chart *c, const html_xy *xy, const char *name,
                                  html_series_style style, const char *why_empty) {
    if (xy->n == 0) {
        html_chart_empty(b, c->id, c->title, why_empty);
        return;
    }
    html_series s = {name,   html_palette[0], style,      xy->x, xy->y,
                     xy->y0, xy->titles,      xy->labels, xy->n};
    c->series = &s;
    c->n_series = 1;
    html_chart_render(b, c);
}

static int html_section_charts(smfw_buf *b, const html_reporter *self, const smfw_results *r) {
    size_t maxp = self->max_points > 0 ? (size_t)self->max_points : 0;
    char note[256];
    smfw_buf_puts(b, "<section id=\"charts\"><h2>Charts</h2><div class=\"charts\">\n");

    /* TTFT per request over the run. */
    html_xy xy;
    size_t total = 0;
    if (html_data_timeline(r, maxp, &xy, &total) != 0) return -1;
    html_chart c = {0};
    c.id = "ttft-timeline";
    c.title = "Time to first token per request over the run";
    c.x_label = "request sent (s since the first request)";
    c.y_label = "time to first token (ms)";
    c.x_unit = "s";
    c.y_unit = "ms";
    c.x_from_zero = c.y_from_zero = 1;
    if (total > xy.n) {
        snprintf(note, sizeof note, "Showing %zu of %zu requests (evenly spaced).", xy.n, total);
        c.note = note;
    }
    /* Why there is no TTFT: a streaming run whose requests all failed is still streaming. */
    size_t ok = 0, n_records = smfw_results_record_count(r);
    for (size_t i = 0; i < n_records; i++)
        if (!smfw_record_get_error(smfw_results_record(r, i))) ok++;
    int streaming = smfw_results_info(r)->streaming;
    const char *empty = !n_records ? "No per-request records (profile_export.jsonl) in this result."
                        : streaming && !ok
                            ? "No request has a time to first token: every request failed."
                        : streaming ? "No request has a time to first token (no content arrived)."
                                    : "No request has a time to first token (not streaming).";
    html_one_series_chart(b, &c, &xy, "TTFT", HTML_SERIES_POINTS, empty);
    html_xy_free(&xy);

    /* CDFs. */
    static const struct {
        smfw_metric_id id;
        const char *chart_id, *title, *x_label;
    } cdfs[] = {
        {SMFW_M_TIME_TO_FIRST_TOKEN, "cdf-ttft", "Time to first token: CDF",
         "time to first token (ms)"},
        {SMFW_M_INTER_TOKEN_LATENCY, "cdf-itl", "Inter-token latency: CDF",
         "inter-token latency (ms)"},
        {SMFW_M_REQUEST_LATENCY, "cdf-latency", "Request latency: CDF", "request latency (ms)"},
    };
    for (size_t i = 0; i < sizeof cdfs / sizeof cdfs[0]; i++) {
        int from_stats = 0;
        if (html_data_cdf(r, cdfs[i].id, 400, &xy, &from_stats) != 0) return -1;
        memset(&c, 0, sizeof c);
        c.id = cdfs[i].chart_id;
        c.title = cdfs[i].title;
        c.x_label = cdfs[i].x_label;
        c.y_label = "requests at or below (%)";
        c.x_unit = "ms";
        c.y_unit = "%";
        c.y_from_zero = 1;
        if (from_stats) c.note = "From the summary's percentiles (no per-request records).";
        html_one_series_chart(b, &c, &xy, cdfs[i].title, HTML_SERIES_LINE,
                              "This metric was not recorded in this run.");
        html_xy_free(&xy);
    }

    /* Throughput and errors over time share the bins. */
    html_bins bins;
    int have_bins = html_data_bins(r, 60, &bins);
    if (html_data_throughput(r, &bins, &xy) != 0) return -1;
    memset(&c, 0, sizeof c);
    c.id = "throughput-timeline";
    c.title = "Output tokens per second over the run";
    c.x_label = "time (s since the first request)";
    c.y_label = "output tokens/s";
    c.x_unit = "s";
    c.y_unit = "tokens/s";
    c.x_from_zero = c.y_from_zero = 1;
    snprintf(note, sizeof note,
             "Each request spreads its output tokens evenly from its first token to its end "
             "(AIPerf's dispersed throughput), averaged over %.3g s bins.",
             bins.width_s);
    c.note = note;
    html_one_series_chart(b, &c, &xy, "output tokens/s", HTML_SERIES_LINE,
                          have_bins ? "No request has a latency and an output length."
                                    : "No per-request records (profile_export.jsonl) in this "
                                      "result.");
    html_xy_free(&xy);

    html_xy errs[SMFW_ERRCLASS_COUNT_];
    smfw_error_class classes[SMFW_ERRCLASS_COUNT_];
    int ns = html_data_errors(r, &bins, errs, classes);
    if (ns < 0) return -1;
    memset(&c, 0, sizeof c);
    c.id = "errors-timeline";
    c.title = "Failed requests over the run";
    c.x_label = "time (s since the first request)";
    c.y_label = "failed requests per bin";
    c.x_unit = "s";
    c.y_unit = "failed";
    c.x_from_zero = c.y_from_zero = 1;
    c.bar_width = bins.width_s;
    if (ns == 0) {
        html_chart_empty(b, c.id, c.title,
                         "No per-request records (profile_export.jsonl) in this result.");
    } else {
        html_series series[SMFW_ERRCLASS_COUNT_];
        for (int i = 0; i < ns; i++) {
            series[i] = (html_series){
                classes[i] == SMFW_ERRCLASS_NONE ? "no errors" : smfw_error_class_name(classes[i]),
                html_palette[(i + 3) % 10],
                HTML_SERIES_BARS,
                errs[i].x,
                errs[i].y,
                errs[i].y0,
                errs[i].titles,
                NULL,
                errs[i].n};
        }
        snprintf(note, sizeof note, "Failed requests by the time they ended, in %.3g s bins.",
                 bins.width_s);
        c.note = note;
        c.series = series;
        c.n_series = (size_t)ns;
        html_chart_render(b, &c);
    }
    for (int i = 0; i < ns; i++) html_xy_free(&errs[i]);
    smfw_buf_puts(b, "</div></section>\n");
    return 0;
}

/* The sweep in `dir` read as a run set (the folder rules of `smfw sweep`): *out is NULL when
 * dir is not a sweep or holds fewer than two levels. -1 only when out of memory. */
static int html_sweep_load(const char *dir, smfw_run_set **out) {
    *out = NULL;
    if (!dir) return 0;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_run_set *set = NULL;
    if (smfw_run_set_load_dir(dir, &set, &err) != SMFW_OK)
        return err.status == SMFW_ERR_NOMEM ? -1 : 0; /* not a sweep: no section */
    if (smfw_run_set_count(set) < 2) {
        smfw_run_set_free(set);
        return 0;
    }
    *out = set;
    return 0;
}

/* The base name of level i's folder ("qwen_concurrency4"). */
static const char *html_sweep_level_name(const smfw_run_set *set, size_t i) {
    const char *dir = smfw_run_set_level_dir(set, i);
    if (!dir) return "";
    const char *slash = strrchr(dir, '/');
    return slash ? slash + 1 : dir;
}

/* The sweep chart and table of an analysed set; levels without TTFT p95 or output throughput
 * are left out. Nothing when fewer than two levels can be drawn. */
static int html_section_sweep_set(smfw_buf *b, const smfw_run_set *set) {
    size_t n_set = smfw_run_set_count(set);
    int is_rate = smfw_run_set_is_rate(set);
    const smfw_sweep_analysis *an = smfw_run_set_analysis(set);
    size_t *level = calloc(n_set ? n_set : 1, sizeof *level); /* chart point -> set level */
    if (!level) return -1;
    size_t n = 0;
    int knee = -1; /* chart point of the knee */
    for (size_t i = 0; i < n_set; i++) {
        const smfw_sweep_point *pt = smfw_run_set_point(set, i);
        if (isnan(pt->ttft_p95_ms) || isnan(pt->output_tps)) continue;
        if (an && an->knee >= 0 && (size_t)an->knee == i) knee = (int)n;
        level[n++] = i;
    }
    if (n < 2) {
        free(level);
        return 0;
    }
    html_xy xy = {0};
    xy.x = calloc(n, sizeof *xy.x);
    xy.y = calloc(n, sizeof *xy.y);
    xy.titles = calloc(n, sizeof *xy.titles);
    xy.labels = calloc(n, sizeof *xy.labels);
    if (!xy.x || !xy.y || !xy.titles || !xy.labels) {
        html_xy_free(&xy);
        free(level);
        return -1;
    }
    xy.n = xy.cap = n;
    for (size_t i = 0; i < n; i++) {
        const smfw_sweep_point *pt = smfw_run_set_point(set, level[i]);
        const char *name = html_sweep_level_name(set, level[i]);
        char t[512], ts[RPT_NUM_MAX], ls[RPT_NUM_MAX], lab[64];
        xy.x[i] = pt->ttft_p95_ms;
        xy.y[i] = pt->output_tps;
        rpt_human(pt->output_tps, 2, ts);
        rpt_human(pt->ttft_p95_ms, 2, ls);
        snprintf(lab, sizeof lab, is_rate ? "rate=%.10g/s" : "c=%.10g", pt->load);
        snprintf(t, sizeof t, "%s (%s): %s output tokens/s at TTFT p95 %s ms", lab, name, ts, ls);
        xy.titles[i] = strdup(t);
        xy.labels[i] = strdup(lab);
    }
    char mark[128] = "";
    if (knee >= 0)
        snprintf(mark, sizeof mark, "knee: %s",
                 xy.labels[knee] ? xy.labels[knee] : html_sweep_level_name(set, level[knee]));
    html_chart c = {0};
    c.id = "sweep-knee";
    c.title = "Sweep: output token throughput vs TTFT p95";
    c.x_label = "time to first token, p95 (ms)";
    c.y_label = "output token throughput (tokens/s)";
    c.x_unit = "ms";
    c.y_unit = "tokens/s";
    c.x_from_zero = c.y_from_zero = 1;
    c.has_mark = knee >= 0;
    if (knee >= 0) {
        c.mark_x = xy.x[knee];
        c.mark_y = xy.y[knee];
        c.mark_label = mark;
    }
    if (is_rate)
        c.note = knee >= 0
                     ? "One point per run, in order of request rate. The knee (as `smfw sweep` "
                       "finds it: after it, throughput gains stay below 10% per doubling of "
                       "request rate while TTFT p95 keeps rising) is where more load stops paying."
                     : "One point per run, in order of request rate. No knee: throughput still "
                       "grew by 10% or more per doubling of request rate up to the last run.";
    else
        c.note = knee >= 0
                     ? "One point per run, in order of concurrency. The knee (as `smfw sweep` "
                       "finds it: after it, throughput gains stay below 10% per doubling of "
                       "concurrency while TTFT p95 keeps rising) is where more load stops paying."
                     : "One point per run, in order of concurrency. No knee: throughput still "
                       "grew by 10% or more per doubling of concurrency up to the last run.";
    smfw_buf_puts(b, "<section id=\"sweep\"><h2>Sweep</h2><div class=\"charts\">\n");
    html_series s = {"runs", html_palette[0], HTML_SERIES_LINE, xy.x, xy.y,
                     NULL,   xy.titles,       xy.labels,        n};
    c.series = &s;
    c.n_series = 1;
    html_chart_render(b, &c);
    smfw_buf_printf(b,
                    "</div><table><tr><th>Run</th><th>%s</th><th>Output tokens/s</th>"
                    "<th>Requests/s</th><th>TTFT p95 (ms)</th></tr>",
                    is_rate ? "Request rate (requests/s)" : "Concurrency");
    for (size_t i = 0; i < n; i++) {
        const smfw_sweep_point *pt = smfw_run_set_point(set, level[i]);
        char c1[RPT_NUM_MAX], c2[RPT_NUM_MAX], c3[RPT_NUM_MAX] = "", c4[RPT_NUM_MAX];
        snprintf(c1, sizeof c1, "%.10g", pt->load);
        rpt_human(pt->output_tps, 2, c2);
        if (!isnan(pt->request_tps)) rpt_human(pt->request_tps, 3, c3);
        rpt_human(pt->ttft_p95_ms, 2, c4);
        int is_knee = knee >= 0 && i == (size_t)knee;
        smfw_buf_puts(b, is_knee ? "<tr class=\"knee\">" : "<tr>");
        html_td(b, is_knee ? mark : html_sweep_level_name(set, level[i]), 0);
        html_td(b, c1, 1);
        html_td(b, c2, 1);
        html_td(b, c3, 1);
        html_td(b, c4, 1);
        smfw_buf_puts(b, "</tr>");
    }
    smfw_buf_puts(b, "</table></section>\n");
    html_xy_free(&xy);
    free(level);
    return 0;
}

/* The sweep whose levels are sub-folders of the output folder, or of the folder the results
 * came from, read as a run set and analysed as `smfw sweep` does (default options). */
static int html_section_sweep(smfw_buf *b, const smfw_results *r, const char *output_dir) {
    smfw_run_set *set = NULL;
    if (html_sweep_load(output_dir, &set) != 0) return -1;
    const char *source = smfw_results_info(r)->source_dir;
    if (!set && source && (!output_dir || strcmp(source, output_dir) != 0) &&
        html_sweep_load(source, &set) != 0)
        return -1;
    if (!set) return 0;
    /* NULL options: the defaults, with the load read as the set's mode says. */
    smfw_sweep_analysis an;
    smfw_error err;
    smfw_error_clear(&err);
    int rc = 0;
    if (smfw_run_set_analyze(set, NULL, &an, &err) == SMFW_OK)
        rc = html_section_sweep_set(b, set);
    else if (err.status == SMFW_ERR_NOMEM)
        rc = -1;
    smfw_run_set_free(set);
    return rc;
}

/* Render the whole page (exposed to the unit test through #include). */
static smfw_status html_reporter_render(const html_reporter *self, const smfw_results *r,
                                        const char *output_dir, smfw_buf *b, smfw_error *err) {
    char name[256];
    rpt_run_title(r, name, sizeof name);
    smfw_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "style-src 'unsafe-inline'\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"smfw ");
    html_escape(b, smfw_version());
    smfw_buf_puts(b, "\">\n<title>smfw report: ");
    html_escape(b, name);
    smfw_buf_printf(
        b, "</title>\n<style>%s</style>\n</head>\n<body>\n<header><h1>smfw benchmark: ", html_css);
    html_escape(b, name);
    char verdict[1024];
    int ok = rpt_verdict(r, verdict, sizeof verdict);
    smfw_buf_printf(b, "</h1><p class=\"verdict %s\" id=\"verdict\">", ok ? "ok" : "bad");
    html_escape(b, verdict);
    smfw_buf_puts(b, "</p></header>\n");
    html_section_summary(b, r);
    if (html_section_charts(b, self, r) != 0 ||
        (self->sweep && html_section_sweep(b, r, output_dir) != 0))
        b->failed = 1;
    smfw_buf_puts(b, "<footer>Generated by smfw ");
    html_escape(b, smfw_version());
    smfw_buf_puts(b, ". Hover a point for its values. This page loads nothing from the network."
                     "</footer>\n</body></html>\n");
    if (b->failed) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    return SMFW_OK;
}

/* [reporter.html], bound by declaration (the defaults are html_settings'). */
static const smfw_setting_binding html_bindings[] = {
    {NULL, "max_points", SMFW_BIND_INT64, offsetof(html_reporter, max_points), 0},
    {NULL, "sweep", SMFW_BIND_BOOL, offsetof(html_reporter, sweep), 0},
    SMFW_BINDINGS_END};

static smfw_status html_reporter_create(const smfw_settings *settings, void **ctx,
                                        smfw_error *err) {
    html_reporter *self = calloc(1, sizeof *self);
    if (!self) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st = smfw_settings_bind(settings, html_bindings, self, err);
    if (st != SMFW_OK) {
        free(self);
        return st;
    }
    *ctx = self;
    return SMFW_OK;
}

static smfw_status html_reporter_write(void *ctx, const smfw_results *results,
                                       const char *output_dir, smfw_error *err) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_status st = html_reporter_render(ctx, results, output_dir, &b, err);
    if (st == SMFW_OK)
        st = rpt_write_file(output_dir, HTML_REPORTER_FILE, b.data, b.len, err);
    else
        smfw_error_prefix(err, "cannot write %s/%s", output_dir, HTML_REPORTER_FILE);
    smfw_buf_free(&b);
    if (st == SMFW_OK) SMFW_LOG_DEBUG("html", "wrote %s/%s", output_dir, HTML_REPORTER_FILE);
    return st;
}

static void html_reporter_destroy(void *ctx) {
    free(ctx);
}

static const smfw_setting_decl html_reporter_settings[] = {
    {"max_points", SMFW_SETTING_INT, "2000",
     "most points drawn per series (evenly spaced); 0 = every request", NULL, NULL, 0, "N"},
    {"sweep", SMFW_SETTING_BOOL, "true",
     "add the sweep chart when sub-folders hold the runs of a sweep", NULL, NULL, 0, NULL},
    SMFW_SETTINGS_END};

static const smfw_reporter_output html_reporter_outputs[] = {
    {HTML_REPORTER_FILE, "self-contained report with charts"}, {NULL, NULL}};

static const smfw_reporter_ops html_reporter_ops = {
    .size = sizeof(smfw_reporter_ops),
    .create = html_reporter_create,
    .write = html_reporter_write,
    .destroy = html_reporter_destroy,
    .write_set = html_sweep_write,
    .outputs = html_reporter_outputs,
};

SMFW_PLUGIN_DEFINE(smfw_reporter_html, SMFW_PLUGIN_REPORTER, "html", SMFW_VERSION_STRING,
                   "report.html: self-contained page with the headline table and SVG charts",
                   html_reporter_settings, &html_reporter_ops)
