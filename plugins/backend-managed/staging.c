/*
 * staging.c - the dataset channel: the prompts written as {"text",
 * "output_length"} JSONL and stored content-addressed at
 * s3://<bucket>/<dataset_prefix>/<sha256>/<name>.jsonl (skipped when that
 * object already exists with the same size); SageMaker mounts the folder
 * as the "datasets" channel at /opt/ml/input/data/datasets/.
 */
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/log.h>

#include "managed.h"

static smfw_status sha256_file(const char *path, char hex[65], int64_t *size, smfw_error *err) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (!md || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(md);
        fclose(fp);
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "SHA-256 is not available");
    }
    unsigned char buf[65536];
    size_t n;
    int64_t total = 0;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
        EVP_DigestUpdate(md, buf, n);
        total += (int64_t)n;
    }
    int bad = ferror(fp);
    fclose(fp);
    unsigned char digest[32];
    unsigned int len = 0;
    EVP_DigestFinal_ex(md, digest, &len);
    EVP_MD_CTX_free(md);
    if (bad) return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s", path);
    for (unsigned i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    *size = total;
    return SMFW_OK;
}

smfw_status managed_dataset_prepare(const smfw_prompt_set *prompts, const char *dataset_plugin,
                                    const char *dir, managed_dataset *ds, smfw_error *err) {
    memset(ds, 0, sizeof *ds);
    if (!prompts || (dataset_plugin && strcmp(dataset_plugin, "public") == 0)) {
        ds->public_feed = 1;
        return SMFW_OK;
    }
    /* Name: the source file's base name (else the plugin's), as .jsonl. */
    const char *src = prompts->info.file[0] ? prompts->info.file : NULL;
    char base[100];
    if (src) {
        const char *b = strrchr(src, '/');
        snprintf(base, sizeof base, "%s", b ? b + 1 : src);
        char *dot = strrchr(base, '.');
        if (dot && dot != base) *dot = '\0';
    } else
        snprintf(base, sizeof base, "%s", dataset_plugin ? dataset_plugin : "dataset");
    for (char *p = base; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.'))
            *p = '_';
    snprintf(ds->name, sizeof ds->name, "%s.jsonl", base[0] ? base : "dataset");
    snprintf(ds->local_path, sizeof ds->local_path, "%s/%s", dir, ds->name);
    smfw_status st = smfw_prompt_set_write_jsonl(prompts, ds->local_path, err);
    if (st != SMFW_OK) return st;
    ds->count = prompts->count;
    return sha256_file(ds->local_path, ds->sha256, &ds->size, err);
}

void managed_dataset_locate(managed_dataset *ds, const char *bucket, const char *prefix) {
    if (ds->public_feed) return;
    char pre[512];
    snprintf(pre, sizeof pre, "%s", prefix ? prefix : "");
    size_t n = strlen(pre);
    while (n && pre[n - 1] == '/') pre[--n] = '\0';
    const char *p = pre;
    while (*p == '/') p++;
    snprintf(ds->key, sizeof ds->key, "%s%s%s/%s", p, *p ? "/" : "", ds->sha256, ds->name);
    snprintf(ds->channel_uri, sizeof ds->channel_uri, "s3://%s/%s%s%s/", bucket, p, *p ? "/" : "",
             ds->sha256);
}

void managed_dataset_apply(const managed_dataset *ds, json_t *params) {
    if (ds->public_feed) {
        json_object_set_new(params, "public_dataset", json_string("sharegpt"));
        return;
    }
    char in[256];
    snprintf(in, sizeof in, "/opt/ml/input/data/datasets/%s", ds->name);
    json_object_set_new(params, "custom_dataset_type", json_string("single_turn"));
    json_object_set_new(params, "input_file", json_string(in));
}

smfw_status managed_dataset_upload(smfw_aws_client *c, const char *bucket,
                                   const managed_dataset *ds, int *uploaded, smfw_error *err) {
    *uploaded = 0;
    if (ds->public_feed) return SMFW_OK;
    smfw_aws_s3_object head;
    smfw_error herr;
    smfw_status st = smfw_aws_s3_head_object(c, bucket, ds->key, &head, &herr);
    if (st == SMFW_OK && head.size == ds->size) {
        SMFW_LOG_INFO("managed", "dataset already staged at s3://%s/%s", bucket, ds->key);
        return SMFW_OK;
    }
    if (st != SMFW_OK && st != SMFW_ERR_NOT_FOUND) {
        *err = herr;
        return smfw_error_prefix(err, "cannot check the staged dataset");
    }
    SMFW_LOG_INFO("managed", "uploading %s (%lld bytes) to s3://%s/%s", ds->name,
                  (long long)ds->size, bucket, ds->key);
    st = smfw_aws_s3_put_object_file(c, bucket, ds->key, ds->local_path, "application/jsonl", err);
    if (st == SMFW_OK) *uploaded = 1;
    return st;
}
