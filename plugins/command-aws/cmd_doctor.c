/*
 * cmd_doctor.c - `smfw doctor`: what a user runs before a benchmark and pastes
 * into an issue report. Region and its source, profile, credentials (source and
 * masked key id), the caller (STS GetCallerIdentity), each service's URL and
 * signing region, the clock skew seen in AWS's Date header, the endpoint and
 * inference component status, the IAM actions the planned run needs (and, where
 * iam:SimulatePrincipalPolicy is allowed, which are denied), and the TLS/proxy
 * settings. --offline makes no network call at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <smfw/aws.h>
#include <smfw/clock.h>
#include <smfw/command.h>
#include <smfw/log.h>
#include <smfw/net.h>

#include "aws_commands.h"
#include "doctor_actions.h"
#include "doctor_report.h"

/* Beyond this the AWS layer re-signs with a corrected clock (aws_call.c), and AWS refuses
 * signatures more than 15 minutes off; smaller offsets are normal. */
#define SKEW_WARN_S 60

/* Everything the checks share. */
typedef struct doctor {
    doctor_report *rep;
    smfw_aws_client *client;
    int offline;
    doctor_plan plan;
    const char *url;      /* direct --url: an OpenAI-compatible server, not AWS */
    const char *region;   /* resolved, or NULL */
    int creds_ok;         /* online: credentials resolved */
    smfw_aws_identity id; /* online: valid when have_id */
    int have_id;
    char bucket[256];
} doctor;

static doctor_level level_of_status(smfw_status st) {
    return st == SMFW_ERR_CONFIG || st == SMFW_ERR_USAGE ? DOCTOR_INVALID : DOCTOR_FAIL;
}

/* The partition of an ARN ("arn:aws-cn:..."), else the region's (offline, no identity). */
static void partition_of(const doctor *d, char *out, size_t size) {
    if (d->have_id && strncmp(d->id.arn, "arn:", 4) == 0) {
        const char *p = d->id.arn + 4, *e = strchr(p, ':');
        if (e && (size_t)(e - p) < size) {
            memcpy(out, p, (size_t)(e - p));
            out[e - p] = '\0';
            return;
        }
    }
    /* The partitions' region prefixes (partitions.json regionRegex). */
    static const struct {
        const char *prefix, *partition;
    } known[] = {{"cn-", "aws-cn"},      {"us-gov-", "aws-us-gov"}, {"us-isob-", "aws-iso-b"},
                 {"us-iso-", "aws-iso"}, {"eu-isoe-", "aws-iso-e"}, {"us-isof-", "aws-iso-f"},
                 {"eusc-", "aws-eusc"}};
    const char *r = d->region ? d->region : "";
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strncmp(r, known[i].prefix, strlen(known[i].prefix)) == 0) {
            snprintf(out, size, "%s", known[i].partition);
            return;
        }
    snprintf(out, size, "aws");
}

static void check_plan(doctor *d, const char *backend) {
    doctor_section(d->rep, "Planned run");
    doctor_item(d->rep, DOCTOR_INFO, "backend", "%s", backend);
    if (d->url) {
        char shown[2048];
        doctor_item(d->rep, DOCTOR_INFO, "target", "%s (an OpenAI-compatible server, not AWS)",
                    smfw_url_redact(shown, sizeof shown, d->url));
        return;
    }
    doctor_item(d->rep, d->plan.endpoint ? DOCTOR_INFO : DOCTOR_INVALID, "endpoint", "%s",
                d->plan.endpoint ? d->plan.endpoint : "not set: --endpoint NAME (or --url URL)");
    if (d->plan.inference_component)
        doctor_item(d->rep, DOCTOR_INFO, "inference component", "%s", d->plan.inference_component);
    if (!d->plan.managed)
        doctor_item(d->rep, DOCTOR_INFO, "operation", "%s",
                    d->plan.streaming ? "InvokeEndpointWithResponseStream (streaming)"
                                      : "InvokeEndpoint (--no-streaming)");
}

