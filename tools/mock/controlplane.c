/*
 * controlplane.c - the SageMaker control plane smfw calls (awsJson 1.1,
 * aws-wire.md §3): DescribeEndpoint, DescribeInferenceComponent, the
 * AIWorkloadConfig and AIBenchmarkJob operations, with the model's
 * validation and error codes. The jobs they create run in
 * controlplane_jobs.c; configs and jobs persist through controlplane_store.c.
 * The AIRecommendationJob operations are in controlplane_recs.c.
 */
#include "controlplane.h"
#include "instance_types.h"
#include "workload_params.h"

#include <smfw/backend.h>

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------------------------ */

void cp_error(mock_request *req, const char *code, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mock_aws_error(req, MOCK_PROTO_JSON, 400, code, msg, NULL);
}

/* Coral-style message for one failed member constraint. */
void cp_invalid(mock_request *req, const char *member, const char *value, const char *constraint) {
    char shown[128];
    if (value)
        snprintf(shown, sizeof shown, "'%.100s'", value);
    else
        snprintf(shown, sizeof shown, "null");
    cp_error(req, "ValidationException",
             "1 validation error detected: Value %s at '%s' failed to satisfy constraint: %s",
             shown, member, constraint);
}

void cp_arn(const mock_controlplane *cp, const char *kind, const char *name, char *out,
            size_t size) {
    snprintf(out, size, "arn:aws:sagemaker:%s:%s:%s/%s", cp->srv->opt.region,
             cp->srv->opt.account_id, kind, name);
    /* Endpoint and component ARNs carry lower-case names, as SageMaker's do. */
    if (!strcmp(kind, "endpoint") || !strcmp(kind, "inference-component"))
        for (char *p = strrchr(out, '/'); p && *p; p++)
            if (*p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
}

int cp_s3_uri_valid(const char *s) {
    return s && strlen(s) <= 1024 &&
           ((!strncmp(s, "s3://", 5) && s[5] && s[5] != '/') || !strncmp(s, "https://", 8));
}

int cp_role_arn_valid(const char *s) {
    if (!s || strlen(s) < 20 || strlen(s) > 2048 || strncmp(s, "arn:aws", 7) != 0) return 0;
    const char *iam = strstr(s, ":iam::");
    if (!iam) return 0;
    const char *acct = iam + 6;
    if (strspn(acct, "0123456789") != 12 || strncmp(acct + 12, ":role/", 6) != 0) return 0;
    return acct[18] != '\0';
}

int cp_tags_valid(json_t *tags) {
    if (!tags) return 1;
    if (!json_is_array(tags) || json_array_size(tags) > 50) return 0;
    size_t i;
    json_t *t;
    json_array_foreach(tags, i, t) {
        const char *k = jstr(t, "Key"), *v = jstr(t, "Value");
        if (!k || !v || strlen(k) < 1 || strlen(k) > 128 || strlen(v) > 256) return 0;
    }
    return 1;
}

/* Allowed members of an object; the name of the first unknown one, or NULL. */
const char *cp_unknown_member(json_t *o, const char *const *allowed) {
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        int ok = 0;
        for (size_t i = 0; allowed[i]; i++) ok |= !strcmp(allowed[i], k);
        if (!ok) return k;
    }
    return NULL;
}

int cp_role_refused(mock_controlplane *cp, mock_request *req, const char *role) {
    /* A role defined with --role must let SageMaker assume it (unknown roles are accepted). */
    const mock_role *known = mock_find_role(&cp->srv->opt, strrchr(role, '/') + 1);
    if (known && strcmp(known->trust, "sagemaker.amazonaws.com") != 0) {
        cp_error(req, "ValidationException",
                 "Could not assume role %s. Please ensure that the role exists and allows "
                 "principal 'sagemaker.amazonaws.com' to assume the role.",
                 role);
        return 1;
    }
    return 0;
}

/* ---- endpoints and inference components --------------------------------------------------- */

