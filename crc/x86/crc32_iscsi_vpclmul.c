/* crc32_iscsi (CRC32C) on two execution units at once: 512-bit VPCLMULQDQ folds on the vector
 * side and the scalar crc32 instruction (SSE4.2) on the integer side.
 *
 * Why: folding 64 bytes takes two VPCLMULQDQ, and on AMD Zen 5 one issues every other cycle, so
 * folds alone stop near 16 bytes a cycle. crc32 computes CRC32C itself, 8 bytes an instruction,
 * one a cycle with latency 3 (so three or more independent chains), on an integer port the folds
 * leave idle. Splitting the buffer between the two and merging the partial CRCs with carry-less
 * multiplies follows Gopal et al., "Fast CRC Computation for iSCSI Polynomial Using CRC32
 * Instruction" (Intel, 2011), and Peter Cawley's fast-crc32, which runs crc32 streams beside
 * vector folds; the merging here is worked out from the algebra in crc_internal.h and crc_gen.c.
 *
 * Long buffers, crc32c_long:
 *   [x][4 chunks][block]...[block][w chunks]     block of n steps: [s0][s1][s2][s3][256 n bytes]
 * x, the len % 64 bytes in front, goes through crc32 alone. The next four 64-byte chunks start
 * four ZMM accumulators. In each step of a block every accumulator folds 64 bytes and each of the
 * four streams s0..s3 takes 8 bytes of its share (n * 32 bytes, in front of the block's vector
 * bytes, which the accumulators reach by folding across the shares). After a block each stream's
 * state moves onto a lane of the first accumulator with one multiply. At the end the lanes of the
 * accumulators and of the w chunks that do not fill a step all move onto the last 16 bytes.
 *
 * Short buffers (crc32c_short_m, one body per count of 64-byte blocks): every vector chunk moves
 * onto the last 16 bytes at once; up to four crc32 streams of one or two blocks sit between
 * chunks, each followed by the chunk that takes its state; the len % 64 bytes in front go
 * through crc32 alone.
 *
 * Two facts tie it together. The crc32 instruction's 32-bit state is the reflected CRC32C state,
 * the low 32 bits of crc_internal.h's engine state, so states pass between the units as they
 * are. And a state is worth its 32 bits XORed into the bytes that follow it: the low word of the
 * chunk starting there, which the fold constants then move like any chunk. */
#include "crc32c_serial.h"
#include "crc_fold.h"

#define STEP_VEC 256                          /* vector bytes per step */
#define STEP_WORDS (8 * CRC32C_STREAM_WORDS) /* bytes per stream per step */
#define STEP_BYTES (STEP_VEC + CRC32C_STREAMS * STEP_WORDS)

_Static_assert(CRC32C_STREAMS == 4, "stream states go one per lane of a ZMM");
_Static_assert(CRC32C_STREAM_WORDS == 4, "a step gives each stream one word per accumulator");
_Static_assert(CRC32C_MAX_STEPS == 32, "crc32c_long splits steps into blocks of 32, 16 ... 1");
_Static_assert(4 + (STEP_BYTES - 1) / 64 <= CRC32C_MAX_CHUNKS, "tail table too short");
_Static_assert(CRC32C_SHORT_MAX >= STEP_VEC + STEP_BYTES + 63, "crc32c_long needs a step");

_Static_assert(CRC32C_COLD_MIN - STOA_COLD_SPAN >= CRC32C_SHORT_MAX, "crc32c_long's minimum");

/* The crc32 instruction on the integer side. */

CRC_INLINE uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* The word at w of every stream's share, the shares `stride` bytes apart. */
CRC_INLINE void shares_word(uint64_t s[CRC32C_STREAMS], const uint8_t *w, size_t stride)
{
#pragma GCC unroll 4
	for (int j = 0; j < CRC32C_STREAMS; j++)
		s[j] = _mm_crc32_u64(s[j], load64(w + stride * (size_t)j));
}

