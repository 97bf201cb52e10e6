/* Checksums that copy as they go (internal header): inflate's stored blocks take one pass over
 * their bytes instead of a copy and then a checksum. Each is dispatched by the module that owns
 * its checksum and called from igzip/. */
#ifndef STOA_COPY_CHECKS_H
#define STOA_COPY_CHECKS_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Copy src[0, len) to dst (not overlapping) and return crc32_gzip_refl(init, src, len): one pass
 * where the CRC engine has a copying form (crc/crc_dispatch.c). */
uint32_t inf_crc32_gzip_copy(uint32_t init, uint8_t *dst, const uint8_t *src, uint64_t len);

/* The same with the Adler-32 of the bytes from init (igzip/inflate_dispatch.c). */
uint32_t inf_adler32_copy(uint32_t init, unsigned char *dst, const unsigned char *src,
                          uint64_t len);

#pragma GCC visibility pop

#endif
