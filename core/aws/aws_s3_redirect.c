/*
 * aws_s3_redirect.c - S3 calls sent to the bucket's own region: an answer that
 * names another region is retried there once, and the bucket's region is
 * remembered by the client so later calls (each part of an upload) go there
 * first, as botocore's S3RegionRedirectorv2 and its bucket region cache do.
 */
#include <string.h>

#include <smfw/log.h>

#include "aws/aws_internal.h"

static int cached_region(smfw_aws_client *c, const char *bucket, char region[64]) {
    int found = 0;
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < AWS_S3_REGION_CACHE && !found; i++)
        if (c->s3_regions[i].bucket[0] && strcmp(c->s3_regions[i].bucket, bucket) == 0) {
            aws_strlcpy(region, c->s3_regions[i].region, 64);
            found = 1;
        }
    pthread_mutex_unlock(&c->lock);
    return found;
}

static void remember_region(smfw_aws_client *c, const char *bucket, const char *region) {
    if (strlen(bucket) >= sizeof(c->s3_regions[0].bucket)) return;
    pthread_mutex_lock(&c->lock);
    int slot = -1;
    for (int i = 0; i < AWS_S3_REGION_CACHE && slot < 0; i++)
        if (strcmp(c->s3_regions[i].bucket, bucket) == 0) slot = i;
    if (slot < 0) {
        slot = c->s3_regions_next;
        c->s3_regions_next = (c->s3_regions_next + 1) % AWS_S3_REGION_CACHE;
    }
    aws_strlcpy(c->s3_regions[slot].bucket, bucket, sizeof(c->s3_regions[slot].bucket));
    aws_strlcpy(c->s3_regions[slot].region, region, sizeof(c->s3_regions[slot].region));
    pthread_mutex_unlock(&c->lock);
}

/* botocore's redirect_from_error: is this answer "the bucket is elsewhere", and where? */
static int redirect_region(const aws_call *call, const aws_result *res, char region[64]) {
    long status = res->http.status;
    const char *code = res->error.code;
    char hdr[64];
    const char *header = aws_http_header(&res->http, "x-amz-bucket-region", hdr, sizeof(hdr));
    int head = strcmp(call->method, "HEAD") == 0;
    int is_redirect =
        status == 301 || status == 302 || status == 307 || strcmp(code, "PermanentRedirect") == 0 ||
        (head && status == 400 && strcmp(call->operation, "HeadObject") == 0) ||
        (head && status == 400 && header && strcmp(call->operation, "HeadBucket") == 0) ||
        (strcmp(code, "AuthorizationHeaderMalformed") == 0 && res->error.region[0]) ||
        (strcmp(code, "IllegalLocationConstraintException") == 0 &&
         strcmp(call->operation, "CreateBucket") != 0);
    if (!is_redirect) return 0;
    /* The header first, then the error body's <Region> (botocore's get_bucket_region). */
    const char *r = header && *header ? header : res->error.region;
    if (!r[0] || strlen(r) >= 64 || strspn(r, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(r))
        return 0;
    aws_strlcpy(region, r, 64);
    return 1;
}

smfw_status aws_s3_call(smfw_aws_client *c, const char *bucket, const char *key,
                        const aws_call *call, aws_result *res, smfw_error *err) {
    char region[64] = "";
    const char *client_region = NULL;
    smfw_error rerr;
    if (smfw_aws_client_region(c, &client_region, &rerr) != SMFW_OK) client_region = NULL;
    aws_call cc = *call;
    char base[1024];
    smfw_buf path;
    smfw_buf_init(&path);
    smfw_status st = SMFW_OK;
    int known = cached_region(c, bucket, region);
    for (int redirected = 0;; redirected = 1) {
        if (known) {
            smfw_buf_reset(&path);
            st = aws_s3_address_in(c, bucket, key, region, base, sizeof(base), &path, err);
            if (st != SMFW_OK) break;
            cc.base_url = base;
            cc.path = path.data;
            cc.signing_region = region;
        }
        st = aws_client_call(c, &cc, res, err);
        char where[64];
        if (st == SMFW_OK || redirected || !redirect_region(&cc, res, where)) break;
        const char *sent_to = known ? region : client_region;
        if (sent_to && strcmp(where, sent_to) == 0) break; /* already there: a real error */
        SMFW_LOG_INFO("aws", "S3 bucket %s is in %s, not %s: sending %s there", bucket, where,
                      sent_to ? sent_to : "the client's region", call->operation);
        aws_strlcpy(region, where, sizeof(region));
        remember_region(c, bucket, region);
        known = 1;
    }
    smfw_buf_free(&path);
    return st;
}
