/*
 * aws_endpoints.c - where a call goes: the region (option, environment,
 * profile, instance metadata) and each service's endpoint, resolved through
 * its vendored rule set with the configured overrides, FIPS and dual-stack.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <smfw/log.h>

#include "aws/aws_endpoint_data.h"
#include "aws/aws_endpoint_rules.h"
#include "aws/aws_internal.h"

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
        c->region_from = from;
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
    {"batch", "AWS_ENDPOINT_URL_BATCH", "batch", "batch", "batch"},
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
    return aws_client_resolve_endpoint_in(c, service, NULL, NULL, out, err);
}

smfw_status aws_client_resolve_endpoint_in(smfw_aws_client *c, const char *service,
                                           const char *in_region, const char *bucket,
                                           aws_endpoint *out, smfw_error *err) {
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
    const char *region = in_region;
    smfw_error rerr;
    if (!region) st = smfw_aws_client_region(c, &region, overridden ? &rerr : err);
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
    if (in && bucket) json_object_set_new(in, "Bucket", json_string(bucket));
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
        /* With a bucket the rules' URL addresses it, an override's included. */
        int as_given = overridden && !bucket;
        st = put_url(out->url, sizeof(out->url), as_given ? override : rep.url,
                     as_given ? "the configuration" : "the endpoint rules", err);
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

smfw_status smfw_aws_client_endpoint_info(smfw_aws_client *c, const char *service,
                                          smfw_aws_endpoint_info *out, smfw_error *err) {
    memset(out, 0, sizeof(*out));
    aws_endpoint ep;
    smfw_status st = aws_client_resolve_endpoint(c, service, &ep, err);
    if (st != SMFW_OK) return st;
    aws_strlcpy(out->url, ep.url, sizeof(out->url));
    aws_strlcpy(out->signing_region, ep.signing_region, sizeof(out->signing_region));
    aws_strlcpy(out->signing_name, ep.signing_name, sizeof(out->signing_name));
    out->overridden = ep.overridden;
    /* As resolve applied them: an override turns both off. */
    out->fips = !ep.overridden && setting_true(c, "AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint");
    out->dualstack =
        !ep.overridden && setting_true(c, "AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint");
    return SMFW_OK;
}

const char *smfw_aws_client_region_source(smfw_aws_client *c) {
    pthread_mutex_lock(&c->lock);
    const char *from = c->region_from;
    pthread_mutex_unlock(&c->lock);
    return from;
}

const char *smfw_aws_client_profile_name(const smfw_aws_client *c) {
    return c->profile; /* set by smfw_aws_client_new, never changed */
}
