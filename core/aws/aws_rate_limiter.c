/* aws_rate_limiter.c - adaptive mode's CUBIC client-side rate limiter (botocore's). */
#include "aws/aws_rate_limiter.h"

#include <errno.h>
#include <math.h>
#include <time.h>

#define MIN_FILL_RATE   0.5 /* bucket.TokenBucket._MIN_RATE */
#define CUBIC_SCALE     0.4 /* throttling.CubicCalculator._SCALE_CONSTANT */
#define CUBIC_BETA      0.7 /* throttling.CubicCalculator._BETA */
#define SMOOTHING       0.8 /* adaptive.RateClocker._DEFAULT_SMOOTHING */
#define BUCKET_SCALE    2.0 /* 1 / RateClocker._TIME_BUCKET_RANGE (0.5 s) */
#define MAX_RATE_ADJUST 2.0 /* ClientRateLimiter._MAX_RATE_ADJUST_SCALE */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void refill(aws_rate_limiter *l, double t) {
    if (!l->refilled) {
        l->refilled = 1;
        l->last_refill = t;
        return;
    }
    l->capacity = fmin(l->max_capacity, l->capacity + (t - l->last_refill) * l->fill_rate);
    l->last_refill = t;
}

static void set_max_rate(aws_rate_limiter *l, double rate, double t) {
    refill(l, t); /* tokens earned so far count at the old rate */
    l->fill_rate = fmax(rate, MIN_FILL_RATE);
    l->max_capacity = rate >= 1 ? rate : 1;
    l->capacity = fmin(l->capacity, l->max_capacity);
}

static double cubic_zero_point(double w_max) {
    return cbrt(w_max * (1 - CUBIC_BETA) / CUBIC_SCALE);
}

void aws_rate_limiter_init(aws_rate_limiter *l) {
    aws_rate_limiter_init_at(l, now_s());
}

void aws_rate_limiter_init_at(aws_rate_limiter *l, double t) {
    *l = (aws_rate_limiter){0};
    pthread_mutex_init(&l->lock, NULL);
    l->last_fail = t;
    l->k = cubic_zero_point(0);
    l->last_bucket = floor(t);
    set_max_rate(l, 1, t);
}

void aws_rate_limiter_destroy(aws_rate_limiter *l) {
    pthread_mutex_destroy(&l->lock);
}

void aws_rate_limiter_acquire(aws_rate_limiter *l) {
    pthread_mutex_lock(&l->lock);
    for (;;) {
        if (!l->enabled) break;
        refill(l, now_s());
        if (l->capacity >= 1) {
            l->capacity -= 1;
            break;
        }
        double wait = (1 - l->capacity) / l->fill_rate;
        pthread_mutex_unlock(&l->lock);
        struct timespec ts = {(time_t)wait, (long)((wait - floor(wait)) * 1e9)};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
        pthread_mutex_lock(&l->lock);
    }
    pthread_mutex_unlock(&l->lock);
}

/* RateClocker.record: the smoothed send rate, updated per half-second bucket. */
static double record_send(aws_rate_limiter *l, double t) {
    double bucket = floor(t * BUCKET_SCALE) / BUCKET_SCALE;
    l->count++;
    if (bucket > l->last_bucket) {
        double current = l->count / (bucket - l->last_bucket);
        l->measured_rate = current * SMOOTHING + l->measured_rate * (1 - SMOOTHING);
        l->count = 0;
        l->last_bucket = bucket;
    }
    return l->measured_rate;
}

void aws_rate_limiter_update(aws_rate_limiter *l, int throttled) {
    aws_rate_limiter_update_at(l, throttled, now_s());
}

void aws_rate_limiter_update_at(aws_rate_limiter *l, int throttled, double t) {
    pthread_mutex_lock(&l->lock);
    double measured = record_send(l, t);
    double rate;
    if (!throttled) {
        double dt = t - l->last_fail;
        rate = CUBIC_SCALE * pow(dt - l->k, 3) + l->w_max;
    } else {
        double current = l->enabled ? fmin(measured, l->fill_rate) : measured;
        l->w_max = current;
        l->k = cubic_zero_point(current);
        l->last_fail = t;
        rate = current * CUBIC_BETA;
        l->enabled = 1;
    }
    set_max_rate(l, fmin(rate, MAX_RATE_ADJUST * measured), t);
    pthread_mutex_unlock(&l->lock);
}

double aws_rate_limiter_rate(aws_rate_limiter *l) {
    pthread_mutex_lock(&l->lock);
    double r = l->enabled ? l->fill_rate : 0;
    pthread_mutex_unlock(&l->lock);
    return r;
}
