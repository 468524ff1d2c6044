/* test_config.c - settings: precedence, provenance, validation errors with file/line/key. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/app.h>
#include <smfw/log.h>

#include "settings_aliases.h"
#include "smfw_test.h"

static smfw_config *new_config(void) {
    smfw_config *cfg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_config_new(NULL, &cfg, &err), SMFW_OK);
    return cfg;
}

/* A config with every built plugin's section (the direct backend declares api_key, url...). */
static smfw_config *config_with_plugins(smfw_registry **reg) {
    const char *dirs[] = {SMFW_BUILD_PLUGIN_DIR};
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, reg, &err), SMFW_OK);
    smfw_config *cfg = NULL;
    ck_assert_int_eq(smfw_config_new(*reg, &cfg, &err), SMFW_OK);
    return cfg;
}

static char *write_conf(const char *dir, const char *text) {
    char *path = malloc(4096);
    snprintf(path, 4096, "%s/smfw.conf", dir);
    ck_assert_int_eq(smfw_test_write_file(path, text), 0);
    return path;
}

START_TEST(precedence_flag_env_file_default) {
    char *dir = smfw_test_tmpdir();
    char *path = write_conf(dir, "# comment\n[run]\nconcurrency = 4\nrequest_count = 50\n"
                                 "[smfw]\nbackend = managed\n");
    smfw_config *cfg = new_config();
    smfw_error err;
    ck_assert_int_eq(smfw_config_load_file(cfg, path, &err), SMFW_OK);
    setenv("SMFW_BACKEND", "direct", 1);
    ck_assert_int_eq(smfw_config_apply_env(cfg, &err), SMFW_OK);
    unsetenv("SMFW_BACKEND");
    ck_assert_int_eq(
        smfw_config_set(cfg, "run", "concurrency", "8", SMFW_SOURCE_FLAG, "--concurrency", 0, &err),
        SMFW_OK);
    /* A file value arriving after a flag must not win. */
    ck_assert_int_eq(
        smfw_config_set(cfg, "run", "concurrency", "2", SMFW_SOURCE_FILE, path, 9, &err), SMFW_OK);
    const smfw_settings *run = smfw_config_section(cfg, "run");
    const smfw_settings *prog = smfw_config_section(cfg, "smfw");
    ck_assert_int_eq(smfw_settings_get_int(run, "concurrency", 0), 8);
    ck_assert_int_eq(smfw_settings_get_int(run, "request_count", 0), 50);
    ck_assert_str_eq(smfw_settings_get(prog, "backend"), "direct");
    ck_assert_str_eq(smfw_settings_get(prog, "dataset"), "curated");
    const char *file = NULL;
    int line = 0;
    ck_assert_int_eq(smfw_settings_source(run, "request_count", &file, &line), SMFW_SOURCE_FILE);
    ck_assert_str_eq(file, path);
    ck_assert_int_eq(line, 4);
    ck_assert_int_eq(smfw_settings_source(prog, "backend", &file, NULL), SMFW_SOURCE_ENV);
    ck_assert_str_eq(file, "SMFW_BACKEND");
    ck_assert_int_eq(smfw_settings_source(run, "concurrency", NULL, NULL), SMFW_SOURCE_FLAG);
    ck_assert_int_eq(smfw_settings_source(run, "arrival", NULL, NULL), SMFW_SOURCE_DEFAULT);
    smfw_config_free(cfg);
    smfw_test_rmtree(dir);
    free(dir);
    free(path);
}
END_TEST

START_TEST(unknown_key_names_file_line_and_key) {
    char *dir = smfw_test_tmpdir();
    char *path = write_conf(dir, "[run]\nconcurrency = 4\n\nconcurency = 8\n");
    smfw_config *cfg = new_config();
    smfw_error err;
    ck_assert_int_eq(smfw_config_load_file(cfg, path, &err), SMFW_ERR_CONFIG);
    char want[4200];
    snprintf(want, sizeof want, "%s:4: unknown key \"concurency\" in section [run]", path);
    ck_assert_msg(strstr(err.message, want) != NULL, "%s", err.message);
    smfw_config_free(cfg);
    smfw_test_rmtree(dir);
    free(dir);
    free(path);
}
END_TEST

