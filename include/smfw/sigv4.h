/*
 * sigv4.h - AWS Signature Version 4: signing and verifying HTTP requests.
 *
 * The signer produces the headers to add to a request (X-Amz-Date, optional
 * X-Amz-Security-Token and X-Amz-Content-SHA256, Authorization). It is safe to
 * use one signer from many threads: the derived signing key (which depends on
 * the secret, the day, the region and the service) is cached inside it under a
 * lock, so signing a request costs two SHA-256 passes and one HMAC.
 *
 * The verifier recomputes the signature of a received request (smfw-mock) and
 * says which check failed, so a server can answer with the right AWS error.
 *
 * Paths and queries are given exactly as they appear on the wire (already
 * percent-encoded). Canonicalisation follows AWS's rules: non-S3 services
 * normalise the path and encode it a second time; S3 signs it as sent.
 */
#ifndef SMFW_SIGV4_H
#define SMFW_SIGV4_H

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One HTTP header (borrowed strings). */
typedef struct smfw_sigv4_header {
    const char *name;
    const char *value;
} smfw_sigv4_header;

/**
 * AWS credentials. When handed out by a credentials provider (aws.h) this is
 * an immutable, reference-counted snapshot: read it freely from any thread and
 * give it back with smfw_aws_credentials_release().
 */
typedef struct smfw_aws_credentials {
    const char *access_key_id;
    const char *secret_access_key;
    const char *session_token; /**< NULL for long-term keys */
    int64_t expiration;        /**< unix seconds; 0 = never expires */
    const char *account_id;    /**< NULL when the source did not say */
    const char *provider;      /**< where they came from ("environment", "process"...) */
} smfw_aws_credentials;

/** Signing options (bit flags). */
enum {
    /** Sign the path as sent: no `.`/`..` removal, no slash merging. */
    SMFW_SIGV4_NO_NORMALIZE_PATH = 1u << 0,
    /** Do not percent-encode the path a second time. */
    SMFW_SIGV4_NO_ENCODE_PATH = 1u << 1,
    /** Add and sign `X-Amz-Content-SHA256` holding the payload hash. */
    SMFW_SIGV4_CONTENT_SHA256 = 1u << 2,
    /** Payload hash is the literal `UNSIGNED-PAYLOAD` (S3 over HTTPS). */
    SMFW_SIGV4_UNSIGNED_PAYLOAD = 1u << 3,
    /**
     * Legacy variant: add X-Amz-Security-Token after signing (unsigned). Only
     * for the official test suite; AWS services expect the token signed.
     */
    SMFW_SIGV4_UNSIGNED_TOKEN = 1u << 4,
    /** S3 rules: path signed as sent and `X-Amz-Content-SHA256` always present. */
    SMFW_SIGV4_S3 = (1u << 0) | (1u << 1) | (1u << 2)
};

/** A request to sign or verify. Every pointer is borrowed for the call. */
typedef struct smfw_sigv4_request {
    const char *method;               /**< "GET", "POST"... */
    const char *path;                 /**< wire path, percent-encoded; NULL or "" means "/" */
    const char *query;                /**< wire query without '?'; NULL or "" for none */
    const smfw_sigv4_header *headers; /**< headers as sent; must include Host */
    size_t header_count;
    const void *body; /**< request body (hashed when payload_hash is NULL) */
    size_t body_len;
    /**
     * Lower-case hex SHA-256 of the body when already known (large uploads),
     * else NULL. Signing: used as the payload hash. Verifying: the hash of the
     * body actually received.
     */
    const char *payload_hash;
} smfw_sigv4_request;

/** Thread-safe signer bound to one region and signing name. */
typedef struct smfw_sigv4_signer smfw_sigv4_signer;

/** Make a signer for `region` / `service` (signing name: "sagemaker", "s3", ...). */
SMFW_API smfw_status smfw_sigv4_signer_new(const char *region, const char *service, unsigned flags,
                                           smfw_sigv4_signer **out, smfw_error *err);
SMFW_API void smfw_sigv4_signer_free(smfw_sigv4_signer *signer);

/** Region and signing name of a signer. */
SMFW_API const char *smfw_sigv4_signer_region(const smfw_sigv4_signer *signer);
SMFW_API const char *smfw_sigv4_signer_service(const smfw_sigv4_signer *signer);

/** Maximum number of headers smfw_sigv4_sign() adds. */
#define SMFW_SIGV4_MAX_ADDED 4

/**
 * The result of signing: headers to add to the request, plus the intermediate
 * strings (for logs and tests). All strings live inside the object until
 * smfw_sigv4_signature_free().
 */
typedef struct smfw_sigv4_signature {
    smfw_sigv4_header added[SMFW_SIGV4_MAX_ADDED]; /**< X-Amz-Date, ..., Authorization last */
    const char *lines[SMFW_SIGV4_MAX_ADDED];       /**< the same as "Name: value" lines */
    size_t added_count;
    const char *authorization;     /**< value of the Authorization header */
    const char *canonical_request; /**< exact bytes that were hashed */
    const char *string_to_sign;
    char amz_date[17];     /**< YYYYMMDD'T'HHMMSS'Z' */
    char payload_hash[65]; /**< hex SHA-256 or "UNSIGNED-PAYLOAD" */
    char signature[65];    /**< hex */
    char *storage_;        /**< internal */
} smfw_sigv4_signature;

