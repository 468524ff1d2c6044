/*
 * s3_multipart.c - S3 multipart uploads: CreateMultipartUpload, UploadPart,
 * CompleteMultipartUpload, AbortMultipartUpload, ListMultipartUploads, ListParts.
 *
 * Each open upload is a directory <state-dir>/s3/.uploads/<UploadId>/ holding
 * upload.json (bucket, key, type, metadata, parts) and one <N>.part file per
 * part, so uploads survive a restart as objects do (s3.c skips dot names when
 * it loads buckets). A client cannot fill the disk: at most
 * MOCK_S3_MAX_UPLOADS uploads are open and their parts hold at most
 * MOCK_S3_MAX_UPLOAD_BYTES in all; past either the mock answers 400.
 */
#include "mock.h"

#include <smfw/crc32.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define MPU_MIN_PART  ((size_t)5 * 1024 * 1024) /* S3: every part but the last */
#define MPU_MAX_PARTS 10000

typedef struct mpu_part {
    int number;
    size_t size;
    char etag[33]; /* hex MD5, unquoted */
    char crc[16];  /* base64 CRC-32 of the part (always computed) */
    int crc_sent;  /* the uploader sent x-amz-checksum-crc32 */
    double last_modified;
} mpu_part;

typedef struct mpu_upload {
    char id[33];
    char bucket[64];
    char *key;
    char *content_type; /* NULL: S3's default */
    json_t *meta;
    double initiated;
    int crc32;       /* created with x-amz-checksum-algorithm: CRC32 */
    mpu_part *parts; /* sorted by number */
    size_t count, cap;
} mpu_upload;

struct mock_s3_uploads {
    char dir[4200];
    mpu_upload *items; /* in creation order */
    size_t count, cap;
    size_t bytes; /* all parts of all open uploads */
};

/* ---- store -------------------------------------------------------------------------------- */

static void upload_clear(mpu_upload *up) {
    free(up->key);
    free(up->content_type);
    json_decref(up->meta);
    free(up->parts);
    memset(up, 0, sizeof *up);
}

static void part_path(const mock_s3_uploads *u, const mpu_upload *up, int n, char *out,
                      size_t size) {
    snprintf(out, size, "%s/%s/%d.part", u->dir, up->id, n);
}

/* upload.json: everything but the part bytes. */
static int upload_save(const mock_s3_uploads *u, const mpu_upload *up) {
    json_t *parts = json_array();
    for (size_t i = 0; i < up->count; i++) {
        const mpu_part *p = &up->parts[i];
        json_array_append_new(parts, json_pack("{s:i,s:I,s:s,s:s,s:b,s:f}", "number", p->number,
                                               "size", (json_int_t)p->size, "etag", p->etag, "crc",
                                               p->crc, "crc_sent", p->crc_sent, "last_modified",
                                               p->last_modified));
    }
    json_t *j = json_pack("{s:s,s:s,s:s,s:O,s:f,s:b,s:o}", "bucket", up->bucket, "key", up->key,
                          "content_type", up->content_type ? up->content_type : "", "meta",
                          up->meta, "initiated", up->initiated, "crc32", up->crc32, "parts", parts);
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    char path[4400];
    snprintf(path, sizeof path, "%s/%s/upload.json", u->dir, up->id);
    int rc = text ? mock_write_file(path, text, strlen(text)) : -1;
    free(text);
    return rc;
}

static void upload_remove_files(const mock_s3_uploads *u, const mpu_upload *up) {
    char path[4400];
    for (size_t i = 0; i < up->count; i++) {
        part_path(u, up, up->parts[i].number, path, sizeof path);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/%s/upload.json", u->dir, up->id);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", u->dir, up->id);
    rmdir(path);
}

static mpu_upload *upload_add(mock_s3_uploads *u) {
    if (u->count == u->cap) {
        u->cap = u->cap ? u->cap * 2 : 8;
        u->items = realloc(u->items, u->cap * sizeof *u->items);
        if (!u->items) abort();
    }
    mpu_upload *up = &u->items[u->count++];
    memset(up, 0, sizeof *up);
    return up;
}

static void upload_drop(mock_s3_uploads *u, mpu_upload *up) {
    for (size_t i = 0; i < up->count; i++) u->bytes -= up->parts[i].size;
    upload_remove_files(u, up);
    upload_clear(up);
    size_t at = (size_t)(up - u->items);
    memmove(&u->items[at], &u->items[at + 1], (u->count - at - 1) * sizeof *u->items);
    u->count--;
}