/* Stream j's state sj moved by lane j of k (crc32c_hybrid.inject): lane j of the
 * result holds it where that table entry takes it. */
CRC_INLINE __m512i streams_moved(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3,
				 const uint64_t k[8])
{
	__m128i x0 = _mm_cvtsi64_si128((long long)s0), x1 = _mm_cvtsi64_si128((long long)s1);
	__m128i x2 = _mm_cvtsi64_si128((long long)s2), x3 = _mm_cvtsi64_si128((long long)s3);
	__m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(x0), x1, 1);
	__m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(x2), x3, 1);
	__m512i v = _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
	return _mm512_clmulepi64_epi128(v, _mm512_load_si512((const void *)k), 0x00);
}

/* Folds on the vector side. */

CRC_INLINE __m512i load512(const uint8_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}

/* Each 128-bit lane of x moved forward by the distance of its lane of k. */
CRC_INLINE __m512i lanes_moved(__m512i x, __m512i k)
{
	return _mm512_xor_si512(_mm512_clmulepi64_epi128(x, k, 0x00),
				_mm512_clmulepi64_epi128(x, k, 0x11));
}

/* Each 128-bit lane of x moved forward by the distance of its lane of k, plus d. */
CRC_INLINE __m512i fold512(__m512i x, __m512i k, __m512i d)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
					 _mm512_clmulepi64_epi128(x, k, 0x11), d, 0x96);
}

/* Moves the lanes of the chunk t chunks before the last onto the last lane of the last. */
CRC_INLINE __m512i tail_konst(size_t t)
{
	return _mm512_load_si512((const void *)crc32c_hybrid.tail[t]);
}

/* The CRC of the message moved onto its last 16 bytes: the lanes of acc, the last lane of the
 * last chunk `last`, which is there already, and x128. */
CRC_INLINE uint32_t crc32c_reduce(__m512i acc, __m512i last)
{
	__m256i h = _mm512_extracti64x4_epi64(acc, 1);
	h = _mm256_xor_si256(h, _mm512_castsi512_si256(acc));
	__m128i x = _mm256_extracti128_si256(h, 1);
	x = _mm_ternarylogic_epi64(x, _mm256_castsi256_si128(h), _mm512_extracti32x4_epi32(last, 3),
				   0x96);
	/* x stands for the whole message behind a zero state: its CRC is that of its 16 bytes. */
	uint64_t s = _mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(x));
	return (uint32_t)_mm_crc32_u64(s, (uint64_t)_mm_extract_epi64(x, 1));
}

/* The CRC of the message that ends with the chunk c (in a register) and n - 1 more at p: every
 * chunk moves onto the last 16 bytes, where `moved` holds what the caller moved already. */
CRC_INLINE uint32_t crc32c_finish(__m512i moved, __m512i c, const uint8_t *p, size_t n)
{
	if (n == 1)
		return crc32c_reduce(fold512(c, tail_konst(0), moved), c);
	__m512i acc = fold512(c, tail_konst(n - 1), moved);
	for (size_t i = 1; i + 1 < n; i++, p += 64)
		acc = fold512(load512(p), tail_konst(n - 1 - i), acc);
	__m512i last = load512(p);
	acc = fold512(last, tail_konst(0), acc); /* its lanes 0-2; lane 3 is in place */
	return crc32c_reduce(acc, last);
}

/* Both sides at once. */

struct crc32c_acc {
	__m512i z0, z1, z2, z3;
};

/* Keeps the compilers' schedulers from regrouping what hybrid_step interleaves: neither GCC nor
 * clang moves instructions across a volatile asm (checked in the generated code of both). */
#define KEEP_ORDER() __asm__ volatile("")

/* clang's loop strength reduction turns a block's step pointers into one index register, which
 * gives crc32 its slow indexed memory form (see crc32c_block); hiding the pointers from the
 * optimizer keeps base + displacement. GCC keeps the pointers as they are, and runs a few percent
 * faster without the hint (measured). */
