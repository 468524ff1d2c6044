/*
 * aws_http.h - HTTP for the AWS layer on libcurl (internal): one shared
 * connection/DNS/TLS-session cache per aws_http, TLS verification always on,
 * CA bundle and proxies from the client's smfw_net_config (smfw_net_apply on
 * every handle; include/smfw/net.h), timeouts, and redacted
 * request/response logging at SMFW_LOG_TRACE (-vv).
 */
#ifndef SMFW_AWS_HTTP_H
#define SMFW_AWS_HTTP_H

#include <stdint.h>
#include <stdio.h>

#include <smfw/sigv4.h>
#include <smfw/smfw.h>

#include "aws/aws_text.h"

typedef struct aws_http aws_http;

struct smfw_net_config;
/* `net` (NULL: system CAs, no proxy) is borrowed and must outlive the aws_http. */
smfw_status aws_http_new(const struct smfw_net_config *net, long connect_timeout_ms,
                         long timeout_ms, aws_http **out, smfw_error *err);
void aws_http_free(aws_http *http);

typedef struct aws_http_request {
    const char *method;
    const char *url;
    const smfw_sigv4_header *headers; /* sent as given (Host included) */
    size_t header_count;
    const void *body; /* in-memory body, or NULL */
    size_t body_len;
    FILE *upload; /* streamed body: upload_size bytes from the FILE's position */
    int64_t upload_size;
    FILE *download;          /* 2xx response bodies go here instead of resp->body */
    long timeout_ms;         /* 0 = the aws_http default */
    long connect_timeout_ms; /* 0 = the aws_http default */
    int no_proxy;            /* never use a proxy (instance/container metadata) */
} aws_http_request;

typedef struct aws_http_response {
    long status;          /* 0 when no response */
    smfw_buf body;        /* error bodies and small responses */
    smfw_buf headers;     /* raw header block of the final response */
    int curl_code;        /* CURLcode */
    char curl_error[256]; /* libcurl's message when curl_code != 0 */
} aws_http_response;

void aws_http_response_init(aws_http_response *r);
void aws_http_response_free(aws_http_response *r);

/*
 * Perform one request (no retries). Returns SMFW_OK when an HTTP response
 * arrived (any status), SMFW_ERR_NETWORK / SMFW_ERR_TIMEOUT otherwise.
 */
smfw_status aws_http_perform(aws_http *http, const aws_http_request *req, aws_http_response *resp,
                             smfw_error *err);

/* Header value of a response (case-insensitive, first match) copied into buf, or NULL. */
const char *aws_http_header(const aws_http_response *resp, const char *name, char *buf,
                            size_t size);

/* Copy text with secret values (Authorization, tokens, secret keys) replaced by "****". */
void aws_http_redact(smfw_buf *out, const char *text, size_t len);

/* Authority ("host" or "host:port") of a URL into buf; -1 if it is not http(s)://... */
int aws_http_url_authority(const char *url, char *buf, size_t size);

#endif
