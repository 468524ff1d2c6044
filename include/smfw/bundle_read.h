/*
 * bundle_read.h - bounded reads of files that came in a bundle (see
 * bundle_limits.h for the limits and their settings).
 */
#ifndef SMFW_BUNDLE_READ_H
#define SMFW_BUNDLE_READ_H

#include <stdint.h>
#include <stdio.h>

#include <smfw/buf.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The whole of path (NUL-terminated, *data freed by the caller), or an error naming path,
 *  max_bytes and setting (e.g. "bundle.max_summary_bytes") when it is larger. */
SMFW_API smfw_status smfw_bundle_read_file(const char *path, int64_t max_bytes, const char *setting,
                                           char **data, size_t *len, smfw_error *err);

enum { SMFW_LINE_OK = 0, SMFW_LINE_EOF = -1, SMFW_LINE_TOO_LONG = -2, SMFW_LINE_NOMEM = -3 };

/** One line of fp into line (without the newline; NUL-terminated unless empty); a line longer than
 *  max_bytes is skipped and reported as SMFW_LINE_TOO_LONG. */
SMFW_API int smfw_bundle_getline(FILE *fp, smfw_buf *line, int64_t max_bytes);

/** Record in dir/source.json the identity of the bundle downloaded there (a string naming
 *  bucket, key, ETag and, for a job, its ARN). */
SMFW_API smfw_status smfw_bundle_source_write(const char *dir, const char *identity,
                                              smfw_error *err);

/** The first 12 hex digits of the identity's SHA-256 (NUL-terminated): the part of a cache
 *  folder's name that changes with the bundle's identity. */
SMFW_API void smfw_bundle_source_digest(const char *identity, char out[13]);

/** 1 when dir/source.json records exactly this identity. */
SMFW_API int smfw_bundle_source_matches(const char *dir, const char *identity);

#ifdef __cplusplus
}
#endif

#endif
