/* The vector vocabulary of the multi-lane hash engines, one vector lane per message.
 *
 * Parameters, set by the including file (the template takes them on and #undefs them):
 *   HV_BITS   512 (AVX-512: 16 x 32-bit or 8 x 64-bit lanes), 256 (AVX2: 8 or 4) or 128 (SSSE3
 *             and SSE4.1: 4 or 2)
 *   HV_W      32 or 64, the word size of the hash
 * Provides: V (the vector type), HV_LANES, V_ADD32/64 V_XOR V_AND V_OR V_ROL32 V_ROL1_32 V_ROR32/64
 * V_SHR32/64 V_SET1_32/64 V_LOADU V_STOREU V_SHUF8 V_BCAST128, the three-input functions
 * V_XOR3 V_CH (x ? y : z) V_MAJ V_MD5I (y ^ (x | ~z)) V_SEL (s ? x : y), the byte-swap
 * patterns hv_bswap32/64, and hv_load_block(w, data, off): w[0..15] the 16 message words at
 * byte offset off of every lane's data pointer, word i of lane l in lane l of w[i] (a transpose
 * of the lanes' rows). AVX-512 does the three-input functions in one vpternlog and rotates in
 * one instruction; the narrower widths compose them. A file includes it for one HV_BITS and HV_W only. */
#ifndef STOA_HASH_VEC_H
#define STOA_HASH_VEC_H

#include <immintrin.h>

#if HV_BITS == 512
typedef __m512i V;
#define V_ADD32                _mm512_add_epi32
#define V_ADD64                _mm512_add_epi64
#define V_XOR                  _mm512_xor_si512
#define V_AND                  _mm512_and_si512
#define V_OR                   _mm512_or_si512
#define V_LOADU(p)             _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, v)         _mm512_storeu_si512((void *)(p), v)
#define V_ROL32                _mm512_rol_epi32
#define V_ROL1_32(x)           _mm512_rol_epi32(x, 1)
#define V_ROR32                _mm512_ror_epi32
#define V_ROR64                _mm512_ror_epi64
#define V_SHR32                _mm512_srli_epi32
#define V_SHR64                _mm512_srli_epi64
#define V_SET1_32(x)           _mm512_set1_epi32((int)(x))
#define V_SET1_64(x)           _mm512_set1_epi64((long long)(x))
#define V_TERN32(x, y, z, imm) _mm512_ternarylogic_epi32(x, y, z, imm)
#define V_TERN64(x, y, z, imm) _mm512_ternarylogic_epi64(x, y, z, imm)
/* vpternlog overwrites its first operand, which then needs a copy when it lives on; callers
 * pass the oldest value as z and it goes first, so the copy is off the rounds' critical path.
 * Truth tables with the operands in that order: z = 0xf0, x = 0xcc, y = 0xaa. */
