/*
 * aws_internal.h - the client object and the pieces shared by the AWS
 * layer's files (internal).
 */
#ifndef SMFW_AWS_INTERNAL_H
#define SMFW_AWS_INTERNAL_H

#include <pthread.h>

#include <smfw/aws.h>

#include "aws/aws_text.h"
#include "aws/aws_error.h"
#include "aws/aws_http.h"
#include "aws/aws_ini.h"
#include "aws/aws_rate_limiter.h"
#include "aws/aws_retry.h"

/* Reference-counted immutable credentials snapshot. */
typedef struct aws_creds {
    smfw_aws_credentials pub; /* first member: &pub is what callers see */
    int refs;
    int refreshable; /* came from a source that can issue new ones */
    char data[];     /* the strings */
} aws_creds;

#define AWS_MAX_SIGNERS 16

/* A resolved endpoint: where to send, and how to sign. */
typedef struct aws_endpoint {
    char url[1024];          /* no trailing '/' */
    char signing_region[64]; /* the rules' signingRegion, else the client's region */
    char signing_name[64];   /* the rules' signingName, else the service's */
    int overridden;          /* the URL came from an override (S3: path-style) */
} aws_endpoint;

/* One cached resolution: its inputs, so a changed setting resolves again. */
typedef struct aws_endpoint_cached {
    char key[1200];
    aws_endpoint ep;
} aws_endpoint_cached;

#define AWS_MAX_ENDPOINTS   12
#define AWS_S3_REGION_CACHE 8

struct smfw_aws_client {
    /* options, copied */
    char *opt_region, *opt_profile, *opt_endpoint_url, *opt_ca_bundle;
    int max_attempts; /* resolved: option, AWS_MAX_ATTEMPTS, profile, mode's default */
    aws_retry_mode retry_mode;
    int refresh_margin_s;
    int no_imds;

    pthread_mutex_t lock; /* region, config files, identity, signers, quota, clock */
    char *profile;
    int profile_explicit;
    aws_ini *config;   /* ~/.aws/config (or AWS_CONFIG_FILE) */
    aws_ini *credfile; /* ~/.aws/credentials (or AWS_SHARED_CREDENTIALS_FILE) */
    char *config_path; /* the config file's path, for messages (NULL without HOME) */
    int files_loaded;
    char *region;
    const char *region_from; /* where the region came from (a literal), once resolved */
    aws_http *http;
    const struct smfw_net_config *net; /* TLS and proxies: net_owned or the options' */
    struct smfw_net_config *net_owned;

    /* credentials */
    pthread_mutex_t creds_lock;   /* guards `creds` */
    pthread_mutex_t refresh_lock; /* one refresher at a time */
    aws_creds *creds;

    pthread_mutex_t imds_lock; /* guards the IMDSv2 token */
    char *imds_token;          /* NULL until fetched (and with IMDSv1) */
    int64_t imds_token_expires;
    int64_t imds_v1_until; /* IMDSv1 without asking for a token until then */

    aws_retry_quota quota;    /* standard and adaptive modes */
    aws_rate_limiter limiter; /* adaptive mode */
    char user_agent[512];
    int64_t clock_offset;   /* seconds: server - local */
    int64_t clock_measured; /* server - local at the last response's Date header */
    int clock_seen;         /* a Date header was read (clock_measured is set) */

    int have_identity;
    smfw_aws_identity identity;

    smfw_sigv4_signer *signers[AWS_MAX_SIGNERS];
    int nsigners;

    aws_endpoint_cached endpoints[AWS_MAX_ENDPOINTS]; /* by service, under `lock` */

    /* S3 buckets found in another region than the client's (redirects), under `lock`. */
    struct {
        char bucket[256];
        char region[64];
    } s3_regions[AWS_S3_REGION_CACHE];
    int s3_regions_next;
};

/* ---- config/profile ---- */
smfw_status aws_client_load_files(smfw_aws_client *c, smfw_error *err);
/* Value of key in the selected (or given) profile of the config file, or NULL. */
const char *aws_profile_get(smfw_aws_client *c, const char *profile, const char *key);
/* Value of key in the profile's section of the credentials file, or NULL. */
const char *aws_credfile_get(smfw_aws_client *c, const char *profile, const char *key);

