/*
 * aws_s3_multipart.c - S3 uploads of files: one PutObject below the multipart
 * threshold, else CreateMultipartUpload, UploadPart per part (streamed from its
 * range of the file, with its CRC-32 checked against S3's), and
 * CompleteMultipartUpload; any failure or cancellation after the upload was
 * created sends AbortMultipartUpload so no part is left stored (and billed).
 * The defaults are the AWS CLI's (8 MiB threshold and part size) and the
 * checksums botocore 1.43 sends (CRC32, "when_supported").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/log.h>

#include "aws/aws_internal.h"
#include "aws/aws_xml.h"

#define MIB          ((int64_t)1024 * 1024)
#define DEFAULT_PART (8 * MIB)
#define MIN_PART     (5 * MIB)
#define MAX_PART     ((int64_t)5 * 1024 * MIB)
#define MAX_PARTS    10000
#define S3_XMLNS     "http://s3.amazonaws.com/doc/2006-03-01/"

/* ---- the XML of the operations (pure, unit-tested) ---- */

/* Text content escaped as botocore's serializer (ElementTree) does: & < > only. */
static void xml_escape(smfw_buf *b, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '&':
            smfw_buf_puts(b, "&amp;");
            break;
        case '<':
            smfw_buf_puts(b, "&lt;");
            break;
        case '>':
            smfw_buf_puts(b, "&gt;");
            break;
        default:
            smfw_buf_putc(b, *s);
        }
    }
}

void aws_s3_complete_body(smfw_buf *out, const aws_s3_part *parts, size_t n) {
    smfw_buf_puts(out, "<CompleteMultipartUpload xmlns=\"" S3_XMLNS "\">");
    for (size_t i = 0; i < n; i++) {
        smfw_buf_puts(out, "<Part><ETag>");
        xml_escape(out, parts[i].etag);
        smfw_buf_printf(out, "</ETag><PartNumber>%d</PartNumber>", parts[i].number);
        if (parts[i].crc32[0]) {
            smfw_buf_puts(out, "<ChecksumCRC32>");
            xml_escape(out, parts[i].crc32);
            smfw_buf_puts(out, "</ChecksumCRC32>");
        }
        smfw_buf_puts(out, "</Part>");
    }
    smfw_buf_puts(out, "</CompleteMultipartUpload>");
}

int aws_s3_parse_upload_id(const char *body, size_t len, char *out, size_t size) {
    aws_xml_node *root = NULL;
    if (!body || !len || aws_xml_parse(body, len, &root, NULL) != SMFW_OK) return -1;
    const char *id = strcmp(root->name, "InitiateMultipartUploadResult") == 0
                         ? aws_xml_path(root, "UploadId")
                         : NULL;
    int rc = id && *id && strlen(id) < size ? 0 : -1;
    if (rc == 0) aws_strlcpy(out, id, size);
    aws_xml_free(root);
    return rc;
}

int aws_s3_is_200_error(const char *body, size_t len) {
    if (!body || !len) return 0;
    aws_xml_node *root = NULL;
    if (aws_xml_parse(body, len, &root, NULL) != SMFW_OK) return 1; /* as botocore: an error */
    int is_error = strcmp(root->name, "Error") == 0;
    aws_xml_free(root);
    return is_error;
}

int aws_s3_parse_complete(const char *body, size_t len, char *etag, size_t etag_size,
                          aws_error_info *e) {
    memset(e, 0, sizeof(*e));
    if (aws_s3_is_200_error(body, len)) {
        aws_error_parse_xml(body, len, e);
        if (!e->code[0]) aws_strlcpy(e->code, "InternalError", sizeof(e->code));
        return 1;
    }
    aws_xml_node *root = NULL;
    if (!body || !len || aws_xml_parse(body, len, &root, NULL) != SMFW_OK) return -1;
    const char *v = aws_xml_path(root, "ETag");
    int rc = v && *v && strlen(v) < etag_size ? 0 : -1;
    if (rc == 0) aws_strlcpy(etag, v, etag_size);
    aws_xml_free(root);
    return rc;
}

int64_t aws_s3_part_size(int64_t file_size, int64_t wanted) {
    int64_t part = wanted > 0 ? wanted : DEFAULT_PART;
    if (part < MIN_PART) part = MIN_PART;
    /* As s3transfer's ChunksizeAdjuster: grow until the parts fit in 10,000. */
    while (file_size > part * MAX_PARTS && part < MAX_PART) part *= 2;
    if (part > MAX_PART) part = MAX_PART;
    return file_size > part * MAX_PARTS ? -1 : part;
}

