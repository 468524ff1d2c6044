/*
 * jsonl.c - the AIPerf custom-dataset JSONL reader (single_turn, multi_turn,
 * mooncake_trace) with line-by-line validation.
 *
 * Each line is parsed on its own (jansson, duplicate keys refused) and
 * checked field by field; the first problem of a line becomes an error
 * "FILE:LINE: field \"F\": ..." and the reader moves on, so a caller can list
 * every bad line of a file before anything is sent.
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_internal.h"

#define JSONL_MAX_BUDGET    10000000 /* an output budget above this is a typo, not a request */
#define JSONL_MAX_INPUT     2000000  /* mooncake input_length: far above any context window */
#define JSONL_MAX_TIME_MS   1e15     /* ~31,000 years of milliseconds */
#define JSONL_DEFAULT_BLOCK 512

struct smfw_jsonl_reader {
    char *name;
    char *data;
    size_t len, pos;
    int64_t line;
    smfw_dataset_format forced; /* from the options; AUTO = detect */
    smfw_dataset_format format; /* of the file, once known */
    char *corpus_path;
    smfw_text_corpus *corpus;
    int64_t block_tokens;
    uint64_t seed;
    int synthesised;
    char sha256[65];
    json_t *sessions; /* session id -> turns seen */
    smfw_prompt *pending;
    size_t n_pending, next_pending;
};

/* What went wrong on one line. */
typedef struct line_error {
    char field[128];
    char message[768];
    smfw_status status; /* SMFW_ERR_CONFIG, or IO/NOMEM for problems that are not the line's */
} line_error;

