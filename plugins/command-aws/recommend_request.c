/*
 * recommend_request.c - `smfw recommend`'s flags, checked before any request,
 * and the CreateAIRecommendationJob body they make (botocore's SageMaker
 * model: ModelSource.S3.S3Uri, OutputConfig, AIWorkloadConfigIdentifier,
 * PerformanceTarget.Constraints, RoleArn, InferenceSpecification,
 * OptimizeModel, ComputeSpec.InstanceTypes (at most 3), Tags).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "recommend.h"

static const char *const metric_names[] = {"ttft-ms", "throughput", "cost"};

static int flag_error(const char *flag, const char *value, const char *why) {
    char shown[300];
    smfw_log(SMFW_LOG_ERROR, NULL, "--%s \"%s\": %s (see `smfw recommend --help`)", flag,
             smfw_term_escape(value, shown, sizeof shown), why);
    return 1;
}

/* ml.<family>.<size>: the shape of every AIRecommendationInstanceType; the service checks
 * the enum itself. */
static int instance_type_shaped(const char *t, size_t len) {
    if (len < 6 || len >= 64 || strncmp(t, "ml.", 3) != 0) return 0;
    int dots = 0;
    for (size_t i = 3; i < len; i++) {
        if (t[i] == '.') {
            if (t[i - 1] == '.' || i + 1 == len) return 0;
            dots++;
        } else if (!islower((unsigned char)t[i]) && !isdigit((unsigned char)t[i]))
            return 0;
    }
    return dots == 1;
}

static int parse_types(const char *v, recommend_args *a) {
    for (const char *p = v; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char one[64];
        snprintf(one, sizeof one, "%.*s", (int)(len < 63 ? len : 63), p);
        if (!instance_type_shaped(p, len))
            return flag_error("instance-types", v,
                              "each entry is a SageMaker instance type such as ml.g5.2xlarge, "
                              "comma-separated");
        for (size_t i = 0; i < a->n_types; i++)
            if (strcmp(a->types[i], one) == 0)
                return flag_error("instance-types", v, "an instance type is named twice");
        if (a->n_types == RECOMMEND_MAX_TYPES)
            return flag_error("instance-types", v,
                              "a recommendation job considers at most 3 instance types");
        snprintf(a->types[a->n_types++], sizeof a->types[0], "%s", one);
        p += len;
        if (*p == ',') p++;
    }
    if (a->n_types == 0) return flag_error("instance-types", v, "names no instance type");
    return 0;
}

static int add_metric(const char *v, recommend_args *a) {
    const char *known = NULL;
    for (size_t i = 0; i < 3; i++)
        if (strcmp(v, metric_names[i]) == 0) known = metric_names[i];
    if (!known) return flag_error("constraint", v, "the metrics are ttft-ms, throughput and cost");
    for (size_t i = 0; i < a->n_metrics; i++)
        if (a->metrics[i] == known) return flag_error("constraint", v, "given twice");
    a->metrics[a->n_metrics++] = known;
    return 0;
}

/* K=V: TagKey 1-128 and TagValue 0-256 characters (the model's lengths). */
static int add_tag(const char *v, recommend_args *a) {
    const char *eq = strchr(v, '=');
    if (!eq || eq == v) return flag_error("tag", v, "a tag is KEY=VALUE");
    size_t klen = (size_t)(eq - v), vlen = strlen(eq + 1);
    if (klen > 128 || vlen > 256)
        return flag_error("tag", v, "keys are at most 128 characters and values 256");
    char key[129];
    snprintf(key, sizeof key, "%.*s", (int)klen, v);
    if (strncmp(key, "aws:", 4) == 0) return flag_error("tag", v, "keys starting aws: are AWS's");
    if (json_array_append_new(a->tags, json_pack("{s:s,s:s}", "Key", key, "Value", eq + 1)) != 0)
        return flag_error("tag", v, "out of memory");
    return 0;
}