/* ---- endpoints ---- */
/*
 * Resolve a service's endpoint ("sagemaker", "runtime.sagemaker", "s3",
 * "sts", "monitoring", "iam", "application-autoscaling", "sso", "sso-oidc",
 * "batch")
 * through its endpoint rule set: overrides become the Endpoint parameter,
 * FIPS and dual-stack come from AWS_USE_FIPS_ENDPOINT /
 * AWS_USE_DUALSTACK_ENDPOINT or the profile. A refusal of the rules (e.g.
 * FIPS where the partition has none) is SMFW_ERR_CONFIG with the rule's
 * message in the sentence.
 */
smfw_status aws_client_resolve_endpoint(smfw_aws_client *c, const char *service, aws_endpoint *out,
                                        smfw_error *err);
/*
 * The same for another region than the client's (region non-NULL: S3's wrong-region
 * redirect) and, for S3, a bucket (the rules' Bucket parameter: the URL then addresses
 * the bucket, virtual-hosted or path style, an override's included).
 */
smfw_status aws_client_resolve_endpoint_in(smfw_aws_client *c, const char *service,
                                           const char *region, const char *bucket,
                                           aws_endpoint *out, smfw_error *err);

/* ---- retries (aws_retry.c) and User-Agent (aws_user_agent.c) ---- */
/* retry_mode and max_attempts (opt_max_attempts > 0 wins): the environment, then the profile. */
smfw_status aws_client_resolve_retry(smfw_aws_client *c, int opt_max_attempts, smfw_error *err);
/* The User-Agent 2.0 value of the client's calls (after aws_client_resolve_retry). */
void aws_user_agent_build(smfw_aws_client *c, char *out, size_t size);

/* ---- time ---- */
int64_t aws_now(void);
/* ISO 8601 UTC ("2026-05-01T12:00:00Z", fractions and +00:00 accepted); -1 on error. */
int64_t aws_parse_iso8601(const char *s);
/* RFC 1123 HTTP date; -1 on error. */
int64_t aws_parse_http_date(const char *s);

/* ---- calls ---- */
/* How error answers are read: awsJson, restXml/awsQuery, restJson (aws_error.h). */
typedef enum aws_protocol { AWS_PROTO_JSON, AWS_PROTO_XML, AWS_PROTO_REST_JSON } aws_protocol;

typedef struct aws_call {
    const char *service_label; /* "SageMaker", "S3", "STS"... for messages */
    const char *operation;
    const char *endpoint_id; /* for smfw_aws_client_endpoint */
    const char *base_url;    /* instead of endpoint_id (S3 virtual host) */
    const char *signing_name;
    const char
        *signing_region; /* NULL = the resolved endpoint's (the client region with base_url) */
    const char *method;
    const char *path;  /* wire path (percent-encoded), "/" when NULL */
    const char *query; /* wire query without '?', or NULL */
    const smfw_sigv4_header *headers;
    size_t header_count;
    const void *body;
    size_t body_len;
    const char *upload_path;   /* stream this file as the body */
    int64_t upload_offset;     /* from this byte of upload_path */
    int64_t upload_length;     /* this many bytes (0 = to the end of the file) */
    int checksum_crc32;        /* send x-amz-checksum-crc32 of the body (S3 flexible checksums) */
    int error_in_200;          /* a 200 whose body is an <Error> is a 500 (S3 CompleteMultipart) */
    const char *download_path; /* write a 2xx body to this file */
    unsigned sign_flags;
    int unsigned_request;              /* AssumeRoleWithWebIdentity */
    const smfw_aws_credentials *creds; /* use these instead of the client's */
    aws_protocol protocol;
    int max_attempts; /* 0 = client's */
} aws_call;

typedef struct aws_result {
    aws_http_response http;
    aws_error_info error;
    int attempts; /* requests sent, immediate re-signs (clock skew, new token) included */
    char checksum_crc32[16]; /* base64 CRC-32 sent with the body (checksum_crc32 calls) */
} aws_result;

void aws_result_init(aws_result *r);
void aws_result_free(aws_result *r);

/*
 * Sign, send, retry (the client's retry mode, clock skew, expired token). On a non-2xx
 * final answer returns the mapped status with a one-sentence message; the
 * parsed error stays in res->error.
 */
smfw_status aws_client_call(smfw_aws_client *c, const aws_call *call, aws_result *res,
                            smfw_error *err);

/* ---- credentials ---- */
/* Resolve through the chain (no cache). */
smfw_status aws_credentials_resolve(smfw_aws_client *c, aws_creds **out, smfw_error *err);
aws_creds *aws_creds_new(const char *akid, const char *secret, const char *token,
                         int64_t expiration, const char *account, const char *provider);
