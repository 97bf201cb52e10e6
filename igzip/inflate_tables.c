/* Canonical Huffman decode tables (RFC 1951 3.2.2) and the dynamic block header (3.2.7). */
#include <stdatomic.h>

#include "inflate_internal.h"

enum { KIND_LITLEN, KIND_DIST };

/* Literal/length entries of symbols 256-287 without their length fields, indexed by
 * (sym - 257) mod 32: lengths 257-285 (RFC 1951 3.2.5: base << 16 | extra bits) first, then
 * the unusable 286 and 287, and end-of-block last, so that one masked load serves them all. */
#define LE(base, extra) (((uint32_t)(base) << 16) | (extra))
static const uint32_t len_info[32] = {
	LE(3, 0),   LE(4, 0),   LE(5, 0),   LE(6, 0),   LE(7, 0),   LE(8, 0),   LE(9, 0),
	LE(10, 0),  LE(11, 1),  LE(13, 1),  LE(15, 1),  LE(17, 1),  LE(19, 2),  LE(23, 2),
	LE(27, 2),  LE(31, 2),  LE(35, 3),  LE(43, 3),  LE(51, 3),  LE(59, 3),  LE(67, 4),
	LE(83, 4),  LE(99, 4),  LE(115, 4), LE(131, 5), LE(163, 5), LE(195, 5), LE(227, 5),
	LE(258, 0), INF_E_INVALID, INF_E_INVALID, INF_E_EOB,
};
#undef LE

/* The entry of symbol sym without its length fields. */
static inline __attribute__((always_inline)) uint32_t sym_info(int kind, unsigned sym,
                                                               uint32_t wsize)
{
	if (kind == KIND_LITLEN) {
		/* A select rather than branches: literals and lengths interleave in canonical
		 * order. */
		uint32_t lit = INF_E_LIT | (sym << 8);
		uint32_t other = len_info[(sym - 257) & 31];
		return sym < 256 ? lit : other;
	}
	/* KIND_DIST. A window of 2^k bytes: the symbols whose base lies beyond it are exactly those
	 * that can reach beyond it. */
	if (sym < 30 && deflate_dist_base[sym] <= wsize)
		return ((uint32_t)deflate_dist_base[sym] << 16) | deflate_dist_extra[sym];
	return INF_E_INVALID;
}

/* Add a code length to an entry: the extra-bit count already in bits 0-5 grows by len, and the
 * code length goes to bits 8-11 (not in a literal's: the literal is there). */
static inline uint32_t with_len(uint32_t info, unsigned len)
{
	if ((int32_t)info < 0)
		return info + len;
	if (info & (INF_E_INVALID | INF_E_EOB))
		return (info & ~63u) | len | (len << 8);
	return info + len + (len << 8);
}

/* The next canonical code of len bits after rev, both bit-reversed (as the decoder reads
 * them): a binary increment carried from the top bit down; 0 after the last code. */
static inline unsigned next_rev(unsigned rev, unsigned len)
{
	/* The carry stops at the highest zero bit of the len-bit code. */
	unsigned zeros = ~rev & ((1u << len) - 1);
	if (!zeros)
		return 0;
	unsigned top = 1u << (31 - __builtin_clz(zeros));
	return (rev & (top - 1)) | top;
}

/* Copy the first n entries of t after themselves (n a multiple of 16). A plain loop of 32-byte
 * steps: memcpy of a run-time size became `rep movsq`, whose start-up cost dominates the small
 * early doublings. */
void inf_table_double_portable(uint32_t *t, uint32_t n)
{
	for (uint32_t i = 0; i < n; i += 16) {
		memcpy(t + n + i, t + i, 32);
		memcpy(t + n + i + 8, t + i + 8, 32);
	}
}

/* Copy the first 2^k entries of t after themselves; from INF_DOUBLE_CALL entries with dbl (the
 * dispatched copy, inf_table_double_impl). */
#define INF_DOUBLE_CALL 64
static inline void double_table(uint32_t *t, unsigned k, inf_double_fn *dbl)
{
	const unsigned n = 1u << k;
	if (n < 8) {
		for (unsigned i = 0; i < n; i++)
			t[n + i] = t[i];
		return;
	}
	if (n == 8) {
		memcpy(t + 8, t, 32);
		return;
	}
	if (n >= INF_DOUBLE_CALL) {
		dbl(t, n);
		return;
	}
	inf_table_double_portable(t, n);
}

