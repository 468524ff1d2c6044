/*
 * sigv4.c - AWS Signature Version 4 signer (canonical request, string to
 * sign, cached signing key). The verifier lives in sigv4_verify.c.
 */
#include "aws/sigv4_internal.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#define EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static void to_hex(const unsigned char *in, size_t n, char *out) {
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[in[i] >> 4];
        out[2 * i + 1] = hex[in[i] & 15];
    }
    out[2 * n] = '\0';
}

void smfw_sha256_hex(const void *data, size_t len, char out[65]) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_Digest(data ? data : "", len, md, &mdlen, EVP_sha256(), NULL);
    to_hex(md, 32, out);
}

static void hmac(const void *key, size_t keylen, const void *data, size_t len,
                 unsigned char out[32]) {
    unsigned int outlen = 32;
    HMAC(EVP_sha256(), key, (int)keylen, (const unsigned char *)data, len, out, &outlen);
}

void aws_sigv4_signing_key(const char *secret, const char *date8, const char *region,
                           const char *service, unsigned char key[32]) {
    size_t slen = strlen(secret);
    char *k = malloc(slen + 5);
    unsigned char a[32], b[32];
    if (!k) {
        memset(key, 0, 32);
        return;
    }
    memcpy(k, "AWS4", 4);
    memcpy(k + 4, secret, slen + 1);
    hmac(k, slen + 4, date8, strlen(date8), a);
    OPENSSL_cleanse(k, slen + 4);
    free(k);
    hmac(a, 32, region, strlen(region), b);
    hmac(b, 32, service, strlen(service), a);
    hmac(a, 32, "aws4_request", 12, key);
    OPENSSL_cleanse(a, sizeof(a));
    OPENSSL_cleanse(b, sizeof(b));
}

void aws_sigv4_hmac_hex(const unsigned char key[32], const char *data, size_t len, char out[65]) {
    unsigned char md[32];
    hmac(key, 32, data, len, md);
    to_hex(md, 32, out);
}

void smfw_sigv4_format_time(int64_t unix_time, char out[17]) {
    time_t t = (time_t)unix_time;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
}

int smfw_sigv4_parse_time(const char *s, int64_t *unix_time) {
    if (!s || strlen(s) != 16 || s[8] != 'T' || s[15] != 'Z') return -1;
    for (int i = 0; i < 15; i++)
        if (i != 8 && !isdigit((unsigned char)s[i])) return -1;
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    int v[6];
    static const int off[6] = {0, 4, 6, 9, 11, 13}, len[6] = {4, 2, 2, 2, 2, 2};
    for (int i = 0; i < 6; i++) {
        v[i] = 0;
        for (int j = 0; j < len[i]; j++) v[i] = v[i] * 10 + (s[off[i] + j] - '0');
    }
    if (v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 60)
        return -1;
    tm.tm_year = v[0] - 1900;
    tm.tm_mon = v[1] - 1;
    tm.tm_mday = v[2];
    tm.tm_hour = v[3];
    tm.tm_min = v[4];
    tm.tm_sec = v[5];
    *unix_time = (int64_t)timegm(&tm);
    return 0;
}

int aws_sigv4_unsignable(const char *lname) {
    static const char *const names[] = {
        "authorization", "cache-control",     "connection", "expect",     "from",
        "keep-alive",    "max-forwards",      "pragma",     "referer",    "te",
        "trailer",       "transfer-encoding", "upgrade",    "user-agent", "x-amzn-trace-id"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(lname, names[i]) == 0) return 1;
    return strncmp(lname, "proxy-", 6) == 0 || strncmp(lname, "sec-", 4) == 0;
}

const char *aws_sigv4_find_header(const smfw_sigv4_header *hdrs, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (hdrs[i].name && strcasecmp(hdrs[i].name, name) == 0) return hdrs[i].value;
    return NULL;
}

