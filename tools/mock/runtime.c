/*
 * runtime.c - SageMaker Runtime: InvokeEndpoint and
 * InvokeEndpointWithResponseStream (aws-wire.md §4), with the request headers
 * the real API honours and the validation errors it answers with.
 */
#include "generate.h"

#include <stdlib.h>
#include <string.h>

#define RUNTIME_MAX_BODY 6291456

/* A request answered before any model work still gets its ground-truth line and metric. */
static void runtime_record_rejection(mock_server *srv, mock_request *req, const char *endpoint,
                                     int status) {
    mock_truth t;
    memset(&t, 0, sizeof t);
    const char *id = mock_request_header(req, "X-Amzn-SageMaker-Inference-Id");
    snprintf(t.inference_id, sizeof t.inference_id, "%s", id ? id : "");
    snprintf(t.endpoint, sizeof t.endpoint, "%s", endpoint);
    t.recv_ns = req->recv_ns;
    t.arrival_ns = req->arrival_ns;
    t.last_byte_ns = req->last_sent_ns;
    t.status = status;
    mock_groundtruth_write(srv->gt, &t);
    if (mock_has_endpoint(&srv->opt, endpoint))
        mock_metrics_record(srv->metrics, endpoint, "AllTraffic", NULL, mock_now_unix(), status, 0,
                            0);
}

static void runtime_reject(mock_server *srv, mock_request *req, const char *endpoint,
                           const char *message) {
    mock_aws_error_send(req, MOCK_PROTO_RUNTIME, 400, "ValidationError", message, NULL);
    runtime_record_rejection(srv, req, endpoint, 400);
    mock_request_finish(req);
}
#define runtime_invalid(req, message) runtime_reject(srv, req, endpoint, message)

/* The close request: answered by the container with the id it ended. */
static void runtime_session_closed(mock_server *srv, mock_request *req, const char *endpoint,
                                   const char *session_id, long turn) {
    char closed_h[128], rid[37], rid_h[64];
    snprintf(closed_h, sizeof closed_h, "X-Amzn-SageMaker-Closed-Session-Id: %s", session_id);
    mock_new_request_id(rid);
    snprintf(rid_h, sizeof rid_h, "x-amzn-RequestId: %s", rid);
    const char *h[] = {"Content-Type: application/json", closed_h, rid_h, NULL};
    json_t *o = json_pack("{s:s}", "closed_session_id", session_id);
    char *body = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    mock_respond(req, 200, h, body, body ? strlen(body) : 0);
    free(body);
    mock_truth t;
    memset(&t, 0, sizeof t);
    const char *id = mock_request_header(req, "X-Amzn-SageMaker-Inference-Id");
    snprintf(t.inference_id, sizeof t.inference_id, "%s", id ? id : "");
    snprintf(t.endpoint, sizeof t.endpoint, "%s", endpoint);
    snprintf(t.session_id, sizeof t.session_id, "%s", session_id);
    t.session_turn = turn;
    t.session_close = 1;
    t.recv_ns = req->recv_ns;
    t.arrival_ns = req->arrival_ns;
    t.last_byte_ns = req->last_sent_ns;
    t.status = 200;
    mock_groundtruth_write(srv->gt, &t);
    mock_request_finish(req);
}

static int printable_len(const char *s, size_t min, size_t max) {
    size_t n = strlen(s);
    if (n < min || n > max) return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e) return 0;
    return 1;
}

