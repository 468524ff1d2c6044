/* cmd_compare.c - `smfw compare BASE NEW`: per-metric deltas, exit 4 on a regression. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/archive.h>
#include <smfw/compare.h>
#include <smfw/log.h>

#include "commands.h"

extern const smfw_command smfw_command_compare;

typedef struct compare_args {
    double max_regression_pct;
    smfw_metric_ref *metrics;
    size_t n_metrics;
    int json;
    int failed;
} compare_args;

static const smfw_cli_option compare_options[] = {
    {"max-regression", required_argument, 0, "PCT",
     "a metric regresses when it is worse by more than PCT (default 10%)"},
    {"metrics", required_argument, 0, "LIST",
     "metrics to compare, e.g. ttft_p95,itl_p50,output_token_throughput,error_rate (repeatable; "
     "default TTFT p50/p95, ITL p50, latency p50/p95, token and request throughput, error rate)"},
    {"format", required_argument, 0, "FMT", "what to print: markdown (default) or json"},
};

/* "10%", "10", "2.5 %" -> percent. */
static int parse_pct(const char *text, double *out) {
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno || !isfinite(v) || v < 0) return -1;
    while (*end == ' ') end++;
    if (*end == '%') end++;
    if (*end) return -1;
    *out = v;
    return 0;
}

static int compare_option(void *user, const char *name, const char *value) {
    compare_args *a = user;
    smfw_error err;
    if (strcmp(name, "max-regression") == 0) {
        if (parse_pct(value, &a->max_regression_pct) != 0) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "--max-regression wants a percentage such as 10%% or 2.5, not \"%s\"", value);
            return 1;
        }
    } else if (strcmp(name, "metrics") == 0) {
        char *copy = strdup(value), *save = NULL;
        if (!copy) return 1;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            smfw_metric_ref ref;
            if (smfw_metric_ref_parse(t, &ref, &err) != SMFW_OK) {
                smfw_log(SMFW_LOG_ERROR, NULL, "--metrics: %s", err.message);
                free(copy);
                return 1;
            }
            smfw_metric_ref *g = realloc(a->metrics, (a->n_metrics + 1) * sizeof *g);
            if (!g) {
                free(copy);
                return 1;
            }
            a->metrics = g;
            a->metrics[a->n_metrics++] = ref;
        }
        free(copy);
    } else if (strcmp(name, "format") == 0) {
        if (strcmp(value, "json") == 0)
            a->json = 1;
        else if (strcmp(value, "markdown") == 0 || strcmp(value, "md") == 0)
            a->json = 0;
        else {
            smfw_log(SMFW_LOG_ERROR, NULL, "--format wants markdown or json, not \"%s\"", value);
            return 1;
        }
    }
    return 0;
}