static int bad(line_error *e, const char *field, const char *fmt, ...) SMFW_PRINTF(3, 4);
static int bad(line_error *e, const char *field, const char *fmt, ...) {
    snprintf(e->field, sizeof e->field, "%s", field ? field : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    if (!e->status) e->status = SMFW_ERR_CONFIG;
    return -1;
}

static const char *json_kind(const json_t *v) {
    if (!v) return "nothing";
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number with a fraction";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "something else";
}

const char *smfw_dataset_format_name(smfw_dataset_format f) {
    switch (f) {
    case SMFW_DATASET_FORMAT_SINGLE_TURN:
        return "single_turn";
    case SMFW_DATASET_FORMAT_MULTI_TURN:
        return "multi_turn";
    case SMFW_DATASET_FORMAT_MOONCAKE:
        return "mooncake_trace";
    case SMFW_DATASET_FORMAT_AUTO:
        break;
    }
    return "auto";
}

int smfw_dataset_format_parse(const char *name, smfw_dataset_format *out) {
    static const smfw_dataset_format all[] = {
        SMFW_DATASET_FORMAT_AUTO, SMFW_DATASET_FORMAT_SINGLE_TURN, SMFW_DATASET_FORMAT_MULTI_TURN,
        SMFW_DATASET_FORMAT_MOONCAKE};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (name && strcmp(name, smfw_dataset_format_name(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    return -1;
}

/* ---- field checks ---------------------------------------------------------------------------- */

static int is_blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') return 0;
    return 1;
}

/* A positive integer no larger than max. */
static int get_positive_int(const json_t *v, const char *field, int64_t max, int64_t *out,
                            line_error *e) {
    if (json_is_real(v)) {
        double d = json_real_value(v);
        return bad(e, field, "must be a whole number of tokens, got %g", d);
    }
    if (!json_is_integer(v))
        return bad(e, field, "must be a positive integer, got %s", json_kind(v));
    json_int_t n = json_integer_value(v);
    if (n <= 0) return bad(e, field, "must be positive, got %lld", (long long)n);
    if (n > max)
        return bad(e, field, "is implausibly large (%lld > %lld)", (long long)n, (long long)max);
    *out = (int64_t)n;
    return 0;
}

/* Milliseconds: a non-negative number (a fraction is rounded). */
static int get_millis(const json_t *v, const char *field, int64_t *out, line_error *e) {
    double d;
    if (json_is_integer(v))
        d = (double)json_integer_value(v);
    else if (json_is_real(v))
        d = json_real_value(v);
    else
        return bad(e, field, "must be a number of milliseconds, got %s", json_kind(v));
    if (d < 0) return bad(e, field, "must not be negative, got %g", d);
    if (d > JSONL_MAX_TIME_MS) return bad(e, field, "is implausibly large (%g ms)", d);
    *out = (int64_t)llround(d);
    return 0;
}

static int get_string(const json_t *v, const char *field, const char **s, size_t *n,
                      line_error *e) {
    if (!json_is_string(v)) return bad(e, field, "must be a string, got %s", json_kind(v));
    *s = json_string_value(v);
    *n = json_string_length(v);
    if (*n == 0) return bad(e, field, "is empty");
    if (is_blank(*s, *n)) return bad(e, field, "holds only whitespace");
    return 0;
}

/* Append a piece of text to a growing buffer, "\n"-separated. */
static int text_append(char **buf, size_t *len, const char *s, size_t n) {
    char *grown = realloc(*buf, *len + n + 2);
    if (!grown) return -1;
    *buf = grown;
    if (*len) grown[(*len)++] = '\n';
    memcpy(grown + *len, s, n);
    *len += n;
    grown[*len] = '\0';
    return 0;
}

/* "texts": a non-empty list of strings or {name, contents: [strings]} objects. */
static int get_texts(const json_t *v, const char *field, char **out, size_t *out_len,
                     line_error *e) {
    char f[160];
    if (!json_is_array(v)) return bad(e, field, "must be a list, got %s", json_kind(v));
    if (json_array_size(v) == 0) return bad(e, field, "is an empty list");
    char *buf = NULL;
    size_t len = 0;
    size_t i;
    json_t *item;
    json_array_foreach(v, i, item) {
        snprintf(f, sizeof f, "%s[%zu]", field, i);
        const char *s;
        size_t n;
        if (json_is_object(item)) {
            const char *key;
            json_t *val;
            json_object_foreach(item, key, val) {
                if (strcmp(key, "name") != 0 && strcmp(key, "contents") != 0) {
                    snprintf(f, sizeof f, "%s[%zu].%s", field, i, key);
                    free(buf);
                    return bad(e, f, "unknown field (a texts entry takes name and contents)");
                }
            }
            json_t *contents = json_object_get(item, "contents");
            snprintf(f, sizeof f, "%s[%zu].contents", field, i);
            if (!contents) {
                free(buf);
                return bad(e, f, "missing");
            }
            if (!json_is_array(contents) || json_array_size(contents) == 0) {
                free(buf);
                return bad(e, f, "must be a non-empty list of strings");
            }
            size_t k;
            json_t *c;
            json_array_foreach(contents, k, c) {
                snprintf(f, sizeof f, "%s[%zu].contents[%zu]", field, i, k);
                if (get_string(c, f, &s, &n, e) != 0 || text_append(&buf, &len, s, n) != 0) {
                    free(buf);
                    return e->status ? -1 : bad(e, f, "out of memory");
                }
            }
        } else {
            if (get_string(item, f, &s, &n, e) != 0) {
                free(buf);
                return -1;
            }
            if (text_append(&buf, &len, s, n) != 0) {
                free(buf);
                e->status = SMFW_ERR_NOMEM;
                return bad(e, f, "out of memory");
            }
        }
    }
    *out = buf;
    *out_len = len;
    return 0;
}

static int is_media_key(const char *k) {
    static const char *const media[] = {"image", "images", "audio", "audios", "video", "videos"};
    for (size_t i = 0; i < sizeof media / sizeof media[0]; i++)
        if (strcmp(k, media[i]) == 0) return 1;
    return 0;
}

static void field_name(char *buf, size_t size, const char *prefix, const char *key) {
    snprintf(buf, size, "%s%s", prefix ? prefix : "", key);
}

/*
 * A single-turn object (a single_turn line, or one turn of a multi_turn
 * line): text|texts, output_length, timestamp|delay, role. `allow_type`:
 * whether a "type" key may appear (lines, not turns).
 */
static int parse_turn(const json_t *obj, const char *prefix, int allow_type, smfw_prompt *p,
                      line_error *e) {
    char f[160];
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        field_name(f, sizeof f, prefix, key);
        if (strcmp(key, "text") == 0 || strcmp(key, "texts") == 0 ||
            strcmp(key, "output_length") == 0 || strcmp(key, "timestamp") == 0 ||
            strcmp(key, "delay") == 0 || strcmp(key, "role") == 0)
            continue;
        if (allow_type && strcmp(key, "type") == 0) continue;
        if (is_media_key(key)) return bad(e, f, "media inputs are not supported; send text only");
        return bad(e, f,
                   "unknown field (a single-turn entry takes text or texts, output_length, "
                   "timestamp or delay, role)");
    }
    json_t *text = json_object_get(obj, "text");
    json_t *texts = json_object_get(obj, "texts");
    if (text && texts) {
        field_name(f, sizeof f, prefix, "texts");
        return bad(e, f, "text and texts are mutually exclusive");
    }
    if (!text && !texts) {
        field_name(f, sizeof f, prefix, "text");
        return bad(e, f, "missing (an entry needs text or texts)");
    }
    if (text) {
        const char *s;
        size_t n;
        field_name(f, sizeof f, prefix, "text");
        if (get_string(text, f, &s, &n, e) != 0) return -1;
        p->text = smfw_ds_strndup(s, n);
        if (!p->text) {
            e->status = SMFW_ERR_NOMEM;
            return bad(e, f, "out of memory");
        }
        p->text_len = n;
    } else {
        field_name(f, sizeof f, prefix, "texts");
        if (get_texts(texts, f, &p->text, &p->text_len, e) != 0) return -1;
    }
    json_t *v;
    if ((v = json_object_get(obj, "output_length"))) {
        field_name(f, sizeof f, prefix, "output_length");
        if (get_positive_int(v, f, JSONL_MAX_BUDGET, &p->output_length, e) != 0) return -1;
    }
    json_t *ts = json_object_get(obj, "timestamp");
    json_t *delay = json_object_get(obj, "delay");
    if (ts && delay) {
        field_name(f, sizeof f, prefix, "delay");
        return bad(e, f, "timestamp and delay are mutually exclusive");
    }
    if (ts) {
        field_name(f, sizeof f, prefix, "timestamp");
        if (get_millis(ts, f, &p->timestamp_ms, e) != 0) return -1;
    }
    if (delay) {
        field_name(f, sizeof f, prefix, "delay");
        if (get_millis(delay, f, &p->delay_ms, e) != 0) return -1;
    }
    if ((v = json_object_get(obj, "role"))) {
        const char *s;
        size_t n;
        field_name(f, sizeof f, prefix, "role");
        if (get_string(v, f, &s, &n, e) != 0) return -1;
        p->role = smfw_ds_strndup(s, n);
        if (!p->role) {
            e->status = SMFW_ERR_NOMEM;
            return bad(e, f, "out of memory");
        }
    }
    p->input_tokens = smfw_estimate_tokens(p->text, p->text_len);
    return 0;
}

/* ---- the reader ------------------------------------------------------------------------------ */

static void free_pending(smfw_jsonl_reader *r) {
    for (size_t i = r->next_pending; i < r->n_pending; i++) smfw_prompt_clear(&r->pending[i]);
    free(r->pending);
    r->pending = NULL;
    r->n_pending = r->next_pending = 0;
}

/* The next turn index of a session (and count this turn). */
static int32_t session_turn(smfw_jsonl_reader *r, const char *session) {
    json_t *n = json_object_get(r->sessions, session);
    int32_t turn = n ? (int32_t)json_integer_value(n) : 0;
    json_object_set_new(r->sessions, session, json_integer(turn + 1));
    return turn;
}

/* The format a line's keys say it is. */
static smfw_dataset_format line_format(const json_t *obj, const char **why, line_error *e) {
    json_t *type = json_object_get(obj, "type");
    if (type) {
        smfw_dataset_format f;
        *why = "type";
        if (!json_is_string(type)) {
            bad(e, "type", "must be a string, got %s", json_kind(type));
            return SMFW_DATASET_FORMAT_AUTO;
        }
        if (smfw_dataset_format_parse(json_string_value(type), &f) != 0 ||
            f == SMFW_DATASET_FORMAT_AUTO) {
            bad(e, "type",
                "unsupported dataset type \"%s\" (smfw reads single_turn, multi_turn, "
                "mooncake_trace)",
                json_string_value(type));
            return SMFW_DATASET_FORMAT_AUTO;
        }
        return f;
    }
    if (json_object_get(obj, "turns")) {
        *why = "turns";
        return SMFW_DATASET_FORMAT_MULTI_TURN;
    }
    static const char *const mooncake_keys[] = {"input_length", "text_input", "hash_ids"};
    for (size_t i = 0; i < 3; i++)
        if (json_object_get(obj, mooncake_keys[i])) {
            *why = mooncake_keys[i];
            return SMFW_DATASET_FORMAT_MOONCAKE;
        }
    *why = NULL;
    return SMFW_DATASET_FORMAT_SINGLE_TURN;
}

static int parse_multi_turn(smfw_jsonl_reader *r, const json_t *obj, line_error *e) {
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        if (strcmp(key, "session_id") && strcmp(key, "turns") && strcmp(key, "type"))
            return bad(e, key, "unknown field (a multi_turn line takes session_id and turns)");
    }
    char session[96];
    json_t *sid = json_object_get(obj, "session_id");
    if (sid) {
        const char *s;
        size_t n;
        if (get_string(sid, "session_id", &s, &n, e) != 0) return -1;
        if (strlen(s) != n) return bad(e, "session_id", "contains a NUL character");
        if (n >= 256) return bad(e, "session_id", "is longer than 255 bytes");
    }
    json_t *turns = json_object_get(obj, "turns");
    if (!turns) return bad(e, "turns", "missing (a multi_turn line needs a list of turns)");
    if (!json_is_array(turns))
        return bad(e, "turns", "must be a list of turn objects, got %s", json_kind(turns));
    if (json_array_size(turns) == 0) return bad(e, "turns", "is an empty list");
    size_t count = json_array_size(turns);
    smfw_prompt *ps = calloc(count, sizeof *ps);
    if (!ps) {
        e->status = SMFW_ERR_NOMEM;
        return bad(e, "turns", "out of memory");
    }
    const char *sid_text = sid ? json_string_value(sid) : NULL;
    if (!sid_text) {
        snprintf(session, sizeof session, "line-%lld", (long long)r->line);
        sid_text = session;
    }
    for (size_t i = 0; i < count; i++) {
        smfw_ds_prompt_init(&ps[i]);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "turns[%zu].", i);
        json_t *t = json_array_get(turns, i);
        if (!json_is_object(t)) {
            snprintf(prefix, sizeof prefix, "turns[%zu]", i);
            bad(e, prefix, "must be an object, got %s", json_kind(t));
        } else if (parse_turn(t, prefix, 0, &ps[i], e) == 0) {
            ps[i].session_id = strdup(sid_text);
            if (!ps[i].session_id) {
                e->status = SMFW_ERR_NOMEM;
                bad(e, "session_id", "out of memory");
            }
        }
        if (e->status) {
            for (size_t k = 0; k <= i; k++) smfw_prompt_clear(&ps[k]);
            free(ps);
            return -1;
        }
    }
    /* Turn numbers continue across lines of the same session (AIPerf merges them). */
    for (size_t i = 0; i < count; i++) ps[i].turn_index = session_turn(r, sid_text);
    r->pending = ps;
    r->n_pending = count;
    r->next_pending = 0;
    return 0;
}

