/* aws_text.c - URI percent-coding onto an smfw_buf, and a bounded copy, for the AWS layer. */
#include "aws/aws_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '~';
}

void aws_uri_encode(smfw_buf *b, const char *s, size_t len, int keep_slash) {
    static const char hex[] = "0123456789ABCDEF";
    if (smfw_buf_reserve(b, len * 3) != 0) return;
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

void aws_uri_decode(smfw_buf *b, const char *s, size_t len) {
    if (smfw_buf_reserve(b, len) != 0) return;
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
