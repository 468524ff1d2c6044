/*
 * results_jsonl.c - profile_export.jsonl records (aiperf-compat §4.4): the
 * writer (compact, display units, AIPerf key order, smfw extras under "smfw")
 * and a tolerant reader for every AIPerf version seen so far.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/bundle_limits.h>
#include <smfw/bundle_read.h>
#include <smfw/results.h>

#include "results_internal.h"

/* Output order of the per-record metrics (AIPerf's dependency order). */
static const smfw_metric_id jsonl_order[] = {SMFW_M_INPUT_SEQUENCE_LENGTH,
                                             SMFW_M_TIME_TO_FIRST_TOKEN,
                                             SMFW_M_TIME_TO_SECOND_TOKEN,
                                             SMFW_M_REQUEST_LATENCY,
                                             SMFW_M_OUTPUT_TOKEN_COUNT,
                                             SMFW_M_REASONING_TOKEN_COUNT,
                                             SMFW_M_TIME_TO_FIRST_OUTPUT_TOKEN,
                                             SMFW_M_OUTPUT_SEQUENCE_LENGTH,
                                             SMFW_M_INTER_CHUNK_LATENCY,
                                             SMFW_M_INTER_TOKEN_LATENCY,
                                             SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER,
                                             SMFW_M_PREFILL_THROUGHPUT_PER_USER,
                                             SMFW_M_USAGE_PROMPT_TOKENS,
                                             SMFW_M_USAGE_COMPLETION_TOKENS,
                                             SMFW_M_USAGE_TOTAL_TOKENS,
                                             SMFW_M_USAGE_REASONING_TOKENS,
                                             SMFW_M_USAGE_PROMPT_CACHED_TOKENS,
                                             SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT,
                                             SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT,
                                             SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT,
                                             SMFW_M_ERROR_ISL};

static void put_value(smfw_buf *b, const smfw_metric_info *mi, double base) {
    /* AIPerf's convert_to multiplies by per_second ratio (ns -> ms: x 1e-6, so 31742934 ns is
     * 31.742933999999998 ms); every ms value of the fixtures' JSONL is written that way. */
    double v = base * mi->display_scale;
    if (mi->integer_valued && v == floor(v) && fabs(v) < 9e15)
        smfw_buf_printf(b, "%.0f", v);
    else
        smfw_buf_double(b, v);
}

static void put_metric(smfw_buf *b, const smfw_record *rec, smfw_metric_id id, int *first) {
    const smfw_metric_info *mi = smfw_metric_get(id);
    if (!smfw_record_has(rec, id)) return;
    if (!*first) smfw_buf_puts(b, ",");
    *first = 0;
    smfw_buf_json_string(b, mi->tag);
    smfw_buf_puts(b, ":{\"value\":");
    if (id == SMFW_M_INTER_CHUNK_LATENCY) {
        smfw_buf_puts(b, "[");
        for (size_t i = 0; i < rec->icl_len; i++) {
            if (i) smfw_buf_puts(b, ",");
            put_value(b, mi, rec->icl[i]);
        }
        smfw_buf_puts(b, "]");
    } else {
        put_value(b, mi, rec->values[id]);
    }
    smfw_buf_puts(b, ",\"unit\":");
    smfw_buf_json_string(b, mi->display_unit);
    smfw_buf_puts(b, "}");
}

smfw_status smfw_record_to_jsonl(const smfw_record *rec, char **out, smfw_error *err) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_puts(&b, "{\"metadata\":{");
    int first = 1;
