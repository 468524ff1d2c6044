/*
 * test_buf.c - smfw_buf, the one growable buffer of the core, the plugins and
 * smfw-mock: appends and their 0/-1, the sticky failure and what clears it,
 * capped appends (the direct backend's error bodies), dropping a consumed
 * prefix (its stream framers), printf past the stack buffer, take().
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/buf.h>

#include "smfw_test.h"

START_TEST(append_keeps_nul_and_grows) {
    smfw_buf b;
    smfw_buf_init(&b);
    ck_assert_ptr_null(b.data);
    ck_assert_int_eq(smfw_buf_append(&b, "ab", 2), 0);
    smfw_buf_puts(&b, "cd");
    smfw_buf_putc(&b, 'e');
    ck_assert_str_eq(b.data, "abcde");
    ck_assert_uint_eq(b.len, 5);
    /* Many small appends across several doublings keep every byte in order. */
    for (int i = 0; i < 1000; i++) ck_assert_int_eq(smfw_buf_append(&b, "0123456789", 10), 0);
    ck_assert_uint_eq(b.len, 10005);
    ck_assert_uint_gt(b.cap, b.len);
    ck_assert_int_eq(memcmp(b.data + 5 + 10 * 999, "0123456789", 10), 0);
    ck_assert_int_eq(b.data[b.len], '\0');
    /* An empty append of a NULL pointer is allowed and changes nothing. */
    ck_assert_int_eq(smfw_buf_append(&b, NULL, 0), 0);
    ck_assert_uint_eq(b.len, 10005);
    smfw_buf_free(&b);
    ck_assert_ptr_null(b.data);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_uint_eq(b.cap, 0);
}
END_TEST

START_TEST(printf_beyond_stack_buffer) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_printf(&b, "[%d]", 42);
    char big[1000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    smfw_buf_printf(&b, "%s|%s", big, "end");
    ck_assert_uint_eq(b.len, 4 + 999 + 4);
    ck_assert_int_eq(strncmp(b.data, "[42]xxx", 7), 0);
    ck_assert_str_eq(b.data + b.len - 4, "|end");
    smfw_buf_free(&b);
}
END_TEST

START_TEST(failure_is_sticky_until_reset) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_puts(&b, "kept");
    /* A request no allocator can meet (more than half the address space) fails. */
    ck_assert_int_eq(smfw_buf_reserve(&b, SIZE_MAX / 2), -1);
    ck_assert_int_ne(b.failed, 0);
    ck_assert_int_eq(smfw_buf_append(&b, "x", 1), -1);
    smfw_buf_puts(&b, "more");
    ck_assert_str_eq(b.data, "kept"); /* nothing appended after the failure */
    smfw_buf_reset(&b);
    ck_assert_int_eq(b.failed, 0);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_str_eq(b.data, "");
    ck_assert_int_eq(smfw_buf_append(&b, "again", 5), 0);
    ck_assert_str_eq(b.data, "again");
    /* take() of a failed buffer is NULL and releases the memory. */
    smfw_buf_reserve(&b, SIZE_MAX / 2);
    ck_assert_ptr_null(smfw_buf_take(&b));
    ck_assert_ptr_null(b.data);
    ck_assert_int_eq(b.failed, 0);
}
END_TEST

START_TEST(reset_keeps_memory) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_reset(&b); /* of a fresh buffer: no allocation, no crash */
    ck_assert_ptr_null(b.data);
    ck_assert_int_eq(smfw_buf_reserve(&b, 16384), 0);
    char *mem = b.data;
    size_t cap = b.cap;
    ck_assert_uint_ge(cap, 16385);
    smfw_buf_puts(&b, "hello");
    smfw_buf_reset(&b);
    ck_assert_ptr_eq(b.data, mem);
    ck_assert_uint_eq(b.cap, cap);
    ck_assert_str_eq(b.data, "");
    /* Pre-sized: appends within the capacity never move the memory. */
    for (int i = 0; i < 1000; i++) smfw_buf_append(&b, "0123456789abcdef", 16);
    ck_assert_ptr_eq(b.data, mem);
    smfw_buf_free(&b);
}
END_TEST