static void op_describe_endpoint(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *name = jstr(in, "EndpointName");
    if (!name || !mock_name_valid(name, 63)) {
        cp_invalid(req, "endpointName", name,
                   "Member must satisfy regular expression pattern: "
                   "^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}");
        return;
    }
    char arn[256];
    cp_arn(cp, "endpoint", name, arn, sizeof arn);
    if (!mock_has_endpoint(&cp->srv->opt, name)) {
        cp_error(req, "ValidationException", "Could not find endpoint \"%s\".", arn);
        return;
    }
    json_t *out = json_pack("{s:s,s:s,s:s,s:[{s:s,s:[],s:f,s:f,s:i,s:i}],s:s,s:f,s:f}",
                            "EndpointName", name, "EndpointArn", arn, "EndpointConfigName", name,
                            "ProductionVariants", "VariantName", "AllTraffic", "DeployedImages",
                            "CurrentWeight", 1.0, "DesiredWeight", 1.0, "CurrentInstanceCount", 1,
                            "DesiredInstanceCount", 1, "EndpointStatus", "InService",
                            "CreationTime", cp->started, "LastModifiedTime", cp->started);
    mock_json_reply(req, CP_JSON, out);
}

/* Each endpoint's config is named as the endpoint: one variant, AllTraffic, 1 instance of the
 * mock's default type (docs/mock.md). */
static void op_describe_endpoint_config(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *name = jstr(in, "EndpointConfigName");
    if (!name || !mock_name_valid(name, 63)) {
        cp_invalid(req, "endpointConfigName", name,
                   "Member must satisfy regular expression pattern: "
                   "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}");
        return;
    }
    char arn[256];
    cp_arn(cp, "endpoint-config", name, arn, sizeof arn);
    if (!mock_has_endpoint(&cp->srv->opt, name)) {
        cp_error(req, "ValidationException", "Could not find endpoint configuration \"%s\".", arn);
        return;
    }
    json_t *out = json_pack("{s:s,s:s,s:[{s:s,s:s,s:i,s:s,s:f}],s:f}", "EndpointConfigName", name,
                            "EndpointConfigArn", arn, "ProductionVariants", "VariantName",
                            "AllTraffic", "ModelName", name, "InitialInstanceCount", 1,
                            "InstanceType", MOCK_ENDPOINT_INSTANCE_TYPE, "InitialVariantWeight",
                            1.0, "CreationTime", cp->started);
    mock_json_reply(req, CP_JSON, out);
}

static void op_describe_component(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *name = jstr(in, "InferenceComponentName");
    if (!name || !mock_name_valid(name, 63)) {
        cp_invalid(req, "inferenceComponentName", name,
                   "Member must satisfy regular expression pattern: "
                   "^[a-zA-Z0-9]([\\-a-zA-Z0-9]*[a-zA-Z0-9])?$");
        return;
    }
    char arn[256], earn[256];
    cp_arn(cp, "inference-component", name, arn, sizeof arn);
    if (!mock_has_component(&cp->srv->opt, name)) {
        cp_error(req, "ValidationException", "Could not find inference component \"%s\".", arn);
        return;
    }
    const char *endpoint = mock_component_endpoint(&cp->srv->opt, name);
    cp_arn(cp, "endpoint", endpoint, earn, sizeof earn);
    json_t *out = json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:{s:s,s:{s:f,s:i}},s:{s:i,s:i},s:f,s:f,s:s}",
        "InferenceComponentName", name, "InferenceComponentArn", arn, "EndpointName", endpoint,
        "EndpointArn", earn, "VariantName", "AllTraffic", "Specification", "ModelName",
        cp->srv->opt.model, "ComputeResourceRequirements", "NumberOfAcceleratorDevicesRequired",
        1.0, "MinMemoryRequiredInMb", 1024, "RuntimeConfig", "DesiredCopyCount", 1,
        "CurrentCopyCount", 1, "CreationTime", cp->started, "LastModifiedTime", cp->started,
        "InferenceComponentStatus", "InService");
    mock_json_reply(req, CP_JSON, out);
}

/* ---- workload configs --------------------------------------------------------------------- */

static int validate_dataset_config(mock_request *req, json_t *dc) {
    static const char *const union_members[] = {"InputDataConfig", NULL};
    const char *bad = cp_unknown_member(dc, union_members);
    if (!json_is_object(dc) || bad || json_object_size(dc) != 1) {
        cp_invalid(req, "datasetConfig", bad,
                   "Member must be a union with exactly one member "
                   "set: InputDataConfig");
        return -1;
    }
    json_t *list = json_object_get(dc, "InputDataConfig");
    if (!json_is_array(list) || json_array_size(list) < 1) {
        cp_invalid(req, "datasetConfig.inputDataConfig", NULL,
                   "Member must have length greater than or equal to 1");
        return -1;
    }
    size_t i;
    json_t *ch;
    json_array_foreach(list, i, ch) {
        const char *name = jstr(ch, "ChannelName");
        size_t n = name ? strlen(name) : 0;
        if (!name || n < 1 || n > 64 ||
            strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") !=
                n) {
            cp_invalid(req, "datasetConfig.inputDataConfig.member.channelName", name,
                       "Member must satisfy regular expression pattern: [A-Za-z0-9\\.\\-_]+");
            return -1;
        }
        const char *uri =
            jstr(json_object_get(json_object_get(ch, "DataSource"), "S3DataSource"), "S3Uri");
        if (!cp_s3_uri_valid(uri)) {
            cp_invalid(
                req, "datasetConfig.inputDataConfig.member.dataSource.s3DataSource.s3Uri", uri,
                "Member must satisfy regular expression pattern: (https|s3)://([^/]+)/?(.*)");
            return -1;
        }
    }
    return 0;
}

