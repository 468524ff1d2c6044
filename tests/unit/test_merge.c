/*
 * test_merge.c - exact aggregates from several parts: one folder reproduces
 * its own aggregates, 3 shards give the aggregates of the union of their
 * records, and the consistency checks refuse what is not one run.
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/merge.h>
#include <smfw/shard.h>

#include "smfw_test.h"

#define LEGACY "aiperf/legacy-2025-10-example-run1"

static smfw_results *load(const char *rel) {
    smfw_results *r = smfw_results_new();
    smfw_error err;
    ck_assert_msg(smfw_results_load_dir(r, smfw_test_data(rel), &err) == SMFW_OK, "%s",
                  err.message);
    return r;
}

/* Every statistic of every metric, bit for bit (or within rel_tol when > 0). */
static void expect_same_stats(const smfw_results *a, const smfw_results *b, double rel_tol) {
    for (int id = 0; id < SMFW_M_COUNT_; id++) {
        const smfw_stats *x = &a->stats[id], *y = &b->stats[id];
        const char *tag = smfw_metric_get((smfw_metric_id)id)->tag;
        ck_assert_msg(x->present == y->present, "%s present %d vs %d", tag, x->present, y->present);
        if (!x->present) continue;
        ck_assert_msg(x->count == y->count, "%s count", tag);
        double xs[] = {x->avg, x->min, x->max, x->std, x->sum};
        double ys[] = {y->avg, y->min, y->max, y->std, y->sum};
        for (int k = 0; k < 5; k++) {
            if (rel_tol > 0)
                ck_assert_msg(smfw_test_reldiff(xs[k], ys[k]) <= rel_tol,
                              "%s field %d: %.17g vs %.17g", tag, k, xs[k], ys[k]);
            else
                ck_assert_msg(xs[k] == ys[k], "%s field %d: %.17g vs %.17g", tag, k, xs[k], ys[k]);
        }
        for (int k = 0; k < SMFW_PERCENTILE_COUNT; k++) {
            if (rel_tol > 0)
                ck_assert_msg(smfw_test_reldiff(x->p[k], y->p[k]) <= rel_tol, "%s p%d", tag, k);
            else
                ck_assert_msg(x->p[k] == y->p[k], "%s %s: %.17g vs %.17g", tag,
                              smfw_percentile_keys[k], x->p[k], y->p[k]);
        }
    }
}

/* A folder's own records reproduce its own aggregates (AIPerf's summary, bit for bit). */
START_TEST(one_folder_reproduces_its_own_aggregates) {
    smfw_results *legacy = load(LEGACY);
    ck_assert_uint_eq(legacy->n_records, 100);
    const smfw_results *parts[] = {legacy};
    const char *labels[] = {"legacy"};
    smfw_results *m = NULL;
    smfw_merge_report rep;
    smfw_error err;
    ck_assert_msg(smfw_results_merge(parts, labels, 1, NULL, &m, &rep, &err) == SMFW_OK, "%s",
                  err.message);
    ck_assert_uint_eq(rep.n_records, 100);
    ck_assert_uint_eq(rep.duplicates, 0);
    ck_assert_uint_eq(rep.shard_count, 0);
    int compared = 0;
    for (int id = 0; id < SMFW_M_COUNT_; id++) {
        const smfw_stats *t = &legacy->stats[id];
        if (!t->present) continue;
        const smfw_stats *x = &m->stats[id];
        ck_assert_msg(x->present, "%s missing", smfw_metric_get((smfw_metric_id)id)->tag);
        const char *tag = smfw_metric_get((smfw_metric_id)id)->tag;
        const double xs[] = {x->avg, x->min, x->max, x->std},
                     ts[] = {t->avg, t->min, t->max, t->std};
        const unsigned bits[] = {SMFW_STAT_AVG, SMFW_STAT_MIN, SMFW_STAT_MAX, SMFW_STAT_STD};
        for (int k = 0; k < 4; k++)
            if (t->fields & bits[k])
                ck_assert_msg(xs[k] == ts[k], "%s stat %d: %.17g vs %.17g", tag, k, xs[k], ts[k]);
        for (int k = 0; k < SMFW_PERCENTILE_COUNT; k++)
            if (t->fields & SMFW_STAT_P_FIRST << k)
                ck_assert_msg(x->p[k] == t->p[k], "%s p[%d]: %.17g vs %.17g", tag, k, x->p[k],
                              t->p[k]);
        compared++;
    }
    ck_assert_int_ge(compared, 15);
    ck_assert_ptr_nonnull(strstr(m->info.smfw_json, "\"merge\""));
    smfw_results_free(m);

    /* A run whose aggregates smfw computed itself is reproduced bit for bit. */
    smfw_results *own = smfw_results_new();
    for (size_t i = 0; i < legacy->n_records; i++) {
        smfw_record copy;
        ck_assert_int_eq(smfw_record_copy(&copy, &legacy->records[i]), SMFW_OK);
        ck_assert_int_eq(smfw_results_add_record(own, &copy, &err), SMFW_OK);
    }
    ck_assert_int_eq(smfw_results_compute(own, NULL, 0, &err), SMFW_OK);
    parts[0] = own;
    ck_assert_int_eq(smfw_results_merge(parts, labels, 1, NULL, &m, &rep, &err), SMFW_OK);
    expect_same_stats(own, m, 0);
    smfw_results_free(m);
    smfw_results_free(own);
    smfw_results_free(legacy);
}
END_TEST

