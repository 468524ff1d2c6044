/*
 * cli_pin.c - `--pin-capacity` on run and sweep: MinCapacity = MaxCapacity on
 * the endpoint's scalable target for the benchmark, or it measures the scaling
 * policy. The work is the `autoscaling` command's (plugins/command-aws, which
 * journals the originals first); the program only says when, and names no AWS
 * service itself.
 */
#include <stdio.h>

#include <smfw/log.h>

#include "commands.h"

int smfw_cli_pin_capacity(const smfw_cli *cli, const char *variant, const char *action) {
    if (!smfw_registry_find_command(cli->reg, "autoscaling", NULL)) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--pin-capacity needs the `smfw autoscaling` command, which no loaded plugin "
                 "provides (it comes with the command plugin aws, smfw_command_aws.so; see "
                 "`smfw plugins`)");
        return 1;
    }
    smfw_command_value v[2] = {{"action", action}, {"variant", variant}};
    int rc = smfw_cli_run_command(cli, "autoscaling", v, variant ? 2 : 1, cli->verbosity);
    if (rc != 0 && action[0] == 'u')
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--pin-capacity: the capacity could not be restored (see above); `smfw "
                 "autoscaling restore` with the same --endpoint puts it back");
    return rc;
}
