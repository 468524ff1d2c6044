/*
 * aws_retry.c - the SDKs' retry policy: mode and max_attempts resolution,
 * the error classifier of each mode, backoff, and the retry quota.
 */
#include "aws/aws_retry.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/rand.h>

#include "aws/aws_internal.h"

#define BACKOFF_CAP_MS 20000

static const char *const MODE_NAMES[] = {"legacy", "standard", "adaptive"};

const char *aws_retry_mode_name(aws_retry_mode mode) {
    return mode >= AWS_RETRY_LEGACY && mode <= AWS_RETRY_ADAPTIVE ? MODE_NAMES[mode] : "?";
}

int aws_retry_mode_parse(const char *text, aws_retry_mode *mode) {
    for (int m = AWS_RETRY_LEGACY; m <= AWS_RETRY_ADAPTIVE; m++)
        if (text && strcasecmp(text, MODE_NAMES[m]) == 0) {
            *mode = (aws_retry_mode)m;
            return 0;
        }
    return -1;
}

const char *aws_retry_class_name(aws_retry_class cls) {
    return cls == AWS_RETRY_THROTTLING  ? "throttling"
           : cls == AWS_RETRY_TRANSIENT ? "transient"
                                        : "no";
}

static int in_list(const char *code, const char *const *list) {
    if (!code || !*code) return 0;
    for (; *list; list++)
        if (strcmp(code, *list) == 0) return 1;
    return 0;
}

/* botocore retries/standard.py, ThrottledRetryableChecker._THROTTLED_ERROR_CODES. */
static const char *const STANDARD_THROTTLED[] = {"Throttling",
                                                 "ThrottlingException",
                                                 "ThrottledException",
                                                 "RequestThrottledException",
                                                 "TooManyRequestsException",
                                                 "ProvisionedThroughputExceededException",
                                                 "TransactionInProgressException",
                                                 "RequestLimitExceeded",
                                                 "BandwidthLimitExceeded",
                                                 "LimitExceededException",
                                                 "RequestThrottled",
                                                 "SlowDown",
                                                 "PriorRequestNotComplete",
                                                 "EC2ThrottledException",
                                                 NULL};
/* botocore retries/standard.py, TransientRetryableChecker._TRANSIENT_ERROR_CODES. */
static const char *const STANDARD_TRANSIENT[] = {"RequestTimeout", "RequestTimeoutException",
                                                 "PriorRequestNotComplete", NULL};

/* botocore data/_retry.json "__default__" policies that need HTTP 400 and a code. */
static const char *const LEGACY_THROTTLED_400[] = {"Throttling",
                                                   "ThrottlingException",
                                                   "ThrottledException",
                                                   "RequestThrottledException",
                                                   "ProvisionedThroughputExceededException",
                                                   NULL};

int aws_retry_is_throttling_code(const char *code) {
    return in_list(code, STANDARD_THROTTLED);
}

const char *const *aws_retry_throttling_codes(void) {
    return STANDARD_THROTTLED;
}

static int transient_status(long s) {
    return s == 500 || s == 502 || s == 503 || s == 504;
}

/* Standard (and adaptive): TransientRetryableChecker, ThrottledRetryableChecker and
   special.RetryIDPCommunicationError (STS). Modeled "retryable" traits: none of the
   operations smfw calls has one. */
static aws_retry_class classify_standard(const char *service, aws_retry_failure failure,
                                         long status, const char *code) {
    if (failure != AWS_FAIL_RESPONSE) return AWS_RETRY_TRANSIENT; /* ConnectionError */
    if (in_list(code, STANDARD_THROTTLED)) return AWS_RETRY_THROTTLING;
    if (in_list(code, STANDARD_TRANSIENT) || transient_status(status)) return AWS_RETRY_TRANSIENT;
    if (service && strcmp(service, "sts") == 0 && code &&
        strcmp(code, "IDPCommunicationError") == 0)
        return AWS_RETRY_TRANSIENT;
    return AWS_RETRY_NO;
}

