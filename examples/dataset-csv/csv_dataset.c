/*
 * csv_dataset.c - a third-party smfw dataset provider ("csv"): prompts from a
 * CSV file with a header row (RFC 4180: quoted fields, doubled quotes,
 * newlines inside quotes).
 *
 *   prompt,output_length
 *   "Write a haiku about GPUs, then explain it.",48
 *
 * Settings ([dataset.csv]): prompt_column (default "prompt") and
 * output_column (default "output_length"; an empty cell = no budget, the
 * backend then uses --output-tokens-mean). The file comes from
 * --dataset-file (the common [dataset] section, passed in params).
 * A bad row is reported with file, line and column; the core keeps calling
 * next() so every bad row is listed before anything is sent.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/dataset.h>
#include <smfw/plugin.h>

#define CSV_MAX_FIELDS 64

typedef struct csv_dataset {
    FILE *f;
    char path[1024];
    long line;      /* line where the current record starts */
    long next_line; /* line after the last record read */
    int prompt_col, output_col;
    char *fields[CSV_MAX_FIELDS];
    size_t nfields;
    int64_t count;
} csv_dataset;

static void csv_fields_free(csv_dataset *d) {
    for (size_t i = 0; i < d->nfields; i++) free(d->fields[i]);
    d->nfields = 0;
}

/* Append one byte to a growing field. */
static int csv_put(char **buf, size_t *len, size_t *cap, int c) {
    if (*len + 2 > *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        char *p = realloc(*buf, ncap);
        if (!p) return -1;
        *buf = p;
        *cap = ncap;
    }
    (*buf)[(*len)++] = (char)c;
    (*buf)[*len] = '\0';
    return 0;
}

/* Read one record into d->fields. Returns 1 = record, 0 = end of file, -1 = error (msg set). */
static int csv_read_record(csv_dataset *d, smfw_error *err) {
    csv_fields_free(d);
    d->line = d->next_line;
    int c = fgetc(d->f);
    if (c == EOF) return 0;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int quoted = 0, in_quotes = 0;
    for (;; c = fgetc(d->f)) {
        if (in_quotes) {
            if (c == EOF) {
                free(buf);
                smfw_error_set(err, SMFW_ERR_CONFIG, "%s:%ld: unterminated quoted field", d->path,
                               d->line);
                return -1;
            }
            if (c == '"') {
                int n = fgetc(d->f);
                if (n == '"') {
                    if (csv_put(&buf, &len, &cap, '"')) goto nomem;
                    continue;
                }
                in_quotes = 0;
                c = n; /* fall through with the byte after the closing quote */
            } else {
                if (c == '\n') d->next_line++;
                if (csv_put(&buf, &len, &cap, c)) goto nomem;
                continue;
            }
        }
        if (c == '"' && len == 0 && !quoted) {
            quoted = in_quotes = 1;
            continue;
        }
        if (c == ',' || c == '\n' || c == EOF || c == '\r') {
            if (c == '\r') {
                int n = fgetc(d->f);
                if (n != '\n' && n != EOF) ungetc(n, d->f);
                c = '\n';
            }
            if (d->nfields == CSV_MAX_FIELDS) {
                free(buf);
                smfw_error_set(err, SMFW_ERR_CONFIG, "%s:%ld: more than %d columns", d->path,
                               d->line, CSV_MAX_FIELDS);
                return -1;
            }
            d->fields[d->nfields++] = buf ? buf : strdup("");
            buf = NULL;
            len = cap = 0;
            quoted = 0;
            if (c != ',') {
                d->next_line++;
                return 1;
            }
            continue;
        }
        if (quoted) {
            free(buf);
            smfw_error_set(err, SMFW_ERR_CONFIG, "%s:%ld: text after a closing quote", d->path,
                           d->line);
            /* skip to the end of the line so the next record starts clean */
            while (c != '\n' && c != EOF) c = fgetc(d->f);
            d->next_line++;
            return -1;
        }
        if (csv_put(&buf, &len, &cap, c)) goto nomem;
    }
nomem:
    free(buf);
    smfw_error_set(err, SMFW_ERR_NOMEM, "%s: out of memory", d->path);
    return -1;
}

static int csv_find_column(const csv_dataset *d, const char *name) {
    for (size_t i = 0; i < d->nfields; i++)
        if (strcmp(d->fields[i], name) == 0) return (int)i;
    return -1;
}

static void csv_close(void *ctx) {
    csv_dataset *d = ctx;
    if (!d) return;
    csv_fields_free(d);
    if (d->f) fclose(d->f);
    free(d);
}

