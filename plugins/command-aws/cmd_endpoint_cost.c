/*
 * cmd_endpoint_cost.c - `smfw endpoint-cost`: what an endpoint costs per hour
 * while it keeps running, and the commands that delete it. DescribeEndpoint
 * gives each variant's current instance count and the config's name,
 * DescribeEndpointConfig each variant's instance type (or its serverless
 * configuration, billed per request); the price is the price table's (the
 * program's service, as `smfw sweep --instance-type` prices). `smfw run` and
 * `smfw sweep` run it after a benchmark of a SageMaker endpoint, so that no
 * test ends without saying what the endpoint left running costs.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <smfw/aws.h>
#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "aws_commands.h"

static smfw_status call(smfw_aws_client *c, const char *op, const char *member, const char *name,
                        json_t **out, smfw_error *err) {
    json_t *req = json_pack("{s:s}", member, name);
    if (!req) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st = smfw_aws_json_call_tree(c, &smfw_aws_sagemaker, op, req, out, err);
    json_decref(req);
    if (st != SMFW_OK) smfw_error_prefix(err, "%s %s", op, name);
    return st;
}

/* The config's variant of that name (NULL when it has none). */
static json_t *config_variant(json_t *config, const char *name) {
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(config, "ProductionVariants"), i, v) {
        const char *n = json_string_value(json_object_get(v, "VariantName"));
        if (n && name && strcmp(n, name) == 0) return v;
    }
    return NULL;
}

static long long count_of(json_t *variant, json_t *configured) {
    static const char *const keys[] = {"CurrentInstanceCount", "DesiredInstanceCount"};
    for (size_t k = 0; k < 2; k++) {
        json_t *n = json_object_get(variant, keys[k]);
        if (json_is_integer(n)) return json_integer_value(n);
    }
    json_t *n = json_object_get(configured, "InitialInstanceCount");
    return json_is_integer(n) ? json_integer_value(n) : -1;
}

/* The AWS CLI's --region / --endpoint-url / --profile for the delete commands. */
static void cli_options(const smfw_config *cfg, const char *region, char *out, size_t size) {
    const smfw_settings *aws = smfw_config_section(cfg, "aws");
    const char *url = smfw_settings_get(aws, "endpoint_url");
    const char *profile = smfw_settings_get(aws, "profile");
    snprintf(out, size, "%s%s%s%s%s%s", region ? " --region " : "", region ? region : "",
             url && *url ? " --endpoint-url " : "", url && *url ? url : "",
             profile && *profile ? " --profile " : "", profile && *profile ? profile : "");
}

