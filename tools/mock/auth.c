/*
 * auth.c - SigV4 verification of every AWS request, with libsmfw's verifier
 * (smfw_sigv4_verify), and the error each protocol answers for each failed
 * check (aws-wire.md §1.8, §1.9).
 */
#include "mock.h"

#include <smfw/sigv4.h>

#include <stdlib.h>
#include <string.h>

typedef struct auth_keys {
    const mock_options *opt;
} auth_keys;

static const char *auth_lookup(void *user, const char *access_key_id) {
    const mock_options *opt = ((auth_keys *)user)->opt;
    return strcmp(access_key_id, opt->access_key_id) == 0 ? opt->secret_access_key : NULL;
}

int mock_auth_check(mock_server *srv, mock_request *req, const char *service, mock_protocol proto) {
    return mock_auth_check_in(srv, req, service, srv->opt.region, proto);
}

int mock_auth_check_in(mock_server *srv, mock_request *req, const char *service, const char *region,
                       mock_protocol proto) {
    if (srv->opt.no_auth) return 0;
    smfw_sigv4_header stack_headers[64];
    smfw_sigv4_header *hs = stack_headers;
    if (req->header_count > 64) {
        hs = malloc(req->header_count * sizeof *hs);
        if (!hs) abort();
    }
    for (size_t i = 0; i < req->header_count; i++) {
        hs[i].name = req->headers[i].name;
        hs[i].value = req->headers[i].value;
    }
    smfw_sigv4_request sreq = {
        .method = req->method,
        .path = req->path,
        .query = req->query,
        .headers = hs,
        .header_count = req->header_count,
        .body = req->body,
        .body_len = req->body_len,
    };
    auth_keys keys = {&srv->opt};
    smfw_sigv4_verify_params params = {
        .region = region,
        .service = service,
        .flags = proto == MOCK_PROTO_S3 ? SMFW_SIGV4_S3 : 0,
        .now = (int64_t)mock_now_unix(),
        .max_skew_s = 900,
        .lookup_secret = auth_lookup,
        .user = &keys,
    };
    smfw_sigv4_verify_result res;
    memset(&res, 0, sizeof res);
    smfw_sigv4_verdict v = smfw_sigv4_verify(&sreq, &params, &res);
    if (hs != stack_headers) free(hs);
    if (v == SMFW_SIGV4_VALID) {
        smfw_sigv4_verify_result_free(&res);
        return 0;
    }
    int s3 = proto == MOCK_PROTO_S3, query = proto == MOCK_PROTO_QUERY;
    int status = 403;
    const char *code;
    char message[1024];
    smfw_buf extra = {0};
    snprintf(message, sizeof message, "%s",
             res.detail[0] ? res.detail : smfw_sigv4_verdict_name(v));
    switch (v) {
    case SMFW_SIGV4_MISSING_AUTH:
        code = s3 ? "AccessDenied" : "MissingAuthenticationToken";
        snprintf(message, sizeof message, s3 ? "Access Denied" : "Missing Authentication Token");
        break;
    case SMFW_SIGV4_MALFORMED_AUTH:
    case SMFW_SIGV4_MISSING_DATE:
    case SMFW_SIGV4_UNSIGNED_REQUIRED:
    case SMFW_SIGV4_MISSING_CONTENT_SHA256:
        status = 400;
        code = s3 ? "AuthorizationHeaderMalformed" : "IncompleteSignature";
        break;
    case SMFW_SIGV4_UNKNOWN_KEY:
        code = s3      ? "InvalidAccessKeyId"
               : query ? "InvalidClientTokenId"
                       : "UnrecognizedClientException";
        snprintf(message, sizeof message,
                 s3 ? "The AWS Access Key Id you provided does not exist in our records."
                    : "The security token included in the request is invalid.");
        break;
    case SMFW_SIGV4_WRONG_SCOPE_DATE:
    case SMFW_SIGV4_WRONG_REGION:
    case SMFW_SIGV4_WRONG_SERVICE:
        if (s3) {
            status = 400;
            code = "AuthorizationHeaderMalformed";
            smfw_buf_puts(&extra, "<Region>");
            mock_xml_append(&extra, region);
            smfw_buf_puts(&extra, "</Region>");
        } else {
            code = query ? "SignatureDoesNotMatch" : "InvalidSignatureException";
        }
        break;
    case SMFW_SIGV4_SKEWED:
        code = s3      ? "RequestTimeTooSkewed"
               : query ? "SignatureDoesNotMatch"
                       : "InvalidSignatureException";
        if (!s3) status = 400;
        if (s3)
            smfw_buf_puts(&extra,
                          "<MaxAllowedSkewMilliseconds>900000</MaxAllowedSkewMilliseconds>");
        break;
    case SMFW_SIGV4_PAYLOAD_MISMATCH:
        status = 400;
        code = s3 ? "XAmzContentSHA256Mismatch" : "InvalidSignatureException";
        break;
    case SMFW_SIGV4_SIGNATURE_MISMATCH:
    default:
        code = s3 || query ? "SignatureDoesNotMatch" : "InvalidSignatureException";
        snprintf(message, sizeof message,
                 "The request signature we calculated does not match the signature you provided. "
                 "Check your AWS Secret Access Key and signing method. Consult the service "
                 "documentation for details.");
        if (s3 && res.string_to_sign) {
            smfw_buf_puts(&extra, "<StringToSign>");
            mock_xml_append(&extra, res.string_to_sign);
            smfw_buf_puts(&extra, "</StringToSign><CanonicalRequest>");
            mock_xml_append(&extra, res.canonical_request ? res.canonical_request : "");
            smfw_buf_puts(&extra, "</CanonicalRequest>");
        }
        break;
    }
    if (srv->opt.verbose)
        fprintf(stderr, "smfw-mock: %s %s rejected: %s (%s)\n", req->method, req->path, code,
                smfw_sigv4_verdict_name(v));
    smfw_sigv4_verify_result_free(&res);
    mock_aws_error(req, proto, status, code, message, extra.data);
    smfw_buf_free(&extra);
    return -1;
}

int mock_sigv4_scope(const mock_request *req, char *region, size_t region_size, char *service,
                     size_t service_size) {
    /* Credential=AKID/20260101/us-east-1/sts/aws4_request (header) or X-Amz-Credential. */
    const char *auth = mock_request_header(req, "Authorization");
    const char *cred = auth ? strstr(auth, "Credential=") : NULL;
    char decoded[512];
    if (cred) {
        cred += strlen("Credential=");
        size_t n = strcspn(cred, ", ");
        if (n >= sizeof decoded) return 0;
        memcpy(decoded, cred, n);
        decoded[n] = '\0';
    } else if (!mock_form_get(req->query, "X-Amz-Credential", decoded, sizeof decoded)) {
        return 0;
    }
    char *parts[5];
    char *save = NULL, *t = strtok_r(decoded, "/", &save);
    size_t k = 0;
    for (; t && k < 5; t = strtok_r(NULL, "/", &save)) parts[k++] = t;
    if (k != 5 || strcmp(parts[4], "aws4_request") != 0) return 0;
    if (region) snprintf(region, region_size, "%s", parts[2]);
    if (service) snprintf(service, service_size, "%s", parts[3]);
    return 1;
}
