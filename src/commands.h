/*
 * commands.h - the smfw program's subcommands and the shared CLI helpers.
 *
 * Each subcommand lives in src/cmd_<name>.c and defines
 *     const smfw_command smfw_command_<name> = {...};
 * and is listed once in the table in commands.c.
 */
#ifndef SMFW_COMMANDS_H
#define SMFW_COMMANDS_H

#include <getopt.h>
#include <signal.h>

#include <smfw/app.h>

typedef struct smfw_command {
    const char *name;    /**< "run", "plugins", ... */
    const char *summary; /**< one line for `smfw help` */
    const char *usage;   /**< "smfw run [options]" and a paragraph; printed by --help */
    int (*main)(int argc, char **argv); /**< argv[0] is the command name; returns an exit code */
} smfw_command;

/** Every registered command, in display order (NULL-terminated). */
const smfw_command *const *smfw_commands(void);
const smfw_command *smfw_command_find(const char *name);

/* ---- shared CLI setup --------------------------------------------------- */

/** A command-specific option handled by the command itself. */
typedef struct smfw_cli_option {
    const char *name; /**< long name without "--" */
    int has_arg;      /**< no_argument / required_argument */
    char short_name;  /**< or 0 */
    const char *metavar;
    const char *help;
} smfw_cli_option;

typedef struct smfw_cli {
    smfw_registry *reg;
    smfw_config *cfg;
    char **positional; /**< non-option arguments (borrowed from argv) */
    int n_positional;
    int verbosity;           /**< count of -v minus count of -q */
    const char *config_file; /**< the file that was read, or NULL */
} smfw_cli;

/**
 * Parse a command line: -C/--config, --plugin-path, -v/-q, -h/--help, every
 * declared setting's flag (booleans also as --no-<flag>), plus the command's
 * own options, reported through on_option (return non-zero to fail). Loads
 * the plugins and the configuration in precedence order. Prints errors and
 * help itself; returns -1 to continue, or an exit code to return at once.
 */
int smfw_cli_setup(const smfw_command *cmd, int argc, char **argv, const smfw_cli_option *extra,
                   size_t n_extra,
                   int (*on_option)(void *user, const char *name, const char *value), void *user,
                   int load_plugins, smfw_cli *cli);

/**
 * smfw_cli_setup() in two halves, for a command whose options are known only
 * once plugins are loaded (a plugin's command): smfw_cli_begin() reads -C,
 * --plugin-path, -v/-q and -h, loads the plugins (built-in command names
 * reserved) and the configuration, and says whether help was asked;
 * smfw_cli_parse() then parses every flag. Both return -1 to continue or
 * an exit code; smfw_cli_cleanup() afterwards either way.
 */
int smfw_cli_begin(int argc, char **argv, int load_plugins, smfw_cli *cli, int *want_help);
int smfw_cli_parse(const smfw_command *cmd, int argc, char **argv, const smfw_cli_option *extra,
                   size_t n_extra,
                   int (*on_option)(void *user, const char *name, const char *value), void *user,
                   smfw_cli *cli);

/**
 * Only the plugins of a command line (its --plugin-path and -C, the
 * defaults), without reading the configuration: for listings such as
 * `smfw help`. NULL when the loader failed (said so).
 */
smfw_registry *smfw_cli_registry_only(int argc, char **argv);

/** Release what smfw_cli_setup() made. */
void smfw_cli_cleanup(smfw_cli *cli);

/** Print the command's usage, its own options and the settings flags. */
void smfw_cli_print_help(const smfw_command *cmd, const smfw_config *cfg,
                         const smfw_cli_option *extra, size_t n_extra, FILE *out);

/** Install SIGINT/SIGTERM handlers that drive the returned cancel flag (1st: stop, 2nd: abort). */
volatile sig_atomic_t *smfw_cli_install_cancel_handler(void);

/** The progress printer used by run-like commands (TTY bar, plain lines, or none). */
void smfw_cli_progress(void *user, const smfw_progress *p);
/** Finish the progress display (newline after a TTY bar). */
void smfw_cli_progress_end(void);
/** Configure the progress printer from smfw.progress and the verbosity. */
void smfw_cli_progress_setup(const smfw_config *cfg, int verbosity);

/* ---- commands that plugins provide (smfw/command.h) ---------------------- */

