/*
 * main.c - smfw-mock: one process, one port, one event loop.
 *
 * The first line on stdout is "listening on http://HOST:PORT" (the contract
 * smfw's --endpoint mock relies on to find a port-0 mock); SIGTERM, SIGINT
 * and, with --exit-on-stdin-eof, the end of stdin stop it cleanly.
 */
#define _XOPEN_SOURCE 700
#include "capture.h"
#include "jobs.h"
#include "prefix_cache.h"

#include <smfw/smfw.h>

#include <errno.h>
#include <event2/event.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void stop_cb(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    event_base_loopbreak(arg);
}

static void stdin_cb(evutil_socket_t fd, short what, void *arg) {
    char buf[4096];
    (void)what;
    ssize_t n = read(fd, buf, sizeof buf);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) event_base_loopbreak(arg);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

int main(int argc, char **argv) {
    mock_server srv;
    memset(&srv, 0, sizeof srv);
    char err[1024] = "";
    int rc = mock_options_parse(&srv.opt, argc, argv, err, sizeof err);
    if (rc == 1) {
        mock_options_usage(stdout);
        mock_options_free(&srv.opt);
        return 0;
    }
    if (rc == 2) {
        printf("smfw-mock %s\n", smfw_version());
        mock_options_free(&srv.opt);
        return 0;
    }
    if (rc < 0) {
        fprintf(stderr, "smfw-mock: %s\n", err);
        mock_options_free(&srv.opt);
        return 1;
    }
    smfw_secret_register(srv.opt.secret_access_key);
    signal(SIGPIPE, SIG_IGN);
    /* Benchmark jobs sign their Runtime calls with the mock's own key. libsmfw's AWS client
       reads credentials from the environment (the first link of its chain), and the direct
       backend has no setting for explicit keys, so they are exported here, once, before any
       thread exists; nothing changes the environment afterwards. */
    setenv("AWS_ACCESS_KEY_ID", srv.opt.access_key_id, 1);
    setenv("AWS_SECRET_ACCESS_KEY", srv.opt.secret_access_key, 1);
    unsetenv("AWS_SESSION_TOKEN");
    unsetenv("AWS_SECURITY_TOKEN");
    srv.rng.s = srv.opt.seed;
    srv.started_unix = mock_now_unix();

    if (!srv.opt.state_dir) {
        char tmpl[] = "/tmp/smfw-mock.XXXXXX";
        if (!mkdtemp(tmpl)) {
            fprintf(stderr, "smfw-mock: cannot create a state directory: %s\n", strerror(errno));
            return 1;
        }
        srv.opt.state_dir = strdup(tmpl);
        srv.opt.state_dir_is_temp = 1;
    } else if (mock_mkdirs(srv.opt.state_dir) != 0) {
        fprintf(stderr, "smfw-mock: cannot create %s: %s\n", srv.opt.state_dir, strerror(errno));
        return 1;
    }

    struct event_config *cfg = event_config_new();
    event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER); /* timerfd under epoll */
    srv.base = event_base_new_with_config(cfg);
    event_config_free(cfg);
    if (!srv.base) {
        fprintf(stderr, "smfw-mock: cannot create the event loop\n");
        return 1;
    }
    int status = 1;
    struct event *sigterm = NULL, *sigint = NULL, *in_ev = NULL;
    mock_runner *runner = NULL;
    if (srv.opt.ground_truth &&
        !(srv.gt = mock_groundtruth_open(srv.opt.ground_truth, err, sizeof err)))
        goto out;
    srv.metrics = mock_metrics_new();
    if (srv.opt.prefix_cache_blocks > 0 &&
        !(srv.prefix_cache = mock_prefix_cache_new((size_t)srv.opt.prefix_cache_blocks,
                                                   srv.opt.prefix_block_tokens))) {
        snprintf(err, sizeof err, "out of memory for --prefix-cache");
        goto out;
    }
    if (!(srv.s3 = mock_s3_new(srv.opt.state_dir, srv.opt.region, err, sizeof err))) goto out;
    srv.capture = mock_capture_new(&srv);
    if (!(srv.cp = mock_controlplane_new(&srv, err, sizeof err))) goto out;
    runner = mock_runner_new(srv.opt.sharegpt_file, srv.opt.verbose);
    mock_controlplane_set_runner(srv.cp, mock_runner_run, runner);
    srv.http = mock_http_server_new(srv.base, srv.opt.host, srv.opt.port, mock_route, &srv, err,
                                    sizeof err);
    if (!srv.http) goto out;
    if (srv.gt) mock_http_server_stamp_arrivals(srv.http); /* arrival_ns in the ground truth */

    sigterm = evsignal_new(srv.base, SIGTERM, stop_cb, srv.base);
    sigint = evsignal_new(srv.base, SIGINT, stop_cb, srv.base);
    event_add(sigterm, NULL);
    event_add(sigint, NULL);
    if (srv.opt.exit_on_stdin_eof) {
        in_ev = event_new(srv.base, STDIN_FILENO, EV_READ | EV_PERSIST, stdin_cb, srv.base);
        event_add(in_ev, NULL);
    }
    printf("listening on http://%s:%d\n", srv.opt.host, mock_http_server_port(srv.http));
    fflush(stdout);
    if (srv.opt.verbose)
        fprintf(stderr, "smfw-mock: state in %s, %zu endpoint(s), auth %s\n", srv.opt.state_dir,
                srv.opt.endpoint_count, srv.opt.no_auth ? "off" : "on");
    event_base_dispatch(srv.base);
    status = 0;
    if (srv.opt.verbose) {
        fprintf(stderr, "smfw-mock: %llu requests", (unsigned long long)srv.requests);
        for (int k = 1; k < MOCK_FAULT_COUNT; k++)
            if (srv.fault_counts[k])
                fprintf(stderr, ", %s %llu", mock_fault_name((mock_fault_kind)k),
                        (unsigned long long)srv.fault_counts[k]);
        for (int k = 1; k < MOCK_API_FAULT_COUNT; k++)
            if (srv.api_fault_counts[k])
                fprintf(stderr, ", api %s %llu", mock_api_fault_name((mock_api_fault_kind)k),
                        (unsigned long long)srv.api_fault_counts[k]);
        fprintf(stderr, "\n");
    }
out:
    if (status != 0) fprintf(stderr, "smfw-mock: %s\n", err);
    if (in_ev) event_free(in_ev);
    if (sigterm) event_free(sigterm);
    if (sigint) event_free(sigint);
    /* Orderly shutdown: jobs stop first (their requests to this mock are aborted), then every
       connection closes and one more loop turn lets the answers in flight finish. */
    mock_controlplane_stop_jobs(srv.cp);
    if (srv.http) {
        mock_http_server_close_all(srv.http);
        event_base_loop(srv.base, EVLOOP_NONBLOCK);
    }
    mock_http_server_free(srv.http);
    mock_gen_slots_free(srv.slots);
    mock_controlplane_free(srv.cp); /* stops and joins running jobs first */
    mock_runner_free(runner);
    mock_capture_free(srv.capture); /* writes what is still buffered */
    mock_s3_free(srv.s3);
    mock_metrics_free(srv.metrics);
    mock_groundtruth_close(srv.gt);
    mock_sessions_free(srv.sessions);
    mock_prefix_cache_free(srv.prefix_cache);
    event_base_free(srv.base);
    if (srv.opt.state_dir_is_temp) nftw(srv.opt.state_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    mock_options_free(&srv.opt);
    return status;
}
