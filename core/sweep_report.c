/*
 * sweep_report.c - a sweep's table and decision in Markdown, CSV, JSON and a
 * self-contained HTML page whose chart plots throughput against TTFT p95
 * with the knee and the SLO level marked.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/capacity.h>

#include "results_internal.h"

#define PIN_REMINDER                                                                               \
    "pin MinCapacity = MaxCapacity on the scalable target while benchmarking, or the test "        \
    "measures the scaling policy instead of the instance"

static int is_rate(const smfw_run_set *s) {
    return s->mode && strcmp(s->mode, "request_rate") == 0;
}

static void cell(smfw_buf *b, double v, const char *fmt) {
    if (isnan(v))
        smfw_buf_puts(b, " - |");
    else {
        smfw_buf_puts(b, " ");
        smfw_buf_printf(b, fmt, v);
        smfw_buf_puts(b, " |");
    }
}

static void marks(char *buf, size_t size, const smfw_sweep_point *p, int i,
                  const smfw_sweep_analysis *a, int slo_knee) {
    snprintf(buf, size, "%s%s%s%s", smfw_sweep_verdict_name(p->verdict),
             a->slo_best == i ? ", highest within SLO" : "", slo_knee == i ? ", SLO knee" : "",
             a->operating == i && a->operating != a->knee ? ", recommended" : "");
}

static double attainment_of(const smfw_sweep_options *o) {
    return o && o->slo_attainment > 0 ? o->slo_attainment : SMFW_SWEEP_SLO_ATTAINMENT;
}

/* Goodput columns and the SLO knee appear when a level carries goodput or goodput SLOs
 * were given: a sweep without them reads exactly as before. */
static int shows_goodput(const smfw_run_set *s, const smfw_sweep_options *o) {
    if (o && o->n_goodput_slos) return 1;
    for (size_t i = 0; i < s->n; i++) {
        smfw_sweep_goodput g;
        smfw_sweep_goodput_of(&s->points[i], attainment_of(o), &g);
        if (g.present) return 1;
    }
    return 0;
}

/* The SLO knee when goodput is shown, else -3 (nothing to mark). */
static int slo_knee_of(const smfw_run_set *s, const smfw_sweep_options *o) {
    return shows_goodput(s, o) ? smfw_sweep_slo_knee(s->points, s->n, attainment_of(o)) : -3;
}

/* One goodput SLO in AIPerf's form: "time_to_first_token:100". */
static void goodput_slo_text(char *buf, size_t size, const smfw_goodput_slo *g) {
    const smfw_metric_info *info = smfw_metric_get(g->metric);
    snprintf(buf, size, "%s:%.15g", info ? info->tag : "?", g->threshold);
}

/* How the SLO knee sits against the throughput knee, for the summary and sweep.json. */
static const char *knee_relation(const smfw_sweep_analysis *a, int slo_knee) {
    if (slo_knee < 0) return NULL;
    if (a->knee < 0) return "the throughput knee is not reached: the SLOs bind first";
    if (slo_knee < a->knee) return "below the throughput knee: the SLOs bind first";
    if (slo_knee == a->knee) return "the same level as the throughput knee";
    return "above the throughput knee: throughput stops paying before the SLOs bind";
}

static void slo_knee_line(smfw_buf *b, const smfw_run_set *s, const smfw_sweep_options *o,
                          const smfw_sweep_analysis *a, const char *bullet) {
    int sk = slo_knee_of(s, o);
    if (sk == -3) return;
    const char *unit = is_rate(s) ? " requests/s" : "";
    const char *what = is_rate(s) ? "request rate" : "concurrency";
    double att = attainment_of(o);
    smfw_buf slos;
    smfw_buf_init(&slos);
    for (size_t i = 0; o && i < o->n_goodput_slos; i++) {
        char one[160];
        goodput_slo_text(one, sizeof one, &o->goodput_slos[i]);
        smfw_buf_printf(&slos, "%s%s", i ? " " : "", one);
    }
    char *text = smfw_buf_take(&slos);
    const char *slo_text = text && *text ? text : "as recorded in the level folders";
    if (sk == -2) {
        smfw_buf_printf(b, "%sSLO knee: no level reports goodput (goodput SLOs: %s)\n", bullet,
                        slo_text);
    } else if (sk == -1) {
        smfw_sweep_goodput g;
        smfw_sweep_goodput_of(&s->points[0], att, &g);
        if (!isnan(g.fraction) && g.fraction >= att && g.gate_tripped)
            smfw_buf_printf(b,
                            "%sSLO knee: none: the lowest level, %s %g%s, failed its validity "
                            "gate\n",
                            bullet, what, s->points[0].load, unit);
        else
            smfw_buf_printf(b,
                            "%sSLO knee: none: at the lowest level, %s %g%s, %.1f%% of the "
                            "requests met every goodput SLO (%s), %g%% needed\n",
                            bullet, what, s->points[0].load, unit,
                            isnan(g.fraction) ? 0.0 : g.fraction * 100, slo_text, att * 100);
    } else {
        smfw_sweep_goodput g;
        smfw_sweep_goodput_of(&s->points[sk], att, &g);
        smfw_buf_printf(b,
                        "%sSLO knee: %s %g%s: the highest level up to which every level keeps "
                        "at least %g%% of its requests within every goodput SLO (%s); %.1f%% "
                        "there, goodput %.3g requests/s; %s",
                        bullet, what, s->points[sk].load, unit, att * 100, slo_text,
                        g.fraction * 100, g.goodput, knee_relation(a, sk));
        if (a->knee >= 0 && a->knee != sk) smfw_buf_printf(b, " (%g)", s->points[a->knee].load);
        if ((size_t)sk + 1 == s->n)
            smfw_buf_puts(b, "; every level tested attains, so it may lie above the sweep");
        smfw_buf_puts(b, "\n");
    }
    free(text);
}

