/*
 * llm.h - the model side of the mock: request bodies in (OpenAI chat,
 * OpenAI completions, TGI), deterministic tokens, and the exact bytes a vLLM /
 * LMI / TGI container would answer with, streamed or not.
 */
#ifndef SMFW_MOCK_LLM_H
#define SMFW_MOCK_LLM_H

#include "mock.h"

#include <smfw/json_view.h>

typedef enum mock_llm_format {
    MOCK_LLM_CHAT,        /* {"messages": [...]} -> chat.completion(.chunk) */
    MOCK_LLM_COMPLETIONS, /* {"prompt": ...} -> text_completion */
    MOCK_LLM_TGI          /* {"inputs": ..., "parameters": {...}} -> TGI */
} mock_llm_format;

typedef struct mock_llm_request {
    mock_llm_format format;
    int stream;        /* the body asked for a stream ("stream": true) */
    int include_usage; /* stream_options.include_usage */
    int tgi_details;   /* parameters.details */
    long max_tokens;   /* 0 when the body has none */
    long prompt_tokens;
    smfw_json_view prompt; /* "messages", "prompt" or "inputs": a view into the request body */
    char model[160];       /* JSON-escaped, with quotes */
    /* "smfw_mock_instance_type" (instance_types.h): the emulated instance type, "" when none */
    char instance_type[32];
} mock_llm_request;

/* Parse a request body. Returns 0, or -1 with a client-error message in err. */
int mock_llm_parse(const uint8_t *body, size_t len, const char *default_model,
                   mock_llm_request *out, char *err, size_t err_size);

/* The prompt's strings, in the order prompt_tokens counts them (the prefix cache's token
 * stream): fn once per JSON string view. The request's body must still be alive. */
typedef void (*mock_llm_text_fn)(void *ctx, const smfw_json_view *text);
void mock_llm_prompt_strings(const mock_llm_request *r, mock_llm_text_fn fn, void *ctx);
/* Tokens of one prompt string: ~4 characters each, as AIPerf's mock counts them. */
long mock_llm_text_tokens(const smfw_json_view *text);

/* The generation plan for one answer. */
typedef struct mock_llm_answer {
    mock_llm_request req;
    long tokens;        /* tokens to produce (content, or reasoning when reasoning_only) */
    int reasoning_only; /* content stays null; the budget goes to reasoning_content */
    int truncated;      /* finish_reason "length" (budget reached) rather than "stop" */
    long cached_tokens; /* prompt tokens the prefix cache held; -1: no prefix cache */
    char id[64];
    long created;
} mock_llm_answer;

/* Text of token k (a short word with a leading space; plain ASCII, JSON-safe). */
const char *mock_llm_token(long k);

/* Streaming: append the SSE event(s) for token k to b. */
void mock_llm_stream_token(const mock_llm_answer *a, long k, smfw_buf *b);
/* Streaming: what follows the last token (finish chunk for empty answers, usage, [DONE]). */
void mock_llm_stream_tail(const mock_llm_answer *a, smfw_buf *b);
/* Non-streaming body; sets *content_type. */
void mock_llm_full_body(const mock_llm_answer *a, smfw_buf *b, const char **content_type);

#endif /* SMFW_MOCK_LLM_H */
