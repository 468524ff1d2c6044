/*
 * crc32.c - CRC-32/ISO-HDLC, slicing-by-8.
 *
 * Eight 256-entry tables let the loop fold eight input bytes per step; the
 * tables are computed once (pthread_once) rather than stored, which keeps the
 * source short and obviously derived from the polynomial.
 */
#include <smfw/crc32.h>

#include <pthread.h>

#define CRC32_POLY_REFLECTED 0xEDB88320u

static uint32_t crc32_table[8][256];
static pthread_once_t crc32_once = PTHREAD_ONCE_INIT;

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

SMFW_API uint32_t smfw_crc32(uint32_t crc, const void *data, size_t len) {
    pthread_once(&crc32_once, crc32_build_tables);
    const unsigned char *p = data;
    uint32_t c = ~crc;
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
    return ~c;
}
