/*
 * custom.c - the "custom" dataset plugin: the user's AIPerf-style JSONL file
 * (--dataset-file), single_turn, multi_turn or mooncake_trace lines. Every
 * line is validated before anything is sent; the core lists every bad line.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/dataset.h>
#include <smfw/dataset_formats.h>
#include <smfw/plugin.h>

typedef struct custom_ctx {
    smfw_jsonl_reader *reader;
    char path[1024];
    int64_t count;
} custom_ctx;

static smfw_status custom_open(const smfw_settings *settings, const smfw_dataset_params *params,
                               void **out, smfw_error *err) {
    *out = NULL;
    if (!params || params->size < offsetof(smfw_dataset_params, quiet) + sizeof params->quiet)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "custom: dataset parameters too old");
    if (!params->file || !*params->file)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "the custom dataset needs a JSONL file: --dataset-file PATH");
    smfw_jsonl_options o;
    memset(&o, 0, sizeof o);
    const char *format = settings ? smfw_settings_get(settings, "format") : NULL;
    if (format && smfw_dataset_format_parse(format, &o.format) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "[dataset.custom] format: unknown format \"%s\" (auto, single_turn, "
                              "multi_turn, mooncake_trace)",
                              format);
    const smfw_setting_binding block[] = {
        {NULL, "block_size", SMFW_BIND_INT64, offsetof(smfw_jsonl_options, block_tokens), 0},
        SMFW_BINDINGS_END};
    smfw_status bst = smfw_settings_bind(settings, block, &o, err);
    if (bst != SMFW_OK) return bst;
    if (o.block_tokens < 1)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "[dataset.custom] block_size must be >= 1");
    char corpus[1024];
    const char *corpus_setting = settings ? smfw_settings_get(settings, "corpus") : NULL;
    if (corpus_setting && *corpus_setting)
        snprintf(corpus, sizeof corpus, "%s", corpus_setting);
    else
        snprintf(corpus, sizeof corpus, "%s/synthetic_corpus.txt",
                 params->data_dir ? params->data_dir : ".");
    o.corpus_path = corpus;
    o.seed = params->random_seed;
    custom_ctx *c = calloc(1, sizeof *c);
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    snprintf(c->path, sizeof c->path, "%s", params->file);
    smfw_status st = smfw_jsonl_reader_open(c->path, &o, &c->reader, err);
    if (st != SMFW_OK) {
        free(c);
        return st;
    }
    *out = c;
    return SMFW_OK;
}

static smfw_status custom_next(void *ctx, smfw_prompt *out, smfw_error *err) {
    custom_ctx *c = ctx;
    smfw_status st = smfw_jsonl_reader_next(c->reader, out, err);
    if (st == SMFW_OK) c->count++;
    return st;
}

static void custom_info(void *ctx, smfw_dataset_info *out) {
    custom_ctx *c = ctx;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", "custom");
    snprintf(out->file, sizeof out->file, "%s", c->path);
    snprintf(out->sha256, sizeof out->sha256, "%s", smfw_jsonl_reader_sha256(c->reader));
    snprintf(out->token_lengths, sizeof out->token_lengths, "%s", "estimated");
    snprintf(out->format, sizeof out->format, "%s",
             smfw_dataset_format_name(smfw_jsonl_reader_format(c->reader)));
    out->count = c->count ? c->count : -1;
}

static void custom_close(void *ctx) {
    custom_ctx *c = ctx;
    if (!c) return;
    smfw_jsonl_reader_free(c->reader);
    free(c);
}

static smfw_status custom_control(void *ctx, int op, void *arg) {
    (void)ctx;
    (void)op;
    (void)arg;
    return SMFW_ERR_UNSUPPORTED;
}

static const smfw_dataset_ops custom_ops = {sizeof custom_ops, custom_open,  custom_next,
                                            custom_info,       custom_close, custom_control};

static const smfw_setting_decl custom_settings[] = {
    {"format", SMFW_SETTING_STRING, "auto",
     "line format: auto (from the lines), single_turn, multi_turn, mooncake_trace", NULL, NULL, 0,
     "FORMAT"},
    {"block_size", SMFW_SETTING_INT, "512",
     "tokens per hash_ids block of mooncake_trace lines (AIPerf --isl-block-size)", NULL, NULL, 0,
     "N"},
    {"corpus", SMFW_SETTING_PATH, NULL,
     "text corpus for mooncake_trace lines given as input_length (default: the bundled one)", NULL,
     NULL, 0, "FILE"},
    SMFW_SETTINGS_END};

SMFW_PLUGIN_DEFINE(smfw_dataset_custom, SMFW_PLUGIN_DATASET, "custom", "1.0.0",
                   "your JSONL file (--dataset-file): single_turn, multi_turn, mooncake_trace",
                   custom_settings, &custom_ops)
