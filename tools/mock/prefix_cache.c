/*
 * prefix_cache.c - the emulated prefix cache.
 *
 * Tokens are llm.c's: each prompt string's decoded text in 4-byte pieces
 * (the last one shorter), so a prompt has exactly the prompt_tokens its usage
 * reports. A block's name hashes its tokens onto the previous block's name
 * (seeded by the endpoint), so a block matches only behind the same prefix,
 * as vLLM's block hashes do. The blocks held live in a doubly linked LRU list
 * over arrays, found through an open-addressing table (linear probing,
 * backward-shift deletion); both grow with use up to the capacity, which
 * bounds the memory however many distinct prompts arrive.
 */
#include "prefix_cache.h"

#include "llm.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX

struct mock_prefix_cache {
    size_t capacity, n, alloc;
    long block_tokens;
    uint64_t *key;         /* block names, by entry */
    uint32_t *prev, *next; /* LRU list: head most recently used */
    uint32_t head, tail;
    uint32_t *table; /* entry + 1; 0 = empty */
    size_t mask;     /* table size - 1 (a power of two, at least twice n) */
};

static uint64_t mix64(uint64_t x) { /* splitmix64's finaliser */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t fnv1a(const void *p, size_t n, uint64_t h) {
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ULL;
    return h;
}

mock_prefix_cache *mock_prefix_cache_new(size_t capacity, long block_tokens) {
    if (capacity == 0 || capacity >= NIL || block_tokens < 1) return NULL;
    mock_prefix_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->capacity = capacity;
    c->block_tokens = block_tokens;
    c->head = c->tail = NIL;
    return c;
}

void mock_prefix_cache_free(mock_prefix_cache *c) {
    if (!c) return;
    free(c->key);
    free(c->prev);
    free(c->next);
    free(c->table);
    free(c);
}

size_t mock_prefix_cache_blocks(const mock_prefix_cache *c) {
    return c ? c->n : 0;
}

static size_t home(const mock_prefix_cache *c, uint64_t key) {
    return (size_t)mix64(key) & c->mask;
}

/* Entry holding key, or NIL; *at gets the table position (of the entry, or the empty slot). */
static uint32_t find(const mock_prefix_cache *c, uint64_t key, size_t *at) {
    size_t i = home(c, key);
    while (c->table[i]) {
        uint32_t e = c->table[i] - 1;
        if (c->key[e] == key) {
            *at = i;
            return e;
        }
        i = (i + 1) & c->mask;
    }
    *at = i;
    return NIL;
}

static void table_remove(mock_prefix_cache *c, size_t i) {
    c->table[i] = 0;
    for (size_t j = (i + 1) & c->mask; c->table[j]; j = (j + 1) & c->mask) {
        size_t k = home(c, c->key[c->table[j] - 1]);
        /* the entry at j stays when its home lies cyclically in (i, j] */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j)) continue;
        c->table[i] = c->table[j];
        c->table[j] = 0;
        i = j;
    }
}

static void lru_unlink(mock_prefix_cache *c, uint32_t e) {
    if (c->prev[e] != NIL)
        c->next[c->prev[e]] = c->next[e];
    else
        c->head = c->next[e];
    if (c->next[e] != NIL)
        c->prev[c->next[e]] = c->prev[e];
    else
        c->tail = c->prev[e];
}

static void lru_push_front(mock_prefix_cache *c, uint32_t e) {
    c->prev[e] = NIL;
    c->next[e] = c->head;
    if (c->head != NIL) c->prev[c->head] = e;
    c->head = e;
    if (c->tail == NIL) c->tail = e;
}