/* The first WorkloadSpec parameter the documented list (workload_params.c, the one the managed
 * backend checks) lacks, copied into out; 0 when none. The model cannot decide this (Inline is an
 * opaque string there). A spec that is not JSON is left to the job, which reads JSON only. */
static int spec_unknown_param(const char *inline_text, char *out, size_t size) {
    json_t *root = json_loads(inline_text, 0, NULL);
    json_t *params = json_object_get(root, "parameters");
    const char *key;
    json_t *v;
    int found = 0;
    if (json_is_object(params)) {
        json_object_foreach(params, key, v) {
            if (!workload_param_find(key)) {
                snprintf(out, size, "%s", key);
                found = 1;
                break;
            }
        }
    }
    json_decref(root);
    return found;
}

static void op_create_config(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *name = jstr(in, "AIWorkloadConfigName");
    if (!name || !mock_name_valid(name, 63)) {
        cp_invalid(req, "aIWorkloadConfigName", name,
                   name ? "Member must satisfy regular expression pattern: "
                          "^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$"
                        : "Member must not be null");
        return;
    }
    json_t *dc = json_object_get(in, "DatasetConfig");
    if (dc && validate_dataset_config(req, dc) != 0) return;
    json_t *wc = json_object_get(in, "AIWorkloadConfigs");
    if (wc) {
        static const char *const wc_members[] = {"WorkloadSpec", NULL};
        static const char *const spec_members[] = {"Inline", NULL};
        const char *bad = cp_unknown_member(wc, wc_members);
        json_t *spec = json_object_get(wc, "WorkloadSpec");
        if (!json_is_object(wc) || bad) {
            cp_invalid(req, "aIWorkloadConfigs", bad, "Member has unknown fields");
            return;
        }
        if (!json_is_object(spec)) {
            cp_invalid(req, "aIWorkloadConfigs.workloadSpec", NULL, "Member must not be null");
            return;
        }
        bad = cp_unknown_member(spec, spec_members);
        if (bad) {
            cp_error(req, "ValidationException",
                     "1 validation error detected: Value at 'aIWorkloadConfigs.workloadSpec' "
                     "failed to satisfy constraint: unknown union member \"%s\" (WorkloadSpec "
                     "accepts only Inline)",
                     bad);
            return;
        }
        const char *inl = jstr(spec, "Inline");
        if (!inl || !*inl) {
            cp_invalid(req, "aIWorkloadConfigs.workloadSpec.inline", NULL,
                       "Member must have length greater than or equal to 1");
            return;
        }
        char unknown[128], known[1024];
        if (spec_unknown_param(inl, unknown, sizeof unknown)) {
            workload_param_names(known, sizeof known);
            cp_error(req, "ValidationException",
                     "Unknown WorkloadSpec parameter \"%.100s\" (accepted: %.800s)", unknown,
                     known);
            return;
        }
    }
    json_t *tags = json_object_get(in, "Tags");
    if (!cp_tags_valid(tags)) {
        cp_invalid(req, "tags", NULL, "Tags must be at most 50 {Key (1-128), Value (0-256)}");
        return;
    }
    if (cp_find_config(cp, name)) {
        cp_error(req, "ResourceInUse", "AI workload config %s already exists.", name);
        return;
    }
    char arn[256];
    cp_arn(cp, "ai-workload-config", name, arn, sizeof arn);
    json_t *c = json_pack("{s:s,s:s,s:f}", "AIWorkloadConfigName", name, "AIWorkloadConfigArn", arn,
                          "CreationTime", mock_now_unix());
    if (dc) json_object_set(c, "DatasetConfig", dc);
    if (wc) json_object_set(c, "AIWorkloadConfigs", wc);
    if (tags) json_object_set(c, "Tags", tags);
    json_array_append_new(cp->configs, c);
    cp_save(cp);
    mock_json_reply(req, CP_JSON, json_pack("{s:s}", "AIWorkloadConfigArn", arn));
}

