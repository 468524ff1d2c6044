/*
 * json_view.c - validate JSON in one pass without recursion or allocation,
 * finding a set of paths on the way, then read the validated text in place
 * (see smfw/json_view.h).
 *
 * The validator keeps its nesting on a bit stack (object or array per
 * level), so the depth limit costs 64 bytes and deep input cannot exhaust
 * the C stack. Path matching only does work while a path's prefix matches:
 * most of a document is validated with an empty mask and no key compares.
 */
#include <smfw/json_view.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes that continue a string without a closer look: printable ASCII but '"' and '\'. */
/* clang-format off */
static const unsigned char jv_plain[256] = {
#define R16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
    R16(0), R16(0),                                 /* 0x00-0x1F: control characters */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x20-0x2F: '"' */
    R16(1), R16(1),                                 /* 0x30-0x4F */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 0x50-0x5F: '\' */
    R16(1), R16(1),                                 /* 0x60-0x7F (DEL needs no escape) */
    R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), /* 0x80-0xFF: UTF-8 */
#undef R16
};
/* clang-format on */

static int jv_is_ws(unsigned char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static const unsigned char *jv_ws(const unsigned char *p, const unsigned char *end) {
    while (p < end && jv_is_ws(*p)) p++;
    return p;
}

static int jv_hex(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Four hex digits at p (bounds checked by the caller) into *out: 1, or 0 when not hex. */
static int jv_hex4(const unsigned char *p, unsigned *out) {
    int a = jv_hex(p[0]), b = jv_hex(p[1]), c = jv_hex(p[2]), d = jv_hex(p[3]);
    if ((a | b | c | d) < 0) return 0;
    *out = (unsigned)((a << 12) | (b << 8) | (c << 4) | d);
    return 1;
}

/* Length of one well-formed UTF-8 sequence at p (RFC 3629, table 3-7), 0 when ill-formed. */
static int jv_utf8_len(const unsigned char *p, const unsigned char *end) {
    unsigned c = p[0];
    unsigned lo = 0x80, hi = 0xBF;
    int n;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0; /* overlong */
        if (c == 0xED) hi = 0x9F; /* UTF-16 surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90; /* overlong */
        if (c == 0xF4) hi = 0x8F; /* above U+10FFFF */
    } else {
        return 0;
    }
    if (end - p < n || p[1] < lo || p[1] > hi) return 0;
    for (int i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF) return 0;
    return n;
}

/* ---- the validator ------------------------------------------------------------------------ */

/* Levels that can hold a path prefix: the root container is level 1. */
#define JV_LEVELS (SMFW_JSON_PATH_MAX_SEGMENTS + 2)

typedef struct jv_parser {
    const unsigned char *p, *end, *start;
    const char *err;
    size_t err_at;
    uint64_t object_bits[SMFW_JSON_MAX_DEPTH / 64]; /* per level: 1 object, 0 array */
    /* path matching, per container level below JV_LEVELS */
    const smfw_json_paths *set;
    smfw_json_view *found;
    uint32_t have;              /* paths found (and not replaced by a later duplicate) */
    uint32_t exact[JV_LEVELS];  /* paths with exactly d segments */
    uint32_t cmask[JV_LEVELS];  /* paths whose prefix leads to the container at this level */
    uint32_t cfound[JV_LEVELS]; /* paths that end at the container itself */
    const unsigned char *cstart[JV_LEVELS];
    size_t cindex[JV_LEVELS]; /* an array's current element */
} jv_parser;

static int jv_fail(jv_parser *ps, const char *msg) {
    ps->err = msg;
    ps->err_at = (size_t)(ps->p - ps->start);
    return -1;
}

/* A string at ps->p ('"'); *escaped says whether its text holds a backslash. */
static int jv_string(jv_parser *ps, int *escaped) {
    const unsigned char *p = ps->p + 1, *end = ps->end;
    for (;;) {
        while (p < end && jv_plain[*p]) p++;
        if (p >= end) {
            ps->p = p;
            return jv_fail(ps, "unterminated string");
        }
        unsigned char c = *p;
        if (c == '"') {
            ps->p = p + 1;
            return 0;
        }
        if (c == '\\') {
            *escaped = 1;
            if (end - p < 2) {
                ps->p = p;
                return jv_fail(ps, "unterminated string");
            }
            unsigned char e = p[1];
            if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
                e == 't') {
                p += 2;
                continue;
            }
            unsigned cp;
            ps->p = p;
            if (e != 'u') return jv_fail(ps, "invalid escape in a string");
            if (end - p < 6 || !jv_hex4(p + 2, &cp)) return jv_fail(ps, "invalid \\u escape");
            if (cp >= 0xDC00 && cp <= 0xDFFF) return jv_fail(ps, "unpaired surrogate in a string");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned low;
                if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || !jv_hex4(p + 8, &low) ||
                    low < 0xDC00 || low > 0xDFFF)
                    return jv_fail(ps, "unpaired surrogate in a string");
                p += 6;
            }
            p += 6;
            continue;
        }
        if (c < 0x20) {
            ps->p = p;
            return jv_fail(ps, "control character in a string");
        }
        int l = jv_utf8_len(p, end);
        if (!l) {
            ps->p = p;
            return jv_fail(ps, "invalid UTF-8 in a string");
        }
        p += l;
    }
}

