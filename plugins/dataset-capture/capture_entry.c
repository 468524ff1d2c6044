/*
 * capture_entry.c - decode a Data Capture line (capture_entry.h): the request
 * body as it was sent, when it was sent, and what the captured answer says
 * about its length.
 */
#include "capture_entry.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <smfw/clock.h>
#include <smfw/dataset.h>

void capture_entry_clear(capture_entry *e) {
    free(e->body);
    memset(e, 0, sizeof *e);
}

int capture_parse_time(const char *s, int64_t *ms, int *whole) {
    int64_t ns;
    if (smfw_time_parse_rfc3339(s, SMFW_TIME_ZONE_OPTIONAL, &ns) != 0) return -1;
    *ms = ns / 1000000;
    *whole = strchr(s, '.') == NULL;
    return 0;
}

static int b64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

/* Standard or URL-safe base64, padding optional, no whitespace. NULL when malformed. */
static char *b64_decode(const char *in, size_t n, size_t *out_len) {
    while (n && in[n - 1] == '=') n--;
    if (n % 4 == 1) return NULL;
    char *out = malloc(n / 4 * 3 + 3 + 1);
    if (!out) return NULL;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64_value((unsigned char)in[i]);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (char)((acc >> bits) & 0xFF);
        }
    }
    out[o] = '\0';
    *out_len = o;
    return out;
}

typedef enum { TYPE_JSON, TYPE_CSV, TYPE_UNKNOWN } body_type;

/* The body kinds smfw can send: JSON (application/json, *+json, JSON lines) and CSV. */
static body_type type_of(const char *ct) {
    size_t n = strcspn(ct, ";");
    while (n && ct[n - 1] == ' ') n--;
    if ((n == 16 && !strncasecmp(ct, "application/json", 16)) ||
        (n > 5 && !strncasecmp(ct + n - 5, "+json", 5)) ||
        (n == 22 && !strncasecmp(ct, "application/jsonlines", 21)) ||
        (n == 24 && !strncasecmp(ct, "application/x-jsonlines", 23)))
        return TYPE_JSON;
    if (n == 8 && !strncasecmp(ct, "text/csv", 8)) return TYPE_CSV;
    return TYPE_UNKNOWN;
}

