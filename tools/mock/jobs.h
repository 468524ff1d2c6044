/*
 * jobs.h - how a benchmark job runs: the pluggable execution step.
 *
 * The control plane validates the request (controlplane.c), and owns the job
 * state machine and the staging of the dataset from the mock's own S3
 * (controlplane_jobs.c). The
 * actual benchmark is a runner function called on a worker thread, as
 * SageMaker runs AIPerf on managed compute: it benchmarks the mock's own
 * Runtime endpoint (over HTTP, at spec->endpoint_url) and leaves an AIPerf
 * bundle, which the control plane uploads as
 * <S3OutputLocation>/<job-name>/output/output.tar.gz.
 *
 * The runner smfw-mock installs is runner.c (smfw's direct backend through
 * the program-level API, include/smfw/app.h). Without a runner a job moves
 * to Failed with a FailureReason that says so, and never fakes results.
 */
#ifndef SMFW_MOCK_JOBS_H
#define SMFW_MOCK_JOBS_H

#include "mock.h"

#include <signal.h>

typedef struct mock_job_channel {
    const char *name;      /* ChannelName */
    const char *local_dir; /* the channel's objects, downloaded from the mock's S3 */
    size_t files;
} mock_job_channel;

typedef struct mock_job_spec {
    const char *job_name;
    const char *endpoint;            /* SageMaker endpoint name */
    const char *inference_component; /* NULL when the target has none */
    const char *workload_spec;       /* the WorkloadSpec.Inline text (the runner reads JSON) */
    const char *endpoint_url;        /* http://HOST:PORT of this mock */
    const char *region;
    const char *access_key_id;
    const char *secret_access_key;
    const char *work_dir; /* empty folder the runner may use */
    const mock_job_channel *channels;
    size_t channel_count;
    /* The emulated instance type of a recommendation's benchmark job (instance_types.h): every
       request carries it, so the model answers at that type's speed. NULL for other jobs. */
    const char *instance_type;
    /* Becomes SMFW_CANCEL_ABORT on StopAIBenchmarkJob; usable as smfw_run_options.cancel. */
    volatile sig_atomic_t *stop_requested;
} mock_job_spec;

typedef struct mock_job_outcome {
    /* 0 = Completed; otherwise Failed (or Stopped when stop was requested). */
    int failed;
    /* e.g. "AlgorithmError: Benchmark error rate 3.00% (9/300) exceeds maximum 1%" */
    char failure_reason[1024];
    /* Path of the AIPerf bundle (output.tar.gz) to upload; empty when there is none. A failed
       job's bundle (the validity gate) is uploaded too, as SageMaker does. */
    char bundle_path[4096];
} mock_job_outcome;

/* Runs one job to the end on a worker thread; must return (never exit). */
typedef void (*mock_job_runner)(const mock_job_spec *spec, mock_job_outcome *out, void *user);

/* Install the runner (NULL: jobs fail with "no benchmark runner"). */
void mock_controlplane_set_runner(mock_controlplane *cp, mock_job_runner runner, void *user);

/* ---- the built-in runner (runner.c) ---- */

typedef struct mock_runner mock_runner;

/* sharegpt_file: local ShareGPT JSON for jobs asking for public_dataset: sharegpt (NULL: the
   dataset plugin downloads it). verbose: copy the jobs' log lines to stderr. */
mock_runner *mock_runner_new(const char *sharegpt_file, int verbose);
void mock_runner_free(mock_runner *runner);
/* A mock_job_runner; `user` is the mock_runner. Jobs may run at once, one per thread. */
void mock_runner_run(const mock_job_spec *spec, mock_job_outcome *out, void *user);

/* Pack folder `dir` as a gzip'd tar at `tarball`, entries under "output/" (tarball.c).
   Returns 0, or -1 with a sentence in err. */
int mock_bundle_pack(const char *dir, const char *tarball, char *err, size_t err_size);

#endif /* SMFW_MOCK_JOBS_H */
