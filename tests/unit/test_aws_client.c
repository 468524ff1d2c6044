/*
 * test_aws_client.c - the AWS client against a local fake: error mapping and
 * messages, standard-mode retries, clock-skew correction, region and
 * endpoint resolution, S3/STS/IAM/awsJson operations, managed defaults and
 * redacted -vv logging. Every request the fake sees is SigV4-verified.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <smfw/aws.h>
#include <smfw/log.h>

#include "aws/aws_internal.h"
#include "aws_fake_env.h"
#include "aws_fake_http.h"
#include "smfw_test.h"

#define AKID   "AKIDTESTCLIENT"
#define SECRET "secretTestClientKey/123456"

static char *g_home;

static void setup(void) {
    g_home = aws_fake_env_reset();
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

/* ---- awsJson errors and retries ---- */

typedef struct json_scenario {
    int calls;
    int fail_first; /* answer with the error this many times */
    int status;
    const char *body; /* error body */
    const char *service;
    int bad_signatures;
} json_scenario;

static void json_handler(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    json_scenario *s = user;
    s->calls++;
    char detail[256];
    if (aws_fake_verify(req, AKID, SECRET, "us-west-2", s->service ? s->service : "sagemaker", 0,
                        detail, sizeof(detail)) != SMFW_SIGV4_VALID) {
        s->bad_signatures++;
        aws_fake_reply(resp, 403, "application/x-amz-json-1.1",
                       "{\"__type\":\"InvalidSignatureException\",\"message\":\"bad\"}");
        return;
    }
    aws_fake_add_header(resp, "x-amzn-RequestId", "req-1234");
    if (s->calls <= s->fail_first) {
        aws_fake_reply(resp, s->status, "application/x-amz-json-1.1", s->body);
        return;
    }
    aws_fake_reply(resp, 200, "application/x-amz-json-1.1", "{\"EndpointStatus\":\"InService\"}");
}

