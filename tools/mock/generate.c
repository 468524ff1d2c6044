/*
 * generate.c - the token scheduler and response writer.
 *
 * Token k is due at recv + TTFT + ITL_1 + ... + ITL_k (an absolute schedule,
 * so ITL does not drift); one libevent timer per answer fires when the next
 * token is due and sends every token that is due by then. The event base
 * uses EVENT_BASE_FLAG_PRECISE_TIMER (timerfd under epoll), so nothing
 * sleeps and thousands of answers interleave on one thread.
 *
 * Finalisation (ground truth, metrics, freeing) is deferred to the next
 * loop turn through the same timer, so it never runs inside the HTTP
 * layer's callbacks.
 *
 * --max-concurrency N: each endpoint (the OpenAI routes count as one) decodes
 * at most N answers at once, like a server with N batch slots. A request that
 * finds them all busy waits in a FIFO; its schedule (headers, TTFT, ITLs)
 * starts when a slot frees, so queueing shows up in the client's TTFT.
 */
#include "generate.h"

#include "capture.h"
#include "instance_types.h"
#include "prefix_cache.h"

#include <smfw/app.h>
#include <smfw/eventstream.h>
#include <smfw/sigv4.h>

#include <event2/event.h>
#include <event2/event_struct.h>
#include <stdlib.h>
#include <string.h>

#define GEN_MAX_HEADERS 16

typedef struct gen_lane gen_lane;

typedef struct mock_gen {
    mock_server *srv;
    gen_lane *lane;         /* --max-concurrency lane, NULL without a limit */
    int holds_slot;         /* counted in lane->active */
    int queued;             /* waiting in lane's queue */
    struct mock_gen *qnext; /* next in the queue */
    mock_request *req;
    mock_llm_answer ans;
    int streaming, eventstream, openai;
    double time_scale; /* the request's emulated instance type (instance_types.h); 1.0 */
    mock_fault_kind fault;
    long fault_at; /* token index at which a mid-stream fault strikes, -1 for none */
    long next;     /* next token to send */
    int64_t start_ns;
    int64_t due_ns; /* when token `next` is due */
    int64_t headers_ns;
    int headers_sent;
    int finalizing;
    int status;
    struct event *timer; /* = &timer_ev: embedded, no allocation per answer */
    struct event timer_ev;
    mock_truth truth;
    char variant[64];
    char component[80];
    double recv_unix;
    char *header_store; /* the extra headers' text, one allocation */
    const char *headers[GEN_MAX_HEADERS + 1];
    smfw_buf sse;    /* SSE bytes released this turn */
    smfw_buf frames; /* the same wrapped in PayloadPart frames */
} mock_gen;

static void gen_timer_cb(evutil_socket_t fd, short what, void *arg);

/* ---- decoding slots (--max-concurrency) -------------------------------------------------- */

struct gen_lane {
    char endpoint[80];
    long active;
    mock_gen *head, *tail;
};

struct mock_gen_slots {
    gen_lane lanes[MOCK_MAX_NAMES + 1];
    size_t count;
};

void mock_gen_slots_free(mock_gen_slots *slots) {
    free(slots);
}

static gen_lane *lane_for(mock_server *srv, const char *endpoint) {
    if (!srv->slots) {
        srv->slots = calloc(1, sizeof *srv->slots);
        if (!srv->slots) abort();
    }
    mock_gen_slots *sl = srv->slots;
    for (size_t i = 0; i < sl->count; i++)
        if (!strcmp(sl->lanes[i].endpoint, endpoint)) return &sl->lanes[i];
    if (sl->count == MOCK_MAX_NAMES + 1) return NULL; /* cannot happen: endpoints are bounded */
    gen_lane *l = &sl->lanes[sl->count++];
    snprintf(l->endpoint, sizeof l->endpoint, "%s", endpoint);
    return l;
}

static void gen_begin(mock_gen *g, int64_t base_ns);

/* A slot freed: the oldest waiting answers start now. */
static void lane_release(mock_server *srv, gen_lane *l) {
    l->active--;
    while (l->head && l->active < srv->opt.max_concurrency) {
        mock_gen *next = l->head;
        l->head = next->qnext;
        if (!l->head) l->tail = NULL;
        next->qnext = NULL;
        next->queued = 0;
        next->holds_slot = 1;
        l->active++;
        gen_begin(next, smfw_now_mono_ns());
    }
}

