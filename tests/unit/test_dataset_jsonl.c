/*
 * test_dataset_jsonl.c - the custom-dataset JSONL reader and validator, and
 * the text corpus behind synthetic prompts.
 *
 * A file with many kinds of bad lines must report each one with its line
 * number and field and still read every good line; the AIPerf shapes
 * (single_turn, multi_turn, mooncake_trace) must come out as the prompts
 * AIPerf would send; synthesised text must have exactly the requested
 * estimated length, with equal hash ids giving equal blocks.
 */
#include <smfw/dataset_formats.h>

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aws_fake_http.h"
#include "smfw_test.h"

#define CORPUS_PATH SMFW_SOURCE_DIR "/datasets/synthetic_corpus.txt"

/* Read all prompts; errors are appended to errs (one per line). */
typedef struct read_result {
    smfw_prompt prompts[64];
    size_t n;
    char errs[32][1024];
    smfw_status err_status[32];
    size_t n_errs;
} read_result;

static void read_all(smfw_jsonl_reader *r, read_result *out) {
    memset(out, 0, sizeof *out);
    for (int guard = 0; guard < 1000; guard++) {
        smfw_prompt p;
        memset(&p, 0, sizeof p);
        smfw_error e;
        smfw_error_clear(&e);
        smfw_status st = smfw_jsonl_reader_next(r, &p, &e);
        if (st == SMFW_DONE) return;
        if (st == SMFW_OK) {
            ck_assert_uint_lt(out->n, 64);
            out->prompts[out->n++] = p;
        } else {
            ck_assert_uint_lt(out->n_errs, 32);
            out->err_status[out->n_errs] = st;
            snprintf(out->errs[out->n_errs++], sizeof out->errs[0], "%s", e.message);
        }
    }
    ck_abort_msg("reader did not finish");
}

static void free_result(read_result *res) {
    for (size_t i = 0; i < res->n; i++) smfw_prompt_clear(&res->prompts[i]);
}

static smfw_jsonl_reader *open_text(const char *name, const char *text,
                                    const smfw_jsonl_options *o) {
    smfw_jsonl_reader *r = NULL;
    smfw_error e;
    ck_assert_int_eq(smfw_jsonl_reader_open_memory(name, text, strlen(text), o, &r, &e), SMFW_OK);
    return r;
}

/* One bad line per kind of mistake, between good lines. Line numbers are 1-based. */
static const struct bad_case {
    const char *line;
    const char *field; /* expected in the message, "" for whole-line errors */
    const char *words; /* expected in the message */
} bad_cases[] = {
    {"{\"text\": \"unterminated\"", "", "invalid JSON"},
    {"[\"text\", \"hello\"]", "", "must be a JSON object"},
    {"{\"output_length\": 10}", "text", "missing"},
    {"{\"text\": \"\"}", "text", "is empty"},
    {"{\"text\": 42}", "text", "must be a string"},
    {"{\"text\": \"a\", \"output_length\": -5}", "output_length", "must be positive"},
    {"{\"text\": \"a\", \"output_length\": 0}", "output_length", "must be positive"},
    {"{\"text\": \"a\", \"output_length\": 12.5}", "output_length", "whole number"},
    {"{\"text\": \"a\", \"output_length\": \"12\"}", "output_length", "positive integer"},
    {"{\"text\": \"a\", \"max_tokens\": 5}", "max_tokens", "unknown field"},
    {"{\"text\": \"a\", \"texts\": [\"b\"]}", "texts", "mutually exclusive"},
    {"{\"text\": \"a\", \"timestamp\": 1, \"delay\": 2}", "delay", "mutually exclusive"},
    {"{\"text\": \"a\", \"text\": \"b\"}", "", "duplicate"},
    {"{\"texts\": []}", "texts", "empty list"},
    {"{\"text\": \"a\", \"image\": \"cat.png\"}", "image", "not supported"},
    {"{\"type\": \"random_pool\", \"text\": \"a\"}", "type", "unsupported dataset type"},
    {"{\"text\": \"a\", \"delay\": -1}", "delay", "must not be negative"},
    {"{\"text\": \"bad \xff byte\"}", "", "invalid JSON"},
    {"{\"text\": \"a\", \"output_length\": 1000000000000}", "output_length", "implausibly large"},
    {"{\"text\": \"   \\n \"}", "text", "only whitespace"},
    {"{\"texts\": [\"ok\", 7]}", "texts[1]", "must be a string"},
    {"{\"text\": \"a\"} trailing", "", "invalid JSON"},
};
#define N_BAD (sizeof bad_cases / sizeof bad_cases[0])

