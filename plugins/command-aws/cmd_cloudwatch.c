/*
 * cmd_cloudwatch.c - `smfw cloudwatch`: SageMaker's CloudWatch metrics for an
 * endpoint over a run's window (a result folder, an explicit window, or the
 * last --since minutes), read next to the client's numbers. Also what
 * `smfw run --cloudwatch` and `smfw sweep --cloudwatch` run after a benchmark.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/run_set.h>
#include <smfw/clock.h>
#include <smfw/command.h>
#include <smfw/log.h>

#include "aws_commands.h"
#include "cloudwatch.h"

/* What the options ask; parsed from the context before anything is fetched. */
typedef struct cw_args {
    const char *variant;
    const char *run_dir;
    const char *save_dir;
    double since_s, wait_s;
    int64_t start_s, end_s, sent;
    int json;
} cw_args;

static int parse_int(const char *flag, const char *value, int64_t min, int64_t *out) {
    char *end = NULL;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (errno || end == value || *end || v < min) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--%s wants a whole number of at least %lld, not \"%s\"",
                 flag, (long long)min, value);
        return 1;
    }
    *out = v;
    return 0;
}

static int parse_args(const smfw_command_context *ctx, cw_args *a) {
    memset(a, 0, sizeof *a);
    a->since_s = 20 * 60;
    a->sent = -1;
    const char *v;
    a->variant = smfw_command_get(ctx, "variant");
    a->run_dir = smfw_command_get(ctx, "run");
    a->save_dir = smfw_command_get(ctx, "save");
    if ((v = smfw_command_get(ctx, "since")) &&
        (smfw_parse_duration(v, &a->since_s) != 0 || !(a->since_s > 0))) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--since wants a duration such as 20m, not \"%s\"", v);
        return 1;
    }
    if ((v = smfw_command_get(ctx, "wait")) &&
        (smfw_parse_duration(v, &a->wait_s) != 0 || a->wait_s < 0)) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--wait wants a duration such as 3m, not \"%s\"", v);
        return 1;
    }
    if ((v = smfw_command_get(ctx, "format"))) {
        if (strcmp(v, "json") == 0)
            a->json = 1;
        else if (strcmp(v, "markdown") != 0) {
            smfw_log(SMFW_LOG_ERROR, NULL, "--format wants markdown or json, not \"%s\"", v);
            return 1;
        }
    }
    if ((v = smfw_command_get(ctx, "start")) && parse_int("start", v, 1, &a->start_s)) return 1;
    if ((v = smfw_command_get(ctx, "end")) && parse_int("end", v, 1, &a->end_s)) return 1;
    if ((v = smfw_command_get(ctx, "sent")) && parse_int("sent", v, 0, &a->sent)) return 1;
    if (!a->start_s != !a->end_s) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--start and --end go together (a window in Unix seconds)");
        return 1;
    }
    if (a->start_s && a->end_s <= a->start_s) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--end %lld is not after --start %lld", (long long)a->end_s,
                 (long long)a->start_s);
        return 1;
    }
    if (a->start_s && (a->run_dir || smfw_command_get(ctx, "since"))) {
        smfw_log(SMFW_LOG_ERROR, NULL, "give one window: --start/--end, --run DIR or --since TIME");
        return 1;
    }
    return 0;
}

/* Write one rendering into dir; a failure names the file. */
static int write_text(const char *dir, const char *name, char *text) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = text ? fopen(path, "w") : NULL;
    int ok = fp && fputs(text, fp) != EOF;
    if (fp && fclose(fp) != 0) ok = 0;
    free(text);
    if (!ok) smfw_log(SMFW_LOG_ERROR, NULL, "cannot write %s: %s", path, strerror(errno));
    return ok ? 0 : 1;
}

/* The profiling window of a run: its recorded start/end, else its records. */
static void run_window(const smfw_results *r, int64_t *start_ns, int64_t *end_ns) {
    const smfw_run_info *info = smfw_results_info(r);
    int64_t s = info->start_wall_ns, e = info->end_wall_ns;
    for (size_t i = 0; i < smfw_results_record_count(r); i++) {
        const smfw_record *rec = smfw_results_record(r, i);
        int64_t start = smfw_record_time_ns(rec, SMFW_RECORD_REQUEST_START);
        if (start > 0 && (!s || start < s)) s = start;
        int64_t end = smfw_record_time_ns(rec, SMFW_RECORD_REQUEST_END);
        double latency;
        if (!end && start > 0 && smfw_record_value(rec, SMFW_M_REQUEST_LATENCY, &latency))
            end = start + (int64_t)llround(latency);
        if (end > e) e = end;
    }
    if (s && (!*start_ns || s < *start_ns)) *start_ns = s;
    if (e > *end_ns) *end_ns = e;
}

