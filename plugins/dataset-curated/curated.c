/*
 * curated.c - the "curated" dataset plugin (the default): the bundled file of
 * 500 hand-written single-turn chat prompts, each with an output budget of
 * 32 tokens or more, found in the data folder without configuration.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/dataset.h>
#include <smfw/dataset_formats.h>
#include <smfw/plugin.h>

#define CURATED_FILE "curated.jsonl"

typedef struct curated_ctx {
    smfw_jsonl_reader *reader;
    char path[1024];
    int64_t count;
} curated_ctx;

static smfw_status curated_open(const smfw_settings *settings, const smfw_dataset_params *params,
                                void **out, smfw_error *err) {
    *out = NULL;
    if (!params || params->size < offsetof(smfw_dataset_params, quiet) + sizeof params->quiet)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "curated: dataset parameters too old");
    if (params->file && *params->file)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "the curated dataset is the bundled file and does not read %s; use "
                              "--dataset custom for a JSONL file or --dataset public for a "
                              "ShareGPT JSON file",
                              params->file);
    curated_ctx *c = calloc(1, sizeof *c);
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    const char *file = settings ? smfw_settings_get(settings, "file") : NULL;
    if (file && *file)
        snprintf(c->path, sizeof c->path, "%s", file);
    else
        snprintf(c->path, sizeof c->path, "%s/%s", params->data_dir ? params->data_dir : ".",
                 CURATED_FILE);
    smfw_jsonl_options o;
    memset(&o, 0, sizeof o);
    o.format = SMFW_DATASET_FORMAT_SINGLE_TURN;
    smfw_status st = smfw_jsonl_reader_open(c->path, &o, &c->reader, err);
    if (st != SMFW_OK) {
        smfw_error_prefix(err, "the bundled curated dataset is missing or unreadable (set "
                               "SMFW_DATA_DIR or [dataset.curated] file): ");
        free(c);
        return st;
    }
    *out = c;
    return SMFW_OK;
}

static smfw_status curated_next(void *ctx, smfw_prompt *out, smfw_error *err) {
    curated_ctx *c = ctx;
    smfw_status st = smfw_jsonl_reader_next(c->reader, out, err);
    if (st == SMFW_OK) c->count++;
    return st;
}

static void curated_info(void *ctx, smfw_dataset_info *out) {
    curated_ctx *c = ctx;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", "curated");
    snprintf(out->file, sizeof out->file, "%s", c->path);
    snprintf(out->sha256, sizeof out->sha256, "%s", smfw_jsonl_reader_sha256(c->reader));
    snprintf(out->token_lengths, sizeof out->token_lengths, "%s", "estimated");
    snprintf(out->format, sizeof out->format, "%s", "single_turn");
    out->count = c->count ? c->count : -1;
}

static void curated_close(void *ctx) {
    curated_ctx *c = ctx;
    if (!c) return;
    smfw_jsonl_reader_free(c->reader);
    free(c);
}

static smfw_status curated_control(void *ctx, int op, void *arg) {
    (void)ctx;
    (void)op;
    (void)arg;
    return SMFW_ERR_UNSUPPORTED;
}

static const smfw_dataset_ops curated_ops = {sizeof curated_ops, curated_open,  curated_next,
                                             curated_info,       curated_close, curated_control};

static const smfw_setting_decl curated_settings[] = {
    {"file", SMFW_SETTING_PATH, NULL,
     "the curated JSONL file (default: curated.jsonl in the installed data folder)", NULL, NULL, 0,
     "FILE"},
    SMFW_SETTINGS_END};

SMFW_PLUGIN_DEFINE(smfw_dataset_curated, SMFW_PLUGIN_DATASET, "curated", "1.0.0",
                   "500 hand-written chat prompts with output budgets of 32+ tokens (bundled)",
                   curated_settings, &curated_ops)
