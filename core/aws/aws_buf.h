/*
 * aws_buf.h - growable byte buffer used by the AWS layer (internal).
 *
 * An allocation failure is sticky: later appends do nothing and
 * aws_buf_failed() reports it once at the end, so builders stay linear.
 */
#ifndef SMFW_AWS_BUF_H
#define SMFW_AWS_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include <smfw/smfw.h>

typedef struct aws_buf {
    char *data; /* always NUL-terminated when non-NULL */
    size_t len;
    size_t cap;
    int failed;
} aws_buf;

void aws_buf_init(aws_buf *b);
void aws_buf_free(aws_buf *b);
void aws_buf_reset(aws_buf *b);
int aws_buf_reserve(aws_buf *b, size_t extra);
void aws_buf_append(aws_buf *b, const void *data, size_t len);
void aws_buf_puts(aws_buf *b, const char *s);
void aws_buf_putc(aws_buf *b, char c);
void aws_buf_printf(aws_buf *b, const char *fmt, ...) SMFW_PRINTF(2, 3);
int aws_buf_failed(const aws_buf *b);
/* Hand the data to the caller (never NULL unless allocation failed); the buffer is reset. */
char *aws_buf_take(aws_buf *b);

/* Percent-encode per SigV4: everything but A-Z a-z 0-9 - _ . ~ (and '/' when keep_slash). */
void aws_buf_uri_encode(aws_buf *b, const char *s, size_t len, int keep_slash);
/* Decode %XX sequences (invalid ones are kept literally); '+' is not special. */
void aws_buf_uri_decode(aws_buf *b, const char *s, size_t len);

/* Copy a C string, truncating to cap-1 bytes; always NUL-terminates (cap > 0). */
void aws_strlcpy(char *dst, const char *src, size_t cap);

#endif
