/*
 * test_stats_aiperf_bits.c - AIPerf's numbers reproduced bit for bit from its
 * own per-request records.
 *
 * AIPerf (aiperf/metrics/metric_dicts.py MetricArray, 2025-10) appends each
 * record's value in base units (ns as a float64 numpy array) as records reach
 * its records manager, takes np.percentile / np.mean / np.std of that array,
 * and only then converts to display units with value * (1000 / 1e9), i.e.
 * x 1e-6 (aiperf/exporters/display_units_utils.py to_display_unit,
 * MetricTimeUnit.convert_to in aiperf/common/enums/metric_enums.py). The
 * per-record values of profile_export.jsonl are converted the same way.
 *
 * Only legacy-2025-10-example-run1 holds every record of its run; the
 * 2025-11 sweep keeps 10 of 64 records and the 0.10 fixture none, so their
 * summaries cannot be recomputed (their per-record values are checked in
 * test_direct_aiperf_fixtures.c). For the legacy run every statistic of
 * every metric in profile_export_aiperf.json must be the same double (the
 * JSON holds shortest round-trip reprs; jansson reads them with strtod).
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "smfw_test.h"

#define LEGACY "aiperf/legacy-2025-10-example-run1"

static int same_bits(double a, double b) {
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

static void expect_bits(const char *what, double got, double want) {
    ck_assert_msg(same_bits(got, want), "%s: smfw %.17g (%a), AIPerf %.17g (%a)", what, got, got,
                  want, want);
}

/* Every number of every metric in the legacy summary against smfw's statistics. */
static int compare_with_summary(const smfw_results *mine, const char *label) {
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export_aiperf.json", smfw_test_data(LEGACY));
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    ck_assert_msg(root != NULL, "%s: %s", path, je.text);
    json_t *records = json_object_get(root, "records");
    ck_assert(json_is_object(records));
    static const struct {
        const char *key;
        size_t off;
    } fields[] = {{"avg", offsetof(smfw_stats, avg)},
                  {"min", offsetof(smfw_stats, min)},
                  {"max", offsetof(smfw_stats, max)},
                  {"std", offsetof(smfw_stats, std)}};
    int compared = 0, metrics = 0;
    const char *key;
    json_t *m;
    json_object_foreach(records, key, m) {
        const char *tag = json_string_value(json_object_get(m, "tag"));
        int id = smfw_metric_find(tag);
        ck_assert_msg(id >= 0, "unknown metric %s", tag);
        const smfw_stats *s = &mine->stats[id];
        ck_assert_msg(s->present, "%s: %s not computed", label, tag);
        char what[256];
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            json_t *v = json_object_get(m, fields[i].key);
            if (json_is_null(v)) continue;
            ck_assert_msg(json_is_real(v), "%s.%s", tag, fields[i].key);
            snprintf(what, sizeof what, "%s: %s %s", label, tag, fields[i].key);
            expect_bits(what, *(const double *)((const char *)s + fields[i].off),
                        json_real_value(v));
            compared++;
        }
        for (int p = 0; p < SMFW_PERCENTILE_COUNT; p++) {
            json_t *v = json_object_get(m, smfw_percentile_keys[p]);
            if (!v || json_is_null(v)) continue; /* no p10 in 2025-10 */
            snprintf(what, sizeof what, "%s: %s %s", label, tag, smfw_percentile_keys[p]);
            expect_bits(what, s->p[p], json_real_value(v));
            compared++;
        }
        json_t *count = json_object_get(m, "count");
        if (json_is_integer(count) && s->fields & SMFW_STAT_COUNT)
            ck_assert_uint_eq(s->count, (uint64_t)json_integer_value(count));
        metrics++;
    }
    /* 10 distributions x 12 numbers, 11 single values (counts, window, totals, throughputs). */
    ck_assert_int_eq(metrics, 21);
    ck_assert_int_eq(compared, 10 * 12 + 11);
    json_decref(root);
    return compared;
}

/* The legacy run's 100 records read back from AIPerf's JSONL, aggregated when asked. */
static smfw_results *load_legacy(int compute) {
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export.jsonl", smfw_test_data(LEGACY));
    smfw_error err;
    smfw_results *r = smfw_results_new();
    ck_assert_msg(smfw_results_load_jsonl(r, path, &err) == SMFW_OK, "%s", err.message);
    ck_assert_uint_eq(r->n_records, 100);
    if (compute) ck_assert_int_eq(smfw_results_compute(r, NULL, 0, &err), SMFW_OK);
    return r;
}

