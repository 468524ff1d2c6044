/*
 * test_json_view.c - the core's JSON view (smfw/json_view.h): RFC 8259's
 * grammar as JSONTestSuite-style y_ (must accept) and n_ (must refuse)
 * cases, UTF-8 edge cases, the depth limit, number reading with overflow,
 * string decoding, lookups, iteration and one-pass path finds; and agreement
 * with jansson, a decoder nobody here wrote (a table plus thousands of
 * seeded mutations of real request bodies), up to the documented
 * differences (numbers that overflow, raw NUL bytes, depth).
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/json_view.h>

#include "smfw_test.h"

/* jansson's verdict, with the flags the view's grammar matches. */
enum { J_REFUSES, J_ACCEPTS, J_OVERFLOW };
static int jansson_verdict(const char *s, size_t n) {
    json_error_t e;
    json_t *v = json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    json_decref(v);
    if (v) return J_ACCEPTS;
    return json_error_code(&e) == json_error_numeric_overflow ? J_OVERFLOW : J_REFUSES;
}

static int view_accepts(const char *s, size_t n) {
    smfw_json_view v;
    smfw_json_error e;
    return smfw_json_parse(s, n, &v, &e) == 0;
}

typedef struct grammar_case {
    const char *name;
    const char *text;
    size_t len;  /* 0: strlen(text) */
    int jansson; /* what jansson says: the same, or a documented difference */
} grammar_case;

#define SAME                 0
#define JANSSON_OVERFLOWS    1 /* the view accepts RFC 8259 numbers of any size */
#define JANSSON_SKIPS_NUL    2 /* jansson 2.14 passes over some raw NUL bytes */
#define JANSSON_NO_NUL_NAMES 3 /* jansson refuses member names holding \u0000 */

static const grammar_case y_cases[] = {
    {"y_array_empty", "[]", 0, SAME},
    {"y_array_arrays_with_spaces", "[[]   ]", 0, SAME},
    {"y_array_heterogeneous", "[null, 1, \"1\", {}]", 0, SAME},
    {"y_array_with_leading_space", " [1]", 0, SAME},
    {"y_array_with_trailing_space", "[2] ", 0, SAME},
    {"y_array_several_null", "[1,null,null,null,2]", 0, SAME},
    {"y_number_0e+1", "[0e+1]", 0, SAME},
    {"y_number_0e1", "[0e1]", 0, SAME},
    {"y_number_negative_zero", "[-0]", 0, SAME},
    {"y_number_real_capital_e_neg_exp", "[1E-2]", 0, SAME},
    {"y_number_real_fraction_exponent", "[123.456e78]", 0, SAME},
    {"y_number_simple_real", "[-123.456789]", 0, SAME},
    {"y_number_int64_max", "9223372036854775807", 0, SAME},
    {"y_number_int64_min", "-9223372036854775808", 0, SAME},
    {"y_number_underflow", "[1e-400]", 0, SAME},
    {"y_number_huge_int", "[100000000000000000000]", 0, JANSSON_OVERFLOWS},
    {"y_number_huge_neg_int", "[-237462374673276894279832749832423479823246327846]", 0,
     JANSSON_OVERFLOWS},
    {"y_number_real_overflow", "[1.5e999]", 0, JANSSON_OVERFLOWS},
    {"y_number_huge_exponent", "[0.4e006699999999999999999999999999999999999999999999]", 0,
     JANSSON_OVERFLOWS},
    {"y_object_basic", "{\"asd\":\"sdf\"}", 0, SAME},
    {"y_object_duplicated_key", "{\"a\":\"b\",\"a\":\"c\"}", 0, SAME},
    {"y_object_empty_key", "{\"\":0}", 0, SAME},
    {"y_object_escaped_null_in_key", "{\"foo\\u0000bar\": 42}", 0, JANSSON_NO_NUL_NAMES},
    {"y_object_long_strings", "{\"x\":[{\"id\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}]}", 0,
     SAME},
    {"y_object_with_newlines", "{\n\"a\": \"b\"\n}", 0, SAME},
    {"y_string_allowed_escapes", "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", 0, SAME},
    {"y_string_escaped_nul", "[\"a\\u0000b\"]", 0, SAME},
    {"y_string_accepted_surrogate_pair", "[\"\\uD801\\udc37\"]", 0, SAME},
    {"y_string_escaped_noncharacter", "[\"\\uFFFF\"]", 0, SAME},
    {"y_string_utf8_2_3_4_bytes", "[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]", 0, SAME},
    {"y_string_last_code_point", "[\"\xf4\x8f\xbf\xbf\"]", 0, SAME},
    {"y_string_first_3_byte", "[\"\xe0\xa0\x80\"]", 0, SAME},
    {"y_string_before_surrogates", "[\"\xed\x9f\xbf\"]", 0, SAME},
    {"y_string_after_surrogates", "[\"\xee\x80\x80\"]", 0, SAME},
    {"y_string_first_4_byte", "[\"\xf0\x90\x80\x80\"]", 0, SAME},
    {"y_string_del_unescaped", "[\"a\x7f\"]", 0, SAME},
    {"y_string_space", "\" \"", 0, SAME},
    {"y_structure_lonely_false", "false", 0, SAME},
    {"y_structure_lonely_int", "42", 0, SAME},
    {"y_structure_lonely_null", "null", 0, SAME},
    {"y_structure_lonely_string", "\"asd\"", 0, SAME},
    {"y_structure_lonely_true", "true", 0, SAME},
    {"y_structure_whitespace_array", " \t\r\n[]\n\r\t ", 0, SAME},
};

