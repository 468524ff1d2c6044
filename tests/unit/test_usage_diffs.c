/* test_usage_diffs.c - AIPerf's usage-discrepancy metrics (usage_*_tokens_diff_pct per record,
 * usage_discrepancy_count per run) on the examples of AIPerf's own docstrings
 * (aiperf/metrics/types/usage_diff_metrics.py), its edge rules (no value against a zero client
 * count, a strict 10 % threshold, the count needs both the prompt and the completion
 * difference), and a record's token_count_source through the JSONL writer and reader. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results.h>

#include "smfw_test.h"

/* A valid record with the client's ISL/OSL/reasoning and the server's usage (-1 = absent). */
static smfw_record *counted(double isl, double osl, double reasoning, double up, double uc,
                            double ur) {
    smfw_record *rec = smfw_record_new();
    ck_assert_ptr_nonnull(rec);
    smfw_record_set(rec, SMFW_M_REQUEST_LATENCY, 1e8);
    if (isl >= 0) smfw_record_set(rec, SMFW_M_INPUT_SEQUENCE_LENGTH, isl);
    smfw_record_set_output_tokens(rec, 0,
                                  osl >= 0 ? (int64_t)(osl - (reasoning > 0 ? reasoning : 0)) : -1,
                                  (int64_t)reasoning);
    if (up >= 0) smfw_record_set(rec, SMFW_M_USAGE_PROMPT_TOKENS, up);
    if (uc >= 0) smfw_record_set(rec, SMFW_M_USAGE_COMPLETION_TOKENS, uc);
    if (ur >= 0) smfw_record_set(rec, SMFW_M_USAGE_REASONING_TOKENS, ur);
    smfw_record_set_usage_diffs(rec);
    return rec;
}

static double value(const smfw_record *rec, smfw_metric_id id) {
    double v = -1;
    ck_assert_msg(smfw_record_value(rec, id, &v), "%s absent", smfw_metric_get(id)->tag);
    return v;
}

START_TEST(aiperf_docstring_examples) {
    /* "If API reports 105 tokens and client computed 100 tokens: 5.0%", and 95 -> 5.0 % */
    smfw_record *a = counted(100, 50, -1, 105, 55, -1);
    ck_assert_double_eq(value(a, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT), 5.0);
    ck_assert_double_eq(value(a, SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT), 10.0); /* 55 vs 50 */
    ck_assert(!smfw_record_value(a, SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT, &(double){0}));
    smfw_record *b = counted(100, 50, 50, 95, 48, 52);
    ck_assert_double_eq(value(b, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT), 5.0);
    ck_assert_double_eq(value(b, SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT), 4.0);
    ck_assert_double_eq(value(b, SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT), 4.0);
    /* Python's abs(37 - 39) / 39 * 100.0, the same double */
    smfw_record *c = counted(19, 39, -1, 21, 37, -1);
    ck_assert_double_eq(value(c, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT), 10.526315789473683);
    ck_assert_double_eq(value(c, SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT), 5.128205128205128);
    smfw_record_free(a);
    smfw_record_free(b);
    smfw_record_free(c);
}
END_TEST

START_TEST(no_value_without_both_counts_or_against_zero) {
    double v;
    smfw_record *no_usage = counted(100, 50, -1, -1, -1, -1);
    ck_assert(!smfw_record_value(no_usage, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT, &v));
    ck_assert(!smfw_record_value(no_usage, SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT, &v));
    smfw_record *zero = counted(0, 0, 0, 3, 2, 1); /* AIPerf: "with zero client tokens" */
    ck_assert(!smfw_record_value(zero, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT, &v));
    ck_assert(!smfw_record_value(zero, SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT, &v));
    ck_assert(!smfw_record_value(zero, SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT, &v));
    /* A recount of the output drops the differences that followed the old one. */
    smfw_record *re = counted(100, 50, -1, 100, 60, -1);
    ck_assert_double_eq(value(re, SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT), 20.0);
    smfw_record_set_output_tokens(re, 0, 60, -1);
    ck_assert(!smfw_record_value(re, SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT, &v));
    ck_assert_double_eq(value(re, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT), 0.0);
    /* An error record has no usage metrics, so no differences either. */
    smfw_record *err = counted(100, 50, -1, 120, 60, -1);
    smfw_record_set_error(err, SMFW_ERRCLASS_HTTP, 1, 500, "ServerError", "boom");
    smfw_record_set_usage_diffs(err);
    ck_assert(!smfw_record_value(err, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT, &v));
    smfw_record_free(no_usage);
    smfw_record_free(zero);
    smfw_record_free(re);
    smfw_record_free(err);
}
END_TEST

