/*
 * test_dataset_plugins.c - the curated, custom and synthetic dataset plugins
 * as the core loads them (built modules, registry, configuration), and the
 * `smfw` program refusing to send anything when a custom file has bad lines.
 */
#include <smfw/app.h>
#include <smfw/dataset_formats.h>

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aws_fake_http.h"
#include "smfw_test.h"

static smfw_registry *reg;

static void setup(void) {
    const char *dirs[] = {SMFW_BUILD_PLUGIN_DIR};
    smfw_error e;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &e), SMFW_OK);
    static const char *const names[] = {"curated", "custom", "public", "synthetic"};
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(smfw_registry_find(reg, SMFW_PLUGIN_DATASET, names[i]),
                      "dataset plugin %s not found in %s", names[i], SMFW_BUILD_PLUGIN_DIR);
}

static void teardown(void) {
    smfw_registry_free(reg);
    reg = NULL;
}

static smfw_config *config(void) {
    smfw_config *cfg = NULL;
    smfw_error e;
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &e), SMFW_OK);
    return cfg;
}

static void set(smfw_config *cfg, const char *section, const char *key, const char *value) {
    smfw_error e;
    ck_assert_msg(smfw_config_set(cfg, section, key, value, SMFW_SOURCE_FLAG, "test", 0, &e) ==
                      SMFW_OK,
                  "%s", e.message);
}

START_TEST(test_curated_is_the_default_and_found_without_configuration) {
    smfw_config *cfg = config();
    set(cfg, "dataset", "dataset_sampling", "sequential");
    smfw_prompt_set *ps = NULL;
    smfw_error e;
    ck_assert_msg(smfw_dataset_load_configured(reg, cfg, NULL, 1, &ps, &e) == SMFW_OK, "%s",
                  e.message);
    ck_assert_str_eq(ps->info.name, "curated");
    ck_assert_uint_eq(ps->count, 500);
    ck_assert_str_eq(ps->info.format, "single_turn");
    ck_assert_str_eq(ps->info.token_lengths, "estimated");
    ck_assert_uint_eq(strlen(ps->info.sha256), 64);
    char sha[65];
    ck_assert_int_eq(smfw_file_sha256(ps->info.file, sha, &e), SMFW_OK);
    ck_assert_str_eq(sha, ps->info.sha256);
    for (size_t i = 0; i < ps->count; i++) {
        ck_assert_int_ge(ps->prompts[i].output_length, 32);
        ck_assert_int_le(ps->prompts[i].output_length, 2048);
    }
    smfw_prompt_set_free(ps);

    /* A dataset file given to the curated plugin is a mistake worth stopping for. */
    set(cfg, "dataset", "dataset_file", "/tmp/whatever.jsonl");
    ck_assert_int_eq(smfw_dataset_load_configured(reg, cfg, "curated", 1, &ps, &e),
                     SMFW_ERR_CONFIG);
    ck_assert_msg(strstr(e.message, "--dataset custom"), "%s", e.message);
    smfw_config_free(cfg);
}
END_TEST

