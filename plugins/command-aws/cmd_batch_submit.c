/*
 * cmd_batch_submit.c - `smfw batch-submit --requests FILE`: submit the AWS Batch array job
 * that `smfw launch batch` generates ({"registerJobDefinition": {...}, "submitJob": {...}}):
 * RegisterJobDefinition, then SubmitJob naming the definition's new revision by its ARN.
 * Also what `smfw launch batch --submit` runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <smfw/aws.h>
#include <smfw/command.h>
#include <smfw/log.h>

#include "aws_commands.h"

/* An environment entry whose value would be a secret in plain sight: anyone who can
 * describe the job reads it (and -v would log it). The same rule as `smfw launch`. */
static const char *secret_env(const json_t *container) {
    const json_t *env = json_object_get(container, "environment");
    for (size_t i = 0; i < json_array_size(env); i++) {
        const char *name = json_string_value(json_object_get(json_array_get(env, i), "name"));
        if (!name) continue;
        char low[256];
        size_t n = 0;
        for (; name[n] && n + 1 < sizeof low; n++)
            low[n] = (char)(name[n] >= 'A' && name[n] <= 'Z' ? name[n] - 'A' + 'a' : name[n]);
        low[n] = '\0';
        if (strstr(low, "secret") || strstr(low, "password") || strstr(low, "token") ||
            strstr(low, "api_key") || strstr(low, "access_key") ||
            (n >= 4 && strcmp(low + n - 4, "_key") == 0))
            return name;
    }
    return NULL;
}

/* The launcher's document, from a file or "-" (stdin); NULL after naming the problem. */
static json_t *load_requests(const char *file) {
    json_error_t je;
    json_t *doc = strcmp(file, "-") == 0 ? json_loadf(stdin, 0, &je) : json_load_file(file, 0, &je);
    const char *name = strcmp(file, "-") == 0 ? "standard input" : file;
    if (!doc) {
        if (je.line < 1 && strcmp(file, "-") != 0)
            smfw_log(SMFW_LOG_ERROR, NULL, "--requests %s: cannot read it: %s", name, je.text);
        else
            smfw_log(SMFW_LOG_ERROR, NULL, "--requests %s: not JSON: %s (line %d)", name, je.text,
                     je.line);
        return NULL;
    }
    json_t *def = json_object_get(doc, "registerJobDefinition");
    json_t *sub = json_object_get(doc, "submitJob");
    const char *missing = !json_is_object(def)   ? "registerJobDefinition"
                          : !json_is_object(sub) ? "submitJob"
                          : !json_is_string(json_object_get(def, "jobDefinitionName"))
                              ? "registerJobDefinition.jobDefinitionName"
                          : !json_is_string(json_object_get(sub, "jobName"))  ? "submitJob.jobName"
                          : !json_is_string(json_object_get(sub, "jobQueue")) ? "submitJob.jobQueue"
                                                                              : NULL;
    const char *secret = secret_env(json_object_get(def, "containerProperties"));
    if (!secret) secret = secret_env(json_object_get(sub, "containerOverrides"));
    if (!missing && secret) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--requests %s: the environment variable %s would be readable by anyone who "
                 "can describe the job; give it as a secret instead (\"secrets\": [{\"name\": "
                 "\"%s\", \"valueFrom\": SECRET_ARN}], as `smfw launch batch --api-key-secret` "
                 "writes it)",
                 name, secret, secret);
        json_decref(doc);
        return NULL;
    }
    if (missing) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--requests %s: no %s; expected {\"registerJobDefinition\": {...}, "
                 "\"submitJob\": {...}} as `smfw launch batch` prints it",
                 name, missing);
        json_decref(doc);
        return NULL;
    }
    return doc;
}

static const char *str(const json_t *o, const char *key) {
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : "";
}

/* One Batch operation with `request` as its body; the parsed answer, or NULL with *err set. */
static json_t *batch_call(smfw_aws_client *client, const char *op, const char *uri,
                          const json_t *request, smfw_error *err) {
    char *body = json_dumps(request, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!body) {
        smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        return NULL;
    }
    SMFW_LOG_DEBUG("batch", "%s request: %s", op, body);
    char *out = NULL;
    smfw_status st =
        smfw_aws_rest_json_call(client, &smfw_aws_batch, op, "POST", uri, body, &out, err);
    free(body);
    if (st != SMFW_OK) return NULL;
    json_error_t je;
    json_t *resp = json_loads(out, 0, &je);
    if (!json_is_object(resp)) {
        smfw_error_set(err, SMFW_ERR_PROTOCOL, "AWS Batch %s answered with no JSON object: %s", op,
                       resp ? "not an object" : je.text);
        json_decref(resp);
        resp = NULL;
    }
    free(out);
    return resp;
}

/*
 * Refuse a queue that does not exist or is disabled before anything is registered (SubmitJob
 * would fail after RegisterJobDefinition left a revision behind). A queue that may not be
 * read (no batch:DescribeJobQueues permission) is left to SubmitJob. 0 to go on, else the
 * exit code (said why).
 */