static void lane_unqueue(gen_lane *l, mock_gen *g) {
    mock_gen **pp = &l->head, *prev = NULL;
    while (*pp && *pp != g) {
        prev = *pp;
        pp = &(*pp)->qnext;
    }
    if (!*pp) return;
    *pp = g->qnext;
    if (l->tail == g) l->tail = prev;
    g->qnext = NULL;
    g->queued = 0;
}

static int64_t gen_sample_ms(mock_server *srv, const mock_latency *l) {
    double v = mock_rng_normal(&srv->rng, l->mean_ms, l->stddev_ms);
    return v <= 0 ? 0 : (int64_t)(v * 1e6);
}

/* A latency sample of this answer, scaled by its instance type's speed. */
static int64_t gen_sample(mock_gen *g, const mock_latency *l) {
    int64_t ns = gen_sample_ms(g->srv, l);
    return g->time_scale == 1.0 ? ns : (int64_t)((double)ns * g->time_scale);
}

static void gen_schedule(mock_gen *g, int64_t at_ns) {
    int64_t delta = at_ns - smfw_now_mono_ns();
    if (delta < 0) delta = 0;
    struct timeval tv = {(time_t)(delta / 1000000000), (suseconds_t)((delta % 1000000000) / 1000)};
    event_add(g->timer, &tv);
}

/* Come back on the next loop turn to write the ground truth and let the request go. */
static void gen_finalize_soon(mock_gen *g) {
    g->finalizing = 1;
    event_del(g->timer);
    event_active(g->timer, EV_TIMEOUT, 0);
}

static void gen_on_sent(mock_request *req, int64_t sent_ns, void *user) {
    mock_gen *g = user;
    (void)req;
    g->truth.last_byte_ns = sent_ns;
    gen_finalize_soon(g);
}

static void gen_on_abort(mock_request *req, void *user) {
    mock_gen *g = user;
    g->truth.last_byte_ns = req->last_sent_ns;
    gen_finalize_soon(g);
}

/* Data Capture of an answered invocation: the body is made again (it is deterministic); a
 * streamed answer has no captured output, as on SageMaker. */
static void gen_capture(mock_gen *g) {
    smfw_buf body = {0};
    const char *ct = NULL;
    if (!g->streaming) mock_llm_full_body(&g->ans, &body, &ct);
    mock_capture_record(g->srv->capture, g->req, g->truth.endpoint, g->variant, g->recv_unix,
                        g->streaming ? NULL
                        : body.data  ? body.data
                                     : "",
                        body.len, ct);
    smfw_buf_free(&body);
}

static void gen_finalize(mock_gen *g) {
    mock_server *srv = g->srv;
    mock_request *req = g->req;
    if (g->queued) lane_unqueue(g->lane, g); /* the client left while it waited */
    if (g->holds_slot) {
        g->holds_slot = 0;
        lane_release(srv, g->lane);
    }
    if (!g->streaming && g->truth.tokens > 0 && g->status == 200) {
        /* A buffered answer hands every token to the socket with its last byte. */
        g->truth.first_token_ns = g->truth.last_byte_ns;
    }
    g->truth.status = g->status;
    if (g->truth.session_id[0] && g->status == 200 && !g->ans.reasoning_only) {
        /* The answer's content, as the client reassembles it: every token sent, in order. */
        smfw_buf text = {0};
        for (long k = 0; k < g->truth.tokens; k++) {
            const char *tok = mock_llm_token(k);
            smfw_buf_puts(&text, tok);
        }
        smfw_sha256_hex(text.data ? text.data : "", text.len, g->truth.answer_sha256);
        smfw_buf_free(&text);
    }
    mock_groundtruth_write(srv->gt, &g->truth);
    free(g->truth.session_history);
    g->truth.session_history = NULL;
    if (srv->capture && !g->openai && g->status == 200) gen_capture(g);
    if (!g->openai && srv->metrics) {
        int64_t end = g->truth.last_byte_ns ? g->truth.last_byte_ns : smfw_now_mono_ns();
        mock_metrics_record(srv->metrics, g->truth.endpoint, g->variant,
                            g->component[0] ? g->component : NULL, g->recv_unix,
                            g->status ? g->status : 500, (double)(end - g->start_ns) / 1e3,
                            (double)(g->start_ns - g->truth.recv_ns) / 1e3);
    }
    free(g->header_store);
    smfw_buf_free(&g->sse);
    smfw_buf_free(&g->frames);
    event_del(g->timer);
    free(g);
    mock_request_finish(req);
}

