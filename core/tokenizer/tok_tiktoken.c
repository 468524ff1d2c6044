/* tok_tiktoken.c - OpenAI's tiktoken encodings: the ranks file (base64 token,
 * rank) plus the built-in pattern and special tokens of o200k_base and
 * cl100k_base, as in tiktoken_ext/openai_public.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tok_internal.h"

typedef struct tiktoken_def {
    const char *name;
    const char *pattern;
    const char *specials[6];
    uint32_t special_ids[6];
    uint32_t n_ranks; /* the published file's line count, a sanity check */
} tiktoken_def;

#define CONTRACTIONS "(?i:'s|'t|'re|'ve|'m|'ll|'d)"
static const tiktoken_def DEFS[] = {
    {"o200k_base",
     "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]"
     "+" CONTRACTIONS "?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}"
     "\\p{Lo}\\p{M}]*" CONTRACTIONS
     "?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
     {"<|endoftext|>", "<|endofprompt|>"},
     {199999, 200018},
     199998},
    {"cl100k_base",
     CONTRACTIONS
     "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
     "\\s+(?!\\S)|\\s+",
     {"<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>"},
     {100257, 100258, 100259, 100260, 100276},
     100256},
};

static int b64val(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Decode standard base64 (with '=' padding) into out; -1 if malformed. */
static long b64decode(const char *s, size_t n, unsigned char *out, size_t cap) {
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '=') break;
        int v = b64val((unsigned char)s[i]);
        if (v < 0) return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o >= cap) return -1;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    return (long)o;
}

smfw_status tok_parse_ranks(tok_bpe *m, const char *text, size_t len, const char *where,
                            smfw_error *err) {
    if (tok_strmap_init(&m->vocab, 1 << 17))
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    unsigned char tok[1024];
    size_t line = 0;
    for (size_t i = 0; i < len;) {
        const char *eol = memchr(text + i, '\n', len - i);
        size_t e = eol ? (size_t)(eol - text) : len;
        const char *s = text + i;
        size_t n = e - i;
        line++;
        i = e + 1;
        if (n && s[n - 1] == '\r') n--;
        if (!n) continue;
        if (m->vocab.n >= TOK_MAX_VOCAB)
            return smfw_error_set(err, SMFW_ERR_CONFIG, "%s: more ranks than smfw's cap", where);
        if (n >= 2 && s[0] == '!' && s[1] == ' ') {
            /* js-tiktoken's compact form: "! <first rank> <b64> <b64> ..." */
            char *end;
            size_t k = 2;
            unsigned long r = strtoul(s + k, &end, 10);
            if (end == s + k || (size_t)(end - s) > n) goto badline;
            k = (size_t)(end - s);
            while (k < n) {
                while (k < n && s[k] == ' ') k++;
                size_t a = k;
                while (k < n && s[k] != ' ') k++;
                if (k == a) break;
                long bl = b64decode(s + a, k - a, tok, sizeof tok);
                if (bl <= 0 || r >= UINT32_MAX) goto badline;
                if (tok_strmap_put(&m->vocab, (char *)tok, (size_t)bl, (uint32_t)r++))
                    return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            }
            continue;
        }
        const char *sp = memchr(s, ' ', n);
        if (!sp) goto badline;
        long bl = b64decode(s, (size_t)(sp - s), tok, sizeof tok);
        char *end;
        unsigned long r = strtoul(sp + 1, &end, 10);
        if (bl <= 0 || end != s + n || r >= UINT32_MAX) goto badline;
        if (tok_strmap_put(&m->vocab, (char *)tok, (size_t)bl, (uint32_t)r))
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        continue;
    badline:
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "%s:%zu: not a tiktoken ranks line (\"<base64> <rank>\")", where,
                              line);
    }
    for (int b = 0; b < 256; b++) {
        char c = (char)b;
        uint32_t r;
        if (!tok_strmap_get(&m->vocab, &c, 1, &r))
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "%s: the ranks have no entry for the single byte 0x%02X", where,
                                  b);
    }
    return SMFW_OK;
}

smfw_status tok_load_tiktoken(smfw_tokenizer *t, const char *encoding, const char *ranks_path,
                              smfw_error *err) {
    const tiktoken_def *d = NULL;
    for (size_t i = 0; i < sizeof DEFS / sizeof DEFS[0]; i++)
        if (strcmp(DEFS[i].name, encoding) == 0) d = &DEFS[i];
    if (!d)
        return smfw_error_set(
            err, SMFW_ERR_UNSUPPORTED,
            "unknown tiktoken encoding \"%s\" (smfw knows o200k_base and cl100k_base)", encoding);
    char *text;
    size_t len;
    smfw_status st = tok_read_file(ranks_path, TOK_MAX_FILE_BYTES, &text, &len, err);
    if (st != SMFW_OK) return st;
    t->bpe.mode = TOK_BPE_RANKS;
    t->bpe.byte_level = 1;
    st = tok_parse_ranks(&t->bpe, text, len, ranks_path, err);
    free(text);
    if (st != SMFW_OK) return st;
    if (t->bpe.vocab.n != d->n_ranks)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "%s: %zu ranks where %s has %u; is this the right file?", ranks_path,
                              t->bpe.vocab.n, d->name, d->n_ranks);
    t->pres = calloc(1, sizeof *t->pres);
    if (!t->pres) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    t->n_pres = 1;
    t->pres[0].kind = TOK_PRE_SPLIT;
    t->pres[0].behavior = TOK_SPLIT_ISOLATED;
    t->pres[0].has_re = 1;
    st = tok_regex_compile(&t->pres[0].re, d->pattern, strlen(d->pattern), 0, d->name, err);
    if (st != SMFW_OK) return st;
    size_t n = 0;
    while (n < 6 && d->specials[n]) n++;
    t->added = calloc(n, sizeof *t->added);
    if (!t->added) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        tok_added *a = &t->added[i];
        a->len = strlen(d->specials[i]);
        a->content = malloc(a->len + 1);
        if (!a->content) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        memcpy(a->content, d->specials[i], a->len + 1);
        a->id = d->special_ids[i];
        a->special = 1;
        t->n_added++;
    }
    snprintf(t->name, sizeof t->name, "%s", d->name);
    st = tok_added_build(&t->raw_added, t->added, t->n_added, 0, err);
    if (st == SMFW_OK) st = tok_added_build(&t->norm_added, t->added, 0, 1, err);
    return st;
}
