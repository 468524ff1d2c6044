/*
 * json_scan.c - allocation-free JSON validation and lookup (see json_scan.h).
 */
#include "json_scan.h"

#include <stdlib.h>
#include <string.h>

static size_t dj_ws(const char *s, size_t n, size_t i) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    return i;
}

static int dj_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Scan a string starting at s[i] == '"'; returns the index after the closing quote or 0. */
static size_t dj_scan_string(const char *s, size_t n, size_t i) {
    i++;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"') return i + 1;
        if (c < 0x20) return 0;
        if (c == '\\') {
            if (i + 1 >= n) return 0;
            char e = s[i + 1];
            if (e == 'u') {
                if (i + 5 >= n) return 0;
                for (int k = 2; k < 6; k++)
                    if (dj_hex(s[i + k]) < 0) return 0;
                i += 6;
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || e == '\0') return 0;
            i += 2;
            continue;
        }
        i++;
    }
    return 0;
}

static size_t dj_scan_number(const char *s, size_t n, size_t i) {
    size_t start = i;
    if (i < n && s[i] == '-') i++;
    if (i >= n) return 0;
    if (s[i] == '0') {
        i++;
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    } else {
        return 0;
    }
    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || s[i] < '0' || s[i] > '9') return 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= n || s[i] < '0' || s[i] > '9') return 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    }
    return i > start ? i : 0;
}

/* Validate one value at s[i] (no leading whitespace); returns the index after it or 0. */
static size_t dj_scan_value(const char *s, size_t n, size_t i, int depth, dj_type *type) {
    if (i >= n) return 0;
    switch (s[i]) {
    case '"':
        *type = DJ_STRING;
        return dj_scan_string(s, n, i);
    case '{': {
        if (depth >= DJ_MAX_DEPTH) return 0;
        *type = DJ_OBJECT;
        i = dj_ws(s, n, i + 1);
        if (i < n && s[i] == '}') return i + 1;
        for (;;) {
            if (i >= n || s[i] != '"') return 0;
            i = dj_scan_string(s, n, i);
            if (!i) return 0;
            i = dj_ws(s, n, i);
            if (i >= n || s[i] != ':') return 0;
            i = dj_ws(s, n, i + 1);
            dj_type t;
            i = dj_scan_value(s, n, i, depth + 1, &t);
            if (!i) return 0;
            i = dj_ws(s, n, i);
            if (i >= n) return 0;
            if (s[i] == '}') return i + 1;
            if (s[i] != ',') return 0;
            i = dj_ws(s, n, i + 1);
        }
    }
    case '[': {
        if (depth >= DJ_MAX_DEPTH) return 0;
        *type = DJ_ARRAY;
        i = dj_ws(s, n, i + 1);
        if (i < n && s[i] == ']') return i + 1;
        for (;;) {
            dj_type t;
            i = dj_scan_value(s, n, i, depth + 1, &t);
            if (!i) return 0;
            i = dj_ws(s, n, i);
            if (i >= n) return 0;
            if (s[i] == ']') return i + 1;
            if (s[i] != ',') return 0;
            i = dj_ws(s, n, i + 1);
        }
    }
    case 't':
        *type = DJ_TRUE;
        return (n - i >= 4 && memcmp(s + i, "true", 4) == 0) ? i + 4 : 0;
    case 'f':
        *type = DJ_FALSE;
        return (n - i >= 5 && memcmp(s + i, "false", 5) == 0) ? i + 5 : 0;
    case 'n':
        *type = DJ_NULL;
        return (n - i >= 4 && memcmp(s + i, "null", 4) == 0) ? i + 4 : 0;
    default:
        *type = DJ_NUMBER;
        return dj_scan_number(s, n, i);
    }
}

int dj_parse(const char *s, size_t n, dj_value *root) {
    if (!s) return -1;
    size_t i = dj_ws(s, n, 0);
    dj_type t = DJ_NONE;
    size_t end = dj_scan_value(s, n, i, 0, &t);
    if (!end) return -1;
    if (dj_ws(s, n, end) != n) return -1;
    root->type = t;
    root->p = s + i;
    root->len = end - i;
    return 0;
}

