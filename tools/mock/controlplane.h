/*
 * controlplane.h - the SageMaker control plane's shared state, for its three
 * files (internal): controlplane.c (the API operations), controlplane_store.c
 * (workload configs and jobs, persisted in <state-dir>/controlplane.json) and
 * controlplane_jobs.c (the benchmark-job state machine and its worker threads).
 */
#ifndef SMFW_MOCK_CONTROLPLANE_H
#define SMFW_MOCK_CONTROLPLANE_H

#include "jobs.h"

#include <event2/event.h>
#include <pthread.h>
#include <string.h>

#define CP_JSON "application/x-amz-json-1.1"

typedef struct cp_job cp_job;

struct mock_controlplane {
    mock_server *srv;
    char state_file[4200];
    char jobs_dir[4200];
    json_t *configs; /* array of workload config objects, as Describe returns them */
    cp_job *jobs;
    double started;
    mock_job_runner runner;
    void *runner_user;
    int pipe_fds[2]; /* worker threads report finished jobs through this pipe */
    struct event *pipe_ev;
};

struct cp_job {
    cp_job *next;
    mock_controlplane *cp;
    json_t *desc; /* the DescribeAIBenchmarkJob members */
    struct event *timer;
    volatile sig_atomic_t stop_requested; /* SMFW_CANCEL_ABORT after StopAIBenchmarkJob */
    int finish_pending;                   /* the runner returned; waiting out --job-duration-s */
    int running_thread;
    pthread_t thread;
    mock_job_spec spec;
    mock_job_outcome outcome;
    char endpoint[80], component[80], url[96], work_dir[4300];
    char *workload_spec;
    mock_job_channel channels[16];
    char *channel_names[16], *channel_dirs[16];
    size_t channel_count;
};

/* A string member of a JSON object, or NULL. */
static inline const char *jstr(json_t *o, const char *key) {
    return json_string_value(json_object_get(o, key));
}

/* Name from a name-or-ARN identifier (the part after the last '/'). */
static inline const char *ident_name(const char *ident) {
    const char *slash = strrchr(ident, '/');
    return slash && !strncmp(ident, "arn:", 4) ? slash + 1 : ident;
}

/* ---- store (controlplane_store.c) ---- */

/* Write the configs and jobs to the state file (atomically: a temporary file, renamed). */
void cp_save(mock_controlplane *cp);
/* A job around its Describe members (`desc`, owned), added to cp->jobs. */
cp_job *cp_job_new(mock_controlplane *cp, json_t *desc);
/* Free a job already unlinked from cp->jobs. */
void cp_job_free(cp_job *j);
/* The job of that name, or NULL. */
cp_job *cp_find_job(mock_controlplane *cp, const char *name);
/* The workload config named by a name or ARN (borrowed), or NULL. */
json_t *cp_find_config(mock_controlplane *cp, const char *ident);

/* ---- jobs (controlplane_jobs.c) ---- */

/* Move a job to `status` (with a FailureReason when not NULL) and save. */
void cp_job_set(cp_job *j, const char *status, const char *reason);
/* Completed, Failed or Stopped. */
int job_terminal(const cp_job *j);
/* Event callbacks (arg: the job, or the control plane for the pipe): the end of
   --job-duration-s, a worker thread reporting a finished job, the start of a new job. */
void cp_job_timer_cb(evutil_socket_t fd, short what, void *arg);
void cp_pipe_cb(evutil_socket_t fd, short what, void *arg);
void cp_job_start_cb(evutil_socket_t fd, short what, void *arg);

#endif /* SMFW_MOCK_CONTROLPLANE_H */