#ifdef __clang__
#define KEEP_POINTERS(a, b) __asm__("" : "+r"(a), "+r"(b))
#else
#define KEEP_POINTERS(a, b) ((void)0)
#endif

/* One step: each accumulator folds the next 64 of the vector's bytes at v with k, and after each
 * fold every stream takes a word, the first stream's at w. The alternation matters on Zen 5,
 * which dispatches in program order: with the folds grouped apart from the crc32s, clmuls
 * waiting for their pipe fill the vector scheduler and hold back the crc32s behind them
 * (measured: 19.8 cycles a step instead of 15.8). */
CRC_INLINE void hybrid_step(struct crc32c_acc *a, uint64_t s[CRC32C_STREAMS], const uint8_t *w,
			    size_t stride, const uint8_t *v, __m512i k)
{
	a->z0 = fold512(a->z0, k, load512(v));
	KEEP_ORDER();
	shares_word(s, w, stride);
	KEEP_ORDER();
	a->z1 = fold512(a->z1, k, load512(v + 64));
	KEEP_ORDER();
	shares_word(s, w + 8, stride);
	KEEP_ORDER();
	a->z2 = fold512(a->z2, k, load512(v + 128));
	KEEP_ORDER();
	shares_word(s, w + 16, stride);
	KEEP_ORDER();
	a->z3 = fold512(a->z3, k, load512(v + 192));
	KEEP_ORDER();
	shares_word(s, w + 24, stride);
}

/* A block of n steps at p, n a constant: the streams' shares, then the vector's bytes. Returns
 * the block's end. With n constant the shares sit at fixed distances from one pointer, and every
 * crc32 addresses base + displacement; with an index register instead, crc32's memory form costs
 * Zen 5 a quarter more per step (measured), which is why blocks come in a few fixed sizes. */
CRC_INLINE const uint8_t *crc32c_block(struct crc32c_acc *a, const uint8_t *p, size_t n)
{
	const size_t stride = n * STEP_WORDS; /* one stream's share */
	const uint8_t *v = p + stride * CRC32C_STREAMS;
	uint64_t s[CRC32C_STREAMS] = { 0 };

	__m512i kgap = _mm512_broadcast_i32x4(crc_konst(crc32c_hybrid.gap[n]));
	hybrid_step(a, s, p, stride, v, kgap);
	__m512i k = _mm512_broadcast_i32x4(crc_konst(crc_model_iscsi.fold[15])); /* 256 bytes */
	for (size_t i = 1; i < n; i++) {
		const uint8_t *w = p + STEP_WORDS * i, *vi = v + STEP_VEC * i;
		KEEP_POINTERS(w, vi);
		hybrid_step(a, s, w, stride, vi, k);
	}

	__m512i moved = streams_moved(s[0], s[1], s[2], s[3], crc32c_hybrid.inject[n]);
	a->z0 = _mm512_xor_si512(a->z0, moved);
	return v + STEP_VEC * n;
}

/* At least CRC32C_SHORT_MAX bytes (see the top of the file). Out of line, so that short buffers
 * do not pay for its registers. */
__attribute__((noinline)) static uint32_t crc32c_long(uint32_t crc, const uint8_t *p, size_t len)
{
	size_t x = len % 64;
	__m128i s = _mm_cvtsi64_si128((long long)crc32c_serial(crc, p, x));
	p += x;
	struct crc32c_acc a = {
		_mm512_xor_si512(load512(p), _mm512_zextsi128_si512(s)),
		load512(p + 64),
		load512(p + 128),
		load512(p + 192),
	};
	p += STEP_VEC;
	len -= x + STEP_VEC;

	size_t steps = len / STEP_BYTES, w = len % STEP_BYTES / 64;
	for (; steps >= CRC32C_MAX_STEPS; steps -= CRC32C_MAX_STEPS)
		p = crc32c_block(&a, p, CRC32C_MAX_STEPS);
	if (steps & 16)
		p = crc32c_block(&a, p, 16);
	if (steps & 8)
		p = crc32c_block(&a, p, 8);
	if (steps & 4)
		p = crc32c_block(&a, p, 4);
	if (steps & 2)
		p = crc32c_block(&a, p, 2);
	if (steps & 1)
		p = crc32c_block(&a, p, 1);

	/* The accumulators are the four chunks in front of the last w. */
	__m512i acc = fold512(a.z0, tail_konst(w + 3), _mm512_setzero_si512());
	acc = fold512(a.z1, tail_konst(w + 2), acc);
	acc = fold512(a.z2, tail_konst(w + 1), acc);
	return crc32c_finish(acc, a.z3, p, w + 1);
}

