/*
 * model_registry.c - DescribeModelPackage, ListModelPackages,
 * UpdateModelPackage, DescribeEndpoint and the tag operations, as the
 * SageMaker service model (2017-07-24) defines their members.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/untrusted.h>

#include "model_registry.h"

smfw_mr_kind smfw_mr_arn_kind(const char *arn) {
    if (!arn || strncmp(arn, "arn:", 4) != 0) return SMFW_MR_OTHER;
    /* arn:PARTITION:sagemaker:REGION:ACCOUNT:RESOURCE */
    const char *p = arn;
    for (int colons = 0; colons < 5; colons++) {
        p = strchr(p, ':');
        if (!p) return SMFW_MR_OTHER;
        p++;
    }
    if (strncmp(arn + 4, "aws", 3) != 0 || !strstr(arn, ":sagemaker:")) return SMFW_MR_OTHER;
    if (strncmp(p, "model-package-group/", 20) == 0 && p[20]) return SMFW_MR_GROUP;
    if (strncmp(p, "model-package/", 14) == 0 && p[14]) return SMFW_MR_PACKAGE;
    if (strncmp(p, "endpoint/", 9) == 0 && p[9]) return SMFW_MR_ENDPOINT;
    return SMFW_MR_OTHER;
}

/* One call with a jansson request (taken: freed here); the answer parsed into *out. */
static smfw_status call(smfw_aws_client *c, const char *op, json_t *req, json_t **out,
                        smfw_error *err) {
    if (!req) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st = smfw_aws_json_call_tree(c, &smfw_aws_sagemaker, op, req, out, err);
    json_decref(req);
    return st;
}

/* A map of strings into a set; non-string values are skipped (not ours to judge). */
static int map_into(json_t *map, smfw_publish_set *set) {
    const char *k;
    json_t *v;
    json_object_foreach(map, k, v) {
        if (json_is_string(v) && smfw_publish_set_put(set, k, json_string_value(v)) != 0) return -1;
    }
    return 0;
}

smfw_status smfw_mr_describe(smfw_aws_client *c, const char *arn, smfw_publish_set *props,
                             smfw_error *err) {
    json_t *root = NULL;
    smfw_status st =
        call(c, "DescribeModelPackage", json_pack("{s:s}", "ModelPackageName", arn), &root, err);
    if (st != SMFW_OK) return st;
    if (map_into(json_object_get(root, "CustomerMetadataProperties"), props) != 0)
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    json_decref(root);
    return st;
}

smfw_status smfw_mr_last_approved(smfw_aws_client *c, const char *group, char *arn, size_t arn_size,
                                  smfw_error *err) {
    json_t *req =
        json_pack("{s:s,s:s,s:s,s:s,s:i}", "ModelPackageGroupName", group, "ModelApprovalStatus",
                  "Approved", "SortBy", "CreationTime", "SortOrder", "Descending", "MaxResults", 1);
    json_t *root = NULL;
    smfw_status st = call(c, "ListModelPackages", req, &root, err);
    if (st != SMFW_OK) return st;
    json_t *first = json_array_get(json_object_get(root, "ModelPackageSummaryList"), 0);
    const char *a = json_string_value(json_object_get(first, "ModelPackageArn"));
    if (!a)
        st = smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                            "model package group %s has no Approved version (ListModelPackages)",
                            group);
    else if ((size_t)snprintf(arn, arn_size, "%s", a) >= arn_size)
        st = smfw_error_set(err, SMFW_ERR_PROTOCOL, "ListModelPackages gave an ARN too long");
    json_decref(root);
    return st;
}

char *smfw_mr_update_request(const char *arn, const smfw_publish_set *props,
                             const char *const *remove, size_t n_remove) {
    json_t *req = json_pack("{s:s}", "ModelPackageArn", arn);
    json_t *map = json_object();
    for (size_t i = 0; i < props->n; i++)
        json_object_set_new(map, props->e[i].key, json_string(props->e[i].value));
    json_object_set_new(req, "CustomerMetadataProperties", map);
    if (n_remove) {
        json_t *list = json_array();
        for (size_t i = 0; i < n_remove; i++) json_array_append_new(list, json_string(remove[i]));
        json_object_set_new(req, "CustomerMetadataPropertiesToRemove", list);
    }
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    return body;
}

smfw_status smfw_mr_update(smfw_aws_client *c, const char *arn, const smfw_publish_set *props,
                           const char *const *remove, size_t n_remove, smfw_error *err) {
    char *body = smfw_mr_update_request(arn, props, remove, n_remove);
    if (!body) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    char *resp = NULL;
    smfw_status st =
        smfw_aws_json_call(c, &smfw_aws_sagemaker, "UpdateModelPackage", body, &resp, err);
    free(body);
    free(resp);
    return st;
}

smfw_status smfw_mr_endpoint_arn(smfw_aws_client *c, const char *endpoint, char *arn,
                                 size_t arn_size, smfw_error *err) {
    json_t *root = NULL;
    smfw_status st =
        call(c, "DescribeEndpoint", json_pack("{s:s}", "EndpointName", endpoint), &root, err);
    if (st != SMFW_OK) return st;
    const char *a = json_string_value(json_object_get(root, "EndpointArn"));
    if (!a || (size_t)snprintf(arn, arn_size, "%s", a) >= arn_size)
        st = smfw_error_set(err, SMFW_ERR_PROTOCOL, "DescribeEndpoint gave no EndpointArn for %s",
                            endpoint);
    json_decref(root);
    return st;
}

static int tags_page(void *user, json_t *page, smfw_error *err) {
    smfw_publish_set *tags = user;
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(page, "Tags"), i, t) {
        const char *k = json_string_value(json_object_get(t, "Key"));
        const char *v = json_string_value(json_object_get(t, "Value"));
        if (k && smfw_publish_set_put(tags, k, v ? v : "") != 0) {
            smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            return -1;
        }
    }
    return 0;
}

smfw_status smfw_mr_list_tags(smfw_aws_client *c, const char *arn, smfw_publish_set *tags,
                              smfw_error *err) {
    json_t *req = json_pack("{s:s,s:i}", "ResourceArn", arn, "MaxResults", 100);
    if (!req) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st =
        smfw_aws_json_pages(c, &smfw_aws_sagemaker, "ListTags", req, tags_page, tags, NULL, err);
    json_decref(req);
    return st;
}

smfw_status smfw_mr_add_tags(smfw_aws_client *c, const char *arn, const smfw_publish_set *tags,
                             smfw_error *err) {
    json_t *list = json_array();
    for (size_t i = 0; i < tags->n; i++)
        json_array_append_new(
            list, json_pack("{s:s,s:s}", "Key", tags->e[i].key, "Value", tags->e[i].value));
    json_t *req = json_pack("{s:s,s:o}", "ResourceArn", arn, "Tags", list);
    return call(c, "AddTags", req, NULL, err);
}

smfw_status smfw_mr_delete_tags(smfw_aws_client *c, const char *arn, const char *const *keys,
                                size_t n, smfw_error *err) {
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(list, json_string(keys[i]));
    json_t *req = json_pack("{s:s,s:o}", "ResourceArn", arn, "TagKeys", list);
    return call(c, "DeleteTags", req, NULL, err);
}
