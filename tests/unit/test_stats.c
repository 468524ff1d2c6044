/*
 * test_stats.c - AIPerf's statistics reproduced from real AIPerf files:
 * numpy linear percentiles, population std, record rules, per-record
 * formulas, and Python-style float printing.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "smfw_test.h"

START_TEST(percentile_matches_numpy_examples) {
    double v[] = {1, 2, 3, 4};
    /* numpy.percentile([1,2,3,4], [0,25,50,75,99,100]) */
    ck_assert_double_eq_tol(smfw_percentile_linear(v, 4, 0), 1.0, 1e-15);
    ck_assert_double_eq_tol(smfw_percentile_linear(v, 4, 25), 1.75, 1e-15);
    ck_assert_double_eq_tol(smfw_percentile_linear(v, 4, 50), 2.5, 1e-15);
    ck_assert_double_eq_tol(smfw_percentile_linear(v, 4, 75), 3.25, 1e-15);
    ck_assert_double_eq_tol(smfw_percentile_linear(v, 4, 99), 3.97, 1e-15);
    ck_assert_double_eq_tol(smfw_percentile_linear(v, 4, 100), 4.0, 1e-15);
    double one = 5;
    ck_assert_double_eq(smfw_percentile_linear(&one, 1, 90), 5);
}
END_TEST

START_TEST(population_std_not_sample_std) {
    double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
    smfw_stats s;
    ck_assert_int_eq(smfw_stats_compute(v, 8, 1.0, &s), SMFW_OK);
    ck_assert_double_eq_tol(s.avg, 5.0, 1e-15);
    ck_assert_double_eq_tol(s.std, 2.0, 1e-15); /* sample std would be 2.138 */
    ck_assert_uint_eq(s.count, 8);
    ck_assert_double_eq_tol(s.sum, 40.0, 1e-15);
    smfw_stats scaled;
    ck_assert_int_eq(smfw_stats_compute(v, 8, 1e-6, &scaled), SMFW_OK);
    ck_assert_double_eq_tol(scaled.std, 2e-6, 1e-20);
}
END_TEST

static void expect_close(const char *what, double got, double want, double tol) {
    if (smfw_test_reldiff(got, want) > tol)
        ck_abort_msg("%s: got %.17g want %.17g (rel %.3g)", what, got, want,
                     smfw_test_reldiff(got, want));
}

/* Every statistic the AIPerf JSON holds, reproduced from the per-request records (bit for bit:
 * tol 0 here; test_stats_aiperf_bits.c says why each number matches). */
START_TEST(legacy_run_aggregates_recomputed_from_records) {
    const char *dir = smfw_test_data("aiperf/legacy-2025-10-example-run1");
    char path[4096];
    smfw_error err;
    smfw_results *mine = smfw_results_new();
    snprintf(path, sizeof path, "%s/profile_export.jsonl", dir);
    ck_assert_msg(smfw_results_load_jsonl(mine, path, &err) == SMFW_OK, "%s", err.message);
    ck_assert_uint_eq(mine->n_records, 100);
    ck_assert_int_eq(smfw_results_compute(mine, NULL, 0, &err), SMFW_OK);

    smfw_results *theirs = smfw_results_new();
    snprintf(path, sizeof path, "%s/profile_export_aiperf.json", dir);
    ck_assert_msg(smfw_results_load_aiperf_json(theirs, path, &err) == SMFW_OK, "%s", err.message);
    int compared = 0;
    for (int id = 0; id < SMFW_M_COUNT_; id++) {
        const smfw_stats *t = &theirs->stats[id];
        if (!t->present) continue;
        const smfw_stats *m = &mine->stats[id];
        const char *tag = smfw_metric_get((smfw_metric_id)id)->tag;
        ck_assert_msg(m->present, "metric %s missing from the recomputation", tag);
        char what[160];
        snprintf(what, sizeof what, "%s avg", tag);
        expect_close(what, m->avg, t->avg, 0);
        if (t->fields & SMFW_STAT_MIN) {
            snprintf(what, sizeof what, "%s min", tag);
            expect_close(what, m->min, t->min, 0);
            snprintf(what, sizeof what, "%s max", tag);
            expect_close(what, m->max, t->max, 0);
            snprintf(what, sizeof what, "%s std", tag);
            expect_close(what, m->std, t->std, 0);
        }
        for (int p = 0; p < SMFW_PERCENTILE_COUNT; p++) {
            if (!(t->fields & (SMFW_STAT_P_FIRST << p))) continue;
            snprintf(what, sizeof what, "%s %s", tag, smfw_percentile_keys[p]);
            expect_close(what, m->p[p], t->p[p], 0);
        }
        compared++;
    }
    ck_assert_int_ge(compared, 18);
    /* Numbers quoted in aiperf-compat.md §3 for this run. */
    ck_assert_double_eq(mine->stats[SMFW_M_REQUEST_COUNT].avg, 89);
    ck_assert_double_eq(mine->stats[SMFW_M_ERROR_REQUEST_COUNT].avg, 11);
    ck_assert_uint_eq(mine->stats[SMFW_M_INTER_CHUNK_LATENCY].count, 21537);
    ck_assert_uint_eq(mine->stats[SMFW_M_OUTPUT_TOKEN_COUNT].count, 30);
    ck_assert_int_eq(mine->n_errors, 1);
    ck_assert_uint_eq(mine->errors[0].count, 11);
    ck_assert_int_eq(mine->errors[0].code, 499);
    /* 11% errors trips a 1% validity gate. */
    ck_assert_int_eq(mine->info.gate_tripped, 1);
    ck_assert_ptr_nonnull(strstr(mine->info.failure_reason, "(11/100) exceeds maximum 1%"));
    smfw_results_free(mine);
    smfw_results_free(theirs);
}
END_TEST

