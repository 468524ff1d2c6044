/*
 * engine.h - the load generator: worker threads, each one event loop on
 * libcurl's multi interface (socket-action + epoll + timerfd deadlines).
 *
 * A worker owns its curl multi handle, its epoll set, a timerfd armed on
 * absolute CLOCK_MONOTONIC deadlines (arrivals, curl timeouts, phase ends)
 * and a pool of request slots, each with a preconfigured easy handle and
 * reusable decoding buffers. The hot path (a network read) takes one
 * timestamp, feeds the framers and parsers in place and allocates nothing.
 * Finished requests become smfw_records handed to the run thread through a
 * queue (it writes the JSONL; workers never touch files).
 *
 * All state lives in the engine instance (no globals), so several runs may
 * coexist in one process (smfw-mock's benchmark jobs).
 */
#ifndef DIRECT_ENGINE_H
#define DIRECT_ENGINE_H

#include <curl/curl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#include <smfw/aws.h>
#include <smfw/buf.h>
#include <smfw/clock.h>
#include <smfw/eventstream.h>
#include <smfw/results.h>
#include <smfw/sigv4.h>
#include <smfw/tokenizer.h>

#include "failfast.h"
#include "options.h"
#include "payload.h"
#include "scheduler.h"
#include "sessions.h"
#include "stream.h"

struct direct_engine;
struct direct_worker;

/** A closed-loop user of a multi-turn run: the conversation it is in (sessions.h). */
typedef struct direct_user {
    int active;           /* in a conversation */
    size_t conv;          /* its index in the engine's sessions */
    size_t next_turn;     /* the turn to send next */
    json_t *history;      /* chat messages so far (user turns and the answers) */
    char session_id[260]; /* SageMaker stateful session id (at most 256, "" = none open yet) */
    char corr_id[40];     /* per-session id: X-Correlation-ID / --session-header */
    int64_t ready_ns;     /* when it may send next (INT64_MAX: a request is in flight) */
    direct_payload body;  /* the body in flight (owned) */
} direct_user;

/** How the body of a 200 response is read (chosen from its Content-Type). */
typedef enum direct_reader {
    DIRECT_READ_BODY = 0,   /**< whole body, one message at the end */
    DIRECT_READ_SSE,        /**< text/event-stream */
    DIRECT_READ_LINES,      /**< JSON lines (application/x-ndjson, jsonl) */
    DIRECT_READ_EVENTSTREAM /**< application/vnd.amazon.eventstream (SageMaker) */
} direct_reader;

/** One request in flight (and its reusable buffers). */
typedef struct direct_slot {
    CURL *easy;
    struct direct_worker *w;
    int busy;
    struct curl_slist *headers; /* kept across requests (HTTP: only the ids change) */
    char *hdr_request_id, *hdr_correlation_id; /* their values inside `headers` */
    /* the request */
    int64_t index; /* session_num */
    const direct_payload *payload;
    int64_t intended_ns, start_ns, start_wall_ns, ack_ns, end_ns;
    char request_id[40], correlation_id[40];
    /* one timestamp per network read, shared by every message of that read */
    int64_t stamp;
    uint64_t stamp_seq;
    /* response head */
    int status;
    char reason[64];
    char content_type[128];
    char amz_error_type[160];
    int64_t server_date; /* Date header, unix seconds (0 = none) */
    int headers_done;
    direct_reader reader;
    /* decoders */
    direct_sse sse;
    direct_lines lines;
    smfw_eventstream_decoder es;
    int es_ready;
    smfw_buf body; /* whole body (non-streaming) or error body (capped) */
    direct_acc acc;
    int cancelled; /* aborted by Ctrl-C (record 499) */
    char errbuf[CURL_ERROR_SIZE];
    /* multi-turn sessions: the user whose turn this is (NULL otherwise) */
    direct_user *user;
    int buffered; /* sent by InvokeEndpoint in a streaming run (a session's opening turn) */
    int is_close; /* the session close request (no record) */
    char new_session[260], closed_session[260]; /* the answer's session headers */
} direct_slot;

/** A waiting arrival (open loop) whose slot is not free yet. */
typedef struct direct_pending {
    int64_t intended_ns;
} direct_pending;

/** Loop-lag histogram: 1 µs buckets to 1 ms, then 100 µs to 100 ms, then overflow. */
#define DIRECT_LAG_BUCKETS (1000 + 990 + 1)
typedef struct direct_lag_hist {
    uint64_t counts[DIRECT_LAG_BUCKETS];
    uint64_t n;
    int64_t max_ns;
    double sum_ns;
} direct_lag_hist;

void direct_lag_add(direct_lag_hist *h, int64_t ns);
/** Approximate percentile (upper bucket edge) in ns. */
double direct_lag_percentile(const direct_lag_hist *h, double p);
void direct_lag_merge(direct_lag_hist *into, const direct_lag_hist *from);

/** Timer wakes the send lead is judged on (engine.c). */
#define DIRECT_WAKE_WINDOW 32

