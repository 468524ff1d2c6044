/*
 * aws_ini.h - parser for the AWS shared config and credentials files
 * (internal). Follows botocore's reading: "[section]" headers, "key = value"
 * (or "key: value"), '#'/';' comment lines, keys case-insensitive, and
 * indented "sub = value" lines under an empty key stored as "key.sub"
 * (e.g. "s3 =\n  addressing_style = path").
 */
#ifndef SMFW_AWS_INI_H
#define SMFW_AWS_INI_H

#include <stddef.h>

#include <smfw/smfw.h>

typedef struct aws_ini aws_ini;

/* Parse text (not necessarily NUL-terminated). `name` is used in error messages. */
smfw_status aws_ini_parse(const char *text, size_t len, const char *name, aws_ini **out,
                          smfw_error *err);
/* Load a file; a missing file gives an empty document (*out non-NULL). */
smfw_status aws_ini_load(const char *path, aws_ini **out, smfw_error *err);
void aws_ini_free(aws_ini *ini);

/* Value of key in section (last one wins), or NULL. */
const char *aws_ini_get(const aws_ini *ini, const char *section, const char *key);
int aws_ini_has_section(const aws_ini *ini, const char *section);
size_t aws_ini_count(const aws_ini *ini);

#endif