/* The workload config a request names, or NULL after answering with the error
 * (the twin of job_from_request for benchmark jobs). */
static json_t *config_from_request(mock_controlplane *cp, mock_request *req, json_t *in,
                                   const char **name_out) {
    const char *name = jstr(in, "AIWorkloadConfigName");
    if (!name || !mock_name_valid(name, 63)) {
        cp_invalid(req, "aIWorkloadConfigName", name, "Member must not be null");
        return NULL;
    }
    json_t *c = cp_find_config(cp, name);
    if (!c) cp_error(req, "ResourceNotFound", "AI workload config %s does not exist.", name);
    if (name_out) *name_out = name;
    return c;
}

static void op_describe_config(mock_controlplane *cp, mock_request *req, json_t *in) {
    json_t *c = config_from_request(cp, req, in, NULL);
    if (!c) return;
    mock_json_reply(req, CP_JSON, json_deep_copy(c));
}

static void op_delete_config(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *name = NULL;
    json_t *c = config_from_request(cp, req, in, &name);
    if (!c) return;
    for (cp_job *j = cp->jobs; j; j = j->next) {
        const char *ident = jstr(j->desc, "AIWorkloadConfigIdentifier");
        if (!job_terminal(j) && !strcmp(ident_name(ident), name)) {
            cp_error(req, "ResourceInUse",
                     "AI workload config %s is used by benchmark job %s, which is %s.", name,
                     jstr(j->desc, "AIBenchmarkJobName"), jstr(j->desc, "AIBenchmarkJobStatus"));
            return;
        }
    }
    for (cp_rec *r = cp->recs; r; r = r->next) {
        const char *ident = jstr(r->desc, "AIWorkloadConfigIdentifier");
        if (!cp_rec_terminal(r) && !strcmp(ident_name(ident), name)) {
            cp_error(req, "ResourceInUse",
                     "AI workload config %s is used by recommendation job %s, which is %s.", name,
                     jstr(r->desc, "AIRecommendationJobName"),
                     jstr(r->desc, "AIRecommendationJobStatus"));
            return;
        }
    }
    json_t *arn = json_incref(json_object_get(c, "AIWorkloadConfigArn"));
    size_t i;
    json_t *x;
    json_array_foreach(cp->configs, i, x) {
        if (x == c) {
            json_array_remove(cp->configs, i);
            break;
        }
    }
    cp_save(cp);
    mock_json_reply(req, CP_JSON, json_pack("{s:o}", "AIWorkloadConfigArn", arn));
}

/* Shared list logic: filter, sort, page. `items` is consumed. */
typedef struct list_keys {
    const char *name, *status;
} list_keys;
static int cmp_name_asc(const void *a, const void *b, void *keys) {
    const char *key = ((const list_keys *)keys)->name;
    return strcmp(jstr(*(json_t *const *)a, key), jstr(*(json_t *const *)b, key));
}
static int cmp_time_asc(const void *a, const void *b, void *key) {
    (void)key;
    double x = json_number_value(json_object_get(*(json_t *const *)a, "CreationTime"));
    double y = json_number_value(json_object_get(*(json_t *const *)b, "CreationTime"));
    return x < y ? -1 : x > y;
}
static int cmp_status_asc(const void *a, const void *b, void *keys) {
    const char *key = ((const list_keys *)keys)->status;
    return strcmp(jstr(*(json_t *const *)a, key), jstr(*(json_t *const *)b, key));
}

