/*
 * aws_call.c - the call pipeline: sign (a cached signer per region and
 * service), send, and retry by the client's retry mode (aws_retry.c: which
 * errors, backoff, the retry quota; adaptive mode's rate limiter), with
 * clock-skew correction and expired-token refresh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <smfw/crc32.h>
#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "aws/aws_internal.h"

#define SKEW_THRESHOLD_S 300

int smfw_aws_client_measured_skew(smfw_aws_client *c, int64_t *skew_s) {
    pthread_mutex_lock(&c->lock);
    int seen = c->clock_seen;
    if (seen && skew_s) *skew_s = c->clock_measured;
    pthread_mutex_unlock(&c->lock);
    return seen;
}

int64_t smfw_aws_client_clock_offset(smfw_aws_client *c) {
    pthread_mutex_lock(&c->lock);
    int64_t o = c->clock_offset;
    pthread_mutex_unlock(&c->lock);
    return o;
}

/* ---- signing ---- */

static smfw_sigv4_signer *signer_for(smfw_aws_client *c, const char *region, const char *name,
                                     smfw_error *err) {
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->nsigners; i++) {
        if (strcmp(smfw_sigv4_signer_region(c->signers[i]), region) == 0 &&
            strcmp(smfw_sigv4_signer_service(c->signers[i]), name) == 0) {
            smfw_sigv4_signer *s = c->signers[i];
            pthread_mutex_unlock(&c->lock);
            return s;
        }
    }
    smfw_sigv4_signer *s = NULL;
    if (c->nsigners < AWS_MAX_SIGNERS && smfw_sigv4_signer_new(region, name, 0, &s, err) == SMFW_OK)
        c->signers[c->nsigners++] = s;
    else if (c->nsigners >= AWS_MAX_SIGNERS)
        smfw_error_set(err, SMFW_ERR_INTERNAL, "too many SigV4 signers in one client");
    pthread_mutex_unlock(&c->lock);
    return s;
}

smfw_status smfw_aws_client_sign(smfw_aws_client *c, const char *signing_name,
                                 const smfw_sigv4_request *req, unsigned flags,
                                 smfw_sigv4_signature *out, smfw_error *err) {
    const char *region;
    smfw_status st = smfw_aws_client_region(c, &region, err);
    if (st != SMFW_OK) return st;
    smfw_sigv4_signer *s = signer_for(c, region, signing_name, err);
    if (!s) return err ? err->status : SMFW_ERR_INTERNAL;
    const smfw_aws_credentials *creds;
    st = smfw_aws_client_credentials(c, &creds, err);
    if (st != SMFW_OK) return st;
    st = smfw_sigv4_sign(s, creds, req, flags, aws_now() + smfw_aws_client_clock_offset(c), out,
                         err);
    smfw_aws_credentials_release(creds);
    return st;
}

/* ---- call pipeline ---- */

/* SHA-256 (hex) and CRC-32 of `len` bytes from the file's position, which is restored. */
static int hash_file_range(FILE *f, int64_t len, char out[65], uint32_t *crc) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    off_t start = ftello(f);
    int64_t left = len;
    *crc = 0;
    int rc = ctx && start >= 0 && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 ? 0 : -1;
    while (rc == 0 && left > 0) {
        size_t want = left < (int64_t)sizeof(buf) ? (size_t)left : sizeof(buf);
        size_t r = fread(buf, 1, want, f);
        if (r == 0) {
            rc = -1; /* shorter than its size: changed under us */
            break;
        }
        if (EVP_DigestUpdate(ctx, buf, r) != 1) rc = -1;
        *crc = smfw_crc32(*crc, buf, r);
        left -= (int64_t)r;
    }
    if (rc == 0 && EVP_DigestFinal_ex(ctx, md, &mdlen) != 1) rc = -1;
    EVP_MD_CTX_free(ctx);
    if (start < 0 || fseeko(f, start, SEEK_SET) != 0) rc = -1;
    if (rc == 0)
        for (unsigned int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
    return rc;
}

/* S3's checksum header form: the big-endian CRC in base64. */
static void crc32_base64(uint32_t crc, char out[16]) {
    unsigned char be[4] = {(unsigned char)(crc >> 24), (unsigned char)(crc >> 16),
                           (unsigned char)(crc >> 8), (unsigned char)crc};
    EVP_EncodeBlock((unsigned char *)out, be, 4);
}

