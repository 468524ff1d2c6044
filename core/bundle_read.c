/*
 * bundle_read.c - bounded reads of untrusted bundle files: a whole file no
 * larger than a limit (checked before and while reading, so a growing or
 * lying file cannot exceed it) and one line no longer than a limit (the
 * rest of an overlong line is never held in memory).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/bundle_read.h>

smfw_status smfw_bundle_read_file(const char *path, int64_t max_bytes, const char *setting,
                                  char **data, size_t *len, smfw_error *err) {
    *data = NULL;
    *len = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && st.st_size > max_bytes) {
        fclose(fp);
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "%s is %lld bytes, over the limit of %lld bytes (%s)", path,
                              (long long)st.st_size, (long long)max_bytes, setting);
    }
    size_t cap = (size_t)(st.st_size > 0 ? st.st_size : 4096) + 1;
    char *buf = malloc(cap);
    size_t n = 0;
    smfw_status rc = SMFW_OK;
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) break;
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if ((int64_t)n > max_bytes) {
            rc = smfw_error_set(err, SMFW_ERR_PROTOCOL, "%s is over the limit of %lld bytes (%s)",
                                path, (long long)max_bytes, setting);
            break;
        }
        if (got == 0) break;
    }
    int failed = ferror(fp);
    fclose(fp);
    if (!buf) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", path);
    if (rc == SMFW_OK && failed) rc = smfw_error_set(err, SMFW_ERR_IO, "cannot read %s", path);
    if (rc != SMFW_OK) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return SMFW_OK;
}

int smfw_bundle_getline(FILE *fp, smfw_buf *line, int64_t max_bytes) {
    smfw_buf_reset(line);
    int c, any = 0;
    while ((c = getc_unlocked(fp)) != EOF) {
        any = 1;
        if (c == '\n') break;
        if ((int64_t)line->len >= max_bytes) {
            /* Skip to the end of the line without keeping it. */
            while ((c = getc_unlocked(fp)) != EOF && c != '\n') {
            }
            return SMFW_LINE_TOO_LONG;
        }
        smfw_buf_putc(line, (char)c);
        if (line->failed) return SMFW_LINE_NOMEM;
    }
    return any ? SMFW_LINE_OK : SMFW_LINE_EOF;
}