static int cloudwatch_main(const smfw_command_context *ctx, int argc, char **argv) {
    if (argc > 1) {
        smfw_log(SMFW_LOG_ERROR, NULL, "unexpected argument \"%s\" (see `smfw cloudwatch --help`)",
                 argv[1]);
        return 1;
    }
    cw_args a;
    if (parse_args(ctx, &a) != 0) return 1;
    const smfw_settings *run = smfw_config_section(ctx->config, "run");
    smfw_cw_query q;
    memset(&q, 0, sizeof q);
    q.endpoint = smfw_settings_get(run, "endpoint");
    q.inference_component = smfw_settings_get(run, "inference_component");
    q.variant = a.variant;
    smfw_results *single = NULL;
    smfw_run_set *sweep = NULL;
    smfw_aws_client *client = NULL;
    smfw_cw_report *rep = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    int64_t sent = a.sent;
    int rc = 1;
    if (a.start_s) {
        q.start_s = a.start_s;
        q.end_s = a.end_s;
    } else if (a.run_dir) {
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
            const smfw_run_info *info = smfw_results_info(single);
            if (sent < 0) sent = (int64_t)smfw_results_record_count(single);
            if (!q.endpoint) q.endpoint = info->endpoint_name;
            if (!q.inference_component) q.inference_component = info->inference_component;
        } else {
            if (smfw_run_set_load_dir(a.run_dir, &sweep, &err) != SMFW_OK) goto fail;
            int64_t counted = 0;
            for (size_t i = 0; i < smfw_run_set_count(sweep); i++) {
                const smfw_results *lvl = smfw_run_set_results(sweep, i);
                run_window(lvl, &s_ns, &e_ns);
                counted += (int64_t)smfw_results_record_count(lvl);
                if (!q.endpoint) q.endpoint = smfw_results_info(lvl)->endpoint_name;
            }
            if (sent < 0) sent = counted;
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
    if (q.endpoint && strcmp(q.endpoint, "mock") == 0) {
        /* --endpoint mock is a private smfw-mock that ended with its run. */
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "CloudWatch needs a SageMaker endpoint, not \"mock\" (for smfw-mock start it "
                 "yourself and pass --endpoint NAME --endpoint-url URL)");
        goto done;
    }
    if (a.wait_s > 0) {
        SMFW_LOG_INFO(NULL, "waiting %.0f s for CloudWatch to publish the run's minutes", a.wait_s);
        sleep((unsigned)ceil(a.wait_s));
    }
    smfw_aws_options o;
    smfw_aws_options_from_config(ctx->config, &o);
    if (smfw_aws_client_new(&o, &client, &err) != SMFW_OK) goto fail;
    if (smfw_cloudwatch_fetch(client, &q, &rep, &err) != SMFW_OK) goto fail;
    smfw_cloudwatch_interpret(rep, single, sent);
    if (ctx->verbosity >= 0 || !a.save_dir) {
        char *text = a.json ? smfw_cloudwatch_json(rep) : smfw_cloudwatch_markdown(rep);
        if (text) {
            fputs(text, ctx->out);
            if (a.json) fputc('\n', ctx->out);
        }
        free(text);
    }
    /* --save DIR (a result folder, as run/sweep --cloudwatch give), else -o when set. */
    const char *out = a.save_dir;
    if (!out) out = smfw_settings_get(smfw_config_section(ctx->config, "smfw"), "output");
    if (out && *out) {
        if (mkdir(out, 0755) != 0 && errno != EEXIST) {
            smfw_log(SMFW_LOG_ERROR, NULL, "cannot create %s: %s", out, strerror(errno));
            goto done;
        }
        if (write_text(out, "cloudwatch.md", smfw_cloudwatch_markdown(rep)) |
            write_text(out, "cloudwatch.json", smfw_cloudwatch_json(rep)))
            goto done;
    }
    rc = 0;
    goto done;
fail:
    rc = aws_command_fail(&err);
done:
    smfw_cw_report_free(rep);
    smfw_aws_client_free(client);
    smfw_results_free(single);
    smfw_run_set_free(sweep);
    return rc;
}

static const smfw_command_option cw_options[] = {
    {"variant", 1, "NAME", "production variant (default AllTraffic)"},
    {"since", 1, "TIME", "window: the last TIME (e.g. 20m; default 20m)"},
    {"run", 1, "DIR", "window, endpoint and request count from a result folder (a run or a sweep)"},
    {"start", 1, "UNIX_S", "window start in Unix seconds (with --end)"},
    {"end", 1, "UNIX_S", "window end in Unix seconds (with --start)"},
    {"sent", 1, "N",
     "requests the client sent in the window (default: the --run folder's records)"},
    {"wait", 1, "TIME", "wait this long first (CloudWatch publishes 1-3 minutes late; e.g. 3m)"},
    {"save", 1, "DIR", "write cloudwatch.md and cloudwatch.json into DIR (default -o, if given)"},
    {"format", 1, "FMT", "what to print: markdown (default) or json"},
    SMFW_COMMAND_OPTIONS_END};

const smfw_command_def aws_command_cloudwatch = {
    sizeof(smfw_command_def),
    "cloudwatch",
    "the server's view: SageMaker's CloudWatch metrics over a run's window",
    "Usage: smfw cloudwatch --endpoint NAME [--variant AllTraffic] [--inference-component IC]\n"
    "                       [--since 20m | --run DIR | --start S --end S] [--sent N]\n"
    "                       [--wait TIME] [--format markdown|json] [--save DIR | -o DIR]\n\n"
    "Reads, with GetMetricData at a 60 s period: Invocations, InvocationsPerInstance,\n"
    "ModelLatency and OverheadLatency (published in microseconds, shown in ms),\n"
    "Invocation4XXErrors and Invocation5XXErrors (AWS/SageMaker), and GPUUtilization,\n"
    "GPUMemoryUtilization, CPUUtilization and MemoryUtilization (/aws/sagemaker/Endpoints),\n"
    "then reads them next to the client's numbers (with --run or --sent): invocations counted\n"
    "vs requests sent, GPU idle while latency is high (client/tokenization/payload bound), GPU\n"
    "memory near full at modest concurrency (KV cache bound), OverheadLatency a large share\n"
    "(serialization/routing), 5XX errors (server queue limit). Metrics without data points\n"
    "are named, never invented. CloudWatch publishes 1-3 minutes late. `smfw run --cloudwatch`\n"
    "and `smfw sweep --cloudwatch` run this command on their result folder.",
    cw_options,
    cloudwatch_main};