/* Resolve the root-table length code sym (code rev of l bits) in a table grown to l + extra
 * bits: one entry per extra-bit value, with the final length, and bits 0-5 and 8-11 both the
 * bits consumed (so the generic extra-bit extraction yields 0). */
static inline void resolve_length(uint32_t *table, unsigned sym, unsigned rev, unsigned l)
{
	unsigned xb = deflate_len_extra[sym - 257], t = l + xb;
	uint32_t e = ((uint32_t)deflate_len_base[sym - 257] << 16) | t | (t << 8);
	for (unsigned x = 0; x < (1u << xb); x++)
		table[rev | (x << l)] = e + ((uint32_t)x << 16);
}

/* The entries a dynamic litlen root gets beyond single symbols (inflate_internal.h): literal pairs
 * and match entries. Each is written once, at the doubling stage of its total length (its code
 * bits all within the entries laid out so far), and the later doublings replicate it like a
 * symbol's own entry. The lists grow as the canonical walk passes the symbols, shortest first. */
struct extras {
	int pairs;
	/* Literals walked, by code length: [lit_lo[l], lit_lo[l + 1]) have length l; their
	 * bit-reversed codes and their fields as a pair's second literal (symbol in bits 16-23,
	 * length in bits 0-5; as the first, stage_extras moves them). */
	unsigned nlit, lit_lo[17];
	uint16_t lcode[256];
	uint32_t lsec[256];
	/* Distance codes that fit the distance root, by length: [d_lo[l], d_lo[l + 1]) have
	 * length l; their bit-reversed codes and the fields they add to a length's entry. */
	unsigned d_lo[INF_DIST_BITS + 2];
	uint16_t dc[30];
	uint32_t dv[30];
	/* Root-length length codes by code plus extra bits lt (below the root's bits): their
	 * bit-reversed code, code length, extra bits and entry without a distance (e0). Kept by
	 * lt so that a stage visits only the codes that pair with some distance length. */
	uint8_t nm[INF_LITLEN_BITS];
	struct {
		uint16_t rev;
		uint8_t cl, xb;
		uint32_t e0;
	} m[INF_LITLEN_BITS][29];
};

/* The length symbols (257-285) a litlen build has walked: symbol, bit-reversed code, code length.
 * Their entries get resolved extra bits or extra-bit subtables. */
struct len_codes {
	unsigned n;
	uint16_t sym[29], rev[29];
	uint8_t len[29];
};

/* Stage l of the root: the pairs and matches whose codes total l bits. */
static void stage_extras(uint32_t *t, unsigned l, const struct extras *x)
{
	if (x->pairs) {
		for (unsigned l1 = 1; l1 < l; l1++) {
			const unsigned a0 = x->lit_lo[l1], a1 = x->lit_lo[l1 + 1];
			const unsigned b0 = x->lit_lo[l - l1], b1 = x->lit_lo[l - l1 + 1];
			if (b0 == b1)
				continue;
			for (unsigned a = a0; a < a1; a++) {
				const uint32_t first = INF_E_LIT | INF_E_PAIR | (l1 << 24) | l1 |
				                       ((x->lsec[a] >> 8) & 0xff00);
				const unsigned at = x->lcode[a];
				for (unsigned b = b0; b < b1; b++)
					t[at | ((unsigned)x->lcode[b] << l1)] = first + x->lsec[b];
			}
		}
	}
	for (unsigned lt = l > INF_DIST_BITS ? l - INF_DIST_BITS : 1; lt < l; lt++) {
		const unsigned d0 = x->d_lo[l - lt], d1 = x->d_lo[l - lt + 1];
		if (d0 == d1)
			continue;
		for (unsigned k = 0; k < x->nm[lt]; k++) {
			const unsigned cl = x->m[lt][k].cl, xb = x->m[lt][k].xb;
			for (unsigned v = 0; v < (1u << xb); v++) {
				const unsigned at = x->m[lt][k].rev | (v << cl);
				const uint32_t e = x->m[lt][k].e0 + (v << 16);
				for (unsigned d = d0; d < d1; d++)
					t[at | ((unsigned)x->dc[d] << lt)] = e + x->dv[d];
			}
		}
	}
}

/* The code space a code with count[l] codes of length l (l = 1..15) leaves unused, in units of
 * 2^-15; -1 where it is over-subscribed, or incomplete beyond what `loose` accepts (one code of
 * length 1 or none at all: RFC 1951 3.2.7 allows a single distance code; zlib also takes it for
 * literal/lengths). */
