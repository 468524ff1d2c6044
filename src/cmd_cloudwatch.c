/*
 * cmd_cloudwatch.c - `smfw cloudwatch`: SageMaker's CloudWatch metrics for an
 * endpoint over a run's window (or the last --since minutes), read next to the
 * client's numbers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/capacity.h>
#include <smfw/cloudwatch.h>
#include <smfw/log.h>

#include "commands.h"

extern const smfw_command smfw_command_cloudwatch;

typedef struct cw_args {
    const char *variant;
    const char *run_dir;
    double since_s;
    int json;
} cw_args;

static const smfw_cli_option cw_options[] = {
    {"variant", required_argument, 0, "NAME", "production variant (default AllTraffic)"},
    {"since", required_argument, 0, "TIME", "window: the last TIME (e.g. 20m; default 20m)"},
    {"run", required_argument, 0, "DIR",
     "window, endpoint and request count from a result folder (a run or a sweep)"},
    {"format", required_argument, 0, "FMT", "what to print: markdown (default) or json"},
};

static int cw_option(void *user, const char *name, const char *value) {
    cw_args *a = user;
    if (strcmp(name, "variant") == 0)
        a->variant = value;
    else if (strcmp(name, "run") == 0)
        a->run_dir = value;
    else if (strcmp(name, "since") == 0) {
        if (smfw_parse_duration(value, &a->since_s) != 0 || !(a->since_s > 0)) {
            smfw_log(SMFW_LOG_ERROR, NULL, "--since wants a duration such as 20m, not \"%s\"",
                     value);
            return 1;
        }
    } else if (strcmp(name, "format") == 0) {
        if (strcmp(value, "json") == 0)
            a->json = 1;
        else if (strcmp(value, "markdown") == 0)
            a->json = 0;
        else {
            smfw_log(SMFW_LOG_ERROR, NULL, "--format wants markdown or json, not \"%s\"", value);
            return 1;
        }
    }
    return 0;
}

/* The profiling window of a run: its recorded start/end, else its records. */
static void run_window(const smfw_results *r, int64_t *start_ns, int64_t *end_ns) {
    int64_t s = r->info.start_wall_ns, e = r->info.end_wall_ns;
    for (size_t i = 0; i < r->n_records; i++) {
        const smfw_record *rec = &r->records[i];
        if (rec->request_start_ns > 0 && (!s || rec->request_start_ns < s))
            s = rec->request_start_ns;
        int64_t end = rec->request_end_ns;
        if (!end && rec->request_start_ns > 0 && smfw_record_has(rec, SMFW_M_REQUEST_LATENCY))
            end = rec->request_start_ns + (int64_t)llround(rec->values[SMFW_M_REQUEST_LATENCY]);
        if (end > e) e = end;
    }
    if (s && (!*start_ns || s < *start_ns)) *start_ns = s;
    if (e > *end_ns) *end_ns = e;
}

