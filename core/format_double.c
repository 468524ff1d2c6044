/* format_double.c - Python repr() of a float: what AIPerf writes into its JSON files. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results.h>

char *smfw_format_double(double v, char *buf) {
    if (isnan(v)) {
        strcpy(buf, "NaN");
        return buf;
    }
    if (isinf(v)) {
        strcpy(buf, v > 0 ? "Infinity" : "-Infinity");
        return buf;
    }
    if (v == 0) {
        strcpy(buf, signbit(v) ? "-0.0" : "0.0");
        return buf;
    }
    /* Shortest round-tripping significant digits. Any double whose shortest form
     * has at most 15 digits prints as exactly that form at 15 digits once the
     * trailing zeros go (DBL_DIG = 15), so 15, 16 and 17 are the only tries needed.
     * Subnormals carry fewer bits: search them from one digit up. */
    char tmp[40];
    int prec;
    for (prec = fabs(v) < DBL_MIN ? 1 : 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
        if (prec == 17 || strtod(tmp, NULL) == v) break;
    }
    /* tmp = d.ddde[+-]XX ; split mantissa digits and exponent */
    char digits[24];
    int nd = 0;
    const char *p = tmp;
    int neg = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') digits[nd++] = *p;
    digits[nd] = '\0';
    int exp10 = atoi(p + 1);
    /* strip trailing zeros of the mantissa */
    while (nd > 1 && digits[nd - 1] == '0') digits[--nd] = '\0';
    char *o = buf;
    if (neg) *o++ = '-';
    if (exp10 < -4 || exp10 >= 16) {
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)nd - 1);
            o += nd - 1;
        } else {
            /* Python: 1e+18 -> "1e+18" */
        }
        o += sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    } else if (exp10 < 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -exp10 - 1; i++) *o++ = '0';
        memcpy(o, digits, (size_t)nd);
        o += nd;
    } else {
        int int_digits = exp10 + 1;
        for (int i = 0; i < int_digits; i++) *o++ = i < nd ? digits[i] : '0';
        *o++ = '.';
        if (nd > int_digits) {
            memcpy(o, digits + int_digits, (size_t)(nd - int_digits));
            o += nd - int_digits;
        } else {
            *o++ = '0';
        }
    }
    *o = '\0';
    return buf;
}
