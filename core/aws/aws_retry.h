/*
 * aws_retry.h - the retry policy of control-plane calls, as the AWS SDKs
 * define it (internal): the retry mode (legacy, standard, adaptive) and
 * max_attempts from the environment or the profile, which errors are
 * retried, the exponential backoff and standard mode's retry quota.
 *
 * Error tables: botocore 1.43's retries/standard.py (standard, adaptive)
 * and data/_retry.json's "__default__", "s3" and "sts" policies (legacy).
 */
#ifndef SMFW_AWS_RETRY_H
#define SMFW_AWS_RETRY_H

#include <pthread.h>

#include <smfw/smfw.h>

typedef enum aws_retry_mode {
    AWS_RETRY_LEGACY,
    AWS_RETRY_STANDARD, /* smfw's default */
    AWS_RETRY_ADAPTIVE, /* standard + the client-side rate limiter */
} aws_retry_mode;

/* "legacy", "standard", "adaptive" (the cfg/retry-mode User-Agent value). */
const char *aws_retry_mode_name(aws_retry_mode mode);

/* 0 with *mode set for "legacy" / "standard" / "adaptive" (any case), else -1. */
int aws_retry_mode_parse(const char *text, aws_retry_mode *mode);

/* What a failed attempt was, for the classifier. */
typedef enum aws_retry_failure {
    AWS_FAIL_RESPONSE, /* an HTTP answer (status, code) */
    AWS_FAIL_CONNECT,  /* no answer: connection refused, reset, DNS */
    AWS_FAIL_TIMEOUT,  /* no answer in time */
} aws_retry_failure;

typedef enum aws_retry_class {
    AWS_RETRY_NO,
    AWS_RETRY_TRANSIENT,
    AWS_RETRY_THROTTLING,
} aws_retry_class;

/* "no", "transient", "throttling". */
const char *aws_retry_class_name(aws_retry_class cls);

/*
 * Whether a failure is retried in `mode`, and as what. `service` is the
 * signing name ("sts", "s3", "sagemaker"...: a few rules are per service),
 * `code` the parsed error code (NULL or "" when none).
 */
aws_retry_class aws_retry_classify(aws_retry_mode mode, const char *service,
                                   aws_retry_failure failure, long http_status, const char *code);

/* Whether an answer is throttling, for the adaptive rate limiter (code only, as botocore). */
int aws_retry_is_throttling_code(const char *code);
/* Those codes (NULL-terminated), for the test of docs/aws.md's error table. */
const char *const *aws_retry_throttling_codes(void);

/*
 * Delay before retry number `retry` (1-based), full jitter:
 * legacy:   random(0,1) * 2^(retry-1) s (botocore's _retry.json, no cap);
 * standard: random(0,1) * min(base * 2^(retry-1), 20 s), base 100 ms, 500 ms
 *           after throttling (the JavaScript v3 SDK's bases).
 */
long aws_retry_backoff_ms(aws_retry_mode mode, int retry, int throttled);

/* Standard mode's client-wide retry quota (a token bucket that only refills on success). */
#define AWS_RETRY_QUOTA        500
#define AWS_RETRY_COST         5
#define AWS_RETRY_TIMEOUT_COST 10

typedef struct aws_retry_quota {
    pthread_mutex_t lock;
    int tokens;
} aws_retry_quota;

void aws_retry_quota_init(aws_retry_quota *q);
void aws_retry_quota_destroy(aws_retry_quota *q);
/* Take `cost` tokens; 0 (nothing taken) when fewer are left. */
int aws_retry_quota_take(aws_retry_quota *q, int cost);
/* Give back `amount` tokens, never above the full bucket. */
void aws_retry_quota_give(aws_retry_quota *q, int amount);
int aws_retry_quota_left(aws_retry_quota *q);

#endif