#define SEP() (first ? (void)(first = 0) : smfw_buf_puts(&b, ","))
    if (rec->session_num >= 0) {
        SEP();
        smfw_buf_printf(&b, "\"session_num\":%lld", (long long)rec->session_num);
    }
    const struct {
        const char *key;
        const char *val;
    } ids[] = {{"x_request_id", rec->x_request_id},
               {"x_correlation_id", rec->x_correlation_id},
               {"conversation_id", rec->conversation_id}};
    for (size_t i = 0; i < 3; i++) {
        if (!ids[i].val) continue;
        SEP();
        smfw_buf_json_string(&b, ids[i].key);
        smfw_buf_puts(&b, ":");
        smfw_buf_json_string(&b, ids[i].val);
    }
    SEP();
    smfw_buf_printf(&b, "\"turn_index\":%d", (int)rec->turn_index);
    const struct {
        const char *key;
        int64_t v;
    } times[] = {{"credit_issued_ns", rec->credit_issued_ns},
                 {"request_start_ns", rec->request_start_ns},
                 {"request_ack_ns", rec->request_ack_ns},
                 {"request_end_ns", rec->request_end_ns}};
    for (size_t i = 0; i < 4; i++) {
        if (!times[i].v) continue;
        SEP();
        smfw_buf_printf(&b, "\"%s\":%lld", times[i].key, (long long)times[i].v);
    }
    if (rec->worker_id) {
        SEP();
        smfw_buf_puts(&b, "\"worker_id\":");
        smfw_buf_json_string(&b, rec->worker_id);
    }
    if (rec->record_processor_id) {
        SEP();
        smfw_buf_puts(&b, "\"record_processor_id\":");
        smfw_buf_json_string(&b, rec->record_processor_id);
    }
    SEP();
    smfw_buf_printf(&b, "\"benchmark_phase\":\"profiling\",\"was_cancelled\":%s",
                    rec->was_cancelled ? "true" : "false");
    if (rec->cancellation_time_ns)
        smfw_buf_printf(&b, ",\"cancellation_time_ns\":%lld", (long long)rec->cancellation_time_ns);
    smfw_buf_puts(&b, "},\"metrics\":{");
    first = 1;
    for (size_t i = 0; i < sizeof jsonl_order / sizeof jsonl_order[0]; i++)
        put_metric(&b, rec, jsonl_order[i], &first);
    if (rec->extra_metrics_json && rec->extra_metrics_json[0] == '{' &&
        strlen(rec->extra_metrics_json) > 2) {
        /* Metrics a newer AIPerf wrote that we do not know: kept verbatim. */
        size_t n = strlen(rec->extra_metrics_json);
        if (!first) smfw_buf_puts(&b, ",");
        smfw_buf_append(&b, rec->extra_metrics_json + 1, n - 2);
    }
    smfw_buf_puts(&b, "}");
    if (rec->error) {
        smfw_buf_puts(&b, ",\"error\":{");
        int f2 = 1;
        if (rec->error->has_code) {
            smfw_buf_printf(&b, "\"code\":%d", rec->error->code);
            f2 = 0;
        }
        if (rec->error->type) {
            if (!f2) smfw_buf_puts(&b, ",");
            smfw_buf_puts(&b, "\"type\":");
            smfw_buf_json_string(&b, rec->error->type);
            f2 = 0;
        }
        if (!f2) smfw_buf_puts(&b, ",");
        smfw_buf_puts(&b, "\"message\":");
        smfw_buf_json_string(&b, rec->error->message ? rec->error->message : "");
        if (rec->error->cause) {
            smfw_buf_puts(&b, ",\"cause\":");
            smfw_buf_json_string(&b, rec->error->cause);
        }
        smfw_buf_puts(&b, "}");
    }
    /* smfw's own fields: ignored by AIPerf readers. */
    int any_smfw = rec->intended_start_ns || rec->http_status || rec->error ||
                   rec->token_count_source || smfw_record_has(rec, SMFW_M_SCHEDULE_LAG);
    if (any_smfw) {
        smfw_buf_puts(&b, ",\"smfw\":{");
        first = 1;
        if (rec->intended_start_ns) {
            SEP();
            smfw_buf_printf(&b, "\"intended_start_ns\":%lld", (long long)rec->intended_start_ns);
        }
        if (rec->http_status) {
            SEP();
            smfw_buf_printf(&b, "\"http_status\":%d", rec->http_status);
        }
        if (rec->error) {
            SEP();
            smfw_buf_puts(&b, "\"error_class\":");
            smfw_buf_json_string(&b, smfw_error_class_name(rec->error->error_class));
        }
        if (rec->token_count_source) {
            SEP();
            smfw_buf_puts(&b, "\"token_count_source\":");
            smfw_buf_json_string(&b, rec->token_count_source);
        }
        static const smfw_metric_id own[] = {SMFW_M_SCHEDULE_LAG, SMFW_M_TTFT_FROM_INTENDED,
                                             SMFW_M_REQUEST_LATENCY_FROM_INTENDED};
        int has_own = 0;
        for (size_t i = 0; i < 3; i++) has_own |= smfw_record_has(rec, own[i]);
        if (has_own) {
            SEP();
            smfw_buf_puts(&b, "\"metrics\":{");
            int f3 = 1;
            for (size_t i = 0; i < 3; i++) put_metric(&b, rec, own[i], &f3);
            smfw_buf_puts(&b, "}");
        }
        smfw_buf_puts(&b, "}");
    }
    smfw_buf_puts(&b, "}");
