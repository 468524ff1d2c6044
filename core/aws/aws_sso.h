/*
 * aws_sso.h - IAM Identity Center (SSO) credentials as botocore resolves
 * them (internal): the profile's SSO settings (the `sso_session` form with
 * its [sso-session NAME] section, or the legacy sso_start_url/sso_region in
 * the profile), the cached token of `aws sso login`
 * (~/.aws/sso/cache/<sha1>.json), its refresh through SSO-OIDC CreateToken,
 * and the portal's GetRoleCredentials.
 */
#ifndef SMFW_AWS_SSO_H
#define SMFW_AWS_SSO_H

#include <stddef.h>

#include "aws/aws_internal.h"

/* A profile's resolved SSO settings (strings owned by the client's config). */
typedef struct aws_sso_config {
    const char *profile;
    const char *session; /* sso_session, or NULL for the legacy form */
    const char *start_url;
    const char *region;
    const char *account_id;
    const char *role_name;
} aws_sso_config;

/*
 * Role credentials of a profile configured for SSO (it has sso_account_id or
 * sso_role_name, as botocore decides): SMFW_DONE when it is not; a
 * configuration error names what is missing or inconsistent; a missing,
 * expired or refused token says to run `aws sso login --profile NAME`.
 */
smfw_status aws_sso_credentials(smfw_aws_client *c, const char *profile, aws_creds **out,
                                smfw_error *err);

/*
 * The access token for cfg from the token cache. For the sso_session form a
 * token expiring within 15 minutes (botocore's refresh window) is renewed
 * through SSO-OIDC CreateToken with the cached refresh token and written back
 * atomically (mode 0600), with the fields botocore writes. *token is malloc'd
 * and registered as a secret.
 */
smfw_status aws_sso_token_get(smfw_aws_client *c, const aws_sso_config *cfg, char **token,
                              smfw_error *err);

/* "$HOME/.aws/sso/cache/<lower-case hex SHA-1 of key>.json" (key: the session name, or
 * the start URL for the legacy form). */
smfw_status aws_sso_cache_path(const char *key, char *out, size_t size, smfw_error *err);

/*
 * Base URL of "sso" (the portal) or "sso-oidc" for the SSO region: an
 * override configured for the service wins (as for every service, see
 * aws_client_resolve_endpoint); otherwise the service's rule set is
 * evaluated for sso_region, not the client's region, as the SDKs build these
 * clients.
 */
smfw_status aws_sso_endpoint(smfw_aws_client *c, const char *service, const char *sso_region,
                             char *url, size_t size, smfw_error *err);

/* Append "; run `aws sso login --profile PROFILE`" to err's message; returns st. */
smfw_status aws_sso_login_hint(smfw_error *err, smfw_status st, const char *profile);

#endif
