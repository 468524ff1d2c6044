/*
 * test_sigv4_verify.c - the SigV4 verifier names the check that failed, so
 * smfw-mock can answer with the right AWS error code.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <smfw/sigv4.h>

#include "smfw_test.h"

#define AKID   "AKIDEXAMPLE"
#define SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define T0     1440938160

static const char *lookup(void *user, const char *akid) {
    (void)user;
    return strcmp(akid, AKID) == 0 ? SECRET : NULL;
}

typedef struct fixture {
    smfw_sigv4_header h[12];
    size_t n;
    smfw_sigv4_signature sig;
    const char *body;
    unsigned flags;
} fixture;

static void make(fixture *f, unsigned flags, const char *token) {
    memset(f, 0, sizeof(*f));
    f->flags = flags;
    f->body = "{\"hello\":\"s3\"}";
    smfw_sigv4_signer *s = NULL;
    ck_assert_int_eq(smfw_sigv4_signer_new("us-west-2",
                                           (flags & SMFW_SIGV4_S3) ? "s3" : "sagemaker", flags, &s,
                                           NULL),
                     SMFW_OK);
    f->h[f->n++] = (smfw_sigv4_header){"Host", "127.0.0.1:8080"};
    f->h[f->n++] = (smfw_sigv4_header){"Content-Type", "application/json"};
    smfw_sigv4_request req = {"PUT", "/b/key%20x", "a=1",           f->h,
                              f->n,  f->body,      strlen(f->body), NULL};
    smfw_aws_credentials c = {AKID, SECRET, token, 0, NULL, "test"};
    ck_assert_int_eq(smfw_sigv4_sign(s, &c, &req, 0, T0, &f->sig, NULL), SMFW_OK);
    for (size_t i = 0; i < f->sig.added_count; i++) f->h[f->n++] = f->sig.added[i];
    smfw_sigv4_signer_free(s);
}

static smfw_sigv4_verdict check(fixture *f, const char *path, const char *body, int64_t now,
                                const char *region, smfw_sigv4_verify_result *res) {
    smfw_sigv4_request req = {"PUT", path, "a=1", f->h, f->n, body, strlen(body), NULL};
    smfw_sigv4_verify_params p = {region, NULL, f->flags & SMFW_SIGV4_S3, now, 0, lookup, NULL};
    return smfw_sigv4_verify(&req, &p, res);
}

static smfw_sigv4_header *find(fixture *f, const char *name) {
    for (size_t i = 0; i < f->n; i++)
        if (strcasecmp(f->h[i].name, name) == 0) return &f->h[i];
    return NULL;
}

START_TEST(valid_and_each_failure) {
    fixture f;
    smfw_sigv4_verify_result r;
    make(&f, 0, "TOKENVALUE1234");
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, "us-west-2", &r), SMFW_SIGV4_VALID);
    ck_assert_str_eq(r.access_key_id, AKID);
    ck_assert_str_eq(r.scope_service, "sagemaker");
    ck_assert_str_eq(r.session_token, "TOKENVALUE1234");
    smfw_sigv4_verify_result_free(&r);

    /* Body, path and header changes break the signature. */
    ck_assert_int_eq(check(&f, "/b/key%20x", "{}", T0, NULL, &r), SMFW_SIGV4_SIGNATURE_MISMATCH);
    ck_assert(r.canonical_request && r.string_to_sign);
    ck_assert_str_ne(r.expected_signature, r.provided_signature);
    smfw_sigv4_verify_result_free(&r);
    ck_assert_int_eq(check(&f, "/b/key%20y", f.body, T0, NULL, &r), SMFW_SIGV4_SIGNATURE_MISMATCH);
    smfw_sigv4_verify_result_free(&r);
    find(&f, "Content-Type")->value = "text/plain";
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, NULL, &r), SMFW_SIGV4_SIGNATURE_MISMATCH);
    smfw_sigv4_verify_result_free(&r);
    find(&f, "Content-Type")->value = "application/json";

    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, "eu-west-1", &r), SMFW_SIGV4_WRONG_REGION);
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0 + 901, NULL, &r), SMFW_SIGV4_SKEWED);
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0 - 901, NULL, &r), SMFW_SIGV4_SKEWED);
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0 + 899, NULL, &r), SMFW_SIGV4_VALID);
    smfw_sigv4_verify_result_free(&r);

    smfw_sigv4_header *date = find(&f, "X-Amz-Date");
    date->value = "20150831T123600Z";
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0 + 86400, NULL, &r),
                     SMFW_SIGV4_WRONG_SCOPE_DATE);
    date->value = "garbage";
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, NULL, &r), SMFW_SIGV4_MISSING_DATE);
    date->value = f.sig.amz_date;

    smfw_sigv4_header *auth = find(&f, "Authorization");
    char buf[1024];
    snprintf(buf, sizeof(buf), "%s", auth->value);
    char *akid = strstr(buf, AKID);
    akid[0] = 'X';
    auth->value = buf;
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, NULL, &r), SMFW_SIGV4_UNKNOWN_KEY);
    ck_assert_str_eq(r.access_key_id, "XKIDEXAMPLE");
    auth->value = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-west-2/sagemaker";
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, NULL, &r), SMFW_SIGV4_MALFORMED_AUTH);
    auth->value = "Bearer abc";
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, NULL, &r), SMFW_SIGV4_MALFORMED_AUTH);
    auth->value = buf;
    /* SignedHeaders without x-amz-security-token while the token is sent. */
    snprintf(buf, sizeof(buf),
             "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-west-2/sagemaker/aws4_request, "
             "SignedHeaders=content-type;host;x-amz-date, Signature=%s",
             f.sig.signature);
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, NULL, &r), SMFW_SIGV4_UNSIGNED_REQUIRED);
    auth->name = "X-Not-Auth";
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, NULL, &r), SMFW_SIGV4_MISSING_AUTH);
    smfw_sigv4_signature_free(&f.sig);
}
END_TEST