static void summary_lines(smfw_buf *b, const smfw_run_set *s, const smfw_sweep_options *o,
                          const smfw_sweep_analysis *a, const char *bullet) {
    const char *unit = is_rate(s) ? " requests/s" : "";
    const char *what = is_rate(s) ? "request rate" : "concurrency";
    double kg = o && o->knee_gain > 0 ? o->knee_gain : 0.10;
    if (a->knee >= 0) {
        const smfw_sweep_point *k = &s->points[a->knee];
        smfw_buf_printf(b,
                        "%sKnee: %s %g%s: beyond it throughput gains less than %.0f%% per "
                        "doubling of load while TTFT keeps rising (%.1f tokens/s, TTFT p95 "
                        "%.0f ms there)\n",
                        bullet, what, k->load, unit, kg * 100, k->output_tps, k->ttft_p95_ms);
    } else {
        smfw_buf_printf(b,
                        "%sKnee: not reached; throughput still grew by %.0f%% or more per "
                        "doubling at the highest level tested\n",
                        bullet, kg * 100);
    }
    if (a->slo_best >= 0)
        smfw_buf_printf(b, "%sSLO: the highest level meeting every SLO is %s %g%s\n", bullet, what,
                        s->points[a->slo_best].load, unit);
    else if (a->slo_best == -1)
        smfw_buf_printf(b, "%sSLO: no level meets every SLO\n", bullet);
    slo_knee_line(b, s, o, a, bullet);
    if (a->operating < 0) {
        smfw_buf_printf(b, "%sRecommendation: none: %s\n", bullet, a->operating_why);
        return;
    }
    const smfw_sweep_point *p = &s->points[a->operating];
    smfw_buf_printf(b, "%sOperating point: %s %g%s (%s)\n", bullet, what, p->load, unit,
                    a->operating_why);
    if (!isnan(a->cost_at_operating))
        smfw_buf_printf(b,
                        "%sCost: $%.2f per 1M output tokens at %.1f tokens/s on %s at $%.4g/hour, "
                        "duty cycle %.2g (price/hour / (tokens/s x duty cycle) x 1e6 / 3600)\n",
                        bullet, a->cost_at_operating, p->output_tps,
                        s->instance_type ? s->instance_type : "this instance", s->usd_per_hour,
                        s->duty_cycle > 0 ? s->duty_cycle : 1.0);
    else
        smfw_buf_printf(b,
                        "%sCost: give --instance-type or --price-per-hour for $ per 1M output "
                        "tokens\n",
                        bullet);
    if (a->autoscaling.valid) {
        const smfw_autoscaling *x = &a->autoscaling;
        smfw_buf_printf(b,
                        "%sAutoscaling: SageMakerVariantInvocationsPerInstance target %.0f "
                        "(%.1f in flight x 60 / %.2f s mean request = %.1f invocations per "
                        "minute per instance, %.0f%% headroom for scale-out time",
                        bullet, x->target, x->concurrency, x->mean_duration_s,
                        x->invocations_per_minute, x->headroom * 100);
        if (!isnan(a->measured_invocations_per_minute))
            smfw_buf_printf(b, "; measured %.1f per minute", a->measured_invocations_per_minute);
        smfw_buf_puts(b, ")\n");
    }
    smfw_buf_printf(b, "%sReminder: %s\n", bullet, PIN_REMINDER);
}

