/*
 * launch_batch.c - the run's shards as an AWS Batch array job: a RegisterJobDefinition request
 * and a SubmitJob request with arrayProperties.size = N (child I, from 0, runs shard I+1).
 */
#include <stdio.h>

#include "launch.h"

json_t *launch_batch_requests(const launch_plan *p) {
    char shard[64], cpu[32], mem[32];
    /* Batch has no shell between it and the entrypoint: smfw reads the index itself. */
    snprintf(shard, sizeof shard, "$AWS_BATCH_JOB_ARRAY_INDEX+1/%u", p->shards);
    snprintf(cpu, sizeof cpu, "%u", p->cpus);
    snprintf(mem, sizeof mem, "%u", p->memory_mib);
    json_t *cp = json_pack("{s:s, s:o, s:[{s:s, s:s}, {s:s, s:s}]}", "image", p->image, "command",
                           launch_shard_args(p, shard, p->output), "resourceRequirements", "type",
                           "VCPU", "value", cpu, "type", "MEMORY", "value", mem);
    if (p->job_role_arn) json_object_set_new(cp, "jobRoleArn", json_string(p->job_role_arn));
    if (p->execution_role_arn)
        json_object_set_new(cp, "executionRoleArn", json_string(p->execution_role_arn));
    if (p->api_key_secret)
        json_object_set_new(
            cp, "secrets",
            json_pack("[{s:s, s:s}]", "name", "OPENAI_API_KEY", "valueFrom", p->api_key_secret));
    /* attempts 1: a retried shard would begin after --start-at. */
    json_t *def =
        json_pack("{s:s, s:s, s:[s], s:o, s:{s:i}, s:{s:s}}", "jobDefinitionName", p->name, "type",
                  "container", "platformCapabilities", "EC2", "containerProperties", cp,
                  "retryStrategy", "attempts", 1, "tags", "smfw:run", p->name);
    json_t *submit =
        json_pack("{s:s, s:s, s:s, s:{s:i}}", "jobName", p->name, "jobQueue", p->job_queue,
                  "jobDefinition", p->name, "arrayProperties", "size", (int)p->shards);
    return json_pack("{s:o, s:o}", "registerJobDefinition", def, "submitJob", submit);
}
