/*
 * autoscaling_plan.c - the target-tracking policy a benchmark folder asks for:
 * the operating level (the knee of a sweep, or a run's own level), Little's law
 * for the invocations one instance completes per minute there, headroom for
 * the minutes a scale-out takes, and the PutScalingPolicy request carrying it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/run_set.h>

#include "autoscaling.h"

smfw_status aas_target_set(aas_target *t, const char *endpoint, const char *variant, const char *ic,
                           smfw_error *err) {
    memset(t, 0, sizeof *t);
    int n;
    if (ic && *ic) {
        n = snprintf(t->resource_id, sizeof t->resource_id, "inference-component/%s", ic);
        t->dimension = "sagemaker:inference-component:DesiredCopyCount";
        t->metric = "SageMakerInferenceComponentInvocationsPerCopy";
        t->unit = "copy";
        t->component = 1;
        snprintf(t->name, sizeof t->name, "%s", ic);
    } else if (endpoint && *endpoint) {
        n = snprintf(t->resource_id, sizeof t->resource_id, "endpoint/%s/variant/%s", endpoint,
                     variant && *variant ? variant : "AllTraffic");
        t->dimension = "sagemaker:variant:DesiredInstanceCount";
        t->metric = "SageMakerVariantInvocationsPerInstance";
        t->unit = "instance";
        snprintf(t->name, sizeof t->name, "%s", endpoint);
        snprintf(t->variant, sizeof t->variant, "%s", variant && *variant ? variant : "AllTraffic");
    } else {
        return smfw_error_set(err, SMFW_ERR_USAGE,
                              "name the scalable target: --endpoint NAME [--variant V] or "
                              "--inference-component NAME");
    }
    if (n < 0 || (size_t)n >= sizeof t->resource_id)
        return smfw_error_set(err, SMFW_ERR_USAGE, "the endpoint or component name is too long");
    return SMFW_OK;
}

static int is_run_dir(const char *dir) {
    char probe[4200];
    struct stat st;
    snprintf(probe, sizeof probe, "%s/profile_export.jsonl", dir);
    if (stat(probe, &st) == 0) return 1;
    snprintf(probe, sizeof probe, "%s/profile_export_aiperf.json", dir);
    return stat(probe, &st) == 0;
}

static void copy_name(char *dst, size_t size, const char *src) {
    snprintf(dst, size, "%s", src ? src : "");
}

/* The numbers of the operating level, per instance. */
static smfw_status finish(const smfw_sweep_point *p, int load_is_rate, double headroom,
                          double instances, const char *dir, aas_plan *out, smfw_error *err) {
    double dur_s = p->e2e_avg_ms / 1000.0;
    /* A rate level's concurrency is what Little's law says was in flight. */
    double in_flight = load_is_rate ? p->request_tps * dur_s : p->load;
    out->load = p->load;
    out->load_is_rate = load_is_rate;
    out->instances = instances;
    smfw_autoscaling as;
    smfw_autoscaling_compute(in_flight / instances, dur_s, headroom, &as);
    out->concurrency = as.concurrency;
    out->mean_duration_s = as.mean_duration_s;
    out->invocations_per_minute = as.invocations_per_minute;
    out->headroom = as.headroom;
    out->target = as.target;
    out->measured_per_minute = p->request_tps > 0 ? p->request_tps * 60.0 / instances : NAN;
    if (!as.valid)
        return smfw_error_set(err, SMFW_ERR_USAGE,
                              "%s: the level at %s %g has no mean request latency, so no target "
                              "follows",
                              dir, load_is_rate ? "request rate" : "concurrency", p->load);
    return SMFW_OK;
}

