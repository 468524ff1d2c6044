/*
 * response.c - reading one response on the hot path: status line and
 * headers, the reader chosen by Content-Type, per-read timestamps, framing
 * and AIPerf's message parsing (aiperf-compat.md §1.2, §7).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "engine.h"

/* One timestamp per network read: the first callback of a socket action takes it. */
static inline int64_t slot_stamp(direct_slot *s) {
    if (s->stamp_seq != s->w->action_seq || s->stamp == 0) {
        s->stamp = smfw_now_mono_ns();
        s->stamp_seq = s->w->action_seq;
    }
    return s->stamp;
}

void direct_response_reset(direct_slot *s) {
    s->status = 0;
    s->reason[0] = '\0';
    s->content_type[0] = '\0';
    s->amz_error_type[0] = '\0';
    s->server_date = 0;
    s->headers_done = 0;
    s->reader = DIRECT_READ_BODY;
    s->ack_ns = s->end_ns = 0;
    s->stamp = 0;
    s->stamp_seq = 0;
    s->cancelled = 0;
    s->errbuf[0] = '\0';
    s->new_session[0] = s->closed_session[0] = '\0';
    direct_sse_reset(&s->sse);
    direct_lines_reset(&s->lines);
    if (s->es_ready) smfw_eventstream_decoder_reset(&s->es);
    smfw_buf_reset(&s->body);
    direct_acc_reset(&s->acc);
}

