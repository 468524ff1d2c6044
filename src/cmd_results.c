/*
 * cmd_results.c - `smfw results`: present a finished run, managed or direct.
 *
 * Sources: --local DIR (an extracted AIPerf bundle, a direct run's output
 * folder or a concurrency-list bundle), --s3 URI (a bundle tarball or the
 * prefix holding one), --job NAME, or by default the newest benchmark job
 * of the account and region. Downloads and extracts (safely) when needed,
 * prints the bundle's file tree with a note for each known file, then the
 * summary (smfw_run_summary_print) and validity verdict of each run; --report runs the
 * reporters on it. Exit 3 when a run failed its validity gate.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <smfw/archive.h>
#include <smfw/aws.h>
#include <smfw/bundle_read.h>
#include <smfw/log.h>
#include <smfw/results_s3.h>
#include <smfw/untrusted.h>

#include "commands.h"

extern const smfw_command smfw_command_results;

typedef struct results_opts {
    const char *job;
    const char *s3;
    const char *local;
    const char *model_package;
    int report;
    char *report_list; /* --report=LIST */
} results_opts;

static int results_on_option(void *user, const char *name, const char *value) {
    results_opts *o = user;
    if (strcmp(name, "job") == 0)
        o->job = value;
    else if (strcmp(name, "s3") == 0)
        o->s3 = value;
    else if (strcmp(name, "local") == 0)
        o->local = value;
    else if (strcmp(name, "model-package") == 0)
        o->model_package = value;
    else if (strcmp(name, "report") == 0) {
        o->report = 1;
        if (value && *value) {
            free(o->report_list);
            o->report_list = strdup(value);
        }
    }
    return 0;
}

/* ---- the file tree -------------------------------------------------------- */

static const struct {
    const char *name;
    const char *note;
} known_files[] = {
    {"profile_export_aiperf.json", "aggregated metrics: the numbers below come from here"},
    {"profile_export_aiperf.csv", "the same aggregates as CSV (spreadsheet-friendly)"},
    {"profile_export.jsonl", "per-request records"},
    {"profile_export_raw.jsonl", "raw requests and responses"},
    {"profile_export_aiperf_timeslices.json", "the aggregates per time window"},
    {"profile_export_aiperf_timeslices.csv", "the aggregates per time window (CSV)"},
    {"inputs.json", "the prompts AIPerf sent"},
    {"outputs.json", "what the model answered"},
    {"benchmark_summary.txt", "completion summary"},
    {"failure_reason.txt", "why the validity gate tripped"},
    {"plot_generation.log", "plot generation log"},
    {"ttft_timeline.png", "TTFT of each request over the run"},
    {"ttft_over_time.png", "TTFT aggregated over the run"},
    {"summary.txt", "list of generated plots"},
    {"aiperf.log", "full AIPerf log"},
    {"gpu_telemetry_export.jsonl", "GPU telemetry samples"},
    {"server_metrics_export.json", "server-side metrics"},
    {"server_metrics_export.csv", "server-side metrics (CSV)"},
    {"smfw_run.json", "smfw run metadata"},
    {"output.tar.gz", "the bundle as downloaded from S3"},
    {"source.json", "which S3 object this is (bucket, key, ETag, job ARN): the cache key"},
    {"plots", "PNG plots"},
    {"logs", "AIPerf logs"},
    {"bundle", "the extracted bundle"},
};

static const char *note_for(const char *name) {
    for (size_t i = 0; i < sizeof known_files / sizeof known_files[0]; i++)
        if (strcmp(known_files[i].name, name) == 0) return known_files[i].note;
    if (strncmp(name, "concurrency_", 12) == 0) return "one level of a concurrency list";
    return NULL;
}

static void human_size(long long n, char *buf, size_t size) {
    if (n < 1024)
        snprintf(buf, size, "%lld B", n);
    else if (n < 1024 * 1024)
        snprintf(buf, size, "%.1f KiB", n / 1024.0);
    else if (n < 1024LL * 1024 * 1024)
        snprintf(buf, size, "%.1f MiB", n / (1024.0 * 1024));
    else
        snprintf(buf, size, "%.1f GiB", n / (1024.0 * 1024 * 1024));
}

