/*
 * levels.c - what a downloaded bundle becomes in the run folder.
 *
 * One run: its records are linked into the run folder and it is loaded
 * into the run's results (the core then runs the reporters there). A
 * concurrency list: every concurrency_<N>/ level of the bundle gets its own
 * folder <run folder>/concurrency_<N>/ holding the level's records and
 * smfw's reports - the layout `smfw sweep`, `smfw results --local` and the
 * HTML sweep chart read - and its own headline block and validity verdict;
 * with SLOs, the highest level meeting them is named.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/archive.h>
#include <smfw/log.h>

#include <smfw/untrusted.h>

#include "managed.h"

void managed_identity_apply(const managed_identity *id, int64_t concurrency, smfw_results *r) {
    smfw_run_info *info = smfw_results_info_edit(r);
    char target[768];
    char level[48] = "";
    if (concurrency > 0)
        snprintf(level, sizeof level, ", concurrency %lld", (long long)concurrency);
    snprintf(target, sizeof target, "SageMaker endpoint %s%s%s (%s), managed benchmark job %s%s",
             id->endpoint, id->inference_component ? " / " : "",
             id->inference_component ? id->inference_component : "", id->region, id->job, level);
    smfw_results_set_string(&info->backend, "managed");
    smfw_results_set_string(&info->target, target);
    smfw_results_set_string(&info->job_name, id->job);
    smfw_results_set_string(&info->endpoint_name, id->endpoint);
    smfw_results_set_string(&info->inference_component, id->inference_component);
    smfw_results_set_string(&info->region, id->region);
    smfw_results_set_string(&info->url, NULL);
    info->max_error_rate = id->max_error_rate;
    if (concurrency > 0) info->concurrency = concurrency;
}

/* Copy a file byte for byte (a new inode: a reporter rewriting it leaves the bundle alone). */
static int copy_file(const char *from, const char *to) {
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0) return -1;
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) {
        close(in);
        return -1;
    }
    char buf[65536];
    ssize_t n;
    int rc = 0;
    while ((n = read(in, buf, sizeof buf)) > 0) {
        for (ssize_t o = 0; o < n;) {
            ssize_t w = write(out, buf + o, (size_t)(n - o));
            if (w < 0) {
                if (errno == EINTR) continue;
                rc = -1;
                break;
            }
            o += w;
        }
        if (rc) break;
    }
    if (n < 0) rc = -1;
    close(in);
    if (close(out) != 0) rc = -1;
    return rc;
}

/*
 * Put `name` of the bundle run into the run folder: hard-linked when `link_ok`
 * (files no reporter writes: records, failure_reason.txt), else copied.
 */
static void place(const char *from_dir, const char *to_dir, const char *name, int link_ok) {
    char from[4200], to[4200];
    struct stat st;
    snprintf(from, sizeof from, "%s/%s", from_dir, name);
    snprintf(to, sizeof to, "%s/%s", to_dir, name);
    if (lstat(from, &st) != 0 || !S_ISREG(st.st_mode) || lstat(to, &st) == 0) return;
    if (link_ok && link(from, to) == 0) return;
    if (copy_file(from, to) != 0) {
        SMFW_LOG_WARN("managed", "cannot copy %s to %s: %s", from, to, strerror(errno));
        unlink(to);
    }
}

smfw_status managed_run_load(const char *run_dir, const char *out_dir, const managed_identity *id,
                             int64_t concurrency, smfw_results *results, smfw_error *err) {
    smfw_status st = smfw_results_load_dir(results, run_dir, err);
    if (st != SMFW_OK) return st;
    managed_identity_apply(id, concurrency, results);
    double rate = smfw_results_error_rate(results);
    smfw_run_info *info = smfw_results_info_edit(results);
    if (!info->gate_tripped && rate > info->max_error_rate) {
        char reason[256];
        snprintf(reason, sizeof reason, "error rate %.2f%% is above the gate of %.2f%%", rate * 100,
                 info->max_error_rate * 100);
        info->gate_tripped = 1;
        smfw_results_set_string(&info->failure_reason, reason);
    }
    /* The run folder reads like a direct run's: records, aggregates and the gate's evidence
     * beside the reports (the JSON reporter, when configured, rewrites the aggregates: a copy,
     * so the bundle keeps AIPerf's file). */
    if (out_dir) {
        place(run_dir, out_dir, "profile_export.jsonl", 1);
        place(run_dir, out_dir, "failure_reason.txt", 1);
        place(run_dir, out_dir, "profile_export_aiperf.json", 0);
    }
    return SMFW_OK;
}

/* Good fraction of a level: good_request_count / request_count (AIPerf goodput). */
static double good_fraction(const smfw_results *r) {
    const smfw_stats *good = smfw_results_stat(r, SMFW_M_GOOD_REQUEST_COUNT);
    const smfw_stats *all = smfw_results_stat(r, SMFW_M_REQUEST_COUNT);
    if (!good || !all || all->avg <= 0) return -1;
    return good->avg / all->avg;
}

