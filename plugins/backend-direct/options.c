/*
 * options.c - resolve and validate the direct backend's settings.
 */
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/log.h>

#include "payload.h"

char *direct_strdup(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static char *get_str(const smfw_settings *s, const char *key) {
    const char *v = s ? smfw_settings_get(s, key) : NULL;
    return (v && *v) ? direct_strdup(v) : NULL;
}

static char **get_list(const smfw_settings *s, const char *key, size_t *n) {
    const char *const *items = NULL;
    *n = s ? smfw_settings_get_list(s, key, &items) : 0;
    if (*n == 0) return NULL;
    char **out = calloc(*n, sizeof *out);
    if (!out) {
        *n = 0;
        return NULL;
    }
    for (size_t i = 0; i < *n; i++) out[i] = direct_strdup(items[i]);
    return out;
}

static void free_list(char **l, size_t n) {
    for (size_t i = 0; i < n; i++) free(l[i]);
    free(l);
}

static int was_set(const smfw_settings *s, const char *key) {
    return s && smfw_settings_source(s, key, NULL, NULL) != SMFW_SOURCE_DEFAULT &&
           smfw_settings_has(s, key);
}

static char *read_file_text(const char *path, const char *what, smfw_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        smfw_error_set(err, SMFW_ERR_CONFIG, "cannot open %s %s: %s", what, path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) {
            char *q = realloc(buf, cap * 2);
            if (!q) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = q;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", path);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

static smfw_status parse_goodput(direct_options *o, const smfw_settings *run, smfw_error *err) {
    const char *const *items;
    size_t n = smfw_settings_get_list(run, "goodput", &items);
    return smfw_goodput_parse(items, n, &o->slos, &o->n_slos, err);
}

/* --fixed-schedule and --schedule-speedup: the recorded send times replace the load shape. */
static smfw_status fixed_schedule_load(const smfw_settings *own, const smfw_settings *run,
                                       direct_options *o, smfw_error *err) {
    o->fixed_schedule = own ? smfw_settings_get_bool(own, "fixed_schedule", 0) : 0;
    o->schedule_speedup = own ? smfw_settings_get_double(own, "schedule_speedup", 1.0) : 1.0;
    if (!(o->schedule_speedup > 0) || isinf(o->schedule_speedup))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--schedule-speedup must be a positive number (2 = twice as fast)");
    if (!o->fixed_schedule) {
        if (was_set(own, "schedule_speedup"))
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "--schedule-speedup scales a fixed schedule: add "
                                  "--fixed-schedule");
        return SMFW_OK;
    }
    if (o->request_rate > 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--fixed-schedule sends at the dataset's recorded times: drop "
                              "--request-rate (or --schedule-speedup to scale them)");
    if (was_set(run, "concurrency"))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--fixed-schedule sends at the dataset's recorded times: drop "
                              "--concurrency (--max-concurrency caps requests in flight)");
    if (was_set(run, "shard"))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--fixed-schedule runs in one process: --shard is not supported");
    if (was_set(run, "warmup_request_count") || was_set(run, "warmup_duration"))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--fixed-schedule replays the recording from its first request: "
                              "drop --warmup-request-count/--warmup-duration");
    o->arrival = DIRECT_ARRIVAL_FIXED;
    return SMFW_OK;
}

