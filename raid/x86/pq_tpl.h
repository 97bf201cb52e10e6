/* Template: pq_gen and pq_check at one vector width.
 *
 * Parameters, defined before inclusion (after raid_simd.h):
 *   RAID_SFX   suffix of the variant names: stoa_pq_gen_<RAID_SFX>, stoa_pq_check_<RAID_SFX>
 *
 * Work goes a block (four vectors) at a time (with GFNI at 512 bits and buffers at different
 * offsets in their pages, a vector at a time: see pq_gen_kernel); P and Q accumulators stay in
 * registers while the sources are folded in from the highest index down by Horner's rule,
 * Q = Q * 2 ^ D, which leaves Q = D_0 ^ 2 D_1 ^ 4 D_2 ^ ... after the last step. With 32
 * registers a step takes two sources: P ^= hi ^ lo and Q = Q * 4 ^ hi * 2 ^ lo (rv_horner2). */

#define PQ_CAT2(a, b) a##_##b
#define PQ_CAT(a, b) PQ_CAT2(a, b)

RAID_INLINE const uint8_t *pq_src(void *const *array, size_t i, size_t off)
{
	return (const uint8_t *)array[i] + off;
}

/* The block at off of source i; when ahead is set (a constant at every call site), with the
 * block's lines RAID_AHEAD bytes further on prefetched (at 256 bits a block is a step). */
RAID_INLINE rvb pq_load(void *const *array, size_t i, size_t off, int ahead)
{
	if (ahead)
		raid_prefetch_step(pq_src(array, i, off));
	return rvb_load(pq_src(array, i, off));
}

/* P and Q of sources [0, n) over the block at off. */
#if RAID_W < 64
/* AVX2 and SSE have 16 vector registers, too few for the eight accumulators plus two sources' loads, so
 * a step takes one source. */
RAID_INLINE void pq_block(rvb *p, rvb *q, size_t n, void *const *src, size_t off, int ahead)
{
	size_t j = n - 1;
	rvb a = pq_load(src, j, off, ahead), b = a;
	while (j--) {
		rvb d = pq_load(src, j, off, ahead);
		a = rvb_xor(a, d);
		b = rvb_horner1(b, d);
	}
	*p = a, *q = b;
}
#else
RAID_INLINE void pq_block(rvb *p, rvb *q, size_t n, void *const *src, size_t off, int ahead)
{
	size_t j = n - 1;
	rvb a = pq_load(src, j, off, ahead), b = a;
	if (j & 1) {
		rvb d = pq_load(src, --j, off, ahead);
		a = rvb_xor(a, d);
		b = rvb_horner1(b, d);
	}
	for (; j; j -= 2) {
		rvb hi = pq_load(src, j - 1, off, ahead), lo = pq_load(src, j - 2, off, ahead);
		a = rvb_xor3(a, hi, lo);
		b = rvb_horner2(b, hi, lo);
	}
	*p = a, *q = b;
}
#endif

/* The same for one vector (with GFNI at 512 bits two sources a step, as pq_block). */
RAID_INLINE void pq_one(rv *p, rv *q, size_t n, void *const *src, size_t off)
{
	size_t j = n - 1;
	rv a = rv_load(pq_src(src, j, off)), b = a;
#if RAID_W == 64 && RAID_GFNI
	if (j & 1) {
		rv d = rv_load(pq_src(src, --j, off));
		a = rv_xor(a, d);
		b = rv_horner1(b, d);
	}
	for (; j; j -= 2) {
		rv hi = rv_load(pq_src(src, j - 1, off)), lo = rv_load(pq_src(src, j - 2, off));
		a = rv_xor3(a, hi, lo);
		b = rv_horner2(b, hi, lo);
	}
#else
	while (j--) {
		rv d = rv_load(pq_src(src, j, off));
		a = rv_xor(a, d);
		b = rv_horner1(b, d);
	}
#endif
	*p = a, *q = b;
}

#if RAID_PARTIAL
/* The same for the first part (< RAID_W) bytes at off; the rest of each vector is zero. */
RAID_INLINE void pq_part(rv *p, rv *q, size_t n, void *const *src, size_t off, size_t part)
{
	rv a = rv_load_part(pq_src(src, n - 1, off), part), b = a;
	for (size_t j = n - 1; j-- > 0;) {
		rv d = rv_load_part(pq_src(src, j, off), part);
		a = rv_xor(a, d);
		b = rv_horner1(b, d);
	}
	*p = a, *q = b;
}
#endif

#if RAID_W == 64
/* P and Q of the RAID_STEP bytes (two vectors) at off, for the paths whose sources come from
 * DRAM; with ahead (a constant at every call site), each source's step RAID_AHEAD bytes
 * further on prefetched. */
