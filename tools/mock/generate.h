/*
 * generate.h - one model answer in flight: latency schedule, token timer,
 * streaming (SSE or SageMaker event-stream PayloadParts), faults, ground
 * truth and CloudWatch metrics. Shared by the Runtime and OpenAI routes.
 */
#ifndef SMFW_MOCK_GENERATE_H
#define SMFW_MOCK_GENERATE_H

#include "llm.h"

typedef struct mock_gen_params {
    int streaming;         /* streamed answer (response-stream route, or "stream": true on /v1) */
    int eventstream;       /* frame the stream as event-stream PayloadParts (SageMaker) */
    int openai;            /* error bodies in OpenAI's shape instead of SageMaker Runtime's */
    const char *endpoint;  /* SageMaker endpoint ("" for OpenAI routes) */
    const char *variant;   /* production variant for metrics */
    const char *component; /* inference component, or NULL */
    const char *inference_id;
    const char *const *headers; /* extra response headers ("Name: value"), NULL-terminated */
    mock_llm_request llm;
    /* stateful session of the request (sessions.c), NULL when none */
    const char *session_id;
    long session_turn;
} mock_gen_params;

/* Take over `req`: answer it on the configured schedule, then finish it. */
void mock_gen_start(mock_server *srv, mock_request *req, const mock_gen_params *p);

#endif /* SMFW_MOCK_GENERATE_H */
