/* cmd_run.c - `smfw run`: one benchmark with the configured backend, dataset and reporters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/results_layout.h>
#include <smfw/archive.h>
#include <smfw/log.h>
#include <smfw/results_s3.h>

#include "commands.h"

extern const smfw_command smfw_command_run;

typedef struct run_args {
    int cloudwatch;
    double cloudwatch_wait_s;
    const char *variant;
    int pin;
    int suspend; /* --suspend-scaling */
} run_args;

static const smfw_cli_option run_options[] = {
    {"cloudwatch", no_argument, 0, NULL,
     "after the run, read SageMaker's CloudWatch metrics over its window (cloudwatch.md)"},
    {"cloudwatch-wait", required_argument, 0, "TIME",
     "wait this long before reading CloudWatch (it publishes minutes late; e.g. 3m)"},
    {"variant", required_argument, 0, "NAME",
     "production variant for CloudWatch and --pin-capacity (AllTraffic)"},
    {"pin-capacity", no_argument, 0, NULL,
     "hold the scalable target at its current count for the run (MinCapacity = MaxCapacity), "
     "restored after it (capacity.md)"},
    {"suspend-scaling", no_argument, 0, NULL,
     "with --pin-capacity: also suspend the target's dynamic scaling (SuspendedState), the "
     "original restored after it"}};

static int run_option(void *user, const char *name, const char *value) {
    run_args *a = user;
    if (strcmp(name, "cloudwatch") == 0)
        a->cloudwatch = 1;
    else if (strcmp(name, "pin-capacity") == 0)
        a->pin = 1;
    else if (strcmp(name, "suspend-scaling") == 0)
        a->suspend = 1;
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
    run_args args = {0, 0, NULL, 0, 0};
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
    if (smfw_cli_pin_flags_check(args.pin, args.suspend) != 0) {
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
    /* -o s3://...: the run folder is a temporary one, mirrored to S3 while the run goes. */
    const smfw_settings *prog = smfw_config_section(cli.cfg, "smfw");
    const char *s3_uri = smfw_settings_get(prog, "output");
    smfw_results_s3_mirror *mirror = NULL;
    char tmp_root[4096] = "", tmp_dir[4200], s3_dest[1300];
    if (!smfw_results_s3_is_uri(s3_uri)) s3_uri = NULL;
    if (args.cloudwatch && smfw_cli_cloudwatch_check(&cli) != 0) {
        smfw_cli_cleanup(&cli);
        return 1;
    }
    if (s3_uri && args.cloudwatch) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--cloudwatch needs a local result folder; not with -o %s",
                 s3_uri);
        smfw_cli_cleanup(&cli);
        return 1;
    }
    /* Pinned before anything else can fail, so every later exit passes the unpin. */
    if (args.pin && (rc = smfw_cli_pin_capacity(&cli, args.variant, "pin", args.suspend)) != 0) {
        smfw_cli_cleanup(&cli);
        return rc;
    }
    if (s3_uri) {
        const char *t = getenv("TMPDIR");
        snprintf(tmp_root, sizeof tmp_root, "%s/smfw-s3-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(tmp_root)) {
            smfw_log(SMFW_LOG_ERROR, NULL, "cannot create a temporary folder for %s", s3_uri);
            if (args.pin) smfw_cli_pin_capacity(&cli, args.variant, "unpin", 0);
            smfw_cli_cleanup(&cli);
            return 1;
        }
        snprintf(tmp_dir, sizeof tmp_dir, "%s/run", tmp_root);
        opts.output_dir = tmp_dir;
        if (smfw_results_s3_mirror_start(cli.cfg, s3_uri, tmp_dir, &mirror, &err) != SMFW_OK) {
            rmdir(tmp_root);
            rc = smfw_cli_fail(&err);
            if (args.pin) smfw_cli_pin_capacity(&cli, args.variant, "unpin", 0);
            smfw_cli_cleanup(&cli);
            return rc;
        }
        /* A shard given a folder writes to its shard-I in it: name where it really went. */
        snprintf(s3_dest, sizeof s3_dest, "%s", smfw_results_s3_mirror_uri(mirror));
        s3_uri = s3_dest;
    }
    smfw_status st = smfw_run_execute(cli.reg, cli.cfg, &opts, &results, &dir, &err);
    smfw_cli_progress_end();
    /* Right after the load (Ctrl-C included), before reports and uploads. */
    int unpin_rc = args.pin ? smfw_cli_pin_capacity(&cli, args.variant, "unpin", 0) : 0;
    if (s3_uri) {
        smfw_error uerr;
        smfw_error_clear(&uerr);
        if (smfw_results_s3_mirror_finish(mirror, &uerr) != SMFW_OK) {
            smfw_log(SMFW_LOG_ERROR, NULL, "uploading the results to %s: %s (kept in %s)", s3_uri,
                     uerr.message, tmp_dir);
            if (st == SMFW_OK) {
                st = uerr.status;
                err = uerr;
            }
        } else {
            smfw_remove_tree(tmp_root, NULL);
            free(dir);
            dir = strdup(s3_uri); /* what the summary and -q name */
        }
    }
    /* Nothing measured (stopped during setup): the error says why; no summary. */
    if (results && cli.verbosity >= 0 &&
        (results->stats[SMFW_M_REQUEST_COUNT].present ||
         results->stats[SMFW_M_ERROR_REQUEST_COUNT].present)) {
        smfw_run_summary_options so = {0};
        so.status = st;
        so.results_dir = dir;
        smfw_run_summary_print(stdout, results, &so);
    }
    if (cli.verbosity < 0 && dir) printf("%s\n", dir); /* -q: scripts still find the folder */
    if (args.cloudwatch && results && dir && st != SMFW_ERR_CANCELLED) {
        int64_t start = results->info.start_wall_ns, end = results->info.end_wall_ns;
        if (results->stats[SMFW_M_MIN_REQUEST_TIMESTAMP].present && !start)
            start = (int64_t)results->stats[SMFW_M_MIN_REQUEST_TIMESTAMP].avg;
        if (results->stats[SMFW_M_MAX_RESPONSE_TIMESTAMP].present && !end)
            end = (int64_t)results->stats[SMFW_M_MAX_RESPONSE_TIMESTAMP].avg;
        smfw_cli_cloudwatch(&cli, args.variant, args.cloudwatch_wait_s, dir, start, end,
                            (int64_t)results->n_records, cli.verbosity < 0);
    }
    /* A run that measured something, not interrupted: the endpoint it leaves running. */
    if (results && st != SMFW_ERR_CANCELLED &&
        (results->stats[SMFW_M_REQUEST_COUNT].present ||
         results->stats[SMFW_M_ERROR_REQUEST_COUNT].present))
        smfw_cli_endpoint_cost(&cli);
    if (st != SMFW_OK) {
        if (st == SMFW_ERR_CANCELLED)
            smfw_log(SMFW_LOG_WARN, NULL, "%s", err.message);
        else
            smfw_log(SMFW_LOG_ERROR, NULL, "%s", err.message);
    }
    rc = smfw_status_exit_code(st);
    if (rc == 0 && unpin_rc != 0) rc = unpin_rc;
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
