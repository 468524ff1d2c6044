/*
 * controlplane_jobs.c - the benchmark-job state machine (InProgress ->
 * Completed | Failed, Stopping -> Stopped): staging the input channels from
 * the mock's S3, the runner on a worker thread, the upload of its bundle.
 */
#include "controlplane.h"

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

/* ---- job state machine -------------------------------------------------------------------- */

void cp_job_set(cp_job *j, const char *status, const char *reason) {
    json_object_set_new(j->desc, "AIBenchmarkJobStatus", json_string(status));
    if (reason) json_object_set_new(j->desc, "FailureReason", json_string(reason));
    int ended =
        !strcmp(status, "Completed") || !strcmp(status, "Failed") || !strcmp(status, "Stopped");
    if (ended) json_object_set_new(j->desc, "EndTime", json_real(mock_now_unix()));
    cp_save(j->cp);
    if (ended && j->rec) cp_rec_job_ended(j->rec, j);
}

int job_terminal(const cp_job *j) {
    const char *s = jstr(j->desc, "AIBenchmarkJobStatus");
    return !strcmp(s, "Completed") || !strcmp(s, "Failed") || !strcmp(s, "Stopped");
}

void cp_job_request_stop(cp_job *j) {
    mock_controlplane *cp = j->cp;
    j->stop_requested = SMFW_CANCEL_ABORT;
    cp_job_set(j, "Stopping", NULL);
    if (!j->running_thread) {
        /* Without a worker to wind down, the job stops on the next loop turn. */
        if (!j->timer) j->timer = event_new(cp->srv->base, -1, 0, cp_job_timer_cb, j);
        event_del(j->timer);
        event_assign(j->timer, cp->srv->base, -1, 0, cp_job_timer_cb, j);
        struct timeval tv = {0, 200000};
        event_add(j->timer, &tv);
    }
}

/* Where the bundle goes: <S3OutputLocation>/<job-name>/output/output.tar.gz. */
static int output_location(cp_job *j, char *bucket, size_t bsize, char *key, size_t ksize) {
    const char *loc = jstr(json_object_get(j->desc, "OutputConfig"), "S3OutputLocation");
    if (!loc || strncmp(loc, "s3://", 5) != 0) return -1;
    const char *b = loc + 5, *slash = strchr(b, '/');
    size_t blen = slash ? (size_t)(slash - b) : strlen(b);
    snprintf(bucket, bsize, "%.*s", (int)blen, b);
    const char *prefix = slash ? slash + 1 : "";
    size_t plen = strlen(prefix);
    snprintf(key, ksize, "%s%s%s/output/output.tar.gz", prefix,
             plen && prefix[plen - 1] != '/' ? "/" : "", jstr(j->desc, "AIBenchmarkJobName"));
    return 0;
}

/* Upload the runner's bundle (a failed job's too: its failure_reason.txt is the evidence). */
static int cp_job_upload(cp_job *j) {
    if (!j->outcome.bundle_path[0]) return 0;
    FILE *f = fopen(j->outcome.bundle_path, "rb");
    if (!f) return -1;
    uint8_t *data = NULL;
    size_t len = 0, cap = 0, n;
    uint8_t chunk[65536];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n > cap) {
            cap = cap ? cap * 2 : sizeof chunk;
            while (cap < len + n) cap *= 2;
            uint8_t *p = realloc(data, cap);
            if (!p) abort();
            data = p;
        }
        memcpy(data + len, chunk, n);
        len += n;
    }
    int bad = ferror(f);
    fclose(f);
    char bucket[256], key[2048];
    int rc = bad || output_location(j, bucket, sizeof bucket, key, sizeof key) != 0 ||
                     mock_s3_put(j->cp->srv->s3, bucket, key, data, len, "application/x-tar") != 0
                 ? -1
                 : 0;
    free(data);
    return rc;
}

