/*
 * test_dataset_sharegpt.c - the streaming ShareGPT reader, `curate`, and the
 * public feed's download into the cache from a local HTTP server.
 */
#include <smfw/app.h>
#include <smfw/dataset_formats.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aws_fake_http.h"
#include "smfw_test.h"

/* A small feed in the shape of ShareGPT_V3_unfiltered_cleaned_split.json. */
static const char *const SAMPLE =
    "[\n"
    "  {\"id\": \"a1\", \"conversations\": [\n"
    "    {\"from\": \"human\", \"value\": \"What is the capital of France?\"},\n"
    "    {\"from\": \"gpt\", \"value\": \"Paris.\"}]},\n"
    "  {\"id\": \"a2\", \"conversations\": []},\n"
    "  {\"id\": \"a3\", \"conversations\": [\n"
    "    {\"from\": \"system\", \"value\": \"be nice\"},\n"
    "    {\"from\": \"human\", \"value\": \"Tricky \\\"}]{[\\\\ braces\"},\n"
    "    {\"from\": \"human\", \"value\": \"second human turn\"},\n"
    "    {\"from\": \"gpt\", \"value\": \"An answer that is a little longer than the first one, "
    "with several words in it.\"}]},\n"
    "  {\"id\": \"a4\", \"conversations\": [{\"from\": \"gpt\", \"value\": \"no question\"}]},\n"
    "  {\"id\": \"a5\", \"conversations\": [{\"from\": \"human\", \"value\": \"no answer\"}]},\n"
    "  {\"id\": \"a6\", \"conversations\": [{\"from\": \"human\", \"value\": \"\\u00e9t\\u00e9 "
    "\\u65e5\\u672c\"}, {\"from\": \"gpt\", \"value\": \"oui\"}, {\"from\": \"human\", \"value\": "
    "\"x\"}]}\n"
    "]\n";

typedef struct got {
    smfw_prompt p[16];
    size_t n;
    smfw_status last;
    char err[2048];
} got;

static void drain(smfw_sharegpt_reader *r, got *g) {
    memset(g, 0, sizeof *g);
    for (;;) {
        smfw_prompt p;
        memset(&p, 0, sizeof p);
        smfw_error e;
        smfw_error_clear(&e);
        smfw_status st = smfw_sharegpt_reader_next(r, &p, &e);
        if (st == SMFW_OK) {
            ck_assert_uint_lt(g->n, 16);
            g->p[g->n++] = p;
            continue;
        }
        g->last = st;
        snprintf(g->err, sizeof g->err, "%s", e.message);
        /* After an error, the reader must be finished. */
        if (st != SMFW_DONE) ck_assert_int_eq(smfw_sharegpt_reader_next(r, &p, &e), SMFW_DONE);
        return;
    }
}

static void free_got(got *g) {
    for (size_t i = 0; i < g->n; i++) smfw_prompt_clear(&g->p[i]);
}

static void check_sample(got *g) {
    ck_assert_int_eq(g->last, SMFW_DONE);
    ck_assert_uint_eq(g->n, 3);
    ck_assert_str_eq(g->p[0].text, "What is the capital of France?");
    ck_assert_int_eq(g->p[0].output_length, smfw_estimate_tokens("Paris.", 6));
    ck_assert_str_eq(g->p[1].text, "Tricky \"}]{[\\ braces");
    const char *ans =
        "An answer that is a little longer than the first one, with several words in it.";
    ck_assert_int_eq(g->p[1].output_length, smfw_estimate_tokens(ans, strlen(ans)));
    ck_assert_str_eq(g->p[2].text, "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac");
    ck_assert_int_eq(g->p[2].output_length, 1); /* the raw feed keeps tiny budgets */
}

