/* aws_time.c - AWS's timestamps in Unix seconds: ISO 8601 (RFC 3339, the zone optional as
 * some services write it) and HTTP dates; the parsing itself is the core's (clock.c). */
#include <smfw/clock.h>

#include "aws/aws_internal.h"

int64_t aws_now(void) {
    return smfw_now_wall_ns() / 1000000000LL;
}

int64_t aws_parse_iso8601(const char *s) {
    int64_t ns;
    if (smfw_time_parse_rfc3339(s, SMFW_TIME_ZONE_OPTIONAL, &ns) != 0) return -1;
    return ns >= 0 ? ns / 1000000000LL : -((-ns + 999999999LL) / 1000000000LL);
}

int64_t aws_parse_http_date(const char *s) {
    int64_t t;
    return smfw_time_parse_http_date(s, &t) == 0 ? t : -1;
}