smfw_status managed_levels_report(const smfw_bundle_run *runs, size_t n, const smfw_config *cfg,
                                  smfw_run_set *set, const char *out_dir,
                                  const managed_identity *id, int quiet,
                                  managed_levels_outcome *outcome, smfw_error *err) {
    memset(outcome, 0, sizeof *outcome);
    const smfw_settings *mine = smfw_config_section(cfg, "backend.managed");
    const char *const *sla;
    size_t n_sla = mine ? smfw_settings_get_list(mine, "sla", &sla) : 0;
    double attainment = 0; /* declared 0.9 */
    const smfw_setting_binding att[] = {{NULL, "sla_attainment", SMFW_BIND_DOUBLE, 0, 0},
                                        SMFW_BINDINGS_END};
    if (mine) {
        smfw_status bst = smfw_settings_bind(mine, att, &attainment, err);
        if (bst != SMFW_OK) return bst;
    }
    smfw_status first = SMFW_OK;
    int64_t best = -1;
    if (!quiet) fprintf(stdout, "\nManaged benchmark job %s: %zu concurrency levels\n", id->job, n);
    for (size_t i = 0; i < n; i++) {
        char sub[4300], leaf[64];
        if (runs[i].concurrency)
            snprintf(leaf, sizeof leaf, "concurrency_%lld", (long long)runs[i].concurrency);
        else
            snprintf(leaf, sizeof leaf, "run_%zu", i + 1);
        if (smfw_mkdir_unique(out_dir, leaf, sub, sizeof sub) != 0) {
            smfw_error_set(err, SMFW_ERR_IO, "cannot create %s: %s", sub, strerror(errno));
            first = SMFW_ERR_IO;
            break;
        }
        smfw_results *lvl = smfw_results_new();
        if (!lvl) {
            first = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            break;
        }
        smfw_error e;
        smfw_error_clear(&e);
        smfw_status st = managed_run_load(runs[i].dir, sub, id, runs[i].concurrency, lvl, &e);
        if (st != SMFW_OK) {
            SMFW_LOG_ERR("managed", "level %s: %s", runs[i].dir, e.message);
            if (first == SMFW_OK) {
                first = st;
                *err = e;
            }
            smfw_results_free(lvl);
            continue;
        }
        smfw_run_info *info = smfw_results_info_edit(lvl);
        smfw_results_set_string(&info->source_dir, sub);
        /* The set owns the level from here; the core writes its reports in `sub`. */
        if ((st = smfw_run_set_add(set, lvl, (double)runs[i].concurrency, sub, &e)) != SMFW_OK) {
            if (first == SMFW_OK) {
                first = st;
                *err = e;
            }
            break;
        }
        outcome->levels++;
        if (info->gate_tripped) outcome->tripped++;
        char title[4400];
        if (runs[i].concurrency)
            snprintf(title, sizeof title, "Results at concurrency %lld (%s)",
                     (long long)runs[i].concurrency, sub);
        else
            snprintf(title, sizeof title, "Results (%s)", sub);
        if (!quiet) {
            smfw_bundle_print_headline(lvl, title, info->max_error_rate, stdout);
            fprintf(stdout, "  reports: %s\n", sub);
        }
        double good = good_fraction(lvl);
        if (n_sla) {
            int meets = good >= attainment && !info->gate_tripped;
            if (!quiet)
                fprintf(stdout, "  SLA: %.1f%% of requests within every SLO (%s %.0f%%)\n",
                        good >= 0 ? good * 100 : 0.0, meets ? "meets" : "below", attainment * 100);
            if (meets && runs[i].concurrency > best) best = runs[i].concurrency;
        }
        if (outcome->first_start_ns == 0 ||
            (info->start_wall_ns && info->start_wall_ns < outcome->first_start_ns))
            outcome->first_start_ns = info->start_wall_ns;
        if (info->end_wall_ns > outcome->last_end_ns) outcome->last_end_ns = info->end_wall_ns;
    }
    outcome->sla_concurrency = best;
    if (n_sla && !quiet) {
        if (best > 0)
            fprintf(stdout,
                    "\nHighest concurrency meeting the SLA (%.0f%% of requests within every SLO): "
                    "%lld\n",
                    attainment * 100, (long long)best);
        else
            fprintf(stdout,
                    "\nNo concurrency level met the SLA (%.0f%% of requests within every SLO)\n",
                    attainment * 100);
    }
    if (!quiet)
        fprintf(stdout, "\nEvery level: smfw results --local %s (or smfw sweep --from %s)\n",
                out_dir, out_dir);
    return first;
}
