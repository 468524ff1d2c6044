/*
 * aws.h - the AWS client of libsmfw: credentials, region, endpoints, signed
 * calls with retries, and the operations smfw needs (STS, S3, IAM, awsJson
 * services such as SageMaker, CloudWatch and Application Auto Scaling).
 *
 * A client resolves its region and credentials lazily (first use) the way
 * the AWS CLI does, reading the AWS_* environment variables and the shared
 * config/credentials files itself. Every call is thread-safe. Errors reach
 * the caller as one sentence in smfw_error.message naming the service,
 * operation, AWS error code, message and request id, with a status:
 * SMFW_ERR_THROTTLED, _AUTH, _NOT_FOUND, _SERVER, _NETWORK, _TIMEOUT or
 * _AWS (any other service error). See docs/aws.md.
 */
#ifndef SMFW_AWS_H
#define SMFW_AWS_H

#include <signal.h>

#include <smfw/sigv4.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

struct smfw_config;
struct smfw_net_config;

/** Client options. Zero/NULL fields take the AWS environment or the default. */
typedef struct smfw_aws_options {
    const char *region;       /**< else AWS_REGION, AWS_DEFAULT_REGION, profile, IMDS */
    const char *profile;      /**< else AWS_DEFAULT_PROFILE, AWS_PROFILE, "default" */
    const char *endpoint_url; /**< one URL for every service (tests: smfw-mock) */
    const char *ca_bundle;    /**< else AWS_CA_BUNDLE, profile ca_bundle, system CAs */
    int max_attempts;         /**< else AWS_MAX_ATTEMPTS, profile, 5 (legacy mode) or 3 */
    long connect_timeout_ms;  /**< default 10000 */
    long timeout_ms;          /**< whole-request limit, default 120000 (0 = default) */
    int refresh_margin_s;     /**< refresh temporary credentials this long before expiry (600) */
    int no_imds;              /**< never ask EC2 instance metadata (credentials or region) */
    const struct smfw_config *config;  /**< the configuration ca_bundle came from (messages name
                                            the flag or file:line), or NULL */
    const struct smfw_net_config *net; /**< resolved TLS/proxy settings to use (borrowed, must
                                            outlive the client); NULL: the client resolves them */
} smfw_aws_options;

typedef struct smfw_aws_client smfw_aws_client;

/**
 * Fill options from the [aws] section of an smfw configuration (region,
 * profile, endpoint_url, ca_bundle, max_attempts, and config itself);
 * everything else zeroed.
 * The strings are borrowed from the configuration.
 */
SMFW_API void smfw_aws_options_from_config(const struct smfw_config *config,
                                           smfw_aws_options *opts);

/**
 * Resolve the TLS and proxy configuration a client with these options would
 * use (ca_bundle, AWS_CA_BUNDLE, the profile's ca_bundle; proxies from the
 * environment; include/smfw/net.h), for connections made beside the client.
 */
SMFW_API smfw_status smfw_aws_net_config_new(const smfw_aws_options *opts,
                                             struct smfw_net_config **out, smfw_error *err);

/** Make a client. Nothing is contacted yet; the TLS and proxy settings are resolved (a CA
 * bundle that cannot be read is SMFW_ERR_CONFIG). */
SMFW_API smfw_status smfw_aws_client_new(const smfw_aws_options *opts, smfw_aws_client **out,
                                         smfw_error *err);
SMFW_API void smfw_aws_client_free(smfw_aws_client *client);

/** The client's TLS and proxy configuration (lives as long as the client). */
SMFW_API const struct smfw_net_config *smfw_aws_client_net(const smfw_aws_client *client);

/**
 * The region (resolved on first call). With none configured: SMFW_ERR_CONFIG
 * and a message saying how to set one. The string lives as long as the client.
 */
SMFW_API smfw_status smfw_aws_client_region(smfw_aws_client *client, const char **region,
                                            smfw_error *err);

/**
 * Current credentials (resolved through the provider chain on first call;
 * refreshed before they expire). The snapshot is immutable; release it with
 * smfw_aws_credentials_release(). Thread-safe.
 */
SMFW_API smfw_status smfw_aws_client_credentials(smfw_aws_client *client,
                                                 const smfw_aws_credentials **creds,
                                                 smfw_error *err);