static int ensure_corpus(smfw_jsonl_reader *r, line_error *e) {
    if (r->corpus) return 0;
    if (!r->corpus_path)
        return bad(e, "input_length",
                   "needs a corpus to synthesise the prompt text, and none is configured "
                   "(give text_input instead)");
    smfw_error err;
    smfw_error_clear(&err);
    if (smfw_text_corpus_load(r->corpus_path, &r->corpus, &err) != SMFW_OK) {
        e->status = err.status;
        return bad(e, "input_length", "cannot load the corpus: %s", err.message);
    }
    return 0;
}

/* Text of `tokens` tokens, in blocks of block_tokens keyed by hash ids (equal ids, equal text). */
static int synthesise(smfw_jsonl_reader *r, const json_t *hash_ids, int64_t tokens, smfw_prompt *p,
                      line_error *e) {
    if (ensure_corpus(r, e) != 0) return -1;
    char *buf = NULL;
    size_t len = 0;
    if (hash_ids) {
        size_t n = json_array_size(hash_ids);
        for (size_t i = 0; i < n; i++) {
            int64_t want =
                i + 1 < n ? r->block_tokens : tokens - (int64_t)(n - 1) * r->block_tokens;
            uint64_t h = (uint64_t)json_integer_value(json_array_get(hash_ids, i)) ^ 0x5EEDB10CULL;
            size_t piece_len = 0;
            char *piece =
                smfw_text_corpus_take(r->corpus, smfw_dataset_rand_next(&h), want, &piece_len);
            char *grown = piece ? realloc(buf, len + piece_len + 2) : NULL;
            if (!grown) {
                free(piece);
                free(buf);
                e->status = SMFW_ERR_NOMEM;
                return bad(e, "hash_ids", "out of memory");
            }
            buf = grown;
            if (len) buf[len++] = ' ';
            memcpy(buf + len, piece, piece_len + 1);
            len += piece_len;
            free(piece);
        }
    } else {
        uint64_t s = r->seed ^ ((uint64_t)r->line * 0x9E3779B97F4A7C15ULL);
        buf = smfw_text_corpus_take(r->corpus, smfw_dataset_rand_next(&s), tokens, &len);
        if (!buf) {
            e->status = SMFW_ERR_NOMEM;
            return bad(e, "input_length", "out of memory");
        }
    }
    p->text = buf;
    p->text_len = len;
    p->input_tokens = smfw_estimate_tokens(buf, len);
    r->synthesised = 1;
    return 0;
}