/**
 * Sign `req` at `unix_time` (seconds, UTC; pass the clock-skew-corrected time)
 * with `creds`, flags of the signer ORed with `extra_flags`. Headers that the
 * signer generates (Authorization, X-Amz-Date, Date, and X-Amz-Security-Token /
 * X-Amz-Content-SHA256 when it adds them) are ignored if present in req, so a
 * retry can pass the previous list. Hop-by-hop headers (Connection, Expect,
 * Transfer-Encoding, User-Agent, ...) are never signed.
 */
SMFW_API smfw_status smfw_sigv4_sign(smfw_sigv4_signer *signer, const smfw_aws_credentials *creds,
                                     const smfw_sigv4_request *req, unsigned extra_flags,
                                     int64_t unix_time, smfw_sigv4_signature *out, smfw_error *err);

/** Release what smfw_sigv4_sign() stored (safe on a zeroed or freed object). */
SMFW_API void smfw_sigv4_signature_free(smfw_sigv4_signature *sig);

/** Format unix seconds as an X-Amz-Date value (buffer of at least 17 bytes). */
SMFW_API void smfw_sigv4_format_time(int64_t unix_time, char out[17]);

/** Parse an X-Amz-Date value; returns 0 and sets *unix_time, or -1. */
SMFW_API int smfw_sigv4_parse_time(const char *amz_date, int64_t *unix_time);

/** Outcome of smfw_sigv4_verify(), one value per check, in the order they run. */
typedef enum smfw_sigv4_verdict {
    SMFW_SIGV4_VALID = 0,
    SMFW_SIGV4_MISSING_AUTH,           /**< no Authorization header (MissingAuthenticationToken) */
    SMFW_SIGV4_MALFORMED_AUTH,         /**< unparsable Authorization (IncompleteSignature) */
    SMFW_SIGV4_MISSING_DATE,           /**< no valid X-Amz-Date (IncompleteSignature) */
    SMFW_SIGV4_UNSIGNED_REQUIRED,      /**< host / x-amz-date / token / content hash not signed */
    SMFW_SIGV4_UNKNOWN_KEY,            /**< lookup_secret returned NULL (InvalidAccessKeyId...) */
    SMFW_SIGV4_WRONG_SCOPE_DATE,       /**< credential scope date differs from X-Amz-Date */
    SMFW_SIGV4_WRONG_REGION,           /**< scope region is not the expected one */
    SMFW_SIGV4_WRONG_SERVICE,          /**< scope service is not the expected one */
    SMFW_SIGV4_SKEWED,                 /**< X-Amz-Date outside the allowed window */
    SMFW_SIGV4_MISSING_CONTENT_SHA256, /**< S3 rules and no x-amz-content-sha256 */
    SMFW_SIGV4_PAYLOAD_MISMATCH,       /**< x-amz-content-sha256 differs from the body */
    SMFW_SIGV4_SIGNATURE_MISMATCH      /**< recomputed signature differs */
} smfw_sigv4_verdict;

/** Stable name of a verdict ("signature-mismatch"...). */
SMFW_API const char *smfw_sigv4_verdict_name(smfw_sigv4_verdict verdict);

/** Returns the secret key for an access key id, or NULL when unknown. */
typedef const char *(*smfw_sigv4_secret_lookup)(void *user, const char *access_key_id);

/** What the verifier checks against. */
typedef struct smfw_sigv4_verify_params {
    const char *region;  /**< expected scope region; NULL accepts any */
    const char *service; /**< expected signing name; NULL accepts any */
    unsigned flags;      /**< SMFW_SIGV4_S3 for S3 requests, else 0 */
    int64_t now;         /**< server time, unix seconds */
    int64_t max_skew_s;  /**< allowed |X-Amz-Date - now|; 0 means 900 (15 min) */
    smfw_sigv4_secret_lookup lookup_secret;
    void *user;
} smfw_sigv4_verify_params;

/** Details of a verification; free with smfw_sigv4_verify_result_free(). */
typedef struct smfw_sigv4_verify_result {
    smfw_sigv4_verdict verdict;
    char access_key_id[129];
    char scope_date[9];
    char scope_region[64];
    char scope_service[64];
    char amz_date[17];
    int64_t request_time;      /**< parsed X-Amz-Date (0 if missing) */
    const char *session_token; /**< X-Amz-Security-Token as received (borrowed), or NULL */
    char provided_signature[65];
    char expected_signature[65];
    char *canonical_request; /**< heap; set when the signature was recomputed */
    char *string_to_sign;    /**< heap; likewise (for S3's SignatureDoesNotMatch body) */
    char detail[256];        /**< one sentence saying what failed */
} smfw_sigv4_verify_result;

/**
 * Verify the SigV4 Authorization header of a received request. Only the
 * headers named in SignedHeaders are used. Comparison is constant-time.
 * Returns the verdict (also stored in out->verdict).
 */
SMFW_API smfw_sigv4_verdict smfw_sigv4_verify(const smfw_sigv4_request *req,
                                              const smfw_sigv4_verify_params *params,
                                              smfw_sigv4_verify_result *out);
SMFW_API void smfw_sigv4_verify_result_free(smfw_sigv4_verify_result *result);

/** Lower-case hex SHA-256 of `len` bytes (out: 65 bytes). */
SMFW_API void smfw_sha256_hex(const void *data, size_t len, char out[65]);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_SIGV4_H */
