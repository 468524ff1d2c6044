/*
 * backend_direct.c - the "direct" backend plugin: smfw's own load generator.
 *
 * create() resolves and validates every setting (fail fast); run() builds the
 * payloads, writes inputs.json, runs the warm-up and profiling phases on the
 * engine while streaming records to profile_export.jsonl and texts to
 * outputs.json, then computes AIPerf's aggregates, checks itself, explains
 * failures, and writes benchmark_summary.txt (and failure_reason.txt when
 * the validity gate trips).
 */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include <smfw/backend.h>
#include <smfw/log.h>
#include <smfw/plugin.h>

#include "diagnose.h"
#include "engine.h"
#include "mock_launcher.h"
#include "options.h"
#include "outputs.h"
#include "payload.h"
#include "placement.h"
#include "retemplate.h"
#include "preflight.h"
#include "selfcheck.h"
#include "start_barrier.h"

#define S SMFW_SETTING_STRING
#define I SMFW_SETTING_INT
#define K SMFW_SETTING_SECRET
#define B SMFW_SETTING_BOOL
#define L SMFW_SETTING_LIST
#define T SMFW_SETTING_DURATION
#define P SMFW_SETTING_PATH
#define D SMFW_SETTING_DOUBLE

static const smfw_setting_decl direct_settings[] = {
    {"target_variant", S, NULL,
     "SageMaker production variant to pin (X-Amzn-SageMaker-Target-Variant)", "target-variant",
     NULL, 0, "VARIANT"},
    {"target_model", S, NULL, "multi-model endpoint artifact (non-streaming only)", "target-model",
     NULL, 0, "MODEL"},
    {"target_container_hostname", S, NULL, "multi-container endpoint: container to invoke",
     "target-container-hostname", NULL, 0, "HOST"},
    {"url", S, NULL, "OpenAI-compatible server base URL (http://host:port) instead of SageMaker",
     "url", "SMFW_URL", 'u', "URL"},
    {"api_key", K, NULL, "bearer key for an OpenAI-compatible server", "api-key", "OPENAI_API_KEY",
     0, "KEY"},
    {"header", L, NULL, "extra HTTP header \"Name: value\" (repeatable)", "header", NULL, 'H',
     "HEADER"},
    {"model", S, NULL, "model name sent in the request body (\"model\")", "model", "SMFW_MODEL",
     'm', "NAME"},
    {"endpoint_type", S, "chat", "payload shape: chat, completions, embeddings, tgi, template",
     "endpoint-type", NULL, 0, "TYPE"},
    {"max_concurrency", I, NULL, "open loop: cap on requests in flight", "max-concurrency", NULL, 0,
     "N"},
    {"request_timeout", T, "600s", "per-request timeout", "request-timeout", NULL, 0, "TIME"},
    {"workers", I, "0", "load-generator threads (0 = enough for the load, at most the core count)",
     "workers", NULL, 0, "N"},
    {"endpoint_path", S, NULL,
     "HTTP route appended to --url (default per endpoint type: /v1/chat/completions, "
     "/v1/completions, /v1/embeddings, /generate_stream)",
     "endpoint-path", NULL, 0, "PATH"},
    {"template", P, NULL,
     "payload template for --endpoint-type template: JSON with {{prompt}}, {{max_tokens}}, "
     "{{model}}, {{stream}} placeholders",
     "template", NULL, 0, "FILE"},
    {"response_field", S, "generated_text",
     "template: dotted path of the generated text in each response message (e.g. "
     "choices.0.text, 0.generated_text)",
     "response-field", NULL, 0, "PATH"},
    {"max_tokens_field", S, "max_completion_tokens",
     "chat: name of the output budget field (max_completion_tokens or max_tokens)",
     "max-tokens-field", NULL, 0, "NAME"},
    {"include_usage", B, "true",
     "streaming chat/completions: send stream_options.include_usage so the server reports token "
     "counts",
     "include-usage", NULL, 0, NULL},
    {"save_outputs", B, "true", "write every generated text to outputs.json", "save-outputs", NULL,
     0, NULL},
    {"late_threshold", T, "1ms",
     "self-check: a send later than this after its scheduled time counts as late", "late-threshold",
     NULL, 0, "TIME"},
    {"connect_timeout", T, "10s", "TCP/TLS connection timeout per request", "connect-timeout", NULL,
     0, "TIME"},
    {"mock_binary", P, NULL,
     "smfw-mock program for --endpoint mock (default: next to smfw, the build tree, PATH)",
     "mock-binary", "SMFW_MOCK", 0, "FILE"},
    {"mock_arg", L, NULL, "extra smfw-mock options for --endpoint mock (e.g. --ttft-ms=50)",
     "mock-arg", NULL, 0, "ARG"},
    {"fixed_schedule", B, "false",
     "send each request at its recorded offset from the first (timed datasets: capture "
     "inferenceTime, mooncake_trace timestamp); every timed prompt once unless --request-count",
     "fixed-schedule", NULL, 0, NULL},
    {"schedule_speedup", D, "1",
     "fixed schedule: divide the recorded offsets by this (2 = twice the original rate)",
     "schedule-speedup", NULL, 0, "F"},
    {"turn_delay", T, "0",
     "multi-turn sessions: wait this long after a turn's answer before the next turn, when the "
     "dataset gives the turn no delay",
     "turn-delay", NULL, 0, "TIME"},
    {"sagemaker_sessions", B, "false",
     "multi-turn sessions as SageMaker stateful sessions: the first turn opens one "
     "(InvokeEndpoint, NEW_SESSION), every later turn sends its id",
     "sagemaker-sessions", NULL, 0, NULL},
    {"session_close_body", P, NULL,
     "--sagemaker-sessions: request body that closes a session after its last turn (the "
     "container defines it)",
     "session-close-body", NULL, 0, "FILE"},
    {"session_header", S, "X-Correlation-ID",
     "--url with multi-turn sessions: header carrying one id per session on every turn (router "
     "affinity)",
     "session-header", NULL, 0, "NAME"},
    {"start_at", S, NULL,
     "start the profiling phase at this moment (RFC 3339 UTC, e.g. 2026-12-01T22:30:00Z, or "
     "+30s from now): every shard of a run begins together",
     "start-at", NULL, 0, "TIME"},
    SMFW_SETTINGS_END};