void cp_list_reply(mock_request *req, json_t *in, json_t *items, const char *name_key,
                   const char *status_key, const char *list_key, const char *const *sort_keys) {
    json_t *jmax = json_object_get(in, "MaxResults");
    long max = 10;
    if (jmax) {
        if (!json_is_integer(jmax) || json_integer_value(jmax) < 1 ||
            json_integer_value(jmax) > 100) {
            json_decref(items);
            cp_invalid(req, "maxResults", NULL, "Member must have value between 1 and 100");
            return;
        }
        max = (long)json_integer_value(jmax);
    }
    const char *sort_by = jstr(in, "SortBy");
    const char *order = jstr(in, "SortOrder");
    int ok_sort = !sort_by;
    for (size_t i = 0; sort_by && sort_keys[i]; i++) ok_sort |= !strcmp(sort_by, sort_keys[i]);
    if (!ok_sort || (order && strcmp(order, "Ascending") && strcmp(order, "Descending"))) {
        json_decref(items);
        cp_invalid(req, ok_sort ? "sortOrder" : "sortBy", ok_sort ? order : sort_by,
                   "Member must satisfy enum value set");
        return;
    }
    size_t n = json_array_size(items);
    json_t **arr = calloc(n + 1, sizeof *arr);
    if (!arr) abort();
    for (size_t i = 0; i < n; i++) arr[i] = json_array_get(items, i);
    int (*cmp)(const void *, const void *, void *) = cmp_time_asc;
    if (sort_by && !strcmp(sort_by, "Name")) cmp = cmp_name_asc;
    if (sort_by && !strcmp(sort_by, "Status")) cmp = cmp_status_asc;
    list_keys keys = {name_key, status_key};
    qsort_r(arr, n, sizeof *arr, cmp, &keys);
    int descending = !order || !strcmp(order, "Descending");
    const char *token = jstr(in, "NextToken");
    long start = 0;
    if (token) {
        char *end;
        start = strtol(token, &end, 10);
        if (*end || start < 0 || (size_t)start > n) {
            free(arr);
            json_decref(items);
            cp_error(req, "ValidationException", "Invalid pagination token");
            return;
        }
    }
    json_t *page = json_array();
    long i = start;
    for (; i < (long)n && i < start + max; i++)
        json_array_append(page, arr[descending ? n - 1 - (size_t)i : (size_t)i]);
    json_t *out = json_pack("{s:o}", list_key, page);
    if (i < (long)n) {
        char next[32];
        snprintf(next, sizeof next, "%ld", i);
        json_object_set_new(out, "NextToken", json_string(next));
    }
    free(arr);
    json_decref(items);
    mock_json_reply(req, CP_JSON, out);
}

int cp_time_filter_ok(json_t *in, double created) {
    json_t *after = json_object_get(in, "CreationTimeAfter");
    json_t *before = json_object_get(in, "CreationTimeBefore");
    if (json_is_number(after) && !(created > json_number_value(after))) return 0;
    if (json_is_number(before) && !(created < json_number_value(before))) return 0;
    return 1;
}

static void op_list_configs(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *contains = jstr(in, "NameContains");
    json_t *items = json_array();
    size_t i;
    json_t *c;
    json_array_foreach(cp->configs, i, c) {
        const char *name = jstr(c, "AIWorkloadConfigName");
        double created = json_number_value(json_object_get(c, "CreationTime"));
        if (contains && !strstr(name, contains)) continue;
        if (!cp_time_filter_ok(in, created)) continue;
        json_array_append_new(
            items, json_pack("{s:s,s:O,s:f}", "AIWorkloadConfigName", name, "AIWorkloadConfigArn",
                             json_object_get(c, "AIWorkloadConfigArn"), "CreationTime", created));
    }
    static const char *const keys[] = {"Name", "CreationTime", NULL};
    cp_list_reply(req, in, items, "AIWorkloadConfigName", NULL, "AIWorkloadConfigs", keys);
}

/* ---- benchmark jobs ----------------------------------------------------------------------- */

json_t *cp_job_desc(mock_controlplane *cp, const char *name, json_t *target, json_t *output,
                    const char *config_ident, json_t *config, const char *role, json_t *tags) {
    char arn[256];
    cp_arn(cp, "ai-benchmark-job", name, arn, sizeof arn);
    json_t *out_result =
        json_pack("{s:O}", "S3OutputLocation", json_object_get(output, "S3OutputLocation"));
    if (json_object_get(output, "MlflowConfig"))
        json_object_set(out_result, "MlflowConfig", json_object_get(output, "MlflowConfig"));
    json_t *desc = json_pack(
        "{s:s,s:s,s:s,s:O,s:o,s:s,s:s,s:f,s:s}", "AIBenchmarkJobName", name, "AIBenchmarkJobArn",
        arn, "AIBenchmarkJobStatus", "InProgress", "BenchmarkTarget", target, "OutputConfig",
        out_result, "AIWorkloadConfigIdentifier", config_ident, "RoleArn", role, "CreationTime",
        mock_now_unix(), "AIWorkloadConfigName", jstr(config, "AIWorkloadConfigName"));
    if (tags) json_object_set(desc, "Tags", tags);
    return desc;
}

