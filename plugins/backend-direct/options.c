/*
 * options.c - resolve and validate the direct backend's settings.
 */
#include "options.h"

#include <errno.h>
#include <stddef.h>
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

#define OWN(key, type, field)                                                                      \
    { NULL, key, type, offsetof(direct_options, field), 0 }
#define RUN(key, type, field)                                                                      \
    { "run", key, type, offsetof(direct_options, field), 0 }
#define AWS(key, field)                                                                            \
    { "aws", key, SMFW_BIND_STRING, offsetof(direct_options, field), 0 }
#define DATASET(key, type, field)                                                                  \
    { "dataset", key, type, offsetof(direct_options, field), 0 }
#define LIST(section, key, field, count)                                                           \
    {                                                                                              \
        section, key, SMFW_BIND_LIST, offsetof(direct_options, field),                             \
            offsetof(direct_options, count)                                                        \
    }

/* Every plain setting the backend reads, bound by declaration: the defaults are the
 * declarations' (backend_direct.c and the core's [run]/[aws]/[dataset]), never restated. */
static const smfw_setting_binding direct_bindings[] = {
    RUN("endpoint", SMFW_BIND_STRING, endpoint),
    RUN("inference_component", SMFW_BIND_STRING, inference_component),
    RUN("tokenizer", SMFW_BIND_STRING, tokenizer),
    RUN("streaming", SMFW_BIND_BOOL, streaming),
    RUN("request_rate", SMFW_BIND_DOUBLE, request_rate),
    RUN("duration", SMFW_BIND_DURATION, duration_s),
    RUN("grace_period", SMFW_BIND_DURATION, grace_s),
    RUN("request_count", SMFW_BIND_INT64, request_count),
    RUN("warmup_request_count", SMFW_BIND_INT64, warmup_request_count),
    RUN("warmup_duration", SMFW_BIND_DURATION, warmup_duration_s),
    RUN("random_seed", SMFW_BIND_INT64, random_seed),
    RUN("max_error_rate", SMFW_BIND_DOUBLE, max_error_rate),
    LIST("run", "extra_inputs", extra, n_extra),
    AWS("region", region),
    AWS("profile", profile),
    AWS("endpoint_url", endpoint_url),
    AWS("ca_bundle", ca_bundle),
    DATASET("output_tokens_mean", SMFW_BIND_DOUBLE, output_tokens_mean),
    DATASET("output_tokens_stddev", SMFW_BIND_DOUBLE, output_tokens_stddev),
    OWN("target_variant", SMFW_BIND_STRING, target_variant),
    OWN("target_model", SMFW_BIND_STRING, target_model),
    OWN("target_container_hostname", SMFW_BIND_STRING, target_container_hostname),
    OWN("url", SMFW_BIND_STRING, url),
    OWN("api_key", SMFW_BIND_STRING, api_key),
    OWN("model", SMFW_BIND_STRING, model),
    OWN("endpoint_path", SMFW_BIND_STRING, path),
    OWN("template", SMFW_BIND_STRING, template_path),
    OWN("response_field", SMFW_BIND_STRING, response_field),
    OWN("mock_binary", SMFW_BIND_STRING, mock_binary),
    OWN("session_header", SMFW_BIND_STRING, session_header),
    OWN("session_close_body", SMFW_BIND_STRING, session_close_path),
    OWN("include_usage", SMFW_BIND_BOOL, include_usage),
    OWN("save_outputs", SMFW_BIND_BOOL, save_outputs),
    OWN("fixed_schedule", SMFW_BIND_BOOL, fixed_schedule),
    OWN("sagemaker_sessions", SMFW_BIND_BOOL, sagemaker_sessions),
    OWN("late_threshold", SMFW_BIND_DURATION, late_threshold_s),
    OWN("connect_timeout", SMFW_BIND_DURATION, connect_timeout_s),
    OWN("request_timeout", SMFW_BIND_DURATION, request_timeout_s),
    OWN("turn_delay", SMFW_BIND_DURATION, turn_delay_s),
    OWN("schedule_speedup", SMFW_BIND_DOUBLE, schedule_speedup),
    OWN("max_concurrency", SMFW_BIND_INT64, max_concurrency),
    OWN("workers", SMFW_BIND_INT, workers),
    LIST(NULL, "header", headers, n_headers),
    LIST(NULL, "mock_arg", mock_args, n_mock_args),
    SMFW_BINDINGS_END};

