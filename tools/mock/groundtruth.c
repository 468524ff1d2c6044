/*
 * groundtruth.c - one JSON line per inference request, written when the
 * request is over, so smfw's own measurements can be scored against what the
 * server really did. Times are CLOCK_MONOTONIC ns, the clock smfw uses.
 */
#include "mock.h"

#include <stdlib.h>
#include <string.h>

struct mock_groundtruth {
    FILE *f;
};

mock_groundtruth *mock_groundtruth_open(const char *path, char *err, size_t err_size) {
    FILE *f = fopen(path, "a");
    if (!f) {
        snprintf(err, err_size, "cannot open ground-truth file %s", path);
        return NULL;
    }
    mock_groundtruth *gt = calloc(1, sizeof *gt);
    if (!gt) abort();
    gt->f = f;
    return gt;
}

void mock_groundtruth_write(mock_groundtruth *gt, const mock_truth *t) {
    if (!gt) return;
    json_t *o = json_object();
    json_object_set_new(o, "inference_id", json_string(t->inference_id));
    json_object_set_new(o, "endpoint", t->endpoint[0] ? json_string(t->endpoint) : json_null());
    json_object_set_new(o, "recv_ns", json_integer(t->recv_ns));
    json_object_set_new(o, "arrival_ns", json_integer(t->arrival_ns ? t->arrival_ns : t->recv_ns));
    json_object_set_new(o, "first_token_ns",
                        t->first_token_ns ? json_integer(t->first_token_ns) : json_null());
    json_object_set_new(o, "last_byte_ns", json_integer(t->last_byte_ns));
    json_object_set_new(o, "tokens", json_integer(t->tokens));
    if (t->cached_tokens >= 0) {
        json_object_set_new(o, "prompt_tokens", json_integer(t->prompt_tokens));
        json_object_set_new(o, "cached_tokens", json_integer(t->cached_tokens));
    }
    json_object_set_new(o, "status", json_integer(t->status));
    json_object_set_new(o, "fault",
                        t->fault == MOCK_FAULT_NONE ? json_null()
                                                    : json_string(mock_fault_name(t->fault)));
    if (t->session_id[0]) {
        json_object_set_new(o, "session_id", json_string(t->session_id));
        json_object_set_new(o, "session_turn", json_integer(t->session_turn));
        if (t->session_close) json_object_set_new(o, "session_close", json_true());
        json_object_set_new(o, "messages", json_integer(t->session_messages));
        json_t *h = t->session_history ? json_loads(t->session_history, 0, NULL) : NULL;
        json_object_set_new(o, "assistant_sha256", h ? h : json_array());
        json_object_set_new(o, "answer_sha256",
                            t->answer_sha256[0] ? json_string(t->answer_sha256) : json_null());
    }
    char *line = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!line) return;
    /* Line-buffered on purpose: a reader may tail the file while the mock runs. */
    fputs(line, gt->f);
    fputc('\n', gt->f);
    fflush(gt->f);
    free(line);
}

void mock_groundtruth_close(mock_groundtruth *gt) {
    if (!gt) return;
    fclose(gt->f);
    free(gt);
}
