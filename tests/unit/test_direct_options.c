/*
 * test_direct_options.c - the direct backend's settings come from the declarations: its
 * binding table binds cleanly against the real sections (a key renamed or retyped in a
 * declaration fails here, not in a user's run), the defaults a run gets are the declared
 * ones, a flag's value wins, and freeing the options leaves nothing behind (ASan).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/app.h>

#include "options.h"

static smfw_registry *reg;

static smfw_config *config_with_plugins(void) {
    const char *dirs[] = {SMFW_BUILD_PLUGIN_DIR};
    smfw_error err;
    if (!reg) ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &err), SMFW_OK);
    smfw_config *cfg = NULL;
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &err), SMFW_OK);
    return cfg;
}

static void set(smfw_config *cfg, const char *section, const char *key, const char *value) {
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_config_set(cfg, section, key, value, SMFW_SOURCE_FLAG, key, 0, &err) ==
                      SMFW_OK,
                  "%s.%s: %s", section, key, err.message);
}

START_TEST(defaults_are_the_declared_ones) {
    smfw_config *cfg = config_with_plugins();
    set(cfg, "run", "endpoint", "bench");
    direct_options o;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(direct_options_load(smfw_config_section(cfg, "backend.direct"), cfg, &o, &err) ==
                      SMFW_OK,
                  "%s", err.message);
    ck_assert_str_eq(o.endpoint, "bench");
    ck_assert_int_eq(o.request_count, 300);
    ck_assert_int_eq(o.concurrency, 10);
    ck_assert(o.grace_s == 30.0);
    ck_assert(o.request_timeout_s == 600.0);
    ck_assert(o.connect_timeout_s == 10.0);
    ck_assert(o.late_threshold_s == 0.001);
    ck_assert(o.schedule_speedup == 1.0);
    ck_assert(o.max_error_rate == 0.01);
    ck_assert(o.output_tokens_mean == 256.0 && o.output_tokens_stddev == 16.0);
    ck_assert_uint_eq(o.seed, 42);
    ck_assert_int_eq(o.streaming, 1);
    ck_assert_int_eq(o.include_usage, 1);
    ck_assert_int_eq(o.save_outputs, 1);
    ck_assert_int_eq(o.use_max_tokens, 0);
    ck_assert_str_eq(o.session_header, "X-Correlation-ID");
    ck_assert_int_eq(o.endpoint_type, DIRECT_EP_CHAT);
    ck_assert_ptr_null(o.url);
    ck_assert_uint_eq(o.n_headers, 0);
    direct_options_free(&o);
    smfw_config_free(cfg);
}
END_TEST

START_TEST(flags_win_and_secrets_are_masked) {
    smfw_config *cfg = config_with_plugins();
    set(cfg, "backend.direct", "url", "http://127.0.0.1:9");
    set(cfg, "backend.direct", "model", "m");
    set(cfg, "backend.direct", "api_key", "sk-test-bind-secret");
    set(cfg, "backend.direct", "header", "X-A: 1");
    set(cfg, "backend.direct", "header", "X-B: 2");
    set(cfg, "backend.direct", "late_threshold", "5ms");
    set(cfg, "backend.direct", "workers", "3");
    set(cfg, "run", "random_seed", "7");
    set(cfg, "run", "request_count", "12");
    direct_options o;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(direct_options_load(smfw_config_section(cfg, "backend.direct"), cfg, &o, &err) ==
                      SMFW_OK,
                  "%s", err.message);
    ck_assert_int_eq(o.transport, DIRECT_TRANSPORT_HTTP);
    ck_assert_uint_eq(o.n_headers, 2);
    ck_assert_str_eq(o.headers[1], "X-B: 2");
    ck_assert(o.late_threshold_s == 0.005);
    ck_assert_int_eq(o.workers, 3);
    ck_assert_uint_eq(o.seed, 7);
    ck_assert_int_eq(o.request_count, 12);
    char masked[128];
    smfw_secret_mask(masked, sizeof masked, "key sk-test-bind-secret here");
    ck_assert_ptr_null(strstr(masked, "sk-test-bind-secret"));
    direct_options_free(&o);
    ck_assert_ptr_null(o.headers);
    smfw_config_free(cfg);
}
END_TEST

START_TEST(the_binding_table_fits_the_declarations) {
    smfw_config *cfg = config_with_plugins();
    struct {
        direct_options o;
    } holder;
    memset(&holder, 0, sizeof holder);
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_settings_bind(smfw_config_section(cfg, "backend.direct"),
                                     direct_options_bindings(), &holder.o, &err) == SMFW_OK,
                  "%s", err.message);
    smfw_settings_unbind(direct_options_bindings(), &holder.o);
    smfw_config_free(cfg);
}
END_TEST

int main(void) {
    Suite *s = suite_create("direct_options");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, defaults_are_the_declared_ones);
    tcase_add_test(tc, flags_win_and_secrets_are_masked);
    tcase_add_test(tc, the_binding_table_fits_the_declarations);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (reg) smfw_registry_free(reg);
    return failed ? 1 : 0;
}
