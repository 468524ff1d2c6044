/* test_registry.c - the plugin loader: real modules load, broken ones are refused with the reason.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/app.h>
#include <smfw/results_layout.h>

#include "smfw_test.h"

START_TEST(loads_real_plugins_from_build_tree) {
    const char *dirs[] = {SMFW_BUILD_PLUGIN_DIR};
    smfw_registry *reg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &err), SMFW_OK);
    ck_assert_uint_gt(smfw_registry_count(reg), 0);
    ck_assert_uint_eq(smfw_registry_refused_count(reg), 0);
    for (size_t i = 0; i < smfw_registry_count(reg); i++) {
        const smfw_plugin_entry *e = smfw_registry_at(reg, i);
        ck_assert_uint_eq(e->desc->abi_major, SMFW_ABI_MAJOR);
        ck_assert_ptr_nonnull(strstr(e->path, SMFW_BUILD_PLUGIN_DIR));
        ck_assert_ptr_eq(smfw_registry_find(reg, e->desc->kind, e->desc->name), e);
    }
    smfw_registry_free(reg);
}
END_TEST

START_TEST(good_fixture_plugin_runs_through_the_core) {
    const char *dirs[] = {SMFW_GOOD_PLUGIN_DIR};
    smfw_registry *reg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &err), SMFW_OK);
    const smfw_plugin_entry *e = smfw_registry_find(reg, SMFW_PLUGIN_REPORTER, "fixture");
    ck_assert_ptr_nonnull(e);
    smfw_config *cfg = NULL;
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &err), SMFW_OK);
    ck_assert_int_eq(smfw_config_set(cfg, "reporter.fixture", "file_name", "out.txt",
                                     SMFW_SOURCE_FLAG, "--x", 0, &err),
                     SMFW_OK);
    smfw_results *r = smfw_results_new();
    smfw_stats_single(&r->stats[SMFW_M_REQUEST_COUNT], 7);
    char tmpl[] = "/tmp/smfw-reg-XXXXXX";
    char *dir = mkdtemp(tmpl);
    const char *names[] = {"fixture"};
    ck_assert_int_eq(smfw_reporters_run(reg, cfg, names, 1, r, dir, &err), SMFW_OK);
    char path[256];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    FILE *fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    char line[64] = "";
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
    fclose(fp);
    ck_assert_str_eq(line, "requests=7\n");
    remove(path);
    rmdir(dir);
    smfw_results_free(r);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
}
END_TEST

/* A sweep's reports: every loaded reporter with a write_set renders the analysed set. */
START_TEST(write_set_renders_an_analysed_sweep) {
    const char *dirs[] = {SMFW_GOOD_PLUGIN_DIR};
    smfw_registry *reg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &err), SMFW_OK);
    smfw_config *cfg = NULL;
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &err), SMFW_OK);
    char tmpl[] = "/tmp/smfw-set-XXXXXX";
    char *dir = mkdtemp(tmpl);
    smfw_run_set *set = smfw_run_set_new("concurrency", dir);
    const double load[] = {4, 1, 2}, tps[] = {300, 100, 190};
    for (int i = 0; i < 3; i++) {
        smfw_results *r = smfw_results_new();
        smfw_stats_single(&r->stats[SMFW_M_OUTPUT_TOKEN_THROUGHPUT], tps[i]);
        smfw_stats_single(&r->stats[SMFW_M_REQUEST_THROUGHPUT], load[i]);
        smfw_stats_single(&r->stats[SMFW_M_REQUEST_LATENCY], 1000);
        smfw_stats_single(&r->stats[SMFW_M_REQUEST_COUNT], 10);
        ck_assert_int_eq(smfw_run_set_add(set, r, load[i], NULL, &err), SMFW_OK);
    }
    /* Not analysed yet: refused, nothing written. */
    ck_assert_int_eq(smfw_reporters_write_set(reg, cfg, set, dir, &err), SMFW_ERR_USAGE);
    smfw_sweep_analysis an;
    ck_assert_int_eq(smfw_run_set_analyze(set, NULL, &an, &err), SMFW_OK);
    ck_assert_int_eq(smfw_reporters_write_set(reg, cfg, set, dir, &err), SMFW_OK);
    char path[256], line[128] = "";
    snprintf(path, sizeof path, "%s/sweep_fixture.txt", dir);
    FILE *fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
    fclose(fp);
    /* Still scaling at 4 (no knee): the highest level is the operating one. */
    ck_assert_str_eq(line, "levels=3 knee=-1 operating=4\n");
    remove(path);
    rmdir(dir);
    smfw_run_set_free(set);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
}
END_TEST

