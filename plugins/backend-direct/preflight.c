/*
 * preflight.c - what a run needs before its first request: enough file
 * descriptors for its connections (the soft RLIMIT_NOFILE raised toward the
 * hard one where that suffices, else a refusal naming the numbers), and, for
 * a SageMaker target, the AWS client, its region and credentials, resolved
 * once at create() so a run that cannot sign stops with the credential
 * chain's sentence instead of sending every request to fail (see preflight.h).
 */
#include "preflight.h"

#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <smfw/log.h>
#include <smfw/net.h>

/*
 * Descriptors a run holds besides its connections: the standard streams,
 * result and log files, libraries' own (resolver, TLS, plugins), smfw-mock's
 * pipes, and per worker an epoll, a timer and curl's wake-up pair. Generous on
 * purpose: running out in the middle costs the whole run.
 */
#define FD_MARGIN_BASE       64
#define FD_MARGIN_PER_WORKER 4

/* Connections the run can hold at once; 0 for an open loop without a cap (no bound). */
static long long connections_needed(const direct_options *o) {
    long long c = o->arrival == DIRECT_ARRIVAL_CLOSED ? o->concurrency : o->max_concurrency;
    if (c <= 0) return 0;
    /* A run bounded by counts alone never has more in flight than its largest phase. */
    if (o->duration_s <= 0 && o->warmup_duration_s <= 0 && o->request_count > 0) {
        long long most =
            o->request_count > o->warmup_request_count ? o->request_count : o->warmup_request_count;
        if (c > most) c = most;
    }
    return c;
}

static int raise_soft_limit(struct rlimit *rl, rlim_t to) {
    struct rlimit r = *rl;
    r.rlim_cur = to;
    if (setrlimit(RLIMIT_NOFILE, &r) != 0) return -1;
    *rl = r;
    return 0;
}

smfw_status direct_preflight_fds(const direct_options *o, smfw_error *err) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return SMFW_OK; /* nothing known to check */
    const rlim_t was = rl.rlim_cur;
    long long conns = connections_needed(o);
    if (conns == 0) {
        /* Uncapped open loop: as many connections as requests in flight; take what is allowed. */
        if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_max != RLIM_INFINITY &&
            rl.rlim_cur < rl.rlim_max && raise_soft_limit(&rl, rl.rlim_max) == 0)
            SMFW_LOG_INFO("direct",
                          "raised the open-file limit (RLIMIT_NOFILE) from %llu to its hard limit "
                          "%llu: an open loop without --max-concurrency opens a connection per "
                          "request in flight",
                          (unsigned long long)was, (unsigned long long)rl.rlim_max);
        return SMFW_OK;
    }
    long workers = o->workers > 0 ? o->workers : sysconf(_SC_NPROCESSORS_ONLN);
    if (workers < 1) workers = 1;
    if (workers > conns) workers = (long)conns;
    long long margin = FD_MARGIN_BASE + FD_MARGIN_PER_WORKER * (long long)workers;
    rlim_t need = (rlim_t)(conns + margin);
    if (rl.rlim_cur == RLIM_INFINITY || need <= rl.rlim_cur) return SMFW_OK;

    int raised = 0;
    if (rl.rlim_max == RLIM_INFINITY || need <= rl.rlim_max) {
        /* Toward the hard limit: to it where it is finite, else to what the run needs. */
        rlim_t to = rl.rlim_max == RLIM_INFINITY ? need : rl.rlim_max;
        if (raise_soft_limit(&rl, to) == 0 || (to != need && raise_soft_limit(&rl, need) == 0)) {
            SMFW_LOG_INFO("direct",
                          "raised the open-file limit (RLIMIT_NOFILE) from %llu to %llu for %lld "
                          "connections",
                          (unsigned long long)was, (unsigned long long)rl.rlim_cur, conns);
            return SMFW_OK;
        }
    } else if (rl.rlim_cur < rl.rlim_max && raise_soft_limit(&rl, rl.rlim_max) == 0) {
        raised = 1; /* not enough, but the most a process can do for itself */
    }
    const char *flag = o->arrival == DIRECT_ARRIVAL_CLOSED ? "--concurrency" : "--max-concurrency";
    long long fits = (long long)rl.rlim_cur > margin ? (long long)rl.rlim_cur - margin : 0;
    char hard[32];
    if (rl.rlim_max == RLIM_INFINITY)
        strcpy(hard, "unlimited");
    else
        snprintf(hard, sizeof hard, "%llu", (unsigned long long)rl.rlim_max);
    return smfw_error_set(
        err, SMFW_ERR_CONFIG,
        "%s %lld needs about %llu open files (%lld connections + %lld for the process itself: "
        "files, libraries, %ld worker(s)), but the open-file limit (RLIMIT_NOFILE) is %llu%s, "
        "hard limit %s, which only a privileged process can raise: raise the hard limit before "
        "the run (as root `ulimit -Hn %llu` in the shell that starts smfw, LimitNOFILE= for a "
        "systemd service, nofile in /etc/security/limits.conf, docker run --ulimit nofile=%llu) "
        "or give at most %s %lld",
        flag, conns, (unsigned long long)need, conns, margin, workers,
        (unsigned long long)rl.rlim_cur,
        raised ? " (the soft limit was raised to the hard one)" : "", hard,
        (unsigned long long)need, (unsigned long long)need, flag, fits);
}

smfw_status direct_preflight(direct_options *o, smfw_error *err) {
    smfw_status st = direct_preflight_fds(o, err);
    if (st != SMFW_OK) return st;
    smfw_aws_options aopt;
    memset(&aopt, 0, sizeof aopt);
    aopt.region = o->region;
    aopt.profile = o->profile;
    aopt.endpoint_url = o->endpoint_url;
    aopt.ca_bundle = o->ca_bundle;
    aopt.config = o->config;
    /* One TLS/proxy configuration for the Runtime, the OpenAI path and the AWS calls,
     * resolved (and a bad CA bundle refused) before the first request. */
    if (!o->net) {
        st = smfw_aws_net_config_new(&aopt, &o->net, err);
        if (st != SMFW_OK) return st;
        char desc[2048];
        smfw_net_describe(o->net, desc, sizeof desc);
        SMFW_LOG_DEBUG("direct", "connections: %s", desc);
    }
    aopt.net = o->net;
    if (o->transport != DIRECT_TRANSPORT_SAGEMAKER || o->mock) return SMFW_OK;
    st = smfw_aws_client_new(&aopt, &o->aws, err);
    if (st != SMFW_OK) return st;
    const char *region = NULL;
    st = smfw_aws_client_region(o->aws, &region, err);
    if (st != SMFW_OK) return st;
    const smfw_aws_credentials *creds = NULL;
    st = smfw_aws_client_credentials(o->aws, &creds, err);
    if (st != SMFW_OK) return st;
    smfw_aws_credentials_release(creds);
    return SMFW_OK;
}