static void check_region(doctor *d) {
    doctor_section(d->rep, "Region and profile");
    smfw_error err;
    const char *region = NULL;
    smfw_status st = smfw_aws_client_region(d->client, &region, &err);
    if (st == SMFW_OK) {
        d->region = region;
        const char *from = smfw_aws_client_region_source(d->client);
        doctor_item(d->rep, DOCTOR_OK, "region", "%s (from %s)", region, from ? from : "?");
    } else {
        doctor_item(d->rep, level_of_status(st), "region", "%s", err.message);
    }
    doctor_item(d->rep, DOCTOR_INFO, "profile", "%s", smfw_aws_client_profile_name(d->client));
}

/* "****************ABCD", as `aws configure list` shows a key id. */
static void mask_key_id(const char *akid, char *out, size_t size) {
    size_t n = akid ? strlen(akid) : 0;
    snprintf(out, size, "****************%s", n > 4 ? akid + n - 4 : "");
}

static void check_credentials(doctor *d) {
    doctor_section(d->rep, "Credentials");
    char masked[64];
    if (d->offline) {
        /* The chain may call STS, SSO or instance metadata: only the environment is local. */
        const char *akid = getenv("AWS_ACCESS_KEY_ID");
        if (akid && *akid && getenv("AWS_SECRET_ACCESS_KEY") && *getenv("AWS_SECRET_ACCESS_KEY")) {
            mask_key_id(akid, masked, sizeof masked);
            doctor_item(d->rep, DOCTOR_OK, "source", "environment (AWS_ACCESS_KEY_ID %s%s)", masked,
                        getenv("AWS_SESSION_TOKEN") ? ", with a session token" : "");
        } else {
            doctor_item(d->rep, DOCTOR_INFO, "source",
                        "not resolved offline (the provider chain may call STS, SSO or instance "
                        "metadata): run `smfw doctor` online");
        }
        return;
    }
    smfw_error err;
    const smfw_aws_credentials *creds = NULL;
    smfw_status st = smfw_aws_client_credentials(d->client, &creds, &err);
    if (st != SMFW_OK) {
        doctor_item(d->rep, level_of_status(st), "source", "%s", err.message);
        return;
    }
    d->creds_ok = 1;
    mask_key_id(creds->access_key_id, masked, sizeof masked);
    doctor_item(d->rep, DOCTOR_OK, "source", "%s (access key id %s)",
                creds->provider ? creds->provider : "?", masked);
    if (creds->expiration > 0) {
        int64_t left = creds->expiration - smfw_now_wall_ns() / 1000000000LL;
        doctor_item(d->rep, left > 0 ? DOCTOR_OK : DOCTOR_FAIL, "temporary",
                    "yes, expire in %lld min (refreshed before they do when the source can)",
                    (long long)(left / 60));
    } else {
        doctor_item(d->rep, DOCTOR_INFO, "temporary", "no (long-term keys)");
    }
    smfw_aws_credentials_release(creds);
    st = smfw_aws_sts_get_caller_identity(d->client, &d->id, &err);
    if (st != SMFW_OK) {
        doctor_item(d->rep, level_of_status(st), "identity", "%s", err.message);
        return;
    }
    d->have_id = 1;
    doctor_item(d->rep, DOCTOR_OK, "identity", "%s", d->id.arn);
    doctor_item(d->rep, DOCTOR_INFO, "account", "%s", d->id.account);
}

/* The services the run calls, and the ones doctor itself calls (STS, IAM). */
static void check_endpoints(doctor *d) {
    doctor_section(d->rep, "Service endpoints");
    static const char *const direct[] = {"runtime.sagemaker", "sagemaker", "sts", "iam", NULL};
    static const char *const managed[] = {
        "sagemaker", "s3", "sts", "iam", "application-autoscaling", NULL};
    for (const char *const *s = d->plan.managed ? managed : direct; *s; s++) {
        smfw_aws_endpoint_info info;
        smfw_error err;
        smfw_status st = smfw_aws_client_endpoint_info(d->client, *s, &info, &err);
        if (st != SMFW_OK) {
            doctor_item(d->rep, level_of_status(st), *s, "%s", err.message);
            continue;
        }
        char flags[96] = "";
        if (info.overridden) snprintf(flags, sizeof flags, ", override");
        if (info.fips) strncat(flags, ", FIPS", sizeof flags - strlen(flags) - 1);
        if (info.dualstack) strncat(flags, ", dual-stack", sizeof flags - strlen(flags) - 1);
        char shown[1100];
        doctor_item(d->rep, DOCTOR_OK, *s, "%s (signed %s/%s%s)",
                    smfw_url_redact(shown, sizeof shown, info.url),
                    info.signing_region[0] ? info.signing_region : "(no region yet)",
                    info.signing_name, flags);
    }
}

