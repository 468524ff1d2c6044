/*
 * jscan.c - a strict JSON validator whose views are then read in place
 * (see jscan.h). Validation runs once per document; iteration rescans the
 * validated text, so it can neither fail nor read past it.
 */
#include "jscan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scan {
    const char *p, *end, *start;
    const char *err;
    size_t err_at;
    int trusted; /* the text was validated: skip strings without checking them again */
} scan;

static int fail(scan *s, const char *msg) {
    if (!s->err) {
        s->err = msg;
        s->err_at = (size_t)(s->p - s->start);
    }
    return -1;
}

static void ws(scan *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Length of one well-formed UTF-8 sequence at p (RFC 3629), 0 when ill-formed. */
static int utf8_len(const unsigned char *p, const unsigned char *end) {
    unsigned c = p[0];
    if (c < 0x80) return 1;
    int n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else
        return 0;
    if (end - p < n) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (int i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF) return 0;
    return n;
}

static int hex4(const char *p, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return 0;
        v = v * 16 + d;
    }
    *out = v;
    return 1;
}

/* A string at s->p ('"'); optionally its decoded text (up to cap bytes) and length. */
static int scan_string(scan *s, char *out, size_t cap, size_t *decoded) {
    size_t n = 0;
    s->p++;
    if (s->trusted && !out && !decoded) {
        while (*s->p != '"') s->p += *s->p == '\\' ? 2 : 1;
        s->p++;
        return 0;
    }
    for (;;) {
        /* Plain ASCII runs first: the common case, one comparison per byte. */
        while (s->p < s->end) {
            unsigned char a = (unsigned char)*s->p;
            if (a < 0x20 || a >= 0x80 || a == '"' || a == '\\') break;
            if (out && n < cap) out[n] = (char)a;
            n++;
            s->p++;
        }
        if (s->p >= s->end) return fail(s, "unterminated string");
        unsigned char c = (unsigned char)*s->p;
        if (c == '"') {
            s->p++;
            break;
        }
        if (c < 0x20) return fail(s, "control character in a string");
        if (c != '\\') {
            int l = utf8_len((const unsigned char *)s->p, (const unsigned char *)s->end);
            if (!l) return fail(s, "invalid UTF-8 in a string");
            for (int i = 0; i < l; i++, n++)
                if (out && n < cap) out[n] = s->p[i];
            s->p += l;
            continue;
        }
        if (s->end - s->p < 2) return fail(s, "unterminated string");
        char e = s->p[1], plain = 0;
        switch (e) {
        case '"':
            plain = '"';
            break;
        case '\\':
            plain = '\\';
            break;
        case '/':
            plain = '/';
            break;
        case 'b':
            plain = '\b';
            break;
        case 'f':
            plain = '\f';
            break;
        case 'n':
            plain = '\n';
            break;
        case 'r':
            plain = '\r';
            break;
        case 't':
            plain = '\t';
            break;
        case 'u':
            break;
        default:
            return fail(s, "invalid escape in a string");
        }
        if (plain) {
            if (out && n < cap) out[n] = plain;
            n++;
            s->p += 2;
            continue;
        }
        unsigned cp;
        if (s->end - s->p < 6 || !hex4(s->p + 2, &cp)) return fail(s, "invalid \\u escape");
        s->p += 6;
        if (cp == 0) return fail(s, "\\u0000 in a string");
        if (cp >= 0xDC00 && cp <= 0xDFFF) return fail(s, "unpaired surrogate in a string");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            unsigned low;
            if (s->end - s->p < 6 || s->p[0] != '\\' || s->p[1] != 'u' || !hex4(s->p + 2, &low) ||
                low < 0xDC00 || low > 0xDFFF)
                return fail(s, "unpaired surrogate in a string");
            s->p += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        unsigned char u[4];
        int l;
        if (cp < 0x80) {
            u[0] = (unsigned char)cp;
            l = 1;
        } else if (cp < 0x800) {
            u[0] = (unsigned char)(0xC0 | (cp >> 6));
            u[1] = (unsigned char)(0x80 | (cp & 0x3F));
            l = 2;
        } else if (cp < 0x10000) {
            u[0] = (unsigned char)(0xE0 | (cp >> 12));
            u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
            u[2] = (unsigned char)(0x80 | (cp & 0x3F));
            l = 3;
        } else {
            u[0] = (unsigned char)(0xF0 | (cp >> 18));
            u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
            u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
            u[3] = (unsigned char)(0x80 | (cp & 0x3F));
            l = 4;
        }
        for (int i = 0; i < l; i++, n++)
            if (out && n < cap) out[n] = (char)u[i];
    }
    if (decoded) *decoded = n;
    return 0;
}

