/* aws_rest_json.c - generic restJson call (AWS Batch): a method, a request URI and a JSON body. */
#include <stdlib.h>
#include <string.h>

#include "aws/aws_internal.h"

const smfw_aws_rest_json_service smfw_aws_batch = {"batch", "batch", "AWS Batch"};

smfw_status smfw_aws_rest_json_call(smfw_aws_client *c, const smfw_aws_rest_json_service *svc,
                                    const char *operation, const char *method,
                                    const char *request_uri, const char *request_json,
                                    char **response_json, smfw_error *err) {
    if (response_json) *response_json = NULL;
    if (!request_uri || request_uri[0] != '/')
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "%s %s: request URI '%s' is not a path",
                              svc->label, operation, request_uri ? request_uri : "");
    /* The path is signed apart from the query. */
    const char *q = strchr(request_uri, '?');
    size_t plen = q ? (size_t)(q - request_uri) : strlen(request_uri);
    char *path = malloc(plen + 1);
    if (!path) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    memcpy(path, request_uri, plen);
    path[plen] = '\0';
    /* botocore sets this on every structured body, and none without one. */
    smfw_sigv4_header hs[1] = {{"Content-Type", "application/json"}};
    aws_call call;
    memset(&call, 0, sizeof(call));
    call.service_label = svc->label;
    call.operation = operation;
    call.endpoint_id = svc->endpoint_id;
    call.signing_name = svc->signing_name;
    call.method = method;
    call.path = path;
    call.query = q && q[1] ? q + 1 : NULL;
    call.headers = request_json ? hs : NULL;
    call.header_count = request_json ? 1 : 0;
    call.body = request_json;
    call.body_len = request_json ? strlen(request_json) : 0;
    call.protocol = AWS_PROTO_REST_JSON;
    aws_result res;
    aws_result_init(&res);
    smfw_status st = aws_client_call(c, &call, &res, err);
    if (st == SMFW_OK && response_json) {
        if (!res.http.body.data) smfw_buf_puts(&res.http.body, "{}");
        *response_json = smfw_buf_take(&res.http.body);
        if (!*response_json) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    aws_result_free(&res);
    free(path);
    return st;
}
