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

#ifdef __cplusplus
}
#endif
#endif
