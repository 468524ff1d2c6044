/*
 * test_direct_retemplate.c - the prompt of a captured body and the endpoint type it was made
 * for (retemplate.h), for every shape, and the bodies that cannot be re-templated.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "retemplate.h"
#include "smfw_test.h"

static void prompt_is(const char *body, direct_endpoint_type want_type, const char *want) {
    direct_endpoint_type t;
    char *text = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(direct_capture_prompt(body, strlen(body), "capture entry 1", &t, &text, &err) ==
                      SMFW_OK,
                  "%s: %s", body, err.message);
    ck_assert_int_eq(t, want_type);
    ck_assert_str_eq(text, want);
    free(text);
}

static void refused(const char *body, const char *needle) {
    direct_endpoint_type t;
    char *text = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(direct_capture_prompt(body, strlen(body), "capture entry 4", &t, &text, &err),
                     SMFW_ERR_CONFIG);
    ck_assert_ptr_null(text);
    ck_assert_msg(strstr(err.message, needle) && strstr(err.message, "capture entry 4"), "%s: %s",
                  body, err.message);
}

START_TEST(every_shape) {
    prompt_is("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", DIRECT_EP_CHAT, "hi");
    prompt_is("{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
              "{\"type\":\"text\",\"text\":\"b\"}]}]}",
              DIRECT_EP_CHAT, "a\nb");
    prompt_is("{\"messages\":[{\"role\":\"system\",\"content\":\"s\"},{\"role\":\"user\","
              "\"content\":\"u\"},{\"role\":\"assistant\",\"content\":\"x\"}]}",
              DIRECT_EP_CHAT, "system: s\n\nuser: u\n\nassistant: x");
    prompt_is("{\"prompt\":\"p\",\"max_tokens\":3}", DIRECT_EP_COMPLETIONS, "p");
    prompt_is("{\"prompt\":[\"p1\",\"p2\"]}", DIRECT_EP_COMPLETIONS, "p1\np2");
    prompt_is("{\"inputs\":\"tgi text\",\"parameters\":{\"max_new_tokens\":9}}", DIRECT_EP_TGI,
              "tgi text");
    prompt_is("{\"input\":\"embed me\"}", DIRECT_EP_EMBEDDINGS, "embed me");
    prompt_is("{\"prompt\":\"\"}", DIRECT_EP_COMPLETIONS, "");
}
END_TEST

START_TEST(what_cannot_be_retemplated) {
    refused("a,b,c", "not a JSON object");
    refused("[1,2]", "not a JSON object");
    refused("{\"foo\":1}", "none of \"messages\"");
    refused("{\"messages\":[]}", "no messages");
    refused("{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\","
            "\"image_url\":{\"url\":\"data:,\"}}]}]}",
            "message 1 of its chat body has no text content");
    refused("{\"prompt\":[1]}", "none of \"messages\"");
}
END_TEST

int main(void) {
    Suite *s = suite_create("direct_retemplate");
    TCase *tc = tcase_create("retemplate");
    tcase_add_test(tc, every_shape);
    tcase_add_test(tc, what_cannot_be_retemplated);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