void mock_runtime_handle(mock_server *srv, mock_request *req, const char *endpoint, int streaming) {
    const mock_options *opt = &srv->opt;
    char msg[512];
    if (!mock_has_endpoint(opt, endpoint)) {
        snprintf(msg, sizeof msg, "Endpoint %s of account %s not found.", endpoint,
                 opt->account_id);
        runtime_invalid(req, msg);
        return;
    }
    if (req->body_len > RUNTIME_MAX_BODY) {
        runtime_invalid(req, "Request body exceeds the 6 MB limit (6291456 bytes).");
        return;
    }
    const char *component = mock_request_header(req, "X-Amzn-SageMaker-Inference-Component");
    const char *variant = mock_request_header(req, "X-Amzn-SageMaker-Target-Variant");
    const char *target_model = mock_request_header(req, "X-Amzn-SageMaker-Target-Model");
    const char *custom = mock_request_header(req, "X-Amzn-SageMaker-Custom-Attributes");
    const char *inference_id = mock_request_header(req, "X-Amzn-SageMaker-Inference-Id");
    const char *session = mock_request_header(req, "X-Amzn-SageMaker-Session-Id");
    const char *explain = mock_request_header(req, "X-Amzn-SageMaker-Enable-Explanations");
    const char *hostname = mock_request_header(req, "X-Amzn-SageMaker-Target-Container-Hostname");
    int hosts_components = mock_endpoint_has_components(opt, endpoint);

    if (streaming && target_model) {
        runtime_invalid(req, "TargetModel is not supported for InvokeEndpointWithResponseStream.");
        return;
    }
    if (streaming && explain) {
        runtime_invalid(req, "EnableExplanations is not supported for "
                             "InvokeEndpointWithResponseStream.");
        return;
    }
    if (streaming && session && !strcmp(session, "NEW_SESSION")) {
        runtime_invalid(req, "NEW_SESSION is not supported for InvokeEndpointWithResponseStream; "
                             "open a session with InvokeEndpoint.");
        return;
    }
    if (target_model) {
        snprintf(msg, sizeof msg, "Endpoint %s is not a multi-model endpoint.", endpoint);
        runtime_invalid(req, msg);
        return;
    }
    if (hostname) {
        snprintf(msg, sizeof msg,
                 "Endpoint %s is not a multi-container endpoint with direct "
                 "invocation.",
                 endpoint);
        runtime_invalid(req, msg);
        return;
    }
    if (component && !hosts_components) {
        /* SageMaker's wording, as users report it (docs/mock.md). */
        runtime_invalid(req, "Inference Component Name header is not allowed for endpoints to "
                             "which you dont plan to deploy inference components. Please remove "
                             "the Inference Component Name header and try again.");
        return;
    }
    const char *component_home = component ? mock_component_endpoint(opt, component) : NULL;
    if (component && (!component_home || strcmp(component_home, endpoint) != 0)) {
        snprintf(msg, sizeof msg, "Inference Component %s not found.", component);
        runtime_invalid(req, msg);
        return;
    }
    if (!component && hosts_components) {
        snprintf(msg, sizeof msg,
                 "Inference Component Name header is required for endpoints to which you plan "
                 "to deploy inference components. Please include Inference Component Name "
                 "header or consider using SageMaker models.");
        runtime_invalid(req, msg);
        return;
    }
    if (variant && strcmp(variant, "AllTraffic") != 0) {
        snprintf(msg, sizeof msg, "Variant %s not found for endpoint %s.", variant, endpoint);
        runtime_invalid(req, msg);
        return;
    }
    if (custom && !printable_len(custom, 0, 1024)) {
        runtime_invalid(req, "CustomAttributes must be at most 1024 visible US-ASCII characters.");
        return;
    }
    if (inference_id && !printable_len(inference_id, 1, 64)) {
        runtime_invalid(req, "InferenceId must be 1 to 64 printable characters.");
        return;
    }

    /* Stateful sessions (docs/mock.md): NEW_SESSION opens one (InvokeEndpoint only, checked
     * above), a live id continues it, the container's close body ends it. */
    char session_id[40] = "", new_session_h[160] = "";
    long session_turn = -1;
    if (session) {
        double now = mock_now_unix();
        if (!srv->sessions && !(srv->sessions = mock_sessions_new())) abort();
        if (!strcmp(session, "NEW_SESSION")) {
            double expires;
            if (mock_session_open(srv->sessions, endpoint, now, opt->session_ttl_s, session_id,
                                  &expires) != 0)
                abort();
            char when[32];
            mock_iso8601(expires, when, 0);
            snprintf(new_session_h, sizeof new_session_h,
                     "X-Amzn-SageMaker-New-Session-Id: %s; Expires=%s", session_id, when);
            session_turn = 0;
        } else {
            int close = mock_session_is_close(req->body, req->body_len);
            session_turn = mock_session_continue(srv->sessions, endpoint, session, now, close);
            if (session_turn < 0) {
                /* The exact AWS answer is undocumented (docs/mock.md, assumptions). */
                snprintf(msg, sizeof msg,
                         "Session %.64s is not valid: it does not exist, has expired or was "
                         "closed.",
                         session);
                runtime_invalid(req, msg);
                return;
            }
            snprintf(session_id, sizeof session_id, "%.39s", session);
            if (close) {
                runtime_session_closed(srv, req, endpoint, session_id, session_turn);
                return;
            }
        }
    }

    mock_gen_params p;
    memset(&p, 0, sizeof p);
    char err[256];
    if (mock_llm_parse(req->body, req->body_len, opt->model, &p.llm, err, sizeof err) != 0) {
        /* The container rejects the body with 400; SageMaker reports a ModelError. */
        snprintf(msg, sizeof msg,
                 "Received client error (400) from primary with message \"%s\". See "
                 "https://%s.console.aws.amazon.com/cloudwatch/home?region=%s#logEventViewer:"
                 "group=/aws/sagemaker/Endpoints/%s in account %s for more information.",
                 err, opt->region, opt->region, endpoint, opt->account_id);
        json_t *o = json_pack("{s:s,s:s,s:s,s:i}", "__type", "ModelError", "Message", msg,
                              "OriginalMessage", err, "OriginalStatusCode", 400);
        char *t = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        const char *h[] = {"Content-Type: application/json", "x-amzn-ErrorType: ModelError", NULL};
        mock_respond(req, 424, h, t, strlen(t));
        free(t);
        runtime_record_rejection(srv, req, endpoint, 424);
        mock_request_finish(req);
        return;
    }

    char rid[37], rid_h[64], custom_h[1100], id_h[128];
    mock_new_request_id(rid);
    snprintf(rid_h, sizeof rid_h, "x-amzn-RequestId: %s", rid);
    const char *headers[9];
    size_t n = 0;
    if (streaming) {
        headers[n++] = "Content-Type: application/vnd.amazon.eventstream";
        headers[n++] = p.llm.format == MOCK_LLM_TGI || p.llm.stream
                           ? "X-Amzn-SageMaker-Content-Type: text/event-stream"
                           : "X-Amzn-SageMaker-Content-Type: text/event-stream";
    }
    headers[n++] = "x-Amzn-Invoked-Production-Variant: AllTraffic";
    headers[n++] = rid_h;
    if (custom) {
        /* The container sees the attributes verbatim; the mock's container echoes them. */
        snprintf(custom_h, sizeof custom_h, "X-Amzn-SageMaker-Custom-Attributes: %s", custom);
        headers[n++] = custom_h;
    }
    if (inference_id) {
        snprintf(id_h, sizeof id_h, "X-Amzn-SageMaker-Inference-Id: %s", inference_id);
        headers[n++] = id_h;
    }
    if (new_session_h[0]) headers[n++] = new_session_h;
    headers[n] = NULL;
    p.session_id = session_id[0] ? session_id : NULL;
    p.session_turn = session_turn;
    p.streaming = streaming;
    p.eventstream = streaming;
    p.openai = 0;
    p.endpoint = endpoint;
    p.variant = "AllTraffic";
    p.component = component;
    p.inference_id = inference_id ? inference_id : rid;
    p.headers = headers;
    mock_gen_start(srv, req, &p);
}
