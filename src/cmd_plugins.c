/* cmd_plugins.c - `smfw plugins`: what was found, where, which ABI, and what was refused. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

extern const smfw_command smfw_command_plugins;

static int plugins_main(int argc, char **argv) {
    smfw_cli cli;
    int rc = smfw_cli_setup(&smfw_command_plugins, argc, argv, NULL, 0, NULL, NULL, 1, &cli);
    if (rc >= 0) {
        smfw_cli_cleanup(&cli);
        return rc;
    }
    size_t n = smfw_registry_count(cli.reg);
    printf("%-9s %-12s %-9s %-5s %s\n", "KIND", "NAME", "VERSION", "ABI", "PATH / DESCRIPTION");
    for (int kind = SMFW_PLUGIN_BACKEND; kind <= SMFW_PLUGIN_COMMAND; kind++) {
        for (size_t i = 0; i < n; i++) {
            const smfw_plugin_entry *e = smfw_registry_at(cli.reg, i);
            if ((int)e->desc->kind != kind) continue;
            printf("%-9s %-12s %-9s %u.%-3u %s\n%-38s %s\n", smfw_plugin_kind_name(e->desc->kind),
                   e->desc->name, e->desc->version, e->desc->abi_major, e->desc->abi_minor, e->path,
                   "", e->desc->description);
            if (e->desc->kind != SMFW_PLUGIN_COMMAND) continue;
            const smfw_command_ops *o = e->desc->ops;
            printf("%-38s commands:", "");
            for (size_t k = 0; o->commands[k]; k++) printf(" %s", o->commands[k]->name);
            putchar('\n');
        }
    }
    size_t refused = smfw_registry_refused_count(cli.reg);
    if (n == 0) printf("(no plugins found; set --plugin-path or SMFW_PLUGIN_PATH)\n");
    for (size_t i = 0; i < refused; i++) printf("refused: %s\n", smfw_registry_refused(cli.reg, i));
    smfw_cli_cleanup(&cli);
    return refused ? 1 : 0;
}

const smfw_command smfw_command_plugins = {
    "plugins", "list the plugins found: kind, name, version, ABI, path",
    "Usage: smfw plugins [--plugin-path DIR]\n\n"
    "Lists every plugin module found on the search path (--plugin-path, SMFW_PLUGIN_PATH,\n"
    "plugin_path in the config, the build tree, the installed folder) and every module that\n"
    "was refused, with the reason. Exits 1 when a module was refused.",
    plugins_main};
