/*
 * s3.c - S3 in path style (aws-wire.md §6): CreateBucket, HeadBucket,
 * ListObjectsV2, PutObject, GetObject (with Range), HeadObject, DeleteObject.
 *
 * Objects live on disk under <state-dir>/s3/<bucket>/, one data file and one
 * JSON metadata file per object, named by the SHA-256 of the key (keys may
 * hold any byte and be 1024 long). An in-memory sorted index, rebuilt from
 * the metadata files at start, serves listings. Multipart uploads are
 * s3_multipart.c's; a completed one is stored here like any object.
 */
#include "mock.h"

#include <smfw/crc32.h>
#include <smfw/sigv4.h>

#include <dirent.h>
#include <math.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct s3_object {
    char *key;
    size_t size;
    char etag[40]; /* hex MD5, unquoted */
    char *content_type;
    double last_modified;
    char crc32_b64[16]; /* base64 CRC-32 when the uploader sent one, else "" */
    json_t *meta;       /* x-amz-meta-* as {name: value} */
} s3_object;

typedef struct s3_bucket {
    char name[64];
    double created;
    s3_object *objects; /* sorted by key */
    size_t count, cap;
} s3_bucket;

struct mock_s3 {
    char root[4096];
    char region[64];
    s3_bucket *buckets;
    size_t count, cap;
    mock_s3_uploads *uploads; /* open multipart uploads (s3_multipart.c) */
};

/* ---- store -------------------------------------------------------------------------------- */

static s3_bucket *s3_find_bucket(mock_s3 *s3, const char *name) {
    for (size_t i = 0; i < s3->count; i++)
        if (!strcmp(s3->buckets[i].name, name)) return &s3->buckets[i];
    return NULL;
}

static s3_bucket *s3_add_bucket(mock_s3 *s3, const char *name, double created) {
    if (s3->count == s3->cap) {
        s3->cap = s3->cap ? s3->cap * 2 : 8;
        s3->buckets = realloc(s3->buckets, s3->cap * sizeof *s3->buckets);
        if (!s3->buckets) abort();
    }
    s3_bucket *b = &s3->buckets[s3->count++];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    b->created = created;
    return b;
}

/* Index of key in b, or -(insertion point + 1). */
static long s3_bsearch(const s3_bucket *b, const char *key) {
    size_t lo = 0, hi = b->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(b->objects[mid].key, key);
        if (c == 0) return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -(long)lo - 1;
}

static void s3_object_clear(s3_object *o) {
    free(o->key);
    free(o->content_type);
    json_decref(o->meta);
    memset(o, 0, sizeof *o);
}

/* Insert or replace; takes ownership of o's fields. */
static void s3_index_put(s3_bucket *b, s3_object *o) {
    long at = s3_bsearch(b, o->key);
    if (at >= 0) {
        s3_object_clear(&b->objects[at]);
        b->objects[at] = *o;
        return;
    }
    size_t pos = (size_t)(-at - 1);
    if (b->count == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 16;
        b->objects = realloc(b->objects, b->cap * sizeof *b->objects);
        if (!b->objects) abort();
    }
    memmove(&b->objects[pos + 1], &b->objects[pos], (b->count - pos) * sizeof *b->objects);
    b->objects[pos] = *o;
    b->count++;
}

static void s3_paths(const mock_s3 *s3, const char *bucket, const char *key, char *data, char *meta,
                     size_t size) {
    char h[65];
    smfw_sha256_hex(key, strlen(key), h);
    snprintf(data, size, "%s/%s/%s.data", s3->root, bucket, h);
    snprintf(meta, size, "%s/%s/%s.meta", s3->root, bucket, h);
}

static int read_file(const char *path, uint8_t **data, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        fclose(f);
        return -1;
    }
    *len = (size_t)st.st_size;
    *data = malloc(*len + 1);
    if (!*data) abort();
    size_t got = *len ? fread(*data, 1, *len, f) : 0;
    fclose(f);
    if (got != *len) {
        free(*data);
        return -1;
    }
    (*data)[*len] = 0;
    return 0;
}

