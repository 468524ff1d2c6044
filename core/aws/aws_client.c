/*
 * aws_client.c - the AWS client: options, shared config files, region,
 * endpoints, signing, and the call pipeline (sign, send, standard-mode
 * retries with a retry quota, clock-skew correction, expired-token refresh).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "aws/aws_endpoint_data.h"
#include "aws/aws_endpoint_rules.h"
#include "aws/aws_internal.h"

#define RETRY_QUOTA        500
#define RETRY_COST         5
#define RETRY_TIMEOUT_COST 10
#define BACKOFF_CAP_MS     20000
#define SKEW_THRESHOLD_S   300

const char *aws_getenv(const char *name) {
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static char *dup_opt(const char *s) {
    return s && *s ? strdup(s) : NULL;
}

smfw_status smfw_aws_client_new(const smfw_aws_options *opts, smfw_aws_client **out,
                                smfw_error *err) {
    smfw_aws_options none;
    memset(&none, 0, sizeof(none));
    if (!opts) opts = &none;
    *out = NULL;
    smfw_aws_client *c = calloc(1, sizeof(*c));
    if (!c) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory creating the AWS client");
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->creds_lock, NULL);
    pthread_mutex_init(&c->refresh_lock, NULL);
    c->opt_region = dup_opt(opts->region);
    c->opt_profile = dup_opt(opts->profile);
    c->opt_endpoint_url = dup_opt(opts->endpoint_url);
    c->opt_ca_bundle = dup_opt(opts->ca_bundle);
    c->max_attempts = opts->max_attempts;
    c->refresh_margin_s = opts->refresh_margin_s > 0 ? opts->refresh_margin_s : 600;
    c->no_imds = opts->no_imds;
    c->retry_tokens = RETRY_QUOTA;
    const char *p = c->opt_profile;
    c->profile_explicit = p != NULL;
    if (!p) p = aws_getenv("AWS_DEFAULT_PROFILE");
    if (!p) p = aws_getenv("AWS_PROFILE");
    c->profile = strdup(p ? p : "default");

    smfw_status st = aws_client_load_files(c, err);
    if (st != SMFW_OK) {
        smfw_aws_client_free(c);
        return st;
    }
    if (c->max_attempts <= 0) {
        const char *v = aws_getenv("AWS_MAX_ATTEMPTS");
        if (!v) v = aws_profile_get(c, NULL, "max_attempts");
        c->max_attempts = v ? atoi(v) : 3;
        if (c->max_attempts <= 0) {
            smfw_aws_client_free(c);
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "AWS max_attempts must be a positive integer, not '%s'", v);
        }
    }
    const char *ca = c->opt_ca_bundle;
    if (!ca) ca = aws_getenv("AWS_CA_BUNDLE");
    if (!ca) ca = aws_profile_get(c, NULL, "ca_bundle");
    st = aws_http_new(ca, opts->connect_timeout_ms, opts->timeout_ms, &c->http, err);
    if (st != SMFW_OK) {
        smfw_aws_client_free(c);
        return st;
    }
    *out = c;
    return SMFW_OK;
}

void smfw_aws_client_free(smfw_aws_client *c) {
    if (!c) return;
    aws_http_free(c->http);
    aws_ini_free(c->config);
    aws_ini_free(c->credfile);
    if (c->creds) aws_creds_unref(c->creds);
    for (int i = 0; i < c->nsigners; i++) smfw_sigv4_signer_free(c->signers[i]);
    free(c->opt_region);
    free(c->opt_profile);
    free(c->opt_endpoint_url);
    free(c->opt_ca_bundle);
    free(c->profile);
    free(c->region);
    pthread_mutex_destroy(&c->lock);
    pthread_mutex_destroy(&c->creds_lock);
    pthread_mutex_destroy(&c->refresh_lock);
    free(c);
}

static char *home_path(const char *rel) {
    const char *home = aws_getenv("HOME");
    char *p = NULL;
    if (!home || asprintf(&p, "%s/%s", home, rel) < 0) return NULL;
    return p;
}

smfw_status aws_client_load_files(smfw_aws_client *c, smfw_error *err) {
    if (c->files_loaded) return SMFW_OK;
    const char *cfg = aws_getenv("AWS_CONFIG_FILE");
    const char *cred = aws_getenv("AWS_SHARED_CREDENTIALS_FILE");
    char *cfg_default = cfg ? NULL : home_path(".aws/config");
    char *cred_default = cred ? NULL : home_path(".aws/credentials");
    smfw_status st = SMFW_OK;
    if (cfg || cfg_default) st = aws_ini_load(cfg ? cfg : cfg_default, &c->config, err);
    if (st == SMFW_OK && (cred || cred_default))
        st = aws_ini_load(cred ? cred : cred_default, &c->credfile, err);
    free(cfg_default);
    free(cred_default);
    if (st == SMFW_OK) c->files_loaded = 1;
    /* A profile named explicitly must exist somewhere. */
    if (st == SMFW_OK && c->profile_explicit) {
        char sec[512];
        snprintf(sec, sizeof(sec), "profile %s", c->profile);
        if (!aws_ini_has_section(c->config, sec) && !aws_ini_has_section(c->credfile, c->profile) &&
            !(strcmp(c->profile, "default") == 0 && aws_ini_has_section(c->config, "default")))
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "the AWS profile '%s' is not in the AWS config or credentials "
                                "file",
                                c->profile);
    }
    return st;
}

