/*
 * test_reporter_csv.c - the csv reporter against AIPerf's own CSVs.
 *
 * Oracles: AIPerf's CSV rendering of the 2025-11 fixture (stated below,
 * compared line by line), the real CSVs
 * of the legacy 2025-10 and 0.10.0 fixtures (compared cell by cell by column
 * name: the legacy file has no p10 column, 0.10.0 has sum), and the legacy
 * CSV again for a direct run recomputed from the per-request records.
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
#include "../../plugins/reporter-common/rpt_text.c"
#include "../../plugins/reporter-csv/csv_reporter.c"
#include "../../plugins/reporter-csv/csv_sweep.c"

#define AIPERF "aiperf/"

/* ---- a small CSV model: sections of rows of cells ---------------------------------------- */

#define MAX_ROWS 64
#define MAX_COLS 24

typedef struct csv_section {
    char *header[MAX_COLS];
    size_t ncols;
    char *rows[MAX_ROWS][MAX_COLS];
    size_t nrows;
} csv_section;

/* Split one line on commas (none of these files quote a field). */
static size_t split(char *line, char **cells) {
    size_t n = 0;
    char *save = NULL;
    cells[n++] = line;
    for (char *p = line; *p; p++)
        if (*p == ',') {
            *p = '\0';
            if (n < MAX_COLS) cells[n++] = p + 1;
        }
    (void)save;
    return n;
}

/* Sections 1 (distributions) and 2 (single values) of a CSV text; lines end in CRLF. */
static void parse_csv(char *text, csv_section *dist, csv_section *single) {
    memset(dist, 0, sizeof *dist);
    memset(single, 0, sizeof *single);
    csv_section *cur = dist;
    int want_header = 1, sections = 0;
    char *line = text;
    while (line && *line) {
        char *crlf = strstr(line, "\r\n");
        ck_assert_msg(crlf != NULL, "line without CRLF: %.40s", line);
        *crlf = '\0';
        ck_assert_msg(strchr(line, '\n') == NULL, "bare LF inside a line");
        char *next = crlf + 2;
        if (*line == '\0') {
            if (sections == 1 && cur == dist)
                cur = single;
            else if (cur == single)
                break; /* GPU telemetry follows: not ours */
            want_header = 1;
        } else if (want_header) {
            cur->ncols = split(line, cur->header);
            want_header = 0;
            sections++;
        } else {
            ck_assert(cur->nrows < MAX_ROWS);
            size_t n = split(line, cur->rows[cur->nrows]);
            ck_assert_msg(n == cur->ncols, "row %s has %zu cells, header %zu", line, n, cur->ncols);
            cur->nrows++;
        }
        line = next;
    }
}

static int column(const csv_section *s, const char *name) {
    for (size_t i = 0; i < s->ncols; i++)
        if (strcmp(s->header[i], name) == 0) return (int)i;
    return -1;
}

/*
 * Every cell of `want` is in `got` under the same column name, rows in the
 * same order. Labels must match, except for the listed metrics whose AIPerf
 * header text only the CSV knows (newer builds' extras read from the JSON).
 */
static void compare_section(const csv_section *want, const csv_section *got, const char *what,
                            int allow_extra_labels) {
    ck_assert_msg(want->nrows == got->nrows, "%s: %zu rows in AIPerf's file, %zu in ours", what,
                  want->nrows, got->nrows);
    ck_assert_str_eq(got->header[0], "Metric");
    for (size_t c = 0; c < want->ncols; c++)
        ck_assert_msg(column(got, want->header[c]) >= 0, "%s: column %s missing", what,
                      want->header[c]);
    for (size_t r = 0; r < want->nrows; r++) {
        const char *wl = want->rows[r][0], *gl = got->rows[r][0];
        if (strcmp(wl, gl) != 0)
            ck_assert_msg(allow_extra_labels &&
                              (strncmp(wl, "HTTP ", 5) == 0 || strncmp(wl, "E2E ", 4) == 0 ||
                               strncmp(wl, "OSL ", 4) == 0),
                          "%s row %zu: label \"%s\" vs \"%s\"", what, r, wl, gl);
        for (size_t c = 1; c < want->ncols; c++) {
            int gc = column(got, want->header[c]);
            ck_assert_msg(strcmp(want->rows[r][c], got->rows[r][gc]) == 0,
                          "%s, %s, %s: AIPerf \"%s\", smfw \"%s\"", what, wl, want->header[c],
                          want->rows[r][c], got->rows[r][gc]);
        }
    }
}

static char *render(const smfw_results *r) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(csv_reporter_render(r, 1, &b, &err) == SMFW_OK, "%s", err.message);
    return b.data;
}

static smfw_results *load_json(const char *rel) {
    smfw_results *r = smfw_results_new();
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_results_load_aiperf_json(r, smfw_test_data(rel), &err) == SMFW_OK, "%s",
                  err.message);
    return r;
}

