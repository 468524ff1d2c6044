/*
 * net.h - the TLS and proxy configuration every connection of smfw uses
 * (AWS control plane, SageMaker Runtime, S3, STS/SSO, the OpenAI-compatible
 * HTTP path, dataset and tokenizer downloads), resolved once and applied to
 * each libcurl handle by one function, so what is printed is what is used.
 *
 * CA bundle: the given one (a flag or [aws] ca_bundle), else AWS_CA_BUNDLE,
 * else the AWS profile's ca_bundle, else the system's CAs. Proxies: as
 * botocore reads them (urllib's getproxies_environment): https URLs use
 * https_proxy, http URLs http_proxy, the lowercase variable winning over the
 * uppercase one (an empty lowercase one disables it); no_proxy/NO_PROXY is a
 * comma list of host suffixes (leading dots ignored, "host:port" entries
 * match that port only) or "*"; ALL_PROXY is not read. See docs/aws.md.
 */
#ifndef SMFW_NET_H
#define SMFW_NET_H

#include <stddef.h>

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smfw_net_config smfw_net_config;

/**
 * Resolve the configuration. `ca_bundle` (with `ca_from`, e.g. "--ca-bundle")
 * wins, then AWS_CA_BUNDLE, then `profile_ca` (with `profile_ca_from`, e.g.
 * "ca_bundle in the profile 'dev' of FILE"). A bundle that cannot be read is
 * SMFW_ERR_CONFIG naming the path and where it came from. Proxy URLs are
 * registered as secrets (their credentials are masked wherever shown).
 */
SMFW_API smfw_status smfw_net_config_new(const char *ca_bundle, const char *ca_from,
                                         const char *profile_ca, const char *profile_ca_from,
                                         smfw_net_config **out, smfw_error *err);
SMFW_API void smfw_net_config_free(smfw_net_config *net);

/** The CA bundle in use (NULL: the system's) and where it came from (*from may be NULL). */
SMFW_API const char *smfw_net_ca_bundle(const smfw_net_config *net, const char **from);

/**
 * The proxy for a request to `url` (NULL: connect directly) and the variable
 * it came from. The URL may hold credentials: show it only through
 * smfw_url_redact().
 */
SMFW_API const char *smfw_net_proxy_for(const smfw_net_config *net, const char *url,
                                        const char **from);

/**
 * Apply to a libcurl easy handle (CURL *) for requests to `url`: TLS
 * verification on, CURLOPT_CAINFO, and CURLOPT_PROXY set to the proxy or to
 * "" (direct) with CURLOPT_NOPROXY "", so libcurl's own reading of the
 * environment never decides. `net` NULL: system CAs, no proxy.
 */
SMFW_API void smfw_net_apply(const smfw_net_config *net, void *curl_easy, const char *url);

/** True when nothing is configured: the system's CAs, no proxy variable. */
SMFW_API int smfw_net_is_default(const smfw_net_config *net);

/**
 * One line for logs and `smfw config`: CA bundle and source, each proxy
 * (credentials masked) and source, no_proxy.
 */
SMFW_API void smfw_net_describe(const smfw_net_config *net, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
