/*
 * results_s3.h - result folders in S3 (`smfw run -o s3://bucket/prefix/shard-I`,
 * `smfw merge s3://bucket/prefix/`), without the program touching the AWS client.
 *
 * While a run goes its local folder (a temporary one) is mirrored: the complete
 * lines appended to profile_export.jsonl go up every interval as numbered,
 * complete objects records-000001.jsonl, records-000002.jsonl, ... (single
 * PutObjects: an unfinished multipart upload is invisible, and a process killed
 * with SIGKILL could never complete one). At the end the whole folder is
 * uploaded under the prefix. A finished folder (a merge) goes up at once with
 * smfw_results_s3_put_dir(); smfw_results_s3_fetch_run() brings one run folder back.
 * See docs/scaling.md.
 */
#ifndef SMFW_RESULTS_S3_H
#define SMFW_RESULTS_S3_H

#include <smfw/config.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** 1 when `location` is an s3:// URI (a result folder in S3). */
SMFW_API int smfw_results_s3_is_uri(const char *location);

typedef struct smfw_results_s3_mirror smfw_results_s3_mirror;

/**
 * Start mirroring the run folder `local_dir` (it may not exist yet) to `uri`
 * (s3://bucket/prefix) with the [aws] settings of `cfg`: a thread puts, every
 * [smfw] s3_chunk_interval or as soon as s3_chunk_records wait, the new complete records of
 * local_dir/profile_export.jsonl as the next records-NNNNNN.jsonl. The bucket is checked first
 * (HeadBucket), and the [run] shard label, when set, put as shard.txt (an incomplete shard is still
 * placed). A shard (--shard I/N, N > 1) given a folder URI ending in '/' writes to its
 * shard-I under it (s3://b/run/ -> s3://b/run/shard-I), the layout `smfw merge` reads.
 */
SMFW_API smfw_status smfw_results_s3_mirror_start(const smfw_config *cfg, const char *uri,
                                                  const char *local_dir,
                                                  smfw_results_s3_mirror **out, smfw_error *err);

/** Where the mirror writes: "s3://bucket/prefix" (a shard's shard-I included). */
SMFW_API const char *smfw_results_s3_mirror_uri(const smfw_results_s3_mirror *mirror);

/**
 * Stop the thread, put the records not yet sent as a last chunk, then upload
 * every file of the local folder under the prefix. Frees the mirror (NULL is
 * a no-op). The first failure is returned; the local folder is kept.
 */
SMFW_API smfw_status smfw_results_s3_mirror_finish(smfw_results_s3_mirror *mirror, smfw_error *err);

/** One shard folder fetched from S3 by smfw_results_s3_fetch(). */
typedef struct smfw_results_s3_part {
    char label[1100]; /**< s3://bucket/prefix/NAME */
    char dir[4200];   /**< the local copy, loadable with smfw_results_load_dir() */
    int complete;     /**< had its final summary (else made from its record chunks) */
    size_t chunks;    /**< record chunk objects concatenated (0 when complete) */
    char shard[32];   /**< incomplete: the "I/N" its run put up first (shard.txt), else "" */
} smfw_results_s3_part;

/**
 * List the shard folders under s3://bucket/prefix/ and copy each into a new
 * folder under `local_root`: a shard with its final files (profile_export.jsonl
 * and profile_export_aiperf.json) is downloaded as it is; one without (killed
 * mid-run) gets its record chunks concatenated in order as its
 * profile_export.jsonl, only when allow_incomplete is set (else
 * SMFW_ERR_VALIDITY naming the shard). *parts is malloc'd (free()).
 */
SMFW_API smfw_status smfw_results_s3_fetch(const smfw_config *cfg, const char *uri,
                                           const char *local_root, int allow_incomplete,
                                           smfw_results_s3_part **parts, size_t *n_parts,
                                           smfw_error *err);

/**
 * Upload the finished run folder `local_dir` (every regular file, recursively) under
 * s3://bucket/prefix (`smfw merge -o s3://...`). The bucket is checked first (HeadBucket) and
 * a prefix that already holds an object is refused (SMFW_ERR_CONFIG): results are never
 * overwritten. local_dir NULL makes only those checks, before the work that fills the folder.
 */
SMFW_API smfw_status smfw_results_s3_put_dir(const smfw_config *cfg, const char *local_dir,
                                             const char *uri, smfw_error *err);

/**
 * One run folder in S3 (`smfw run -o s3://...`, `smfw merge -o s3://...`) for `smfw results
 * --s3`: when s3://bucket/prefix/profile_export_aiperf.json exists, `fingerprint` (may be NULL)
 * gets the ETags of it and of profile_export.jsonl (the download's cache key) and, when local_dir
 * (an existing folder) is given, every object below the prefix is copied into it except the
 * record chunks and shard.txt (profile_export.jsonl holds the chunks' records); a key that is no
 * plain relative path (an empty, hidden or control-character component) is skipped with a
 * warning. SMFW_ERR_CONFIG, saying what to run instead, when the prefix holds a run that did
 * not finish (chunks, no summary) or the shard folders of a run (merge them first);
 * SMFW_ERR_NOT_FOUND when it holds no run folder at all (e.g. a managed output.tar.gz).
 */
SMFW_API smfw_status smfw_results_s3_fetch_run(const smfw_config *cfg, const char *uri,
                                               const char *local_dir, char *fingerprint,
                                               size_t fp_size, smfw_error *err);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_RESULTS_S3_H */
