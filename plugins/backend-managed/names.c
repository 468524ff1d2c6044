/* names.c - unique, readable names for workload configs and benchmark jobs (AIEntityName). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <smfw/clock.h>

#include "managed.h"

int managed_name_valid(const char *name) {
    size_t n = strlen(name);
    if (n < 1 || n > 63) return 0;
    if (!isalnum((unsigned char)name[0]) || !isalnum((unsigned char)name[n - 1])) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '-') return 0;
    return 1;
}

void managed_name_make(const char *prefix, const char *target, long long now, unsigned rnd,
                       char *out, size_t size) {
    time_t t = (time_t)now;
    struct tm tm;
    gmtime_r(&t, &tm);
    char suffix[40];
    snprintf(suffix, sizeof suffix, "%04d%02d%02d-%02d%02d%02d-%04x", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, rnd & 0xffffu);
    /* The target, reduced to letters, digits and single hyphens. */
    char clean[64];
    size_t o = 0;
    int dash = 0;
    for (const char *p = target ? target : ""; *p && o < sizeof clean - 1; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && o) clean[o++] = '-';
            if (o < sizeof clean - 1) clean[o++] = *p;
            dash = 0;
        } else
            dash = 1;
    }
    clean[o] = '\0';
    size_t budget = 63 - strlen(prefix) - strlen(suffix) - 2;
    if (strlen(clean) > budget) clean[budget] = '\0';
    while (o = strlen(clean), o && clean[o - 1] == '-') clean[o - 1] = '\0';
    if (clean[0])
        snprintf(out, size, "%s-%s-%s", prefix, clean, suffix);
    else
        snprintf(out, size, "%s-%s", prefix, suffix);
}

unsigned managed_name_random(void) {
    unsigned v = 0;
    FILE *fp = fopen("/dev/urandom", "rb");
    if (fp) {
        if (fread(&v, sizeof v, 1, fp) != 1) v = 0;
        fclose(fp);
    }
    return v ^ (unsigned)getpid() ^ (unsigned)smfw_now_mono_ns();
}