static int cloudwatch_main(int argc, char **argv) {
    cw_args a;
    memset(&a, 0, sizeof a);
    a.since_s = 20 * 60;
    smfw_cli cli;
    int rc = smfw_cli_setup(&smfw_command_cloudwatch, argc, argv, cw_options,
                            sizeof cw_options / sizeof cw_options[0], cw_option, &a, 0, &cli);
    if (rc >= 0) {
        smfw_cli_cleanup(&cli);
        return rc;
    }
    const smfw_settings *run = smfw_config_section(cli.cfg, "run");
    smfw_cw_query q;
    memset(&q, 0, sizeof q);
    q.endpoint = smfw_settings_get(run, "endpoint");
    q.inference_component = smfw_settings_get(run, "inference_component");
    q.variant = a.variant;
    smfw_results *single = NULL;
    smfw_sweep *sweep = NULL;
    smfw_aws_client *client = NULL;
    smfw_cw_report *rep = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    int64_t sent = -1;
    rc = 1;
    if (a.run_dir) {
        int64_t s_ns = 0, e_ns = 0;
        char probe[4200];
        struct stat st;
        snprintf(probe, sizeof probe, "%s/profile_export.jsonl", a.run_dir);
        int is_run = stat(probe, &st) == 0;
        snprintf(probe, sizeof probe, "%s/profile_export_aiperf.json", a.run_dir);
        is_run |= stat(probe, &st) == 0;
        if (is_run) {
            single = smfw_results_new();
            if (smfw_results_load_dir(single, a.run_dir, &err) != SMFW_OK) goto fail;
            run_window(single, &s_ns, &e_ns);
            sent = (int64_t)single->n_records;
            if (!q.endpoint) q.endpoint = single->info.endpoint_name;
            if (!q.inference_component) q.inference_component = single->info.inference_component;
        } else {
            if (smfw_sweep_load_dir(a.run_dir, &sweep, &err) != SMFW_OK) goto fail;
            sent = 0;
            for (size_t i = 0; i < sweep->n; i++) {
                run_window(sweep->results[i], &s_ns, &e_ns);
                sent += (int64_t)sweep->results[i]->n_records;
                if (!q.endpoint) q.endpoint = sweep->results[i]->info.endpoint_name;
            }
        }
        if (!s_ns || e_ns <= s_ns) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "%s does not say when it ran (no timestamps); use --since instead", a.run_dir);
            goto done;
        }
        q.start_s = s_ns / 1000000000LL;
        q.end_s = (e_ns + 999999999LL) / 1000000000LL;
    } else {
        int64_t now = smfw_now_wall_ns() / 1000000000LL;
        q.end_s = now;
        q.start_s = now - (int64_t)llround(a.since_s);
    }
    if (!q.endpoint && !q.inference_component) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "name the endpoint: --endpoint NAME (or --run DIR of a run that recorded it)");
        goto done;
    }
    smfw_aws_options o;
    smfw_aws_options_from_config(cli.cfg, &o);
    if (smfw_aws_client_new(&o, &client, &err) != SMFW_OK) goto fail;
    if (smfw_cloudwatch_fetch(client, &q, &rep, &err) != SMFW_OK) goto fail;
    smfw_cloudwatch_interpret(rep, single, sent);
    char *text = a.json ? smfw_cloudwatch_json(rep) : smfw_cloudwatch_markdown(rep);
    if (text) {
        fputs(text, stdout);
        if (a.json) fputc('\n', stdout);
    }
    free(text);
    const char *out = smfw_settings_get(smfw_config_section(cli.cfg, "smfw"), "output");
    if (out && *out) {
        char path[4200];
        const char *names[] = {"cloudwatch.md", "cloudwatch.json"};
        for (int k = 0; k < 2; k++) {
            char *t = k ? smfw_cloudwatch_json(rep) : smfw_cloudwatch_markdown(rep);
            snprintf(path, sizeof path, "%s/%s", out, names[k]);
            mkdir(out, 0755);
            FILE *fp = t ? fopen(path, "w") : NULL;
            if (!fp || fputs(t, fp) == EOF) smfw_log(SMFW_LOG_ERROR, NULL, "cannot write %s", path);
            if (fp) fclose(fp);
            free(t);
        }
    }
    rc = 0;
    goto done;
fail:
    rc = smfw_cli_fail(&err);
done:
    smfw_cw_report_free(rep);
    smfw_aws_client_free(client);
    smfw_results_free(single);
    smfw_sweep_free(sweep);
    smfw_cli_cleanup(&cli);
    return rc;
}

const smfw_command smfw_command_cloudwatch = {
    "cloudwatch", "the server's view: SageMaker's CloudWatch metrics over a run's window",
    "Usage: smfw cloudwatch --endpoint NAME [--variant AllTraffic] [--inference-component IC]\n"
    "                       [--since 20m | --run DIR] [--format markdown|json] [-o DIR]\n\n"
    "Reads, with GetMetricData at a 60 s period: Invocations, InvocationsPerInstance,\n"
    "ModelLatency and OverheadLatency (published in microseconds, shown in ms),\n"
    "Invocation4XXErrors and Invocation5XXErrors (AWS/SageMaker), and GPUUtilization,\n"
    "GPUMemoryUtilization, CPUUtilization and MemoryUtilization (/aws/sagemaker/Endpoints),\n"
    "then reads them next to the client's numbers (with --run): invocations counted vs\n"
    "requests sent, GPU idle while latency is high (client/tokenization/payload bound), GPU\n"
    "memory near full at modest concurrency (KV cache bound), OverheadLatency a large share\n"
    "(serialization/routing), 5XX errors (server queue limit). Metrics without data points\n"
    "are named, never invented. CloudWatch publishes 1-3 minutes late.",
    cloudwatch_main};
