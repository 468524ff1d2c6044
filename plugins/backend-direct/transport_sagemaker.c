/*
 * transport_sagemaker.c - SageMaker Runtime: InvokeEndpoint and
 * InvokeEndpointWithResponseStream, signed with SigV4 for every request
 * (aws-wire.md §4, aiperf-compat.md §7).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <smfw/log.h>
#include <smfw/smfw.h>

#include "engine.h"

static int unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '~';
}

static void url_encode(const char *in, char *out, size_t cap) {
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && o + 4 < cap; p++) {
        if (unreserved(*p)) {
            out[o++] = (char)*p;
        } else {
            snprintf(out + o, cap - o, "%%%02X", *p);
            o += 3;
        }
    }
    out[o] = '\0';
}

smfw_status direct_sagemaker_init(direct_transport *tr, const direct_options *o, smfw_error *err) {
    smfw_status st;
    /* The AWS client resolves region, credentials and endpoint overrides like the AWS CLI. */
    if (o->aws) {
        tr->aws = o->aws; /* checked by direct_preflight(); the options own it */
        tr->aws_borrowed = 1;
    } else if (!o->mock) {
        smfw_aws_options aopt;
        memset(&aopt, 0, sizeof aopt);
        aopt.region = o->region;
        aopt.profile = o->profile;
        aopt.endpoint_url = o->endpoint_url;
        aopt.ca_bundle = o->ca_bundle;
        aopt.config = o->config;
        aopt.net = o->net;
        st = smfw_aws_client_new(&aopt, &tr->aws, err);
        if (st != SMFW_OK) return st;
    }
    const char *region = o->region;
    if (!region && tr->aws) {
        st = smfw_aws_client_region(tr->aws, &region, err);
        if (st != SMFW_OK) return st;
    }
    if (!region) region = "us-east-1";
    tr->region = strdup(region);
    char base[2048];
    if (o->endpoint_url) {
        snprintf(base, sizeof base, "%s", o->endpoint_url);
    } else if (tr->aws) {
        int overridden = 0;
        st = smfw_aws_client_endpoint(tr->aws, "runtime.sagemaker", base, sizeof base, &overridden,
                                      err);
        if (st != SMFW_OK) return st;
    } else {
        snprintf(base, sizeof base, "https://runtime.sagemaker.%s.amazonaws.com", region);
    }
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/') base[--bl] = '\0';
    const char *hs = strstr(base, "://");
    if (!hs) return smfw_error_set(err, SMFW_ERR_CONFIG, "endpoint URL %s has no scheme", base);
    hs += 3;
    const char *slash = strchr(hs, '/');
    size_t host_len = slash ? (size_t)(slash - hs) : strlen(hs);
    char host[512];
    if (host_len >= sizeof host) return smfw_error_set(err, SMFW_ERR_CONFIG, "host name too long");
    memcpy(host, hs, host_len);
    host[host_len] = '\0';
    /* curl omits a default port from Host; sign exactly what it sends. */
    size_t hl = strlen(host);
    if (strncmp(base, "https://", 8) == 0 && hl > 4 && strcmp(host + hl - 4, ":443") == 0)
        host[hl - 4] = '\0';
    if (strncmp(base, "http://", 7) == 0 && hl > 3 && strcmp(host + hl - 3, ":80") == 0)
        host[hl - 3] = '\0';
    char name_enc[512], path[1200];
    url_encode(o->endpoint, name_enc, sizeof name_enc);
    snprintf(path, sizeof path, "%s/endpoints/%s/%s", slash ? slash : "", name_enc,
             o->streaming ? "invocations-response-stream" : "invocations");
    char url[4096];
    snprintf(url, sizeof url, "%.*s%s", (int)(hs - base + host_len), base, path);
    tr->url = strdup(url);
    tr->host = strdup(host);
    tr->path = strdup(path);
    /* Stateful sessions open on InvokeEndpoint even in a streaming run. */
    snprintf(path, sizeof path, "%s/endpoints/%s/invocations", slash ? slash : "", name_enc);
    snprintf(url, sizeof url, "%.*s%s", (int)(hs - base + host_len), base, path);
    tr->invoke_url = strdup(url);
    tr->invoke_path = strdup(path);
    st = smfw_sigv4_signer_new(tr->region, "sagemaker", 0, &tr->signer, err);
    if (st != SMFW_OK) return st;
    if (!tr->url || !tr->host || !tr->path || !tr->invoke_url || !tr->invoke_path)
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    return SMFW_OK;
}

