/*
 * test_direct_fixed_schedule.c - the fixed schedule of --fixed-schedule: offsets from the
 * first timestamp, arrival k at t0 + offset_k / speedup on absolute deadlines, and no
 * arrival after the last (INT64_MAX), so the worker stops asking.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "scheduler.h"
#include "smfw_test.h"

START_TEST(offsets_and_deadlines) {
    const int64_t ts[] = {500, 500, 501, 1500, 4500};
    int64_t *off = direct_schedule_offsets(ts, 5);
    ck_assert_ptr_nonnull(off);
    ck_assert_int_eq(off[0], 0);
    ck_assert_int_eq(off[1], 0);
    ck_assert_int_eq(off[2], 1000000);
    ck_assert_int_eq(off[4], 4000000000LL);
    direct_arrivals a;
    direct_arrivals_init(&a, DIRECT_ARRIVAL_FIXED, 0, 0, 1, 1000, 42);
    direct_arrivals_fixed(&a, off, 5, 1.0);
    ck_assert_int_eq(direct_arrivals_next(&a), 1000);
    ck_assert_int_eq(direct_arrivals_next(&a), 1000);
    ck_assert_int_eq(direct_arrivals_next(&a), 1001000);
    ck_assert_int_eq(direct_arrivals_next(&a), 1000001000LL);
    ck_assert_int_eq(direct_arrivals_next(&a), 4000001000LL);
    ck_assert_int_eq(direct_arrivals_next(&a), INT64_MAX);
    ck_assert_int_eq(direct_arrivals_next(&a), INT64_MAX);
    /* speedup 4: a quarter of each offset, still from t0 */
    direct_arrivals_init(&a, DIRECT_ARRIVAL_FIXED, 0, 0, 1, 0, 42);
    direct_arrivals_fixed(&a, off, 5, 4.0);
    ck_assert_int_eq(direct_arrivals_next(&a), 0);
    ck_assert_int_eq(direct_arrivals_next(&a), 0);
    ck_assert_int_eq(direct_arrivals_next(&a), 250000);
    ck_assert_int_eq(direct_arrivals_next(&a), 250000000LL);
    ck_assert_int_eq(direct_arrivals_next(&a), 1000000000LL);
    ck_assert_int_eq(direct_arrivals_next(&a), INT64_MAX);
    free(off);
}
END_TEST

int main(void) {
    Suite *s = suite_create("direct_fixed_schedule");
    TCase *tc = tcase_create("all");
    tcase_add_test(tc, offsets_and_deadlines);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
