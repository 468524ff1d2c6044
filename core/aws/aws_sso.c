/*
 * aws_sso.c - the SSO credential provider: which profile uses SSO and how
 * (botocore's SSOProvider._load_sso_config), where the portal and SSO-OIDC
 * are for the SSO region, and GetRoleCredentials (GET
 * /federation/credentials, the token in x-amz-sso_bearer_token, unsigned).
 */
#include "aws/aws_sso.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "aws/aws_endpoint_data.h"
#include "aws/aws_endpoint_rules.h"

/* ---- configuration ---- */

static const char *session_get(smfw_aws_client *c, const char *session, const char *key) {
    char sec[512];
    snprintf(sec, sizeof(sec), "sso-session %s", session);
    const char *v = aws_ini_get(c->config, sec, key);
    return v && *v ? v : NULL;
}

/* A profile's value: botocore merges the credentials file's profile over the config's. */
static const char *profile_value(smfw_aws_client *c, const char *profile, const char *key) {
    const char *v = aws_credfile_get(c, profile, key);
    return v ? v : aws_profile_get(c, profile, key);
}

/* Fill cfg as botocore does: SMFW_DONE when the profile names neither sso_account_id nor
 * sso_role_name; every value of the [sso-session] section must agree with the profile's. */
static smfw_status sso_config_of(smfw_aws_client *c, const char *profile, aws_sso_config *cfg,
                                 smfw_error *err) {
    memset(cfg, 0, sizeof(*cfg));
    cfg->profile = profile;
    cfg->account_id = profile_value(c, profile, "sso_account_id");
    cfg->role_name = profile_value(c, profile, "sso_role_name");
    if (!cfg->account_id && !cfg->role_name) return SMFW_DONE;
    cfg->start_url = profile_value(c, profile, "sso_start_url");
    cfg->region = profile_value(c, profile, "sso_region");
    cfg->session = profile_value(c, profile, "sso_session");
    if (cfg->session) {
        char sec[512];
        snprintf(sec, sizeof(sec), "sso-session %s", cfg->session);
        if (!aws_ini_has_section(c->config, sec))
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "profile '%s' names sso_session '%s', but the AWS config file "
                                  "has no [sso-session %s] section",
                                  profile, cfg->session, cfg->session);
        static const char *const keys[] = {"sso_start_url", "sso_region",
                                           "sso_registration_scopes"};
        const char **dst[] = {&cfg->start_url, &cfg->region, NULL};
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
            const char *sv = session_get(c, cfg->session, keys[i]);
            const char *pv = profile_value(c, profile, keys[i]);
            if (sv && pv && strcmp(sv, pv) != 0)
                return smfw_error_set(err, SMFW_ERR_CONFIG,
                                      "%s differs between profile '%s' (%s) and [sso-session %s] "
                                      "(%s)",
                                      keys[i], profile, pv, cfg->session, sv);
            if (sv && dst[i]) *dst[i] = sv;
        }
        /* botocore's token provider reads these from the section alone. */
        if (!session_get(c, cfg->session, "sso_start_url") ||
            !session_get(c, cfg->session, "sso_region"))
            return smfw_error_set(
                err, SMFW_ERR_CONFIG, "profile '%s' uses [sso-session %s], which lacks %s", profile,
                cfg->session,
                session_get(c, cfg->session, "sso_start_url") ? "sso_region" : "sso_start_url");
    }
    char missing[256] = "";
    const char *names[] = {"sso_start_url", "sso_region", "sso_role_name", "sso_account_id"};
    const char *vals[] = {cfg->start_url, cfg->region, cfg->role_name, cfg->account_id};
    for (int i = 0; i < 4; i++)
        if (!vals[i])
            snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%s",
                     missing[0] ? ", " : "", names[i]);
    if (missing[0])
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "profile '%s' is configured for SSO but lacks %s%s%s", profile,
                              missing, cfg->session ? " (in the profile or [sso-session " : "",
                              cfg->session ? "...])" : "");
    return SMFW_OK;
}

/* ---- endpoints ---- */

/* A boolean setting: the environment wins over the profile (as for every service). */
static int setting_true(smfw_aws_client *c, const char *env, const char *key) {
    const char *v = aws_getenv(env);
    if (!v) v = aws_profile_get(c, NULL, key);
    return v && strcasecmp(v, "true") == 0;
}

