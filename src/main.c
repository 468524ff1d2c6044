/* main.c - the smfw program: a thin dispatcher over its commands and the plugins' commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/log.h>

#include "commands.h"

static void print_overview(FILE *out, int argc, char **argv) {
    fprintf(out,
            "smfw %s - benchmark LLM inference endpoints (Amazon SageMaker AI first)\n\n"
            "Usage: smfw COMMAND [options]      (smfw --backend NAME ... is `smfw run`)\n\n"
            "Commands:\n",
            smfw_version());
    for (const smfw_command *const *c = smfw_commands(); *c; c++)
        fprintf(out, "  %-12s %s\n", (*c)->name, (*c)->summary);
    smfw_plugin_commands_list(out, argc, argv);
    fprintf(out, "\nRun `smfw help COMMAND` or `smfw COMMAND --help` for a command's options.\n"
                 "Exit codes: 0 ok, 1 usage/config, 2 AWS/network, 3 validity gate, "
                 "4 regression, 130 interrupted.\n");
}

static int version_main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    printf("smfw %s (plugin ABI %d.%d)\n", smfw_version(), SMFW_ABI_MAJOR, SMFW_ABI_MINOR);
    return 0;
}

const smfw_command smfw_command_version = {"version", "print the version and plugin ABI",
                                           "Usage: smfw version", version_main};

static int help_main(int argc, char **argv) {
    if (argc < 2 || argv[1][0] == '-') {
        print_overview(stdout, argc, argv); /* `smfw help --plugin-path DIR` lists its commands */
        return 0;
    }
    const smfw_command *cmd = smfw_command_find(argv[1]);
    if (cmd) {
        char *sub[] = {(char *)cmd->name, "--help", NULL};
        return cmd->main(2, sub);
    }
    /* A plugin's command (or the unknown-command error); options after NAME still count. */
    char **sub = calloc((size_t)argc + 1, sizeof *sub);
    if (!sub) return 1;
    sub[0] = argv[1];
    sub[1] = "--help";
    for (int i = 2; i < argc; i++) sub[i] = argv[i];
    int rc = smfw_plugin_command_main(argc, sub);
    free(sub);
    return rc;
}

const smfw_command smfw_command_help = {"help", "show help for smfw or one command",
                                        "Usage: smfw help [COMMAND]", help_main};

int main(int argc, char **argv) {
    if (argc < 2) {
        print_overview(stderr, 0, NULL);
        return 1;
    }
    const char *first = argv[1];
    if (strcmp(first, "--version") == 0 || strcmp(first, "-V") == 0) return version_main(0, NULL);
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
        print_overview(stdout, argc - 1, argv + 1);
        return 0;
    }
    const smfw_command *cmd = smfw_command_find(first);
    if (cmd) return cmd->main(argc - 1, argv + 1);
    if (first[0] == '-') {
        /* `smfw --backend managed ...` and friends: options alone mean `smfw run`. */
        const smfw_command *run = smfw_command_find("run");
        if (run) {
            argv[0] = (char *)"run";
            return run->main(argc, argv);
        }
    }
    return smfw_plugin_command_main(argc - 1, argv + 1); /* or "unknown command" */
}
