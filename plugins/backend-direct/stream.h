/*
 * stream.h - incremental response readers and AIPerf's content rules.
 *
 * Bytes arrive in arbitrary pieces (network reads, event-stream frames).
 * Two framers cut them into messages, each stamped with the time of the read
 * that completed it (aiperf-compat.md §1.2, §7):
 *   - direct_sse: Server-Sent Events, events split on "\r\n\r\n" or "\n\n",
 *     `data:` lines joined with "\n", `event: error` reported;
 *   - direct_lines: newline-delimited messages (SageMaker PayloadPart bytes,
 *     JSON lines, TGI token lines), trimmed, one leading `data:` removed.
 * direct_parse_message() then applies the endpoint's parser: a message is a
 * content response when it carries non-empty content or reasoning text;
 * role-only, empty, usage-only chunks, comments and [DONE] are not.
 *
 * Buffers only grow to the largest message seen; nothing is allocated per
 * message once they have.
 */
#ifndef DIRECT_STREAM_H
#define DIRECT_STREAM_H

#include <stdint.h>

#include <smfw/buf.h>
#include <smfw/results.h>

/* ---- framers ------------------------------------------------------------ */

/** One SSE event handed to the caller. Views valid during the callback only. */
typedef struct direct_sse_event {
    const char *data; /**< `data:` lines joined with "\n" (values stripped) */
    size_t data_len;
    int has_data;
    int is_error;        /**< the event had `event: error` */
    const char *comment; /**< last comment line (the error text of an error event) */
    size_t comment_len;
} direct_sse_event;

/** Return 0 to continue, -1 to stop feeding (the request failed). */
typedef int (*direct_sse_fn)(void *user, const direct_sse_event *ev, int64_t ts);

typedef struct direct_sse {
    smfw_buf buf;   /* bytes not yet part of a complete event */
    size_t scanned; /* prefix of buf already searched for a delimiter */
    smfw_buf data;  /* scratch for multi-line data */
} direct_sse;

void direct_sse_reset(direct_sse *s);
void direct_sse_free(direct_sse *s);
/** Feed bytes of one network read stamped `ts`. Returns 0, or -1 when fn stopped or no memory. */
int direct_sse_feed(direct_sse *s, const char *bytes, size_t len, int64_t ts, direct_sse_fn fn,
                    void *user);
/** End of body: a non-blank remainder becomes a final event stamped `ts`. */
int direct_sse_finish(direct_sse *s, int64_t ts, direct_sse_fn fn, void *user);

/** One message (line) handed to the caller; return 0 to continue, -1 to stop. */
typedef int (*direct_line_fn)(void *user, const char *msg, size_t len, int64_t ts);

typedef struct direct_lines {
    smfw_buf buf;
    size_t scanned;
    int strict_utf8; /* SageMaker: invalid UTF-8 fails the request */
    int bad_utf8;    /* set when a line failed the UTF-8 check */
} direct_lines;

void direct_lines_reset(direct_lines *l);
void direct_lines_free(direct_lines *l);
/** Feed bytes stamped `ts`; each complete non-blank line goes to fn. -1 on stop/bad UTF-8. */
int direct_lines_feed(direct_lines *l, const char *bytes, size_t len, int64_t ts, direct_line_fn fn,
                      void *user);
/** End of stream: flush a non-blank unterminated line. */
int direct_lines_finish(direct_lines *l, int64_t ts, direct_line_fn fn, void *user);

/** True when [s, s+n) is valid UTF-8 (no overlongs, no surrogates). */
int direct_utf8_valid(const char *s, size_t n);

/* ---- endpoint parsers --------------------------------------------------- */

typedef enum direct_endpoint_type {
    DIRECT_EP_CHAT = 0,
    DIRECT_EP_COMPLETIONS,
    DIRECT_EP_EMBEDDINGS,
    DIRECT_EP_TGI,
    DIRECT_EP_TEMPLATE
} direct_endpoint_type;

/** Name <-> type ("chat", "completions", "embeddings", "tgi", "template"). */
const char *direct_endpoint_type_name(direct_endpoint_type t);
int direct_endpoint_type_parse(const char *name, direct_endpoint_type *out);

typedef struct direct_parse_cfg {
    direct_endpoint_type type;
    const char *response_field; /**< template: dotted path of the text in each message */
    int keep_text;              /**< accumulate the text (outputs.json, token estimates) */
} direct_parse_cfg;

/** What one response has produced so far. Reused across requests of a slot. */
typedef struct direct_acc {
    int64_t *content_ns; /* arrival of each content response */
    size_t n_content, cap_content;
    int64_t first_output_ns;           /* first content response with non-reasoning text, 0 none */
    int64_t first_msg_ns, last_msg_ns; /* any message (request_end_ns) */
    int64_t n_output_chunks, n_reasoning_chunks;
    int64_t usage_prompt, usage_completion, usage_total, usage_reasoning; /* -1 = not sent */
    int64_t usage_cached; /* usage.prompt_tokens_details.cached_tokens, -1 = not sent */
    smfw_buf text, reasoning;
    /* failure raised by a message */
    int failed;
    smfw_error_class err_class;
    int err_has_code, err_code;
    char err_type[64];
    char err_message[512];
} direct_acc;

void direct_acc_reset(direct_acc *a);
void direct_acc_free(direct_acc *a);
/** Mark the response failed (first failure wins). */
void direct_acc_fail(direct_acc *a, smfw_error_class cls, int has_code, int code, const char *type,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/**
 * Parse one message (an SSE data payload, a line, or a whole body) stamped
 * `ts`. Returns 0, or -1 when the message fails the request (a parse error
 * AIPerf raises, e.g. an unknown chat `object`): then a->failed is set.
 */
int direct_parse_message(const direct_parse_cfg *cfg, direct_acc *a, const char *msg, size_t len,
                         int64_t ts);

#endif /* DIRECT_STREAM_H */
