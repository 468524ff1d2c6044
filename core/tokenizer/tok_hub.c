/* tok_hub.c - a Hugging Face model id as a tokenizer SPEC: tokenizer.json and
 * tokenizer_config.json from the hub's resolve URLs into the cache layout the
 * Python tools share (models--org--name/{blobs,refs,snapshots}), with
 * HF_TOKEN, HF_ENDPOINT, HF_HOME/HF_HUB_CACHE, HF_HUB_OFFLINE=1 and atomic
 * writes. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>

#include <smfw/log.h>
#include <smfw/net.h>
#include <smfw/untrusted.h>

#include "tok_internal.h"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static void init_once(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

static void hub_cache(char *out, size_t cap) {
    const char *c = getenv("HF_HUB_CACHE"), *home = getenv("HF_HOME");
    const char *xdg = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (c && *c)
        snprintf(out, cap, "%s", c);
    else if (home && *home)
        snprintf(out, cap, "%s/hub", home);
    else if (xdg && *xdg)
        snprintf(out, cap, "%s/huggingface/hub", xdg);
    else
        snprintf(out, cap, "%s/.cache/huggingface/hub", h && *h ? h : "/tmp");
}

/* Write data to path atomically (temporary file + rename). */
static int write_atomic(const char *path, const char *data, size_t len) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.%ld.incomplete", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    int bad = fwrite(data, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

typedef struct fetch {
    tok_bytes body;
    char commit[128], etag[256];
    int progress;
} fetch;

static size_t on_body(char *p, size_t size, size_t n, void *user) {
    fetch *f = user;
    if (f->body.len + size * n > TOK_MAX_FILE_BYTES) return 0;
    return tok_bytes_append(&f->body, p, size * n) ? 0 : size * n;
}

static void header_value(const char *line, size_t n, const char *name, char *out, size_t cap) {
    size_t k = strlen(name);
    if (n <= k || strncasecmp(line, name, k) != 0 || line[k] != ':') return;
    const char *v = line + k + 1;
    const char *end = line + n;
    while (v < end && (*v == ' ' || *v == '\t')) v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ')) end--;
    if (end - v >= 2 && v[0] == 'W' && v[1] == '/') v += 2;
    if (end > v && *v == '"') v++;
    if (end > v && end[-1] == '"') end--;
    snprintf(out, cap, "%.*s", (int)(end - v), v);
}

static size_t on_header(char *p, size_t size, size_t n, void *user) {
    fetch *f = user;
    size_t len = size * n;
    /* a redirect's headers come first; the final response's win */
    header_value(p, len, "x-repo-commit", f->commit, sizeof f->commit);
    header_value(p, len, "x-linked-etag", f->etag, sizeof f->etag);
    char etag[256] = "";
    header_value(p, len, "etag", etag, sizeof etag);
    if (etag[0] && !f->etag[0]) snprintf(f->etag, sizeof f->etag, "%s", etag);
    return len;
}

static int on_progress(void *user, curl_off_t total, curl_off_t now, curl_off_t ut, curl_off_t un) {
    (void)ut;
    (void)un;
    fetch *f = user;
    if (f->progress && total > 0)
        fprintf(stderr, "\rsmfw: downloading %.1f / %.1f MB", (double)now / 1048576,
                (double)total / 1048576);
    return 0;
}

/* GET one file; *status = HTTP status (0 on transport failure). */
static smfw_status get(const char *url, fetch *f, long *status, smfw_error *err) {
    pthread_once(&g_once, init_once);
    smfw_net_config *net = NULL; /* smfw's one TLS/proxy rule set (include/smfw/net.h) */
    smfw_status nst = smfw_net_config_new(NULL, NULL, NULL, NULL, &net, err);
    if (nst != SMFW_OK) return nst;
    CURL *h = curl_easy_init();
    if (!h) {
        smfw_net_config_free(net);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    struct curl_slist *hdr = NULL;
    const char *token = getenv("HF_TOKEN");
    char auth[4200];
    if (token && *token) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
        hdr = curl_slist_append(hdr, auth);
    }
    hdr = curl_slist_append(hdr, "User-Agent: smfw");
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, f);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, f);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, f);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 20L);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 60L);
    smfw_net_apply(net, h, url);
    CURLcode rc = curl_easy_perform(h);
    smfw_net_config_free(net);
    *status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    curl_slist_free_all(hdr);
    curl_easy_cleanup(h);
    if (f->progress) fputc('\n', stderr);
    if (rc != CURLE_OK)
        return smfw_error_set(err, SMFW_ERR_NETWORK, "cannot download %s: %s", url,
                              curl_easy_strerror(rc));
    return SMFW_OK;
}

static int valid_id(const char *id) {
    const char *slash = strchr(id, '/');
    if (!slash || slash == id || !slash[1] || strchr(slash + 1, '/')) return 0;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.' || *p == '/'))
            return 0;
    return strstr(id, "..") == NULL;
}

static int is_commit(const char *rev) {
    size_t n = strlen(rev);
    if (n != 40) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((rev[i] >= '0' && rev[i] <= '9') || (rev[i] >= 'a' && rev[i] <= 'f'))) return 0;
    return 1;
}

