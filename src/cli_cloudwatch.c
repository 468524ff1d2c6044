/* cli_cloudwatch.c - `--cloudwatch` on run and sweep: the server's view next to the client's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/cloudwatch.h>
#include <smfw/log.h>

#include "commands.h"

static void write_text(const char *dir, const char *name, const char *text) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    if (!fp || fputs(text, fp) == EOF) SMFW_LOG_WARN(NULL, "cannot write %s", path);
    if (fp) fclose(fp);
}

void smfw_cli_cloudwatch(const smfw_config *cfg, const char *variant, double wait_s,
                         const char *dir, int64_t start_ns, int64_t end_ns, int64_t requests_sent,
                         int quiet) {
    const smfw_settings *run = smfw_config_section(cfg, "run");
    const char *endpoint = smfw_settings_get(run, "endpoint");
    if (!endpoint || strcmp(endpoint, "mock") == 0) {
        SMFW_LOG_WARN(NULL, "--cloudwatch needs a SageMaker endpoint (--endpoint NAME; for "
                            "smfw-mock start it yourself and pass --endpoint-url)");
        return;
    }
    if (wait_s > 0) {
        SMFW_LOG_INFO(NULL, "waiting %.0f s for CloudWatch to publish the run's minutes", wait_s);
        sleep((unsigned)ceil(wait_s));
    }
    smfw_aws_options o;
    smfw_aws_options_from_config(cfg, &o);
    smfw_aws_client *client = NULL;
    smfw_cw_report *rep = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_cw_query q;
    memset(&q, 0, sizeof q);
    q.endpoint = endpoint;
    q.variant = variant;
    q.inference_component = smfw_settings_get(run, "inference_component");
    q.start_s = start_ns / 1000000000LL;
    q.end_s = (end_ns + 999999999LL) / 1000000000LL;
    if (smfw_aws_client_new(&o, &client, &err) != SMFW_OK ||
        smfw_cloudwatch_fetch(client, &q, &rep, &err) != SMFW_OK) {
        SMFW_LOG_WARN(NULL, "CloudWatch: %s", err.message);
        smfw_aws_client_free(client);
        return;
    }
    smfw_cloudwatch_interpret(rep, NULL, requests_sent);
    char *md = smfw_cloudwatch_markdown(rep), *js = smfw_cloudwatch_json(rep);
    if (dir && md) write_text(dir, "cloudwatch.md", md);
    if (dir && js) write_text(dir, "cloudwatch.json", js);
    if (!quiet && md) fprintf(stdout, "\n%s", md);
    free(md);
    free(js);
    smfw_cw_report_free(rep);
    smfw_aws_client_free(client);
}
