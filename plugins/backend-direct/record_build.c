/*
 * record_build.c - a finished request becomes an AIPerf record: metadata,
 * error classification (SageMaker's and HTTP's), token counts, and the
 * per-record metrics through the core's smfw_record_derive().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <smfw/dataset.h>

#include <smfw/json_view.h>

#include "engine.h"

/* An empty id counts as absent. */
static const char *nonempty(const char *s) {
    return (s && *s) ? s : NULL;
}

/* First string member among `keys` of a JSON object body. */
static int body_string(const smfw_json_view *root, const char *const *keys, char *out, size_t cap) {
    smfw_json_view v;
    for (size_t i = 0; keys[i]; i++)
        if (smfw_json_get(root, keys[i], &v) && v.type == SMFW_JSON_STRING) {
            smfw_json_string_decode(&v, out, cap);
            return 1;
        }
    return 0;
}

void direct_classify_http_error(direct_transport_kind kind, int status, const char *reason,
                                const char *amz_error_type, const char *body, size_t body_len,
                                smfw_error_class *cls, char *type, size_t type_size, char *message,
                                size_t message_size) {
    char code[160] = "", msg[1024] = "";
    if (amz_error_type && *amz_error_type) {
        snprintf(code, sizeof code, "%s", amz_error_type);
        char *c = strchr(code, ':');
        if (c) *c = '\0';
    }
    smfw_json_view root;
    int64_t original = -1;
    if (body && body_len && smfw_json_parse(body, body_len, &root, NULL) == 0 &&
        root.type == SMFW_JSON_OBJECT) {
        static const char *const code_keys[] = {"__type", "code", "Code", "ErrorCode", NULL};
        static const char *const msg_keys[] = {"message", "Message", "error", NULL};
        if (!code[0] && body_string(&root, code_keys, code, sizeof code)) {
            char *hash = strrchr(code, '#');
            if (hash) memmove(code, hash + 1, strlen(hash));
        }
        if (!body_string(&root, msg_keys, msg, sizeof msg)) {
            smfw_json_view e;
            if (smfw_json_get(&root, "error", &e) && e.type == SMFW_JSON_OBJECT) {
                static const char *const inner[] = {"message", NULL};
                body_string(&e, inner, msg, sizeof msg);
            }
        }
        smfw_json_view v;
        int64_t x;
        if (smfw_json_get(&root, "OriginalStatusCode", &v) &&
            smfw_json_int64(&v, &x) == SMFW_JSON_NUM_OK)
            original = x;
    }
    /* AIPerf's message is the body text; keep it whole (capped) when it is not JSON. */
    if (!msg[0] && body && body_len) {
        size_t n = body_len < sizeof msg - 1 ? body_len : sizeof msg - 1;
        memcpy(msg, body, n);
        msg[n] = '\0';
    }
    smfw_error_class c = SMFW_ERRCLASS_HTTP;
    int throttled = strstr(code, "Throttl") != NULL;
    static const char *const auth_codes[] = {"AccessDenied",
                                             "AccessDeniedException",
                                             "UnrecognizedClientException",
                                             "InvalidSignatureException",
                                             "IncompleteSignature",
                                             "MissingAuthenticationToken",
                                             "ExpiredTokenException",
                                             "ExpiredToken",
                                             "SignatureDoesNotMatch",
                                             "InvalidClientTokenId",
                                             NULL};
    int auth = 0;
    for (size_t i = 0; auth_codes[i]; i++)
        if (strcmp(code, auth_codes[i]) == 0) auth = 1;
    if (throttled || (status == 429 && strcmp(code, "ModelNotReadyException") != 0))
        c = SMFW_ERRCLASS_THROTTLED;
    else if (auth || status == 401 || status == 403)
        c = SMFW_ERRCLASS_AUTH;
    else if (status == 424 || strcmp(code, "ModelError") == 0)
        c = SMFW_ERRCLASS_MODEL_ERROR;
    else if (status == 408 || status == 504)
        c = SMFW_ERRCLASS_TIMEOUT;
    else if (status == 400 || status == 404 || status == 413 || status == 422 ||
             strncmp(code, "Validation", 10) == 0)
        c = SMFW_ERRCLASS_VALIDATION;
    else if (status >= 500 || status == 429)
        c = SMFW_ERRCLASS_UNAVAILABLE;
    *cls = c;
    if (kind == DIRECT_TRANSPORT_SAGEMAKER && code[0])
        snprintf(type, type_size, "%s", code);
    else
        snprintf(type, type_size, "%s",
                 reason && *reason ? reason : (code[0] ? code : "HTTPError"));
    if (c == SMFW_ERRCLASS_MODEL_ERROR && original >= 0)
        snprintf(message, message_size, "%s (container status %lld)", msg, (long long)original);
    else
        snprintf(message, message_size, "%s", msg);
}