const char *aws_profile_get(smfw_aws_client *c, const char *profile, const char *key) {
    if (!profile) profile = c->profile;
    char sec[512];
    snprintf(sec, sizeof(sec), "profile %s", profile);
    const char *v = aws_ini_get(c->config, sec, key);
    if (!v && strcmp(profile, "default") == 0) v = aws_ini_get(c->config, "default", key);
    return v && *v ? v : NULL;
}

const char *aws_credfile_get(smfw_aws_client *c, const char *profile, const char *key) {
    const char *v = aws_ini_get(c->credfile, profile ? profile : c->profile, key);
    return v && *v ? v : NULL;
}

/* ---- region ---- */

static int valid_region(const char *r) {
    if (!r || !*r || strlen(r) > 40) return 0;
    for (const char *p = r; *p; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-') return 0;
    return 1;
}

smfw_status smfw_aws_client_region(smfw_aws_client *c, const char **region, smfw_error *err) {
    pthread_mutex_lock(&c->lock);
    if (c->region) {
        *region = c->region;
        pthread_mutex_unlock(&c->lock);
        return SMFW_OK;
    }
    pthread_mutex_unlock(&c->lock);
    const char *from = "the --region option";
    const char *r = c->opt_region;
    if (!r && (r = aws_getenv("AWS_REGION"))) from = "AWS_REGION";
    if (!r && (r = aws_getenv("AWS_DEFAULT_REGION"))) from = "AWS_DEFAULT_REGION";
    if (!r && (r = aws_profile_get(c, NULL, "region"))) from = "the AWS config file";
    char *imds = NULL;
    if (!r && !c->no_imds) {
        smfw_error ierr;
        if (aws_imds_get(c, "/latest/meta-data/placement/region", &imds, &ierr) == SMFW_OK) {
            r = imds;
            from = "EC2 instance metadata";
        }
    }
    if (!r) {
        free(imds);
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "no AWS region is configured: pass --region REGION, set AWS_REGION "
                              "(or AWS_DEFAULT_REGION), or add 'region = REGION' to the profile "
                              "'%s' in ~/.aws/config",
                              c->profile);
    }
    if (!valid_region(r)) {
        smfw_status st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                        "the AWS region '%s' from %s is not a region name "
                                        "(like us-east-1)",
                                        r, from);
        free(imds);
        return st;
    }
    pthread_mutex_lock(&c->lock);
    if (!c->region) {
        c->region = strdup(r);
        SMFW_LOG_DEBUG("aws", "region %s (from %s)", r, from);
    }
    *region = c->region;
    pthread_mutex_unlock(&c->lock);
    free(imds);
    return *region ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

/* ---- endpoints ---- */

typedef struct service_info {
    const char *id;
    const char *env;          /* AWS_ENDPOINT_URL_<X> */
    const char *config_key;   /* key in a [services] section */
    const char *rules;        /* botocore's data folder (data/aws/<rules>/) */
    const char *signing_name; /* the service model's, when the rules give none */
} service_info;

static const service_info SERVICES[] = {
    {"sagemaker", "AWS_ENDPOINT_URL_SAGEMAKER", "sagemaker", "sagemaker", "sagemaker"},
    {"runtime.sagemaker", "AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME", "sagemaker_runtime",
     "sagemaker-runtime", "sagemaker"},
    {"s3", "AWS_ENDPOINT_URL_S3", "s3", "s3", "s3"},
    {"sts", "AWS_ENDPOINT_URL_STS", "sts", "sts", "sts"},
    {"monitoring", "AWS_ENDPOINT_URL_CLOUDWATCH", "cloudwatch", "cloudwatch", "monitoring"},
    {"iam", "AWS_ENDPOINT_URL_IAM", "iam", "iam", "iam"},
    {"application-autoscaling", "AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING",
     "application_auto_scaling", "application-autoscaling", "application-autoscaling"},
    {"sso", "AWS_ENDPOINT_URL_SSO", "sso", "sso", "awsssoportal"},
    {"sso-oidc", "AWS_ENDPOINT_URL_SSO_OIDC", "sso_oidc", "sso-oidc", "sso-oauth"},
};
_Static_assert(sizeof(SERVICES) / sizeof(SERVICES[0]) <= AWS_MAX_ENDPOINTS,
               "one endpoint cache slot per service");