START_TEST(unknown_section_and_bad_values_are_errors) {
    char *dir = smfw_test_tmpdir();
    smfw_error err;
    char *path = write_conf(dir, "[backend.nosuch]\nx = 1\n");
    smfw_config *cfg = new_config();
    ck_assert_int_eq(smfw_config_load_file(cfg, path, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, ":2: unknown section [backend.nosuch]"));
    smfw_config_free(cfg);
    free(path);
    path = write_conf(dir, "[run]\nrequest_count = lots\n");
    cfg = new_config();
    ck_assert_int_eq(smfw_config_load_file(cfg, path, &err), SMFW_ERR_CONFIG);
    ck_assert_msg(strstr(err.message, ":2: [run] request_count: \"lots\" is not an integer"), "%s",
                  err.message);
    smfw_config_free(cfg);
    free(path);
    path = write_conf(dir, "[run]\nstreaming = maybe\n");
    cfg = new_config();
    ck_assert_int_eq(smfw_config_load_file(cfg, path, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "is not true or false"));
    smfw_config_free(cfg);
    free(path);
    path = write_conf(dir, "concurrency = 3\n");
    cfg = new_config();
    ck_assert_int_eq(smfw_config_load_file(cfg, path, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, ":1: key \"concurrency\" is outside any [section]"));
    smfw_config_free(cfg);
    free(path);
    path = write_conf(dir, "[run\nx\n");
    cfg = new_config();
    ck_assert_int_eq(smfw_config_load_file(cfg, path, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "syntax error"));
    smfw_config_free(cfg);
    free(path);
    setenv("SMFW_URL", "", 1); /* empty variables are ignored */
    setenv("OPENAI_API_KEY", "sk-very-secret-key", 1);
    smfw_registry *reg = NULL;
    cfg = config_with_plugins(&reg);
    ck_assert_int_eq(smfw_config_apply_env(cfg, &err), SMFW_OK);
    unsetenv("SMFW_URL");
    unsetenv("OPENAI_API_KEY");
    /* Secrets are masked in the dump and in every later error or log line. */
    char *dump = NULL;
    size_t dump_len = 0;
    FILE *mem = open_memstream(&dump, &dump_len);
    smfw_config_dump(cfg, mem, 1);
    fclose(mem);
    ck_assert_ptr_null(strstr(dump, "sk-very-secret-key"));
    ck_assert_ptr_nonnull(strstr(dump, "api_key = ****"));
    free(dump);
    smfw_error_set(&err, SMFW_ERR_AUTH, "server rejected key sk-very-secret-key");
    ck_assert_str_eq(err.message, "server rejected key ****");
    smfw_config_free(cfg);
    smfw_registry_free(reg);
    smfw_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(lists_durations_and_typed_getters) {
    smfw_config *cfg = new_config();
    smfw_error err;
    ck_assert_int_eq(smfw_config_set(cfg, "run", "extra_inputs", "ignore_eos:true",
                                     SMFW_SOURCE_FLAG, "--extra-inputs", 0, &err),
                     SMFW_OK);
    ck_assert_int_eq(smfw_config_set(cfg, "run", "extra_inputs", "min_tokens:256", SMFW_SOURCE_FLAG,
                                     "--extra-inputs", 0, &err),
                     SMFW_OK);
    const char *const *items;
    const smfw_settings *run = smfw_config_section(cfg, "run");
    ck_assert_uint_eq(smfw_settings_get_list(run, "extra_inputs", &items), 2);
    ck_assert_str_eq(items[0], "ignore_eos:true");
    ck_assert_str_eq(items[1], "min_tokens:256");
    ck_assert_int_eq(
        smfw_config_set(cfg, "run", "duration", "2m", SMFW_SOURCE_FLAG, "--duration", 0, &err),
        SMFW_OK);
    ck_assert_double_eq(smfw_settings_get_duration(run, "duration", 0), 120.0);
    ck_assert_double_eq(smfw_settings_get_duration(run, "grace_period", 0), 30.0);
    ck_assert_int_eq(
        smfw_config_set(cfg, "run", "duration", "soon", SMFW_SOURCE_FLAG, "--duration", 0, &err),
        SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "option --duration"));
    double s;
    ck_assert_int_eq(smfw_parse_duration("250ms", &s), 0);
    ck_assert_double_eq_tol(s, 0.25, 1e-12);
    ck_assert_int_eq(smfw_parse_duration("1.5h", &s), 0);
    ck_assert_double_eq(s, 5400.0);
    ck_assert_int_eq(smfw_parse_duration("-3s", &s), -1);
    ck_assert(smfw_settings_get_bool(run, "streaming", 0) == 1);
    ck_assert_double_eq(smfw_settings_get_double(run, "max_error_rate", 0), 0.01);
    smfw_config_free(cfg);
}
END_TEST