START_TEST(test_custom_plugin) {
    char *dir = aws_fake_tempdir();
    char *good = aws_fake_write_file(dir, "good.jsonl",
                                     "{\"text\": \"one\", \"output_length\": 40}\n"
                                     "{\"text\": \"two\"}\n"
                                     "{\"texts\": [\"three\", \"four\"], \"delay\": 5}\n");
    char *bad = aws_fake_write_file(dir, "bad.jsonl",
                                    "{\"text\": \"one\"}\n"
                                    "{\"text\": \"two\", \"output_length\": 0}\n"
                                    "not json\n"
                                    "{\"text\": \"four\", \"colour\": \"red\"}\n");
    smfw_config *cfg = config();
    set(cfg, "dataset", "dataset_sampling", "sequential");
    smfw_prompt_set *ps = NULL;
    smfw_error e;
    /* No file: a sentence saying what to pass. */
    ck_assert_int_eq(smfw_dataset_load_configured(reg, cfg, "custom", 1, &ps, &e), SMFW_ERR_CONFIG);
    ck_assert_msg(strstr(e.message, "--dataset-file"), "%s", e.message);

    set(cfg, "dataset", "dataset_file", good);
    ck_assert_msg(smfw_dataset_load_configured(reg, cfg, "custom", 1, &ps, &e) == SMFW_OK, "%s",
                  e.message);
    ck_assert_uint_eq(ps->count, 3);
    ck_assert_str_eq(ps->prompts[2].text, "three\nfour");
    ck_assert_int_eq(ps->prompts[2].delay_ms, 5);
    ck_assert_int_eq(ps->prompts[1].output_length, 0);
    ck_assert_str_eq(ps->info.name, "custom");
    ck_assert_str_eq(ps->info.file, good);
    ck_assert_str_eq(ps->info.format, "single_turn");
    smfw_prompt_set_free(ps);

    /* Every bad line is listed, with its number, and no set is made. */
    set(cfg, "dataset", "dataset_file", bad);
    ck_assert_int_eq(smfw_dataset_load_configured(reg, cfg, "custom", 1, &ps, &e), SMFW_ERR_CONFIG);
    ck_assert_ptr_null(ps);
    ck_assert_msg(strstr(e.message, "bad.jsonl:2: field \"output_length\""), "%s", e.message);
    ck_assert_msg(strstr(e.message, "bad.jsonl:3: invalid JSON"), "%s", e.message);
    ck_assert_msg(strstr(e.message, "bad.jsonl:4: field \"colour\": unknown field"), "%s",
                  e.message);
    ck_assert_ptr_null(strstr(e.message, "bad.jsonl:1:"));

    /* A bad format setting is refused. */
    set(cfg, "dataset.custom", "format", "sharegpt");
    ck_assert_int_eq(smfw_dataset_load_configured(reg, cfg, "custom", 1, &ps, &e), SMFW_ERR_CONFIG);
    ck_assert_msg(strstr(e.message, "format"), "%s", e.message);
    smfw_config_free(cfg);
    free(good);
    free(bad);
    aws_fake_rmdir(dir);
    free(dir);
}
END_TEST

static smfw_prompt_set *synthetic(const char *seed, const char *mean, const char *sd,
                                  const char *count) {
    smfw_config *cfg = config();
    set(cfg, "dataset", "dataset_sampling", "sequential");
    set(cfg, "run", "random_seed", seed);
    set(cfg, "dataset", "input_tokens_mean", mean);
    set(cfg, "dataset", "input_tokens_stddev", sd);
    set(cfg, "dataset", "output_tokens_mean", "128");
    set(cfg, "dataset", "output_tokens_stddev", "8");
    set(cfg, "dataset.synthetic", "count", count);
    smfw_prompt_set *ps = NULL;
    smfw_error e;
    ck_assert_msg(smfw_dataset_load_configured(reg, cfg, "synthetic", 1, &ps, &e) == SMFW_OK, "%s",
                  e.message);
    smfw_config_free(cfg);
    return ps;
}

START_TEST(test_synthetic_plugin) {
    smfw_prompt_set *a = synthetic("7", "300", "30", "400");
    ck_assert_uint_eq(a->count, 400);
    ck_assert_str_eq(a->info.name, "synthetic");
    ck_assert_str_eq(a->info.token_lengths, "estimated");
    double sum = 0, sq = 0, out = 0;
    for (size_t i = 0; i < a->count; i++) {
        const smfw_prompt *p = &a->prompts[i];
        /* The estimated length of the text is exactly the sampled target. */
        ck_assert_int_eq(smfw_estimate_tokens(p->text, p->text_len), p->input_tokens);
        sum += (double)p->input_tokens;
        sq += (double)p->input_tokens * (double)p->input_tokens;
        out += (double)p->output_length;
    }
    double mean = sum / 400, sd = sqrt(sq / 400 - mean * mean);
    ck_assert_double_eq_tol(mean, 300, 6);
    ck_assert_double_eq_tol(sd, 30, 5);
    ck_assert_double_eq_tol(out / 400, 128, 2);

    /* Same seed, same prompts; another seed, other prompts. */
    smfw_prompt_set *b = synthetic("7", "300", "30", "400");
    smfw_prompt_set *c = synthetic("8", "300", "30", "400");
    int same = 1, differ = 0;
    for (size_t i = 0; i < 400; i++) {
        same &= strcmp(a->prompts[i].text, b->prompts[i].text) == 0;
        differ |= strcmp(a->prompts[i].text, c->prompts[i].text) != 0;
    }
    ck_assert(same);
    ck_assert(differ);
    smfw_prompt_set_free(a);
    smfw_prompt_set_free(b);
    smfw_prompt_set_free(c);

    /* stddev 0: every prompt has exactly the mean. */
    a = synthetic("1", "50", "0", "20");
    for (size_t i = 0; i < a->count; i++) ck_assert_int_eq(a->prompts[i].input_tokens, 50);
    smfw_prompt_set_free(a);
}
END_TEST

