/*
 * markdown_sweep.c - sweep.md: a sweep's table (one row per level, the knee in
 * bold, goodput columns when there is goodput) and the decision in words
 * (smfw_run_set_summary()); `smfw sweep` prints this file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/buf.h>
#include <smfw/run_set.h>

#include "../reporter-common/rpt.h"
#include "markdown_sweep.h"

static void cell(smfw_buf *b, double v, const char *fmt) {
    if (isnan(v))
        smfw_buf_puts(b, " - |");
    else {
        smfw_buf_puts(b, " ");
        smfw_buf_printf(b, fmt, v);
        smfw_buf_puts(b, " |");
    }
}

static char *sweep_markdown(const smfw_run_set *s) {
    const smfw_sweep_analysis *a = smfw_run_set_analysis(s);
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_printf(&b, "# smfw sweep\n\n");
    if (smfw_run_set_dir(s)) smfw_buf_printf(&b, "Folder: `%s`", smfw_run_set_dir(s));
    if (smfw_run_set_instance_type(s))
        smfw_buf_printf(&b, "%sInstance: %s", smfw_run_set_dir(s) ? ", " : "",
                        smfw_run_set_instance_type(s));
    smfw_buf_puts(&b, "\n\n");
    int sk = smfw_run_set_slo_knee(s), gp = sk != -3;
    smfw_buf_printf(&b,
                    "| %s | TTFT p50 (ms) | TTFT p95 (ms) | ITL p50 (ms) | E2E p95 (ms) | "
                    "Output tokens/s | Requests/s |%s Errors | $/1M tokens | Verdict |\n"
                    "|---:|---:|---:|---:|---:|---:|---:|%s---:|---:|---|\n",
                    smfw_run_set_is_rate(s) ? "Request rate" : "Concurrency",
                    gp ? " Goodput (requests/s) | Good % |" : "", gp ? "---:|---:|" : "");
    for (size_t i = 0; i < smfw_run_set_count(s); i++) {
        const smfw_sweep_point *p = smfw_run_set_point(s, i);
        smfw_buf_printf(&b, "| %s%g%s |", (int)i == a->knee ? "**" : "", p->load,
                        (int)i == a->knee ? "**" : "");
        cell(&b, p->ttft_p50_ms, "%.1f");
        cell(&b, p->ttft_p95_ms, "%.1f");
        cell(&b, p->itl_p50_ms, "%.2f");
        cell(&b, p->e2e_p95_ms, "%.1f");
        cell(&b, p->output_tps, "%.1f");
        cell(&b, p->request_tps, "%.3g");
        if (gp) {
            smfw_sweep_goodput g;
            smfw_sweep_goodput_of(p, smfw_run_set_slo_attainment(s), &g);
            cell(&b, g.goodput, "%.3g");
            cell(&b, g.fraction * 100, "%.1f");
        }
        smfw_buf_printf(&b, " %llu |", (unsigned long long)p->errors);
        cell(&b, p->cost_per_mtok, "%.3f");
        char m[128];
        smfw_run_set_level_marks(s, i, m, sizeof m);
        smfw_buf_printf(&b, " %s |\n", m);
    }
    smfw_buf_puts(&b, "\n");
    char *summary = smfw_run_set_summary(s, "- ");
    if (!summary) {
        smfw_buf_free(&b);
        return NULL;
    }
    smfw_buf_puts(&b, summary);
    free(summary);
    return smfw_buf_take(&b);
}

smfw_status markdown_sweep_write(void *ctx, const smfw_run_set *set, const char *dir,
                                 smfw_error *err) {
    (void)ctx;
    char *text = sweep_markdown(set);
    if (!text) return rpt_nomem(dir, "sweep.md", err);
    smfw_status st = rpt_write_file(dir, "sweep.md", text, strlen(text), err);
    free(text);
    return st;
}
