/*
 * shard.h - splitting one test run over several load-generator processes or
 * machines (`smfw run --shard I/N`), deterministically, so that the union of
 * the shards' requests is exactly the request sequence one unsharded run
 * would send, and `smfw merge` can recompute the aggregates of the whole.
 *
 * The split (docs/scaling.md):
 *   - requests are dealt round-robin: shard I (1-based) sends the global
 *     requests I-1, I-1+N, I-1+2N, ... of the unsharded run, so its k-th
 *     request (k from 0) is global request k*N + I-1 and uses the prompt the
 *     unsharded run would use for that request (same seed, same sampled order);
 *   - integer budgets (request count, concurrency) are split so the shares
 *     add up to the total: total/N, plus one for the first total%N shards;
 *   - a request rate is divided by N;
 *   - warm-up requests and durations are not split: every shard warms up and
 *     runs for the whole duration.
 */
#ifndef SMFW_SHARD_H
#define SMFW_SHARD_H

#include <stdint.h>

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One shard of a run: index in 1..count. {1, 1} is the whole run. */
typedef struct smfw_shard {
    uint32_t index;
    uint32_t count;
} smfw_shard;

/**
 * Parse "I/N" (1 <= I <= N <= 100000; spaces allowed around the numbers), or
 * "$VAR/N" / "$VAR+K/N": I from the environment variable VAR (plus K), for job
 * engines whose task index is 0-based (Kubernetes, AWS Batch).
 * NULL or "" gives the whole run {1, 1}. Errors say what was expected.
 */
SMFW_API smfw_status smfw_shard_parse(const char *text, smfw_shard *out, smfw_error *err);

/** "I/N" into buf (16 bytes are enough). */
SMFW_API const char *smfw_shard_format(const smfw_shard *shard, char *buf, size_t size);

/** This shard's share of an integer budget: total/N + (I-1 < total%N). */
SMFW_API uint64_t smfw_shard_share(const smfw_shard *shard, uint64_t total);

/** Global request index of this shard's k-th request (k from 0): k*N + I-1. */
SMFW_API uint64_t smfw_shard_global_index(const smfw_shard *shard, uint64_t k);

/** Does global request g belong to this shard? (g mod N == I-1) */
SMFW_API int smfw_shard_owns(const smfw_shard *shard, uint64_t g);

/** This shard's share of a request rate (rate / N). */
SMFW_API double smfw_shard_rate(const smfw_shard *shard, double total_rate);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_SHARD_H */