static void check_clock(doctor *d) {
    doctor_section(d->rep, "Clock");
    int64_t skew = 0;
    if (!smfw_aws_client_measured_skew(d->client, &skew)) {
        doctor_item(d->rep, DOCTOR_WARN, "skew",
                    "not measured (no AWS response had a Date header)");
        return;
    }
    long long a = skew < 0 ? -skew : skew;
    doctor_item(d->rep, a > SKEW_WARN_S ? DOCTOR_WARN : DOCTOR_OK, "skew",
                "%+lld s (AWS's Date header minus the local clock, 1 s resolution)%s",
                (long long)skew,
                a > SKEW_WARN_S ? "; smfw corrects its signatures past 300 s, but fix the clock "
                                  "(NTP): latency timestamps use it"
                                : "");
}

/* One SageMaker Describe*; the parsed answer, or NULL with an item saying why. */
static json_t *describe(doctor *d, const char *op, const char *key, const char *name,
                        const char *label) {
    json_t *req = json_pack("{s:s}", key, name);
    char *body = req ? json_dumps(req, JSON_COMPACT) : NULL;
    json_decref(req);
    char *resp = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_status st = body
                         ? smfw_aws_json_call(d->client, &smfw_aws_sagemaker, op, body, &resp, &err)
                         : smfw_error_set(&err, SMFW_ERR_NOMEM, "out of memory");
    free(body);
    json_t *o = st == SMFW_OK ? json_loads(resp, 0, NULL) : NULL;
    free(resp);
    if (st != SMFW_OK)
        doctor_item(d->rep, DOCTOR_FAIL, label, "%s %s in %s cannot be described: %s", label, name,
                    d->region ? d->region : "?", err.message);
    else if (!o)
        doctor_item(d->rep, DOCTOR_FAIL, label, "SageMaker %s returned no JSON", op);
    return o;
}

static void check_status(doctor *d) {
    doctor_section(d->rep, "Endpoint status");
    json_t *ep = describe(d, "DescribeEndpoint", "EndpointName", d->plan.endpoint, "endpoint");
    if (ep) {
        const char *status = json_string_value(json_object_get(ep, "EndpointStatus"));
        const char *why = json_string_value(json_object_get(ep, "FailureReason"));
        int ok = status && strcmp(status, "InService") == 0;
        doctor_item(d->rep, ok ? DOCTOR_OK : DOCTOR_FAIL, "endpoint", "%s is %s%s%s%s",
                    d->plan.endpoint, status ? status : "(no status)",
                    ok ? "" : ", not InService (a benchmark needs InService)", why ? ": " : "",
                    why ? why : "");
        json_t *v = json_array_get(json_object_get(ep, "ProductionVariants"), 0);
        if (v) {
            json_t *n = json_object_get(v, "CurrentInstanceCount");
            doctor_item(d->rep, DOCTOR_INFO, "variant", "%s, %lld instance(s)",
                        json_string_value(json_object_get(v, "VariantName"))
                            ? json_string_value(json_object_get(v, "VariantName"))
                            : "?",
                        (long long)json_integer_value(n));
        }
        json_decref(ep);
    }
    if (!d->plan.inference_component) return;
    json_t *ic = describe(d, "DescribeInferenceComponent", "InferenceComponentName",
                          d->plan.inference_component, "inference component");
    if (!ic) return;
    const char *status = json_string_value(json_object_get(ic, "InferenceComponentStatus"));
    const char *owner = json_string_value(json_object_get(ic, "EndpointName"));
    const char *why = json_string_value(json_object_get(ic, "FailureReason"));
    if (owner && strcmp(owner, d->plan.endpoint) != 0)
        doctor_item(d->rep, DOCTOR_FAIL, "inference component", "%s belongs to endpoint %s, not %s",
                    d->plan.inference_component, owner, d->plan.endpoint);
    else if (!status || strcmp(status, "InService") != 0)
        doctor_item(d->rep, DOCTOR_FAIL, "inference component", "%s is %s, not InService%s%s",
                    d->plan.inference_component, status ? status : "(no status)", why ? ": " : "",
                    why ? why : "");
    else
        doctor_item(d->rep, DOCTOR_OK, "inference component", "%s is InService on %s",
                    d->plan.inference_component, d->plan.endpoint);
    json_decref(ic);
}

