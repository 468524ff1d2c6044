/*
 * rpt_json.c - a JSON writer that produces the bytes Python's
 * json.dumps(obj, indent=2) produces (AIPerf's profile_export_aiperf.json):
 * ", " never appears (items end with "," and a newline), keys are followed
 * by ": ", empty containers are "[]" / "{}", strings are ASCII-only with
 * lower-case \uXXXX escapes, and reals are printed like repr(float).
 */
#include "rpt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Decode one UTF-8 sequence; returns its length, or 0 if invalid (then *cp = U+FFFD). */
static size_t rpt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp) {
    *cp = 0xFFFD;
    if (n == 0) return 0;
    unsigned char c = s[0];
    size_t len;
    uint32_t v;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        v = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    /* Reject overlong forms, surrogates and values past U+10FFFF. */
    if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
        (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

static void rpt_json_string_n(smfw_buf *b, const char *str, size_t n) {
    const unsigned char *s = (const unsigned char *)str;
    smfw_buf_append(b, "\"", 1);
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        char esc[16];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
            size_t run = i;
            while (run < n && s[run] >= 0x20 && s[run] < 0x7F && s[run] != '"' && s[run] != '\\')
                run++;
            smfw_buf_append(b, str + i, run - i);
            i = run;
            continue;
        }
        switch (c) {
        case '"':
            smfw_buf_append(b, "\\\"", 2);
            i++;
            continue;
        case '\\':
            smfw_buf_append(b, "\\\\", 2);
            i++;
            continue;
        case '\n':
            smfw_buf_append(b, "\\n", 2);
            i++;
            continue;
        case '\r':
            smfw_buf_append(b, "\\r", 2);
            i++;
            continue;
        case '\t':
            smfw_buf_append(b, "\\t", 2);
            i++;
            continue;
        case '\b':
            smfw_buf_append(b, "\\b", 2);
            i++;
            continue;
        case '\f':
            smfw_buf_append(b, "\\f", 2);
            i++;
            continue;
        default:
            break;
        }
        uint32_t cp;
        size_t len = rpt_utf8_decode(s + i, n - i, &cp);
        i += len ? len : 1;
        if (cp >= 0x10000) {
            uint32_t u = cp - 0x10000;
            snprintf(esc, sizeof esc, "\\u%04x\\u%04x", 0xD800 + (u >> 10), 0xDC00 + (u & 0x3FF));
        } else {
            snprintf(esc, sizeof esc, "\\u%04x", cp);
        }
        smfw_buf_puts(b, esc);
    }
    smfw_buf_append(b, "\"", 1);
}

void rpt_json_string(smfw_buf *b, const char *s) {
    rpt_json_string_n(b, s ? s : "", s ? strlen(s) : 0);
}

static void rpt_json_newline(smfw_buf *b, int indent, int depth) {
    smfw_buf_append(b, "\n", 1);
    for (int i = 0; i < indent * depth; i++) smfw_buf_append(b, " ", 1);
}

static void rpt_json_dump_at(smfw_buf *b, const json_t *v, int indent, int depth) {
    char num[RPT_NUM_MAX];
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        if (json_object_size(v) == 0) {
            smfw_buf_puts(b, "{}");
            return;
        }
        smfw_buf_append(b, "{", 1);
        const char *key;
        json_t *item;
        int first = 1;
        /* jansson keeps insertion order (2.8+), which is the order we write. */
        json_object_foreach((json_t *)v, key, item) {
            if (!first) smfw_buf_append(b, ",", 1);
            first = 0;
            rpt_json_newline(b, indent, depth + 1);
            rpt_json_string(b, key);
            smfw_buf_append(b, ": ", 2);
            rpt_json_dump_at(b, item, indent, depth + 1);
        }
        rpt_json_newline(b, indent, depth);
        smfw_buf_append(b, "}", 1);
        return;
    }
    case JSON_ARRAY: {
        if (json_array_size(v) == 0) {
            smfw_buf_puts(b, "[]");
            return;
        }
        smfw_buf_append(b, "[", 1);
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i) smfw_buf_append(b, ",", 1);
            rpt_json_newline(b, indent, depth + 1);
            rpt_json_dump_at(b, json_array_get(v, i), indent, depth + 1);
        }
        rpt_json_newline(b, indent, depth);
        smfw_buf_append(b, "]", 1);
        return;
    }
    case JSON_STRING:
        rpt_json_string_n(b, json_string_value(v), json_string_length(v));
        return;
    case JSON_INTEGER:
        smfw_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return;
    case JSON_REAL: {
        double d = json_real_value(v);
        if (!isfinite(d)) {
            smfw_buf_puts(b, "null");
            return;
        }
        rpt_repr_double(d, num);
        smfw_buf_puts(b, num);
        return;
    }
    case JSON_TRUE:
        smfw_buf_puts(b, "true");
        return;
    case JSON_FALSE:
        smfw_buf_puts(b, "false");
        return;
    case JSON_NULL:
        smfw_buf_puts(b, "null");
        return;
    }
}

void rpt_json_dump(smfw_buf *b, const json_t *value, int indent) {
    rpt_json_dump_at(b, value, indent, 0);
}
