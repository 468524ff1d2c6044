/*
 * app.h - the program-level API: plugin registry, configuration loading and
 * run orchestration. The `smfw` program is a thin main over these functions;
 * tests, smfw-mock (whose benchmark jobs run the direct backend) and other
 * programs can drive a whole benchmark through them too.
 *
 * Program API (installed in include/smfw-program, smfw-program.pc): unstable,
 * it may change in any release; plugins use the SDK only.
 */
#ifndef SMFW_APP_H
#define SMFW_APP_H

#include <stdio.h>

#include <smfw/clock.h>
#include <smfw/backend.h>
#include <smfw/command.h>
#include <smfw/config.h>
#include <smfw/dataset.h>
#include <smfw/plugin.h>
#include <smfw/reporter.h>
#include <smfw/results.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- plugin registry ---------------------------------------------------- */

/** A loaded plugin. */
typedef struct smfw_plugin_entry {
    const smfw_plugin_descriptor *desc;
    const char *path; /**< file it was loaded from */
} smfw_plugin_entry;

typedef struct smfw_registry smfw_registry;

/**
 * Load every plugin module found in `dirs` (searched in order; the first
 * plugin of a given kind+name wins, later duplicates are skipped with a
 * debug line). Each module's ABI and required slots are checked; a bad
 * module is refused (not loaded) with a sentence naming the file and the
 * reason, retrievable with smfw_registry_refused(). Only a failure of the
 * loader itself is returned as an error.
 */
SMFW_API smfw_status smfw_registry_load(const char *const *dirs, size_t n_dirs, smfw_registry **out,
                                        smfw_error *err);

/**
 * The default search path, in order: extra (e.g. --plugin-path, may be
 * NULL), SMFW_PLUGIN_PATH (colon-separated), config_paths (plugin_path from
 * the config, may be NULL), the build tree, the installed folder. Returns
 * the number of folders stored into dirs (at most max).
 */
SMFW_API size_t smfw_registry_default_dirs(const char *const *extra, size_t n_extra,
                                           const char *const *config_paths, size_t n_config,
                                           const char **dirs, size_t max);

SMFW_API void smfw_registry_free(smfw_registry *reg);
SMFW_API size_t smfw_registry_count(const smfw_registry *reg);
SMFW_API const smfw_plugin_entry *smfw_registry_at(const smfw_registry *reg, size_t i);
/** The plugin of that kind and name, or NULL. */
SMFW_API const smfw_plugin_entry *smfw_registry_find(const smfw_registry *reg,
                                                     smfw_plugin_kind kind, const char *name);
/** Refusal messages ("plugin /x/y.so refused: ..."). */
SMFW_API size_t smfw_registry_refused_count(const smfw_registry *reg);
SMFW_API const char *smfw_registry_refused(const smfw_registry *reg, size_t i);

/**
 * Refuse every command plugin that provides a command named in `reserved`
 * (the program's built-in commands) as a load refusal: its module is closed,
 * and "plugin PATH refused: its command \"run\" is a built-in command of
 * smfw" is logged and added to the refusals. Call it right after loading,
 * before holding entries (the entries after a removed one move).
 */
SMFW_API void smfw_registry_reserve_commands(smfw_registry *reg, const char *const *reserved,
                                             size_t n_reserved);

/**
 * The command `name` of a loaded command plugin, or NULL. *plugin (may be
 * NULL) gets the plugin that provides it.
 */
SMFW_API const smfw_command_def *smfw_registry_find_command(const smfw_registry *reg,
                                                            const char *name,
                                                            const smfw_plugin_entry **plugin);

/**
 * Register a built-in (statically linked) plugin descriptor, as libltdl's
 * preloaded symbols would; used by tests and embedders. The descriptor is
 * checked like a loaded one.
 */
SMFW_API smfw_status smfw_registry_add_static(smfw_registry *reg,
                                              const smfw_plugin_descriptor *desc,
                                              const char *origin, smfw_error *err);

