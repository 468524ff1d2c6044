/*
 * json_sweep.c - sweep.json: an analysed sweep for programs - the options, the
 * knee, the SLO level and knee, the operating point with its cost, the
 * autoscaling target and every level's numbers and verdict. `smfw sweep
 * --from` and `smfw autoscaling plan` read it back (instance type, price).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/run_set.h>

#include "../reporter-common/rpt.h"
#include "json_sweep.h"

static json_t *jnum(double v) {
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *level_ref(const smfw_run_set *s, int i) {
    if (i < 0) return json_null();
    return json_pack("{s:i,s:f}", "index", i, "load", smfw_run_set_point(s, (size_t)i)->load);
}

static char *sweep_json(const smfw_run_set *s) {
    const smfw_sweep_options *o = smfw_run_set_options(s);
    const smfw_sweep_analysis *a = smfw_run_set_analysis(s);
    const char *mode = smfw_run_set_mode(s), *instance = smfw_run_set_instance_type(s);
    json_t *root = json_object();
    json_object_set_new(root, "mode", json_string(mode ? mode : "concurrency"));
    if (instance) json_object_set_new(root, "instance_type", json_string(instance));
    if (smfw_run_set_usd_per_hour(s) > 0)
        json_object_set_new(root, "usd_per_hour", json_real(smfw_run_set_usd_per_hour(s)));
    json_object_set_new(root, "duty_cycle", json_real(smfw_run_set_duty_cycle(s)));
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
    int sk = smfw_run_set_slo_knee(s), gp = sk != -3;
    if (gp) {
        json_t *g = json_array();
        for (size_t i = 0; o && i < o->n_goodput_slos; i++) {
            char one[160];
            smfw_goodput_slo_text(&o->goodput_slos[i], one, sizeof one);
            json_array_append_new(g, json_string(one));
        }
        json_object_set_new(root, "goodput_slos", g);
        json_object_set_new(root, "slo_attainment", json_real(smfw_run_set_slo_attainment(s)));
        json_object_set_new(root, "slo_knee", level_ref(s, sk));
        json_object_set_new(root, "slo_knee_rule",
                            json_string("the highest level up to which every level has "
                                        "good_request_fraction >= slo_attainment and passed "
                                        "its validity gate"));
        const char *rel = smfw_run_set_slo_knee_relation(s);
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
    json_object_set_new(as, "reminder", json_string(SMFW_AUTOSCALING_PIN_REMINDER));
    json_object_set_new(root, "autoscaling", as);
    json_t *levels = json_array();
    for (size_t i = 0; i < smfw_run_set_count(s); i++) {
        const smfw_sweep_point *p = smfw_run_set_point(s, i);
        json_t *l = json_object();
        json_object_set_new(l, "load", json_real(p->load));
        const smfw_run_info *info = p->results ? smfw_results_info(p->results) : NULL;
        if (info && info->source_dir) {
            const char *d = info->source_dir, *slash = strrchr(d, '/');
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
            smfw_sweep_goodput_of(p, smfw_run_set_slo_attainment(s), &g);
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

smfw_status json_sweep_write(void *ctx, const smfw_run_set *set, const char *dir, smfw_error *err) {
    (void)ctx;
    char *text = sweep_json(set);
    if (!text) return rpt_nomem(dir, "sweep.json", err);
    smfw_status st = rpt_write_file(dir, "sweep.json", text, strlen(text), err);
    free(text);
    return st;
}
