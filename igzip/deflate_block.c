/* Blocks of levels 1 and up: the level buffer's layout, the choice of a block's form (dynamic,
 * fixed or stored codes) by its cost, and the resumable block writer. */
#include "deflate_chain.h"
#include "deflate_engine.h"
#include "igzip_zlib.h"

/* level_buf bytes before the hash tables: the level state, 64-byte rounded. */
#define LVL_FIXED_PART ((uint32_t)(sizeof(struct defl_lvl) + 8 + 63) & ~63u)

uint32_t defl_lvl_min_size(uint32_t level)
{
	return defl_params(level)->min_buf;
}

struct defl_lvl *defl_lvl_state(const struct isal_zstream *s)
{
	uintptr_t a = ((uintptr_t)s->level_buf + 7) & ~(uintptr_t)7;
	return (struct defl_lvl *)a;
}

/* log2 of the hash buckets for level in usable bytes of level_buf: as big as the buffer allows
 * with room for tokens, and for one-shot compression of in_len bytes no bigger than the input
 * needs. */
/* Bytes of the chain and 3-byte tables of level P (deflate_chain.c), after the hash table, and
 * of a near-optimal level's match cache after them. */
_Static_assert(sizeof(struct defl_opt) <= STOA_DEF_OPT_REQ - STOA_DEF_CHAIN_REQ,
               "stoa.h's level_buf sizes hold the match cache");
static uint64_t chain_bytes(const struct defl_params *P)
{
	return P->chain ? DEFL_CHAIN_TABLES + (P->opt ? sizeof(struct defl_opt) : 0) : 0;
}

uint32_t defl_lvl_hash_bits(uint32_t level, uint64_t usable, uint64_t in_len)
{
	const struct defl_params *const P = defl_params(level);
	uint32_t bits = P->hash_bits;
	/* (The minimum level_buf holds the chains.) */
	usable = usable > chain_bytes(P) ? usable - chain_bytes(P) : 0;
	while (bits < P->hash_bits_max &&
	       usable >= LVL_FIXED_PART + ((uint64_t)2 << (bits + 1)) + 4 * 16384)
		bits++;
	if (in_len) {
		/* Levels 1-3 keep one candidate a bucket: twice the input's positions in buckets
		 * (Calgary in 4 KiB pieces, level 3: 43.49% of the input against 43.65% with as
		 * many as positions). */
		const uint64_t room = P->chain ? in_len : 2 * in_len;
		while (bits > 10 && ((uint64_t)1 << (bits - 1)) >= room)
			bits--;
	}
	/* Never more than the buffer holds with room for some tokens. */
	while (bits > 8 && usable < LVL_FIXED_PART + ((uint64_t)2 << bits) + 4 * 256)
		bits--;
	return bits;
}

uint64_t defl_lvl_usable(const struct isal_zstream *s)
{
	const uint8_t *start = (const uint8_t *)defl_lvl_state(s);
	return s->level_buf_size - (uint64_t)(start - s->level_buf);
}

/* Lay out level_buf for level: the state, the hash tables (and chains), the tokens. The tables
 * are cleared: a chain walk or a candidate read from memory never written could otherwise find a
 * match, and the output would depend on the buffer's old contents. */
