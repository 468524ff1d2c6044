/*
 * test_publish_keys.c - the key scheme of `smfw publish`: every key and
 * value a full run produces fits SageMaker's CustomerMetadataProperties and
 * tag limits (length, character set, 34 of the 50 entries), numbers read
 * back exactly, facts that do not fit are left out, a report URI that does
 * not fit is refused, and the UpdateModelPackage body carries the removals.
 */
#include <check.h>
#include <jansson.h>
#include <string.h>

#include <smfw/results_layout.h>

#include "model_registry.h"
#include "publish_keys.h"
#include "smfw_test.h"

/* Every statistic of every metric present, so the scheme's largest set comes out. */
static smfw_results *full_run(void) {
    smfw_results *r = smfw_results_new();
    for (int m = 0; m < SMFW_M_COUNT_; m++) {
        smfw_stats *s = &r->stats[m];
        s->present = 1;
        s->fields = SMFW_STAT_AVG | SMFW_STAT_MIN | SMFW_STAT_MAX | SMFW_STAT_STD;
        s->avg = 1000.0 / 3.0 + m;
        for (int p = 0; p < SMFW_PERCENTILE_COUNT; p++) {
            s->fields |= SMFW_STAT_P_FIRST << p;
            s->p[p] = 1.7625515347970678e+18 / (p + 1);
        }
    }
    smfw_results_set_string(&r->info.endpoint_name, "bench-ep");
    smfw_results_set_string(&r->info.inference_component, "ic-1");
    smfw_results_set_string(&r->info.model, "meta-llama/Llama-3.1-8B-Instruct");
    smfw_results_set_string(&r->info.endpoint_type, "chat");
    smfw_results_set_string(&r->info.dataset_name, "sharegpt");
    smfw_results_set_string(&r->info.dataset_sha256,
                            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    r->info.streaming = 1;
    r->info.concurrency = 16;
    r->info.request_rate = 2.5;
    r->info.end_wall_ns = 1764657339000000000LL;
    return r;
}

START_TEST(a_full_run_fits_the_limits) {
    smfw_results *r = full_run();
    smfw_publish_set *k = smfw_publish_set_new();
    smfw_error err;
    char uri[257];
    memset(uri, 'a', sizeof uri);
    memcpy(uri, "s3://b/", 7);
    uri[256] = '\0'; /* exactly 256 characters */
    ck_assert_int_eq(smfw_publish_keys_from_results(r, uri, k, &err), SMFW_OK);
    ck_assert_uint_eq(k->n, SMFW_PUBLISH_OWN_MAX);
    ck_assert_uint_le(SMFW_PUBLISH_OWN_MAX + 16, SMFW_PUBLISH_MAX_ENTRIES);
    for (size_t i = 0; i < k->n; i++) {
        ck_assert_msg(smfw_publish_key_is_ours(k->e[i].key), "%s", k->e[i].key);
        ck_assert_msg(smfw_publish_text_valid(k->e[i].key, SMFW_PUBLISH_MAX_KEY, NULL), "%s",
                      k->e[i].key);
        ck_assert_msg(smfw_publish_text_valid(k->e[i].value, SMFW_PUBLISH_MAX_VALUE, NULL), "%s=%s",
                      k->e[i].key, k->e[i].value);
    }
    ck_assert_str_eq(smfw_publish_set_get(k, "smfw:time"), "2025-12-02T06:35:39Z");
    ck_assert_str_eq(smfw_publish_set_get(k, "smfw:concurrency"), "16");
    ck_assert_str_eq(smfw_publish_set_get(k, "smfw:time_to_first_token:p95"),
                     "2.2031894184963347e+17");
    ck_assert_ptr_null(smfw_publish_set_get(k, "smfw:time_to_first_token:p90"));
    /* The numbers read back to the same doubles, the facts to the same strings. */
    smfw_results *back = smfw_results_new();
    ck_assert_int_eq(smfw_publish_keys_to_results(k, back, &err), SMFW_OK);
    ck_assert(back->stats[SMFW_M_TIME_TO_FIRST_TOKEN].present);
    ck_assert(back->stats[SMFW_M_TIME_TO_FIRST_TOKEN].p[SMFW_P95] ==
              r->stats[SMFW_M_TIME_TO_FIRST_TOKEN].p[SMFW_P95]);
    ck_assert(back->stats[SMFW_M_REQUEST_THROUGHPUT].avg ==
              r->stats[SMFW_M_REQUEST_THROUGHPUT].avg);
    ck_assert(!back->stats[SMFW_M_TIME_TO_SECOND_TOKEN].present);
    ck_assert_str_eq(back->info.model, r->info.model);
    ck_assert_int_eq(back->info.concurrency, 16);
    ck_assert(back->info.request_rate == 2.5);
    ck_assert_int_eq(back->info.streaming, 1);
    smfw_results_free(back);
    smfw_publish_set_free(k);
    smfw_results_free(r);
}
END_TEST

START_TEST(the_character_set_and_lengths) {
    char bad = 0;
    ck_assert(smfw_publish_text_valid("s3://b/p/run-1_x.y:z=+@ ok", 256, &bad));
    ck_assert(!smfw_publish_text_valid("", 256, &bad));
    ck_assert_int_eq(bad, 0);
    ck_assert(!smfw_publish_text_valid("{\"json\":1}", 256, &bad));
    ck_assert_int_eq(bad, '{');
    ck_assert(!smfw_publish_text_valid("s3://b/a%20b", 256, &bad));
    ck_assert_int_eq(bad, '%');
    ck_assert(!smfw_publish_text_valid("abc", 2, &bad));
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(what_does_not_fit_is_left_out_or_refused) {
    smfw_results *r = full_run();
    smfw_results_set_string(&r->info.model, "model (v2)"); /* '(' is refused by SageMaker */
    smfw_publish_set *k = smfw_publish_set_new();
    smfw_error err;
    ck_assert_int_eq(smfw_publish_keys_from_results(r, NULL, k, &err), SMFW_OK);
    ck_assert_ptr_null(smfw_publish_set_get(k, "smfw:model"));
    ck_assert_ptr_null(smfw_publish_set_get(k, "smfw:report"));
    ck_assert_str_eq(smfw_publish_set_get(k, "smfw:endpoint"), "bench-ep");
    smfw_publish_set_free(k);
    k = smfw_publish_set_new();
    ck_assert_int_eq(smfw_publish_keys_from_results(r, "s3://b/a?b", k, &err), SMFW_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(err.message, "--report-uri"));
    ck_assert_ptr_nonnull(strstr(err.message, "'?'"));
    smfw_publish_set_free(k);
    char uri[300];
    memset(uri, 'a', sizeof uri);
    memcpy(uri, "s3://b/", 7);
    uri[257] = '\0';
    k = smfw_publish_set_new();
    ck_assert_int_eq(smfw_publish_keys_from_results(r, uri, k, &err), SMFW_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(err.message, "257 characters"));
    smfw_publish_set_free(k);
    smfw_results_free(r);
}
END_TEST

START_TEST(reading_needs_the_scheme_key) {
    smfw_publish_set *k = smfw_publish_set_new();
    smfw_publish_set_put(k, "owner", "team-a");
    smfw_results *r = smfw_results_new();
    smfw_error err;
    ck_assert_int_eq(smfw_publish_keys_to_results(k, r, &err), SMFW_ERR_NOT_FOUND);
    smfw_publish_set_put(k, "smfw:v", "1");
    smfw_publish_set_put(k, "smfw:request_latency:p50", "12x");
    ck_assert_int_eq(smfw_publish_keys_to_results(k, r, &err), SMFW_ERR_PROTOCOL);
    ck_assert_ptr_nonnull(strstr(err.message, "smfw:request_latency:p50"));
    smfw_results_free(r);
    smfw_publish_set_free(k);
}
END_TEST

START_TEST(the_update_body) {
    smfw_publish_set *k = smfw_publish_set_new();
    smfw_publish_set_put(k, "smfw:v", "1");
    smfw_publish_set_put(k, "owner", "team-a");
    const char *rm[] = {"smfw:goodput:avg"};
    char *body = smfw_mr_update_request(
        "arn:aws:sagemaker:us-east-1:123456789012:model-package/g/1", k, rm, 1);
    json_t *j = json_loads(body, 0, NULL);
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(j, "CustomerMetadataProperties"), "owner")),
                     "team-a");
    ck_assert_str_eq(json_string_value(json_array_get(
                         json_object_get(j, "CustomerMetadataPropertiesToRemove"), 0)),
                     "smfw:goodput:avg");
    json_decref(j);
    free(body);
    body = smfw_mr_update_request("arn:x", k, NULL, 0);
    ck_assert_ptr_null(strstr(body, "ToRemove")); /* an empty list is left out */
    free(body);
    smfw_publish_set_free(k);
    ck_assert_int_eq(smfw_mr_arn_kind("arn:aws:sagemaker:us-east-1:123456789012:model-package/g/3"),
                     SMFW_MR_PACKAGE);
    ck_assert_int_eq(
        smfw_mr_arn_kind("arn:aws:sagemaker:us-east-1:123456789012:model-package-group/g"),
        SMFW_MR_GROUP);
    ck_assert_int_eq(smfw_mr_arn_kind("arn:aws-cn:sagemaker:cn-north-1:123456789012:endpoint/e"),
                     SMFW_MR_ENDPOINT);
    ck_assert_int_eq(smfw_mr_arn_kind("arn:aws:s3:::bucket"), SMFW_MR_OTHER);
    ck_assert_int_eq(smfw_mr_arn_kind("./run-dir"), SMFW_MR_OTHER);
}
END_TEST

int main(void) {
    Suite *s = suite_create("publish_keys");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, a_full_run_fits_the_limits);
    tcase_add_test(tc, the_character_set_and_lengths);
    tcase_add_test(tc, what_does_not_fit_is_left_out_or_refused);
    tcase_add_test(tc, reading_needs_the_scheme_key);
    tcase_add_test(tc, the_update_body);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
