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

/*
 * Appends with the fast case inline: the signer reserves its buffer once, so
 * nearly every append is a copy, not a call through the buffer's growth check.
 */
static inline void put(smfw_buf *b, const void *data, size_t len) {
    if (b->data && !b->failed && len < b->cap - b->len) {
        memcpy(b->data + b->len, data, len);
        b->len += len;
        b->data[b->len] = '\0';
    } else {
        smfw_buf_append(b, data, len);
    }
}

static inline void put_str(smfw_buf *b, const char *s) {
    put(b, s, strlen(s));
}

static inline void put_char(smfw_buf *b, char c) {
    put(b, &c, 1);
}

static void to_hex(const unsigned char *in, size_t n, char *out) {
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[in[i] >> 4];
        out[2 * i + 1] = hex[in[i] & 15];
    }
    out[2 * n] = '\0';
}

/*
 * SHA-256, fetched once. OpenSSL 3's EVP_sha256() one-shots look the
 * algorithm up in the provider store on every call (locks, property queries):
 * measurable per signature. NULL when the fetch failed (no default provider);
 * EVP_sha256() is then used as before.
 */
static pthread_once_t algs_once = PTHREAD_ONCE_INIT;
static EVP_MD *alg_sha256;

static void algs_fetch(void) {
    alg_sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
}

static const EVP_MD *sha256_md(void) {
    pthread_once(&algs_once, algs_fetch);
    return alg_sha256 ? alg_sha256 : EVP_sha256();
}

void smfw_sha256_hex(const void *data, size_t len, char out[65]) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_Digest(data ? data : "", len, md, &mdlen, sha256_md(), NULL);
    to_hex(md, 32, out);
}

/*
 * HMAC-SHA256 (RFC 2104) kept as the two digest states after the key's inner
 * and outer pad blocks. A key used many times (the signer's cached signing
 * keys) is padded and hashed once; each MAC then costs two state copies and
 * the data's own blocks, where HMAC()/EVP_MAC redo the key's two blocks and
 * allocate a context tree per call.
 */
typedef struct hmac_key {
    EVP_MD_CTX *inner, *outer;
} hmac_key;

static void hmac_key_free(hmac_key *k) {
    EVP_MD_CTX_free(k->inner);
    EVP_MD_CTX_free(k->outer);
    k->inner = k->outer = NULL;
}

static int hmac_key_init(hmac_key *k, const void *key, size_t keylen) {
    const EVP_MD *md = sha256_md();
    unsigned char block[64], hashed[32];
    unsigned int hl = 0;
    k->inner = EVP_MD_CTX_new();
    k->outer = EVP_MD_CTX_new();
    int ok = k->inner && k->outer;
    if (ok && keylen > sizeof block) { /* longer keys are hashed first (RFC 2104) */
        ok = EVP_Digest(key, keylen, hashed, &hl, md, NULL);
        key = hashed;
        keylen = 32;
    }
    memset(block, 0, sizeof block);
    if (ok) memcpy(block, key, keylen);
    for (size_t i = 0; i < sizeof block; i++) block[i] ^= 0x36;
    ok = ok && EVP_DigestInit_ex2(k->inner, md, NULL) &&
         EVP_DigestUpdate(k->inner, block, sizeof block);
    for (size_t i = 0; i < sizeof block; i++) block[i] ^= 0x36 ^ 0x5c;
    ok = ok && EVP_DigestInit_ex2(k->outer, md, NULL) &&
         EVP_DigestUpdate(k->outer, block, sizeof block);
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(hashed, sizeof hashed);
    if (!ok) hmac_key_free(k);
    return ok ? 0 : -1;
}

/* Copies of a key's states, for one MAC away from the key's owner (and its lock). */
static int hmac_key_copy(hmac_key *dst, const hmac_key *src) {
    dst->inner = EVP_MD_CTX_new();
    dst->outer = EVP_MD_CTX_new();
    if (dst->inner && dst->outer && EVP_MD_CTX_copy_ex(dst->inner, src->inner) &&
        EVP_MD_CTX_copy_ex(dst->outer, src->outer))
        return 0;
    hmac_key_free(dst);
    return -1;
}

