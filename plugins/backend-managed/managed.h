/*
 * managed.h - internals of the managed backend: SageMaker's AI benchmark
 * (AIPerf run by SageMaker on managed compute) driven end to end.
 *
 * One file per concept: workload_spec.c (the WorkloadSpec and its parameter
 * rules), names.c (job and config names), staging.c (the dataset channel),
 * plan.c (request bodies and the dry-run plan), resolve.c (region, account,
 * bucket, role, output location), preflight.c (checks before
 * anything billable), job.c (create, poll, stop/detach), bundle.c (fetch,
 * safe extraction), levels.c (the bundle's runs into the run folder, one
 * folder, report and verdict per concurrency level), managed_backend.c
 * (settings and the backend ops).
 */
#ifndef SMFW_MANAGED_H
#define SMFW_MANAGED_H

#include <jansson.h>

#include <smfw/archive.h>
#include <smfw/aws.h>
#include <smfw/backend.h>

/* ---- workload spec -------------------------------------------------------- */

/**
 * Build the WorkloadSpec {"benchmark":{"type":"aiperf"},"parameters":{...}}
 * from the shared [run] and [dataset] sections and [backend.managed]
 * (tokenizer, workload_param extras, sla). Dataset-specific parameters are
 * added by the staging step. Unknown or mistyped parameters are refused
 * here, before any call. *out is a new reference.
 */
smfw_status managed_spec_build(const smfw_config *cfg, json_t **out, smfw_error *err);

/** Check one parameter name and value against the documented set (type and range). */
smfw_status managed_spec_check_param(const char *name, json_t *value, smfw_error *err);

/** Parse "key=value" (value: JSON number/bool/array, else a string) into the parameters. */
smfw_status managed_spec_apply_extra(json_t *params, const char *item, smfw_error *err);

/* ---- names ---------------------------------------------------------------- */

/**
 * A unique, readable AIEntityName: "<prefix>-<target>-<UTC yyyymmdd-hhmmss>-<4 hex>",
 * the target shortened so the whole fits 63 characters and the pattern
 * [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}. `now` in seconds, `rnd` any number.
 */
void managed_name_make(const char *prefix, const char *target, long long now, unsigned rnd,
                       char *out, size_t size);

/** True when name matches AIEntityName. */
int managed_name_valid(const char *name);

/** A random number for managed_name_make() (urandom, mixed with the pid and the clock). */
unsigned managed_name_random(void);

/* ---- staging -------------------------------------------------------------- */

typedef struct managed_dataset {
    int public_feed;       /**< 1: public_dataset sharegpt, nothing to stage */
    char name[128];        /**< file name in the channel ("curated.jsonl") */
    char sha256[65];       /**< of the JSONL content */
    char local_path[4096]; /**< the JSONL written locally */
    int64_t size;
    size_t count;           /**< prompts */
    char key[1024];         /**< <dataset_prefix>/<sha>/<name> */
    char channel_uri[1200]; /**< s3://bucket/<dataset_prefix>/<sha>/ */
} managed_dataset;

/** Write the prompts as {"text","output_length"} JSONL into dir and fill ds (no upload). */
smfw_status managed_dataset_prepare(const smfw_prompt_set *prompts, const char *dataset_plugin,
                                    const char *dir, managed_dataset *ds, smfw_error *err);

/** Fill key/channel_uri for a bucket and prefix. */
void managed_dataset_locate(managed_dataset *ds, const char *bucket, const char *prefix);

/** Add custom_dataset_type/input_file (or public_dataset) to the spec parameters. */
void managed_dataset_apply(const managed_dataset *ds, json_t *params);

/** Upload unless the object already exists with the same size. *uploaded says which. */
smfw_status managed_dataset_upload(smfw_aws_client *c, const char *bucket,
                                   const managed_dataset *ds, int *uploaded, smfw_error *err);

/* ---- plan ----------------------------------------------------------------- */

