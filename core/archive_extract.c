/*
 * archive_extract.c - safe extraction of untrusted tar archives (AIPerf
 * bundles) with libarchive reading and our own writing.
 *
 * libarchive only parses; every file, folder and link is created here with
 * *at() calls relative to a descriptor of the destination folder, walking
 * each path one component at a time with O_NOFOLLOW, so no path, link or
 * earlier entry can make a write land outside the folder. See archive.h for
 * the rules.
 */

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <smfw/archive.h>
#include <smfw/untrusted.h>

typedef struct extract_state {
    struct archive *ar;
    int root_fd;
    smfw_archive_limits lim;
    smfw_archive_stats st;
} extract_state;

static const char *aerr(struct archive *ar) {
    const char *m = archive_error_string(ar);
    return m ? m : "unknown error";
}

static void limits_resolve(const smfw_archive_limits *in, smfw_archive_limits *out) {
    memset(out, 0, sizeof *out);
    if (in) *out = *in;
    if (!out->max_total_bytes) out->max_total_bytes = SMFW_ARCHIVE_DEFAULT_MAX_TOTAL_BYTES;
    if (!out->max_file_bytes) out->max_file_bytes = SMFW_ARCHIVE_DEFAULT_MAX_FILE_BYTES;
    if (!out->max_entries) out->max_entries = SMFW_ARCHIVE_DEFAULT_MAX_ENTRIES;
    if (!out->max_path_bytes) out->max_path_bytes = SMFW_ARCHIVE_DEFAULT_MAX_PATH_BYTES;
    if (!out->max_depth) out->max_depth = SMFW_ARCHIVE_DEFAULT_MAX_DEPTH;
}

/* Printable copy of an untrusted name for messages (control bytes escaped, capped). */
static const char *shown(const char *s, char *buf, size_t size) {
    size_t o = 0;
    if (!s) s = "(no name)";
    for (; *s && o + 5 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
        else
            buf[o++] = (char)c;
    }
    if (*s && o + 4 < size) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

/*
 * Normalise an archive path: drop "." and empty components and a leading
 * "./"; refuse absolute paths, "..", control characters, too long or too
 * deep paths. Writes the relative path ("" for the root itself).
 */
static smfw_status normalise_path(const char *raw, const smfw_archive_limits *lim, const char *what,
                                  char *out, size_t out_size, smfw_error *err) {
    char show[160];
    if (!raw || !*raw)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL, "archive refused: an entry has an empty %s",
                              what);
    size_t len = strlen(raw);
    if (len > lim->max_path_bytes || len >= out_size)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "archive refused: %s \"%s\" is longer than %u bytes", what,
                              shown(raw, show, sizeof show), lim->max_path_bytes);
    if (raw[0] == '/')
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "archive refused: %s \"%s\" is an absolute path", what,
                              shown(raw, show, sizeof show));
    for (const char *p = raw; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive refused: %s \"%s\" contains a control character", what,
                                  shown(raw, show, sizeof show));
    size_t o = 0;
    uint32_t depth = 0;
    const char *p = raw;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive refused: %s \"%s\" contains a \"..\" component", what,
                                  shown(raw, show, sizeof show));
        if (n > 0 && !(n == 1 && p[0] == '.')) {
            if (++depth > lim->max_depth)
                return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                      "archive refused: %s \"%s\" is deeper than %u folders", what,
                                      shown(raw, show, sizeof show), lim->max_depth);
            if (o) out[o++] = '/';
            memcpy(out + o, p, n);
            o += n;
        }
        p += n;
        if (*p == '/') p++;
    }
    out[o] = '\0';
    return SMFW_OK;
}

/*
 * Open the folder that holds the last component of `rel`, walking each
 * component with O_NOFOLLOW (a symbolic link or a file on the way is
 * refused) and creating missing folders when `create`. Returns a descriptor
 * (caller closes) and points *name at the last component inside rel.
 */
