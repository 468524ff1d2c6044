/*
 * test_results_build.c - the setters backends build results with (results.h,
 * "building results"): a record built through them writes the same JSONL line
 * as one whose fields are set directly (the layout they replace, the oracle),
 * reads back through the accessors, and what the run info, statistics and JSON
 * setters store is what the accessors then return. Unknown ids and NULL are refused or ignored.
 */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "smfw_test.h"

/* The same request, field by field (the oracle). */
static void by_fields(smfw_record *rec) {
    smfw_record_init(rec);
    rec->session_num = 7;
    rec->turn_index = 2;
    rec->x_request_id = strdup("req-7");
    rec->x_correlation_id = strdup("corr-7");
    rec->conversation_id = strdup("conv-3");
    rec->worker_id = strdup("worker_1");
    rec->record_processor_id = strdup("rp-0");
    rec->credit_issued_ns = 1700000000000000000LL;
    rec->intended_start_ns = 1700000000000000000LL;
    rec->request_start_ns = 1700000000000100000LL;
    rec->request_ack_ns = 1700000000010000000LL;
    rec->request_end_ns = 1700000000500000000LL;
    rec->cancellation_time_ns = 1700000000500000000LL;
    rec->was_cancelled = 1;
    rec->http_status = 200;
    smfw_record_set(rec, SMFW_M_REQUEST_LATENCY, 5e8);
}

static void by_setters(smfw_record *rec) {
    smfw_record_init(rec);
    smfw_record_set_session(rec, 7, 2);
    ck_assert_int_eq(smfw_record_set_text(rec, SMFW_RECORD_X_REQUEST_ID, "req-7"), SMFW_OK);
    ck_assert_int_eq(smfw_record_set_text(rec, SMFW_RECORD_X_CORRELATION_ID, "corr-7"), SMFW_OK);
    ck_assert_int_eq(smfw_record_set_text(rec, SMFW_RECORD_CONVERSATION_ID, "conv-3"), SMFW_OK);
    ck_assert_int_eq(smfw_record_set_text(rec, SMFW_RECORD_WORKER_ID, "worker_1"), SMFW_OK);
    ck_assert_int_eq(smfw_record_set_text(rec, SMFW_RECORD_PROCESSOR_ID, "rp-0"), SMFW_OK);
    smfw_record_set_time(rec, SMFW_RECORD_CREDIT_ISSUED, 1700000000000000000LL);
    smfw_record_set_time(rec, SMFW_RECORD_INTENDED_START, 1700000000000000000LL);
    smfw_record_set_time(rec, SMFW_RECORD_REQUEST_START, 1700000000000100000LL);
    smfw_record_set_time(rec, SMFW_RECORD_REQUEST_ACK, 1700000000010000000LL);
    smfw_record_set_time(rec, SMFW_RECORD_REQUEST_END, 1700000000500000000LL);
    smfw_record_set_time(rec, SMFW_RECORD_CANCELLATION, 1700000000500000000LL);
    smfw_record_set_cancelled(rec, 1);
    smfw_record_set_http_status(rec, 200);
    smfw_record_set(rec, SMFW_M_REQUEST_LATENCY, 5e8);
}

START_TEST(setters_write_what_the_fields_did) {
    smfw_record a, b;
    by_fields(&a);
    by_setters(&b);
    smfw_error err;
    char *la = NULL, *lb = NULL;
    ck_assert_int_eq(smfw_record_to_jsonl(&a, &la, &err), SMFW_OK);
    ck_assert_int_eq(smfw_record_to_jsonl(&b, &lb, &err), SMFW_OK);
    ck_assert_str_eq(lb, la);
    ck_assert_ptr_nonnull(strstr(la, "\"x_correlation_id\":\"corr-7\""));
    free(la);
    free(lb);

    /* Read back through the accessors. */
    int32_t turn = -1;
    ck_assert_int_eq(smfw_record_session(&b, &turn), 7);
    ck_assert_int_eq(turn, 2);
    ck_assert_str_eq(smfw_record_text(&b, SMFW_RECORD_X_REQUEST_ID), "req-7");
    ck_assert_str_eq(smfw_record_text(&b, SMFW_RECORD_WORKER_ID), "worker_1");
    ck_assert_str_eq(smfw_record_text(&b, SMFW_RECORD_PROCESSOR_ID), "rp-0");
    ck_assert_str_eq(smfw_record_request_id(&b), "req-7");
    ck_assert(smfw_record_time_ns(&b, SMFW_RECORD_REQUEST_ACK) == 1700000000010000000LL);
    ck_assert(smfw_record_time_ns(&b, SMFW_RECORD_CANCELLATION) == 1700000000500000000LL);
    ck_assert_int_eq(smfw_record_http_status(&b), 200);
    ck_assert_int_eq(smfw_record_was_cancelled(&b), 1);

    /* NULL clears; a replaced text frees the old one (ASan/valgrind see a leak otherwise). */
    ck_assert_int_eq(smfw_record_set_text(&b, SMFW_RECORD_X_CORRELATION_ID, NULL), SMFW_OK);
    ck_assert_ptr_null(smfw_record_text(&b, SMFW_RECORD_X_CORRELATION_ID));
    ck_assert_int_eq(smfw_record_set_text(&b, SMFW_RECORD_X_REQUEST_ID, "req-8"), SMFW_OK);
    ck_assert_str_eq(smfw_record_request_id(&b), "req-8");

    /* Unknown ids: refused or ignored, nothing written. */
    ck_assert_int_eq(smfw_record_set_text(&b, (smfw_record_text_id)99, "x"), SMFW_ERR_UNSUPPORTED);
    ck_assert_ptr_null(smfw_record_text(&b, (smfw_record_text_id)99));
    smfw_record_set_time(&b, (smfw_record_time)99, 5);
    ck_assert(smfw_record_time_ns(&b, SMFW_RECORD_REQUEST_START) == 1700000000000100000LL);
    ck_assert_int_eq(smfw_record_set_text(NULL, SMFW_RECORD_X_REQUEST_ID, "x"),
                     SMFW_ERR_UNSUPPORTED);
    smfw_record_set_time(NULL, SMFW_RECORD_REQUEST_START, 1);
    smfw_record_set_session(NULL, 1, 1);
    ck_assert_int_eq(smfw_record_session(NULL, &turn), -1);
    ck_assert_ptr_null(smfw_record_text(NULL, SMFW_RECORD_X_REQUEST_ID));
    smfw_record_clear(&a);
    smfw_record_clear(&b);
}
END_TEST

