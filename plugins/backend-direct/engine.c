/*
 * engine.c - worker threads and their event loops (see engine.h).
 */
#include "engine.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <smfw/log.h>
#include <smfw/net.h>

#define DIRECT_NO_DEADLINE INT64_MAX

/*
 * Requests started per loop pass. Starting one (signing, curl's request, the send) takes
 * ~0.1 ms; between two batches the loop reads whatever has arrived, so a burst of sends
 * (a closed loop refilling hundreds of slots) never holds up the timestamp of a response
 * that is already waiting. The deferral is not hidden: it is the send lag against the
 * intended send time (schedule_lag, *_from_intended).
 */
#define DIRECT_STARTS_PER_PASS 2

int64_t direct_clock_offset_ns(void) {
    /* The sample whose two monotonic reads are closest brackets the wall read best. */
    int64_t best = 0, width = INT64_MAX;
    for (int i = 0; i < 16; i++) {
        int64_t a = smfw_now_mono_ns(), r = smfw_now_wall_ns(), b = smfw_now_mono_ns();
        if (b - a < width) {
            width = b - a;
            best = r - (a + (b - a) / 2);
        }
    }
    return best;
}

/* ---- lag histogram ------------------------------------------------------- */

void direct_lag_add(direct_lag_hist *h, int64_t ns) {
    if (ns < 0) ns = 0;
    size_t b;
    int64_t us = ns / 1000;
    if (us < 1000)
        b = (size_t)us;
    else if (us < 100000)
        b = 1000 + (size_t)((us - 1000) / 100);
    else
        b = DIRECT_LAG_BUCKETS - 1;
    if (b >= DIRECT_LAG_BUCKETS) b = DIRECT_LAG_BUCKETS - 1;
    h->counts[b]++;
    h->n++;
    h->sum_ns += (double)ns;
    if (ns > h->max_ns) h->max_ns = ns;
}

double direct_lag_percentile(const direct_lag_hist *h, double p) {
    if (h->n == 0) return 0;
    uint64_t want = (uint64_t)((double)h->n * p / 100.0);
    if (want >= h->n) want = h->n - 1;
    uint64_t seen = 0;
    for (size_t b = 0; b < DIRECT_LAG_BUCKETS; b++) {
        seen += h->counts[b];
        if (seen > want) {
            double upper_us;
            if (b < 1000)
                upper_us = (double)(b + 1);
            else if (b < DIRECT_LAG_BUCKETS - 1)
                upper_us = 1000.0 + (double)(b - 1000 + 1) * 100.0;
            else
                return (double)h->max_ns;
            double v = upper_us * 1000.0;
            return v < (double)h->max_ns ? v : (double)h->max_ns;
        }
    }
    return (double)h->max_ns;
}

void direct_lag_merge(direct_lag_hist *into, const direct_lag_hist *from) {
    for (size_t b = 0; b < DIRECT_LAG_BUCKETS; b++) into->counts[b] += from->counts[b];
    into->n += from->n;
    into->sum_ns += from->sum_ns;
    if (from->max_ns > into->max_ns) into->max_ns = from->max_ns;
}

/* ---- curl callbacks ------------------------------------------------------ */

static int sock_cb(CURL *e, curl_socket_t fd, int what, void *userp, void *socketp) {
    (void)e;
    direct_worker *w = userp;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(w->epfd, EPOLL_CTL_DEL, fd, NULL);
        curl_multi_assign(w->multi, fd, NULL);
        return 0;
    }
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.data.fd = fd;
    if (what & CURL_POLL_IN) ev.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) ev.events |= EPOLLOUT;
    int op = socketp ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    if (epoll_ctl(w->epfd, op, fd, &ev) != 0) {
        /* The fd may have been closed and reused behind our back. */
        op = (op == EPOLL_CTL_ADD) ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
        epoll_ctl(w->epfd, op, fd, &ev);
    }
    if (!socketp) curl_multi_assign(w->multi, fd, (void *)1);
    return 0;
}

static int timer_cb(CURLM *m, long timeout_ms, void *userp) {
    (void)m;
    direct_worker *w = userp;
    w->curl_deadline =
        timeout_ms < 0 ? DIRECT_NO_DEADLINE : smfw_now_mono_ns() + (int64_t)timeout_ms * 1000000LL;
    return 0;
}

static void socket_action(direct_worker *w, curl_socket_t fd, int flags) {
    int running = 0;
    w->action_seq++; /* every read inside this call shares one timestamp */
    curl_multi_socket_action(w->multi, fd, flags, &running);
}

/* ---- slots --------------------------------------------------------------- */

static direct_slot *slot_new(direct_worker *w) {
    direct_engine *eng = w->eng;
    const direct_options *o = eng->opt;
    direct_slot *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->w = w;
    s->easy = curl_easy_init();
    if (!s->easy) {
        free(s);
        return NULL;
    }
    CURL *e = s->easy;
    curl_easy_setopt(e, CURLOPT_URL, eng->tr.url);
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, direct_response_write_cb);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, direct_response_header_cb);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, s);
    curl_easy_setopt(e, CURLOPT_PRIVATE, s);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, s->errbuf);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(o->request_timeout_s * 1000.0));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)(o->connect_timeout_s * 1000.0));
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    /* The run's one TLS/proxy configuration (sessions change the path, not the host). */
    smfw_net_apply(o->net, e, eng->tr.url);
    if (o->mock) curl_easy_setopt(e, CURLOPT_PROXY, ""); /* our own child on loopback */
    smfw_eventstream_decoder_init(&s->es, NULL);
    s->es_ready = 1;
    /* Pre-size the buffers so steady state never allocates. */
    smfw_buf_reserve(&s->sse.buf, 16384);
    smfw_buf_reserve(&s->lines.buf, 16384);
    smfw_buf_reserve(&s->body, 16384);
    smfw_buf_reserve(&s->acc.text, 4096);
    s->lines.strict_utf8 = (eng->tr.kind == DIRECT_TRANSPORT_SAGEMAKER);
    s->acc.content_ns = malloc(1024 * sizeof *s->acc.content_ns);
    s->acc.cap_content = s->acc.content_ns ? 1024 : 0;
    return s;
}

static void slot_free(direct_slot *s) {
    if (!s) return;
    if (s->easy) curl_easy_cleanup(s->easy);
    curl_slist_free_all(s->headers);
    direct_sse_free(&s->sse);
    direct_lines_free(&s->lines);
    if (s->es_ready) smfw_eventstream_decoder_cleanup(&s->es);
    smfw_buf_free(&s->body);
    direct_acc_free(&s->acc);
    free(s);
}