static int str_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_tree(const char *dir, int depth, int *budget) {
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **nv = realloc(names, cap * sizeof *nv);
            if (!nv) break;
            names = nv;
        }
        names[n] = strdup(de->d_name);
        if (names[n]) n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, str_cmp);
    for (size_t i = 0; i < n; i++) {
        char path[4096], shown[512], label[600], size[32] = "";
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (lstat(path, &st) != 0) continue;
        if ((*budget)-- <= 0) {
            if (*budget == -1) fprintf(stdout, "%*s...\n", 2 + depth * 2, "");
            continue;
        }
        smfw_term_escape(names[i], shown, sizeof shown); /* bundle names are untrusted */
        const char *note = note_for(names[i]);
        if (S_ISDIR(st.st_mode))
            snprintf(label, sizeof label, "%s/", shown);
        else if (S_ISLNK(st.st_mode))
            snprintf(label, sizeof label, "%s@", shown);
        else {
            snprintf(label, sizeof label, "%s", shown);
            human_size((long long)st.st_size, size, sizeof size);
        }
        fprintf(stdout, "%*s%-*s %10s%s%s\n", 2 + depth * 2, "", 44 - depth * 2, label, size,
                note ? "  " : "", note ? note : "");
        if (S_ISDIR(st.st_mode) && depth < 6) print_tree(path, depth + 1, budget);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}

/* ---- AWS: find, describe and download a job's bundle ---------------------- */

static smfw_status client_from_config(const smfw_config *cfg, smfw_aws_client **out,
                                      smfw_error *err) {
    smfw_aws_options o;
    smfw_aws_options_from_config(cfg, &o);
    return smfw_aws_client_new(&o, out, err);
}

/* Benchmark jobs that AI recommendation jobs created (excluded from "newest"). */
static json_t *recommendation_job_arns(smfw_aws_client *c) {
    json_t *arns = json_array();
    char *token = NULL;
    smfw_pager pager;
    smfw_pager_init(&pager);
    for (;;) {
        json_t *req = json_object();
        json_object_set_new(req, "MaxResults", json_integer(100));
        if (token) json_object_set_new(req, "NextToken", json_string(token));
        char *body = json_dumps(req, JSON_COMPACT);
        json_decref(req);
        char *resp = NULL;
        smfw_error e;
        smfw_status st =
            smfw_aws_json_call(c, &smfw_aws_sagemaker, "ListAIRecommendationJobs", body, &resp, &e);
        free(body);
        free(token);
        token = NULL;
        if (st != SMFW_OK) {
            SMFW_LOG_DEBUG("results", "cannot list recommendation jobs (%s); none excluded",
                           e.message);
            break;
        }
        size_t resp_len = strlen(resp);
        json_t *root = json_loads(resp, 0, NULL);
        free(resp);
        json_t *jobs = json_object_get(root, "AIRecommendationJobs");
        size_t i;
        json_t *j;
        json_array_foreach(jobs, i, j) {
            const char *name = json_string_value(json_object_get(j, "AIRecommendationJobName"));
            if (!name) continue;
            json_t *dreq = json_pack("{s:s}", "AIRecommendationJobName", name);
            char *dbody = json_dumps(dreq, JSON_COMPACT);
            json_decref(dreq);
            char *dresp = NULL;
            if (smfw_aws_json_call(c, &smfw_aws_sagemaker, "DescribeAIRecommendationJob", dbody,
                                   &dresp, &e) == SMFW_OK) {
                json_t *d = json_loads(dresp, 0, NULL);
                size_t k;
                json_t *rec;
                json_array_foreach(json_object_get(d, "Recommendations"), k, rec) {
                    json_t *arn = json_object_get(rec, "AIBenchmarkJobArn");
                    if (json_is_string(arn)) json_array_append(arns, arn);
                }
                json_decref(d);
            }
            free(dbody);
            free(dresp);
        }
        const char *next = json_string_value(json_object_get(root, "NextToken"));
        int verdict = smfw_pager_page(&pager, resp_len, next);
        if (verdict == SMFW_PAGER_MORE) token = strdup(next);
        if (verdict < 0)
            SMFW_LOG_WARN("results", "ListAIRecommendationJobs stopped after %lld pages: %s",
                          (long long)pager.pages, smfw_pager_why(verdict));
        json_decref(root);
        if (!token) break;
    }
    free(token);
    smfw_pager_free(&pager);
    return arns;
}

