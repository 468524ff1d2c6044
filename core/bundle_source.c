/*
 * bundle_source.c - where a downloaded bundle came from, kept beside it as
 * source.json, so a folder is reused only for the very same object (bucket,
 * key and ETag; the job's ARN, hence account and region) and a different
 * bundle of the same name is never shown in its place.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/bundle_read.h>
#include <smfw/sigv4.h>
#include <smfw/untrusted.h>

#define SOURCE_FILE "source.json"

smfw_status smfw_bundle_source_write(const char *dir, const char *identity, smfw_error *err) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, SOURCE_FILE);
    json_t *o = json_pack("{s:s}", "identity", identity);
    char *text = o ? json_dumps(o, JSON_INDENT(2)) : NULL;
    json_decref(o);
    if (!text) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    char *tmp = NULL;
    int fd = smfw_tmpfile_beside(path, &tmp);
    int ok = fd >= 0;
    size_t n = strlen(text);
    if (ok) ok = write(fd, text, n) == (ssize_t)n && write(fd, "\n", 1) == 1;
    if (fd >= 0 && close(fd) != 0) ok = 0;
    if (ok) ok = smfw_file_publish(tmp, path, 1) == 0;
    int e = errno;
    if (!ok && tmp) unlink(tmp);
    free(tmp);
    free(text);
    return ok ? SMFW_OK
              : smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(e));
}

void smfw_bundle_source_digest(const char *identity, char out[13]) {
    char hex[65];
    smfw_sha256_hex(identity, strlen(identity), hex);
    memcpy(out, hex, 12);
    out[12] = '\0';
}

int smfw_bundle_source_matches(const char *dir, const char *identity) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, SOURCE_FILE);
    char *text = NULL;
    size_t len = 0;
    smfw_error e;
    if (smfw_bundle_read_file(path, 65536, "source.json", &text, &len, &e) != SMFW_OK) return 0;
    json_t *o = json_loadb(text, len, 0, NULL);
    free(text);
    const char *got = json_string_value(json_object_get(o, "identity"));
    int same = got && strcmp(got, identity) == 0;
    json_decref(o);
    return same;
}