void aws_sigv4_canonical_uri(aws_buf *out, const char *path, unsigned flags) {
    if (!path || !*path) path = "/";
    if (flags & SMFW_SIGV4_NO_NORMALIZE_PATH) {
        if (path[0] != '/') aws_buf_putc(out, '/');
        if (flags & SMFW_SIGV4_NO_ENCODE_PATH)
            aws_buf_puts(out, path);
        else
            aws_buf_uri_encode(out, path, strlen(path), 1);
        return;
    }
    /* Remove empty and "." segments, resolve "..": segments are [start,len) pairs. */
    size_t plen = strlen(path), nseg = 0;
    size_t *seg = malloc(sizeof(size_t) * 2 * (plen / 2 + 2));
    if (!seg) {
        out->failed = 1;
        return;
    }
    for (size_t i = 0; i <= plen;) {
        size_t j = i;
        while (j < plen && path[j] != '/') j++;
        size_t l = j - i;
        if (l == 0 || (l == 1 && path[i] == '.')) {
            /* skip */
        } else if (l == 2 && path[i] == '.' && path[i + 1] == '.') {
            if (nseg) nseg--;
        } else {
            seg[2 * nseg] = i;
            seg[2 * nseg + 1] = l;
            nseg++;
        }
        i = j + 1;
    }
    aws_buf norm;
    aws_buf_init(&norm);
    aws_buf_putc(&norm, '/');
    for (size_t k = 0; k < nseg; k++) {
        if (k) aws_buf_putc(&norm, '/');
        aws_buf_append(&norm, path + seg[2 * k], seg[2 * k + 1]);
    }
    if (nseg && path[plen - 1] == '/') aws_buf_putc(&norm, '/');
    free(seg);
    if (aws_buf_failed(&norm)) {
        out->failed = 1;
    } else if (flags & SMFW_SIGV4_NO_ENCODE_PATH) {
        aws_buf_append(out, norm.data, norm.len);
    } else {
        aws_buf_uri_encode(out, norm.data, norm.len, 1);
    }
    aws_buf_free(&norm);
}

typedef struct qpair {
    char *name;
    char *value;
} qpair;

static int qpair_cmp(const void *a, const void *b) {
    const qpair *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->value, y->value);
}

static char *encode_component(const char *s, size_t len) {
    aws_buf dec, enc;
    aws_buf_init(&dec);
    aws_buf_init(&enc);
    aws_buf_uri_decode(&dec, s, len);
    aws_buf_reserve(&dec, 0);
    if (!aws_buf_failed(&dec)) aws_buf_uri_encode(&enc, dec.data, dec.len, 0);
    aws_buf_reserve(&enc, 0);
    int failed = aws_buf_failed(&dec);
    aws_buf_free(&dec);
    if (failed) {
        aws_buf_free(&enc);
        return NULL;
    }
    return aws_buf_take(&enc);
}

int aws_sigv4_canonical_query(aws_buf *out, const char *query) {
    if (!query || !*query) return 0;
    size_t n = 1;
    for (const char *p = query; *p; p++)
        if (*p == '&') n++;
    qpair *pairs = calloc(n, sizeof(qpair));
    if (!pairs) return -1;
    size_t count = 0;
    int rc = 0;
    for (const char *p = query; *p || p == query;) {
        const char *end = strchr(p, '&');
        if (!end) end = p + strlen(p);
        if (end > p) {
            const char *eq = memchr(p, '=', (size_t)(end - p));
            const char *vstart = eq ? eq + 1 : end;
            pairs[count].name = encode_component(p, (size_t)((eq ? eq : end) - p));
            pairs[count].value = encode_component(vstart, (size_t)(end - vstart));
            count++;
            if (!pairs[count - 1].name || !pairs[count - 1].value) {
                rc = -1;
                break;
            }
        }
        if (!*end) break;
        p = end + 1;
    }
    if (rc == 0) {
        qsort(pairs, count, sizeof(qpair), qpair_cmp);
        for (size_t i = 0; i < count; i++) {
            if (i) aws_buf_putc(out, '&');
            aws_buf_puts(out, pairs[i].name);
            aws_buf_putc(out, '=');
            aws_buf_puts(out, pairs[i].value);
        }
    }
    for (size_t i = 0; i < count; i++) {
        free(pairs[i].name);
        free(pairs[i].value);
    }
    free(pairs);
    return rc;
}

typedef struct chdr {
    char *lname;
    const char *value;
    size_t order;
} chdr;