/* Legacy: data/_retry.json's __default__ policies plus the s3 and sts sections. */
static aws_retry_class classify_legacy(const char *service, aws_retry_failure failure, long status,
                                       const char *code) {
    if (failure != AWS_FAIL_RESPONSE) return AWS_RETRY_TRANSIENT; /* general_socket_errors */
    if (status == 429) return AWS_RETRY_THROTTLING;               /* too_many_requests */
    if (status == 400 && in_list(code, LEGACY_THROTTLED_400)) return AWS_RETRY_THROTTLING;
    if (transient_status(status) || status == 509) return AWS_RETRY_TRANSIENT;
    if (status == 400 && code && service) {
        if (strcmp(service, "s3") == 0 &&
            (strcmp(code, "RequestTimeout") == 0 || strcmp(code, "BadDigest") == 0))
            return AWS_RETRY_TRANSIENT;
        if (strcmp(service, "sts") == 0 && strcmp(code, "IDPCommunicationError") == 0)
            return AWS_RETRY_TRANSIENT;
    }
    return AWS_RETRY_NO;
}

aws_retry_class aws_retry_classify(aws_retry_mode mode, const char *service,
                                   aws_retry_failure failure, long http_status, const char *code) {
    return mode == AWS_RETRY_LEGACY ? classify_legacy(service, failure, http_status, code)
                                    : classify_standard(service, failure, http_status, code);
}

long aws_retry_backoff_ms(aws_retry_mode mode, int retry, int throttled) {
    long base = mode == AWS_RETRY_LEGACY ? 1000 : throttled ? 500 : 100;
    long cap = mode == AWS_RETRY_LEGACY ? LONG_MAX / 2 : BACKOFF_CAP_MS;
    long span = base;
    for (int i = 1; i < retry && span < cap; i++) span *= 2;
    if (span > cap) span = cap;
    unsigned int r = 0;
    if (RAND_bytes((unsigned char *)&r, sizeof(r)) != 1) r = (unsigned int)rand();
    return (long)((double)r / 4294967296.0 * (double)span);
}

void aws_retry_quota_init(aws_retry_quota *q) {
    pthread_mutex_init(&q->lock, NULL);
    q->tokens = AWS_RETRY_QUOTA;
}

void aws_retry_quota_destroy(aws_retry_quota *q) {
    pthread_mutex_destroy(&q->lock);
}

int aws_retry_quota_take(aws_retry_quota *q, int cost) {
    pthread_mutex_lock(&q->lock);
    int ok = q->tokens >= cost;
    if (ok) q->tokens -= cost;
    pthread_mutex_unlock(&q->lock);
    return ok;
}

void aws_retry_quota_give(aws_retry_quota *q, int amount) {
    pthread_mutex_lock(&q->lock);
    q->tokens += amount;
    if (q->tokens > AWS_RETRY_QUOTA) q->tokens = AWS_RETRY_QUOTA;
    pthread_mutex_unlock(&q->lock);
}

int aws_retry_quota_left(aws_retry_quota *q) {
    pthread_mutex_lock(&q->lock);
    int n = q->tokens;
    pthread_mutex_unlock(&q->lock);
    return n;
}

/* ---- settings ---- */

/* Where a profile setting came from, for messages. */
static void profile_source(smfw_aws_client *c, const char *key, char *out, size_t size) {
    snprintf(out, size, "%s in the profile '%s' of %s", key, c->profile,
             c->config_path ? c->config_path : "the AWS config file");
}

smfw_status aws_client_resolve_retry(smfw_aws_client *c, int opt_max_attempts, smfw_error *err) {
    char from[1200];
    const char *v = aws_getenv("AWS_RETRY_MODE");
    if (v)
        snprintf(from, sizeof(from), "AWS_RETRY_MODE");
    else if ((v = aws_profile_get(c, NULL, "retry_mode")))
        profile_source(c, "retry_mode", from, sizeof(from));
    c->retry_mode = AWS_RETRY_STANDARD;
    if (v && aws_retry_mode_parse(v, &c->retry_mode) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "the AWS retry mode '%s' from %s is not legacy, standard or "
                              "adaptive",
                              v, from);
    c->max_attempts = opt_max_attempts;
    if (c->max_attempts > 0) return SMFW_OK;
    v = aws_getenv("AWS_MAX_ATTEMPTS");
    if (v)
        snprintf(from, sizeof(from), "AWS_MAX_ATTEMPTS");
    else if ((v = aws_profile_get(c, NULL, "max_attempts")))
        profile_source(c, "max_attempts", from, sizeof(from));
    if (!v) {
        /* botocore's defaults: _retry.json's 5 in legacy mode, 3 otherwise. */
        c->max_attempts = c->retry_mode == AWS_RETRY_LEGACY ? 5 : 3;
        return SMFW_OK;
    }
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < 1 || n > 100)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "the AWS max_attempts '%s' from %s is not a whole number from 1 "
                              "to 100",
                              v, from);
    c->max_attempts = (int)n;
    return SMFW_OK;
}
