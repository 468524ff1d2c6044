/*
 * test_direct_aiperf_fixtures.c - the direct backend's measurement path
 * reproduces AIPerf: each record of the real AIPerf exports in
 * tests/data/aiperf is turned back into the raw timing the direct
 * backend collects (request start, one stamp per content response, token
 * counts), run through smfw_record_derive() as record_build.c does, and the
 * derived per-request values (TTFT, TTST, latency, ICL, ITL, per-user and
 * prefill throughput, OSL) must be AIPerf's doubles bit for bit. Where a
 * fixture holds every record, the aggregates computed from the re-derived
 * records must be the JSON summary's doubles bit for bit (and its 2-decimal
 * CSV cells).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "smfw_test.h"

static void expect_bits(const char *what, double got, double want) {
    ck_assert_msg(memcmp(&got, &want, sizeof got) == 0, "%s: got %.17g (%a) want %.17g (%a)", what,
                  got, got, want, want);
}

static int64_t ns_of(double base_value) {
    return (int64_t)llround(base_value);
}

/*
 * Rebuild the timing of a valid AIPerf record: start at an arbitrary monotonic
 * instant, first content response TTFT later, then one response per ICL gap;
 * the last one lands exactly at the request latency.
 */
static void rederive(const smfw_record *in, smfw_record *out, int64_t **buf) {
    const int64_t start = 5000000000LL;
    size_t n = in->icl_len + 1;
    int64_t *c = malloc(n * sizeof *c);
    ck_assert_ptr_nonnull(c);
    c[0] = start + ns_of(in->values[SMFW_M_TIME_TO_FIRST_TOKEN]);
    for (size_t i = 1; i < n; i++) c[i] = c[i - 1] + ns_of(in->icl[i - 1]);
    int64_t last = start + ns_of(in->values[SMFW_M_REQUEST_LATENCY]);
    /* The reader gives back whole ns, so the gaps add up to the latency exactly. */
    ck_assert_msg(c[n - 1] == last, "ICL sum %lld vs latency %lld", (long long)(c[n - 1] - start),
                  (long long)(last - start));
    c[n - 1] = last;
    smfw_response_timing t;
    memset(&t, 0, sizeof t);
    t.streaming = 1;
    t.start_mono_ns = start;
    t.content_ns = c;
    t.n_content = n;
    int reasoning = smfw_record_has(in, SMFW_M_REASONING_TOKEN_COUNT);
    t.first_output_mono_ns = reasoning ? 0 : c[0];
    t.input_tokens = smfw_record_has(in, SMFW_M_INPUT_SEQUENCE_LENGTH)
                         ? (int64_t)in->values[SMFW_M_INPUT_SEQUENCE_LENGTH]
                         : -1;
    t.output_tokens = smfw_record_has(in, SMFW_M_OUTPUT_TOKEN_COUNT)
                          ? (int64_t)in->values[SMFW_M_OUTPUT_TOKEN_COUNT]
                          : (reasoning ? 0 : -1);
    t.reasoning_tokens = reasoning ? (int64_t)in->values[SMFW_M_REASONING_TOKEN_COUNT] : -1;
    t.usage_prompt_tokens = t.usage_completion_tokens = t.usage_total_tokens =
        t.usage_reasoning_tokens = -1;
    smfw_record_init(out);
    out->request_start_ns = in->request_start_ns;
    out->request_end_ns = in->request_end_ns;
    out->session_num = in->session_num;
    ck_assert_int_eq(smfw_record_derive(out, &t), SMFW_OK);
    ck_assert_ptr_null(out->error);
    *buf = c;
}

static const smfw_metric_id compared_ids[] = {SMFW_M_TIME_TO_FIRST_TOKEN,
                                              SMFW_M_TIME_TO_SECOND_TOKEN,
                                              SMFW_M_REQUEST_LATENCY,
                                              SMFW_M_INTER_TOKEN_LATENCY,
                                              SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER,
                                              SMFW_M_PREFILL_THROUGHPUT_PER_USER,
                                              SMFW_M_OUTPUT_SEQUENCE_LENGTH,
                                              SMFW_M_INPUT_SEQUENCE_LENGTH,
                                              SMFW_M_OUTPUT_TOKEN_COUNT,
                                              SMFW_M_REASONING_TOKEN_COUNT,
                                              SMFW_M_TIME_TO_FIRST_OUTPUT_TOKEN};

