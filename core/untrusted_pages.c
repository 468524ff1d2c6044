/*
 * untrusted_pages.c - paging through a listing a service controls: a
 * continuation token seen before means a loop (a repeated ListObjectsV2
 * token once caused 100,001 requests), and pages and bytes are capped.
 * Tokens are kept as 64-bit hashes, so the memory is bounded by the page cap.
 */
#include <stdlib.h>
#include <string.h>

#include <smfw/bundle_limits.h>
#include <smfw/untrusted.h>

static uint64_t fnv1a(const char *s) {
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

void smfw_pager_init(smfw_pager *p) {
    memset(p, 0, sizeof *p);
    const smfw_bundle_limits *lim = smfw_bundle_limits_get();
    p->max_pages = lim->max_list_pages;
    p->max_bytes = lim->max_list_bytes;
}

void smfw_pager_free(smfw_pager *p) {
    free(p->seen);
    memset(p, 0, sizeof *p);
}

int smfw_pager_page(smfw_pager *p, size_t bytes, const char *next_token) {
    p->pages++;
    p->bytes += (int64_t)bytes;
    if (p->bytes > p->max_bytes) return SMFW_PAGER_TOO_MANY_BYTES;
    if (!next_token || !*next_token) return SMFW_PAGER_DONE;
    if (p->pages >= p->max_pages) return SMFW_PAGER_TOO_MANY_PAGES;
    uint64_t h = fnv1a(next_token);
    for (size_t i = 0; i < p->n; i++)
        if (p->seen[i] == h) return SMFW_PAGER_REPEATED;
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        uint64_t *v = realloc(p->seen, cap * sizeof *v);
        if (!v) return SMFW_PAGER_TOO_MANY_PAGES;
        p->seen = v;
        p->cap = cap;
    }
    p->seen[p->n++] = h;
    return SMFW_PAGER_MORE;
}

const char *smfw_pager_why(int verdict) {
    switch (verdict) {
    case SMFW_PAGER_REPEATED:
        return "the service repeated a continuation token (a listing loop)";
    case SMFW_PAGER_TOO_MANY_PAGES:
        return "more pages than bundle.max_list_pages";
    case SMFW_PAGER_TOO_MANY_BYTES:
        return "more bytes than bundle.max_list_bytes";
    default:
        return "";
    }
}
