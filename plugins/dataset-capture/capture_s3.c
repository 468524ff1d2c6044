/*
 * capture_s3.c - fetch a Data Capture tree from S3 into a temporary folder
 * (capture_s3.h).
 */
#define _XOPEN_SOURCE 700
#include "capture_s3.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/aws.h>

#define CAPTURE_S3_MAX_OBJECTS 200000

typedef struct key_list {
    char **keys;
    size_t n, cap;
    int nomem;
} key_list;

static int collect(const smfw_aws_s3_object *o, void *user) {
    key_list *l = user;
    size_t n = strlen(o->key);
    if (n < 6 || strcmp(o->key + n - 6, ".jsonl") != 0) return 0;
    if (l->n == CAPTURE_S3_MAX_OBJECTS) return 1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **nk = realloc(l->keys, cap * sizeof *nk);
        if (!nk) {
            l->nomem = 1;
            return 1;
        }
        l->keys = nk;
        l->cap = cap;
    }
    if (!(l->keys[l->n] = strdup(o->key))) {
        l->nomem = 1;
        return 1;
    }
    l->n++;
    return 0;
}

static int mkdir_parents(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        int rc = mkdir(path, 0700);
        *p = '/';
        if (rc != 0 && errno != EEXIST) return -1;
    }
    return 0;
}

/* A key that would leave the folder ("..", absolute) is refused: keys are not trusted. */
static int key_safe(const char *k) {
    if (k[0] == '/') return 0;
    for (const char *p = k; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == k || p[-1] == '/') && (p[2] == '/' || p[2] == '\0')) return 0;
    return 1;
}

smfw_status capture_s3_fetch(const char *uri, char *dir, size_t dir_size, smfw_error *err) {
    char bucket[64], prefix[1024];
    if (smfw_aws_s3_uri_split(uri, bucket, sizeof bucket, prefix, sizeof prefix, NULL) != SMFW_OK)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--dataset-file %s: want s3://BUCKET/PREFIX/ of a Data Capture tree",
                              uri);
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, dir_size, "%s/smfw-capture.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return smfw_error_set(err, SMFW_ERR_IO, "capture: cannot make a folder in %s: %s",
                              tmp && *tmp ? tmp : "/tmp", strerror(errno));
    smfw_aws_options ao;
    memset(&ao, 0, sizeof ao);
    smfw_aws_client *c = NULL;
    key_list l = {0};
    smfw_status st = smfw_aws_client_new(&ao, &c, err);
    if (st == SMFW_OK) st = smfw_aws_s3_list_objects(c, bucket, prefix, collect, &l, err);
    if (st == SMFW_OK && l.nomem) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (st == SMFW_OK && l.n == 0)
        st = smfw_error_set(err, SMFW_ERR_CONFIG, "capture: no .jsonl object under %s", uri);
    for (size_t i = 0; i < l.n && st == SMFW_OK; i++) {
        if (!key_safe(l.keys[i])) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "capture: object key \"%s\" of %s is not a plain path", l.keys[i],
                                uri);
            break;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, l.keys[i]);
        if (mkdir_parents(path) != 0)
            st = smfw_error_set(err, SMFW_ERR_IO, "capture: cannot write under %s: %s", dir,
                                strerror(errno));
        else
            st = smfw_aws_s3_get_object_file(c, bucket, l.keys[i], path, err);
    }
    for (size_t i = 0; i < l.n; i++) free(l.keys[i]);
    free(l.keys);
    smfw_aws_client_free(c);
    if (st != SMFW_OK) capture_s3_remove(dir);
    return st;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

void capture_s3_remove(const char *dir) {
    if (dir && *dir) nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
