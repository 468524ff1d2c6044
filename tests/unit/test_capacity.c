/*
 * test_capacity.c - capacity math against hand computation: cost per million
 * tokens, the autoscaling target, the knee and the verdicts of the tutorial's
 * A10G table, SLOs, metric references, the price table and the shard split.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/capacity.h>
#include <smfw/shard.h>

#include "smfw_test.h"

/* Hand computation: 1.52 $/h / 290 tok/s = 0.0052414 $/tok-hour ... * 1e6 / 3600 = 1.45594 $. */
START_TEST(cost_per_million_tokens_matches_hand_computation) {
    ck_assert_double_eq_tol(smfw_cost_per_million_tokens(1.52, 290.0, 1.0), 1.4559386973180077,
                            1e-12);
    /* The tutorial rounds this to "roughly $1.46". */
    ck_assert_double_eq_tol(round(smfw_cost_per_million_tokens(1.52, 290.0, 1.0) * 100) / 100, 1.46,
                            1e-12);
    /* Duty cycle 0.3: the same instance is busy 30% of the time -> 1/0.3 times the cost. */
    ck_assert_double_eq_tol(smfw_cost_per_million_tokens(1.52, 290.0, 0.3), 4.853128991060026,
                            1e-12);
    /* 1 $/h at 1e6/3600 tok/s is exactly 1 $ per million tokens. */
    ck_assert_double_eq_tol(smfw_cost_per_million_tokens(1.0, 1e6 / 3600.0, 1.0), 1.0, 1e-12);
    ck_assert(isnan(smfw_cost_per_million_tokens(1.52, 0.0, 1.0)));
    ck_assert(isnan(smfw_cost_per_million_tokens(0.0, 290.0, 1.0)));
    ck_assert(isnan(smfw_cost_per_million_tokens(1.52, 290.0, 0.0)));
    ck_assert(isnan(smfw_cost_per_million_tokens(1.52, 290.0, 1.5)));
}
END_TEST

/* Tutorial: 16 concurrent requests of 8 s each = 120 invocations/min; 10% below -> 108. */
START_TEST(autoscaling_target_matches_hand_computation) {
    smfw_autoscaling a;
    smfw_autoscaling_compute(16, 8.0, 0.10, &a);
    ck_assert_int_eq(a.valid, 1);
    ck_assert_double_eq_tol(a.invocations_per_minute, 120.0, 1e-12);
    ck_assert_double_eq(a.target, 108.0);
    smfw_autoscaling_compute(16, 8.0, 0.0, &a);
    ck_assert_double_eq(a.target, 120.0);
    /* 10 in flight, 3 s each: 200/min; 25% headroom: 150. */
    smfw_autoscaling_compute(10, 3.0, 0.25, &a);
    ck_assert_double_eq_tol(a.invocations_per_minute, 200.0, 1e-12);
    ck_assert_double_eq(a.target, 150.0);
    /* Floors, never rounds up past the limit: 7 * 60 / 9 = 46.67 -> 0.9 * = 42.0 -> 42. */
    smfw_autoscaling_compute(7, 9.0, 0.10, &a);
    ck_assert_double_eq(a.target, 42.0);
    smfw_autoscaling_compute(0, 8.0, 0.10, &a);
    ck_assert_int_eq(a.valid, 0);
    smfw_autoscaling_compute(4, 0.0, 0.10, &a);
    ck_assert_int_eq(a.valid, 0);
}
END_TEST

static smfw_sweep_point point(double load, double ttft_p95_s, double tps, double e2e_avg_s) {
    smfw_sweep_point p;
    memset(&p, 0, sizeof p);
    p.load = load;
    p.ttft_p50_ms = p.ttft_p95_ms = ttft_p95_s * 1000;
    p.itl_p50_ms = NAN;
    p.e2e_avg_ms = p.e2e_p50_ms = e2e_avg_s * 1000;
    p.e2e_p95_ms = e2e_avg_s * 1200;
    p.output_tps = tps;
    p.request_tps = load / e2e_avg_s;
    p.requests = 100;
    return p;
}