/* The CSV's printed cells (2 decimals) from the recomputed statistics. */
START_TEST(legacy_run_csv_cells_to_printed_precision) {
    const char *dir = smfw_test_data("aiperf/legacy-2025-10-example-run1");
    char path[4096];
    smfw_error err;
    smfw_results *mine = smfw_results_new();
    snprintf(path, sizeof path, "%s/profile_export.jsonl", dir);
    ck_assert_int_eq(smfw_results_load_jsonl(mine, path, &err), SMFW_OK);
    ck_assert_int_eq(smfw_results_compute(mine, NULL, 0, &err), SMFW_OK);
    snprintf(path, sizeof path, "%s/profile_export_aiperf.csv", dir);
    char *csv = smfw_test_read_file(path, NULL);
    ck_assert_ptr_nonnull(csv);
    /* header: Metric,avg,min,max,p1,p5,p25,p50,p75,p90,p95,p99,std (no p10 in 2025-10) */
    static const int pct_index[] = {0, 1, 3, 4, 5, 6, 7, 8}; /* p1 p5 p25 p50 p75 p90 p95 p99 */
    int rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(csv, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
        char *paren = strstr(line, " (");
        char *comma = strchr(line, ',');
        if (!comma || strncmp(line, "Metric", 6) == 0) continue;
        char header[128];
        size_t hl = (size_t)((paren && paren < comma ? paren : comma) - line);
        memcpy(header, line, hl);
        header[hl] = '\0';
        int id = -1;
        for (int m = 0; m < SMFW_M_COUNT_; m++)
            if (strcmp(smfw_metric_get((smfw_metric_id)m)->header, header) == 0) id = m;
        ck_assert_msg(id >= 0, "unknown CSV row %s", header);
        double cells[16];
        int nc = 0;
        for (char *p = comma; p && nc < 16; p = strchr(p + 1, ',')) cells[nc++] = atof(p + 1);
        const smfw_stats *s = &mine->stats[id];
        char want[64], got[64];
#define CELL(val, idx)                                                                             \
    do {                                                                                           \
        snprintf(got, sizeof got, "%.2f", (val));                                                  \
        snprintf(want, sizeof want, "%.2f", cells[idx]);                                           \
        ck_assert_msg(strcmp(got, want) == 0, "%s cell %d: got %s want %s", header, idx, got,      \
                      want);                                                                       \
    } while (0)
        CELL(s->avg, 0);
        if (nc == 12) {
            CELL(s->min, 1);
            CELL(s->max, 2);
            for (int k = 0; k < 8; k++) CELL(s->p[pct_index[k]], 3 + k);
            CELL(s->std, 11);
        }
        rows++;
    }
    ck_assert_int_eq(rows, 10 + 11);
    free(csv);
    smfw_results_free(mine);
}
END_TEST