/* A tail constant loaded into a register of its own. With the constant as a VPCLMULQDQ memory
 * operand beside crc32s that read memory, Zen 5 runs the pair at half the rate of either form
 * alone (measured: 8 cycles for two folds' multiplies and four crc32s, 4 with the multiplies'
 * operands in registers); the empty asm keeps the compilers from folding the load back in. */
CRC_INLINE __m512i konst_reg(size_t t)
{
	__m512i r = tail_konst(t);
	__asm__("" : "+v"(r));
	return r;
}

/* Full unrolling of the short kernels' loops, whose trip counts are constants. */
#ifdef __clang__
#define UNROLL_FULL _Pragma("clang loop unroll(full)")
#else
#define UNROLL_FULL _Pragma("GCC unroll 64")
#endif

/* Chunk c with the state s XORed into its first bytes: s then moves with the chunk. */
CRC_INLINE __m512i with_state(__m512i c, uint64_t s)
{
	return _mm512_xor_si512(c, _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)(uint32_t)s)));
}

/* Short buffers: m 64-byte blocks at p, m a constant, behind the state s0. Block 0 is a vector
 * chunk that takes s0; then come ns streams of sw blocks each, every one followed by a vector
 * chunk that takes the stream's state; the remaining blocks are vector chunks:
 *   [c s0-> ][stream 0][c <-0][stream 1][c <-1] ... [stream ns-1][c <-ns-1][c] ... [c]
 * Every chunk moves straight onto the last 16 bytes with its own constant, so a stream's merge
 * costs an XOR, not a multiply. The chunks after the streams fold first, the streams' crc32s
 * spread over the first half of the folds (over all of them with two-block shares, measured
 * faster from 1 KiB on), and s0's chunk folds last: a caller that chains calls waits for one
 * fold and the reduction, not for a crc32 chain (512 bytes, each call seeded with the last CRC:
 * 36 cycles; s0 through stream 0 instead took 57, upstream ISA-L 48-50).
 *
 * Why this split (measured on the test machine, independent calls): VPCLMULQDQ issues once per
 * 2 cycles at any width, so a chunk costs 4 cycles of multiplies for 64 bytes while crc32 takes
 * 8 cycles on the integer side, which otherwise idles; at 512 bytes two streams take 31 cycles a
 * call where the earlier split (four streams of four words merged by one more multiply, chunks
 * in one run) took 35. The streams take a word each in turn, side by side (crc32's latency is
 * 3), and the chunks after them fold once all their words are in. */

/* Marks the place of the words before it and of the fold before it in the instruction stream.
 * An empty volatile asm alone (KEEP_ORDER) does not hold clang, which otherwise moves every
 * crc32 in front of the first multiply: at 1 KiB 75 cycles a call instead of 57 (measured). */
#define PIN_STREAMS()                                                                             \
	do {                                                                                       \
		if (ns > 0)                                                                        \
			__asm__ volatile("" : "+r"(t0));                                           \
		if (ns > 1)                                                                        \
			__asm__ volatile("" : "+r"(t1));                                           \
		if (ns > 2)                                                                        \
			__asm__ volatile("" : "+r"(t2));                                           \
		if (ns > 3)                                                                        \
			__asm__ volatile("" : "+r"(t3));                                           \
	} while (0)
#define PIN_FOLD(x) __asm__ volatile("" : "+v"(x))

/* The streams' states are four scalars, not an array: clang keeps an array indexed by the loop
 * counters in memory, as its unrolling comes too late to promote it to registers. */
