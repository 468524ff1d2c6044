/*
 * cli_endpoint_cost.c - the last words of a benchmark of a SageMaker endpoint:
 * what the endpoint costs per hour while it keeps running, and the commands
 * that delete it. The reading is the `endpoint-cost` command's, which a
 * plugin provides (plugins/command-aws); the program only says when, and
 * names no AWS service itself.
 */
#include <stdio.h>
#include <string.h>

#include <smfw/log.h>

#include "commands.h"

void smfw_cli_endpoint_cost(const smfw_cli *cli) {
    if (cli->verbosity < 0) return; /* -q: print only what was asked */
    const char *ep = smfw_settings_get(smfw_config_section(cli->cfg, "run"), "endpoint");
    /* --url runs name no endpoint; "mock" is the private emulator, which costs nothing. */
    if (!ep || !*ep || strcmp(ep, "mock") == 0) return;
    if (!smfw_registry_find_command(cli->reg, "endpoint-cost", NULL)) return;
    fputc('\n', stdout);
    fflush(stdout);
    if (smfw_cli_run_command(cli, "endpoint-cost", NULL, 0, cli->verbosity) != 0)
        SMFW_LOG_WARN(NULL,
                      "what endpoint %s costs per hour could not be read (see above); the "
                      "benchmark's results stand",
                      ep);
}
