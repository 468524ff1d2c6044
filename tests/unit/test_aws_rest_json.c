/*
 * test_aws_rest_json.c - the restJson call (AWS Batch) against a local fake:
 * the request it builds (method, path and query apart, the JSON body with
 * Content-Type application/json, no X-Amz-Target, SigV4 for "batch"), its
 * retries, and restJson errors read as botocore's RestJSONParser reads them
 * (x-amzn-ErrorType header, then `code`/`Code`, then `__type`).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/aws.h>

#include "aws/aws_internal.h"
#include "aws_fake_env.h"
#include "aws_fake_http.h"
#include "smfw_test.h"

#define AKID   "AKIDTESTRESTJSON"
#define SECRET "secretTestRestJsonKey/123456"

static char *g_home;

static void setup(void) {
    g_home = aws_fake_env_reset();
    unsetenv("AWS_ENDPOINT_URL_BATCH");
    setenv("AWS_ACCESS_KEY_ID", AKID, 1);
    setenv("AWS_SECRET_ACCESS_KEY", SECRET, 1);
    setenv("AWS_REGION", "us-west-2", 1);
}

static void teardown(void) {
    aws_fake_rmdir(g_home);
    free(g_home);
}

static smfw_aws_client *client(const char *endpoint) {
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.endpoint_url = endpoint;
    smfw_aws_client *c = NULL;
    smfw_error err;
    ck_assert_msg(smfw_aws_client_new(&o, &c, &err) == SMFW_OK, "%s", err.message);
    return c;
}

/* What the fake saw of the last request, and how to answer. */
typedef struct seen {
    int calls, bad_signatures;
    int fail_first; /* answer with the error this many times */
    int status;
    const char *error_type; /* x-amzn-ErrorType of the error, or NULL */
    const char *error_body;
    char method[16], path[256], query[256], content_type[64], body[1024];
    int has_target;
} seen;

static void handler(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    seen *s = user;
    s->calls++;
    char detail[256];
    if (aws_fake_verify(req, AKID, SECRET, "us-west-2", "batch", 0, detail, sizeof(detail)) !=
        SMFW_SIGV4_VALID) {
        s->bad_signatures++;
        aws_fake_reply(resp, 403, "application/json", "{\"message\":\"bad signature\"}");
        return;
    }
    snprintf(s->method, sizeof(s->method), "%s", req->method);
    snprintf(s->path, sizeof(s->path), "%s", req->path);
    snprintf(s->query, sizeof(s->query), "%s", req->query);
    const char *ct = aws_fake_header(req, "Content-Type");
    snprintf(s->content_type, sizeof(s->content_type), "%s", ct ? ct : "");
    snprintf(s->body, sizeof(s->body), "%.*s", (int)req->body_len, req->body ? req->body : "");
    s->has_target = aws_fake_header(req, "X-Amz-Target") != NULL;
    aws_fake_add_header(resp, "x-amzn-RequestId", "batch-req-1");
    if (s->calls <= s->fail_first) {
        if (s->error_type) aws_fake_add_header(resp, "x-amzn-ErrorType", s->error_type);
        aws_fake_reply(resp, s->status, "application/json", s->error_body);
        return;
    }
    aws_fake_reply(resp, 200, "application/json",
                   "{\"jobName\":\"bench\",\"jobId\":\"j-1\",\"jobArn\":\"arn:aws:batch:us-west-2:"
                   "123456789012:job/j-1\"}");
}