static int arn_in(json_t *arns, const char *arn) {
    size_t i;
    json_t *a;
    json_array_foreach(arns, i, a) if (arn && strcmp(json_string_value(a), arn) == 0) return 1;
    return 0;
}

static smfw_status newest_job(smfw_aws_client *c, char *name, size_t size, smfw_error *err) {
    json_t *excluded = recommendation_job_arns(c);
    char *token = NULL;
    double best_time = -1;
    name[0] = '\0';
    smfw_status st = SMFW_OK;
    smfw_pager pager;
    smfw_pager_init(&pager);
    for (;;) {
        json_t *req = json_object();
        json_object_set_new(req, "MaxResults", json_integer(100));
        json_object_set_new(req, "SortBy", json_string("CreationTime"));
        json_object_set_new(req, "SortOrder", json_string("Descending"));
        if (token) json_object_set_new(req, "NextToken", json_string(token));
        char *body = json_dumps(req, JSON_COMPACT);
        json_decref(req);
        char *resp = NULL;
        st = smfw_aws_json_call(c, &smfw_aws_sagemaker, "ListAIBenchmarkJobs", body, &resp, err);
        free(body);
        free(token);
        token = NULL;
        if (st != SMFW_OK) break;
        json_error_t je;
        size_t resp_len = strlen(resp);
        json_t *root = json_loads(resp, 0, &je);
        free(resp);
        if (!json_is_object(root)) {
            json_decref(root);
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "ListAIBenchmarkJobs answered with invalid JSON: %s", je.text);
            break;
        }
        size_t i;
        json_t *j;
        json_array_foreach(json_object_get(root, "AIBenchmarkJobs"), i, j) {
            const char *n = json_string_value(json_object_get(j, "AIBenchmarkJobName"));
            const char *arn = json_string_value(json_object_get(j, "AIBenchmarkJobArn"));
            double t = json_number_value(json_object_get(j, "CreationTime"));
            if (!n || arn_in(excluded, arn)) continue;
            if (t > best_time) {
                best_time = t;
                snprintf(name, size, "%s", n);
            }
        }
        const char *next = json_string_value(json_object_get(root, "NextToken"));
        int verdict = smfw_pager_page(&pager, resp_len, next);
        if (verdict == SMFW_PAGER_MORE) token = strdup(next);
        json_decref(root);
        if (verdict < 0)
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "ListAIBenchmarkJobs stopped after %lld pages: %s",
                                (long long)pager.pages, smfw_pager_why(verdict));
        if (!token) break;
    }
    free(token);
    smfw_pager_free(&pager);
    json_decref(excluded);
    if (st == SMFW_OK && !name[0])
        st = smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                            "no benchmark job found in this account and region (run `smfw "
                            "--backend managed --run` first, or pass --job/--s3/--local)");
    return st;
}

static smfw_status describe_job(smfw_aws_client *c, const char *job, json_t **out,
                                smfw_error *err) {
    json_t *req = json_pack("{s:s}", "AIBenchmarkJobName", job);
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    char *resp = NULL;
    smfw_status st =
        smfw_aws_json_call(c, &smfw_aws_sagemaker, "DescribeAIBenchmarkJob", body, &resp, err);
    free(body);
    if (st != SMFW_OK) return st;
    json_error_t je;
    *out = json_loads(resp, 0, &je);
    free(resp);
    if (!json_is_object(*out)) {
        json_decref(*out);
        *out = NULL;
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "DescribeAIBenchmarkJob answered with invalid JSON: %s", je.text);
    }
    return SMFW_OK;
}

typedef struct tarball_pick {
    const char *job;
    char key[1025];
    char last_modified[40];
    int matches_job;
    int count;
} tarball_pick;

static int pick_tarball(const smfw_aws_s3_object *o, void *user) {
    tarball_pick *p = user;
    const char *base = strrchr(o->key, '/');
    base = base ? base + 1 : o->key;
    if (strcmp(base, "output.tar.gz") != 0) return 0;
    p->count++;
    int match = p->job && *p->job && strstr(o->key, p->job) != NULL;
    /* Prefer the key naming the job; among equals, the newest. */
    if (!p->key[0] || (match && !p->matches_job) ||
        (match == p->matches_job && strcmp(o->last_modified, p->last_modified) > 0)) {
        snprintf(p->key, sizeof p->key, "%s", o->key);
        snprintf(p->last_modified, sizeof p->last_modified, "%s", o->last_modified);
        p->matches_job = match;
    }
    return 0;
}