/* A free slot, growing the pool up to max_slots; NULL when at the cap. */
static direct_slot *slot_acquire(direct_worker *w) {
    for (size_t i = 0; i < w->n_slots; i++)
        if (!w->slots[i]->busy) return w->slots[i];
    if (w->n_slots >= w->max_slots) return NULL;
    direct_slot *s = slot_new(w);
    if (!s) return NULL;
    w->slots[w->n_slots++] = s;
    w->slot_growths++;
    return s;
}

/* ---- completions ---------------------------------------------------------- */

void direct_completion_clear(direct_completion *c) {
    smfw_record_free(c->rec);
    free(c->text);
    free(c->reasoning);
    memset(c, 0, sizeof *c);
}

/*
 * Completions first go to the worker's own list (no lock); publish_completions() moves
 * them to the shared queue. A worker never waits for the queue's lock: the recorder
 * that holds it runs at the lowest priority and may be preempted while it does, and a
 * worker blocked behind it would stamp every waiting response late.
 */
static void push_completion(direct_worker *w, direct_completion *c) {
    if (w->local_len == w->local_cap) {
        size_t cap = w->local_cap ? w->local_cap * 2 : 64;
        direct_completion *q = realloc(w->local, cap * sizeof *q);
        if (!q) {
            direct_completion_clear(c); /* out of memory: the record is lost, not the run */
            return;
        }
        w->local = q;
        w->local_cap = cap;
    }
    w->local[w->local_len++] = *c;
    memset(c, 0, sizeof *c);
}

/* Move the worker's completions to the shared queue; `wait` = 0 gives up when it is busy. */
static void publish_completions(direct_worker *w, int wait) {
    direct_engine *eng = w->eng;
    if (w->local_len == 0) return;
    if (wait)
        pthread_mutex_lock(&eng->qlock);
    else if (pthread_mutex_trylock(&eng->qlock) != 0)
        return;
    if (eng->qhead && eng->qhead + eng->qlen + w->local_len > eng->qcap) {
        /* Reuse the room taken entries left at the front before growing. */
        memmove(eng->queue, eng->queue + eng->qhead, eng->qlen * sizeof *eng->queue);
        eng->qhead = 0;
    }
    if (eng->qlen + w->local_len > eng->qcap) {
        size_t cap = eng->qcap ? eng->qcap : 256;
        while (cap < eng->qlen + w->local_len) cap *= 2;
        direct_completion *q = realloc(eng->queue, cap * sizeof *q);
        if (!q) {
            pthread_mutex_unlock(&eng->qlock);
            return; /* keep them; try again on the next pass */
        }
        eng->queue = q;
        eng->qcap = cap;
    }
    memcpy(eng->queue + eng->qhead + eng->qlen, w->local, w->local_len * sizeof *w->local);
    eng->qlen += w->local_len;
    w->local_len = 0;
    pthread_cond_signal(&eng->qcond);
    pthread_mutex_unlock(&eng->qlock);
}

size_t direct_engine_take(direct_engine *eng, direct_completion **out, size_t max, int wait_ms) {
    pthread_mutex_lock(&eng->qlock);
    if (eng->qlen == 0 && wait_ms > 0 && !eng->take_wake) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += (long)wait_ms * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&eng->qcond, &eng->qlock, &ts);
    }
    eng->take_wake = 0;
    size_t n = eng->qlen;
    if (n == 0) {
        pthread_mutex_unlock(&eng->qlock);
        *out = NULL;
        return 0;
    }
    if ((max && n > max) || eng->qhead) {
        /* Hand out a copy of the oldest entries; the rest stay queued in order. */
        if (max && n > max) n = max;
        direct_completion *part = malloc(n * sizeof *part);
        if (!part) {
            pthread_mutex_unlock(&eng->qlock);
            *out = NULL;
            return 0;
        }
        memcpy(part, eng->queue + eng->qhead, n * sizeof *part);
        eng->qhead += n;
        eng->qlen -= n;
        if (eng->qlen == 0) eng->qhead = 0;
        pthread_mutex_unlock(&eng->qlock);
        *out = part;
        return n;
    }
    *out = eng->queue;
    eng->queue = NULL;
    eng->qlen = eng->qcap = 0;
    pthread_mutex_unlock(&eng->qlock);
    return n;
}

size_t direct_engine_backlog(direct_engine *eng) {
    pthread_mutex_lock(&eng->qlock);
    size_t n = eng->qlen;
    pthread_mutex_unlock(&eng->qlock);
    return n;
}

void direct_engine_wake_takers(direct_engine *eng) {
    pthread_mutex_lock(&eng->qlock);
    eng->take_wake = 1;
    pthread_cond_broadcast(&eng->qcond);
    pthread_mutex_unlock(&eng->qlock);
}

/* ---- requests -------------------------------------------------------------- */

/* Judge the phase's first completions as they finish (failfast.h): a worker that waited
 * for the recorder would send dozens more to an endpoint that is gone. */
static void failfast_note(direct_engine *eng, const direct_completion *c) {
    if (atomic_load(&eng->ff_done)) return;
    pthread_mutex_lock(&eng->ff_lock);
    if (direct_failfast_add(&eng->ff, c->rec, c->is_error))
        atomic_store(&eng->stop_issuing, 1); /* what finished is kept */
    if (eng->ff.decided || eng->ff.tripped) atomic_store(&eng->ff_done, 1);
    pthread_mutex_unlock(&eng->ff_lock);
}

/* ---- multi-turn sessions (sessions.h) ---------------------------------------------------- */

static int send_slot(direct_worker *w, direct_slot *s, int64_t index, int64_t intended);
static int claim_index(direct_engine *eng, int64_t *idx);

static void user_end(direct_user *u) {
    json_decref(u->history);
    u->history = NULL;
    u->active = 0;
    u->session_id[0] = '\0';
}

/* Every user idle at the phase start, ready for a first conversation. */
static void users_reset(direct_worker *w, int64_t start_ns) {
    direct_engine *eng = w->eng;
    if (!w->users) {
        w->users = calloc(w->max_slots ? w->max_slots : 1, sizeof *w->users);
        w->n_users = w->users ? w->max_slots : 0;
    }
    for (size_t i = 0; i < w->n_users; i++) {
        user_end(&w->users[i]);
        w->users[i].ready_ns = eng->sessions ? start_ns : DIRECT_NO_DEADLINE;
    }
}

