/* tok_bpe.c - byte-pair merging of one piece: lowest rank first, leftmost on
 * ties (tiktoken's _byte_pair_merge and HF's Word::merge_all agree on this),
 * with a binary heap so a long piece (SentencePiece models do not split on
 * spaces) stays O(n log n). */
#include <stdlib.h>
#include <string.h>

#include "tok_internal.h"

void tok_bpe_free(tok_bpe *m) {
    tok_strmap_free(&m->vocab);
    tok_pairmap_free(&m->merges);
}

void tok_bpe_scratch_free(tok_bpe_scratch *s) {
    free(s->syms);
    free(s->heap);
    memset(s, 0, sizeof *s);
}

static int less(const struct tok_merge *a, const struct tok_merge *b) {
    return a->rank < b->rank || (a->rank == b->rank && a->pos < b->pos);
}

static void heap_push(struct tok_merge *h, size_t *n, struct tok_merge m) {
    size_t i = (*n)++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (!less(&m, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = m;
}

static struct tok_merge heap_pop(struct tok_merge *h, size_t *n) {
    struct tok_merge top = h[0], last = h[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && less(&h[c + 1], &h[c])) c++;
        if (!less(&h[c], &last)) break;
        h[i] = h[c];
        i = c;
    }
    if (*n) h[i] = last;
    return top;
}

/* The merge of symbols a and b (adjacent), if any. */
static int pair_rank(const tok_bpe *m, const char *piece, const struct tok_sym *a,
                     const struct tok_sym *b, uint32_t *rank, uint32_t *id) {
    if (m->mode == TOK_BPE_RANKS) {
        if (!tok_strmap_get(&m->vocab, piece + a->start, a->len + b->len, rank)) return 0;
        *id = *rank;
        return 1;
    }
    return tok_pairmap_get(&m->merges, a->id, b->id, rank, id);
}

/* n symbols at most; the heap holds at most 2n entries (each merge pops one, pushes two). */
static int reserve(tok_bpe_scratch *s, size_t n) {
    size_t hn = 2 * n + 2;
    if (n > s->syms_cap) {
        size_t c = s->syms_cap ? s->syms_cap : 64;
        while (c < n) c *= 2;
        void *p = realloc(s->syms, c * sizeof *s->syms);
        if (!p) return -1;
        s->syms = p;
        s->syms_cap = c;
    }
    if (hn > s->heap_cap) {
        size_t c = s->heap_cap ? s->heap_cap : 64;
        while (c < hn) c *= 2;
        void *p = realloc(s->heap, c * sizeof *s->heap);
        if (!p) return -1;
        s->heap = p;
        s->heap_cap = c;
    }
    return 0;
}

static void add_sym(tok_bpe_scratch *s, size_t *n, uint32_t start, uint32_t len, uint32_t id) {
    struct tok_sym *y = &s->syms[*n];
    y->start = start;
    y->len = len;
    y->id = id;
    y->prev = (int32_t)*n - 1;
    y->next = (int32_t)*n + 1;
    (*n)++;
}

smfw_status tok_bpe_encode(const tok_bpe *m, tok_bpe_scratch *s, const char *piece, size_t len,
                           smfw_token_ids *out, smfw_error *err) {
    uint32_t id;
    if (!len) return SMFW_OK;
    if (len > INT32_MAX)
        return smfw_error_set(err, SMFW_ERR_USAGE, "a piece of text is over 2 GiB");
    /* Whole piece known: tiktoken always checks this, HF when ignore_merges. */
    if ((m->mode == TOK_BPE_RANKS || m->ignore_merges) &&
        tok_strmap_get(&m->vocab, piece, len, &id))
        return tok_ids_push(out, id) ? smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory")
                                     : SMFW_OK;
    /* A byte-fallback character can add up to 4 symbols: reserve per byte. */
    if (reserve(s, len + 1)) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    size_t n = 0;
    int unk_open = 0;
    uint32_t unk_start = 0, unk_len = 0;
    for (size_t i = 0; i < len;) {
        size_t cl = 1;
        if (!m->byte_level && m->mode == TOK_BPE_MERGES) {
            cl = tok_utf8_len((unsigned char)piece[i]);
            if (cl == 0 || i + cl > len) cl = 1;
        }
        if (m->mode == TOK_BPE_RANKS) {
            /* every single byte has a rank in tiktoken encodings */
            if (!tok_strmap_get(&m->vocab, piece + i, 1, &id)) id = UINT32_MAX;
            add_sym(s, &n, (uint32_t)i, 1, id);
            i += cl;
            continue;
        }
        if (tok_strmap_get(&m->vocab, piece + i, cl, &id)) {
            if (unk_open) add_sym(s, &n, unk_start, unk_len, m->unk_id);
            unk_open = 0;
            add_sym(s, &n, (uint32_t)i, (uint32_t)cl, id);
            i += cl;
            continue;
        }
        if (m->byte_fallback) {
            int all = 1;
            for (size_t k = 0; k < cl; k++)
                if (m->byte_ids[(unsigned char)piece[i + k]] == UINT32_MAX) all = 0;
            if (all) {
                /* HF adds pending unk first only for a known char; keep its order */
                for (size_t k = 0; k < cl; k++)
                    add_sym(s, &n, (uint32_t)(i + k), 1, m->byte_ids[(unsigned char)piece[i + k]]);
                i += cl;
                continue;
            }
        }
        if (m->has_unk) {
            if (unk_open && m->fuse_unk) {
                unk_len += (uint32_t)cl;
            } else {
                if (unk_open) add_sym(s, &n, unk_start, unk_len, m->unk_id);
                unk_open = 1;
                unk_start = (uint32_t)i;
                unk_len = (uint32_t)cl;
            }
        }
        i += cl;
    }
    if (unk_open) add_sym(s, &n, unk_start, unk_len, m->unk_id);
    if (!n) return SMFW_OK;
    s->syms[n - 1].next = -1;

    size_t hn = 0;
    uint32_t rank;
    for (size_t i = 0; i + 1 < n; i++)
        if (pair_rank(m, piece, &s->syms[i], &s->syms[i + 1], &rank, &id))
            heap_push(
                s->heap, &hn,
                (struct tok_merge){rank, (uint32_t)i, s->syms[i].len + s->syms[i + 1].len, id});
    while (hn) {
        struct tok_merge top = heap_pop(s->heap, &hn);
        struct tok_sym *a = &s->syms[top.pos];
        if (!a->len || a->next < 0) continue;
        struct tok_sym *b = &s->syms[a->next];
        /* Stale entry: one side merged since it was pushed (spans only grow). */
        if (a->len + b->len != top.len) continue;
        a->len += b->len;
        a->id = top.id;
        b->len = 0;
        a->next = b->next;
        if (b->next >= 0) s->syms[b->next].prev = (int32_t)top.pos;
        if (a->prev >= 0 && pair_rank(m, piece, &s->syms[a->prev], a, &rank, &id))
            heap_push(
                s->heap, &hn,
                (struct tok_merge){rank, (uint32_t)a->prev, s->syms[a->prev].len + a->len, id});
        if (a->next >= 0 && pair_rank(m, piece, a, &s->syms[a->next], &rank, &id))
            heap_push(s->heap, &hn,
                      (struct tok_merge){rank, top.pos, a->len + s->syms[a->next].len, id});
    }
    for (int32_t i = 0; i >= 0; i = s->syms[i].next)
        if (s->syms[i].id != UINT32_MAX && tok_ids_push(out, s->syms[i].id))
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    return SMFW_OK;
}
