/*
 * results_aiperf_json.c - reads profile_export_aiperf.json of every AIPerf
 * version (aiperf-compat §4.2, §10): the 2025-10 nested "records" form, the
 * 0.3-era explicit nulls, 0.5, and 0.8+ with count/sum. Unknown metrics are
 * kept as extra metrics; unknown keys are ignored.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <smfw/results_layout.h>
#include <smfw/bundle_limits.h>
#include <smfw/bundle_read.h>
#include <smfw/results.h>

#include "results_internal.h"

void smfw_stats_read_json(json_t *obj, smfw_stats *s) {
    memset(s, 0, sizeof *s);
    struct {
        const char *key;
        double *dst;
        unsigned bit;
    } f[] = {{"avg", &s->avg, SMFW_STAT_AVG},
             {"min", &s->min, SMFW_STAT_MIN},
             {"max", &s->max, SMFW_STAT_MAX},
             {"std", &s->std, SMFW_STAT_STD},
             {"sum", &s->sum, SMFW_STAT_SUM}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        json_t *v = json_object_get(obj, f[i].key);
        if (json_is_number(v)) {
            *f[i].dst = json_number_value(v);
            s->fields |= f[i].bit;
        }
    }
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++) {
        json_t *v = json_object_get(obj, smfw_percentile_keys[i]);
        if (json_is_number(v)) {
            s->p[i] = json_number_value(v);
            s->fields |= SMFW_STAT_P_FIRST << i;
        }
    }
    json_t *c = json_object_get(obj, "count");
    if (json_is_integer(c)) {
        s->count = (uint64_t)json_integer_value(c);
        s->fields |= SMFW_STAT_COUNT;
    }
    s->present = (s->fields & SMFW_STAT_AVG) != 0;
}

static char *header_from_tag(const char *tag) {
    char *h = strdup(tag);
    if (!h) return NULL;
    int up = 1;
    for (char *p = h; *p; p++) {
        if (*p == '_') {
            *p = ' ';
            up = 1;
        } else if (up) {
            if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
            up = 0;
        }
    }
    return h;
}

static smfw_status add_extra(smfw_results *r, const char *tag, const char *header, const char *unit,
                             const smfw_stats *st) {
    for (size_t i = 0; i < r->n_extra; i++)
        if (strcmp(r->extra[i].tag, tag) == 0) {
            r->extra[i].stats = *st;
            return SMFW_OK;
        }
    smfw_extra_metric *grown = realloc(r->extra, (r->n_extra + 1) * sizeof *grown);
    if (!grown) return SMFW_ERR_NOMEM;
    r->extra = grown;
    smfw_extra_metric *x = &r->extra[r->n_extra++];
    x->tag = strdup(tag);
    const char *known = smfw_metric_known_extra_header(tag);
    x->header = header ? strdup(header) : known ? strdup(known) : header_from_tag(tag);
    x->unit = unit ? strdup(unit) : strdup("");
    x->stats = *st;
    return SMFW_OK;
}

static void read_metric(smfw_results *r, const char *tag, json_t *obj) {
    if (!json_is_object(obj)) return;
    json_t *unit = json_object_get(obj, "unit");
    if (!json_is_string(unit)) return; /* not a metric object */
    smfw_stats st;
    smfw_stats_read_json(obj, &st);
    if (!st.present) return;
    int id = smfw_metric_find(tag);
    if (id >= 0 && strcmp(json_string_value(unit), smfw_metric_get(id)->display_unit) != 0 &&
        strcmp(tag, "prefill_throughput") != 0) {
        id = -1; /* same tag, different unit: keep it as-is rather than mislabel it */
    }
    if (id >= 0) {
        r->stats[id] = st;
    } else {
        add_extra(r, tag, json_string_value(json_object_get(obj, "header")),
                  json_string_value(unit), &st);
    }
}

