/*
 * rpt_summary.c - the human summary of a run (header, headline table,
 * errors by class, validity verdict) shared by the markdown and html
 * reporters, so both say the same thing in the same words.
 */
#include "rpt.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

static void rpt_kv_add(rpt_kv *out, size_t *n, const char *key, const char *value) {
    if (!value || !*value || *n >= RPT_HEADER_MAX) return;
    out[*n].key = key;
    snprintf(out[*n].value, sizeof out[*n].value, "%s", value);
    (*n)++;
}

static void rpt_cat(char *dst, size_t size, const char *sep, const char *text) {
    if (!text || !*text) return;
    size_t len = strlen(dst);
    if (len >= size - 1) return;
    snprintf(dst + len, size - len, "%s%s", len ? sep : "", text);
}

/*
 * What AIPerf's input_config says about the target, for bundles whose run
 * info is empty: 0.5 (endpoint.model_names, endpoint.url) and 0.8+
 * (models.items[].name, endpoint.urls[]) shapes.
 */
typedef struct rpt_bundle_target {
    char model[160], url[256], type[32];
    int streaming; /* -1 unknown */
} rpt_bundle_target;

static void rpt_copy_json_str(char *dst, size_t size, json_t *v) {
    if (json_is_string(v) && !dst[0]) snprintf(dst, size, "%s", json_string_value(v));
}

static void rpt_bundle_target_read(const smfw_results *r, rpt_bundle_target *t) {
    memset(t, 0, sizeof *t);
    t->streaming = -1;
    json_t *cfg = smfw_results_input_config(r); /* borrowed */
    if (!cfg) return;
    json_t *ep = json_object_get(cfg, "endpoint");
    rpt_copy_json_str(t->model, sizeof t->model,
                      json_array_get(json_object_get(ep, "model_names"), 0));
    rpt_copy_json_str(
        t->model, sizeof t->model,
        json_object_get(json_array_get(json_object_get(json_object_get(cfg, "models"), "items"), 0),
                        "name"));
    rpt_copy_json_str(t->url, sizeof t->url, json_object_get(ep, "url"));
    rpt_copy_json_str(t->url, sizeof t->url, json_array_get(json_object_get(ep, "urls"), 0));
    rpt_copy_json_str(t->type, sizeof t->type, json_object_get(ep, "type"));
    json_t *st = json_object_get(ep, "streaming");
    if (json_is_boolean(st)) t->streaming = json_is_true(st);
}

/* A single-value statistic (avg), when the run has it. */
static int rpt_single(const smfw_results *r, smfw_metric_id id, double *out) {
    const smfw_stats *s = smfw_results_stat(r, id);
    if (s) *out = s->avg;
    return s != NULL;
}

void rpt_run_title(const smfw_results *r, char *out, size_t size) {
    const smfw_run_info *in = smfw_results_info(r);
    const char *name = in->run_name ? in->run_name : in->target ? in->target : NULL;
    if (!name && in->source_dir) {
        const char *slash = strrchr(in->source_dir, '/');
        name = slash && slash[1] ? slash + 1 : in->source_dir;
    }
    snprintf(out, size, "%s", name ? name : "results");
}

