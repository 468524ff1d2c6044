/*
 * fetch.c - the backend's fetch slot (`smfw results --job/--s3`): find the
 * newest benchmark job (not one an AI recommendation job made), describe
 * it, resolve its S3 output (a run folder smfw wrote, a tarball, or the
 * prefix holding one) and download it into a result folder, reused while
 * the object's identity (bucket, key, ETag, region, job ARN) is the same.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/bundle_read.h>
#include <smfw/log.h>
#include <smfw/results_s3.h>
#include <smfw/untrusted.h>

#include "managed.h"

typedef struct made_by_recommendations {
    smfw_aws_client *client;
    json_t *arns; /* the benchmark jobs' ARNs */
} made_by_recommendations;

/* The benchmark jobs each recommendation job of a page made. A job that cannot be described
 * excludes nothing. */
static int recommendation_page(void *user, json_t *page, smfw_error *err) {
    (void)err;
    made_by_recommendations *m = user;
    size_t i;
    json_t *j;
    json_array_foreach(json_object_get(page, "AIRecommendationJobs"), i, j) {
        const char *name = json_string_value(json_object_get(j, "AIRecommendationJobName"));
        if (!name) continue;
        json_t *dreq = json_pack("{s:s}", "AIRecommendationJobName", name);
        json_t *d = NULL;
        smfw_error de;
        if (managed_sagemaker_call(m->client, "DescribeAIRecommendationJob", dreq, &d, &de) ==
            SMFW_OK) {
            size_t k;
            json_t *rec;
            json_array_foreach(json_object_get(d, "Recommendations"), k, rec) {
                json_t *arn = json_object_get(rec, "AIBenchmarkJobArn");
                if (json_is_string(arn)) json_array_append(m->arns, arn);
            }
        }
        json_decref(d);
        json_decref(dreq);
    }
    return 0;
}

/* Benchmark jobs that AI recommendation jobs created (excluded from "newest"). */
static json_t *recommendation_job_arns(smfw_aws_client *c) {
    made_by_recommendations m = {c, json_array()};
    json_t *req = json_pack("{s:i}", "MaxResults", 100);
    smfw_error e;
    if (smfw_aws_json_pages(c, &smfw_aws_sagemaker, "ListAIRecommendationJobs", req,
                            recommendation_page, &m, NULL, &e) != SMFW_OK)
        SMFW_LOG_DEBUG("results", "cannot list all recommendation jobs (%s); the rest not excluded",
                       e.message);
    json_decref(req);
    return m.arns;
}

static int arn_in(json_t *arns, const char *arn) {
    size_t i;
    json_t *a;
    json_array_foreach(arns, i, a) if (arn && strcmp(json_string_value(a), arn) == 0) return 1;
    return 0;
}

typedef struct newest_search {
    json_t *excluded;
    double best_time;
    char *name;
    size_t size;
} newest_search;

static int newest_page(void *user, json_t *page, smfw_error *err) {
    (void)err;
    newest_search *ns = user;
    size_t i;
    json_t *j;
    json_array_foreach(json_object_get(page, "AIBenchmarkJobs"), i, j) {
        const char *n = json_string_value(json_object_get(j, "AIBenchmarkJobName"));
        const char *arn = json_string_value(json_object_get(j, "AIBenchmarkJobArn"));
        double t = json_number_value(json_object_get(j, "CreationTime"));
        if (!n || arn_in(ns->excluded, arn)) continue;
        if (t > ns->best_time) {
            ns->best_time = t;
            snprintf(ns->name, ns->size, "%s", n);
        }
    }
    return 0;
}

static smfw_status newest_job(smfw_aws_client *c, char *name, size_t size, smfw_error *err) {
    newest_search ns = {recommendation_job_arns(c), -1, name, size};
    name[0] = '\0';
    json_t *req = json_pack("{s:i, s:s, s:s}", "MaxResults", 100, "SortBy", "CreationTime",
                            "SortOrder", "Descending");
    smfw_status st = req ? smfw_aws_json_pages(c, &smfw_aws_sagemaker, "ListAIBenchmarkJobs", req,
                                               newest_page, &ns, NULL, err)
                         : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    json_decref(req);
    json_decref(ns.excluded);
    if (st == SMFW_OK && !name[0])
        st = smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                            "no benchmark job found in this account and region (run `smfw "
                            "--backend managed --run` first, or pass --job/--s3/--local)");
    return st;
}

