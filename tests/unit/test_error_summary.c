/*
 * test_error_summary.c - the error summary groups failures by code, class and
 * type with one example message each, so per-request messages (ids, times,
 * ports) do not flood it, and its counts add up to the failed requests.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "smfw_test.h"

static void add_error(smfw_results *r, smfw_error_class cls, int code, const char *type,
                      const char *msg) {
    smfw_record rec;
    smfw_record_init(&rec);
    ck_assert_int_eq(smfw_record_set_error(&rec, cls, code != 0, code, type, msg), SMFW_OK);
    smfw_error err;
    ck_assert_int_eq(smfw_results_add_record(r, &rec, &err), SMFW_OK);
}

START_TEST(grouped_by_kind_counts_add_up) {
    smfw_results *r = smfw_results_new();
    char msg[128];
    for (int i = 0; i < 40; i++) {
        snprintf(msg, sizeof msg, "Request was cancelled after %d.%03d seconds", i, i * 7);
        add_error(r, SMFW_ERRCLASS_CANCELLED, 499, "RequestCancellationError", msg);
    }
    for (int i = 0; i < 25; i++) {
        snprintf(msg, sizeof msg, "cannot connect: Failed to connect to 127.0.0.1 port %d",
                 1000 + i);
        add_error(r, SMFW_ERRCLASS_CONNECT, 0, "ClientConnectorError", msg);
    }
    add_error(r, SMFW_ERRCLASS_HTTP, 500, "Internal Server Error", "boom");
    smfw_error err;
    smfw_status st = smfw_results_compute(r, NULL, 0, &err);
    ck_assert(st == SMFW_OK || st == SMFW_ERR_VALIDITY);
    ck_assert_uint_eq(r->n_errors, 3);
    uint64_t total = 0;
    for (size_t i = 0; i < r->n_errors; i++) total += r->errors[i].count;
    ck_assert_uint_eq(total, 66);
    ck_assert_str_eq(r->errors[0].type, "RequestCancellationError");
    ck_assert_uint_eq(r->errors[0].count, 40);
    ck_assert_ptr_nonnull(strstr(r->errors[0].message, "cancelled after 0.000"));
    ck_assert_uint_eq(r->errors[1].count, 25);
    smfw_results_free(r);
}
END_TEST

int main(void) {
    Suite *s = suite_create("error_summary");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, grouped_by_kind_counts_add_up);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
