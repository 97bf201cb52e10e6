/* The vector vocabulary of the RAID templates, at one width per translation unit.
 *
 * Parameters, defined before inclusion:
 *   RAID_W     vector width in bytes: 16 (SSE4.1), 32 (AVX2) or 64 (AVX-512 F/BW/VL/DQ)
 *   RAID_GFNI  1 when the file is built with GFNI: GF(2^8) products by a constant are one
 *              affine instruction; 0 multiplies by 2 with add and a conditional reduction
 *
 * Defines the type rv and static inline operations on it; RAID_PARTIAL is 1 when the width has
 * byte-masked loads and stores (the templates then finish a buffer in vector code, else they
 * hand the last bytes to the portable kernels). Then the same operations on rvb, a block of four
 * vectors at consecutive addresses: the templates' unit of work. Its members are named, not an
 * array, so the compiler keeps every one in a register (gcc left an array of accumulators on the
 * stack even under an unroll pragma). */
#ifndef STOA_RAID_SIMD_H
#define STOA_RAID_SIMD_H

#include <immintrin.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <x86intrin.h>

#include "common/x86/cold.h"
#include "raid_arch.h"

#if !defined(RAID_W) || !defined(RAID_GFNI)
#error "define RAID_W and RAID_GFNI before including raid_simd.h"
#endif

#define RAID_INLINE static inline __attribute__((always_inline))

/* Products by 2 and by 4 mod 0x11D as 8x8 bit matrices for GF2P8AFFINEQB (GFNI's own multiply
 * uses the AES polynomial 0x11B, so it cannot serve). Byte 7 - i of the qword selects the input
 * bits whose parity is output bit i. For 2: output bit i takes input bit i - 1, and input bit 7
 * also lands in bits 0, 2, 3 and 4 (the polynomial's low byte, 0x1D). For 4 likewise, with input
 * bits 6 and 7 folded back. The tests check both against the portable shift-and-reduce. */
#define RAID_GF_MUL2_MATRIX 0x8001828488102040ull
#define RAID_GF_MUL4_MATRIX 0x408041c2c4881020ull

#if RAID_W == 64

typedef __m512i rv;
#define RAID_PARTIAL 1

RAID_INLINE rv rv_load(const uint8_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}
RAID_INLINE void rv_store(uint8_t *p, rv v)
{
	_mm512_storeu_si512((void *)p, v);
}
/* Non-temporal: p must be 64-byte aligned. */
RAID_INLINE void rv_stream(uint8_t *p, rv v)
{
	_mm512_stream_si512((void *)p, v);
}
/* The first n (< 64) bytes at p; the others read as zero and are never touched. */
RAID_INLINE rv rv_load_part(const uint8_t *p, size_t n)
{
	return _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)n), (const void *)p);
}
RAID_INLINE void rv_store_part(uint8_t *p, rv v, size_t n)
{
	_mm512_mask_storeu_epi8((void *)p, _bzhi_u64(~0ull, (unsigned)n), v);
}
RAID_INLINE rv rv_xor(rv a, rv b)
{
	return _mm512_xor_si512(a, b);
}
RAID_INLINE rv rv_xor3(rv a, rv b, rv c)
{
	return _mm512_ternarylogic_epi64(a, b, c, 0x96);
}
/* a | (b ^ c): gathers the differences of a check. */
RAID_INLINE rv rv_or_xor(rv a, rv b, rv c)
{
	return _mm512_ternarylogic_epi64(a, b, c, 0xf6);
}
RAID_INLINE rv rv_or(rv a, rv b)
{
	return _mm512_or_si512(a, b);
}
RAID_INLINE int rv_nonzero(rv a)
{
	return _mm512_test_epi64_mask(a, a) != 0;
}

#if RAID_GFNI
RAID_INLINE rv rv_gf_mul(rv a, uint64_t matrix)
{
	return _mm512_gf2p8affine_epi64_epi8(a, _mm512_set1_epi64((long long)matrix), 0);
}
#else
/* q * 2 ^ d: double each byte, and where its top bit was set add the polynomial's low byte. */
RAID_INLINE rv rv_horner1(rv q, rv d)
{
	__m512i fold = _mm512_maskz_mov_epi8(_mm512_movepi8_mask(q), _mm512_set1_epi8(0x1d));
	return _mm512_ternarylogic_epi64(_mm512_add_epi8(q, q), fold, d, 0x96);
}
#endif

