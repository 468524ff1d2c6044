/*
 * job.c - the benchmark job's life: CreateAIWorkloadConfig and
 * CreateAIBenchmarkJob, then DescribeAIBenchmarkJob every poll interval
 * with progress until a terminal state; Ctrl-C asks whether to stop the job
 * (StopAIBenchmarkJob) or detach, and a timeout stops it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <smfw/clock.h>
#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "managed.h"

smfw_status managed_sagemaker_call(smfw_aws_client *c, const char *op, json_t *body, json_t **out,
                                   smfw_error *err) {
    if (out) *out = NULL;
    if (!body) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory"); /* json_pack failed */
    return smfw_aws_json_call_tree(c, &smfw_aws_sagemaker, op, body, out, err);
}

smfw_status managed_job_describe(smfw_aws_client *c, const char *job, json_t **out,
                                 smfw_error *err) {
    json_t *req = json_pack("{s:s}", "AIBenchmarkJobName", job);
    smfw_status st = managed_sagemaker_call(c, "DescribeAIBenchmarkJob", req, out, err);
    json_decref(req);
    return st;
}

smfw_status managed_job_launch(smfw_aws_client *c, const managed_plan *p, smfw_error *err) {
    json_t *w = managed_plan_workload_request(p);
    smfw_status st = managed_sagemaker_call(c, "CreateAIWorkloadConfig", w, NULL, err);
    json_decref(w);
    if (st != SMFW_OK) return smfw_error_prefix(err, "CreateAIWorkloadConfig %s", p->config_name);
    SMFW_LOG_INFO("managed", "created workload config %s", p->config_name);
    json_t *j = managed_plan_job_request(p);
    st = managed_sagemaker_call(c, "CreateAIBenchmarkJob", j, NULL, err);
    json_decref(j);
    if (st != SMFW_OK) return smfw_error_prefix(err, "CreateAIBenchmarkJob %s", p->job_name);
    SMFW_LOG_INFO("managed", "launched benchmark job %s (output %s)", p->job_name, p->output_uri);
    return SMFW_OK;
}

static int is_terminal(const char *s) {
    return s &&
           (strcmp(s, "Completed") == 0 || strcmp(s, "Failed") == 0 || strcmp(s, "Stopped") == 0);
}

/*
 * What Ctrl-C does to a running job: 1 = stop it, 0 = detach (it keeps
 * running and its results can be fetched later). --on-interrupt answers in
 * advance; "ask" asks on a terminal and detaches when stdin or stderr is not
 * one (a script, CI): stopping throws the job's work away, detaching loses
 * nothing.
 */
static int interrupt_stops(const char *job, const char *mode) {
    if (mode && strcmp(mode, "stop") == 0) {
        SMFW_LOG_WARN("managed", "interrupted: stopping benchmark job %s (--on-interrupt stop)",
                      job);
        return 1;
    }
    if (mode && strcmp(mode, "detach") == 0) {
        SMFW_LOG_WARN("managed",
                      "interrupted: detaching from benchmark job %s, which keeps running "
                      "(--on-interrupt detach)",
                      job);
        return 0;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO)) {
        SMFW_LOG_WARN("managed",
                      "interrupted: not on a terminal, so not asking: detaching from benchmark "
                      "job %s, which keeps running (--on-interrupt stop stops it instead)",
                      job);
        return 0;
    }
    fprintf(stderr,
            "\nInterrupted. Stop benchmark job %s (s), or detach and leave it running "
            "(d)? [d] ",
            job);
    fflush(stderr);
    char line[32];
    if (!fgets(line, sizeof line, stdin)) return 0;
    return line[0] == 's' || line[0] == 'S';
}

static smfw_status stop_job(smfw_aws_client *c, const char *job, smfw_error *err) {
    json_t *req = json_pack("{s:s}", "AIBenchmarkJobName", job);
    smfw_status st = managed_sagemaker_call(c, "StopAIBenchmarkJob", req, NULL, err);
    json_decref(req);
    if (st == SMFW_OK) SMFW_LOG_WARN("managed", "stopping benchmark job %s", job);
    return st;
}

smfw_status managed_job_wait(smfw_aws_client *c, const char *job, smfw_run_context *run,
                             const managed_wait_opts *o, managed_wait_end *end, json_t **describe,
                             smfw_error *err) {
    *describe = NULL;
    *end = MANAGED_WAIT_TERMINAL;
    int64_t t0 = smfw_now_mono_ns();
    double interval = o->poll_interval_s > 0 ? o->poll_interval_s : 30;
    int stopping = 0;
    for (;;) {
        json_t *d = NULL;
        smfw_status st = managed_job_describe(c, job, &d, err);
        if (st != SMFW_OK) return st;
        json_decref(*describe);
        *describe = d;
        const char *status = json_string_value(json_object_get(d, "AIBenchmarkJobStatus"));
        double elapsed = (double)(smfw_now_mono_ns() - t0) / 1e9;
        if (run->progress) {
            char line[256];
            char shown[128];
            snprintf(line, sizeof line, "job %s: %s, %.0f s", job,
                     status ? smfw_term_escape(status, shown, sizeof shown) : "?", elapsed);
            smfw_progress pr;
            memset(&pr, 0, sizeof pr);
            pr.size = sizeof pr;
            pr.phase = "polling";
            pr.total = -1;
            pr.elapsed_s = elapsed;
            pr.total_s = o->timeout_s;
            pr.ttft_p50_ms = -1;
            pr.status_line = line;
            run->progress(run->progress_user, &pr);
        } else if (!run->quiet)
            SMFW_LOG_INFO("managed", "job %s: %s (%.0f s)", job, status ? status : "?", elapsed);
        if (is_terminal(status)) {
            if (stopping && *end != MANAGED_WAIT_TIMEOUT) *end = MANAGED_WAIT_STOPPED;
            return SMFW_OK;
        }
        if (!stopping && o->timeout_s > 0 && elapsed >= o->timeout_s) {
            SMFW_LOG_WARN("managed", "timeout of %.0f s reached", o->timeout_s);
            st = stop_job(c, job, err);
            if (st != SMFW_OK) return st;
            stopping = 1;
            *end = MANAGED_WAIT_TIMEOUT;
        }
        /* Sleep in small steps so Ctrl-C is seen at once. */
        int64_t wake = smfw_now_mono_ns() + (int64_t)(interval * 1e9);
        while (smfw_now_mono_ns() < wake) {
            if (run->cancel && *run->cancel != SMFW_CANCEL_NONE && stopping) {
                /* Again while the job stops: do not wait for it. */
                *run->cancel = SMFW_CANCEL_NONE;
                SMFW_LOG_WARN("managed",
                              "interrupted again: not waiting for benchmark job %s to stop", job);
                return SMFW_OK; /* *end says stopped (or timeout), *describe "Stopping" */
            }
            if (run->cancel && *run->cancel != SMFW_CANCEL_NONE) {
                *run->cancel = SMFW_CANCEL_NONE;
                if (interrupt_stops(job, o->on_interrupt)) {
                    st = stop_job(c, job, err);
                    if (st != SMFW_OK) return st;
                    stopping = 1;
                    *end = MANAGED_WAIT_STOPPED;
                    break;
                }
                *end = MANAGED_WAIT_DETACHED;
                return SMFW_OK;
            }
            struct timespec ts = {0, 50 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
}
