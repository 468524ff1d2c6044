/* commands.c - the command table; later issues' commands register by defining their symbol. */
#include <string.h>

#include "commands.h"

/* Weak references: a command exists when its cmd_<name>.c is linked in. */
#define SMFW_WEAK_COMMAND(name) extern const smfw_command smfw_command_##name __attribute__((weak));
SMFW_WEAK_COMMAND(run)
SMFW_WEAK_COMMAND(results)
SMFW_WEAK_COMMAND(sweep)
SMFW_WEAK_COMMAND(compare)
SMFW_WEAK_COMMAND(merge)
SMFW_WEAK_COMMAND(launch)
SMFW_WEAK_COMMAND(cloudwatch)
SMFW_WEAK_COMMAND(dataset)
SMFW_WEAK_COMMAND(tokenize)
SMFW_WEAK_COMMAND(plugins)
SMFW_WEAK_COMMAND(config)
SMFW_WEAK_COMMAND(version)
SMFW_WEAK_COMMAND(help)

const smfw_command *const *smfw_commands(void) {
    static const smfw_command *table[16];
    static int built;
    if (!built) {
        const smfw_command *all[] = {
            &smfw_command_run,        &smfw_command_results, &smfw_command_sweep,
            &smfw_command_compare,    &smfw_command_merge,   &smfw_command_launch,
            &smfw_command_cloudwatch, &smfw_command_dataset, &smfw_command_tokenize,
            &smfw_command_plugins,    &smfw_command_config,  &smfw_command_version,
            &smfw_command_help};
        size_t n = 0;
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            if (all[i]) table[n++] = all[i];
        table[n] = NULL;
        built = 1;
    }
    return table;
}

const smfw_command *smfw_command_find(const char *name) {
    if (strcmp(name, "profile") == 0) name = "run"; /* AIPerf's verb */
    for (const smfw_command *const *c = smfw_commands(); *c; c++)
        if (strcmp((*c)->name, name) == 0) return *c;
    return NULL;
}
