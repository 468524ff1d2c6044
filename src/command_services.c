/*
 * command_services.c - what the program does for a plugin's command
 * (smfw_command_services, smfw/command.h): load the configured dataset, present
 * a run set as `smfw sweep` does, set saved sweeps side by side, price an
 * instance type. Plugins may not
 * include the program's API (docs/architecture.md, R3), so these reach them as
 * a table of functions in the command's context.
 */
#include <stdio.h>

#include <smfw/log.h>

#include "commands.h"

/* The command whose main is running: the program runs one at a time. */
static const smfw_cli *running;

static smfw_status load_prompts(const smfw_command_context *ctx, smfw_prompt_set **out,
                                smfw_error *err) {
    return smfw_dataset_load_configured(running->reg, running->cfg, NULL, ctx->verbosity < 0, out,
                                        err);
}

static int report_sweep(const smfw_command_context *ctx, smfw_run_set *set,
                        const char *instance_type) {
    /* Each level's reports first, as the core writes them for a backend's levels. */
    int rc = 0;
    for (size_t i = 0; i < smfw_run_set_count(set); i++) {
        const char *dir = smfw_run_set_level_dir(set, i);
        smfw_error err;
        if (dir &&
            smfw_reporters_run(running->reg, running->cfg, NULL, 0, smfw_run_set_results(set, i),
                               dir, &err) != SMFW_OK &&
            rc == 0)
            rc = smfw_status_exit_code(err.status); /* each failure is logged */
    }
    int prc = smfw_sweep_present(running, set, instance_type, ctx->verbosity < 0);
    return rc ? rc : prc;
}

static int compare_sweeps(const smfw_command_context *ctx, const char *const *specs, size_t n) {
    (void)ctx;
    return smfw_sweep_compare(running, specs, n);
}

static smfw_status instance_price(const smfw_command_context *ctx, const char *instance_type,
                                  double *usd, char *source, size_t source_size, smfw_error *err) {
    (void)ctx;
    return smfw_sweep_instance_price(running, instance_type, usd, source, source_size, err);
}

static const smfw_command_services services = {sizeof services, load_prompts, report_sweep,
                                               compare_sweeps, instance_price};

const smfw_command_services *smfw_command_services_bind(const smfw_cli *cli) {
    running = cli;
    return &services;
}
