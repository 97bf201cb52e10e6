/* The context manager and the one-call hash for one algorithm, included once per algorithm by
 * hash_mgr.c. Parameters (all #undef'd at the end):
 *
 *   HM_ALG        the prefix: sha1, sha256, sha512, md5; HM_ID its index 0-3
 *   HM_CTX        the context type; HM_MGR the manager type
 *   HM_WORD       the state word (uint32_t or uint64_t); HM_NW words of state
 *   HM_BS         block bytes; HM_LENBYTES bytes of the length field that ends the padding
 *   HM_BIGEND     1: words and the bit length are big-endian (SHA), 0: little-endian (MD5)
 *   HM_CFG(m)     an lvalue in the manager that holds its configuration (see below)
 *
 * The manager keeps its lanes in isa-l_crypto's own fields: args.digest[word][lane] the states,
 * args.data_ptr[lane] the next block, lens[lane] the blocks left in the lane's current run,
 * ldata[lane].job_in_lane the context's job (its first member), num_lanes_inuse the active lanes.
 * The configuration word packs the engines and the policy: bits 0-7 the lane engine, 8-15 the
 * single-stream engine, 16-23 `few`, 24-31 the number of lanes. */

#define HM_CAT2(a, b) a##_##b
#define HM_CAT(a, b)  HM_CAT2(a, b)
#define HM_FN(name)   HM_CAT(HM_ALG, name)

/* partial_block_buffer_length while the padding blocks are in a lane: more than any real
 * fill, so the next look at the context knows the message is done. */
#define HM_PADDED (2 * HM_BS + 1)

static inline unsigned HM_FN(cfg_lanes)(const HM_MGR *m)
{
	return (unsigned)(HM_CFG(m) >> 24 & 0xff);
}

void HM_FN(mgr_setup)(HM_MGR *m, unsigned lanes, unsigned single)
{
	const struct HM_CAT(HM_ALG, lanes) *le = &HM_FN(lane_engines)[lanes];
	const struct HM_CAT(HM_ALG, single) *se = &HM_FN(singles)[single];
	unsigned width = le->width, few;
	if (width == 0) {
		/* Single-stream engine only: two lanes feed its x2 form, one its x1 form. */
		width = se->x2 ? 2 : 1;
		few = width;
	} else {
		few = hash_few(HM_ID, width, se->fast ? le->few_fast : le->few_slow, se->fast);
	}
	memset(m, 0, sizeof(*m));
	HM_CFG(m) = (uint64_t)width << 24 | (uint64_t)few << 16 | (uint64_t)single << 8 | lanes;
}

/* Writes the message length in bits, the last HM_LENBYTES bytes of the padding. */
static void HM_FN(put_length)(uint8_t *end, uint64_t bytes)
{
	uint8_t *p = end - HM_LENBYTES;
	memset(p, 0, HM_LENBYTES);
#if HM_BIGEND
	/* SHA-512's 128-bit field gets the three bits shifted out of a 64-bit count. */
	if (HM_LENBYTES == 16)
		p[7] = (uint8_t)(bytes >> 61);
	hash_put_be64(end - 8, bytes << 3);
#else
	hash_put_le32(p, (uint32_t)(bytes << 3));
	hash_put_le32(p + 4, (uint32_t)(bytes >> 29));
#endif
}

/*
 * What a context needs next. Returns 1 with the blocks to hash (*ptr, *nblocks) or 0 when it
 * is done with its piece: IDLE after FIRST or UPDATE (a tail shorter than a block waits in the
 * partial buffer), COMPLETE once the padding has been hashed after LAST.
 */
