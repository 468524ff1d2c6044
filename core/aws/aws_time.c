/* aws_time.c - timestamps used by AWS: ISO 8601 and RFC 1123. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "aws/aws_internal.h"

int64_t aws_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec;
}

static int digits(const char *s, int n, int *out) {
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i])) return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

int64_t aws_parse_iso8601(const char *s) {
    if (!s || strlen(s) < 19) return -1;
    int y, mo, d, h, mi, se;
    if (digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) || s[7] != '-' ||
        digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
        digits(s + 11, 2, &h) || s[13] != ':' || digits(s + 14, 2, &mi) || s[16] != ':' ||
        digits(s + 17, 2, &se))
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return -1;
    const char *p = s + 19;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++) {
        }
    int64_t offset = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int oh, om;
        if (digits(p + 1, 2, &oh) || p[3] != ':' || digits(p + 4, 2, &om)) return -1;
        offset = (oh * 3600 + om * 60) * (*p == '+' ? 1 : -1);
        p += 6;
    } else if (*p) {
        return -1;
    }
    if (*p) return -1;
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = se;
    return (int64_t)timegm(&tm) - offset;
}

int64_t aws_parse_http_date(const char *s) {
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
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    tm.tm_year = y - 1900;
    tm.tm_mon = m;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = se;
    return (int64_t)timegm(&tm);
}