/* The tutorial's A10G / 8B model table: the knee is 16, with the verdicts it gives. */
START_TEST(knee_and_verdicts_of_the_tutorial_table) {
    smfw_sweep_point pts[] = {point(64, 12.0, 305, 30.0), point(1, 0.4, 38, 6.0),
                              point(8, 0.9, 210, 7.0), point(32, 4.8, 310, 14.0),
                              point(16, 1.6, 290, 8.0)}; /* unsorted on purpose */
    smfw_sweep_options o;
    memset(&o, 0, sizeof o);
    o.usd_per_hour = 1.52;
    smfw_sweep_analysis a;
    smfw_error err;
    ck_assert_int_eq(smfw_sweep_analyze(pts, 5, &o, &a, &err), SMFW_OK);
    ck_assert_double_eq(pts[0].load, 1);
    ck_assert_double_eq(pts[4].load, 64);
    ck_assert_int_eq(a.knee, 2);
    ck_assert_double_eq(pts[a.knee].load, 16);
    ck_assert_int_eq(a.operating, 2);
    ck_assert_int_eq(a.slo_best, -2);
    ck_assert_str_eq(smfw_sweep_verdict_name(pts[0].verdict), "idle");
    ck_assert_str_eq(smfw_sweep_verdict_name(pts[1].verdict), "healthy");
    ck_assert_str_eq(smfw_sweep_verdict_name(pts[2].verdict), "knee");
    ck_assert_str_eq(smfw_sweep_verdict_name(pts[3].verdict), "queueing");
    ck_assert_str_eq(smfw_sweep_verdict_name(pts[4].verdict), "saturated");
    /* Gains per doubling by hand: (210/38)^(1/3)-1, 290/210-1, 310/290-1, 305/310-1. */
    ck_assert_double_eq_tol(pts[0].gain_per_doubling, cbrt(210.0 / 38.0) - 1, 1e-12);
    ck_assert_double_eq_tol(pts[1].gain_per_doubling, 290.0 / 210.0 - 1, 1e-12);
    ck_assert_double_eq_tol(pts[2].gain_per_doubling, 310.0 / 290.0 - 1, 1e-12);
    ck_assert_double_eq_tol(pts[3].gain_per_doubling, 305.0 / 310.0 - 1, 1e-12);
    ck_assert(isnan(pts[4].gain_per_doubling));
    /* Cost at the knee: 1.52 / 290 * 1e6 / 3600. */
    ck_assert_double_eq_tol(a.cost_at_operating, 1.4559386973180077, 1e-12);
    ck_assert_double_eq_tol(pts[3].cost_per_mtok, 1.52 / 310.0 * 1e6 / 3600.0, 1e-12);
    /* Autoscaling at the knee: 16 in flight x 60 / 8 s = 120/min, target 108. */
    ck_assert_int_eq(a.autoscaling.valid, 1);
    ck_assert_double_eq_tol(a.autoscaling.invocations_per_minute, 120.0, 1e-12);
    ck_assert_double_eq(a.autoscaling.target, 108.0);
    ck_assert_double_eq_tol(a.measured_invocations_per_minute, 16.0 / 8.0 * 60.0, 1e-12);
}
END_TEST

START_TEST(knee_threshold_is_configurable) {
    smfw_sweep_point pts[] = {point(1, 0.4, 38, 6.0), point(8, 0.9, 210, 7.0),
                              point(16, 1.6, 290, 8.0), point(32, 4.8, 310, 14.0),
                              point(64, 12.0, 305, 30.0)};
    smfw_sweep_options o;
    memset(&o, 0, sizeof o);
    o.knee_gain = 0.40; /* 8 -> 16 gained 38% per doubling: below 40%, so the knee is 8 */
    smfw_sweep_analysis a;
    smfw_error err;
    ck_assert_int_eq(smfw_sweep_analyze(pts, 5, &o, &a, &err), SMFW_OK);
    ck_assert_double_eq(pts[a.knee].load, 8);
    ck_assert(isnan(a.cost_at_operating)); /* no price given */
}
END_TEST

/* A single flat step followed by more growth is noise, not the knee. */
START_TEST(one_flat_step_is_not_a_knee) {
    smfw_sweep_point pts[] = {point(1, 0.1, 100, 1.0), point(2, 0.12, 190, 1.0),
                              point(4, 0.14, 195, 1.0), point(8, 0.2, 700, 1.0),
                              point(16, 0.9, 720, 2.0)};
    smfw_sweep_analysis a;
    smfw_error err;
    ck_assert_int_eq(smfw_sweep_analyze(pts, 5, NULL, &a, &err), SMFW_OK);
    ck_assert_int_eq(a.knee, 3);
    ck_assert_str_eq(smfw_sweep_verdict_name(pts[2].verdict), "healthy");
}
END_TEST