static mpu_upload *upload_find(mock_s3_uploads *u, const char *bucket, const char *key,
                               const char *id) {
    for (size_t i = 0; i < u->count; i++)
        if (!strcmp(u->items[i].id, id) && !strcmp(u->items[i].bucket, bucket) &&
            !strcmp(u->items[i].key, key))
            return &u->items[i];
    return NULL;
}

/* Index of part n, or -(insertion point + 1). */
static long part_find(const mpu_upload *up, int n) {
    size_t lo = 0, hi = up->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (up->parts[mid].number == n) return (long)mid;
        if (up->parts[mid].number < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -(long)lo - 1;
}

static const char *jstr(json_t *o, const char *key) {
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : "";
}

static void upload_load(mock_s3_uploads *u, const char *id) {
    char path[4400];
    snprintf(path, sizeof path, "%s/%s/upload.json", u->dir, id);
    json_t *j = json_load_file(path, 0, NULL);
    const char *bucket = json_string_value(json_object_get(j, "bucket"));
    const char *key = json_string_value(json_object_get(j, "key"));
    if (strlen(id) != 32 || !bucket || !key || strlen(bucket) >= 64) {
        json_decref(j);
        return; /* not one of ours, or torn: left alone */
    }
    mpu_upload *up = upload_add(u);
    snprintf(up->id, sizeof up->id, "%s", id);
    snprintf(up->bucket, sizeof up->bucket, "%s", bucket);
    up->key = strdup(key);
    const char *ct = json_string_value(json_object_get(j, "content_type"));
    up->content_type = ct && ct[0] ? strdup(ct) : NULL;
    up->meta = json_incref(json_object_get(j, "meta"));
    if (!up->meta) up->meta = json_object();
    up->initiated = json_number_value(json_object_get(j, "initiated"));
    up->crc32 = json_is_true(json_object_get(j, "crc32"));
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(j, "parts"), i, p) {
        if (up->count == up->cap) {
            up->cap = up->cap ? up->cap * 2 : 8;
            up->parts = realloc(up->parts, up->cap * sizeof *up->parts);
            if (!up->parts) abort();
        }
        mpu_part *part = &up->parts[up->count++];
        memset(part, 0, sizeof *part);
        part->number = (int)json_integer_value(json_object_get(p, "number"));
        part->size = (size_t)json_integer_value(json_object_get(p, "size"));
        snprintf(part->etag, sizeof part->etag, "%s", jstr(p, "etag"));
        snprintf(part->crc, sizeof part->crc, "%s", jstr(p, "crc"));
        part->crc_sent = json_is_true(json_object_get(p, "crc_sent"));
        part->last_modified = json_number_value(json_object_get(p, "last_modified"));
        u->bytes += part->size;
    }
    json_decref(j);
}