START_TEST(override_replaces_lists_and_flags) {
    smfw_config *cfg = new_config();
    smfw_error err;
    ck_assert_int_eq(smfw_config_set(cfg, "run", "concurrency", "1,2,4", SMFW_SOURCE_FLAG,
                                     "--concurrency", 0, &err),
                     SMFW_OK);
    ck_assert_int_eq(smfw_config_override(cfg, "run", "concurrency", "8", "sweep", &err), SMFW_OK);
    const char *const *items;
    const smfw_settings *run = smfw_config_section(cfg, "run");
    ck_assert_uint_eq(smfw_settings_get_list(run, "concurrency", &items), 1);
    ck_assert_str_eq(items[0], "8");
    ck_assert_int_eq(smfw_settings_get_int(run, "concurrency", 0), 8);
    const char *origin = NULL;
    ck_assert_int_eq(smfw_settings_source(run, "concurrency", &origin, NULL), SMFW_SOURCE_FLAG);
    ck_assert_str_eq(origin, "sweep");
    /* A bad value leaves the previous one in place. */
    ck_assert_int_eq(smfw_config_override(cfg, "run", "request_count", "x", "sweep", &err),
                     SMFW_ERR_CONFIG);
    ck_assert_int_eq(smfw_settings_get_int(run, "request_count", 0), 300);
    smfw_config_free(cfg);
}
END_TEST

/* conf/smfw.conf documents exactly the keys the code declares (core and every plugin). */
START_TEST(default_conf_lists_exactly_the_declared_keys) {
    const char *dirs[] = {SMFW_BUILD_PLUGIN_DIR};
    smfw_registry *reg = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &err), SMFW_OK);
    smfw_config *cfg = NULL;
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &err), SMFW_OK);
    char path[4096];
    snprintf(path, sizeof path, "%s/conf/smfw.conf", SMFW_SOURCE_DIR);
    char *text = smfw_test_read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    /* Collect "section.key" for "[section]" headers and "#key = value" / "key = value" lines. */
    char listed[512][160];
    size_t n_listed = 0;
    char section[128] = "";
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '[') {
            char *end = strchr(line, ']');
            ck_assert_ptr_nonnull(end);
            *end = '\0';
            snprintf(section, sizeof section, "%s", line + 1);
            ck_assert_msg(smfw_config_section(cfg, section) != NULL,
                          "conf/smfw.conf has section [%s] that nothing declares", section);
            continue;
        }
        const char *p = line[0] == '#' ? line + 1 : line;
        size_t k = 0;
        while ((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= '0' && p[k] <= '9') || p[k] == '_') k++;
        if (k == 0 || strncmp(p + k, " = ", 3) != 0) continue;
        ck_assert_uint_lt(n_listed, 512);
        snprintf(listed[n_listed++], 160, "%s.%.*s", section, (int)k, p);
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)k, p);
        int declared = 0;
        const smfw_setting_decl *d = NULL;
        for (size_t s = 0; s < smfw_config_section_count(cfg); s++)
            if (strcmp(smfw_config_section_name(cfg, s), section) == 0)
                d = smfw_config_section_decls(cfg, s);
        for (size_t i = 0; d && d[i].key; i++)
            if (strcmp(d[i].key, key) == 0) declared = 1;
        ck_assert_msg(declared, "conf/smfw.conf lists [%s] %s, which the code does not declare",
                      section, key);
    }
    for (size_t s = 0; s < smfw_config_section_count(cfg); s++) {
        const smfw_setting_decl *d = smfw_config_section_decls(cfg, s);
        for (size_t i = 0; d && d[i].key; i++) {
            char want[160];
            snprintf(want, sizeof want, "%s.%s", smfw_config_section_name(cfg, s), d[i].key);
            int found = 0;
            for (size_t k = 0; k < n_listed; k++)
                if (strcmp(listed[k], want) == 0) found = 1;
            ck_assert_msg(found,
                          "conf/smfw.conf does not document %s (regenerate it with `smfw config "
                          "--template > conf/smfw.conf`)",
                          want);
        }
    }
    free(text);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
}
END_TEST

/* Config keys equal the flag names, and every renamed key has one alias to its new place. */
static int declared(const smfw_config *cfg, const char *section, const char *key) {
    for (size_t s = 0; s < smfw_config_section_count(cfg); s++) {
        if (strcmp(smfw_config_section_name(cfg, s), section) != 0) continue;
        const smfw_setting_decl *d = smfw_config_section_decls(cfg, s);
        for (size_t i = 0; d && d[i].key; i++)
            if (strcmp(d[i].key, key) == 0) return 1;
    }
    return 0;
}