/* ---- configuration ------------------------------------------------------ */

/** The core's own sections and their declarations (terminated arrays). */
typedef struct smfw_section_decl {
    const char *name; /**< "smfw", "run", "aws", "dataset" */
    const char *help;
    const smfw_setting_decl *settings;
} smfw_section_decl;

/** Core sections, NULL-name terminated. */
SMFW_API const smfw_section_decl *smfw_core_sections(void);

/**
 * A configuration with the core sections and one section per plugin of the
 * registry ("<kind>.<name>"), every key at its default. reg may be NULL.
 */
SMFW_API smfw_status smfw_config_new(const smfw_registry *reg, smfw_config **out, smfw_error *err);
SMFW_API void smfw_config_free(smfw_config *config);

/**
 * Read an INI file. Unknown sections or keys and bad values are errors
 * naming the file, the line and the key.
 */
SMFW_API smfw_status smfw_config_load_file(smfw_config *config, const char *path, smfw_error *err);

/**
 * The config file to read when none is given: ./smfw.conf, else
 * $XDG_CONFIG_HOME/smfw/smfw.conf (~/.config/...). Writes the path into buf
 * and returns 1, or returns 0 when neither exists.
 */
SMFW_API int smfw_config_default_file(char *buf, size_t size);

/** Apply environment variables of declared keys (decl.env). Bad values are errors naming the
 * variable. */
SMFW_API smfw_status smfw_config_apply_env(smfw_config *config, smfw_error *err);

/**
 * Set one value (validated against its type). For LIST keys from flags the
 * value is appended. `origin` is a file name or the flag/variable name shown
 * in errors and in `smfw config`.
 */
SMFW_API smfw_status smfw_config_set(smfw_config *config, const char *section, const char *key,
                                     const char *value, smfw_setting_source source,
                                     const char *origin, int line, smfw_error *err);

/**
 * Replace a value whatever its current source (a list is replaced, not
 * appended to): for programs that drive the configuration themselves, such
 * as a sweep setting one level per run. Recorded as a flag with `origin`.
 */
SMFW_API smfw_status smfw_config_override(smfw_config *config, const char *section, const char *key,
                                          const char *value, const char *origin, smfw_error *err);

/** Find the declaration of a long option across all sections (NULL if none). */
SMFW_API const smfw_setting_decl *smfw_config_find_flag(const smfw_config *config, const char *flag,
                                                        const char **section);

/** Find by short option letter. */
SMFW_API const smfw_setting_decl *smfw_config_find_short(const smfw_config *config, char letter,
                                                         const char **section);

/** Iterate sections and their declarations (for --help and `smfw config`). */
SMFW_API size_t smfw_config_section_count(const smfw_config *config);
SMFW_API const char *smfw_config_section_name(const smfw_config *config, size_t i);
SMFW_API const smfw_setting_decl *smfw_config_section_decls(const smfw_config *config, size_t i);

/**
 * Print the effective settings, one "section.key = value  (source)" line
 * each, secrets masked.
 */
SMFW_API void smfw_config_dump(const smfw_config *config, FILE *out, int only_changed);

/* ---- running ------------------------------------------------------------ */

/** Options of smfw_run_execute() that do not live in the configuration. */
typedef struct smfw_run_options {
    uint32_t size;
    volatile sig_atomic_t *cancel; /**< may be NULL */
    smfw_progress_fn progress;     /**< may be NULL (the core prints nothing then) */
    void *progress_user;
    const char *output_dir; /**< overrides smfw.output; NULL = from config */
    int skip_reporters;     /**< 1 = leave writing to the caller */
} smfw_run_options;

/**
 * Run one benchmark as configured: pick the backend, dataset and reporters
 * named in section "smfw", load and sample the prompts, create the output
 * folder (never overwriting an existing run), run the backend, compute
 * aggregates when the backend left records, write run metadata and run every
 * reporter. *out receives the results (caller frees) even when the run
 * failed part-way; *out_dir (optional) the output folder (caller frees).
 * Returns the backend's status (SMFW_ERR_VALIDITY, SMFW_ERR_CANCELLED...) or
 * the first reporter failure.
 */
