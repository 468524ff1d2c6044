/*
 * results.c - the results model: records in, aggregates out, with AIPerf's
 * record rules (aiperf-compat §1.4-1.5, §2) and the managed service's
 * validity gate.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/log.h>
#include <smfw/results.h>

#include "results_internal.h"

static smfw_results_private *priv(const smfw_results *r) {
    return (smfw_results_private *)r->internal_;
}

smfw_results *smfw_results_new(void) {
    smfw_results *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    smfw_results_private *p = calloc(1, sizeof *p);
    if (!p) {
        free(r);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    r->internal_ = p;
    r->info.max_error_rate = 0.01;
    r->info.dataset_count = -1;
    return r;
}

void smfw_results_set_string(char **field, const char *value) {
    char *copy = value ? strdup(value) : NULL;
    free(*field);
    *field = copy;
}

static void info_free(smfw_run_info *i) {
    char **fields[] = {&i->run_name,
                       &i->backend,
                       &i->target,
                       &i->endpoint_name,
                       &i->inference_component,
                       &i->url,
                       &i->region,
                       &i->model,
                       &i->endpoint_type,
                       &i->dataset_name,
                       &i->dataset_file,
                       &i->dataset_sha256,
                       &i->dataset_token_lengths,
                       &i->token_count_source,
                       &i->smfw_version,
                       &i->aiperf_version,
                       &i->schema_version,
                       &i->benchmark_id,
                       &i->shard,
                       &i->failure_reason,
                       &i->input_config_json,
                       &i->smfw_json,
                       &i->job_name,
                       &i->source_dir};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        free(*fields[k]);
        *fields[k] = NULL;
    }
}

void smfw_results_free(smfw_results *r) {
    if (!r) return;
    smfw_results_close_jsonl(r, NULL);
    for (size_t i = 0; i < r->n_records; i++) smfw_record_clear(&r->records[i]);
    free(r->records);
    for (size_t i = 0; i < r->n_extra; i++) {
        free(r->extra[i].tag);
        free(r->extra[i].header);
        free(r->extra[i].unit);
    }
    free(r->extra);
    for (size_t i = 0; i < r->n_errors; i++) {
        free(r->errors[i].type);
        free(r->errors[i].message);
    }
    free(r->errors);
    info_free(&r->info);
    smfw_results_private *p = priv(r);
    smfw_results_access_free(p);
    pthread_mutex_destroy(&p->lock);
    free(p->jsonl_path);
    free(p);
    free(r);
}

smfw_status smfw_results_open_jsonl(smfw_results *r, const char *path, smfw_error *err) {
    smfw_results_private *p = priv(r);
    pthread_mutex_lock(&p->lock);
    if (p->jsonl) fclose(p->jsonl);
    p->jsonl = fopen(path, "w");
    if (!p->jsonl) {
        int e = errno;
        pthread_mutex_unlock(&p->lock);
        return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(e));
    }
    free(p->jsonl_path);
    p->jsonl_path = strdup(path);
    pthread_mutex_unlock(&p->lock);
    return SMFW_OK;
}

smfw_status smfw_results_close_jsonl(smfw_results *r, smfw_error *err) {
    smfw_results_private *p = priv(r);
    pthread_mutex_lock(&p->lock);
    smfw_status st = SMFW_OK;
    if (p->jsonl) {
        if (fclose(p->jsonl) != 0)
            st = smfw_error_set(err, SMFW_ERR_IO, "cannot finish writing %s: %s",
                                p->jsonl_path ? p->jsonl_path : "profile_export.jsonl",
                                strerror(errno));
        p->jsonl = NULL;
    }
    pthread_mutex_unlock(&p->lock);
    return st;
}

smfw_status smfw_results_add_record(smfw_results *r, smfw_record *rec, smfw_error *err) {
    smfw_results_private *p = priv(r);
    char *line = NULL;
    smfw_status st = SMFW_OK;
    if (p->jsonl) {
        /* Serialise outside the lock: workers add records concurrently. */
        st = smfw_record_to_jsonl(rec, &line, err);
        if (st != SMFW_OK) return st;
    }
    pthread_mutex_lock(&p->lock);
    if (r->n_records == r->records_cap) {
        size_t cap = r->records_cap ? r->records_cap * 2 : 256;
        smfw_record *grown = realloc(r->records, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&p->lock);
            free(line);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory storing record %zu",
                                  r->n_records);
        }
        r->records = grown;
        r->records_cap = cap;
    }
    r->records[r->n_records++] = *rec;
    smfw_record_init(rec);
    if (p->jsonl && line) {
        if (fputs(line, p->jsonl) == EOF || fputc('\n', p->jsonl) == EOF || fflush(p->jsonl) != 0)
            st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", p->jsonl_path,
                                strerror(errno));
    }
    pthread_mutex_unlock(&p->lock);
    free(line);
    return st;
}

