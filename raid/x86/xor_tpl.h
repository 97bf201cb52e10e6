/* Template: xor_gen and xor_check at one vector width.
 *
 * Parameters, defined before inclusion (after raid_simd.h):
 *   RAID_SFX   suffix of the variant names: stoa_xor_gen_<RAID_SFX>, stoa_xor_check_<RAID_SFX>
 *
 * Work goes a block (four vectors) at a time (at 512 bits with buffers at different offsets in
 * their pages, a vector at a time: see xor_gen_body): the accumulators stay in registers while
 * every source is folded in (two sources per step, one three-way XOR each, except with AVX2), so
 * each parity byte is stored once and each source byte loaded once. */

#define XOR_CAT2(a, b) a##_##b
#define XOR_CAT(a, b) XOR_CAT2(a, b)

/* The helpers below take top, the address of the last source's pointer, and fold the sources in
 * from the last to the first: xor_src(top, i, off) is source n - 1 - i. With sources at rising
 * addresses (as malloc and a block layer hand them out), walking them downwards was 1.3-2x faster
 * at 16+1 x 1 MiB in L3 and 1.3x at 16+1 x 64 KiB page-aligned (Zen 5, same kernel, only the
 * order changed; with the addresses falling the upward walk was as much faster). */
RAID_INLINE const uint8_t *xor_src(void *const *top, size_t i, size_t off)
{
	return (const uint8_t *)top[-(ptrdiff_t)i] + off;
}

/* XOR of buffers [0, n) over the block at off (al: every buffer 16-byte aligned, rv_load_al). */
RAID_INLINE rvb xor_block(size_t n, void *const *top, size_t off, int al)
{
	rvb acc = rvb_load_al(xor_src(top, 0, off), al);
	size_t j = 1;
#if RAID_W != 32
	for (; j + 1 < n; j += 2)
		acc = rvb_xor3(acc, rvb_load_al(xor_src(top, j, off), al),
		               rvb_load_al(xor_src(top, j + 1, off), al));
#endif
	/* AVX2 has no three-way XOR, and taking two sources a step there interleaved their loads:
	 * with the sources page-aligned (the same lines of every page loaded together) that cost
	 * 16+1 x 8 KiB 8% against one source a step (Zen 4). */
	for (; j < n; j++)
		acc = rvb_xor(acc, rvb_load_al(xor_src(top, j, off), al));
	return acc;
}

/* The same for one vector (at 512 bits two sources a step, as xor_block). */
RAID_INLINE rv xor_one(size_t n, void *const *top, size_t off)
{
	rv acc = rv_load(xor_src(top, 0, off));
	size_t j = 1;
#if RAID_W == 64
	for (; j + 1 < n; j += 2)
		acc = rv_xor3(acc, rv_load(xor_src(top, j, off)),
		              rv_load(xor_src(top, j + 1, off)));
#endif
	for (; j < n; j++)
		acc = rv_xor(acc, rv_load(xor_src(top, j, off)));
	return acc;
}

#if RAID_PARTIAL
/* The same for the first part (< RAID_W) bytes at off; the rest of the vector is zero. */
RAID_INLINE rv xor_part(size_t n, void *const *top, size_t off, size_t part)
{
	rv acc = rv_load_part(xor_src(top, 0, off), part);
	for (size_t j = 1; j < n; j++)
		acc = rv_xor(acc, rv_load_part(xor_src(top, j, off), part));
	return acc;
}
#endif

/* The block at off of buffers [0, n) XORed, with the lines RAID_AHEAD bytes further on in each
 * prefetched (see RAID_AHEAD; used at 256 bits, where a block is a step). */
RAID_INLINE rvb xor_block_ahead(size_t n, void *const *top, size_t off, int al)
{
	for (size_t j = 0; j < n; j++)
		raid_prefetch_step(xor_src(top, j, off));
	return xor_block(n, top, off, al);
}

#if RAID_W == 64
/* The XOR of the RAID_STEP bytes (two vectors) at off, two sources at a time; with ahead (a
 * constant at every call site), each source's step RAID_AHEAD bytes further on prefetched. */
RAID_INLINE void xor_step(rv *x0, rv *x1, size_t n, void *const *top, size_t off, int ahead)
{
	const uint8_t *s = xor_src(top, 0, off);
	if (ahead)
		raid_prefetch_step(s);
	rv a0 = rv_load(s), a1 = rv_load(s + RAID_W);
	size_t j = 1;
	for (; j + 1 < n; j += 2) {
		const uint8_t *u = xor_src(top, j, off), *v = xor_src(top, j + 1, off);
		if (ahead) {
			raid_prefetch_step(u);
			raid_prefetch_step(v);
		}
		a0 = rv_xor3(a0, rv_load(u), rv_load(v));
		a1 = rv_xor3(a1, rv_load(u + RAID_W), rv_load(v + RAID_W));
	}
	if (j < n) {
		s = xor_src(top, j, off);
		if (ahead)
			raid_prefetch_step(s);
		a0 = rv_xor(a0, rv_load(s));
		a1 = rv_xor(a1, rv_load(s + RAID_W));
	}
	*x0 = a0, *x1 = a1;
}
#endif