smfw_status direct_sagemaker_set_explicit_credentials(direct_transport *tr, const char *akid,
                                                      const char *secret, smfw_error *err) {
    free(tr->explicit_akid);
    free(tr->explicit_secret);
    tr->explicit_akid = strdup(akid);
    tr->explicit_secret = strdup(secret);
    if (!tr->explicit_akid || !tr->explicit_secret)
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_secret_register(secret);
    memset(&tr->explicit_creds, 0, sizeof tr->explicit_creds);
    tr->explicit_creds.access_key_id = tr->explicit_akid;
    tr->explicit_creds.secret_access_key = tr->explicit_secret;
    tr->explicit_creds.provider = "smfw-mock";
    return SMFW_OK;
}

#define SM_MAX_HEADERS 12

smfw_status direct_sagemaker_headers(direct_transport *tr, const direct_options *o, direct_slot *s,
                                     struct curl_slist **out, smfw_error *err) {
    smfw_sigv4_header h[SM_MAX_HEADERS];
    size_t n = 0;
    int streaming = o->streaming && !s->buffered;
    h[n++] = (smfw_sigv4_header){"Host", tr->host};
    h[n++] = (smfw_sigv4_header){"Content-Type", "application/json"};
    if (streaming)
        h[n++] = (smfw_sigv4_header){"X-Amzn-SageMaker-Accept", "application/json"};
    else
        h[n++] = (smfw_sigv4_header){"Accept", "application/json"};
    if (o->inference_component)
        h[n++] =
            (smfw_sigv4_header){"X-Amzn-SageMaker-Inference-Component", o->inference_component};
    if (o->target_variant)
        h[n++] = (smfw_sigv4_header){"X-Amzn-SageMaker-Target-Variant", o->target_variant};
    if (o->target_model && !o->streaming)
        h[n++] = (smfw_sigv4_header){"X-Amzn-SageMaker-Target-Model", o->target_model};
    if (o->target_container_hostname)
        h[n++] = (smfw_sigv4_header){"X-Amzn-SageMaker-Target-Container-Hostname",
                                     o->target_container_hostname};
    h[n++] = (smfw_sigv4_header){"X-Amzn-SageMaker-Inference-Id", s->request_id};
    if (s->user && o->sagemaker_sessions)
        h[n++] = (smfw_sigv4_header){"X-Amzn-SageMaker-Session-Id",
                                     s->user->session_id[0] ? s->user->session_id : "NEW_SESSION"};

    smfw_sigv4_request req;
    memset(&req, 0, sizeof req);
    req.method = "POST";
    req.path = s->buffered ? tr->invoke_path : tr->path;
    req.headers = h;
    req.header_count = n;
    req.body = s->payload->body;
    req.body_len = s->payload->len;
    req.payload_hash = s->payload->sha256;

    const smfw_aws_credentials *creds = NULL;
    if (tr->explicit_akid) {
        creds = &tr->explicit_creds;
    } else {
        smfw_status st = smfw_aws_client_credentials(tr->aws, &creds, err);
        if (st != SMFW_OK) return st;
    }
    smfw_sigv4_signature sig;
    memset(&sig, 0, sizeof sig);
    int64_t now = (int64_t)time(NULL) + atomic_load(&tr->clock_offset_s);
    smfw_status st = smfw_sigv4_sign(tr->signer, creds, &req, 0, now, &sig, err);
    if (!tr->explicit_akid) smfw_aws_credentials_release(creds);
    if (st != SMFW_OK) return st;

    struct curl_slist *l = NULL, *t;
    char line[2200];
    int failed = 0;
    for (size_t i = 0; i < n && !failed; i++) {
        snprintf(line, sizeof line, "%s: %s", h[i].name, h[i].value);
        t = curl_slist_append(l, line);
        if (t)
            l = t;
        else
            failed = 1;
    }
    for (size_t i = 0; i < sig.added_count && !failed; i++) {
        t = curl_slist_append(l, sig.lines[i]);
        if (t)
            l = t;
        else
            failed = 1;
    }
    const char *extra[] = {"User-Agent: smfw/" SMFW_VERSION_STRING, "Expect:"};
    for (size_t i = 0; i < 2 && !failed; i++) {
        t = curl_slist_append(l, extra[i]);
        if (t)
            l = t;
        else
            failed = 1;
    }
    smfw_sigv4_signature_free(&sig);
    if (failed) {
        curl_slist_free_all(l);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory building headers");
    }
    *out = l;
    return SMFW_OK;
}