static void trim_copy(char *dst, size_t cap, const char *src, size_t len) {
    while (len && isspace((unsigned char)*src)) src++, len--;
    while (len && isspace((unsigned char)src[len - 1])) len--;
    if (len >= cap) len = cap - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* RFC 1123 date ("Sun, 30 Aug 2015 12:36:00 GMT") to unix seconds, 0 on failure. */
static int64_t parse_http_date(const char *v) {
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char mon[4] = {0};
    int day, year, hh, mm, ss;
    const char *comma = strchr(v, ',');
    if (!comma) return 0;
    if (sscanf(comma + 1, " %d %3s %d %d:%d:%d", &day, mon, &year, &hh, &mm, &ss) != 6) return 0;
    int m = -1;
    for (int i = 0; i < 12; i++)
        if (strcmp(mon, months[i]) == 0) m = i;
    if (m < 0) return 0;
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_year = year - 1900;
    tm.tm_mon = m;
    tm.tm_mday = day;
    tm.tm_hour = hh;
    tm.tm_min = mm;
    tm.tm_sec = ss;
    return (int64_t)timegm(&tm);
}

static direct_reader reader_for(const char *ct) {
    if (strncasecmp(ct, "text/event-stream", 17) == 0) return DIRECT_READ_SSE;
    if (strncasecmp(ct, "application/vnd.amazon.eventstream", 34) == 0)
        return DIRECT_READ_EVENTSTREAM;
    if (strncasecmp(ct, "application/x-ndjson", 20) == 0 ||
        strncasecmp(ct, "application/jsonl", 17) == 0 ||
        strncasecmp(ct, "application/json-lines", 22) == 0 ||
        strncasecmp(ct, "application/jsonlines", 21) == 0)
        return DIRECT_READ_LINES;
    return DIRECT_READ_BODY;
}

static int session_header_is(const char *name, size_t len, const char *want) {
    return len == strlen(want) && strncasecmp(name, want, len) == 0;
}

size_t direct_response_header_cb(char *data, size_t size, size_t n, void *userp) {
    direct_slot *s = userp;
    size_t len = size * n;
    int64_t ts = slot_stamp(s);
    if (len >= 5 && memcmp(data, "HTTP/", 5) == 0) {
        /* A new status line (interim 1xx responses come first). */
        const char *sp = memchr(data, ' ', len);
        s->status = 0;
        s->reason[0] = '\0';
        s->content_type[0] = '\0';
        s->amz_error_type[0] = '\0';
        s->headers_done = 0;
        if (sp) {
            size_t off = (size_t)(sp - data) + 1;
            int code = 0;
            while (off < len && data[off] >= '0' && data[off] <= '9')
                code = code * 10 + (data[off++] - '0');
            s->status = code;
            if (off < len) trim_copy(s->reason, sizeof s->reason, data + off, len - off);
        }
        return len;
    }
    if (len <= 2 && (len == 0 || data[0] == '\r' || data[0] == '\n')) {
        if (s->status >= 100 && s->status < 200) return len;
        s->headers_done = 1;
        s->reader = reader_for(s->content_type);
        if (s->status == 200) s->ack_ns = ts;
        return len;
    }
    const char *colon = memchr(data, ':', len);
    if (!colon) return len;
    size_t nl = (size_t)(colon - data);
    const char *val = colon + 1;
    size_t vl = len - nl - 1;
    if (nl == 12 && strncasecmp(data, "content-type", 12) == 0)
        trim_copy(s->content_type, sizeof s->content_type, val, vl);
    else if (nl == 16 && strncasecmp(data, "x-amzn-errortype", 16) == 0)
        trim_copy(s->amz_error_type, sizeof s->amz_error_type, val, vl);
    else if (s->user && session_header_is(data, nl, "x-amzn-sagemaker-new-session-id")) {
        /* "<id>; Expires=<time>": the id is what later turns send. */
        const char *semi = memchr(val, ';', vl);
        trim_copy(s->new_session, sizeof s->new_session, val, semi ? (size_t)(semi - val) : vl);
    } else if (s->user && session_header_is(data, nl, "x-amzn-sagemaker-closed-session-id"))
        trim_copy(s->closed_session, sizeof s->closed_session, val, vl);
    else if (nl == 4 && strncasecmp(data, "date", 4) == 0) {
        char tmp[64];
        trim_copy(tmp, sizeof tmp, val, vl);
        direct_worker *w = s->w;
        if (strcmp(tmp, w->date_raw) != 0) { /* one parse per second of server time */
            memcpy(w->date_raw, tmp, sizeof tmp);
            w->date_value = parse_http_date(tmp);
        }
        s->server_date = w->date_value;
    }
    return len;
}

static int on_message(void *user, const char *msg, size_t len, int64_t ts) {
    direct_slot *s = user;
    return direct_parse_message(&s->w->eng->parse, &s->acc, msg, len, ts);
}

static int on_sse_event(void *user, const direct_sse_event *ev, int64_t ts) {
    direct_slot *s = user;
    if (ev->is_error) {
        const char *m = ev->comment_len ? ev->comment : ev->data;
        size_t ml = ev->comment_len ? ev->comment_len : ev->data_len;
        if (!m) ml = 0;
        direct_acc_fail(&s->acc, SMFW_ERRCLASS_STREAM_ERROR, 1, 502, "SSEResponseError",
                        "SSE error event: %.*s", (int)(ml > 400 ? 400 : ml), m ? m : "");
        return -1;
    }
    if (!ev->has_data) {
        if (!s->acc.first_msg_ns) s->acc.first_msg_ns = ts;
        s->acc.last_msg_ns = ts;
        return 0;
    }
    return direct_parse_message(&s->w->eng->parse, &s->acc, ev->data, ev->data_len, ts);
}

static void header_string(const smfw_eventstream_message *m, const char *name, char *out,
                          size_t cap) {
    const smfw_eventstream_header *h = smfw_eventstream_message_find(m, name);
    out[0] = '\0';
    if (!h || (h->type != SMFW_EVENTSTREAM_STRING && h->type != SMFW_EVENTSTREAM_BYTES)) return;
    size_t n = h->value.bytes.len < cap - 1 ? h->value.bytes.len : cap - 1;
    memcpy(out, h->value.bytes.data, n);
    out[n] = '\0';
}

/* An exception/error frame fails the request (AwsEventStreamError in AIPerf). */
static void eventstream_error(direct_slot *s, const smfw_eventstream_message *m, int exception) {
    char type[96], msg[400] = "";
    if (exception) {
        header_string(m, ":exception-type", type, sizeof type);
        size_t n = m->payload_len < sizeof msg - 1 ? m->payload_len : sizeof msg - 1;
        memcpy(msg, m->payload, n);
        msg[n] = '\0';
    } else {
        header_string(m, ":error-code", type, sizeof type);
        header_string(m, ":error-message", msg, sizeof msg);
    }
    if (!type[0]) snprintf(type, sizeof type, "%s", "AwsEventStreamError");
    /* In-band errors are stream errors; the text keeps the ErrorCode (e.g. the invocation
     * time limit, ModelInvocationTimeExceeded). */
    direct_acc_fail(&s->acc, SMFW_ERRCLASS_STREAM_ERROR, 0, 0, type, "%s: %s", type, msg);
}

static void eventstream_fault(direct_slot *s, const smfw_error *e) {
    smfw_eventstream_fault f = smfw_eventstream_decoder_fault(&s->es);
    int crc = f == SMFW_EVENTSTREAM_FAULT_PRELUDE_CRC || f == SMFW_EVENTSTREAM_FAULT_MESSAGE_CRC;
    direct_acc_fail(&s->acc, crc ? SMFW_ERRCLASS_CRC : SMFW_ERRCLASS_PROTOCOL, 0, 0,
                    crc ? "EventStreamChecksumError" : "EventStreamError", "event stream: %s",
                    e->message[0] ? e->message : smfw_eventstream_fault_name(f));
}

static int feed_eventstream(direct_slot *s, const char *data, size_t len, int64_t ts) {
    smfw_error e;
    e.message[0] = '\0';
    if (smfw_eventstream_decoder_feed(&s->es, data, len, &e) != SMFW_OK) {
        eventstream_fault(s, &e);
        return -1;
    }
    smfw_eventstream_message m;
    smfw_status st;
    while ((st = smfw_eventstream_decoder_next(&s->es, &m, &e)) == SMFW_OK) {
        if (smfw_eventstream_message_has(&m, ":message-type", "event")) {
            if (!smfw_eventstream_message_has(&m, ":event-type", "PayloadPart")) continue;
            if (direct_lines_feed(&s->lines, (const char *)m.payload, m.payload_len, ts, on_message,
                                  s) != 0) {
                if (s->lines.bad_utf8)
                    direct_acc_fail(&s->acc, SMFW_ERRCLASS_PROTOCOL, 0, 0, "UnicodeDecodeError",
                                    "a PayloadPart line is not valid UTF-8");
                return -1;
            }
        } else if (smfw_eventstream_message_has(&m, ":message-type", "exception")) {
            eventstream_error(s, &m, 1);
            return -1;
        } else if (smfw_eventstream_message_has(&m, ":message-type", "error")) {
            eventstream_error(s, &m, 0);
            return -1;
        }
    }
    if (st != SMFW_AGAIN) {
        eventstream_fault(s, &e);
        return -1;
    }
    return 0;
}

size_t direct_response_write_cb(char *data, size_t size, size_t n, void *userp) {
    direct_slot *s = userp;
    size_t len = size * n;
    int64_t ts = slot_stamp(s);
    if (s->status != 200) {
        smfw_buf_append_capped(&s->body, data, len, 4096);
        return len;
    }
    int rc = 0;
    switch (s->reader) {
    case DIRECT_READ_BODY:
        if (!s->acc.first_msg_ns) s->acc.first_msg_ns = ts; /* first byte */
        rc = smfw_buf_append(&s->body, data, len);
        if (rc) direct_acc_fail(&s->acc, SMFW_ERRCLASS_OTHER, 0, 0, "MemoryError", "out of memory");
        break;
    case DIRECT_READ_SSE:
        rc = direct_sse_feed(&s->sse, data, len, ts, on_sse_event, s);
        break;
    case DIRECT_READ_LINES:
        rc = direct_lines_feed(&s->lines, data, len, ts, on_message, s);
        break;
    case DIRECT_READ_EVENTSTREAM:
        rc = feed_eventstream(s, data, len, ts);
        break;
    }
    if (rc != 0 && !s->acc.failed)
        direct_acc_fail(&s->acc, SMFW_ERRCLASS_OTHER, 0, 0, "MemoryError", "out of memory");
    return s->acc.failed ? 0 : len; /* 0 aborts the transfer: the request already failed */
}

void direct_response_finish(direct_engine *eng, direct_slot *s, int64_t ts) {
    if (s->status != 200 || s->acc.failed) return;
    switch (s->reader) {
    case DIRECT_READ_BODY:
        (void)direct_parse_message(&eng->parse, &s->acc, s->body.data ? s->body.data : "",
                                   s->body.len, ts);
        break;
    case DIRECT_READ_SSE:
        (void)direct_sse_finish(&s->sse, ts, on_sse_event, s);
        break;
    case DIRECT_READ_LINES:
        (void)direct_lines_finish(&s->lines, ts, on_message, s);
        break;
    case DIRECT_READ_EVENTSTREAM: {
        smfw_error e;
        e.message[0] = '\0';
        if (smfw_eventstream_decoder_finish(&s->es, &e) != SMFW_OK) {
            direct_acc_fail(&s->acc, SMFW_ERRCLASS_PROTOCOL, 0, 0, "EventStreamError",
                            "event stream truncated: the body ended inside a message (%s)",
                            e.message);
            return;
        }
        if (direct_lines_finish(&s->lines, ts, on_message, s) != 0 && s->lines.bad_utf8)
            direct_acc_fail(&s->acc, SMFW_ERRCLASS_PROTOCOL, 0, 0, "UnicodeDecodeError",
                            "a PayloadPart line is not valid UTF-8");
        break;
    }
    }
}