SMFW_API void smfw_aws_credentials_release(const smfw_aws_credentials *creds);

/** Force a refresh (after an ExpiredToken error). */
SMFW_API smfw_status smfw_aws_client_refresh_credentials(smfw_aws_client *client, smfw_error *err);

/**
 * Base URL for a service ("sagemaker", "runtime.sagemaker", "s3", "sts",
 * "monitoring", "iam", "application-autoscaling", "sso", "sso-oidc", "batch"), honouring
 * AWS_ENDPOINT_URL_<SERVICE>, AWS_ENDPOINT_URL, the profile's endpoint_url and
 * the explicit option, else resolved by the service's endpoint rule set
 * (partition, FIPS, dual-stack; docs/aws.md). Writes e.g.
 * "https://api.sagemaker.us-east-1.amazonaws.com" (no trailing '/').
 * *overridden is set to 1 when the URL came from an override (S3 then uses
 * path-style addressing).
 */
SMFW_API smfw_status smfw_aws_client_endpoint(smfw_aws_client *client, const char *service,
                                              char *url, size_t url_size, int *overridden,
                                              smfw_error *err);

/** Current clock-skew correction in seconds (server time - local time). */
SMFW_API int64_t smfw_aws_client_clock_offset(smfw_aws_client *client);

/**
 * The clock skew measured at the last AWS response: its Date header minus the
 * local time, in seconds (1 s resolution). Returns 0 before any response
 * carried a Date header, else 1 with *skew_s set.
 */
SMFW_API int smfw_aws_client_measured_skew(smfw_aws_client *client, int64_t *skew_s);

/**
 * Where the region came from, once smfw_aws_client_region() resolved it: "the
 * --region option", "AWS_REGION", "AWS_DEFAULT_REGION", "the AWS config file"
 * or "EC2 instance metadata"; NULL before. A static string.
 */
SMFW_API const char *smfw_aws_client_region_source(smfw_aws_client *client);

/** The AWS profile the client reads (option, AWS_DEFAULT_PROFILE, AWS_PROFILE, "default"). */
SMFW_API const char *smfw_aws_client_profile_name(const smfw_aws_client *client);

/** A service's resolved endpoint: where calls go and how they are signed. */
typedef struct smfw_aws_endpoint_info {
    char url[1024];          /**< no trailing '/' */
    char signing_region[64]; /**< the region in the SigV4 scope */
    char signing_name[64];   /**< the service name in the SigV4 scope */
    int overridden;          /**< the URL came from an override (--endpoint-url, AWS_ENDPOINT_URL*,
                                the profile's endpoint_url or services section) */
    int fips;                /**< FIPS was asked (and applied: 0 with an override) */
    int dualstack;           /**< dual-stack was asked (and applied: 0 with an override) */
} smfw_aws_endpoint_info;

/**
 * Resolve `service` (the ids of smfw_aws_client_endpoint) as the client's calls
 * do, with the signing region and name. Nothing is contacted; the region is
 * resolved first (instance metadata only when no_imds is off and nothing else
 * names a region).
 */
SMFW_API smfw_status smfw_aws_client_endpoint_info(smfw_aws_client *client, const char *service,
                                                   smfw_aws_endpoint_info *out, smfw_error *err);

/**
 * Sign a request for `service` (signing name) with the client's current
 * credentials, region and clock offset: the cheap path for load generators.
 * Thread-safe; the signing key is cached per day.
 */
SMFW_API smfw_status smfw_aws_client_sign(smfw_aws_client *client, const char *signing_name,
                                          const smfw_sigv4_request *req, unsigned flags,
                                          smfw_sigv4_signature *out, smfw_error *err);

/* ---- awsJson (SageMaker 1.1, CloudWatch 1.0, Application Auto Scaling 1.1) ---- */

/** Which awsJson service to call. */
typedef struct smfw_aws_json_service {
    const char *endpoint_id;   /**< "sagemaker", "monitoring", "application-autoscaling" */
    const char *signing_name;  /**< "sagemaker", "monitoring", "application-autoscaling" */
    const char *target_prefix; /**< "SageMaker", "GraniteServiceVersion20100801",
                                  "AnyScaleFrontendService" */
    const char *json_version;  /**< "1.1" or "1.0" */
} smfw_aws_json_service;

