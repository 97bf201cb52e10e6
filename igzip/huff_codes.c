/* The compressor's code tables: length-limited Huffman codes from symbol counts, their canonical
 * bit patterns, the dynamic block header that describes them (RFC 1951, 3.2.7), the fixed codes
 * of BTYPE = 1 blocks (3.2.6), block sizes, and ISA-L's public histogram and table builders.
 *
 * Code lengths: the symbols are sorted by count with a stable radix sort, optimal lengths come
 * from Moffat and Katajainen's in-place algorithm ("In-place calculation of minimum-redundancy
 * codes", 1995), and lengths beyond the limit are folded back with the usual Kraft-sum repair
 * (move a leaf one level down from the deepest level that has room, pull an over-long one up
 * into the freed slot), so the result is always a complete prefix code.
 *
 * Header: the code lengths are run-length coded per maximal run with an exact shortest parse
 * under the current code-length code (a minimum over piece counts), the code-length code is rebuilt
 * from that parse, and the parse is redone under the new code; the smallest header wins. */
#include <limits.h>

#include "deflate_huff.h"

enum {
	LL_SYMS = 286,  /* literal/length symbols a header can describe (HLIT <= 29) */
	D_SYMS = 30,    /* distance symbols */
	PRE_SYMS = 19,  /* code-length code symbols */
	MAX_SYMS = 288, /* room for every alphabet above */
	LL_LIMIT = 15,  /* RFC 1951 limits litlen and distance codes to 15 bits */
	PRE_LIMIT = 7,  /* and code-length codes to 7 (3-bit lengths) */
	HDR_SCRATCH = ISAL_DEF_MAX_HDR_SIZE + 16,
};

/* Which symbols of an alphabet get a code. */
enum code_cover {
	COVER_ALL,     /* every symbol, counted or not */
	COVER_COUNTED, /* only counted symbols (at least two get one) */
};

#define REV2(x)  (x), (x) + 128, (x) + 64, (x) + 192
#define REV4(x)  REV2(x), REV2((x) + 32), REV2((x) + 16), REV2((x) + 48)
#define REV6(x)  REV4(x), REV4((x) + 8), REV4((x) + 4), REV4((x) + 12)
#define REV8(x)  REV6(x), REV6((x) + 2), REV6((x) + 1), REV6((x) + 3)
const uint8_t igzip_rev8[256] = { REV8(0) };
#undef REV2
#undef REV4
#undef REV6
#undef REV8

/* Sort syms[0..m) by freq[sym], keeping the order they come in among equal counts: insertion
 * sort for a few symbols, otherwise a stable LSD radix sort, 8 bits per pass, as many passes as
 * the largest count needs. tmp has room for m entries. */
static void sort_radix(uint16_t *syms, uint16_t *tmp, uint32_t m, const uint64_t *freq,
                       uint64_t max)
{
	if (m <= 48) {
		for (uint32_t i = 1; i < m; i++) {
			uint16_t s = syms[i];
			uint64_t f = freq[s];
			uint32_t j = i;
			while (j > 0 && freq[syms[j - 1]] > f) {
				syms[j] = syms[j - 1];
				j--;
			}
			syms[j] = s;
		}
		return;
	}
	for (uint32_t shift = 0; shift < 64 && (max >> shift) != 0; shift += 8) {
		uint32_t pos[257] = { 0 };
		for (uint32_t i = 0; i < m; i++)
			pos[((freq[syms[i]] >> shift) & 0xff) + 1]++;
		if (pos[1] == m) /* every key has this digit zero: nothing to do */
			continue;
		for (uint32_t d = 1; d < 257; d++)
			pos[d] += pos[d - 1];
		for (uint32_t i = 0; i < m; i++)
			tmp[pos[(freq[syms[i]] >> shift) & 0xff]++] = syms[i];
		memcpy(syms, tmp, m * sizeof(*syms));
	}
}

/* The same for syms[0..m) in ascending symbol order. In a small block's code most counts are
 * small: one counting pass puts the symbols counted below SMALL_COUNT in order and the rest
 * after them (in symbol order), which sort_radix then sorts alone (build_lengths on 4-16 KiB of
 * text 1.3-1.4x, 1 KiB 1.07x). Where a count reaches 2^12 (blocks of 32 KiB and more) or many
 * counts are large, the radix sort does it all (that pass would only add to its time). */
