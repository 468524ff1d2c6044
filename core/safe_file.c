/*
 * safe_file.c - creating files in folders smfw does not fully control: a
 * temporary of an unpredictable name made with O_EXCL (mkstemp), so a
 * planted file or symbolic link of the expected name is never opened or
 * followed, then published under its real name, without replacing one
 * that appeared meanwhile when asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/untrusted.h>

int smfw_mkdir_p(const char *path, unsigned mode, int *created) {
    char tmp[4096];
    if (created) *created = 0;
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(tmp, (mode_t)mode) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, (mode_t)mode) == 0) {
        if (created) *created = 1;
        return 0;
    }
    return errno == EEXIST ? 0 : -1;
}

int smfw_tmpfile_beside(const char *path, char **tmp_out) {
    *tmp_out = NULL;
    size_t n = strlen(path) + 16;
    char *t = malloc(n);
    if (!t) {
        errno = ENOMEM;
        return -1;
    }
    snprintf(t, n, "%s.XXXXXX", path);
    /* The temporary sits beside the target: hide it as ".NAME.XXXXXX". */
    char *slash = strrchr(t, '/');
    char *base = slash ? slash + 1 : t;
    memmove(base + 1, base, strlen(base) + 1);
    *base = '.';
    int fd = mkstemp(t);
    if (fd < 0) {
        int e = errno;
        free(t);
        errno = e;
        return -1;
    }
    fchmod(fd, 0644);
    *tmp_out = t;
    return fd;
}

int smfw_file_publish(const char *tmp, const char *path, int replace) {
    if (replace) return rename(tmp, path);
    /* link() fails with EEXIST where rename() would silently replace. */
    if (link(tmp, path) == 0) {
        unlink(tmp);
        return 0;
    }
    if (errno != EPERM && errno != ENOTSUP && errno != ENOSYS) return -1;
    /* A file system without hard links: check, then rename (a narrow window, no link
     * followed either way). */
    struct stat st;
    if (lstat(path, &st) == 0) {
        errno = EEXIST;
        return -1;
    }
    return rename(tmp, path);
}

int smfw_mkdir_unique(const char *parent, const char *name, char *out, size_t size) {
    /* mkdir() decides: two levels that map to one name (concurrency_1 and concurrency_01)
     * get two folders. */
    snprintf(out, size, "%s/%s", parent, name);
    for (int k = 2; mkdir(out, 0755) != 0; k++) {
        if (errno != EEXIST || k > 10000) return -1;
        snprintf(out, size, "%s/%s-%d", parent, name, k);
    }
    return 0;
}

smfw_status smfw_file_append_to(FILE *out, const char *path, smfw_error *err) {
    FILE *in = fopen(path, "rb");
    if (!in) return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    char buf[65536];
    size_t k;
    smfw_status st = SMFW_OK;
    while (st == SMFW_OK && (k = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, k, out) != k)
            st = smfw_error_set(err, SMFW_ERR_IO, "cannot copy %s: %s", path, strerror(errno));
    if (st == SMFW_OK && ferror(in))
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    fclose(in);
    return st;
}
