/* cmd_run.c - `smfw run`: one benchmark with the configured backend, dataset and reporters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/log.h>

#include "commands.h"

extern const smfw_command smfw_command_run;

static void print_summary(const smfw_results *r, const char *dir, smfw_status st) {
    const smfw_stats *s = r->stats;
    if (!s[SMFW_M_REQUEST_COUNT].present && !s[SMFW_M_ERROR_REQUEST_COUNT].present) return;
    fprintf(stdout, "\n%s\n", r->info.target ? r->info.target : "benchmark results");
    fprintf(stdout, "  %-52s %10s %10s %10s %10s\n", "metric", "avg", "p50", "p90", "p99");
    static const smfw_metric_id rows[] = {
        SMFW_M_TIME_TO_FIRST_TOKEN,    SMFW_M_INTER_TOKEN_LATENCY,
        SMFW_M_REQUEST_LATENCY,        SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER,
        SMFW_M_OUTPUT_SEQUENCE_LENGTH, SMFW_M_INPUT_SEQUENCE_LENGTH};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const smfw_stats *x = &s[rows[i]];
        if (!x->present) continue;
        const smfw_metric_info *mi = smfw_metric_get(rows[i]);
        char label[96];
        snprintf(label, sizeof label, "%s (%s)", mi->header, mi->display_unit);
        fprintf(stdout, "  %-52s %10.2f %10.2f %10.2f %10.2f\n", label, x->avg, x->p[4], x->p[6],
                x->p[8]);
    }
    static const smfw_metric_id singles[] = {SMFW_M_OUTPUT_TOKEN_THROUGHPUT,
                                             SMFW_M_REQUEST_THROUGHPUT, SMFW_M_REQUEST_COUNT,
                                             SMFW_M_ERROR_REQUEST_COUNT, SMFW_M_BENCHMARK_DURATION};
    for (size_t i = 0; i < sizeof singles / sizeof singles[0]; i++) {
        const smfw_stats *x = &s[singles[i]];
        if (!x->present) continue;
        const smfw_metric_info *mi = smfw_metric_get(singles[i]);
        char label[96];
        snprintf(label, sizeof label, "%s (%s)", mi->header, mi->display_unit);
        fprintf(stdout, "  %-52s %10.2f\n", label, x->avg);
    }
    if (st == SMFW_ERR_CANCELLED)
        fprintf(stdout, "  validity: not judged - the run was interrupted\n");
    else if (smfw_status_exit_code(st) == 2)
        fprintf(stdout, "  validity: not judged - the run was stopped before it measured "
                        "anything (see the error above)\n");
    else if (r->info.gate_tripped)
        fprintf(stdout, "  validity: FAILED - %s\n",
                r->info.failure_reason ? r->info.failure_reason : "error rate above the gate");
    else
        fprintf(stdout, "  validity: passed (error rate %.2f%%, gate %.2f%%)\n",
                smfw_results_error_rate(r) * 100.0, r->info.max_error_rate * 100.0);
    if (dir) fprintf(stdout, "  results: %s\n", dir);
}

typedef struct run_args {
    int cloudwatch;
    double cloudwatch_wait_s;
    const char *variant;
} run_args;

static const smfw_cli_option run_options[] = {
    {"cloudwatch", no_argument, 0, NULL,
     "after the run, read SageMaker's CloudWatch metrics over its window (cloudwatch.md)"},
    {"cloudwatch-wait", required_argument, 0, "TIME",
     "wait this long before reading CloudWatch (it publishes minutes late; e.g. 3m)"},
    {"variant", required_argument, 0, "NAME", "production variant for CloudWatch (AllTraffic)"}};

static int run_option(void *user, const char *name, const char *value) {
    run_args *a = user;
    if (strcmp(name, "cloudwatch") == 0)
        a->cloudwatch = 1;
    else if (strcmp(name, "variant") == 0)
        a->variant = value;
    else if (strcmp(name, "cloudwatch-wait") == 0 &&
             smfw_parse_duration(value, &a->cloudwatch_wait_s) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--cloudwatch-wait wants a duration such as 3m");
        return 1;
    }
    return 0;
}

static int run_main(int argc, char **argv) {
    smfw_cli cli;
    run_args args = {0, 0, NULL};
    int rc = smfw_cli_setup(&smfw_command_run, argc, argv, run_options,
                            sizeof run_options / sizeof run_options[0], run_option, &args, 1, &cli);
    if (rc >= 0) {
        smfw_cli_cleanup(&cli);
        return rc;
    }
    if (cli.n_positional) {
        smfw_log(SMFW_LOG_ERROR, NULL, "unexpected argument \"%s\" (see `smfw run --help`)",
                 cli.positional[0]);
        smfw_cli_cleanup(&cli);
        return 1;
    }
    smfw_cli_progress_setup(cli.cfg, cli.verbosity);
    smfw_run_options opts;
    memset(&opts, 0, sizeof opts);
    opts.size = sizeof opts;
    opts.cancel = smfw_cli_install_cancel_handler();
    opts.progress = smfw_cli_progress;
    smfw_results *results = NULL;
    char *dir = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_status st = smfw_run_execute(cli.reg, cli.cfg, &opts, &results, &dir, &err);
    smfw_cli_progress_end();
    if (results && cli.verbosity >= 0) print_summary(results, dir, st);
    if (cli.verbosity < 0 && dir) printf("%s\n", dir); /* -q: scripts still find the folder */
    if (args.cloudwatch && results && dir && st != SMFW_ERR_CANCELLED) {
        int64_t start = results->info.start_wall_ns, end = results->info.end_wall_ns;
        if (results->stats[SMFW_M_MIN_REQUEST_TIMESTAMP].present && !start)
            start = (int64_t)results->stats[SMFW_M_MIN_REQUEST_TIMESTAMP].avg;
        if (results->stats[SMFW_M_MAX_RESPONSE_TIMESTAMP].present && !end)
            end = (int64_t)results->stats[SMFW_M_MAX_RESPONSE_TIMESTAMP].avg;
        smfw_cli_cloudwatch(cli.cfg, args.variant, args.cloudwatch_wait_s, dir, start, end,
                            (int64_t)results->n_records, cli.verbosity < 0);
    }
    if (st != SMFW_OK) {
        if (st == SMFW_ERR_CANCELLED)
            smfw_log(SMFW_LOG_WARN, NULL, "%s", err.message);
        else
            smfw_log(SMFW_LOG_ERROR, NULL, "%s", err.message);
    }
    rc = smfw_status_exit_code(st);
    smfw_results_free(results);
    free(dir);
    smfw_cli_cleanup(&cli);
    return rc;
}

const smfw_command smfw_command_run = {
    "run", "run one benchmark (direct load generator or SageMaker's managed benchmark)",
    "Usage: smfw run [--backend direct|managed|NAME] [--endpoint NAME | --url URL] [options]\n"
    "       smfw --backend NAME [options]        (the same)\n\n"
    "Runs one benchmark: loads the dataset, runs the backend, writes the results with the\n"
    "configured reporters into a new folder (default ./smfw-results/<run name>/).\n"
    "`--endpoint mock` benchmarks a private smfw-mock started for the run (no AWS account).\n"
    "The managed backend prints its plan unless --run is given.\n\n"
    "Most used:\n"
    "  --endpoint NAME | --url URL   what to benchmark (--endpoint mock: a local emulator)\n"
    "  -c, --concurrency N           requests in flight (closed loop; default 10)\n"
    "  -r, --request-rate R          open loop: requests per second (-c then caps in flight)\n"
    "  -n, --request-count N         requests to send (default 300), or --duration TIME\n"
    "  -m, --model NAME              model name sent in the body\n"
    "  -o, --output DIR              result folder; --report json,csv,markdown,html\n"
    "  -C, --config FILE             settings file (`smfw config --template` documents all)",
    run_main};
