/* aws_defaults.c - account, bucket and execution role defaults of the managed backend. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "aws/aws_internal.h"

smfw_status smfw_aws_default_account(smfw_aws_client *c, char out[16], smfw_error *err) {
    smfw_aws_identity id;
    smfw_status st = smfw_aws_sts_get_caller_identity(c, &id, err);
    if (st == SMFW_OK) aws_strlcpy(out, id.account, 16);
    return st;
}

smfw_status smfw_aws_default_bucket(smfw_aws_client *c, const char *configured, char *out,
                                    size_t out_size, smfw_error *err) {
    const char *b = configured && *configured ? configured : aws_getenv("SAGEMAKER_BUCKET");
    if (b) {
        aws_strlcpy(out, b, out_size);
        return SMFW_OK;
    }
    const char *region;
    smfw_status st = smfw_aws_client_region(c, &region, err);
    if (st != SMFW_OK) return st;
    char account[16];
    st = smfw_aws_default_account(c, account, err);
    if (st != SMFW_OK) return smfw_error_prefix(err, "cannot name the default S3 bucket");
    snprintf(out, out_size, "sagemaker-%s-%s", region, account);
    return SMFW_OK;
}

static int contains_ci(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0) return 1;
    return 0;
}

typedef struct role_pick {
    char arn[2048];
    int found;
} role_pick;

static int pick_role(const char *name, const char *arn, void *user) {
    role_pick *p = user;
    if (strstr(name, "SageMaker") && (strstr(name, "ExecutionRole") || strstr(name, "execution"))) {
        aws_strlcpy(p->arn, arn, sizeof(p->arn));
        p->found = 1;
        return 1;
    }
    return 0;
}

smfw_status smfw_aws_default_execution_role(smfw_aws_client *c, const char *configured, char *out,
                                            size_t out_size, smfw_error *err) {
    const char *r = configured && *configured ? configured : aws_getenv("SAGEMAKER_ROLE_ARN");
    if (r) {
        aws_strlcpy(out, r, out_size);
        return SMFW_OK;
    }
    smfw_aws_identity id;
    smfw_status st = smfw_aws_sts_get_caller_identity(c, &id, err);
    if (st != SMFW_OK) return smfw_error_prefix(err, "cannot detect the SageMaker execution role");
    /* arn:<partition>:sts::<account>:assumed-role/<name>/<session> */
    const char *ar = strstr(id.arn, ":assumed-role/");
    if (ar && strncmp(id.arn, "arn:", 4) == 0) {
        const char *name = ar + 14;
        size_t nl = strcspn(name, "/");
        char role[256];
        snprintf(role, sizeof(role), "%.*s", (int)nl, name);
        if (contains_ci(role, "sagemaker")) {
            const char *part_end = strchr(id.arn + 4, ':');
            /* Ask IAM for the full ARN (with its path); fall back to the plain form. */
            smfw_error ierr;
            if (smfw_aws_iam_get_role(c, role, out, out_size, &ierr) == SMFW_OK) return SMFW_OK;
            snprintf(out, out_size, "arn:%.*s:iam::%s:role/%s%s", (int)(part_end - id.arn - 4),
                     id.arn + 4, id.account,
                     strstr(role, "AmazonSageMaker-ExecutionRole") ? "service-role/" : "", role);
            return SMFW_OK;
        }
    }
    role_pick pick;
    memset(&pick, 0, sizeof(pick));
    smfw_error lerr;
    smfw_error_clear(&lerr);
    st = smfw_aws_iam_list_roles(c, pick_role, &pick, &lerr);
    if (st == SMFW_OK && pick.found) {
        aws_strlcpy(out, pick.arn, out_size);
        return SMFW_OK;
    }
    char why[SMFW_ERROR_MESSAGE_MAX / 2] = "";
    if (st != SMFW_OK) {
        aws_strlcpy(why, " (IAM ListRoles failed: ", sizeof(why));
        size_t l = strlen(why);
        aws_strlcpy(why + l, lerr.message, sizeof(why) - l - 1);
        l = strlen(why);
        why[l] = ')';
        why[l + 1] = '\0';
    }
    return smfw_error_set(err, SMFW_ERR_CONFIG,
                          "no SageMaker execution role found for %s%s: set SAGEMAKER_ROLE_ARN, "
                          "pass --role-arn, or set role_arn in the [backend.managed] section of "
                          "smfw.conf to a role that trusts sagemaker.amazonaws.com",
                          id.arn, why);
}
