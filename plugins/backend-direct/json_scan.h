/*
 * json_scan.h - validate JSON and look values up in place, without allocating.
 *
 * Every streamed chunk of every request is a small JSON document; parsing it
 * into a tree (jansson) would allocate per chunk on the hot path. Instead a
 * document is validated once (strict RFC 8259 grammar, nesting limited) and
 * values are returned as views (type + byte span) into the caller's text.
 * Lookups rescan the validated text, so they never read past it.
 */
#ifndef DIRECT_JSON_SCAN_H
#define DIRECT_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

typedef enum dj_type {
    DJ_NONE = 0,
    DJ_OBJECT,
    DJ_ARRAY,
    DJ_STRING,
    DJ_NUMBER,
    DJ_TRUE,
    DJ_FALSE,
    DJ_NULL
} dj_type;

/** A view of one value: for strings the span includes the quotes. */
typedef struct dj_value {
    dj_type type;
    const char *p;
    size_t len;
} dj_value;

/** Deepest nesting accepted. */
#define DJ_MAX_DEPTH 64

/**
 * Validate `n` bytes as exactly one JSON document (surrounding whitespace
 * allowed). Returns 0 and the root view, or -1 when the text is not JSON.
 */
int dj_parse(const char *s, size_t n, dj_value *root);

/** Member `key` (NUL-terminated, compared after unescaping) of an object. 1 found, 0 not. */
int dj_get(const dj_value *obj, const char *key, dj_value *out);

/** Element `index` of an array. 1 found, 0 not. */
int dj_index(const dj_value *arr, size_t index, dj_value *out);

/** Number of elements of an array or members of an object (0 for scalars). */
size_t dj_count(const dj_value *v);

/**
 * Follow a dotted path ("choices.0.delta.content"): a segment of digits
 * indexes an array, any other segment names an object member. 1 found, 0 not.
 */
int dj_path(const dj_value *root, const char *path, dj_value *out);

/** True for a string with at least one character. */
int dj_string_nonempty(const dj_value *v);

/** True when a string value equals `text` (NUL-terminated) after unescaping. */
int dj_string_equals(const dj_value *v, const char *text);

/**
 * Unescape a string value into out (capacity cap, NUL-terminated when cap >
 * 0). Returns the full decoded length (which may exceed cap - 1: then the
 * output is truncated). \u escapes become UTF-8, unpaired surrogates U+FFFD.
 */
size_t dj_string_decode(const dj_value *v, char *out, size_t cap);

/** An integer (or a number with an integral value) into *out. 1 ok, 0 not a usable integer. */
int dj_int64(const dj_value *v, int64_t *out);

#endif /* DIRECT_JSON_SCAN_H */