START_TEST(test_sample_from_memory) {
    smfw_sharegpt_reader *r = NULL;
    smfw_error e;
    ck_assert_int_eq(smfw_sharegpt_reader_open_memory("s.json", SAMPLE, strlen(SAMPLE), &r, &e),
                     SMFW_OK);
    got g;
    drain(r, &g);
    check_sample(&g);
    ck_assert_int_eq(smfw_sharegpt_reader_seen(r), 6);
    ck_assert_int_eq(smfw_sharegpt_reader_skipped(r), 3);
    free_got(&g);
    smfw_sharegpt_reader_free(r);
}
END_TEST

START_TEST(test_large_file_crosses_read_buffers) {
    /* ~3 MB: conversations straddle the 1 MiB reads; file and memory readers must agree. */
    char *dir = aws_fake_tempdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/big.json", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("\xEF\xBB\xBF[", f);
    const int n = 3000;
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s{\"id\":\"c%d\",\"conversations\":[{\"from\":\"human\",\"value\":\"q%d ",
                i ? ",\n" : "", i, i);
        for (int k = 0; k < 100 + i % 50; k++) fputs("word\\\" ", f);
        fputs("\"},{\"from\":\"gpt\",\"value\":\"", f);
        for (int k = 0; k < 1 + i % 700; k++) fputs("answer ", f);
        fputs("\"}]}", f);
    }
    fputs("]", f);
    fclose(f);
    smfw_sharegpt_reader *r = NULL;
    smfw_error e;
    ck_assert_int_eq(smfw_sharegpt_reader_open(path, &r, &e), SMFW_OK);
    int count = 0;
    for (;;) {
        smfw_prompt p;
        memset(&p, 0, sizeof p);
        smfw_status st = smfw_sharegpt_reader_next(r, &p, &e);
        if (st == SMFW_DONE) break;
        ck_assert_int_eq(st, SMFW_OK);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "q%d ", count);
        ck_assert(strncmp(p.text, prefix, strlen(prefix)) == 0);
        ck_assert_int_eq(p.output_length, 1 + count % 700); /* "answer " = 1 piece */
        smfw_prompt_clear(&p);
        count++;
    }
    ck_assert_int_eq(count, n);
    smfw_sharegpt_reader_free(r);
    aws_fake_rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_structural_errors) {
    static const struct {
        const char *text;
        const char *words;
    } cases[] = {
        {"", "empty"},
        {"{\"conversations\": []}", "expected '['"},
        {"[{\"conversations\": []}", "not closed"},
        {"[{\"id\": 1} {\"id\": 2}]", "expected ','"},
        {"[1, 2]", "expected a conversation object"},
        {"[{\"id\": tru}]", "not valid JSON"},
        {"[{\"id\": \"unterminated}]", "not closed"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        smfw_sharegpt_reader *r = NULL;
        smfw_error e;
        ck_assert_int_eq(smfw_sharegpt_reader_open_memory("x.json", cases[i].text,
                                                          strlen(cases[i].text), &r, &e),
                         SMFW_OK);
        got g;
        drain(r, &g);
        ck_assert_msg(g.last == SMFW_ERR_CONFIG, "case %zu: status %d", i, g.last);
        ck_assert_msg(strstr(g.err, "x.json: byte ") && strstr(g.err, cases[i].words),
                      "case %zu: %s", i, g.err);
        free_got(&g);
        smfw_sharegpt_reader_free(r);
    }
    /* An empty array is a valid, empty feed. */
    smfw_sharegpt_reader *r = NULL;
    smfw_error e;
    ck_assert_int_eq(smfw_sharegpt_reader_open_memory("x.json", " [ ] ", 5, &r, &e), SMFW_OK);
    got g;
    drain(r, &g);
    ck_assert_int_eq(g.last, SMFW_DONE);
    ck_assert_uint_eq(g.n, 0);
    smfw_sharegpt_reader_free(r);
}
END_TEST

START_TEST(test_curate) {
    char *dir = aws_fake_tempdir();
    /* 200 conversations with answers of 1..200 words ("w " = 1 piece each). */
    char path[4200], out[4200];
    snprintf(path, sizeof path, "%s/feed.json", dir);
    snprintf(out, sizeof out, "%s/curated.jsonl", dir);
    FILE *f = fopen(path, "w");
    fputs("[", f);
    for (int i = 1; i <= 200; i++) {
        fprintf(f,
                "%s{\"id\":\"%d\",\"conversations\":[{\"from\":\"human\",\"value\":\"prompt %d\"},"
                "{\"from\":\"gpt\",\"value\":\"",
                i > 1 ? "," : "", i, i);
        for (int k = 0; k < i; k++) fputs("w ", f);
        fputs("\"}]}", f);
    }
    fputs("]", f);
    fclose(f);
    smfw_curate_options o = {50, 32, 9};
    smfw_curate_report rep;
    smfw_error e;
    ck_assert_int_eq(smfw_dataset_curate(path, out, &o, &rep, &e), SMFW_OK);
    ck_assert_int_eq(rep.conversations, 200);
    ck_assert_int_eq(rep.usable, 200);
    ck_assert_int_eq(rep.eligible, 169); /* budgets 32..200 */
    ck_assert_int_eq(rep.written, 50);
    /* The result validates, every budget is >= 32, and it keeps feed order. */
    smfw_prompt_set *set = NULL;
    ck_assert_int_eq(smfw_dataset_validate_file(out, NULL, 0, stderr, &set, NULL, &e), SMFW_OK);
    ck_assert_uint_eq(set->count, 50);
    int64_t last = 0;
    for (size_t i = 0; i < set->count; i++) {
        ck_assert_int_ge(set->prompts[i].output_length, 32);
        ck_assert_int_gt(set->prompts[i].output_length, last);
        last = set->prompts[i].output_length;
        char want[32];
        snprintf(want, sizeof want, "prompt %lld", (long long)last);
        ck_assert_str_eq(set->prompts[i].text, want);
    }
    smfw_prompt_set_free(set);
    /* Same seed, same file; another seed, another sample. */
    char sha1[65], sha2[65], sha3[65];
    ck_assert_int_eq(smfw_file_sha256(out, sha1, &e), SMFW_OK);
    ck_assert_int_eq(smfw_dataset_curate(path, out, &o, &rep, &e), SMFW_OK);
    ck_assert_int_eq(smfw_file_sha256(out, sha2, &e), SMFW_OK);
    ck_assert_str_eq(sha1, sha2);
    o.seed = 10;
    ck_assert_int_eq(smfw_dataset_curate(path, out, &o, &rep, &e), SMFW_OK);
    ck_assert_int_eq(smfw_file_sha256(out, sha3, &e), SMFW_OK);
    ck_assert_str_ne(sha1, sha3);
    /* Nothing eligible is an error and leaves no file. */
    o.min_output = 1000;
    unlink(out);
    ck_assert_int_eq(smfw_dataset_curate(path, out, &o, &rep, &e), SMFW_ERR_CONFIG);
    ck_assert_int_ne(access(out, F_OK), 0);
    aws_fake_rmdir(dir);
    free(dir);
}
END_TEST

/* ---- the public plugin's download from a local server --------------------------------------- */

typedef struct feed_server {
    const char *body;
    int fail_status;
} feed_server;

static void serve_feed(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    feed_server *fs = user;
    if (fs->fail_status) {
        aws_fake_reply(resp, fs->fail_status, "text/plain", "nope");
        return;
    }
    if (strcmp(req->path, "/datasets/ShareGPT_V3_unfiltered_cleaned_split.json") != 0) {
        aws_fake_reply(resp, 404, "text/plain", "not here");
        return;
    }
    aws_fake_reply(resp, 200, "application/json", fs->body);
}

static smfw_registry *load_registry(void) {
    const char *dirs[] = {SMFW_BUILD_PLUGIN_DIR};
    smfw_registry *reg = NULL;
    smfw_error e;
    ck_assert_int_eq(smfw_registry_load(dirs, 1, &reg, &e), SMFW_OK);
    ck_assert_msg(smfw_registry_find(reg, SMFW_PLUGIN_DATASET, "public"),
                  "the public plugin was not built in %s", SMFW_BUILD_PLUGIN_DIR);
    return reg;
}

static smfw_config *public_config(smfw_registry *reg, const char *url, const char *cache,
                                  const char *sha256) {
    smfw_config *cfg = NULL;
    smfw_error e;
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &e), SMFW_OK);
    ck_assert_int_eq(
        smfw_config_set(cfg, "dataset.public", "url", url, SMFW_SOURCE_FLAG, "test", 0, &e),
        SMFW_OK);
    ck_assert_int_eq(
        smfw_config_set(cfg, "dataset.public", "cache_dir", cache, SMFW_SOURCE_FLAG, "test", 0, &e),
        SMFW_OK);
    if (sha256)
        ck_assert_int_eq(smfw_config_set(cfg, "dataset.public", "sha256", sha256, SMFW_SOURCE_FLAG,
                                         "test", 0, &e),
                         SMFW_OK);
    ck_assert_int_eq(smfw_config_set(cfg, "dataset", "dataset_sampling", "sequential",
                                     SMFW_SOURCE_FLAG, "test", 0, &e),
                     SMFW_OK);
    return cfg;
}