static void md5_hex(const void *data, size_t len, char out[33]) {
    unsigned char md[16];
    unsigned int n = 0;
    EVP_Digest(data, len, md, &n, EVP_md5(), NULL);
    for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
}

static void crc32_b64(const void *data, size_t len, char out[16]) {
    uint32_t c = smfw_crc32(0, data, len);
    unsigned char be[4] = {(unsigned char)(c >> 24), (unsigned char)(c >> 16),
                           (unsigned char)(c >> 8), (unsigned char)c};
    EVP_EncodeBlock((unsigned char *)out, be, 4);
}

/* etag: the multipart form ("<hex>-N") for a completed upload, NULL for the MD5 of data. */
static int s3_store(mock_s3 *s3, s3_bucket *b, const char *key, const void *data, size_t len,
                    const char *content_type, json_t *meta, const char *crc, const char *etag) {
    char dpath[4300], mpath[4300];
    s3_paths(s3, b->name, key, dpath, mpath, sizeof dpath);
    s3_object o;
    memset(&o, 0, sizeof o);
    o.key = strdup(key);
    o.size = len;
    if (etag)
        snprintf(o.etag, sizeof o.etag, "%s", etag);
    else
        md5_hex(data, len, o.etag);
    /* S3's type for an object stored without one (moto agrees). */
    o.content_type = strdup(content_type ? content_type : "binary/octet-stream");
    o.last_modified = floor(mock_now_unix());
    snprintf(o.crc32_b64, sizeof o.crc32_b64, "%s", crc ? crc : "");
    o.meta = meta ? json_incref(meta) : json_object();
    json_t *m = json_pack("{s:s,s:I,s:s,s:s,s:f,s:s,s:O}", "key", key, "size", (json_int_t)len,
                          "etag", o.etag, "content_type", o.content_type, "last_modified",
                          o.last_modified, "crc32", o.crc32_b64, "meta", o.meta);
    char *mtext = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    int rc =
        mock_write_file(dpath, data, len) == 0 && mock_write_file(mpath, mtext, strlen(mtext)) == 0
            ? 0
            : -1;
    free(mtext);
    if (rc != 0) {
        s3_object_clear(&o);
        return -1;
    }
    s3_index_put(b, &o);
    return 0;
}

static const char *jstr(json_t *o, const char *key, const char *def) {
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : def;
}

static void s3_load_bucket(mock_s3 *s3, const char *name) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", s3->root, name);
    struct stat st;
    stat(dir, &st);
    s3_bucket *b = s3_add_bucket(s3, name, (double)st.st_mtime);
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".meta") != 0) continue;
        char path[4500];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        json_t *m = json_load_file(path, 0, NULL);
        const char *key = json_string_value(json_object_get(m, "key"));
        if (key) {
            s3_object o;
            memset(&o, 0, sizeof o);
            o.key = strdup(key);
            o.size = (size_t)json_integer_value(json_object_get(m, "size"));
            snprintf(o.etag, sizeof o.etag, "%s", jstr(m, "etag", ""));
            o.content_type = strdup(jstr(m, "content_type", "binary/octet-stream"));
            o.last_modified = json_number_value(json_object_get(m, "last_modified"));
            snprintf(o.crc32_b64, sizeof o.crc32_b64, "%s", jstr(m, "crc32", ""));
            o.meta = json_incref(json_object_get(m, "meta"));
            if (!o.meta) o.meta = json_object();
            s3_index_put(b, &o);
        }
        json_decref(m);
    }
    closedir(d);
}

mock_s3 *mock_s3_new(const char *state_dir, const char *region, char *err, size_t err_size) {
    mock_s3 *s3 = calloc(1, sizeof *s3);
    if (!s3) abort();
    snprintf(s3->root, sizeof s3->root, "%s/s3", state_dir);
    snprintf(s3->region, sizeof s3->region, "%s", region);
    if (mock_mkdirs(s3->root) != 0) {
        snprintf(err, err_size, "cannot create %s: %s", s3->root, strerror(errno));
        free(s3);
        return NULL;
    }
    s3->uploads = mock_s3_uploads_new(s3->root);
    DIR *d = opendir(s3->root);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') s3_load_bucket(s3, e->d_name);
    if (d) closedir(d);
    return s3;
}

