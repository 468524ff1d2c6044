/*
 * test_capacity_cloudwatch.c - the GetMetricData request smfw sends, the
 * summary of a response (microseconds to ms, exact means from Sum and
 * SampleCount, pages), and each rule of the reading.
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>

#include "cloudwatch.h"
#include "smfw_test.h"

static int has_finding(const smfw_cw_report *r, const char *needle) {
    for (size_t i = 0; i < r->n_findings; i++)
        if (strstr(r->findings[i], needle)) return 1;
    return 0;
}

START_TEST(request_names_every_metric_and_rounds_the_window) {
    smfw_cw_query q = {"bench", NULL, NULL, 1700000030, 1700000130, 0};
    char *body = smfw_cloudwatch_request_json(&q);
    json_t *root = json_loads(body, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "StartTime")), 1699999980);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "EndTime")), 1700000160);
    json_t *qs = json_object_get(root, "MetricDataQueries");
    ck_assert_uint_eq(json_array_size(qs), 18);
    int seen_gpu = 0, seen_ml_n = 0;
    size_t i;
    json_t *x;
    json_array_foreach(qs, i, x) {
        const char *id = json_string_value(json_object_get(x, "Id"));
        json_t *ms = json_object_get(x, "MetricStat");
        json_t *metric = json_object_get(ms, "Metric");
        ck_assert_int_eq(json_integer_value(json_object_get(ms, "Period")), 60);
        json_t *dims = json_object_get(metric, "Dimensions");
        ck_assert_uint_eq(json_array_size(dims), 2);
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(dims, 1), "Value")),
                         "AllTraffic");
        if (strcmp(id, "gpu_avg") == 0) {
            seen_gpu = 1;
            ck_assert_str_eq(json_string_value(json_object_get(metric, "Namespace")),
                             "/aws/sagemaker/Endpoints");
            ck_assert_str_eq(json_string_value(json_object_get(ms, "Stat")), "Average");
        }
        if (strcmp(id, "ml_n") == 0) {
            seen_ml_n = 1;
            ck_assert_str_eq(json_string_value(json_object_get(metric, "MetricName")),
                             "ModelLatency");
            ck_assert_str_eq(json_string_value(json_object_get(ms, "Stat")), "SampleCount");
        }
    }
    ck_assert(seen_gpu && seen_ml_n);
    json_decref(root);
    free(body);
    /* An inference component: its own dimension and namespace, per-copy metrics. */
    smfw_cw_query ic = {"bench", NULL, "my-ic", 1700000000, 1700000060, 60};
    body = smfw_cloudwatch_request_json(&ic);
    ck_assert_ptr_nonnull(strstr(body, "\"InferenceComponentName\""));
    ck_assert_ptr_nonnull(strstr(body, "InvocationsPerCopy"));
    ck_assert_ptr_nonnull(strstr(body, "/aws/sagemaker/InferenceComponents"));
    ck_assert_ptr_nonnull(strstr(body, "GPUUtilizationNormalized"));
    ck_assert_ptr_null(strstr(body, "EndpointName"));
    free(body);
}
END_TEST