static int HM_FN(feed)(HM_CTX *ctx, const uint8_t **ptr, uint64_t *nblocks)
{
	uint32_t plen = ctx->partial_block_buffer_length;
	const uint8_t *in = ctx->incoming_buffer;
	uint32_t inlen = ctx->incoming_buffer_length;
	uint8_t *pb = ctx->partial_block_buffer;

	if (plen == HM_PADDED) {
		ctx->partial_block_buffer_length = 0;
		ctx->status = ISAL_HASH_CTX_STS_COMPLETE;
		ctx->job.status = ISAL_STS_COMPLETED;
		return 0;
	}
	if (plen > 0 && inlen > 0) {
		uint32_t take = HM_BS - plen < inlen ? HM_BS - plen : inlen;
		memcpy(pb + plen, in, take);
		plen += take;
		in += take;
		inlen -= take;
		ctx->incoming_buffer = in;
		ctx->incoming_buffer_length = inlen;
		if (plen == HM_BS) {
			ctx->partial_block_buffer_length = 0;
			*ptr = pb;
			*nblocks = 1;
			return 1;
		}
	}
	if (inlen >= HM_BS) {
		uint32_t n = inlen / HM_BS;
		*ptr = in;
		*nblocks = n;
		ctx->incoming_buffer = in + (size_t)n * HM_BS;
		ctx->incoming_buffer_length = inlen - n * HM_BS;
		return 1;
	}
	if (inlen > 0) {
		memcpy(pb + plen, in, inlen);
		plen += inlen;
		ctx->incoming_buffer = in + inlen;
		ctx->incoming_buffer_length = 0;
	}
	if (!(ctx->status & ISAL_HASH_CTX_STS_LAST)) {
		ctx->partial_block_buffer_length = plen;
		ctx->status = ISAL_HASH_CTX_STS_IDLE;
		return 0;
	}
	uint32_t n = plen + 1 + HM_LENBYTES <= HM_BS ? 1 : 2;
	pb[plen] = 0x80;
	memset(pb + plen + 1, 0, n * HM_BS - plen - 1);
	HM_FN(put_length)(pb + n * HM_BS, ctx->total_length);
	ctx->partial_block_buffer_length = HM_PADDED;
	*ptr = pb;
	*nblocks = n;
	return 1;
}

static inline HM_CTX *HM_FN(lane_ctx)(const HM_MGR *m, unsigned lane)
{
	/* The job is the context's first member. */
	return (HM_CTX *)(void *)m->mgr.ldata[lane].job_in_lane;
}

/* Takes a finished context out of its lane, its state back into the job's digest. */
static HM_CTX *HM_FN(retire)(HM_MGR *m, unsigned lane)
{
	HM_CTX *ctx = HM_FN(lane_ctx)(m, lane);
	for (int w = 0; w < HM_NW; w++)
		ctx->job.result_digest[w] = m->mgr.args.digest[w][lane];
	m->mgr.ldata[lane].job_in_lane = NULL;
	m->mgr.num_lanes_inuse--;
	return ctx;
}

/* Lanes whose run has ended: each context gets its next run, or the first that is done leaves
 * and is returned. */
static HM_CTX *HM_FN(collect)(HM_MGR *m)
{
	unsigned width = HM_FN(cfg_lanes)(m);
	for (unsigned i = 0; i < width; i++) {
		if (!m->mgr.ldata[i].job_in_lane || m->mgr.lens[i] != 0)
			continue;
		const uint8_t *p;
		uint64_t n;
		if (HM_FN(feed)(HM_FN(lane_ctx)(m, i), &p, &n)) {
			m->mgr.args.data_ptr[i] = (uint8_t *)(uintptr_t)p;
			m->mgr.lens[i] = n;
			continue;
		}
		return HM_FN(retire)(m, i);
	}
	return NULL;
}

