/*
 * bundle_limits.h - how much smfw reads from a bundle or a service it did
 * not write (SageMaker's output.tar.gz, an S3 object, a folder given to
 * `smfw results` or `merge`). Every reader of untrusted bytes checks these
 * before it allocates, and names the file and the limit when one is hit.
 * The [bundle] section of the configuration sets them (docs/managed.md,
 * "Trust").
 */
#ifndef SMFW_BUNDLE_LIMITS_H
#define SMFW_BUNDLE_LIMITS_H

#include <stdint.h>

#include <smfw/config.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smfw_bundle_limits {
    int64_t max_summary_bytes;   /**< profile_export_aiperf.json, read whole */
    int64_t max_record_bytes;    /**< one line of profile_export.jsonl */
    int64_t max_array_items;     /**< one JSON list (inter_chunk_latency) */
    int64_t max_records;         /**< records of one run */
    int64_t max_run_items;       /**< list items (inter_chunk_latency) of all records of a run */
    int64_t max_download_bytes;  /**< one downloaded object */
    int64_t download_timeout_ms; /**< one download, start to end */
    int64_t low_speed_bytes;     /**< a download slower than this ... */
    int64_t low_speed_seconds;   /**< ... for this long is abandoned */
    int64_t max_list_pages;      /**< pages of one listing (S3, SageMaker) */
    int64_t max_list_bytes;      /**< response bytes of one listing */
} smfw_bundle_limits;

/** The built-in defaults. */
SMFW_API void smfw_bundle_limits_default(smfw_bundle_limits *l);

/** The [bundle] section of cfg over the defaults (cfg may be NULL). */
SMFW_API void smfw_bundle_limits_from_config(const smfw_config *cfg, smfw_bundle_limits *l);

/** The limits the readers of this process use (the defaults until set). */
SMFW_API const smfw_bundle_limits *smfw_bundle_limits_get(void);
SMFW_API void smfw_bundle_limits_set(const smfw_bundle_limits *l);

#ifdef __cplusplus
}
#endif

#endif