/* The tarball an S3 URI names: the key itself, or the best output.tar.gz under the prefix. */
static smfw_status resolve_bundle(smfw_aws_client *c, const char *uri, const char *job,
                                  char *bucket, size_t bsize, char *key, size_t ksize,
                                  smfw_error *err) {
    smfw_status st = smfw_aws_s3_uri_split(uri, bucket, bsize, key, ksize, err);
    if (st != SMFW_OK) return st;
    size_t kl = strlen(key);
    if (kl > 7 && strcmp(key + kl - 7, ".tar.gz") == 0) return SMFW_OK;
    char pick[1025];
    int count = 0, named = 0;
    st = managed_bundle_pick(c, bucket, key, job, pick, sizeof pick, &count, &named, err);
    if (st != SMFW_OK) return st;
    if (!pick[0])
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                              "no output.tar.gz under s3://%s/%s (nor a run folder smfw wrote: "
                              "profile_export_aiperf.json)",
                              bucket, key);
    if (count > 1 && !named)
        SMFW_LOG_WARN("results",
                      "%d bundles under s3://%s/%s and none names the job; using the newest, %s",
                      count, bucket, key, pick);
    snprintf(key, ksize, "%s", pick);
    return SMFW_OK;
}

static int has_runs(const char *dir) {
    smfw_bundle_run *runs = NULL;
    size_t n = 0;
    smfw_error e;
    int ok = smfw_bundle_find_runs(dir, &runs, &n, &e) == SMFW_OK && n > 0;
    free(runs);
    return ok;
}

/* Print the job's status; its S3 output into uri, or why there is none. */
static smfw_status job_output(smfw_aws_client *c, const char *job, int named, json_t **desc,
                              char *uri, size_t usize, smfw_error *err) {
    /* The name becomes a folder: only SageMaker's own shape is accepted. */
    if (!smfw_aws_entity_name_valid(job)) {
        char shown[300];
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "%s \"%s\" is not a SageMaker AIBenchmarkJobName "
                              "([a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}); refused",
                              named ? "--job" : "the newest job's AIBenchmarkJobName",
                              smfw_term_escape(job, shown, sizeof shown));
    }
    smfw_status st = managed_job_describe(c, job, desc, err);
    if (st != SMFW_OK) return st;
    const char *status = json_string_value(json_object_get(*desc, "AIBenchmarkJobStatus"));
    const char *loc = json_string_value(
        json_object_get(json_object_get(*desc, "OutputConfig"), "S3OutputLocation"));
    char shown[1024];
    fprintf(stdout, "Job %s: %s\n", job,
            status ? smfw_term_escape(status, shown, sizeof shown) : "(unknown status)");
    const char *reason = json_string_value(json_object_get(*desc, "FailureReason"));
    if (reason) {
        fputs("  FailureReason: ", stdout);
        smfw_term_write(stdout, reason, 0);
        fputc('\n', stdout);
    }
    if (status && (strcmp(status, "InProgress") == 0 || strcmp(status, "Stopping") == 0))
        return smfw_error_set(err, SMFW_ERR_AWS,
                              "job %s is still %s; come back with `smfw results --job %s` "
                              "when it has finished",
                              job, status, job);
    if (!loc)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "DescribeAIBenchmarkJob gave no S3OutputLocation for %s", job);
    snprintf(uri, usize, "%s", loc);
    return SMFW_OK;
}