enum { SMALL_COUNT = 128 };
static void sort_by_count(uint16_t *syms, uint16_t *tmp, uint32_t m, const uint64_t *freq,
                          uint64_t max)
{
	if (m <= 48 || max >= 4096) {
		sort_radix(syms, tmp, m, freq, max);
		return;
	}
	uint32_t pos[SMALL_COUNT + 2] = { 0 };
	for (uint32_t i = 0; i < m; i++) {
		const uint64_t f = freq[syms[i]];
		pos[(f < SMALL_COUNT ? f : SMALL_COUNT) + 1]++;
	}
	/* (Many large counts: 64 KiB of random bytes, 256 counts near 256.) */
	if (pos[SMALL_COUNT + 1] > 64) {
		sort_radix(syms, tmp, m, freq, max);
		return;
	}
	for (uint32_t d = 1; d < SMALL_COUNT + 2; d++)
		pos[d] += pos[d - 1];
	const uint32_t big = pos[SMALL_COUNT];
	for (uint32_t i = 0; i < m; i++) {
		const uint64_t f = freq[syms[i]];
		tmp[pos[f < SMALL_COUNT ? f : SMALL_COUNT]++] = syms[i];
	}
	memcpy(syms, tmp, m * sizeof(*syms));
	sort_radix(syms + big, tmp, m - big, freq, max);
}

/*
 * Code lengths (<= limit) for the n symbols counted in freq; lens[] gets 0 for a symbol without
 * a code. With COVER_COUNTED only counted symbols are coded, but never fewer than two (the
 * lowest-numbered uncounted ones fill in), so every code is a complete prefix code that any
 * inflater accepts. Counts must be below 2^54 so that their sum fits in 64 bits.
 */
static void build_lengths(const uint64_t *freq, uint32_t n, uint32_t limit, enum code_cover cover,
                          uint8_t *lens)
{
	uint16_t syms[MAX_SYMS], tmp[MAX_SYMS];
	uint64_t w[MAX_SYMS + 2];
	uint32_t bl_count[64] = { 0 };
	uint32_t m = 0;
	uint64_t max = 0;

	/* Uncounted symbols that get a code come first (they sort lowest, in symbol order), and
	 * only the counted ones go through the sort. The counted ones are collected without a
	 * branch (whether a count is zero is as good as random), into tmp first; max only needs
	 * the highest bit. */
	const uint32_t need = cover == COVER_ALL ? n : 2;
	uint32_t nz = 0;
	for (uint32_t s = 0; s < n; s++) {
		lens[s] = 0;
		tmp[nz] = (uint16_t)s;
		nz += freq[s] != 0;
		max |= freq[s];
	}
	if (need > nz) {
		for (uint32_t s = 0; s < n && m < need - nz; s++)
			if (freq[s] == 0)
				syms[m++] = (uint16_t)s;
	}
	const uint32_t z = m;
	memcpy(syms + m, tmp, nz * sizeof(*syms));
	m += nz;
	if (m < 2) {
		if (m == 1)
			lens[syms[0]] = 1;
		return;
	}
	sort_by_count(syms + z, tmp, m - z, freq, max);
	for (uint32_t i = 0; i < m; i++)
		w[i] = freq[syms[i]];

	/* Moffat-Katajainen, phase 1: w[] holds the leaves' weights in ascending order; build the
	 * internal nodes in place, each slot t becoming an internal node's weight and, once that
	 * node has been used as a child, its parent's index. */
	/* The choices are data dependent and unpredictable, so they are made without branches:
	 * w[m] is a sentinel larger than any weight, standing for "no leaf left", and w[m + 1] takes
	 * the parent index a leaf's pick has nowhere to put (a conditional store became a branch
	 * that mispredicted: Canterbury's sum at level 3, 5 blocks, +6%). The weights at leaf and
	 * root (wl, wr) and the next ones (wl1, wr1) are loaded before the choice that may need
	 * them, so one choice waits on the last by a compare, not a load (286 symbols: 1.2x). */
	uint32_t leaf = 0, root = 0;
	w[m] = w[m + 1] = UINT64_MAX;
	uint64_t wl = w[0], wl1 = w[1], wr = UINT64_MAX;
	for (uint32_t t = 0; t + 1 < m; t++) {
		uint64_t sum = 0;
		for (int child = 0; child < 2; child++) {
			const uint64_t wr1 = root + 1 < t ? w[root + 1] : UINT64_MAX;
			const uint32_t take_root = (uint32_t)(root < t) & (uint32_t)(wr < wl);
			sum += take_root ? wr : wl;
			/* a used internal node's slot becomes its parent's index */
			w[root ^ ((root ^ (m + 1)) & (take_root - 1))] = t;
			root += take_root;
			leaf += take_root ^ 1;
			const uint64_t wl2 = w[leaf + 1];
			wr = take_root ? wr1 : wr;
			wl = take_root ? wl : wl1;
			wl1 = take_root ? wl1 : wl2;
		}
		w[t] = sum;
		if (root == t)
			wr = sum;
	}
	/* Phase 2: internal node depths, from the root (slot m - 2) down. */
	w[m - 2] = 0;
	for (uint32_t t = m - 2; t-- > 0;)
		w[t] = w[w[t]] + 1;
	/* Phase 3: leaves per depth. At each depth the free slots not taken by internal nodes are
	 * leaves. Depths never exceed m - 1 < 288, but only the count per depth matters here and
	 * anything past limit is folded below, so clamp the index. */
	uint32_t avail = 1, depth = 0, deepest = 0;
	int32_t r = (int32_t)m - 2;
	while (avail > 0) {
		uint32_t used = 0;
		while (r >= 0 && w[r] == depth) {
			used++;
			r--;
		}
		if (avail > used) {
			uint32_t d = depth < 63 ? depth : 63;
			bl_count[d] += avail - used;
			deepest = d;
		}
		avail = 2 * used;
		depth++;
	}

	if (deepest > limit) {
		/* Fold every deeper leaf to limit, then repair the Kraft sum (counted in units of
		 * 2^-limit): each step moves a leaf from the deepest level d < limit with one to
		 * d + 1, and one leaf from limit into the slot that frees, which removes one unit.
		 */
		uint64_t kraft = 0;
		for (uint32_t d = limit + 1; d <= deepest; d++) {
			bl_count[limit] += bl_count[d];
			bl_count[d] = 0;
		}
		for (uint32_t d = 1; d <= limit; d++)
			kraft += (uint64_t)bl_count[d] << (limit - d);
		while (kraft > (1ull << limit)) {
			uint32_t d = limit - 1;
			while (bl_count[d] == 0)
				d--;
			bl_count[d]--;
			bl_count[d + 1] += 2;
			bl_count[limit]--;
			kraft--;
		}
		deepest = limit;
	}

	/* The most frequent symbols (the end of the sorted list) get the shortest codes. */
	uint32_t i = m;
	for (uint32_t d = 1; d <= deepest; d++)
		for (uint32_t k = bl_count[d]; k > 0; k--)
			lens[syms[--i]] = (uint8_t)d;
}