static int env_true(const char *name) {
    const char *v = aws_getenv(name);
    return v && strcasecmp(v, "true") == 0;
}

static smfw_status put_url(char *url, size_t size, const char *v, const char *from,
                           smfw_error *err) {
    if (strncasecmp(v, "http://", 7) != 0 && strncasecmp(v, "https://", 8) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "the endpoint URL '%s' from %s must start with http:// or https://",
                              v, from);
    size_t l = strlen(v);
    while (l && v[l - 1] == '/') l--;
    if (l >= size)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "the endpoint URL from %s is too long", from);
    memcpy(url, v, l);
    url[l] = '\0';
    return SMFW_OK;
}

/* The configured override URL, if any (*found = 1), in the AWS CLI's order. */
static smfw_status endpoint_override(smfw_aws_client *c, const service_info *si, char *url,
                                     size_t url_size, int *found, smfw_error *err) {
    *found = 1;
    if (c->opt_endpoint_url)
        return put_url(url, url_size, c->opt_endpoint_url, "--endpoint-url", err);
    if (!env_true("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS") &&
        !(aws_profile_get(c, NULL, "ignore_configured_endpoint_urls") &&
          strcasecmp(aws_profile_get(c, NULL, "ignore_configured_endpoint_urls"), "true") == 0)) {
        const char *v;
        if ((v = aws_getenv(si->env))) return put_url(url, url_size, v, si->env, err);
        if ((v = aws_getenv("AWS_ENDPOINT_URL")))
            return put_url(url, url_size, v, "AWS_ENDPOINT_URL", err);
        const char *services = aws_profile_get(c, NULL, "services");
        if (services) {
            char sec[512], key[128];
            snprintf(sec, sizeof(sec), "services %s", services);
            snprintf(key, sizeof(key), "%s.endpoint_url", si->config_key);
            v = aws_ini_get(c->config, sec, key);
            if (v && *v) return put_url(url, url_size, v, "the AWS config file", err);
        }
        if ((v = aws_profile_get(c, NULL, "endpoint_url")))
            return put_url(url, url_size, v, "the AWS config file", err);
    }
    *found = 0;
    return SMFW_OK;
}

/* A boolean setting: the environment wins over the profile (botocore's ensure_boolean). */
static int setting_true(smfw_aws_client *c, const char *env, const char *key) {
    const char *v = aws_getenv(env);
    if (!v) v = aws_profile_get(c, NULL, key);
    return v && strcasecmp(v, "true") == 0;
}

static const char *setting(smfw_aws_client *c, const char *env, const char *key) {
    const char *v = aws_getenv(env);
    return v ? v : aws_profile_get(c, NULL, key);
}

/* botocore's LEGACY_GLOBAL_STS_REGIONS: sts_regional_endpoints=legacy sends these to
 * sts.amazonaws.com. */
static int legacy_global_sts_region(const char *r) {
    static const char *const regions[] = {
        "ap-northeast-1", "ap-south-1",   "ap-southeast-1", "ap-southeast-2",
        "aws-global",     "ca-central-1", "eu-central-1",   "eu-north-1",
        "eu-west-1",      "eu-west-2",    "eu-west-3",      "sa-east-1",
        "us-east-1",      "us-east-2",    "us-west-1",      "us-west-2"};
    for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]); i++)
        if (strcmp(r, regions[i]) == 0) return 1;
    return 0;
}

/* The rule set's inputs, as botocore computes its built-ins. */
static json_t *rule_inputs(smfw_aws_client *c, const char *region, const char *override, int fips,
                           int dualstack) {
    json_t *in = json_object();
    if (!in) return NULL;
    json_object_set_new(in, "AWS::Region", json_string(region));
    json_object_set_new(in, "AWS::UseFIPS", json_boolean(fips));
    json_object_set_new(in, "AWS::UseDualStack", json_boolean(dualstack));
    if (override) json_object_set_new(in, "SDK::Endpoint", json_string(override));
    const char *sts = setting(c, "AWS_STS_REGIONAL_ENDPOINTS", "sts_regional_endpoints");
    json_object_set_new(in, "AWS::STS::UseGlobalEndpoint",
                        json_boolean(!override && sts && strcmp(sts, "legacy") == 0 &&
                                     legacy_global_sts_region(region)));
    const char *s3 = aws_getenv("AWS_S3_US_EAST_1_REGIONAL_ENDPOINT");
    json_object_set_new(
        in, "AWS::S3::UseGlobalEndpoint",
        json_boolean(strcmp(region, "us-east-1") == 0 && !(s3 && strcmp(s3, "regional") == 0)));
    /* An override means path-style S3 addressing (botocore, and smfw before the rules). */
    json_object_set_new(in, "AWS::S3::ForcePathStyle", json_boolean(override != NULL));
    return in;
}

