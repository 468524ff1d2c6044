/*
 * test_direct_sessions.c - conversations of a multi-turn dataset (sessions.h): prompts
 * grouped by session id in first-appearance order with their turns put back in
 * turn_index order after a shuffle, one-turn conversations for prompts without an id,
 * and chat bodies whose messages are the history followed by the turn's own message.
 */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "sessions.h"
#include "smfw_test.h"

static smfw_prompt prompt(const char *text, const char *sid, int32_t turn) {
    smfw_prompt p;
    memset(&p, 0, sizeof p);
    p.text = (char *)text;
    p.text_len = strlen(text);
    p.session_id = (char *)sid;
    p.turn_index = turn;
    p.delay_ms = -1;
    p.timestamp_ms = -1;
    return p;
}

START_TEST(groups_and_orders_turns) {
    /* a shuffled set: b's turns out of order, a lone prompt between them */
    smfw_prompt ps[] = {prompt("b1", "b", 1), prompt("a0", "a", 0), prompt("lone", NULL, 0),
                        prompt("b0", "b", 0), prompt("a1", "a", 1), prompt("b2", "b", 2)};
    smfw_prompt_set set;
    memset(&set, 0, sizeof set);
    set.prompts = ps;
    set.count = 6;
    ck_assert_int_eq(direct_sessions_present(&set), 1);
    direct_payload_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.type = DIRECT_EP_CHAT;
    direct_sessions s;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(direct_sessions_build(&set, &cfg, &s, &err), SMFW_OK);
    ck_assert_uint_eq(s.n, 3);
    ck_assert_uint_eq(s.max_turns, 3);
    ck_assert_uint_eq(s.v[0].n, 3); /* b appears first */
    ck_assert_str_eq(s.v[0].turns[0].text, "b0");
    ck_assert_str_eq(s.v[0].turns[1].text, "b1");
    ck_assert_str_eq(s.v[0].turns[2].text, "b2");
    ck_assert_uint_eq(s.v[0].turns[2].payload, 5);
    ck_assert_str_eq(s.v[1].turns[0].text, "a0");
    ck_assert_str_eq(s.v[1].turns[1].text, "a1");
    ck_assert_uint_eq(s.v[2].n, 1);
    ck_assert_str_eq(s.v[2].turns[0].text, "lone");
    direct_sessions_free(&s);
    /* single-turn sets are not conversations */
    set.count = 3;
    ps[0].turn_index = 0;
    ck_assert_int_eq(direct_sessions_present(&set), 0);
}
END_TEST

START_TEST(history_before_the_turn) {
    smfw_prompt ps[] = {prompt("first", "c", 0), prompt("second", "c", 1)};
    smfw_prompt_set set;
    memset(&set, 0, sizeof set);
    set.prompts = ps;
    set.count = 2;
    direct_payload_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.type = DIRECT_EP_CHAT;
    cfg.streaming = 1;
    direct_sessions s;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(direct_sessions_build(&set, &cfg, &s, &err), SMFW_OK);
    direct_payload base, out;
    memset(&base, 0, sizeof base);
    memset(&out, 0, sizeof out);
    base.max_tokens = 7;
    base.turn_index = 1;
    snprintf(base.conversation_id, sizeof base.conversation_id, "c");
    json_t *history = json_array();
    ck_assert_int_eq(direct_session_remember(history, &s.v[0].turns[0], " the answer", 11),
                     SMFW_OK);
    /* the opening turn of a stateful session goes buffered: "stream": false */
    ck_assert_int_eq(direct_session_body(&s, &s.v[0].turns[1], &base, history, 0, &out, &err),
                     SMFW_OK);
    json_t *body = json_loads(out.body, 0, NULL);
    ck_assert_ptr_nonnull(body);
    json_t *msgs = json_object_get(body, "messages");
    ck_assert_uint_eq(json_array_size(msgs), 3);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(msgs, 0), "content")),
                     "first");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(msgs, 1), "role")),
                     "assistant");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(msgs, 1), "content")),
                     " the answer");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(msgs, 2), "content")),
                     "second");
    ck_assert(json_is_false(json_object_get(body, "stream")));
    ck_assert_int_eq(json_integer_value(json_object_get(body, "max_completion_tokens")), 7);
    ck_assert_str_eq(out.conversation_id, "c");
    ck_assert_int_eq(out.turn_index, 1);
    ck_assert_uint_eq(strlen(out.sha256), 64);
    json_decref(body);
    json_decref(history);
    direct_payload_clear(&out);
    direct_sessions_free(&s);
}
END_TEST

int main(void) {
    Suite *s = suite_create("direct_sessions");
    TCase *tc = tcase_create("all");
    tcase_add_test(tc, groups_and_orders_turns);
    tcase_add_test(tc, history_before_the_turn);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