double smfw_results_error_rate(const smfw_results *r) {
    double valid = 0, errors = 0;
    if (r->n_records) {
        for (size_t i = 0; i < r->n_records; i++) {
            if (r->records[i].error)
                errors++;
            else
                valid++;
        }
    } else {
        if (r->stats[SMFW_M_REQUEST_COUNT].present) valid = r->stats[SMFW_M_REQUEST_COUNT].avg;
        if (r->stats[SMFW_M_ERROR_REQUEST_COUNT].present)
            errors = r->stats[SMFW_M_ERROR_REQUEST_COUNT].avg;
    }
    return valid + errors > 0 ? errors / (valid + errors) : 0.0;
}

static int str_eq(const char *a, const char *b) {
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

/* One entry per (code, class, type), its first message as the example: messages carry
 * per-request details (ids, times, ports), and grouping by them floods the list with entries
 * of one each while the count of the kind that matters is lost. */
static smfw_status add_error_summary(smfw_results *r, const smfw_record_error *e) {
    for (size_t i = 0; i < r->n_errors; i++) {
        smfw_error_summary_entry *x = &r->errors[i];
        if (x->has_code == e->has_code && (!e->has_code || x->code == e->code) &&
            x->error_class == e->error_class && str_eq(x->type, e->type)) {
            x->count++;
            return SMFW_OK;
        }
    }
    smfw_error_summary_entry *grown = realloc(r->errors, (r->n_errors + 1) * sizeof *grown);
    if (!grown) return SMFW_ERR_NOMEM;
    r->errors = grown;
    smfw_error_summary_entry *x = &r->errors[r->n_errors++];
    memset(x, 0, sizeof *x);
    x->has_code = e->has_code;
    x->code = e->code;
    x->type = smfw_strdup_or_null(e->type);
    x->message = smfw_strdup_or_null(e->message);
    x->error_class = e->error_class;
    x->count = 1;
    return SMFW_OK;
}

/* Does a valid record meet every goodput SLO? (aiperf-compat §2.2) */
static int record_is_good(const smfw_record *rec, const smfw_goodput_slo *slos, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const smfw_metric_info *mi = smfw_metric_get(slos[i].metric);
        if (!mi || !smfw_record_has(rec, slos[i].metric)) return 0;
        double v = rec->values[slos[i].metric] * mi->display_scale;
        if (mi->larger_is_better ? v < slos[i].threshold : v > slos[i].threshold) return 0;
    }
    return 1;
}

typedef struct {
    int64_t end;
    size_t index;
} end_key;

