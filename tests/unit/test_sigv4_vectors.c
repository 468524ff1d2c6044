/*
 * test_sigv4_vectors.c - smfw's SigV4 signer and verifier against every case
 * in tests/data/sigv4: the classic AWS suite, the CRT suite (header
 * signing) and the smfw-generated set (botocore-made). Each case compares the
 * canonical request, the string to sign and the signature byte for byte.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include <smfw/sigv4.h>

#include "aws/sigv4_internal.h"
#include "aws_fake_vectors.h"
#include "smfw_test.h"

#define AKID   "AKIDEXAMPLE"
#define SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define T0     1440938160 /* 20150830T123600Z */

static void expect_file(const char *dir, const char *name, const char *got) {
    char path[2400];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    char *want = vreq_read_file(path, NULL);
    ck_assert_msg(want != NULL, "missing %s", path);
    ck_assert_msg(strcmp(want, got) == 0, "%s mismatch:\n--- want\n%s\n--- got\n%s", path, want,
                  got);
    free(want);
}

static void sign_case(const vreq *r, const char *region, const char *service, unsigned flags,
                      const char *token, smfw_sigv4_signature *sig) {
    smfw_sigv4_signer *s = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_sigv4_signer_new(region, service, flags, &s, &err), SMFW_OK);
    smfw_aws_credentials c = {AKID, SECRET, token, 0, NULL, "test"};
    smfw_sigv4_request req = {r->method, r->path, r->query,    r->h,
                              r->nh,     r->body, r->body_len, NULL};
    ck_assert_int_eq(smfw_sigv4_sign(s, &c, &req, 0, T0, sig, &err), SMFW_OK);
    smfw_sigv4_signer_free(s);
}

static const char *lookup(void *user, const char *akid) {
    (void)user;
    return strcmp(akid, AKID) == 0 ? SECRET : NULL;
}

/* Verify what the signer produced, from the wire view of the request. */
static void verify_signed(const vreq *r, const smfw_sigv4_signature *sig, const char *region,
                          const char *service, unsigned flags) {
    smfw_sigv4_header h[40];
    size_t n = 0;
    for (size_t i = 0; i < r->nh; i++) {
        /* The wire copy drops what the signer replaced. */
        if (strcasecmp(r->h[i].name, "x-amz-date") == 0) continue;
        if (sig->added_count > 2 && strcasecmp(r->h[i].name, "x-amz-security-token") == 0 &&
            strcasecmp(sig->added[1].name, "x-amz-security-token") == 0)
            continue;
        h[n++] = r->h[i];
    }
    for (size_t i = 0; i < sig->added_count; i++) h[n++] = sig->added[i];
    smfw_sigv4_request req = {r->method, r->path, r->query, h, n, r->body, r->body_len, NULL};
    smfw_sigv4_verify_params p = {region, service, flags, T0 + 60, 0, lookup, NULL};
    smfw_sigv4_verify_result res;
    smfw_sigv4_verdict v = smfw_sigv4_verify(&req, &p, &res);
    ck_assert_msg(v == SMFW_SIGV4_VALID, "verify: %s (%s)", smfw_sigv4_verdict_name(v), res.detail);
    ck_assert_str_eq(res.canonical_request, sig->canonical_request);
    smfw_sigv4_verify_result_free(&res);
}

static int list_dirs(const char *root, char names[][256], int max) {
    DIR *d = opendir(root);
    ck_assert_msg(d != NULL, "cannot open %s", root);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.') continue;
        char p[1024];
        struct stat st;
        snprintf(p, sizeof(p), "%s/%s", root, e->d_name);
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) snprintf(names[n++], 256, "%s", e->d_name);
    }
    closedir(d);
    return n;
}

/* Classic suite: NAME/NAME.{req,creq,sts,authz}; normalize-path/ and post-sts-token/ nest. */
static int run_classic_case(const char *dir, const char *name) {
    char path[2400];
    snprintf(path, sizeof(path), "%s/%s.req", dir, name);
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    vreq r;
    ck_assert_msg(vreq_parse(&r, path) == 0, "cannot parse %s", path);
    const char *token = NULL;
    if (strcmp(name, "get-vanilla-with-session-token") == 0)
        token = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267";
    else if (strcmp(name, "post-sts-header-before") == 0)
        token = aws_sigv4_find_header(r.h, r.nh, "X-Amz-Security-Token");
    smfw_sigv4_signature sig;
    sign_case(&r, "us-east-1", "service", 0, token, &sig);
    snprintf(path, sizeof(path), "%s.creq", name);
    expect_file(dir, path, sig.canonical_request);
    snprintf(path, sizeof(path), "%s.sts", name);
    expect_file(dir, path, sig.string_to_sign);
    snprintf(path, sizeof(path), "%s.authz", name);
    expect_file(dir, path, sig.authorization);
    verify_signed(&r, &sig, "us-east-1", "service", 0);
    smfw_sigv4_signature_free(&sig);
    vreq_free(&r);
    return 1;
}

