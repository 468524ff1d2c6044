/*
 * capture_writer.c - SageMaker Data Capture files for the invocations the mock
 * answers (capture.h).
 *
 * The layout and line format are those of the AWS documentation ("Capture data
 * from real-time endpoint", docs/mock.md):
 *   s3://BUCKET/PREFIX/ENDPOINT/VARIANT/yyyy/mm/dd/hh/MM-SS-mmm-UUID.jsonl
 * one JSON object per line: captureData.endpointInput / endpointOutput
 * (observedContentType, mode, data, encoding), eventMetadata (eventId,
 * inferenceId when the caller gave one, inferenceTime in whole seconds) and
 * eventVersion "0". A body whose content type is in the JSON list is captured
 * as text with encoding JSON, in the CSV list as CSV, anything else BASE64
 * (SageMaker's default when no CaptureContentTypeHeader is given).
 *
 * Lines are buffered per endpoint and variant and written as a new object when
 * the buffer is --capture-flush-ms old, when the hour changes, and at exit, as
 * SageMaker writes a new file every few moments rather than appending.
 */
#include "capture.h"

#include <smfw/app.h>

#include <event2/event.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define CAPTURE_MAX_TYPES 10 /* CaptureContentTypeHeader allows 1-10 per list */

struct mock_capture_config {
    char *bucket, *prefix; /* --data-capture s3://BUCKET[/PREFIX] */
    int percentage;        /* InitialSamplingPercentage, default 100 */
    int input, output;     /* CaptureOptions */
    char *json_types[CAPTURE_MAX_TYPES];
    size_t n_json;
    char *csv_types[CAPTURE_MAX_TYPES];
    size_t n_csv;
    long flush_ms;
    int given_other; /* a --capture-* flag was given */
};

typedef struct capture_buffer {
    char endpoint[80], variant[64];
    long hour;         /* unix hour of the lines in `lines` */
    double first_unix; /* arrival of the first line: the object's name */
    int64_t first_mono;
    smfw_buf lines;
} capture_buffer;

struct mock_capture {
    mock_server *srv;
    const mock_capture_config *cfg;
    capture_buffer *bufs;
    size_t n_bufs;
    mock_rng rng; /* sampling and event ids: apart from the latency draws */
    struct event *timer;
};

/* ---- configuration ---------------------------------------------------------------------- */

static int add_types(char **list, size_t *n, const char *value, const char *flag, char *err,
                     size_t err_size) {
    for (size_t i = 0; i < *n; i++) free(list[i]);
    *n = 0;
    char *copy = strdup(value), *save = NULL;
    if (!copy) abort();
    for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        if (*n == CAPTURE_MAX_TYPES || !strchr(t, '/') || strlen(t) > 256) {
            snprintf(err, err_size, "--%s wants 1-%d content types (type/subtype), got \"%s\"",
                     flag, CAPTURE_MAX_TYPES, value);
            free(copy);
            return -1;
        }
        list[(*n)++] = strdup(t);
    }
    free(copy);
    return 0;
}

int mock_capture_option(mock_capture_config **cfgp, const char *name, const char *value, char *err,
                        size_t err_size) {
    if (strcmp(name, "data-capture") != 0 && strncmp(name, "capture-", 8) != 0) return 1;
    if (!*cfgp) {
        *cfgp = calloc(1, sizeof **cfgp);
        if (!*cfgp) abort();
        (*cfgp)->percentage = 100;
        (*cfgp)->input = (*cfgp)->output = 1;
        (*cfgp)->flush_ms = 1000;
    }
    mock_capture_config *c = *cfgp;
    char *end;
    if (!strcmp(name, "data-capture")) {
        const char *p = value;
        if (strncmp(p, "s3://", 5) != 0 || !p[5] || p[5] == '/') {
            snprintf(err, err_size, "--data-capture wants s3://BUCKET[/PREFIX], got \"%s\"", value);
            return -1;
        }
        p += 5;
        size_t bl = strcspn(p, "/");
        free(c->bucket);
        free(c->prefix);
        c->bucket = strndup(p, bl);
        p += bl;
        while (*p == '/') p++;
        c->prefix = strdup(p);
        size_t pl = strlen(c->prefix);
        while (pl && c->prefix[pl - 1] == '/') c->prefix[--pl] = '\0';
        return 0;
    }
    c->given_other = 1;
    if (!strcmp(name, "capture-sampling-percentage")) {
        long n = strtol(value, &end, 10);
        if (*end || end == value || n < 0 || n > 100) {
            snprintf(err, err_size, "--capture-sampling-percentage wants 0-100, got \"%s\"", value);
            return -1;
        }
        c->percentage = (int)n;
    } else if (!strcmp(name, "capture-mode")) {
        if (!strcasecmp(value, "Input"))
            c->input = 1, c->output = 0;
        else if (!strcasecmp(value, "Output"))
            c->input = 0, c->output = 1;
        else if (!strcasecmp(value, "InputAndOutput"))
            c->input = c->output = 1;
        else {
            snprintf(err, err_size,
                     "--capture-mode wants Input, Output or InputAndOutput, got \"%s\"", value);
            return -1;
        }
    } else if (!strcmp(name, "capture-json-content-types")) {
        return add_types(c->json_types, &c->n_json, value, name, err, err_size);
    } else if (!strcmp(name, "capture-csv-content-types")) {
        return add_types(c->csv_types, &c->n_csv, value, name, err, err_size);
    } else if (!strcmp(name, "capture-flush-ms")) {
        long n = strtol(value, &end, 10);
        if (*end || end == value || n < 1 || n > 3600000) {
            snprintf(err, err_size, "--capture-flush-ms wants 1-3600000, got \"%s\"", value);
            return -1;
        }
        c->flush_ms = n;
    } else {
        snprintf(err, err_size, "unknown option --%s", name);
        return -1;
    }
    return 0;
}

