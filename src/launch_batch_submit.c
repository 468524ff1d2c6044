/*
 * launch_batch_submit.c - `smfw launch batch --submit`: the two requests go to the
 * `batch-submit` command, which a plugin provides (plugins/command-aws), with the launch's
 * AWS options (--region, --profile, --endpoint-url, ...), its config file, plugin path and
 * verbosity. The program names no AWS service itself (docs/architecture.md, R1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/log.h>

#include "commands.h"
#include "launch.h"

/* The run options that say how to reach AWS and load the plugins: with a value each. */
static const char *const passed_on[] = {"config",       "plugin-path", "region",      "profile",
                                        "endpoint-url", "ca-bundle",   "max-attempts"};

/* 1 (and *takes_value) when `a` is one of the options the submit needs too. */
static int is_passed_on(const char *a, int *takes_value) {
    *takes_value = 0;
    if (!strcmp(a, "-C")) return *takes_value = 1;
    if (!strcmp(a, "--verbose") || !strcmp(a, "--quiet")) return 1;
    if (a[0] == '-' && a[1] && a[1] != '-' && strspn(a + 1, "vq") == strlen(a + 1)) return 1;
    if (strncmp(a, "--", 2) != 0) return 0;
    for (size_t i = 0; i < sizeof passed_on / sizeof passed_on[0]; i++) {
        size_t n = strlen(passed_on[i]);
        if (strncmp(a + 2, passed_on[i], n) != 0) continue;
        if (a[2 + n] == '=') return 1;
        if (a[2 + n] == '\0') return *takes_value = 1;
    }
    return 0;
}

int launch_batch_submit(const char *const *run_args, size_t n_run_args, const char *requests) {
    char **argv = calloc(n_run_args + 2, sizeof *argv);
    if (!argv) return smfw_status_exit_code(SMFW_ERR_NOMEM);
    int argc = 0;
    argv[argc++] = "launch";
    for (size_t i = 0; i < n_run_args; i++) {
        int takes_value;
        if (!is_passed_on(run_args[i], &takes_value)) continue;
        argv[argc++] = (char *)run_args[i];
        if (takes_value && i + 1 < n_run_args) argv[argc++] = (char *)run_args[++i];
    }
    smfw_cli cli;
    int rc = smfw_cli_setup(smfw_command_find("launch"), argc, argv, NULL, 0, NULL, NULL, 1, &cli);
    char path[4096] = "";
    int fd = -1;
    if (rc >= 0) goto done;
    if (!smfw_registry_find_command(cli.reg, "batch-submit", NULL)) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--submit for batch needs the `smfw batch-submit` command, which no loaded "
                 "plugin provides (it comes with the command plugin aws, smfw_command_aws.so; see "
                 "`smfw plugins`); or run without --submit and give the two requests to `aws "
                 "batch register-job-definition` and `aws batch submit-job`");
        rc = smfw_status_exit_code(SMFW_ERR_CONFIG);
        goto done;
    }
    /* The command reads a file: a private one, removed when it is done. */
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/smfw-batch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int ok = f && fputs(requests, f) != EOF;
    if (f && fclose(f) != 0) ok = 0;
    if (!f && fd >= 0) close(fd);
    if (!ok) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--submit: cannot write the requests to %s: %s", path,
                 strerror(errno));
        rc = smfw_status_exit_code(SMFW_ERR_IO);
        goto done;
    }
    smfw_command_value v[] = {{"requests", path}};
    rc = smfw_cli_run_command(&cli, "batch-submit", v, 1, cli.verbosity);
done:
    if (fd >= 0) unlink(path);
    smfw_cli_cleanup(&cli);
    free(argv);
    return rc;
}
