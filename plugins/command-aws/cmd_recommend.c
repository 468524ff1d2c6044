/*
 * cmd_recommend.c - `smfw recommend`: SageMaker's AI recommendation job. The
 * workload config is made from smfw's dataset and options as the managed
 * backend makes it (the same WorkloadSpec, the dataset staged in S3 by its
 * SHA-256), then CreateAIRecommendationJob over at most three instance types;
 * a dry run (the default) prints the plan with the exact request bodies. With
 * --run it launches, polls DescribeAIRecommendationJob and presents every
 * recommendation's benchmark as a sweep (recommend_present.c). --job NAME
 * comes back to a job launched before.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <smfw/clock.h>
#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "aws_commands.h"
#include "recommend.h"

/* The managed backend's settings this command shares (declared there: --bucket, --role-arn,
 * --output-prefix, --dataset-prefix, --poll-interval, --timeout, the regions). */
typedef struct shared_settings {
    char *bucket, *role_arn, *output_prefix, *dataset_prefix, *dataset;
    double poll_interval_s, timeout_s;
    char **regions;
    size_t n_regions;
} shared_settings;

#define SHARED(key, type, field)                                                                   \
    { NULL, key, type, offsetof(shared_settings, field), 0 }
static const smfw_setting_binding shared_bindings[] = {
    SHARED("bucket", SMFW_BIND_STRING, bucket),
    SHARED("role_arn", SMFW_BIND_STRING, role_arn),
    SHARED("output_prefix", SMFW_BIND_STRING, output_prefix),
    SHARED("dataset_prefix", SMFW_BIND_STRING, dataset_prefix),
    SHARED("poll_interval", SMFW_BIND_DURATION, poll_interval_s),
    SHARED("timeout", SMFW_BIND_DURATION, timeout_s),
    {NULL, "benchmark_regions", SMFW_BIND_LIST, offsetof(shared_settings, regions),
     offsetof(shared_settings, n_regions)},
    {"smfw", "dataset", SMFW_BIND_STRING, offsetof(shared_settings, dataset), 0},
    SMFW_BINDINGS_END};

static int is_terminal(const char *s) {
    return s &&
           (strcmp(s, "Completed") == 0 || strcmp(s, "Failed") == 0 || strcmp(s, "Stopped") == 0);
}

static smfw_status describe(smfw_aws_client *c, const char *name, json_t **out, smfw_error *err) {
    json_t *req = json_pack("{s:s}", "AIRecommendationJobName", name);
    smfw_status st = managed_sagemaker_call(c, "DescribeAIRecommendationJob", req, out, err);
    json_decref(req);
    return st;
}