/* The tarball an S3 URI names: the key itself, or the best output.tar.gz under the prefix. */
static smfw_status resolve_bundle(smfw_aws_client *c, const char *uri, const char *job,
                                  char *bucket, size_t bsize, char *key, size_t ksize,
                                  smfw_error *err) {
    smfw_status st = smfw_aws_s3_uri_split(uri, bucket, bsize, key, ksize, err);
    if (st != SMFW_OK) return st;
    size_t kl = strlen(key);
    if (kl > 7 && strcmp(key + kl - 7, ".tar.gz") == 0) return SMFW_OK;
    tarball_pick p;
    memset(&p, 0, sizeof p);
    p.job = job;
    st = smfw_aws_s3_list_objects(c, bucket, key, pick_tarball, &p, err);
    if (st != SMFW_OK) return st;
    if (!p.key[0])
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                              "no output.tar.gz under s3://%s/%s (nor a run folder smfw wrote: "
                              "profile_export_aiperf.json)",
                              bucket, key);
    if (p.count > 1 && !p.matches_job)
        SMFW_LOG_WARN("results",
                      "%d bundles under s3://%s/%s and none names the job; using the newest, %s",
                      p.count, bucket, key, p.key);
    snprintf(key, ksize, "%s", p.key);
    return SMFW_OK;
}

/* Download s3://bucket/key into dir/output.tar.gz and extract it into dir/bundle. */
static smfw_status fetch_bundle(smfw_aws_client *c, const char *bucket, const char *key,
                                const char *dir, smfw_error *err) {
    char tarball[4200], extract[4200];
    snprintf(tarball, sizeof tarball, "%s/output.tar.gz", dir);
    snprintf(extract, sizeof extract, "%s/bundle", dir);
    SMFW_LOG_INFO("results", "downloading s3://%s/%s", bucket, key);
    smfw_status st = smfw_aws_s3_get_object_file(c, bucket, key, tarball, err);
    if (st != SMFW_OK) return st;
    smfw_archive_stats as;
    st = smfw_archive_extract_file(tarball, extract, NULL, &as, err);
    if (st == SMFW_OK)
        SMFW_LOG_INFO("results", "extracted %llu files (%llu bytes) into %s",
                      (unsigned long long)as.files, (unsigned long long)as.bytes, extract);
    return st;
}

static int has_runs(const char *dir) {
    smfw_bundle_run *runs = NULL;
    size_t n = 0;
    smfw_error e;
    int ok = smfw_bundle_find_runs(dir, &runs, &n, &e) == SMFW_OK && n > 0;
    free(runs);
    return ok;
}

