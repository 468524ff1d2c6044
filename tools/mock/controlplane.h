/*
 * controlplane.h - the SageMaker control plane's shared state, for its four
 * files (internal): controlplane.c (the API operations), controlplane_store.c
 * (workload configs, jobs and recommendation jobs, persisted in
 * <state-dir>/controlplane.json), controlplane_jobs.c (the benchmark-job state
 * machine and its worker threads) and controlplane_recs.c (the AI
 * recommendation jobs, which run benchmark jobs of their own).
 */
#ifndef SMFW_MOCK_CONTROLPLANE_H
#define SMFW_MOCK_CONTROLPLANE_H

#include "jobs.h"

#include <event2/event.h>
#include <pthread.h>
#include <string.h>

#define CP_JSON "application/x-amz-json-1.1"

typedef struct cp_job cp_job;
typedef struct cp_rec cp_rec;

/* A recommendation job considers at most this many instance types (the model's max). */
#define CP_REC_MAX_TYPES 3

struct mock_controlplane {
    mock_server *srv;
    char state_file[4200];
    char jobs_dir[4200];
    json_t *configs; /* array of workload config objects, as Describe returns them */
    cp_job *jobs;
    cp_rec *recs; /* AI recommendation jobs */
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
    cp_rec *rec;            /* the recommendation job that made this job, or NULL */
    char instance_type[32]; /* its emulated instance type ("" for other jobs) */
};

struct cp_rec {
    cp_rec *next;
    mock_controlplane *cp;
    json_t *desc; /* the DescribeAIRecommendationJob members */
    struct event *timer;
    size_t type_count, next_type; /* instance types, and the next one to benchmark */
    char types[CP_REC_MAX_TYPES][32];
    char job_names[CP_REC_MAX_TYPES][64]; /* the benchmark job of each type */
    cp_job *running;                      /* the benchmark job running now, or NULL */
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

/* ---- helpers shared by the operations (controlplane.c) ---- */

/* An error answer (awsJson 1.1) with a printf message. */
void cp_error(mock_request *req, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Coral-style ValidationException for one failed member constraint (value NULL: null). */
void cp_invalid(mock_request *req, const char *member, const char *value, const char *constraint);
/* arn:aws:sagemaker:REGION:ACCOUNT:KIND/NAME */
void cp_arn(const mock_controlplane *cp, const char *kind, const char *name, char *out,
            size_t size);
int cp_s3_uri_valid(const char *s);
int cp_role_arn_valid(const char *s);
int cp_tags_valid(json_t *tags);
/* The first member of `o` not in `allowed` (NULL-terminated), or NULL. */
const char *cp_unknown_member(json_t *o, const char *const *allowed);
/* After answering ValidationException when a role defined with --role does not trust
   sagemaker.amazonaws.com: 1; else 0. */
int cp_role_refused(mock_controlplane *cp, mock_request *req, const char *role);
/* CreationTimeAfter / CreationTimeBefore of a List request. */
int cp_time_filter_ok(json_t *in, double created);
/* A List answer from `items` (consumed): MaxResults, NextToken, SortBy (one of sort_keys:
   Name by name_key, CreationTime, Status by status_key), SortOrder (default Descending). */
void cp_list_reply(mock_request *req, json_t *in, json_t *items, const char *name_key,
                   const char *status_key, const char *list_key, const char *const *sort_keys);
/* The Describe members of a new benchmark job (its List-only AIWorkloadConfigName too). */
json_t *cp_job_desc(mock_controlplane *cp, const char *name, json_t *target, json_t *output,
                    const char *config_ident, json_t *config, const char *role, json_t *tags);
/* Add a job around `desc`, save, and start it on the next loop turn. */
cp_job *cp_job_launch(mock_controlplane *cp, json_t *desc);

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
/* A recommendation job around its Describe members (`desc`, owned), added to cp->recs. */
cp_rec *cp_rec_new(mock_controlplane *cp, json_t *desc);
/* Free a recommendation job already unlinked from cp->recs. */
void cp_rec_free(cp_rec *r);
/* The recommendation job of that name, or NULL. */
cp_rec *cp_find_rec(mock_controlplane *cp, const char *name);

/* ---- jobs (controlplane_jobs.c) ---- */

/* Move a job to `status` (with a FailureReason when not NULL) and save. */
void cp_job_set(cp_job *j, const char *status, const char *reason);
/* Completed, Failed or Stopped. */
int job_terminal(const cp_job *j);
/* StopAIBenchmarkJob's effect on an InProgress job: Stopping, then Stopped. */
void cp_job_request_stop(cp_job *j);
/* Event callbacks (arg: the job, or the control plane for the pipe): the end of
   --job-duration-s, a worker thread reporting a finished job, the start of a new job. */
void cp_job_timer_cb(evutil_socket_t fd, short what, void *arg);
void cp_pipe_cb(evutil_socket_t fd, short what, void *arg);
void cp_job_start_cb(evutil_socket_t fd, short what, void *arg);

/* ---- recommendation jobs (controlplane_recs.c) ---- */

void cp_op_create_rec(mock_controlplane *cp, mock_request *req, json_t *in);
void cp_op_describe_rec(mock_controlplane *cp, mock_request *req, json_t *in);
void cp_op_list_recs(mock_controlplane *cp, mock_request *req, json_t *in);
void cp_op_stop_rec(mock_controlplane *cp, mock_request *req, json_t *in);
void cp_op_delete_rec(mock_controlplane *cp, mock_request *req, json_t *in);
/* Completed, Failed or Stopped. */
int cp_rec_terminal(const cp_rec *r);
/* A benchmark job a recommendation made reached Completed, Failed or Stopped. */
void cp_rec_job_ended(cp_rec *r, cp_job *j);

#endif /* SMFW_MOCK_CONTROLPLANE_H */
