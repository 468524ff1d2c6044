/* aws_sts.c - STS over awsQuery: GetCallerIdentity, AssumeRole, AssumeRoleWithWebIdentity. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/aws_internal.h"
#include "aws/aws_xml.h"

/* The rules' STS endpoint, or the global one signed for us-east-1 when no region is known. */
static smfw_status sts_target(smfw_aws_client *c, char *base, size_t size, char *region,
                              size_t region_size, smfw_error *err) {
    smfw_error rerr;
    const char *r;
    if (smfw_aws_client_region(c, &r, &rerr) == SMFW_OK) {
        aws_endpoint ep;
        smfw_status st = aws_client_resolve_endpoint(c, "sts", &ep, err);
        if (st != SMFW_OK) return st;
        aws_strlcpy(base, ep.url, size);
        aws_strlcpy(region, ep.signing_region, region_size);
        return SMFW_OK;
    }
    aws_strlcpy(region, "us-east-1", region_size);
    if (smfw_aws_client_endpoint(c, "sts", base, size, NULL, &rerr) != SMFW_OK)
        snprintf(base, size, "https://sts.amazonaws.com");
    return SMFW_OK;
}

static smfw_status sts_call(smfw_aws_client *c, const char *op, const char *form,
                            const smfw_aws_credentials *creds, int unsigned_request,
                            aws_xml_node **root, smfw_error *err) {
    char base[1024], region[64];
    smfw_status st = sts_target(c, base, sizeof(base), region, sizeof(region), err);
    if (st != SMFW_OK) return st;
    smfw_sigv4_header hs[1] = {
        {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
    aws_call call;
    memset(&call, 0, sizeof(call));
    call.service_label = "STS";
    call.operation = op;
    call.base_url = base;
    call.signing_name = "sts";
    call.signing_region = region;
    call.method = "POST";
    call.path = "/";
    call.headers = hs;
    call.header_count = 1;
    call.body = form;
    call.body_len = strlen(form);
    call.creds = creds;
    call.unsigned_request = unsigned_request;
    call.protocol = AWS_PROTO_XML;
    aws_result res;
    aws_result_init(&res);
    st = aws_client_call(c, &call, &res, err);
    if (st == SMFW_OK) {
        st = aws_xml_parse(res.http.body.data, res.http.body.len, root, err);
        if (st != SMFW_OK) smfw_error_prefix(err, "STS %s response", op);
    }
    aws_result_free(&res);
    return st;
}

static smfw_status creds_from_result(aws_xml_node *root, const char *op, const char *provider,
                                     aws_creds **out, smfw_error *err) {
    const aws_xml_node *cr = aws_xml_find(root, "Credentials");
    const char *akid = aws_xml_path(cr, "AccessKeyId");
    const char *secret = aws_xml_path(cr, "SecretAccessKey");
    const char *token = aws_xml_path(cr, "SessionToken");
    const char *exp = aws_xml_path(cr, "Expiration");
    if (!akid || !*akid || !secret || !*secret || !token || !exp)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL, "STS %s returned no complete Credentials",
                              op);
    int64_t e = aws_parse_iso8601(exp);
    if (e < 0)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL, "STS %s returned an unreadable Expiration",
                              op);
    /* The account is the 5th field of the assumed-role ARN. */
    char account[16] = "";
    const char *arn = aws_xml_path(aws_xml_find(root, "AssumedRoleUser"), "Arn");
    if (arn) {
        const char *p = arn;
        for (int i = 0; i < 4 && p; i++) p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL;
        if (p) snprintf(account, sizeof(account), "%.*s", (int)strcspn(p, ":"), p);
    }
    *out = aws_creds_new(akid, secret, token, e, account[0] ? account : NULL, provider);
    if (*out) (*out)->refreshable = 1;
    return *out ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

smfw_status aws_sts_assume_role(smfw_aws_client *c, const smfw_aws_credentials *source,
                                const char *role_arn, const char *session_name,
                                const char *external_id, int duration_s, aws_creds **out,
                                smfw_error *err) {
    smfw_buf f;
    smfw_buf_init(&f);
    aws_form_add(&f, "Action", "AssumeRole");
    aws_form_add(&f, "Version", "2011-06-15");
    aws_form_add(&f, "RoleArn", role_arn);
    aws_form_add(&f, "RoleSessionName", session_name);
    if (external_id) aws_form_add(&f, "ExternalId", external_id);
    if (duration_s > 0) {
        char d[16];
        snprintf(d, sizeof(d), "%d", duration_s);
        aws_form_add(&f, "DurationSeconds", d);
    }
    if (f.failed) {
        smfw_buf_free(&f);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    aws_xml_node *root = NULL;
    smfw_status st = sts_call(c, "AssumeRole", f.data, source, 0, &root, err);
    smfw_buf_free(&f);
    if (st == SMFW_OK) st = creds_from_result(root, "AssumeRole", "assume-role", out, err);
    aws_xml_free(root);
    return st;
}

smfw_status aws_sts_assume_role_with_web_identity(smfw_aws_client *c, const char *role_arn,
                                                  const char *session_name, const char *token,
                                                  aws_creds **out, smfw_error *err) {
    smfw_buf f;
    smfw_buf_init(&f);
    aws_form_add(&f, "Action", "AssumeRoleWithWebIdentity");
    aws_form_add(&f, "Version", "2011-06-15");
    aws_form_add(&f, "RoleArn", role_arn);
    aws_form_add(&f, "RoleSessionName", session_name);
    aws_form_add(&f, "WebIdentityToken", token);
    if (f.failed) {
        smfw_buf_free(&f);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    aws_xml_node *root = NULL;
    smfw_status st = sts_call(c, "AssumeRoleWithWebIdentity", f.data, NULL, 1, &root, err);
    smfw_buf_free(&f);
    if (st == SMFW_OK)
        st = creds_from_result(root, "AssumeRoleWithWebIdentity", "web-identity", out, err);
    aws_xml_free(root);
    return st;
}

smfw_status smfw_aws_sts_get_caller_identity(smfw_aws_client *c, smfw_aws_identity *out,
                                             smfw_error *err) {
    pthread_mutex_lock(&c->lock);
    if (c->have_identity) {
        *out = c->identity;
        pthread_mutex_unlock(&c->lock);
        return SMFW_OK;
    }
    pthread_mutex_unlock(&c->lock);
    aws_xml_node *root = NULL;
    smfw_status st = sts_call(c, "GetCallerIdentity", "Action=GetCallerIdentity&Version=2011-06-15",
                              NULL, 0, &root, err);
    if (st != SMFW_OK) return st;
    const aws_xml_node *r = aws_xml_find(root, "GetCallerIdentityResult");
    const char *account = aws_xml_path(r, "Account");
    const char *arn = aws_xml_path(r, "Arn");
    const char *uid = aws_xml_path(r, "UserId");
    if (!account || strlen(account) != 12 || !arn) {
        aws_xml_free(root);
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "STS GetCallerIdentity returned no 12-digit Account and Arn");
    }
    memset(out, 0, sizeof(*out));
    aws_strlcpy(out->account, account, sizeof(out->account));
    aws_strlcpy(out->arn, arn, sizeof(out->arn));
    aws_strlcpy(out->user_id, uid ? uid : "", sizeof(out->user_id));
    aws_xml_free(root);
    pthread_mutex_lock(&c->lock);
    c->identity = *out;
    c->have_identity = 1;
    pthread_mutex_unlock(&c->lock);
    return SMFW_OK;
}