START_TEST(test_bad_lines_each_reported_with_line_and_field) {
    /* good, bad, good, bad, ... with a blank line in the middle */
    char *text = calloc(1, 64 * 1024);
    size_t expected_line[N_BAD];
    size_t line = 0;
    for (size_t i = 0; i < N_BAD; i++) {
        strcat(text, "{\"text\": \"good prompt\", \"output_length\": 64}\n");
        line++;
        if (i == N_BAD / 2) {
            strcat(text, "\n");
            line++;
        }
        strcat(text, bad_cases[i].line);
        strcat(text, "\n");
        expected_line[i] = ++line;
    }
    smfw_jsonl_reader *r = open_text("bad.jsonl", text, NULL);
    read_result res;
    read_all(r, &res);
    ck_assert_uint_eq(res.n, N_BAD); /* every good line still read */
    ck_assert_uint_eq(res.n_errs, N_BAD);
    for (size_t i = 0; i < N_BAD; i++) {
        char where[64];
        snprintf(where, sizeof where, "bad.jsonl:%zu: ", expected_line[i]);
        ck_assert_msg(strncmp(res.errs[i], where, strlen(where)) == 0, "case %zu: %s", i,
                      res.errs[i]);
        ck_assert_int_eq(res.err_status[i], SMFW_ERR_CONFIG);
        if (bad_cases[i].field[0]) {
            char f[96];
            snprintf(f, sizeof f, "field \"%s\"", bad_cases[i].field);
            ck_assert_msg(strstr(res.errs[i], f), "case %zu: no %s in: %s", i, f, res.errs[i]);
        }
        ck_assert_msg(strstr(res.errs[i], bad_cases[i].words), "case %zu: no \"%s\" in: %s", i,
                      bad_cases[i].words, res.errs[i]);
    }
    ck_assert_int_eq(smfw_jsonl_reader_lines(r), (int64_t)line);
    free_result(&res);
    smfw_jsonl_reader_free(r);
    free(text);
}
END_TEST

