/*
 * aws_s3.c - S3 over restXml: put/get/head object, list (all pages), head/create bucket.
 * Multipart uploads are aws_s3_multipart.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/untrusted.h>

#include "aws/aws_internal.h"
#include "aws/aws_xml.h"

static smfw_status check_bucket(const char *bucket, smfw_error *err) {
    if (!bucket || !*bucket || strlen(bucket) > 255 || strpbrk(bucket, "/?#% "))
        return smfw_error_set(err, SMFW_ERR_CONFIG, "'%s' is not a valid S3 bucket name",
                              bucket ? bucket : "");
    return SMFW_OK;
}

smfw_status aws_s3_address(smfw_aws_client *c, const char *bucket, const char *key, char *base,
                           size_t base_size, smfw_buf *path, smfw_error *err) {
    return aws_s3_address_in(c, bucket, key, NULL, base, base_size, path, err);
}

smfw_status aws_s3_address_in(smfw_aws_client *c, const char *bucket, const char *key,
                              const char *region, char *base, size_t base_size, smfw_buf *path,
                              smfw_error *err) {
    smfw_status st = check_bucket(bucket, err);
    if (st != SMFW_OK) return st;
    /* Signing needs a region anyway; the rules need one to place the bucket. */
    if (!region && (st = smfw_aws_client_region(c, &region, err)) != SMFW_OK) return st;
    /* The S3 rules place the bucket: virtual-hosted for DNS names over HTTPS, else
       (dots, an override: ForcePathStyle) path style; FIPS and dual-stack included. */
    aws_endpoint ep;
    st = aws_client_resolve_endpoint_in(c, "s3", region, bucket, &ep, err);
    if (st != SMFW_OK) return st;
    const char *auth = strstr(ep.url, "://");
    const char *url_path = auth ? strchr(auth + 3, '/') : NULL;
    size_t origin = url_path ? (size_t)(url_path - ep.url) : strlen(ep.url);
    if (origin >= base_size)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "endpoint URL buffer too small");
    memcpy(base, ep.url, origin);
    base[origin] = '\0';
    /* The call's wire path: the URL's ("/bucket" in path style), then "/key". */
    if (url_path) smfw_buf_puts(path, url_path);
    if (key) {
        smfw_buf_putc(path, '/');
        aws_uri_encode(path, key, strlen(key), 1);
    } else if (!url_path) {
        smfw_buf_putc(path, '/');
    }
    return path->failed ? smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory") : SMFW_OK;
}

void aws_s3_call_init(aws_call *call, const char *op, const char *method, const char *base,
                      const char *path) {
    memset(call, 0, sizeof(*call));
    call->service_label = "S3";
    call->operation = op;
    call->base_url = base;
    call->signing_name = "s3";
    call->method = method;
    call->path = path;
    call->sign_flags = SMFW_SIGV4_S3;
    call->protocol = AWS_PROTO_XML;
}

static smfw_status put_object(smfw_aws_client *c, const char *bucket, const char *key,
                              const char *file, const void *data, size_t len,
                              const char *content_type, char *etag, size_t etag_size,
                              smfw_error *err) {
    char base[1024];
    smfw_buf path;
    smfw_buf_init(&path);
    smfw_status st = aws_s3_address(c, bucket, key, base, sizeof(base), &path, err);
    if (st == SMFW_OK) {
        smfw_sigv4_header hs[1] = {
            {"Content-Type", content_type ? content_type : "application/octet-stream"}};
        aws_call call;
        aws_s3_call_init(&call, "PutObject", "PUT", base, path.data);
        call.headers = hs;
        call.header_count = 1;
        call.upload_path = file;
        call.body = file ? NULL : (data ? data : "");
        call.body_len = file ? 0 : len;
        call.checksum_crc32 = 1; /* botocore 1.36+ "when_supported" */
        aws_result res;
        aws_result_init(&res);
        st = aws_s3_call(c, bucket, key, &call, &res, err);
        char v[160];
        if (st == SMFW_OK && aws_http_header(&res.http, "x-amz-checksum-crc32", v, sizeof(v)) &&
            strcmp(v, res.checksum_crc32) != 0)
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "S3 PutObject of s3://%s/%s: S3 computed CRC-32 %s, smfw sent %s",
                                bucket, key, v, res.checksum_crc32);
        if (st == SMFW_OK && etag && aws_http_header(&res.http, "ETag", v, sizeof(v)))
            aws_strlcpy(etag, v, etag_size);
        aws_result_free(&res);
    }
    smfw_buf_free(&path);
    return st;
}

smfw_status aws_s3_put_file(smfw_aws_client *c, const char *bucket, const char *key,
                            const char *file, const char *content_type, char *etag,
                            size_t etag_size, smfw_error *err) {
    return put_object(c, bucket, key, file, NULL, 0, content_type, etag, etag_size, err);
}

