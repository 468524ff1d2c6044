/*
 * options.h - the direct backend's effective settings, resolved once.
 *
 * Read from the core's shared sections ("run", "aws", "dataset") and the
 * plugin's own "backend.direct", validated before anything is sent: every
 * combination that cannot work is refused with the reason.
 */
#ifndef DIRECT_OPTIONS_H
#define DIRECT_OPTIONS_H

#include <smfw/aws.h>
#include <smfw/config.h>
#include <smfw/net.h>
#include <smfw/results.h>
#include <smfw/shard.h>

#include "scheduler.h"
#include "stream.h"

typedef enum direct_transport_kind {
    DIRECT_TRANSPORT_HTTP = 0,     /**< OpenAI-compatible server (--url) */
    DIRECT_TRANSPORT_SAGEMAKER = 1 /**< SageMaker Runtime, SigV4 (--endpoint) */
} direct_transport_kind;

typedef struct direct_options {
    direct_transport_kind transport;
    /* SageMaker */
    char *endpoint;
    char *inference_component, *target_variant, *target_model, *target_container_hostname;
    char *region, *profile, *endpoint_url, *ca_bundle;
    int mock;                  /* --endpoint mock: start smfw-mock for the run */
    smfw_aws_client *aws;      /* made by direct_preflight(), lent to the transport (owned here) */
    const smfw_config *config; /* where [aws] ca_bundle came from, for messages */
    smfw_net_config *net;      /* TLS and proxies of every connection, made by direct_preflight() */
    /* OpenAI-compatible */
    char *url;
    char *path; /* endpoint path override */
    char *api_key;
    char **headers; /* "Name: value" */
    size_t n_headers;
    /* payload */
    direct_endpoint_type endpoint_type;
    int endpoint_type_set; /* --endpoint-type given: a capture's bodies of another type are
                              re-templated (retemplate.h) */
    char *model;
    char *tokenizer; /**< [run] tokenizer: counts ISL and OSL when set (NULL = usage/chunks) */
    int streaming;
    int include_usage;
    int use_max_tokens;
    char *template_path, *template_text, *response_field;
    char **extra;
    size_t n_extra;
    double output_tokens_mean, output_tokens_stddev;
    /* load */
    direct_arrival arrival;
    int64_t concurrency;     /* closed loop */
    double request_rate;     /* open loop, 0 = closed */
    int64_t max_concurrency; /* open loop cap, 0 = none */
    int64_t request_count;   /* 0 = unlimited (duration runs) */
    double duration_s;       /* 0 = none */
    double grace_s;
    int64_t warmup_request_count;
    double warmup_duration_s;
    double request_timeout_s;
    double connect_timeout_s;
    int workers;
    int64_t random_seed; /* [run] random_seed as declared */
    uint64_t seed;       /* its bits, for the generators */
    double max_error_rate;
    smfw_goodput_slo *slos;
    size_t n_slos;
    /* --shard I/N: this process sends the global requests I-1, I-1+N, ... of the whole run
     * (smfw/shard.h); request_count, concurrency, max_concurrency and request_rate above are
     * already this shard's share, request_count_total the whole run's. */
    smfw_shard shard;
    int64_t request_count_total;
    /* backend.direct */
    char *mock_binary;
    char **mock_args;
    size_t n_mock_args;
    double late_threshold_s;
    int save_outputs;
    /* --fixed-schedule: requests at the dataset's recorded offsets (DIRECT_ARRIVAL_FIXED) */
    int fixed_schedule;
    double schedule_speedup; /* offsets divided by this */
    int count_from_dataset;  /* no --request-count: every timed prompt once */
    int64_t *schedule_ns;    /* the offsets, made by the backend from the prompts */
    size_t n_schedule;
    /* multi-turn sessions (sessions.h): set by the backend when the dataset has conversations */
    int sessions;
    double turn_delay_s;      /* --turn-delay: before a turn whose dataset entry has no delay */
    int sagemaker_sessions;   /* --sagemaker-sessions: stateful sessions (NEW_SESSION, id) */
    char *session_close_path; /* --session-close-body FILE */
    char *session_close_body; /* its text, sent to close each session */
    size_t session_close_len;
    char *session_header; /* --url: header carrying the per-session id (X-Correlation-ID) */
} direct_options;

/** Resolve and validate. On failure *err says what to change. */
smfw_status direct_options_load(const smfw_settings *own, const smfw_config *config,
                                direct_options *out, smfw_error *err);

void direct_options_free(direct_options *o);

/** The settings the backend binds by declaration (for the test that binds them all). */
const smfw_setting_binding *direct_options_bindings(void);

/** Copy a string (NULL stays NULL). */
char *direct_strdup(const char *s);

#endif /* DIRECT_OPTIONS_H */
