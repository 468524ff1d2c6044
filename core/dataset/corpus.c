/*
 * corpus.c - the text corpus of synthetic prompts: words cut into text of an
 * exact estimated token length, and the seeded generator every dataset
 * helper uses.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dataset_internal.h"

typedef struct corpus_word {
    size_t offset, len;
    int64_t tokens_spaced;   /* estimate of the word followed by a space */
    int64_t tokens_isolated; /* estimate of the word at the end of a text */
} corpus_word;

struct smfw_text_corpus {
    char *text; /* words separated by single spaces, with a trailing space */
    size_t text_len;
    corpus_word *words;
    size_t n_words;
};

static int is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

smfw_status smfw_text_corpus_from_text(const char *src, size_t len, smfw_text_corpus **out,
                                       smfw_error *err) {
    *out = NULL;
    size_t bad = 0;
    if (!smfw_ds_utf8_valid((const unsigned char *)src, len, &bad))
        return smfw_error_set(err, SMFW_ERR_CONFIG, "corpus: invalid UTF-8 at byte %zu", bad);
    smfw_text_corpus *c = calloc(1, sizeof *c);
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    c->text = malloc(len + 2);
    size_t cap_words = 1024;
    c->words = malloc(cap_words * sizeof *c->words);
    if (!c->text || !c->words) goto nomem;
    for (size_t i = 0; i < len;) {
        while (i < len && (is_space((unsigned char)src[i]) || src[i] == '\0')) i++;
        if (i >= len) break;
        size_t start = i;
        while (i < len && !is_space((unsigned char)src[i]) && src[i] != '\0') i++;
        if (c->n_words == cap_words) {
            corpus_word *grown = realloc(c->words, cap_words * 2 * sizeof *grown);
            if (!grown) goto nomem;
            c->words = grown;
            cap_words *= 2;
        }
        corpus_word *w = &c->words[c->n_words++];
        w->offset = c->text_len;
        w->len = i - start;
        memcpy(c->text + c->text_len, src + start, w->len);
        c->text_len += w->len;
        c->text[c->text_len++] = ' ';
    }
    c->text[c->text_len] = '\0';
    if (c->n_words == 0) {
        smfw_text_corpus_free(c);
        return smfw_error_set(err, SMFW_ERR_CONFIG, "corpus: no words");
    }
    for (size_t k = 0; k < c->n_words; k++) {
        corpus_word *w = &c->words[k];
        w->tokens_spaced = smfw_estimate_tokens(c->text + w->offset, w->len + 1);
        w->tokens_isolated = smfw_estimate_tokens(c->text + w->offset, w->len);
    }
    *out = c;
    return SMFW_OK;
nomem:
    smfw_text_corpus_free(c);
    return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory loading the corpus");
}

smfw_status smfw_text_corpus_load(const char *path, smfw_text_corpus **out, smfw_error *err) {
    char *data = NULL;
    size_t len = 0;
    smfw_status st = smfw_ds_read_file(path, &data, &len, err);
    if (st != SMFW_OK) return st;
    st = smfw_text_corpus_from_text(data, len, out, err);
    free(data);
    if (st != SMFW_OK) smfw_error_prefix(err, "%s: ", path);
    return st;
}

void smfw_text_corpus_free(smfw_text_corpus *c) {
    if (!c) return;
    free(c->text);
    free(c->words);
    free(c);
}

size_t smfw_text_corpus_words(const smfw_text_corpus *c) {
    return c ? c->n_words : 0;
}

/* Longest prefix of a word (cut on a UTF-8 boundary) whose estimate at the end of a text is
 * exactly `tokens`; 0 if there is none. */
static size_t prefix_for_tokens(const char *w, size_t len, int64_t tokens) {
    for (size_t n = len; n > 0; n--) {
        if (n < len && ((unsigned char)w[n] & 0xC0) == 0x80) continue;
        int64_t t = smfw_estimate_tokens(w, n);
        if (t == tokens) return n;
        if (t < tokens) break;
    }
    return 0;
}

char *smfw_text_corpus_take(const smfw_text_corpus *c, uint64_t start, int64_t tokens,
                            size_t *len_out) {
    if (len_out) *len_out = 0;
    if (!c || tokens < 1) return NULL;
    size_t cap = (size_t)tokens * 8 + 16, len = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t i = (size_t)(start % c->n_words);
    int64_t remaining = tokens;
    size_t skipped = 0;
    while (remaining > 0) {
        const corpus_word *w = &c->words[i];
        const char *wt = c->text + w->offset;
        size_t take = w->len;
        int last = 0;
        if (w->tokens_isolated == remaining) {
            last = 1;
        } else if (w->tokens_spaced >= remaining) {
            /* This word would reach or pass the target: end on a cut of it. */
            take = prefix_for_tokens(wt, w->len, remaining);
            if (take == 0) {
                /* Cannot happen for words without spaces; stay safe: skip the word. */
                if (++skipped > c->n_words) {
                    free(out);
                    return NULL;
                }
                i = (i + 1) % c->n_words;
                continue;
            }
            last = 1;
        }
        if (len + take + 2 > cap) {
            size_t ncap = (len + take + 2) * 2;
            char *grown = realloc(out, ncap);
            if (!grown) {
                free(out);
                return NULL;
            }
            out = grown;
            cap = ncap;
        }
        memcpy(out + len, wt, take);
        len += take;
        if (last) break;
        out[len++] = ' ';
        remaining -= w->tokens_spaced;
        i = (i + 1) % c->n_words;
    }
    out[len] = '\0';
    if (len_out) *len_out = len;
    return out;
}

uint64_t smfw_dataset_rand_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int64_t smfw_dataset_rand_normal(uint64_t *s, double mean, double stddev, int64_t min) {
    double v = mean;
    if (stddev > 0) {
        /* Box-Muller with u1 in (0, 1] so log() is finite. */
        double u1 = ((double)(smfw_dataset_rand_next(s) >> 11) + 1.0) / 9007199254740992.0;
        double u2 = (double)(smfw_dataset_rand_next(s) >> 11) / 9007199254740992.0;
        v = mean + stddev * sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);
    }
    if (!(v == v) || v > 1e15) v = 1e15; /* NaN or absurd: clamp */
    int64_t r = (int64_t)llround(v);
    return r < min ? min : r;
}
