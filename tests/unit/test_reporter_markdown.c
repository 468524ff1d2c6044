/*
 * test_reporter_markdown.c - summary.md: header, verdict, headline table,
 * errors by class, file list, and tables that line up in a terminal.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "smfw_test.h"

#include "../../plugins/reporter-common/rpt_file.c"
#include "../../plugins/reporter-common/rpt_json.c"
#include "../../plugins/reporter-common/rpt_metrics.c"
#include "../../plugins/reporter-common/rpt_summary.c"
#include "../../plugins/reporter-common/rpt_text.c"
#include "../../plugins/reporter-markdown/markdown_reporter.c"
#include "../../plugins/reporter-markdown/markdown_sweep.c"

#define AIPERF "aiperf/"

static smfw_results *load_dir(const char *rel) {
    smfw_results *r = smfw_results_new();
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_results_load_dir(r, smfw_test_data(rel), &err) == SMFW_OK, "%s",
                  err.message);
    return r;
}

static char *render(const smfw_results *r, const char *dir) {
    markdown_reporter self = {10, NULL};
    smfw_buf b;
    smfw_buf_init(&b);
    ck_assert_int_eq(markdown_reporter_render(&self, r, dir, &b, NULL), SMFW_OK);
    return b.data;
}

/* Every run of consecutive "|" lines (one table) has lines of equal display width. */
static size_t check_tables_aligned(const char *md) {
    size_t tables = 0, width = 0;
    int in_table = 0;
    for (const char *line = md; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char *copy = strndup(line, len);
        if (copy[0] == '|') {
            size_t w = markdown_width(copy);
            if (!in_table) {
                tables++;
                width = w;
                in_table = 1;
            }
            ck_assert_msg(w == width, "misaligned table line: %s", copy);
            ck_assert_msg(copy[len - 1] == '|', "row not closed: %s", copy);
        } else {
            in_table = 0;
        }
        free(copy);
        if (!nl) break;
        line = nl + 1;
    }
    return tables;
}

START_TEST(legacy_run_summary) {
    smfw_results *r = load_dir(AIPERF "legacy-2025-10-example-run1");
    char *md = render(r, smfw_test_data(AIPERF "legacy-2025-10-example-run1"));
    ck_assert(strncmp(md, "# smfw benchmark: legacy-2025-10-example-run1\n", 46) == 0);
    ck_assert_uint_eq(check_tables_aligned(md), 4); /* run, headline, classes, details */
    ck_assert(strstr(md, "**INVALID**: error rate 11.00 % (11 failed of 100 requests) exceeds "
                         "the 1.00 % limit.") != NULL);
    ck_assert(strstr(md, "| Time to first token              | 2,343.22 | 2,369.32 | 3,796.93 | "
                         "3,833.39 | ms              |") != NULL);
    ck_assert(strstr(md, "| Request throughput               |     9.55 |") != NULL);
    ck_assert(strstr(md, "| cancelled |       11 |") != NULL);
    ck_assert(strstr(md, "RequestCancellationError") != NULL);
    ck_assert(strstr(md, "model openai/gpt-oss-20b; chat endpoint, streaming") != NULL);
    ck_assert(strstr(md, "- `profile_export.jsonl`: one line per request") != NULL);
    ck_assert(strstr(md, "- `summary.md`: this summary") != NULL);
    free(md);
    smfw_results_free(r);
}
END_TEST

/* The files the run's reporters declare are listed before they exist, with their words; the
 * reporter learns them only from the core (SMFW_REPORTER_CTL_RUN_OUTPUTS), and the list
 * holds whatever a reporter declares, not a table of known reporters. */
