/*
 * html_data.c - chart series from results (see html_data.h).
 */
#include "html_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../reporter-common/rpt.h"

void html_xy_free(html_xy *xy) {
    for (size_t i = 0; i < xy->n; i++) {
        if (xy->titles) free(xy->titles[i]);
        if (xy->labels) free(xy->labels[i]);
    }
    free(xy->x);
    free(xy->y);
    free(xy->y0);
    free(xy->titles);
    free(xy->labels);
    memset(xy, 0, sizeof *xy);
}

/* Add a point; `title` is copied (may be NULL). Returns -1 on allocation failure. */
static int html_xy_add(html_xy *xy, double x, double y, const char *title) {
    if (xy->n == xy->cap) {
        size_t cap = xy->cap ? xy->cap * 2 : 64;
        double *nx = realloc(xy->x, cap * sizeof *nx);
        if (!nx) return -1;
        xy->x = nx;
        double *ny = realloc(xy->y, cap * sizeof *ny);
        if (!ny) return -1;
        xy->y = ny;
        char **nt = realloc(xy->titles, cap * sizeof *nt);
        if (!nt) return -1;
        xy->titles = nt;
        xy->cap = cap;
    }
    xy->x[xy->n] = x;
    xy->y[xy->n] = y;
    xy->titles[xy->n] = title ? strdup(title) : NULL;
    xy->n++;
    return 0;
}

static int64_t html_start(const smfw_record *rec) {
    return smfw_record_time_ns(rec, SMFW_RECORD_REQUEST_START);
}

/* A valid record, sent at a known time, with that metric: its value (base units). */
static int html_valid_value(const smfw_record *rec, smfw_metric_id id, double *v) {
    return !smfw_record_get_error(rec) && html_start(rec) > 0 && smfw_record_value(rec, id, v);
}

static int64_t html_first_start(const smfw_results *r) {
    int64_t t0 = 0;
    for (size_t i = 0; i < smfw_results_record_count(r); i++) {
        int64_t s = html_start(smfw_results_record(r, i));
        if (s > 0 && (t0 == 0 || s < t0)) t0 = s;
    }
    return t0;
}

/* When a record ended (wall ns), 0 if unknown. */
static int64_t html_record_end(const smfw_record *rec) {
    double latency;
    if (html_valid_value(rec, SMFW_M_REQUEST_LATENCY, &latency))
        return html_start(rec) + (int64_t)latency;
    int64_t end = smfw_record_time_ns(rec, SMFW_RECORD_REQUEST_END);
    if (end > 0) return end;
    return html_start(rec);
}

int html_data_timeline(const smfw_results *r, size_t max_points, html_xy *out, size_t *total) {
    memset(out, 0, sizeof *out);
    int64_t t0 = html_first_start(r);
    size_t n = 0, n_records = smfw_results_record_count(r);
    double ttft;
    for (size_t i = 0; i < n_records; i++)
        if (html_valid_value(smfw_results_record(r, i), SMFW_M_TIME_TO_FIRST_TOKEN, &ttft)) n++;
    *total = n;
    if (n == 0) return 0;
    size_t stride = max_points && n > max_points ? (n + max_points - 1) / max_points : 1;
    size_t k = 0;
    for (size_t i = 0; i < n_records; i++) {
        const smfw_record *rec = smfw_results_record(r, i);
        if (!html_valid_value(rec, SMFW_M_TIME_TO_FIRST_TOKEN, &ttft)) continue;
        if (k++ % stride != 0) continue;
        double x = (double)(html_start(rec) - t0) / 1e9;
        double y = ttft * 1e-6;
        char title[256], ys[RPT_NUM_MAX];
        rpt_human(y, 2, ys);
        const char *id = smfw_record_request_id(rec);
        if (id)
            snprintf(title, sizeof title, "request %.64s: sent at +%.3f s, TTFT %s ms", id, x, ys);
        else
            snprintf(title, sizeof title, "request %zu: sent at +%.3f s, TTFT %s ms", i + 1, x, ys);
        if (html_xy_add(out, x, y, title) != 0) return -1;
    }
    return 0;
}