/* Resolve --job / --s3 / newest into a local folder holding the bundle. */
static smfw_status fetch_remote(const smfw_config *cfg, const results_opts *o, char **local,
                                char *job_out, size_t job_size, smfw_error *err) {
    smfw_aws_client *c = NULL;
    smfw_status st = client_from_config(cfg, &c, err);
    if (st != SMFW_OK) return st;
    char job[256] = "";
    char uri[1200] = "";
    json_t *desc = NULL;
    if (o->s3)
        snprintf(uri, sizeof uri, "%s", o->s3);
    else {
        if (o->job)
            snprintf(job, sizeof job, "%s", o->job);
        else
            st = newest_job(c, job, sizeof job, err);
        /* The name becomes a folder: only SageMaker's own shape is accepted. */
        if (st == SMFW_OK && !smfw_aws_entity_name_valid(job)) {
            char shown[300];
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "%s \"%s\" is not a SageMaker AIBenchmarkJobName "
                                "([a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}); refused",
                                o->job ? "--job" : "the newest job's AIBenchmarkJobName",
                                smfw_term_escape(job, shown, sizeof shown));
            job[0] = '\0';
        }
        if (st == SMFW_OK) st = describe_job(c, job, &desc, err);
        if (st == SMFW_OK) {
            const char *status = json_string_value(json_object_get(desc, "AIBenchmarkJobStatus"));
            const char *loc = json_string_value(
                json_object_get(json_object_get(desc, "OutputConfig"), "S3OutputLocation"));
            char shown[1024];
            fprintf(stdout, "Job %s: %s\n", job,
                    status ? smfw_term_escape(status, shown, sizeof shown) : "(unknown status)");
            const char *reason = json_string_value(json_object_get(desc, "FailureReason"));
            if (reason) {
                fputs("  FailureReason: ", stdout);
                smfw_term_write(stdout, reason, 0);
                fputc('\n', stdout);
            }
            if (status && (strcmp(status, "InProgress") == 0 || strcmp(status, "Stopping") == 0))
                st = smfw_error_set(err, SMFW_ERR_AWS,
                                    "job %s is still %s; come back with `smfw results --job %s` "
                                    "when it has finished",
                                    job, status, job);
            else if (!loc)
                st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                    "DescribeAIBenchmarkJob gave no S3OutputLocation for %s", job);
            else
                snprintf(uri, sizeof uri, "%s", loc);
        }
    }
    char bucket[256] = "", key[1025] = "";
    /* A run folder smfw wrote (`run -o s3://...`, `merge -o s3://...`) before a tarball. */
    char run_etags[300] = "";
    int run_folder = 0;
    size_t ul = strlen(uri);
    if (st == SMFW_OK && o->s3 && !(ul > 7 && strcmp(uri + ul - 7, ".tar.gz") == 0)) {
        smfw_status rs =
            smfw_results_s3_fetch_run(cfg, uri, NULL, run_etags, sizeof run_etags, err);
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
    if (st == SMFW_OK) {
        /* The cache key is the object's full identity: a different bundle of the same name
         * (another upload, account or region) is downloaded, never shown in its place. */
        smfw_aws_s3_object head;
        memset(&head, 0, sizeof head);
        smfw_error herr;
        int have_etag =
            run_folder
                ? run_etags[0] && run_etags[0] != ' '
                : smfw_aws_s3_head_object(c, bucket, key, &head, &herr) == SMFW_OK && head.etag[0];
        if (run_folder) snprintf(head.etag, sizeof head.etag, "%.129s", run_etags);
        const char *region = "";
        smfw_error rerr;
        if (smfw_aws_client_region(c, &region, &rerr) != SMFW_OK) region = "";
        const char *arn =
            desc ? json_string_value(json_object_get(desc, "AIBenchmarkJobArn")) : NULL;
        char identity[2600];
        snprintf(identity, sizeof identity, "s3://%s/%s etag=%s region=%s job=%s arn=%s", bucket,
                 key, head.etag, region, job, arn ? arn : "");
        char digest[13];
        smfw_bundle_source_digest(identity, digest);
        const smfw_settings *prog = smfw_config_section(cfg, "smfw");
        const char *exact = smfw_settings_get(prog, "output");
        const char *base = smfw_settings_get(prog, "results_dir");
        char name[300];
        if (job[0])
            snprintf(name, sizeof name, "%s-%.12s", job, digest);
        else {
            char leaf[1200];
            snprintf(leaf, sizeof leaf, "%s", uri);
            for (size_t l = strlen(leaf); l > 5 && leaf[l - 1] == '/'; l--) leaf[l - 1] = '\0';
            const char *b = strrchr(leaf, '/');
            snprintf(name, sizeof name, "s3-%s-%.12s", b && b[1] && b > leaf + 4 ? b + 1 : "bundle",
                     digest);
            for (char *p = name; *p; p++)
                if (*p == '.') *p = '-';
            smfw_path_component_sanitize(name);
        }
        /* A bundle fetched before is reused only when it is the same object. */
        char prev[4200];
        snprintf(prev, sizeof prev, "%s/%s",
                 exact && *exact ? exact : (base ? base : "./smfw-results"),
                 exact && *exact ? "." : name);
        char prev_bundle[4300];
        snprintf(prev_bundle, sizeof prev_bundle, "%s/bundle", prev);
        if (have_etag && smfw_bundle_source_matches(prev, identity) &&
            has_runs(run_folder ? prev : prev_bundle)) {
            *local = strdup(prev);
            SMFW_LOG_INFO("results",
                          "using the bundle downloaded before in %s (same object, ETag %s)", prev,
                          head.etag);
        } else {
            struct stat pre;
            int existed = exact && *exact && lstat(exact, &pre) == 0;
            const char *parent = base && *base ? base : "./smfw-results";
            int parent_existed = lstat(parent, &pre) == 0;
            st = smfw_output_dir_create(base, name, exact, local, err);
            if (st == SMFW_OK) {
                /* Ctrl-C abandons the download (and deletes its partial) instead of killing
                 * smfw with the folder and the partial file left behind. */
                volatile sig_atomic_t *cancel = smfw_cli_install_cancel_handler();
                smfw_aws_set_download_cancel(cancel);
                st = run_folder ? smfw_results_s3_fetch_run(cfg, uri, *local, NULL, 0, err)
                                : fetch_bundle(c, bucket, key, *local, err);
                smfw_aws_set_download_cancel(NULL);
                signal(SIGINT, SIG_DFL); /* the rest is local and quick: Ctrl-C ends it */
                signal(SIGTERM, SIG_DFL);
                if (st == SMFW_OK && *cancel)
                    st = smfw_error_set(err, SMFW_ERR_CANCELLED, "interrupted while fetching %s",
                                        uri);
                if (st == SMFW_OK) st = smfw_bundle_source_write(*local, identity, err);
                if (st != SMFW_OK) {
                    /* A failed fetch leaves nothing: no folder, no partial tarball. */
                    smfw_error ignored;
                    smfw_remove_tree(*local, &ignored);
                    if (existed) mkdir(*local, 0755);
                    if (!parent_existed) rmdir(parent); /* only when empty */
                    free(*local);
                    *local = NULL;
                }
            }
        }
    }
    if (st != SMFW_OK && desc) {
        /* No bundle: say where the job's logs are. */
        size_t i;
        json_t *l;
        json_array_foreach(json_object_get(json_object_get(desc, "OutputConfig"), "CloudWatchLogs"),
                           i, l) {
            const char *g = json_string_value(json_object_get(l, "LogGroupArn"));
            const char *s = json_string_value(json_object_get(l, "LogStreamName"));
            char gs[600], ss[600];
            fprintf(stdout, "  CloudWatch logs: %s%s%s\n",
                    g ? smfw_term_escape(g, gs, sizeof gs) : "(group unknown)", s ? " stream " : "",
                    s ? smfw_term_escape(s, ss, sizeof ss) : "");
        }
    }
    snprintf(job_out, job_size, "%s", job);
    json_decref(desc);
    smfw_aws_client_free(c);
    return st;
}