static int chdr_cmp(const void *a, const void *b) {
    const chdr *x = a, *y = b;
    int c = strcmp(x->lname, y->lname);
    if (c) return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int is_ws(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Trim and collapse internal whitespace runs to one space. */
static void append_header_value(aws_buf *b, const char *v) {
    if (!v) return;
    while (*v && is_ws(*v)) v++;
    int pending = 0;
    for (; *v; v++) {
        if (is_ws(*v)) {
            pending = 1;
            continue;
        }
        if (pending) aws_buf_putc(b, ' ');
        pending = 0;
        aws_buf_putc(b, *v);
    }
}

static char *lower_name(const char *name) {
    while (*name && is_ws(*name)) name++;
    size_t n = strlen(name);
    while (n && is_ws(name[n - 1])) n--;
    char *l = malloc(n + 1);
    if (!l) return NULL;
    for (size_t i = 0; i < n; i++) l[i] = (char)tolower((unsigned char)name[i]);
    l[n] = '\0';
    return l;
}

int aws_sigv4_canonical_request(aws_buf *creq, aws_buf *signed_headers, const char *method,
                                const char *path, const char *query, const smfw_sigv4_header *hdrs,
                                size_t n, const char *payload_hash, unsigned flags) {
    chdr *h = calloc(n ? n : 1, sizeof(chdr));
    if (!h) return -1;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        h[i].lname = lower_name(hdrs[i].name ? hdrs[i].name : "");
        h[i].value = hdrs[i].value ? hdrs[i].value : "";
        h[i].order = i;
        if (!h[i].lname) rc = -1;
    }
    if (rc == 0) {
        qsort(h, n, sizeof(chdr), chdr_cmp);
        for (const char *m = method; *m; m++) aws_buf_putc(creq, (char)toupper((unsigned char)*m));
        aws_buf_putc(creq, '\n');
        aws_sigv4_canonical_uri(creq, path, flags);
        aws_buf_putc(creq, '\n');
        if (aws_sigv4_canonical_query(creq, query) != 0) rc = -1;
        aws_buf_putc(creq, '\n');
        for (size_t i = 0; i < n; i++) {
            int same = i > 0 && strcmp(h[i].lname, h[i - 1].lname) == 0;
            if (same) {
                aws_buf_putc(creq, ',');
            } else {
                if (i > 0) aws_buf_putc(creq, '\n');
                aws_buf_puts(creq, h[i].lname);
                aws_buf_putc(creq, ':');
                if (signed_headers->len) aws_buf_putc(signed_headers, ';');
                aws_buf_puts(signed_headers, h[i].lname);
            }
            append_header_value(creq, h[i].value);
        }
        if (n) aws_buf_putc(creq, '\n');
        aws_buf_putc(creq, '\n');
        aws_buf_reserve(signed_headers, 0);
        aws_buf_puts(creq, signed_headers->data ? signed_headers->data : "");
        aws_buf_putc(creq, '\n');
        aws_buf_puts(creq, payload_hash);
    }
    for (size_t i = 0; i < n; i++) free(h[i].lname);
    free(h);
    if (aws_buf_failed(creq) || aws_buf_failed(signed_headers)) rc = -1;
    return rc;
}

void aws_sigv4_string_to_sign(aws_buf *out, const char *amz_date, const char *region,
                              const char *service, const char *canonical_request, size_t creq_len) {
    char hash[65];
    smfw_sha256_hex(canonical_request, creq_len, hash);
    aws_buf_printf(out, "AWS4-HMAC-SHA256\n%s\n%.8s/%s/%s/aws4_request\n%s", amz_date, amz_date,
                   region, service, hash);
}

/* ---- signer ---- */

#define KEY_CACHE_SLOTS 4

typedef struct key_slot {
    char date[9];
    char *secret;
    unsigned char key[32];
    unsigned long used;
} key_slot;

struct smfw_sigv4_signer {
    char *region;
    char *service;
    unsigned flags;
    pthread_mutex_t lock;
    key_slot slots[KEY_CACHE_SLOTS];
    unsigned long tick;
};

smfw_status smfw_sigv4_signer_new(const char *region, const char *service, unsigned flags,
                                  smfw_sigv4_signer **out, smfw_error *err) {
    *out = NULL;
    if (!region || !*region || !service || !*service)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "SigV4 signer needs a region and a signing name");
    smfw_sigv4_signer *s = calloc(1, sizeof(*s));
    if (!s) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory creating a SigV4 signer");
    s->region = strdup(region);
    s->service = strdup(service);
    s->flags = flags;
    if (!s->region || !s->service) {
        smfw_sigv4_signer_free(s);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory creating a SigV4 signer");
    }
    pthread_mutex_init(&s->lock, NULL);
    *out = s;
    return SMFW_OK;
}