/* The value at p[i] inside an already validated container. */
static size_t dj_next(const dj_value *c, size_t i, dj_value *out) {
    dj_type t = DJ_NONE;
    size_t end = dj_scan_value(c->p, c->len, i, 0, &t);
    if (!end) return 0;
    out->type = t;
    out->p = c->p + i;
    out->len = end - i;
    return end;
}

int dj_get(const dj_value *obj, const char *key, dj_value *out) {
    if (!obj || obj->type != DJ_OBJECT) return 0;
    const char *s = obj->p;
    size_t n = obj->len;
    size_t i = dj_ws(s, n, 1);
    size_t klen = strlen(key);
    while (i < n && s[i] == '"') {
        size_t kend = dj_scan_string(s, n, i);
        if (!kend) return 0;
        dj_value k = {DJ_STRING, s + i, kend - i};
        int match;
        if (!memchr(k.p, '\\', k.len))
            match = (k.len - 2 == klen && memcmp(k.p + 1, key, klen) == 0);
        else
            match = dj_string_equals(&k, key);
        i = dj_ws(s, n, kend);
        if (i >= n || s[i] != ':') return 0;
        i = dj_ws(s, n, i + 1);
        dj_value v;
        size_t vend = dj_next(obj, i, &v);
        if (!vend) return 0;
        if (match) {
            *out = v;
            return 1;
        }
        i = dj_ws(s, n, vend);
        if (i >= n || s[i] != ',') return 0;
        i = dj_ws(s, n, i + 1);
    }
    return 0;
}

int dj_index(const dj_value *arr, size_t index, dj_value *out) {
    if (!arr || arr->type != DJ_ARRAY) return 0;
    const char *s = arr->p;
    size_t n = arr->len;
    size_t i = dj_ws(s, n, 1);
    if (i < n && s[i] == ']') return 0;
    for (size_t k = 0;; k++) {
        dj_value v;
        size_t vend = dj_next(arr, i, &v);
        if (!vend) return 0;
        if (k == index) {
            *out = v;
            return 1;
        }
        i = dj_ws(s, n, vend);
        if (i >= n || s[i] != ',') return 0;
        i = dj_ws(s, n, i + 1);
    }
}

size_t dj_count(const dj_value *v) {
    if (!v || (v->type != DJ_ARRAY && v->type != DJ_OBJECT)) return 0;
    const char *s = v->p;
    size_t n = v->len;
    size_t i = dj_ws(s, n, 1);
    if (i < n && (s[i] == ']' || s[i] == '}')) return 0;
    size_t count = 0;
    for (;;) {
        if (v->type == DJ_OBJECT) {
            size_t kend = dj_scan_string(s, n, i);
            if (!kend) return count;
            i = dj_ws(s, n, kend);
            if (i >= n || s[i] != ':') return count;
            i = dj_ws(s, n, i + 1);
        }
        dj_value e;
        size_t vend = dj_next(v, i, &e);
        if (!vend) return count;
        count++;
        i = dj_ws(s, n, vend);
        if (i >= n || s[i] != ',') return count;
        i = dj_ws(s, n, i + 1);
    }
}

int dj_path(const dj_value *root, const char *path, dj_value *out) {
    dj_value cur = *root;
    const char *seg = path;
    char key[256];
    while (*seg) {
        const char *dot = strchr(seg, '.');
        size_t len = dot ? (size_t)(dot - seg) : strlen(seg);
        if (len == 0 || len >= sizeof key) return 0;
        memcpy(key, seg, len);
        key[len] = '\0';
        int numeric = 1;
        for (size_t k = 0; k < len; k++)
            if (key[k] < '0' || key[k] > '9') numeric = 0;
        dj_value next;
        if (cur.type == DJ_ARRAY && numeric) {
            if (!dj_index(&cur, (size_t)strtoull(key, NULL, 10), &next)) return 0;
        } else if (!dj_get(&cur, key, &next)) {
            return 0;
        }
        cur = next;
        seg = dot ? dot + 1 : seg + len;
    }
    *out = cur;
    return 1;
}

