/*
 * test_mock_prefix_cache.c - smfw-mock's emulated prefix cache: cached tokens
 * are whole leading blocks, never the last token's block; a block matches only
 * behind the same prefix and on the same endpoint; eviction is least recently
 * used; and thousands of random prompts with shared prefixes give the answers
 * of a plain model (blocks named by their prefix text, an LRU list searched
 * end to end), which checks the hash table's deletions under churn.
 */
#include "prefix_cache.h"

#include "llm.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smfw_test.h"

/* {"prompt": "<text>"}: one string, so tokens are its 4-byte pieces. */
static long admit(mock_prefix_cache *c, const char *endpoint, const char *text) {
    char body[4096], err[256];
    snprintf(body, sizeof body, "{\"prompt\":\"%s\"}", text);
    mock_llm_request req;
    ck_assert_int_eq(
        mock_llm_parse((const uint8_t *)body, strlen(body), "m", &req, err, sizeof err), 0);
    ck_assert_int_eq(req.prompt_tokens, ((long)strlen(text) + 3) / 4);
    return mock_prefix_cache_admit(c, endpoint, &req);
}

START_TEST(prefix_cache_whole_blocks_endpoint_and_lru) {
    mock_prefix_cache *c = mock_prefix_cache_new(8, 4); /* 8 blocks of 4 tokens (16 bytes) */
    ck_assert_ptr_nonnull(c);
    const char *a =
        "AAAAaaaaAAAAaaaaBBBBbbbbBBBBbbbbCCCCccccCCCCccccDDDDddddDDDDdddd"; /* 4 blocks */
    ck_assert_int_eq(admit(c, "e", a), 0);
    ck_assert_uint_eq(mock_prefix_cache_blocks(c), 4);
    /* the same prompt: every block but the one holding the last token */
    ck_assert_int_eq(admit(c, "e", a), 12);
    /* a longer prompt behind it: its 4 blocks; a partial 5th block is never cached */
    char longer[256];
    snprintf(longer, sizeof longer, "%sEEEEeeee", a);
    ck_assert_int_eq(admit(c, "e", longer), 16);
    ck_assert_uint_eq(mock_prefix_cache_blocks(c), 4);
    /* another endpoint shares nothing; one changed byte up front breaks the chain */
    ck_assert_int_eq(admit(c, "other", a), 0);
    ck_assert_uint_eq(mock_prefix_cache_blocks(c), 8);
    char changed[256];
    snprintf(changed, sizeof changed, "%s", a);
    changed[0] = 'Z';
    /* full: its 4 blocks evict the least recently used ("e"'s, admitted before "other"'s) */
    ck_assert_int_eq(admit(c, "e", changed), 0);
    ck_assert_int_eq(admit(c, "e", a), 0);        /* evicted, now held again (evicting "other") */
    ck_assert_int_eq(admit(c, "e", changed), 12); /* touched last round, so still held */
    ck_assert_int_eq(admit(c, "other", a), 0);
    /* a prompt shorter than one block is never cached */
    ck_assert_int_eq(admit(c, "e", "tiny"), 0);
    ck_assert_int_eq(admit(c, "e", "tiny"), 0);
    mock_prefix_cache_free(c);
}
END_TEST

/* The plain model: blocks named by endpoint and prefix text, most recently used first. */
#define MODEL_CAP 40
typedef struct model {
    char names[MODEL_CAP][512];
    size_t n;
} model;

static int model_find(const model *m, const char *name) {
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->names[i], name)) return (int)i;
    return -1;
}

static void model_hold(model *m, const char *name) {
    int i = model_find(m, name);
    size_t from = i >= 0 ? (size_t)i : m->n < MODEL_CAP ? m->n++ : MODEL_CAP - 1;
    memmove(m->names[1], m->names[0], from * sizeof m->names[0]);
    snprintf(m->names[0], sizeof m->names[0], "%s", name);
}

static long model_admit(model *m, const char *endpoint, const char *text, long block_bytes) {
    long tokens = ((long)strlen(text) + 3) / 4, block_tokens = block_bytes / 4;
    long full = tokens / block_tokens, most = (tokens - 1) / block_tokens, hits = 0;
    char name[512];
    for (long b = 0; b < most; b++) {
        snprintf(name, sizeof name, "%s|%.*s", endpoint, (int)((b + 1) * block_bytes), text);
        if (model_find(m, name) < 0) break;
        hits++;
    }
    for (long b = 0; b < full; b++) {
        snprintf(name, sizeof name, "%s|%.*s", endpoint, (int)((b + 1) * block_bytes), text);
        model_hold(m, name);
    }
    return hits * block_tokens;
}

START_TEST(prefix_cache_matches_a_plain_model_under_churn) {
    static const char *const pieces[] = {"aaaabbbb", "ccccdddd", "eeeeffff"};
    static const char *const endpoints[] = {"x", "y"};
    mock_prefix_cache *c = mock_prefix_cache_new(MODEL_CAP, 2); /* a block = one piece */
    model *m = calloc(1, sizeof *m);
    ck_assert(c && m);
    unsigned seed = 12345;
    long hits = 0;
    for (int round = 0; round < 5000; round++) {
        char text[256] = "";
        int n = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 12;
        for (int k = 0; k < n; k++) {
            seed = seed * 1103515245u + 12345u;
            strcat(text, pieces[(seed >> 16) % 3]);
        }
        if (((seed >> 20) & 3) == 0) strcat(text, "gg"); /* a partial last block */
        const char *ep = endpoints[(seed >> 24) & 1];
        long want = model_admit(m, ep, text, 8);
        ck_assert_int_eq(admit(c, ep, text), want);
        ck_assert_uint_eq(mock_prefix_cache_blocks(c), m->n);
        hits += want > 0;
    }
    ck_assert_int_gt(hits, 1000); /* the test reached the cache, not only misses */
    free(m);
    mock_prefix_cache_free(c);
}
END_TEST

int main(void) {
    Suite *s = suite_create("mock_prefix_cache");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, prefix_cache_whole_blocks_endpoint_and_lru);
    tcase_add_test(tc, prefix_cache_matches_a_plain_model_under_churn);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
