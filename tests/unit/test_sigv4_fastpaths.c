/*
 * test_sigv4_fastpaths.c - the signer's shortcuts give what the long way
 * gives: the HMAC on precomputed pad states against OpenSSL's HMAC() for
 * every key length (short, one block, longer: hashed first) and the signing-key
 * chain built with HMAC(), the hand-made X-Amz-Date against gmtime_r + strftime, the cached
 * keyed HMAC contexts against a fresh signer for every (secret, date) as the
 * cache evicts, and the heap paths (many headers, long names) against a
 * canonical request written out here.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <smfw/sigv4.h>

#include "aws/sigv4_internal.h"
#include "smfw_test.h"

static void strftime_date(int64_t t, char out[17]) {
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
}

START_TEST(format_time_matches_strftime) {
    /* Edges: the epoch, leap days, century rules, the ends of the hand-made range. */
    static const int64_t edges[] = {0,           -1,         86399,        86400,
                                    951782400,   951868799,  4107542400,   4107628799,
                                    1440938160,  1709208000, -30610224000, 253402300799,
                                    -2208988800, 946684799,  946684800,    2147483647};
    char want[17], got[17];
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        strftime_date(edges[i], want);
        smfw_sigv4_format_time(edges[i], got);
        ck_assert_msg(strcmp(want, got) == 0, "%lld: %s != %s", (long long)edges[i], got, want);
    }
    /* Every day of 1000..9999 at a random second (xorshift, fixed seed). */
    uint64_t x = 88172645463325252ull;
    for (int64_t day = -30610224000 / 86400; day <= 253402300799 / 86400; day++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int64_t t = day * 86400 + (int64_t)(x % 86400);
        strftime_date(t, want);
        smfw_sigv4_format_time(t, got);
        ck_assert_msg(strcmp(want, got) == 0, "%lld: %s != %s", (long long)t, got, want);
    }
}
END_TEST

static void hex32(const unsigned char *md, char out[65]) {
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
}

START_TEST(hmac_matches_openssl) {
    unsigned char data[300];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i * 37 + 11);
    for (size_t len = 0; len <= sizeof data; len += 7) {
        unsigned char key[32], md[32];
        for (int i = 0; i < 32; i++) key[i] = (unsigned char)(len + (size_t)i * 3);
        unsigned int mdlen = 0;
        HMAC(EVP_sha256(), key, 32, data, len, md, &mdlen);
        char want[65], got[65];
        hex32(md, want);
        aws_sigv4_hmac_hex(key, (const char *)data, len, got);
        ck_assert_str_eq(got, want);
    }
    /* Secrets of every length from empty to well past one block ("AWS4" + secret > 64 bytes). */
    char secret[201];
    for (size_t n = 0; n <= 200; n++) {
        for (size_t i = 0; i < n; i++) secret[i] = (char)('A' + (i * 7 + n) % 26);
        secret[n] = '\0';
        char k0[205];
        snprintf(k0, sizeof k0, "AWS4%s", secret);
        unsigned char a[32], b[32], want[32], got[32];
        unsigned int l = 0;
        HMAC(EVP_sha256(), k0, (int)(n + 4), (const unsigned char *)"20150830", 8, a, &l);
        HMAC(EVP_sha256(), a, 32, (const unsigned char *)"us-east-1", 9, b, &l);
        HMAC(EVP_sha256(), b, 32, (const unsigned char *)"iam", 3, a, &l);
        HMAC(EVP_sha256(), a, 32, (const unsigned char *)"aws4_request", 12, want, &l);
        aws_sigv4_signing_key(secret, "20150830", "us-east-1", "iam", got);
        ck_assert_msg(memcmp(want, got, 32) == 0, "signing key differs for a %zu-byte secret", n);
    }
}
END_TEST

static void sign(smfw_sigv4_signer *s, const char *secret, int64_t t, char out[65]) {
    smfw_aws_credentials c = {"AKIDEXAMPLE", secret, NULL, 0, NULL, "test"};
    smfw_sigv4_header h[] = {{"Host", "example.amazonaws.com"}};
    smfw_sigv4_request req = {"POST", "/", NULL, h, 1, "{}", 2, NULL};
    smfw_sigv4_signature sig;
    smfw_error err;
    ck_assert_int_eq(smfw_sigv4_sign(s, &c, &req, 0, t, &sig, &err), SMFW_OK);
    memcpy(out, sig.signature, 65);
    smfw_sigv4_signature_free(&sig);
}

