/*
 * test_compare.c - per-metric deltas, directions and the regression gate, on
 * synthetic runs built through the results API and on real AIPerf files.
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/compare.h>

#include "smfw_test.h"

/* A run of n requests: TTFT ttft_ms, ITL itl_ms, 100 output tokens, back to back. */
static smfw_results *synthetic_run(size_t n, double ttft_ms, double itl_ms, size_t n_errors) {
    smfw_results *r = smfw_results_new();
    smfw_error err;
    int64_t t = 1700000000000000000LL;
    for (size_t i = 0; i < n + n_errors; i++) {
        smfw_record rec;
        smfw_record_init(&rec);
        char id[32];
        snprintf(id, sizeof id, "req-%zu", i);
        rec.x_request_id = strdup(id);
        rec.request_start_ns = t;
        if (i >= n) {
            smfw_record_set_error(&rec, SMFW_ERRCLASS_UNAVAILABLE, 1, 503, "Service Unavailable",
                                  "busy");
        } else {
            /* a little spread so percentiles differ from the mean */
            double jitter = 1.0 + 0.01 * (double)(i % 5);
            double ttft = ttft_ms * 1e6 * jitter, itl = itl_ms * 1e6;
            smfw_record_set(&rec, SMFW_M_TIME_TO_FIRST_TOKEN, ttft);
            smfw_record_set(&rec, SMFW_M_INTER_TOKEN_LATENCY, itl);
            smfw_record_set(&rec, SMFW_M_REQUEST_LATENCY, ttft + 99 * itl);
            smfw_record_set(&rec, SMFW_M_OUTPUT_SEQUENCE_LENGTH, 100);
            smfw_record_set(&rec, SMFW_M_INPUT_SEQUENCE_LENGTH, 500);
            t += (int64_t)(ttft + 99 * itl);
        }
        ck_assert_int_eq(smfw_results_add_record(r, &rec, &err), SMFW_OK);
    }
    ck_assert_int_eq(smfw_results_compute(r, NULL, 0, &err), SMFW_OK);
    r->info.streaming = 1;
    r->info.concurrency = 1;
    return r;
}

static const smfw_compare_row *row_named(const smfw_compare_result *c, const char *name) {
    for (size_t i = 0; i < c->n_rows; i++)
        if (strcmp(c->rows[i].name, name) == 0) return &c->rows[i];
    return NULL;
}

START_TEST(equal_runs_do_not_regress) {
    smfw_results *a = synthetic_run(50, 100, 10, 0), *b = synthetic_run(50, 100, 10, 0);
    smfw_compare_result *c = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_compare_results(a, b, NULL, 0, 10.0, &c, &err), SMFW_OK);
    ck_assert_uint_eq(c->regressions, 0);
    ck_assert_uint_eq(c->n_rows, 8); /* every default metric is present */
    for (size_t i = 0; i < c->n_rows; i++) {
        ck_assert_double_eq(c->rows[i].delta, 0);
        ck_assert_double_eq(c->rows[i].delta_pct, 0);
    }
    ck_assert_uint_eq(c->n_notes, 0);
    smfw_compare_result_free(c);
    smfw_results_free(a);
    smfw_results_free(b);
}
END_TEST