/* ---- errors before any answer byte -------------------------------------------------------- */

static void gen_send_error(mock_gen *g, int status, const char *code, const char *message) {
    mock_request *req = g->req;
    g->status = status;
    if (g->openai) {
        json_t *o = json_pack("{s:{s:s,s:s,s:i}}", "error", "message", message, "type", code,
                              "code", status);
        char *t = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        const char *h[] = {"Content-Type: application/json", NULL};
        mock_respond(req, status, h, t, strlen(t));
        free(t);
        return;
    }
    if (!strcmp(code, "ModelError")) {
        /* What SageMaker returns when the container answers 5xx (aws-wire §4.3). */
        char msg[1024], arn[256];
        snprintf(msg, sizeof msg,
                 "Received server error (500) from primary with message \"%s\". See "
                 "https://%s.console.aws.amazon.com/cloudwatch/home?region=%s#logEventViewer:"
                 "group=/aws/sagemaker/Endpoints/%s in account %s for more information.",
                 message, g->srv->opt.region, g->srv->opt.region, g->truth.endpoint,
                 g->srv->opt.account_id);
        snprintf(arn, sizeof arn, "arn:aws:logs:%s:%s:log-group:/aws/sagemaker/Endpoints/%s",
                 g->srv->opt.region, g->srv->opt.account_id, g->truth.endpoint);
        json_t *o = json_pack("{s:s,s:s,s:s,s:i,s:s,s:s}", "__type", "ModelError", "Message", msg,
                              "OriginalMessage", message, "OriginalStatusCode", 500, "LogStreamArn",
                              arn, "ErrorCode", "SERVER_ERROR_FROM_MODEL");
        char *t = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        const char *h[] = {"Content-Type: application/json", "x-amzn-ErrorType: ModelError", NULL};
        mock_respond(req, status, h, t, strlen(t));
        free(t);
        return;
    }
    mock_aws_error_send(req, MOCK_PROTO_RUNTIME, status, code, message, NULL);
}

/* ---- streaming ---------------------------------------------------------------------------- */

static const smfw_eventstream_header *payload_part_headers(size_t *n) {
    static smfw_eventstream_header hs[3];
    static int ready;
    if (!ready) {
        hs[0] = smfw_eventstream_header_string(":event-type", "PayloadPart");
        hs[1] = smfw_eventstream_header_string(":content-type", "application/octet-stream");
        hs[2] = smfw_eventstream_header_string(":message-type", "event");
        ready = 1;
    }
    *n = 3;
    return hs;
}

/* Append one event-stream message to g->frames. */
static void gen_frame(mock_gen *g, const smfw_eventstream_header *hs, size_t nh, const void *data,
                      size_t len, int corrupt) {
    size_t size = 0, out_len = 0;
    if (smfw_eventstream_encoded_size(hs, nh, len, &size, NULL) != SMFW_OK) return;
    if (g->frames.len + size + 1 > g->frames.cap) {
        size_t cap = g->frames.cap ? g->frames.cap : 1024;
        while (cap < g->frames.len + size + 1) cap *= 2;
        char *p = realloc(g->frames.data, cap);
        if (!p) abort();
        g->frames.data = p;
        g->frames.cap = cap;
    }
    uint8_t *dst = (uint8_t *)g->frames.data + g->frames.len;
    if (smfw_eventstream_encode(hs, nh, data, len, dst, size, &out_len, NULL) != SMFW_OK) return;
    if (corrupt) dst[out_len - 1] ^= 0x5A; /* a wrong message CRC: the client must reject it */
    g->frames.len += out_len;
}

