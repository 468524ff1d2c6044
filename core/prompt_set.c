/* prompt_set.c - the in-memory prompt set: load from a dataset plugin, sample, export. */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/dataset.h>
#include <smfw/log.h>

void smfw_prompt_clear(smfw_prompt *p) {
    free(p->text);
    free(p->session_id);
    free(p->role);
    memset(p, 0, sizeof *p);
    p->timestamp_ms = -1;
    p->delay_ms = -1;
    p->input_tokens = -1;
}

void smfw_prompt_set_free(smfw_prompt_set *set) {
    if (!set) return;
    for (size_t i = 0; i < set->count; i++) smfw_prompt_clear(&set->prompts[i]);
    free(set->prompts);
    free(set);
}

smfw_status smfw_prompt_set_load(const smfw_dataset_ops *ops, void *ctx, smfw_prompt_set **out,
                                 size_t max_errors, smfw_error *err) {
    *out = NULL;
    smfw_prompt_set *set = calloc(1, sizeof *set);
    if (!set) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    size_t cap = 0, n_errors = 0;
    smfw_status final = SMFW_OK;
    /* Errors are listed in the returned message as far as it holds them (it has a
     * bounded size); the rest are counted, with the command that lists them all. */
    char listed[SMFW_ERROR_MESSAGE_MAX - 256] = "";
    size_t listed_len = 0, n_listed = 0;
    for (;;) {
        smfw_prompt p;
        memset(&p, 0, sizeof p);
        p.timestamp_ms = -1;
        p.delay_ms = -1;
        p.input_tokens = -1;
        smfw_error e;
        smfw_error_clear(&e);
        smfw_status st = ops->next(ctx, &p, &e);
        if (st == SMFW_DONE) break;
        if (st != SMFW_OK) {
            smfw_prompt_clear(&p);
            size_t need = strlen(e.message) + (listed_len ? 1 : 0);
            if (n_listed < (max_errors ? max_errors : 1) && listed_len + need < sizeof listed) {
                snprintf(listed + listed_len, sizeof listed - listed_len, "%s%s",
                         listed_len ? "\n" : "", e.message);
                listed_len += need;
                n_listed++;
            }
            n_errors++;
            if (final == SMFW_OK) final = st;
            if (st == SMFW_ERR_IO || st == SMFW_ERR_NOMEM) break;
            continue;
        }
        if (!p.text) {
            smfw_prompt_clear(&p);
            continue;
        }
        if (set->count == cap) {
            cap = cap ? cap * 2 : 256;
            smfw_prompt *grown = realloc(set->prompts, cap * sizeof *grown);
            if (!grown) {
                smfw_prompt_clear(&p);
                final = SMFW_ERR_NOMEM;
                break;
            }
            set->prompts = grown;
        }
        if (!p.text_len) p.text_len = strlen(p.text);
        set->prompts[set->count++] = p;
    }
    ops->info(ctx, &set->info);
    if (final != SMFW_OK) {
        if (final == SMFW_ERR_NOMEM)
            smfw_error_set(err, final, "out of memory loading prompts");
        else if (n_errors == n_listed)
            smfw_error_set(err, final == SMFW_ERR_IO ? final : SMFW_ERR_CONFIG, "%s", listed);
        else
            smfw_error_set(err, final == SMFW_ERR_IO ? final : SMFW_ERR_CONFIG,
                           "%s\n(and %zu more bad records; `smfw dataset validate %s` lists "
                           "them all)",
                           listed, n_errors - n_listed,
                           set->info.file[0] ? set->info.file : "FILE");
        smfw_prompt_set_free(set);
        return err ? err->status : SMFW_ERR_CONFIG;
    }
    if (set->count == 0) {
        smfw_prompt_set_free(set);
        return smfw_error_set(err, SMFW_ERR_CONFIG, "the dataset holds no prompts");
    }
    set->info.count = (int64_t)set->count;
    *out = set;
    return SMFW_OK;
}

/* splitmix64: small, seedable, good enough for sampling order. */
static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void smfw_prompt_set_order(smfw_prompt_set *set, smfw_sampling sampling, uint64_t seed) {
    if (sampling != SMFW_SAMPLING_SHUFFLE || set->count < 2) return;
    uint64_t s = seed;
    for (size_t i = set->count - 1; i > 0; i--) {
        size_t j = (size_t)(splitmix64(&s) % (uint64_t)(i + 1));
        smfw_prompt tmp = set->prompts[i];
        set->prompts[i] = set->prompts[j];
        set->prompts[j] = tmp;
    }
}

smfw_status smfw_prompt_set_write_jsonl(const smfw_prompt_set *set, const char *path,
                                        smfw_error *err) {
    FILE *fp = fopen(path, "w");
    if (!fp) return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    for (size_t i = 0; i < set->count; i++) {
        const smfw_prompt *p = &set->prompts[i];
        json_t *o = json_object();
        json_object_set_new(o, "text", json_stringn(p->text, p->text_len));
        if (p->output_length > 0)
            json_object_set_new(o, "output_length", json_integer(p->output_length));
        char *line = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        if (!line || fputs(line, fp) == EOF || fputc('\n', fp) == EOF) {
            free(line);
            fclose(fp);
            return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        }
        free(line);
    }
    if (fclose(fp) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return SMFW_OK;
}

int64_t smfw_estimate_tokens(const char *text, size_t len) {
    /* ~4-character pieces, extended to the next whitespace when it is within 2
     * characters (the AIPerf mock server's splitter): deterministic and cheap. */
    int64_t n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && isspace((unsigned char)text[i])) i++;
        if (i >= len) break;
        size_t end = i + 4 < len ? i + 4 : len;
        for (size_t k = end; k < len && k <= end + 2; k++) {
            if (isspace((unsigned char)text[k])) {
                end = k;
                break;
            }
        }
        /* Pieces do not cross whitespace. */
        for (size_t k = i; k < end; k++)
            if (isspace((unsigned char)text[k])) {
                end = k;
                break;
            }
        n++;
        i = end;
    }
    return n;
}
