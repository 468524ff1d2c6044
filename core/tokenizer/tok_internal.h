/*
 * tok_internal.h - the pieces of the tokenizer engine (core/tokenizer/).
 *
 * Pipeline (Hugging Face order): added/special tokens are cut out of the raw
 * text first; each remaining segment is normalized, cut again by "normalized"
 * added tokens, pre-tokenized into pieces, and each piece goes through the BPE
 * model. tiktoken encodings use the same pipeline: specials, one Split regex,
 * BPE by ranks.
 */
#ifndef SMFW_TOK_INTERNAL_H
#define SMFW_TOK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <smfw/tokenizer.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* Caps for untrusted tokenizer.json / ranks files. */
#define TOK_MAX_FILE_BYTES   (512u << 20)
#define TOK_MAX_VOCAB        (8u << 20)
#define TOK_MAX_MERGES       (16u << 20)
#define TOK_MAX_ADDED        (1u << 20)
#define TOK_MAX_TOKEN_BYTES  (64u << 10)
#define TOK_MAX_PATTERN      (64u << 10)
#define TOK_MAX_PIPELINE     64
#define TOK_PCRE_MATCH_LIMIT 10000000u
#define TOK_PCRE_DEPTH_LIMIT 100000u

/* ---- growable byte/uint buffers (scratch; never shrink) ---------------- */
typedef struct tok_bytes {
    char *p;
    size_t len, cap;
} tok_bytes;
int tok_bytes_reserve(tok_bytes *b, size_t extra);
int tok_bytes_append(tok_bytes *b, const void *p, size_t n);
void tok_bytes_free(tok_bytes *b);

/* ---- string -> id map (open addressing, strings in one arena) ----------- */
typedef struct tok_strmap {
    char *arena;
    size_t arena_len, arena_cap;
    uint32_t *slots; /* entry index + 1, 0 = empty */
    size_t mask;
    struct tok_strent {
        uint64_t hash;
        uint32_t off, len, id;
    } * ents;
    size_t n, cap;
} tok_strmap;
int tok_strmap_init(tok_strmap *m, size_t expected);
void tok_strmap_free(tok_strmap *m);
/* Insert; an existing key keeps its first id. Returns 0, or -1 on memory. */
int tok_strmap_put(tok_strmap *m, const char *s, size_t len, uint32_t id);
/* 1 and *id when found. */
int tok_strmap_get(const tok_strmap *m, const char *s, size_t len, uint32_t *id);
uint64_t tok_hash(const void *p, size_t len);

/* ---- (id, id) -> (rank, new id) for HF merges --------------------------- */
typedef struct tok_pairmap {
    struct tok_pairent {
        uint64_t key; /* (a << 32 | b) + 1; 0 = empty */
        uint32_t rank, id;
    } * slots;
    size_t mask, n;
} tok_pairmap;
int tok_pairmap_init(tok_pairmap *m, size_t expected);
void tok_pairmap_free(tok_pairmap *m);
int tok_pairmap_put(tok_pairmap *m, uint32_t a, uint32_t b, uint32_t rank, uint32_t id);
int tok_pairmap_get(const tok_pairmap *m, uint32_t a, uint32_t b, uint32_t *rank, uint32_t *id);

/* ---- regex (PCRE2, UTF + UCP, JIT when available) ----------------------- */
typedef struct tok_regex {
    pcre2_code *code;
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    pcre2_jit_stack *jit;
} tok_regex;
/* Compiles pattern (Oniguruma/Rust syntax as tokenizer.json and tiktoken write
 * it; \s is rewritten to Unicode White_Space). literal: match the string as is. */
smfw_status tok_regex_compile(tok_regex *re, const char *pattern, size_t len, int literal,
                              const char *where, smfw_error *err);
void tok_regex_free(tok_regex *re);
/* Next match at or after start: 1 with [*ms, *me), 0 none, <0 error. */
int tok_regex_next(tok_regex *re, const char *s, size_t len, size_t start, size_t *ms, size_t *me);

