/*
 * llm.c - request parsing and response rendering for the emulated model
 * containers. Streaming chunks are formatted with snprintf into a reused
 * buffer (no JSON library on the per-token path); tokens are fixed ASCII
 * words, so no escaping is needed there.
 */
#include "llm.h"

#include <stdlib.h>
#include <string.h>

static const char *const llm_words[] = {
    " The", " quick", " brown", " fox",      " jumps", " over",  " the", " lazy",
    " dog", " while", " smfw",  " measures", " every", " token", " it",  " sees",
};
#define LLM_WORDS (sizeof llm_words / sizeof llm_words[0])

const char *mock_llm_token(long k) {
    return llm_words[(size_t)k % LLM_WORDS];
}

/* Rough token count of a prompt: ~4 characters per token, as AIPerf's mock does. */
static long count_text_tokens(const char *s, size_t n) {
    (void)s;
    return n == 0 ? 0 : (long)((n + 3) / 4);
}

static long prompt_tokens_of(json_t *v) {
    if (json_is_string(v)) return count_text_tokens(json_string_value(v), json_string_length(v));
    long total = 0;
    size_t i;
    json_t *item;
    if (json_is_array(v)) {
        json_array_foreach(v, i, item) total += prompt_tokens_of(item);
    } else if (json_is_object(v)) {
        json_t *content = json_object_get(v, "content");
        json_t *text = json_object_get(v, "text");
        if (content) total += prompt_tokens_of(content);
        if (text) total += prompt_tokens_of(text);
    }
    return total;
}

static long int_member(json_t *o, const char *key) {
    json_t *v = json_object_get(o, key);
    if (json_is_integer(v)) return (long)json_integer_value(v);
    if (json_is_real(v)) return (long)json_real_value(v);
    return -1;
}

int mock_llm_parse(const uint8_t *body, size_t len, const char *default_model,
                   mock_llm_request *out, char *err, size_t err_size) {
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    json_t *root = json_loadb((const char *)body, len, 0, &jerr);
    if (!json_is_object(root)) {
        snprintf(err, err_size, "request body is not a JSON object (%s)",
                 root ? "wrong type" : jerr.text);
        json_decref(root);
        return -1;
    }
    json_t *messages = json_object_get(root, "messages");
    json_t *prompt = json_object_get(root, "prompt");
    json_t *inputs = json_object_get(root, "inputs");
    long max_tokens = -1;
    if (json_is_array(messages)) {
        out->format = MOCK_LLM_CHAT;
        out->prompt_tokens = prompt_tokens_of(messages);
        max_tokens = int_member(root, "max_completion_tokens");
        if (max_tokens < 0) max_tokens = int_member(root, "max_tokens");
    } else if (prompt && (json_is_string(prompt) || json_is_array(prompt))) {
        out->format = MOCK_LLM_COMPLETIONS;
        out->prompt_tokens = prompt_tokens_of(prompt);
        max_tokens = int_member(root, "max_tokens");
    } else if (inputs && json_is_string(inputs)) {
        out->format = MOCK_LLM_TGI;
        out->prompt_tokens = prompt_tokens_of(inputs);
        json_t *params = json_object_get(root, "parameters");
        max_tokens = int_member(params, "max_new_tokens");
        out->tgi_details = json_is_true(json_object_get(params, "details"));
    } else {
        snprintf(err, err_size,
                 "request body has none of \"messages\" (chat), \"prompt\" "
                 "(completions) or \"inputs\" (TGI)");
        json_decref(root);
        return -1;
    }
    if (max_tokens == 0 || max_tokens < -1) {
        snprintf(err, err_size, "max_tokens must be at least 1");
        json_decref(root);
        return -1;
    }
    out->max_tokens = max_tokens > 0 ? max_tokens : 0;
    out->stream = json_is_true(json_object_get(root, "stream"));
    out->include_usage =
        json_is_true(json_object_get(json_object_get(root, "stream_options"), "include_usage"));
    json_t *model = json_object_get(root, "model");
    json_t *m = json_string(json_is_string(model) ? json_string_value(model) : default_model);
    char *quoted = json_dumps(m, JSON_ENCODE_ANY);
    snprintf(out->model, sizeof out->model, "%s", quoted ? quoted : "\"mock-model\"");
    free(quoted);
    json_decref(m);
    json_decref(root);
    return 0;
}

