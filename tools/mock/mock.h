/*
 * mock.h - smfw-mock's shared state: options, the server context, and the
 * entry points of each service module (one file per emulated service).
 */
#ifndef SMFW_MOCK_MOCK_H
#define SMFW_MOCK_MOCK_H

#include "http.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include <smfw/buf.h>

/* ---- options (options.c) ------------------------------------------------------------------ */

#define MOCK_DEFAULT_ACCESS_KEY_ID     "AKIDSMFWMOCKEXAMPLE"
#define MOCK_DEFAULT_SECRET_ACCESS_KEY "smfw-mock-secret-key-EXAMPLEKEY"
#define MOCK_DEFAULT_ACCOUNT_ID        "111122223333"
#define MOCK_DEFAULT_REGION            "us-east-1"
#define MOCK_DEFAULT_ENDPOINT          "mock-endpoint"
#define MOCK_MAX_NAMES                 32

typedef struct mock_latency {
    double mean_ms;
    double stddev_ms;
} mock_latency;

typedef enum mock_fault_kind {
    MOCK_FAULT_NONE = 0,
    MOCK_FAULT_HTTP_500,
    MOCK_FAULT_THROTTLE,
    MOCK_FAULT_MODEL_ERROR,
    MOCK_FAULT_STREAM_ERROR,
    MOCK_FAULT_DROP,
    MOCK_FAULT_SLOW_HEADERS,
    MOCK_FAULT_CORRUPT_CRC,
    MOCK_FAULT_REASONING_ONLY,
    MOCK_FAULT_EMPTY,
    MOCK_FAULT_COUNT
} mock_fault_kind;

/* Faults of the AWS API requests (--api-fault): control plane, STS, IAM, CloudWatch, S3. */
typedef enum mock_api_fault_kind {
    MOCK_API_FAULT_NONE = 0,
    MOCK_API_FAULT_HTTP_500, /* 500 InternalFailure (S3: InternalError) */
    MOCK_API_FAULT_HTTP_503, /* 503 ServiceUnavailable */
    MOCK_API_FAULT_THROTTLE, /* 400 ThrottlingException (S3: 503 SlowDown) */
    MOCK_API_FAULT_COUNT
} mock_api_fault_kind;

typedef enum mock_split_mode {
    MOCK_SPLIT_RANDOM = 0, /* PayloadPart boundaries anywhere, as SageMaker does */
    MOCK_SPLIT_LINE        /* one PayloadPart per SSE event */
} mock_split_mode;

/* An IAM role (--role NAME[:PRINCIPAL|none]). */
typedef struct mock_role {
    char *name;
    char *trust; /* service principal its trust policy allows; "" = none */
} mock_role;

/* A scalable target (--autoscaling NAME:MIN:MAX): endpoint or inference component. */
typedef struct mock_scaling {
    char *name;
    long min, max;
} mock_scaling;

typedef struct mock_options {
    char host[64];
    int port;
    char access_key_id[129];
    char secret_access_key[129];
    int no_auth;
    char account_id[16];
    char region[64];
    char *endpoints[MOCK_MAX_NAMES];
    size_t endpoint_count;
    char *components[MOCK_MAX_NAMES];
    char *component_endpoints[MOCK_MAX_NAMES]; /* the endpoint each component is on */
    size_t component_count;
    mock_latency ttft;
    mock_latency itl;
    long output_tokens; /* 0: the request's max-tokens field */
    double fault_rate[MOCK_FAULT_COUNT];
    double api_fault_rate[MOCK_API_FAULT_COUNT];
    long slow_headers_ms;
    mock_split_mode split;
    char *ground_truth;
    double session_ttl_s;     /* stateful sessions expire this long after they open */
    char session_header[128]; /* OpenAI routes: header whose value is the session id */
    char *state_dir;
    int state_dir_is_temp;
    int exit_on_stdin_eof;
    uint64_t seed;
    int verbose;
    char model[128];
    double job_duration_s; /* the least time a benchmark job stays InProgress */
    char *sharegpt_file;   /* ShareGPT JSON for jobs with public_dataset: sharegpt */
    mock_role roles[MOCK_MAX_NAMES];
    size_t role_count;
    char *denied[MOCK_MAX_NAMES]; /* --deny: actions SimulatePrincipalPolicy says implicitDeny */
    size_t denied_count;
    mock_scaling scaling[MOCK_MAX_NAMES];
    size_t scaling_count;
    long max_concurrency;                /* requests decoded at once per endpoint; 0 = no limit */
    long prefix_cache_blocks;            /* --prefix-cache: LRU capacity in blocks; 0 = off */
    long prefix_block_tokens;            /* tokens per block (16) */
    double prefill_ms_per_token;         /* TTFT per uncached prompt token */
    struct mock_capture_config *capture; /* --data-capture (capture.h); NULL = off */
} mock_options;