typedef struct direct_backend {
    direct_options opt;
    direct_start_barrier start;
    smfw_tokenizer *tok; /* --tokenizer, loaded before anything is sent */
} direct_backend;

static smfw_status direct_create(const smfw_settings *settings, const smfw_config *config,
                                 void **ctx, smfw_error *err) {
    direct_backend *b = calloc(1, sizeof *b);
    if (!b) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st = direct_options_load(settings, config, &b->opt, err);
    if (st == SMFW_OK)
        st = direct_start_barrier_parse(smfw_settings_get(settings, "start_at"), smfw_now_wall_ns(),
                                        &b->start, err);
    if (st == SMFW_OK) st = direct_preflight(&b->opt, err);
    if (st == SMFW_OK && b->opt.tokenizer) {
        smfw_error te;
        smfw_error_clear(&te);
        /* A SPEC naming nothing is a configuration error (exit 1), like a missing -C file;
         * a hub that cannot be reached keeps its network status (exit 2). */
        if (smfw_tokenizer_new(b->opt.tokenizer, &b->tok, &te) != SMFW_OK)
            st = smfw_error_set(err, te.status == SMFW_ERR_NOT_FOUND ? SMFW_ERR_CONFIG : te.status,
                                "--tokenizer %s: %s", b->opt.tokenizer, te.message);
    }
    if (st != SMFW_OK) {
        smfw_tokenizer_free(b->tok);
        direct_options_free(&b->opt);
        free(b);
        return st;
    }
    *ctx = b;
    return SMFW_OK;
}

static void direct_destroy(void *ctx) {
    direct_backend *b = ctx;
    if (!b) return;
    smfw_tokenizer_free(b->tok);
    direct_options_free(&b->opt);
    free(b);
}

static smfw_status direct_control(void *ctx, int op, void *arg) {
    (void)ctx;
    if (op == SMFW_BACKEND_CTL_NEEDS_PROMPTS) {
        *(int *)arg = 1; /* every request sends a prompt */
        return SMFW_OK;
    }
    return SMFW_ERR_UNSUPPORTED;
}

/* ---- payloads ---------------------------------------------------------------- */

/* Fixed schedule: the prompts in send-time order (ties keep the set's order); every prompt
 * needs a time. Returns the order (malloc'd) and the times in it. */
typedef struct timed_index {
    int64_t t;
    size_t i;
} timed_index;
static int by_timestamp(const void *a, const void *b) {
    const timed_index *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static smfw_status schedule_order(const smfw_prompt_set *ps, size_t **order, int64_t **times,
                                  smfw_error *err) {
    *order = malloc((ps->count ? ps->count : 1) * sizeof **order);
    *times = malloc((ps->count ? ps->count : 1) * sizeof **times);
    if (!*order || !*times) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < ps->count; i++) {
        if (ps->prompts[i].timestamp_ms < 0)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "--fixed-schedule needs a send time for every prompt, and %s "
                                  "prompt %zu has none (timed sources: --dataset capture, "
                                  "mooncake_trace lines with \"timestamp\")",
                                  ps->info.name, i + 1);
    }
    /* Sorted as (time, index) pairs: no shared state, so runs may sort at once. */
    timed_index *pairs = malloc((ps->count ? ps->count : 1) * sizeof *pairs);
    if (!pairs) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < ps->count; i++) pairs[i] = (timed_index){ps->prompts[i].timestamp_ms, i};
    qsort(pairs, ps->count, sizeof *pairs, by_timestamp);
    for (size_t i = 0; i < ps->count; i++) {
        (*order)[i] = pairs[i].i;
        (*times)[i] = pairs[i].t;
    }
    free(pairs);
    return SMFW_OK;
}

/* A Data Capture body goes out as it was captured, byte for byte. */
static smfw_status raw_payload(direct_payload *p, const smfw_prompt *pr, int64_t budget,
                               json_t **entry_body, smfw_error *err) {
    p->body = malloc(pr->text_len + 1);
    if (!p->body) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    memcpy(p->body, pr->text, pr->text_len + 1);
    p->len = pr->text_len;
    smfw_sha256_hex(p->body, p->len, p->sha256);
    p->max_tokens = budget;
    *entry_body = json_loadb(p->body, p->len, JSON_DECODE_ANY, NULL);
    if (!*entry_body) *entry_body = json_stringn(p->body, p->len); /* CSV */
    return SMFW_OK;
}

/* The payload settings of a run (strings borrowed from the options). */
static void payload_cfg(const direct_options *o, direct_payload_cfg *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->type = o->endpoint_type;
    cfg->model = o->model;
    cfg->streaming = o->streaming;
    cfg->include_usage = o->include_usage;
    cfg->use_max_tokens = o->use_max_tokens;
    cfg->template_text = o->template_text;
    cfg->extra = (const char *const *)o->extra;
    cfg->n_extra = o->n_extra;
}

