/*
 * recommend.h - `smfw recommend`: SageMaker's AI recommendation job over up to
 * three instance types, each recommendation's benchmark presented as a sweep.
 * recommend_request.c turns the flags into the CreateAIRecommendationJob body;
 * recommend_present.c fetches each recommendation's benchmark bundle and
 * presents it; cmd_recommend.c plans, launches and polls.
 */
#ifndef SMFW_COMMAND_AWS_RECOMMEND_H
#define SMFW_COMMAND_AWS_RECOMMEND_H

#include <jansson.h>

#include <smfw/aws.h>
#include <smfw/command.h>

#include "managed.h"

/** What AIRecommendationComputeSpec allows. */
#define RECOMMEND_MAX_TYPES 3

/** The command's own flags, checked. */
typedef struct recommend_args {
    const char *model_uri;               /**< --model-s3-uri: ModelSource.S3.S3Uri */
    char types[RECOMMEND_MAX_TYPES][64]; /**< --instance-types, in order */
    size_t n_types;
    const char *metrics[3]; /**< --constraint, in order, each once */
    size_t n_metrics;
    const char *framework;           /**< --framework LMI|VLLM, or NULL */
    int optimize;                    /**< --optimize-model */
    const char *model_package_group; /**< --model-package-group, or NULL */
    const char *name;                /**< --name, or NULL (generated) */
    const char *job;                 /**< --job: present an existing job, or NULL */
    json_t *tags;                    /**< [{"Key","Value"}] from --tag K=V */
} recommend_args;

/** Parse and check the flags; each mistake is logged naming its flag. 0 ok, else 1. */
int recommend_args_parse(const smfw_command_context *ctx, recommend_args *a);

/** Release what recommend_args_parse() made. */
void recommend_args_free(recommend_args *a);

/**
 * The CreateAIRecommendationJob body for the job `name` of the plan (its workload config,
 * output location and role), as botocore's SageMaker model defines it (new reference).
 */
json_t *recommend_request(const recommend_args *a, const managed_plan *p, const char *name);

/**
 * A Completed job's recommendations (its Describe answer) into `dir`: the answer as
 * recommendation.json, then per recommendation <rank>-<instance type>/ with its
 * benchmark job's bundle, one folder per level and the sweep's reports (the program's
 * services), then the expected-performance table and the sweeps side by side. Returns an
 * exit code (3 when a level failed its validity gate).
 */
int recommend_present(const smfw_command_context *ctx, smfw_aws_client *c, json_t *describe,
                      const char *region, const char *dir);

#endif
