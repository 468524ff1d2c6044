/*
 * jobs.h - how a benchmark job runs: the pluggable execution step.
 *
 * The control plane (controlplane.c) owns the job state machine, the
 * validation and the staging of the dataset from the mock's own S3. The
 * actual benchmark is a runner function called on a worker thread, as
 * SageMaker runs AIPerf on managed compute: it benchmarks the mock's own
 * Runtime endpoint (over HTTP, at spec->endpoint_url) and leaves an AIPerf
 * bundle, which the control plane uploads as
 * <S3OutputLocation>/<job-name>/output/output.tar.gz.
 *
 * No runner is built in yet (it needs smfw's direct backend); without one a
 * job moves to Failed with a FailureReason that says so, and never fakes
 * results.
 */
#ifndef SMFW_MOCK_JOBS_H
#define SMFW_MOCK_JOBS_H

#include "mock.h"

typedef struct mock_job_channel {
    const char *name;      /* ChannelName */
    const char *local_dir; /* the channel's objects, downloaded from the mock's S3 */
    size_t files;
} mock_job_channel;

typedef struct mock_job_spec {
    const char *job_name;
    const char *endpoint;            /* SageMaker endpoint name */
    const char *inference_component; /* NULL when the target has none */
    const char *workload_spec;       /* the WorkloadSpec.Inline text (YAML or JSON) */
    const char *endpoint_url;        /* http://HOST:PORT of this mock */
    const char *region;
    const char *access_key_id;
    const char *secret_access_key;
    const char *work_dir; /* empty folder the runner may use */
    const mock_job_channel *channels;
    size_t channel_count;
    volatile int *stop_requested; /* becomes 1 on StopAIBenchmarkJob */
} mock_job_spec;

typedef struct mock_job_outcome {
    /* 0 = Completed; otherwise Failed (or Stopped when stop was requested). */
    int failed;
    /* e.g. "AlgorithmError: Benchmark error rate 3.0% (9/300) exceeds maximum 1%" */
    char failure_reason[1024];
    /* Path of the AIPerf bundle (output.tar.gz) to upload when it completed. */
    char bundle_path[4096];
} mock_job_outcome;

/* Runs one job to the end on a worker thread; must return (never exit). */
typedef void (*mock_job_runner)(const mock_job_spec *spec, mock_job_outcome *out, void *user);

/* Install the runner (NULL: jobs fail with "no benchmark runner"). */
void mock_controlplane_set_runner(mock_controlplane *cp, mock_job_runner runner, void *user);

#endif /* SMFW_MOCK_JOBS_H */