static int code_space_left(const unsigned *count, int loose)
{
	int left = 1;
	unsigned total = 0;
	for (unsigned l = 1; l <= 15; l++) {
		left = 2 * left - (int)count[l];
		if (left < 0)
			return -1;
		total += count[l];
	}
	if (left > 0 && (!loose || !(total == 0 || (total == 1 && count[1] == 1))))
		return -1;
	return left;
}

/* Build a table over n symbols with code lengths lens[] (0 = unused) and root index bits rb.
 * A complete code is required, except that `loose` accepts one code of length 1 or none at all
 * (RFC 1951 3.2.7 allows a single distance code; zlib also takes it for literal/lengths).
 * codes (optional) gets each root-length symbol's bit-reversed code; x (litlen only, optional)
 * adds its entries to the root.
 * The symbols come in five groups, four of q symbols (none if q is 0) and the rest, whose
 * lengths are counted already (gc, by group and length: the header's reader counts them as it
 * reads them). They are sorted by length with the four interleaved, as one shared counter would
 * chain every increment through store forwarding whenever neighbouring symbols share a length,
 * which is most of the time.
 * Returns 0, or -1 for an over-subscribed or incomplete code. */
static inline __attribute__((always_inline)) int
build(uint32_t *table, unsigned cap, const uint8_t *lens, unsigned n, unsigned rb, int kind,
      int loose, uint32_t wsize, uint16_t *codes, struct extras *x, unsigned q,
      const unsigned (*gc)[16], inf_double_fn *dbl)
{
	unsigned count[16], offs[16];
	uint16_t sorted[288];
	unsigned total = 0;

	for (unsigned l = 0; l < 16; l++)
		count[l] = gc[4][l] + (q ? gc[0][l] + gc[1][l] + gc[2][l] + gc[3][l] : 0);
	count[0] = 0;
	const int left = code_space_left(count, loose);
	if (left < 0)
		return -1;
	for (unsigned l = 1; l <= 15; l++)
		total += count[l];
	if (left > 0) {
		/* What no code reaches decodes as invalid (consuming one bit, so that a short input
		 * asks for more rather than failing). */
		uint32_t bad = INF_E_INVALID | 1u | (1u << 8);
		for (unsigned i = 0; i < (1u << rb); i++)
			table[i] = bad;
		if (total == 0)
			return 0;
	}
	/* Each group sorts into its own slice of each length's run; unused symbols go after
	 * the used ones (no branch on them). */
	unsigned qo[5][16];
	offs[1] = 0;
	for (unsigned l = 1; l < 15; l++)
		offs[l + 1] = offs[l] + count[l];
	offs[0] = total;
	for (unsigned l = 0; l < 16; l++) {
		qo[0][l] = offs[l];
		qo[1][l] = qo[0][l] + gc[0][l];
		qo[2][l] = qo[1][l] + gc[1][l];
		qo[3][l] = qo[2][l] + gc[2][l];
		qo[4][l] = q ? qo[3][l] + gc[3][l] : offs[l];
	}
	for (unsigned s = 0; s < q; s++) {
		sorted[qo[0][lens[s]]++] = (uint16_t)s;
		sorted[qo[1][lens[q + s]]++] = (uint16_t)(q + s);
		sorted[qo[2][lens[2 * q + s]]++] = (uint16_t)(2 * q + s);
		sorted[qo[3][lens[3 * q + s]]++] = (uint16_t)(3 * q + s);
	}
	for (unsigned s = 4 * q; s < n; s++)
		sorted[qo[4][lens[s]]++] = (uint16_t)s;

	/* Walk the codes in canonical order, keeping each code bit-reversed (the stream sends codes
	 * most significant bit first, and the tables are indexed by the bits as they arrive). */
	unsigned i = 0;
	const unsigned rsize = 1u << rb;
	/* Root-length length codes. Where a code has extra bits and code plus extra bits fit the
	 * root, it is resolved once the table has grown to that many bits (due[t]: a mask over
	 * the list), with one entry per extra-bit value that the later doublings then replicate;
	 * where they do not fit, it gets an extra-bit subtable at the end. */
	struct len_codes lc;
	lc.n = 0;
	uint32_t due[16] = { 0 };
	unsigned len = 1;
	while (count[len] == 0)
		len++;
	/* The root table is laid out for the current code length only (2^filled entries) and
	 * doubled by copying whenever the length grows: each entry is then written once, and the
	 * replication is bulk copies. A longer code's slots in the copy are free (the code is
	 * prefix-free) and get overwritten; slots no code reaches keep the invalid entry. */
	unsigned filled = len < rb ? len : rb;
#define GROW_TO(target)                                                                            \
	for (; filled < (target); filled++) {                                                      \
		double_table(table, filled, dbl);                                                  \
		for (uint32_t m = due[filled + 1]; m; m &= m - 1)                                  \
			resolve_length(table, lc.sym[__builtin_ctz(m)], lc.rev[__builtin_ctz(m)],   \
			               lc.len[__builtin_ctz(m)]);                                   \
		if (x) {                                                                           \
			x->lit_lo[filled + 1] = x->nlit;                                           \
			stage_extras(table, filled + 1, x);                                        \
		}                                                                                  \
	}
	/* The next code as sent (most significant bit first) at length len, reversed by table
	 * (igzip_rev_code): one add from symbol to symbol, where next_rev takes six operations. */
	unsigned code = 0;
	for (; len <= rb; len++, code <<= 1) {
		GROW_TO(len);
		if (x)
			x->lit_lo[len] = x->nlit;
		for (unsigned c = count[len]; c; c--) {
			const unsigned sym = sorted[i++];
			const unsigned rev = igzip_rev_code(code++, len);
			const uint32_t info = sym_info(kind, sym, wsize);
			table[rev] = with_len(info, len);
			if (codes)
				codes[sym] = (uint16_t)rev;
			if (kind == KIND_LITLEN && x && sym < 256) {
				const unsigned k = x->nlit++;
				x->lcode[k] = (uint16_t)rev;
				x->lsec[k] = (sym << 16) | len;
			}
			if (kind == KIND_LITLEN && sym > 256 && sym < 286) {
				const unsigned t = len + deflate_len_extra[sym - 257];
				if (t > len && t <= rb)
					due[t] |= 1u << lc.n;
				if (x && t < rb) {
					const unsigned j = x->nm[t]++;
					x->m[t][j].rev = (uint16_t)rev;
					x->m[t][j].cl = (uint8_t)len;
					x->m[t][j].xb = (uint8_t)(t - len);
					x->m[t][j].e0 = (uint32_t)deflate_len_base[sym - 257] << 16;
					x->m[t][j].e0 |= t | (t << 8);
				}
				lc.sym[lc.n] = (uint16_t)sym;
				lc.rev[lc.n] = (uint16_t)rev;
				lc.len[lc.n++] = (uint8_t)len;
			}
		}
		if (i == total)
			break;
	}
	/* Codes past the root continue from the next code at rb bits (the loop shifted it once
	 * past), reversed: a reversed code extends with zero high bits. */
	unsigned rev = igzip_rev_code(code >> 1, rb);
	GROW_TO(rb);
#undef GROW_TO
	/* Codes longer than the root: one subtable per distinct root prefix. */
	unsigned next = rsize, prefix = ~0u, sb = 0;
	uint32_t sub = 0;
	len = rb + 1;
	while (i < total) {
		while (count[len] == 0)
			len++;
		unsigned low = rev & (rsize - 1);
		if (low != prefix) {
			/* Size the subtable: the fewest index bits that the codes sharing this
			 * prefix fill completely. */
			prefix = low;
			sb = len - rb;
			int room = 1 << sb;
			for (;;) {
				room -= (int)count[sb + rb];
				if (room <= 0 || sb + rb >= 15)
					break;
				sb++;
				room <<= 1;
			}
			if (next + (1u << sb) > cap)
				return -1;
			sub = next;
			next += 1u << sb;
			table[prefix] = INF_E_SUB | (sub << 16) | (sb << 8) | rb;
		}
		unsigned sl = len - rb;
		uint32_t e = with_len(sym_info(kind, sorted[i], wsize), sl);
		for (unsigned k = rev >> rb; k < (1u << sb); k += 1u << sl)
			table[sub + k] = e;
		count[len]--;
		i++;
		rev = next_rev(rev, len);
	}
	/* Length codes whose code plus extra bits pass the root: the root entry points to a
	 * subtable indexed by the extra bits alone. */
	for (unsigned k = 0; k < lc.n; k++) {
		unsigned l = lc.len[k], r = lc.rev[k];
		unsigned xb = deflate_len_extra[lc.sym[k] - 257];
		uint32_t base = deflate_len_base[lc.sym[k] - 257];
		if (l + xb <= rb)
			continue;
		if (next + (1u << xb) > cap)
			return -1;
		for (unsigned v = 0; v < (1u << xb); v++)
			table[next + v] = ((base + v) << 16) | xb | (xb << 8);
		uint32_t ptr = INF_E_SUB | (next << 16) | (xb << 8) | l;
		for (unsigned idx = r; idx < rsize; idx += 1u << l)
			table[idx] = ptr;
		next += 1u << xb;
	}
	return 0;
}

