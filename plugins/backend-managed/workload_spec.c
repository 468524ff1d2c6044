/*
 * workload_spec.c - the WorkloadSpec SageMaker's benchmark runs:
 * {"benchmark":{"type":"aiperf"},"parameters":{...}}, built from the shared
 * [run]/[dataset] settings plus the backend's own keys, every parameter
 * checked against the documented set (workload_params.c) before any call (an
 * unknown or mistyped parameter would otherwise fail a billable job minutes later).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "managed.h"
#include "workload_params.h"

static int is_int(json_t *v, long long min) {
    return json_is_integer(v) && json_integer_value(v) >= min;
}

smfw_status managed_spec_check_param(const char *name, json_t *v, smfw_error *err) {
    const workload_param *r = workload_param_find(name);
    if (!r) {
        char known[1200];
        workload_param_names(known, sizeof known);
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "unknown WorkloadSpec parameter \"%s\" (known: %s)", name, known);
    }
    const char *want = NULL;
    double d = json_number_value(v);
    switch (r->type) {
    case WP_INT_POS:
        if (!is_int(v, 1)) want = "an integer above 0";
        break;
    case WP_INT_NONNEG:
        if (!is_int(v, 0)) want = "an integer of 0 or more";
        break;
    case WP_NUM_POS:
        if (!json_is_number(v) || !(d > 0) || !isfinite(d)) want = "a number above 0";
        break;
    case WP_NUM_NONNEG:
        if (!json_is_number(v) || !(d >= 0) || !isfinite(d)) want = "a number of 0 or more";
        break;
    case WP_PERCENT:
        if (!json_is_number(v) || !(d >= 0 && d <= 100)) want = "a percentage (0-100)";
        break;
    case WP_BOOL:
        if (!json_is_boolean(v)) want = "true or false";
        break;
    case WP_STRING:
        if (!json_is_string(v) || !*json_string_value(v)) want = "a non-empty string";
        break;
    case WP_INT_OR_LIST:
        if (json_is_array(v)) {
            size_t i;
            json_t *x;
            if (json_array_size(v) == 0) want = "an integer above 0 or a non-empty list of them";
            json_array_foreach(v, i, x) if (!is_int(x, 1)) want =
                "an integer above 0 or a list of them";
        } else if (!is_int(v, 1))
            want = "an integer above 0 or a list of them";
        break;
    case WP_STR_OR_LIST:
        if (json_is_array(v)) {
            size_t i;
            json_t *x;
            json_array_foreach(v, i, x) if (!json_is_string(x)) want =
                "a string or a list of strings";
        } else if (!json_is_string(v))
            want = "a string or a list of strings";
        break;
    case WP_ENUM: {
        const char *s = json_string_value(v);
        char probe[128];
        if (s) snprintf(probe, sizeof probe, "|%s|", s);
        if (!s || strlen(s) > 100 || !strstr(r->choices, probe)) want = r->choices;
        break;
    }
    }
    if (want) {
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        smfw_status st =
            smfw_error_set(err, SMFW_ERR_CONFIG, "WorkloadSpec parameter %s = %s: expected %s%s",
                           name, text ? text : "?", r->type == WP_ENUM ? "one of " : "", want);
        free(text);
        return st;
    }
    return SMFW_OK;
}

smfw_status managed_spec_apply_extra(json_t *params, const char *item, smfw_error *err) {
    const char *eq = strchr(item, '=');
    if (!eq || eq == item || eq - item > 100)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "workload_param \"%s\": expected name=value, e.g. "
                              "request_rate_mode=constant",
                              item);
    char name[128];
    memcpy(name, item, (size_t)(eq - item));
    name[eq - item] = '\0';
    const char *text = eq + 1;
    json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
    if (!v || json_is_string(v) || json_is_object(v) || json_is_null(v)) {
        json_decref(v);
        v = json_string(text); /* plain words are strings */
    }
    /* A list given with ';' (commas separate list items in the config). */
    const workload_param *rule = workload_param_find(name);
    if (json_is_string(v) && strchr(text, ';') && rule &&
        (rule->type == WP_INT_OR_LIST || rule->type == WP_STR_OR_LIST)) {
        json_t *arr = json_array();
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", text);
        char *save = NULL;
        for (char *t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
            json_t *x = json_loads(t, JSON_DECODE_ANY, NULL);
            if (!x || !json_is_integer(x)) {
                json_decref(x);
                x = json_string(t);
            }
            json_array_append_new(arr, x);
        }
        json_decref(v);
        v = arr;
    }
    smfw_status st = managed_spec_check_param(name, v, err);
    if (st == SMFW_OK) json_object_set(params, name, v);
    json_decref(v);
    return st;
}