/**
 * `smfw NAME ...` for a command of a loaded plugin (argv[0] is NAME): parse
 * the line from its declared options, answer --help, call its main. An
 * unknown NAME is the "unknown command" error, exit 1.
 */
int smfw_plugin_command_main(int argc, char **argv);

/**
 * Run the plugin command `name` from inside another command, with that
 * command's configuration and the options given as `values`. Returns its
 * exit code, or -1 when no loaded plugin provides it.
 */
int smfw_cli_run_command(const smfw_cli *cli, const char *name, const smfw_command_value *values,
                         size_t n_values, int verbosity);

/**
 * `smfw sweep`'s presentation of a run set whose levels are in their folders (reports
 * written): the price of instance_type (when given; a type the price table lacks is a
 * warning), the analysis, sweep.* in the set's folder, sweep.md on stdout unless quiet.
 * Returns an exit code (cmd_sweep.c).
 */
int smfw_sweep_present(const smfw_cli *cli, smfw_run_set *set, const char *instance_type,
                       int quiet);

/** The price table's price of instance_type in the configured region (cmd_sweep.c). */
smfw_status smfw_sweep_instance_price(const smfw_cli *cli, const char *instance_type, double *usd,
                                      char *source, size_t source_size, smfw_error *err);

/** `smfw sweep --compare-instance` over specs "DIR[=TYPE]" (cmd_sweep.c). Returns an exit code. */
int smfw_sweep_compare(const smfw_cli *cli, const char *const *specs, size_t n);

/**
 * The services a plugin command gets (smfw/command.h), bound to cli while its main runs:
 * the program runs one command at a time (command_services.c).
 */
const smfw_command_services *smfw_command_services_bind(const smfw_cli *cli);

/**
 * After a benchmark of a SageMaker endpoint (not --url, not `--endpoint mock`, not with -q):
 * the `endpoint-cost` command's hourly cost of the endpoint left running and the commands
 * that delete it, when a loaded plugin provides it; a failure is a warning only
 * (cli_endpoint_cost.c).
 */
void smfw_cli_endpoint_cost(const smfw_cli *cli);

/** The "Plugin commands:" part of `smfw help` (nothing when there are none). */
void smfw_plugin_commands_list(FILE *out, int argc, char **argv);

/** 1 when a results source given on the command line is an ARN (read by `smfw publish`). */
int smfw_cli_is_published_arn(const char *text);

/**
 * Results published with a model (`smfw publish --read ARN --save DIR`): a
 * model package version, a group (its last Approved version) or an
 * endpoint's tags, written as a result folder into dir. Returns the exit
 * code; 1 when no loaded plugin provides the `publish` command.
 */
int smfw_cli_fetch_published(const smfw_cli *cli, const char *arn, const char *dir);

/**
 * `--cloudwatch` on run and sweep. The check (before the benchmark) fails
 * with exit code 1 when no plugin provides the `cloudwatch` command. After
 * it, the command reads SageMaker's CloudWatch metrics over [start_ns,
 * end_ns] for the configured endpoint (variant NULL = AllTraffic) once
 * `wait_s` has passed, compares them with `requests_sent` (-1 = unknown),
 * writes cloudwatch.md and cloudwatch.json into dir and prints the reading
 * unless quiet. Problems are warnings: the benchmark's own results stand.
 */
int smfw_cli_cloudwatch_check(const smfw_cli *cli);
void smfw_cli_cloudwatch(const smfw_cli *cli, const char *variant, double wait_s, const char *dir,
                         int64_t start_ns, int64_t end_ns, int64_t requests_sent, int quiet);

/**
 * `--pin-capacity` on run and sweep: run the `autoscaling` command's `action`
 * ("pin" before the load, "unpin" after it, Ctrl-C included) for the configured
 * endpoint (variant NULL = AllTraffic) or inference component; `suspend`
 * (--suspend-scaling, pin only) suspends its dynamic scaling too. Returns its exit
 * code; 1 when no plugin provides the command.
 */
int smfw_cli_pin_capacity(const smfw_cli *cli, const char *variant, const char *action,
                          int suspend);

/**
 * --suspend-scaling without --pin-capacity: the usage error (exit 1) that says so, or 0
 * when the two agree.
 */
int smfw_cli_pin_flags_check(int pin, int suspend);

/** Print an error sentence as "smfw: error: ..." and return the exit code of its status. */
int smfw_cli_fail(const smfw_error *err);

#endif
