/* tok_load_hf.c - read a Hugging Face tokenizer.json (untrusted: caps on size,
 * vocabulary, merges and patterns) into the engine's normalizers,
 * pre-tokenizers, BPE model, added tokens and post-processor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tok_internal.h"

typedef struct load_ctx {
    smfw_tokenizer *t;
    const char *where;
    smfw_error *err;
} load_ctx;

static smfw_status nomem(smfw_error *err) {
    return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

static const char *jstr(json_t *o, const char *k) {
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int jbool(json_t *o, const char *k, int dflt) {
    json_t *v = json_object_get(o, k);
    return json_is_boolean(v) ? json_is_true(v) : dflt;
}

static smfw_status bad(load_ctx *c, const char *fmt, const char *arg) {
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg ? arg : "");
    return smfw_error_set(c->err, SMFW_ERR_CONFIG, "%s: %s", c->where, msg);
}

static smfw_status unsupported(load_ctx *c, const char *what, const char *type) {
    return smfw_error_set(c->err, SMFW_ERR_UNSUPPORTED,
                          "%s: the %s type \"%s\" is not supported by smfw's tokenizer (it handles "
                          "BPE models; see docs/tokenizers.md)",
                          c->where, what, type ? type : "(none)");
}

/* A {"Regex": ...} or {"String": ...} pattern. */
static smfw_status pattern(load_ctx *c, json_t *pat, tok_regex *re, const char *what) {
    json_t *r = json_object_get(pat, "Regex"), *s = json_object_get(pat, "String");
    char where[600];
    snprintf(where, sizeof where, "%s (%s)", c->where, what);
    if (json_is_string(r))
        return tok_regex_compile(re, json_string_value(r), json_string_length(r), 0, where, c->err);
    if (json_is_string(s))
        return tok_regex_compile(re, json_string_value(s), json_string_length(s), 1, where, c->err);
    return bad(c, "%s has no Regex or String pattern", what);
}

static smfw_status add_norm(load_ctx *c, json_t *n, int depth) {
    smfw_tokenizer *t = c->t;
    if (json_is_null(n) || !n) return SMFW_OK;
    const char *type = jstr(n, "type");
    if (!type) return bad(c, "a normalizer has no type%s", NULL);
    if (depth > 8) return bad(c, "normalizers nest too deep%s", NULL);
    if (strcmp(type, "Sequence") == 0) {
        json_t *list = json_object_get(n, "normalizers"), *x;
        size_t i;
        json_array_foreach(list, i, x) {
            smfw_status st = add_norm(c, x, depth + 1);
            if (st != SMFW_OK) return st;
        }
        return SMFW_OK;
    }
    if (t->n_norms >= TOK_MAX_PIPELINE) return bad(c, "too many normalizers%s", NULL);
    tok_norm *s = &t->norms[t->n_norms];
    memset(s, 0, sizeof *s);
    if (strcmp(type, "NFC") == 0)
        s->kind = TOK_NORM_NFC;
    else if (strcmp(type, "NFD") == 0)
        s->kind = TOK_NORM_NFD;
    else if (strcmp(type, "NFKC") == 0)
        s->kind = TOK_NORM_NFKC;
    else if (strcmp(type, "NFKD") == 0)
        s->kind = TOK_NORM_NFKD;
    else if (strcmp(type, "Lowercase") == 0)
        s->kind = TOK_NORM_LOWERCASE;
    else if (strcmp(type, "Strip") == 0) {
        s->kind = TOK_NORM_STRIP;
        s->left = jbool(n, "strip_left", 1);
        s->right = jbool(n, "strip_right", 1);
    } else if (strcmp(type, "Prepend") == 0 || strcmp(type, "Replace") == 0) {
        int rep = type[0] == 'R';
        json_t *v = json_object_get(n, rep ? "content" : "prepend");
        if (!json_is_string(v)) return bad(c, "a %s normalizer has no text", type);
        s->kind = rep ? TOK_NORM_REPLACE : TOK_NORM_PREPEND;
        s->str_len = json_string_length(v);
        s->str = malloc(s->str_len + 1);
        if (!s->str) return nomem(c->err);
        memcpy(s->str, json_string_value(v), s->str_len + 1);
        t->n_norms++;
        if (rep) return pattern(c, json_object_get(n, "pattern"), &s->re, "Replace normalizer");
        return SMFW_OK;
    } else {
        return unsupported(c, "normalizer", type);
    }
    t->n_norms++;
    return SMFW_OK;
}

