/*
 * test_run_summary.c - the one console summary of a run (smfw_run_summary_print):
 * its rows, every verdict, and bundle text (title, target, failure reason)
 * escaped so it cannot forge a verdict line.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/app.h>

#include "smfw_test.h"

static void set_single(smfw_results *r, smfw_metric_id id, double v) {
    smfw_stats *s = &r->stats[id];
    s->present = 1;
    s->fields = SMFW_STAT_AVG;
    s->avg = v;
}

/* 90 valid and `errors` failed requests, TTFT with every percentile but p90. */
static smfw_results *run_with(double errors) {
    smfw_results *r = smfw_results_new();
    smfw_stats *t = &r->stats[SMFW_M_TIME_TO_FIRST_TOKEN];
    t->present = 1;
    t->fields = SMFW_STAT_AVG;
    t->avg = 12.5;
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++) {
        t->p[i] = 10.0 + i;
        if (i != SMFW_P90) t->fields |= SMFW_STAT_P_FIRST << i; /* p90 left out */
    }
    set_single(r, SMFW_M_OUTPUT_TOKEN_THROUGHPUT, 1234.567);
    set_single(r, SMFW_M_REQUEST_COUNT, 90);
    if (errors > 0) set_single(r, SMFW_M_ERROR_REQUEST_COUNT, errors);
    return r;
}

static int starts(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The summary as text (caller frees) and its verdict. */
static char *summary(const smfw_results *r, const smfw_run_summary_options *o,
                     smfw_run_verdict *v) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    *v = smfw_run_summary_print(f, r, o);
    fclose(f);
    return text;
}

START_TEST(passed_run_rows_and_folder) {
    smfw_results *r = run_with(0);
    smfw_results_set_string(&r->info.target, "endpoint e1 in us-east-1");
    smfw_run_summary_options o = {0};
    o.results_dir = "smfw-results/run-1";
    smfw_run_verdict v;
    char *t = summary(r, &o, &v);
    ck_assert_int_eq(v, SMFW_RUN_VERDICT_PASSED);
    ck_assert_msg(starts(t, "\nendpoint e1 in us-east-1\n  metric"), "%s", t);
    char want[256];
    snprintf(want, sizeof want, "  %-52s %10s %10s %10s %10s\n", "metric", "avg", "p50", "p90",
             "p99");
    ck_assert_msg(strstr(t, want) != NULL, "%s", t);
    /* p90 absent from the aggregates: "-", never a stale number */
    snprintf(want, sizeof want, "  %-52s %10.2f %10.2f %10s %10.2f\n", "Time to First Token (ms)",
             12.5, 14.0, "-", 18.0);
    ck_assert_msg(strstr(t, want) != NULL, "%s", t);
    snprintf(want, sizeof want, "  %-52s %10.2f\n", "Output Token Throughput (tokens/sec)",
             1234.57);
    ck_assert_msg(strstr(t, want) != NULL, "%s", t);
    ck_assert_ptr_null(strstr(t, "Error Request Count")); /* not in this run: no row */
    ck_assert_ptr_null(strstr(t, "Request Latency"));
    ck_assert_msg(strstr(t, "  validity: passed (error rate 0.00%, gate 1.00%)\n"
                            "  results: smfw-results/run-1\n") != NULL,
                  "%s", t);
    free(t);
    smfw_results_free(r);
}
END_TEST