void defl_lvl_setup(struct isal_zstream *s, uint32_t level, uint64_t in_len)
{
	struct defl_lvl *L = defl_lvl_state(s);
	uint8_t *start = (uint8_t *)L;
	const uint64_t usable = defl_lvl_usable(s);
	const struct defl_params *const P = defl_params(level);
	const uint32_t bits = defl_lvl_hash_bits(level, usable, in_len);
	const uint64_t hash_bytes = ((uint64_t)2 << bits) + chain_bytes(P);
	memset(L, 0, sizeof(*L));
	defl_lvl_block_reset(L);
	L->par = P;
	L->hash_bits = bits;
	const int small = in_len && in_len <= DEFL_SMALL_INPUT;
	if (!P->chain) {
		L->hash_keep =
		    in_len && in_len <= (uint64_t)P->hash4_kib * 1024 ? DEFL_HKEEP_4B : 0;
		L->skip_after = small ? DEFL_SKIP_AFTER_SMALL : DEFL_SKIP_AFTER;
	}
	L->hash = (uint16_t *)(start + LVL_FIXED_PART);
	L->tok = (uint32_t *)(start + LVL_FIXED_PART + hash_bytes);
	L->tok_cap = (uint32_t)((usable - LVL_FIXED_PART - hash_bytes) / 4);
	if (defl_lvl_merges(P)) {
		const int room = L->tok_cap >= DEFL_CAND_WORDS + DEFL_MERGE_MIN_TOK;
		L->tok_cap -= room ? DEFL_CAND_WORDS : DEFL_CAND_HEAD_WORDS;
		struct defl_cand *const c = (struct defl_cand *)(void *)(L->tok + L->tok_cap);
		c->enabled = (uint32_t)room;
		c->on = c->prefix = c->rescan = 0;
	}
	if (P->opt) {
		/* The match cache is written before it is read: only its header and the match
		 * finder's tables are cleared. */
		memset(L->hash, 0, hash_bytes - sizeof(struct defl_opt));
		struct defl_opt *const o = chain_opt(L);
		o->abs = o->n = o->has_prev = o->carry = 0;
		memset(o->bt_right, 0, sizeof(o->bt_right));
		memset(o->bt_head3, 0, sizeof(o->bt_head3));
	} else if (P->ways == 2) {
		/* The bucket level reads the heads only (its chain tables stay unused: 96 KiB less
		 * to clear a call). */
		memset(L->hash, 0, (size_t)2 << bits);
	} else {
		memset(L->hash, 0, hash_bytes);
	}
	L->phase = DEFL_PH_COLLECT;
}


/* ---- blocks ----------------------------------------------------------------------------------- */

/* Bits of hist coded with the fixed codes (RFC 1951 section 3.2.6), block header included. */
static uint64_t fixed_bits(const struct isal_mod_hist *h)
{
	uint64_t bits = 3;
	for (uint32_t i = 0; i < 144; i++)
		bits += 8ull * h->ll_hist[i];
	for (uint32_t i = 144; i < 256; i++)
		bits += 9ull * h->ll_hist[i];
	bits += 7ull * h->ll_hist[256];
	/* (Lengths in ascending order: each one's symbol is the last one's or after it.) */
	for (uint32_t len = 3, sym = 0; len <= 258; len++) {
		const uint32_t c = h->ll_hist[len + 254];
		if (!c)
			continue;
		while (sym < 28 && deflate_len_base[sym + 1] <= len)
			sym++;
		bits += (uint64_t)c * ((sym + 257 < 280 ? 7 : 8) + deflate_len_extra[sym]);
	}
	for (uint32_t d = 0; d < 30; d++)
		bits += (uint64_t)h->d_hist[d] * (5 + deflate_dist_extra[d]);
	return bits;
}

/* Bits of len bytes as stored blocks, starting at bit position bitpos of a byte. */
uint64_t defl_stored_bits(uint64_t len, uint32_t bitpos)
{
	const uint64_t blocks = len ? (len + 65534) / 65535 : 1;
	/* The first header's 3 bits then padding to the byte; later headers start aligned. */
	const uint64_t first = (bitpos + 3 + 7) / 8 * 8 - bitpos;
	return first + 32 + (blocks - 1) * 40 + 8 * len;
}

/* The open block (tokens of src[0 .. len)) is complete: pick its codes or stored form, among
 * those the stream's zlib strategy (mode, DEFL_ZMODE_*) allows. */
void defl_block_prepare(struct defl_lvl *L, uint32_t len, int final, uint32_t bitpos,
			  uint32_t mode)
{
	struct isal_mod_hist *const hist = &L->hist;
	hist->ll_hist[DEFL_EOB] = 1;

	const uint64_t fixed = fixed_bits(hist);
	const uint64_t stored = defl_stored_bits(len, bitpos);
	uint64_t best = fixed;
	int kind = 1;
	if (L->ntok > 8 && !(mode & DEFL_ZMODE_FIXED)) {
		defl_build_codes(&L->codes, hist, 1, L->par->quick_codes);
		const uint64_t dyn = defl_coded_bits(&L->codes, hist);
		if (dyn < best) {
			best = dyn;
			kind = 2;
		}
	}
	if ((stored < best || (mode & DEFL_ZMODE_KIND) == DEFL_ZMODE_STORED) && len && !L->gone)
		kind = 0;
	if (kind == 0)
		L->longblk = 0; /* (its bytes stay in the buffer until they are copied) */
	if (kind == 1) /* (a copy: building them costs a small input's time twice over) */
		memcpy(&L->codes, defl_static_tables(), sizeof(L->codes));
	L->final = (uint32_t)final;
	L->tok_done = 0;
	L->hdr_bits = 0;
	L->stored_pos = 0;
	L->stored_end = len;
	L->stored_chunk = 0;
	L->phase = kind ? DEFL_PH_HDR : DEFL_PH_STORED_HDR;
}