START_TEST(response_summary_and_reading) {
    smfw_cw_query q = {"bench", "AllTraffic", NULL, 1700000000, 1700000120, 60};
    smfw_cw_report *r = smfw_cw_report_new(&q);
    smfw_error err;
    /* Two pages: 100 + 50 invocations; ModelLatency 40 ms and 70 ms means (us). */
    const char *page1 = "{\"MetricDataResults\":["
                        "{\"Id\":\"inv_sum\",\"Timestamps\":[1700000000],\"Values\":[100]},"
                        "{\"Id\":\"ml_sum\",\"Timestamps\":[1700000000],\"Values\":[4000000]},"
                        "{\"Id\":\"ml_n\",\"Timestamps\":[1700000000],\"Values\":[100]},"
                        "{\"Id\":\"ml_max\",\"Timestamps\":[1700000000],\"Values\":[90000]},"
                        "{\"Id\":\"ol_sum\",\"Timestamps\":[1700000000],\"Values\":[2000000]},"
                        "{\"Id\":\"ol_n\",\"Timestamps\":[1700000000],\"Values\":[100]},"
                        "{\"Id\":\"e5_sum\",\"Timestamps\":[1700000000],\"Values\":[0]},"
                        "{\"Id\":\"gpu_avg\",\"Timestamps\":[1700000000],\"Values\":[12]},"
                        "{\"Id\":\"gmem_max\",\"Timestamps\":[1700000000],\"Values\":[97]},"
                        "{\"Id\":\"someone_else\",\"Values\":[1]}],\"NextToken\":\"t\"}";
    const char *page2 = "{\"MetricDataResults\":["
                        "{\"Id\":\"inv_sum\",\"Timestamps\":[1700000060],\"Values\":[50]},"
                        "{\"Id\":\"ml_sum\",\"Timestamps\":[1700000060],\"Values\":[3500000]},"
                        "{\"Id\":\"ml_n\",\"Timestamps\":[1700000060],\"Values\":[50]},"
                        "{\"Id\":\"ol_sum\",\"Timestamps\":[1700000060],\"Values\":[1000000]},"
                        "{\"Id\":\"ol_n\",\"Timestamps\":[1700000060],\"Values\":[50]},"
                        "{\"Id\":\"e5_sum\",\"Timestamps\":[1700000060],\"Values\":[7]},"
                        "{\"Id\":\"gpu_avg\",\"Timestamps\":[1700000060],\"Values\":[20]}]}";
    ck_assert_int_eq(smfw_cloudwatch_add_response(r, page1, &err), SMFW_OK);
    ck_assert_int_eq(smfw_cloudwatch_add_response(r, page2, &err), SMFW_OK);
    ck_assert(r->m[SMFW_CW_INVOCATIONS].present);
    ck_assert_double_eq(r->m[SMFW_CW_INVOCATIONS].total, 150);
    /* (4e6 + 3.5e6) us / 150 requests = 50000 us = 50 ms: exact, not a mean of minute means */
    ck_assert_double_eq_tol(r->m[SMFW_CW_MODEL_LATENCY].mean, 50.0, 1e-12);
    ck_assert_double_eq_tol(r->m[SMFW_CW_MODEL_LATENCY].max, 90.0, 1e-12);
    ck_assert_double_eq_tol(r->m[SMFW_CW_OVERHEAD_LATENCY].mean, 20.0, 1e-12);
    ck_assert_double_eq(r->m[SMFW_CW_5XX].total, 7);
    ck_assert_double_eq(r->m[SMFW_CW_5XX].first, 0);
    ck_assert_double_eq(r->m[SMFW_CW_5XX].last, 7);
    ck_assert_double_eq_tol(r->m[SMFW_CW_GPU_UTILIZATION].mean, 16.0, 1e-12);
    ck_assert(!r->m[SMFW_CW_CPU_UTILIZATION].present);

    smfw_results *res = smfw_results_new();
    smfw_stats *lat = &res->stats[SMFW_M_REQUEST_LATENCY];
    lat->present = 1;
    lat->fields = SMFW_STAT_AVG | (SMFW_STAT_P_FIRST << SMFW_P95);
    lat->avg = 200.0;
    lat->p[SMFW_P95] = 400.0;
    res->info.concurrency = 8;
    smfw_cloudwatch_interpret(r, res, 150);
    ck_assert(has_finding(r, "exactly the 150 requests"));
    ck_assert(has_finding(r, "OverheadLatency is 29% of the server time"));
    ck_assert(has_finding(r, "130.0 ms more than SageMaker accounts for"));
    ck_assert(has_finding(r, "GPU utilization is low (mean 16%"));
    ck_assert(has_finding(r, "KV cache is the limit"));
    ck_assert(has_finding(r, "7 Invocation5XXErrors (rising during the run, 4.7% of invocations)"));
    ck_assert(has_finding(r, "no data for InvocationsPerInstance, Invocation4XXErrors, "
                             "CPUUtilization, MemoryUtilization"));
    char *md = smfw_cloudwatch_markdown(r), *js = smfw_cloudwatch_json(r);
    ck_assert_ptr_nonnull(strstr(md, "| Invocations | AWS/SageMaker | count | 150.00 |"));
    ck_assert_ptr_nonnull(strstr(md, "| CPUUtilization | /aws/sagemaker/Endpoints | % | no data"));
    json_t *j = json_loads(js, 0, NULL);
    ck_assert_ptr_nonnull(j);
    json_t *cpu = json_object_get(json_object_get(j, "metrics"), "CPUUtilization");
    ck_assert(json_is_false(json_object_get(cpu, "present")));
    ck_assert_ptr_null(json_object_get(cpu, "mean")); /* missing, not invented */
    json_decref(j);
    free(md);
    free(js);
    smfw_cw_report_free(r);

    /* Counts that differ are explained, not hidden. */
    r = smfw_cw_report_new(&q);
    ck_assert_int_eq(smfw_cloudwatch_add_response(
                         r, "{\"MetricDataResults\":[{\"Id\":\"inv_sum\",\"Values\":[12]}]}", &err),
                     SMFW_OK);
    smfw_cloudwatch_interpret(r, NULL, 10);
    ck_assert(has_finding(r, "counted 12 invocations but the client sent 10"));
    smfw_cw_report_free(r);
    /* Nothing at all: the delay is the likely reason. */
    r = smfw_cw_report_new(&q);
    smfw_cloudwatch_interpret(r, NULL, 10);
    ck_assert(has_finding(r, "1-3 minutes"));
    smfw_cw_report_free(r);
    smfw_results_free(res);
}
END_TEST

START_TEST(malformed_responses_are_errors) {
    smfw_cw_query q = {"bench", NULL, NULL, 1700000000, 1700000060, 60};
    smfw_cw_report *r = smfw_cw_report_new(&q);
    smfw_error err;
    ck_assert_int_eq(smfw_cloudwatch_add_response(r, "not json", &err), SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(smfw_cloudwatch_add_response(r, "{}", &err), SMFW_ERR_PROTOCOL);
    ck_assert_ptr_nonnull(strstr(err.message, "MetricDataResults"));
    ck_assert_int_eq(
        smfw_cloudwatch_add_response(
            r, "{\"MetricDataResults\":[{\"Id\":\"inv_sum\",\"Values\":[\"x\"]}]}", &err),
        SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(
        smfw_cloudwatch_add_response(r, "{\"MetricDataResults\":[{\"Values\":[]}]}", &err),
        SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(smfw_cloudwatch_add_response(r, NULL, &err), SMFW_ERR_PROTOCOL);
    smfw_cw_report_free(r);
}
END_TEST

int main(void) {
    Suite *s = suite_create("capacity_cloudwatch");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, request_names_every_metric_and_rounds_the_window);
    tcase_add_test(tc, response_summary_and_reading);
    tcase_add_test(tc, malformed_responses_are_errors);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