static int html_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int html_data_cdf(const smfw_results *r, smfw_metric_id id, size_t max_points, html_xy *out,
                  int *from_stats) {
    memset(out, 0, sizeof *out);
    *from_stats = 0;
    const smfw_metric_info *info = smfw_metric_get(id);
    double scale = info ? info->display_scale : 1.0;
    const char *unit = info ? info->display_unit : "";
    size_t n = 0, n_records = smfw_results_record_count(r);
    double value;
    for (size_t i = 0; i < n_records; i++) {
        const smfw_record *rec = smfw_results_record(r, i);
        if (!smfw_record_get_error(rec) && smfw_record_value(rec, id, &value)) n++;
    }
    char title[160], vs[RPT_NUM_MAX];
    if (n > 0) {
        double *v = malloc(n * sizeof *v);
        if (!v) return -1;
        size_t k = 0;
        for (size_t i = 0; i < n_records; i++) {
            const smfw_record *rec = smfw_results_record(r, i);
            if (!smfw_record_get_error(rec) && smfw_record_value(rec, id, &value))
                v[k++] = value * scale;
        }
        qsort(v, n, sizeof *v, html_cmp_double);
        size_t m = max_points && n > max_points ? max_points : n;
        for (size_t j = 0; j < m; j++) {
            size_t idx =
                m == 1 ? n - 1 : (size_t)llround((double)j * (double)(n - 1) / (double)(m - 1));
            double pct = 100.0 * (double)(idx + 1) / (double)n;
            rpt_human(v[idx], 2, vs);
            snprintf(title, sizeof title, "%.1f %% of requests at or below %s %s", pct, vs, unit);
            if (html_xy_add(out, v[idx], pct, title) != 0) {
                free(v);
                return -1;
            }
        }
        free(v);
        return 0;
    }
    /* No records: the summary's percentiles are points of the same curve. */
    const smfw_stats *s = smfw_results_stat(r, id);
    if (!s) return 0;
    *from_stats = 1;
    if (s->fields & SMFW_STAT_MIN) {
        rpt_human(s->min, 2, vs);
        snprintf(title, sizeof title, "min: %s %s", vs, unit);
        if (html_xy_add(out, s->min, 0.0, title) != 0) return -1;
    }
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++) {
        if (!(s->fields & (SMFW_STAT_P_FIRST << i))) continue;
        rpt_human(s->p[i], 2, vs);
        snprintf(title, sizeof title, "%s: %s %s", smfw_percentile_keys[i], vs, unit);
        if (html_xy_add(out, s->p[i], smfw_percentiles[i], title) != 0) return -1;
    }
    if (s->fields & SMFW_STAT_MAX) {
        rpt_human(s->max, 2, vs);
        snprintf(title, sizeof title, "max: %s %s", vs, unit);
        if (html_xy_add(out, s->max, 100.0, title) != 0) return -1;
    }
    return 0;
}

int html_data_bins(const smfw_results *r, size_t target, html_bins *bins) {
    memset(bins, 0, sizeof *bins);
    int64_t t0 = html_first_start(r), t1 = 0;
    if (t0 == 0) return 0;
    for (size_t i = 0; i < smfw_results_record_count(r); i++) {
        int64_t e = html_record_end(smfw_results_record(r, i));
        if (e > t1) t1 = e;
    }
    double span = (double)(t1 - t0) / 1e9;
    if (!(span > 1e-3)) span = 1e-3;
    double raw = span / (double)(target ? target : 60);
    double mag = pow(10.0, floor(log10(raw)));
    double f = raw / mag;
    double nice = f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0;
    bins->t0_ns = t0;
    bins->width_s = nice * mag;
    bins->n = (size_t)floor(span / bins->width_s) + 1;
    return 1;
}

static void html_bin_title(char *out, size_t size, const html_bins *bins, size_t i) {
    int d = bins->width_s >= 1 ? 0 : (int)ceil(-log10(bins->width_s));
    snprintf(out, size, "%.*f-%.*f s", d, (double)i * bins->width_s, d,
             (double)(i + 1) * bins->width_s);
}