/* Code lengths are counted in groups of LIT_GROUP literals (build's gc): the literals are four. */
#define LIT_GROUP 64

/* One copy of build per alphabet, so that its per-symbol work has no branch on the kind. */
static __attribute__((noinline)) int build_litlen(uint32_t *table, const uint8_t *lens, unsigned n,
                                                  unsigned rb, int loose, uint32_t wsize,
                                                  struct extras *x, const unsigned (*gc)[16],
                                                  inf_double_fn *dbl)
{
	return build(table, INF_LITLEN_CAP, lens, n, rb, KIND_LITLEN, loose, wsize, NULL, x,
	             LIT_GROUP, gc, dbl);
}

static __attribute__((noinline)) int build_dist(uint32_t *table, const uint8_t *lens, unsigned n,
                                                int loose, uint32_t wsize, uint16_t *codes,
                                                const unsigned (*gc)[16], inf_double_fn *dbl)
{
	return build(table, INF_DIST_CAP, lens, n, INF_DIST_BITS, KIND_DIST, loose, wsize, codes,
	             NULL, 0, gc, dbl);
}

/* Count lens[0, n) into gc by group (build: [g * LIT_GROUP, (g + 1) * LIT_GROUP) for g < 4, the
 * rest in 4) and length. */
static void count_groups(const uint8_t *lens, unsigned n, unsigned q, unsigned gc[5][16])
{
	memset(gc, 0, 5 * sizeof(gc[0]));
	for (unsigned s = 0; s < n; s++)
		gc[q && s < 4 * q ? s / q : 4][lens[s]]++;
}