static tok_pre *new_pre(load_ctx *c) {
    if (c->t->n_pres >= TOK_MAX_PIPELINE) return NULL;
    tok_pre *p = &c->t->pres[c->t->n_pres++];
    memset(p, 0, sizeof *p);
    return p;
}

/* GPT-2's split, used by ByteLevel when use_regex is true. */
static const char GPT2_PATTERN[] =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

static smfw_status add_pre(load_ctx *c, json_t *n, int depth, int *byte_level) {
    if (json_is_null(n) || !n) return SMFW_OK;
    const char *type = jstr(n, "type");
    if (!type) return bad(c, "a pre-tokenizer has no type%s", NULL);
    if (depth > 8) return bad(c, "pre-tokenizers nest too deep%s", NULL);
    if (strcmp(type, "Sequence") == 0) {
        json_t *list = json_object_get(n, "pretokenizers"), *x;
        size_t i;
        json_array_foreach(list, i, x) {
            smfw_status st = add_pre(c, x, depth + 1, byte_level);
            if (st != SMFW_OK) return st;
        }
        return SMFW_OK;
    }
    tok_pre *p = new_pre(c);
    if (!p) return bad(c, "too many pre-tokenizers%s", NULL);
    if (strcmp(type, "Split") == 0) {
        const char *b = jstr(n, "behavior");
        p->kind = TOK_PRE_SPLIT;
        if (!b) return bad(c, "a Split pre-tokenizer has no behavior%s", NULL);
        if (strcmp(b, "Removed") == 0)
            p->behavior = TOK_SPLIT_REMOVED;
        else if (strcmp(b, "Isolated") == 0)
            p->behavior = TOK_SPLIT_ISOLATED;
        else if (strcmp(b, "MergedWithPrevious") == 0)
            p->behavior = TOK_SPLIT_MERGED_PREV;
        else if (strcmp(b, "MergedWithNext") == 0)
            p->behavior = TOK_SPLIT_MERGED_NEXT;
        else if (strcmp(b, "Contiguous") == 0)
            p->behavior = TOK_SPLIT_CONTIGUOUS;
        else
            return bad(c, "unknown Split behavior \"%s\"", b);
        p->invert = jbool(n, "invert", 0);
        p->has_re = 1;
        return pattern(c, json_object_get(n, "pattern"), &p->re, "Split pre-tokenizer");
    }
    if (strcmp(type, "Digits") == 0) {
        p->kind = TOK_PRE_SPLIT;
        p->behavior = TOK_SPLIT_ISOLATED;
        p->has_re = 1;
        const char *re = jbool(n, "individual_digits", 0) ? "\\p{N}" : "\\p{N}+";
        return tok_regex_compile(&p->re, re, strlen(re), 0, c->where, c->err);
    }
    if (strcmp(type, "ByteLevel") == 0) {
        *byte_level = 1;
        p->kind = TOK_PRE_BYTELEVEL;
        p->add_prefix_space = jbool(n, "add_prefix_space", 1);
        if (jbool(n, "use_regex", 1)) {
            p->has_re = 1;
            p->behavior = TOK_SPLIT_ISOLATED;
            return tok_regex_compile(&p->re, GPT2_PATTERN, strlen(GPT2_PATTERN), 0, c->where,
                                     c->err);
        }
        return SMFW_OK;
    }
    if (strcmp(type, "Metaspace") == 0) {
        p->kind = TOK_PRE_METASPACE;
        const char *r = jstr(n, "replacement");
        if (!r) r = "\xE2\x96\x81";
        p->repl_len = strlen(r);
        if (!p->repl_len || p->repl_len > 4) return bad(c, "a bad Metaspace replacement%s", NULL);
        memcpy(p->repl, r, p->repl_len);
        const char *sch = jstr(n, "prepend_scheme");
        if (sch) {
            if (strcmp(sch, "always") == 0)
                p->prepend = TOK_PREPEND_ALWAYS;
            else if (strcmp(sch, "first") == 0)
                p->prepend = TOK_PREPEND_FIRST;
            else if (strcmp(sch, "never") == 0)
                p->prepend = TOK_PREPEND_NEVER;
            else
                return bad(c, "unknown Metaspace prepend_scheme \"%s\"", sch);
        } else {
            p->prepend = jbool(n, "add_prefix_space", 1) ? TOK_PREPEND_ALWAYS : TOK_PREPEND_NEVER;
        }
        p->split = jbool(n, "split", 1);
        return SMFW_OK;
    }
    c->t->n_pres--;
    return unsupported(c, "pre-tokenizer", type);
}

