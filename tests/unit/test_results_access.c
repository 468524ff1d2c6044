/*
 * test_results_access.c - the accessors reporters read results through
 * (results.h, "reading results"): they answer what the fields hold, say
 * "absent" for metrics a run lacks, indices past the end, unknown ids and
 * NULL, and the typed JSON is the run's text parsed (cached, refreshed
 * when the text changes). Oracles: AIPerf's own v0.10.0 summary (its
 * input_config and the metrics this version does not know) read with
 * jansson straight from the file, and records built here.
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "smfw_test.h"

#define V010 "aiperf/v0.10.0-qwen3.6-agent-c16/profile_export_aiperf.json"

static smfw_results *two_records(void) {
    smfw_results *r = smfw_results_new();
    ck_assert_ptr_nonnull(r);
    smfw_error err;
    smfw_record rec;
    smfw_record_init(&rec);
    rec.request_start_ns = 1700000000000000000LL;
    rec.request_end_ns = 1700000000500000000LL;
    rec.intended_start_ns = 1699999999990000000LL;
    rec.x_request_id = strdup("req-1");
    smfw_record_set(&rec, SMFW_M_TIME_TO_FIRST_TOKEN, 2.5e7);
    smfw_record_set(&rec, SMFW_M_REQUEST_LATENCY, 5e8);
    smfw_record_set(&rec, SMFW_M_OUTPUT_SEQUENCE_LENGTH, 10);
    rec.icl = malloc(2 * sizeof *rec.icl);
    rec.icl[0] = 1e6;
    rec.icl[1] = 3e6;
    rec.icl_len = 2;
    ck_assert_int_eq(smfw_results_add_record(r, &rec, &err), SMFW_OK);
    smfw_record_init(&rec);
    rec.request_start_ns = 1700000000100000000LL;
    ck_assert_int_eq(
        smfw_record_set_error(&rec, SMFW_ERRCLASS_THROTTLED, 1, 429, "ThrottlingException", "slow"),
        SMFW_OK);
    ck_assert_int_eq(smfw_results_add_record(r, &rec, &err), SMFW_OK);
    ck_assert_int_eq(smfw_results_compute(r, NULL, 0, &err), SMFW_OK);
    return r;
}

START_TEST(stats_present_absent_and_out_of_range) {
    smfw_results *r = two_records();
    const smfw_stats *s = smfw_results_stat(r, SMFW_M_TIME_TO_FIRST_TOKEN);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_eq(s, &r->stats[SMFW_M_TIME_TO_FIRST_TOKEN]);
    ck_assert(s->fields & SMFW_STAT_AVG);
    ck_assert_double_eq(s->avg, 25.0); /* display units: ms */
    const smfw_stats *n = smfw_results_stat(r, SMFW_M_REQUEST_COUNT);
    ck_assert_ptr_nonnull(n);
    ck_assert_double_eq(n->avg, 1.0);
    /* A metric this run has not: no TTST (one content response), no goodput (no SLOs). */
    ck_assert_ptr_null(smfw_results_stat(r, SMFW_M_TIME_TO_SECOND_TOKEN));
    ck_assert_ptr_null(smfw_results_stat(r, SMFW_M_GOODPUT));
    /* Ids that are not metrics. */
    ck_assert_ptr_null(smfw_results_stat(r, SMFW_M_COUNT_));
    ck_assert_ptr_null(smfw_results_stat(r, (smfw_metric_id)-1));
    ck_assert_ptr_null(smfw_results_stat(r, (smfw_metric_id)100000));
    ck_assert_ptr_null(smfw_results_stat(NULL, SMFW_M_TIME_TO_FIRST_TOKEN));
    /* A fresh run has nothing. */
    smfw_results *empty = smfw_results_new();
    for (int id = 0; id < SMFW_M_COUNT_; id++)
        ck_assert_ptr_null(smfw_results_stat(empty, (smfw_metric_id)id));
    ck_assert_uint_eq(smfw_results_record_count(empty), 0);
    ck_assert_ptr_null(smfw_results_record(empty, 0));
    ck_assert_uint_eq(smfw_results_extra_count(empty), 0);
    ck_assert_ptr_null(smfw_results_extra(empty, 0));
    ck_assert_uint_eq(smfw_results_error_summary_count(empty), 0);
    ck_assert_ptr_null(smfw_results_error_summary(empty, 0));
    ck_assert_ptr_null(smfw_results_input_config(empty));
    ck_assert_ptr_null(smfw_results_client(empty));
    smfw_results_free(empty);
    smfw_results_free(r);
}
END_TEST