/* TTFT 25% slower: a regression at 10%, not at 30%; throughput falls, in the right direction. */
START_TEST(slower_run_regresses_by_direction) {
    smfw_results *a = synthetic_run(50, 100, 10, 0), *b = synthetic_run(50, 125, 10, 0);
    smfw_compare_result *c = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_compare_results(a, b, NULL, 0, 10.0, &c, &err), SMFW_OK);
    const smfw_compare_row *ttft = row_named(c, "time_to_first_token_p95");
    ck_assert_ptr_nonnull(ttft);
    ck_assert_double_eq_tol(ttft->delta_pct, 25.0, 1e-9);
    ck_assert_double_eq_tol(ttft->worse_pct, 25.0, 1e-9);
    ck_assert_int_eq(ttft->regressed, 1);
    ck_assert_int_eq(ttft->larger_is_better, 0);
    /* Requests last 100+990 ms vs 125+990 ms: throughput drops by 1 - 1090/1115 = 2.24%. */
    const smfw_compare_row *tps = row_named(c, "output_token_throughput");
    ck_assert_ptr_nonnull(tps);
    ck_assert_int_eq(tps->larger_is_better, 1);
    ck_assert(tps->delta < 0);
    ck_assert(tps->worse_pct > 2.0 && tps->worse_pct < 2.5);
    ck_assert_int_eq(tps->regressed, 0);
    const smfw_compare_row *itl = row_named(c, "inter_token_latency_p50");
    ck_assert_int_eq(itl->regressed, 0);
    ck_assert_uint_eq(c->regressions, 2); /* TTFT p50 and p95; latency and throughput ~2% */
    ck_assert_int_eq(row_named(c, "time_to_first_token_p50")->regressed, 1);
    smfw_compare_result_free(c);
    ck_assert_int_eq(smfw_compare_results(a, b, NULL, 0, 30.0, &c, &err), SMFW_OK);
    ck_assert_uint_eq(c->regressions, 0);
    smfw_compare_result_free(c);
    /* The other way round it is an improvement. */
    ck_assert_int_eq(smfw_compare_results(b, a, NULL, 0, 10.0, &c, &err), SMFW_OK);
    ck_assert_uint_eq(c->regressions, 0);
    ck_assert_int_eq(row_named(c, "time_to_first_token_p95")->improved, 1);
    smfw_compare_result_free(c);
    smfw_results_free(a);
    smfw_results_free(b);
}
END_TEST

START_TEST(chosen_metrics_errors_and_missing_numbers) {
    smfw_results *a = synthetic_run(50, 100, 10, 0), *b = synthetic_run(50, 100, 10, 5);
    smfw_metric_ref m[3];
    smfw_error err;
    ck_assert_int_eq(smfw_metric_ref_parse("error_rate", &m[0], &err), SMFW_OK);
    ck_assert_int_eq(smfw_metric_ref_parse("tps", &m[1], &err), SMFW_OK);
    ck_assert_int_eq(smfw_metric_ref_parse("ttst_p50", &m[2], &err), SMFW_OK);
    smfw_compare_result *c = NULL;
    ck_assert_int_eq(smfw_compare_results(a, b, m, 3, 10.0, &c, &err), SMFW_OK);
    /* error rate 0 -> 5/55: infinitely worse; TTST in neither run: left out */
    ck_assert_uint_eq(c->n_rows, 2);
    ck_assert_int_eq(c->rows[0].regressed, 1);
    ck_assert(isinf(c->rows[0].delta_pct));
    ck_assert_double_eq_tol(c->rows[0].value, 5.0 / 55.0, 1e-15);
    ck_assert_uint_eq(c->regressions, 1);
    smfw_compare_result_free(c);
    /* A number that vanished from the new run fails the gate. */
    b->stats[SMFW_M_OUTPUT_TOKEN_THROUGHPUT].present = 0;
    ck_assert_int_eq(smfw_compare_results(a, b, &m[1], 1, 10.0, &c, &err), SMFW_OK);
    ck_assert_uint_eq(c->regressions, 1);
    ck_assert_int_eq(c->rows[0].have_new, 0);
    char *md = smfw_compare_markdown(c, "base", "new");
    ck_assert_ptr_nonnull(strstr(md, "missing in new run"));
    free(md);
    smfw_compare_result_free(c);
    /* Missing from the base only: shown, no verdict. */
    ck_assert_int_eq(smfw_compare_results(b, a, &m[1], 1, 10.0, &c, &err), SMFW_OK);
    ck_assert_uint_eq(c->regressions, 0);
    smfw_compare_result_free(c);
    ck_assert_int_eq(smfw_compare_results(a, b, NULL, 0, -1.0, &c, &err), SMFW_ERR_USAGE);
    smfw_results_free(a);
    smfw_results_free(b);
}
END_TEST

