/*
 * mock_launcher.h - `--endpoint mock`: start a private smfw-mock for the run.
 *
 * The mock is a separate program (the core never links its code): found
 * via backend.direct.mock_binary / SMFW_MOCK, next to the running program,
 * in the build tree, or on PATH; started on 127.0.0.1 port 0 with random
 * credentials that both sides use; its first stdout line
 * "listening on http://HOST:PORT" gives the URL. Stopped after the run.
 */
#ifndef DIRECT_MOCK_LAUNCHER_H
#define DIRECT_MOCK_LAUNCHER_H

#include <pthread.h>
#include <sys/types.h>

#include <smfw/smfw.h>

typedef struct direct_mock {
    pid_t pid;
    int out_fd;
    int in_fd; /* the mock's stdin: closing it stops a mock whose parent died */
    pthread_t drain;
    int drain_started;
    char url[256];
    char access_key_id[32];
    char secret_access_key[48];
    char binary[4096];
} direct_mock;

/**
 * Start the mock serving endpoint `endpoint` in `region`; extra args are passed
 * through. The run's --inference-component is not made up here: the mock hosts
 * the components its own --inference-component (a --mock-arg) gives, and refuses
 * others as SageMaker does.
 */
smfw_status direct_mock_start(direct_mock *m, const char *binary, const char *endpoint,
                              const char *region, char *const *extra_args, size_t n_extra,
                              smfw_error *err);
/** Terminate and reap it (SIGTERM, then SIGKILL after 5 s). Safe to call twice. */
void direct_mock_stop(direct_mock *m);

#endif /* DIRECT_MOCK_LAUNCHER_H */