START_TEST(error_rate_above_the_given_gate_fails) {
    smfw_results *r = run_with(10); /* 10 % errors */
    smfw_run_summary_options o = {0};
    o.title = "Results at concurrency 4 (bundle/concurrency_4)";
    o.description = "merged 2 parts: 100 records";
    o.has_gate = 1;
    o.gate = 0.05;
    smfw_run_verdict v;
    char *t = summary(r, &o, &v);
    ck_assert_int_eq(v, SMFW_RUN_VERDICT_FAILED);
    ck_assert_msg(starts(t, "\nResults at concurrency 4 (bundle/concurrency_4)\n"
                            "  merged 2 parts: 100 records\n  metric"),
                  "%s", t);
    ck_assert_msg(strstr(t, "  validity: FAILED - error rate 10.00% is above the gate of 5.00%\n"
                            "            the metrics above cover the 90 valid requests\n") != NULL,
                  "%s", t);
    ck_assert_ptr_null(strstr(t, "results:"));
    free(t);
    /* The same run against a 20 % gate passes. */
    o.gate = 0.2;
    t = summary(r, &o, &v);
    ck_assert_int_eq(v, SMFW_RUN_VERDICT_PASSED);
    ck_assert_msg(strstr(t, "  validity: passed (error rate 10.00%, gate 20.00%)\n") != NULL, "%s",
                  t);
    free(t);
    smfw_results_free(r);
}
END_TEST

START_TEST(tripped_gate_quotes_the_reason_escaped) {
    smfw_results *r = run_with(0);
    r->info.gate_tripped = 1;
    smfw_results_set_string(&r->info.failure_reason,
                            "bad\x1b[2J\r\n  validity: passed (error rate 0.00%)");
    smfw_results_set_string(&r->info.target, "t\x1b]0;x\x07");
    smfw_run_summary_options o = {0};
    o.title = "Results (b\x1b[1m)";
    smfw_run_verdict v;
    char *t = summary(r, &o, &v);
    ck_assert_int_eq(v, SMFW_RUN_VERDICT_FAILED);
    ck_assert_ptr_null(strchr(t, '\x1b'));
    ck_assert_ptr_null(strchr(t, '\r'));
    ck_assert_ptr_null(strstr(t, "\n  validity: passed"));
    ck_assert_msg(strstr(t, "\nResults (b\\x1b[1m)\n  target: t\\x1b]0;x\\x07\n") != NULL, "%s", t);
    ck_assert_msg(strstr(t, "  validity: FAILED - bad\\x1b[2J") != NULL, "%s", t);
    free(t);
    smfw_results_set_string(&r->info.failure_reason, NULL);
    t = summary(r, NULL, &v);
    ck_assert_msg(strstr(t, "  validity: FAILED - the validity gate tripped\n") != NULL, "%s", t);
    free(t);
    smfw_results_free(r);
}
END_TEST

START_TEST(interrupted_stopped_or_empty_runs_are_not_judged) {
    smfw_results *r = run_with(50); /* would fail the gate if judged */
    smfw_run_summary_options o = {0};
    smfw_run_verdict v;
    o.status = SMFW_ERR_CANCELLED;
    char *t = summary(r, &o, &v);
    ck_assert_int_eq(v, SMFW_RUN_VERDICT_NOT_JUDGED);
    ck_assert_msg(strstr(t, "  validity: not judged - the run was interrupted\n") != NULL, "%s", t);
    ck_assert_msg(strstr(t, "Request Count (requests)") != NULL, "%s", t);
    free(t);
    o.status = SMFW_ERR_NETWORK;
    t = summary(r, &o, &v);
    ck_assert_int_eq(v, SMFW_RUN_VERDICT_NOT_JUDGED);
    ck_assert_msg(strstr(t, "  validity: not judged - the run was stopped before it measured") !=
                      NULL,
                  "%s", t);
    free(t);
    smfw_results_free(r);
    r = smfw_results_new();
    t = summary(r, NULL, &v);
    ck_assert_int_eq(v, SMFW_RUN_VERDICT_NOT_JUDGED);
    ck_assert_str_eq(t, "\nbenchmark results\n  no requests were measured\n"
                        "  validity: not judged - no requests were measured\n");
    free(t);
    smfw_results_free(r);
}
END_TEST

int main(void) {
    Suite *s = suite_create("run_summary");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, passed_run_rows_and_folder);
    tcase_add_test(tc, error_rate_above_the_given_gate_fails);
    tcase_add_test(tc, tripped_gate_quotes_the_reason_escaped);
    tcase_add_test(tc, interrupted_stopped_or_empty_runs_are_not_judged);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