START_TEST(test_validate_file_lists_every_bad_line) {
    char *dir = aws_fake_tempdir();
    char body[4096] = "";
    for (size_t i = 0; i < 12; i++) {
        strcat(body, bad_cases[i].line);
        strcat(body, "\n");
    }
    strcat(body, "{\"text\": \"fine\", \"output_length\": 40}\n");
    char *path = aws_fake_write_file(dir, "bad.jsonl", body);
    char *log_path = aws_fake_write_file(dir, "errors.txt", "");
    FILE *errors = fopen(log_path, "w+");
    ck_assert_ptr_nonnull(errors);
    smfw_prompt_set *set = NULL;
    size_t n_errors = 0;
    smfw_error e;
    ck_assert_int_eq(smfw_dataset_validate_file(path, NULL, 5, errors, &set, &n_errors, &e),
                     SMFW_ERR_CONFIG);
    ck_assert_ptr_null(set);
    ck_assert_uint_eq(n_errors, 12);
    ck_assert_msg(strstr(e.message, "12 bad lines"), "%s", e.message);
    /* Five listed, then a count of the rest. */
    rewind(errors);
    char line[2048];
    size_t listed = 0;
    int more = 0;
    while (fgets(line, sizeof line, errors)) {
        if (strstr(line, "bad.jsonl:")) listed++;
        if (strstr(line, "(and 7 more bad lines)")) more = 1;
    }
    fclose(errors);
    ck_assert_uint_eq(listed, 5);
    ck_assert(more);
    free(path);
    free(log_path);
    aws_fake_rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_single_turn_fields) {
    const char *text =
        "\xEF\xBB\xBF{\"text\": \"Hello\", \"output_length\": 32, \"role\": \"user\"}\r\n"
        "{\"texts\": [\"part one\", {\"name\": \"q\", \"contents\": [\"two\", \"three\"]}]}\n"
        "{\"type\": \"single_turn\", \"text\": \"timed\", \"timestamp\": 1500}\n"
        "{\"text\": \"delayed\", \"delay\": 250.4}\n";
    smfw_jsonl_reader *r = open_text("ok.jsonl", text, NULL);
    read_result res;
    read_all(r, &res);
    ck_assert_uint_eq(res.n_errs, 0);
    ck_assert_uint_eq(res.n, 4);
    ck_assert_str_eq(res.prompts[0].text, "Hello");
    ck_assert_int_eq(res.prompts[0].output_length, 32);
    ck_assert_str_eq(res.prompts[0].role, "user");
    ck_assert_int_eq(res.prompts[0].timestamp_ms, -1);
    ck_assert_int_eq(res.prompts[0].input_tokens, smfw_estimate_tokens("Hello", 5));
    ck_assert_str_eq(res.prompts[1].text, "part one\ntwo\nthree");
    ck_assert_uint_eq(res.prompts[1].text_len, strlen("part one\ntwo\nthree"));
    ck_assert_int_eq(res.prompts[1].output_length, 0);
    ck_assert_int_eq(res.prompts[2].timestamp_ms, 1500);
    ck_assert_int_eq(res.prompts[3].delay_ms, 250);
    ck_assert_int_eq(smfw_jsonl_reader_format(r), SMFW_DATASET_FORMAT_SINGLE_TURN);
    ck_assert_uint_eq(strlen(smfw_jsonl_reader_sha256(r)), 64);
    free_result(&res);
    smfw_jsonl_reader_free(r);
}
END_TEST

START_TEST(test_multi_turn_sessions_merge) {
    const char *text =
        "{\"session_id\": \"s1\", \"turns\": [{\"text\": \"hi\", \"output_length\": 40}, "
        "{\"text\": \"and then?\", \"delay\": 1000}]}\n"
        "{\"session_id\": \"s2\", \"turns\": [{\"text\": \"other\"}]}\n"
        "{\"session_id\": \"s1\", \"turns\": [{\"text\": \"third turn\"}]}\n"
        "{\"session_id\": \"s3\", \"turns\": [{\"text\": \"x\", \"output_length\": 0}]}\n"
        "{\"text\": \"single\"}\n";
    smfw_jsonl_reader *r = open_text("mt.jsonl", text, NULL);
    read_result res;
    read_all(r, &res);
    ck_assert_uint_eq(res.n, 4);
    ck_assert_str_eq(res.prompts[0].session_id, "s1");
    ck_assert_int_eq(res.prompts[0].turn_index, 0);
    ck_assert_int_eq(res.prompts[1].turn_index, 1);
    ck_assert_int_eq(res.prompts[1].delay_ms, 1000);
    ck_assert_str_eq(res.prompts[2].session_id, "s2");
    ck_assert_int_eq(res.prompts[2].turn_index, 0);
    ck_assert_str_eq(res.prompts[3].text, "third turn");
    ck_assert_int_eq(res.prompts[3].turn_index, 2);
    /* A bad turn names its path; a single-turn line in a multi_turn file is refused. */
    ck_assert_uint_eq(res.n_errs, 2);
    ck_assert_msg(strstr(res.errs[0], "mt.jsonl:4: field \"turns[0].output_length\""), "%s",
                  res.errs[0]);
    ck_assert_msg(strstr(res.errs[1], "mt.jsonl:5:") && strstr(res.errs[1], "multi_turn"), "%s",
                  res.errs[1]);
    ck_assert_int_eq(smfw_jsonl_reader_format(r), SMFW_DATASET_FORMAT_MULTI_TURN);
    free_result(&res);
    smfw_jsonl_reader_free(r);
}
END_TEST