/* A multi-turn dataset runs as conversations (sessions.h); what that needs is checked here. */
static smfw_status sessions_prepare(direct_options *o, const smfw_prompt_set *ps,
                                    direct_sessions *out, smfw_error *err) {
    o->sessions = direct_sessions_present(ps);
    if (!o->sessions) {
        if (o->sagemaker_sessions)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "--sagemaker-sessions needs a multi-turn dataset (multi_turn "
                                  "lines with several turns): %s has one request per prompt",
                                  ps->info.name);
        return SMFW_OK;
    }
    if (o->arrival == DIRECT_ARRIVAL_FIXED)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "a multi-turn dataset runs as conversations, started by "
                              "--concurrency N users or at --request-rate R; --fixed-schedule "
                              "replays single requests");
    if (o->shard.count > 1)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "a multi-turn dataset cannot be split with --shard yet: run its "
                              "conversations from one process");
    if (!strcmp(ps->info.format, "sagemaker_capture"))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "captured requests are replayed as they were, not as sessions");
    direct_payload_cfg cfg;
    payload_cfg(o, &cfg);
    smfw_status st = direct_sessions_build(ps, &cfg, out, err);
    if (st != SMFW_OK) return st;
    SMFW_LOG_INFO("direct", "%zu conversation%s of up to %zu turns, sent turn after turn%s", out->n,
                  out->n == 1 ? "" : "s", out->max_turns,
                  o->sagemaker_sessions ? " in SageMaker stateful sessions" : "");
    return SMFW_OK;
}

