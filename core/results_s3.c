/* results_s3.c - result folders in S3: chunked record mirror while a run goes, shard fetch for
 * merge (see smfw/results_s3.h and docs/scaling.md). */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <smfw/aws.h>
#include <smfw/log.h>
#include <smfw/results_s3.h>
#include <smfw/shard.h>
#include <smfw/untrusted.h>

int smfw_results_s3_is_uri(const char *location) {
    return location && strncmp(location, "s3://", 5) == 0;
}

/* s3://bucket/prefix -> bucket and prefix without a trailing '/'. */
static smfw_status split_uri(const char *uri, char *bucket, size_t bsize, char *prefix,
                             size_t psize, smfw_error *err) {
    smfw_status st = smfw_aws_s3_uri_split(uri, bucket, bsize, prefix, psize, err);
    size_t plen = st == SMFW_OK ? strlen(prefix) : 0;
    while (plen && prefix[plen - 1] == '/') prefix[--plen] = '\0';
    return st;
}

static smfw_status client_for(const smfw_config *cfg, smfw_aws_client **out, smfw_error *err) {
    smfw_aws_options o;
    smfw_aws_options_from_config(cfg, &o);
    return smfw_aws_client_new(&o, out, err);
}

/* ---- the mirror of a running folder ---- */

struct smfw_results_s3_mirror {
    smfw_aws_client *client;
    char bucket[256];
    char prefix[1024];
    char uri[1300]; /* s3://bucket/prefix, where the run goes */
    char dir[4096];
    double interval_s;
    long chunk_records; /* also put a chunk as soon as this many records wait (0: never) */
    long offset;        /* bytes of profile_export.jsonl already sent */
    unsigned chunk_no;  /* last chunk number put */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop, started;
};

static void key_for(const smfw_results_s3_mirror *m, const char *name, char *key, size_t size) {
    snprintf(key, size, "%s%s%s", m->prefix, m->prefix[0] ? "/" : "", name);
}

/* Put the complete lines appended since the last chunk as the next chunk object, when at
 * least min_records of them wait. */
static smfw_status send_chunk(smfw_results_s3_mirror *m, long min_records, smfw_error *err) {
    char path[4200];
    snprintf(path, sizeof path, "%s/profile_export.jsonl", m->dir);
    FILE *fp = fopen(path, "rb");
    if (!fp) return SMFW_OK; /* not written yet */
    smfw_status st = SMFW_OK;
    char *data = NULL;
    if (fseek(fp, 0, SEEK_END) != 0) goto io;
    long end = ftell(fp);
    if (end <= m->offset) goto out;
    size_t len = (size_t)(end - m->offset);
    data = malloc(len);
    if (!data) {
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", path);
        goto out;
    }
    if (fseek(fp, m->offset, SEEK_SET) != 0 || fread(data, 1, len, fp) != len) goto io;
    /* Only whole records: a line still being written waits for the next chunk. */
    while (len && data[len - 1] != '\n') len--;
    if (!len) goto out;
    if (min_records > 1) {
        long lines = 0;
        for (size_t i = 0; i < len && lines < min_records; i++) lines += data[i] == '\n';
        if (lines < min_records) goto out;
    }
    char name[64], key[1200];
    snprintf(name, sizeof name, "records-%06u.jsonl", m->chunk_no + 1);
    key_for(m, name, key, sizeof key);
    st = smfw_aws_s3_put_object(m->client, m->bucket, key, data, len, "application/x-ndjson", err);
    if (st == SMFW_OK) {
        m->chunk_no++;
        m->offset += (long)len;
    }
    goto out;
io:
    st = smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", path, strerror(errno));
out:
    free(data);
    fclose(fp);
    return st;
}