static int check_queue(smfw_aws_client *client, const char *queue) {
    smfw_error err;
    smfw_error_clear(&err);
    json_t *req = json_pack("{s:[s]}", "jobQueues", queue);
    json_t *resp =
        req ? batch_call(client, "DescribeJobQueues", "/v1/describejobqueues", req, &err) : NULL;
    json_decref(req);
    if (!resp && err.status == SMFW_ERR_AUTH) {
        SMFW_LOG_WARN(NULL, "cannot check the job queue %s (%s); submitting anyway", queue,
                      err.message);
        return 0;
    }
    if (!resp) {
        smfw_log(SMFW_LOG_ERROR, NULL, "%s", err.message);
        return smfw_status_exit_code(err.status);
    }
    json_t *q = json_array_get(json_object_get(resp, "jobQueues"), 0);
    const char *region = "";
    smfw_aws_client_region(client, &region, &err);
    int rc = 0;
    if (!q) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "the job queue %s (--job-queue) is no AWS Batch job queue in %s (`aws "
                 "batch describe-job-queues` lists them; a queue needs a compute environment)",
                 queue, region);
        rc = smfw_status_exit_code(SMFW_ERR_NOT_FOUND);
    } else if (strcmp(str(q, "state"), "ENABLED") != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "the job queue %s (--job-queue) is %s; Batch takes jobs only on an enabled "
                 "queue (`aws batch update-job-queue --job-queue %s --state ENABLED`)",
                 queue, str(q, "state"), queue);
        rc = smfw_status_exit_code(SMFW_ERR_CONFIG);
    }
    json_decref(resp);
    return rc;
}

static int batch_submit_main(const smfw_command_context *ctx, int argc, char **argv) {
    if (argc > 1) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "unexpected argument \"%s\" (give the file with --requests; see `smfw "
                 "batch-submit --help`)",
                 argv[1]);
        return 1;
    }
    const char *file = smfw_command_get(ctx, "requests");
    if (!file || !*file) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "smfw batch-submit wants --requests FILE (what `smfw launch batch` prints; - "
                 "reads it from standard input)");
        return 1;
    }
    json_t *doc = load_requests(file);
    if (!doc) return 1;
    smfw_aws_options o;
    smfw_aws_options_from_config(ctx->config, &o);
    smfw_aws_client *client = NULL;
    json_t *reg = NULL, *sub = NULL, *submitted = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    int rc = 1;
    if (smfw_aws_client_new(&o, &client, &err) != SMFW_OK) goto fail;
    rc = check_queue(client, str(json_object_get(doc, "submitJob"), "jobQueue"));
    if (rc != 0) goto done;
    rc = 1;
    reg = batch_call(client, "RegisterJobDefinition", "/v1/registerjobdefinition",
                     json_object_get(doc, "registerJobDefinition"), &err);
    if (!reg) goto fail;
    const char *def_arn = str(reg, "jobDefinitionArn");
    if (!*def_arn) {
        smfw_error_set(&err, SMFW_ERR_PROTOCOL,
                       "AWS Batch RegisterJobDefinition answered without a jobDefinitionArn");
        goto fail;
    }
    if (ctx->verbosity >= 0)
        fprintf(ctx->out, "registered job definition %s:%lld\n  %s\n",
                str(reg, "jobDefinitionName"),
                (long long)json_integer_value(json_object_get(reg, "revision")), def_arn);
    /* The revision just registered, not whichever is newest when Batch reads the name. */
    sub = json_deep_copy(json_object_get(doc, "submitJob"));
    if (!sub || json_object_set_new(sub, "jobDefinition", json_string(def_arn)) != 0) {
        smfw_error_set(&err, SMFW_ERR_NOMEM, "out of memory");
        goto fail;
    }
    submitted = batch_call(client, "SubmitJob", "/v1/submitjob", sub, &err);
    if (!submitted) {
        smfw_log(SMFW_LOG_ERROR, NULL, "%s", err.message);
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "the job definition %s stays registered (remove it with `aws batch "
                 "deregister-job-definition --job-definition %s`)",
                 def_arn, def_arn);
        rc = smfw_status_exit_code(err.status);
        goto done;
    }
    const char *id = str(submitted, "jobId");
    json_int_t size =
        json_integer_value(json_object_get(json_object_get(sub, "arrayProperties"), "size"));
    fprintf(ctx->out, "submitted %s %s to queue %s: job id %s\n  %s\n",
            size > 0 ? "array job" : "job", str(submitted, "jobName"), str(sub, "jobQueue"), id,
            str(submitted, "jobArn"));
    if (size > 0 && ctx->verbosity >= 0)
        fprintf(ctx->out, "  %lld children, %s:0 to %s:%lld (shard = index + 1)\n", (long long)size,
                id, id, (long long)size - 1);
    if (ctx->verbosity >= 0)
        fprintf(ctx->out, "follow it: aws batch describe-jobs --jobs %s\n", id);
    rc = 0;
    goto done;
fail:
    smfw_log(SMFW_LOG_ERROR, NULL, "%s", err.message);
    rc = smfw_status_exit_code(err.status);
done:
    json_decref(submitted);
    json_decref(sub);
    json_decref(reg);
    json_decref(doc);
    smfw_aws_client_free(client);
    return rc;
}

static const smfw_command_option batch_submit_options[] = {
    {"requests", 1, "FILE",
     "the two requests `smfw launch batch` prints (- reads them from standard input)"},
    SMFW_COMMAND_OPTIONS_END};

const smfw_command_def aws_command_batch_submit = {
    sizeof(smfw_command_def),
    "batch-submit",
    "submit the AWS Batch array job that `smfw launch batch` generates",
    "Usage: smfw batch-submit --requests FILE [--region R] [--profile P] [--endpoint-url URL]\n\n"
    "FILE is {\"registerJobDefinition\": {...}, \"submitJob\": {...}}, as `smfw launch batch`\n"
    "prints it. Checks that the job queue exists and is enabled (DescribeJobQueues), calls\n"
    "RegisterJobDefinition, then SubmitJob with the new revision's ARN as its jobDefinition,\n"
    "and prints the job's name, id and ARN and how to follow it (`aws batch describe-jobs\n"
    "--jobs ID`). -v logs the request bodies. `smfw launch batch --submit` runs this command\n"
    "with the launch's AWS options. The queue and its compute environment are yours to\n"
    "create; see docs/scaling.md.",
    batch_submit_options,
    batch_submit_main};