/* Per-record derived values of the 2025-11 fixture from their inputs (aiperf-compat §2.2). */
START_TEST(per_record_formulas_reproduce_2025_11_records) {
    const char *runs[] = {"qwen_concurrency1", "qwen_concurrency2", "qwen_concurrency4"};
    for (int r = 0; r < 3; r++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/profile_export.jsonl",
                 smfw_test_data("aiperf/2025-11-qwen3-0.6b-concurrency-sweep"), runs[r]);
        smfw_results *res = smfw_results_new();
        smfw_error err;
        ck_assert_msg(smfw_results_load_jsonl(res, path, &err) == SMFW_OK, "%s", err.message);
        ck_assert_uint_eq(res->n_records, 10);
        for (size_t i = 0; i < res->n_records; i++) {
            const smfw_record *rec = &res->records[i];
            double ttft = rec->values[SMFW_M_TIME_TO_FIRST_TOKEN];
            double lat = rec->values[SMFW_M_REQUEST_LATENCY];
            int64_t start = 1000000000LL;
            int64_t content[2] = {start + llround(ttft), start + llround(lat)};
            smfw_response_timing t = {0};
            t.streaming = 1;
            t.start_mono_ns = start;
            t.content_ns = content;
            t.n_content = 2;
            t.first_output_mono_ns = content[0];
            t.input_tokens = (int64_t)rec->values[SMFW_M_INPUT_SEQUENCE_LENGTH];
            t.output_tokens = (int64_t)rec->values[SMFW_M_OUTPUT_TOKEN_COUNT];
            t.reasoning_tokens = -1;
            t.usage_prompt_tokens = t.usage_completion_tokens = t.usage_total_tokens =
                t.usage_reasoning_tokens = -1;
            smfw_record d;
            smfw_record_init(&d);
            ck_assert_int_eq(smfw_record_derive(&d, &t), SMFW_OK);
            ck_assert_ptr_null(d.error);
            expect_close("inter_token_latency", d.values[SMFW_M_INTER_TOKEN_LATENCY],
                         rec->values[SMFW_M_INTER_TOKEN_LATENCY], 1e-8);
            expect_close("output_token_throughput_per_user",
                         d.values[SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER],
                         rec->values[SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER], 1e-8);
            expect_close("prefill_throughput", d.values[SMFW_M_PREFILL_THROUGHPUT_PER_USER],
                         rec->values[SMFW_M_PREFILL_THROUGHPUT_PER_USER], 1e-8);
            ck_assert_double_eq(d.values[SMFW_M_OUTPUT_SEQUENCE_LENGTH],
                                rec->values[SMFW_M_OUTPUT_SEQUENCE_LENGTH]);
            /* ICL holds one gap per content chunk after the first. */
            ck_assert_uint_eq(rec->icl_len + 1, (size_t)rec->values[SMFW_M_OUTPUT_SEQUENCE_LENGTH]);
            smfw_record_clear(&d);
        }
        smfw_results_free(res);
    }
}
END_TEST

START_TEST(no_content_is_an_invalid_record) {
    smfw_response_timing t = {0};
    t.streaming = 1;
    t.start_mono_ns = 5;
    t.input_tokens = 42;
    t.output_tokens = t.reasoning_tokens = -1;
    smfw_record d;
    smfw_record_init(&d);
    ck_assert_int_eq(smfw_record_derive(&d, &t), SMFW_OK);
    ck_assert_ptr_nonnull(d.error);
    ck_assert_int_eq(d.error->error_class, SMFW_ERRCLASS_INVALID);
    ck_assert_str_eq(d.error->type, "InvalidInferenceResultError");
    ck_assert_double_eq(d.values[SMFW_M_ERROR_ISL], 42);
    smfw_record_clear(&d);
}
END_TEST

START_TEST(format_double_matches_python_repr) {
    struct {
        double v;
        const char *repr;
    } cases[] = {{64.0, "64.0"},
                 {1.7625515347970678e+18, "1.7625515347970678e+18"},
                 {3652.1454372343746, "3652.1454372343746"},
                 {0.1, "0.1"},
                 {1e-05, "1e-05"},
                 {0.0001, "0.0001"},
                 {1e16, "1e+16"},
                 {123456789012345.0, "123456789012345.0"},
                 {-2.5, "-2.5"},
                 {18.153352603015076, "18.153352603015076"},
                 {0.0, "0.0"}};
    char buf[40];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_str_eq(smfw_format_double(cases[i].v, buf), cases[i].repr);
}
END_TEST

