/*
 * rpt_text.c - text buffer and number formatting for the reporters.
 *
 * Numbers follow Python because AIPerf writes its files from Python: the
 * JSON uses repr(float) (smfw_format_double) and the CSV f"{x:.2f}".
 * glibc's printf rounds exactly, so "%.2f" already agrees with Python.
 */
#include "rpt.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rpt_buf_init(rpt_buf *b) {
    memset(b, 0, sizeof *b);
}

void rpt_buf_free(rpt_buf *b) {
    free(b->data);
    rpt_buf_init(b);
}

static int rpt_buf_reserve(rpt_buf *b, size_t extra) {
    if (b->failed) return -1;
    if (b->len + extra + 1 <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        if (cap > SIZE_MAX / 2) {
            b->failed = 1;
            return -1;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

void rpt_buf_append(rpt_buf *b, const char *s, size_t n) {
    if (rpt_buf_reserve(b, n) != 0) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void rpt_buf_puts(rpt_buf *b, const char *s) {
    rpt_buf_append(b, s, strlen(s));
}

void rpt_buf_printf(rpt_buf *b, const char *fmt, ...) {
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        rpt_buf_append(b, small, (size_t)n);
        return;
    }
    if (rpt_buf_reserve(b, (size_t)n) != 0) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void rpt_repr_double(double v, char out[RPT_NUM_MAX]) {
    /* The core's formatter is the one the JSONL writer uses: one spelling everywhere. */
    smfw_format_double(v, out);
}

void rpt_fixed2(double v, char out[RPT_NUM_MAX]) {
    if (!isfinite(v)) {
        strcpy(out, isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
        return;
    }
    snprintf(out, RPT_NUM_MAX, "%.2f", v);
}

void rpt_human(double v, int decimals, char out[RPT_NUM_MAX]) {
    if (!isfinite(v) || fabs(v) >= 1e21) {
        rpt_repr_double(v, out);
        return;
    }
    char raw[RPT_NUM_MAX];
    snprintf(raw, sizeof raw, "%.*f", decimals, v);
    const char *p = raw;
    char *o = out;
    if (*p == '-') *o++ = *p++;
    size_t int_len = strcspn(p, ".");
    for (size_t i = 0; i < int_len; i++) {
        if (i > 0 && (int_len - i) % 3 == 0) *o++ = ',';
        *o++ = p[i];
    }
    strcpy(o, p + int_len);
}