#define V_XOR3_32(x, y, z) V_TERN32(z, x, y, 0x96)
#define V_CH_32(x, y, z)   V_TERN32(z, x, y, 0xb8)
#define V_MAJ_32(x, y, z)  V_TERN32(z, x, y, 0xe8)
#define V_MD5I_32(x, y, z) V_TERN32(z, x, y, 0x65)
#define V_SEL_32(s, x, y)  V_TERN32(s, x, y, 0xca) /* s ? x : y, s oldest */
/* The same functions writing over x, for a caller whose x dies there (x = 0xf0). */
#define V_CHX_32(x, y, z)   V_TERN32(x, y, z, 0xca)
#define V_MAJX_32(x, y, z)  V_TERN32(x, y, z, 0xe8)
#define V_XOR3X_32(x, y, z) V_TERN32(x, y, z, 0x96)
#define V_XOR3_64(x, y, z)  V_TERN64(z, x, y, 0x96)
#define V_CH_64(x, y, z)    V_TERN64(z, x, y, 0xb8)
#define V_MAJ_64(x, y, z)   V_TERN64(z, x, y, 0xe8)
#define V_SHUF8             _mm512_shuffle_epi8
#define V_BCAST128(p)       _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(p)))
#elif HV_BITS == 256
typedef __m256i V;
#define V_ADD32            _mm256_add_epi32
#define V_ADD64            _mm256_add_epi64
#define V_XOR              _mm256_xor_si256
#define V_AND              _mm256_and_si256
#define V_OR               _mm256_or_si256
#define V_LOADU(p)         _mm256_loadu_si256((const __m256i *)(p))
#define V_STOREU(p, v)     _mm256_storeu_si256((__m256i *)(p), v)
#define V_ROL32(x, n)      _mm256_or_si256(_mm256_slli_epi32(x, n), _mm256_srli_epi32(x, 32 - (n)))
#define V_ROL1_32(x)       hv_rol1_32(x)
#define V_ROR32(x, n)      _mm256_or_si256(_mm256_srli_epi32(x, n), _mm256_slli_epi32(x, 32 - (n)))
#define V_ROR64(x, n)      _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - (n)))
#define V_SHR32            _mm256_srli_epi32
#define V_SHR64            _mm256_srli_epi64
#define V_SET1_32(x)       _mm256_set1_epi32((int)(x))
#define V_SET1_64(x)       _mm256_set1_epi64x((long long)(x))
#define V_XOR3_32(x, y, z) V_XOR(V_XOR(x, y), z)
#define V_CH_32(x, y, z)   V_XOR(z, V_AND(x, V_XOR(y, z)))
#define V_MAJ_32(x, y, z)  V_OR(V_AND(x, y), V_AND(z, V_OR(x, y)))
#define V_MD5I_32(x, y, z) V_XOR(y, V_OR(x, V_XOR(z, _mm256_set1_epi32(-1))))
#define V_SEL_32(s, x, y)  V_CH_32(s, x, y)
#define V_CHX_32           V_CH_32
#define V_MAJX_32          V_MAJ_32
#define V_XOR3X_32         V_XOR3_32
#define V_XOR3_64          V_XOR3_32
#define V_CH_64            V_CH_32
#define V_MAJ_64           V_MAJ_32
#define V_SHUF8            _mm256_shuffle_epi8
#define V_BCAST128(p)      _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(p)))
#elif HV_BITS == 128
typedef __m128i V;
#define V_ADD32            _mm_add_epi32
#define V_ADD64            _mm_add_epi64
#define V_XOR              _mm_xor_si128
#define V_AND              _mm_and_si128
#define V_OR               _mm_or_si128
#define V_LOADU(p)         _mm_loadu_si128((const __m128i *)(p))
#define V_STOREU(p, v)     _mm_storeu_si128((__m128i *)(p), v)
#define V_ROL32(x, n)      _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - (n)))
#define V_ROL1_32(x)       hv_rol1_32(x)
#define V_ROR32(x, n)      _mm_or_si128(_mm_srli_epi32(x, n), _mm_slli_epi32(x, 32 - (n)))
#define V_ROR64(x, n)      _mm_or_si128(_mm_srli_epi64(x, n), _mm_slli_epi64(x, 64 - (n)))
#define V_SHR32            _mm_srli_epi32
#define V_SHR64            _mm_srli_epi64
#define V_SET1_32(x)       _mm_set1_epi32((int)(x))
#define V_SET1_64(x)       _mm_set1_epi64x((long long)(x))
#define V_XOR3_32(x, y, z) V_XOR(V_XOR(x, y), z)
#define V_CH_32(x, y, z)   V_XOR(z, V_AND(x, V_XOR(y, z)))
#define V_MAJ_32(x, y, z)  V_OR(V_AND(x, y), V_AND(z, V_OR(x, y)))
#define V_MD5I_32(x, y, z) V_XOR(y, V_OR(x, V_XOR(z, _mm_set1_epi32(-1))))
#define V_SEL_32(s, x, y)  V_CH_32(s, x, y)
#define V_CHX_32           V_CH_32
#define V_MAJX_32          V_MAJ_32
#define V_XOR3X_32         V_XOR3_32
#define V_XOR3_64          V_XOR3_32
#define V_CH_64            V_CH_32
#define V_MAJ_64           V_MAJ_32
#define V_SHUF8            _mm_shuffle_epi8
#define V_BCAST128(p)      _mm_loadu_si128((const __m128i *)(p))
/* SSE's shifts overwrite their source, so a rotate costs a copy of x for each of its halves. The
 * halves of a sum of rotates nest instead, x >> (a + b + c) ^ x >> (b + c) ^ x >> c =
 * ((x >> a ^ x) >> b ^ x) >> c, taking one copy of x per side: the sigma functions below use
 * these, with sh a shift intrinsic. */
#define HV_NEST3(sh, x, a, b, c) sh(V_XOR(sh(V_XOR(sh(x, a), x), b), x), c)
#define HV_NEST2(sh, x, a, b)    sh(V_XOR(sh(x, a), x), b)
/* A SHA-2 sigma on HV_W-bit words so nested: three rotates (HV_SIGMA), or two rotates and a
 * shift (HV_SIGMA_SHR, two left halves), given the nested right and left shift counts. */