smfw_status aws_client_resolve_endpoint(smfw_aws_client *c, const char *service, aws_endpoint *out,
                                        smfw_error *err) {
    size_t idx = 0;
    const service_info *si = NULL;
    for (size_t i = 0; i < sizeof(SERVICES) / sizeof(SERVICES[0]); i++)
        if (strcmp(SERVICES[i].id, service) == 0) si = &SERVICES[(idx = i)];
    if (!si) return smfw_error_set(err, SMFW_ERR_INTERNAL, "unknown AWS service '%s'", service);
    memset(out, 0, sizeof(*out));
    char override[1024];
    int overridden = 0;
    smfw_status st = endpoint_override(c, si, override, sizeof(override), &overridden, err);
    if (st != SMFW_OK) return st;
    const char *region;
    smfw_error rerr;
    st = smfw_aws_client_region(c, &region, overridden ? &rerr : err);
    if (st != SMFW_OK && overridden) {
        /* An override needs no region to be known until something is signed. */
        aws_strlcpy(out->url, override, sizeof(out->url));
        aws_strlcpy(out->signing_name, si->signing_name, sizeof(out->signing_name));
        out->overridden = 1;
        return SMFW_OK;
    }
    if (st != SMFW_OK) return st;
    /* Like botocore: an override turns FIPS and dual-stack off (they name AWS's hosts). */
    int fips = !overridden && setting_true(c, "AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint");
    int ds = !overridden && setting_true(c, "AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint");
    json_t *in = rule_inputs(c, region, overridden ? override : NULL, fips, ds);
    char *key = in ? json_dumps(in, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    if (!key) {
        json_decref(in);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    pthread_mutex_lock(&c->lock);
    int hit = strcmp(c->endpoints[idx].key, key) == 0;
    if (hit) *out = c->endpoints[idx].ep;
    pthread_mutex_unlock(&c->lock);
    if (hit) {
        free(key);
        json_decref(in);
        return SMFW_OK;
    }
    const json_t *ruleset, *partitions;
    st = aws_endpoint_data_get(si->rules, &ruleset, &partitions, err);
    aws_rules_endpoint rep;
    memset(&rep, 0, sizeof(rep));
    int rule_error = 0;
    if (st == SMFW_OK) st = aws_rules_evaluate(ruleset, partitions, in, &rep, &rule_error, err);
    json_decref(in);
    aws_rules_signing sig;
    if (st == SMFW_OK) st = aws_rules_signing_of(&rep, &sig, err);
    if (st == SMFW_OK) {
        /* An override is used as given (trailing '/' dropped), as before the rules. */
        st = put_url(out->url, sizeof(out->url), overridden ? override : rep.url,
                     overridden ? "the configuration" : "the endpoint rules", err);
        aws_strlcpy(out->signing_region, sig.region[0] ? sig.region : region,
                    sizeof(out->signing_region));
        aws_strlcpy(out->signing_name, sig.name[0] ? sig.name : si->signing_name,
                    sizeof(out->signing_name));
        out->overridden = overridden;
    } else {
        smfw_error_prefix(err, "no %s endpoint for region %s%s%s", si->rules, region,
                          fips ? " with FIPS" : "",
                          ds ? (fips ? " and dual-stack" : " with dual-stack") : "");
    }
    aws_rules_endpoint_free(&rep);
    if (st == SMFW_OK && strlen(key) < sizeof(c->endpoints[idx].key)) {
        pthread_mutex_lock(&c->lock);
        aws_strlcpy(c->endpoints[idx].key, key, sizeof(c->endpoints[idx].key));
        c->endpoints[idx].ep = *out;
        pthread_mutex_unlock(&c->lock);
    }
    free(key);
    return st;
}

smfw_status smfw_aws_client_endpoint(smfw_aws_client *c, const char *service, char *url,
                                     size_t url_size, int *overridden, smfw_error *err) {
    aws_endpoint ep;
    smfw_status st = aws_client_resolve_endpoint(c, service, &ep, err);
    if (st != SMFW_OK) return st;
    if (overridden) *overridden = ep.overridden;
    if (strlen(ep.url) >= url_size)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "endpoint URL buffer too small");
    memcpy(url, ep.url, strlen(ep.url) + 1);
    return SMFW_OK;
}

int64_t smfw_aws_client_clock_offset(smfw_aws_client *c) {
    pthread_mutex_lock(&c->lock);
    int64_t o = c->clock_offset;
    pthread_mutex_unlock(&c->lock);
    return o;
}

/* ---- signing ---- */

static smfw_sigv4_signer *signer_for(smfw_aws_client *c, const char *region, const char *name,
                                     smfw_error *err) {
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->nsigners; i++) {
        if (strcmp(smfw_sigv4_signer_region(c->signers[i]), region) == 0 &&
            strcmp(smfw_sigv4_signer_service(c->signers[i]), name) == 0) {
            smfw_sigv4_signer *s = c->signers[i];
            pthread_mutex_unlock(&c->lock);
            return s;
        }
    }
    smfw_sigv4_signer *s = NULL;
    if (c->nsigners < AWS_MAX_SIGNERS && smfw_sigv4_signer_new(region, name, 0, &s, err) == SMFW_OK)
        c->signers[c->nsigners++] = s;
    else if (c->nsigners >= AWS_MAX_SIGNERS)
        smfw_error_set(err, SMFW_ERR_INTERNAL, "too many SigV4 signers in one client");
    pthread_mutex_unlock(&c->lock);
    return s;
}

