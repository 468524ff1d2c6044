/*
 * autoscaling_journal.c - what smfw changed on a scalable target, written
 * before the change so that a later command can undo it (rollback of an
 * applied policy, the restore of a pin a killed run left). One small JSON file
 * per target and kind in a local state folder, replaced atomically.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/untrusted.h>

#include "autoscaling.h"

smfw_status aas_journal_path(const char *dir, const char *region, const aas_target *t,
                             const char *kind, char *path, size_t size, smfw_error *err) {
    char base[4096];
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (dir && *dir)
        snprintf(base, sizeof base, "%s", dir);
    else if (xdg && *xdg)
        snprintf(base, sizeof base, "%s/smfw/autoscaling", xdg);
    else if (home && *home)
        snprintf(base, sizeof base, "%s/.local/state/smfw/autoscaling", home);
    else
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "no folder for the autoscaling journal: set HOME, XDG_STATE_HOME "
                              "or --journal DIR");
    /* The resource id's '/' become '_' so one target is one file name. */
    char name[2048];
    int n = snprintf(name, sizeof name, "%s_%s.%s.json", region, t->resource_id, kind);
    if (n < 0 || (size_t)n >= sizeof name)
        return smfw_error_set(err, SMFW_ERR_USAGE, "the target name is too long for a file name");
    for (char *p = name; *p; p++)
        if (*p == '/') *p = '_';
    n = snprintf(path, size, "%s/%s", base, name);
    if (n < 0 || (size_t)n >= size)
        return smfw_error_set(err, SMFW_ERR_USAGE, "the journal path %s/%s is too long", base,
                              name);
    return SMFW_OK;
}

smfw_status aas_journal_write(const char *path, const json_t *entry, smfw_error *err) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    if (slash && smfw_mkdir_p(dir, 0700, NULL) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
    char *tmp = NULL;
    int fd = smfw_tmpfile_beside(path, &tmp);
    if (fd < 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    char *text = json_dumps(entry, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    size_t len = text ? strlen(text) : 0;
    int ok = text && write(fd, text, len) == (ssize_t)len && write(fd, "\n", 1) == 1;
    /* On disk before the change it describes is made. */
    ok = ok && fsync(fd) == 0;
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    free(text);
    if (ok && smfw_file_publish(tmp, path, 1) != 0) {
        ok = 0;
        saved = errno;
    }
    if (!ok) unlink(tmp);
    free(tmp);
    if (!ok) return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(saved));
    return SMFW_OK;
}

smfw_status aas_journal_read(const char *path, json_t **entry, smfw_error *err) {
    *entry = NULL;
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT) return SMFW_OK;
        return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    }
    json_error_t je;
    json_t *v = json_load_file(path, 0, &je);
    if (!json_is_object(v)) {
        json_decref(v);
        return smfw_error_set(err, SMFW_ERR_IO,
                              "%s:%d: not an smfw autoscaling journal (%s); move it away to go on",
                              path, je.line, je.text);
    }
    *entry = v;
    return SMFW_OK;
}