static int cmp_end_key(const void *a, const void *b) {
    const end_key *x = a, *y = b;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The order in which valid records feed the distributions. AIPerf appends each
 * value as its record reaches the records manager, i.e. in completion order,
 * while its profile_export.jsonl comes out in another order; the pairwise sums
 * behind avg and std depend on the order (the legacy fixture's request_latency
 * and output_sequence_length std differ in the last bit in file order). So:
 * by request end (start + latency), ties by position; input order when any
 * valid record lacks either time. Error records keep their order.
 */
static size_t *aggregation_order(const smfw_results *r) {
    size_t n = r->n_records;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    end_key *keys = malloc((n ? n : 1) * sizeof *keys);
    if (!order || !keys) {
        free(order);
        free(keys);
        return NULL;
    }
    size_t k = 0, e = 0;
    int timed = 1;
    for (size_t i = 0; i < n; i++) {
        const smfw_record *rec = &r->records[i];
        if (rec->error) continue;
        if (rec->request_start_ns <= 0 || !smfw_record_has(rec, SMFW_M_REQUEST_LATENCY)) timed = 0;
        keys[k].end = rec->request_start_ns + (int64_t)llround(rec->values[SMFW_M_REQUEST_LATENCY]);
        keys[k].index = i;
        k++;
    }
    if (timed) qsort(keys, k, sizeof *keys, cmp_end_key);
    for (size_t i = 0; i < k; i++) order[i] = keys[i].index;
    for (size_t i = 0; i < n; i++)
        if (r->records[i].error) order[k + e++] = i;
    free(keys);
    return order;
}

/* AIPerf's UsageDiscrepancyCountMetric for one valid record: 1 when the prompt, completion or
 * (if present) reasoning difference exceeds AIPerf's default AIPERF_METRICS_USAGE_PCT_DIFF_
 * THRESHOLD of 10 %, 0 when none does, -1 (no value) without both the prompt and the
 * completion difference, which it requires. */
static int usage_discrepant(const smfw_record *rec) {
    const double threshold = 10.0;
    if (!smfw_record_has(rec, SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT) ||
        !smfw_record_has(rec, SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT))
        return -1;
    if (rec->values[SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT] > threshold) return 1;
    if (rec->values[SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT] > threshold) return 1;
    return smfw_record_has(rec, SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT) &&
           rec->values[SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT] > threshold;
}

smfw_status smfw_results_compute(smfw_results *r, const smfw_goodput_slo *slos, size_t n_slos,
                                 smfw_error *err) {
    size_t n = r->n_records;
    for (int m = 0; m < SMFW_M_COUNT_; m++) memset(&r->stats[m], 0, sizeof r->stats[m]);
    for (size_t i = 0; i < r->n_errors; i++) {
        free(r->errors[i].type);
        free(r->errors[i].message);
    }
    free(r->errors);
    r->errors = NULL;
    r->n_errors = 0;

    double *vals = malloc((n ? n : 1) * sizeof *vals);
    size_t *order = aggregation_order(r);
    if (!vals || !order) {
        free(vals);
        free(order);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory computing statistics");
    }
    size_t n_valid = 0, n_err = 0, n_icl = 0;
    for (size_t i = 0; i < n; i++) {
        if (r->records[i].error)
            n_err++;
        else {
            n_valid++;
            n_icl += r->records[i].icl_len;
        }
    }
    /* Per-record distributions over valid records (errors feed only error metrics). */
    for (int m = 0; m < SMFW_M_COUNT_; m++) {
        const smfw_metric_info *mi = smfw_metric_get((smfw_metric_id)m);
        if (m == SMFW_M_INTER_CHUNK_LATENCY || !smfw_metric_is_per_record((smfw_metric_id)m))
            continue;
        int want_errors = mi->kind == SMFW_METRIC_ERROR_RECORD;
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            const smfw_record *rec = &r->records[order[i]];
            if ((rec->error != NULL) != want_errors) continue;
            if (smfw_record_has(rec, (smfw_metric_id)m)) vals[k++] = rec->values[m];
        }
        if (k && smfw_stats_compute(vals, k, mi->display_scale, &r->stats[m]) != SMFW_OK) {
            free(vals);
            free(order);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory computing statistics");
        }
        /* AIPerf's sum is MetricArray's running sum (GrowableArray track_sum: += each value
         * as it is appended), not np.sum; they differ for values that are not whole. */
        if (k) {
            double run = 0.0;
            for (size_t i = 0; i < k; i++) run += vals[i];
            r->stats[m].sum = run * mi->display_scale;
        }
    }
    free(vals);
    /* Inter-chunk latency: every gap of every valid request pooled (chunk-weighted). */
    if (n_icl) {
        double *icl = malloc(n_icl * sizeof *icl);
        if (!icl) {
            free(order);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory pooling ICL");
        }
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            const smfw_record *rec = &r->records[order[i]];
            if (rec->error) continue;
            if (rec->icl_len)
                memcpy(icl + k, rec->icl, rec->icl_len * sizeof *icl); /* icl may be NULL */
            k += rec->icl_len;
        }
        smfw_status st = smfw_stats_compute(icl, k, 1e-6, &r->stats[SMFW_M_INTER_CHUNK_LATENCY]);
        /* ICL is extended a record's list at a time: the running sum adds np.sum of each list. */
        double run = 0.0;
        for (size_t i = 0; i < n; i++) {
            const smfw_record *rec = &r->records[order[i]];
            if (!rec->error) run += smfw_stats_sum(rec->icl, rec->icl_len);
        }
        r->stats[SMFW_M_INTER_CHUNK_LATENCY].sum = run * 1e-6;
        free(icl);
        if (st != SMFW_OK) {
            free(order);
            return smfw_error_set(err, st, "out of memory pooling ICL");
        }
    }
    free(order);
    /* Counts, timestamps, totals. */
    if (n_valid) smfw_stats_single(&r->stats[SMFW_M_REQUEST_COUNT], (double)n_valid);
    if (n_err) smfw_stats_single(&r->stats[SMFW_M_ERROR_REQUEST_COUNT], (double)n_err);
    int64_t min_start = 0, max_end = 0;
    int have_window = 0;
    double tot[SMFW_M_COUNT_] = {0};
    int have_tot[SMFW_M_COUNT_] = {0};
    size_t n_good = 0, n_discrepant = 0, n_compared = 0;
    for (size_t i = 0; i < n; i++) {
        const smfw_record *rec = &r->records[i];
        if (rec->error) {
            if (rec->error) add_error_summary(r, rec->error);
            if (smfw_record_has(rec, SMFW_M_ERROR_ISL)) {
                tot[SMFW_M_ERROR_ISL] += rec->values[SMFW_M_ERROR_ISL];
                have_tot[SMFW_M_ERROR_ISL] = 1;
            }
            continue;
        }
        static const smfw_metric_id summed[] = {
            SMFW_M_OUTPUT_SEQUENCE_LENGTH,    SMFW_M_INPUT_SEQUENCE_LENGTH,
            SMFW_M_OUTPUT_TOKEN_COUNT,        SMFW_M_REASONING_TOKEN_COUNT,
            SMFW_M_USAGE_PROMPT_TOKENS,       SMFW_M_USAGE_COMPLETION_TOKENS,
            SMFW_M_USAGE_TOTAL_TOKENS,        SMFW_M_USAGE_REASONING_TOKENS,
            SMFW_M_USAGE_PROMPT_CACHED_TOKENS};
        for (size_t k = 0; k < sizeof summed / sizeof summed[0]; k++) {
            if (smfw_record_has(rec, summed[k])) {
                tot[summed[k]] += rec->values[summed[k]];
                have_tot[summed[k]] = 1;
            }
        }
        if (rec->request_start_ns > 0 && smfw_record_has(rec, SMFW_M_REQUEST_LATENCY)) {
            int64_t start = rec->request_start_ns;
            int64_t end = start + (int64_t)llround(rec->values[SMFW_M_REQUEST_LATENCY]);
            if (!have_window || start < min_start) min_start = start;
            if (!have_window || end > max_end) max_end = end;
            have_window = 1;
        }
        if (n_slos && record_is_good(rec, slos, n_slos)) n_good++;
        int d = usage_discrepant(rec);
        if (d >= 0) {
            n_compared++;
            n_discrepant += (size_t)d;
        }
    }
    if (n_compared)
        smfw_stats_single(&r->stats[SMFW_M_USAGE_DISCREPANCY_COUNT], (double)n_discrepant);
    double dur_s = 0;
    if (have_window) {
        smfw_stats_single(&r->stats[SMFW_M_MIN_REQUEST_TIMESTAMP], (double)min_start);
        smfw_stats_single(&r->stats[SMFW_M_MAX_RESPONSE_TIMESTAMP], (double)max_end);
        dur_s = (double)(max_end - min_start) * 1e-9;
        smfw_stats_single(&r->stats[SMFW_M_BENCHMARK_DURATION], dur_s);
    }
    struct {
        smfw_metric_id from, to;
    } totals[] = {{SMFW_M_OUTPUT_SEQUENCE_LENGTH, SMFW_M_TOTAL_OSL},
                  {SMFW_M_INPUT_SEQUENCE_LENGTH, SMFW_M_TOTAL_ISL},
                  {SMFW_M_OUTPUT_TOKEN_COUNT, SMFW_M_TOTAL_OUTPUT_TOKENS},
                  {SMFW_M_REASONING_TOKEN_COUNT, SMFW_M_TOTAL_REASONING_TOKENS},
                  {SMFW_M_ERROR_ISL, SMFW_M_TOTAL_ERROR_ISL},
                  {SMFW_M_USAGE_PROMPT_TOKENS, SMFW_M_TOTAL_USAGE_PROMPT_TOKENS},
                  {SMFW_M_USAGE_COMPLETION_TOKENS, SMFW_M_TOTAL_USAGE_COMPLETION_TOKENS},
                  {SMFW_M_USAGE_TOTAL_TOKENS, SMFW_M_TOTAL_USAGE_TOTAL_TOKENS},
                  {SMFW_M_USAGE_REASONING_TOKENS, SMFW_M_TOTAL_USAGE_REASONING_TOKENS},
                  {SMFW_M_USAGE_PROMPT_CACHED_TOKENS, SMFW_M_TOTAL_USAGE_PROMPT_CACHED_TOKENS}};
    for (size_t k = 0; k < sizeof totals / sizeof totals[0]; k++)
        if (have_tot[totals[k].from])
            smfw_stats_single(&r->stats[totals[k].to], tot[totals[k].from]);
    if (dur_s > 0) {
        smfw_stats_single(&r->stats[SMFW_M_REQUEST_THROUGHPUT], (double)n_valid / dur_s);
        if (have_tot[SMFW_M_OUTPUT_SEQUENCE_LENGTH])
            smfw_stats_single(&r->stats[SMFW_M_OUTPUT_TOKEN_THROUGHPUT],
                              tot[SMFW_M_OUTPUT_SEQUENCE_LENGTH] / dur_s);
        if (have_tot[SMFW_M_OUTPUT_SEQUENCE_LENGTH] && have_tot[SMFW_M_INPUT_SEQUENCE_LENGTH])
            smfw_stats_single(
                &r->stats[SMFW_M_TOTAL_TOKEN_THROUGHPUT],
                (tot[SMFW_M_INPUT_SEQUENCE_LENGTH] + tot[SMFW_M_OUTPUT_SEQUENCE_LENGTH]) / dur_s);
        if (n_slos) {
            smfw_stats_single(&r->stats[SMFW_M_GOOD_REQUEST_COUNT], (double)n_good);
            smfw_stats_single(&r->stats[SMFW_M_GOODPUT], (double)n_good / dur_s);
        }
    }
    /* Validity gate, as the managed service applies it on top of AIPerf's counts. */
    double rate = smfw_results_error_rate(r);
    r->info.gate_tripped = (n_valid + n_err) > 0 && rate > r->info.max_error_rate;
    if (r->info.gate_tripped) {
        char reason[512];
        snprintf(reason, sizeof reason,
                 "AlgorithmError: Benchmark error rate %.2f%% (%zu/%zu) exceeds maximum %g%%",
                 rate * 100.0, n_err, n_valid + n_err, r->info.max_error_rate * 100.0);
        smfw_results_set_string(&r->info.failure_reason, reason);
    }
    return SMFW_OK;
}