smfw_status aws_sso_endpoint(smfw_aws_client *c, const char *service, const char *sso_region,
                             char *url, size_t size, smfw_error *err) {
    aws_endpoint ep;
    smfw_error oerr;
    smfw_error_clear(&oerr);
    smfw_status st = aws_client_resolve_endpoint(c, service, &ep, &oerr);
    if (st == SMFW_OK && ep.overridden) {
        aws_strlcpy(url, ep.url, size);
        return SMFW_OK;
    }
    /* A failure that is not the client's missing region (a bad override URL) is the answer. */
    const char *region;
    smfw_error rerr;
    if (st != SMFW_OK && smfw_aws_client_region(c, &region, &rerr) == SMFW_OK) {
        if (err) *err = oerr;
        return st;
    }
    const json_t *ruleset, *partitions;
    st = aws_endpoint_data_get(service, &ruleset, &partitions, err);
    if (st != SMFW_OK) return st;
    int fips = setting_true(c, "AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint");
    int ds = setting_true(c, "AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint");
    json_t *in = json_object();
    if (!in) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    json_object_set_new(in, "AWS::Region", json_string(sso_region));
    json_object_set_new(in, "AWS::UseFIPS", json_boolean(fips));
    json_object_set_new(in, "AWS::UseDualStack", json_boolean(ds));
    aws_rules_endpoint rep;
    memset(&rep, 0, sizeof(rep));
    int rule_error = 0;
    st = aws_rules_evaluate(ruleset, partitions, in, &rep, &rule_error, err);
    json_decref(in);
    if (st == SMFW_OK) {
        size_t l = strlen(rep.url);
        while (l && rep.url[l - 1] == '/') l--;
        if (l >= size)
            st = smfw_error_set(err, SMFW_ERR_INTERNAL, "the %s endpoint URL is too long", service);
        else
            snprintf(url, size, "%.*s", (int)l, rep.url);
    } else {
        smfw_error_prefix(err, "no %s endpoint for the SSO region %s%s%s", service, sso_region,
                          fips ? " with FIPS" : "",
                          ds ? (fips ? " and dual-stack" : " with dual-stack") : "");
    }
    aws_rules_endpoint_free(&rep);
    return st;
}

/* ---- GetRoleCredentials ---- */

smfw_status aws_sso_login_hint(smfw_error *err, smfw_status st, const char *profile) {
    size_t l = err ? strlen(err->message) : 0;
    if (err && l + 64 + strlen(profile) < sizeof(err->message))
        snprintf(err->message + l, sizeof(err->message) - l, "; run `aws sso login --profile %s`",
                 profile);
    return st;
}

static smfw_status role_credentials(smfw_aws_client *c, const aws_sso_config *cfg,
                                    const char *token, aws_creds **out, smfw_error *err) {
    char base[1024];
    smfw_status st = aws_sso_endpoint(c, "sso", cfg->region, base, sizeof(base), err);
    if (st != SMFW_OK) return st;
    smfw_buf q;
    smfw_buf_init(&q);
    /* The model's member order: role_name, then account_id (what botocore sends). */
    aws_form_add(&q, "role_name", cfg->role_name);
    aws_form_add(&q, "account_id", cfg->account_id);
    if (q.failed) {
        smfw_buf_free(&q);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    smfw_sigv4_header hs[1] = {{"x-amz-sso_bearer_token", token}};
    aws_call call;
    memset(&call, 0, sizeof(call));
    call.service_label = "SSO";
    call.operation = "GetRoleCredentials";
    call.base_url = base;
    call.signing_name = "awsssoportal";
    call.method = "GET";
    call.path = "/federation/credentials";
    call.query = q.data;
    call.headers = hs;
    call.header_count = 1;
    call.unsigned_request = 1; /* the model's auth is smithy.api#noAuth */
    call.protocol = AWS_PROTO_JSON;
    aws_result res;
    aws_result_init(&res);
    st = aws_client_call(c, &call, &res, err);
    smfw_buf_free(&q);
    if (st != SMFW_OK) {
        int refused = strcmp(res.error.code, "UnauthorizedException") == 0;
        aws_result_free(&res);
        if (refused)
            return aws_sso_login_hint(
                err,
                smfw_error_set(err, SMFW_ERR_AUTH,
                               "the SSO portal refused the token of profile '%s' for role %s in "
                               "account %s (UnauthorizedException): the SSO session has expired "
                               "or is otherwise invalid",
                               cfg->profile, cfg->role_name, cfg->account_id),
                cfg->profile);
        return smfw_error_prefix(err, "SSO credentials of profile '%s': ", cfg->profile);
    }
    json_t *j =
        json_loadb(res.http.body.data ? res.http.body.data : "", res.http.body.len, 0, NULL);
    json_t *rc = json_object_get(j, "roleCredentials");
    const char *akid = json_string_value(json_object_get(rc, "accessKeyId"));
    const char *secret = json_string_value(json_object_get(rc, "secretAccessKey"));
    const char *session = json_string_value(json_object_get(rc, "sessionToken"));
    json_t *exp = json_object_get(rc, "expiration");
    if (!akid || !secret || !session || !json_is_integer(exp)) {
        if (secret) smfw_secret_register(secret);
        if (session) smfw_secret_register(session);
        json_decref(j);
        aws_result_free(&res);
        return smfw_error_set(err, SMFW_ERR_AUTH,
                              "SSO GetRoleCredentials for profile '%s' answered without "
                              "roleCredentials (accessKeyId, secretAccessKey, sessionToken, "
                              "expiration)",
                              cfg->profile);
    }
    /* expiration is in milliseconds since the epoch. */
    *out = aws_creds_new(akid, secret, session, (int64_t)(json_integer_value(exp) / 1000),
                         cfg->account_id, "sso");
    if (*out) (*out)->refreshable = 1;
    json_decref(j);
    aws_result_free(&res);
    return *out ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

smfw_status aws_sso_credentials(smfw_aws_client *c, const char *profile, aws_creds **out,
                                smfw_error *err) {
    aws_sso_config cfg;
    smfw_status st = sso_config_of(c, profile, &cfg, err);
    if (st != SMFW_OK) return st;
    char *token = NULL;
    st = aws_sso_token_get(c, &cfg, &token, err);
    if (st != SMFW_OK) return st;
    st = role_credentials(c, &cfg, token, out, err);
    free(token);
    return st;
}