START_TEST(config_keys_equal_flag_names_and_aliases_point_at_live_keys) {
    smfw_registry *reg = NULL;
    smfw_config *cfg = config_with_plugins(&reg);
    for (size_t s = 0; s < smfw_config_section_count(cfg); s++) {
        const smfw_setting_decl *d = smfw_config_section_decls(cfg, s);
        for (size_t i = 0; d && d[i].key; i++) {
            if (!d[i].flag) continue;
            char want[128];
            snprintf(want, sizeof want, "%s", d[i].flag);
            for (char *c = want; *c; c++)
                if (*c == '-') *c = '_';
            ck_assert_msg(strcmp(want, d[i].key) == 0,
                          "[%s] %s is set by --%s: a config key equals its flag's name",
                          smfw_config_section_name(cfg, s), d[i].key, d[i].flag);
        }
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/guide.md", SMFW_SOURCE_DIR);
    char *guide = smfw_test_read_file(path, NULL);
    ck_assert_ptr_nonnull(guide);
    size_t n = 0;
    for (const smfw_setting_alias *a = settings_aliases(); a->old_key; a++, n++) {
        ck_assert_msg(declared(cfg, a->section, a->key), "alias target [%s] %s is not declared",
                      a->section, a->key);
        ck_assert_msg(!declared(cfg, a->old_section, a->old_key),
                      "old name [%s] %s is still declared: the alias would never apply",
                      a->old_section, a->old_key);
        char row[256];
        snprintf(row, sizeof row, "| `[%s] %s` | `[%s] %s` |", a->old_section, a->old_key,
                 a->section, a->key);
        ck_assert_msg(strstr(guide, row) != NULL,
                      "docs/guide.md (Renamed settings) lacks the row %s", row);
    }
    ck_assert_uint_gt(n, 0);
    free(guide);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
}
END_TEST

static char warned[2048];
static void keep_warning(smfw_log_level level, const char *line, void *user) {
    (void)user;
    if (level == SMFW_LOG_WARN) snprintf(warned, sizeof warned, "%s", line);
}

START_TEST(old_key_names_load_with_a_warning_and_count_as_the_new_ones) {
    smfw_registry *reg = NULL;
    smfw_config *cfg = config_with_plugins(&reg);
    char *dir = smfw_test_tmpdir();
    char *path = write_conf(dir, "[run]\nurl = http://127.0.0.1:9/\nworkers = 3\n"
                                 "[dataset]\nsampling = sequential\n"
                                 "[backend.direct]\nmock_args = --ttft-ms=7\n");
    smfw_error err;
    warned[0] = '\0';
    smfw_log_set_sink(keep_warning, NULL);
    ck_assert_int_eq(smfw_config_load_file(cfg, path, &err), SMFW_OK);
    smfw_log_set_sink(NULL, NULL);
    const smfw_settings *direct = smfw_config_section(cfg, "backend.direct");
    ck_assert_str_eq(smfw_settings_get(direct, "url"), "http://127.0.0.1:9/");
    ck_assert_int_eq(smfw_settings_get_int(direct, "workers", 0), 3);
    ck_assert_str_eq(smfw_settings_get(direct, "mock_arg"), "--ttft-ms=7");
    ck_assert_str_eq(smfw_settings_get(smfw_config_section(cfg, "dataset"), "dataset_sampling"),
                     "sequential");
    /* The last warning is the last old name: its line and its new name. */
    ck_assert_msg(strstr(warned, ":7: [backend.direct] mock_args is the old name of "
                                 "[backend.direct] mock_arg") != NULL,
                  "warning was: %s", warned);
    int line = 0;
    ck_assert_int_eq(smfw_settings_source(direct, "workers", NULL, &line), SMFW_SOURCE_FILE);
    ck_assert_int_eq(line, 3);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
    free(path);

    /* The old and the new name of one key in one file: one of them would be lost. */
    cfg = config_with_plugins(&reg);
    path = write_conf(dir, "[dataset]\ndataset_file = a.jsonl\nfile = b.jsonl\n");
    smfw_log_set_sink(keep_warning, NULL);
    ck_assert_int_eq(smfw_config_load_file(cfg, path, &err), SMFW_ERR_CONFIG);
    smfw_log_set_sink(NULL, NULL);
    ck_assert_msg(strstr(err.message, ":3: [dataset] dataset_file is set again (first on line 2)"),
                  "%s", err.message);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
    free(path);
    smfw_test_rmtree(dir);
    free(dir);
}
END_TEST

int main(void) {
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, precedence_flag_env_file_default);
    tcase_add_test(tc, unknown_key_names_file_line_and_key);
    tcase_add_test(tc, unknown_section_and_bad_values_are_errors);
    tcase_add_test(tc, lists_durations_and_typed_getters);
    tcase_add_test(tc, override_replaces_lists_and_flags);
    tcase_add_test(tc, default_conf_lists_exactly_the_declared_keys);
    tcase_add_test(tc, config_keys_equal_flag_names_and_aliases_point_at_live_keys);
    tcase_add_test(tc, old_key_names_load_with_a_warning_and_count_as_the_new_ones);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
