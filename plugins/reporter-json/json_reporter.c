/*
 * json_reporter.c - the "json" reporter: profile_export_aiperf.json in
 * AIPerf's schema (aiperf-compat.md §4.2), so every tool that reads AIPerf's
 * summary reads smfw's. Key order, omission rules and number spelling follow
 * AIPerf (Python's json.dumps(indent=2), repr floats, no trailing newline).
 * smfw's own facts (backend, target, token-count source, validity, error
 * classes, schedule-lag statistics...) go into one "smfw" object at the end,
 * which AIPerf readers ignore.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <smfw/log.h>
#include <smfw/plugin.h>
#include <smfw/reporter.h>
#include <smfw/results.h>

#include "../reporter-common/rpt.h"
#include "json_sweep.h"

#define JSON_REPORTER_FILE "profile_export_aiperf.json"

/* AIPerf's "GenAI-Perf compatible" metrics, in the fixed order of §4.2. */
static const char *const json_reporter_genai_order[] = {
    "request_throughput",
    "request_latency",
    "request_count",
    "time_to_first_token",
    "time_to_second_token",
    "inter_token_latency",
    "output_token_throughput",
    "output_token_throughput_per_user",
    "output_sequence_length",
    "input_sequence_length",
    "goodput",
    "good_request_count",
    "output_token_count",
    "reasoning_token_count",
    "min_request_timestamp",
    "max_response_timestamp",
    "inter_chunk_latency",
    "total_output_tokens",
    "total_reasoning_tokens",
    "benchmark_duration",
    "total_isl",
    "total_osl",
    "error_request_count",
    "error_isl",
    "total_error_isl",
};
#define JSON_REPORTER_GENAI_COUNT                                                                  \
    (sizeof json_reporter_genai_order / sizeof json_reporter_genai_order[0])

typedef struct json_reporter {
    int count_sum; /* write AIPerf 0.8+'s count/sum when the statistics have them */
} json_reporter;

static int json_reporter_in_genai(const char *tag) {
    for (size_t i = 0; i < JSON_REPORTER_GENAI_COUNT; i++)
        if (strcmp(json_reporter_genai_order[i], tag) == 0) return 1;
    return 0;
}

/* jansson refuses non-finite reals; those become null. */
static json_t *json_reporter_real(double v) {
    json_t *j = json_real(v);
    return j ? j : json_null();
}

/* A string that may not be valid UTF-8 (the dumper replaces bad bytes). */
static json_t *json_reporter_str(const char *s) {
    return json_stringn_nocheck(s, strlen(s));
}

/* { unit, avg, p1..p99, min, max, std [, count, sum] } or { unit, avg }. */
static json_t *json_reporter_metric(const rpt_metric *m, int count_sum) {
    const smfw_stats *s = m->stats;
    json_t *o = json_object();
    if (!o) return NULL;
    json_object_set_new(o, "unit", json_reporter_str(m->unit));
    if (s->fields & SMFW_STAT_AVG) json_object_set_new(o, "avg", json_reporter_real(s->avg));
    if (!m->distribution) return o;
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++)
        if (s->fields & (SMFW_STAT_P_FIRST << i))
            json_object_set_new(o, smfw_percentile_keys[i], json_reporter_real(s->p[i]));
    if (s->fields & SMFW_STAT_MIN) json_object_set_new(o, "min", json_reporter_real(s->min));
    if (s->fields & SMFW_STAT_MAX) json_object_set_new(o, "max", json_reporter_real(s->max));
    if (s->fields & SMFW_STAT_STD) json_object_set_new(o, "std", json_reporter_real(s->std));
    if (count_sum) {
        if (s->fields & SMFW_STAT_COUNT)
            json_object_set_new(o, "count", json_integer((json_int_t)s->count));
        if (s->fields & SMFW_STAT_SUM) json_object_set_new(o, "sum", json_reporter_real(s->sum));
    }
    return o;
}

