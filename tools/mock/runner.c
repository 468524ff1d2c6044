/*
 * runner.c - how a benchmark job really runs: the WorkloadSpec's AIPerf
 * parameters become an smfw configuration (backend direct, dataset custom /
 * public / synthetic), smfw_run_execute() benchmarks this mock's own Runtime
 * endpoint over HTTP, once per concurrency level of a sweep, and the folder
 * becomes the AIPerf bundle: profile_export_aiperf.json/.csv,
 * profile_export.jsonl, inputs.json, outputs.json, benchmark_summary.txt,
 * failure_reason.txt when the 1% gate trips, logs/aiperf.log.
 *
 * Jobs run at once, each on its own worker thread with its own plugin
 * registry, configurations, results and log (a thread sink: the core's lines
 * from this thread go to this job's aiperf.log); a job's levels run one after
 * the other on its thread. The control plane's event loop keeps serving the
 * requests the jobs send, since only the worker threads wait.
 */
#include "instance_types.h"
#include "jobs.h"
#include "workload_params.h"

#include <smfw/results_layout.h>
#include <smfw/app.h>
#include <smfw/log.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define RUNNER_MAX_LEVELS 64

/* Shared by the jobs, read-only after mock_runner_new. */
struct mock_runner {
    char *sharegpt_file;
    int verbose;
};

mock_runner *mock_runner_new(const char *sharegpt_file, int verbose) {
    mock_runner *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->sharegpt_file = sharegpt_file ? strdup(sharegpt_file) : NULL;
    r->verbose = verbose;
    return r;
}

void mock_runner_free(mock_runner *r) {
    if (!r) return;
    free(r->sharegpt_file);
    free(r);
}

/* ---- the job's log (logs/aiperf.log) ------------------------------------------------------ */

typedef struct job_log {
    FILE *f;
    int verbose;
} job_log;

static void job_log_sink(smfw_log_level level, const char *line, void *user) {
    job_log *l = user;
    (void)level;
    if (l->f) {
        fprintf(l->f, "%s\n", line);
        fflush(l->f);
    }
    if (l->verbose) fprintf(stderr, "smfw-mock: job: %s\n", line);
}