#elif RAID_W == 32

typedef __m256i rv;
#define RAID_PARTIAL 0

RAID_INLINE rv rv_load(const uint8_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}
RAID_INLINE void rv_store(uint8_t *p, rv v)
{
	_mm256_storeu_si256((__m256i *)p, v);
}
/* Non-temporal: p must be 32-byte aligned. */
RAID_INLINE void rv_stream(uint8_t *p, rv v)
{
	_mm256_stream_si256((__m256i *)p, v);
}
RAID_INLINE rv rv_xor(rv a, rv b)
{
	return _mm256_xor_si256(a, b);
}
RAID_INLINE rv rv_xor3(rv a, rv b, rv c)
{
#ifdef __AVX512VL__
	return _mm256_ternarylogic_epi64(a, b, c, 0x96);
#else
	return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
#endif
}
RAID_INLINE rv rv_or(rv a, rv b)
{
	return _mm256_or_si256(a, b);
}
RAID_INLINE rv rv_or_xor(rv a, rv b, rv c)
{
#ifdef __AVX512VL__
	return _mm256_ternarylogic_epi64(a, b, c, 0xf6);
#else
	return _mm256_or_si256(a, _mm256_xor_si256(b, c));
#endif
}
RAID_INLINE int rv_nonzero(rv a)
{
	return !_mm256_testz_si256(a, a);
}

#if RAID_GFNI
RAID_INLINE rv rv_gf_mul(rv a, uint64_t matrix)
{
	return _mm256_gf2p8affine_epi64_epi8(a, _mm256_set1_epi64x((long long)matrix), 0);
}
#else
/* q * 2 ^ d: VPBLENDVB picks the polynomial's low byte by each byte's top bit. Told that the
 * other choice is zero, GCC 12 makes the blend a VPCMPGTB and a VPAND, two instructions where
 * one does (ISA-L's pq_gen_avx2 loop takes five per source vector, this one took six): the zero
 * goes through an empty asm, so that the compiler no longer knows it. */
RAID_INLINE rv rv_horner1(rv q, rv d)
{
	__m256i zero = _mm256_setzero_si256();
	__asm__("" : "+x"(zero));
	__m256i fold = _mm256_blendv_epi8(zero, _mm256_set1_epi8(0x1d), q);
	return _mm256_xor_si256(_mm256_xor_si256(_mm256_add_epi8(q, q), fold), d);
}
#endif

#elif RAID_W == 16

typedef __m128i rv;
#define RAID_PARTIAL 0

RAID_INLINE rv rv_load(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}
/* With al (a constant where it is called) p is 16-byte aligned: a legacy-SSE pxor can then take
 * the load as its memory operand, one instruction where an unaligned load needs two. */
RAID_INLINE rv rv_load_al(const uint8_t *p, int al)
{
	return al ? _mm_load_si128((const __m128i *)p) : _mm_loadu_si128((const __m128i *)p);
}
RAID_INLINE void rv_store(uint8_t *p, rv v)
{
	_mm_storeu_si128((__m128i *)p, v);
}
/* Non-temporal: p must be 16-byte aligned. */
RAID_INLINE void rv_stream(uint8_t *p, rv v)
{
	_mm_stream_si128((__m128i *)p, v);
}
RAID_INLINE rv rv_xor(rv a, rv b)
{
	return _mm_xor_si128(a, b);
}
RAID_INLINE rv rv_xor3(rv a, rv b, rv c)
{
	return _mm_xor_si128(_mm_xor_si128(a, b), c);
}
RAID_INLINE rv rv_or(rv a, rv b)
{
	return _mm_or_si128(a, b);
}
RAID_INLINE rv rv_or_xor(rv a, rv b, rv c)
{
	return _mm_or_si128(a, _mm_xor_si128(b, c));
}
RAID_INLINE int rv_nonzero(rv a)
{
	return !_mm_testz_si128(a, a);
}

#if RAID_GFNI
#error "the 128-bit kernels have no GFNI form"
#else
/* q * 2 ^ d: PBLENDVB picks the polynomial's low byte by each byte's top bit. */
RAID_INLINE rv rv_horner1(rv q, rv d)
{
	__m128i fold = _mm_blendv_epi8(_mm_setzero_si128(), _mm_set1_epi8(0x1d), q);
	return _mm_xor_si128(_mm_xor_si128(_mm_add_epi8(q, q), fold), d);
}
#endif

