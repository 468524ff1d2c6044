/*
 * test_crc32.c - the PCLMULQDQ folding path of smfw_crc32() against the
 * portable slicing-by-8 path: every length 0..4096 at every alignment 0..15,
 * random data, seeded and continued CRCs, the standard check value, and the
 * SMFW_CRC32=portable switch. On a CPU without PCLMULQDQ the comparison
 * tests say so and check the portable path alone.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32_internal.h"
#include "smfw_test.h"

#define MAX_LEN 4096
#define ALIGNS  16

/* Deterministic bytes (xorshift64), so a failure names a reproducible case. */
static void fill_random(unsigned char *p, size_t n, uint64_t seed) {
    uint64_t x = seed | 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (unsigned char)(x >> 24);
    }
}

/* Bitwise CRC-32, straight from the definition: the reference of the reference. */
static uint32_t crc32_bitwise(const unsigned char *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

START_TEST(check_values) {
    ck_assert_uint_eq(crc32_portable(0, "123456789", 9), 0xCBF43926u);
    ck_assert_uint_eq(smfw_crc32(0, "123456789", 9), 0xCBF43926u);
    ck_assert_uint_eq(smfw_crc32(0, NULL, 0), 0);
    ck_assert_uint_eq(crc32_portable(0, NULL, 0), 0);
    if (crc32_clmul_available()) {
        ck_assert_uint_eq(crc32_clmul(0, "123456789", 9), 0xCBF43926u);
        ck_assert_uint_eq(crc32_clmul(0, NULL, 0), 0);
        /* 64 bytes of "123456789..." reach the folding code. */
        char s[100];
        for (int i = 0; i < 99; i++) s[i] = (char)('1' + i % 9);
        s[99] = 0;
        ck_assert_uint_eq(crc32_clmul(0, s, 99), crc32_bitwise((unsigned char *)s, 99));
    }
}
END_TEST

START_TEST(portable_matches_bitwise) {
    unsigned char *buf = malloc(MAX_LEN + ALIGNS);
    ck_assert_ptr_nonnull(buf);
    fill_random(buf, MAX_LEN + ALIGNS, 7);
    for (size_t len = 0; len <= 300; len++)
        for (size_t a = 0; a < 8; a++)
            ck_assert_uint_eq(crc32_portable(0, buf + a, len), crc32_bitwise(buf + a, len));
    ck_assert_uint_eq(crc32_portable(0, buf, MAX_LEN), crc32_bitwise(buf, MAX_LEN));
    free(buf);
}
END_TEST

START_TEST(clmul_matches_portable_every_length_and_alignment) {
    if (!crc32_clmul_available()) {
        fprintf(stderr, "test_crc32: this CPU has no PCLMULQDQ/SSE4.1; portable path only\n");
        return;
    }
    /* Room for every alignment, with random bytes on both sides of each input. */
    unsigned char *buf = malloc(MAX_LEN + 2 * ALIGNS);
    ck_assert_ptr_nonnull(buf);
    for (uint64_t round = 0; round < 2; round++) {
        fill_random(buf, MAX_LEN + 2 * ALIGNS, 0x9E3779B97F4A7C15ull + round);
        for (size_t len = 0; len <= MAX_LEN; len++) {
            for (size_t a = 0; a < ALIGNS; a++) {
                const unsigned char *p = buf + a;
                uint32_t want = crc32_portable(0, p, len);
                uint32_t got = crc32_clmul(0, p, len);
                ck_assert_msg(got == want, "len %zu align %zu round %llu: clmul %08x portable %08x",
                              len, a, (unsigned long long)round, got, want);
                /* A non-zero starting CRC (a continued one) takes the same path. */
                uint32_t seed = (uint32_t)(len * 2654435761u) ^ (uint32_t)a;
                ck_assert_uint_eq(crc32_clmul(seed, p, len), crc32_portable(seed, p, len));
            }
        }
    }
    free(buf);
}
END_TEST

START_TEST(clmul_continues_across_pieces) {
    if (!crc32_clmul_available()) return;
    unsigned char buf[1000];
    fill_random(buf, sizeof buf, 99);
    uint32_t whole = crc32_portable(0, buf, sizeof buf);
    for (size_t cut = 0; cut <= sizeof buf; cut++)
        ck_assert_uint_eq(crc32_clmul(crc32_clmul(0, buf, cut), buf + cut, sizeof buf - cut),
                          whole);
}
END_TEST

START_TEST(switch_forces_portable) {
    unsigned char buf[512];
    fill_random(buf, sizeof buf, 5);
    uint32_t want = crc32_bitwise(buf, sizeof buf);
    crc32_select("portable");
    ck_assert_str_eq(crc32_implementation(), "portable");
    ck_assert_uint_eq(smfw_crc32(0, buf, sizeof buf), want);
    crc32_select(NULL);
    ck_assert_str_eq(crc32_implementation(), crc32_clmul_available() ? "pclmul" : "portable");
    ck_assert_uint_eq(smfw_crc32(0, buf, sizeof buf), want);
}
END_TEST

/* The environment variable is read once, at the first call: run in a fresh process (below). */
START_TEST(environment_forces_portable) {
    ck_assert_str_eq(crc32_implementation(), "portable");
}
END_TEST

START_TEST(environment_variable_is_honoured) {
    char cmd[4200];
    const char *self = getenv("TEST_CRC32_PATH");
    ck_assert_ptr_nonnull(self);
    snprintf(cmd, sizeof cmd, "SMFW_CRC32=portable TEST_CRC32_SELF=1 CK_RUN_CASE=env '%s'", self);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *crc32_suite(void) {
    Suite *s = suite_create("crc32");
    TCase *tc = tcase_create("paths");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, check_values);
    tcase_add_test(tc, portable_matches_bitwise);
    tcase_add_test(tc, clmul_matches_portable_every_length_and_alignment);
    tcase_add_test(tc, clmul_continues_across_pieces);
    tcase_add_test(tc, switch_forces_portable);
    tcase_add_test(tc, environment_variable_is_honoured);
    suite_add_tcase(s, tc);
    if (getenv("TEST_CRC32_SELF")) { /* only in the child that environment_variable_is_honoured
                                        starts */
        TCase *env = tcase_create("env");
        tcase_add_test(env, environment_forces_portable);
        suite_add_tcase(s, env);
    }
    return s;
}

int main(int argc, char **argv) {
    (void)argc;
    if (!getenv("TEST_CRC32_SELF")) setenv("TEST_CRC32_PATH", argv[0], 1);
    return smfw_test_run(crc32_suite());
}