int html_data_throughput(const smfw_results *r, const html_bins *bins, html_xy *out) {
    memset(out, 0, sizeof *out);
    if (bins->n == 0) return 0;
    double *tokens = calloc(bins->n, sizeof *tokens);
    if (!tokens) return -1;
    for (size_t i = 0; i < smfw_results_record_count(r); i++) {
        const smfw_record *rec = smfw_results_record(r, i);
        double latency, osl, ttft;
        if (!html_valid_value(rec, SMFW_M_REQUEST_LATENCY, &latency) ||
            !smfw_record_value(rec, SMFW_M_OUTPUT_SEQUENCE_LENGTH, &osl))
            continue;
        double start = (double)(html_start(rec) - bins->t0_ns) / 1e9;
        double a = start, e = start + latency / 1e9;
        if (smfw_record_value(rec, SMFW_M_TIME_TO_FIRST_TOKEN, &ttft)) a = start + ttft / 1e9;
        if (!(e > a)) {
            size_t k = (size_t)fmax(0.0, floor(e / bins->width_s));
            if (k < bins->n) tokens[k] += osl;
            continue;
        }
        double rate = osl / (e - a);
        size_t k0 = (size_t)fmax(0.0, floor(a / bins->width_s));
        for (size_t k = k0; k < bins->n; k++) {
            double b0 = (double)k * bins->width_s, b1 = b0 + bins->width_s;
            if (b0 >= e) break;
            double overlap = fmin(b1, e) - fmax(b0, a);
            if (overlap > 0) tokens[k] += overlap * rate;
        }
    }
    for (size_t k = 0; k < bins->n; k++) {
        char title[160], when[64], vs[RPT_NUM_MAX];
        double tps = tokens[k] / bins->width_s;
        html_bin_title(when, sizeof when, bins, k);
        rpt_human(tps, 1, vs);
        snprintf(title, sizeof title, "%s: %s output tokens/s", when, vs);
        if (html_xy_add(out, ((double)k + 0.5) * bins->width_s, tps, title) != 0) {
            free(tokens);
            return -1;
        }
    }
    free(tokens);
    return 0;
}

int html_data_errors(const smfw_results *r, const html_bins *bins, html_xy *out,
                     smfw_error_class *classes) {
    size_t nc = SMFW_ERRCLASS_COUNT_;
    for (size_t c = 0; c < nc; c++) memset(&out[c], 0, sizeof out[c]);
    if (bins->n == 0) return 0;
    uint64_t *count = calloc(bins->n * nc, sizeof *count);
    double *base = calloc(bins->n, sizeof *base);
    if (!count || !base) {
        free(count);
        free(base);
        return -1;
    }
    int seen[SMFW_ERRCLASS_COUNT_] = {0};
    for (size_t i = 0; i < smfw_results_record_count(r); i++) {
        const smfw_record *rec = smfw_results_record(r, i);
        const smfw_record_error *error = smfw_record_get_error(rec);
        if (!error) continue;
        int64_t t = html_record_end(rec);
        if (t <= 0) continue;
        double s = (double)(t - bins->t0_ns) / 1e9;
        size_t k = (size_t)fmax(0.0, floor(s / bins->width_s));
        if (k >= bins->n) k = bins->n - 1;
        int c = (int)error->error_class;
        if (c <= SMFW_ERRCLASS_NONE || c >= SMFW_ERRCLASS_COUNT_) c = SMFW_ERRCLASS_OTHER;
        count[k * nc + (size_t)c]++;
        seen[c] = 1;
    }
    int any = 0;
    for (size_t c = 0; c < nc; c++) any |= seen[c];
    if (!any) seen[SMFW_ERRCLASS_NONE] = 1; /* one series of zero-height bars */
    int ns = 0;
    for (size_t c = 0; c < nc; c++) {
        if (!seen[c]) continue;
        html_xy *xy = &out[ns];
        classes[ns] = (smfw_error_class)c;
        for (size_t k = 0; k < bins->n; k++) {
            char title[160], when[64];
            uint64_t v = count[k * nc + c];
            html_bin_title(when, sizeof when, bins, k);
            snprintf(title, sizeof title, "%s: %llu failed (%s)", when, (unsigned long long)v,
                     c == SMFW_ERRCLASS_NONE ? "no errors"
                                             : smfw_error_class_name((smfw_error_class)c));
            if (html_xy_add(xy, (double)k * bins->width_s, base[k] + (double)v, title) != 0)
                goto fail;
        }
        xy->y0 = malloc(bins->n * sizeof *xy->y0);
        if (!xy->y0) goto fail;
        for (size_t k = 0; k < bins->n; k++) {
            xy->y0[k] = base[k];
            base[k] = xy->y[k];
        }
        ns++;
    }
    free(count);
    free(base);
    return ns;
fail:
    for (int s = 0; s <= ns && s < (int)nc; s++) html_xy_free(&out[s]);
    free(count);
    free(base);
    return -1;
}
