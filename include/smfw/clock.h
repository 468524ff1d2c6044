/*
 * clock.h - the two clocks of a measurement, one implementation for the core,
 * the plugins and the mock: monotonic for latencies (never steps), wall for
 * anchoring records in time (AIPerf's *_ns fields are wall nanoseconds).
 */
#ifndef SMFW_CLOCK_H
#define SMFW_CLOCK_H

#include <stdint.h>

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** CLOCK_MONOTONIC in nanoseconds. */
SMFW_API int64_t smfw_now_mono_ns(void);

/** CLOCK_REALTIME in nanoseconds since the Unix epoch. */
SMFW_API int64_t smfw_now_wall_ns(void);

/** smfw_time_parse_rfc3339() flag: a time without Z or an offset is UTC (AWS writes some). */
#define SMFW_TIME_ZONE_OPTIONAL 1

/**
 * Parse an RFC 3339 date-time, YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM) ('t', 'z'
 * and a space for 'T' accepted), into nanoseconds since the Unix epoch (fraction digits
 * beyond nanoseconds dropped). flags: 0 or SMFW_TIME_ZONE_OPTIONAL. 0, or -1 when malformed.
 */
SMFW_API int smfw_time_parse_rfc3339(const char *text, int flags, int64_t *ns);

/** Parse an HTTP date (IMF-fixdate, "Tue, 01 Dec 2026 22:30:00 GMT") into Unix seconds.
 *  0, or -1 when malformed. */
SMFW_API int smfw_time_parse_http_date(const char *text, int64_t *unix_s);

#ifdef __cplusplus
}
#endif
#endif
