/* test_clock_parse.c - the one RFC 3339 and HTTP-date parser (core/clock.c), used by --start-at,
 * AWS credential expirations, SSO caches and Date headers. Expected values from Python's
 * datetime (2026-12-01T22:30:00Z = 1796164200). */
#include <check.h>
#include <stdint.h>

#include <smfw/clock.h>

#include "smfw_test.h"

#define T0 1796164200LL

START_TEST(rfc3339_forms) {
    static const struct {
        const char *text;
        int flags;
        int64_t ns;
    } ok[] = {
        {"2026-12-01T22:30:00Z", 0, T0 * 1000000000LL},
        {"2026-12-01t22:30:00z", 0, T0 * 1000000000LL},
        {"2026-12-01 22:30:00Z", 0, T0 * 1000000000LL},
        {"2026-12-01T23:30:00+01:00", 0, T0 * 1000000000LL},
        {"2026-12-01T20:00:00-02:30", 0, T0 * 1000000000LL},
        {"2026-12-01T22:30:00.5Z", 0, T0 * 1000000000LL + 500000000},
        {"2026-12-01T22:30:00.123456789Z", 0, T0 * 1000000000LL + 123456789},
        {"2026-12-01T22:30:00.1234567899Z", 0, T0 * 1000000000LL + 123456789},
        {"2026-12-01T22:30:00", SMFW_TIME_ZONE_OPTIONAL, T0 * 1000000000LL},
        {"1970-01-01T00:00:00Z", 0, 0},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int64_t ns = -7;
        ck_assert_msg(smfw_time_parse_rfc3339(ok[i].text, ok[i].flags, &ns) == 0, "%s refused",
                      ok[i].text);
        ck_assert_msg(ns == ok[i].ns, "%s: %lld, want %lld", ok[i].text, (long long)ns,
                      (long long)ok[i].ns);
    }
    static const char *const bad[] = {
        "2026-12-01T22:30:00",      "2026-12-01T22:30Z",     "2026-13-01T22:30:00Z",
        "2026-12-01T24:00:00Z",     "2026-12-01T22:30:00.Z", "2026-12-01T22:30:00+0100",
        "2026-12-01T22:30:00Zx",    "26-12-01T22:30:00Z",    "",
        "2026-12-01T22:30:00+24:00"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t ns = 0;
        ck_assert_msg(smfw_time_parse_rfc3339(bad[i], 0, &ns) == -1, "%s accepted", bad[i]);
    }
    ck_assert_int_eq(smfw_time_parse_rfc3339(NULL, 0, &(int64_t){0}), -1);
}
END_TEST

START_TEST(http_dates) {
    int64_t t = 0;
    ck_assert_int_eq(smfw_time_parse_http_date("Tue, 01 Dec 2026 22:30:00 GMT", &t), 0);
    ck_assert_int_eq(t, T0);
    ck_assert_int_eq(smfw_time_parse_http_date("Tue, 01 dec 2026 22:30:00 GMT", &t), 0);
    ck_assert_int_eq(t, T0);
    ck_assert_int_eq(smfw_time_parse_http_date("Tue, 01 Foo 2026 22:30:00 GMT", &t), -1);
    ck_assert_int_eq(smfw_time_parse_http_date("yesterday", &t), -1);
    ck_assert_int_eq(smfw_time_parse_http_date(NULL, &t), -1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("clock_parse");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, rfc3339_forms);
    tcase_add_test(tc, http_dates);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