static const grammar_case n_cases[] = {
    {"n_array_1_true_without_comma", "[1 true]", 0, SAME},
    {"n_array_comma_after_close", "[\"\"],", 0, SAME},
    {"n_array_extra_comma", "[\"\",]", 0, SAME},
    {"n_array_just_comma", "[,]", 0, SAME},
    {"n_array_missing_value", "[   , \"\"]", 0, SAME},
    {"n_array_unclosed", "[\"\"", 0, SAME},
    {"n_array_unclosed_nested", "[[]", 0, SAME},
    {"n_incomplete_false", "[fals]", 0, SAME},
    {"n_incomplete_null", "[nul]", 0, SAME},
    {"n_incomplete_true", "[tru]", 0, SAME},
    {"n_capitalized_True", "[True]", 0, SAME},
    {"n_number_plus_1", "[+1]", 0, SAME},
    {"n_number_leading_zero", "[012]", 0, SAME},
    {"n_number_neg_leading_zero", "[-012]", 0, SAME},
    {"n_number_starting_with_dot", "[.123]", 0, SAME},
    {"n_number_trailing_dot", "[1.]", 0, SAME},
    {"n_number_dot_exponent", "[1.e1]", 0, SAME},
    {"n_number_exponent_without_digits", "[1e]", 0, SAME},
    {"n_number_exponent_sign_only", "[1e+]", 0, SAME},
    {"n_number_minus_only", "[-]", 0, SAME},
    {"n_number_minus_space_1", "[- 1]", 0, SAME},
    {"n_number_hex", "[0x1]", 0, SAME},
    {"n_number_infinity", "[Infinity]", 0, SAME},
    {"n_number_nan", "[NaN]", 0, SAME},
    {"n_number_neg_infinity", "[-Infinity]", 0, SAME},
    {"n_number_with_alpha", "[1.2a-3]", 0, SAME},
    {"n_object_bad_value", "[\"x\", truth]", 0, SAME},
    {"n_object_missing_colon", "{\"a\" b}", 0, SAME},
    {"n_object_missing_value", "{\"a\":", 0, SAME},
    {"n_object_non_string_key", "{1:1}", 0, SAME},
    {"n_object_single_quote", "{'a':0}", 0, SAME},
    {"n_object_trailing_comma", "{\"id\":0,}", 0, SAME},
    {"n_object_two_commas", "{\"a\":\"b\",,\"c\":\"d\"}", 0, SAME},
    {"n_object_unquoted_key", "{a: \"b\"}", 0, SAME},
    {"n_object_unclosed", "{\"asd\":\"asd\"", 0, SAME},
    {"n_string_1_surrogate_then_escape", "[\"\\uD800\\\"]", 0, SAME},
    {"n_string_lone_high_surrogate", "[\"\\uD800\"]", 0, SAME},
    {"n_string_lone_low_surrogate", "[\"\\uDC00\"]", 0, SAME},
    {"n_string_high_then_not_low", "[\"\\uD800\\u0041\"]", 0, SAME},
    {"n_string_two_high_surrogates", "[\"\\uD800\\uD800\"]", 0, SAME},
    {"n_string_escape_x", "[\"\\x00\"]", 0, SAME},
    {"n_string_incomplete_escape", "[\"\\\"]", 0, SAME},
    {"n_string_incomplete_unicode", "[\"\\u00A\"]", 0, SAME},
    {"n_string_invalid_unicode_escape", "[\"\\uqqqq\"]", 0, SAME},
    {"n_string_single_quote", "['single quote']", 0, SAME},
    {"n_string_unescaped_tab", "[\"\t\"]", 0, SAME},
    {"n_string_unescaped_newline", "[\"new\nline\"]", 0, SAME},
    {"n_string_unescaped_ctrl_char", "[\"a\x01\"]", 0, SAME},
    {"n_string_raw_nul", "[\"a\0b\"]", 7, SAME},
    {"n_string_no_quotes_with_bad_escape", "[\\n]", 0, SAME},
    {"n_string_unterminated", "[\"a]", 0, SAME},
    {"n_utf8_invalid_byte", "[\"\xff\"]", 0, SAME},
    {"n_utf8_lone_continuation", "[\"\x80\"]", 0, SAME},
    {"n_utf8_overlong_2_bytes", "[\"\xc0\xaf\"]", 0, SAME},
    {"n_utf8_overlong_c1", "[\"\xc1\xbf\"]", 0, SAME},
    {"n_utf8_overlong_3_bytes", "[\"\xe0\x80\xaf\"]", 0, SAME},
    {"n_utf8_overlong_4_bytes", "[\"\xf0\x80\x80\xaf\"]", 0, SAME},
    {"n_utf8_encoded_surrogate", "[\"\xed\xa0\x80\"]", 0, SAME},
    {"n_utf8_above_max", "[\"\xf4\x90\x80\x80\"]", 0, SAME},
    {"n_utf8_5_bytes", "[\"\xf8\x88\x80\x80\x80\"]", 0, SAME},
    {"n_utf8_truncated_2_of_3", "[\"\xe2\x82\"]", 0, SAME},
    {"n_utf8_truncated_at_end", "[\"\xf0\x9f\x98", 0, SAME},
    {"n_utf8_outside_string", "[\xc3\xa9]", 0, SAME},
    {"n_structure_bom", "\xef\xbb\xbf{}", 0, SAME},
    {"n_structure_empty", "", 0, SAME},
    {"n_structure_whitespace_only", " \n", 0, SAME},
    {"n_structure_two_values", "[] []", 0, SAME},
    {"n_structure_trailing_garbage", "[1]x", 0, SAME},
    {"n_structure_comment", "[1]//", 0, SAME},
    {"n_structure_form_feed_ws", "[\f]", 0, SAME},
    {"n_structure_vertical_tab_ws", "[\v1]", 0, SAME},
    {"n_structure_nbsp_ws", "\xc2\xa0[]", 0, SAME},
    {"n_structure_open_object", "{", 0, SAME},
    {"n_structure_close_only", "]", 0, SAME},
    {"n_structure_angle_bracket", "<.>", 0, SAME},
    {"n_structure_nul_after_number", "[1\0]", 4, JANSSON_SKIPS_NUL},
    {"n_structure_nul_after_value", "[1]\0", 4, SAME},
};

