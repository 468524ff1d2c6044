/*
 * test_reporter_run.c - the four reporter modules as the core loads them:
 * found in the build tree by the registry, declared settings in the config,
 * run by smfw_reporters_run(). One reporter failing (a folder sits where its
 * file goes) is an error naming that file, and the others still write.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/app.h>

#include "smfw_test.h"

static const char *const reporters[] = {"json", "csv", "markdown", "html"};
static const char *const files[] = {"profile_export_aiperf.json", "profile_export_aiperf.csv",
                                    "summary.md", "report.html"};

static smfw_registry *load_registry(void) {
    const char *dirs[] = {SMFW_BUILD_PLUGIN_DIR};
    smfw_registry *reg = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_registry_load(dirs, 1, &reg, &err) == SMFW_OK, "%s", err.message);
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(smfw_registry_find(reg, SMFW_PLUGIN_REPORTER, reporters[i]) != NULL,
                      "reporter %s not found in %s", reporters[i], SMFW_BUILD_PLUGIN_DIR);
    return reg;
}

START_TEST(loaded_with_settings) {
    smfw_registry *reg = load_registry();
    smfw_config *cfg = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &err), SMFW_OK);
    const smfw_settings *csv = smfw_config_section(cfg, "reporter.csv");
    ck_assert_ptr_nonnull(csv);
    ck_assert_int_eq(smfw_settings_get_bool(csv, "sum_column", 0), 1);
    ck_assert_int_eq(
        smfw_settings_get_int(smfw_config_section(cfg, "reporter.html"), "max_points", 0), 2000);
    ck_assert_int_eq(smfw_config_set(cfg, "reporter.json", "count_sum", "false", SMFW_SOURCE_FLAG,
                                     "test", 0, &err),
                     SMFW_OK);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
}
END_TEST

START_TEST(one_failure_does_not_stop_the_others) {
    smfw_registry *reg = load_registry();
    smfw_config *cfg = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &err), SMFW_OK);
    smfw_results *r = smfw_results_new();
    ck_assert_int_eq(
        smfw_results_load_dir(r, smfw_test_data("aiperf/legacy-2025-10-example-run1"), &err),
        SMFW_OK);
    char *dir = smfw_test_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, files[1]);
    ck_assert_int_eq(mkdir(path, 0700), 0); /* the csv cannot be written */

    smfw_status st = smfw_reporters_run(reg, cfg, reporters, 4, r, dir, &err);
    ck_assert_int_eq(st, SMFW_ERR_IO);
    ck_assert_msg(strstr(err.message, path) != NULL, "error does not name %s: %s", path,
                  err.message);
    for (size_t i = 0; i < 4; i++) {
        if (i == 1) continue;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        struct stat sb;
        ck_assert_msg(stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 100,
                      "%s was not written", files[i]);
    }
    smfw_test_rmtree(dir);
    free(dir);
    smfw_results_free(r);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
}
END_TEST

static Suite *reporter_run_suite(void) {
    Suite *s = suite_create("reporter_run");
    TCase *tc = tcase_create("run");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, loaded_with_settings);
    tcase_add_test(tc, one_failure_does_not_stop_the_others);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(reporter_run_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
