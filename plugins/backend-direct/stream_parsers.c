/*
 * stream_parsers.c - turn one message into content/reasoning/usage with
 * AIPerf's rules (aiperf-compat.md §1.3, §5.3), per endpoint type.
 */
#include "stream.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_scan.h"

static const char *const direct_ep_names[] = {"chat", "completions", "embeddings", "tgi",
                                              "template"};

const char *direct_endpoint_type_name(direct_endpoint_type t) {
    if ((unsigned)t >= sizeof direct_ep_names / sizeof direct_ep_names[0]) return "?";
    return direct_ep_names[t];
}

int direct_endpoint_type_parse(const char *name, direct_endpoint_type *out) {
    for (size_t i = 0; i < sizeof direct_ep_names / sizeof direct_ep_names[0]; i++) {
        if (strcmp(name, direct_ep_names[i]) == 0) {
            *out = (direct_endpoint_type)i;
            return 0;
        }
    }
    return -1;
}

void direct_acc_reset(direct_acc *a) {
    a->n_content = 0;
    a->first_output_ns = 0;
    a->first_msg_ns = a->last_msg_ns = 0;
    a->n_output_chunks = a->n_reasoning_chunks = 0;
    a->usage_prompt = a->usage_completion = a->usage_total = a->usage_reasoning = -1;
    dbuf_reset(&a->text);
    dbuf_reset(&a->reasoning);
    a->failed = 0;
    a->err_class = SMFW_ERRCLASS_NONE;
    a->err_has_code = 0;
    a->err_code = 0;
    a->err_type[0] = '\0';
    a->err_message[0] = '\0';
}

void direct_acc_free(direct_acc *a) {
    free(a->content_ns);
    a->content_ns = NULL;
    a->cap_content = a->n_content = 0;
    dbuf_free(&a->text);
    dbuf_free(&a->reasoning);
}

void direct_acc_fail(direct_acc *a, smfw_error_class cls, int has_code, int code, const char *type,
                     const char *fmt, ...) {
    if (a->failed) return;
    a->failed = 1;
    a->err_class = cls;
    a->err_has_code = has_code;
    a->err_code = code;
    snprintf(a->err_type, sizeof a->err_type, "%s", type ? type : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->err_message, sizeof a->err_message, fmt, ap);
    va_end(ap);
}

static int acc_content(direct_acc *a, int64_t ts) {
    if (a->n_content == a->cap_content) {
        size_t cap = a->cap_content ? a->cap_content * 2 : 1024;
        int64_t *p = realloc(a->content_ns, cap * sizeof *p);
        if (!p) {
            direct_acc_fail(a, SMFW_ERRCLASS_OTHER, 0, 0, "MemoryError", "out of memory");
            return -1;
        }
        a->content_ns = p;
        a->cap_content = cap;
    }
    a->content_ns[a->n_content++] = ts;
    return 0;
}

static void acc_text(dbuf *b, const dj_value *v) {
    size_t raw = v->len; /* decoded text is never longer than the escaped form */
    if (dbuf_reserve(b, raw) != 0) return;
    size_t n = dj_string_decode(v, b->data + b->len, b->cap - b->len);
    b->len += n;
    b->data[b->len] = '\0';
}

static void acc_usage(direct_acc *a, const dj_value *root) {
    dj_value usage, v;
    if (!dj_get(root, "usage", &usage) || usage.type != DJ_OBJECT || dj_count(&usage) == 0) return;
    int64_t x;
    if (dj_get(&usage, "prompt_tokens", &v) && dj_int64(&v, &x)) a->usage_prompt = x;
    if (dj_get(&usage, "completion_tokens", &v) && dj_int64(&v, &x)) a->usage_completion = x;
    if (dj_get(&usage, "total_tokens", &v) && dj_int64(&v, &x)) a->usage_total = x;
    if (dj_path(&usage, "completion_tokens_details.reasoning_tokens", &v) && dj_int64(&v, &x))
        a->usage_reasoning = x;
}

/* Record one content response: content and/or reasoning text present. */
static int acc_response(const direct_parse_cfg *cfg, direct_acc *a, const dj_value *content,
                        const dj_value *reasoning, int64_t ts) {
    int has_content = content && dj_string_nonempty(content);
    int has_reasoning = reasoning && dj_string_nonempty(reasoning);
    if (!has_content && !has_reasoning) return 0;
    if (acc_content(a, ts) != 0) return -1;
    if (has_content) {
        a->n_output_chunks++;
        if (!a->first_output_ns) a->first_output_ns = ts;
        if (cfg->keep_text) acc_text(&a->text, content);
    }
    if (has_reasoning) {
        a->n_reasoning_chunks++;
        if (cfg->keep_text) acc_text(&a->reasoning, reasoning);
    }
    return 0;
}