/* ---- main ----------------------------------------------------------------- */

/* `--report html` as `run --report html` reads: a positional naming reporters (every item a
 * reporter plugin) is the list of a bare --report, not a folder. */
static void take_report_list(smfw_cli *cli, results_opts *o) {
    for (int i = 0; i < cli->n_positional; i++) {
        char copy[512];
        snprintf(copy, sizeof copy, "%s", cli->positional[i]);
        int all = copy[0] != '\0';
        char *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t && all; t = strtok_r(NULL, ",", &save))
            if (!smfw_registry_find(cli->reg, SMFW_PLUGIN_REPORTER, t)) all = 0;
        if (!all) continue;
        o->report_list = strdup(cli->positional[i]);
        for (int k = i; k + 1 < cli->n_positional; k++) cli->positional[k] = cli->positional[k + 1];
        cli->n_positional--;
        return;
    }
}

static int results_main(int argc, char **argv) {
    static const smfw_cli_option extra[] = {
        {"job", required_argument, 0, "NAME", "a managed benchmark job (downloads its bundle)"},
        {"s3", required_argument, 0, "S3URI",
         "a run folder smfw wrote to S3, a bundle tarball, or the S3 prefix holding one"},
        {"local", required_argument, 0, "DIR",
         "a local bundle, direct-run output or concurrency-list bundle (works offline)"},
        {"model-package", required_argument, 0, "ARN",
         "results `smfw publish` stored with a model package version (a group: its last "
         "Approved version) or an endpoint"},
        {"report", optional_argument, 0, "[=LIST]",
         "also run the reporters (smfw.report, or LIST) into the output folder"},
    };
    results_opts o;
    memset(&o, 0, sizeof o);
    smfw_cli cli;
    int rc = smfw_cli_setup(&smfw_command_results, argc, argv, extra,
                            sizeof extra / sizeof extra[0], results_on_option, &o, 1, &cli);
    if (rc >= 0) {
        free(o.report_list);
        smfw_cli_cleanup(&cli);
        return rc;
    }
    if (o.report && !o.report_list) take_report_list(&cli, &o);
    if (cli.n_positional == 1 && !o.local && !o.job && !o.s3 && !o.model_package)
        o.local = cli.positional[0];
    else if (cli.n_positional) {
        smfw_log(SMFW_LOG_ERROR, NULL, "unexpected argument \"%s\" (see `smfw results --help`)",
                 cli.positional[0]);
        free(o.report_list);
        smfw_cli_cleanup(&cli);
        return 1;
    }
    if (!!o.local + !!o.job + !!o.s3 + !!o.model_package > 1) {
        smfw_log(SMFW_LOG_ERROR, NULL, "give one of --job, --s3, --local and --model-package");
        free(o.report_list);
        smfw_cli_cleanup(&cli);
        return 1;
    }
    smfw_error err;
    smfw_error_clear(&err);
    char *fetched = NULL;
    char job[256] = "";
    const char *dir = o.local;
    if (o.model_package) {
        /* Read through the plugin command into a folder of its own, then shown as --local. */
        const smfw_settings *prog = smfw_config_section(cli.cfg, "smfw");
        const char *leaf = strrchr(o.model_package, '/');
        char name[300];
        snprintf(name, sizeof name, "published-%s", leaf && leaf[1] ? leaf + 1 : "model");
        smfw_path_component_sanitize(name);
        smfw_status st = smfw_output_dir_create(smfw_settings_get(prog, "results_dir"), name,
                                                smfw_settings_get(prog, "output"), &fetched, &err);
        if (st != SMFW_OK)
            rc = smfw_cli_fail(&err);
        else if ((rc = smfw_cli_fetch_published(&cli, o.model_package, fetched)) != 0) {
            smfw_error ignored;
            smfw_remove_tree(fetched, &ignored);
        }
        if (rc != 0) {
            free(fetched);
            free(o.report_list);
            smfw_cli_cleanup(&cli);
            return rc;
        }
        dir = fetched;
    } else if (!dir) {
        smfw_status st = fetch_remote(cli.cfg, &o, &fetched, job, sizeof job, &err);
        if (st != SMFW_OK) {
            rc = smfw_cli_fail(&err);
            free(fetched);
            free(o.report_list);
            smfw_cli_cleanup(&cli);
            return rc;
        }
        dir = fetched;
    }
    smfw_bundle_run *runs = NULL;
    size_t n_runs = 0;
    smfw_status st = smfw_bundle_find_runs(dir, &runs, &n_runs, &err);
    if (st != SMFW_OK) {
        rc = smfw_cli_fail(&err);
        /* A folder the user named is input, as for compare and merge: a usage error. */
        if (o.local && st != SMFW_ERR_NOMEM) rc = 1;
        free(fetched);
        free(o.report_list);
        smfw_cli_cleanup(&cli);
        return rc;
    }
    if (cli.verbosity >= 0) {
        fputs("Bundle ", stdout);
        smfw_term_write(stdout, dir, 0);
        fputc('\n', stdout);
        int budget = 300;
        print_tree(dir, 0, &budget);
    }
    double gate =
        smfw_settings_get_double(smfw_config_section(cli.cfg, "run"), "max_error_rate", 0.01);
    const char *names_buf[64];
    const char *const *names = NULL;
    size_t n_names = 0;
    char *list_copy = o.report_list ? strdup(o.report_list) : NULL;
    if (list_copy) {
        char *save = NULL;
        for (char *t = strtok_r(list_copy, ",", &save); t && n_names < 64;
             t = strtok_r(NULL, ",", &save))
            names_buf[n_names++] = t;
        names = names_buf;
    }
    char *report_dir = NULL;
    if (o.report) {
        const smfw_settings *prog = smfw_config_section(cli.cfg, "smfw");
        const char *b = strrchr(dir, '/');
        char name[300];
        snprintf(name, sizeof name, "report-%s", job[0] ? job : (b && b[1] ? b + 1 : dir));
        smfw_path_component_sanitize(name);
        if (fetched)
            report_dir = strdup(fetched);
        else
            st = smfw_output_dir_create(smfw_settings_get(prog, "results_dir"), name,
                                        smfw_settings_get(prog, "output"), &report_dir, &err);
        if (st != SMFW_OK) {
            rc = smfw_cli_fail(&err);
            free(list_copy);
            free(runs);
            free(fetched);
            free(o.report_list);
            smfw_cli_cleanup(&cli);
            return rc;
        }
    }
    int failed_gate = 0;
    smfw_status first_err = SMFW_OK;
    smfw_error first;
    smfw_error_clear(&first);
    for (size_t i = 0; i < n_runs; i++) {
        smfw_results *r = smfw_results_new();
        if (!r) {
            first_err = smfw_error_set(&first, SMFW_ERR_NOMEM, "out of memory");
            break;
        }
        r->info.max_error_rate = gate;
        smfw_results_set_string(&r->info.backend, "managed");
        if (job[0]) smfw_results_set_string(&r->info.job_name, job);
        st = smfw_results_load_dir(r, runs[i].dir, &err);
        char title[4400]; /* escaped where it is printed: folder names come from the bundle */
        if (runs[i].concurrency)
            snprintf(title, sizeof title, "Results at concurrency %lld (%s)",
                     (long long)runs[i].concurrency, runs[i].dir);
        else
            snprintf(title, sizeof title, "Results (%s)", runs[i].dir);
        if (st != SMFW_OK) {
            SMFW_LOG_ERR("results", "%s", err.message);
            if (first_err == SMFW_OK) {
                first_err = st;
                first = err;
            }
            smfw_results_free(r);
            continue;
        }
        smfw_run_summary_options so = {0};
        so.title = title;
        so.has_gate = 1;
        so.gate = gate;
        if (smfw_run_summary_print(stdout, r, &so) == SMFW_RUN_VERDICT_FAILED) failed_gate = 1;
        if (report_dir) {
            char sub[4400];
            if (n_runs > 1) {
                char leaf[64];
                if (runs[i].concurrency)
                    snprintf(leaf, sizeof leaf, "concurrency_%lld", (long long)runs[i].concurrency);
                else
                    snprintf(leaf, sizeof leaf, "run_%zu", i + 1);
                if (smfw_mkdir_unique(report_dir, leaf, sub, sizeof sub) != 0)
                    snprintf(sub, sizeof sub, "%s", report_dir); /* reported by the reporters */
            } else
                snprintf(sub, sizeof sub, "%s", report_dir);
            smfw_error rerr;
            smfw_error_clear(&rerr);
            smfw_status rs = smfw_reporters_run(cli.reg, cli.cfg, names, n_names, r, sub, &rerr);
            if (rs != SMFW_OK && first_err == SMFW_OK) {
                first_err = rs;
                first = rerr;
            } else if (rs == SMFW_OK) {
                fputs("  reports: ", stdout);
                smfw_term_write(stdout, sub, 0);
                fputc('\n', stdout);
            }
        }
        smfw_results_free(r);
    }
    if (first_err != SMFW_OK)
        rc = smfw_cli_fail(&first);
    else
        rc = failed_gate ? 3 : 0;
    free(report_dir);
    free(list_copy);
    free(runs);
    free(fetched);
    free(o.report_list);
    smfw_cli_cleanup(&cli);
    return rc;
}

