/* Template: the erasure-code kernels at one vector width, one product method.
 *
 * Parameters, defined before inclusion:
 *   EC_W     vector width in bytes: 16 (SSSE3), 32 (AVX2) or 64 (AVX-512 F/BW/VL/DQ)
 *   EC_GFNI  1: a product is one GF2P8AFFINEQB by the coefficient's 8x8 bit matrix, derived per
 *            call from its portable table; 0: two PSHUFB lookups in the table's 16-byte halves,
 *            indexed by the low and the high nibble of every byte
 *   EC_SFX   the variant token: defines stoa_<f>_<EC_SFX> for f = ec_encode_data,
 *            ec_encode_data_update, gf_vect_dot_prod, gf_vect_mad and gf_vect_mul
 *   EC_RMAX  output rows per pass over the sources, 1..8
 *   EC_COLS  vectors per row in a block, 1..4
 *   EC_COLS_FEW  the same for passes of one or two rows, which have registers to spare
 *   EC_COLS_ONE  optional, default EC_COLS_FEW: the same for passes of one row
 *   EC_COLS_MANY  optional, default EC_COLS: the same for passes of more than four rows
 *   EC_COLS_ACC  optional, default EC_COLS_FEW or EC_COLS by rows: the same for the one-source
 *            accumulating calls (update, gf_vect_mad)
 *   EC_COLS_FAR  optional, default EC_COLS_FEW: the same for encode passes of one or two rows
 *            whose data outgrows L1 (see EC_FN(far))
 *   EC_COLS_MID  optional, default 0 (none): the same for passes of one row from at most
 *            EC_FAR_SOURCES sources whose data outgrows L1 but not L2 (see EC_FN(mid))
 *   EC_COLS_CROWDED  optional, default EC_COLS: the same for wider passes over many streams
 *            beyond L2 (see EC_FN(crowded))
 *   EC_ROWS_ALIGN  optional: the row functions' alignment in bytes, where their loops' placement
 *            measurably sways a shape's speed
 *   EC_ACC_ALIGN  optional: the same for the one-source accumulating functions (EC_FN(acc))
 *   EC_ACC_LOADS_FIRST  optional, default 0: 1 loads every row's output vector in EC_FN(acc_loop)
 *            before it stores the first
 *   EC_ACC_MID  optional, default 0: 1 gives the accumulating calls whose source and outputs
 *            outgrow L1 but fit L2 a loop of their own (see EC_FN(acc_loop))
 *   EC_FAR_SINGLES  optional, default 0: 1 folds the sources into the sums one at a time, not in
 *            pairs, in the EC_FN(far) passes of two rows (see EC_FN(block))
 *   EC_NEAR_L1D  optional, default 0: 1 counts a call's pass of one or two rows as near up to the
 *            size of this CPU's L1 data cache, not EC_NEAR_BYTES (see EC_FN(in_l1d))
 *
 * The unit of work is a block: EC_COLS vectors at one offset of each of the R rows of a pass,
 * accumulated in named registers (R and the column count are compile-time constants in every
 * instantiation, so dead rows vanish) while every source is folded in, then stored once. Each R
 * from 1 to EC_RMAX is its own function; a call splits its rows into passes of at most EC_RMAX.
 * With more than one pass the length is cut into chunks of about EC_CHUNK_BYTES of sources, so
 * that the next pass reads them from L1. AVX-512 ends a row with byte-masked loads and stores;
 * the narrower widths recompute the last whole vector when they can (a plain encode writes
 * every output byte from the sources alone, so writing some twice is harmless) and otherwise go
 * through small stack buffers.
 *
 * Table and matrix layout: coefficient (r, j) of a pass (output row r, source j) is at
 * coef + r * rstride + j * jstride. The shuffle kernels read the caller's tables there; the GFNI
 * kernels read 8-byte matrices derived per call into a stack array laid out like the tables
 * (row after row, rstride 8 k, jstride 8), which lets four tables that follow each other become
 * four matrices in a handful of vector instructions. (Regrouping them source by source, so that
 * constant offsets would reach a pass's matrices, cost more per call than it saved.) One-source
 * calls, and AVX-512 passes of one row over two or three sources that fit L1, derive their few
 * matrices straight into registers instead (EC_FN(reg)), and so do 256-bit passes of one or two
 * rows over two to four sources (EC_FN(few)). */

#include <immintrin.h>
#include <string.h>

#include "common/cpu.h"
#include "ec_arch.h"

#if !defined(EC_W) || !defined(EC_GFNI) || !defined(EC_SFX) || !defined(EC_RMAX) ||                \
    !defined(EC_COLS) || !defined(EC_COLS_FEW)
#error "define EC_W, EC_GFNI, EC_SFX, EC_RMAX, EC_COLS and EC_COLS_FEW before including ec_tpl.h"
#endif
#if EC_RMAX < 1 || EC_RMAX > 8 || EC_COLS < 1 || EC_COLS > 4 || EC_COLS_FEW < 1 || EC_COLS_FEW > 4
#error "EC_RMAX must be 1..8 and EC_COLS, EC_COLS_FEW 1..4"
#endif
#ifndef EC_COLS_ONE
#define EC_COLS_ONE EC_COLS_FEW
#endif
#if EC_COLS_ONE < 1 || EC_COLS_ONE > 4
#error "EC_COLS_ONE must be 1..4"
#endif
#ifndef EC_COLS_MANY
#define EC_COLS_MANY EC_COLS
#endif
#if EC_COLS_MANY < 1 || EC_COLS_MANY > EC_COLS
#error "EC_COLS_MANY must be 1..EC_COLS"
#endif
#define EC_COLS_FOR(R)                                                                             \
	((R) == 1 ? EC_COLS_ONE : (R) <= 2 ? EC_COLS_FEW : (R) <= 4 ? EC_COLS : EC_COLS_MANY)
#ifdef EC_COLS_ACC
#define EC_COLS_ACC_FOR(R) EC_COLS_ACC
#else
#define EC_COLS_ACC_FOR(R) EC_COLS_FOR(R)
#endif
#ifndef EC_COLS_FAR
#define EC_COLS_FAR EC_COLS_FEW
#endif
#ifndef EC_ACC_LOADS_FIRST
#define EC_ACC_LOADS_FIRST 0
#endif
#ifndef EC_FAR_SINGLES
#define EC_FAR_SINGLES 0
#endif
#ifndef EC_NEAR_L1D
#define EC_NEAR_L1D 0
#endif
#ifndef EC_ACC_MID
#define EC_ACC_MID 0
#endif
#if EC_ACC_MID && (EC_W != 64 || EC_GFNI)
#error "EC_ACC_MID is for the 512-bit shuffle kernels"
#endif
#ifndef EC_ACC_STEP
#define EC_ACC_STEP 2
#endif
#ifndef EC_FAR_BEYOND_L2
#define EC_FAR_BEYOND_L2 0
#endif
#ifndef EC_COLS_CROWDED
#define EC_COLS_CROWDED EC_COLS
#endif
#ifndef EC_COLS_MID
#define EC_COLS_MID 0
#endif
#ifdef EC_ACC_ALIGN
#define EC_ACC_ATTR __attribute__((aligned(EC_ACC_ALIGN)))
#else
#define EC_ACC_ATTR
#endif
#ifdef EC_ROWS_ALIGN
#define EC_ROWS_ATTR __attribute__((aligned(EC_ROWS_ALIGN)))
#else
#define EC_ROWS_ATTR
#endif
/* Bytes of sources and outputs a pass may touch and still count as near (in L1), and as not
 * far beyond it (inside a 1 MiB L2: at 512 KiB, gf_vect_dot_prod k=10 at 64 KiB, 704 KiB, took
 * four vectors a row and ran at 0.8 of ISA-L's one; one vector runs 1.45x faster there, and the
 * two shapes tie from 96 KiB on); sources few enough to stream from anywhere one vector at a
 * time. */
#define EC_NEAR_BYTES  32768
#define EC_MID_BYTES   (1024 * 1024)
#define EC_FAR_SOURCES 3
#define EC_COLS_MAX    (EC_COLS > EC_COLS_FEW ? EC_COLS : EC_COLS_FEW)

#define EC_INLINE     static inline __attribute__((always_inline))
#define EC_CAT2(a, b) a##_##b
#define EC_CAT(a, b)  EC_CAT2(a, b)
#define EC_FN(name)   EC_CAT(ec_##name, EC_SFX)

/* Sources per chunk when a call makes several passes: well inside a 32 KiB L1 with the outputs. */
#define EC_CHUNK_BYTES 16384
/* Matrices derived per row set: 16 KiB of stack. */
#define EC_MATS 2048
/* Sources gathered at once into stack buffers for an AVX2 tail. */
#define EC_BOUNCE 16

/* ---- the vector vocabulary ---- */

#if EC_W == 64
typedef __m512i ev;

EC_INLINE ev ev_load(const uint8_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}
EC_INLINE void ev_store(uint8_t *p, ev v)
{
	_mm512_storeu_si512((void *)p, v);
}
/* The first n (< 64) bytes; the rest read as zero and are never touched (masked loads do not
 * fault on the bytes they skip, so a buffer may end at an unmapped page). */
