/*
 * llm.c - request parsing and response rendering for the emulated model
 * containers. Bodies are validated and read in place (the core's JSON view:
 * no tree, no allocation per request); streaming chunks are formatted with snprintf into
 * a reused buffer; tokens are fixed ASCII words, so no escaping is needed.
 */
#include "llm.h"
#include "instance_types.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/json_view.h>

static const char *const llm_words[] = {
    " The", " quick", " brown", " fox",      " jumps", " over",  " the", " lazy",
    " dog", " while", " smfw",  " measures", " every", " token", " it",  " sees",
};
#define LLM_WORDS (sizeof llm_words / sizeof llm_words[0])

const char *mock_llm_token(long k) {
    return llm_words[(size_t)k % LLM_WORDS];
}

/* Rough token count of a prompt: ~4 characters per token, as AIPerf's mock does. */
static long count_text_tokens(size_t n) {
    return n == 0 ? 0 : (long)((n + 3) / 4);
}

/* Every string of a prompt value, in order: a string, a list of them, or message / part
 * objects ("content" then "text"; the last duplicate of each wins, as in a parsed tree). */
static void prompt_walk(const smfw_json_view *v, mock_llm_text_fn fn, void *ctx) {
    if (v->type == SMFW_JSON_STRING) {
        fn(ctx, v);
        return;
    }
    smfw_json_iter it;
    smfw_json_view key, item;
    smfw_json_iter_init(&it, v);
    if (v->type == SMFW_JSON_ARRAY) {
        while (smfw_json_next(&it, NULL, &item)) prompt_walk(&item, fn, ctx);
    } else if (v->type == SMFW_JSON_OBJECT) {
        smfw_json_view content = {SMFW_JSON_NONE, NULL, 0}, text = {SMFW_JSON_NONE, NULL, 0};
        while (smfw_json_next(&it, &key, &item)) {
            if (smfw_json_string_equals_n(&key, "content", 7))
                content = item;
            else if (smfw_json_string_equals_n(&key, "text", 4))
                text = item;
        }
        if (content.type != SMFW_JSON_NONE) prompt_walk(&content, fn, ctx);
        if (text.type != SMFW_JSON_NONE) prompt_walk(&text, fn, ctx);
    }
}

long mock_llm_text_tokens(const smfw_json_view *text) {
    return count_text_tokens(smfw_json_string_length(text));
}

static void count_string(void *ctx, const smfw_json_view *text) {
    *(long *)ctx += mock_llm_text_tokens(text);
}

static long prompt_tokens_of(const smfw_json_view *v) {
    long total = 0;
    prompt_walk(v, count_string, &total);
    return total;
}

/* A token budget field: integers as they are, reals truncated; -1 when not a number. */
static long int_member(const smfw_json_view *v) {
    int64_t i;
    double d;
    if (smfw_json_int64(v, &i) != SMFW_JSON_NUM_NOT) /* an overflow is saturated: clamped below */
        return i > 2147483647LL ? 2147483647L : i < -2147483647LL ? -2147483647L : (long)i;
    if (smfw_json_double(v, &d) == SMFW_JSON_NUM_NOT) return -1;
    return d > 2147483647.0 ? 2147483647L : d < -2147483647.0 ? -2147483647L : (long)d;
}

/* What a request body may hold, found while it is validated (one pass, a tree's answers). */
enum {
    M_MESSAGES,
    M_PROMPT,
    M_INPUTS,
    M_MAX_COMPLETION,
    M_MAX_TOKENS,
    M_MAX_NEW_TOKENS,
    M_DETAILS,
    M_STREAM,
    M_INCLUDE_USAGE,
    M_MODEL,
    M_INSTANCE_TYPE,
    M_COUNT
};
static const char *const request_paths[M_COUNT] = {"messages",
                                                   "prompt",
                                                   "inputs",
                                                   "max_completion_tokens",
                                                   "max_tokens",
                                                   "parameters.max_new_tokens",
                                                   "parameters.details",
                                                   "stream",
                                                   "stream_options.include_usage",
                                                   "model",
                                                   MOCK_INSTANCE_TYPE_MEMBER};