const smfw_command smfw_command_results = {
    "results", "present a finished run: bundle files, headline numbers, validity",
    "Usage: smfw results [--job NAME | --s3 S3URI | --local DIR | --model-package ARN]\n"
    "                    [--report[=LIST]] [options]\n\n"
    "Presents a finished benchmark: the bundle's files with a note for each known one, then\n"
    "the run's summary as `smfw run` prints it: TTFT, ITL, request latency, per-user\n"
    "throughput and sequence lengths (avg/p50/p90/p99), throughputs, request and error\n"
    "counts, duration and the validity verdict (one block per level of a concurrency-list\n"
    "run). --local reads a folder offline (an extracted AIPerf bundle or a direct run's\n"
    "output); --job and --s3 download and safely extract the bundle\n"
    "first (into -o DIR or ./smfw-results/<job>-<id>/, reused while the object's bucket, key,\n"
    "ETag and the job's ARN are the same). --s3 also reads a run folder smfw wrote to S3\n"
    "(`smfw run -o s3://...`, `smfw merge -o s3://...`); a prefix holding a run's shards is\n"
    "refused: merge them first (`smfw merge s3://... -o s3://...`). Without a source\n"
    "the newest benchmark job of the account and region is shown. --model-package ARN reads\n"
    "the headline numbers `smfw publish` stored on a model package version (a group ARN: its\n"
    "last Approved version; an endpoint ARN: its tags) into a result folder first. Exit 3\n"
    "when a run failed its validity gate.",
    results_main};