/* Write the prepared block whose input is src[0 .. stored_end). Returns 1 once it is complete,
 * 0 when the output has no room for the next piece. */
int defl_block_write(struct defl_lvl *L, struct BitBuf2 *b, const uint8_t *src)
{
	for (;;) {
		switch (L->phase) {
		case DEFL_PH_HDR:
			if (!defl_put_header(b, &L->codes, (int)L->final, &L->hdr_bits))
				return 0;
			L->phase = DEFL_PH_TOKENS;
			break;
		case DEFL_PH_TOKENS:
			while (L->tok_done < L->ntok) {
				if (bw_room(b) >= 64) {
					L->tok_done += (uint32_t)defl_write_tokens(
						b, &L->codes, L->tok + L->tok_done,
						L->ntok - L->tok_done);
					continue;
				}
				if (bw_room(b) < 8)
					return 0;
				const uint32_t t = L->tok[L->tok_done++];
				const uint32_t ll = DEFL_TOK_LL(t);
				if (ll < 256)
					defl_emit_lit(b, &L->codes, ll);
				else
					defl_emit_match(b, &L->codes, ll - 254,
							deflate_dist_base[DEFL_TOK_DSYM(t)] +
								DEFL_TOK_DEXTRA(t));
			}
			L->phase = DEFL_PH_EOB;
			break;
		case DEFL_PH_EOB:
			if (bw_room(b) < 8)
				return 0;
			defl_emit_eob(b, &L->codes);
			L->phase = DEFL_PH_COLLECT;
			return 1;
		case DEFL_PH_STORED_HDR: {
			if (bw_room(b) < 16)
				return 0;
			const uint32_t left = L->stored_end - L->stored_pos;
			const uint32_t n = left < 65535 ? left : 65535;
			const int last = n == left;
			bw_put(b, last && L->final ? 1 : 0, 3);
			bw_flush_to_byte(b);
			bw_put(b, (uint64_t)n | (uint64_t)(n ^ 0xffff) << 16, 32);
			L->stored_chunk = n;
			L->phase = DEFL_PH_STORED_BODY;
			break;
		}
		case DEFL_PH_STORED_BODY: {
			uint32_t n = L->stored_chunk;
			const size_t room = bw_room(b);
			if (n > room)
				n = (uint32_t)room;
			memcpy(b->m_out_buf, src + L->stored_pos, n);
			b->m_out_buf += n;
			L->stored_pos += n;
			L->stored_chunk -= n;
			if (L->stored_chunk)
				return 0;
			if (L->stored_pos == L->stored_end) {
				L->phase = DEFL_PH_COLLECT;
				return 1;
			}
			L->phase = DEFL_PH_STORED_HDR;
			break;
		}
		default:
			return 1;
		}
	}
}

/* One-shot output (every byte written in the call stays in place): a stored block right after
 * another's last chunk (open: its LEN field, ending at m_out_buf) first fills that chunk. Blocks
 * end off the 65535-byte grid of stored chunks, so random input otherwise took a header more
 * per block, overran the one-shot call's room and was copied again as stored (level 2: 1.47x
 * with this). A final block keeps a byte for a chunk of its own (the old header says not final).
 * Returns the bytes the block had left to store then, UINT32_MAX if none, 0 if not stored. */
static uint32_t stored_join(struct defl_lvl *L, struct BitBuf2 *b, const uint8_t *src,
                            uint8_t *open)
{
	if (L->phase != DEFL_PH_STORED_HDR)
		return 0;
	uint32_t left = L->stored_end - L->stored_pos;
	if (open && !b->m_bit_count) {
		const uint32_t have = stoa_load_le16(open);
		uint32_t n = 65535 - have;
		if (n >= left)
			n = L->final ? left - 1 : left;
		if (n > bw_room(b))
			n = (uint32_t)bw_room(b);
		if (open + 4 + have == b->m_out_buf && n) {
			memcpy(b->m_out_buf, src + L->stored_pos, n);
			b->m_out_buf += n;
			L->stored_pos += n;
			left -= n;
			stoa_store_le16(open, (uint16_t)(have + n));
			stoa_store_le16(open + 2, (uint16_t)~(have + n));
			if (!left)
				L->phase = DEFL_PH_COLLECT; /* (nothing else to write) */
		}
	}
	return left ? left : UINT32_MAX;
}