static int parse_mooncake(smfw_jsonl_reader *r, const json_t *obj, smfw_prompt *p, line_error *e) {
    static const char *const keys[] = {"input_length", "text_input", "output_length", "hash_ids",
                                       "timestamp",    "delay",      "session_id",    "type"};
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        size_t i;
        for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (strcmp(key, keys[i]) == 0) break;
        if (i == sizeof keys / sizeof keys[0])
            return bad(e, key,
                       "unknown field (a mooncake_trace line takes input_length or text_input, "
                       "output_length, hash_ids, timestamp or delay, session_id)");
    }
    json_t *input_length = json_object_get(obj, "input_length");
    json_t *text_input = json_object_get(obj, "text_input");
    json_t *hash_ids = json_object_get(obj, "hash_ids");
    if (input_length && text_input)
        return bad(e, "text_input", "input_length and text_input are mutually exclusive");
    if (!input_length && !text_input)
        return bad(e, "input_length",
                   "missing (a mooncake_trace line needs input_length or "
                   "text_input)");
    if (hash_ids && !input_length) return bad(e, "hash_ids", "needs input_length");
    int64_t tokens = 0;
    if (input_length &&
        get_positive_int(input_length, "input_length", JSONL_MAX_INPUT, &tokens, e) != 0)
        return -1;
    if (hash_ids) {
        if (!json_is_array(hash_ids) || json_array_size(hash_ids) == 0)
            return bad(e, "hash_ids", "must be a non-empty list of integers");
        size_t i;
        json_t *h;
        json_array_foreach(hash_ids, i, h) {
            if (!json_is_integer(h) || json_integer_value(h) < 0) {
                char f[64];
                snprintf(f, sizeof f, "hash_ids[%zu]", i);
                return bad(e, f, "must be a non-negative integer, got %s", json_kind(h));
            }
        }
        int64_t n = (int64_t)json_array_size(hash_ids);
        if (tokens <= (n - 1) * r->block_tokens || tokens > n * r->block_tokens)
            return bad(e, "hash_ids",
                       "%lld ids of %lld-token blocks cannot hold input_length %lld (it must be "
                       "in %lld..%lld)",
                       (long long)n, (long long)r->block_tokens, (long long)tokens,
                       (long long)((n - 1) * r->block_tokens + 1),
                       (long long)(n * r->block_tokens));
    }
    json_t *v;
    if ((v = json_object_get(obj, "output_length")) &&
        get_positive_int(v, "output_length", JSONL_MAX_BUDGET, &p->output_length, e) != 0)
        return -1;
    json_t *ts = json_object_get(obj, "timestamp");
    json_t *delay = json_object_get(obj, "delay");
    if (ts && delay) return bad(e, "delay", "timestamp and delay are mutually exclusive");
    if (ts && get_millis(ts, "timestamp", &p->timestamp_ms, e) != 0) return -1;
    if (delay && get_millis(delay, "delay", &p->delay_ms, e) != 0) return -1;
    const char *sid = NULL;
    if ((v = json_object_get(obj, "session_id"))) {
        size_t n;
        if (get_string(v, "session_id", &sid, &n, e) != 0) return -1;
        if (strlen(sid) != n) return bad(e, "session_id", "contains a NUL character");
    }
    if (text_input) {
        const char *s;
        size_t n;
        if (get_string(text_input, "text_input", &s, &n, e) != 0) return -1;
        p->text = smfw_ds_strndup(s, n);
        if (!p->text) {
            e->status = SMFW_ERR_NOMEM;
            return bad(e, "text_input", "out of memory");
        }
        p->text_len = n;
        p->input_tokens = smfw_estimate_tokens(s, n);
    } else if (synthesise(r, hash_ids, tokens, p, e) != 0) {
        return -1;
    }
    if (sid) {
        p->session_id = strdup(sid);
        if (!p->session_id) {
            e->status = SMFW_ERR_NOMEM;
            return bad(e, "session_id", "out of memory");
        }
        p->turn_index = session_turn(r, sid);
    }
    return 0;
}