#undef SEP
    *out = smfw_buf_take(&b);
    if (!*out) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory writing a record");
    return SMFW_OK;
}

/* ---- reader --------------------------------------------------------------- */

/* Factor from a file's unit to the metric's base unit. */
static double unit_to_base(const char *unit, const smfw_metric_info *mi) {
    if (!unit || strcmp(unit, mi->base_unit) == 0) return 1.0;
    if (strcmp(mi->base_unit, "ns") == 0) {
        if (strcmp(unit, "ms") == 0) return 1e6;
        if (strcmp(unit, "us") == 0) return 1e3;
        if (strcmp(unit, "sec") == 0 || strcmp(unit, "s") == 0) return 1e9;
    }
    return 1.0;
}

/*
 * A value in the file's unit back to base units. AIPerf (and smfw) wrote ns x 1e-6, so
 * the nearest whole ns that converts back to the very same double is the value it had
 * (ns differ by far more than a double's spacing below ~52 days); anything else, such as
 * a derived ITL, is only scaled.
 */
static double file_to_base(double x, double f, const smfw_metric_info *mi) {
    double b = x * f;
    if (f == 1.0 || strcmp(mi->base_unit, "ns") != 0) return b;
    double whole = nearbyint(b);
    return fabs(whole) < 9007199254740992.0 && whole * (1.0 / f) == x ? whole : b;
}

static int64_t json_i64(json_t *v) {
    if (json_is_integer(v)) return (int64_t)json_integer_value(v);
    if (json_is_real(v)) return (int64_t)llround(json_real_value(v));
    return 0;
}

static char *json_strdup(json_t *v) {
    return json_is_string(v) ? strdup(json_string_value(v)) : NULL;
}

static smfw_error_class class_from_name(const char *name) {
    for (int i = 0; i < SMFW_ERRCLASS_COUNT_; i++)
        if (name && strcmp(smfw_error_class_name((smfw_error_class)i), name) == 0)
            return (smfw_error_class)i;
    return SMFW_ERRCLASS_OTHER;
}

/* Guess a class for AIPerf's own error records. */
static smfw_error_class class_from_error(int has_code, int code, const char *type) {
    if (type && strcmp(type, "RequestCancellationError") == 0) return SMFW_ERRCLASS_CANCELLED;
    if (type && strcmp(type, "InvalidInferenceResultError") == 0) return SMFW_ERRCLASS_INVALID;
    if (has_code) {
        if (code == 499) return SMFW_ERRCLASS_CANCELLED;
        if (code == 424) return SMFW_ERRCLASS_MODEL_ERROR;
        if (code == 429) return SMFW_ERRCLASS_THROTTLED;
        if (code == 403 || code == 401) return SMFW_ERRCLASS_AUTH;
        if (code == 503) return SMFW_ERRCLASS_UNAVAILABLE;
        if (code == 504 || code == 408) return SMFW_ERRCLASS_TIMEOUT;
        if (code >= 400) return SMFW_ERRCLASS_HTTP;
    }
    return SMFW_ERRCLASS_OTHER;
}

static smfw_status read_metric(smfw_record *rec, const char *tag, json_t *obj, json_t *extra,
                               smfw_error *err) {
    int id = smfw_metric_find(tag);
    json_t *val = json_object_get(obj, "value");
    json_t *unit = json_object_get(obj, "unit");
    if (!smfw_metric_is_per_record((smfw_metric_id)id)) {
        /* Aggregate-only tags of the pre-release format are not per-record metrics. */
        if (id >= 0) return SMFW_OK;
        json_object_set(extra, tag, obj);
        return SMFW_OK;
    }
    const smfw_metric_info *mi = smfw_metric_get((smfw_metric_id)id);
    double f = unit_to_base(json_string_value(unit), mi);
    if (id == SMFW_M_INTER_CHUNK_LATENCY) {
        if (!json_is_array(val))
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "inter_chunk_latency value is not a list");
        size_t n = json_array_size(val);
        int64_t max_items = smfw_bundle_limits_get()->max_array_items;
        if ((int64_t)n > max_items)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "inter_chunk_latency has %zu items, over the limit of %lld "
                                  "(bundle.max_array_items)",
                                  n, (long long)max_items);
        free(rec->icl);
        rec->icl = n ? malloc(n * sizeof *rec->icl) : NULL;
        if (n && !rec->icl) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) {
            json_t *x = json_array_get(val, i);
            if (!json_is_number(x))
                return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                      "inter_chunk_latency item %zu is not a number", i);
            rec->icl[i] = file_to_base(json_number_value(x), f, mi);
        }
        rec->icl_len = n;
        return SMFW_OK;
    }
    if (json_is_null(val)) return SMFW_OK;
    if (!json_is_number(val))
        return smfw_error_set(err, SMFW_ERR_PROTOCOL, "metric %s has a non-numeric value", tag);
    smfw_record_set(rec, (smfw_metric_id)id, file_to_base(json_number_value(val), f, mi));
    return SMFW_OK;
}