static void compare_with_fixture_csv(const smfw_results *r, const char *csv_rel, const char *what,
                                     int allow_extra_labels) {
    char *ours = render(r);
    char *want = smfw_test_read_file(smfw_test_data(csv_rel), NULL);
    ck_assert_ptr_nonnull(want);
    csv_section wd, ws, gd, gs;
    parse_csv(want, &wd, &ws);
    parse_csv(ours, &gd, &gs);
    compare_section(&wd, &gd, what, allow_extra_labels);
    compare_section(&ws, &gs, what, allow_extra_labels);
    free(ours);
    free(want);
}

/* ---- tests -------------------------------------------------------------------------------- */

/* AIPerf's CSV rendering of the 2025-11 fixture (qwen_concurrency1), LF line ends: the
 * aggregate table with AIPerf's labels and column order, 2 decimals, then the totals
 * table. AIPerf of that time did not yet list the per-user prefill row. */
/* clang-format off */
static const char aiperf_2025_11_csv[] =
    "Metric,avg,min,max,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\n"
    "Input Sequence Length (tokens),100.00,100.00,100.00,100.00,100.00,100.00,100.00,100.00,100.00,100.00,100.00,100.00,0.00\n"
    "Inter Chunk Latency (ms),18.20,12.18,28.47,16.81,17.14,17.31,17.62,18.06,18.65,19.22,19.64,20.88,0.84\n"
    "Inter Token Latency (ms),18.20,17.53,19.70,17.53,17.85,17.88,17.99,18.16,18.28,18.50,18.88,19.48,0.35\n"
    "Output Sequence Length (tokens),199.98,199.00,201.00,199.00,200.00,200.00,200.00,200.00,200.00,200.00,200.00,200.37,0.22\n"
    "Output Token Count (tokens),199.98,199.00,201.00,199.00,200.00,200.00,200.00,200.00,200.00,200.00,200.00,200.37,0.22\n"
    "Output Token Throughput Per User (tokens/sec/user),54.97,50.77,57.05,51.33,52.96,54.05,54.71,55.07,55.60,55.92,56.02,57.05,1.03\n"
    "Request Latency (ms),3652.15,3517.15,3954.01,3518.07,3581.02,3590.02,3610.64,3644.08,3668.22,3710.54,3789.34,3909.33,70.35\n"
    "Time to First Output Token (ms),30.81,28.66,34.72,28.80,28.90,29.05,29.70,30.67,31.59,32.54,33.04,34.34,1.37\n"
    "Time to First Token (ms),30.81,28.66,34.72,28.80,28.90,29.05,29.70,30.67,31.59,32.54,33.04,34.34,1.37\n"
    "Time to Second Token (ms),18.09,16.92,21.31,16.99,17.14,17.23,17.63,17.86,18.57,19.07,19.34,20.32,0.77\n"
    "\n"
    "Metric,Value\n"
    "Benchmark Duration (sec),255.56\n"
    "Maximum Response Timestamp (ns),1762551790357240576.00\n"
    "Minimum Request Timestamp (ns),1762551534797067776.00\n"
    "Output Token Throughput (tokens/sec),50.08\n"
    "Request Count,64.00\n"
    "Request Throughput (requests/sec),0.25\n"
    "Total Input Sequence Length (tokens),6400.00\n"
    "Total Output Sequence Length (tokens),12799.00\n"
    "Total Output Tokens (tokens),12799.00\n";
/* clang-format on */

/* The 2025-11 fixture rendered as AIPerf renders it (aiperf_2025_11_csv above). */
START_TEST(matches_aiperf_rendering) {
    char *doc = strdup(aiperf_2025_11_csv);
    ck_assert_ptr_nonnull(doc);
    char *p = doc;

    smfw_results *r = load_json(
        AIPERF "2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency1/profile_export_aiperf.json");
    char *ours = render(r);
    /* Walk both texts line by line: AIPerf's LF lines against our CRLF lines. */
    char *g = ours, *w = p;
    size_t matched = 0;
    while (*w) {
        char *wn = strchr(w, '\n');
        ck_assert_ptr_nonnull(wn);
        *wn = '\0';
        char *gn = strstr(g, "\r\n");
        ck_assert_msg(gn != NULL, "our CSV ended before \"%s\"", w);
        *gn = '\0';
        if (strcmp(w, g) != 0) {
            /* That rendering predates the per-user prefill row; AIPerf 0.5.0 lists it. */
            ck_assert_msg(strncmp(g, "Prefill Throughput Per User (tokens/sec/user),", 46) == 0,
                          "AIPerf: \"%s\"\nsmfw:   \"%s\"", w, g);
            *wn = '\n';
            g = gn + 2;
            continue;
        }
        matched++;
        w = wn + 1;
        g = gn + 2;
    }
    ck_assert_str_eq(g, "");
    ck_assert_uint_eq(matched, 22); /* 11 + blank + 10 lines above */
    free(ours);
    smfw_results_free(r);
    free(doc);
}
END_TEST

START_TEST(matches_legacy_csv) {
    smfw_results *r = load_json(AIPERF "legacy-2025-10-example-run1/profile_export_aiperf.json");
    compare_with_fixture_csv(r, AIPERF "legacy-2025-10-example-run1/profile_export_aiperf.csv",
                             "legacy", 0);
    smfw_results_free(r);
}
END_TEST