typedef struct direct_worker {
    int id;
    struct direct_engine *eng;
    pthread_t thread;
    int thread_started;
    CURLM *multi;
    int epfd, tfd;
    int64_t timer_armed;   /* deadline the timerfd is set to (0 = none) */
    int64_t curl_deadline; /* INT64_MAX = none */
    uint64_t action_seq;
    direct_slot **slots;
    size_t n_slots, n_busy;
    size_t max_slots; /* cap on in-flight (closed: share of concurrency) */
    direct_arrivals arrivals;
    int64_t next_arrival; /* INT64_MAX = none */
    direct_pending *pending;
    size_t pend_head, pend_len, pend_cap;
    direct_rng rng;
    char date_raw[64]; /* last Date header seen and its value (unix seconds) */
    int64_t date_value;
    struct direct_completion *local; /* finished, not yet handed to the run thread */
    size_t local_len, local_cap;
    int stop_local;
    int64_t grace_deadline;
    /* self-check */
    direct_lag_hist timer_lag; /* open loop: how late arrival deadlines were served */
    direct_lag_hist loop_busy; /* time from epoll return to the next wait (read delay bound) */
    direct_lag_hist send_lag;  /* actual send - intended send */
    /* Sends on time (engine.c, send_lead_update): the worker wakes this long before a due
     * arrival and polls without sleeping until it; the lead follows how late timer wakes were. */
    int64_t send_lead_ns;
    int64_t wake_late_ns[DIRECT_WAKE_WINDOW]; /* the last timer wakes, ns after the deadline */
    size_t wake_late_next;
    int64_t wake_late_max_ns; /* over the phase */
    double spin_s;            /* time spent polling for a due send (part of cpu_s) */
    int64_t poll_window_start_ns, poll_window_ns; /* the polling budget's window (engine.c) */
    int64_t poll_for_ns; /* the send the worker woke early for (polls until it), 0 = none */
    uint64_t sends, late_sends, dropped_arrivals, dropped_in_flight, slot_growths;
    double cpu_s;       /* CPU time of this thread in the last phase */
    direct_user *users; /* multi-turn sessions: one per slot (closed loop) */
    size_t n_users;
    char worker_name[32];
} direct_worker;

/** A finished request handed to the run thread. */
typedef struct direct_completion {
    smfw_record *rec; /* owned (smfw_record_new: the record's layout is the library's) */
    int warmup;
    int is_error;
    double ttft_ms;         /* < 0 unknown */
    int used_usage;         /* token counts came from server usage */
    int estimated;          /* token counts estimated from text (buffered, no usage) */
    int tokenized;          /* output tokens left to --tokenizer (counted from the text) */
    char *text, *reasoning; /* outputs.json (may be NULL) */
    int64_t server_skew_s;  /* measured Date - local clock, INT64_MIN unknown */
} direct_completion;

/** The SageMaker/HTTP specifics shared (read-only) by every worker. */
typedef struct direct_transport {
    direct_transport_kind kind;
    char *url;                      /* full request URL */
    char *shown_url;                /* url as it may be printed or written (smfw_url_redact) */
    char *host;                     /* Host header value as curl sends it */
    char *path;                     /* wire path (signed) */
    char *invoke_url, *invoke_path; /* SageMaker InvokeEndpoint (a session's opening turn) */
    char *auth_header;              /* "Authorization: Bearer ..." or NULL */
    /* SageMaker signing: the AWS client, or explicit credentials (smfw-mock) */
    smfw_aws_client *aws;
    int aws_borrowed; /* aws belongs to the options (direct_preflight) */
    smfw_sigv4_signer *signer;
    smfw_aws_credentials explicit_creds;
    char *explicit_akid, *explicit_secret;
    char *region;
    _Atomic int64_t clock_offset_s;
} direct_transport;

typedef enum direct_phase { DIRECT_PHASE_WARMUP = 0, DIRECT_PHASE_PROFILING = 1 } direct_phase;

typedef struct direct_engine {
    const direct_options *opt;
    direct_transport tr;
    const direct_payload *payloads;
    size_t n_payloads;
    direct_parse_cfg parse;
    /* fail-fast verdict on the phase's first completions (failfast.h) */
    direct_failfast ff;
    pthread_mutex_t ff_lock;
    _Atomic int ff_done;
    direct_worker *workers;
    int n_workers;
    /* --tokenizer (owned by the backend): used by whoever writes the records, one at a time */
    smfw_tokenizer *tok;
    volatile sig_atomic_t *cancel;
    /* CLOCK_REALTIME - CLOCK_MONOTONIC, measured once: every wall time of the run is a
     * monotonic stamp plus this, so records convert back to monotonic exactly. */
    int64_t wall_offset_ns;
    /* current phase */
    direct_phase phase;
    int64_t phase_start_ns;
    int64_t issue_end_ns; /* INT64_MAX = by count only */
    double grace_s;
    _Atomic int64_t next_index; /* next request index to claim */
    int64_t index_limit;        /* INT64_MAX = unlimited */
    int64_t prompt_offset;      /* profiling continues the prompt sequence after warm-up */
    _Atomic int stop_issuing;   /* 1 = stop (Ctrl-C), workers then wait up to the grace */
    _Atomic int abort_all;      /* 1 = abort in flight now (second Ctrl-C) */
    _Atomic int user_cancelled; /* the stop came from the user (records 499) */
    _Atomic int workers_running;
    _Atomic int64_t issued, done, errors, in_flight;
    /* completions */
    pthread_mutex_t qlock;
    pthread_cond_t qcond;
    direct_completion *queue;
    size_t qhead, qlen, qcap; /* queued: queue[qhead .. qhead + qlen) */
    int take_wake;            /* direct_engine_wake_takers() was called (under qlock) */
    int fatal;
    smfw_error fatal_err;
    /* multi-turn sessions (sessions.h), NULL when every prompt is a request of its own */
    const direct_sessions *sessions;
    _Atomic int64_t next_conversation; /* next conversation to claim in this phase */
    int64_t conversation_offset;       /* profiling continues after the warm-up's */
    _Atomic uint64_t sessions_opened, sessions_closed, session_failures;
} direct_engine;

