/*
 * test_reporter_json.c - the json reporter against AIPerf's real summaries.
 *
 * Oracles nobody here wrote: the fixture files in tests/data/aiperf/
 * (AIPerf's own JSON, written by Python's json.dumps(indent=2)) and strings
 * produced by Python itself. For every fixture: load it, write it back, and
 * check the same keys, units, statistics keys and values, key order (§4.2),
 * byte-identical metric blocks, and that the core's bundle parser reads our
 * file back to the very same doubles. A "direct run" (records recomputed
 * with smfw_results_compute) must match the legacy fixture's numbers.
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "smfw_test.h"

/* The plugin and its helpers are compiled into this test so it can call the
 * renderer directly; the registry/loader path is covered by test_reporter_run. */
#include "../../plugins/reporter-common/rpt_file.c"
#include "../../plugins/reporter-common/rpt_json.c"
#include "../../plugins/reporter-common/rpt_metrics.c"
#include "../../plugins/reporter-common/rpt_text.c"
#include "../../plugins/reporter-json/json_reporter.c"
#include "../../plugins/reporter-json/json_sweep.c"

#define AIPERF "aiperf/"
static const char *const fixtures[] = {
    AIPERF "2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency1/profile_export_aiperf.json",
    AIPERF "2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency2/profile_export_aiperf.json",
    AIPERF "2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency4/profile_export_aiperf.json",
    AIPERF "legacy-2025-10-example-run1/profile_export_aiperf.json",
    AIPERF "v0.10.0-qwen3.6-agent-c16/profile_export_aiperf.json",
};
#define N_FIXTURES (sizeof fixtures / sizeof fixtures[0])

/* ---- helpers ------------------------------------------------------------------------------ */

static char *render(const smfw_results *r) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(json_reporter_render(r, 1, &b, &err) == SMFW_OK, "render: %s", err.message);
    return b.data;
}

static smfw_results *load_json(const char *path) {
    smfw_results *r = smfw_results_new();
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_results_load_aiperf_json(r, path, &err) == SMFW_OK, "%s: %s", path,
                  err.message);
    return r;
}

/* Current tag of a fixture key (pre-release aliases). */
static const char *current_tag(const char *key) {
    if (strcmp(key, "ttft") == 0) return "time_to_first_token";
    if (strcmp(key, "ttst") == 0) return "time_to_second_token";
    if (strcmp(key, "prefill_throughput") == 0) return "prefill_throughput_per_user";
    return key;
}

/* The fixture's metric objects, whatever the layout ("records" nesting, nulls). */
static json_t *fixture_metrics(json_t *root) {
    json_t *out = json_object();
    json_t *records = json_object_get(root, "records");
    const char *key;
    json_t *v;
    if (json_is_object(records)) json_object_foreach(records, key, v) {
            json_object_set(out, current_tag(key), v);
        }
    json_object_foreach(root, key, v) {
        if (json_is_object(v) && json_is_string(json_object_get(v, "unit")))
            json_object_set(out, current_tag(key), v);
    }
    return out;
}

static const char *const stat_keys[] = {"avg", "p1",  "p5",  "p10", "p25", "p50", "p75",
                                        "p90", "p95", "p99", "min", "max", "std", "sum"};

/* Every non-null statistic of the fixture is in ours with the same value. */
static void check_metric_values(const char *tag, json_t *want, json_t *got, double tol) {
    for (size_t i = 0; i < sizeof stat_keys / sizeof stat_keys[0]; i++) {
        json_t *w = json_object_get(want, stat_keys[i]);
        if (!json_is_number(w)) continue;
        json_t *g = json_object_get(got, stat_keys[i]);
        ck_assert_msg(json_is_number(g), "%s.%s missing in our JSON", tag, stat_keys[i]);
        double a = json_number_value(w), b = json_number_value(g);
        if (tol == 0)
            ck_assert_msg(a == b, "%s.%s: fixture %.17g, ours %.17g", tag, stat_keys[i], a, b);
        else
            ck_assert_msg(smfw_test_reldiff(a, b) <= tol || fabs(a - b) < 1e-9,
                          "%s.%s: fixture %.17g, ours %.17g", tag, stat_keys[i], a, b);
    }
}