void mock_s3_free(mock_s3 *s3) {
    if (!s3) return;
    mock_s3_uploads_free(s3->uploads);
    for (size_t i = 0; i < s3->count; i++) {
        for (size_t j = 0; j < s3->buckets[i].count; j++)
            s3_object_clear(&s3->buckets[i].objects[j]);
        free(s3->buckets[i].objects);
    }
    free(s3->buckets);
    free(s3);
}

static int s3_ensure_bucket_dir(mock_s3 *s3, const char *name) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", s3->root, name);
    return mock_mkdirs(dir);
}

int mock_s3_get(mock_s3 *s3, const char *bucket, const char *key, uint8_t **data, size_t *len) {
    s3_bucket *b = s3_find_bucket(s3, bucket);
    if (!b || s3_bsearch(b, key) < 0) return -1;
    char dpath[4300], mpath[4300];
    s3_paths(s3, bucket, key, dpath, mpath, sizeof dpath);
    return read_file(dpath, data, len);
}

int mock_s3_put(mock_s3 *s3, const char *bucket, const char *key, const void *data, size_t len,
                const char *content_type) {
    s3_bucket *b = s3_find_bucket(s3, bucket);
    if (!b) {
        if (s3_ensure_bucket_dir(s3, bucket) != 0) return -1;
        b = s3_add_bucket(s3, bucket, mock_now_unix());
    }
    return s3_store(s3, b, key, data, len, content_type, NULL, NULL, NULL);
}

int mock_s3_store_completed(mock_s3 *s3, const char *bucket, const char *key, const void *data,
                            size_t len, const char *content_type, json_t *meta, const char *crc,
                            const char *etag) {
    s3_bucket *b = s3_find_bucket(s3, bucket);
    if (!b) return -1;
    return s3_store(s3, b, key, data, len, content_type, meta, crc, etag);
}

json_t *mock_s3_meta_headers(const mock_request *req) {
    json_t *meta = json_object();
    for (size_t i = 0; i < req->header_count; i++)
        if (!strncasecmp(req->headers[i].name, "x-amz-meta-", 11)) {
            char lower[256];
            size_t n = strlen(req->headers[i].name + 11);
            if (n >= sizeof lower) continue;
            for (size_t j = 0; j <= n; j++) {
                char c = req->headers[i].name[11 + j];
                lower[j] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
            }
            json_object_set_new(meta, lower, json_string(req->headers[i].value));
        }
    return meta;
}

size_t mock_s3_list(mock_s3 *s3, const char *bucket, const char *prefix, char ***keys) {
    *keys = NULL;
    s3_bucket *b = s3_find_bucket(s3, bucket);
    if (!b) return 0;
    size_t n = 0, plen = strlen(prefix);
    *keys = calloc(b->count + 1, sizeof **keys);
    if (!*keys) abort();
    for (size_t i = 0; i < b->count; i++)
        if (!strncmp(b->objects[i].key, prefix, plen)) (*keys)[n++] = strdup(b->objects[i].key);
    return n;
}

/* ---- HTTP --------------------------------------------------------------------------------- */

void mock_s3_error(mock_request *req, int status, const char *code, const char *message,
                   const char *tag, const char *value) {
    if (req->head_only) {
        /* HEAD errors have no body; the SDK reports the status ("NotFound"). */
        const char *h[] = {NULL};
        mock_respond(req, status, h, NULL, 0);
        mock_request_finish(req);
        return;
    }
    smfw_buf extra = {0};
    if (tag) {
        smfw_buf_printf(&extra, "<%s>", tag);
        mock_xml_append(&extra, value);
        smfw_buf_printf(&extra, "</%s>", tag);
    }
    mock_aws_error(req, MOCK_PROTO_S3, status, code, message, extra.data);
    smfw_buf_free(&extra);
}

static void http_date_of(double unix_s, char out[64]) {
    time_t t = (time_t)unix_s;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 64, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

static int bucket_name_valid(const char *s) {
    size_t n = strlen(s);
    if (n < 3 || n > 63) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return 0;
    }
    return s[0] != '-' && s[0] != '.' && s[n - 1] != '-' && s[n - 1] != '.';
}