static smfw_status build_payloads(const direct_options *o, smfw_tokenizer *tok,
                                  const smfw_prompt_set *ps, direct_payload **out, json_t **inputs,
                                  int64_t **times, smfw_error *err) {
    direct_payload *p = calloc(ps->count, sizeof *p);
    json_t *data = json_array();
    size_t *order = NULL;
    *times = NULL;
    if (!p || !data) {
        free(p);
        json_decref(data);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    if (o->fixed_schedule) {
        smfw_status so = schedule_order(ps, &order, times, err);
        if (so != SMFW_OK) {
            free(order);
            free(*times);
            *times = NULL;
            free(p);
            json_decref(data);
            return so;
        }
    }
    int raw = !strcmp(ps->info.format, "sagemaker_capture");
    direct_payload_cfg cfg;
    payload_cfg(o, &cfg);
    direct_rng rng;
    direct_rng_seed(&rng, o->seed, 0xB0D9);
    smfw_status st = SMFW_OK;
    for (size_t i = 0; i < ps->count && st == SMFW_OK; i++) {
        const smfw_prompt *pr = &ps->prompts[order ? order[i] : i];
        int64_t budget = pr->output_length;
        if (budget <= 0 && o->output_tokens_mean > 0)
            budget = (int64_t)ceil(
                direct_rng_normal(&rng, o->output_tokens_mean, o->output_tokens_stddev));
        if (budget < 1 && o->output_tokens_mean > 0) budget = 1;
        json_t *body = NULL;
        char *prompt = NULL; /* a captured body's prompt, when it is re-templated */
        if (raw && o->endpoint_type_set) {
            char where[64];
            snprintf(where, sizeof where, "capture entry %zu", (order ? order[i] : i) + 1);
            direct_endpoint_type was;
            st = direct_capture_prompt(pr->text, pr->text_len, where, &was, &prompt, err);
            if (st != SMFW_OK) break;
            if (was == o->endpoint_type) {
                free(prompt); /* already of that type: as captured */
                prompt = NULL;
            }
        }
        if (raw && !prompt) {
            st = raw_payload(&p[i], pr, budget, &body, err);
        } else if (prompt) {
            st = direct_payload_build_json(&cfg, prompt, NULL, budget, &body, err);
            free(prompt);
            if (st != SMFW_OK) break;
            st = direct_payload_fill(&p[i], body, budget, err);
        } else {
            st = direct_payload_build_json(&cfg, pr->text ? pr->text : "", pr->role, budget, &body,
                                           err);
            if (st != SMFW_OK) break;
            st = direct_payload_fill(&p[i], body, budget, err);
        }
        /* ISL as AIPerf counts it: the tokenizer over the prompt text, else the dataset's. A
         * captured body is a whole request, not a prompt: its own count stands. */
        p[i].input_tokens =
            tok && !raw ? smfw_tokenizer_count(tok, pr->text ? pr->text : "", pr->text_len, NULL)
            : pr->input_tokens >= 0 ? pr->input_tokens
                                    : smfw_estimate_tokens(pr->text, pr->text_len);
        p[i].turn_index = pr->turn_index;
        if (pr->session_id && *pr->session_id)
            snprintf(p[i].conversation_id, sizeof p[i].conversation_id, "%s", pr->session_id);
        else
            direct_uuid4(&rng, p[i].conversation_id);
        json_t *entry = json_object(), *payloads = json_array();
        json_array_append_new(payloads, body);
        json_object_set_new(entry, "session_id", json_string(p[i].conversation_id));
        json_object_set_new(entry, "payloads", payloads);
        json_array_append_new(data, entry);
    }
    free(order);
    if (st != SMFW_OK) {
        for (size_t i = 0; i < ps->count; i++) direct_payload_clear(&p[i]);
        free(p);
        json_decref(data);
        free(*times);
        *times = NULL;
        return st;
    }
    *out = p;
    *inputs = data;
    return SMFW_OK;
}

/* ---- run loop ------------------------------------------------------------------ */

#define TTFT_RING 512
/* Completions the recorder takes at a time: small, so the end of a phase waits little for it. */
#define RECORDER_BATCH 16
/* Finished requests waiting beyond which the run thread writes too. */
#define RECORDER_BACKLOG 4096

typedef struct run_state {
    direct_engine *eng;
    smfw_run_context *run;
    direct_outputs outputs;
    const char *phase_name;
    int64_t total;
    double total_s;
    int64_t start_ns;
    pthread_mutex_t ring_lock;  /* ttft ring: written by the recorder, read by progress */
    pthread_mutex_t write_lock; /* one writer of records/outputs at a time */
    double ttft_ring[TTFT_RING];
    size_t ttft_n, ttft_pos;
    pthread_t recorder;
    _Atomic int recorder_stop;
    int64_t done_hist[32]; /* done counts at 100 ms ticks for the recent rate */
    int64_t hist_ns[32];
    size_t hist_pos, hist_n;
    int64_t last_progress_ns;
    int64_t valid, errors, used_usage, chunks, estimated, tokenized;
    int64_t skew_s;
    char tok_src[300]; /* "tokenizer:<name>", each record's token_count_source with --tokenizer */
    int cancel_seen;
    smfw_status add_status;
    smfw_error add_err;
} run_state;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void progress_tick(run_state *rs, int force) {
    int64_t now = smfw_now_mono_ns();
    if (!force && now - rs->last_progress_ns < 100000000LL) return;
    rs->last_progress_ns = now;
    int64_t done = atomic_load(&rs->eng->done);
    rs->done_hist[rs->hist_pos] = done;
    rs->hist_ns[rs->hist_pos] = now;
    rs->hist_pos = (rs->hist_pos + 1) % 32;
    if (rs->hist_n < 32) rs->hist_n++;
    if (!rs->run->progress) return;
    smfw_progress p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.phase = rs->phase_name;
    p.done = done;
    p.total = rs->total;
    p.errors = atomic_load(&rs->eng->errors);
    p.in_flight = atomic_load(&rs->eng->in_flight);
    p.elapsed_s = (double)(now - rs->start_ns) / 1e9;
    p.total_s = rs->total_s;
    size_t oldest = rs->hist_n < 32 ? 0 : rs->hist_pos;
    double dt = (double)(now - rs->hist_ns[oldest]) / 1e9;
    p.requests_per_s = dt > 0 ? (double)(done - rs->done_hist[oldest]) / dt : 0;
    p.ttft_p50_ms = -1;
    double tmp[TTFT_RING];
    pthread_mutex_lock(&rs->ring_lock);
    size_t n_ttft = rs->ttft_n;
    memcpy(tmp, rs->ttft_ring, n_ttft * sizeof *tmp);
    pthread_mutex_unlock(&rs->ring_lock);
    if (n_ttft) {
        qsort(tmp, n_ttft, sizeof *tmp, cmp_double);
        p.ttft_p50_ms = smfw_percentile_linear(tmp, n_ttft, 50);
    }
    rs->run->progress(rs->run->progress_user, &p);
}

/* Write finished requests: the JSONL record (flushed per record: a crash keeps every finished
 * request), outputs.json, the counters. Takes at most `max` (0 = all) completions. */
static size_t drain(run_state *rs, size_t max, int wait_ms) {
    direct_completion *c = NULL;
    size_t n = direct_engine_take(rs->eng, &c, max, wait_ms);
    if (n == 0) {
        free(c);
        return 0;
    }
    pthread_mutex_lock(&rs->write_lock); /* one writer at a time */
    for (size_t i = 0; i < n; i++) {
        direct_completion *x = &c[i];
        if (!x->warmup) {
            if (x->ttft_ms >= 0) {
                pthread_mutex_lock(&rs->ring_lock);
                rs->ttft_ring[rs->ttft_pos] = x->ttft_ms;
                rs->ttft_pos = (rs->ttft_pos + 1) % TTFT_RING;
                if (rs->ttft_n < TTFT_RING) rs->ttft_n++;
                pthread_mutex_unlock(&rs->ring_lock);
            }
            if (x->server_skew_s != INT64_MIN) rs->skew_s = x->server_skew_s;
            if (x->tokenized && !x->is_error) {
                /* AIPerf's count: the tokenizer over the text (reasoning apart), here on the
                 * writer's thread, never on a load worker that is reading other responses. */
                smfw_tokenizer *tok = rs->eng->tok;
                long long osl = smfw_tokenizer_count(tok, x->text ? x->text : "",
                                                     x->text ? strlen(x->text) : 0, NULL);
                long long r = x->reasoning ? smfw_tokenizer_count(tok, x->reasoning,
                                                                  strlen(x->reasoning), NULL)
                                           : -1;
                smfw_record_set_output_tokens(x->rec, rs->eng->opt->streaming, osl, r);
                /* Both counts are the client's now: AIPerf's usage-discrepancy metrics. */
                smfw_record_set_usage_diffs(x->rec);
            }
            if (x->is_error) {
                rs->errors++;
            } else {
                rs->valid++;
                const char *src;
                if (x->tokenized) {
                    rs->tokenized++;
                    src = rs->tok_src;
                } else if (x->used_usage) {
                    rs->used_usage++;
                    src = "server_usage";
                } else if (x->estimated) {
                    rs->estimated++;
                    src = "estimated";
                } else {
                    rs->chunks++;
                    src = "content_chunks";
                }
                /* Here, not on the load worker: one more copy off the hot path. */
                if (rs->eng->opt->endpoint_type != DIRECT_EP_EMBEDDINGS)
                    smfw_record_set_text(x->rec, SMFW_RECORD_TOKEN_COUNT_SOURCE, src);
            }
            /* The text is kept for --tokenizer too; outputs.json has it only when asked. */
            int keep = rs->eng->opt->save_outputs;
            direct_outputs_add(&rs->outputs, x->rec, keep ? x->text : NULL,
                               keep ? x->reasoning : NULL);
            smfw_error e;
            smfw_status st = smfw_results_add_record(rs->run->results, x->rec, &e);
            if (st != SMFW_OK && rs->add_status == SMFW_OK) {
                rs->add_status = st;
                rs->add_err = e;
            }
        }
        direct_completion_clear(x);
    }
    direct_outputs_flush(&rs->outputs);
    /* A record that cannot be written (disk full): stop now, not after every request. */
    if (rs->add_status != SMFW_OK) atomic_store(&rs->eng->stop_issuing, 1);
    pthread_mutex_unlock(&rs->write_lock);
    free(c);
    return n;
}

/*
 * The recorder thread writes records while the load workers run, at the lowest CPU
 * priority: on a machine with few cores, serialising records must never delay a worker's
 * read of a response (that delay would be measured as latency). Whatever it has not written
 * when the phase ends, the run thread writes at normal priority.
 */
static void *recorder_main(void *arg) {
    run_state *rs = arg;
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19); /* this thread only (Linux) */
    while (!atomic_load(&rs->recorder_stop)) drain(rs, RECORDER_BATCH, 100);
    return NULL;
}

