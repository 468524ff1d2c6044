/*
 * start_barrier.c - wait for `--start-at`, record lateness and the clock's error (see
 * start_barrier.h).
 */
#include "start_barrier.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#include <smfw/clock.h>
#include <smfw/config.h>
#include <smfw/log.h>

smfw_status direct_start_barrier_parse(const char *text, int64_t now_wall_ns,
                                       direct_start_barrier *b, smfw_error *err) {
    memset(b, 0, sizeof b[0]);
    if (!text || !*text) return SMFW_OK;
    if (text[0] == '+') {
        double s = 0;
        if (smfw_parse_duration(text + 1, &s) != 0 || s < 0)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "--start-at \"%s\": expected a delay such as +30s or an RFC 3339 "
                                  "UTC time such as 2026-12-01T22:30:00Z",
                                  text);
        b->at_wall_ns = now_wall_ns + (int64_t)(s * 1e9);
    } else if (smfw_time_parse_rfc3339(text, 0, &b->at_wall_ns) != 0) {
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--start-at \"%s\": expected an RFC 3339 time such as "
                              "2026-12-01T22:30:00Z (or a delay such as +30s)",
                              text);
    }
    b->set = 1;
    return SMFW_OK;
}

void direct_start_barrier_wait(direct_start_barrier *b, volatile sig_atomic_t *cancel, int quiet) {
    if (b->set) {
        int64_t now = smfw_now_wall_ns();
        if (now < b->at_wall_ns && !quiet)
            SMFW_LOG_INFO("direct", "waiting %.3f s for --start-at", (b->at_wall_ns - now) / 1e9);
        /* Absolute sleeps on CLOCK_REALTIME follow clock steps; short slices notice Ctrl-C. */
        while ((now = smfw_now_wall_ns()) < b->at_wall_ns && !(cancel && *cancel)) {
            int64_t until = b->at_wall_ns - now > 100000000LL ? now + 100000000LL : b->at_wall_ns;
            struct timespec ts = {(time_t)(until / 1000000000LL), (long)(until % 1000000000LL)};
            int rc = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
            if (rc != 0 && rc != EINTR) break;
        }
    }
    b->began_ns = smfw_now_wall_ns();
    b->lateness_ns = b->set && b->began_ns > b->at_wall_ns ? b->began_ns - b->at_wall_ns : 0;
    /* Waking takes tens of microseconds; only a start the user can act on is worth a line. */
    if (b->set && b->lateness_ns > 100000000LL && !quiet)
        SMFW_LOG_WARN("direct", "started %.3f s after --start-at (the moment had passed)",
                      b->lateness_ns / 1e9);
}

json_t *direct_start_barrier_json(const direct_start_barrier *b) {
    json_t *o = json_object();
    if (b->set) {
        char at[40];
        time_t t = (time_t)(b->at_wall_ns / 1000000000LL);
        struct tm tm;
        gmtime_r(&t, &tm);
        size_t n = strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%S", &tm);
        snprintf(at + n, sizeof at - n, ".%03dZ", (int)(b->at_wall_ns % 1000000000LL / 1000000));
        json_object_set_new(o, "at", json_string(at));
        json_object_set_new(o, "at_wall_ns", json_integer((json_int_t)b->at_wall_ns));
        json_object_set_new(o, "lateness_ms", json_real((double)b->lateness_ns / 1e6));
    }
    json_object_set_new(o, "began_wall_ns", json_integer((json_int_t)b->began_ns));
    char host[256];
    if (gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = '\0';
        json_object_set_new(o, "host", json_string(host));
    }
    /* The kernel's NTP state: how far CLOCK_REALTIME may be from true time. */
    struct timex tx;
    memset(&tx, 0, sizeof tx);
    int state = adjtimex(&tx);
    json_t *c = json_object();
    if (state == -1) {
        json_object_set_new(c, "known", json_false());
    } else {
        int synced = state != TIME_ERROR && !(tx.status & STA_UNSYNC);
        json_object_set_new(c, "synchronised", json_boolean(synced));
        json_object_set_new(c, "maxerror_us", json_integer((json_int_t)tx.maxerror));
        json_object_set_new(c, "esterror_us", json_integer((json_int_t)tx.esterror));
    }
    json_object_set_new(o, "clock", c);
    return o;
}