static const char *finish_reason(const mock_llm_answer *a) {
    return a->truncated ? "\"length\"" : "\"stop\"";
}

void mock_llm_stream_token(const mock_llm_answer *a, long k, mock_buf *b) {
    const char *tok = mock_llm_token(k);
    int last = k == a->tokens - 1;
    switch (a->req.format) {
    case MOCK_LLM_CHAT:
        mock_buf_printf(b,
                        "data: {\"id\":\"%s\",\"object\":\"chat.completion.chunk\",\"created\":%ld,"
                        "\"model\":%s,\"choices\":[{\"index\":0,\"delta\":{%s\"%s\":\"%s\"},"
                        "\"logprobs\":null,\"finish_reason\":%s}]}\n\n",
                        a->id, a->created, a->req.model, k == 0 ? "\"role\":\"assistant\"," : "",
                        a->reasoning_only ? "reasoning_content" : "content", tok,
                        last ? finish_reason(a) : "null");
        break;
    case MOCK_LLM_COMPLETIONS:
        mock_buf_printf(b,
                        "data: {\"id\":\"%s\",\"object\":\"text_completion\",\"created\":%ld,"
                        "\"model\":%s,\"choices\":[{\"index\":0,\"text\":\"%s\",\"logprobs\":null,"
                        "\"finish_reason\":%s}]}\n\n",
                        a->id, a->created, a->req.model, a->reasoning_only ? "" : tok,
                        last ? finish_reason(a) : "null");
        break;
    case MOCK_LLM_TGI:
        mock_buf_printf(
            b,
            "data:{\"index\":%ld,\"token\":{\"id\":%ld,\"text\":\"%s\",\"logprob\":-0.1,"
            "\"special\":false},\"generated_text\":",
            k, 1000 + (long)((size_t)k % LLM_WORDS), tok);
        if (last) {
            mock_buf_puts(b, "\"");
            for (long j = 0; j < a->tokens; j++) mock_buf_puts(b, mock_llm_token(j));
            mock_buf_printf(b,
                            "\",\"details\":{\"finish_reason\":\"%s\",\"generated_tokens\":%ld,"
                            "\"seed\":null}}\n\n",
                            a->truncated ? "length" : "eos_token", a->tokens);
        } else {
            mock_buf_puts(b, "null,\"details\":null}\n\n");
        }
        break;
    }
}

void mock_llm_stream_tail(const mock_llm_answer *a, mock_buf *b) {
    if (a->req.format == MOCK_LLM_TGI) {
        if (a->tokens == 0)
            mock_buf_puts(b, "data:{\"index\":0,\"token\":{\"id\":0,\"text\":\"\",\"logprob\":0,"
                             "\"special\":true},\"generated_text\":\"\",\"details\":{"
                             "\"finish_reason\":\"eos_token\",\"generated_tokens\":0,\"seed\":"
                             "null}}\n\n");
        return;
    }
    const char *object =
        a->req.format == MOCK_LLM_CHAT ? "chat.completion.chunk" : "text_completion";
    if (a->tokens == 0) {
        if (a->req.format == MOCK_LLM_CHAT)
            mock_buf_printf(b,
                            "data: {\"id\":\"%s\",\"object\":\"%s\",\"created\":%ld,\"model\":%s,"
                            "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                            "\"content\":\"\"},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n\n",
                            a->id, object, a->created, a->req.model);
        else
            mock_buf_printf(b,
                            "data: {\"id\":\"%s\",\"object\":\"%s\",\"created\":%ld,\"model\":%s,"
                            "\"choices\":[{\"index\":0,\"text\":\"\",\"logprobs\":null,"
                            "\"finish_reason\":\"stop\"}]}\n\n",
                            a->id, object, a->created, a->req.model);
    }
    if (a->req.include_usage) {
        mock_buf_printf(b,
                        "data: {\"id\":\"%s\",\"object\":\"%s\",\"created\":%ld,\"model\":%s,"
                        "\"choices\":[],\"usage\":{\"prompt_tokens\":%ld,\"completion_tokens\":%ld,"
                        "\"total_tokens\":%ld",
                        a->id, object, a->created, a->req.model, a->req.prompt_tokens, a->tokens,
                        a->req.prompt_tokens + a->tokens);
        if (a->reasoning_only)
            mock_buf_printf(b, ",\"completion_tokens_details\":{\"reasoning_tokens\":%ld}",
                            a->tokens);
        mock_buf_puts(b, "}}\n\n");
    }
    mock_buf_puts(b, "data: [DONE]\n\n");
}