cp_job *cp_job_launch(mock_controlplane *cp, json_t *desc) {
    cp_job *j = cp_job_new(cp, desc);
    cp_save(cp);
    /* Start on the next loop turn, so the Create answer goes out first. */
    j->timer = event_new(cp->srv->base, -1, 0, cp_job_start_cb, j);
    struct timeval now = {0, 0};
    event_add(j->timer, &now);
    return j;
}

static void op_create_job(mock_controlplane *cp, mock_request *req, json_t *in) {
    const mock_options *opt = &cp->srv->opt;
    const char *name = jstr(in, "AIBenchmarkJobName");
    if (!name || !mock_name_valid(name, 63)) {
        cp_invalid(req, "aIBenchmarkJobName", name,
                   name ? "Member must satisfy regular expression pattern: "
                          "^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$"
                        : "Member must not be null");
        return;
    }
    json_t *target = json_object_get(in, "BenchmarkTarget");
    static const char *const target_members[] = {"Endpoint", NULL};
    if (!json_is_object(target) || cp_unknown_member(target, target_members) ||
        json_object_size(target) != 1) {
        cp_invalid(req, "benchmarkTarget", NULL,
                   "Member must be a union with exactly one member set: Endpoint");
        return;
    }
    json_t *ep = json_object_get(target, "Endpoint");
    static const char *const ep_members[] = {"Identifier", "TargetContainerHostname",
                                             "InferenceComponents", NULL};
    const char *bad = json_is_object(ep) ? cp_unknown_member(ep, ep_members) : NULL;
    const char *ep_ident = jstr(ep, "Identifier");
    if (!json_is_object(ep) || bad || !ep_ident || !*ep_ident || strlen(ep_ident) > 256) {
        cp_invalid(req, "benchmarkTarget.endpoint.identifier", bad ? bad : ep_ident,
                   bad ? "Member has unknown fields" : "Member must not be null");
        return;
    }
    json_t *output = json_object_get(in, "OutputConfig");
    const char *s3out = jstr(output, "S3OutputLocation");
    if (!json_is_object(output) || !cp_s3_uri_valid(s3out)) {
        cp_invalid(
            req, "outputConfig.s3OutputLocation", s3out,
            s3out ? "Member must satisfy regular expression pattern: (https|s3)://([^/]+)/?(.*)"
                  : "Member must not be null");
        return;
    }
    const char *wl = jstr(in, "AIWorkloadConfigIdentifier");
    if (!wl || !*wl || strlen(wl) > 256) {
        cp_invalid(req, "aIWorkloadConfigIdentifier", wl, "Member must not be null");
        return;
    }
    const char *role = jstr(in, "RoleArn");
    if (!cp_role_arn_valid(role)) {
        cp_invalid(req, "roleArn", role,
                   role ? "Member must satisfy regular expression pattern: "
                          "^arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+$"
                        : "Member must not be null");
        return;
    }
    json_t *tags = json_object_get(in, "Tags");
    if (!cp_tags_valid(tags)) {
        cp_invalid(req, "tags", NULL, "Tags must be at most 50 {Key (1-128), Value (0-256)}");
        return;
    }
    if (cp_role_refused(cp, req, role)) return;
    if (cp_find_job(cp, name)) {
        cp_error(req, "ResourceInUse", "AI benchmark job %s already exists.", name);
        return;
    }
    json_t *config = cp_find_config(cp, wl);
    if (!config) {
        cp_error(req, "ResourceNotFound", "AI workload config %s does not exist.", ident_name(wl));
        return;
    }
    if (!mock_has_endpoint(opt, ident_name(ep_ident))) {
        cp_error(req, "ResourceNotFound", "Endpoint %s does not exist.", ident_name(ep_ident));
        return;
    }
    size_t i;
    json_t *ic;
    json_array_foreach(json_object_get(ep, "InferenceComponents"), i, ic) {
        const char *ici = jstr(ic, "Identifier");
        const char *home = ici ? mock_component_endpoint(opt, ident_name(ici)) : NULL;
        if (!home || strcmp(ident_name(ep_ident), home) != 0) {
            cp_error(req, "ResourceNotFound",
                     "Inference component %s does not exist on endpoint %s.",
                     ici ? ident_name(ici) : "(null)", ident_name(ep_ident));
            return;
        }
    }
    json_t *desc = cp_job_desc(cp, name, target, output, wl, config, role, tags);
    if (json_object_get(in, "NetworkConfig"))
        json_object_set(desc, "NetworkConfig", json_object_get(in, "NetworkConfig"));
    json_t *arn = json_incref(json_object_get(desc, "AIBenchmarkJobArn"));
    cp_job_launch(cp, desc);
    mock_json_reply(req, CP_JSON, json_pack("{s:o}", "AIBenchmarkJobArn", arn));
}