static int dir_entries(const char *dir) {
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p) {
        if (fscanf(p, "%d", &n) != 1) n = -1;
        pclose(p);
    }
    return n;
}

START_TEST(test_public_download_into_cache) {
    feed_server fs = {SAMPLE, 0};
    aws_fake_server *srv = aws_fake_server_start(serve_feed, &fs);
    ck_assert_ptr_nonnull(srv);
    char *dir = aws_fake_tempdir();
    char cache[4200], url[512], sha[65];
    snprintf(cache, sizeof cache, "%s/cache/smfw", dir);
    snprintf(url, sizeof url, "%s/datasets/ShareGPT_V3_unfiltered_cleaned_split.json",
             aws_fake_server_url(srv));
    char *expected_file = aws_fake_write_file(dir, "expected.json", SAMPLE);
    smfw_error e;
    ck_assert_int_eq(smfw_file_sha256(expected_file, sha, &e), SMFW_OK);

    smfw_registry *reg = load_registry();
    smfw_config *cfg = public_config(reg, url, cache, sha);
    smfw_prompt_set *set = NULL;
    ck_assert_msg(smfw_dataset_load_configured(reg, cfg, "public", 1, &set, &e) == SMFW_OK, "%s",
                  e.message);
    ck_assert_uint_eq(set->count, 3);
    ck_assert_str_eq(set->prompts[0].text, "What is the capital of France?");
    ck_assert_str_eq(set->info.name, "public");
    ck_assert_str_eq(set->info.sha256, sha);
    ck_assert_str_eq(set->info.format, "sharegpt");
    char cached[4300];
    snprintf(cached, sizeof cached, "%s/ShareGPT_V3_unfiltered_cleaned_split.json", cache);
    ck_assert_str_eq(set->info.file, cached);
    ck_assert_int_eq(access(cached, R_OK), 0);
    ck_assert_int_eq(dir_entries(cache), 1); /* no temporary file left behind */
    smfw_prompt_set_free(set);
    ck_assert_int_eq(aws_fake_server_count(srv), 1);

    /* Second use: from the cache, no request. */
    ck_assert_int_eq(smfw_dataset_load_configured(reg, cfg, "public", 1, &set, &e), SMFW_OK);
    ck_assert_uint_eq(set->count, 3);
    smfw_prompt_set_free(set);
    ck_assert_int_eq(aws_fake_server_count(srv), 1);
    smfw_config_free(cfg);

    /* A wrong checksum fails and caches nothing. */
    char cache2[4200];
    snprintf(cache2, sizeof cache2, "%s/cache2", dir);
    cfg = public_config(reg, url, cache2,
                        "0000000000000000000000000000000000000000000000000000000000000000");
    ck_assert_int_eq(smfw_dataset_load_configured(reg, cfg, "public", 1, &set, &e),
                     SMFW_ERR_CONFIG);
    ck_assert_msg(strstr(e.message, "SHA-256") && strstr(e.message, sha), "%s", e.message);
    ck_assert_int_eq(dir_entries(cache2), 0);
    smfw_config_free(cfg);

    /* A 404 is an error naming the URL, and caches nothing. */
    char bad_url[600];
    snprintf(bad_url, sizeof bad_url, "%s/missing.json", aws_fake_server_url(srv));
    cfg = public_config(reg, bad_url, cache2, NULL);
    ck_assert_int_eq(smfw_dataset_load_configured(reg, cfg, "public", 1, &set, &e),
                     SMFW_ERR_NOT_FOUND);
    ck_assert_msg(strstr(e.message, "missing.json") && strstr(e.message, "404"), "%s", e.message);
    ck_assert_int_eq(dir_entries(cache2), 0);
    smfw_config_free(cfg);

    /* --dataset-file skips the download entirely. */
    cfg = public_config(reg, bad_url, cache2, NULL);
    ck_assert_int_eq(smfw_config_set(cfg, "dataset", "dataset_file", expected_file,
                                     SMFW_SOURCE_FLAG, "test", 0, &e),
                     SMFW_OK);
    int before = aws_fake_server_count(srv);
    ck_assert_int_eq(smfw_dataset_load_configured(reg, cfg, "public", 1, &set, &e), SMFW_OK);
    ck_assert_uint_eq(set->count, 3);
    ck_assert_int_eq(aws_fake_server_count(srv), before);
    smfw_prompt_set_free(set);
    smfw_config_free(cfg);

    smfw_registry_free(reg);
    aws_fake_server_stop(srv);
    free(expected_file);
    aws_fake_rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_download_server_error_and_refused_connection) {
    feed_server fs = {SAMPLE, 503};
    aws_fake_server *srv = aws_fake_server_start(serve_feed, &fs);
    char *dir = aws_fake_tempdir();
    char dest[4200], url[512];
    snprintf(dest, sizeof dest, "%s/sub/feed.json", dir);
    snprintf(url, sizeof url, "%s/datasets/ShareGPT_V3_unfiltered_cleaned_split.json",
             aws_fake_server_url(srv));
    smfw_download_options o = {NULL, 1, 10, NULL};
    smfw_error e;
    ck_assert_int_eq(smfw_dataset_download(url, dest, &o, NULL, &e), SMFW_ERR_NETWORK);
    ck_assert_msg(strstr(e.message, "503"), "%s", e.message);
    ck_assert_int_ne(access(dest, F_OK), 0);
    int port = aws_fake_server_port(srv);
    aws_fake_server_stop(srv);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/x.json", port);
    ck_assert_int_eq(smfw_dataset_download(url, dest, &o, NULL, &e), SMFW_ERR_NETWORK);
    ck_assert_int_ne(access(dest, F_OK), 0);
    aws_fake_rmdir(dir);
    free(dir);
}
END_TEST

static Suite *sharegpt_suite(void) {
    Suite *s = suite_create("dataset_sharegpt");
    TCase *tc = tcase_create("sharegpt");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sample_from_memory);
    tcase_add_test(tc, test_large_file_crosses_read_buffers);
    tcase_add_test(tc, test_structural_errors);
    tcase_add_test(tc, test_curate);
    tcase_add_test(tc, test_public_download_into_cache);
    tcase_add_test(tc, test_download_server_error_and_refused_connection);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(sharegpt_suite());
}
