/*
 * capture_s3.h - a Data Capture tree read straight from S3 (s3://BUCKET/PREFIX/):
 * every *.jsonl object under the prefix is fetched into a private temporary
 * folder, which is then read like a local one. The client takes the standard
 * AWS chain (environment, profile, instance role); a dataset plugin does not
 * see smfw's [aws] section, so a non-AWS endpoint is AWS_ENDPOINT_URL_S3 (or
 * AWS_ENDPOINT_URL).
 */
#ifndef CAPTURE_S3_H
#define CAPTURE_S3_H

#include <smfw/smfw.h>
#include <stddef.h>

/** Fetch the captures under `uri` into a new folder (its path in dir). */
smfw_status capture_s3_fetch(const char *uri, char *dir, size_t dir_size, smfw_error *err);

/** Remove a folder made by capture_s3_fetch(). */
void capture_s3_remove(const char *dir);

#endif
