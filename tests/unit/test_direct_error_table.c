/*
 * test_direct_error_table.c - docs/direct.md's error-class table is the code's: every row
 * (code × status) goes through the direct backend's classifier (an event-stream row
 * through the response parser, from the vendored event-stream vectors) and the fail-fast
 * rule, and must give the class and the outcome the row says; every error shape of the
 * vendored SageMaker Runtime model's InvokeEndpoint and InvokeEndpointWithResponseStream
 * must have a row, with the model's HTTP status.
 */
#include <check.h>
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "failfast.h"
#include "md_table.h"

#define MAX_ROWS  64
#define MAX_CODES 16
#define MAX_STAT  8

typedef struct row {
    char codes[MAX_CODES][64]; /* none: the row is for answers without a code */
    int ncodes;
    int status[MAX_STAT];
    int nstatus;
    char cls[32];
    int stops;        /* "exit 2" */
    int not_found;    /* the row's message says "not found" */
    int eventstream;  /* an exception event inside a 200 event stream */
    const char *text; /* the line, for messages */
} row;

static md_row g_md[MAX_ROWS];
static row g_rows[MAX_ROWS];
static int g_nrows;

static void load_table(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/direct.md", SMFW_SOURCE_DIR);
    g_nrows = md_table_read(path, "| Code | HTTP | `smfw.error_class` |", g_md, MAX_ROWS);
    ck_assert_msg(g_nrows >= 10, "the error-class table in %s has %d rows", path, g_nrows);
    for (int i = 0; i < g_nrows; i++) {
        const md_row *m = &g_md[i];
        row *r = &g_rows[i];
        memset(r, 0, sizeof *r);
        r->text = m->line;
        ck_assert_msg(m->ncells == 4, "not 4 cells: %s", r->text);
        r->ncodes = md_cell_codes(m->cells[0], r->codes, MAX_CODES);
        r->not_found = strstr(m->cells[0], "not found") != NULL;
        r->eventstream = strstr(m->cells[0], "event stream") != NULL;
        r->nstatus = md_cell_numbers(m->cells[1], r->status, MAX_STAT);
        ck_assert_msg(r->nstatus > 0, "no status: %s", r->text);
        ck_assert_msg(sscanf(m->cells[2], "`%31[a-z_]`", r->cls) == 1, "no class: %s", r->text);
        ck_assert_msg(strcmp(m->cells[3], "exit 2") == 0 || strcmp(m->cells[3], "gate") == 0,
                      "last cell is 'exit 2' or 'gate': %s", r->text);
        r->stops = strcmp(m->cells[3], "exit 2") == 0;
    }
}

static void check_outcome(const row *r, const char *code, int status, smfw_error_class cls,
                          const char *message) {
    ck_assert_msg(strcmp(smfw_error_class_name(cls), r->cls) == 0,
                  "code '%s' HTTP %d is %s in the code, %s in docs/direct.md: %s", code, status,
                  smfw_error_class_name(cls), r->cls, r->text);
    smfw_record_error e = {1, status, (char *)code, (char *)message, NULL, cls};
    smfw_status st;
    int stops = direct_failfast_permanent(&e, &st);
    ck_assert_msg(stops == r->stops, "code '%s' HTTP %d: fail-fast says %s, the table %s: %s", code,
                  status, stops ? "exit 2" : "gate", r->stops ? "exit 2" : "gate", r->text);
}

static void check_http(const row *r, direct_transport_kind kind, const char *code, int status) {
    const char *message = r->not_found ? "Endpoint bench of account 111122223333 not found."
                                       : "the request could not be served";
    char body[512];
    snprintf(body, sizeof body, "{\"Message\":\"%s\"%s}", message,
             strcmp(code, "ModelError") == 0 ? ",\"OriginalStatusCode\":500" : "");
    smfw_error_class cls;
    char type[128], msg[1024];
    direct_classify_http_error(kind, status, "Reason", code, body, strlen(body), &cls, type,
                               sizeof type, msg, sizeof msg);
    check_outcome(r, code, status, cls, msg);
}

/* "ModelStreamError" -> "model_stream_error", the vector's name. */
static void snake(const char *camel, char *out, size_t cap) {
    size_t n = 0;
    for (const char *p = camel; *p && n + 2 < cap; p++) {
        if (isupper((unsigned char)*p) && p != camel) out[n++] = '_';
        out[n++] = (char)tolower((unsigned char)*p);
    }
    out[n] = '\0';
}

