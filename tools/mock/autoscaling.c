/*
 * autoscaling.c - Application Auto Scaling DescribeScalableTargets (awsJson
 * 1.1, X-Amz-Target AnyScaleFrontendService.*, signing name
 * application-autoscaling): the SageMaker targets registered with
 * --autoscaling NAME:MIN:MAX, NAME being an endpoint (its AllTraffic
 * variant's DesiredInstanceCount) or an inference component (its
 * DesiredCopyCount). Endpoints without one have no scalable target, as on AWS.
 */
#include "mock.h"

#include <stdlib.h>
#include <string.h>

#define AAS_JSON "application/x-amz-json-1.1"

static const char *const aas_namespaces[] = {
    "ecs",         "elasticmapreduce", "ec2",        "appstream", "dynamodb",  "rds",
    "sagemaker",   "custom-resource",  "comprehend", "lambda",    "cassandra", "kafka",
    "elasticache", "neptune",          "workspaces", NULL};

static void aas_invalid(mock_request *req, const char *message) {
    mock_aws_error(req, MOCK_PROTO_JSON, 400, "ValidationException", message, NULL);
}

/* A stable ScalableTargetARN for a resource id (36 hex digits, as AWS's). */
static void target_arn(const mock_options *opt, const char *id, char *out, size_t size) {
    unsigned long long h1 = 1469598103934665603ULL, h2 = 1099511628211ULL;
    for (const char *p = id; *p; p++) {
        h1 = (h1 ^ (unsigned char)*p) * 1099511628211ULL;
        h2 = (h2 ^ (unsigned char)*p) * 14695981039346656037ULL + 0x9e3779b97f4a7c15ULL;
    }
    snprintf(out, size, "arn:aws:application-autoscaling:%s:%s:scalable-target/%016llx%016llx%04x",
             opt->region, opt->account_id, h1, h2, (unsigned)(h1 >> 48) ^ (unsigned)(h2 & 0xffff));
}

/* The target of one --autoscaling entry: resource id and dimension. */
static void target_of(const mock_options *opt, const mock_scaling *sc, char *id, size_t id_size,
                      const char **dimension) {
    if (mock_has_component(opt, sc->name)) {
        snprintf(id, id_size, "inference-component/%s", sc->name);
        *dimension = "sagemaker:inference-component:DesiredCopyCount";
    } else {
        snprintf(id, id_size, "endpoint/%s/variant/AllTraffic", sc->name);
        *dimension = "sagemaker:variant:DesiredInstanceCount";
    }
}

static void aas_describe_targets(mock_server *srv, mock_request *req, json_t *in) {
    const mock_options *opt = &srv->opt;
    const char *ns = json_string_value(json_object_get(in, "ServiceNamespace"));
    int ns_ok = 0;
    for (size_t i = 0; ns && aas_namespaces[i]; i++) ns_ok |= !strcmp(ns, aas_namespaces[i]);
    if (!ns_ok) {
        /* AWS's sentence names the value and the set (as moto's does). */
        smfw_buf m = {0};
        if (ns) {
            smfw_buf_printf(&m,
                            "1 validation error detected: Value '%.100s' at 'serviceNamespace' "
                            "failed to satisfy constraint: Member must satisfy enum value set: [",
                            ns);
            for (size_t i = 0; aas_namespaces[i]; i++)
                smfw_buf_printf(&m, "%s%s", i ? ", " : "", aas_namespaces[i]);
            smfw_buf_puts(&m, "]");
        } else
            smfw_buf_puts(&m, "1 validation error detected: Value null at 'serviceNamespace' "
                              "failed to satisfy constraint: Member must not be null");
        aas_invalid(req, m.data);
        smfw_buf_free(&m);
        return;
    }
    json_t *ids = json_object_get(in, "ResourceIds");
    if (ids && (!json_is_array(ids) || json_array_size(ids) > 50)) {
        aas_invalid(req, "ResourceIds must be a list of at most 50 resource ids");
        return;
    }
    const char *dim_filter = json_string_value(json_object_get(in, "ScalableDimension"));
    json_t *jmax = json_object_get(in, "MaxResults");
    long max = 50;
    if (jmax) {
        if (!json_is_integer(jmax) || json_integer_value(jmax) < 1 ||
            json_integer_value(jmax) > 50) {
            aas_invalid(req, "MaxResults must be between 1 and 50");
            return;
        }
        max = (long)json_integer_value(jmax);
    }
    long start = 0;
    const char *token = json_string_value(json_object_get(in, "NextToken"));
    if (token) {
        char *end;
        start = strtol(token, &end, 10);
        if (*end || start < 0) {
            aas_invalid(req, "Invalid NextToken");
            return;
        }
    }
    json_t *list = json_array();
    long matched = 0, emitted = 0;
    int more = 0;
    for (size_t i = 0; !strcmp(ns, "sagemaker") && i < opt->scaling_count; i++) {
        char id[200];
        const char *dimension;
        target_of(opt, &opt->scaling[i], id, sizeof id, &dimension);
        if (dim_filter && strcmp(dim_filter, dimension) != 0) continue;
        if (json_array_size(ids)) {
            int want = 0;
            size_t k;
            json_t *v;
            json_array_foreach(ids, k, v) want |=
                json_is_string(v) && !strcmp(json_string_value(v), id);
            if (!want) continue;
        }
        if (matched++ < start) continue;
        if (emitted == max) {
            more = 1;
            break;
        }
        char role[256];
        snprintf(role, sizeof role,
                 "arn:aws:iam::%s:role/aws-service-role/"
                 "sagemaker.application-autoscaling.amazonaws.com/"
                 "AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint",
                 opt->account_id);
        char arn[320];
        target_arn(opt, id, arn, sizeof arn);
        json_array_append_new(
            list, json_pack("{s:s,s:s,s:s,s:I,s:I,s:s,s:f,s:{s:b,s:b,s:b},s:s}", "ServiceNamespace",
                            "sagemaker", "ResourceId", id, "ScalableDimension", dimension,
                            "MinCapacity", (json_int_t)opt->scaling[i].min, "MaxCapacity",
                            (json_int_t)opt->scaling[i].max, "RoleARN", role, "CreationTime",
                            srv->started_unix, "SuspendedState", "DynamicScalingInSuspended", 0,
                            "DynamicScalingOutSuspended", 0, "ScheduledScalingSuspended", 0,
                            "ScalableTargetARN", arn));
        emitted++;
    }
    json_t *out = json_pack("{s:o}", "ScalableTargets", list);
    if (more) {
        char next[32];
        snprintf(next, sizeof next, "%ld", start + emitted);
        json_object_set_new(out, "NextToken", json_string(next));
    }
    mock_json_reply(req, AAS_JSON, out);
}

void mock_autoscaling_handle(mock_server *srv, mock_request *req, const char *op) {
    if (mock_auth_check(srv, req, "application-autoscaling", MOCK_PROTO_JSON) != 0) return;
    json_t *in = json_loadb((const char *)req->body, req->body_len, 0, NULL);
    if (!json_is_object(in)) {
        json_decref(in);
        mock_aws_error(req, MOCK_PROTO_JSON, 400, "SerializationException",
                       "The request body is not a JSON object.", NULL);
        return;
    }
    if (!strcmp(op, "DescribeScalableTargets"))
        aas_describe_targets(srv, req, in);
    else
        mock_aws_error(req, MOCK_PROTO_JSON, 400, "UnknownOperationException",
                       "smfw-mock emulates DescribeScalableTargets only.", NULL);
    json_decref(in);
}
