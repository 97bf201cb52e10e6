/* crc32_iscsi (CRC32C) for CPUs with SSE4.2 and PCLMULQDQ but no VPCLMULQDQ: chains of the
 * crc32 instruction over adjacent parts of the buffer at once, beside 128-bit PCLMULQDQ folds,
 * all merged by carry-less multiplies.
 *
 * Why: crc32 takes 8 bytes an instruction with a latency of 3 cycles, so one chain (the serial
 * path) leaves most of the integer side idle, and the PCLMULQDQ engine alone stops near 14 GB/s
 * on Zen 5. Independent chains keep the crc32 units busy (Zen 5 runs more than one a cycle: six
 * chains beat three and four), and folds on the vector side add their bytes on top. Each chain's
 * state but the last moves to its block's end (crc_internal.h, struct crc32c_x86_consts) and the
 * states XOR together, as in Gopal et al., "Fast CRC Computation for iSCSI Polynomial Using
 * CRC32 Instruction" (Intel, 2011); mixing in vector folds follows crc32_iscsi_vpclmul.c.
 *
 * Layout: the len % 8 bytes in front go through crc32 alone; then mixed blocks (crc32c_mixed)
 * of up to MAX_GROUPS groups, each group 48 bytes for three fold accumulators at the block's
 * front and four words for each of S streams behind them; then what is left, below a group or
 * a mixed block too short to pay for its reductions, as one block of TAIL_STREAMS chains, the
 * last of them taking the words that do not divide evenly (it needs no multiply, so they run
 * beside the others' merge). Short buffers take one chain. */
#include <stdatomic.h>

#include "common/cpu.h"
#include "crc32c_serial.h"
#include "crc_fold.h"

#define S CRC32C_X86_STREAMS

/* Below this many bytes a single chain finishes first: the merge costs a multiply and a crc32
 * on the critical path. */
#define CRC32C_SERIAL_MAX 64
/* Where crc32 is slow, the folds from this many bytes on. */
#define CRC32C_FOLD_MIN 32
/* Mixed blocks from 4 groups (960 bytes) on; below, three chains alone run faster (512 bytes on
 * Zen 5: 35 GB/s against about 25 for more chains or a mixed block). */
#define MIXED_MIN_GROUPS 4
#define TAIL_STREAMS 3

CRC_INLINE uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* The tail block: w words (3 <= w < 3 TAIL_MAX_STEPS) in three chains of m = w / 3 words, the
 * last one w % 3 words longer. The chains run as ISA-L's crc32_iscsi_01 runs them: a jump into
 * an unrolled run of steps that ends at the streams' ends, so every crc32 reads at a fixed
 * displacement from one of three pointers and nothing counts in between. The jump is a switch
 * on w whose every entry sets the pointers from constants: predicted, it lets the loads start
 * before w / 3 is known. (At 512 bytes, independent calls, x86-64-v2 on Zen 5: a loop over
 * four-word steps ran at 0.88 of ISA-L, the jump on m = w / 3 at 0.97.) Stream 2 keeps its last
 * word for the end: the other two states, crossed to the block's end, are XORed into it, so
 * their merge takes no crc32 of its own (crc32 is linear in state and data together). */
#define TAIL_MAX_STEPS 40
#define TAIL_STEPS(X)                                                                              \
	X(39) X(38) X(37) X(36) X(35) X(34) X(33) X(32) X(31) X(30) X(29) X(28) X(27) X(26) X(25) \
	X(24) X(23) X(22) X(21) X(20) X(19) X(18) X(17) X(16) X(15) X(14) X(13) X(12) X(11) X(10) \
	X(9) X(8) X(7) X(6) X(5) X(4) X(3) X(2)
#define TAIL_ENTRY(k)                                                                              \
	case 3 * k:                                                                                \
	case 3 * k + 1:                                                                            \
	case 3 * k + 2:                                                                            \
		m = k;                                                                             \
		e0 = p + 8 * k;                                                                    \
		e1 = p + 16 * k;                                                                   \
		e2 = p + 24 * k;                                                                   \
		goto step_##k;
#define TAIL_STEP(k)                                                                               \
	step_##k : t0 = _mm_crc32_u64(t0, load64(e0 - 8 * k));                                     \
	t1 = _mm_crc32_u64(t1, load64(e1 - 8 * k));                                                \
	t2 = _mm_crc32_u64(t2, load64(e2 - 8 * k));