static void cp_job_finish(cp_job *j) {
    j->running_thread = 0;
    /* --job-duration-s: a job stays InProgress at least that long, so pollers see it. */
    double started = json_number_value(json_object_get(j->desc, "StartTime"));
    double left = started + j->cp->srv->opt.job_duration_s - mock_now_unix();
    if (left > 0.001 && !j->stop_requested) {
        j->finish_pending = 1;
        if (!j->timer) j->timer = event_new(j->cp->srv->base, -1, 0, cp_job_timer_cb, j);
        struct timeval tv = {(time_t)left, (suseconds_t)((left - floor(left)) * 1e6)};
        event_add(j->timer, &tv);
        return;
    }
    j->finish_pending = 0;
    int upload_failed = cp_job_upload(j) != 0;
    if (j->stop_requested) {
        cp_job_set(j, "Stopped", NULL);
    } else if (upload_failed) {
        cp_job_set(j, "Failed",
                   "InternalServerError: the benchmark finished but its output could not be "
                   "uploaded to the S3 output location.");
    } else if (j->outcome.failed) {
        cp_job_set(j, "Failed",
                   j->outcome.failure_reason[0] ? j->outcome.failure_reason
                                                : "InternalServerError: the benchmark failed");
    } else if (!j->outcome.bundle_path[0]) {
        cp_job_set(j, "Failed", "InternalServerError: the benchmark left no output");
    } else {
        cp_job_set(j, "Completed", NULL);
    }
}

static void *cp_job_thread(void *arg) {
    cp_job *j = arg;
    j->cp->runner(&j->spec, &j->outcome, j->cp->runner_user);
    ssize_t w;
    do w = write(j->cp->pipe_fds[1], &j, sizeof j);
    while (w < 0 && errno == EINTR);
    return NULL;
}

void cp_pipe_cb(evutil_socket_t fd, short what, void *arg) {
    (void)what, (void)arg;
    cp_job *j;
    while (read(fd, &j, sizeof j) == (ssize_t)sizeof j) {
        pthread_join(j->thread, NULL);
        cp_job_finish(j);
    }
}

/* Download one channel's objects into the job's work folder. Returns files, or -1. */
static long stage_channel(cp_job *j, const char *channel, const char *uri, char *reason,
                          size_t reason_size) {
    mock_s3 *s3 = j->cp->srv->s3;
    if (strncmp(uri, "s3://", 5) != 0) {
        snprintf(reason, reason_size, "ClientError: channel %s: only s3:// URIs can be staged",
                 channel);
        return -1;
    }
    const char *b = uri + 5, *slash = strchr(b, '/');
    char bucket[256];
    snprintf(bucket, sizeof bucket, "%.*s", (int)(slash ? (size_t)(slash - b) : strlen(b)), b);
    const char *prefix = slash ? slash + 1 : "";
    char **keys = NULL;
    size_t n = mock_s3_list(s3, bucket, prefix, &keys);
    char dir[4400];
    snprintf(dir, sizeof dir, "%s/input/%s", j->work_dir, channel);
    mock_mkdirs(dir);
    long staged = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t *data = NULL;
        size_t len = 0;
        const char *rel = keys[i] + strlen(prefix);
        if (*rel && rel[strlen(rel) - 1] != '/' &&
            mock_s3_get(s3, bucket, keys[i], &data, &len) == 0) {
            char path[4700], flat[512];
            snprintf(flat, sizeof flat, "%s", rel);
            for (char *p = flat; *p; p++)
                if (*p == '/') *p = '_';
            snprintf(path, sizeof path, "%s/%s", dir, flat);
            FILE *f = fopen(path, "wb");
            if (f) {
                if (len) fwrite(data, 1, len, f);
                fclose(f);
                staged++;
            }
        }
        free(data);
        free(keys[i]);
    }
    free(keys);
    if (staged == 0) {
        snprintf(reason, reason_size, "ClientError: no objects found under %s (channel %s)", uri,
                 channel);
        return -1;
    }
    return staged;
}

void cp_job_timer_cb(evutil_socket_t fd, short what, void *arg) {
    cp_job *j = arg;
    (void)fd, (void)what;
    if (job_terminal(j)) return;
    if (j->finish_pending) {
        cp_job_finish(j);
        return;
    }
    if (j->stop_requested) {
        cp_job_set(j, "Stopped", NULL);
        return;
    }
    /* Runner-less verdict after --job-duration-s: fail, honestly. */
    cp_job_set(j, "Failed",
               "ClientError: smfw-mock has no benchmark runner: executing a job needs smfw's "
               "direct backend, which this build of the mock does not include. The workload "
               "spec and the dataset were validated and staged.");
}

