/*
 * synthetic.c - the "synthetic" dataset plugin: prompts of a target input
 * length (normal, mean/stddev in estimated tokens) cut from a text corpus
 * shipped with smfw, with output budgets from the output mean/stddev.
 * Seeded: the same seed gives the same prompts. With --tokenizer the lengths
 * are exact: each prompt is cut where that tokenizer counts the target.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/dataset.h>
#include <smfw/dataset_formats.h>
#include <smfw/log.h>
#include <smfw/plugin.h>
#include <smfw/tokenizer.h>

#define SYNTHETIC_MAX_COUNT 1000000

typedef struct synthetic_ctx {
    smfw_text_corpus *corpus;
    char path[1024];
    char sha256[65];
    uint64_t rng;
    int64_t count, made;
    double in_mean, in_stddev, out_mean, out_stddev;
    smfw_tokenizer *tok; /* --tokenizer: exact lengths */
    int64_t inexact;     /* prompts no cut of which had exactly the target */
} synthetic_ctx;

/* Bytes of the longest prefix of t that ends on a UTF-8 boundary and has at most n tokens
 * (binary search: counts grow with the prefix, up to a merge at the cut), then the first
 * prefix after it that has exactly n, if one is near. *got is the prefix's count. */
static size_t cut_to_tokens(smfw_tokenizer *tok, const char *t, size_t len, int64_t n,
                            long long *got, smfw_error *err) {
    size_t lo = 0, hi = len;
    long long at_lo = 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        while (mid < len && ((unsigned char)t[mid] & 0xC0) == 0x80) mid++;
        if (mid > hi) mid = hi;
        long long c = smfw_tokenizer_count(tok, t, mid, err);
        if (c < 0) return (size_t)-1;
        if (c <= n) {
            if (mid == lo) break;
            lo = mid;
            at_lo = c;
        } else {
            size_t back = mid - 1;
            while (back > lo && ((unsigned char)t[back] & 0xC0) == 0x80) back--;
            hi = back;
        }
    }
    for (size_t p = lo, steps = 0; at_lo < n && p < len && steps < 16; steps++) {
        p++;
        while (p < len && ((unsigned char)t[p] & 0xC0) == 0x80) p++;
        long long c = smfw_tokenizer_count(tok, t, p, err);
        if (c < 0) return (size_t)-1;
        if (c == n) {
            lo = p;
            at_lo = c;
        }
    }
    *got = at_lo;
    return lo;
}

static smfw_status synthetic_open(const smfw_settings *settings, const smfw_dataset_params *params,
                                  void **out, smfw_error *err) {
    *out = NULL;
    if (!params || params->size < offsetof(smfw_dataset_params, quiet) + sizeof params->quiet)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "synthetic: dataset parameters too old");
    if (params->input_tokens_mean < 1)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "synthetic prompts need --input-tokens-mean of 1 or more (got %g)",
                              params->input_tokens_mean);
    if (params->output_tokens_mean < 1)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "synthetic prompts need --output-tokens-mean of 1 or more (got %g)",
                              params->output_tokens_mean);
    synthetic_ctx *c = calloc(1, sizeof *c);
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    const char *corpus = settings ? smfw_settings_get(settings, "corpus") : NULL;
    if (corpus && *corpus)
        snprintf(c->path, sizeof c->path, "%s", corpus);
    else
        snprintf(c->path, sizeof c->path, "%s/synthetic_corpus.txt",
                 params->data_dir ? params->data_dir : ".");
    int64_t count = settings ? smfw_settings_get_int(settings, "count", 0) : 0;
    if (count <= 0) count = params->count_hint > 0 ? params->count_hint : 100;
    if (count > SYNTHETIC_MAX_COUNT) count = SYNTHETIC_MAX_COUNT;
    c->count = count;
    c->rng = params->random_seed;
    c->in_mean = params->input_tokens_mean;
    c->in_stddev = params->input_tokens_stddev;
    c->out_mean = params->output_tokens_mean;
    c->out_stddev = params->output_tokens_stddev;
    smfw_status st = smfw_text_corpus_load(c->path, &c->corpus, err);
    if (st == SMFW_OK) st = smfw_file_sha256(c->path, c->sha256, err);
    const char *spec =
        params->size >= offsetof(smfw_dataset_params, tokenizer) + sizeof params->tokenizer
            ? params->tokenizer
            : NULL;
    if (st == SMFW_OK && spec && *spec) {
        smfw_error te;
        smfw_error_clear(&te);
        if (smfw_tokenizer_new(spec, &c->tok, &te) != SMFW_OK)
            st = smfw_error_set(err, te.status == SMFW_ERR_NOT_FOUND ? SMFW_ERR_CONFIG : te.status,
                                "--tokenizer %s: %s", spec, te.message);
    }
    if (st != SMFW_OK) {
        smfw_tokenizer_free(c->tok);
        smfw_text_corpus_free(c->corpus);
        free(c);
        return st;
    }
    *out = c;
    return SMFW_OK;
}