START_TEST(run_info_stats_json_and_completeness) {
    smfw_results *r = smfw_results_new();
    ck_assert_ptr_nonnull(r);
    smfw_run_info *in = smfw_results_info_edit(r);
    ck_assert_ptr_eq(in, smfw_results_info(r));
    in->concurrency = 4;
    smfw_results_set_string(&in->backend, "direct");
    ck_assert_int_eq(smfw_results_info(r)->concurrency, 4);
    ck_assert_ptr_null(smfw_results_info_edit(NULL));

    /* Stored as compact text: what the direct backend wrote before (json_dumps COMPACT). */
    json_t *cfg = json_pack("{s:{s:i,s:s},s:{s:f}}", "loadgen", "concurrency", 4, "arrival_pattern",
                            "concurrency_burst", "input", "x", 0.1);
    ck_assert_int_eq(smfw_results_set_input_config(r, cfg), SMFW_OK);
    char *want = json_dumps(cfg, JSON_COMPACT);
    ck_assert_str_eq(r->info.input_config_json, want);
    free(want);
    ck_assert(json_equal(smfw_results_input_config(r), cfg));
    json_decref(cfg);
    ck_assert_int_eq(smfw_results_set_input_config(r, NULL), SMFW_OK);
    ck_assert_ptr_null(smfw_results_input_config(r));

    json_t *client = json_pack("{s:{s:b}}", "client", "ok", 1);
    ck_assert_int_eq(smfw_results_set_client(r, client), SMFW_OK);
    ck_assert(json_equal(smfw_results_client(r), client));
    json_decref(client);
    ck_assert_int_eq(smfw_results_set_client(NULL, NULL), SMFW_ERR_INTERNAL);

    /* Aggregates filled one field at a time (a published set), then read as any run's. */
    ck_assert_ptr_null(smfw_results_stat(r, SMFW_M_REQUEST_LATENCY));
    smfw_stats *lat = smfw_results_stat_edit(r, SMFW_M_REQUEST_LATENCY);
    ck_assert_ptr_nonnull(lat);
    lat->present = 1;
    lat->avg = 12.5;
    lat->p[SMFW_P95] = 20.0;
    lat->fields |= SMFW_STAT_AVG | (SMFW_STAT_P_FIRST << SMFW_P95);
    const smfw_stats *got = smfw_results_stat(r, SMFW_M_REQUEST_LATENCY);
    ck_assert_ptr_nonnull(got);
    ck_assert_double_eq(got->p[SMFW_P95], 20.0);
    ck_assert_ptr_null(smfw_results_stat_edit(r, SMFW_M_COUNT_));
    ck_assert_ptr_null(smfw_results_stat_edit(r, (smfw_metric_id)-1));
    ck_assert_ptr_null(smfw_results_stat_edit(NULL, SMFW_M_REQUEST_LATENCY));

    ck_assert_int_eq(smfw_results_records_complete(r), 0);
    smfw_results_set_records_complete(r, 1);
    ck_assert_int_eq(smfw_results_records_complete(r), 1);
    ck_assert_int_eq(smfw_results_records_complete(NULL), 0);
    smfw_results_free(r);
}
END_TEST

int main(void) {
    Suite *s = suite_create("results_build");
    TCase *tc = tcase_create("build");
    tcase_add_test(tc, setters_write_what_the_fields_did);
    tcase_add_test(tc, run_info_stats_json_and_completeness);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