/* "1,2,4" -> 1 or [1,2,4]. */
static smfw_status concurrency_value(const smfw_settings *run, json_t **out, smfw_error *err) {
    const char *const *items;
    size_t n = smfw_settings_get_list(run, "concurrency", &items);
    *out = NULL;
    if (!n) return SMFW_OK;
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        char *end = NULL;
        long long v = strtoll(items[i], &end, 10);
        if (!end || *end || v <= 0) {
            json_decref(arr);
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "run.concurrency item \"%s\" is not an integer above 0",
                                  items[i]);
        }
        json_array_append_new(arr, json_integer(v));
    }
    if (n == 1) {
        *out = json_incref(json_array_get(arr, 0));
        json_decref(arr);
    } else
        *out = arr;
    return SMFW_OK;
}

static int set_by_user(const smfw_settings *s, const char *key) {
    return smfw_settings_source(s, key, NULL, NULL) != SMFW_SOURCE_DEFAULT;
}

/* The settings a WorkloadSpec is made of, bound by declaration (defaults are the core's and
 * backend.managed's declarations, never restated here). */
typedef struct spec_settings {
    double in_mean, in_stddev, out_mean, out_stddev;
    int64_t request_count, warmup_request_count, random_seed;
    double request_rate, duration_s, grace_s, warmup_duration_s;
    int streaming;
    char *arrival, *tokenizer;
    char **extra, **goodput, **sla, **sla_concurrency, **workload_param;
    size_t n_extra, n_goodput, n_sla, n_sla_concurrency, n_workload_param;
} spec_settings;

#define RUN(key, type, field)                                                                      \
    { "run", key, type, offsetof(spec_settings, field), 0 }
#define DATASET(key, field)                                                                        \
    { "dataset", key, SMFW_BIND_DOUBLE, offsetof(spec_settings, field), 0 }
#define LIST(section, key, field, count)                                                           \
    { section, key, SMFW_BIND_LIST, offsetof(spec_settings, field), offsetof(spec_settings, count) }

static const smfw_setting_binding spec_bindings[] = {
    DATASET("input_tokens_mean", in_mean),
    DATASET("input_tokens_stddev", in_stddev),
    DATASET("output_tokens_mean", out_mean),
    DATASET("output_tokens_stddev", out_stddev),
    RUN("request_count", SMFW_BIND_INT64, request_count),
    RUN("warmup_request_count", SMFW_BIND_INT64, warmup_request_count),
    RUN("random_seed", SMFW_BIND_INT64, random_seed),
    RUN("request_rate", SMFW_BIND_DOUBLE, request_rate),
    RUN("duration", SMFW_BIND_DURATION, duration_s),
    RUN("grace_period", SMFW_BIND_DURATION, grace_s),
    RUN("warmup_duration", SMFW_BIND_DURATION, warmup_duration_s),
    RUN("streaming", SMFW_BIND_BOOL, streaming),
    RUN("arrival", SMFW_BIND_STRING, arrival),
    RUN("tokenizer", SMFW_BIND_STRING, tokenizer),
    LIST("run", "extra_inputs", extra, n_extra),
    LIST("run", "goodput", goodput, n_goodput),
    LIST(NULL, "sla", sla, n_sla),
    LIST(NULL, "sla_concurrency", sla_concurrency, n_sla_concurrency),
    LIST(NULL, "workload_param", workload_param, n_workload_param),
    SMFW_BINDINGS_END};

static smfw_status spec_fill(json_t *p, const smfw_config *cfg, const spec_settings *o,
                             smfw_error *err);

