/*
 * capture_files.c - find and order the Data Capture files under a folder
 * (capture_files.h).
 */
#define _XOPEN_SOURCE 700
#include "capture_files.h"

#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* nftw has no user pointer: the walk's output is shared, so walks take turns. */
static pthread_mutex_t g_walk_lock = PTHREAD_MUTEX_INITIALIZER;
static capture_files *g_collect; /* under g_walk_lock */
static int g_nomem;              /* under g_walk_lock */

static int all_digits(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i])) return 0;
    return 1;
}

/* Split the path into folders and find .../ENDPOINT/VARIANT/yyyy/mm/dd/hh/NAME. */
static void describe(capture_file *f) {
    const char *seg[64];
    size_t len[64], n = 0;
    for (const char *p = f->path; *p && n < 64;) {
        while (*p == '/') p++;
        if (!*p) break;
        seg[n] = p;
        len[n] = strcspn(p, "/");
        p += len[n];
        n++;
    }
    if (n < 5) return;
    size_t h = n - 2, d = n - 3, m = n - 4, y = n - 5;
    if (!(len[y] == 4 && all_digits(seg[y], 4) && len[m] == 2 && all_digits(seg[m], 2) &&
          len[d] == 2 && all_digits(seg[d], 2) && len[h] == 2 && all_digits(seg[h], 2)))
        return;
    const char *name = seg[n - 1];
    char mss[16] = "000000000";
    /* MM-SS-mmm-UUID.jsonl: the minute, second and millisecond of the first line */
    if (len[n - 1] >= 10 && all_digits(name, 2) && name[2] == '-' && all_digits(name + 3, 2) &&
        name[5] == '-' && all_digits(name + 6, 3))
        snprintf(mss, sizeof mss, "%.2s%.2s%.3s", name, name + 3, name + 6);
    snprintf(f->order, sizeof f->order, "%.4s%.2s%.2s%.2s%s", seg[y], seg[m], seg[d], seg[h], mss);
    if (y >= 1) snprintf(f->variant, sizeof f->variant, "%.*s", (int)len[y - 1], seg[y - 1]);
    if (y >= 2) snprintf(f->endpoint, sizeof f->endpoint, "%.*s", (int)len[y - 2], seg[y - 2]);
}

static int add_file(const char *path) {
    capture_files *c = g_collect;
    capture_file *nf = realloc(c->files, (c->count + 1) * sizeof *nf);
    if (!nf) return -1;
    c->files = nf;
    capture_file *f = &c->files[c->count];
    memset(f, 0, sizeof *f);
    if (!(f->path = strdup(path))) return -1;
    c->count++;
    describe(f);
    return 0;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st, (void)ftw;
    size_t n = strlen(path);
    if (type == FTW_F && n > 6 && !strcmp(path + n - 6, ".jsonl") && add_file(path) != 0) {
        g_nomem = 1;
        return 1;
    }
    return 0;
}

static int by_time(const void *a, const void *b) {
    const capture_file *x = a, *y = b;
    int c = strcmp(x->order, y->order);
    return c ? c : strcmp(x->path, y->path);
}

smfw_status capture_files_find(const char *dir, capture_files *out, smfw_error *err) {
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(dir, &st) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "capture: cannot read %s: %s", dir,
                              strerror(errno));
    pthread_mutex_lock(&g_walk_lock);
    g_collect = out;
    g_nomem = 0;
    int walk_failed = 0, walk_errno = 0;
    if (S_ISREG(st.st_mode)) {
        if (add_file(dir) != 0) g_nomem = 1;
    } else if (nftw(dir, visit, 16, FTW_PHYS) != 0 && !g_nomem) {
        walk_failed = 1;
        walk_errno = errno;
    }
    int nomem = g_nomem;
    g_collect = NULL;
    pthread_mutex_unlock(&g_walk_lock);
    if (walk_failed) {
        capture_files_free(out);
        return smfw_error_set(err, SMFW_ERR_IO, "capture: cannot walk %s: %s", dir,
                              strerror(walk_errno));
    }
    if (nomem) {
        capture_files_free(out);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    if (out->count == 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "capture: no .jsonl file under %s (Data Capture writes "
                              "ENDPOINT/VARIANT/yyyy/mm/dd/hh/*.jsonl)",
                              dir);
    qsort(out->files, out->count, sizeof *out->files, by_time);
    return SMFW_OK;
}

void capture_files_free(capture_files *f) {
    for (size_t i = 0; i < f->count; i++) free(f->files[i].path);
    free(f->files);
    memset(f, 0, sizeof *f);
}