static void check_cases(const grammar_case *cases, size_t n, int want) {
    for (size_t i = 0; i < n; i++) {
        const grammar_case *c = &cases[i];
        size_t len = c->len ? c->len : strlen(c->text);
        ck_assert_msg(view_accepts(c->text, len) == want, "%s: the view %s it", c->name,
                      want ? "refuses" : "accepts");
        int j = jansson_verdict(c->text, len);
        if (c->jansson == SAME)
            ck_assert_msg(j == (want ? J_ACCEPTS : J_REFUSES), "%s: jansson disagrees (%d)",
                          c->name, j);
        else if (c->jansson == JANSSON_OVERFLOWS)
            ck_assert_msg(j == J_OVERFLOW, "%s: jansson should refuse the number", c->name);
        else if (c->jansson == JANSSON_SKIPS_NUL)
            ck_assert_msg(j == J_ACCEPTS, "%s: jansson's NUL quirk is gone", c->name);
        else if (c->jansson == JANSSON_NO_NUL_NAMES)
            ck_assert_msg(j == J_REFUSES, "%s: jansson now takes NUL in names", c->name);
        else
            ck_abort_msg("%s: unknown expectation", c->name);
    }
}

START_TEST(y_cases_are_accepted) {
    check_cases(y_cases, sizeof y_cases / sizeof y_cases[0], 1);
}
END_TEST

START_TEST(n_cases_are_refused) {
    check_cases(n_cases, sizeof n_cases / sizeof n_cases[0], 0);
}
END_TEST

static void expect_error(const char *text, size_t len, const char *message, size_t offset) {
    smfw_json_view v;
    smfw_json_error e = {NULL, 0};
    ck_assert_int_eq(smfw_json_parse(text, len ? len : strlen(text), &v, &e), -1);
    ck_assert_int_eq(v.type, SMFW_JSON_NONE);
    ck_assert_msg(e.message && strcmp(e.message, message) == 0, "%s: %s", text, e.message);
    ck_assert_uint_eq(e.offset, offset);
}

START_TEST(errors_name_the_reason_and_byte) {
    expect_error("[1,]", 0, "unexpected character", 3);
    expect_error("[\"a\xff\"]", 0, "invalid UTF-8 in a string", 3);
    expect_error("{\"a\" 1}", 0, "expected ':'", 5);
    expect_error("{\"a\":1 \"b\"}", 0, "expected ',' or '}'", 7);
    expect_error("[1 2]", 0, "expected ',' or ']'", 3);
    expect_error("{1:2}", 0, "expected a member name", 1);
    expect_error("[\"\\uD800x\"]", 0, "unpaired surrogate in a string", 2);
    expect_error("[\"\\q\"]", 0, "invalid escape in a string", 2);
    expect_error("[\"\\u12\"]", 0, "invalid \\u escape", 2);
    expect_error("[\"a\tb\"]", 0, "control character in a string", 3);
    expect_error("[\"abc", 0, "unterminated string", 5);
    expect_error("[01]", 0, "expected ',' or ']'", 2);
    expect_error("01", 0, "end of text expected", 1);
    expect_error("[1.x]", 0, "invalid number", 3);
    expect_error("[nul]", 0, "invalid literal", 1);
    expect_error("[1] [", 0, "end of text expected", 4);
    expect_error("", 0, "unexpected end of text", 0);
    /* A NULL text is an empty one. */
    smfw_json_view v;
    ck_assert_int_eq(smfw_json_parse(NULL, 5, &v, NULL), -1);
}
END_TEST

/* n nested arrays (and objects when `objects`), or NULL when out of memory. */
static char *nested(size_t n, int objects, size_t *len) {
    size_t unit = objects ? 5 : 1; /* {"a": ... } */
    char *s = malloc(n * (unit + 1) + 2);
    ck_assert_ptr_nonnull(s);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(s + at, objects ? "{\"a\":" : "[", unit);
        at += unit;
    }
    s[at++] = '1';
    for (size_t i = 0; i < n; i++) s[at++] = objects ? '}' : ']';
    *len = at;
    return s;
}

START_TEST(depth_limit_is_exact_and_deep_input_is_safe) {
    size_t len;
    for (int objects = 0; objects < 2; objects++) {
        char *s = nested(SMFW_JSON_MAX_DEPTH, objects, &len);
        ck_assert(view_accepts(s, len));
        free(s);
        s = nested(SMFW_JSON_MAX_DEPTH + 1, objects, &len);
        smfw_json_view v;
        smfw_json_error e;
        ck_assert_int_eq(smfw_json_parse(s, len, &v, &e), -1);
        ck_assert_str_eq(e.message, "nested too deeply");
        ck_assert_uint_eq(e.offset, (size_t)SMFW_JSON_MAX_DEPTH * (objects ? 5 : 1));
        free(s);
    }
    /* A megabyte of '[': refused without recursion, in one pass. */
    size_t n = 1u << 20;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    memset(s, '[', n);
    ck_assert(!view_accepts(s, n));
    free(s);
    /* Deep inside, lookups still work. */
    char *d = nested(SMFW_JSON_MAX_DEPTH, 1, &len);
    smfw_json_view root, v;
    ck_assert_int_eq(smfw_json_parse(d, len, &root, NULL), 0);
    ck_assert(smfw_json_path(&root, "a.a.a.a", &v) && v.type == SMFW_JSON_OBJECT);
    free(d);
}
END_TEST

