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

int smfw_buf_reserve(smfw_buf *b, size_t extra) {
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

void smfw_buf_append(smfw_buf *b, const void *data, size_t len) {
    if (smfw_buf_reserve(b, len) != 0) return;
    if (len) memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void smfw_buf_puts(smfw_buf *b, const char *s) {
    smfw_buf_append(b, s, strlen(s));
}

void smfw_buf_putc(smfw_buf *b, char c) {
    smfw_buf_append(b, &c, 1);
}

void smfw_buf_vprintf(smfw_buf *b, const char *fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        b->failed = 1;
    } else if ((size_t)n < sizeof small) {
        smfw_buf_append(b, small, (size_t)n);
    } else if (smfw_buf_reserve(b, (size_t)n) == 0) {
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
    smfw_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"':
            smfw_buf_append(b, "\\\"", 2);
            break;
        case '\\':
            smfw_buf_append(b, "\\\\", 2);
            break;
        case '\n':
            smfw_buf_append(b, "\\n", 2);
            break;
        case '\r':
            smfw_buf_append(b, "\\r", 2);
            break;
        case '\t':
            smfw_buf_append(b, "\\t", 2);
            break;
        case '\b':
            smfw_buf_append(b, "\\b", 2);
            break;
        case '\f':
            smfw_buf_append(b, "\\f", 2);
            break;
        default:
            if (*p < 0x20)
                smfw_buf_printf(b, "\\u%04x", *p);
            else
                smfw_buf_append(b, p, 1);
        }
    }
    smfw_buf_putc(b, '"');
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
        if (smfw_buf_reserve(b, 0) != 0) return NULL;
        b->data[0] = '\0'; /* "" as documented, not the fresh allocation's garbage */
    }
    char *p = b->data;
    memset(b, 0, sizeof *b);
    return p;
}