static void user_begin(direct_worker *w, direct_user *u) {
    direct_engine *eng = w->eng;
    int64_t k = atomic_fetch_add(&eng->next_conversation, 1) + eng->conversation_offset;
    u->conv = (size_t)((uint64_t)k % eng->sessions->n);
    u->next_turn = 0;
    u->history = json_array();
    u->session_id[0] = '\0';
    direct_uuid4(&w->rng, u->corr_id);
    u->active = 1;
}

/* A user with a SageMaker session open and a close body to send. */
static int user_wants_close(const direct_engine *eng, const direct_user *u) {
    return eng->opt->session_close_body && u->active && u->session_id[0];
}

/* A turn's answer ended: keep it in the history, learn the session id, schedule the next. */
static void session_turn_done(direct_worker *w, direct_slot *s, int failed) {
    direct_engine *eng = w->eng;
    const direct_options *o = eng->opt;
    direct_user *u = s->user;
    int64_t now = smfw_now_mono_ns();
    if (failed) {
        /* The conversation cannot go on without this answer: the user starts the next one (an
         * open SageMaker session is left to expire; it may be the reason for the failure). */
        user_end(u);
        u->ready_ns = now;
        return;
    }
    if (o->sagemaker_sessions && !u->session_id[0]) {
        if (!s->new_session[0]) {
            if (atomic_fetch_add(&eng->session_failures, 1) == 0)
                SMFW_LOG_WARN("direct",
                              "the endpoint answered NEW_SESSION without an "
                              "X-Amzn-SageMaker-New-Session-Id header: does its container "
                              "support stateful sessions? The conversation ends there");
            user_end(u);
            u->ready_ns = now;
            return;
        }
        snprintf(u->session_id, sizeof u->session_id, "%s", s->new_session);
        atomic_fetch_add(&eng->sessions_opened, 1);
    }
    const direct_conversation *c = &eng->sessions->v[u->conv];
    const direct_turn *t = &c->turns[u->next_turn];
    if (direct_session_remember(u->history, t, s->acc.text.data, s->acc.text.len) != SMFW_OK) {
        user_end(u);
        u->ready_ns = now;
        return;
    }
    u->next_turn++;
    if (u->next_turn < c->n) {
        int64_t d = c->turns[u->next_turn].delay_ms;
        int64_t delay_ns = d >= 0 ? d * 1000000LL : (int64_t)(o->turn_delay_s * 1e9);
        u->ready_ns = now + delay_ns; /* from when the client saw the answer end */
    } else {
        u->ready_ns = now; /* close it, or begin the next conversation */
    }
}

/* The close request's answer: the session is over either way. */
static void session_closed(direct_worker *w, direct_slot *s) {
    direct_engine *eng = w->eng;
    direct_user *u = s->user;
    if (s->status == 200 && strcmp(s->closed_session, u->session_id) == 0) {
        atomic_fetch_add(&eng->sessions_closed, 1);
    } else if (atomic_fetch_add(&eng->session_failures, 1) == 0) {
        SMFW_LOG_WARN("direct",
                      "closing a SageMaker session failed (HTTP %d%s): check "
                      "--session-close-body against what the container expects",
                      s->status,
                      s->status == 200 ? ", no X-Amzn-SageMaker-Closed-Session-Id for it" : "");
    }
    user_end(u);
    u->ready_ns = smfw_now_mono_ns();
}

static int start_close(direct_worker *w, direct_slot *s, direct_user *u) {
    const direct_options *o = w->eng->opt;
    direct_payload *b = &u->body;
    free(b->body);
    b->body = malloc(o->session_close_len + 1);
    if (!b->body) {
        user_end(u);
        return -1;
    }
    memcpy(b->body, o->session_close_body, o->session_close_len + 1);
    b->len = o->session_close_len;
    smfw_sha256_hex(b->body, b->len, b->sha256);
    s->payload = b;
    s->user = u;
    s->buffered = s->is_close = 1;
    u->ready_ns = DIRECT_NO_DEADLINE;
    return send_slot(w, s, -1, smfw_now_mono_ns());
}

static int start_turn(direct_worker *w, direct_slot *s, direct_user *u, int64_t index) {
    direct_engine *eng = w->eng;
    const direct_options *o = eng->opt;
    const direct_turn *t = &eng->sessions->v[u->conv].turns[u->next_turn];
    s->user = u;
    s->is_close = 0;
    /* A stateful session opens on InvokeEndpoint, whatever the later turns use. */
    s->buffered = o->sagemaker_sessions && !u->session_id[0] && o->streaming;
    smfw_error err;
    smfw_error_clear(&err);
    if (direct_session_body(eng->sessions, t, &eng->payloads[t->payload], u->history,
                            o->streaming && !s->buffered, &u->body, &err) != SMFW_OK) {
        SMFW_LOG_WARN("direct", "a turn could not be built: %s", err.message);
        user_end(u);
        return -1;
    }
    s->payload = &u->body;
    int64_t intended = u->ready_ns;
    u->ready_ns = DIRECT_NO_DEADLINE;
    return send_slot(w, s, index, intended);
}

/* Earliest moment a user has something to send (INT64_MAX: none). */
static int64_t users_next_ready(const direct_worker *w, int exhausted) {
    int64_t t = DIRECT_NO_DEADLINE;
    for (size_t i = 0; i < w->n_users; i++) {
        const direct_user *u = &w->users[i];
        if (exhausted && !user_wants_close(w->eng, u)) continue;
        if (u->ready_ns < t) t = u->ready_ns;
    }
    return t;
}

/* Open loop over conversations: a user waiting for an arrival (none in a closed loop). */
static direct_user *user_idle(direct_worker *w) {
    if (w->eng->opt->arrival == DIRECT_ARRIVAL_CLOSED) return NULL;
    for (size_t i = 0; i < w->n_users; i++)
        if (!w->users[i].active && w->users[i].ready_ns == DIRECT_NO_DEADLINE) return &w->users[i];
    return NULL;
}

/* Conversations: in a closed loop each user goes from one conversation to the next; in an
 * open loop (--request-rate) each arrival starts one on an idle user, whose first turn is
 * intended for the arrival, and a user whose conversation ended waits for the next arrival.
 * Then each ready user sends its next turn (or its close). */