START_TEST(append_capped_stops_at_the_cap) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_append_capped(&b, "abcdef", 6, 4);
    ck_assert_str_eq(b.data, "abcd");
    smfw_buf_append_capped(&b, "gh", 2, 4); /* already full: dropped */
    ck_assert_str_eq(b.data, "abcd");
    ck_assert_int_eq(b.failed, 0);
    smfw_buf_append_capped(&b, "gh", 2, 5); /* one byte of room */
    ck_assert_str_eq(b.data, "abcdg");
    smfw_buf_append_capped(&b, "ij", 2, 100); /* room for all */
    ck_assert_str_eq(b.data, "abcdgij");
    smfw_buf_reset(&b);
    smfw_buf_append_capped(&b, "xyz", 3, 0); /* a zero cap keeps nothing */
    ck_assert_uint_eq(b.len, 0);
    smfw_buf_free(&b);
}
END_TEST

START_TEST(consume_drops_the_front) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_consume(&b, 3); /* of a fresh buffer: nothing to drop, no crash */
    ck_assert_uint_eq(b.len, 0);
    smfw_buf_puts(&b, "line1\npartial");
    char *mem = b.data;
    smfw_buf_consume(&b, 0);
    ck_assert_str_eq(b.data, "line1\npartial");
    smfw_buf_consume(&b, 6);
    ck_assert_str_eq(b.data, "partial");
    ck_assert_uint_eq(b.len, 7);
    ck_assert_ptr_eq(b.data, mem);
    smfw_buf_consume(&b, 7); /* exactly all */
    ck_assert_uint_eq(b.len, 0);
    ck_assert_str_eq(b.data, "");
    smfw_buf_puts(&b, "ab");
    smfw_buf_consume(&b, 10); /* more than all */
    ck_assert_uint_eq(b.len, 0);
    ck_assert_str_eq(b.data, "");
    ck_assert_ptr_eq(b.data, mem);
    smfw_buf_free(&b);
}
END_TEST

START_TEST(take_hands_over) {
    smfw_buf b;
    smfw_buf_init(&b);
    char *s = smfw_buf_take(&b); /* empty: "" */
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s, "");
    free(s);
    smfw_buf_puts(&b, "text");
    s = smfw_buf_take(&b);
    ck_assert_str_eq(s, "text");
    ck_assert_ptr_null(b.data);
    ck_assert_uint_eq(b.len, 0);
    free(s);
}
END_TEST

START_TEST(json_string_and_double) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_json_string(&b, "a\"b\\c\n\t\x01");
    smfw_buf_putc(&b, ' ');
    smfw_buf_json_string(&b, NULL);
    smfw_buf_putc(&b, ' ');
    smfw_buf_double(&b, 0.1);
    smfw_buf_putc(&b, ' ');
    smfw_buf_double(&b, 1e22);
    ck_assert_str_eq(b.data, "\"a\\\"b\\\\c\\n\\t\\u0001\" \"\" 0.1 1e+22");
    smfw_buf_free(&b);
}
END_TEST

static Suite *buf_suite(void) {
    Suite *s = suite_create("buf");
    TCase *tc = tcase_create("buf");
    tcase_add_test(tc, append_keeps_nul_and_grows);
    tcase_add_test(tc, printf_beyond_stack_buffer);
    tcase_add_test(tc, failure_is_sticky_until_reset);
    tcase_add_test(tc, reset_keeps_memory);
    tcase_add_test(tc, append_capped_stops_at_the_cap);
    tcase_add_test(tc, consume_drops_the_front);
    tcase_add_test(tc, take_hands_over);
    tcase_add_test(tc, json_string_and_double);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(buf_suite());
}