static int scan_number(scan *s) {
    const char *p = s->p, *end = s->end, *digits;
    if (p < end && *p == '-') p++;
    digits = p;
    if (p < end && *p == '0')
        p++;
    else if (p < end && *p >= '1' && *p <= '9')
        while (p < end && is_digit(*p)) p++;
    else
        return fail(s, "invalid number");
    int integer = 1;
    if (p < end && *p == '.') {
        p++;
        integer = 0;
        if (p >= end || !is_digit(*p)) return fail(s, "invalid number");
        while (p < end && is_digit(*p)) p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        integer = 0;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (p >= end || !is_digit(*p)) return fail(s, "invalid number");
        while (p < end && is_digit(*p)) p++;
    }
    if (!integer) {
        /* As jansson: a real that overflows a double is refused (underflow is not). */
        char buf[512];
        size_t n = (size_t)(p - s->p);
        if (n < sizeof buf) {
            memcpy(buf, s->p, n);
            buf[n] = '\0';
            errno = 0;
            double d = strtod(buf, NULL);
            if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL))
                return fail(s, "real number overflow");
        }
    } else {
        /* As jansson: an integer must fit in 64 bits. */
        char buf[32];
        size_t n = (size_t)(p - s->p);
        if ((size_t)(p - digits) > 19) return fail(s, "too big integer");
        memcpy(buf, s->p, n);
        buf[n] = '\0';
        errno = 0;
        (void)strtoll(buf, NULL, 10);
        if (errno == ERANGE) return fail(s, "too big integer");
    }
    s->p = p;
    return 0;
}

static int literal(scan *s, const char *word, size_t n) {
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
        return fail(s, "invalid literal");
    s->p += n;
    return 0;
}

static int scan_value(scan *s, int depth, mj_value *out) {
    ws(s);
    if (s->p >= s->end) return fail(s, "unexpected end of text");
    const char *start = s->p;
    mj_type type;
    char c = *s->p;
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        type = c == '{' ? MJ_OBJECT : MJ_ARRAY;
        if (depth >= MJ_MAX_DEPTH) return fail(s, "nested too deeply");
        s->p++;
        ws(s);
        if (s->p < s->end && *s->p == close) {
            s->p++;
        } else {
            for (;;) {
                ws(s);
                if (type == MJ_OBJECT) {
                    if (s->p >= s->end || *s->p != '"') return fail(s, "expected a member name");
                    if (scan_string(s, NULL, 0, NULL) < 0) return -1;
                    ws(s);
                    if (s->p >= s->end || *s->p != ':') return fail(s, "expected ':'");
                    s->p++;
                }
                mj_value v;
                if (scan_value(s, depth + 1, &v) < 0) return -1;
                ws(s);
                if (s->p < s->end && *s->p == ',') {
                    s->p++;
                    continue;
                }
                if (s->p < s->end && *s->p == close) {
                    s->p++;
                    break;
                }
                return fail(s, type == MJ_OBJECT ? "expected ',' or '}'" : "expected ',' or ']'");
            }
        }
    } else if (c == '"') {
        type = MJ_STRING;
        if (scan_string(s, NULL, 0, NULL) < 0) return -1;
    } else if (c == 't') {
        type = MJ_TRUE;
        if (literal(s, "true", 4) < 0) return -1;
    } else if (c == 'f') {
        type = MJ_FALSE;
        if (literal(s, "false", 5) < 0) return -1;
    } else if (c == 'n') {
        type = MJ_NULL;
        if (literal(s, "null", 4) < 0) return -1;
    } else if (c == '-' || is_digit(c)) {
        type = MJ_NUMBER;
        if (scan_number(s) < 0) return -1;
    } else {
        return fail(s, "unexpected character");
    }
    out->type = type;
    out->p = start;
    out->len = (size_t)(s->p - start);
    return 0;
}