/* Room for one more entry and a table at most half full. -1 out of memory. */
static int reserve(mock_prefix_cache *c) {
    if (c->n < c->alloc) return 0;
    size_t alloc = c->alloc ? c->alloc * 2 : 64;
    if (alloc > c->capacity) alloc = c->capacity;
    uint64_t *key = realloc(c->key, alloc * sizeof *key);
    if (key) c->key = key;
    uint32_t *prev = key ? realloc(c->prev, alloc * sizeof *prev) : NULL;
    if (prev) c->prev = prev;
    uint32_t *next = prev ? realloc(c->next, alloc * sizeof *next) : NULL;
    if (next) c->next = next;
    size_t size = 1;
    while (size < alloc * 2) size *= 2;
    uint32_t *table = next ? calloc(size, sizeof *table) : NULL;
    if (!table) return -1;
    free(c->table);
    c->table = table;
    c->mask = size - 1;
    c->alloc = alloc;
    for (uint32_t e = 0; e < c->n; e++) {
        size_t at;
        find(c, c->key[e], &at);
        c->table[at] = e + 1;
    }
    return 0;
}

/* Hold key, most recently used, evicting the least recently used block when full. */
static void hold(mock_prefix_cache *c, uint64_t key) {
    size_t at;
    uint32_t e = c->n ? find(c, key, &at) : NIL;
    if (e != NIL) {
        lru_unlink(c, e);
        lru_push_front(c, e);
        return;
    }
    if (c->n == c->capacity) {
        e = c->tail; /* evict: reuse its entry */
        find(c, c->key[e], &at);
        table_remove(c, at);
        lru_unlink(c, e);
    } else {
        if (reserve(c) != 0) return; /* out of memory: the block is simply not cached */
        e = (uint32_t)c->n++;
    }
    c->key[e] = key;
    find(c, key, &at);
    c->table[at] = e + 1;
    lru_push_front(c, e);
}

typedef struct prompt_blocks {
    long block_tokens;
    uint64_t name;  /* the running hash of the block being filled */
    long in_block;  /* its tokens so far */
    long tokens;    /* all tokens */
    uint64_t *full; /* names of the full blocks */
    size_t n, cap;
    char *text;
    size_t text_cap;
    int oom;
} prompt_blocks;

static void add_token(prompt_blocks *pb, const char *p, size_t n) {
    pb->name = mix64(pb->name ^ fnv1a(p, n, 0xcbf29ce484222325ULL));
    pb->tokens++;
    if (++pb->in_block < pb->block_tokens) return;
    pb->in_block = 0;
    if (pb->n == pb->cap) {
        size_t cap = pb->cap ? pb->cap * 2 : 16;
        uint64_t *full = realloc(pb->full, cap * sizeof *full);
        if (!full) {
            pb->oom = 1;
            return;
        }
        pb->full = full;
        pb->cap = cap;
    }
    pb->full[pb->n++] = pb->name;
}

static void add_string(void *ctx, const smfw_json_view *v) {
    prompt_blocks *pb = ctx;
    size_t len = smfw_json_string_length(v);
    if (len + 1 > pb->text_cap) {
        char *t = realloc(pb->text, len + 1);
        if (!t) {
            pb->oom = 1;
            return;
        }
        pb->text = t;
        pb->text_cap = len + 1;
    }
    smfw_json_string_decode(v, pb->text, len + 1);
    long want = mock_llm_text_tokens(v);
    for (long k = 0; k < want; k++) {
        size_t off = (size_t)k * 4;
        add_token(pb, pb->text + off, len - off < 4 ? len - off : 4);
    }
}

long mock_prefix_cache_admit(mock_prefix_cache *c, const char *endpoint,
                             const mock_llm_request *req) {
    if (!c || req->prompt_tokens <= 0) return 0;
    prompt_blocks pb = {.block_tokens = c->block_tokens,
                        .name = fnv1a(endpoint ? endpoint : "", strlen(endpoint ? endpoint : ""),
                                      0xcbf29ce484222325ULL)};
    long cached = 0;
    mock_llm_prompt_strings(req, add_string, &pb);
    if (!pb.oom) {
        /* vLLM computes the last prompt token even on a full hit (it needs its logits) */
        size_t most = (size_t)((pb.tokens - 1) / c->block_tokens), hits = 0;
        size_t at;
        while (hits < most && hits < pb.n && c->n && find(c, pb.full[hits], &at) != NIL) hits++;
        cached = (long)hits * c->block_tokens;
        for (size_t i = 0; i < pb.n; i++) hold(c, pb.full[i]);
    }
    free(pb.full);
    free(pb.text);
    return cached;
}