/* A code-length code entry: bits 0-5 the bits it consumes with its extra bits (the shift a
 * 64-bit shift takes unmasked), 8-11 its code length (where the extra bits start), 12-15 the
 * length it stands for (0 for 17 and 18), 16-22 the extra bits' mask, 24-27 the repeat count
 * less its extra bits, bit 30 "repeat the previous length" (16) and bit 31 a repeat (16-18), so
 * that a signed test finds the plain lengths. (16: repeat the previous length 3-6 times; 17: 3-10
 * zeros; 18: 11-138 zeros.) */
#define PRE_E(xb, base, val)                                                                       \
	((xb) | ((1u << (xb)) - 1) << 16 | (uint32_t)(base) << 24 | (uint32_t)(val) << 12)
#define PRE_PREV   0x40000000u
#define PRE_REPEAT 0x80000000u
static const uint32_t pre_info[19] = {
	PRE_E(0, 1, 0),  PRE_E(0, 1, 1),  PRE_E(0, 1, 2),  PRE_E(0, 1, 3),  PRE_E(0, 1, 4),
	PRE_E(0, 1, 5),  PRE_E(0, 1, 6),  PRE_E(0, 1, 7),  PRE_E(0, 1, 8),  PRE_E(0, 1, 9),
	PRE_E(0, 1, 10), PRE_E(0, 1, 11), PRE_E(0, 1, 12), PRE_E(0, 1, 13), PRE_E(0, 1, 14),
	PRE_E(0, 1, 15), PRE_E(2, 3, 0) | PRE_REPEAT | PRE_PREV, PRE_E(3, 3, 0) | PRE_REPEAT,
	PRE_E(7, 11, 0) | PRE_REPEAT,
};
#undef PRE_E

/* The code-length code's table (7-bit index, every code at most 7 bits): a complete code only.
 * Laid out as build does, by length with doublings in between: a fill per symbol at its own
 * stride mispredicted the end of nearly every one. */
static int build_precode(uint32_t *table, const uint8_t *lens)
{
	unsigned count[8] = { 0 }, offs[8];
	uint8_t sorted[19];
	for (unsigned s = 0; s < 19; s++)
		count[lens[s]]++;
	int left = 1;
	count[0] = 0;
	for (unsigned l = 1; l < 8; l++) {
		left = 2 * left - (int)count[l];
		if (left < 0)
			return -1;
	}
	if (left)
		return -1;
	offs[1] = 0;
	for (unsigned l = 1; l < 7; l++)
		offs[l + 1] = offs[l] + count[l];
	offs[0] = offs[7] + count[7];
	for (unsigned s = 0; s < 19; s++)
		sorted[offs[lens[s]]++] = (uint8_t)s;
	unsigned code = 0, i = 0;
	for (unsigned l = 1; l < 8; l++, code <<= 1) {
		if (l > 1)
			double_table(table, l - 1, inf_table_double_portable);
		for (unsigned c = count[l]; c; c--) {
			const unsigned s = sorted[i++];
			table[igzip_rev_code(code++, l)] = pre_info[s] + l + (l << 8);
		}
	}
	return 0;
}