/* Parse one non-blank line into r->pending. */
static int parse_line(smfw_jsonl_reader *r, const char *s, size_t n, line_error *e) {
    json_error_t je;
    json_t *obj = json_loadb(s, n, JSON_REJECT_DUPLICATES, &je);
    if (!obj) {
        snprintf(e->field, sizeof e->field, "%s", "");
        snprintf(e->message, sizeof e->message, "invalid JSON at column %d: %s", je.column,
                 je.text);
        e->status = SMFW_ERR_CONFIG;
        return -1;
    }
    int rc = -1;
    if (!json_is_object(obj)) {
        snprintf(e->field, sizeof e->field, "%s", "");
        snprintf(e->message, sizeof e->message, "a line must be a JSON object, not %s",
                 json_kind(obj));
        e->status = SMFW_ERR_CONFIG;
        goto done;
    }
    const char *why = NULL;
    smfw_dataset_format f = r->forced;
    if (f == SMFW_DATASET_FORMAT_AUTO || json_object_get(obj, "type")) {
        smfw_dataset_format detected = line_format(obj, &why, e);
        if (detected == SMFW_DATASET_FORMAT_AUTO) goto done;
        if (r->forced != SMFW_DATASET_FORMAT_AUTO && detected != r->forced) {
            bad(e, "type", "says %s but the dataset format is %s",
                smfw_dataset_format_name(detected), smfw_dataset_format_name(r->forced));
            goto done;
        }
        f = detected;
    }
    if (r->format != SMFW_DATASET_FORMAT_AUTO && f != r->format) {
        bad(e, why ? why : "text", "this line is %s but the file's earlier lines are %s",
            smfw_dataset_format_name(f), smfw_dataset_format_name(r->format));
        goto done;
    }
    if (f == SMFW_DATASET_FORMAT_MULTI_TURN) {
        rc = parse_multi_turn(r, obj, e);
    } else {
        smfw_prompt *p = calloc(1, sizeof *p);
        if (!p) {
            e->status = SMFW_ERR_NOMEM;
            bad(e, "", "out of memory");
            goto done;
        }
        smfw_ds_prompt_init(p);
        rc = f == SMFW_DATASET_FORMAT_MOONCAKE ? parse_mooncake(r, obj, p, e)
                                               : parse_turn(obj, "", 1, p, e);
        if (rc != 0) {
            smfw_prompt_clear(p);
            free(p);
        } else {
            r->pending = p;
            r->n_pending = 1;
            r->next_pending = 0;
        }
    }
    if (rc == 0) r->format = f;
done:
    json_decref(obj);
    return rc;
}