/* ---- the calls ---- */

typedef struct upload {
    smfw_aws_client *c;
    const char *bucket, *key, *file;
    char base[1024];
    smfw_buf path;
    char upload_id[1024];
} upload;

/* "uploadId=...&partNumber=N" or "uploadId=..." (N = 0), as botocore orders them. */
static void upload_query(smfw_buf *q, const upload *u, int part) {
    aws_form_add(q, "uploadId", u->upload_id);
    if (part > 0) smfw_buf_printf(q, "&partNumber=%d", part);
}

static smfw_status create_upload(upload *u, const char *content_type, smfw_error *err) {
    smfw_sigv4_header hs[2] = {
        {"Content-Type", content_type ? content_type : "application/octet-stream"},
        {"x-amz-checksum-algorithm", "CRC32"}};
    aws_call call;
    aws_s3_call_init(&call, "CreateMultipartUpload", "POST", u->base, u->path.data);
    call.query = "uploads";
    call.headers = hs;
    call.header_count = 2;
    call.body = "";
    aws_result res;
    aws_result_init(&res);
    smfw_status st = aws_s3_call(u->c, u->bucket, u->key, &call, &res, err);
    if (st == SMFW_OK && aws_s3_parse_upload_id(res.http.body.data, res.http.body.len, u->upload_id,
                                                sizeof(u->upload_id)) != 0)
        st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                            "S3 CreateMultipartUpload of s3://%s/%s answered without an UploadId",
                            u->bucket, u->key);
    aws_result_free(&res);
    return st;
}

static smfw_status upload_part(upload *u, aws_s3_part *part, int64_t offset, int64_t length,
                               smfw_error *err) {
    smfw_buf q;
    smfw_buf_init(&q);
    upload_query(&q, u, part->number);
    aws_call call;
    aws_s3_call_init(&call, "UploadPart", "PUT", u->base, u->path.data);
    call.query = q.data;
    call.upload_path = u->file;
    call.upload_offset = offset;
    call.upload_length = length;
    call.checksum_crc32 = 1;
    aws_result res;
    aws_result_init(&res);
    smfw_status st = q.failed ? smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory")
                              : aws_s3_call(u->c, u->bucket, u->key, &call, &res, err);
    char v[160];
    if (st == SMFW_OK) {
        aws_strlcpy(part->crc32, res.checksum_crc32, sizeof(part->crc32));
        if (!aws_http_header(&res.http, "ETag", v, sizeof(v)) || !v[0])
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "S3 UploadPart %d of s3://%s/%s answered without an ETag",
                                part->number, u->bucket, u->key);
        else
            aws_strlcpy(part->etag, v, sizeof(part->etag));
    }
    /* S3 echoes the checksum it computed: a different one means other bytes arrived. */
    if (st == SMFW_OK && aws_http_header(&res.http, "x-amz-checksum-crc32", v, sizeof(v)) &&
        strcmp(v, part->crc32) != 0)
        st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                            "S3 UploadPart %d of s3://%s/%s: S3 computed CRC-32 %s, smfw sent %s",
                            part->number, u->bucket, u->key, v, part->crc32);
    aws_result_free(&res);
    smfw_buf_free(&q);
    return st;
}

static smfw_status complete_upload(upload *u, const aws_s3_part *parts, size_t n, char *etag,
                                   size_t etag_size, smfw_error *err) {
    smfw_buf q, body;
    smfw_buf_init(&q);
    smfw_buf_init(&body);
    upload_query(&q, u, 0);
    aws_s3_complete_body(&body, parts, n);
    smfw_sigv4_header hs[1] = {{"Content-Type", "application/xml"}};
    aws_call call;
    aws_s3_call_init(&call, "CompleteMultipartUpload", "POST", u->base, u->path.data);
    call.query = q.data;
    call.headers = hs;
    call.header_count = 1;
    call.body = body.data;
    call.body_len = body.len;
    call.error_in_200 = 1; /* S3 may fail it after its 200 header went out */
    aws_result res;
    aws_result_init(&res);
    smfw_status st = q.failed || body.failed
                         ? smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory")
                         : aws_s3_call(u->c, u->bucket, u->key, &call, &res, err);
    aws_error_info e;
    if (st == SMFW_OK &&
        aws_s3_parse_complete(res.http.body.data, res.http.body.len, etag, etag_size, &e) != 0)
        st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                            "S3 CompleteMultipartUpload of s3://%s/%s answered without an ETag",
                            u->bucket, u->key);
    aws_result_free(&res);
    smfw_buf_free(&q);
    smfw_buf_free(&body);
    return st;
}

