/*
 * retemplate.c - the prompt of a captured request body and the type it was made for
 * (retemplate.h).
 */
#include "retemplate.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <smfw/buf.h>

/* A chat message's content as text: a string, or the text parts of a list. */
static int content_text(json_t *content, smfw_buf *out) {
    if (json_is_string(content)) {
        smfw_buf_append(out, json_string_value(content), json_string_length(content));
        return 0;
    }
    if (!json_is_array(content)) return -1;
    size_t i;
    json_t *part;
    json_array_foreach(content, i, part) {
        json_t *t = json_object_get(part, "text");
        const char *kind = json_string_value(json_object_get(part, "type"));
        if (!json_is_string(t) || (kind && strcmp(kind, "text") != 0)) return -1;
        if (i) smfw_buf_append(out, "\n", 1);
        smfw_buf_append(out, json_string_value(t), json_string_length(t));
    }
    return 0;
}

static smfw_status chat_prompt(json_t *messages, const char *where, smfw_buf *out,
                               smfw_error *err) {
    size_t n = json_array_size(messages);
    if (n == 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "%s: its chat body has no messages", where);
    for (size_t i = 0; i < n; i++) {
        json_t *m = json_array_get(messages, i);
        const char *role = json_string_value(json_object_get(m, "role"));
        if (n > 1) {
            if (i) smfw_buf_append(out, "\n\n", 2);
            smfw_buf_printf(out, "%s: ", role ? role : "user");
        }
        if (content_text(json_object_get(m, "content"), out) != 0)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "%s: message %zu of its chat body has no text content (only "
                                  "text can be re-templated to another endpoint type)",
                                  where, i + 1);
    }
    return SMFW_OK;
}

/* A string, or a list of strings joined by newlines. */
static int strings_text(json_t *v, smfw_buf *out) {
    if (json_is_string(v)) {
        smfw_buf_append(out, json_string_value(v), json_string_length(v));
        return 0;
    }
    if (!json_is_array(v) || json_array_size(v) == 0) return -1;
    size_t i;
    json_t *s;
    json_array_foreach(v, i, s) {
        if (!json_is_string(s)) return -1;
        if (i) smfw_buf_append(out, "\n", 1);
        smfw_buf_append(out, json_string_value(s), json_string_length(s));
    }
    return 0;
}

smfw_status direct_capture_prompt(const char *body, size_t len, const char *where,
                                  direct_endpoint_type *type, char **text, smfw_error *err) {
    *text = NULL;
    json_t *o = json_loadb(body, len, 0, NULL);
    if (!json_is_object(o)) {
        json_decref(o);
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "%s: its body is not a JSON object, so it cannot be re-templated "
                              "to another endpoint type (drop --endpoint-type to send it as "
                              "captured)",
                              where);
    }
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_status st = SMFW_OK;
    json_t *v;
    if ((v = json_object_get(o, "messages")) && json_is_array(v)) {
        *type = DIRECT_EP_CHAT;
        st = chat_prompt(v, where, &b, err);
    } else if ((v = json_object_get(o, "prompt")) && strings_text(v, &b) == 0) {
        *type = DIRECT_EP_COMPLETIONS;
    } else if ((v = json_object_get(o, "inputs")) && json_is_string(v)) {
        *type = DIRECT_EP_TGI;
        smfw_buf_append(&b, json_string_value(v), json_string_length(v));
    } else if ((v = json_object_get(o, "input")) && strings_text(v, &b) == 0) {
        *type = DIRECT_EP_EMBEDDINGS;
    } else {
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "%s: its body has none of \"messages\" (chat), \"prompt\" "
                            "(completions), \"inputs\" (TGI) or \"input\" (embeddings), so its "
                            "prompt cannot be re-templated",
                            where);
    }
    json_decref(o);
    if (st == SMFW_OK) {
        *text = smfw_buf_take(&b);
        if (!*text) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    smfw_buf_free(&b);
    return st;
}
