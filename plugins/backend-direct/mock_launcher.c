/*
 * mock_launcher.c - start and stop smfw-mock for `--endpoint mock`.
 */
#include "mock_launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int executable(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

static int find_mock(const char *configured, char *out, size_t cap) {
    if (configured && *configured) {
        snprintf(out, cap, "%s", configured);
        return executable(out);
    }
    const char *env = getenv("SMFW_MOCK");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return executable(out);
    }
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) *slash = '\0';
        const char *rel[] = {"/smfw-mock", "/tools/mock/smfw-mock", "/../tools/mock/smfw-mock",
                             "/../../tools/mock/smfw-mock"};
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            snprintf(out, cap, "%s%s", self, rel[i]);
            if (executable(out)) return 1;
        }
    }
    const char *path = getenv("PATH");
    if (path) {
        char *copy = strdup(path), *save = NULL;
        for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d;
             d = strtok_r(NULL, ":", &save)) {
            snprintf(out, cap, "%s/smfw-mock", d);
            if (executable(out)) {
                free(copy);
                return 1;
            }
        }
        free(copy);
    }
    return 0;
}

static void random_token(char *out, size_t len, const char *alphabet) {
    unsigned char buf[64];
    size_t al = strlen(alphabet);
    if (len > sizeof buf) len = sizeof buf;
    if (getrandom(buf, len, 0) != (ssize_t)len)
        for (size_t i = 0; i < len; i++) buf[i] = (unsigned char)(rand() & 0xFF);
    for (size_t i = 0; i < len; i++) out[i] = alphabet[buf[i] % al];
    out[len] = '\0';
}

static void *drain_main(void *arg) {
    direct_mock *m = arg;
    char buf[4096];
    while (read(m->out_fd, buf, sizeof buf) > 0) {
    }
    return NULL;
}

smfw_status direct_mock_start(direct_mock *m, const char *binary, const char *endpoint,
                              const char *region, char *const *extra_args, size_t n_extra,
                              smfw_error *err) {
    memset(m, 0, sizeof *m);
    m->pid = -1;
    m->out_fd = -1;
    m->in_fd = -1;
    if (!find_mock(binary, m->binary, sizeof m->binary))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "--endpoint mock needs the smfw-mock program: not found next to "
                              "smfw, in the build tree or on PATH (set SMFW_MOCK or "
                              "backend.direct.mock_binary)");
    memcpy(m->access_key_id, "AKIDSMFWMOCK", 12);
    random_token(m->access_key_id + 12, 8, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
    random_token(m->secret_access_key, 40,
                 "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
    smfw_secret_register(m->secret_access_key);
    int fds[2], ins[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot create a pipe: %s", strerror(errno));
    if (pipe2(ins, O_CLOEXEC) != 0) {
        close(fds[0]);
        close(fds[1]);
        return smfw_error_set(err, SMFW_ERR_IO, "cannot create a pipe: %s", strerror(errno));
    }
    size_t argc = 0;
    char **argv = calloc(16 + n_extra, sizeof *argv);
    if (!argv) {
        close(fds[0]);
        close(fds[1]);
        close(ins[0]);
        close(ins[1]);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    argv[argc++] = m->binary;
    argv[argc++] = "--listen";
    argv[argc++] = "127.0.0.1:0";
    argv[argc++] = "--access-key-id";
    argv[argc++] = m->access_key_id;
    argv[argc++] = "--exit-on-stdin-eof";
    if (endpoint) {
        argv[argc++] = "--endpoint";
        argv[argc++] = (char *)endpoint;
    }
    if (region) {
        argv[argc++] = "--region";
        argv[argc++] = (char *)region;
    }
    for (size_t i = 0; i < n_extra; i++) argv[argc++] = extra_args[i];
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, ins[0], STDIN_FILENO);
    /* The secret goes through the child's environment, not its command line (ps). */
    size_t n_env = 0;
    while (environ[n_env]) n_env++;
    char **envp = calloc(n_env + 2, sizeof *envp);
    char secret_var[128];
    snprintf(secret_var, sizeof secret_var, "SMFW_MOCK_SECRET_ACCESS_KEY=%s", m->secret_access_key);
    int rc = ENOMEM;
    if (envp) {
        size_t k = 0;
        for (size_t i = 0; i < n_env; i++)
            if (strncmp(environ[i], "SMFW_MOCK_SECRET_ACCESS_KEY=", 28) != 0)
                envp[k++] = environ[i];
        envp[k++] = secret_var;
        envp[k] = NULL;
        rc = posix_spawn(&m->pid, m->binary, &fa, NULL, argv, envp);
    }
    explicit_bzero(secret_var, sizeof secret_var);
    free(envp);
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    close(fds[1]);
    close(ins[0]);
    m->in_fd = ins[1];
    if (rc != 0) {
        close(fds[0]);
        close(ins[1]);
        m->in_fd = -1;
        m->pid = -1;
        return smfw_error_set(err, SMFW_ERR_CONFIG, "cannot start %s: %s", m->binary, strerror(rc));
    }
    m->out_fd = fds[0];
    /* First line: "listening on http://HOST:PORT" (10 s at most). */
    char line[512];
    size_t len = 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left =
            10000 - ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000);
        if (left <= 0) break;
        struct pollfd p = {m->out_fd, POLLIN, 0};
        if (poll(&p, 1, (int)left) <= 0) continue;
        ssize_t n = read(m->out_fd, line + len, 1);
        if (n <= 0) break;
        if (line[len] == '\n' || len + 2 >= sizeof line) break;
        len++;
    }
    line[len] = '\0';
    const char *u = strstr(line, "http://");
    if (!u) {
        direct_mock_stop(m);
        return smfw_error_set(
            err, SMFW_ERR_CONFIG,
            "smfw-mock (%s) did not say where it listens (first line: \"%.200s\")", m->binary,
            line);
    }
    snprintf(m->url, sizeof m->url, "%s", u);
    size_t ul = strlen(m->url);
    while (ul && (m->url[ul - 1] == '\r' || m->url[ul - 1] == ' ' || m->url[ul - 1] == '/'))
        m->url[--ul] = '\0';
    if (pthread_create(&m->drain, NULL, drain_main, m) == 0) m->drain_started = 1;
    return SMFW_OK;
}

void direct_mock_stop(direct_mock *m) {
    if (m->in_fd >= 0) close(m->in_fd);
    m->in_fd = -1;
    if (m->pid > 0) {
        kill(m->pid, SIGTERM);
        int status;
        for (int i = 0; i < 500; i++) {
            pid_t r = waitpid(m->pid, &status, WNOHANG);
            if (r == m->pid || (r < 0 && errno != EINTR)) {
                m->pid = -1;
                break;
            }
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
        }
        if (m->pid > 0) {
            kill(m->pid, SIGKILL);
            waitpid(m->pid, &status, 0);
            m->pid = -1;
        }
    }
    if (m->drain_started) {
        pthread_join(m->drain, NULL); /* the pipe closes when the mock exits */
        m->drain_started = 0;
    }
    if (m->out_fd >= 0) close(m->out_fd);
    m->out_fd = -1;
}
