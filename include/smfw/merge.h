/*
 * merge.h - one run's exact aggregates from several result folders: the
 * shards of a test driven from several processes or machines
 * (`smfw run --shard I/N`, see smfw/shard.h), or a managed bundle plus its
 * re-analysis. Aggregates are never averaged: every AIPerf metric and
 * percentile is recomputed from the union of the per-request records
 * (profile_export.jsonl) with smfw_results_compute(). Merging one folder
 * recomputes that folder's own aggregates.
 *
 * Program API (installed in include/smfw-program, smfw-program.pc): unstable,
 * it may change in any release; plugins use the SDK only.
 */
#ifndef SMFW_MERGE_H
#define SMFW_MERGE_H

#include <smfw/results.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Options of smfw_results_merge(); zero = strict. */
typedef struct smfw_merge_options {
    int allow_partial;    /**< merge although some shards of I/N are missing */
    int allow_mismatch;   /**< merge parts whose target, workload or shard count differ */
    int allow_incomplete; /**< merge parts whose record file holds fewer requests than their summary
                           */
    const smfw_goodput_slo *slos; /**< goodput SLOs for the recomputation (may be NULL) */
    size_t n_slos;
    const char *run_name; /**< name of the merged run (NULL: "<first run name>-merged") */
    const char
        *jsonl_path; /**< when set, the merged records are written there as profile_export.jsonl */
    int allow_start_spread; /**< merge (with a warning) shards that began too far apart */
} smfw_merge_options;

/** What was merged. */
typedef struct smfw_merge_report {
    size_t n_parts;
    size_t n_records;       /**< records in the merged run */
    size_t duplicates;      /**< records dropped because their x_request_id was already merged */
    uint32_t shard_count;   /**< N of the shards, 0 when the parts were not shards */
    char description[1024]; /**< one paragraph: parts, shards, records, duplicates */
    /* How together the parts began (from each part's smfw.client.start; see docs/scaling.md). */
    int start_known;          /**< every part recorded when it began */
    int start_barrier;        /**< every part waited for the same --start-at moment */
    double start_spread_ms;   /**< latest minus earliest start */
    double start_lateness_ms; /**< the latest start after the --start-at moment */
    double clock_error_ms;    /**< largest maxerror of the parts' clocks (when on several hosts) */
    size_t hosts;             /**< distinct hosts the parts ran on */
    double window_ms;         /**< the merged window (first request to last response) */
} smfw_merge_report;

/**
 * Merge the records of `parts` (borrowed; labels name them in messages,
 * e.g. their folders) into new results (*out, caller frees). Checks, each an
 * error naming the part unless an option allows it: every part has
 * per-request records and they cover its summary's request and error
 * counts; shards share one N, no index repeats, none is missing; target
 * (endpoint, inference component, URL), endpoint type, streaming, model and
 * dataset agree. Records are deep-copied in part order; a record whose
 * x_request_id was already taken is dropped and counted. The merged run
 * info comes from the first part, with shard cleared, concurrency, request
 * rate and request budget summed over shards, and the wall-clock window
 * spanning every part. A single part is a recomputation of that folder: it
 * keeps its shard label, and the other shards are not required.
 */
SMFW_API smfw_status smfw_results_merge(const smfw_results *const *parts, const char *const *labels,
                                        size_t n, const smfw_merge_options *opts,
                                        smfw_results **out, smfw_merge_report *report,
                                        smfw_error *err);

/** Deep copy of a record (strings, inter-chunk latencies, error) into *dst (initialised). */
SMFW_API smfw_status smfw_record_copy(smfw_record *dst, const smfw_record *src);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_MERGE_H */
