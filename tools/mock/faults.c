/*
 * faults.c - which fault, if any, an inference request gets.
 *
 * One uniform draw per request against the cumulative rates, so the rates
 * are exact fractions of the traffic and the draws reproduce with --seed.
 * Faults that only make sense on a stream (stream-error; corrupt-crc needs
 * event-stream frames) fall back to none elsewhere, and are not counted then.
 * --api-fault draws the same way for the AWS API requests (the control plane,
 * STS, IAM, CloudWatch, S3), so the clients' retry modes can be tested.
 */
#include "mock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fault_names[MOCK_FAULT_COUNT] = {
    "none", "http-500",     "throttle",    "model-error",    "stream-error",
    "drop", "slow-headers", "corrupt-crc", "reasoning-only", "empty",
};

const char *mock_fault_name(mock_fault_kind kind) {
    return kind >= 0 && kind < MOCK_FAULT_COUNT ? fault_names[kind] : "unknown";
}

/* "KIND:RATE" against a table of names; the kind's index, -1 malformed, -2 unknown. */
static int parse_spec(const char *spec, const char *const *names, int count, double *rate) {
    const char *colon = strchr(spec, ':');
    if (!colon) return -1;
    size_t n = (size_t)(colon - spec);
    for (int k = 1; k < count; k++) {
        if (strlen(names[k]) == n && memcmp(names[k], spec, n) == 0) {
            char *end;
            double r = strtod(colon + 1, &end);
            if (end == colon + 1) return -1;
            if (*end == '%') {
                r /= 100.0;
                end++;
            }
            if (*end || r < 0 || r > 1) return -1;
            *rate = r;
            return k;
        }
    }
    return -2; /* well formed, but no such kind: the caller names it */
}

static void list_kinds(const char *const *names, int count, char *out, size_t size) {
    size_t o = 0;
    if (size) out[0] = '\0';
    for (int k = 1; k < count && o < size; k++)
        o += (size_t)snprintf(out + o, size - o, "%s%s", k > 1 ? ", " : "", names[k]);
}

int mock_fault_parse(const char *spec, mock_fault_kind *kind, double *rate) {
    int k = parse_spec(spec, fault_names, MOCK_FAULT_COUNT, rate);
    if (k < 0) return k;
    *kind = (mock_fault_kind)k;
    return 0;
}

void mock_fault_kinds(char *out, size_t size) {
    list_kinds(fault_names, MOCK_FAULT_COUNT, out, size);
}

/* Whether a fault can happen on this kind of response. */
static int fault_applies(mock_fault_kind k, int streaming, int eventstream) {
    if (k == MOCK_FAULT_STREAM_ERROR) return streaming;
    if (k == MOCK_FAULT_CORRUPT_CRC) return eventstream; /* only event-stream frames have CRCs */
    return 1;
}

mock_fault_kind mock_fault_draw(mock_server *srv, int streaming, int eventstream) {
    double total = 0;
    for (int k = 1; k < MOCK_FAULT_COUNT; k++) total += srv->opt.fault_rate[k];
    if (total <= 0) return MOCK_FAULT_NONE;
    double u = mock_rng_uniform(&srv->rng), acc = 0;
    for (int k = 1; k < MOCK_FAULT_COUNT; k++) {
        acc += srv->opt.fault_rate[k];
        if (u < acc) {
            if (!fault_applies((mock_fault_kind)k, streaming, eventstream)) return MOCK_FAULT_NONE;
            srv->fault_counts[k]++;
            return (mock_fault_kind)k;
        }
    }
    return MOCK_FAULT_NONE;
}

static const char *const api_fault_names[MOCK_API_FAULT_COUNT] = {"none", "http-500", "http-503",
                                                                  "throttle"};

const char *mock_api_fault_name(mock_api_fault_kind kind) {
    return kind >= 0 && kind < MOCK_API_FAULT_COUNT ? api_fault_names[kind] : "unknown";
}

int mock_api_fault_parse(const char *spec, mock_api_fault_kind *kind, double *rate) {
    int k = parse_spec(spec, api_fault_names, MOCK_API_FAULT_COUNT, rate);
    if (k < 0) return k;
    *kind = (mock_api_fault_kind)k;
    return 0;
}

void mock_api_fault_kinds(char *out, size_t size) {
    list_kinds(api_fault_names, MOCK_API_FAULT_COUNT, out, size);
}

int mock_api_fault_inject(mock_server *srv, mock_request *req, mock_protocol proto) {
    double total = 0;
    for (int k = 1; k < MOCK_API_FAULT_COUNT; k++) total += srv->opt.api_fault_rate[k];
    if (total <= 0) return 0;
    double u = mock_rng_uniform(&srv->rng), acc = 0;
    int kind = MOCK_API_FAULT_NONE;
    for (int k = 1; k < MOCK_API_FAULT_COUNT && !kind; k++) {
        acc += srv->opt.api_fault_rate[k];
        if (u < acc) kind = k;
    }
    if (!kind) return 0;
    srv->api_fault_counts[kind]++;
    int s3 = proto == MOCK_PROTO_S3;
    /* The codes each service really sends for these (S3 has its own). */
    if (kind == MOCK_API_FAULT_HTTP_500)
        mock_aws_error(req, proto, 500, s3 ? "InternalError" : "InternalFailure",
                       "smfw-mock --api-fault: injected internal error.", NULL);
    else if (kind == MOCK_API_FAULT_HTTP_503)
        mock_aws_error(req, proto, 503, "ServiceUnavailable",
                       "smfw-mock --api-fault: injected unavailability.", NULL);
    else if (s3)
        mock_aws_error(req, proto, 503, "SlowDown", "Please reduce your request rate.", NULL);
    else
        mock_aws_error(req, proto, 400, "ThrottlingException", "Rate exceeded", NULL);
    return 1;
}