typedef struct managed_plan {
    char region[64];
    char account[16];
    char bucket[256];
    int bucket_is_default; /**< generated sagemaker-<region>-<account>: created when missing */
    char role_arn[2048];
    const char *endpoint;
    const char *inference_component;
    char config_name[64];
    char job_name[64];
    char output_uri[1200]; /**< s3://bucket/<output_prefix>/<job>/ */
    json_t *spec;          /**< the WorkloadSpec */
    managed_dataset ds;
    /* what could not be resolved (dry run without credentials) */
    char unresolved[4096]; /**< "what: why" lines */
} managed_plan;

struct managed_preflight_opts;

/**
 * Resolve the plan's region (refused unless offered per `po`, before any AWS call), account,
 * bucket (bucket_cfg, else the default sagemaker-<region>-<account>) and execution role
 * (role_cfg, else detected). A dry run notes what it cannot resolve in plan->unresolved and
 * goes on with placeholders; a real one fails on the first.
 */
smfw_status managed_plan_resolve(smfw_aws_client *c, const char *bucket_cfg, const char *role_cfg,
                                 const struct managed_preflight_opts *po, int dry_run,
                                 managed_plan *plan, smfw_error *err);

/**
 * "COMMAND NAME" plus the --region, --endpoint-url and --profile this configuration used,
 * so that the command finds the job again from another shell ("smfw results --job").
 */
void managed_come_back_command(const smfw_config *cfg, const char *command, const char *name,
                               const char *region, char *out, size_t size);

/** plan->output_uri = s3://<bucket>/<output_prefix>/<name>/ (the prefix may be empty). */
void managed_plan_output_uri(managed_plan *plan, const char *output_prefix, const char *name);

/** CreateAIWorkloadConfig request body (new reference). */
json_t *managed_plan_workload_request(const managed_plan *p);
/** CreateAIBenchmarkJob request body (new reference). */
json_t *managed_plan_job_request(const managed_plan *p);
/** Print a request body as the plan shows it (indented two, four spaces in). */
void managed_plan_print_json(FILE *out, json_t *v);
/** Print the dry-run plan: resolved values, the spec and the exact request bodies. */
void managed_plan_print(const managed_plan *p, FILE *out);

/* ---- preflight ------------------------------------------------------------ */

typedef struct managed_preflight_opts {
    const char *const *regions; /**< where the benchmark capability is offered */
    size_t n_regions;
} managed_preflight_opts;

/** Every check before anything billable; each failure is one sentence. Warnings are logged. */
smfw_status managed_preflight(smfw_aws_client *c, const managed_plan *p,
                              const managed_preflight_opts *o, smfw_error *err);

/**
 * The checks that need no endpoint (also `smfw recommend`'s): the execution role exists and
 * trusts SageMaker, the bucket exists (the default one is created when missing).
 */
smfw_status managed_preflight_storage(smfw_aws_client *c, const managed_plan *p, smfw_error *err);

/**
 * Does this trust policy (JSON text, URL-encoded or not) let
 * sagemaker.amazonaws.com call sts:AssumeRole? 1 yes, 0 no, -1 unreadable.
 */
int managed_trust_allows_sagemaker(const char *policy);

/** Is the region in the list (exact match)? */
int managed_region_offered(const char *region, const char *const *regions, size_t n);

/* ---- job ------------------------------------------------------------------ */

typedef enum managed_wait_end {
    MANAGED_WAIT_TERMINAL = 0, /**< Completed, Failed or Stopped */
    MANAGED_WAIT_DETACHED,     /**< user detached (job keeps running) */
    MANAGED_WAIT_STOPPED,      /**< user or timeout stopped it */
    MANAGED_WAIT_TIMEOUT
} managed_wait_end;

typedef struct managed_wait_opts {
    double poll_interval_s;
    double timeout_s;         /**< 0 = none */
    const char *on_interrupt; /**< ask, stop, detach */
} managed_wait_opts;

/** Create the workload config and the job. */
smfw_status managed_job_launch(smfw_aws_client *c, const managed_plan *p, smfw_error *err);