#define STREAM_WORD(wi)                                                                           \
	do {                                                                                       \
		size_t k_ = (wi) % ns;                                                             \
		uint64_t d_ = load64(p + 64 * (1 + k_ * (sw + 1)) + 8 * ((wi) / ns));              \
		if (k_ == 0)                                                                       \
			t0 = _mm_crc32_u64(t0, d_);                                                \
		else if (k_ == 1)                                                                  \
			t1 = _mm_crc32_u64(t1, d_);                                                \
		else if (k_ == 2)                                                                  \
			t2 = _mm_crc32_u64(t2, d_);                                                \
		else                                                                               \
			t3 = _mm_crc32_u64(t3, d_);                                                \
	} while (0)

CRC_INLINE uint32_t crc32c_short_m(uint64_t s0, const uint8_t *p, const size_t m, const size_t ns,
				   const size_t sw)
{
	uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
	const size_t first = ns * (sw + 1) + 1; /* the first chunk after the streams */
	const size_t v = m - ns * sw, nind = m - first, half = (v + 1) / 2;
	const size_t words = 8 * sw, all = ns * words, spread = sw > 1 ? v : half;
	__m512i acc = _mm512_setzero_si512(), last = _mm512_setzero_si512();
	size_t wi = 0;
	UNROLL_FULL
	for (size_t i = 0; i < v; i++) {
		/* Chunk i of the fold order: b its block, j the stream it waits for (ns: none). */
		size_t b = 0, j = ns, need = i < spread ? (i + 1) * all / spread : all;
		if (i < nind) {
			b = first + i;
		} else if (i < nind + ns) {
			j = i - nind;
			b = (j + 1) * (sw + 1);
			need = all;
		}
		/* The streams' words spread over the first `spread` folds, each in front of it. */
		UNROLL_FULL
		for (; wi < need; wi++)
			STREAM_WORD(wi);
		PIN_STREAMS();
		__m512i c = load512(p + 64 * b);
		if (b == 0)
			c = with_state(c, s0);
		else if (j < ns)
			c = with_state(c, j == 0 ? t0 : j == 1 ? t1 : j == 2 ? t2 : t3);
		if (b == m - 1)
			last = c; /* its lanes 0-2 move onto lane 3, which is in place */
		__m512i k = konst_reg(m - 1 - b);
		acc = i ? fold512(c, k, acc) : lanes_moved(c, k);
		PIN_FOLD(acc);
	}
	return crc32c_reduce(acc, last);
}

/* Streams and their length in blocks for m blocks: none below 256 bytes, where a stream's crc32
 * chain outlasts the folds it saves; then one more stream every 192 bytes, which keeps the
 * multiplies and the crc32s about even; past 1 KiB three streams of two blocks (measured against
 * the neighbouring choices at 256, 384, 512, 640, 768, 1024, 1280 and 1472 bytes). */
#define SHORT_STREAMS(m)                                                                          \
	((m) < 4 ? 0 : (m) < 7 ? 1 : (m) < 10 ? 2 : (m) < 13 ? 3 : (m) < 17 ? 4 : 3)
#define SHORT_SHARE(m) ((m) < 17 ? 1 : 2)

/* One function per block count, each with its m a constant. A switch with a call of the inline
 * body per case would do the same for GCC, but clang merges the cases into one call with m at
 * run time before inlining, which leaves the loops rolled (measured: half the speed). */
typedef uint32_t crc32c_short_fn(uint64_t s0, const uint8_t *p);
#define SHORT_FN(m)                                                                               \
	static uint32_t crc32c_short_##m(uint64_t s0, const uint8_t *p)                          \
	{                                                                                          \
		return crc32c_short_m(s0, p, m, SHORT_STREAMS(m), SHORT_SHARE(m));                 \
	}