/* ---- the program: bad lines stop the run before any request ------------------------------- */

static void count_only(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    (void)req;
    (void)user;
    aws_fake_reply(resp, 500, "text/plain", "a request reached the server");
}

START_TEST(test_run_sends_nothing_when_a_line_is_bad) {
    aws_fake_server *srv = aws_fake_server_start(count_only, NULL);
    char *dir = aws_fake_tempdir();
    char *bad = aws_fake_write_file(dir, "bad.jsonl",
                                    "{\"text\": \"fine\", \"output_length\": 40}\n"
                                    "{\"text\": \"a\", \"output_length\": -3}\n"
                                    "{\"texts\": []}\n");
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s/smfw' run --backend direct --url %s/v1/chat/completions "
             "--dataset custom --dataset-file '%s' -o '%s/out' > '%s/stdout' 2> '%s/stderr'",
             dir, SMFW_BINARY_DIR, aws_fake_server_url(srv), bad, dir, dir, dir);
    int status = system(cmd);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 1);
    ck_assert_int_eq(aws_fake_server_count(srv), 0);
    char path[4300], text[4096] = "";
    snprintf(path, sizeof path, "%s/stderr", dir);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    ck_assert_msg(strstr(text, "bad.jsonl:2: field \"output_length\"") &&
                      strstr(text, "bad.jsonl:3: field \"texts\""),
                  "%s", text);
    aws_fake_server_stop(srv);
    free(bad);
    aws_fake_rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_dataset_command) {
    char *dir = aws_fake_tempdir();
    char *bad = aws_fake_write_file(dir, "bad.jsonl",
                                    "{\"text\": \"fine\"}\n{\"text\": 5}\n{\"prompt\": \"x\"}\n");
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s/smfw' dataset validate '%s' > '%s/o' 2> '%s/e'", SMFW_BINARY_DIR,
             bad, dir, dir);
    int status = system(cmd);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 1);
    snprintf(cmd, sizeof cmd,
             "grep -c 'bad.jsonl:[23]: field' '%s/e' | grep -qx 2 && grep -q '2 bad lines' '%s/e'",
             dir, dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "'%s/smfw' dataset validate '%s/datasets/curated.jsonl' | grep -q '^| output budget'",
             SMFW_BINARY_DIR, SMFW_SOURCE_DIR);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "'%s/smfw' dataset show synthetic --input-tokens-mean 64 --input-tokens-stddev 0 "
             "--request-count 20 --prompts 1 | grep -q '^| input tokens (estimated) | 20 | 64 |'",
             SMFW_BINARY_DIR);
    ck_assert_int_eq(system(cmd), 0);
    free(bad);
    aws_fake_rmdir(dir);
    free(dir);
}
END_TEST

static Suite *plugins_suite(void) {
    Suite *s = suite_create("dataset_plugins");
    TCase *tc = tcase_create("plugins");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_curated_is_the_default_and_found_without_configuration);
    tcase_add_test(tc, test_custom_plugin);
    tcase_add_test(tc, test_synthetic_plugin);
    tcase_add_test(tc, test_run_sends_nothing_when_a_line_is_bad);
    tcase_add_test(tc, test_dataset_command);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(plugins_suite());
}