/* Derived per-record values equal AIPerf's for every valid record of a JSONL file. */
static size_t check_records(const char *rel, smfw_results **keep) {
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export.jsonl", smfw_test_data(rel));
    smfw_error err;
    smfw_results *theirs = smfw_results_new();
    ck_assert_msg(smfw_results_load_jsonl(theirs, path, &err) == SMFW_OK, "%s", err.message);
    smfw_results *mine = smfw_results_new();
    size_t checked = 0;
    for (size_t i = 0; i < theirs->n_records; i++) {
        smfw_record *in = &theirs->records[i];
        smfw_record out;
        if (in->error) {
            /* Error records pass through unchanged (errors feed only the error metrics). */
            ck_assert_int_eq(smfw_results_add_record(mine, in, &err), SMFW_OK);
            continue;
        }
        int64_t *c = NULL;
        rederive(in, &out, &c);
        for (size_t k = 0; k < sizeof compared_ids / sizeof compared_ids[0]; k++) {
            smfw_metric_id id = compared_ids[k];
            if (!smfw_record_has(in, id)) continue;
            char what[160];
            snprintf(what, sizeof what, "%s record %zu %s", rel, i, smfw_metric_get(id)->tag);
            ck_assert_msg(smfw_record_has(&out, id), "%s missing", what);
            expect_bits(what, out.values[id], in->values[id]);
        }
        ck_assert_uint_eq(out.icl_len, in->icl_len);
        for (size_t k = 0; k < in->icl_len; k++)
            ck_assert_msg(out.icl[k] == in->icl[k], "%s record %zu icl %zu", rel, i, k);
        free(c);
        ck_assert_int_eq(smfw_results_add_record(mine, &out, &err), SMFW_OK);
        checked++;
    }
    smfw_results_free(theirs);
    if (keep)
        *keep = mine;
    else
        smfw_results_free(mine);
    return checked;
}

START_TEST(qwen_sweep_records_rederived) {
    static const char *const runs[] = {
        "aiperf/2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency1",
        "aiperf/2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency2",
        "aiperf/2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency4"};
    for (size_t i = 0; i < 3; i++) ck_assert_uint_eq(check_records(runs[i], NULL), 10);
}
END_TEST

START_TEST(legacy_run_rederived_and_aggregated) {
    const char *rel = "aiperf/legacy-2025-10-example-run1";
    smfw_results *mine = NULL;
    ck_assert_uint_eq(check_records(rel, &mine), 89);
    smfw_error err;
    ck_assert_int_eq(smfw_results_compute(mine, NULL, 0, &err), SMFW_OK);
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export_aiperf.json", smfw_test_data(rel));
    smfw_results *theirs = smfw_results_new();
    ck_assert_msg(smfw_results_load_aiperf_json(theirs, path, &err) == SMFW_OK, "%s", err.message);
    int compared = 0;
    for (int id = 0; id < SMFW_M_COUNT_; id++) {
        const smfw_stats *t = &theirs->stats[id];
        if (!t->present) continue;
        const smfw_stats *m = &mine->stats[id];
        const char *tag = smfw_metric_get((smfw_metric_id)id)->tag;
        ck_assert_msg(m->present, "%s missing", tag);
        char what[160];
        snprintf(what, sizeof what, "%s avg", tag);
        expect_bits(what, m->avg, t->avg);
        if (t->fields & SMFW_STAT_MIN) {
            snprintf(what, sizeof what, "%s min", tag);
            expect_bits(what, m->min, t->min);
            snprintf(what, sizeof what, "%s max", tag);
            expect_bits(what, m->max, t->max);
            snprintf(what, sizeof what, "%s std", tag);
            expect_bits(what, m->std, t->std);
        }
        for (int p = 0; p < SMFW_PERCENTILE_COUNT; p++) {
            if (!(t->fields & (SMFW_STAT_P_FIRST << p))) continue;
            snprintf(what, sizeof what, "%s %s", tag, smfw_percentile_keys[p]);
            expect_bits(what, m->p[p], t->p[p]);
        }
        compared++;
    }
    ck_assert_int_ge(compared, 15);
    /* The CSV cells quoted in aiperf-compat.md §3, to the printed precision. */
    char cell[32];
    snprintf(cell, sizeof cell, "%.2f", mine->stats[SMFW_M_INTER_TOKEN_LATENCY].avg);
    ck_assert_str_eq(cell, "27.76");
    snprintf(cell, sizeof cell, "%.2f", mine->stats[SMFW_M_INTER_TOKEN_LATENCY].p[SMFW_P1]);
    ck_assert_str_eq(cell, "22.18");
    snprintf(cell, sizeof cell, "%.2f", mine->stats[SMFW_M_INTER_TOKEN_LATENCY].std);
    ck_assert_str_eq(cell, "3.73");
    snprintf(cell, sizeof cell, "%.2f", mine->stats[SMFW_M_INTER_CHUNK_LATENCY].p[SMFW_P99]);
    ck_assert_str_eq(cell, "140.53");
    snprintf(cell, sizeof cell, "%.2f", mine->stats[SMFW_M_OUTPUT_TOKEN_THROUGHPUT].avg);
    ck_assert_str_eq(cell, "2320.72");
    snprintf(cell, sizeof cell, "%.2f", mine->stats[SMFW_M_REQUEST_THROUGHPUT].avg);
    ck_assert_str_eq(cell, "9.55");
    ck_assert_double_eq(mine->stats[SMFW_M_REQUEST_COUNT].avg, 89);
    ck_assert_double_eq(mine->stats[SMFW_M_ERROR_REQUEST_COUNT].avg, 11);
    ck_assert_int_eq(mine->info.gate_tripped, 1);
    smfw_results_free(theirs);
    smfw_results_free(mine);
}
END_TEST

int main(void) {
    Suite *s = suite_create("direct_aiperf_fixtures");
    TCase *tc = tcase_create("all");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, qwen_sweep_records_rederived);
    tcase_add_test(tc, legacy_run_rederived_and_aggregated);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