static smfw_status synthetic_next(void *ctx, smfw_prompt *out, smfw_error *err) {
    synthetic_ctx *c = ctx;
    if (c->made >= c->count) return SMFW_DONE;
    int64_t tokens = smfw_dataset_rand_normal(&c->rng, c->in_mean, c->in_stddev, 1);
    uint64_t start = smfw_dataset_rand_next(&c->rng);
    int64_t budget = smfw_dataset_rand_normal(&c->rng, c->out_mean, c->out_stddev, 1);
    size_t len = 0;
    /* With a tokenizer, take more than the estimate says and cut at the exact count. */
    char *text = smfw_text_corpus_take(c->corpus, start, c->tok ? tokens * 2 + 16 : tokens, &len);
    if (!text) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory making a prompt");
    if (c->tok) {
        long long got = 0;
        size_t cut = cut_to_tokens(c->tok, text, len, tokens, &got, err);
        if (cut == (size_t)-1) {
            free(text);
            return err ? err->status : SMFW_ERR_INTERNAL;
        }
        text[cut] = '\0';
        len = cut;
        if (got != tokens) c->inexact++;
        tokens = got;
    }
    out->text = text;
    out->text_len = len;
    out->output_length = budget;
    out->input_tokens = tokens;
    c->made++;
    return SMFW_OK;
}

static void synthetic_info(void *ctx, smfw_dataset_info *out) {
    synthetic_ctx *c = ctx;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", "synthetic");
    snprintf(out->file, sizeof out->file, "%s", c->path);
    snprintf(out->sha256, sizeof out->sha256, "%s", c->sha256);
    snprintf(out->token_lengths, sizeof out->token_lengths, "%s", c->tok ? "exact" : "estimated");
    snprintf(out->format, sizeof out->format, "%s", "synthetic");
    out->count = c->count;
}

static void synthetic_close(void *ctx) {
    synthetic_ctx *c = ctx;
    if (!c) return;
    if (c->inexact)
        SMFW_LOG_WARN("synthetic",
                      "%lld of %lld prompts had no cut with exactly the drawn token count (a "
                      "merge across the cut); each is the nearest count below it",
                      (long long)c->inexact, (long long)c->made);
    smfw_tokenizer_free(c->tok);
    smfw_text_corpus_free(c->corpus);
    free(c);
}

static smfw_status synthetic_control(void *ctx, int op, void *arg) {
    (void)ctx;
    (void)op;
    (void)arg;
    return SMFW_ERR_UNSUPPORTED;
}

static const smfw_dataset_ops synthetic_ops = {sizeof synthetic_ops, synthetic_open,
                                               synthetic_next,       synthetic_info,
                                               synthetic_close,      synthetic_control};

static const smfw_setting_decl synthetic_settings[] = {
    {"corpus", SMFW_SETTING_PATH, NULL,
     "text the prompts are cut from (default: synthetic_corpus.txt in the data folder)", NULL, NULL,
     0, "FILE"},
    {"count", SMFW_SETTING_INT, "0",
     "distinct prompts to make (0: one per request of the run, else 100)", NULL, NULL, 0, "N"},
    SMFW_SETTINGS_END};

SMFW_PLUGIN_DEFINE(smfw_dataset_synthetic, SMFW_PLUGIN_DATASET, "synthetic", "1.0.0",
                   "prompts of a target token length cut from a bundled corpus (seeded)",
                   synthetic_settings, &synthetic_ops)