static const char *find_refusal(smfw_registry *reg, const char *needle) {
    for (size_t i = 0; i < smfw_registry_refused_count(reg); i++)
        if (strstr(smfw_registry_refused(reg, i), needle)) return smfw_registry_refused(reg, i);
    return NULL;
}

START_TEST(refuses_wrong_abi_missing_symbol_and_missing_slot) {
    const char *dirs[] = {SMFW_BAD_PLUGIN_DIR};
    smfw_registry *reg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &err), SMFW_OK);
    ck_assert_uint_eq(smfw_registry_count(reg), 0);
    ck_assert_uint_eq(smfw_registry_refused_count(reg), 3);
    const char *m = find_refusal(reg, "smfw_backend_wrongabi.so");
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(strstr(m, SMFW_BAD_PLUGIN_DIR "/smfw_backend_wrongabi.so refused"));
    ck_assert_ptr_nonnull(strstr(m, "ABI 99.0"));
    char ours[32];
    snprintf(ours, sizeof ours, "ABI %d.%d", SMFW_ABI_MAJOR, SMFW_ABI_MINOR);
    ck_assert_ptr_nonnull(strstr(m, ours));
    m = find_refusal(reg, "smfw_reporter_nosymbol.so");
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(strstr(m, "smfw_reporter_nosymbol_LTX_smfw_plugin_entry"));
    m = find_refusal(reg, "smfw_dataset_missingslot.so");
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(strstr(m, "slot next is NULL"));
    smfw_registry_free(reg);
}
END_TEST

/* A file that is not a shared object is named so (libltdl said "file not found"). */
START_TEST(non_elf_plugin_is_named_so) {
    char tmpl[] = "/tmp/smfw-reg-XXXXXX";
    char *dir = mkdtemp(tmpl);
    char path[256];
    snprintf(path, sizeof path, "%s/smfw_reporter_garbage.so", dir);
    FILE *fp = fopen(path, "w");
    fputs("not an ELF file", fp);
    fclose(fp);
    const char *dirs[] = {dir};
    smfw_registry *reg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &err), SMFW_OK);
    ck_assert_uint_eq(smfw_registry_refused_count(reg), 1);
    const char *m = smfw_registry_refused(reg, 0);
    ck_assert_ptr_nonnull(strstr(m, path));
    ck_assert_msg(strstr(m, "not an ELF file") && !strstr(m, "file not found"), "%s", m);
    smfw_registry_free(reg);
    remove(path);
    rmdir(dir);
}
END_TEST

START_TEST(first_folder_wins_and_env_path_is_searched_first) {
    setenv("SMFW_PLUGIN_PATH", SMFW_GOOD_PLUGIN_DIR ":/nonexistent", 1);
    const char *dirs[16];
    size_t n = smfw_registry_default_dirs(NULL, 0, NULL, 0, dirs, 16);
    ck_assert_uint_ge(n, 3);
    ck_assert_str_eq(dirs[0], SMFW_GOOD_PLUGIN_DIR);
    ck_assert_str_eq(dirs[1], "/nonexistent");
    ck_assert_str_eq(dirs[n - 1], SMFW_PLUGIN_INSTALL_DIR);
    unsetenv("SMFW_PLUGIN_PATH");
}
END_TEST

/* Command plugins: a third party's command loads and runs; a second provider of one command,
 * a command plugin older than the kind, a command without main, and a command named like a
 * built-in one are refused with sentences naming the file. */
