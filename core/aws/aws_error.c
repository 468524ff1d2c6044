/* aws_error.c - parse AWS error bodies and classify errors. */
#include "aws/aws_error.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "aws/aws_text.h"
#include "aws/aws_retry.h"
#include "aws/aws_xml.h"

static void copy(char *dst, size_t cap, const char *src) {
    aws_strlcpy(dst, src ? src : "", cap);
}

void aws_error_normalize_code(char *code) {
    char *hash = strrchr(code, '#');
    if (hash) memmove(code, hash + 1, strlen(hash + 1) + 1);
    char *colon = strchr(code, ':');
    if (colon) *colon = '\0';
    /* Codes are identifiers: trim anything odd (whitespace, control bytes). */
    size_t n = strlen(code);
    while (n && (code[n - 1] == ' ' || code[n - 1] == '\t')) code[--n] = '\0';
}

void aws_error_parse_json(const char *body, size_t len, const char *error_type_header,
                          const char *query_error_header, aws_error_info *out) {
    json_t *root = body && len ? json_loadb(body, len, 0, NULL) : NULL;
    if (json_is_object(root)) {
        const char *code = json_string_value(json_object_get(root, "__type"));
        if (!code) code = json_string_value(json_object_get(root, "code"));
        if (!code) code = json_string_value(json_object_get(root, "Code"));
        const char *msg = json_string_value(json_object_get(root, "message"));
        if (!msg) msg = json_string_value(json_object_get(root, "Message"));
        if (!msg) msg = json_string_value(json_object_get(root, "errorMessage"));
        if (code) copy(out->code, sizeof(out->code), code);
        if (msg) copy(out->message, sizeof(out->message), msg);
    }
    json_decref(root);
    if (!out->code[0] && error_type_header) copy(out->code, sizeof(out->code), error_type_header);
    if (query_error_header && *query_error_header) {
        copy(out->code, sizeof(out->code), query_error_header);
        char *semi = strchr(out->code, ';');
        if (semi) *semi = '\0';
    }
    aws_error_normalize_code(out->code);
}

void aws_error_parse_rest_json(const char *body, size_t len, const char *error_type_header,
                               aws_error_info *out) {
    json_t *root = body && len ? json_loadb(body, len, 0, NULL) : NULL;
    const char *code = error_type_header && *error_type_header ? error_type_header : NULL;
    if (json_is_object(root)) {
        if (!code) code = json_string_value(json_object_get(root, "code"));
        if (!code) code = json_string_value(json_object_get(root, "Code"));
        if (!code) code = json_string_value(json_object_get(root, "__type"));
        const char *msg = json_string_value(json_object_get(root, "message"));
        if (!msg) msg = json_string_value(json_object_get(root, "Message"));
        if (msg) copy(out->message, sizeof(out->message), msg);
    } else if (body && len) {
        /* botocore: a body that is not JSON is the message. */
        size_t n = len < sizeof(out->message) - 1 ? len : sizeof(out->message) - 1;
        memcpy(out->message, body, n);
        out->message[n] = '\0';
    }
    if (code) copy(out->code, sizeof(out->code), code);
    json_decref(root);
    /* botocore cuts at the first ':' before it looks for the last '#'. */
    char *colon = strchr(out->code, ':');
    if (colon) *colon = '\0';
    aws_error_normalize_code(out->code);
}

void aws_error_parse_xml(const char *body, size_t len, aws_error_info *out) {
    aws_xml_node *root = NULL;
    if (!body || !len || aws_xml_parse(body, len, &root, NULL) != SMFW_OK) return;
    const aws_xml_node *e = aws_xml_find(root, "Error");
    if (e) {
        const char *v;
        if ((v = aws_xml_path(e, "Code"))) copy(out->code, sizeof(out->code), v);
        if ((v = aws_xml_path(e, "Message"))) copy(out->message, sizeof(out->message), v);
        if ((v = aws_xml_path(e, "Region"))) copy(out->region, sizeof(out->region), v);
        if ((v = aws_xml_path(e, "RequestId"))) copy(out->request_id, sizeof(out->request_id), v);
    }
    /* awsQuery puts RequestId beside <Error>. */
    const char *rid = aws_xml_path(root, "RequestId");
    if (rid && !out->request_id[0]) copy(out->request_id, sizeof(out->request_id), rid);
    aws_xml_free(root);
    aws_error_normalize_code(out->code);
}

