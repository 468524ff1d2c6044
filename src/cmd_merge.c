/* cmd_merge.c - `smfw merge DIR... -o OUT`: one run's exact aggregates from several folders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/archive.h>
#include <smfw/log.h>
#include <smfw/merge.h>
#include <smfw/results_s3.h>
#include <smfw/untrusted.h>

#include "commands.h"

extern const smfw_command smfw_command_merge;

static const smfw_cli_option merge_options[] = {
    {"allow-partial", no_argument, 0, NULL, "merge although some shards of I/N are missing"},
    {"allow-mismatch", no_argument, 0, NULL,
     "merge parts whose endpoint, workload, dataset or shard count differ"},
    {"allow-incomplete", no_argument, 0, NULL,
     "merge parts whose profile_export.jsonl holds fewer requests than their summary"},
    {"allow-start-spread", no_argument, 0, NULL,
     "merge shards of one --start-at that began too far apart or whose clocks disagree (warns)"},
};

static int merge_option(void *user, const char *name, const char *value) {
    (void)value;
    smfw_merge_options *o = user;
    if (strcmp(name, "allow-partial") == 0)
        o->allow_partial = 1;
    else if (strcmp(name, "allow-mismatch") == 0)
        o->allow_mismatch = 1;
    else if (strcmp(name, "allow-incomplete") == 0)
        o->allow_incomplete = 1;
    else if (strcmp(name, "allow-start-spread") == 0)
        o->allow_start_spread = 1;
    return 0;
}

/*
 * A shard killed before its summary left only records: it takes its shard label from
 * the shard.txt its run put up first, and the run's identity (target, model, dataset,
 * streaming) from the first complete shard, since it has none of its own to check.
 */
static void adopt_identity(smfw_results **parts, const smfw_results_s3_part *s3, size_t n) {
    const smfw_run_info *whole = NULL;
    for (size_t i = 0; i < n && !whole; i++)
        if (s3[i].complete) whole = &parts[i]->info;
    for (size_t i = 0; i < n; i++) {
        if (s3[i].complete) continue;
        smfw_run_info *in = &parts[i]->info;
        if (s3[i].shard[0]) smfw_results_set_string(&in->shard, s3[i].shard);
        if (!whole) continue;
        smfw_results_set_string(&in->endpoint_name, whole->endpoint_name);
        smfw_results_set_string(&in->inference_component, whole->inference_component);
        smfw_results_set_string(&in->url, whole->url);
        smfw_results_set_string(&in->endpoint_type, whole->endpoint_type);
        smfw_results_set_string(&in->model, whole->model);
        smfw_results_set_string(&in->dataset_sha256, whole->dataset_sha256);
        in->streaming = whole->streaming;
    }
}

/* A new folder $TMPDIR/NAME-XXXXXX (/tmp without TMPDIR) into path; 0, or -1. */
static int make_tmp(const char *name, char *path, size_t size) {
    const char *t = getenv("TMPDIR");
    snprintf(path, size, "%s/%s-XXXXXX", t && *t ? t : "/tmp", name);
    if (mkdtemp(path)) return 0;
    path[0] = '\0';
    return -1;
}

/* 1 when s3://b/p/x (the output) is s3://b/p itself or lies below it (trailing '/' ignored). */
static int s3_under(const char *out, const char *in) {
    size_t ol = strlen(out), il = strlen(in);
    while (ol && out[ol - 1] == '/') ol--;
    while (il && in[il - 1] == '/') il--;
    return ol >= il && strncmp(out, in, il) == 0 && (ol == il || out[il] == '/');
}