/* One step of work: at least one lane's run ends. */
static void HM_FN(step)(HM_MGR *m)
{
	unsigned width = HM_FN(cfg_lanes)(m);
	unsigned few = (unsigned)(HM_CFG(m) >> 16 & 0xff);
	unsigned active = m->mgr.num_lanes_inuse;
	/* The two active lanes with the fewest blocks left, a first. */
	unsigned a = width, b = width;
	for (unsigned i = 0; i < width; i++) {
		if (!m->mgr.ldata[i].job_in_lane)
			continue;
		if (a == width || m->mgr.lens[i] < m->mgr.lens[a]) {
			b = a;
			a = i;
		} else if (b == width || m->mgr.lens[i] < m->mgr.lens[b]) {
			b = i;
		}
	}
	uint64_t n = m->mgr.lens[a];

	if (active <= few) {
		const struct HM_CAT(HM_ALG, single) *se = &HM_FN(singles)[HM_CFG(m) >> 8 & 0xff];
		HM_WORD sa[HM_NW], sb[HM_NW];
		for (int w = 0; w < HM_NW; w++)
			sa[w] = m->mgr.args.digest[w][a];
		if (se->x2 && b != width) {
			for (int w = 0; w < HM_NW; w++)
				sb[w] = m->mgr.args.digest[w][b];
			se->x2(sa, sb, m->mgr.args.data_ptr[a], m->mgr.args.data_ptr[b], n);
			for (int w = 0; w < HM_NW; w++)
				m->mgr.args.digest[w][b] = sb[w];
			m->mgr.args.data_ptr[b] += n * HM_BS;
			m->mgr.lens[b] -= n;
		} else {
			se->x1(sa, m->mgr.args.data_ptr[a], n);
		}
		for (int w = 0; w < HM_NW; w++)
			m->mgr.args.digest[w][a] = sa[w];
		m->mgr.args.data_ptr[a] += n * HM_BS;
		m->mgr.lens[a] = 0;
		return;
	}

	const struct HM_CAT(HM_ALG, lanes) *le = &HM_FN(lane_engines)[HM_CFG(m) & 0xff];
	if (le->half && active <= width / 2) {
		/* The active lanes move to the first half for the call, and back. */
		HM_WORD dig[HM_NW][sizeof(m->mgr.args.digest[0]) / sizeof(HM_WORD)];
		uint8_t *ptr[sizeof(m->mgr.args.digest[0]) / sizeof(HM_WORD)];
		unsigned map[sizeof(m->mgr.args.digest[0]) / sizeof(HM_WORD)], k = 0;
		for (unsigned i = 0; i < width; i++) {
			if (!m->mgr.ldata[i].job_in_lane)
				continue;
			for (int w = 0; w < HM_NW; w++)
				dig[w][k] = m->mgr.args.digest[w][i];
			ptr[k] = m->mgr.args.data_ptr[i];
			map[k++] = i;
		}
		for (unsigned j = k; j < width / 2; j++)
			ptr[j] = m->mgr.args.data_ptr[a];
		le->half(dig, ptr, n);
		for (unsigned j = 0; j < k; j++) {
			unsigned i = map[j];
			for (int w = 0; w < HM_NW; w++)
				m->mgr.args.digest[w][i] = dig[w][j];
			m->mgr.args.data_ptr[i] += n * HM_BS;
			m->mgr.lens[i] -= n;
		}
		return;
	}
	/* Idle lanes hash a copy of an active lane's blocks (which exist for n blocks) into
	 * states nobody reads. */
	for (unsigned i = 0; i < width; i++)
		if (!m->mgr.ldata[i].job_in_lane)
			m->mgr.args.data_ptr[i] = m->mgr.args.data_ptr[a];
	le->fn(m->mgr.args.digest, m->mgr.args.data_ptr, n);
	for (unsigned i = 0; i < width; i++) {
		if (!m->mgr.ldata[i].job_in_lane)
			continue;
		m->mgr.args.data_ptr[i] += n * HM_BS;
		m->mgr.lens[i] -= n;
	}
}

/* One active lane, which the single-stream engine takes (it always does when alone): its runs
 * back to back, the state in a local array, without the passes over every lane that collect and
 * step make between runs (one SHA-512 job of 1 KiB, init to last flush: 4290 -> 4030 TSC
 * cycles, the one-call hash 3926). */
static HM_CTX *HM_FN(drive_one)(HM_MGR *m)
{
	const struct HM_CAT(HM_ALG, single) *se = &HM_FN(singles)[HM_CFG(m) >> 8 & 0xff];
	unsigned i = 0;
	while (!m->mgr.ldata[i].job_in_lane)
		i++;
	HM_CTX *ctx = HM_FN(lane_ctx)(m, i);
	HM_WORD st[HM_NW];
	for (int w = 0; w < HM_NW; w++)
		st[w] = m->mgr.args.digest[w][i];
	const uint8_t *p = m->mgr.args.data_ptr[i];
	uint64_t n = m->mgr.lens[i];
	do {
		if (n)
			se->x1(st, p, n);
	} while (HM_FN(feed)(ctx, &p, &n));
	for (int w = 0; w < HM_NW; w++)
		m->mgr.args.digest[w][i] = st[w];
	m->mgr.lens[i] = 0;
	return HM_FN(retire)(m, i);
}

/* Works until a context is done with its piece; NULL when no lane is active. */
static HM_CTX *HM_FN(drive)(HM_MGR *m)
{
	if (m->mgr.num_lanes_inuse == 0)
		return NULL;
	if (m->mgr.num_lanes_inuse == 1 && (HM_CFG(m) >> 16 & 0xff) >= 1)
		return HM_FN(drive_one)(m);
	for (;;) {
		HM_CTX *done = HM_FN(collect)(m);
		if (done)
			return done;
		if (m->mgr.num_lanes_inuse == 0)
			return NULL;
		HM_FN(step)(m);
	}
}