mock_s3_uploads *mock_s3_uploads_new(const char *s3_root) {
    mock_s3_uploads *u = calloc(1, sizeof *u);
    if (!u) abort();
    /* Made by the first CreateMultipartUpload (mkdir -p), so a mock that served none holds
     * no S3 data; the uploads of an earlier run are loaded when the folder exists. */
    snprintf(u->dir, sizeof u->dir, "%s/.uploads", s3_root);
    DIR *d = opendir(u->dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') upload_load(u, e->d_name);
    if (d) closedir(d);
    return u;
}

void mock_s3_uploads_free(mock_s3_uploads *u) {
    if (!u) return;
    for (size_t i = 0; i < u->count; i++) upload_clear(&u->items[i]);
    free(u->items);
    free(u);
}

/* ---- helpers ------------------------------------------------------------------------------ */

static void md5_of(const void *data, size_t len, unsigned char md[16]) {
    unsigned int n = 0;
    EVP_Digest(data, len, md, &n, EVP_md5(), NULL);
}

static void hex_of(const unsigned char *md, size_t n, char *out) {
    for (size_t i = 0; i < n; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
}

static void crc_b64_of(uint32_t c, char out[16]) {
    unsigned char be[4] = {(unsigned char)(c >> 24), (unsigned char)(c >> 16),
                           (unsigned char)(c >> 8), (unsigned char)c};
    EVP_EncodeBlock((unsigned char *)out, be, 4);
}

static void xml_reply(mock_request *req, smfw_buf *x, const char *const *extra) {
    const char *h[8] = {"Content-Type: application/xml", NULL};
    size_t n = 1;
    for (; extra && *extra && n < 7; extra++) h[n++] = *extra;
    h[n] = NULL;
    mock_respond(req, 200, h, x->data, x->len);
    smfw_buf_free(x);
    mock_request_finish(req);
}

static void xml_head(smfw_buf *x, const char *root) {
    smfw_buf_printf(x,
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<%s "
                    "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">",
                    root);
}

static void xml_elem(smfw_buf *x, const char *tag, const char *value) {
    smfw_buf_printf(x, "<%s>", tag);
    mock_xml_append(x, value);
    smfw_buf_printf(x, "</%s>", tag);
}

static void no_such_upload(mock_request *req, const char *id) {
    mock_s3_error(req, 404, "NoSuchUpload",
                  "The specified upload does not exist. The upload ID may be invalid, or the "
                  "upload may have been aborted or completed.",
                  "UploadId", id);
}

/* ---- operations --------------------------------------------------------------------------- */

static void create_upload(mock_s3_uploads *u, mock_request *req, const char *bucket,
                          const char *key) {
    const char *alg = mock_request_header(req, "x-amz-checksum-algorithm");
    if (alg && strcasecmp(alg, "CRC32") != 0) {
        mock_s3_error(req, 400, "InvalidRequest",
                      "smfw-mock checks only the CRC32 checksum algorithm", "ArgumentName",
                      "x-amz-checksum-algorithm");
        return;
    }
    if (u->count >= MOCK_S3_MAX_UPLOADS) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "smfw-mock keeps at most %d multipart uploads open; complete or abort one",
                 MOCK_S3_MAX_UPLOADS);
        mock_s3_error(req, 400, "InvalidRequest", msg, NULL, NULL);
        return;
    }
    unsigned char rnd[16];
    if (RAND_bytes(rnd, sizeof rnd) != 1) {
        mock_s3_error(req, 500, "InternalError", "no randomness for an UploadId", NULL, NULL);
        return;
    }
    mpu_upload up;
    memset(&up, 0, sizeof up);
    hex_of(rnd, sizeof rnd, up.id);
    snprintf(up.bucket, sizeof up.bucket, "%s", bucket);
    up.key = strdup(key);
    const char *ct = mock_request_header(req, "Content-Type");
    up.content_type = ct ? strdup(ct) : NULL;
    up.meta = mock_s3_meta_headers(req);
    up.initiated = floor(mock_now_unix());
    up.crc32 = alg != NULL;
    char dir[4300];
    snprintf(dir, sizeof dir, "%s/%s", u->dir, up.id);
    if (mock_mkdirs(dir) != 0 || upload_save(u, &up) != 0) {
        upload_remove_files(u, &up);
        upload_clear(&up);
        mock_s3_error(req, 500, "InternalError", "smfw-mock could not write the upload", NULL,
                      NULL);
        return;
    }
    *upload_add(u) = up;
    smfw_buf x = {0};
    xml_head(&x, "InitiateMultipartUploadResult");
    xml_elem(&x, "Bucket", bucket);
    xml_elem(&x, "Key", key);
    xml_elem(&x, "UploadId", up.id);
    smfw_buf_puts(&x, "</InitiateMultipartUploadResult>");
    const char *h[] = {up.crc32 ? "x-amz-checksum-algorithm: CRC32" : NULL,
                       "x-amz-checksum-type: COMPOSITE", NULL};
    xml_reply(req, &x, up.crc32 ? h : NULL);
}