/* Finish a MAC over data with k's states (used up: k is freed); 0 or -1. */
static int hmac_key_finish(hmac_key *k, const void *data, size_t len, unsigned char out[32]) {
    unsigned char ih[32];
    unsigned int l1 = 0, l2 = 0;
    int ok = EVP_DigestUpdate(k->inner, data, len) && EVP_DigestFinal_ex(k->inner, ih, &l1) &&
             EVP_DigestUpdate(k->outer, ih, sizeof ih) && EVP_DigestFinal_ex(k->outer, out, &l2) &&
             l1 == 32 && l2 == 32;
    OPENSSL_cleanse(ih, sizeof ih);
    hmac_key_free(k);
    return ok ? 0 : -1;
}

static void hmac(const void *key, size_t keylen, const void *data, size_t len,
                 unsigned char out[32]) {
    hmac_key k;
    if (hmac_key_init(&k, key, keylen) == 0 && hmac_key_finish(&k, data, len, out) == 0) return;
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
    /* Years 1000..9999 by hand (gmtime_r takes the time-zone lock; strftime reads the locale):
     * civil date from days since the epoch, after H. Hinnant's days_from_civil inverse. */
    if (unix_time < -30610224000 || unix_time > 253402300799) {
        time_t t = (time_t)unix_time;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
        return;
    }
    int64_t days = unix_time >= 0 ? unix_time / 86400 : -((-unix_time + 86399) / 86400);
    int64_t secs = unix_time - days * 86400;
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;                                      /* [0, 146096] */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);               /* [0, 365] */
    int64_t mp = (5 * doy + 2) / 153;                                    /* [0, 11], from March */
    int mday = (int)(doy - (153 * mp + 2) / 5 + 1);
    int mon = (int)(mp < 10 ? mp + 3 : mp - 9);
    int year = (int)(yoe + era * 400 + (mon <= 2));
    const int v[7] = {
        year / 100,      year % 100, mon, mday, (int)(secs / 3600), (int)(secs / 60 % 60),
        (int)(secs % 60)};
    char *p = out;
    for (int i = 0; i < 7; i++) {
        if (i == 4) *p++ = 'T';
        *p++ = (char)('0' + v[i] / 10);
        *p++ = (char)('0' + v[i] % 10);
    }
    *p++ = 'Z';
    *p = '\0';
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
    /* Compare only names with the same first letter (this runs for every header signed). */
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i][0] == lname[0] && strcmp(lname, names[i]) == 0) return 1;
    return strncmp(lname, "proxy-", 6) == 0 || strncmp(lname, "sec-", 4) == 0;
}

const char *aws_sigv4_find_header(const smfw_sigv4_header *hdrs, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (hdrs[i].name && strcasecmp(hdrs[i].name, name) == 0) return hdrs[i].value;
    return NULL;
}

/*
 * 1 when normalising would give the path back unchanged: it starts with '/'
 * and no segment is empty, "." or ".." (a trailing '/' is kept, "/" is "/").
 * The common case, so it skips the segment arrays.
 */
static int path_is_normal(const char *path) {
    if (path[0] != '/') return 0;
    if (!path[1]) return 1;
    for (const char *seg = path + 1;;) {
        const char *end = strchr(seg, '/');
        size_t l = end ? (size_t)(end - seg) : strlen(seg);
        if (l == 0) return !end && seg != path + 1; /* only a trailing '/' may end it */
        if (seg[0] == '.' && (l == 1 || (l == 2 && seg[1] == '.'))) return 0;
        if (!end) return 1;
        seg = end + 1;
    }
}

