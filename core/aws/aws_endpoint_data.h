/*
 * aws_endpoint_data.h - where smfw's copy of botocore's endpoint data lives,
 * and its parsed, process-wide cache (internal).
 */
#ifndef SMFW_AWS_ENDPOINT_DATA_H
#define SMFW_AWS_ENDPOINT_DATA_H

#include <stddef.h>

#include <jansson.h>

#include <smfw/smfw.h>

/* The folder holding partitions.json and <service>/<version>/; -1 (and the
 * installed path) when none is found. */
int aws_endpoint_data_dir(char *out, size_t size);

/*
 * The rule set of `service` (botocore's folder name: "sagemaker-runtime",
 * "cloudwatch") and the partitions, loaded on first use and kept for the
 * life of the process. Read-only: callers must not change reference counts
 * (see aws_endpoint_rules.c), so threads can share them.
 */
smfw_status aws_endpoint_data_get(const char *service, const json_t **ruleset,
                                  const json_t **partitions, smfw_error *err);

#endif