static int write_text(const char *dir, const char *name, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    if (!fp || fputs(text, fp) == EOF || fclose(fp) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int compare_main(int argc, char **argv) {
    compare_args a;
    memset(&a, 0, sizeof a);
    a.max_regression_pct = 10.0;
    /* The plugins are loaded only to read an ARN (through the `publish` command). */
    int need_plugins = 0;
    for (int i = 1; i < argc; i++) need_plugins |= smfw_cli_is_published_arn(argv[i]);
    smfw_cli cli;
    int rc = smfw_cli_setup(&smfw_command_compare, argc, argv, compare_options,
                            sizeof compare_options / sizeof compare_options[0], compare_option, &a,
                            need_plugins, &cli);
    if (rc >= 0) {
        free(a.metrics);
        smfw_cli_cleanup(&cli);
        return rc;
    }
    if (cli.n_positional != 2) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "smfw compare wants two result folders, BASE and NEW (see `smfw compare --help`)");
        free(a.metrics);
        smfw_cli_cleanup(&cli);
        return 1;
    }
    const char *base_dir = cli.positional[0], *new_dir = cli.positional[1];
    smfw_results *base = smfw_results_new(), *cur = smfw_results_new();
    smfw_compare_result *res = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    rc = 1;
    /* An ARN (a model package version, its group's last Approved version, an endpoint) is
     * the numbers `smfw publish` stored there, read into a scratch folder. */
    char scratch[2][4096] = {"", ""};
    const char *dirs[2] = {base_dir, new_dir};
    for (int i = 0; i < 2; i++) {
        if (!smfw_cli_is_published_arn(dirs[i])) continue;
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch[i], sizeof scratch[i], "%s/smfw-compare-XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(scratch[i])) {
            smfw_log(SMFW_LOG_ERROR, NULL, "cannot create %s: %s", scratch[i], strerror(errno));
            scratch[i][0] = '\0';
            goto done;
        }
        if ((rc = smfw_cli_fetch_published(&cli, dirs[i], scratch[i])) != 0) goto done;
        rc = 1;
        dirs[i] = scratch[i];
    }
    if (!base || !cur) goto done;
    if (smfw_results_load_dir(base, dirs[0], &err) != SMFW_OK ||
        smfw_results_load_dir(cur, dirs[1], &err) != SMFW_OK) {
        smfw_log(SMFW_LOG_ERROR, NULL, "%s", err.message);
        goto done;
    }
    if (smfw_compare_results(base, cur, a.metrics, a.n_metrics, a.max_regression_pct, &res, &err) !=
        SMFW_OK) {
        rc = smfw_cli_fail(&err);
        goto done;
    }
    char *md = smfw_compare_markdown(res, base_dir, new_dir);
    char *js = smfw_compare_json(res, base_dir, new_dir);
    if (!md || !js) {
        free(md);
        free(js);
        smfw_log(SMFW_LOG_ERROR, NULL, "out of memory");
        goto done;
    }
    const char *out_dir = smfw_settings_get(smfw_config_section(cli.cfg, "smfw"), "output");
    int write_failed = 0;
    if (out_dir && *out_dir) {
        if (mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
            smfw_log(SMFW_LOG_ERROR, NULL, "cannot create %s: %s", out_dir, strerror(errno));
            write_failed = 1;
        } else {
            write_failed |= write_text(out_dir, "compare.md", md) != 0;
            write_failed |= write_text(out_dir, "compare.json", js) != 0;
        }
    }
    if (cli.verbosity >= 0 || a.json) fputs(a.json ? js : md, stdout);
    if (a.json) fputc('\n', stdout);
    free(md);
    free(js);
    if (write_failed)
        rc = 1;
    else
        rc = res->regressions ? smfw_status_exit_code(SMFW_ERR_REGRESSION) : 0;
done:
    for (int i = 0; i < 2; i++)
        if (scratch[i][0]) {
            smfw_error ignored;
            smfw_remove_tree(scratch[i], &ignored);
        }
    smfw_compare_result_free(res);
    smfw_results_free(base);
    smfw_results_free(cur);
    free(a.metrics);
    smfw_cli_cleanup(&cli);
    return rc;
}

const smfw_command smfw_command_compare = {
    "compare", "compare two result folders; exit 4 when a metric regressed",
    "Usage: smfw compare BASE NEW [--max-regression PCT] [--metrics LIST]\n"
    "                    [--format markdown|json] [-o DIR]\n\n"
    "Compares two result folders (a direct run, a managed AIPerf bundle, or one of each;\n"
    "either may be an ARN whose numbers `smfw publish` stored: a model package version, a\n"
    "model package group - its last Approved version - or an endpoint):\n"
    "for every chosen metric the base and new values, the delta and the delta in percent,\n"
    "judged by direction (higher is better for throughputs, lower for latencies and errors).\n"
    "Exits 4 when any metric is worse by more than --max-regression (or vanished from the\n"
    "new run), 0 otherwise: the nightly-canary gate. Differences between the two workloads\n"
    "(concurrency, dataset, streaming...) are listed as notes. With -o DIR the report is\n"
    "also written as DIR/compare.md and DIR/compare.json.",
    compare_main};