/* Prepare x for a litlen build with match entries (and pairs if asked): the distance codes that
 * may join a length (root-length codes of symbols inside the window), grouped by length, with the
 * fields each adds to the length's entry (its bits consumed, where its extra bits start, the
 * symbol and INF_E_MATCH). dcodes[s] is the bit-reversed code of each root-length symbol. */
static void extras_init(struct extras *x, int pairs, const uint8_t *dlens, unsigned hdist,
                        const uint16_t *dcodes, uint32_t wsize)
{
	x->pairs = pairs;
	x->nlit = 0;
	memset(x->lit_lo, 0, sizeof(x->lit_lo));
	memset(x->nm, 0, sizeof(x->nm));
	unsigned cnt[INF_DIST_BITS + 2] = { 0 };
	for (unsigned s = 0; s < hdist; s++)
		if (dlens[s] <= INF_DIST_BITS && deflate_dist_base[s] <= wsize)
			cnt[dlens[s]]++;
	unsigned at[INF_DIST_BITS + 2];
	x->d_lo[1] = at[1] = 0;
	for (unsigned l = 1; l <= INF_DIST_BITS; l++)
		x->d_lo[l + 1] = at[l + 1] = x->d_lo[l] + cnt[l];
	for (unsigned s = 0; s < hdist; s++) {
		const unsigned l = dlens[s];
		if (l == 0 || l > INF_DIST_BITS || deflate_dist_base[s] > wsize)
			continue;
		const unsigned k = at[l]++;
		x->dc[k] = dcodes[s];
		x->dv[k] = (l + deflate_dist_extra[s]) | (l << 8) | INF_E_MATCH | ((uint32_t)s << 25);
	}
}

void inf_build_fixed(struct inf_priv *t, uint32_t wsize)
{
	uint8_t *l = t->lens;
	memset(l, 8, 144);
	memset(l + 144, 9, 112);
	memset(l + 256, 7, 24);
	memset(l + 280, 8, 8);
	memset(l + 288, 5, 32);
	/* Built once per window size and kept across blocks, so the fixed code gets the wide root
	 * and match entries (its 7-bit length codes and 5-bit distance codes pair within 12 bits)
	 * whatever the blocks' lengths; no two 8-bit literals fit, so no pairs. */
	uint16_t dcodes[32];
	struct extras x;
	unsigned gc[5][16];
	count_groups(l + 288, 32, 0, gc);
	inf_double_fn *dbl = inf_table_double_impl();
	build_dist(t->dist, l + 288, 32, 0, wsize, dcodes, (const unsigned(*)[16])gc, dbl);
	extras_init(&x, 0, l + 288, 30, dcodes, wsize);
	count_groups(l, 288, LIT_GROUP, gc);
	build_litlen(t->litlen, l, 288, INF_LITLEN_BITS, 0, wsize, &x, (const unsigned(*)[16])gc,
	             dbl);
	t->lmask = (1u << INF_LITLEN_BITS) - 1;
	t->loop = INF_LOOP_PLAIN;
}

const struct inf_priv *inf_fixed_shared(void)
{
	static struct inf_priv tabs;
	static atomic_int state; /* 0: not built, 1: one thread building, 2: built */
	int st = atomic_load_explicit(&state, memory_order_acquire);
	if (st == 2)
		return &tabs;
	if (st == 0 && atomic_compare_exchange_strong_explicit(&state, &st, 1, memory_order_acquire,
	                                                        memory_order_relaxed)) {
		inf_build_fixed(&tabs, INF_HIST);
		atomic_store_explicit(&state, 2, memory_order_release);
		return &tabs;
	}
	return NULL;
}

/* The literal codes' code-space weights by length: lit[l] = (codes of length l) * 2^(15 - l);
 * lit[0] counts unused literals and is not a weight. gc: the header's counts (build), whose
 * first four groups are the literals. Returns the literal mass, the sum of lit[1..15] (units of
 * 2^-15). */
