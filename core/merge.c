/*
 * merge.c - exact aggregates of one run from several result folders, by
 * recomputing every metric from the union of their per-request records.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/merge.h>
#include <smfw/shard.h>

#include "results_internal.h"

static int dup_str(char **dst, const char *src) {
    *dst = NULL;
    if (!src) return 0;
    *dst = strdup(src);
    return *dst ? 0 : -1;
}

smfw_status smfw_record_copy(smfw_record *dst, const smfw_record *src) {
    *dst = *src;
    dst->x_request_id = dst->x_correlation_id = dst->conversation_id = NULL;
    dst->worker_id = dst->record_processor_id = dst->extra_metrics_json = NULL;
    dst->token_count_source = NULL;
    dst->icl = NULL;
    dst->error = NULL;
    int bad = dup_str(&dst->x_request_id, src->x_request_id) |
              dup_str(&dst->x_correlation_id, src->x_correlation_id) |
              dup_str(&dst->conversation_id, src->conversation_id) |
              dup_str(&dst->worker_id, src->worker_id) |
              dup_str(&dst->record_processor_id, src->record_processor_id) |
              dup_str(&dst->token_count_source, src->token_count_source) |
              dup_str(&dst->extra_metrics_json, src->extra_metrics_json);
    if (!bad && src->icl_len) {
        dst->icl = malloc(src->icl_len * sizeof *dst->icl);
        if (dst->icl)
            memcpy(dst->icl, src->icl, src->icl_len * sizeof *dst->icl);
        else
            bad = 1;
    }
    if (!bad && src->error) {
        dst->error = calloc(1, sizeof *dst->error);
        if (dst->error) {
            *dst->error = *src->error;
            bad = dup_str(&dst->error->type, src->error->type) |
                  dup_str(&dst->error->message, src->error->message) |
                  dup_str(&dst->error->cause, src->error->cause);
        } else {
            bad = 1;
        }
    }
    if (bad) {
        smfw_record_clear(dst);
        return SMFW_ERR_NOMEM;
    }
    return SMFW_OK;
}

static const char *label_of(const char *const *labels, size_t i, char *buf, size_t size) {
    if (labels && labels[i]) return labels[i];
    snprintf(buf, size, "part %zu", i + 1);
    return buf;
}

/* Two parts must describe the same test; NULL on either side is "unknown", not a difference. */
static const char *first_mismatch(const smfw_run_info *a, const smfw_run_info *b) {
    struct {
        const char *what, *x, *y;
    } f[] = {{"endpoint", a->endpoint_name, b->endpoint_name},
             {"inference component", a->inference_component, b->inference_component},
             {"URL", a->url, b->url},
             {"endpoint type", a->endpoint_type, b->endpoint_type},
             {"model", a->model, b->model},
             {"dataset", a->dataset_sha256, b->dataset_sha256}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].x && f[i].y && strcmp(f[i].x, f[i].y) != 0) return f[i].what;
    if (a->streaming != b->streaming) return "streaming";
    return NULL;
}

typedef struct id_ref {
    const char *id;
    size_t order;
} id_ref;

static int cmp_id(const void *a, const void *b) {
    const id_ref *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    if (c) return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static smfw_status check_records(const smfw_results *p, const char *label,
                                 const smfw_merge_options *o, smfw_error *err) {
    size_t valid = 0, errors = 0;
    for (size_t i = 0; i < p->n_records; i++) {
        if (p->records[i].error)
            errors++;
        else
            valid++;
    }
    if (!p->n_records && !o->allow_incomplete)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "%s has no per-request records (profile_export.jsonl); aggregates "
                              "cannot be recomputed from a summary alone",
                              label);
    const smfw_stats *rc = &p->stats[SMFW_M_REQUEST_COUNT],
                     *ec = &p->stats[SMFW_M_ERROR_REQUEST_COUNT];
    double want_valid = rc->present ? rc->avg : (double)valid;
    double want_err = ec->present ? ec->avg : (double)errors;
    if ((llround(want_valid) != (long long)valid || llround(want_err) != (long long)errors) &&
        !o->allow_incomplete)
        return smfw_error_set(
            err, SMFW_ERR_CONFIG,
            "%s: profile_export.jsonl holds %zu valid and %zu error records but "
            "its summary counts %.0f and %.0f; the records are incomplete (e.g. a "
            "truncated export), so exact aggregates are impossible "
            "(--allow-incomplete merges them anyway)",
            label, valid, errors, want_valid, want_err);
    return SMFW_OK;
}

