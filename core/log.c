/* log.c - leveled logging to stderr, one write per line, secrets masked. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <smfw/log.h>
#include <smfw/untrusted.h>

static volatile int log_level = SMFW_LOG_INFO;
static smfw_log_sink log_sink;
static void *log_sink_user;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void smfw_log_set_level(smfw_log_level level) {
    log_level = level;
}

smfw_log_level smfw_log_get_level(void) {
    return (smfw_log_level)log_level;
}

int smfw_log_enabled(smfw_log_level level) {
    return (int)level <= log_level;
}

void smfw_log_set_sink(smfw_log_sink sink, void *user) {
    pthread_mutex_lock(&log_lock);
    log_sink = sink;
    log_sink_user = user;
    pthread_mutex_unlock(&log_lock);
}

static const char *level_word(smfw_log_level level) {
    switch (level) {
    case SMFW_LOG_ERROR:
        return "error: ";
    case SMFW_LOG_WARN:
        return "warning: ";
    case SMFW_LOG_INFO:
        return "";
    case SMFW_LOG_DEBUG:
        return "debug: ";
    case SMFW_LOG_TRACE:
        return "trace: ";
    }
    return "";
}

void smfw_logv(smfw_log_level level, const char *component, const char *fmt, va_list ap) {
    if (!smfw_log_enabled(level)) return;
    char text[8192], body[8192];
    vsnprintf(text, sizeof text, fmt, ap);
    /* Messages quote services and bundles: no control reaches the terminal. */
    smfw_term_escape_lines(text, body, sizeof body);
    char raw[8400];
    if (component && *component)
        snprintf(raw, sizeof raw, "smfw: %s[%s] %s", level_word(level), component, body);
    else
        snprintf(raw, sizeof raw, "smfw: %s%s", level_word(level), body);
    char line[8400];
    smfw_secret_mask(line, sizeof line - 1, raw);
    size_t n = strlen(line);
    while (n && line[n - 1] == '\n') line[--n] = '\0';
    pthread_mutex_lock(&log_lock);
    if (log_sink) {
        log_sink(level, line, log_sink_user);
    } else {
        line[n++] = '\n';
        ssize_t w = write(STDERR_FILENO, line, n);
        (void)w;
    }
    pthread_mutex_unlock(&log_lock);
}

void smfw_log(smfw_log_level level, const char *component, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    smfw_logv(level, component, fmt, ap);
    va_end(ap);
}
