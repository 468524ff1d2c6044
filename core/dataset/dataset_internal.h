/*
 * dataset_internal.h - helpers shared by the dataset format readers in core/dataset/.
 */
#ifndef SMFW_DATASET_INTERNAL_H
#define SMFW_DATASET_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <smfw/dataset_formats.h>

/** Read a whole file into a malloc'd buffer (NUL-terminated; *len excludes the NUL). */
smfw_status smfw_ds_read_file(const char *path, char **data, size_t *len, smfw_error *err);

/** Hex SHA-256 of a buffer into hex[65]. */
void smfw_ds_sha256_hex(const void *data, size_t len, char hex[65]);

/** A fresh prompt with the "unknown" markers set (timestamp/delay/input_tokens -1). */
void smfw_ds_prompt_init(smfw_prompt *p);

/** Copy a string of known length into a malloc'd NUL-terminated one (NULL when out of memory). */
char *smfw_ds_strndup(const char *s, size_t n);

/** True when data[0..len) is valid UTF-8; else false with the offset of the first bad byte. */
int smfw_ds_utf8_valid(const unsigned char *data, size_t len, size_t *bad_offset);

#endif
