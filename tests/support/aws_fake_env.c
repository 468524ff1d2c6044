/* aws_fake_env.c - clean AWS environment and request verification for tests. */
#include "aws_fake_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws_fake_http.h"

static const char *const VARS[] = {"AWS_ACCESS_KEY_ID",
                                   "AWS_SECRET_ACCESS_KEY",
                                   "AWS_SESSION_TOKEN",
                                   "AWS_SECURITY_TOKEN",
                                   "AWS_CREDENTIAL_EXPIRATION",
                                   "AWS_ACCOUNT_ID",
                                   "AWS_PROFILE",
                                   "AWS_DEFAULT_PROFILE",
                                   "AWS_CONFIG_FILE",
                                   "AWS_SHARED_CREDENTIALS_FILE",
                                   "AWS_REGION",
                                   "AWS_DEFAULT_REGION",
                                   "AWS_ROLE_ARN",
                                   "AWS_WEB_IDENTITY_TOKEN_FILE",
                                   "AWS_ROLE_SESSION_NAME",
                                   "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
                                   "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                                   "AWS_CONTAINER_AUTHORIZATION_TOKEN",
                                   "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
                                   "AWS_EC2_METADATA_SERVICE_ENDPOINT",
                                   "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE",
                                   "AWS_EC2_METADATA_V1_DISABLED",
                                   "AWS_METADATA_SERVICE_TIMEOUT",
                                   "AWS_METADATA_SERVICE_NUM_ATTEMPTS",
                                   "AWS_ENDPOINT_URL",
                                   "AWS_ENDPOINT_URL_SAGEMAKER",
                                   "AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME",
                                   "AWS_ENDPOINT_URL_S3",
                                   "AWS_ENDPOINT_URL_STS",
                                   "AWS_ENDPOINT_URL_CLOUDWATCH",
                                   "AWS_ENDPOINT_URL_IAM",
                                   "AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING",
                                   "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
                                   "AWS_MAX_ATTEMPTS",
                                   "AWS_CA_BUNDLE",
                                   "SAGEMAKER_BUCKET",
                                   "SAGEMAKER_ROLE_ARN",
                                   "http_proxy",
                                   "https_proxy",
                                   "HTTPS_PROXY",
                                   "all_proxy",
                                   "ALL_PROXY",
                                   NULL};

char *aws_fake_env_reset(void) {
    for (int i = 0; VARS[i]; i++) unsetenv(VARS[i]);
    setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
    char *home = aws_fake_tempdir();
    setenv("HOME", home, 1);
    return home;
}

static const char *g_akid, *g_secret;
static const char *lookup(void *user, const char *akid) {
    (void)user;
    return g_akid && strcmp(akid, g_akid) == 0 ? g_secret : NULL;
}

smfw_sigv4_verdict aws_fake_verify(const struct aws_fake_request *req, const char *akid,
                                   const char *secret, const char *region, const char *service,
                                   unsigned flags, char *detail, size_t detail_size) {
    smfw_sigv4_header h[64];
    for (size_t i = 0; i < req->header_count; i++)
        h[i] = (smfw_sigv4_header){req->names[i], req->values[i]};
    smfw_sigv4_request r = {req->method,       req->path, req->query,    h,
                            req->header_count, req->body, req->body_len, NULL};
    /* Single-threaded servers only: the lookup uses statics. */
    g_akid = akid;
    g_secret = secret;
    smfw_sigv4_verify_params p = {region, service, flags, (int64_t)time(NULL), 0, lookup, NULL};
    smfw_sigv4_verify_result res;
    smfw_sigv4_verdict v = smfw_sigv4_verify(&r, &p, &res);
    if (detail) snprintf(detail, detail_size, "%s", res.detail);
    smfw_sigv4_verify_result_free(&res);
    return v;
}
