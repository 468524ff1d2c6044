/*
 * managed_backend.c - the managed backend's settings and ops: plan (dry run
 * by default), pre-flight, dataset staging, workload config and job,
 * polling, bundle download and loading into the one results model.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <smfw/archive.h>
#include <smfw/clock.h>
#include <smfw/log.h>
#include <smfw/plugin.h>

#include "managed.h"

#define S SMFW_SETTING_STRING
#define L SMFW_SETTING_LIST
#define T SMFW_SETTING_DURATION
#define B SMFW_SETTING_BOOL
#define D SMFW_SETTING_DOUBLE

static const smfw_setting_decl managed_settings[] = {
    {"role_arn", S, NULL,
     "IAM role SageMaker assumes for the job (must trust sagemaker.amazonaws.com; default: "
     "detected)",
     "role-arn", "SAGEMAKER_ROLE_ARN", 0, "ARN"},
    {"bucket", S, NULL,
     "S3 bucket for the dataset and results (default sagemaker-<region>-<account>)", "bucket",
     "SAGEMAKER_BUCKET", 0, "BUCKET"},
    {"output_prefix", S, "benchmark-output",
     "results go to s3://<bucket>/<output_prefix>/<job name>/ (one prefix per job)",
     "output-prefix", NULL, 0, "PREFIX"},
    {"dataset_prefix", S, "smfw/datasets",
     "datasets are staged at s3://<bucket>/<dataset_prefix>/<sha256>/<name>.jsonl",
     "dataset-prefix", NULL, 0, "PREFIX"},
    {"poll_interval", T, "30s", "how often DescribeAIBenchmarkJob is polled", "poll-interval", NULL,
     0, "TIME"},
    {"timeout", T, NULL, "stop the job when it runs longer than this (default: no limit)",
     "timeout", NULL, 0, "TIME"},
    {"benchmark_regions", L,
     "us-east-1,us-east-2,us-west-2,eu-west-1,eu-central-1,ap-northeast-1,ap-southeast-1,"
     "ap-southeast-2",
     "regions where SageMaker's benchmark capability is offered (checked before launching)",
     "benchmark-regions", NULL, 0, "LIST"},
    {"workload_param", L, NULL,
     "extra WorkloadSpec parameter name=value (repeatable; checked against the documented set)",
     "workload-param", NULL, 0, "NAME=VALUE"},
    {"sla", L, NULL,
     "max-concurrency-under-SLA search: SLOs metric:threshold (e.g. time_to_first_token:500); "
     "sweeps sla_concurrency",
     "sla", NULL, 0, "METRIC:VALUE"},
    {"sla_concurrency", L, "1,2,4,8,16,32,64", "concurrency levels of the SLA search",
     "sla-concurrency", NULL, 0, "LIST"},
    {"sla_attainment", D, "0.9", "fraction of requests that must meet every SLO at a level",
     "sla-attainment", NULL, 0, "FRACTION"},
    {"on_interrupt", S, "ask",
     "Ctrl-C while the job runs: ask (on a terminal; else detach), stop or detach", "on-interrupt",
     NULL, 0, "ask|stop|detach"},
    {"wait", B, "true", "wait for the job and fetch its results (--no-wait: launch and detach)",
     "wait", NULL, 0, NULL},
    {"job_name", S, NULL, "benchmark job name (default smfw-<endpoint>-<UTC time>-<random>)",
     "job-name", NULL, 0, "NAME"},
    SMFW_SETTINGS_END};

/* The backend's settings, bound by declaration (defaults live in managed_settings and the
 * core's declarations only). */
typedef struct managed_options {
    char *role_arn, *bucket, *output_prefix, *dataset_prefix, *on_interrupt, *job_name;
    char *endpoint, *inference_component, *dataset;
    double poll_interval_s, timeout_s, max_error_rate;
    int wait;
    char **benchmark_regions;
    size_t n_benchmark_regions;
} managed_options;

#define MINE(key, type, field)                                                                     \
    { NULL, key, type, offsetof(managed_options, field), 0 }