static void *mirror_thread(void *arg) {
    smfw_results_s3_mirror *m = arg;
    /* With a record threshold the thread looks often; a chunk still waits for one of the two. */
    double tick = m->chunk_records > 0 && m->interval_s > 0.25 ? 0.25 : m->interval_s;
    double waited = 0;
    pthread_mutex_lock(&m->lock);
    while (!m->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        double whole = (double)(long)tick;
        until.tv_sec += (time_t)whole;
        until.tv_nsec += (long)((tick - whole) * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        while (!m->stop && pthread_cond_timedwait(&m->wake, &m->lock, &until) == 0) {
        }
        if (m->stop) break;
        pthread_mutex_unlock(&m->lock);
        waited += tick;
        int due = waited >= m->interval_s - 1e-9;
        unsigned before = m->chunk_no;
        smfw_error e;
        smfw_error_clear(&e);
        /* A failed put is retried with the next interval's records (nothing is skipped). */
        if (send_chunk(m, due ? 1 : m->chunk_records, &e) != SMFW_OK)
            SMFW_LOG_WARN("s3", "record chunk: %s", e.message);
        if (due || m->chunk_no != before) waited = 0;
        pthread_mutex_lock(&m->lock);
    }
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

static void mirror_free(smfw_results_s3_mirror *m) {
    if (!m) return;
    if (m->started) {
        pthread_mutex_lock(&m->lock);
        m->stop = 1;
        pthread_cond_signal(&m->wake);
        pthread_mutex_unlock(&m->lock);
        pthread_join(m->thread, NULL);
    }
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->wake);
    smfw_aws_client_free(m->client);
    free(m);
}

/* [smfw] s3_chunk_interval and s3_chunk_records, bound by declaration. */
typedef struct mirror_chunking {
    double interval_s;
    int64_t records;
} mirror_chunking;

static const smfw_setting_binding chunk_bindings[] = {
    {NULL, "s3_chunk_interval", SMFW_BIND_DURATION, offsetof(mirror_chunking, interval_s), 0},
    {NULL, "s3_chunk_records", SMFW_BIND_INT64, offsetof(mirror_chunking, records), 0},
    SMFW_BINDINGS_END};

smfw_status smfw_results_s3_mirror_start(const smfw_config *cfg, const char *uri,
                                         const char *local_dir, smfw_results_s3_mirror **out,
                                         smfw_error *err) {
    *out = NULL;
    mirror_chunking chunk = {0, 0};
    smfw_status bst =
        smfw_settings_bind(smfw_config_section(cfg, "smfw"), chunk_bindings, &chunk, err);
    if (bst != SMFW_OK) return bst;
    double interval_s = chunk.interval_s;
    long chunk_records = (long)chunk.records;
    if (!(interval_s > 0))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "[smfw] s3_chunk_interval must be above 0 (e.g. 10s)");
    if (chunk_records < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "[smfw] s3_chunk_records must be 0 (off) or a record count");
    smfw_results_s3_mirror *m = calloc(1, sizeof *m);
    if (!m) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->wake, NULL);
    m->interval_s = interval_s;
    m->chunk_records = chunk_records;
    snprintf(m->dir, sizeof m->dir, "%s", local_dir);
    smfw_status st = split_uri(uri, m->bucket, sizeof m->bucket, m->prefix, sizeof m->prefix, err);
    /* A shard given a folder (s3://b/run/, ending in '/') writes to its own shard-I in it, as
     * `smfw merge s3://b/run/` looks for them: Kubernetes and Batch give every shard the same
     * arguments, so the shard's index (--shard $JOB_COMPLETION_INDEX+1/N) places it. */
    const char *shard = smfw_settings_get(smfw_config_section(cfg, "run"), "shard");
    smfw_shard sh = {1, 1};
    if (st == SMFW_OK && shard && *shard) st = smfw_shard_parse(shard, &sh, err);
    size_t ulen = strlen(uri);
    if (st == SMFW_OK && sh.count > 1 && ulen && uri[ulen - 1] == '/') {
        size_t pl = strlen(m->prefix);
        int w =
            snprintf(m->prefix + pl, sizeof m->prefix - pl, "%sshard-%u", pl ? "/" : "", sh.index);
        if (w < 0 || (size_t)w >= sizeof m->prefix - pl)
            st = smfw_error_set(err, SMFW_ERR_USAGE, "%s is too long an S3 folder", uri);
    }
    if (st == SMFW_OK && !m->prefix[0])
        st = smfw_error_set(err, SMFW_ERR_USAGE,
                            "%s names no folder in the bucket (e.g. s3://%s/run/shard-1)", uri,
                            m->bucket);
    snprintf(m->uri, sizeof m->uri, "s3://%s/%s", m->bucket, m->prefix);
    if (st == SMFW_OK) st = client_for(cfg, &m->client, err);
    /* Fail before the load, not after it, when the bucket is wrong or unreachable. */
    if (st == SMFW_OK) {
        st = smfw_aws_s3_head_bucket(m->client, m->bucket, NULL, err);
        if (st != SMFW_OK) {
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            smfw_error_set(err, st, "cannot write the results to %s: bucket %s: %s", uri, m->bucket,
                           why);
        }
    }
    /* The shard label goes up first: a shard killed before its summary is still placed. */
    if (st == SMFW_OK && sh.count > 1) {
        char key[1200], text[64], label[16];
        int len = snprintf(text, sizeof text, "%s\n", smfw_shard_format(&sh, label, sizeof label));
        key_for(m, "shard.txt", key, sizeof key);
        if (len > 0 && (size_t)len < sizeof text)
            st = smfw_aws_s3_put_object(m->client, m->bucket, key, text, (size_t)len, "text/plain",
                                        err);
    }
    if (st == SMFW_OK && pthread_create(&m->thread, NULL, mirror_thread, m) != 0)
        st = smfw_error_set(err, SMFW_ERR_INTERNAL, "cannot start the S3 record thread");
    if (st != SMFW_OK) {
        mirror_free(m);
        return st;
    }
    m->started = 1;
    *out = m;
    return SMFW_OK;
}

