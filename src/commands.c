/* commands.c - the command table: every subcommand of the program, in display order. */
#include <string.h>

#include "commands.h"

extern const smfw_command smfw_command_run, smfw_command_results, smfw_command_sweep,
    smfw_command_compare, smfw_command_merge, smfw_command_launch, smfw_command_dataset,
    smfw_command_tokenize, smfw_command_plugins, smfw_command_config, smfw_command_version,
    smfw_command_help;

/* Display order of `smfw help`; a missing cmd_<name>.c is a link error, not a silent gap. */
static const smfw_command *const command_table[] = {&smfw_command_run,
                                                    &smfw_command_results,
                                                    &smfw_command_sweep,
                                                    &smfw_command_compare,
                                                    &smfw_command_merge,
                                                    &smfw_command_launch,
                                                    &smfw_command_dataset,
                                                    &smfw_command_tokenize,
                                                    &smfw_command_plugins,
                                                    &smfw_command_config,
                                                    &smfw_command_version,
                                                    &smfw_command_help,
                                                    NULL};

const smfw_command *const *smfw_commands(void) {
    return command_table;
}

const smfw_command *smfw_command_find(const char *name) {
    if (strcmp(name, "profile") == 0) name = "run"; /* AIPerf's verb */
    for (const smfw_command *const *c = smfw_commands(); *c; c++)
        if (strcmp((*c)->name, name) == 0) return *c;
    return NULL;
}
