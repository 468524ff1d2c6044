/* cmd_config.c - `smfw config`: the effective settings and where each came from. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

extern const smfw_command smfw_command_config;

static int only_changed;

static int config_option(void *user, const char *name, const char *value) {
    (void)user;
    (void)value;
    if (strcmp(name, "changed") == 0) only_changed = 1;
    return 0;
}

static const smfw_cli_option config_options[] = {
    {"changed", no_argument, 0, NULL, "show only the settings that differ from their defaults"}};

static int config_main(int argc, char **argv) {
    smfw_cli cli;
    int rc = smfw_cli_setup(&smfw_command_config, argc, argv, config_options, 1, config_option,
                            NULL, 1, &cli);
    if (rc >= 0) {
        smfw_cli_cleanup(&cli);
        return rc;
    }
    printf("# effective smfw settings (config file: %s)\n",
           cli.config_file ? cli.config_file : "none");
    smfw_config_dump(cli.cfg, stdout, only_changed);
    smfw_cli_cleanup(&cli);
    return 0;
}

const smfw_command smfw_command_config = {
    "config", "show the effective settings and where each came from (secrets masked)",
    "Usage: smfw config [--changed] [any run option]\n\n"
    "Prints every setting of every section with its effective value and its source:\n"
    "flag > environment > config file > default. Secrets are masked.",
    config_main};