void mock_llm_full_body(const mock_llm_answer *a, mock_buf *b, const char **content_type) {
    *content_type = "application/json";
    if (a->req.stream && a->req.format != MOCK_LLM_TGI) {
        /* "stream": true sent to a buffered route: the container still streams SSE, and the
           whole stream arrives as one body (what vLLM behind InvokeEndpoint does). */
        *content_type = "text/event-stream";
        for (long k = 0; k < a->tokens; k++) mock_llm_stream_token(a, k, b);
        mock_llm_stream_tail(a, b);
        return;
    }
    mock_buf text = {0};
    mock_buf_puts(&text, "");
    for (long k = 0; k < a->tokens; k++) mock_buf_puts(&text, mock_llm_token(k));
    const char *fr = a->tokens == 0 ? "\"stop\"" : finish_reason(a);
    switch (a->req.format) {
    case MOCK_LLM_CHAT:
        mock_buf_printf(
            b,
            "{\"id\":\"%s\",\"object\":\"chat.completion\",\"created\":%ld,\"model\":%s,"
            "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",",
            a->id, a->created, a->req.model);
        if (a->reasoning_only)
            mock_buf_printf(b, "\"content\":null,\"reasoning_content\":\"%s\"", text.data);
        else
            mock_buf_printf(b, "\"content\":\"%s\"", text.data);
        mock_buf_printf(b, "},\"logprobs\":null,\"finish_reason\":%s}],", fr);
        break;
    case MOCK_LLM_COMPLETIONS:
        mock_buf_printf(
            b,
            "{\"id\":\"%s\",\"object\":\"text_completion\",\"created\":%ld,\"model\":%s,"
            "\"choices\":[{\"index\":0,\"text\":\"%s\",\"logprobs\":null,"
            "\"finish_reason\":%s}],",
            a->id, a->created, a->req.model, a->reasoning_only ? "" : text.data, fr);
        break;
    case MOCK_LLM_TGI:
        mock_buf_printf(b, "[{\"generated_text\":\"%s\"", text.data);
        if (a->req.tgi_details)
            mock_buf_printf(b,
                            ",\"details\":{\"finish_reason\":\"%s\",\"generated_tokens\":%ld,"
                            "\"seed\":null}",
                            a->truncated ? "length" : "eos_token", a->tokens);
        mock_buf_puts(b, "}]");
        mock_buf_free(&text);
        return;
    }
    mock_buf_printf(
        b, "\"usage\":{\"prompt_tokens\":%ld,\"completion_tokens\":%ld,\"total_tokens\":%ld",
        a->req.prompt_tokens, a->tokens, a->req.prompt_tokens + a->tokens);
    if (a->reasoning_only)
        mock_buf_printf(b, ",\"completion_tokens_details\":{\"reasoning_tokens\":%ld}", a->tokens);
    mock_buf_puts(b, "}}");
    mock_buf_free(&text);
}
