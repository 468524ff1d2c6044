/*
 * http.c - the mock's HTTP/1.1 server: plain libevent read/write events,
 * one evbuffer in and one out per connection.
 *
 * Writes try send() at once and queue only what the socket refuses, so the
 * time stamped after send() is the time the bytes were handed to the kernel,
 * which is what the ground truth promises. Requests on one connection are
 * served one after another (pipelined requests wait in the input buffer).
 */
#include "http.h"

#include <smfw/app.h>

#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HTTP_MAX_HEADER_BYTES (64 * 1024)
#define HTTP_MAX_HEADERS      128
#define HTTP_MAX_BODY         ((size_t)256 * 1024 * 1024)

struct mock_http_server {
    struct event_base *base;
    struct evconnlistener *listener;
    mock_http_handler handler;
    void *user;
    int port;
    size_t connections;
    mock_conn *conns;
    int stamp_arrivals; /* SO_TIMESTAMPNS on accepted sockets */
};

struct mock_conn {
    mock_http_server *srv;
    evutil_socket_t fd;
    struct event *rev;
    struct event *wev;
    struct evbuffer *in;
    struct evbuffer *out;
    uint64_t out_queued; /* bytes ever queued for this connection */
    uint64_t out_sent;   /* bytes ever handed to the socket */
    mock_request *req;   /* request being served, NULL when idle */
    int continue_sent;   /* "100 Continue" already sent for the pending request */
    int close_after;     /* close once the output has drained */
    int dead;            /* socket closed; waiting for the handler to let go */
    mock_conn *prev, *next;
    int64_t arrival_ns; /* kernel receive time of the last bytes read (monotonic), 0 = none */
    char *scratch;      /* response assembly buffer */
    size_t scratch_cap;
};

static void conn_read_cb(evutil_socket_t fd, short what, void *arg);
static void conn_write_cb(evutil_socket_t fd, short what, void *arg);
static void conn_parse(mock_conn *c);

