/* Template: isal_zero_detect at one vector width.
 *
 * Parameters, defined before inclusion (after raid_simd.h):
 *   RAID_SFX   suffix of the variant name: stoa_isal_zero_detect_<RAID_SFX>
 *
 * Four vectors are ORed before each test, so a branch costs one per 4 * RAID_W bytes. Nothing
 * past mem + len is read: the last partial vector is a masked load, the buffer's last whole
 * vector, or (a buffer shorter than one vector) the portable tail. */

#define ZD_CAT2(a, b) a##_##b
#define ZD_CAT(a, b) ZD_CAT2(a, b)

#if RAID_W == 64
/* From DRAM this kernel reads slower than the SSE one (Zen 4, 1 MiB: 21 against 29 GB/s), so a
 * call of ZD_PROBE_MIN bytes or more times its first STOA_COLD_SPAN (common/x86/cold.h) and,
 * finding them in DRAM, leaves the rest to SSE. */
#define ZD_PROBE_MIN (128 * 1024)
#endif

static int zero_detect_kernel(const uint8_t *mem, size_t len)
{
	size_t off = 0;
#if RAID_W == 64
	if (len >= ZD_PROBE_MIN) {
		uint64_t t0 = stoa_cold_start();
		if (t0) {
			rv a = rv_load(mem);
			for (off = RAID_W; off < STOA_COLD_SPAN; off += RAID_W)
				a = rv_or(a, rv_load(mem + off));
			if (stoa_cold_end_ordered(t0, STOA_COLD_SPAN_TICKS))
				return rv_nonzero(a) ||
				       stoa_isal_zero_detect_sse42((void *)(mem + off), len - off);
			if (rv_nonzero(a))
				return 1;
		}
	}
#endif
	for (; off + 4 * RAID_W <= len; off += 4 * RAID_W) {
		const uint8_t *s = mem + off;
		rv a = rv_or(rv_load(s), rv_load(s + RAID_W));
		rv b = rv_or(rv_load(s + 2 * RAID_W), rv_load(s + 3 * RAID_W));
		if (rv_nonzero(rv_or(a, b)))
			return 1;
	}
	for (; off + RAID_W <= len; off += RAID_W)
		if (rv_nonzero(rv_load(mem + off)))
			return 1;
	if (off == len)
		return 0;
#if RAID_PARTIAL
	return rv_nonzero(rv_load_part(mem + off, len - off));
#else
	/* The last vector again, overlapping bytes already seen, where the buffer holds one: no
	 * call to the portable tail (64-byte buffers: 0.91-0.94x upstream ISA-L with it). */
	if (len >= RAID_W)
		return rv_nonzero(rv_load(mem + len - RAID_W));
#if RAID_W > 16
	/* 16 to 31 bytes: the first and the last 16 (24-byte buffers: 0.85x upstream ISA-L with
	 * the portable words). */
	if (len >= 16) {
		const __m128i v = _mm_or_si128(_mm_loadu_si128((const __m128i *)mem),
					       _mm_loadu_si128((const __m128i *)(mem + len - 16)));
		return !_mm_testz_si128(v, v);
	}
#endif
	return raid_zero_detect_portable(mem + off, len - off);
#endif
}

int ZD_CAT(stoa_isal_zero_detect, RAID_SFX)(void *mem, size_t len)
{
	if (len == 0)
		return 0;
	if (mem == NULL)
		return 1;
	return zero_detect_kernel(mem, len);
}

#undef ZD_CAT2
#undef ZD_CAT
