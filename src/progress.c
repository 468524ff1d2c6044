/* progress.c - live progress: a TTY status line (<= 10 updates/s) or periodic plain lines. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <smfw/log.h>

#include "commands.h"

enum { PROGRESS_NONE, PROGRESS_BAR, PROGRESS_LINES };
static int progress_mode = PROGRESS_LINES;
static int64_t last_print_ns;
static int bar_open;

void smfw_cli_progress_setup(const smfw_config *cfg, int verbosity) {
    const char *m = smfw_settings_get(smfw_config_section(cfg, "smfw"), "progress");
    if (verbosity < 0 || (m && strcmp(m, "none") == 0))
        progress_mode = PROGRESS_NONE;
    else if (m && strcmp(m, "bar") == 0)
        progress_mode = PROGRESS_BAR;
    else if (m && strcmp(m, "lines") == 0)
        progress_mode = PROGRESS_LINES;
    else
        progress_mode = isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_LINES;
}

void smfw_cli_progress(void *user, const smfw_progress *p) {
    (void)user;
    if (progress_mode == PROGRESS_NONE) return;
    int64_t now = smfw_now_mono_ns();
    int64_t min_gap = progress_mode == PROGRESS_BAR ? 100000000LL : 10000000000LL;
    int final = p->total > 0 && p->done >= p->total;
    if (!final && now - last_print_ns < min_gap) return;
    last_print_ns = now;
    char line[512];
    char eta[32] = "";
    if (p->total > 0 && p->done > 0 && p->requests_per_s > 0 && p->done < p->total)
        snprintf(eta, sizeof eta, " ETA %.0fs", (double)(p->total - p->done) / p->requests_per_s);
    else if (p->total_s > 0 && p->elapsed_s < p->total_s)
        snprintf(eta, sizeof eta, " ETA %.0fs", p->total_s - p->elapsed_s);
    char ttft[48] = "";
    if (p->ttft_p50_ms >= 0) snprintf(ttft, sizeof ttft, " TTFT p50 %.1f ms,", p->ttft_p50_ms);
    /* The last line gives the phase's own rate, not the last interval's. */
    double rate = final && p->elapsed_s > 0 ? (double)p->done / p->elapsed_s : p->requests_per_s;
    char took[32] = "";
    if (final)
        snprintf(took, sizeof took, p->elapsed_s < 10 ? " in %.2fs" : " in %.1fs", p->elapsed_s);
    if (p->status_line)
        snprintf(line, sizeof line, "%s: %s (%.0fs)", p->phase ? p->phase : "", p->status_line,
                 p->elapsed_s);
    else if (p->total > 0)
        snprintf(line, sizeof line,
                 "%s: %lld/%lld requests%s, %.1f req/s,%s %lld errors, %lld in flight%s",
                 p->phase ? p->phase : "", (long long)p->done, (long long)p->total, took, rate,
                 ttft, (long long)p->errors, (long long)p->in_flight, eta);
    else
        snprintf(line, sizeof line, "%s: %lld requests, %.1f req/s,%s %lld errors, %.0fs%s",
                 p->phase ? p->phase : "", (long long)p->done, p->requests_per_s, ttft,
                 (long long)p->errors, p->elapsed_s, eta);
    /* The phase's end is reported by the request that completes it and by the phase itself:
     * one line. */
    static char last_final[96];
    char key[96];
    snprintf(key, sizeof key, "%s %lld/%lld", p->phase ? p->phase : "", (long long)p->done,
             (long long)p->total);
    if (final && strcmp(key, last_final) == 0) return;
    if (final) snprintf(last_final, sizeof last_final, "%s", key);
    if (progress_mode == PROGRESS_BAR) {
        fprintf(stderr, "\r\033[K%s", line);
        bar_open = 1;
    } else {
        fprintf(stderr, "smfw: %s\n", line);
    }
    fflush(stderr);
}

void smfw_cli_progress_end(void) {
    if (bar_open) {
        fputc('\n', stderr);
        bar_open = 0;
    }
}