static void cp_job_start(cp_job *j) {
    mock_controlplane *cp = j->cp;
    char reason[1024];
    json_object_set_new(j->desc, "StartTime", json_real(mock_now_unix()));
    json_t *config = cp_find_config(cp, jstr(j->desc, "AIWorkloadConfigIdentifier"));
    json_t *target = json_object_get(json_object_get(j->desc, "BenchmarkTarget"), "Endpoint");
    snprintf(j->endpoint, sizeof j->endpoint, "%s", ident_name(jstr(target, "Identifier")));
    json_t *ics = json_object_get(target, "InferenceComponents");
    if (json_array_size(ics))
        snprintf(j->component, sizeof j->component, "%s",
                 ident_name(jstr(json_array_get(ics, 0), "Identifier")));
    j->workload_spec = strdup(
        jstr(json_object_get(json_object_get(config, "AIWorkloadConfigs"), "WorkloadSpec"),
             "Inline")
            ? jstr(json_object_get(json_object_get(config, "AIWorkloadConfigs"), "WorkloadSpec"),
                   "Inline")
            : "");
    snprintf(j->work_dir, sizeof j->work_dir, "%s/%s", cp->jobs_dir,
             jstr(j->desc, "AIBenchmarkJobName"));
    mock_mkdirs(j->work_dir);
    /* Stage the dataset channels from the mock's own S3, as SageMaker copies them in. */
    json_t *channels = json_object_get(json_object_get(config, "DatasetConfig"), "InputDataConfig");
    size_t i;
    json_t *ch;
    json_array_foreach(channels, i, ch) {
        if (j->channel_count == 16) break;
        const char *name = jstr(ch, "ChannelName");
        const char *uri =
            jstr(json_object_get(json_object_get(ch, "DataSource"), "S3DataSource"), "S3Uri");
        long files = stage_channel(j, name, uri, reason, sizeof reason);
        if (files < 0) {
            cp_job_set(j, "Failed", reason);
            return;
        }
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/input/%s", j->work_dir, name);
        j->channel_names[j->channel_count] = strdup(name);
        j->channel_dirs[j->channel_count] = strdup(dir);
        j->channels[j->channel_count].name = j->channel_names[j->channel_count];
        j->channels[j->channel_count].local_dir = j->channel_dirs[j->channel_count];
        j->channels[j->channel_count].files = (size_t)files;
        j->channel_count++;
    }
    cp_save(cp);
    if (!cp->runner) {
        j->timer = event_new(cp->srv->base, -1, 0, cp_job_timer_cb, j);
        double d = cp->srv->opt.job_duration_s;
        struct timeval tv = {(time_t)d, (suseconds_t)((d - floor(d)) * 1e6)};
        event_add(j->timer, &tv);
        return;
    }
    snprintf(j->url, sizeof j->url, "http://%s:%d", cp->srv->opt.host,
             mock_http_server_port(cp->srv->http));
    j->spec = (mock_job_spec){
        .job_name = jstr(j->desc, "AIBenchmarkJobName"),
        .endpoint = j->endpoint,
        .inference_component = j->component[0] ? j->component : NULL,
        .workload_spec = j->workload_spec,
        .endpoint_url = j->url,
        .region = cp->srv->opt.region,
        .access_key_id = cp->srv->opt.access_key_id,
        .secret_access_key = cp->srv->opt.secret_access_key,
        .work_dir = j->work_dir,
        .channels = j->channels,
        .channel_count = j->channel_count,
        .instance_type = j->instance_type[0] ? j->instance_type : NULL,
        .stop_requested = &j->stop_requested,
    };
    if (pthread_create(&j->thread, NULL, cp_job_thread, j) != 0) {
        cp_job_set(j, "Failed", "InternalServerError: cannot start the benchmark worker");
        return;
    }
    j->running_thread = 1;
}

void cp_job_start_cb(evutil_socket_t fd, short what, void *arg) {
    cp_job *j = arg;
    (void)fd, (void)what;
    event_free(j->timer);
    j->timer = NULL;
    if (!job_terminal(j)) cp_job_start(j);
}

void mock_controlplane_set_runner(mock_controlplane *cp, mock_job_runner runner, void *user) {
    cp->runner = runner;
    cp->runner_user = user;
}

void mock_controlplane_stop_jobs(mock_controlplane *cp) {
    if (!cp) return;
    for (cp_job *j = cp->jobs; j; j = j->next) {
        if (j->running_thread) {
            j->stop_requested = SMFW_CANCEL_ABORT;
            pthread_join(j->thread, NULL);
            j->running_thread = 0; /* its state stays InProgress: a restart marks it Failed */
        }
    }
}
