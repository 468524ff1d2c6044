/*
 * stream_parsers.c - turn one message into content/reasoning/usage with
 * AIPerf's rules (aiperf-compat.md §1.3, §5.3), per endpoint type.
 */
#include "stream.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/json_view.h>

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
    a->usage_cached = -1;
    smfw_buf_reset(&a->text);
    smfw_buf_reset(&a->reasoning);
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
    smfw_buf_free(&a->text);
    smfw_buf_free(&a->reasoning);
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

static void acc_text(smfw_buf *b, const smfw_json_view *v) {
    size_t raw = v->len; /* decoded text is never longer than the escaped form */
    if (smfw_buf_reserve(b, raw) != 0) return;
    size_t n = smfw_json_string_decode(v, b->data + b->len, b->cap - b->len);
    b->len += n;
    b->data[b->len] = '\0';
}

/* One token count of the usage object, when it is an integer. */
static void usage_count(const smfw_json_view *usage, const char *path, int64_t *out) {
    smfw_json_view v;
    int64_t x;
    if (smfw_json_path(usage, path, &v) && smfw_json_int64(&v, &x) == SMFW_JSON_NUM_OK) *out = x;
}

/* The usage object (found in the message's one pass; usually absent or null). */
static void acc_usage(direct_acc *a, const smfw_json_view *usage) {
    if (usage->type != SMFW_JSON_OBJECT) return;
    usage_count(usage, "prompt_tokens", &a->usage_prompt);
    usage_count(usage, "completion_tokens", &a->usage_completion);
    usage_count(usage, "total_tokens", &a->usage_total);
    usage_count(usage, "completion_tokens_details.reasoning_tokens", &a->usage_reasoning);
    usage_count(usage, "prompt_tokens_details.cached_tokens", &a->usage_cached);
}

