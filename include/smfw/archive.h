/*
 * archive.h - safe extraction of untrusted archives (AIPerf bundles such as
 * SageMaker's output.tar.gz) and discovery of the AIPerf runs inside a
 * bundle.
 *
 * The extractor reads tar archives (ustar, pax, GNU; plain or compressed
 * with gzip, bzip2, xz or zstd) with libarchive and writes them below one
 * folder only. It refuses, naming the entry and the reason:
 *   - absolute paths and any ".." component;
 *   - symbolic links whose target is absolute or contains "..", and hard
 *     links whose target is not an already extracted regular file of the
 *     same archive (so no link can lead outside the folder);
 *   - writing through a symbolic link extracted earlier;
 *   - devices, FIFOs, sockets and other special files;
 *   - control characters in names, paths longer than max_path_bytes or
 *     deeper than max_depth;
 *   - more than max_entries entries or max_total_bytes bytes of content
 *     (counted while decompressing, so a compression bomb is stopped early;
 *     sparse holes count their apparent size and every hard link its
 *     target's size, as a reader reads them in full) and any single file
 *     over max_file_bytes.
 * Files are created 0644 (0755 when the entry is executable), folders 0755;
 * owners, ACLs, extended attributes and file flags from the archive are
 * ignored. On a refusal everything the call extracted is removed again, so
 * a hostile archive leaves nothing behind.
 */
#ifndef SMFW_ARCHIVE_H
#define SMFW_ARCHIVE_H

#include <stdio.h>

#include <smfw/results.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Limits of one extraction. Zero fields take the defaults below. */
typedef struct smfw_archive_limits {
    uint64_t max_total_bytes; /**< content bytes of all files (default 4 GiB) */
    uint64_t max_file_bytes;  /**< content bytes of one file (default 2 GiB) */
    uint64_t max_entries;     /**< entries of any type (default 10000) */
    uint32_t max_path_bytes;  /**< length of an entry's path (default 1024) */
    uint32_t max_depth;       /**< path components of an entry (default 32) */
} smfw_archive_limits;

#define SMFW_ARCHIVE_DEFAULT_MAX_TOTAL_BYTES (4ull << 30)
#define SMFW_ARCHIVE_DEFAULT_MAX_FILE_BYTES  (2ull << 30)
#define SMFW_ARCHIVE_DEFAULT_MAX_ENTRIES     10000u
#define SMFW_ARCHIVE_DEFAULT_MAX_PATH_BYTES  1024u
#define SMFW_ARCHIVE_DEFAULT_MAX_DEPTH       32u

/** What an extraction wrote. */
typedef struct smfw_archive_stats {
    uint64_t entries; /**< entries extracted (files, folders, links) */
    uint64_t files;   /**< regular files */
    uint64_t bytes;   /**< content bytes written */
} smfw_archive_stats;

/**
 * Extract the archive file at `archive_path` into `dest_dir`, which must not
 * exist or be an empty folder (it is created, parents too). `limits` and
 * `stats` may be NULL. A refused or unreadable archive returns
 * SMFW_ERR_PROTOCOL (SMFW_ERR_IO for local file system failures) with a
 * sentence naming the entry and the reason, after removing what was written.
 */
SMFW_API smfw_status smfw_archive_extract_file(const char *archive_path, const char *dest_dir,
                                               const smfw_archive_limits *limits,
                                               smfw_archive_stats *stats, smfw_error *err);

/** The same for an archive held in memory. */
SMFW_API smfw_status smfw_archive_extract_memory(const void *data, size_t len, const char *dest_dir,
                                                 const smfw_archive_limits *limits,
                                                 smfw_archive_stats *stats, smfw_error *err);

/**
 * Remove a folder tree without following symbolic links (links are removed,
 * never their targets). A missing folder is not an error.
 */
SMFW_API smfw_status smfw_remove_tree(const char *path, smfw_error *err);

/** One AIPerf run found in a bundle. */
typedef struct smfw_bundle_run {
    char dir[4096];      /**< folder holding profile_export_aiperf.json and/or .jsonl */
    int64_t concurrency; /**< N of a "concurrency_<N>" folder, 0 when not a sweep level */
} smfw_bundle_run;

/**
 * Find the AIPerf runs of an extracted bundle (or a direct run's folder):
 * the folder itself when it holds profile_export_aiperf.json or
 * profile_export.jsonl, else each "concurrency_<N>" folder below it (sorted
 * by N), else the same one level further down (a bundle packed as
 * "output/..."). Looks at most three levels deep and never follows
 * symbolic links. *out is malloc'd (free()); *n_out may be 0 with
 * SMFW_ERR_NOT_FOUND and a sentence saying what was looked for.
 */
SMFW_API smfw_status smfw_bundle_find_runs(const char *dir, smfw_bundle_run **out, size_t *n_out,
                                           smfw_error *err);

/**
 * Print the console summary of one run (smfw_run_summary_print() in app.h) to `out`
 * under `title`, judged against `gate` (a fraction, e.g. 0.01), as the managed
 * backend prints each level of a bundle. Returns 1 when the run failed its validity
 * gate (info.gate_tripped, or an error rate above `gate`), else 0.
 */
SMFW_API int smfw_bundle_print_headline(const smfw_results *r, const char *title, double gate,
                                        FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_ARCHIVE_H */