/* Key order of one metric object: unit, avg, p1..p99, min, max, std, count, sum (§4.2, §10). */
static void check_metric_shape(const char *tag, json_t *m) {
    static const char *const order[] = {"unit", "avg", "p1",  "p5",  "p10", "p25", "p50",   "p75",
                                        "p90",  "p95", "p99", "min", "max", "std", "count", "sum"};
    size_t pos = 0;
    const char *key;
    json_t *v;
    json_object_foreach(m, key, v) {
        while (pos < sizeof order / sizeof order[0] && strcmp(order[pos], key) != 0) pos++;
        ck_assert_msg(pos < sizeof order / sizeof order[0], "%s: key \"%s\" out of order", tag,
                      key);
        if (strcmp(key, "unit") == 0)
            ck_assert(json_is_string(v));
        else if (strcmp(key, "count") == 0)
            ck_assert(json_is_integer(v));
        else
            ck_assert_msg(json_is_real(v), "%s.%s is not a float", tag, key);
    }
    ck_assert_msg(json_object_get(m, "unit") && json_object_get(m, "avg"), "%s: no unit/avg", tag);
    const smfw_metric_info *mi = NULL;
    int id = smfw_metric_find(tag);
    if (id >= 0) mi = smfw_metric_get((smfw_metric_id)id);
    if (mi && (mi->kind == SMFW_METRIC_AGGREGATE || mi->kind == SMFW_METRIC_DERIVED))
        ck_assert_msg(json_object_size(m) == 2, "%s: single-value metric must be {unit, avg}", tag);
}

/* Top-level key order of §4.2. */
static void check_top_level_order(json_t *ours) {
    static const char *const genai[] = {"request_throughput",
                                        "request_latency",
                                        "request_count",
                                        "time_to_first_token",
                                        "time_to_second_token",
                                        "inter_token_latency",
                                        "output_token_throughput",
                                        "output_token_throughput_per_user",
                                        "output_sequence_length",
                                        "input_sequence_length",
                                        "goodput",
                                        "good_request_count",
                                        "output_token_count",
                                        "reasoning_token_count",
                                        "min_request_timestamp",
                                        "max_response_timestamp",
                                        "inter_chunk_latency",
                                        "total_output_tokens",
                                        "total_reasoning_tokens",
                                        "benchmark_duration",
                                        "total_isl",
                                        "total_osl",
                                        "error_request_count",
                                        "error_isl",
                                        "total_error_isl"};
    const char *keys[128];
    size_t n = 0;
    const char *key;
    json_t *v;
    json_object_foreach(ours, key, v) {
        ck_assert(n < 128);
        keys[n++] = key;
    }
    ck_assert_str_eq(keys[0], "schema_version");
    ck_assert_str_eq(keys[1], "aiperf_version");
    size_t i = 2;
    if (strcmp(keys[i], "benchmark_id") == 0) i++;
    size_t g = 0;
    for (; i < n && strcmp(keys[i], "input_config") != 0; i++) {
        while (g < sizeof genai / sizeof genai[0] && strcmp(genai[g], keys[i]) != 0) g++;
        ck_assert_msg(g < sizeof genai / sizeof genai[0], "\"%s\" out of the GenAI-Perf order",
                      keys[i]);
    }
    ck_assert_msg(i + 4 < n, "input_config missing or too late");
    ck_assert_str_eq(keys[i + 1], "was_cancelled");
    ck_assert_str_eq(keys[i + 2], "error_summary");
    ck_assert_str_eq(keys[n - 1], "smfw");
    for (size_t k = i + 3; k < n - 1; k++)
        if (strcmp(keys[k], "start_time") != 0 && strcmp(keys[k], "end_time") != 0)
            ck_assert_msg(json_is_string(json_object_get(json_object_get(ours, keys[k]), "unit")),
                          "\"%s\" after end_time is not a metric", keys[k]);
}

/* The text of `"tag": {...}` at depth 1 of a Python indent=2 dump. */
static char *metric_block(const char *doc, const char *tag) {
    char head[160];
    snprintf(head, sizeof head, "\n  \"%s\": {", tag);
    const char *p = strstr(doc, head);
    if (!p) return NULL;
    const char *end = strstr(p, "\n  }");
    if (!end) return NULL;
    return strndup(p, (size_t)(end - p) + 4);
}

