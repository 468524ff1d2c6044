/*
 * test_mock_jscan.c - smfw-mock's in-place JSON reader against jansson, a
 * decoder nobody here wrote: the same documents are accepted and refused
 * (a table of edge cases plus thousands of seeded mutations of real request
 * bodies), decoded string lengths and key matches agree, and the request
 * parser built on it (mock_llm_parse) reads formats, budgets, prompt sizes
 * and the model as the jansson version did.
 */
#include "jscan.h"
#include "llm.h"

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int jansson_accepts(const char *s, size_t n) {
    json_error_t e;
    json_t *v = json_loadb(s, n, JSON_DECODE_ANY, &e);
    json_decref(v);
    return v != NULL;
}

static int mj_accepts(const char *s, size_t n) {
    mj_value v;
    char err[128];
    return mj_parse(s, n, &v, err, sizeof err) == 0;
}

START_TEST(edge_cases_agree_with_jansson) {
    static const char *const docs[] = {
        "{}",
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
        /* refused */
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
        "\"tab\there\"",
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        size_t n = strlen(docs[i]);
        ck_assert_msg(mj_accepts(docs[i], n) == jansson_accepts(docs[i], n),
                      "document %zu (%s): jscan %d, jansson %d", i, docs[i], mj_accepts(docs[i], n),
                      jansson_accepts(docs[i], n));
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

START_TEST(mutated_request_bodies_agree_with_jansson) {
    static const char *const seeds[] = {
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello \\u00e9\"}],"
        "\"max_tokens\":4,\"stream\":true,\"stream_options\":{\"include_usage\":true}}",
        "{\"prompt\":[\"a\",\"b\\n\"],\"max_tokens\":16.0,\"temperature\":0.7}",
        "{\"inputs\":\"caf\xc3\xa9 \\ud83d\\ude00\",\"parameters\":{\"max_new_tokens\":8,"
        "\"details\":true}}",
        "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}],"
        "\"max_completion_tokens\":-1e2,\"x\":[null,false,true,[],{}]}",
    };
    static const char alphabet[] = "{}[]\":,\\ 0123456789.eE+-tfnul\x01\x80\xc3\xa9\xff";
    char buf[512];
    size_t agreed = 0, accepted = 0;
    for (int round = 0; round < 40000; round++) {
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
        int a = mj_accepts(buf, n), b = jansson_accepts(buf, n);
        ck_assert_msg(a == b, "mutation %d: jscan %d, jansson %d: %.*s", round, a, b, (int)n, buf);
        agreed++;
        accepted += (size_t)a;
    }
    /* The mutations must exercise both outcomes, or the comparison proves little. */
    ck_assert_uint_gt(accepted, 1000);
    ck_assert_uint_gt(agreed - accepted, 1000);
}
END_TEST

START_TEST(members_strings_and_numbers_read_as_jansson_decodes_them) {
    const char *doc =
        "{\"k\\u0065y\":\"caf\\u00e9\",\"plain\":\"abc\",\"emoji\":\"\\ud83d\\ude00!\","
        "\"raw\":\"\xc3\xa9t\xc3\xa9\",\"n\":42,\"r\":2.5e1,\"k\\u0065y\":\"last\"}";
    mj_value root, key, val;
    ck_assert_int_eq(mj_parse(doc, strlen(doc), &root, NULL, 0), 0);
    json_t *ref = json_loads(doc, 0, NULL);
    ck_assert_ptr_nonnull(ref);
    mj_iter it;
    mj_iter_init(&it, &root);
    int seen = 0, last_key = 0;
    while (mj_next(&it, &key, &val)) {
        seen++;
        if (val.type == MJ_STRING) {
            const char *names[] = {"key", "plain", "emoji", "raw"};
            for (size_t i = 0; i < 4; i++) {
                if (!mj_string_is(&key, names[i])) continue;
                if (i == 0) {
                    last_key++;
                    if (last_key == 1) continue; /* jansson keeps the last duplicate */
                }
                ck_assert_uint_eq(mj_string_length(&val),
                                  json_string_length(json_object_get(ref, names[i])));
            }
        } else {
            int whole;
            long long iv;
            double d = mj_number(&val, &whole, &iv);
            if (mj_string_is(&key, "n")) {
                ck_assert(whole);
                ck_assert_int_eq(iv, 42);
            } else {
                ck_assert(!whole);
                ck_assert(d == 25.0);
            }
        }
    }
    ck_assert_int_eq(seen, 7);
    ck_assert_int_eq(last_key, 2);
    json_decref(ref);
}
END_TEST

START_TEST(llm_parse_reads_formats_budgets_prompts_and_model) {
    mock_llm_request r;
    char err[256];
    const char *chat =
        "{\"model\":\"a\\\"b\",\"messages\":[{\"role\":\"user\",\"content\":\"12345678\"},"
        "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"abcde\"}]}],"
        "\"max_tokens\":9,\"max_completion_tokens\":7.9,\"stream\":true,"
        "\"stream_options\":{\"include_usage\":true}}";
    ck_assert_int_eq(
        mock_llm_parse((const uint8_t *)chat, strlen(chat), "dflt", &r, err, sizeof err), 0);
    ck_assert_int_eq(r.format, MOCK_LLM_CHAT);
    ck_assert_int_eq(r.max_tokens, 7);        /* max_completion_tokens wins, truncated */
    ck_assert_int_eq(r.prompt_tokens, 2 + 2); /* ceil(8/4) + ceil(5/4) */
    ck_assert(r.stream && r.include_usage);
    ck_assert_str_eq(r.model, "\"a\\\"b\"");
    /* The echoed model is a JSON string meaning what was sent. */
    json_t *m = json_loads(r.model, JSON_DECODE_ANY, NULL);
    ck_assert_str_eq(json_string_value(m), "a\"b");
    json_decref(m);

    const char *tgi =
        "{\"inputs\":\"\\u00e9\\u00e9\",\"parameters\":{\"max_new_tokens\":3,\"details\":true}}";
    ck_assert_int_eq(mock_llm_parse((const uint8_t *)tgi, strlen(tgi), "dflt", &r, err, sizeof err),
                     0);
    ck_assert_int_eq(r.format, MOCK_LLM_TGI);
    ck_assert_int_eq(r.max_tokens, 3);
    ck_assert_int_eq(r.prompt_tokens, 1); /* 4 UTF-8 bytes */
    ck_assert(r.tgi_details);
    ck_assert_str_eq(r.model, "\"dflt\"");

    const char *comp = "{\"prompt\":[\"abcd\",\"efgh\"],\"max_tokens\":5,\"stream\":false}";
    ck_assert_int_eq(mock_llm_parse((const uint8_t *)comp, strlen(comp), "d", &r, err, sizeof err),
                     0);
    ck_assert_int_eq(r.format, MOCK_LLM_COMPLETIONS);
    ck_assert_int_eq(r.prompt_tokens, 2);
    ck_assert(!r.stream);

    const char *bad[] = {"[1]", "{\"messages\":", "{\"x\":1}", "{\"messages\":[],\"max_tokens\":0}",
                         "{\"prompt\":\"a\",\"max_tokens\":-3}"};
    for (size_t i = 0; i < 5; i++)
        ck_assert_int_eq(
            mock_llm_parse((const uint8_t *)bad[i], strlen(bad[i]), "d", &r, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "max_tokens must be at least 1"));
}
END_TEST

int main(void) {
    Suite *s = suite_create("mock_jscan");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, edge_cases_agree_with_jansson);
    tcase_add_test(tc, mutated_request_bodies_agree_with_jansson);
    tcase_add_test(tc, members_strings_and_numbers_read_as_jansson_decodes_them);
    tcase_add_test(tc, llm_parse_reads_formats_budgets_prompts_and_model);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