static int start_turns(direct_worker *w, int64_t now, int *exhausted) {
    direct_engine *eng = w->eng;
    int open = eng->opt->arrival != DIRECT_ARRIVAL_CLOSED;
    int started = 0;
    while (open && !*exhausted && w->next_arrival <= now && w->next_arrival < eng->issue_end_ns) {
        direct_user *u = user_idle(w);
        if (!u) break; /* every user is in a conversation: the arrival waits, and is late */
        direct_lag_add(&w->timer_lag, now - w->next_arrival);
        user_begin(w, u);
        u->ready_ns = w->next_arrival;
        w->next_arrival = direct_arrivals_next(&w->arrivals);
    }
    for (size_t i = 0; i < w->n_users && started < DIRECT_STARTS_PER_PASS; i++) {
        direct_user *u = &w->users[i];
        if (u->ready_ns > now) continue;
        int done = u->active && u->next_turn >= eng->sessions->v[u->conv].n;
        int close = user_wants_close(eng, u) && (done || *exhausted);
        if (!close && (*exhausted || done)) {
            user_end(u);
            if (*exhausted) {
                u->ready_ns = DIRECT_NO_DEADLINE;
                continue;
            }
        }
        if (open && !u->active) {
            u->ready_ns = DIRECT_NO_DEADLINE; /* idle until an arrival starts a conversation */
            continue;
        }
        direct_slot *s = slot_acquire(w);
        if (!s) break;
        if (close) {
            start_close(w, s, u);
            started++;
            continue;
        }
        int64_t idx;
        if (!claim_index(eng, &idx)) {
            /* The budget is spent: an open session is still closed. */
            *exhausted = 1;
            if (user_wants_close(eng, u)) {
                start_close(w, s, u);
                started++;
            } else {
                user_end(u);
                u->ready_ns = DIRECT_NO_DEADLINE;
            }
            continue;
        }
        if (!u->active) user_begin(w, u);
        start_turn(w, s, u, idx);
        started++;
    }
    return started;
}

static void finish_slot(direct_worker *w, direct_slot *s, CURLcode rc, int cancelled) {
    direct_engine *eng = w->eng;
    int64_t now = smfw_now_mono_ns();
    curl_multi_remove_handle(w->multi, s->easy);
    s->end_ns = s->stamp ? s->stamp : now;
    s->cancelled = cancelled;
    if (s->is_close) {
        if (rc != CURLE_OK) s->status = 0;
        s->busy = 0;
        w->n_busy--;
        session_closed(w, s);
        return;
    }
    if (!cancelled && rc == CURLE_OK) direct_response_finish(eng, s, s->end_ns);
    if (s->server_date > 0) {
        /* Clock skew (aws-wire.md §1.9): correct only when it is large. */
        int64_t skew = s->server_date - (int64_t)(smfw_now_wall_ns() / 1000000000LL);
        if (skew >= 300 || skew <= -300) atomic_store(&eng->tr.clock_offset_s, skew);
    }
    direct_completion c;
    int failed = 1;
    if (direct_record_build(eng, s, rc, &c) == SMFW_OK) {
        c.warmup = eng->phase == DIRECT_PHASE_WARMUP;
        failed = c.is_error;
        if (c.is_error) atomic_fetch_add(&eng->errors, 1);
        if (!cancelled) failfast_note(eng, &c);
        push_completion(w, &c);
    }
    if (s->user) session_turn_done(w, s, failed || cancelled);
    s->busy = 0;
    w->n_busy--;
    atomic_fetch_sub(&eng->in_flight, 1);
    atomic_fetch_add(&eng->done, 1);
}

static void drop_slot(direct_worker *w, direct_slot *s) {
    curl_multi_remove_handle(w->multi, s->easy);
    s->busy = 0;
    w->n_busy--;
    if (s->is_close) return; /* never counted as a request */
    w->dropped_in_flight++;
    atomic_fetch_sub(&w->eng->in_flight, 1);
}

static int start_request(direct_worker *w, direct_slot *s, int64_t index, int64_t intended) {
    direct_engine *eng = w->eng;
    const direct_options *o = eng->opt;
    /* A shard's k-th request is request k*N+I-1 of the whole run, with that request's prompt
     * (the warm-up is every shard's own, unsplit). */
    if (eng->phase == DIRECT_PHASE_PROFILING)
        index = (int64_t)smfw_shard_global_index(&o->shard, (uint64_t)index);
    size_t p = (size_t)((uint64_t)(index + eng->prompt_offset) % eng->n_payloads);
    s->payload = &eng->payloads[p];
    s->user = NULL;
    s->buffered = s->is_close = 0;
    return send_slot(w, s, index, intended);
}

/* Hand the slot's request to curl; its start is stamped right before (url NULL: keep it). */
static void slot_launch(direct_worker *w, direct_slot *s, const char *url) {
    if (url) curl_easy_setopt(s->easy, CURLOPT_URL, url);
    curl_easy_setopt(s->easy, CURLOPT_POSTFIELDS, s->payload->body);
    curl_easy_setopt(s->easy, CURLOPT_POSTFIELDSIZE, (long)s->payload->len);
    curl_easy_setopt(s->easy, CURLOPT_HTTPHEADER, s->headers);
    s->start_ns = smfw_now_mono_ns();
    s->start_wall_ns = s->start_ns + w->eng->wall_offset_ns;
    curl_multi_add_handle(w->multi, s->easy);
}

