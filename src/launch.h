/*
 * launch.h - `smfw launch ENGINE`: one run's N shards as the job engine's own job definition
 * (a Slurm job array, a Kubernetes Indexed Job, an AWS Batch array job). Each shard is the same
 * `smfw run` command line plus its --shard and the run's one --start-at moment.
 */
#ifndef SMFW_LAUNCH_H
#define SMFW_LAUNCH_H

#include <stddef.h>

#include <jansson.h>

typedef struct launch_plan {
    const char *name;            /* job name (DNS-1123 label) */
    unsigned shards;             /* N */
    const char *start_at;        /* RFC 3339 UTC, already resolved from a +delay */
    const char *const *run_args; /* the user's run options, verbatim */
    size_t n_run_args;
    const char *output;             /* each shard's -o (Slurm: OUTPUT/shard-I) */
    const char *program;            /* Slurm: the smfw program on the nodes */
    const char *image;              /* Kubernetes, Batch */
    unsigned cpus;                  /* per shard */
    unsigned memory_mib;            /* per shard */
    const char *namespace_;         /* Kubernetes (NULL: the context's) */
    const char *service_account;    /* Kubernetes: IRSA / Pod Identity */
    const char *api_key_secret;     /* Kubernetes Secret name / Batch secret ARN, or NULL */
    const char *job_queue;          /* Batch */
    const char *job_role_arn;       /* Batch (NULL: none) */
    const char *execution_role_arn; /* Batch, to read secrets (NULL: none) */
} launch_plan;

/** The sbatch script (malloc'd). */
char *launch_slurm_script(const launch_plan *p);

/** The batch/v1 Job manifest. */
json_t *launch_kubernetes_job(const launch_plan *p);

/** {"registerJobDefinition": RegisterJobDefinition request, "submitJob": SubmitJob request}. */
json_t *launch_batch_requests(const launch_plan *p);

/** Submit the Batch requests (launch_batch_requests as JSON text) through the `batch-submit`
 * command a plugin provides, with the AWS, config, plugin-path and -v/-q options among the run
 * options. Returns an exit code. */
int launch_batch_submit(const char *const *run_args, size_t n_run_args, const char *requests);

/** The shard's argv after the program name: run, the run options, --shard SHARD, --start-at,
 * -o OUTPUT (a JSON array of strings). */
json_t *launch_shard_args(const launch_plan *p, const char *shard, const char *output);

#endif
