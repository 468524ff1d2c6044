/*
 * test_direct_parsers.c - the direct backend's response readers: SSE and
 * line framing at every split point, AIPerf's content rules per endpoint
 * type (read with the core's JSON view, tested in test_json_view.c), and
 * SageMaker event streams (shared vectors) through the slot's write callback.
 */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "outputs.h"
#include "stream.h"
#include "smfw_test.h"

/* ---- AIPerf content rules ------------------------------------------------------ */

static direct_parse_cfg cfg_of(direct_endpoint_type t) {
    direct_parse_cfg c = {t, NULL, 1};
    return c;
}

static int parse(direct_acc *a, direct_endpoint_type t, const char *msg, int64_t ts) {
    direct_parse_cfg c = cfg_of(t);
    return direct_parse_message(&c, a, msg, strlen(msg), ts);
}

START_TEST(chat_content_rules) {
    direct_acc a;
    memset(&a, 0, sizeof a);
    direct_acc_reset(&a);
    /* role-only first delta, empty content, finish-only, usage-only, [DONE]: not content */
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT,
                           "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":"
                           "{\"role\":\"assistant\",\"content\":\"\"}}]}",
                           1),
                     0);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT,
                           "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":"
                           "{\"content\":null,\"reasoning_content\":\"think\"}}]}",
                           2),
                     0);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT,
                           "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":"
                           "{\"reasoning\":\"more\"}}]}",
                           3),
                     0);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT,
                           "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":"
                           "{\"content\":\"Hi\"}}]}",
                           4),
                     0);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT,
                           "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{},"
                           "\"finish_reason\":\"stop\"}]}",
                           5),
                     0);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT,
                           "{\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":"
                           "{\"prompt_tokens\":7,\"completion_tokens\":9,\"total_tokens\":16,"
                           "\"completion_tokens_details\":{\"reasoning_tokens\":2}}}",
                           6),
                     0);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT, "[DONE]", 7), 0);
    ck_assert_uint_eq(a.n_content, 3);
    ck_assert_int_eq(a.content_ns[0], 2);
    ck_assert_int_eq(a.content_ns[1], 3);
    ck_assert_int_eq(a.content_ns[2], 4);
    ck_assert_int_eq(a.first_output_ns, 4);
    ck_assert_int_eq(a.n_output_chunks, 1);
    ck_assert_int_eq(a.n_reasoning_chunks, 2);
    ck_assert_int_eq(a.usage_prompt, 7);
    ck_assert_int_eq(a.usage_completion, 9);
    ck_assert_int_eq(a.usage_total, 16);
    ck_assert_int_eq(a.usage_reasoning, 2);
    ck_assert_str_eq(a.text.data, "Hi");
    ck_assert_str_eq(a.reasoning.data, "thinkmore");
    ck_assert_int_eq(a.last_msg_ns, 7);
    ck_assert(!a.failed);
    /* reasoning_content wins over reasoning */
    direct_acc_reset(&a);
    parse(&a, DIRECT_EP_CHAT,
          "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"reasoning_content\":"
          "\"A\",\"reasoning\":\"B\"}}]}",
          1);
    ck_assert_str_eq(a.reasoning.data, "A");
    /* non-streaming message */
    direct_acc_reset(&a);
    parse(&a, DIRECT_EP_CHAT,
          "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"full\"}}]}", 9);
    ck_assert_uint_eq(a.n_content, 1);
    /* any other object fails the request, as AIPerf's parser raises */
    direct_acc_reset(&a);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT, "{\"choices\":[]}", 1), -1);
    ck_assert(a.failed);
    ck_assert_str_eq(a.err_type, "ValueError");
    direct_acc_reset(&a);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT, "{\"object\":\"text_completion\"}", 1), -1);
    direct_acc_free(&a);
}
END_TEST

/* A stream message that is not JSON is a protocol error naming it, not "no content". */
START_TEST(malformed_json_message_is_protocol_error) {
    direct_acc a;
    memset(&a, 0, sizeof a);
    direct_acc_reset(&a);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT, "{\"choices\":[{\"delta\":{\"content\":\"ab", 1),
                     -1);
    ck_assert_int_eq(a.failed, 1);
    ck_assert_int_eq(a.err_class, SMFW_ERRCLASS_PROTOCOL);
    ck_assert_msg(strstr(a.err_message, "not valid JSON"), "%s", a.err_message);
    /* Bytes that are not UTF-8 in a string are not JSON either (RFC 8259 section 8.1). */
    direct_acc_reset(&a);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT,
                           "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":"
                           "{\"content\":\"a\xff\"}}]}",
                           1),
                     -1);
    ck_assert_int_eq(a.err_class, SMFW_ERRCLASS_PROTOCOL);
    direct_acc_free(&a);
}
END_TEST