void smfw_sigv4_signer_free(smfw_sigv4_signer *s) {
    if (!s) return;
    for (int i = 0; i < KEY_CACHE_SLOTS; i++) {
        if (s->slots[i].secret) {
            OPENSSL_cleanse(s->slots[i].secret, strlen(s->slots[i].secret));
            free(s->slots[i].secret);
        }
    }
    OPENSSL_cleanse(s->slots, sizeof(s->slots));
    if (s->region) pthread_mutex_destroy(&s->lock);
    free(s->region);
    free(s->service);
    free(s);
}

const char *smfw_sigv4_signer_region(const smfw_sigv4_signer *s) {
    return s->region;
}

const char *smfw_sigv4_signer_service(const smfw_sigv4_signer *s) {
    return s->service;
}

/* Signing key for (secret, date): from the cache, or derived and cached. */
static void signer_key(smfw_sigv4_signer *s, const char *secret, const char *date8,
                       unsigned char key[32]) {
    pthread_mutex_lock(&s->lock);
    key_slot *victim = &s->slots[0];
    for (int i = 0; i < KEY_CACHE_SLOTS; i++) {
        key_slot *k = &s->slots[i];
        if (k->secret && strcmp(k->date, date8) == 0 && strcmp(k->secret, secret) == 0) {
            memcpy(key, k->key, 32);
            k->used = ++s->tick;
            pthread_mutex_unlock(&s->lock);
            return;
        }
        if (k->used < victim->used) victim = k;
    }
    pthread_mutex_unlock(&s->lock);
    aws_sigv4_signing_key(secret, date8, s->region, s->service, key);
    char *copy = strdup(secret);
    if (!copy) return;
    pthread_mutex_lock(&s->lock);
    if (victim->secret) {
        OPENSSL_cleanse(victim->secret, strlen(victim->secret));
        free(victim->secret);
    }
    victim->secret = copy;
    memcpy(victim->date, date8, 8);
    victim->date[8] = '\0';
    memcpy(victim->key, key, 32);
    victim->used = ++s->tick;
    pthread_mutex_unlock(&s->lock);
}

void smfw_sigv4_signature_free(smfw_sigv4_signature *sig) {
    if (!sig) return;
    free(sig->storage_);
    memset(sig, 0, sizeof(*sig));
}