/*
 * The ARN whose policies IAM simulates: a user's ARN as is; for an assumed role
 * the role's ARN from iam:GetRole (a role path cannot be read off the session
 * ARN). 0 with *why set when there is none to simulate.
 */
static int principal_arn(doctor *d, char *out, size_t size, char *why, size_t why_size) {
    const char *arn = d->id.arn;
    const char *res = strchr(arn, ':');
    for (int i = 0; res && i < 4; i++) res = strchr(res + 1, ':'); /* arn:P:svc:region:acct: */
    res = res ? res + 1 : "";
    if (strncmp(res, "user/", 5) == 0 || strncmp(res, "role/", 5) == 0) {
        snprintf(out, size, "%s", arn);
        return 1;
    }
    if (strncmp(res, "assumed-role/", 13) == 0) {
        char role[256];
        const char *name = res + 13, *slash = strchr(name, '/');
        size_t n = slash ? (size_t)(slash - name) : strlen(name);
        if (n >= sizeof role) n = sizeof role - 1;
        memcpy(role, name, n);
        role[n] = '\0';
        smfw_error err;
        if (smfw_aws_iam_get_role(d->client, role, out, size, &err) == SMFW_OK) return 1;
        snprintf(why, why_size, "the role %s of the session could not be read (iam:GetRole): %s",
                 role, err.message);
        return 0;
    }
    if (strcmp(res, "root") == 0)
        snprintf(why, why_size, "the caller is the account's root user (no IAM policy limits it)");
    else
        snprintf(why, why_size, "IAM cannot simulate the policies of %s", arn);
    return 0;
}

static void check_permissions(doctor *d) {
    doctor_section(d->rep, "IAM permissions");
    char partition[32];
    partition_of(d, partition, sizeof partition);
    doctor_action acts[DOCTOR_MAX_ACTIONS];
    size_t n = doctor_actions_plan(&d->plan, partition, d->region ? d->region : "*",
                                   d->have_id ? d->id.account : "*", acts);
    char principal[2048], why[3000] = "";
    int simulate =
        !d->offline && d->have_id && principal_arn(d, principal, sizeof principal, why, sizeof why);
    if (d->offline)
        snprintf(why, sizeof why, "offline");
    else if (!d->have_id && !why[0])
        snprintf(why, sizeof why, "no caller identity");
    /* One SimulatePrincipalPolicy per distinct resource: IAM answers action x resource. */
    char decision[DOCTOR_MAX_ACTIONS][32];
    memset(decision, 0, sizeof decision);
    for (size_t i = 0; simulate && i < n; i++) {
        if (decision[i][0]) continue;
        const char *names[DOCTOR_MAX_ACTIONS];
        size_t idx[DOCTOR_MAX_ACTIONS], m = 0;
        for (size_t j = i; j < n; j++)
            if (strcmp(acts[j].resource, acts[i].resource) == 0) {
                names[m] = acts[j].action;
                idx[m++] = j;
            }
        smfw_aws_iam_decision out[DOCTOR_MAX_ACTIONS];
        smfw_error err;
        smfw_status st = smfw_aws_iam_simulate_principal_policy(d->client, principal, names, m,
                                                                acts[i].resource, out, &err);
        if (st != SMFW_OK) {
            snprintf(why, sizeof why, "%s%s",
                     st == SMFW_ERR_AUTH ? "not allowed to call iam:SimulatePrincipalPolicy: " : "",
                     err.message);
            simulate = 0;
            break;
        }
        for (size_t k = 0; k < m; k++)
            snprintf(decision[idx[k]], sizeof decision[0], "%s",
                     out[k].decision[0] ? out[k].decision : "no answer");
    }
    if (simulate)
        doctor_item(d->rep, DOCTOR_OK, "simulation", "the policies of %s", principal);
    else if (!d->offline)
        doctor_item(d->rep, DOCTOR_WARN, "simulation", "not checked: %s", why);
    for (size_t i = 0; i < n; i++) {
        doctor_level lv = DOCTOR_INFO;
        char verdict[64] = "needed";
        if (simulate) {
            int allowed = strcmp(decision[i], "allowed") == 0;
            lv = allowed ? DOCTOR_OK : DOCTOR_FAIL;
            snprintf(verdict, sizeof verdict, "%s", allowed ? "allowed" : decision[i]);
            if (!allowed && strstr(decision[i], "Deny"))
                snprintf(verdict, sizeof verdict, "DENIED (%s)", decision[i]);
        }
        doctor_item(d->rep, lv, acts[i].action, "%s on %s: %s", verdict, acts[i].resource,
                    acts[i].why);
    }
}