START_TEST(command_plugins_load_and_bad_ones_are_refused) {
    const char *dirs[] = {SMFW_CMD_PLUGIN_DIR "/good", SMFW_CMD_PLUGIN_DIR "/bad"};
    smfw_registry *reg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(dirs, 2, &reg, &err), SMFW_OK);
    const smfw_plugin_entry *owner = NULL;
    const smfw_command_def *greet = smfw_registry_find_command(reg, "greet", &owner);
    ck_assert_ptr_nonnull(greet);
    ck_assert_str_eq(owner->desc->name, "fixture");
    ck_assert_str_eq(smfw_plugin_kind_name(owner->desc->kind), "command");
    ck_assert_ptr_nonnull(strstr(owner->path, "/good/smfw_command_fixture.so"));
    ck_assert_uint_eq(smfw_registry_refused_count(reg), 3);
    const char *m = find_refusal(reg, "smfw_command_dupe.so refused");
    ck_assert_ptr_nonnull(m);
    ck_assert_msg(strstr(m, "its command \"greet\" is already provided by " SMFW_CMD_PLUGIN_DIR
                            "/good/smfw_command_fixture.so"),
                  "%s", m);
    m = find_refusal(reg, "smfw_command_oldabi.so refused");
    ck_assert_ptr_nonnull(m);
    /* A 1.0 plugin: the sentence names both ABIs and what to do. */
    char both[160];
    snprintf(both, sizeof both,
             "it was built for plugin ABI 1.0 but this smfw provides ABI %d.%d (rebuild the "
             "plugin against smfw %s)",
             SMFW_ABI_MAJOR, SMFW_ABI_MINOR, SMFW_VERSION_STRING);
    ck_assert_msg(SMFW_ABI_MAJOR == 2 && strstr(m, both), "%s", m);
    m = find_refusal(reg, "smfw_command_nomain.so refused");
    ck_assert_ptr_nonnull(m);
    ck_assert_msg(strstr(m, "command \"greet\" has a NULL summary, usage or main"), "%s", m);
    /* The clashing plugin loaded; reserving the built-in names refuses it, whole. */
    ck_assert_ptr_nonnull(smfw_registry_find_command(reg, "fine", NULL));
    ck_assert_ptr_nonnull(smfw_registry_find_command(reg, "run", NULL));
    const char *builtin[] = {"run", "results", "help"};
    smfw_registry_reserve_commands(reg, builtin, 3);
    ck_assert_ptr_null(smfw_registry_find_command(reg, "run", NULL));
    ck_assert_ptr_null(smfw_registry_find_command(reg, "fine", NULL));
    ck_assert_ptr_null(smfw_registry_find(reg, SMFW_PLUGIN_COMMAND, "clash"));
    ck_assert_uint_eq(smfw_registry_refused_count(reg), 4);
    m = find_refusal(reg, "smfw_command_clash.so refused");
    ck_assert_ptr_nonnull(m);
    ck_assert_msg(strstr(m, "its command \"run\" is a built-in command of smfw"), "%s", m);
    /* What stayed is intact: the entries after the removed one still name their files. */
    greet = smfw_registry_find_command(reg, "greet", &owner);
    ck_assert_ptr_nonnull(greet);
    ck_assert_ptr_nonnull(strstr(owner->path, "smfw_command_fixture.so"));
    for (size_t i = 0; i < smfw_registry_count(reg); i++)
        ck_assert_ptr_nonnull(strstr(smfw_registry_at(reg, i)->path, ".so"));
    smfw_registry_free(reg);
}
END_TEST

/* The command runs through its context: options (last one wins, "" for a switch), config. */
START_TEST(command_runs_with_its_context) {
    const char *dirs[] = {SMFW_CMD_PLUGIN_DIR "/good"};
    smfw_registry *reg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &err), SMFW_OK);
    const smfw_command_def *greet = smfw_registry_find_command(reg, "greet", NULL);
    ck_assert_ptr_nonnull(greet);
    smfw_config *cfg = NULL;
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &err), SMFW_OK);
    ck_assert_int_eq(smfw_config_set(cfg, "command.fixture", "greeting", "hi", SMFW_SOURCE_FLAG,
                                     "--fixture-greeting", 0, &err),
                     SMFW_OK);
    smfw_command_value v[] = {{"who", "ann"}, {"shout", ""}, {"who", "bob"}, {"exit", "4"}};
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    smfw_command_context ctx = {sizeof ctx, cfg, v, 4, 0, out, NULL};
    ck_assert_ptr_null(smfw_command_get(&ctx, "nope"));
    ck_assert_str_eq(smfw_command_get(&ctx, "shout"), "");
    char *argv[] = {"greet", "a", "b", NULL};
    ck_assert_int_eq(greet->main(&ctx, 3, argv), 4);
    fclose(out);
    ck_assert_str_eq(text, "hi bob!\nendpoint=- verbosity=0 args=a,b\n");
    free(text);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
}
END_TEST

int main(void) {
    Suite *s = suite_create("registry");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, loads_real_plugins_from_build_tree);
    tcase_add_test(tc, good_fixture_plugin_runs_through_the_core);
    tcase_add_test(tc, refuses_wrong_abi_missing_symbol_and_missing_slot);
    tcase_add_test(tc, write_set_renders_an_analysed_sweep);
    tcase_add_test(tc, non_elf_plugin_is_named_so);
    tcase_add_test(tc, first_folder_wins_and_env_path_is_searched_first);
    tcase_add_test(tc, command_plugins_load_and_bad_ones_are_refused);
    tcase_add_test(tc, command_runs_with_its_context);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
