/*
 * payload.c - request bodies per endpoint type (aiperf-compat.md §4.5).
 */
#include "payload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/sigv4.h>

smfw_status direct_extra_inputs_check(const char *const *extra, size_t n, smfw_error *err) {
    for (size_t i = 0; i < n; i++) {
        const char *colon = strchr(extra[i], ':');
        if (!colon || colon == extra[i])
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "extra input \"%s\" is not key:value (e.g. ignore_eos:true)",
                                  extra[i]);
    }
    return SMFW_OK;
}

/* Value of an extra input: JSON when it parses (true, 256, {"a":1}), else the text. */
static json_t *extra_value(const char *text) {
    json_error_t jerr;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &jerr);
    if (v) return v;
    return json_string(text);
}

static smfw_status apply_extras(const direct_payload_cfg *cfg, json_t *body, smfw_error *err) {
    for (size_t i = 0; i < cfg->n_extra; i++) {
        const char *colon = strchr(cfg->extra[i], ':');
        if (!colon || colon == cfg->extra[i])
            return smfw_error_set(err, SMFW_ERR_CONFIG, "extra input \"%s\" is not key:value",
                                  cfg->extra[i]);
        char key[256];
        size_t kl = (size_t)(colon - cfg->extra[i]);
        if (kl >= sizeof key)
            return smfw_error_set(err, SMFW_ERR_CONFIG, "extra input key too long");
        memcpy(key, cfg->extra[i], kl);
        key[kl] = '\0';
        json_object_set_new(body, key, extra_value(colon + 1));
    }
    return SMFW_OK;
}

/* Replace every {{name}} in tpl; returns a malloc'd string. */
static char *template_substitute(const char *tpl, const char *prompt_escaped, int64_t max_tokens,
                                 const char *model_escaped, int streaming) {
    size_t cap = strlen(tpl) + 64, len = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    const char *p = tpl;
    while (*p) {
        const char *rep = NULL;
        char num[32];
        size_t skip = 0;
        if (strncmp(p, "{{prompt}}", 10) == 0) {
            rep = prompt_escaped;
            skip = 10;
        } else if (strncmp(p, "{{max_tokens}}", 14) == 0) {
            snprintf(num, sizeof num, "%lld", (long long)max_tokens);
            rep = num;
            skip = 14;
        } else if (strncmp(p, "{{model}}", 9) == 0) {
            rep = model_escaped;
            skip = 9;
        } else if (strncmp(p, "{{stream}}", 10) == 0) {
            rep = streaming ? "true" : "false";
            skip = 10;
        }
        size_t add = rep ? strlen(rep) : 1;
        if (len + add + 1 > cap) {
            while (len + add + 1 > cap) cap *= 2;
            char *q = realloc(out, cap);
            if (!q) {
                free(out);
                return NULL;
            }
            out = q;
        }
        if (rep) {
            memcpy(out + len, rep, add);
            p += skip;
        } else {
            out[len] = *p++;
        }
        len += add;
    }
    out[len] = '\0';
    return out;
}

/* JSON string escape without the surrounding quotes (malloc'd). */
static char *json_escape_inner(const char *text) {
    json_t *s = json_string(text ? text : "");
    if (!s) return NULL;
    char *d = json_dumps(s, JSON_ENCODE_ANY | JSON_COMPACT);
    json_decref(s);
    if (!d) return NULL;
    size_t n = strlen(d);
    memmove(d, d + 1, n - 2);
    d[n - 2] = '\0';
    return d;
}

static smfw_status build_template(const direct_payload_cfg *cfg, const char *prompt,
                                  int64_t max_tokens, json_t **out, smfw_error *err) {
    char *pe = json_escape_inner(prompt), *me = json_escape_inner(cfg->model ? cfg->model : "");
    char *text = (pe && me)
                     ? template_substitute(cfg->template_text, pe, max_tokens, me, cfg->streaming)
                     : NULL;
    free(pe);
    free(me);
    if (!text) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory building a payload");
    json_error_t jerr;
    json_t *body = json_loads(text, 0, &jerr);
    free(text);
    if (!body)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "the payload template is not valid JSON after substitution "
                              "(line %d, column %d: %s); put placeholders inside quotes for "
                              "strings (\"{{prompt}}\") and bare for numbers ({{max_tokens}})",
                              jerr.line, jerr.column, jerr.text);
    if (!json_is_object(body) && cfg->n_extra) {
        json_decref(body);
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "extra inputs need a payload template whose top level is an object");
    }
    *out = body;
    return SMFW_OK;
}