static smfw_status open_parent(extract_state *x, const char *rel, int create, int *out_fd,
                               const char **name, smfw_error *err) {
    char show[160];
    int fd = dup(x->root_fd);
    if (fd < 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot duplicate a descriptor: %s",
                              strerror(errno));
    char comp[1100];
    const char *p = rel;
    for (;;) {
        const char *slash = strchr(p, '/');
        if (!slash) break;
        size_t n = (size_t)(slash - p);
        if (n >= sizeof comp) n = sizeof comp - 1;
        memcpy(comp, p, n);
        comp[n] = '\0';
        int next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0 && errno == ENOENT && create) {
            if (x->st.entries + 1 > x->lim.max_entries) {
                close(fd);
                return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                      "archive refused: more than %llu entries",
                                      (unsigned long long)x->lim.max_entries);
            }
            if (mkdirat(fd, comp, 0755) != 0 && errno != EEXIST) {
                int e = errno;
                close(fd);
                return smfw_error_set(err, SMFW_ERR_IO, "cannot create folder for \"%s\": %s",
                                      shown(rel, show, sizeof show), strerror(e));
            }
            x->st.entries++;
            next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
        if (next < 0) {
            int e = errno;
            close(fd);
            if (e == ELOOP || e == ENOTDIR)
                return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                      "archive refused: entry \"%s\" would be written through a "
                                      "symbolic link or a file",
                                      shown(rel, show, sizeof show));
            return smfw_error_set(err, e == ENOENT ? SMFW_ERR_PROTOCOL : SMFW_ERR_IO,
                                  "cannot open the folder of \"%s\": %s",
                                  shown(rel, show, sizeof show), strerror(e));
        }
        close(fd);
        fd = next;
        p = slash + 1;
    }
    *out_fd = fd;
    *name = p;
    return SMFW_OK;
}

static smfw_status write_file(extract_state *x, struct archive_entry *e, const char *rel,
                              smfw_error *err) {
    char show[160];
    if (archive_entry_size_is_set(e)) {
        int64_t declared = archive_entry_size(e);
        if (declared < 0 || (uint64_t)declared > x->lim.max_file_bytes)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive refused: file \"%s\" declares %lld bytes, over the "
                                  "limit of %llu per file (max_file_bytes)",
                                  shown(rel, show, sizeof show), (long long)declared,
                                  (unsigned long long)x->lim.max_file_bytes);
        if (x->st.bytes + (uint64_t)declared > x->lim.max_total_bytes)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive refused: file \"%s\" (%lld bytes) takes the content "
                                  "over the limit of %llu bytes (max_total_bytes)",
                                  shown(rel, show, sizeof show), (long long)declared,
                                  (unsigned long long)x->lim.max_total_bytes);
    }
    int dfd;
    const char *name;
    smfw_status s = open_parent(x, rel, 1, &dfd, &name, err);
    if (s != SMFW_OK) return s;
    mode_t mode = (archive_entry_perm(e) & 0111) ? 0755 : 0644;
    int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    int oe = errno;
    close(dfd);
    if (fd < 0) {
        if (oe == EEXIST)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive refused: entry \"%s\" appears twice (or replaces a "
                                  "link or folder)",
                                  shown(rel, show, sizeof show));
        return smfw_error_set(err, SMFW_ERR_IO, "cannot create \"%s\": %s",
                              shown(rel, show, sizeof show), strerror(oe));
    }
    uint64_t file_end = 0;
    for (;;) {
        const void *buf;
        size_t size;
        la_int64_t offset;
        int r = archive_read_data_block(x->ar, &buf, &size, &offset);
        if (r == ARCHIVE_EOF) break;
        if (r < ARCHIVE_WARN) {
            close(fd);
            return smfw_error_set(err, SMFW_ERR_PROTOCOL, "archive unreadable at \"%s\": %s",
                                  shown(rel, show, sizeof show), aerr(x->ar));
        }
        if (offset < 0) {
            close(fd);
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive refused: negative offset in \"%s\"",
                                  shown(rel, show, sizeof show));
        }
        uint64_t end = (uint64_t)offset + size;
        if (end > file_end) {
            /* Holes of sparse files count too: the apparent size is what a reader sees. */
            uint64_t grow = end - file_end;
            if (end > x->lim.max_file_bytes || x->st.bytes + grow > x->lim.max_total_bytes) {
                close(fd);
                return smfw_error_set(
                    err, SMFW_ERR_PROTOCOL,
                    "archive refused: file \"%s\" grows past the limit (%llu bytes per file, "
                    "max_file_bytes; %llu in all, max_total_bytes)",
                    shown(rel, show, sizeof show), (unsigned long long)x->lim.max_file_bytes,
                    (unsigned long long)x->lim.max_total_bytes);
            }
            x->st.bytes += grow;
            file_end = end;
        }
        const char *p = buf;
        size_t left = size;
        off_t at = (off_t)offset;
        while (left) {
            ssize_t w = pwrite(fd, p, left, at);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                int we = errno;
                close(fd);
                return smfw_error_set(err, SMFW_ERR_IO, "cannot write \"%s\": %s",
                                      shown(rel, show, sizeof show), strerror(we));
            }
            p += w;
            left -= (size_t)w;
            at += w;
        }
    }
    if (archive_entry_size_is_set(e) && (uint64_t)archive_entry_size(e) > file_end) {
        uint64_t want = (uint64_t)archive_entry_size(e);
        if (x->st.bytes + (want - file_end) > x->lim.max_total_bytes) {
            close(fd);
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive refused: file \"%s\" takes the content over the limit "
                                  "of %llu bytes (max_total_bytes)",
                                  shown(rel, show, sizeof show),
                                  (unsigned long long)x->lim.max_total_bytes);
        }
        x->st.bytes += want - file_end;
        if (ftruncate(fd, (off_t)want) != 0) {
            int te = errno;
            close(fd);
            return smfw_error_set(err, SMFW_ERR_IO, "cannot size \"%s\": %s",
                                  shown(rel, show, sizeof show), strerror(te));
        }
    }
    if (archive_entry_mtime_is_set(e)) {
        struct timespec ts[2];
        ts[0].tv_sec = ts[1].tv_sec = archive_entry_mtime(e);
        ts[0].tv_nsec = ts[1].tv_nsec = archive_entry_mtime_nsec(e);
        if (ts[0].tv_nsec < 0 || ts[0].tv_nsec >= 1000000000L) ts[0].tv_nsec = ts[1].tv_nsec = 0;
        (void)futimens(fd, ts);
    }
    if (close(fd) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot write \"%s\": %s",
                              shown(rel, show, sizeof show), strerror(errno));
    x->st.files++;
    return SMFW_OK;
}