static void check_same_stats(const smfw_stats *a, const smfw_stats *b, const char *what) {
    ck_assert_msg(a->present == b->present, "%s: present differs", what);
    if (!a->present) return;
    /* count is written only for distributions; a single value's count is not kept. */
    unsigned mask = ~0u;
    ck_assert_msg((a->fields & mask) == (b->fields & mask) ||
                      ((a->fields ^ b->fields) & ~(unsigned)SMFW_STAT_COUNT) == 0,
                  "%s: fields %#x vs %#x", what, a->fields, b->fields);
    if (a->fields & SMFW_STAT_AVG) ck_assert_msg(a->avg == b->avg, "%s avg", what);
    if (a->fields & SMFW_STAT_MIN) ck_assert_msg(a->min == b->min, "%s min", what);
    if (a->fields & SMFW_STAT_MAX) ck_assert_msg(a->max == b->max, "%s max", what);
    if (a->fields & SMFW_STAT_STD) ck_assert_msg(a->std == b->std, "%s std", what);
    if (a->fields & SMFW_STAT_SUM) ck_assert_msg(a->sum == b->sum, "%s sum", what);
    for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++)
        if (a->fields & (SMFW_STAT_P_FIRST << i))
            ck_assert_msg(a->p[i] == b->p[i], "%s %s", what, smfw_percentile_keys[i]);
}

/* Write our JSON, parse it back with the bundle parser, and compare every number. */
static void check_reparse(const smfw_results *r, const char *text) {
    char *dir = smfw_test_tmpdir();
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(rpt_write_file(dir, "profile_export_aiperf.json", text, strlen(text), &err) ==
                      SMFW_OK,
                  "%s", err.message);
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export_aiperf.json", dir);
    smfw_results *back = load_json(path);
    for (int id = 0; id < SMFW_M_COUNT_; id++)
        check_same_stats(&r->stats[id], &back->stats[id], smfw_metric_get((smfw_metric_id)id)->tag);
    ck_assert_uint_eq(r->n_extra, back->n_extra);
    for (size_t i = 0; i < r->n_extra; i++) {
        ck_assert_str_eq(r->extra[i].tag, back->extra[i].tag);
        ck_assert_str_eq(r->extra[i].unit, back->extra[i].unit);
        check_same_stats(&r->extra[i].stats, &back->extra[i].stats, r->extra[i].tag);
    }
    ck_assert_uint_eq(r->n_errors, back->n_errors);
    for (size_t i = 0; i < r->n_errors; i++) {
        ck_assert_uint_eq(r->errors[i].count, back->errors[i].count);
        ck_assert_int_eq(r->errors[i].code, back->errors[i].code);
        ck_assert_str_eq(r->errors[i].message, back->errors[i].message);
    }
    ck_assert_int_eq(r->info.was_cancelled, back->info.was_cancelled);
    /* start_time/end_time are ISO strings with microseconds, as AIPerf writes them. */
    ck_assert(r->info.start_wall_ns / 1000 == back->info.start_wall_ns / 1000);
    ck_assert(r->info.end_wall_ns / 1000 == back->info.end_wall_ns / 1000);
    if (r->info.benchmark_id) ck_assert_str_eq(r->info.benchmark_id, back->info.benchmark_id);
    if (r->info.input_config_json) {
        json_t *a = json_loads(r->info.input_config_json, 0, NULL);
        json_t *b = json_loads(back->info.input_config_json, 0, NULL);
        ck_assert_msg(json_equal(a, b), "input_config changed on the way through");
        json_decref(a);
        json_decref(b);
    }
    smfw_results_free(back);
    smfw_test_rmtree(dir);
    free(dir);
}

/* ---- tests -------------------------------------------------------------------------------- */