HM_CTX *HM_FN(mgr_submit)(HM_MGR *m, HM_CTX *ctx, const void *buffer, uint32_t len, int flags)
{
	if (flags & ~ISAL_HASH_ENTIRE) {
		ctx->error = ISAL_HASH_CTX_ERROR_INVALID_FLAGS;
		return ctx;
	}
	if (ctx->status & ISAL_HASH_CTX_STS_PROCESSING) {
		ctx->error = ISAL_HASH_CTX_ERROR_ALREADY_PROCESSING;
		return ctx;
	}
	if ((ctx->status & ISAL_HASH_CTX_STS_COMPLETE) && !(flags & ISAL_HASH_FIRST)) {
		ctx->error = ISAL_HASH_CTX_ERROR_ALREADY_COMPLETED;
		return ctx;
	}
	if (flags & ISAL_HASH_FIRST) {
		for (int w = 0; w < HM_NW; w++)
			ctx->job.result_digest[w] = HM_FN(iv)[w];
		ctx->total_length = 0;
		ctx->partial_block_buffer_length = 0;
	}
	ctx->error = ISAL_HASH_CTX_ERROR_NONE;
	ctx->incoming_buffer = buffer;
	ctx->incoming_buffer_length = len;
	ctx->total_length += len;
	ctx->status = (flags & ISAL_HASH_LAST)
	                  ? ISAL_HASH_CTX_STS_PROCESSING | ISAL_HASH_CTX_STS_LAST
	                  : ISAL_HASH_CTX_STS_PROCESSING;
	ctx->job.status = ISAL_STS_BEING_PROCESSED;

	const uint8_t *p;
	uint64_t n;
	if (!HM_FN(feed)(ctx, &p, &n))
		return ctx;
	unsigned width = HM_FN(cfg_lanes)(m), lane = 0;
	while (m->mgr.ldata[lane].job_in_lane)
		lane++;
	for (int w = 0; w < HM_NW; w++)
		m->mgr.args.digest[w][lane] = ctx->job.result_digest[w];
	m->mgr.args.data_ptr[lane] = (uint8_t *)(uintptr_t)p;
	m->mgr.lens[lane] = n;
	m->mgr.ldata[lane].job_in_lane = &ctx->job;
	m->mgr.num_lanes_inuse++;
	if (m->mgr.num_lanes_inuse < width)
		return NULL;
	return HM_FN(drive)(m);
}

HM_CTX *HM_FN(mgr_flush)(HM_MGR *m)
{
	return HM_FN(drive)(m);
}

/* The one-call hash: whole blocks straight from the caller's buffer, the tail and padding from
 * a local copy, through the process's single-stream engine. */
void HM_FN(oneshot)(HM_CAT(HM_ALG, x1_fn) * x1, const void *buf, size_t len, uint8_t *digest)
{
	HM_WORD st[HM_NW];
	uint8_t tail[2 * HM_BS];
	const uint8_t *in = buf;
	size_t full = len / HM_BS, rest = len % HM_BS;
	for (int w = 0; w < HM_NW; w++)
		st[w] = HM_FN(iv)[w];
	if (full)
		x1(st, in, full);
	if (rest)
		memcpy(tail, in + full * HM_BS, rest);
	size_t n = rest + 1 + HM_LENBYTES <= HM_BS ? 1 : 2;
	tail[rest] = 0x80;
	memset(tail + rest + 1, 0, n * HM_BS - rest - 1);
	HM_FN(put_length)(tail + n * HM_BS, (uint64_t)len);
	x1(st, tail, n);
	for (int w = 0; w < HM_NW; w++) {
#if HM_BIGEND
		if (sizeof(HM_WORD) == 8)
			hash_put_be64(digest + 8 * w, (uint64_t)st[w]);
		else
			hash_put_be32(digest + 4 * w, (uint32_t)st[w]);
#else
		hash_put_le32(digest + 4 * w, (uint32_t)st[w]);
#endif
	}
}

#undef HM_CAT2
#undef HM_CAT
#undef HM_FN
#undef HM_PADDED
#undef HM_ALG
#undef HM_ID
#undef HM_CTX
#undef HM_MGR
#undef HM_WORD
#undef HM_NW
#undef HM_BS
#undef HM_LENBYTES
#undef HM_BIGEND
#undef HM_CFG
