/*
 * sigv4_internal.h - SigV4 building blocks shared by the signer, the
 * verifier and the tests (internal).
 */
#ifndef SMFW_SIGV4_INTERNAL_H
#define SMFW_SIGV4_INTERNAL_H

#include <smfw/sigv4.h>

#include "aws/aws_text.h"

/* Headers SDKs never sign (proxies and libcurl may change them). lname is lower case. */
int aws_sigv4_unsignable(const char *lname);

/* Canonical URI of a wire path under `flags`. */
void aws_sigv4_canonical_uri(smfw_buf *out, const char *path, unsigned flags);

/* Canonical query string of a wire query (NULL or "" gives ""). */
int aws_sigv4_canonical_query(smfw_buf *out, const char *query);

/*
 * Canonical request from exactly the headers to sign (hdrs), with the given
 * payload hash. Also writes the SignedHeaders list. Returns 0 or -1 (memory).
 */
int aws_sigv4_canonical_request(smfw_buf *creq, smfw_buf *signed_headers, const char *method,
                                const char *path, const char *query, const smfw_sigv4_header *hdrs,
                                size_t n, const char *payload_hash, unsigned flags);

/* String to sign for an amz_date, scope and canonical request. */
void aws_sigv4_string_to_sign(smfw_buf *out, const char *amz_date, const char *region,
                              const char *service, const char *canonical_request, size_t creq_len);

/* kSigning = HMAC chain of secret, date (YYYYMMDD), region, service. */
void aws_sigv4_signing_key(const char *secret, const char *date8, const char *region,
                           const char *service, unsigned char key[32]);

/* Hex HMAC-SHA256 of data with a 32-byte key. */
void aws_sigv4_hmac_hex(const unsigned char key[32], const char *data, size_t len, char out[65]);

/* Case-insensitive header lookup (first match), or NULL. */
const char *aws_sigv4_find_header(const smfw_sigv4_header *hdrs, size_t n, const char *name);

#endif
