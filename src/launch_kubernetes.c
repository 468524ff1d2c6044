/*
 * launch_kubernetes.c - the run's shards as a Kubernetes Indexed Job (batch/v1): pod index I
 * (JOB_COMPLETION_INDEX, from 0) runs shard I+1, all N at once, one per node.
 */
#include <stdio.h>

#include "launch.h"

static json_t *labels(const launch_plan *p) {
    return json_pack("{s:s, s:s}", "app.kubernetes.io/name", "smfw", "app.kubernetes.io/instance",
                     p->name);
}

json_t *launch_kubernetes_job(const launch_plan *p) {
    char shard[64], cpu[32], mem[32];
    /* No shell in the pod: smfw reads the 0-based index from the environment itself. */
    snprintf(shard, sizeof shard, "$JOB_COMPLETION_INDEX+1/%u", p->shards);
    snprintf(cpu, sizeof cpu, "%u", p->cpus);
    snprintf(mem, sizeof mem, "%uMi", p->memory_mib);
    json_t *container =
        json_pack("{s:s, s:s, s:o, s:{s:{s:s, s:s}, s:{s:s}}}", "name", "smfw", "image", p->image,
                  "args", launch_shard_args(p, shard, p->output), "resources", "requests", "cpu",
                  cpu, "memory", mem, "limits", "memory", mem);
    if (p->api_key_secret)
        json_object_set_new(container, "env",
                            json_pack("[{s:s, s:{s:{s:s, s:s}}}]", "name", "OPENAI_API_KEY",
                                      "valueFrom", "secretKeyRef", "name", p->api_key_secret, "key",
                                      "OPENAI_API_KEY"));
    /* One shard per node: shards that share a node share its NIC and CPUs, the very limits
     * sharding is for. */
    json_t *anti = json_pack("{s:[{s:{s:o}, s:s}]}",
                             "requiredDuringSchedulingIgnoredDuringExecution", "labelSelector",
                             "matchLabels", labels(p), "topologyKey", "kubernetes.io/hostname");
    json_t *pod =
        json_pack("{s:s, s:s, s:{s:o}, s:[o]}", "restartPolicy", "Never", "serviceAccountName",
                  p->service_account, "affinity", "podAntiAffinity", anti, "containers", container);
    json_t *meta = json_pack("{s:s, s:o}", "name", p->name, "labels", labels(p));
    if (p->namespace_) json_object_set_new(meta, "namespace", json_string(p->namespace_));
    /* backoffLimit 0: a retried shard would begin after --start-at, so it is not retried. */
    return json_pack("{s:s, s:s, s:o, s:{s:s, s:i, s:i, s:i, s:i, s:{s:{s:o}, s:o}}}", "apiVersion",
                     "batch/v1", "kind", "Job", "metadata", meta, "spec", "completionMode",
                     "Indexed", "completions", (int)p->shards, "parallelism", (int)p->shards,
                     "backoffLimit", 0, "ttlSecondsAfterFinished", 86400, "template", "metadata",
                     "labels", labels(p), "spec", pod);
}
