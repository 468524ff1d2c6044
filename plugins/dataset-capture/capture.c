/*
 * capture.c - the "capture" dataset plugin: SageMaker Data Capture files
 * (--dataset-file DIR of the layout SageMaker writes, or s3://BUCKET/PREFIX/ itself)
 * replayed as they were sent.
 *
 * Every line of every file is read and checked before anything is sent; the
 * entries are put in inferenceTime order (file order within one second), cut
 * to the --capture-start/--capture-end window and the --capture-variant, and
 * each gets its send time: its offset from the first entry. inferenceTime has
 * whole seconds, so the n entries of one second are spread evenly across it
 * (k + i/n s) unless --capture-spread none sends them together. Each prompt's
 * text is the whole request body; the direct backend sends it unchanged.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/dataset.h>
#include <smfw/dataset_formats.h>
#include <smfw/plugin.h>
#include <smfw/sigv4.h>

#include "capture_entry.h"
#include "capture_files.h"
#include "capture_s3.h"

#define CAPTURE_FORMAT   "sagemaker_capture"
#define CAPTURE_MAX_LINE (64u << 20)

typedef struct capture_item {
    capture_entry e;
    size_t seq; /* read order: ties of one second keep it */
    int64_t offset_ms;
} capture_item;

typedef struct capture_ctx {
    char path[1024];
    char fetched[1100]; /* s3://: the temporary folder the objects were fetched into */
    char shown[80];     /* s3://: "s3://BUCKET/", shown in messages instead of that folder */
    char sha256[65];
    capture_item *items;
    size_t count, cap, next;
    char **errors;
    size_t n_errors, next_error;
} capture_ctx;

static void add_error(capture_ctx *c, const char *fmt, const char *file, size_t line,
                      const char *why) {
    char msg[1400], name[1200];
    size_t fl = strlen(c->fetched);
    if (fl && !strncmp(file, c->fetched, fl) && file[fl] == '/')
        snprintf(name, sizeof name, "%s%s", c->shown, file + fl + 1); /* the object's URI */
    else
        snprintf(name, sizeof name, "%s", file);
    snprintf(msg, sizeof msg, fmt, name, line, why);
    char **ne = realloc(c->errors, (c->n_errors + 1) * sizeof *ne);
    if (!ne) return;
    c->errors = ne;
    c->errors[c->n_errors] = strdup(msg);
    if (c->errors[c->n_errors]) c->n_errors++;
}

static int add_item(capture_ctx *c, capture_entry *e) {
    if (c->count == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        capture_item *ni = realloc(c->items, cap * sizeof *ni);
        if (!ni) return -1;
        c->items = ni;
        c->cap = cap;
    }
    c->items[c->count].e = *e;
    c->items[c->count].seq = c->count;
    c->count++;
    return 0;
}

static smfw_status read_file(capture_ctx *c, const capture_file *f, smfw_error *err) {
    FILE *fp = fopen(f->path, "rb");
    if (!fp) return smfw_error_set(err, SMFW_ERR_IO, "capture: cannot open %s", f->path);
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, fp)) > 0) {
        lineno++;
        int has_nl = line[n - 1] == '\n';
        size_t len = (size_t)n - (size_t)has_nl;
        if (len && line[len - 1] == '\r') len--;
        size_t sp = strspn(line, " \t");
        if (sp >= len) continue; /* blank line */
        char why[1024];
        capture_entry e;
        if ((size_t)n > CAPTURE_MAX_LINE) {
            add_error(c, "%s:%zu: %s", f->path, lineno, "line longer than 64 MiB");
            continue;
        }
        if (capture_entry_parse(line, len, !has_nl, &e, why, sizeof why) != 0) {
            add_error(c, "%s:%zu: %s", f->path, lineno, why);
            continue;
        }
        snprintf(e.variant, sizeof e.variant, "%s", f->variant);
        if (add_item(c, &e) != 0) {
            capture_entry_clear(&e);
            free(line);
            fclose(fp);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        }
    }
    free(line);
    fclose(fp);
    return SMFW_OK;
}