int defl_block_write_joined(struct defl_lvl *L, struct BitBuf2 *b, const uint8_t *src,
                            uint8_t **open)
{
	const uint32_t join = stored_join(L, b, src, *open);
	if (!defl_block_write(L, b, src))
		return 0;
	/* The chunk a later stored block may fill. */
	if (!join || L->final) {
		*open = NULL;
	} else if (join == UINT32_MAX) { /* all of it went into the open chunk */
		if (stoa_load_le16(*open) == 65535)
			*open = NULL;
	} else {
		const uint32_t last = join % 65535;
		*open = last ? b->m_out_buf - last - 4 : NULL;
	}
	return 1;
}

/* ---- blocks held back for merging --------------------------------------------------------- */

/* Input bytes of tokens t[0 .. n). */
static uint32_t token_bytes(const uint32_t *t, uint32_t n)
{
	uint32_t bytes = 0;
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t ll = DEFL_TOK_LL(t[i]);
		bytes += ll < 256 ? 1 : ll - 254;
	}
	return bytes;
}

/* h += sign * (the counts of tokens t[0 .. n)). */
static void move_counts(struct isal_mod_hist *h, const uint32_t *t, uint32_t n, int sign)
{
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t ll = DEFL_TOK_LL(t[i]);
		h->ll_hist[ll] += (uint32_t)sign;
		if (ll > 256)
			h->d_hist[DEFL_TOK_DSYM(t[i])] += (uint32_t)sign;
	}
}

/* The counts of tokens t[0 .. n). */
static void count_tokens(const uint32_t *t, uint32_t n, struct isal_mod_hist *h)
{
	memset(h, 0, sizeof(*h));
	move_counts(h, t, n, 1);
}

/* The cost of each token class under h's counts, in 1/256 bits: log2(total / count) with one
 * added to each count (a symbol h lacks still gets a price), lengths by their deflate symbol;
 * the extra bits are left out, being the same in either block. */
struct tok_bits {
	uint16_t lit[256], len[259], dist[30];
};

static void tok_bits_of(struct tok_bits *c, const struct isal_mod_hist *h)
{
	uint32_t sym[29], nll = 256 + 29, nd = 30;
	for (uint32_t i = 0; i < 256; i++)
		nll += h->ll_hist[i];
	for (uint32_t s = 0; s < 29; s++) {
		/* (Symbol 27 ends where 28, length 258, begins.) */
		const uint32_t end = s == 28 ? 259 : deflate_len_base[s + 1];
		sym[s] = 1;
		for (uint32_t len = deflate_len_base[s]; len < end; len++)
			sym[s] += h->ll_hist[len + 254];
		nll += sym[s] - 1;
	}
	for (uint32_t i = 0; i < 30; i++)
		nd += h->d_hist[i];
	const uint64_t tll = defl_lg256(nll), td = defl_lg256(nd);
	for (uint32_t i = 0; i < 256; i++)
		c->lit[i] = (uint16_t)(tll - defl_lg256(h->ll_hist[i] + 1));
	for (uint32_t s = 0; s < 29; s++) {
		const uint32_t end = s == 28 ? 259 : deflate_len_base[s + 1];
		const uint16_t v = (uint16_t)(tll - defl_lg256(sym[s]));
		for (uint32_t len = deflate_len_base[s]; len < end; len++)
			c->len[len] = v;
	}
	for (uint32_t i = 0; i < 30; i++)
		c->dist[i] = (uint16_t)(td - defl_lg256(h->d_hist[i] + 1));
}

static int32_t tok_cost(const struct tok_bits *c, uint32_t t)
{
	const uint32_t ll = DEFL_TOK_LL(t);
	return ll < 256 ? c->lit[ll] : c->len[ll - 254] + c->dist[DEFL_TOK_DSYM(t)];
}