/* Canonical codes (RFC 1951, 3.2.2) for lens[0..n), bit-reversed for LSB-first writing. The
 * symbols go in four quarters side by side, each counted from where the quarters before it
 * leave each length, so a run of one length makes four short chains of increments in memory,
 * not one long one (286 codes on Zen 3: 1.4x). */
static void canonical_codes(const uint8_t *lens, uint32_t n, uint16_t *codes)
{
	uint32_t c4[4][16] = { { 0 } }, next[4][16];
	const uint32_t q = n / 4; /* quarters 0-2 of q symbols, the last of the rest */
	for (uint32_t i = 0; i < q; i++)
#pragma GCC unroll 4
		for (uint32_t j = 0; j < 4; j++)
			c4[j][lens[j * q + i]]++;
	for (uint32_t s = 4 * q; s < n; s++)
		c4[3][lens[s]]++;
	for (uint32_t j = 0; j < 4; j++)
		c4[j][0] = 0; /* (length 0 takes no codes) */
	uint32_t code = 0;
	for (uint32_t b = 1; b < 16; b++) {
		code = (code + c4[0][b - 1] + c4[1][b - 1] + c4[2][b - 1] + c4[3][b - 1]) << 1;
		next[0][b] = code;
		for (uint32_t j = 1; j < 4; j++)
			next[j][b] = next[j - 1][b] + c4[j - 1][b];
	}
	for (uint32_t i = 0; i < q; i++)
#pragma GCC unroll 4
		for (uint32_t j = 0; j < 4; j++) {
			const uint32_t s = j * q + i, len = lens[s];
			codes[s] = len ? (uint16_t)igzip_rev_code(next[j][len]++, len) : 0;
		}
	for (uint32_t s = 4 * q; s < n; s++)
		codes[s] = lens[s] ? (uint16_t)igzip_rev_code(next[3][lens[s]]++, lens[s]) : 0;
}

/* ---- The dynamic block header ------------------------------------------------------------ */

/* One code-length code symbol and the value of its extra bits. */
struct rl_item {
	uint8_t sym;
	uint8_t extra;
};

static const uint8_t precode_extra_bits[PRE_SYMS] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7,
};

/* A maximal run of equal code lengths: the length and how many. The header's run-length coders
 * read the runs, found once per header. */
struct len_run {
	uint8_t v;
	uint16_t r;
};

static uint32_t find_runs(const uint8_t *lens, uint32_t n, struct len_run *runs)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < n;) {
		const uint32_t v = lens[i];
		uint32_t r = 1;
		while (i + r < n && lens[i + r] == v)
			r++;
		runs[k++] = (struct len_run){ (uint8_t)v, (uint16_t)r };
		i += r;
	}
	return k;
}

/* zlib-style run-length coding: 17/18 for runs of 3+ zeros, a length then 16s for runs of 4+
 * of another length. Returns the item count. */
