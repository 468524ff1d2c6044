/*
 * public.c - the "public" dataset plugin: the raw ShareGPT feed.
 *
 * For the direct backend it reads a ShareGPT JSON file (--dataset-file), or
 * downloads the usual public file once into the cache folder, and turns each
 * conversation into its first human turn with the recorded answer length as
 * the budget, exactly the raw behaviour (tiny budgets included). The managed
 * backend does not read prompts itself for this plugin: SageMaker fetches the
 * feed (public_dataset: sharegpt).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <smfw/dataset.h>
#include <smfw/dataset_formats.h>
#include <smfw/log.h>
#include <smfw/plugin.h>

#define PUBLIC_DEFAULT_URL                                                                         \
    "https://huggingface.co/datasets/anon8231489123/ShareGPT_Vicuna_unfiltered/resolve/main/"      \
    "ShareGPT_V3_unfiltered_cleaned_split.json"

typedef struct public_ctx {
    smfw_sharegpt_reader *reader;
    char path[1024];
    char sha256[65];
    int64_t count;
} public_ctx;

static const char *setting(const smfw_settings *s, const char *key) {
    const char *v = s ? smfw_settings_get(s, key) : NULL;
    return v && *v ? v : NULL;
}

/* The cache file name: the last path segment of the URL, without a query. */
static void cache_name(const char *url, char *out, size_t size) {
    const char *end = url + strcspn(url, "?#");
    const char *start = end;
    while (start > url && start[-1] != '/') start--;
    size_t n = (size_t)(end - start);
    if (n == 0 || n >= size || memchr(start, '.', n) == start) {
        snprintf(out, size, "%s", "sharegpt.json");
        return;
    }
    memcpy(out, start, n);
    out[n] = '\0';
}

static smfw_status public_open(const smfw_settings *settings, const smfw_dataset_params *params,
                               void **out, smfw_error *err) {
    *out = NULL;
    if (!params || params->size < offsetof(smfw_dataset_params, quiet) + sizeof params->quiet)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "public: dataset parameters too old");
    const char *url = setting(settings, "url");
    const char *expected = setting(settings, "sha256");
    const char *cache_dir = setting(settings, "cache_dir");
    if (!url) url = PUBLIC_DEFAULT_URL;
    if (!cache_dir) cache_dir = params->cache_dir;
    public_ctx *c = calloc(1, sizeof *c);
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");

    smfw_status st = SMFW_OK;
    if (params->file && *params->file) {
        snprintf(c->path, sizeof c->path, "%s", params->file);
    } else {
        char name[256];
        cache_name(url, name, sizeof name);
        snprintf(c->path, sizeof c->path, "%s/%s", cache_dir ? cache_dir : ".", name);
        struct stat sb;
        if (stat(c->path, &sb) != 0) {
            struct {
                int download;
            } want = {1};
            const smfw_setting_binding dl[] = {
                {NULL, "download", SMFW_BIND_BOOL, 0, 0}, /* declared "true" */
                SMFW_BINDINGS_END};
            if (settings) (void)smfw_settings_bind(settings, dl, &want, NULL);
            if (!want.download) {
                st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                    "the ShareGPT file %s is not cached and downloads are off "
                                    "([dataset.public] download = false); pass --dataset-file",
                                    c->path);
            } else {
                smfw_download_options o;
                memset(&o, 0, sizeof o);
                o.sha256 = expected;
                o.quiet = params->quiet;
                st = smfw_dataset_download(url, c->path, &o, c->sha256, err);
                if (st == SMFW_OK && !expected)
                    SMFW_LOG_WARN("dataset",
                                  "downloaded %s without a checksum to compare; its SHA-256 is "
                                  "%s (set [dataset.public] sha256 to pin it)",
                                  c->path, c->sha256);
            }
        }
    }
    if (st == SMFW_OK && !c->sha256[0]) st = smfw_file_sha256(c->path, c->sha256, err);
    if (st == SMFW_OK && expected && !(params->file && *params->file) &&
        strcasecmp(expected, c->sha256) != 0)
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "the cached %s has SHA-256 %s, expected %s: delete it to download "
                            "it again",
                            c->path, c->sha256, expected);
    if (st == SMFW_OK) st = smfw_sharegpt_reader_open(c->path, &c->reader, err);
    if (st != SMFW_OK) {
        free(c);
        return st;
    }
    *out = c;
    return SMFW_OK;
}

static smfw_status public_next(void *ctx, smfw_prompt *out, smfw_error *err) {
    public_ctx *c = ctx;
    smfw_status st = smfw_sharegpt_reader_next(c->reader, out, err);
    if (st == SMFW_OK) c->count++;
    if (st == SMFW_DONE)
        SMFW_LOG_DEBUG("dataset", "%s: %lld conversations, %lld without a human turn and answer",
                       c->path, (long long)smfw_sharegpt_reader_seen(c->reader),
                       (long long)smfw_sharegpt_reader_skipped(c->reader));
    return st;
}

static void public_info(void *ctx, smfw_dataset_info *out) {
    public_ctx *c = ctx;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", "public");
    snprintf(out->file, sizeof out->file, "%s", c->path);
    snprintf(out->sha256, sizeof out->sha256, "%s", c->sha256);
    snprintf(out->token_lengths, sizeof out->token_lengths, "%s", "estimated");
    snprintf(out->format, sizeof out->format, "%s", "sharegpt");
    out->count = c->count ? c->count : -1;
}

static void public_close(void *ctx) {
    public_ctx *c = ctx;
    if (!c) return;
    smfw_sharegpt_reader_free(c->reader);
    free(c);
}

static smfw_status public_control(void *ctx, int op, void *arg) {
    (void)ctx;
    (void)op;
    (void)arg;
    return SMFW_ERR_UNSUPPORTED;
}

static const smfw_dataset_ops public_ops = {sizeof public_ops, public_open,  public_next,
                                            public_info,       public_close, public_control};

static const smfw_setting_decl public_settings[] = {
    {"url", SMFW_SETTING_STRING, PUBLIC_DEFAULT_URL,
     "where the ShareGPT JSON file is downloaded from on first use", NULL, NULL, 0, "URL"},
    {"sha256", SMFW_SETTING_STRING, NULL,
     "expected SHA-256 of the download (unset: not checked, the computed one is logged)", NULL,
     NULL, 0, "HEX"},
    {"cache_dir", SMFW_SETTING_PATH, NULL,
     "folder of the downloaded file (default: $XDG_CACHE_HOME/smfw or ~/.cache/smfw)", NULL, NULL,
     0, "DIR"},
    {"download", SMFW_SETTING_BOOL, "true", "download the file when it is not cached", NULL, NULL,
     0, NULL},
    SMFW_SETTINGS_END};

SMFW_PLUGIN_DEFINE(smfw_dataset_public, SMFW_PLUGIN_DATASET, "public", "1.0.0",
                   "the raw ShareGPT feed: first human turn, recorded answer length as budget",
                   public_settings, &public_ops)
