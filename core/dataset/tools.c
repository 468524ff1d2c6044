/* tools.c - `smfw dataset validate` and `smfw dataset curate` as library functions. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataset_internal.h"

/* ---- validate: every line, as the custom plugin reads it ---------------------------------- */

smfw_status smfw_dataset_validate_file(const char *path, const smfw_jsonl_options *options,
                                       size_t max_errors, FILE *errors_out, smfw_prompt_set **out,
                                       size_t *n_errors, smfw_error *err) {
    if (out) *out = NULL;
    if (n_errors) *n_errors = 0;
    if (max_errors == 0) max_errors = 50;
    smfw_jsonl_reader *r = NULL;
    smfw_status st = smfw_jsonl_reader_open(path, options, &r, err);
    if (st != SMFW_OK) return st;
    smfw_prompt_set *set = calloc(1, sizeof *set);
    size_t cap = 0, bad_lines = 0;
    if (!set) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    while (st == SMFW_OK) {
        smfw_prompt p;
        smfw_ds_prompt_init(&p);
        smfw_error e;
        smfw_error_clear(&e);
        smfw_status s1 = smfw_jsonl_reader_next(r, &p, &e);
        if (s1 == SMFW_DONE) break;
        if (s1 == SMFW_ERR_CONFIG) {
            if (bad_lines < max_errors && errors_out) fprintf(errors_out, "%s\n", e.message);
            bad_lines++;
            continue;
        }
        if (s1 != SMFW_OK) {
            st = smfw_error_set(err, s1, "%s", e.message);
            break;
        }
        if (set->count == cap) {
            size_t ncap = cap ? cap * 2 : 256;
            smfw_prompt *grown = realloc(set->prompts, ncap * sizeof *grown);
            if (!grown) {
                smfw_prompt_clear(&p);
                st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
                break;
            }
            set->prompts = grown;
            cap = ncap;
        }
        set->prompts[set->count++] = p;
    }
    if (set) {
        snprintf(set->info.name, sizeof set->info.name, "%s", "custom");
        snprintf(set->info.file, sizeof set->info.file, "%s", path);
        snprintf(set->info.sha256, sizeof set->info.sha256, "%s", smfw_jsonl_reader_sha256(r));
        snprintf(set->info.token_lengths, sizeof set->info.token_lengths, "%s", "estimated");
        snprintf(set->info.format, sizeof set->info.format, "%s",
                 smfw_dataset_format_name(smfw_jsonl_reader_format(r)));
        set->info.count = (int64_t)set->count;
    }
    smfw_jsonl_reader_free(r);
    if (n_errors) *n_errors = bad_lines;
    if (st == SMFW_OK && bad_lines) {
        if (bad_lines > max_errors && errors_out)
            fprintf(errors_out, "(and %zu more bad lines)\n", bad_lines - max_errors);
        st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s: %zu bad line%s; nothing was sent", path,
                            bad_lines, bad_lines == 1 ? "" : "s");
    }
    if (st == SMFW_OK && set->count == 0)
        st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s holds no prompts", path);
    if (st != SMFW_OK || !out)
        smfw_prompt_set_free(set);
    else
        *out = set;
    return st;
}

/* ---- curate: the bundled-dataset rule on a raw ShareGPT file --------------------------------- */

smfw_status smfw_dataset_curate(const char *sharegpt_path, const char *out_path,
                                const smfw_curate_options *o, smfw_curate_report *report,
                                smfw_error *err) {
    smfw_curate_report rep;
    memset(&rep, 0, sizeof rep);
    size_t want = o && o->count ? o->count : 500;
    int64_t min_output = o ? o->min_output : 32;
    uint64_t seed = o ? o->seed : 0;

    smfw_sharegpt_reader *r = NULL;
    smfw_status st = smfw_sharegpt_reader_open(sharegpt_path, &r, err);
    if (st != SMFW_OK) return st;
    smfw_prompt *kept = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        smfw_prompt p;
        smfw_ds_prompt_init(&p);
        st = smfw_sharegpt_reader_next(r, &p, err);
        if (st == SMFW_DONE) {
            st = SMFW_OK;
            break;
        }
        if (st != SMFW_OK) break;
        rep.usable++;
        if (p.output_length < min_output) {
            smfw_prompt_clear(&p);
            continue;
        }
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 1024;
            smfw_prompt *grown = realloc(kept, ncap * sizeof *grown);
            if (!grown) {
                smfw_prompt_clear(&p);
                st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
                break;
            }
            kept = grown;
            cap = ncap;
        }
        kept[n++] = p;
    }
    rep.conversations = smfw_sharegpt_reader_seen(r);
    smfw_sharegpt_reader_free(r);
    rep.eligible = (int64_t)n;

    size_t *order = NULL;
    if (st == SMFW_OK && n == 0)
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "%s: no conversation has a human turn with an answer of at least "
                            "%lld tokens",
                            sharegpt_path, (long long)min_output);
    if (st == SMFW_OK && !(order = malloc(n * sizeof *order)))
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (st == SMFW_OK) {
        /* Seeded Fisher-Yates over the eligible entries; the first `want` are kept, in feed order.
         */
        for (size_t i = 0; i < n; i++) order[i] = i;
        uint64_t s = seed;
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)(smfw_dataset_rand_next(&s) % (uint64_t)(i + 1));
            size_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        size_t take = want < n ? want : n;
        unsigned char *chosen = calloc(n, 1);
        if (!chosen) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        for (size_t i = 0; chosen && i < take; i++) chosen[order[i]] = 1;

        char tmp[4200];
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", out_path, (long)getpid());
        FILE *fp = chosen ? fopen(tmp, "w") : NULL;
        if (chosen && !fp)
            st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
        for (size_t i = 0; fp && i < n && st == SMFW_OK; i++) {
            if (!chosen[i]) continue;
            json_t *line = json_pack("{s:s%,s:I}", "text", kept[i].text, kept[i].text_len,
                                     "output_length", (json_int_t)kept[i].output_length);
            char *s_line = line ? json_dumps(line, JSON_COMPACT) : NULL;
            json_decref(line);
            if (!s_line || fputs(s_line, fp) == EOF || fputc('\n', fp) == EOF)
                st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s", tmp);
            else
                rep.written++;
            free(s_line);
        }
        if (fp && fclose(fp) != 0 && st == SMFW_OK)
            st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
        if (fp && st == SMFW_OK && rename(tmp, out_path) != 0)
            st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", out_path, strerror(errno));
        if (fp && st != SMFW_OK) unlink(tmp);
        free(chosen);
    }
    free(order);
    for (size_t i = 0; i < n; i++) smfw_prompt_clear(&kept[i]);
    free(kept);
    if (report) *report = rep;
    return st;
}