const char *mock_http_reason(int status) {
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 204:
        return "No Content";
    case 206:
        return "Partial Content";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 411:
        return "Length Required";
    case 412:
        return "Precondition Failed";
    case 413:
        return "Payload Too Large";
    case 416:
        return "Range Not Satisfiable";
    case 424:
        return "Failed Dependency";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

/* ---- connection lifetime ---------------------------------------------------------------- */

/* A request is one allocation: the struct, its header table, its head text and its body. */
static void request_free(mock_request *req) {
    free(req);
}

static void conn_free(mock_conn *c) {
    mock_http_server *srv = c->srv;
    if (c->prev)
        c->prev->next = c->next;
    else
        srv->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    srv->connections--;
    if (c->rev) event_free(c->rev);
    if (c->wev) event_free(c->wev);
    if (c->fd >= 0) evutil_closesocket(c->fd);
    evbuffer_free(c->in);
    evbuffer_free(c->out);
    free(c->scratch);
    free(c);
}

/* The socket is gone: tell the handler (if it still owns a request), free when it lets go. */
static void conn_close(mock_conn *c) {
    if (c->dead) return;
    c->dead = 1;
    event_del(c->rev);
    event_del(c->wev);
    evutil_closesocket(c->fd);
    c->fd = -1;
    mock_request *req = c->req;
    if (req && !req->finished) {
        if (!req->aborted) {
            req->aborted = 1;
            if (req->on_abort) req->on_abort(req, req->user);
        }
        return; /* mock_request_finish() frees the connection */
    }
    if (req) {
        c->req = NULL;
        request_free(req);
    }
    conn_free(c);
}

/* Progress of the output: markers, "response sent", the next request. */
static void conn_progress(mock_conn *c) {
    mock_request *req = c->req;
    if (req) {
        if (req->mark_stamp && c->out_sent >= req->mark_offset) {
            *req->mark_stamp = req->last_sent_ns;
            req->mark_stamp = NULL;
        }
        if (req->done && !req->sent_reported && c->out_sent >= req->end_offset) {
            req->sent_reported = 1;
            if (req->on_sent && !req->finished) req->on_sent(req, req->last_sent_ns, req->user);
        }
        if (req->finished && req->sent_reported) {
            int keep = req->keep_alive;
            c->req = NULL;
            request_free(req);
            if (!keep) c->close_after = 1;
        }
    }
    if (c->close_after && !c->req && evbuffer_get_length(c->out) == 0) {
        /* Half-close first so the peer reads everything before the FIN. */
        shutdown(c->fd, SHUT_WR);
        conn_close(c);
        return;
    }
    if (!c->req && !c->dead && !c->close_after) conn_parse(c);
}

/* Hand bytes to the socket now if nothing is queued, else queue them. */
static void conn_send(mock_conn *c, const void *data, size_t len) {
    if (c->dead || len == 0) return;
    c->out_queued += len;
    size_t done = 0;
    if (evbuffer_get_length(c->out) == 0) {
        while (done < len) {
            ssize_t n = send(c->fd, (const char *)data + done, len - done, MSG_NOSIGNAL);
            if (n > 0) {
                done += (size_t)n;
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
            /* Peer reset: the read side will notice too; drop the bytes. */
            c->out_sent += len - done;
            done = len;
            c->close_after = 1;
            break;
        }
        if (done) {
            c->out_sent += done;
            if (c->req) c->req->last_sent_ns = smfw_now_mono_ns();
        }
    }
    if (done < len) {
        evbuffer_add(c->out, (const char *)data + done, len - done);
        event_add(c->wev, NULL);
    }
}

static void conn_write_cb(evutil_socket_t fd, short what, void *arg) {
    mock_conn *c = arg;
    (void)what;
    while (evbuffer_get_length(c->out) > 0) {
        int n = evbuffer_write(c->out, fd);
        if (n > 0) {
            c->out_sent += (uint64_t)n;
            if (c->req) c->req->last_sent_ns = smfw_now_mono_ns();
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) break;
        conn_close(c);
        return;
    }
    if (evbuffer_get_length(c->out) == 0) event_del(c->wev);
    conn_progress(c);
}

/* recv() that also takes the kernel's receive timestamp of the bytes (SCM_TIMESTAMPNS, the
 * real-time clock) and turns it into CLOCK_MONOTONIC; *arrival_ns is left alone when the
 * kernel gives none. */
static ssize_t recv_stamped(int fd, struct evbuffer_iovec *v, int64_t *arrival_ns) {
    union {
        char buf[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = {.iov_base = v->iov_base, .iov_len = v->iov_len};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = ctl.buf;
    msg.msg_controllen = sizeof ctl.buf;
    ssize_t n = recvmsg(fd, &msg, 0);
    if (n <= 0) return n;
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_TIMESTAMPNS) continue;
        struct timespec ts;
        memcpy(&ts, CMSG_DATA(cm), sizeof ts);
        if (ts.tv_sec == 0 && ts.tv_nsec == 0) break;
        int64_t real = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
        *arrival_ns = real - (smfw_now_wall_ns() - smfw_now_mono_ns());
    }
    return n;
}

static void conn_read_cb(evutil_socket_t fd, short what, void *arg) {
    mock_conn *c = arg;
    (void)what;
    /* recv() into reserved space: evbuffer_read() would ask FIONREAD first (a syscall more). */
    struct evbuffer_iovec v;
    ssize_t n = -1;
    if (evbuffer_reserve_space(c->in, 16384, &v, 1) == 1) {
        if (c->srv->stamp_arrivals) {
            n = recv_stamped(fd, &v, &c->arrival_ns);
        } else {
            n = recv(fd, v.iov_base, v.iov_len, 0);
        }
        v.iov_len = n > 0 ? (size_t)n : 0;
        evbuffer_commit_space(c->in, &v, 1);
    }
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        conn_close(c);
        return;
    }
    if (!c->req && !c->close_after) conn_parse(c);
}

/* ---- request parsing -------------------------------------------------------------------- */

static void conn_reply_error_and_close(mock_conn *c, int status, const char *text) {
    char buf[512];
    int n = snprintf(buf, sizeof buf,
                     "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\n\r\n%s",
                     status, mock_http_reason(status), strlen(text), text);
    conn_send(c, buf, (size_t)n);
    c->close_after = 1;
    evbuffer_drain(c->in, evbuffer_get_length(c->in));
    conn_progress(c);
}

/* First header `name` of a raw head block (before it is parsed): value span, or 0. */
static int raw_header(const char *head, size_t len, const char *name, const char **v,
                      size_t *vlen) {
    size_t nl = strlen(name);
    const char *p = memchr(head, '\n', len), *end = head + len;
    while (p && ++p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) break;
        if ((size_t)(eol - p) > nl && p[nl] == ':' && !strncasecmp(p, name, nl)) {
            const char *a = p + nl + 1, *b = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
            while (a < b && (*a == ' ' || *a == '\t')) a++;
            while (b > a && (b[-1] == ' ' || b[-1] == '\t')) b--;
            *v = a;
            *vlen = (size_t)(b - a);
            return 1;
        }
        p = eol;
    }
    return 0;
}

