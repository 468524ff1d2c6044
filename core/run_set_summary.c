/*
 * run_set_summary.c - an analysed run set in words: the knee, the SLO level,
 * the SLO knee, the operating point, its cost and autoscaling target, and the
 * marks of each level. Every sweep report (the reporters' write_set, the
 * console) says the decision with these sentences, so they never drift apart.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/buf.h>
#include <smfw/capacity.h>

const smfw_sweep_options *smfw_run_set_options(const smfw_run_set *s) {
    return s && s->analyzed ? &s->opts : NULL;
}

const smfw_sweep_analysis *smfw_run_set_analysis(const smfw_run_set *s) {
    return s && s->analyzed ? &s->analysis : NULL;
}

double smfw_run_set_usd_per_hour(const smfw_run_set *s) {
    return s ? s->usd_per_hour : 0;
}

double smfw_run_set_duty_cycle(const smfw_run_set *s) {
    return s && s->duty_cycle > 0 ? s->duty_cycle : 1.0;
}

int smfw_run_set_is_rate(const smfw_run_set *s) {
    return s && s->mode && strcmp(s->mode, "request_rate") == 0;
}

double smfw_run_set_slo_attainment(const smfw_run_set *s) {
    const smfw_sweep_options *o = smfw_run_set_options(s);
    return o && o->slo_attainment > 0 ? o->slo_attainment : SMFW_SWEEP_SLO_ATTAINMENT;
}

/* Goodput columns and the SLO knee appear when a level carries goodput or goodput SLOs
 * were given: a sweep without them reads exactly as before. */
static int shows_goodput(const smfw_run_set *s) {
    const smfw_sweep_options *o = smfw_run_set_options(s);
    if (o && o->n_goodput_slos) return 1;
    for (size_t i = 0; i < s->n; i++) {
        smfw_sweep_goodput g;
        smfw_sweep_goodput_of(&s->points[i], smfw_run_set_slo_attainment(s), &g);
        if (g.present) return 1;
    }
    return 0;
}

int smfw_run_set_slo_knee(const smfw_run_set *s) {
    if (!s || !shows_goodput(s)) return -3;
    return smfw_sweep_slo_knee(s->points, s->n, smfw_run_set_slo_attainment(s));
}

void smfw_goodput_slo_text(const smfw_goodput_slo *g, char *buf, size_t size) {
    const smfw_metric_info *info = smfw_metric_get(g->metric);
    snprintf(buf, size, "%s:%.15g", info ? info->tag : "?", g->threshold);
}

const char *smfw_run_set_slo_knee_relation(const smfw_run_set *s) {
    const smfw_sweep_analysis *a = smfw_run_set_analysis(s);
    int slo_knee = smfw_run_set_slo_knee(s);
    if (!a || slo_knee < 0) return NULL;
    if (a->knee < 0) return "the throughput knee is not reached: the SLOs bind first";
    if (slo_knee < a->knee) return "below the throughput knee: the SLOs bind first";
    if (slo_knee == a->knee) return "the same level as the throughput knee";
    return "above the throughput knee: throughput stops paying before the SLOs bind";
}

void smfw_run_set_level_marks(const smfw_run_set *s, size_t i, char *buf, size_t size) {
    const smfw_sweep_analysis *a = smfw_run_set_analysis(s);
    if (!a || i >= s->n) {
        snprintf(buf, size, "%s", "unknown");
        return;
    }
    int slo_knee = smfw_run_set_slo_knee(s), k = (int)i;
    snprintf(buf, size, "%s%s%s%s", smfw_sweep_verdict_name(s->points[i].verdict),
             a->slo_best == k ? ", highest within SLO" : "", slo_knee == k ? ", SLO knee" : "",
             a->operating == k && a->operating != a->knee ? ", recommended" : "");
}

static void slo_knee_line(smfw_buf *b, const smfw_run_set *s, const smfw_sweep_options *o,
                          const smfw_sweep_analysis *a, const char *bullet) {
    int sk = smfw_run_set_slo_knee(s);
    if (sk == -3) return;
    const char *unit = smfw_run_set_is_rate(s) ? " requests/s" : "";
    const char *what = smfw_run_set_is_rate(s) ? "request rate" : "concurrency";
    double att = smfw_run_set_slo_attainment(s);
    smfw_buf slos;
    smfw_buf_init(&slos);
    for (size_t i = 0; o && i < o->n_goodput_slos; i++) {
        char one[160];
        smfw_goodput_slo_text(&o->goodput_slos[i], one, sizeof one);
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
                        g.fraction * 100, g.goodput, smfw_run_set_slo_knee_relation(s));
        if (a->knee >= 0 && a->knee != sk) smfw_buf_printf(b, " (%g)", s->points[a->knee].load);
        if ((size_t)sk + 1 == s->n)
            smfw_buf_puts(b, "; every level tested attains, so it may lie above the sweep");
        smfw_buf_puts(b, "\n");
    }
    free(text);
}

static void summary_lines(smfw_buf *b, const smfw_run_set *s, const smfw_sweep_options *o,
                          const smfw_sweep_analysis *a, const char *bullet) {
    const char *unit = smfw_run_set_is_rate(s) ? " requests/s" : "";
    const char *what = smfw_run_set_is_rate(s) ? "request rate" : "concurrency";
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
    smfw_buf_printf(b, "%sReminder: %s\n", bullet, SMFW_AUTOSCALING_PIN_REMINDER);
}

char *smfw_run_set_summary(const smfw_run_set *s, const char *bullet) {
    const smfw_sweep_analysis *a = smfw_run_set_analysis(s);
    if (!a) return NULL;
    smfw_buf b;
    smfw_buf_init(&b);
    summary_lines(&b, s, smfw_run_set_options(s), a, bullet ? bullet : "");
    return smfw_buf_take(&b);
}
