/*
 * iam.c - IAM GetRole, ListRoles and SimulatePrincipalPolicy (awsQuery XML,
 * aws-wire.md style): the roles defined with --role, each with an
 * AssumeRolePolicyDocument that trusts one service principal (URL-encoded
 * JSON, as IAM returns it); the simulation allows every action but --deny's. IAM is
 * a global service: requests are signed for us-east-1 whatever --region is
 * (an SDK given an endpoint override signs with its client region: accepted).
 */
#include "mock.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define IAM_NS "https://iam.amazonaws.com/doc/2010-05-08/"

/* RFC 3986 percent-encoding, as IAM encodes the policy document. */
static void url_encode(smfw_buf *b, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '_' || *p == '.' || *p == '~')
            smfw_buf_append(b, p, 1);
        else
            smfw_buf_printf(b, "%%%02X", *p);
    }
}

/* A stable role id: "AROA" + 17 characters from the name. */
static void role_id(const char *name, char out[22]) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = name; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    memcpy(out, "AROA", 4);
    for (int i = 0; i < 17; i++) {
        out[4 + i] = alphabet[h & 31];
        h = (h >> 5) | (h << 59);
        h *= 0x9E3779B97F4A7C15ULL;
    }
    out[21] = '\0';
}

static void role_xml(mock_server *srv, const mock_role *r, smfw_buf *x) {
    char id[22], created[32];
    role_id(r->name, id);
    mock_iso8601(srv->started_unix, created, 0);
    smfw_buf_puts(x, "<Path>/</Path><RoleName>");
    mock_xml_append(x, r->name);
    smfw_buf_printf(x, "</RoleName><RoleId>%s</RoleId><Arn>arn:aws:iam::", id);
    mock_xml_append(x, srv->opt.account_id);
    smfw_buf_puts(x, ":role/");
    mock_xml_append(x, r->name);
    smfw_buf_printf(x, "</Arn><CreateDate>%s</CreateDate><AssumeRolePolicyDocument>", created);
    smfw_buf policy = {0};
    if (r->trust[0])
        smfw_buf_printf(&policy,
                        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                        "\"Principal\":{\"Service\":\"%s\"},\"Action\":\"sts:AssumeRole\"}]}",
                        r->trust);
    else
        smfw_buf_puts(&policy, "{\"Version\":\"2012-10-17\",\"Statement\":[]}");
    smfw_buf enc = {0};
    url_encode(&enc, policy.data);
    mock_xml_append(x, enc.data);
    smfw_buf_free(&enc);
    smfw_buf_free(&policy);
    smfw_buf_puts(x, "</AssumeRolePolicyDocument><MaxSessionDuration>3600</MaxSessionDuration>");
}

static void iam_reply(mock_request *req, const char *op, smfw_buf *result) {
    char rid[37], rid_h[64];
    mock_new_request_id(rid);
    smfw_buf x = {0};
    smfw_buf_printf(&x, "<%sResponse xmlns=\"" IAM_NS "\"><%sResult>", op, op);
    smfw_buf_append(&x, result->data ? result->data : "", result->len);
    smfw_buf_printf(&x,
                    "</%sResult><ResponseMetadata><RequestId>%s</RequestId></ResponseMetadata>"
                    "</%sResponse>",
                    op, rid, op);
    snprintf(rid_h, sizeof rid_h, "x-amzn-RequestId: %s", rid);
    const char *h[] = {"Content-Type: text/xml", rid_h, NULL};
    mock_respond(req, 200, h, x.data, x.len);
    smfw_buf_free(&x);
    mock_request_finish(req);
}

const mock_role *mock_find_role(const mock_options *opt, const char *name) {
    for (size_t i = 0; i < opt->role_count; i++)
        if (!strcmp(opt->roles[i].name, name)) return &opt->roles[i];
    return NULL;
}

static void iam_get_role(mock_server *srv, mock_request *req) {
    char name[128];
    if (!mock_form_get((const char *)req->body, "RoleName", name, sizeof name) || !name[0]) {
        mock_aws_error(req, MOCK_PROTO_QUERY, 400, "ValidationError",
                       "1 validation error detected: Value null at 'roleName' failed to satisfy "
                       "constraint: Member must not be null",
                       NULL);
        return;
    }
    const mock_role *r = mock_find_role(&srv->opt, name);
    if (!r) {
        char msg[256];
        snprintf(msg, sizeof msg, "The role with name %s cannot be found.", name);
        mock_aws_error(req, MOCK_PROTO_QUERY, 404, "NoSuchEntity", msg, NULL);
        return;
    }
    smfw_buf res = {0};
    smfw_buf_puts(&res, "<Role>");
    role_xml(srv, r, &res);
    /* GetRole (not ListRoles) always has RoleLastUsed, empty for a role never used. */
    smfw_buf_puts(&res, "<RoleLastUsed/></Role>");
    iam_reply(req, "GetRole", &res);
    smfw_buf_free(&res);
}