static int raw_header_is(const char *head, size_t len, const char *name, const char *value) {
    const char *v;
    size_t vl;
    return raw_header(head, len, name, &v, &vl) && vl == strlen(value) &&
           !strncasecmp(v, value, vl);
}

/* Split the copied head block into "Name: value" pairs in place. Returns 0 or -1. */
static int parse_headers(mock_request *req, char *p, char *end, size_t max) {
    while (p < end) {
        char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        char *line_end = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
        if (line_end == p) break;
        char *colon = memchr(p, ':', (size_t)(line_end - p));
        if (!colon || colon == p || req->header_count == max) return -1;
        char *v = colon + 1;
        while (v < line_end && (*v == ' ' || *v == '\t')) v++;
        char *ve = line_end;
        while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t')) ve--;
        *colon = '\0';
        *ve = '\0';
        req->headers[req->header_count].name = p;
        req->headers[req->header_count].value = v;
        req->header_count++;
        p = eol + 1;
    }
    return 0;
}

const char *mock_request_header(const mock_request *req, const char *name) {
    for (size_t i = 0; i < req->header_count; i++)
        if (strcasecmp(req->headers[i].name, name) == 0) return req->headers[i].value;
    return NULL;
}

/* Try to take one complete request off the input buffer and hand it to the handler. */
static void conn_parse(mock_conn *c) {
    if (c->dead || c->req) return;
    size_t avail = evbuffer_get_length(c->in);
    if (avail == 0) return;
    struct evbuffer_ptr end = evbuffer_search(c->in, "\r\n\r\n", 4, NULL);
    if (end.pos < 0) {
        if (avail > HTTP_MAX_HEADER_BYTES)
            conn_reply_error_and_close(c, 431, "request headers too large\n");
        return;
    }
    size_t head_len = (size_t)end.pos + 4;
    const char *head = (const char *)evbuffer_pullup(c->in, (ev_ssize_t)head_len);

    /* Framing first, from the raw block: nothing is allocated for an incomplete request. */
    const char *te, *cl;
    size_t te_len, cl_len, body_len = 0;
    if (raw_header(head, head_len, "Transfer-Encoding", &te, &te_len) &&
        !(te_len == 8 && !strncasecmp(te, "identity", 8))) {
        conn_reply_error_and_close(c, 411,
                                   "chunked request bodies are not supported; send "
                                   "Content-Length\n");
        return;
    }
    if (raw_header(head, head_len, "Content-Length", &cl, &cl_len)) {
        unsigned long long v = 0;
        int ok = cl_len > 0 && cl_len <= 20;
        for (size_t i = 0; ok && i < cl_len; i++) {
            ok = cl[i] >= '0' && cl[i] <= '9';
            v = v * 10 + (unsigned long long)(cl[i] - '0');
        }
        if (!ok || v > HTTP_MAX_BODY) {
            conn_reply_error_and_close(c, ok ? 413 : 400, "bad Content-Length\n");
            return;
        }
        body_len = (size_t)v;
    }
    if (avail < head_len + body_len) {
        /* Body still coming: say 100 Continue once when asked, then wait. */
        if (raw_header_is(head, head_len, "Expect", "100-continue") && !c->continue_sent) {
            c->continue_sent = 1;
            static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
            conn_send(c, cont, sizeof cont - 1);
        }
        return;
    }
    size_t lines = 0;
    for (const char *q = head; (q = memchr(q, '\n', (size_t)(head + head_len - q))); q++) lines++;
    if (lines > HTTP_MAX_HEADERS + 2) lines = HTTP_MAX_HEADERS + 2;

    /* One block: struct, header table, head text (parsed in place), path + query, body. */
    size_t table = lines * sizeof(mock_http_header);
    size_t size = sizeof(mock_request) + table + head_len + 1 + head_len + 2 + body_len + 1;
    char *block = malloc(size);
    if (!block) abort();
    mock_request *req = (mock_request *)block;
    memset(req, 0, sizeof *req);
    req->headers = (mock_http_header *)(block + sizeof *req);
    char *text = block + sizeof *req + table;
    char *pathq = text + head_len + 1;
    req->body = (uint8_t *)(pathq + head_len + 2);
    memcpy(text, head, head_len);
    text[head_len] = '\0';
    req->conn = c;
    /* Request line: METHOD SP target SP HTTP/1.x */
    char *eol = memchr(text, '\n', head_len);
    char *sp1 = memchr(text, ' ', (size_t)(eol - text));
    char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1)) : NULL;
    if (!sp1 || !sp2 || (size_t)(sp1 - text) >= sizeof req->method || sp2 == sp1 + 1 ||
        strncmp(sp2 + 1, "HTTP/1.", 7) != 0) {
        request_free(req);
        conn_reply_error_and_close(c, 400, "malformed request line\n");
        return;
    }
    memcpy(req->method, text, (size_t)(sp1 - text));
    int http10 = sp2[8] == '0';
    *sp2 = '\0';
    req->target = sp1 + 1;
    size_t tlen = (size_t)(sp2 - req->target);
    const char *q = memchr(req->target, '?', tlen);
    size_t plen = q ? (size_t)(q - req->target) : tlen;
    req->path = pathq;
    memcpy(req->path, req->target, plen);
    req->path[plen] = '\0';
    req->query = pathq + plen + 1;
    size_t qlen = q ? tlen - plen - 1 : 0;
    memcpy(req->query, q ? q + 1 : "", qlen);
    req->query[qlen] = '\0';
    if (parse_headers(req, eol + 1, text + head_len, lines) != 0 ||
        req->header_count > HTTP_MAX_HEADERS) {
        request_free(req);
        conn_reply_error_and_close(c, 400, "malformed header\n");
        return;
    }
    c->continue_sent = 0;
    evbuffer_drain(c->in, head_len);
    if (body_len) evbuffer_remove(c->in, req->body, body_len);
    req->body[body_len] = '\0'; /* handy for text bodies; body_len stays exact */
    req->body_len = body_len;
    req->recv_ns = smfw_now_mono_ns();
    /* A timestamp from before the read, never one later than it. */
    req->arrival_ns =
        c->arrival_ns > 0 && c->arrival_ns <= req->recv_ns ? c->arrival_ns : req->recv_ns;
    req->head_only = strcmp(req->method, "HEAD") == 0;
    const char *conn_hdr = mock_request_header(req, "Connection");
    req->keep_alive = http10 ? (conn_hdr && strcasecmp(conn_hdr, "keep-alive") == 0)
                             : !(conn_hdr && strcasecmp(conn_hdr, "close") == 0);
    req->last_sent_ns = req->recv_ns;
    c->req = req;
    c->srv->handler(req, c->srv->user);
}