START_TEST(matches_v0_10_csv_with_sum_column) {
    smfw_results *r = load_json(AIPERF "v0.10.0-qwen3.6-agent-c16/profile_export_aiperf.json");
    char *ours = render(r);
    ck_assert_msg(strncmp(ours, "Metric,avg,min,max,sum,p1,", 26) == 0, "%.60s", ours);
    free(ours);
    compare_with_fixture_csv(r, AIPERF "v0.10.0-qwen3.6-agent-c16/profile_export_aiperf.csv",
                             "0.10.0", 1);
    /* Without the setting, the 0.5 layout. */
    smfw_buf b;
    smfw_buf_init(&b);
    ck_assert_int_eq(csv_reporter_render(r, 0, &b, NULL), SMFW_OK);
    ck_assert(strncmp(b.data, "Metric,avg,min,max,p1,", 22) == 0);
    smfw_buf_free(&b);
    smfw_results_free(r);
}
END_TEST

/* Records in, smfw's own statistics out: every cell of AIPerf's CSV is reproduced. */
START_TEST(direct_run_matches_legacy_csv) {
    smfw_results *r = smfw_results_new();
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_results_load_jsonl(
                      r, smfw_test_data(AIPERF "legacy-2025-10-example-run1/profile_export.jsonl"),
                      &err) == SMFW_OK,
                  "%s", err.message);
    ck_assert_msg(smfw_results_compute(r, NULL, 0, &err) == SMFW_OK, "%s", err.message);
    char *ours = render(r);
    char *want = smfw_test_read_file(
        smfw_test_data(AIPERF "legacy-2025-10-example-run1/profile_export_aiperf.csv"), NULL);
    csv_section wd, ws, gd, gs;
    parse_csv(want, &wd, &ws);
    parse_csv(ours, &gd, &gs);
    /* Every AIPerf row is reproduced; smfw may add metrics AIPerf 2025-10 did not have. */
    for (size_t i = 0; i < 2; i++) {
        const csv_section *w = i ? &ws : &wd, *g = i ? &gs : &gd;
        for (size_t r1 = 0; r1 < w->nrows; r1++) {
            size_t r2 = 0;
            while (r2 < g->nrows && strcmp(g->rows[r2][0], w->rows[r1][0]) != 0) r2++;
            ck_assert_msg(r2 < g->nrows, "row %s missing", w->rows[r1][0]);
            for (size_t c = 1; c < w->ncols; c++) {
                int gc = column(g, w->header[c]);
                ck_assert_int_ge(gc, 0);
                ck_assert_msg(strcmp(w->rows[r1][c], g->rows[r2][gc]) == 0,
                              "%s %s: AIPerf %s, smfw %s", w->rows[r1][0], w->header[c],
                              w->rows[r1][c], g->rows[r2][gc]);
            }
        }
    }
    free(ours);
    free(want);
    smfw_results_free(r);
}
END_TEST

START_TEST(quoting_and_missing_cells) {
    /* Python csv.QUOTE_MINIMAL: quote on comma, quote or newline; double the quotes. */
    smfw_buf b;
    smfw_buf_init(&b);
    csv_reporter_cell(&b, "plain (ms)");
    smfw_buf_puts(&b, "|");
    csv_reporter_cell(&b, "a,b");
    smfw_buf_puts(&b, "|");
    csv_reporter_cell(&b, "say \"hi\"");
    ck_assert_str_eq(b.data, "plain (ms)|\"a,b\"|\"say \"\"hi\"\"\"");
    smfw_buf_free(&b);

    /* An extra metric with a comma in its header and a statistic missing. */
    smfw_results *r = smfw_results_new();
    smfw_stats_single(&r->stats[SMFW_M_REQUEST_COUNT], 3.0);
    smfw_extra_metric x = {0};
    x.tag = "zz_custom";
    x.header = "Custom, Odd";
    x.unit = "count";
    x.stats.present = 1;
    x.stats.fields = SMFW_STAT_AVG | SMFW_STAT_MAX;
    x.stats.avg = 1.005;
    x.stats.max = 2.0;
    r->extra = &x;
    r->n_extra = 1;
    char *ours = render(r);
    ck_assert_str_eq(ours, "Metric,avg,min,max,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n"
                           "\"Custom, Odd\",1.00,,2.00,,,,,,,,,,\r\n"
                           "\r\n"
                           "Metric,Value\r\n"
                           "Request Count,3.00\r\n");
    free(ours);
    r->extra = NULL;
    r->n_extra = 0;
    smfw_results_free(r);
}
END_TEST

static Suite *reporter_csv_suite(void) {
    Suite *s = suite_create("reporter_csv");
    TCase *tc = tcase_create("csv");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, matches_aiperf_rendering);
    tcase_add_test(tc, matches_legacy_csv);
    tcase_add_test(tc, matches_v0_10_csv_with_sum_column);
    tcase_add_test(tc, direct_run_matches_legacy_csv);
    tcase_add_test(tc, quoting_and_missing_cells);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(reporter_csv_suite());
}
