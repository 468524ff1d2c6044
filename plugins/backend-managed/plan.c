/*
 * plan.c - the exact request bodies of CreateAIWorkloadConfig and
 * CreateAIBenchmarkJob, and the dry-run plan that shows them before
 * anything billable happens.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "managed.h"

json_t *managed_plan_workload_request(const managed_plan *p) {
    char *inline_spec = json_dumps(p->spec, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_t *body =
        json_pack("{s:s,s:{s:{s:s}}}", "AIWorkloadConfigName", p->config_name, "AIWorkloadConfigs",
                  "WorkloadSpec", "Inline", inline_spec ? inline_spec : "{}");
    free(inline_spec);
    if (body && !p->ds.public_feed && p->ds.channel_uri[0])
        json_object_set_new(body, "DatasetConfig",
                            json_pack("{s:[{s:s,s:{s:{s:s}}}]}", "InputDataConfig", "ChannelName",
                                      "datasets", "DataSource", "S3DataSource", "S3Uri",
                                      p->ds.channel_uri));
    return body;
}

json_t *managed_plan_job_request(const managed_plan *p) {
    json_t *endpoint = json_pack("{s:s}", "Identifier", p->endpoint ? p->endpoint : "");
    if (p->inference_component && *p->inference_component)
        json_object_set_new(endpoint, "InferenceComponents",
                            json_pack("[{s:s}]", "Identifier", p->inference_component));
    return json_pack("{s:s,s:s,s:{s:o},s:{s:s},s:s}", "AIBenchmarkJobName", p->job_name,
                     "AIWorkloadConfigIdentifier", p->config_name, "BenchmarkTarget", "Endpoint",
                     endpoint, "OutputConfig", "S3OutputLocation", p->output_uri, "RoleArn",
                     p->role_arn[0] ? p->role_arn : "<execution role ARN>");
}

void managed_plan_print_json(FILE *out, json_t *v) {
    char *text = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (text) {
        for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
            nl = strchr(line, '\n');
            fprintf(out, "    %.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
        }
    }
    free(text);
}

void managed_plan_print(const managed_plan *p, FILE *out) {
    fprintf(out, "SageMaker managed benchmark plan (dry run: nothing was created or uploaded; "
                 "add --run to launch)\n\n");
    fprintf(out, "  %-22s %s\n", "region", p->region[0] ? p->region : "(unresolved)");
    fprintf(out, "  %-22s %s\n", "account", p->account[0] ? p->account : "(unresolved)");
    fprintf(out, "  %-22s %s\n", "endpoint", p->endpoint ? p->endpoint : "(none)");
    fprintf(out, "  %-22s %s\n", "inference component",
            p->inference_component ? p->inference_component : "(none)");
    if (p->ds.public_feed)
        fprintf(out, "  %-22s public ShareGPT feed, fetched by SageMaker (nothing to upload)\n",
                "dataset");
    else
        fprintf(out, "  %-22s %s, %zu prompts, %lld bytes, sha256 %s\n", "dataset", p->ds.name,
                p->ds.count, (long long)p->ds.size, p->ds.sha256);
    if (!p->ds.public_feed)
        fprintf(out, "  %-22s s3://%s/%s (uploaded unless already there with that size)\n",
                "dataset object", p->bucket[0] ? p->bucket : "(bucket unresolved)", p->ds.key);
    fprintf(out, "  %-22s %s\n", "output location", p->output_uri);
    fprintf(out, "  %-22s %s\n", "role", p->role_arn[0] ? p->role_arn : "(unresolved)");
    fprintf(out, "  %-22s %s\n", "workload config name", p->config_name);
    fprintf(out, "  %-22s %s\n", "benchmark job name", p->job_name);
    if (p->unresolved[0]) {
        fprintf(out, "\n  Not resolved (placeholders <...> above and below):\n");
        for (const char *l = p->unresolved, *nl; *l; l = nl + 1) {
            nl = strchr(l, '\n');
            if (!nl) nl = l + strlen(l) - 1;
            fprintf(out, "    - %.*s\n", (int)(nl - l), l);
        }
    }
    fprintf(out, "\n  WorkloadSpec:\n");
    managed_plan_print_json(out, p->spec);
    json_t *w = managed_plan_workload_request(p);
    json_t *j = managed_plan_job_request(p);
    fprintf(out, "\n  POST / X-Amz-Target: SageMaker.CreateAIWorkloadConfig\n");
    managed_plan_print_json(out, w);
    fprintf(out, "\n  POST / X-Amz-Target: SageMaker.CreateAIBenchmarkJob\n");
    managed_plan_print_json(out, j);
    fprintf(out, "\n  Then: poll SageMaker.DescribeAIBenchmarkJob, download output.tar.gz from "
                 "the output location and report.\n");
    json_decref(w);
    json_decref(j);
}
