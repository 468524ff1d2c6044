/* signals.c - Ctrl-C: the first stops issuing, the second aborts in-flight requests. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <smfw/backend.h>

#include "commands.h"

static volatile sig_atomic_t cancel_flag;

static void on_signal(int sig) {
    (void)sig;
    if (cancel_flag == SMFW_CANCEL_NONE) {
        cancel_flag = SMFW_CANCEL_STOP;
        static const char msg[] = "\nsmfw: interrupted: stopping (Ctrl-C again to abort)\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
    } else if (cancel_flag == SMFW_CANCEL_STOP) {
        cancel_flag = SMFW_CANCEL_ABORT;
        static const char msg[] = "\nsmfw: aborting; results so far are kept\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
    } else {
        _exit(130);
    }
}

volatile sig_atomic_t *smfw_cli_install_cancel_handler(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return &cancel_flag;
}