/* Send the slot's payload (set by the caller), intended for `intended`. */
static int send_slot(direct_worker *w, direct_slot *s, int64_t index, int64_t intended) {
    direct_engine *eng = w->eng;
    const direct_options *o = eng->opt;
    s->index = index;
    s->intended_ns = intended;
    direct_response_reset(s);
    direct_uuid4(&w->rng, s->request_id);
    direct_uuid4(&w->rng, s->correlation_id);
    if (s->user) memcpy(s->correlation_id, s->user->corr_id, sizeof s->correlation_id);
    if (s->is_close) {
        /* Not a benchmark request: no record, no count; the loop waits for it at the end. */
        smfw_error err;
        smfw_error_clear(&err);
        s->busy = 1;
        w->n_busy++;
        if (direct_transport_headers(&eng->tr, o, s, &s->headers, &err) != SMFW_OK) {
            s->busy = 0;
            w->n_busy--;
            session_closed(w, s);
            return -1;
        }
        slot_launch(w, s, eng->tr.invoke_url);
        return 0;
    }
    smfw_error err;
    smfw_error_clear(&err);
    s->busy = 1;
    w->n_busy++;
    atomic_fetch_add(&eng->in_flight, 1);
    atomic_fetch_add(&eng->issued, 1);
    if (direct_transport_headers(&eng->tr, o, s, &s->headers, &err) != SMFW_OK) {
        /* Cannot sign (credentials...): the request fails without being sent. */
        s->start_ns = smfw_now_mono_ns();
        s->start_wall_ns = s->start_ns + eng->wall_offset_ns;
        s->status = 0;
        snprintf(s->errbuf, sizeof s->errbuf, "%s", err.message);
        direct_acc_fail(&s->acc, SMFW_ERRCLASS_AUTH, 0, 0, "CredentialsError", "%s", err.message);
        s->end_ns = s->start_ns;
        direct_completion c;
        if (direct_record_build(eng, s, CURLE_OK, &c) == SMFW_OK) {
            c.warmup = eng->phase == DIRECT_PHASE_WARMUP;
            atomic_fetch_add(&eng->errors, 1);
            failfast_note(eng, &c);
            push_completion(w, &c);
        }
        if (s->user) session_turn_done(w, s, 1);
        s->busy = 0;
        w->n_busy--;
        atomic_fetch_sub(&eng->in_flight, 1);
        atomic_fetch_add(&eng->done, 1);
        return -1;
    }
    slot_launch(w, s, !eng->sessions ? NULL : s->buffered ? eng->tr.invoke_url : eng->tr.url);
    int64_t lag = s->start_ns - intended;
    direct_lag_add(&w->send_lag, lag);
    w->sends++;
    if ((double)lag > o->late_threshold_s * 1e9) w->late_sends++;
    return 0;
}

static int claim_index(direct_engine *eng, int64_t *idx) {
    int64_t i = atomic_fetch_add(&eng->next_index, 1);
    if (i >= eng->index_limit) return 0;
    *idx = i;
    return 1;
}

static void pending_push(direct_worker *w, int64_t intended) {
    if (w->pend_len == w->pend_cap) {
        size_t cap = w->pend_cap ? w->pend_cap * 2 : 256;
        direct_pending *q = malloc(cap * sizeof *q);
        if (!q) {
            w->dropped_arrivals++;
            return;
        }
        for (size_t i = 0; i < w->pend_len; i++)
            q[i] = w->pending[(w->pend_head + i) % w->pend_cap];
        free(w->pending);
        w->pending = q;
        w->pend_head = 0;
        w->pend_cap = cap;
    }
    w->pending[(w->pend_head + w->pend_len) % w->pend_cap].intended_ns = intended;
    w->pend_len++;
}

static int64_t pending_pop(direct_worker *w) {
    int64_t t = w->pending[w->pend_head].intended_ns;
    w->pend_head = (w->pend_head + 1) % w->pend_cap;
    w->pend_len--;
    return t;
}

/* Send waiting requests while slots are free, at most DIRECT_STARTS_PER_PASS. */
static int start_pending(direct_worker *w, int *exhausted) {
    int started = 0;
    while (w->pend_len > 0 && started < DIRECT_STARTS_PER_PASS) {
        direct_slot *s = slot_acquire(w);
        if (!s) break;
        int64_t idx;
        if (!claim_index(w->eng, &idx)) {
            w->pend_len = 0;
            *exhausted = 1;
            break;
        }
        /* A request that could not even be sent (no credentials) frees its slot at once:
         * queue the slot's next one, or a closed loop stops refilling and never ends. */
        if (start_request(w, s, idx, pending_pop(w)) != 0) pending_push(w, smfw_now_mono_ns());
        started++;
    }
    return started;
}

/*
 * Open loop: arrivals are taken from the schedule as slots free, never queued. An arrival
 * that is due while every slot is busy keeps its intended time and is sent late (its lag is
 * measured); a rate far above what the slots carry costs nothing but that lag.
 */
static int start_due(direct_worker *w, int64_t now, int *exhausted) {
    direct_engine *eng = w->eng;
    int started = 0;
    while (w->next_arrival <= now && w->next_arrival < eng->issue_end_ns &&
           started < DIRECT_STARTS_PER_PASS) {
        direct_slot *s = slot_acquire(w);
        if (!s) break;
        int64_t idx;
        if (!claim_index(eng, &idx)) {
            *exhausted = 1;
            w->next_arrival = DIRECT_NO_DEADLINE;
            break;
        }
        direct_lag_add(&w->timer_lag, now - w->next_arrival);
        start_request(w, s, idx, w->next_arrival);
        w->next_arrival = direct_arrivals_next(&w->arrivals);
        started++;
    }
    return started;
}

/* Arrivals due before `until` that were never sent, counted by walking the schedule (at most
 * what the budget had left, and a bound on the walk). */
static uint64_t count_unsent(direct_worker *w, int64_t until) {
    direct_engine *eng = w->eng;
    uint64_t n = 0, cap = 100000000ull;
    if (eng->index_limit != DIRECT_NO_DEADLINE) {
        int64_t left = eng->index_limit - atomic_load(&eng->next_index);
        cap = left > 0 ? (uint64_t)left : 0;
    }
    while (w->next_arrival < until && n < cap) {
        n++;
        w->next_arrival = direct_arrivals_next(&w->arrivals);
    }
    return n;
}

/* Finished transfers become records; in a closed loop each freed slot queues its next
 * request, intended for now. */
static void process_done(direct_worker *w, int closed, int exhausted) {
    CURLMsg *m;
    int left;
    while ((m = curl_multi_info_read(w->multi, &left))) {
        if (m->msg != CURLMSG_DONE) continue;
        direct_slot *s = NULL;
        CURLcode rc = m->data.result;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&s);
        if (!s) continue;
        finish_slot(w, s, rc, 0);
        if (closed && !w->stop_local && !exhausted) pending_push(w, smfw_now_mono_ns());
    }
}

static void arm_timer(direct_worker *w, int64_t deadline) {
    if (deadline == w->timer_armed) return;
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    if (deadline != DIRECT_NO_DEADLINE) {
        if (deadline <= 0) deadline = 1;
        its.it_value.tv_sec = deadline / 1000000000LL;
        its.it_value.tv_nsec = deadline % 1000000000LL;
    }
    timerfd_settime(w->tfd, TFD_TIMER_ABSTIME, &its, NULL);
    w->timer_armed = deadline;
}