static void s3_create_bucket(mock_s3 *s3, mock_request *req, const char *name) {
    if (!bucket_name_valid(name)) {
        mock_s3_error(req, 400, "InvalidBucketName", "The specified bucket is not valid.",
                      "BucketName", name);
        return;
    }
    const char *body = (const char *)req->body;
    const char *lc = strstr(body, "<LocationConstraint>");
    char constraint[64] = "";
    if (lc) {
        lc += strlen("<LocationConstraint>");
        const char *end = strstr(lc, "</LocationConstraint>");
        if (end && (size_t)(end - lc) < sizeof constraint)
            snprintf(constraint, sizeof constraint, "%.*s", (int)(end - lc), lc);
    }
    const char *region = s3->region; /* the endpoint's (a wrong scope is refused before) */
    int us_east_1 = !strcmp(region, "us-east-1");
    if (!constraint[0] && !us_east_1) {
        mock_s3_error(req, 400, "IllegalLocationConstraintException",
                      "The unspecified location constraint is incompatible for the region specific "
                      "endpoint this request was sent to.",
                      NULL, NULL);
        return;
    }
    if (us_east_1 && !strcmp(constraint, "us-east-1")) {
        mock_s3_error(req, 400, "InvalidLocationConstraint",
                      "The specified location-constraint is not valid", "LocationConstraint",
                      constraint);
        return;
    }
    /* us-east-1 may create a bucket in another region; other endpoints only in their own. */
    if (constraint[0] && !us_east_1 && strcmp(constraint, region) != 0) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "The %.64s location constraint is incompatible for the region specific endpoint "
                 "this request was sent to.",
                 constraint);
        mock_s3_error(req, 400, "IllegalLocationConstraintException", msg, NULL, NULL);
        return;
    }
    if (s3_find_bucket(s3, name)) {
        if (!us_east_1) {
            mock_s3_error(
                req, 409, "BucketAlreadyOwnedByYou",
                "Your previous request to create the named bucket succeeded and you already "
                "own it.",
                "BucketName", name);
            return;
        }
    } else {
        if (s3_ensure_bucket_dir(s3, name) != 0) {
            mock_s3_error(req, 500, "InternalError", "cannot create the bucket directory", NULL,
                          NULL);
            return;
        }
        s3_add_bucket(s3, name, mock_now_unix());
    }
    char loc[128];
    snprintf(loc, sizeof loc, "Location: /%s", name);
    const char *h[] = {loc, NULL};
    mock_respond(req, 200, h, NULL, 0);
    mock_request_finish(req);
}

/* A name in a listing: with encoding-type=url S3 encodes Delimiter, Prefix, Key,
 * StartAfter and CommonPrefixes/Prefix (the SDKs decode all five), else XML-escapes. */
static void s3_put_name(smfw_buf *b, const char *name, int url) {
    if (!url) {
        mock_xml_append(b, name);
        return;
    }
    for (const char *k = name; *k; k++) {
        unsigned char ch = (unsigned char)*k;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            strchr("-_.~/", ch))
            smfw_buf_append(b, k, 1);
        else
            smfw_buf_printf(b, "%%%02X", ch);
    }
}

