/*
 * csv_sweep.c - sweep.csv: one row per level of an analysed sweep, every
 * number at full precision (%.6g; goodput %.17g), for spreadsheets and scripts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/buf.h>
#include <smfw/run_set.h>

#include "../reporter-common/rpt.h"
#include "csv_sweep.h"

static char *sweep_csv(const smfw_run_set *s) {
    const smfw_sweep_analysis *a = smfw_run_set_analysis(s);
    smfw_buf b;
    smfw_buf_init(&b);
    int sk = smfw_run_set_slo_knee(s), gp = sk != -3;
    smfw_buf_printf(
        &b,
        "%s,ttft_p50_ms,ttft_p95_ms,itl_p50_ms,e2e_avg_ms,e2e_p95_ms,output_tokens_"
        "per_s,requests_per_s,requests,errors,usd_per_1m_output_tokens,gain_per_"
        "doubling,verdict,knee,meets_slo%s\n",
        smfw_run_set_is_rate(s) ? "request_rate" : "concurrency",
        gp ? ",goodput,good_request_count,good_request_fraction,goodput_attained,slo_knee" : "");
    for (size_t i = 0; i < smfw_run_set_count(s); i++) {
        const smfw_sweep_point *p = smfw_run_set_point(s, i);
        double v[] = {p->ttft_p50_ms, p->ttft_p95_ms, p->itl_p50_ms, p->e2e_avg_ms,
                      p->e2e_p95_ms,  p->output_tps,  p->request_tps};
        smfw_buf_printf(&b, "%g", p->load);
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
            if (isnan(v[k]))
                smfw_buf_puts(&b, ",");
            else
                smfw_buf_printf(&b, ",%.6g", v[k]);
        }
        smfw_buf_printf(&b, ",%llu,%llu", (unsigned long long)p->requests,
                        (unsigned long long)p->errors);
        if (isnan(p->cost_per_mtok))
            smfw_buf_puts(&b, ",");
        else
            smfw_buf_printf(&b, ",%.6g", p->cost_per_mtok);
        if (isnan(p->gain_per_doubling))
            smfw_buf_puts(&b, ",");
        else
            smfw_buf_printf(&b, ",%.6g", p->gain_per_doubling);
        smfw_buf_printf(&b, ",%s,%d,%s", smfw_sweep_verdict_name(p->verdict), (int)i == a->knee,
                        p->meets_slo < 0 ? ""
                        : p->meets_slo   ? "1"
                                         : "0");
        if (gp) {
            smfw_sweep_goodput g;
            smfw_sweep_goodput_of(p, smfw_run_set_slo_attainment(s), &g);
            if (!g.present) {
                smfw_buf_printf(&b, ",,,,,%d", (int)i == sk);
            } else {
                smfw_buf_puts(&b, ",");
                if (!isnan(g.goodput)) smfw_buf_printf(&b, "%.17g", g.goodput);
                smfw_buf_printf(&b, ",%llu,", (unsigned long long)g.good);
                if (!isnan(g.fraction)) smfw_buf_printf(&b, "%.17g", g.fraction);
                smfw_buf_printf(&b, ",%d,%d", g.attains, (int)i == sk);
            }
        }
        smfw_buf_puts(&b, "\n");
    }
    return smfw_buf_take(&b);
}

smfw_status csv_sweep_write(void *ctx, const smfw_run_set *set, const char *dir, smfw_error *err) {
    (void)ctx;
    char *text = sweep_csv(set);
    if (!text) return rpt_nomem(dir, "sweep.csv", err);
    smfw_status st = rpt_write_file(dir, "sweep.csv", text, strlen(text), err);
    free(text);
    return st;
}
