/*
 * aws_buf.h - the AWS layer's text buffer (smfw_buf) and its URI coding (internal).
 */
#ifndef SMFW_AWS_BUF_H
#define SMFW_AWS_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include <smfw/buf.h>
#include <smfw/smfw.h>

/* The AWS layer's builders use smfw's buffer under their historical names. */
typedef smfw_buf aws_buf;
#define aws_buf_init      smfw_buf_init
#define aws_buf_free      smfw_buf_free
#define aws_buf_reset     smfw_buf_reset
#define aws_buf_reserve   smfw_buf_reserve
#define aws_buf_append    smfw_buf_append
#define aws_buf_puts      smfw_buf_puts
#define aws_buf_putc      smfw_buf_putc
#define aws_buf_printf    smfw_buf_printf
#define aws_buf_failed(b) ((b)->failed)
#define aws_buf_take      smfw_buf_take

/* Percent-encode per SigV4: everything but A-Z a-z 0-9 - _ . ~ (and '/' when keep_slash). */
void aws_buf_uri_encode(aws_buf *b, const char *s, size_t len, int keep_slash);
/* Decode %XX sequences (invalid ones are kept literally); '+' is not special. */
void aws_buf_uri_decode(aws_buf *b, const char *s, size_t len);

/* Copy a C string, truncating to cap-1 bytes; always NUL-terminates (cap > 0). */
void aws_strlcpy(char *dst, const char *src, size_t cap);

#endif