/* Parse argv (and a --config file's [mock] section). Returns 0, 1 (exit 0: --help) or -1. */
int mock_options_parse(mock_options *opt, int argc, char **argv, char *err, size_t err_size);
void mock_options_free(mock_options *opt);
void mock_options_usage(FILE *out);
int mock_has_endpoint(const mock_options *opt, const char *name);
int mock_has_component(const mock_options *opt, const char *name);
/* Endpoint hosting a component (NULL when unknown); whether an endpoint hosts any. */
const char *mock_component_endpoint(const mock_options *opt, const char *component);
int mock_endpoint_has_components(const mock_options *opt, const char *endpoint);
const mock_role *mock_find_role(const mock_options *opt, const char *name); /* iam.c */

/* ---- utilities (util.c) ------------------------------------------------------------------ */

typedef struct mock_rng {
    uint64_t s;
} mock_rng;

uint64_t mock_rng_next(mock_rng *r);
double mock_rng_uniform(mock_rng *r); /* [0, 1) */
double mock_rng_normal(mock_rng *r, double mean, double stddev);

/* Text is built in smfw's buffer (smfw/buf.h); XML answers escape values with this. */
void mock_xml_append(smfw_buf *b, const char *s); /* &, <, >, " and ' as entities */

int mock_uri_decode(const char *in, size_t len, char *out, size_t out_size, int plus_is_space);
/* Value of a key in a query string / form body, decoded; 0 when absent. */
int mock_form_get(const char *query, const char *key, char *out, size_t out_size);
void mock_iso8601(double unix_s, char out[32], int millis);
double mock_now_unix(void);
void mock_new_request_id(char out[37]);
int mock_name_valid(const char *s, size_t max); /* [a-zA-Z0-9](-*[a-zA-Z0-9]){0,max-1} */
int mock_mkdirs(const char *path);
/* Write a whole file by a temporary beside it and rename(), so a crash never leaves half of it.
 * 0 or -1. */
int mock_write_file(const char *path, const void *data, size_t len);

/* ---- the server context (main.c) --------------------------------------------------------- */

typedef struct mock_groundtruth mock_groundtruth;
typedef struct mock_metrics mock_metrics;
typedef struct mock_s3 mock_s3;
typedef struct mock_controlplane mock_controlplane;
typedef struct mock_gen_slots mock_gen_slots;

typedef struct mock_server {
    mock_options opt;
    struct event_base *base;
    mock_http_server *http;
    mock_rng rng;
    mock_groundtruth *gt;
    mock_metrics *metrics;
    mock_s3 *s3;
    mock_controlplane *cp;
    mock_gen_slots *slots;                  /* --max-concurrency queues (generate.c) */
    struct mock_capture *capture;           /* Data Capture writer (capture.h), NULL when off */
    struct mock_sessions *sessions;         /* stateful sessions (sessions.c), made on first use */
    struct mock_prefix_cache *prefix_cache; /* --prefix-cache (prefix_cache.h), NULL when off */
    uint64_t fault_counts[MOCK_FAULT_COUNT];
    uint64_t api_fault_counts[MOCK_API_FAULT_COUNT];
    uint64_t requests;
    double started_unix;
} mock_server;

/* ---- routing and AWS error shapes (router.c, errors.c, auth.c) ---------------------------- */

void mock_route(mock_request *req, void *server);

typedef enum mock_protocol {
    MOCK_PROTO_JSON,   /* awsJson 1.0/1.1 and restJson (SageMaker, Runtime, CloudWatch) */
    MOCK_PROTO_QUERY,  /* awsQuery (STS) */
    MOCK_PROTO_S3,     /* restXml */
    MOCK_PROTO_RUNTIME /* SageMaker Runtime restJson */
} mock_protocol;

/* Send an AWS-shaped error and finish the request. extra_xml: more S3 <Error> elements. */
void mock_aws_error(mock_request *req, mock_protocol proto, int status, const char *code,
                    const char *message, const char *extra_xml);