static void check_connections(doctor *d, const smfw_net_config *net) {
    doctor_section(d->rep, "Connections");
    const char *from = NULL;
    const char *ca = smfw_net_ca_bundle(net, &from);
    doctor_item(d->rep, DOCTOR_OK, "CA bundle", "%s%s%s%s", ca ? ca : "the system's CAs",
                from ? " (from " : "", from ? from : "", from ? ")" : "");
    char desc[2048];
    smfw_net_describe(net, desc, sizeof desc);
    doctor_item(d->rep, DOCTOR_INFO, "TLS and proxies", "%s", desc);
}

static int parse_format(const smfw_command_context *ctx, int *json) {
    const char *v = smfw_command_get(ctx, "format");
    *json = v && strcmp(v, "json") == 0;
    if (v && !*json && strcmp(v, "text") != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--format wants text or json, not \"%s\"", v);
        return 1;
    }
    return 0;
}

static int doctor_main(const smfw_command_context *ctx, int argc, char **argv) {
    if (argc > 1) {
        smfw_log(SMFW_LOG_ERROR, NULL, "unexpected argument \"%s\" (see `smfw doctor --help`)",
                 argv[1]);
        return 1;
    }
    int json = 0;
    if (parse_format(ctx, &json)) return 1;
    doctor d;
    memset(&d, 0, sizeof d);
    d.offline = smfw_command_get(ctx, "offline") != NULL;
    const smfw_config *cfg = ctx->config;
    const smfw_settings *run = smfw_config_section(cfg, "run");
    const char *backend = smfw_settings_get(smfw_config_section(cfg, "smfw"), "backend");
    if (!backend) backend = "direct";
    d.plan.managed = strcmp(backend, "managed") == 0;
    d.plan.endpoint = smfw_settings_get(run, "endpoint");
    d.plan.inference_component = smfw_settings_get(run, "inference_component");
    const smfw_setting_binding streaming[] = {{NULL, "streaming", SMFW_BIND_BOOL, 0, 0},
                                              SMFW_BINDINGS_END}; /* declared true */
    smfw_error berr;
    if (smfw_settings_bind(run, streaming, &d.plan.streaming, &berr) != SMFW_OK) {
        smfw_log(SMFW_LOG_ERROR, NULL, "%s", berr.message);
        return 1;
    }
    if (!d.plan.managed)
        d.url = smfw_settings_get(smfw_config_section(cfg, "backend.direct"), "url");
    const smfw_settings *mgd = smfw_config_section(cfg, "backend.managed");
    d.plan.role_arn = d.plan.managed ? smfw_settings_get(mgd, "role_arn") : NULL;
    if (d.plan.managed && !d.plan.role_arn) d.plan.role_arn = getenv("SAGEMAKER_ROLE_ARN");
    const char *bucket = d.plan.managed ? smfw_settings_get(mgd, "bucket") : NULL;
    if (d.plan.managed && !bucket) bucket = getenv("SAGEMAKER_BUCKET");
    d.rep = doctor_report_new(d.offline ? "offline" : "online");
    if (!d.rep) {
        smfw_log(SMFW_LOG_ERROR, NULL, "out of memory");
        return 2;
    }
    check_plan(&d, backend);
    int mock = d.plan.endpoint && strcmp(d.plan.endpoint, "mock") == 0;
    smfw_aws_options o;
    smfw_aws_options_from_config(cfg, &o);
    if (d.offline) o.no_imds = 1; /* no instance metadata either */
    smfw_error err;
    smfw_status st = smfw_aws_client_new(&o, &d.client, &err);
    if (st != SMFW_OK) {
        doctor_section(d.rep, "Connections");
        doctor_item(d.rep, level_of_status(st), "AWS client", "%s", err.message);
    } else if (d.url || mock) {
        doctor_section(d.rep, "AWS");
        doctor_item(d.rep, DOCTOR_INFO, "needed", "no: %s",
                    mock ? "--endpoint mock starts a private smfw-mock"
                         : "--url addresses an OpenAI-compatible server");
        check_connections(&d, smfw_aws_client_net(d.client));
    } else {
        check_region(&d);
        check_credentials(&d);
        if (d.plan.managed) {
            if (bucket)
                snprintf(d.bucket, sizeof d.bucket, "%s", bucket);
            else if (d.have_id && d.region)
                snprintf(d.bucket, sizeof d.bucket, "sagemaker-%s-%s", d.region, d.id.account);
            d.plan.bucket = d.bucket[0] ? d.bucket : NULL;
            d.plan.bucket_is_default = !bucket;
        }
        check_endpoints(&d);
        int online = !d.offline && d.creds_ok && d.have_id;
        if (online) check_clock(&d);
        if (online && d.plan.endpoint) check_status(&d);
        if (d.plan.endpoint) check_permissions(&d);
        check_connections(&d, smfw_aws_client_net(d.client));
    }
    if (json) {
        char *text = doctor_report_json(d.rep);
        if (text) fprintf(ctx->out, "%s\n", text);
        free(text);
    } else {
        doctor_report_text(d.rep, ctx->out);
    }
    int rc = doctor_report_exit(d.rep);
    doctor_report_free(d.rep);
    smfw_aws_client_free(d.client);
    return rc;
}

