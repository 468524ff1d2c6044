/*
 * html_sweep.c - sweep.html: a self-contained page for an analysed sweep, its
 * chart plotting throughput against TTFT p95 with the knee, the SLO level and
 * the SLO knee marked, the table and the decision in words.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/buf.h>
#include <smfw/run_set.h>

#include "../reporter-common/rpt.h"
#include "html_svg.h"
#include "html_sweep.h"

/* Throughput (x) against TTFT p95 (y), one point per level in load order. */
static void svg_chart(smfw_buf *b, const smfw_run_set *s, const smfw_sweep_options *o,
                      const smfw_sweep_analysis *a) {
    size_t n = smfw_run_set_count(s);
    const double W = 720, H = 420, L = 70, R = 20, T = 20, B = 50;
    int slo_knee = smfw_run_set_slo_knee(s);
    double xmax = 0, ymax = 0, slo_y = NAN;
    for (size_t i = 0; o && i < o->n_slos; i++)
        if (o->slos[i].ref.metric == SMFW_M_TIME_TO_FIRST_TOKEN &&
            o->slos[i].ref.stat == SMFW_STAT_REF_P95)
            slo_y = o->slos[i].threshold;
    for (size_t i = 0; i < n; i++) {
        if (smfw_run_set_point(s, i)->output_tps > xmax)
            xmax = smfw_run_set_point(s, i)->output_tps;
        if (smfw_run_set_point(s, i)->ttft_p95_ms > ymax)
            ymax = smfw_run_set_point(s, i)->ttft_p95_ms;
    }
    if (!isnan(slo_y) && slo_y > ymax) ymax = slo_y;
    if (!(xmax > 0)) xmax = 1;
    if (!(ymax > 0)) ymax = 1;
    xmax *= 1.08;
    ymax *= 1.1;
#define PX(v) (L + (v) / xmax * (W - L - R))
#define PY(v) (H - B - (v) / ymax * (H - T - B))
    smfw_buf_printf(b,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                    "role=\"img\" aria-label=\"throughput vs TTFT p95\">\n"
                    "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n"
                    "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#333\"/>\n"
                    "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#333\"/>\n",
                    W, H, W, H, L, H - B, W - R, H - B, L, T, L, H - B);
    for (int k = 0; k <= 4; k++) {
        double xv = xmax * k / 4, yv = ymax * k / 4;
        smfw_buf_printf(b,
                        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                        "text-anchor=\"middle\">%.0f</text>\n"
                        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                        "text-anchor=\"end\">%.0f</text>\n",
                        PX(xv), H - B + 16, xv, L - 6, PY(yv) + 4, yv);
    }
    smfw_buf_printf(b,
                    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">output "
                    "tokens/s</text>\n<text x=\"14\" y=\"%.1f\" font-size=\"12\" "
                    "transform=\"rotate(-90 14 %.1f)\" text-anchor=\"middle\">TTFT p95 "
                    "(ms)</text>\n",
                    (L + W - R) / 2, H - 12, (T + H - B) / 2, (T + H - B) / 2);
    if (!isnan(slo_y))
        smfw_buf_printf(b,
                        "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#2a7\" "
                        "stroke-dasharray=\"6 4\"/><text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" "
                        "fill=\"#2a7\" text-anchor=\"end\">SLO TTFT p95 %.0f ms</text>\n",
                        L, PY(slo_y), W - R, PY(slo_y), W - R, PY(slo_y) - 4, slo_y);
    smfw_buf_puts(b, "<polyline fill=\"none\" stroke=\"#36c\" stroke-width=\"2\" points=\"");
    for (size_t i = 0; i < n; i++)
        if (!isnan(smfw_run_set_point(s, i)->output_tps) &&
            !isnan(smfw_run_set_point(s, i)->ttft_p95_ms))
            smfw_buf_printf(b, "%.1f,%.1f ", PX(smfw_run_set_point(s, i)->output_tps),
                            PY(smfw_run_set_point(s, i)->ttft_p95_ms));
    smfw_buf_puts(b, "\"/>\n");
    for (size_t i = 0; i < n; i++) {
        const smfw_sweep_point *p = smfw_run_set_point(s, i);
        if (isnan(p->output_tps) || isnan(p->ttft_p95_ms)) continue;
        int knee = (int)i == a->knee, slo = (int)i == a->slo_best;
        smfw_buf_printf(b,
                        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"%s><title>%g: "
                        "%.1f tokens/s, TTFT p95 %.1f ms, %s</title></circle>\n",
                        PX(p->output_tps), PY(p->ttft_p95_ms), knee || slo ? 7 : 4,
                        knee  ? "#d33"
                        : slo ? "#2a7"
                              : "#36c",
                        knee && slo ? " stroke=\"#2a7\" stroke-width=\"3\"" : "", p->load,
                        p->output_tps, p->ttft_p95_ms, smfw_sweep_verdict_name(p->verdict));
        smfw_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%g%s%s%s</text>\n",
                        PX(p->output_tps) + 8, PY(p->ttft_p95_ms) - 6, p->load, knee ? " knee" : "",
                        slo ? " SLO" : "", (int)i == slo_knee ? " SLO knee" : "");
    }
    smfw_buf_puts(b, "</svg>\n");