char *smfw_sweep_markdown(const smfw_run_set *s, const smfw_sweep_options *o,
                          const smfw_sweep_analysis *a) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_printf(&b, "# smfw sweep\n\n");
    if (s->dir) smfw_buf_printf(&b, "Folder: `%s`", s->dir);
    if (s->instance_type)
        smfw_buf_printf(&b, "%sInstance: %s", s->dir ? ", " : "", s->instance_type);
    smfw_buf_puts(&b, "\n\n");
    int sk = slo_knee_of(s, o), gp = sk != -3;
    smfw_buf_printf(&b,
                    "| %s | TTFT p50 (ms) | TTFT p95 (ms) | ITL p50 (ms) | E2E p95 (ms) | "
                    "Output tokens/s | Requests/s |%s Errors | $/1M tokens | Verdict |\n"
                    "|---:|---:|---:|---:|---:|---:|---:|%s---:|---:|---|\n",
                    is_rate(s) ? "Request rate" : "Concurrency",
                    gp ? " Goodput (requests/s) | Good % |" : "", gp ? "---:|---:|" : "");
    for (size_t i = 0; i < s->n; i++) {
        const smfw_sweep_point *p = &s->points[i];
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
            smfw_sweep_goodput_of(p, attainment_of(o), &g);
            cell(&b, g.goodput, "%.3g");
            cell(&b, g.fraction * 100, "%.1f");
        }
        smfw_buf_printf(&b, " %llu |", (unsigned long long)p->errors);
        cell(&b, p->cost_per_mtok, "%.3f");
        char m[128];
        marks(m, sizeof m, p, (int)i, a, sk);
        smfw_buf_printf(&b, " %s |\n", m);
    }
    smfw_buf_puts(&b, "\n");
    summary_lines(&b, s, o, a, "- ");
    return smfw_buf_take(&b);
}