static smfw_status reader_new(const char *name, char *data, size_t len, const smfw_jsonl_options *o,
                              smfw_jsonl_reader **out, smfw_error *err) {
    smfw_jsonl_reader *r = calloc(1, sizeof *r);
    if (!r) {
        free(data);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    r->name = strdup(name ? name : "(memory)");
    r->data = data;
    r->len = len;
    r->sessions = json_object();
    if (o) {
        r->forced = o->format;
        r->block_tokens = o->block_tokens;
        r->seed = o->seed;
        if (o->corpus_path) r->corpus_path = strdup(o->corpus_path);
    }
    if (r->block_tokens <= 0) r->block_tokens = JSONL_DEFAULT_BLOCK;
    if (!r->name || !r->sessions || (o && o->corpus_path && !r->corpus_path)) {
        smfw_jsonl_reader_free(r);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    smfw_ds_sha256_hex(data, len, r->sha256);
    *out = r;
    return SMFW_OK;
}

smfw_status smfw_jsonl_reader_open(const char *path, const smfw_jsonl_options *o,
                                   smfw_jsonl_reader **out, smfw_error *err) {
    *out = NULL;
    char *data;
    size_t len;
    smfw_status st = smfw_ds_read_file(path, &data, &len, err);
    if (st != SMFW_OK) return st;
    return reader_new(path, data, len, o, out, err);
}

smfw_status smfw_jsonl_reader_open_memory(const char *name, const void *bytes, size_t len,
                                          const smfw_jsonl_options *o, smfw_jsonl_reader **out,
                                          smfw_error *err) {
    *out = NULL;
    char *data = malloc(len + 1);
    if (!data) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (len) memcpy(data, bytes, len);
    data[len] = '\0';
    return reader_new(name, data, len, o, out, err);
}

smfw_status smfw_jsonl_reader_next(smfw_jsonl_reader *r, smfw_prompt *out, smfw_error *err) {
    for (;;) {
        if (r->next_pending < r->n_pending) {
            *out = r->pending[r->next_pending];
            memset(&r->pending[r->next_pending], 0, sizeof *out);
            if (++r->next_pending == r->n_pending) free_pending(r);
            return SMFW_OK;
        }
        if (r->pos >= r->len) return SMFW_DONE;
        const char *s = r->data + r->pos;
        const char *nl = memchr(s, '\n', r->len - r->pos);
        size_t n = nl ? (size_t)(nl - s) : r->len - r->pos;
        r->pos += n + (nl ? 1 : 0);
        r->line++;
        if (r->line == 1 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
            s += 3; /* a UTF-8 byte order mark */
            n -= 3;
        }
        if (n && s[n - 1] == '\r') n--;
        if (is_blank(s, n)) continue;
        line_error e;
        memset(&e, 0, sizeof e);
        if (parse_line(r, s, n, &e) != 0) {
            if (e.field[0])
                return smfw_error_set(err, e.status, "%s:%lld: field \"%s\": %s", r->name,
                                      (long long)r->line, e.field, e.message);
            return smfw_error_set(err, e.status, "%s:%lld: %s", r->name, (long long)r->line,
                                  e.message);
        }
    }
}

smfw_dataset_format smfw_jsonl_reader_format(const smfw_jsonl_reader *r) {
    return r->format;
}

const char *smfw_jsonl_reader_sha256(const smfw_jsonl_reader *r) {
    return r->sha256;
}

int64_t smfw_jsonl_reader_lines(const smfw_jsonl_reader *r) {
    return r->line;
}

int smfw_jsonl_reader_synthesised(const smfw_jsonl_reader *r) {
    return r->synthesised;
}

void smfw_jsonl_reader_free(smfw_jsonl_reader *r) {
    if (!r) return;
    free_pending(r);
    json_decref(r->sessions);
    smfw_text_corpus_free(r->corpus);
    free(r->corpus_path);
    free(r->data);
    free(r->name);
    free(r);
}