int mock_capture_config_check(const mock_capture_config *cfg, char *err, size_t err_size) {
    if (cfg && !cfg->bucket) {
        snprintf(err, err_size, "the --capture-* options need --data-capture s3://BUCKET[/PREFIX]");
        return -1;
    }
    return 0;
}

void mock_capture_config_free(mock_capture_config *cfg) {
    if (!cfg) return;
    free(cfg->bucket);
    free(cfg->prefix);
    for (size_t i = 0; i < cfg->n_json; i++) free(cfg->json_types[i]);
    for (size_t i = 0; i < cfg->n_csv; i++) free(cfg->csv_types[i]);
    free(cfg);
}

/* ---- writing ---------------------------------------------------------------------------- */

static void capture_uuid(mock_rng *r, char out[37]) {
    uint64_t a = mock_rng_next(r), b = mock_rng_next(r);
    snprintf(out, 37, "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(a >> 32),
             (unsigned)((a >> 16) & 0xFFFF), (unsigned)(a & 0xFFF),
             (unsigned)(0x8000 | ((b >> 48) & 0x3FFF)),
             (unsigned long long)(b & 0xFFFFFFFFFFFFull));
}

static void flush_buffer(mock_capture *c, capture_buffer *b) {
    if (!b->lines.len) return;
    time_t t = (time_t)b->first_unix;
    struct tm tm;
    gmtime_r(&t, &tm);
    char id[37], key[1024];
    capture_uuid(&c->rng, id);
    int ms = (int)((b->first_unix - (double)t) * 1000.0);
    snprintf(key, sizeof key, "%s%s%s/%s/%04d/%02d/%02d/%02d/%02d-%02d-%03d-%s.jsonl",
             c->cfg->prefix, *c->cfg->prefix ? "/" : "", b->endpoint, b->variant, tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms, id);
    if (mock_s3_put(c->srv->s3, c->cfg->bucket, key, b->lines.data, b->lines.len,
                    "application/octet-stream") != 0)
        fprintf(stderr, "smfw-mock: data capture: cannot write s3://%s/%s\n", c->cfg->bucket, key);
    b->lines.len = 0;
}

static void flush_due(evutil_socket_t fd, short what, void *arg) {
    mock_capture *c = arg;
    (void)fd, (void)what;
    int64_t now = smfw_now_mono_ns();
    for (size_t i = 0; i < c->n_bufs; i++)
        if (c->bufs[i].lines.len && now - c->bufs[i].first_mono >= c->cfg->flush_ms * 1000000LL)
            flush_buffer(c, &c->bufs[i]);
}

mock_capture *mock_capture_new(mock_server *srv) {
    const mock_capture_config *cfg = srv->opt.capture;
    if (!cfg) return NULL;
    mock_capture *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->srv = srv;
    c->cfg = cfg;
    c->rng.s = srv->opt.seed ^ 0xCA97u;
    /* A quarter of the flush period: an object is written at most that much late. */
    long tick = cfg->flush_ms / 4 ? cfg->flush_ms / 4 : 1;
    struct timeval tv = {tick / 1000, (tick % 1000) * 1000};
    c->timer = event_new(srv->base, -1, EV_PERSIST, flush_due, c);
    event_add(c->timer, &tv);
    return c;
}

