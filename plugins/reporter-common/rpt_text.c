/*
 * rpt_text.c - number formatting for the reporters.
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
