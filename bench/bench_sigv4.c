/*
 * bench_sigv4.c - nanoseconds per SigV4 signature of a SageMaker streaming
 * request with a 2 KB chat body, through the public API (libsmfw).
 *
 *   bench_sigv4 [ITERATIONS] [body|hashed]
 *
 * "body" (the default, issue 16's figure) hashes the body on every
 * signature; "hashed" passes its SHA-256 precomputed, as the direct backend
 * does (one hash per prompt, not per request). The same signer serves every
 * call, so after the first the signing key comes from its cache, as in a run.
 * Wall time is the median of 9 rounds (a loaded machine inflates it; callgrind,
 * bench/callgrind_primitives.sh, counts instructions instead). The last
 * signature is printed so a change that alters it is seen.
 */
#include <smfw/sigv4.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* A chat-completions body of exactly `len` bytes (a user message padded with text). */
static char *chat_body(size_t len) {
    static const char head[] = "{\"messages\":[{\"role\":\"user\",\"content\":\"";
    static const char tail[] = "\"}],\"max_tokens\":32,\"stream\":true}";
    char *b = malloc(len + 1);
    if (!b) return NULL;
    size_t h = sizeof head - 1, t = sizeof tail - 1;
    memcpy(b, head, h);
    static const char words[] = "the quick brown fox jumps over the lazy dog ";
    for (size_t i = h; i < len - t; i++) b[i] = words[(i - h) % (sizeof words - 1)];
    memcpy(b + len - t, tail, t);
    b[len] = '\0';
    return b;
}

int main(int argc, char **argv) {
    long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    const char *mode = argc > 2 ? argv[2] : "body";
    int hashed = strcmp(mode, "hashed") == 0;
    if (iters < 1 || (!hashed && strcmp(mode, "body") != 0)) {
        fprintf(stderr, "usage: bench_sigv4 [ITERATIONS>0] [body|hashed]\n");
        return 1;
    }
    size_t body_len = 2048;
    char *body = chat_body(body_len);
    if (!body) return 1;
    /* The payload hash the direct backend keeps per prompt. */
    char body_sha[65] = "";
    if (hashed) {
        smfw_sigv4_signer *tmp = NULL;
        smfw_error err;
        smfw_aws_credentials c = {"AKIDBENCH", "bench-secret", NULL, 0, NULL, "bench"};
        smfw_sigv4_header h[] = {{"Host", "runtime.sagemaker.us-east-1.amazonaws.com"}};
        smfw_sigv4_request r = {"POST", "/", NULL, h, 1, body, body_len, NULL};
        smfw_sigv4_signature s;
        if (smfw_sigv4_signer_new("us-east-1", "sagemaker", 0, &tmp, &err) != SMFW_OK ||
            smfw_sigv4_sign(tmp, &c, &r, 0, 1764633600, &s, &err) != SMFW_OK)
            return 1;
        memcpy(body_sha, s.payload_hash, sizeof body_sha);
        smfw_sigv4_signature_free(&s);
        smfw_sigv4_signer_free(tmp);
    }

    smfw_sigv4_signer *signer = NULL;
    smfw_error err;
    if (smfw_sigv4_signer_new("us-east-1", "sagemaker", 0, &signer, &err) != SMFW_OK) {
        fprintf(stderr, "bench_sigv4: %s\n", err.message);
        return 1;
    }
    smfw_aws_credentials creds = {
        "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", NULL, 0, NULL, "bench"};
    char request_id[40];
    smfw_sigv4_header h[] = {
        {"Host", "runtime.sagemaker.us-east-1.amazonaws.com"},
        {"Content-Type", "application/json"},
        {"X-Amzn-SageMaker-Accept", "application/json"},
        {"X-Amzn-SageMaker-Inference-Id", request_id},
    };
    smfw_sigv4_request req = {"POST",
                              "/endpoints/my-endpoint/invocations-response-stream",
                              NULL,
                              h,
                              sizeof h / sizeof h[0],
                              body,
                              body_len,
                              hashed ? body_sha : NULL};
    smfw_sigv4_signature sig;
    memset(&sig, 0, sizeof sig);
    double per_round[ROUNDS];
    long per = iters / ROUNDS > 0 ? iters / ROUNDS : 1;
    long done = 0;
    for (int r = 0; r < ROUNDS && done < iters; r++) {
        long n = r == ROUNDS - 1 ? iters - done : per;
        double t0 = now_ns();
        for (long i = 0; i < n; i++) {
            snprintf(request_id, sizeof request_id, "req-%08ld", (done + i) % 100000000L);
            smfw_sigv4_signature_free(&sig);
            if (smfw_sigv4_sign(signer, &creds, &req, 0, 1764633600 + (done + i) % 60, &sig,
                                &err) != SMFW_OK) {
                fprintf(stderr, "bench_sigv4: %s\n", err.message);
                return 1;
            }
        }
        per_round[r] = n ? (now_ns() - t0) / (double)n : 0;
        done += n;
    }
    int rounds = done >= ROUNDS * per ? ROUNDS : (int)(done / per);
    if (rounds < 1) rounds = 1;
    qsort(per_round, (size_t)rounds, sizeof(double), cmp_double);
    printf("sigv4 %s: %ld signatures of a %zu-byte body, median %.0f ns per signature "
           "(best round %.0f)\n",
           hashed ? "precomputed payload hash" : "incl. body SHA-256", done, body_len,
           per_round[rounds / 2], per_round[0]);
    printf("last signature %s\n", sig.signature);
    smfw_sigv4_signature_free(&sig);
    smfw_sigv4_signer_free(signer);
    free(body);
    return 0;
}