START_TEST(s3_payload_rules) {
    fixture f;
    smfw_sigv4_verify_result r;
    make(&f, SMFW_SIGV4_S3, NULL);
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, NULL, &r), SMFW_SIGV4_VALID);
    smfw_sigv4_verify_result_free(&r);
    /* S3 signs the path as sent: a double-encoded reading must not validate. */
    ck_assert_int_eq(check(&f, "/b/key%2520x", f.body, T0, NULL, &r),
                     SMFW_SIGV4_SIGNATURE_MISMATCH);
    smfw_sigv4_verify_result_free(&r);
    ck_assert_int_eq(check(&f, "/b/key%20x", "tampered", T0, NULL, &r),
                     SMFW_SIGV4_PAYLOAD_MISMATCH);
    find(&f, "X-Amz-Content-SHA256")->name = "X-Other";
    ck_assert_int_eq(check(&f, "/b/key%20x", f.body, T0, NULL, &r),
                     SMFW_SIGV4_MISSING_CONTENT_SHA256);
    smfw_sigv4_signature_free(&f.sig);

    make(&f, SMFW_SIGV4_S3 | SMFW_SIGV4_UNSIGNED_PAYLOAD, NULL);
    ck_assert_str_eq(find(&f, "X-Amz-Content-SHA256")->value, "UNSIGNED-PAYLOAD");
    ck_assert_int_eq(check(&f, "/b/key%20x", "any body", T0, NULL, &r), SMFW_SIGV4_VALID);
    smfw_sigv4_verify_result_free(&r);
    smfw_sigv4_signature_free(&f.sig);
}
END_TEST

START_TEST(verdict_names) {
    for (int v = SMFW_SIGV4_VALID; v <= SMFW_SIGV4_SIGNATURE_MISMATCH; v++)
        ck_assert_str_ne(smfw_sigv4_verdict_name((smfw_sigv4_verdict)v), "unknown");
}
END_TEST

int main(void) {
    Suite *s = suite_create("sigv4_verify");
    TCase *tc = tcase_create("verify");
    tcase_add_test(tc, valid_and_each_failure);
    tcase_add_test(tc, s3_payload_rules);
    tcase_add_test(tc, verdict_names);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