/* "2025-11-07T13:38:54.793124" (naive local time) -> wall ns. */
static int64_t parse_iso_local(const char *s) {
    if (!s) return 0;
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    int us = 0;
    char frac[16] = "";
    if (sscanf(s, "%d-%d-%dT%d:%d:%d.%15[0-9]", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
               &tm.tm_min, &tm.tm_sec, frac) < 6)
        return 0;
    for (int i = 0; i < 6; i++)
        us = us * 10 + (frac[i] >= '0' && frac[i] <= '9' ? frac[i] - '0' : 0);
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    tm.tm_isdst = -1;
    time_t t = mktime(&tm);
    if (t == (time_t)-1) return 0;
    return (int64_t)t * 1000000000LL + (int64_t)us * 1000LL;
}

static smfw_status read_error_summary(smfw_results *r, json_t *list) {
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item) {
        json_t *d = json_object_get(item, "error_details");
        if (!json_is_object(d)) continue;
        smfw_error_summary_entry *grown = realloc(r->errors, (r->n_errors + 1) * sizeof *grown);
        if (!grown) return SMFW_ERR_NOMEM;
        r->errors = grown;
        smfw_error_summary_entry *e = &r->errors[r->n_errors++];
        memset(e, 0, sizeof *e);
        json_t *code = json_object_get(d, "code");
        e->has_code = json_is_integer(code);
        e->code = e->has_code ? (int)json_integer_value(code) : 0;
        e->type = json_is_string(json_object_get(d, "type"))
                      ? strdup(json_string_value(json_object_get(d, "type")))
                      : NULL;
        e->message = json_is_string(json_object_get(d, "message"))
                         ? strdup(json_string_value(json_object_get(d, "message")))
                         : NULL;
        json_t *count = json_object_get(item, "count");
        e->count = json_is_integer(count) ? (uint64_t)json_integer_value(count) : 1;
        e->error_class = SMFW_ERRCLASS_OTHER;
        if (e->type && strcmp(e->type, "RequestCancellationError") == 0)
            e->error_class = SMFW_ERRCLASS_CANCELLED;
        else if (e->type && strcmp(e->type, "InvalidInferenceResultError") == 0)
            e->error_class = SMFW_ERRCLASS_INVALID;
    }
    return SMFW_OK;
}

static void set_json_string_field(char **field, json_t *v) {
    if (json_is_string(v)) smfw_results_set_string(field, json_string_value(v));
}

static void set_if_unset(char **field, json_t *v) {
    if (!*field && json_is_string(v)) smfw_results_set_string(field, json_string_value(v));
}

/* What was benchmarked, from either input_config shape (0.5 and the 0.8+ YAML-style). */
static void info_from_input_config(smfw_run_info *info, json_t *ic) {
    json_t *ep = json_object_get(ic, "endpoint");
    if (json_is_object(ep)) {
        set_if_unset(&info->model, json_array_get(json_object_get(ep, "model_names"), 0));
        set_if_unset(&info->url, json_object_get(ep, "url"));
        set_if_unset(&info->url, json_array_get(json_object_get(ep, "urls"), 0));
        set_if_unset(&info->endpoint_type, json_object_get(ep, "type"));
        if (json_is_boolean(json_object_get(ep, "streaming")))
            info->streaming = json_is_true(json_object_get(ep, "streaming"));
    }
    json_t *models = json_object_get(json_object_get(ic, "models"), "items");
    set_if_unset(&info->model, json_object_get(json_array_get(models, 0), "name"));
    json_t *lg = json_object_get(ic, "loadgen");
    json_t *x;
    if (json_is_object(lg)) {
        if (!info->concurrency && json_is_integer(x = json_object_get(lg, "concurrency")))
            info->concurrency = json_integer_value(x);
        if (!info->request_count_target &&
            json_is_integer(x = json_object_get(lg, "request_count")))
            info->request_count_target = json_integer_value(x);
        if (info->request_rate <= 0 && json_is_number(x = json_object_get(lg, "request_rate")))
            info->request_rate = json_number_value(x);
    }
    size_t i;
    json_t *ph;
    json_array_foreach(json_object_get(ic, "phases"), i, ph) {
        if (!json_is_string(json_object_get(ph, "name")) ||
            strcmp(json_string_value(json_object_get(ph, "name")), "profiling") != 0)
            continue;
        if (!info->concurrency && json_is_integer(x = json_object_get(ph, "concurrency")))
            info->concurrency = json_integer_value(x);
        if (!info->request_count_target && json_is_integer(x = json_object_get(ph, "requests")))
            info->request_count_target = json_integer_value(x);
        if (info->request_rate <= 0 && json_is_number(x = json_object_get(ph, "rate")))
            info->request_rate = json_number_value(x);
    }
}