EC_INLINE ev ev_load_part(const uint8_t *p, size_t n)
{
	return _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)n), (const void *)p);
}
EC_INLINE void ev_store_part(uint8_t *p, ev v, size_t n)
{
	_mm512_mask_storeu_epi8((void *)p, _bzhi_u64(~0ull, (unsigned)n), v);
}
EC_INLINE ev ev_xor(ev a, ev b)
{
	return _mm512_xor_si512(a, b);
}
EC_INLINE ev ev_xor3(ev a, ev b, ev c)
{
	return _mm512_ternarylogic_epi64(a, b, c, 0x96);
}
EC_INLINE ev ev_zero(void)
{
	return _mm512_setzero_si512();
}
EC_INLINE ev ev_set64(uint64_t v)
{
	return _mm512_set1_epi64((long long)v);
}
EC_INLINE ev ev_bcast128(const uint8_t *p)
{
	return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)p));
}
EC_INLINE ev ev_nibble_mask(void)
{
	return _mm512_set1_epi8(0x0f);
}
EC_INLINE ev ev_and(ev a, ev b)
{
	return _mm512_and_si512(a, b);
}
EC_INLINE ev ev_srl4(ev a)
{
	return _mm512_srli_epi64(a, 4);
}
EC_INLINE ev ev_shuffle(ev table, ev idx)
{
	return _mm512_shuffle_epi8(table, idx);
}
#if EC_GFNI
EC_INLINE ev ev_affine(ev x, ev matrix)
{
	return _mm512_gf2p8affine_epi64_epi8(x, matrix, 0);
}
#endif

#elif EC_W == 32
typedef __m256i ev;

EC_INLINE ev ev_load(const uint8_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}
EC_INLINE void ev_store(uint8_t *p, ev v)
{
	_mm256_storeu_si256((__m256i *)p, v);
}
EC_INLINE ev ev_xor(ev a, ev b)
{
	return _mm256_xor_si256(a, b);
}
EC_INLINE ev ev_xor3(ev a, ev b, ev c)
{
	return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
}
EC_INLINE ev ev_zero(void)
{
	return _mm256_setzero_si256();
}
EC_INLINE ev ev_set64(uint64_t v)
{
	return _mm256_set1_epi64x((long long)v);
}
EC_INLINE ev ev_bcast128(const uint8_t *p)
{
	return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}
EC_INLINE ev ev_nibble_mask(void)
{
	return _mm256_set1_epi8(0x0f);
}
EC_INLINE ev ev_and(ev a, ev b)
{
	return _mm256_and_si256(a, b);
}
EC_INLINE ev ev_srl4(ev a)
{
	return _mm256_srli_epi64(a, 4);
}
EC_INLINE ev ev_shuffle(ev table, ev idx)
{
	return _mm256_shuffle_epi8(table, idx);
}
#if EC_GFNI
EC_INLINE ev ev_affine(ev x, ev matrix)
{
	return _mm256_gf2p8affine_epi64_epi8(x, matrix, 0);
}
#endif

#elif EC_W == 16
typedef __m128i ev;

EC_INLINE ev ev_load(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}
EC_INLINE void ev_store(uint8_t *p, ev v)
{
	_mm_storeu_si128((__m128i *)p, v);
}
EC_INLINE ev ev_xor(ev a, ev b)
{
	return _mm_xor_si128(a, b);
}
EC_INLINE ev ev_xor3(ev a, ev b, ev c)
{
	return _mm_xor_si128(_mm_xor_si128(a, b), c);
}
EC_INLINE ev ev_zero(void)
{
	return _mm_setzero_si128();
}
EC_INLINE ev ev_set64(uint64_t v)
{
	return _mm_set1_epi64x((long long)v);
}
EC_INLINE ev ev_bcast128(const uint8_t *p)
{
	return ev_load(p);
}
EC_INLINE ev ev_nibble_mask(void)
{
	return _mm_set1_epi8(0x0f);
}
EC_INLINE ev ev_and(ev a, ev b)
{
	return _mm_and_si128(a, b);
}
EC_INLINE ev ev_srl4(ev a)
{
	return _mm_srli_epi64(a, 4);
}
EC_INLINE ev ev_shuffle(ev table, ev idx)
{
	return _mm_shuffle_epi8(table, idx);
}
#if EC_GFNI
#error "the 128-bit kernels have no GFNI form"
#endif

#else
#error "EC_W must be 16, 32 or 64"
#endif

EC_INLINE ev ev_bcast64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return ev_set64(v);
}

/* ---- products: a source vector prepared once, a coefficient, multiply-accumulate ---- */

#if EC_GFNI
typedef ev ec_src;
typedef ev ec_coef;

EC_INLINE ec_src ec_prep(ev x)
{
	return x;
}
EC_INLINE ec_coef ec_coef_load(const uint8_t *p)
{
	ev m = ev_bcast64(p);
#if defined(__clang__) && EC_W == 64
	/* clang 14 folds this broadcast into VGF2P8AFFINEQB's memory operand with a wrong EVEX
	 * compressed displacement (a +8 offset encoded as disp8 8, which the CPU scales by 8 to
	 * 64): keep it in a register. */
	__asm__("" : "+v"(m));
#endif
	return m;
}
EC_INLINE ev ec_mac(ev acc, ec_src x, ec_coef m)
{
	return ev_xor(acc, ev_affine(x, m));
}
#else
typedef struct {
	ev lo, hi;
} ec_src;

EC_INLINE ec_src ec_prep(ev x)
{
	ev mask = ev_nibble_mask();
#if EC_W == 16
	/* One load and a register copy (which the renamer absorbs), not two loads of the source:
	 * this core loads two vectors a cycle, and the two-row kernels are short of loads. */
	__asm__("" : "+x"(x));
#endif
	return (ec_src){ ev_and(x, mask), ev_and(ev_srl4(x), mask) };
}
typedef struct {
	ev lo, hi;
} ec_coef;

/* The table's first half serves the low nibble, its second half the high one. */
EC_INLINE ec_coef ec_coef_load(const uint8_t *p)
{
	return (ec_coef){ ev_bcast128(p), ev_bcast128(p + 16) };
}
#if EC_W == 16
/* Without VEX a PSHUFB overwrites its table, so every product works on copies of both halves.
 * Written as intrinsics, GCC 12 also copies each product to another register it then never
 * needs; spelled out, the compiler supplies only the copies the instructions consume. */
EC_INLINE ev ec_mac(ev acc, ec_src x, ec_coef m)
{
	ev lo = m.lo, hi = m.hi;
	__asm__("pshufb %2, %0\n\t"
	        "pshufb %3, %1\n\t"
	        "pxor %1, %0"
	        : "+x"(lo), "+x"(hi)
	        : "x"(x.lo), "x"(x.hi));
	return ev_xor(acc, lo);
}
/* The product by the table at t, its halves loaded from L1 at the product, for the kernels that
 * have no registers to hold their tables in (EC_FN(few_body)). The loads are spelled out: given
 * the halves as values, GCC 12 hoists them out of the loop into registers and spills. (gf_vect_mad,
 * whose one table fits, keeps it in registers: loads at every product lost up to 13% whenever
 * other work shared the core.) */
EC_INLINE ev ec_mul_at(ec_src x, const uint8_t *t)
{
	ev lo, hi;
	__asm__("movdqu %2, %0\n\t"
	        "pshufb %4, %0\n\t"
	        "movdqu %3, %1\n\t"
	        "pshufb %5, %1\n\t"
	        "pxor %1, %0"
	        : "=&x"(lo), "=&x"(hi)
	        : "m"(*(const __m128i_u *)t), "m"(*(const __m128i_u *)(t + 16)), "x"(x.lo),
	          "x"(x.hi));
	return lo;
}
#else
EC_INLINE ev ec_mac(ev acc, ec_src x, ec_coef m)
{
	return ev_xor3(acc, ev_shuffle(m.lo, x.lo), ev_shuffle(m.hi, x.hi));
}
#endif
/* The shuffle kernels multiply by the table itself. */
EC_INLINE ec_coef ec_coef_tbl(const uint8_t *t)
{
	return ec_coef_load(t);
}
#endif

/* ---- GFNI: bit matrices from the portable tables ---- */

#if EC_GFNI
/* The products c * 2^b sit at table bytes 1, 2, 4, 8 (b = 0..3) and 17, 18, 20, 24 (b = 4..7).
 * Gathered into one word with c * 2^b in byte 7 - b, they are the columns of c's bit matrix
 * (column b is the image of input bit b). PEXT picks bytes 0, 1, 3 and 7 of each 8-byte load. */
#define EC_PEXT_1248 0xff000000ff00ffffull

EC_INLINE uint64_t ec_columns(const uint8_t *t)
{
	uint64_t lo, hi;
	memcpy(&lo, t + 1, 8);
	memcpy(&hi, t + 17, 8);
	uint64_t v = _pext_u64(lo, EC_PEXT_1248) | _pext_u64(hi, EC_PEXT_1248) << 32;
	return __builtin_bswap64(v);
}