static void watch_cancel(run_state *rs) {
    volatile sig_atomic_t *cancel = rs->run->cancel;
    if (!cancel) return;
    int c = *cancel;
    if (c >= SMFW_CANCEL_STOP && rs->cancel_seen < SMFW_CANCEL_STOP) {
        atomic_store(&rs->eng->user_cancelled, 1);
        atomic_store(&rs->eng->stop_issuing, 1);
        rs->cancel_seen = SMFW_CANCEL_STOP;
        if (!rs->run->quiet)
            SMFW_LOG_WARN("direct",
                          "interrupted: no new requests; waiting up to %.0f s for those in flight "
                          "(Ctrl-C again to abort them)",
                          rs->eng->opt->grace_s);
    }
    if (c >= SMFW_CANCEL_ABORT && rs->cancel_seen < SMFW_CANCEL_ABORT) {
        atomic_store(&rs->eng->abort_all, 1);
        rs->cancel_seen = SMFW_CANCEL_ABORT;
    }
}

static smfw_status run_phase(run_state *rs, direct_phase phase, int64_t count, double duration_s,
                             double grace_s, smfw_error *err) {
    rs->phase_name = phase == DIRECT_PHASE_WARMUP ? "warmup" : "profiling";
    rs->total = count > 0 ? count : -1;
    rs->total_s = duration_s;
    rs->start_ns = smfw_now_mono_ns();
    rs->hist_n = rs->hist_pos = 0;
    smfw_status st = direct_engine_start_phase(rs->eng, phase, count, duration_s, grace_s, err);
    atomic_store(&rs->recorder_stop, 0);
    int recorder = st == SMFW_OK && pthread_create(&rs->recorder, NULL, recorder_main, rs) == 0;
    while (atomic_load(&rs->eng->workers_running) > 0) {
        watch_cancel(rs);
        if (!recorder) {
            drain(rs, 0, 100);
        } else if (direct_engine_backlog(rs->eng) > RECORDER_BACKLOG) {
            /* The recorder is starved (every core busy): write some at normal priority so
             * the backlog, and memory, stay bounded. */
            drain(rs, 4 * RECORDER_BATCH, 0);
        } else {
            struct timespec ts = {0, 20000000};
            nanosleep(&ts, NULL);
        }
        progress_tick(rs, 0);
    }
    if (recorder) {
        atomic_store(&rs->recorder_stop, 1);
        direct_engine_wake_takers(rs->eng);
        pthread_join(rs->recorder, NULL);
    }
    direct_engine_join_phase(rs->eng);
    drain(rs, 0, 0);
    progress_tick(rs, 1);
    return st;
}

/* ---- results metadata ------------------------------------------------------------ */

static void fill_info(smfw_results *r, const direct_options *o, const direct_engine *eng) {
    smfw_run_info *in = smfw_results_info_edit(r);
    char target[1024];
    if (o->transport == DIRECT_TRANSPORT_HTTP) {
        snprintf(target, sizeof target, "OpenAI-compatible server %s", eng->tr.shown_url);
        smfw_results_set_string(&in->url, eng->tr.shown_url);
    } else {
        snprintf(target, sizeof target, "SageMaker endpoint %s%s%s in %s%s",
                 o->mock ? "mock (local smfw-mock)" : o->endpoint,
                 o->inference_component ? ", inference component " : "",
                 o->inference_component ? o->inference_component : "", eng->tr.region,
                 o->streaming ? " (InvokeEndpointWithResponseStream)" : " (InvokeEndpoint)");
        smfw_results_set_string(&in->endpoint_name, o->endpoint);
        smfw_results_set_string(&in->inference_component, o->inference_component);
        smfw_results_set_string(&in->region, eng->tr.region);
        smfw_results_set_string(&in->url, eng->tr.shown_url);
    }
    smfw_results_set_string(&in->backend, "direct");
    smfw_results_set_string(&in->target, target);
    smfw_results_set_string(&in->model, o->model);
    smfw_results_set_string(&in->endpoint_type, direct_endpoint_type_name(o->endpoint_type));
    in->streaming = o->streaming;
    in->concurrency = o->arrival == DIRECT_ARRIVAL_CLOSED ? o->concurrency : o->max_concurrency;
    in->request_rate = o->request_rate;
    in->request_count_target = o->request_count;
    if (o->shard.count > 1) {
        char shard[24];
        smfw_results_set_string(&in->shard, smfw_shard_format(&o->shard, shard, sizeof shard));
    } else {
        smfw_results_set_string(&in->shard, NULL);
    }
    in->max_error_rate = o->max_error_rate;
    if (!in->smfw_version) smfw_results_set_string(&in->smfw_version, SMFW_VERSION_STRING);
    char ver[96];
    snprintf(ver, sizeof ver, "smfw-%s (aiperf-0.5.0 compatible)", SMFW_VERSION_STRING);
    smfw_results_set_string(&in->aiperf_version, ver);
    if (!in->schema_version) smfw_results_set_string(&in->schema_version, "1.0");
    if (!in->benchmark_id) {
        direct_rng rng;
        direct_rng_seed(&rng, (uint64_t)smfw_now_wall_ns(), 17);
        char id[40];
        direct_uuid4(&rng, id);
        smfw_results_set_string(&in->benchmark_id, id);
    }
}

