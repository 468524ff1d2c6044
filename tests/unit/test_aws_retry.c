/*
 * test_aws_retry.c - the retry policy's pieces that the integration tests
 * only see from outside: the retry quota's arithmetic, the backoff bounds of
 * each mode, the mode names, and the rate limiter staying out of the way
 * until throttling turns it on.
 */
#include <check.h>
#include <time.h>

#include "aws/aws_rate_limiter.h"
#include "aws/aws_retry.h"
#include "smfw_test.h"

START_TEST(quota_arithmetic) {
    aws_retry_quota q;
    aws_retry_quota_init(&q);
    ck_assert_int_eq(aws_retry_quota_left(&q), 500);
    int taken = 0;
    while (aws_retry_quota_take(&q, AWS_RETRY_COST)) taken++;
    ck_assert_int_eq(taken, 100); /* 500 tokens, 5 a retry */
    ck_assert_int_eq(aws_retry_quota_left(&q), 0);
    aws_retry_quota_give(&q, AWS_RETRY_TIMEOUT_COST);
    ck_assert(!aws_retry_quota_take(&q, 11)); /* never partly taken */
    ck_assert_int_eq(aws_retry_quota_left(&q), 10);
    ck_assert(aws_retry_quota_take(&q, AWS_RETRY_TIMEOUT_COST));
    for (int i = 0; i < 600; i++) aws_retry_quota_give(&q, 1);
    ck_assert_int_eq(aws_retry_quota_left(&q), 500); /* capped at the full bucket */
    aws_retry_quota_destroy(&q);
}
END_TEST

START_TEST(backoff_bounds) {
    long max_std = 0, max_thr = 0, max_cap = 0, max_legacy = 0;
    for (int i = 0; i < 2000; i++) {
        long a = aws_retry_backoff_ms(AWS_RETRY_STANDARD, 1, 0);
        long b = aws_retry_backoff_ms(AWS_RETRY_ADAPTIVE, 1, 1);
        long c = aws_retry_backoff_ms(AWS_RETRY_STANDARD, 30, 1);
        long d = aws_retry_backoff_ms(AWS_RETRY_LEGACY, 3, 0);
        ck_assert(a >= 0 && a < 100 && b >= 0 && b < 500 && c >= 0 && c < 20000);
        ck_assert(d >= 0 && d < 4000);
        if (a > max_std) max_std = a;
        if (b > max_thr) max_thr = b;
        if (c > max_cap) max_cap = c;
        if (d > max_legacy) max_legacy = d;
    }
    /* Full jitter spans the whole range (2000 draws: the top tenth is reached). */
    ck_assert(max_std >= 90 && max_thr >= 450 && max_cap >= 18000 && max_legacy >= 3600);
    ck_assert(aws_retry_backoff_ms(AWS_RETRY_LEGACY, 40, 0) >= 0); /* no overflow */
}
END_TEST

START_TEST(mode_names) {
    aws_retry_mode m;
    ck_assert_int_eq(aws_retry_mode_parse("ADAPTIVE", &m), 0);
    ck_assert_int_eq(m, AWS_RETRY_ADAPTIVE);
    ck_assert_str_eq(aws_retry_mode_name(m), "adaptive");
    ck_assert_int_eq(aws_retry_mode_parse("legacy", &m), 0);
    ck_assert_int_eq(m, AWS_RETRY_LEGACY);
    ck_assert_int_eq(aws_retry_mode_parse("standard ", &m), -1);
    ck_assert_int_eq(aws_retry_mode_parse("", &m), -1);
    ck_assert_int_eq(aws_retry_mode_parse(NULL, &m), -1);
    ck_assert_str_eq(aws_retry_class_name(AWS_RETRY_THROTTLING), "throttling");
}
END_TEST

START_TEST(limiter_waits_only_after_throttling) {
    aws_rate_limiter l;
    aws_rate_limiter_init(&l);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < 50; i++) {
        aws_rate_limiter_acquire(&l);
        aws_rate_limiter_update(&l, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    ck_assert(b.tv_sec - a.tv_sec < 2); /* off: no waiting */
    ck_assert(aws_rate_limiter_rate(&l) == 0);
    aws_rate_limiter_update(&l, 1);
    ck_assert(aws_rate_limiter_rate(&l) >= 0.5); /* on, never below the bucket's minimum */
    aws_rate_limiter_destroy(&l);
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_retry");
    TCase *tc = tcase_create("retry");
    tcase_add_test(tc, quota_arithmetic);
    tcase_add_test(tc, backoff_bounds);
    tcase_add_test(tc, mode_names);
    tcase_add_test(tc, limiter_waits_only_after_throttling);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
