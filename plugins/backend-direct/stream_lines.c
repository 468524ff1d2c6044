/*
 * stream_lines.c - newline-delimited messages: SageMaker PayloadPart bytes,
 * JSON lines, TGI token lines (aiperf-compat.md §7, rules 4-6).
 */
#include "stream.h"

#include <string.h>

void direct_lines_reset(direct_lines *l) {
    smfw_buf_reset(&l->buf);
    l->scanned = 0;
    l->bad_utf8 = 0;
}

void direct_lines_free(direct_lines *l) {
    smfw_buf_free(&l->buf);
    l->scanned = 0;
}

int direct_utf8_valid(const char *str, size_t n) {
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (n - i <= need) return 0;
        for (size_t k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += need + 1;
    }
    return 1;
}

static int line_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static int lines_emit(direct_lines *l, const char *p, size_t n, int64_t ts, direct_line_fn fn,
                      void *user) {
    while (n && line_space(*p)) p++, n--;
    while (n && line_space(p[n - 1])) n--;
    if (n == 0) return 0;
    if (l->strict_utf8 && !direct_utf8_valid(p, n)) {
        l->bad_utf8 = 1;
        return -1;
    }
    if (n >= 5 && memcmp(p, "data:", 5) == 0) {
        p += 5;
        n -= 5;
        while (n && line_space(*p)) p++, n--;
        if (n == 0) return 0;
    }
    return fn(user, p, n, ts);
}

int direct_lines_feed(direct_lines *l, const char *bytes, size_t len, int64_t ts, direct_line_fn fn,
                      void *user) {
    if (len == 0) return 0;
    size_t i = 0;
    /* Fast path: nothing buffered, consume whole lines straight from the input. */
    if (l->buf.len == 0) {
        for (;;) {
            const char *nl = memchr(bytes + i, '\n', len - i);
            if (!nl) break;
            size_t end = (size_t)(nl - bytes);
            if (lines_emit(l, bytes + i, end - i, ts, fn, user) != 0) return -1;
            i = end + 1;
        }
        if (i < len && smfw_buf_append(&l->buf, bytes + i, len - i) != 0) return -1;
        l->scanned = l->buf.len;
        return 0;
    }
    if (smfw_buf_append(&l->buf, bytes, len) != 0) return -1;
    size_t start = 0;
    size_t from = l->scanned;
    for (;;) {
        const char *nl = memchr(l->buf.data + from, '\n', l->buf.len - from);
        if (!nl) break;
        size_t end = (size_t)(nl - l->buf.data);
        int rc = lines_emit(l, l->buf.data + start, end - start, ts, fn, user);
        start = end + 1;
        from = start;
        if (rc != 0) {
            smfw_buf_consume(&l->buf, start);
            l->scanned = 0;
            return -1;
        }
    }
    smfw_buf_consume(&l->buf, start);
    l->scanned = l->buf.len;
    return 0;
}

int direct_lines_finish(direct_lines *l, int64_t ts, direct_line_fn fn, void *user) {
    int rc = 0;
    if (l->buf.len) rc = lines_emit(l, l->buf.data, l->buf.len, ts, fn, user);
    smfw_buf_reset(&l->buf);
    l->scanned = 0;
    return rc;
}
