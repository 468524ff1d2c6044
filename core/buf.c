/* buf.c - the growable text buffer every builder in smfw uses (sticky allocation failure). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/buf.h>
#include <smfw/results.h>

void smfw_buf_init(smfw_buf *b) {
    memset(b, 0, sizeof *b);
}

void smfw_buf_free(smfw_buf *b) {
    free(b->data);
    memset(b, 0, sizeof *b);
}

void smfw_buf_reset(smfw_buf *b) {
    b->len = 0;
    b->failed = 0;
    if (b->data) b->data[0] = '\0';
}

/* The slow path of room(): a failed buffer stays failed, else grow by doubling. */
static int grow(smfw_buf *b, size_t extra) {
    if (b->failed) return -1;
    if (extra > (size_t)-1 / 2 - b->len) {
        b->failed = 1;
        return -1;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

/* Inlined here, so the direct backend's per-chunk appends (and the core's own) take
 * one compare when the memory is already there (cap > len whenever cap is non-zero). */
static inline int room(smfw_buf *b, size_t extra) {
    if (!b->failed && extra < b->cap - b->len) return 0;
    return grow(b, extra);
}

int smfw_buf_reserve(smfw_buf *b, size_t extra) {
    return room(b, extra);
}

/* The append every writer here shares, inlined rather than called through the PLT. */
static inline int put(smfw_buf *b, const void *data, size_t len) {
    if (room(b, len) != 0) return -1;
    if (len) memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

int smfw_buf_append(smfw_buf *b, const void *data, size_t len) {
    return put(b, data, len);
}

void smfw_buf_append_capped(smfw_buf *b, const void *data, size_t len, size_t max_len) {
    if (b->len >= max_len) return;
    if (len > max_len - b->len) len = max_len - b->len;
    (void)put(b, data, len);
}

void smfw_buf_consume(smfw_buf *b, size_t n) {
    if (n >= b->len) {
        b->len = 0;
        if (b->data) b->data[0] = '\0';
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

void smfw_buf_puts(smfw_buf *b, const char *s) {
    (void)put(b, s, strlen(s));
}

void smfw_buf_putc(smfw_buf *b, char c) {
    (void)put(b, &c, 1);
}

void smfw_buf_vprintf(smfw_buf *b, const char *fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        b->failed = 1;
    } else if ((size_t)n < sizeof small) {
        (void)put(b, small, (size_t)n);
    } else if (room(b, (size_t)n) == 0) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    }
    va_end(again);
}

void smfw_buf_printf(smfw_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    smfw_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void smfw_buf_json_string(smfw_buf *b, const char *s) {
    (void)put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"':
            (void)put(b, "\\\"", 2);
            break;
        case '\\':
            (void)put(b, "\\\\", 2);
            break;
        case '\n':
            (void)put(b, "\\n", 2);
            break;
        case '\r':
            (void)put(b, "\\r", 2);
            break;
        case '\t':
            (void)put(b, "\\t", 2);
            break;
        case '\b':
            (void)put(b, "\\b", 2);
            break;
        case '\f':
            (void)put(b, "\\f", 2);
            break;
        default:
            if (*p < 0x20)
                smfw_buf_printf(b, "\\u%04x", *p);
            else
                (void)put(b, p, 1);
        }
    }
    (void)put(b, "\"", 1);
}

void smfw_buf_double(smfw_buf *b, double v) {
    char tmp[40];
    smfw_buf_puts(b, smfw_format_double(v, tmp));
}

char *smfw_buf_take(smfw_buf *b) {
    if (b->failed) {
        smfw_buf_free(b);
        return NULL;
    }
    if (!b->data) {
        if (room(b, 0) != 0) return NULL;
        b->data[0] = '\0'; /* "" as documented, not the fresh allocation's garbage */
    }
    char *p = b->data;
    memset(b, 0, sizeof *b);
    return p;
}