static smfw_status csv_open(const smfw_settings *settings, const smfw_dataset_params *params,
                            void **ctx, smfw_error *err) {
    if (!params || !params->file)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "dataset csv needs a file: --dataset-file prompts.csv");
    csv_dataset *d = calloc(1, sizeof *d);
    if (!d) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    snprintf(d->path, sizeof d->path, "%s", params->file);
    d->next_line = 1;
    d->count = -1;
    d->f = fopen(d->path, "r");
    if (!d->f) {
        smfw_status st =
            smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", d->path, strerror(errno));
        csv_close(d);
        return st;
    }
    const char *pname = settings ? smfw_settings_get(settings, "prompt_column") : NULL;
    const char *oname = settings ? smfw_settings_get(settings, "output_column") : NULL;
    if (!pname) pname = "prompt";
    if (!oname) oname = "output_length";
    if (csv_read_record(d, err) != 1) {
        if (err && err->status == SMFW_OK)
            smfw_error_set(err, SMFW_ERR_CONFIG, "%s: empty file (expected a header row)", d->path);
        csv_close(d);
        return SMFW_ERR_CONFIG;
    }
    d->prompt_col = csv_find_column(d, pname);
    d->output_col = csv_find_column(d, oname);
    if (d->prompt_col < 0) {
        smfw_status st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                        "%s:1: no \"%s\" column in the header", d->path, pname);
        csv_close(d);
        return st;
    }
    *ctx = d;
    return SMFW_OK;
}

static smfw_status csv_next(void *ctx, smfw_prompt *out, smfw_error *err) {
    csv_dataset *d = ctx;
    for (;;) {
        int rc = csv_read_record(d, err);
        if (rc == 0) return SMFW_DONE;
        if (rc < 0) return err ? err->status : SMFW_ERR_CONFIG;
        if (d->nfields == 1 && d->fields[0][0] == '\0') continue; /* blank line */
        if ((size_t)d->prompt_col >= d->nfields || d->fields[d->prompt_col][0] == '\0')
            return smfw_error_set(err, SMFW_ERR_CONFIG, "%s:%ld: column prompt: empty prompt",
                                  d->path, d->line);
        int64_t budget = 0;
        if (d->output_col >= 0 && (size_t)d->output_col < d->nfields &&
            d->fields[d->output_col][0] != '\0') {
            char *end = NULL;
            long long v = strtoll(d->fields[d->output_col], &end, 10);
            if (*end != '\0' || v <= 0)
                return smfw_error_set(err, SMFW_ERR_CONFIG,
                                      "%s:%ld: column output_length: \"%s\" is not a positive "
                                      "integer",
                                      d->path, d->line, d->fields[d->output_col]);
            budget = v;
        }
        /* Hand the text over to the prompt (the core frees it with smfw_prompt_clear). */
        out->text = d->fields[d->prompt_col];
        d->fields[d->prompt_col] = strdup("");
        out->text_len = strlen(out->text);
        out->output_length = budget;
        out->timestamp_ms = -1;
        out->delay_ms = -1;
        out->input_tokens = smfw_estimate_tokens(out->text, out->text_len);
        d->count = d->count < 0 ? 1 : d->count + 1;
        return SMFW_OK;
    }
}

static void csv_info(void *ctx, smfw_dataset_info *out) {
    const csv_dataset *d = ctx;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "csv");
    snprintf(out->file, sizeof out->file, "%s", d->path);
    out->count = d->count;
    snprintf(out->token_lengths, sizeof out->token_lengths, "estimated");
    snprintf(out->format, sizeof out->format, "single_turn");
}

static const smfw_setting_decl csv_settings[] = {
    {"prompt_column", SMFW_SETTING_STRING, "prompt", "header of the column holding the prompt",
     NULL, NULL, 0, "NAME"},
    {"output_column", SMFW_SETTING_STRING, "output_length",
     "header of the column holding the output budget in tokens (optional column)", NULL, NULL, 0,
     "NAME"},
    SMFW_SETTINGS_END};

static const smfw_dataset_ops csv_ops = {
    sizeof(smfw_dataset_ops), csv_open, csv_next, csv_info, csv_close, NULL};

SMFW_PLUGIN_DEFINE(smfw_dataset_csv, SMFW_PLUGIN_DATASET, "csv", "1.0.0",
                   "Example: prompts (and output budgets) from a CSV file", csv_settings, &csv_ops)