static int walk_classic(const char *root) {
    char names[64][256];
    int n = list_dirs(root, names, 64), count = 0;
    for (int i = 0; i < n; i++) {
        char sub[1024];
        snprintf(sub, sizeof(sub), "%s/%s", root, names[i]);
        int c = run_classic_case(sub, names[i]);
        count += c ? c : walk_classic(sub);
    }
    return count;
}

START_TEST(classic_suite) {
    int n = walk_classic(SMFW_TESTDATA_DIR "/sigv4/aws4_testsuite");
    ck_assert_int_ge(n, 34);
}
END_TEST

START_TEST(crt_suite) {
    const char *root = SMFW_TESTDATA_DIR "/sigv4/aws-signing-test-suite/v4";
    char names[64][256];
    int n = list_dirs(root, names, 64);
    ck_assert_int_ge(n, 38);
    for (int i = 0; i < n; i++) {
        char dir[1024], path[2400];
        snprintf(dir, sizeof(dir), "%s/%s", root, names[i]);
        snprintf(path, sizeof(path), "%s/context.json", dir);
        json_error_t je;
        json_t *ctx = json_load_file(path, 0, &je);
        ck_assert_msg(ctx != NULL, "%s: %s", path, je.text);
        json_t *cred = json_object_get(ctx, "credentials");
        const char *token = json_string_value(json_object_get(cred, "token"));
        unsigned flags = 0;
        if (!json_is_true(json_object_get(ctx, "normalize"))) flags |= SMFW_SIGV4_NO_NORMALIZE_PATH;
        if (json_is_true(json_object_get(ctx, "sign_body"))) flags |= SMFW_SIGV4_CONTENT_SHA256;
        int legacy_token = json_is_true(json_object_get(ctx, "omit_session_token"));
        if (legacy_token) flags |= SMFW_SIGV4_UNSIGNED_TOKEN;
        ck_assert_str_eq(json_string_value(json_object_get(ctx, "timestamp")),
                         "2015-08-30T12:36:00Z");
        const char *region = json_string_value(json_object_get(ctx, "region"));
        const char *service = json_string_value(json_object_get(ctx, "service"));
        snprintf(path, sizeof(path), "%s/request.txt", dir);
        vreq r;
        ck_assert_msg(vreq_parse(&r, path) == 0, "cannot parse %s", path);
        smfw_sigv4_signature sig;
        sign_case(&r, region, service, flags, token, &sig);
        expect_file(dir, "header-canonical-request.txt", sig.canonical_request);
        expect_file(dir, "header-string-to-sign.txt", sig.string_to_sign);
        expect_file(dir, "header-signature.txt", sig.signature);
        if (!legacy_token) verify_signed(&r, &sig, region, service, flags);
        smfw_sigv4_signature_free(&sig);
        vreq_free(&r);
        json_decref(ctx);
    }
}
END_TEST

/* Value of header `name` in a signed-request.txt. */
static char *signed_header(const char *dir, const char *name) {
    char path[2400];
    snprintf(path, sizeof(path), "%s/signed-request.txt", dir);
    vreq r;
    ck_assert_msg(vreq_parse(&r, path) == 0, "cannot parse %s", path);
    const char *v = aws_sigv4_find_header(r.h, r.nh, name);
    char *out = v ? strdup(v) : NULL;
    vreq_free(&r);
    return out;
}

START_TEST(smfw_generated) {
    const char *root = SMFW_TESTDATA_DIR "/sigv4/smfw-generated";
    char names[64][256];
    int n = list_dirs(root, names, 64);
    ck_assert_int_ge(n, 11);
    for (int i = 0; i < n; i++) {
        char dir[1024], path[2400];
        snprintf(dir, sizeof(dir), "%s/%s", root, names[i]);
        snprintf(path, sizeof(path), "%s/context.json", dir);
        json_error_t je;
        json_t *ctx = json_load_file(path, 0, &je);
        ck_assert_msg(ctx != NULL, "%s: %s", path, je.text);
        const char *token =
            json_string_value(json_object_get(json_object_get(ctx, "credentials"), "token"));
        unsigned flags = 0;
        if (json_is_true(json_object_get(ctx, "s3_rules"))) flags |= SMFW_SIGV4_S3;
        if (json_is_true(json_object_get(ctx, "unsigned_payload")))
            flags |= SMFW_SIGV4_UNSIGNED_PAYLOAD;
        const char *region = json_string_value(json_object_get(ctx, "region"));
        const char *service = json_string_value(json_object_get(ctx, "service"));
        snprintf(path, sizeof(path), "%s/request.txt", dir);
        vreq r;
        ck_assert_msg(vreq_parse(&r, path) == 0, "cannot parse %s", path);
        smfw_sigv4_signature sig;
        sign_case(&r, region, service, flags, token, &sig);
        expect_file(dir, "canonical-request.txt", sig.canonical_request);
        expect_file(dir, "string-to-sign.txt", sig.string_to_sign);
        expect_file(dir, "signature.txt", sig.signature);
        /* Every header the signer added appears with the same value in signed-request.txt. */
        for (size_t k = 0; k < sig.added_count; k++) {
            char *want = signed_header(dir, sig.added[k].name);
            ck_assert_msg(want != NULL, "%s: %s missing", dir, sig.added[k].name);
            ck_assert_str_eq(want, sig.added[k].value);
            free(want);
        }
        verify_signed(&r, &sig, region, service, flags & ~SMFW_SIGV4_UNSIGNED_PAYLOAD);

        /* The verifier accepts the reference signed request as given (botocore's bytes). */
        snprintf(path, sizeof(path), "%s/signed-request.txt", dir);
        vreq sr;
        ck_assert_msg(vreq_parse(&sr, path) == 0, "cannot parse %s", path);
        smfw_sigv4_request req = {sr.method, sr.path, sr.query,    sr.h,
                                  sr.nh,     sr.body, sr.body_len, NULL};
        smfw_sigv4_verify_params p = {region, service, flags & SMFW_SIGV4_S3, T0, 0, lookup, NULL};
        smfw_sigv4_verify_result res;
        smfw_sigv4_verdict v = smfw_sigv4_verify(&req, &p, &res);
        ck_assert_msg(v == SMFW_SIGV4_VALID, "%s: %s (%s)", dir, smfw_sigv4_verdict_name(v),
                      res.detail);
        smfw_sigv4_verify_result_free(&res);
        vreq_free(&sr);

        smfw_sigv4_signature_free(&sig);
        vreq_free(&r);
        json_decref(ctx);
    }
}
END_TEST