/* ---- pieces: spans into a byte buffer ----------------------------------- */
typedef struct tok_span {
    uint32_t off, len;
} tok_span;
typedef struct tok_spans {
    tok_span *v;
    size_t n, cap;
} tok_spans;
int tok_spans_push(tok_spans *s, size_t off, size_t len);
void tok_spans_free(tok_spans *s);

/* ---- normalizers --------------------------------------------------------- */
typedef enum {
    TOK_NORM_NFC,
    TOK_NORM_NFD,
    TOK_NORM_NFKC,
    TOK_NORM_NFKD,
    TOK_NORM_REPLACE,
    TOK_NORM_PREPEND,
    TOK_NORM_LOWERCASE,
    TOK_NORM_STRIP
} tok_norm_kind;
typedef struct tok_norm {
    tok_norm_kind kind;
    tok_regex re; /* REPLACE */
    char *str;    /* REPLACE content / PREPEND text */
    size_t str_len;
    int left, right; /* STRIP */
} tok_norm;
/* Apply the sequence to in, writing out (replaced). */
smfw_status tok_normalize(const tok_norm *steps, size_t n, const char *in, size_t len,
                          tok_bytes *out, tok_bytes *tmp, smfw_error *err);
void tok_norm_free(tok_norm *n);

/* ---- pre-tokenizers ------------------------------------------------------ */
typedef enum {
    TOK_SPLIT_REMOVED,
    TOK_SPLIT_ISOLATED,
    TOK_SPLIT_MERGED_PREV,
    TOK_SPLIT_MERGED_NEXT,
    TOK_SPLIT_CONTIGUOUS
} tok_split_behavior;
typedef enum { TOK_PRE_SPLIT, TOK_PRE_BYTELEVEL, TOK_PRE_METASPACE } tok_pre_kind;
typedef enum { TOK_PREPEND_ALWAYS, TOK_PREPEND_FIRST, TOK_PREPEND_NEVER } tok_prepend_scheme;
typedef struct tok_pre {
    tok_pre_kind kind;
    tok_regex re; /* SPLIT; BYTELEVEL with use_regex */
    int has_re;
    tok_split_behavior behavior;
    int invert;
    int add_prefix_space; /* BYTELEVEL */
    char repl[8];         /* METASPACE replacement (UTF-8) */
    size_t repl_len;
    tok_prepend_scheme prepend;
    int split; /* METASPACE */
} tok_pre;
void tok_pre_free(tok_pre *p);

/* ---- added / special tokens --------------------------------------------- */
typedef struct tok_added {
    char *content;
    size_t len;
    uint32_t id;
    unsigned single_word : 1, lstrip : 1, rstrip : 1, normalized : 1, special : 1;
} tok_added;
typedef struct tok_added_set {
    tok_added *v;
    size_t n;
    tok_strmap map;      /* content -> index in v */
    uint32_t *lens[256]; /* distinct lengths of tokens starting with that byte, descending */
    uint32_t nlens[256];
} tok_added_set;
/* Build the matcher over the tokens whose normalized flag equals `normalized`. */
smfw_status tok_added_build(tok_added_set *set, const tok_added *all, size_t n, int normalized,
                            smfw_error *err);
void tok_added_free(tok_added_set *set);
/* Leftmost-longest match at or after start (honouring single_word, lstrip,
 * rstrip). 1 with the match span (after strips) and *id, else 0. */
int tok_added_find(const tok_added_set *set, const char *s, size_t len, size_t start, size_t *ms,
                   size_t *me, uint32_t *id);