/* GPT-2's byte <-> character table: printable Latin-1 bytes stand for
 * themselves, the 68 others are U+0100.. in byte order. */
static void byte_level_table(int16_t cp2byte[324]) {
    for (int i = 0; i < 324; i++) cp2byte[i] = -1;
    int n = 0;
    for (int b = 0; b < 256; b++) {
        int printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174);
        if (printable)
            cp2byte[b] = (int16_t)b;
        else
            cp2byte[256 + n++] = (int16_t)b;
    }
}

static smfw_status load_vocab(load_ctx *c, json_t *model, tok_strmap *orig) {
    json_t *vocab = json_object_get(model, "vocab");
    if (!json_is_object(vocab)) return bad(c, "the model has no vocab object%s", NULL);
    size_t n = json_object_size(vocab);
    if (n > TOK_MAX_VOCAB) return bad(c, "the vocabulary is larger than smfw's cap%s", NULL);
    if (tok_strmap_init(orig, n)) return nomem(c->err);
    const char *key;
    json_t *v;
    void *iter = json_object_iter(vocab);
    (void)key;
    while (iter) {
        key = json_object_iter_key(iter);
        size_t klen = json_object_iter_key_len(iter);
        v = json_object_iter_value(iter);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) >= (json_int_t)UINT32_MAX)
            return bad(c, "the vocab entry \"%.200s\" has no valid id", key);
        if (klen > TOK_MAX_TOKEN_BYTES) return bad(c, "a vocab entry is too long%s", NULL);
        if (tok_strmap_put(orig, key, klen, (uint32_t)json_integer_value(v))) return nomem(c->err);
        iter = json_object_iter_next(vocab, iter);
    }
    return SMFW_OK;
}

