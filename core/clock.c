/* clock.c - the two clocks of a measurement (monotonic for latencies, wall for anchors) and
 * the one parser of each timestamp format smfw reads (RFC 3339, HTTP dates). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <smfw/clock.h>

int64_t smfw_now_mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t smfw_now_wall_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* n decimal digits at *p (advanced past them). */
static int digits(const char **p, int n, int *out) {
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)(*p)[i])) return -1;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *out = v;
    return 0;
}

static int64_t utc_seconds(int y, int mo, int d, int h, int mi, int s) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    return (int64_t)timegm(&tm);
}

int smfw_time_parse_rfc3339(const char *s, int flags, int64_t *ns) {
    if (!s) return -1;
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
    int64_t offset_s = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int sign = *p++ == '-' ? -1 : 1, oh, om;
        if (digits(&p, 2, &oh) || *p++ != ':' || digits(&p, 2, &om) || oh > 23 || om > 59)
            return -1;
        offset_s = sign * (oh * 3600 + om * 60);
    } else if (!(flags & SMFW_TIME_ZONE_OPTIONAL)) {
        return -1;
    }
    if (*p) return -1;
    *ns = (utc_seconds(y, mo, d, h, mi, sec) - offset_s) * 1000000000LL + frac;
    return 0;
}

int smfw_time_parse_http_date(const char *s, int64_t *unix_s) {
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    if (!s) return -1;
    const char *comma = strchr(s, ',');
    if (comma) s = comma + 1;
    int d, y, h, mi, se;
    char mon[4];
    if (sscanf(s, " %2d %3s %4d %2d:%2d:%2d", &d, mon, &y, &h, &mi, &se) != 6) return -1;
    int m = -1;
    for (int i = 0; i < 12; i++)
        if (strcasecmp(mon, months[i]) == 0) m = i;
    if (m < 0 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return -1;
    *unix_s = utc_seconds(y, m + 1, d, h, mi, se);
    return 0;
}