RAID_INLINE void pq_step(rv *p0, rv *p1, rv *q0, rv *q1, size_t n, void *const *src, size_t off,
			 int ahead)
{
	size_t j = n - 1;
	const uint8_t *s = pq_src(src, j, off);
	if (ahead)
		raid_prefetch_step(s);
	rv a0 = rv_load(s), a1 = rv_load(s + RAID_W), b0 = a0, b1 = a1;
	while (j--) {
		s = pq_src(src, j, off);
		if (ahead)
			raid_prefetch_step(s);
		rv d0 = rv_load(s), d1 = rv_load(s + RAID_W);
		a0 = rv_xor(a0, d0);
		a1 = rv_xor(a1, d1);
		b0 = rv_horner1(b0, d0);
		b1 = rv_horner1(b1, d1);
	}
	*p0 = a0, *p1 = a1, *q0 = b0, *q1 = b1;
}
#endif

/* The same stored around the caches (below 512 bits a step is whole blocks). */
RAID_INLINE void pq_step_stream(size_t n, void *const *src, uint8_t *pd, uint8_t *qd, size_t off,
				int ahead)
{
#if RAID_W == 64
	rv p0, p1, q0, q1;
	pq_step(&p0, &p1, &q0, &q1, n, src, off, ahead);
	rv_stream(pd + off, p0);
	rv_stream(pd + off + RAID_W, p1);
	rv_stream(qd + off, q0);
	rv_stream(qd + off + RAID_W, q1);
#else
	for (size_t b = 0; b < RAID_STEP; b += RAID_BLOCK) {
		rvb p, q;
		pq_block(&p, &q, n, src, off + b, ahead && b == 0);
		rvb_stream(pd + off + b, p);
		rvb_stream(qd + off + b, q);
	}
#endif
}

/* The streaming path (see raid_streaming and raid_line_head) from byte from on, for P and Q at
 * the same offset within a cache line. With cold (sources in DRAM): RAID_STEP bytes at a time,
 * every source's lines prefetched RAID_AHEAD bytes ahead (the first RAID_AHEAD bytes all at
 * once). Without (512 bits only: large calls whose sources are in cache): whole blocks, as the
 * cache path takes them, stored around the caches (16+2 x 1 MiB in L3: 63 GB/s against the
 * steps' 45, Zen 4; from DRAM the prefetching steps stay ahead). Returns how far it got. */
static size_t pq_gen_stream(size_t n, void *const *src, uint8_t *pd, uint8_t *qd, size_t from,
			    size_t len, int cold)
{
	if (cold)
		for (size_t j = 0; j < n; j++)
			raid_prefetch_span(pq_src(src, j, from), raid_gap(from, len));
	size_t off = from + raid_line_head(pd + from);
	for (size_t h = from; h < off; h += RAID_W) {
		rv p, q;
		pq_one(&p, &q, n, src, h);
		rv_store(pd + h, p);
		rv_store(qd + h, q);
	}
	if (cold) {
		for (; off + RAID_AHEAD + RAID_STEP <= len; off += RAID_STEP)
			pq_step_stream(n, src, pd, qd, off, 1);
		for (; off + RAID_STEP <= len; off += RAID_STEP)
			pq_step_stream(n, src, pd, qd, off, 0);
	} else {
		for (; off + RAID_BLOCK <= len; off += RAID_BLOCK) {
			rvb p, q;
			pq_block(&p, &q, n, src, off, 0);
			rvb_stream(pd + off, p);
			rvb_stream(qd + off, q);
		}
	}
	/* Non-temporal stores are weakly ordered: fence them before the caller publishes P, Q. */
	_mm_sfence();
	return off;
}

/* P and Q over whole blocks [off, end) with ordinary stores. */
RAID_INLINE size_t pq_gen_blocks(size_t n, void *const *src, uint8_t *pd, uint8_t *qd, size_t off,
				 size_t end)
{
	for (; off + RAID_BLOCK <= end; off += RAID_BLOCK) {
		rvb p, q;
		pq_block(&p, &q, n, src, off, 0);
		rvb_store(pd + off, p);
		rvb_store(qd + off, q);
	}
	return off;
}

static void pq_gen_kernel(size_t n, void *const *src, uint8_t *pd, uint8_t *qd, size_t len)
{
	size_t off = 0;
	if (raid_line_head(pd) == raid_line_head(qd)) {
		/* At 512 bits large calls stream wherever their sources are; at 256 bits when the
		 * probe finds them partly in DRAM (RAID_SPILL_TICKS); at 128 bits only from DRAM (see
		 * RAID_STREAM_BYTES). The probe says which way. */
		const int large = raid_streaming(n + 2, len), big = RAID_W == 64 && large;
		if (len >= RAID_PROBE_MIN) {
			uint64_t t0 = raid_cold_start();
			off = pq_gen_blocks(n, src, pd, qd, 0, RAID_PROBE_SPAN);
			const int cold = raid_cold_end(t0);
			if (cold || big || (RAID_W == 32 && large && raid_spill_end(t0)))
				off = pq_gen_stream(n, src, pd, qd, off, len, cold);
		} else if (big) {
			off = pq_gen_stream(n, src, pd, qd, 0, len, 1);
		}
	}
	/* With GFNI at 512 bits and each source at another offset in its page than the next (as
	 * malloc hands out buffers), one vector at a time: sources one line apart in their pages
	 * put the second line of one in the L1 set of the first line of the other, and a block
	 * step, which loads both, stalled (16+2 x 8 KiB in cache: 1.10x a vector at a time, Zen 5).
	 * Page-aligned sources keep whole blocks (10-20% faster there), and so does the variant
	 * without GFNI, whose products chain through one vector (30% slower so). */
	if (!(RAID_W == 64 && RAID_GFNI && raid_page_lines_differ(src[0], src[1])))
		off = pq_gen_blocks(n, src, pd, qd, off, len);
	for (; off + RAID_W <= len; off += RAID_W) {
		rv p, q;
		pq_one(&p, &q, n, src, off);
		rv_store(pd + off, p);
		rv_store(qd + off, q);
	}
#if RAID_PARTIAL
	if (off < len) {
		rv p, q;
		pq_part(&p, &q, n, src, off, len - off);
		rv_store_part(pd + off, p, len - off);
		rv_store_part(qd + off, q, len - off);
	}
#else
	raid_pq_gen_portable(n, src, pd, qd, off, len);
#endif
}