/* Best effort; the failure that led here stays the caller's error. */
static void abort_upload(upload *u, smfw_error *err) {
    smfw_buf q;
    smfw_buf_init(&q);
    upload_query(&q, u, 0);
    aws_call call;
    aws_s3_call_init(&call, "AbortMultipartUpload", "DELETE", u->base, u->path.data);
    call.query = q.data;
    aws_result res;
    aws_result_init(&res);
    smfw_error aerr;
    smfw_error_clear(&aerr);
    smfw_status st = aws_s3_call(u->c, u->bucket, u->key, &call, &res, &aerr);
    aws_result_free(&res);
    smfw_buf_free(&q);
    if (st == SMFW_OK) {
        SMFW_LOG_INFO("aws", "aborted the multipart upload of s3://%s/%s", u->bucket, u->key);
        return;
    }
    if (err) {
        size_t l = strlen(err->message);
        snprintf(err->message + l, sizeof(err->message) - l,
                 " The multipart upload could not be aborted either (%s); remove it with 'aws "
                 "s3api abort-multipart-upload --bucket %s --key %s --upload-id %s'.",
                 aerr.message, u->bucket, u->key, u->upload_id);
    }
}

static int cancelled(const smfw_aws_s3_upload_options *o) {
    return o && o->cancel && *o->cancel;
}

static smfw_status multipart(upload *u, int64_t size, int64_t part_size,
                             const smfw_aws_s3_upload_options *o, char *etag, size_t etag_size,
                             smfw_error *err) {
    smfw_status st = create_upload(u, o ? o->content_type : NULL, err);
    if (st != SMFW_OK) return st;
    size_t n = (size_t)((size + part_size - 1) / part_size);
    aws_s3_part *parts = calloc(n, sizeof(*parts));
    if (!parts) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    for (size_t i = 0; st == SMFW_OK && i < n; i++) {
        if (cancelled(o)) {
            st = smfw_error_set(err, SMFW_ERR_CANCELLED,
                                "the upload of %s to s3://%s/%s was interrupted after %zu of %zu "
                                "parts",
                                u->file, u->bucket, u->key, i, n);
            break;
        }
        int64_t off = (int64_t)i * part_size;
        parts[i].number = (int)i + 1;
        st = upload_part(u, &parts[i], off, size - off < part_size ? size - off : part_size, err);
    }
    if (st == SMFW_OK) st = complete_upload(u, parts, n, etag, etag_size, err);
    if (st != SMFW_OK) abort_upload(u, err);
    free(parts);
    return st;
}

smfw_status smfw_aws_s3_upload_file(smfw_aws_client *c, const char *bucket, const char *key,
                                    const char *file, const smfw_aws_s3_upload_options *o,
                                    smfw_aws_s3_object *out, smfw_error *err) {
    struct stat sb;
    if (stat(file, &sb) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot upload %s: %s", file, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return smfw_error_set(err, SMFW_ERR_IO, "cannot upload %s: not a regular file", file);
    int64_t size = (int64_t)sb.st_size;
    int64_t threshold = o && o->multipart_threshold > 0 ? o->multipart_threshold : DEFAULT_PART;
    if (o && o->part_size > MAX_PART)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "an S3 part size of %lld bytes is over S3's 5 GiB limit",
                              (long long)o->part_size);
    int64_t part_size = aws_s3_part_size(size, o ? o->part_size : 0);
    if (part_size < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "%s (%lld bytes) is larger than an S3 object can be (10,000 parts "
                              "of 5 GiB)",
                              file, (long long)size);
    if (out) {
        memset(out, 0, sizeof(*out));
        aws_strlcpy(out->key, key, sizeof(out->key));
        out->size = size;
    }
    char etag[130] = "";
    smfw_status st;
    if (size < threshold) {
        st = aws_s3_put_file(c, bucket, key, file, o ? o->content_type : NULL, etag, sizeof(etag),
                             err);
    } else {
        upload u;
        memset(&u, 0, sizeof(u));
        u.c = c;
        u.bucket = bucket;
        u.key = key;
        u.file = file;
        smfw_buf_init(&u.path);
        st = aws_s3_address(c, bucket, key, u.base, sizeof(u.base), &u.path, err);
        if (st == SMFW_OK) st = multipart(&u, size, part_size, o, etag, sizeof(etag), err);
        smfw_buf_free(&u.path);
    }
    if (st == SMFW_OK && out) aws_strlcpy(out->etag, etag, sizeof(out->etag));
    return st;
}
