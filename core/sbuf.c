/* sbuf.c - growable string buffer with JSON string escaping and Python-style floats. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "results_internal.h"

void smfw_sbuf_init(smfw_sbuf *b) {
    memset(b, 0, sizeof *b);
}

void smfw_sbuf_free(smfw_sbuf *b) {
    free(b->data);
    smfw_sbuf_init(b);
}

static int sbuf_reserve(smfw_sbuf *b, size_t extra) {
    if (b->failed) return 0;
    if (b->len + extra + 1 <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->failed = 1;
        return 0;
    }
    b->data = d;
    b->cap = cap;
    return 1;
}

void smfw_sbuf_append(smfw_sbuf *b, const char *s, size_t n) {
    if (!sbuf_reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void smfw_sbuf_puts(smfw_sbuf *b, const char *s) {
    smfw_sbuf_append(b, s, strlen(s));
}

void smfw_sbuf_printf(smfw_sbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) {
        smfw_sbuf_append(b, tmp, (size_t)n);
        return;
    }
    if (!sbuf_reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void smfw_sbuf_json_string(smfw_sbuf *b, const char *s) {
    smfw_sbuf_append(b, "\"", 1);
    if (s) {
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
            switch (*p) {
            case '"': smfw_sbuf_append(b, "\\\"", 2); break;
            case '\\': smfw_sbuf_append(b, "\\\\", 2); break;
            case '\n': smfw_sbuf_append(b, "\\n", 2); break;
            case '\r': smfw_sbuf_append(b, "\\r", 2); break;
            case '\t': smfw_sbuf_append(b, "\\t", 2); break;
            case '\b': smfw_sbuf_append(b, "\\b", 2); break;
            case '\f': smfw_sbuf_append(b, "\\f", 2); break;
            default:
                if (*p < 0x20) smfw_sbuf_printf(b, "\\u%04x", *p);
                else smfw_sbuf_append(b, (const char *)p, 1);
            }
        }
    }
    smfw_sbuf_append(b, "\"", 1);
}

void smfw_sbuf_double(smfw_sbuf *b, double v) {
    char tmp[40];
    smfw_sbuf_puts(b, smfw_format_double(v, tmp));
}

char *smfw_sbuf_take(smfw_sbuf *b) {
    if (b->failed) {
        smfw_sbuf_free(b);
        return NULL;
    }
    if (!b->data) {
        smfw_sbuf_init(b);
        return strdup("");
    }
    char *d = b->data;
    smfw_sbuf_init(b);
    return d;
}

char *smfw_strdup_or_null(const char *s) {
    return s ? strdup(s) : NULL;
}