static smfw_status load_merges(load_ctx *c, json_t *model, const tok_strmap *orig) {
    json_t *merges = json_object_get(model, "merges"), *m;
    size_t n = json_array_size(merges), i;
    if (n > TOK_MAX_MERGES) return bad(c, "the merges list is longer than smfw's cap%s", NULL);
    if (tok_pairmap_init(&c->t->bpe.merges, n)) return nomem(c->err);
    tok_bytes cat = {0};
    smfw_status st = SMFW_OK;
    json_array_foreach(merges, i, m) {
        const char *a, *b;
        size_t al, bl;
        if (json_is_string(m)) {
            a = json_string_value(m);
            const char *sp = strchr(a, ' ');
            if (!sp || strchr(sp + 1, ' ')) {
                st = bad(c, "the merge \"%.200s\" is not two tokens", a);
                break;
            }
            al = (size_t)(sp - a);
            b = sp + 1;
            bl = strlen(b);
        } else if (json_array_size(m) == 2 && json_is_string(json_array_get(m, 0)) &&
                   json_is_string(json_array_get(m, 1))) {
            a = json_string_value(json_array_get(m, 0));
            al = json_string_length(json_array_get(m, 0));
            b = json_string_value(json_array_get(m, 1));
            bl = json_string_length(json_array_get(m, 1));
        } else {
            st = bad(c, "a merge is neither \"a b\" nor [a, b]%s", NULL);
            break;
        }
        uint32_t ia, ib, inew;
        cat.len = 0;
        if (tok_bytes_append(&cat, a, al) || tok_bytes_append(&cat, b, bl)) {
            st = nomem(c->err);
            break;
        }
        if (!tok_strmap_get(orig, a, al, &ia) || !tok_strmap_get(orig, b, bl, &ib) ||
            !tok_strmap_get(orig, cat.p, cat.len, &inew)) {
            /* HF refuses such a file too (MergeTokenOutOfVocabulary) */
            st = bad(c, "the merge of \"%.200s\" names a token missing from the vocab", cat.p);
            break;
        }
        if (tok_pairmap_put(&c->t->bpe.merges, ia, ib, (uint32_t)i, inew)) {
            st = nomem(c->err);
            break;
        }
    }
    tok_bytes_free(&cat);
    return st;
}

/* Byte-level models work on raw bytes: decode each vocab string through the
 * GPT-2 table (strings with other characters cannot be produced; dropped). */
static smfw_status decode_byte_level(load_ctx *c, tok_strmap *orig) {
    int16_t cp2byte[324];
    byte_level_table(cp2byte);
    tok_strmap *v = &c->t->bpe.vocab;
    if (tok_strmap_init(v, orig->n)) return nomem(c->err);
    char buf[TOK_MAX_TOKEN_BYTES];
    for (size_t i = 0; i < orig->n; i++) {
        const char *s = orig->arena + orig->ents[i].off;
        size_t len = orig->ents[i].len, k = 0, ok = 1;
        for (size_t j = 0; j < len;) {
            size_t adv;
            uint32_t cp = tok_utf8_decode(s + j, len - j, &adv);
            if (cp >= 324 || cp2byte[cp] < 0) {
                ok = 0;
                break;
            }
            buf[k++] = (char)cp2byte[cp];
            j += adv;
        }
        if (ok && tok_strmap_put(v, buf, k, orig->ents[i].id)) return nomem(c->err);
    }
    return SMFW_OK;
}

static smfw_status load_added(load_ctx *c, json_t *root) {
    smfw_tokenizer *t = c->t;
    json_t *list = json_object_get(root, "added_tokens"), *a;
    size_t n = json_array_size(list), i;
    if (n > TOK_MAX_ADDED) return bad(c, "added_tokens is longer than smfw's cap%s", NULL);
    t->added = calloc(n ? n : 1, sizeof *t->added);
    if (!t->added) return nomem(c->err);
    json_array_foreach(list, i, a) {
        json_t *content = json_object_get(a, "content"), *id = json_object_get(a, "id");
        if (!json_is_string(content) || !json_is_integer(id) || json_integer_value(id) < 0 ||
            json_integer_value(id) >= (json_int_t)UINT32_MAX)
            return bad(c, "an added token has no content or id%s", NULL);
        tok_added *x = &t->added[t->n_added++];
        x->len = json_string_length(content);
        if (x->len > TOK_MAX_TOKEN_BYTES) return bad(c, "an added token is too long%s", NULL);
        x->content = malloc(x->len + 1);
        if (!x->content) return nomem(c->err);
        memcpy(x->content, json_string_value(content), x->len + 1);
        x->id = (uint32_t)json_integer_value(id);
        x->single_word = (unsigned)jbool(a, "single_word", 0);
        x->lstrip = (unsigned)jbool(a, "lstrip", 0);
        x->rstrip = (unsigned)jbool(a, "rstrip", 0);
        x->special = (unsigned)jbool(a, "special", 0);
        /* HF's default: special tokens are not normalized, others are */
        x->normalized = (unsigned)jbool(a, "normalized", !x->special);
    }
    smfw_status st = tok_added_build(&t->raw_added, t->added, t->n_added, 0, c->err);
    if (st == SMFW_OK) st = tok_added_build(&t->norm_added, t->added, t->n_added, 1, c->err);
    return st;
}