void aws_creds_unref(aws_creds *creds);
void aws_creds_ref(aws_creds *creds);

/* STS (used by the credential providers). */
smfw_status aws_sts_assume_role(smfw_aws_client *c, const smfw_aws_credentials *source,
                                const char *role_arn, const char *session_name,
                                const char *external_id, int duration_s, aws_creds **out,
                                smfw_error *err);
smfw_status aws_sts_assume_role_with_web_identity(smfw_aws_client *c, const char *role_arn,
                                                  const char *session_name, const char *token,
                                                  aws_creds **out, smfw_error *err);

/* ---- S3 (aws_s3.c, aws_s3_multipart.c) ---- */
/* Base URL (virtual-hosted or path style) and wire path of bucket/key (key NULL: the bucket). */
smfw_status aws_s3_address(smfw_aws_client *c, const char *bucket, const char *key, char *base,
                           size_t base_size, smfw_buf *path, smfw_error *err);
/* The same with the endpoint of `region` (NULL: the client's). */
smfw_status aws_s3_address_in(smfw_aws_client *c, const char *bucket, const char *key,
                              const char *region, char *base, size_t base_size, smfw_buf *path,
                              smfw_error *err);
/*
 * aws_client_call for an S3 call on bucket/key (aws_s3_redirect.c): sent to the
 * bucket's region once one is known; an answer naming another region (301/307,
 * PermanentRedirect, AuthorizationHeaderMalformed, HEAD 301/400 with
 * x-amz-bucket-region) is retried once there and remembered, as botocore's
 * S3RegionRedirector does.
 */
smfw_status aws_s3_call(smfw_aws_client *c, const char *bucket, const char *key,
                        const aws_call *call, aws_result *res, smfw_error *err);
/* One PutObject streaming the file (with its CRC-32), whatever its size; the ETag if asked. */
smfw_status aws_s3_put_file(smfw_aws_client *c, const char *bucket, const char *key,
                            const char *file, const char *content_type, char *etag,
                            size_t etag_size, smfw_error *err);
/* A restXml S3 call, SigV4 with S3's rules. */
void aws_s3_call_init(aws_call *call, const char *op, const char *method, const char *base,
                      const char *path);

/* One uploaded part, for CompleteMultipartUpload. */
typedef struct aws_s3_part {
    int number;
    char etag[130];
    char crc32[16]; /* base64, "" when none was sent */
} aws_s3_part;
/* The CompleteMultipartUpload body: every part, in order, with its ETag and checksum. */
void aws_s3_complete_body(smfw_buf *out, const aws_s3_part *parts, size_t n);
/* UploadId of an InitiateMultipartUploadResult; 0, or -1 when the body has none. */
int aws_s3_parse_upload_id(const char *body, size_t len, char *out, size_t size);
/*
 * A CompleteMultipartUploadResult: 0 with its ETag; 1 when the 200 answer is an <Error>
 * (or not XML), with the error in *e; -1 when it is XML without an ETag.
 */
int aws_s3_parse_complete(const char *body, size_t len, char *etag, size_t etag_size,
                          aws_error_info *e);
/* A non-empty 200 body that is an <Error> or not XML at all (botocore's special case). */
int aws_s3_is_200_error(const char *body, size_t len);
/* Part size for a file: at least the wanted size and 5 MiB, at most 10,000 parts; -1 if too big. */
int64_t aws_s3_part_size(int64_t file_size, int64_t wanted);

/* Form-encode "k=v" pairs for awsQuery: appends "&k=v" (or "k=v" when empty). */
void aws_form_add(smfw_buf *b, const char *key, const char *value);

/* getenv, with an empty value read as unset (aws_profile.c). */
const char *aws_getenv(const char *name);

/* IMDS GET of a metadata path (with the IMDSv2 token); *out malloc'd. */
smfw_status aws_imds_get(smfw_aws_client *c, const char *path, char **out, smfw_error *err);
/* The same with each request given at most timeout_ms and no retry (0: the configured ones). */
smfw_status aws_imds_get_within(smfw_aws_client *c, const char *path, long timeout_ms, char **out,
                                smfw_error *err);
/* AWS_EC2_METADATA_DISABLED=true or the client's no_imds: no IMDS request at all. */
int aws_imds_disabled(smfw_aws_client *c);

#endif