static void job_note(job_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void job_note(job_log *l, const char *fmt, ...) {
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    char stamp[32];
    mock_iso8601(mock_now_unix(), stamp, 1);
    if (l->f) {
        fprintf(l->f, "%s smfw-mock: %s\n", stamp, line);
        fflush(l->f);
    }
    if (l->verbose) fprintf(stderr, "smfw-mock: job: %s\n", line);
}

/* ---- WorkloadSpec -> configuration -------------------------------------------------------- */

typedef struct job_plan {
    const mock_job_spec *spec;
    json_t *params;
    long levels[RUNNER_MAX_LEVELS];
    size_t n_levels; /* 0: no concurrency given (smfw's default) */
    int open_loop;   /* request_rate given: concurrency caps in-flight requests */
    const char *dataset;
    char dataset_file[4096];
    char reason[1024];
} job_plan;

static int plan_fail(job_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int plan_fail(job_plan *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->reason, sizeof p->reason, fmt, ap);
    va_end(ap);
    return -1;
}

static int is_whole(json_t *v, long long min) {
    if (json_is_integer(v)) return json_integer_value(v) >= min;
    double d = json_number_value(v);
    return json_is_real(v) && d == floor(d) && d >= (double)min && d < 9e15;
}

/* Text of a JSON scalar for smfw_config_set. */
static void scalar_text(json_t *v, char *out, size_t size) {
    if (json_is_integer(v))
        snprintf(out, size, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(out, size, "%.17g", json_real_value(v));
    else if (json_is_boolean(v))
        snprintf(out, size, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_string(v))
        snprintf(out, size, "%s", json_string_value(v));
    else
        snprintf(out, size, "?");
}

/* /opt/ml/input/data/<channel>/<file> -> the staged copy of that channel. */
static int map_input_file(job_plan *p, const char *in) {
    static const char root[] = "/opt/ml/input/data/";
    const mock_job_spec *s = p->spec;
    if (strncmp(in, root, sizeof root - 1) != 0)
        return plan_fail(p,
                         "ClientError: input_file %s is not under %s<channel>/ (the dataset "
                         "channels are mounted there)",
                         in, root);
    const char *ch = in + sizeof root - 1;
    size_t clen = strcspn(ch, "/");
    const char *rest = ch[clen] ? ch + clen + 1 : "";
    for (size_t i = 0; i < s->channel_count; i++) {
        if (strlen(s->channels[i].name) != clen || strncmp(s->channels[i].name, ch, clen) != 0)
            continue;
        char flat[1024];
        snprintf(flat, sizeof flat, "%s", rest);
        size_t n = strlen(flat);
        while (n && flat[n - 1] == '/') flat[--n] = '\0';
        for (char *c = flat; *c; c++)
            if (*c == '/') *c = '_';
        if (!flat[0] && s->channels[i].files == 1) {
            /* The channel folder itself: its one file. */
            snprintf(p->dataset_file, sizeof p->dataset_file, "%s", s->channels[i].local_dir);
            return 1;
        }
        snprintf(p->dataset_file, sizeof p->dataset_file, "%s/%s", s->channels[i].local_dir, flat);
        struct stat st;
        if (stat(p->dataset_file, &st) != 0 || !S_ISREG(st.st_mode))
            return plan_fail(p, "ClientError: input_file %s: no such file in channel %.*s", in,
                             (int)clen, ch);
        return 0;
    }
    return plan_fail(p,
                     "ClientError: input_file %s names channel \"%.*s\", which the workload "
                     "config's DatasetConfig does not have",
                     in, (int)clen, ch);
}

/* Read the WorkloadSpec: levels, dataset; every parameter checked by apply_params later. */
static int plan_read(job_plan *p, job_log *log) {
    json_error_t jerr;
    json_t *root = json_loads(p->spec->workload_spec, 0, &jerr);
    if (!json_is_object(root)) {
        json_decref(root);
        return plan_fail(p,
                         "ClientError: the WorkloadSpec is not a JSON object (%s at line %d); "
                         "smfw-mock reads JSON workload specs",
                         jerr.text, jerr.line);
    }
    const char *type =
        json_string_value(json_object_get(json_object_get(root, "benchmark"), "type"));
    if (!type || strcmp(type, "aiperf") != 0) {
        json_decref(root);
        return plan_fail(p, "ClientError: WorkloadSpec benchmark.type must be \"aiperf\", got %s",
                         type ? type : "nothing");
    }
    json_t *params = json_object_get(root, "parameters");
    p->params = json_is_object(params) ? json_incref(params) : json_object();
    json_decref(root);

    json_t *c = json_object_get(p->params, "concurrency");
    if (c) {
        json_t *one = json_is_array(c) ? NULL : c;
        size_t n = json_is_array(c) ? json_array_size(c) : 1;
        if (n == 0 || n > RUNNER_MAX_LEVELS)
            return plan_fail(p, "ClientError: WorkloadSpec parameter concurrency: expected an "
                                "integer above 0 or a list of 1 to 64 of them");
        for (size_t i = 0; i < n; i++) {
            json_t *v = one ? one : json_array_get(c, i);
            if (!is_whole(v, 1))
                return plan_fail(p, "ClientError: WorkloadSpec parameter concurrency: expected "
                                    "an integer above 0 or a list of them");
            p->levels[p->n_levels++] = (long)json_number_value(v);
        }
    }
    p->open_loop = json_object_get(p->params, "request_rate") != NULL;
    const char *input = json_string_value(json_object_get(p->params, "input_file"));
    const char *pub = json_string_value(json_object_get(p->params, "public_dataset"));
    if (input && pub)
        return plan_fail(p, "ClientError: WorkloadSpec sets both input_file and public_dataset");
    if (input) {
        p->dataset = "custom";
        if (map_input_file(p, input) < 0) return -1;
        job_note(log, "input_file %s is the staged %s", input, p->dataset_file);
    } else if (pub) {
        if (strcmp(pub, "sharegpt") != 0)
            return plan_fail(p,
                             "ClientError: public_dataset \"%s\" is not one AIPerf offers "
                             "(sharegpt)",
                             pub);
        p->dataset = "public";
    } else {
        p->dataset = "synthetic";
    }
    return 0;
}

static int cfg_set(job_plan *p, smfw_config *cfg, const char *section, const char *key,
                   const char *value, const char *param) {
    smfw_error err;
    smfw_error_clear(&err);
    if (smfw_config_set(cfg, section, key, value, SMFW_SOURCE_FLAG, param ? param : "smfw-mock", 0,
                        &err) != SMFW_OK)
        return plan_fail(p, "ClientError: WorkloadSpec parameter %s = %s: %s", param ? param : key,
                         value, err.message);
    return 0;
}

typedef enum want { W_NUM_POS, W_NUM_NONNEG, W_INT_POS, W_INT_NONNEG, W_BOOL, W_STRING } want;

static int check(job_plan *p, const char *name, json_t *v, want w) {
    double d = json_number_value(v);
    const char *what = NULL;
    switch (w) {
    case W_NUM_POS:
        if (!json_is_number(v) || !(d > 0) || !isfinite(d)) what = "a number above 0";
        break;
    case W_NUM_NONNEG:
        if (!json_is_number(v) || !(d >= 0) || !isfinite(d)) what = "a number of 0 or more";
        break;
    case W_INT_POS:
        if (!is_whole(v, 1)) what = "an integer above 0";
        break;
    case W_INT_NONNEG:
        if (!is_whole(v, 0)) what = "an integer of 0 or more";
        break;
    case W_BOOL:
        if (!json_is_boolean(v)) what = "true or false";
        break;
    case W_STRING:
        if (!json_is_string(v) || !*json_string_value(v)) what = "a non-empty string";
        break;
    }
    if (!what) return 0;
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    plan_fail(p, "ClientError: WorkloadSpec parameter %s = %s: expected %s", name,
              text ? text : "?", what);
    free(text);
    return -1;
}

/* Simple mappings: AIPerf parameter -> smfw section/key, with its type. */
static const struct {
    const char *param;
    want type;
    const char *section, *key;
    const char *suffix; /* durations: "s" */
} simple_params[] = {
    {"prompt_input_tokens_mean", W_NUM_POS, "dataset", "input_tokens_mean", NULL},
    {"prompt_input_tokens_stddev", W_NUM_NONNEG, "dataset", "input_tokens_stddev", NULL},
    {"output_tokens_mean", W_NUM_POS, "dataset", "output_tokens_mean", NULL},
    {"output_tokens_stddev", W_NUM_NONNEG, "dataset", "output_tokens_stddev", NULL},
    {"request_count", W_INT_POS, "run", "request_count", NULL},
    {"request_rate", W_NUM_POS, "run", "request_rate", NULL},
    {"benchmark_duration", W_NUM_POS, "run", "duration", "s"},
    {"benchmark_grace_period", W_NUM_NONNEG, "run", "grace_period", "s"},
    {"warmup_request_count", W_INT_NONNEG, "run", "warmup_request_count", NULL},
    {"warmup_duration", W_NUM_NONNEG, "run", "warmup_duration", "s"},
    {"streaming", W_BOOL, "run", "streaming", NULL},
    {"random_seed", W_INT_NONNEG, "run", "random_seed", NULL},
    {"request_timeout_seconds", W_NUM_POS, "backend.direct", "request_timeout", "s"},
};

/* Accepted, and said in the log not to change what the mock measures. */
static const struct {
    const char *param;
    want type;
    const char *why;
} noted_params[] = {
    {"tokenizer", W_STRING, "token counts come from the answers' usage"},
    {"use_server_token_count", W_BOOL, "token counts always come from the answers' usage"},
    {"slice_duration", W_NUM_POS, "no time-sliced exports are written"},
    {"warmup_concurrency", W_INT_POS, "the warm-up uses the profiling load shape"},
    {"warmup_request_rate", W_NUM_POS, "the warm-up uses the profiling load shape"},
    {"arrival_smoothness", W_NUM_POS, "only constant and poisson arrivals are emulated"},
    {"request_cancellation_delay", W_NUM_NONNEG, "requests are never cancelled"},
};

static int apply_params(job_plan *p, smfw_config *cfg, long level, job_log *log) {
    const char *name;
    json_t *v;
    char text[4200];
    json_object_foreach(p->params, name, v) {
        int done = 0;
        /* Unknown is the documented list's word (workload_params.c, as for CreateAIWorkloadConfig);
         * a listed name the mapping below lacks is the mock's gap, said so. */
        if (!workload_param_find(name))
            return plan_fail(p, "ClientError: unknown WorkloadSpec parameter \"%s\"", name);
        for (size_t i = 0; i < sizeof simple_params / sizeof simple_params[0] && !done; i++) {
            if (strcmp(simple_params[i].param, name) != 0) continue;
            done = 1;
            if (check(p, name, v, simple_params[i].type) < 0) return -1;
            scalar_text(v, text, sizeof text - 2);
            if (simple_params[i].suffix) strcat(text, simple_params[i].suffix);
            if (cfg_set(p, cfg, simple_params[i].section, simple_params[i].key, text, name) < 0)
                return -1;
        }
        for (size_t i = 0; i < sizeof noted_params / sizeof noted_params[0] && !done; i++) {
            if (strcmp(noted_params[i].param, name) != 0) continue;
            done = 1;
            if (check(p, name, v, noted_params[i].type) < 0) return -1;
            if (level == p->levels[0])
                job_note(log, "parameter %s accepted but not emulated: %s", name,
                         noted_params[i].why);
        }
        if (done) continue;
        if (!strcmp(name, "concurrency") || !strcmp(name, "input_file") ||
            !strcmp(name, "public_dataset")) {
            continue; /* read by plan_read */
        } else if (!strcmp(name, "request_rate_mode")) {
            const char *m = json_string_value(v);
            if (!m || (strcmp(m, "constant") && strcmp(m, "poisson")))
                return plan_fail(p,
                                 "ClientError: WorkloadSpec parameter request_rate_mode = %s: "
                                 "smfw-mock runs constant and poisson arrivals only",
                                 m ? m : "(not a string)");
            if (cfg_set(p, cfg, "run", "arrival", m, name) < 0) return -1;
        } else if (!strcmp(name, "extra_inputs") || !strcmp(name, "goodput")) {
            /* "k:v" or ["k:v", ...]; goodput is AIPerf's space-separated "tag:value ...". */
            size_t n = json_is_array(v) ? json_array_size(v) : 1;
            for (size_t i = 0; i < n; i++) {
                json_t *item = json_is_array(v) ? json_array_get(v, i) : v;
                if (check(p, name, item, W_STRING) < 0) return -1;
                snprintf(text, sizeof text, "%s", json_string_value(item));
                char *save = NULL;
                const char *sep = !strcmp(name, "goodput") ? " " : "";
                for (char *t = *sep ? strtok_r(text, sep, &save) : text; t;
                     t = *sep ? strtok_r(NULL, sep, &save) : NULL)
                    if (cfg_set(p, cfg, "run", name, t, name) < 0) return -1;
            }
        } else if (!strcmp(name, "custom_dataset_type")) {
            const char *t = json_string_value(v);
            if (!t || (strcmp(t, "single_turn") && strcmp(t, "multi_turn") &&
                       strcmp(t, "mooncake_trace")))
                return plan_fail(p,
                                 "ClientError: WorkloadSpec parameter custom_dataset_type = %s: "
                                 "smfw-mock reads single_turn, multi_turn and mooncake_trace",
                                 t ? t : "(not a string)");
            if (!strcmp(p->dataset, "custom") &&
                cfg_set(p, cfg, "dataset.custom", "format", t, name) < 0)
                return -1;
        } else if (!strcmp(name, "dataset_sampling_strategy")) {
            const char *s = json_string_value(v);
            if (!s || (strcmp(s, "sequential") && strcmp(s, "random") && strcmp(s, "shuffle")))
                return plan_fail(p,
                                 "ClientError: WorkloadSpec parameter dataset_sampling_strategy "
                                 "= %s: expected sequential, random or shuffle",
                                 s ? s : "(not a string)");
            if (cfg_set(p, cfg, "dataset", "dataset_sampling",
                        !strcmp(s, "sequential") ? "sequential" : "shuffle", name) < 0)
                return -1;
        } else if (!strcmp(name, "num_dataset_entries")) {
            if (check(p, name, v, W_INT_POS) < 0) return -1;
            scalar_text(v, text, sizeof text);
            if (!strcmp(p->dataset, "synthetic") &&
                cfg_set(p, cfg, "dataset.synthetic", "count", text, name) < 0)
                return -1;
        } else if (!strcmp(name, "request_cancellation_rate")) {
            if (check(p, name, v, W_NUM_NONNEG) < 0) return -1;
            if (json_number_value(v) > 0)
                return plan_fail(p, "ClientError: WorkloadSpec parameter "
                                    "request_cancellation_rate: smfw-mock does not cancel "
                                    "requests (use 0)");
        } else {
            return plan_fail(p,
                             "ClientError: WorkloadSpec parameter \"%s\" is not emulated by "
                             "smfw-mock",
                             name);
        }
    }
    return 0;
}

/* The whole configuration of one level. */
static int build_config(job_plan *p, const mock_runner *r, smfw_registry *reg, long level,
                        smfw_config **out, job_log *log) {
    const mock_job_spec *s = p->spec;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_config *cfg = NULL;
    if (smfw_config_new(reg, &cfg, &err) != SMFW_OK)
        return plan_fail(p, "InternalServerError: %s", err.message);
    *out = cfg;
    char text[64];
    if (cfg_set(p, cfg, "smfw", "backend", "direct", NULL) < 0 ||
        cfg_set(p, cfg, "smfw", "dataset", p->dataset, NULL) < 0 ||
        cfg_set(p, cfg, "smfw", "report", "json,csv", NULL) < 0 ||
        cfg_set(p, cfg, "smfw", "progress", "none", NULL) < 0 ||
        cfg_set(p, cfg, "run", "endpoint", s->endpoint, NULL) < 0 ||
        cfg_set(p, cfg, "run", "max_error_rate", "0.01", NULL) < 0 ||
        cfg_set(p, cfg, "aws", "endpoint_url", s->endpoint_url, NULL) < 0 ||
        cfg_set(p, cfg, "aws", "region", s->region, NULL) < 0 ||
        cfg_set(p, cfg, "aws", "max_attempts", "1", NULL) < 0)
        return -1;
    if (s->inference_component &&
        cfg_set(p, cfg, "run", "inference_component", s->inference_component, NULL) < 0)
        return -1;
    if (level > 0) {
        snprintf(text, sizeof text, "%ld", level);
        if (cfg_set(p, cfg, p->open_loop ? "backend.direct" : "run",
                    p->open_loop ? "max_concurrency" : "concurrency", text, "concurrency") < 0)
            return -1;
    }
    if (p->dataset_file[0] && cfg_set(p, cfg, "dataset", "dataset_file", p->dataset_file, NULL) < 0)
        return -1;
    /* A recommendation's job: the instance type rides in every request (instance_types.h). */
    if (s->instance_type) {
        snprintf(text, sizeof text, "%s:%s", MOCK_INSTANCE_TYPE_MEMBER, s->instance_type);
        if (cfg_set(p, cfg, "run", "extra_inputs", text, NULL) < 0) return -1;
    }
    if (!strcmp(p->dataset, "public") && r->sharegpt_file &&
        cfg_set(p, cfg, "dataset", "dataset_file", r->sharegpt_file, NULL) < 0)
        return -1;
    return apply_params(p, cfg, level, log);
}

/* ---- running ------------------------------------------------------------------------------ */

typedef struct level_result {
    long concurrency;
    smfw_status status;
    char message[1024];
    int gate_tripped;
    double valid, errors;
    double req_throughput, out_throughput, ttft_avg, ttft_p99, latency_avg;
} level_result;

static double stat_avg(const smfw_results *res, int m) {
    return res->stats[m].present ? res->stats[m].avg : NAN;
}

static void level_collect(level_result *lr, const smfw_results *res) {
    lr->valid = stat_avg(res, SMFW_M_REQUEST_COUNT);
    lr->errors = stat_avg(res, SMFW_M_ERROR_REQUEST_COUNT);
    if (isnan(lr->valid)) lr->valid = 0;
    if (isnan(lr->errors)) lr->errors = 0;
    lr->gate_tripped = res->info.gate_tripped;
    lr->req_throughput = stat_avg(res, SMFW_M_REQUEST_THROUGHPUT);
    lr->out_throughput = stat_avg(res, SMFW_M_OUTPUT_TOKEN_THROUGHPUT);
    lr->ttft_avg = stat_avg(res, SMFW_M_TIME_TO_FIRST_TOKEN);
    lr->ttft_p99 = res->stats[SMFW_M_TIME_TO_FIRST_TOKEN].present
                       ? res->stats[SMFW_M_TIME_TO_FIRST_TOKEN].p[SMFW_PERCENTILE_COUNT - 1]
                       : NAN;
    lr->latency_avg = stat_avg(res, SMFW_M_REQUEST_LATENCY);
}

/* Sweep: one summary over the levels, at the top of the bundle. */
static void write_sweep_summary(const char *dir, const mock_job_spec *s, const level_result *lv,
                                size_t n) {
    char path[4200];
    snprintf(path, sizeof path, "%s/benchmark_summary.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "smfw-mock benchmark job %s: concurrency sweep of %zu levels\n", s->job_name, n);
    fprintf(f, "target: endpoint %s%s%s at %s\n\n", s->endpoint,
            s->inference_component ? ", inference component " : "",
            s->inference_component ? s->inference_component : "", s->endpoint_url);
    fprintf(f, "%-12s %8s %7s %12s %14s %11s %11s %12s  %s\n", "concurrency", "requests", "errors",
            "requests/s", "out tokens/s", "TTFT avg", "TTFT p99", "latency avg", "status");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%-12ld %8.0f %7.0f %12.2f %14.2f %8.2f ms %8.2f ms %9.2f ms  %s\n",
                lv[i].concurrency, lv[i].valid + lv[i].errors, lv[i].errors, lv[i].req_throughput,
                lv[i].out_throughput, lv[i].ttft_avg, lv[i].ttft_p99, lv[i].latency_avg,
                lv[i].status == SMFW_OK ? "ok"
                : lv[i].gate_tripped    ? "validity gate tripped"
                                        : smfw_status_name(lv[i].status));
    fprintf(f, "\nEach level's files are in concurrency_<N>/.\n");
    fclose(f);
}

static void set_reason(mock_job_outcome *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_reason(mock_job_outcome *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->failure_reason, sizeof out->failure_reason, fmt, ap);
    va_end(ap);
    out->failed = 1;
}

static void run_levels(const mock_runner *r, smfw_registry *reg, job_plan *p, const char *bundle,
                       job_log *log, mock_job_outcome *out) {
    const mock_job_spec *s = p->spec;
    size_t n = p->n_levels ? p->n_levels : 1;
    level_result *lv = calloc(n, sizeof *lv);
    if (!lv) abort();
    size_t ran = 0;
    for (size_t i = 0; i < n; i++) {
        if (*s->stop_requested) break;
        level_result *lr = &lv[ran];
        lr->concurrency = p->n_levels ? p->levels[i] : 0;
        char dir[4200];
        if (p->n_levels > 1)
            snprintf(dir, sizeof dir, "%s/concurrency_%ld", bundle, lr->concurrency);
        else
            snprintf(dir, sizeof dir, "%s", bundle);
        smfw_config *cfg = NULL;
        if (build_config(p, r, reg, lr->concurrency, &cfg, log) < 0) {
            smfw_config_free(cfg);
            set_reason(out, "%s", p->reason);
            break;
        }
        if (lr->concurrency)
            job_note(log, "level %zu of %zu: concurrency %ld -> %s", i + 1, n, lr->concurrency,
                     dir);
        if (log->f) {
            fprintf(log->f, "effective settings (changed from the defaults):\n");
            smfw_config_dump(cfg, log->f, 1);
            fflush(log->f);
        }
        smfw_run_options ro;
        memset(&ro, 0, sizeof ro);
        ro.size = sizeof ro;
        ro.cancel = s->stop_requested;
        ro.output_dir = dir;
        smfw_results *res = NULL;
        smfw_error err;
        smfw_error_clear(&err);
        lr->status = smfw_run_execute(reg, cfg, &ro, &res, NULL, &err);
        snprintf(lr->message, sizeof lr->message, "%s", err.message);
        if (res) level_collect(lr, res);
        smfw_results_free(res);
        smfw_config_free(cfg);
        ran++;
        job_note(log, "level done: %s%s%s; %.0f requests, %.0f errors",
                 smfw_status_name(lr->status), lr->message[0] ? ": " : "", lr->message,
                 lr->valid + lr->errors, lr->errors);
        if (lr->status == SMFW_ERR_CANCELLED || *s->stop_requested) break;
        if (lr->status != SMFW_OK && lr->status != SMFW_ERR_VALIDITY && !lr->gate_tripped) {
            set_reason(out, "%s: %s%s%.700s",
                       lr->status == SMFW_ERR_CONFIG ? "ClientError" : "AlgorithmError",
                       p->n_levels > 1 ? "concurrency level failed: " : "", "", lr->message);
            break;
        }
    }
    if (p->n_levels > 1 && ran) write_sweep_summary(bundle, s, lv, ran);
    /* The gate: the first level over 1% fails the job (its bundle is still uploaded). */
    for (size_t i = 0; i < ran && !out->failed && !*s->stop_requested; i++) {
        if (!lv[i].gate_tripped && lv[i].status != SMFW_ERR_VALIDITY) continue;
        double total = lv[i].valid + lv[i].errors;
        char where[64] = "";
        if (p->n_levels > 1)
            snprintf(where, sizeof where, " at concurrency %ld", lv[i].concurrency);
        set_reason(out,
                   "AlgorithmError: Benchmark error rate %.2f%% (%.0f/%.0f) exceeds maximum 1%%%s. "
                   "The AIPerf output, with failure_reason.txt, is in output.tar.gz.",
                   total > 0 ? lv[i].errors * 100.0 / total : 0.0, lv[i].errors, total, where);
        if (p->n_levels > 1) {
            char path[4200];
            snprintf(path, sizeof path, "%s/failure_reason.txt", bundle);
            FILE *f = fopen(path, "w");
            if (f) {
                fprintf(f, "%s\n", out->failure_reason);
                fclose(f);
            }
        }
    }
    free(lv);
}

/* This job's own registry of smfw's plugins; NULL with the reason in `why`. */
static smfw_registry *job_registry(char *why, size_t size) {
    const char *dirs[16];
    size_t nd = smfw_registry_default_dirs(NULL, 0, NULL, 0, dirs, 16);
    smfw_registry *reg = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    if (smfw_registry_load(dirs, nd, &reg, &err) != SMFW_OK) {
        snprintf(why, size, "%s", err.message);
        return NULL;
    }
    if (!smfw_registry_find(reg, SMFW_PLUGIN_BACKEND, "direct")) {
        snprintf(why, size,
                 "smfw's direct backend plugin was not found (searched %zu plugin folders)", nd);
        smfw_registry_free(reg);
        return NULL;
    }
    return reg;
}

void mock_runner_run(const mock_job_spec *spec, mock_job_outcome *out, void *user) {
    const mock_runner *r = user;
    memset(out, 0, sizeof *out);
    if (*spec->stop_requested) {
        out->failed = 1;
        return;
    }
    char bundle[4200], logs[4300], logpath[4400];
    snprintf(bundle, sizeof bundle, "%s/output", spec->work_dir);
    snprintf(logs, sizeof logs, "%s/logs", bundle);
    /* Written beside the bundle and moved in at the end: smfw refuses a non-empty -o. */
    snprintf(logpath, sizeof logpath, "%s/aiperf.log", spec->work_dir);
    job_log log = {NULL, r->verbose};
    if (mock_mkdirs(spec->work_dir) == 0) log.f = fopen(logpath, "w");
    /* The level stays the process's (INFO: the mock never changes it). */
    smfw_log_set_thread_sink(job_log_sink, &log);

    job_note(&log, "benchmark job %s: endpoint %s%s%s at %s (region %s)", spec->job_name,
             spec->endpoint, spec->inference_component ? ", inference component " : "",
             spec->inference_component ? spec->inference_component : "", spec->endpoint_url,
             spec->region);
    if (spec->instance_type)
        job_note(&log,
                 "instance type %s (AI recommendation job): the mock's model answers %.3gx its "
                 "latencies; requests carry \"%s\"",
                 spec->instance_type, mock_instance_time_scale(spec->instance_type),
                 MOCK_INSTANCE_TYPE_MEMBER);
    if (log.f) fprintf(log.f, "WorkloadSpec:\n%s\n", spec->workload_spec);
    for (size_t i = 0; i < spec->channel_count; i++)
        job_note(&log, "channel %s: %zu file(s) staged in %s", spec->channels[i].name,
                 spec->channels[i].files, spec->channels[i].local_dir);

    char reg_error[512] = "";
    smfw_registry *reg = job_registry(reg_error, sizeof reg_error);
    job_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.spec = spec;
    if (!reg) {
        set_reason(out, "InternalServerError: cannot run the benchmark: %s", reg_error);
    } else if (plan_read(&plan, &log) < 0) {
        set_reason(out, "%s", plan.reason);
    } else {
        run_levels(r, reg, &plan, bundle, &log, out);
    }
    json_decref(plan.params);
    smfw_registry_free(reg);
    if (*spec->stop_requested) job_note(&log, "stopped (StopAIBenchmarkJob)");
    job_note(&log, "job %s: %s", out->failed ? "failed" : "completed",
             out->failed ? out->failure_reason : "all levels ran");
    smfw_log_set_thread_sink(NULL, NULL);
    if (log.f) fclose(log.f);
    char moved[4400];
    snprintf(moved, sizeof moved, "%s/aiperf.log", logs);
    if (mock_mkdirs(logs) == 0) rename(logpath, moved);

    char err[512];
    char tarball[4300];
    snprintf(tarball, sizeof tarball, "%s/output.tar.gz", spec->work_dir);
    if (mock_bundle_pack(bundle, tarball, err, sizeof err) == 0)
        snprintf(out->bundle_path, sizeof out->bundle_path, "%s", tarball);
    else if (!out->failed)
        set_reason(out, "InternalServerError: %s", err);
}