START_TEST(test_mooncake_trace) {
    const char *text =
        "{\"timestamp\": 0, \"input_length\": 600, \"output_length\": 50, \"hash_ids\": [1, 2]}\n"
        "{\"timestamp\": 120, \"input_length\": 700, \"output_length\": 20, \"hash_ids\": [1, 3]}\n"
        "{\"timestamp\": 300, \"text_input\": \"literal prompt\", \"output_length\": 8}\n"
        "{\"delay\": 10, \"input_length\": 77, \"session_id\": \"u1\"}\n"
        "{\"input_length\": 2000, \"hash_ids\": [1]}\n"
        "{\"input_length\": 10, \"text_input\": \"both\"}\n";
    smfw_jsonl_options o;
    memset(&o, 0, sizeof o);
    o.corpus_path = CORPUS_PATH;
    o.seed = 7;
    smfw_jsonl_reader *r = open_text("trace.jsonl", text, &o);
    read_result res;
    read_all(r, &res);
    ck_assert_uint_eq(res.n, 4);
    ck_assert_uint_eq(res.n_errs, 2);
    ck_assert_msg(strstr(res.errs[0], "trace.jsonl:5: field \"hash_ids\""), "%s", res.errs[0]);
    ck_assert_msg(strstr(res.errs[1], "trace.jsonl:6: field \"text_input\""), "%s", res.errs[1]);
    /* Equal first hash id -> equal first 512-token block (a shared prefix for KV caches). */
    const char *a = res.prompts[0].text, *b = res.prompts[1].text;
    size_t common = 0;
    while (a[common] && a[common] == b[common]) common++;
    ck_assert_int_ge(smfw_estimate_tokens(a, common), 500);
    ck_assert_int_lt(smfw_estimate_tokens(a, common), 600);
    for (int i = 0; i < 2; i++) {
        int64_t want = i == 0 ? 600 : 700;
        int64_t got = smfw_estimate_tokens(res.prompts[i].text, res.prompts[i].text_len);
        ck_assert_int_eq(res.prompts[i].input_tokens, got);
        ck_assert_int_le(llabs(got - want), 2); /* blocks join on a space */
    }
    ck_assert_int_eq(res.prompts[1].timestamp_ms, 120);
    ck_assert_int_eq(res.prompts[1].output_length, 20);
    ck_assert_str_eq(res.prompts[2].text, "literal prompt");
    ck_assert_int_eq(res.prompts[3].input_tokens, 77);
    ck_assert_int_eq(smfw_estimate_tokens(res.prompts[3].text, res.prompts[3].text_len), 77);
    ck_assert_str_eq(res.prompts[3].session_id, "u1");
    ck_assert_int_eq(res.prompts[3].delay_ms, 10);
    ck_assert(smfw_jsonl_reader_synthesised(r));
    free_result(&res);
    smfw_jsonl_reader_free(r);

    /* Without a corpus, input_length lines are errors that say why. */
    r = open_text("trace.jsonl", "{\"input_length\": 5}\n", NULL);
    read_all(r, &res);
    ck_assert_uint_eq(res.n_errs, 1);
    ck_assert_msg(strstr(res.errs[0], "corpus"), "%s", res.errs[0]);
    smfw_jsonl_reader_free(r);
}
END_TEST

