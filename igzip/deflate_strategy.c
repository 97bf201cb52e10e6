/* The match finders of zlib's strategies (igzip_zlib.h's DEFL_ZMODE_*), for the zlib-compatible
 * layer. They fill the level buffer's token area like the levels' tokenizers do (deflate_match.c),
 * so the block writer and the stream machinery serve them unchanged:
 *   stored    no tokens: the block writer stores the block's bytes (deflate.c, block_prepare);
 *   huffman   every byte a literal (zlib's Z_HUFFMAN_ONLY);
 *   rle       a byte repeated 3 times or more becomes a match at distance 1 (Z_RLE: run-length
 *             coding of image data);
 *   filtered  the level's matches, less those of 5 bytes or fewer, which become literals
 *             (Z_FILTERED: small values with a random spread compress better coded than matched;
 *             zlib drops the same short matches).
 */
#include "deflate_internal.h"
#include "igzip_zlib.h"

static uint32_t tokens_left(const struct defl_lvl *L)
{
	const uint32_t used = L->ntok + DEFL_TOK_SLACK;
	return L->tok_cap > used ? L->tok_cap - used : 0;
}

static uint32_t tok_stored(struct defl_lvl *L, const struct defl_win *w, uint32_t p, uint32_t stop)
{
	(void)L;
	(void)w;
	return p < stop ? stop : p;
}

static uint32_t tok_literals(struct defl_lvl *L, const struct defl_win *w, uint32_t p,
                             uint32_t stop)
{
	uint32_t n = p < stop ? stop - p : 0;
	const uint32_t left = tokens_left(L);
	if (n > left)
		n = left;
	uint32_t *const t = L->tok + L->ntok;
	uint32_t *const ll = L->hist.ll_hist;
	const uint8_t *const src = w->base + p;
	for (uint32_t i = 0; i < n; i++) {
		t[i] = DEFL_TOK_LIT(src[i]);
		ll[src[i]]++;
	}
	L->ntok += n;
	return p + n;
}

static uint32_t tok_rle(struct defl_lvl *L, const struct defl_win *w, uint32_t p, uint32_t stop)
{
	const uint8_t *const base = w->base;
	uint32_t *const ll = L->hist.ll_hist;
	uint32_t nt = L->ntok;
	const uint32_t cap = nt + tokens_left(L);
	while (p < stop && nt < cap) {
		uint32_t len = 0;
		if (p > w->lo) {
			const uint32_t max =
			    w->end - p < DEFL_MAX_MATCH ? w->end - p : DEFL_MAX_MATCH;
			/* Each byte equal to the one before it: a run of base[p - 1]. */
			len = defl_extend(base + p, base + p - 1, max);
		}
		if (len >= 3) {
			L->tok[nt++] = DEFL_TOK_MATCH(len, 0, 0);
			ll[len + 254]++;
			L->hist.d_hist[0]++;
			p += len;
		} else {
			L->tok[nt++] = DEFL_TOK_LIT(base[p]);
			ll[base[p]]++;
			p++;
		}
	}
	L->ntok = nt;
	return p;
}

/* The shortest match Z_FILTERED keeps. */
#define FILTERED_MIN_MATCH 6u

static uint32_t tok_filtered(struct defl_lvl *L, const struct defl_win *w, uint32_t p,
                             uint32_t stop)
{
	/* Every byte may end up a token of its own, so the level's tokenizer gets no more input
	 * than the token area holds as literals (less a match's worth: the last match may run
	 * past where it was asked to stop); near the end of the area, literals fill it. */
	const uint32_t left = tokens_left(L);
	if (left <= 2 * FILTERED_MIN_MATCH)
		return tok_literals(L, w, p, stop);
	const uint32_t lim =
	    stop - p > left - FILTERED_MIN_MATCH ? p + left - FILTERED_MIN_MATCH : stop;
	const uint32_t n0 = L->ntok;
	const uint32_t q = defl_tok_impl(L->par->level)(L, w, p, lim);
	const uint32_t n1 = L->ntok;

	uint32_t n2 = n1; /* the token count once short matches are literals */
	for (uint32_t i = n0; i < n1; i++) {
		const uint32_t ll = DEFL_TOK_LL(L->tok[i]);
		if (ll > 256 && ll - 254 < FILTERED_MIN_MATCH)
			n2 += ll - 254 - 1;
	}
	if (n2 == n1)
		return q;
	/* Rewrite from the back, where the tokens' positions are known from q; writing index
	 * never falls below reading index, so no token is overwritten before it is read. */
	uint32_t *const t = L->tok;
	struct isal_mod_hist *const h = &L->hist;
	uint32_t pos = q, wr = n2;
	for (uint32_t rd = n1; rd-- > n0;) {
		const uint32_t tok = t[rd];
		const uint32_t ll = DEFL_TOK_LL(tok);
		if (ll < 256) {
			pos--;
			t[--wr] = tok;
			continue;
		}
		const uint32_t len = ll - 254;
		pos -= len;
		if (len >= FILTERED_MIN_MATCH) {
			t[--wr] = tok;
			continue;
		}
		h->ll_hist[ll]--;
		h->d_hist[DEFL_TOK_DSYM(tok)]--;
		for (uint32_t k = len; k-- > 0;) {
			const uint8_t c = w->base[pos + k];
			t[--wr] = DEFL_TOK_LIT(c);
			h->ll_hist[c]++;
		}
	}
	L->ntok = n2;
	return q;
}

defl_tok_fn *defl_tok_mode(uint32_t mode, uint32_t level)
{
	switch (mode & DEFL_ZMODE_KIND) {
	case DEFL_ZMODE_STORED:
		return tok_stored;
	case DEFL_ZMODE_HUFFMAN:
		return tok_literals;
	case DEFL_ZMODE_RLE:
		return tok_rle;
	case DEFL_ZMODE_FILTERED:
		return tok_filtered;
	default:
		return defl_tok_impl(level);
	}
}
