/* stats.c - length statistics of a prompt set (for `smfw dataset show|validate` and docs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <smfw/tokenizer.h>

#include "dataset_internal.h"

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least p% of the values at or below it. */
static int64_t nearest_rank(const int64_t *v, size_t n, double p) {
    size_t rank = (size_t)((p / 100.0) * (double)n + 0.999999999);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return v[rank - 1];
}

void smfw_length_summarise(int64_t *v, size_t n, smfw_length_summary *out) {
    memset(out, 0, sizeof *out);
    if (n == 0) return;
    qsort(v, n, sizeof *v, cmp_i64);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += (double)v[i];
    out->count = n;
    out->min = v[0];
    out->max = v[n - 1];
    out->mean = sum / (double)n;
    out->p10 = nearest_rank(v, n, 10);
    out->p25 = nearest_rank(v, n, 25);
    out->median = nearest_rank(v, n, 50);
    out->p75 = nearest_rank(v, n, 75);
    out->p90 = nearest_rank(v, n, 90);
    out->p99 = nearest_rank(v, n, 99);
}

smfw_status smfw_dataset_stats_compute(const smfw_prompt_set *set, smfw_dataset_stats *out,
                                       smfw_error *err) {
    memset(out, 0, sizeof *out);
    size_t n = set ? set->count : 0;
    int64_t *in = malloc((n ? n : 1) * sizeof *in);
    int64_t *chars = malloc((n ? n : 1) * sizeof *chars);
    int64_t *budget = malloc((n ? n : 1) * sizeof *budget);
    json_t *sessions = json_object();
    if (!in || !chars || !budget || !sessions) {
        free(in);
        free(chars);
        free(budget);
        json_decref(sessions);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        const smfw_prompt *p = &set->prompts[i];
        size_t len = p->text_len ? p->text_len : (p->text ? strlen(p->text) : 0);
        in[i] = p->input_tokens >= 0 ? p->input_tokens : smfw_estimate_tokens(p->text, len);
        chars[i] = (int64_t)len;
        if (p->output_length > 0) budget[nb++] = p->output_length;
        if (p->session_id) json_object_set_new(sessions, p->session_id, json_true());
    }
    out->prompts = n;
    out->sessions = json_object_size(sessions);
    out->without_budget = n - nb;
    smfw_length_summarise(in, n, &out->input_tokens);
    smfw_length_summarise(chars, n, &out->input_chars);
    smfw_length_summarise(budget, nb, &out->output_length);
    free(in);
    free(chars);
    free(budget);
    json_decref(sessions);
    return SMFW_OK;
}

smfw_status smfw_dataset_stats_count_tokens(const smfw_prompt_set *set, smfw_tokenizer *tok,
                                            smfw_dataset_stats *stats, smfw_error *err) {
    size_t n = set ? set->count : 0;
    int64_t *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const smfw_prompt *p = &set->prompts[i];
        size_t len = p->text_len ? p->text_len : (p->text ? strlen(p->text) : 0);
        long long c = smfw_tokenizer_count(tok, p->text ? p->text : "", len, err);
        if (c < 0) {
            free(v);
            return err ? err->status : SMFW_ERR_INTERNAL;
        }
        v[i] = c;
    }
    smfw_length_summarise(v, n, &stats->input_tokens_exact);
    snprintf(stats->tokenizer, sizeof stats->tokenizer, "%s", smfw_tokenizer_name(tok));
    free(v);
    return SMFW_OK;
}

static void row(FILE *out, const char *name, const smfw_length_summary *s) {
    if (s->count == 0) {
        fprintf(out, "| %s | 0 | - | - | - | - | - | - | - | - | - |\n", name);
        return;
    }
    fprintf(out, "| %s | %zu | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %.1f |\n",
            name, s->count, (long long)s->min, (long long)s->p10, (long long)s->p25,
            (long long)s->median, (long long)s->p75, (long long)s->p90, (long long)s->p99,
            (long long)s->max, s->mean);
}

void smfw_dataset_stats_print(const smfw_dataset_stats *s, FILE *out) {
    fprintf(out, "prompts: %zu", s->prompts);
    if (s->sessions) fprintf(out, ", sessions: %zu", s->sessions);
    if (s->without_budget) fprintf(out, ", without an output budget: %zu", s->without_budget);
    fprintf(out, "\n\n");
    fprintf(out, "| | count | min | p10 | p25 | median | p75 | p90 | p99 | max | mean |\n");
    fprintf(out, "|---|---|---|---|---|---|---|---|---|---|---|\n");
    row(out, "input tokens (estimated)", &s->input_tokens);
    if (s->input_tokens_exact.count) {
        char name[300];
        snprintf(name, sizeof name, "input tokens (%s)", s->tokenizer);
        row(out, name, &s->input_tokens_exact);
    }
    row(out, "input bytes", &s->input_chars);
    row(out, "output budget (tokens)", &s->output_length);
}
