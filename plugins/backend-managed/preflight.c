/*
 * preflight.c - every check before anything billable, each failure one
 * sentence: region offered, endpoint (and inference component) InService,
 * role present and trusting sagemaker.amazonaws.com, output bucket present;
 * a warning when autoscaling can change the instance count during the run.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/log.h>

#include "managed.h"

int managed_region_offered(const char *region, const char *const *regions, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(regions[i], region) == 0) return 1;
    return 0;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static int json_has_string(json_t *v, const char *want) {
    if (json_is_string(v)) return strcmp(json_string_value(v), want) == 0;
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x) if (json_is_string(x) &&
                                    strcmp(json_string_value(x), want) == 0) return 1;
    return 0;
}

int managed_trust_allows_sagemaker(const char *policy) {
    if (!policy) return -1;
    /* IAM returns the document URL-encoded. */
    size_t n = strlen(policy);
    char *text = malloc(n + 1);
    if (!text) return -1;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (policy[i] == '%' && i + 2 < n && hexval(policy[i + 1]) >= 0 &&
            hexval(policy[i + 2]) >= 0) {
            text[o++] = (char)(hexval(policy[i + 1]) * 16 + hexval(policy[i + 2]));
            i += 2;
        } else if (policy[i] == '+' && policy[0] == '%')
            text[o++] = ' ';
        else
            text[o++] = policy[i];
    }
    text[o] = '\0';
    json_t *doc = json_loads(text, 0, NULL);
    free(text);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return -1;
    }
    json_t *stmts = json_object_get(doc, "Statement");
    json_t *one = NULL;
    if (json_is_object(stmts)) {
        one = json_array();
        json_array_append(one, stmts);
        stmts = one;
    }
    int allowed = 0;
    size_t i;
    json_t *s;
    json_array_foreach(stmts, i, s) {
        const char *effect = json_string_value(json_object_get(s, "Effect"));
        if (!effect || strcmp(effect, "Allow") != 0) continue;
        json_t *action = json_object_get(s, "Action");
        if (!json_has_string(action, "sts:AssumeRole") && !json_has_string(action, "sts:*") &&
            !json_has_string(action, "*"))
            continue;
        json_t *principal = json_object_get(s, "Principal");
        if (json_has_string(json_object_get(principal, "Service"), "sagemaker.amazonaws.com"))
            allowed = 1;
    }
    json_decref(one);
    json_decref(doc);
    return allowed;
}

static smfw_status check_endpoint(smfw_aws_client *c, const managed_plan *p, json_t **desc,
                                  smfw_error *err) {
    json_t *req = json_pack("{s:s}", "EndpointName", p->endpoint);
    smfw_status st = managed_sagemaker_call(c, "DescribeEndpoint", req, desc, err);
    json_decref(req);
    if (st != SMFW_OK)
        return smfw_error_prefix(err, "endpoint %s in %s cannot be described", p->endpoint,
                                 p->region);
    const char *status = json_string_value(json_object_get(*desc, "EndpointStatus"));
    if (!status || strcmp(status, "InService") != 0) {
        const char *why = json_string_value(json_object_get(*desc, "FailureReason"));
        return smfw_error_set(err, SMFW_ERR_AWS,
                              "endpoint %s is %s, not InService%s%s; a benchmark needs an "
                              "InService endpoint",
                              p->endpoint, status ? status : "(no status)", why ? ": " : "",
                              why ? why : "");
    }
    if (!p->inference_component) return SMFW_OK;
    json_t *ic = NULL;
    req = json_pack("{s:s}", "InferenceComponentName", p->inference_component);
    st = managed_sagemaker_call(c, "DescribeInferenceComponent", req, &ic, err);
    json_decref(req);
    if (st != SMFW_OK)
        return smfw_error_prefix(err, "inference component %s cannot be described",
                                 p->inference_component);
    const char *ic_status = json_string_value(json_object_get(ic, "InferenceComponentStatus"));
    const char *ic_ep = json_string_value(json_object_get(ic, "EndpointName"));
    if (ic_ep && strcmp(ic_ep, p->endpoint) != 0)
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "inference component %s belongs to endpoint %s, not %s",
                            p->inference_component, ic_ep, p->endpoint);
    else if (!ic_status || strcmp(ic_status, "InService") != 0) {
        const char *why = json_string_value(json_object_get(ic, "FailureReason"));
        st = smfw_error_set(err, SMFW_ERR_AWS, "inference component %s is %s, not InService%s%s",
                            p->inference_component, ic_status ? ic_status : "(no status)",
                            why ? ": " : "", why ? why : "");
    }
    json_decref(ic);
    return st;
}