/* clang-format off */
SHORT_FN(1) SHORT_FN(2) SHORT_FN(3) SHORT_FN(4) SHORT_FN(5) SHORT_FN(6) SHORT_FN(7) SHORT_FN(8)
SHORT_FN(9) SHORT_FN(10) SHORT_FN(11) SHORT_FN(12) SHORT_FN(13) SHORT_FN(14) SHORT_FN(15)
SHORT_FN(16) SHORT_FN(17) SHORT_FN(18) SHORT_FN(19) SHORT_FN(20) SHORT_FN(21) SHORT_FN(22)
SHORT_FN(23)
/* clang-format on */
#undef SHORT_FN

_Static_assert(CRC32C_SHORT_MAX == 1536,
	       "crc32c_short_fns has one entry per block count, 1 to 23");
_Static_assert(SHORT_STREAMS(4) <= 4 && SHORT_STREAMS(7) <= 4 && SHORT_STREAMS(10) <= 4 &&
		       SHORT_STREAMS(13) <= 4 && SHORT_STREAMS(17) <= 4,
	       "crc32c_short_m keeps up to four stream states");
_Static_assert(CRC32C_SHORT_MAX / 64 - 1 < CRC32C_MAX_CHUNKS, "tail table too short");
static crc32c_short_fn *const crc32c_short_fns[CRC32C_SHORT_MAX / 64] = {
#define SHORT_ENTRY(m) [m] = crc32c_short_##m,
	/* clang-format off */
	SHORT_ENTRY(1) SHORT_ENTRY(2) SHORT_ENTRY(3) SHORT_ENTRY(4) SHORT_ENTRY(5) SHORT_ENTRY(6)
	SHORT_ENTRY(7) SHORT_ENTRY(8) SHORT_ENTRY(9) SHORT_ENTRY(10) SHORT_ENTRY(11)
	SHORT_ENTRY(12) SHORT_ENTRY(13) SHORT_ENTRY(14) SHORT_ENTRY(15) SHORT_ENTRY(16)
	SHORT_ENTRY(17) SHORT_ENTRY(18) SHORT_ENTRY(19) SHORT_ENTRY(20) SHORT_ENTRY(21)
	SHORT_ENTRY(22) SHORT_ENTRY(23)
	/* clang-format on */
#undef SHORT_ENTRY
};

/* From CRC32C_SHORT_MAX bytes on, apart: inline, its frame (stack realigned for the ZMM spills,
 * five saved registers) was set up by every call, a quarter of a 64-byte call's time. */
static __attribute__((noinline)) unsigned int iscsi_long(const uint8_t *p, size_t n, uint64_t s)
{
	/* From DRAM the folds alone: 1 MiB at 27-35 GB/s where the hybrid read 15 (Zen 4). */
	if (n >= CRC32C_COLD_MIN && crc32c_cold(crc_refl_vpclmul, &s, &p, &n))
		return (uint32_t)crc_refl_vpclmul(&crc_model_iscsi, s, p, n);
	return crc32c_long((uint32_t)s, p, n);
}

unsigned int crc32_iscsi_hybrid(unsigned char *buf, int len, unsigned int init)
{
	/* One unsigned compare for the common case, 128 bytes to CRC32C_SHORT_MAX - 1 (len <= 0
	 * wraps to a large value): the len % 64 bytes in front through crc32, the rest by the body
	 * built for its block count (a tail call through the table). */
	size_t n = (size_t)(unsigned)len;
	uint64_t s = init;
	if (__builtin_expect(n - 128 < CRC32C_SHORT_MAX - 128, 1)) {
		if (n % 64) {
			s = crc32c_serial(init, buf, n % 64);
			buf += n % 64;
		}
		return crc32c_short_fns[n / 64](s, buf);
	}
	if (len <= 0)
		return init;
	if (n < 64)
		return (uint32_t)crc32c_serial(init, buf, n);
	if (n < 128) { /* one block, inline */
		if (n % 64) {
			s = crc32c_serial(init, buf, n % 64);
			buf += n % 64;
		}
		return crc32c_short_m(s, buf, 1, 0, 1);
	}
	return iscsi_long(buf, n, s);
}
