/*
 * autoscaling_api.c - the Application Auto Scaling operations smfw sends
 * (awsJson 1.1): describe a scalable target and one scaling policy, put,
 * delete and register. Request bodies carry only members of botocore's
 * model; answers are read defensively (a missing member is an error).
 */
#include <stdlib.h>
#include <string.h>

#include "autoscaling.h"

smfw_status aas_call(smfw_aws_client *client, const char *operation, const json_t *request,
                     json_t **response, smfw_error *err) {
    if (response) *response = NULL;
    if (!request)
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory"); /* json_pack failed */
    return smfw_aws_json_call_tree(client, &smfw_aws_autoscaling, operation, request, response,
                                   err);
}

smfw_status aas_describe_target(smfw_aws_client *client, const aas_target *t, int *found,
                                int64_t *min_capacity, int64_t *max_capacity,
                                aas_suspended *suspended, smfw_error *err) {
    *found = 0;
    json_t *req = json_pack("{s:s,s:[s],s:s}", "ServiceNamespace", "sagemaker", "ResourceIds",
                            t->resource_id, "ScalableDimension", t->dimension);
    json_t *resp = NULL;
    smfw_status st = aas_call(client, "DescribeScalableTargets", req, &resp, err);
    json_decref(req);
    if (st != SMFW_OK) return st;
    json_t *list = json_object_get(resp, "ScalableTargets"), *x;
    size_t i;
    json_array_foreach(list, i, x) {
        const char *id = json_string_value(json_object_get(x, "ResourceId"));
        const char *dim = json_string_value(json_object_get(x, "ScalableDimension"));
        json_t *lo = json_object_get(x, "MinCapacity"), *hi = json_object_get(x, "MaxCapacity");
        if (!id || !dim || strcmp(id, t->resource_id) != 0 || strcmp(dim, t->dimension) != 0)
            continue;
        if (!json_is_integer(lo) || !json_is_integer(hi)) {
            json_decref(resp);
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "DescribeScalableTargets: %s has no whole MinCapacity and "
                                  "MaxCapacity",
                                  t->resource_id);
        }
        json_t *ss = json_object_get(x, "SuspendedState");
        aas_suspended state = {0, 0, 0};
        /* null (moto, for a target never given one) or absent: nothing suspended */
        if (ss && !json_is_null(ss) && aas_suspended_from_json(ss, &state) != 0) {
            json_decref(resp);
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "DescribeScalableTargets: the SuspendedState of %s is not an "
                                  "object of booleans",
                                  t->resource_id);
        }
        *found = 1;
        *min_capacity = json_integer_value(lo);
        *max_capacity = json_integer_value(hi);
        if (suspended) *suspended = state;
        break;
    }
    json_decref(resp);
    return SMFW_OK;
}

smfw_status aas_describe_policy(smfw_aws_client *client, const aas_target *t, const char *name,
                                json_t **policy, smfw_error *err) {
    *policy = NULL;
    json_t *req =
        json_pack("{s:[s],s:s,s:s,s:s}", "PolicyNames", name, "ServiceNamespace", "sagemaker",
                  "ResourceId", t->resource_id, "ScalableDimension", t->dimension);
    json_t *resp = NULL;
    smfw_status st = aas_call(client, "DescribeScalingPolicies", req, &resp, err);
    json_decref(req);
    if (st != SMFW_OK) return st;
    json_t *list = json_object_get(resp, "ScalingPolicies"), *x;
    size_t i;
    json_array_foreach(list, i, x) {
        const char *n = json_string_value(json_object_get(x, "PolicyName"));
        const char *id = json_string_value(json_object_get(x, "ResourceId"));
        if (n && id && strcmp(n, name) == 0 && strcmp(id, t->resource_id) == 0) {
            *policy = json_incref(x);
            break;
        }
    }
    json_decref(resp);
    return SMFW_OK;
}

smfw_status aas_delete_policy(smfw_aws_client *client, const aas_target *t, const char *name,
                              smfw_error *err) {
    json_t *req =
        json_pack("{s:s,s:s,s:s,s:s}", "PolicyName", name, "ServiceNamespace", "sagemaker",
                  "ResourceId", t->resource_id, "ScalableDimension", t->dimension);
    smfw_status st = aas_call(client, "DeleteScalingPolicy", req, NULL, err);
    json_decref(req);
    return st;
}

smfw_status aas_register_target(smfw_aws_client *client, const aas_target *t, int64_t min_capacity,
                                int64_t max_capacity, const aas_suspended *suspended,
                                smfw_error *err) {
    json_t *req = json_pack("{s:s,s:s,s:s,s:I,s:I}", "ServiceNamespace", "sagemaker", "ResourceId",
                            t->resource_id, "ScalableDimension", t->dimension, "MinCapacity",
                            (json_int_t)min_capacity, "MaxCapacity", (json_int_t)max_capacity);
    /* Left out, the service keeps the target's SuspendedState as it is. */
    if (req && suspended &&
        json_object_set_new(req, "SuspendedState", aas_suspended_json(suspended)) != 0) {
        json_decref(req);
        req = NULL;
    }
    smfw_status st = aas_call(client, "RegisterScalableTarget", req, NULL, err);
    json_decref(req);
    return st;
}
