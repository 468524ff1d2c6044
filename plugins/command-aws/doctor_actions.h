/*
 * doctor_actions.h - the IAM actions a planned run needs, each on the resource
 * it acts on, for `smfw doctor` to list and to simulate
 * (iam:SimulatePrincipalPolicy).
 */
#ifndef SMFW_DOCTOR_ACTIONS_H
#define SMFW_DOCTOR_ACTIONS_H

#include <stddef.h>

/* What the run would do (the same settings as `smfw run`). */
typedef struct doctor_plan {
    int managed;                     /* --backend managed, else direct */
    int streaming;                   /* direct: InvokeEndpointWithResponseStream */
    const char *endpoint;            /* SageMaker endpoint name */
    const char *inference_component; /* or NULL */
    const char *bucket;              /* managed: the bucket (configured or default), or NULL */
    int bucket_is_default;           /* managed: CreateBucket when it does not exist */
    const char *role_arn;            /* managed: the execution role, or NULL (looked up) */
} doctor_plan;

typedef struct doctor_action {
    char action[96];    /* "sagemaker:InvokeEndpointWithResponseStream" */
    char resource[640]; /* its resource ARN, or "*" */
    const char *why;    /* what the run does with it (a literal) */
} doctor_action;

#define DOCTOR_MAX_ACTIONS 24

/*
 * Fill out[] (DOCTOR_MAX_ACTIONS) with the plan's actions; returns how many.
 * `partition`, `region` and `account` build the ARNs ("*" where unknown).
 */
size_t doctor_actions_plan(const doctor_plan *p, const char *partition, const char *region,
                           const char *account, doctor_action *out);

#endif