smfw_status smfw_aws_client_sign(smfw_aws_client *c, const char *signing_name,
                                 const smfw_sigv4_request *req, unsigned flags,
                                 smfw_sigv4_signature *out, smfw_error *err) {
    const char *region;
    smfw_status st = smfw_aws_client_region(c, &region, err);
    if (st != SMFW_OK) return st;
    smfw_sigv4_signer *s = signer_for(c, region, signing_name, err);
    if (!s) return err ? err->status : SMFW_ERR_INTERNAL;
    const smfw_aws_credentials *creds;
    st = smfw_aws_client_credentials(c, &creds, err);
    if (st != SMFW_OK) return st;
    st = smfw_sigv4_sign(s, creds, req, flags, aws_now() + smfw_aws_client_clock_offset(c), out,
                         err);
    smfw_aws_credentials_release(creds);
    return st;
}

/* ---- call pipeline ---- */

static int sha256_file(FILE *f, char out[65]) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    size_t r;
    int rc = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 ? 0 : -1;
    while (rc == 0 && (r = fread(buf, 1, sizeof(buf), f)) > 0)
        if (EVP_DigestUpdate(ctx, buf, r) != 1) rc = -1;
    if (rc == 0 && (ferror(f) || EVP_DigestFinal_ex(ctx, md, &mdlen) != 1)) rc = -1;
    EVP_MD_CTX_free(ctx);
    rewind(f);
    if (rc == 0)
        for (unsigned int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
    return rc;
}

void aws_result_init(aws_result *r) {
    memset(r, 0, sizeof(*r));
    aws_http_response_init(&r->http);
}

