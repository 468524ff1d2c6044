/*
 * test_settings_bind.c - settings bound into a struct by declaration (smfw_settings_bind):
 * every C type from its declared type, the declared default when nothing is set, a flag's
 * value over it, lists copied and freed, and the plugin bugs (an undeclared key, a type that
 * does not fit, a missing section) refused as internal errors naming section and key.
 */
#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/app.h>

#include "smfw_test.h"

typedef struct bound {
    char *endpoint, *ca_bundle;
    int64_t request_count;
    int workers_like;
    double rate, duration_s, grace_s;
    int streaming;
    char **concurrency;
    size_t n_concurrency;
} bound;

static const smfw_setting_binding map[] = {
    {NULL, "endpoint", SMFW_BIND_STRING, offsetof(bound, endpoint), 0},
    {NULL, "request_count", SMFW_BIND_INT64, offsetof(bound, request_count), 0},
    {NULL, "warmup_request_count", SMFW_BIND_INT, offsetof(bound, workers_like), 0},
    {NULL, "request_rate", SMFW_BIND_DOUBLE, offsetof(bound, rate), 0},
    {NULL, "duration", SMFW_BIND_DURATION, offsetof(bound, duration_s), 0},
    {NULL, "grace_period", SMFW_BIND_DURATION, offsetof(bound, grace_s), 0},
    {NULL, "streaming", SMFW_BIND_BOOL, offsetof(bound, streaming), 0},
    {NULL, "concurrency", SMFW_BIND_LIST, offsetof(bound, concurrency),
     offsetof(bound, n_concurrency)},
    {"aws", "ca_bundle", SMFW_BIND_STRING, offsetof(bound, ca_bundle), 0},
    SMFW_BINDINGS_END};

static smfw_config *new_config(void) {
    smfw_config *cfg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_config_new(NULL, &cfg, &err), SMFW_OK);
    return cfg;
}

START_TEST(defaults_come_from_the_declarations) {
    smfw_config *cfg = new_config();
    bound b;
    memset(&b, 0xff, sizeof b); /* every field must be written */
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(smfw_settings_bind(smfw_config_section(cfg, "run"), map, &b, &err), SMFW_OK);
    ck_assert_ptr_null(b.endpoint);         /* declared without a default */
    ck_assert_int_eq(b.request_count, 300); /* core/settings_core.c: "300" */
    ck_assert_int_eq(b.workers_like, 0);
    ck_assert(b.rate == 0.0);
    ck_assert(b.duration_s == 0.0);
    ck_assert(b.grace_s == 30.0); /* "30s" */
    ck_assert_int_eq(b.streaming, 1);
    ck_assert_uint_eq(b.n_concurrency, 1);
    ck_assert_str_eq(b.concurrency[0], "10");
    ck_assert_ptr_null(b.ca_bundle);
    smfw_settings_unbind(map, &b);
    ck_assert_ptr_null(b.concurrency);
    ck_assert_uint_eq(b.n_concurrency, 0);
    smfw_config_free(cfg);
}
END_TEST

START_TEST(set_values_win_and_are_copies) {
    smfw_config *cfg = new_config();
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(
        smfw_config_set(cfg, "run", "endpoint", "my-ep", SMFW_SOURCE_FLAG, "--endpoint", 0, &err),
        SMFW_OK);
    ck_assert_int_eq(smfw_config_set(cfg, "run", "concurrency", "1,4,16", SMFW_SOURCE_FLAG,
                                     "--concurrency", 0, &err),
                     SMFW_OK);
    ck_assert_int_eq(
        smfw_config_set(cfg, "run", "duration", "250ms", SMFW_SOURCE_FLAG, "--duration", 0, &err),
        SMFW_OK);
    ck_assert_int_eq(
        smfw_config_set(cfg, "run", "streaming", "no", SMFW_SOURCE_FLAG, "--no-streaming", 0, &err),
        SMFW_OK);
    ck_assert_int_eq(smfw_config_set(cfg, "aws", "ca_bundle", "/etc/ssl/ca.pem", SMFW_SOURCE_FLAG,
                                     "--ca-bundle", 0, &err),
                     SMFW_OK);
    bound b;
    memset(&b, 0, sizeof b);
    ck_assert_int_eq(smfw_settings_bind(smfw_config_section(cfg, "run"), map, &b, &err), SMFW_OK);
    ck_assert_str_eq(b.endpoint, "my-ep");
    ck_assert_ptr_ne(b.endpoint, smfw_settings_get(smfw_config_section(cfg, "run"), "endpoint"));
    ck_assert_uint_eq(b.n_concurrency, 3);
    ck_assert_str_eq(b.concurrency[2], "16");
    ck_assert(b.duration_s == 0.25);
    ck_assert_int_eq(b.streaming, 0);
    ck_assert_str_eq(b.ca_bundle, "/etc/ssl/ca.pem");
    smfw_settings_unbind(map, &b);
    ck_assert_ptr_null(b.endpoint);
    ck_assert_ptr_null(b.ca_bundle);
    smfw_config_free(cfg);
}
END_TEST

typedef struct one {
    double d;
    char *s;
} one;

static void refused(const smfw_setting_binding *m, const char *needle) {
    smfw_config *cfg = new_config();
    one o;
    memset(&o, 0, sizeof o);
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(smfw_settings_bind(smfw_config_section(cfg, "run"), m, &o, &err),
                     SMFW_ERR_INTERNAL);
    ck_assert_msg(strstr(err.message, needle) != NULL, "%s does not name %s", err.message, needle);
    smfw_settings_unbind(m, &o);
    smfw_config_free(cfg);
}

START_TEST(plugin_bugs_are_internal_errors) {
    const smfw_setting_binding wrong_type[] = {
        {NULL, "request_count", SMFW_BIND_DOUBLE, offsetof(one, d), 0}, SMFW_BINDINGS_END};
    refused(wrong_type, "run.request_count");
    const smfw_setting_binding undeclared[] = {
        {NULL, "no_such_key", SMFW_BIND_STRING, offsetof(one, s), 0}, SMFW_BINDINGS_END};
    refused(undeclared, "run.no_such_key is not declared");
    const smfw_setting_binding no_section[] = {
        {"backend.nothing", "x", SMFW_BIND_STRING, offsetof(one, s), 0}, SMFW_BINDINGS_END};
    refused(no_section, "[backend.nothing]");
    const smfw_setting_binding string_as_bool[] = {
        {NULL, "endpoint", SMFW_BIND_BOOL, offsetof(one, d), 0}, SMFW_BINDINGS_END};
    refused(string_as_bool, "run.endpoint");
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("settings_bind");
    TCase *tc = tcase_create("bind");
    tcase_add_test(tc, defaults_come_from_the_declarations);
    tcase_add_test(tc, set_values_win_and_are_copies);
    tcase_add_test(tc, plugin_bugs_are_internal_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(suite());
}