static char *sweep_csv(const smfw_run_set *s, const smfw_sweep_options *o,
                       const smfw_sweep_analysis *a) {
    smfw_buf b;
    smfw_buf_init(&b);
    int sk = slo_knee_of(s, o), gp = sk != -3;
    smfw_buf_printf(
        &b,
        "%s,ttft_p50_ms,ttft_p95_ms,itl_p50_ms,e2e_avg_ms,e2e_p95_ms,output_tokens_"
        "per_s,requests_per_s,requests,errors,usd_per_1m_output_tokens,gain_per_"
        "doubling,verdict,knee,meets_slo%s\n",
        is_rate(s) ? "request_rate" : "concurrency",
        gp ? ",goodput,good_request_count,good_request_fraction,goodput_attained,slo_knee" : "");
    for (size_t i = 0; i < s->n; i++) {
        const smfw_sweep_point *p = &s->points[i];
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
            smfw_sweep_goodput_of(p, attainment_of(o), &g);
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

static json_t *jnum(double v) {
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *level_ref(const smfw_run_set *s, int i) {
    if (i < 0) return json_null();
    return json_pack("{s:i,s:f}", "index", i, "load", s->points[i].load);
}

static char *sweep_json(const smfw_run_set *s, const smfw_sweep_options *o,
                        const smfw_sweep_analysis *a) {
    json_t *root = json_object();
    json_object_set_new(root, "mode", json_string(s->mode ? s->mode : "concurrency"));
    if (s->instance_type) json_object_set_new(root, "instance_type", json_string(s->instance_type));
    if (s->usd_per_hour > 0) json_object_set_new(root, "usd_per_hour", json_real(s->usd_per_hour));
    json_object_set_new(root, "duty_cycle", json_real(s->duty_cycle > 0 ? s->duty_cycle : 1.0));
    json_object_set_new(root, "knee_gain_per_doubling",
                        json_real(o && o->knee_gain > 0 ? o->knee_gain : 0.10));
    json_t *slos = json_array();
    for (size_t i = 0; o && i < o->n_slos; i++) {
        char name[96], text[160];
        smfw_metric_ref_name(&o->slos[i].ref, name, sizeof name);
        snprintf(
            text, sizeof text, "%s%s%.17g", name,
            smfw_metric_ref_larger_is_better(&o->slos[i].ref) ? ">=" : "<=", o->slos[i].threshold);
        json_array_append_new(slos, json_string(text));
    }
    json_object_set_new(root, "slos", slos);
    json_object_set_new(root, "knee", level_ref(s, a->knee));
    json_object_set_new(root, "slo_best",
                        a->slo_best == -2 ? json_null() : level_ref(s, a->slo_best));
    json_t *op = level_ref(s, a->operating);
    if (json_is_object(op)) {
        json_object_set_new(op, "usd_per_1m_output_tokens", jnum(a->cost_at_operating));
    }
    json_object_set_new(root, "operating_point", op);
    int sk = slo_knee_of(s, o), gp = sk != -3;
    if (gp) {
        json_t *g = json_array();
        for (size_t i = 0; o && i < o->n_goodput_slos; i++) {
            char one[160];
            goodput_slo_text(one, sizeof one, &o->goodput_slos[i]);
            json_array_append_new(g, json_string(one));
        }
        json_object_set_new(root, "goodput_slos", g);
        json_object_set_new(root, "slo_attainment", json_real(attainment_of(o)));
        json_object_set_new(root, "slo_knee", level_ref(s, sk));
        json_object_set_new(root, "slo_knee_rule",
                            json_string("the highest level up to which every level has "
                                        "good_request_fraction >= slo_attainment and passed "
                                        "its validity gate"));
        const char *rel = knee_relation(a, sk);
        json_object_set_new(root, "slo_knee_vs_knee", rel ? json_string(rel) : json_null());
    }
    json_object_set_new(root, "operating_point_reason", json_string(a->operating_why));
    json_t *as = json_object();
    json_object_set_new(as, "metric", json_string("SageMakerVariantInvocationsPerInstance"));
    json_object_set_new(as, "valid", json_boolean(a->autoscaling.valid));
    if (a->autoscaling.valid) {
        json_object_set_new(as, "target", json_real(a->autoscaling.target));
        json_object_set_new(as, "invocations_per_minute",
                            json_real(a->autoscaling.invocations_per_minute));
        json_object_set_new(as, "concurrency", json_real(a->autoscaling.concurrency));
        json_object_set_new(as, "mean_request_duration_s",
                            json_real(a->autoscaling.mean_duration_s));
    }
    json_object_set_new(as, "headroom", json_real(a->autoscaling.headroom));
    json_object_set_new(as, "measured_invocations_per_minute",
                        jnum(a->measured_invocations_per_minute));
    json_object_set_new(as, "reminder", json_string(PIN_REMINDER));
    json_object_set_new(root, "autoscaling", as);
    json_t *levels = json_array();
    for (size_t i = 0; i < s->n; i++) {
        const smfw_sweep_point *p = &s->points[i];
        json_t *l = json_object();
        json_object_set_new(l, "load", json_real(p->load));
        if (p->results && p->results->info.source_dir) {
            const char *d = p->results->info.source_dir, *slash = strrchr(d, '/');
            json_object_set_new(l, "dir", json_string(slash ? slash + 1 : d));
        }
        json_object_set_new(l, "ttft_p50_ms", jnum(p->ttft_p50_ms));
        json_object_set_new(l, "ttft_p95_ms", jnum(p->ttft_p95_ms));
        json_object_set_new(l, "itl_p50_ms", jnum(p->itl_p50_ms));
        json_object_set_new(l, "e2e_avg_ms", jnum(p->e2e_avg_ms));
        json_object_set_new(l, "e2e_p95_ms", jnum(p->e2e_p95_ms));
        json_object_set_new(l, "output_tokens_per_s", jnum(p->output_tps));
        json_object_set_new(l, "requests_per_s", jnum(p->request_tps));
        json_object_set_new(l, "requests", json_integer((json_int_t)p->requests));
        json_object_set_new(l, "errors", json_integer((json_int_t)p->errors));
        json_object_set_new(l, "usd_per_1m_output_tokens", jnum(p->cost_per_mtok));
        json_object_set_new(l, "gain_per_doubling", jnum(p->gain_per_doubling));
        json_object_set_new(l, "verdict", json_string(smfw_sweep_verdict_name(p->verdict)));
        json_object_set_new(l, "meets_slo",
                            p->meets_slo < 0 ? json_null() : json_boolean(p->meets_slo));
        if (gp) {
            smfw_sweep_goodput g;
            smfw_sweep_goodput_of(p, attainment_of(o), &g);
            json_object_set_new(l, "goodput", g.present ? jnum(g.goodput) : json_null());
            json_object_set_new(l, "good_request_count",
                                g.present ? json_integer((json_int_t)g.good) : json_null());
            json_object_set_new(l, "good_request_fraction",
                                g.present ? jnum(g.fraction) : json_null());
            json_object_set_new(l, "goodput_attained", json_boolean(g.attains));
        }
        json_array_append_new(levels, l);
    }
    json_object_set_new(root, "levels", levels);
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    json_decref(root);
    return text;
}

static void html_escape(smfw_buf *b, const char *s) {
    for (; s && *s; s++) {
        if (*s == '<')
            smfw_buf_puts(b, "&lt;");
        else if (*s == '>')
            smfw_buf_puts(b, "&gt;");
        else if (*s == '&')
            smfw_buf_puts(b, "&amp;");
        else if (*s == '"')
            smfw_buf_puts(b, "&quot;");
        else
            smfw_buf_append(b, s, 1);
    }
}

/* Throughput (x) against TTFT p95 (y), one point per level in load order. */
static void svg_chart(smfw_buf *b, const smfw_run_set *s, const smfw_sweep_options *o,
                      const smfw_sweep_analysis *a) {
    const double W = 720, H = 420, L = 70, R = 20, T = 20, B = 50;
    int slo_knee = slo_knee_of(s, o);
    double xmax = 0, ymax = 0, slo_y = NAN;
    for (size_t i = 0; o && i < o->n_slos; i++)
        if (o->slos[i].ref.metric == SMFW_M_TIME_TO_FIRST_TOKEN &&
            o->slos[i].ref.stat == SMFW_STAT_REF_P95)
            slo_y = o->slos[i].threshold;
    for (size_t i = 0; i < s->n; i++) {
        if (s->points[i].output_tps > xmax) xmax = s->points[i].output_tps;
        if (s->points[i].ttft_p95_ms > ymax) ymax = s->points[i].ttft_p95_ms;
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
    for (size_t i = 0; i < s->n; i++)
        if (!isnan(s->points[i].output_tps) && !isnan(s->points[i].ttft_p95_ms))
            smfw_buf_printf(b, "%.1f,%.1f ", PX(s->points[i].output_tps),
                            PY(s->points[i].ttft_p95_ms));
    smfw_buf_puts(b, "\"/>\n");
    for (size_t i = 0; i < s->n; i++) {
        const smfw_sweep_point *p = &s->points[i];
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

static char *sweep_html(const smfw_run_set *s, const smfw_sweep_options *o,
                        const smfw_sweep_analysis *a) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                      "<title>smfw sweep</title><style>body{font-family:sans-serif;margin:2em}"
                      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px "
                      "8px;text-align:right}td.v{text-align:left}tr.knee{background:#fde}"
                      "tr.slo{background:#efe}</style></head><body>\n<h1>smfw sweep</h1>\n");
    if (s->instance_type) {
        smfw_buf_puts(&b, "<p>Instance: ");
        html_escape(&b, s->instance_type);
        smfw_buf_puts(&b, "</p>\n");
    }
    svg_chart(&b, s, o, a);
    int sk = slo_knee_of(s, o), gp = sk != -3;
    smfw_buf_printf(&b,
                    "<table><tr><th>%s</th><th>TTFT p50 (ms)</th><th>TTFT p95 (ms)</th><th>ITL "
                    "p50 (ms)</th><th>E2E p95 (ms)</th><th>Output tokens/s</th><th>Requests/s"
                    "</th>%s<th>Errors</th><th>$/1M tokens</th><th>Verdict</th></tr>\n",
                    is_rate(s) ? "Request rate" : "Concurrency",
                    gp ? "<th>Goodput (requests/s)</th><th>Good %</th>" : "");
    for (size_t i = 0; i < s->n; i++) {
        const smfw_sweep_point *p = &s->points[i];
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
                smfw_sweep_goodput_of(p, attainment_of(o), &g);
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
        marks(m, sizeof m, p, (int)i, a, sk);
        smfw_buf_printf(&b, "<td class=\"v\">%s</td></tr>\n", m);
    }
    smfw_buf_puts(&b, "</table>\n<ul>\n");
    smfw_buf lines;
    smfw_buf_init(&lines);
    summary_lines(&lines, s, o, a, "");
    char *text = smfw_buf_take(&lines);
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

static smfw_status write_file(const char *dir, const char *name, char *text, smfw_error *err) {
    if (!text) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory writing %s", name);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    int ok = fp && fputs(text, fp) != EOF;
    if (fp && fclose(fp) != 0) ok = 0;
    free(text);
    if (!ok) return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return SMFW_OK;
}

smfw_status smfw_sweep_write_reports(const smfw_run_set *s, const smfw_sweep_options *o,
                                     const smfw_sweep_analysis *a, const char *dir,
                                     smfw_error *err) {
    smfw_status st = write_file(dir, "sweep.json", sweep_json(s, o, a), err);
    if (st == SMFW_OK) st = write_file(dir, "sweep.md", smfw_sweep_markdown(s, o, a), err);
    if (st == SMFW_OK) st = write_file(dir, "sweep.csv", sweep_csv(s, o, a), err);
    if (st == SMFW_OK) st = write_file(dir, "sweep.html", sweep_html(s, o, a), err);
    return st;
}