const char *smfw_results_s3_mirror_uri(const smfw_results_s3_mirror *m) {
    return m ? m->uri : NULL;
}

/* Upload every regular file under dir/rel (recursively) under s3://bucket/prefix. */
static smfw_status upload_tree(smfw_aws_client *c, const char *bucket, const char *prefix,
                               const char *dir, const char *rel, smfw_error *err) {
    char path[4200];
    snprintf(path, sizeof path, "%s%s%s", dir, rel[0] ? "/" : "", rel);
    DIR *d = opendir(path);
    if (!d) return smfw_error_set(err, SMFW_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    smfw_status st = SMFW_OK;
    struct dirent *e;
    while (st == SMFW_OK && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char sub[4200], file[8500], key[5300];
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        snprintf(file, sizeof file, "%s/%s", dir, sub);
        struct stat sb;
        if (lstat(file, &sb) != 0) continue;
        if (S_ISDIR(sb.st_mode))
            st = upload_tree(c, bucket, prefix, dir, sub, err);
        else if (S_ISREG(sb.st_mode)) {
            snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "/" : "", sub);
            st = smfw_aws_s3_put_object_file(c, bucket, key, file, NULL, err);
        }
    }
    closedir(d);
    return st;
}

smfw_status smfw_results_s3_mirror_finish(smfw_results_s3_mirror *m, smfw_error *err) {
    if (!m) return SMFW_OK;
    pthread_mutex_lock(&m->lock);
    m->stop = 1;
    pthread_cond_signal(&m->wake);
    pthread_mutex_unlock(&m->lock);
    pthread_join(m->thread, NULL);
    m->started = 0;
    smfw_status st = send_chunk(m, 1, err);
    struct stat sb;
    if (st == SMFW_OK && stat(m->dir, &sb) == 0)
        st = upload_tree(m->client, m->bucket, m->prefix, m->dir, "", err);
    if (st == SMFW_OK)
        SMFW_LOG_INFO("s3", "results uploaded to s3://%s/%s/ (%u record chunks)", m->bucket,
                      m->prefix, m->chunk_no);
    mirror_free(m);
    return st;
}