START_TEST(no_knee_means_a_lower_bound) {
    smfw_sweep_point pts[] = {point(1, 0.1, 100, 1.0), point(2, 0.11, 200, 1.0),
                              point(4, 0.12, 390, 1.0)};
    smfw_sweep_analysis a;
    smfw_error err;
    ck_assert_int_eq(smfw_sweep_analyze(pts, 3, NULL, &a, &err), SMFW_OK);
    ck_assert_int_eq(a.knee, -1);
    ck_assert_int_eq(a.operating, 2);
    ck_assert_ptr_nonnull(strstr(a.operating_why, "lower bound"));
    /* Flat throughput but flat latency too: a client limit, not a knee. */
    smfw_sweep_point flat[] = {point(1, 0.1, 100, 1.0), point(2, 0.1, 101, 1.0)};
    ck_assert_int_eq(smfw_sweep_analyze(flat, 2, NULL, &a, &err), SMFW_OK);
    ck_assert_int_eq(a.knee, -1);
    /* The same level twice is refused. */
    smfw_sweep_point twice[] = {point(4, 0.1, 100, 1.0), point(4, 0.1, 101, 1.0)};
    ck_assert_int_eq(smfw_sweep_analyze(twice, 2, NULL, &a, &err), SMFW_ERR_USAGE);
}
END_TEST

START_TEST(errors_make_a_level_saturated) {
    smfw_sweep_point pts[] = {point(1, 0.1, 100, 1.0), point(2, 0.2, 190, 1.0),
                              point(4, 0.5, 200, 2.0), point(8, 2.0, 205, 4.0)};
    pts[3].errors = 10; /* 10 of 110: 9% > 1% */
    smfw_sweep_analysis a;
    smfw_error err;
    ck_assert_int_eq(smfw_sweep_analyze(pts, 4, NULL, &a, &err), SMFW_OK);
    ck_assert_int_eq(a.knee, 1);
    ck_assert_str_eq(smfw_sweep_verdict_name(pts[3].verdict), "saturated");
}
END_TEST

static smfw_results *results_with(double ttft_p95, double e2e_p95, double tps) {
    smfw_results *r = smfw_results_new();
    smfw_stats *t = &r->stats[SMFW_M_TIME_TO_FIRST_TOKEN];
    t->present = 1;
    t->fields = SMFW_STAT_AVG | (SMFW_STAT_P_FIRST << SMFW_P50) | (SMFW_STAT_P_FIRST << SMFW_P95);
    t->avg = t->p[SMFW_P50] = ttft_p95 / 2;
    t->p[SMFW_P95] = ttft_p95;
    smfw_stats *e = &r->stats[SMFW_M_REQUEST_LATENCY];
    e->present = 1;
    e->fields = SMFW_STAT_AVG | (SMFW_STAT_P_FIRST << SMFW_P50) | (SMFW_STAT_P_FIRST << SMFW_P95);
    e->avg = e->p[SMFW_P50] = e2e_p95 * 0.8;
    e->p[SMFW_P95] = e2e_p95;
    smfw_stats_single(&r->stats[SMFW_M_OUTPUT_TOKEN_THROUGHPUT], tps);
    smfw_stats_single(&r->stats[SMFW_M_REQUEST_THROUGHPUT], tps / 100);
    smfw_stats_single(&r->stats[SMFW_M_REQUEST_COUNT], 100);
    return r;
}