const smfw_setting_binding *direct_options_bindings(void) {
    return direct_bindings;
}

smfw_status direct_options_load(const smfw_settings *own, const smfw_config *config,
                                direct_options *o, smfw_error *err) {
    memset(o, 0, sizeof *o);
    o->config = config; /* where [aws] ca_bundle came from, for messages */
    const smfw_settings *run = smfw_config_section(config, "run");
    if (!run || !own)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "the direct backend has no settings");
    smfw_status st = smfw_settings_bind(own, direct_bindings, o, err);
    if (st != SMFW_OK) return st;
    o->seed = (uint64_t)o->random_seed;
    {
        const char *f = smfw_settings_get(own, "max_tokens_field");
        if (f && strcmp(f, "max_completion_tokens") == 0)
            o->use_max_tokens = 0;
        else if (f && strcmp(f, "max_tokens") == 0)
            o->use_max_tokens = 1;
        else
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "backend.direct.max_tokens_field must be max_completion_tokens "
                                  "or max_tokens, not \"%s\"",
                                  f ? f : "");
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

    o->endpoint_type_set = was_set(own, "endpoint_type");
    const char *et = smfw_settings_get(own, "endpoint_type");
    if (!et) et = "";
    if (direct_endpoint_type_parse(et, &o->endpoint_type) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "unknown endpoint type \"%s\" (chat, completions, embeddings, tgi, "
                              "template)",
                              et);
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
    st = direct_extra_inputs_check((const char *const *)o->extra, o->n_extra, err);
    if (st != SMFW_OK) return st;

    /* Sessions (turns of a multi-turn dataset, sessions.h). */
    if (o->turn_delay_s < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "--turn-delay must not be negative");
    if (!o->session_header || strpbrk(o->session_header, ": \t\r\n"))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--session-header wants a header name (e.g. X-Session-Id), not "
                              "\"%s\"",
                              o->session_header ? o->session_header : "");
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
        char *end = NULL;
        long long c = n >= 1 ? strtoll(items[0], &end, 10) : 0;
        if (n == 0 || !end || *end || c < 1)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "concurrency must be a positive integer, not \"%s\"",
                                  n ? items[0] : "");
        o->concurrency = c;
        if (n > 1)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "the direct backend runs one concurrency at a time; use `smfw "
                                  "sweep --concurrency %s` for a list",
                                  smfw_settings_get(run, "concurrency"));
    }
    if (o->request_rate < 0 || isnan(o->request_rate))
        return smfw_error_set(err, SMFW_ERR_CONFIG, "request rate must be positive");
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
        if (o->max_concurrency && was_set(own, "max_concurrency") && !o->fixed_schedule)
            SMFW_LOG_WARN("direct", "--max-concurrency applies to open-loop runs (--request-rate); "
                                    "closed loop uses --concurrency");
    }
    st = fixed_schedule_load(own, run, o, err);
    if (st != SMFW_OK) return st;
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
    if (o->warmup_request_count < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "warm-up request count must be positive");
    if (!(o->request_timeout_s > 0))
        return smfw_error_set(err, SMFW_ERR_CONFIG, "--request-timeout must be positive");
    if (o->workers < 0 || o->workers > 1024)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "workers must be between 0 and 1024");
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
    return parse_goodput(o, run, err);
}

void direct_options_free(direct_options *o) {
    smfw_settings_unbind(direct_bindings, o);
    free(o->schedule_ns);
    if (o->aws) smfw_aws_client_free(o->aws);
    smfw_net_config_free(o->net); /* after the client, which borrows it */
    free(o->template_text);
    free(o->session_close_body);
    free(o->slos);
    memset(o, 0, sizeof *o);
}
