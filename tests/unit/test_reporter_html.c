/*
 * test_reporter_html.c - the html reporter's page and charts, without a
 * browser (tests/integration/test_html_report.sh renders it in Chromium).
 *
 * From the legacy fixture (100 records with 11 cancelled requests) the page
 * must hold six charts, each an <svg> with data points that carry hover
 * titles, and nothing that reaches the network. A bundle without records
 * still gets CDFs from its percentiles. The 2025-11 sweep fixture, read as a
 * run set, gives the sweep chart; the knee is checked on a hand-made curve
 * written as level folders (concurrency_<N>/, request_rate_<R>/).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/results.h>
#include <smfw/run_set.h>

#include "smfw_test.h"

#include "../../plugins/reporter-common/rpt_file.c"
#include "../../plugins/reporter-common/rpt_json.c"
#include "../../plugins/reporter-common/rpt_metrics.c"
#include "../../plugins/reporter-common/rpt_summary.c"
#include "../../plugins/reporter-common/rpt_text.c"
#include "../../plugins/reporter-html/html_data.c"
#include "../../plugins/reporter-html/html_reporter.c"
#include "../../plugins/reporter-html/html_sweep.c"
#include "../../plugins/reporter-html/html_svg.c"

#define AIPERF "aiperf/"
#define SWEEP  AIPERF "2025-11-qwen3-0.6b-concurrency-sweep"

static smfw_results *load_dir(const char *rel) {
    smfw_results *r = smfw_results_new();
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_results_load_dir(r, smfw_test_data(rel), &err) == SMFW_OK, "%s",
                  err.message);
    return r;
}

static char *render(const smfw_results *r, const char *output_dir) {
    html_reporter self = {2000, 1};
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(html_reporter_render(&self, r, output_dir, &b, &err) == SMFW_OK, "%s",
                  err.message);
    return b.data;
}

static size_t count(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* Each chart svg: data-points > 0, as many class="pt" elements, each with a <title>. */
static size_t check_charts(const char *page) {
    size_t charts = 0;
    for (const char *p = strstr(page, "<svg class=\"chart-svg\""); p;
         p = strstr(p + 1, "<svg class=\"chart-svg\"")) {
        const char *end = strstr(p, "</svg>");
        ck_assert_ptr_nonnull(end);
        char *svg = strndup(p, (size_t)(end - p));
        const char *dp = strstr(svg, "data-points=\"");
        ck_assert_ptr_nonnull(dp);
        long points = strtol(dp + 13, NULL, 10);
        ck_assert_msg(points > 0, "a chart without data points: %.120s", svg);
        ck_assert_uint_eq(count(svg, "class=\"pt\""), (size_t)points);
        ck_assert_uint_ge(count(svg, "<title>"), (size_t)points + 1);
        ck_assert_msg(strstr(svg, "class=\"axis-label\"") != NULL, "no axis titles");
        ck_assert_msg(strstr(svg, "class=\"tick\"") != NULL, "no ticks");
        free(svg);
        charts++;
    }
    return charts;
}

static void check_self_contained(const char *page) {
    ck_assert_msg(strstr(page, "<script") == NULL, "no script");
    ck_assert_msg(strstr(page, " src=") == NULL, "nothing loaded by src=");
    ck_assert_msg(strstr(page, " href=") == NULL, "no links to fetch");
    ck_assert_msg(strstr(page, "url(") == NULL, "no CSS url()");
    ck_assert_msg(strstr(page, "@import") == NULL, "no CSS import");
    /* The only URL in an attribute is the SVG namespace name, which is never fetched
     * (URLs in text, e.g. the endpoint benchmarked, are just text). */
    size_t urls = count(page, "=\"http://") + count(page, "=\"https://");
    ck_assert_uint_eq(urls, count(page, "xmlns=\"http://www.w3.org/2000/svg\""));
    ck_assert(strstr(page, "Content-Security-Policy") != NULL);
}

START_TEST(legacy_run_has_every_chart) {
    smfw_results *r = load_dir(AIPERF "legacy-2025-10-example-run1");
    char *page = render(r, "/nonexistent");
    check_self_contained(page);
    ck_assert_uint_eq(check_charts(page), 6);
    static const char *const ids[] = {
        "ttft-timeline",       "cdf-ttft",       "cdf-itl", "cdf-latency",
        "throughput-timeline", "errors-timeline"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "id=\"%s\"", ids[i]);
        ck_assert_msg(strstr(page, needle) != NULL, "chart %s missing", ids[i]);
    }
    /* 89 valid requests with TTFT on the timeline, 11 cancelled ones in the error bars. */
    const char *tl = strstr(page, "id=\"ttft-timeline\"");
    ck_assert(strncmp(strstr(tl - 200, "data-points=\"") + 13, "89\"", 3) == 0);
    ck_assert(strstr(page, "11 failed (cancelled)") != NULL);
    ck_assert(strstr(page, "INVALID: error rate 11.00 %") != NULL);
    ck_assert(strstr(page, "<td>Time to first token</td><td class=\"num\">2,343.22</td>") != NULL);
    ck_assert(strstr(page, "RequestCancellationError") != NULL);
    free(page);
    smfw_results_free(r);
}
END_TEST