/* Split the legacy run's 100 records into 3 shards the way --shard deals requests. */
static smfw_results *make_shard(const smfw_results *all, uint32_t index, uint32_t count) {
    smfw_shard sh = {index, count};
    smfw_results *r = smfw_results_new();
    smfw_error err;
    for (size_t g = 0; g < all->n_records; g++) {
        if (!smfw_shard_owns(&sh, g)) continue;
        smfw_record copy;
        ck_assert_int_eq(smfw_record_copy(&copy, &all->records[g]), SMFW_OK);
        ck_assert_int_eq(smfw_results_add_record(r, &copy, &err), SMFW_OK);
    }
    ck_assert_int_eq(smfw_results_compute(r, NULL, 0, &err), SMFW_OK);
    char s[16];
    smfw_results_set_string(&r->info.shard, smfw_shard_format(&sh, s, sizeof s));
    smfw_results_set_string(&r->info.endpoint_name, "my-endpoint");
    smfw_results_set_string(&r->info.backend, "direct");
    r->info.concurrency = (int64_t)smfw_shard_share(&sh, 10);
    r->info.request_count_target = (int64_t)smfw_shard_share(&sh, 100);
    r->info.streaming = 1;
    return r;
}

START_TEST(three_shards_equal_the_union_of_their_records) {
    smfw_results *legacy = load(LEGACY);
    smfw_results *sh[3];
    for (uint32_t i = 0; i < 3; i++) sh[i] = make_shard(legacy, i + 1, 3);
    ck_assert_uint_eq(sh[0]->n_records + sh[1]->n_records + sh[2]->n_records, 100);
    /* Out of order on purpose: the parts are taken as given. */
    const smfw_results *parts[] = {sh[1], sh[0], sh[2]};
    const char *labels[] = {"s2", "s1", "s3"};
    smfw_results *m = NULL;
    smfw_merge_report rep;
    smfw_error err;
    ck_assert_msg(smfw_results_merge(parts, labels, 3, NULL, &m, &rep, &err) == SMFW_OK, "%s",
                  err.message);
    ck_assert_uint_eq(rep.shard_count, 3);
    ck_assert_uint_eq(rep.n_records, 100);
    ck_assert_ptr_nonnull(strstr(rep.description, "shards of 3"));
    ck_assert_ptr_null(m->info.shard);
    ck_assert_int_eq(m->info.concurrency, 10);
    ck_assert_int_eq(m->info.request_count_target, 100);
    /* The union of the records, recomputed by hand in the same order: identical. */
    smfw_results *u = smfw_results_new();
    for (size_t p = 0; p < 3; p++)
        for (size_t k = 0; k < parts[p]->n_records; k++) {
            smfw_record copy;
            ck_assert_int_eq(smfw_record_copy(&copy, &parts[p]->records[k]), SMFW_OK);
            ck_assert_int_eq(smfw_results_add_record(u, &copy, &err), SMFW_OK);
        }
    ck_assert_int_eq(smfw_results_compute(u, NULL, 0, &err), SMFW_OK);
    expect_same_stats(m, u, 0);
    /* And the unsharded run's own recomputation: records aggregate in completion order
     * whatever shard they came from, so bit for bit too. */
    smfw_results *whole = smfw_results_new();
    for (size_t k = 0; k < legacy->n_records; k++) {
        smfw_record copy;
        ck_assert_int_eq(smfw_record_copy(&copy, &legacy->records[k]), SMFW_OK);
        ck_assert_int_eq(smfw_results_add_record(whole, &copy, &err), SMFW_OK);
    }
    ck_assert_int_eq(smfw_results_compute(whole, NULL, 0, &err), SMFW_OK);
    expect_same_stats(m, whole, 0);
    /* Shard aggregates alone are not the whole: their p99 differ from the merged one. */
    ck_assert(sh[0]->stats[SMFW_M_INTER_CHUNK_LATENCY].p[SMFW_P99] !=
              m->stats[SMFW_M_INTER_CHUNK_LATENCY].p[SMFW_P99]);
    smfw_results_free(whole);
    smfw_results_free(u);
    smfw_results_free(m);
    for (int i = 0; i < 3; i++) smfw_results_free(sh[i]);
    smfw_results_free(legacy);
}
END_TEST