static int jv_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}

/* RFC 8259 number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int jv_number(jv_parser *ps) {
    const unsigned char *p = ps->p, *end = ps->end;
    if (p < end && *p == '-') p++;
    if (p < end && *p == '0') {
        p++;
    } else if (p < end && *p >= '1' && *p <= '9') {
        while (p < end && jv_digit(*p)) p++;
    } else {
        ps->p = p;
        return jv_fail(ps, "invalid number");
    }
    if (p < end && *p == '.') {
        p++;
        if (p >= end || !jv_digit(*p)) {
            ps->p = p;
            return jv_fail(ps, "invalid number");
        }
        while (p < end && jv_digit(*p)) p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (p >= end || !jv_digit(*p)) {
            ps->p = p;
            return jv_fail(ps, "invalid number");
        }
        while (p < end && jv_digit(*p)) p++;
    }
    ps->p = p;
    return 0;
}

static int jv_literal(jv_parser *ps, const char *word, size_t n) {
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return jv_fail(ps, "invalid literal");
    ps->p += n;
    return 0;
}

/* The decoded text of a validated string span (with quotes) equals seg[0..len). */
static int jv_equals_decoded(const char *s, size_t n, const char *seg, size_t len);

/* Paths below the container at `level` whose next segment names member (k, klen). */
static uint32_t jv_child_key(const jv_parser *ps, int level, const unsigned char *k, size_t klen,
                             int escaped) {
    uint32_t m = ps->cmask[level] & ~ps->exact[level - 1], out = 0;
    size_t d = (size_t)level - 1;
    while (m) {
        int i = __builtin_ctz(m);
        m &= m - 1;
        const struct smfw_json_path_compiled *pc = &ps->set->path[i];
        if (escaped ? jv_equals_decoded((const char *)k, klen, pc->seg[d], pc->seg_len[d])
                    : (klen - 2 == pc->seg_len[d] && memcmp(k + 1, pc->seg[d], klen - 2) == 0))
            out |= 1u << i;
    }
    return out;
}

/* Paths below the array at `level` whose next segment is its current element's index. */
static uint32_t jv_child_index(const jv_parser *ps, int level) {
    uint32_t m = ps->cmask[level] & ~ps->exact[level - 1], out = 0;
    size_t d = (size_t)level - 1;
    while (m) {
        int i = __builtin_ctz(m);
        m &= m - 1;
        if (ps->set->path[i].index[d] == ps->cindex[level]) out |= 1u << i;
    }
    return out;
}