/* The example of aws-wire.md 1.7, and the signing-key cache across days and secrets. */
START_TEST(key_cache_and_doc_example) {
    smfw_sigv4_signer *s = NULL;
    ck_assert_int_eq(smfw_sigv4_signer_new("us-east-1", "sagemaker", 0, &s, NULL), SMFW_OK);
    smfw_sigv4_header h[] = {{"Host", "api.sagemaker.us-east-1.amazonaws.com"},
                             {"Content-Type", "application/x-amz-json-1.1"},
                             {"X-Amz-Target", "SageMaker.DescribeEndpoint"},
                             {"User-Agent", "smfw/0.1"},
                             {"Expect", "100-continue"}};
    const char *body = "{\"EndpointName\":\"my-endpoint\"}";
    smfw_sigv4_request req = {"POST", "/", NULL, h, 5, body, strlen(body), NULL};
    smfw_aws_credentials c = {AKID, SECRET, NULL, 0, NULL, "test"};
    smfw_aws_credentials c2 = {AKID, "otherSecret", NULL, 0, NULL, "test"};
    for (int round = 0; round < 3; round++) {
        smfw_sigv4_signature sig;
        ck_assert_int_eq(smfw_sigv4_sign(s, &c, &req, 0, T0, &sig, NULL), SMFW_OK);
        ck_assert_str_eq(sig.signature,
                         "ff52b7dd8aa405977e106f9b4c8eb10e06867404b8182d3d6fd9ec69e049fbc2");
        ck_assert_str_eq(sig.lines[0], "X-Amz-Date: 20150830T123600Z");
        ck_assert_int_eq((int)sig.added_count, 2);
        ck_assert(strncmp(sig.lines[1], "Authorization: AWS4-HMAC-SHA256 Credential=", 43) == 0);
        smfw_sigv4_signature_free(&sig);
        /* Another day and another secret must not reuse the cached key. */
        ck_assert_int_eq(smfw_sigv4_sign(s, &c, &req, 0, T0 + 86400, &sig, NULL), SMFW_OK);
        ck_assert_str_ne(sig.signature,
                         "ff52b7dd8aa405977e106f9b4c8eb10e06867404b8182d3d6fd9ec69e049fbc2");
        smfw_sigv4_signature_free(&sig);
        ck_assert_int_eq(smfw_sigv4_sign(s, &c2, &req, 0, T0, &sig, NULL), SMFW_OK);
        ck_assert_str_ne(sig.signature,
                         "ff52b7dd8aa405977e106f9b4c8eb10e06867404b8182d3d6fd9ec69e049fbc2");
        smfw_sigv4_signature_free(&sig);
    }
    smfw_sigv4_signer_free(s);
}
END_TEST

START_TEST(time_format) {
    char buf[17];
    smfw_sigv4_format_time(T0, buf);
    ck_assert_str_eq(buf, "20150830T123600Z");
    int64_t t = 0;
    ck_assert_int_eq(smfw_sigv4_parse_time("20150830T123600Z", &t), 0);
    ck_assert_int_eq(t, T0);
    ck_assert_int_eq(smfw_sigv4_parse_time("20150830T1236Z", &t), -1);
    ck_assert_int_eq(smfw_sigv4_parse_time("2015083xT123600Z", &t), -1);
    ck_assert_int_eq(smfw_sigv4_parse_time(NULL, &t), -1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sigv4_vectors");
    TCase *tc = tcase_create("vectors");
    tcase_add_test(tc, classic_suite);
    tcase_add_test(tc, crt_suite);
    tcase_add_test(tc, smfw_generated);
    tcase_add_test(tc, key_cache_and_doc_example);
    tcase_add_test(tc, time_format);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
