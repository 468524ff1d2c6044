/*
 * log.h - leveled logging to stderr for the core and plugins.
 *
 * Messages go through the secret mask (smfw_secret_register), so a secret
 * never reaches a log line even if a caller formats one by mistake.
 */
#ifndef SMFW_LOG_H
#define SMFW_LOG_H

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Log levels, most severe first. The default level is SMFW_LOG_INFO. */
typedef enum smfw_log_level {
    SMFW_LOG_ERROR = 0,
    SMFW_LOG_WARN = 1,
    SMFW_LOG_INFO = 2,
    SMFW_LOG_DEBUG = 3, /**< -v */
    SMFW_LOG_TRACE = 4  /**< -vv: request/response logging (redacted) */
} smfw_log_level;

/** Set the most verbose level that is printed. -q maps to SMFW_LOG_WARN. */
SMFW_API void smfw_log_set_level(smfw_log_level level);

/** The current level. */
SMFW_API smfw_log_level smfw_log_get_level(void);

/** True when a message at `level` would be printed (to skip expensive formatting). */
SMFW_API int smfw_log_enabled(smfw_log_level level);

/**
 * Print one line to stderr: "smfw: <level>: <message>\n" (info lines have no
 * level word). `component` (e.g. "aws", "direct") is optional and printed in
 * brackets. Thread-safe: one write(2) per line.
 */
SMFW_API void smfw_log(smfw_log_level level, const char *component, const char *fmt, ...)
    SMFW_PRINTF(3, 4);

/** va_list form of smfw_log(). */
SMFW_API void smfw_logv(smfw_log_level level, const char *component, const char *fmt, va_list ap);

/**
 * Redirect log output (tests): every formatted, masked line is passed to
 * `sink` instead of stderr. NULL restores stderr.
 */
typedef void (*smfw_log_sink)(smfw_log_level level, const char *line, void *user);
SMFW_API void smfw_log_set_sink(smfw_log_sink sink, void *user);

/**
 * Redirect the lines logged by the calling thread only (an embedder running
 * several benchmarks at once, one per thread): they go to `sink`, before and
 * instead of the process sink; other threads are unaffected. Threads the
 * thread starts do not inherit it. NULL returns the thread to the process sink.
 */
SMFW_API void smfw_log_set_thread_sink(smfw_log_sink sink, void *user);

#define SMFW_LOG_ERR(comp, ...)  smfw_log(SMFW_LOG_ERROR, comp, __VA_ARGS__)
#define SMFW_LOG_WARN(comp, ...) smfw_log(SMFW_LOG_WARN, comp, __VA_ARGS__)
#define SMFW_LOG_INFO(comp, ...) smfw_log(SMFW_LOG_INFO, comp, __VA_ARGS__)
#define SMFW_LOG_DEBUG(comp, ...)                                                                  \
    do {                                                                                           \
        if (smfw_log_enabled(SMFW_LOG_DEBUG)) smfw_log(SMFW_LOG_DEBUG, comp, __VA_ARGS__);         \
    } while (0)
#define SMFW_LOG_TRACE(comp, ...)                                                                  \
    do {                                                                                           \
        if (smfw_log_enabled(SMFW_LOG_TRACE)) smfw_log(SMFW_LOG_TRACE, comp, __VA_ARGS__);         \
    } while (0)

#ifdef __cplusplus
}
#endif
#endif /* SMFW_LOG_H */