static uint32_t rle_greedy(const struct len_run *runs, uint32_t nruns, struct rl_item *out)
{
	uint32_t k = 0;
	for (uint32_t j = 0; j < nruns; j++) {
		const uint32_t v = runs[j].v;
		uint32_t r = runs[j].r;
		if (v == 0) {
			while (r >= 11) {
				uint32_t c = r < 138 ? r : 138;
				out[k++] = (struct rl_item){ 18, (uint8_t)(c - 11) };
				r -= c;
			}
			if (r >= 3) {
				out[k++] = (struct rl_item){ 17, (uint8_t)(r - 3) };
				r = 0;
			}
		} else {
			out[k++] = (struct rl_item){ (uint8_t)v, 0 };
			r--;
			while (r >= 3) {
				uint32_t c = r < 6 ? r : 6;
				out[k++] = (struct rl_item){ 16, (uint8_t)(c - 3) };
				r -= c;
			}
		}
		while (r-- > 0)
			out[k++] = (struct rl_item){ (uint8_t)v, 0 };
	}
	return k;
}

#define RL_INF (1u << 24)

/*
 * The shortest run-length coding of the runs when code-length symbol s costs cost[s] bits
 * (RL_INF if it has no code), extra bits included. Runs of equal lengths are independent (a 16
 * repeats only the length before it, which is in the same maximal run), and within a run only
 * how many pieces of each kind matter, not their order or exact sizes: with b repeat pieces
 * (16: 3..6 of a non-zero length; 17: 3..10 zeros) and c pieces of 18 (11..138 zeros), the
 * rest of a run of q is sent as max(0, q - 6b) or max(0, q - 10b - 138c) single lengths. So a
 * run's best cost is a minimum over a few (b, c). Returns the item count.
 */
static uint32_t rle_optimal(const struct len_run *runs, uint32_t nruns, const uint32_t *cost,
                            struct rl_item *out)
{
	uint32_t k = 0;

	for (uint32_t j = 0; j < nruns; j++) {
		const uint32_t v = runs[j].v, r = runs[j].r;
		uint32_t q = r; /* the part with a choice */
		if (v != 0) {
			out[k++] = (struct rl_item){ (uint8_t)v, 0 };
			q = r - 1;
		}
		if (q < 3) {
			/* No piece covers fewer than 3: single lengths (most runs; the search
			 * below would find the same). */
			while (q-- > 0)
				out[k++] = (struct rl_item){ (uint8_t)v, 0 };
			continue;
		}
		uint32_t lit = cost[v];
		uint32_t rep = v ? cost[16] : cost[17], rep_max = v ? 6 : 10;
		uint32_t big = v ? RL_INF : cost[18];
		uint32_t best = lit * q < RL_INF ? lit * q : RL_INF, best_b = 0, best_c = 0;
		/* c beyond what covers the run, or b beyond what covers the rest, only adds cost */
		for (uint32_t c = 0; c * 11 <= q && (c == 0 || big < RL_INF); c++) {
			uint32_t left = q - c * 11;
			for (uint32_t b = 0; b * 3 <= left; b++) {
				uint32_t cover = b * rep_max + c * 138;
				uint32_t single = q > cover ? q - cover : 0;
				uint32_t x = single * lit + b * rep + c * big;
				if (x < best) {
					best = x;
					best_b = b;
					best_c = c;
				}
				if (cover >= q)
					break;
			}
			if (c * 138 >= q)
				break;
		}
		/* Share out the run: each piece its minimum, then fill up to the maxima. */
		uint32_t b = best_b, c = best_c;
		uint32_t single = q > b * rep_max + c * 138 ? q - b * rep_max - c * 138 : 0;
		uint32_t extra = q - single - 3 * b - 11 * c; /* beyond the minima */
		for (uint32_t i = 0; i < c; i++) {
			uint32_t add = extra < 127 ? extra : 127;
			extra -= add;
			out[k++] = (struct rl_item){ 18, (uint8_t)add };
		}
		for (uint32_t i = 0; i < b; i++) {
			uint32_t add = extra < rep_max - 3 ? extra : rep_max - 3;
			extra -= add;
			out[k++] = (struct rl_item){ (uint8_t)(v ? 16 : 17), (uint8_t)add };
		}
		while (single-- > 0)
			out[k++] = (struct rl_item){ (uint8_t)v, 0 };
	}
	return k;
}

/* A header plan: the run-length items and the code-length code that sends them. */
struct hdr_plan {
	struct rl_item items[LL_SYMS + D_SYMS];
	uint32_t nitems;
	uint8_t pre_lens[PRE_SYMS];
	uint32_t hclen; /* code-length code lengths sent, 4..19 */
	uint32_t bits;  /* the whole header, BFINAL/BTYPE included */
};