/* Wrap the released SSE bytes in PayloadParts, cut where SageMaker might cut them. */
static void gen_frames_from_sse(mock_gen *g, int corrupt_last) {
    size_t nh;
    const smfw_eventstream_header *hs = payload_part_headers(&nh);
    g->frames.len = 0;
    const char *p = g->sse.data;
    size_t left = g->sse.len;
    if (g->srv->opt.split == MOCK_SPLIT_LINE) {
        /* One frame per SSE event ("\n\n"-terminated). */
        while (left) {
            const char *end = memmem(p, left, "\n\n", 2);
            size_t n = end ? (size_t)(end - p) + 2 : left;
            gen_frame(g, hs, nh, p, n, corrupt_last && n == left);
            p += n;
            left -= n;
        }
        return;
    }
    /* Random cuts: 1-3 frames per release, boundaries anywhere (even mid-line). */
    int pieces = 1 + (int)(mock_rng_next(&g->srv->rng) % 3);
    while (left) {
        size_t n = left;
        if (pieces > 1 && left > 1) n = 1 + (size_t)(mock_rng_next(&g->srv->rng) % (left - 1));
        pieces--;
        gen_frame(g, hs, nh, p, n, corrupt_last && n == left);
        p += n;
        left -= n;
    }
}

/* Hand the released bytes to the socket; stamp the first content token. */
static void gen_flush(mock_gen *g, int first_token_inside, int corrupt_last) {
    if (g->sse.len == 0) return;
    int64_t *stamp = first_token_inside ? &g->truth.first_token_ns : NULL;
    if (g->eventstream) {
        gen_frames_from_sse(g, corrupt_last);
        mock_respond_chunk(g->req, g->frames.data, g->frames.len, stamp);
    } else {
        mock_respond_chunk(g->req, g->sse.data, g->sse.len, stamp);
    }
    g->sse.len = 0;
}

static void gen_stream_fault(mock_gen *g) {
    mock_request *req = g->req;
    switch (g->fault) {
    case MOCK_FAULT_DROP:
        mock_request_drop(req);
        return;
    case MOCK_FAULT_STREAM_ERROR:
        if (g->eventstream) {
            static const char body[] =
                "{\"ErrorCode\":\"ModelInvocationTimeExceeded\",\"Message\":\"Model did not "
                "finish sending the response in time.\"}";
            smfw_eventstream_header hs[3] = {
                smfw_eventstream_header_string(":exception-type", "ModelStreamError"),
                smfw_eventstream_header_string(":content-type", "application/json"),
                smfw_eventstream_header_string(":message-type", "exception"),
            };
            g->frames.len = 0;
            gen_frame(g, hs, 3, body, sizeof body - 1, 0);
            mock_respond_chunk(req, g->frames.data, g->frames.len, NULL);
        } else {
            static const char ev[] = "data: {\"error\":{\"message\":\"simulated stream error\","
                                     "\"type\":\"InternalServerError\",\"code\":500}}\n\n";
            mock_respond_chunk(req, ev, sizeof ev - 1, NULL);
        }
        mock_respond_end(req);
        return;
    default:
        break;
    }
}

static void gen_stream_step(mock_gen *g) {
    int64_t now = smfw_now_mono_ns();
    if (!g->headers_sent) {
        if (now < g->headers_ns) {
            gen_schedule(g, g->headers_ns);
            return;
        }
        g->status = 200;
        g->headers_sent = 1;
        mock_respond_start(g->req, 200, g->headers);
    }
    int first_inside = 0;
    while (g->next < g->ans.tokens && g->due_ns <= now) {
        if (g->next == g->fault_at) {
            if (g->fault == MOCK_FAULT_CORRUPT_CRC) {
                /* This token goes out in a frame whose CRC is wrong; then the stream ends. */
                mock_llm_stream_token(&g->ans, g->next, &g->sse);
                gen_flush(g, first_inside, 1);
                mock_respond_end(g->req);
                return;
            }
            gen_flush(g, first_inside, 0);
            gen_stream_fault(g);
            return;
        }
        if (g->next == 0 && !g->ans.reasoning_only) first_inside = 1;
        mock_llm_stream_token(&g->ans, g->next, &g->sse);
        g->next++;
        if (!g->ans.reasoning_only) g->truth.tokens = g->next;
        if (g->next < g->ans.tokens) g->due_ns += gen_sample(g, &g->srv->opt.itl);
    }
    if (g->next >= g->ans.tokens) {
        if (g->ans.tokens == 0 && g->due_ns > now) {
            gen_schedule(g, g->due_ns); /* an empty answer still takes its TTFT */
            return;
        }
        if (g->ans.tokens == 0 && g->fault_at == 0) {
            if (g->fault == MOCK_FAULT_CORRUPT_CRC) {
                mock_llm_stream_tail(&g->ans, &g->sse);
                gen_flush(g, 0, 1);
                mock_respond_end(g->req);
            } else {
                gen_stream_fault(g);
            }
            return;
        }
        mock_llm_stream_tail(&g->ans, &g->sse);
        gen_flush(g, first_inside, 0);
        mock_respond_end(g->req);
        return;
    }
    gen_flush(g, first_inside, 0);
    gen_schedule(g, g->due_ns);
}