START_TEST(slo_parse_and_check) {
    smfw_slo *slos = NULL;
    size_t n = 0;
    smfw_error err;
    ck_assert_int_eq(smfw_slo_parse_list("ttft_p95=2000ms, e2e_p95<=10s", &slos, &n, &err),
                     SMFW_OK);
    ck_assert_int_eq(smfw_slo_parse_list("tps>=100,error_rate=1%,itl_p50:0.5s", &slos, &n, &err),
                     SMFW_OK);
    ck_assert_uint_eq(n, 5);
    ck_assert_int_eq(slos[0].ref.metric, SMFW_M_TIME_TO_FIRST_TOKEN);
    ck_assert_int_eq(slos[0].ref.stat, SMFW_STAT_REF_P95);
    ck_assert_double_eq(slos[0].threshold, 2000);
    ck_assert_int_eq(slos[1].ref.metric, SMFW_M_REQUEST_LATENCY);
    ck_assert_double_eq(slos[1].threshold, 10000);
    ck_assert_int_eq(slos[2].ref.metric, SMFW_M_OUTPUT_TOKEN_THROUGHPUT);
    ck_assert_double_eq(slos[3].threshold, 0.01);
    ck_assert_double_eq(slos[4].threshold, 500);
    smfw_results *ok = results_with(1500, 9000, 300);
    smfw_results *slow = results_with(2412.5, 9000, 300);
    char why[128];
    ck_assert_int_eq(smfw_slo_check(ok, slos, 2, why, sizeof why), 1);
    ck_assert_int_eq(smfw_slo_check(slow, slos, 2, why, sizeof why), 0);
    ck_assert_str_eq(why, "time_to_first_token_p95 2412.5 > 2000");
    /* itl_p50 is not measured in these results: the SLO fails rather than passes. */
    ck_assert_int_eq(smfw_slo_check(ok, slos, 5, why, sizeof why), 0);
    ck_assert_ptr_nonnull(strstr(why, "not measured"));
    free(slos);
    slos = NULL;
    n = 0;
    ck_assert_int_eq(smfw_slo_parse_list("ttft_p95>=2000", &slos, &n, &err), SMFW_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(err.message, "maximum"));
    ck_assert_int_eq(smfw_slo_parse_list("ttft_p95=2h", &slos, &n, &err), SMFW_ERR_USAGE);
    ck_assert_int_eq(smfw_slo_parse_list("error_rate=5", &slos, &n, &err), SMFW_ERR_USAGE);
    ck_assert_int_eq(smfw_slo_parse_list("bogus_p95=1", &slos, &n, &err), SMFW_ERR_USAGE);
    ck_assert_int_eq(smfw_slo_parse_list("ttft", &slos, &n, &err), SMFW_ERR_USAGE);
    free(slos);
    smfw_results_free(ok);
    smfw_results_free(slow);
}
END_TEST

/* With an SLO on TTFT p95 the recommendation drops to the SLO level when that is lower. */
START_TEST(slo_level_lowers_the_operating_point) {
    double loads[] = {1, 8, 16, 32, 64}, ttft[] = {400, 900, 1600, 4800, 12000},
           tps[] = {38, 210, 290, 310, 305}, e2e[] = {6, 7, 8, 14, 30};
    smfw_results *res[5];
    smfw_sweep_point pts[5];
    for (int i = 0; i < 5; i++) {
        res[i] = results_with(ttft[i], e2e[i] * 1200, tps[i]);
        smfw_sweep_point_from_results(res[i], loads[i], &pts[i]);
        ck_assert_double_eq(pts[i].ttft_p95_ms, ttft[i]);
    }
    smfw_slo *slos = NULL;
    size_t n = 0;
    smfw_error err;
    ck_assert_int_eq(smfw_slo_parse_list("ttft_p95=1000ms", &slos, &n, &err), SMFW_OK);
    smfw_sweep_options o;
    memset(&o, 0, sizeof o);
    o.slos = slos;
    o.n_slos = n;
    smfw_sweep_analysis a;
    ck_assert_int_eq(smfw_sweep_analyze(pts, 5, &o, &a, &err), SMFW_OK);
    ck_assert_int_eq(a.knee, 2);
    ck_assert_int_eq(a.slo_best, 1);
    ck_assert_int_eq(a.operating, 1);
    ck_assert_int_eq(pts[1].meets_slo, 1);
    ck_assert_int_eq(pts[2].meets_slo, 0);
    /* 8 in flight, mean latency 0.8 * 7 * 1.2 s = 6.72 s: 8 * 60 / 6.72 = 71.43/min -> 64. */
    ck_assert_double_eq_tol(a.autoscaling.invocations_per_minute, 8 * 60 / 6.72, 1e-9);
    ck_assert_double_eq(a.autoscaling.target, 64.0);
    /* An SLO no level meets: no recommendation at all. */
    free(slos);
    slos = NULL;
    n = 0;
    ck_assert_int_eq(smfw_slo_parse_list("ttft_p95=100", &slos, &n, &err), SMFW_OK);
    o.slos = slos;
    o.n_slos = n;
    ck_assert_int_eq(smfw_sweep_analyze(pts, 5, &o, &a, &err), SMFW_OK);
    ck_assert_int_eq(a.slo_best, -1);
    ck_assert_int_eq(a.operating, -1);
    ck_assert_int_eq(a.autoscaling.valid, 0);
    free(slos);
    for (int i = 0; i < 5; i++) smfw_results_free(res[i]);
}
END_TEST

