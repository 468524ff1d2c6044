/*
 * controlplane_recs.c - AI recommendation jobs: Create / Describe / List /
 * Stop / DeleteAIRecommendationJob, with the model's validation, and the
 * job's state machine on the event loop.
 *
 * A recommendation job benchmarks each instance type it considers (at most 3;
 * ml.g6e.2xlarge when it names none) with a real AI benchmark job of the
 * mock's own (<name>-1, <name>-2, ...: visible in ListAIBenchmarkJobs, on the
 * mock's first endpoint, with the recommendation's workload config, output
 * location and role), one after the other. Each benchmark job runs at its
 * instance type's emulated speed (instance_types.h). When the last one is
 * Completed, the recommendation is Completed with one recommendation per
 * instance type, whose ExpectedPerformance is read from that benchmark job's
 * profile_export_aiperf.json, best first by the first constraint.
 * docs/mock.md ("AI recommendation jobs") records what AWS does not document.
 */
#include "controlplane.h"
#include "instance_types.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REC_DEFAULT_TYPE MOCK_ENDPOINT_INSTANCE_TYPE

static const char *const rec_metrics[] = {"ttft-ms", "throughput", "cost", NULL};

/* ---- state -------------------------------------------------------------------------------- */

int cp_rec_terminal(const cp_rec *r) {
    const char *s = jstr(r->desc, "AIRecommendationJobStatus");
    return !strcmp(s, "Completed") || !strcmp(s, "Failed") || !strcmp(s, "Stopped");
}

static void rec_set(cp_rec *r, const char *status, const char *reason) {
    json_object_set_new(r->desc, "AIRecommendationJobStatus", json_string(status));
    if (reason) json_object_set_new(r->desc, "FailureReason", json_string(reason));
    if (cp_rec_terminal(r)) json_object_set_new(r->desc, "EndTime", json_real(mock_now_unix()));
    cp_save(r->cp);
}

static int rec_stopping(const cp_rec *r) {
    return !strcmp(jstr(r->desc, "AIRecommendationJobStatus"), "Stopping");
}

/* The first constraint's metric (validated at Create). */
static const char *rec_first_metric(const cp_rec *r) {
    json_t *c = json_object_get(json_object_get(r->desc, "PerformanceTarget"), "Constraints");
    const char *m = jstr(json_array_get(c, 0), "Metric");
    return m ? m : "ttft-ms";
}

/* ---- reading a benchmark job's results ---------------------------------------------------- */

typedef struct rec_perf {
    double ttft_p50;   /* time_to_first_token.p50, ms (NAN when absent) */
    double throughput; /* output_token_throughput.avg, tokens/s (NAN when absent) */
    double cost;       /* USD per 1M output tokens at the type's price (NAN without throughput) */
} rec_perf;

static double stat_of(json_t *agg, const char *metric, const char *stat) {
    json_t *v = json_object_get(json_object_get(agg, metric), stat);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Lower is better for every metric once throughput is negated. */
static double perf_key(const rec_perf *p, const char *metric) {
    double v = !strcmp(metric, "throughput") ? -p->throughput
               : !strcmp(metric, "cost")     ? p->cost
                                             : p->ttft_p50;
    return isnan(v) ? INFINITY : v;
}

static int perf_read(const char *path, const mock_instance_type *type, rec_perf *p) {
    json_t *agg = json_load_file(path, 0, NULL);
    if (!json_is_object(agg)) {
        json_decref(agg);
        return -1;
    }
    p->ttft_p50 = stat_of(agg, "time_to_first_token", "p50");
    p->throughput = stat_of(agg, "output_token_throughput", "avg");
    p->cost =
        p->throughput > 0 && type ? type->price_per_hour / (p->throughput * 3600.0) * 1e6 : NAN;
    json_decref(agg);
    return 0;
}

/* The job's profile_export_aiperf.json: the bundle's own, or for a concurrency sweep the level
 * best by `metric` (its path in `used`). Returns 0, or -1 when there is none. */
static int job_perf(mock_controlplane *cp, const char *job, const mock_instance_type *type,
                    const char *metric, rec_perf *best, char *used, size_t used_size) {
    char dir[4400], path[4700];
    snprintf(dir, sizeof dir, "%s/%s/output", cp->jobs_dir, job);
    snprintf(path, sizeof path, "%s/profile_export_aiperf.json", dir);
    if (perf_read(path, type, best) == 0) {
        snprintf(used, used_size, "profile_export_aiperf.json");
        return 0;
    }
    DIR *d = opendir(dir);
    if (!d) return -1;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "concurrency_", 12) != 0) continue;
        rec_perf p;
        snprintf(path, sizeof path, "%s/%s/profile_export_aiperf.json", dir, e->d_name);
        if (perf_read(path, type, &p) != 0) continue;
        if (!found || perf_key(&p, metric) < perf_key(best, metric)) {
            *best = p;
            snprintf(used, used_size, "%s/profile_export_aiperf.json", e->d_name);
        }
        found = 1;
    }
    closedir(d);
    return found ? 0 : -1;
}

