/* stoa: multiplying a buffer by one GF(2^8) constant, with ISA-L's names and conventions.
 *
 * The field is GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11D). A constant c is handed to the
 * vector functions as a 32-byte table made by gf_vect_mul_init: the products of c with 0..15,
 * then with 0x00, 0x10, ..., 0xF0. The table is the same bytes on every CPU. */
#ifndef STOA_ISAL_GF_VECT_MUL_H
#define STOA_ISAL_GF_VECT_MUL_H

#include "isal_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes c's 32-byte table to gftbl. */
void gf_vect_mul_init(unsigned char c, unsigned char *gftbl);

/* dest[i] = c * src[i] for i < len, c being the constant whose table is gftbl. src and dest may
 * be the same buffer. Returns 0, or -1 (and writes nothing) for a negative len or a NULL
 * pointer. ISA-L asks for a len that is a multiple of 32 and fails otherwise; stoa takes any
 * len and does not need aligned buffers. */
int gf_vect_mul(int len, unsigned char *gftbl, void *src, void *dest);

/* The portable version, same results. Like ISA-L's it reads only gftbl[1] (c itself). ISA-L
 * 2.30 declares it void, later releases int; the int form serves callers of both. */
int gf_vect_mul_base(int len, unsigned char *gftbl, unsigned char *src, unsigned char *dest);
/* gf_vect_mul_init under the name ISA-L 2.31 and later also export. */
void gf_vect_mul_init_base(unsigned char c, unsigned char *gftbl);

#if defined(__x86_64__) || defined(__i386__)
/* ISA-L's names for one instruction set each, kept for old callers: gf_vect_mul limited to that
 * set (SSE4 or AVX), never running code beyond it. */
ISAL_LIB_DEPRECATED("Please use gf_vect_mul() instead.")
int gf_vect_mul_sse(int len, unsigned char *gftbl, void *src, void *dest);
ISAL_LIB_DEPRECATED("Please use gf_vect_mul() instead.")
int gf_vect_mul_avx(int len, unsigned char *gftbl, void *src, void *dest);
#endif

#ifdef __cplusplus
}
#endif

#endif