void aws_result_free(aws_result *r) {
    aws_http_response_free(&r->http);
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Full jitter: uniform(0, 1) * min(base * 2^(i-1), 20 s). */
static long backoff_ms(int retry, int throttled) {
    long base = throttled ? 500 : 100; /* JS v3 bases; botocore's 1 s is slower */
    long cap = base;
    for (int i = 1; i < retry && cap < BACKOFF_CAP_MS; i++) cap *= 2;
    if (cap > BACKOFF_CAP_MS) cap = BACKOFF_CAP_MS;
    unsigned int r = 0;
    if (RAND_bytes((unsigned char *)&r, sizeof(r)) != 1) r = (unsigned int)rand();
    return (long)((double)r / 4294967296.0 * (double)cap);
}

static int quota_take(smfw_aws_client *c, int cost) {
    pthread_mutex_lock(&c->lock);
    int ok = c->retry_tokens >= cost;
    if (ok) c->retry_tokens -= cost;
    pthread_mutex_unlock(&c->lock);
    return ok;
}

static void quota_give(smfw_aws_client *c, int amount) {
    pthread_mutex_lock(&c->lock);
    c->retry_tokens += amount;
    if (c->retry_tokens > RETRY_QUOTA) c->retry_tokens = RETRY_QUOTA;
    pthread_mutex_unlock(&c->lock);
}

/* Adjust the clock offset from a Date header; returns 1 if it changed. */
static int update_clock(smfw_aws_client *c, const aws_http_response *resp) {
    char date[128];
    if (!aws_http_header(resp, "Date", date, sizeof(date))) return 0;
    int64_t server = aws_parse_http_date(date);
    if (server < 0) return 0;
    int64_t now = aws_now();
    int changed = 0;
    pthread_mutex_lock(&c->lock);
    int64_t diff = server - (now + c->clock_offset);
    if (diff >= SKEW_THRESHOLD_S || diff <= -SKEW_THRESHOLD_S) {
        c->clock_offset = server - now;
        changed = 1;
    }
    pthread_mutex_unlock(&c->lock);
    if (changed)
        SMFW_LOG_WARN("aws", "local clock differs from AWS by %lld s; correcting signatures",
                      (long long)(server - now));
    return changed;
}

static void uuid4(char out[37]) {
    unsigned char b[16];
    if (RAND_bytes(b, 16) != 1)
        for (int i = 0; i < 16; i++) b[i] = (unsigned char)rand();
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

static void fill_error(aws_result *res, const aws_call *call) {
    const aws_http_response *h = &res->http;
    char type[256], qerr[256], rid[128];
    memset(&res->error, 0, sizeof(res->error));
    if (call->protocol == AWS_PROTO_JSON)
        aws_error_parse_json(
            h->body.data, h->body.len, aws_http_header(h, "x-amzn-ErrorType", type, sizeof(type)),
            aws_http_header(h, "x-amzn-query-error", qerr, sizeof(qerr)), &res->error);
    else
        aws_error_parse_xml(h->body.data, h->body.len, &res->error);
    if (!res->error.code[0]) {
        /* Bodyless errors (HEAD): the status is the code, as the SDKs report it. */
        const char *code = h->status == 404   ? "NotFound"
                           : h->status == 403 ? "Forbidden"
                           : h->status == 301 ? "PermanentRedirect"
                           : h->status == 400 ? "BadRequest"
                           : h->status == 429 ? "TooManyRequestsException"
                                              : NULL;
        if (code)
            aws_strlcpy(res->error.code, code, sizeof(res->error.code));
        else /* like botocore: the status is the code */
            snprintf(res->error.code, sizeof(res->error.code), "%ld", h->status);
    }
    if (!res->error.request_id[0]) {
        if (aws_http_header(h, "x-amzn-RequestId", rid, sizeof(rid)) ||
            aws_http_header(h, "x-amz-request-id", rid, sizeof(rid)))
            aws_strlcpy(res->error.request_id, rid, sizeof(res->error.request_id));
    }
    char region[64];
    if (!res->error.region[0] && aws_http_header(h, "x-amz-bucket-region", region, sizeof(region)))
        aws_strlcpy(res->error.region, region, sizeof(res->error.region));
}

static smfw_status error_sentence(const aws_call *call, const aws_result *res, smfw_error *err) {
    const aws_error_info *e = &res->error;
    smfw_status st = aws_error_status(res->http.status, e->code, e->message);
    const char *msg = e->message[0] ? e->message : "(no message)";
    size_t ml = strlen(msg);
    const char *dot = ml && (msg[ml - 1] == '.' || msg[ml - 1] == '!') ? "" : ".";
    const char *hint = "";
    if (st == SMFW_ERR_AUTH)
        hint = " Check the AWS credentials (run 'aws sts get-caller-identity') and the IAM "
               "permissions.";
    else if (st == SMFW_ERR_THROTTLED)
        hint = " The request was throttled after retries; lower the request rate.";
    return smfw_error_set(err, st, "%s %s failed: %s: %s%s (HTTP %ld, request id %s)%s",
                          call->service_label, call->operation, e->code, msg, dot, res->http.status,
                          e->request_id[0] ? e->request_id : "none", hint);
}

smfw_status aws_client_call(smfw_aws_client *c, const aws_call *call, aws_result *res,
                            smfw_error *err) {
    char base[1024], authority[512];
    smfw_status st;
    aws_endpoint ep;
    memset(&ep, 0, sizeof(ep));
    if (call->base_url) {
        aws_strlcpy(base, call->base_url, sizeof(base));
    } else {
        /* The rules give the URL and how to sign for it (IAM: the partition's global region). */
        st = aws_client_resolve_endpoint(c, call->endpoint_id, &ep, err);
        if (st != SMFW_OK) return st;
        aws_strlcpy(base, ep.url, sizeof(base));
    }
    if (aws_http_url_authority(base, authority, sizeof(authority)) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "the endpoint URL '%s' is not valid", base);
    const char *region = call->signing_region;
    if (!region && ep.signing_region[0]) region = ep.signing_region;
    const char *signing_name = ep.signing_name[0] ? ep.signing_name : call->signing_name;
    if (!region && !call->unsigned_request) {
        st = smfw_aws_client_region(c, &region, err);
        if (st != SMFW_OK) return st;
    }
    /* A base URL may carry a path prefix (e.g. a proxy): keep it in front. */
    const char *base_path = strchr(strstr(base, "://") + 3, '/');
    aws_buf path, url;
    aws_buf_init(&path);
    aws_buf_init(&url);
    if (base_path) aws_buf_puts(&path, base_path);
    const char *cp = call->path ? call->path : "/";
    if (base_path && cp[0] == '/') cp++;
    if (!base_path && cp[0] != '/') aws_buf_putc(&path, '/');
    aws_buf_puts(&path, cp);
    aws_buf_append(&url, base, base_path ? (size_t)(base_path - base) : strlen(base));
    aws_buf_puts(&url, path.data ? path.data : "/");
    if (call->query && *call->query) {
        aws_buf_putc(&url, '?');
        aws_buf_puts(&url, call->query);
    }
    if (aws_buf_failed(&path) || aws_buf_failed(&url)) {
        aws_buf_free(&path);
        aws_buf_free(&url);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    char invocation[37];
    uuid4(invocation);
    int max_attempts = call->max_attempts > 0 ? call->max_attempts : c->max_attempts;
    int attempt = 0, retries_taken = 0, last_cost = 0;
    int skew_retry_used = 0, token_retry_used = 0;
    smfw_sigv4_signer *signer = NULL;
    if (!call->unsigned_request) {
        signer = signer_for(c, region, signing_name, err);
        if (!signer) {
            aws_buf_free(&path);
            aws_buf_free(&url);
            return err ? err->status : SMFW_ERR_INTERNAL;
        }
    }
    st = SMFW_OK;
    for (;;) {
        attempt++;
        aws_result_free(res);
        aws_result_init(res);
        /* Headers: Host, the call's, SDK correlation, then the signature. */
        smfw_sigv4_header hs[40];
        size_t n = 0;
        char sdk_request[64];
        snprintf(sdk_request, sizeof(sdk_request), "attempt=%d; max=%d", attempt, max_attempts);
        hs[n++] = (smfw_sigv4_header){"Host", authority};
        for (size_t i = 0; i < call->header_count && n < 30; i++) hs[n++] = call->headers[i];
        hs[n++] = (smfw_sigv4_header){"amz-sdk-invocation-id", invocation};
        hs[n++] = (smfw_sigv4_header){"amz-sdk-request", sdk_request};
        FILE *upload = NULL, *download = NULL;
        int64_t upload_size = 0;
        char payload_hash[65] = "";
        if (call->upload_path) {
            upload = fopen(call->upload_path, "rb");
            if (!upload) {
                st = smfw_error_set(err, SMFW_ERR_IO, "cannot open %s: %s", call->upload_path,
                                    strerror(errno));
                break;
            }
            fseeko(upload, 0, SEEK_END);
            upload_size = (int64_t)ftello(upload);
            rewind(upload);
        }
        char *tmp_download = NULL;
        if (call->download_path) {
            /* An unpredictable O_EXCL name: a planted "<file>.part" link is never followed. */
            int fd = smfw_tmpfile_beside(call->download_path, &tmp_download);
            if (fd < 0 || !(download = fdopen(fd, "wb"))) {
                st = smfw_error_set(err, SMFW_ERR_IO, "cannot write beside %s: %s",
                                    call->download_path, strerror(errno));
                if (fd >= 0) close(fd);
                if (tmp_download) unlink(tmp_download);
                if (upload) fclose(upload);
                free(tmp_download);
                break;
            }
        }
        char content_length[32];
        if (upload) {
            snprintf(content_length, sizeof(content_length), "%lld", (long long)upload_size);
            hs[n++] = (smfw_sigv4_header){"Content-Length", content_length};
        }
        smfw_sigv4_signature sig;
        memset(&sig, 0, sizeof(sig));
        const smfw_aws_credentials *creds = call->creds;
        if (!call->unsigned_request) {
            if (!creds) {
                st = smfw_aws_client_credentials(c, &creds, err);
                if (st != SMFW_OK) {
                    if (upload) fclose(upload);
                    if (download) fclose(download);
                    if (tmp_download) unlink(tmp_download);
                    free(tmp_download);
                    break;
                }
            }
            /* A streamed body is hashed in one pass first (S3 checks the hash). */
            if (upload && !payload_hash[0] && sha256_file(upload, payload_hash) != 0) {
                st = smfw_error_set(err, SMFW_ERR_IO, "cannot read %s", call->upload_path);
                if (!call->creds) smfw_aws_credentials_release(creds);
                fclose(upload);
                if (download) fclose(download);
                free(tmp_download);
                break;
            }
            smfw_sigv4_request sreq = {call->method,
                                       path.data,
                                       call->query,
                                       hs,
                                       n,
                                       call->body,
                                       call->body_len,
                                       upload ? payload_hash : NULL};
            unsigned flags = call->sign_flags;
            st = smfw_sigv4_sign(signer, creds, &sreq, flags,
                                 aws_now() + smfw_aws_client_clock_offset(c), &sig, err);
            if (!call->creds) smfw_aws_credentials_release(creds);
            if (st != SMFW_OK) {
                if (upload) fclose(upload);
                if (download) fclose(download);
                if (tmp_download) unlink(tmp_download);
                free(tmp_download);
                break;
            }
            for (size_t i = 0; i < sig.added_count; i++) hs[n++] = sig.added[i];
        }
        aws_http_request hreq = {call->method, url.data,    hs,       n, call->body, call->body_len,
                                 upload,       upload_size, download, 0, 0,          0};
        smfw_error net_err;
        smfw_error_clear(&net_err);
        smfw_status hst = aws_http_perform(c->http, &hreq, &res->http, &net_err);
        smfw_sigv4_signature_free(&sig);
        if (upload) fclose(upload);
        if (download) fclose(download);
        int ok2xx = hst == SMFW_OK && res->http.status >= 200 && res->http.status < 300;
        if (tmp_download) {
            if (ok2xx && smfw_file_publish(tmp_download, call->download_path, 0) != 0) {
                hst = smfw_error_set(&net_err, SMFW_ERR_IO,
                                     "cannot write %s: %s (an existing file is never replaced)",
                                     call->download_path, strerror(errno));
                ok2xx = 0;
            }
            if (!ok2xx) unlink(tmp_download);
            free(tmp_download);
        }
        if (hst == SMFW_ERR_IO || hst == SMFW_ERR_NOMEM || hst == SMFW_ERR_PROTOCOL) {
            st = hst;
            if (err) *err = net_err;
            break;
        }
        int clock_changed = hst == SMFW_OK ? update_clock(c, &res->http) : 0;
        if (ok2xx) {
            /* Success: give back the cost of the last retry, or 1 token. */
            quota_give(c, retries_taken ? last_cost : 1);
            st = SMFW_OK;
            break;
        }
        int retryable = 0, throttled = 0, immediate = 0, cost = RETRY_COST;
        if (hst != SMFW_OK) {
            retryable = 1; /* connection errors, timeouts */
            if (hst == SMFW_ERR_TIMEOUT) cost = RETRY_TIMEOUT_COST;
            st = smfw_error_set(err, hst, "%s %s failed: %s", call->service_label, call->operation,
                                net_err.message);
        } else {
            fill_error(res, call);
            const char *code = res->error.code;
            throttled = aws_error_is_throttling(res->http.status, code);
            retryable = throttled || aws_error_is_transient(res->http.status, code);
            if (!retryable && aws_error_is_clock_skew(code, res->error.message) && clock_changed &&
                !skew_retry_used) {
                skew_retry_used = retryable = immediate = 1;
            }
            if (!retryable && aws_error_is_expired_token(code) && !call->creds &&
                !token_retry_used && !call->unsigned_request) {
                smfw_error rerr;
                if (smfw_aws_client_refresh_credentials(c, &rerr) == SMFW_OK)
                    token_retry_used = retryable = immediate = 1;
            }
            st = error_sentence(call, res, err);
        }
        if (!retryable) break;
        if (immediate) {
            attempt--; /* a corrected signature does not use up an attempt */
            continue;
        }
        if (attempt >= max_attempts) break;
        if (!quota_take(c, cost)) {
            SMFW_LOG_DEBUG("aws", "retry quota exhausted; not retrying %s %s", call->service_label,
                           call->operation);
            break;
        }
        retries_taken++;
        last_cost = cost;
        long delay = backoff_ms(attempt, throttled);
        SMFW_LOG_DEBUG("aws", "%s %s attempt %d failed (%s); retrying in %ld ms",
                       call->service_label, call->operation, attempt,
                       res->error.code[0] ? res->error.code : "network error", delay);
        sleep_ms(delay);
    }
    aws_buf_free(&path);
    aws_buf_free(&url);
    return st;
}

void aws_form_add(aws_buf *b, const char *key, const char *value) {
    if (b->len) aws_buf_putc(b, '&');
    aws_buf_uri_encode(b, key, strlen(key), 0);
    aws_buf_putc(b, '=');
    aws_buf_uri_encode(b, value, strlen(value), 0);
}