static smfw_status make_dir(extract_state *x, const char *rel, smfw_error *err) {
    char show[160];
    int dfd;
    const char *name;
    smfw_status s = open_parent(x, rel, 1, &dfd, &name, err);
    if (s != SMFW_OK) return s;
    if (mkdirat(dfd, name, 0755) != 0) {
        int e = errno;
        struct stat sb;
        int is_dir =
            e == EEXIST && fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(sb.st_mode);
        close(dfd);
        if (is_dir) return SMFW_OK; /* made earlier as a parent: fine */
        if (e == EEXIST)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive refused: folder \"%s\" replaces a file or link",
                                  shown(rel, show, sizeof show));
        return smfw_error_set(err, SMFW_ERR_IO, "cannot create folder \"%s\": %s",
                              shown(rel, show, sizeof show), strerror(e));
    }
    close(dfd);
    return SMFW_OK;
}

static smfw_status make_symlink(extract_state *x, struct archive_entry *e, const char *rel,
                                smfw_error *err) {
    char show[160], show2[160];
    const char *target = archive_entry_symlink(e);
    if (!target || !*target)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "archive refused: symbolic link \"%s\" has no target",
                              shown(rel, show, sizeof show));
    /* Only links that stay inside: relative and without "..", so even a chain of
     * links can only lead further down the folder. */
    char norm[2048];
    smfw_error tmp;
    if (target[0] == '/' ||
        normalise_path(target, &x->lim, "link target", norm, sizeof norm, &tmp) != SMFW_OK ||
        !*norm)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "archive refused: symbolic link \"%s\" points to \"%s\", which "
                              "could leave the folder",
                              shown(rel, show, sizeof show), shown(target, show2, sizeof show2));
    int dfd;
    const char *name;
    smfw_status s = open_parent(x, rel, 1, &dfd, &name, err);
    if (s != SMFW_OK) return s;
    int r = symlinkat(target, dfd, name);
    int se = errno;
    close(dfd);
    if (r != 0)
        return smfw_error_set(err, se == EEXIST ? SMFW_ERR_PROTOCOL : SMFW_ERR_IO,
                              "archive refused: cannot create symbolic link \"%s\": %s",
                              shown(rel, show, sizeof show), strerror(se));
    return SMFW_OK;
}