START_TEST(declared_outputs_are_listed) {
    smfw_results *r = load_dir(AIPERF "legacy-2025-10-example-run1");
    static const smfw_reporter_output outputs[] = {
        {"report.html", "self-contained report with charts"},
        {"latency.parquet", "a third-party reporter's file"},
        {"profile_export_aiperf.json", "the JSON reporter's own words"},
        {NULL, NULL}};
    markdown_reporter self = {10, NULL};
    ck_assert_int_eq(
        markdown_reporter_control(&self, SMFW_REPORTER_CTL_RUN_OUTPUTS, (void *)outputs), SMFW_OK);
    ck_assert_int_eq(markdown_reporter_control(&self, 99, NULL), SMFW_ERR_UNSUPPORTED);
    smfw_buf b;
    smfw_buf_init(&b);
    ck_assert_int_eq(markdown_reporter_render(
                         &self, r, smfw_test_data(AIPERF "legacy-2025-10-example-run1"), &b, NULL),
                     SMFW_OK);
    const char *md = b.data;
    ck_assert(strstr(md, "- `report.html`: self-contained report with charts\n") != NULL);
    ck_assert(strstr(md, "- `latency.parquet`: a third-party reporter's file\n") != NULL);
    /* a declared file already in the folder: listed once, in its reporter's words */
    const char *json =
        strstr(md, "- `profile_export_aiperf.json`: the JSON reporter's own words\n");
    ck_assert(json != NULL);
    ck_assert(strstr(json + 1, "- `profile_export_aiperf.json`") == NULL);
    /* not told anything: no file that is not there, only its own summary.md */
    free(b.data);
    char *plain = render(r, smfw_test_data(AIPERF "legacy-2025-10-example-run1"));
    ck_assert(strstr(plain, "report.html") == NULL);
    ck_assert(strstr(plain, "- `summary.md`: this summary") != NULL);
    free(plain);
    smfw_results_free(r);
}
END_TEST

START_TEST(clean_run_is_valid) {
    smfw_results *r = load_dir(AIPERF "2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency1");
    smfw_results_set_string(&r->info.backend, "direct");
    smfw_results_set_string(&r->info.token_count_source, "server_usage");
    r->info.concurrency = 1;
    char *md = render(r, "/nonexistent");
    check_tables_aligned(md);
    ck_assert(strstr(md, "**VALID**: error rate 0.00 % (0 failed of 64 requests)") != NULL);
    ck_assert(strstr(md, "No request failed.") != NULL);
    ck_assert(strstr(md, "| How          | direct backend, concurrency 1") != NULL);
    ck_assert(strstr(md, "| Token counts | server_usage") != NULL);
    free(md);
    /* A tripped gate with a reason from the managed service. */
    r->info.gate_tripped = 1;
    smfw_results_set_string(&r->info.failure_reason, "too many | invalid\nrequests");
    md = render(r, "/nonexistent");
    ck_assert(strstr(md, "**INVALID**: too many \\| invalid requests") != NULL);
    free(md);
    /* A hostile reason (issue 21, item 7): no HTML, no Markdown link, no control. */
    smfw_results_set_string(&r->info.failure_reason,
                            "<meta http-equiv=\"refresh\" content=\"0;url=http://evil\"> "
                            "<form action=x> [all good](http://evil) \x1b[2J\xc2\x9b");
    md = render(r, "/nonexistent");
    ck_assert(strstr(md, "<meta") == NULL);
    ck_assert(strstr(md, "<form") == NULL);
    ck_assert(strstr(md, "[all good](") == NULL);
    ck_assert(strstr(md, "\x1b") == NULL);
    ck_assert(strstr(md, "\xc2\x9b") == NULL);
    ck_assert(strstr(md, "&lt;meta http-equiv") != NULL);
    free(md);
    smfw_results_free(r);
}
END_TEST

START_TEST(cells_are_escaped) {
    markdown_table t;
    markdown_table_init(&t, 2, "lr");
    markdown_table_row(&t, (const char *const[]){"a", "b"});
    markdown_table_row(&t, (const char *const[]){"x|y", "1\n2"});
    smfw_buf b;
    smfw_buf_init(&b);
    markdown_table_print(&t, &b);
    ck_assert_str_eq(b.data, "| a    | b   |\n| ---- | --: |\n| x\\|y | 1 2 |\n");
    smfw_buf_free(&b);
}
END_TEST

static Suite *reporter_markdown_suite(void) {
    Suite *s = suite_create("reporter_markdown");
    TCase *tc = tcase_create("markdown");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, legacy_run_summary);
    tcase_add_test(tc, declared_outputs_are_listed);
    tcase_add_test(tc, clean_run_is_valid);
    tcase_add_test(tc, cells_are_escaped);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(reporter_markdown_suite());
}