#else
#error "RAID_W must be 16, 32 or 64"
#endif

#if RAID_GFNI
RAID_INLINE rv rv_horner1(rv q, rv d)
{
	return rv_xor(rv_gf_mul(q, RAID_GF_MUL2_MATRIX), d);
}
/* Two Horner steps at once, q * 4 ^ hi * 2 ^ lo: the two products are independent, so the
 * chain through q is one affine and one XOR per pair of sources. */
RAID_INLINE rv rv_horner2(rv q, rv hi, rv lo)
{
	return rv_xor3(rv_gf_mul(q, RAID_GF_MUL4_MATRIX), rv_gf_mul(hi, RAID_GF_MUL2_MATRIX), lo);
}
#else
RAID_INLINE rv rv_horner2(rv q, rv hi, rv lo)
{
	return rv_horner1(rv_horner1(q, hi), lo);
}
#endif

/* A block: four vectors, 4 * RAID_W consecutive bytes. RVB_MAP and RVB_EACH spell out an
 * operation on each member. */
#if RAID_W != 16
/* VEX and EVEX instructions take unaligned memory operands: alignment changes nothing. */
RAID_INLINE rv rv_load_al(const uint8_t *p, int al)
{
	(void)al;
	return rv_load(p);
}
#endif
#define RAID_BLOCK (4 * RAID_W)
typedef struct {
	rv v0, v1, v2, v3;
} rvb;
#define RVB_MAP(f) { f(0), f(1), f(2), f(3) }
#define RVB_EACH(f) f(0); f(1); f(2); f(3)

RAID_INLINE rvb rvb_load(const uint8_t *p)
{
#define F(i) rv_load(p + i * RAID_W)
	return (rvb)RVB_MAP(F);
#undef F
}
RAID_INLINE rvb rvb_load_al(const uint8_t *p, int al)
{
#define F(i) rv_load_al(p + i * RAID_W, al)
	return (rvb)RVB_MAP(F);
#undef F
}
RAID_INLINE void rvb_store(uint8_t *p, rvb a)
{
#define F(i) rv_store(p + i * RAID_W, a.v##i)
	RVB_EACH(F);
#undef F
}
RAID_INLINE void rvb_stream(uint8_t *p, rvb a)
{
#define F(i) rv_stream(p + i * RAID_W, a.v##i)
	RVB_EACH(F);
#undef F
}
RAID_INLINE rvb rvb_xor(rvb a, rvb b)
{
#define F(i) rv_xor(a.v##i, b.v##i)
	return (rvb)RVB_MAP(F);
#undef F
}
RAID_INLINE rvb rvb_xor3(rvb a, rvb b, rvb c)
{
#define F(i) rv_xor3(a.v##i, b.v##i, c.v##i)
	return (rvb)RVB_MAP(F);
#undef F
}
RAID_INLINE rvb rvb_horner1(rvb q, rvb d)
{
#define F(i) rv_horner1(q.v##i, d.v##i)
	return (rvb)RVB_MAP(F);
#undef F
}
RAID_INLINE rvb rvb_horner2(rvb q, rvb hi, rvb lo)
{
#define F(i) rv_horner2(q.v##i, hi.v##i, lo.v##i)
	return (rvb)RVB_MAP(F);
#undef F
}

/* Calls whose buffers together take more than twice a core's L2 (1 MiB on the Zen 5 this was
 * tuned on) take the streaming paths: parity stored around the caches with non-temporal stores,
 * since nothing will read it from cache soon and it would only evict sources. Measured on Zen 5
 * at 16+1 and 16+2 x 1 MiB against plain stores: P+Q 1.3-1.8x faster; XOR 1.3x faster when the
 * sources lie at different offsets within their pages, but with every source page-aligned (all
 * of them competing for the same L1 sets) 10-30% slower; the XOR gain needed 256-bit loads,
 * which the AVX-512 variant borrows for this path (raid_xor_gen_stream_avx2). With the sources in
 * cache, at 16 x 64 KiB (1.1 MiB in all) streaming lost 5-10%, at 16 x 128 KiB it won. Smaller
 * calls, and page-aligned XOR, stream when their sources are found in DRAM (raid_cold_start);
 * XOR at 128 and 256 bits, its sources walked downwards, streams them from cache too (see
 * xor_gen_kernel).
 * P+Q below 512 bits does not stream on size alone: it asks the probe (raid_cold_start) at every
 * size, since sources still in a large L3 lose to non-temporal parity (Zen 3, 16+2 x 1 MiB in
 * cache: 14 GB/s streaming against 34-43 with ordinary stores); at 256 bits large calls stream
 * from a partly spilled L3 too (RAID_SPILL_TICKS). */