START_TEST(metric_references) {
    smfw_metric_ref r;
    smfw_error err;
    char buf[96];
    ck_assert_int_eq(smfw_metric_ref_parse("ttft_p95", &r, &err), SMFW_OK);
    ck_assert_str_eq(smfw_metric_ref_name(&r, buf, sizeof buf), "time_to_first_token_p95");
    ck_assert_str_eq(smfw_metric_ref_label(&r, buf, sizeof buf), "TTFT p95");
    ck_assert_int_eq(smfw_metric_ref_larger_is_better(&r), 0);
    ck_assert_int_eq(smfw_metric_ref_parse("time_to_first_token:p99", &r, &err), SMFW_OK);
    ck_assert_int_eq(r.stat, SMFW_STAT_REF_P99);
    ck_assert_int_eq(smfw_metric_ref_parse("request_latency.avg", &r, &err), SMFW_OK);
    ck_assert_int_eq(r.metric, SMFW_M_REQUEST_LATENCY);
    ck_assert_int_eq(smfw_metric_ref_parse("inter_token_latency_p50", &r, &err), SMFW_OK);
    ck_assert_int_eq(r.metric, SMFW_M_INTER_TOKEN_LATENCY);
    ck_assert_int_eq(smfw_metric_ref_parse("output_token_throughput", &r, &err), SMFW_OK);
    ck_assert_int_eq(r.stat, SMFW_STAT_REF_AVG);
    ck_assert_int_eq(smfw_metric_ref_larger_is_better(&r), 1);
    ck_assert_int_eq(smfw_metric_ref_parse("output_token_throughput_per_user_p50", &r, &err),
                     SMFW_OK);
    ck_assert_int_eq(r.metric, SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER);
    ck_assert_int_eq(r.stat, SMFW_STAT_REF_P50);
    ck_assert_int_eq(smfw_metric_ref_parse("TPS", &r, &err), SMFW_OK);
    ck_assert_int_eq(r.metric, SMFW_M_OUTPUT_TOKEN_THROUGHPUT);
    ck_assert_int_eq(smfw_metric_ref_parse("errors", &r, &err), SMFW_OK);
    ck_assert_int_eq(r.metric, SMFW_METRIC_REF_ERROR_RATE);
    ck_assert_int_eq(smfw_metric_ref_larger_is_better(&r), 0);
    ck_assert_int_eq(smfw_metric_ref_parse("output_token_throughput_p95", &r, &err),
                     SMFW_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(err.message, "single value"));
    ck_assert_int_eq(smfw_metric_ref_parse("nonsense", &r, &err), SMFW_ERR_USAGE);
    ck_assert_int_eq(smfw_metric_ref_parse("ttft_p42", &r, &err), SMFW_ERR_USAGE);
    ck_assert_int_eq(smfw_metric_ref_parse("", &r, &err), SMFW_ERR_USAGE);
}
END_TEST