/* Build the code-length code for plan->items and measure the header. */
static void plan_finish(struct hdr_plan *p)
{
	uint64_t f[PRE_SYMS] = { 0 };
	for (uint32_t i = 0; i < p->nitems; i++)
		f[p->items[i].sym]++;
	build_lengths(f, PRE_SYMS, PRE_LIMIT, COVER_COUNTED, p->pre_lens);
	uint32_t hclen = PRE_SYMS;
	while (hclen > 4 && p->pre_lens[deflate_precode_order[hclen - 1]] == 0)
		hclen--;
	p->hclen = hclen;
	uint32_t bits = 3 + 5 + 5 + 4 + 3 * hclen;
	for (uint32_t s = 0; s < PRE_SYMS; s++)
		bits += (uint32_t)f[s] * (p->pre_lens[s] + precode_extra_bits[s]);
	p->bits = bits;
}

static void plan_costs(const struct hdr_plan *p, uint32_t *cost)
{
	for (uint32_t s = 0; s < PRE_SYMS; s++)
		cost[s] = p->pre_lens[s] ? p->pre_lens[s] + precode_extra_bits[s] : RL_INF;
}

/* Write the header for nll litlen and nd distance lengths (lens: the two concatenated) into
 * t->deflate_hdr with BFINAL = 0. */
/* The header's plan for nll litlen and nd distance lengths (lens: the two concatenated), in one
 * of plans. */
static const struct hdr_plan *plan_header(struct hdr_plan plans[2], const uint8_t *lens,
                                          uint32_t nll, uint32_t nd, int quick)
{
	uint32_t cost[PRE_SYMS];
	struct len_run runs[LL_SYMS + D_SYMS];
	const uint32_t nruns = find_runs(lens, nll + nd, runs);

	plans[0].nitems = rle_greedy(runs, nruns, plans[0].items);
	plan_finish(&plans[0]);
	struct hdr_plan *best = &plans[0];
	/* Two rounds of "best parse for this code, best code for this parse"; each round can only
	 * shrink the item bits, though the HCLEN trim may move a bit either way. */
	for (int round = 0; round < (quick ? 0 : 2); round++) {
		struct hdr_plan *cand = best == &plans[0] ? &plans[1] : &plans[0];
		plan_costs(best, cost);
		cand->nitems = rle_optimal(runs, nruns, cost, cand->items);
		plan_finish(cand);
		if (cand->bits >= best->bits)
			break;
		best = cand;
	}
	return best;
}

static void write_dynamic_header(struct isal_hufftables *t, const uint8_t *lens, uint32_t nll,
                                 uint32_t nd, int quick)
{
	struct hdr_plan plans[2];
	const struct hdr_plan *const best = plan_header(plans, lens, nll, nd, quick);

	uint16_t pre_codes[PRE_SYMS];
	canonical_codes(best->pre_lens, PRE_SYMS, pre_codes);

	uint8_t buf[HDR_SCRATCH];
	struct BitBuf2 b;
	bw_init(&b, buf, sizeof(buf));
	/* BFINAL 0, BTYPE 2 (dynamic), HLIT, HDIST, HCLEN */
	bw_put(&b,
	       2u << 1 | (uint64_t)(nll - 257) << 3 | (uint64_t)(nd - 1) << 8 |
	           (uint64_t)(best->hclen - 4) << 13,
	       17);
	for (uint32_t i = 0; i < best->hclen; i++)
		bw_put(&b, best->pre_lens[deflate_precode_order[i]], 3);
	for (uint32_t i = 0; i < best->nitems; i++) {
		uint32_t s = best->items[i].sym;
		uint32_t cl = best->pre_lens[s];
		bw_put(&b, pre_codes[s] | (uint64_t)best->items[i].extra << cl,
		       cl + precode_extra_bits[s]);
	}
	size_t whole = (size_t)(b.m_out_buf - buf);
	uint32_t rest = b.m_bit_count;
	bw_flush_to_byte(&b);
	memset(t->deflate_hdr, 0, sizeof(t->deflate_hdr));
	memcpy(t->deflate_hdr, buf, whole + (rest != 0));
	t->deflate_hdr_count = (uint32_t)whole;
	t->deflate_hdr_extra_bits = rest;
}

/* ---- Tables from lengths ----------------------------------------------------------------- */