/* Duplicate names read as a parsed tree reads them: the last one wins, whole. */
START_TEST(duplicate_members_read_as_a_tree) {
    direct_acc a;
    memset(&a, 0, sizeof a);
    direct_acc_reset(&a);
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT,
                           "{\"object\":\"x\",\"choices\":[{\"delta\":{\"content\":\"old\"}}],"
                           "\"object\":\"chat.completion.chunk\","
                           "\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}",
                           1),
                     0);
    ck_assert_uint_eq(a.n_content, 0); /* the first choices' content was replaced */
    ck_assert_int_eq(parse(&a, DIRECT_EP_CHAT,
                           "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":"
                           "{\"content\":\"a\",\"content\":\"b\\u00e9\"}}]}",
                           2),
                     0);
    ck_assert_uint_eq(a.n_content, 1);
    ck_assert_str_eq(a.text.data, "b\xc3\xa9");
    direct_acc_free(&a);
}
END_TEST

START_TEST(other_endpoint_types) {
    direct_acc a;
    memset(&a, 0, sizeof a);
    direct_acc_reset(&a);
    ck_assert_int_eq(parse(&a, DIRECT_EP_COMPLETIONS,
                           "{\"object\":\"text_completion\",\"choices\":[{\"text\":\"ab\"}]}", 1),
                     0);
    ck_assert_int_eq(parse(&a, DIRECT_EP_COMPLETIONS,
                           "{\"object\":\"completion\",\"choices\":[{\"text\":\"\"}]}", 2),
                     0);
    ck_assert_uint_eq(a.n_content, 1);
    ck_assert_int_eq(parse(&a, DIRECT_EP_COMPLETIONS, "{\"object\":\"chat.completion\"}", 3), -1);

    direct_acc_reset(&a);
    parse(&a, DIRECT_EP_TGI, "{\"index\":0,\"token\":{\"id\":1,\"text\":\"He\",\"special\":false}}",
          1);
    parse(&a, DIRECT_EP_TGI, "{\"token\":{\"text\":\"\"}}", 2);
    parse(&a, DIRECT_EP_TGI,
          "{\"token\":{\"text\":\"llo\"},\"generated_text\":\"Hello\",\"details\":"
          "{\"generated_tokens\":2}}",
          3);
    ck_assert_uint_eq(a.n_content, 2);
    ck_assert_str_eq(a.text.data, "Hello");
    ck_assert_int_eq(a.usage_completion, 2);
    direct_acc_reset(&a);
    parse(&a, DIRECT_EP_TGI, "[{\"generated_text\":\"whole\"}]", 4);
    ck_assert_uint_eq(a.n_content, 1);
    ck_assert_str_eq(a.text.data, "whole");

    direct_acc_reset(&a);
    parse(&a, DIRECT_EP_EMBEDDINGS,
          "{\"object\":\"list\",\"data\":[{\"embedding\":[0.1,0.2]}],\"usage\":"
          "{\"prompt_tokens\":5}}",
          1);
    ck_assert_uint_eq(a.n_content, 1);
    ck_assert_int_eq(a.usage_prompt, 5);

    direct_acc_reset(&a);
    direct_parse_cfg c = {DIRECT_EP_TEMPLATE, "outputs.0.text", 1};
    const char *m = "{\"outputs\":[{\"text\":\"x\"}]}";
    direct_parse_message(&c, &a, m, strlen(m), 1);
    m = "{\"outputs\":[{\"other\":\"x\"}]}";
    direct_parse_message(&c, &a, m, strlen(m), 2);
    ck_assert_uint_eq(a.n_content, 1);
    direct_acc_free(&a);
}
END_TEST

/* ---- SSE framing at every split point ----------------------------------------- */

typedef struct sse_log {
    char data[16][160];
    int64_t ts[16];
    int errors[16];
    int n;
} sse_log;

static int log_event(void *user, const direct_sse_event *ev, int64_t ts) {
    sse_log *l = user;
    if (l->n >= 16) return -1;
    snprintf(l->data[l->n], sizeof l->data[0], "%.*s", (int)ev->data_len, ev->data ? ev->data : "");
    l->ts[l->n] = ts;
    l->errors[l->n] = ev->is_error;
    l->n++;
    return 0;
}

