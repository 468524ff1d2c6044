/*
 * cli_pin.c - `--pin-capacity` on run and sweep: MinCapacity = MaxCapacity on
 * the endpoint's scalable target for the benchmark, or it measures the scaling
 * policy (--suspend-scaling: its policies suspended as well). The work is the `autoscaling`
 * command's (plugins/command-aws, which journals the originals first); the program only says when,
 * and names no AWS service itself.
 */
#include <stdio.h>

#include <smfw/log.h>

#include "commands.h"

int smfw_cli_pin_flags_check(int pin, int suspend) {
    if (!suspend || pin) return 0;
    /* Suspending alone would leave Min/Max to scheduled actions and to whoever else
     * registers the target, and would be a second thing to journal: it rides on the pin. */
    smfw_log(SMFW_LOG_ERROR, NULL,
             "--suspend-scaling suspends the scaling policies of the target --pin-capacity "
             "holds: pass --pin-capacity too");
    return 1;
}

int smfw_cli_pin_capacity(const smfw_cli *cli, const char *variant, const char *action,
                          int suspend) {
    if (!smfw_registry_find_command(cli->reg, "autoscaling", NULL)) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--pin-capacity needs the `smfw autoscaling` command, which no loaded plugin "
                 "provides (it comes with the command plugin aws, smfw_command_aws.so; see "
                 "`smfw plugins`)");
        return 1;
    }
    smfw_command_value v[3] = {{"action", action}};
    size_t n = 1;
    if (variant) v[n++] = (smfw_command_value){"variant", variant};
    if (suspend && action[0] == 'p') v[n++] = (smfw_command_value){"suspend-scaling", ""};
    int rc = smfw_cli_run_command(cli, "autoscaling", v, n, cli->verbosity);
    if (rc != 0 && action[0] == 'u')
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--pin-capacity: the capacity could not be restored (see above); `smfw "
                 "autoscaling restore` with the same --endpoint puts it back");
    return rc;
}
