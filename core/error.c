/* error.c - smfw_error, status names and exit codes. */
#include <stdio.h>
#include <string.h>

#include <smfw/smfw.h>

void smfw_error_clear(smfw_error *err) {
    if (!err) return;
    err->status = SMFW_OK;
    err->message[0] = '\0';
}

smfw_status smfw_error_setv(smfw_error *err, smfw_status status, const char *fmt, va_list ap) {
    if (!err) return status;
    char raw[SMFW_ERROR_MESSAGE_MAX];
    vsnprintf(raw, sizeof raw, fmt, ap);
    smfw_secret_mask(err->message, sizeof err->message, raw);
    err->status = status;
    return status;
}

smfw_status smfw_error_set(smfw_error *err, smfw_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    smfw_status s = smfw_error_setv(err, status, fmt, ap);
    va_end(ap);
    return s;
}

smfw_status smfw_error_prefix(smfw_error *err, const char *fmt, ...) {
    if (!err) return SMFW_ERR_INTERNAL;
    char prefix[SMFW_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    char joined[SMFW_ERROR_MESSAGE_MAX];
    snprintf(joined, sizeof joined, "%s: %s", prefix, err->message);
    smfw_secret_mask(err->message, sizeof err->message, joined);
    return err->status;
}

const char *smfw_status_name(smfw_status status) {
    switch (status) {
    case SMFW_OK:
        return "ok";
    case SMFW_DONE:
        return "done";
    case SMFW_AGAIN:
        return "again";
    case SMFW_ERR_USAGE:
        return "usage";
    case SMFW_ERR_CONFIG:
        return "config";
    case SMFW_ERR_IO:
        return "io";
    case SMFW_ERR_NOMEM:
        return "nomem";
    case SMFW_ERR_PROTOCOL:
        return "protocol";
    case SMFW_ERR_NETWORK:
        return "network";
    case SMFW_ERR_TIMEOUT:
        return "timeout";
    case SMFW_ERR_AUTH:
        return "auth";
    case SMFW_ERR_THROTTLED:
        return "throttled";
    case SMFW_ERR_SERVER:
        return "server";
    case SMFW_ERR_NOT_FOUND:
        return "not_found";
    case SMFW_ERR_AWS:
        return "aws";
    case SMFW_ERR_UNSUPPORTED:
        return "unsupported";
    case SMFW_ERR_VALIDITY:
        return "validity";
    case SMFW_ERR_REGRESSION:
        return "regression";
    case SMFW_ERR_CANCELLED:
        return "cancelled";
    case SMFW_ERR_INTERNAL:
        return "internal";
    }
    return "unknown";
}

int smfw_status_exit_code(smfw_status status) {
    switch (status) {
    case SMFW_OK:
    case SMFW_DONE:
    case SMFW_AGAIN:
        return 0;
    case SMFW_ERR_USAGE:
    case SMFW_ERR_CONFIG:
    case SMFW_ERR_UNSUPPORTED:
        return 1;
    case SMFW_ERR_VALIDITY:
        return 3;
    case SMFW_ERR_REGRESSION:
        return 4;
    case SMFW_ERR_CANCELLED:
        return 130;
    case SMFW_ERR_IO:
    case SMFW_ERR_NOMEM:
    case SMFW_ERR_INTERNAL:
        return 1;
    case SMFW_ERR_PROTOCOL:
    case SMFW_ERR_NETWORK:
    case SMFW_ERR_TIMEOUT:
    case SMFW_ERR_AUTH:
    case SMFW_ERR_THROTTLED:
    case SMFW_ERR_SERVER:
    case SMFW_ERR_NOT_FOUND:
    case SMFW_ERR_AWS:
        return 2;
    }
    return 1;
}

const char *smfw_version(void) {
    return SMFW_VERSION_STRING;
}
