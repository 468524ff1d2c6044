/*
 * test_mock_llm.c - smfw-mock's request parser (mock_llm_parse, on the
 * core's JSON view; the view itself against jansson is test_json_view.c)
 * reads formats, budgets, prompt sizes and the model as the jansson version
 * did, with a parsed tree's answers for duplicate members, and refuses
 * bodies that are not JSON objects with the reason and its byte.
 */
#include "llm.h"

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smfw_test.h"

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

START_TEST(llm_parse_duplicates_numbers_and_refusals) {
    mock_llm_request r;
    char err[256];
    /* The last "parameters" wins whole: its max_new_tokens is absent, not the first one's 3. */
    const char *dup = "{\"inputs\":\"abcd\",\"parameters\":{\"max_new_tokens\":3},"
                      "\"parameters\":{\"details\":true},\"stream\":true,\"stream\":false}";
    ck_assert_int_eq(mock_llm_parse((const uint8_t *)dup, strlen(dup), "d", &r, err, sizeof err),
                     0);
    ck_assert_int_eq(r.max_tokens, 0);
    ck_assert(r.tgi_details);
    ck_assert(!r.stream);
    /* Budgets beyond int64 or double are clamped, as a Python server reads them. */
    const char *big = "{\"prompt\":\"a\",\"max_tokens\":123456789012345678901234}";
    ck_assert_int_eq(mock_llm_parse((const uint8_t *)big, strlen(big), "d", &r, err, sizeof err),
                     0);
    ck_assert_int_eq(r.max_tokens, 2147483647L);
    const char *huge = "{\"prompt\":\"a\",\"max_tokens\":1e400}";
    ck_assert_int_eq(mock_llm_parse((const uint8_t *)huge, strlen(huge), "d", &r, err, sizeof err),
                     0);
    ck_assert_int_eq(r.max_tokens, 2147483647L);
    /* Not JSON: the reason and the byte where it was found. */
    const char *bad = "{\"prompt\":\"a\xff\"}";
    ck_assert_int_eq(mock_llm_parse((const uint8_t *)bad, strlen(bad), "d", &r, err, sizeof err),
                     -1);
    ck_assert_str_eq(err,
                     "request body is not a JSON object (invalid UTF-8 in a string at byte 12)");
    ck_assert_int_eq(mock_llm_parse((const uint8_t *)"[]", 2, "d", &r, err, sizeof err), -1);
    ck_assert_str_eq(err, "request body is not a JSON object (wrong type)");
}
END_TEST

int main(void) {
    Suite *s = suite_create("mock_llm");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, llm_parse_reads_formats_budgets_prompts_and_model);
    tcase_add_test(tc, llm_parse_duplicates_numbers_and_refusals);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
