/*
 * aws_error.h - AWS error bodies (awsJson, restXml, awsQuery) and their
 * mapping to smfw_status (internal). Which errors are retried is the retry
 * policy's (aws_retry.h).
 */
#ifndef SMFW_AWS_ERROR_H
#define SMFW_AWS_ERROR_H

#include <stddef.h>

#include <smfw/smfw.h>

typedef struct aws_error_info {
    char code[128];
    char message[1024];
    char request_id[128];
    char region[64]; /* S3 <Region> hint */
} aws_error_info;

/*
 * awsJson / restJson error: code from `__type` (after the last '#', before
 * the first ':'), else `code`/`Code`, else the x-amzn-ErrorType header
 * (may be NULL); message from `message` or `Message`. A query_error header
 * (x-amzn-query-error "Code;Sender") wins when present. Never fails: fields
 * stay empty when the body is not JSON.
 */
void aws_error_parse_json(const char *body, size_t len, const char *error_type_header,
                          const char *query_error_header, aws_error_info *out);

/*
 * restJson error, read as botocore's RestJSONParser does: the code from the
 * x-amzn-ErrorType header (may be NULL), else the body's `code`/`Code`, else
 * its `__type` (each cut after the last '#' and at the first ':'); the
 * message from `message`/`Message`, or a body that is not JSON as a whole.
 * Never fails: fields stay empty when there is nothing to read.
 */
void aws_error_parse_rest_json(const char *body, size_t len, const char *error_type_header,
                               aws_error_info *out);

/* restXml (<Error>) and awsQuery (<ErrorResponse><Error>) bodies. Never fails. */
void aws_error_parse_xml(const char *body, size_t len, aws_error_info *out);

/* Strip a namespace prefix and ":suffix" from an error code, in place. */
void aws_error_normalize_code(char *code);

/* smfw status for an HTTP status and error code. */
smfw_status aws_error_status(long http_status, const char *code, const char *message);

/* HTTP 429 or a throttling code: the status is SMFW_ERR_THROTTLED. */
int aws_error_is_throttling(long http_status, const char *code);
int aws_error_is_clock_skew(const char *code, const char *message);
int aws_error_is_expired_token(const char *code);
/* The codes aws_error_status() reads as auth / not found (NULL-terminated), for the test
 * that holds docs/aws.md's table to them. */
const char *const *aws_error_auth_codes(void);
const char *const *aws_error_not_found_codes(void);

#endif