int dj_string_nonempty(const dj_value *v) {
    return v && v->type == DJ_STRING && v->len > 2;
}

static size_t dj_put_utf8(char *out, size_t cap, size_t pos, uint32_t cp) {
    char tmp[4];
    size_t len;
    if (cp < 0x80) {
        tmp[0] = (char)cp;
        len = 1;
    } else if (cp < 0x800) {
        tmp[0] = (char)(0xC0 | (cp >> 6));
        tmp[1] = (char)(0x80 | (cp & 0x3F));
        len = 2;
    } else if (cp < 0x10000) {
        tmp[0] = (char)(0xE0 | (cp >> 12));
        tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        tmp[2] = (char)(0x80 | (cp & 0x3F));
        len = 3;
    } else {
        tmp[0] = (char)(0xF0 | (cp >> 18));
        tmp[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        tmp[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        tmp[3] = (char)(0x80 | (cp & 0x3F));
        len = 4;
    }
    for (size_t k = 0; k < len; k++)
        if (pos + k + 1 < cap) out[pos + k] = tmp[k];
    return len;
}

static uint32_t dj_u4(const char *p) {
    return (uint32_t)((dj_hex(p[0]) << 12) | (dj_hex(p[1]) << 8) | (dj_hex(p[2]) << 4) |
                      dj_hex(p[3]));
}

size_t dj_string_decode(const dj_value *v, char *out, size_t cap) {
    if (!v || v->type != DJ_STRING || v->len < 2) {
        if (cap) out[0] = '\0';
        return 0;
    }
    const char *s = v->p + 1;
    size_t n = v->len - 2;
    size_t pos = 0;
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (c != '\\') {
            if (pos + 1 < cap) out[pos] = c;
            pos++;
            i++;
            continue;
        }
        char e = s[i + 1]; /* validated: an escape is complete */
        if (e == 'u') {
            uint32_t cp = dj_u4(s + i + 2);
            i += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n && s[i] == '\\' && s[i + 1] == 'u') {
                uint32_t lo = dj_u4(s + i + 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                } else {
                    cp = 0xFFFD;
                }
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            pos += dj_put_utf8(out, cap, pos, cp);
            continue;
        }
        char d;
        switch (e) {
        case 'b':
            d = '\b';
            break;
        case 'f':
            d = '\f';
            break;
        case 'n':
            d = '\n';
            break;
        case 'r':
            d = '\r';
            break;
        case 't':
            d = '\t';
            break;
        default:
            d = e;
            break; /* " \ / */
        }
        if (pos + 1 < cap) out[pos] = d;
        pos++;
        i += 2;
    }
    if (cap) out[pos < cap ? pos : cap - 1] = '\0';
    return pos;
}

int dj_string_equals(const dj_value *v, const char *text) {
    if (!v || v->type != DJ_STRING) return 0;
    size_t tlen = strlen(text);
    if (!memchr(v->p, '\\', v->len)) return v->len - 2 == tlen && memcmp(v->p + 1, text, tlen) == 0;
    char buf[512];
    size_t len = dj_string_decode(v, buf, sizeof buf);
    return len == tlen && len < sizeof buf && memcmp(buf, text, tlen) == 0;
}

int dj_int64(const dj_value *v, int64_t *out) {
    if (!v || v->type != DJ_NUMBER || v->len == 0 || v->len > 40) return 0;
    char buf[48];
    memcpy(buf, v->p, v->len);
    buf[v->len] = '\0';
    if (!memchr(buf, '.', v->len) && !memchr(buf, 'e', v->len) && !memchr(buf, 'E', v->len)) {
        char *end;
        long long x = strtoll(buf, &end, 10);
        if (*end) return 0;
        *out = (int64_t)x;
        return 1;
    }
    char *end;
    double d = strtod(buf, &end);
    if (*end || d != d || d > 9.2e18 || d < -9.2e18 || (double)(int64_t)d != d) return 0;
    *out = (int64_t)d;
    return 1;
}
