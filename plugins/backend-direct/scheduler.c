/*
 * scheduler.c - seeded generators and arrival schedules (see scheduler.h).
 */
#include "scheduler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void direct_rng_seed(direct_rng *r, uint64_t seed, uint64_t stream) {
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

uint64_t direct_rng_next(direct_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double direct_rng_uniform(direct_rng *r) {
    /* 53 random bits, shifted by half a step: strictly inside (0, 1). */
    return ((double)(direct_rng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

double direct_rng_normal(direct_rng *r, double mean, double stddev) {
    if (stddev <= 0) return mean;
    double u1 = direct_rng_uniform(r), u2 = direct_rng_uniform(r);
    return mean + stddev * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

void direct_uuid4(direct_rng *r, char out[37]) {
    uint64_t a = direct_rng_next(r), b = direct_rng_next(r);
    a = (a & ~0xF000ull) | 0x4000ull;                 /* version 4 */
    b = (b & ~(0xC000ull << 48)) | (0x8000ull << 48); /* variant 10 */
    snprintf(out, 37, "%08x-%04x-%04x-%04x-%012llx", (unsigned)(a >> 32),
             (unsigned)((a >> 16) & 0xFFFF), (unsigned)(a & 0xFFFF), (unsigned)(b >> 48),
             (unsigned long long)(b & 0xFFFFFFFFFFFFull));
}

void direct_arrivals_init(direct_arrivals *a, direct_arrival kind, double rate, int worker,
                          int n_workers, int64_t t0, uint64_t seed) {
    a->kind = kind;
    a->rate = rate;
    a->worker = worker;
    a->n_workers = n_workers > 0 ? n_workers : 1;
    a->t0 = t0;
    a->k = 0;
    a->elapsed_s = 0;
    direct_rng_seed(&a->rng, seed, 0x5CED0000ull + (uint64_t)worker);
}

void direct_arrivals_fixed(direct_arrivals *a, const int64_t *offsets_ns, size_t n,
                           double speedup) {
    a->kind = DIRECT_ARRIVAL_FIXED;
    a->offsets_ns = offsets_ns;
    a->n_offsets = n;
    a->speedup = speedup > 0 ? speedup : 1.0;
}

int64_t *direct_schedule_offsets(const int64_t *timestamps_ms, size_t n) {
    int64_t *o = malloc((n ? n : 1) * sizeof *o);
    if (!o) return NULL;
    for (size_t i = 0; i < n; i++) o[i] = (timestamps_ms[i] - timestamps_ms[0]) * 1000000LL;
    return o;
}

int64_t direct_arrivals_next(direct_arrivals *a) {
    int64_t t;
    if (a->kind == DIRECT_ARRIVAL_FIXED) {
        if (a->k >= a->n_offsets) return INT64_MAX; /* the schedule is over */
        t = a->t0 + (int64_t)llround((double)a->offsets_ns[a->k] / a->speedup);
    } else if (a->kind == DIRECT_ARRIVAL_POISSON) {
        double worker_rate = a->rate / a->n_workers;
        a->elapsed_s += -log(direct_rng_uniform(&a->rng)) / worker_rate;
        t = a->t0 + (int64_t)llround(a->elapsed_s * 1e9);
    } else if (a->kind == DIRECT_ARRIVAL_CONSTANT) {
        double slot = (double)a->worker + (double)a->k * a->n_workers;
        t = a->t0 + (int64_t)llround(slot * 1e9 / a->rate);
    } else {
        t = a->t0;
    }
    a->k++;
    return t;
}

int64_t direct_share(int64_t total, int n, int i) {
    if (n <= 0) return total;
    return total / n + (i < total % n ? 1 : 0);
}

int direct_default_workers(int64_t in_flight, double rate, int cpus) {
    int64_t by_conn = (in_flight + 127) / 128;
    int64_t by_rate = (int64_t)ceil(rate / 500.0);
    int64_t w = by_conn > by_rate ? by_conn : by_rate;
    if (w < 1) w = 1;
    if (cpus < 1) cpus = 1;
    if (w > cpus) w = cpus;
    return (int)w;
}
