/*
 * capture_files.h - the Data Capture files under a folder, in time order.
 *
 * SageMaker writes PREFIX/ENDPOINT/VARIANT/yyyy/mm/dd/hh/MM-SS-mmm-UUID.jsonl;
 * any folder of that tree (the prefix, an endpoint, a variant, an hour) can be
 * given. Files are ordered by the time their path says (hour folder, then the
 * name's minute-second-millisecond), then by path.
 */
#ifndef CAPTURE_FILES_H
#define CAPTURE_FILES_H

#include <smfw/smfw.h>
#include <stddef.h>

typedef struct capture_file {
    char *path;
    char variant[128];  /**< the folder above yyyy, "" when the path does not say */
    char endpoint[128]; /**< the folder above the variant, "" when the path does not say */
    char order[64];     /**< "yyyymmddhhMMSSmmm" from the path, "" when it has none */
} capture_file;

typedef struct capture_files {
    capture_file *files;
    size_t count;
} capture_files;

/** Every *.jsonl file under dir (a single file is allowed too), sorted. */
smfw_status capture_files_find(const char *dir, capture_files *out, smfw_error *err);
void capture_files_free(capture_files *f);

#endif