static const smfw_command_option doctor_options[] = {
    {"offline", 0, NULL, "make no network call: print what resolves locally"},
    {"format", 1, "FMT", "what to print: text (default) or json"},
    SMFW_COMMAND_OPTIONS_END};

const smfw_command_def aws_command_doctor = {
    sizeof(smfw_command_def),
    "doctor",
    "check the AWS setup a run would use (region, credentials, endpoints, IAM) before a benchmark",
    "Usage: smfw doctor [--offline] [--format text|json] [--backend direct|managed]\n"
    "                   [--endpoint NAME] [--inference-component IC] [--no-streaming]\n"
    "                   [--region R] [--profile P] [--endpoint-url URL] [--ca-bundle FILE]\n\n"
    "Prints, one section per topic, what the run configured by the same options would use:\n"
    "the region and where it came from, the AWS profile, the credentials' source with the\n"
    "access key id masked (never a secret) and the caller (STS GetCallerIdentity), each\n"
    "service's URL and signing region (FIPS, dual-stack, partition and overrides applied),\n"
    "the clock skew seen in AWS's Date header, the endpoint's and inference component's\n"
    "status (DescribeEndpoint, DescribeInferenceComponent), the IAM actions the run needs\n"
    "and, where iam:SimulatePrincipalPolicy is allowed, which are denied (for an assumed\n"
    "role its ARN comes from iam:GetRole), and the CA bundle and proxies in use. Paste the\n"
    "output into an issue report. --offline makes no network call (no instance metadata\n"
    "either). Exit 0: everything resolves (offline) or the run can work (online); 1: the\n"
    "configuration is invalid (no region, a CA bundle that cannot be read, an endpoint the\n"
    "rules refuse); 2 (online): the run cannot work, with the reason.",
    doctor_options,
    doctor_main};
