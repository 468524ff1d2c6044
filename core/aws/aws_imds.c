/*
 * aws_imds.c - EC2 instance metadata (IMDS) as botocore 1.43 reads it: an
 * IMDSv2 session token (PUT /latest/api/token, 21600 s) sent with every GET,
 * falling back to IMDSv1 where botocore does (the PUT answered 403/404/405,
 * 5xx after the attempts, or timed out: a hop limit of 1 drops the answer in
 * a container), unless ec2_metadata_v1_disabled. Settings come from the
 * environment or the profile (botocore's names). The token is kept for the
 * client's lifetime minus a margin and fetched again when IMDS answers 401.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <smfw/log.h>

#include "aws/aws_internal.h"

#define IMDS_TOKEN_TTL_S    21600
#define IMDS_TOKEN_MARGIN_S 300 /* renew this long before IMDS would expire it */
#define IMDS_V1_KEEP_S      60  /* ask for a token again after an IMDSv1 fallback */

/* An IMDS setting: the environment variable, else the profile's key. */
static const char *imds_setting(smfw_aws_client *c, const char *env, const char *key) {
    const char *v = aws_getenv(env);
    return v ? v : aws_profile_get(c, NULL, key);
}

static const char *imds_base(smfw_aws_client *c) {
    const char *b =
        imds_setting(c, "AWS_EC2_METADATA_SERVICE_ENDPOINT", "ec2_metadata_service_endpoint");
    if (b) return b;
    const char *mode = imds_setting(c, "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE",
                                    "ec2_metadata_service_endpoint_mode");
    return mode && strcasecmp(mode, "IPv6") == 0 ? "http://[fd00:ec2::254]"
                                                 : "http://169.254.169.254";
}

static long imds_timeout_ms(smfw_aws_client *c) {
    const char *t = imds_setting(c, "AWS_METADATA_SERVICE_TIMEOUT", "metadata_service_timeout");
    double s = t ? atof(t) : 1.0;
    return s > 0 ? (long)(s * 1000) : 1000;
}

static int imds_attempts(smfw_aws_client *c) {
    const char *t =
        imds_setting(c, "AWS_METADATA_SERVICE_NUM_ATTEMPTS", "metadata_service_num_attempts");
    int n = t ? atoi(t) : 1;
    return n > 0 ? n : 1;
}

static int imds_v1_disabled(smfw_aws_client *c) {
    const char *v = imds_setting(c, "AWS_EC2_METADATA_V1_DISABLED", "ec2_metadata_v1_disabled");
    return v && strcasecmp(v, "true") == 0;
}

int aws_imds_disabled(smfw_aws_client *c) {
    /* botocore reads this one from the environment only. */
    const char *d = aws_getenv("AWS_EC2_METADATA_DISABLED");
    return c->no_imds || (d && strcasecmp(d, "true") == 0);
}

/* One IMDS request with retries; SMFW_OK with the status in resp. */
static smfw_status imds_request(smfw_aws_client *c, const char *method, const char *path,
                                const smfw_sigv4_header *hs, size_t n, long timeout_ms,
                                aws_http_response *resp, smfw_error *err) {
    char url[1024];
    const char *base = imds_base(c);
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/') bl--;
    snprintf(url, sizeof(url), "%.*s%s", (int)bl, base, path);
    smfw_status st = SMFW_ERR_NETWORK;
    long to = timeout_ms > 0 ? timeout_ms : imds_timeout_ms(c);
    int attempts = timeout_ms > 0 ? 1 : imds_attempts(c);
    for (int a = 0; a < attempts; a++) {
        aws_http_response_free(resp);
        aws_http_response_init(resp);
        aws_http_request req = {method, url, hs, n, NULL, 0, NULL, 0, NULL, to, to, 1};
        st = aws_http_perform(c->http, &req, resp, err);
        if (st == SMFW_OK && resp->status < 500) break;
    }
    return st;
}

/* A fresh IMDSv2 token in *token, or NULL where botocore falls back to IMDSv1. */
static smfw_status imds_fetch_token(smfw_aws_client *c, long timeout_ms, char **token,
                                    smfw_error *err) {
    *token = NULL;
    char ttl[16];
    snprintf(ttl, sizeof ttl, "%d", IMDS_TOKEN_TTL_S);
    smfw_sigv4_header h[1] = {{"X-aws-ec2-metadata-token-ttl-seconds", ttl}};
    aws_http_response resp;
    aws_http_response_init(&resp);
    smfw_status st = imds_request(c, "PUT", "/latest/api/token", h, 1, timeout_ms, &resp, err);
    long status = resp.status;
    if (st == SMFW_OK && status == 200 && resp.body.len) {
        *token = smfw_buf_take(&resp.body);
        smfw_secret_register(*token);
        aws_http_response_free(&resp);
        return SMFW_OK;
    }
    aws_http_response_free(&resp);
    /* Nothing listening: not on EC2 (botocore would try v1 and fail the same way). */
    if (st != SMFW_OK && st != SMFW_ERR_TIMEOUT) return st;
    if (st == SMFW_OK && status == 400)
        return smfw_error_set(err, SMFW_ERR_AUTH,
                              "EC2 instance metadata refused the token request (HTTP 400)");
    if (imds_v1_disabled(c))
        return smfw_error_set(err, SMFW_ERR_AUTH,
                              "EC2 instance metadata gave no IMDSv2 token (%s) and IMDSv1 is "
                              "disabled (ec2_metadata_v1_disabled / AWS_EC2_METADATA_V1_DISABLED)",
                              st == SMFW_ERR_TIMEOUT ? "the token request timed out"
                                                     : "the token request was refused");
    SMFW_LOG_DEBUG("aws", "no IMDSv2 token (%s); using IMDSv1",
                   st == SMFW_ERR_TIMEOUT ? "timed out" : "refused");
    return SMFW_OK;
}