START_TEST(numbers_match_python_repr) {
    static const struct {
        double v;
        const char *python;
    } cases[] = {{64.0, "64.0"},
                 {1.7625515347970678e+18, "1.7625515347970678e+18"},
                 {0.0001, "0.0001"},
                 {1e-05, "1e-05"},
                 {1e16, "1e+16"},
                 {0.1, "0.1"},
                 {7.105427357601002e-15, "7.105427357601002e-15"},
                 {3652.1454372343746, "3652.1454372343746"},
                 {-0.0, "-0.0"},
                 {1e22, "1e+22"},
                 {2.5, "2.5"},
                 {1234567890123456.0, "1234567890123456.0"},
                 {12345678901234567.0, "1.2345678901234568e+16"},
                 {5e-324, "5e-324"},
                 {1.7976931348623157e308, "1.7976931348623157e+308"},
                 {255.56017270100003, "255.56017270100003"},
                 {0.2504302580624667, "0.2504302580624667"}};
    char buf[RPT_NUM_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rpt_repr_double(cases[i].v, buf);
        ck_assert_str_eq(buf, cases[i].python);
    }
    /* f"{x:.2f}" as the CSV writes it. */
    rpt_fixed2(1762551534797067776.0, buf);
    ck_assert_str_eq(buf, "1762551534797067776.00");
    rpt_fixed2(0.125, buf); /* exact binary half: round half to even, like Python */
    ck_assert_str_eq(buf, "0.12");
    rpt_human(12799.0, 2, buf);
    ck_assert_str_eq(buf, "12,799.00");
    rpt_human(-1234567.891, 1, buf);
    ck_assert_str_eq(buf, "-1,234,567.9");
}
END_TEST

START_TEST(dump_matches_python_json_dumps) {
    /* Expected text printed by Python 3: json.dumps(obj, indent=2). */
    static const char python[] =
        "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    2.5,\n"
        "    \"x\\u00e9\\ud83d\\ude00\\\"\\\\\\n\\t\\u0001\\u007f\"\n  ],\n  \"d\": null,\n"
        "  \"e\": {\n    \"f\": true,\n    \"g\": false,\n    \"h\": 1e-05,\n"
        "    \"i\": 1.7625515347970678e+18\n  }\n}";
    json_t *o = json_pack("{s:[], s:{}, s:[i, f, s], s:n, s:{s:b, s:b, s:f, s:f}}", "a", "b", "c",
                          1, 2.5, "x\xc3\xa9\xf0\x9f\x98\x80\"\\\n\t\x01\x7f", "d", "e", "f", 1,
                          "g", 0, "h", 1e-05, "i", 1.7625515347970678e+18);
    ck_assert_ptr_nonnull(o);
    smfw_buf b;
    smfw_buf_init(&b);
    rpt_json_dump(&b, o, 2);
    ck_assert_str_eq(b.data, python);
    smfw_buf_free(&b);
    json_decref(o);

    /* Invalid UTF-8 never escapes as raw bytes. */
    smfw_buf_init(&b);
    rpt_json_string(&b, "a\xff\xc3(b");
    ck_assert_str_eq(b.data, "\"a\\ufffd\\ufffd(b\"");
    smfw_buf_free(&b);
}
END_TEST