static void check_eventstream(const row *r, const char *code) {
    char name[128], path[1024];
    snake(code, name, sizeof name);
    snprintf(path, sizeof path, "%s/eventstream/sagemaker-synthetic/encoded/%s", SMFW_TESTDATA_DIR,
             name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "no event-stream vector %s for %s", path, r->text);
    unsigned char *b = malloc(65536);
    size_t n = fread(b, 1, 65536, f);
    fclose(f);
    direct_engine eng;
    direct_worker w;
    direct_slot s;
    memset(&eng, 0, sizeof eng);
    memset(&w, 0, sizeof w);
    memset(&s, 0, sizeof s);
    eng.parse.type = DIRECT_EP_CHAT;
    w.eng = &eng;
    s.w = &w;
    smfw_eventstream_decoder_init(&s.es, NULL);
    s.es_ready = 1;
    direct_response_reset(&s);
    const char *head[] = {"HTTP/1.1 200 OK\r\n",
                          "Content-Type: application/vnd.amazon.eventstream\r\n", "\r\n"};
    for (int i = 0; i < 3; i++) direct_response_header_cb((char *)head[i], 1, strlen(head[i]), &s);
    direct_response_write_cb((char *)b, 1, n, &s);
    ck_assert_msg(s.acc.failed, "%s: the stream did not fail", code);
    ck_assert_str_eq(s.acc.err_type, code);
    check_outcome(r, code, 200, s.acc.err_class, s.acc.err_message);
    smfw_eventstream_decoder_cleanup(&s.es);
    direct_sse_free(&s.sse);
    direct_lines_free(&s.lines);
    smfw_buf_free(&s.body);
    direct_acc_free(&s.acc);
    free(b);
}

START_TEST(every_row_is_the_code) {
    load_table();
    int checked = 0;
    for (int i = 0; i < g_nrows; i++) {
        const row *r = &g_rows[i];
        if (r->eventstream) {
            ck_assert_int_gt(r->ncodes, 0);
            for (int k = 0; k < r->ncodes; k++) check_eventstream(r, r->codes[k]), checked++;
            continue;
        }
        for (int j = 0; j < r->nstatus; j++) {
            if (r->ncodes == 0) { /* no code: the same on both transports */
                check_http(r, DIRECT_TRANSPORT_SAGEMAKER, "", r->status[j]);
                check_http(r, DIRECT_TRANSPORT_HTTP, "", r->status[j]);
                checked += 2;
            }
            for (int k = 0; k < r->ncodes; k++)
                check_http(r, DIRECT_TRANSPORT_SAGEMAKER, r->codes[k], r->status[j]), checked++;
        }
    }
    printf("error-class table: %d rows, %d cases equal to the code\n", g_nrows, checked);
}
END_TEST

/* The first row naming a code (the table is read top to bottom), or NULL. */
static const row *row_for(const char *code) {
    for (int i = 0; i < g_nrows; i++)
        for (int k = 0; k < g_rows[i].ncodes; k++)
            if (strcmp(g_rows[i].codes[k], code) == 0) return &g_rows[i];
    return NULL;
}

START_TEST(every_model_shape_has_a_row) {
    if (g_nrows == 0) load_table();
    char path[1024];
    snprintf(path, sizeof path, "%s/awsmodels/sagemaker-runtime/2017-05-13/service-2.json",
             SMFW_TESTDATA_DIR);
    json_error_t je;
    json_t *m = json_load_file(path, 0, &je);
    ck_assert_msg(m != NULL, "%s: %s", path, je.text);
    const char *ops[] = {"InvokeEndpoint", "InvokeEndpointWithResponseStream"};
    int shapes = 0;
    for (int o = 0; o < 2; o++) {
        json_t *errs =
            json_object_get(json_object_get(json_object_get(m, "operations"), ops[o]), "errors");
        ck_assert(json_array_size(errs) > 0);
        size_t i;
        json_t *e;
        json_array_foreach(errs, i, e) {
            const char *name = json_string_value(json_object_get(e, "shape"));
            json_t *shape = json_object_get(json_object_get(m, "shapes"), name);
            json_t *status = json_object_get(json_object_get(shape, "error"), "httpStatusCode");
            const row *r = row_for(name);
            ck_assert_msg(r != NULL, "%s's error %s has no row in docs/direct.md", ops[o], name);
            int want = status ? (int)json_integer_value(status) : 200; /* in-stream: a 200 */
            ck_assert_msg(r->status[0] == want, "%s: HTTP %d in the model, %d in the table", name,
                          want, r->status[0]);
            ck_assert_msg(status || r->eventstream, "%s arrives in the event stream", name);
            shapes++;
        }
    }
    json_decref(m);
    printf("every error shape of the Runtime model (%d, both operations) has its row\n", shapes);
}
END_TEST

int main(void) {
    Suite *s = suite_create("direct_error_table");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, every_row_is_the_code);
    tcase_add_test(tc, every_model_shape_has_a_row);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