/* The cached token (a copy) or a new one; NULL for IMDSv1. A fallback to IMDSv1 is kept
 * for a minute, so one credential fetch asks for a token once, as botocore does. */
static smfw_status imds_token(smfw_aws_client *c, long timeout_ms, char **token, smfw_error *err) {
    int64_t now = aws_now();
    pthread_mutex_lock(&c->imds_lock);
    int v1 = !c->imds_token && now < c->imds_v1_until;
    *token = c->imds_token && now < c->imds_token_expires ? strdup(c->imds_token) : NULL;
    pthread_mutex_unlock(&c->imds_lock);
    if (*token || v1) return SMFW_OK;
    smfw_status st = imds_fetch_token(c, timeout_ms, token, err);
    if (st != SMFW_OK) return st;
    pthread_mutex_lock(&c->imds_lock);
    free(c->imds_token);
    c->imds_token = *token ? strdup(*token) : NULL;
    c->imds_token_expires = now + IMDS_TOKEN_TTL_S - IMDS_TOKEN_MARGIN_S;
    c->imds_v1_until = *token ? 0 : now + IMDS_V1_KEEP_S;
    pthread_mutex_unlock(&c->imds_lock);
    return SMFW_OK;
}

static void imds_forget_token(smfw_aws_client *c) {
    pthread_mutex_lock(&c->imds_lock);
    free(c->imds_token);
    c->imds_token = NULL;
    c->imds_v1_until = 0;
    pthread_mutex_unlock(&c->imds_lock);
}

smfw_status aws_imds_get(smfw_aws_client *c, const char *path, char **out, smfw_error *err) {
    return aws_imds_get_within(c, path, 0, out, err);
}

smfw_status aws_imds_get_within(smfw_aws_client *c, const char *path, long timeout_ms, char **out,
                                smfw_error *err) {
    *out = NULL;
    if (aws_imds_disabled(c))
        return smfw_error_set(err, SMFW_ERR_CONFIG, "EC2 instance metadata is disabled");
    aws_http_response resp;
    aws_http_response_init(&resp);
    smfw_status st = SMFW_OK;
    /* A 401 means the token expired or was revoked: one more try with a new one. */
    for (int round = 0; round < 2; round++) {
        char *token = NULL;
        if ((st = imds_token(c, timeout_ms, &token, err)) != SMFW_OK) break;
        smfw_sigv4_header h[1] = {{"X-aws-ec2-metadata-token", token}};
        st = imds_request(c, "GET", path, h, token ? 1 : 0, timeout_ms, &resp, err);
        free(token);
        if (st != SMFW_OK || resp.status != 401) break;
        imds_forget_token(c);
    }
    if (st == SMFW_OK && resp.status != 200)
        st = smfw_error_set(err, resp.status == 404 ? SMFW_ERR_NOT_FOUND : SMFW_ERR_AUTH,
                            "EC2 instance metadata %s answered HTTP %ld", path, resp.status);
    if (st == SMFW_OK) *out = smfw_buf_take(&resp.body);
    aws_http_response_free(&resp);
    return st;
}

smfw_status smfw_aws_placement_get(smfw_aws_client *c, long timeout_ms, smfw_aws_placement *out,
                                   smfw_error *err) {
    memset(out, 0, sizeof *out);
    if (aws_imds_disabled(c))
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND, "EC2 instance metadata is disabled");
    static const struct {
        const char *path;
        size_t offset, size;
    } wanted[] = {{"/latest/meta-data/placement/region", offsetof(smfw_aws_placement, region),
                   sizeof out->region},
                  {"/latest/meta-data/placement/availability-zone",
                   offsetof(smfw_aws_placement, availability_zone), sizeof out->availability_zone}};
    for (size_t i = 0; i < 2; i++) {
        char *v = NULL;
        smfw_status st = aws_imds_get_within(c, wanted[i].path, timeout_ms, &v, err);
        /* The region and zone become part of a report: a-z, 0-9 and '-' only, as AWS names
         * them; anything else is not an answer. */
        size_t n = v ? strlen(v) : 0;
        int shaped = n > 0 && n < wanted[i].size;
        for (size_t k = 0; shaped && k < n; k++)
            shaped = (v[k] >= 'a' && v[k] <= 'z') || (v[k] >= '0' && v[k] <= '9') || v[k] == '-';
        if (st == SMFW_OK && !shaped)
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "EC2 instance metadata %s is not a region or zone name",
                                wanted[i].path);
        if (st == SMFW_OK) memcpy((char *)out + wanted[i].offset, v, n + 1);
        free(v);
        if (st != SMFW_OK) {
            memset(out, 0, sizeof *out);
            if (st == SMFW_ERR_PROTOCOL) return st;
            char why[SMFW_ERROR_MESSAGE_MAX / 2];
            snprintf(why, sizeof why, "%s", err ? err->message : "");
            return smfw_error_set(err, SMFW_ERR_NOT_FOUND, "no EC2 placement: %s", why);
        }
    }
    return SMFW_OK;
}