/* ---- responses -------------------------------------------------------------------------- */

static const char *http_date(void) {
    static char buf[64];
    static time_t cached;
    time_t now = time(NULL);
    if (now != cached) {
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
        cached = now;
    }
    return buf;
}

static char *scratch_reserve(mock_conn *c, size_t need) {
    if (need > c->scratch_cap) {
        size_t cap = c->scratch_cap ? c->scratch_cap : 4096;
        while (cap < need) cap *= 2;
        char *p = realloc(c->scratch, cap);
        if (!p) abort();
        c->scratch = p;
        c->scratch_cap = cap;
    }
    return c->scratch;
}

static size_t put_str(char *p, const char *s) {
    size_t n = strlen(s);
    memcpy(p, s, n);
    return n;
}

static size_t put_uint(char *p, unsigned long long v) {
    char tmp[24];
    size_t n = 0;
    do tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    for (size_t i = 0; i < n; i++) p[i] = tmp[n - 1 - i];
    return n;
}

/* Status line and headers into the scratch buffer; returns the length. No printf: this runs
   for every response. content_length < 0: chunked. */
static size_t build_head(mock_request *req, int status, const char *const *headers,
                         long long content_length, size_t extra) {
    size_t need = 256 + extra;
    for (size_t i = 0; headers && headers[i]; i++) need += strlen(headers[i]) + 2;
    char *p = scratch_reserve(req->conn, need);
    size_t n = put_str(p, "HTTP/1.1 ");
    n += put_uint(p + n, (unsigned)status);
    p[n++] = ' ';
    n += put_str(p + n, mock_http_reason(status));
    n += put_str(p + n, "\r\nDate: ");
    n += put_str(p + n, http_date());
    if (content_length >= 0) {
        n += put_str(p + n, "\r\nContent-Length: ");
        n += put_uint(p + n, (unsigned long long)content_length);
        n += put_str(p + n, "\r\n");
    } else {
        n += put_str(p + n, "\r\nTransfer-Encoding: chunked\r\n");
    }
    if (!req->keep_alive) n += put_str(p + n, "Connection: close\r\n");
    for (size_t i = 0; headers && headers[i]; i++) {
        size_t l = strlen(headers[i]);
        memcpy(p + n, headers[i], l);
        memcpy(p + n + l, "\r\n", 2);
        n += l + 2;
    }
    memcpy(p + n, "\r\n", 2);
    return n + 2;
}

