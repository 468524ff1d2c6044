/*
 * sharegpt.c - a streaming reader of ShareGPT JSON files (the public feed).
 *
 * The usual file is a ~650 MB JSON array; parsing it whole would take
 * gigabytes. The reader scans the top-level array itself (strings, escapes,
 * nesting) to find where each conversation object ends, and hands only that
 * object to jansson, so memory stays at one conversation plus a read buffer.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_internal.h"

#define SHAREGPT_CHUNK       (1u << 20)
#define SHAREGPT_MAX_ELEMENT (256u << 20) /* one conversation larger than this is not ShareGPT */

enum { ST_START, ST_VALUE, ST_AFTER, ST_DONE, ST_FAILED };

struct smfw_sharegpt_reader {
    char *name;
    FILE *fp; /* NULL when reading from memory */
    char *buf;
    size_t len, cap;
    size_t scan;       /* next byte to look at */
    uint64_t consumed; /* bytes dropped from the front of buf (for offsets in messages) */
    int eof;
    int state;
    /* the element being scanned */
    int in_element, depth, in_string, escape;
    size_t element_start;
    int64_t seen, skipped;
};

static int is_ws(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static smfw_status fail(smfw_sharegpt_reader *r, smfw_error *err, const char *what) {
    r->state = ST_FAILED;
    return smfw_error_set(err, SMFW_ERR_CONFIG, "%s: byte %llu: %s", r->name,
                          (unsigned long long)(r->consumed + r->scan), what);
}

/* Read more bytes, dropping what is no longer needed. Returns 0, or -1 on a read error. */
static int refill(smfw_sharegpt_reader *r) {
    if (!r->fp) {
        r->eof = 1;
        return 0;
    }
    size_t keep_from = r->in_element ? r->element_start : r->scan;
    if (keep_from > 0) {
        memmove(r->buf, r->buf + keep_from, r->len - keep_from);
        r->len -= keep_from;
        r->scan -= keep_from;
        if (r->in_element) r->element_start = 0;
        r->consumed += keep_from;
    }
    if (r->cap - r->len < SHAREGPT_CHUNK) {
        size_t ncap = r->cap ? r->cap * 2 : SHAREGPT_CHUNK * 2;
        while (ncap - r->len < SHAREGPT_CHUNK) ncap *= 2;
        char *grown = realloc(r->buf, ncap);
        if (!grown) return -2;
        r->buf = grown;
        r->cap = ncap;
    }
    size_t got = fread(r->buf + r->len, 1, r->cap - r->len, r->fp);
    r->len += got;
    if (got == 0) {
        if (ferror(r->fp)) return -1;
        r->eof = 1;
    }
    return 0;
}

static int is_human(const char *from) {
    return strcmp(from, "human") == 0 || strcmp(from, "user") == 0;
}

static int is_answer(const char *from) {
    static const char *const names[] = {"gpt", "assistant", "chatgpt", "bard", "bing", "model"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(from, names[i]) == 0) return 1;
    return 0;
}

/* Turn a conversation object into a prompt; 0 if usable, -1 to skip it, -2 out of memory. */
static int conversation_prompt(const json_t *conv, smfw_prompt *out) {
    json_t *turns = json_object_get(conv, "conversations");
    if (!json_is_array(turns)) return -1;
    size_t n = json_array_size(turns), i;
    const char *prompt = NULL;
    size_t prompt_len = 0;
    for (i = 0; i < n; i++) {
        json_t *t = json_array_get(turns, i);
        const char *from = json_string_value(json_object_get(t, "from"));
        json_t *value = json_object_get(t, "value");
        if (from && is_human(from) && json_is_string(value)) {
            prompt = json_string_value(value);
            prompt_len = json_string_length(value);
            break;
        }
    }
    if (!prompt) return -1;
    int blank = 1;
    for (size_t k = 0; k < prompt_len && blank; k++) blank = is_ws(prompt[k]);
    if (blank) return -1;
    int64_t budget = 0;
    for (i = i + 1; i < n; i++) {
        json_t *t = json_array_get(turns, i);
        const char *from = json_string_value(json_object_get(t, "from"));
        json_t *value = json_object_get(t, "value");
        if (from && is_answer(from) && json_is_string(value)) {
            budget = smfw_estimate_tokens(json_string_value(value), json_string_length(value));
            break;
        }
    }
    if (budget <= 0) return -1;
    out->text = smfw_ds_strndup(prompt, prompt_len);
    if (!out->text) return -2;
    out->text_len = prompt_len;
    out->output_length = budget;
    out->input_tokens = smfw_estimate_tokens(prompt, prompt_len);
    return 0;
}

smfw_status smfw_sharegpt_reader_next(smfw_sharegpt_reader *r, smfw_prompt *out, smfw_error *err) {
    for (;;) {
        if (r->state == ST_DONE || r->state == ST_FAILED) return SMFW_DONE;
        if (r->scan >= r->len) {
            if (!r->eof) {
                int rc = refill(r);
                if (rc == -1) {
                    r->state = ST_FAILED;
                    return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", r->name,
                                          strerror(errno));
                }
                if (rc == -2) {
                    r->state = ST_FAILED;
                    return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", r->name);
                }
                continue;
            }
            if (r->state == ST_START && r->consumed + r->len == 0)
                return fail(r, err, "the file is empty");
            return fail(r, err, "unexpected end of file (the JSON array is not closed)");
        }
        char c = r->buf[r->scan];
        if (r->in_element) {
            /* Find the end of the current object, minding strings and escapes. */
            size_t i = r->scan;
            for (; i < r->len; i++) {
                char ch = r->buf[i];
                if (r->in_string) {
                    if (r->escape)
                        r->escape = 0;
                    else if (ch == '\\')
                        r->escape = 1;
                    else if (ch == '"')
                        r->in_string = 0;
                } else if (ch == '"') {
                    r->in_string = 1;
                } else if (ch == '{' || ch == '[') {
                    r->depth++;
                } else if (ch == '}' || ch == ']') {
                    if (--r->depth == 0) break;
                }
            }
            if (i >= r->len) {
                r->scan = i;
                if (r->len - r->element_start > SHAREGPT_MAX_ELEMENT)
                    return fail(r, err, "a conversation is larger than 256 MiB");
                continue;
            }
            size_t start = r->element_start, end = i + 1;
            r->scan = end;
            r->in_element = 0;
            r->state = ST_AFTER;
            json_error_t je;
            json_t *conv = json_loadb(r->buf + start, end - start, 0, &je);
            if (!conv) {
                char what[300];
                r->scan = start + (je.position > 0 ? (size_t)je.position : 0);
                snprintf(what, sizeof what, "conversation %lld is not valid JSON: %s",
                         (long long)r->seen + 1, je.text);
                return fail(r, err, what);
            }
            r->seen++;
            int rc = json_is_object(conv) ? conversation_prompt(conv, out) : -1;
            json_decref(conv);
            if (rc == -2) {
                r->state = ST_FAILED;
                return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", r->name);
            }
            if (rc == 0) return SMFW_OK;
            r->skipped++;
            continue;
        }
        if (is_ws(c)) {
            r->scan++;
            continue;
        }
        switch (r->state) {
        case ST_START:
            if (r->consumed + r->scan == 0 && (unsigned char)c == 0xEF) {
                /* UTF-8 byte order mark */
                if (r->len < 3 && !r->eof) {
                    int rc = refill(r);
                    if (rc < 0) return fail(r, err, "cannot read the file");
                    continue;
                }
                if (r->len >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0) {
                    r->scan = 3;
                    continue;
                }
            }
            if (c != '[') return fail(r, err, "expected '[' (a ShareGPT file is a JSON array)");
            r->scan++;
            r->state = ST_VALUE;
            break;
        case ST_VALUE:
            if (c == ']' && r->seen == 0 && r->skipped == 0) {
                r->scan++;
                r->state = ST_DONE;
                break;
            }
            if (c != '{') return fail(r, err, "expected a conversation object");
            r->in_element = 1;
            r->element_start = r->scan;
            r->depth = 0;
            r->in_string = 0;
            r->escape = 0;
            break;
        case ST_AFTER:
            if (c == ',')
                r->state = ST_VALUE;
            else if (c == ']')
                r->state = ST_DONE;
            else
                return fail(r, err, "expected ',' or ']' after a conversation");
            r->scan++;
            break;
        default:
            return SMFW_DONE;
        }
    }
}