static smfw_status make_hardlink(extract_state *x, const char *raw_target, const char *rel,
                                 smfw_error *err) {
    char show[160], show2[160];
    char norm[2048];
    smfw_error tmp;
    if (normalise_path(raw_target, &x->lim, "link target", norm, sizeof norm, &tmp) != SMFW_OK ||
        !*norm)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "archive refused: hard link \"%s\" points to \"%s\", outside the "
                              "folder",
                              shown(rel, show, sizeof show),
                              shown(raw_target, show2, sizeof show2));
    int tfd;
    const char *tname;
    if (open_parent(x, norm, 0, &tfd, &tname, &tmp) != SMFW_OK)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "archive refused: hard link \"%s\" points to \"%s\", which is not "
                              "a file extracted before it",
                              shown(rel, show, sizeof show), shown(norm, show2, sizeof show2));
    struct stat sb;
    if (fstatat(tfd, tname, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode)) {
        close(tfd);
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "archive refused: hard link \"%s\" points to \"%s\", which is not "
                              "a file extracted before it",
                              shown(rel, show, sizeof show), shown(norm, show2, sizeof show2));
    }
    /* A reader reads every link in full: each counts its target's size (a 1.7 KB archive of
     * links to one big file cost 50 s of CPU and 2.1 GB when links counted nothing). */
    if (x->st.bytes + (uint64_t)sb.st_size > x->lim.max_total_bytes) {
        close(tfd);
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "archive refused: hard link \"%s\" to \"%s\" (%lld bytes) takes "
                              "the content over the limit of %llu bytes (max_total_bytes)",
                              shown(rel, show, sizeof show), shown(norm, show2, sizeof show2),
                              (long long)sb.st_size, (unsigned long long)x->lim.max_total_bytes);
    }
    x->st.bytes += (uint64_t)sb.st_size;
    int dfd;
    const char *name;
    smfw_status s = open_parent(x, rel, 1, &dfd, &name, err);
    if (s != SMFW_OK) {
        close(tfd);
        return s;
    }
    int r = linkat(tfd, tname, dfd, name, 0);
    int le = errno;
    close(tfd);
    close(dfd);
    if (r != 0)
        return smfw_error_set(err, le == EEXIST ? SMFW_ERR_PROTOCOL : SMFW_ERR_IO,
                              "archive refused: cannot create hard link \"%s\": %s",
                              shown(rel, show, sizeof show), strerror(le));
    return SMFW_OK;
}

static smfw_status extract_entries(extract_state *x, smfw_error *err) {
    char show[160];
    char rel[2048];
    for (;;) {
        struct archive_entry *e;
        int r = archive_read_next_header(x->ar, &e);
        if (r == ARCHIVE_EOF) return SMFW_OK;
        if (r < ARCHIVE_WARN)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive unreadable after %llu entries: %s",
                                  (unsigned long long)x->st.entries, aerr(x->ar));
        if (x->st.entries + 1 > x->lim.max_entries)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL, "archive refused: more than %llu entries",
                                  (unsigned long long)x->lim.max_entries);
        const char *raw = archive_entry_pathname(e);
        smfw_status s = normalise_path(raw, &x->lim, "path", rel, sizeof rel, err);
        if (s != SMFW_OK) return s;
        const char *hard = archive_entry_hardlink(e);
        mode_t type = archive_entry_filetype(e);
        if (hard) {
            if (!*rel)
                return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                      "archive refused: a hard link replaces the folder itself");
            s = make_hardlink(x, hard, rel, err);
        } else if (type == AE_IFDIR) {
            if (!*rel) continue; /* "./" is the destination itself */
            s = make_dir(x, rel, err);
        } else if (!*rel) {
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "archive refused: entry \"%s\" replaces the folder itself",
                                  shown(raw, show, sizeof show));
        } else if (type == AE_IFREG) {
            s = write_file(x, e, rel, err);
        } else if (type == AE_IFLNK) {
            s = make_symlink(x, e, rel, err);
        } else {
            const char *kind = type == AE_IFCHR    ? "a character device"
                               : type == AE_IFBLK  ? "a block device"
                               : type == AE_IFIFO  ? "a FIFO"
                               : type == AE_IFSOCK ? "a socket"
                                                   : "a special file";
            return smfw_error_set(err, SMFW_ERR_PROTOCOL, "archive refused: entry \"%s\" is %s",
                                  shown(rel, show, sizeof show), kind);
        }
        if (s != SMFW_OK) return s;
        x->st.entries++;
    }
}