smfw_status direct_payload_build_json(const direct_payload_cfg *cfg, const char *prompt,
                                      const char *role, int64_t max_tokens, json_t **out,
                                      smfw_error *err) {
    json_t *body = NULL;
    int streaming = cfg->streaming && cfg->type != DIRECT_EP_EMBEDDINGS;
    switch (cfg->type) {
    case DIRECT_EP_CHAT: {
        body = json_object();
        json_t *msg = json_object();
        json_object_set_new(msg, "role", json_string(role && *role ? role : "user"));
        json_object_set_new(msg, "name", json_string("text"));
        json_object_set_new(msg, "content", json_string(prompt));
        json_t *msgs = json_array();
        json_array_append_new(msgs, msg);
        json_object_set_new(body, "messages", msgs);
        if (cfg->model) json_object_set_new(body, "model", json_string(cfg->model));
        json_object_set_new(body, "stream", json_boolean(streaming));
        if (max_tokens > 0)
            json_object_set_new(body, cfg->use_max_tokens ? "max_tokens" : "max_completion_tokens",
                                json_integer(max_tokens));
        break;
    }
    case DIRECT_EP_COMPLETIONS: {
        body = json_object();
        json_t *arr = json_array();
        json_array_append_new(arr, json_string(prompt));
        json_object_set_new(body, "prompt", arr);
        if (cfg->model) json_object_set_new(body, "model", json_string(cfg->model));
        json_object_set_new(body, "stream", json_boolean(streaming));
        if (max_tokens > 0) json_object_set_new(body, "max_tokens", json_integer(max_tokens));
        break;
    }
    case DIRECT_EP_EMBEDDINGS: {
        body = json_object();
        json_t *arr = json_array();
        json_array_append_new(arr, json_string(prompt));
        json_object_set_new(body, "input", arr);
        if (cfg->model) json_object_set_new(body, "model", json_string(cfg->model));
        break;
    }
    case DIRECT_EP_TGI: {
        body = json_object();
        json_object_set_new(body, "inputs", json_string(prompt));
        json_t *params = json_object();
        if (max_tokens > 0) json_object_set_new(params, "max_new_tokens", json_integer(max_tokens));
        json_object_set_new(params, "details", json_true());
        json_object_set_new(body, "parameters", params);
        if (streaming) json_object_set_new(body, "stream", json_true());
        break;
    }
    case DIRECT_EP_TEMPLATE: {
        smfw_status st = build_template(cfg, prompt, max_tokens, &body, err);
        if (st != SMFW_OK) return st;
        break;
    }
    }
    if (!body) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory building a payload");
    if (json_is_object(body)) {
        smfw_status st = apply_extras(cfg, body, err);
        if (st != SMFW_OK) {
            json_decref(body);
            return st;
        }
        if (streaming && cfg->include_usage &&
            (cfg->type == DIRECT_EP_CHAT || cfg->type == DIRECT_EP_COMPLETIONS) &&
            !json_object_get(body, "stream_options")) {
            json_t *so = json_object();
            json_object_set_new(so, "include_usage", json_true());
            json_object_set_new(body, "stream_options", so);
        }
        if (!streaming && json_is_true(json_object_get(body, "stream"))) {
            json_decref(body);
            return smfw_error_set(
                err, SMFW_ERR_CONFIG,
                "the request body asks for \"stream\": true but streaming is off: the buffered "
                "operation (InvokeEndpoint) would return the whole answer at once and TTFT would "
                "silently equal the request latency; drop --no-streaming or the stream field");
        }
    }
    *out = body;
    return SMFW_OK;
}

smfw_status direct_payload_fill(direct_payload *p, json_t *body, int64_t max_tokens,
                                smfw_error *err) {
    char *text = json_dumps(body, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!text) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory serialising a payload");
    free(p->body);
    p->body = text;
    p->len = strlen(text);
    smfw_sha256_hex(text, p->len, p->sha256);
    p->max_tokens = max_tokens;
    return SMFW_OK;
}

void direct_payload_clear(direct_payload *p) {
    free(p->body);
    memset(p, 0, sizeof *p);
}
