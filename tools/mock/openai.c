/*
 * openai.c - OpenAI-compatible HTTP (/v1/chat/completions, /v1/completions,
 * /v1/models), as vLLM serves it, with the same latency model and faults, so
 * the direct backend's plain-HTTP mode is tested against the same ground truth.
 */
#include "generate.h"

#include <stdlib.h>
#include <string.h>

static void openai_error(mock_request *req, int status, const char *type, const char *message) {
    json_t *o =
        json_pack("{s:{s:s,s:s,s:i}}", "error", "message", message, "type", type, "code", status);
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    const char *h[] = {"Content-Type: application/json", NULL};
    mock_respond(req, status, h, t, strlen(t));
    free(t);
    mock_request_finish(req);
}

void mock_openai_handle(mock_server *srv, mock_request *req) {
    if (!strcmp(req->path, "/v1/models")) {
        if (strcmp(req->method, "GET") != 0) {
            openai_error(req, 405, "BadRequestError", "Method Not Allowed");
            return;
        }
        json_t *o = json_pack("{s:s,s:[{s:s,s:s,s:i,s:s,s:i}]}", "object", "list", "data", "id",
                              srv->opt.model, "object", "model", "created", (int)mock_now_unix(),
                              "owned_by", "smfw-mock", "max_model_len", 32768);
        char *t = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        const char *h[] = {"Content-Type: application/json", NULL};
        mock_respond(req, 200, h, t, strlen(t));
        free(t);
        mock_request_finish(req);
        return;
    }
    int chat = !strcmp(req->path, "/v1/chat/completions");
    if (!chat && strcmp(req->path, "/v1/completions") != 0) {
        openai_error(req, 404, "NotFoundError", "Not Found");
        return;
    }
    if (strcmp(req->method, "POST") != 0) {
        openai_error(req, 405, "BadRequestError", "Method Not Allowed");
        return;
    }
    mock_gen_params p;
    memset(&p, 0, sizeof p);
    char err[256];
    if (mock_llm_parse(req->body, req->body_len, srv->opt.model, &p.llm, err, sizeof err) != 0) {
        openai_error(req, 400, "BadRequestError", err);
        return;
    }
    if (chat != (p.llm.format == MOCK_LLM_CHAT) || p.llm.format == MOCK_LLM_TGI) {
        openai_error(req, 400, "BadRequestError",
                     chat ? "chat completions need \"messages\"" : "completions need \"prompt\"");
        return;
    }
    const char *xrid = mock_request_header(req, "X-Request-ID");
    char xrid_h[160];
    const char *headers[4];
    size_t n = 0;
    if (p.llm.stream) {
        headers[n++] = "Content-Type: text/event-stream; charset=utf-8";
        headers[n++] = "Cache-Control: no-cache";
    }
    if (xrid && strlen(xrid) < 128) {
        snprintf(xrid_h, sizeof xrid_h, "X-Request-ID: %s", xrid);
        headers[n++] = xrid_h;
    }
    headers[n] = NULL;
    p.streaming = p.llm.stream;
    p.eventstream = 0;
    p.openai = 1;
    p.endpoint = "";
    p.inference_id = xrid && strlen(xrid) < 80 ? xrid : "";
    /* A router's session affinity key (smfw --session-header): recorded, not acted on. */
    const char *sess =
        srv->opt.session_header[0] ? mock_request_header(req, srv->opt.session_header) : NULL;
    p.session_id = sess && strlen(sess) < 64 ? sess : NULL;
    p.session_turn = -1;
    p.headers = headers;
    mock_gen_start(srv, req, &p);
}