static int remove_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

smfw_status smfw_remove_tree(const char *path, smfw_error *err) {
    struct stat sb;
    if (lstat(path, &sb) != 0) {
        if (errno == ENOENT) return SMFW_OK;
        return smfw_error_set(err, SMFW_ERR_IO, "cannot remove %s: %s", path, strerror(errno));
    }
    if (nftw(path, remove_cb, 16, FTW_DEPTH | FTW_PHYS) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot remove %s: %s", path, strerror(errno));
    return SMFW_OK;
}

/* Remove what is inside dir (it was empty before extraction). */
static void empty_folder(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    char path[4096];
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        smfw_remove_tree(path, NULL);
    }
    closedir(d);
}

static smfw_status mkdir_parents(const char *dir, int *created, smfw_error *err) {
    if (smfw_mkdir_p(dir, 0755, created) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot create folder %s: %s", dir,
                              strerror(errno));
    return SMFW_OK;
}

static smfw_status extract_common(struct archive *ar, const char *dest_dir,
                                  const smfw_archive_limits *limits, smfw_archive_stats *stats,
                                  smfw_error *err) {
    extract_state x;
    memset(&x, 0, sizeof x);
    x.ar = ar;
    limits_resolve(limits, &x.lim);
    int created = 0;
    smfw_status s = mkdir_parents(dest_dir, &created, err);
    if (s != SMFW_OK) return s;
    x.root_fd = open(dest_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (x.root_fd < 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot open folder %s: %s", dest_dir,
                              strerror(errno));
    if (!created) {
        DIR *d = opendir(dest_dir);
        int empty = 1;
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL)
            if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) empty = 0;
        if (d) closedir(d);
        if (!empty) {
            close(x.root_fd);
            return smfw_error_set(err, SMFW_ERR_IO,
                                  "will not extract into %s: the folder is not empty", dest_dir);
        }
    }
    s = extract_entries(&x, err);
    close(x.root_fd);
    if (s != SMFW_OK) {
        if (created)
            smfw_remove_tree(dest_dir, NULL);
        else
            empty_folder(dest_dir);
        return s;
    }
    if (stats) *stats = x.st;
    return SMFW_OK;
}

/* Only built-in decompressors: no filter that would run an external program. */
static struct archive *reader_new(void) {
    struct archive *ar = archive_read_new();
    if (!ar) return NULL;
    archive_read_support_filter_none(ar);
    archive_read_support_filter_gzip(ar);
    archive_read_support_filter_bzip2(ar);
    archive_read_support_filter_xz(ar);
    archive_read_support_filter_zstd(ar);
    archive_read_support_format_tar(ar);
    archive_read_support_format_gnutar(ar);
    return ar;
}

smfw_status smfw_archive_extract_file(const char *archive_path, const char *dest_dir,
                                      const smfw_archive_limits *limits, smfw_archive_stats *stats,
                                      smfw_error *err) {
    if (stats) memset(stats, 0, sizeof *stats);
    struct archive *ar = reader_new();
    if (!ar) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (archive_read_open_filename(ar, archive_path, 65536) != ARCHIVE_OK) {
        smfw_status st = smfw_error_set(err, SMFW_ERR_PROTOCOL, "cannot read archive %s: %s",
                                        archive_path, aerr(ar));
        archive_read_free(ar);
        return st;
    }
    smfw_status st = extract_common(ar, dest_dir, limits, stats, err);
    if (st != SMFW_OK) smfw_error_prefix(err, "%s", archive_path);
    archive_read_free(ar);
    return st;
}

smfw_status smfw_archive_extract_memory(const void *data, size_t len, const char *dest_dir,
                                        const smfw_archive_limits *limits,
                                        smfw_archive_stats *stats, smfw_error *err) {
    if (stats) memset(stats, 0, sizeof *stats);
    struct archive *ar = reader_new();
    if (!ar) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (archive_read_open_memory(ar, data, len) != ARCHIVE_OK) {
        smfw_status st =
            smfw_error_set(err, SMFW_ERR_PROTOCOL, "cannot read archive: %s", aerr(ar));
        archive_read_free(ar);
        return st;
    }
    smfw_status st = extract_common(ar, dest_dir, limits, stats, err);
    archive_read_free(ar);
    return st;
}