static void s3_list_v2(mock_s3 *s3, mock_request *req, s3_bucket *b) {
    char prefix[1100] = "", delim[16] = "", token[2200] = "", start_after[1100] = "",
         max_keys_s[16] = "", enc[16] = "";
    mock_form_get(req->query, "prefix", prefix, sizeof prefix);
    mock_form_get(req->query, "delimiter", delim, sizeof delim);
    int has_token = mock_form_get(req->query, "continuation-token", token, sizeof token);
    int has_start = mock_form_get(req->query, "start-after", start_after, sizeof start_after);
    mock_form_get(req->query, "encoding-type", enc, sizeof enc);
    long max_keys = 1000;
    if (mock_form_get(req->query, "max-keys", max_keys_s, sizeof max_keys_s)) {
        char *end;
        max_keys = strtol(max_keys_s, &end, 10);
        if (*end || max_keys < 0) {
            mock_s3_error(req, 400, "InvalidArgument",
                          "Provided max-keys not an integer or within "
                          "integer range",
                          "ArgumentName", "max-keys");
            return;
        }
        if (max_keys > 1000) max_keys = 1000;
    }
    /* The continuation token is the hex of the last key (or prefix) returned. */
    char after[1100] = "";
    if (has_token) {
        size_t n = strlen(token);
        if (n % 2 || n / 2 >= sizeof after) {
            mock_s3_error(req, 400, "InvalidArgument",
                          "The continuation token provided is incorrect", "ArgumentName",
                          "continuation-token");
            return;
        }
        for (size_t i = 0; i < n / 2; i++) {
            unsigned v;
            if (sscanf(token + 2 * i, "%2x", &v) != 1) {
                mock_s3_error(req, 400, "InvalidArgument",
                              "The continuation token provided is incorrect", "ArgumentName",
                              "continuation-token");
                return;
            }
            after[i] = (char)v;
        }
    } else if (has_start) {
        snprintf(after, sizeof after, "%s", start_after);
    }
    int url = !strcmp(enc, "url");
    size_t plen = strlen(prefix), dlen = strlen(delim);
    smfw_buf contents = {0}, prefixes = {0};
    long count = 0;
    int truncated = 0;
    char last[1100] = "", last_prefix[1100] = "";
    for (size_t i = 0; i < b->count; i++) {
        const s3_object *o = &b->objects[i];
        if (strncmp(o->key, prefix, plen) != 0) continue;
        if (after[0] && strcmp(o->key, after) <= 0) continue;
        const char *cp_end = dlen ? strstr(o->key + plen, delim) : NULL;
        if (cp_end) {
            size_t cplen = (size_t)(cp_end - o->key) + dlen;
            if (cplen < sizeof last_prefix && strlen(last_prefix) == cplen &&
                !strncmp(last_prefix, o->key, cplen))
                continue; /* same common prefix as the previous key */
            if (after[0] && strlen(after) >= cplen && !strncmp(after, o->key, cplen)) continue;
            if (count == max_keys) {
                truncated = 1;
                break;
            }
            snprintf(last_prefix, sizeof last_prefix, "%.*s", (int)cplen, o->key);
            snprintf(last, sizeof last, "%s", last_prefix);
            smfw_buf_puts(&prefixes, "<CommonPrefixes><Prefix>");
            s3_put_name(&prefixes, last_prefix, url);
            smfw_buf_puts(&prefixes, "</Prefix></CommonPrefixes>");
            count++;
            continue;
        }
        if (count == max_keys) {
            truncated = 1;
            break;
        }
        char lm[32];
        mock_iso8601(o->last_modified, lm, 1);
        smfw_buf_puts(&contents, "<Contents><Key>");
        s3_put_name(&contents, o->key, url);
        smfw_buf_printf(&contents,
                        "</Key><LastModified>%s</LastModified><ETag>&quot;%s&quot;</ETag>"
                        "<Size>%zu</Size><StorageClass>STANDARD</StorageClass></Contents>",
                        lm, o->etag, o->size);
        snprintf(last, sizeof last, "%s", o->key);
        count++;
    }
    /* max-keys=0 asks for nothing, and nothing is left out: S3 says not truncated
     * (moto agrees; a token over no key could not continue anyway). */
    if (max_keys == 0) truncated = 0;
    smfw_buf x = {0};
    smfw_buf_puts(&x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListBucketResult "
                      "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>");
    mock_xml_append(&x, b->name);
    smfw_buf_puts(&x, "</Name><Prefix>");
    s3_put_name(&x, prefix, url);
    smfw_buf_printf(&x, "</Prefix><KeyCount>%ld</KeyCount><MaxKeys>%ld</MaxKeys>", count, max_keys);
    if (dlen) {
        smfw_buf_puts(&x, "<Delimiter>");
        s3_put_name(&x, delim, url);
        smfw_buf_puts(&x, "</Delimiter>");
    }
    if (url) smfw_buf_puts(&x, "<EncodingType>url</EncodingType>");
    smfw_buf_printf(&x, "<IsTruncated>%s</IsTruncated>", truncated ? "true" : "false");
    if (has_token) {
        smfw_buf_puts(&x, "<ContinuationToken>");
        mock_xml_append(&x, token);
        smfw_buf_puts(&x, "</ContinuationToken>");
    }
    if (truncated) {
        smfw_buf_puts(&x, "<NextContinuationToken>");
        for (const char *k = last; *k; k++) smfw_buf_printf(&x, "%02x", (unsigned char)*k);
        smfw_buf_puts(&x, "</NextContinuationToken>");
    }
    if (has_start) {
        smfw_buf_puts(&x, "<StartAfter>");
        s3_put_name(&x, start_after, url);
        smfw_buf_puts(&x, "</StartAfter>");
    }
    if (contents.len) smfw_buf_append(&x, contents.data, contents.len);
    if (prefixes.len) smfw_buf_append(&x, prefixes.data, prefixes.len);
    smfw_buf_puts(&x, "</ListBucketResult>");
    const char *h[] = {"Content-Type: application/xml", NULL};
    mock_respond(req, 200, h, x.data, x.len);
    smfw_buf_free(&x);
    smfw_buf_free(&contents);
    smfw_buf_free(&prefixes);
    mock_request_finish(req);
}