START_TEST(test_forced_format) {
    smfw_jsonl_options o;
    memset(&o, 0, sizeof o);
    o.format = SMFW_DATASET_FORMAT_SINGLE_TURN;
    smfw_jsonl_reader *r = open_text(
        "f.jsonl", "{\"input_length\": 5}\n{\"type\": \"multi_turn\", \"turns\": []}\n", &o);
    read_result res;
    read_all(r, &res);
    ck_assert_uint_eq(res.n, 0);
    ck_assert_uint_eq(res.n_errs, 2);
    ck_assert_msg(strstr(res.errs[0], "field \"input_length\": unknown field"), "%s", res.errs[0]);
    ck_assert_msg(strstr(res.errs[1], "field \"type\"") && strstr(res.errs[1], "single_turn"), "%s",
                  res.errs[1]);
    smfw_jsonl_reader_free(r);
    /* Forced multi_turn without turns (found by fuzz_dataset_jsonl). */
    o.format = SMFW_DATASET_FORMAT_MULTI_TURN;
    r = open_text("m.jsonl", "{\"session_id\": \"x\"}\n", &o);
    read_all(r, &res);
    ck_assert_uint_eq(res.n_errs, 1);
    ck_assert_msg(strstr(res.errs[0], "m.jsonl:1: field \"turns\": missing"), "%s", res.errs[0]);
    smfw_jsonl_reader_free(r);
    smfw_dataset_format f;
    ck_assert_int_eq(smfw_dataset_format_parse("mooncake_trace", &f), 0);
    ck_assert_int_eq(f, SMFW_DATASET_FORMAT_MOONCAKE);
    ck_assert_int_eq(smfw_dataset_format_parse("random_pool", &f), -1);
}
END_TEST

START_TEST(test_missing_file_is_io_error) {
    smfw_jsonl_reader *r = NULL;
    smfw_error e;
    ck_assert_int_eq(smfw_jsonl_reader_open("/nonexistent/x.jsonl", NULL, &r, &e), SMFW_ERR_IO);
    ck_assert_ptr_null(r);
    ck_assert_msg(strstr(e.message, "/nonexistent/x.jsonl"), "%s", e.message);
}
END_TEST

START_TEST(test_corpus_exact_lengths) {
    smfw_text_corpus *c = NULL;
    smfw_error e;
    ck_assert_int_eq(smfw_text_corpus_load(CORPUS_PATH, &c, &e), SMFW_OK);
    ck_assert_uint_gt(smfw_text_corpus_words(c), 5000);
    uint64_t s = 1;
    for (int i = 0; i < 400; i++) {
        int64_t want = 1 + (int64_t)(smfw_dataset_rand_next(&s) % 3000);
        size_t len = 0;
        char *t = smfw_text_corpus_take(c, smfw_dataset_rand_next(&s), want, &len);
        ck_assert_ptr_nonnull(t);
        ck_assert_uint_eq(strlen(t), len);
        ck_assert_int_eq(smfw_estimate_tokens(t, len), want);
        free(t);
    }
    /* Deterministic and wrapping past the end. */
    size_t l1, l2;
    char *a = smfw_text_corpus_take(c, (uint64_t)smfw_text_corpus_words(c) - 3, 40, &l1);
    char *b = smfw_text_corpus_take(c, (uint64_t)smfw_text_corpus_words(c) * 2 - 3, 40, &l2);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    ck_assert_ptr_null(smfw_text_corpus_take(c, 0, 0, NULL));
    smfw_text_corpus_free(c);

    /* A tiny corpus of long and non-ASCII words still gives exact lengths. */
    const char *tiny = "Donaudampfschifffahrtsgesellschaft \xc3\xa9t\xc3\xa9 "
                       "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e a";
    ck_assert_int_eq(smfw_text_corpus_from_text(tiny, strlen(tiny), &c, &e), SMFW_OK);
    for (int64_t want = 1; want < 60; want++) {
        size_t len;
        char *t = smfw_text_corpus_take(c, (uint64_t)want, want, &len);
        ck_assert_int_eq(smfw_estimate_tokens(t, len), want);
        free(t);
    }
    smfw_text_corpus_free(c);
    ck_assert_int_eq(smfw_text_corpus_from_text("  \n ", 4, &c, &e), SMFW_ERR_CONFIG);
    ck_assert_int_eq(smfw_text_corpus_from_text("ab\xff", 3, &c, &e), SMFW_ERR_CONFIG);
}
END_TEST

