/*
 * payload.h - request bodies for each endpoint type, built once before a run.
 *
 * Every prompt becomes one compact JSON body (what is sent, byte for byte,
 * and what inputs.json records): chat (OpenAI messages), completions,
 * embeddings, tgi (inputs + parameters) or a user template with
 * {{prompt}} / {{max_tokens}} / {{model}} / {{stream}} placeholders.
 * `--extra-inputs key:value` fields are merged at the top level (the value is
 * JSON when it parses as JSON, else a string).
 */
#ifndef DIRECT_PAYLOAD_H
#define DIRECT_PAYLOAD_H

#include <jansson.h>

#include <smfw/smfw.h>

#include "stream.h"

typedef struct direct_payload_cfg {
    direct_endpoint_type type;
    const char *model; /**< NULL = no "model" field */
    int streaming;
    int include_usage;         /**< chat/completions streaming: stream_options.include_usage */
    int use_max_tokens;        /**< chat: "max_tokens" instead of "max_completion_tokens" */
    const char *template_text; /**< DIRECT_EP_TEMPLATE: the template */
    const char *const *extra;  /**< "key:value" items */
    size_t n_extra;
} direct_payload_cfg;

/** One prepared body. */
typedef struct direct_payload {
    char *body; /**< compact JSON, NUL-terminated */
    size_t len;
    char sha256[65];      /**< hex SHA-256 of body (SigV4 payload hash) */
    int64_t max_tokens;   /**< output budget sent (0 = none) */
    int64_t input_tokens; /**< ISL estimate (dataset's, else smfw_estimate_tokens) */
    char conversation_id[40];
    int32_t turn_index;
} direct_payload;

/** Check every extra input ("key:value", key non-empty). */
smfw_status direct_extra_inputs_check(const char *const *extra, size_t n, smfw_error *err);

/**
 * Build the JSON body object for one prompt. *out is a new reference.
 * Errors: a template that is not valid JSON after substitution, a body that
 * asks for "stream": true while streaming is off (the buffered operation
 * would silently make TTFT equal the whole latency).
 */
smfw_status direct_payload_build_json(const direct_payload_cfg *cfg, const char *prompt,
                                      const char *role, int64_t max_tokens, json_t **out,
                                      smfw_error *err);

/** Serialise a body and fill a direct_payload (body, len, sha256, max_tokens). */
smfw_status direct_payload_fill(direct_payload *p, json_t *body, int64_t max_tokens,
                                smfw_error *err);

void direct_payload_clear(direct_payload *p);

#endif /* DIRECT_PAYLOAD_H */