/*
 * ITL is (latency - TTFT) / (OSL - 1) in ns, not whole ns, so the file's ms value alone
 * does not give back AIPerf's double; the formula over the recovered whole-ns latency
 * and TTFT does, when it converts to the file's value (true for every fixture record).
 */
static void recover_itl(smfw_record *rec, json_t *metrics) {
    json_t *obj = json_object_get(metrics, "inter_token_latency");
    json_t *val = json_object_get(obj, "value");
    const smfw_metric_info *mi = smfw_metric_get(SMFW_M_INTER_TOKEN_LATENCY);
    if (!json_is_number(val) || !smfw_record_has(rec, SMFW_M_REQUEST_LATENCY) ||
        !smfw_record_has(rec, SMFW_M_TIME_TO_FIRST_TOKEN) ||
        !smfw_record_has(rec, SMFW_M_OUTPUT_SEQUENCE_LENGTH))
        return;
    double f = unit_to_base(json_string_value(json_object_get(obj, "unit")), mi);
    double osl = rec->values[SMFW_M_OUTPUT_SEQUENCE_LENGTH];
    if (f == 1.0 || osl < 2) return;
    double itl =
        (rec->values[SMFW_M_REQUEST_LATENCY] - rec->values[SMFW_M_TIME_TO_FIRST_TOKEN]) / (osl - 1);
    if (itl * (1.0 / f) == json_number_value(val)) rec->values[SMFW_M_INTER_TOKEN_LATENCY] = itl;
}

