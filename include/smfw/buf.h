/*
 * buf.h - a growable NUL-terminated byte buffer for building text (JSON,
 * CSV, HTML, HTTP requests) without checking every append.
 *
 * An allocation failure is sticky: later appends do nothing, `failed` stays
 * set, and smfw_buf_take() returns NULL, so builders stay linear and check
 * once at the end (or test the 0/-1 that smfw_buf_reserve() and
 * smfw_buf_append() return). smfw_buf_reset() clears the failure, so a buffer
 * reused per message (the direct backend's stream buffers) starts each one clean.
 */
#ifndef SMFW_BUF_H
#define SMFW_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smfw_buf {
    char *data; /**< NUL-terminated when non-NULL */
    size_t len;
    size_t cap;
    int failed; /**< an allocation failed; the content is incomplete */
} smfw_buf;

/** Empty buffer (no allocation yet). */
SMFW_API void smfw_buf_init(smfw_buf *b);
/** Release the memory and re-init. */
SMFW_API void smfw_buf_free(smfw_buf *b);
/** Keep the memory, forget the content and the failure. */
SMFW_API void smfw_buf_reset(smfw_buf *b);
/** Room for `extra` more bytes (plus the NUL); 0 or -1 (then `failed` is set). */
SMFW_API int smfw_buf_reserve(smfw_buf *b, size_t extra);
/** Append `len` bytes (kept NUL-terminated); 0 or -1 (then `failed` is set). */
SMFW_API int smfw_buf_append(smfw_buf *b, const void *data, size_t len);
/** Append, keeping the content to at most `max_len` bytes (the rest is dropped, not an error). */
SMFW_API void smfw_buf_append_capped(smfw_buf *b, const void *data, size_t len, size_t max_len);
/** Drop the first `n` bytes (all of them when n >= len), keeping the memory: a parser's
 *  leftover of a partly consumed input moves to the front. */
SMFW_API void smfw_buf_consume(smfw_buf *b, size_t n);
SMFW_API void smfw_buf_puts(smfw_buf *b, const char *s);
SMFW_API void smfw_buf_putc(smfw_buf *b, char c);
SMFW_API void smfw_buf_printf(smfw_buf *b, const char *fmt, ...) SMFW_PRINTF(2, 3);
SMFW_API void smfw_buf_vprintf(smfw_buf *b, const char *fmt, va_list ap);
/** A JSON string literal (quotes and escapes; control characters as \u00XX). */
SMFW_API void smfw_buf_json_string(smfw_buf *b, const char *s);
/** A double as Python's repr() writes it (smfw_format_double). */
SMFW_API void smfw_buf_double(smfw_buf *b, double v);
/** Hand the data to the caller (free() it; "" for an empty buffer), NULL if an allocation failed.
 */
SMFW_API char *smfw_buf_take(smfw_buf *b);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_BUF_H */