/* Fill t's code tables from code lengths and codes (litlen: 286 entries, distance: 30). */
static void fill_tables(struct isal_hufftables *t, const uint8_t *ll_lens, const uint16_t *ll_codes,
                        const uint8_t *d_lens, const uint16_t *d_codes)
{

	for (uint32_t s = 0; s < ISAL_DEF_LIT_SYMBOLS; s++) {
		t->lit_table[s] = ll_codes[s];
		t->lit_table_sizes[s] = ll_lens[s];
	}
	/* Each length's whole field: its symbol's code followed by its extra bits. */
	for (uint32_t s = 0; s < ISAL_DEF_LEN_SYMBOLS; s++) {
		uint32_t sym = 257 + s, cl = ll_lens[sym], eb = deflate_len_extra[s];
		uint32_t first = deflate_len_base[s];
		/* 258 has its own symbol (285), so 284 stops at 257 */
		uint32_t last = s == 28 ? 258 : deflate_len_base[s + 1] - 1u;
		for (uint32_t len = first; len <= last; len++) {
			uint32_t e =
			    cl ? ((ll_codes[sym] | (len - first) << cl) << 5 | (cl + eb)) : 0;
			t->len_table[len - 3] = e;
		}
	}
	for (uint32_t s = 0; s < D_SYMS; s++) {
		t->dcodes[s] = d_codes[s];
		t->dcodes_sizes[s] = d_lens[s];
	}
	/* ISA-L's short-distance table: distances 1 and 2 (symbols 0 and 1, no extra bits),
	 * packed like len_table. stoa's writers do not read it. */
	for (uint32_t s = 0; s < IGZIP_DIST_TABLE_SIZE; s++)
		t->dist_table[s] = d_lens[s] ? (uint32_t)d_codes[s] << 5 | d_lens[s] : 0;
}

/* The lengths a header sends: litlen's (lens, 286) without the unused ones past 256 (HLIT),
 * then the distances' without their unused tail (HDIST), appended to them at lens + *nll. */
static void header_lens(uint8_t *lens, const uint8_t *d_lens, uint32_t *nll, uint32_t *nd)
{
	uint32_t n = LL_SYMS, m = D_SYMS;
	while (n > 257 && lens[n - 1] == 0)
		n--;
	while (m > 1 && d_lens[m - 1] == 0)
		m--;
	memcpy(lens + n, d_lens, m);
	*nll = n;
	*nd = m;
}

/* Code lengths for both alphabets, then tables and header. ll_freq[256] (end of block) is
 * forced non-zero so every table can end a block. lit_cover applies to the 257 literal/EOB
 * symbols, cover to lengths and distances. */
static void build_all(struct isal_hufftables *t, uint64_t *ll_freq, const uint64_t *d_freq,
                      enum code_cover lit_cover, enum code_cover cover, int quick)
{
	uint8_t lens[LL_SYMS + D_SYMS];
	uint8_t *ll_lens = lens, d_lens[D_SYMS];

	if (ll_freq[DEFL_EOB] == 0)
		ll_freq[DEFL_EOB] = 1;
	if (lit_cover == cover) {
		build_lengths(ll_freq, LL_SYMS, LL_LIMIT, cover, ll_lens);
	} else {
		/* Counted literals, every length: an uncounted length takes part as if seen once.
		 */
		uint64_t f[LL_SYMS];
		for (uint32_t s = 0; s < LL_SYMS; s++)
			f[s] = s > DEFL_EOB && ll_freq[s] == 0 ? 1 : ll_freq[s];
		build_lengths(f, LL_SYMS, LL_LIMIT, COVER_COUNTED, ll_lens);
	}
	build_lengths(d_freq, D_SYMS, LL_LIMIT, cover, d_lens);

	uint16_t ll_codes[LL_SYMS], d_codes[D_SYMS];
	canonical_codes(ll_lens, LL_SYMS, ll_codes);
	canonical_codes(d_lens, D_SYMS, d_codes);
	fill_tables(t, ll_lens, ll_codes, d_lens, d_codes);

	uint32_t nll, nd;
	header_lens(lens, d_lens, &nll, &nd);
	write_dynamic_header(t, lens, nll, nd, quick);
}

/* ---- Internal entry points --------------------------------------------------------------- */

/* hist's counts per symbol: literal/length symbols (the length counts summed over each symbol's
 * range) and distance symbols. */
static void symbol_counts(const struct isal_mod_hist *hist, uint64_t *ll, uint64_t *d)
{
	for (uint32_t s = 0; s < 257; s++)
		ll[s] = hist->ll_hist[s];
	/* Lengths are counted per length (index len + 254): sum each symbol's range. */
	for (uint32_t s = 0; s < ISAL_DEF_LEN_SYMBOLS; s++) {
		uint32_t first = deflate_len_base[s];
		uint32_t end = s == 28 ? 259 : deflate_len_base[s + 1];
		uint64_t sum = 0;
		for (uint32_t len = first; len < end; len++)
			sum += hist->ll_hist[len + 254];
		ll[257 + s] = sum;
	}
	for (uint32_t s = 0; s < D_SYMS; s++)
		d[s] = hist->d_hist[s];
}