static void upload_part(mock_s3_uploads *u, mock_request *req, mpu_upload *up) {
    char num_s[16] = "";
    mock_form_get(req->query, "partNumber", num_s, sizeof num_s);
    char *end;
    long n = strtol(num_s, &end, 10);
    if (!num_s[0] || *end || n < 1 || n > MPU_MAX_PARTS) {
        mock_s3_error(req, 400, "InvalidArgument",
                      "Part number must be an integer between 1 and 10000, inclusive",
                      "ArgumentName", "partNumber");
        return;
    }
    char crc[16];
    crc_b64_of(smfw_crc32(0, req->body, req->body_len), crc);
    const char *sent_crc = mock_request_header(req, "x-amz-checksum-crc32");
    if (sent_crc && strcmp(sent_crc, crc) != 0) {
        mock_s3_error(req, 400, "BadDigest",
                      "The CRC32 you specified did not match the calculated checksum.", NULL, NULL);
        return;
    }
    long at = part_find(up, (int)n);
    size_t replaced = at >= 0 ? up->parts[at].size : 0;
    if (u->bytes - replaced + req->body_len > MOCK_S3_MAX_UPLOAD_BYTES) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "smfw-mock holds at most %zu bytes of parts of open multipart uploads",
                 MOCK_S3_MAX_UPLOAD_BYTES);
        mock_s3_error(req, 400, "EntityTooLarge", msg, NULL, NULL);
        return;
    }
    char path[4400];
    part_path(u, up, (int)n, path, sizeof path);
    if (mock_write_file(path, req->body, req->body_len) != 0) {
        mock_s3_error(req, 500, "InternalError", "smfw-mock could not write the part", NULL, NULL);
        return;
    }
    if (at < 0) {
        if (up->count == up->cap) {
            up->cap = up->cap ? up->cap * 2 : 8;
            up->parts = realloc(up->parts, up->cap * sizeof *up->parts);
            if (!up->parts) abort();
        }
        at = -at - 1;
        memmove(&up->parts[at + 1], &up->parts[at], (up->count - (size_t)at) * sizeof *up->parts);
        up->count++;
    }
    mpu_part *p = &up->parts[at];
    memset(p, 0, sizeof *p);
    p->number = (int)n;
    p->size = req->body_len;
    unsigned char md[16];
    md5_of(req->body, req->body_len, md);
    hex_of(md, 16, p->etag);
    snprintf(p->crc, sizeof p->crc, "%s", crc);
    p->crc_sent = sent_crc != NULL;
    p->last_modified = floor(mock_now_unix());
    u->bytes = u->bytes - replaced + p->size;
    if (upload_save(u, up) != 0) {
        mock_s3_error(req, 500, "InternalError", "smfw-mock could not write the upload", NULL,
                      NULL);
        return;
    }
    char etag_h[64], crc_h[64];
    snprintf(etag_h, sizeof etag_h, "ETag: \"%s\"", p->etag);
    snprintf(crc_h, sizeof crc_h, "x-amz-checksum-crc32: %s", crc);
    const char *h[] = {etag_h, sent_crc ? crc_h : NULL, NULL};
    mock_respond(req, 200, h, NULL, 0);
    mock_request_finish(req);
}

/* The text of <tag>...</tag> between from and to, entity-free ETag quotes removed; 0 if absent. */
static int xml_field(const char *from, const char *to, const char *tag, char *out, size_t size) {
    char open[40], close[40];
    snprintf(open, sizeof open, "<%s>", tag);
    snprintf(close, sizeof close, "</%s>", tag);
    const char *a = strstr(from, open);
    if (!a || a >= to) return 0;
    a += strlen(open);
    const char *b = strstr(a, close);
    if (!b || b > to) return 0;
    size_t n = 0;
    for (const char *c = a; c < b; c++) {
        if (!strncmp(c, "&quot;", 6)) {
            c += 5;
            continue;
        }
        if (*c == '"') continue;
        if (n + 1 >= size) return 0;
        out[n++] = *c;
    }
    out[n] = '\0';
    return 1;
}