/* ---- fetching shard folders for merge ---- */

typedef struct listed {
    char **keys;
    size_t n, cap;
    int failed;
} listed;

static int collect_key(const smfw_aws_s3_object *o, void *user) {
    listed *l = user;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **k = realloc(l->keys, cap * sizeof *k);
        if (!k) {
            l->failed = 1;
            return 1;
        }
        l->keys = k;
        l->cap = cap;
    }
    l->keys[l->n] = strdup(o->key);
    if (!l->keys[l->n]) {
        l->failed = 1;
        return 1;
    }
    l->n++;
    return 0;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_chunk(const char *name) {
    return strncmp(name, "records-", 8) == 0 && strlen(name) > 14 &&
           strcmp(name + strlen(name) - 6, ".jsonl") == 0;
}

/* Copy one shard (its keys are keys[from..to), sorted) into part->dir. */
static smfw_status fetch_shard(smfw_aws_client *c, const char *bucket, size_t plen, char **keys,
                               size_t from, size_t to, int allow_incomplete,
                               smfw_results_s3_part *part, smfw_error *err) {
    int have_jsonl = 0, have_summary = 0;
    size_t chunks = 0;
    size_t slen = strlen(keys[from] + plen) - strlen(strchr(keys[from] + plen, '/'));
    for (size_t i = from; i < to; i++) {
        const char *name = keys[i] + plen + slen + 1;
        if (strcmp(name, "profile_export.jsonl") == 0) have_jsonl = 1;
        if (strcmp(name, "profile_export_aiperf.json") == 0) have_summary = 1;
        if (is_chunk(name)) chunks++;
    }
    part->complete = have_jsonl && have_summary;
    if (!part->complete && !allow_incomplete)
        return smfw_error_set(err, SMFW_ERR_CONFIG, /* exit 1, as a local merge's refusal */
                              "%s has no final summary (profile_export_aiperf.json), only %zu "
                              "record chunks: that shard did not finish (--allow-incomplete "
                              "merges the records its chunks hold)",
                              part->label, chunks);
    if (mkdir(part->dir, 0700) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot create %s: %s", part->dir, strerror(errno));
    if (part->complete) {
        for (size_t i = from; i < to; i++) {
            const char *name = keys[i] + plen + slen + 1;
            if (strchr(name, '/') || is_chunk(name) || name[0] == '.') continue;
            char path[4500];
            snprintf(path, sizeof path, "%s/%s", part->dir, name);
            smfw_status st = smfw_aws_s3_get_object_file(c, bucket, keys[i], path, err);
            if (st != SMFW_OK) return st;
        }
        return SMFW_OK;
    }
    char path[4500], tmp[4500];
    snprintf(path, sizeof path, "%s/profile_export.jsonl", part->dir);
    snprintf(tmp, sizeof tmp, "%s/.chunk", part->dir);
    FILE *fp = fopen(path, "wb");
    if (!fp) return smfw_error_set(err, SMFW_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    smfw_status st = SMFW_OK;
    for (size_t i = from; i < to && st == SMFW_OK; i++) {
        if (strcmp(keys[i] + plen + slen + 1, "shard.txt") != 0) continue;
        char text[64] = "";
        st = smfw_aws_s3_get_object_file(c, bucket, keys[i], tmp, err);
        FILE *in = st == SMFW_OK ? fopen(tmp, "r") : NULL;
        if (in) {
            if (fgets(text, sizeof text, in)) text[strcspn(text, "\r\n")] = '\0';
            fclose(in);
        }
        remove(tmp);
        smfw_shard sh;
        smfw_error perr;
        if (st == SMFW_OK && !strchr(text, '$') && smfw_shard_parse(text, &sh, &perr) == SMFW_OK)
            snprintf(part->shard, sizeof part->shard, "%s", text);
        else if (st == SMFW_OK)
            SMFW_LOG_WARN("s3", "%s/shard.txt holds no shard label I/N", part->label);
    }
    for (size_t i = from; i < to && st == SMFW_OK; i++) {
        if (!is_chunk(keys[i] + plen + slen + 1)) continue;
        st = smfw_aws_s3_get_object_file(c, bucket, keys[i], tmp, err);
        if (st == SMFW_OK) st = smfw_file_append_to(fp, tmp, err);
        remove(tmp);
        part->chunks++;
    }
    if (fclose(fp) != 0 && st == SMFW_OK)
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return st;
}

smfw_status smfw_results_s3_fetch(const smfw_config *cfg, const char *uri, const char *local_root,
                                  int allow_incomplete, smfw_results_s3_part **parts,
                                  size_t *n_parts, smfw_error *err) {
    *parts = NULL;
    *n_parts = 0;
    char bucket[256], prefix[1024], list_prefix[1030];
    smfw_status st = split_uri(uri, bucket, sizeof bucket, prefix, sizeof prefix, err);
    if (st != SMFW_OK) return st;
    snprintf(list_prefix, sizeof list_prefix, "%s%s", prefix, prefix[0] ? "/" : "");
    size_t plen = strlen(list_prefix);
    smfw_aws_client *c = NULL;
    listed l = {0};
    smfw_results_s3_part *out = NULL;
    size_t n = 0;
    st = client_for(cfg, &c, err);
    if (st == SMFW_OK) st = smfw_aws_s3_list_objects(c, bucket, list_prefix, collect_key, &l, err);
    if (st == SMFW_OK && l.failed) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (st != SMFW_OK) goto done;
    /* Sorted keys group each shard folder together, its chunks in number order. */
    qsort(l.keys, l.n, sizeof *l.keys, cmp_str);
    out = calloc(l.n ? l.n : 1, sizeof *out);
    if (!out) {
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < l.n && st == SMFW_OK;) {
        const char *rel = l.keys[i] + plen;
        const char *slash = strchr(rel, '/');
        /* An object beside the shard folders, or a name that would leave local_root. */
        if (!slash || slash == rel ||
            (rel[0] == '.' && (slash == rel + 1 || (rel[1] == '.' && slash == rel + 2)))) {
            i++;
            continue;
        }
        size_t slen = (size_t)(slash - rel), j = i + 1;
        while (j < l.n && strncmp(l.keys[j] + plen, rel, slen + 1) == 0) j++;
        smfw_results_s3_part *p = &out[n];
        snprintf(p->label, sizeof p->label, "s3://%s/%.*s", bucket, (int)(plen + slen), l.keys[i]);
        snprintf(p->dir, sizeof p->dir, "%s/%.*s", local_root, (int)slen, rel);
        st = fetch_shard(c, bucket, plen, l.keys, i, j, allow_incomplete, p, err);
        n++;
        i = j;
    }
    if (st == SMFW_OK && n == 0)
        st = smfw_error_set(err, SMFW_ERR_NOT_FOUND, "no shard folders under s3://%s/%s", bucket,
                            list_prefix);
done:
    for (size_t i = 0; i < l.n; i++) free(l.keys[i]);
    free(l.keys);
    smfw_aws_client_free(c);
    if (st != SMFW_OK) {
        free(out);
        return st;
    }
    *parts = out;
    *n_parts = n;
    return SMFW_OK;
}

/* ---- one run folder: `smfw merge -o s3://...`, `smfw results --s3` ---- */

static int first_key(const smfw_aws_s3_object *o, void *user) {
    snprintf(user, 1025, "%s", o->key);
    return 1; /* one is enough */
}

smfw_status smfw_results_s3_put_dir(const smfw_config *cfg, const char *local_dir, const char *uri,
                                    smfw_error *err) {
    char bucket[256], prefix[1024], list_prefix[1030], taken[1025] = "";
    smfw_status st = split_uri(uri, bucket, sizeof bucket, prefix, sizeof prefix, err);
    if (st == SMFW_OK && !prefix[0])
        st = smfw_error_set(err, SMFW_ERR_USAGE,
                            "%s names no folder in the bucket (e.g. s3://%s/run-7-merged)", uri,
                            bucket);
    if (st != SMFW_OK) return st;
    snprintf(list_prefix, sizeof list_prefix, "%s/", prefix);
    smfw_aws_client *c = NULL;
    st = client_for(cfg, &c, err);
    if (st == SMFW_OK) {
        st = smfw_aws_s3_head_bucket(c, bucket, NULL, err);
        if (st != SMFW_OK) {
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            smfw_error_set(err, st, "cannot write the results to %s: bucket %s: %s", uri, bucket,
                           why);
        }
    }
    /* Results are never overwritten, in S3 as in a local folder. */
    if (st == SMFW_OK) st = smfw_aws_s3_list_objects(c, bucket, list_prefix, first_key, taken, err);
    if (st == SMFW_OK && taken[0])
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "%s already holds results (s3://%s/%s, ...); results are never "
                            "overwritten: give a new prefix",
                            uri, bucket, taken);
    if (st == SMFW_OK && local_dir) {
        st = upload_tree(c, bucket, prefix, local_dir, "", err);
        if (st == SMFW_OK) SMFW_LOG_INFO("s3", "results uploaded to s3://%s/%s/", bucket, prefix);
    }
    smfw_aws_client_free(c);
    return st;
}

typedef struct run_listing {
    listed l;
    char summary_key[1100], records_key[1100];
    char summary_etag[130], records_etag[130];
} run_listing;

static int collect_run_key(const smfw_aws_s3_object *o, void *user) {
    run_listing *r = user;
    if (strcmp(o->key, r->summary_key) == 0)
        snprintf(r->summary_etag, sizeof r->summary_etag, "%s", o->etag);
    if (strcmp(o->key, r->records_key) == 0)
        snprintf(r->records_etag, sizeof r->records_etag, "%s", o->etag);
    return collect_key(o, &r->l);
}

/* A key's name below the folder becomes a local path: every component a plain, visible name. */
static int safe_rel(const char *rel) {
    for (const char *p = rel;;) {
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if (!len || p[0] == '.') return 0;
        for (size_t i = 0; i < len; i++)
            if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f) return 0;
        if (!slash) return 1;
        p = slash + 1;
    }
}

