/* test_aws_json_pages.c - smfw_aws_json_pages, the one paging loop of the awsJson listings
 * (smfw jobs list, smfw results' newest job, ListTags, GetMetricData): every page in turn with
 * the request's own members kept and the answer's NextToken added; a caller that has enough
 * stops early and learns that more remained; a service whose tokens loop is stopped with a
 * sentence naming the operation, not followed forever. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/aws.h>

#include "aws_fake_env.h"
#include "aws_fake_http.h"
#include "smfw_test.h"

typedef struct pages_service {
    int calls, loop;
    char bodies[8][256];
} pages_service;

/* Pages "" -> t1 -> t2 -> end, two names each; with loop set, t1 points back to t1. */
static void pages_handler(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    pages_service *s = user;
    if (s->calls < 8)
        snprintf(s->bodies[s->calls], sizeof s->bodies[0], "%.*s", (int)req->body_len, req->body);
    s->calls++;
    json_t *in = json_loadb(req->body, req->body_len, 0, NULL);
    const char *token = json_string_value(json_object_get(in, "NextToken"));
    const char *next = !token ? "t1" : strcmp(token, "t1") == 0 ? (s->loop ? "t1" : "t2") : NULL;
    int page = !token ? 0 : strcmp(token, "t1") == 0 ? 1 : 2;
    char body[256];
    snprintf(body, sizeof body,
             "{\"AIBenchmarkJobs\":[{\"AIBenchmarkJobName\":\"job-%d-a\"},"
             "{\"AIBenchmarkJobName\":\"job-%d-b\"}]%s%s%s}",
             page, page, next ? ",\"NextToken\":\"" : "", next ? next : "", next ? "\"" : "");
    json_decref(in);
    aws_fake_reply(resp, 200, "application/x-amz-json-1.1", body);
}

typedef struct collected {
    char names[16][64];
    int n, stop_after, fail_at;
} collected;

static int collect(void *user, json_t *page, smfw_error *err) {
    collected *c = user;
    size_t i;
    json_t *j;
    json_array_foreach(json_object_get(page, "AIBenchmarkJobs"), i, j) if (c->n < 16) snprintf(
        c->names[c->n++], 64, "%s", json_string_value(json_object_get(j, "AIBenchmarkJobName")));
    if (c->fail_at && c->n >= c->fail_at) {
        smfw_error_set(err, SMFW_ERR_NOMEM, "the caller ran out of room");
        return -1;
    }
    return c->stop_after && c->n >= c->stop_after ? 1 : 0;
}

static smfw_aws_client *client_for(aws_fake_server *srv) {
    smfw_aws_options o;
    memset(&o, 0, sizeof o);
    o.endpoint_url = aws_fake_server_url(srv);
    smfw_aws_client *c = NULL;
    smfw_error err;
    ck_assert_msg(smfw_aws_client_new(&o, &c, &err) == SMFW_OK, "%s", err.message);
    return c;
}

static char *g_home;

static void setup(void) {
    g_home = aws_fake_env_reset();
    setenv("AWS_ACCESS_KEY_ID", "AKIDTESTPAGES", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "secretTestPagesKey/123456", 1);
    setenv("AWS_REGION", "us-west-2", 1);
}

static void teardown(void) {
    aws_fake_rmdir(g_home);
    free(g_home);
}

START_TEST(every_page_in_turn) {
    pages_service s = {0};
    aws_fake_server *srv = aws_fake_server_start(pages_handler, &s);
    smfw_aws_client *c = client_for(srv);
    json_t *req = json_pack("{s:i,s:s}", "MaxResults", 2, "SortBy", "CreationTime");
    collected got = {0};
    int more = -1;
    smfw_error err;
    ck_assert_int_eq(smfw_aws_json_pages(c, &smfw_aws_sagemaker, "ListAIBenchmarkJobs", req,
                                         collect, &got, &more, &err),
                     SMFW_OK);
    ck_assert_int_eq(s.calls, 3);
    ck_assert_int_eq(got.n, 6);
    ck_assert_str_eq(got.names[0], "job-0-a");
    ck_assert_str_eq(got.names[5], "job-2-b");
    ck_assert_int_eq(more, 0);
    /* the caller's request is not changed; each page's request is it plus the token */
    ck_assert_ptr_null(json_object_get(req, "NextToken"));
    ck_assert_str_eq(s.bodies[0], "{\"MaxResults\":2,\"SortBy\":\"CreationTime\"}");
    ck_assert_str_eq(s.bodies[1],
                     "{\"MaxResults\":2,\"SortBy\":\"CreationTime\",\"NextToken\":\"t1\"}");
    ck_assert_str_eq(s.bodies[2],
                     "{\"MaxResults\":2,\"SortBy\":\"CreationTime\",\"NextToken\":\"t2\"}");

    /* enough after the second page: no third request, and more remained */
    collected some = {.stop_after = 3};
    s.calls = 0;
    ck_assert_int_eq(smfw_aws_json_pages(c, &smfw_aws_sagemaker, "ListAIBenchmarkJobs", req,
                                         collect, &some, &more, &err),
                     SMFW_OK);
    ck_assert_int_eq(s.calls, 2);
    ck_assert_int_eq(more, 1);

    /* the caller's own error stops the listing and is returned as it is */
    collected full = {.fail_at = 2};
    ck_assert_int_eq(smfw_aws_json_pages(c, &smfw_aws_sagemaker, "ListAIBenchmarkJobs", req,
                                         collect, &full, NULL, &err),
                     SMFW_ERR_NOMEM);
    ck_assert_str_eq(err.message, "the caller ran out of room");
    json_decref(req);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

START_TEST(a_looping_service_is_stopped) {
    pages_service s = {.loop = 1};
    aws_fake_server *srv = aws_fake_server_start(pages_handler, &s);
    smfw_aws_client *c = client_for(srv);
    collected got = {0};
    smfw_error err;
    ck_assert_int_eq(smfw_aws_json_pages(c, &smfw_aws_sagemaker, "ListAIBenchmarkJobs", NULL,
                                         collect, &got, NULL, &err),
                     SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(s.calls, 2); /* "" -> t1, t1 -> t1: the repeat is seen at once */
    ck_assert_msg(strstr(err.message, "SageMaker ListAIBenchmarkJobs stopped after 2 pages: "),
                  "%s", err.message);
    ck_assert_str_eq(s.bodies[0], "{}");
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_json_pages");
    TCase *tc = tcase_create("pages");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, every_page_in_turn);
    tcase_add_test(tc, a_looping_service_is_stopped);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