/* A timer wake on a virtual machine can come a millisecond or more after its deadline (an
 * idle vCPU waits for the host to run it), and a send that waits for one is that late. So a
 * due arrival is not slept for: the worker wakes send_lead_ns before it and polls its sockets
 * without sleeping (still reading responses) until it is due. The lead is twice the latest
 * timer wake among the last DIRECT_WAKE_WINDOW, 50 us to 2 ms: next to nothing where timers
 * are punctual; the polling it costs is counted (spin_s) and kept out of the busy figure.
 * Polling is for a worker that would otherwise idle: at high rates (sends closer together
 * than the lead) it would poll all the time and take the cores the endpoint or the other
 * workers need (at 10,000 req/s on 2 cores, 7 % of sends went late instead of 0.3 %), and a
 * busy vCPU wakes on time anyway. So a worker polls only after a sleep longer than the lead
 * and than DIRECT_POLL_MIN_SLEEP_NS (it woke early for that send), at most DIRECT_POLL_BUDGET_NS in
 * each DIRECT_POLL_WINDOW_NS, and sleeps on the timer otherwise. */
#define DIRECT_LEAD_MIN_NS       50000
#define DIRECT_LEAD_MAX_NS       2000000
#define DIRECT_LEAD_START_NS     1000000
#define DIRECT_POLL_WINDOW_NS    100000000 /* 100 ms */
#define DIRECT_POLL_BUDGET_NS    10000000  /* 10 % of it */
#define DIRECT_POLL_MIN_SLEEP_NS 500000    /* shorter sleeps: the vCPU stays busy */

/* May the worker poll for a due send now (the budget of the current window)? */
static int poll_budget_left(direct_worker *w, int64_t now) {
    if (now - w->poll_window_start_ns >= DIRECT_POLL_WINDOW_NS) {
        w->poll_window_start_ns = now;
        w->poll_window_ns = 0;
    }
    return w->poll_window_ns < DIRECT_POLL_BUDGET_NS;
}

static void note_timer_wake(direct_worker *w, int64_t late) {
    if (late < 0) late = 0;
    w->wake_late_ns[w->wake_late_next++ % DIRECT_WAKE_WINDOW] = late;
    if (late > w->wake_late_max_ns) w->wake_late_max_ns = late;
    int64_t worst = 0;
    for (size_t i = 0; i < DIRECT_WAKE_WINDOW; i++)
        if (w->wake_late_ns[i] > worst) worst = w->wake_late_ns[i];
    int64_t lead = 2 * worst;
    w->send_lead_ns = lead < DIRECT_LEAD_MIN_NS   ? DIRECT_LEAD_MIN_NS
                      : lead > DIRECT_LEAD_MAX_NS ? DIRECT_LEAD_MAX_NS
                                                  : lead;
}