#define RAID_STREAM_BYTES ((size_t)2 << 20)

RAID_INLINE int raid_streaming(size_t nbuf, size_t len)
{
	return len >= 2 * RAID_BLOCK && nbuf * len >= RAID_STREAM_BYTES;
}

/* Sources in DRAM. Below RAID_STREAM_BYTES whether the parity should go around the caches
 * depends on where the sources are: from cache, non-temporal stores cost 5-20% (16+2 x 4-64 KiB
 * on Zen 4); from DRAM they save the parity's read for ownership, and with the sources
 * prefetched ahead into L2 (the hardware prefetchers follow 16-18 streams that each cross a page
 * every 4 KiB poorly) and two lines per source at a time (RAID_STEP), P+Q was 10-40% faster at
 * 16+2 x 4-64 KiB and XOR 5-25% at 16+1 x 8-64 KiB. So calls of at least RAID_PROBE_MIN bytes
 * (XOR: RAID_XOR_PROBE_MIN) time their first RAID_PROBE_SPAN bytes per buffer with the
 * time-stamp counter; more than RAID_COLD_TICKS means cold. With 256 bytes per buffer (Zen 4,
 * 2.6 GHz counter, 16 sources walked as stoa_perf --cold walks them) the counter read from DRAM
 * 960-8000 ticks, median ~1900 (the page walks and DRAM reads of every source), over the
 * threshold in 99.8% of calls; from L2 64-320; from a pool of 6 MiB (mostly L3) median 128-192,
 * 95% under 650, 3-4% over the threshold (the share of that pool not in L3: a span of 512 bytes
 * classed it alike). The second read is not serialized (a serializing RDTSCP cost 1-2% at 16+2
 * x 4 KiB in cache, this 0.3%), yet in practice it waited for the span's loads; a CPU that read
 * it early would make calls look warm, and a wrong guess only ever costs speed. XOR, where the
 * parity is a smaller share of the traffic, gained nothing at 16+1 x 4 KiB and lost 1% in cache,
 * so it probes from 8 KiB.
 *
 * The paths from DRAM prefetch every line, two per source per step, RAID_AHEAD bytes ahead, and
 * on finding DRAM first ask at once for every line up to there (raid_prefetch_span): the sooner
 * all of them are in flight, the less of a short call waits on one source after another.
 * Against a 512-byte probe and one prefetch per source every other step 1024 bytes ahead (the
 * lines between left to the adjacent-line and stream prefetchers), timed per call on buffers
 * walked as stoa_perf --cold walks them, as a share of the 16+1 read-only kernel's bandwidth in
 * the same run (Zen 4): P+Q 16+2 x 4 KiB 0.96 -> 1.09, 8 KiB 0.98 -> 1.11, 64 KiB 1.08 -> 1.20
 * (page-aligned 0.90 -> 1.05, 0.92 -> 1.09, 1.01 -> 1.16), 1 MiB +8%; XOR 16+1 x 8 and 64 KiB
 * +3-5%. When the machine's other work loaded memory the hardware prefetchers fell further
 * behind, and P+Q 8 KiB had dropped to 0.84-0.92 of the read kernel. Per line, 512 bytes ahead
 * beat 768 and 1024 (at 16 x 64 KiB by 5-6%). */
#define RAID_PROBE_MIN 4096
#define RAID_XOR_PROBE_MIN 8192
#define RAID_PROBE_SPAN 256
#define RAID_COLD_TICKS 1024
#define RAID_AHEAD 512

/* The probe (common/x86/cold.h) over the first RAID_PROBE_SPAN bytes of every source. */
#define raid_cold_start() stoa_cold_start()
#define raid_cold_end(t0) stoa_cold_end(t0, RAID_COLD_TICKS)