void aws_result_init(aws_result *r) {
    memset(r, 0, sizeof(*r));
    aws_http_response_init(&r->http);
}

void aws_result_free(aws_result *r) {
    aws_http_response_free(&r->http);
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Adjust the clock offset from a Date header; returns 1 if it changed. */
static int update_clock(smfw_aws_client *c, const aws_http_response *resp) {
    char date[128];
    if (!aws_http_header(resp, "Date", date, sizeof(date))) return 0;
    int64_t server = aws_parse_http_date(date);
    if (server < 0) return 0;
    int64_t now = aws_now();
    int changed = 0;
    pthread_mutex_lock(&c->lock);
    int64_t diff = server - (now + c->clock_offset);
    c->clock_measured = server - now;
    c->clock_seen = 1;
    if (diff >= SKEW_THRESHOLD_S || diff <= -SKEW_THRESHOLD_S) {
        c->clock_offset = server - now;
        changed = 1;
    }
    pthread_mutex_unlock(&c->lock);
    if (changed)
        SMFW_LOG_WARN("aws", "local clock differs from AWS by %lld s; correcting signatures",
                      (long long)(server - now));
    return changed;
}

static void uuid4(char out[37]) {
    unsigned char b[16];
    if (RAND_bytes(b, 16) != 1)
        for (int i = 0; i < 16; i++) b[i] = (unsigned char)rand();
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

static void fill_error(aws_result *res, const aws_call *call) {
    const aws_http_response *h = &res->http;
    char type[256], qerr[256], rid[128];
    memset(&res->error, 0, sizeof(res->error));
    if (call->protocol == AWS_PROTO_REST_JSON)
        aws_error_parse_rest_json(h->body.data, h->body.len,
                                  aws_http_header(h, "x-amzn-ErrorType", type, sizeof(type)),
                                  &res->error);
    else if (call->protocol == AWS_PROTO_JSON)
        aws_error_parse_json(
            h->body.data, h->body.len, aws_http_header(h, "x-amzn-ErrorType", type, sizeof(type)),
            aws_http_header(h, "x-amzn-query-error", qerr, sizeof(qerr)), &res->error);
    else
        aws_error_parse_xml(h->body.data, h->body.len, &res->error);
    if (!res->error.code[0]) {
        /* Bodyless errors (HEAD): the status is the code, as the SDKs report it. */
        const char *code = h->status == 404   ? "NotFound"
                           : h->status == 403 ? "Forbidden"
                           : h->status == 301 ? "PermanentRedirect"
                           : h->status == 400 ? "BadRequest"
                           : h->status == 429 ? "TooManyRequestsException"
                                              : NULL;
        if (code)
            aws_strlcpy(res->error.code, code, sizeof(res->error.code));
        else /* like botocore: the status is the code */
            snprintf(res->error.code, sizeof(res->error.code), "%ld", h->status);
    }
    if (!res->error.request_id[0]) {
        if (aws_http_header(h, "x-amzn-RequestId", rid, sizeof(rid)) ||
            aws_http_header(h, "x-amz-request-id", rid, sizeof(rid)))
            aws_strlcpy(res->error.request_id, rid, sizeof(res->error.request_id));
    }
    char region[64];
    if (!res->error.region[0] && aws_http_header(h, "x-amz-bucket-region", region, sizeof(region)))
        aws_strlcpy(res->error.region, region, sizeof(res->error.region));
}

static smfw_status error_sentence(const aws_call *call, const aws_result *res, smfw_error *err) {
    const aws_error_info *e = &res->error;
    smfw_status st = aws_error_status(res->http.status, e->code, e->message);
    const char *msg = e->message[0] ? e->message : "(no message)";
    size_t ml = strlen(msg);
    const char *dot = ml && (msg[ml - 1] == '.' || msg[ml - 1] == '!') ? "" : ".";
    const char *hint = "";
    if (st == SMFW_ERR_AUTH)
        hint = " Check the AWS credentials (run 'aws sts get-caller-identity') and the IAM "
               "permissions.";
    else if (st == SMFW_ERR_THROTTLED)
        hint = " The request was throttled after retries; lower the request rate.";
    return smfw_error_set(err, st, "%s %s failed: %s: %s%s (HTTP %ld, request id %s)%s",
                          call->service_label, call->operation, e->code, msg, dot, res->http.status,
                          e->request_id[0] ? e->request_id : "none", hint);
}

/* Where one call goes and how it is signed: the same for every attempt. */
typedef struct call_target {
    char authority[512];       /* the Host header */
    smfw_sigv4_signer *signer; /* NULL for an unsigned request */
    smfw_buf path;             /* wire path, as signed */
    smfw_buf url;              /* the full URL, query included */
    char invocation[37];       /* amz-sdk-invocation-id: one per call */
    const char *user_agent;
    const char *service; /* signing name, for the per-service retry rules */
    int max_attempts;
} call_target;

/* One attempt's headers, body file and download file. */
typedef struct call_attempt {
    smfw_sigv4_header hs[40];
    size_t n;
    char sdk_request[64];
    char content_length[32];
    char crc32[16]; /* x-amz-checksum-crc32 */
    FILE *upload, *download;
    int64_t upload_size;
    char *tmp_download; /* unpublished download, removed unless published */
    smfw_sigv4_signature sig;
} call_attempt;

/* What the retry loop carries from one attempt to the next. */
typedef struct retry_state {
    int retries_taken, last_cost;
    int skew_retry_used, token_retry_used;
} retry_state;

/* How a failed attempt may be retried. */
typedef struct retry_verdict {
    int retryable; /* worth another attempt */
    int throttled; /* slower backoff */
    int immediate; /* a corrected signature: again now, not counted as an attempt */
    int cost;      /* retry quota tokens */
} retry_verdict;

static void target_free(call_target *t) {
    smfw_buf_free(&t->path);
    smfw_buf_free(&t->url);
}

/* Build the URL from the endpoint (or the call's base URL) and find the signer. */
static smfw_status target_resolve(smfw_aws_client *c, const aws_call *call, call_target *t,
                                  smfw_error *err) {
    char base[1024];
    smfw_status st;
    aws_endpoint ep;
    memset(&ep, 0, sizeof(ep));
    memset(t, 0, sizeof(*t));
    smfw_buf_init(&t->path);
    smfw_buf_init(&t->url);
    if (call->base_url) {
        aws_strlcpy(base, call->base_url, sizeof(base));
    } else {
        /* The rules give the URL and how to sign for it (IAM: the partition's global region). */
        st = aws_client_resolve_endpoint(c, call->endpoint_id, &ep, err);
        if (st != SMFW_OK) return st;
        aws_strlcpy(base, ep.url, sizeof(base));
    }
    if (aws_http_url_authority(base, t->authority, sizeof(t->authority)) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "the endpoint URL '%s' is not valid", base);
    const char *region = call->signing_region;
    if (!region && ep.signing_region[0]) region = ep.signing_region;
    const char *signing_name = ep.signing_name[0] ? ep.signing_name : call->signing_name;
    if (!region && !call->unsigned_request) {
        st = smfw_aws_client_region(c, &region, err);
        if (st != SMFW_OK) return st;
    }
    /* A base URL may carry a path prefix (e.g. a proxy): keep it in front. */
    const char *base_path = strchr(strstr(base, "://") + 3, '/');
    if (base_path) smfw_buf_puts(&t->path, base_path);
    const char *cp = call->path ? call->path : "/";
    if (base_path && cp[0] == '/') cp++;
    if (!base_path && cp[0] != '/') smfw_buf_putc(&t->path, '/');
    smfw_buf_puts(&t->path, cp);
    smfw_buf_append(&t->url, base, base_path ? (size_t)(base_path - base) : strlen(base));
    smfw_buf_puts(&t->url, t->path.data ? t->path.data : "/");
    if (call->query && *call->query) {
        smfw_buf_putc(&t->url, '?');
        smfw_buf_puts(&t->url, call->query);
    }
    if (t->path.failed || t->url.failed)
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    uuid4(t->invocation);
    t->user_agent = c->user_agent;
    t->service = signing_name;
    t->max_attempts = call->max_attempts > 0 ? call->max_attempts : c->max_attempts;
    if (!call->unsigned_request) {
        t->signer = signer_for(c, region, signing_name, err);
        if (!t->signer) return err ? err->status : SMFW_ERR_INTERNAL;
    }
    return SMFW_OK;
}

/* Close the attempt's files; an unpublished download is removed. */
static void attempt_close(call_attempt *a) {
    if (a->upload) fclose(a->upload);
    if (a->download) fclose(a->download);
    a->upload = a->download = NULL;
    if (a->tmp_download) unlink(a->tmp_download);
    free(a->tmp_download);
    a->tmp_download = NULL;
    smfw_sigv4_signature_free(&a->sig);
}

/* Headers (Host, the call's, SDK correlation) and the body and download files. */
static smfw_status attempt_open(const aws_call *call, const call_target *t, int attempt,
                                call_attempt *a, smfw_error *err) {
    memset(a, 0, sizeof(*a));
    snprintf(a->sdk_request, sizeof(a->sdk_request), "attempt=%d; max=%d", attempt,
             t->max_attempts);
    a->hs[a->n++] = (smfw_sigv4_header){"Host", t->authority};
    for (size_t i = 0; i < call->header_count && a->n < 30; i++) a->hs[a->n++] = call->headers[i];
    a->hs[a->n++] = (smfw_sigv4_header){"amz-sdk-invocation-id", t->invocation};
    a->hs[a->n++] = (smfw_sigv4_header){"amz-sdk-request", a->sdk_request};
    a->hs[a->n++] = (smfw_sigv4_header){"User-Agent", t->user_agent}; /* never signed */
    if (call->upload_path) {
        a->upload = fopen(call->upload_path, "rb");
        if (!a->upload)
            return smfw_error_set(err, SMFW_ERR_IO, "cannot open %s: %s", call->upload_path,
                                  strerror(errno));
        fseeko(a->upload, 0, SEEK_END);
        int64_t file_size = (int64_t)ftello(a->upload);
        int64_t off = call->upload_offset;
        a->upload_size = call->upload_length > 0 ? call->upload_length : file_size - off;
        if (off < 0 || a->upload_size < 0 || off + a->upload_size > file_size ||
            fseeko(a->upload, (off_t)off, SEEK_SET) != 0) {
            smfw_status st = smfw_error_set(
                err, SMFW_ERR_IO, "%s is %lld bytes, shorter than the %lld bytes at %lld to send",
                call->upload_path, (long long)file_size, (long long)a->upload_size, (long long)off);
            return st; /* the caller closes the attempt */
        }
    }
    if (call->download_path) {
        /* An unpredictable O_EXCL name: a planted "<file>.part" link is never followed. */
        int fd = smfw_tmpfile_beside(call->download_path, &a->tmp_download);
        if (fd < 0 || !(a->download = fdopen(fd, "wb"))) {
            smfw_status st = smfw_error_set(err, SMFW_ERR_IO, "cannot write beside %s: %s",
                                            call->download_path, strerror(errno));
            if (fd >= 0) close(fd);
            attempt_close(a);
            return st;
        }
    }
    if (a->upload) {
        snprintf(a->content_length, sizeof(a->content_length), "%lld", (long long)a->upload_size);
        a->hs[a->n++] = (smfw_sigv4_header){"Content-Length", a->content_length};
    }
    return SMFW_OK;
}

/* SigV4 over the attempt's headers, with the call's or the client's credentials. */
static smfw_status attempt_sign(smfw_aws_client *c, const aws_call *call, const call_target *t,
                                call_attempt *a, smfw_error *err) {
    if (call->unsigned_request) return SMFW_OK;
    const smfw_aws_credentials *creds = call->creds;
    if (!creds) {
        smfw_status st = smfw_aws_client_credentials(c, &creds, err);
        if (st != SMFW_OK) return st;
    }
    /* A streamed body is hashed in one pass first (S3 checks the hash), its CRC-32 with it. */
    char payload_hash[65] = "";
    uint32_t crc = 0;
    if (a->upload && hash_file_range(a->upload, a->upload_size, payload_hash, &crc) != 0) {
        if (!call->creds) smfw_aws_credentials_release(creds);
        return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s", call->upload_path);
    }
    if (call->checksum_crc32 && a->n < 38) {
        /* Signed with the rest, as botocore sends it over plain HTTP (no trailer). */
        if (!a->upload && call->body_len) crc = smfw_crc32(0, call->body, call->body_len);
        crc32_base64(crc, a->crc32);
        a->hs[a->n++] = (smfw_sigv4_header){"x-amz-checksum-crc32", a->crc32};
        a->hs[a->n++] = (smfw_sigv4_header){"x-amz-sdk-checksum-algorithm", "CRC32"};
    }
    smfw_sigv4_request sreq = {
        call->method, t->path.data, call->query,    a->hs,
        a->n,         call->body,   call->body_len, a->upload ? payload_hash : NULL};
    smfw_status st = smfw_sigv4_sign(t->signer, creds, &sreq, call->sign_flags,
                                     aws_now() + smfw_aws_client_clock_offset(c), &a->sig, err);
    if (!call->creds) smfw_aws_credentials_release(creds);
    if (st != SMFW_OK) return st;
    for (size_t i = 0; i < a->sig.added_count; i++) a->hs[a->n++] = a->sig.added[i];
    return SMFW_OK;
}

/* Send; a 2xx download is published under its final name. The transport's status. */
static smfw_status attempt_send(smfw_aws_client *c, const aws_call *call, const call_target *t,
                                call_attempt *a, aws_result *res, smfw_error *net_err) {
    aws_http_request hreq = {
        call->method, t->url.data,    a->hs,       a->n, call->body, call->body_len,
        a->upload,    a->upload_size, a->download, 0,    0,          0};
    smfw_error_clear(net_err);
    smfw_status hst = aws_http_perform(c->http, &hreq, &res->http, net_err);
    if (a->upload) fclose(a->upload);
    if (a->download) fclose(a->download);
    a->upload = a->download = NULL;
    if (a->tmp_download && hst == SMFW_OK && res->http.status >= 200 && res->http.status < 300) {
        if (smfw_file_publish(a->tmp_download, call->download_path, 0) != 0)
            hst = smfw_error_set(net_err, SMFW_ERR_IO,
                                 "cannot write %s: %s (an existing file is never replaced)",
                                 call->download_path, strerror(errno));
        else {
            free(a->tmp_download);
            a->tmp_download = NULL;
        }
    }
    return hst;
}

/* Classify a failed attempt (transport error or non-2xx answer); sets the call's error. */
static smfw_status classify_failure(smfw_aws_client *c, const aws_call *call, const call_target *t,
                                    smfw_status hst, const smfw_error *net_err, int clock_changed,
                                    retry_state *rs, aws_result *res, retry_verdict *v,
                                    smfw_error *err) {
    memset(v, 0, sizeof(*v));
    v->cost = AWS_RETRY_COST;
    if (hst != SMFW_OK) {
        aws_retry_failure f = hst == SMFW_ERR_TIMEOUT ? AWS_FAIL_TIMEOUT : AWS_FAIL_CONNECT;
        v->retryable = aws_retry_classify(c->retry_mode, t->service, f, 0, NULL) != AWS_RETRY_NO;
        if (f == AWS_FAIL_TIMEOUT) v->cost = AWS_RETRY_TIMEOUT_COST;
        return smfw_error_set(err, hst, "%s %s failed: %s", call->service_label, call->operation,
                              net_err->message);
    }
    const char *code = res->error.code; /* parsed by the loop */
    aws_retry_class cls =
        aws_retry_classify(c->retry_mode, t->service, AWS_FAIL_RESPONSE, res->http.status, code);
    v->throttled = cls == AWS_RETRY_THROTTLING;
    v->retryable = cls != AWS_RETRY_NO;
    if (!v->retryable && aws_error_is_clock_skew(code, res->error.message) && clock_changed &&
        !rs->skew_retry_used) {
        rs->skew_retry_used = v->retryable = v->immediate = 1;
    }
    if (!v->retryable && aws_error_is_expired_token(code) && !call->creds &&
        !rs->token_retry_used && !call->unsigned_request) {
        smfw_error rerr;
        if (smfw_aws_client_refresh_credentials(c, &rerr) == SMFW_OK)
            rs->token_retry_used = v->retryable = v->immediate = 1;
    }
    return error_sentence(call, res, err);
}

/* Whether a retryable failure gets another (delayed) attempt: attempts left, and in standard
   and adaptive modes the retry quota's tokens (legacy mode has no quota, as botocore's). */
static int retry_allowed(smfw_aws_client *c, const aws_call *call, int attempt, int max_attempts,
                         const retry_verdict *v, retry_state *rs) {
    if (attempt >= max_attempts) return 0;
    if (c->retry_mode != AWS_RETRY_LEGACY && !aws_retry_quota_take(&c->quota, v->cost)) {
        SMFW_LOG_DEBUG("aws", "retry quota exhausted; not retrying %s %s", call->service_label,
                       call->operation);
        return 0;
    }
    rs->retries_taken++;
    rs->last_cost = v->cost;
    return 1;
}

/* Adaptive mode: every answer (a failed connection too) adjusts the client's send rate. */
static void rate_feedback(smfw_aws_client *c, smfw_status hst, const aws_result *res) {
    if (c->retry_mode != AWS_RETRY_ADAPTIVE) return;
    int answer_failed = hst == SMFW_OK && (res->http.status < 200 || res->http.status >= 300);
    aws_rate_limiter_update(&c->limiter,
                            answer_failed && aws_retry_is_throttling_code(res->error.code));
}

smfw_status aws_client_call(smfw_aws_client *c, const aws_call *call, aws_result *res,
                            smfw_error *err) {
    call_target t;
    smfw_status st = target_resolve(c, call, &t, err);
    if (st != SMFW_OK) {
        target_free(&t);
        return st;
    }
    retry_state rs;
    memset(&rs, 0, sizeof(rs));
    res->attempts = 0;
    int sent = 0;
    for (int attempt = 1;; attempt++) {
        aws_result_free(res);
        aws_result_init(res);
        call_attempt a;
        st = attempt_open(call, &t, attempt, &a, err);
        if (st == SMFW_OK) st = attempt_sign(c, call, &t, &a, err);
        aws_strlcpy(res->checksum_crc32, a.crc32, sizeof(res->checksum_crc32));
        if (st != SMFW_OK) {
            attempt_close(&a);
            break;
        }
        if (c->retry_mode == AWS_RETRY_ADAPTIVE) aws_rate_limiter_acquire(&c->limiter);
        smfw_error net_err;
        smfw_status hst = attempt_send(c, call, &t, &a, res, &net_err);
        attempt_close(&a);
        res->attempts = ++sent;
        if (hst == SMFW_ERR_IO || hst == SMFW_ERR_NOMEM || hst == SMFW_ERR_PROTOCOL ||
            hst == SMFW_ERR_CANCELLED) {
            st = hst;
            if (err) *err = net_err;
            break;
        }
        int clock_changed = hst == SMFW_OK ? update_clock(c, &res->http) : 0;
        int ok2xx = hst == SMFW_OK && res->http.status >= 200 && res->http.status < 300;
        if (ok2xx && call->error_in_200 && res->http.status == 200 &&
            aws_s3_is_200_error(res->http.body.data, res->http.body.len)) {
            res->http.status = 500; /* as botocore: retried and reported as the server error */
            ok2xx = 0;
        }
        if (hst == SMFW_OK && !ok2xx) fill_error(res, call);
        rate_feedback(c, hst, res);
        if (ok2xx) {
            /* Success: give back the cost of the last retry, or 1 token. */
            if (c->retry_mode != AWS_RETRY_LEGACY)
                aws_retry_quota_give(&c->quota, rs.retries_taken ? rs.last_cost : 1);
            st = SMFW_OK;
            break;
        }
        retry_verdict v;
        st = classify_failure(c, call, &t, hst, &net_err, clock_changed, &rs, res, &v, err);
        if (!v.retryable) break;
        if (v.immediate) {
            attempt--; /* a corrected signature does not use up an attempt */
            continue;
        }
        if (!retry_allowed(c, call, attempt, t.max_attempts, &v, &rs)) break;
        long delay = aws_retry_backoff_ms(c->retry_mode, attempt, v.throttled);
        SMFW_LOG_DEBUG("aws", "%s %s attempt %d of %d failed (%s); retrying in %ld ms (%s mode)",
                       call->service_label, call->operation, attempt, t.max_attempts,
                       res->error.code[0] ? res->error.code : "network error", delay,
                       aws_retry_mode_name(c->retry_mode));
        sleep_ms(delay);
    }
    res->attempts = sent;
    target_free(&t);
    return st;
}

void aws_form_add(smfw_buf *b, const char *key, const char *value) {
    if (b->len) smfw_buf_putc(b, '&');
    aws_uri_encode(b, key, strlen(key), 0);
    smfw_buf_putc(b, '=');
    aws_uri_encode(b, value, strlen(value), 0);
}