/* GF2P8AFFINEQB wants rows: byte 7 - i of its matrix selects the input bits whose parity is
 * output bit i. Applying a column word to the bytes 1 << (7 - b) (byte b of this constant)
 * yields byte b = row b of the column word taken as a matrix, i.e. the transpose. */
#define EC_TRANSPOSE_INPUT 0x0102040810204080ull

EC_INLINE uint64_t ec_matrix(const uint8_t *t)
{
	__m128i cols = _mm_cvtsi64_si128((long long)ec_columns(t));
	__m128i in = _mm_cvtsi64_si128((long long)EC_TRANSPOSE_INPUT);
	return (uint64_t)_mm_cvtsi128_si64(_mm_gf2p8affine_epi64_epi8(in, cols, 0));
}

/* A coefficient's matrix in every lane straight from its table, for the one-source kernels: they
 * derive each matrix once per call and keep it in a register, with no stack array between the
 * derivation and the loop. The chain from the table to the first product stays inside 128-bit
 * lanes: the 8-byte words at table bytes 17 and 1 (holding c * 2^b, b = 4..7 and 0..3, at their
 * bytes 0, 1, 3, 7), broadcast and interleaved, give every lane the bytes that one shuffle puts
 * in the order of ec_columns (c * 2^b in byte 7 - b of each qword), and one affine transposes the
 * columns as in ec_matrix. */
#define EC_PICK_COLUMNS 0x08090b0f00010307ull

EC_INLINE ec_coef ec_coef_tbl(const uint8_t *t)
{
#if EC_W == 64
	ev both = _mm512_unpacklo_epi64(ev_bcast64(t + 17), ev_bcast64(t + 1));
#else
	ev both = _mm256_unpacklo_epi64(ev_bcast64(t + 17), ev_bcast64(t + 1));
#endif
	ev cols = ev_shuffle(both, ev_set64(EC_PICK_COLUMNS));
	return ev_affine(ev_set64(EC_TRANSPOSE_INPUT), cols);
}

/* The matrices of the four coefficients whose tables lie stride bytes apart from p. */
EC_INLINE void EC_FN(matrices4)(const uint8_t *p, size_t stride, uint64_t *out)
{
#if EC_W == 64
	/* In every 16-byte half, bytes 8, 4, 2, 1 go to positions 0..3 and again 4..7; the first
	 * dword of a table's upper half and the second of its lower half then make its column
	 * word, and one affine transposes four. */
	const ev pick = _mm512_broadcast_i32x4(
	    _mm_setr_epi8(8, 4, 2, 1, 8, 4, 2, 1, -1, -1, -1, -1, -1, -1, -1, -1));
	const ev upper = _mm512_setr_epi64(2, 6, 10, 14, 2, 6, 10, 14);
	const ev lower = _mm512_setr_epi64(0, 4, 8, 12, 0, 4, 8, 12);
	const ev in = ev_set64(EC_TRANSPOSE_INPUT);
	ev a, b;
	if (stride == EC_TBL) {
		a = ev_load(p);
		b = ev_load(p + 64);
	} else {
		a = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const void *)p)),
		                       _mm256_loadu_si256((const void *)(p + stride)), 1);
		b = _mm512_inserti64x4(
		    _mm512_castsi256_si512(_mm256_loadu_si256((const void *)(p + 2 * stride))),
		    _mm256_loadu_si256((const void *)(p + 3 * stride)), 1);
	}
	a = ev_shuffle(a, pick);
	b = ev_shuffle(b, pick);
	ev cols = _mm512_mask_blend_epi32(0xaaaa, _mm512_permutex2var_epi64(a, upper, b),
	                                  _mm512_permutex2var_epi64(a, lower, b));
	_mm256_storeu_si256((__m256i *)out, _mm512_castsi512_si256(ev_affine(in, cols)));
#else
	/* The same in two 128-bit lanes: a table's halves are the lanes of its load, which the
	 * lane permutes pair up two tables at a time (ten sources one at a time: gf_vect_dot_prod
	 * at 256 bytes 103 TSC ticks a call, four at a time 97). */
	const ev pick = _mm256_broadcastsi128_si256(
	    _mm_setr_epi8(8, 4, 2, 1, 8, 4, 2, 1, -1, -1, -1, -1, -1, -1, -1, -1));
	const ev in = ev_set64(EC_TRANSPOSE_INPUT);
	ev a = ev_shuffle(ev_load(p), pick), b = ev_shuffle(ev_load(p + stride), pick);
	ev c = ev_shuffle(ev_load(p + 2 * stride), pick);
	ev d = ev_shuffle(ev_load(p + 3 * stride), pick);
	/* Lane j of ab: table a (j = 0) or b (j = 1), upper half's dword 0, lower's 1. */
	ev ab = _mm256_blend_epi32(_mm256_permute2x128_si256(a, b, 0x31),
	                           _mm256_permute2x128_si256(a, b, 0x20), 0xaa);
	ev cd = _mm256_blend_epi32(_mm256_permute2x128_si256(c, d, 0x31),
	                           _mm256_permute2x128_si256(c, d, 0x20), 0xaa);
	ev cols = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(ab, cd), 0xd8);
	_mm256_storeu_si256((__m256i *)out, ev_affine(in, cols));
#endif
}

/* The matrices of n coefficients whose tables lie stride bytes apart from t: four at a time, and
 * the last n % 4 of four or more as a group that overlaps the one before (ten sources: three
 * groups, where two and two single derivations took longer). */
static void EC_FN(matrices)(const uint8_t *t, size_t stride, size_t n, uint64_t *out)
{
	size_t i = 0;
	for (; i + 4 <= n; i += 4)
		EC_FN(matrices4)(t + i * stride, stride, out + i);
	if (i < n && n >= 4) {
		EC_FN(matrices4)(t + (n - 4) * stride, stride, out + n - 4);
		return;
	}
	for (; i < n; i++)
		out[i] = ec_matrix(t + i * stride);
}
#endif

/* ---- the block and the passes ---- */

#define EC_ROWS8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)

EC_INLINE ev EC_FN(ld)(const uint8_t *p, size_t part)
{
#if EC_W == 64
	if (part)
		return ev_load_part(p, part);
#endif
	(void)part;
	return ev_load(p);
}

EC_INLINE void EC_FN(st)(uint8_t *p, ev v, size_t part)
{
#if EC_W == 64
	if (part) {
		ev_store_part(p, v, part);
		return;
	}
#endif
	(void)part;
	ev_store(p, v);
}

/* Sources taken two at a time: their products and the accumulator meet in one three-way XOR
 * (VPTERNLOGQ), a third fewer vector operations than two separate XORs. */
#if EC_GFNI && EC_W == 64
#define EC_PAIRS 1
EC_INLINE ev ec_mac2(ev acc, ec_src x, ec_coef m, ec_src y, ec_coef n)
{
	return ev_xor3(acc, ev_affine(x, m), ev_affine(y, n));
}
#else
#define EC_PAIRS 0
#endif

/* C vectors (C = 1 when part is set: only its first part bytes) at off of R rows; with singles,
 * no source pairs. */
