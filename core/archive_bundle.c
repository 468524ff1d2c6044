/*
 * archive_bundle.c - find the AIPerf runs inside an extracted bundle: the
 * folder itself, its "concurrency_<N>" levels (a concurrency-list job), or
 * the same one or two folders further down ("output/...").
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/archive.h>
#include <smfw/log.h>

#define BUNDLE_MAX_DEPTH 3
#define BUNDLE_MAX_RUNS  4096
/* Far above any real concurrency; keeps "concurrency_<N>" names short and exact. */
#define SMFW_BUNDLE_MAX_CONCURRENCY 1000000000LL

typedef struct run_list {
    smfw_bundle_run *v;
    size_t n, cap;
    int oom;
} run_list;

static int is_file(const char *dir, const char *name) {
    char p[4200];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return lstat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int holds_run(const char *dir) {
    return is_file(dir, "profile_export_aiperf.json") || is_file(dir, "profile_export.jsonl");
}

/* N of "concurrency_<N>", "concurrency<N>" or "...-concurrency<N>"; 0 when none. */
static int64_t concurrency_of(const char *name) {
    const char *best = NULL;
    for (const char *p = name; (p = strstr(p, "concurrency")) != NULL; p++) best = p;
    if (!best) return 0;
    const char *d = best + strlen("concurrency");
    if (*d == '_' || *d == '-') d++;
    if (!isdigit((unsigned char)*d)) return 0;
    char *end;
    errno = 0;
    long long v = strtoll(d, &end, 10);
    if (*end != '\0' || v <= 0) return 0;
    /* Out of range is not a level (strtoll clamped it to INT64_MAX silently). */
    if (errno == ERANGE || v > SMFW_BUNDLE_MAX_CONCURRENCY) {
        SMFW_LOG_WARN("results",
                      "folder %s: concurrency %s is out of range (1..%lld); read as a "
                      "run, not a level",
                      name, d, (long long)SMFW_BUNDLE_MAX_CONCURRENCY);
        return 0;
    }
    return (int64_t)v;
}

static void add_run(run_list *l, const char *dir, int64_t conc) {
    if (l->n >= BUNDLE_MAX_RUNS) return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        smfw_bundle_run *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->oom = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    snprintf(l->v[l->n].dir, sizeof l->v[l->n].dir, "%s", dir);
    l->v[l->n].concurrency = conc;
    l->n++;
}

static int name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the real (non-link) subfolders of dir. */
static size_t subdirs(const char *dir, char ***out) {
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d) return 0;
    char **v = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        char p[4200];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        if (lstat(p, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nv = realloc(v, cap * sizeof *nv);
            if (!nv) break;
            v = nv;
        }
        v[n] = strdup(de->d_name);
        if (v[n]) n++;
    }
    closedir(d);
    if (n) qsort(v, n, sizeof *v, name_cmp);
    *out = v;
    return n;
}

static void free_names(char **v, size_t n) {
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

static void find_runs(const char *dir, int depth, run_list *l) {
    if (holds_run(dir)) {
        add_run(l, dir, 0);
        return;
    }
    char **names;
    size_t n = subdirs(dir, &names);
    size_t before = l->n;
    char p[4096];
    for (size_t i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (holds_run(p)) add_run(l, p, concurrency_of(names[i]));
    }
    if (l->n == before && depth < BUNDLE_MAX_DEPTH)
        for (size_t i = 0; i < n; i++) {
            snprintf(p, sizeof p, "%s/%s", dir, names[i]);
            find_runs(p, depth + 1, l);
        }
    free_names(names, n);
}

static int run_cmp(const void *a, const void *b) {
    const smfw_bundle_run *x = a, *y = b;
    if (x->concurrency != y->concurrency) return x->concurrency < y->concurrency ? -1 : 1;
    return strcmp(x->dir, y->dir);
}

smfw_status smfw_bundle_find_runs(const char *dir, smfw_bundle_run **out, size_t *n_out,
                                  smfw_error *err) {
    *out = NULL;
    *n_out = 0;
    struct stat st;
    if (stat(dir, &st) != 0)
        return smfw_error_set(err, errno == ENOENT ? SMFW_ERR_NOT_FOUND : SMFW_ERR_IO,
                              "cannot read %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return smfw_error_set(err, SMFW_ERR_IO, "%s is not a folder", dir);
    run_list l = {NULL, 0, 0, 0};
    find_runs(dir, 0, &l);
    if (l.oom) {
        free(l.v);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    if (!l.n) {
        free(l.v);
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                              "%s holds no AIPerf results (no profile_export_aiperf.json or "
                              "profile_export.jsonl in it, in its concurrency_<N> folders or up "
                              "to %d folders down)",
                              dir, BUNDLE_MAX_DEPTH);
    }
    /* Sort sweep levels by N; a lone run stays as found. */
    int sweep = 0;
    for (size_t i = 0; i < l.n; i++)
        if (l.v[i].concurrency) sweep = 1;
    if (sweep) qsort(l.v, l.n, sizeof *l.v, run_cmp);
    *out = l.v;
    *n_out = l.n;
    return SMFW_OK;
}