static const smfw_setting_binding managed_bindings[] = {
    MINE("role_arn", SMFW_BIND_STRING, role_arn),
    MINE("bucket", SMFW_BIND_STRING, bucket),
    MINE("output_prefix", SMFW_BIND_STRING, output_prefix),
    MINE("dataset_prefix", SMFW_BIND_STRING, dataset_prefix),
    MINE("on_interrupt", SMFW_BIND_STRING, on_interrupt),
    MINE("job_name", SMFW_BIND_STRING, job_name),
    MINE("poll_interval", SMFW_BIND_DURATION, poll_interval_s),
    MINE("timeout", SMFW_BIND_DURATION, timeout_s),
    MINE("wait", SMFW_BIND_BOOL, wait),
    {NULL, "benchmark_regions", SMFW_BIND_LIST, offsetof(managed_options, benchmark_regions),
     offsetof(managed_options, n_benchmark_regions)},
    {"run", "endpoint", SMFW_BIND_STRING, offsetof(managed_options, endpoint), 0},
    {"run", "inference_component", SMFW_BIND_STRING, offsetof(managed_options, inference_component),
     0},
    {"run", "max_error_rate", SMFW_BIND_DOUBLE, offsetof(managed_options, max_error_rate), 0},
    {"smfw", "dataset", SMFW_BIND_STRING, offsetof(managed_options, dataset), 0},
    SMFW_BINDINGS_END};

typedef struct managed_ctx {
    const smfw_config *cfg;
    int public_feed;
    managed_options opt;
} managed_ctx;

static void managed_destroy(void *ctx) {
    managed_ctx *c = ctx;
    if (!c) return;
    smfw_settings_unbind(managed_bindings, &c->opt);
    free(c);
}

/* What create() refuses before anything loads. */
static smfw_status managed_options_check(const managed_ctx *c, smfw_error *err) {
    const managed_options *o = &c->opt;
    const char *mode = o->on_interrupt;
    if (mode && strcmp(mode, "ask") && strcmp(mode, "stop") && strcmp(mode, "detach"))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "backend.managed.on_interrupt is \"%s\": expected ask, stop or "
                              "detach",
                              mode);
    if (o->job_name && !managed_name_valid(o->job_name))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "backend.managed.job_name \"%s\" is not a valid job name (1-63 "
                              "letters, digits and hyphens, starting and ending with a letter or "
                              "digit)",
                              o->job_name);
    /* "mock" means the emulator for the direct backend; here it would name a real endpoint. */
    const char *eu = smfw_settings_get(smfw_config_section(c->cfg, "aws"), "endpoint_url");
    if (o->endpoint && strcmp(o->endpoint, "mock") == 0 && !(eu && *eu))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--endpoint mock starts smfw-mock for the direct backend only; for "
                              "the managed backend start smfw-mock and pass --endpoint-url (see "
                              "docs/mock.md), or name a real endpoint");
    /* Fail fast on a bad spec (unknown parameter...), before the dataset loads. */
    json_t *spec = NULL;
    smfw_status st = managed_spec_build(c->cfg, &spec, err);
    json_decref(spec);
    return st;
}

static smfw_status managed_create(const smfw_settings *settings, const smfw_config *cfg, void **out,
                                  smfw_error *err) {
    managed_ctx *c = calloc(1, sizeof *c);
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    c->cfg = cfg;
    smfw_status st = smfw_settings_bind(settings, managed_bindings, &c->opt, err);
    if (st == SMFW_OK) st = managed_options_check(c, err);
    if (st != SMFW_OK) {
        managed_destroy(c);
        return st;
    }
    c->public_feed = c->opt.dataset && strcmp(c->opt.dataset, "public") == 0;
    *out = c;
    return SMFW_OK;
}

static smfw_status managed_control(void *ctx, int op, void *arg) {
    managed_ctx *c = ctx;
    if (op == SMFW_BACKEND_CTL_HONOURS_DRY_RUN || op == SMFW_BACKEND_CTL_RUNS_LEVELS) {
        *(int *)arg = 1; /* a concurrency list is one job, its levels reported by the core */
        return SMFW_OK;
    }
    if (op == SMFW_BACKEND_CTL_NEEDS_PROMPTS) {
        *(int *)arg = c->public_feed ? 0 : 1;
        return SMFW_OK;
    }
    return SMFW_ERR_UNSUPPORTED;
}

