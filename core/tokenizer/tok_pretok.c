/* tok_pretok.c - pre-tokenizers (Split, ByteLevel, Metaspace and the Digits
 * and Sequence forms built from them): one segment in, pieces out, with HF's
 * split behaviours (Isolated, Removed, MergedWithPrevious/Next, Contiguous). */
#include <stdlib.h>
#include <string.h>

#include "tok_internal.h"

void tok_pre_free(tok_pre *p) {
    if (p->has_re) tok_regex_free(&p->re);
    memset(p, 0, sizeof *p);
}

static smfw_status nomem(smfw_error *err) {
    return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

/* Emit part [a, b) of src as a new piece of out. */
static int emit(tok_bytes *out, tok_spans *os, const char *src, size_t a, size_t b) {
    if (b <= a) return 0;
    size_t off = out->len;
    return tok_bytes_append(out, src + a, b - a) || tok_spans_push(os, off, b - a);
}

/* Split one piece by the regex and the behaviour, emitting into out/os. */
static smfw_status split_piece(tok_pre *p, const char *s, size_t len, tok_bytes *out, tok_spans *os,
                               smfw_error *err) {
    /* parts as (start, end, is_match), applied on the fly */
    size_t pos = 0, ms, me;
    int prev_match = 0, have = 0, rc;
    size_t cur_a = 0, cur_b = 0; /* the part being accumulated (not yet emitted) */
    int last_is_match = 0;
    for (;;) {
        size_t pa, pb;
        int is_match;
        if (pos >= len) break;
        rc = tok_regex_next(&p->re, s, len, pos, &ms, &me);
        if (rc < 0)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "a Split pre-tokenizer regex hit its match limit on this text");
        int parts = 0;
        size_t A[2][2];
        int M[2];
        if (rc == 0) {
            A[0][0] = pos, A[0][1] = len, M[0] = 0, parts = 1;
            pos = len;
        } else {
            if (ms > pos) A[parts][0] = pos, A[parts][1] = ms, M[parts++] = 0;
            A[parts][0] = ms, A[parts][1] = me, M[parts++] = 1;
            pos = me;
        }
        for (int k = 0; k < parts; k++) {
            pa = A[k][0], pb = A[k][1];
            is_match = p->invert ? !M[k] : M[k];
            switch (p->behavior) {
            case TOK_SPLIT_REMOVED:
                if (!is_match && emit(out, os, s, pa, pb)) return nomem(err);
                break;
            case TOK_SPLIT_ISOLATED:
                if (emit(out, os, s, pa, pb)) return nomem(err);
                break;
            case TOK_SPLIT_MERGED_PREV:
                if (is_match && !prev_match && have) {
                    cur_b = pb;
                } else {
                    if (have && emit(out, os, s, cur_a, cur_b)) return nomem(err);
                    cur_a = pa, cur_b = pb, have = 1;
                }
                break;
            case TOK_SPLIT_CONTIGUOUS:
                if (have && is_match == last_is_match) {
                    cur_b = pb;
                } else {
                    if (have && emit(out, os, s, cur_a, cur_b)) return nomem(err);
                    cur_a = pa, cur_b = pb, have = 1;
                }
                break;
            case TOK_SPLIT_MERGED_NEXT:
                /* a match opens a new part that the following non-match joins */
                if (have && !(prev_match && !is_match)) {
                    if (emit(out, os, s, cur_a, cur_b)) return nomem(err);
                    have = 0;
                }
                if (have) {
                    cur_b = pb;
                } else {
                    cur_a = pa, cur_b = pb, have = 1;
                }
                break;
            }
            prev_match = is_match;
            last_is_match = is_match;
        }
    }
    if (have && emit(out, os, s, cur_a, cur_b)) return nomem(err);
    return SMFW_OK;
}

