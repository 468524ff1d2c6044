/*
 * run_set_dir.c - a run set read from a sweep folder: one result folder per level
 * (concurrency_<N>/ or request_rate_<R>/, as AIPerf's multi-run bundles and
 * `smfw sweep` name them) plus sweep.json with the instance and price.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/capacity.h>
#include <smfw/log.h>

/* "concurrency_16" -> 16 (mode concurrency), "request_rate_2.5" -> 2.5; AIPerf's own
 * artifact names end the same way ("...-openai-chat-concurrency16", "qwen_concurrency4"). */
static int level_of(const char *name, double *load, const char **mode) {
    static const struct {
        const char *word, *mode;
    } kinds[] = {{"concurrency", "concurrency"}, {"request_rate", "request_rate"}};
    for (size_t k = 0; k < 2; k++) {
        const char *at = NULL;
        for (const char *p = strstr(name, kinds[k].word); p; p = strstr(p + 1, kinds[k].word))
            at = p;
        if (!at || (at != name && at[-1] != '_' && at[-1] != '-')) continue;
        const char *num = at + strlen(kinds[k].word);
        if (*num == '_') num++;
        char *end = NULL;
        double v = strtod(num, &end);
        if (end == num || *end || !(v > 0) || !isfinite(v)) continue;
        *load = v;
        *mode = kinds[k].mode;
        return 1;
    }
    return 0;
}

static int is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

typedef struct found_level {
    char *path;
    double load;
    const char *mode;
} found_level;

static int cmp_found(const void *a, const void *b) {
    double x = ((const found_level *)a)->load, y = ((const found_level *)b)->load;
    return x < y ? -1 : x > y;
}

/* Level folders directly in dir; returns how many were appended. */
static smfw_status scan(const char *dir, found_level **out, size_t *n, smfw_error *err) {
    DIR *d = opendir(dir);
    if (!d)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot read folder %s: %s", dir, strerror(errno));
    struct dirent *e;
    smfw_status st = SMFW_OK;
    while ((e = readdir(d)) != NULL) {
        double load;
        const char *mode;
        if (!level_of(e->d_name, &load, &mode)) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!is_dir(path)) continue;
        /* A level cut short is not that level's behaviour: the sweep that wrote it left it
         * out of its analysis, and so does every later reading. */
        char note[4200];
        snprintf(note, sizeof note, "%s/PARTIAL.txt", path);
        if (access(note, F_OK) == 0) {
            SMFW_LOG_WARN(NULL, "%s is a partial level (PARTIAL.txt): left out of the sweep", path);
            continue;
        }
        found_level *g = realloc(*out, (*n + 1) * sizeof *g);
        if (!g || !(g[*n].path = strdup(path))) {
            if (g) *out = g;
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            break;
        }
        *out = g;
        g[*n].load = load;
        g[*n].mode = mode;
        (*n)++;
    }
    closedir(d);
    return st;
}

static void read_sweep_json(smfw_run_set *s) {
    char path[4096];
    snprintf(path, sizeof path, "%s/sweep.json", s->dir);
    json_t *root = json_load_file(path, 0, NULL);
    if (!json_is_object(root)) {
        json_decref(root);
        return;
    }
    const char *it = json_string_value(json_object_get(root, "instance_type"));
    if (it && (s->instance_type = strdup(it)) == NULL) s->instance_type = NULL;
    json_t *p = json_object_get(root, "usd_per_hour");
    if (json_is_number(p)) s->usd_per_hour = json_number_value(p);
    json_t *dc = json_object_get(root, "duty_cycle");
    if (json_is_number(dc) && json_number_value(dc) > 0 && json_number_value(dc) <= 1)
        s->duty_cycle = json_number_value(dc);
    json_decref(root);
}

smfw_status smfw_run_set_load_dir(const char *dir, smfw_run_set **out, smfw_error *err) {
    *out = NULL;
    found_level *found = NULL;
    size_t n = 0;
    smfw_status st = scan(dir, &found, &n, err);
    if (st == SMFW_OK && n == 0) {
        /* A managed bundle may nest the level folders one level down. */
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL && st == SMFW_OK && n == 0) {
            if (e->d_name[0] == '.') continue;
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
            if (is_dir(sub)) st = scan(sub, &found, &n, err);
        }
        if (d) closedir(d);
    }
    if (st == SMFW_OK && n == 0)
        st = smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                            "%s holds no concurrency_<N>/ or request_rate_<R>/ result folders "
                            "(not a sweep)",
                            dir);
    for (size_t i = 1; st == SMFW_OK && i < n; i++)
        if (strcmp(found[i].mode, found[0].mode) != 0)
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "%s mixes concurrency and request-rate levels; keep one kind of "
                                "sweep per folder",
                                dir);
    smfw_run_set *s = NULL;
    if (st == SMFW_OK) {
        qsort(found, n, sizeof *found, cmp_found);
        if (!(s = smfw_run_set_new(found[0].mode, dir)))
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; st == SMFW_OK && i < n; i++) {
        smfw_results *r = smfw_results_new();
        if (!r) {
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            break;
        }
        st = smfw_results_load_dir(r, found[i].path, err);
        if (st != SMFW_OK)
            smfw_results_free(r);
        else
            st = smfw_run_set_add(s, r, found[i].load, found[i].path, err);
    }
    for (size_t i = 0; i < n; i++) free(found[i].path);
    free(found);
    if (st != SMFW_OK) {
        smfw_run_set_free(s);
        return st;
    }
    read_sweep_json(s);
    *out = s;
    return SMFW_OK;
}