SMFW_API smfw_status smfw_run_execute(const smfw_registry *reg, const smfw_config *config,
                                      const smfw_run_options *opts, smfw_results **out,
                                      char **out_dir, smfw_error *err);

/** One level of a sweep, as smfw_sweep_execute() starts and ends it (for the caller to print). */
typedef struct smfw_sweep_level_event {
    uint32_t size;
    size_t index;                /**< in the plan's order */
    double load;                 /**< the concurrency or request rate */
    const char *value;           /**< the level as its folder names it ("8", "2.5") */
    const char *dir;             /**< its result folder: <set dir>/concurrency_<value> */
    long warmup_requests;        /**< the level's warm-up */
    const smfw_results *results; /**< at the end, when the level measured anything; else NULL */
    smfw_status status;          /**< at the end: the run's status */
    int partial; /**< interrupted with results: kept, marked PARTIAL.txt, left out of the set */
} smfw_sweep_level_event;

typedef void (*smfw_sweep_level_fn)(void *user, const smfw_sweep_level_event *event);

/** A sweep's levels for smfw_sweep_execute(). */
typedef struct smfw_sweep_plan {
    uint32_t size;
    int is_rate;          /**< [run] request_rate levels, else [run] concurrency */
    const double *levels; /**< in the order they run */
    size_t n_levels;
    const char *sweep_name; /**< each level's run_name is NAME-concurrency_<N> */
    long initial_warmup;    /**< warm-up requests the first level adds (graph capture, caches) */
    smfw_sweep_level_fn on_level_start, on_level_end; /**< may be NULL */
    void *user;
} smfw_sweep_plan;

/**
 * Run a sweep's levels one after the other, each the configured run (smfw_run_execute) with
 * its load set in `config` ([run] concurrency or request_rate), a warm-up of one round of
 * that load unless [run] warmup_request_count is configured (plus initial_warmup on the first
 * level), into <set dir>/concurrency_<N>/ (request_rate_<R>/). A level that measured anything
 * joins `set` (its results taken); one interrupted is kept but marked PARTIAL.txt and left
 * out; one that failed after measuring is a warning and the sweep goes on. *sent counts the
 * requests sent (records and warm-ups). Returns SMFW_ERR_CANCELLED when interrupted, a
 * level's status when it measured nothing (the levels before it are in the set), else
 * SMFW_OK.
 */
SMFW_API smfw_status smfw_sweep_execute(const smfw_registry *reg, smfw_config *config,
                                        const smfw_sweep_plan *plan, const smfw_run_options *opts,
                                        smfw_run_set *set, int64_t *sent, smfw_error *err);

/**
 * Ask the configured backend ([smfw] backend) a control question
 * (SMFW_BACKEND_CTL_* of backend.h) for this configuration: create it,
 * call its control slot, destroy it. *value holds the preset answer on
 * entry and keeps it when the backend does not know the op. Fails when the
 * backend is unknown or its settings are invalid (the error says why).
 */
SMFW_API smfw_status smfw_backend_ask(const smfw_registry *reg, const smfw_config *config, int op,
                                      int *value, smfw_error *err);

/* ---- the console summary of one run ----------------------------------- */

/** The validity verdict a console summary printed. */
typedef enum smfw_run_verdict {
    SMFW_RUN_VERDICT_PASSED = 0,    /**< error rate within the gate */
    SMFW_RUN_VERDICT_FAILED = 1,    /**< the gate tripped (or the error rate is above it) */
    SMFW_RUN_VERDICT_NOT_JUDGED = 2 /**< interrupted, stopped before measuring, or empty */
} smfw_run_verdict;