SMFW_API extern const smfw_aws_json_service smfw_aws_sagemaker;
SMFW_API extern const smfw_aws_json_service smfw_aws_cloudwatch;
SMFW_API extern const smfw_aws_json_service smfw_aws_autoscaling;

/**
 * POST one awsJson operation with `request_json` ("{}" when NULL) and return
 * the response body in *response_json (malloc'd; free()). Retries per the
 * standard mode. Errors carry the `__type` code.
 */
SMFW_API smfw_status smfw_aws_json_call(smfw_aws_client *client,
                                        const smfw_aws_json_service *service, const char *operation,
                                        const char *request_json, char **response_json,
                                        smfw_error *err);

/**
 * smfw_aws_json_call() with a jansson request (borrowed; NULL sends "{}") and the answer
 * parsed into *response (a new reference to an object; NULL discards it). An answer that is
 * not a JSON object is SMFW_ERR_PROTOCOL naming the service and operation.
 */
struct json_t;
SMFW_API smfw_status smfw_aws_json_call_tree(smfw_aws_client *client,
                                             const smfw_aws_json_service *service,
                                             const char *operation, const struct json_t *request,
                                             struct json_t **response, smfw_error *err);

/** Where this machine runs on EC2, from its instance metadata. */
typedef struct smfw_aws_placement {
    char region[32];            /**< "eu-west-1" */
    char availability_zone[48]; /**< "eu-west-1b" */
} smfw_aws_placement;

/**
 * This machine's EC2 region and availability zone from instance metadata (IMDSv2, IMDSv1
 * where the profile allows it), each request given at most timeout_ms and no retry: on EC2
 * the service answers in a millisecond, elsewhere nothing does. SMFW_ERR_NOT_FOUND when not
 * on EC2, when it does not answer in time, or when metadata is disabled
 * (AWS_EC2_METADATA_DISABLED=true, smfw_aws_options.no_imds: then nothing is sent);
 * SMFW_ERR_PROTOCOL when an answer is not a region or zone name.
 */
SMFW_API smfw_status smfw_aws_placement_get(smfw_aws_client *client, long timeout_ms,
                                            smfw_aws_placement *out, smfw_error *err);

/**
 * What smfw_aws_json_pages() does after a page: 0 asks for the next one, 1 stops (the caller
 * has what it wanted), -1 stops with *err set.
 */
typedef int (*smfw_aws_json_page_fn)(void *user, struct json_t *page, smfw_error *err);

/**
 * A paginated awsJson operation (NextToken in the request and the answer) page after page:
 * `request` (borrowed, not changed) is sent, then a copy with each answer's NextToken, every
 * answer going to `each`, until an answer has no NextToken or `each` stops. The listing is
 * the service's, so it is guarded (smfw_pager: a repeated token, more than
 * bundle.max_list_pages pages or bundle.max_list_bytes): SMFW_ERR_PROTOCOL naming the
 * operation. *more (when not NULL) is 1 when `each` stopped while a NextToken remained.
 */
SMFW_API smfw_status smfw_aws_json_pages(smfw_aws_client *client,
                                         const smfw_aws_json_service *service,
                                         const char *operation, const struct json_t *request,
                                         smfw_aws_json_page_fn each, void *user, int *more,
                                         smfw_error *err);

/* ---- restJson (AWS Batch) ---- */

/** Which restJson service to call. */
typedef struct smfw_aws_rest_json_service {
    const char *endpoint_id;  /**< for smfw_aws_client_endpoint: "batch" */
    const char *signing_name; /**< SigV4 service name: "batch" */
    const char *label;        /**< in messages: "AWS Batch" */
} smfw_aws_rest_json_service;

SMFW_API extern const smfw_aws_rest_json_service smfw_aws_batch;

/**
 * Send one restJson operation: `method` to `request_uri` (the model's
 * http.requestUri with its labels filled, percent-encoded; may carry a
 * "?query") with `request_json` as the body (sent as application/json; NULL:
 * no body), and return the response body in *response_json (malloc'd, "{}"
 * when empty; free()). Signed, retried and addressed like every call of the
 * client. Errors carry the code of the x-amzn-ErrorType header, else the
 * body's `code`/`__type`, as botocore reads restJson errors.
 */