/* The result folder's name: the job's, else the URI's leaf, with the identity's digest. */
static void folder_name(const char *job, const char *uri, const char *digest, char *name,
                        size_t size) {
    if (job[0]) {
        snprintf(name, size, "%s-%.12s", job, digest);
        return;
    }
    char leaf[1200];
    snprintf(leaf, sizeof leaf, "%s", uri);
    for (size_t l = strlen(leaf); l > 5 && leaf[l - 1] == '/'; l--) leaf[l - 1] = '\0';
    const char *b = strrchr(leaf, '/');
    snprintf(name, size, "s3-%s-%.12s", b && b[1] && b > leaf + 4 ? b + 1 : "bundle", digest);
    for (char *p = name; *p; p++)
        if (*p == '.') *p = '-';
    smfw_path_component_sanitize(name);
}

/* Download into a fresh result folder; a failed or interrupted fetch leaves nothing. */
static smfw_status download(const smfw_fetch_request *req, smfw_aws_client *c, int run_folder,
                            const char *uri, const char *bucket, const char *key, const char *name,
                            const char *identity, char **local, smfw_error *err) {
    const smfw_settings *prog = smfw_config_section(req->config, "smfw");
    const char *exact = smfw_settings_get(prog, "output");
    const char *base = smfw_settings_get(prog, "results_dir");
    struct stat pre;
    int existed = exact && *exact && lstat(exact, &pre) == 0;
    const char *parent = base && *base ? base : "./smfw-results";
    int parent_existed = lstat(parent, &pre) == 0;
    smfw_status st = req->make_dir(req->config, name, local, err);
    if (st != SMFW_OK) return st;
    /* Ctrl-C abandons the download (and deletes its partial) instead of killing
     * smfw with the folder and the partial file left behind. */
    volatile sig_atomic_t *cancel = req->install_cancel();
    smfw_aws_set_download_cancel(cancel);
    char bundle_dir[4300];
    st = run_folder
             ? smfw_results_s3_fetch_run(req->config, uri, *local, NULL, 0, err)
             : managed_bundle_download(c, bucket, key, *local, bundle_dir, sizeof bundle_dir, err);
    smfw_aws_set_download_cancel(NULL);
    signal(SIGINT, SIG_DFL); /* the rest is local and quick: Ctrl-C ends it */
    signal(SIGTERM, SIG_DFL);
    if (st == SMFW_OK && *cancel)
        st = smfw_error_set(err, SMFW_ERR_CANCELLED, "interrupted while fetching %s", uri);
    if (st == SMFW_OK) st = smfw_bundle_source_write(*local, identity, err);
    if (st != SMFW_OK) {
        smfw_error ignored;
        smfw_remove_tree(*local, &ignored);
        if (existed) mkdir(*local, 0755);
        if (!parent_existed) rmdir(parent); /* only when empty */
        free(*local);
        *local = NULL;
    }
    return st;
}