void mock_capture_free(mock_capture *c) {
    if (!c) return;
    for (size_t i = 0; i < c->n_bufs; i++) {
        flush_buffer(c, &c->bufs[i]);
        smfw_buf_free(&c->bufs[i].lines);
    }
    free(c->bufs);
    if (c->timer) event_free(c->timer);
    free(c);
}

static int type_in(char *const *list, size_t n, const char *type) {
    size_t tl = strcspn(type, ";");
    while (tl && type[tl - 1] == ' ') tl--;
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == tl && !strncasecmp(list[i], type, tl)) return 1;
    return 0;
}

/* {"observedContentType":..., "mode":..., "data":..., "encoding":...} */
static json_t *capture_part(const mock_capture_config *cfg, const char *mode, const char *type,
                            const void *data, size_t len) {
    json_t *o = json_object();
    json_object_set_new(o, "observedContentType", json_string(type));
    json_object_set_new(o, "mode", json_string(mode));
    const char *enc = type_in(cfg->json_types, cfg->n_json, type) ? "JSON"
                      : type_in(cfg->csv_types, cfg->n_csv, type) ? "CSV"
                                                                  : "BASE64";
    json_t *text = enc[0] != 'B' ? json_stringn((const char *)data, len) : NULL;
    if (!text) {
        /* Not valid UTF-8 text (or not a text type): captured as base64, as SageMaker does. */
        enc = "BASE64";
        char *b64 = malloc(4 * ((len + 2) / 3) + 1);
        if (!b64) abort();
        EVP_EncodeBlock((unsigned char *)b64, data, (int)len);
        text = json_string(b64);
        free(b64);
    }
    json_object_set_new(o, "data", text);
    json_object_set_new(o, "encoding", json_string(enc));
    return o;
}

static capture_buffer *buffer_for(mock_capture *c, const char *endpoint, const char *variant) {
    for (size_t i = 0; i < c->n_bufs; i++)
        if (!strcmp(c->bufs[i].endpoint, endpoint) && !strcmp(c->bufs[i].variant, variant))
            return &c->bufs[i];
    capture_buffer *nb = realloc(c->bufs, (c->n_bufs + 1) * sizeof *nb);
    if (!nb) abort();
    c->bufs = nb;
    capture_buffer *b = &c->bufs[c->n_bufs++];
    memset(b, 0, sizeof *b);
    snprintf(b->endpoint, sizeof b->endpoint, "%s", endpoint);
    snprintf(b->variant, sizeof b->variant, "%s", variant);
    return b;
}

void mock_capture_record(mock_capture *c, const mock_request *req, const char *endpoint,
                         const char *variant, double recv_unix, const void *output,
                         size_t output_len, const char *output_type) {
    if (!c || !endpoint || !*endpoint) return;
    const mock_capture_config *cfg = c->cfg;
    if (cfg->percentage < 100 && mock_rng_uniform(&c->rng) * 100.0 >= cfg->percentage) return;
    int want_out = cfg->output && output;
    if (!cfg->input && !want_out) return;
    json_t *data = json_object();
    if (cfg->input) {
        const char *type = mock_request_header(req, "Content-Type");
        json_object_set_new(data, "endpointInput",
                            capture_part(cfg, "INPUT", type ? type : "application/octet-stream",
                                         req->body ? (const void *)req->body : "", req->body_len));
    }
    if (want_out)
        json_object_set_new(data, "endpointOutput",
                            capture_part(cfg, "OUTPUT", output_type, output, output_len));
    json_t *meta = json_object();
    char id[37], when[32];
    capture_uuid(&c->rng, id);
    json_object_set_new(meta, "eventId", json_string(id));
    const char *inference_id = mock_request_header(req, "X-Amzn-SageMaker-Inference-Id");
    if (inference_id) json_object_set_new(meta, "inferenceId", json_string(inference_id));
    mock_iso8601(recv_unix, when, 0);
    json_object_set_new(meta, "inferenceTime", json_string(when));
    json_t *line =
        json_pack("{s:o,s:o,s:s}", "captureData", data, "eventMetadata", meta, "eventVersion", "0");
    char *text = json_dumps(line, JSON_COMPACT);
    json_decref(line);
    if (!text) return;
    capture_buffer *b = buffer_for(c, endpoint, variant ? variant : "AllTraffic");
    long hour = (long)(recv_unix / 3600.0);
    if (b->lines.len && hour != b->hour) flush_buffer(c, b); /* one folder per hour */
    if (!b->lines.len) {
        b->hour = hour;
        b->first_unix = recv_unix;
        b->first_mono = smfw_now_mono_ns();
    }
    smfw_buf_puts(&b->lines, text);
    smfw_buf_puts(&b->lines, "\n");
    free(text);
}
