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

/**
 * The server's view of a finished run or sweep: wait `wait_s` (CloudWatch
 * publishes with a delay), read SageMaker's CloudWatch metrics over
 * [start_ns, end_ns] for the configured endpoint (variant NULL = AllTraffic),
 * compare them with `requests_sent` (-1 = unknown), write cloudwatch.md and
 * cloudwatch.json into dir and print the reading unless quiet. Problems are
 * warnings: the benchmark's own results stand.
 */
void smfw_cli_cloudwatch(const smfw_config *cfg, const char *variant, double wait_s,
                         const char *dir, int64_t start_ns, int64_t end_ns, int64_t requests_sent,
                         int quiet);

/** Print an error sentence as "smfw: error: ..." and return the exit code of its status. */
int smfw_cli_fail(const smfw_error *err);

#endif