/* ---- buffered answers --------------------------------------------------------------------- */

static void gen_buffered_step(mock_gen *g) {
    int64_t now = smfw_now_mono_ns();
    int64_t at = g->due_ns > g->headers_ns ? g->due_ns : g->headers_ns;
    if (now < at) {
        gen_schedule(g, at);
        return;
    }
    if (g->fault == MOCK_FAULT_DROP) {
        mock_request_drop(g->req);
        return;
    }
    /* One body buffer for every buffered answer: mock_respond() copies it out at once. */
    static smfw_buf body;
    body.len = 0;
    const char *ct;
    mock_llm_full_body(&g->ans, &body, &ct);
    char ct_h[96];
    snprintf(ct_h, sizeof ct_h, "Content-Type: %s", ct);
    const char *hs[GEN_MAX_HEADERS + 2];
    size_t n = 0;
    hs[n++] = ct_h;
    for (size_t i = 0; g->headers[i]; i++) hs[n++] = g->headers[i];
    hs[n] = NULL;
    g->status = 200;
    g->truth.tokens = g->ans.reasoning_only ? 0 : g->ans.tokens;
    mock_respond(g->req, 200, hs, body.data, body.len);
    if (body.cap > 1 << 20) smfw_buf_free(&body); /* do not keep a huge one around */
}

static void gen_timer_cb(evutil_socket_t fd, short what, void *arg) {
    mock_gen *g = arg;
    (void)fd, (void)what;
    if (g->finalizing) {
        gen_finalize(g);
        return;
    }
    if (g->streaming)
        gen_stream_step(g);
    else
        gen_buffered_step(g);
}

