/* ISA-L's per-instruction-set igzip entry points: the Adler-32 ones run stoa's code within their
 * instruction set (common/x86/isal_sets.h), as every such name does; stoa has one histogram
 * routine, portable, which both histogram names run. */
#include "../inflate_internal.h"
#include "common/x86/isal_sets.h"
#include "isa-l/igzip_lib.h"
#include "isal_names.h"

#define ADLER_PARAMS (uint32_t init, const unsigned char *buf, uint64_t len)
#define ADLER_ARGS   (init, buf, len)

uint32_t adler32_sse ADLER_PARAMS;
uint32_t adler32_avx2_4 ADLER_PARAMS;
STOA_DISPATCH_WITHIN(uint32_t, adler32_sse, "isal_adler32", ISAL_SET_sse, ADLER_PARAMS, ADLER_ARGS)
STOA_DISPATCH_WITHIN(uint32_t, adler32_avx2_4, "isal_adler32", ISAL_SET_avx2, ADLER_PARAMS,
                     ADLER_ARGS)

void isal_update_histogram_01(uint8_t *in, int length, struct isal_huff_histogram *histogram);
void isal_update_histogram_04(uint8_t *in, int length, struct isal_huff_histogram *histogram);

STOA_API void isal_update_histogram_01(uint8_t *in, int length,
                                       struct isal_huff_histogram *histogram)
{
	isal_update_histogram(in, length, histogram);
}

STOA_API void isal_update_histogram_04(uint8_t *in, int length,
                                       struct isal_huff_histogram *histogram)
{
	isal_update_histogram(in, length, histogram);
}

STOA_ISAL_NAME(adler32_sse, "isal_adler32", ISAL_SET_sse, 0)
STOA_ISAL_NAME(adler32_avx2_4, "isal_adler32", ISAL_SET_avx2, 0)
/* No set: stoa has one histogram routine, portable. */
STOA_ISAL_NAME(isal_update_histogram_01, NULL, 0, 0)
STOA_ISAL_NAME(isal_update_histogram_04, NULL, 0, 0)
