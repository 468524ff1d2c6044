/*
 * sweep_execute.c - a sweep's levels run one after the other, each the configured run at one
 * load, into the set's folder: the owner of runs of runs (with run_set.c) in the library, so
 * the program only parses the levels and prints (its callbacks).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/app.h>
#include <smfw/log.h>

static smfw_status set_level(smfw_config *cfg, const char *section, const char *key,
                             const char *value, smfw_error *err) {
    /* One level per run: replace whatever the flags or the file said. */
    return smfw_config_override(cfg, section, key, value, "smfw sweep (level)", err);
}

/* A level cut short is not that level's behaviour: its folder is kept and marked, and it is
 * left out of the analysis so it is never recommended (run_set_dir.c skips it too). */
static void mark_partial(const char *dir, size_t records) {
    char note[4400];
    snprintf(note, sizeof note, "%s/PARTIAL.txt", dir);
    FILE *pf = fopen(note, "w");
    if (!pf) {
        SMFW_LOG_WARN(NULL, "cannot mark %s as a partial level", dir);
        return;
    }
    fprintf(pf,
            "interrupted after %zu requests: a partial level, left out of the sweep's analysis\n",
            records);
    fclose(pf);
}

smfw_status smfw_sweep_execute(const smfw_registry *reg, smfw_config *cfg,
                               const smfw_sweep_plan *plan, const smfw_run_options *run_opts,
                               smfw_run_set *set, int64_t *sent, smfw_error *err) {
    *sent = 0;
    const smfw_settings *run = smfw_config_section(cfg, "run");
    int is_rate = plan->is_rate;
    const char *kind = is_rate ? "request_rate" : "concurrency";
    int user_warmup =
        smfw_settings_source(run, "warmup_request_count", NULL, NULL) != SMFW_SOURCE_DEFAULT;
    long user_warmup_n = (long)smfw_settings_get_int(run, "warmup_request_count", 0);
    smfw_run_options opts = *run_opts;
    for (size_t i = 0; i < plan->n_levels; i++) {
        char value[64], sub[4300], rn[400], wu[32];
        snprintf(value, sizeof value, "%.*g", is_rate ? 10 : 15, plan->levels[i]);
        snprintf(sub, sizeof sub, "%s/%s_%s", smfw_run_set_dir(set), kind, value);
        snprintf(rn, sizeof rn, "%s-%s_%s", plan->sweep_name, kind, value);
        /* Warm-up: one round of the level's load refills the batch at the new level; the
         * first level also pays for graph capture and cache warm-up. */
        long warm = user_warmup ? user_warmup_n : (long)ceil(plan->levels[i]);
        if (i == 0) warm += plan->initial_warmup;
        snprintf(wu, sizeof wu, "%ld", warm);
        smfw_status st;
        if ((st = set_level(cfg, "run", kind, value, err)) != SMFW_OK ||
            (st = set_level(cfg, "run", "warmup_request_count", wu, err)) != SMFW_OK ||
            (st = set_level(cfg, "smfw", "run_name", rn, err)) != SMFW_OK)
            return st;
        smfw_sweep_level_event ev = {sizeof ev, i,    plan->levels[i], value, sub,
                                     warm,      NULL, SMFW_OK,         0};
        if (plan->on_level_start) plan->on_level_start(plan->user, &ev);
        opts.output_dir = sub;
        smfw_results *r = NULL;
        char *dir = NULL;
        st = smfw_run_execute(reg, cfg, &opts, &r, &dir, err);
        free(dir);
        int have = r && (r->stats[SMFW_M_REQUEST_COUNT].present ||
                         r->stats[SMFW_M_ERROR_REQUEST_COUNT].present);
        ev.results = have ? r : NULL;
        ev.status = st;
        ev.partial = have && st == SMFW_ERR_CANCELLED;
        if (ev.partial) mark_partial(sub, r->n_records);
        if (plan->on_level_end) plan->on_level_end(plan->user, &ev);
        smfw_status added = SMFW_OK;
        smfw_error add_err;
        if (have && !ev.partial) {
            smfw_results_set_string(&r->info.source_dir, sub);
            *sent += (int64_t)r->n_records + warm;
            added = smfw_run_set_add(set, r, plan->levels[i], sub, &add_err); /* takes r */
        } else {
            smfw_results_free(r);
        }
        if (added != SMFW_OK) {
            if (err) *err = add_err;
            return added;
        }
        if (st == SMFW_ERR_CANCELLED) {
            SMFW_LOG_WARN(NULL, "sweep interrupted; analysing the %zu finished levels",
                          smfw_run_set_count(set));
            return smfw_error_set(err, SMFW_ERR_CANCELLED, "interrupted");
        }
        if (st != SMFW_OK && st != SMFW_ERR_VALIDITY) {
            if (!have) return st; /* nothing measured at this level: setup or connection */
            SMFW_LOG_WARN(NULL, "level %s: %s", value, err ? err->message : "");
        }
    }
    return SMFW_OK;
}