static const char sse_stream[] = ": keep-alive\n\n"
                                 "data: {\"a\":1}\n\n"
                                 "data: {\"b\":\r\n"
                                 "data: 2}\r\n\r\n"
                                 "event: message\ndata:  [DONE] \n\n"
                                 "data: tail";

static void check_sse_log(const sse_log *l) {
    ck_assert_int_eq(l->n, 5);
    ck_assert_str_eq(l->data[0], "");
    ck_assert_str_eq(l->data[1], "{\"a\":1}");
    ck_assert_str_eq(l->data[2], "{\"b\":\n2}");
    ck_assert_str_eq(l->data[3], "[DONE]");
    ck_assert_str_eq(l->data[4], "tail");
}

START_TEST(sse_every_split) {
    size_t n = strlen(sse_stream);
    for (size_t a = 0; a <= n; a++) {
        for (size_t b = a; b <= n; b++) {
            direct_sse s;
            memset(&s, 0, sizeof s);
            sse_log l;
            memset(&l, 0, sizeof l);
            ck_assert_int_eq(direct_sse_feed(&s, sse_stream, a, 1, log_event, &l), 0);
            ck_assert_int_eq(direct_sse_feed(&s, sse_stream + a, b - a, 2, log_event, &l), 0);
            ck_assert_int_eq(direct_sse_feed(&s, sse_stream + b, n - b, 3, log_event, &l), 0);
            ck_assert_int_eq(direct_sse_finish(&s, 4, log_event, &l), 0);
            check_sse_log(&l);
            /* Each event carries the stamp of the read that completed it. */
            const char *ends[4] = {strstr(sse_stream, "\n\n") + 2, NULL, NULL, NULL};
            ends[1] = strstr(ends[0], "\n\n") + 2;
            ends[2] = strstr(ends[1], "\r\n\r\n") + 4;
            ends[3] = strstr(ends[2], "\n\n") + 2;
            for (int k = 0; k < 4; k++) {
                size_t end = (size_t)(ends[k] - sse_stream);
                int64_t want = end <= a ? 1 : end <= b ? 2 : 3;
                ck_assert_msg(l.ts[k] == want, "split %zu/%zu event %d ts %lld want %lld", a, b, k,
                              (long long)l.ts[k], (long long)want);
            }
            ck_assert_int_eq(l.ts[4], 4); /* unterminated remainder: stamped at EOF */
            direct_sse_free(&s);
        }
    }
    /* byte by byte */
    direct_sse s;
    memset(&s, 0, sizeof s);
    sse_log l;
    memset(&l, 0, sizeof l);
    for (size_t i = 0; i < n; i++)
        direct_sse_feed(&s, sse_stream + i, 1, (int64_t)i, log_event, &l);
    direct_sse_finish(&s, 999, log_event, &l);
    check_sse_log(&l);
    direct_sse_free(&s);
}
END_TEST

START_TEST(sse_error_event) {
    const char *t = "event: error\n: upstream failed\ndata: {}\n\n";
    direct_sse s;
    memset(&s, 0, sizeof s);
    sse_log l;
    memset(&l, 0, sizeof l);
    direct_sse_feed(&s, t, strlen(t), 1, log_event, &l);
    ck_assert_int_eq(l.n, 1);
    ck_assert_int_eq(l.errors[0], 1);
    direct_sse_free(&s);
}
END_TEST

/* ---- line framing ----------------------------------------------------------------- */

typedef struct line_log {
    char text[8][64];
    int64_t ts[8];
    int n;
} line_log;

static int log_line(void *user, const char *msg, size_t len, int64_t ts) {
    line_log *l = user;
    if (l->n >= 8) return -1;
    snprintf(l->text[l->n], sizeof l->text[0], "%.*s", (int)len, msg);
    l->ts[l->n++] = ts;
    return 0;
}

