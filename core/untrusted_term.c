/*
 * untrusted_term.c - service- and bundle-supplied text made harmless for a
 * terminal: C0 controls (ESC starts every cursor, title and colour
 * sequence), DEL, the C1 controls U+0080..U+009F (CSI as one code point)
 * and bytes that are not UTF-8 are written as visible escapes.
 */
#include <stdio.h>
#include <string.h>

#include <smfw/untrusted.h>

/* Length of the valid UTF-8 sequence at p (1..4), or 0. */
static size_t utf8_len(const unsigned char *p) {
    if (p[0] < 0x80) return 1;
    size_t n;
    unsigned min;
    unsigned cp;
    if ((p[0] & 0xe0) == 0xc0) {
        n = 2, min = 0x80, cp = p[0] & 0x1f;
    } else if ((p[0] & 0xf0) == 0xe0) {
        n = 3, min = 0x800, cp = p[0] & 0x0f;
    } else if ((p[0] & 0xf8) == 0xf0) {
        n = 4, min = 0x10000, cp = p[0] & 0x07;
    } else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    if (cp >= 0x80 && cp <= 0x9f) return 0; /* C1 control: escaped by the caller */
    return n;
}

typedef struct sink {
    FILE *out;
    char *buf;
    size_t size, len;
} sink;

static void put(sink *k, const char *s, size_t n) {
    if (k->out) {
        fwrite(s, 1, n, k->out);
        return;
    }
    if (k->len + n + 1 > k->size) { /* cut at a whole escape, and stay cut */
        k->size = k->len + 1;
        return;
    }
    memcpy(k->buf + k->len, s, n);
    k->len += n;
    k->buf[k->len] = '\0';
}

static void escape(sink *k, const char *s, int keep_newlines) {
    const unsigned char *p = (const unsigned char *)s;
    char tmp[16];
    while (*p) {
        if (*p == '\t' || (*p == '\n' && keep_newlines)) {
            put(k, (const char *)p++, 1);
            continue;
        }
        if (*p < 0x20 || *p == 0x7f) {
            snprintf(tmp, sizeof tmp, *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : "\\x%02x", *p);
            put(k, tmp, strlen(tmp));
            p++;
            continue;
        }
        if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) { /* C1 as UTF-8 */
            snprintf(tmp, sizeof tmp, "\\u%04x", p[1]);
            put(k, tmp, strlen(tmp));
            p += 2;
            continue;
        }
        size_t n = utf8_len(p);
        if (!n) {
            snprintf(tmp, sizeof tmp, "\\x%02x", *p);
            put(k, tmp, strlen(tmp));
            p++;
            continue;
        }
        put(k, (const char *)p, n);
        p += n;
    }
}

void smfw_term_write(FILE *out, const char *s, int keep_newlines) {
    sink k = {out, NULL, 0, 0};
    if (s) escape(&k, s, keep_newlines);
}

const char *smfw_term_escape(const char *s, char *buf, size_t size) {
    if (!size) return buf;
    buf[0] = '\0';
    sink k = {NULL, buf, size, 0};
    if (s) escape(&k, s, 0);
    return buf;
}

const char *smfw_term_escape_lines(const char *s, char *buf, size_t size) {
    if (!size) return buf;
    buf[0] = '\0';
    sink k = {NULL, buf, size, 0};
    if (s) escape(&k, s, 1);
    return buf;
}
