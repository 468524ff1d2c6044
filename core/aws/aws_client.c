/*
 * aws_client.c - the AWS client object: its options, copied, and the
 * settings resolved once when it is created (profile, retry mode and
 * max_attempts, User-Agent, the TLS and proxy configuration).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/config.h>
#include <smfw/net.h>

#include "aws/aws_internal.h"

static char *dup_opt(const char *s) {
    return s && *s ? strdup(s) : NULL;
}

/* Where the ca_bundle option came from: the flag or file:line of [aws] ca_bundle. */
static void option_source(const smfw_aws_options *opts, char *out, size_t size) {
    const smfw_settings *aws = opts->config ? smfw_config_section(opts->config, "aws") : NULL;
    const char *origin = NULL, *v = aws ? smfw_settings_get(aws, "ca_bundle") : NULL;
    int line = 0;
    smfw_setting_source src = SMFW_SOURCE_DEFAULT;
    if (v && strcmp(v, opts->ca_bundle) == 0)
        src = smfw_settings_source(aws, "ca_bundle", &origin, &line);
    if (src == SMFW_SOURCE_FILE)
        snprintf(out, size, "ca_bundle in [aws] of %s:%d", origin ? origin : "?", line);
    else if (src == SMFW_SOURCE_FLAG)
        snprintf(out, size, "option %s", origin ? origin : "--ca-bundle");
    else if (src == SMFW_SOURCE_ENV)
        snprintf(out, size, "environment variable %s", origin ? origin : "?");
    else
        snprintf(out, size, "the ca_bundle option");
}

static smfw_status resolve_net(smfw_aws_client *c, const smfw_aws_options *opts, smfw_error *err) {
    if (opts->net) {
        c->net = opts->net;
        return SMFW_OK;
    }
    char from[1200] = "", pfrom[1200];
    if (c->opt_ca_bundle) option_source(opts, from, sizeof from);
    snprintf(pfrom, sizeof pfrom, "ca_bundle in the profile '%s' of %s", c->profile,
             c->config_path ? c->config_path : "the AWS config file");
    smfw_status st = smfw_net_config_new(
        c->opt_ca_bundle, from, aws_profile_get(c, NULL, "ca_bundle"), pfrom, &c->net_owned, err);
    c->net = c->net_owned;
    return st;
}

smfw_status smfw_aws_net_config_new(const smfw_aws_options *opts, smfw_net_config **out,
                                    smfw_error *err) {
    *out = NULL;
    smfw_aws_options o = *opts;
    o.net = NULL;
    smfw_aws_client *c = NULL;
    smfw_status st = smfw_aws_client_new(&o, &c, err);
    if (st != SMFW_OK) return st;
    *out = c->net_owned; /* the client resolved it and gives it away */
    c->net_owned = NULL;
    smfw_aws_client_free(c);
    return SMFW_OK;
}

const smfw_net_config *smfw_aws_client_net(const smfw_aws_client *c) {
    return c ? c->net : NULL;
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
    pthread_mutex_init(&c->imds_lock, NULL);
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
    st = resolve_net(c, opts, err);
    if (st == SMFW_OK)
        st = aws_http_new(c->net, opts->connect_timeout_ms, opts->timeout_ms, &c->http, err);
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
    smfw_net_config_free(c->net_owned);
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
    pthread_mutex_destroy(&c->imds_lock);
    free(c->imds_token);
    free(c);
}