/** Set up transport, workers and slots (nothing is sent). */
smfw_status direct_engine_init(direct_engine *eng, const direct_options *opt,
                               const direct_payload *payloads, size_t n_payloads,
                               smfw_tokenizer *tok, volatile sig_atomic_t *cancel, smfw_error *err);

/**
 * Start one phase's worker threads. count: requests to send (0 = unlimited),
 * duration_s: stop issuing after it (0 = none), grace_s: wait after the stop.
 */
smfw_status direct_engine_start_phase(direct_engine *eng, direct_phase phase, int64_t count,
                                      double duration_s, double grace_s, smfw_error *err);

/** Join the phase's threads (call after workers_running reached 0). */
void direct_engine_join_phase(direct_engine *eng);

/**
 * Take queued completions, oldest first: all of them (max = 0) or at most
 * `max`. Caller owns them (free each with direct_completion_clear() and the
 * array with free()). When none is queued, waits up to wait_ms for one, or
 * until direct_engine_wake_takers().
 */
size_t direct_engine_take(direct_engine *eng, direct_completion **out, size_t max, int wait_ms);
/** Completions queued and not yet taken. */
size_t direct_engine_backlog(direct_engine *eng);
/** Wake a thread waiting in direct_engine_take() (it returns what is queued, maybe nothing). */
void direct_engine_wake_takers(direct_engine *eng);
void direct_completion_clear(direct_completion *c);

void direct_engine_free(direct_engine *eng);

/* ---- transport (transport_http.c / transport_sagemaker.c) --------------- */

smfw_status direct_transport_init(direct_transport *tr, const direct_options *opt, smfw_error *err);
void direct_transport_free(direct_transport *tr);
/**
 * Request headers for one send (signed for SageMaker) into *out, which
 * becomes the slot's list: the previous one is freed, or, for HTTP, reused
 * with the new ids written in.
 */
smfw_status direct_transport_headers(direct_transport *tr, const direct_options *opt,
                                     direct_slot *slot, struct curl_slist **out, smfw_error *err);
smfw_status direct_http_headers(direct_transport *tr, const direct_options *opt, direct_slot *slot,
                                struct curl_slist **out, smfw_error *err);
smfw_status direct_sagemaker_headers(direct_transport *tr, const direct_options *opt,
                                     direct_slot *slot, struct curl_slist **out, smfw_error *err);
smfw_status direct_http_init(direct_transport *tr, const direct_options *opt, smfw_error *err);
smfw_status direct_sagemaker_init(direct_transport *tr, const direct_options *opt, smfw_error *err);
/** Use these credentials instead of the AWS chain (smfw-mock). Copies them. */
smfw_status direct_sagemaker_set_explicit_credentials(direct_transport *tr, const char *akid,
                                                      const char *secret, smfw_error *err);

/* ---- response handling (response.c) -------------------------------------- */

/** Reset a slot's response state before a send. */
void direct_response_reset(direct_slot *slot);
size_t direct_response_header_cb(char *data, size_t size, size_t n, void *userp);
size_t direct_response_write_cb(char *data, size_t size, size_t n, void *userp);
/** End of body: flush the framers (stamped `ts`). */
void direct_response_finish(direct_engine *eng, direct_slot *slot, int64_t ts);

/* ---- records (record_build.c) -------------------------------------------- */

/** Turn a finished slot into a completion (record + texts). */
smfw_status direct_record_build(direct_engine *eng, direct_slot *slot, CURLcode result,
                                direct_completion *out);

/** Classify a non-200 response (status, AWS error type, body) into the record's error. */
void direct_classify_http_error(direct_transport_kind kind, int status, const char *reason,
                                const char *amz_error_type, const char *body, size_t body_len,
                                smfw_error_class *cls, char *type, size_t type_size, char *message,
                                size_t message_size);

/** CLOCK_REALTIME - CLOCK_MONOTONIC now, in ns (best of several bracketed samples). */
int64_t direct_clock_offset_ns(void);

#endif /* DIRECT_ENGINE_H */
