/*
 * endpoint_resolve.c - resolves AWS endpoints through smfw's client, one per
 * input line "<botocore service> <region> <fips 0|1> <dualstack 0|1> [url]",
 * printing "<same four fields> <url> <signing region> <signing name>" or
 * "<same four fields> error: <message>", for test_endpoint_resolution.sh to
 * compare with botocore's resolver.
 *
 * --rules SERVICE evaluates SERVICE's rule set directly instead: each line
 * is a JSON object of rule-set parameters ("Bucket", "Region"...), and the
 * answer is {"url":..., "properties":...} or {"error":...}, one line each.
 *
 * --via env|profile|both picks where FIPS and dual-stack come from:
 * AWS_USE_*_ENDPOINT, the profile's use_*_endpoint keys (a config file
 * written to $TMPDIR), or the opposite in the profile and the wanted value
 * in the environment (the environment must win). An optional url is the
 * AWS_ENDPOINT_URL override.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/aws_endpoint_data.h"
#include "aws/aws_endpoint_rules.h"
#include "aws/aws_internal.h"

static int rules_only(const char *service) {
    const json_t *ruleset, *partitions;
    smfw_error err;
    if (aws_endpoint_data_get(service, &ruleset, &partitions, &err) != SMFW_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    char line[65536];
    while (fgets(line, sizeof(line), stdin)) {
        json_error_t je;
        json_t *in = json_loads(line, 0, &je);
        if (!in) continue;
        aws_rules_endpoint ep;
        int rule_error = 0;
        json_t *out = json_object();
        if (aws_rules_evaluate(ruleset, partitions, in, &ep, &rule_error, &err) == SMFW_OK) {
            json_object_set_new(out, "url", json_string(ep.url));
            json_object_set(out, "properties", ep.properties ? ep.properties : json_object());
            aws_rules_endpoint_free(&ep);
        } else {
            json_object_set_new(out, "error", json_string(err.message));
        }
        char *text = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
        printf("%s\n", text ? text : "{}");
        free(text);
        json_decref(out);
        json_decref(in);
    }
    return 0;
}

static const char *smfw_id(const char *svc) {
    if (strcmp(svc, "sagemaker-runtime") == 0) return "runtime.sagemaker";
    if (strcmp(svc, "cloudwatch") == 0) return "monitoring";
    return svc;
}

static const char *tf(int v) {
    return v ? "true" : "false";
}

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "--rules") == 0) return rules_only(argv[2]);
    const char *via = argc > 2 && strcmp(argv[1], "--via") == 0 ? argv[2] : "env";
    const char *tmp = getenv("TMPDIR");
    char cfg[4096];
    snprintf(cfg, sizeof(cfg), "%s/endpoint_resolve.config", tmp && *tmp ? tmp : "/tmp");
    char line[2048];
    while (fgets(line, sizeof(line), stdin)) {
        char svc[64], region[64], url[1024] = "";
        int fips, ds;
        if (sscanf(line, "%63s %63s %d %d %1023s", svc, region, &fips, &ds, url) < 4) continue;
        unsetenv("AWS_USE_FIPS_ENDPOINT");
        unsetenv("AWS_USE_DUALSTACK_ENDPOINT");
        unsetenv("AWS_ENDPOINT_URL");
        int in_env = strcmp(via, "profile") != 0, in_profile = strcmp(via, "env") != 0;
        int flip = strcmp(via, "both") == 0; /* the profile says the opposite */
        FILE *f = fopen(cfg, "w");
        if (!f) return 2;
        fprintf(f, "[default]\n");
        if (in_profile)
            fprintf(f, "use_fips_endpoint = %s\nuse_dualstack_endpoint = %s\n", tf(fips ^ flip),
                    tf(ds ^ flip));
        fclose(f);
        setenv("AWS_CONFIG_FILE", cfg, 1);
        if (in_env) {
            setenv("AWS_USE_FIPS_ENDPOINT", tf(fips), 1);
            setenv("AWS_USE_DUALSTACK_ENDPOINT", tf(ds), 1);
        }
        if (url[0]) setenv("AWS_ENDPOINT_URL", url, 1);
        smfw_aws_options o;
        memset(&o, 0, sizeof(o));
        o.region = region;
        o.no_imds = 1;
        smfw_aws_client *c = NULL;
        smfw_error err;
        smfw_error_clear(&err);
        aws_endpoint ep;
        printf("%s %s %d %d", svc, region, fips, ds);
        if (url[0]) printf(" %s", url);
        if (smfw_aws_client_new(&o, &c, &err) == SMFW_OK &&
            aws_client_resolve_endpoint(c, smfw_id(svc), &ep, &err) == SMFW_OK)
            printf(" = %s %s %s\n", ep.url, ep.signing_region, ep.signing_name);
        else
            printf(" = error: %s\n", err.message);
        smfw_aws_client_free(c);
    }
    remove(cfg);
    return 0;
}
