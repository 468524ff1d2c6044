/*
 * results_smfw_object.c - the "smfw" object of profile_export_aiperf.json:
 * run metadata AIPerf has no place for, smfw-only metrics and the client
 * self-check. Written by the JSON reporter, read back by the bundle loader.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "results_internal.h"

static void put_str(json_t *o, const char *k, const char *v) {
    if (v) json_object_set_new(o, k, json_string(v));
}

static json_t *stats_json(const smfw_stats *s, const char *unit) {
    json_t *o = json_object();
    json_object_set_new(o, "unit", json_string(unit));
    if (s->fields & SMFW_STAT_AVG) json_object_set_new(o, "avg", json_real(s->avg));
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++)
        if (s->fields & (SMFW_STAT_P_FIRST << i))
            json_object_set_new(o, smfw_percentile_keys[i], json_real(s->p[i]));
    if (s->fields & SMFW_STAT_MIN) json_object_set_new(o, "min", json_real(s->min));
    if (s->fields & SMFW_STAT_MAX) json_object_set_new(o, "max", json_real(s->max));
    if (s->fields & SMFW_STAT_STD) json_object_set_new(o, "std", json_real(s->std));
    if (s->fields & SMFW_STAT_SUM) json_object_set_new(o, "sum", json_real(s->sum));
    if (s->fields & SMFW_STAT_COUNT)
        json_object_set_new(o, "count", json_integer((json_int_t)s->count));
    return o;
}

json_t *smfw_results_smfw_object(const smfw_results *r) {
    const smfw_run_info *i = &r->info;
    json_t *o = json_object();
    if (!o) return NULL;
    put_str(o, "smfw_version", i->smfw_version ? i->smfw_version : SMFW_VERSION_STRING);
    put_str(o, "run_name", i->run_name);
    put_str(o, "backend", i->backend);
    put_str(o, "target", i->target);
    put_str(o, "endpoint_name", i->endpoint_name);
    put_str(o, "inference_component", i->inference_component);
    put_str(o, "url", i->url);
    put_str(o, "region", i->region);
    put_str(o, "model", i->model);
    put_str(o, "endpoint_type", i->endpoint_type);
    json_object_set_new(o, "streaming", json_boolean(i->streaming));
    put_str(o, "job_name", i->job_name);
    put_str(o, "shard", i->shard);
    if (i->concurrency) json_object_set_new(o, "concurrency", json_integer(i->concurrency));
    if (i->request_rate > 0) json_object_set_new(o, "request_rate", json_real(i->request_rate));
    if (i->request_count_target)
        json_object_set_new(o, "request_count_target", json_integer(i->request_count_target));
    if (i->dataset_name || i->dataset_file) {
        json_t *d = json_object();
        put_str(d, "name", i->dataset_name);
        put_str(d, "file", i->dataset_file);
        put_str(d, "sha256", i->dataset_sha256);
        if (i->dataset_count >= 0) json_object_set_new(d, "count", json_integer(i->dataset_count));
        put_str(d, "token_lengths", i->dataset_token_lengths);
        json_object_set_new(o, "dataset", d);
    }
    put_str(o, "token_count_source", i->token_count_source);
    json_t *v = json_object();
    json_object_set_new(v, "max_error_rate", json_real(i->max_error_rate));
    json_object_set_new(v, "error_rate", json_real(smfw_results_error_rate(r)));
    json_object_set_new(v, "gate_tripped", json_boolean(i->gate_tripped));
    put_str(v, "failure_reason", i->failure_reason);
    json_object_set_new(o, "validity", v);
    json_t *m = json_object();
    for (int id = 0; id < SMFW_M_COUNT_; id++) {
        const smfw_metric_info *mi = smfw_metric_get((smfw_metric_id)id);
        if (mi->smfw_only && r->stats[id].present)
            json_object_set_new(m, mi->tag, stats_json(&r->stats[id], mi->display_unit));
    }
    if (json_object_size(m))
        json_object_set_new(o, "metrics", m);
    else
        json_decref(m);
    json_t *sessions = smfw_session_stats_json(r);
    if (sessions) json_object_set_new(o, "sessions", sessions);
    /* A copy: the caller owns the whole object, the cached parse stays the results'. */
    json_t *c = smfw_results_client(r);
    if (json_is_object(c) || json_is_array(c)) json_object_set_new(o, "client", json_deep_copy(c));
    return o;
}