START_TEST(jsonl_round_trip_keeps_every_field) {
    smfw_record r;
    smfw_record_init(&r);
    r.session_num = 3;
    r.x_request_id = strdup("req-1");
    r.turn_index = 0;
    r.request_start_ns = 1762551534797067827LL;
    r.request_end_ns = 1762551538441354976LL;
    r.intended_start_ns = 1762551534797000000LL;
    smfw_record_set(&r, SMFW_M_TIME_TO_FIRST_TOKEN, 31742934);
    smfw_record_set(&r, SMFW_M_REQUEST_LATENCY, 3644260102);
    smfw_record_set(&r, SMFW_M_OUTPUT_SEQUENCE_LENGTH, 200);
    smfw_record_set(&r, SMFW_M_SCHEDULE_LAG, 67827);
    r.icl = malloc(2 * sizeof *r.icl);
    r.icl[0] = 17868007;
    r.icl[1] = 0;
    r.icl_len = 2;
    char *line = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_record_to_jsonl(&r, &line, &err), SMFW_OK);
    /* ns x 1e-6, as AIPerf writes every ms value (464664101 ns is 464.66410099999996 in the
     * legacy fixture), not ns / 1e6 (which would print 31.742934 here). */
    ck_assert_ptr_nonnull(
        strstr(line, "\"time_to_first_token\":{\"value\":31.742933999999998,\"unit\":\"ms\"}"));
    ck_assert_ptr_nonnull(
        strstr(line, "\"output_sequence_length\":{\"value\":200,\"unit\":\"tokens\"}"));
    ck_assert_ptr_nonnull(
        strstr(line, "\"inter_chunk_latency\":{\"value\":[17.868007,0.0],\"unit\":\"ms\"}"));
    smfw_record back;
    ck_assert_int_eq(smfw_record_from_jsonl(line, strlen(line), &back, &err), SMFW_OK);
    ck_assert_str_eq(back.x_request_id, "req-1");
    ck_assert_int_eq(back.request_start_ns, r.request_start_ns);
    ck_assert_int_eq(back.intended_start_ns, r.intended_start_ns);
    /* Whole ns come back exactly (the reader takes the ns that converts to the file's value). */
    ck_assert_double_eq(back.values[SMFW_M_TIME_TO_FIRST_TOKEN], 31742934);
    ck_assert_double_eq(back.values[SMFW_M_SCHEDULE_LAG], 67827);
    ck_assert_double_eq(back.values[SMFW_M_REQUEST_LATENCY], 3644260102);
    ck_assert_double_eq(back.icl[0], 17868007);
    ck_assert_uint_eq(back.icl_len, 2);
    free(line);
    smfw_record_clear(&back);
    smfw_record_set_error(&r, SMFW_ERRCLASS_THROTTLED, 1, 400, "ThrottlingException", "slow down");
    ck_assert_int_eq(smfw_record_to_jsonl(&r, &line, &err), SMFW_OK);
    ck_assert_int_eq(smfw_record_from_jsonl(line, strlen(line), &back, &err), SMFW_OK);
    ck_assert_int_eq(back.error->error_class, SMFW_ERRCLASS_THROTTLED);
    ck_assert_int_eq(back.error->code, 400);
    free(line);
    smfw_record_clear(&back);
    smfw_record_clear(&r);
}
END_TEST

START_TEST(bad_jsonl_line_names_file_and_line) {
    char *dir = smfw_test_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export.jsonl", dir);
    smfw_test_write_file(path, "{\"metadata\":{},\"metrics\":{}}\n{not json\n");
    smfw_results *r = smfw_results_new();
    smfw_error err;
    ck_assert_int_eq(smfw_results_load_jsonl(r, path, &err), SMFW_ERR_PROTOCOL);
    ck_assert_ptr_nonnull(strstr(err.message, "profile_export.jsonl:2"));
    smfw_results_free(r);
    smfw_test_rmtree(dir);
    free(dir);
}
END_TEST

int main(void) {
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, percentile_matches_numpy_examples);
    tcase_add_test(tc, population_std_not_sample_std);
    tcase_add_test(tc, legacy_run_aggregates_recomputed_from_records);
    tcase_add_test(tc, legacy_run_csv_cells_to_printed_precision);
    tcase_add_test(tc, per_record_formulas_reproduce_2025_11_records);
    tcase_add_test(tc, no_content_is_an_invalid_record);
    tcase_add_test(tc, format_double_matches_python_repr);
    tcase_add_test(tc, jsonl_round_trip_keeps_every_field);
    tcase_add_test(tc, bad_jsonl_line_names_file_and_line);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
