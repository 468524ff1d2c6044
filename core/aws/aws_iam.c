/* aws_iam.c - IAM over awsQuery (the partition's endpoint and signing region from the rules):
 * GetRole, ListRoles, SimulatePrincipalPolicy (smfw doctor). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "aws/aws_internal.h"
#include "aws/aws_xml.h"

static smfw_status iam_call(smfw_aws_client *c, const char *op, const char *form,
                            aws_xml_node **root, smfw_error *err) {
    smfw_sigv4_header hs[1] = {
        {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
    aws_call call;
    memset(&call, 0, sizeof(call));
    call.service_label = "IAM";
    call.operation = op;
    call.endpoint_id = "iam";
    call.signing_name = "iam";
    call.method = "POST";
    call.path = "/";
    call.headers = hs;
    call.header_count = 1;
    call.body = form;
    call.body_len = strlen(form);
    call.protocol = AWS_PROTO_XML;
    aws_result res;
    aws_result_init(&res);
    smfw_status st = aws_client_call(c, &call, &res, err);
    if (st == SMFW_OK) st = aws_xml_parse(res.http.body.data, res.http.body.len, root, err);
    aws_result_free(&res);
    return st;
}

smfw_status smfw_aws_iam_get_role_trust(smfw_aws_client *c, const char *role_name, char *arn,
                                        size_t arn_size, char **trust_policy, smfw_error *err) {
    if (trust_policy) *trust_policy = NULL;
    smfw_buf f;
    smfw_buf_init(&f);
    aws_form_add(&f, "Action", "GetRole");
    aws_form_add(&f, "Version", "2010-05-08");
    aws_form_add(&f, "RoleName", role_name);
    aws_xml_node *root = NULL;
    smfw_status st = f.failed ? smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory")
                              : iam_call(c, "GetRole", f.data, &root, err);
    smfw_buf_free(&f);
    if (st == SMFW_OK) {
        const char *a = aws_xml_path(aws_xml_find(root, "Role"), "Arn");
        if (!a || !*a)
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL, "IAM GetRole returned no Role Arn");
        else
            aws_strlcpy(arn, a, arn_size);
        const char *doc = aws_xml_path(aws_xml_find(root, "Role"), "AssumeRolePolicyDocument");
        if (st == SMFW_OK && trust_policy && doc && *doc) {
            *trust_policy = strdup(doc);
            if (!*trust_policy) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        }
    }
    aws_xml_free(root);
    return st;
}

smfw_status smfw_aws_iam_get_role(smfw_aws_client *c, const char *role_name, char *arn,
                                  size_t arn_size, smfw_error *err) {
    return smfw_aws_iam_get_role_trust(c, role_name, arn, arn_size, NULL, err);
}

smfw_status smfw_aws_iam_list_roles(smfw_aws_client *c, smfw_aws_iam_role_cb cb, void *user,
                                    smfw_error *err) {
    char *marker = NULL;
    smfw_status st = SMFW_OK;
    int stop = 0, pages = 0;
    while (st == SMFW_OK && !stop) {
        smfw_buf f;
        smfw_buf_init(&f);
        aws_form_add(&f, "Action", "ListRoles");
        aws_form_add(&f, "Version", "2010-05-08");
        if (marker) aws_form_add(&f, "Marker", marker);
        aws_xml_node *root = NULL;
        st = f.failed ? smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory")
                      : iam_call(c, "ListRoles", f.data, &root, err);
        smfw_buf_free(&f);
        if (st != SMFW_OK) break;
        pages++;
        const aws_xml_node *roles = aws_xml_find(root, "Roles");
        for (const aws_xml_node *m = aws_xml_child(roles, "member"); m && !stop;
             m = aws_xml_next_named(m)) {
            const char *name = aws_xml_path(m, "RoleName"), *arn = aws_xml_path(m, "Arn");
            if (name && arn && cb && cb(name, arn, user)) stop = 1;
        }
        const aws_xml_node *res = aws_xml_find(root, "ListRolesResult");
        const char *trunc = aws_xml_path(res, "IsTruncated");
        const char *next = aws_xml_path(res, "Marker");
        free(marker);
        marker = NULL;
        if (trunc && strcmp(trunc, "true") == 0 && !stop) {
            if (!next || !*next || pages > 10000)
                st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                    "IAM ListRoles said IsTruncated without a Marker");
            else
                marker = strdup(next);
        } else {
            stop = 1;
        }
        aws_xml_free(root);
    }
    free(marker);
    return st;
}

/* The action's slot in out[] (IAM answers in its own order, possibly lower-cased). */
static smfw_aws_iam_decision *decision_for(const char *action, const char *const *actions, size_t n,
                                           smfw_aws_iam_decision *out) {
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(actions[i], action) == 0) return &out[i];
    return NULL;
}

smfw_status smfw_aws_iam_simulate_principal_policy(smfw_aws_client *c,
                                                   const char *policy_source_arn,
                                                   const char *const *actions, size_t n_actions,
                                                   const char *resource, smfw_aws_iam_decision *out,
                                                   smfw_error *err) {
    for (size_t i = 0; i < n_actions; i++) {
        memset(&out[i], 0, sizeof out[i]);
        aws_strlcpy(out[i].action, actions[i], sizeof out[i].action);
        aws_strlcpy(out[i].resource, resource ? resource : "*", sizeof out[i].resource);
    }
    char *marker = NULL;
    smfw_status st = SMFW_OK;
    int pages = 0;
    for (;;) {
        smfw_buf f;
        smfw_buf_init(&f);
        aws_form_add(&f, "Action", "SimulatePrincipalPolicy");
        aws_form_add(&f, "Version", "2010-05-08");
        aws_form_add(&f, "PolicySourceArn", policy_source_arn);
        char key[64];
        for (size_t i = 0; i < n_actions; i++) {
            snprintf(key, sizeof key, "ActionNames.member.%zu", i + 1);
            aws_form_add(&f, key, actions[i]);
        }
        aws_form_add(&f, "ResourceArns.member.1", resource ? resource : "*");
        if (marker) aws_form_add(&f, "Marker", marker);
        aws_xml_node *root = NULL;
        st = f.failed ? smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory")
                      : iam_call(c, "SimulatePrincipalPolicy", f.data, &root, err);
        smfw_buf_free(&f);
        free(marker);
        marker = NULL;
        if (st != SMFW_OK) break;
        pages++;
        const aws_xml_node *res = aws_xml_find(root, "SimulatePrincipalPolicyResult");
        const aws_xml_node *list = aws_xml_child(res, "EvaluationResults");
        for (const aws_xml_node *m = aws_xml_child(list, "member"); m; m = aws_xml_next_named(m)) {
            const char *action = aws_xml_path(m, "EvalActionName");
            const char *decision = aws_xml_path(m, "EvalDecision");
            smfw_aws_iam_decision *d =
                action ? decision_for(action, actions, n_actions, out) : NULL;
            if (d && decision) aws_strlcpy(d->decision, decision, sizeof d->decision);
        }
        const char *trunc = aws_xml_path(res, "IsTruncated");
        const char *next = aws_xml_path(res, "Marker");
        int more = trunc && strcmp(trunc, "true") == 0;
        if (more && (!next || !*next || pages > 1000))
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "IAM SimulatePrincipalPolicy said IsTruncated without a Marker");
        else if (more && !(marker = strdup(next)))
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        aws_xml_free(root);
        if (st != SMFW_OK || !more) break;
    }
    free(marker);
    return st;
}