char *smfw_results_smfw_object_json(const smfw_results *r, int indent) {
    json_t *o = smfw_results_smfw_object(r);
    if (!o) return NULL;
    size_t flags = JSON_REAL_PRECISION(17) | (indent > 0 ? JSON_INDENT(indent) : JSON_COMPACT);
    char *text = json_dumps(o, flags);
    json_decref(o);
    return text;
}

static void get_str(json_t *o, const char *k, char **field) {
    json_t *v = json_object_get(o, k);
    if (json_is_string(v)) smfw_results_set_string(field, json_string_value(v));
}

smfw_status smfw_results_apply_smfw_object(smfw_results *r, const char *text, smfw_error *err) {
    json_error_t je;
    json_t *o = json_loads(text, 0, &je);
    if (!json_is_object(o)) {
        json_decref(o);
        return smfw_error_set(err, SMFW_ERR_PROTOCOL, "invalid smfw object: %s", je.text);
    }
    smfw_run_info *i = &r->info;
    get_str(o, "smfw_version", &i->smfw_version);
    get_str(o, "run_name", &i->run_name);
    get_str(o, "backend", &i->backend);
    get_str(o, "target", &i->target);
    get_str(o, "endpoint_name", &i->endpoint_name);
    get_str(o, "inference_component", &i->inference_component);
    get_str(o, "url", &i->url);
    get_str(o, "region", &i->region);
    get_str(o, "model", &i->model);
    get_str(o, "endpoint_type", &i->endpoint_type);
    i->streaming = json_is_true(json_object_get(o, "streaming"));
    get_str(o, "job_name", &i->job_name);
    get_str(o, "shard", &i->shard);
    json_t *x;
    if (json_is_integer(x = json_object_get(o, "concurrency")))
        i->concurrency = json_integer_value(x);
    if (json_is_number(x = json_object_get(o, "request_rate")))
        i->request_rate = json_number_value(x);
    if (json_is_integer(x = json_object_get(o, "request_count_target")))
        i->request_count_target = json_integer_value(x);
    json_t *d = json_object_get(o, "dataset");
    if (json_is_object(d)) {
        get_str(d, "name", &i->dataset_name);
        get_str(d, "file", &i->dataset_file);
        get_str(d, "sha256", &i->dataset_sha256);
        if (json_is_integer(x = json_object_get(d, "count")))
            i->dataset_count = json_integer_value(x);
        get_str(d, "token_lengths", &i->dataset_token_lengths);
    }
    get_str(o, "token_count_source", &i->token_count_source);
    json_t *v = json_object_get(o, "validity");
    if (json_is_object(v)) {
        if (json_is_number(x = json_object_get(v, "max_error_rate")))
            i->max_error_rate = json_number_value(x);
        i->gate_tripped = json_is_true(json_object_get(v, "gate_tripped"));
        get_str(v, "failure_reason", &i->failure_reason);
    }
    json_t *m = json_object_get(o, "metrics");
    const char *tag;
    json_t *obj;
    if (json_is_object(m)) json_object_foreach(m, tag, obj) {
            int id = smfw_metric_find(tag);
            if (id < 0 || !json_is_object(obj)) continue;
            smfw_stats_read_json(obj, &r->stats[id]);
        }
    json_t *c = json_object_get(o, "client");
    if (c) {
        free(i->smfw_json);
        i->smfw_json = json_dumps(c, JSON_COMPACT | JSON_REAL_PRECISION(17));
    }
    json_decref(o);
    return SMFW_OK;
}