static void complete_upload(mock_s3_uploads *u, mock_s3 *s3, mock_request *req, mpu_upload *up) {
    const char *body = (const char *)req->body;
    const char *cur = strstr(body, "<CompleteMultipartUpload");
    if (!cur) {
        mock_s3_error(req, 400, "MalformedXML",
                      "The XML you provided was not well-formed or did not validate against our "
                      "published schema",
                      NULL, NULL);
        return;
    }
    /* Check every listed part first: nothing is assembled unless all are right. */
    long *order = calloc(up->count + 1, sizeof *order);
    if (!order) abort();
    size_t listed = 0, total = 0;
    int last_number = 0;
    const char *fail_code = NULL, *fail_msg = NULL;
    while ((cur = strstr(cur, "<Part>")) != NULL) {
        const char *end = strstr(cur, "</Part>");
        char num_s[16], etag[64], crc[32];
        if (!end || !xml_field(cur, end, "PartNumber", num_s, sizeof num_s) ||
            !xml_field(cur, end, "ETag", etag, sizeof etag)) {
            fail_code = "MalformedXML";
            fail_msg = "The XML you provided was not well-formed or did not validate against our "
                       "published schema";
            break;
        }
        int n = atoi(num_s);
        if (n <= last_number) {
            fail_code = "InvalidPartOrder";
            fail_msg = "The list of parts was not in ascending order. Parts must be ordered by "
                       "part number.";
            break;
        }
        last_number = n;
        long at = part_find(up, n);
        int crc_given = xml_field(cur, end, "ChecksumCRC32", crc, sizeof crc);
        if (at < 0 || strcmp(up->parts[at].etag, etag) != 0 || listed == up->count ||
            (crc_given && strcmp(up->parts[at].crc, crc) != 0)) {
            fail_code = "InvalidPart";
            fail_msg = "One or more of the specified parts could not be found.  The part may not "
                       "have been uploaded, or the specified entity tag may not match the part's "
                       "entity tag.";
            break;
        }
        order[listed++] = at;
        total += up->parts[at].size;
        cur = end;
    }
    if (!fail_code && listed == 0) {
        fail_code = "MalformedXML";
        fail_msg = "The XML you provided was not well-formed or did not validate against our "
                   "published schema";
    }
    for (size_t i = 0; !fail_code && i + 1 < listed; i++)
        if (up->parts[order[i]].size < MPU_MIN_PART) {
            fail_code = "EntityTooSmall";
            fail_msg = "Your proposed upload is smaller than the minimum allowed size";
        }
    if (fail_code) {
        free(order);
        mock_s3_error(req, 400, fail_code, fail_msg, NULL, NULL);
        return;
    }
    /* S3's ETag: MD5 of the parts' binary MD5s, then "-N"; the composite CRC-32 likewise. */
    uint8_t *data = malloc(total + 1);
    unsigned char *mds = malloc(16 * listed + 1);
    unsigned char *crcs = malloc(4 * listed + 1);
    if (!data || !mds || !crcs) abort();
    size_t off = 0;
    int ok = 1;
    for (size_t i = 0; ok && i < listed; i++) {
        const mpu_part *p = &up->parts[order[i]];
        char path[4400];
        part_path(u, up, p->number, path, sizeof path);
        FILE *f = fopen(path, "rb");
        ok = f && (p->size == 0 || fread(data + off, 1, p->size, f) == p->size);
        if (f) fclose(f);
        off += p->size;
        for (int k = 0; k < 16; k++) {
            unsigned v = 0;
            sscanf(p->etag + 2 * k, "%2x", &v);
            mds[16 * i + (size_t)k] = (unsigned char)v;
        }
        unsigned char be[8];
        int got = EVP_DecodeBlock(be, (const unsigned char *)p->crc, (int)strlen(p->crc));
        if (got >= 4) memcpy(crcs + 4 * i, be, 4);
    }
    free(order);
    unsigned char md[16];
    md5_of(mds, 16 * listed, md);
    char etag[48], crc[16], composite[32];
    hex_of(md, 16, etag);
    snprintf(etag + 32, sizeof etag - 32, "-%zu", listed);
    crc_b64_of(smfw_crc32(0, crcs, 4 * listed), crc);
    snprintf(composite, sizeof composite, "%s-%zu", crc, listed);
    free(mds);
    free(crcs);
    if (!ok || mock_s3_store_completed(s3, up->bucket, up->key, data, total, up->content_type,
                                       up->meta, up->crc32 ? composite : NULL, etag) != 0) {
        free(data);
        mock_s3_error(req, 500, "InternalError", "smfw-mock could not assemble the object", NULL,
                      NULL);
        return;
    }
    free(data);
    smfw_buf x = {0};
    xml_head(&x, "CompleteMultipartUploadResult");
    smfw_buf_puts(&x, "<Location>/");
    mock_xml_append(&x, up->bucket);
    smfw_buf_puts(&x, "/");
    mock_xml_append(&x, up->key);
    smfw_buf_puts(&x, "</Location>");
    xml_elem(&x, "Bucket", up->bucket);
    xml_elem(&x, "Key", up->key);
    smfw_buf_printf(&x, "<ETag>&quot;%s&quot;</ETag>", etag);
    if (up->crc32)
        smfw_buf_printf(&x,
                        "<ChecksumCRC32>%s</ChecksumCRC32><ChecksumType>COMPOSITE"
                        "</ChecksumType>",
                        composite);
    smfw_buf_puts(&x, "</CompleteMultipartUploadResult>");
    upload_drop(u, up);
    xml_reply(req, &x, NULL);
}

