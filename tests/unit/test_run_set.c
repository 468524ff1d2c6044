/*
 * test_run_set.c - the run set of run_set.h: levels added out of order stay
 * with their own results and folder when the set sorts them, the analysis
 * over the set is the knee of the tutorial's A10G table, the set's price
 * applies when the options give none, and every accessor answers NULL / 0
 * out of range.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/capacity.h>
#include <smfw/run_set.h>

#include "smfw_test.h"

/* A metric with an average and a p95 (the knee reads TTFT p95). */
static void stat_avg_p95(smfw_results *r, smfw_metric_id id, double avg, double p95) {
    smfw_stats *st = smfw_results_stat_edit(r, id);
    smfw_stats_single(st, avg);
    st->p[SMFW_P95] = p95;
    st->fields |= SMFW_STAT_P_FIRST << SMFW_P95;
}

/* A level of the tutorial's table: TTFT p95 and mean latency in s, output tokens/s. */
static smfw_results *level(double load, double ttft_p95_s, double tps, double e2e_avg_s) {
    smfw_results *r = smfw_results_new();
    ck_assert_ptr_nonnull(r);
    stat_avg_p95(r, SMFW_M_TIME_TO_FIRST_TOKEN, ttft_p95_s * 1000, ttft_p95_s * 1000);
    stat_avg_p95(r, SMFW_M_REQUEST_LATENCY, e2e_avg_s * 1000, e2e_avg_s * 1200);
    smfw_stats_single(smfw_results_stat_edit(r, SMFW_M_OUTPUT_TOKEN_THROUGHPUT), tps);
    smfw_stats_single(smfw_results_stat_edit(r, SMFW_M_REQUEST_THROUGHPUT), load / e2e_avg_s);
    smfw_stats_single(smfw_results_stat_edit(r, SMFW_M_REQUEST_COUNT), 100);
    return r;
}

static smfw_run_set *tutorial_set(void) {
    smfw_run_set *s = smfw_run_set_new(NULL, "/tmp/sweep");
    ck_assert_ptr_nonnull(s);
    const double rows[][4] = {{64, 12.0, 305, 30.0},
                              {1, 0.4, 38, 6.0},
                              {8, 0.9, 210, 7.0},
                              {32, 4.8, 310, 14.0},
                              {16, 1.6, 290, 8.0}}; /* unsorted on purpose */
    smfw_error err;
    for (size_t i = 0; i < 5; i++) {
        char dir[64];
        snprintf(dir, sizeof dir, "/tmp/sweep/concurrency_%g", rows[i][0]);
        ck_assert_int_eq(smfw_run_set_add(s, level(rows[i][0], rows[i][1], rows[i][2], rows[i][3]),
                                          rows[i][0], dir, &err),
                         SMFW_OK);
    }
    return s;
}

START_TEST(levels_keep_their_results_and_folders_when_sorted) {
    smfw_run_set *s = tutorial_set();
    ck_assert_uint_eq(smfw_run_set_count(s), 5);
    ck_assert_str_eq(smfw_run_set_mode(s), "concurrency");
    ck_assert_str_eq(smfw_run_set_dir(s), "/tmp/sweep");
    ck_assert_ptr_null(smfw_run_set_instance_type(s));
    smfw_sweep_analysis a;
    smfw_error err;
    ck_assert_int_eq(smfw_run_set_analyze(s, NULL, &a, &err), SMFW_OK);
    const double sorted[] = {1, 8, 16, 32, 64}, tps[] = {38, 210, 290, 310, 305};
    for (size_t i = 0; i < 5; i++) {
        const smfw_sweep_point *p = smfw_run_set_point(s, i);
        ck_assert_double_eq(p->load, sorted[i]);
        /* The point, its results and its folder moved together. */
        ck_assert_ptr_eq(p->results, smfw_run_set_results(s, i));
        ck_assert_double_eq(
            smfw_results_stat(smfw_run_set_results(s, i), SMFW_M_OUTPUT_TOKEN_THROUGHPUT)->avg,
            tps[i]);
        char dir[64];
        snprintf(dir, sizeof dir, "/tmp/sweep/concurrency_%g", sorted[i]);
        ck_assert_str_eq(smfw_run_set_level_dir(s, i), dir);
    }
    /* The knee of test_capacity's table, found through the set: 16. */
    ck_assert_int_eq(a.knee, 2);
    ck_assert_int_eq(a.operating, 2);
    ck_assert_str_eq(smfw_sweep_verdict_name(smfw_run_set_point(s, 2)->verdict), "knee");
    ck_assert_str_eq(smfw_sweep_verdict_name(smfw_run_set_point(s, 4)->verdict), "saturated");
    /* 16 in flight x 60 / 8 s = 120/min, 10% below: 108. */
    ck_assert_double_eq(a.autoscaling.target, 108.0);
    ck_assert(isnan(a.cost_at_operating)); /* no price anywhere */
    smfw_run_set_free(s);
}
END_TEST