int recommend_args_parse(const smfw_command_context *ctx, recommend_args *a) {
    memset(a, 0, sizeof *a);
    a->tags = json_array();
    if (!a->tags) return 1;
    a->model_uri = smfw_command_get(ctx, "model-s3-uri");
    a->framework = smfw_command_get(ctx, "framework");
    a->optimize = smfw_command_get(ctx, "optimize-model") != NULL;
    a->model_package_group = smfw_command_get(ctx, "model-package-group");
    a->name = smfw_command_get(ctx, "name");
    a->job = smfw_command_get(ctx, "job");
    const smfw_command_value *given = ctx->values; /* every option, in order: repeatable */
    for (size_t i = 0; i < ctx->n_values; i++) {
        const smfw_command_value *v = given + i;
        int bad = 0;
        if (strcmp(v->name, "instance-types") == 0)
            bad = parse_types(v->value, a);
        else if (strcmp(v->name, "constraint") == 0) {
            /* repeatable, and a comma list too */
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v->value);
            char *save = NULL;
            int any = 0;
            for (char *m = strtok_r(buf, ",", &save); m && !bad; m = strtok_r(NULL, ",", &save))
                bad = add_metric(m, a), any = 1;
            if (!any) bad = flag_error("constraint", v->value, "names no metric");
        } else if (strcmp(v->name, "tag") == 0)
            bad = add_tag(v->value, a);
        if (bad) return 1;
    }
    if (a->job) {
        if (!smfw_aws_entity_name_valid(a->job))
            return flag_error("job", a->job,
                              "not a SageMaker name ([a-zA-Z0-9](-*[a-zA-Z0-9]){0,62})");
        return 0; /* the job exists: the other flags made it */
    }
    if (!a->model_uri) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "name the model's artifacts with --model-s3-uri s3://BUCKET/PREFIX/ (or "
                 "--job NAME for a recommendation job that exists)");
        return 1;
    }
    char bucket[256], key[1024];
    smfw_error err;
    if (smfw_aws_s3_uri_split(a->model_uri, bucket, sizeof bucket, key, sizeof key, &err) !=
        SMFW_OK)
        return flag_error("model-s3-uri", a->model_uri, "not s3://BUCKET/PREFIX");
    if (a->framework && strcmp(a->framework, "LMI") && strcmp(a->framework, "VLLM"))
        return flag_error("framework", a->framework, "the frameworks are LMI and VLLM");
    if (a->model_package_group && !*a->model_package_group)
        return flag_error("model-package-group", a->model_package_group, "empty");
    if (a->name && !smfw_aws_entity_name_valid(a->name))
        return flag_error("name", a->name,
                          "not a SageMaker name ([a-zA-Z0-9](-*[a-zA-Z0-9]){0,62})");
    if (a->n_metrics == 0) a->metrics[a->n_metrics++] = metric_names[0];
    return 0;
}

void recommend_args_free(recommend_args *a) {
    json_decref(a->tags);
    a->tags = NULL;
}

json_t *recommend_request(const recommend_args *a, const managed_plan *p, const char *name) {
    json_t *constraints = json_array();
    for (size_t i = 0; constraints && i < a->n_metrics; i++)
        json_array_append_new(constraints, json_pack("{s:s}", "Metric", a->metrics[i]));
    json_t *out = json_pack("{s:s}", "S3OutputLocation", p->output_uri);
    if (out && a->model_package_group)
        json_object_set_new(out, "ModelPackageGroupIdentifier",
                            json_string(a->model_package_group));
    json_t *body =
        json_pack("{s:s,s:{s:{s:s}},s:o,s:s,s:{s:o},s:s}", "AIRecommendationJobName", name,
                  "ModelSource", "S3", "S3Uri", a->model_uri, "OutputConfig", out,
                  "AIWorkloadConfigIdentifier", p->config_name, "PerformanceTarget", "Constraints",
                  constraints, "RoleArn", p->role_arn[0] ? p->role_arn : "<execution role ARN>");
    if (!body) return NULL;
    if (a->framework)
        json_object_set_new(body, "InferenceSpecification",
                            json_pack("{s:s}", "Framework", a->framework));
    if (a->optimize) json_object_set_new(body, "OptimizeModel", json_true());
    if (a->n_types) {
        json_t *types = json_array();
        for (size_t i = 0; i < a->n_types; i++)
            json_array_append_new(types, json_string(a->types[i]));
        json_object_set_new(body, "ComputeSpec", json_pack("{s:o}", "InstanceTypes", types));
    }
    if (json_array_size(a->tags)) json_object_set(body, "Tags", a->tags);
    return body;
}