static uint32_t lit_weights(const unsigned (*gc)[16], uint64_t lit[16])
{
	uint32_t mass = 0;
	for (unsigned l = 0; l < 16; l++) {
		lit[l] = (uint64_t)(gc[0][l] + gc[1][l] + gc[2][l] + gc[3][l]) << (15 - l);
		mass += l ? (uint32_t)lit[l] : 0;
	}
	return mass;
}

/* What a 12-bit root gains over an 11-bit one for this code (INF_WIDE_MASS): the probability
 * mass, in units of 2^-30, of the lookups that the twelfth bit turns into one. lit: the
 * literals' weights (lit_weights); dc: the distance codes' count by length. */
static uint64_t wide_gain(const uint8_t *lens, unsigned hlit, const unsigned dc[16],
                          const uint64_t lit[16])
{
	/* Code-space weights by length (2^(15 - length)) of lengths by code plus extra bits and of
	 * distances. */
	uint64_t len[16] = { 0 }, dist[16];
	for (unsigned l = 0; l < 16; l++)
		dist[l] = (uint64_t)dc[l] << (15 - l);
	for (unsigned s = 257; s < hlit && s < 286; s++) {
		const unsigned t = lens[s] + deflate_len_extra[s - 257];
		if (lens[s] && t < 16)
			len[t] += 1u << (15 - lens[s]);
	}
	uint64_t g = lit[12] << 15;
	for (unsigned a = 1; a < 12; a++)
		g += lit[a] * lit[12 - a] + len[a] * dist[12 - a];
	return g;
}

/* Count a run of n lengths v from symbol i (a repeat may cross from one group to the next). */
static void count_run(unsigned gc[6][16], unsigned i, unsigned n, unsigned v, unsigned hlit)
{
	while (n) {
		const unsigned g = (i >> 6) + (i >= hlit);
		const unsigned end = g < 4 ? (g + 1) * LIT_GROUP : g == 4 ? hlit : i + n;
		const unsigned k = end - i < n ? end - i : n;
		gc[g][v] += k;
		i += k;
		n -= k;
	}
}