START_TEST(records_values_times_and_errors) {
    smfw_results *r = two_records();
    ck_assert_uint_eq(smfw_results_record_count(r), 2);
    ck_assert_ptr_null(smfw_results_record(r, 2));
    ck_assert_ptr_null(smfw_results_record(r, (size_t)-1));
    ck_assert_ptr_null(smfw_results_record(NULL, 0));
    ck_assert_uint_eq(smfw_results_record_count(NULL), 0);

    const smfw_record *ok = smfw_results_record(r, 0), *bad = smfw_results_record(r, 1);
    ck_assert_ptr_nonnull(ok);
    ck_assert_ptr_nonnull(bad);
    double v = -1;
    ck_assert_int_eq(smfw_record_value(ok, SMFW_M_TIME_TO_FIRST_TOKEN, &v), 1);
    ck_assert_double_eq(v, 2.5e7); /* base units: ns */
    ck_assert_int_eq(smfw_record_value(ok, SMFW_M_OUTPUT_SEQUENCE_LENGTH, &v), 1);
    ck_assert_double_eq(v, 10.0);
    v = -1;
    ck_assert_int_eq(smfw_record_value(ok, SMFW_M_TIME_TO_SECOND_TOKEN, &v), 0);
    ck_assert_double_eq(v, -1.0); /* untouched when absent */
    ck_assert_int_eq(smfw_record_value(ok, SMFW_M_REQUEST_THROUGHPUT, &v), 0); /* aggregate */
    ck_assert_int_eq(smfw_record_value(ok, SMFW_M_COUNT_, &v), 0);
    ck_assert_int_eq(smfw_record_value(ok, (smfw_metric_id)-1, &v), 0);
    ck_assert_int_eq(smfw_record_value(NULL, SMFW_M_TIME_TO_FIRST_TOKEN, &v), 0);
    ck_assert_int_eq(smfw_record_value(ok, SMFW_M_REQUEST_LATENCY, NULL), 1);
    /* The ICL is a list. */
    ck_assert_int_eq(smfw_record_value(ok, SMFW_M_INTER_CHUNK_LATENCY, &v), 0);
    size_t n = 99;
    const double *icl = smfw_record_icl(ok, &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_double_eq(icl[1], 3e6);
    ck_assert_ptr_null(smfw_record_icl(bad, &n));
    ck_assert_uint_eq(n, 0);

    ck_assert_int_eq(smfw_record_time_ns(ok, SMFW_RECORD_REQUEST_START), 1700000000000000000LL);
    ck_assert_int_eq(smfw_record_time_ns(ok, SMFW_RECORD_REQUEST_END), 1700000000500000000LL);
    ck_assert_int_eq(smfw_record_time_ns(ok, SMFW_RECORD_INTENDED_START), 1699999999990000000LL);
    ck_assert_int_eq(smfw_record_time_ns(ok, SMFW_RECORD_REQUEST_ACK), 0);
    ck_assert_int_eq(smfw_record_time_ns(ok, (smfw_record_time)42), 0);
    ck_assert_int_eq(smfw_record_time_ns(NULL, SMFW_RECORD_REQUEST_START), 0);
    ck_assert_str_eq(smfw_record_request_id(ok), "req-1");
    ck_assert_ptr_null(smfw_record_request_id(bad));

    ck_assert_ptr_null(smfw_record_get_error(ok));
    const smfw_record_error *e = smfw_record_get_error(bad);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->error_class, SMFW_ERRCLASS_THROTTLED);
    ck_assert_int_eq(e->code, 429);
    ck_assert_ptr_null(smfw_record_get_error(NULL));

    ck_assert_uint_eq(smfw_results_error_summary_count(r), 1);
    const smfw_error_summary_entry *es = smfw_results_error_summary(r, 0);
    ck_assert_ptr_nonnull(es);
    ck_assert_str_eq(es->type, "ThrottlingException");
    ck_assert_uint_eq(es->count, 1);
    ck_assert_ptr_null(smfw_results_error_summary(r, 1));

    const smfw_run_info *in = smfw_results_info(r);
    ck_assert_ptr_eq(in, &r->info);
    ck_assert_double_eq(in->max_error_rate, 0.01);
    ck_assert_ptr_null(smfw_results_info(NULL));
    smfw_results_free(r);
}
END_TEST