static smfw_status push_ids(load_ctx *c, uint32_t **v, size_t *n, json_t *ids) {
    size_t i;
    json_t *x;
    json_array_foreach(ids, i, x) {
        if (!json_is_integer(x) || json_integer_value(x) < 0)
            return bad(c, "a bad special id%s", NULL);
        if (*n >= 64) return bad(c, "the post-processor adds too many tokens%s", NULL);
        uint32_t *p = realloc(*v, (*n + 1) * sizeof *p);
        if (!p) return nomem(c->err);
        *v = p;
        p[(*n)++] = (uint32_t)json_integer_value(x);
    }
    return SMFW_OK;
}

static smfw_status load_post(load_ctx *c, json_t *pp, int depth) {
    smfw_tokenizer *t = c->t;
    if (!pp || json_is_null(pp)) return SMFW_OK;
    const char *type = jstr(pp, "type");
    if (!type || depth > 8) return bad(c, "a bad post_processor%s", NULL);
    if (strcmp(type, "Sequence") == 0) {
        json_t *list = json_object_get(pp, "processors"), *x;
        size_t i;
        json_array_foreach(list, i, x) {
            smfw_status st = load_post(c, x, depth + 1);
            if (st != SMFW_OK) return st;
        }
        return SMFW_OK;
    }
    if (strcmp(type, "ByteLevel") == 0) return SMFW_OK; /* offsets only */
    if (strcmp(type, "RobertaProcessing") == 0 || strcmp(type, "BertProcessing") == 0) {
        json_t *cls = json_object_get(pp, "cls"), *sep = json_object_get(pp, "sep");
        json_t *ci = json_array_get(cls, 1), *si = json_array_get(sep, 1);
        if (!json_is_integer(ci) || !json_is_integer(si)) return bad(c, "a bad %s", type);
        json_t *a = json_pack("[O]", ci), *b = json_pack("[O]", si);
        smfw_status st = push_ids(c, &t->prefix_ids, &t->n_prefix, a);
        if (st == SMFW_OK) st = push_ids(c, &t->suffix_ids, &t->n_suffix, b);
        json_decref(a);
        json_decref(b);
        return st;
    }
    if (strcmp(type, "TemplateProcessing") == 0) {
        json_t *single = json_object_get(pp, "single"),
               *specials = json_object_get(pp, "special_tokens"), *x;
        size_t i;
        int after = 0;
        json_array_foreach(single, i, x) {
            json_t *sp = json_object_get(x, "SpecialToken");
            if (json_object_get(x, "Sequence")) {
                after = 1;
                continue;
            }
            const char *name = jstr(sp, "id");
            json_t *def = name ? json_object_get(specials, name) : NULL;
            if (!def) return bad(c, "the template names an unknown special token \"%s\"", name);
            smfw_status st =
                after ? push_ids(c, &t->suffix_ids, &t->n_suffix, json_object_get(def, "ids"))
                      : push_ids(c, &t->prefix_ids, &t->n_prefix, json_object_get(def, "ids"));
            if (st != SMFW_OK) return st;
        }
        return SMFW_OK;
    }
    return unsupported(c, "post_processor", type);
}

