/*
 * transport_http.c - OpenAI-compatible servers (vLLM, TGI, SGLang, llama.cpp):
 * URL, bearer key and headers (aiperf-compat.md §6.5).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <smfw/smfw.h>

#include "engine.h"

static const char *default_path(const direct_options *o) {
    switch (o->endpoint_type) {
    case DIRECT_EP_CHAT:
        return "/v1/chat/completions";
    case DIRECT_EP_COMPLETIONS:
        return "/v1/completions";
    case DIRECT_EP_EMBEDDINGS:
        return "/v1/embeddings";
    case DIRECT_EP_TGI:
        return o->streaming ? "/generate_stream" : "/generate";
    case DIRECT_EP_TEMPLATE:
        return "";
    }
    return "";
}

smfw_status direct_http_init(direct_transport *tr, const direct_options *o, smfw_error *err) {
    char base[2048];
    if (strstr(o->url, "://"))
        snprintf(base, sizeof base, "%s", o->url);
    else
        snprintf(base, sizeof base, "http://%s", o->url);
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/') base[--bl] = '\0';
    const char *scheme_end = strstr(base, "://") + 3;
    const char *path_in_url = strchr(scheme_end, '/');
    const char *path = o->path ? o->path : default_path(o);
    char url[4096];
    if (o->path || !path_in_url) {
        snprintf(url, sizeof url, "%s%s", base, path);
    } else if (bl >= 3 && strcmp(base + bl - 3, "/v1") == 0 && strncmp(path, "/v1", 3) == 0) {
        snprintf(url, sizeof url, "%s%s", base, path + 3); /* a base ending in /v1 is not doubled */
    } else {
        snprintf(url, sizeof url, "%s", base); /* the URL already names the route */
    }
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "--url must be http:// or https://");
    tr->url = strdup(url);
    if (o->api_key) {
        size_t n = strlen(o->api_key) + 32;
        tr->auth_header = malloc(n);
        if (tr->auth_header) snprintf(tr->auth_header, n, "Authorization: Bearer %s", o->api_key);
    }
    return tr->url ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

static struct curl_slist *append(struct curl_slist *l, const char *line, int *failed) {
    struct curl_slist *n = curl_slist_append(l, line);
    if (!n) {
        *failed = 1;
        return l;
    }
    return n;
}

static struct curl_slist *last_node(struct curl_slist *l) {
    while (l && l->next) l = l->next;
    return l;
}

smfw_status direct_http_headers(direct_transport *tr, const direct_options *o, direct_slot *s,
                                struct curl_slist **out, smfw_error *err) {
    char line[320];
    int failed = 0;
    struct curl_slist *l = NULL;
    l = append(l, "Content-Type: application/json", &failed);
    l = append(l, o->streaming ? "Accept: text/event-stream" : "Accept: application/json", &failed);
    l = append(l, "User-Agent: smfw/" SMFW_VERSION_STRING, &failed);
    snprintf(line, sizeof line, "X-Request-ID: %s", s->request_id);
    l = append(l, line, &failed);
    struct curl_slist *rid = failed ? NULL : last_node(l);
    snprintf(line, sizeof line, "X-Correlation-ID: %s", s->correlation_id);
    l = append(l, line, &failed);
    struct curl_slist *cid = failed ? NULL : last_node(l);
    if (s->user && strcasecmp(o->session_header, "X-Correlation-ID") != 0) {
        /* A router's session key: the session's id, the same on every turn. */
        snprintf(line, sizeof line, "%s: %s", o->session_header, s->correlation_id);
        l = append(l, line, &failed);
    }
    if (tr->auth_header) l = append(l, tr->auth_header, &failed);
    for (size_t i = 0; i < o->n_headers; i++) l = append(l, o->headers[i], &failed);
    l = append(l, "Expect:", &failed); /* never wait for 100-continue */
    if (failed) {
        curl_slist_free_all(l);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory building headers");
    }
    /* The list stays with the slot; the next request only rewrites the two ids. */
    s->hdr_request_id = rid->data + strlen("X-Request-ID: ");
    s->hdr_correlation_id = cid->data + strlen("X-Correlation-ID: ");
    *out = l;
    return SMFW_OK;
}

/* The ids are fixed-length UUIDs, so they are rewritten in place. */
static int http_headers_reuse(direct_slot *s) {
    if (!s->headers || !s->hdr_request_id || !s->hdr_correlation_id) return 0;
    if (strlen(s->hdr_request_id) != strlen(s->request_id) ||
        strlen(s->hdr_correlation_id) != strlen(s->correlation_id))
        return 0;
    memcpy(s->hdr_request_id, s->request_id, strlen(s->request_id));
    memcpy(s->hdr_correlation_id, s->correlation_id, strlen(s->correlation_id));
    return 1;
}

smfw_status direct_transport_init(direct_transport *tr, const direct_options *o, smfw_error *err) {
    memset(tr, 0, sizeof *tr);
    tr->kind = o->transport;
    smfw_status st = o->transport == DIRECT_TRANSPORT_HTTP ? direct_http_init(tr, o, err)
                                                           : direct_sagemaker_init(tr, o, err);
    if (st != SMFW_OK) return st;
    /* Userinfo and query values may be credentials: only the redacted form leaves. */
    char shown[4096];
    smfw_url_redact(shown, sizeof shown, tr->url);
    tr->shown_url = strdup(shown);
    return tr->shown_url ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

smfw_status direct_transport_headers(direct_transport *tr, const direct_options *o, direct_slot *s,
                                     struct curl_slist **out, smfw_error *err) {
    /* A custom session header is rebuilt per request; the ids alone are rewritten in place. */
    int custom = s->user && strcasecmp(o->session_header, "X-Correlation-ID") != 0;
    if (tr->kind == DIRECT_TRANSPORT_HTTP && !custom && http_headers_reuse(s)) {
        *out = s->headers;
        return SMFW_OK;
    }
    curl_slist_free_all(s->headers);
    s->headers = NULL;
    s->hdr_request_id = s->hdr_correlation_id = NULL;
    if (tr->kind == DIRECT_TRANSPORT_HTTP) return direct_http_headers(tr, o, s, out, err);
    return direct_sagemaker_headers(tr, o, s, out, err);
}

void direct_transport_free(direct_transport *tr) {
    free(tr->url);
    free(tr->shown_url);
    free(tr->host);
    free(tr->path);
    free(tr->invoke_url);
    free(tr->invoke_path);
    free(tr->auth_header);
    free(tr->region);
    free(tr->explicit_akid);
    free(tr->explicit_secret);
    if (tr->signer) smfw_sigv4_signer_free(tr->signer);
    if (tr->aws && !tr->aws_borrowed) smfw_aws_client_free(tr->aws);
    memset(tr, 0, sizeof *tr);
}