static int parse_chat(const direct_parse_cfg *cfg, direct_acc *a, const dj_value *root,
                      int64_t ts) {
    dj_value obj, choice, body;
    const char *member;
    if (root->type != DJ_OBJECT) goto bad_object;
    if (!dj_get(root, "object", &obj)) goto bad_object;
    if (dj_string_equals(&obj, "chat.completion.chunk"))
        member = "delta";
    else if (dj_string_equals(&obj, "chat.completion"))
        member = "message";
    else
        goto bad_object;
    acc_usage(a, root);
    {
        dj_value choices;
        if (!dj_get(root, "choices", &choices) || !dj_index(&choices, 0, &choice)) return 0;
    }
    if (!dj_get(&choice, member, &body) || body.type != DJ_OBJECT) return 0;
    dj_value content = {DJ_NONE, NULL, 0}, reasoning = {DJ_NONE, NULL, 0};
    dj_get(&body, "content", &content);
    if (!(dj_get(&body, "reasoning_content", &reasoning) && dj_string_nonempty(&reasoning)))
        if (!dj_get(&body, "reasoning", &reasoning)) reasoning.type = DJ_NONE;
    return acc_response(cfg, a, &content, &reasoning, ts);
bad_object:;
    char shown[80] = "missing";
    if (root->type == DJ_OBJECT && dj_get(root, "object", &obj)) {
        size_t n = obj.len < sizeof shown - 1 ? obj.len : sizeof shown - 1;
        memcpy(shown, obj.p, n);
        shown[n] = '\0';
    }
    direct_acc_fail(a, SMFW_ERRCLASS_PROTOCOL, 0, 0, "ValueError",
                    "Unsupported OpenAI object type: %s (expected chat.completion or "
                    "chat.completion.chunk)",
                    shown);
    return -1;
}

static int parse_completions(const direct_parse_cfg *cfg, direct_acc *a, const dj_value *root,
                             int64_t ts) {
    dj_value obj, text;
    if (root->type != DJ_OBJECT || !dj_get(root, "object", &obj) ||
        !(dj_string_equals(&obj, "text_completion") || dj_string_equals(&obj, "completion"))) {
        direct_acc_fail(a, SMFW_ERRCLASS_PROTOCOL, 0, 0, "ValueError",
                        "Unsupported OpenAI object type for completions (expected "
                        "text_completion or completion)");
        return -1;
    }
    acc_usage(a, root);
    if (!dj_path(root, "choices.0.text", &text)) return 0;
    return acc_response(cfg, a, &text, NULL, ts);
}

static int parse_embeddings(const direct_parse_cfg *cfg, direct_acc *a, const dj_value *root,
                            int64_t ts) {
    (void)cfg;
    dj_value data;
    acc_usage(a, root);
    if (!dj_get(root, "data", &data) || data.type != DJ_ARRAY || dj_count(&data) == 0) return 0;
    return acc_content(a, ts);
}

static int parse_tgi(const direct_parse_cfg *cfg, direct_acc *a, const dj_value *root, int64_t ts) {
    dj_value ev = *root, text = {DJ_NONE, NULL, 0}, gen = {DJ_NONE, NULL, 0}, v;
    if (ev.type == DJ_ARRAY && !dj_index(root, 0, &ev)) return 0;
    if (ev.type != DJ_OBJECT) return 0;
    int64_t x;
    if (dj_path(&ev, "details.generated_tokens", &v) && dj_int64(&v, &x)) a->usage_completion = x;
    int streamed = dj_path(&ev, "token.text", &text);
    dj_get(&ev, "generated_text", &gen);
    if (streamed) {
        /* Streaming: the text is the token; generated_text (last event) repeats the whole. */
        if (!dj_string_nonempty(&text) && !dj_string_nonempty(&gen)) return 0;
        if (acc_content(a, ts) != 0) return -1;
        a->n_output_chunks++;
        if (!a->first_output_ns) a->first_output_ns = ts;
        if (cfg->keep_text && dj_string_nonempty(&text)) acc_text(&a->text, &text);
        return 0;
    }
    return acc_response(cfg, a, &gen, NULL, ts);
}

static int parse_template(const direct_parse_cfg *cfg, direct_acc *a, const dj_value *root,
                          int64_t ts) {
    dj_value text;
    acc_usage(a, root);
    const char *path =
        cfg->response_field && *cfg->response_field ? cfg->response_field : "generated_text";
    if (!dj_path(root, path, &text)) return 0;
    return acc_response(cfg, a, &text, NULL, ts);
}

int direct_parse_message(const direct_parse_cfg *cfg, direct_acc *a, const char *msg, size_t len,
                         int64_t ts) {
    if (!a->first_msg_ns) a->first_msg_ns = ts;
    a->last_msg_ns = ts;
    while (len && (*msg == ' ' || *msg == '\t' || *msg == '\r' || *msg == '\n')) msg++, len--;
    while (len && (msg[len - 1] == ' ' || msg[len - 1] == '\t' || msg[len - 1] == '\r' ||
                   msg[len - 1] == '\n'))
        len--;
    if (len == 0 || (len == 6 && memcmp(msg, "[DONE]", 6) == 0)) return 0;
    dj_value root;
    if (dj_parse(msg, len, &root) != 0) {
        /* A broken stream, not an empty answer: say which message (its start) was bad. */
        direct_acc_fail(a, SMFW_ERRCLASS_PROTOCOL, 0, 0, "JSONDecodeError",
                        "a stream message is not valid JSON (%zu bytes, starting \"%.40s\")", len,
                        msg);
        return -1;
    }
    switch (cfg->type) {
    case DIRECT_EP_CHAT:
        return parse_chat(cfg, a, &root, ts);
    case DIRECT_EP_COMPLETIONS:
        return parse_completions(cfg, a, &root, ts);
    case DIRECT_EP_EMBEDDINGS:
        return parse_embeddings(cfg, a, &root, ts);
    case DIRECT_EP_TGI:
        return parse_tgi(cfg, a, &root, ts);
    case DIRECT_EP_TEMPLATE:
        return parse_template(cfg, a, &root, ts);
    }
    return 0;
}
