/*
 * stream_sse.c - incremental Server-Sent Events framing (aiperf-compat.md §1.2).
 */
#include "stream.h"

#include <string.h>

void direct_sse_reset(direct_sse *s) {
    smfw_buf_reset(&s->buf);
    smfw_buf_reset(&s->data);
    s->scanned = 0;
}

void direct_sse_free(direct_sse *s) {
    smfw_buf_free(&s->buf);
    smfw_buf_free(&s->data);
    s->scanned = 0;
}

static int sse_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static void sse_strip(const char **p, size_t *n) {
    while (*n && sse_is_space(**p)) (*p)++, (*n)--;
    while (*n && sse_is_space((*p)[*n - 1])) (*n)--;
}

/* Parse one complete event text and hand it to fn. */
static int sse_dispatch(direct_sse *s, const char *ev, size_t len, int64_t ts, direct_sse_fn fn,
                        void *user) {
    direct_sse_event out;
    memset(&out, 0, sizeof out);
    const char *first_data = NULL;
    size_t first_len = 0;
    int n_data = 0;
    int blank = 1;
    smfw_buf_reset(&s->data);
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && ev[j] != '\n' && ev[j] != '\r') j++;
        const char *line = ev + i;
        size_t ll = j - i;
        /* advance past \r\n, \n or \r */
        if (j < len && ev[j] == '\r' && j + 1 < len && ev[j + 1] == '\n')
            i = j + 2;
        else
            i = j + 1;
        const char *tmp = line;
        size_t tl = ll;
        sse_strip(&tmp, &tl);
        if (tl == 0) continue;
        blank = 0;
        const char *colon = memchr(line, ':', ll);
        const char *name = line, *value;
        size_t nl, vl;
        if (colon) {
            nl = (size_t)(colon - line);
            value = colon + 1;
            vl = ll - nl - 1;
        } else {
            nl = ll;
            value = line + ll;
            vl = 0;
        }
        sse_strip(&name, &nl);
        sse_strip(&value, &vl);
        if (nl == 0) { /* comment */
            out.comment = value;
            out.comment_len = vl;
        } else if (nl == 4 && memcmp(name, "data", 4) == 0) {
            if (n_data == 0) {
                first_data = value;
                first_len = vl;
            } else {
                if (n_data == 1 && smfw_buf_append(&s->data, first_data, first_len) != 0) return -1;
                if (smfw_buf_append(&s->data, "\n", 1) != 0 ||
                    smfw_buf_append(&s->data, value, vl) != 0)
                    return -1;
            }
            n_data++;
        } else if (nl == 5 && memcmp(name, "event", 5) == 0) {
            if (vl == 5 && memcmp(value, "error", 5) == 0) out.is_error = 1;
        }
    }
    if (blank) return 0;
    if (n_data == 1) {
        out.data = first_data;
        out.data_len = first_len;
    } else if (n_data > 1) {
        out.data = s->data.data;
        out.data_len = s->data.len;
    }
    out.has_data = n_data > 0;
    return fn(user, &out, ts);
}

/* Earliest event delimiter at or after `from`: sets *dlen; returns position or -1. */
static long sse_find_delim(const char *b, size_t n, size_t from, size_t *dlen) {
    for (size_t i = from; i + 1 < n; i++) {
        if (b[i] == '\n' && b[i + 1] == '\n') {
            *dlen = 2;
            return (long)i;
        }
        if (b[i] == '\r' && i + 3 < n && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
            *dlen = 4;
            return (long)i;
        }
    }
    return -1;
}

int direct_sse_feed(direct_sse *s, const char *bytes, size_t len, int64_t ts, direct_sse_fn fn,
                    void *user) {
    if (len == 0) return 0;
    if (smfw_buf_append(&s->buf, bytes, len) != 0) return -1;
    size_t start = 0;
    size_t from = s->scanned;
    for (;;) {
        size_t dlen = 0;
        long pos = sse_find_delim(s->buf.data, s->buf.len, from, &dlen);
        if (pos < 0) break;
        int rc = sse_dispatch(s, s->buf.data + start, (size_t)pos - start, ts, fn, user);
        start = (size_t)pos + dlen;
        from = start;
        if (rc != 0) {
            smfw_buf_consume(&s->buf, start);
            s->scanned = 0;
            return -1;
        }
    }
    smfw_buf_consume(&s->buf, start);
    /* A delimiter may straddle the next read: rescan the last 3 bytes. */
    s->scanned = s->buf.len > 3 ? s->buf.len - 3 : 0;
    return 0;
}

int direct_sse_finish(direct_sse *s, int64_t ts, direct_sse_fn fn, void *user) {
    int rc = 0;
    if (s->buf.len) rc = sse_dispatch(s, s->buf.data, s->buf.len, ts, fn, user);
    smfw_buf_reset(&s->buf);
    s->scanned = 0;
    return rc;
}
