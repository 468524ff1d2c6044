/* aws_json.c - generic awsJson 1.0/1.1 call (SageMaker, CloudWatch, Application Auto Scaling). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <smfw/untrusted.h>

#include "aws/aws_internal.h"

const smfw_aws_json_service smfw_aws_sagemaker = {"sagemaker", "sagemaker", "SageMaker", "1.1"};
const smfw_aws_json_service smfw_aws_cloudwatch = {"monitoring", "monitoring",
                                                   "GraniteServiceVersion20100801", "1.0"};
const smfw_aws_json_service smfw_aws_autoscaling = {
    "application-autoscaling", "application-autoscaling", "AnyScaleFrontendService", "1.1"};

static const char *label_of(const smfw_aws_json_service *s) {
    if (strcmp(s->endpoint_id, "sagemaker") == 0) return "SageMaker";
    if (strcmp(s->endpoint_id, "monitoring") == 0) return "CloudWatch";
    if (strcmp(s->endpoint_id, "application-autoscaling") == 0) return "Application Auto Scaling";
    return s->target_prefix;
}

smfw_status smfw_aws_json_call(smfw_aws_client *c, const smfw_aws_json_service *svc,
                               const char *operation, const char *request_json,
                               char **response_json, smfw_error *err) {
    if (response_json) *response_json = NULL;
    char target[256], ctype[64];
    snprintf(target, sizeof(target), "%s.%s", svc->target_prefix, operation);
    snprintf(ctype, sizeof(ctype), "application/x-amz-json-%s", svc->json_version);
    smfw_sigv4_header hs[2] = {{"Content-Type", ctype}, {"X-Amz-Target", target}};
    const char *body = request_json && *request_json ? request_json : "{}";
    aws_call call;
    memset(&call, 0, sizeof(call));
    call.service_label = label_of(svc);
    call.operation = operation;
    call.endpoint_id = svc->endpoint_id;
    call.signing_name = svc->signing_name;
    call.method = "POST";
    call.path = "/";
    call.headers = hs;
    call.header_count = 2;
    call.body = body;
    call.body_len = strlen(body);
    call.protocol = AWS_PROTO_JSON;
    aws_result res;
    aws_result_init(&res);
    smfw_status st = aws_client_call(c, &call, &res, err);
    if (st == SMFW_OK && response_json) {
        if (!res.http.body.data) smfw_buf_puts(&res.http.body, "{}");
        *response_json = smfw_buf_take(&res.http.body);
        if (!*response_json) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    aws_result_free(&res);
    return st;
}

smfw_status smfw_aws_json_call_tree(smfw_aws_client *c, const smfw_aws_json_service *svc,
                                    const char *operation, const struct json_t *request,
                                    struct json_t **response, smfw_error *err) {
    if (response) *response = NULL;
    char *body = request ? json_dumps(request, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    if (request && !body) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    char *resp = NULL;
    smfw_status st = smfw_aws_json_call(c, svc, operation, body, &resp, err);
    free(body);
    if (st != SMFW_OK) return st;
    json_error_t je;
    json_t *root = json_loads(resp && *resp ? resp : "{}", 0, &je);
    free(resp);
    if (!json_is_object(root)) {
        json_decref(root);
        return smfw_error_set(err, SMFW_ERR_PROTOCOL, "%s %s answered with invalid JSON: %s",
                              label_of(svc), operation, je.text);
    }
    if (response)
        *response = root;
    else
        json_decref(root);
    return SMFW_OK;
}

smfw_status smfw_aws_json_pages(smfw_aws_client *c, const smfw_aws_json_service *svc,
                                const char *operation, const struct json_t *request,
                                smfw_aws_json_page_fn each, void *user, int *more,
                                smfw_error *err) {
    if (more) *more = 0;
    json_t *req = request ? json_deep_copy(request) : json_object();
    if (!req) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_pager pager;
    smfw_pager_init(&pager);
    smfw_status st = SMFW_OK;
    for (;;) {
        json_t *page = NULL;
        st = smfw_aws_json_call_tree(c, svc, operation, req, &page, err);
        if (st != SMFW_OK) break;
        const char *next = json_string_value(json_object_get(page, "NextToken"));
        int verdict = smfw_pager_page(&pager, json_dumpb(page, NULL, 0, JSON_COMPACT), next);
        int go = each(user, page, err);
        if (go < 0) {
            st = err ? err->status : SMFW_ERR_IO;
        } else if (go > 0) {
            if (more) *more = verdict == SMFW_PAGER_MORE;
        } else if (verdict < 0) {
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL, "%s %s stopped after %lld pages: %s",
                                label_of(svc), operation, (long long)pager.pages,
                                smfw_pager_why(verdict));
        } else if (verdict == SMFW_PAGER_MORE &&
                   json_object_set_new(req, "NextToken", json_string(next)) == 0) {
            json_decref(page);
            continue;
        } else if (verdict == SMFW_PAGER_MORE) {
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        }
        json_decref(page);
        break;
    }
    smfw_pager_free(&pager);
    json_decref(req);
    return st;
}