/* The bytes of endpointInput / endpointOutput: data decoded by its encoding. */
static char *part_bytes(json_t *part, const char *name, size_t *len, body_type *type, char *why,
                        size_t why_size) {
    const char *ct = json_string_value(json_object_get(part, "observedContentType"));
    const char *enc = json_string_value(json_object_get(part, "encoding"));
    json_t *data = json_object_get(part, "data");
    if (!ct || !enc || !data) {
        snprintf(why, why_size, "%s needs observedContentType, data and encoding", name);
        return NULL;
    }
    *type = type_of(ct);
    char *out = NULL;
    if (!strcmp(enc, "BASE64")) {
        const char *s = json_string_value(data);
        if (!s || !(out = b64_decode(s, strlen(s), len))) {
            snprintf(why, why_size, "%s.data is not base64 although encoding is BASE64", name);
            return NULL;
        }
    } else if (!strcmp(enc, "JSON") || !strcmp(enc, "CSV")) {
        if (json_is_string(data)) {
            *len = json_string_length(data);
            out = malloc(*len + 1);
            if (out) memcpy(out, json_string_value(data), *len + 1);
        } else {
            /* Some writers embed the JSON document itself: sent in compact form. */
            out = json_dumps(data, JSON_COMPACT | JSON_ENCODE_ANY);
            *len = out ? strlen(out) : 0;
        }
    } else {
        snprintf(why, why_size, "%s.encoding \"%s\" is none of JSON, CSV, BASE64", name, enc);
        return NULL;
    }
    if (!out) {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    if (memchr(out, '\0', *len)) {
        snprintf(why, why_size, "%s.data holds a NUL byte: not a text body smfw can send", name);
        free(out);
        return NULL;
    }
    if (*type == TYPE_JSON) {
        json_error_t je;
        json_t *v = json_loadb(out, *len, JSON_DECODE_ANY, &je);
        if (!v) {
            snprintf(why, why_size,
                     "%s.data is not complete JSON although observedContentType is \"%s\" (a "
                     "truncated capture?): %s",
                     name, ct, je.text);
            free(out);
            return NULL;
        }
        json_decref(v);
    } else if (*type == TYPE_UNKNOWN && !strcmp(name, "endpointInput")) {
        snprintf(why, why_size,
                 "endpointInput.observedContentType \"%s\" is not a body smfw can replay "
                 "(application/json, *+json, JSON lines or text/csv)",
                 ct);
        free(out);
        return NULL;
    }
    return out;
}

static int64_t int_at(json_t *o, const char *k) {
    json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
}

/* The output budget a body asks for (OpenAI max_tokens / max_completion_tokens, TGI
 * parameters.max_new_tokens), 0 if none. */
static int64_t body_budget(json_t *b) {
    int64_t v = int_at(b, "max_completion_tokens");
    if (!v) v = int_at(b, "max_tokens");
    if (!v) v = int_at(b, "max_new_tokens");
    if (!v) v = int_at(json_object_get(b, "parameters"), "max_new_tokens");
    return v > 0 ? v : 0;
}

/* Prompt text of a body (chat messages' contents, prompt, inputs) for the length estimate. */
static int64_t body_input_tokens(json_t *b, const char *raw, size_t raw_len) {
    int64_t t = 0;
    int found = 0;
    json_t *msgs = json_object_get(b, "messages");
    size_t i;
    json_t *m;
    json_array_foreach(msgs, i, m) {
        const char *c = json_string_value(json_object_get(m, "content"));
        if (c) t += smfw_estimate_tokens(c, strlen(c)), found = 1;
    }
    const char *keys[] = {"prompt", "inputs"};
    for (size_t k = 0; k < 2; k++) {
        const char *c = json_string_value(json_object_get(b, keys[k]));
        if (c) t += smfw_estimate_tokens(c, strlen(c)), found = 1;
    }
    return found ? t : smfw_estimate_tokens(raw, raw_len);
}

/* Tokens of a captured answer: the usage the server reported, else an estimate of its text. */
static int64_t output_tokens(json_t *o) {
    if (json_is_array(o)) o = json_array_get(o, 0); /* TGI: [{"generated_text": ...}] */
    json_t *usage = json_object_get(o, "usage");
    int64_t n = int_at(usage, "completion_tokens");
    if (!n) n = int_at(usage, "output_tokens");
    if (!n) n = int_at(json_object_get(o, "details"), "generated_tokens");
    if (n > 0) return n;
    json_t *c0 = json_array_get(json_object_get(o, "choices"), 0);
    const char *text =
        json_string_value(json_object_get(json_object_get(c0, "message"), "content"));
    if (!text) text = json_string_value(json_object_get(c0, "text"));
    if (!text) text = json_string_value(json_object_get(o, "generated_text"));
    return text ? smfw_estimate_tokens(text, strlen(text)) : -1;
}

int capture_entry_parse(const char *line, size_t len, int truncated_line, capture_entry *out,
                        char *why, size_t why_size) {
    memset(out, 0, sizeof *out);
    out->output_len = -1;
    json_error_t je;
    json_t *root = json_loadb(line, len, 0, &je);
    if (!root) {
        if (truncated_line)
            snprintf(why, why_size, "truncated line: the file ends inside it (%s)", je.text);
        else
            snprintf(why, why_size, "not a JSON object: %s (column %d)", je.text, je.column);
        return -1;
    }
    int rc = -1;
    json_t *cd = json_object_get(root, "captureData");
    json_t *in = json_object_get(cd, "endpointInput");
    json_t *meta = json_object_get(root, "eventMetadata");
    const char *when = json_string_value(json_object_get(meta, "inferenceTime"));
    if (!json_is_object(cd)) {
        snprintf(why, why_size, "no captureData object: not a Data Capture line");
    } else if (!json_is_object(in)) {
        snprintf(why, why_size,
                 "no captureData.endpointInput: the request was not captured "
                 "(CaptureOptions without Input?)");
    } else if (!when) {
        snprintf(why, why_size, "no eventMetadata.inferenceTime");
    } else if (capture_parse_time(when, &out->time_ms, &out->whole_second) != 0) {
        snprintf(why, why_size, "eventMetadata.inferenceTime \"%s\" is not ISO-8601", when);
    } else {
        body_type type;
        out->body = part_bytes(in, "endpointInput", &out->body_len, &type, why, why_size);
        if (out->body) {
            json_t *b = type == TYPE_JSON ? json_loadb(out->body, out->body_len, 0, NULL) : NULL;
            out->body_budget = b ? body_budget(b) : 0;
            out->input_tokens = b ? body_input_tokens(b, out->body, out->body_len)
                                  : smfw_estimate_tokens(out->body, out->body_len);
            json_decref(b);
            rc = 0;
            json_t *op = json_object_get(cd, "endpointOutput");
            if (json_is_object(op)) {
                size_t olen;
                body_type otype;
                char *ob = part_bytes(op, "endpointOutput", &olen, &otype, why, why_size);
                if (!ob) {
                    rc = -1;
                } else {
                    json_t *o =
                        otype == TYPE_JSON ? json_loadb(ob, olen, JSON_DECODE_ANY, NULL) : NULL;
                    out->output_len = o ? output_tokens(o) : -1;
                    json_decref(o);
                    free(ob);
                }
            }
        }
    }
    json_decref(root);
    if (rc != 0) capture_entry_clear(out);
    return rc;
}
