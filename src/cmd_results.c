/*
 * cmd_results.c - `smfw results`: present a finished run, managed or direct.
 *
 * Sources: --local DIR (an extracted AIPerf bundle, a direct run's output
 * folder or a concurrency-list bundle), --s3 URI (a bundle tarball or the
 * prefix holding one), --job NAME, or by default the newest benchmark job
 * of the account and region: the first loaded backend whose fetch slot claims
 * the reference downloads and extracts it (safely) into a local folder. It
 * prints the bundle's file tree with a note for each known file, then the
 * summary (smfw_run_summary_print) and validity verdict of each run; --report runs the
 * reporters on it. Exit 3 when a run failed its validity gate.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/results_layout.h>
#include <smfw/archive.h>
#include <smfw/backend.h>
#include <smfw/bundle_read.h>
#include <smfw/log.h>
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

/* ---- fetch: the backend that claims the reference -------------------------- */

/* A new result folder under [smfw] results_dir (or exactly [smfw] output), as runs get. */
static smfw_status make_result_dir(const smfw_config *cfg, const char *run_name, char **dir,
                                   smfw_error *err) {
    const smfw_settings *prog = smfw_config_section(cfg, "smfw");
    return smfw_output_dir_create(smfw_settings_get(prog, "results_dir"), run_name,
                                  smfw_settings_get(prog, "output"), dir, err);
}

/* The i-th loaded backend with a fetch slot, or NULL. */
static const smfw_plugin_entry *fetching_backend(const smfw_registry *reg, size_t *i) {
    for (; *i < smfw_registry_count(reg); (*i)++) {
        const smfw_plugin_entry *e = smfw_registry_at(reg, *i);
        const smfw_backend_ops *ops = e->desc->ops;
        if (e->desc->kind == SMFW_PLUGIN_BACKEND && SMFW_OPS_HAS(ops, smfw_backend_ops, fetch))
            return e;
    }
    return NULL;
}

/* Ask each backend in turn to bring --job / --s3 / the newest run into a local folder;
 * *backend names the one that did. */
static smfw_status fetch_remote(const smfw_cli *cli, const results_opts *o, char **local,
                                char *job_out, size_t job_size, const char **backend,
                                smfw_error *err) {
    smfw_fetch_request req;
    memset(&req, 0, sizeof req);
    req.size = sizeof req;
    req.config = cli->cfg;
    req.job = o->job;
    req.uri = o->s3;
    req.install_cancel = smfw_cli_install_cancel_handler;
    req.make_dir = make_result_dir;
    const smfw_plugin_entry *e;
    for (size_t i = 0; (e = fetching_backend(cli->reg, &i)) != NULL; i++) {
        const smfw_backend_ops *ops = e->desc->ops;
        smfw_status st = ops->fetch(&req, local, job_out, job_size, err);
        if (st == SMFW_ERR_UNSUPPORTED) continue;
        *backend = e->desc->name;
        return st;
    }
    return smfw_error_set(err, SMFW_ERR_UNSUPPORTED,
                          "no loaded backend can fetch %s (see `smfw plugins`)",
                          o->s3    ? o->s3
                          : o->job ? o->job
                                   : "the newest run");
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
    /* A local bundle is stamped with the first backend that reads bundles (AIPerf's). */
    size_t at = 0;
    const smfw_plugin_entry *reader = fetching_backend(cli.reg, &at);
    const char *backend = reader ? reader->desc->name : NULL;
    if (o.model_package) {
        /* Read through the plugin command into a folder of its own, then shown as --local. */
        const char *leaf = strrchr(o.model_package, '/');
        char name[300];
        snprintf(name, sizeof name, "published-%s", leaf && leaf[1] ? leaf + 1 : "model");
        smfw_path_component_sanitize(name);
        smfw_status st = make_result_dir(cli.cfg, name, &fetched, &err);
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
        smfw_status st = fetch_remote(&cli, &o, &fetched, job, sizeof job, &backend, &err);
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
        const char *b = strrchr(dir, '/');
        char name[300];
        snprintf(name, sizeof name, "report-%s", job[0] ? job : (b && b[1] ? b + 1 : dir));
        smfw_path_component_sanitize(name);
        if (fetched)
            report_dir = strdup(fetched);
        else
            st = make_result_dir(cli.cfg, name, &report_dir, &err);
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
        if (backend) smfw_results_set_string(&r->info.backend, backend);
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