static smfw_json_view number(const char *text) {
    smfw_json_view v;
    ck_assert_msg(smfw_json_parse(text, strlen(text), &v, NULL) == 0, "%s", text);
    ck_assert_int_eq(v.type, SMFW_JSON_NUMBER);
    return v;
}

static void expect_int(const char *text, int rc, int64_t want) {
    smfw_json_view v = number(text);
    int64_t x = 12345;
    ck_assert_msg(smfw_json_int64(&v, &x) == rc, "%s: rc", text);
    if (rc == SMFW_JSON_NUM_NOT)
        ck_assert_msg(x == 12345, "%s: *out touched", text);
    else
        ck_assert_msg(x == want, "%s: %lld", text, (long long)x);
}

START_TEST(int64_reads_integral_values_and_reports_overflow) {
    expect_int("0", SMFW_JSON_NUM_OK, 0);
    expect_int("-0", SMFW_JSON_NUM_OK, 0);
    expect_int("42", SMFW_JSON_NUM_OK, 42);
    expect_int("-17", SMFW_JSON_NUM_OK, -17);
    expect_int("3.0", SMFW_JSON_NUM_OK, 3);
    expect_int("1e2", SMFW_JSON_NUM_OK, 100);
    expect_int("-1E+2", SMFW_JSON_NUM_OK, -100);
    expect_int("0.5e1", SMFW_JSON_NUM_OK, 5);
    expect_int("1230e-1", SMFW_JSON_NUM_OK, 123);
    expect_int("0.0001e4", SMFW_JSON_NUM_OK, 1);
    expect_int("0.000e99999", SMFW_JSON_NUM_OK, 0);
    expect_int("9223372036854775807", SMFW_JSON_NUM_OK, INT64_MAX);
    expect_int("-9223372036854775808", SMFW_JSON_NUM_OK, INT64_MIN);
    expect_int("922337203685477580.7e1", SMFW_JSON_NUM_OK, INT64_MAX);
    expect_int("9223372036854775808", SMFW_JSON_NUM_OVERFLOW, INT64_MAX);
    expect_int("-9223372036854775809", SMFW_JSON_NUM_OVERFLOW, INT64_MIN);
    expect_int("100000000000000000000000000", SMFW_JSON_NUM_OVERFLOW, INT64_MAX);
    expect_int("1e19", SMFW_JSON_NUM_OVERFLOW, INT64_MAX);
    expect_int("-1e99999999999999", SMFW_JSON_NUM_OVERFLOW, INT64_MIN);
    expect_int("2.5", SMFW_JSON_NUM_NOT, 0);
    expect_int("1e-1", SMFW_JSON_NUM_NOT, 0);
    expect_int("3.0000000000000000000001", SMFW_JSON_NUM_NOT, 0);
    expect_int("1e-99999999999999", SMFW_JSON_NUM_NOT, 0);
    /* Non-numbers. */
    smfw_json_view s = {SMFW_JSON_STRING, "\"1\"", 3}, none = {SMFW_JSON_NONE, NULL, 0};
    int64_t x;
    double d;
    ck_assert_int_eq(smfw_json_int64(&s, &x), SMFW_JSON_NUM_NOT);
    ck_assert_int_eq(smfw_json_int64(&none, &x), SMFW_JSON_NUM_NOT);
    ck_assert_int_eq(smfw_json_double(&s, &d), SMFW_JSON_NUM_NOT);
    ck_assert_int_eq(smfw_json_int64(NULL, &x), SMFW_JSON_NUM_NOT);
}
END_TEST

START_TEST(double_reads_as_strtod_and_reports_overflow) {
    static const char *const texts[] = {"0",
                                        "-0.0",
                                        "2.5",
                                        "-1E-2",
                                        "123.456e78",
                                        "1e308",
                                        "1.7976931348623157e308",
                                        "4.9e-324",
                                        "1e-400",
                                        "0.1",
                                        "9007199254740993",
                                        "0.30000000000000004",
                                        "2.2250738585072011e-308"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        smfw_json_view v = number(texts[i]);
        double d;
        ck_assert_int_eq(smfw_json_double(&v, &d), SMFW_JSON_NUM_OK);
        ck_assert_msg(d == strtod(texts[i], NULL), "%s: %.17g", texts[i], d);
    }
    smfw_json_view v = number("-0");
    double d;
    ck_assert_int_eq(smfw_json_double(&v, &d), SMFW_JSON_NUM_OK);
    ck_assert(d == 0 && signbit(d));
    v = number("1e309");
    ck_assert_int_eq(smfw_json_double(&v, &d), SMFW_JSON_NUM_OVERFLOW);
    ck_assert(d == HUGE_VAL);
    v = number("-1.5e99999999999999999");
    ck_assert_int_eq(smfw_json_double(&v, &d), SMFW_JSON_NUM_OVERFLOW);
    ck_assert(d == -HUGE_VAL);
    /* More digits than the rewrite keeps: the dropped ones still round correctly. */
    char longnum[1200];
    memset(longnum, '0', sizeof longnum);
    memcpy(longnum, "1.", 2);
    longnum[900] = '1'; /* 1.000...0001 (898 zeros): a hair above 1 */
    longnum[sizeof longnum - 1] = '\0';
    v = number(longnum);
    ck_assert_int_eq(smfw_json_double(&v, &d), SMFW_JSON_NUM_OK);
    ck_assert(d == strtod(longnum, NULL) && d == 1.0);
    /* Exactly halfway between two doubles, and just above it (decided past digit 800). */
    const char *half = "9007199254740993";
    char above[1000];
    snprintf(above, sizeof above, "%s.", half);
    size_t at = strlen(above);
    memset(above + at, '0', 900);
    above[at + 900] = '1';
    above[at + 901] = '\0';
    v = number(above);
    ck_assert_int_eq(smfw_json_double(&v, &d), SMFW_JSON_NUM_OK);
    ck_assert(d == strtod(above, NULL) && d == 9007199254740994.0);
    v = number(half);
    ck_assert_int_eq(smfw_json_double(&v, &d), SMFW_JSON_NUM_OK);
    ck_assert(d == 9007199254740992.0); /* ties to even */
    /* Literal forms. */
    ck_assert(smfw_json_is_integer_literal(&(smfw_json_view){SMFW_JSON_NUMBER, "-12", 3}));
    ck_assert(!smfw_json_is_integer_literal(&(smfw_json_view){SMFW_JSON_NUMBER, "1.0", 3}));
    ck_assert(!smfw_json_is_integer_literal(&(smfw_json_view){SMFW_JSON_NUMBER, "1e2", 3}));
    ck_assert(!smfw_json_is_integer_literal(&(smfw_json_view){SMFW_JSON_STRING, "\"1\"", 3}));
}
END_TEST

