/*
 * prefix_cache.h - vLLM's automatic prefix caching, emulated: the prompt's
 * tokens in blocks, each block named by a hash of everything before it, a
 * bounded LRU of the blocks the server holds, and the cached-token count a
 * request's usage reports (prompt_tokens_details.cached_tokens).
 */
#ifndef SMFW_MOCK_PREFIX_CACHE_H
#define SMFW_MOCK_PREFIX_CACHE_H

#include <stddef.h>
#include <stdint.h>

typedef struct mock_prefix_cache mock_prefix_cache;
struct mock_llm_request;

/* Room for `capacity` blocks of `block_tokens` tokens. NULL out of memory. */
mock_prefix_cache *mock_prefix_cache_new(size_t capacity, long block_tokens);
void mock_prefix_cache_free(mock_prefix_cache *c);

/*
 * One request's prompt (tokenised as llm.c counts prompt_tokens; its body still alive) on
 * `endpoint` (endpoints share no blocks): the tokens of its leading blocks the cache
 * already held, at most all but the last token's block as vLLM does (the last token is
 * always computed); then its full blocks are held, most recently used.
 */
long mock_prefix_cache_admit(mock_prefix_cache *c, const char *endpoint,
                             const struct mock_llm_request *req);

/* Blocks held now (for tests). */
size_t mock_prefix_cache_blocks(const mock_prefix_cache *c);

#endif /* SMFW_MOCK_PREFIX_CACHE_H */
