/*
 * aws_text.h - the AWS layer's small text helpers (internal): SigV4's URI
 * percent-coding, appended to an smfw_buf, and a bounded string copy.
 */
#ifndef SMFW_AWS_TEXT_H
#define SMFW_AWS_TEXT_H

#include <stddef.h>

#include <smfw/buf.h>

/* Percent-encode per SigV4: everything but A-Z a-z 0-9 - _ . ~ (and '/' when keep_slash). */
void aws_uri_encode(smfw_buf *b, const char *s, size_t len, int keep_slash);
/* Decode %XX sequences (invalid ones are kept literally); '+' is not special. */
void aws_uri_decode(smfw_buf *b, const char *s, size_t len);

/* Copy a C string, truncating to cap-1 bytes; always NUL-terminates (cap > 0). */
void aws_strlcpy(char *dst, const char *src, size_t cap);

#endif
