/*
 * crc32.h - CRC-32/ISO-HDLC (the zlib / PNG / Ethernet CRC).
 *
 * Reflected polynomial 0xEDB88320, initial value 0xFFFFFFFF, final xor
 * 0xFFFFFFFF; the check value of "123456789" is 0xCBF43926. This is the CRC
 * the AWS event-stream framing uses for its prelude and message checksums.
 * OpenSSL has no CRC-32 and zlib is not a dependency, hence this one:
 * PCLMULQDQ folding on x86-64 CPUs that have it (about 10 GB/s), slicing-by-8
 * elsewhere or with SMFW_CRC32=portable in the environment (about 1 GB/s).
 */
#ifndef SMFW_CRC32_H
#define SMFW_CRC32_H

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Continue a CRC-32 over `len` bytes of `data`, zlib style: start with
 * crc = 0, and pass the previous result to continue over more bytes, so
 * smfw_crc32(smfw_crc32(0, a, n), b, m) equals the CRC of a followed by b.
 * `data` may be NULL when len is 0.
 */
SMFW_API uint32_t smfw_crc32(uint32_t crc, const void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_CRC32_H */
