/*
 * backend.h - the backend interface: what runs a benchmark.
 *
 * A backend is created from its settings (section "backend.<name>"), then
 * run() once with a run context: the whole configuration (to read the shared
 * "run", "aws" and "dataset" sections), the prompts, the results sink, the
 * output folder, a progress callback and a cancel flag. It fills the results
 * (records and/or aggregates and info) and returns. Errors are returned, never
 * exit()ed; measured results are kept even when run() fails.
 */
#ifndef SMFW_BACKEND_H
#define SMFW_BACKEND_H

#include <signal.h>

#include <smfw/config.h>
#include <smfw/dataset.h>
#include <smfw/results.h>
#include <smfw/run_set.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A progress snapshot, reported at most ~10 times a second. */
typedef struct smfw_progress {
    uint32_t size;     /**< sizeof(smfw_progress) */
    const char *phase; /**< "warmup", "profiling", "grace", "polling", "downloading"... */
    int64_t done;      /**< requests finished in this phase */
    int64_t total;     /**< requests planned, -1 unknown (duration runs) */
    int64_t errors;    /**< error records so far */
    int64_t in_flight;
    double elapsed_s;        /**< since the phase started */
    double total_s;          /**< planned duration, 0 unknown */
    double requests_per_s;   /**< recent rate */
    double ttft_p50_ms;      /**< live, < 0 unknown */
    const char *status_line; /**< free text (managed: job status), may be NULL */
} smfw_progress;

typedef void (*smfw_progress_fn)(void *user, const smfw_progress *progress);

/** Values of the cancel flag. */
enum {
    SMFW_CANCEL_NONE = 0,
    SMFW_CANCEL_STOP = 1, /**< first Ctrl-C: stop issuing, wait up to the grace period */
    SMFW_CANCEL_ABORT = 2 /**< second Ctrl-C: abort in-flight requests, keep results */
};

/** Everything a backend gets for one run. */
typedef struct smfw_run_context {
    uint32_t size;                  /**< sizeof(smfw_run_context) of the core */
    const smfw_config *config;      /**< all sections (smfw_config_section(config, "run")) */
    const smfw_prompt_set *prompts; /**< sampled prompts; NULL when the backend asked for none */
    smfw_results *results;          /**< fill this; info is pre-filled by the core */
    const char *output_dir;         /**< exists; write raw artefacts here */
    volatile sig_atomic_t *cancel;  /**< SMFW_CANCEL_* set by the signal handler */
    smfw_progress_fn progress;      /**< may be NULL */
    void *progress_user;
    int dry_run; /**< 1 = print the plan, touch nothing billable */
    int quiet;
    /**
     * A backend that runs several load levels in one run (a managed job's
     * concurrency list) adds each level here with smfw_run_set_add() and
     * leaves `results` empty; the core then runs the configured reporters in
     * each level's folder, as it does for `results` in output_dir.
     */
    smfw_run_set *levels;
    /* ABI 2.0 ends here; a 2.x minor appends fields: check `size` before reading them. */
} smfw_run_context;

/** Control ops (extensible; unknown ops answer SMFW_ERR_UNSUPPORTED). */
enum {
    /**
     * arg: int*, preset to 1. Set it to 0 when the backend needs no prompts
     * for this configuration (e.g. the public feed that SageMaker fetches).
     */
    SMFW_BACKEND_CTL_NEEDS_PROMPTS = 1,
    /**
     * arg: int*, preset to 0. Set it to 1 when the backend honours
     * run->dry_run (prints the plan, touches nothing); the core then creates
     * no output folder and runs no reporters for a dry run.
     */
    SMFW_BACKEND_CTL_HONOURS_DRY_RUN = 2,
    /**
     * arg: int*, preset to 0. Set it to 1 when this backend runs
     * a list of load levels itself (`--concurrency 1,4,16` in one run, into
     * run->levels); `smfw sweep` then hands it the whole list instead of
     * running one level at a time.
     */
    SMFW_BACKEND_CTL_RUNS_LEVELS = 3
};

/**
 * A finished run to bring into a local folder (`smfw results --job/--s3`,
 * or neither: the newest run the backend knows). ABI 1.2.
 */
typedef struct smfw_fetch_request {
    uint32_t size;             /**< sizeof(smfw_fetch_request) of the core */
    const smfw_config *config; /**< all sections ("aws", "smfw": output, results_dir) */
    const char *job;           /**< a run name the backend knows (--job), or NULL */
    const char *uri;           /**< a location (--s3 URI), or NULL; both NULL: the newest */
    /**
     * Installs the program's Ctrl-C handler and returns its flag (SMFW_CANCEL_*):
     * call it just before downloading so that Ctrl-C abandons the download
     * (answer SMFW_ERR_CANCELLED and leave no partial files); before that
     * Ctrl-C ends the program. Restore SIG_DFL once the download is over.
     */
    volatile sig_atomic_t *(*install_cancel)(void);
    /**
     * Creates the result folder for a run name as the program does for runs
     * (-o exactly, else results_dir/<name>, made unique); *dir is malloc'd.
     */
    smfw_status (*make_dir)(const smfw_config *config, const char *run_name, char **dir,
                            smfw_error *err);
} smfw_fetch_request;

/** Operations of a backend plugin. Optional slots may be NULL. */
typedef struct smfw_backend_ops {
    uint32_t size; /**< sizeof(smfw_backend_ops) the plugin was built with */

    /** Required. Make an instance; validate settings here (fail fast, before any load). */
    smfw_status (*create)(const smfw_settings *settings, const smfw_config *config, void **ctx,
                          smfw_error *err);

    /**
     * Required. Run the benchmark. Returns SMFW_OK, SMFW_ERR_VALIDITY when
     * the run finished but failed its validity gate, SMFW_ERR_CANCELLED when
     * interrupted (results written so far are kept), or another error.
     */
    smfw_status (*run)(void *ctx, smfw_run_context *run, smfw_error *err);

    /** Required. Release the instance. */
    void (*destroy)(void *ctx);

    /** Optional. See SMFW_BACKEND_CTL_*. */
    smfw_status (*control)(void *ctx, int op, void *arg);

    /* Tables of ABI 1.0 and 1.1 end here; check `size` (SMFW_OPS_HAS) before reading on. */

    /**
     * Optional (ABI 1.2). Bring a finished run into a local folder. Answer
     * SMFW_ERR_UNSUPPORTED, touching nothing, when the reference is not this
     * backend's (the core then asks the next backend). Otherwise set *local
     * to the folder (malloc'd, created under "smfw" output / results_dir and
     * reused while it holds the same object) and run_name to the run's name
     * ("" when it has none); on failure leave no folder behind.
     */
    smfw_status (*fetch)(const smfw_fetch_request *req, char **local, char *run_name,
                         size_t run_name_size, smfw_error *err);
} smfw_backend_ops;

#ifdef __cplusplus
}
#endif
#endif /* SMFW_BACKEND_H */
