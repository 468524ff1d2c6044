/*
 * json_view.h - read JSON in place: validate a byte buffer once, then look
 * values up as views into it, without allocating and without a tree.
 *
 * For the hot paths (every streamed chunk of every request in the direct
 * backend, every request body in the mock), where building a jansson tree
 * would allocate per message. Use jansson for anything that builds or keeps
 * JSON; use this to read untrusted bytes quickly.
 *
 * Grammar: RFC 8259, strictly. One value with optional surrounding
 * whitespace (space, tab, CR, LF); strings are well-formed UTF-8 (RFC 3629:
 * no overlong forms, no encoded surrogates, nothing above U+10FFFF) with no
 * raw control characters, the escapes \" \\ \/ \b \f \n \r \t \uXXXX, and
 * every \u surrogate paired (so a decoded string is always valid UTF-8;
 * \u0000 is accepted and decodes to a NUL byte); numbers follow the RFC's
 * grammar with any number of digits (reading one reports overflow, see
 * smfw_json_int64); nesting at most SMFW_JSON_MAX_DEPTH arrays/objects.
 * This is jansson's decoder with JSON_DECODE_ANY | JSON_ALLOW_NUL, except
 * that jansson also refuses numbers that overflow int64/double and nests
 * up to 2048 (tests/fuzz/fuzz_json_view.c checks the two agree otherwise).
 *
 * Views: a view is a type and a byte span of the validated text (a
 * string's span includes its quotes). Views only come from smfw_json_parse()
 * or smfw_json_find() and from lookups in their views; they stay valid as
 * long as the text. Lookups rescan the validated span, never past it.
 *
 * Duplicate member names: lookups see what a tree would hold (jansson,
 * Python's json): the last duplicate wins, and nothing of an earlier one.
 */
#ifndef SMFW_JSON_VIEW_H
#define SMFW_JSON_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum smfw_json_type {
    SMFW_JSON_NONE = 0, /**< no value (not found, or not parsed) */
    SMFW_JSON_OBJECT,
    SMFW_JSON_ARRAY,
    SMFW_JSON_STRING,
    SMFW_JSON_NUMBER,
    SMFW_JSON_TRUE,
    SMFW_JSON_FALSE,
    SMFW_JSON_NULL
} smfw_json_type;

/** One value: its type and its bytes in the validated text (strings with their quotes). */
typedef struct smfw_json_view {
    smfw_json_type type;
    const char *p;
    size_t len;
} smfw_json_view;

/** Deepest nesting of arrays and objects accepted ("[[1]]" nests 2). */
#define SMFW_JSON_MAX_DEPTH 512

/** Why a text is not JSON: a fixed English phrase and the byte offset where it was found. */
typedef struct smfw_json_error {
    const char
        *message; /**< e.g. "invalid UTF-8 in a string"; static, never NULL after a failure */
    size_t offset;
} smfw_json_error;

/**
 * Validate `n` bytes of `s` as exactly one JSON text. Returns 0 and the root
 * view, or -1 (root->type is SMFW_JSON_NONE; *err, when err is not NULL, says
 * why and where).
 */
SMFW_API int smfw_json_parse(const char *s, size_t n, smfw_json_view *root, smfw_json_error *err);

/* ---- one pass: validate and find several paths ------------------------------------------- */

/** Most paths in one set, and most segments in one path. */
#define SMFW_JSON_PATHS_MAX         32
#define SMFW_JSON_PATH_MAX_SEGMENTS 16

/**
 * Compiled dotted paths ("choices.0.delta.content"): a segment of digits is
 * an array index (or, in an object, a member of that name); any other
 * segment names an object member; the empty path "" is the root. Member
 * names holding '.' cannot be written. The path texts are borrowed: they
 * must outlive the set. Fill with smfw_json_paths_init(); fields are private.
 */
typedef struct smfw_json_paths {
    size_t count;
    size_t deepest; /* most segments of any path */
    struct smfw_json_path_compiled {
        size_t segments;
        const char *seg[SMFW_JSON_PATH_MAX_SEGMENTS];
        size_t seg_len[SMFW_JSON_PATH_MAX_SEGMENTS];
        size_t index[SMFW_JSON_PATH_MAX_SEGMENTS]; /* SIZE_MAX: not an index */
    } path[SMFW_JSON_PATHS_MAX];
} smfw_json_paths;

/**
 * Compile `count` paths (at most SMFW_JSON_PATHS_MAX, each at most
 * SMFW_JSON_PATH_MAX_SEGMENTS segments, no empty segment). 0, or -1 when
 * one is not a usable path (then the set holds none).
 */
SMFW_API int smfw_json_paths_init(smfw_json_paths *set, const char *const *paths, size_t count);