/* Poll until a terminal status; at the timeout StopAIRecommendationJob, then wait for it. */
static smfw_status wait_job(const smfw_command_context *ctx, smfw_aws_client *c, const char *name,
                            const shared_settings *s, json_t **out, int *timed_out,
                            smfw_error *err) {
    *out = NULL;
    *timed_out = 0;
    int64_t t0 = smfw_now_mono_ns();
    double interval = s->poll_interval_s > 0 ? s->poll_interval_s : 30;
    for (;;) {
        json_t *d = NULL;
        smfw_status st = describe(c, name, &d, err);
        if (st != SMFW_OK) return smfw_error_prefix(err, "DescribeAIRecommendationJob %s", name);
        json_decref(*out);
        *out = d;
        const char *status = json_string_value(json_object_get(d, "AIRecommendationJobStatus"));
        double elapsed = (double)(smfw_now_mono_ns() - t0) / 1e9;
        char shown[64];
        if (ctx->verbosity >= 0)
            SMFW_LOG_INFO("recommend", "recommendation job %s: %s (%.0f s)", name,
                          status ? smfw_term_escape(status, shown, sizeof shown) : "?", elapsed);
        if (is_terminal(status)) return SMFW_OK;
        if (!*timed_out && s->timeout_s > 0 && elapsed >= s->timeout_s) {
            SMFW_LOG_WARN("recommend", "timeout of %.0f s reached: stopping recommendation job %s",
                          s->timeout_s, name);
            json_t *req = json_pack("{s:s}", "AIRecommendationJobName", name);
            st = managed_sagemaker_call(c, "StopAIRecommendationJob", req, NULL, err);
            json_decref(req);
            if (st != SMFW_OK) return smfw_error_prefix(err, "StopAIRecommendationJob %s", name);
            *timed_out = 1;
        }
        struct timespec ts = {(time_t)interval,
                              (long)((interval - (double)(time_t)interval) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

/* The results folder: -o exactly (absent or empty), else results_dir/<job name>, unique. */
static int make_output_dir(const smfw_config *cfg, const char *name, char *dir, size_t size) {
    const smfw_settings *prog = smfw_config_section(cfg, "smfw");
    const char *exact = smfw_settings_get(prog, "output");
    if (exact && *exact) {
        snprintf(dir, size, "%s", exact);
        if (mkdir(dir, 0755) == 0) return 0;
        DIR *d = errno == EEXIST ? opendir(dir) : NULL;
        int empty = d != NULL;
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = 0;
        if (d) closedir(d);
        if (empty) return 0;
        smfw_log(SMFW_LOG_ERROR, NULL, "-o %s: %s", dir,
                 errno == EEXIST ? "exists and is not an empty folder" : strerror(errno));
        return 1;
    }
    const char *base = smfw_settings_get(prog, "results_dir");
    if (!base) base = ".";
    if (mkdir(base, 0755) != 0 && errno != EEXIST) {
        smfw_log(SMFW_LOG_ERROR, NULL, "cannot create %s: %s", base, strerror(errno));
        return 1;
    }
    if (smfw_mkdir_unique(base, name, dir, size) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL, "cannot create %s/%s: %s", base, name, strerror(errno));
        return 1;
    }
    return 0;
}

/* Wait for the job, then present what it recommended. */
static int follow(const smfw_command_context *ctx, smfw_aws_client *c, const char *name,
                  const shared_settings *s, const char *region) {
    json_t *d = NULL;
    int timed_out = 0;
    smfw_error err;
    if (wait_job(ctx, c, name, s, &d, &timed_out, &err) != SMFW_OK) {
        json_decref(d);
        return aws_command_fail(&err);
    }
    const char *status = json_string_value(json_object_get(d, "AIRecommendationJobStatus"));
    int rc;
    if (strcmp(status, "Completed") == 0) {
        char dir[4096];
        rc = make_output_dir(ctx->config, name, dir, sizeof dir);
        if (rc == 0) rc = recommend_present(ctx, c, d, region, dir);
    } else {
        const char *reason = json_string_value(json_object_get(d, "FailureReason"));
        char shown[1024];
        int failed = strcmp(status, "Failed") == 0;
        smfw_error_set(&err,
                       failed      ? SMFW_ERR_AWS
                       : timed_out ? SMFW_ERR_TIMEOUT
                                   : SMFW_ERR_CANCELLED,
                       "recommendation job %s %s%s%s", name,
                       failed      ? "failed"
                       : timed_out ? "was stopped at the timeout"
                                   : "was stopped",
                       reason ? ": " : "",
                       reason ? smfw_term_escape(reason, shown, sizeof shown) : "");
        rc = aws_command_fail(&err);
    }
    json_decref(d);
    return rc;
}

static void print_plan(FILE *out, const managed_plan *p, const char *name, json_t *workload,
                       json_t *job) {
    fprintf(out, "SageMaker AI recommendation plan (dry run: nothing was created or uploaded; add "
                 "--run to launch)\n\n");
    fprintf(out, "  %-22s %s\n", "region", p->region[0] ? p->region : "(unresolved)");
    fprintf(out, "  %-22s %s\n", "account", p->account[0] ? p->account : "(unresolved)");
    if (p->ds.public_feed)
        fprintf(out, "  %-22s public ShareGPT feed, fetched by SageMaker (nothing to upload)\n",
                "dataset");
    else
        fprintf(out,
                "  %-22s %s, %zu prompts, %lld bytes, sha256 %s\n  %-22s s3://%s/%s (uploaded "
                "unless already there with that size)\n",
                "dataset", p->ds.name, p->ds.count, (long long)p->ds.size, p->ds.sha256,
                "dataset object", p->bucket, p->ds.key);
    fprintf(out, "  %-22s %s\n", "output location", p->output_uri);
    fprintf(out, "  %-22s %s\n", "role", p->role_arn[0] ? p->role_arn : "(unresolved)");
    fprintf(out, "  %-22s %s\n", "workload config name", p->config_name);
    fprintf(out, "  %-22s %s\n", "recommendation job", name);
    if (p->unresolved[0]) {
        fprintf(out, "\n  Not resolved (placeholders <...> above and below):\n");
        for (const char *l = p->unresolved, *nl; *l; l = nl + 1) {
            nl = strchr(l, '\n');
            if (!nl) nl = l + strlen(l) - 1;
            fprintf(out, "    - %.*s\n", (int)(nl - l), l);
        }
    }
    fprintf(out, "\n  POST / X-Amz-Target: SageMaker.CreateAIWorkloadConfig\n");
    managed_plan_print_json(out, workload);
    fprintf(out, "\n  POST / X-Amz-Target: SageMaker.CreateAIRecommendationJob\n");
    managed_plan_print_json(out, job);
    fprintf(out, "\n  Then: poll SageMaker.DescribeAIRecommendationJob; for each recommendation "
                 "describe its AI benchmark job, download its output.tar.gz and report it as a "
                 "sweep.\n");
}

/* The last path segment of the model's S3 URI, for the generated names. */
static void model_label(const char *uri, char *out, size_t size) {
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", uri);
    size_t n = strlen(copy);
    while (n && copy[n - 1] == '/') copy[--n] = '\0';
    const char *slash = strrchr(copy, '/');
    snprintf(out, size, "%s", slash ? slash + 1 : copy);
}

static int launch(const smfw_command_context *ctx, const recommend_args *a,
                  const shared_settings *s, smfw_aws_client *c, int dry_run) {
    managed_plan plan;
    memset(&plan, 0, sizeof plan);
    smfw_error err;
    int rc = 0;
    smfw_prompt_set *prompts = NULL;
    json_t *workload = NULL, *job = NULL;
    char tmpdir[256] = "";
    if (managed_spec_build(ctx->config, &plan.spec, &err) != SMFW_OK) return aws_command_fail(&err);
    managed_preflight_opts po = {(const char *const *)s->regions, s->n_regions};
    if (managed_plan_resolve(c, s->bucket, s->role_arn, &po, dry_run, &plan, &err) != SMFW_OK) {
        rc = aws_command_fail(&err);
        goto done;
    }
    char label[256], name[64];
    model_label(a->model_uri, label, sizeof label);
    long long now = (long long)time(NULL);
    unsigned rnd = managed_name_random();
    if (a->name)
        snprintf(name, sizeof name, "%s", a->name);
    else
        managed_name_make("smfw-rec", label, now, rnd, name, sizeof name);
    managed_name_make("smfw-wl", label, now, rnd, plan.config_name, sizeof plan.config_name);
    managed_plan_output_uri(&plan, s->output_prefix, name);

    /* The dataset channel, as the managed backend stages it. */
    int public_feed = s->dataset && strcmp(s->dataset, "public") == 0;
    if (!public_feed && ctx->services->load_prompts(ctx, &prompts, &err) != SMFW_OK) {
        rc = aws_command_fail(&err);
        goto done;
    }
    snprintf(tmpdir, sizeof tmpdir, "%s/smfw-recommend-XXXXXX",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        smfw_log(SMFW_LOG_ERROR, NULL, "cannot create a temporary folder under %s", tmpdir);
        tmpdir[0] = '\0';
        rc = 1;
        goto done;
    }
    if (managed_dataset_prepare(prompts, s->dataset, tmpdir, &plan.ds, &err) != SMFW_OK) {
        rc = aws_command_fail(&err);
        goto done;
    }
    managed_dataset_locate(&plan.ds, plan.bucket, s->dataset_prefix);
    managed_dataset_apply(&plan.ds, json_object_get(plan.spec, "parameters"));
    workload = managed_plan_workload_request(&plan);
    job = recommend_request(a, &plan, name);
    if (!workload || !job) {
        smfw_log(SMFW_LOG_ERROR, NULL, "out of memory");
        rc = 1;
        goto done;
    }
    if (dry_run) {
        print_plan(ctx->out, &plan, name, workload, job);
        goto done;
    }
    /* Pre-flight (role, bucket), then the billable part. */
    int uploaded = 0;
    smfw_status st = managed_preflight_storage(c, &plan, &err);
    if (st == SMFW_OK) st = managed_dataset_upload(c, plan.bucket, &plan.ds, &uploaded, &err);
    if (st == SMFW_OK) {
        st = managed_sagemaker_call(c, "CreateAIWorkloadConfig", workload, NULL, &err);
        if (st != SMFW_OK) smfw_error_prefix(&err, "CreateAIWorkloadConfig %s", plan.config_name);
    }
    json_t *answer = NULL;
    if (st == SMFW_OK) {
        st = managed_sagemaker_call(c, "CreateAIRecommendationJob", job, &answer, &err);
        if (st != SMFW_OK) smfw_error_prefix(&err, "CreateAIRecommendationJob %s", name);
    }
    if (st != SMFW_OK) {
        json_decref(answer);
        rc = aws_command_fail(&err);
        goto done;
    }
    char again[1400], shown[300];
    managed_come_back_command(ctx->config, "smfw recommend --run --job", name, plan.region, again,
                              sizeof again);
    const char *arn = json_string_value(json_object_get(answer, "AIRecommendationJobArn"));
    fprintf(ctx->out,
            "Recommendation job %s launched (%s), workload config %s, output %s.\n"
            "If this command is interrupted the job keeps running; come back with:\n  %s\n",
            name, arn ? smfw_term_escape(arn, shown, sizeof shown) : "no ARN answered",
            plan.config_name, plan.output_uri, again);
    fflush(ctx->out);
    json_decref(answer);
    rc = follow(ctx, c, name, s, plan.region);
done:
    if (tmpdir[0]) smfw_remove_tree(tmpdir, NULL);
    json_decref(workload);
    json_decref(job);
    json_decref(plan.spec);
    smfw_prompt_set_free(prompts);
    return rc;
}

static int recommend_main(const smfw_command_context *ctx, int argc, char **argv) {
    if (argc > 1) {
        char shown[300];
        smfw_log(SMFW_LOG_ERROR, NULL, "unexpected argument \"%s\" (see `smfw recommend --help`)",
                 smfw_term_escape(argv[1], shown, sizeof shown));
        return 1;
    }
    if (ctx->size < offsetof(smfw_command_context, services) + sizeof ctx->services ||
        !ctx->services || ctx->services->size < sizeof(smfw_command_services)) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "smfw recommend needs a program that provides command services (this plugin "
                 "is newer than the program: upgrade smfw)");
        return 1;
    }
    recommend_args a;
    if (recommend_args_parse(ctx, &a) != 0) {
        recommend_args_free(&a);
        return 1;
    }
    shared_settings s;
    memset(&s, 0, sizeof s);
    smfw_error err;
    int rc = 0;
    smfw_aws_client *c = NULL;
    if (smfw_settings_bind(smfw_config_section(ctx->config, "backend.managed"), shared_bindings, &s,
                           &err) != SMFW_OK)
        rc = aws_command_fail(&err);
    int dry_run = !smfw_settings_get_bool(smfw_config_section(ctx->config, "smfw"), "run", 0);
    smfw_aws_options o;
    smfw_aws_options_from_config(ctx->config, &o);
    if (rc == 0 && smfw_aws_client_new(&o, &c, &err) != SMFW_OK) rc = aws_command_fail(&err);
    if (rc == 0 && a.job) {
        const char *region = NULL;
        smfw_error e;
        if (dry_run) {
            fprintf(ctx->out,
                    "Dry run: would follow recommendation job %s and present its "
                    "recommendations (add --run)\n",
                    a.job);
        } else if (smfw_aws_client_region(c, &region, &e) != SMFW_OK) {
            rc = aws_command_fail(&e);
        } else {
            rc = follow(ctx, c, a.job, &s, region);
        }
    } else if (rc == 0) {
        rc = launch(ctx, &a, &s, c, dry_run);
    }
    smfw_aws_client_free(c);
    smfw_settings_unbind(shared_bindings, &s);
    recommend_args_free(&a);
    return rc;
}

static const smfw_command_option recommend_options[] = {
    {"model-s3-uri", 1, "S3URI", "the model's artifacts in S3 (ModelSource.S3.S3Uri)"},
    {"instance-types", 1, "LIST",
     "up to 3 instance types to consider, e.g. ml.g5.2xlarge,ml.g6e.2xlarge (default: the "
     "service's choice)"},
    {"constraint", 1, "METRIC",
     "ttft-ms, throughput or cost (repeatable, in order; the first ranks; default ttft-ms)"},
    {"framework", 1, "NAME", "the serving framework: LMI or VLLM (InferenceSpecification)"},
    {"optimize-model", 0, NULL, "let SageMaker optimize the model (OptimizeModel)"},
    {"model-package-group", 1, "ID",
     "model package group to register the recommendations in (OutputConfig)"},
    {"tag", 1, "KEY=VALUE", "a tag on the recommendation job (repeatable)"},
    {"name", 1, "NAME", "the job's name (default smfw-rec-<model>-<UTC time>-<random>)"},
    {"job", 1, "NAME", "follow and present a recommendation job launched before"},
    SMFW_COMMAND_OPTIONS_END};

const smfw_command_def aws_command_recommend = {
    sizeof(smfw_command_def),
    "recommend",
    "SageMaker AI recommendation job: up to 3 instance types benchmarked, each shown as a sweep",
    "Usage: smfw recommend --model-s3-uri S3URI [--instance-types A,B,C] [--constraint METRIC]\n"
    "                      [--framework LMI|VLLM] [--optimize-model] [--model-package-group ID]\n"
    "                      [--tag KEY=VALUE] [--name NAME] [--concurrency 1,2,4,8] [--run]\n"
    "       smfw recommend --job NAME --run        (follow and present a job launched before)\n\n"
    "Makes an AI workload config from smfw's dataset and run options as the managed backend\n"
    "does (the dataset staged at s3://<bucket>/<dataset prefix>/<sha256>/), then\n"
    "CreateAIRecommendationJob for the model's artifacts, ranked by the constraints. Without\n"
    "--run it prints the plan with both request bodies and creates nothing. With --run it\n"
    "polls DescribeAIRecommendationJob (--poll-interval; --timeout stops it) and, once\n"
    "Completed, fetches each recommendation's AI benchmark job bundle into\n"
    "<output>/<rank>-<instance type>/ with one folder per level and the sweep's tables and\n"
    "charts (knee, cost per 1M output tokens from the price table, autoscaling target), then\n"
    "prints SageMaker's expected performance beside smfw's reading of the same benchmarks.\n"
    "Exit 2 when the job fails, 3 when a level failed its validity gate. See docs/managed.md.",
    recommend_options,
    recommend_main};