static void iam_list_roles(mock_server *srv, mock_request *req) {
    const char *body = (const char *)req->body;
    char text[64], prefix[512] = "/";
    long max = 100, start = 0;
    if (mock_form_get(body, "MaxItems", text, sizeof text)) {
        char *end;
        max = strtol(text, &end, 10);
        if (*end || max < 1 || max > 1000) {
            mock_aws_error(req, MOCK_PROTO_QUERY, 400, "ValidationError",
                           "1 validation error detected: Value at 'maxItems' failed to satisfy "
                           "constraint: Member must have value between 1 and 1000",
                           NULL);
            return;
        }
    }
    if (mock_form_get(body, "Marker", text, sizeof text)) {
        char *end;
        start = strtol(text, &end, 10);
        if (*end || start < 0 || (size_t)start > srv->opt.role_count) {
            mock_aws_error(req, MOCK_PROTO_QUERY, 400, "ValidationError", "Invalid Marker.", NULL);
            return;
        }
    }
    mock_form_get(body, "PathPrefix", prefix, sizeof prefix);
    int path_ok = !strncmp("/", prefix, strlen(prefix)); /* every role's path is "/" */
    smfw_buf res = {0};
    smfw_buf_puts(&res, "<Roles>");
    long i = start;
    for (; path_ok && i < (long)srv->opt.role_count && i < start + max; i++) {
        smfw_buf_puts(&res, "<member>");
        role_xml(srv, &srv->opt.roles[i], &res);
        smfw_buf_puts(&res, "</member>");
    }
    smfw_buf_puts(&res, "</Roles>");
    if (path_ok && i < (long)srv->opt.role_count)
        smfw_buf_printf(&res, "<IsTruncated>true</IsTruncated><Marker>%ld</Marker>", i);
    else
        smfw_buf_puts(&res, "<IsTruncated>false</IsTruncated>");
    iam_reply(req, "ListRoles", &res);
    smfw_buf_free(&res);
}

/* The principal is the mock's caller (user/smfw-mock) or one of its roles. */
static int known_principal(const mock_server *srv, const char *arn) {
    char want[256];
    snprintf(want, sizeof want, "arn:aws:iam::%s:user/smfw-mock", srv->opt.account_id);
    if (!strcmp(arn, want)) return 1;
    snprintf(want, sizeof want, "arn:aws:iam::%s:role/", srv->opt.account_id);
    return !strncmp(arn, want, strlen(want)) && mock_find_role(&srv->opt, arn + strlen(want));
}

/* SimulatePrincipalPolicy (botocore's iam model): one EvaluationResult per action on the
 * first resource, implicitDeny for --deny's actions (IAM compares them case-blind). */
static void iam_simulate(mock_server *srv, mock_request *req) {
    const char *body = (const char *)req->body;
    char arn[512], resource[1024] = "*", action[160], key[64];
    if (!mock_form_get(body, "PolicySourceArn", arn, sizeof arn) || !arn[0]) {
        mock_aws_error(req, MOCK_PROTO_QUERY, 400, "ValidationError",
                       "1 validation error detected: Value null at 'policySourceArn' failed to "
                       "satisfy constraint: Member must not be null",
                       NULL);
        return;
    }
    if (!known_principal(srv, arn)) {
        char msg[640];
        snprintf(msg, sizeof msg, "The entity %s cannot be found.", arn);
        mock_aws_error(req, MOCK_PROTO_QUERY, 404, "NoSuchEntity", msg, NULL);
        return;
    }
    mock_form_get(body, "ResourceArns.member.1", resource, sizeof resource);
    smfw_buf res = {0};
    smfw_buf_puts(&res, "<EvaluationResults>");
    int n = 0;
    for (int i = 1; i <= 100; i++) {
        snprintf(key, sizeof key, "ActionNames.member.%d", i);
        if (!mock_form_get(body, key, action, sizeof action)) break;
        n++;
        int denied = 0;
        for (size_t d = 0; d < srv->opt.denied_count; d++)
            if (!strcasecmp(srv->opt.denied[d], action)) denied = 1;
        smfw_buf_puts(&res, "<member><EvalActionName>");
        mock_xml_append(&res, action);
        smfw_buf_puts(&res, "</EvalActionName><EvalResourceName>");
        mock_xml_append(&res, resource);
        smfw_buf_printf(&res,
                        "</EvalResourceName><EvalDecision>%s</EvalDecision><MatchedStatements/>"
                        "<MissingContextValues/></member>",
                        denied ? "implicitDeny" : "allowed");
    }
    if (n == 0) {
        smfw_buf_free(&res);
        mock_aws_error(req, MOCK_PROTO_QUERY, 400, "ValidationError",
                       "1 validation error detected: Value null at 'actionNames' failed to "
                       "satisfy constraint: Member must not be null",
                       NULL);
        return;
    }
    smfw_buf_puts(&res, "</EvaluationResults><IsTruncated>false</IsTruncated>");
    iam_reply(req, "SimulatePrincipalPolicy", &res);
    smfw_buf_free(&res);
}

void mock_iam_handle(mock_server *srv, mock_request *req, const char *action) {
    /* IAM's scope region is us-east-1 (libsmfw and SDKs on the real endpoint sign so); an SDK
       given an endpoint override signs with its own region instead, so that one passes too. */
    char region[64] = "";
    mock_sigv4_scope(req, region, sizeof region, NULL, 0);
    const char *want = !strcmp(region, srv->opt.region) ? srv->opt.region : "us-east-1";
    if (mock_auth_check_in(srv, req, "iam", want, MOCK_PROTO_QUERY) != 0) return;
    if (!strcmp(action, "GetRole"))
        iam_get_role(srv, req);
    else if (!strcmp(action, "ListRoles"))
        iam_list_roles(srv, req);
    else if (!strcmp(action, "SimulatePrincipalPolicy"))
        iam_simulate(srv, req);
    else
        mock_aws_error(req, MOCK_PROTO_QUERY, 400, "InvalidAction",
                       "smfw-mock emulates IAM GetRole, ListRoles and SimulatePrincipalPolicy "
                       "only.",
                       NULL);
}
