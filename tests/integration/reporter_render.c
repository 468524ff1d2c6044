/*
 * reporter_render.c - write reports of an existing result folder with the
 * reporter plugins, through the same public calls the smfw program uses.
 *
 *   reporter_render PLUGIN_DIR RESULT_DIR OUTPUT_DIR REPORTER...
 *
 * Exit status: 0 when every reporter wrote its file, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>

#include <smfw/app.h>

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s PLUGIN_DIR RESULT_DIR OUTPUT_DIR REPORTER...\n", argv[0]);
        return 2;
    }
    smfw_error err;
    smfw_error_clear(&err);
    const char *dirs[] = {argv[1]};
    smfw_registry *reg = NULL;
    smfw_config *cfg = NULL;
    smfw_results *r = smfw_results_new();
    int rc = 1;
    if (smfw_registry_load(dirs, 1, &reg, &err) != SMFW_OK ||
        smfw_config_new(reg, &cfg, &err) != SMFW_OK ||
        smfw_results_load_dir(r, argv[2], &err) != SMFW_OK ||
        smfw_reporters_run(reg, cfg, (const char *const *)argv + 4, (size_t)(argc - 4), r, argv[3],
                           &err) != SMFW_OK)
        fprintf(stderr, "reporter_render: %s\n", err.message);
    else
        rc = 0;
    smfw_results_free(r);
    smfw_config_free(cfg);
    smfw_registry_free(reg);
    return rc;
}