static smfw_status reader_new(const char *name, smfw_sharegpt_reader **out, smfw_error *err) {
    smfw_sharegpt_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->name = strdup(name ? name : "(memory)"))) {
        free(r);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    *out = r;
    return SMFW_OK;
}

smfw_status smfw_sharegpt_reader_open(const char *path, smfw_sharegpt_reader **out,
                                      smfw_error *err) {
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp) return smfw_error_set(err, SMFW_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    smfw_status st = reader_new(path, out, err);
    if (st != SMFW_OK) {
        fclose(fp);
        return st;
    }
    (*out)->fp = fp;
    return SMFW_OK;
}

smfw_status smfw_sharegpt_reader_open_memory(const char *name, const void *data, size_t len,
                                             smfw_sharegpt_reader **out, smfw_error *err) {
    *out = NULL;
    smfw_status st = reader_new(name, out, err);
    if (st != SMFW_OK) return st;
    smfw_sharegpt_reader *r = *out;
    r->buf = malloc(len ? len : 1);
    if (!r->buf) {
        smfw_sharegpt_reader_free(r);
        *out = NULL;
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    if (len) memcpy(r->buf, data, len);
    r->len = r->cap = len;
    r->eof = 1;
    return SMFW_OK;
}

int64_t smfw_sharegpt_reader_seen(const smfw_sharegpt_reader *r) {
    return r->seen;
}

int64_t smfw_sharegpt_reader_skipped(const smfw_sharegpt_reader *r) {
    return r->skipped;
}

void smfw_sharegpt_reader_free(smfw_sharegpt_reader *r) {
    if (!r) return;
    if (r->fp) fclose(r->fp);
    free(r->buf);
    free(r->name);
    free(r);
}