#if HV_W == 32
#define HV_SRLI _mm_srli_epi32
#define HV_SLLI _mm_slli_epi32
#else
#define HV_SRLI _mm_srli_epi64
#define HV_SLLI _mm_slli_epi64
#endif
#define HV_SIGMA(x, r1, r2, r3, l1, l2, l3)                                                        \
	V_XOR(HV_NEST3(HV_SRLI, x, r1, r2, r3), HV_NEST3(HV_SLLI, x, l1, l2, l3))
#define HV_SIGMA_SHR(x, r1, r2, r3, l1, l2)                                                        \
	V_XOR(HV_NEST3(HV_SRLI, x, r1, r2, r3), HV_NEST2(HV_SLLI, x, l1, l2))
#else
#error "HV_BITS must be 128, 256 or 512"
#endif

#define HV_LANES (HV_BITS / HV_W)

#if HV_BITS != 512
/* x <<< 1 with the left shift as an add: vector shifts have one pipe on some cores (Zen 1). */
static inline __attribute__((always_inline)) V hv_rol1_32(V x)
{
	return V_OR(V_ADD32(x, x), V_SHR32(x, 31));
}
#endif

/* GCC's reassociation of the rounds' additions puts the newest value first again, lengthening
 * the dependency chain the templates order by hand (measured: 5-10% of throughput). */
#if defined(__GNUC__) && !defined(__clang__)
#define HV_KERNEL __attribute__((optimize("no-tree-reassoc")))
#else
#define HV_KERNEL
#endif

/* HV_PIN(x): x exists, in a register, at this point of the code. The compilers otherwise compute
 * a value with a single use just before that use, which can leave a vpternlog's first operand
 * alive past it and cost a register copy per round.
 * HV_FRESH(p): p, a pointer to round constants, read anew in each block, so gcc broadcasts
 * each constant where it is used instead of hoisting all of them out of the loop into stack
 * slots that each round then reloads. */
#if defined(__GNUC__)
#define HV_PIN(x)   __asm__("" : "+v"(x))
#define HV_FRESH(p) __asm__ volatile("" : "+r"(p))
#define HV_MEMORY() __asm__ volatile("" : : : "memory")
#else
#define HV_PIN(x)   ((void)0)
#define HV_FRESH(p) ((void)0)
#define HV_MEMORY() ((void)0)
#endif

/* The transposes' and byte swaps' loops unrolled, so their vectors stay in registers rather than
 * arrays on the stack (gcc otherwise keeps the outer loops, and -O2 keeps a 16-trip loop). */
#if defined(__clang__)
#define HV_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define HV_UNROLL _Pragma("GCC unroll 16")
#else
#define HV_UNROLL
#endif

/* Byte swaps of each 32- or 64-bit word, per 128-bit chunk. */
static const uint8_t hv_bswap32[16] = { 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12 };
static const uint8_t hv_bswap64[16] = { 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8 };

/* Transposes of vectors r[0..HV_LANES) (row l = lane l's words) into columns, for a vector
 * that holds HV_LANES words. Step A transposes small squares inside each 128-bit chunk (4 x 4
 * dwords or 2 x 2 qwords); step B moves whole chunks between vectors. */
#if HV_BITS == 512
static inline __attribute__((always_inline)) void hv_chunks4(V *s0, V *s1, V *s2, V *s3)
{
	/* A 4 x 4 transpose of 128-bit chunks across four vectors. */
	V x0 = _mm512_shuffle_i32x4(*s0, *s1, 0x44), x1 = _mm512_shuffle_i32x4(*s0, *s1, 0xee);
	V x2 = _mm512_shuffle_i32x4(*s2, *s3, 0x44), x3 = _mm512_shuffle_i32x4(*s2, *s3, 0xee);
	*s0 = _mm512_shuffle_i32x4(x0, x2, 0x88);
	*s1 = _mm512_shuffle_i32x4(x0, x2, 0xdd);
	*s2 = _mm512_shuffle_i32x4(x1, x3, 0x88);
	*s3 = _mm512_shuffle_i32x4(x1, x3, 0xdd);
}
#define V_UNPACKLO32 _mm512_unpacklo_epi32
#define V_UNPACKHI32 _mm512_unpackhi_epi32
#define V_UNPACKLO64 _mm512_unpacklo_epi64
#define V_UNPACKHI64 _mm512_unpackhi_epi64
#elif HV_BITS == 256
#define V_UNPACKLO32 _mm256_unpacklo_epi32
#define V_UNPACKHI32 _mm256_unpackhi_epi32
#define V_UNPACKLO64 _mm256_unpacklo_epi64
#define V_UNPACKHI64 _mm256_unpackhi_epi64
#else
#define V_UNPACKLO32 _mm_unpacklo_epi32
#define V_UNPACKHI32 _mm_unpackhi_epi32
#define V_UNPACKLO64 _mm_unpacklo_epi64
#define V_UNPACKHI64 _mm_unpackhi_epi64
#endif