/* The split test notices a change of statistics only some hundred tokens into it, at a
 * checkpoint (DEFL_SPLIT_CHECK), so the two blocks it separates meet after the change. Where
 * tokens t[0 .. n) split at k into blocks of counts a and b, the boundary within REFINE_SPAN
 * tokens of k where each side's tokens cost fewest bits under the counts of a and b: the
 * tokens between it and k change block. (A change found this way is kept only where the blocks'
 * exact costs fall.) */
#define REFINE_SPAN (4 * DEFL_SPLIT_CHECK)
static uint32_t refine_boundary(const uint32_t *t, uint32_t n, uint32_t k,
                                const struct isal_mod_hist *a, const struct isal_mod_hist *b)
{
	if (k == 0 || k >= n)
		return k;
	struct tok_bits ca, cb;
	tok_bits_of(&ca, a);
	tok_bits_of(&cb, b);
	const uint32_t lo = k > REFINE_SPAN ? k - REFINE_SPAN : 1;
	const uint32_t hi = n - k > REFINE_SPAN ? k + REFINE_SPAN : n - 1;
	int64_t run = 0, best = 0;
	uint32_t at = k;
	for (uint32_t i = k; i < hi; i++) { /* t[i] joins the first block */
		run += tok_cost(&ca, t[i]) - tok_cost(&cb, t[i]);
		if (run < best) {
			best = run;
			at = i + 1;
		}
	}
	run = 0;
	for (uint32_t i = k; i > lo; i--) { /* t[i - 1] joins the second */
		run += tok_cost(&cb, t[i - 1]) - tok_cost(&ca, t[i - 1]);
		if (run < best) {
			best = run;
			at = i - 1;
		}
	}
	return at;
}

int defl_pending_write(struct defl_lvl *L, struct defl_pending *pd, struct BitBuf2 *b,
                       const uint8_t *src, uint32_t to, int final, uint32_t mode)
{
	if (!pd->ntok && !final)
		return 1;
	L->ntok = pd->ntok;
	L->hist = pd->hist;
	defl_block_prepare(L, to - pd->start, final, b->m_bit_count, mode);
	if (!defl_block_write_joined(L, b, src + pd->start, &pd->open))
		return 0;
	pd->ntok = 0;
	pd->start = to;
	return 1;
}

/* The fewest bits a block of hist's tokens (len input bytes) takes: dynamic codes, the fixed
 * ones, or stored where its bytes are at hand (stored_ok). */
static uint64_t block_cost(const struct isal_mod_hist *hist, uint32_t len, int stored_ok)
{
	uint64_t bits = defl_dynamic_bits(hist, 1);
	const uint64_t fixed = fixed_bits(hist) + 7; /* (and its end of block) */
	if (fixed < bits)
		bits = fixed;
	if (stored_ok && defl_stored_bits(len, 0) < bits)
		bits = defl_stored_bits(len, 0);
	return bits;
}

/* Two blocks of tokens t[0 .. n) meet at token *k, *in of their len input bytes before it: the
 * first of counts *a (its stored form allowed where a_stored), the second of counts *b (its
 * bytes at hand), which cost bits_a and *bits_b. The boundary moves where refine_boundary puts
 * it if the two blocks then cost fewer bits and at least min_in input bytes stay before it; *k,
 * *in, *a, *b and *bits_b follow. Returns the two blocks' bits. */
static uint64_t split_at_change(const uint32_t *t, uint32_t n, uint32_t *k, uint32_t *in,
                                uint32_t len, uint32_t min_in, struct isal_mod_hist *a,
                                struct isal_mod_hist *b, int a_stored, uint64_t bits_a,
                                uint64_t *bits_b)
{
	const uint32_t at = refine_boundary(t, n, *k, a, b);
	if (at == *k)
		return bits_a + *bits_b;
	const int later = at > *k;
	const uint32_t i = later ? *k : at, j = later ? at : *k;
	const uint32_t moved = token_bytes(t + i, j - i);
	const uint32_t in2 = later ? *in + moved : *in - moved;
	if (in2 < min_in)
		return bits_a + *bits_b;
	struct isal_mod_hist a2 = *a, b2 = *b;
	move_counts(&a2, t + i, j - i, later ? 1 : -1);
	move_counts(&b2, t + i, j - i, later ? -1 : 1);
	const uint64_t bits_a2 = block_cost(&a2, in2, a_stored);
	const uint64_t bits_b2 = block_cost(&b2, len - in2, 1);
	if (bits_a2 + bits_b2 >= bits_a + *bits_b)
		return bits_a + *bits_b;
	*a = a2;
	*b = b2;
	*k = at;
	*in = in2;
	*bits_b = bits_b2;
	return bits_a2 + bits_b2;
}