void defl_build_codes(struct isal_hufftables *t, const struct isal_mod_hist *hist, int subset,
                      int quick)
{
	uint64_t ll[LL_SYMS], d[D_SYMS];
	symbol_counts(hist, ll, d);
	enum code_cover c = subset ? COVER_COUNTED : COVER_ALL;
	build_all(t, ll, d, c, c, quick);
}

uint64_t defl_dynamic_bits(const struct isal_mod_hist *hist, int quick)
{
	uint64_t ll[LL_SYMS], d[D_SYMS];
	symbol_counts(hist, ll, d);
	ll[DEFL_EOB] = 1;
	uint8_t lens[LL_SYMS + D_SYMS], d_lens[D_SYMS];
	build_lengths(ll, LL_SYMS, LL_LIMIT, COVER_COUNTED, lens);
	build_lengths(d, D_SYMS, LL_LIMIT, COVER_COUNTED, d_lens);
	uint64_t bits = 0;
	for (uint32_t s = 0; s < LL_SYMS; s++)
		bits += ll[s] * lens[s];
	for (uint32_t s = 0; s < ISAL_DEF_LEN_SYMBOLS; s++)
		bits += ll[257 + s] * deflate_len_extra[s];
	for (uint32_t s = 0; s < D_SYMS; s++)
		bits += d[s] * (d_lens[s] + deflate_dist_extra[s]);
	uint32_t nll, nd;
	header_lens(lens, d_lens, &nll, &nd);
	struct hdr_plan plans[2];
	return bits + plan_header(plans, lens, nll, nd, quick)->bits;
}

void defl_code_lengths(const struct isal_mod_hist *hist, uint32_t smooth, uint8_t *ll_lens,
                       uint8_t *d_lens)
{
	uint64_t ll[LL_SYMS], d[D_SYMS];
	symbol_counts(hist, ll, d);
	for (uint32_t s = 0; s < LL_SYMS; s++)
		ll[s] = 2 * ll[s] + smooth;
	for (uint32_t s = 0; s < D_SYMS; s++)
		d[s] = 2 * d[s] + smooth;
	build_lengths(ll, LL_SYMS, LL_LIMIT, COVER_ALL, ll_lens);
	build_lengths(d, D_SYMS, LL_LIMIT, COVER_ALL, d_lens);
}

void defl_static_codes(struct isal_hufftables *t)
{
	uint8_t ll_lens[288], d_lens[D_SYMS];
	uint16_t ll_codes[288], d_codes[D_SYMS];
	/* RFC 1951, 3.2.6. Symbols 286 and 287 never occur but take part in the code, which
	 * places the 9-bit codes after theirs. */
	for (uint32_t s = 0; s < 288; s++)
		ll_lens[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
	for (uint32_t s = 0; s < D_SYMS; s++)
		d_lens[s] = 5;
	canonical_codes(ll_lens, 288, ll_codes);
	canonical_codes(d_lens, D_SYMS, d_codes);
	fill_tables(t, ll_lens, ll_codes, d_lens, d_codes);
	memset(t->deflate_hdr, 0, sizeof(t->deflate_hdr));
	t->deflate_hdr[0] = 1u << 1; /* BFINAL 0, BTYPE 1 */
	t->deflate_hdr_count = 0;
	t->deflate_hdr_extra_bits = 3;
}

uint64_t defl_coded_bits(const struct isal_hufftables *t, const struct isal_mod_hist *hist)
{
	uint64_t bits = (uint64_t)t->deflate_hdr_count * 8 + t->deflate_hdr_extra_bits;
	uint32_t missing = 0;

	for (uint32_t s = 0; s < 256; s++) {
		bits += (uint64_t)hist->ll_hist[s] * t->lit_table_sizes[s];
		missing |= hist->ll_hist[s] && !t->lit_table_sizes[s];
	}
	bits += t->lit_table_sizes[DEFL_EOB];
	missing |= !t->lit_table_sizes[DEFL_EOB];
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t e = t->len_table[i] & 31;
		bits += (uint64_t)hist->ll_hist[257 + i] * e;
		missing |= hist->ll_hist[257 + i] && !e;
	}
	for (uint32_t s = 0; s < D_SYMS; s++) {
		bits += (uint64_t)hist->d_hist[s] * (t->dcodes_sizes[s] + deflate_dist_extra[s]);
		missing |= hist->d_hist[s] && !t->dcodes_sizes[s];
	}
	return missing ? UINT64_MAX : bits;
}

/* ---- ISA-L's public functions ------------------------------------------------------------ */

/* Counts as the builder wants them: below 2^40 each (a sum of 316 stays far from overflow),
 * scaled down together when larger, a counted symbol never scaled to zero. */