static void s3_put_object(mock_s3 *s3, mock_request *req, s3_bucket *b, const char *key) {
    if (mock_request_header(req, "x-amz-copy-source")) {
        mock_s3_error(req, 501, "NotImplemented", "CopyObject is not emulated by smfw-mock", NULL,
                      NULL);
        return;
    }
    long at = s3_bsearch(b, key);
    const char *inm = mock_request_header(req, "If-None-Match");
    if (inm && !strcmp(inm, "*") && at >= 0) {
        mock_s3_error(req, 412, "PreconditionFailed",
                      "At least one of the pre-conditions you specified did not hold", "Condition",
                      "If-None-Match");
        return;
    }
    const char *md5 = mock_request_header(req, "Content-MD5");
    if (md5) {
        unsigned char md[16];
        unsigned int n = 0;
        char b64[32];
        EVP_Digest(req->body, req->body_len, md, &n, EVP_md5(), NULL);
        EVP_EncodeBlock((unsigned char *)b64, md, 16);
        if (strcmp(b64, md5) != 0) {
            mock_s3_error(req, 400, "BadDigest",
                          "The Content-MD5 you specified did not match what we received.", NULL,
                          NULL);
            return;
        }
    }
    char crc[16];
    crc32_b64(req->body, req->body_len, crc);
    const char *sent_crc = mock_request_header(req, "x-amz-checksum-crc32");
    if (sent_crc && strcmp(sent_crc, crc) != 0) {
        mock_s3_error(req, 400, "BadDigest",
                      "The CRC32 you specified did not match the calculated checksum.", NULL, NULL);
        return;
    }
    json_t *meta = mock_s3_meta_headers(req);
    int rc = s3_store(s3, b, key, req->body, req->body_len,
                      mock_request_header(req, "Content-Type"), meta, sent_crc ? crc : NULL, NULL);
    json_decref(meta);
    if (rc != 0) {
        mock_s3_error(req, 500, "InternalError", "smfw-mock could not write the object", NULL,
                      NULL);
        return;
    }
    long idx = s3_bsearch(b, key);
    char etag[64], crc_h[64];
    snprintf(etag, sizeof etag, "ETag: \"%s\"", b->objects[idx].etag);
    snprintf(crc_h, sizeof crc_h, "x-amz-checksum-crc32: %s", crc);
    const char *h[] = {etag, sent_crc ? crc_h : NULL, NULL};
    mock_respond(req, 200, h, NULL, 0);
    mock_request_finish(req);
}

/* Parse "bytes=a-b", "bytes=a-", "bytes=-n". Returns 0, -1 malformed (ignore), -2 unsatisfiable. */
static int parse_range(const char *r, size_t size, size_t *first, size_t *last) {
    if (strncmp(r, "bytes=", 6) != 0 || strchr(r, ',')) return -1;
    r += 6;
    char *end;
    if (*r == '-') {
        unsigned long long n = strtoull(r + 1, &end, 10);
        if (*end || end == r + 1) return -1;
        if (n == 0 || size == 0) return -2;
        *first = n >= size ? 0 : size - (size_t)n;
        *last = size - 1;
        return 0;
    }
    unsigned long long a = strtoull(r, &end, 10);
    if (end == r || *end != '-') return -1;
    const char *bs = end + 1;
    unsigned long long bv = size ? size - 1 : 0;
    if (*bs) {
        bv = strtoull(bs, &end, 10);
        if (*end || bv < a) return -1;
    }
    if (a >= size) return -2;
    if (bv >= size) bv = size - 1;
    *first = (size_t)a;
    *last = (size_t)bv;
    return 0;
}