static smfw_status check_shards(const smfw_results *const *parts, const char *const *labels,
                                size_t n, const smfw_merge_options *o, smfw_merge_report *rep,
                                smfw_error *err) {
    smfw_shard first = {0, 0};
    size_t n_sharded = 0;
    unsigned char *seen = NULL;
    char lb[32], lb2[32];
    smfw_status st = SMFW_OK;
    for (size_t i = 0; i < n && st == SMFW_OK; i++) {
        if (!parts[i]->info.shard) continue;
        smfw_shard s;
        smfw_error e;
        if (smfw_shard_parse(parts[i]->info.shard, &s, &e) != SMFW_OK) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s: %s", label_of(labels, i, lb, sizeof lb),
                                e.message);
            break;
        }
        if (!n_sharded++) {
            first = s;
            seen = calloc(s.count + 1, 1);
            if (!seen) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        } else if (s.count != first.count && !o->allow_mismatch) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "%s is shard %s but another part is shard %u/%u: these shards do "
                                "not belong to one run",
                                label_of(labels, i, lb, sizeof lb), parts[i]->info.shard,
                                first.index, first.count);
        }
        if (st == SMFW_OK && s.count == first.count) {
            if (seen[s.index]) {
                size_t j = 0;
                while (j < i && !(parts[j]->info.shard &&
                                  strcmp(parts[j]->info.shard, parts[i]->info.shard) == 0))
                    j++;
                st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                    "shard %s is given twice (%s and %s); merging it twice would "
                                    "count its requests twice",
                                    parts[i]->info.shard, label_of(labels, j, lb2, sizeof lb2),
                                    label_of(labels, i, lb, sizeof lb));
            }
            seen[s.index] = 1;
        }
    }
    if (st == SMFW_OK && n_sharded && n_sharded != n && !o->allow_mismatch)
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "%zu of the %zu parts are shards of %u and %zu are not; merge the "
                            "shards of one run only",
                            n_sharded, n, first.count, n - n_sharded);
    if (st == SMFW_OK && n_sharded) {
        char missing[256] = "";
        for (uint32_t k = 1; k <= first.count; k++) {
            if (seen[k]) continue;
            size_t l = strlen(missing);
            if (l < sizeof missing - 16)
                snprintf(missing + l, sizeof missing - l, "%s%u/%u", l ? ", " : "", k, first.count);
        }
        /* One folder alone is a recomputation of that shard, not a merge of the run. */
        if (missing[0] && !o->allow_partial && n > 1)
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "shard%s %s missing: the merge would not be the whole run "
                                "(--allow-partial merges what is there)",
                                strchr(missing, ',') ? "s" : "", missing);
        rep->shard_count = first.count;
    }
    free(seen);
    return st;
}