/* Download (or find cached) one file into the snapshot; required: fail if absent. */
static smfw_status fetch_file(const char *repo_dir, const char *id, const char *rev,
                              const char *file, int required, char *commit, size_t commit_cap,
                              smfw_error *err) {
    const char *endpoint = getenv("HF_ENDPOINT");
    if (!endpoint || !*endpoint) endpoint = "https://huggingface.co";
    char url[4400];
    snprintf(url, sizeof url, "%s/%s/resolve/%s/%s", endpoint, id, rev, file);
    fetch f;
    memset(&f, 0, sizeof f);
    f.progress = isatty(2) && strcmp(file, "tokenizer.json") == 0;
    long status;
    smfw_status st = get(url, &f, &status, err);
    if (st != SMFW_OK) goto done;
    if (status == 404 && !required) goto done;
    if (status == 401 || status == 403) {
        st = smfw_error_set(err, SMFW_ERR_AUTH,
                            "the hub refused %s (HTTP %ld): a gated or private model needs "
                            "HF_TOKEN set to a token that has accepted its licence",
                            url, status);
        goto done;
    }
    if (status != 200) {
        st = smfw_error_set(err, status == 404 ? SMFW_ERR_NOT_FOUND : SMFW_ERR_SERVER,
                            "the hub answered HTTP %ld for %s", status, url);
        goto done;
    }
    if (!commit[0]) {
        if (f.commit[0])
            snprintf(commit, commit_cap, "%s", f.commit);
        else if (is_commit(rev))
            snprintf(commit, commit_cap, "%s", rev);
    }
    if (!commit[0] || !is_commit(commit) || !f.etag[0] || f.etag[0] == '.' || strchr(f.etag, '/')) {
        st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                            "%s: the answer has no X-Repo-Commit or ETag, so it cannot be cached "
                            "as the hub's layout requires",
                            url);
        goto done;
    }
    char path[4600], snap[4600], link[4600];
    snprintf(path, sizeof path, "%s/blobs", repo_dir);
    snprintf(snap, sizeof snap, "%s/snapshots/%s", repo_dir, commit);
    if (smfw_mkdir_p(path, 0755, NULL) || smfw_mkdir_p(snap, 0755, NULL)) {
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot create %s: %s", snap, strerror(errno));
        goto done;
    }
    snprintf(path, sizeof path, "%s/blobs/%s", repo_dir, f.etag);
    if (write_atomic(path, f.body.p ? f.body.p : "", f.body.len)) {
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        goto done;
    }
    snprintf(link, sizeof link, "%s/%s", snap, file);
    snprintf(path, sizeof path, "../../blobs/%s", f.etag);
    char tmp[4700];
    snprintf(tmp, sizeof tmp, "%s.%ld.incomplete", link, (long)getpid());
    unlink(tmp);
    if (symlink(path, tmp) != 0 || rename(tmp, link) != 0) {
        unlink(tmp);
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot link %s: %s", link, strerror(errno));
    }
done:
    tok_bytes_free(&f.body);
    return st;
}

smfw_status tok_hub_resolve(const char *spec, char *dir, size_t cap, smfw_error *err) {
    char id[512], rev[256] = "main";
    snprintf(id, sizeof id, "%s", spec);
    char *at = strchr(id, '@');
    if (at) {
        *at = 0;
        snprintf(rev, sizeof rev, "%s", at + 1);
    }
    if (!valid_id(id) || !rev[0] || strchr(rev, '/') || strstr(rev, ".."))
        return smfw_error_set(err, SMFW_ERR_USAGE,
                              "\"%s\" is not a file, a folder or a Hugging Face model id "
                              "(org/name[@revision])",
                              spec);
    char cache[4096], repo_dir[4400], ref[4600];
    hub_cache(cache, sizeof cache);
    char flat[600];
    snprintf(flat, sizeof flat, "models--%s", id);
    char *slash = strchr(flat, '/');
    memmove(slash + 2, slash + 1, strlen(slash + 1) + 1);
    slash[0] = slash[1] = '-';
    snprintf(repo_dir, sizeof repo_dir, "%s/%s", cache, flat);
    /* the cached snapshot for this revision, if any */
    char commit[128] = "";
    if (is_commit(rev)) {
        snprintf(commit, sizeof commit, "%s", rev);
    } else {
        snprintf(ref, sizeof ref, "%s/refs/%s", repo_dir, rev);
        FILE *f = fopen(ref, "r");
        if (f) {
            if (fgets(commit, sizeof commit, f)) commit[strcspn(commit, "\r\n ")] = 0;
            fclose(f);
        }
    }
    struct stat st;
    if (commit[0]) {
        snprintf(dir, cap, "%s/snapshots/%s", repo_dir, commit);
        char tj[4700];
        snprintf(tj, sizeof tj, "%s/tokenizer.json", dir);
        if (stat(tj, &st) == 0) return SMFW_OK;
    }
    const char *off = getenv("HF_HUB_OFFLINE");
    if (off && *off && strcmp(off, "0") != 0)
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                              "HF_HUB_OFFLINE is set and %s@%s is not in the cache %s", id, rev,
                              cache);
    commit[0] = 0;
    smfw_log(SMFW_LOG_INFO, "tokenizer", "downloading %s@%s tokenizer.json into %s", id, rev,
             cache);
    smfw_status s = fetch_file(repo_dir, id, rev, "tokenizer.json", 1, commit, sizeof commit, err);
    if (s == SMFW_OK)
        s = fetch_file(repo_dir, id, rev, "tokenizer_config.json", 0, commit, sizeof commit, err);
    if (s != SMFW_OK) return s;
    if (!is_commit(rev)) {
        char refs[4600];
        snprintf(refs, sizeof refs, "%s/refs", repo_dir);
        snprintf(ref, sizeof ref, "%s/refs/%s", repo_dir, rev);
        if (smfw_mkdir_p(refs, 0755, NULL) || write_atomic(ref, commit, strlen(commit)))
            return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", ref, strerror(errno));
    }
    snprintf(dir, cap, "%s/snapshots/%s", repo_dir, commit);
    return SMFW_OK;
}
