/* The portable Huffman block decoder: the template with 16-byte match steps. */
#define INF_FN inflate_huff_base
#define INF_CHUNK 16
#include "inflate_tpl.h"
