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

#include <smfw/config.h>
#include <smfw/log.h>

static int64_t wall_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int digits(const char **p, int n, int *out) {
    int v = 0;
    for (int i = 0; i < n; i++, (*p)++) {
        if (!isdigit((unsigned char)**p)) return -1;
        v = v * 10 + (**p - '0');
    }
    *out = v;
    return 0;
}

/* RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM). */
static int parse_rfc3339(const char *s, int64_t *ns) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    int y, mo, d, h, mi, sec;
    const char *p = s;
    if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' ||
        digits(&p, 2, &d) || (*p != 'T' && *p != 't' && *p != ' '))
        return -1;
    p++;
    if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi) || *p++ != ':' ||
        digits(&p, 2, &sec))
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return -1;
    int64_t frac = 0, scale = 1000000000LL;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p)) return -1;
        for (; isdigit((unsigned char)*p); p++)
            if (scale > 1) {
                scale /= 10;
                frac += (*p - '0') * scale;
            }
    }
    int offset_s = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int sign = *p++ == '-' ? -1 : 1, oh, om;
        if (digits(&p, 2, &oh) || *p++ != ':' || digits(&p, 2, &om) || oh > 23 || om > 59)
            return -1;
        offset_s = sign * (oh * 3600 + om * 60);
    } else {
        return -1;
    }
    if (*p) return -1;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = sec;
    time_t t = timegm(&tm);
    if (t == (time_t)-1) return -1;
    *ns = ((int64_t)t - offset_s) * 1000000000LL + frac;
    return 0;
}

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
    } else if (parse_rfc3339(text, &b->at_wall_ns) != 0) {
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
        int64_t now = wall_now_ns();
        if (now < b->at_wall_ns && !quiet)
            SMFW_LOG_INFO("direct", "waiting %.3f s for --start-at", (b->at_wall_ns - now) / 1e9);
        /* Absolute sleeps on CLOCK_REALTIME follow clock steps; short slices notice Ctrl-C. */
        while ((now = wall_now_ns()) < b->at_wall_ns && !(cancel && *cancel)) {
            int64_t until = b->at_wall_ns - now > 100000000LL ? now + 100000000LL : b->at_wall_ns;
            struct timespec ts = {(time_t)(until / 1000000000LL), (long)(until % 1000000000LL)};
            int rc = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
            if (rc != 0 && rc != EINTR) break;
        }
    }
    b->began_ns = wall_now_ns();
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