START_TEST(lines_every_split) {
    const char *t = "data: {\"token\": 1}\n\n  {\"x\":2}  \r\ndata:[DONE]\nlast";
    size_t n = strlen(t);
    for (size_t a = 0; a <= n; a++) {
        for (size_t b = a; b <= n; b++) {
            direct_lines l;
            memset(&l, 0, sizeof l);
            l.strict_utf8 = 1;
            line_log g;
            memset(&g, 0, sizeof g);
            direct_lines_feed(&l, t, a, 1, log_line, &g);
            direct_lines_feed(&l, t + a, b - a, 2, log_line, &g);
            direct_lines_feed(&l, t + b, n - b, 3, log_line, &g);
            direct_lines_finish(&l, 4, log_line, &g);
            ck_assert_int_eq(g.n, 4);
            ck_assert_str_eq(g.text[0], "{\"token\": 1}");
            ck_assert_str_eq(g.text[1], "{\"x\":2}");
            ck_assert_str_eq(g.text[2], "[DONE]");
            ck_assert_str_eq(g.text[3], "last");
            ck_assert_int_eq(g.ts[3], 4);
            direct_lines_free(&l);
        }
    }
}
END_TEST

START_TEST(lines_strict_utf8) {
    direct_lines l;
    memset(&l, 0, sizeof l);
    l.strict_utf8 = 1;
    line_log g;
    memset(&g, 0, sizeof g);
    const char bad[] = "ok \xc3\xa9\n\xff\xfe\n";
    ck_assert_int_eq(direct_lines_feed(&l, bad, sizeof bad - 1, 1, log_line, &g), -1);
    ck_assert_int_eq(g.n, 1);
    ck_assert(l.bad_utf8);
    direct_lines_free(&l);
    ck_assert(direct_utf8_valid("\xf0\x9f\x98\x80", 4));
    ck_assert(!direct_utf8_valid("\xc0\xaf", 2));         /* overlong */
    ck_assert(!direct_utf8_valid("\xed\xa0\x80", 3));     /* surrogate */
    ck_assert(!direct_utf8_valid("\xf4\x90\x80\x80", 4)); /* > U+10FFFF */
    ck_assert(!direct_utf8_valid("\xe2\x82", 2));         /* truncated */
}
END_TEST

/* ---- SageMaker event streams through a slot's write callback ----------------- */

static unsigned char *read_vec(const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/eventstream/sagemaker-synthetic/encoded/%s", SMFW_TESTDATA_DIR,
             name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "missing vector %s", path);
    unsigned char *buf = malloc(65536);
    *len = fread(buf, 1, 65536, f);
    fclose(f);
    return buf;
}

typedef struct fake {
    direct_engine eng;
    direct_worker w;
    direct_slot s;
} fake;

static void fake_init(fake *f, direct_endpoint_type t) {
    memset(f, 0, sizeof *f);
    f->eng.parse.type = t;
    f->eng.parse.keep_text = 1;
    f->w.eng = &f->eng;
    f->s.w = &f->w;
    smfw_eventstream_decoder_init(&f->s.es, NULL);
    f->s.es_ready = 1;
    f->s.lines.strict_utf8 = 1;
    direct_response_reset(&f->s);
    const char *head[] = {"HTTP/1.1 200 OK\r\n",
                          "Content-Type: application/vnd.amazon.eventstream\r\n", "\r\n"};
    for (int i = 0; i < 3; i++)
        direct_response_header_cb((char *)head[i], 1, strlen(head[i]), &f->s);
}

static void fake_free(fake *f) {
    smfw_eventstream_decoder_cleanup(&f->s.es);
    direct_sse_free(&f->s.sse);
    direct_lines_free(&f->s.lines);
    smfw_buf_free(&f->s.body);
    direct_acc_free(&f->s.acc);
}

/* Feed bytes in two network reads split at `cut`, each read its own socket action. */
static void feed2(fake *f, const unsigned char *b, size_t n, size_t cut) {
    f->w.action_seq++;
    if (cut)
        ck_assert_uint_eq(direct_response_write_cb((char *)b, 1, cut, &f->s),
                          f->s.acc.failed ? 0 : cut);
    f->w.action_seq++;
    if (n > cut && !f->s.acc.failed) direct_response_write_cb((char *)b + cut, 1, n - cut, &f->s);
}

START_TEST(eventstream_three_parts_every_split) {
    size_t n;
    unsigned char *b = read_vec("stream_three_parts", &n);
    for (size_t cut = 0; cut <= n; cut++) {
        fake f;
        fake_init(&f, DIRECT_EP_TGI);
        ck_assert_int_eq(f.s.reader, DIRECT_READ_EVENTSTREAM);
        ck_assert(f.s.ack_ns > 0);
        feed2(&f, b, n, cut);
        direct_response_finish(&f.eng, &f.s, smfw_now_mono_ns());
        ck_assert_msg(!f.s.acc.failed, "cut %zu: %s", cut, f.s.acc.err_message);
        ck_assert_uint_eq(f.s.acc.n_content, 2);
        ck_assert_str_eq(f.s.acc.text.data, "Hello world");
        fake_free(&f);
    }
    free(b);
}
END_TEST