/* The run's input_config, or a 0.5.0-shaped one from the run info for runs that have none. */
static json_t *json_reporter_input_config(const smfw_results *r) {
    const smfw_run_info *info = smfw_results_info(r);
    /* Borrowed, so shared and never modified; text that is not JSON was logged by the core. */
    json_t *parsed = smfw_results_input_config(r);
    if (parsed) return json_incref(parsed);
    json_t *cfg = json_object();
    json_t *endpoint = json_object();
    if (info->model) {
        json_t *names = json_array();
        json_array_append_new(names, json_reporter_str(info->model));
        json_object_set_new(endpoint, "model_names", names);
    }
    if (info->endpoint_type)
        json_object_set_new(endpoint, "type", json_reporter_str(info->endpoint_type));
    json_object_set_new(endpoint, "streaming", json_boolean(info->streaming));
    if (info->url)
        json_object_set_new(endpoint, "url", json_reporter_str(info->url));
    else if (info->endpoint_name)
        json_object_set_new(endpoint, "url", json_reporter_str(info->endpoint_name));
    json_object_set_new(cfg, "endpoint", endpoint);
    json_t *loadgen = json_object();
    if (info->concurrency > 0)
        json_object_set_new(loadgen, "concurrency", json_integer(info->concurrency));
    if (info->request_rate > 0)
        json_object_set_new(loadgen, "request_rate", json_reporter_real(info->request_rate));
    if (info->request_count_target > 0)
        json_object_set_new(loadgen, "request_count", json_integer(info->request_count_target));
    if (json_object_size(loadgen))
        json_object_set_new(cfg, "loadgen", loadgen);
    else
        json_decref(loadgen);
    return cfg;
}

static json_t *json_reporter_error_summary(const smfw_results *r) {
    json_t *list = json_array();
    for (size_t i = 0; i < smfw_results_error_summary_count(r); i++) {
        const smfw_error_summary_entry *e = smfw_results_error_summary(r, i);
        json_t *details = json_object();
        if (e->has_code) json_object_set_new(details, "code", json_integer(e->code));
        if (e->type) json_object_set_new(details, "type", json_reporter_str(e->type));
        json_object_set_new(details, "message", json_reporter_str(e->message ? e->message : ""));
        json_t *entry = json_object();
        json_object_set_new(entry, "error_details", details);
        json_object_set_new(entry, "count", json_integer((json_int_t)e->count));
        json_array_append_new(list, entry);
    }
    return list;
}

static void json_reporter_set_str(json_t *o, const char *key, const char *value) {
    if (value) json_object_set_new(o, key, json_reporter_str(value));
}

/*
 * smfw's extras: the core's "smfw" object (run metadata, validity, smfw-only
 * metric statistics, the client self-check; read back by the bundle loader),
 * plus the failed requests per error class for readers of this file.
 */
static json_t *json_reporter_smfw_object(const smfw_results *r) {
    json_t *o = smfw_results_smfw_object(r);
    if (!o) {
        SMFW_LOG_WARN("json", "smfw run metadata could not be built; writing a minimal object");
        o = json_object();
        json_reporter_set_str(o, "smfw_version", smfw_version());
    }
    uint64_t by_class[SMFW_ERRCLASS_COUNT_] = {0};
    for (size_t i = 0; i < smfw_results_error_summary_count(r); i++) {
        const smfw_error_summary_entry *e = smfw_results_error_summary(r, i);
        int c = (int)e->error_class;
        if (c <= SMFW_ERRCLASS_NONE || c >= SMFW_ERRCLASS_COUNT_) c = SMFW_ERRCLASS_OTHER;
        by_class[c] += e->count;
    }
    json_t *classes = json_object();
    for (int c = 0; c < SMFW_ERRCLASS_COUNT_; c++)
        if (by_class[c])
            json_object_set_new(classes, smfw_error_class_name((smfw_error_class)c),
                                json_integer((json_int_t)by_class[c]));
    json_object_set_new(o, "errors_by_class", classes);
    return o;
}

