/*
 * errors.c - AWS error responses in each protocol's shape (aws-wire.md §2, §4.3, §6.3, §7.1).
 */
#include "mock.h"

#include <stdlib.h>
#include <string.h>

void mock_json_reply(mock_request *req, const char *content_type, json_t *body) {
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    char ct[128], rid[37], rid_h[64];
    mock_new_request_id(rid);
    snprintf(ct, sizeof ct, "Content-Type: %s", content_type);
    snprintf(rid_h, sizeof rid_h, "x-amzn-RequestId: %s", rid);
    const char *headers[] = {ct, rid_h, NULL};
    mock_respond(req, 200, headers, text, strlen(text));
    free(text);
    mock_request_finish(req);
}

void mock_aws_error_send(mock_request *req, mock_protocol proto, int status, const char *code,
                         const char *message, const char *extra_xml) {
    char rid[37], rid_h[64], type_h[160];
    mock_new_request_id(rid);
    smfw_buf b = {0};
    const char *ct;
    if (proto == MOCK_PROTO_JSON || proto == MOCK_PROTO_RUNTIME) {
        json_t *o = json_object();
        json_object_set_new(o, "__type", json_string(code));
        /* Modeled SageMaker errors use "Message", common ones "message" (aws-wire §2). */
        int modeled = !strcmp(code, "ResourceNotFound") || !strcmp(code, "ResourceInUse") ||
                      !strcmp(code, "ResourceLimitExceeded") ||
                      !strcmp(code, "ConflictException") || !strcmp(code, "ModelError");
        json_object_set_new(o, modeled ? "Message" : "message", json_string(message));
        char *t = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        smfw_buf_puts(&b, t);
        free(t);
        ct = proto == MOCK_PROTO_RUNTIME ? "Content-Type: application/json"
                                         : "Content-Type: application/x-amz-json-1.1";
        snprintf(rid_h, sizeof rid_h, "x-amzn-RequestId: %s", rid);
    } else if (proto == MOCK_PROTO_QUERY) {
        smfw_buf_puts(&b, "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                          "<Error><Type>");
        smfw_buf_puts(&b, status >= 500 ? "Receiver" : "Sender");
        smfw_buf_puts(&b, "</Type><Code>");
        mock_xml_append(&b, code);
        smfw_buf_puts(&b, "</Code><Message>");
        mock_xml_append(&b, message);
        smfw_buf_printf(&b, "</Message></Error><RequestId>%s</RequestId></ErrorResponse>", rid);
        ct = "Content-Type: text/xml";
        snprintf(rid_h, sizeof rid_h, "x-amzn-RequestId: %s", rid);
    } else {
        smfw_buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>");
        mock_xml_append(&b, code);
        smfw_buf_puts(&b, "</Code><Message>");
        mock_xml_append(&b, message);
        smfw_buf_puts(&b, "</Message>");
        if (extra_xml) smfw_buf_puts(&b, extra_xml);
        smfw_buf_printf(&b, "<RequestId>%.16s</RequestId><HostId>smfw-mock</HostId></Error>", rid);
        ct = "Content-Type: application/xml";
        snprintf(rid_h, sizeof rid_h, "x-amz-request-id: %.16s", rid);
    }
    snprintf(type_h, sizeof type_h, "x-amzn-ErrorType: %s", code);
    const char *headers[] = {ct, rid_h, type_h, NULL};
    /* HEAD answers carry no body (S3 HeadObject/HeadBucket errors). */
    mock_respond(req, status, headers, b.data, b.len);
    smfw_buf_free(&b);
}

void mock_aws_error(mock_request *req, mock_protocol proto, int status, const char *code,
                    const char *message, const char *extra_xml) {
    mock_aws_error_send(req, proto, status, code, message, extra_xml);
    mock_request_finish(req);
}