static int in(const char *code, const char *const *list) {
    for (; *list; list++)
        if (strcmp(code, *list) == 0) return 1;
    return 0;
}

static const char *const SKEW[] = {"RequestTimeTooSkewed",
                                   "RequestExpired",
                                   "RequestInTheFuture",
                                   "InvalidSignatureException",
                                   "SignatureDoesNotMatch",
                                   "AuthFailure",
                                   NULL};
static const char *const AUTH[] = {"UnrecognizedClientException",
                                   "InvalidSignatureException",
                                   "IncompleteSignature",
                                   "MissingAuthenticationToken",
                                   "MissingAuthenticationTokenException",
                                   "AccessDenied",
                                   "AccessDeniedException",
                                   "InvalidClientTokenId",
                                   "SignatureDoesNotMatch",
                                   "ExpiredToken",
                                   "ExpiredTokenException",
                                   "InvalidAccessKeyId",
                                   "InvalidToken",
                                   "AuthFailure",
                                   "RequestExpired",
                                   "RequestTimeTooSkewed",
                                   "RequestInTheFuture",
                                   "NotAuthorized",
                                   "UnauthorizedOperation",
                                   "InvalidIdentityToken",
                                   "IDPRejectedClaim",
                                   "Forbidden",
                                   "AllAccessDisabled",
                                   NULL};
static const char *const NOT_FOUND[] = {"ResourceNotFound",
                                        "ResourceNotFoundException",
                                        "NoSuchKey",
                                        "NoSuchBucket",
                                        "NoSuchEntity",
                                        "NotFound",
                                        "NoSuchUpload",
                                        "ObjectNotFoundException",
                                        NULL};

const char *const *aws_error_auth_codes(void) {
    return AUTH;
}

const char *const *aws_error_not_found_codes(void) {
    return NOT_FOUND;
}

int aws_error_is_throttling(long http_status, const char *code) {
    /* The retry policy's throttling codes (one table, aws_retry.c), and any 429. */
    return http_status == 429 || aws_retry_is_throttling_code(code);
}

int aws_error_is_clock_skew(const char *code, const char *message) {
    if (!code || !in(code, SKEW)) return 0;
    /* A signature mismatch is only skew when the message says so. */
    if (strcmp(code, "InvalidSignatureException") == 0 ||
        strcmp(code, "SignatureDoesNotMatch") == 0)
        return message && (strstr(message, "Signature expired") ||
                           strstr(message, "Signature not yet current"));
    return 1;
}

int aws_error_is_expired_token(const char *code) {
    return code &&
           (strcmp(code, "ExpiredToken") == 0 || strcmp(code, "ExpiredTokenException") == 0 ||
            strcmp(code, "RequestExpiredToken") == 0);
}

smfw_status aws_error_status(long http_status, const char *code, const char *message) {
    if (aws_error_is_throttling(http_status, code)) return SMFW_ERR_THROTTLED;
    if (code && in(code, AUTH)) return SMFW_ERR_AUTH;
    if (code && in(code, NOT_FOUND)) return SMFW_ERR_NOT_FOUND;
    if (code && strcmp(code, "ValidationException") == 0 && message &&
        (strstr(message, "Could not find") || strstr(message, "not found") ||
         strstr(message, "does not exist")))
        return SMFW_ERR_NOT_FOUND;
    if (http_status >= 500) return SMFW_ERR_SERVER;
    if (http_status == 404) return SMFW_ERR_NOT_FOUND;
    if (http_status == 401 || http_status == 403) return SMFW_ERR_AUTH;
    return SMFW_ERR_AWS;
}