static int by_time(const void *a, const void *b) {
    const capture_item *x = a, *y = b;
    if (x->e.time_ms != y->e.time_ms) return x->e.time_ms < y->e.time_ms ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Send offsets from the first entry; whole-second entries spread across their second. */
static void assign_offsets(capture_ctx *c, int spread) {
    if (!c->count) return;
    int64_t first = c->items[0].e.time_ms;
    for (size_t i = 0; i < c->count;) {
        size_t j = i + 1;
        if (c->items[i].e.whole_second)
            while (j < c->count && c->items[j].e.whole_second &&
                   c->items[j].e.time_ms == c->items[i].e.time_ms)
                j++;
        size_t n = j - i;
        for (size_t k = i; k < j; k++) {
            /* i/n of a second, rounded down so no entry leaves its second */
            int64_t within = spread && n > 1 ? (int64_t)((k - i) * 1000 / n) : 0;
            c->items[k].offset_ms = c->items[k].e.time_ms - first + within;
        }
        i = j;
    }
}

static void ctx_free(capture_ctx *c) {
    if (!c) return;
    for (size_t i = c->next; i < c->count; i++) capture_entry_clear(&c->items[i].e);
    free(c->items);
    for (size_t i = c->next_error; i < c->n_errors; i++) free(c->errors[i]);
    free(c->errors);
    capture_s3_remove(c->fetched);
    free(c);
}

static smfw_status window_setting(const smfw_settings *s, const char *key, int64_t *ms,
                                  smfw_error *err) {
    const char *v = s ? smfw_settings_get(s, key) : NULL;
    if (!v || !*v) return SMFW_OK;
    int whole;
    if (capture_parse_time(v, ms, &whole) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--%s \"%s\": want ISO-8601 UTC, e.g. 2026-12-02T01:00:00Z",
                              strcmp(key, "capture_start") ? "capture-end" : "capture-start", v);
    return SMFW_OK;
}

static smfw_status capture_open(const smfw_settings *settings, const smfw_dataset_params *params,
                                void **out, smfw_error *err) {
    *out = NULL;
    if (!params || params->size < offsetof(smfw_dataset_params, quiet) + sizeof params->quiet)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "capture: dataset parameters too old");
    if (!params->file || !*params->file)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "the capture dataset needs the folder of a Data Capture tree: "
                              "--dataset-file DIR");
    const char *spread = settings ? smfw_settings_get(settings, "capture_spread") : NULL;
    if (spread && strcmp(spread, "even") != 0 && strcmp(spread, "none") != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--capture-spread wants even or none, not \"%s\"", spread);
    int64_t start = INT64_MIN, end = INT64_MAX;
    smfw_status st = window_setting(settings, "capture_start", &start, err);
    if (st == SMFW_OK) st = window_setting(settings, "capture_end", &end, err);
    if (st != SMFW_OK) return st;
    if (start >= end)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "--capture-start must be before --capture-end");
    const char *variant = settings ? smfw_settings_get(settings, "capture_variant") : NULL;

    capture_ctx *c = calloc(1, sizeof *c);
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    snprintf(c->path, sizeof c->path, "%s", params->file);
    const char *folder = params->file;
    if (!strncmp(params->file, "s3://", 5)) {
        st = capture_s3_fetch(params->file, c->fetched, sizeof c->fetched, err);
        if (st != SMFW_OK) {
            c->fetched[0] = '\0'; /* removed already */
            ctx_free(c);
            return st;
        }
        snprintf(c->shown, sizeof c->shown, "s3://%.*s/", (int)strcspn(params->file + 5, "/"),
                 params->file + 5);
        folder = c->fetched;
    }
    capture_files files;
    st = capture_files_find(folder, &files, err);
    if (st != SMFW_OK) {
        ctx_free(c);
        return st;
    }
    /* Identity: the hash of the files' hashes, in reading order. */
    char *hashes = calloc(files.count, 64);
    size_t used = 0, n_read = 0;
    for (size_t i = 0; i < files.count && st == SMFW_OK; i++) {
        const capture_file *f = &files.files[i];
        if (variant && *variant && strcmp(f->variant, variant) != 0) continue;
        char hex[65];
        st = smfw_file_sha256(f->path, hex, err);
        if (st == SMFW_OK && hashes) memcpy(hashes + 64 * used++, hex, 64);
        if (st == SMFW_OK) st = read_file(c, f, err);
        n_read++;
    }
    if (hashes) smfw_sha256_hex(hashes, 64 * used, c->sha256);
    free(hashes);
    capture_files_free(&files);
    if (st == SMFW_OK && n_read == 0)
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "capture: no file of variant \"%s\" under %s (the variant is the "
                            "folder above yyyy/mm/dd/hh)",
                            variant, params->file);
    if (st != SMFW_OK) {
        ctx_free(c);
        return st;
    }
    if (c->count == 0 && c->n_errors == 0) {
        ctx_free(c);
        return smfw_error_set(err, SMFW_ERR_CONFIG, "capture: no entry in the files under %s",
                              params->file);
    }
    if (c->count) qsort(c->items, c->count, sizeof *c->items, by_time);
    size_t kept = 0;
    for (size_t i = 0; i < c->count; i++) {
        if (c->items[i].e.time_ms >= start && c->items[i].e.time_ms < end)
            c->items[kept++] = c->items[i];
        else
            capture_entry_clear(&c->items[i].e);
    }
    if (kept == 0 && c->count > 0) {
        ctx_free(c);
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "capture: no entry of %s falls in the --capture-start/--capture-end "
                              "window",
                              params->file);
    }
    c->count = kept;
    assign_offsets(c, !spread || strcmp(spread, "none") != 0);
    *out = c;
    return SMFW_OK;
}

