/* util.c - file reading, hashing and small helpers of the dataset readers. */
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dataset_internal.h"

smfw_status smfw_ds_read_file(const char *path, char **data, size_t *len, smfw_error *err) {
    *data = NULL;
    *len = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return smfw_error_set(err, SMFW_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(fp);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", path);
    }
    for (;;) {
        if (n + 1 >= cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                fclose(fp);
                return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", path);
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0) break;
    }
    int failed = ferror(fp);
    fclose(fp);
    if (failed) {
        free(buf);
        return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s", path);
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return SMFW_OK;
}

void smfw_ds_sha256_hex(const void *data, size_t len, char hex[65]) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;
    EVP_Digest(data, len, md, &md_len, EVP_sha256(), NULL);
    for (unsigned int i = 0; i < md_len && i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[64] = '\0';
}

void smfw_ds_prompt_init(smfw_prompt *p) {
    memset(p, 0, sizeof *p);
    p->timestamp_ms = -1;
    p->delay_ms = -1;
    p->input_tokens = -1;
}

char *smfw_ds_strndup(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

smfw_status smfw_file_sha256(const char *path, char hex[65], smfw_error *err) {
    hex[0] = '\0';
    FILE *fp = fopen(path, "rb");
    if (!fp) return smfw_error_set(err, SMFW_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(ctx);
        fclose(fp);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "cannot start SHA-256");
    }
    unsigned char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, fp)) > 0) EVP_DigestUpdate(ctx, buf, got);
    int failed = ferror(fp);
    fclose(fp);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;
    EVP_DigestFinal_ex(ctx, md, &md_len);
    EVP_MD_CTX_free(ctx);
    if (failed) return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s", path);
    for (unsigned int i = 0; i < md_len && i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[64] = '\0';
    return SMFW_OK;
}

int smfw_ds_utf8_valid(const unsigned char *s, size_t len, size_t *bad_offset) {
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        size_t n;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            cp = c & 0x07;
        } else {
            break;
        }
        size_t k;
        for (k = 1; k <= n; k++) {
            if (i + k >= len || (s[i + k] & 0xC0) != 0x80) break;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (k <= n) break;
        /* Overlong forms, surrogates and values past U+10FFFF. */
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            break;
        i += n + 1;
    }
    if (i < len) {
        if (bad_offset) *bad_offset = i;
        return 0;
    }
    return 1;
}