START_TEST(test_rand_normal) {
    uint64_t s = 42;
    double sum = 0, sq = 0;
    for (int i = 0; i < 20000; i++) {
        int64_t v = smfw_dataset_rand_normal(&s, 500, 50, 1);
        sum += (double)v;
        sq += (double)v * (double)v;
    }
    double mean = sum / 20000, sd = sqrt(sq / 20000 - mean * mean);
    ck_assert_double_eq_tol(mean, 500, 2);
    ck_assert_double_eq_tol(sd, 50, 2);
    ck_assert_int_eq(smfw_dataset_rand_normal(&s, 7.4, 0, 1), 7);
    ck_assert_int_eq(smfw_dataset_rand_normal(&s, -5, 0, 1), 1);
}
END_TEST

START_TEST(test_stats) {
    int64_t v[] = {5, 1, 4, 2, 3, 10, 9, 8, 7, 6};
    smfw_length_summary s;
    smfw_length_summarise(v, 10, &s);
    ck_assert_int_eq(s.min, 1);
    ck_assert_int_eq(s.max, 10);
    ck_assert_int_eq(s.median, 5);
    ck_assert_int_eq(s.p90, 9);
    ck_assert_int_eq(s.p25, 3);
    ck_assert_double_eq_tol(s.mean, 5.5, 1e-9);
    smfw_length_summarise(v, 0, &s);
    ck_assert_uint_eq(s.count, 0);
}
END_TEST

START_TEST(test_bundled_curated_file_is_valid) {
    /* The acceptance rule of the bundled file: 500 valid lines, budgets 32..2048. */
    smfw_prompt_set *set = NULL;
    smfw_error e;
    smfw_jsonl_options o;
    memset(&o, 0, sizeof o);
    o.format = SMFW_DATASET_FORMAT_SINGLE_TURN;
    ck_assert_int_eq(smfw_dataset_validate_file(SMFW_SOURCE_DIR "/datasets/curated.jsonl", &o, 0,
                                                stderr, &set, NULL, &e),
                     SMFW_OK);
    ck_assert_uint_eq(set->count, 500);
    smfw_dataset_stats st;
    ck_assert_int_eq(smfw_dataset_stats_compute(set, &st, &e), SMFW_OK);
    ck_assert_uint_eq(st.without_budget, 0);
    ck_assert_int_ge(st.output_length.min, 32);
    ck_assert_int_le(st.output_length.max, 2048);
    ck_assert_int_ge(st.input_tokens.median, 150);
    ck_assert_int_ge(st.input_tokens.max, 1500);
    ck_assert_int_le(st.input_tokens.max, 2500);
    for (size_t i = 0; i < set->count; i++) ck_assert_uint_le(set->prompts[i].text_len, 12 * 1024);
    smfw_prompt_set_free(set);
}
END_TEST

static Suite *jsonl_suite(void) {
    Suite *s = suite_create("dataset_jsonl");
    TCase *tc = tcase_create("jsonl");
    tcase_add_test(tc, test_bad_lines_each_reported_with_line_and_field);
    tcase_add_test(tc, test_validate_file_lists_every_bad_line);
    tcase_add_test(tc, test_single_turn_fields);
    tcase_add_test(tc, test_multi_turn_sessions_merge);
    tcase_add_test(tc, test_mooncake_trace);
    tcase_add_test(tc, test_forced_format);
    tcase_add_test(tc, test_missing_file_is_io_error);
    tcase_add_test(tc, test_corpus_exact_lengths);
    tcase_add_test(tc, test_rand_normal);
    tcase_add_test(tc, test_stats);
    tcase_add_test(tc, test_bundled_curated_file_is_valid);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(jsonl_suite());
}