static int merge_main(int argc, char **argv) {
    smfw_merge_options o;
    memset(&o, 0, sizeof o);
    smfw_cli cli;
    int rc =
        smfw_cli_setup(&smfw_command_merge, argc, argv, merge_options,
                       sizeof merge_options / sizeof merge_options[0], merge_option, &o, 1, &cli);
    if (rc >= 0) {
        smfw_cli_cleanup(&cli);
        return rc;
    }
    const smfw_settings *prog = smfw_config_section(cli.cfg, "smfw");
    const char *out_arg = smfw_settings_get(prog, "output");
    if (cli.n_positional < 1 || !out_arg || !*out_arg) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "smfw merge wants one or more result folders and -o OUT (see `smfw merge "
                 "--help`)");
        smfw_cli_cleanup(&cli);
        return 1;
    }
    size_t n = (size_t)cli.n_positional;
    smfw_results **parts = NULL;
    smfw_goodput_slo *slos = NULL;
    size_t n_slos = 0;
    smfw_results *merged = NULL;
    char *out_dir = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    /* s3://bucket/prefix/ arguments expand into their shard folders, copied to a temporary one. */
    const char **dirs = calloc(n, sizeof *dirs), **labels = NULL;
    smfw_results_s3_part *s3_parts = NULL;
    size_t n_s3 = 0;
    char tmp_root[4096] = "", out_root[4096] = "", out_local[4200];
    /* -o s3://...: the merged folder is made in a temporary one, then uploaded. */
    const char *out_s3 = smfw_results_s3_is_uri(out_arg) ? out_arg : NULL;
    rc = 1;
    if (!dirs) goto done;
    if (out_s3 && n == 1 && smfw_results_s3_is_uri(cli.positional[0]) &&
        s3_under(out_s3, cli.positional[0])) {
        const char *in = cli.positional[0];
        int il = (int)strlen(in);
        while (il > 5 && in[il - 1] == '/') il--;
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "-o %s is inside the merged prefix %s: a later merge of that prefix would take "
                 "the merged run for one more shard; write it beside the shards (e.g. "
                 "%.*s-merged)",
                 out_s3, in, il, in);
        goto done;
    }
    if (out_s3) {
        if (smfw_results_s3_put_dir(cli.cfg, NULL, out_s3, &err) != SMFW_OK) {
            rc = smfw_cli_fail(&err);
            goto done;
        }
        if (make_tmp("smfw-merge-out", out_root, sizeof out_root) != 0) {
            smfw_log(SMFW_LOG_ERROR, NULL, "cannot create a temporary folder for %s", out_s3);
            goto done;
        }
        /* The local folder is named as the prefix's last part (the run name of the reports). */
        char leaf[1100];
        snprintf(leaf, sizeof leaf, "%s", out_s3 + 5);
        size_t len = strlen(leaf);
        while (len && leaf[len - 1] == '/') leaf[--len] = '\0';
        const char *b = strrchr(leaf, '/');
        char run_name[256];
        snprintf(run_name, sizeof run_name, "%s", b && b[1] ? b + 1 : "merged");
        smfw_path_component_sanitize(run_name);
        snprintf(out_local, sizeof out_local, "%s/%s", out_root, run_name);
        out_arg = out_local;
    }
    for (size_t i = 0; i < n; i++) {
        if (!smfw_results_s3_is_uri(cli.positional[i])) {
            dirs[i] = cli.positional[i];
            continue;
        }
        if (n != 1) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "%s: give an s3:// prefix as the only argument (its shard folders are the "
                     "parts)",
                     cli.positional[i]);
            goto done;
        }
        if (make_tmp("smfw-merge", tmp_root, sizeof tmp_root) != 0) {
            smfw_log(SMFW_LOG_ERROR, NULL, "cannot create a temporary folder for %s",
                     cli.positional[i]);
            goto done;
        }
        if (smfw_results_s3_fetch(cli.cfg, cli.positional[i], tmp_root, o.allow_incomplete,
                                  &s3_parts, &n_s3, &err) != SMFW_OK) {
            rc = smfw_cli_fail(&err);
            goto done;
        }
        free(dirs);
        dirs = calloc(n_s3, sizeof *dirs);
        if (!dirs) goto done;
        for (size_t k = 0; k < n_s3; k++) dirs[k] = s3_parts[k].dir;
        n = n_s3;
        break; /* the only argument */
    }
    parts = calloc(n, sizeof *parts);
    if (!parts) goto done;
    {
        const char *const *items;
        size_t k = smfw_settings_get_list(smfw_config_section(cli.cfg, "run"), "goodput", &items);
        if (smfw_goodput_parse(items, k, &slos, &n_slos, &err) != SMFW_OK) {
            rc = smfw_cli_fail(&err);
            goto done;
        }
    }
    int had_goodput = 0;
    for (size_t i = 0; i < n; i++) {
        parts[i] = smfw_results_new();
        if (!parts[i] || smfw_results_load_dir(parts[i], dirs[i], &err) != SMFW_OK) {
            smfw_log(SMFW_LOG_ERROR, NULL, "%s", parts[i] ? err.message : "out of memory");
            goto done;
        }
        if (s3_parts) {
            if (s3_parts[i].complete)
                printf("%s: %zu records (complete)\n", s3_parts[i].label, parts[i]->n_records);
            else
                printf("%s: %zu records from %zu chunks (incomplete: no final summary)\n",
                       s3_parts[i].label, parts[i]->n_records, s3_parts[i].chunks);
        }
        if (parts[i]->stats[SMFW_M_GOODPUT].present) had_goodput = 1;
    }
    if (s3_parts) adopt_identity(parts, s3_parts, n);
    if (had_goodput && !n_slos)
        SMFW_LOG_WARN(NULL, "the parts report goodput; give the same --goodput SLOs to recompute "
                            "it for the merged run");
    if (smfw_output_dir_create(NULL, NULL, out_arg, &out_dir, &err) != SMFW_OK) {
        rc = smfw_cli_fail(&err);
        goto done;
    }
    char jsonl[4200], name[256];
    snprintf(jsonl, sizeof jsonl, "%s/profile_export.jsonl", out_dir);
    const char *base = strrchr(out_dir, '/');
    snprintf(name, sizeof name, "%s", base && base[1] ? base + 1 : out_dir);
    o.jsonl_path = jsonl;
    o.run_name = name;
    o.slos = slos;
    o.n_slos = n_slos;
    smfw_merge_report rep;
    labels = calloc(n, sizeof *labels);
    if (!labels) goto done;
    for (size_t i = 0; i < n; i++) labels[i] = s3_parts ? s3_parts[i].label : dirs[i];
    if (smfw_results_merge((const smfw_results *const *)parts, labels, n, &o, &merged, &rep,
                           &err) != SMFW_OK) {
        rc = smfw_cli_fail(&err);
        remove(jsonl);
        remove(out_dir); /* only succeeds when the folder is still empty */
        goto done;
    }
    smfw_results_set_string(&merged->info.source_dir, out_dir);
    if (smfw_reporters_run(cli.reg, cli.cfg, NULL, 0, merged, out_dir, &err) != SMFW_OK) {
        rc = smfw_cli_fail(&err);
        goto done;
    }
    if (out_s3 && smfw_results_s3_put_dir(cli.cfg, out_dir, out_s3, &err) != SMFW_OK) {
        char why[sizeof err.message];
        snprintf(why, sizeof why, "%s", err.message);
        smfw_error_set(&err, err.status, "uploading the merged run to %s: %s (kept in %s)", out_s3,
                       why, out_dir);
        out_root[0] = '\0'; /* kept */
        rc = smfw_cli_fail(&err);
        goto done;
    }
    const char *shown = out_s3 ? out_s3 : out_dir;
    if (cli.verbosity >= 0) {
        smfw_run_summary_options so = {0};
        so.description = rep.description;
        so.results_dir = shown;
        smfw_run_summary_print(stdout, merged, &so);
    } else
        printf("%s\n", shown); /* -q: scripts still find the folder, as after `smfw run` */
    rc = 0;
