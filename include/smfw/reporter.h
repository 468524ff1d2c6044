/*
 * reporter.h - the reporter interface: how results are written.
 *
 * A reporter is created from its settings (section "reporter.<name>"),
 * asked to write the results of a run into the output folder (and, with a
 * write_set slot, a sweep's report over its levels), and destroyed.
 * Reporters never know which backend produced the results. A reporter that
 * fails returns an error naming the file it could not write; the core still
 * runs the other reporters.
 */
#ifndef SMFW_REPORTER_H
#define SMFW_REPORTER_H

#include <smfw/config.h>
#include <smfw/results.h>
#include <smfw/run_set.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A file a reporter writes into a run's output folder. */
typedef struct smfw_reporter_output {
    const char *name;        /**< file name, e.g. "report.html" */
    const char *description; /**< a few words for a listing of the folder */
} smfw_reporter_output;

/** Control ops the core sends a reporter (smfw_reporter_ops.control). */
enum {
    /**
     * arg: const smfw_reporter_output * ended by {NULL, NULL}: every file the run's
     * reporters write (this one's included, in the order they run), sent once after all of
     * them are created and before the first write(), so that a reporter listing the folder
     * (markdown's summary.md) names files written after it. Valid until destroy().
     */
    SMFW_REPORTER_CTL_RUN_OUTPUTS = 1
};

/** Operations of a reporter plugin. Optional slots may be NULL. */
typedef struct smfw_reporter_ops {
    uint32_t size; /**< sizeof(smfw_reporter_ops) the plugin was built with */

    /** Required. Make an instance from the plugin's settings. */
    smfw_status (*create)(const smfw_settings *settings, void **ctx, smfw_error *err);

    /**
     * Required. Write the results into `output_dir` (which exists). Must not
     * modify the results. Returns the path(s) written through the log.
     */
    smfw_status (*write)(void *ctx, const smfw_results *results, const char *output_dir,
                         smfw_error *err);

    /** Required. Release the instance. */
    void (*destroy)(void *ctx);

    /** Optional. Answer SMFW_ERR_UNSUPPORTED for unknown ops. */
    smfw_status (*control)(void *ctx, int op, void *arg);

    /**
     * Optional. Write the report of a whole sweep (an analysed run set:
     * smfw_run_set_analysis() is not NULL) into `output_dir`, next to the
     * levels' folders, under a name of its own (sweep.md, sweep.csv...). The
     * reporter's per-level files are written by write() in each level's folder.
     */
    smfw_status (*write_set)(void *ctx, const smfw_run_set *set, const char *output_dir,
                             smfw_error *err);

    /**
     * Optional. The files write() creates in the output folder, ended by {NULL, NULL}: the
     * core tells the run's reporters (SMFW_REPORTER_CTL_RUN_OUTPUTS), so none names
     * another's files itself.
     */
    const smfw_reporter_output *outputs;
} smfw_reporter_ops;

#ifdef __cplusplus
}
#endif
#endif /* SMFW_REPORTER_H */