/* The same without finishing the request (callers that wait for on_sent). */
void mock_aws_error_send(mock_request *req, mock_protocol proto, int status, const char *code,
                         const char *message, const char *extra_xml);
/* JSON success (awsJson): dumps and frees `body`, finishes the request. */
void mock_json_reply(mock_request *req, const char *content_type, json_t *body);

/* Verify SigV4 for `service`; on failure answers with the protocol's error and returns -1. */
int mock_auth_check(mock_server *srv, mock_request *req, const char *service, mock_protocol proto);
/* The same with another scope region (IAM is global: always signed for us-east-1). */
int mock_auth_check_in(mock_server *srv, mock_request *req, const char *service, const char *region,
                       mock_protocol proto);
/* Region and service of the request's SigV4 credential scope; 0 when it has none. */
int mock_sigv4_scope(const mock_request *req, char *region, size_t region_size, char *service,
                     size_t service_size);

/* ---- faults (faults.c) ------------------------------------------------------------------- */

const char *mock_fault_name(mock_fault_kind kind);
/* "KIND:RATE": 0; -1 when malformed (no colon, bad rate); -2 when KIND is no fault's name. */
int mock_fault_parse(const char *spec, mock_fault_kind *kind, double *rate);
/* "http-500, throttle, ...": every kind --fault takes, for messages. */
void mock_fault_kinds(char *out, size_t size);
/* Draw the fault for one inference request (NONE most of the time); counts it. */
mock_fault_kind mock_fault_draw(mock_server *srv, int streaming, int eventstream);

/* The same three for --api-fault (kinds http-500, http-503, throttle). */
const char *mock_api_fault_name(mock_api_fault_kind kind);
int mock_api_fault_parse(const char *spec, mock_api_fault_kind *kind, double *rate);
void mock_api_fault_kinds(char *out, size_t size);
/* Draw for one AWS API request; when a fault is drawn, answers it in `proto`'s error shape,
   finishes the request, counts it and returns 1. */
int mock_api_fault_inject(mock_server *srv, mock_request *req, mock_protocol proto);

/* ---- ground truth (groundtruth.c) --------------------------------------------------------- */

typedef struct mock_truth {
    char inference_id[80];
    char endpoint[80];
    int64_t recv_ns;
    int64_t arrival_ns;     /* the kernel's receive time (http.h); 0 = recv_ns */
    int64_t first_token_ns; /* 0 = none */
    int64_t last_byte_ns;
    long tokens;
    long prompt_tokens;
    long cached_tokens; /* prefix-cache hits; -1 = no prefix cache (not written) */
    mock_fault_kind fault;
    int status;
    /* stateful sessions (sessions.c): written only when session_id is set */
    char session_id[64];
    long session_turn;     /* 0 = the request that opened it */
    int session_close;     /* the close request */
    int session_messages;  /* chat messages in the request body */
    char *session_history; /* JSON list of the body's assistant-message SHA-256s (malloc'd) */
    char answer_sha256[65];
} mock_truth;

mock_groundtruth *mock_groundtruth_open(const char *path, char *err, size_t err_size);
void mock_groundtruth_write(mock_groundtruth *gt, const mock_truth *t);
void mock_groundtruth_close(mock_groundtruth *gt);

/* ---- stateful sessions (sessions.c) ------------------------------------------------------ */

typedef struct mock_sessions mock_sessions;
mock_sessions *mock_sessions_new(void);
void mock_sessions_free(mock_sessions *s);
/* A new session of `endpoint` living ttl_s: its id and expiry. -1 out of memory. */
int mock_session_open(mock_sessions *s, const char *endpoint, double now, double ttl_s, char id[40],
                      double *expires_unix);
/* Count one more request in a live session (close: and end it). Returns the request's turn in
 * the session, -1 when the id is unknown, expired or closed. */
long mock_session_continue(mock_sessions *s, const char *endpoint, const char *id, double now,
                           int close);
/* Whether a body is the mock container's close request ({"requestType": "CLOSE"}). */
int mock_session_is_close(const uint8_t *body, size_t len);
/* The chat body's message count and its assistant messages' SHA-256s as a JSON list (malloc'd,
 * NULL when the body is not JSON). */
char *mock_session_history(const uint8_t *body, size_t len, int *messages);