smfw_status direct_options_load(const smfw_settings *own, const smfw_config *config,
                                direct_options *o, smfw_error *err) {
    memset(o, 0, sizeof *o);
    o->config = config; /* where [aws] ca_bundle came from, for messages */
    const smfw_settings *run = smfw_config_section(config, "run");
    const smfw_settings *aws = smfw_config_section(config, "aws");
    const smfw_settings *ds = smfw_config_section(config, "dataset");
    if (!run) return smfw_error_set(err, SMFW_ERR_INTERNAL, "the core has no [run] section");

    o->endpoint = get_str(run, "endpoint");
    o->inference_component = get_str(run, "inference_component");
    o->target_variant = get_str(own, "target_variant");
    o->target_model = get_str(own, "target_model");
    o->target_container_hostname = get_str(own, "target_container_hostname");
    o->url = get_str(own, "url");
    o->api_key = get_str(own, "api_key");
    if (o->api_key) smfw_secret_register(o->api_key);
    o->headers = get_list(own, "header", &o->n_headers);
    o->model = get_str(own, "model");
    o->extra = get_list(run, "extra_inputs", &o->n_extra);
    o->tokenizer = get_str(run, "tokenizer");
    o->region = get_str(aws, "region");
    o->profile = get_str(aws, "profile");
    o->endpoint_url = get_str(aws, "endpoint_url");
    o->ca_bundle = get_str(aws, "ca_bundle");

    o->path = get_str(own, "endpoint_path");
    o->template_path = get_str(own, "template");
    o->response_field = get_str(own, "response_field");
    o->mock_binary = get_str(own, "mock_binary");
    o->mock_args = get_list(own, "mock_arg", &o->n_mock_args);
    o->include_usage = own ? smfw_settings_get_bool(own, "include_usage", 1) : 1;
    o->save_outputs = own ? smfw_settings_get_bool(own, "save_outputs", 1) : 1;
    o->late_threshold_s = own ? smfw_settings_get_duration(own, "late_threshold", 0.001) : 0.001;
    o->connect_timeout_s = own ? smfw_settings_get_duration(own, "connect_timeout", 10.0) : 10.0;
    {
        const char *f = own ? smfw_settings_get(own, "max_tokens_field") : NULL;
        if (!f || strcmp(f, "max_completion_tokens") == 0)
            o->use_max_tokens = 0;
        else if (strcmp(f, "max_tokens") == 0)
            o->use_max_tokens = 1;
        else
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "backend.direct.max_tokens_field must be max_completion_tokens "
                                  "or max_tokens, not \"%s\"",
                                  f);
    }

    /* Target and transport. */
    if (o->url && o->endpoint)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "give either --endpoint (SageMaker) or --url (OpenAI-compatible "
                              "server), not both");
    if (!o->url && !o->endpoint)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "nothing to benchmark: give --endpoint NAME (SageMaker), --url "
                              "http://host:port (OpenAI-compatible server) or --endpoint mock");
    o->transport = o->url ? DIRECT_TRANSPORT_HTTP : DIRECT_TRANSPORT_SAGEMAKER;
    o->mock = o->endpoint && strcmp(o->endpoint, "mock") == 0;
    if (o->transport == DIRECT_TRANSPORT_HTTP && (o->inference_component || o->target_variant ||
                                                  o->target_model || o->target_container_hostname))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--inference-component, --target-variant, --target-model and "
                              "--target-container-hostname address a SageMaker endpoint; they "
                              "cannot be used with --url");

    const char *et = smfw_settings_get(own, "endpoint_type");
    if (!et) et = "chat";
    if (direct_endpoint_type_parse(et, &o->endpoint_type) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "unknown endpoint type \"%s\" (chat, completions, embeddings, tgi, "
                              "template)",
                              et);
    o->streaming = smfw_settings_get_bool(run, "streaming", 1);
    if (o->endpoint_type == DIRECT_EP_EMBEDDINGS) {
        if (o->streaming && was_set(run, "streaming"))
            SMFW_LOG_WARN("direct", "embeddings are not streamed; running without streaming");
        o->streaming = 0;
    }
    if (o->target_model && o->streaming)
        return smfw_error_set(
            err, SMFW_ERR_CONFIG,
            "--target-model (multi-model endpoints) only works with "
            "InvokeEndpoint: add --no-streaming (InvokeEndpointWithResponseStream "
            "has no TargetModel)");
    if (o->endpoint_type == DIRECT_EP_TEMPLATE) {
        if (!o->template_path)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "--endpoint-type template needs --template FILE (a JSON body "
                                  "with {{prompt}} and {{max_tokens}} placeholders)");
        o->template_text = read_file_text(o->template_path, "payload template", err);
        if (!o->template_text) return err ? err->status : SMFW_ERR_CONFIG;
        if (!strstr(o->template_text, "{{prompt}}"))
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "payload template %s has no {{prompt}} placeholder",
                                  o->template_path);
    }
    smfw_status st = direct_extra_inputs_check((const char *const *)o->extra, o->n_extra, err);
    if (st != SMFW_OK) return st;

    /* Sessions (turns of a multi-turn dataset, sessions.h). */
    o->turn_delay_s = own ? smfw_settings_get_duration(own, "turn_delay", 0.0) : 0.0;
    if (o->turn_delay_s < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "--turn-delay must not be negative");
    o->sagemaker_sessions = own ? smfw_settings_get_bool(own, "sagemaker_sessions", 0) : 0;
    o->session_header = get_str(own, "session_header");
    if (!o->session_header) o->session_header = direct_strdup("X-Correlation-ID");
    if (!o->session_header) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (!*o->session_header || strpbrk(o->session_header, ": \t\r\n"))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--session-header wants a header name (e.g. X-Session-Id), not "
                              "\"%s\"",
                              o->session_header);
    o->session_close_path = get_str(own, "session_close_body");
    if (o->sagemaker_sessions && o->transport == DIRECT_TRANSPORT_HTTP)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--sagemaker-sessions opens SageMaker stateful sessions; with --url "
                              "use --session-header NAME for a router's session affinity");
    if (o->session_close_path && !o->sagemaker_sessions)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--session-close-body closes SageMaker stateful sessions: add "
                              "--sagemaker-sessions");
    if (o->session_close_path) {
        o->session_close_body = read_file_text(o->session_close_path, "session close body", err);
        if (!o->session_close_body) return err ? err->status : SMFW_ERR_CONFIG;
        o->session_close_len = strlen(o->session_close_body);
    }
    for (size_t i = 0; i < o->n_headers; i++) {
        const char *c = strchr(o->headers[i], ':');
        if (!c || c == o->headers[i])
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "header %zu is not \"Name: value\" (its text is not shown: it "
                                  "may hold a secret)",
                                  i + 1);
    }

    /* Load shape. */
    {
        const char *const *items = NULL;
        size_t n = smfw_settings_get_list(run, "concurrency", &items);
        o->concurrency = 10;
        if (n >= 1) {
            char *end = NULL;
            long long c = strtoll(items[0], &end, 10);
            if (!end || *end || c < 1)
                return smfw_error_set(err, SMFW_ERR_CONFIG,
                                      "concurrency must be a positive integer, not \"%s\"",
                                      items[0]);
            o->concurrency = c;
        }
        if (n > 1)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "the direct backend runs one concurrency at a time; use `smfw "
                                  "sweep --concurrency %s` for a list",
                                  smfw_settings_get(run, "concurrency"));
    }
    o->request_rate = smfw_settings_get_double(run, "request_rate", 0.0);
    if (o->request_rate < 0 || isnan(o->request_rate))
        return smfw_error_set(err, SMFW_ERR_CONFIG, "request rate must be positive");
    o->max_concurrency = smfw_settings_get_int(own, "max_concurrency", 0);
    if (o->max_concurrency < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "max concurrency must be positive");
    const char *arrival = smfw_settings_get(run, "arrival");
    if (o->request_rate > 0 && was_set(run, "concurrency")) {
        /* AIPerf reads --concurrency with a rate as the cap on requests in flight. */
        if (was_set(own, "max_concurrency"))
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "--concurrency and --max-concurrency both cap an open-loop run "
                                  "(--request-rate): give one of them");
        o->max_concurrency = o->concurrency;
        SMFW_LOG_INFO("direct",
                      "--concurrency %lld with --request-rate: at most %lld requests in flight "
                      "(as --max-concurrency)",
                      (long long)o->concurrency, (long long)o->concurrency);
    }
    if (o->request_rate > 0) {
        if (!arrival || strcmp(arrival, "poisson") == 0)
            o->arrival = DIRECT_ARRIVAL_POISSON;
        else if (strcmp(arrival, "constant") == 0)
            o->arrival = DIRECT_ARRIVAL_CONSTANT;
        else
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "arrival must be poisson or constant, not \"%s\"", arrival);
    } else {
        o->arrival = DIRECT_ARRIVAL_CLOSED;
        int fixed = own && smfw_settings_get_bool(own, "fixed_schedule", 0);
        if (o->max_concurrency && was_set(own, "max_concurrency") && !fixed)
            SMFW_LOG_WARN("direct", "--max-concurrency applies to open-loop runs (--request-rate); "
                                    "closed loop uses --concurrency");
    }
    st = fixed_schedule_load(own, run, o, err);
    if (st != SMFW_OK) return st;
    o->duration_s = smfw_settings_get_duration(run, "duration", 0.0);
    o->grace_s = smfw_settings_get_duration(run, "grace_period", 30.0);
    o->request_count = smfw_settings_get_int(run, "request_count", 300);
    if (o->duration_s > 0 && !was_set(run, "request_count")) o->request_count = 0;
    if (o->fixed_schedule && !was_set(run, "request_count")) {
        o->count_from_dataset = 1; /* set to the prompt count before the run */
        if (o->duration_s <= 0) o->request_count = 1;
    }
    if (o->request_count < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "request count must be positive");
    if (o->request_count == 0 && o->duration_s <= 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "the run has no end: give --request-count N or --duration TIME");
    o->warmup_request_count = smfw_settings_get_int(run, "warmup_request_count", 0);
    o->warmup_duration_s = smfw_settings_get_duration(run, "warmup_duration", 0.0);
    if (o->warmup_request_count < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "warm-up request count must be positive");
    o->request_timeout_s = smfw_settings_get_duration(own, "request_timeout", 600.0);
    if (o->request_timeout_s <= 0) o->request_timeout_s = 600.0;
    o->workers = (int)smfw_settings_get_int(own, "workers", 0);
    if (o->workers < 0 || o->workers > 1024)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "workers must be between 0 and 1024");
    o->seed = (uint64_t)smfw_settings_get_int(run, "random_seed", 42);
    o->max_error_rate = smfw_settings_get_double(run, "max_error_rate", 0.01);
    st = smfw_shard_parse(smfw_settings_get(run, "shard"), &o->shard, err);
    if (st != SMFW_OK) return st;
    o->request_count_total = o->request_count;
    if (o->shard.count > 1) {
        /* This process's share of the run; warm-up and duration are not split. */
        o->request_count = (int64_t)smfw_shard_share(&o->shard, (uint64_t)o->request_count);
        if (o->request_count_total > 0 && o->request_count == 0)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "shard %u/%u gets no request of the %lld: use fewer shards or "
                                  "more requests",
                                  o->shard.index, o->shard.count,
                                  (long long)o->request_count_total);
        o->concurrency = (int64_t)smfw_shard_share(&o->shard, (uint64_t)o->concurrency);
        if (o->concurrency < 1) o->concurrency = 1;
        if (o->max_concurrency) {
            o->max_concurrency = (int64_t)smfw_shard_share(&o->shard, (uint64_t)o->max_concurrency);
            if (o->max_concurrency < 1) o->max_concurrency = 1;
        }
        o->request_rate = smfw_shard_rate(&o->shard, o->request_rate);
    }
    if (o->transport == DIRECT_TRANSPORT_HTTP && !o->model && o->endpoint_type != DIRECT_EP_TGI &&
        o->endpoint_type != DIRECT_EP_TEMPLATE)
        SMFW_LOG_WARN("direct",
                      "no --model: the requests carry no \"model\" field, which vLLM, SGLang "
                      "and OpenAI refuse; pass --model NAME (the server's GET /v1/models lists "
                      "them)");
    o->output_tokens_mean = ds ? smfw_settings_get_double(ds, "output_tokens_mean", 256) : 256;
    o->output_tokens_stddev = ds ? smfw_settings_get_double(ds, "output_tokens_stddev", 16) : 16;
    return parse_goodput(o, run, err);
}

void direct_options_free(direct_options *o) {
    free(o->tokenizer);
    free(o->schedule_ns);
    free(o->endpoint);
    free(o->inference_component);
    free(o->target_variant);
    free(o->target_model);
    free(o->target_container_hostname);
    free(o->region);
    free(o->profile);
    free(o->endpoint_url);
    free(o->ca_bundle);
    if (o->aws) smfw_aws_client_free(o->aws);
    smfw_net_config_free(o->net); /* after the client, which borrows it */
    free(o->url);
    free(o->path);
    free(o->api_key);
    free_list(o->headers, o->n_headers);
    free(o->model);
    free(o->template_path);
    free(o->template_text);
    free(o->session_header);
    free(o->session_close_path);
    free(o->session_close_body);
    free(o->response_field);
    free_list(o->extra, o->n_extra);
    free(o->slos);
    free(o->mock_binary);
    free_list(o->mock_args, o->n_mock_args);
    memset(o, 0, sizeof *o);
}
