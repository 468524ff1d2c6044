/*
 * dbuf.h - a growable byte buffer for the direct backend's hot path.
 *
 * Buffers are allocated before a run and only grow (amortised doubling) when
 * a response is bigger than every response before it, so steady-state
 * decoding allocates nothing.
 */
#ifndef DIRECT_DBUF_H
#define DIRECT_DBUF_H

#include <stdlib.h>
#include <string.h>

typedef struct dbuf {
    char *data;
    size_t len;
    size_t cap;
} dbuf;

/** Make sure at least `extra` more bytes fit (plus a NUL). Returns 0 or -1 (no memory). */
static inline int dbuf_reserve(dbuf *b, size_t extra) {
    size_t need = b->len + extra + 1;
    if (need <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) {
        if (cap > ((size_t)-1) / 2) return -1;
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) return -1;
    b->data = p;
    b->cap = cap;
    return 0;
}

/** Append bytes (kept NUL-terminated). Returns 0 or -1. */
static inline int dbuf_append(dbuf *b, const void *data, size_t len) {
    if (dbuf_reserve(b, len) != 0) return -1;
    if (len) memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

/** Append at most `max_total` bytes in total (the rest is dropped). */
static inline void dbuf_append_capped(dbuf *b, const void *data, size_t len, size_t max_total) {
    if (b->len >= max_total) return;
    if (len > max_total - b->len) len = max_total - b->len;
    (void)dbuf_append(b, data, len);
}

/** Forget the contents, keep the memory. */
static inline void dbuf_reset(dbuf *b) {
    b->len = 0;
    if (b->data) b->data[0] = '\0';
}

/** Drop the first n bytes. */
static inline void dbuf_consume(dbuf *b, size_t n) {
    if (n >= b->len) {
        dbuf_reset(b);
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

static inline void dbuf_free(dbuf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

#endif /* DIRECT_DBUF_H */
