/*
 * fuzz_json_view.c - the core's JSON view against jansson, a decoder nobody
 * here wrote: both accept and refuse the same texts, and for an accepted
 * one every value the view reads (types, member lookups, array elements,
 * decoded strings, integers and doubles, one-pass path finds) is what
 * jansson's tree holds.
 *
 * Deliberate differences (json_view.h): jansson refuses numbers that
 * overflow int64 or double (the view accepts RFC 8259's grammar and reports
 * overflow when a number is read) and member names holding \u0000 (the
 * view has no such limit); the view refuses nesting beyond
 * SMFW_JSON_MAX_DEPTH, where jansson allows 2048; jansson 2.14 passes over
 * some raw NUL bytes outside strings ("[1\0]"), which RFC 8259 does not
 * allow and the view refuses.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/json_view.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_json_view: %s (line %d)\n", #cond, __LINE__);                    \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static void same_value(const smfw_json_view *v, json_t *j, int depth);

static void same_string(const smfw_json_view *v, json_t *j) {
    CHECK(v->type == SMFW_JSON_STRING);
    size_t n = json_string_length(j);
    const char *want = json_string_value(j);
    CHECK(smfw_json_string_length(v) == n);
    CHECK(smfw_json_string_equals_n(v, want, n));
    CHECK(smfw_json_string_nonempty(v) == (n > 0));
    char small[8];
    CHECK(smfw_json_string_decode(v, small, sizeof small) == n);
    size_t shown = n < sizeof small - 1 ? n : sizeof small - 1;
    CHECK(memcmp(small, want, shown) == 0 && small[shown] == '\0');
    char *full = malloc(n + 1);
    CHECK(full != NULL);
    CHECK(smfw_json_string_decode(v, full, n + 1) == n);
    CHECK(memcmp(full, want, n) == 0);
    free(full);
}

static void same_object(const smfw_json_view *v, json_t *j, int depth) {
    CHECK(v->type == SMFW_JSON_OBJECT);
    CHECK(smfw_json_count(v) >= json_object_size(j)); /* the view counts duplicates */
    const char *key;
    json_t *member;
    json_object_foreach(j, key, member) {
        smfw_json_view got;
        CHECK(smfw_json_get(v, key, &got)); /* jansson's keys hold no NUL */
        same_value(&got, member, depth + 1);
    }
    /* Every name the view iterates is one of jansson's. */
    smfw_json_iter it;
    smfw_json_view k, val;
    smfw_json_iter_init(&it, v);
    while (smfw_json_next(&it, &k, &val)) {
        char name[64];
        size_t n = smfw_json_string_decode(&k, name, sizeof name);
        if (n < sizeof name && !memchr(name, '\0', n)) CHECK(json_object_get(j, name) != NULL);
    }
}

static void same_value(const smfw_json_view *v, json_t *j, int depth) {
    if (depth > 64) return; /* deep enough: the validity check covers the rest */
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        same_object(v, j, depth);
        break;
    case JSON_ARRAY: {
        CHECK(v->type == SMFW_JSON_ARRAY);
        size_t n = json_array_size(j);
        CHECK(smfw_json_count(v) == n);
        for (size_t i = 0; i < n && i < 64; i++) {
            smfw_json_view e;
            CHECK(smfw_json_index(v, i, &e));
            same_value(&e, json_array_get(j, i), depth + 1);
        }
        smfw_json_view none;
        CHECK(!smfw_json_index(v, n, &none));
        break;
    }
    case JSON_STRING:
        same_string(v, j);
        break;
    case JSON_INTEGER: {
        int64_t x;
        CHECK(v->type == SMFW_JSON_NUMBER && smfw_json_is_integer_literal(v));
        CHECK(smfw_json_int64(v, &x) == SMFW_JSON_NUM_OK && x == json_integer_value(j));
        break;
    }
    case JSON_REAL: {
        double d;
        CHECK(v->type == SMFW_JSON_NUMBER && !smfw_json_is_integer_literal(v));
        CHECK(smfw_json_double(v, &d) == SMFW_JSON_NUM_OK);
        CHECK(d == json_real_value(j));
        int64_t x;
        int rc = smfw_json_int64(v, &x);
        double r = json_real_value(j);
        if (rc == SMFW_JSON_NUM_OK) CHECK((double)x == r);
        if (rc == SMFW_JSON_NUM_OVERFLOW) CHECK(r >= 9.2e18 || r <= -9.2e18);
        break;
    }
    case JSON_TRUE:
    case JSON_FALSE: {
        int b;
        CHECK(smfw_json_bool(v, &b) == 0 && b == json_is_true(j));
        break;
    }
    case JSON_NULL:
        CHECK(smfw_json_is_null(v));
        break;
    }
}

