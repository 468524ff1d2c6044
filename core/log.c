/*
 * log.c - leveled logging to stderr, one write per line, secrets masked.
 * The level and the process sink are process-wide (one program, one
 * terminal); a thread may route its own lines elsewhere with a thread sink,
 * so two benchmarks in one process keep separate logs.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <smfw/log.h>
#include <smfw/untrusted.h>

static atomic_int log_level = SMFW_LOG_INFO;
/* The process sink, guarded by log_lock (which also keeps stderr lines whole). */
static smfw_log_sink log_sink;
static void *log_sink_user;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
/* This thread's sink: owned by the thread, so read without the lock. */
static _Thread_local smfw_log_sink thread_sink;
static _Thread_local void *thread_sink_user;

void smfw_log_set_level(smfw_log_level level) {
    atomic_store_explicit(&log_level, (int)level, memory_order_relaxed);
}

smfw_log_level smfw_log_get_level(void) {
    return (smfw_log_level)atomic_load_explicit(&log_level, memory_order_relaxed);
}

int smfw_log_enabled(smfw_log_level level) {
    return (int)level <= atomic_load_explicit(&log_level, memory_order_relaxed);
}

void smfw_log_set_thread_sink(smfw_log_sink sink, void *user) {
    thread_sink = sink;
    thread_sink_user = user;
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
    if (thread_sink) {
        thread_sink(level, line, thread_sink_user);
        return;
    }
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
