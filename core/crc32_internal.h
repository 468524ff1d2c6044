/*
 * crc32_internal.h - the two CRC-32 implementations behind smfw_crc32(), for
 * the tests that check one against the other (internal).
 */
#ifndef SMFW_CRC32_INTERNAL_H
#define SMFW_CRC32_INTERNAL_H

#include <smfw/crc32.h>

/* Portable slicing-by-8: the reference, and the path on CPUs without PCLMULQDQ. */
uint32_t crc32_portable(uint32_t crc, const void *data, size_t len);

/* 1 when this CPU (x86-64 with PCLMULQDQ and SSE4.1) can run crc32_clmul(). */
int crc32_clmul_available(void);

/* Carry-less multiplication folding; only where crc32_clmul_available(). */
uint32_t crc32_clmul(uint32_t crc, const void *data, size_t len);

/*
 * Pick the implementation smfw_crc32() uses, as at start-up from the
 * environment: "portable" (SMFW_CRC32=portable) forces the slicing path,
 * anything else (NULL included) takes PCLMULQDQ where the CPU has it. For
 * tests; not thread-safe against concurrent smfw_crc32() calls.
 */
void crc32_select(const char *choice);

/* "pclmul" or "portable": what smfw_crc32() runs now. */
const char *crc32_implementation(void);

#endif
