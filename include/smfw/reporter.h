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
} smfw_reporter_ops;

#ifdef __cplusplus
}
#endif
#endif /* SMFW_REPORTER_H */