START_TEST(fixture_round_trip) {
    const char *rel = fixtures[_i];
    char path[4096];
    snprintf(path, sizeof path, "%s", smfw_test_data(rel));
    smfw_results *r = load_json(path);
    char *text = render(r);
    ck_assert_msg(text[strlen(text) - 1] == '}', "no trailing newline, like AIPerf");

    json_error_t je;
    json_t *ours = json_loads(text, 0, &je);
    ck_assert_msg(ours != NULL, "our JSON does not parse: %s (line %d)", je.text, je.line);
    json_t *fixture = json_load_file(path, 0, &je);
    ck_assert_ptr_nonnull(fixture);
    check_top_level_order(ours);

    /* Same metric keys, units and statistics as the fixture. */
    json_t *want = fixture_metrics(fixture);
    const char *tag;
    json_t *w;
    json_object_foreach(want, tag, w) {
        json_t *g = json_object_get(ours, tag);
        ck_assert_msg(json_is_object(g), "%s: metric %s missing", rel, tag);
        const char *wu = json_string_value(json_object_get(w, "unit"));
        const char *gu = json_string_value(json_object_get(g, "unit"));
        if (strcmp(tag, "prefill_throughput_per_user") != 0 || strcmp(wu, "tokens/sec") != 0)
            ck_assert_msg(strcmp(wu, gu) == 0, "%s: unit %s vs %s", tag, wu, gu);
        check_metric_values(tag, w, g, 0.0);
    }
    json_object_foreach(ours, tag, w) {
        if (!json_is_object(w) || !json_is_string(json_object_get(w, "unit"))) continue;
        ck_assert_msg(json_object_get(want, tag) != NULL, "%s: we wrote %s, the fixture has not",
                      rel, tag);
        check_metric_shape(tag, w);
    }
    /* Run-level fields. */
    ck_assert(json_equal(json_object_get(fixture, "error_summary"),
                         json_object_get(ours, "error_summary")));
    ck_assert(json_equal(json_object_get(fixture, "input_config"),
                         json_object_get(ours, "input_config")));
    ck_assert(json_equal(json_object_get(fixture, "was_cancelled"),
                         json_object_get(ours, "was_cancelled")));
    ck_assert_str_eq(json_string_value(json_object_get(fixture, "start_time")),
                     json_string_value(json_object_get(ours, "start_time")));
    ck_assert_str_eq(json_string_value(json_object_get(fixture, "end_time")),
                     json_string_value(json_object_get(ours, "end_time")));
    json_t *own = json_object_get(ours, "smfw");
    ck_assert(json_is_object(own));
    ck_assert(json_is_object(json_object_get(own, "validity")));

    /* Byte-for-byte: every metric block the fixture wrote without nulls. */
    char *fixture_text = smfw_test_read_file(path, NULL);
    size_t compared = 0;
    json_object_foreach(want, tag, w) {
        char *a = metric_block(fixture_text, tag);
        if (!a || strstr(a, "null")) {
            free(a);
            continue;
        }
        char *b = metric_block(text, tag);
        ck_assert_msg(b != NULL, "block %s missing", tag);
        ck_assert_msg(strcmp(a, b) == 0, "%s: block %s differs:\nAIPerf:%s\nsmfw:%s", rel, tag, a,
                      b);
        compared++;
        free(a);
        free(b);
    }
    if (strstr(rel, "legacy") == NULL) ck_assert_uint_ge(compared, 15);

    check_reparse(r, text);
    free(fixture_text);
    json_decref(want);
    json_decref(fixture);
    json_decref(ours);
    free(text);
    smfw_results_free(r);
}
END_TEST

/* A direct run: records in, smfw computes everything, the JSON must carry AIPerf's numbers. */
START_TEST(direct_run_matches_aiperf) {
    smfw_results *r = smfw_results_new();
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_msg(smfw_results_load_jsonl(
                      r, smfw_test_data(AIPERF "legacy-2025-10-example-run1/profile_export.jsonl"),
                      &err) == SMFW_OK,
                  "%s", err.message);
    ck_assert_msg(smfw_results_compute(r, NULL, 0, &err) == SMFW_OK, "%s", err.message);
    smfw_results_set_string(&r->info.backend, "direct");
    smfw_results_set_string(&r->info.target, "fixture replay");
    smfw_results_set_string(&r->info.token_count_source, "tokenizer");
    r->info.start_wall_ns = 1759522419154568960LL;
    r->info.end_wall_ns = 1759522428472357888LL;
    char *text = render(r);
    json_t *ours = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(ours);
    check_top_level_order(ours);

    json_t *fixture = json_load_file(
        smfw_test_data(AIPERF "legacy-2025-10-example-run1/profile_export_aiperf.json"), 0, NULL);
    json_t *want = fixture_metrics(fixture);
    const char *tag;
    json_t *w;
    json_object_foreach(want, tag, w) {
        json_t *g = json_object_get(ours, tag);
        ck_assert_msg(json_is_object(g), "metric %s missing from the direct run", tag);
        ck_assert_str_eq(json_string_value(json_object_get(w, "unit")),
                         json_string_value(json_object_get(g, "unit")));
        /* Written and read back: the very doubles of AIPerf's summary (test_stats_aiperf_bits). */
        check_metric_values(tag, w, g, 0.0);
    }
    json_object_foreach(ours, tag, w) {
        if (!json_is_object(w) || !json_is_string(json_object_get(w, "unit"))) continue;
        check_metric_shape(tag, w);
        ck_assert_msg(smfw_metric_find(tag) >= 0, "unknown metric %s", tag);
    }
    ck_assert(json_equal(json_object_get(fixture, "error_summary"),
                         json_object_get(ours, "error_summary")));
    json_t *own = json_object_get(ours, "smfw");
    ck_assert_str_eq(json_string_value(json_object_get(own, "backend")), "direct");
    ck_assert_str_eq(json_string_value(json_object_get(own, "token_count_source")), "tokenizer");
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(own, "errors_by_class"), "cancelled")),
        11);
    /* A run without input_config gets one in AIPerf's 0.5 shape. */
    ck_assert(json_is_object(json_object_get(json_object_get(ours, "input_config"), "endpoint")));
    check_reparse(r, text);
    json_decref(want);
    json_decref(fixture);
    json_decref(ours);
    free(text);
    smfw_results_free(r);
}
END_TEST