static smfw_json_paths request_set;
static pthread_once_t request_once = PTHREAD_ONCE_INIT;

static void request_paths_compile(void) {
    smfw_json_paths_init(&request_set, request_paths, M_COUNT); /* fixed paths: cannot fail */
}

void mock_llm_prompt_strings(const mock_llm_request *r, mock_llm_text_fn fn, void *ctx) {
    prompt_walk(&r->prompt, fn, ctx);
}

int mock_llm_parse(const uint8_t *body, size_t len, const char *default_model,
                   mock_llm_request *out, char *err, size_t err_size) {
    memset(out, 0, sizeof *out);
    pthread_once(&request_once, request_paths_compile);
    smfw_json_view root, m[M_COUNT];
    smfw_json_error why;
    if (smfw_json_find((const char *)body, len, &request_set, &root, m, &why) != 0) {
        snprintf(err, err_size, "request body is not a JSON object (%s at byte %zu)", why.message,
                 why.offset);
        return -1;
    }
    if (root.type != SMFW_JSON_OBJECT) {
        snprintf(err, err_size, "request body is not a JSON object (wrong type)");
        return -1;
    }
    long max_tokens = -1;
    if (m[M_MESSAGES].type == SMFW_JSON_ARRAY) {
        out->format = MOCK_LLM_CHAT;
        out->prompt = m[M_MESSAGES];
        max_tokens = int_member(&m[M_MAX_COMPLETION]);
        if (max_tokens < 0) max_tokens = int_member(&m[M_MAX_TOKENS]);
    } else if (m[M_PROMPT].type == SMFW_JSON_STRING || m[M_PROMPT].type == SMFW_JSON_ARRAY) {
        out->format = MOCK_LLM_COMPLETIONS;
        out->prompt = m[M_PROMPT];
        max_tokens = int_member(&m[M_MAX_TOKENS]);
    } else if (m[M_INPUTS].type == SMFW_JSON_STRING) {
        out->format = MOCK_LLM_TGI;
        out->prompt = m[M_INPUTS];
        max_tokens = int_member(&m[M_MAX_NEW_TOKENS]);
        out->tgi_details = m[M_DETAILS].type == SMFW_JSON_TRUE;
    } else {
        snprintf(err, err_size,
                 "request body has none of \"messages\" (chat), \"prompt\" "
                 "(completions) or \"inputs\" (TGI)");
        return -1;
    }
    out->prompt_tokens = prompt_tokens_of(&out->prompt);
    if (max_tokens == 0 || max_tokens < -1) {
        snprintf(err, err_size, "max_tokens must be at least 1");
        return -1;
    }
    out->max_tokens = max_tokens > 0 ? max_tokens : 0;
    out->stream = m[M_STREAM].type == SMFW_JSON_TRUE;
    out->include_usage = m[M_INCLUDE_USAGE].type == SMFW_JSON_TRUE;
    /* An instance type name has no escapes: a longer or escaped string is no type at all. */
    const smfw_json_view *it = &m[M_INSTANCE_TYPE]; /* with its quotes */
    if (it->type == SMFW_JSON_STRING && it->len >= 2 && it->len - 2 < sizeof out->instance_type &&
        !memchr(it->p, '\\', it->len)) {
        memcpy(out->instance_type, it->p + 1, it->len - 2);
        out->instance_type[it->len - 2] = '\0';
    }
    /* The model name is echoed as the JSON string it arrived as (already valid JSON). */
    if (m[M_MODEL].type == SMFW_JSON_STRING && m[M_MODEL].len < sizeof out->model) {
        memcpy(out->model, m[M_MODEL].p, m[M_MODEL].len);
        out->model[m[M_MODEL].len] = '\0';
    } else {
        /* The default, quoted once (the event loop is the only caller). */
        static char quoted_default[sizeof out->model], source[sizeof quoted_default];
        if (strcmp(source, default_model) != 0 || !quoted_default[0]) {
            json_t *js = json_string(default_model);
            char *q = js ? json_dumps(js, JSON_ENCODE_ANY) : NULL;
            snprintf(quoted_default, sizeof quoted_default, "%s",
                     q && strlen(q) < sizeof quoted_default ? q : "\"mock-model\"");
            snprintf(source, sizeof source, "%s", default_model);
            free(q);
            json_decref(js);
        }
        memcpy(out->model, quoted_default, sizeof out->model);
    }
    return 0;
}