START_TEST(request_is_rest_json) {
    seen s;
    memset(&s, 0, sizeof(s));
    aws_fake_server *srv = aws_fake_server_start(handler, &s);
    smfw_aws_client *c = client(aws_fake_server_url(srv));
    const char *body =
        "{\"jobName\":\"bench\",\"jobQueue\":\"q\",\"arrayProperties\":{\"size\":2}}";
    char *out = NULL;
    smfw_error err;
    ck_assert_msg(smfw_aws_rest_json_call(c, &smfw_aws_batch, "SubmitJob", "POST", "/v1/submitjob",
                                          body, &out, &err) == SMFW_OK,
                  "%s", err.message);
    ck_assert_int_eq(s.calls, 1);
    ck_assert_int_eq(s.bad_signatures, 0);
    ck_assert_str_eq(s.method, "POST");
    ck_assert_str_eq(s.path, "/v1/submitjob");
    ck_assert_str_eq(s.query, "");
    ck_assert_str_eq(s.content_type, "application/json");
    ck_assert_str_eq(s.body, body);
    ck_assert_int_eq(s.has_target, 0); /* restJson names the operation by its URI */
    ck_assert_ptr_nonnull(strstr(out, "\"jobId\":\"j-1\""));
    free(out);

    /* A query is sent (and signed) apart from the path; no body means no Content-Type. */
    ck_assert_msg(smfw_aws_rest_json_call(c, &smfw_aws_batch, "ListTagsForResource", "GET",
                                          "/v1/tags/arn%3Aaws%3Abatch?x=1", NULL, &out,
                                          &err) == SMFW_OK,
                  "%s", err.message);
    ck_assert_int_eq(s.bad_signatures, 0);
    ck_assert_str_eq(s.method, "GET");
    ck_assert_str_eq(s.path, "/v1/tags/arn%3Aaws%3Abatch");
    ck_assert_str_eq(s.query, "x=1");
    ck_assert_str_eq(s.content_type, "");
    ck_assert_str_eq(s.body, "");
    free(out);

    smfw_status st =
        smfw_aws_rest_json_call(c, &smfw_aws_batch, "SubmitJob", "POST", "v1/x", "{}", &out, &err);
    ck_assert_int_eq(st, SMFW_ERR_INTERNAL);
    ck_assert_ptr_null(out);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

START_TEST(errors_are_read_and_retried) {
    /* Batch's own form: the code in x-amzn-ErrorType (with a ":" suffix), a message in the
       body; a client error is not retried. */
    seen s;
    memset(&s, 0, sizeof(s));
    s.fail_first = 99;
    s.status = 400;
    s.error_type = "ClientException:http://internal.amazon.com/coral/com.amazonaws.batch/";
    s.error_body = "{\"__type\":\"Other\",\"message\":\"Job queue smfw does not exist.\"}";
    aws_fake_server *srv = aws_fake_server_start(handler, &s);
    smfw_aws_client *c = client(aws_fake_server_url(srv));
    char *out = NULL;
    smfw_error err;
    smfw_status st = smfw_aws_rest_json_call(c, &smfw_aws_batch, "SubmitJob", "POST",
                                             "/v1/submitjob", "{}", &out, &err);
    ck_assert_int_eq(st, SMFW_ERR_AWS);
    ck_assert_int_eq(s.calls, 1);
    ck_assert_msg(strstr(err.message, "AWS Batch SubmitJob failed: ClientException: Job queue "
                                      "smfw does not exist. (HTTP 400, request id batch-req-1)"),
                  "%s", err.message);
    ck_assert_ptr_null(out);

    /* A server error is retried (standard mode: 3 attempts), then succeeds. */
    memset(&s, 0, sizeof(s));
    s.fail_first = 2;
    s.status = 500;
    s.error_type = "ServerException";
    s.error_body = "{\"message\":\"internal\"}";
    ck_assert_msg(smfw_aws_rest_json_call(c, &smfw_aws_batch, "DescribeJobs", "POST",
                                          "/v1/describejobs", "{\"jobs\":[\"j-1\"]}", &out,
                                          &err) == SMFW_OK,
                  "%s", err.message);
    ck_assert_int_eq(s.calls, 3);
    free(out);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

START_TEST(error_parse_follows_botocore) {
    aws_error_info e;
    /* The header wins over the body. */
    memset(&e, 0, sizeof(e));
    const char *b = "{\"code\":\"BodyCode\",\"__type\":\"T\",\"message\":\"m1\"}";
    aws_error_parse_rest_json(b, strlen(b), "ClientException:http://x#y", &e);
    ck_assert_str_eq(e.code, "ClientException");
    ck_assert_str_eq(e.message, "m1");
    /* Without it, `code` then `Code` then `__type` (namespace and suffix cut). */
    memset(&e, 0, sizeof(e));
    aws_error_parse_rest_json(b, strlen(b), NULL, &e);
    ck_assert_str_eq(e.code, "BodyCode");
    memset(&e, 0, sizeof(e));
    b = "{\"Code\":\"Upper\",\"__type\":\"T\",\"Message\":\"m2\"}";
    aws_error_parse_rest_json(b, strlen(b), NULL, &e);
    ck_assert_str_eq(e.code, "Upper");
    ck_assert_str_eq(e.message, "m2");
    memset(&e, 0, sizeof(e));
    b = "{\"__type\":\"com.amazonaws.batch#ServerException:http://internal\"}";
    aws_error_parse_rest_json(b, strlen(b), "", &e);
    ck_assert_str_eq(e.code, "ServerException");
    ck_assert_str_eq(e.message, "");
    /* A body that is not JSON is the message; nothing names a code. */
    memset(&e, 0, sizeof(e));
    aws_error_parse_rest_json("Service Unavailable", 19, NULL, &e);
    ck_assert_str_eq(e.code, "");
    ck_assert_str_eq(e.message, "Service Unavailable");
    memset(&e, 0, sizeof(e));
    aws_error_parse_rest_json(NULL, 0, NULL, &e);
    ck_assert_str_eq(e.code, "");
    ck_assert_str_eq(e.message, "");
}
END_TEST

START_TEST(batch_endpoint_is_resolved) {
    smfw_aws_client *c = client(NULL);
    char url[256];
    int overridden = -1;
    smfw_error err;
    ck_assert_msg(smfw_aws_client_endpoint(c, "batch", url, sizeof(url), &overridden, &err) ==
                      SMFW_OK,
                  "%s", err.message);
    ck_assert_str_eq(url, "https://batch.us-west-2.amazonaws.com");
    ck_assert_int_eq(overridden, 0);
    smfw_aws_client_free(c);
    setenv("AWS_ENDPOINT_URL_BATCH", "http://127.0.0.1:9/", 1);
    c = client(NULL);
    ck_assert_msg(smfw_aws_client_endpoint(c, "batch", url, sizeof(url), &overridden, &err) ==
                      SMFW_OK,
                  "%s", err.message);
    ck_assert_str_eq(url, "http://127.0.0.1:9");
    ck_assert_int_eq(overridden, 1);
    smfw_aws_client_free(c);
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_rest_json");
    TCase *tc = tcase_create("rest_json");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, request_is_rest_json);
    tcase_add_test(tc, errors_are_read_and_retried);
    tcase_add_test(tc, error_parse_follows_botocore);
    tcase_add_test(tc, batch_endpoint_is_resolved);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
