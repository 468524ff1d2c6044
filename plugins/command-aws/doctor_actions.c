/*
 * doctor_actions.c - the IAM actions of a planned run (doctor_actions.h): the
 * direct backend invokes the endpoint (InvokeEndpointWithResponseStream and
 * InvokeEndpoint are separate actions: a policy may allow one only); the
 * managed backend's pre-flight and job use SageMaker, S3, IAM and Application
 * Auto Scaling (plugins/backend-managed: preflight.c, job.c, staging).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "doctor_actions.h"

static void add(doctor_action *out, size_t *n, const char *action, const char *resource,
                const char *why) {
    if (*n >= DOCTOR_MAX_ACTIONS) return;
    doctor_action *a = &out[(*n)++];
    snprintf(a->action, sizeof a->action, "%s", action);
    snprintf(a->resource, sizeof a->resource, "%s", resource);
    a->why = why;
}

/* SageMaker resource ARNs carry the name in lower case (IAM matches them so). */
static void sagemaker_arn(char *out, size_t size, const char *partition, const char *region,
                          const char *account, const char *type, const char *name) {
    int k = snprintf(out, size, "arn:%s:sagemaker:%s:%s:%s/", partition, region, account, type);
    for (size_t i = k > 0 ? (size_t)k : 0; *name && i + 1 < size; name++, i++) {
        out[i] = (char)tolower((unsigned char)*name);
        out[i + 1] = '\0';
    }
}

size_t doctor_actions_plan(const doctor_plan *p, const char *partition, const char *region,
                           const char *account, doctor_action *out) {
    size_t n = 0;
    char ep[640] = "*", ic[640] = "*", bucket[640] = "*", objects[700] = "*";
    if (p->endpoint)
        sagemaker_arn(ep, sizeof ep, partition, region, account, "endpoint", p->endpoint);
    if (p->inference_component)
        sagemaker_arn(ic, sizeof ic, partition, region, account, "inference-component",
                      p->inference_component);
    if (!p->managed) {
        if (p->streaming)
            add(out, &n, "sagemaker:InvokeEndpointWithResponseStream", ep,
                "every request (streaming; --no-streaming needs sagemaker:InvokeEndpoint "
                "instead)");
        else
            add(out, &n, "sagemaker:InvokeEndpoint", ep,
                "every request (--no-streaming; streaming needs "
                "sagemaker:InvokeEndpointWithResponseStream instead)");
        return n;
    }
    if (p->bucket) {
        snprintf(bucket, sizeof bucket, "arn:%s:s3:::%s", partition, p->bucket);
        snprintf(objects, sizeof objects, "arn:%s:s3:::%s/*", partition, p->bucket);
    }
    add(out, &n, "sagemaker:DescribeEndpoint", ep, "pre-flight: the endpoint is InService");
    if (p->inference_component)
        add(out, &n, "sagemaker:DescribeInferenceComponent", ic,
            "pre-flight: the inference component is InService");
    add(out, &n, "sagemaker:CreateAIWorkloadConfig", "*", "the job's workload configuration");
    add(out, &n, "sagemaker:CreateAIBenchmarkJob", "*", "launch the benchmark job");
    add(out, &n, "sagemaker:DescribeAIBenchmarkJob", "*", "follow the job");
    add(out, &n, "sagemaker:StopAIBenchmarkJob", "*", "stop the job on Ctrl-C");
    add(out, &n, "s3:ListBucket", bucket, "find a staged dataset and the job's results");
    add(out, &n, "s3:PutObject", objects, "stage the dataset");
    add(out, &n, "s3:GetObject", objects, "download the job's results");
    if (p->bucket_is_default)
        add(out, &n, "s3:CreateBucket", bucket, "create the default bucket when it is missing");
    if (p->role_arn) {
        add(out, &n, "iam:GetRole", p->role_arn, "pre-flight: the role trusts SageMaker");
        add(out, &n, "iam:PassRole", p->role_arn, "hand the execution role to SageMaker");
    } else {
        add(out, &n, "iam:ListRoles", "*", "find a SageMaker execution role");
        add(out, &n, "iam:GetRole", "*", "pre-flight: the role trusts SageMaker");
        add(out, &n, "iam:PassRole", "*", "hand the execution role to SageMaker");
    }
    add(out, &n, "application-autoscaling:DescribeScalableTargets", "*",
        "pre-flight: the variant's scaling limits");
    return n;
}