static void s3_get_object(mock_s3 *s3, mock_request *req, s3_bucket *b, const char *key) {
    long at = s3_bsearch(b, key);
    if (at < 0) {
        mock_s3_error(req, 404, "NoSuchKey", "The specified key does not exist.", "Key", key);
        return;
    }
    s3_object *o = &b->objects[at];
    char etag_q[48];
    snprintf(etag_q, sizeof etag_q, "\"%s\"", o->etag);
    const char *im = mock_request_header(req, "If-Match");
    if (im && strcmp(im, etag_q) != 0 && strcmp(im, "*") != 0) {
        mock_s3_error(req, 412, "PreconditionFailed",
                      "At least one of the pre-conditions you specified did not hold", "Condition",
                      "If-Match");
        return;
    }
    const char *inm = mock_request_header(req, "If-None-Match");
    if (inm && (!strcmp(inm, etag_q) || !strcmp(inm, "*"))) {
        char etag_h[64];
        snprintf(etag_h, sizeof etag_h, "ETag: %s", etag_q);
        const char *h[] = {etag_h, NULL};
        mock_respond(req, 304, h, NULL, 0);
        mock_request_finish(req);
        return;
    }
    uint8_t *data = NULL;
    size_t len = 0;
    if (!req->head_only && mock_s3_get(s3, b->name, key, &data, &len) != 0) {
        mock_s3_error(req, 500, "InternalError", "smfw-mock could not read the object", NULL, NULL);
        return;
    }
    if (req->head_only) len = o->size;
    size_t first = 0, last = len ? len - 1 : 0;
    int partial = 0;
    const char *range = mock_request_header(req, "Range");
    if (range) {
        int rc = parse_range(range, len, &first, &last);
        if (rc == -2) {
            free(data);
            char sz[32];
            snprintf(sz, sizeof sz, "%zu", len);
            mock_s3_error(req, 416, "InvalidRange", "The requested range is not satisfiable",
                          "ActualObjectSize", sz);
            return;
        }
        partial = rc == 0;
    }
    char ct[300], etag_h[64], lm_h[96], lm[64], cr[96];
    snprintf(ct, sizeof ct, "Content-Type: %s", o->content_type);
    snprintf(etag_h, sizeof etag_h, "ETag: %s", etag_q);
    http_date_of(o->last_modified, lm);
    snprintf(lm_h, sizeof lm_h, "Last-Modified: %s", lm);
    const char *h[64];
    size_t n = 0;
    h[n++] = ct;
    h[n++] = etag_h;
    h[n++] = lm_h;
    h[n++] = "Accept-Ranges: bytes";
    if (partial) {
        snprintf(cr, sizeof cr, "Content-Range: bytes %zu-%zu/%zu", first, last, len);
        h[n++] = cr;
    }
    char meta_store[16][600];
    const char *mk;
    json_t *mv;
    size_t mi = 0;
    json_object_foreach(o->meta, mk, mv) {
        if (mi == 16) break;
        snprintf(meta_store[mi], sizeof meta_store[mi], "x-amz-meta-%s: %s", mk,
                 json_string_value(mv) ? json_string_value(mv) : "");
        h[n++] = meta_store[mi++];
    }
    h[n] = NULL;
    size_t body_len = len == 0 ? 0 : last - first + 1;
    mock_respond(req, partial ? 206 : 200, h, data ? data + first : NULL, body_len);
    free(data);
    mock_request_finish(req);
}

