/*
 * cli_published.c - results published with a model (`smfw publish`: Model
 * Registry metadata or endpoint tags) as a result folder, for `smfw results
 * --model-package ARN` and a `smfw compare` ARN. The reading is the `publish`
 * command's, which a plugin provides (plugins/command-aws): the program
 * hands it the ARN and a folder and names no AWS service itself.
 */
#include <string.h>

#include <smfw/log.h>

#include "commands.h"

int smfw_cli_is_published_arn(const char *text) {
    return text && strncmp(text, "arn:", 4) == 0;
}

int smfw_cli_fetch_published(const smfw_cli *cli, const char *arn, const char *dir) {
    smfw_command_value v[2] = {{"read", arn}, {"save", dir}};
    /* Quiet: the caller presents the folder; warnings and errors still show. */
    int rc = smfw_cli_run_command(cli, "publish", v, 2, -1);
    if (rc < 0) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "reading results published on %s needs the `smfw publish` command, which no "
                 "loaded plugin provides (it comes with the command plugin aws, "
                 "smfw_command_aws.so; see `smfw plugins`)",
                 arn);
        return 1;
    }
    return rc;
}