CRC_INLINE uint32_t crc32c_three(uint32_t s, const uint8_t *p, size_t w)
{
	const uint8_t *e0, *e1, *e2;
	size_t m;
	uint64_t t0 = s, t1 = 0, t2 = 0;
	switch (w) {
		TAIL_STEPS(TAIL_ENTRY)
		TAIL_ENTRY(1)
	default: /* not reached */
		return (uint32_t)crc32c_serial(s, p, 8 * w);
	}
	TAIL_STEPS(TAIL_STEP)
step_1:
	t0 = _mm_crc32_u64(t0, load64(e0 - 8));
	t1 = _mm_crc32_u64(t1, load64(e1 - 8));
	const uint8_t *q = e2 - 8;
	for (size_t i = 3 * m; i < w; i++, q += 8)
		t2 = _mm_crc32_u64(t2, load64(q));
	/* Streams 0 and 1 cross the words after them to the block's end: w - m and w - 2 m. */
	__m128i x = _mm_xor_si128(
		_mm_clmulepi64_si128(_mm_cvtsi32_si128((int)(uint32_t)t0),
				     _mm_cvtsi32_si128((int)crc32c_x86.pow[w - m]), 0x00),
		_mm_clmulepi64_si128(_mm_cvtsi32_si128((int)(uint32_t)t1),
				     _mm_cvtsi32_si128((int)crc32c_x86.pow[w - 2 * m]), 0x00));
	return (uint32_t)_mm_crc32_u64(t2, load64(q) ^ (uint64_t)_mm_cvtsi128_si64(x));
}

/* Groups of a mixed block: 48 bytes for the vector side (three 128-bit accumulators) and four
 * words for each stream. */
#define GROUP_VEC 48
#define GROUP_WORDS 4
#define GROUP_BYTES (GROUP_VEC + 8 * S * GROUP_WORDS)
#define MAX_GROUPS (CRC32C_X86_MAX_WORDS / GROUP_WORDS)

/* A mixed block of g groups at p behind the state s: the vector's 48 g bytes, then S streams of
 * 4 g words; the folds and the crc32 chains run on different units at once. */
CRC_INLINE uint32_t crc32c_mixed(uint32_t s, const uint8_t *p, size_t g)
{
	const size_t m = GROUP_WORDS * g;
	const uint8_t *v = p;
	const uint8_t *q = p + GROUP_VEC * g;
	uint64_t t[S] = { 0 };
	/* Stream j's word w at qb[j / 3] + (j % 3) st + 8 w: base + index * {1, 2} + displacement,
	 * so one stride register and a base per three streams address every load. Written as q +
	 * 8 (m j + w), a run-time m (every block shorter than MAX_GROUPS groups: 4 KiB is 17)
	 * made gcc keep one offset per load, 18 of them on the stack and reloaded each group
	 * (4 KiB, x86-64-v2, Zen 3: 0.955 of crc32_iscsi_01 before, 1.17 after). */
	const size_t st = 8 * m;
	const uint8_t *qb[(S + 2) / 3];
	for (int b = 0; b < (S + 2) / 3; b++)
		qb[b] = q + 3 * st * (size_t)b;
	__m128i x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)v),
				   _mm_cvtsi32_si128((int)s));
	__m128i x1 = _mm_loadu_si128((const __m128i *)(v + 16));
	__m128i x2 = _mm_loadu_si128((const __m128i *)(v + 32));
	const __m128i k = crc_konst(crc_model_iscsi.fold[2]); /* 48 bytes */
	for (size_t i = 0; i < g; i++) {
		if (i) {
			const uint8_t *c = v + GROUP_VEC * i;
			x0 = _mm_xor_si128(crc_fold128(x0, k), _mm_loadu_si128((const __m128i *)c));
			x1 = _mm_xor_si128(crc_fold128(x1, k),
					   _mm_loadu_si128((const __m128i *)(c + 16)));
			x2 = _mm_xor_si128(crc_fold128(x2, k),
					   _mm_loadu_si128((const __m128i *)(c + 32)));
		}
#pragma GCC unroll 4
		for (int w = 0; w < GROUP_WORDS; w++) {
#pragma GCC unroll 8
			for (int j = 0; j < S; j++)
				t[j] = _mm_crc32_u64(
					t[j], load64(qb[j / 3] + st * (size_t)(j % 3) + 8 * w));
		}
		for (int b = 0; b < (S + 2) / 3; b++)
			qb[b] += 8 * GROUP_WORDS;
	}
	/* The vector side onto its last 16 bytes, standing for it behind a zero state. */
	__m128i x = _mm_xor_si128(crc_fold128(x0, crc_konst(crc_model_iscsi.fold[1])),
				  crc_fold128(x1, crc_konst(crc_model_iscsi.fold[0])));
	x = _mm_xor_si128(x, x2);
	uint64_t vs = _mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(x));
	vs = _mm_crc32_u64(vs, (uint64_t)_mm_extract_epi64(x, 1));
	/* Every state but the last stream's crosses what follows it. */
	__m128i acc = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)(uint32_t)vs),
					   _mm_cvtsi32_si128((int)crc32c_x86.pow[S * m]), 0x00);