smfw_status smfw_record_from_jsonl(const char *line, size_t len, smfw_record *rec,
                                   smfw_error *err) {
    smfw_record_init(rec);
    json_error_t je;
    json_t *root = json_loadb(line, len, 0, &je);
    if (!root)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL, "invalid JSON at column %d: %s", je.column,
                              je.text);
    smfw_status st = SMFW_OK;
    if (!json_is_object(root)) {
        st = smfw_error_set(err, SMFW_ERR_PROTOCOL, "a record must be a JSON object");
        goto done;
    }
    json_t *md = json_object_get(root, "metadata");
    if (json_is_object(md)) {
        json_t *v;
        if ((v = json_object_get(md, "session_num")) && json_is_integer(v))
            rec->session_num = json_i64(v);
        rec->x_request_id = json_strdup(json_object_get(md, "x_request_id"));
        rec->x_correlation_id = json_strdup(json_object_get(md, "x_correlation_id"));
        rec->conversation_id = json_strdup(json_object_get(md, "conversation_id"));
        rec->worker_id = json_strdup(json_object_get(md, "worker_id"));
        rec->record_processor_id = json_strdup(json_object_get(md, "record_processor_id"));
        rec->turn_index = (int32_t)json_i64(json_object_get(md, "turn_index"));
        rec->credit_issued_ns = json_i64(json_object_get(md, "credit_issued_ns"));
        rec->request_start_ns = json_i64(json_object_get(md, "request_start_ns"));
        if (!rec->request_start_ns) /* pre-release name */
            rec->request_start_ns = json_i64(json_object_get(md, "timestamp_ns"));
        rec->request_ack_ns = json_i64(json_object_get(md, "request_ack_ns"));
        rec->request_end_ns = json_i64(json_object_get(md, "request_end_ns"));
        rec->cancellation_time_ns = json_i64(json_object_get(md, "cancellation_time_ns"));
        rec->was_cancelled = json_is_true(json_object_get(md, "was_cancelled"));
    }
    json_t *metrics = json_object_get(root, "metrics");
    if (json_is_object(metrics)) {
        json_t *extra = json_object();
        const char *tag;
        json_t *obj;
        json_object_foreach(metrics, tag, obj) {
            if (!json_is_object(obj)) continue;
            st = read_metric(rec, tag, obj, extra, err);
            if (st != SMFW_OK) {
                json_decref(extra);
                goto done;
            }
        }
        if (!rec->error) recover_itl(rec, metrics);
        /* Legacy records carry the wall start only as min_request_timestamp. */
        json_t *mrt = json_object_get(metrics, "min_request_timestamp");
        if (!rec->request_start_ns && json_is_object(mrt))
            rec->request_start_ns = json_i64(json_object_get(mrt, "value"));
        if (json_object_size(extra))
            rec->extra_metrics_json = json_dumps(extra, JSON_COMPACT | JSON_REAL_PRECISION(17));
        json_decref(extra);
    }
    json_t *e = json_object_get(root, "error");
    if (json_is_object(e)) {
        json_t *code = json_object_get(e, "code");
        int has_code = json_is_integer(code);
        int c = has_code ? (int)json_integer_value(code) : 0;
        const char *type = json_string_value(json_object_get(e, "type"));
        const char *msg = json_string_value(json_object_get(e, "message"));
        smfw_error_class cls = class_from_error(has_code, c, type);
        json_t *own = json_object_get(root, "smfw");
        if (json_is_object(own) && json_is_string(json_object_get(own, "error_class")))
            cls = class_from_name(json_string_value(json_object_get(own, "error_class")));
        smfw_record_set_error(rec, cls, has_code, c, type, msg);
        rec->error->cause = json_strdup(json_object_get(e, "cause"));
        /* Legacy error records hold no error_isl, newer ones may. */
    }
    json_t *own = json_object_get(root, "smfw");
    if (json_is_object(own)) {
        rec->intended_start_ns = json_i64(json_object_get(own, "intended_start_ns"));
        rec->http_status = (int)json_i64(json_object_get(own, "http_status"));
        rec->token_count_source = json_strdup(json_object_get(own, "token_count_source"));
        json_t *om = json_object_get(own, "metrics");
        const char *tag;
        json_t *obj;
        if (json_is_object(om)) json_object_foreach(om, tag, obj) {
                if (json_is_object(obj)) read_metric(rec, tag, obj, NULL, err);
            }
    }
done:
    json_decref(root);
    if (st != SMFW_OK) smfw_record_clear(rec);
    return st;
}

smfw_status smfw_results_load_jsonl(smfw_results *r, const char *path, smfw_error *err) {
    FILE *fp = fopen(path, "r");
    if (!fp) return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    /* Streamed one bounded line at a time: the file itself may be gigabytes. */
    const smfw_bundle_limits *lim = smfw_bundle_limits_get();
    smfw_buf line;
    smfw_buf_init(&line);
    long lineno = 0;
    int64_t kept = 0, items = 0;
    smfw_status st = SMFW_OK;
    int got;
    while ((got = smfw_bundle_getline(fp, &line, lim->max_record_bytes)) != SMFW_LINE_EOF) {
        lineno++;
        if (got == SMFW_LINE_TOO_LONG) {
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "%s:%ld: the record is longer than the limit of %lld bytes "
                                "(bundle.max_record_bytes)",
                                path, lineno, (long long)lim->max_record_bytes);
            break;
        }
        if (got == SMFW_LINE_NOMEM) {
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "%s:%ld: out of memory", path, lineno);
            break;
        }
        size_t n = line.len;
        while (n && (line.data[n - 1] == '\r')) line.data[--n] = '\0';
        if (n == 0) continue;
        if (++kept > lim->max_records) {
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "%s:%ld: more than %lld records (bundle.max_records)", path, lineno,
                                (long long)lim->max_records);
            break;
        }
        smfw_record rec;
        st = smfw_record_from_jsonl(line.data, n, &rec, err);
        if (st != SMFW_OK) {
            smfw_error_prefix(err, "%s:%ld", path, lineno);
            break;
        }
        items += (int64_t)rec.icl_len;
        if (items > lim->max_run_items) {
            smfw_record_clear(&rec);
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "%s:%ld: more than %lld inter_chunk_latency items in all "
                                "(bundle.max_run_items)",
                                path, lineno, (long long)lim->max_run_items);
            break;
        }
        st = smfw_results_add_record(r, &rec, err);
        if (st != SMFW_OK) break;
    }
    smfw_buf_free(&line);
    fclose(fp);
    r->records_complete = 0;
    return st;
}