static smfw_status metaspace_piece(tok_pre *p, const char *s, size_t len, int at_origin,
                                   tok_bytes *out, tok_spans *os, tok_bytes *tmp, smfw_error *err) {
    tmp->len = 0;
    if (tok_bytes_reserve(tmp, len + p->repl_len)) return nomem(err);
    for (size_t i = 0; i < len; i++) {
        int bad = s[i] == ' ' ? tok_bytes_append(tmp, p->repl, p->repl_len)
                              : tok_bytes_append(tmp, s + i, 1);
        if (bad) return nomem(err);
    }
    int starts = tmp->len >= p->repl_len && memcmp(tmp->p, p->repl, p->repl_len) == 0;
    if (!starts &&
        (p->prepend == TOK_PREPEND_ALWAYS || (p->prepend == TOK_PREPEND_FIRST && at_origin))) {
        if (tok_bytes_reserve(tmp, p->repl_len)) return nomem(err);
        memmove(tmp->p + p->repl_len, tmp->p, tmp->len);
        memcpy(tmp->p, p->repl, p->repl_len);
        tmp->len += p->repl_len;
    }
    if (!p->split) return emit(out, os, tmp->p, 0, tmp->len) ? nomem(err) : SMFW_OK;
    /* MergedWithNext on the replacement: each piece starts at a replacement */
    size_t a = 0;
    for (size_t i = 0; i + p->repl_len <= tmp->len;) {
        if (memcmp(tmp->p + i, p->repl, p->repl_len) == 0 && i > a) {
            /* a run of replacements: each one starts a piece */
            if (emit(out, os, tmp->p, a, i)) return nomem(err);
            a = i;
        }
        i += memcmp(tmp->p + i, p->repl, p->repl_len) == 0 ? p->repl_len : 1;
    }
    return emit(out, os, tmp->p, a, tmp->len) ? nomem(err) : SMFW_OK;
}

smfw_status tok_pretokenize(smfw_tokenizer *t, const char *seg, size_t len, int first_segment,
                            tok_bytes **buf, tok_spans **spans, smfw_error *err) {
    tok_bytes *in = &t->pa, *out = &t->pb;
    tok_spans *is = &t->sa, *os = &t->sb;
    in->len = 0;
    is->n = 0;
    if (tok_bytes_append(in, seg, len) || tok_spans_push(is, 0, len)) return nomem(err);
    for (size_t k = 0; k < t->n_pres; k++) {
        tok_pre *p = &t->pres[k];
        if (p->kind == TOK_PRE_BYTELEVEL && !p->add_prefix_space && !p->has_re) continue;
        out->len = 0;
        os->n = 0;
        for (size_t i = 0; i < is->n; i++) {
            const char *s = in->p + is->v[i].off;
            size_t n = is->v[i].len;
            smfw_status st = SMFW_OK;
            if (p->kind == TOK_PRE_SPLIT) {
                st = split_piece(p, s, n, out, os, err);
            } else if (p->kind == TOK_PRE_METASPACE) {
                st = metaspace_piece(p, s, n, first_segment && is->v[i].off == 0, out, os, &t->tmp,
                                     err);
            } else { /* BYTELEVEL */
                const char *src = s;
                if (p->add_prefix_space && (n == 0 || s[0] != ' ')) {
                    t->tmp.len = 0;
                    if (tok_bytes_append(&t->tmp, " ", 1) || tok_bytes_append(&t->tmp, s, n))
                        return nomem(err);
                    src = t->tmp.p;
                    n = t->tmp.len;
                }
                st = p->has_re ? split_piece(p, src, n, out, os, err)
                               : (emit(out, os, src, 0, n) ? nomem(err) : SMFW_OK);
            }
            if (st != SMFW_OK) return st;
        }
        tok_bytes *tb = in;
        in = out;
        out = tb;
        tok_spans *ts = is;
        is = os;
        os = ts;
    }
    *buf = in;
    *spans = is;
    return SMFW_OK;
}
