/*
 * test_net_config.c - the one TLS/proxy configuration (include/smfw/net.h):
 * the CA bundle's order and recorded source, refusal of a bundle that cannot
 * be read (naming path and source), proxy credentials masked in the
 * description and registered as secrets. Proxy selection itself is compared
 * with botocore's in tests/integration/test_aws_tls_proxy.sh.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/net.h>

#include "smfw_test.h"

static const char *proxy_vars[] = {"https_proxy", "HTTPS_PROXY", "http_proxy",    "HTTP_PROXY",
                                   "no_proxy",    "NO_PROXY",    "REQUEST_METHOD"};

static void clean_env(void) {
    unsetenv("AWS_CA_BUNDLE");
    for (size_t i = 0; i < sizeof proxy_vars / sizeof *proxy_vars; i++) unsetenv(proxy_vars[i]);
}

static char g_ca[64], g_ca2[64];

static void make_files(void) {
    snprintf(g_ca, sizeof g_ca, "/tmp/smfw-net-ca-%d.pem", (int)getpid());
    snprintf(g_ca2, sizeof g_ca2, "/tmp/smfw-net-ca2-%d.pem", (int)getpid());
    FILE *f = fopen(g_ca, "w");
    ck_assert_ptr_nonnull(f);
    fputs("not parsed here\n", f);
    fclose(f);
    f = fopen(g_ca2, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
}

START_TEST(ca_bundle_order_and_source) {
    clean_env();
    make_files();
    smfw_net_config *n = NULL;
    smfw_error err;
    const char *from = NULL;
    /* The option wins over AWS_CA_BUNDLE, which wins over the profile. */
    setenv("AWS_CA_BUNDLE", g_ca2, 1);
    ck_assert_int_eq(
        smfw_net_config_new(g_ca, "option --ca-bundle", "/nonexistent", "profile", &n, &err),
        SMFW_OK);
    ck_assert_str_eq(smfw_net_ca_bundle(n, &from), g_ca);
    ck_assert_str_eq(from, "option --ca-bundle");
    smfw_net_config_free(n);
    ck_assert_int_eq(smfw_net_config_new(NULL, NULL, "/nonexistent", "profile", &n, &err), SMFW_OK);
    ck_assert_str_eq(smfw_net_ca_bundle(n, &from), g_ca2);
    ck_assert_str_eq(from, "AWS_CA_BUNDLE");
    smfw_net_config_free(n);
    unsetenv("AWS_CA_BUNDLE");
    ck_assert_int_eq(
        smfw_net_config_new(NULL, NULL, g_ca, "ca_bundle in the profile 'p' of F", &n, &err),
        SMFW_OK);
    ck_assert_str_eq(smfw_net_ca_bundle(n, &from), g_ca);
    ck_assert_str_eq(from, "ca_bundle in the profile 'p' of F");
    ck_assert(!smfw_net_is_default(n));
    smfw_net_config_free(n);
    /* Nothing set: the system's CAs, no proxy. */
    ck_assert_int_eq(smfw_net_config_new(NULL, NULL, NULL, NULL, &n, &err), SMFW_OK);
    ck_assert_ptr_null(smfw_net_ca_bundle(n, &from));
    ck_assert(smfw_net_is_default(n));
    ck_assert_ptr_null(smfw_net_proxy_for(n, "https://a.example/", NULL));
    smfw_net_config_free(n);
    unlink(g_ca);
    unlink(g_ca2);
}
END_TEST

START_TEST(unreadable_bundle_refused) {
    clean_env();
    smfw_net_config *n = (smfw_net_config *)1;
    smfw_error err;
    setenv("AWS_CA_BUNDLE", "/nonexistent/ca.pem", 1);
    ck_assert_int_eq(smfw_net_config_new(NULL, NULL, NULL, NULL, &n, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_null(n);
    ck_assert_ptr_nonnull(strstr(err.message,
                                 "the CA bundle '/nonexistent/ca.pem' from AWS_CA_BUNDLE cannot be "
                                 "read: No such file or directory"));
    unsetenv("AWS_CA_BUNDLE");
    ck_assert_int_eq(smfw_net_config_new("/tmp", "option --ca-bundle", NULL, NULL, &n, &err),
                     SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "'/tmp' from option --ca-bundle"));
    ck_assert_ptr_nonnull(strstr(err.message, "Is a directory"));
}
END_TEST

START_TEST(proxy_credentials_masked) {
    clean_env();
    setenv("HTTPS_PROXY", "http://alice:n3tPassw0rd@proxy.corp:3128", 1);
    setenv("http_proxy", "plain.proxy:8080", 1); /* no scheme: http:// */
    setenv("NO_PROXY", ".internal", 1);
    smfw_net_config *n = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_net_config_new(NULL, NULL, NULL, NULL, &n, &err), SMFW_OK);
    const char *from = NULL;
    ck_assert_str_eq(smfw_net_proxy_for(n, "https://s3.amazonaws.com/b", &from),
                     "http://alice:n3tPassw0rd@proxy.corp:3128");
    ck_assert_str_eq(from, "HTTPS_PROXY");
    ck_assert_str_eq(smfw_net_proxy_for(n, "http://x.example/", &from), "http://plain.proxy:8080");
    ck_assert_str_eq(from, "http_proxy");
    ck_assert_ptr_null(smfw_net_proxy_for(n, "https://svc.internal:8443/", NULL));
    char line[1024];
    smfw_net_describe(n, line, sizeof line);
    ck_assert_ptr_null(strstr(line, "n3tPassw0rd"));
    ck_assert_ptr_nonnull(strstr(line, "https proxy http://****@proxy.corp:3128 (HTTPS_PROXY)"));
    ck_assert_ptr_nonnull(strstr(line, "no_proxy .internal (NO_PROXY)"));
    /* A message quoting the raw URL is masked as well. */
    char shown[256];
    smfw_secret_mask(shown, sizeof shown, "connect to alice:n3tPassw0rd@proxy.corp failed");
    ck_assert_ptr_null(strstr(shown, "n3tPassw0rd"));
    smfw_net_config_free(n);
    clean_env();
}
END_TEST

int main(void) {
    Suite *s = suite_create("net_config");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, ca_bundle_order_and_source);
    tcase_add_test(tc, unreadable_bundle_refused);
    tcase_add_test(tc, proxy_credentials_masked);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