static smfw_status managed_run(void *ctx, smfw_run_context *run, smfw_error *err) {
    managed_ctx *mc = ctx;
    const smfw_config *cfg = run->config;
    const managed_options *mo = &mc->opt;
    managed_plan plan;
    memset(&plan, 0, sizeof plan);
    smfw_aws_client *client = NULL;
    char tmpdir[256] = "";
    json_t *describe = NULL;
    smfw_status st = managed_spec_build(cfg, &plan.spec, err);
    if (st != SMFW_OK) return st;

    smfw_aws_options ao;
    smfw_aws_options_from_config(cfg, &ao);
    st = smfw_aws_client_new(&ao, &client, err);
    if (st != SMFW_OK) goto done;

    plan.endpoint = mo->endpoint;
    plan.inference_component = mo->inference_component;
    if (!plan.endpoint || !*plan.endpoint) {
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "the managed backend needs an endpoint (--endpoint NAME)");
        goto done;
    }
    /* Region (refused before any AWS call where the capability is not offered), account,
     * bucket and role. */
    managed_preflight_opts po;
    po.n_regions = mo->n_benchmark_regions;
    po.regions = (const char *const *)mo->benchmark_regions;
    st = managed_plan_resolve(client, mo->bucket, mo->role_arn, &po, run->dry_run, &plan, err);
    if (st != SMFW_OK) goto done;
    long long now = (long long)time(NULL);
    unsigned rnd = managed_name_random();
    const char *fixed = mo->job_name;
    if (fixed)
        snprintf(plan.job_name, sizeof plan.job_name, "%s", fixed);
    else
        managed_name_make("smfw", plan.endpoint, now, rnd, plan.job_name, sizeof plan.job_name);
    managed_name_make("smfw-wl", plan.endpoint, now, rnd, plan.config_name,
                      sizeof plan.config_name);
    managed_plan_output_uri(&plan, mo->output_prefix, plan.job_name);

    /* The dataset channel. */
    const char *dir = run->output_dir;
    if (!dir) {
        snprintf(tmpdir, sizeof tmpdir, "%s/smfw-managed-XXXXXX",
                 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(tmpdir)) {
            st = smfw_error_set(err, SMFW_ERR_IO, "cannot create a temporary folder");
            tmpdir[0] = '\0';
            goto done;
        }
        dir = tmpdir;
    }
    st = managed_dataset_prepare(mc->public_feed ? NULL : run->prompts, mo->dataset, dir, &plan.ds,
                                 err);
    if (st != SMFW_OK) goto done;
    managed_dataset_locate(&plan.ds, plan.bucket, mo->dataset_prefix);
    managed_dataset_apply(&plan.ds, json_object_get(plan.spec, "parameters"));

    if (run->dry_run) {
        managed_plan_print(&plan, stdout);
        st = SMFW_OK;
        goto done;
    }

    /* Pre-flight, then the billable part. */
    st = managed_preflight(client, &plan, &po, err);
    if (st != SMFW_OK) goto done;
    int uploaded = 0;
    st = managed_dataset_upload(client, plan.bucket, &plan.ds, &uploaded, err);
    if (st != SMFW_OK) goto done;

    smfw_run_info *info = smfw_results_info_edit(run->results);
    managed_identity who = {plan.job_name, plan.endpoint, plan.inference_component, plan.region,
                            info->max_error_rate};
    managed_identity_apply(&who, 0, run->results);
    if (plan.ds.public_feed) smfw_results_set_string(&info->dataset_name, "public (sharegpt)");

    if (run->cancel && *run->cancel != SMFW_CANCEL_NONE) {
        st = smfw_error_set(err, SMFW_ERR_CANCELLED,
                            "interrupted before launching: no workload config or job was created");
        goto done;
    }
    st = managed_job_launch(client, &plan, err);
    if (st != SMFW_OK) goto done;
    char again[1400]; /* the command that finds the job again: the AWS options this run used */
    managed_come_back_command(cfg, "smfw results --job", plan.job_name, plan.region, again,
                              sizeof again);
    if (!mo->wait) {
        fprintf(stdout, "Benchmark job %s launched; see its results later with:\n  %s\n",
                plan.job_name, again);
        st = SMFW_OK;
        goto done;
    }
    managed_wait_opts wo;
    wo.poll_interval_s = mo->poll_interval_s;
    wo.timeout_s = mo->timeout_s;
    wo.on_interrupt = mo->on_interrupt;
    managed_wait_end end;
    st = managed_job_wait(client, plan.job_name, run, &wo, &end, &describe, err);
    if (st != SMFW_OK) goto done;
    if (end == MANAGED_WAIT_DETACHED) {
        fprintf(stdout, "\nDetached; benchmark job %s keeps running. Come back with:\n  %s\n",
                plan.job_name, again);
        st = smfw_error_set(err, SMFW_ERR_CANCELLED,
                            "detached from benchmark job %s (it keeps running)", plan.job_name);
        goto done;
    }
    const char *status = json_string_value(json_object_get(describe, "AIBenchmarkJobStatus"));
    const char *reason = json_string_value(json_object_get(describe, "FailureReason"));
    const char *loc = json_string_value(
        json_object_get(json_object_get(describe, "OutputConfig"), "S3OutputLocation"));
    int completed = status && strcmp(status, "Completed") == 0;
    int failed = status && strcmp(status, "Failed") == 0;

    /* The bundle: a failed job's too (a tripped validity gate still uploads it). */
    char bundle_dir[4200];
    smfw_error ferr;
    smfw_error_clear(&ferr);
    smfw_bundle_run *runs = NULL;
    size_t n_runs = 0;
    smfw_status fst = managed_bundle_fetch(client, loc ? loc : plan.output_uri, plan.job_name,
                                           run->output_dir, bundle_dir, sizeof bundle_dir, &ferr);
    if (fst == SMFW_OK) fst = smfw_bundle_find_runs(bundle_dir, &runs, &n_runs, &ferr);
    managed_identity id = {plan.job_name, plan.endpoint, plan.inference_component, plan.region,
                           mo->max_error_rate};
    managed_levels_outcome lo;
    memset(&lo, 0, sizeof lo);
    if (fst == SMFW_OK && n_runs > 1) {
        /* A concurrency list: one folder, report and block per level; the run's own
         * results stay empty so nothing is reported twice. */
        fst = managed_levels_report(runs, n_runs, cfg, run->levels, run->output_dir, &id,
                                    run->quiet, &lo, &ferr);
        info->start_wall_ns = lo.first_start_ns;
        info->end_wall_ns = lo.last_end_ns;
        if (fst != SMFW_OK && lo.levels) {
            SMFW_LOG_ERR("managed", "%s", ferr.message);
            fst = SMFW_OK; /* the levels that loaded are reported */
        }
    } else if (fst == SMFW_OK) {
        fst = managed_run_load(runs[0].dir, run->output_dir, &id, runs[0].concurrency, run->results,
                               &ferr);
    }
    free(runs);
    if (completed) {
        st = fst;
        if (st != SMFW_OK)
            *err = ferr;
        else if (lo.tripped)
            st = smfw_error_set(err, SMFW_ERR_VALIDITY,
                                "benchmark job %s: %zu of %zu concurrency levels failed the "
                                "validity gate (their metrics cover the valid requests)",
                                plan.job_name, lo.tripped, lo.levels);
    } else if (failed && fst == SMFW_OK) {
        /* The validity gate: a full bundle, metrics over the valid requests. */
        if (n_runs <= 1) {
            info->gate_tripped = 1;
            if (reason) smfw_results_set_string(&info->failure_reason, reason);
        }
        st = smfw_error_set(err, SMFW_ERR_VALIDITY,
                            "benchmark job %s failed its validity gate: %s (the metrics cover "
                            "the valid requests)",
                            plan.job_name, reason ? reason : "no reason given");
    } else if (failed) {
        char logs[1024] = "";
        size_t o = 0, i;
        json_t *l;
        json_array_foreach(
            json_object_get(json_object_get(describe, "OutputConfig"), "CloudWatchLogs"), i, l) {
            const char *g = json_string_value(json_object_get(l, "LogGroupArn"));
            const char *s = json_string_value(json_object_get(l, "LogStreamName"));
            if (o < sizeof logs)
                o += (size_t)snprintf(logs + o, sizeof logs - o, "%s%s%s%s", o ? ", " : "",
                                      g ? g : "?", s ? " stream " : "", s ? s : "");
        }
        SMFW_LOG_INFO("managed", "no results: %s", ferr.message);
        st = smfw_error_set(err, SMFW_ERR_AWS, "benchmark job %s failed: %s%s%s%s", plan.job_name,
                            reason ? reason : "no FailureReason given",
                            logs[0] ? " (CloudWatch logs: " : " (no CloudWatch log location)", logs,
                            logs[0] ? ")" : "");
    } else {
        if (fst != SMFW_OK)
            SMFW_LOG_INFO("managed", "no results of the stopped job: %s", ferr.message);
        st = smfw_error_set(
            err, end == MANAGED_WAIT_TIMEOUT ? SMFW_ERR_TIMEOUT : SMFW_ERR_CANCELLED,
            "benchmark job %s %s (%s)%s", plan.job_name,
            end == MANAGED_WAIT_TIMEOUT ? "was stopped at the timeout" : "was stopped",
            status ? status : "?", fst == SMFW_OK ? "; the results it wrote are reported" : "");
    }
done:
    if (tmpdir[0]) smfw_remove_tree(tmpdir, NULL);
    json_decref(describe);
    json_decref(plan.spec);
    smfw_aws_client_free(client);
    return st;
}

static const smfw_backend_ops managed_ops = {sizeof managed_ops, managed_create,  managed_run,
                                             managed_destroy,    managed_control, managed_fetch};

SMFW_PLUGIN_DEFINE(smfw_backend_managed, SMFW_PLUGIN_BACKEND, "managed", "0.1.0",
                   "SageMaker's managed AI benchmark (AIPerf on managed compute): plan, launch, "
                   "poll, fetch the AIPerf bundle",
                   managed_settings, &managed_ops)