START_TEST(reports_and_workload_notes) {
    smfw_results *a = synthetic_run(20, 100, 10, 0), *b = synthetic_run(20, 150, 10, 0);
    b->info.concurrency = 8;
    b->info.streaming = 0;
    smfw_compare_result *c = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_compare_results(a, b, NULL, 0, 10.0, &c, &err), SMFW_OK);
    ck_assert_uint_eq(c->n_notes, 2);
    char *md = smfw_compare_markdown(c, "runs/base", "runs/new");
    ck_assert_ptr_nonnull(strstr(md, "| TTFT p95 | ms |"));
    ck_assert_ptr_nonnull(strstr(md, "REGRESSION"));
    ck_assert_ptr_nonnull(strstr(md, "concurrency differs: 1 vs 8"));
    ck_assert_ptr_nonnull(strstr(md, "`runs/base`"));
    free(md);
    char *js = smfw_compare_json(c, "runs/base", "runs/new");
    json_error_t je;
    json_t *root = json_loads(js, 0, &je);
    ck_assert_ptr_nonnull(root);
    ck_assert(json_is_false(json_object_get(root, "passed")));
    ck_assert_int_eq(json_integer_value(json_object_get(root, "regressions")),
                     (json_int_t)c->regressions);
    json_t *rows = json_object_get(root, "metrics");
    ck_assert_uint_eq(json_array_size(rows), c->n_rows);
    json_t *first = json_array_get(rows, 0);
    ck_assert_str_eq(json_string_value(json_object_get(first, "metric")),
                     "time_to_first_token_p50");
    ck_assert_str_eq(json_string_value(json_object_get(first, "direction")), "lower_is_better");
    json_decref(root);
    free(js);
    smfw_compare_result_free(c);
    smfw_results_free(a);
    smfw_results_free(b);
}
END_TEST

/* Real AIPerf bundles: concurrency 1 vs 4 of the same model. */
START_TEST(aiperf_bundles_compare) {
    smfw_results *c1 = smfw_results_new(), *c4 = smfw_results_new();
    smfw_error err;
    ck_assert_msg(smfw_results_load_dir(c1,
                                        smfw_test_data("aiperf/2025-11-qwen3-0.6b-concurrency-"
                                                       "sweep/qwen_concurrency1"),
                                        &err) == SMFW_OK,
                  "%s", err.message);
    ck_assert_msg(smfw_results_load_dir(c4,
                                        smfw_test_data("aiperf/2025-11-qwen3-0.6b-concurrency-"
                                                       "sweep/qwen_concurrency4"),
                                        &err) == SMFW_OK,
                  "%s", err.message);
    smfw_compare_result *c = NULL;
    ck_assert_int_eq(smfw_compare_results(c1, c1, NULL, 0, 0.0, &c, &err), SMFW_OK);
    ck_assert_uint_eq(c->regressions, 0);
    ck_assert_uint_ge(c->n_rows, 7);
    smfw_compare_result_free(c);
    ck_assert_int_eq(smfw_compare_results(c1, c4, NULL, 0, 10.0, &c, &err), SMFW_OK);
    const smfw_compare_row *tps = row_named(c, "output_token_throughput");
    ck_assert_ptr_nonnull(tps);
    ck_assert_double_eq(tps->base, c1->stats[SMFW_M_OUTPUT_TOKEN_THROUGHPUT].avg);
    ck_assert_double_eq(tps->value, c4->stats[SMFW_M_OUTPUT_TOKEN_THROUGHPUT].avg);
    ck_assert(tps->improved); /* four in flight serve more tokens per second */
    smfw_compare_result_free(c);
    smfw_results_free(c1);
    smfw_results_free(c4);
}
END_TEST

int main(void) {
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, equal_runs_do_not_regress);
    tcase_add_test(tc, slower_run_regresses_by_direction);
    tcase_add_test(tc, chosen_metrics_errors_and_missing_numbers);
    tcase_add_test(tc, reports_and_workload_notes);
    tcase_add_test(tc, aiperf_bundles_compare);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