smfw_status smfw_results_merge(const smfw_results *const *parts, const char *const *labels,
                               size_t n, const smfw_merge_options *opts, smfw_results **out,
                               smfw_merge_report *report, smfw_error *err) {
    *out = NULL;
    smfw_merge_options o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    smfw_merge_report rep;
    memset(&rep, 0, sizeof rep);
    rep.n_parts = n;
    if (!n) return smfw_error_set(err, SMFW_ERR_USAGE, "nothing to merge");
    char lb[32], lb2[32];
    smfw_status st;
    for (size_t i = 0; i < n; i++) {
        st = check_records(parts[i], label_of(labels, i, lb, sizeof lb), &o, err);
        if (st != SMFW_OK) return st;
        const char *what = i ? first_mismatch(&parts[0]->info, &parts[i]->info) : NULL;
        if (what && !o.allow_mismatch)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "%s and %s differ in %s: they are not parts of one run "
                                  "(--allow-mismatch merges them anyway)",
                                  label_of(labels, 0, lb2, sizeof lb2),
                                  label_of(labels, i, lb, sizeof lb), what);
    }
    st = check_shards(parts, labels, n, &o, &rep, err);
    if (st != SMFW_OK) return st;

    /* Duplicate requests (same x_request_id) are kept once, first part first. */
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += parts[i]->n_records;
    unsigned char *drop = calloc(total ? total : 1, 1);
    id_ref *ids = calloc(total ? total : 1, sizeof *ids);
    if (!drop || !ids) {
        free(drop);
        free(ids);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    size_t n_ids = 0, order = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < parts[i]->n_records; k++, order++)
            if (parts[i]->records[k].x_request_id)
                ids[n_ids++] = (id_ref){parts[i]->records[k].x_request_id, order};
    qsort(ids, n_ids, sizeof *ids, cmp_id);
    for (size_t k = 1; k < n_ids; k++)
        if (strcmp(ids[k].id, ids[k - 1].id) == 0) {
            drop[ids[k].order] = 1;
            rep.duplicates++;
        }
    free(ids);

    smfw_results *m = smfw_results_new();
    if (!m) {
        free(drop);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    /* Run info: the first part's, widened to the whole run. */
    const smfw_run_info *f = &parts[0]->info;
    smfw_run_info *mi = &m->info;
    char name[300];
    if (o.run_name)
        snprintf(name, sizeof name, "%s", o.run_name);
    else
        snprintf(name, sizeof name, "%s-merged", f->run_name ? f->run_name : "run");
    smfw_results_set_string(&mi->run_name, name);
    const char *backend = f->backend;
    for (size_t i = 1; i < n; i++)
        if (backend && parts[i]->info.backend && strcmp(backend, parts[i]->info.backend) != 0)
            backend = "mixed";
    smfw_results_set_string(&mi->backend, backend);
    smfw_results_set_string(&mi->target, f->target);
    smfw_results_set_string(&mi->endpoint_name, f->endpoint_name);
    smfw_results_set_string(&mi->inference_component, f->inference_component);
    smfw_results_set_string(&mi->url, f->url);
    smfw_results_set_string(&mi->region, f->region);
    smfw_results_set_string(&mi->model, f->model);
    smfw_results_set_string(&mi->endpoint_type, f->endpoint_type);
    mi->streaming = f->streaming;
    smfw_results_set_string(&mi->dataset_name, f->dataset_name);
    smfw_results_set_string(&mi->dataset_file, f->dataset_file);
    smfw_results_set_string(&mi->dataset_sha256, f->dataset_sha256);
    mi->dataset_count = f->dataset_count;
    smfw_results_set_string(&mi->dataset_token_lengths, f->dataset_token_lengths);
    smfw_results_set_string(&mi->token_count_source, f->token_count_source);
    smfw_results_set_string(&mi->smfw_version, f->smfw_version);
    smfw_results_set_string(&mi->aiperf_version, f->aiperf_version);
    smfw_results_set_string(&mi->schema_version, f->schema_version);
    smfw_results_set_string(&mi->job_name, f->job_name);
    mi->max_error_rate = f->max_error_rate;
    for (size_t i = 0; i < n; i++) {
        const smfw_run_info *p = &parts[i]->info;
        if (p->start_wall_ns && (!mi->start_wall_ns || p->start_wall_ns < mi->start_wall_ns))
            mi->start_wall_ns = p->start_wall_ns;
        if (p->end_wall_ns > mi->end_wall_ns) mi->end_wall_ns = p->end_wall_ns;
        if (p->was_cancelled) mi->was_cancelled = 1;
        if (rep.shard_count) {
            mi->concurrency += p->concurrency;
            mi->request_rate += p->request_rate;
            mi->request_count_target += p->request_count_target;
        }
    }
    if (n == 1) smfw_results_set_string(&mi->shard, f->shard);
    if (!rep.shard_count || n == 1) {
        mi->concurrency = f->concurrency;
        mi->request_rate = f->request_rate;
        mi->request_count_target = f->request_count_target;
    }

    st = SMFW_OK;
    if (o.jsonl_path) st = smfw_results_open_jsonl(m, o.jsonl_path, err);
    order = 0;
    for (size_t i = 0; i < n && st == SMFW_OK; i++)
        for (size_t k = 0; k < parts[i]->n_records && st == SMFW_OK; k++, order++) {
            if (drop[order]) continue;
            smfw_record copy;
            if (smfw_record_copy(&copy, &parts[i]->records[k]) != SMFW_OK) {
                st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory copying records");
                break;
            }
            st = smfw_results_add_record(m, &copy, err);
            smfw_record_clear(&copy);
        }
    free(drop);
    if (st == SMFW_OK) st = smfw_results_close_jsonl(m, err);
    if (st == SMFW_OK) st = smfw_results_compute(m, o.slos, o.n_slos, err);
    if (st == SMFW_OK) st = smfw_merge_judge_start(parts, labels, n, m, &o, &rep, err);
    if (st != SMFW_OK) {
        smfw_results_free(m);
        return st;
    }
    m->records_complete = 1;
    rep.n_records = m->n_records;

    /* Say what was merged, in the report and in the run's smfw object. */
    size_t len = (size_t)snprintf(rep.description, sizeof rep.description, "merged %zu part%s", n,
                                  n == 1 ? "" : "s");
    if (rep.shard_count && len < sizeof rep.description)
        len += (size_t)snprintf(rep.description + len, sizeof rep.description - len,
                                " (shards of %u)", rep.shard_count);
    if (len < sizeof rep.description)
        len += (size_t)snprintf(
            rep.description + len, sizeof rep.description - len,
            ": %zu records (%.0f valid, %.0f errors)", rep.n_records,
            m->stats[SMFW_M_REQUEST_COUNT].present ? m->stats[SMFW_M_REQUEST_COUNT].avg : 0.0,
            m->stats[SMFW_M_ERROR_REQUEST_COUNT].present ? m->stats[SMFW_M_ERROR_REQUEST_COUNT].avg
                                                         : 0.0);
    if (rep.duplicates && len < sizeof rep.description)
        len += (size_t)snprintf(rep.description + len, sizeof rep.description - len,
                                "; %zu duplicate record%s (same x_request_id) counted once",
                                rep.duplicates, rep.duplicates == 1 ? "" : "s");
    if (rep.start_known && len < sizeof rep.description) {
        len += (size_t)snprintf(rep.description + len, sizeof rep.description - len,
                                "; start spread %.1f ms", rep.start_spread_ms);
        if (rep.start_barrier && len < sizeof rep.description)
            len += (size_t)snprintf(rep.description + len, sizeof rep.description - len,
                                    " (--start-at; latest %.1f ms late)", rep.start_lateness_ms);
        if (rep.hosts > 1 && len < sizeof rep.description)
            snprintf(rep.description + len, sizeof rep.description - len,
                     ", %zu hosts, clock error up to %.1f ms", rep.hosts, rep.clock_error_ms);
    }
    json_t *mo = json_object(), *from = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "source", json_string(label_of(labels, i, lb, sizeof lb)));
        if (parts[i]->info.run_name)
            json_object_set_new(p, "run_name", json_string(parts[i]->info.run_name));
        if (parts[i]->info.shard)
            json_object_set_new(p, "shard", json_string(parts[i]->info.shard));
        json_object_set_new(p, "records", json_integer((json_int_t)parts[i]->n_records));
        json_array_append_new(from, p);
    }
    json_t *merge = json_object();
    json_object_set_new(merge, "parts", from);
    if (rep.shard_count) json_object_set_new(merge, "shard_count", json_integer(rep.shard_count));
    json_object_set_new(merge, "duplicates_dropped", json_integer((json_int_t)rep.duplicates));
    json_object_set_new(merge, "description", json_string(rep.description));
    if (rep.start_known) json_object_set_new(merge, "start", smfw_merge_start_json(&rep));
    json_object_set_new(mo, "merge", merge);
    free(mi->smfw_json);
    mi->smfw_json = json_dumps(mo, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(mo);
    if (report) *report = rep;
    *out = m;
    return SMFW_OK;
}