#if RAID_W == 16
/* The XOR of the RAID_STEP bytes (two blocks) at off, both lines of each source read in one visit;
 * with ahead (a constant at every call site), each source's step RAID_AHEAD bytes further on
 * prefetched. */
RAID_INLINE void xor_step(rvb *x0, rvb *x1, size_t n, void *const *top, size_t off, int ahead,
                          int al)
{
	const uint8_t *s = xor_src(top, 0, off);
	rvb a0 = rvb_load_al(s, al), a1 = rvb_load_al(s + RAID_BLOCK, al);
	/* The first source's prefetch outside the loop: with a j > 0 test inside it, GCC 12 kept a
	 * branch in every source's iteration (16 instructions a source, now 13). */
	if (ahead)
		raid_prefetch_step(s);
	for (size_t j = 1; j < n; j++) {
		s = xor_src(top, j, off);
		if (ahead)
			raid_prefetch_step(s);
		a0 = rvb_xor(a0, rvb_load_al(s, al));
		a1 = rvb_xor(a1, rvb_load_al(s + RAID_BLOCK, al));
	}
	*x0 = a0, *x1 = a1;
}
#endif

/* The XOR of the RAID_STEP bytes at off stored around the caches; with ahead, the sources
 * prefetched. At 128 bits pair chooses how: with pair, both lines of each source in one visit
 * (xor_step); without, one block (one line of each source) after the other. Wider vectors
 * always read both lines of a source together (a 256-bit block is a step). */
RAID_INLINE void xor_step_stream(size_t n, void *const *top, uint8_t *dst, size_t off, int ahead,
                                 int pair, int al)
{
	(void)pair;
	(void)al;
#if RAID_W == 64
	rv x0, x1;
	xor_step(&x0, &x1, n, top, off, ahead);
	rv_stream(dst + off, x0);
	rv_stream(dst + off + RAID_W, x1);
#else
#if RAID_W == 16
	if (pair) {
		rvb x0, x1;
		xor_step(&x0, &x1, n, top, off, ahead, al);
		rvb_stream(dst + off, x0);
		rvb_stream(dst + off + RAID_BLOCK, x1);
		return;
	}
#endif
	for (size_t b = 0; b < RAID_STEP; b += RAID_BLOCK)
		rvb_stream(dst + off + b, ahead && b == 0 ? xor_block_ahead(n, top, off, al)
		                                          : xor_block(n, top, off + b, al));
#endif
}

/* The streaming path (see raid_streaming and raid_line_head) from byte from on: RAID_STEP bytes
 * at a time (pair: see xor_step_stream); with ahead, every source's lines prefetched RAID_AHEAD
 * bytes ahead (the first RAID_AHEAD bytes all at once). n >= 2 sources. Returns how far it got. */
RAID_INLINE size_t xor_gen_stream(size_t n, void *const *top, uint8_t *dst, size_t from, size_t len,
                                  int ahead, int pair, int al)
{
	if (ahead)
		for (size_t j = 0; j < n; j++)
			raid_prefetch_span(xor_src(top, j, from), raid_gap(from, len));
	size_t off = from + raid_line_head(dst + from);
	for (size_t h = from; h < off; h += RAID_W)
		rv_store(dst + h, xor_one(n, top, h));
	if (ahead)
		for (; off + RAID_AHEAD + RAID_STEP <= len; off += RAID_STEP)
			xor_step_stream(n, top, dst, off, 1, pair, al);
	for (; off + RAID_STEP <= len; off += RAID_STEP)
		xor_step_stream(n, top, dst, off, 0, pair, al);
	/* Non-temporal stores are weakly ordered: fence them before the caller publishes dst. */
	_mm_sfence();
	return off;
}

#if RAID_W == 32
/* The streaming path for calls above RAID_STREAM_BYTES, shared with the AVX-512 variant, which
 * streams faster with these 256-bit loads than with its own (16+1 x 1 MiB on Zen 5, and in L3
 * on Zen 4). It does not prefetch: with prefetching it was 5-35% slower at 16+1 x 1 MiB from
 * DRAM (three noisy runs, Zen 4). */
