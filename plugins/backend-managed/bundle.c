/*
 * bundle.c - the job's AIPerf bundle: find output.tar.gz under the job's own
 * output prefix (preferring the key that names the job), download it,
 * extract it with the safe extractor, load the run(s) into the results
 * model, and apply the validity gate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/archive.h>
#include <smfw/log.h>

#include "managed.h"

smfw_status managed_s3_split(const char *uri, char *bucket, size_t bsize, char *key, size_t ksize,
                             smfw_error *err) {
    if (strncmp(uri, "s3://", 5) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "\"%s\" is not an s3:// URI", uri);
    const char *b = uri + 5;
    const char *slash = strchr(b, '/');
    size_t blen = slash ? (size_t)(slash - b) : strlen(b);
    if (!blen || blen >= bsize)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "\"%s\" names no bucket", uri);
    memcpy(bucket, b, blen);
    bucket[blen] = '\0';
    snprintf(key, ksize, "%s", slash ? slash + 1 : "");
    return SMFW_OK;
}

typedef struct pick {
    const char *job;
    char key[1025];
    char modified[40];
    int named;
    int count;
} pick;

static int pick_cb(const smfw_aws_s3_object *o, void *user) {
    pick *p = user;
    const char *base = strrchr(o->key, '/');
    base = base ? base + 1 : o->key;
    if (strcmp(base, "output.tar.gz") != 0) return 0;
    p->count++;
    int named = p->job && strstr(o->key, p->job) != NULL;
    if (!p->key[0] || (named && !p->named) ||
        (named == p->named && strcmp(o->last_modified, p->modified) > 0)) {
        snprintf(p->key, sizeof p->key, "%s", o->key);
        snprintf(p->modified, sizeof p->modified, "%s", o->last_modified);
        p->named = named;
    }
    return 0;
}

smfw_status managed_bundle_fetch(smfw_aws_client *c, const char *output_uri, const char *job,
                                 const char *dir, char *bundle_dir, size_t size, smfw_error *err) {
    char bucket[256], prefix[1025];
    smfw_status st =
        managed_s3_split(output_uri, bucket, sizeof bucket, prefix, sizeof prefix, err);
    if (st != SMFW_OK) return st;
    pick p;
    memset(&p, 0, sizeof p);
    p.job = job;
    st = smfw_aws_s3_list_objects(c, bucket, prefix, pick_cb, &p, err);
    if (st != SMFW_OK) return smfw_error_prefix(err, "cannot list %s", output_uri);
    if (!p.key[0])
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND, "no output.tar.gz under %s", output_uri);
    if (p.count > 1 && !p.named)
        SMFW_LOG_WARN("managed", "%d bundles under %s and none names job %s; using the newest (%s)",
                      p.count, output_uri, job, p.key);
    char tarball[4200];
    snprintf(tarball, sizeof tarball, "%s/output.tar.gz", dir);
    snprintf(bundle_dir, size, "%s/bundle", dir);
    SMFW_LOG_INFO("managed", "downloading s3://%s/%s", bucket, p.key);
    st = smfw_aws_s3_get_object_file(c, bucket, p.key, tarball, err);
    if (st != SMFW_OK) return st;
    smfw_archive_stats as;
    st = smfw_archive_extract_file(tarball, bundle_dir, NULL, &as, err);
    if (st == SMFW_OK)
        SMFW_LOG_INFO("managed", "extracted %llu files (%llu bytes) into %s",
                      (unsigned long long)as.files, (unsigned long long)as.bytes, bundle_dir);
    return st;
}

/* Good fraction of a level: good_request_count / request_count (AIPerf goodput). */
static double good_fraction(const smfw_results *r) {
    const smfw_stats *good = &r->stats[SMFW_M_GOOD_REQUEST_COUNT];
    const smfw_stats *all = &r->stats[SMFW_M_REQUEST_COUNT];
    if (!good->present || !all->present || all->avg <= 0) return -1;
    return good->avg / all->avg;
}

smfw_status managed_bundle_load(const char *bundle_dir, const smfw_config *cfg,
                                smfw_results *results, smfw_error *err) {
    smfw_bundle_run *runs = NULL;
    size_t n = 0;
    smfw_status st = smfw_bundle_find_runs(bundle_dir, &runs, &n, err);
    if (st != SMFW_OK) return st;
    const smfw_settings *mine = smfw_config_section(cfg, "backend.managed");
    const char *const *sla;
    size_t n_sla = mine ? smfw_settings_get_list(mine, "sla", &sla) : 0;
    double attainment = mine ? smfw_settings_get_double(mine, "sla_attainment", 0.9) : 0.9;
    size_t chosen = 0;
    if (n > 1) {
        /* A concurrency list: one line per level; with SLOs, the highest level meeting them. */
        int found = 0;
        for (size_t i = 0; i < n; i++) {
            smfw_results *lvl = smfw_results_new();
            smfw_error e;
            if (!lvl) break;
            if (smfw_results_load_dir(lvl, runs[i].dir, &e) != SMFW_OK) {
                SMFW_LOG_WARN("managed", "%s", e.message);
                smfw_results_free(lvl);
                continue;
            }
            double good = good_fraction(lvl);
            SMFW_LOG_INFO(
                "managed", "concurrency %lld: %.2f output tokens/s, TTFT p90 %.2f ms%s%s",
                (long long)runs[i].concurrency, lvl->stats[SMFW_M_OUTPUT_TOKEN_THROUGHPUT].avg,
                lvl->stats[SMFW_M_TIME_TO_FIRST_TOKEN].p[6], good >= 0 ? ", within SLO " : "",
                good >= 0 ? (good >= attainment ? "yes" : "no") : "");
            if (n_sla && good >= attainment) {
                chosen = i;
                found = 1;
            }
            smfw_results_free(lvl);
        }
        if (n_sla && found)
            SMFW_LOG_INFO("managed",
                          "highest concurrency meeting the SLA (%.0f%% of requests within the "
                          "SLOs): %lld",
                          attainment * 100, (long long)runs[chosen].concurrency);
        else if (n_sla)
            SMFW_LOG_WARN("managed",
                          "no concurrency level met the SLA (%.0f%% of requests within "
                          "the SLOs); reporting the lowest",
                          attainment * 100);
        SMFW_LOG_INFO("managed",
                      "the report covers concurrency %lld; every level: smfw results --local %s",
                      (long long)runs[chosen].concurrency, bundle_dir);
    }
    st = smfw_results_load_dir(results, runs[chosen].dir, err);
    if (st == SMFW_OK && runs[chosen].concurrency)
        results->info.concurrency = runs[chosen].concurrency;
    free(runs);
    if (st != SMFW_OK) return st;
    double rate = smfw_results_error_rate(results);
    if (!results->info.gate_tripped && rate > results->info.max_error_rate) {
        char reason[256];
        snprintf(reason, sizeof reason, "error rate %.2f%% is above the gate of %.2f%%", rate * 100,
                 results->info.max_error_rate * 100);
        results->info.gate_tripped = 1;
        smfw_results_set_string(&results->info.failure_reason, reason);
    }
    return SMFW_OK;
}