/* ---- BPE model ------------------------------------------------------------ */
typedef enum { TOK_BPE_MERGES, TOK_BPE_RANKS } tok_bpe_mode;
typedef struct tok_bpe {
    tok_bpe_mode mode;
    tok_strmap vocab; /* bytes (byte-level decoded) -> id; RANKS: bytes -> rank */
    tok_pairmap merges;
    int byte_level; /* symbols are bytes, not characters */
    int byte_fallback;
    int ignore_merges;
    int fuse_unk;
    int has_unk;
    uint32_t unk_id;
    uint32_t byte_ids[256]; /* <0xXX> ids for byte_fallback; UINT32_MAX if absent */
} tok_bpe;
typedef struct tok_bpe_scratch {
    struct tok_sym {
        uint32_t start, len, id;
        int32_t prev, next;
    } * syms;
    size_t syms_cap;
    struct tok_merge {
        uint32_t rank, pos, len, id;
    } * heap;
    size_t heap_cap;
} tok_bpe_scratch;
void tok_bpe_free(tok_bpe *m);
void tok_bpe_scratch_free(tok_bpe_scratch *s);
/* Encode one pre-tokenized piece, appending ids. */
smfw_status tok_bpe_encode(const tok_bpe *m, tok_bpe_scratch *s, const char *piece, size_t len,
                           smfw_token_ids *out, smfw_error *err);
int tok_ids_push(smfw_token_ids *out, uint32_t id);

/* ---- the tokenizer -------------------------------------------------------- */
struct smfw_tokenizer {
    char name[256];
    tok_norm *norms;
    size_t n_norms;
    tok_pre *pres;
    size_t n_pres;
    tok_bpe bpe;
    tok_added *added;
    size_t n_added;
    tok_added_set raw_added;           /* matched on the raw text */
    tok_added_set norm_added;          /* matched on normalized segments */
    uint32_t *prefix_ids, *suffix_ids; /* post-processor, single sequence */
    size_t n_prefix, n_suffix;
    /* scratch */
    tok_bytes clean, norm, tmp, pa, pb;
    tok_spans sa, sb;
    tok_bpe_scratch bs;
};

/* A Hugging Face model id (org/name[@revision]) to its cached snapshot folder,
 * downloading tokenizer.json (+ tokenizer_config.json) when needed. */
smfw_status tok_hub_resolve(const char *spec, char *dir, size_t cap, smfw_error *err);
/* A tokenizer from tokenizer.json text (tests, fuzzing). */
smfw_status tok_new_from_json_text(const char *json, size_t len, const char *where,
                                   smfw_tokenizer **out, smfw_error *err);
/* Loaders: fill a zeroed tokenizer. */
smfw_status tok_load_hf_json(smfw_tokenizer *t, const char *path, smfw_error *err);
smfw_status tok_load_hf_json_text(smfw_tokenizer *t, const char *json, size_t len,
                                  const char *where, smfw_error *err);
smfw_status tok_load_tiktoken(smfw_tokenizer *t, const char *encoding, const char *ranks_path,
                              smfw_error *err);
/* Parse a ranks file's text (".tiktoken": "base64 rank" lines, or js-tiktoken's
 * compact "! offset b64 b64 ..." lines) into m->vocab. */
smfw_status tok_parse_ranks(tok_bpe *m, const char *text, size_t len, const char *where,
                            smfw_error *err);
smfw_status tok_read_file(const char *path, size_t cap, char **out, size_t *out_len,
                          smfw_error *err);

/* Pre-tokenize one segment (already normalized) into spans over *buf. */
smfw_status tok_pretokenize(smfw_tokenizer *t, const char *seg, size_t len, int first_segment,
                            tok_bytes **buf, tok_spans **spans, smfw_error *err);

/* UTF-8 helpers. */
size_t tok_utf8_len(unsigned char lead); /* 1..4 for a valid lead */
uint32_t tok_utf8_decode(const char *s, size_t len, size_t *adv);
/* Replace out with text made valid (U+FFFD for each maximal invalid subpart). */
int tok_utf8_sanitize_into(const char *text, size_t len, tok_bytes *out);
/* Unicode White_Space (Rust char::is_whitespace). */
int tok_is_space(uint32_t c);

#endif
