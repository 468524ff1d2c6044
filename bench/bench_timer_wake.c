/*
 * bench_timer_wake.c - how late a timer wake comes on this machine, and what waking early
 * and polling until the deadline buys (the direct backend's send lead, docs/direct.md).
 *
 *   bench_timer_wake [DEADLINES] [GAP_US]
 *
 * For each lead (0 = sleep until the deadline; then 250 us, 500 us, 1 ms, 2 ms) it sets
 * DEADLINES absolute CLOCK_MONOTONIC deadlines on a timerfd, the way the load worker does
 * (bursts 1 ms apart every fifth, otherwise GAP_US to 2 x GAP_US apart, default 50 ms: the
 * machine idles between them), sleeps in epoll_wait until deadline - lead, then polls the
 * clock until the deadline. It prints the lateness past the deadline (p50 / p99 / max) and
 * the polling's CPU share, each lead against the plain sleep of the same invocation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

typedef struct wake_result {
    double p50_ms, p99_ms, max_ms, poll_share;
} wake_result;

static int measure(int tfd, int epfd, int n, int64_t gap_ns, int64_t lead_ns, wake_result *r) {
    int64_t *late = calloc((size_t)n, sizeof *late);
    if (!late) return -1;
    uint64_t seed = 18;
    int64_t deadline = now_ns() + 10000000, polled = 0, t0 = now_ns();
    for (int i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        deadline += i % 5 ? 1000000 : gap_ns + (int64_t)((seed >> 33) % (uint64_t)gap_ns);
        int64_t wake = deadline - lead_ns;
        struct itimerspec its;
        memset(&its, 0, sizeof its);
        its.it_value.tv_sec = wake / 1000000000LL;
        its.it_value.tv_nsec = wake % 1000000000LL;
        if (wake > now_ns()) {
            timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
            struct epoll_event ev;
            while (epoll_wait(epfd, &ev, 1, -1) != 1) continue;
            uint64_t ticks;
            if (read(tfd, &ticks, sizeof ticks) < 0) continue;
        }
        int64_t t = now_ns(), from = t;
        while (t < deadline) t = now_ns();
        polled += t - from;
        late[i] = t - deadline;
    }
    int64_t wall = now_ns() - t0;
    qsort(late, (size_t)n, sizeof *late, cmp_i64);
    r->p50_ms = (double)late[n / 2] / 1e6;
    r->p99_ms = (double)late[(size_t)n * 99 / 100] / 1e6;
    r->max_ms = (double)late[n - 1] / 1e6;
    r->poll_share = (double)polled / (double)wall;
    free(late);
    return 0;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int64_t gap_ns = (argc > 2 ? atoll(argv[2]) : 50000) * 1000;
    if (n < 10 || gap_ns < 2000000) {
        fprintf(stderr, "usage: bench_timer_wake [DEADLINES >= 10] [GAP_US >= 2000]\n");
        return 1;
    }
    int tfd = timerfd_create(CLOCK_MONOTONIC, 0), epfd = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = tfd};
    if (tfd < 0 || epfd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, tfd, &ev) != 0) {
        perror("bench_timer_wake: timerfd/epoll");
        return 1;
    }
    static const int64_t leads_us[] = {0, 250, 500, 1000, 2000};
    wake_result base = {0};
    printf("%d deadlines, idle gaps %lld-%lld ms, bursts 1 ms apart\n", n,
           (long long)(gap_ns / 1000000), (long long)(2 * gap_ns / 1000000));
    printf("lead_us  late_p50_ms  late_p99_ms  late_max_ms  polling_cpu  p99/sleep\n");
    for (size_t k = 0; k < sizeof leads_us / sizeof leads_us[0]; k++) {
        wake_result r;
        if (measure(tfd, epfd, n, gap_ns, leads_us[k] * 1000, &r) != 0) return 1;
        if (k == 0) base = r;
        printf("%7lld  %11.3f  %11.3f  %11.3f  %10.1f%%  x%.2f\n", (long long)leads_us[k], r.p50_ms,
               r.p99_ms, r.max_ms, 100.0 * r.poll_share,
               base.p99_ms > 0 ? r.p99_ms / base.p99_ms : 0.0);
    }
    close(tfd);
    close(epfd);
    return 0;
}