START_TEST(json_throttling_is_retried_then_reported) {
    json_scenario s = {0,
                       99,
                       400,
                       "{\"__type\":\"com.amazon.coral.availability#ThrottlingException\","
                       "\"message\":\"Rate exceeded\"}",
                       NULL,
                       0};
    aws_fake_server *srv = aws_fake_server_start(json_handler, &s);
    smfw_aws_client *c = client(aws_fake_server_url(srv));
    char *out = NULL;
    smfw_error err;
    smfw_status st = smfw_aws_json_call(c, &smfw_aws_sagemaker, "DescribeEndpoint",
                                        "{\"EndpointName\":\"e\"}", &out, &err);
    ck_assert_int_eq(st, SMFW_ERR_THROTTLED);
    ck_assert_int_eq(s.calls, 3);
    ck_assert_int_eq(s.bad_signatures, 0);
    ck_assert_msg(strstr(err.message, "SageMaker DescribeEndpoint failed: ThrottlingException: "
                                      "Rate exceeded. (HTTP 400, request id req-1234)"),
                  "%s", err.message);
    ck_assert_ptr_null(out);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

START_TEST(json_transient_5xx_then_success) {
    json_scenario s = {0,    2, 503, "{\"__type\":\"ServiceUnavailable\",\"message\":\"busy\"}",
                       NULL, 0};
    aws_fake_server *srv = aws_fake_server_start(json_handler, &s);
    smfw_aws_client *c = client(aws_fake_server_url(srv));
    char *out = NULL;
    smfw_error err;
    ck_assert_int_eq(
        smfw_aws_json_call(c, &smfw_aws_sagemaker, "DescribeEndpoint", NULL, &out, &err), SMFW_OK);
    ck_assert_str_eq(out, "{\"EndpointStatus\":\"InService\"}");
    ck_assert_int_eq(s.calls, 3);
    free(out);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

START_TEST(json_error_mapping) {
    struct {
        int status;
        const char *body;
        smfw_status want;
        const char *code;
    } cases[] = {
        {400,
         "{\"__type\":\"ValidationException\",\"message\":\"Could not find endpoint \\\"x\\\".\"}",
         SMFW_ERR_NOT_FOUND, "ValidationException"},
        {400, "{\"__type\":\"ResourceNotFound\",\"Message\":\"no such job\"}", SMFW_ERR_NOT_FOUND,
         "ResourceNotFound"},
        {403, "{\"__type\":\"UnrecognizedClientException\",\"message\":\"bad token\"}",
         SMFW_ERR_AUTH, "UnrecognizedClientException"},
        {400, "{\"__type\":\"AccessDeniedException:http://internal\",\"message\":\"no\"}",
         SMFW_ERR_AUTH, "AccessDeniedException"},
        {400, "{\"__type\":\"ResourceInUse\",\"Message\":\"exists\"}", SMFW_ERR_AWS,
         "ResourceInUse"},
        {501, "not json at all", SMFW_ERR_SERVER, ": 501: (no message)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_scenario s = {0, 99, cases[i].status, cases[i].body, NULL, 0};
        aws_fake_server *srv = aws_fake_server_start(json_handler, &s);
        smfw_aws_client *c = client(aws_fake_server_url(srv));
        smfw_error err;
        char *out = NULL;
        smfw_status st =
            smfw_aws_json_call(c, &smfw_aws_sagemaker, "DescribeEndpoint", "{}", &out, &err);
        ck_assert_msg(st == cases[i].want, "case %zu: %s -> %s", i, err.message,
                      smfw_status_name(st));
        ck_assert_msg(strstr(err.message, cases[i].code), "case %zu: %s", i, err.message);
        ck_assert_msg(strstr(err.message, "req-1234"), "case %zu: %s", i, err.message);
        ck_assert_int_eq(s.calls, 1);
        smfw_aws_client_free(c);
        aws_fake_server_stop(srv);
    }
}
END_TEST

START_TEST(cloudwatch_and_autoscaling_targets) {
    json_scenario s = {0, 0, 200, NULL, "monitoring", 0};
    aws_fake_server *srv = aws_fake_server_start(json_handler, &s);
    setenv("AWS_ENDPOINT_URL_CLOUDWATCH", aws_fake_server_url(srv), 1);
    smfw_aws_client *c = client(NULL);
    char *out = NULL;
    smfw_error err;
    ck_assert_msg(smfw_aws_json_call(c, &smfw_aws_cloudwatch, "GetMetricData", "{}", &out, &err) ==
                      SMFW_OK,
                  "%s", err.message);
    free(out);
    ck_assert_int_eq(s.bad_signatures, 0);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

START_TEST(network_error_is_reported) {
    aws_fake_server *srv = aws_fake_server_start(json_handler, NULL);
    char url[64];
    snprintf(url, sizeof(url), "%s", aws_fake_server_url(srv));
    aws_fake_server_stop(srv); /* nothing listens there now */
    setenv("AWS_MAX_ATTEMPTS", "2", 1);
    smfw_aws_client *c = client(url);
    smfw_error err;
    char *out = NULL;
    smfw_status st =
        smfw_aws_json_call(c, &smfw_aws_sagemaker, "ListAIBenchmarkJobs", "{}", &out, &err);
    ck_assert_int_eq(st, SMFW_ERR_NETWORK);
    ck_assert_msg(strstr(err.message, "SageMaker ListAIBenchmarkJobs failed"), "%s", err.message);
    smfw_aws_client_free(c);
}
END_TEST

/* ---- clock skew ---- */

static void skew_handler(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    int *calls = user;
    (*calls)++;
    time_t server = time(NULL) + 3600; /* the server is an hour ahead */
    char date[64];
    struct tm tm;
    gmtime_r(&server, &tm);
    strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT", &tm);
    aws_fake_add_header(resp, "Date", date);
    int64_t t = 0;
    smfw_sigv4_parse_time(aws_fake_header(req, "X-Amz-Date"), &t);
    if (t < (int64_t)server - 900) {
        aws_fake_reply(resp, 400, "application/x-amz-json-1.1",
                       "{\"__type\":\"InvalidSignatureException\",\"message\":\"Signature "
                       "expired: 20260101T000000Z is now earlier than ...\"}");
        return;
    }
    aws_fake_reply(resp, 200, "application/x-amz-json-1.1", "{}");
}

START_TEST(clock_skew_is_corrected) {
    int calls = 0;
    aws_fake_server *srv = aws_fake_server_start(skew_handler, &calls);
    smfw_aws_client *c = client(aws_fake_server_url(srv));
    smfw_error err;
    char *out = NULL;
    ck_assert_msg(smfw_aws_json_call(c, &smfw_aws_sagemaker, "ListEndpoints", "{}", &out, &err) ==
                      SMFW_OK,
                  "%s", err.message);
    free(out);
    ck_assert_int_eq(calls, 2);
    int64_t off = smfw_aws_client_clock_offset(c);
    ck_assert_msg(off > 3590 && off < 3610, "offset %lld", (long long)off);
    /* Later calls are signed with the corrected time at once. */
    ck_assert_int_eq(smfw_aws_json_call(c, &smfw_aws_sagemaker, "ListEndpoints", "{}", &out, &err),
                     SMFW_OK);
    free(out);
    ck_assert_int_eq(calls, 3);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

/* ---- region and endpoints ---- */

START_TEST(region_resolution) {
    unsetenv("AWS_REGION");
    smfw_aws_client *c = client(NULL);
    const char *r;
    smfw_error err;
    ck_assert_int_eq(smfw_aws_client_region(c, &r, &err), SMFW_ERR_CONFIG);
    ck_assert_msg(strstr(err.message, "--region") && strstr(err.message, "AWS_REGION"), "%s",
                  err.message);
    smfw_aws_client_free(c);

    char *cfg = aws_fake_write_file(g_home, "config",
                                    "[default]\nregion = eu-west-1\n[profile other]\nregion = "
                                    "ap-south-1\ns3 =\n  addressing_style = path\n");
    setenv("AWS_CONFIG_FILE", cfg, 1);
    c = client(NULL);
    ck_assert_int_eq(smfw_aws_client_region(c, &r, &err), SMFW_OK);
    ck_assert_str_eq(r, "eu-west-1");
    smfw_aws_client_free(c);
    setenv("AWS_PROFILE", "other", 1);
    c = client(NULL);
    ck_assert_int_eq(smfw_aws_client_region(c, &r, &err), SMFW_OK);
    ck_assert_str_eq(r, "ap-south-1");
    smfw_aws_client_free(c);
    setenv("AWS_DEFAULT_REGION", "ca-central-1", 1);
    c = client(NULL);
    ck_assert_int_eq(smfw_aws_client_region(c, &r, &err), SMFW_OK);
    ck_assert_str_eq(r, "ca-central-1");
    smfw_aws_client_free(c);
    setenv("AWS_REGION", "us-east-2", 1);
    c = client(NULL);
    ck_assert_int_eq(smfw_aws_client_region(c, &r, &err), SMFW_OK);
    ck_assert_str_eq(r, "us-east-2");
    smfw_aws_client_free(c);
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.region = "sa-east-1";
    ck_assert_int_eq(smfw_aws_client_new(&o, &c, &err), SMFW_OK);
    ck_assert_int_eq(smfw_aws_client_region(c, &r, &err), SMFW_OK);
    ck_assert_str_eq(r, "sa-east-1");
    smfw_aws_client_free(c);
    o.region = "Not A Region";
    ck_assert_int_eq(smfw_aws_client_new(&o, &c, &err), SMFW_OK);
    ck_assert_int_eq(smfw_aws_client_region(c, &r, &err), SMFW_ERR_CONFIG);
    smfw_aws_client_free(c);
    free(cfg);
}
END_TEST

START_TEST(endpoint_resolution) {
    char url[512];
    int ov;
    smfw_error err;
    smfw_aws_client *c = client(NULL);
    ck_assert_int_eq(smfw_aws_client_endpoint(c, "sagemaker", url, sizeof(url), &ov, &err),
                     SMFW_OK);
    ck_assert_str_eq(url, "https://api.sagemaker.us-west-2.amazonaws.com");
    ck_assert_int_eq(ov, 0);
    smfw_aws_client_endpoint(c, "runtime.sagemaker", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "https://runtime.sagemaker.us-west-2.amazonaws.com");
    smfw_aws_client_endpoint(c, "iam", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "https://iam.amazonaws.com");
    smfw_aws_client_endpoint(c, "monitoring", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "https://monitoring.us-west-2.amazonaws.com");
    smfw_aws_client_free(c);

    char *cfg = aws_fake_write_file(g_home, "config",
                                    "[default]\nendpoint_url = http://127.0.0.1:1/profile\n"
                                    "services = local\n[services local]\nsts =\n"
                                    "  endpoint_url = http://127.0.0.1:2/\n");
    setenv("AWS_CONFIG_FILE", cfg, 1);
    c = client(NULL);
    smfw_aws_client_endpoint(c, "sts", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "http://127.0.0.1:2");
    ck_assert_int_eq(ov, 1);
    smfw_aws_client_endpoint(c, "s3", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "http://127.0.0.1:1/profile");
    smfw_aws_client_free(c);
    setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:3", 1);
    setenv("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:4", 1);
    setenv("AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING", "http://127.0.0.1:5", 1);
    c = client(NULL);
    smfw_aws_client_endpoint(c, "s3", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "http://127.0.0.1:4");
    smfw_aws_client_endpoint(c, "application-autoscaling", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "http://127.0.0.1:5");
    smfw_aws_client_endpoint(c, "sagemaker", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "http://127.0.0.1:3");
    smfw_aws_client_free(c);
    c = client("http://127.0.0.1:6/");
    smfw_aws_client_endpoint(c, "s3", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "http://127.0.0.1:6");
    smfw_aws_client_free(c);
    setenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true", 1);
    c = client(NULL);
    smfw_aws_client_endpoint(c, "s3", url, sizeof(url), &ov, &err);
    ck_assert_str_eq(url, "https://s3.us-west-2.amazonaws.com");
    smfw_aws_client_free(c);
    free(cfg);
}
END_TEST

/* ---- S3, STS, IAM against one fake ---- */

typedef struct fake_aws {
    char objects[4][2][256]; /* key, body */
    int nobjects;
    int bad;
    char last_create_body[512];
    int iam_calls;
    const char *caller_arn;
} fake_aws;

static void aws_handler(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    fake_aws *f = user;
    const char *auth = aws_fake_header(req, "Authorization");
    const char *scope = auth ? strstr(auth, "Credential=") : NULL;
    char service[32] = "";
    if (scope) sscanf(scope, "Credential=%*[^/]/%*[^/]/%*[^/]/%31[^/]", service);
    int s3 = strcmp(service, "s3") == 0;
    /* Through an override every service, IAM too, is signed for the client's region (botocore). */
    const char *region = "us-west-2";
    char detail[256];
    if (aws_fake_verify(req, AKID, SECRET, region, service, s3 ? SMFW_SIGV4_S3 : 0, detail,
                        sizeof(detail)) != SMFW_SIGV4_VALID) {
        f->bad++;
        aws_fake_reply(resp, 403, "application/xml",
                       "<Error><Code>SignatureDoesNotMatch</Code><Message>no</Message></Error>");
        return;
    }
    if (strcmp(service, "sts") == 0) {
        char body[1024];
        snprintf(body, sizeof(body),
                 "<GetCallerIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                 "<GetCallerIdentityResult><Arn>%s</Arn><UserId>AROA:x</UserId>"
                 "<Account>012345678901</Account></GetCallerIdentityResult>"
                 "<ResponseMetadata><RequestId>r</RequestId></ResponseMetadata>"
                 "</GetCallerIdentityResponse>",
                 f->caller_arn);
        aws_fake_reply(resp, 200, "text/xml", body);
        return;
    }
    if (strcmp(service, "iam") == 0) {
        f->iam_calls++;
        char body[2048];
        if (strstr(req->body, "Action=GetRole")) {
            aws_fake_reply(resp, 403, "text/xml",
                           "<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code>"
                           "<Message>no iam</Message></Error><RequestId>q</RequestId>"
                           "</ErrorResponse>");
            return;
        }
        int second = strstr(req->body, "Marker=page2") != NULL;
        snprintf(body, sizeof(body),
                 "<ListRolesResponse><ListRolesResult><Roles><member><RoleName>%s</RoleName>"
                 "<Arn>arn:aws:iam::012345678901:role/%s</Arn></member></Roles>"
                 "<IsTruncated>%s</IsTruncated>%s</ListRolesResult></ListRolesResponse>",
                 second ? "AmazonSageMaker-ExecutionRole-1" : "Other",
                 second ? "service-role/AmazonSageMaker-ExecutionRole-1" : "Other",
                 second ? "false" : "true", second ? "" : "<Marker>page2</Marker>");
        aws_fake_reply(resp, 200, "text/xml", body);
        return;
    }
    /* S3, path style: /bucket[/key] */
    const char *p = req->path + 1;
    const char *slash = strchr(p, '/');
    char key[256] = "";
    if (slash) snprintf(key, sizeof(key), "%s", slash + 1);
    int is_bucket = !slash;
    if (strncmp(p, "missing", 7) == 0) {
        aws_fake_reply(resp, 404, "application/xml",
                       strcmp(req->method, "HEAD") == 0
                           ? NULL
                           : "<Error><Code>NoSuchBucket</Code><Message>The specified bucket does "
                             "not exist</Message><RequestId>rid9</RequestId></Error>");
        return;
    }
    if (strcmp(req->method, "PUT") == 0 && is_bucket) {
        snprintf(f->last_create_body, sizeof(f->last_create_body), "%.*s", (int)req->body_len,
                 req->body);
        aws_fake_reply(resp, 200, NULL, NULL);
    } else if (strcmp(req->method, "PUT") == 0) {
        snprintf(f->objects[f->nobjects][0], 256, "%s", key);
        snprintf(f->objects[f->nobjects][1], 256, "%.*s", (int)req->body_len, req->body);
        f->nobjects++;
        aws_fake_add_header(resp, "ETag", "\"abc\"");
        aws_fake_reply(resp, 200, NULL, NULL);
    } else if (is_bucket && strcmp(req->method, "HEAD") == 0) {
        aws_fake_reply(resp, 200, NULL, NULL);
    } else if (is_bucket) { /* ListObjectsV2: one object per page */
        const char *tok = strstr(req->query, "continuation-token=");
        int page = tok ? atoi(tok + 19) : 0;
        char body[2048];
        snprintf(body, sizeof(body),
                 "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                 "<Contents><Key>%s</Key><Size>%zu</Size><ETag>&quot;e&quot;</ETag></Contents>"
                 "<IsTruncated>%s</IsTruncated>%s%d%s</ListBucketResult>",
                 f->objects[page][0], strlen(f->objects[page][1]),
                 page + 1 < f->nobjects ? "true" : "false",
                 page + 1 < f->nobjects ? "<NextContinuationToken>" : "<!-- ", page + 1,
                 page + 1 < f->nobjects ? "</NextContinuationToken>" : " -->");
        aws_fake_reply(resp, 200, "application/xml", body);
    } else {
        for (int i = 0; i < f->nobjects; i++) {
            if (strcmp(f->objects[i][0], key) == 0) {
                aws_fake_add_header(resp, "ETag", "\"abc\"");
                aws_fake_reply(resp, 200, "text/plain", f->objects[i][1]);
                return;
            }
        }
        aws_fake_reply(resp, 404, "application/xml",
                       strcmp(req->method, "HEAD") == 0
                           ? NULL
                           : "<Error><Code>NoSuchKey</Code><Message>The specified key does not "
                             "exist.</Message><RequestId>rid7</RequestId></Error>");
    }
}

static int count_objects(const smfw_aws_s3_object *o, void *user) {
    int *n = user;
    if (strcmp(o->etag, "\"e\"") == 0) (*n)++;
    return 0;
}

START_TEST(s3_operations) {
    fake_aws f;
    memset(&f, 0, sizeof(f));
    aws_fake_server *srv = aws_fake_server_start(aws_handler, &f);
    setenv("AWS_ENDPOINT_URL_S3", aws_fake_server_url(srv), 1);
    smfw_aws_client *c = client(NULL);
    smfw_error err;
    char *dir = aws_fake_tempdir();
    char *src = aws_fake_write_file(dir, "in.json", "{\"hello\":\"s3 file\"}");
    ck_assert_msg(smfw_aws_s3_put_object_file(c, "bucket", "runs/my file+ü.json", src,
                                              "application/json", &err) == SMFW_OK,
                  "%s", err.message);
    ck_assert_str_eq(f.objects[0][0], "runs/my%20file%2B%C3%BC.json");
    ck_assert_str_eq(f.objects[0][1], "{\"hello\":\"s3 file\"}");
    ck_assert_int_eq(smfw_aws_s3_put_object(c, "bucket", "b.txt", "hi", 2, NULL, &err), SMFW_OK);
    ck_assert_int_eq(smfw_aws_s3_put_object(c, "bucket", "c.txt", "", 0, NULL, &err), SMFW_OK);
    char dst[512];
    snprintf(dst, sizeof(dst), "%s/out.txt", dir);
    ck_assert_msg(smfw_aws_s3_get_object_file(c, "bucket", "b.txt", dst, &err) == SMFW_OK, "%s",
                  err.message);
    FILE *fp = fopen(dst, "r");
    char buf[16] = "";
    ck_assert(fgets(buf, sizeof(buf), fp) != NULL);
    fclose(fp);
    ck_assert_str_eq(buf, "hi");
    snprintf(dst, sizeof(dst), "%s/never.txt", dir);
    ck_assert_int_eq(smfw_aws_s3_get_object_file(c, "bucket", "nope", dst, &err),
                     SMFW_ERR_NOT_FOUND);
    ck_assert_msg(strstr(err.message, "S3 GetObject failed: NoSuchKey") &&
                      strstr(err.message, "rid7"),
                  "%s", err.message);
    ck_assert_int_eq(access(dst, F_OK), -1); /* no partial file left */
    smfw_aws_s3_object obj;
    ck_assert_int_eq(smfw_aws_s3_head_object(c, "bucket", "b.txt", &obj, &err), SMFW_OK);
    ck_assert_int_eq(obj.size, 2);
    ck_assert_str_eq(obj.etag, "\"abc\"");
    ck_assert_int_eq(smfw_aws_s3_head_object(c, "bucket", "zzz", &obj, &err), SMFW_ERR_NOT_FOUND);
    int n = 0;
    ck_assert_msg(smfw_aws_s3_list_objects(c, "bucket", "runs/", count_objects, &n, &err) ==
                      SMFW_OK,
                  "%s", err.message);
    ck_assert_int_eq(n, 3); /* three pages of one object */
    ck_assert_int_eq(smfw_aws_s3_head_bucket(c, "bucket", "012345678901", &err), SMFW_OK);
    ck_assert_int_eq(smfw_aws_s3_head_bucket(c, "missing-bucket", NULL, &err), SMFW_ERR_NOT_FOUND);
    ck_assert_int_eq(smfw_aws_s3_create_bucket(c, "newbucket", &err), SMFW_OK);
    ck_assert_msg(strstr(f.last_create_body, "<LocationConstraint>us-west-2</LocationConstraint>"),
                  "%s", f.last_create_body);
    ck_assert_int_eq(f.bad, 0);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
    aws_fake_rmdir(dir);
    free(dir);
    free(src);
}
END_TEST

START_TEST(defaults_for_managed_backend) {
    fake_aws f;
    memset(&f, 0, sizeof(f));
    f.caller_arn = "arn:aws:sts::012345678901:assumed-role/MySageMakerRole/session";
    aws_fake_server *srv = aws_fake_server_start(aws_handler, &f);
    setenv("AWS_ENDPOINT_URL", aws_fake_server_url(srv), 1);
    smfw_aws_client *c = client(NULL);
    smfw_error err;
    char out[512];
    ck_assert_msg(smfw_aws_default_bucket(c, NULL, out, sizeof(out), &err) == SMFW_OK, "%s",
                  err.message);
    ck_assert_str_eq(out, "sagemaker-us-west-2-012345678901");
    setenv("SAGEMAKER_BUCKET", "mine", 1);
    ck_assert_int_eq(smfw_aws_default_bucket(c, NULL, out, sizeof(out), &err), SMFW_OK);
    ck_assert_str_eq(out, "mine");
    ck_assert_int_eq(smfw_aws_default_bucket(c, "configured", out, sizeof(out), &err), SMFW_OK);
    ck_assert_str_eq(out, "configured");
    /* Assumed role named *sagemaker*: GetRole is denied, so the plain ARN is built. */
    ck_assert_msg(smfw_aws_default_execution_role(c, NULL, out, sizeof(out), &err) == SMFW_OK, "%s",
                  err.message);
    ck_assert_str_eq(out, "arn:aws:iam::012345678901:role/MySageMakerRole");
    smfw_aws_client_free(c);

    /* A user identity: the role comes from ListRoles (second page). */
    f.caller_arn = "arn:aws:iam::012345678901:user/alice";
    c = client(NULL);
    ck_assert_msg(smfw_aws_default_execution_role(c, NULL, out, sizeof(out), &err) == SMFW_OK, "%s",
                  err.message);
    ck_assert_str_eq(out,
                     "arn:aws:iam::012345678901:role/service-role/AmazonSageMaker-ExecutionRole-1");
    setenv("SAGEMAKER_ROLE_ARN", "arn:aws:iam::1:role/x", 1);
    ck_assert_int_eq(smfw_aws_default_execution_role(c, NULL, out, sizeof(out), &err), SMFW_OK);
    ck_assert_str_eq(out, "arn:aws:iam::1:role/x");
    ck_assert_int_eq(f.bad, 0);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

/* ---- -vv logging is redacted ---- */

static char g_log[65536];
static void sink(smfw_log_level level, const char *line, void *user) {
    size_t l = strlen(g_log);
    snprintf(g_log + l, sizeof(g_log) - l, "%s\n", line);
}

START_TEST(trace_logging_redacts_secrets) {
    json_scenario s = {0, 0, 200, NULL, NULL, 0};
    aws_fake_server *srv = aws_fake_server_start(json_handler, &s);
    setenv("AWS_SESSION_TOKEN", "SESSIONTOKENVALUE123", 1);
    g_log[0] = '\0';
    smfw_log_set_sink(sink, NULL);
    smfw_log_set_level(SMFW_LOG_TRACE);
    smfw_aws_client *c = client(aws_fake_server_url(srv));
    char *out = NULL;
    smfw_error err;
    smfw_status st = smfw_aws_json_call(c, &smfw_aws_sagemaker, "DescribeEndpoint",
                                        "{\"SecretAccessKey\":\"abc\"}", &out, &err);
    smfw_log_set_level(SMFW_LOG_INFO);
    smfw_log_set_sink(NULL, NULL);
    ck_assert_int_eq(st, SMFW_OK);
    free(out);
    ck_assert_msg(strstr(g_log, "X-Amz-Target: SageMaker.DescribeEndpoint"), "%s", g_log);
    ck_assert_msg(strstr(g_log, "Authorization: ****"), "%s", g_log);
    ck_assert_msg(!strstr(g_log, "Signature="), "%s", g_log);
    ck_assert_msg(!strstr(g_log, "SESSIONTOKENVALUE123"), "%s", g_log);
    ck_assert_msg(!strstr(g_log, SECRET), "%s", g_log);
    ck_assert_msg(strstr(g_log, "\"SecretAccessKey\":\"****\""), "%s", g_log);
    ck_assert_msg(strstr(g_log, "EndpointStatus"), "%s", g_log);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_client");
    TCase *tc = tcase_create("client");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, json_throttling_is_retried_then_reported);
    tcase_add_test(tc, json_transient_5xx_then_success);
    tcase_add_test(tc, json_error_mapping);
    tcase_add_test(tc, cloudwatch_and_autoscaling_targets);
    tcase_add_test(tc, network_error_is_reported);
    tcase_add_test(tc, clock_skew_is_corrected);
    tcase_add_test(tc, region_resolution);
    tcase_add_test(tc, endpoint_resolution);
    tcase_add_test(tc, s3_operations);
    tcase_add_test(tc, defaults_for_managed_backend);
    tcase_add_test(tc, trace_logging_redacts_secrets);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