smfw_status smfw_results_load_aiperf_json(smfw_results *r, const char *path, smfw_error *err) {
    /* Parsed whole, so capped first: jansson's tree takes ~20x the text. */
    char *raw = NULL;
    size_t len = 0;
    smfw_status rst = smfw_bundle_read_file(path, smfw_bundle_limits_get()->max_summary_bytes,
                                            "bundle.max_summary_bytes", &raw, &len, err);
    if (rst != SMFW_OK) return rst;
    json_error_t je;
    json_t *root = json_loadb(raw, len, JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &je);
    free(raw);
    if (!root)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL, "%s:%d:%d: invalid JSON: %s", path, je.line,
                              je.column, je.text);
    if (!json_is_object(root)) {
        json_decref(root);
        return smfw_error_set(err, SMFW_ERR_PROTOCOL, "%s: the summary is not a JSON object", path);
    }
    smfw_status st = SMFW_OK;
    const char *key;
    json_t *val;
    json_t *records = json_object_get(root, "records");
    if (json_is_object(records)) { /* 2025-10 pre-release layout */
        json_object_foreach(records, key, val) {
            json_t *tag = json_object_get(val, "tag");
            read_metric(r, json_is_string(tag) ? json_string_value(tag) : key, val);
        }
    }
    json_object_foreach(root, key, val) {
        if (strcmp(key, "records") == 0 || strcmp(key, "input_config") == 0 ||
            strcmp(key, "telemetry_data") == 0 || strcmp(key, "run_info") == 0 ||
            strcmp(key, "smfw") == 0)
            continue;
        /* A known metric of the wrong shape is refused, not read as absent (= passed). */
        json_t *avg = json_is_object(val) ? json_object_get(val, "avg") : NULL;
        const char *wrong = NULL;
        if (smfw_metric_find(key) >= 0 && !json_is_null(val)) {
            if (!json_is_object(val))
                wrong = "is not an object";
            else if (avg && !json_is_number(avg) && !json_is_null(avg))
                wrong = "has a non-numeric avg";
        }
        if (wrong) {
            smfw_error_set(err, SMFW_ERR_PROTOCOL, "%s: metric \"%s\" %s", path, key, wrong);
            json_decref(root); /* after the message: key lives in root */
            return SMFW_ERR_PROTOCOL;
        }
        if (json_is_object(val)) read_metric(r, key, val);
    }
    set_json_string_field(&r->info.schema_version, json_object_get(root, "schema_version"));
    set_json_string_field(&r->info.aiperf_version, json_object_get(root, "aiperf_version"));
    set_json_string_field(&r->info.benchmark_id, json_object_get(root, "benchmark_id"));
    json_t *ic = json_object_get(root, "input_config");
    if (json_is_object(ic)) {
        char *text = json_dumps(ic, JSON_COMPACT | JSON_REAL_PRECISION(17));
        free(r->info.input_config_json);
        r->info.input_config_json = text;
    }
    if (json_is_object(ic)) info_from_input_config(&r->info, ic);
    r->info.was_cancelled = json_is_true(json_object_get(root, "was_cancelled"));
    int64_t t;
    if ((t = parse_iso_local(json_string_value(json_object_get(root, "start_time")))))
        r->info.start_wall_ns = t;
    if ((t = parse_iso_local(json_string_value(json_object_get(root, "end_time")))))
        r->info.end_wall_ns = t;
    json_t *es = json_object_get(root, "error_summary");
    if (json_is_array(es) && read_error_summary(r, es) != SMFW_OK)
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    json_t *own = json_object_get(root, "smfw");
    if (st == SMFW_OK && json_is_object(own)) {
        char *text = json_dumps(own, JSON_COMPACT | JSON_REAL_PRECISION(17));
        st = smfw_results_apply_smfw_object(r, text, err);
        free(text);
        if (st != SMFW_OK) smfw_error_prefix(err, "%s: \"smfw\" object", path);
    }
    json_decref(root);
    return st;
}