void aws_sigv4_canonical_uri(smfw_buf *out, const char *path, unsigned flags) {
    if (!path || !*path) path = "/";
    if (flags & SMFW_SIGV4_NO_NORMALIZE_PATH) {
        if (path[0] != '/') put_char(out, '/');
        if (flags & SMFW_SIGV4_NO_ENCODE_PATH)
            put_str(out, path);
        else
            aws_uri_encode(out, path, strlen(path), 1);
        return;
    }
    if (path_is_normal(path)) {
        if (flags & SMFW_SIGV4_NO_ENCODE_PATH)
            put_str(out, path);
        else
            aws_uri_encode(out, path, strlen(path), 1);
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
    smfw_buf norm;
    smfw_buf_init(&norm);
    put_char(&norm, '/');
    for (size_t k = 0; k < nseg; k++) {
        if (k) put_char(&norm, '/');
        put(&norm, path + seg[2 * k], seg[2 * k + 1]);
    }
    if (nseg && path[plen - 1] == '/') put_char(&norm, '/');
    free(seg);
    if (norm.failed) {
        out->failed = 1;
    } else if (flags & SMFW_SIGV4_NO_ENCODE_PATH) {
        put(out, norm.data, norm.len);
    } else {
        aws_uri_encode(out, norm.data, norm.len, 1);
    }
    smfw_buf_free(&norm);
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
    smfw_buf dec, enc;
    smfw_buf_init(&dec);
    smfw_buf_init(&enc);
    aws_uri_decode(&dec, s, len);
    smfw_buf_reserve(&dec, 0);
    if (!dec.failed) aws_uri_encode(&enc, dec.data, dec.len, 0);
    smfw_buf_reserve(&enc, 0);
    int failed = dec.failed;
    smfw_buf_free(&dec);
    if (failed) {
        smfw_buf_free(&enc);
        return NULL;
    }
    return smfw_buf_take(&enc);
}

int aws_sigv4_canonical_query(smfw_buf *out, const char *query) {
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
            if (i) put_char(out, '&');
            put_str(out, pairs[i].name);
            put_char(out, '=');
            put_str(out, pairs[i].value);
        }
    }
    for (size_t i = 0; i < count; i++) {
        free(pairs[i].name);
        free(pairs[i].value);
    }
    free(pairs);
    return rc;
}

#define SMALL_HEADERS 16  /* headers sorted on the stack */
#define SMALL_NAMES   512 /* bytes of their lower-case names */

typedef struct chdr {
    const char *lname; /* lower-cased, NUL-terminated */
    size_t nlen;       /* strlen(lname) */
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

/* Trim and collapse internal whitespace runs to one space (appending runs, not bytes). */
static void append_header_value(smfw_buf *b, const char *v) {
    if (!v) return;
    while (*v && is_ws(*v)) v++;
    while (*v) {
        const char *e = v;
        while (*e && !is_ws(*e)) e++;
        put(b, v, (size_t)(e - v));
        while (*e && is_ws(*e)) e++;
        if (*e) put_char(b, ' ');
        v = e;
    }
}

/* The name without surrounding whitespace: *len bytes from the returned pointer. */
static const char *trim_name(const char *name, size_t *len) {
    while (*name && is_ws(*name)) name++;
    size_t n = strlen(name);
    while (n && is_ws(name[n - 1])) n--;
    *len = n;
    return name;
}

/* Lower-case copy of n bytes into dst (n + 1 bytes), NUL-terminated. */
static void lower_copy(char *dst, const char *src, size_t n) {
    /* ASCII, as SigV4 (and tolower() in the C locale smfw runs in) defines it. */
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        dst[i] = c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
    }
    dst[n] = '\0';
}

static char *lower_name(const char *name) {
    size_t n;
    name = trim_name(name, &n);
    char *l = malloc(n + 1);
    if (!l) return NULL;
    lower_copy(l, name, n);
    return l;
}

/* Append s upper-cased. */
static void append_upper(smfw_buf *b, const char *s) {
    size_t n = strlen(s);
    if (smfw_buf_reserve(b, n) != 0) return;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        b->data[b->len + i] = c >= 'a' && c <= 'z' ? (char)(c - ('a' - 'A')) : c;
    }
    b->len += n;
    b->data[b->len] = '\0';
}

