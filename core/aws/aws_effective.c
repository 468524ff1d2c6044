/*
 * aws_effective.c - the AWS values a run would use and where each comes from, for
 * `smfw config` (the program prints them; the AWS layer resolves them).
 */
#include <stdio.h>
#include <stdlib.h>

#include <smfw/app.h>
#include <smfw/aws.h>
#include <smfw/net.h>

/* The AWS values a run would use and where each comes from, as `aws configure list` shows
 * them: [aws] region says "default" while AWS_REGION or the profile decides. */
void smfw_aws_print_effective(const smfw_config *cfg, FILE *out) {
    const smfw_settings *aws = smfw_config_section(cfg, "aws");
    char found[256]; /* the client's region string dies with the client */
    char where[512];
    const char *region = NULL, *from = NULL;
    const char *file = NULL;
    int line = 0;
    smfw_setting_source src = smfw_settings_source(aws, "region", &file, &line);
    if (smfw_settings_get(aws, "region")) {
        region = smfw_settings_get(aws, "region");
        if (src == SMFW_SOURCE_FILE)
            snprintf(where, sizeof where, "file %s:%d", file ? file : "?", line);
        else
            snprintf(where, sizeof where, "%s %s", smfw_setting_source_name(src), file ? file : "");
        from = where;
    } else if ((region = getenv("AWS_REGION")) && *region) {
        from = "env AWS_REGION";
    } else if ((region = getenv("AWS_DEFAULT_REGION")) && *region) {
        from = "env AWS_DEFAULT_REGION";
    } else {
        region = NULL;
        smfw_aws_options ao;
        smfw_aws_options_from_config(cfg, &ao);
        ao.no_imds = 1; /* a config listing never waits for instance metadata */
        smfw_aws_client *c = NULL;
        smfw_error err;
        const char *r = NULL;
        if (smfw_aws_client_new(&ao, &c, &err) == SMFW_OK &&
            smfw_aws_client_region(c, &r, &err) == SMFW_OK) {
            snprintf(found, sizeof found, "%s", r);
            region = found;
            from = "the profile in the AWS config file";
        }
        smfw_aws_client_free(c);
    }
    const char *profile = smfw_settings_get(aws, "profile"), *pfrom = "[aws] profile";
    if (!profile && (profile = getenv("AWS_PROFILE")) && *profile) pfrom = "env AWS_PROFILE";
    if (!profile || !*profile) {
        profile = "default";
        pfrom = "default";
    }
    const char *creds = getenv("AWS_ACCESS_KEY_ID") && *getenv("AWS_ACCESS_KEY_ID")
                            ? "env AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY"
                            : "the provider chain, when a run needs them (shared files, "
                              "credential_process, SSO, container, instance metadata)";
    fprintf(out, "# AWS as a run resolves it (like `aws configure list`):\n");
    fprintf(out, "#   %-12s %-24s # %s\n", "region", region ? region : "(not set)",
            region ? from : "not set: --region, AWS_REGION or the profile's region");
    fprintf(out, "#   %-12s %-24s # %s\n", "profile", profile, pfrom);
    fprintf(out, "#   %-12s %-24s # %s\n", "credentials", "****", creds);
    /* The TLS and proxy settings every connection uses (proxy credentials masked). */
    smfw_aws_options no;
    smfw_aws_options_from_config(cfg, &no);
    smfw_net_config *net = NULL;
    smfw_error nerr;
    char desc[2048];
    if (smfw_aws_net_config_new(&no, &net, &nerr) == SMFW_OK)
        smfw_net_describe(net, desc, sizeof desc);
    else
        snprintf(desc, sizeof desc, "invalid: %s", nerr.message);
    fprintf(out, "#   %-12s %s\n", "connections", desc);
    smfw_net_config_free(net);
}
