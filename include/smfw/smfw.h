/*
 * smfw.h - versions, status codes and the error object of the smfw SDK.
 *
 * Every public smfw function that can fail returns an smfw_status and, when
 * given one, fills an smfw_error with a one-sentence message. Nothing below
 * main() calls exit(); plugins report failures the same way.
 */
#ifndef SMFW_SMFW_H
#define SMFW_SMFW_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Release version of libsmfw (semantic versioning). */
#define SMFW_VERSION_MAJOR  0
#define SMFW_VERSION_MINOR  1
#define SMFW_VERSION_PATCH  0
#define SMFW_VERSION_STRING "0.1.0"

/**
 * Plugin ABI version. A plugin built against another ABI major is refused;
 * a plugin built against an older minor of the same major is accepted (ops
 * tables only grow by appending, metric ids only by appending, and the core
 * checks each table's size before calling a slot added later). 2.0 made
 * smfw_results and smfw_record opaque (smfw/results.h) with stable metric
 * ids, and carries what 1.x added: the command kind (smfw/command.h), the
 * backend's fetch slot and run sets (smfw/backend.h, smfw/run_set.h).
 */
#define SMFW_ABI_MAJOR 2
#ifdef SMFW_TEST_APPEND_METRIC
#define SMFW_ABI_MINOR 1 /* test builds: 2.1 appends SMFW_M_TEST_APPENDED */
#else
#define SMFW_ABI_MINOR 0
#endif

/** Symbol visibility for libsmfw's public functions. */
#if defined(__GNUC__)
#define SMFW_API                      __attribute__((visibility("default")))
#define SMFW_PRINTF(fmt_idx, arg_idx) __attribute__((format(printf, fmt_idx, arg_idx)))
#else
#define SMFW_API
#define SMFW_PRINTF(fmt_idx, arg_idx)
#endif

/**
 * Status codes. SMFW_OK and the two non-error conditions are >= 0; every
 * failure is negative. Map a status to a process exit code with
 * smfw_status_exit_code().
 */
typedef enum smfw_status {
    SMFW_OK = 0,
    SMFW_DONE = 1,  /**< end of data (dataset exhausted, stream finished) */
    SMFW_AGAIN = 2, /**< not ready yet; call again (e.g. decoder needs bytes) */

    SMFW_ERR_USAGE = -1,    /**< bad command line */
    SMFW_ERR_CONFIG = -2,   /**< bad configuration value, file or plugin */
    SMFW_ERR_IO = -3,       /**< file system error */
    SMFW_ERR_NOMEM = -4,    /**< allocation failed */
    SMFW_ERR_PROTOCOL = -5, /**< malformed bytes from a peer (HTTP, event stream, XML, JSON) */
    SMFW_ERR_NETWORK = -6,  /**< connect/read/DNS/TLS failure */
    SMFW_ERR_TIMEOUT = -7,  /**< a deadline passed */
    SMFW_ERR_AUTH = -8,     /**< credentials missing/invalid, signature rejected, access denied */
    SMFW_ERR_THROTTLED =
        -9, /**< the service throttled us (SageMaker: HTTP 400 ThrottlingException) */
    SMFW_ERR_SERVER = -10,      /**< 5xx or service-side failure */
    SMFW_ERR_NOT_FOUND = -11,   /**< resource does not exist */
    SMFW_ERR_AWS = -12,         /**< any other AWS service error (validation, conflict...) */
    SMFW_ERR_UNSUPPORTED = -13, /**< operation not supported by this plugin/slot */
    SMFW_ERR_VALIDITY = -14,    /**< the run finished but failed its validity gate */
    SMFW_ERR_REGRESSION = -15,  /**< compare found a regression */
    SMFW_ERR_CANCELLED = -16,   /**< interrupted by the user */
    SMFW_ERR_INTERNAL = -17     /**< a bug in smfw */
} smfw_status;

/** Size of the message buffer inside smfw_error. */
#define SMFW_ERROR_MESSAGE_MAX 2048

/**
 * An error: a status plus one human sentence naming what failed (file, line,
 * field, request...). Secrets registered with smfw_secret_register() are
 * masked out of the message when it is set.
 */
typedef struct smfw_error {
    smfw_status status;
    char message[SMFW_ERROR_MESSAGE_MAX];
} smfw_error;

/** Reset an error to SMFW_OK with an empty message. NULL is allowed. */
SMFW_API void smfw_error_clear(smfw_error *err);

/**
 * Set an error (printf-style) and return its status, so callers can write
 * `return smfw_error_set(err, SMFW_ERR_IO, "cannot open %s: %s", path, strerror(errno));`.
 * err may be NULL (the status is still returned).
 */
SMFW_API smfw_status smfw_error_set(smfw_error *err, smfw_status status, const char *fmt, ...)
    SMFW_PRINTF(3, 4);

/** va_list form of smfw_error_set(). */
SMFW_API smfw_status smfw_error_setv(smfw_error *err, smfw_status status, const char *fmt,
                                     va_list ap);

/**
 * Prepend context to an existing message ("while reading x: <old message>"),
 * keeping the status. Returns the status.
 */
SMFW_API smfw_status smfw_error_prefix(smfw_error *err, const char *fmt, ...) SMFW_PRINTF(2, 3);

/** Stable lower-case name of a status ("ok", "config", "throttled"...). */
SMFW_API const char *smfw_status_name(smfw_status status);

/**
 * Process exit code for a status, as the CLI contract says: 0 success;
 * 1 usage or configuration error; 2 AWS or network error; 3 validity gate;
 * 4 regression; 130 interrupted.
 */
SMFW_API int smfw_status_exit_code(smfw_status status);

/** The library's version string at run time (SMFW_VERSION_STRING of the built library). */
SMFW_API const char *smfw_version(void);

/**
 * Register a secret (access key secret, session token, API key...). From then
 * on every log line and every error message set through smfw_error_set() has
 * each occurrence replaced by "****". Strings shorter than 4 bytes are ignored.
 * The string is copied. Thread-safe.
 */
SMFW_API void smfw_secret_register(const char *secret);

/**
 * Copy src to dst (capacity dst_size, always NUL-terminated), replacing every
 * registered secret by "****". Returns dst.
 */
SMFW_API char *smfw_secret_mask(char *dst, size_t dst_size, const char *src);

/**
 * Copy url to dst (capacity dst_size, always NUL-terminated) as it may be shown
 * or written: the userinfo ("user:password@") and the value of every query
 * parameter become "****"; keys, host, port and path stay. Returns dst.
 */
SMFW_API char *smfw_url_redact(char *dst, size_t dst_size, const char *url);

/** Register the userinfo and every query value of url as secrets (see smfw_secret_register). */
SMFW_API void smfw_url_register_secrets(const char *url);

/** Forget all registered secrets (tests). */
SMFW_API void smfw_secret_clear_all(void);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_SMFW_H */
