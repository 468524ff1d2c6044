/*
 * faults.c - which fault, if any, an inference request gets.
 *
 * One uniform draw per request against the cumulative rates, so the rates
 * are exact fractions of the traffic and the draws reproduce with --seed.
 * Faults that only make sense on a stream (stream-error; corrupt-crc needs
 * event-stream frames) fall back to none elsewhere, and are not counted then.
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

int mock_fault_parse(const char *spec, mock_fault_kind *kind, double *rate) {
    const char *colon = strchr(spec, ':');
    if (!colon) return -1;
    size_t n = (size_t)(colon - spec);
    for (int k = 1; k < MOCK_FAULT_COUNT; k++) {
        if (strlen(fault_names[k]) == n && memcmp(fault_names[k], spec, n) == 0) {
            char *end;
            double r = strtod(colon + 1, &end);
            if (end == colon + 1) return -1;
            if (*end == '%') {
                r /= 100.0;
                end++;
            }
            if (*end || r < 0 || r > 1) return -1;
            *kind = (mock_fault_kind)k;
            *rate = r;
            return 0;
        }
    }
    return -2; /* well formed, but no such kind: the caller names it */
}

void mock_fault_kinds(char *out, size_t size) {
    size_t o = 0;
    if (size) out[0] = '\0';
    for (int k = 1; k < MOCK_FAULT_COUNT && o < size; k++)
        o += (size_t)snprintf(out + o, size - o, "%s%s", k > 1 ? ", " : "", fault_names[k]);
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