done:
    smfw_results_free(merged);
    if (parts)
        for (size_t i = 0; i < n; i++) smfw_results_free(parts[i]);
    free(parts);
    free(labels);
    free(dirs);
    free(s3_parts);
    if (tmp_root[0]) smfw_remove_tree(tmp_root, NULL);
    if (out_root[0]) smfw_remove_tree(out_root, NULL);
    free(slos);
    free(out_dir);
    smfw_cli_cleanup(&cli);
    return rc;
}

const smfw_command smfw_command_merge = {
    "merge", "one run's exact aggregates from the records of several result folders (shards)",
    "Usage: smfw merge DIR...|s3://BUCKET/PREFIX/ -o OUT|s3://BUCKET/PREFIX2 [--allow-partial]\n"
    "                  [--allow-mismatch] [--allow-incomplete]\n"
    "                  [--allow-start-spread] [--goodput TAG:VALUE] [--report LIST]\n\n"
    "Recomputes every AIPerf metric and percentile from the per-request records\n"
    "(profile_export.jsonl) of the given folders: the shards of one test driven from several\n"
    "processes or machines (`smfw run --shard I/N`), or a managed bundle plus its re-analysis.\n"
    "Checks that the parts belong to one run (same target, workload and dataset; shards of\n"
    "one N, none twice, none missing) and that each folder's records cover its summary;\n"
    "a request present twice (same x_request_id) is counted once. Shards started with one\n"
    "--start-at must have begun within 2% of the merged window (clock error included when\n"
    "they ran on several hosts); the start spread is reported. Writes a new result folder\n"
    "OUT (records and reports) that `smfw results`, `compare` and `merge` read like any run.\n"
    "Merging a single folder recomputes that folder's own aggregates. An s3:// prefix\n"
    "(`smfw run -o s3://BUCKET/PREFIX/shard-I`) merges the shard folders under it; a shard\n"
    "killed before its summary needs --allow-incomplete (its record chunks are used).\n"
    "-o s3://BUCKET/PREFIX2 uploads the merged folder there (a new prefix, not inside the\n"
    "merged one); `smfw results --s3` shows it.\n"
    "See docs/scaling.md.",
    merge_main};
