/*
 * jscan.h - validate a JSON text once, then read it in place: the request
 * bodies on the mock's hot path are parsed without building a tree or
 * allocating. The grammar is RFC 8259's, as strict as jansson's decoder
 * (UTF-8 checked, no control characters or NUL escapes in strings, paired
 * surrogates, integers that fit in 64 bits), nesting limited to
 * MJ_MAX_DEPTH.
 */
#ifndef SMFW_MOCK_JSCAN_H
#define SMFW_MOCK_JSCAN_H

#include <stddef.h>

typedef enum mj_type {
    MJ_NONE = 0,
    MJ_OBJECT,
    MJ_ARRAY,
    MJ_STRING,
    MJ_NUMBER,
    MJ_TRUE,
    MJ_FALSE,
    MJ_NULL
} mj_type;

/* A view of one value in the validated text; a string's span includes its quotes. */
typedef struct mj_value {
    mj_type type;
    const char *p;
    size_t len;
} mj_value;

#define MJ_MAX_DEPTH 512

/* Validate n bytes as one JSON document. 0 and the root, or -1 with a sentence in err. */
int mj_parse(const char *s, size_t n, mj_value *root, char *err, size_t err_size);

/* Iterate an object's members or an array's elements (key is NULL for arrays). */
typedef struct mj_iter {
    const char *p, *end;
    int object;
} mj_iter;
void mj_iter_init(mj_iter *it, const mj_value *container);
int mj_next(mj_iter *it, mj_value *key, mj_value *value);

/* A string (view with quotes) equals name after unescaping. */
int mj_string_is(const mj_value *s, const char *name);
/* Bytes of a string's UTF-8 text after unescaping. */
size_t mj_string_length(const mj_value *s);
/* A number's value; *is_integer says whether it has no fraction or exponent. */
double mj_number(const mj_value *v, int *is_integer, long long *integer);

#endif /* SMFW_MOCK_JSCAN_H */