static int endpoint_cost_main(const smfw_command_context *ctx, int argc, char **argv) {
    (void)argv;
    if (argc > 1) {
        smfw_log(SMFW_LOG_ERROR, NULL, "smfw endpoint-cost takes no arguments (--endpoint NAME)");
        return 1;
    }
    const char *name = smfw_settings_get(smfw_config_section(ctx->config, "run"), "endpoint");
    if (!name || !*name) {
        smfw_log(SMFW_LOG_ERROR, NULL, "name the endpoint: --endpoint NAME");
        return 1;
    }
    if (!smfw_aws_entity_name_valid(name)) {
        char shown[300];
        smfw_log(
            SMFW_LOG_ERROR, NULL,
            "--endpoint \"%s\" is not a SageMaker endpoint name ([a-zA-Z0-9](-*[a-zA-Z0-9]){0,62})",
            smfw_term_escape(name, shown, sizeof shown));
        return 1;
    }
    int services = ctx->size >= offsetof(smfw_command_context, services) + sizeof ctx->services &&
                   ctx->services &&
                   ctx->services->size >= offsetof(smfw_command_services, instance_price) +
                                              sizeof ctx->services->instance_price;
    smfw_aws_options o;
    smfw_aws_options_from_config(ctx->config, &o);
    smfw_aws_client *c = NULL;
    smfw_error err;
    if (smfw_aws_client_new(&o, &c, &err) != SMFW_OK) return aws_command_fail(&err);
    json_t *ep = NULL, *config = NULL;
    int rc = 0;
    const char *region = NULL;
    smfw_error rerr;
    if (smfw_aws_client_region(c, &region, &rerr) != SMFW_OK) region = NULL;
    smfw_status st = call(c, "DescribeEndpoint", "EndpointName", name, &ep, &err);
    const char *config_name = json_string_value(json_object_get(ep, "EndpointConfigName"));
    if (st == SMFW_OK && !config_name)
        st = smfw_error_set(&err, SMFW_ERR_PROTOCOL,
                            "DescribeEndpoint %s: the answer names no EndpointConfigName", name);
    if (st == SMFW_OK)
        st = call(c, "DescribeEndpointConfig", "EndpointConfigName", config_name, &config, &err);
    if (st != SMFW_OK) {
        rc = aws_command_fail(&err);
        goto done;
    }
    const char *status = json_string_value(json_object_get(ep, "EndpointStatus"));
    char shown[128], line[512];
    FILE *out = ctx->out;
    fprintf(out, "Endpoint %s (%s) is billed for as long as it runs:\n", name,
            status ? smfw_term_escape(status, shown, sizeof shown) : "status unknown");
    double total = 0;
    int priced_all = 1, instances = 0;
    char source[512] = "";
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(ep, "ProductionVariants"), i, v) {
        const char *vname = json_string_value(json_object_get(v, "VariantName"));
        json_t *cv = config_variant(config, vname);
        const char *type = json_string_value(json_object_get(cv, "InstanceType"));
        char vshown[128], tshown[128];
        const char *vn = vname ? smfw_term_escape(vname, vshown, sizeof vshown) : "?";
        if (!type) {
            fprintf(out, "  %s: %s\n", vn,
                    json_object_get(cv, "ServerlessConfig") ||
                            json_object_get(v, "CurrentServerlessConfig")
                        ? "serverless, billed per request and compute time (nothing while idle)"
                        : "no instance type in its endpoint config");
            continue;
        }
        long long n = count_of(v, cv);
        const char *t = smfw_term_escape(type, tshown, sizeof tshown);
        double usd = 0;
        char from[512] = "";
        smfw_error perr;
        smfw_error_clear(&perr);
        smfw_status pst =
            services ? ctx->services->instance_price(ctx, type, &usd, from, sizeof from, &perr)
                     : smfw_error_set(&perr, SMFW_ERR_UNSUPPORTED, "no price service");
        if (pst == SMFW_OK)
            snprintf(source, sizeof source, "%s", from);
        else
            SMFW_LOG_DEBUG("endpoint-cost", "%s", perr.message);
        instances = 1;
        if (n < 0) {
            fprintf(out, "  %s: %s, instance count unknown\n", vn, t);
            priced_all = 0;
        } else if (pst == SMFW_OK) {
            snprintf(line, sizeof line, "  %s: %lld x %s at $%.4g/hour = $%.4g/hour", vn, n, t, usd,
                     usd * (double)n);
            fprintf(out, "%s\n", line);
            total += usd * (double)n;
        } else {
            fprintf(out, "  %s: %lld x %s (not in the price table)\n", vn, n, t);
            priced_all = 0;
        }
    }
    if (instances && total > 0)
        fprintf(out, "  total%s $%.4g/hour, $%.4g/day (%s)\n", priced_all ? "" : " of the priced",
                total, total * 24, source);
    char opts[1400];
    cli_options(ctx->config, region, opts, sizeof opts);
    char cshown[128];
    fprintf(out, "Delete it when the benchmarks are done:\n");
    const char *ic =
        smfw_settings_get(smfw_config_section(ctx->config, "run"), "inference_component");
    if (ic && smfw_aws_entity_name_valid(ic)) /* components go before their endpoint */
        fprintf(out, "  aws sagemaker delete-inference-component --inference-component-name %s%s\n",
                ic, opts);
    fprintf(out,
            "  aws sagemaker delete-endpoint --endpoint-name %s%s\n"
            "  aws sagemaker delete-endpoint-config --endpoint-config-name %s%s\n",
            name, opts, smfw_term_escape(config_name, cshown, sizeof cshown), opts);
    /* The models cost nothing, but are the last of it. */
    json_array_foreach(json_object_get(config, "ProductionVariants"), i, v) {
        const char *model = json_string_value(json_object_get(v, "ModelName"));
        if (model && smfw_aws_entity_name_valid(model))
            fprintf(out, "  aws sagemaker delete-model --model-name %s%s\n", model, opts);
    }
done:
    json_decref(ep);
    json_decref(config);
    smfw_aws_client_free(c);
    return rc;
}

static const smfw_command_option endpoint_cost_options[] = {SMFW_COMMAND_OPTIONS_END};

const smfw_command_def aws_command_endpoint_cost = {
    sizeof(smfw_command_def),
    "endpoint-cost",
    "what a SageMaker endpoint costs per hour while it runs, and how to delete it",
    "Usage: smfw endpoint-cost --endpoint NAME [--region R]\n\n"
    "DescribeEndpoint and DescribeEndpointConfig: each production variant's current\n"
    "instance count and type, priced from the price table (conf/prices.conf, the table\n"
    "`smfw sweep --instance-type` reads; a type it lacks is named without a price), the\n"
    "total per hour and per day, then the AWS CLI commands that delete the endpoint and\n"
    "its config. Serverless variants are billed per request. `smfw run` and `smfw sweep`\n"
    "print this after a benchmark of a SageMaker endpoint (not with -q). See\n"
    "docs/capacity.md.",
    endpoint_cost_options,
    endpoint_cost_main};