START_TEST(cached_keys_match_fresh_signers) {
    smfw_sigv4_signer *cached = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_sigv4_signer_new("us-east-1", "sagemaker", 0, &cached, &err), SMFW_OK);
    /* Six secrets and three days: more pairs than cache slots, so slots are evicted and refilled.
     */
    static const char *secrets[] = {"s0",
                                    "secret-1",
                                    "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                    "s3",
                                    "a-secret-longer-than-one-sha256-block-of-sixty-four-bytes-"
                                    "with-AWS4-prefixed",
                                    "s5"};
    for (int round = 0; round < 3; round++) {
        for (int d = 0; d < 3; d++) {
            for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
                int64_t t = 1764633600 + d * 86400 + round * 7;
                char a[65], b[65];
                sign(cached, secrets[i], t, a);
                smfw_sigv4_signer *fresh = NULL;
                ck_assert_int_eq(smfw_sigv4_signer_new("us-east-1", "sagemaker", 0, &fresh, &err),
                                 SMFW_OK);
                sign(fresh, secrets[i], t, b);
                smfw_sigv4_signer_free(fresh);
                ck_assert_str_eq(a, b);
                /* Different secrets or days give different signatures (no stale slot reused). */
                if (i > 0) {
                    char c[65];
                    sign(cached, secrets[i - 1], t, c);
                    ck_assert_str_ne(a, c);
                }
            }
        }
    }
    smfw_sigv4_signer_free(cached);
}
END_TEST

START_TEST(many_headers_and_long_names) {
    /* 20 headers (beyond the on-stack sort) given in reverse order, one name over 64 bytes
     * and over 600 bytes of names in all (beyond the on-stack name block). */
    enum { NH = 20 };
    char names[NH][48], long_name[100];
    smfw_sigv4_header h[NH + 2];
    size_t n = 0;
    for (int i = NH - 1; i >= 0; i--) {
        snprintf(names[i], sizeof names[i], "  X-Test-Header-With-A-Long-Name-%02d ", i);
        h[n++] = (smfw_sigv4_header){names[i], i % 2 ? " a   b " : "v"};
    }
    memset(long_name, 'Z', 80);
    long_name[80] = '\0';
    h[n++] = (smfw_sigv4_header){long_name, "long"};
    h[n++] = (smfw_sigv4_header){"Host", "example.amazonaws.com"};
    smfw_sigv4_signer *s = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_sigv4_signer_new("us-east-1", "service", 0, &s, &err), SMFW_OK);
    smfw_aws_credentials c = {"AKIDEXAMPLE", "secret", NULL, 0, NULL, "test"};
    smfw_sigv4_request req = {"post", "/a/b", "y=2&x=1", h, n, NULL, 0, NULL};
    smfw_sigv4_signature sig;
    ck_assert_int_eq(smfw_sigv4_sign(s, &c, &req, 0, 1440938160, &sig, &err), SMFW_OK);

    char want[8192], signed_h[4096];
    size_t w =
        (size_t)snprintf(want, sizeof want, "POST\n/a/b\nx=1&y=2\nhost:example.amazonaws.com\n");
    size_t sh = (size_t)snprintf(signed_h, sizeof signed_h, "host;x-amz-date");
    w += (size_t)snprintf(want + w, sizeof want - w, "x-amz-date:20150830T123600Z\n");
    for (int i = 0; i < NH; i++) {
        w += (size_t)snprintf(want + w, sizeof want - w, "x-test-header-with-a-long-name-%02d:%s\n",
                              i, i % 2 ? "a b" : "v");
        sh += (size_t)snprintf(signed_h + sh, sizeof signed_h - sh,
                               ";x-test-header-with-a-long-name-%02d", i);
    }
    char lower[81];
    memset(lower, 'z', 80);
    lower[80] = '\0';
    w += (size_t)snprintf(want + w, sizeof want - w, "%s:long\n", lower);
    snprintf(signed_h + sh, sizeof signed_h - sh, ";%s", lower);
    snprintf(want + w, sizeof want - w,
             "\n%s\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", signed_h);
    ck_assert_str_eq(sig.canonical_request, want);
    ck_assert_ptr_nonnull(strstr(sig.authorization, signed_h));
    smfw_sigv4_signature_free(&sig);
    smfw_sigv4_signer_free(s);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sigv4_fastpaths");
    TCase *tc = tcase_create("fastpaths");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, hmac_matches_openssl);
    tcase_add_test(tc, format_time_matches_strftime);
    tcase_add_test(tc, cached_keys_match_fresh_signers);
    tcase_add_test(tc, many_headers_and_long_names);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