static cp_job *job_from_request(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *name = jstr(in, "AIBenchmarkJobName");
    if (!name || !mock_name_valid(name, 63)) {
        cp_invalid(req, "aIBenchmarkJobName", name, "Member must not be null");
        return NULL;
    }
    cp_job *j = cp_find_job(cp, name);
    if (!j) cp_error(req, "ResourceNotFound", "AI benchmark job %s does not exist.", name);
    return j;
}

static void op_describe_job(mock_controlplane *cp, mock_request *req, json_t *in) {
    cp_job *j = job_from_request(cp, req, in);
    if (!j) return;
    json_t *out = json_deep_copy(j->desc);
    json_object_del(out, "AIWorkloadConfigName"); /* a List-only member */
    mock_json_reply(req, CP_JSON, out);
}

static void op_stop_job(mock_controlplane *cp, mock_request *req, json_t *in) {
    cp_job *j = job_from_request(cp, req, in);
    if (!j) return;
    const char *status = jstr(j->desc, "AIBenchmarkJobStatus");
    if (strcmp(status, "InProgress") != 0) {
        cp_error(req, "ValidationException",
                 "AI benchmark job %s cannot be stopped because it is %s.",
                 jstr(j->desc, "AIBenchmarkJobName"), status);
        return;
    }
    cp_job_request_stop(j);
    mock_json_reply(
        req, CP_JSON,
        json_pack("{s:O}", "AIBenchmarkJobArn", json_object_get(j->desc, "AIBenchmarkJobArn")));
}

static void op_delete_job(mock_controlplane *cp, mock_request *req, json_t *in) {
    cp_job *j = job_from_request(cp, req, in);
    if (!j) return;
    if (!job_terminal(j)) {
        cp_error(req, "ValidationException",
                 "AI benchmark job %s cannot be deleted because it is %s; stop it first.",
                 jstr(j->desc, "AIBenchmarkJobName"), jstr(j->desc, "AIBenchmarkJobStatus"));
        return;
    }
    json_t *arn = json_incref(json_object_get(j->desc, "AIBenchmarkJobArn"));
    cp_job **pp = &cp->jobs;
    while (*pp != j) pp = &(*pp)->next;
    *pp = j->next;
    cp_job_free(j);
    cp_save(cp);
    mock_json_reply(req, CP_JSON, json_pack("{s:o}", "AIBenchmarkJobArn", arn));
}

static void op_list_jobs(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *contains = jstr(in, "NameContains");
    const char *status = jstr(in, "StatusEquals");
    json_t *items = json_array();
    for (cp_job *j = cp->jobs; j; j = j->next) {
        const char *name = jstr(j->desc, "AIBenchmarkJobName");
        double created = json_number_value(json_object_get(j->desc, "CreationTime"));
        if (contains && !strstr(name, contains)) continue;
        if (status && strcmp(status, jstr(j->desc, "AIBenchmarkJobStatus")) != 0) continue;
        if (!cp_time_filter_ok(in, created)) continue;
        json_t *s =
            json_pack("{s:s,s:O,s:O,s:f,s:O}", "AIBenchmarkJobName", name, "AIBenchmarkJobArn",
                      json_object_get(j->desc, "AIBenchmarkJobArn"), "AIBenchmarkJobStatus",
                      json_object_get(j->desc, "AIBenchmarkJobStatus"), "CreationTime", created,
                      "AIWorkloadConfigName", json_object_get(j->desc, "AIWorkloadConfigName"));
        if (json_object_get(j->desc, "EndTime"))
            json_object_set(s, "EndTime", json_object_get(j->desc, "EndTime"));
        json_array_append_new(items, s);
    }
    static const char *const keys[] = {"Name", "CreationTime", "Status", NULL};
    cp_list_reply(req, in, items, "AIBenchmarkJobName", "AIBenchmarkJobStatus", "AIBenchmarkJobs",
                  keys);
}

/* ---- dispatch ----------------------------------------------------------------------------- */