static const smfw_stats *count_of(smfw_record **recs, size_t n, smfw_results **keep) {
    smfw_results *r = smfw_results_new();
    ck_assert_ptr_nonnull(r);
    smfw_error err;
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(smfw_results_add_record(r, recs[i], &err), SMFW_OK);
        smfw_record_free(recs[i]);
    }
    ck_assert_int_eq(smfw_results_compute(r, NULL, 0, &err), SMFW_OK);
    *keep = r;
    return smfw_results_stat(r, SMFW_M_USAGE_DISCREPANCY_COUNT);
}

START_TEST(discrepancy_count_as_aiperf_counts) {
    /* AIPerf's example, threshold 10 %: records 2, 3 and 5 exceed it -> 3 */
    smfw_record *six[] = {
        counted(100, 100, -1, 105, 103, -1), /* 5 %, 3 % */
        counted(100, 100, -1, 115, 103, -1), /* 15 % prompt */
        counted(100, 100, -1, 95, 112, -1),  /* 12 % completion */
        counted(100, 100, -1, 100, 100, -1), /* 0, 0 */
        counted(100, 100, -1, 120, 85, -1),  /* 20 %, 15 % */
        counted(100, 100, -1, 103, 98, -1),  /* 3 %, 2 % */
    };
    smfw_results *r;
    const smfw_stats *s = count_of(six, 6, &r);
    ck_assert(s && s->present);
    ck_assert_double_eq(s->avg, 3);
    smfw_results_free(r);

    smfw_record *edges[] = {
        counted(100, 100, -1, 110, 90, -1),  /* exactly 10 %: not over the threshold */
        counted(100, 100, 40, 100, 100, 50), /* reasoning 25 %: counted */
        counted(100, 0, -1, 150, 5, -1),     /* no completion difference: no value at all */
        counted(100, 100, -1, -1, -1, -1),   /* no usage: no value */
    };
    s = count_of(edges, 4, &r);
    ck_assert(s && s->present);
    ck_assert_double_eq(s->avg, 1);
    ck_assert_uint_eq(smfw_results_stat(r, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT)->count, 3);
    smfw_results_free(r);

    /* No record compared (counts from the server itself): the metric is absent, not 0. */
    smfw_record *none[] = {counted(100, 100, -1, -1, -1, -1)};
    s = count_of(none, 1, &r);
    ck_assert(!s || !s->present);
    smfw_results_free(r);
}
END_TEST

START_TEST(token_count_source_and_diffs_through_jsonl) {
    smfw_record *rec = counted(19, 39, -1, 21, 37, -1);
    ck_assert_int_eq(smfw_record_set_text(rec, SMFW_RECORD_TOKEN_COUNT_SOURCE, "tokenizer:qwen3"),
                     SMFW_OK);
    char *line = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_record_to_jsonl(rec, &line, &err), SMFW_OK);
    /* smfw's field lives in its own object: AIPerf's metadata keeps AIPerf's keys */
    const char *own = strstr(line, "\"smfw\":{");
    ck_assert_ptr_nonnull(own);
    ck_assert_ptr_nonnull(strstr(own, "\"token_count_source\":\"tokenizer:qwen3\""));
    ck_assert_ptr_nonnull(strstr(
        line, "\"usage_prompt_tokens_diff_pct\":{\"value\":10.526315789473683,\"unit\":\"%\"}"));
    smfw_record *back = smfw_record_new();
    ck_assert_int_eq(smfw_record_from_jsonl(line, strlen(line), back, &err), SMFW_OK);
    ck_assert_str_eq(smfw_record_text(back, SMFW_RECORD_TOKEN_COUNT_SOURCE), "tokenizer:qwen3");
    ck_assert_double_eq(value(back, SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT), 5.128205128205128);
    smfw_record_clear(back);
    free(line);
    smfw_record_free(rec);

    /* An AIPerf record's difference is read as the metric, not kept as an unknown extra. */
    const char *aiperf = "{\"metadata\":{\"turn_index\":0},\"metrics\":{"
                         "\"usage_prompt_tokens_diff_pct\":{\"value\":12.5,\"unit\":\"%\"}}}";
    ck_assert_int_eq(smfw_record_from_jsonl(aiperf, strlen(aiperf), back, &err), SMFW_OK);
    ck_assert_double_eq(value(back, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT), 12.5);
    ck_assert_ptr_null(smfw_record_text(back, SMFW_RECORD_TOKEN_COUNT_SOURCE));
    smfw_record_free(back);
}
END_TEST

int main(void) {
    Suite *s = suite_create("usage_diffs");
    TCase *tc = tcase_create("aiperf");
    tcase_add_test(tc, aiperf_docstring_examples);
    tcase_add_test(tc, no_value_without_both_counts_or_against_zero);
    tcase_add_test(tc, discrepancy_count_as_aiperf_counts);
    tcase_add_test(tc, token_count_source_and_diffs_through_jsonl);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