static json_t *input_config_json(const direct_options *o, const direct_engine *eng) {
    json_t *ic = json_object(), *ep = json_object(), *lg = json_object(), *input = json_object();
    json_t *models = json_array();
    if (o->model) json_array_append_new(models, json_string(o->model));
    json_object_set_new(ep, "model_names", models);
    json_object_set_new(ep, "type", json_string(direct_endpoint_type_name(o->endpoint_type)));
    json_object_set_new(ep, "streaming", json_boolean(o->streaming));
    json_object_set_new(ep, "url", json_string(eng->tr.shown_url));
    json_object_set_new(ic, "endpoint", ep);
    if (o->n_extra) {
        json_t *extra = json_array();
        for (size_t i = 0; i < o->n_extra; i++) {
            const char *c = strchr(o->extra[i], ':');
            json_t *pair = json_array();
            json_array_append_new(pair, json_stringn(o->extra[i], (size_t)(c - o->extra[i])));
            json_error_t je;
            json_t *v = json_loads(c + 1, JSON_DECODE_ANY, &je);
            json_array_append_new(pair, v ? v : json_string(c + 1));
            json_array_append_new(extra, pair);
        }
        json_object_set_new(input, "extra", extra);
    }
    json_object_set_new(input, "random_seed", json_integer((json_int_t)o->seed));
    json_object_set_new(ic, "input", input);
    if (o->arrival == DIRECT_ARRIVAL_CLOSED) {
        json_object_set_new(lg, "concurrency", json_integer(o->concurrency));
        json_object_set_new(lg, "arrival_pattern", json_string("concurrency_burst"));
    } else if (o->arrival == DIRECT_ARRIVAL_FIXED) {
        json_object_set_new(lg, "arrival_pattern", json_string("fixed_schedule"));
        json_object_set_new(lg, "schedule_speedup", json_real(o->schedule_speedup));
        if (o->max_concurrency)
            json_object_set_new(lg, "concurrency", json_integer(o->max_concurrency));
    } else {
        json_object_set_new(lg, "request_rate", json_real(o->request_rate));
        json_object_set_new(
            lg, "arrival_pattern",
            json_string(o->arrival == DIRECT_ARRIVAL_POISSON ? "poisson" : "constant"));
        if (o->max_concurrency)
            json_object_set_new(lg, "concurrency", json_integer(o->max_concurrency));
    }
    if (o->request_count) json_object_set_new(lg, "request_count", json_integer(o->request_count));
    if (o->duration_s > 0) json_object_set_new(lg, "benchmark_duration", json_real(o->duration_s));
    if (o->warmup_request_count)
        json_object_set_new(lg, "warmup_request_count", json_integer(o->warmup_request_count));
    json_object_set_new(ic, "loadgen", lg);
    return ic;
}

/* ---- run ------------------------------------------------------------------------- */

/* The offsets of the fixed schedule, and its request count: every timed prompt once unless
 * --request-count asks for fewer. */
static smfw_status fixed_schedule_prepare(direct_options *o, const int64_t *times, size_t n,
                                          smfw_error *err) {
    o->schedule_ns = direct_schedule_offsets(times, n);
    if (!o->schedule_ns) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    o->n_schedule = n;
    if (o->count_from_dataset) {
        o->request_count = o->request_count_total = (int64_t)n; /* --duration may end it early */
    } else if (o->request_count > (int64_t)n) {
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--fixed-schedule sends each of the %zu timed prompts once: "
                              "--request-count %lld is more (drop it to send them all)",
                              n, (long long)o->request_count);
    }
    double span_s = n ? (double)o->schedule_ns[n - 1] / 1e9 / o->schedule_speedup : 0;
    SMFW_LOG_INFO("direct", "fixed schedule: %zu timed requests over %.3f s (speedup %g)", n,
                  span_s, o->schedule_speedup);
    return SMFW_OK;
}

