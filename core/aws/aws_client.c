/*
 * aws_client.c - the AWS client object: its options, copied, and the
 * settings resolved once when it is created (profile, retry mode and
 * max_attempts, User-Agent, CA bundle).
 */
#include <stdlib.h>
#include <string.h>

#include "aws/aws_internal.h"

static char *dup_opt(const char *s) {
    return s && *s ? strdup(s) : NULL;
}

smfw_status smfw_aws_client_new(const smfw_aws_options *opts, smfw_aws_client **out,
                                smfw_error *err) {
    smfw_aws_options none;
    memset(&none, 0, sizeof(none));
    if (!opts) opts = &none;
    *out = NULL;
    smfw_aws_client *c = calloc(1, sizeof(*c));
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory creating the AWS client");
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->creds_lock, NULL);
    pthread_mutex_init(&c->refresh_lock, NULL);
    c->opt_region = dup_opt(opts->region);
    c->opt_profile = dup_opt(opts->profile);
    c->opt_endpoint_url = dup_opt(opts->endpoint_url);
    c->opt_ca_bundle = dup_opt(opts->ca_bundle);
    c->refresh_margin_s = opts->refresh_margin_s > 0 ? opts->refresh_margin_s : 600;
    c->no_imds = opts->no_imds;
    aws_retry_quota_init(&c->quota);
    aws_rate_limiter_init(&c->limiter);
    const char *p = c->opt_profile;
    c->profile_explicit = p != NULL;
    if (!p) p = aws_getenv("AWS_DEFAULT_PROFILE");
    if (!p) p = aws_getenv("AWS_PROFILE");
    c->profile = strdup(p ? p : "default");

    smfw_status st = aws_client_load_files(c, err);
    if (st == SMFW_OK) st = aws_client_resolve_retry(c, opts->max_attempts, err);
    if (st != SMFW_OK) {
        smfw_aws_client_free(c);
        return st;
    }
    aws_user_agent_build(c, c->user_agent, sizeof(c->user_agent));
    const char *ca = c->opt_ca_bundle;
    if (!ca) ca = aws_getenv("AWS_CA_BUNDLE");
    if (!ca) ca = aws_profile_get(c, NULL, "ca_bundle");
    st = aws_http_new(ca, opts->connect_timeout_ms, opts->timeout_ms, &c->http, err);
    if (st != SMFW_OK) {
        smfw_aws_client_free(c);
        return st;
    }
    *out = c;
    return SMFW_OK;
}

void smfw_aws_client_free(smfw_aws_client *c) {
    if (!c) return;
    aws_http_free(c->http);
    aws_ini_free(c->config);
    aws_ini_free(c->credfile);
    if (c->creds) aws_creds_unref(c->creds);
    for (int i = 0; i < c->nsigners; i++) smfw_sigv4_signer_free(c->signers[i]);
    free(c->opt_region);
    free(c->opt_profile);
    free(c->opt_endpoint_url);
    free(c->opt_ca_bundle);
    free(c->profile);
    free(c->region);
    free(c->config_path);
    aws_retry_quota_destroy(&c->quota);
    aws_rate_limiter_destroy(&c->limiter);
    pthread_mutex_destroy(&c->lock);
    pthread_mutex_destroy(&c->creds_lock);
    pthread_mutex_destroy(&c->refresh_lock);
    free(c);
}
