/*
 * rpt_file.c - writing a report file safely, and time formatting.
 *
 * A report is written to a temporary name in the output folder and renamed
 * into place, so a reader (or a later `smfw results`) never sees half a
 * file, and a full disk is reported at the write or close that failed.
 */
#include "rpt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <smfw/untrusted.h>

smfw_status rpt_nomem(const char *dir, const char *name, smfw_error *err) {
    return smfw_error_set(err, SMFW_ERR_NOMEM, "cannot write %s/%s: out of memory", dir, name);
}

smfw_status rpt_write_file(const char *dir, const char *name, const char *data, size_t len,
                           smfw_error *err) {
    size_t plen = strlen(dir) + strlen(name) + 32;
    char *path = malloc(plen);
    char *tmp = malloc(plen);
    if (!path || !tmp) {
        free(path);
        free(tmp);
        return rpt_nomem(dir, name, err);
    }
    snprintf(path, plen, "%s/%s", dir, name);
    free(tmp);
    tmp = NULL;

    smfw_status st = SMFW_OK;
    /* mkstemp, not a predictable ".NAME.PID.tmp": a planted link is never followed. */
    int fd = smfw_tmpfile_beside(path, &tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        if (tmp) unlink(tmp);
        goto out;
    }
    if (len && fwrite(data, 1, len, f) != len) {
        int e = errno;
        fclose(f);
        unlink(tmp);
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(e));
        goto out;
    }
    /* A full disk often shows only when the buffer is flushed at close. */
    if (fclose(f) != 0) {
        int e = errno;
        unlink(tmp);
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(e));
        goto out;
    }
    /* rename() replaces a planted link itself, never what it points to. */
    if (smfw_file_publish(tmp, path, 1) != 0) {
        int e = errno;
        unlink(tmp);
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(e));
    }
out:
    free(path);
    free(tmp);
    return st;
}

void rpt_iso_local(int64_t wall_ns, char out[64]) {
    time_t secs = (time_t)(wall_ns / 1000000000);
    long usec = (long)((wall_ns % 1000000000) / 1000);
    struct tm tm;
    if (!localtime_r(&secs, &tm)) {
        out[0] = '\0';
        return;
    }
    char base[40];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, 64, "%s.%06ld", base, usec);
}

void rpt_utc_human(int64_t wall_ns, char out[64]) {
    time_t secs = (time_t)(wall_ns / 1000000000);
    struct tm tm;
    if (!gmtime_r(&secs, &tm)) {
        out[0] = '\0';
        return;
    }
    strftime(out, 64, "%Y-%m-%d %H:%M:%S UTC", &tm);
}