static smfw_status direct_run(void *ctx, smfw_run_context *run, smfw_error *err) {
    direct_backend *b = ctx;
    direct_options *o = &b->opt;
    smfw_results *results = run->results;
    if (!run->prompts || run->prompts->count == 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "the direct backend needs prompts");
    if (run->dry_run) {
        SMFW_LOG_INFO("direct", "dry run: would send %lld requests to %s",
                      (long long)o->request_count, o->url ? "the --url server" : o->endpoint);
        return SMFW_OK;
    }
    direct_mock mock;
    memset(&mock, 0, sizeof mock);
    mock.pid = -1;
    mock.out_fd = -1;
    mock.in_fd = -1;
    direct_payload *payloads = NULL;
    json_t *inputs = NULL;
    direct_engine *eng = calloc(1, sizeof *eng);
    run_state *rs = calloc(1, sizeof *rs);
    direct_hints hints;
    memset(&hints, 0, sizeof hints);
    char *self_json = NULL;
    direct_placement placement = {0};
    direct_sessions sessions;
    memset(&sessions, 0, sizeof sessions);
    smfw_status st = SMFW_OK;
    char path[4096];
    if (!eng || !rs) {
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        goto out;
    }

    /* Before anything starts: a conversation dataset's refusals are configuration errors. */
    st = sessions_prepare(o, run->prompts, &sessions, err);
    if (st != SMFW_OK) goto out;
    if (o->mock) {
        if (!o->region) o->region = strdup("us-east-1");
        st = direct_mock_start(&mock, o->mock_binary, o->endpoint, o->region, o->mock_args,
                               o->n_mock_args, err);
        if (st != SMFW_OK) goto out;
        free(o->endpoint_url);
        o->endpoint_url = strdup(mock.url);
        SMFW_LOG_INFO("direct", "started smfw-mock at %s", mock.url);
    }
    int64_t *times = NULL;
    st = build_payloads(o, b->tok, run->prompts, &payloads, &inputs, &times, err);
    if (st != SMFW_OK) goto out;
    if (o->fixed_schedule) {
        st = fixed_schedule_prepare(o, times, run->prompts->count, err);
        free(times);
        if (st != SMFW_OK) goto out;
    }
    if (o->duration_s <= 0 && o->warmup_duration_s <= 0) {
        /* inputs.json holds what is sent: the warm-up's prompts, then the profiling ones. */
        size_t used = (size_t)(o->warmup_request_count + o->request_count_total);
        while (json_array_size(inputs) > used)
            json_array_remove(inputs, json_array_size(inputs) - 1);
    }
    st = direct_write_inputs_json(run->output_dir, inputs, err);
    if (st != SMFW_OK) goto out;
    st = direct_engine_init(eng, o, payloads, run->prompts->count, b->tok, run->cancel, err);
    if (st != SMFW_OK) goto out;
    if (o->sessions) eng->sessions = &sessions;
    if (o->mock) {
        st = direct_sagemaker_set_explicit_credentials(&eng->tr, mock.access_key_id,
                                                       mock.secret_access_key, err);
        if (st != SMFW_OK) goto out;
    }
    fill_info(results, o, eng);
    {
        json_t *ic = input_config_json(o, eng);
        st = smfw_results_set_input_config(results, ic);
        json_decref(ic);
        if (st != SMFW_OK) {
            smfw_error_set(err, st, "out of memory");
            goto out;
        }
    }
    snprintf(path, sizeof path, "%s/profile_export.jsonl", run->output_dir);
    st = smfw_results_open_jsonl(results, path, err);
    if (st != SMFW_OK) goto out;
    rs->eng = eng;
    rs->run = run;
    pthread_mutex_init(&rs->ring_lock, NULL);
    pthread_mutex_init(&rs->write_lock, NULL);
    rs->skew_s = INT64_MIN;
    snprintf(rs->tok_src, sizeof rs->tok_src, "tokenizer:%s",
             b->tok ? smfw_tokenizer_name(b->tok) : "");
    st = direct_outputs_open(&rs->outputs, run->output_dir, err);
    if (st != SMFW_OK) goto out;

    /* Warm-up: same load shape, results discarded, wait for all of it. */
    if (o->warmup_request_count > 0 || o->warmup_duration_s > 0) {
        st = run_phase(rs, DIRECT_PHASE_WARMUP, o->warmup_request_count, o->warmup_duration_s, 1e6,
                       err);
        if (st != SMFW_OK) goto out;
        if (eng->ff.tripped) {
            st = direct_failfast_error(&eng->ff, "warm-up", err);
            goto out;
        }
        eng->prompt_offset = atomic_load(&eng->issued);
    }
    direct_start_barrier_wait(&b->start, run->cancel, run->quiet);
    /* Where the load comes from, asked while it runs (a SageMaker endpoint, not the mock). */
    if (o->transport != DIRECT_TRANSPORT_HTTP && !o->mock)
        direct_placement_start(&placement, eng->tr.aws);
    double cpu0 = direct_process_cpu_s();
    int64_t t0 = smfw_now_mono_ns();
    smfw_run_info *info = smfw_results_info_edit(results);
    info->start_wall_ns = smfw_now_wall_ns();
    int profiled = 0;
    if (!(run->cancel && *run->cancel)) {
        st =
            run_phase(rs, DIRECT_PHASE_PROFILING, o->request_count, o->duration_s, o->grace_s, err);
        if (st != SMFW_OK) goto out;
        profiled = 1;
    }
    info->end_wall_ns = smfw_now_wall_ns();
    double wall_s = (double)(smfw_now_mono_ns() - t0) / 1e9;
    double cpu_s = direct_process_cpu_s() - cpu0;
    info->was_cancelled = rs->cancel_seen != 0;
    smfw_error e2;
    direct_outputs_close(&rs->outputs, &e2);
    smfw_results_close_jsonl(results, &e2);
    if (rs->add_status != SMFW_OK) {
        st = rs->add_status;
        *err = rs->add_err;
        goto out;
    }
    smfw_results_set_records_complete(results, 1);
    const char *src = rs->tokenized && rs->tokenized == rs->valid       ? rs->tok_src
                      : rs->used_usage && !rs->chunks && !rs->estimated ? "server_usage"
                      : rs->chunks && !rs->used_usage && !rs->estimated ? "content_chunks"
                      : rs->estimated && !rs->used_usage && !rs->chunks ? "estimated"
                      : rs->valid                                       ? "mixed"
                                                                        : NULL;
    smfw_results_set_string(&info->token_count_source, src);

    /* Self-check. */
    direct_selfcheck sc;
    if (profiled) {
        direct_selfcheck_collect(eng, wall_s, cpu_s, rs->valid + rs->errors, &sc);
    } else {
        /* Interrupted in the warm-up: no profiling to judge (its workers' CPU over a
         * zero-length phase read as "busy 21260760 %"). */
        memset(&sc, 0, sizeof sc);
    }
    self_json = direct_selfcheck_json(&sc);
    {
        json_t *obj = json_object();
        json_error_t je;
        json_t *client = self_json ? json_loads(self_json, 0, &je) : NULL;
        if (client) json_object_set_new(obj, "client", client);
        if (src) json_object_set_new(obj, "token_count_source", json_string(src));
        if (rs->skew_s != INT64_MIN)
            json_object_set_new(obj, "server_clock_skew_seconds", json_integer(rs->skew_s));
        /* Record times are monotonic stamps plus this offset: tools that compare them with
         * another process's CLOCK_MONOTONIC (smfw-mock's ground truth) subtract it. */
        json_object_set_new(obj, "wall_minus_monotonic_ns",
                            json_integer((json_int_t)eng->wall_offset_ns));
        json_object_set_new(obj, "start", direct_start_barrier_json(&b->start));
        json_t *where = direct_placement_finish(&placement, eng->tr.region);
        if (where) json_object_set_new(obj, "placement", where);
        st = smfw_results_set_client(results, obj);
        json_decref(obj);
        if (st != SMFW_OK) {
            smfw_error_set(err, st, "out of memory");
            goto out;
        }
    }
    if (sc.warning[0]) SMFW_LOG_WARN("direct", "client self-check: %s", sc.warning);

    st = smfw_results_compute(results, o->slos, o->n_slos, err);
    if (st != SMFW_OK && st != SMFW_ERR_VALIDITY) goto out;
    smfw_status gate = info->gate_tripped ? SMFW_ERR_VALIDITY : SMFW_OK;
    smfw_error ff_err;
    smfw_error_clear(&ff_err);
    if (eng->ff.tripped) {
        /* Not a measurement: the gate's verdict would blame the endpoint's error rate. */
        direct_failfast_error(&eng->ff, "profiling", &ff_err);
        smfw_results_set_string(&info->failure_reason, ff_err.message);
        gate = SMFW_OK;
    }

    direct_diagnose(results, o, eng->tr.region, rs->skew_s,
                    o->mock ? "smfw-mock" : (eng->tr.aws ? "the AWS provider chain" : NULL),
                    &hints);
    for (size_t i = 0; i < hints.n; i++) SMFW_LOG_WARN("direct", "%s", hints.lines[i]);
    st = direct_write_summary(run->output_dir, results, o, (const char *const *)hints.lines,
                              hints.n, sc.summary, err);
    if (st != SMFW_OK) goto out;
    if (gate == SMFW_ERR_VALIDITY) {
        st = direct_write_failure_reason(run->output_dir, results, err);
        if (st != SMFW_OK) goto out;
        char *why = direct_failure_reason_text(results);
        if (!info->failure_reason) smfw_results_set_string(&info->failure_reason, why);
        smfw_error_set(err, SMFW_ERR_VALIDITY, "%s", why ? why : "validity gate tripped");
        free(why);
    }
    if (eng->ff.tripped) {
        *err = ff_err;
        st = ff_err.status;
    } else if (info->was_cancelled) {
        /* Cancelled requests did not finish, and an interrupted run has no verdict. */
        int64_t cancelled = 0;
        for (size_t i = 0; i < smfw_results_record_count(results); i++) {
            const smfw_record_error *e = smfw_record_get_error(smfw_results_record(results, i));
            if (e && e->error_class == SMFW_ERRCLASS_CANCELLED) cancelled++;
        }
        int64_t finished = rs->valid + rs->errors - cancelled;
        char more[64] = "";
        if (cancelled)
            snprintf(more, sizeof more, ", %lld cancelled in flight", (long long)cancelled);
        st = smfw_error_set(err, SMFW_ERR_CANCELLED,
                            "interrupted%s: %lld requests finished%s; their records were written "
                            "(no validity verdict)",
                            profiled ? "" : " during the warm-up", (long long)finished, more);
    } else {
        st = gate;
    }
out:
    if (rs && rs->outputs.f) {
        smfw_error e3;
        direct_outputs_close(&rs->outputs, &e3);
    }
    if (eng && eng->sessions && o->sagemaker_sessions)
        SMFW_LOG_INFO("direct", "SageMaker sessions: %llu opened, %llu closed, %llu failed",
                      (unsigned long long)atomic_load(&eng->sessions_opened),
                      (unsigned long long)atomic_load(&eng->sessions_closed),
                      (unsigned long long)atomic_load(&eng->session_failures));
    json_decref(direct_placement_finish(&placement, NULL)); /* before its client goes */
    if (eng) direct_engine_free(eng);
    direct_sessions_free(&sessions);
    if (o->mock) direct_mock_stop(&mock);
    if (payloads) {
        for (size_t i = 0; i < run->prompts->count; i++) direct_payload_clear(&payloads[i]);
        free(payloads);
    }
    json_decref(inputs);
    direct_hints_free(&hints);
    free(self_json);
    free(eng);
    if (rs && rs->run) {
        pthread_mutex_destroy(&rs->ring_lock);
        pthread_mutex_destroy(&rs->write_lock);
    }
    free(rs);
    return st;
}

static const smfw_backend_ops direct_ops = {.size = sizeof(smfw_backend_ops),
                                            .create = direct_create,
                                            .run = direct_run,
                                            .destroy = direct_destroy,
                                            .control = direct_control};

SMFW_PLUGIN_DEFINE(smfw_backend_direct, SMFW_PLUGIN_BACKEND, "direct", SMFW_VERSION_STRING,
                   "smfw's own load generator: SageMaker Runtime (SigV4, event stream) or any "
                   "OpenAI-compatible server, AIPerf's metrics",
                   direct_settings, &direct_ops)