/** Poll until terminal (or detach/stop). *describe receives the last DescribeAIBenchmarkJob. */
smfw_status managed_job_wait(smfw_aws_client *c, const char *job, smfw_run_context *run,
                             const managed_wait_opts *o, managed_wait_end *end, json_t **describe,
                             smfw_error *err);

/** DescribeAIBenchmarkJob (new reference in *out). */
smfw_status managed_job_describe(smfw_aws_client *c, const char *job, json_t **out,
                                 smfw_error *err);

/** One awsJson SageMaker call with a JSON body; *out may be NULL. */
smfw_status managed_sagemaker_call(smfw_aws_client *c, const char *op, json_t *body, json_t **out,
                                   smfw_error *err);

/* ---- bundle --------------------------------------------------------------- */

/**
 * Find output.tar.gz under s3://bucket/prefix (preferring the key that names
 * the job), download it into dir/output.tar.gz and extract it safely into
 * dir/bundle. SMFW_ERR_NOT_FOUND when there is none.
 */
smfw_status managed_bundle_fetch(smfw_aws_client *c, const char *output_uri, const char *job,
                                 const char *dir, char *bundle_dir, size_t size, smfw_error *err);

/**
 * The best output.tar.gz under s3://bucket/prefix into key ("" when none): the
 * one naming the job (when job is non-empty), among equals the newest. count:
 * how many there are; named: whether the pick names the job.
 */
smfw_status managed_bundle_pick(smfw_aws_client *c, const char *bucket, const char *prefix,
                                const char *job, char *key, size_t ksize, int *count, int *named,
                                smfw_error *err);

/** Download s3://bucket/key into dir/output.tar.gz and extract it into dir/bundle. */
smfw_status managed_bundle_download(smfw_aws_client *c, const char *bucket, const char *key,
                                    const char *dir, char *bundle_dir, size_t size,
                                    smfw_error *err);

/* ---- fetch ---------------------------------------------------------------- */

/** The backend's fetch slot (smfw/backend.h): --job, --s3 or the newest job. */
smfw_status managed_fetch(const smfw_fetch_request *req, char **local, char *run_name,
                          size_t run_name_size, smfw_error *err);

/* ---- levels --------------------------------------------------------------- */

/** Who ran what: stamped on every run loaded from the job's bundle. */
typedef struct managed_identity {
    const char *job;
    const char *endpoint;
    const char *inference_component; /**< may be NULL */
    const char *region;
    double max_error_rate; /**< run.max_error_rate */
} managed_identity;

/** Set backend, target line, job, endpoint, component, region, gate (and concurrency when > 0). */
void managed_identity_apply(const managed_identity *id, int64_t concurrency, smfw_results *r);

/**
 * Load one run of the bundle into results, stamp the identity, apply the
 * validity gate (failure_reason.txt, or an error rate above the gate), and
 * link its records (and failure_reason.txt) into out_dir (may be NULL).
 */
smfw_status managed_run_load(const char *run_dir, const char *out_dir, const managed_identity *id,
                             int64_t concurrency, smfw_results *results, smfw_error *err);

typedef struct managed_levels_outcome {
    size_t levels;           /**< loaded */
    size_t tripped;          /**< of them, over the validity gate */
    int64_t sla_concurrency; /**< highest level meeting the SLA, -1 none (or no SLA) */
    int64_t first_start_ns, last_end_ns;
} managed_levels_outcome;

/**
 * A concurrency-list bundle: for each level, out_dir/concurrency_<N>/ with
 * its records, the level added to `set` (the core writes the configured
 * reporters' files there), a headline block on stdout (unless quiet) and its
 * validity verdict; with SLOs the highest level meeting them. Returns the
 * first level that could not be loaded.
 */
smfw_status managed_levels_report(const smfw_bundle_run *runs, size_t n, const smfw_config *cfg,
                                  smfw_run_set *set, const char *out_dir,
                                  const managed_identity *id, int quiet,
                                  managed_levels_outcome *outcome, smfw_error *err);

#endif /* SMFW_MANAGED_H */
