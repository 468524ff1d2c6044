/*
 * results_plausible.c - numbers read from a bundle are range-checked before
 * anything prints or casts them: every value finite and small enough to
 * convert to a 64-bit integer without undefined behaviour, counts whole and
 * in 0..2^53, times, lengths and rates not negative. A bundle whose numbers cannot be true is
 * refused by name, so it is never shown as "passed".
 */
#include <math.h>
#include <stdio.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "results_internal.h"

#define MAX_ABS   4e18               /* < INT64_MAX: (int64_t) casts stay defined */
#define MAX_COUNT 9007199254740992.0 /* 2^53: exact in a double */

static int is_count(int id) {
    return id == SMFW_M_REQUEST_COUNT || id == SMFW_M_ERROR_REQUEST_COUNT ||
           id == SMFW_M_GOOD_REQUEST_COUNT;
}

/* Only the schedule lag (sent early) can be below zero. */
static int may_be_negative(int id) {
    return id == SMFW_M_SCHEDULE_LAG;
}

static const char *field_name(const smfw_stats *s, const double *v) {
    if (v == &s->avg) return "avg";
    if (v == &s->min) return "min";
    if (v == &s->max) return "max";
    if (v == &s->std) return "std";
    if (v == &s->sum) return "sum";
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++)
        if (v == &s->p[i]) return smfw_percentile_keys[i];
    return "value";
}

static smfw_status bad(const char *src, const char *tag, const char *field, double v,
                       const char *why, smfw_error *err) {
    return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                          "%s: %s.%s is %.17g, which cannot be true (%s); the bundle's numbers "
                          "are not shown",
                          src, tag, field, v, why);
}

smfw_status smfw_results_check_plausible(const smfw_results *r, const char *src, smfw_error *err) {
    for (int id = 0; id < SMFW_M_COUNT_; id++) {
        const smfw_stats *s = &r->stats[id];
        if (!s->present) continue;
        const char *tag = smfw_metric_get((smfw_metric_id)id)->tag;
        const double *vals[5 + SMFW_PERCENTILE_COUNT];
        const unsigned bits[5] = {SMFW_STAT_AVG, SMFW_STAT_MIN, SMFW_STAT_MAX, SMFW_STAT_STD,
                                  SMFW_STAT_SUM};
        const double *base[5] = {&s->avg, &s->min, &s->max, &s->std, &s->sum};
        size_t n = 0;
        for (int i = 0; i < 5; i++)
            if (s->fields & bits[i]) vals[n++] = base[i];
        for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++)
            if (s->fields & (SMFW_STAT_P_FIRST << i)) vals[n++] = &s->p[i];
        if ((s->fields & SMFW_STAT_COUNT) && (double)s->count > MAX_COUNT)
            return bad(src, tag, "count", (double)s->count, "a count up to 2^53", err);
        for (size_t k = 0; k < n; k++) {
            double v = *vals[k];
            const char *f = field_name(s, vals[k]);
            if (!isfinite(v) || fabs(v) > MAX_ABS)
                return bad(src, tag, f, v, "not a finite number of usable size", err);
            if (v < 0 && !may_be_negative(id) && vals[k] != &s->std)
                return bad(src, tag, f, v, "negative", err);
            if (vals[k] == &s->std && v < 0)
                return bad(src, tag, f, v, "a negative standard deviation", err);
            if (is_count(id) && (v > MAX_COUNT || v != floor(v)))
                return bad(src, tag, f, v, "a count is a whole number up to 2^53", err);
        }
    }
    for (size_t i = 0; i < r->n_errors; i++)
        if ((double)r->errors[i].count > MAX_COUNT)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "%s: error_summary[%zu].count is %llu, which cannot be true (a "
                                  "count up to 2^53); the bundle's numbers are not shown",
                                  src, i, (unsigned long long)r->errors[i].count);
    return SMFW_OK;
}