int defl_pending_add(struct defl_lvl *L, struct defl_pending *pd, struct BitBuf2 *b,
                     const uint8_t *src, uint32_t start, uint32_t end, uint32_t mode)
{
	if (pd->ntok) {
		struct isal_mod_hist m = pd->hist;
		for (uint32_t i = 0; i < 30; i++)
			m.d_hist[i] += L->hist.d_hist[i];
		for (uint32_t i = 0; i < 513; i++)
			m.ll_hist[i] += L->hist.ll_hist[i];
		const uint64_t joint = block_cost(&m, end - pd->start, 1);
		/* The tokens are contiguous: the held block's, then the new one's. */
		const uint32_t n = pd->ntok + L->ntok;
		uint32_t k = pd->ntok, in = start - pd->start;
		struct isal_mod_hist hb = L->hist;
		uint64_t bits = block_cost(&L->hist, end - start, 1);
		const uint64_t apart = split_at_change(L->tok, n, &k, &in, end - pd->start, 0,
		                                       &pd->hist, &hb, 1, pd->bits, &bits);
		if (joint <= apart) {
			pd->hist = m;
			pd->bits = joint;
			pd->ntok = n;
			return 1;
		}
		/* The held block ends at the boundary: write it, then move the new block's tokens
		 * to the front. */
		pd->ntok = k;
		if (!defl_pending_write(L, pd, b, src, pd->start + in, 0, mode))
			return 0;
		memmove(L->tok, L->tok + k, (size_t)(n - k) * sizeof(*L->tok));
		L->ntok = n - k;
		L->hist = hb;
		pd->hist = hb;
		pd->bits = bits;
		pd->ntok = n - k;
		return 1;
	}
	pd->start = start;
	pd->hist = L->hist;
	pd->bits = block_cost(&L->hist, end - start, 1);
	pd->ntok = L->ntok;
	return 1;
}

/* ---- streaming: the split at a candidate (defl_cand) ------------------------------------- */

int defl_cand_split(struct defl_lvl *L, uint32_t blk_in, int rest_write, int rest_final,
                    uint32_t bitpos, uint32_t mode)
{
	struct defl_cand *const c = defl_cand_of(L);
	if (!c || !c->on)
		return 0;
	c->on = 0;
	/* (The tokens since the candidate are counted: those before it may be many blocks'
	 * worth that joined one after another.) */
	struct isal_mod_hist a = L->hist, rest;
	count_tokens(L->tok + c->ntok, L->ntok - c->ntok, &rest);
	for (uint32_t i = 0; i < 30; i++)
		a.d_hist[i] -= rest.d_hist[i];
	for (uint32_t i = 0; i < 513; i++)
		a.ll_hist[i] -= rest.ll_hist[i];
	/* (Stored forms as if their bytes were at hand: the rest's and the whole block's are,
	 * unless the block is long, and a long block codes well.) */
	const int stored_ok = !L->gone;
	uint32_t k = c->ntok, in = c->in;
	uint64_t rest_bits = block_cost(&rest, blk_in - c->in, 1);
	/* (The rest's bytes are those not gone.) */
	const uint64_t apart =
	    split_at_change(L->tok, L->ntok, &k, &in, blk_in, L->gone, &a, &rest, stored_ok,
	                    block_cost(&a, c->in, stored_ok), &rest_bits);
	if (block_cost(&L->hist, blk_in, stored_ok) <= apart)
		return 0;
	c->ntok = k;
	c->in = in;
	/* The first part is a block of its own: prepared now, the rest's counts kept. */
	const uint32_t n = L->ntok;
	L->hist = a;
	L->ntok = c->ntok;
	defl_block_prepare(L, c->in, 0, bitpos, mode);
	L->hist = rest;
	/* The rest's split test restarts here: its state counted from the candidate, which may
	 * have moved. */
	defl_split_restart(L, n - c->ntok);
	c->prefix = 1;
	c->rest_ntok = n - c->ntok;
	c->rest_in = blk_in - c->in;
	c->rest_write = (uint32_t)rest_write;
	c->rest_final = (uint32_t)rest_final;
	return 1;
}