/* ---- CloudWatch metrics (metrics.c, cloudwatch.c) ----------------------------------------- */

mock_metrics *mock_metrics_new(void);
void mock_metrics_free(mock_metrics *m);
/* One invocation observed at wall time `unix_s`. */
void mock_metrics_record(mock_metrics *m, const char *endpoint, const char *variant,
                         const char *component, double unix_s, int status, double model_latency_us,
                         double overhead_latency_us);
/* Values of one metric/statistic per period bucket in [start, end). */
typedef struct mock_metric_point {
    double timestamp;
    double value;
} mock_metric_point;
size_t mock_metrics_query(mock_metrics *m, const char *metric, const char *endpoint,
                          const char *variant, const char *component, const char *stat,
                          double start, double end, int period, mock_metric_point *out, size_t max);
void mock_cloudwatch_handle(mock_server *srv, mock_request *req, const char *op);

/* ---- services --------------------------------------------------------------------------- */

void mock_runtime_handle(mock_server *srv, mock_request *req, const char *endpoint, int streaming);
void mock_openai_handle(mock_server *srv, mock_request *req);
void mock_sts_handle(mock_server *srv, mock_request *req);
void mock_s3_handle(mock_server *srv, mock_request *req);
void mock_controlplane_handle(mock_server *srv, mock_request *req, const char *op);
void mock_iam_handle(mock_server *srv, mock_request *req, const char *action);
void mock_autoscaling_handle(mock_server *srv, mock_request *req, const char *op);

mock_s3 *mock_s3_new(const char *state_dir, const char *region, char *err, size_t err_size);
void mock_s3_free(mock_s3 *s3);
/* Direct access for the benchmark-job runner (s3://bucket/key). */
int mock_s3_get(mock_s3 *s3, const char *bucket, const char *key, uint8_t **data, size_t *len);
int mock_s3_put(mock_s3 *s3, const char *bucket, const char *key, const void *data, size_t len,
                const char *content_type);
/* Keys under a prefix, sorted; returns a malloc'd array of malloc'd strings. */
size_t mock_s3_list(mock_s3 *s3, const char *bucket, const char *prefix, char ***keys);
/* An S3 restXml error (a bodiless one for HEAD); finishes the request. tag/value: one more
   <Error> element, or NULL. */
void mock_s3_error(mock_request *req, int status, const char *code, const char *message,
                   const char *tag, const char *value);
/* The x-amz-meta-* headers as {lower-case name: value} (a new reference). */
json_t *mock_s3_meta_headers(const mock_request *req);
/* Store the object a CompleteMultipartUpload assembled, with its multipart ETag ("<hex>-N",
   unquoted) and checksum (crc: base64, or NULL); the bucket must exist. 0 or -1. */
int mock_s3_store_completed(mock_s3 *s3, const char *bucket, const char *key, const void *data,
                            size_t len, const char *content_type, json_t *meta, const char *crc,
                            const char *etag);

/* Multipart uploads (s3_multipart.c): parts on disk under <state-dir>/s3/.uploads/, bounded
   by MOCK_S3_MAX_UPLOADS open uploads and MOCK_S3_MAX_UPLOAD_BYTES of parts in all. */
#define MOCK_S3_MAX_UPLOADS      64
#define MOCK_S3_MAX_UPLOAD_BYTES ((size_t)2 * 1024 * 1024 * 1024)
typedef struct mock_s3_uploads mock_s3_uploads;
/* The uploads left open by an earlier run, from s3_root/.uploads (made by the first upload). */
mock_s3_uploads *mock_s3_uploads_new(const char *s3_root);
void mock_s3_uploads_free(mock_s3_uploads *u);
/* Serve the request if it is a multipart operation (?uploads, ?uploadId=; key NULL for the
   bucket itself) and return 1; 0 leaves it to the object/bucket handlers. */
int mock_s3_multipart_handle(mock_s3_uploads *u, mock_s3 *s3, mock_request *req, const char *bucket,
                             const char *key);

void mock_gen_slots_free(mock_gen_slots *slots); /* generate.c */

mock_controlplane *mock_controlplane_new(mock_server *srv, char *err, size_t err_size);
void mock_controlplane_free(mock_controlplane *cp);
/* Shutdown: abort running benchmark jobs and wait for their threads. */
void mock_controlplane_stop_jobs(mock_controlplane *cp);

#endif /* SMFW_MOCK_MOCK_H */
