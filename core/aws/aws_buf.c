/* aws_buf.c - growable byte buffer and URI encoding for the AWS layer. */
#include "aws/aws_buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void aws_buf_init(aws_buf *b) {
    memset(b, 0, sizeof(*b));
}

void aws_buf_free(aws_buf *b) {
    free(b->data);
    memset(b, 0, sizeof(*b));
}

void aws_buf_reset(aws_buf *b) {
    b->len = 0;
    b->failed = 0;
    if (b->data) b->data[0] = '\0';
}

int aws_buf_reserve(aws_buf *b, size_t extra) {
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

void aws_buf_append(aws_buf *b, const void *data, size_t len) {
    if (aws_buf_reserve(b, len) != 0) return;
    if (len) memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void aws_buf_puts(aws_buf *b, const char *s) {
    aws_buf_append(b, s, strlen(s));
}

void aws_buf_putc(aws_buf *b, char c) {
    aws_buf_append(b, &c, 1);
}

void aws_buf_printf(aws_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t)n < sizeof(small)) {
        aws_buf_append(b, small, (size_t)n);
        return;
    }
    if (aws_buf_reserve(b, (size_t)n) != 0) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

int aws_buf_failed(const aws_buf *b) {
    return b->failed;
}

char *aws_buf_take(aws_buf *b) {
    if (b->failed) {
        aws_buf_free(b);
        return NULL;
    }
    if (!b->data && aws_buf_reserve(b, 0) != 0) return NULL;
    char *p = b->data;
    memset(b, 0, sizeof(*b));
    return p;
}

static int is_unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '~';
}

void aws_buf_uri_encode(aws_buf *b, const char *s, size_t len, int keep_slash) {
    static const char hex[] = "0123456789ABCDEF";
    if (aws_buf_reserve(b, len * 3) != 0) return;
    char *o = b->data + b->len;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_unreserved(c) || (keep_slash && c == '/')) {
            *o++ = (char)c;
        } else {
            *o++ = '%';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 15];
        }
    }
    b->len = (size_t)(o - b->data);
    b->data[b->len] = '\0';
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void aws_buf_uri_decode(aws_buf *b, const char *s, size_t len) {
    if (aws_buf_reserve(b, len) != 0) return;
    char *o = b->data + b->len;
    for (size_t i = 0; i < len; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < len && (hi = hexval(s[i + 1])) >= 0 &&
            (lo = hexval(s[i + 2])) >= 0) {
            *o++ = (char)(hi * 16 + lo);
            i += 2;
        } else {
            *o++ = s[i];
        }
    }
    b->len = (size_t)(o - b->data);
    b->data[b->len] = '\0';
}

void aws_strlcpy(char *dst, const char *src, size_t cap) {
    if (!cap) return;
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}