static void scaled_counts(const struct isal_huff_histogram *h, uint64_t *ll, uint64_t *d)
{
	uint64_t max = 0;
	for (uint32_t s = 0; s < LL_SYMS; s++)
		max |= h->lit_len_histogram[s];
	for (uint32_t s = 0; s < D_SYMS; s++)
		max |= h->dist_histogram[s];
	uint32_t shift = 0;
	while (shift < 64 && (max >> shift) >= (1ull << 40))
		shift++;
	for (uint32_t s = 0; s < LL_SYMS; s++) {
		uint64_t v = h->lit_len_histogram[s];
		ll[s] = v && !(v >> shift) ? 1 : v >> shift;
	}
	for (uint32_t s = 0; s < D_SYMS; s++) {
		uint64_t v = h->dist_histogram[s];
		d[s] = v && !(v >> shift) ? 1 : v >> shift;
	}
}

/* The two public builders: lengths and distances always all coded, literals per lit_cover. */
static int create_hufftables(struct isal_hufftables *hufftables,
                             struct isal_huff_histogram *histogram, enum code_cover lit_cover)
{
	uint64_t ll[LL_SYMS], d[D_SYMS];
	if (hufftables == NULL || histogram == NULL)
		return -1;
	scaled_counts(histogram, ll, d);
	memset(hufftables, 0, sizeof(*hufftables));
	build_all(hufftables, ll, d, lit_cover, COVER_ALL, 0);
	return 0;
}

STOA_API int isal_create_hufftables(struct isal_hufftables *hufftables,
                                    struct isal_huff_histogram *histogram)
{
	return create_hufftables(hufftables, histogram, COVER_ALL);
}

/* As ISA-L: literals without a count get no code; lengths and distances all do. Unlike ISA-L,
 * end of block always gets one, so the table can always end a block. */
STOA_API int isal_create_hufftables_subset(struct isal_hufftables *hufftables,
                                           struct isal_huff_histogram *histogram)
{
	return create_hufftables(hufftables, histogram, COVER_COUNTED);
}

/* Little-endian on every host, so that the parse (and the codes) are the same everywhere. */
static inline uint32_t load_u32(const uint8_t *p)
{
	return stoa_load_le32(p);
}

/* The hash of the 4 bytes at p: multiplicative (Knuth's golden-ratio constant), top 13 bits. */
static inline uint32_t hist_hash(uint32_t v)
{
	return (v * 2654435761u) >> (32 - 13);
}

/*
 * A quick greedy parse, as a level-0/1 compressor would do it: one hash-table entry per 4-byte
 * prefix (in the histogram's hash_table scratch, positions mod 2^16), a match when the
 * candidate is within 32 KiB and at least 3 bytes agree, the table updated at a match's first
 * bytes only. Each call also counts one end of block, as ISA-L does.
 */
STOA_API void isal_update_histogram(uint8_t *in_stream, int length,
                                    struct isal_huff_histogram *histogram)
{
	if (in_stream == NULL || histogram == NULL || length <= 0)
		return;
	_Static_assert(sizeof(histogram->hash_table) / sizeof(histogram->hash_table[0]) >= 8192,
	               "hash scratch");
	uint16_t *head = histogram->hash_table;
	uint64_t *ll = histogram->lit_len_histogram, *dh = histogram->dist_histogram;
	const uint8_t *p = in_stream;
	size_t n = (size_t)length, i = 0;

	memset(head, 0, 8192 * sizeof(*head));
	while (n >= 4 && i < n - 3) {
		uint32_t h = hist_hash(load_u32(p + i));
		uint32_t cand = head[h];
		head[h] = (uint16_t)i;
		size_t dist = (uint16_t)((uint32_t)i - cand);
		if (dist >= 1 && dist <= IGZIP_HIST_SIZE && dist <= i) {
			const uint8_t *a = p + i - dist, *b = p + i;
			size_t max = n - i < ISAL_DEF_MAX_MATCH ? n - i : ISAL_DEF_MAX_MATCH;
			size_t len = 0;
			while (len < max && a[len] == b[len])
				len++;
			if (len >= ISAL_DEF_MIN_MATCH) {
				ll[257 + deflate_len_index((uint32_t)len)]++;
				dh[defl_dist_sym((uint32_t)dist)]++;
				for (size_t j = i + 1; j < i + 3 && j < n - 3; j++)
					head[hist_hash(load_u32(p + j))] = (uint16_t)j;
				i += len;
				continue;
			}
		}
		ll[p[i]]++;
		i++;
	}
	for (; i < n; i++)
		ll[p[i]]++;
	ll[DEFL_EOB]++;
}

/* ISA-L exports its portable histogram under this name too (no header declares it). */
void isal_update_histogram_base(uint8_t *in_stream, int length,
                                struct isal_huff_histogram *histogram);
STOA_API void isal_update_histogram_base(uint8_t *in_stream, int length,
                                         struct isal_huff_histogram *histogram)
{
	isal_update_histogram(in_stream, length, histogram);
}