/* The shortest text that reads back as the same double (the JSON's number, for a reader). */
static json_t *number_text(double v) {
    char text[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(text, sizeof text, "%.*g", prec, v);
        if (strtod(text, NULL) == v) break;
    }
    return json_string(text);
}

static json_t *perf_entry(const char *metric, const char *stat, double v, const char *unit) {
    return json_pack("{s:s,s:s,s:o,s:s}", "Metric", metric, "Stat", stat, "Value", number_text(v),
                     "Unit", unit);
}

typedef struct rec_item {
    json_t *rec;
    double key;
    size_t index;
} rec_item;

static int item_cmp(const void *a, const void *b) {
    const rec_item *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* All benchmark jobs Completed: the recommendations, best first. */
static void rec_complete(cp_rec *r) {
    mock_controlplane *cp = r->cp;
    const char *metric = rec_first_metric(r);
    const char *framework = jstr(json_object_get(r->desc, "InferenceSpecification"), "Framework");
    const char *model_uri =
        jstr(json_object_get(json_object_get(r->desc, "ModelSource"), "S3"), "S3Uri");
    char image[256];
    snprintf(image, sizeof image, "%s.dkr.ecr.%s.amazonaws.com/smfw-mock-%s:latest",
             cp->srv->opt.account_id, cp->srv->opt.region,
             framework && !strcmp(framework, "VLLM") ? "vllm" : "lmi");
    rec_item items[CP_REC_MAX_TYPES];
    for (size_t i = 0; i < r->type_count; i++) {
        const mock_instance_type *type = mock_instance_type_find(r->types[i]);
        rec_perf p;
        char used[128], reason[512];
        if (job_perf(cp, r->job_names[i], type, metric, &p, used, sizeof used) != 0) {
            for (size_t k = 0; k < i; k++) json_decref(items[k].rec);
            snprintf(reason, sizeof reason,
                     "InternalServerError: AI benchmark job %s (%s) left no "
                     "profile_export_aiperf.json to recommend from.",
                     r->job_names[i], r->types[i]);
            rec_set(r, "Failed", reason);
            return;
        }
        json_t *expected = json_array();
        if (!isnan(p.ttft_p50))
            json_array_append_new(expected, perf_entry("ttft-ms", "p50", p.ttft_p50, "ms"));
        if (!isnan(p.throughput))
            json_array_append_new(expected,
                                  perf_entry("throughput", "avg", p.throughput, "tokens/sec"));
        if (!isnan(p.cost))
            json_array_append_new(expected, perf_entry("cost", "avg", p.cost, "USD/1M tokens"));
        char job_arn[256];
        cp_arn(cp, "ai-benchmark-job", r->job_names[i], job_arn, sizeof job_arn);
        json_t *rec =
            json_pack("{s:s,s:{s:[{s:s,s:i,s:i}]},s:{s:[{s:s,s:s}],s:s,s:s,s:i,s:i},s:o}",
                      "AIBenchmarkJobArn", job_arn, "ModelDetails", "InstanceDetails",
                      "InstanceType", r->types[i], "InstanceCount", 1, "CopyCountPerInstance", 1,
                      "DeploymentConfiguration", "S3", "ChannelName", "model", "Uri", model_uri,
                      "ImageUri", image, "InstanceType", r->types[i], "InstanceCount", 1,
                      "CopyCountPerInstance", 1, "ExpectedPerformance", expected);
        /* for the description, below */
        json_object_set_new(rec, "RecommendationDescription", json_string(used));
        items[i] = (rec_item){rec, perf_key(&p, metric), i};
    }
    qsort(items, r->type_count, sizeof items[0], item_cmp);
    json_t *list = json_array();
    for (size_t i = 0; i < r->type_count; i++) {
        json_t *rec = items[i].rec;
        const char *type = jstr(json_object_get(rec, "DeploymentConfiguration"), "InstanceType");
        char text[768];
        snprintf(text, sizeof text,
                 "%s, 1 instance, 1 copy: rank %zu of %zu by %s, as AI benchmark job %s measured "
                 "it (%s of its output).",
                 type, i + 1, r->type_count, metric, r->job_names[items[i].index],
                 jstr(rec, "RecommendationDescription"));
        json_object_set_new(rec, "RecommendationDescription", json_string(text));
        json_array_append_new(list, rec);
    }
    json_object_set_new(r->desc, "Recommendations", list);
    rec_set(r, "Completed", NULL);
}

/* ---- running ------------------------------------------------------------------------------ */

/* Start the benchmark job of the next instance type. */
static void rec_launch_next(cp_rec *r) {
    mock_controlplane *cp = r->cp;
    const mock_options *opt = &cp->srv->opt;
    size_t i = r->next_type;
    char reason[512];
    if (cp_find_job(cp, r->job_names[i])) {
        snprintf(reason, sizeof reason,
                 "ClientError: AI benchmark job %s already exists; the recommendation job "
                 "cannot create its benchmark job of that name.",
                 r->job_names[i]);
        rec_set(r, "Failed", reason);
        return;
    }
    const char *ident = jstr(r->desc, "AIWorkloadConfigIdentifier");
    json_t *config = cp_find_config(cp, ident);
    if (!config || !opt->endpoint_count) {
        snprintf(reason, sizeof reason, "ClientError: %s",
                 config ? "smfw-mock has no endpoint to benchmark on"
                        : "the AI workload config no longer exists");
        rec_set(r, "Failed", reason);
        return;
    }
    /* The mock's first endpoint (and its first inference component, when it hosts any). */
    const char *endpoint = opt->endpoints[0];
    json_t *ep = json_pack("{s:s}", "Identifier", endpoint);
    for (size_t k = 0; k < opt->component_count; k++) {
        if (!strcmp(opt->component_endpoints[k], endpoint)) {
            json_object_set_new(ep, "InferenceComponents",
                                json_pack("[{s:s}]", "Identifier", opt->components[k]));
            break;
        }
    }
    json_t *target = json_pack("{s:o}", "Endpoint", ep);
    json_t *desc =
        cp_job_desc(cp, r->job_names[i], target, json_object_get(r->desc, "OutputConfig"), ident,
                    config, jstr(r->desc, "RoleArn"), NULL);
    json_decref(target);
    cp_job *j = cp_job_launch(cp, desc);
    j->rec = r;
    snprintf(j->instance_type, sizeof j->instance_type, "%s", r->types[i]);
    r->running = j;
}

static void rec_start_cb(evutil_socket_t fd, short what, void *arg) {
    cp_rec *r = arg;
    (void)fd, (void)what;
    event_free(r->timer);
    r->timer = NULL;
    if (cp_rec_terminal(r)) return;
    if (rec_stopping(r)) {
        rec_set(r, "Stopped", NULL);
        return;
    }
    json_object_set_new(r->desc, "StartTime", json_real(mock_now_unix()));
    rec_launch_next(r);
}

void cp_rec_job_ended(cp_rec *r, cp_job *j) {
    if (r->running == j) r->running = NULL;
    if (cp_rec_terminal(r)) return;
    if (rec_stopping(r)) {
        rec_set(r, "Stopped", NULL);
        return;
    }
    const char *status = jstr(j->desc, "AIBenchmarkJobStatus");
    if (strcmp(status, "Completed") != 0) {
        char reason[1024];
        const char *why = jstr(j->desc, "FailureReason");
        snprintf(reason, sizeof reason, "AI benchmark job %s (%s) ended %s%s%.700s",
                 jstr(j->desc, "AIBenchmarkJobName"), j->instance_type, status, why ? ": " : ".",
                 why ? why : "");
        rec_set(r, "Failed", reason);
        return;
    }
    if (++r->next_type < r->type_count)
        rec_launch_next(r);
    else
        rec_complete(r);
}

/* ---- Create ------------------------------------------------------------------------------- */

/* "[a, b, c]" of a NULL-terminated list, for enum constraints. */
static void enum_text(const char *const *names, size_t n, char *out, size_t size) {
    size_t used = (size_t)snprintf(out, size, "Member must satisfy enum value set: [");
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", names[i]);
    if (used < size) snprintf(out + used, size - used, "]");
}

static int validate_constraints(mock_request *req, json_t *target) {
    if (!json_is_object(target)) {
        cp_invalid(req, "performanceTarget", NULL, "Member must not be null");
        return -1;
    }
    json_t *list = json_object_get(target, "Constraints");
    if (!json_is_array(list)) {
        cp_invalid(req, "performanceTarget.constraints", NULL, "Member must not be null");
        return -1;
    }
    if (json_array_size(list) < 1) {
        cp_invalid(req, "performanceTarget.constraints", NULL,
                   "Member must have length greater than or equal to 1");
        return -1;
    }
    size_t i;
    json_t *c;
    json_array_foreach(list, i, c) {
        const char *m = jstr(c, "Metric");
        int ok = 0;
        for (size_t k = 0; m && rec_metrics[k]; k++) ok |= !strcmp(m, rec_metrics[k]);
        if (!ok) {
            char member[96], constraint[128];
            snprintf(member, sizeof member, "performanceTarget.constraints.%zu.member.metric",
                     i + 1);
            enum_text(rec_metrics, 3, constraint, sizeof constraint);
            cp_invalid(req, member, m, m ? constraint : "Member must not be null");
            return -1;
        }
    }
    return 0;
}

/* The instance types (validated), or the default; their count, or -1 after answering. */
static long read_instance_types(mock_request *req, json_t *spec, char types[][32]) {
    json_t *list = json_object_get(spec, "InstanceTypes");
    if (spec && !json_is_object(spec)) {
        cp_invalid(req, "computeSpec", NULL, "Member must be a structure");
        return -1;
    }
    if (list && !json_is_array(list)) {
        cp_invalid(req, "computeSpec.instanceTypes", NULL, "Member must be a list");
        return -1;
    }
    if (json_array_size(list) > CP_REC_MAX_TYPES) {
        char shown[128] = "[";
        size_t i;
        json_t *t;
        json_array_foreach(list, i, t) {
            size_t used = strlen(shown);
            snprintf(shown + used, sizeof shown - used, "%s%s", i ? ", " : "",
                     json_is_string(t) ? json_string_value(t) : "?");
        }
        size_t used = strlen(shown);
        snprintf(shown + used, sizeof shown - used, "]");
        cp_invalid(req, "computeSpec.instanceTypes", shown,
                   "Member must have length less than or equal to 3");
        return -1;
    }
    json_t *pref = json_object_get(json_object_get(spec, "CapacityReservationConfig"),
                                   "CapacityReservationPreference");
    if (pref && (!json_is_string(pref) ||
                 strcmp(json_string_value(pref), "capacity-reservations-only") != 0)) {
        cp_invalid(req, "computeSpec.capacityReservationConfig.capacityReservationPreference",
                   json_string_value(pref),
                   "Member must satisfy enum value set: [capacity-reservations-only]");
        return -1;
    }
    size_t n = 0, i;
    json_t *t;
    json_array_foreach(list, i, t) {
        const char *name = json_string_value(t);
        if (!mock_instance_type_find(name)) {
            size_t count;
            const mock_instance_type *all = mock_instance_types(&count);
            const char *names[64];
            for (size_t k = 0; k < count && k < 64; k++) names[k] = all[k].name;
            char member[64], constraint[900];
            snprintf(member, sizeof member, "computeSpec.instanceTypes.%zu.member", i + 1);
            enum_text(names, count < 64 ? count : 64, constraint, sizeof constraint);
            cp_invalid(req, member, name, name ? constraint : "Member must not be null");
            return -1;
        }
        for (size_t k = 0; k < n; k++) {
            if (!strcmp(types[k], name)) {
                cp_error(req, "ValidationException",
                         "ComputeSpec.InstanceTypes lists %s more than once.", name);
                return -1;
            }
        }
        snprintf(types[n++], 32, "%s", name);
    }
    if (n == 0) snprintf(types[n++], 32, "%s", REC_DEFAULT_TYPE);
    return (long)n;
}

void cp_op_create_rec(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *name = jstr(in, "AIRecommendationJobName");
    if (!name || !mock_name_valid(name, 63)) {
        cp_invalid(req, "aIRecommendationJobName", name,
                   name ? "Member must satisfy regular expression pattern: "
                          "^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$"
                        : "Member must not be null");
        return;
    }
    json_t *source = json_object_get(in, "ModelSource");
    if (!json_is_object(source)) {
        cp_invalid(req, "modelSource", NULL, "Member must not be null");
        return;
    }
    static const char *const source_members[] = {"S3", NULL};
    const char *bad = cp_unknown_member(source, source_members);
    if (bad || !json_is_object(json_object_get(source, "S3"))) {
        cp_invalid(req, "modelSource", bad,
                   "Member must be a union with exactly one member set: S3");
        return;
    }
    const char *model_uri = jstr(json_object_get(source, "S3"), "S3Uri");
    if (!cp_s3_uri_valid(model_uri)) {
        cp_invalid(
            req, "modelSource.s3.s3Uri", model_uri,
            model_uri ? "Member must satisfy regular expression pattern: (https|s3)://([^/]+)/?(.*)"
                      : "Member must not be null");
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
    const char *group = jstr(output, "ModelPackageGroupIdentifier");
    if (json_object_get(output, "ModelPackageGroupIdentifier") &&
        (!group || !*group || strlen(group) > 256 || !mock_name_valid(ident_name(group), 63))) {
        cp_invalid(req, "outputConfig.modelPackageGroupIdentifier", group,
                   "Member must satisfy regular expression pattern: "
                   "(arn:aws[a-z\\-]*:sagemaker:[a-z0-9\\-]*:[0-9]{12}:[a-z\\-]*/)?"
                   "([a-zA-Z0-9]([a-zA-Z0-9\\-]){0,62})(?<!-)");
        return;
    }
    const char *wl = jstr(in, "AIWorkloadConfigIdentifier");
    if (!wl || !*wl || strlen(wl) > 256) {
        cp_invalid(req, "aIWorkloadConfigIdentifier", wl, "Member must not be null");
        return;
    }
    json_t *target = json_object_get(in, "PerformanceTarget");
    if (validate_constraints(req, target) != 0) return;
    const char *role = jstr(in, "RoleArn");
    if (!cp_role_arn_valid(role)) {
        cp_invalid(req, "roleArn", role,
                   role ? "Member must satisfy regular expression pattern: "
                          "^arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+$"
                        : "Member must not be null");
        return;
    }
    json_t *inference = json_object_get(in, "InferenceSpecification");
    const char *framework = jstr(inference, "Framework");
    if (json_object_get(inference, "Framework") &&
        (!framework || (strcmp(framework, "LMI") && strcmp(framework, "VLLM")))) {
        cp_invalid(req, "inferenceSpecification.framework", framework,
                   "Member must satisfy enum value set: [LMI, VLLM]");
        return;
    }
    json_t *optimize = json_object_get(in, "OptimizeModel");
    if (optimize && !json_is_boolean(optimize)) {
        cp_invalid(req, "optimizeModel", NULL, "Member must be a boolean");
        return;
    }
    char types[CP_REC_MAX_TYPES][32];
    json_t *compute = json_object_get(in, "ComputeSpec");
    long ntypes = read_instance_types(req, compute, types);
    if (ntypes < 0) return;
    json_t *tags = json_object_get(in, "Tags");
    if (!cp_tags_valid(tags)) {
        cp_invalid(req, "tags", NULL, "Tags must be at most 50 {Key (1-128), Value (0-256)}");
        return;
    }
    if (cp_role_refused(cp, req, role)) return;
    if (cp_find_rec(cp, name)) {
        cp_error(req, "ResourceInUse", "AI recommendation job %s already exists.", name);
        return;
    }
    if (!cp_find_config(cp, wl)) {
        cp_error(req, "ResourceNotFound", "AI workload config %s does not exist.", ident_name(wl));
        return;
    }
    if (!cp->srv->opt.endpoint_count) {
        cp_error(req, "ResourceNotFound", "smfw-mock has no endpoint to benchmark on.");
        return;
    }
    /* Its benchmark jobs' names: <name>-<n>, the name cut to leave room for the suffix. */
    char job_names[CP_REC_MAX_TYPES][64];
    for (long i = 0; i < ntypes; i++) {
        snprintf(job_names[i], sizeof job_names[i], "%.61s-%ld", name, i + 1);
        if (cp_find_job(cp, job_names[i])) {
            cp_error(req, "ResourceInUse",
                     "AI benchmark job %s, which this recommendation job would create for %s, "
                     "already exists.",
                     job_names[i], types[i]);
            return;
        }
    }
    char arn[256];
    cp_arn(cp, "ai-recommendation-job", name, arn, sizeof arn);
    json_t *out_result = json_pack("{s:s}", "S3OutputLocation", s3out);
    if (group) json_object_set_new(out_result, "ModelPackageGroupIdentifier", json_string(group));
    json_t *desc = json_pack("{s:s,s:s,s:s,s:O,s:o,s:s,s:O,s:s,s:f}", "AIRecommendationJobName",
                             name, "AIRecommendationJobArn", arn, "AIRecommendationJobStatus",
                             "InProgress", "ModelSource", source, "OutputConfig", out_result,
                             "AIWorkloadConfigIdentifier", wl, "PerformanceTarget", target,
                             "RoleArn", role, "CreationTime", mock_now_unix());
    if (inference) json_object_set(desc, "InferenceSpecification", inference);
    if (optimize) json_object_set(desc, "OptimizeModel", optimize);
    if (compute) json_object_set(desc, "ComputeSpec", compute);
    if (tags) json_object_set(desc, "Tags", tags);
    cp_rec *r = cp_rec_new(cp, desc);
    r->type_count = (size_t)ntypes;
    for (long i = 0; i < ntypes; i++) {
        memcpy(r->types[i], types[i], sizeof r->types[i]);
        memcpy(r->job_names[i], job_names[i], sizeof r->job_names[i]);
    }
    cp_save(cp);
    /* Start on the next loop turn, so the Create answer goes out first. */
    r->timer = event_new(cp->srv->base, -1, 0, rec_start_cb, r);
    struct timeval now = {0, 0};
    event_add(r->timer, &now);
    mock_json_reply(req, CP_JSON, json_pack("{s:s}", "AIRecommendationJobArn", arn));
}

/* ---- Describe, List, Stop, Delete --------------------------------------------------------- */

static cp_rec *rec_from_request(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *name = jstr(in, "AIRecommendationJobName");
    if (!name || !mock_name_valid(name, 63)) {
        cp_invalid(req, "aIRecommendationJobName", name, "Member must not be null");
        return NULL;
    }
    cp_rec *r = cp_find_rec(cp, name);
    if (!r) cp_error(req, "ResourceNotFound", "AI recommendation job %s does not exist.", name);
    return r;
}

void cp_op_describe_rec(mock_controlplane *cp, mock_request *req, json_t *in) {
    cp_rec *r = rec_from_request(cp, req, in);
    if (r) mock_json_reply(req, CP_JSON, json_deep_copy(r->desc));
}

void cp_op_list_recs(mock_controlplane *cp, mock_request *req, json_t *in) {
    const char *contains = jstr(in, "NameContains");
    const char *status = jstr(in, "StatusEquals");
    json_t *items = json_array();
    for (cp_rec *r = cp->recs; r; r = r->next) {
        const char *name = jstr(r->desc, "AIRecommendationJobName");
        double created = json_number_value(json_object_get(r->desc, "CreationTime"));
        if (contains && !strstr(name, contains)) continue;
        if (status && strcmp(status, jstr(r->desc, "AIRecommendationJobStatus")) != 0) continue;
        if (!cp_time_filter_ok(in, created)) continue;
        json_t *s = json_pack(
            "{s:s,s:O,s:O,s:f}", "AIRecommendationJobName", name, "AIRecommendationJobArn",
            json_object_get(r->desc, "AIRecommendationJobArn"), "AIRecommendationJobStatus",
            json_object_get(r->desc, "AIRecommendationJobStatus"), "CreationTime", created);
        if (json_object_get(r->desc, "EndTime"))
            json_object_set(s, "EndTime", json_object_get(r->desc, "EndTime"));
        json_array_append_new(items, s);
    }
    static const char *const keys[] = {"Name", "CreationTime", "Status", NULL};
    cp_list_reply(req, in, items, "AIRecommendationJobName", "AIRecommendationJobStatus",
                  "AIRecommendationJobs", keys);
}

void cp_op_stop_rec(mock_controlplane *cp, mock_request *req, json_t *in) {
    cp_rec *r = rec_from_request(cp, req, in);
    if (!r) return;
    const char *status = jstr(r->desc, "AIRecommendationJobStatus");
    if (strcmp(status, "InProgress") != 0) {
        cp_error(req, "ValidationException",
                 "AI recommendation job %s cannot be stopped because it is %s.",
                 jstr(r->desc, "AIRecommendationJobName"), status);
        return;
    }
    rec_set(r, "Stopping", NULL);
    /* Its running benchmark job stops too; the recommendation is Stopped when that one is. */
    cp_job *j = r->running;
    if (j && !strcmp(jstr(j->desc, "AIBenchmarkJobStatus"), "InProgress")) cp_job_request_stop(j);
    mock_json_reply(req, CP_JSON,
                    json_pack("{s:O}", "AIRecommendationJobArn",
                              json_object_get(r->desc, "AIRecommendationJobArn")));
}

void cp_op_delete_rec(mock_controlplane *cp, mock_request *req, json_t *in) {
    cp_rec *r = rec_from_request(cp, req, in);
    if (!r) return;
    if (!cp_rec_terminal(r)) {
        cp_error(req, "ValidationException",
                 "AI recommendation job %s cannot be deleted because it is %s; stop it first.",
                 jstr(r->desc, "AIRecommendationJobName"),
                 jstr(r->desc, "AIRecommendationJobStatus"));
        return;
    }
    json_t *arn = json_incref(json_object_get(r->desc, "AIRecommendationJobArn"));
    cp_rec **pp = &cp->recs;
    while (*pp != r) pp = &(*pp)->next;
    *pp = r->next;
    for (cp_job *j = cp->jobs; j; j = j->next)
        if (j->rec == r) j->rec = NULL; /* its benchmark jobs stay, as SageMaker's do */
    cp_rec_free(r);
    cp_save(cp);
    mock_json_reply(req, CP_JSON, json_pack("{s:o}", "AIRecommendationJobArn", arn));
}
