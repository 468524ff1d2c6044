/*
 * sigv4_verify.c - server-side SigV4 verification: parse the Authorization
 * header, check scope and time, rebuild the canonical request from the
 * signed headers only and compare signatures in constant time.
 */
#include "aws/sigv4_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>

const char *smfw_sigv4_verdict_name(smfw_sigv4_verdict v) {
    switch (v) {
    case SMFW_SIGV4_VALID:
        return "valid";
    case SMFW_SIGV4_MISSING_AUTH:
        return "missing-authorization";
    case SMFW_SIGV4_MALFORMED_AUTH:
        return "malformed-authorization";
    case SMFW_SIGV4_MISSING_DATE:
        return "missing-date";
    case SMFW_SIGV4_UNSIGNED_REQUIRED:
        return "required-header-unsigned";
    case SMFW_SIGV4_UNKNOWN_KEY:
        return "unknown-access-key";
    case SMFW_SIGV4_WRONG_SCOPE_DATE:
        return "wrong-scope-date";
    case SMFW_SIGV4_WRONG_REGION:
        return "wrong-region";
    case SMFW_SIGV4_WRONG_SERVICE:
        return "wrong-service";
    case SMFW_SIGV4_SKEWED:
        return "request-time-skewed";
    case SMFW_SIGV4_MISSING_CONTENT_SHA256:
        return "missing-content-sha256";
    case SMFW_SIGV4_PAYLOAD_MISMATCH:
        return "payload-hash-mismatch";
    case SMFW_SIGV4_SIGNATURE_MISMATCH:
        return "signature-mismatch";
    }
    return "unknown";
}

void smfw_sigv4_verify_result_free(smfw_sigv4_verify_result *r) {
    if (!r) return;
    free(r->canonical_request);
    free(r->string_to_sign);
    r->canonical_request = NULL;
    r->string_to_sign = NULL;
}

static smfw_sigv4_verdict fail(smfw_sigv4_verify_result *r, smfw_sigv4_verdict v, const char *fmt,
                               const char *arg) {
    r->verdict = v;
    snprintf(r->detail, sizeof(r->detail), fmt, arg ? arg : "");
    return v;
}

/* Copy [s, s+len) into dst (capacity cap) if it fits and has no odd bytes. */
static int copy_field(char *dst, size_t cap, const char *s, size_t len) {
    if (len == 0 || len >= cap) return -1;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] <= ' ' || s[i] == ',' || s[i] == ';') return -1;
    memcpy(dst, s, len);
    dst[len] = '\0';
    return 0;
}

/* Is `name` (lower case) in the ';'-separated list? */
static int in_list(const char *list, const char *name) {
    size_t nl = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ';');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == nl && strncmp(p, name, nl) == 0) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

typedef struct parsed_auth {
    char credential[512];
    char signed_headers[4096];
    char signature[65];
} parsed_auth;

/* "AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=..." */
static int parse_auth(const char *v, parsed_auth *a) {
    memset(a, 0, sizeof(*a));
    static const char alg[] = "AWS4-HMAC-SHA256";
    while (*v == ' ') v++;
    if (strncmp(v, alg, sizeof(alg) - 1) != 0 || v[sizeof(alg) - 1] != ' ') return -1;
    const char *p = v + sizeof(alg) - 1;
    int seen = 0;
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        const char *eq = strchr(p, '=');
        if (!eq) return -1;
        const char *end = strchr(eq, ',');
        if (!end) end = eq + strlen(eq);
        size_t vl = (size_t)(end - eq - 1);
        while (vl && eq[vl] == ' ') vl--; /* trailing spaces before ',' */
        size_t kl = (size_t)(eq - p);
        const char *val = eq + 1;
        if (kl == 10 && strncmp(p, "Credential", 10) == 0) {
            if (vl == 0 || vl >= sizeof(a->credential)) return -1;
            memcpy(a->credential, val, vl);
            seen |= 1;
        } else if (kl == 13 && strncmp(p, "SignedHeaders", 13) == 0) {
            if (vl == 0 || vl >= sizeof(a->signed_headers)) return -1;
            memcpy(a->signed_headers, val, vl);
            seen |= 2;
        } else if (kl == 9 && strncmp(p, "Signature", 9) == 0) {
            if (vl != 64) return -1;
            for (size_t i = 0; i < 64; i++)
                if (!isxdigit((unsigned char)val[i])) return -1;
            memcpy(a->signature, val, 64);
            seen |= 4;
        } else {
            return -1;
        }
        p = end;
    }
    return seen == 7 ? 0 : -1;
}

