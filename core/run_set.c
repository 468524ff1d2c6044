/*
 * run_set.c - a set of runs at several load levels (run_set.h): each level's
 * results, folder and point, kept in step so that sorting by load never
 * separates a point from the run it came from.
 */
#include <stdlib.h>
#include <string.h>

#include <smfw/capacity.h>

smfw_run_set *smfw_run_set_new(const char *mode, const char *dir) {
    smfw_run_set *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->duty_cycle = 1.0;
    if (!(s->mode = strdup(mode ? mode : "concurrency")) || (dir && !(s->dir = strdup(dir)))) {
        smfw_run_set_free(s);
        return NULL;
    }
    return s;
}

void smfw_run_set_free(smfw_run_set *s) {
    if (!s) return;
    for (size_t i = 0; i < s->n; i++) {
        smfw_results_free(s->results[i]);
        free(s->level_dirs[i]);
    }
    free(s->results);
    free(s->level_dirs);
    free(s->points);
    free(s->dir);
    free(s->mode);
    free(s->instance_type);
    free(s->opt_slos);
    free(s->opt_goodput_slos);
    free(s);
}

smfw_status smfw_run_set_add(smfw_run_set *s, smfw_results *results, double load, const char *dir,
                             smfw_error *err) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        smfw_results **r = realloc(s->results, cap * sizeof *r);
        if (r) s->results = r;
        char **d = r ? realloc(s->level_dirs, cap * sizeof *d) : NULL;
        if (d) s->level_dirs = d;
        smfw_sweep_point *p = d ? realloc(s->points, cap * sizeof *p) : NULL;
        if (!p) {
            smfw_results_free(results);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        }
        s->points = p;
        s->cap = cap;
    }
    char *copy = dir ? strdup(dir) : NULL;
    if (dir && !copy) {
        smfw_results_free(results);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    s->results[s->n] = results;
    s->level_dirs[s->n] = copy;
    smfw_sweep_point_from_results(results, load, &s->points[s->n]);
    s->n++;
    return SMFW_OK;
}

size_t smfw_run_set_count(const smfw_run_set *s) {
    return s ? s->n : 0;
}

const smfw_results *smfw_run_set_results(const smfw_run_set *s, size_t i) {
    return s && i < s->n ? s->results[i] : NULL;
}

const char *smfw_run_set_level_dir(const smfw_run_set *s, size_t i) {
    return s && i < s->n ? s->level_dirs[i] : NULL;
}

const smfw_sweep_point *smfw_run_set_point(const smfw_run_set *s, size_t i) {
    return s && i < s->n ? &s->points[i] : NULL;
}

const char *smfw_run_set_mode(const smfw_run_set *s) {
    return s ? s->mode : NULL;
}
const char *smfw_run_set_dir(const smfw_run_set *s) {
    return s ? s->dir : NULL;
}
const char *smfw_run_set_instance_type(const smfw_run_set *s) {
    return s ? s->instance_type : NULL;
}

/* Insertion sort by load, moving a level's results, folder and point together; stable, so
 * levels of equal load keep the order they were added in, and smfw_sweep_analyze() then
 * finds the points sorted and its indexes are the set's. */
static void sort_levels(smfw_run_set *s) {
    for (size_t i = 1; i < s->n; i++)
        for (size_t j = i; j > 0 && s->points[j].load < s->points[j - 1].load; j--) {
            smfw_sweep_point tp = s->points[j];
            s->points[j] = s->points[j - 1];
            s->points[j - 1] = tp;
            smfw_results *tr = s->results[j];
            s->results[j] = s->results[j - 1];
            s->results[j - 1] = tr;
            char *td = s->level_dirs[j];
            s->level_dirs[j] = s->level_dirs[j - 1];
            s->level_dirs[j - 1] = td;
        }
}

smfw_status smfw_run_set_analyze(smfw_run_set *s, const smfw_sweep_options *opts,
                                 smfw_sweep_analysis *out, smfw_error *err) {
    smfw_sweep_options o;
    if (opts)
        o = *opts;
    else
        memset(&o, 0, sizeof o);
    if (!(o.usd_per_hour > 0)) {
        o.usd_per_hour = s->usd_per_hour;
        if (!(o.duty_cycle > 0)) o.duty_cycle = s->duty_cycle;
    }
    if (!opts) o.load_is_rate = smfw_run_set_is_rate(s);
    sort_levels(s);
    smfw_status st = smfw_sweep_analyze(s->points, s->n, &o, out, err);
    if (st != SMFW_OK) return st;
    /* Kept for the reports (write_set): the SLO arrays copied, the caller's may go. */
    smfw_slo *slos = o.n_slos ? malloc(o.n_slos * sizeof *slos) : NULL;
    smfw_goodput_slo *good = o.n_goodput_slos ? malloc(o.n_goodput_slos * sizeof *good) : NULL;
    if ((o.n_slos && !slos) || (o.n_goodput_slos && !good)) {
        free(slos);
        free(good);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    if (slos) memcpy(slos, o.slos, o.n_slos * sizeof *slos);
    if (good) memcpy(good, o.goodput_slos, o.n_goodput_slos * sizeof *good);
    free(s->opt_slos);
    free(s->opt_goodput_slos);
    s->opt_slos = slos;
    s->opt_goodput_slos = good;
    o.slos = slos;
    o.goodput_slos = good;
    s->opts = o;
    s->analysis = *out;
    s->analyzed = 1;
    return SMFW_OK;
}