/* Build the whole document (exposed to the unit test through #include). */
static smfw_status json_reporter_render(const smfw_results *r, int count_sum, smfw_buf *out,
                                        smfw_error *err) {
    rpt_metric *m = NULL;
    size_t n = rpt_metrics_collect(r, &m);
    if (n == (size_t)-1) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    const smfw_run_info *info = smfw_results_info(r);
    json_t *root = json_object();
    char aiperf_version[96];
    snprintf(aiperf_version, sizeof aiperf_version, "smfw-%s (aiperf-0.5.0 compatible)",
             smfw_version());

    json_object_set_new(root, "schema_version",
                        json_reporter_str(info->schema_version ? info->schema_version : "1.0"));
    json_object_set_new(
        root, "aiperf_version",
        json_reporter_str(info->aiperf_version ? info->aiperf_version : aiperf_version));
    json_reporter_set_str(root, "benchmark_id", info->benchmark_id);
    for (size_t g = 0; g < JSON_REPORTER_GENAI_COUNT; g++) {
        const rpt_metric *e = rpt_metrics_find(m, n, json_reporter_genai_order[g]);
        if (e && !e->smfw_only)
            json_object_set_new(root, e->tag, json_reporter_metric(e, count_sum));
    }
    json_object_set_new(root, "input_config", json_reporter_input_config(r));
    json_object_set_new(root, "was_cancelled", json_boolean(info->was_cancelled));
    json_object_set_new(root, "error_summary", json_reporter_error_summary(r));
    char when[64];
    if (info->start_wall_ns > 0) {
        rpt_iso_local(info->start_wall_ns, when);
        json_object_set_new(root, "start_time", json_string(when));
    }
    if (info->end_wall_ns > 0) {
        rpt_iso_local(info->end_wall_ns, when);
        json_object_set_new(root, "end_time", json_string(when));
    }
    for (size_t i = 0; i < n; i++) {
        if (m[i].smfw_only || json_reporter_in_genai(m[i].tag)) continue;
        if (json_object_get(root, m[i].tag)) continue; /* an extra shadowing a known tag */
        json_object_set_new(root, m[i].tag, json_reporter_metric(&m[i], count_sum));
    }
    json_object_set_new(root, "smfw", json_reporter_smfw_object(r));
    free(m);

    rpt_json_dump(out, root, 2);
    json_decref(root);
    if (out->failed) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    return SMFW_OK;
}

/* [reporter.json], bound by declaration (the defaults live in its declarations). */
static const smfw_setting_binding json_bindings[] = {
    {NULL, "count_sum", SMFW_BIND_BOOL, offsetof(json_reporter, count_sum), 0}, SMFW_BINDINGS_END};

static smfw_status json_reporter_create(const smfw_settings *settings, void **ctx,
                                        smfw_error *err) {
    json_reporter *self = calloc(1, sizeof *self);
    if (!self) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st = smfw_settings_bind(settings, json_bindings, self, err);
    if (st != SMFW_OK) {
        free(self);
        return st;
    }
    *ctx = self;
    return SMFW_OK;
}

static smfw_status json_reporter_write(void *ctx, const smfw_results *results,
                                       const char *output_dir, smfw_error *err) {
    json_reporter *self = ctx;
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_status st = json_reporter_render(results, self->count_sum, &b, err);
    if (st == SMFW_OK)
        st = rpt_write_file(output_dir, JSON_REPORTER_FILE, b.data, b.len, err);
    else
        smfw_error_prefix(err, "cannot write %s/%s", output_dir, JSON_REPORTER_FILE);
    smfw_buf_free(&b);
    if (st == SMFW_OK) SMFW_LOG_DEBUG("json", "wrote %s/%s", output_dir, JSON_REPORTER_FILE);
    return st;
}

static void json_reporter_destroy(void *ctx) {
    free(ctx);
}

static const smfw_setting_decl json_reporter_settings[] = {
    {"count_sum", SMFW_SETTING_BOOL, "true",
     "also write each metric's count and sum (AIPerf 0.8+ fields) when they are known", NULL, NULL,
     0, NULL},
    SMFW_SETTINGS_END};

static const smfw_reporter_output json_reporter_outputs[] = {
    {JSON_REPORTER_FILE, "summary statistics in AIPerf's JSON schema (+ smfw extras)"},
    {NULL, NULL}};

static const smfw_reporter_ops json_reporter_ops = {
    .size = sizeof(smfw_reporter_ops),
    .create = json_reporter_create,
    .write = json_reporter_write,
    .destroy = json_reporter_destroy,
    .write_set = json_sweep_write,
    .outputs = json_reporter_outputs,
};

SMFW_PLUGIN_DEFINE(smfw_reporter_json, SMFW_PLUGIN_REPORTER, "json", SMFW_VERSION_STRING,
                   "profile_export_aiperf.json in AIPerf's schema, plus an \"smfw\" object",
                   json_reporter_settings, &json_reporter_ops)