START_TEST(eventstream_errors_and_crc) {
    static const struct {
        const char *name;
        smfw_error_class cls;
        const char *type;
    } cases[] = {{"model_stream_error", SMFW_ERRCLASS_STREAM_ERROR, "ModelStreamError"},
                 {"internal_stream_failure", SMFW_ERRCLASS_STREAM_ERROR, "InternalStreamFailure"},
                 {"error_message", SMFW_ERRCLASS_STREAM_ERROR, "InternalFailure"}};
    for (size_t i = 0; i < 3; i++) {
        size_t n;
        unsigned char *b = read_vec(cases[i].name, &n);
        fake f;
        fake_init(&f, DIRECT_EP_CHAT);
        ck_assert_uint_eq(direct_response_write_cb((char *)b, 1, n, &f.s), 0); /* aborts */
        ck_assert(f.s.acc.failed);
        ck_assert_int_eq(f.s.acc.err_class, cases[i].cls);
        ck_assert_str_eq(f.s.acc.err_type, cases[i].type);
        fake_free(&f);
        free(b);
    }
    /* A corrupted byte is a CRC error; a truncated body a protocol error. */
    size_t n;
    unsigned char *b = read_vec("payload_part", &n);
    fake f;
    fake_init(&f, DIRECT_EP_TEMPLATE);
    b[n - 6] ^= 0x01;
    direct_response_write_cb((char *)b, 1, n, &f.s);
    ck_assert(f.s.acc.failed);
    ck_assert_int_eq(f.s.acc.err_class, SMFW_ERRCLASS_CRC);
    fake_free(&f);
    b[n - 6] ^= 0x01;
    fake_init(&f, DIRECT_EP_TEMPLATE);
    direct_response_write_cb((char *)b, 1, n - 3, &f.s);
    ck_assert(!f.s.acc.failed);
    direct_response_finish(&f.eng, &f.s, 5);
    ck_assert(f.s.acc.failed);
    ck_assert_int_eq(f.s.acc.err_class, SMFW_ERRCLASS_PROTOCOL);
    fake_free(&f);
    /* The whole frame: the template parser finds generated_text. */
    fake_init(&f, DIRECT_EP_TEMPLATE);
    direct_response_write_cb((char *)b, 1, n, &f.s);
    direct_response_finish(&f.eng, &f.s, 5);
    ck_assert(!f.s.acc.failed);
    ck_assert_uint_eq(f.s.acc.n_content, 1);
    ck_assert_int_eq(f.s.acc.content_ns[0], 5); /* unterminated line: stamped at EOF */
    fake_free(&f);
    free(b);
}
END_TEST

START_TEST(http_error_classification) {
    smfw_error_class c;
    char type[64], msg[256];
    const char *body =
        "{\"__type\":\"com.amazon#ThrottlingException\",\"message\":\"Rate exceeded\"}";
    direct_classify_http_error(DIRECT_TRANSPORT_SAGEMAKER, 400, "Bad Request", "", body,
                               strlen(body), &c, type, sizeof type, msg, sizeof msg);
    ck_assert_int_eq(c, SMFW_ERRCLASS_THROTTLED);
    ck_assert_str_eq(type, "ThrottlingException");
    ck_assert_str_eq(msg, "Rate exceeded");
    body =
        "{\"ErrorCode\":\"CLIENT_ERROR_FROM_MODEL\",\"OriginalStatusCode\":400,\"Message\":\"m\"}";
    direct_classify_http_error(DIRECT_TRANSPORT_SAGEMAKER, 424, "Failed Dependency", "ModelError",
                               body, strlen(body), &c, type, sizeof type, msg, sizeof msg);
    ck_assert_int_eq(c, SMFW_ERRCLASS_MODEL_ERROR);
    ck_assert_str_eq(type, "ModelError");
    ck_assert(strstr(msg, "container status 400") != NULL);
    body = "{\"message\":\"Endpoint x of account 1 not found.\"}";
    direct_classify_http_error(DIRECT_TRANSPORT_SAGEMAKER, 400, "Bad Request",
                               "ValidationError:http://internal", body, strlen(body), &c, type,
                               sizeof type, msg, sizeof msg);
    ck_assert_int_eq(c, SMFW_ERRCLASS_VALIDATION);
    ck_assert_str_eq(type, "ValidationError");
    direct_classify_http_error(DIRECT_TRANSPORT_SAGEMAKER, 403, "Forbidden",
                               "AccessDeniedException", "", 0, &c, type, sizeof type, msg,
                               sizeof msg);
    ck_assert_int_eq(c, SMFW_ERRCLASS_AUTH);
    direct_classify_http_error(DIRECT_TRANSPORT_HTTP, 503, "Service Unavailable", "", "busy", 4, &c,
                               type, sizeof type, msg, sizeof msg);
    ck_assert_int_eq(c, SMFW_ERRCLASS_UNAVAILABLE);
    ck_assert_str_eq(type, "Service Unavailable");
    ck_assert_str_eq(msg, "busy");
    direct_classify_http_error(DIRECT_TRANSPORT_HTTP, 429, "Too Many Requests", "", "", 0, &c, type,
                               sizeof type, msg, sizeof msg);
    ck_assert_int_eq(c, SMFW_ERRCLASS_THROTTLED);
}
END_TEST