/* The extras and input_config of AIPerf 0.10's file, against jansson reading it directly. */
START_TEST(extras_and_input_config_of_a_real_bundle) {
    const char *path = smfw_test_data(V010);
    json_error_t jerr;
    json_t *file = json_load_file(path, 0, &jerr);
    ck_assert_msg(file != NULL, "%s: %s", path, jerr.text);
    smfw_results *r = smfw_results_new();
    smfw_error err;
    ck_assert_msg(smfw_results_load_aiperf_json(r, path, &err) == SMFW_OK, "%s", err.message);

    size_t n = smfw_results_extra_count(r);
    ck_assert_uint_gt(n, 0);
    ck_assert_ptr_null(smfw_results_extra(r, n));
    int saw_http_total = 0;
    for (size_t i = 0; i < n; i++) {
        const smfw_extra_metric *x = smfw_results_extra(r, i);
        ck_assert_ptr_nonnull(x);
        ck_assert_int_lt(smfw_metric_find(x->tag), 0); /* unknown to this version */
        json_t *m = json_object_get(file, x->tag);
        ck_assert_msg(json_is_object(m), "extra %s is not in the file", x->tag);
        if (strcmp(x->tag, "http_req_total") == 0) {
            saw_http_total = 1;
            ck_assert(x->stats.fields & SMFW_STAT_AVG);
            ck_assert_double_eq(x->stats.avg, json_number_value(json_object_get(m, "avg")));
        }
    }
    ck_assert(saw_http_total);
    /* Known metrics are not extras: time_to_first_output_token is a known id. */
    const smfw_stats *ttfo = smfw_results_stat(r, SMFW_M_TIME_TO_FIRST_OUTPUT_TOKEN);
    ck_assert_ptr_nonnull(ttfo);
    ck_assert_double_eq(ttfo->avg,
                        json_number_value(json_object_get(
                            json_object_get(file, "time_to_first_output_token"), "avg")));

    json_t *cfg = smfw_results_input_config(r);
    ck_assert_ptr_nonnull(cfg);
    ck_assert(json_equal(cfg, json_object_get(file, "input_config")));
    ck_assert_ptr_eq(smfw_results_input_config(r), cfg); /* parsed once */

    /* New text, new object; text that is not JSON, none. */
    smfw_results_set_string(&r->info.input_config_json, "{\"loadgen\":{\"concurrency\":7}}");
    cfg = smfw_results_input_config(r);
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(cfg, "loadgen"), "concurrency")), 7);
    smfw_results_set_string(&r->info.input_config_json, "{not json");
    ck_assert_ptr_null(smfw_results_input_config(r));
    smfw_results_set_string(&r->info.input_config_json, NULL);
    ck_assert_ptr_null(smfw_results_input_config(r));
    ck_assert_ptr_null(smfw_results_input_config(NULL));
    json_decref(file);
    smfw_results_free(r);
}
END_TEST

/* The typed smfw object is the document smfw_results_smfw_object_json writes. */
START_TEST(smfw_object_matches_its_text) {
    smfw_results *r = two_records();
    smfw_results_set_string(&r->info.backend, "direct");
    smfw_results_set_string(&r->info.smfw_json, "{\"self_check\":{\"ok\":true,\"lag_ms\":0.25}}");
    json_t *client = smfw_results_client(r);
    ck_assert_ptr_nonnull(client);
    ck_assert(json_is_true(json_object_get(json_object_get(client, "self_check"), "ok")));

    json_t *o = smfw_results_smfw_object(r);
    ck_assert_ptr_nonnull(o);
    char *text = smfw_results_smfw_object_json(r, 0);
    json_t *back = json_loads(text, 0, NULL);
    ck_assert(json_equal(o, back));
    ck_assert_str_eq(json_string_value(json_object_get(o, "backend")), "direct");
    ck_assert(json_equal(json_object_get(o, "client"), client));
    ck_assert_ptr_ne(json_object_get(o, "client"), client); /* the caller's own copy */
    json_decref(back);
    free(text);
    json_decref(o);
    smfw_results_free(r);
}
END_TEST

int main(void) {
    Suite *s = suite_create("results_access");
    TCase *tc = tcase_create("access");
    tcase_add_test(tc, stats_present_absent_and_out_of_range);
    tcase_add_test(tc, records_values_times_and_errors);
    tcase_add_test(tc, extras_and_input_config_of_a_real_bundle);
    tcase_add_test(tc, smfw_object_matches_its_text);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