size_t raid_xor_gen_stream_avx2(size_t n, void *const *top, uint8_t *dst, size_t len)
{
	return xor_gen_stream(n, top, dst, 0, len, 0, 0, 0);
}
#endif

/* XOR over whole blocks [off, end) with ordinary stores. */
RAID_INLINE size_t xor_gen_blocks(size_t n, void *const *top, uint8_t *dst, size_t off, size_t end,
                                  int al)
{
	for (; off + RAID_BLOCK <= end; off += RAID_BLOCK)
		rvb_store(dst + off, xor_block(n, top, off, al));
	return off;
}

RAID_INLINE void xor_gen_body(size_t n, void *const *src, uint8_t *dst, size_t len, int al)
{
	void *const *top = src + n - 1;
	size_t off = 0;
	if (raid_streaming(n + 1, len) && raid_page_lines_differ(src[0], src[1])) {
#if RAID_W == 16
		/* Both lines of each source in one visit when the buffers are aligned (16+1 x 1 MiB
		 * in L3: 8% faster, Zen 4); unaligned loads keep one line a visit, faster for them. */
		off = xor_gen_stream(n, top, dst, 0, len, 0, al, al);
#else
		off = raid_xor_gen_stream_avx2(n, top, dst, len);
#endif
	} else if (len >= RAID_XOR_PROBE_MIN) {
		uint64_t t0 = raid_cold_start();
		off = xor_gen_blocks(n, top, dst, 0, RAID_PROBE_SPAN, al);
		int cold = raid_cold_end(t0);
		/* Below 512 bits the parity goes around the caches from cache too. With the sources
		 * walked downwards, at 16+1 x 8 KiB-1 MiB in cache page-aligned it was 5-25% faster
		 * than ordinary stores and about even at other offsets (Zen 5); at 128 bits both lines
		 * of each source in one visit were a further 5-20% faster here, though 15% slower on
		 * the path above. */
#if RAID_W == 64
		if (cold)
#endif
			off = xor_gen_stream(n, top, dst, off, len, cold, 1, al);
	}
	/* At 512 bits, with each source at another offset in its page than the next (as malloc
	 * hands out buffers), one vector at a time: sources one line apart in their pages put the
	 * second line of one in the L1 set of the first line of the other, and a step that loads
	 * both stalls (16+1 x 8 KiB in cache: 1.08x two-line steps, Zen 5). Page-aligned sources
	 * keep whole blocks (15-35% faster there, Zen 4). */
	if (!(RAID_W == 64 && raid_page_lines_differ(src[0], src[1])))
		off = xor_gen_blocks(n, top, dst, off, len, al);
	for (; off + RAID_W <= len; off += RAID_W)
		rv_store(dst + off, xor_one(n, top, off));
#if RAID_PARTIAL
	if (off < len)
		rv_store_part(dst + off, xor_part(n, top, off, len - off), len - off);
#else
	raid_xor_gen_portable(n, src, dst, off, len);
#endif
}

/* With SSE, buffers all 16-byte aligned (the usual case) take the loads as pxor's operands. */
static void xor_gen_kernel(size_t n, void *const *src, uint8_t *dst, size_t len)
{
#if RAID_W == 16
	uintptr_t any = (uintptr_t)dst;
	for (size_t j = 0; j < n; j++)
		any |= (uintptr_t)src[j];
	if (!(any & 15)) {
		xor_gen_body(n, src, dst, len, 1);
		return;
	}
#endif
	xor_gen_body(n, src, dst, len, 0);
}

static int xor_check_kernel(size_t n, void *const *vec, size_t len)
{
	void *const *top = vec + n - 1;
	size_t off = 0;
	for (; off + RAID_BLOCK <= len; off += RAID_BLOCK)
		if (rvb_nonzero(xor_block(n, top, off, 0)))
			return 1;
	for (; off + RAID_W <= len; off += RAID_W)
		if (rv_nonzero(xor_one(n, top, off)))
			return 1;
#if RAID_PARTIAL
	return off < len && rv_nonzero(xor_part(n, top, off, len - off));
#else
	return raid_xor_check_portable(n, vec, off, len);
#endif
}

int XOR_CAT(stoa_xor_gen, RAID_SFX)(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_GEN_MIN, len, array))
		return 1;
	xor_gen_kernel((size_t)vects - 1, array, array[vects - 1], (size_t)len);
	return 0;
}

int XOR_CAT(stoa_xor_check, RAID_SFX)(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_CHECK_MIN, len, array))
		return 1;
	return xor_check_kernel((size_t)vects, array, (size_t)len);
}

#undef XOR_CAT2
#undef XOR_CAT
