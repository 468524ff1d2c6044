/* aws_http.c - libcurl transport for the AWS layer. */
#include "aws/aws_http.h"

#include <ctype.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include <smfw/aws.h>
#include <smfw/bundle_limits.h>
#include <smfw/log.h>
#include <smfw/net.h>

/* API answers are parsed whole (jansson takes ~20x the text): 8 MiB is far above any real one. */
#define MAX_BODY_IN_MEMORY (8u << 20)
#define TRACE_BODY_MAX     4096

struct aws_http {
    CURLSH *share;
    pthread_mutex_t locks[CURL_LOCK_DATA_LAST];
    const smfw_net_config *net;
    long connect_timeout_ms;
    long timeout_ms;
};

static pthread_once_t g_curl_once = PTHREAD_ONCE_INIT;

/* Set by a command that handles Ctrl-C itself: downloads stop when it becomes non-zero. */
static const volatile sig_atomic_t *g_download_cancel;

void smfw_aws_set_download_cancel(const volatile sig_atomic_t *cancel) {
    g_download_cancel = cancel;
}

/* libcurl calls this at least once a second during a transfer: non-zero aborts it. */
static int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow) {
    (void)user;
    (void)dltotal;
    (void)dlnow;
    (void)ultotal;
    (void)ulnow;
    return g_download_cancel && *g_download_cancel;
}
static void curl_init_once(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

static void share_lock(CURL *h, curl_lock_data data, curl_lock_access access, void *user) {
    (void)h;
    (void)access;
    aws_http *http = user;
    pthread_mutex_lock(&http->locks[data]);
}

static void share_unlock(CURL *h, curl_lock_data data, void *user) {
    (void)h;
    aws_http *http = user;
    pthread_mutex_unlock(&http->locks[data]);
}

smfw_status aws_http_new(const smfw_net_config *net, long connect_timeout_ms, long timeout_ms,
                         aws_http **out, smfw_error *err) {
    pthread_once(&g_curl_once, curl_init_once);
    *out = NULL;
    aws_http *h = calloc(1, sizeof(*h));
    if (!h) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory creating the HTTP client");
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_init(&h->locks[i], NULL);
    h->share = curl_share_init();
    if (!h->share) {
        aws_http_free(h);
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "curl_share_init failed");
    }
    curl_share_setopt(h->share, CURLSHOPT_LOCKFUNC, share_lock);
    curl_share_setopt(h->share, CURLSHOPT_UNLOCKFUNC, share_unlock);
    curl_share_setopt(h->share, CURLSHOPT_USERDATA, h);
    curl_share_setopt(h->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
    curl_share_setopt(h->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(h->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    h->net = net; /* the CA bundle was checked when it was resolved */
    h->connect_timeout_ms = connect_timeout_ms > 0 ? connect_timeout_ms : 10000;
    h->timeout_ms = timeout_ms > 0 ? timeout_ms : 120000;
    *out = h;
    return SMFW_OK;
}

void aws_http_free(aws_http *h) {
    if (!h) return;
    if (h->share) curl_share_cleanup(h->share);
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_destroy(&h->locks[i]);
    free(h);
}

void aws_http_response_init(aws_http_response *r) {
    memset(r, 0, sizeof(*r));
    smfw_buf_init(&r->body);
    smfw_buf_init(&r->headers);
}

void aws_http_response_free(aws_http_response *r) {
    smfw_buf_free(&r->body);
    smfw_buf_free(&r->headers);
}

typedef struct xfer {
    CURL *curl;
    const aws_http_request *req;
    aws_http_response *resp;
    int write_failed;
    int64_t downloaded, max_download; /* bytes; 0 = no cap */
    int64_t uploaded;                 /* bytes of upload_size read so far */
    int over_cap;
} xfer;

static size_t on_header(char *data, size_t size, size_t n, void *user) {
    xfer *x = user;
    size_t len = size * n;
    if (len >= 5 && strncmp(data, "HTTP/", 5) == 0) smfw_buf_reset(&x->resp->headers);
    smfw_buf_append(&x->resp->headers, data, len);
    return len;
}

static size_t on_body(char *data, size_t size, size_t n, void *user) {
    xfer *x = user;
    size_t len = size * n;
    long status = 0;
    curl_easy_getinfo(x->curl, CURLINFO_RESPONSE_CODE, &status);
    if (x->req->download && status >= 200 && status < 300) {
        /* Counted as read: Content-Length may be absent or lie. */
        x->downloaded += (int64_t)len;
        if (x->max_download && x->downloaded > x->max_download) {
            x->over_cap = 1;
            return 0;
        }
        if (fwrite(data, 1, len, x->req->download) != len) {
            x->write_failed = 1;
            return 0;
        }
        return len;
    }
    if (x->resp->body.len + len > MAX_BODY_IN_MEMORY) return 0;
    smfw_buf_append(&x->resp->body, data, len);
    return x->resp->body.failed ? 0 : len;
}

static size_t on_read(char *buf, size_t size, size_t n, void *user) {
    xfer *x = user;
    /* Never past upload_size: a body may be one range of a larger file (an S3 part). */
    size_t want = size * n;
    int64_t left = x->req->upload_size - x->uploaded;
    if (left <= 0) return 0;
    if ((int64_t)want > left) want = (size_t)left;
    size_t r = fread(buf, 1, want, x->req->upload);
    if (r == 0 && ferror(x->req->upload)) return CURL_READFUNC_ABORT;
    x->uploaded += (int64_t)r;
    return r;
}

static int starts_ci(const char *s, const char *end, const char *m) {
    size_t n = strlen(m);
    return (size_t)(end - s) >= n && strncasecmp(s, m, n) == 0;
}

void aws_http_redact(smfw_buf *out, const char *s, size_t len) {
    /* Headers whose value is a credential whatever sent them. */
    static const char *const header_markers[] = {"authorization:",
                                                 "proxy-authorization:",
                                                 "x-amz-security-token:",
                                                 "x-aws-ec2-metadata-token:",
                                                 "x-api-key:",
                                                 "api-key:",
                                                 "cookie:",
                                                 "set-cookie:",
                                                 NULL};
    static const char *const xml_markers[] = {"<SecretAccessKey>", "<SessionToken>", "<Token>",
                                              NULL};
    static const char *const json_markers[] = {"\"SecretAccessKey\"", "\"Token\"",
                                               "\"SessionToken\"", "\"WebIdentityToken\"", NULL};
    static const char *const form_markers[] = {"WebIdentityToken=", "SecretAccessKey=", NULL};
    const char *end = s + len;
    int line_start = 1;
    while (s < end) {
        int done = 0;
        if (line_start) {
            for (int i = 0; header_markers[i] && !done; i++) {
                if (starts_ci(s, end, header_markers[i])) {
                    smfw_buf_append(out, s, strlen(header_markers[i]));
                    smfw_buf_puts(out, " ****");
                    while (s < end && *s != '\n' && *s != '\r') s++;
                    done = 1;
                }
            }
        }
        for (int i = 0; xml_markers[i] && !done; i++) {
            if (starts_ci(s, end, xml_markers[i])) {
                smfw_buf_append(out, s, strlen(xml_markers[i]));
                s += strlen(xml_markers[i]);
                smfw_buf_puts(out, "****");
                while (s < end && *s != '<') s++;
                done = 1;
            }
        }
        for (int i = 0; json_markers[i] && !done; i++) {
            if (starts_ci(s, end, json_markers[i])) {
                const char *p = s + strlen(json_markers[i]);
                while (p < end && (*p == ' ' || *p == ':' || *p == '\t')) p++;
                smfw_buf_append(out, s, (size_t)(p - s));
                s = p;
                if (s < end && *s == '"') {
                    s++;
                    while (s < end && *s != '"') s += (*s == '\\' && s + 1 < end) ? 2 : 1;
                    if (s < end) s++;
                    smfw_buf_puts(out, "\"****\"");
                }
                done = 1;
            }
        }
        for (int i = 0; form_markers[i] && !done; i++) {
            if (starts_ci(s, end, form_markers[i])) {
                smfw_buf_append(out, s, strlen(form_markers[i]));
                s += strlen(form_markers[i]);
                smfw_buf_puts(out, "****");
                while (s < end && *s != '&') s++;
                done = 1;
            }
        }
        if (done) {
            line_start = 0;
            continue;
        }
        line_start = *s == '\n';
        smfw_buf_putc(out, isprint((unsigned char)*s) || *s == '\n' || *s == '\t' ? *s : '.');
        s++;
    }
}

static void trace_block(const char *prefix, const char *text, size_t len) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_puts(&b, prefix);
    size_t shown = len > TRACE_BODY_MAX ? TRACE_BODY_MAX : len;
    aws_http_redact(&b, text, shown);
    if (shown < len) smfw_buf_printf(&b, "... (%zu more bytes)", len - shown);
    if (!b.failed) smfw_log(SMFW_LOG_TRACE, "aws", "%s", b.data);
    smfw_buf_free(&b);
}

static int body_is_text(const char *p, size_t n) {
    for (size_t i = 0; i < n && i < 512; i++)
        if (p[i] == '\0') return 0;
    return 1;
}

static void trace_request(const aws_http_request *req) {
    smfw_buf b;
    smfw_buf_init(&b);
    char shown[4096]; /* a presigned URL carries its signature in the query */
    smfw_buf_printf(&b, "%s %s\n", req->method, smfw_url_redact(shown, sizeof shown, req->url));
    for (size_t i = 0; i < req->header_count; i++)
        smfw_buf_printf(&b, "%s: %s\n", req->headers[i].name, req->headers[i].value);
    if (!b.failed) trace_block("> ", b.data, b.len);
    smfw_buf_free(&b);
    if (req->body && req->body_len) {
        if (body_is_text(req->body, req->body_len))
            trace_block("> body: ", req->body, req->body_len);
        else
            smfw_log(SMFW_LOG_TRACE, "aws", "> body: %zu binary bytes", req->body_len);
    } else if (req->upload) {
        smfw_log(SMFW_LOG_TRACE, "aws", "> body: %lld bytes streamed from a file",
                 (long long)req->upload_size);
    }
}

static void trace_response(const aws_http_response *resp) {
    if (resp->headers.len) trace_block("< ", resp->headers.data, resp->headers.len);
    if (resp->body.len && body_is_text(resp->body.data, resp->body.len))
        trace_block("< body: ", resp->body.data, resp->body.len);
}

smfw_status aws_http_perform(aws_http *http, const aws_http_request *req, aws_http_response *resp,
                             smfw_error *err) {
    CURL *c = curl_easy_init();
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "curl_easy_init failed");
    struct curl_slist *hl = NULL;
    int has_expect = 0, has_ua = 0;
    for (size_t i = 0; i < req->header_count; i++) {
        smfw_buf line;
        smfw_buf_init(&line);
        smfw_buf_printf(&line, "%s: %s", req->headers[i].name, req->headers[i].value);
        if (req->headers[i].value && !*req->headers[i].value) {
            /* libcurl needs "Name;" to send an empty header. */
            smfw_buf_reset(&line);
            smfw_buf_printf(&line, "%s;", req->headers[i].name);
        }
        struct curl_slist *n = line.failed ? NULL : curl_slist_append(hl, line.data);
        smfw_buf_free(&line);
        if (!n) {
            curl_slist_free_all(hl);
            curl_easy_cleanup(c);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory building a request");
        }
        hl = n;
        if (strcasecmp(req->headers[i].name, "Expect") == 0) has_expect = 1;
        if (strcasecmp(req->headers[i].name, "User-Agent") == 0) has_ua = 1;
    }
    if (!has_expect) hl = curl_slist_append(hl, "Expect:"); /* no 100-continue round trip */
    if (!has_ua) hl = curl_slist_append(hl, "User-Agent: smfw/" SMFW_VERSION_STRING);

    xfer x = {c, req, resp, 0, 0, 0, 0, 0};
    char errbuf[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, req->url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(c, CURLOPT_SHARE, http->share);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &x);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &x);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L); /* the signed path is the sent path */
    smfw_net_apply(http->net, c, req->url);
    if (req->no_proxy) curl_easy_setopt(c, CURLOPT_PROXY, "");
    long cto = req->connect_timeout_ms ? req->connect_timeout_ms : http->connect_timeout_ms;
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, cto);
    const smfw_bundle_limits *lim = smfw_bundle_limits_get();
    if (req->download) {
        /* Untrusted objects: a size cap (Content-Length and as read), a low-speed limit
         * and an overall deadline ([bundle] settings). */
        x.max_download = lim->max_download_bytes;
        curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)lim->max_download_bytes);
        curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, (long)lim->low_speed_bytes);
        curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)lim->low_speed_seconds);
        curl_easy_setopt(c, CURLOPT_TIMEOUT_MS,
                         (long)(req->timeout_ms ? req->timeout_ms : lim->download_timeout_ms));
        if (g_download_cancel) {
            curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
            curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
        }
    } else if (req->upload) {
        /* Large transfers: no total limit, but fail when stalled for a minute. */
        curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
        if (req->timeout_ms) curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, req->timeout_ms);
    } else {
        curl_easy_setopt(c, CURLOPT_TIMEOUT_MS,
                         req->timeout_ms ? req->timeout_ms : http->timeout_ms);
    }
    if (strcmp(req->method, "HEAD") == 0) {
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    } else if (req->upload) {
        curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(c, CURLOPT_READFUNCTION, on_read);
        curl_easy_setopt(c, CURLOPT_READDATA, &x);
        curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)req->upload_size);
        if (strcmp(req->method, "PUT") != 0)
            curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req->method);
    } else if (req->body || strcmp(req->method, "POST") == 0 || strcmp(req->method, "PUT") == 0) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, req->body ? (const char *)req->body : "");
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
        if (strcmp(req->method, "POST") != 0)
            curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req->method);
    } else if (strcmp(req->method, "GET") != 0) {
        curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req->method);
    }
    if (smfw_log_enabled(SMFW_LOG_TRACE)) trace_request(req);

    CURLcode rc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp->status);
    resp->curl_code = (int)rc;
    snprintf(resp->curl_error, sizeof(resp->curl_error), "%s",
             errbuf[0] ? errbuf : curl_easy_strerror(rc));
    if (smfw_log_enabled(SMFW_LOG_TRACE)) trace_response(resp);
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
    smfw_buf_reserve(&resp->body, 0);
    smfw_buf_reserve(&resp->headers, 0);
    if (x.write_failed)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot write the downloaded body to disk");
    if (req->download && rc == CURLE_ABORTED_BY_CALLBACK)
        return smfw_error_set(err, SMFW_ERR_CANCELLED,
                              "%s %s: interrupted; the partial download was deleted", req->method,
                              req->url);
    /* Limits of a download are final: PROTOCOL, so the call is not retried. */
    if (req->download && (x.over_cap || rc == CURLE_FILESIZE_EXCEEDED))
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "%s %s: the object is larger than the limit of %lld bytes "
                              "(bundle.max_download_bytes); the partial download was deleted",
                              req->method, req->url, (long long)lim->max_download_bytes);
    if (req->download && rc == CURLE_OPERATION_TIMEDOUT && resp->status >= 200 &&
        resp->status < 300)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "%s %s: abandoned after %s (%s); the partial download was deleted",
                              req->method, req->url, resp->curl_error,
                              "limits bundle.download_timeout, bundle.low_speed_bytes and "
                              "bundle.low_speed_time");
    if (rc == CURLE_OK) return SMFW_OK;
    if (resp->status > 0 && rc == CURLE_WRITE_ERROR)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "response body from %s is larger than the limit of %u bytes for "
                              "an API answer",
                              req->url, (unsigned)MAX_BODY_IN_MEMORY);
    smfw_status st = rc == CURLE_OPERATION_TIMEDOUT ? SMFW_ERR_TIMEOUT : SMFW_ERR_NETWORK;
    resp->status = 0;
    if (rc == CURLE_PEER_FAILED_VERIFICATION) {
        /* Name the trust store that was asked. */
        const char *from = NULL, *ca = smfw_net_ca_bundle(http->net, &from);
        return smfw_error_set(err, st,
                              "%s %s failed: TLS certificate verification failed: %s (%s%s%s%s)",
                              req->method, req->url, resp->curl_error, ca ? "CA bundle " : "",
                              ca ? ca
                                 : "the system's CAs; set AWS_CA_BUNDLE, --ca-bundle or "
                                   "the profile's ca_bundle to the CA that signed it",
                              ca ? " from " : "", ca ? from : "");
    }
    return smfw_error_set(err, st, "%s %s failed: %s", req->method, req->url, resp->curl_error);
}