/* outputs.json's string writer against jansson (a reference nobody here wrote): the same
 * bytes for every valid UTF-8 string, and invalid bytes decoded as U+FFFD. */
START_TEST(json_string_writer_matches_jansson) {
    unsigned seed = 12345;
    smfw_buf b;
    smfw_buf_init(&b);
    static const char *const pieces[] = {
        "a",    "\"", "\\",       "\n",           "\r",
        "\t",   "\b", "\f",       "\x01",         "\x1f",
        "\x7f", "/",  "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
        " ",    "{",  "}"};
    for (int iter = 0; iter < 2000; iter++) {
        char in[256];
        size_t n = 0;
        int parts = (int)(rand_r(&seed) % 20);
        for (int k = 0; k < parts; k++) {
            const char *p = pieces[rand_r(&seed) % (sizeof pieces / sizeof pieces[0])];
            memcpy(in + n, p, strlen(p));
            n += strlen(p);
        }
        smfw_buf_reset(&b);
        ck_assert_int_eq(direct_json_string_append(&b, in, n), 0);
        json_t *ref = json_stringn(in, n);
        ck_assert_ptr_nonnull(ref);
        char *want = json_dumps(ref, JSON_ENCODE_ANY | JSON_COMPACT);
        ck_assert_int_eq((int)b.len, (int)strlen(want));
        ck_assert(memcmp(b.data, want, b.len) == 0);
        free(want);
        json_decref(ref);
    }
    /* Not UTF-8: a lone continuation byte, a truncated sequence, an overlong, a surrogate. */
    static const struct {
        const char *in;
        const char *decoded;
    } bad[] = {{"a\x80"
                "b",
                "a\xef\xbf\xbd"
                "b"},
               {"x\xe2\x82", "x\xef\xbf\xbd\xef\xbf\xbd"},
               {"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"},
               {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        smfw_buf_reset(&b);
        ck_assert_int_eq(direct_json_string_append(&b, bad[i].in, strlen(bad[i].in)), 0);
        json_error_t je;
        json_t *v = json_loadb(b.data, b.len, JSON_DECODE_ANY, &je);
        ck_assert_msg(v != NULL, "not JSON: %.*s (%s)", (int)b.len, b.data, je.text);
        ck_assert_str_eq(json_string_value(v), bad[i].decoded);
        json_decref(v);
    }
    smfw_buf_free(&b);
}
END_TEST

int main(void) {
    Suite *s = suite_create("direct_parsers");
    TCase *tc = tcase_create("all");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, chat_content_rules);
    tcase_add_test(tc, other_endpoint_types);
    tcase_add_test(tc, malformed_json_message_is_protocol_error);
    tcase_add_test(tc, duplicate_members_read_as_a_tree);
    tcase_add_test(tc, sse_every_split);
    tcase_add_test(tc, sse_error_event);
    tcase_add_test(tc, lines_every_split);
    tcase_add_test(tc, lines_strict_utf8);
    tcase_add_test(tc, eventstream_three_parts_every_split);
    tcase_add_test(tc, eventstream_errors_and_crc);
    tcase_add_test(tc, http_error_classification);
    tcase_add_test(tc, json_string_writer_matches_jansson);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