START_TEST(bundle_without_records_uses_percentiles) {
    smfw_results *r = smfw_results_new();
    ck_assert_int_eq(
        smfw_results_load_aiperf_json(
            r, smfw_test_data(AIPERF "v0.10.0-qwen3.6-agent-c16/profile_export_aiperf.json"), NULL),
        SMFW_OK);
    char *page = render(r, "/nonexistent");
    check_self_contained(page);
    ck_assert_uint_eq(check_charts(page), 3); /* the three CDFs */
    ck_assert(strstr(page, "From the summary&#39;s percentiles") != NULL);
    ck_assert_uint_eq(count(page, "chart chart-empty"), 3);
    /* min, p1..p99, max of TTFT: 11 points */
    const char *cdf = strstr(page, "id=\"cdf-ttft\"");
    ck_assert(strncmp(strstr(cdf - 200, "data-points=\"") + 13, "11\"", 3) == 0);
    free(page);
    smfw_results_free(r);
}
END_TEST

/* A made-up saturating curve: throughput flattens after the third level (4 -> 8 gains 7.7%
 * per doubling while TTFT p95 rises). */
static const struct {
    double load, ttft_p95_ms, output_tps;
} curve[] = {{1, 10, 100}, {2, 12, 190}, {4, 15, 260}, {8, 40, 280}, {16, 120, 285}};

/* Level folders `<prefix><load>/` under a new temporary folder, each with a small
 * profile_export_aiperf.json of the first `n` levels of the curve. */
static char *write_curve(const char *prefix, size_t n) {
    char *dir = smfw_test_tmpdir();
    ck_assert_ptr_nonnull(dir);
    for (size_t i = 0; i < n; i++) {
        char path[4096], json[1024];
        snprintf(path, sizeof path, "%s/%s%g", dir, prefix, curve[i].load);
        ck_assert_int_eq(mkdir(path, 0755), 0);
        strncat(path, "/profile_export_aiperf.json", sizeof path - strlen(path) - 1);
        snprintf(json, sizeof json,
                 "{\"request_count\":{\"unit\":\"requests\",\"avg\":100},"
                 "\"request_throughput\":{\"unit\":\"requests/sec\",\"avg\":%g},"
                 "\"time_to_first_token\":{\"unit\":\"ms\",\"avg\":%g,\"p50\":%g,\"p95\":%g},"
                 "\"output_token_throughput\":{\"unit\":\"tokens/sec\",\"avg\":%g}}",
                 curve[i].output_tps / 100, curve[i].ttft_p95_ms * 0.8, curve[i].ttft_p95_ms * 0.8,
                 curve[i].ttft_p95_ms, curve[i].output_tps);
        ck_assert_int_eq(smfw_test_write_file(path, json), 0);
    }
    return dir;
}

/* The page of the first level of the curve written under dir. */
static char *render_curve_page(const char *dir, const char *prefix) {
    char level[4096];
    snprintf(level, sizeof level, "%s/%s1", dir, prefix);
    smfw_results *r = smfw_results_new();
    ck_assert_int_eq(smfw_results_load_dir(r, level, NULL), SMFW_OK);
    char *page = render(r, dir);
    smfw_results_free(r);
    return page;
}