SMFW_API smfw_status smfw_aws_rest_json_call(smfw_aws_client *client,
                                             const smfw_aws_rest_json_service *service,
                                             const char *operation, const char *method,
                                             const char *request_uri, const char *request_json,
                                             char **response_json, smfw_error *err);

/* ---- STS ---- */

typedef struct smfw_aws_identity {
    char account[16];
    char arn[2048];
    char user_id[256];
} smfw_aws_identity;

/** STS GetCallerIdentity (cached by the client after the first success). */
SMFW_API smfw_status smfw_aws_sts_get_caller_identity(smfw_aws_client *client,
                                                      smfw_aws_identity *out, smfw_error *err);

/* ---- S3 (path-style when the endpoint is overridden) ---- */

typedef struct smfw_aws_s3_object {
    char key[1025];
    int64_t size;
    char etag[130];
    char last_modified[40];
    char content_type[256]; /**< HeadObject only */
} smfw_aws_s3_object;

/**
 * Split "s3://BUCKET[/KEY]" into its bucket and key (the key as written, "" when there is
 * none). SMFW_ERR_USAGE (exit 1) naming the URI when it is not s3://, names no bucket, or
 * a part does not fit its buffer.
 */
SMFW_API smfw_status smfw_aws_s3_uri_split(const char *uri, char *bucket, size_t bucket_size,
                                           char *key, size_t key_size, smfw_error *err);

/**
 * Upload the file at `path`: PutObject, or from smfw_aws_s3_upload_file's
 * default threshold (8 MiB) a multipart upload.
 */
SMFW_API smfw_status smfw_aws_s3_put_object_file(smfw_aws_client *client, const char *bucket,
                                                 const char *key, const char *path,
                                                 const char *content_type, smfw_error *err);
/** Settings of smfw_aws_s3_upload_file; zero fields take the AWS CLI's defaults. */
typedef struct smfw_aws_s3_upload_options {
    int64_t multipart_threshold; /**< files this size or larger go multipart (8 MiB) */
    int64_t part_size; /**< bytes per part (8 MiB; at least 5 MiB, grown to fit 10,000 parts) */
    const char *content_type;            /**< application/octet-stream */
    const volatile sig_atomic_t *cancel; /**< non-zero between parts: abort the upload */
} smfw_aws_s3_upload_options;

/**
 * Upload a file to s3://bucket/key: below the threshold one PutObject, else
 * CreateMultipartUpload, UploadPart for each part (each streamed from its
 * range of the file with its x-amz-checksum-crc32, checked against the one S3
 * computes) and CompleteMultipartUpload (a 200 answer carrying an <Error> is
 * retried as a server error, as botocore does). After a failure or a cancel
 * once the upload exists, AbortMultipartUpload is sent so no parts stay
 * stored; if that fails too the message says how to remove them. `out` (may
 * be NULL) gets key, size and ETag ("...-N" for N parts). SMFW_ERR_CANCELLED
 * when `cancel` was set.
 */
SMFW_API smfw_status smfw_aws_s3_upload_file(smfw_aws_client *client, const char *bucket,
                                             const char *key, const char *path,
                                             const smfw_aws_s3_upload_options *opts,
                                             smfw_aws_s3_object *out, smfw_error *err);
/** PutObject from memory. */
SMFW_API smfw_status smfw_aws_s3_put_object(smfw_aws_client *client, const char *bucket,
                                            const char *key, const void *data, size_t len,
                                            const char *content_type, smfw_error *err);
/**
 * Downloads (GetObject into a file) in progress or started later are abandoned
 * within about a second once `*cancel` is non-zero (a Ctrl-C handler's flag),
 * their partial file deleted, with SMFW_ERR_CANCELLED. NULL (the default) turns
 * this off. Process-wide: one command owns the terminal's Ctrl-C.
 */
SMFW_API void smfw_aws_set_download_cancel(const volatile sig_atomic_t *cancel);
/** GetObject streamed into a new file at `path` (replaced only on success). */
SMFW_API smfw_status smfw_aws_s3_get_object_file(smfw_aws_client *client, const char *bucket,
                                                 const char *key, const char *path,
                                                 smfw_error *err);
/** HeadObject: SMFW_ERR_NOT_FOUND when missing. */
SMFW_API smfw_status smfw_aws_s3_head_object(smfw_aws_client *client, const char *bucket,
                                             const char *key, smfw_aws_s3_object *out,
                                             smfw_error *err);
