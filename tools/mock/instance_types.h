/*
 * instance_types.h - the instance types an AI recommendation job may consider
 * (SageMaker's AIRecommendationInstanceType enum), each with the mock's
 * documented speed and an illustrative hourly price (docs/mock.md).
 *
 * A recommendation's benchmark jobs send "smfw_mock_instance_type": "<type>"
 * in every request body (the runner adds it as an extra input); the model
 * scales its TTFT, prefill and inter-token times by that type's time_scale,
 * so instance types differ in measured speed.
 */
#ifndef SMFW_MOCK_INSTANCE_TYPES_H
#define SMFW_MOCK_INSTANCE_TYPES_H

#include <stddef.h>

/* The instance type of every endpoint the mock hosts (DescribeEndpointConfig): the type whose
 * time_scale is 1.0, so the emulated speed is the configured one. */
#define MOCK_ENDPOINT_INSTANCE_TYPE "ml.g6e.2xlarge"

/* The request-body member that carries the instance type. */
#define MOCK_INSTANCE_TYPE_MEMBER "smfw_mock_instance_type"

typedef struct mock_instance_type {
    const char *name;      /* e.g. "ml.g6e.2xlarge" */
    int gpus;              /* accelerators of the type */
    double time_scale;     /* latency multiplier (ml.g6e.* with one GPU = 1.0; below 1 is faster) */
    double price_per_hour; /* illustrative USD per instance-hour (not an AWS quote) */
} mock_instance_type;

/* The type of that name, or NULL when it is not in the enum. */
const mock_instance_type *mock_instance_type_find(const char *name);
/* The whole enum, in the model's order. */
const mock_instance_type *mock_instance_types(size_t *count);
/* The latency multiplier for a request that named `name` (1.0 for NULL or an unknown type). */
double mock_instance_time_scale(const char *name);

#endif /* SMFW_MOCK_INSTANCE_TYPES_H */