smfw_status tok_load_hf_json_text(smfw_tokenizer *t, const char *text, size_t len,
                                  const char *where, smfw_error *err) {
    load_ctx c = {t, where, err};
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_ALLOW_NUL, &jerr);
    if (!root)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "%s: not valid JSON (line %d: %s)", where,
                              jerr.line, jerr.text);
    smfw_status st = SMFW_OK;
    tok_strmap orig = {0};
    json_t *model = json_object_get(root, "model");
    const char *type = jstr(model, "type");
    if (!json_is_object(model)) {
        st = bad(&c, "there is no model object%s", NULL);
        goto done;
    }
    if (!type && json_object_get(model, "merges")) type = "BPE";
    if (!type || strcmp(type, "BPE") != 0) {
        st = smfw_error_set(err, SMFW_ERR_UNSUPPORTED,
                            "%s: the model type is \"%s\"; smfw's tokenizer handles BPE models "
                            "only (Unigram, WordPiece and WordLevel are refused until an oracle "
                            "checks them)",
                            where, type ? type : "(none)");
        goto done;
    }
    const char *pre = jstr(model, "continuing_subword_prefix"),
               *suf = jstr(model, "end_of_word_suffix");
    if ((pre && *pre) || (suf && *suf)) {
        st = bad(&c, "BPE with continuing_subword_prefix or end_of_word_suffix is not supported%s",
                 NULL);
        goto done;
    }
    json_t *dropout = json_object_get(model, "dropout");
    if (json_is_number(dropout) && json_number_value(dropout) > 0) {
        st = bad(&c, "BPE dropout makes encoding random; smfw refuses it%s", NULL);
        goto done;
    }
    t->norms = calloc(TOK_MAX_PIPELINE, sizeof *t->norms);
    t->pres = calloc(TOK_MAX_PIPELINE, sizeof *t->pres);
    if (!t->norms || !t->pres) {
        st = nomem(err);
        goto done;
    }
    int byte_level = 0;
    if ((st = add_norm(&c, json_object_get(root, "normalizer"), 0)) != SMFW_OK) goto done;
    if ((st = add_pre(&c, json_object_get(root, "pre_tokenizer"), 0, &byte_level)) != SMFW_OK)
        goto done;
    tok_bpe *m = &t->bpe;
    m->mode = TOK_BPE_MERGES;
    m->byte_level = byte_level;
    m->byte_fallback = jbool(model, "byte_fallback", 0);
    m->ignore_merges = jbool(model, "ignore_merges", 0);
    m->fuse_unk = jbool(model, "fuse_unk", 0);
    if ((st = load_vocab(&c, model, &orig)) != SMFW_OK) goto done;
    if ((st = load_merges(&c, model, &orig)) != SMFW_OK) goto done;
    const char *unk = jstr(model, "unk_token");
    if (unk && tok_strmap_get(&orig, unk, strlen(unk), &m->unk_id)) m->has_unk = 1;
    for (int b = 0; b < 256; b++) {
        char name[8];
        snprintf(name, sizeof name, "<0x%02X>", b);
        if (!tok_strmap_get(&orig, name, strlen(name), &m->byte_ids[b]))
            m->byte_ids[b] = UINT32_MAX;
    }
    if (byte_level) {
        if ((st = decode_byte_level(&c, &orig)) != SMFW_OK) goto done;
        tok_strmap_free(&orig);
    } else {
        m->vocab = orig;
        memset(&orig, 0, sizeof orig);
    }
    if ((st = load_added(&c, root)) != SMFW_OK) goto done;
    st = load_post(&c, json_object_get(root, "post_processor"), 0);
done:
    tok_strmap_free(&orig);
    json_decref(root);
    return st;
}

smfw_status tok_load_hf_json(smfw_tokenizer *t, const char *path, smfw_error *err) {
    char *text;
    size_t len;
    smfw_status st = tok_read_file(path, TOK_MAX_FILE_BYTES, &text, &len, err);
    if (st != SMFW_OK) return st;
    st = tok_load_hf_json_text(t, text, len, path, err);
    free(text);
    return st;
}