#undef PX
#undef PY
}

static char *sweep_html(const smfw_run_set *s) {
    const smfw_sweep_options *o = smfw_run_set_options(s);
    const smfw_sweep_analysis *a = smfw_run_set_analysis(s);
    size_t n = smfw_run_set_count(s);
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                      "<title>smfw sweep</title><style>body{font-family:sans-serif;margin:2em}"
                      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px "
                      "8px;text-align:right}td.v{text-align:left}tr.knee{background:#fde}"
                      "tr.slo{background:#efe}</style></head><body>\n<h1>smfw sweep</h1>\n");
    if (smfw_run_set_instance_type(s)) {
        smfw_buf_puts(&b, "<p>Instance: ");
        html_escape(&b, smfw_run_set_instance_type(s));
        smfw_buf_puts(&b, "</p>\n");
    }
    svg_chart(&b, s, o, a);
    int sk = smfw_run_set_slo_knee(s), gp = sk != -3;
    smfw_buf_printf(&b,
                    "<table><tr><th>%s</th><th>TTFT p50 (ms)</th><th>TTFT p95 (ms)</th><th>ITL "
                    "p50 (ms)</th><th>E2E p95 (ms)</th><th>Output tokens/s</th><th>Requests/s"
                    "</th>%s<th>Errors</th><th>$/1M tokens</th><th>Verdict</th></tr>\n",
                    smfw_run_set_is_rate(s) ? "Request rate" : "Concurrency",
                    gp ? "<th>Goodput (requests/s)</th><th>Good %</th>" : "");
    for (size_t i = 0; i < n; i++) {
        const smfw_sweep_point *p = smfw_run_set_point(s, i);
        smfw_buf_printf(&b, "<tr%s><td>%g</td>",
                        (int)i == a->knee       ? " class=\"knee\""
                        : (int)i == a->slo_best ? " class=\"slo\""
                                                : "",
                        p->load);
        double v[] = {p->ttft_p50_ms, p->ttft_p95_ms, p->itl_p50_ms,   p->e2e_p95_ms,
                      p->output_tps,  p->request_tps, p->cost_per_mtok};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
            if (k == 6 && gp) {
                smfw_sweep_goodput g;
                smfw_sweep_goodput_of(p, smfw_run_set_slo_attainment(s), &g);
                if (isnan(g.goodput))
                    smfw_buf_puts(&b, "<td>-</td>");
                else
                    smfw_buf_printf(&b, "<td>%.3f</td>", g.goodput);
                if (isnan(g.fraction))
                    smfw_buf_puts(&b, "<td>-</td>");
                else
                    smfw_buf_printf(&b, "<td>%.1f</td>", g.fraction * 100);
            }
            if (k == 6) smfw_buf_printf(&b, "<td>%llu</td>", (unsigned long long)p->errors);
            if (isnan(v[k]))
                smfw_buf_puts(&b, "<td>-</td>");
            else
                smfw_buf_printf(&b, "<td>%.*f</td>", k == 2 || k == 5 || k == 6 ? 3 : 1, v[k]);
        }
        char m[128];
        smfw_run_set_level_marks(s, i, m, sizeof m);
        smfw_buf_printf(&b, "<td class=\"v\">%s</td></tr>\n", m);
    }
    smfw_buf_puts(&b, "</table>\n<ul>\n");
    char *text = smfw_run_set_summary(s, "");
    for (char *line = text, *nl; line && *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl)
            nl = line + strlen(line) - 1;
        else
            *nl = '\0';
        smfw_buf_puts(&b, "<li>");
        html_escape(&b, line);
        smfw_buf_puts(&b, "</li>\n");
    }
    free(text);
    smfw_buf_puts(&b, "</ul>\n</body></html>\n");
    return smfw_buf_take(&b);
}

smfw_status html_sweep_write(void *ctx, const smfw_run_set *set, const char *dir, smfw_error *err) {
    (void)ctx;
    char *text = sweep_html(set);
    if (!text) return rpt_nomem(dir, "sweep.html", err);
    smfw_status st = rpt_write_file(dir, "sweep.html", text, strlen(text), err);
    free(text);
    return st;
}