/* Record one content response: content and/or reasoning text present. */
static int acc_response(const direct_parse_cfg *cfg, direct_acc *a, const smfw_json_view *content,
                        const smfw_json_view *reasoning, int64_t ts) {
    int has_content = content && smfw_json_string_nonempty(content);
    int has_reasoning = reasoning && smfw_json_string_nonempty(reasoning);
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

/*
 * What each endpoint type reads of a message: found while the message is
 * validated, in one pass over it (the per-chunk hot path).
 */
enum {
    CHAT_OBJECT,
    CHAT_USAGE,
    CHAT_DELTA_CONTENT, /* chat.completion.chunk */
    CHAT_DELTA_REASONING_CONTENT,
    CHAT_DELTA_REASONING,
    CHAT_MESSAGE_CONTENT, /* chat.completion */
    CHAT_MESSAGE_REASONING_CONTENT,
    CHAT_MESSAGE_REASONING,
    CHAT_COUNT
};
static const char *const chat_paths[CHAT_COUNT] = {"object",
                                                   "usage",
                                                   "choices.0.delta.content",
                                                   "choices.0.delta.reasoning_content",
                                                   "choices.0.delta.reasoning",
                                                   "choices.0.message.content",
                                                   "choices.0.message.reasoning_content",
                                                   "choices.0.message.reasoning"};
enum { COMPL_OBJECT, COMPL_USAGE, COMPL_TEXT, COMPL_COUNT };
static const char *const completions_paths[COMPL_COUNT] = {"object", "usage", "choices.0.text"};
enum { EMB_USAGE, EMB_DATA, EMB_COUNT };
static const char *const embeddings_paths[EMB_COUNT] = {"usage", "data"};
/* TGI: an event object, or an array whose first element is one. */
enum { TGI_GENERATED_TOKENS, TGI_TOKEN_TEXT, TGI_GENERATED_TEXT, TGI_FIELDS, TGI_COUNT = 6 };
static const char *const tgi_paths[TGI_COUNT] = {
    "details.generated_tokens",   "token.text",   "generated_text",
    "0.details.generated_tokens", "0.token.text", "0.generated_text"};

static smfw_json_paths chat_set, completions_set, embeddings_set, tgi_set;
static pthread_once_t paths_once = PTHREAD_ONCE_INIT;

static void paths_compile(void) {
    /* Fixed, valid paths: compiling cannot fail. */
    smfw_json_paths_init(&chat_set, chat_paths, CHAT_COUNT);
    smfw_json_paths_init(&completions_set, completions_paths, COMPL_COUNT);
    smfw_json_paths_init(&embeddings_set, embeddings_paths, EMB_COUNT);
    smfw_json_paths_init(&tgi_set, tgi_paths, TGI_COUNT);
}

static int parse_chat(const direct_parse_cfg *cfg, direct_acc *a, const smfw_json_view *root,
                      const smfw_json_view *f, int64_t ts) {
    const smfw_json_view *obj = &f[CHAT_OBJECT], *body;
    if (root->type != SMFW_JSON_OBJECT) goto bad_object;
    if (smfw_json_string_equals(obj, "chat.completion.chunk"))
        body = &f[CHAT_DELTA_CONTENT];
    else if (smfw_json_string_equals(obj, "chat.completion"))
        body = &f[CHAT_MESSAGE_CONTENT];
    else
        goto bad_object;
    acc_usage(a, &f[CHAT_USAGE]);
    /* body[0] content, body[1] reasoning_content, body[2] reasoning */
    const smfw_json_view *reasoning = smfw_json_string_nonempty(&body[1]) ? &body[1] : &body[2];
    return acc_response(cfg, a, &body[0], reasoning, ts);
bad_object:;
    char shown[80] = "missing";
    if (root->type == SMFW_JSON_OBJECT && obj->type != SMFW_JSON_NONE) {
        size_t n = obj->len < sizeof shown - 1 ? obj->len : sizeof shown - 1;
        memcpy(shown, obj->p, n);
        shown[n] = '\0';
    }
    direct_acc_fail(a, SMFW_ERRCLASS_PROTOCOL, 0, 0, "ValueError",
                    "Unsupported OpenAI object type: %s (expected chat.completion or "
                    "chat.completion.chunk)",
                    shown);
    return -1;
}

static int parse_completions(const direct_parse_cfg *cfg, direct_acc *a, const smfw_json_view *root,
                             const smfw_json_view *f, int64_t ts) {
    const smfw_json_view *obj = &f[COMPL_OBJECT];
    if (root->type != SMFW_JSON_OBJECT || !(smfw_json_string_equals(obj, "text_completion") ||
                                            smfw_json_string_equals(obj, "completion"))) {
        direct_acc_fail(a, SMFW_ERRCLASS_PROTOCOL, 0, 0, "ValueError",
                        "Unsupported OpenAI object type for completions (expected "
                        "text_completion or completion)");
        return -1;
    }
    acc_usage(a, &f[COMPL_USAGE]);
    if (f[COMPL_TEXT].type == SMFW_JSON_NONE) return 0;
    return acc_response(cfg, a, &f[COMPL_TEXT], NULL, ts);
}

static int parse_embeddings(const direct_parse_cfg *cfg, direct_acc *a, const smfw_json_view *f,
                            int64_t ts) {
    (void)cfg;
    smfw_json_view first;
    acc_usage(a, &f[EMB_USAGE]);
    if (!smfw_json_index(&f[EMB_DATA], 0, &first)) return 0; /* not a non-empty array */
    return acc_content(a, ts);
}

static int parse_tgi(const direct_parse_cfg *cfg, direct_acc *a, const smfw_json_view *root,
                     const smfw_json_view *found, int64_t ts) {
    /* The event's fields: of the root object, or of the first element of a root array. */
    const smfw_json_view *f;
    if (root->type == SMFW_JSON_OBJECT)
        f = found;
    else if (root->type == SMFW_JSON_ARRAY)
        f = found + TGI_FIELDS;
    else
        return 0;
    const smfw_json_view *text = &f[TGI_TOKEN_TEXT], *gen = &f[TGI_GENERATED_TEXT];
    int64_t x;
    if (smfw_json_int64(&f[TGI_GENERATED_TOKENS], &x) == SMFW_JSON_NUM_OK) a->usage_completion = x;
    if (text->type != SMFW_JSON_NONE) {
        /* Streaming: the text is the token; generated_text (last event) repeats the whole. */
        if (!smfw_json_string_nonempty(text) && !smfw_json_string_nonempty(gen)) return 0;
        if (acc_content(a, ts) != 0) return -1;
        a->n_output_chunks++;
        if (!a->first_output_ns) a->first_output_ns = ts;
        if (cfg->keep_text && smfw_json_string_nonempty(text)) acc_text(&a->text, text);
        return 0;
    }
    return acc_response(cfg, a, gen, NULL, ts);
}

static int parse_template(const direct_parse_cfg *cfg, direct_acc *a, const smfw_json_view *root,
                          int64_t ts) {
    smfw_json_view usage = {SMFW_JSON_NONE, NULL, 0}, text;
    if (root->type == SMFW_JSON_OBJECT) smfw_json_get(root, "usage", &usage);
    acc_usage(a, &usage);
    const char *path =
        cfg->response_field && *cfg->response_field ? cfg->response_field : "generated_text";
    if (!smfw_json_path(root, path, &text)) return 0;
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
    pthread_once(&paths_once, paths_compile);
    const smfw_json_paths *set = NULL;
    switch (cfg->type) {
    case DIRECT_EP_CHAT:
        set = &chat_set;
        break;
    case DIRECT_EP_COMPLETIONS:
        set = &completions_set;
        break;
    case DIRECT_EP_EMBEDDINGS:
        set = &embeddings_set;
        break;
    case DIRECT_EP_TGI:
        set = &tgi_set;
        break;
    case DIRECT_EP_TEMPLATE: /* a configured path: looked up after validating */
        break;
    }
    smfw_json_view root, found[SMFW_JSON_PATHS_MAX];
    if (smfw_json_find(msg, len, set, &root, found, NULL) != 0) {
        /* A broken stream, not an empty answer: say which message (its start) was bad. */
        direct_acc_fail(a, SMFW_ERRCLASS_PROTOCOL, 0, 0, "JSONDecodeError",
                        "a stream message is not valid JSON (%zu bytes, starting \"%.40s\")", len,
                        msg);
        return -1;
    }
    switch (cfg->type) {
    case DIRECT_EP_CHAT:
        return parse_chat(cfg, a, &root, found, ts);
    case DIRECT_EP_COMPLETIONS:
        return parse_completions(cfg, a, &root, found, ts);
    case DIRECT_EP_EMBEDDINGS:
        return parse_embeddings(cfg, a, found, ts);
    case DIRECT_EP_TGI:
        return parse_tgi(cfg, a, &root, found, ts);
    case DIRECT_EP_TEMPLATE:
        return parse_template(cfg, a, &root, ts);
    }
    return 0;
}