EC_INLINE void EC_FN(block)(const int R, const int C, size_t k, const uint8_t *const *src,
                            size_t off, size_t part, const uint8_t *coef, size_t rstride,
                            size_t jstride, uint8_t *const *dst, const int accumulate,
                            const int from_tbl, const int singles)
{
	const ev z = ev_zero();
#define EC_DECL(r) ev a##r##_0 = z, a##r##_1 = z, a##r##_2 = z, a##r##_3 = z;
	EC_ROWS8(EC_DECL)
#undef EC_DECL
	if (accumulate) {
#define EC_LOAD_ACC(r)                                                                             \
	if ((r) < R) {                                                                             \
		a##r##_0 = EC_FN(ld)(dst[r] + off, part);                                          \
		if (C > 1)                                                                         \
			a##r##_1 = ev_load(dst[r] + off + EC_W);                                   \
		if (C > 2)                                                                         \
			a##r##_2 = ev_load(dst[r] + off + 2 * EC_W);                               \
		if (C > 3)                                                                         \
			a##r##_3 = ev_load(dst[r] + off + 3 * EC_W);                               \
	}
		EC_ROWS8(EC_LOAD_ACC)
#undef EC_LOAD_ACC
	}
/* The C vectors of source j at off, ready to multiply, as x0..x3 (or y0..y3). */
#define EC_SRC(x, j)                                                                               \
	const uint8_t *x##p = src[j] + off;                                                        \
	ec_src x##0 = ec_prep(EC_FN(ld)(x##p, part)), x##1 = x##0, x##2 = x##0, x##3 = x##0;       \
	if (C > 1)                                                                                 \
		x##1 = ec_prep(ev_load(x##p + EC_W));                                              \
	if (C > 2)                                                                                 \
		x##2 = ec_prep(ev_load(x##p + 2 * EC_W));                                          \
	if (C > 3)                                                                                 \
		x##3 = ec_prep(ev_load(x##p + 3 * EC_W));
	size_t j = 0;
#if EC_PAIRS
	for (; !singles && j + 2 <= k; j += 2) {
		EC_SRC(x, j)
		EC_SRC(y, j + 1)
		const uint8_t *cj = coef + j * jstride;
#define EC_MAC2(r)                                                                                 \
	if ((r) < R) {                                                                             \
		ec_coef m = from_tbl ? ec_coef_tbl(cj + (r)*rstride)                               \
		                     : ec_coef_load(cj + (r)*rstride);                             \
		ec_coef n = from_tbl ? ec_coef_tbl(cj + jstride + (r)*rstride)                     \
		                     : ec_coef_load(cj + jstride + (r)*rstride);                   \
		a##r##_0 = ec_mac2(a##r##_0, x0, m, y0, n);                                        \
		if (C > 1)                                                                         \
			a##r##_1 = ec_mac2(a##r##_1, x1, m, y1, n);                                \
		if (C > 2)                                                                         \
			a##r##_2 = ec_mac2(a##r##_2, x2, m, y2, n);                                \
		if (C > 3)                                                                         \
			a##r##_3 = ec_mac2(a##r##_3, x3, m, y3, n);                                \
	}
		EC_ROWS8(EC_MAC2)
#undef EC_MAC2
	}
#endif
	for (; j < k; j++) {
		EC_SRC(x, j)
		const uint8_t *cj = coef + j * jstride;
#define EC_MAC(r)                                                                                  \
	if ((r) < R) {                                                                             \
		ec_coef m = from_tbl ? ec_coef_tbl(cj + (r)*rstride)                               \
		                     : ec_coef_load(cj + (r)*rstride);                             \
		a##r##_0 = ec_mac(a##r##_0, x0, m);                                                \
		if (C > 1)                                                                         \
			a##r##_1 = ec_mac(a##r##_1, x1, m);                                        \
		if (C > 2)                                                                         \
			a##r##_2 = ec_mac(a##r##_2, x2, m);                                        \
		if (C > 3)                                                                         \
			a##r##_3 = ec_mac(a##r##_3, x3, m);                                        \
	}
		EC_ROWS8(EC_MAC)
#undef EC_MAC
	}
#undef EC_SRC
#define EC_STORE(r)                                                                                \
	if ((r) < R) {                                                                             \
		EC_FN(st)(dst[r] + off, a##r##_0, part);                                           \
		if (C > 1)                                                                         \
			ev_store(dst[r] + off + EC_W, a##r##_1);                                   \
		if (C > 2)                                                                         \
			ev_store(dst[r] + off + 2 * EC_W, a##r##_2);                               \
		if (C > 3)                                                                         \
			ev_store(dst[r] + off + 3 * EC_W, a##r##_3);                               \
	}
	EC_ROWS8(EC_STORE)
#undef EC_STORE
	(void)singles; /* without EC_PAIRS there are no pairs to forgo */
}

#if EC_W < 64
/* The last n (< EC_W) bytes at off through stack buffers: sources EC_BOUNCE at a time, the first
 * group written over the outputs' copies (or added to them when accumulating), later groups added.
 */
static void EC_FN(bounce)(const int R, size_t k, const uint8_t *const *src, size_t off, size_t n,
                          const uint8_t *coef, size_t rstride, size_t jstride, uint8_t *const *dst,
                          int accumulate, int from_tbl)
{
	uint8_t sb[EC_BOUNCE][EC_W], db[8][EC_W];
	const uint8_t *sp[EC_BOUNCE];
	uint8_t *dp[8];
	for (int r = 0; r < R; r++) {
		memset(db[r], 0, EC_W);
		if (accumulate)
			memcpy(db[r], dst[r] + off, n);
		dp[r] = db[r];
	}
	for (size_t j0 = 0; j0 < k; j0 += EC_BOUNCE) {
		size_t kb = k - j0 < EC_BOUNCE ? k - j0 : EC_BOUNCE;
		for (size_t j = 0; j < kb; j++) {
			memset(sb[j], 0, EC_W);
			memcpy(sb[j], src[j0 + j] + off, n);
			sp[j] = sb[j];
		}
		const uint8_t *cj = coef + j0 * jstride;
		int acc = accumulate || j0 > 0;
		switch (R) {
#define EC_BOUNCE_CASE(r)                                                                          \
	case (r) + 1:                                                                              \
		if ((r) < EC_RMAX)                                                                 \
			EC_FN(block)((r) + 1, 1, kb, sp, 0, 0, cj, rstride, jstride, dp, acc,      \
			             from_tbl, 0);                                                 \
		break;
			EC_ROWS8(EC_BOUNCE_CASE)
#undef EC_BOUNCE_CASE
		}
	}
	for (int r = 0; r < R; r++)
		memcpy(dst[r] + off, db[r], n);
}
#endif

/* Rows of one pass over [off, off + n); with singles, no source pairs. */
EC_INLINE void EC_FN(span_as)(const int R, const int C, size_t k, const uint8_t *const *src,
                              size_t off, size_t n, const uint8_t *coef, size_t rstride,
                              size_t jstride, uint8_t *const *dst, const int accumulate,
                              const int from_tbl, const int singles)
{
	size_t end = off + n;
	for (; off + C * EC_W <= end; off += C * EC_W)
		EC_FN(block)(R, C, k, src, off, 0, coef, rstride, jstride, dst, accumulate,
			             from_tbl, singles);
	if (C > 1)
		for (; off + EC_W <= end; off += EC_W)
			EC_FN(block)(R, 1, k, src, off, 0, coef, rstride, jstride, dst, accumulate,
			             from_tbl, singles);
	if (off == end)
		return;
#if EC_W == 64
	EC_FN(block)(R, 1, k, src, off, end - off, coef, rstride, jstride, dst, accumulate,
	             from_tbl, singles);
#else
	/* Accumulating calls have one source, and a one-source call may be in place (gf_vect_mul):
	 * those never recompute. */
	if (!accumulate && k > 1 && end >= EC_W)
		EC_FN(block)(R, 1, k, src, end - EC_W, 0, coef, rstride, jstride, dst, 0,
		             from_tbl, singles);
	else
		EC_FN(bounce)(R, k, src, off, end - off, coef, rstride, jstride, dst, accumulate,
		              from_tbl);
#endif
}

EC_INLINE void EC_FN(span)(const int R, const int C, size_t k, const uint8_t *const *src,
                           size_t off, size_t n, const uint8_t *coef, size_t rstride,
                           size_t jstride, uint8_t *const *dst, const int accumulate,
                           const int from_tbl)
{
	EC_FN(span_as)(R, C, k, src, off, n, coef, rstride, jstride, dst, accumulate, from_tbl, 0);
}

/* The same, told that the outputs overlap neither the pointer arrays nor the coefficients, so
 * that pointers and (with one source) matrices stay in registers across the stores. Worth it for
 * passes of one or two rows (15% at 4 KiB for one) and for the one-source updates (the matrices
 * leave the loop), which have registers to spare; wider encode passes need those registers for
 * their rows' matrix pointers and ran slower with it. */
EC_INLINE void EC_FN(span_restrict)(const int R, const int C, size_t k,
                                    const uint8_t *const *restrict src, size_t off, size_t n,
                                    const uint8_t *restrict coef, size_t rstride, size_t jstride,
                                    uint8_t *const *restrict dst, const int accumulate,
                                    const int from_tbl)
{
	EC_FN(span)(R, C, k, src, off, n, coef, rstride, jstride, dst, accumulate, from_tbl);
}

/* The same for the EC_FN(far) passes, which with EC_FAR_SINGLES take two rows' sources one at a
 * time. */
EC_INLINE void EC_FN(span_far)(const int R, const int C, size_t k,
                               const uint8_t *const *restrict src, size_t off, size_t n,
                               const uint8_t *restrict coef, size_t rstride, size_t jstride,
                               uint8_t *const *restrict dst)
{
	EC_FN(span_as)(R, C, k, src, off, n, coef, rstride, jstride, dst, 0, 0,
	               EC_FAR_SINGLES && R == 2);
}

/* Whether a pass of R <= 2 rows over n bytes takes EC_COLS_FAR vectors per row: when its
 * sources and outputs outgrow L1 but stay inside L2, or for any length beyond L1 with at
 * most EC_FAR_SOURCES sources; with EC_FAR_BEYOND_L2, only when they outgrow L2, and then with
 * more sources only where the L1 data cache has 12 ways or more (see ec_avx2_gfni.c). */
EC_INLINE int EC_FN(far)(size_t k, size_t R, size_t n)
{
	if (EC_COLS_FAR == EC_COLS_FEW)
		return 0;
	size_t bytes = (k + R) * n;
#if EC_FAR_BEYOND_L2
	return bytes > EC_MID_BYTES && (k <= EC_FAR_SOURCES || stoa_x86_l1d_ways() >= 12);
#else
	return bytes > EC_NEAR_BYTES && (k <= EC_FAR_SOURCES || bytes <= EC_MID_BYTES);
#endif
}

/* Whether a call's one pass of R <= 2 rows from k > 1 sources over n bytes, beyond
 * EC_NEAR_BYTES, still fits this CPU's L1 data cache (its ways times 4 KiB, the size of a way on
 * every x86 L1D: 48 KiB on Zen 5 and Ice Lake on, 32 KiB on Zen 4), with EC_NEAR_L1D; such a pass
 * runs as near (EC_FN(near)). The CPU's size, not a larger constant: a pass just beyond L1 runs
 * better far (4+2 encode at 9 KiB, 54 KiB: 0.98x ISA-L near, 1.14 far). Passes beyond
 * EC_L1D_MAX_BYTES (more than any x86 L1D) skip the (cached) lookup. */
#define EC_L1D_WAY_BYTES 4096
#define EC_L1D_MAX_BYTES (64 * 1024)
/* Whether this many bytes fit this CPU's L1 data cache. */
EC_INLINE int EC_FN(fits_l1d)(size_t bytes)
{
	return bytes <= EC_L1D_WAY_BYTES * (size_t)stoa_x86_l1d_ways();
}
EC_INLINE int EC_FN(in_l1d)(size_t k, size_t R, size_t n)
{
#if EC_NEAR_L1D
	size_t bytes = (k + R) * n;
	return R <= 2 && k > 1 && bytes > EC_NEAR_BYTES && bytes <= EC_L1D_MAX_BYTES &&
	       EC_FN(fits_l1d)(bytes);
#else
	(void)k;
	(void)R;
	(void)n;
	return 0;
#endif
}

/* Whether a pass of one row from k sources over n bytes takes EC_COLS_MID vectors: few sources,
 * and data beyond any L1 but inside half of L2, where four vectors a row ran by the buffers'
 * placement (AVX-512, 2+1 decode at 64 KiB: 0.93-1.03x ISA-L with four, 1.21x with two); in L1
 * and from 1 MiB of data on four stay ahead. */
EC_INLINE int EC_FN(mid)(size_t k, size_t R, size_t n)
{
	size_t bytes = (k + R) * n;
	return EC_COLS_MID && R == 1 && k <= EC_FAR_SOURCES && bytes > EC_L1D_MAX_BYTES &&
	       bytes <= EC_MID_BYTES / 2;
}

/* Whether a pass of more than two rows takes EC_COLS_CROWDED vectors per row: when it streams
 * more than EC_MANY_STREAMS sources and outputs from beyond L2. */
#define EC_MANY_STREAMS 16
#define EC_L2_BYTES     (1024 * 1024)
EC_INLINE int EC_FN(crowded)(size_t k, size_t R, size_t n)
{
	return EC_COLS_CROWDED != EC_COLS && k + R > EC_MANY_STREAMS &&
	       (k + R) * n > 2 * EC_L2_BYTES;
}

#define EC_ROWS_PARAMS                                                                             \
	size_t k, const uint8_t *const *src, size_t off, size_t n, const uint8_t *coef,            \
	    size_t rstride, size_t jstride, uint8_t *const *dst, int accumulate
typedef void EC_FN(rows_fn)(EC_ROWS_PARAMS);

/* One function per row count. The GFNI matrices follow each other along a row, so their
 * source stride is a constant here. */
#if EC_GFNI
#define EC_STRIDES(R) rstride, 8
#else
#define EC_STRIDES(R) rstride, jstride
#endif
#define EC_ROWS_FN(r)                                                                              \
	static EC_ROWS_ATTR void EC_FN(rows##r)(EC_ROWS_PARAMS)                                    \
	{                                                                                          \
		(void)rstride;                                                                     \
		(void)jstride;                                                                     \
		if (accumulate) /* update and mad: one source, coef the tables */                  \
			EC_FN(span_restrict)                                                       \
			(r, EC_COLS_ACC_FOR(r), 1, src, off, n, coef, rstride, 0, dst, 1, 1);      \
		else if (k == 1) /* the tables too */                                              \
			EC_FN(span_restrict)                                                       \
			(r, EC_COLS_FOR(r), 1, src, off, n, coef, rstride, 0, dst, 0, 1);          \
		else if (EC_FN(mid)(k, (r), n))                                                    \
			EC_FN(span_restrict)                                                       \
			(r, EC_COLS_MID ? EC_COLS_MID : 1, k, src, off, n, coef, EC_STRIDES(r),    \
			 dst, 0, 0);                                                               \
		else if ((r) <= 2 && !EC_FN(far)(k, (r), n))                                       \
			EC_FN(span_restrict)                                                       \
			(r, EC_COLS_FOR(r), k, src, off, n, coef, EC_STRIDES(r), dst, 0, 0);       \
		else if ((r) <= 2)                                                                 \
			EC_FN(span_far)(r, EC_COLS_FAR, k, src, off, n, coef, EC_STRIDES(r), dst); \
		else if (EC_FN(crowded)(k, (r), n))                                                \
			EC_FN(span)                                                                \
			(r, EC_COLS_CROWDED, k, src, off, n, coef, EC_STRIDES(r), dst, 0, 0);      \
		else                                                                               \
			EC_FN(span)                                                                \
			(r, EC_COLS_FOR(r), k, src, off, n, coef, EC_STRIDES(r), dst, 0, 0);       \
	}
EC_ROWS_FN(1)
#if EC_RMAX >= 2
EC_ROWS_FN(2)
#endif
#if EC_RMAX >= 3
EC_ROWS_FN(3)
#endif
#if EC_RMAX >= 4
EC_ROWS_FN(4)
#endif
#if EC_RMAX >= 5
EC_ROWS_FN(5)
#endif
#if EC_RMAX >= 6
EC_ROWS_FN(6)
#endif
#if EC_RMAX >= 7
EC_ROWS_FN(7)
#endif
#if EC_RMAX >= 8
EC_ROWS_FN(8)
#endif
#undef EC_ROWS_FN

#if EC_NEAR_L1D
/* The near passes of one and two rows alone, for EC_FN(in_l1d). A test in the row functions
 * instead would put a call in them, and with it a stack frame realigned for spills around it,
 * which moved their loops: 2+1 at 64 KiB ran 7% slower. */
#define EC_NEAR_FN(r)                                                                              \
	static EC_ROWS_ATTR void EC_FN(near##r)(EC_ROWS_PARAMS)                                    \
	{                                                                                          \
		(void)rstride;                                                                     \
		(void)jstride;                                                                     \
		(void)accumulate;                                                                  \
		EC_FN(span_restrict)                                                               \
		(r, EC_COLS_FOR(r), k, src, off, n, coef, EC_STRIDES(r), dst, 0, 0);               \
	}
EC_NEAR_FN(1)
EC_NEAR_FN(2)
#undef EC_NEAR_FN
static EC_FN(rows_fn) *const EC_FN(near)[3] = { NULL, EC_FN(near1), EC_FN(near2) };
#endif
#undef EC_STRIDES

static EC_FN(rows_fn) *const EC_FN(rows)[9] = {
	NULL,         EC_FN(rows1),
#if EC_RMAX >= 2
	EC_FN(rows2),
#endif
#if EC_RMAX >= 3
	EC_FN(rows3),
#endif
#if EC_RMAX >= 4
	EC_FN(rows4),
#endif
#if EC_RMAX >= 5
	EC_FN(rows5),
#endif
#if EC_RMAX >= 6
	EC_FN(rows6),
#endif
#if EC_RMAX >= 7
	EC_FN(rows7),
#endif
#if EC_RMAX >= 8
	EC_FN(rows8),
#endif
};

/* dst[r] ^= c_r * src over the whole vectors of [0, n) for R rows, one source: the rows'
 * coefficients and output pointers in locals before the loop, which then loads the source once
 * and each output once per vector. Through the general block the compiler reloaded every
 * coefficient and output pointer in every iteration (the stores might alias them): at four rows
 * 17 loads and 4 stores per vector, the address units' limit, where this needs 5 loads; 4 KiB
 * update, k = 10 p = 4, 0.76-0.81 of ISA-L's gf_4vect_mad at x86-64-v2 and v3). Returns where the
 * whole vectors end. */
EC_INLINE size_t EC_FN(acc_loop)(const int R, const int C, const int mid, const uint8_t *src,
                                 size_t n, const uint8_t *tbls, size_t rstride, uint8_t *const *dst)
{
#define EC_ACC_COEF(r)                                                                             \
	ec_coef m##r = (r) < R ? ec_coef_tbl(tbls + (r)*rstride) : ec_coef_tbl(tbls);              \
	uint8_t *d##r = (r) < R ? dst[r] : NULL;
	EC_ROWS8(EC_ACC_COEF)
#undef EC_ACC_COEF
	size_t off = 0;
#if EC_W == 64 && !EC_GFNI
	/* From L2 (mid): one vector a step, and nothing that waits on an L1 miss but plain loads
	 * and one XOR per row. The general loop's three folds (the source loaded by both halves
	 * of the nibble split, an output's load folded into its XOR, the output and both lookups
	 * in one VPTERNLOGQ) each cost 3-5% from L2 (gf_vect_mad at 64 KiB on Zen 5: 0.95x ISA-L
	 * with them, 1.08x without); in L1 they save issue slots, so that loop keeps them. */
	if (mid) {
#define EC_ACC_MID_LOAD(r)                                                                         \
	ev v##r = ev_zero();                                                                       \
	if ((r) < R) {                                                                             \
		v##r = ev_load(d##r + off);                                                        \
		__asm__("" : "+v"(v##r));                                                          \
	}
#define EC_ACC_MID_ROW(r)                                                                          \
	if ((r) < R) {                                                                             \
		ev p = ev_xor(ev_shuffle(m##r.lo, x.lo), ev_shuffle(m##r.hi, x.hi));               \
		__asm__("" : "+v"(p));                                                             \
		ev_store(d##r + off, ev_xor(v##r, p));                                             \
	}
		for (; off + EC_W <= n; off += EC_W) {
			ev s = ev_load(src + off);
			__asm__("" : "+v"(s));
			ec_src x = ec_prep(s);
			EC_ROWS8(EC_ACC_MID_LOAD)
			EC_ROWS8(EC_ACC_MID_ROW)
		}
#undef EC_ACC_MID_LOAD
#undef EC_ACC_MID_ROW
		return off;
	}
#else
	(void)mid;
#endif
	/* With EC_ACC_LOADS_FIRST every row's vector is loaded before the first store, else each
	 * row is loaded, added to and stored in turn. */
#if EC_ACC_LOADS_FIRST
#define EC_ACC_LOAD(r) const ev v##r = (r) < R ? ev_load(d##r + o) : ev_zero();
#define EC_ACC_ROW(r)                                                                              \
	if ((r) < R)                                                                               \
		ev_store(d##r + o, ec_mac(v##r, x, m##r));
#else
#define EC_ACC_LOAD(r)
#define EC_ACC_ROW(r)                                                                              \
	if ((r) < R)                                                                               \
		ev_store(d##r + o, ec_mac(ev_load(d##r + o), x, m##r));
#endif
	/* EC_ACC_STEP vectors an iteration where the rows leave the registers for it (C > 1). */
	const size_t step = C > 1 ? EC_ACC_STEP : 1;
#define EC_ACC_VEC(v)                                                                              \
	if ((v) < step) {                                                                          \
		size_t o = off + (v)*EC_W;                                                         \
		ec_src x = ec_prep(ev_load(src + o));                                              \
		EC_ROWS8(EC_ACC_LOAD)                                                              \
		EC_ROWS8(EC_ACC_ROW)                                                               \
	}
	if (step > 1)
		for (; off + step * EC_W <= n; off += step * EC_W) {
			EC_ACC_VEC(0)
			EC_ACC_VEC(1)
			EC_ACC_VEC(2)
			EC_ACC_VEC(3)
		}
#undef EC_ACC_VEC
	for (; off + EC_W <= n; off += EC_W) {
		size_t o = off;
		ec_src x = ec_prep(ev_load(src + o));
		EC_ROWS8(EC_ACC_LOAD)
		EC_ROWS8(EC_ACC_ROW)
	}
#undef EC_ACC_LOAD
#undef EC_ACC_ROW
	return off;
}

/* Whether none of the R output pointers is NULL, in one branch (R is a constant here): a loop
 * over them cost a 64 B ec_encode_data_update a fifth of its speed. */
EC_INLINE int EC_FN(outputs_ok)(const int R, uint8_t *const *dst)
{
	int bad = 0;
	for (int r = 0; r < R; r++)
		bad |= dst[r] == NULL;
	return !bad;
}

/* The one-source accumulating kernels of ec_encode_data_update, one per row count, each with
 * its five arguments in registers and the source pointer in no array: the call stores nothing
 * but the data (the loop is bound by its stores, and a 4 KiB update went through the general
 * row function's stack arguments and saved registers 2% slower). They check the output pointers
 * (a call with a NULL one does nothing). The whole vectors go through EC_FN(acc_loop), the last
 * bytes through the general span. */
typedef void EC_FN(acc_fn)(const uint8_t *src, size_t n, const uint8_t *tbls, size_t rstride,
                           uint8_t *const *dst);
#define EC_ACC_FN_AS(name, r, mid)                                                                 \
	static EC_ACC_ATTR void EC_FN(name)(const uint8_t *src, size_t n, const uint8_t *tbls,     \
	                                    size_t rstride, uint8_t *const *dst)                   \
	{                                                                                          \
		if (!EC_FN(outputs_ok)(r, dst))                                                    \
			return;                                                                    \
		size_t off =                                                                       \
		    EC_FN(acc_loop)(r, EC_COLS_ACC_FOR(r), mid, src, n, tbls, rstride, dst);       \
		if (off == n)                                                                      \
			return;                                                                    \
		const uint8_t *s[1] = { src };                                                     \
		EC_FN(span_restrict)                                                               \
		(r, EC_COLS_ACC_FOR(r), 1, s, off, n - off, tbls, rstride, 0, dst, 1, 1);          \
	}
#if EC_ACC_MID
#define EC_ACC_FN(r) EC_ACC_FN_AS(acc##r, r, 0) EC_ACC_FN_AS(acc_mid##r, r, 1)
#else
#define EC_ACC_FN(r) EC_ACC_FN_AS(acc##r, r, 0)
#endif
EC_ACC_FN(1)
#if EC_RMAX >= 2
EC_ACC_FN(2)
#endif
#if EC_RMAX >= 3
EC_ACC_FN(3)
#endif
#if EC_RMAX >= 4
EC_ACC_FN(4)
#endif
#if EC_RMAX >= 5
EC_ACC_FN(5)
#endif
#if EC_RMAX >= 6
EC_ACC_FN(6)
#endif
#if EC_RMAX >= 7
EC_ACC_FN(7)
#endif
#if EC_RMAX >= 8
EC_ACC_FN(8)
#endif
#undef EC_ACC_FN
#undef EC_ACC_FN_AS

static EC_FN(acc_fn) *const EC_FN(acc)[9] = {
	NULL,        EC_FN(acc1),
#if EC_RMAX >= 2
	EC_FN(acc2),
#endif
#if EC_RMAX >= 3
	EC_FN(acc3),
#endif
#if EC_RMAX >= 4
	EC_FN(acc4),
#endif
#if EC_RMAX >= 5
	EC_FN(acc5),
#endif
#if EC_RMAX >= 6
	EC_FN(acc6),
#endif
#if EC_RMAX >= 7
	EC_FN(acc7),
#endif
#if EC_RMAX >= 8
	EC_FN(acc8),
#endif
};
#if EC_ACC_MID
static EC_FN(acc_fn) *const EC_FN(acc_mid)[9] = {
	NULL,        EC_FN(acc_mid1),
#if EC_RMAX >= 2
	EC_FN(acc_mid2),
#endif
#if EC_RMAX >= 3
	EC_FN(acc_mid3),
#endif
#if EC_RMAX >= 4
	EC_FN(acc_mid4),
#endif
#if EC_RMAX >= 5
	EC_FN(acc_mid5),
#endif
#if EC_RMAX >= 6
	EC_FN(acc_mid6),
#endif
#if EC_RMAX >= 7
	EC_FN(acc_mid7),
#endif
#if EC_RMAX >= 8
	EC_FN(acc_mid8),
#endif
};
#endif

/* dst[r] ^= c_r * src for R rows over n bytes through the kernel for the length: with
 * EC_ACC_MID, the mid one when the source and the outputs outgrow this CPU's L1 data cache but
 * not EC_MID_BYTES. Lengths that fit L1 on some CPUs and not on others look the size up out of
 * line, so that the callers keep no frame (1 KiB update: 0.96 -> 0.90 of ISA-L's with one). */
#if EC_ACC_MID
__attribute__((noinline)) static void EC_FN(acc_l1d)(size_t R, const uint8_t *src, size_t n,
                                                     const uint8_t *tbls, size_t rstride,
                                                     uint8_t *const *dst)
{
	if (EC_FN(fits_l1d)((R + 1) * n))
		EC_FN(acc)[R](src, n, tbls, rstride, dst);
	else
		EC_FN(acc_mid)[R](src, n, tbls, rstride, dst);
}
#endif
EC_INLINE void EC_FN(acc_call)(size_t R, const uint8_t *src, size_t n, const uint8_t *tbls,
                               size_t rstride, uint8_t *const *dst)
{
#if EC_ACC_MID
	size_t bytes = (R + 1) * n;
	if (bytes > EC_NEAR_BYTES && bytes <= EC_L1D_MAX_BYTES) {
		EC_FN(acc_l1d)(R, src, n, tbls, rstride, dst);
		return;
	}
	if (bytes > EC_NEAR_BYTES && bytes <= EC_MID_BYTES) {
		EC_FN(acc_mid)[R](src, n, tbls, rstride, dst);
		return;
	}
#endif
	EC_FN(acc)[R](src, n, tbls, rstride, dst);
}

#if EC_GFNI && EC_W == 64
/* One output row from two or three sources in one near pass (2+1, and decoding one loss of such a
 * code), with the source count a constant: the kernel reads the caller's tables and derives each
 * matrix once, into a register, before its loop; no stack array, no store and reload between
 * derivation and use. The API functions call it before EC_FN(run), which keeps its frame for the
 * other shapes (2+1 at 4 KiB, mb harness: 213 -> 274 GB/s, upstream 166). Two rows gain nothing
 * this way: with four vectors per row GCC reloads sources for the second row, and with two the
 * call runs as fast as through the stack array (3+2 at 4 KiB). */
#define EC_REG_SOURCES 3
typedef void EC_FN(reg_fn)(const uint8_t *const *src, size_t n, const uint8_t *tbls,
                           uint8_t *const *dst);
#define EC_REG_FN(kk)                                                                              \
	static void EC_FN(reg##kk)(const uint8_t *const *src, size_t n, const uint8_t *tbls,       \
	                           uint8_t *const *dst)                                            \
	{                                                                                          \
		EC_FN(span_restrict)(1, EC_COLS_FEW, kk, src, 0, n, tbls, 0, EC_TBL, dst, 0, 1);   \
	}
EC_REG_FN(2)
EC_REG_FN(3)
#undef EC_REG_FN
static EC_FN(reg_fn) *const
    EC_FN(reg)[EC_REG_SOURCES + 1] = { NULL, NULL, EC_FN(reg2), EC_FN(reg3) };

/* One row from k sources through EC_FN(reg) when its shape fits; 1 when done. */
EC_INLINE int EC_FN(one_row_reg)(int len, int k, const uint8_t *tbls, void *src, uint8_t **dst)
{
	if (k <= 1 || k > EC_REG_SOURCES || EC_FN(far)((size_t)k, 1, (size_t)len))
		return 0;
	EC_FN(reg)[k]((const uint8_t *const *)src, (size_t)len, tbls, dst);
	return 1;
}
#endif

#if EC_GFNI && EC_W == 32
#define EC_FEW 1
/* A coefficient of the few-source kernels: its matrix, derived before the loop. */
typedef ec_coef ec_few_coef;

EC_INLINE ec_few_coef ec_few_coef_tbl(const uint8_t *row, size_t off)
{
	return ec_coef_tbl(row + off);
}
EC_INLINE const uint8_t *ec_few_row(const uint8_t *row)
{
	return row;
}
EC_INLINE ev ec_few_mul(ec_src x, const uint8_t *row, ec_few_coef m)
{
	(void)row;
	return ev_affine(x, m);
}
#elif EC_W == 16
/* At 128 bits a coefficient is its table's offset in the row's tables, whose halves are loaded
 * at each product (ec_mul_at): two rows of four sources would want sixteen table registers. The
 * row's address passes through an empty asm at every vector, so that GCC addresses the tables
 * from it with constant displacements; otherwise it hoists all sixteen addresses out of the loop
 * into registers and spills them. */
#define EC_FEW 1
typedef size_t ec_few_coef;

EC_INLINE ec_few_coef ec_few_coef_tbl(const uint8_t *row, size_t off)
{
	(void)row;
	return off;
}
EC_INLINE const uint8_t *ec_few_row(const uint8_t *row)
{
	__asm__("" : "+r"(row));
	return row;
}
EC_INLINE ev ec_few_mul(ec_src x, const uint8_t *row, ec_few_coef off)
{
	return ec_mul_at(x, row + off);
}
#else
#define EC_FEW 0
#endif

#if EC_FEW
/* One or two output rows from two to four sources, the small codes (2+1, 4+2 and their decodes) of
 * the 256-bit GFNI and the 128-bit kernels: every matrix derived from the caller's tables into a
 * named local and every pointer copied to one before the loop, which then only loads sources and
 * stores outputs. The general block reloads a source pointer, a matrix and (after each store, which
 * may alias it) the output pointer per vector: 16 loads per four vectors of 2+1 against 8 here.
 * Each column is finished (all sources, its one or two rows stored) before the next, so a column
 * needs only its source, its two sums and a product in registers beside the R x K matrices. */
#define EC_FEW_SOURCES 4
#define EC_SOURCES4(X) X(0) X(1) X(2) X(3)

EC_INLINE void EC_FN(few_body)(const int R, const int K, const uint8_t *const *src, size_t n,
                               const uint8_t *tbls, size_t rstride, uint8_t *const *dst)
{
#define EC_FEW_SETUP(j)                                                                            \
	const uint8_t *s##j = src[(j) < K ? (j) : 0];                                              \
	const ec_few_coef m0##j = ec_few_coef_tbl(t0, ((j) < K ? (j) : 0) * EC_TBL);               \
	const ec_few_coef m1##j = R > 1 ? ec_few_coef_tbl(t1, ((j) < K ? (j) : 0) * EC_TBL) : m0##j;
	const uint8_t *t0 = tbls, *t1 = R > 1 ? tbls + rstride : tbls;
	EC_SOURCES4(EC_FEW_SETUP)
#undef EC_FEW_SETUP
	uint8_t *d0 = dst[0], *d1 = R > 1 ? dst[1] : dst[0];
	/* The vector at o of each row: source 0's products start the sums. */
#define EC_FEW_ADD(j)                                                                              \
	if ((j) > 0 && (j) < K) {                                                                  \
		ec_src x = ec_prep(ev_load(s##j + o));                                             \
		p0 = ev_xor(p0, ec_few_mul(x, r0, m0##j));                                         \
		if (R > 1)                                                                         \
			p1 = ev_xor(p1, ec_few_mul(x, r1, m1##j));                                 \
	}
#define EC_FEW_VEC(o_)                                                                             \
	{                                                                                          \
		const size_t o = (o_);                                                             \
		const uint8_t *r0 = ec_few_row(t0), *r1 = R > 1 ? ec_few_row(t1) : r0;             \
		ec_src x0 = ec_prep(ev_load(s0 + o));                                              \
		ev p0 = ec_few_mul(x0, r0, m00), p1 = p0;                                          \
		if (R > 1)                                                                         \
			p1 = ec_few_mul(x0, r1, m10);                                              \
		EC_SOURCES4(EC_FEW_ADD)                                                            \
		ev_store(d0 + o, p0);                                                              \
		if (R > 1)                                                                         \
			ev_store(d1 + o, p1);                                                      \
	}
	size_t off = 0;
	/* Two vectors an iteration: 2+1 at 64 KiB (sources from L2) ran 5-15% faster than with
	 * four, at 4 KiB as fast or faster; one lost 10% at 4 KiB. */
	for (; off + 2 * EC_W <= n; off += 2 * EC_W) {
		EC_FEW_VEC(off)
		EC_FEW_VEC(off + EC_W)
	}
	for (; off + EC_W <= n; off += EC_W)
		EC_FEW_VEC(off)
	/* The last bytes: the last whole vector again (outputs come from the sources alone). */
	if (off < n)
		EC_FEW_VEC(n - EC_W)
#undef EC_FEW_VEC
#undef EC_FEW_ADD
}

typedef void EC_FN(few_fn)(const uint8_t *const *src, size_t n, const uint8_t *tbls,
                           size_t rstride, uint8_t *const *dst);
#define EC_FEW_FN(r, kk)                                                                           \
	static void EC_FN(few##r##_##kk)(const uint8_t *const *src, size_t n, const uint8_t *tbls, \
	                                 size_t rstride, uint8_t *const *dst)                      \
	{                                                                                          \
		EC_FN(few_body)(r, kk, src, n, tbls, rstride, dst);                                \
	}
EC_FEW_FN(1, 2)
EC_FEW_FN(1, 3)
EC_FEW_FN(1, 4)
EC_FEW_FN(2, 2)
EC_FEW_FN(2, 3)
EC_FEW_FN(2, 4)
#undef EC_FEW_FN
static EC_FN(few_fn) *const EC_FN(few)[2][EC_FEW_SOURCES + 1] = {
	{ NULL, NULL, EC_FN(few1_2), EC_FN(few1_3), EC_FN(few1_4) },
	{ NULL, NULL, EC_FN(few2_2), EC_FN(few2_3), EC_FN(few2_4) },
};

/* rows rows from k sources through EC_FN(few) when the shape fits (and there is a whole vector
 * to end on); 1 when done. */
EC_INLINE int EC_FN(few_rows)(int len, int k, int rows, const uint8_t *tbls, void *src,
                              uint8_t **dst)
{
	if (rows > 2 || k < 2 || k > EC_FEW_SOURCES || len < EC_W)
		return 0;
	EC_FN(few)[rows - 1][k]((const uint8_t *const *)src, (size_t)len, tbls, (size_t)k * EC_TBL,
	                        dst);
	return 1;
}
#endif

/* Rows of a set split into passes of at most EC_RMAX, sizes as even as possible. */
EC_INLINE size_t EC_FN(pass_rows)(size_t nrows, size_t pass, size_t npasses)
{
	return nrows / npasses + (pass < nrows % npasses);
}

#if EC_GFNI
/* The matrices of rows x k coefficients, row after row; in one go when the rows' tables follow
 * each other (encode) or when each row has one (update). */
EC_INLINE void EC_FN(all_matrices)(const uint8_t *tbls, size_t rstride, size_t k, size_t rows,
                                   uint64_t *mats)
{
	if (rstride == k * EC_TBL)
		EC_FN(matrices)(tbls, EC_TBL, k * rows, mats);
	else if (k == 1)
		EC_FN(matrices)(tbls, rstride, rows, mats);
	else
		for (size_t r = 0; r < rows; r++)
			EC_FN(matrices)(tbls + r * rstride, EC_TBL, k, mats + r * k);
}
#endif

/* dst[r] (= or ^=) sum over j of c(r, j) * src[j] over [0, len), for r < rows, where c(r, j) is
 * the table at tbls + r * rstride + j * jstride (jstride is EC_TBL, or k is 1). The general case:
 * rows in sets whose matrices fit the stack array, each set in passes of at most EC_RMAX rows
 * over chunks of the length. */
static __attribute__((noinline)) void EC_FN(run_sets)(size_t len, size_t k, size_t rows,
                                                      const uint8_t *tbls, size_t rstride,
                                                      size_t jstride, const uint8_t *const *src,
                                                      uint8_t *const *dst, int accumulate)
{
#if EC_GFNI
	uint64_t mats[EC_MATS];
	size_t set_rows = k == 1 || k * rows <= EC_MATS ? rows : EC_MATS / k;
#else
	size_t set_rows = rows;
#endif
	for (size_t r0 = 0; r0 < rows; r0 += set_rows) {
		size_t nrows = rows - r0 < set_rows ? rows - r0 : set_rows;
		size_t npasses = 1, chunk = len;
		if (nrows > EC_RMAX) {
			npasses = (nrows + EC_RMAX - 1) / EC_RMAX;
			chunk = EC_CHUNK_BYTES / k & ~(size_t)(EC_COLS_MAX * EC_W - 1);
			if (chunk < EC_COLS_MAX * EC_W)
				chunk = EC_COLS_MAX * EC_W;
		}
#if EC_GFNI
		const uint8_t *coef = tbls + r0 * rstride;
		size_t cstride = rstride;
		if (k > 1) {
			EC_FN(all_matrices)(coef, rstride, k, nrows, mats);
			coef = (const uint8_t *)mats;
			cstride = 8 * k;
		}
#else
		const uint8_t *coef = tbls + r0 * rstride;
		size_t cstride = rstride;
#endif
		for (size_t at = 0; at < len; at += chunk) {
			size_t n = len - at < chunk ? len - at : chunk;
			for (size_t p = 0, r = 0; p < npasses; p++) {
				size_t R =
				    npasses == 1 ? nrows : EC_FN(pass_rows)(nrows, p, npasses);
				EC_FN(rows)
				[R](k, src, at, n, coef + r * cstride, cstride, jstride,
				    dst + r0 + r, accumulate);
				r += R;
			}
		}
	}
}

/* The row function of a call's one pass of rows over len bytes from k sources. */
EC_INLINE EC_FN(rows_fn) *EC_FN(pass_fn)(size_t k, size_t rows, size_t len, int accumulate)
{
#if EC_NEAR_L1D
	if (!accumulate && EC_FN(in_l1d)(k, rows, len))
		return EC_FN(near)[rows];
#else
	(void)k;
	(void)len;
	(void)accumulate;
#endif
	return EC_FN(rows)[rows];
}

/* Most calls are one pass with few matrices (10+4 has 40): no sets, no chunks, a small stack
 * frame, straight to the kernel. */
#define EC_FEW_MATS 256

static void EC_FN(run)(size_t len, size_t k, size_t rows, const uint8_t *tbls, size_t rstride,
                       size_t jstride, const uint8_t *const *src, uint8_t *const *dst,
                       int accumulate)
{
	if (rows > EC_RMAX || k * rows > EC_FEW_MATS) {
		EC_FN(run_sets)(len, k, rows, tbls, rstride, jstride, src, dst, accumulate);
		return;
	}
#if EC_GFNI
	if (k == 1) {
		EC_FN(rows)[rows](1, src, 0, len, tbls, rstride, jstride, dst, accumulate);
		return;
	}
	uint64_t mats[EC_FEW_MATS];
	EC_FN(all_matrices)(tbls, rstride, k, rows, mats);
	EC_FN(pass_fn)(k, rows, len, accumulate)
	(k, src, 0, len, (const uint8_t *)mats, 8 * k, jstride, dst, accumulate);
#else
	EC_FN(pass_fn)(k, rows, len, accumulate)(k, src, 0, len, tbls, rstride, jstride, dst, accumulate);
#endif
}

/* ---- the API-shaped variants ---- */

void EC_CAT(stoa_ec_encode_data, EC_SFX)(int len, int k, int rows, unsigned char *gftbls,
                                    unsigned char **data, unsigned char **coding)
{
	if (!ec_encode_args_ok(len, k, rows, gftbls, data, coding))
		return;
#if EC_GFNI && EC_W == 64
	if (rows == 1 && EC_FN(one_row_reg)(len, k, gftbls, data, coding))
		return;
#elif EC_FEW
	if (EC_FN(few_rows)(len, k, rows, gftbls, data, coding))
		return;
#endif
	EC_FN(run)
	((size_t)len, (size_t)k, (size_t)rows, gftbls, (size_t)k * EC_TBL, EC_TBL,
	 (const uint8_t *const *)data, coding, 0);
}

void EC_CAT(stoa_ec_encode_data_update, EC_SFX)(int len, int k, int rows, int vec_i,
                                           unsigned char *g_tbls, unsigned char *data,
                                           unsigned char **coding)
{
	if (!ec_update_shape_ok(len, k, rows, vec_i, g_tbls, data, coding))
		return;
	const uint8_t *tbls = g_tbls + (size_t)vec_i * EC_TBL;
	size_t rstride = (size_t)k * EC_TBL;
	/* One source: the kernels read the tables, so nothing to prepare on the way (and they check
	 * the output pointers). */
	if (rows <= EC_RMAX) {
		EC_FN(acc_call)((size_t)rows, data, (size_t)len, tbls, rstride, coding);
		return;
	}
	if (!ec_update_args_ok(len, k, rows, vec_i, g_tbls, data, coding))
		return;
	const uint8_t *src[1] = { data };
	EC_FN(run_sets)((size_t)len, 1, (size_t)rows, tbls, rstride, EC_TBL, src, coding, 1);
}

void EC_CAT(stoa_gf_vect_dot_prod, EC_SFX)(int len, int vlen, unsigned char *gftbls, unsigned char **src,
                                      unsigned char *dest)
{
	if (!ec_encode_args_ok(len, vlen, 1, gftbls, src, &dest))
		return;
#if EC_GFNI && EC_W == 64
	if (EC_FN(one_row_reg)(len, vlen, gftbls, src, &dest))
		return;
#elif EC_FEW
	if (EC_FN(few_rows)(len, vlen, 1, gftbls, src, &dest))
		return;
#endif
	EC_FN(run)
	((size_t)len, (size_t)vlen, 1, gftbls, 0, EC_TBL, (const uint8_t *const *)src, &dest, 0);
}

void EC_CAT(stoa_gf_vect_mad, EC_SFX)(int len, int vec, int vec_i, unsigned char *gftbls,
                                 unsigned char *src, unsigned char *dest)
{
	if (!ec_update_args_ok(len, vec, 1, vec_i, gftbls, src, &dest))
		return;
	EC_FN(acc_call)(1, src, (size_t)len, gftbls + (size_t)vec_i * EC_TBL, 0, &dest);
}

int EC_CAT(stoa_gf_vect_mul, EC_SFX)(int len, unsigned char *gftbl, void *src, void *dest)
{
	int go = ec_mul_args(len, gftbl, src, dest);
	if (go <= 0)
		return go;
	const uint8_t *s[1] = { src };
	uint8_t *d[1] = { dest };
	EC_FN(span_restrict)(1, EC_COLS_FEW, 1, s, 0, (size_t)len, gftbl, 0, 0, d, 0, 1);
	return 0;
}

#undef EC_ROWS8
#undef EC_INLINE
#undef EC_CAT2
#undef EC_CAT
#undef EC_FN
#undef EC_CHUNK_BYTES
#undef EC_MATS
#undef EC_FEW_MATS
#undef EC_REG_SOURCES
#undef EC_FEW_SOURCES
#undef EC_FEW
#undef EC_SOURCES4
#undef EC_BOUNCE
#undef EC_PEXT_1248
#undef EC_TRANSPOSE_INPUT
#undef EC_PICK_COLUMNS
#undef EC_W
#undef EC_GFNI
#undef EC_SFX
#undef EC_RMAX
#undef EC_COLS
#undef EC_COLS_FEW
#undef EC_COLS_ONE
#undef EC_COLS_MANY
#undef EC_COLS_FOR
#undef EC_COLS_ACC
#undef EC_COLS_ACC_FOR
#undef EC_COLS_FAR
#undef EC_FAR_BEYOND_L2
#undef EC_ACC_STEP
#undef EC_ACC_LOADS_FIRST
#undef EC_FAR_SINGLES
#undef EC_ROWS_PARAMS
#undef EC_NEAR_L1D
#undef EC_L1D_WAY_BYTES
#undef EC_L1D_MAX_BYTES
#undef EC_COLS_CROWDED
#undef EC_COLS_MID
#undef EC_ROWS_ALIGN
#undef EC_ROWS_ATTR
#undef EC_ACC_ALIGN
#undef EC_ACC_ATTR
#undef EC_NEAR_BYTES
#undef EC_MID_BYTES
#undef EC_FAR_SOURCES
#undef EC_MANY_STREAMS
#undef EC_L2_BYTES
#undef EC_COLS_MAX
#undef EC_PAIRS
