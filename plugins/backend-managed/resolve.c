/*
 * resolve.c - where a managed plan runs: the region (and whether SageMaker's
 * benchmark capability is offered there), the account, the bucket, the
 * execution role and the job's output location. Shared by the backend and
 * `smfw recommend`, which launch into the same places. A dry run writes down
 * what it could not resolve (plan->unresolved) and shows placeholders. Also
 * the command that finds a launched job again from another shell.
 */
#include <stdio.h>
#include <string.h>

#include "managed.h"

static void note(managed_plan *p, const char *what, const smfw_error *e) {
    size_t o = strlen(p->unresolved);
    snprintf(p->unresolved + o, sizeof p->unresolved - o, "%s: %s\n", what, e->message);
}

static void note_text(managed_plan *p, const char *what, const char *why) {
    size_t o = strlen(p->unresolved);
    snprintf(p->unresolved + o, sizeof p->unresolved - o, "%s: %s\n", what, why);
}

smfw_status managed_plan_resolve(smfw_aws_client *client, const char *bucket_cfg,
                                 const char *role_cfg, const managed_preflight_opts *po,
                                 int dry_run, managed_plan *plan, smfw_error *err) {
    smfw_error e;
    const char *region = NULL;
    if (smfw_aws_client_region(client, &region, &e) == SMFW_OK)
        snprintf(plan->region, sizeof plan->region, "%s", region);
    else if (dry_run)
        note(plan, "region", &e);
    else {
        *err = e;
        return e.status;
    }
    /* A region without the capability fails before any AWS call. */
    if (!dry_run && po->n_regions &&
        !managed_region_offered(plan->region, po->regions, po->n_regions))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "region %s is not one where SageMaker's benchmark capability is "
                              "offered (backend.managed.regions; add it there if AWS now offers "
                              "it)",
                              plan->region);

    /* Account, bucket, role: configured values need no AWS access. */
    if (!bucket_cfg || !role_cfg || !dry_run) {
        if (!plan->region[0])
            note_text(plan, "account", "needs the region");
        else if (smfw_aws_default_account(client, plan->account, &e) != SMFW_OK) {
            plan->account[0] = '\0';
            if (!dry_run) {
                *err = e;
                return e.status;
            }
            note(plan, "account", &e);
        }
    } else
        note_text(plan, "account", "not looked up: the bucket and the role are configured");
    if (bucket_cfg)
        snprintf(plan->bucket, sizeof plan->bucket, "%s", bucket_cfg);
    else if (plan->region[0] && plan->account[0] &&
             smfw_aws_default_bucket(client, NULL, plan->bucket, sizeof plan->bucket, &e) !=
                 SMFW_OK) {
        if (!dry_run) {
            *err = e;
            return e.status;
        }
        note(plan, "bucket", &e);
    }
    if (!bucket_cfg) plan->bucket_is_default = 1;
    if (!plan->bucket[0]) {
        snprintf(plan->bucket, sizeof plan->bucket, "sagemaker-%s-%s",
                 plan->region[0] ? plan->region : "<region>",
                 plan->account[0] ? plan->account : "<account>");
        note_text(plan, "bucket",
                  "shown as sagemaker-<region>-<account>; or pass --bucket / set SAGEMAKER_BUCKET");
    }
    if (role_cfg)
        snprintf(plan->role_arn, sizeof plan->role_arn, "%s", role_cfg);
    else if (!plan->account[0])
        note_text(plan, "execution role",
                  "needs the account; or pass --role-arn / set SAGEMAKER_ROLE_ARN");
    else if (smfw_aws_default_execution_role(client, NULL, plan->role_arn, sizeof plan->role_arn,
                                             &e) != SMFW_OK) {
        plan->role_arn[0] = '\0';
        if (!dry_run) {
            *err = e;
            return e.status;
        }
        note(plan, "execution role", &e);
    }
    return SMFW_OK;
}

void managed_plan_output_uri(managed_plan *plan, const char *output_prefix, const char *name) {
    char prefix[512];
    snprintf(prefix, sizeof prefix, "%s", output_prefix ? output_prefix : "");
    size_t pl = strlen(prefix);
    while (pl && prefix[pl - 1] == '/') prefix[--pl] = '\0';
    snprintf(plan->output_uri, sizeof plan->output_uri, "s3://%s/%s%s%s/", plan->bucket, prefix,
             pl ? "/" : "", name);
}

void managed_come_back_command(const smfw_config *cfg, const char *command, const char *name,
                               const char *region, char *out, size_t size) {
    const smfw_settings *aws = smfw_config_section(cfg, "aws");
    const char *profile = smfw_settings_get(aws, "profile");
    const char *url = smfw_settings_get(aws, "endpoint_url");
    int n = snprintf(out, size, "%s %s", command, name);
    if (region && *region && n >= 0 && (size_t)n < size)
        n += snprintf(out + n, size - (size_t)n, " --region %s", region);
    if (url && *url && n >= 0 && (size_t)n < size)
        n += snprintf(out + n, size - (size_t)n, " --endpoint-url %s", url);
    if (profile && *profile && n >= 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, " --profile %s", profile);
}