/* Resolve the S3 output into bucket/key, then reuse the folder fetched before or download. */
static smfw_status fetch_uri(const smfw_fetch_request *req, smfw_aws_client *c, const char *uri,
                             int from_s3, const char *job, json_t *desc, char **local,
                             smfw_error *err) {
    char bucket[256] = "", key[1025] = "";
    /* A run folder smfw wrote (`run -o s3://...`, `merge -o s3://...`) before a tarball. */
    char run_etags[300] = "";
    int run_folder = 0;
    smfw_status st = SMFW_OK;
    size_t ul = strlen(uri);
    if (from_s3 && !(ul > 7 && strcmp(uri + ul - 7, ".tar.gz") == 0)) {
        smfw_status rs =
            smfw_results_s3_fetch_run(req->config, uri, NULL, run_etags, sizeof run_etags, err);
        if (rs == SMFW_OK) {
            run_folder = 1;
            st = smfw_aws_s3_uri_split(uri, bucket, sizeof bucket, key, sizeof key, err);
            /* s3://b/p and s3://b/p/ are one folder, one cache entry */
            for (size_t l = strlen(key); l && key[l - 1] == '/'; l--) key[l - 1] = '\0';
        } else if (rs != SMFW_ERR_NOT_FOUND)
            st = rs;
    }
    if (st == SMFW_OK && !run_folder)
        st = resolve_bundle(c, uri, job, bucket, sizeof bucket, key, sizeof key, err);
    if (st != SMFW_OK) return st;
    /* The cache key is the object's full identity: a different bundle of the same name
     * (another upload, account or region) is downloaded, never shown in its place. */
    smfw_aws_s3_object head;
    memset(&head, 0, sizeof head);
    smfw_error herr;
    int have_etag = run_folder ? run_etags[0] && run_etags[0] != ' '
                               : smfw_aws_s3_head_object(c, bucket, key, &head, &herr) == SMFW_OK &&
                                     head.etag[0];
    if (run_folder) snprintf(head.etag, sizeof head.etag, "%.129s", run_etags);
    const char *region = "";
    smfw_error rerr;
    if (smfw_aws_client_region(c, &region, &rerr) != SMFW_OK) region = "";
    const char *arn = desc ? json_string_value(json_object_get(desc, "AIBenchmarkJobArn")) : NULL;
    char identity[2600];
    snprintf(identity, sizeof identity, "s3://%s/%s etag=%s region=%s job=%s arn=%s", bucket, key,
             head.etag, region, job, arn ? arn : "");
    char digest[13];
    smfw_bundle_source_digest(identity, digest);
    char name[300];
    folder_name(job, uri, digest, name, sizeof name);
    /* A bundle fetched before is reused only when it is the same object. */
    const smfw_settings *prog = smfw_config_section(req->config, "smfw");
    const char *exact = smfw_settings_get(prog, "output");
    const char *base = smfw_settings_get(prog, "results_dir");
    char prev[4200];
    snprintf(prev, sizeof prev, "%s/%s", exact && *exact ? exact : (base ? base : "./smfw-results"),
             exact && *exact ? "." : name);
    char prev_bundle[4300];
    snprintf(prev_bundle, sizeof prev_bundle, "%s/bundle", prev);
    if (have_etag && smfw_bundle_source_matches(prev, identity) &&
        has_runs(run_folder ? prev : prev_bundle)) {
        *local = strdup(prev);
        SMFW_LOG_INFO("results", "using the bundle downloaded before in %s (same object, ETag %s)",
                      prev, head.etag);
        return *local ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    return download(req, c, run_folder, uri, bucket, key, name, identity, local, err);
}

/* No bundle: say where the job's logs are. */
static void print_log_locations(json_t *desc) {
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(json_object_get(desc, "OutputConfig"), "CloudWatchLogs"), i,
                       l) {
        const char *g = json_string_value(json_object_get(l, "LogGroupArn"));
        const char *s = json_string_value(json_object_get(l, "LogStreamName"));
        char gs[600], ss[600];
        fprintf(stdout, "  CloudWatch logs: %s%s%s\n",
                g ? smfw_term_escape(g, gs, sizeof gs) : "(group unknown)", s ? " stream " : "",
                s ? smfw_term_escape(s, ss, sizeof ss) : "");
    }
}

smfw_status managed_fetch(const smfw_fetch_request *req, char **local, char *run_name,
                          size_t run_name_size, smfw_error *err) {
    *local = NULL;
    if (run_name_size) run_name[0] = '\0';
    /* Every reference is this backend's: job names, S3 locations and "newest". */
    smfw_aws_options o;
    smfw_aws_options_from_config(req->config, &o);
    smfw_aws_client *c = NULL;
    smfw_status st = smfw_aws_client_new(&o, &c, err);
    if (st != SMFW_OK) return st;
    char job[256] = "";
    char uri[1200] = "";
    json_t *desc = NULL;
    if (req->uri)
        snprintf(uri, sizeof uri, "%s", req->uri);
    else {
        if (req->job)
            snprintf(job, sizeof job, "%s", req->job);
        else
            st = newest_job(c, job, sizeof job, err);
        if (st == SMFW_OK) st = job_output(c, job, req->job != NULL, &desc, uri, sizeof uri, err);
        if (st != SMFW_OK && !smfw_aws_entity_name_valid(job)) job[0] = '\0';
    }
    if (st == SMFW_OK) st = fetch_uri(req, c, uri, req->uri != NULL, job, desc, local, err);
    if (st != SMFW_OK && desc) print_log_locations(desc);
    snprintf(run_name, run_name_size, "%s", job);
    json_decref(desc);
    smfw_aws_client_free(c);
    return st;
}
