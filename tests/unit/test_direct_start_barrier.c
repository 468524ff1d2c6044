/*
 * test_direct_start_barrier.c - `--start-at`: RFC 3339 times and +delays parsed to the
 * nanosecond, bad ones refused with a sentence naming the flag; the wait ends at the moment
 * (or at once when it has passed, recording the lateness); the recorded object; and
 * `--shard $VAR+K/N` for job engines' 0-based indexes.
 */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <smfw/shard.h>

#include "start_barrier.h"
#include "smfw_test.h"

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

START_TEST(parse_times) {
    direct_start_barrier b;
    smfw_error err;
    ck_assert_int_eq(direct_start_barrier_parse("2026-12-01T22:30:00Z", 0, &b, &err), SMFW_OK);
    ck_assert(b.set);
    ck_assert_int_eq(b.at_wall_ns,
                     1796164200LL * 1000000000LL); /* date -d 2026-12-01T22:30:00Z +%s */
    ck_assert_int_eq(direct_start_barrier_parse("2026-12-01T22:30:00.25Z", 0, &b, &err), SMFW_OK);
    ck_assert_int_eq(b.at_wall_ns % 1000000000LL, 250000000LL);
    /* an offset is the same moment in UTC */
    int64_t utc;
    direct_start_barrier_parse("2026-12-01T22:30:00Z", 0, &b, &err);
    utc = b.at_wall_ns;
    ck_assert_int_eq(direct_start_barrier_parse("2026-12-01T23:30:00+01:00", 0, &b, &err), SMFW_OK);
    ck_assert_int_eq(b.at_wall_ns, utc);
    ck_assert_int_eq(direct_start_barrier_parse("+30s", 1000, &b, &err), SMFW_OK);
    ck_assert_int_eq(b.at_wall_ns, 1000 + 30LL * 1000000000LL);
    ck_assert_int_eq(direct_start_barrier_parse("", 0, &b, &err), SMFW_OK);
    ck_assert(!b.set);
    static const char *const bad[] = {"2026-12-01",
                                      "2026-12-01T22:30:00",
                                      "2026-13-01T00:00:00Z",
                                      "2026-12-01T22:30:00Zx",
                                      "+soon",
                                      "tomorrow",
                                      "2026-12-01T22:30:00.Z"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(direct_start_barrier_parse(bad[i], 0, &b, &err), SMFW_ERR_CONFIG);
        ck_assert_ptr_nonnull(strstr(err.message, "--start-at"));
        ck_assert_ptr_nonnull(strstr(err.message, bad[i]));
    }
}
END_TEST

START_TEST(wait_and_record) {
    direct_start_barrier b;
    smfw_error err;
    int64_t t0 = now_ns();
    ck_assert_int_eq(direct_start_barrier_parse("+0.2s", t0, &b, &err), SMFW_OK);
    direct_start_barrier_wait(&b, NULL, 1);
    ck_assert(b.began_ns >= b.at_wall_ns);
    ck_assert(now_ns() - t0 >= 200000000LL);
    /* a moment in the past: no wait, the lateness is recorded */
    ck_assert_int_eq(direct_start_barrier_parse("2020-01-01T00:00:00Z", 0, &b, &err), SMFW_OK);
    t0 = now_ns();
    direct_start_barrier_wait(&b, NULL, 1);
    ck_assert(now_ns() - t0 < 100000000LL);
    ck_assert(b.lateness_ns > 0);
    json_t *o = direct_start_barrier_json(&b);
    ck_assert_str_eq(json_string_value(json_object_get(o, "at")), "2020-01-01T00:00:00.000Z");
    ck_assert(json_is_number(json_object_get(o, "lateness_ms")));
    ck_assert(json_is_integer(json_object_get(o, "began_wall_ns")));
    ck_assert(json_is_object(json_object_get(o, "clock")));
    json_decref(o);
}
END_TEST

START_TEST(shard_from_environment) {
    smfw_shard s;
    smfw_error err;
    setenv("SMFW_TEST_INDEX", "2", 1);
    ck_assert_int_eq(smfw_shard_parse("$SMFW_TEST_INDEX+1/4", &s, &err), SMFW_OK);
    ck_assert_uint_eq(s.index, 3);
    ck_assert_uint_eq(s.count, 4);
    ck_assert_int_eq(smfw_shard_parse("$SMFW_TEST_INDEX/4", &s, &err), SMFW_OK);
    ck_assert_uint_eq(s.index, 2);
    /* 0-based without +1 is out of range at index 0 */
    setenv("SMFW_TEST_INDEX", "0", 1);
    ck_assert_int_eq(smfw_shard_parse("$SMFW_TEST_INDEX/4", &s, &err), SMFW_ERR_CONFIG);
    setenv("SMFW_TEST_INDEX", "x", 1);
    ck_assert_int_eq(smfw_shard_parse("$SMFW_TEST_INDEX+1/4", &s, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "SMFW_TEST_INDEX"));
    unsetenv("SMFW_TEST_INDEX");
    ck_assert_int_eq(smfw_shard_parse("$SMFW_TEST_INDEX+1/4", &s, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "unset"));
    ck_assert_int_eq(smfw_shard_parse("$/4", &s, &err), SMFW_ERR_CONFIG);
    ck_assert_int_eq(smfw_shard_parse("x/4", &s, &err), SMFW_ERR_CONFIG);
}
END_TEST

int main(void) {
    Suite *s = suite_create("direct_start_barrier");
    TCase *tc = tcase_create("all");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, parse_times);
    tcase_add_test(tc, wait_and_record);
    tcase_add_test(tc, shard_from_environment);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