void mock_respond(mock_request *req, int status, const char *const *headers, const void *body,
                  size_t len) {
    mock_conn *c = req->conn;
    if (req->responded) return;
    req->responded = 1;
    size_t send_len = req->head_only ? 0 : len;
    size_t n = build_head(req, status, headers, (long long)len, send_len);
    if (send_len) memcpy(c->scratch + n, body, send_len);
    req->done = 1;
    req->end_offset = c->out_queued + n + send_len;
    conn_send(c, c->scratch, n + send_len);
    conn_progress(c);
}

void mock_respond_start(mock_request *req, int status, const char *const *headers) {
    mock_conn *c = req->conn;
    if (req->responded) return;
    req->responded = 1;
    size_t n = build_head(req, status, headers, -1, 0);
    conn_send(c, c->scratch, n);
}

void mock_respond_chunk(mock_request *req, const void *data, size_t len, int64_t *stamp) {
    mock_conn *c = req->conn;
    if (!req->responded || req->done || len == 0) return;
    char *p = scratch_reserve(c, len + 32);
    int h = snprintf(p, 32, "%zx\r\n", len);
    memcpy(p + h, data, len);
    memcpy(p + h + len, "\r\n", 2);
    size_t total = (size_t)h + len + 2;
    if (stamp) {
        req->mark_offset = c->out_queued + (size_t)h + len;
        req->mark_stamp = stamp;
    }
    conn_send(c, p, total);
    if (req->mark_stamp && c->out_sent >= req->mark_offset) {
        *req->mark_stamp = req->last_sent_ns;
        req->mark_stamp = NULL;
    }
}

void mock_respond_end(mock_request *req) {
    mock_conn *c = req->conn;
    if (!req->responded || req->done) return;
    req->done = 1;
    req->end_offset = c->out_queued + 5;
    conn_send(c, "0\r\n\r\n", 5);
    conn_progress(c);
}

