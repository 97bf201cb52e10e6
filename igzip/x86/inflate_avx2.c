/* The Huffman block decoder built for AVX2 + BMI1/BMI2 (shrx/bzhi for the bit reader, 32-byte
 * match steps). */
#define INF_FN inflate_huff_avx2
#define INF_CHUNK 32
#include "../inflate_tpl.h"