START_TEST(write_errors_name_the_file) {
    smfw_results *r = load_json(smfw_test_data(fixtures[0]));
    void *ctx = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(
        json_reporter_ops.create(smfw_test_plugin_settings("reporter.json"), &ctx, &err), SMFW_OK);
    /* A folder that does not exist. */
    ck_assert_int_eq(json_reporter_ops.write(ctx, r, "/nonexistent/smfw-out", &err), SMFW_ERR_IO);
    ck_assert_msg(strstr(err.message, "/nonexistent/smfw-out/profile_export_aiperf.json") != NULL,
                  "%s", err.message);
    /* A folder in the way of the file: the rename fails, nothing half-written stays. */
    char *dir = smfw_test_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export_aiperf.json", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    smfw_error_clear(&err);
    ck_assert_int_eq(json_reporter_ops.write(ctx, r, dir, &err), SMFW_ERR_IO);
    ck_assert_msg(strstr(err.message, path) != NULL, "%s", err.message);
    /* And a good write leaves exactly the file. */
    rmdir(path);
    ck_assert_int_eq(json_reporter_ops.write(ctx, r, dir, &err), SMFW_OK);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    json_reporter_ops.destroy(ctx);
    smfw_test_rmtree(dir);
    free(dir);
    smfw_results_free(r);
}
END_TEST

/* Issue 21, item 4: a link planted as the old ".NAME.PID.tmp" or as NAME is never followed. */
START_TEST(planted_links_are_not_followed) {
    char *dir = smfw_test_tmpdir();
    char victim[4096], planted[4096], target[4096];
    snprintf(victim, sizeof victim, "%s/victim", dir);
    ck_assert_int_eq(smfw_test_write_file(victim, "precious"), 0);
    snprintf(planted, sizeof planted, "%s/.report.txt.%ld.tmp", dir, (long)getpid());
    ck_assert_int_eq(symlink(victim, planted), 0);
    snprintf(target, sizeof target, "%s/report.txt", dir);
    ck_assert_int_eq(symlink(victim, target), 0);
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(rpt_write_file(dir, "report.txt", "new", 3, &err), SMFW_OK);
    char buf[64] = "";
    FILE *f = fopen(victim, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    ck_assert_str_eq(buf, "precious");
    struct stat st;
    ck_assert_int_eq(lstat(target, &st), 0);
    ck_assert(S_ISREG(st.st_mode)); /* the link itself was replaced by the report */
    smfw_test_rmtree(dir);
    free(dir);
}
END_TEST

static Suite *reporter_json_suite(void) {
    Suite *s = suite_create("reporter_json");
    TCase *tc = tcase_create("json");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, numbers_match_python_repr);
    tcase_add_test(tc, dump_matches_python_json_dumps);
    tcase_add_loop_test(tc, fixture_round_trip, 0, (int)N_FIXTURES);
    tcase_add_test(tc, direct_run_matches_aiperf);
    tcase_add_test(tc, write_errors_name_the_file);
    tcase_add_test(tc, planted_links_are_not_followed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(reporter_json_suite());
}