START_TEST(strings_decode_escapes_pairs_and_truncate) {
    const char *doc = "\"h\\u00e9\\\"\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\\\\\"";
    smfw_json_view v;
    ck_assert_int_eq(smfw_json_parse(doc, strlen(doc), &v, NULL), 0);
    const char *want = "h\xc3\xa9\"\xf0\x9f\x98\x80/\b\f\n\r\t\\";
    char out[64];
    ck_assert_uint_eq(smfw_json_string_decode(&v, out, sizeof out), strlen(want));
    ck_assert_str_eq(out, want);
    ck_assert_uint_eq(smfw_json_string_length(&v), strlen(want));
    ck_assert(smfw_json_string_equals(&v, want));
    ck_assert(!smfw_json_string_equals(&v, "h"));
    /* Truncated output: NUL-terminated, the full length returned. */
    char small[4];
    ck_assert_uint_eq(smfw_json_string_decode(&v, small, sizeof small), strlen(want));
    ck_assert_str_eq(small, "h\xc3\xa9");
    ck_assert_uint_eq(smfw_json_string_decode(&v, NULL, 0), strlen(want));
    /* \u0000 decodes to a NUL byte inside the text. */
    const char *nul = "\"a\\u0000b\"";
    ck_assert_int_eq(smfw_json_parse(nul, strlen(nul), &v, NULL), 0);
    ck_assert_uint_eq(smfw_json_string_decode(&v, out, sizeof out), 3);
    ck_assert(memcmp(out, "a\0b", 4) == 0);
    ck_assert(smfw_json_string_equals_n(&v, "a\0b", 3));
    ck_assert(!smfw_json_string_equals(&v, "a"));
    /* Escapes only matter after decoding: raw bytes equal to the text are not enough. */
    const char *esc = "\"a\\\\nb\""; /* decodes to a\nb with a real backslash */
    ck_assert_int_eq(smfw_json_parse(esc, strlen(esc), &v, NULL), 0);
    ck_assert(smfw_json_string_equals(&v, "a\\nb"));
    ck_assert(!smfw_json_string_equals(&v, "a\\\\nb"));
    const char *empty = "\"\"";
    ck_assert_int_eq(smfw_json_parse(empty, 2, &v, NULL), 0);
    ck_assert(!smfw_json_string_nonempty(&v));
    ck_assert(smfw_json_string_equals(&v, ""));
    /* Non-strings decode to nothing. */
    smfw_json_view n = {SMFW_JSON_NUMBER, "1", 1};
    ck_assert_uint_eq(smfw_json_string_decode(&n, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
    ck_assert_uint_eq(smfw_json_string_length(NULL), 0);
    /* A hand-made view with broken escapes: U+FFFD for each, nothing read past its bytes. */
    smfw_json_view hand = {SMFW_JSON_STRING, "\"\\ud800\\u12\"", 12};
    ck_assert_uint_eq(smfw_json_string_decode(&hand, out, sizeof out), 8);
    ck_assert_str_eq(out, "\xef\xbf\xbd\xef\xbf\xbd"
                          "12");
}
END_TEST

START_TEST(lookups_and_iteration_read_as_a_tree) {
    const char *doc = "{\"choices\":[{\"delta\":{\"content\":\"h\\u00e9\"}},{\"x\":2}],"
                      "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3.0},"
                      "\"k\\u0065y\":1,\"dup\":1,\"dup\":[true,false,null],\"0\":\"zero\"}";
    smfw_json_view root, v;
    ck_assert_int_eq(smfw_json_parse(doc, strlen(doc), &root, NULL), 0);
    ck_assert_int_eq(root.type, SMFW_JSON_OBJECT);
    ck_assert_uint_eq(root.len, strlen(doc));
    ck_assert(smfw_json_path(&root, "choices.0.delta.content", &v));
    ck_assert(smfw_json_string_equals(&v, "h\xc3\xa9"));
    int64_t x;
    ck_assert(smfw_json_path(&root, "usage.completion_tokens", &v));
    ck_assert_int_eq(smfw_json_int64(&v, &x), SMFW_JSON_NUM_OK);
    ck_assert_int_eq(x, 3);
    ck_assert(smfw_json_get(&root, "key", &v));                              /* escaped name */
    ck_assert(smfw_json_get(&root, "dup", &v) && v.type == SMFW_JSON_ARRAY); /* last wins */
    ck_assert_uint_eq(smfw_json_count(&v), 3);
    smfw_json_view e;
    int b = -1;
    ck_assert(smfw_json_index(&v, 0, &e) && smfw_json_bool(&e, &b) == 0 && b == 1);
    ck_assert(smfw_json_index(&v, 1, &e) && smfw_json_bool(&e, &b) == 0 && b == 0);
    ck_assert(smfw_json_index(&v, 2, &e) && smfw_json_is_null(&e) && smfw_json_bool(&e, &b) < 0);
    ck_assert(!smfw_json_index(&v, 3, &e));
    ck_assert(smfw_json_path(&root, "0", &v) && smfw_json_string_equals(&v, "zero"));
    ck_assert(smfw_json_path(&root, "choices.1.x", &v));
    ck_assert(!smfw_json_path(&root, "choices.2", &v));
    ck_assert(!smfw_json_path(&root, "choices.0.nope", &v));
    ck_assert(!smfw_json_path(&root, "choices..0", &v));
    ck_assert(!smfw_json_path(&root, "usage.", &v));
    ck_assert(!smfw_json_get(&root, "missing", &v));
    ck_assert_uint_eq(smfw_json_count(&root), 6); /* duplicates counted */
    ck_assert(smfw_json_path(&root, "", &v) && v.p == root.p);
    /* Iteration: text order, duplicates included. */
    static const char *const names[] = {"choices", "usage", "key", "dup", "dup", "0"};
    static const smfw_json_type types[] = {SMFW_JSON_ARRAY,  SMFW_JSON_OBJECT, SMFW_JSON_NUMBER,
                                           SMFW_JSON_NUMBER, SMFW_JSON_ARRAY,  SMFW_JSON_STRING};
    smfw_json_iter it;
    smfw_json_view k;
    size_t i = 0;
    smfw_json_iter_init(&it, &root);
    while (smfw_json_next(&it, &k, &v)) {
        ck_assert_uint_lt(i, 6);
        ck_assert_msg(smfw_json_string_equals(&k, names[i]), "member %zu", i);
        ck_assert_int_eq(v.type, types[i]);
        i++;
    }
    ck_assert_uint_eq(i, 6);
    ck_assert(!smfw_json_next(&it, &k, &v));
    /* Arrays give no key; scalars and NONE iterate nothing. */
    const char *arr = "[ 1 , \"two\" ,[3], {} ]";
    ck_assert_int_eq(smfw_json_parse(arr, strlen(arr), &root, NULL), 0);
    smfw_json_iter_init(&it, &root);
    for (i = 0; smfw_json_next(&it, &k, &v); i++) ck_assert_int_eq(k.type, SMFW_JSON_NONE);
    ck_assert_uint_eq(i, 4);
    ck_assert(smfw_json_index(&root, 3, &v) && v.type == SMFW_JSON_OBJECT && v.len == 2);
    ck_assert_uint_eq(smfw_json_count(&v), 0);
    smfw_json_view none = {SMFW_JSON_NONE, NULL, 0};
    smfw_json_iter_init(&it, &none);
    ck_assert(!smfw_json_next(&it, NULL, &v));
    ck_assert(!smfw_json_get(&none, "a", &v) && !smfw_json_index(&none, 0, &v));
    ck_assert_uint_eq(smfw_json_count(&none), 0);
}
END_TEST

START_TEST(find_gives_what_the_lookups_give_in_one_pass) {
    static const char *const paths[] = {"object",
                                        "usage",
                                        "choices.0.delta.content",
                                        "choices.0.delta.reasoning_content",
                                        "choices.1",
                                        "",
                                        "n.0",
                                        "n.0.x",
                                        "dup.a"};
    smfw_json_paths set;
    ck_assert_int_eq(smfw_json_paths_init(&set, paths, 9), 0);
    const char *chunk =
        "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        "\"delta\":{\"role\":\"assistant\",\"c\\u006fntent\":\"Hi \\ud83d\\ude00\"}}],"
        "\"usage\":{\"prompt_tokens\":5},\"n\":{\"0\":{\"x\":7}},"
        "\"dup\":{\"a\":1},\"dup\":{\"b\":2}}";
    smfw_json_view root, found[9];
    ck_assert_int_eq(smfw_json_find(chunk, strlen(chunk), &set, &root, found, NULL), 0);
    ck_assert(smfw_json_string_equals(&found[0], "chat.completion.chunk"));
    ck_assert_int_eq(found[1].type, SMFW_JSON_OBJECT);
    ck_assert(smfw_json_string_equals(&found[2], "Hi \xf0\x9f\x98\x80"));
    ck_assert_int_eq(found[3].type, SMFW_JSON_NONE);
    ck_assert_int_eq(found[4].type, SMFW_JSON_NONE);
    ck_assert(found[5].type == SMFW_JSON_OBJECT && found[5].p == root.p &&
              found[5].len == root.len);
    ck_assert_int_eq(found[6].type, SMFW_JSON_OBJECT); /* a digit segment names a member */
    ck_assert_int_eq(found[7].type, SMFW_JSON_NUMBER);
    ck_assert_int_eq(found[8].type, SMFW_JSON_NONE); /* the second "dup" replaced the first */
    for (size_t i = 0; i < 9; i++) {
        smfw_json_view v;
        int hit = smfw_json_path(&root, paths[i], &v);
        ck_assert_int_eq(hit, found[i].type != SMFW_JSON_NONE);
        if (hit) ck_assert(v.type == found[i].type && v.p == found[i].p && v.len == found[i].len);
    }
    /* Root arrays, later duplicates, nested arrays of arrays. */
    static const char *const apaths[] = {"0.token.text", "1", "1.1.0", "2"};
    ck_assert_int_eq(smfw_json_paths_init(&set, apaths, 4), 0);
    const char *arr = "[{\"token\":{\"text\":\"a\"},\"token\":{\"text\":\"b\"}},[0,[5,6]]]";
    ck_assert_int_eq(smfw_json_find(arr, strlen(arr), &set, &root, found, NULL), 0);
    ck_assert(smfw_json_string_equals(&found[0], "b"));
    ck_assert(found[1].type == SMFW_JSON_ARRAY && found[1].len == 9);
    ck_assert(found[2].type == SMFW_JSON_NUMBER && found[2].p[0] == '5');
    ck_assert_int_eq(found[3].type, SMFW_JSON_NONE);
    /* Not JSON: nothing found, even what came before the error. */
    const char *bad = "[{\"token\":{\"text\":\"a\"}},";
    smfw_json_error err;
    ck_assert_int_eq(smfw_json_find(bad, strlen(bad), &set, &root, found, &err), -1);
    for (size_t i = 0; i < 4; i++) ck_assert_int_eq(found[i].type, SMFW_JSON_NONE);
    ck_assert_int_eq(root.type, SMFW_JSON_NONE);
    /* No set: a plain parse. */
    ck_assert_int_eq(smfw_json_find("[1]", 3, NULL, &root, NULL, NULL), 0);
}
END_TEST

START_TEST(paths_init_refuses_unusable_paths) {
    smfw_json_paths set;
    const char *one[1];
    static const char *const bad[] = {"a..b", ".a", "a.", "."};
    for (size_t i = 0; i < 4; i++) {
        one[0] = bad[i];
        ck_assert_msg(smfw_json_paths_init(&set, one, 1) == -1, "%s", bad[i]);
        ck_assert_uint_eq(set.count, 0);
    }
    one[0] = NULL;
    ck_assert_int_eq(smfw_json_paths_init(&set, one, 1), -1);
    one[0] = "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p"; /* 16 segments */
    ck_assert_int_eq(smfw_json_paths_init(&set, one, 1), 0);
    one[0] = "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q"; /* 17 */
    ck_assert_int_eq(smfw_json_paths_init(&set, one, 1), -1);
    const char *many[SMFW_JSON_PATHS_MAX + 1];
    for (size_t i = 0; i <= SMFW_JSON_PATHS_MAX; i++) many[i] = "a";
    ck_assert_int_eq(smfw_json_paths_init(&set, many, SMFW_JSON_PATHS_MAX), 0);
    ck_assert_int_eq(smfw_json_paths_init(&set, many, SMFW_JSON_PATHS_MAX + 1), -1);
    /* 32 paths at once, the deepest too. */
    char names[SMFW_JSON_PATHS_MAX][8];
    char doc[1024] = "{";
    for (size_t i = 0; i < SMFW_JSON_PATHS_MAX; i++) {
        snprintf(names[i], sizeof names[i], "k%zu", i);
        many[i] = names[i];
        snprintf(doc + strlen(doc), sizeof doc - strlen(doc), "%s\"k%zu\":%zu", i ? "," : "", i, i);
    }
    strcat(doc, "}");
    ck_assert_int_eq(smfw_json_paths_init(&set, many, SMFW_JSON_PATHS_MAX), 0);
    smfw_json_view root, found[SMFW_JSON_PATHS_MAX];
    ck_assert_int_eq(smfw_json_find(doc, strlen(doc), &set, &root, found, NULL), 0);
    for (size_t i = 0; i < SMFW_JSON_PATHS_MAX; i++) {
        int64_t x;
        ck_assert_int_eq(smfw_json_int64(&found[i], &x), SMFW_JSON_NUM_OK);
        ck_assert_int_eq(x, (int64_t)i);
    }
    one[0] = "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p";
    ck_assert_int_eq(smfw_json_paths_init(&set, one, 1), 0);
    const char *deep = "{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":{\"f\":{\"g\":{\"h\":{\"i\":{\"j\":{"
                       "\"k\":{\"l\":{\"m\":{\"n\":{\"o\":{\"p\":[1]}}}}}}}}}}}}}}}}";
    ck_assert_int_eq(smfw_json_find(deep, strlen(deep), &set, &root, found, NULL), 0);
    ck_assert(found[0].type == SMFW_JSON_ARRAY && found[0].len == 3);
}
END_TEST

/* The edge cases the mock's reader was checked with: jansson agrees up to overflow. */
START_TEST(edge_cases_agree_with_jansson) {
    static const char *const docs[] = {"{}",
                                       "[]",
                                       "0",
                                       "-0",
                                       "1.5e3",
                                       "-1E-2",
                                       "\"\"",
                                       "true",
                                       "false",
                                       "null",
                                       " {\"a\" : [1, 2 ,3]} ",
                                       "{\"a\":{\"b\":{\"c\":[]}}}",
                                       "\"\\u00e9\\ud83d\\ude00\"",
                                       "\"caf\xc3\xa9\"",
                                       "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
                                       "9223372036854775807",
                                       "-9223372036854775808",
                                       "1e308",
                                       "",
                                       " ",
                                       "{",
                                       "}",
                                       "[1,]",
                                       "{\"a\":1,}",
                                       "{\"a\" 1}",
                                       "{a:1}",
                                       "01",
                                       "1.",
                                       ".5",
                                       "+1",
                                       "-",
                                       "1e",
                                       "1e+",
                                       "tru",
                                       "nul",
                                       "\"abc",
                                       "\"\\x\"",
                                       "\"\\u12\"",
                                       "\"\\u0000\"",
                                       "\"\\ud800\"",
                                       "\"\\udc00\"",
                                       "\"\\ud800\\u0041\"",
                                       "\"a\x01\"",
                                       "\"\xff\"",
                                       "\"\xc3\"",
                                       "\"\xe0\x80\x80\"",
                                       "\"\xed\xa0\x80\"",
                                       "\"\xf4\x90\x80\x80\"",
                                       "\"\xc0\xaf\"",
                                       "[1] 2",
                                       "{} {}",
                                       "9223372036854775808",
                                       "-9223372036854775809",
                                       "123456789012345678901",
                                       "1e400",
                                       "-1e400",
                                       "[\"a\",,]",
                                       "[1 2]",
                                       "{\"a\":1 \"b\":2}",
                                       "\"tab\there\""};
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        size_t n = strlen(docs[i]);
        int ours = view_accepts(docs[i], n), j = jansson_verdict(docs[i], n);
        ck_assert_msg(ours == (j == J_ACCEPTS) || (ours && j == J_OVERFLOW),
                      "document %zu (%s): view %d, jansson %d", i, docs[i], ours, j);
    }
}
END_TEST

/* splitmix64, seeded: the mutations are the same on every run. */
static uint64_t rng_state = 0x5eed1234;
static uint64_t rnd(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

START_TEST(mutated_bodies_agree_with_jansson) {
    static const char *const seeds[] = {
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello \\u00e9\"}],"
        "\"max_tokens\":4,\"stream\":true,\"stream_options\":{\"include_usage\":true}}",
        "{\"prompt\":[\"a\",\"b\\n\"],\"max_tokens\":16.0,\"temperature\":0.7}",
        "{\"inputs\":\"caf\xc3\xa9 \\ud83d\\ude00\",\"parameters\":{\"max_new_tokens\":8,"
        "\"details\":true}}",
        "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}],"
        "\"max_completion_tokens\":-1e2,\"x\":[null,false,true,[],{}]}",
        "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":"
        "{\"content\":\" fox\"},\"finish_reason\":null}],\"usage\":{\"prompt_tokens\":12}}",
    };
    static const char alphabet[] = "{}[]\":,\\ 0123456789.eE+-tfnul\x01\x80\xc3\xa9\xff";
    char buf[512];
    size_t accepted = 0, refused = 0;
    for (int round = 0; round < 50000; round++) {
        const char *seed = seeds[(size_t)round % (sizeof seeds / sizeof seeds[0])];
        size_t n = strlen(seed);
        memcpy(buf, seed, n);
        int edits = 1 + (int)(rnd() % 3);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)(rnd() % n);
            switch (rnd() % 3) {
            case 0: /* replace */
                buf[at] = alphabet[rnd() % (sizeof alphabet - 1)];
                break;
            case 1: /* delete */
                memmove(buf + at, buf + at + 1, n - at - 1);
                n--;
                break;
            default: /* insert */
                if (n + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = alphabet[rnd() % (sizeof alphabet - 1)];
                    n++;
                }
            }
        }
        int a = view_accepts(buf, n), j = jansson_verdict(buf, n);
        ck_assert_msg(a == (j == J_ACCEPTS) || (a && j == J_OVERFLOW),
                      "mutation %d: view %d, jansson %d: %.*s", round, a, j, (int)n, buf);
        if (a)
            accepted++;
        else
            refused++;
    }
    /* The mutations must exercise both outcomes, or the comparison proves little. */
    ck_assert_uint_gt(accepted, 1000);
    ck_assert_uint_gt(refused, 1000);
}
END_TEST

/* Members, strings and numbers read as jansson decodes them (the mock's reader test). */
START_TEST(members_strings_and_numbers_read_as_jansson_decodes_them) {
    const char *doc =
        "{\"k\\u0065y\":\"caf\\u00e9\",\"plain\":\"abc\",\"emoji\":\"\\ud83d\\ude00!\","
        "\"raw\":\"\xc3\xa9t\xc3\xa9\",\"n\":42,\"r\":2.5e1,\"k\\u0065y\":\"last\"}";
    smfw_json_view root, key, val;
    ck_assert_int_eq(smfw_json_parse(doc, strlen(doc), &root, NULL), 0);
    json_t *ref = json_loads(doc, 0, NULL);
    ck_assert_ptr_nonnull(ref);
    const char *k;
    json_t *member;
    json_object_foreach(ref, k, member) {
        ck_assert(smfw_json_get(&root, k, &val));
        if (json_is_string(member)) {
            ck_assert_uint_eq(smfw_json_string_length(&val), json_string_length(member));
            ck_assert(smfw_json_string_equals(&val, json_string_value(member)));
        } else if (json_is_integer(member)) {
            int64_t x;
            ck_assert_int_eq(smfw_json_int64(&val, &x), SMFW_JSON_NUM_OK);
            ck_assert_int_eq(x, json_integer_value(member));
            ck_assert(smfw_json_is_integer_literal(&val));
        } else {
            double d;
            ck_assert_int_eq(smfw_json_double(&val, &d), SMFW_JSON_NUM_OK);
            ck_assert(d == json_real_value(member));
            ck_assert(!smfw_json_is_integer_literal(&val));
        }
    }
    smfw_json_iter it;
    int seen = 0;
    smfw_json_iter_init(&it, &root);
    while (smfw_json_next(&it, &key, &val)) seen++;
    ck_assert_int_eq(seen, 7);
    ck_assert_uint_eq(json_object_size(ref), 6);
    json_decref(ref);
}
END_TEST

int main(void) {
    Suite *s = suite_create("json_view");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, y_cases_are_accepted);
    tcase_add_test(tc, n_cases_are_refused);
    tcase_add_test(tc, errors_name_the_reason_and_byte);
    tcase_add_test(tc, depth_limit_is_exact_and_deep_input_is_safe);
    tcase_add_test(tc, int64_reads_integral_values_and_reports_overflow);
    tcase_add_test(tc, double_reads_as_strtod_and_reports_overflow);
    tcase_add_test(tc, strings_decode_escapes_pairs_and_truncate);
    tcase_add_test(tc, lookups_and_iteration_read_as_a_tree);
    tcase_add_test(tc, find_gives_what_the_lookups_give_in_one_pass);
    tcase_add_test(tc, paths_init_refuses_unusable_paths);
    tcase_add_test(tc, edge_cases_agree_with_jansson);
    tcase_add_test(tc, mutated_bodies_agree_with_jansson);
    tcase_add_test(tc, members_strings_and_numbers_read_as_jansson_decodes_them);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