START_TEST(merge_refuses_what_is_not_one_run) {
    smfw_results *legacy = load(LEGACY);
    smfw_results *sh[3];
    for (uint32_t i = 0; i < 3; i++) sh[i] = make_shard(legacy, i + 1, 3);
    smfw_results *m = NULL;
    smfw_merge_report rep;
    smfw_error err;
    /* a missing shard */
    const smfw_results *two[] = {sh[0], sh[2]};
    ck_assert_int_eq(smfw_results_merge(two, NULL, 2, NULL, &m, &rep, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "2/3"));
    smfw_merge_options o;
    memset(&o, 0, sizeof o);
    o.allow_partial = 1;
    ck_assert_int_eq(smfw_results_merge(two, NULL, 2, &o, &m, &rep, &err), SMFW_OK);
    ck_assert_uint_eq(rep.n_records, sh[0]->n_records + sh[2]->n_records);
    smfw_results_free(m);
    /* one shard alone is a recomputation of that shard */
    const smfw_results *one[] = {sh[1]};
    ck_assert_int_eq(smfw_results_merge(one, NULL, 1, NULL, &m, &rep, &err), SMFW_OK);
    ck_assert_str_eq(m->info.shard, "2/3");
    ck_assert_int_eq(m->info.concurrency, sh[1]->info.concurrency);
    smfw_results_free(m);
    /* the same shard twice */
    const smfw_results *dup[] = {sh[0], sh[1], sh[1]};
    const char *labels[] = {"a", "b", "c"};
    ck_assert_int_eq(smfw_results_merge(dup, labels, 3, NULL, &m, &rep, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "twice (b and c)"));
    /* another endpoint */
    smfw_results_set_string(&sh[2]->info.endpoint_name, "other-endpoint");
    const smfw_results *all[] = {sh[0], sh[1], sh[2]};
    ck_assert_int_eq(smfw_results_merge(all, labels, 3, NULL, &m, &rep, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "endpoint"));
    smfw_results_set_string(&sh[2]->info.endpoint_name, "my-endpoint");
    /* a different shard count */
    smfw_results_set_string(&sh[2]->info.shard, "3/4");
    ck_assert_int_eq(smfw_results_merge(all, labels, 3, NULL, &m, &rep, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "one run"));
    /* a truncated record file (the 2025-11 fixture keeps 10 of 64 records) */
    smfw_results *trunc = load("aiperf/2025-11-qwen3-0.6b-concurrency-sweep/qwen_concurrency1");
    const smfw_results *t1[] = {trunc};
    ck_assert_int_eq(smfw_results_merge(t1, labels, 1, NULL, &m, &rep, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "incomplete"));
    smfw_results_free(trunc);
    for (int i = 0; i < 3; i++) smfw_results_free(sh[i]);
    smfw_results_free(legacy);
}
END_TEST

/* A bundle merged with a copy of itself (a re-analysis of the same requests) counts them once. */
START_TEST(duplicate_requests_count_once_and_jsonl_is_written) {
    smfw_results *a = load(LEGACY), *b = load(LEGACY);
    const smfw_results *parts[] = {a, b};
    char *dir = smfw_test_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export.jsonl", dir);
    smfw_merge_options o;
    memset(&o, 0, sizeof o);
    o.jsonl_path = path;
    o.run_name = "merged-run";
    smfw_results *m = NULL;
    smfw_merge_report rep;
    smfw_error err;
    ck_assert_msg(smfw_results_merge(parts, NULL, 2, &o, &m, &rep, &err) == SMFW_OK, "%s",
                  err.message);
    ck_assert_uint_eq(rep.duplicates, 100);
    ck_assert_uint_eq(rep.n_records, 100);
    ck_assert_str_eq(m->info.run_name, "merged-run");
    ck_assert_ptr_nonnull(strstr(rep.description, "100 duplicate records"));
    /* The written records read back into the same aggregates. */
    smfw_results *back = smfw_results_new();
    ck_assert_int_eq(smfw_results_load_jsonl(back, path, &err), SMFW_OK);
    ck_assert_uint_eq(back->n_records, 100);
    ck_assert_int_eq(smfw_results_compute(back, NULL, 0, &err), SMFW_OK);
    expect_same_stats(m, back, 0);
    smfw_results_free(back);
    smfw_results_free(m);
    smfw_results_free(a);
    smfw_results_free(b);
    smfw_test_rmtree(dir);
    free(dir);
}
END_TEST

int main(void) {
    Suite *s = suite_create("merge");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, one_folder_reproduces_its_own_aggregates);
    tcase_add_test(tc, three_shards_equal_the_union_of_their_records);
    tcase_add_test(tc, merge_refuses_what_is_not_one_run);
    tcase_add_test(tc, duplicate_requests_count_once_and_jsonl_is_written);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
