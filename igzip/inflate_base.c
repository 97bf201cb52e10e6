/* The portable Huffman block decoder: the template with 16-byte match steps. */
#include "inflate_internal.h"

static inline __attribute__((always_inline)) void copy16_base(uint8_t *dst, const uint8_t *src)
{
	uint8_t tmp[16];
	memcpy(tmp, src, 16);
	memcpy(dst, tmp, 16);
}

#define INF_FN                              inflate_huff_portable
#define INF_CHUNK                           16
#define INF_COPY_CHUNK(dst, src)            copy16_base(dst, src)
#define INF_COPY_SHORT(out, src, end, dist) inf_copy_short_portable(out, src, end, dist)
#include "inflate_tpl.h"
