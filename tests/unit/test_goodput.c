/* test_goodput.c - the one goodput SLO parser: AIPerf's space-separated form, repeated
 * --goodput items and a list's commas give the same SLOs; every refusal says why. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results.h>

#include "smfw_test.h"

START_TEST(aiperf_form_items_and_commas_agree) {
    const char *aiperf[] = {"time_to_first_token:100 inter_token_latency:3.4"};
    const char *items[] = {"time_to_first_token:100", "inter_token_latency:3.4"};
    const char *list[] = {"time_to_first_token:100,inter_token_latency:3.4"};
    const char *const *forms[] = {aiperf, items, list};
    size_t counts[] = {1, 2, 1};
    for (size_t f = 0; f < 3; f++) {
        smfw_goodput_slo *s = NULL;
        size_t n = 0;
        smfw_error err;
        ck_assert_int_eq(smfw_goodput_parse(forms[f], counts[f], &s, &n, &err), SMFW_OK);
        ck_assert_uint_eq(n, 2);
        ck_assert_int_eq(s[0].metric, SMFW_M_TIME_TO_FIRST_TOKEN);
        ck_assert_double_eq(s[0].threshold, 100);
        ck_assert_int_eq(s[1].metric, SMFW_M_INTER_TOKEN_LATENCY);
        ck_assert_double_eq(s[1].threshold, 3.4);
        free(s);
    }
    smfw_goodput_slo *s = (smfw_goodput_slo *)1;
    size_t n = 9;
    smfw_error err;
    const char *blank[] = {"  "};
    ck_assert_int_eq(smfw_goodput_parse(blank, 1, &s, &n, &err), SMFW_OK);
    ck_assert_ptr_null(s);
    ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(refusals_name_the_slo) {
    static const struct {
        const char *in, *says;
    } bad[] = {
        {"time_to_first_token", "is not metric:threshold"},
        {":5", "is not metric:threshold"},
        {"time_to_first:5", "\"time_to_first\" is not a per-request metric"},
        {"request_throughput:5", "\"request_throughput\" is not a per-request metric"},
        {"time_to_first_token:", "the threshold is missing"},
        {"time_to_first_token:abc", "\"abc\" is not a threshold"},
        {"time_to_first_token:-1", "\"-1\" is not a threshold"},
        {"time_to_first_token:nan", "\"nan\" is not a threshold"},
        {"time_to_first_token:1e999", "\"1e999\" is not a threshold"},
        {"time_to_first_token:5 request_latency:x", "request_latency: \"x\" is not"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        smfw_goodput_slo *s = NULL;
        size_t n = 0;
        smfw_error err;
        const char *one[] = {bad[i].in};
        ck_assert_msg(smfw_goodput_parse(one, 1, &s, &n, &err) == SMFW_ERR_CONFIG, "%s accepted",
                      bad[i].in);
        ck_assert_ptr_null(s);
        ck_assert_msg(strstr(err.message, bad[i].says), "%s: %s", bad[i].in, err.message);
    }
}
END_TEST

int main(void) {
    Suite *s = suite_create("goodput");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, aiperf_form_items_and_commas_agree);
    tcase_add_test(tc, refusals_name_the_slo);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