/* The managed path: AIPerf's JSONL read back, every aggregate recomputed. */
START_TEST(legacy_summary_bit_exact_from_jsonl) {
    smfw_results *r = load_legacy(1);
    compare_with_summary(r, "from jsonl");
    smfw_results_free(r);
}
END_TEST

/*
 * The records in file order instead of completion order: the integer-valued
 * metrics' avg and percentiles do not move, but std sums squared deviations
 * that are not integers, so request_latency and output_sequence_length std
 * land one bit off. This is why smfw_results_compute aggregates by request end.
 */
START_TEST(file_order_moves_std_by_one_bit) {
    smfw_results *r = load_legacy(1);
    double *v = malloc(r->n_records * sizeof *v);
    ck_assert_ptr_nonnull(v);
    static const smfw_metric_id ids[] = {SMFW_M_REQUEST_LATENCY, SMFW_M_OUTPUT_SEQUENCE_LENGTH};
    for (size_t k = 0; k < 2; k++) {
        size_t n = 0;
        for (size_t i = 0; i < r->n_records; i++)
            if (!r->records[i].error) v[n++] = r->records[i].values[ids[k]];
        smfw_stats file_order;
        const smfw_metric_info *mi = smfw_metric_get(ids[k]);
        ck_assert_int_eq(smfw_stats_compute(v, n, mi->display_scale, &file_order), SMFW_OK);
        const smfw_stats *done = &r->stats[ids[k]];
        ck_assert_msg(!same_bits(file_order.std, done->std), "%s std does not depend on order",
                      mi->tag);
        uint64_t a, b;
        memcpy(&a, &file_order.std, sizeof a);
        memcpy(&b, &done->std, sizeof b);
        ck_assert_msg(a - b == 1 || b - a == 1, "%s std: %a vs %a", mi->tag, file_order.std,
                      done->std);
        expect_bits(mi->tag, file_order.avg, done->avg);
    }
    free(v);
    smfw_results_free(r);
}
END_TEST

/* Each record written back by smfw carries AIPerf's per-record numbers bit for bit. */
static void jsonl_values_round_trip(const char *rel, size_t want_records) {
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export.jsonl", smfw_test_data(rel));
    char *text = smfw_test_read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    size_t records = 0, values = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        smfw_record rec;
        smfw_error err;
        ck_assert_msg(smfw_record_from_jsonl(line, strlen(line), &rec, &err) == SMFW_OK, "%s",
                      err.message);
        char *ours = NULL;
        ck_assert_int_eq(smfw_record_to_jsonl(&rec, &ours, &err), SMFW_OK);
        json_t *theirs = json_loads(line, 0, NULL), *back = json_loads(ours, 0, NULL);
        ck_assert(theirs && back);
        json_t *tm = json_object_get(theirs, "metrics"), *bm = json_object_get(back, "metrics");
        const char *tag;
        json_t *obj;
        json_object_foreach(tm, tag, obj) {
            int id = smfw_metric_find(tag);
            if (id < 0 || !smfw_metric_is_per_record((smfw_metric_id)id))
                continue; /* legacy aggregate-only tags */
            json_t *mine = json_object_get(json_object_get(bm, smfw_metric_get(id)->tag), "value");
            json_t *want = json_object_get(obj, "value");
            char what[256];
            snprintf(what, sizeof what, "%s record %zu %s", rel, records, tag);
            ck_assert_msg(mine != NULL, "%s missing", what);
            if (json_is_array(want)) {
                ck_assert_uint_eq(json_array_size(mine), json_array_size(want));
                for (size_t i = 0; i < json_array_size(want); i++, values++)
                    expect_bits(what, json_number_value(json_array_get(mine, i)),
                                json_number_value(json_array_get(want, i)));
            } else {
                expect_bits(what, json_number_value(mine), json_number_value(want));
                values++;
            }
        }
        json_decref(theirs);
        json_decref(back);
        free(ours);
        smfw_record_clear(&rec);
        records++;
    }
    ck_assert_uint_eq(records, want_records);
    ck_assert_uint_gt(values, want_records);
    free(text);
}

START_TEST(jsonl_writer_reproduces_aiperf_values) {
    jsonl_values_round_trip(LEGACY, 100);
    jsonl_values_round_trip("aiperf/2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency1", 10);
    jsonl_values_round_trip("aiperf/2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency2", 10);
    jsonl_values_round_trip("aiperf/2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency4", 10);
}
END_TEST