size_t rpt_run_header(const smfw_results *r, rpt_kv out[RPT_HEADER_MAX]) {
    const smfw_run_info *in = smfw_results_info(r);
    size_t n = 0;
    char line[512], tmp[256];
    rpt_bundle_target bt;
    rpt_bundle_target_read(r, &bt);
    const char *model = in->model ? in->model : bt.model[0] ? bt.model : NULL;
    const char *type = in->endpoint_type ? in->endpoint_type : bt.type[0] ? bt.type : NULL;
    int streaming = in->endpoint_type || bt.streaming < 0 ? in->streaming : bt.streaming;

    line[0] = '\0';
    rpt_cat(line, sizeof line, "; ", in->target);
    if (model) {
        snprintf(tmp, sizeof tmp, "model %s", model);
        rpt_cat(line, sizeof line, "; ", tmp);
    }
    if (type) {
        snprintf(tmp, sizeof tmp, "%s endpoint, %s", type,
                 streaming ? "streaming" : "not streaming");
        rpt_cat(line, sizeof line, "; ", tmp);
    }
    rpt_kv_add(out, &n, "What", line);

    line[0] = '\0';
    if (in->endpoint_name) {
        snprintf(tmp, sizeof tmp, "endpoint %s", in->endpoint_name);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    if (in->inference_component) {
        snprintf(tmp, sizeof tmp, "inference component %s", in->inference_component);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    rpt_cat(line, sizeof line, ", ", in->url ? in->url : bt.url[0] ? bt.url : NULL);
    if (in->region) {
        snprintf(tmp, sizeof tmp, "region %s", in->region);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    rpt_kv_add(out, &n, "Where", line);

    line[0] = '\0';
    int64_t start = in->start_wall_ns, end = in->end_wall_ns;
    double v;
    if (start <= 0 && rpt_single(r, SMFW_M_MIN_REQUEST_TIMESTAMP, &v)) start = (int64_t)v;
    if (end <= 0 && rpt_single(r, SMFW_M_MAX_RESPONSE_TIMESTAMP, &v)) end = (int64_t)v;
    if (start > 0) {
        rpt_utc_human(start, tmp);
        rpt_cat(line, sizeof line, "", tmp);
    }
    if (end > 0) {
        rpt_utc_human(end, tmp);
        rpt_cat(line, sizeof line, " to ", tmp);
    }
    if (rpt_single(r, SMFW_M_BENCHMARK_DURATION, &v)) {
        snprintf(tmp, sizeof tmp, "(benchmark duration %.2f s)", v);
        rpt_cat(line, sizeof line, " ", tmp);
    }
    rpt_kv_add(out, &n, "When", line);

    line[0] = '\0';
    if (in->backend) {
        snprintf(tmp, sizeof tmp, "%s backend", in->backend);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    if (in->concurrency > 0) {
        snprintf(tmp, sizeof tmp, "concurrency %lld", (long long)in->concurrency);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    if (in->request_rate > 0) {
        snprintf(tmp, sizeof tmp, "%g requests/s", in->request_rate);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    if (in->request_count_target > 0) {
        snprintf(tmp, sizeof tmp, "%lld requests", (long long)in->request_count_target);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    if (in->shard) {
        snprintf(tmp, sizeof tmp, "shard %s", in->shard);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    rpt_kv_add(out, &n, "How", line);

    line[0] = '\0';
    rpt_cat(line, sizeof line, "", in->dataset_name);
    if (in->dataset_file) {
        snprintf(tmp, sizeof tmp, "file %s", in->dataset_file);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    if (in->dataset_count >= 0 && (in->dataset_name || in->dataset_file)) {
        snprintf(tmp, sizeof tmp, "%lld prompts", (long long)in->dataset_count);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    if (in->dataset_token_lengths) {
        snprintf(tmp, sizeof tmp, "%s token lengths", in->dataset_token_lengths);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    if (in->dataset_sha256) {
        snprintf(tmp, sizeof tmp, "sha256 %.12s", in->dataset_sha256);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    rpt_kv_add(out, &n, "Dataset", line);
    rpt_kv_add(out, &n, "Token counts", in->token_count_source);
    rpt_kv_add(out, &n, "Run", in->run_name);
    rpt_kv_add(out, &n, "Job", in->job_name);

    line[0] = '\0';
    snprintf(tmp, sizeof tmp, "smfw %s", in->smfw_version ? in->smfw_version : smfw_version());
    rpt_cat(line, sizeof line, "", tmp);
    if (in->aiperf_version && strncmp(in->aiperf_version, "smfw-", 5) != 0) {
        snprintf(tmp, sizeof tmp, "AIPerf %s", in->aiperf_version);
        rpt_cat(line, sizeof line, ", ", tmp);
    }
    rpt_kv_add(out, &n, "Tool", line);
    rpt_kv_add(out, &n, "Source", in->source_dir);
    return n;
}

static void rpt_headline_add(const smfw_results *r, rpt_headline_row *out, size_t *n,
                             smfw_metric_id id, const char *label) {
    const smfw_stats *s = smfw_results_stat(r, id);
    if (!s || *n >= RPT_HEADLINE_MAX) return;
    const smfw_metric_info *info = smfw_metric_get(id);
    rpt_headline_row *row = &out[(*n)++];
    memset(row, 0, sizeof *row);
    row->label = label;
    row->unit = info ? info->display_unit : "";
    row->single =
        !(info && (info->kind == SMFW_METRIC_RECORD || info->kind == SMFW_METRIC_ERROR_RECORD));
    int decimals = (info && info->integer_valued && row->single) ? 0 : 2;
    if (s->fields & SMFW_STAT_AVG) rpt_human(s->avg, decimals, row->avg);
    if (row->single) return;
    /* p50, p90, p99 are percentiles 4, 6 and 8 of smfw_percentiles. */
    if (s->fields & (SMFW_STAT_P_FIRST << SMFW_P50)) rpt_human(s->p[SMFW_P50], 2, row->p50);
    if (s->fields & (SMFW_STAT_P_FIRST << SMFW_P90)) rpt_human(s->p[SMFW_P90], 2, row->p90);
    if (s->fields & (SMFW_STAT_P_FIRST << SMFW_P99)) rpt_human(s->p[SMFW_P99], 2, row->p99);
}

size_t rpt_headline(const smfw_results *r, rpt_headline_row out[RPT_HEADLINE_MAX]) {
    size_t n = 0;
    rpt_headline_add(r, out, &n, SMFW_M_OUTPUT_TOKEN_THROUGHPUT, "Output token throughput");
    rpt_headline_add(r, out, &n, SMFW_M_REQUEST_THROUGHPUT, "Request throughput");
    rpt_headline_add(r, out, &n, SMFW_M_TIME_TO_FIRST_TOKEN, "Time to first token");
    rpt_headline_add(r, out, &n, SMFW_M_INTER_TOKEN_LATENCY, "Inter-token latency");
    rpt_headline_add(r, out, &n, SMFW_M_REQUEST_LATENCY, "Request latency");
    rpt_headline_add(r, out, &n, SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER,
                     "Output token throughput per user");
    rpt_headline_add(r, out, &n, SMFW_M_OUTPUT_SEQUENCE_LENGTH, "Output sequence length");
    rpt_headline_add(r, out, &n, SMFW_M_INPUT_SEQUENCE_LENGTH, "Input sequence length");
    rpt_headline_add(r, out, &n, SMFW_M_GOODPUT, "Goodput");
    rpt_headline_add(r, out, &n, SMFW_M_GOOD_REQUEST_COUNT, "Good requests");
    rpt_headline_add(r, out, &n, SMFW_M_REQUEST_COUNT, "Successful requests");
    rpt_headline_add(r, out, &n, SMFW_M_ERROR_REQUEST_COUNT, "Failed requests");
    return n;
}

uint64_t rpt_errors_by_class(const smfw_results *r, uint64_t counts[SMFW_ERRCLASS_COUNT_]) {
    uint64_t total = 0;
    memset(counts, 0, sizeof(uint64_t) * SMFW_ERRCLASS_COUNT_);
    for (size_t i = 0; i < smfw_results_error_summary_count(r); i++) {
        const smfw_error_summary_entry *e = smfw_results_error_summary(r, i);
        int c = (int)e->error_class;
        if (c <= SMFW_ERRCLASS_NONE || c >= SMFW_ERRCLASS_COUNT_) c = SMFW_ERRCLASS_OTHER;
        counts[c] += e->count;
        total += e->count;
    }
    return total;
}

int rpt_verdict(const smfw_results *r, char *text, size_t size) {
    const smfw_run_info *in = smfw_results_info(r);
    double rate = smfw_results_error_rate(r);
    double limit = in->max_error_rate;
    uint64_t errors = 0, valid = 0;
    double v;
    if (rpt_single(r, SMFW_M_ERROR_REQUEST_COUNT, &v)) errors = (uint64_t)v;
    if (rpt_single(r, SMFW_M_REQUEST_COUNT, &v)) valid = (uint64_t)v;
    int valid_run = !in->gate_tripped && !(rate > limit);
    if (in->was_cancelled) {
        snprintf(text, size,
                 "INCOMPLETE: the run was cancelled; error rate %.2f %% (%llu failed of %llu)%s%s",
                 rate * 100.0, (unsigned long long)errors, (unsigned long long)(errors + valid),
                 in->failure_reason ? "; " : "", in->failure_reason ? in->failure_reason : "");
        return 0;
    }
    if (valid_run)
        snprintf(text, size,
                 "VALID: error rate %.2f %% (%llu failed of %llu requests) is within the %.2f %% "
                 "limit.",
                 rate * 100.0, (unsigned long long)errors, (unsigned long long)(errors + valid),
                 limit * 100.0);
    else if (rate > limit)
        snprintf(text, size,
                 "INVALID: error rate %.2f %% (%llu failed of %llu requests) exceeds the %.2f %% "
                 "limit%s%s",
                 rate * 100.0, (unsigned long long)errors, (unsigned long long)(errors + valid),
                 limit * 100.0, in->failure_reason ? ": " : ".",
                 in->failure_reason ? in->failure_reason : "");
    else
        snprintf(text, size, "INVALID: %s (error rate %.2f %%, %llu failed of %llu requests).",
                 in->failure_reason ? in->failure_reason : "the validity gate tripped",
                 rate * 100.0, (unsigned long long)errors, (unsigned long long)(errors + valid));
    return valid_run;
}

const char *rpt_file_description(const char *name) {
    static const struct {
        const char *name, *what;
    } files[] = {
        /* AIPerf's bundle files (smfw's json and csv reporters declare their own copies) */
        {"profile_export_aiperf.json", "summary statistics in AIPerf's JSON schema"},
        {"profile_export_aiperf.csv", "summary statistics in AIPerf's CSV layout"},
        {"profile_export.jsonl", "one line per request (AIPerf record schema)"},
        {"profile_export_raw.jsonl", "raw requests and responses"},
        {"inputs.json", "every payload sent"},
        {"smfw_run.json", "smfw run metadata"},
        {"failure_reason.txt", "why the managed job failed its validity gate"},
        {"gpu_telemetry_export.jsonl", "GPU telemetry samples"},
        {"smfw.log", "log of the run"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(files[i].name, name) == 0) return files[i].what;
    return NULL;
}
