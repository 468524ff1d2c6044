/*
 * aws_rate_limiter.h - adaptive retry mode's client-side rate limiter
 * (internal), as botocore 1.43's retries/adaptive.py, bucket.py and
 * throttling.py: off until the first throttling answer, then a token bucket
 * whose rate follows CUBIC (cut by beta 0.7 on throttling, grown back along
 * 0.4 * (t - K)^3 + W_max) and never above twice the measured send rate.
 */
#ifndef SMFW_AWS_RATE_LIMITER_H
#define SMFW_AWS_RATE_LIMITER_H

#include <pthread.h>

typedef struct aws_rate_limiter {
    pthread_mutex_t lock;
    int enabled; /* after the first throttling answer */
    /* token bucket */
    double fill_rate, max_capacity, capacity, last_refill; /* tokens/s, tokens, tokens, s */
    int refilled;
    /* CUBIC */
    double w_max, k, last_fail;
    /* measured send rate, smoothed over half-second buckets */
    double measured_rate, last_bucket;
    int count;
} aws_rate_limiter;

void aws_rate_limiter_init(aws_rate_limiter *l);
void aws_rate_limiter_destroy(aws_rate_limiter *l);

/* Before sending: wait for a token once enabled (returns at once before that). */
void aws_rate_limiter_acquire(aws_rate_limiter *l);

/* After every answer (and failed attempt): adjust the send rate. */
void aws_rate_limiter_update(aws_rate_limiter *l, int throttled);

/* The same two at a given time (seconds on any fixed clock), for tests. */
void aws_rate_limiter_init_at(aws_rate_limiter *l, double t);
void aws_rate_limiter_update_at(aws_rate_limiter *l, int throttled, double t);

/* The bucket's current rate in requests per second (0 while not enabled), for tests. */
double aws_rate_limiter_rate(aws_rate_limiter *l);

#endif
