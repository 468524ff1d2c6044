/*
 * aws_fake_env.h - a clean AWS environment for tests: every AWS_* variable
 * that changes the client's behaviour is unset, HOME points at a fresh
 * temporary directory and instance metadata is disabled.
 */
#ifndef SMFW_AWS_FAKE_ENV_H
#define SMFW_AWS_FAKE_ENV_H

#include <smfw/sigv4.h>

/* Reset the environment; returns the temp HOME (malloc'd; remove with aws_fake_rmdir). */
char *aws_fake_env_reset(void);

/* Verify a request received by the fake server with the SigV4 verifier. */
struct aws_fake_request;
smfw_sigv4_verdict aws_fake_verify(const struct aws_fake_request *req, const char *akid,
                                   const char *secret, const char *region, const char *service,
                                   unsigned flags, char *detail, size_t detail_size);

#endif