START_TEST(sweep_chart_and_knee) {
    /* The fixture (qwen_concurrency1/2/4) read as a run set, as `smfw sweep` reads it. */
    smfw_run_set *set = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_run_set_load_dir(smfw_test_data(SWEEP), &set, &err) == SMFW_OK, "%s",
                  err.message);
    ck_assert_uint_eq(smfw_run_set_count(set), 3);
    ck_assert_str_eq(smfw_run_set_mode(set), "concurrency");
    ck_assert(smfw_run_set_point(set, 0)->load == 1);
    ck_assert(smfw_run_set_point(set, 1)->load == 2);
    ck_assert(smfw_run_set_point(set, 2)->load == 4);
    ck_assert(smfw_run_set_point(set, 0)->output_tps == 50.08213863971112);
    ck_assert_str_eq(html_sweep_level_name(set, 0), "qwen_concurrency1");
    smfw_run_set_free(set);

    smfw_results *r = load_dir(SWEEP "/qwen_concurrency4");
    char *page = render(r, smfw_test_data(SWEEP));
    ck_assert_uint_eq(check_charts(page), 7);
    ck_assert(strstr(page, "id=\"sweep-knee\"") != NULL);
    ck_assert(strstr(page, "<th>Concurrency</th>") != NULL);
    ck_assert(strstr(page, "<td>qwen_concurrency2</td><td class=\"num\">2</td>") != NULL);
    /* AIPerf's 1/2/4 sweep still doubles its throughput at every step: no knee to mark. */
    ck_assert(strstr(page, "No knee: throughput still grew") != NULL);
    ck_assert(strstr(page, "knee: c=") == NULL);
    free(page);
    smfw_results_free(r);

    /* The knee rule on the saturating curve, through the page: the knee is c=4. */
    char *dir = write_curve("concurrency_", 5);
    page = render_curve_page(dir, "concurrency_");
    ck_assert_uint_eq(check_charts(page), 2); /* the TTFT CDF (from its percentiles), the sweep */
    ck_assert(strstr(page, "id=\"sweep-knee\"") != NULL);
    ck_assert_msg(strstr(page, "knee: c=4") != NULL, "the knee is not marked");
    ck_assert(strstr(page, "<tr class=\"knee\"><td>knee: c=4</td>") != NULL);
    ck_assert(strstr(page, "The knee (as `smfw sweep` finds it") != NULL);
    ck_assert(strstr(page, "No knee") == NULL);
    free(page);
    smfw_test_rmtree(dir);
    free(dir);

    /* Its first three levels still scale: no knee. One level is no sweep: no section. */
    dir = write_curve("concurrency_", 3);
    page = render_curve_page(dir, "concurrency_");
    ck_assert(strstr(page, "No knee: throughput still grew") != NULL);
    ck_assert(strstr(page, "knee: c=") == NULL);
    free(page);
    smfw_test_rmtree(dir);
    free(dir);
    dir = write_curve("concurrency_", 1);
    page = render_curve_page(dir, "concurrency_");
    ck_assert_uint_eq(check_charts(page), 1);
    ck_assert(strstr(page, "id=\"sweep-knee\"") == NULL);
    free(page);
    smfw_test_rmtree(dir);
    free(dir);

    /* A request-rate sweep says so in its labels and table. */
    dir = write_curve("request_rate_", 5);
    page = render_curve_page(dir, "request_rate_");
    ck_assert(strstr(page, "knee: rate=4/s") != NULL);
    ck_assert(strstr(page, "<th>Request rate (requests/s)</th>") != NULL);
    ck_assert(strstr(page, "in order of request rate") != NULL);
    ck_assert(strstr(page, "Concurrency") == NULL);
    free(page);
    smfw_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(nice_axes_and_escaping) {
    html_axis a;
    html_axis_nice(&a, 0.3, 9.7, 8);
    ck_assert(a.lo == 0.0 && a.hi == 10.0 && a.step == 2.0);
    html_axis_nice(&a, 28.66, 34.72, 6);
    ck_assert(a.step == 2.0 && a.lo == 28.0 && a.hi == 36.0);
    html_axis_nice(&a, 0, 0.0231, 5);
    ck_assert(a.step == 0.005 && a.lo == 0.0 && a.hi == 0.025 && a.decimals == 3);
    html_axis_nice(&a, 5, 5, 6); /* one value: still a usable axis */
    ck_assert(a.hi > a.lo);
    smfw_buf b;
    smfw_buf_init(&b);
    html_escape(&b, "<a href=\"x\">&'");
    ck_assert_str_eq(b.data, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    smfw_buf_free(&b);
}
END_TEST

START_TEST(writes_report_file) {
    smfw_results *r = load_dir(AIPERF "legacy-2025-10-example-run1");
    char *dir = smfw_test_tmpdir();
    void *ctx = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(
        html_reporter_ops.create(smfw_test_plugin_settings("reporter.html"), &ctx, &err), SMFW_OK);
    ck_assert_int_eq(html_reporter_ops.write(ctx, r, dir, &err), SMFW_OK);
    char path[4096];
    snprintf(path, sizeof path, "%s/report.html", dir);
    size_t len = 0;
    char *text = smfw_test_read_file(path, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert(strncmp(text, "<!DOCTYPE html>", 15) == 0);
    free(text);
    ck_assert_int_eq(html_reporter_ops.write(ctx, r, "/nonexistent/dir", &err), SMFW_ERR_IO);
    ck_assert(strstr(err.message, "/nonexistent/dir/report.html") != NULL);
    html_reporter_ops.destroy(ctx);
    smfw_test_rmtree(dir);
    free(dir);
    smfw_results_free(r);
}
END_TEST

static Suite *reporter_html_suite(void) {
    Suite *s = suite_create("reporter_html");
    TCase *tc = tcase_create("html");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, legacy_run_has_every_chart);
    tcase_add_test(tc, bundle_without_records_uses_percentiles);
    tcase_add_test(tc, sweep_chart_and_knee);
    tcase_add_test(tc, nice_axes_and_escaping);
    tcase_add_test(tc, writes_report_file);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(reporter_html_suite());
}