void mock_request_drop(mock_request *req) {
    mock_conn *c = req->conn;
    req->done = 1;
    req->keep_alive = 0;
    req->end_offset = c->out_queued;
    c->close_after = 1;
    conn_progress(c);
}

void mock_request_finish(mock_request *req) {
    mock_conn *c = req->conn;
    req->finished = 1;
    if (c->dead) {
        c->req = NULL;
        request_free(req);
        conn_free(c);
        return;
    }
    if (!req->done) {
        /* A handler that gives up without answering: close rather than hang the client. */
        req->done = 1;
        req->keep_alive = 0;
        req->end_offset = c->out_queued;
        c->close_after = 1;
    }
    if (!req->sent_reported && c->out_sent >= req->end_offset) req->sent_reported = 1;
    conn_progress(c);
}

/* ---- listener --------------------------------------------------------------------------- */

static void accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int len,
                      void *arg) {
    mock_http_server *srv = arg;
    (void)l, (void)sa, (void)len;
    mock_conn *c = calloc(1, sizeof *c);
    if (!c) {
        evutil_closesocket(fd);
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (srv->stamp_arrivals) setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    c->srv = srv;
    c->fd = fd;
    c->in = evbuffer_new();
    c->out = evbuffer_new();
    c->rev = event_new(srv->base, fd, EV_READ | EV_PERSIST, conn_read_cb, c);
    c->wev = event_new(srv->base, fd, EV_WRITE | EV_PERSIST, conn_write_cb, c);
    c->next = srv->conns;
    if (srv->conns) srv->conns->prev = c;
    srv->conns = c;
    srv->connections++;
    event_add(c->rev, NULL);
}

void mock_http_server_stamp_arrivals(mock_http_server *srv) {
    srv->stamp_arrivals = 1;
}

mock_http_server *mock_http_server_new(struct event_base *base, const char *host, int port,
                                       mock_http_handler handler, void *user, char *err,
                                       size_t err_size) {
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &sin.sin_addr) != 1) {
        snprintf(err, err_size, "cannot listen on %s: not an IPv4 address", host);
        return NULL;
    }
    mock_http_server *srv = calloc(1, sizeof *srv);
    if (!srv) abort();
    srv->base = base;
    srv->handler = handler;
    srv->user = user;
    srv->listener = evconnlistener_new_bind(
        base, accept_cb, srv, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC,
        1024, (struct sockaddr *)&sin, sizeof sin);
    if (!srv->listener) {
        snprintf(err, err_size, "cannot listen on %s:%d: %s", host, port, strerror(errno));
        free(srv);
        return NULL;
    }
    struct sockaddr_in bound;
    socklen_t blen = sizeof bound;
    getsockname(evconnlistener_get_fd(srv->listener), (struct sockaddr *)&bound, &blen);
    srv->port = ntohs(bound.sin_port);
    return srv;
}

int mock_http_server_port(const mock_http_server *srv) {
    return srv->port;
}

size_t mock_http_server_connections(const mock_http_server *srv) {
    return srv->connections;
}

void mock_http_server_close_all(mock_http_server *srv) {
    if (!srv) return;
    if (srv->listener) evconnlistener_free(srv->listener);
    srv->listener = NULL;
    mock_conn *c = srv->conns;
    while (c) {
        mock_conn *next = c->next; /* conn_close may free c */
        conn_close(c);
        c = next;
    }
}

void mock_http_server_free(mock_http_server *srv) {
    if (!srv) return;
    if (srv->listener) evconnlistener_free(srv->listener);
    while (srv->conns) {
        mock_conn *c = srv->conns;
        if (c->req) {
            /* Shutdown with a request in flight: abort it so its handler frees its state. */
            mock_request *req = c->req;
            if (!c->dead) conn_close(c);
            if (srv->conns == c && c->req == req) {
                /* handler did not finish synchronously: take it down anyway */
                c->req = NULL;
                request_free(req);
                conn_free(c);
            }
        } else {
            conn_close(c);
        }
    }
    free(srv);
}