/* The reader gives back AIPerf's base values: whole ns, and ITL from its formula. */
START_TEST(reader_recovers_base_values) {
    smfw_results *r = load_legacy(0);
    size_t itl = 0;
    for (size_t i = 0; i < r->n_records; i++) {
        const smfw_record *rec = &r->records[i];
        if (rec->error) continue;
        static const smfw_metric_id whole[] = {SMFW_M_TIME_TO_FIRST_TOKEN,
                                               SMFW_M_TIME_TO_SECOND_TOKEN, SMFW_M_REQUEST_LATENCY};
        for (size_t k = 0; k < 3; k++) {
            double v = rec->values[whole[k]];
            ck_assert_msg(v == (double)(int64_t)v, "record %zu %s = %.17g is not whole ns", i,
                          smfw_metric_get(whole[k])->tag, v);
        }
        for (size_t k = 0; k < rec->icl_len; k++)
            ck_assert(rec->icl[k] == (double)(int64_t)rec->icl[k]);
        double want =
            (rec->values[SMFW_M_REQUEST_LATENCY] - rec->values[SMFW_M_TIME_TO_FIRST_TOKEN]) /
            (rec->values[SMFW_M_OUTPUT_SEQUENCE_LENGTH] - 1);
        expect_bits("itl", rec->values[SMFW_M_INTER_TOKEN_LATENCY], want);
        itl++;
    }
    ck_assert_uint_eq(itl, 89);
    smfw_results_free(r);
}
END_TEST

/*
 * AIPerf 0.8+ writes `sum` = MetricArray.sum, GrowableArray's running sum (track_sum:
 * 0.0, then += each value as it is appended; a list-valued metric such as ICL adds
 * float(np.sum(list)) per record). No fixture holds both a sum and its records, so the
 * rule is pinned on the legacy records: in completion order, and not np.sum, which
 * differs here for the per-user throughput (whole-valued metrics sum exactly either way).
 */
START_TEST(sum_is_aiperf_running_sum) {
    smfw_results *r = load_legacy(1);
    /* Completion order, as the records manager appends (request end, then position). */
    size_t n = 0, *order = malloc(r->n_records * sizeof *order);
    ck_assert_ptr_nonnull(order);
    for (size_t i = 0; i < r->n_records; i++)
        if (!r->records[i].error) order[n++] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0; j--) {
            const smfw_record *a = &r->records[order[j - 1]], *b = &r->records[order[j]];
            int64_t ea = a->request_start_ns + (int64_t)llround(a->values[SMFW_M_REQUEST_LATENCY]);
            int64_t eb = b->request_start_ns + (int64_t)llround(b->values[SMFW_M_REQUEST_LATENCY]);
            if (ea <= eb) break;
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    double *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    int differs = 0;
    for (int m = 0; m < SMFW_M_COUNT_; m++) {
        if (m == SMFW_M_INTER_CHUNK_LATENCY || !r->stats[m].present ||
            smfw_metric_get((smfw_metric_id)m)->kind != SMFW_METRIC_RECORD)
            continue;
        size_t k = 0;
        double run = 0.0;
        for (size_t i = 0; i < n; i++)
            if (smfw_record_has(&r->records[order[i]], (smfw_metric_id)m)) {
                v[k] = r->records[order[i]].values[m];
                run += v[k++];
            }
        double scale = smfw_metric_get((smfw_metric_id)m)->display_scale;
        expect_bits(smfw_metric_get((smfw_metric_id)m)->tag, r->stats[m].sum, run * scale);
        if (!same_bits(run * scale, smfw_stats_sum(v, k) * scale)) differs++;
    }
    ck_assert_int_ge(differs, 1); /* per-user throughput here (ITL's sums happen to agree) */
    double icl = 0.0;
    for (size_t i = 0; i < n; i++)
        icl += smfw_stats_sum(r->records[order[i]].icl, r->records[order[i]].icl_len);
    expect_bits("inter_chunk_latency sum", r->stats[SMFW_M_INTER_CHUNK_LATENCY].sum, icl * 1e-6);
    free(v);
    free(order);
    smfw_results_free(r);
}
END_TEST

int main(void) {
    Suite *s = suite_create("stats_aiperf_bits");
    TCase *tc = tcase_create("legacy");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, legacy_summary_bit_exact_from_jsonl);
    tcase_add_test(tc, file_order_moves_std_by_one_bit);
    tcase_add_test(tc, jsonl_writer_reproduces_aiperf_values);
    tcase_add_test(tc, reader_recovers_base_values);
    tcase_add_test(tc, sum_is_aiperf_running_sum);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
