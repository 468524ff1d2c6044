/*
 * crc32.c - CRC-32/ISO-HDLC: PCLMULQDQ folding on x86-64 CPUs that have it,
 * slicing-by-8 everywhere else.
 *
 * The folding path is Intel's "Fast CRC Computation for Generic Polynomials
 * Using PCLMULQDQ" (Gopal et al., 2009) in the bit-reflected domain, as zlib
 * and the Linux kernel use it: four 128-bit lanes fold 64 bytes per step, then
 * one lane 16 bytes per step, then a Barrett reduction to 32 bits. It needs no
 * -march: the functions carry their own target attribute and run only after
 * CPUID said yes. The SSE4.2 crc32 instruction would be CRC-32C, the wrong
 * polynomial for the event stream. Slicing-by-8 stays as the check (the unit
 * test compares both on every length and alignment) and as the fallback;
 * SMFW_CRC32=portable forces it.
 *
 * The tables are computed once (pthread_once) rather than stored, which keeps
 * the source short and obviously derived from the polynomial.
 */
#include "crc32_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CRC32_HAVE_CLMUL 1
#include <smmintrin.h>
#include <wmmintrin.h>
#else
#define CRC32_HAVE_CLMUL 0
#endif

#define CRC32_POLY_REFLECTED 0xEDB88320u

typedef uint32_t (*crc32_fn)(uint32_t crc, const void *data, size_t len);

static uint32_t crc32_table[8][256];
static pthread_once_t crc32_once = PTHREAD_ONCE_INIT;
static crc32_fn crc32_impl;

static void crc32_build_tables(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1u) ? (c >> 1) ^ CRC32_POLY_REFLECTED : c >> 1;
        crc32_table[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = crc32_table[0][n];
        for (int t = 1; t < 8; t++) {
            c = crc32_table[0][c & 0xFFu] ^ (c >> 8);
            crc32_table[t][n] = c;
        }
    }
}

/* Little-endian load independent of host byte order and alignment. */
static inline uint32_t crc32_load_le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Slicing-by-8 on the register value (the CRC before its final inversion). */
static uint32_t crc32_slice8(uint32_t c, const unsigned char *p, size_t len) {
    while (len >= 8) {
        uint32_t lo = crc32_load_le32(p) ^ c;
        uint32_t hi = crc32_load_le32(p + 4);
        c = crc32_table[7][lo & 0xFFu] ^ crc32_table[6][(lo >> 8) & 0xFFu] ^
            crc32_table[5][(lo >> 16) & 0xFFu] ^ crc32_table[4][lo >> 24] ^
            crc32_table[3][hi & 0xFFu] ^ crc32_table[2][(hi >> 8) & 0xFFu] ^
            crc32_table[1][(hi >> 16) & 0xFFu] ^ crc32_table[0][hi >> 24];
        p += 8;
        len -= 8;
    }
    while (len--) c = crc32_table[0][(c ^ *p++) & 0xFFu] ^ (c >> 8);
    return c;
}

static uint32_t crc32_run_portable(uint32_t crc, const void *data, size_t len) {
    return ~crc32_slice8(~crc, data, len);
}

#if CRC32_HAVE_CLMUL
/*
 * Fold len bytes (len >= 64, a multiple of 16) into the register value c. The
 * constants are x^(k) mod P for the fold distances, bit-reflected and shifted
 * by one: k1,k2 fold across 512 bits, k3,k4 across 128, k5 from 64 to 32 bits;
 * the last pair is P itself and the Barrett constant floor(x^64 / P).
 */
__attribute__((target("pclmul,sse4.1"))) static uint32_t
crc32_clmul_blocks(uint32_t c, const unsigned char *p, size_t len) {
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);

    __m128i x1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x00));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x10));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x20));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x30));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)c));
    p += 64;
    len -= 64;

    /* Four lanes, 64 bytes per step. */
    while (len >= 64) {
        __m128i x5 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
        __m128i x6 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
        __m128i x7 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
        __m128i x8 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
        x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
        x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
        x4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x5),
                           _mm_loadu_si128((const __m128i *)(const void *)(p + 0x00)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, x6),
                           _mm_loadu_si128((const __m128i *)(const void *)(p + 0x10)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, x7),
                           _mm_loadu_si128((const __m128i *)(const void *)(p + 0x20)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, x8),
                           _mm_loadu_si128((const __m128i *)(const void *)(p + 0x30)));
        p += 64;
        len -= 64;
    }

    /* The four lanes into one. */
    __m128i x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x2), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x3), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x4), x5);

    /* One lane, 16 bytes per step. */
    while (len >= 16) {
        x2 = _mm_loadu_si128((const __m128i *)(const void *)p);
        x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
        x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x2), x5);
        p += 16;
        len -= 16;
    }

    /* 128 bits to 64. */
    x2 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_and_si128(x1, low32);
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, k5k0, 0x00), x2);

    /* Barrett reduction to 32 bits. */
    x2 = _mm_and_si128(x1, low32);
    x2 = _mm_clmulepi64_si128(x2, poly, 0x10);
    x2 = _mm_and_si128(x2, low32);
    x2 = _mm_clmulepi64_si128(x2, poly, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}

static uint32_t crc32_run_clmul(uint32_t crc, const void *data, size_t len) {
    const unsigned char *p = data;
    uint32_t c = ~crc;
    if (len >= 64) {
        size_t bulk = len & ~(size_t)15;
        c = crc32_clmul_blocks(c, p, bulk);
        p += bulk;
        len -= bulk;
    }
    return ~crc32_slice8(c, p, len);
}

static int crc32_cpu_has_clmul(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}
#else
static uint32_t crc32_run_clmul(uint32_t crc, const void *data, size_t len) {
    return crc32_run_portable(crc, data, len);
}

static int crc32_cpu_has_clmul(void) {
    return 0;
}
#endif

static void crc32_pick(const char *choice) {
    int portable = (choice && strcmp(choice, "portable") == 0) || !crc32_cpu_has_clmul();
    crc32_impl = portable ? crc32_run_portable : crc32_run_clmul;
}

static void crc32_init(void) {
    crc32_build_tables();
    crc32_pick(getenv("SMFW_CRC32"));
}

uint32_t crc32_portable(uint32_t crc, const void *data, size_t len) {
    pthread_once(&crc32_once, crc32_init);
    return crc32_run_portable(crc, data, len);
}

int crc32_clmul_available(void) {
    return crc32_cpu_has_clmul();
}

uint32_t crc32_clmul(uint32_t crc, const void *data, size_t len) {
    pthread_once(&crc32_once, crc32_init);
    return crc32_run_clmul(crc, data, len);
}

void crc32_select(const char *choice) {
    pthread_once(&crc32_once, crc32_init);
    crc32_pick(choice);
}

const char *crc32_implementation(void) {
    pthread_once(&crc32_once, crc32_init);
    return crc32_impl == crc32_run_portable ? "portable" : "pclmul";
}

SMFW_API uint32_t smfw_crc32(uint32_t crc, const void *data, size_t len) {
    pthread_once(&crc32_once, crc32_init);
    return crc32_impl(crc, data, len);
}