smfw_status managed_spec_build(const smfw_config *cfg, json_t **out, smfw_error *err) {
    *out = NULL;
    const smfw_settings *mine = smfw_config_section(cfg, "backend.managed");
    if (!mine) return smfw_error_set(err, SMFW_ERR_INTERNAL, "the managed backend has no settings");
    spec_settings o;
    memset(&o, 0, sizeof o);
    smfw_status st = smfw_settings_bind(mine, spec_bindings, &o, err);
    json_t *p = json_object();
    if (st == SMFW_OK) st = spec_fill(p, cfg, &o, err);
    smfw_settings_unbind(spec_bindings, &o);
    if (st != SMFW_OK) {
        json_decref(p);
        return st;
    }
    *out = json_pack("{s:{s:s},s:o}", "benchmark", "type", "aiperf", "parameters", p);
    return *out ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

/* The parameters of the spec into p; on error p is the caller's to free. */
static smfw_status spec_fill(json_t *p, const smfw_config *cfg, const spec_settings *o,
                             smfw_error *err) {
    const smfw_settings *run = smfw_config_section(cfg, "run");
    json_object_set_new(p, "prompt_input_tokens_mean", json_real(o->in_mean));
    json_object_set_new(p, "prompt_input_tokens_stddev", json_real(o->in_stddev));
    json_object_set_new(p, "output_tokens_mean", json_real(o->out_mean));
    json_object_set_new(p, "output_tokens_stddev", json_real(o->out_stddev));
    /* Whole numbers go out as integers, as the reference spec writes them. */
    const char *keys[] = {"prompt_input_tokens_mean", "prompt_input_tokens_stddev",
                          "output_tokens_mean", "output_tokens_stddev"};
    for (size_t i = 0; i < 4; i++) {
        double v = json_real_value(json_object_get(p, keys[i]));
        if (v == floor(v) && fabs(v) < 1e15)
            json_object_set_new(p, keys[i], json_integer((json_int_t)v));
    }
    /* SLA search: a concurrency list plus the SLOs as AIPerf goodput. */
    size_t n_sla = o->n_sla;
    json_t *conc = NULL;
    smfw_status st = concurrency_value(run, &conc, err);
    if (st != SMFW_OK) return st;
    if (n_sla && !json_is_array(conc) && !set_by_user(run, "concurrency")) {
        json_t *arr = json_array();
        for (size_t i = 0; i < o->n_sla_concurrency; i++) {
            char *end = NULL;
            long long v = strtoll(o->sla_concurrency[i], &end, 10);
            if (!end || *end || v <= 0) {
                json_decref(arr);
                json_decref(conc);
                return smfw_error_set(err, SMFW_ERR_CONFIG,
                                      "backend.managed.sla_concurrency item \"%s\" is not an "
                                      "integer above 0",
                                      o->sla_concurrency[i]);
            }
            json_array_append_new(arr, json_integer(v));
        }
        json_decref(conc);
        conc = arr;
    }
    if (conc) json_object_set_new(p, "concurrency", conc);
    int has_duration = smfw_settings_has(run, "duration");
    if (!has_duration || set_by_user(run, "request_count"))
        json_object_set_new(p, "request_count", json_integer(o->request_count));
    if (smfw_settings_has(run, "request_rate")) {
        json_object_set_new(p, "request_rate", json_real(o->request_rate));
        if (o->arrival && set_by_user(run, "arrival"))
            json_object_set_new(p, "request_rate_mode", json_string(o->arrival));
    }
    if (has_duration) {
        json_object_set_new(p, "benchmark_duration", json_real(o->duration_s));
        if (set_by_user(run, "grace_period"))
            json_object_set_new(p, "benchmark_grace_period", json_real(o->grace_s));
    }
    if (o->warmup_request_count > 0)
        json_object_set_new(p, "warmup_request_count", json_integer(o->warmup_request_count));
    if (smfw_settings_has(run, "warmup_duration"))
        json_object_set_new(p, "warmup_duration", json_real(o->warmup_duration_s));
    if (o->n_extra == 1)
        json_object_set_new(p, "extra_inputs", json_string(o->extra[0]));
    else if (o->n_extra > 1) {
        json_t *arr = json_array();
        for (size_t i = 0; i < o->n_extra; i++)
            json_array_append_new(arr, json_string(o->extra[i]));
        json_object_set_new(p, "extra_inputs", arr);
    }
    /* goodput: AIPerf's "tag:value tag:value" (SLOs of the SLA search come first). */
    char goodput[1024] = "";
    size_t go = 0;
    size_t n_g = o->n_goodput;
    for (size_t k = 0; k < n_sla + n_g && go < sizeof goodput; k++) {
        const char *item = k < n_sla ? o->sla[k] : o->goodput[k - n_sla];
        /* The one goodput grammar (core/goodput.c) checks it, as for a direct run. */
        smfw_goodput_slo *slos = NULL;
        size_t n_slos = 0;
        smfw_error why;
        smfw_error_clear(&why);
        if (smfw_goodput_parse(&item, 1, &slos, &n_slos, &why) != SMFW_OK)
            return smfw_error_set(err, SMFW_ERR_CONFIG, "%s: %s",
                                  k < n_sla ? "backend.managed.sla" : "run.goodput", why.message);
        free(slos);
        int w = snprintf(goodput + go, sizeof goodput - go, "%s%s", go ? " " : "", item);
        if (w < 0 || (size_t)w >= sizeof goodput - go)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "goodput and SLA thresholds are longer than %zu characters",
                                  sizeof goodput - 1);
        go += (size_t)w;
    }
    if (goodput[0]) json_object_set_new(p, "goodput", json_string(goodput));
    json_object_set_new(p, "streaming", json_boolean(o->streaming));
    json_object_set_new(p, "random_seed", json_integer(o->random_seed));
    const char *tok = o->tokenizer;
    if (tok) {
        /* AIPerf runs in the service and loads the tokenizer from the Hugging Face hub. */
        const char *slash = strchr(tok, '/');
        if (!slash || slash == tok || strchr(slash + 1, '/') || tok[0] == '.' ||
            strncmp(tok, "builtin", 7) == 0) {
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "--tokenizer %s: the managed benchmark's AIPerf loads its "
                                  "tokenizer from the Hugging Face hub; give a model id "
                                  "(org/name), not a file or a builtin encoding",
                                  tok);
        }
        json_object_set_new(p, "tokenizer", json_string(tok));
    }
    for (size_t i = 0; i < o->n_workload_param; i++) {
        st = managed_spec_apply_extra(p, o->workload_param[i], err);
        if (st != SMFW_OK) return st;
    }
    /* Everything that goes out is checked, including what the core settings produced. */
    const char *k;
    json_t *v;
    json_object_foreach(p, k, v) {
        st = managed_spec_check_param(k, v, err);
        if (st != SMFW_OK) return st;
    }
    return SMFW_OK;
}