smfw_status smfw_aws_s3_put_object_file(smfw_aws_client *c, const char *bucket, const char *key,
                                        const char *file, const char *content_type,
                                        smfw_error *err) {
    smfw_aws_s3_upload_options o;
    memset(&o, 0, sizeof(o));
    o.content_type = content_type;
    return smfw_aws_s3_upload_file(c, bucket, key, file, &o, NULL, err);
}

smfw_status smfw_aws_s3_put_object(smfw_aws_client *c, const char *bucket, const char *key,
                                   const void *data, size_t len, const char *content_type,
                                   smfw_error *err) {
    return put_object(c, bucket, key, NULL, data, len, content_type, NULL, 0, err);
}

smfw_status smfw_aws_s3_get_object_file(smfw_aws_client *c, const char *bucket, const char *key,
                                        const char *file, smfw_error *err) {
    char base[1024];
    smfw_buf path;
    smfw_buf_init(&path);
    smfw_status st = aws_s3_address(c, bucket, key, base, sizeof(base), &path, err);
    if (st == SMFW_OK) {
        aws_call call;
        aws_s3_call_init(&call, "GetObject", "GET", base, path.data);
        call.download_path = file;
        aws_result res;
        aws_result_init(&res);
        st = aws_s3_call(c, bucket, key, &call, &res, err);
        aws_result_free(&res);
    }
    smfw_buf_free(&path);
    return st;
}

smfw_status smfw_aws_s3_head_object(smfw_aws_client *c, const char *bucket, const char *key,
                                    smfw_aws_s3_object *out, smfw_error *err) {
    char base[1024];
    smfw_buf path;
    smfw_buf_init(&path);
    smfw_status st = aws_s3_address(c, bucket, key, base, sizeof(base), &path, err);
    if (st == SMFW_OK) {
        aws_call call;
        aws_s3_call_init(&call, "HeadObject", "HEAD", base, path.data);
        aws_result res;
        aws_result_init(&res);
        st = aws_s3_call(c, bucket, key, &call, &res, err);
        if (st == SMFW_OK && out) {
            char v[256];
            memset(out, 0, sizeof(*out));
            aws_strlcpy(out->key, key, sizeof(out->key));
            if (aws_http_header(&res.http, "Content-Length", v, sizeof(v)))
                out->size = strtoll(v, NULL, 10);
            if (aws_http_header(&res.http, "ETag", v, sizeof(v)))
                aws_strlcpy(out->etag, v, sizeof(out->etag));
            if (aws_http_header(&res.http, "Last-Modified", v, sizeof(v)))
                aws_strlcpy(out->last_modified, v, sizeof(out->last_modified));
            if (aws_http_header(&res.http, "Content-Type", v, sizeof(v)))
                aws_strlcpy(out->content_type, v, sizeof(out->content_type));
        }
        aws_result_free(&res);
    }
    smfw_buf_free(&path);
    return st;
}

/* A key of an encoding-type=url listing, decoded as botocore does (unquote_plus). */
static void url_decode_key(const char *v, char *out, size_t size) {
    smfw_buf plus, dec;
    smfw_buf_init(&plus);
    smfw_buf_init(&dec);
    for (const char *p = v; *p; p++) smfw_buf_putc(&plus, *p == '+' ? ' ' : *p);
    if (plus.data) aws_uri_decode(&dec, plus.data, plus.len);
    aws_strlcpy(out, dec.data && !dec.failed ? dec.data : v, size);
    smfw_buf_free(&plus);
    smfw_buf_free(&dec);
}

