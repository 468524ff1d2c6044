/* stats.c - AIPerf's statistics: numpy "linear" percentiles, population std (aiperf-compat §3). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results.h>

double smfw_percentile_linear(const double *sorted, size_t n, double p) {
    if (n == 0) return NAN;
    if (n == 1) return sorted[0];
    /* numpy: q = p / 100 first, then (n - 1) * q ((n - 1) * p / 100 rounds differently). */
    double h = (double)(n - 1) * (p / 100.0);
    double lo_f = floor(h);
    size_t lo = (size_t)lo_f;
    if (lo >= n - 1) return sorted[n - 1];
    size_t hi = lo + 1;
    double g = h - lo_f;
    double a = sorted[lo], b = sorted[hi];
    /* numpy's _lerp: a + (b-a)*g, but b - (b-a)*(1-g) when g >= 0.5 (bit-compatible). */
    double diff = b - a;
    return g >= 0.5 ? b - diff * (1.0 - g) : a + diff * g;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* Pairwise summation like numpy's add.reduce, so means match to the last bits. */
static double pairwise_sum(const double *v, size_t n) {
    if (n < 8) {
        double s = 0.0;
        for (size_t i = 0; i < n; i++) s += v[i];
        return s;
    }
    if (n <= 128) {
        double r[8];
        for (size_t k = 0; k < 8; k++) r[k] = v[k];
        size_t i;
        for (i = 8; i < n - (n % 8); i += 8)
            for (size_t k = 0; k < 8; k++) r[k] += v[i + k];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += v[i];
        return res;
    }
    size_t half = n / 2;
    half -= half % 8;
    return pairwise_sum(v, half) + pairwise_sum(v + half, n - half);
}

/* numpy's add.reduce hands its inner loop at most one buffer (NPY_BUFSIZE = 8192
 * elements) at a time and adds each block's pairwise sum to the running total. */
#define NUMPY_REDUCE_BLOCK 8192

double smfw_stats_sum(const double *v, size_t n) {
    double s = 0.0;
    for (size_t i = 0; i < n; i += NUMPY_REDUCE_BLOCK)
        s += pairwise_sum(v + i, n - i < NUMPY_REDUCE_BLOCK ? n - i : NUMPY_REDUCE_BLOCK);
    return s;
}

smfw_status smfw_stats_compute(const double *values, size_t n, double scale, smfw_stats *out) {
    memset(out, 0, sizeof *out);
    if (n == 0) return SMFW_OK;
    double *sorted = malloc(n * sizeof *sorted);
    double *dev = malloc(n * sizeof *dev);
    if (!sorted || !dev) {
        free(sorted);
        free(dev);
        return SMFW_ERR_NOMEM;
    }
    memcpy(sorted, values, n * sizeof *sorted);
    double sum = smfw_stats_sum(values, n);
    double mean = sum / (double)n;
    for (size_t i = 0; i < n; i++) {
        double d = values[i] - mean;
        dev[i] = d * d;
    }
    double var = smfw_stats_sum(dev, n) / (double)n;
    qsort(sorted, n, sizeof *sorted, cmp_double);
    out->present = 1;
    out->avg = mean * scale;
    out->min = sorted[0] * scale;
    out->max = sorted[n - 1] * scale;
    out->std = sqrt(var) * scale;
    out->sum = sum * scale;
    out->count = n;
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++)
        out->p[i] = smfw_percentile_linear(sorted, n, smfw_percentiles[i]) * scale;
    out->fields = SMFW_STAT_AVG | SMFW_STAT_MIN | SMFW_STAT_MAX | SMFW_STAT_STD | SMFW_STAT_SUM |
                  SMFW_STAT_COUNT;
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++) out->fields |= SMFW_STAT_P_FIRST << i;
    free(sorted);
    free(dev);
    return SMFW_OK;
}

void smfw_stats_single(smfw_stats *out, double value) {
    memset(out, 0, sizeof *out);
    out->present = 1;
    out->avg = value;
    out->fields = SMFW_STAT_AVG;
}
