/* tok_map.c - the tokenizer's containers: byte buffers, spans, id lists and
 * two open-addressing hash maps (vocabulary strings, merge pairs). */
#include <stdlib.h>
#include <string.h>

#include "tok_internal.h"

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

int tok_bytes_reserve(tok_bytes *b, size_t extra) {
    return grow((void **)&b->p, &b->cap, b->len + extra + 1, 1);
}

int tok_bytes_append(tok_bytes *b, const void *p, size_t n) {
    if (tok_bytes_reserve(b, n)) return -1;
    if (n) memcpy(b->p + b->len, p, n);
    b->len += n;
    b->p[b->len] = 0;
    return 0;
}

void tok_bytes_free(tok_bytes *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}

int tok_spans_push(tok_spans *s, size_t off, size_t len) {
    if (grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v)) return -1;
    s->v[s->n].off = (uint32_t)off;
    s->v[s->n].len = (uint32_t)len;
    s->n++;
    return 0;
}

void tok_spans_free(tok_spans *s) {
    free(s->v);
    memset(s, 0, sizeof *s);
}

int tok_ids_push(smfw_token_ids *out, uint32_t id) {
    if (grow((void **)&out->ids, &out->cap, out->len + 1, sizeof *out->ids)) return -1;
    out->ids[out->len++] = id;
    return 0;
}

void smfw_token_ids_free(smfw_token_ids *ids) {
    if (!ids) return;
    free(ids->ids);
    memset(ids, 0, sizeof *ids);
}

/* A fast 64-bit hash: 8-byte words folded by multiply-rotate, then a finalizer. */
uint64_t tok_hash(const void *p, size_t len) {
    const unsigned char *s = p;
    uint64_t h = 0x243F6A8885A308D3ull ^ (len * 0x9E3779B97F4A7C15ull);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h = (h << 31) | (h >> 33);
        s += 8;
        len -= 8;
    }
    uint64_t w = 0;
    for (size_t i = 0; i < len; i++) w |= (uint64_t)s[i] << (8 * i);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 29;
    h *= 0x9E3779B97F4A7C15ull;
    h ^= h >> 32;
    return h;
}

int tok_strmap_init(tok_strmap *m, size_t expected) {
    memset(m, 0, sizeof *m);
    size_t cap = 64;
    while (cap < expected * 2) cap *= 2;
    m->slots = calloc(cap, sizeof *m->slots);
    if (!m->slots) return -1;
    m->mask = cap - 1;
    return 0;
}

void tok_strmap_free(tok_strmap *m) {
    free(m->arena);
    free(m->slots);
    free(m->ents);
    memset(m, 0, sizeof *m);
}

static int strmap_rehash(tok_strmap *m) {
    size_t cap = (m->mask + 1) * 2;
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < m->n; i++) {
        size_t j = m->ents[i].hash & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = (uint32_t)i + 1;
    }
    free(m->slots);
    m->slots = slots;
    m->mask = cap - 1;
    return 0;
}

int tok_strmap_get(const tok_strmap *m, const char *s, size_t len, uint32_t *id) {
    if (!m->slots) return 0;
    uint64_t h = tok_hash(s, len);
    for (size_t j = h & m->mask;; j = (j + 1) & m->mask) {
        uint32_t e = m->slots[j];
        if (!e) return 0;
        const struct tok_strent *x = &m->ents[e - 1];
        if (x->hash == h && x->len == len && memcmp(m->arena + x->off, s, len) == 0) {
            *id = x->id;
            return 1;
        }
    }
}

int tok_strmap_put(tok_strmap *m, const char *s, size_t len, uint32_t id) {
    uint32_t old;
    if (tok_strmap_get(m, s, len, &old)) return 0;
    if ((m->n + 1) * 2 > m->mask + 1 && strmap_rehash(m)) return -1;
    if (grow((void **)&m->ents, &m->cap, m->n + 1, sizeof *m->ents)) return -1;
    if (grow((void **)&m->arena, &m->arena_cap, m->arena_len + len + 1, 1)) return -1;
    if (m->arena_len + len > UINT32_MAX) return -1;
    memcpy(m->arena + m->arena_len, s, len);
    struct tok_strent *x = &m->ents[m->n];
    x->hash = tok_hash(s, len);
    x->off = (uint32_t)m->arena_len;
    x->len = (uint32_t)len;
    x->id = id;
    m->arena_len += len;
    size_t j = x->hash & m->mask;
    while (m->slots[j]) j = (j + 1) & m->mask;
    m->slots[j] = (uint32_t)++m->n;
    return 0;
}

static uint64_t pair_key(uint32_t a, uint32_t b) {
    return (((uint64_t)a << 32) | b) + 1;
}

static size_t pair_slot(uint64_t k, size_t mask) {
    k *= 0x9E3779B97F4A7C15ull;
    return (size_t)(k >> 17) & mask;
}

int tok_pairmap_init(tok_pairmap *m, size_t expected) {
    memset(m, 0, sizeof *m);
    size_t cap = 64;
    while (cap < expected * 2) cap *= 2;
    m->slots = calloc(cap, sizeof *m->slots);
    if (!m->slots) return -1;
    m->mask = cap - 1;
    return 0;
}

void tok_pairmap_free(tok_pairmap *m) {
    free(m->slots);
    memset(m, 0, sizeof *m);
}

int tok_pairmap_put(tok_pairmap *m, uint32_t a, uint32_t b, uint32_t rank, uint32_t id) {
    if ((m->n + 1) * 2 > m->mask + 1) {
        size_t cap = (m->mask + 1) * 2;
        struct tok_pairent *s = calloc(cap, sizeof *s);
        if (!s) return -1;
        for (size_t i = 0; i <= m->mask; i++) {
            if (!m->slots[i].key) continue;
            size_t j = pair_slot(m->slots[i].key, cap - 1);
            while (s[j].key) j = (j + 1) & (cap - 1);
            s[j] = m->slots[i];
        }
        free(m->slots);
        m->slots = s;
        m->mask = cap - 1;
    }
    uint64_t k = pair_key(a, b);
    size_t j = pair_slot(k, m->mask);
    while (m->slots[j].key) {
        if (m->slots[j].key == k) { /* a later duplicate wins, as HF's HashMap collect */
            m->slots[j].rank = rank;
            m->slots[j].id = id;
            return 0;
        }
        j = (j + 1) & m->mask;
    }
    m->slots[j].key = k;
    m->slots[j].rank = rank;
    m->slots[j].id = id;
    m->n++;
    return 0;
}

int tok_pairmap_get(const tok_pairmap *m, uint32_t a, uint32_t b, uint32_t *rank, uint32_t *id) {
    if (!m->slots) return 0;
    uint64_t k = pair_key(a, b);
    for (size_t j = pair_slot(k, m->mask);; j = (j + 1) & m->mask) {
        if (!m->slots[j].key) return 0;
        if (m->slots[j].key == k) {
            *rank = m->slots[j].rank;
            *id = m->slots[j].id;
            return 1;
        }
    }
}