smfw_sigv4_verdict smfw_sigv4_verify(const smfw_sigv4_request *req,
                                     const smfw_sigv4_verify_params *params,
                                     smfw_sigv4_verify_result *r) {
    memset(r, 0, sizeof(*r));
    const smfw_sigv4_header *hdrs = req->headers;
    size_t n = req->header_count;
    const char *auth = aws_sigv4_find_header(hdrs, n, "authorization");
    if (!auth)
        return fail(r, SMFW_SIGV4_MISSING_AUTH, "the request has no Authorization header%s", NULL);
    parsed_auth a;
    if (parse_auth(auth, &a) != 0)
        return fail(r, SMFW_SIGV4_MALFORMED_AUTH,
                    "the Authorization header is not 'AWS4-HMAC-SHA256 Credential=..., "
                    "SignedHeaders=..., Signature=...'%s",
                    NULL);
    memcpy(r->provided_signature, a.signature, 65);
    for (char *c = r->provided_signature; *c; c++) *c = (char)tolower((unsigned char)*c);
    /* Credential = AKID/YYYYMMDD/region/service/aws4_request */
    const char *parts[5];
    size_t lens[5];
    const char *p = a.credential;
    for (int i = 0; i < 5; i++) {
        const char *e = i < 4 ? strchr(p, '/') : p + strlen(p);
        if (!e)
            return fail(r, SMFW_SIGV4_MALFORMED_AUTH, "the credential scope '%.120s' is malformed",
                        a.credential);
        parts[i] = p;
        lens[i] = (size_t)(e - p);
        p = *e ? e + 1 : e;
    }
    if (copy_field(r->access_key_id, sizeof(r->access_key_id), parts[0], lens[0]) != 0 ||
        lens[1] != 8 || copy_field(r->scope_date, sizeof(r->scope_date), parts[1], 8) != 0 ||
        copy_field(r->scope_region, sizeof(r->scope_region), parts[2], lens[2]) != 0 ||
        copy_field(r->scope_service, sizeof(r->scope_service), parts[3], lens[3]) != 0 ||
        lens[4] != 12 || strncmp(parts[4], "aws4_request", 12) != 0)
        return fail(r, SMFW_SIGV4_MALFORMED_AUTH, "the credential scope '%.120s' is malformed",
                    a.credential);

    const char *date = aws_sigv4_find_header(hdrs, n, "x-amz-date");
    if (!date || smfw_sigv4_parse_time(date, &r->request_time) != 0)
        return fail(r, SMFW_SIGV4_MISSING_DATE,
                    "the request has no valid X-Amz-Date header (YYYYMMDD'T'HHMMSS'Z')%s", NULL);
    aws_strlcpy(r->amz_date, date, sizeof(r->amz_date));
    r->session_token = aws_sigv4_find_header(hdrs, n, "x-amz-security-token");

    const char *sha_hdr = aws_sigv4_find_header(hdrs, n, "x-amz-content-sha256");
    int s3 = (params->flags & SMFW_SIGV4_CONTENT_SHA256) != 0;
    if (s3 && !sha_hdr)
        return fail(r, SMFW_SIGV4_MISSING_CONTENT_SHA256,
                    "the request is missing the x-amz-content-sha256 header%s", NULL);
    static const char *const required[] = {"host", "x-amz-date"};
    for (int i = 0; i < 2; i++)
        if (!in_list(a.signed_headers, required[i]))
            return fail(r, SMFW_SIGV4_UNSIGNED_REQUIRED,
                        "the '%s' header must be signed (listed in SignedHeaders)", required[i]);
    if (r->session_token && !in_list(a.signed_headers, "x-amz-security-token"))
        return fail(r, SMFW_SIGV4_UNSIGNED_REQUIRED,
                    "the '%s' header must be signed (listed in SignedHeaders)",
                    "x-amz-security-token");
    if (sha_hdr && !in_list(a.signed_headers, "x-amz-content-sha256"))
        return fail(r, SMFW_SIGV4_UNSIGNED_REQUIRED,
                    "the '%s' header must be signed (listed in SignedHeaders)",
                    "x-amz-content-sha256");

    const char *secret =
        params->lookup_secret ? params->lookup_secret(params->user, r->access_key_id) : NULL;
    if (!secret)
        return fail(r, SMFW_SIGV4_UNKNOWN_KEY, "the access key id '%s' is not known",
                    r->access_key_id);
    if (strncmp(r->scope_date, date, 8) != 0)
        return fail(r, SMFW_SIGV4_WRONG_SCOPE_DATE,
                    "the credential scope date %s does not match X-Amz-Date", r->scope_date);
    if (params->region && strcmp(params->region, r->scope_region) != 0)
        return fail(r, SMFW_SIGV4_WRONG_REGION, "the credential scope region '%s' is wrong",
                    r->scope_region);
    if (params->service && strcmp(params->service, r->scope_service) != 0)
        return fail(r, SMFW_SIGV4_WRONG_SERVICE, "the credential scope service '%s' is wrong",
                    r->scope_service);
    int64_t skew = params->max_skew_s > 0 ? params->max_skew_s : 900;
    int64_t diff = r->request_time - params->now;
    if (diff > skew || diff < -skew)
        return fail(r, SMFW_SIGV4_SKEWED, "the request time %s is too far from the server time",
                    date);

    /* Payload hash: x-amz-content-sha256 when sent (checked against the body), else the body's. */
    char body_hash[65];
    if (req->payload_hash)
        aws_strlcpy(body_hash, req->payload_hash, sizeof(body_hash));
    else
        smfw_sha256_hex(req->body, req->body_len, body_hash);
    const char *payload_hash = body_hash;
    if (sha_hdr) {
        payload_hash = sha_hdr;
        int skip_check =
            strcmp(sha_hdr, "UNSIGNED-PAYLOAD") == 0 || strncmp(sha_hdr, "STREAMING-", 10) == 0;
        if (!skip_check && strcasecmp(sha_hdr, body_hash) != 0)
            return fail(r, SMFW_SIGV4_PAYLOAD_MISMATCH,
                        "the x-amz-content-sha256 header does not match the body%s", NULL);
    }

    smfw_sigv4_header *signed_hdrs = calloc(n ? n : 1, sizeof(*signed_hdrs));
    if (!signed_hdrs)
        return fail(r, SMFW_SIGV4_SIGNATURE_MISMATCH, "out of memory verifying the request%s",
                    NULL);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!hdrs[i].name) continue;
        char lname[256];
        size_t l = strlen(hdrs[i].name);
        if (l >= sizeof(lname)) continue;
        for (size_t j = 0; j <= l; j++) lname[j] = (char)tolower((unsigned char)hdrs[i].name[j]);
        if (in_list(a.signed_headers, lname)) signed_hdrs[m++] = hdrs[i];
    }
    smfw_buf creq, sh, sts;
    smfw_buf_init(&creq);
    smfw_buf_init(&sh);
    smfw_buf_init(&sts);
    int rc = aws_sigv4_canonical_request(&creq, &sh, req->method ? req->method : "GET", req->path,
                                         req->query, signed_hdrs, m, payload_hash, params->flags);
    free(signed_hdrs);
    if (rc == 0)
        aws_sigv4_string_to_sign(&sts, date, r->scope_region, r->scope_service, creq.data,
                                 creq.len);
    if (rc != 0 || sts.failed) {
        smfw_buf_free(&creq);
        smfw_buf_free(&sh);
        smfw_buf_free(&sts);
        return fail(r, SMFW_SIGV4_SIGNATURE_MISMATCH, "out of memory verifying the request%s",
                    NULL);
    }
    unsigned char key[32];
    aws_sigv4_signing_key(secret, r->scope_date, r->scope_region, r->scope_service, key);
    aws_sigv4_hmac_hex(key, sts.data, sts.len, r->expected_signature);
    OPENSSL_cleanse(key, sizeof(key));
    int same_list = sh.data && strcmp(sh.data, a.signed_headers) == 0;
    smfw_buf_free(&sh);
    r->canonical_request = smfw_buf_take(&creq);
    r->string_to_sign = smfw_buf_take(&sts);
    if (CRYPTO_memcmp(r->expected_signature, r->provided_signature, 64) != 0)
        return fail(r, SMFW_SIGV4_SIGNATURE_MISMATCH,
                    "the request signature we calculated does not match the signature you "
                    "provided%s",
                    same_list ? "" : " (a signed header is missing from the request)");
    r->verdict = SMFW_SIGV4_VALID;
    return SMFW_SIGV4_VALID;
}