/** What differs between the commands that print a summary; all-zero is a plain run. */
typedef struct smfw_run_summary_options {
    const char *title; /**< first line; NULL: the run's target ("benchmark results") */
    const char
        *description;   /**< one line under the title (merge's "merged 3 parts: ..."), or NULL */
    int has_gate;       /**< 1: judge against `gate`; 0: the run's info.max_error_rate */
    double gate;        /**< maximum error rate, a fraction (0.01 = 1 %) */
    smfw_status status; /**< how the run ended: CANCELLED or an exit-2 status is "not judged" */
    const char *results_dir; /**< printed as "results: DIR" last; NULL: not printed */
} smfw_run_summary_options;

/**
 * Print the one console summary of a run that every command uses (`smfw run`, `sweep`
 * per level, `merge`, `results` per bundle run, the managed backend's levels): a blank
 * line, the title, the description and "target: T" (when a title is given), the
 * distribution rows (avg p50 p90 p99 under the metric table's header and display unit:
 * TTFT, ITL, request latency, per-user throughput, OSL, ISL), the single-value rows
 * (output token and request throughput, goodput, request and error counts, duration),
 * the validity verdict and the results folder. Numbers have two decimals, straight from
 * the aggregates; a metric the run lacks has no row, a missing percentile shows "-".
 * Title, description, target, failure reason and folder are written through
 * smfw_term_write() (bundle text is untrusted). opts may be NULL. Returns the verdict.
 */
SMFW_API smfw_run_verdict smfw_run_summary_print(FILE *out, const smfw_results *r,
                                                 const smfw_run_summary_options *opts);

/**
 * Load the prompts of the dataset plugin named by dataset settings into a
 * sampled set (every bad record reported before anything is sent).
 */
SMFW_API smfw_status smfw_dataset_load_configured(const smfw_registry *reg,
                                                  const smfw_config *config,
                                                  const char *plugin_name, int quiet,
                                                  smfw_prompt_set **out, smfw_error *err);

/**
 * Fill smfw_dataset_params from the "dataset" and "run" sections. data_dir and
 * cache_dir point into the calling thread's storage, valid until its next call.
 */
SMFW_API void smfw_dataset_params_from_config(const smfw_config *config,
                                              smfw_dataset_params *params);

/**
 * Run the reporters named in `names` (or smfw.report when NULL) on results
 * into dir. Each failure is logged with the file; the first is returned, the
 * others still run.
 */
SMFW_API smfw_status smfw_reporters_run(const smfw_registry *reg, const smfw_config *config,
                                        const char *const *names, size_t n_names,
                                        const smfw_results *results, const char *dir,
                                        smfw_error *err);

/**
 * Write a sweep's reports: every loaded reporter plugin with a write_set slot renders the
 * analysed set (smfw_run_set_analyze() first) into dir, created from its [reporter.NAME]
 * settings (the bundled ones write sweep.json, sweep.md, sweep.csv and sweep.html). Each
 * failure is logged with the file; the first is returned, the others still run.
 */
SMFW_API smfw_status smfw_reporters_write_set(const smfw_registry *reg, const smfw_config *config,
                                              const smfw_run_set *set, const char *dir,
                                              smfw_error *err);

/**
 * Create a new run folder under base (or use `exact` when given). The run
 * folder is picked by mkdir() itself (NAME, NAME-2, ...), so concurrent runs
 * never share one; `exact` must be empty or absent and not a symbolic link.
 * *out is malloc'd.
 */
SMFW_API smfw_status smfw_output_dir_create(const char *base, const char *run_name,
                                            const char *exact, char **out, smfw_error *err);

/** Folder holding bundled data (datasets, prices): installed or source tree. */
SMFW_API const char *smfw_data_dir(void);

/**
 * Print, as `aws configure list` does, the region, profile and credential source a run
 * would use and where each comes from (flag, file:line, environment, the AWS config file;
 * never instance metadata, never a secret), as `#` comment lines on out.
 */
SMFW_API void smfw_aws_print_effective(const smfw_config *cfg, FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_APP_H */
