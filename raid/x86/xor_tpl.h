/* Template: xor_gen and xor_check at one vector width.
 *
 * Parameters, defined before inclusion (after raid_simd.h):
 *   RAID_SFX   suffix of the variant names: xor_gen_<RAID_SFX>, xor_check_<RAID_SFX>
 *
 * Work goes a block (four vectors) at a time: the block's accumulators stay in registers while
 * every source is folded in, two sources per step (one three-way XOR each), so each parity byte
 * is stored once and each source byte loaded once. */

#define XOR_CAT2(a, b) a##_##b
#define XOR_CAT(a, b) XOR_CAT2(a, b)

RAID_INLINE const uint8_t *xor_src(void *const *array, size_t i, size_t off)
{
	return (const uint8_t *)array[i] + off;
}

/* XOR of buffers [0, n) over the block at off. */
RAID_INLINE rvb xor_block(size_t n, void *const *array, size_t off)
{
	rvb acc = rvb_load(xor_src(array, 0, off));
	size_t j = 1;
	for (; j + 1 < n; j += 2)
		acc = rvb_xor3(acc, rvb_load(xor_src(array, j, off)),
			       rvb_load(xor_src(array, j + 1, off)));
	if (j < n)
		acc = rvb_xor(acc, rvb_load(xor_src(array, j, off)));
	return acc;
}

/* The same for one vector. */
RAID_INLINE rv xor_one(size_t n, void *const *array, size_t off)
{
	rv acc = rv_load(xor_src(array, 0, off));
	for (size_t j = 1; j < n; j++)
		acc = rv_xor(acc, rv_load(xor_src(array, j, off)));
	return acc;
}

#if RAID_PARTIAL
/* The same for the first part (< RAID_W) bytes at off; the rest of the vector is zero. */
RAID_INLINE rv xor_part(size_t n, void *const *array, size_t off, size_t part)
{
	rv acc = rv_load_part(xor_src(array, 0, off), part);
	for (size_t j = 1; j < n; j++)
		acc = rv_xor(acc, rv_load_part(xor_src(array, j, off), part));
	return acc;
}
#endif

/* The block at off of buffers [0, n) XORed, with a prefetch RAID_AHEAD bytes further on in each
 * (see raid_cold_start). */
RAID_INLINE rvb xor_block_ahead(size_t n, void *const *array, size_t off)
{
	for (size_t j = 0; j < n; j++)
		raid_prefetch(xor_src(array, j, off + RAID_AHEAD));
	return xor_block(n, array, off);
}

/* The streaming path (see raid_streaming and raid_line_head) from byte from on, the sources
 * prefetched ahead. n >= 2 sources. Returns how far it got. */
static size_t XOR_CAT(xor_gen_stream, RAID_SFX)(size_t n, void *const *src, uint8_t *dst,
					       size_t from, size_t len)
{
	size_t off = from + raid_line_head(dst + from);
	for (size_t h = from; h < off; h += RAID_W)
		rv_store(dst + h, xor_one(n, src, h));
	for (; off + RAID_AHEAD + RAID_BLOCK <= len; off += RAID_BLOCK)
		rvb_stream(dst + off, xor_block_ahead(n, src, off));
	for (; off + RAID_BLOCK <= len; off += RAID_BLOCK)
		rvb_stream(dst + off, xor_block(n, src, off));
	/* Non-temporal stores are weakly ordered: fence them before the caller publishes dst. */
	_mm_sfence();
	return off;
}

#if RAID_W == 32
/* Shared with the AVX-512 variant, which streams faster with these 256-bit loads than with its
 * own when the sources lie at different offsets within their pages. */
size_t XOR_CAT(raid_xor_gen_stream, RAID_SFX)(size_t n, void *const *src, uint8_t *dst, size_t from,
					      size_t len)
{
	return XOR_CAT(xor_gen_stream, RAID_SFX)(n, src, dst, from, len);
}
#define XOR_STREAM XOR_CAT(raid_xor_gen_stream, RAID_SFX)
#else
#define XOR_STREAM raid_xor_gen_stream_avx2
#endif

/* XOR over whole blocks [off, end) with ordinary stores. */
RAID_INLINE size_t xor_gen_blocks(size_t n, void *const *src, uint8_t *dst, size_t off, size_t end)
{
	for (; off + RAID_BLOCK <= end; off += RAID_BLOCK)
		rvb_store(dst + off, xor_block(n, src, off));
	return off;
}

static void xor_gen_kernel(size_t n, void *const *src, uint8_t *dst, size_t len)
{
	size_t off = 0;
	int differ = raid_page_lines_differ(src[0], src[1]);
	if (raid_streaming(n + 1, len) && differ) {
		off = XOR_STREAM(n, src, dst, 0, len);
	} else if (len >= RAID_PROBE_MIN) {
		uint64_t t0 = raid_cold_start();
		off = xor_gen_blocks(n, src, dst, 0, RAID_PROBE_SPAN);
		if (raid_cold_end(t0))
			off = differ ? XOR_STREAM(n, src, dst, off, len)
				     : XOR_CAT(xor_gen_stream, RAID_SFX)(n, src, dst, off, len);
	}
	off = xor_gen_blocks(n, src, dst, off, len);
	for (; off + RAID_W <= len; off += RAID_W)
		rv_store(dst + off, xor_one(n, src, off));
#if RAID_PARTIAL
	if (off < len)
		rv_store_part(dst + off, xor_part(n, src, off, len - off), len - off);
#else
	raid_xor_gen_portable(n, src, dst, off, len);
#endif
}

static int xor_check_kernel(size_t n, void *const *vec, size_t len)
{
	size_t off = 0;
	for (; off + RAID_BLOCK <= len; off += RAID_BLOCK)
		if (rvb_nonzero(xor_block(n, vec, off)))
			return 1;
	for (; off + RAID_W <= len; off += RAID_W)
		if (rv_nonzero(xor_one(n, vec, off)))
			return 1;
#if RAID_PARTIAL
	return off < len && rv_nonzero(xor_part(n, vec, off, len - off));
#else
	return raid_xor_check_portable(n, vec, off, len);
#endif
}

int XOR_CAT(xor_gen, RAID_SFX)(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_GEN_MIN, len, array))
		return 1;
	xor_gen_kernel((size_t)vects - 1, array, array[vects - 1], (size_t)len);
	return 0;
}

int XOR_CAT(xor_check, RAID_SFX)(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_CHECK_MIN, len, array))
		return 1;
	return xor_check_kernel((size_t)vects, array, (size_t)len);
}

#undef XOR_STREAM
#undef XOR_CAT2
#undef XOR_CAT