static void s3_delete_object(mock_s3 *s3, mock_request *req, s3_bucket *b, const char *key) {
    long at = s3_bsearch(b, key);
    if (at >= 0) {
        char dpath[4300], mpath[4300];
        s3_paths(s3, b->name, key, dpath, mpath, sizeof dpath);
        unlink(dpath);
        unlink(mpath);
        s3_object_clear(&b->objects[at]);
        memmove(&b->objects[at], &b->objects[at + 1],
                (b->count - (size_t)at - 1) * sizeof *b->objects);
        b->count--;
    }
    const char *h[] = {NULL};
    mock_respond(req, 204, h, NULL, 0);
    mock_request_finish(req);
}

void mock_s3_handle(mock_server *srv, mock_request *req) {
    if (mock_auth_check(srv, req, "s3", MOCK_PROTO_S3) != 0) return;
    /* Every bucket belongs to the mock's account; a caller expecting another owner is refused,
       as S3 does (the managed backend sends this header for the default bucket). */
    const char *owner = mock_request_header(req, "x-amz-expected-bucket-owner");
    if (owner && strcmp(owner, srv->opt.account_id) != 0) {
        mock_s3_error(req, 403, "AccessDenied", "Access Denied", NULL, NULL);
        return;
    }
    mock_s3 *s3 = srv->s3;
    const char *p = req->path;
    if (p[0] != '/' || p[1] == '\0') {
        mock_s3_error(req, 501, "NotImplemented", "smfw-mock does not emulate ListBuckets", NULL,
                      NULL);
        return;
    }
    const char *slash = strchr(p + 1, '/');
    char bucket[256], key[2048];
    size_t blen = slash ? (size_t)(slash - p - 1) : strlen(p + 1);
    if (mock_uri_decode(p + 1, blen, bucket, sizeof bucket, 0) < 0) {
        mock_s3_error(req, 400, "InvalidURI", "Couldn't parse the specified URI.", NULL, NULL);
        return;
    }
    key[0] = '\0';
    if (slash && slash[1] &&
        mock_uri_decode(slash + 1, strlen(slash + 1), key, sizeof key, 0) < 0) {
        mock_s3_error(req, 400, "InvalidURI", "Couldn't parse the specified URI.", NULL, NULL);
        return;
    }
    const char *m = req->method;
    if (!key[0]) {
        if (!strcmp(m, "PUT")) {
            s3_create_bucket(s3, req, bucket);
            return;
        }
        s3_bucket *b = s3_find_bucket(s3, bucket);
        if (!b) {
            mock_s3_error(req, 404, "NoSuchBucket", "The specified bucket does not exist",
                          "BucketName", bucket);
            return;
        }
        if (!strcmp(m, "HEAD")) {
            char reg[96];
            snprintf(reg, sizeof reg, "x-amz-bucket-region: %s", s3->region);
            const char *h[] = {reg, NULL};
            mock_respond(req, 200, h, NULL, 0);
            mock_request_finish(req);
            return;
        }
        if (mock_s3_multipart_handle(s3->uploads, s3, req, b->name, NULL)) return;
        char lt[8];
        if (!strcmp(m, "GET") && mock_form_get(req->query, "list-type", lt, sizeof lt) &&
            !strcmp(lt, "2")) {
            s3_list_v2(s3, req, b);
            return;
        }
        mock_s3_error(req, 501, "NotImplemented",
                      "smfw-mock emulates ListObjectsV2 (list-type=2), ListMultipartUploads, "
                      "HeadBucket and CreateBucket on a bucket",
                      NULL, NULL);
        return;
    }
    s3_bucket *b = s3_find_bucket(s3, bucket);
    if (!b) {
        mock_s3_error(req, 404, "NoSuchBucket", "The specified bucket does not exist", "BucketName",
                      bucket);
        return;
    }
    if (mock_s3_multipart_handle(s3->uploads, s3, req, b->name, key)) return;
    if (!strcmp(m, "PUT"))
        s3_put_object(s3, req, b, key);
    else if (!strcmp(m, "GET") || !strcmp(m, "HEAD"))
        s3_get_object(s3, req, b, key);
    else if (!strcmp(m, "DELETE"))
        s3_delete_object(s3, req, b, key);
    else
        mock_s3_error(req, 405, "MethodNotAllowed",
                      "The specified method is not allowed against this resource.", NULL, NULL);
}
