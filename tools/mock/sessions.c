/*
 * sessions.c - SageMaker stateful sessions served by the mock's endpoints
 * (docs/mock.md "Stateful sessions"): opened by InvokeEndpoint with
 * X-Amzn-SageMaker-Session-Id: NEW_SESSION, continued with the issued id
 * until it expires or a close request ends it.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <smfw/sigv4.h>

#include "mock.h"

typedef struct mock_session {
    char id[40];
    char endpoint[80];
    double expires_unix;
    long turns; /* requests served in the session so far */
    int closed;
} mock_session;

struct mock_sessions {
    mock_session *v;
    size_t n, cap;
};

mock_sessions *mock_sessions_new(void) {
    return calloc(1, sizeof(mock_sessions));
}

void mock_sessions_free(mock_sessions *s) {
    if (!s) return;
    free(s->v);
    free(s);
}

int mock_session_open(mock_sessions *s, const char *endpoint, double now, double ttl_s, char id[40],
                      double *expires_unix) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        mock_session *v = realloc(s->v, cap * sizeof *v);
        if (!v) return -1;
        s->v = v;
        s->cap = cap;
    }
    mock_session *m = &s->v[s->n++];
    memset(m, 0, sizeof *m);
    mock_new_request_id(m->id);
    snprintf(m->endpoint, sizeof m->endpoint, "%s", endpoint);
    m->expires_unix = now + ttl_s;
    m->turns = 1;
    memcpy(id, m->id, sizeof m->id);
    *expires_unix = m->expires_unix;
    return 0;
}

long mock_session_continue(mock_sessions *s, const char *endpoint, const char *id, double now,
                           int close) {
    for (size_t i = 0; i < s->n; i++) {
        mock_session *m = &s->v[i];
        if (strcmp(m->id, id) != 0 || strcmp(m->endpoint, endpoint) != 0) continue;
        if (m->closed || now >= m->expires_unix) return -1;
        if (close) m->closed = 1;
        return m->turns++;
    }
    return -1;
}

int mock_session_is_close(const uint8_t *body, size_t len) {
    json_t *o = json_loadb((const char *)body, len, 0, NULL);
    if (!o) return 0;
    const char *t = json_string_value(json_object_get(o, "requestType"));
    int close = t && strcmp(t, "CLOSE") == 0;
    json_decref(o);
    return close;
}

char *mock_session_history(const uint8_t *body, size_t len, int *messages) {
    *messages = 0;
    json_t *o = json_loadb((const char *)body, len, 0, NULL);
    if (!o) return NULL;
    json_t *msgs = json_object_get(o, "messages");
    json_t *hist = json_array();
    size_t i;
    json_t *m;
    json_array_foreach(msgs, i, m) {
        (*messages)++;
        const char *role = json_string_value(json_object_get(m, "role"));
        const char *content = json_string_value(json_object_get(m, "content"));
        if (!role || strcmp(role, "assistant") != 0) continue;
        char hex[65];
        smfw_sha256_hex(content ? content : "", content ? strlen(content) : 0, hex);
        json_array_append_new(hist, json_string(hex));
    }
    char *text = json_dumps(hist, JSON_COMPACT);
    json_decref(hist);
    json_decref(o);
    return text;
}