static inline __attribute__((always_inline)) int read_dynamic(struct inf_br *br, struct inf_priv *t,
                                                              uint32_t wsize, int extras)
{
	uint8_t lens[288 + 32];

	if (!inf_br_need(br, 14))
		return INF_NEED_IN;
	unsigned hlit = inf_br_take(br, 5) + 257;
	unsigned hdist = inf_br_take(br, 5) + 1;
	unsigned hclen = inf_br_take(br, 4) + 4;
	if (hlit > 286 || hdist > 30) {
		t->why = INF_WHY_TOO_MANY;
		return ISAL_INVALID_BLOCK;
	}

	uint8_t pre[19] = { 0 };
	for (unsigned i = 0; i < hclen; i++) {
		if (!inf_br_need(br, 3))
			return INF_NEED_IN;
		pre[deflate_precode_order[i]] = (uint8_t)inf_br_take(br, 3);
	}
	uint32_t precode[1 << INF_PRECODE_BITS];
	if (build_precode(precode, pre)) {
		/* zlib takes a code-length code without a single code and reads every length as
		 * a 0 of one bit (its table for no codes), to fail only at the missing end-of-block
		 * code; its layer here does the same, so a stream fails where zlib's does, not
		 * bytes earlier (fuzz_zlib: 1d 00 00 00 raw, zlib waiting for input). */
		static const uint8_t none[19];
		if (!t->zlayer || memcmp(pre, none, sizeof(none)))
			return ISAL_INVALID_BLOCK;
		for (unsigned k = 0; k < (1u << INF_PRECODE_BITS); k++)
			precode[k] = pre_info[0] + 1 + (1u << 8);
	}

	const unsigned total = hlit + hdist;
	unsigned i = 0;
	/* Lengths counted by group as they come (build's gc): literals by LIT_GROUP, then the
	 * lengths (group 4), then the distances (group 5, build_dist's group 4). */
	unsigned gc[6][16] = { { 0 } };
	/* While 8 input bytes remain, a refill gives 56 bits, enough for four symbols of at most
	 * 14 bits; a plain length is then a lookup, a shift, its store and its count. */
	uint64_t buf = br->buf;
	unsigned bits = br->bits;
	const uint8_t *p = br->p;
	while (i < total && br->end - p >= 8) {
		buf |= inf_load64(p) << bits;
		p += (63 - bits) >> 3;
		bits |= 56;
		for (unsigned k = 0; k < 4 && i < total; k++) {
			const uint32_t e = precode[buf & ((1u << INF_PRECODE_BITS) - 1)];
			if ((int32_t)e >= 0) {
				gc[(i >> 6) + (i >= hlit)][(e >> 12) & 15]++;
				lens[i++] = (uint8_t)((e >> 12) & 15);
				buf >>= e & 63;
				bits -= e & 63;
				continue;
			}
			const unsigned n = ((e >> 24) & 15) +
			                   ((unsigned)(buf >> ((e >> 8) & 15)) & ((e >> 16) & 127));
			buf >>= e & 63;
			bits -= e & 63;
			if (i + n > total || (e & PRE_PREV && i == 0)) {
				t->why = INF_WHY_REPEAT;
				return ISAL_INVALID_BLOCK;
			}
			const unsigned v = e & PRE_PREV ? lens[i - 1] : 0;
			memset(lens + i, (int)v, n);
			count_run(gc, i, n, v, hlit);
			i += n;
		}
	}
	br->buf = buf;
	br->bits = bits;
	br->p = p;
	/* The last bytes of input, symbol by symbol. */
	while (i < total) {
		inf_br_need(br, 14);
		const uint32_t e = precode[br->buf & ((1u << INF_PRECODE_BITS) - 1)];
		const unsigned cl = (e >> 8) & 15, all = e & 63;
		if (all > br->bits)
			return INF_NEED_IN;
		const unsigned n =
		    ((e >> 24) & 15) + ((unsigned)(br->buf >> cl) & ((e >> 16) & 127));
		inf_br_take(br, all);
		if (i + n > total || (e & PRE_PREV && i == 0)) {
			t->why = INF_WHY_REPEAT;
			return ISAL_INVALID_BLOCK;
		}
		const unsigned v = e & PRE_PREV ? lens[i - 1] : (e >> 12) & 15;
		memset(lens + i, (int)v, n);
		count_run(gc, i, n, v, hlit);
		i += n;
	}
	if (lens[256] == 0) {
		t->why = INF_WHY_NO_EOB;
		return ISAL_INVALID_BLOCK;
	}
	uint64_t lit[16];
	const uint32_t mass = lit_weights((const unsigned(*)[16])gc, lit);
	t->loop = INF_LOOP_PLAIN;
	if (mass <= INF_MIXED_HI) {
		uint32_t dshort = 0;
		for (unsigned s = 0; s < 10 && s < hdist; s++)
			dshort += lens[hlit + s] ? 1u << (15 - lens[hlit + s]) : 0;
		/* (Without match entries every match would leave the unified step.) */
		if (dshort <= INF_UNIFIED_SHORT && extras)
			t->loop = INF_LOOP_UNIFIED;
		else if (mass >= INF_MIXED_LO)
			t->loop = INF_LOOP_MIXED;
	}
	const int wide =
	    extras == 3 || (extras == 2 && wide_gain(lens, hlit, gc[5], lit) >= INF_WIDE_MASS);
	const unsigned rb = wide ? INF_LITLEN_BITS : INF_LITLEN_NARROW;
	t->lmask = (1u << rb) - 1;
	uint16_t dcodes[32];
	inf_double_fn *dbl = inf_table_double_impl();
	if (build_dist(t->dist, lens + hlit, hdist, 1, wsize, dcodes,
	               (const unsigned(*)[16])gc + 1, dbl)) {
		/* (zlib builds the literal/length code first, and names its fault where both
		 * fail.) */
		unsigned ll[16];
		for (unsigned l = 0; l < 16; l++)
			ll[l] = gc[0][l] + gc[1][l] + gc[2][l] + gc[3][l] + gc[4][l];
		t->why = code_space_left(ll, 1) < 0 ? INF_WHY_LITLEN : INF_WHY_DIST;
		return ISAL_INVALID_BLOCK;
	}
	struct extras x;
	if (extras)
		extras_init(&x, 1, lens + hlit, hdist, dcodes, wsize);
	if (build_litlen(t->litlen, lens, hlit, rb, 1, wsize, extras ? &x : NULL,
	                 (const unsigned(*)[16])gc, dbl)) {
		t->why = INF_WHY_LITLEN;
		return ISAL_INVALID_BLOCK;
	}
	return 0;
}

/* The header's reader as a local copy: through br itself every code length stored (a byte store,
 * which may alias anything) reloaded its fields. */
int inf_read_dynamic(struct inf_br *br, struct inf_priv *t, uint32_t wsize, int extras)
{
	struct inf_br b = *br;
	int r = read_dynamic(&b, t, wsize, extras);
	*br = b;
	return r;
}