#pragma GCC unroll 8
	for (int j = 0; j < S - 1; j++) {
		__m128i a = _mm_cvtsi32_si128((int)(uint32_t)t[j]);
		__m128i kj = _mm_cvtsi32_si128((int)crc32c_x86.pow[(size_t)(S - 1 - j) * m]);
		acc = _mm_xor_si128(acc, _mm_clmulepi64_si128(a, kj, 0x00));
	}
	return (uint32_t)(_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(acc)) ^ t[S - 1]);
}

/* What a mixed block leaves, or a buffer too short for one, fits in the tail block's steps. */
_Static_assert(GROUP_BYTES * MIXED_MIN_GROUPS <= 8 * 3 * TAIL_MAX_STEPS,
	       "the tail block is too long for its steps");

/* The buffer from its first mixed block on, apart: the mixed blocks' registers would otherwise
 * be saved and restored on every call, also by the short buffers (512 bytes, x86-64-v2, one
 * run: 35 GB/s with the saves, 41 without). */
static __attribute__((noinline)) uint32_t crc32c_long(uint32_t s, const uint8_t *p, size_t rest)
{
	for (; rest >= GROUP_BYTES * MAX_GROUPS; rest -= GROUP_BYTES * MAX_GROUPS) {
		s = crc32c_mixed(s, p, MAX_GROUPS);
		p += GROUP_BYTES * MAX_GROUPS;
	}
	size_t g = rest / GROUP_BYTES;
	if (g >= MIXED_MIN_GROUPS) {
		s = crc32c_mixed(s, p, g);
		p += GROUP_BYTES * g;
		rest -= GROUP_BYTES * g;
	}
	size_t w = rest / 8;
	if (w < TAIL_STREAMS)
		return (uint32_t)crc32c_serial(s, p, rest);
	return crc32c_three(s, p, w);
}

/* n >= CRC32C_SERIAL_MAX bytes at p. Aligned to a cache line: the tail block's jump lands in a
 * run of steps whose placement in the line moved 512-byte calls by a cycle (x86-64-v2, Zen 3:
 * 1.02 -> 1.006 of crc32_iscsi_01 when an unrelated change moved the function by 16 bytes). */
__attribute__((aligned(64))) uint32_t crc32c_streams_warm(uint32_t s, const uint8_t *p, size_t n)
{
	s = (uint32_t)crc32c_serial(s, p, n % 8);
	p += n % 8;
	size_t rest = n - n % 8;
	if (rest >= GROUP_BYTES * MIXED_MIN_GROUPS)
		return crc32c_long(s, p, rest);
	return crc32c_three(s, p, rest / 8);
}

/* Whether the crc32 instruction is the slower unit here: stoa_x86_crc32_slow, kept in this file
 * (-1 until the first call asks) so that a call costs one load and a predicted branch. */
static _Atomic int crc32_slow_known = -1;

/* The first call of a long buffer: asks, then starts over. Apart, so the entry makes only tail
 * calls and keeps no frame. */
static __attribute__((noinline, cold)) unsigned int crc32_iscsi_first(unsigned char *buf, int len,
								     unsigned int init)
{
	atomic_store_explicit(&crc32_slow_known, stoa_x86_crc32_slow(), memory_order_relaxed);
	return crc32_iscsi_streams(buf, len, init);
}

/* The folds alone, apart: no registers to save, where the other paths need some. */
static __attribute__((noinline)) uint32_t crc32c_folds(uint32_t s, const uint8_t *p, size_t n)
{
	return (uint32_t)crc_fold_pclmul(&crc_model_iscsi, s, p, n, CRC_LSB_C32);
}

unsigned int crc32_iscsi_streams(unsigned char *buf, int len, unsigned int init)
{
	if (len <= 0)
		return init;
	size_t n = (size_t)len;
	/* Where crc32 is slow (AMD Zen 1 and 2), eight fold accumulators beat any number of its
	 * chains, with or without folds beside them. */
	if (n >= CRC32C_FOLD_MIN) {
		const int slow = atomic_load_explicit(&crc32_slow_known, memory_order_relaxed);
		if (slow > 0)
			return crc32c_folds(init, buf, n);
		if (slow < 0)
			return crc32_iscsi_first(buf, len, init);
	}
	if (n < CRC32C_SERIAL_MAX)
		return (uint32_t)crc32c_serial(init, buf, n);
	/* No probe for data in DRAM (crc32c_cold): the 128-bit folds alone read it no faster (Zen
	 * 4, 1 MiB: 14.5 against 13.8 GB/s, and slower at 32 KiB). */
	return crc32c_streams_warm(init, buf, n);
}