int mj_parse(const char *text, size_t n, mj_value *root, char *err, size_t err_size) {
    scan s = {text, text + n, text, NULL, 0, 0};
    if (scan_value(&s, 0, root) == 0) {
        ws(&s);
        if (s.p == s.end) return 0;
        fail(&s, "end of text expected");
    }
    if (err && err_size) snprintf(err, err_size, "%s at byte %zu", s.err, s.err_at);
    root->type = MJ_NONE;
    return -1;
}

void mj_iter_init(mj_iter *it, const mj_value *c) {
    int container = c->type == MJ_OBJECT || c->type == MJ_ARRAY;
    it->p = container ? c->p + 1 : c->p;
    it->end = container ? c->p + c->len - 1 : c->p;
    it->object = c->type == MJ_OBJECT;
}

int mj_next(mj_iter *it, mj_value *key, mj_value *value) {
    scan s = {it->p, it->end, it->p, NULL, 0, 1};
    ws(&s);
    if (s.p < s.end && *s.p == ',') s.p++;
    ws(&s);
    if (s.p >= s.end) return 0;
    if (it->object) {
        /* An object member (the text was validated: these steps cannot fail). */
        const char *k = s.p;
        scan_string(&s, NULL, 0, NULL);
        if (key) {
            key->type = MJ_STRING;
            key->p = k;
            key->len = (size_t)(s.p - k);
        }
        ws(&s);
        s.p++; /* ':' */
    } else if (key) {
        key->type = MJ_NONE;
    }
    if (scan_value(&s, 0, value) < 0) return 0;
    it->p = s.p;
    return 1;
}

int mj_string_is(const mj_value *v, const char *name) {
    if (v->type != MJ_STRING) return 0;
    size_t want = strlen(name);
    /* The common case: no escapes, compare the raw bytes. */
    if (v->len == want + 2 && !memchr(v->p, '\\', v->len)) return !memcmp(v->p + 1, name, want);
    char buf[256];
    size_t n = 0;
    scan s = {v->p, v->p + v->len, v->p, NULL, 0, 1};
    if (scan_string(&s, buf, sizeof buf, &n) < 0) return 0;
    return n == want && n <= sizeof buf && !memcmp(buf, name, n);
}

size_t mj_string_length(const mj_value *v) {
    if (v->type != MJ_STRING) return 0;
    if (!memchr(v->p, '\\', v->len)) return v->len - 2;
    size_t n = 0;
    scan s = {v->p, v->p + v->len, v->p, NULL, 0, 1};
    scan_string(&s, NULL, 0, &n);
    return n;
}

double mj_number(const mj_value *v, int *is_integer, long long *integer) {
    char buf[512];
    size_t n = v->len < sizeof buf - 1 ? v->len : sizeof buf - 1;
    memcpy(buf, v->p, n);
    buf[n] = '\0';
    int whole = v->type == MJ_NUMBER && !strpbrk(buf, ".eE");
    if (is_integer) *is_integer = whole;
    if (whole) {
        long long x = strtoll(buf, NULL, 10);
        if (integer) *integer = x;
        return (double)x;
    }
    return v->type == MJ_NUMBER ? strtod(buf, NULL) : 0.0;
}