static int is_run_file(const char *name) {
    return strcmp(name, "profile_export_aiperf.json") == 0 || strcmp(name, "shard.txt") == 0 ||
           is_chunk(name);
}

/* The folders below the prefix that are runs themselves (the shards of a run). */
static size_t run_folders_below(const listed *l, size_t plen, char *names, size_t size,
                                int *has_tarball) {
    size_t n = 0;
    const char *last = NULL;
    size_t last_len = 0;
    names[0] = '\0';
    for (size_t i = 0; i < l->n; i++) {
        const char *rel = l->keys[i] + plen, *slash = strchr(rel, '/');
        size_t kl = strlen(l->keys[i]);
        if (kl >= 13 && strcmp(l->keys[i] + kl - 13, "output.tar.gz") == 0) *has_tarball = 1;
        if (!slash || slash == rel || !is_run_file(slash + 1)) continue;
        size_t len = (size_t)(slash - rel);
        if (last && len == last_len && strncmp(rel, last, len) == 0) continue;
        last = rel;
        last_len = len;
        if (n < 3) {
            size_t used = strlen(names);
            snprintf(names + used, size - used, "%s%.*s", n ? ", " : "", (int)len, rel);
        }
        n++;
    }
    return n;
}

smfw_status smfw_results_s3_fetch_run(const smfw_config *cfg, const char *uri,
                                      const char *local_dir, char *fingerprint, size_t fp_size,
                                      smfw_error *err) {
    char bucket[256], prefix[1024], list_prefix[1030];
    smfw_status st = split_uri(uri, bucket, sizeof bucket, prefix, sizeof prefix, err);
    if (st != SMFW_OK) return st;
    snprintf(list_prefix, sizeof list_prefix, "%s%s", prefix, prefix[0] ? "/" : "");
    size_t plen = strlen(list_prefix);
    run_listing r;
    memset(&r, 0, sizeof r);
    snprintf(r.summary_key, sizeof r.summary_key, "%sprofile_export_aiperf.json", list_prefix);
    snprintf(r.records_key, sizeof r.records_key, "%sprofile_export.jsonl", list_prefix);
    smfw_aws_client *c = NULL;
    st = client_for(cfg, &c, err);
    if (st == SMFW_OK)
        st = smfw_aws_s3_list_objects(c, bucket, list_prefix, collect_run_key, &r, err);
    if (st == SMFW_OK && r.l.failed) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (st != SMFW_OK) goto done;
    qsort(r.l.keys, r.l.n, sizeof *r.l.keys, cmp_str);
    size_t chunks = 0;
    int have_summary = 0, marker = 0;
    for (size_t i = 0; i < r.l.n; i++) {
        const char *rel = r.l.keys[i] + plen;
        if (strchr(rel, '/')) continue;
        if (strcmp(rel, "profile_export_aiperf.json") == 0) have_summary = 1;
        if (strcmp(rel, "shard.txt") == 0) marker = 1;
        if (is_chunk(rel)) chunks++;
    }
    if (!have_summary) {
        char names[200];
        int tarball = 0;
        size_t below = run_folders_below(&r.l, plen, names, sizeof names, &tarball);
        const char *cut = strrchr(prefix, '/');
        int parent_len = cut ? (int)(cut - prefix) + 1 : 0;
        if (chunks || marker)
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "%s holds %zu record chunks but no final summary "
                                "(profile_export_aiperf.json): that run did not finish; `smfw "
                                "merge s3://%s/%.*s --allow-incomplete -o DIR` merges the records "
                                "its chunks hold",
                                uri, chunks, bucket, parent_len, prefix);
        else if (below && !tarball)
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "%s holds %zu run folders (%s%s), the shards of one run, not a "
                                "run: merge them first (`smfw merge s3://%s/%s -o "
                                "s3://%s/%s-merged`, then `smfw results --s3 s3://%s/%s-merged`), "
                                "or name one shard's folder",
                                uri, below, names, below > 3 ? ", ..." : "", bucket, list_prefix,
                                bucket, prefix[0] ? prefix : "run", bucket,
                                prefix[0] ? prefix : "run");
        else
            st = smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                                "no run folder (profile_export_aiperf.json) under s3://%s/%s",
                                bucket, list_prefix);
        goto done;
    }
    if (fingerprint) snprintf(fingerprint, fp_size, "%s %s", r.summary_etag, r.records_etag);
    for (size_t i = 0; local_dir && i < r.l.n && st == SMFW_OK; i++) {
        const char *rel = r.l.keys[i] + plen;
        /* The chunks were profile_export.jsonl's pieces, shard.txt its placeholder. */
        if (!strchr(rel, '/') && (is_chunk(rel) || strcmp(rel, "shard.txt") == 0)) continue;
        if (!safe_rel(rel)) {
            char shown[300];
            SMFW_LOG_WARN("s3", "s3://%s/%s: not a plain file name below the run folder; skipped",
                          bucket, smfw_term_escape(r.l.keys[i], shown, sizeof shown));
            continue;
        }
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", local_dir, rel);
        char *slash = strrchr(path, '/');
        if (strchr(rel, '/')) {
            *slash = '\0';
            if (smfw_mkdir_p(path, 0755, NULL) != 0)
                st =
                    smfw_error_set(err, SMFW_ERR_IO, "cannot create %s: %s", path, strerror(errno));
            *slash = '/';
        }
        if (st == SMFW_OK) st = smfw_aws_s3_get_object_file(c, bucket, r.l.keys[i], path, err);
    }
done:
    for (size_t i = 0; i < r.l.n; i++) free(r.l.keys[i]);
    free(r.l.keys);
    smfw_aws_client_free(c);
    return st;
}