static void classify_curl(CURLcode rc, const char *errbuf, double timeout_s,
                          const smfw_net_config *net, smfw_error_class *cls, const char **type,
                          char *message, size_t cap) {
    const char *detail = (errbuf && *errbuf) ? errbuf : curl_easy_strerror(rc);
    switch (rc) {
    case CURLE_PEER_FAILED_VERIFICATION: {
        /* Name the trust store, or the user cannot tell which one was asked. */
        const char *from = NULL, *ca = smfw_net_ca_bundle(net, &from);
        *cls = SMFW_ERRCLASS_CONNECT;
        *type = "ClientConnectorCertificateError";
        if (ca)
            snprintf(message, cap, "TLS certificate verification failed: %s (CA bundle %s from %s)",
                     detail, ca, from ? from : "?");
        else
            snprintf(message, cap,
                     "TLS certificate verification failed: %s (the system's CAs; behind a "
                     "TLS-inspecting proxy set --ca-bundle, AWS_CA_BUNDLE or the profile's "
                     "ca_bundle to its CA)",
                     detail);
        return;
    }
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
        *cls = SMFW_ERRCLASS_CONNECT;
        *type = "ClientConnectorError";
        snprintf(message, cap, "cannot connect: %s", detail);
        return;
    case CURLE_OPERATION_TIMEDOUT:
        *cls = SMFW_ERRCLASS_TIMEOUT;
        *type = "TimeoutError";
        snprintf(message, cap, "no complete response within %.0f s (%s)", timeout_s, detail);
        return;
    case CURLE_OUT_OF_MEMORY:
        /* libcurl (before 8.6: CURLE_TOO_LARGE) reports a response header over its limit
         * (100 KiB a header line, 300 KiB in all) as out of memory; a real allocation
         * failure of libcurl is the rare case. */
        *cls = SMFW_ERRCLASS_PROTOCOL;
        *type = "ResponseHeaderTooLarge";
        snprintf(message, cap,
                 "the response headers are larger than libcurl accepts (100 KiB a header "
                 "line): a protocol problem of the server or a proxy");
        return;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        *cls = SMFW_ERRCLASS_CONNECTION;
        *type = "ServerDisconnectedError";
        snprintf(message, cap, "connection lost mid-response: %s", detail);
        return;
    default:
        *cls = SMFW_ERRCLASS_OTHER;
        *type = "ClientError";
        snprintf(message, cap, "%s", detail);
        return;
    }
}