static void *worker_main(void *arg) {
    direct_worker *w = arg;
    direct_engine *eng = w->eng;
    const direct_options *o = eng->opt;
    int closed = o->arrival == DIRECT_ARRIVAL_CLOSED;
    int sessions = eng->sessions != NULL; /* closed loop over conversations */
    int exhausted = 0;
    w->stop_local = 0;
    w->grace_deadline = DIRECT_NO_DEADLINE;
    w->next_arrival = DIRECT_NO_DEADLINE;
    w->pend_len = 0;
    w->timer_armed = -1;
    if (w->send_lead_ns == 0) w->send_lead_ns = DIRECT_LEAD_START_NS; /* until a wake is seen */
    struct epoll_event evs[256];
    int64_t woke = 0;
    struct timespec cpu0, cpu1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);

    if (sessions) {
        /* Closed loop: every user's first turn is intended for the phase start; open loop:
         * users wait for arrivals. */
        users_reset(w, closed ? eng->phase_start_ns : DIRECT_NO_DEADLINE);
    }
    if (closed && !sessions) {
        /* Every slot's first request is intended for the phase start. */
        for (size_t i = 0; i < w->max_slots; i++) pending_push(w, eng->phase_start_ns);
    } else if (!closed) {
        direct_arrivals_init(&w->arrivals, o->arrival, o->request_rate, w->id, eng->n_workers,
                             eng->phase_start_ns, o->seed + (uint64_t)eng->phase * 7919u);
        if (o->arrival == DIRECT_ARRIVAL_FIXED)
            direct_arrivals_fixed(&w->arrivals, o->schedule_ns, o->n_schedule, o->schedule_speedup);
        w->next_arrival = direct_arrivals_next(&w->arrivals);
    }
    socket_action(w, CURL_SOCKET_TIMEOUT, 0);

    for (;;) {
        int64_t now = smfw_now_mono_ns();
        int64_t pass_start = now;
        if (!w->stop_local) {
            int user_stop = atomic_load(&eng->stop_issuing);
            if (user_stop || now >= eng->issue_end_ns) {
                w->stop_local = 1;
                int64_t from = user_stop ? now : eng->issue_end_ns;
                w->grace_deadline = from + (int64_t)(eng->grace_s * 1e9);
                if (!user_stop && eng->issue_end_ns == DIRECT_NO_DEADLINE)
                    w->grace_deadline = DIRECT_NO_DEADLINE;
                if (!closed && w->next_arrival != DIRECT_NO_DEADLINE)
                    w->dropped_arrivals +=
                        count_unsent(w, from < eng->issue_end_ns ? from : eng->issue_end_ns);
                w->pend_len = 0; /* closed: the refills of freed slots */
                w->next_arrival = DIRECT_NO_DEADLINE;
            }
        }
        if (atomic_load(&eng->abort_all) || (w->stop_local && now >= w->grace_deadline)) {
            int record = atomic_load(&eng->user_cancelled);
            for (size_t i = 0; i < w->n_slots; i++) {
                direct_slot *s = w->slots[i];
                if (!s->busy) continue;
                if (record)
                    finish_slot(w, s, CURLE_ABORTED_BY_CALLBACK, 1);
                else
                    drop_slot(w, s); /* still in flight at the end of the grace period */
            }
            break;
        }
        int started = 0;
        if (!closed && !w->stop_local && !exhausted && eng->index_limit != DIRECT_NO_DEADLINE &&
            atomic_load(&eng->next_index) >= eng->index_limit) {
            exhausted = 1; /* the other workers took the rest of the budget */
            w->next_arrival = DIRECT_NO_DEADLINE;
        }
        process_done(w, closed && !sessions, exhausted); /* sessions: users, not refills */
        /* stop_issuing again: a completion just judged may have stopped the run. */
        if (!w->stop_local && !atomic_load(&eng->stop_issuing))
            started += sessions ? start_turns(w, now, &exhausted)
                       : closed ? start_pending(w, &exhausted)
                                : start_due(w, now, &exhausted);
        if (started) socket_action(w, CURL_SOCKET_TIMEOUT, 0);
        /* Users waiting for a turn's delay, or with a session to close. */
        int64_t user_ready =
            sessions && !w->stop_local ? users_next_ready(w, exhausted) : DIRECT_NO_DEADLINE;
        if (w->n_busy == 0 && w->pend_len == 0 && (w->stop_local || exhausted) &&
            user_ready == DIRECT_NO_DEADLINE)
            break;

        int64_t wake = w->curl_deadline;
        int has_slot = w->n_busy < w->max_slots;
        /* An arrival can start when a connection is free (and, for conversations, a user). */
        int can_arrive = has_slot && (!sessions || closed || user_idle(w));
        /* A due arrival waits for a slot, not for a timer: no spinning while all are busy. */
        if (can_arrive && w->next_arrival < wake) wake = w->next_arrival;
        if (has_slot && user_ready < wake) wake = user_ready;
        if (w->grace_deadline < wake) wake = w->grace_deadline;
        if (!w->stop_local && eng->issue_end_ns < wake) wake = eng->issue_end_ns;
        now = smfw_now_mono_ns();
        int timeout_ms = 100;
        int more_to_start =
            !w->stop_local && ((has_slot && (w->pend_len > 0 || user_ready <= now)) ||
                               (can_arrive && !closed && w->next_arrival <= now &&
                                w->next_arrival < eng->issue_end_ns));
        /* The next arrival, if it can start: woken for early (see note_timer_wake). */
        int64_t send_at = can_arrive && !w->stop_local ? w->next_arrival : DIRECT_NO_DEADLINE;
        int spinning = 0;
        if (wake <= now || more_to_start) {
            timeout_ms = 0;
        } else if (send_at != DIRECT_NO_DEADLINE && w->poll_for_ns == send_at &&
                   send_at - now <= w->send_lead_ns && poll_budget_left(w, now)) {
            timeout_ms = 0; /* woken early for this send: poll until it is due */
            spinning = 1;
        } else {
            /* Only a sleep longer than the lead lets the vCPU go idle; sends closer together
             * than that sleep on the timer (the worker is busy, its wakes come on time). */
            int64_t early = send_at - w->send_lead_ns;
            if (send_at != DIRECT_NO_DEADLINE && early > now && early < wake &&
                send_at - now >= DIRECT_POLL_MIN_SLEEP_NS && poll_budget_left(w, now)) {
                wake = early;
                w->poll_for_ns = send_at;
            }
            arm_timer(w, wake);
        }
        if (woke) direct_lag_add(&w->loop_busy, now - woke);
        publish_completions(w, 0);
        int n = epoll_wait(w->epfd, evs, (int)(sizeof evs / sizeof evs[0]), timeout_ms);
        woke = n > 0 ? smfw_now_mono_ns() : 0;
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            if (fd == w->tfd) {
                uint64_t ticks;
                ssize_t r = read(w->tfd, &ticks, sizeof ticks);
                (void)r;
                if (w->timer_armed > 0 && w->timer_armed != DIRECT_NO_DEADLINE)
                    note_timer_wake(w, woke - w->timer_armed);
                w->timer_armed = -1;
                continue;
            }
            int flags = 0;
            if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) flags |= CURL_CSELECT_IN;
            if (evs[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
            if (evs[i].events & EPOLLERR) flags |= CURL_CSELECT_ERR;
            socket_action(w, fd, flags);
        }
        int64_t pass_end = smfw_now_mono_ns();
        if (w->curl_deadline <= pass_end) socket_action(w, CURL_SOCKET_TIMEOUT, 0);
        if (spinning && n == 0) {
            w->spin_s += (double)(pass_end - pass_start) / 1e9;
            w->poll_window_ns += pass_end - pass_start;
        }
    }
    w->pend_len = 0;
    publish_completions(w, 1);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
    w->cpu_s = (double)(cpu1.tv_sec - cpu0.tv_sec) + (double)(cpu1.tv_nsec - cpu0.tv_nsec) / 1e9;
    pthread_mutex_lock(&eng->qlock);
    atomic_fetch_sub(&eng->workers_running, 1);
    pthread_cond_signal(&eng->qcond);
    pthread_mutex_unlock(&eng->qlock);
    return NULL;
}

/* ---- engine ---------------------------------------------------------------- */