START_TEST(the_sets_price_applies_without_one_in_the_options) {
    smfw_run_set *s = tutorial_set();
    s->usd_per_hour = 1.52; /* the program's view (capacity.h): `smfw sweep --instance-type` */
    smfw_sweep_analysis a;
    smfw_error err;
    ck_assert_int_eq(smfw_run_set_analyze(s, NULL, &a, &err), SMFW_OK);
    ck_assert_double_eq_tol(a.cost_at_operating, 1.52 / 290.0 * 1e6 / 3600.0, 1e-12);
    /* A price in the options wins. */
    smfw_sweep_options o;
    memset(&o, 0, sizeof o);
    o.usd_per_hour = 3.04;
    ck_assert_int_eq(smfw_run_set_analyze(s, &o, &a, &err), SMFW_OK);
    ck_assert_double_eq_tol(a.cost_at_operating, 3.04 / 290.0 * 1e6 / 3600.0, 1e-12);
    smfw_run_set_free(s);
}
END_TEST

START_TEST(a_rate_set_analyses_rates) {
    smfw_run_set *s = smfw_run_set_new("request_rate", NULL);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(smfw_run_set_mode(s), "request_rate");
    ck_assert_ptr_null(smfw_run_set_dir(s));
    smfw_error err;
    ck_assert_int_eq(smfw_run_set_add(s, level(2, 0.2, 100, 1.0), 2, NULL, &err), SMFW_OK);
    ck_assert_int_eq(smfw_run_set_add(s, level(4, 0.3, 190, 1.1), 4, NULL, &err), SMFW_OK);
    ck_assert_ptr_null(smfw_run_set_level_dir(s, 0));
    smfw_sweep_analysis a;
    ck_assert_int_eq(smfw_run_set_analyze(s, NULL, &a, &err), SMFW_OK);
    /* Rate sweep: the target is the measured requests/s there (4 / 1.1 per s) x 60, 10% off. */
    ck_assert_int_eq(a.autoscaling.valid, 1);
    ck_assert_double_eq_tol(a.measured_invocations_per_minute,
                            smfw_run_set_point(s, (size_t)a.operating)->request_tps * 60, 1e-9);
    smfw_run_set_free(s);
}
END_TEST

START_TEST(out_of_range_and_null_answer_nothing) {
    smfw_run_set *s = tutorial_set();
    ck_assert_ptr_null(smfw_run_set_results(s, 5));
    ck_assert_ptr_null(smfw_run_set_level_dir(s, 5));
    ck_assert_ptr_null(smfw_run_set_point(s, (size_t)-1));
    ck_assert_uint_eq(smfw_run_set_count(NULL), 0);
    ck_assert_ptr_null(smfw_run_set_results(NULL, 0));
    ck_assert_ptr_null(smfw_run_set_mode(NULL));
    smfw_run_set_free(s);
    smfw_run_set_free(NULL);
}
END_TEST

int main(void) {
    Suite *s = suite_create("run_set");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, levels_keep_their_results_and_folders_when_sorted);
    tcase_add_test(tc, the_sets_price_applies_without_one_in_the_options);
    tcase_add_test(tc, a_rate_set_analyses_rates);
    tcase_add_test(tc, out_of_range_and_null_answer_nothing);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
