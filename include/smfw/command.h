/*
 * command.h - the command interface: plugins contribute subcommands of the
 * smfw program (`smfw NAME ...`).
 *
 * A command plugin's ops table lists one or more command descriptors. Each
 * declares its name, a help line, a usage paragraph and its own options; the
 * program parses the command line for it (the common options, every declared
 * setting's flag, and the command's options), answers --help and
 * `smfw help NAME` from the descriptor, and calls main() with a context:
 *
 *     static const smfw_command_option hello_options[] = {
 *         {"who", 1, "NAME", "whom to greet"}, SMFW_COMMAND_OPTIONS_END};
 *     static int hello_main(const smfw_command_context *ctx, int argc, char **argv) {
 *         const char *who = smfw_command_get(ctx, "who");
 *         fprintf(ctx->out, "hello %s\n", who ? who : "world");
 *         return 0;
 *     }
 *     static const smfw_command_def hello_def = {sizeof hello_def, "hello", "say hello",
 *         "Usage: smfw hello [--who NAME]", hello_options, hello_main};
 *     static const smfw_command_def *const hello_defs[] = {&hello_def, NULL};
 *     static const smfw_command_ops hello_ops = {sizeof hello_ops, hello_defs};
 *     SMFW_PLUGIN_DEFINE(smfw_command_hello, SMFW_PLUGIN_COMMAND, "hello", "1.0.0",
 *                        "The hello command", NULL, &hello_ops)
 *
 * The loader refuses a command plugin (naming the file) when a command's name
 * is not [a-z0-9-], a required field is NULL, another loaded plugin already
 * provides a command of that name, or the name is one of the program's
 * built-in commands. The kind arrived with plugin ABI 1.1.
 */
#ifndef SMFW_COMMAND_H
#define SMFW_COMMAND_H

#include <stdio.h>

#include <smfw/config.h>
#include <smfw/dataset.h>
#include <smfw/run_set.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One option of a command, `--name` or `--name VALUE`. There are no short
 * letters: they share one namespace with the settings' short flags.
 */
typedef struct smfw_command_option {
    const char *name;    /**< long name without "--": [a-z0-9-]+ */
    int takes_value;     /**< 1: --name VALUE (or --name=VALUE); 0: a switch */
    const char *metavar; /**< placeholder in the help ("DIR"); NULL for a switch */
    const char *help;    /**< one line */
} smfw_command_option;

/** Ends an array of smfw_command_option. */
#define SMFW_COMMAND_OPTIONS_END                                                                   \
    { NULL, 0, NULL, NULL }

/** One option as given on the command line. */
typedef struct smfw_command_value {
    const char *name;  /**< the option's name */
    const char *value; /**< its value; "" for a switch */
} smfw_command_value;

/**
 * What a command gets from the program. Valid during main() only; copy what
 * you keep.
 */
typedef struct smfw_command_context {
    uint32_t size; /**< sizeof(smfw_command_context) of the program: check before reading
                      members added after 1.1 */
    /**
     * The loaded configuration: every section (the core's [run], [smfw], [aws]...
     * and every plugin's), with the config file, environment and flags applied.
     * Read it with smfw_config_section() and the getters of smfw/config.h.
     */
    const smfw_config *config;
    const smfw_command_value *values; /**< the command's own options, in the order given */
    size_t n_values;
    int verbosity; /**< count of -v minus count of -q (below 0: print only what was asked) */
    FILE *out;     /**< where the command's output goes (stdout); log lines go to smfw/log.h */
    /* 1.1 ends here; members below were appended (size-prefixed, no ABI bump). */
    /**
     * What the program does for a command that a plugin cannot do
     * with the SDK alone (the program's API is not the plugins'). Check
     * ctx->size covers it and services->size covers the slot used.
     */
    const struct smfw_command_services *services;
} smfw_command_context;

/**
 * The program's services to command plugins (appended to ABI 2.0). Each works with the
 * registry and configuration of the command being run.
 */
typedef struct smfw_command_services {
    uint32_t size; /**< sizeof(smfw_command_services) of the program */
    /**
     * Load the configured dataset's prompts as `smfw run` does (the plugin
     * named by [smfw] dataset, the [dataset] settings, every bad record
     * reported first). Free *out with smfw_prompt_set_free().
     */
    smfw_status (*load_prompts)(const smfw_command_context *ctx, smfw_prompt_set **out,
                                smfw_error *err);
    /**
     * Present a run set as `smfw sweep` presents its levels: the configured
     * reporters in each level's folder, then the price of `instance_type`
     * (the price table; none when it has no entry), the analysis (knee,
     * cost, autoscaling target), sweep.{json,md,csv,html} in the set's folder
     * and sweep.md on stdout (unless ctx->verbosity < 0). Returns an exit code.
     */
    int (*report_sweep)(const smfw_command_context *ctx, smfw_run_set *set,
                        const char *instance_type);
    /**
     * Set saved sweeps side by side, cheapest operating point first, as
     * `smfw sweep --compare-instance DIR=TYPE ...` does; each spec is a
     * folder, "=TYPE" naming its instance type. Returns an exit code.
     */
    int (*compare_sweeps)(const smfw_command_context *ctx, const char *const *specs, size_t n);
    /**
     * The list price of one instance-hour of `instance_type` in the configured region,
     * from the price table `smfw sweep --instance-type` reads; `source` says which table
     * and of what date. SMFW_ERR_NOT_FOUND (or _CONFIG) with a sentence when it has none.
     */
    smfw_status (*instance_price)(const smfw_command_context *ctx, const char *instance_type,
                                  double *usd_per_hour, char *source, size_t source_size,
                                  smfw_error *err);
} smfw_command_services;

/**
 * The value of the command's option `name` (the last one when given more
 * than once; "" for a switch), or NULL when it was not given.
 */
SMFW_API const char *smfw_command_get(const smfw_command_context *ctx, const char *name);

/** One command. */
typedef struct smfw_command_def {
    uint32_t size;       /**< sizeof(smfw_command_def) the plugin was built with */
    const char *name;    /**< what users type, `smfw NAME`: [a-z0-9-]+, unique among commands */
    const char *summary; /**< one line for `smfw help` */
    const char *usage;   /**< "Usage: smfw NAME ..." and a paragraph, printed by --help */
    const smfw_command_option *options; /**< SMFW_COMMAND_OPTIONS_END-terminated; may be NULL */
    /**
     * Required. Run the command. argv[0] is the command's name, then come
     * the positional arguments (options are in ctx). Returns the exit code
     * (docs/guide.md: 0 ok, 1 usage/config/input, 2 AWS/network, ...;
     * smfw_status_exit_code() maps a status). Errors are logged with
     * smfw/log.h, naming the flag, file or value at fault.
     */
    int (*main)(const smfw_command_context *ctx, int argc, char **argv);
} smfw_command_def;

/** Operations of a command plugin. */
typedef struct smfw_command_ops {
    uint32_t size; /**< sizeof(smfw_command_ops) the plugin was built with */
    const smfw_command_def *const *commands; /**< Required. NULL-terminated, at least one */
} smfw_command_ops;

#ifdef __cplusplus
}
#endif
#endif /* SMFW_COMMAND_H */