smfw_status smfw_aws_s3_list_objects(smfw_aws_client *c, const char *bucket, const char *prefix,
                                     smfw_aws_s3_list_cb cb, void *user, smfw_error *err) {
    char base[1024];
    smfw_buf path;
    smfw_buf_init(&path);
    smfw_status st = aws_s3_address(c, bucket, NULL, base, sizeof(base), &path, err);
    char *token = NULL;
    int stop = 0;
    smfw_pager pager;
    smfw_pager_init(&pager);
    while (st == SMFW_OK && !stop) {
        smfw_buf q;
        smfw_buf_init(&q);
        aws_form_add(&q, "list-type", "2");
        aws_form_add(&q, "encoding-type", "url"); /* keys with any bytes survive the XML */
        if (token) aws_form_add(&q, "continuation-token", token);
        if (prefix && *prefix) aws_form_add(&q, "prefix", prefix);
        aws_call call;
        aws_s3_call_init(&call, "ListObjectsV2", "GET", base, path.data);
        call.query = q.data;
        aws_result res;
        aws_result_init(&res);
        st = aws_s3_call(c, bucket, NULL, &call, &res, err);
        smfw_buf_free(&q);
        aws_xml_node *root = NULL;
        size_t page_bytes = res.http.body.len;
        if (st == SMFW_OK) st = aws_xml_parse(res.http.body.data, res.http.body.len, &root, err);
        aws_result_free(&res);
        if (st != SMFW_OK) break;
        /* Decoded only when S3 says it encoded them, as botocore does. */
        const char *enc = aws_xml_path(root, "EncodingType");
        int url_keys = enc && strcmp(enc, "url") == 0;
        for (const aws_xml_node *o = aws_xml_child(root, "Contents"); o && !stop;
             o = aws_xml_next_named(o)) {
            smfw_aws_s3_object obj;
            memset(&obj, 0, sizeof(obj));
            const char *v;
            if ((v = aws_xml_path(o, "Key"))) {
                if (url_keys)
                    url_decode_key(v, obj.key, sizeof(obj.key));
                else
                    aws_strlcpy(obj.key, v, sizeof(obj.key));
            }
            if ((v = aws_xml_path(o, "Size"))) obj.size = strtoll(v, NULL, 10);
            if ((v = aws_xml_path(o, "ETag"))) aws_strlcpy(obj.etag, v, sizeof(obj.etag));
            if ((v = aws_xml_path(o, "LastModified")))
                aws_strlcpy(obj.last_modified, v, sizeof(obj.last_modified));
            if (cb && cb(&obj, user)) stop = 1;
        }
        const char *trunc = aws_xml_path(root, "IsTruncated");
        const char *next = aws_xml_path(root, "NextContinuationToken");
        free(token);
        token = NULL;
        int truncated = trunc && strcmp(trunc, "true") == 0;
        int verdict =
            stop ? SMFW_PAGER_DONE : smfw_pager_page(&pager, page_bytes, truncated ? next : NULL);
        if (verdict < 0)
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "S3 ListObjectsV2 of s3://%s/%s stopped after %lld pages: %s",
                                bucket, prefix ? prefix : "", (long long)pager.pages,
                                smfw_pager_why(verdict));
        else if (truncated && (!next || !*next))
            st = smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                "S3 ListObjectsV2 said IsTruncated without a "
                                "NextContinuationToken");
        else if (truncated && !stop)
            token = strdup(next);
        else
            stop = 1;
        aws_xml_free(root);
    }
    free(token);
    smfw_pager_free(&pager);
    smfw_buf_free(&path);
    return st;
}

smfw_status smfw_aws_s3_head_bucket(smfw_aws_client *c, const char *bucket,
                                    const char *expected_owner, smfw_error *err) {
    char base[1024];
    smfw_buf path;
    smfw_buf_init(&path);
    smfw_status st = aws_s3_address(c, bucket, NULL, base, sizeof(base), &path, err);
    if (st == SMFW_OK) {
        smfw_sigv4_header hs[1] = {{"x-amz-expected-bucket-owner", expected_owner}};
        aws_call call;
        aws_s3_call_init(&call, "HeadBucket", "HEAD", base, path.data);
        call.headers = hs;
        call.header_count = expected_owner ? 1 : 0;
        aws_result res;
        aws_result_init(&res);
        st = aws_s3_call(c, bucket, NULL, &call, &res, err);
        aws_result_free(&res);
    }
    smfw_buf_free(&path);
    return st;
}

smfw_status smfw_aws_s3_create_bucket(smfw_aws_client *c, const char *bucket, smfw_error *err) {
    const char *region;
    smfw_status st = smfw_aws_client_region(c, &region, err);
    if (st != SMFW_OK) return st;
    char base[1024];
    smfw_buf path, body;
    smfw_buf_init(&path);
    smfw_buf_init(&body);
    st = aws_s3_address(c, bucket, NULL, base, sizeof(base), &path, err);
    if (st == SMFW_OK) {
        if (strcmp(region, "us-east-1") != 0)
            smfw_buf_printf(&body,
                            "<CreateBucketConfiguration "
                            "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>"
                            "%s</LocationConstraint></CreateBucketConfiguration>",
                            region);
        smfw_sigv4_header hs[1] = {{"Content-Type", "application/xml"}};
        aws_call call;
        aws_s3_call_init(&call, "CreateBucket", "PUT", base, path.data);
        call.headers = hs;
        call.header_count = body.len ? 1 : 0;
        call.body = body.data ? body.data : "";
        call.body_len = body.len;
        aws_result res;
        aws_result_init(&res);
        st = aws_client_call(c, &call, &res, err);
        aws_result_free(&res);
    }
    smfw_buf_free(&path);
    smfw_buf_free(&body);
    return st;
}

smfw_status smfw_aws_s3_uri_split(const char *uri, char *bucket, size_t bsize, char *key,
                                  size_t ksize, smfw_error *err) {
    if (!uri || strncmp(uri, "s3://", 5) != 0)
        return smfw_error_set(err, SMFW_ERR_USAGE, "\"%s\" is not an s3:// URI", uri ? uri : "");
    const char *b = uri + 5;
    const char *slash = strchr(b, '/');
    size_t blen = slash ? (size_t)(slash - b) : strlen(b);
    if (blen == 0 || blen >= bsize)
        return smfw_error_set(err, SMFW_ERR_USAGE, "\"%s\" names no bucket", uri);
    memcpy(bucket, b, blen);
    bucket[blen] = '\0';
    if ((size_t)snprintf(key, ksize, "%s", slash ? slash + 1 : "") >= ksize)
        return smfw_error_set(err, SMFW_ERR_USAGE, "\"%s\" is too long", uri);
    return SMFW_OK;
}