/** Called for each listed object; return non-zero to stop listing. */
typedef int (*smfw_aws_s3_list_cb)(const smfw_aws_s3_object *object, void *user);
/** ListObjectsV2 over all pages under `prefix` (may be NULL). */
SMFW_API smfw_status smfw_aws_s3_list_objects(smfw_aws_client *client, const char *bucket,
                                              const char *prefix, smfw_aws_s3_list_cb cb,
                                              void *user, smfw_error *err);
/** HeadBucket (with x-amz-expected-bucket-owner when expected_owner is set). */
SMFW_API smfw_status smfw_aws_s3_head_bucket(smfw_aws_client *client, const char *bucket,
                                             const char *expected_owner, smfw_error *err);
/** CreateBucket in the client's region (LocationConstraint except in us-east-1). */
SMFW_API smfw_status smfw_aws_s3_create_bucket(smfw_aws_client *client, const char *bucket,
                                               smfw_error *err);

/* ---- IAM (awsQuery; the partition's endpoint and signing region, e.g. us-east-1) ---- */

/** GetRole: writes the role ARN. */
SMFW_API smfw_status smfw_aws_iam_get_role(smfw_aws_client *client, const char *role_name,
                                           char *arn, size_t arn_size, smfw_error *err);
/**
 * GetRole with the role's trust policy: *trust_policy receives the
 * AssumeRolePolicyDocument exactly as IAM returns it (URL-encoded JSON),
 * malloc'd (caller frees; NULL when the response has none).
 */
SMFW_API smfw_status smfw_aws_iam_get_role_trust(smfw_aws_client *client, const char *role_name,
                                                 char *arn, size_t arn_size, char **trust_policy,
                                                 smfw_error *err);
/** One action's verdict from SimulatePrincipalPolicy. */
typedef struct smfw_aws_iam_decision {
    char action[128];   /**< "sagemaker:InvokeEndpoint" */
    char resource[512]; /**< the resource ARN simulated ("*" for any) */
    char decision[32];  /**< "allowed", "explicitDeny" or "implicitDeny" */
} smfw_aws_iam_decision;

/**
 * IAM SimulatePrincipalPolicy: the identity policies of `policy_source_arn` (a
 * user, group or role ARN, with its path) evaluated for each of `actions` on
 * `resource` (NULL: "*"), all pages read. out[i] is actions[i]'s verdict
 * (n_actions entries; an action IAM did not answer for keeps an empty
 * decision). AccessDenied when the caller may not call it is SMFW_ERR_AUTH.
 */
SMFW_API smfw_status smfw_aws_iam_simulate_principal_policy(
    smfw_aws_client *client, const char *policy_source_arn, const char *const *actions,
    size_t n_actions, const char *resource, smfw_aws_iam_decision *out, smfw_error *err);

/** Called for each role of ListRoles (all pages); return non-zero to stop. */
typedef int (*smfw_aws_iam_role_cb)(const char *role_name, const char *arn, void *user);
SMFW_API smfw_status smfw_aws_iam_list_roles(smfw_aws_client *client, smfw_aws_iam_role_cb cb,
                                             void *user, smfw_error *err);

/* ---- Defaults for the managed backend ---- */

/** Account id from STS GetCallerIdentity. */
SMFW_API smfw_status smfw_aws_default_account(smfw_aws_client *client, char out[16],
                                              smfw_error *err);
/**
 * Bucket: `configured` if set, else SAGEMAKER_BUCKET, else
 * "sagemaker-<region>-<account>".
 */
SMFW_API smfw_status smfw_aws_default_bucket(smfw_aws_client *client, const char *configured,
                                             char *out, size_t out_size, smfw_error *err);
/**
 * SageMaker execution role: `configured`, else SAGEMAKER_ROLE_ARN, else the
 * caller's assumed role when its name contains "sagemaker" (any case), else
 * the first IAM role whose name contains "SageMaker" and "ExecutionRole" or
 * "execution"; else SMFW_ERR_CONFIG saying how to set it.
 */
SMFW_API smfw_status smfw_aws_default_execution_role(smfw_aws_client *client,
                                                     const char *configured, char *out,
                                                     size_t out_size, smfw_error *err);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_AWS_H */