static smfw_status check_role(smfw_aws_client *c, const managed_plan *p, smfw_error *err) {
    const char *r = strstr(p->role_arn, ":role/");
    if (!r)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "role %s is not an IAM role ARN (arn:aws:iam::<account>:role/NAME)",
                              p->role_arn);
    const char *name = strrchr(r, '/') + 1;
    char arn[2048];
    char *trust = NULL;
    smfw_status st = smfw_aws_iam_get_role_trust(c, name, arn, sizeof arn, &trust, err);
    if (st == SMFW_ERR_NOT_FOUND)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "role %s does not exist (IAM GetRole)",
                              p->role_arn);
    if (st == SMFW_ERR_AUTH) {
        SMFW_LOG_WARN("managed",
                      "cannot read role %s (IAM GetRole denied); its trust policy is "
                      "not checked",
                      p->role_arn);
        return SMFW_OK;
    }
    if (st != SMFW_OK) return smfw_error_prefix(err, "cannot check role %s", p->role_arn);
    int allowed = managed_trust_allows_sagemaker(trust);
    free(trust);
    if (allowed == 0)
        return smfw_error_set(
            err, SMFW_ERR_CONFIG,
            "role %s does not trust sagemaker.amazonaws.com: its trust policy "
            "has no Allow sts:AssumeRole statement for that service principal, so "
            "SageMaker cannot assume it (add the principal to the role's trust "
            "relationship)",
            p->role_arn);
    if (allowed < 0)
        SMFW_LOG_WARN("managed", "role %s: IAM returned no readable trust policy; not checked",
                      p->role_arn);
    SMFW_LOG_DEBUG("managed", "role %s exists and trusts sagemaker.amazonaws.com", arn);
    return SMFW_OK;
}

static void check_autoscaling(smfw_aws_client *c, const managed_plan *p, json_t *endpoint) {
    json_t *ids = json_array();
    const char *dimension;
    if (p->inference_component) {
        char id[300];
        snprintf(id, sizeof id, "inference-component/%s", p->inference_component);
        json_array_append_new(ids, json_string(id));
        dimension = "sagemaker:inference-component:DesiredCopyCount";
    } else {
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(endpoint, "ProductionVariants"), i, v) {
            const char *variant = json_string_value(json_object_get(v, "VariantName"));
            char id[300];
            if (!variant) continue;
            snprintf(id, sizeof id, "endpoint/%s/variant/%s", p->endpoint, variant);
            json_array_append_new(ids, json_string(id));
        }
        dimension = "sagemaker:variant:DesiredInstanceCount";
    }
    if (json_array_size(ids) == 0) {
        json_decref(ids);
        return;
    }
    json_t *req = json_pack("{s:s,s:o,s:s}", "ServiceNamespace", "sagemaker", "ResourceIds", ids,
                            "ScalableDimension", dimension);
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    char *resp = NULL;
    smfw_error e;
    smfw_status st =
        smfw_aws_json_call(c, &smfw_aws_autoscaling, "DescribeScalableTargets", body, &resp, &e);
    free(body);
    if (st != SMFW_OK) {
        SMFW_LOG_WARN("managed",
                      "could not check autoscaling (%s); make sure the instance count "
                      "cannot change during the benchmark",
                      e.message);
        return;
    }
    json_t *root = json_loads(resp, 0, NULL);
    free(resp);
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(root, "ScalableTargets"), i, t) {
        json_int_t lo = json_integer_value(json_object_get(t, "MinCapacity"));
        json_int_t hi = json_integer_value(json_object_get(t, "MaxCapacity"));
        const char *id = json_string_value(json_object_get(t, "ResourceId"));
        if (lo != hi)
            SMFW_LOG_WARN("managed",
                          "autoscaling on %s can change the capacity between %lld and %lld "
                          "during the run: the benchmark would measure the scaling policy, not "
                          "the instance (set MinCapacity = MaxCapacity for the run)",
                          id ? id : "the target", (long long)lo, (long long)hi);
    }
    json_decref(root);
}

smfw_status managed_preflight_storage(smfw_aws_client *c, const managed_plan *p, smfw_error *err) {
    smfw_status st = check_role(c, p, err);
    if (st != SMFW_OK) return st;
    st = smfw_aws_s3_head_bucket(c, p->bucket, p->bucket_is_default ? p->account : NULL, err);
    if (st == SMFW_ERR_NOT_FOUND && p->bucket_is_default) {
        /* As the SageMaker SDK does for its default bucket. */
        SMFW_LOG_INFO("managed", "creating the default bucket %s", p->bucket);
        st = smfw_aws_s3_create_bucket(c, p->bucket, err);
        if (st != SMFW_OK) st = smfw_error_prefix(err, "cannot create bucket %s", p->bucket);
    } else if (st == SMFW_ERR_NOT_FOUND)
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "output bucket %s does not exist (set backend.managed.bucket or "
                            "SAGEMAKER_BUCKET)",
                            p->bucket);
    else if (st != SMFW_OK)
        st = smfw_error_prefix(err, "output bucket %s cannot be used", p->bucket);
    return st;
}

smfw_status managed_preflight(smfw_aws_client *c, const managed_plan *p,
                              const managed_preflight_opts *o, smfw_error *err) {
    if (o->n_regions && !managed_region_offered(p->region, o->regions, o->n_regions))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "region %s is not one where SageMaker's benchmark capability is "
                              "offered (backend.managed.regions; add it there if AWS now offers "
                              "it)",
                              p->region);
    if (!p->endpoint || !*p->endpoint)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "no endpoint to benchmark (--endpoint NAME or run.endpoint)");
    json_t *desc = NULL;
    smfw_status st = check_endpoint(c, p, &desc, err);
    if (st == SMFW_OK) st = managed_preflight_storage(c, p, err);
    if (st == SMFW_OK) check_autoscaling(c, p, desc);
    json_decref(desc);
    return st;
}