void mock_gen_start(mock_server *srv, mock_request *req, const mock_gen_params *p) {
    mock_gen *g = calloc(1, sizeof *g);
    if (!g) abort();
    g->srv = srv;
    g->req = req;
    g->start_ns = smfw_now_mono_ns();
    g->recv_unix = mock_now_unix() - (double)(g->start_ns - req->recv_ns) / 1e9;
    g->streaming = p->streaming;
    g->eventstream = p->eventstream;
    g->openai = p->openai;
    g->time_scale = mock_instance_time_scale(p->llm.instance_type[0] ? p->llm.instance_type : NULL);
    g->timer = &g->timer_ev;
    event_assign(g->timer, srv->base, -1, 0, gen_timer_cb, g);
    snprintf(g->truth.inference_id, sizeof g->truth.inference_id, "%s", p->inference_id);
    snprintf(g->truth.endpoint, sizeof g->truth.endpoint, "%s", p->endpoint ? p->endpoint : "");
    snprintf(g->variant, sizeof g->variant, "%s", p->variant ? p->variant : "AllTraffic");
    snprintf(g->component, sizeof g->component, "%s", p->component ? p->component : "");
    g->truth.recv_ns = req->recv_ns;
    g->truth.arrival_ns = req->arrival_ns;
    if (p->session_id && *p->session_id) {
        snprintf(g->truth.session_id, sizeof g->truth.session_id, "%s", p->session_id);
        g->truth.session_turn = p->session_turn;
        g->truth.session_history =
            mock_session_history(req->body, req->body_len, &g->truth.session_messages);
    }
    size_t nh = 0, total = 0;
    for (size_t i = 0; p->headers && p->headers[i] && i < GEN_MAX_HEADERS; i++)
        total += strlen(p->headers[i]) + 1;
    if (total) {
        g->header_store = malloc(total);
        if (!g->header_store) abort();
    }
    char *hp = g->header_store;
    for (size_t i = 0; p->headers && p->headers[i] && nh < GEN_MAX_HEADERS; i++) {
        size_t l = strlen(p->headers[i]) + 1;
        memcpy(hp, p->headers[i], l);
        g->headers[nh++] = hp;
        hp += l;
    }
    g->headers[nh] = NULL;
    req->on_sent = gen_on_sent;
    req->on_abort = gen_on_abort;
    req->user = g;

    /* The answer: budget from --output-tokens, else the request's max tokens, else 16. */
    mock_llm_answer *a = &g->ans;
    a->req = p->llm;
    a->cached_tokens = g->truth.cached_tokens = -1; /* set below when the prefix cache is on */
    g->truth.prompt_tokens = a->req.prompt_tokens;
    long budget = p->llm.max_tokens ? p->llm.max_tokens : 16;
    a->tokens = srv->opt.output_tokens ? srv->opt.output_tokens : budget;
    if (a->tokens > budget && p->llm.max_tokens) a->tokens = budget;
    a->truncated = a->tokens >= budget;
    a->created = (long)mock_now_unix();
    char rid[37];
    mock_new_request_id(rid);
    snprintf(a->id, sizeof a->id, "%s%s", a->req.format == MOCK_LLM_CHAT ? "chatcmpl-" : "cmpl-",
             rid);
    if (!g->truth.inference_id[0])
        snprintf(g->truth.inference_id, sizeof g->truth.inference_id, "%s", a->id);

    g->fault = mock_fault_draw(srv, p->streaming, p->eventstream);
    g->truth.fault = g->fault;
    g->fault_at = -1;
    if (g->fault == MOCK_FAULT_EMPTY) a->tokens = 0;
    if (g->fault == MOCK_FAULT_REASONING_ONLY) a->reasoning_only = 1;

    if (g->fault == MOCK_FAULT_STREAM_ERROR || g->fault == MOCK_FAULT_CORRUPT_CRC ||
        (g->fault == MOCK_FAULT_DROP && p->streaming))
        g->fault_at = a->tokens / 2; /* mid-stream (or at once for 0-1 token answers) */

    switch (g->fault) {
    case MOCK_FAULT_HTTP_500:
        gen_send_error(g, 500, g->openai ? "InternalServerError" : "InternalFailure",
                       g->openai ? "Simulated error" : "An internal error occurred.");
        return;
    case MOCK_FAULT_THROTTLE:
        if (g->openai)
            gen_send_error(g, 429, "rate_limit_exceeded", "Rate limit reached (simulated)");
        else
            gen_send_error(g, 400, "ThrottlingException", "Rate exceeded");
        return;
    case MOCK_FAULT_MODEL_ERROR:
        gen_send_error(g, g->openai ? 500 : 424, "ModelError", "simulated model failure");
        return;
    default:
        break;
    }
    /* The prefix cache sees the prompts the model really computes (not those refused above). */
    if (srv->prefix_cache) {
        a->cached_tokens = mock_prefix_cache_admit(srv->prefix_cache, g->truth.endpoint, &a->req);
        g->truth.cached_tokens = a->cached_tokens;
    }
    if (srv->opt.max_concurrency > 0) {
        g->lane = lane_for(srv, g->truth.endpoint);
        if (g->lane && g->lane->active >= srv->opt.max_concurrency) {
            g->queued = 1;
            if (g->lane->tail)
                g->lane->tail->qnext = g;
            else
                g->lane->head = g;
            g->lane->tail = g;
            return;
        }
        if (g->lane) {
            g->lane->active++;
            g->holds_slot = 1;
        }
    }
    gen_begin(g, req->recv_ns);
}

/* The schedule, from base_ns (receipt, or when a decoding slot freed), then the first step. */
static void gen_begin(mock_gen *g, int64_t base_ns) {
    mock_server *srv = g->srv;
    g->due_ns = base_ns + gen_sample(g, &srv->opt.ttft);
    /* prefill: the prompt tokens the prefix cache did not hold */
    long uncached =
        g->ans.req.prompt_tokens - (g->ans.cached_tokens > 0 ? g->ans.cached_tokens : 0);
    if (srv->opt.prefill_ms_per_token > 0 && uncached > 0)
        g->due_ns +=
            (int64_t)(srv->opt.prefill_ms_per_token * g->time_scale * (double)uncached * 1e6);
    g->headers_ns = base_ns;
    if (g->fault == MOCK_FAULT_SLOW_HEADERS)
        g->headers_ns += (int64_t)srv->opt.slow_headers_ms * 1000000;
    if (!g->streaming) {
        /* Buffered: the body is ready when the last token would have been generated. */
        for (long k = 1; k < g->ans.tokens; k++) g->due_ns += gen_sample(g, &srv->opt.itl);
    }
    gen_timer_cb(-1, EV_TIMEOUT, g);
}