static void jv_record(jv_parser *ps, uint32_t f, smfw_json_type t, const unsigned char *at,
                      size_t len) {
    ps->have |= f;
    while (f) {
        int i = __builtin_ctz(f);
        f &= f - 1;
        ps->found[i].type = t;
        ps->found[i].p = (const char *)at;
        ps->found[i].len = len;
    }
}

static int jv_is_object(const jv_parser *ps, int level) {
    return (int)((ps->object_bits[(level - 1) / 64] >> ((level - 1) % 64)) & 1);
}

/* Validate one text; the root's span into *root. The loop keeps nesting on the bit stack. */
static int jv_run(jv_parser *ps, smfw_json_view *root) {
    const unsigned char *end = ps->end;
    uint32_t m = ps->set ? (ps->set->count >= 32 ? UINT32_MAX : (1u << ps->set->count) - 1) : 0;
    int depth = 0;
    ps->p = jv_ws(ps->p, end);
    const unsigned char *root_start = ps->p;

value:
    ps->p = jv_ws(ps->p, end);
    if (ps->p >= end) return jv_fail(ps, "unexpected end of text");
    {
        const unsigned char *start = ps->p;
        uint32_t f = 0;
        if (m) {
            ps->have &= ~m; /* a later duplicate replaces what an earlier one held */
            f = m & ps->exact[depth];
        }
        unsigned char c = *start;
        smfw_json_type t;
        switch (c) {
        case '{':
        case '[':
            if (depth >= SMFW_JSON_MAX_DEPTH) return jv_fail(ps, "nested too deeply");
            depth++;
            if (c == '{')
                ps->object_bits[(depth - 1) / 64] |= 1ull << ((depth - 1) % 64);
            else
                ps->object_bits[(depth - 1) / 64] &= ~(1ull << ((depth - 1) % 64));
            if (depth < JV_LEVELS) {
                ps->cmask[depth] = m;
                ps->cfound[depth] = f;
                ps->cstart[depth] = start;
                ps->cindex[depth] = 0;
            }
            ps->p = jv_ws(start + 1, end);
            if (ps->p < end && *ps->p == (c == '{' ? '}' : ']')) {
                ps->p++;
                goto close;
            }
            if (c == '{') goto member;
            m = depth < JV_LEVELS && ps->cmask[depth] ? jv_child_index(ps, depth) : 0;
            goto value;
        case '"': {
            int escaped = 0;
            if (jv_string(ps, &escaped) < 0) return -1;
            t = SMFW_JSON_STRING;
            break;
        }
        case 't':
            if (jv_literal(ps, "true", 4) < 0) return -1;
            t = SMFW_JSON_TRUE;
            break;
        case 'f':
            if (jv_literal(ps, "false", 5) < 0) return -1;
            t = SMFW_JSON_FALSE;
            break;
        case 'n':
            if (jv_literal(ps, "null", 4) < 0) return -1;
            t = SMFW_JSON_NULL;
            break;
        default:
            if (c != '-' && !jv_digit(c)) return jv_fail(ps, "unexpected character");
            if (jv_number(ps) < 0) return -1;
            t = SMFW_JSON_NUMBER;
            break;
        }
        if (f) jv_record(ps, f, t, start, (size_t)(ps->p - start));
    }

after:
    if (depth == 0) {
        root->type = SMFW_JSON_NONE;
        switch (*root_start) {
        case '{':
            root->type = SMFW_JSON_OBJECT;
            break;
        case '[':
            root->type = SMFW_JSON_ARRAY;
            break;
        case '"':
            root->type = SMFW_JSON_STRING;
            break;
        case 't':
            root->type = SMFW_JSON_TRUE;
            break;
        case 'f':
            root->type = SMFW_JSON_FALSE;
            break;
        case 'n':
            root->type = SMFW_JSON_NULL;
            break;
        default:
            root->type = SMFW_JSON_NUMBER;
            break;
        }
        root->p = (const char *)root_start;
        root->len = (size_t)(ps->p - root_start);
        ps->p = jv_ws(ps->p, end);
        if (ps->p != end) return jv_fail(ps, "end of text expected");
        return 0;
    }
    ps->p = jv_ws(ps->p, end);
    {
        int object = jv_is_object(ps, depth);
        if (ps->p < end && *ps->p == ',') {
            ps->p++;
            if (object) goto member;
            m = 0;
            if (depth < JV_LEVELS && ps->cmask[depth]) {
                ps->cindex[depth]++;
                m = jv_child_index(ps, depth);
            }
            goto value;
        }
        if (ps->p < end && *ps->p == (object ? '}' : ']')) {
            ps->p++;
            goto close;
        }
        return jv_fail(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }

member:
    ps->p = jv_ws(ps->p, end);
    if (ps->p >= end || *ps->p != '"') return jv_fail(ps, "expected a member name");
    {
        const unsigned char *k = ps->p;
        int escaped = 0;
        if (jv_string(ps, &escaped) < 0) return -1;
        size_t klen = (size_t)(ps->p - k);
        ps->p = jv_ws(ps->p, end);
        if (ps->p >= end || *ps->p != ':') return jv_fail(ps, "expected ':'");
        ps->p++;
        m = depth < JV_LEVELS && ps->cmask[depth] ? jv_child_key(ps, depth, k, klen, escaped) : 0;
    }
    goto value;

close:
    if (depth < JV_LEVELS && ps->cfound[depth])
        jv_record(ps, ps->cfound[depth],
                  jv_is_object(ps, depth) ? SMFW_JSON_OBJECT : SMFW_JSON_ARRAY, ps->cstart[depth],
                  (size_t)(ps->p - ps->cstart[depth]));
    depth--;
    goto after;
}

int smfw_json_find(const char *s, size_t n, const smfw_json_paths *set, smfw_json_view *root,
                   smfw_json_view *found, smfw_json_error *err) {
    jv_parser ps;
    ps.start = ps.p = (const unsigned char *)(s ? s : "");
    ps.end = ps.p + (s ? n : 0);
    ps.err = NULL;
    ps.err_at = 0;
    ps.set = set && set->count ? set : NULL;
    ps.found = found;
    ps.have = 0;
    if (ps.set) {
        memset(ps.exact, 0, sizeof ps.exact);
        for (size_t i = 0; i < set->count; i++) ps.exact[set->path[i].segments] |= 1u << i;
    }
    int rc = jv_run(&ps, root);
    if (ps.set) {
        if (rc != 0) ps.have = 0;
        for (size_t i = 0; i < set->count; i++)
            if (!(ps.have & (1u << i))) found[i] = (smfw_json_view){SMFW_JSON_NONE, NULL, 0};
    }
    if (rc != 0) {
        *root = (smfw_json_view){SMFW_JSON_NONE, NULL, 0};
        if (err) {
            err->message = ps.err;
            err->offset = ps.err_at;
        }
    }
    return rc;
}

int smfw_json_parse(const char *s, size_t n, smfw_json_view *root, smfw_json_error *err) {
    return smfw_json_find(s, n, NULL, root, NULL, err);
}

int smfw_json_paths_init(smfw_json_paths *set, const char *const *paths, size_t count) {
    set->count = 0;
    set->deepest = 0;
    if (count > SMFW_JSON_PATHS_MAX) return -1;
    for (size_t i = 0; i < count; i++) {
        struct smfw_json_path_compiled *pc = &set->path[i];
        const char *s = paths[i];
        pc->segments = 0;
        if (!s) return -1;
        while (*s) {
            const char *dot = strchr(s, '.');
            size_t len = dot ? (size_t)(dot - s) : strlen(s);
            if (len == 0 || pc->segments == SMFW_JSON_PATH_MAX_SEGMENTS) return -1;
            size_t d = pc->segments++, index = 0;
            pc->seg[d] = s;
            pc->seg_len[d] = len;
            for (size_t k = 0; k < len && index != SIZE_MAX; k++) {
                unsigned v = (unsigned char)s[k] - '0';
                index = v > 9 || index > (SIZE_MAX - 1 - v) / 10 ? SIZE_MAX : index * 10 + v;
            }
            pc->index[d] = index;
            if (!dot) break;
            s = dot + 1;
            if (!*s) return -1; /* a trailing dot: an empty last segment */
        }
        if (pc->segments > set->deepest) set->deepest = pc->segments;
    }
    set->count = count;
    return 0;
}

/* ---- reading validated views ---------------------------------------------------------------- */

/*
 * Skips over validated text: they trust the grammar but not the bounds, so a
 * view made by hand is read wrongly, never past its end.
 */
static const char *jv_skip_string(const char *p, const char *end) {
    for (p++; p < end; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return end;
}

static const char *jv_skip_value(const char *p, const char *end) {
    if (p >= end) return end;
    if (*p == '"') return jv_skip_string(p, end);
    if (*p == '{' || *p == '[') {
        size_t depth = 0;
        while (p < end) {
            char c = *p;
            if (c == '"') {
                p = jv_skip_string(p, end);
                continue;
            }
            p++;
            if (c == '{' || c == '[')
                depth++;
            else if ((c == '}' || c == ']') && --depth == 0)
                return p;
        }
        return end;
    }
    while (p < end && *p != ',' && *p != ']' && *p != '}' && !jv_is_ws((unsigned char)*p)) p++;
    return p;
}

static smfw_json_type jv_type_at(char c) {
    switch (c) {
    case '{':
        return SMFW_JSON_OBJECT;
    case '[':
        return SMFW_JSON_ARRAY;
    case '"':
        return SMFW_JSON_STRING;
    case 't':
        return SMFW_JSON_TRUE;
    case 'f':
        return SMFW_JSON_FALSE;
    case 'n':
        return SMFW_JSON_NULL;
    default:
        return SMFW_JSON_NUMBER;
    }
}

static const char *jv_ws_c(const char *p, const char *end) {
    while (p < end && jv_is_ws((unsigned char)*p)) p++;
    return p;
}

void smfw_json_iter_init(smfw_json_iter *it, const smfw_json_view *c) {
    int container = c && (c->type == SMFW_JSON_OBJECT || c->type == SMFW_JSON_ARRAY) && c->len >= 2;
    it->p = container ? c->p + 1 : NULL;
    it->end = container ? c->p + c->len - 1 : NULL;
    it->object = container && c->type == SMFW_JSON_OBJECT;
}

int smfw_json_next(smfw_json_iter *it, smfw_json_view *key, smfw_json_view *value) {
    const char *p = it->p, *end = it->end;
    if (!p) return 0;
    p = jv_ws_c(p, end);
    if (p < end && *p == ',') p = jv_ws_c(p + 1, end);
    if (p >= end) {
        it->p = end;
        return 0;
    }
    if (it->object) {
        const char *k = p;
        p = jv_skip_string(p, end);
        if (key) *key = (smfw_json_view){SMFW_JSON_STRING, k, (size_t)(p - k)};
        p = jv_ws_c(p, end);
        if (p < end && *p == ':') p++;
        p = jv_ws_c(p, end);
    } else if (key) {
        *key = (smfw_json_view){SMFW_JSON_NONE, NULL, 0};
    }
    if (p >= end) {
        it->p = end;
        return 0;
    }
    const char *v = p;
    p = jv_skip_value(p, end);
    *value = (smfw_json_view){jv_type_at(*v), v, (size_t)(p - v)};
    it->p = p;
    return 1;
}

/* Member named seg[0..len) of an object, the last duplicate winning. */
static int jv_get_n(const smfw_json_view *obj, const char *seg, size_t len, smfw_json_view *out) {
    if (!obj || obj->type != SMFW_JSON_OBJECT) return 0;
    smfw_json_iter it;
    smfw_json_view k, v;
    int hit = 0;
    smfw_json_iter_init(&it, obj);
    while (smfw_json_next(&it, &k, &v))
        if (smfw_json_string_equals_n(&k, seg, len)) {
            *out = v;
            hit = 1;
        }
    return hit;
}

int smfw_json_get(const smfw_json_view *obj, const char *key, smfw_json_view *out) {
    return key && jv_get_n(obj, key, strlen(key), out);
}

int smfw_json_index(const smfw_json_view *arr, size_t index, smfw_json_view *out) {
    if (!arr || arr->type != SMFW_JSON_ARRAY) return 0;
    smfw_json_iter it;
    smfw_json_view v;
    smfw_json_iter_init(&it, arr);
    for (size_t k = 0; smfw_json_next(&it, NULL, &v); k++)
        if (k == index) {
            *out = v;
            return 1;
        }
    return 0;
}

size_t smfw_json_count(const smfw_json_view *v) {
    smfw_json_iter it;
    smfw_json_view e;
    size_t n = 0;
    smfw_json_iter_init(&it, v);
    while (smfw_json_next(&it, NULL, &e)) n++;
    return n;
}

int smfw_json_path(const smfw_json_view *v, const char *path, smfw_json_view *out) {
    if (!v || !path) return 0;
    smfw_json_view cur = *v;
    const char *seg = path;
    while (*seg) {
        const char *dot = strchr(seg, '.');
        size_t len = dot ? (size_t)(dot - seg) : strlen(seg);
        if (len == 0) return 0;
        size_t index = 0;
        int numeric = 1;
        for (size_t k = 0; k < len; k++) {
            unsigned d = (unsigned char)seg[k] - '0';
            if (d > 9) {
                numeric = 0;
                break;
            }
            index = index > (SIZE_MAX - 1 - d) / 10 ? SIZE_MAX : index * 10 + d;
        }
        smfw_json_view next;
        if (cur.type == SMFW_JSON_ARRAY && numeric) {
            if (!smfw_json_index(&cur, index, &next)) return 0;
        } else if (!jv_get_n(&cur, seg, len, &next)) {
            return 0;
        }
        cur = next;
        if (!dot) break;
        seg = dot + 1;
        if (!*seg) return 0;
    }
    *out = cur;
    return 1;
}

/* ---- strings ----------------------------------------------------------------------------------
 */

static int jv_put_utf8(unsigned cp, char out[4]) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/*
 * Decode the escape at *pp ('\'), inside [*pp, end): its bytes into out,
 * their count returned, *pp moved past it. In a hand-made view a bad escape
 * decodes as U+FFFD.
 */
static int jv_unescape(const char **pp, const char *end, char out[4]) {
    const char *p = *pp;
    if (end - p < 2) {
        *pp = end;
        return jv_put_utf8(0xFFFD, out);
    }
    char e = p[1];
    *pp = p + 2;
    switch (e) {
    case 'b':
        out[0] = '\b';
        return 1;
    case 'f':
        out[0] = '\f';
        return 1;
    case 'n':
        out[0] = '\n';
        return 1;
    case 'r':
        out[0] = '\r';
        return 1;
    case 't':
        out[0] = '\t';
        return 1;
    case 'u':
        break;
    default: /* " \ / */
        out[0] = e;
        return 1;
    }
    unsigned cp, low;
    if (end - p < 6 || !jv_hex4((const unsigned char *)p + 2, &cp)) return jv_put_utf8(0xFFFD, out);
    *pp = p + 6;
    if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 12 && p[6] == '\\' && p[7] == 'u' &&
        jv_hex4((const unsigned char *)p + 8, &low) && low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        *pp = p + 12;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
        cp = 0xFFFD;
    }
    return jv_put_utf8(cp, out);
}

static int jv_equals_decoded(const char *s, size_t n, const char *seg, size_t len) {
    const char *p = s + 1, *end = s + n - 1;
    size_t at = 0;
    while (p < end) {
        if (*p != '\\') {
            if (at >= len || seg[at] != *p) return 0;
            at++;
            p++;
            continue;
        }
        char u[4];
        int l = jv_unescape(&p, end, u);
        if (len - at < (size_t)l || memcmp(seg + at, u, (size_t)l) != 0) return 0;
        at += (size_t)l;
    }
    return at == len;
}

static int jv_is_string(const smfw_json_view *v) {
    return v && v->type == SMFW_JSON_STRING && v->len >= 2;
}

size_t smfw_json_string_decode(const smfw_json_view *v, char *out, size_t cap) {
    if (!jv_is_string(v)) {
        if (cap) out[0] = '\0';
        return 0;
    }
    const char *p = v->p + 1, *end = v->p + v->len - 1;
    size_t pos = 0;
    while (p < end) {
        const char *bs = memchr(p, '\\', (size_t)(end - p));
        size_t run = (size_t)((bs ? bs : end) - p);
        if (pos < cap) {
            size_t room = cap - 1 - pos;
            memcpy(out + pos, p, run < room ? run : room);
        }
        pos += run;
        p += run;
        if (!bs) break;
        char u[4];
        int l = jv_unescape(&p, end, u);
        for (int k = 0; k < l; k++, pos++)
            if (pos + 1 < cap) out[pos] = u[k];
    }
    if (cap) out[pos < cap ? pos : cap - 1] = '\0';
    return pos;
}

size_t smfw_json_string_length(const smfw_json_view *v) {
    if (!jv_is_string(v)) return 0;
    const char *p = v->p + 1, *end = v->p + v->len - 1;
    if (!memchr(p, '\\', (size_t)(end - p))) return (size_t)(end - p);
    size_t n = 0;
    while (p < end) {
        if (*p != '\\') {
            n++;
            p++;
            continue;
        }
        char u[4];
        n += (size_t)jv_unescape(&p, end, u);
    }
    return n;
}

int smfw_json_string_nonempty(const smfw_json_view *v) {
    return jv_is_string(v) && v->len > 2;
}

int smfw_json_string_equals_n(const smfw_json_view *v, const char *text, size_t len) {
    if (!jv_is_string(v)) return 0;
    if (memchr(v->p + 1, '\\', v->len - 2)) return jv_equals_decoded(v->p, v->len, text, len);
    return v->len - 2 == len && memcmp(v->p + 1, text, len) == 0;
}

int smfw_json_string_equals(const smfw_json_view *v, const char *text) {
    return text && smfw_json_string_equals_n(v, text, strlen(text));
}

/* ---- numbers, booleans, null ---------------------------------------------------------------- */

/*
 * A number's decimal parts: its significant digits (leading zeros dropped),
 * and the power of ten of the last digit kept. Exponents saturate far
 * outside any double's range, so "1e99999999999" stays huge.
 */
typedef struct jv_decimal {
    int negative;
    const char *int_digits, *frac_digits; /* spans of the text */
    size_t n_int, n_frac;
    long exp10; /* of the written exponent, saturated */
} jv_decimal;

static int jv_decimal_of(const smfw_json_view *v, jv_decimal *d) {
    if (!v || v->type != SMFW_JSON_NUMBER || v->len == 0) return -1;
    const char *p = v->p, *end = v->p + v->len;
    memset(d, 0, sizeof *d);
    if (*p == '-') {
        d->negative = 1;
        p++;
    }
    d->int_digits = p;
    while (p < end && jv_digit((unsigned char)*p)) p++;
    d->n_int = (size_t)(p - d->int_digits);
    if (d->n_int == 0) return -1;
    if (p < end && *p == '.') {
        d->frac_digits = ++p;
        while (p < end && jv_digit((unsigned char)*p)) p++;
        d->n_frac = (size_t)(p - d->frac_digits);
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int neg = 0;
        if (p < end && (*p == '+' || *p == '-')) neg = *p++ == '-';
        long e = 0;
        while (p < end && jv_digit((unsigned char)*p)) {
            if (e < 100000000L) e = e * 10 + (*p - '0');
            p++;
        }
        d->exp10 = neg ? -e : e;
    }
    return p == end ? 0 : -1;
}

/* The i-th digit of integer then fraction digits. */
static int jv_decimal_digit(const jv_decimal *d, size_t i) {
    return i < d->n_int ? d->int_digits[i] - '0' : d->frac_digits[i - d->n_int] - '0';
}

int smfw_json_int64(const smfw_json_view *v, int64_t *out) {
    jv_decimal d;
    if (jv_decimal_of(v, &d) != 0) return SMFW_JSON_NUM_NOT;
    /* value = digits[first..last] * 10^scale, trailing zeros folded into the scale */
    size_t n = d.n_int + d.n_frac, first = 0, last = n;
    while (first < n && jv_decimal_digit(&d, first) == 0) first++;
    if (first == n) {
        *out = 0;
        return SMFW_JSON_NUM_OK;
    }
    while (jv_decimal_digit(&d, last - 1) == 0) last--;
    long scale = d.exp10 - (long)d.n_frac + (long)(n - last);
    if (scale < 0) return SMFW_JSON_NUM_NOT;
    uint64_t limit = d.negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, x = 0;
    int over = (long)(last - first) + scale > 19;
    for (size_t i = first; i < last && !over; i++) {
        unsigned dig = (unsigned)jv_decimal_digit(&d, i);
        if (x > (limit - dig) / 10)
            over = 1;
        else
            x = x * 10 + dig;
    }
    for (long s = 0; s < scale && !over; s++) {
        if (x > limit / 10)
            over = 1;
        else
            x *= 10;
    }
    if (over) {
        *out = d.negative ? INT64_MIN : INT64_MAX;
        return SMFW_JSON_NUM_OVERFLOW;
    }
    *out = d.negative ? (x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x) : (int64_t)x;
    return SMFW_JSON_NUM_OK;
}

int smfw_json_double(const smfw_json_view *v, double *out) {
    jv_decimal d;
    if (jv_decimal_of(v, &d) != 0) return SMFW_JSON_NUM_NOT;
    /*
     * Rewrite as "[-]DIGITSeEXP" without a decimal point (strtod's point
     * follows the locale): at most 800 significant digits, and a final 1
     * standing for any nonzero digit dropped, which keeps the rounding of
     * the full number (767 digits decide any double).
     */
    char buf[840];
    size_t n = d.n_int + d.n_frac, first = 0, at = 0, kept = 0;
    if (d.negative) buf[at++] = '-';
    while (first < n && jv_decimal_digit(&d, first) == 0) first++;
    if (first == n) {
        *out = d.negative ? -0.0 : 0.0;
        return SMFW_JSON_NUM_OK;
    }
    int dropped = 0;
    for (size_t i = first; i < n; i++) {
        int dig = jv_decimal_digit(&d, i);
        if (kept < 800) {
            buf[at++] = (char)('0' + dig);
            kept++;
        } else if (dig) {
            dropped = 1;
        }
    }
    if (dropped) {
        buf[at++] = '1';
        kept++;
    }
    /* value = kept digits * 10^(exp10 + digits before the point - first - kept) */
    long e = d.exp10 + (long)d.n_int - (long)first - (long)kept;
    snprintf(buf + at, sizeof buf - at, "e%ld", e);
    errno = 0;
    double x = strtod(buf, NULL);
    *out = x;
    if (errno == ERANGE && (x == HUGE_VAL || x == -HUGE_VAL)) return SMFW_JSON_NUM_OVERFLOW;
    return SMFW_JSON_NUM_OK;
}

int smfw_json_is_integer_literal(const smfw_json_view *v) {
    return v && v->type == SMFW_JSON_NUMBER && v->len && !memchr(v->p, '.', v->len) &&
           !memchr(v->p, 'e', v->len) && !memchr(v->p, 'E', v->len);
}

int smfw_json_bool(const smfw_json_view *v, int *out) {
    if (!v || (v->type != SMFW_JSON_TRUE && v->type != SMFW_JSON_FALSE)) return -1;
    *out = v->type == SMFW_JSON_TRUE;
    return 0;
}

int smfw_json_is_null(const smfw_json_view *v) {
    return v && v->type == SMFW_JSON_NULL;
}