static const char *finish_reason(const mock_llm_answer *a) {
    return a->truncated ? "\"length\"" : "\"stop\"";
}

void mock_llm_stream_token(const mock_llm_answer *a, long k, smfw_buf *b) {
    const char *tok = mock_llm_token(k);
    int last = k == a->tokens - 1;
    switch (a->req.format) {
    case MOCK_LLM_CHAT:
        smfw_buf_printf(b,
                        "data: {\"id\":\"%s\",\"object\":\"chat.completion.chunk\",\"created\":%ld,"
                        "\"model\":%s,\"choices\":[{\"index\":0,\"delta\":{%s\"%s\":\"%s\"},"
                        "\"logprobs\":null,\"finish_reason\":%s}]}\n\n",
                        a->id, a->created, a->req.model, k == 0 ? "\"role\":\"assistant\"," : "",
                        a->reasoning_only ? "reasoning_content" : "content", tok,
                        last ? finish_reason(a) : "null");
        break;
    case MOCK_LLM_COMPLETIONS:
        smfw_buf_printf(b,
                        "data: {\"id\":\"%s\",\"object\":\"text_completion\",\"created\":%ld,"
                        "\"model\":%s,\"choices\":[{\"index\":0,\"text\":\"%s\",\"logprobs\":null,"
                        "\"finish_reason\":%s}]}\n\n",
                        a->id, a->created, a->req.model, a->reasoning_only ? "" : tok,
                        last ? finish_reason(a) : "null");
        break;
    case MOCK_LLM_TGI:
        smfw_buf_printf(
            b,
            "data:{\"index\":%ld,\"token\":{\"id\":%ld,\"text\":\"%s\",\"logprob\":-0.1,"
            "\"special\":false},\"generated_text\":",
            k, 1000 + (long)((size_t)k % LLM_WORDS), tok);
        if (last) {
            smfw_buf_puts(b, "\"");
            for (long j = 0; j < a->tokens; j++) smfw_buf_puts(b, mock_llm_token(j));
            smfw_buf_printf(b,
                            "\",\"details\":{\"finish_reason\":\"%s\",\"generated_tokens\":%ld,"
                            "\"seed\":null}}\n\n",
                            a->truncated ? "length" : "eos_token", a->tokens);
        } else {
            smfw_buf_puts(b, "null,\"details\":null}\n\n");
        }
        break;
    }
}

/* vLLM's usage.prompt_tokens_details, with the prefix cache on (--prefix-cache). */
static void usage_cached(const mock_llm_answer *a, smfw_buf *b) {
    if (a->cached_tokens >= 0)
        smfw_buf_printf(b, ",\"prompt_tokens_details\":{\"cached_tokens\":%ld}", a->cached_tokens);
}

void mock_llm_stream_tail(const mock_llm_answer *a, smfw_buf *b) {
    if (a->req.format == MOCK_LLM_TGI) {
        if (a->tokens == 0)
            smfw_buf_puts(b, "data:{\"index\":0,\"token\":{\"id\":0,\"text\":\"\",\"logprob\":0,"
                             "\"special\":true},\"generated_text\":\"\",\"details\":{"
                             "\"finish_reason\":\"eos_token\",\"generated_tokens\":0,\"seed\":"
                             "null}}\n\n");
        return;
    }
    const char *object =
        a->req.format == MOCK_LLM_CHAT ? "chat.completion.chunk" : "text_completion";
    if (a->tokens == 0) {
        if (a->req.format == MOCK_LLM_CHAT)
            smfw_buf_printf(b,
                            "data: {\"id\":\"%s\",\"object\":\"%s\",\"created\":%ld,\"model\":%s,"
                            "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                            "\"content\":\"\"},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n\n",
                            a->id, object, a->created, a->req.model);
        else
            smfw_buf_printf(b,
                            "data: {\"id\":\"%s\",\"object\":\"%s\",\"created\":%ld,\"model\":%s,"
                            "\"choices\":[{\"index\":0,\"text\":\"\",\"logprobs\":null,"
                            "\"finish_reason\":\"stop\"}]}\n\n",
                            a->id, object, a->created, a->req.model);
    }
    if (a->req.include_usage) {
        smfw_buf_printf(b,
                        "data: {\"id\":\"%s\",\"object\":\"%s\",\"created\":%ld,\"model\":%s,"
                        "\"choices\":[],\"usage\":{\"prompt_tokens\":%ld,\"completion_tokens\":%ld,"
                        "\"total_tokens\":%ld",
                        a->id, object, a->created, a->req.model, a->req.prompt_tokens, a->tokens,
                        a->req.prompt_tokens + a->tokens);
        if (a->reasoning_only)
            smfw_buf_printf(b, ",\"completion_tokens_details\":{\"reasoning_tokens\":%ld}",
                            a->tokens);
        usage_cached(a, b);
        smfw_buf_puts(b, "}}\n\n");
    }
    smfw_buf_puts(b, "data: [DONE]\n\n");
}