int aws_sigv4_canonical_request(smfw_buf *creq, smfw_buf *signed_headers, const char *method,
                                const char *path, const char *query, const smfw_sigv4_header *hdrs,
                                size_t n, const char *payload_hash, unsigned flags) {
    /* On the stack for a request's usual handful of headers. */
    chdr h_small[SMALL_HEADERS];
    char names_small[SMALL_NAMES];
    chdr *h = n <= SMALL_HEADERS ? h_small : malloc(n * sizeof(chdr));
    if (!h) return -1;
    /* Trimmed once: lname first points into the caller's name, then at its lower-case copy. */
    size_t names_len = 0, values_len = 0;
    for (size_t i = 0; i < n; i++) {
        h[i].lname = trim_name(hdrs[i].name ? hdrs[i].name : "", &h[i].nlen);
        h[i].value = hdrs[i].value ? hdrs[i].value : "";
        h[i].order = i;
        names_len += h[i].nlen + 1;
        values_len += strlen(h[i].value);
    }
    char *names = names_len <= SMALL_NAMES ? names_small : malloc(names_len);
    if (!names) {
        if (h != h_small) free(h);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0, off = 0; i < n; i++) {
        lower_copy(names + off, h[i].lname, h[i].nlen);
        h[i].lname = names + off;
        off += h[i].nlen + 1;
    }
    /* Room for the whole request at once (it grows only for a long path or query). */
    smfw_buf_reserve(creq, 2 * names_len + values_len + 2 * n + strlen(path ? path : "") + 160);
    smfw_buf_reserve(signed_headers, names_len);
    if (rc == 0) {
        if (n <= SMALL_HEADERS) {
            /* Insertion sort: no qsort set-up for a handful (chdr_cmp's order is total). */
            for (size_t i = 1; i < n; i++) {
                chdr x = h[i];
                size_t j = i;
                for (; j > 0 && chdr_cmp(&h[j - 1], &x) > 0; j--) h[j] = h[j - 1];
                h[j] = x;
            }
        } else {
            qsort(h, n, sizeof(chdr), chdr_cmp);
        }
        append_upper(creq, method);
        put_char(creq, '\n');
        aws_sigv4_canonical_uri(creq, path, flags);
        put_char(creq, '\n');
        if (aws_sigv4_canonical_query(creq, query) != 0) rc = -1;
        put_char(creq, '\n');
        for (size_t i = 0; i < n; i++) {
            int same = i > 0 && h[i].nlen == h[i - 1].nlen &&
                       memcmp(h[i].lname, h[i - 1].lname, h[i].nlen) == 0;
            if (same) {
                put_char(creq, ',');
            } else {
                if (i > 0) put_char(creq, '\n');
                put(creq, h[i].lname, h[i].nlen);
                put_char(creq, ':');
                if (signed_headers->len) put_char(signed_headers, ';');
                put(signed_headers, h[i].lname, h[i].nlen);
            }
            append_header_value(creq, h[i].value);
        }
        if (n) put_char(creq, '\n');
        put_char(creq, '\n');
        smfw_buf_reserve(signed_headers, 0);
        if (signed_headers->data) put(creq, signed_headers->data, signed_headers->len);
        put_char(creq, '\n');
        put_str(creq, payload_hash);
    }
    if (names != names_small) free(names);
    if (h != h_small) free(h);
    if (creq->failed || signed_headers->failed) rc = -1;
    return rc;
}

void aws_sigv4_string_to_sign(smfw_buf *out, const char *amz_date, const char *region,
                              const char *service, const char *canonical_request, size_t creq_len) {
    /* Hashed before out grows: the canonical request may live in out itself (the signer). */
    char hash[65];
    smfw_sha256_hex(canonical_request, creq_len, hash);
    smfw_buf_reserve(out, 17 + strlen(amz_date) + 9 + strlen(region) + strlen(service) + 15 + 64);
    put(out, "AWS4-HMAC-SHA256\n", 17);
    put_str(out, amz_date);
    put_char(out, '\n');
    put(out, amz_date, strnlen(amz_date, 8));
    put_char(out, '/');
    put_str(out, region);
    put_char(out, '/');
    put_str(out, service);
    put(out, "/aws4_request\n", 14);
    put(out, hash, 64);
}

