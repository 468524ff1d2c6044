/*
 * model_registry.h - the SageMaker calls of `smfw publish`: a model package
 * version's CustomerMetadataProperties (Describe/Update/ListModelPackages)
 * and an endpoint's tags (DescribeEndpoint, ListTags, AddTags, DeleteTags).
 */
#ifndef SMFW_COMMAND_AWS_MODEL_REGISTRY_H
#define SMFW_COMMAND_AWS_MODEL_REGISTRY_H

#include <smfw/aws.h>

#include "publish_keys.h"

/** What an ARN names, from its resource part. */
typedef enum smfw_mr_kind {
    SMFW_MR_OTHER = 0,
    SMFW_MR_PACKAGE,  /**< arn:...:model-package/GROUP/N (or an unversioned package) */
    SMFW_MR_GROUP,    /**< arn:...:model-package-group/GROUP */
    SMFW_MR_ENDPOINT, /**< arn:...:endpoint/NAME */
} smfw_mr_kind;

/** Classify a SageMaker ARN (anything else, or not an ARN: SMFW_MR_OTHER). */
smfw_mr_kind smfw_mr_arn_kind(const char *arn);

/** DescribeModelPackage: its CustomerMetadataProperties into props (may stay empty). */
smfw_status smfw_mr_describe(smfw_aws_client *c, const char *package_arn, smfw_publish_set *props,
                             smfw_error *err);

/**
 * The newest Approved version of a model package group (ListModelPackages
 * sorted by CreationTime, descending): its ARN into arn. SMFW_ERR_NOT_FOUND
 * when the group has no approved version.
 */
smfw_status smfw_mr_last_approved(smfw_aws_client *c, const char *group, char *arn, size_t arn_size,
                                  smfw_error *err);

/** The UpdateModelPackage request body (malloc'd JSON; NULL when out of memory). */
char *smfw_mr_update_request(const char *package_arn, const smfw_publish_set *props,
                             const char *const *remove, size_t n_remove);

/** UpdateModelPackage with CustomerMetadataProperties and ...ToRemove (n_remove may be 0). */
smfw_status smfw_mr_update(smfw_aws_client *c, const char *package_arn,
                           const smfw_publish_set *props, const char *const *remove,
                           size_t n_remove, smfw_error *err);

/** DescribeEndpoint: the endpoint's ARN. */
smfw_status smfw_mr_endpoint_arn(smfw_aws_client *c, const char *endpoint, char *arn,
                                 size_t arn_size, smfw_error *err);

/** ListTags over every page into tags. */
smfw_status smfw_mr_list_tags(smfw_aws_client *c, const char *arn, smfw_publish_set *tags,
                              smfw_error *err);

/** AddTags (every entry of tags; at most 50). */
smfw_status smfw_mr_add_tags(smfw_aws_client *c, const char *arn, const smfw_publish_set *tags,
                             smfw_error *err);

/** DeleteTags of the given keys (n > 0). */
smfw_status smfw_mr_delete_tags(smfw_aws_client *c, const char *arn, const char *const *keys,
                                size_t n, smfw_error *err);

#endif