#if HV_W == 32
/* Four rows (lanes 4m..4m+3) to four vectors whose chunk j holds word 4j+k of those lanes. */
static inline __attribute__((always_inline)) void hv_square4(V a, V b, V c, V d, V *s)
{
	V t0 = V_UNPACKLO32(a, b), t1 = V_UNPACKHI32(a, b);
	V t2 = V_UNPACKLO32(c, d), t3 = V_UNPACKHI32(c, d);
	s[0] = V_UNPACKLO64(t0, t2);
	s[1] = V_UNPACKHI64(t0, t2);
	s[2] = V_UNPACKLO64(t1, t3);
	s[3] = V_UNPACKHI64(t1, t3);
}

#if HV_BITS == 512
/* 16 lanes x 64 bytes. */
static inline __attribute__((always_inline)) void hv_load_block(V w[16], uint8_t *const *data,
                                                                size_t off)
{
	V s[4][4];
	HV_UNROLL
	for (int m = 0; m < 4; m++)
		hv_square4(V_LOADU(data[4 * m] + off), V_LOADU(data[4 * m + 1] + off),
		           V_LOADU(data[4 * m + 2] + off), V_LOADU(data[4 * m + 3] + off), s[m]);
	HV_UNROLL
	for (int k = 0; k < 4; k++) {
		hv_chunks4(&s[0][k], &s[1][k], &s[2][k], &s[3][k]);
		HV_UNROLL
		for (int j = 0; j < 4; j++)
			w[4 * j + k] = s[j][k];
	}
}

/* hv_load_block in eight pieces, for a caller that spreads them among its rounds: pieces 0-3
 * load lanes 4p..4p+3 and transpose their dwords within chunks into sq[p]; pieces 4-7 move
 * whole chunks of sq[0..3][p - 4] into w. */
static inline __attribute__((always_inline)) void hv_load_piece(V w[16], V sq[4][4],
                                                                uint8_t *const *data,
                                                                size_t off, int p)
{
	if (p < 4) {
		hv_square4(V_LOADU(data[4 * p] + off), V_LOADU(data[4 * p + 1] + off),
		           V_LOADU(data[4 * p + 2] + off), V_LOADU(data[4 * p + 3] + off), sq[p]);
	} else {
		int k = p - 4;
		V s0 = sq[0][k], s1 = sq[1][k], s2 = sq[2][k], s3 = sq[3][k];
		hv_chunks4(&s0, &s1, &s2, &s3);
		w[k] = s0;
		w[4 + k] = s1;
		w[8 + k] = s2;
		w[12 + k] = s3;
	}
}
#elif HV_BITS == 128
/* 4 lanes x 64 bytes, as four 16-byte quarters. */
static inline __attribute__((always_inline)) void hv_load_block(V w[16], uint8_t *const *data,
                                                                size_t off)
{
	HV_UNROLL
	for (int q = 0; q < 4; q++)
		hv_square4(V_LOADU(data[0] + off + 16 * q), V_LOADU(data[1] + off + 16 * q),
		           V_LOADU(data[2] + off + 16 * q), V_LOADU(data[3] + off + 16 * q), w + 4 * q);
}
#else
/* 8 lanes x 64 bytes, as two 32-byte halves. */
static inline __attribute__((always_inline)) void hv_load_block(V w[16], uint8_t *const *data,
                                                                size_t off)
{
	HV_UNROLL
	for (int h = 0; h < 2; h++) {
		V s[2][4];
		HV_UNROLL
		for (int m = 0; m < 2; m++)
			hv_square4(V_LOADU(data[4 * m] + off + 32 * h),
			           V_LOADU(data[4 * m + 1] + off + 32 * h),
			           V_LOADU(data[4 * m + 2] + off + 32 * h),
			           V_LOADU(data[4 * m + 3] + off + 32 * h), s[m]);
		HV_UNROLL
		for (int k = 0; k < 4; k++) {
			w[8 * h + k] = _mm256_permute2x128_si256(s[0][k], s[1][k], 0x20);
			w[8 * h + 4 + k] = _mm256_permute2x128_si256(s[0][k], s[1][k], 0x31);
		}
	}
}
#endif
#else
#if HV_BITS == 512
/* 8 lanes x 128 bytes, as two 64-byte halves of 8 qwords. */
static inline __attribute__((always_inline)) void hv_load_block(V w[16], uint8_t *const *data,
                                                                size_t off)
{
	HV_UNROLL
	for (int h = 0; h < 2; h++) {
		V s[4][2];
		HV_UNROLL
		for (int m = 0; m < 4; m++) {
			V a = V_LOADU(data[2 * m] + off + 64 * h);
			V b = V_LOADU(data[2 * m + 1] + off + 64 * h);
			s[m][0] = V_UNPACKLO64(a, b);
			s[m][1] = V_UNPACKHI64(a, b);
		}
		HV_UNROLL
		for (int k = 0; k < 2; k++) {
			hv_chunks4(&s[0][k], &s[1][k], &s[2][k], &s[3][k]);
			HV_UNROLL
			for (int j = 0; j < 4; j++)
				w[8 * h + 2 * j + k] = s[j][k];
		}
	}
}