smfw_status smfw_sigv4_sign(smfw_sigv4_signer *s, const smfw_aws_credentials *creds,
                            const smfw_sigv4_request *req, unsigned extra_flags, int64_t unix_time,
                            smfw_sigv4_signature *out, smfw_error *err) {
    memset(out, 0, sizeof(*out));
    if (!creds || !creds->access_key_id || !creds->secret_access_key)
        return smfw_error_set(err, SMFW_ERR_AUTH, "cannot sign a request without AWS credentials");
    unsigned flags = s->flags | extra_flags;
    const char *token = creds->session_token && *creds->session_token ? creds->session_token : NULL;
    smfw_sigv4_format_time(unix_time, out->amz_date);

    /* Payload hash. */
    const char *given_sha =
        aws_sigv4_find_header(req->headers, req->header_count, "x-amz-content-sha256");
    if (flags & SMFW_SIGV4_UNSIGNED_PAYLOAD) {
        strcpy(out->payload_hash, "UNSIGNED-PAYLOAD");
    } else if (req->payload_hash) {
        aws_strlcpy(out->payload_hash, req->payload_hash, sizeof(out->payload_hash));
    } else if (given_sha && !(flags & SMFW_SIGV4_CONTENT_SHA256)) {
        aws_strlcpy(out->payload_hash, given_sha, sizeof(out->payload_hash));
    } else if (req->body && req->body_len) {
        smfw_sha256_hex(req->body, req->body_len, out->payload_hash);
    } else {
        strcpy(out->payload_hash, EMPTY_SHA256);
    }

    /* Headers to sign: the request's, minus generated and hop-by-hop ones, plus ours. */
    size_t n = 0, cap = req->header_count + 3;
    smfw_sigv4_header *hs = calloc(cap, sizeof(*hs));
    if (!hs) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory signing a request");
    for (size_t i = 0; i < req->header_count; i++) {
        const char *name = req->headers[i].name;
        if (!name) continue;
        char *l = lower_name(name);
        if (!l) {
            free(hs);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory signing a request");
        }
        int skip = aws_sigv4_unsignable(l) || strcmp(l, "x-amz-date") == 0 ||
                   strcmp(l, "date") == 0 || (token && strcmp(l, "x-amz-security-token") == 0) ||
                   ((flags & SMFW_SIGV4_CONTENT_SHA256) && strcmp(l, "x-amz-content-sha256") == 0);
        free(l);
        if (!skip) hs[n++] = req->headers[i];
    }
    hs[n++] = (smfw_sigv4_header){"X-Amz-Date", out->amz_date};
    if (token && !(flags & SMFW_SIGV4_UNSIGNED_TOKEN))
        hs[n++] = (smfw_sigv4_header){"X-Amz-Security-Token", token};
    if (flags & SMFW_SIGV4_CONTENT_SHA256)
        hs[n++] = (smfw_sigv4_header){"X-Amz-Content-SHA256", out->payload_hash};

    aws_buf creq, sh, all;
    aws_buf_init(&creq);
    aws_buf_init(&sh);
    aws_buf_init(&all);
    int rc = aws_sigv4_canonical_request(&creq, &sh, req->method ? req->method : "GET", req->path,
                                         req->query, hs, n, out->payload_hash, flags);
    free(hs);
    if (rc != 0) {
        aws_buf_free(&creq);
        aws_buf_free(&sh);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory signing a request");
    }
    aws_buf sts;
    aws_buf_init(&sts);
    aws_sigv4_string_to_sign(&sts, out->amz_date, s->region, s->service, creq.data, creq.len);
    unsigned char key[32];
    char date8[9];
    memcpy(date8, out->amz_date, 8);
    date8[8] = '\0';
    signer_key(s, creds->secret_access_key, date8, key);
    if (!aws_buf_failed(&sts)) aws_sigv4_hmac_hex(key, sts.data, sts.len, out->signature);
    OPENSSL_cleanse(key, sizeof(key));

    /* One storage block: creq, sts, authorization, then the header lines. */
    size_t off_creq = 0;
    aws_buf_append(&all, creq.data, creq.len);
    aws_buf_putc(&all, '\0');
    size_t off_sts = all.len;
    aws_buf_append(&all, sts.data, sts.len);
    aws_buf_putc(&all, '\0');
    size_t off_auth = all.len;
    aws_buf_printf(&all,
                   "AWS4-HMAC-SHA256 Credential=%s/%s/%s/%s/aws4_request, SignedHeaders=%s, "
                   "Signature=%s",
                   creds->access_key_id, date8, s->region, s->service, sh.data, out->signature);
    aws_buf_putc(&all, '\0');
    const char *names[SMFW_SIGV4_MAX_ADDED];
    size_t values_off[SMFW_SIGV4_MAX_ADDED], lines_off[SMFW_SIGV4_MAX_ADDED];
    size_t k = 0;
    names[k++] = "X-Amz-Date";
    if (token) names[k++] = "X-Amz-Security-Token";
    if (flags & SMFW_SIGV4_CONTENT_SHA256) names[k++] = "X-Amz-Content-SHA256";
    names[k++] = "Authorization";
    for (size_t i = 0; i < k; i++) {
        const char *v = strcmp(names[i], "X-Amz-Date") == 0             ? out->amz_date
                        : strcmp(names[i], "X-Amz-Security-Token") == 0 ? token
                        : strcmp(names[i], "X-Amz-Content-SHA256") == 0 ? out->payload_hash
                                                                        : NULL;
        lines_off[i] = all.len;
        aws_buf_printf(&all, "%s: ", names[i]);
        values_off[i] = all.len;
        if (v) {
            aws_buf_puts(&all, v);
        } else if (!aws_buf_failed(&all)) {
            /* Copy from our own buffer: reserve first so the source cannot move. */
            size_t alen = strlen(all.data + off_auth);
            if (aws_buf_reserve(&all, alen) == 0) aws_buf_append(&all, all.data + off_auth, alen);
        }
        aws_buf_putc(&all, '\0');
    }
    int failed = aws_buf_failed(&all) || aws_buf_failed(&sts);
    aws_buf_free(&creq);
    aws_buf_free(&sh);
    aws_buf_free(&sts);
    if (failed) {
        aws_buf_free(&all);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory signing a request");
    }
    out->storage_ = aws_buf_take(&all);
    out->canonical_request = out->storage_ + off_creq;
    out->string_to_sign = out->storage_ + off_sts;
    out->authorization = out->storage_ + off_auth;
    out->added_count = k;
    for (size_t i = 0; i < k; i++) {
        out->added[i].name = names[i];
        out->added[i].value = out->storage_ + values_off[i];
        out->lines[i] = out->storage_ + lines_off[i];
    }
    return SMFW_OK;
}