/* Sources partly in DRAM: a large P+Q call at 256 bits (RAID_STREAM_BYTES and up) whose probe
 * takes more than RAID_SPILL_TICKS streams its parity, without prefetching. Its buffers then
 * overflow the share of L3 it gets, and parity written through the caches evicts sources that
 * the next call reads again (Zen 5, L3 shared with other work, 16+2 x 1 MiB: median 0.93x ISA-L's
 * pq_gen_avx2 with ordinary stores, 0.99x so). Sources all in L3 probe under it (93-96% of
 * calls under 384 ticks at 16+2 x 256 KiB, where streaming every call cost 12-19%), as on Zen 3
 * at 1 MiB (see RAID_STREAM_BYTES). The limit is in ticks of this VM's 2.7 GHz counter; where the
 * counter runs faster an L3 hit reads more of them, and a call in L3 that streams runs as on Zen 3
 * (0.84x ISA-L's, which always streams, against 2.0-2.8x with ordinary stores): to be checked
 * there. A test build may set it to 0 to take the path when it can. */
#ifndef RAID_SPILL_TICKS
#define RAID_SPILL_TICKS 448
#endif
#define raid_spill_end(t0) stoa_cold_end(t0, RAID_SPILL_TICKS)

/* The streaming paths' step: two cache lines of every source. From DRAM, steps of four lines
 * per source (the block) were 5-10% slower at 16 sources x 8-64 KiB (Zen 4). */
#define RAID_STEP 128

/* Asks for the line at p in L2 (PREFETCHT2: T0, into L1, was 10-25% slower, sixteen sources'
 * lines ahead crowding out the lines being read; at 16+2 x 8 KiB from DRAM T0 and NTA were
 * both 15% slower). Only the paths for sources in DRAM prefetch (see RAID_AHEAD). */
RAID_INLINE void raid_prefetch(const void *p)
{
	_mm_prefetch((const char *)p, _MM_HINT_T2);
}

/* The step (two lines) RAID_AHEAD bytes after p. */
RAID_INLINE void raid_prefetch_step(const uint8_t *p)
{
	raid_prefetch(p + RAID_AHEAD);
	raid_prefetch(p + RAID_AHEAD + 64);
}

/* Every line of [p, p + bytes), asked for at once. */
RAID_INLINE void raid_prefetch_span(const uint8_t *p, size_t bytes)
{
	for (size_t g = 0; g < bytes; g += 64)
		raid_prefetch(p + g);
}

/* The bytes from off on, as far as len, that the steps' prefetches RAID_AHEAD bytes ahead skip:
 * what raid_prefetch_span asks for when a path from DRAM starts at off. */
RAID_INLINE size_t raid_gap(size_t off, size_t len)
{
	return len - off < RAID_AHEAD ? len - off : RAID_AHEAD;
}

/* Bytes from p to the next cache-line boundary (0 when p is on one). The streaming paths store
 * whole aligned lines with non-temporal stores (they need aligned addresses, and a full line
 * leaves the write-combining buffer in one piece) after covering these bytes with ordinary
 * stores, which may spill past the boundary: the aligned stores then rewrite those bytes with
 * the same values. */
RAID_INLINE size_t raid_line_head(const void *p)
{
	return (64 - ((uintptr_t)p & 63)) & 63;
}

/* Whether two buffers start in different 64-byte lines of their pages (so in different L1
 * sets), the layout the XOR streaming path wants. */
RAID_INLINE int raid_page_lines_differ(const void *a, const void *b)
{
	return (((uintptr_t)a ^ (uintptr_t)b) & 0xfc0) != 0;
}

/* Any non-zero byte in the block. */
RAID_INLINE int rvb_nonzero(rvb a)
{
	return rv_nonzero(rv_or(rv_or(a.v0, a.v1), rv_or(a.v2, a.v3)));
}
/* Any byte where a differs from b or c from d. */
RAID_INLINE int rvb_differ2(rvb a, rvb b, rvb c, rvb d)
{
	rv x = rv_or_xor(rv_xor(a.v0, b.v0), c.v0, d.v0);
	x = rv_or_xor(rv_or_xor(x, a.v1, b.v1), c.v1, d.v1);
	x = rv_or_xor(rv_or_xor(x, a.v2, b.v2), c.v2, d.v2);
	x = rv_or_xor(rv_or_xor(x, a.v3, b.v3), c.v3, d.v3);
	return rv_nonzero(x);
}

#endif