/* hv_load_block in four pieces, for a caller that spreads them among its rounds: for half
 * h = p / 2, piece 2h loads the eight lanes' qwords and interleaves lane pairs into sq, piece
 * 2h + 1 moves whole chunks of sq into w. */
static inline __attribute__((always_inline)) void hv_load_piece(V w[16], V sq[4][4],
                                                                uint8_t *const *data,
                                                                size_t off, int p)
{
	int h = p >> 1;
	if (!(p & 1)) {
		HV_UNROLL
		for (int m = 0; m < 4; m++) {
			V a = V_LOADU(data[2 * m] + off + 64 * h);
			V b = V_LOADU(data[2 * m + 1] + off + 64 * h);
			sq[m][0] = V_UNPACKLO64(a, b);
			sq[m][1] = V_UNPACKHI64(a, b);
		}
	} else {
		HV_UNROLL
		for (int k = 0; k < 2; k++) {
			V s0 = sq[0][k], s1 = sq[1][k], s2 = sq[2][k], s3 = sq[3][k];
			hv_chunks4(&s0, &s1, &s2, &s3);
			w[8 * h + k] = s0;
			w[8 * h + 2 + k] = s1;
			w[8 * h + 4 + k] = s2;
			w[8 * h + 6 + k] = s3;
		}
	}
}
#elif HV_BITS == 128
/* 2 lanes x 128 bytes: each 16-byte piece holds two qwords of a lane, which the unpacks pair
 * with the other lane's. */
static inline __attribute__((always_inline)) void hv_load_block(V w[16], uint8_t *const *data,
                                                                size_t off)
{
	HV_UNROLL
	for (int q = 0; q < 8; q++) {
		V a = V_LOADU(data[0] + off + 16 * q), b = V_LOADU(data[1] + off + 16 * q);
		w[2 * q] = V_UNPACKLO64(a, b);
		w[2 * q + 1] = V_UNPACKHI64(a, b);
	}
}
#else
/* 4 lanes x 128 bytes, as four 32-byte quarters of 4 qwords. */
static inline __attribute__((always_inline)) void hv_load_block(V w[16], uint8_t *const *data,
                                                                size_t off)
{
	HV_UNROLL
	for (int q = 0; q < 4; q++) {
		V s[2][2];
		HV_UNROLL
		for (int m = 0; m < 2; m++) {
			V a = V_LOADU(data[2 * m] + off + 32 * q);
			V b = V_LOADU(data[2 * m + 1] + off + 32 * q);
			s[m][0] = V_UNPACKLO64(a, b);
			s[m][1] = V_UNPACKHI64(a, b);
		}
		HV_UNROLL
		for (int k = 0; k < 2; k++) {
			w[4 * q + k] = _mm256_permute2x128_si256(s[0][k], s[1][k], 0x20);
			w[4 * q + 2 + k] = _mm256_permute2x128_si256(s[0][k], s[1][k], 0x31);
		}
	}
}
#endif
#endif

/* Eight SHA-2 rounds of the round macro R(a, b, c, d, e, f, g, h, t): each round's result
 * renames the working variables by one place, so after eight they are where they started. */
#define SHA2_EIGHT(R, t)                                                                           \
	do {                                                                                       \
		R(a, b, c, d, e, f, g, h, (t));                                                    \
		R(h, a, b, c, d, e, f, g, (t) + 1);                                                \
		R(g, h, a, b, c, d, e, f, (t) + 2);                                                \
		R(f, g, h, a, b, c, d, e, (t) + 3);                                                \
		R(e, f, g, h, a, b, c, d, (t) + 4);                                                \
		R(d, e, f, g, h, a, b, c, (t) + 5);                                                \
		R(c, d, e, f, g, h, a, b, (t) + 6);                                                \
		R(b, c, d, e, f, g, h, a, (t) + 7);                                                \
	} while (0)

#endif