const char *aws_http_header(const aws_http_response *resp, const char *name, char *buf,
                            size_t size) {
    if (!resp->headers.data || size == 0) return NULL;
    size_t nl = strlen(name);
    const char *p = resp->headers.data;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        if (l > nl && strncasecmp(p, name, nl) == 0 && p[nl] == ':') {
            const char *v = p + nl + 1;
            const char *e = p + l;
            while (v < e && (*v == ' ' || *v == '\t')) v++;
            while (e > v && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) e--;
            size_t vl = (size_t)(e - v);
            if (vl >= size) vl = size - 1;
            memcpy(buf, v, vl);
            buf[vl] = '\0';
            return buf;
        }
        if (!eol) break;
        p = eol + 1;
    }
    return NULL;
}

int aws_http_url_authority(const char *url, char *buf, size_t size) {
    const char *p = NULL;
    int https = 0;
    if (strncasecmp(url, "https://", 8) == 0) {
        p = url + 8;
        https = 1;
    } else if (strncasecmp(url, "http://", 7) == 0) {
        p = url + 7;
    } else {
        return -1;
    }
    size_t l = strcspn(p, "/?#");
    if (l == 0 || l >= size) return -1;
    memcpy(buf, p, l);
    buf[l] = '\0';
    /* Drop a default port: the Host header and signature must match what curl sends. */
    size_t bl = strlen(buf);
    if (https && bl > 4 && strcmp(buf + bl - 4, ":443") == 0) buf[bl - 4] = '\0';
    if (!https && bl > 3 && strcmp(buf + bl - 3, ":80") == 0) buf[bl - 3] = '\0';
    if (strchr(buf, '@')) return -1; /* no userinfo in AWS endpoints */
    return 0;
}