/* Whether the block at off disagrees with P or Q. */
RAID_INLINE int pq_check_block(size_t n, void *const *src, const uint8_t *pd, const uint8_t *qd,
			       size_t off)
{
	rvb p, q;
	pq_block(&p, &q, n, src, off, 0);
	return rvb_differ2(p, rvb_load(pd + off), q, rvb_load(qd + off));
}

/* Whether the RAID_STEP bytes at off disagree with P or Q, on the path for sources in DRAM; with
 * ahead, the sources, P and Q prefetched (see pq_step). */
RAID_INLINE int pq_check_step(size_t n, void *const *src, const uint8_t *pd, const uint8_t *qd,
			      size_t off, int ahead)
{
	if (ahead) {
		raid_prefetch_step(pd + off);
		raid_prefetch_step(qd + off);
	}
#if RAID_W == 64
	rv p0, p1, q0, q1;
	pq_step(&p0, &p1, &q0, &q1, n, src, off, ahead);
	rv x = rv_or_xor(rv_xor(p0, rv_load(pd + off)), p1, rv_load(pd + off + RAID_W));
	x = rv_or_xor(rv_or_xor(x, q0, rv_load(qd + off)), q1, rv_load(qd + off + RAID_W));
	return rv_nonzero(x);
#else
	for (size_t b = 0; b < RAID_STEP; b += RAID_BLOCK) {
		rvb p, q;
		pq_block(&p, &q, n, src, off + b, ahead && b == 0);
		if (rvb_differ2(p, rvb_load(pd + off + b), q, rvb_load(qd + off + b)))
			return 1;
	}
	return 0;
#endif
}

static int pq_check_kernel(size_t n, void *const *src, const uint8_t *pd, const uint8_t *qd,
			   size_t len)
{
	size_t off = 0;
	if (len >= RAID_PROBE_MIN) {
		uint64_t t0 = raid_cold_start();
		for (; off < RAID_PROBE_SPAN; off += RAID_BLOCK)
			if (pq_check_block(n, src, pd, qd, off))
				return 1;
		if (raid_cold_end(t0)) {
			size_t gap = raid_gap(off, len);
			for (size_t j = 0; j < n; j++)
				raid_prefetch_span(pq_src(src, j, off), gap);
			raid_prefetch_span(pd + off, gap);
			raid_prefetch_span(qd + off, gap);
			for (; off + RAID_AHEAD + RAID_STEP <= len; off += RAID_STEP)
				if (pq_check_step(n, src, pd, qd, off, 1))
					return 1;
		}
	}
	for (; off + RAID_BLOCK <= len; off += RAID_BLOCK)
		if (pq_check_block(n, src, pd, qd, off))
			return 1;
	for (; off + RAID_W <= len; off += RAID_W) {
		rv p, q;
		pq_one(&p, &q, n, src, off);
		if (rv_nonzero(rv_or_xor(rv_xor(p, rv_load(pd + off)), q, rv_load(qd + off))))
			return 1;
	}
#if RAID_PARTIAL
	if (off < len) {
		rv p, q;
		size_t part = len - off;
		pq_part(&p, &q, n, src, off, part);
		rv diff = rv_xor(p, rv_load_part(pd + off, part));
		return rv_nonzero(rv_or_xor(diff, q, rv_load_part(qd + off, part)));
	}
	return 0;
#else
	return raid_pq_check_portable(n, src, pd, qd, off, len);
#endif
}

int PQ_CAT(stoa_pq_gen, RAID_SFX)(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_PQ_MIN, len, array))
		return 1;
	pq_gen_kernel((size_t)vects - 2, array, array[vects - 2], array[vects - 1], (size_t)len);
	return 0;
}

int PQ_CAT(stoa_pq_check, RAID_SFX)(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_PQ_MIN, len, array))
		return 1;
	return pq_check_kernel((size_t)vects - 2, array, array[vects - 2], array[vects - 1],
			       (size_t)len);
}

#undef PQ_CAT2
#undef PQ_CAT