/* Paths to find: the first members/elements down from the root, as dotted paths. */
static size_t collect_paths(json_t *j, char *prefix, size_t plen, char paths[][96], size_t n,
                            size_t max) {
    if (n >= max) return n;
    if (json_is_object(j)) {
        const char *key;
        json_t *member;
        int taken = 0;
        json_object_foreach(j, key, member) {
            size_t kl = strlen(key);
            if (n >= max) break;
            if (!kl || strchr(key, '.') || plen + kl + 2 > 96 || taken++ == 3) continue;
            char next[96];
            int m = snprintf(next, sizeof next, "%s%s%s", prefix, plen ? "." : "", key);
            memcpy(paths[n++], next, (size_t)m + 1);
            if (n >= max) return n;
            n = collect_paths(member, next, (size_t)m, paths, n, max);
        }
    } else if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j) && i < 2 && n < max; i++) {
            char next[96];
            int m = snprintf(next, sizeof next, "%s%s%zu", prefix, plen ? "." : "", i);
            if (m <= 0 || (size_t)m >= sizeof next) continue;
            memcpy(paths[n++], next, (size_t)m + 1);
            n = collect_paths(json_array_get(j, i), next, (size_t)m, paths, n, max);
        }
    }
    return n;
}

/* A path's value in jansson's tree, with the view's rule for digit segments. */
static json_t *jansson_path(json_t *j, const char *path) {
    char seg[96];
    while (*path && j) {
        const char *dot = strchr(path, '.');
        size_t len = dot ? (size_t)(dot - path) : strlen(path);
        memcpy(seg, path, len);
        seg[len] = '\0';
        int digits = strspn(seg, "0123456789") == len;
        if (json_is_array(j) && digits)
            j = json_array_get(j, strtoul(seg, NULL, 10));
        else
            j = json_object_get(j, seg);
        path = dot ? dot + 1 : path + len;
    }
    return j;
}

static void same_finds(const char *s, size_t n, json_t *j) {
    char paths[SMFW_JSON_PATHS_MAX][96];
    size_t count = collect_paths(j, "", 0, paths, 0, SMFW_JSON_PATHS_MAX - 1);
    paths[count][0] = '\0'; /* the root itself */
    count++;
    const char *ptrs[SMFW_JSON_PATHS_MAX];
    for (size_t i = 0; i < count; i++) ptrs[i] = paths[i];
    smfw_json_paths set;
    if (smfw_json_paths_init(&set, ptrs, count) != 0) return; /* a path with 17 segments */
    smfw_json_view root, found[SMFW_JSON_PATHS_MAX];
    CHECK(smfw_json_find(s, n, &set, &root, found, NULL) == 0);
    for (size_t i = 0; i < count; i++) {
        json_t *want = jansson_path(j, paths[i]);
        smfw_json_view by_path;
        int hit = smfw_json_path(&root, paths[i], &by_path);
        CHECK(hit == (want != NULL));
        CHECK((found[i].type != SMFW_JSON_NONE) == hit);
        if (!hit) continue;
        CHECK(found[i].type == by_path.type && found[i].p == by_path.p &&
              found[i].len == by_path.len);
        same_value(&found[i], want, 60);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *s = (const char *)data;
    smfw_json_view root;
    smfw_json_error err = {NULL, 0};
    int ours = smfw_json_parse(s, size, &root, &err) == 0;
    json_error_t je;
    json_t *j = json_loadb(s, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (ours && !j) {
        enum json_error_code code = json_error_code(&je);
        CHECK(code == json_error_numeric_overflow || code == json_error_null_byte_in_key);
        return 0;
    }
    if (!ours) {
        CHECK(err.message != NULL && err.offset <= size);
        CHECK(root.type == SMFW_JSON_NONE);
        if (j && memchr(s, '\0', size)) {
            /* jansson passes over some raw NUL bytes ("[1\0]"): without them the view agrees. */
            char *stripped = malloc(size);
            size_t m = 0;
            CHECK(stripped != NULL);
            for (size_t i = 0; i < size; i++)
                if (s[i]) stripped[m++] = s[i];
            CHECK(smfw_json_parse(stripped, m, &root, NULL) == 0);
            free(stripped);
        } else if (j) {
            CHECK(strcmp(err.message, "nested too deeply") == 0);
        }
        json_decref(j);
        return 0;
    }
    same_value(&root, j, 0);
    same_finds(s, size, j);
    json_decref(j);
    return 0;
}