smfw_status direct_record_build(direct_engine *eng, direct_slot *s, CURLcode rc,
                                direct_completion *out) {
    const direct_options *o = eng->opt;
    memset(out, 0, sizeof *out);
    out->ttft_ms = -1;
    smfw_record *rec = out->rec = smfw_record_new();
    if (!rec) return SMFW_ERR_NOMEM;
    direct_acc *a = &s->acc;
#define WALL(mono) (s->start_wall_ns + ((mono)-s->start_ns))
    smfw_record_set_session(rec, s->index, s->payload->turn_index);
    smfw_record_set_text(rec, SMFW_RECORD_X_REQUEST_ID, nonempty(s->request_id));
    smfw_record_set_text(rec, SMFW_RECORD_X_CORRELATION_ID, nonempty(s->correlation_id));
    smfw_record_set_text(rec, SMFW_RECORD_CONVERSATION_ID, nonempty(s->payload->conversation_id));
    smfw_record_set_time(rec, SMFW_RECORD_CREDIT_ISSUED, WALL(s->intended_ns));
    smfw_record_set_time(rec, SMFW_RECORD_INTENDED_START, WALL(s->intended_ns));
    smfw_record_set_time(rec, SMFW_RECORD_REQUEST_START, s->start_wall_ns);
    if (s->ack_ns) smfw_record_set_time(rec, SMFW_RECORD_REQUEST_ACK, WALL(s->ack_ns));
    int64_t end = a->last_msg_ns ? a->last_msg_ns : s->end_ns;
    smfw_record_set_time(rec, SMFW_RECORD_REQUEST_END, WALL(end));
    smfw_record_set_text(rec, SMFW_RECORD_WORKER_ID, nonempty(s->w->worker_name));
    smfw_record_set_http_status(rec, s->status);

    /* Token counts: --tokenizer's (ISL counted once per prompt, before the run), else server
     * usage when sent, else content chunks (streamed) or an estimate. */
    int64_t isl = a->usage_prompt >= 0 && !eng->tok ? a->usage_prompt : s->payload->input_tokens;
    int64_t out_tokens = -1, reasoning = -1;
    int streamed_reader = s->reader != DIRECT_READ_BODY;
    if (o->endpoint_type == DIRECT_EP_EMBEDDINGS) {
        /* no output tokens */
    } else if (eng->tok) {
        /* Counted by the recorder (drain in backend_direct.c), off this load worker's thread. */
        out->tokenized = 1;
    } else if (a->usage_completion >= 0) {
        reasoning = a->usage_reasoning;
        out_tokens = a->usage_completion - (reasoning > 0 ? reasoning : 0);
        if (out_tokens < 0) out_tokens = 0;
        out->used_usage = 1;
    } else if (streamed_reader) {
        out_tokens = a->n_output_chunks;
        reasoning = a->n_reasoning_chunks > 0 ? a->n_reasoning_chunks : -1;
    } else {
        out_tokens = a->text.len ? smfw_estimate_tokens(a->text.data, a->text.len) : 0;
        reasoning =
            a->reasoning.len ? smfw_estimate_tokens(a->reasoning.data, a->reasoning.len) : -1;
        out->estimated = 1;
    }

    /* Errors, in the order AIPerf sees them. */
    if (s->cancelled) {
        int64_t now = smfw_now_mono_ns();
        char msg[96];
        snprintf(msg, sizeof msg, "Request was cancelled after %.3f seconds",
                 (double)(now - s->start_ns) / 1e9);
        smfw_record_set_error(rec, SMFW_ERRCLASS_CANCELLED, 1, 499, "RequestCancellationError",
                              msg);
        smfw_record_set_cancelled(rec, 1);
        smfw_record_set_time(rec, SMFW_RECORD_CANCELLATION, WALL(now));
        smfw_record_set_time(rec, SMFW_RECORD_REQUEST_END, WALL(now));
    } else if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && a->failed)) {
        smfw_error_class cls;
        const char *type;
        char msg[CURL_ERROR_SIZE + 4400]; /* room for a CA bundle's path and source */
        classify_curl(rc, s->errbuf, o->request_timeout_s, o->net, &cls, &type, msg, sizeof msg);
        long connect_code = 0; /* the proxy's answer to CONNECT: a refusal will not change */
        curl_easy_getinfo(s->easy, CURLINFO_HTTP_CONNECTCODE, &connect_code);
        if (connect_code >= 300) {
            cls = SMFW_ERRCLASS_CONNECT;
            type = "ClientHttpProxyError";
            snprintf(msg, sizeof msg,
                     "the proxy refused the tunnel to the endpoint with HTTP %ld%s (%s)",
                     connect_code,
                     connect_code == 407 ? ": check the user and password in the proxy URL" : "",
                     s->errbuf[0] ? s->errbuf : curl_easy_strerror(rc));
        }
        if (a->failed) { /* a stream error frame before the connection dropped wins */
            smfw_record_set_error(rec, a->err_class, a->err_has_code, a->err_code, a->err_type,
                                  a->err_message);
        } else {
            smfw_record_set_error(rec, cls, 0, 0, type, msg);
        }
    } else if (s->status != 200 && !(a->failed && s->status == 0)) {
        smfw_error_class cls;
        char type[160], msg[1200];
        direct_classify_http_error(eng->tr.kind, s->status, s->reason, s->amz_error_type,
                                   s->body.data, s->body.len, &cls, type, sizeof type, msg,
                                   sizeof msg);
        smfw_record_set_error(rec, cls, 1, s->status, type, msg);
    } else if (a->failed) {
        smfw_record_set_error(rec, a->err_class, a->err_has_code, a->err_code, a->err_type,
                              a->err_message);
    }

    smfw_response_timing t;
    memset(&t, 0, sizeof t);
    /* A session's opening turn on InvokeEndpoint has no stream: no TTFT, as AIPerf leaves it
     * out of non-streamed requests. */
    t.streaming = o->streaming && !s->buffered;
    t.start_mono_ns = s->start_ns;
    t.intended_mono_ns = s->intended_ns;
    t.content_ns = a->content_ns;
    t.n_content = smfw_record_get_error(rec) ? 0 : a->n_content;
    t.first_output_mono_ns = a->first_output_ns;
    t.input_tokens = isl;
    t.output_tokens = out_tokens;
    t.reasoning_tokens = reasoning;
    t.usage_prompt_tokens = a->usage_prompt;
    t.usage_completion_tokens = a->usage_completion;
    t.usage_total_tokens = a->usage_total;
    t.usage_reasoning_tokens = a->usage_reasoning;
    smfw_status st = smfw_record_derive(rec, &t);
    if (st != SMFW_OK) {
        smfw_record_free(rec);
        out->rec = NULL;
        return st;
    }
    out->is_error = smfw_record_get_error(rec) != NULL;
    /* Not a field of smfw_response_timing (its size is ABI): a metric appended in 2.0's ids,
     * set like any other. The usage metrics are a valid record's only. */
    if (!out->is_error && a->usage_cached >= 0)
        smfw_record_set(rec, SMFW_M_USAGE_PROMPT_CACHED_TOKENS, (double)a->usage_cached);
    /* The Date header has whole seconds and is stamped somewhere inside the request, so
     * any second from the send's to the end's is no skew: a request that straddles a second
     * boundary must not read -1 s. Outside that window, the distance to its nearer edge. */
    out->server_skew_s = INT64_MIN;
    if (s->server_date > 0) {
        int64_t first_s = s->start_wall_ns / 1000000000LL;
        int64_t last_s = (s->start_wall_ns + (s->end_ns - s->start_ns)) / 1000000000LL;
        out->server_skew_s = s->server_date > last_s    ? s->server_date - last_s
                             : s->server_date < first_s ? s->server_date - first_s
                                                        : 0;
    }
    if (!out->is_error && t.streaming && a->n_content)
        out->ttft_ms = (double)(a->content_ns[0] - s->start_ns) / 1e6;
    if (o->save_outputs || out->tokenized) {
        out->text = a->text.len ? strndup(a->text.data, a->text.len) : NULL;
        out->reasoning = a->reasoning.len ? strndup(a->reasoning.data, a->reasoning.len) : NULL;
    }
#undef WALL
    return SMFW_OK;
}
