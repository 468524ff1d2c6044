/*
 * bench_crc32.c - CRC-32 over a buffer, by either implementation.
 *
 *   bench_crc32 [ITERATIONS] [pclmul|portable] [LENGTH]
 *
 * Prints nanoseconds per KB (median of 9 rounds; wall time, so noisy on a
 * loaded machine: bench/callgrind_primitives.sh counts instructions) and the
 * CRC, which must be the same for both implementations.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crc32_internal.h"

#define ROUNDS 9

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    const char *impl = argc > 2 ? argv[2] : "pclmul";
    long len = argc > 3 ? strtol(argv[3], NULL, 10) : 1024;
    int clmul = strcmp(impl, "pclmul") == 0;
    if (iters < ROUNDS || len < 1 || (!clmul && strcmp(impl, "portable") != 0)) {
        fprintf(stderr, "usage: bench_crc32 [ITERATIONS>=9] [pclmul|portable] [LENGTH>0]\n");
        return 1;
    }
    if (clmul && !crc32_clmul_available()) {
        fprintf(stderr, "bench_crc32: this CPU has no PCLMULQDQ/SSE4.1\n");
        return 1;
    }
    unsigned char *buf = malloc((size_t)len);
    if (!buf) return 1;
    for (long i = 0; i < len; i++) buf[i] = (unsigned char)(i * 131 + 7);
    uint32_t crc = 0;
    double per_round[ROUNDS];
    long per = iters / ROUNDS;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_ns();
        for (long i = 0; i < per; i++)
            crc =
                clmul ? crc32_clmul(crc, buf, (size_t)len) : crc32_portable(crc, buf, (size_t)len);
        per_round[r] = (now_ns() - t0) / (double)per;
    }
    qsort(per_round, ROUNDS, sizeof(double), cmp_double);
    printf("crc32 %s: %ld x %ld bytes, median %.1f ns per call, %.1f ns per KB; crc %08x\n", impl,
           per * ROUNDS, len, per_round[ROUNDS / 2], per_round[ROUNDS / 2] * 1024.0 / (double)len,
           crc);
    free(buf);
    return 0;
}