smfw_status aas_plan_from_dir(const char *dir, double headroom, double instances, aas_plan *out,
                              smfw_error *err) {
    memset(out, 0, sizeof *out);
    if (!(instances >= 1)) instances = 1;
    smfw_status st;
    if (is_run_dir(dir)) {
        smfw_results *r = smfw_results_new();
        if (!r) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        st = smfw_results_load_dir(r, dir, err);
        if (st == SMFW_OK) {
            int rate =
                smfw_results_info(r)->concurrency <= 0 && smfw_results_info(r)->request_rate > 0;
            double load = rate ? smfw_results_info(r)->request_rate
                               : (double)smfw_results_info(r)->concurrency;
            if (!(load > 0)) {
                st = smfw_error_set(err, SMFW_ERR_USAGE,
                                    "%s does not record its concurrency or request rate", dir);
            } else {
                smfw_sweep_point p;
                smfw_sweep_point_from_results(r, load, &p);
                snprintf(out->why, sizeof out->why,
                         "the run's own level (one run: its knee is unknown; a sweep finds it)");
                copy_name(out->endpoint, sizeof out->endpoint, smfw_results_info(r)->endpoint_name);
                copy_name(out->inference_component, sizeof out->inference_component,
                          smfw_results_info(r)->inference_component);
                st = finish(&p, rate, headroom, instances, dir, out, err);
            }
        }
        smfw_results_free(r);
        return st;
    }
    smfw_run_set *s = NULL;
    if ((st = smfw_run_set_load_dir(dir, &s, err)) != SMFW_OK) return st;
    smfw_sweep_options o;
    memset(&o, 0, sizeof o);
    o.headroom = headroom > 0 ? headroom : -1; /* -1: none at all */
    o.load_is_rate = smfw_run_set_is_rate(s);
    if (smfw_run_set_results(s, 0))
        o.max_error_rate = smfw_results_info(smfw_run_set_results(s, 0))->max_error_rate;
    smfw_sweep_analysis a;
    st = smfw_run_set_analyze(s, &o, &a, err);
    if (st == SMFW_OK && a.operating < 0)
        st = smfw_error_set(err, SMFW_ERR_USAGE, "%s: %s", dir, a.operating_why);
    if (st == SMFW_OK) {
        const smfw_sweep_point *p = smfw_run_set_point(s, (size_t)a.operating);
        snprintf(out->why, sizeof out->why, "%s", a.operating_why);
        if (p->results) {
            copy_name(out->endpoint, sizeof out->endpoint,
                      smfw_results_info(p->results)->endpoint_name);
            copy_name(out->inference_component, sizeof out->inference_component,
                      smfw_results_info(p->results)->inference_component);
        }
        st = finish(p, o.load_is_rate, headroom, instances, dir, out, err);
    }
    smfw_run_set_free(s);
    return st;
}

json_t *aas_policy_request(const aas_target *t, const char *policy_name, const aas_plan *plan,
                           int64_t scale_out_cooldown_s, int64_t scale_in_cooldown_s) {
    json_t *cfg = json_pack("{s:f,s:{s:s},s:I,s:I}", "TargetValue", plan->target,
                            "PredefinedMetricSpecification", "PredefinedMetricType", t->metric,
                            "ScaleOutCooldown", (json_int_t)scale_out_cooldown_s, "ScaleInCooldown",
                            (json_int_t)scale_in_cooldown_s);
    return json_pack("{s:s,s:s,s:s,s:s,s:s,s:o}", "PolicyName", policy_name, "ServiceNamespace",
                     "sagemaker", "ResourceId", t->resource_id, "ScalableDimension", t->dimension,
                     "PolicyType", "TargetTrackingScaling",
                     "TargetTrackingScalingPolicyConfiguration", cfg);
}

json_t *aas_policy_request_from_described(const json_t *policy) {
    /* PutScalingPolicyRequest's members; the rest (ARN, Alarms, CreationTime) are outputs. */
    static const char *const keys[] = {"PolicyName",
                                       "ServiceNamespace",
                                       "ResourceId",
                                       "ScalableDimension",
                                       "PolicyType",
                                       "StepScalingPolicyConfiguration",
                                       "TargetTrackingScalingPolicyConfiguration",
                                       "PredictiveScalingPolicyConfiguration"};
    json_t *req = json_object();
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = json_object_get(policy, keys[i]);
        if (v) json_object_set_new(req, keys[i], json_deep_copy(v));
    }
    return req;
}

/* Flatten leaves as "A.B" = compact JSON text, then compare key by key. */
static void flatten(const json_t *v, const char *prefix, json_t *into) {
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            char path[512];
            snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", k);
            flatten(x, path, into);
        }
        return;
    }
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    json_object_set_new(into, prefix, json_string(text ? text : "?"));
    free(text);
}

int aas_print_changes(FILE *out, const json_t *before, const json_t *after) {
    json_t *a = json_object(), *b = json_object();
    if (before) flatten(before, "", a);
    if (after) flatten(after, "", b);
    int n = 0;
    const char *k;
    json_t *v;
    json_object_foreach(b, k, v) {
        const char *old = json_string_value(json_object_get(a, k));
        if (old && strcmp(old, json_string_value(v)) == 0) continue;
        fprintf(out, "  %s: %s -> %s\n", k, old ? old : "(none)", json_string_value(v));
        n++;
    }
    json_object_foreach(a, k, v) {
        if (json_object_get(b, k)) continue;
        fprintf(out, "  %s: %s -> (none)\n", k, json_string_value(v));
        n++;
    }
    json_decref(a);
    json_decref(b);
    return n;
}
