/*
 * util.c - small helpers shared by the mock's modules: a seedable RNG, a
 * buffer's XML escaping, URI/form decoding, time formats, ids, name checks.
 */
#include "mock.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <smfw/untrusted.h>

/* splitmix64: tiny, seedable, statistically fine for latencies and fault draws. */
uint64_t mock_rng_next(mock_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double mock_rng_uniform(mock_rng *r) {
    return (double)(mock_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

double mock_rng_normal(mock_rng *r, double mean, double stddev) {
    if (stddev <= 0) return mean;
    double u1 = mock_rng_uniform(r), u2 = mock_rng_uniform(r);
    if (u1 < 1e-300) u1 = 1e-300;
    return mean + stddev * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

void mock_xml_append(smfw_buf *b, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '&':
            smfw_buf_puts(b, "&amp;");
            break;
        case '<':
            smfw_buf_puts(b, "&lt;");
            break;
        case '>':
            smfw_buf_puts(b, "&gt;");
            break;
        case '"':
            smfw_buf_puts(b, "&quot;");
            break;
        case '\'':
            smfw_buf_puts(b, "&apos;");
            break;
        default:
            smfw_buf_append(b, s, 1);
        }
    }
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int mock_uri_decode(const char *in, size_t len, char *out, size_t out_size, int plus_is_space) {
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        int c = (unsigned char)in[i];
        if (c == '%') {
            if (len - i < 3) return -1;
            int h = hexval(in[i + 1]), l = hexval(in[i + 2]);
            if (h < 0 || l < 0) return -1;
            c = h * 16 + l;
            i += 2;
        } else if (c == '+' && plus_is_space) {
            c = ' ';
        }
        if (o + 1 >= out_size) return -1;
        out[o++] = (char)c;
    }
    if (out_size == 0) return -1;
    out[o] = '\0';
    return (int)o;
}

int mock_form_get(const char *query, const char *key, char *out, size_t out_size) {
    size_t klen = strlen(key);
    const char *p = query;
    while (p && *p) {
        const char *amp = strchr(p, '&');
        size_t n = amp ? (size_t)(amp - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        size_t name_len = eq ? (size_t)(eq - p) : n;
        char name[256];
        if (name_len < sizeof name && mock_uri_decode(p, name_len, name, sizeof name, 1) >= 0 &&
            strlen(name) == klen && memcmp(name, key, klen) == 0) {
            if (!eq) {
                if (out_size) out[0] = '\0';
                return 1;
            }
            return mock_uri_decode(eq + 1, n - name_len - 1, out, out_size, 1) >= 0 ? 1 : 0;
        }
        p = amp ? amp + 1 : NULL;
    }
    return 0;
}

void mock_iso8601(double unix_s, char out[32], int millis) {
    time_t t = (time_t)floor(unix_s);
    struct tm tm;
    gmtime_r(&t, &tm);
    size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    if (millis)
        snprintf(out + n, 32 - n, ".%03dZ", (int)((unix_s - floor(unix_s)) * 1000.0));
    else
        snprintf(out + n, 32 - n, "Z");
}

double mock_now_unix(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void mock_new_request_id(char out[37]) {
    static mock_rng rng;
    if (rng.s == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        rng.s = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ 0x5EED;
    }
    /* A version-4 UUID, formatted by hand (this runs for every request). */
    static const char hex[] = "0123456789abcdef";
    uint64_t a = mock_rng_next(&rng), b = mock_rng_next(&rng);
    a = (a & ~0xF000ULL) | 0x4000ULL;                 /* version 4 */
    b = (b & ~(0xC000ULL << 48)) | (0x8000ULL << 48); /* variant 10 */
    int o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 8 || i == 12) out[o++] = '-';
        out[o++] = hex[(a >> (60 - 4 * i)) & 15];
    }
    for (int i = 0; i < 16; i++) {
        if (i == 0 || i == 4) out[o++] = '-';
        out[o++] = hex[(b >> (60 - 4 * i)) & 15];
    }
    out[o] = '\0';
}

int mock_name_valid(const char *s, size_t max) {
    size_t n = strlen(s);
    if (n == 0 || n > max) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && c != '-') return 0;
    }
    return s[0] != '-' && s[n - 1] != '-';
}

int mock_write_file(const char *path, const void *data, size_t len) {
    char tmp[4400];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) return -1;
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    int ok = (len == 0 || fwrite(data, 1, len, f) == len);
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

int mock_mkdirs(const char *path) {
    return smfw_mkdir_p(path, 0700, NULL); /* the mock's state is private to its user */
}