/* ---- signer ---- */

#define KEY_CACHE_SLOTS 4

typedef struct key_slot {
    char date[9];
    char *secret;
    unsigned char key[32];
    hmac_key mac; /* key's HMAC states (NULLs if OpenSSL refused): copied per signature */
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
        hmac_key_free(&s->slots[i].mac);
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

/*
 * Hex signature of the string to sign with the signing key of (secret, date).
 * The key, and its HMAC states (hmac_key), come from the cache or are derived
 * and cached: a signature then costs two state copies and the hashing of the
 * string to sign, not the four-HMAC key chain and the key's own two blocks.
 */
static void signer_sign(smfw_sigv4_signer *s, const char *secret, const char *date8,
                        const char *sts, size_t sts_len, char out[65]) {
    unsigned char key[32], md[32];
    hmac_key mine = {NULL, NULL};
    int found = 0, have = 0;
    pthread_mutex_lock(&s->lock);
    key_slot *victim = &s->slots[0];
    for (int i = 0; i < KEY_CACHE_SLOTS; i++) {
        key_slot *k = &s->slots[i];
        if (k->secret && strcmp(k->date, date8) == 0 && strcmp(k->secret, secret) == 0) {
            memcpy(key, k->key, 32);
            have = k->mac.inner && hmac_key_copy(&mine, &k->mac) == 0;
            k->used = ++s->tick;
            found = 1;
            break;
        }
        if (k->used < victim->used) victim = k;
    }
    pthread_mutex_unlock(&s->lock);
    if (!found) {
        aws_sigv4_signing_key(secret, date8, s->region, s->service, key);
        hmac_key keyed = {NULL, NULL};
        if (hmac_key_init(&keyed, key, 32) == 0) have = hmac_key_copy(&mine, &keyed) == 0;
        char *copy = strdup(secret);
        if (copy) {
            pthread_mutex_lock(&s->lock);
            if (victim->secret) {
                OPENSSL_cleanse(victim->secret, strlen(victim->secret));
                free(victim->secret);
            }
            hmac_key_free(&victim->mac);
            victim->secret = copy;
            memcpy(victim->date, date8, 8);
            victim->date[8] = '\0';
            memcpy(victim->key, key, 32);
            victim->mac = keyed;
            victim->used = ++s->tick;
            pthread_mutex_unlock(&s->lock);
        } else {
            hmac_key_free(&keyed);
        }
    }
    if (have && hmac_key_finish(&mine, sts, sts_len, md) == 0)
        to_hex(md, 32, out);
    else
        aws_sigv4_hmac_hex(key, sts, sts_len, out);
    OPENSSL_cleanse(key, sizeof(key));
    OPENSSL_cleanse(md, sizeof(md));
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
    smfw_sigv4_header hs_small[SMALL_HEADERS];
    smfw_sigv4_header *hs = cap <= SMALL_HEADERS ? hs_small : calloc(cap, sizeof(*hs));
    if (!hs) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory signing a request");
    for (size_t i = 0; i < req->header_count; i++) {
        const char *name = req->headers[i].name;
        if (!name) continue;
        /* Lower-cased on the stack: every header name we know of is short. */
        char small[64], *l = small;
        size_t len;
        const char *trimmed = trim_name(name, &len);
        if (len < sizeof small)
            lower_copy(small, trimmed, len);
        else
            l = lower_name(name);
        if (!l) {
            if (hs != hs_small) free(hs);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory signing a request");
        }
        int skip = aws_sigv4_unsignable(l) || strcmp(l, "x-amz-date") == 0 ||
                   strcmp(l, "date") == 0 || (token && strcmp(l, "x-amz-security-token") == 0) ||
                   ((flags & SMFW_SIGV4_CONTENT_SHA256) && strcmp(l, "x-amz-content-sha256") == 0);
        if (l != small) free(l);
        if (!skip) hs[n++] = req->headers[i];
    }
    hs[n++] = (smfw_sigv4_header){"X-Amz-Date", out->amz_date};
    if (token && !(flags & SMFW_SIGV4_UNSIGNED_TOKEN))
        hs[n++] = (smfw_sigv4_header){"X-Amz-Security-Token", token};
    if (flags & SMFW_SIGV4_CONTENT_SHA256)
        hs[n++] = (smfw_sigv4_header){"X-Amz-Content-SHA256", out->payload_hash};

    /*
     * One storage block, built in place: canonical request, string to sign,
     * Authorization, then the header lines. Reserved once for the usual sizes.
     */
    const char *akid = creds->access_key_id;
    smfw_buf sh, all;
    smfw_buf_init(&sh);
    smfw_buf_init(&all);
    /* 1.5 KB holds a SageMaker request's whole block; longer paths, queries, tokens grow it. */
    smfw_buf_reserve(&all, 1536 + (token ? strlen(token) : 0));
    size_t off_creq = 0;
    int rc = aws_sigv4_canonical_request(&all, &sh, req->method ? req->method : "GET", req->path,
                                         req->query, hs, n, out->payload_hash, flags);
    if (hs != hs_small) free(hs);
    if (rc != 0) {
        smfw_buf_free(&all);
        smfw_buf_free(&sh);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory signing a request");
    }
    size_t creq_len = all.len;
    put_char(&all, '\0');
    size_t off_sts = all.len;
    if (!all.failed)
        aws_sigv4_string_to_sign(&all, out->amz_date, s->region, s->service, all.data + off_creq,
                                 creq_len);
    char date8[9];
    memcpy(date8, out->amz_date, 8);
    date8[8] = '\0';
    if (!all.failed)
        signer_sign(s, creds->secret_access_key, date8, all.data + off_sts, all.len - off_sts,
                    out->signature);
    put_char(&all, '\0');
    const char *shd = sh.data ? sh.data : "";
    size_t off_auth = all.len;
    put_str(&all, "AWS4-HMAC-SHA256 Credential=");
    put_str(&all, akid);
    put_char(&all, '/');
    put_str(&all, date8);
    put_char(&all, '/');
    put_str(&all, s->region);
    put_char(&all, '/');
    put_str(&all, s->service);
    put_str(&all, "/aws4_request, SignedHeaders=");
    put_str(&all, shd);
    put_str(&all, ", Signature=");
    put_str(&all, out->signature);
    put_char(&all, '\0');
    const char *names[SMFW_SIGV4_MAX_ADDED];
    size_t values_off[SMFW_SIGV4_MAX_ADDED], lines_off[SMFW_SIGV4_MAX_ADDED];
    size_t k = 0;
    const char *values[SMFW_SIGV4_MAX_ADDED]; /* NULL: the Authorization written above */
    values[k] = out->amz_date;
    names[k++] = "X-Amz-Date";
    if (token) {
        values[k] = token;
        names[k++] = "X-Amz-Security-Token";
    }
    if (flags & SMFW_SIGV4_CONTENT_SHA256) {
        values[k] = out->payload_hash;
        names[k++] = "X-Amz-Content-SHA256";
    }
    values[k] = NULL;
    names[k++] = "Authorization";
    for (size_t i = 0; i < k; i++) {
        const char *v = values[i];
        lines_off[i] = all.len;
        put_str(&all, names[i]);
        put(&all, ": ", 2);
        values_off[i] = all.len;
        if (v) {
            put_str(&all, v);
        } else if (!all.failed) {
            /* Copy from our own buffer: reserve first so the source cannot move. */
            size_t alen = strlen(all.data + off_auth);
            if (smfw_buf_reserve(&all, alen) == 0) put(&all, all.data + off_auth, alen);
        }
        put_char(&all, '\0');
    }
    int failed = all.failed || sh.failed;
    smfw_buf_free(&sh);
    if (failed) {
        smfw_buf_free(&all);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory signing a request");
    }
    out->storage_ = smfw_buf_take(&all);
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