START_TEST(bundled_price_table) {
    char path[4096];
    snprintf(path, sizeof path, "%s/conf/prices.conf", SMFW_SOURCE_DIR);
    smfw_price_table *t = NULL;
    smfw_error err;
    ck_assert_msg(smfw_price_table_load(path, &t, &err) == SMFW_OK, "%s", err.message);
    double usd = 0;
    ck_assert_int_eq(smfw_price_table_lookup(t, "ml.g5.2xlarge", NULL, &usd, &err), SMFW_OK);
    ck_assert_double_eq(usd, 1.515);
    ck_assert_int_eq(smfw_price_table_lookup(t, "ml.g5.2xlarge", "us-west-2", &usd, &err), SMFW_OK);
    ck_assert_double_eq(usd, 1.515);
    ck_assert_int_eq(smfw_price_table_lookup(t, "ml.inf2.xlarge", "us-east-1", &usd, &err),
                     SMFW_OK);
    ck_assert_double_eq(usd, 0.99);
    ck_assert_int_eq(smfw_price_table_lookup(t, "ml.x9.huge", NULL, &usd, &err),
                     SMFW_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(err.message, "ml.g5.2xlarge"));
    ck_assert_ptr_nonnull(strstr(err.message, "--price-per-hour"));
    ck_assert_int_eq(smfw_price_table_lookup(t, "ml.g5.2xlarge", "mars-north-1", &usd, &err),
                     SMFW_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(smfw_price_table_as_of(t));
    ck_assert_ptr_nonnull(smfw_price_table_source(t));
    smfw_price_table_free(t);
    /* The default path resolves to the same file from a build tree. */
    char dflt[4096];
    smfw_price_table_default_path(dflt, sizeof dflt);
    ck_assert_ptr_nonnull(strstr(dflt, "prices.conf"));
}
END_TEST

START_TEST(price_table_errors_name_file_and_line) {
    char *dir = smfw_test_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/p.conf", dir);
    smfw_price_table *t = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_test_write_file(path, "[table]\nas_of = x\n\n[eu-west-1]\nml.g5.xlarge = "
                                                "1.6 # mine\nml.g5.2xlarge = cheap\n"),
                     0);
    ck_assert_int_eq(smfw_price_table_load(path, &t, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "p.conf:6"));
    ck_assert_int_eq(smfw_test_write_file(path, "ml.g5.xlarge = 1\n"), 0);
    ck_assert_int_eq(smfw_price_table_load(path, &t, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "p.conf:1"));
    ck_assert_int_eq(smfw_test_write_file(path, "[eu-west-1]\nml.a = 1\nml.a = 2\n"), 0);
    ck_assert_int_eq(smfw_price_table_load(path, &t, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "twice"));
    ck_assert_int_eq(smfw_test_write_file(path, "[table]\ndefault_region = eu-west-1\n"
                                                "[eu-west-1]\nml.g5.xlarge = 1.6 # mine\n"),
                     0);
    ck_assert_msg(smfw_price_table_load(path, &t, &err) == SMFW_OK, "%s", err.message);
    double usd;
    ck_assert_int_eq(smfw_price_table_lookup(t, "ml.g5.xlarge", NULL, &usd, &err), SMFW_OK);
    ck_assert_double_eq(usd, 1.6);
    smfw_price_table_free(t);
    snprintf(path, sizeof path, "%s/missing.conf", dir);
    ck_assert_int_eq(smfw_price_table_load(path, &t, &err), SMFW_ERR_IO);
    smfw_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(shard_split_covers_every_request_once) {
    smfw_shard s;
    smfw_error err;
    ck_assert_int_eq(smfw_shard_parse(NULL, &s, &err), SMFW_OK);
    ck_assert_uint_eq(s.count, 1);
    ck_assert_int_eq(smfw_shard_parse(" 2 / 3", &s, &err), SMFW_OK);
    ck_assert_uint_eq(s.index, 2);
    ck_assert_uint_eq(s.count, 3);
    char buf[16];
    ck_assert_str_eq(smfw_shard_format(&s, buf, sizeof buf), "2/3");
    ck_assert_int_eq(smfw_shard_parse("0/3", &s, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "numbered from 1"));
    ck_assert_int_eq(smfw_shard_parse("4/3", &s, &err), SMFW_ERR_CONFIG);
    ck_assert_int_eq(smfw_shard_parse("1/", &s, &err), SMFW_ERR_CONFIG);
    ck_assert_int_eq(smfw_shard_parse("a/b", &s, &err), SMFW_ERR_CONFIG);
    ck_assert_int_eq(smfw_shard_parse("1/3x", &s, &err), SMFW_ERR_CONFIG);
    for (uint32_t n = 1; n <= 7; n++) {
        for (uint64_t total = 0; total <= 40; total++) {
            unsigned char seen[64] = {0};
            uint64_t sum = 0;
            for (uint32_t i = 1; i <= n; i++) {
                smfw_shard sh = {i, n};
                uint64_t share = smfw_shard_share(&sh, total);
                sum += share;
                for (uint64_t k = 0; k < share; k++) {
                    uint64_t g = smfw_shard_global_index(&sh, k);
                    ck_assert_uint_lt(g, total);
                    ck_assert(smfw_shard_owns(&sh, g));
                    ck_assert_int_eq(seen[g], 0);
                    seen[g] = 1;
                }
            }
            ck_assert_uint_eq(sum, total);
        }
    }
    smfw_shard third = {3, 4};
    ck_assert_double_eq(smfw_shard_rate(&third, 10.0), 2.5);
    ck_assert_uint_eq(smfw_shard_share(&third, 10), 2); /* 3, 3, 2, 2 */
}
END_TEST

/* The SLO knee: the level before the first one under the attainment, not the highest
 * passing level; a tripped gate misses; no goodput anywhere is -2. */
START_TEST(slo_knee_is_the_level_before_the_first_miss) {
    double loads[] = {1, 2, 4, 8, 16}, good[] = {100, 95, 80, 96, 10};
    smfw_results *res[5];
    smfw_sweep_point pts[5];
    for (int i = 0; i < 5; i++) {
        res[i] = results_with(100, 1000, 100 * loads[i]);
        smfw_sweep_point_from_results(res[i], loads[i], &pts[i]);
    }
    ck_assert_int_eq(smfw_sweep_slo_knee(pts, 5, 0.9), -2);
    for (int i = 0; i < 5; i++) {
        smfw_stats_single(&res[i]->stats[SMFW_M_GOOD_REQUEST_COUNT], good[i]);
        smfw_stats_single(&res[i]->stats[SMFW_M_GOODPUT], good[i] / 10.0);
    }
    smfw_sweep_goodput g;
    smfw_sweep_goodput_of(&pts[1], 0.9, &g);
    ck_assert(g.present && g.attains);
    ck_assert_uint_eq(g.good, 95);
    ck_assert_double_eq_tol(g.fraction, 0.95, 1e-15);
    ck_assert_double_eq_tol(g.goodput, 9.5, 1e-15);
    /* 4 misses (80%): 8 passing again does not lift the knee above 2. */
    ck_assert_int_eq(smfw_sweep_slo_knee(pts, 5, 0.9), 1);
    ck_assert_int_eq(smfw_sweep_slo_knee(pts, 5, 0.8), 3);
    ck_assert_int_eq(smfw_sweep_slo_knee(pts, 5, 0.05), 4);
    ck_assert_int_eq(smfw_sweep_slo_knee(pts, 5, 0), 1); /* 0: the default 0.9 */
    ck_assert_int_eq(smfw_sweep_slo_knee(pts, 5, 1.0), 0);
    /* Failed requests count against the share (AIPerf's good_request_fraction): 95 good of
     * 100 valid + 10 failed is 86%. */
    smfw_stats_single(&res[1]->stats[SMFW_M_ERROR_REQUEST_COUNT], 10);
    smfw_sweep_goodput_of(&pts[1], 0.9, &g);
    ck_assert_double_eq_tol(g.fraction, 95.0 / 110.0, 1e-15);
    ck_assert(!g.attains);
    ck_assert_int_eq(smfw_sweep_slo_knee(pts, 5, 0.9), 0);
    res[0]->info.gate_tripped = 1;
    ck_assert_int_eq(smfw_sweep_slo_knee(pts, 5, 0.9), -1);
    for (int i = 0; i < 5; i++) smfw_results_free(res[i]);
}
END_TEST

int main(void) {
    Suite *s = suite_create("capacity");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cost_per_million_tokens_matches_hand_computation);
    tcase_add_test(tc, autoscaling_target_matches_hand_computation);
    tcase_add_test(tc, knee_and_verdicts_of_the_tutorial_table);
    tcase_add_test(tc, knee_threshold_is_configurable);
    tcase_add_test(tc, one_flat_step_is_not_a_knee);
    tcase_add_test(tc, no_knee_means_a_lower_bound);
    tcase_add_test(tc, errors_make_a_level_saturated);
    tcase_add_test(tc, slo_parse_and_check);
    tcase_add_test(tc, slo_level_lowers_the_operating_point);
    tcase_add_test(tc, slo_knee_is_the_level_before_the_first_miss);
    tcase_add_test(tc, metric_references);
    tcase_add_test(tc, bundled_price_table);
    tcase_add_test(tc, price_table_errors_name_file_and_line);
    tcase_add_test(tc, shard_split_covers_every_request_once);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