smfw_status direct_engine_init(direct_engine *eng, const direct_options *o,
                               const direct_payload *payloads, size_t n_payloads,
                               smfw_tokenizer *tok, volatile sig_atomic_t *cancel,
                               smfw_error *err) {
    memset(eng, 0, sizeof *eng);
    eng->tok = tok;
    eng->opt = o;
    eng->payloads = payloads;
    eng->n_payloads = n_payloads;
    eng->cancel = cancel;
    eng->wall_offset_ns = direct_clock_offset_ns();
    eng->parse.type = o->endpoint_type;
    eng->parse.response_field = o->response_field;
    eng->parse.keep_text = 1;
    pthread_mutex_init(&eng->qlock, NULL);
    pthread_cond_init(&eng->qcond, NULL);
    pthread_mutex_init(&eng->ff_lock, NULL);
    if (n_payloads == 0) return smfw_error_set(err, SMFW_ERR_CONFIG, "no prompts to send");
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "libcurl could not be initialised");
    smfw_status st = direct_transport_init(&eng->tr, o, err);
    if (st != SMFW_OK) return st;

    int closed = o->arrival == DIRECT_ARRIVAL_CLOSED;
    int64_t in_flight =
        closed ? o->concurrency
               : (o->max_concurrency ? o->max_concurrency : (int64_t)(o->request_rate * 2.0) + 16);
    /* A run bounded by counts alone never has more in flight than its largest phase: the
     * connections are made for that, not for the rate. */
    if (!closed && o->duration_s <= 0 && o->warmup_duration_s <= 0 && o->request_count > 0) {
        int64_t most =
            o->request_count > o->warmup_request_count ? o->request_count : o->warmup_request_count;
        if (in_flight > most) in_flight = most;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int nw =
        o->workers ? o->workers : direct_default_workers(in_flight, o->request_rate, (int)cpus);
    if (closed && nw > o->concurrency) nw = (int)o->concurrency;
    if (o->max_concurrency && nw > o->max_concurrency) nw = (int)o->max_concurrency;
    if (nw < 1) nw = 1;
    if (o->arrival == DIRECT_ARRIVAL_FIXED) nw = 1; /* arrival k must be prompt k */
    eng->n_workers = nw;
    eng->workers = calloc((size_t)nw, sizeof *eng->workers);
    if (!eng->workers) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    for (int i = 0; i < nw; i++) {
        direct_worker *w = &eng->workers[i];
        w->id = i;
        w->eng = eng;
        w->epfd = w->tfd = -1;
        snprintf(w->worker_name, sizeof w->worker_name, "worker_%d", i);
        uint64_t seed = 0;
        if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
            seed = (uint64_t)smfw_now_wall_ns() ^ ((uint64_t)i << 32);
        direct_rng_seed(&w->rng, seed, (uint64_t)i); /* request ids must be unique across runs */
        if (closed) {
            w->max_slots = (size_t)direct_share(o->concurrency, nw, i);
        } else if (o->max_concurrency) {
            w->max_slots = (size_t)direct_share(o->max_concurrency, nw, i);
        } else {
            w->max_slots = 65536;
        }
        size_t prealloc = w->max_slots;
        if (!closed && !o->max_concurrency) {
            int64_t guess = direct_share(in_flight, nw, i);
            prealloc = (size_t)(guess < 1024 ? guess : 1024);
        }
        w->slots = calloc(w->max_slots, sizeof *w->slots);
        w->multi = curl_multi_init();
        w->epfd = epoll_create1(EPOLL_CLOEXEC);
        w->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (!w->slots || !w->multi || w->epfd < 0 || w->tfd < 0)
            return smfw_error_set(err, SMFW_ERR_NOMEM,
                                  "cannot set up load worker %d (memory or file descriptors)", i);
        struct epoll_event ev;
        memset(&ev, 0, sizeof ev);
        ev.events = EPOLLIN;
        ev.data.fd = w->tfd;
        epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->tfd, &ev);
        curl_multi_setopt(w->multi, CURLMOPT_SOCKETFUNCTION, sock_cb);
        curl_multi_setopt(w->multi, CURLMOPT_SOCKETDATA, w);
        curl_multi_setopt(w->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
        curl_multi_setopt(w->multi, CURLMOPT_TIMERDATA, w);
        curl_multi_setopt(w->multi, CURLMOPT_MAXCONNECTS, (long)(w->max_slots + 4));
        w->curl_deadline = DIRECT_NO_DEADLINE;
        for (size_t k = 0; k < prealloc; k++) {
            direct_slot *s = slot_new(w);
            if (!s)
                return smfw_error_set(err, SMFW_ERR_NOMEM,
                                      "cannot allocate %zu connections for worker %d", prealloc, i);
            w->slots[w->n_slots++] = s;
        }
    }
    return SMFW_OK;
}

static void reset_worker_stats(direct_worker *w) {
    memset(&w->timer_lag, 0, sizeof w->timer_lag);
    memset(&w->send_lag, 0, sizeof w->send_lag);
    memset(&w->loop_busy, 0, sizeof w->loop_busy);
    w->wake_late_max_ns = 0;
    w->spin_s = 0;
    w->sends = w->late_sends = w->dropped_arrivals = w->dropped_in_flight = 0;
}

smfw_status direct_engine_start_phase(direct_engine *eng, direct_phase phase, int64_t count,
                                      double duration_s, double grace_s, smfw_error *err) {
    eng->phase = phase;
    eng->phase_start_ns = smfw_now_mono_ns();
    /* Profiling's conversations continue after the warm-up's. */
    eng->conversation_offset =
        phase == DIRECT_PHASE_WARMUP
            ? 0
            : eng->conversation_offset + atomic_load(&eng->next_conversation);
    atomic_store(&eng->next_conversation, 0);
    eng->issue_end_ns =
        duration_s > 0 ? eng->phase_start_ns + (int64_t)(duration_s * 1e9) : DIRECT_NO_DEADLINE;
    eng->grace_s = grace_s;
    atomic_store(&eng->next_index, 0);
    eng->index_limit = count > 0 ? count : DIRECT_NO_DEADLINE;
    atomic_store(&eng->issued, 0);
    atomic_store(&eng->done, 0);
    atomic_store(&eng->errors, 0);
    direct_failfast_init(&eng->ff, count);
    atomic_store(&eng->ff_done, 0);
    atomic_store(&eng->workers_running, eng->n_workers);
    for (int i = 0; i < eng->n_workers; i++) {
        direct_worker *w = &eng->workers[i];
        reset_worker_stats(w);
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            atomic_fetch_sub(&eng->workers_running, eng->n_workers - i);
            atomic_store(&eng->abort_all, 1);
            return smfw_error_set(err, SMFW_ERR_INTERNAL, "cannot start load worker thread %d", i);
        }
        w->thread_started = 1;
    }
    return SMFW_OK;
}

void direct_engine_join_phase(direct_engine *eng) {
    for (int i = 0; i < eng->n_workers; i++) {
        direct_worker *w = &eng->workers[i];
        if (w->thread_started) pthread_join(w->thread, NULL);
        w->thread_started = 0;
    }
}

void direct_engine_free(direct_engine *eng) {
    if (eng->workers) {
        atomic_store(&eng->abort_all, 1);
        direct_engine_join_phase(eng);
        for (int i = 0; i < eng->n_workers; i++) {
            direct_worker *w = &eng->workers[i];
            for (size_t k = 0; k < w->n_slots; k++) {
                if (w->slots[k]->busy && w->multi)
                    curl_multi_remove_handle(w->multi, w->slots[k]->easy);
                slot_free(w->slots[k]);
            }
            free(w->slots);
            free(w->pending);
            for (size_t k = 0; k < w->n_users; k++) {
                user_end(&w->users[k]);
                direct_payload_clear(&w->users[k].body);
            }
            free(w->users);
            for (size_t k = 0; k < w->local_len; k++) direct_completion_clear(&w->local[k]);
            free(w->local);
            if (w->multi) curl_multi_cleanup(w->multi);
            if (w->epfd >= 0) close(w->epfd);
            if (w->tfd >= 0) close(w->tfd);
        }
        free(eng->workers);
    }
    for (size_t i = 0; i < eng->qlen; i++) direct_completion_clear(&eng->queue[eng->qhead + i]);
    free(eng->queue);
    direct_transport_free(&eng->tr);
    pthread_mutex_destroy(&eng->qlock);
    pthread_mutex_destroy(&eng->ff_lock);
    pthread_cond_destroy(&eng->qcond);
    memset(eng, 0, sizeof *eng);
}