static void list_parts(mock_request *req, const mpu_upload *up) {
    smfw_buf x = {0};
    xml_head(&x, "ListPartsResult");
    xml_elem(&x, "Bucket", up->bucket);
    xml_elem(&x, "Key", up->key);
    xml_elem(&x, "UploadId", up->id);
    smfw_buf_printf(&x,
                    "<PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>%d"
                    "</NextPartNumberMarker><MaxParts>%d</MaxParts><IsTruncated>false"
                    "</IsTruncated><StorageClass>STANDARD</StorageClass>",
                    up->count ? up->parts[up->count - 1].number : 0, MPU_MAX_PARTS);
    if (up->crc32)
        smfw_buf_puts(&x, "<ChecksumAlgorithm>CRC32</ChecksumAlgorithm><ChecksumType>COMPOSITE"
                          "</ChecksumType>");
    for (size_t i = 0; i < up->count; i++) {
        const mpu_part *p = &up->parts[i];
        char lm[32];
        mock_iso8601(p->last_modified, lm, 1);
        smfw_buf_printf(&x,
                        "<Part><PartNumber>%d</PartNumber><LastModified>%s</LastModified>"
                        "<ETag>&quot;%s&quot;</ETag><Size>%zu</Size>",
                        p->number, lm, p->etag, p->size);
        if (up->crc32 || p->crc_sent)
            smfw_buf_printf(&x, "<ChecksumCRC32>%s</ChecksumCRC32>", p->crc);
        smfw_buf_puts(&x, "</Part>");
    }
    smfw_buf_puts(&x, "</ListPartsResult>");
    xml_reply(req, &x, NULL);
}

static void list_uploads(mock_s3_uploads *u, mock_request *req, const char *bucket) {
    char prefix[1100] = "";
    mock_form_get(req->query, "prefix", prefix, sizeof prefix);
    smfw_buf x = {0};
    xml_head(&x, "ListMultipartUploadsResult");
    xml_elem(&x, "Bucket", bucket);
    smfw_buf_puts(&x, "<KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker>");
    xml_elem(&x, "Prefix", prefix);
    smfw_buf_printf(&x, "<MaxUploads>%d</MaxUploads><IsTruncated>false</IsTruncated>",
                    MOCK_S3_MAX_UPLOADS);
    for (size_t i = 0; i < u->count; i++) {
        const mpu_upload *up = &u->items[i];
        if (strcmp(up->bucket, bucket) != 0 || strncmp(up->key, prefix, strlen(prefix)) != 0)
            continue;
        char when[32];
        mock_iso8601(up->initiated, when, 1);
        smfw_buf_puts(&x, "<Upload>");
        xml_elem(&x, "Key", up->key);
        xml_elem(&x, "UploadId", up->id);
        smfw_buf_printf(&x, "<Initiated>%s</Initiated><StorageClass>STANDARD</StorageClass>", when);
        if (up->crc32) smfw_buf_puts(&x, "<ChecksumAlgorithm>CRC32</ChecksumAlgorithm>");
        smfw_buf_puts(&x, "</Upload>");
    }
    smfw_buf_puts(&x, "</ListMultipartUploadsResult>");
    xml_reply(req, &x, NULL);
}

int mock_s3_multipart_handle(mock_s3_uploads *u, mock_s3 *s3, mock_request *req, const char *bucket,
                             const char *key) {
    const char *m = req->method;
    char id[64] = "";
    char ignored[8];
    int has_uploads = mock_form_get(req->query, "uploads", ignored, sizeof ignored);
    int has_id = mock_form_get(req->query, "uploadId", id, sizeof id);
    if (!has_uploads && !has_id) return 0;
    if (!key) {
        if (!(has_uploads && !strcmp(m, "GET"))) return 0;
        list_uploads(u, req, bucket);
        return 1;
    }
    if (has_uploads) {
        if (strcmp(m, "POST") != 0) return 0;
        create_upload(u, req, bucket, key);
        return 1;
    }
    mpu_upload *up = upload_find(u, bucket, key, id);
    if (!up) {
        no_such_upload(req, id);
        return 1;
    }
    if (!strcmp(m, "PUT")) {
        if (mock_request_header(req, "x-amz-copy-source")) {
            mock_s3_error(req, 501, "NotImplemented", "UploadPartCopy is not emulated by smfw-mock",
                          NULL, NULL);
            return 1;
        }
        upload_part(u, req, up);
    } else if (!strcmp(m, "POST")) {
        complete_upload(u, s3, req, up);
    } else if (!strcmp(m, "DELETE")) {
        upload_drop(u, up);
        const char *h[] = {NULL};
        mock_respond(req, 204, h, NULL, 0);
        mock_request_finish(req);
    } else if (!strcmp(m, "GET")) {
        list_parts(req, up);
    } else {
        return 0;
    }
    return 1;
}
