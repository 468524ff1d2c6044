/*
 * tarball.c - pack a job's bundle folder as output.tar.gz with libarchive,
 * every entry under the "output/" prefix (as SageMaker's bundles are), in
 * sorted order so two identical folders give identical member lists.
 */
#define _XOPEN_SOURCE 700
#include "jobs.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_file(struct archive *a, const char *path, const char *name, const struct stat *st,
                    char *err, size_t err_size) {
    struct archive_entry *e = archive_entry_new();
    if (!e) abort();
    archive_entry_set_pathname(e, name);
    archive_entry_set_mtime(e, st->st_mtime, 0);
    if (S_ISDIR(st->st_mode)) {
        archive_entry_set_filetype(e, AE_IFDIR);
        archive_entry_set_perm(e, 0755);
    } else {
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, st->st_size);
    }
    int rc = 0;
    if (archive_write_header(a, e) != ARCHIVE_OK) {
        snprintf(err, err_size, "cannot add %s to the bundle: %s", name, archive_error_string(a));
        rc = -1;
    }
    if (rc == 0 && S_ISREG(st->st_mode)) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
            rc = -1;
        }
        char buf[65536];
        ssize_t n;
        while (rc == 0 && (n = read(fd, buf, sizeof buf)) > 0) {
            if (archive_write_data(a, buf, (size_t)n) != n) {
                snprintf(err, err_size, "cannot add %s to the bundle: %s", name,
                         archive_error_string(a));
                rc = -1;
            }
        }
        if (fd >= 0) close(fd);
    }
    archive_entry_free(e);
    return rc;
}

/* Add dir's entries (recursively) as prefix/<name>. */
static int add_tree(struct archive *a, const char *dir, const char *prefix, int depth, char *err,
                    size_t err_size) {
    if (depth > 16) return 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, err_size, "cannot list %s: %s", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            names = realloc(names, cap * sizeof *names);
            if (!names) abort();
        }
        names[n] = strdup(de->d_name);
        if (!names[n]) abort();
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, name_cmp);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096], name[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(name, sizeof name, "%s/%s", prefix, names[i]);
        /* Only plain files and folders: never follow or pack a link. */
        if (rc == 0 && lstat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
            rc = add_file(a, path, name, &st, err, err_size);
            if (rc == 0 && S_ISDIR(st.st_mode))
                rc = add_tree(a, path, name, depth + 1, err, err_size);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int mock_bundle_pack(const char *dir, const char *tarball, char *err, size_t err_size) {
    struct archive *a = archive_write_new();
    if (!a) abort();
    archive_write_add_filter_gzip(a);
    archive_write_set_format_pax_restricted(a);
    if (archive_write_open_filename(a, tarball) != ARCHIVE_OK) {
        snprintf(err, err_size, "cannot create %s: %s", tarball, archive_error_string(a));
        archive_write_free(a);
        return -1;
    }
    struct stat st;
    int rc = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
    if (rc != 0) snprintf(err, err_size, "bundle folder %s is missing", dir);
    if (rc == 0) rc = add_file(a, dir, "output", &st, err, err_size);
    if (rc == 0) rc = add_tree(a, dir, "output", 0, err, err_size);
    if (archive_write_close(a) != ARCHIVE_OK && rc == 0) {
        snprintf(err, err_size, "cannot finish %s: %s", tarball, archive_error_string(a));
        rc = -1;
    }
    archive_write_free(a);
    return rc;
}
