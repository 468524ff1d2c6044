/*
 * plugin_commands.c - `smfw NAME ...` for a command a plugin provides
 * (smfw/command.h): the program parses the line from the command's declared
 * options with the same parser as the built-in commands, answers --help from
 * its descriptor, and calls its main with a context (and the program's
 * services, command_services.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/log.h>

#include "commands.h"

typedef struct value_list {
    smfw_command_value *v;
    size_t n, cap;
    int failed;
} value_list;

static int collect_value(void *user, const char *name, const char *value) {
    value_list *vs = user;
    if (vs->n == vs->cap) {
        size_t cap = vs->cap ? vs->cap * 2 : 8;
        smfw_command_value *grown = realloc(vs->v, cap * sizeof *grown);
        if (!grown) {
            smfw_log(SMFW_LOG_ERROR, NULL, "out of memory");
            return 1;
        }
        vs->v = grown;
        vs->cap = cap;
    }
    /* Both point into argv (getopt's optarg), which outlives the command. */
    vs->v[vs->n].name = name;
    vs->v[vs->n].value = value ? value : "";
    vs->n++;
    return 0;
}

/* The command's declared options in the shared parser's form (malloc'd, count in *n). */
static smfw_cli_option *parser_options(const smfw_command_def *def, size_t *n) {
    *n = 0;
    while (def->options && def->options[*n].name) (*n)++;
    smfw_cli_option *o = calloc(*n + 1, sizeof *o);
    for (size_t i = 0; o && i < *n; i++) {
        o[i].name = def->options[i].name;
        o[i].has_arg = def->options[i].takes_value ? required_argument : no_argument;
        o[i].metavar = def->options[i].takes_value ? def->options[i].metavar : NULL;
        o[i].help = def->options[i].help;
    }
    return o;
}

static int call_main(const smfw_command_def *def, const smfw_cli *cli,
                     const smfw_command_value *values, size_t n_values, int verbosity,
                     char **positional, int n_positional) {
    smfw_command_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.size = sizeof ctx;
    ctx.config = cli->cfg;
    ctx.services = smfw_command_services_bind(cli);
    ctx.values = values;
    ctx.n_values = n_values;
    ctx.verbosity = verbosity;
    ctx.out = stdout;
    char **av = calloc((size_t)n_positional + 2, sizeof *av);
    if (!av) {
        smfw_log(SMFW_LOG_ERROR, NULL, "out of memory");
        return 1;
    }
    av[0] = (char *)def->name;
    for (int i = 0; i < n_positional; i++) av[i + 1] = positional[i];
    int rc = def->main(&ctx, n_positional + 1, av);
    fflush(stdout);
    free(av);
    return rc;
}

int smfw_plugin_command_main(int argc, char **argv) {
    smfw_cli cli;
    int want_help = 0;
    int rc = smfw_cli_begin(argc, argv, 1, &cli, &want_help);
    if (rc >= 0) {
        smfw_cli_cleanup(&cli);
        return rc;
    }
    const smfw_plugin_entry *pe = NULL;
    const smfw_command_def *def = smfw_registry_find_command(cli.reg, argv[0], &pe);
    if (!def) {
        smfw_log(SMFW_LOG_ERROR, NULL, "unknown command \"%s\" (see `smfw help`)", argv[0]);
        smfw_cli_cleanup(&cli);
        return 1;
    }
    size_t n_opts = 0;
    smfw_cli_option *opts = parser_options(def, &n_opts);
    /* The usage, then where the command comes from (a user asks "which plugin is this?"). */
    size_t len = strlen(def->usage) + strlen(pe->desc->name) + strlen(pe->path) + 64;
    char *usage = malloc(len);
    value_list vs = {NULL, 0, 0, 0};
    if (!opts || !usage) {
        smfw_log(SMFW_LOG_ERROR, NULL, "out of memory");
        rc = 1;
        goto done;
    }
    snprintf(usage, len, "%s\n\n(provided by the command plugin %s, %s)", def->usage,
             pe->desc->name, pe->path);
    smfw_command cmd = {def->name, def->summary, usage, NULL};
    if (want_help) {
        smfw_cli_print_help(&cmd, cli.cfg, opts, n_opts, stdout);
        rc = 0;
        goto done;
    }
    rc = smfw_cli_parse(&cmd, argc, argv, opts, n_opts, collect_value, &vs, &cli);
    if (rc < 0)
        rc = call_main(def, &cli, vs.v, vs.n, cli.verbosity, cli.positional, cli.n_positional);
done:
    free(vs.v);
    free(usage);
    free(opts);
    smfw_cli_cleanup(&cli);
    return rc;
}

int smfw_cli_run_command(const smfw_cli *cli, const char *name, const smfw_command_value *values,
                         size_t n_values, int verbosity) {
    const smfw_command_def *def = smfw_registry_find_command(cli->reg, name, NULL);
    if (!def) return -1;
    return call_main(def, cli, values, n_values, verbosity, NULL, 0);
}

void smfw_plugin_commands_list(FILE *out, int argc, char **argv) {
    smfw_registry *reg = smfw_cli_registry_only(argc, argv);
    int header = 0;
    for (size_t i = 0; i < smfw_registry_count(reg); i++) {
        const smfw_plugin_entry *e = smfw_registry_at(reg, i);
        if (e->desc->kind != SMFW_PLUGIN_COMMAND) continue;
        const smfw_command_ops *o = e->desc->ops;
        for (size_t k = 0; o->commands[k]; k++) {
            if (!header) fprintf(out, "\nPlugin commands:\n");
            header = 1;
            fprintf(out, "  %-12s %s (plugin %s)\n", o->commands[k]->name, o->commands[k]->summary,
                    e->desc->name);
        }
    }
    smfw_registry_free(reg);
}