void mock_llm_full_body(const mock_llm_answer *a, smfw_buf *b, const char **content_type) {
    *content_type = "application/json";
    if (a->req.stream && a->req.format != MOCK_LLM_TGI) {
        /* "stream": true sent to a buffered route: the container still streams SSE, and the
           whole stream arrives as one body (what vLLM behind InvokeEndpoint does). */
        *content_type = "text/event-stream";
        for (long k = 0; k < a->tokens; k++) mock_llm_stream_token(a, k, b);
        mock_llm_stream_tail(a, b);
        return;
    }
    static smfw_buf text; /* reused: the event loop is the only caller */
    text.len = 0;
    smfw_buf_puts(&text, "");
    for (long k = 0; k < a->tokens; k++) smfw_buf_puts(&text, mock_llm_token(k));
    const char *fr = a->tokens == 0 ? "\"stop\"" : finish_reason(a);
    switch (a->req.format) {
    case MOCK_LLM_CHAT:
        smfw_buf_printf(
            b,
            "{\"id\":\"%s\",\"object\":\"chat.completion\",\"created\":%ld,\"model\":%s,"
            "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",",
            a->id, a->created, a->req.model);
        if (a->reasoning_only)
            smfw_buf_printf(b, "\"content\":null,\"reasoning_content\":\"%s\"", text.data);
        else
            smfw_buf_printf(b, "\"content\":\"%s\"", text.data);
        smfw_buf_printf(b, "},\"logprobs\":null,\"finish_reason\":%s}],", fr);
        break;
    case MOCK_LLM_COMPLETIONS:
        smfw_buf_printf(
            b,
            "{\"id\":\"%s\",\"object\":\"text_completion\",\"created\":%ld,\"model\":%s,"
            "\"choices\":[{\"index\":0,\"text\":\"%s\",\"logprobs\":null,"
            "\"finish_reason\":%s}],",
            a->id, a->created, a->req.model, a->reasoning_only ? "" : text.data, fr);
        break;
    case MOCK_LLM_TGI:
        smfw_buf_printf(b, "[{\"generated_text\":\"%s\"", text.data);
        if (a->req.tgi_details)
            smfw_buf_printf(b,
                            ",\"details\":{\"finish_reason\":\"%s\",\"generated_tokens\":%ld,"
                            "\"seed\":null}",
                            a->truncated ? "length" : "eos_token", a->tokens);
        smfw_buf_puts(b, "}]");
        if (text.cap > 1 << 20) smfw_buf_free(&text);
        return;
    }
    smfw_buf_printf(
        b, "\"usage\":{\"prompt_tokens\":%ld,\"completion_tokens\":%ld,\"total_tokens\":%ld",
        a->req.prompt_tokens, a->tokens, a->req.prompt_tokens + a->tokens);
    if (a->reasoning_only)
        smfw_buf_printf(b, ",\"completion_tokens_details\":{\"reasoning_tokens\":%ld}", a->tokens);
    usage_cached(a, b);
    smfw_buf_puts(b, "}}");
    if (text.cap > 1 << 20) smfw_buf_free(&text);
}
