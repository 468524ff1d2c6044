/*
 * cli_cloudwatch.c - `--cloudwatch` on run and sweep: the server's view next to
 * the client's. The reading is the `cloudwatch` command's, which a plugin
 * provides (plugins/command-aws): the program hands it the benchmark's window
 * and request count and names no AWS service itself.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <smfw/log.h>

#include "commands.h"

int smfw_cli_cloudwatch_check(const smfw_cli *cli) {
    if (smfw_registry_find_command(cli->reg, "cloudwatch", NULL)) return 0;
    smfw_log(SMFW_LOG_ERROR, NULL,
             "--cloudwatch needs the `smfw cloudwatch` command, which no loaded plugin provides "
             "(it comes with the command plugin aws, smfw_command_aws.so; see `smfw plugins`)");
    return 1;
}

void smfw_cli_cloudwatch(const smfw_cli *cli, const char *variant, double wait_s, const char *dir,
                         int64_t start_ns, int64_t end_ns, int64_t requests_sent, int quiet) {
    char start[32], end[32], sent[32], wait[32];
    snprintf(start, sizeof start, "%" PRId64, (int64_t)(start_ns / 1000000000LL));
    snprintf(end, sizeof end, "%" PRId64, (int64_t)((end_ns + 999999999LL) / 1000000000LL));
    smfw_command_value v[6] = {{"start", start}, {"end", end}, {"save", dir}};
    size_t n = 3;
    if (requests_sent >= 0) {
        snprintf(sent, sizeof sent, "%" PRId64, requests_sent);
        v[n++] = (smfw_command_value){"sent", sent};
    }
    if (wait_s > 0) {
        snprintf(wait, sizeof wait, "%.3fs", wait_s);
        v[n++] = (smfw_command_value){"wait", wait};
    }
    if (variant) v[n++] = (smfw_command_value){"variant", variant};
    if (!quiet) fputc('\n', stdout);
    int rc = smfw_cli_run_command(cli, "cloudwatch", v, n, quiet ? -1 : cli->verbosity);
    if (rc != 0)
        SMFW_LOG_WARN(NULL,
                      "--cloudwatch: the server's view could not be read (%s); the "
                      "benchmark's own results stand",
                      rc < 0 ? "no `cloudwatch` command is loaded" : "see above");
}