void mock_controlplane_handle(mock_server *srv, mock_request *req, const char *op) {
    mock_controlplane *cp = srv->cp;
    json_error_t jerr;
    json_t *in = json_loadb((const char *)req->body, req->body_len, 0, &jerr);
    if (!json_is_object(in)) {
        json_decref(in);
        mock_aws_error(req, MOCK_PROTO_JSON, 400, "SerializationException",
                       "The request body is not a JSON object.", NULL);
        return;
    }
    static const struct {
        const char *name;
        void (*fn)(mock_controlplane *, mock_request *, json_t *);
    } ops[] = {
        {"DescribeEndpoint", op_describe_endpoint},
        {"DescribeEndpointConfig", op_describe_endpoint_config},
        {"DescribeInferenceComponent", op_describe_component},
        {"CreateAIWorkloadConfig", op_create_config},
        {"DescribeAIWorkloadConfig", op_describe_config},
        {"DeleteAIWorkloadConfig", op_delete_config},
        {"ListAIWorkloadConfigs", op_list_configs},
        {"CreateAIBenchmarkJob", op_create_job},
        {"DescribeAIBenchmarkJob", op_describe_job},
        {"StopAIBenchmarkJob", op_stop_job},
        {"DeleteAIBenchmarkJob", op_delete_job},
        {"ListAIBenchmarkJobs", op_list_jobs},
        {"CreateAIRecommendationJob", cp_op_create_rec},
        {"DescribeAIRecommendationJob", cp_op_describe_rec},
        {"StopAIRecommendationJob", cp_op_stop_rec},
        {"DeleteAIRecommendationJob", cp_op_delete_rec},
        {"ListAIRecommendationJobs", cp_op_list_recs},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (!strcmp(ops[i].name, op)) {
            ops[i].fn(cp, req, in);
            json_decref(in);
            return;
        }
    }
    json_decref(in);
    mock_aws_error(req, MOCK_PROTO_JSON, 400, "UnknownOperationException",
                   "smfw-mock does not emulate this SageMaker operation.", NULL);
}

mock_controlplane *mock_controlplane_new(mock_server *srv, char *err, size_t err_size) {
    mock_controlplane *cp = calloc(1, sizeof *cp);
    if (!cp) abort();
    cp->srv = srv;
    cp->started = floor(mock_now_unix());
    snprintf(cp->state_file, sizeof cp->state_file, "%s/controlplane.json", srv->opt.state_dir);
    snprintf(cp->jobs_dir, sizeof cp->jobs_dir, "%s/jobs", srv->opt.state_dir);
    cp->configs = json_array();
    json_t *saved = json_load_file(cp->state_file, 0, NULL);
    if (saved) {
        json_array_extend(cp->configs, json_object_get(saved, "workload_configs"));
        size_t i;
        json_t *d;
        json_array_foreach(json_object_get(saved, "jobs"), i, d) {
            cp_job *j = cp_job_new(cp, json_deep_copy(d));
            if (!job_terminal(j))
                cp_job_set(j, "Failed",
                           "InternalServerError: smfw-mock restarted while the job "
                           "was running.");
        }
        json_array_foreach(json_object_get(saved, "recommendation_jobs"), i, d) {
            cp_rec *r = cp_rec_new(cp, json_deep_copy(d));
            if (!cp_rec_terminal(r)) {
                json_object_set_new(r->desc, "AIRecommendationJobStatus", json_string("Failed"));
                json_object_set_new(r->desc, "FailureReason",
                                    json_string("InternalServerError: smfw-mock restarted while "
                                                "the recommendation job was running."));
                json_object_set_new(r->desc, "EndTime", json_real(mock_now_unix()));
            }
        }
        cp_save(cp);
        json_decref(saved);
    }
    if (pipe2(cp->pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        snprintf(err, err_size, "cannot create the job pipe: %s", strerror(errno));
        json_decref(cp->configs);
        free(cp);
        return NULL;
    }
    cp->pipe_ev = event_new(srv->base, cp->pipe_fds[0], EV_READ | EV_PERSIST, cp_pipe_cb, cp);
    event_add(cp->pipe_ev, NULL);
    return cp;
}

void mock_controlplane_free(mock_controlplane *cp) {
    if (!cp) return;
    mock_controlplane_stop_jobs(cp);
    while (cp->jobs) {
        cp_job *j = cp->jobs;
        cp->jobs = j->next;
        cp_job_free(j);
    }
    while (cp->recs) {
        cp_rec *r = cp->recs;
        cp->recs = r->next;
        cp_rec_free(r);
    }
    event_free(cp->pipe_ev);
    close(cp->pipe_fds[0]);
    close(cp->pipe_fds[1]);
    json_decref(cp->configs);
    free(cp);
}