static smfw_status capture_next(void *ctx, smfw_prompt *out, smfw_error *err) {
    capture_ctx *c = ctx;
    if (c->next_error < c->n_errors) {
        char *m = c->errors[c->next_error++];
        smfw_status st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s", m);
        free(m);
        return st;
    }
    if (c->next >= c->count) return SMFW_DONE;
    capture_item *it = &c->items[c->next++];
    out->text = it->e.body;
    out->text_len = it->e.body_len;
    it->e.body = NULL;
    /* Budget: the body's own field, else the captured answer's length, else the backend's
     * dataset defaults (0). */
    out->output_length = it->e.body_budget > 0  ? it->e.body_budget
                         : it->e.output_len > 0 ? it->e.output_len
                                                : 0;
    out->session_id = NULL;
    out->turn_index = 0;
    out->timestamp_ms = it->offset_ms;
    out->delay_ms = -1;
    out->input_tokens = it->e.input_tokens;
    out->role = NULL;
    capture_entry_clear(&it->e);
    return SMFW_OK;
}

static void capture_info(void *ctx, smfw_dataset_info *out) {
    capture_ctx *c = ctx;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", "capture");
    snprintf(out->file, sizeof out->file, "%s", c->path);
    snprintf(out->sha256, sizeof out->sha256, "%s", c->sha256);
    snprintf(out->token_lengths, sizeof out->token_lengths, "%s", "estimated");
    snprintf(out->format, sizeof out->format, "%s", CAPTURE_FORMAT);
    out->count = (int64_t)c->count;
}

static void capture_close(void *ctx) {
    ctx_free(ctx);
}

static smfw_status capture_control(void *ctx, int op, void *arg) {
    (void)ctx, (void)op, (void)arg;
    return SMFW_ERR_UNSUPPORTED;
}

static const smfw_dataset_ops capture_ops = {sizeof capture_ops, capture_open,  capture_next,
                                             capture_info,       capture_close, capture_control};

static const smfw_setting_decl capture_settings[] = {
    {"capture_variant", SMFW_SETTING_STRING, NULL,
     "only the captures of this production variant (the folder above yyyy/mm/dd/hh)",
     "capture-variant", NULL, 0, "NAME"},
    {"capture_start", SMFW_SETTING_STRING, NULL,
     "only entries whose inferenceTime is at or after this (ISO-8601 UTC)", "capture-start", NULL,
     0, "TIME"},
    {"capture_end", SMFW_SETTING_STRING, NULL, "only entries whose inferenceTime is before this",
     "capture-end", NULL, 0, "TIME"},
    {"capture_spread", SMFW_SETTING_STRING, "even",
     "entries of one inferenceTime second: even (k + i/n s) or none (all at k s)", "capture-spread",
     NULL, 0, "even|none"},
    SMFW_SETTINGS_END};

SMFW_PLUGIN_DEFINE(
    smfw_dataset_capture, SMFW_PLUGIN_DATASET, "capture", "1.0.0",
    "SageMaker Data Capture (--dataset-file DIR or s3://BUCKET/PREFIX/), replayed as sent",
    capture_settings, &capture_ops)
