/*
 * metrics.c - what the mock observed, kept as one compact sample per
 * invocation so GetMetricData can answer any period and statistic
 * (Sum, Average, Minimum, Maximum, SampleCount, pNN) exactly.
 */
#include "mock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct metric_sample {
    double unix_s;
    float model_us;
    float overhead_us;
    uint16_t dims; /* index into the dimension table */
    uint16_t status;
} metric_sample;

typedef struct metric_dims {
    char endpoint[80];
    char variant[64];
    char component[80];
} metric_dims;

struct mock_metrics {
    metric_sample *samples;
    size_t count, cap;
    metric_dims *dims;
    size_t dims_count, dims_cap;
};

#define METRICS_MAX_SAMPLES ((size_t)20 * 1000 * 1000)

mock_metrics *mock_metrics_new(void) {
    mock_metrics *m = calloc(1, sizeof *m);
    if (!m) abort();
    return m;
}

void mock_metrics_free(mock_metrics *m) {
    if (!m) return;
    free(m->samples);
    free(m->dims);
    free(m);
}

static uint16_t dims_id(mock_metrics *m, const char *endpoint, const char *variant,
                        const char *component) {
    if (!component) component = "";
    for (size_t i = 0; i < m->dims_count; i++)
        if (!strcmp(m->dims[i].endpoint, endpoint) && !strcmp(m->dims[i].variant, variant) &&
            !strcmp(m->dims[i].component, component))
            return (uint16_t)i;
    if (m->dims_count == m->dims_cap) {
        m->dims_cap = m->dims_cap ? m->dims_cap * 2 : 8;
        m->dims = realloc(m->dims, m->dims_cap * sizeof *m->dims);
        if (!m->dims) abort();
    }
    metric_dims *d = &m->dims[m->dims_count];
    snprintf(d->endpoint, sizeof d->endpoint, "%s", endpoint);
    snprintf(d->variant, sizeof d->variant, "%s", variant);
    snprintf(d->component, sizeof d->component, "%s", component);
    return (uint16_t)m->dims_count++;
}

void mock_metrics_record(mock_metrics *m, const char *endpoint, const char *variant,
                         const char *component, double unix_s, int status, double model_latency_us,
                         double overhead_latency_us) {
    if (m->count == METRICS_MAX_SAMPLES) return; /* bounded memory on very long runs */
    if (m->count == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 1024;
        m->samples = realloc(m->samples, m->cap * sizeof *m->samples);
        if (!m->samples) abort();
    }
    metric_sample *s = &m->samples[m->count++];
    s->unix_s = unix_s;
    s->model_us = (float)model_latency_us;
    s->overhead_us = (float)overhead_latency_us;
    s->dims = dims_id(m, endpoint, variant, component);
    s->status = (uint16_t)status;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The value one sample contributes to a metric, or NAN when it does not count. */
static double sample_value(const metric_sample *s, const char *metric) {
    int ok = s->status >= 200 && s->status < 300;
    if (!strcmp(metric, "Invocations") || !strcmp(metric, "InvocationsPerInstance")) return 1;
    if (!strcmp(metric, "Invocation4XXErrors")) return s->status >= 400 && s->status < 500;
    if (!strcmp(metric, "Invocation5XXErrors")) return s->status >= 500;
    if (!strcmp(metric, "InvocationModelErrors")) return s->status == 424;
    if (!strcmp(metric, "ModelLatency")) return ok ? s->model_us : NAN;
    if (!strcmp(metric, "OverheadLatency")) return ok ? s->overhead_us : NAN;
    return NAN;
}

static double stat_of(double *v, size_t n, const char *stat) {
    if (!strcmp(stat, "SampleCount")) return (double)n;
    double sum = 0, mn = v[0], mx = v[0];
    for (size_t i = 0; i < n; i++) {
        sum += v[i];
        if (v[i] < mn) mn = v[i];
        if (v[i] > mx) mx = v[i];
    }
    if (!strcmp(stat, "Sum")) return sum;
    if (!strcmp(stat, "Average")) return sum / (double)n;
    if (!strcmp(stat, "Minimum")) return mn;
    if (!strcmp(stat, "Maximum")) return mx;
    if (stat[0] == 'p') {
        double p = atof(stat + 1);
        qsort(v, n, sizeof *v, cmp_double);
        size_t rank = (size_t)ceil(p / 100.0 * (double)n);
        if (rank < 1) rank = 1;
        if (rank > n) rank = n;
        return v[rank - 1];
    }
    return NAN;
}

size_t mock_metrics_query(mock_metrics *m, const char *metric, const char *endpoint,
                          const char *variant, const char *component, const char *stat,
                          double start, double end, int period, mock_metric_point *out,
                          size_t max) {
    if (period <= 0) return 0;
    size_t n_buckets = (size_t)ceil((end - start) / period);
    if (n_buckets == 0 || n_buckets > 100800) return 0;
    double base = floor(start / period) * period;
    n_buckets = (size_t)ceil((end - base) / period);
    size_t found = 0;
    double *vals = malloc((m->count + 1) * sizeof *vals);
    if (!vals) abort();
    for (size_t b = 0; b < n_buckets && found < max; b++) {
        double lo = base + (double)b * period, hi = lo + period;
        size_t nv = 0;
        for (size_t i = 0; i < m->count; i++) {
            const metric_sample *s = &m->samples[i];
            if (s->unix_s < lo || s->unix_s >= hi || s->unix_s < start || s->unix_s >= end)
                continue;
            const metric_dims *d = &m->dims[s->dims];
            if (component) {
                if (strcmp(d->component, component) != 0) continue;
            } else {
                if (endpoint && strcmp(d->endpoint, endpoint) != 0) continue;
                if (variant && strcmp(d->variant, variant) != 0) continue;
            }
            double v = sample_value(s, metric);
            if (!isnan(v)) vals[nv++] = v;
        }
        if (nv == 0) continue; /* missing data points are simply absent */
        out[found].timestamp = lo;
        out[found].value = stat_of(vals, nv, stat);
        found++;
    }
    free(vals);
    return found;
}