/**
 * smfw_json_parse() that, in the same single pass over the text, finds the
 * value at each path of `set`: found[i] is the view of paths[i], type
 * SMFW_JSON_NONE when the document has no such value (found has set->count
 * entries; set may be NULL for none). Lookups are as a tree would answer
 * them (see duplicate member names above). Returns 0, or -1 when the text
 * is not JSON (then every found[i] is SMFW_JSON_NONE).
 */
SMFW_API int smfw_json_find(const char *s, size_t n, const smfw_json_paths *set,
                            smfw_json_view *root, smfw_json_view *found, smfw_json_error *err);

/* ---- lookups in a view -------------------------------------------------------------------- */

/** Member `key` (NUL-terminated, compared after unescaping) of an object: 1 found, 0 not. */
SMFW_API int smfw_json_get(const smfw_json_view *obj, const char *key, smfw_json_view *out);

/** Element `index` of an array: 1 found, 0 not. */
SMFW_API int smfw_json_index(const smfw_json_view *arr, size_t index, smfw_json_view *out);

/** The value at a dotted path (syntax of smfw_json_paths) below `v`: 1 found, 0 not. */
SMFW_API int smfw_json_path(const smfw_json_view *v, const char *path, smfw_json_view *out);

/** Elements of an array or members of an object (duplicates counted); 0 for anything else. */
SMFW_API size_t smfw_json_count(const smfw_json_view *v);

/** Iteration over a container's members (in text order, duplicates included) or elements. */
typedef struct smfw_json_iter {
    const char *p, *end;
    int object;
} smfw_json_iter;

/** Start iterating `container` (a scalar or SMFW_JSON_NONE iterates nothing). */
SMFW_API void smfw_json_iter_init(smfw_json_iter *it, const smfw_json_view *container);

/**
 * The next member (key: the name as a string view; NULL to skip it) or
 * element (key, when given, gets type SMFW_JSON_NONE). 1, or 0 at the end.
 */
SMFW_API int smfw_json_next(smfw_json_iter *it, smfw_json_view *key, smfw_json_view *value);

/* ---- scalars -------------------------------------------------------------------------------- */

/**
 * Unescape a string into out (capacity cap; NUL-terminated when cap > 0).
 * Returns the full decoded length in bytes, which may exceed cap - 1: then
 * the output is truncated (possibly inside a UTF-8 sequence). 0 for a
 * non-string. The decoded text is valid UTF-8; it holds a NUL byte where the
 * text had \u0000.
 */
SMFW_API size_t smfw_json_string_decode(const smfw_json_view *v, char *out, size_t cap);

/** Bytes of a string's decoded text (0 for a non-string). */
SMFW_API size_t smfw_json_string_length(const smfw_json_view *v);

/** A string with at least one character. */
SMFW_API int smfw_json_string_nonempty(const smfw_json_view *v);

/** A string whose decoded text is the `len` bytes of `text`. */
SMFW_API int smfw_json_string_equals_n(const smfw_json_view *v, const char *text, size_t len);

/** A string whose decoded text is `text` (NUL-terminated). */
SMFW_API int smfw_json_string_equals(const smfw_json_view *v, const char *text);

/** Results of the number readers. */
#define SMFW_JSON_NUM_OK       0
#define SMFW_JSON_NUM_NOT      (-1) /**< not a number, or (smfw_json_int64) not integral */
#define SMFW_JSON_NUM_OVERFLOW (-2) /**< out of range: *out holds the nearest value */

/**
 * A number with an integral value ("42", "-0", "3.0", "1e2") as int64.
 * SMFW_JSON_NUM_OK; SMFW_JSON_NUM_NOT for a non-number or a fraction
 * ("2.5", *out untouched); SMFW_JSON_NUM_OVERFLOW beyond int64 (*out is
 * INT64_MAX or INT64_MIN).
 */
SMFW_API int smfw_json_int64(const smfw_json_view *v, int64_t *out);

/**
 * A number as the nearest double. SMFW_JSON_NUM_OK (underflow to 0 or a
 * subnormal included); SMFW_JSON_NUM_NOT for a non-number;
 * SMFW_JSON_NUM_OVERFLOW beyond the double range (*out is +-HUGE_VAL).
 */
SMFW_API int smfw_json_double(const smfw_json_view *v, double *out);

/** A number written without fraction or exponent ("12", "-0"; not "1.0" or "1e2"). */
SMFW_API int smfw_json_is_integer_literal(const smfw_json_view *v);

/** true/false into *out (1/0): 0, or -1 for any other value. */
SMFW_API int smfw_json_bool(const smfw_json_view *v, int *out);

/** The value is JSON null. */
SMFW_API int smfw_json_is_null(const smfw_json_view *v);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_JSON_VIEW_H */
