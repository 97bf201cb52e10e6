/* What every deflate suite (tests/test_deflate_*.c) uses: the corpus files, a bit-at-a-time
 * reference decoder, the decoders used as oracles, the compressor driver and the verification
 * of a stream; see deflate_check.h. */
#include "deflate_check.h"

struct test_file files[MAX_FILES];
size_t n_files;
char corpus_root[512];

/* Text-like data with repeats at every distance, for machines without the corpus. */
static void synth_file(const char *name, size_t len, int kind)
{
	struct test_file *ds = &files[n_files++];
	snprintf(ds->name, sizeof(ds->name), "generated/%s", name);
	ds->len = len;
	ds->data = xmalloc(len);
	static const char *words[] = { "the ",    "deflate ", "stream ",  "of ",    "bytes ",
		                       "window ", "match ",   "literal ", "block ", "\n" };
	size_t i = 0;
	while (i < len) {
		if (kind == 0) {
			const char *w = words[test_rand_below(10)];
			size_t n = strlen(w);
			for (size_t k = 0; k < n && i < len; k++)
				ds->data[i++] = (uint8_t)w[k];
		} else if (i > 100 && test_rand_below(4) == 0) {
			size_t dist = 1 + test_rand_below(i < 32768 ? i : 32768);
			size_t n = 3 + test_rand_below(300);
			for (size_t k = 0; k < n && i < len; k++, i++)
				ds->data[i] = ds->data[i - dist];
		} else {
			ds->data[i++] = (uint8_t)test_rand();
		}
	}
}

static void load_corpus(void)
{
	n_files = test_load_corpus(files, MAX_FILES);
	if (n_files) {
		snprintf(corpus_root, sizeof(corpus_root), "%s", test_corpus_dir());
	} else {
		printf("corpus not found (set STOA_CORPUS): using generated data instead\n");
		synth_file("text1", 60000, 0);
		synth_file("mixed1", 40000, 1);
		synth_file("text2", 200000, 0);
		synth_file("mixed2", 300000, 1);
		snprintf(corpus_root, sizeof(corpus_root), "(generated)");
	}
}

const struct test_file *find_file(const char *suffix)
{
	for (size_t i = 0; i < n_files; i++) {
		size_t a = strlen(files[i].name), b = strlen(suffix);
		if (a >= b && strcmp(files[i].name + a - b, suffix) == 0)
			return &files[i];
	}
	return NULL;
}

/* The text the dictionary tests draw from: alice29.txt, else the last file loaded. */
const struct test_file *dict_text(void)
{
	const struct test_file *ds = find_file("/alice29.txt");
	return ds ? ds : &files[n_files - 1];
}

/* The three files that get the whole parameter matrix: text, object code, and a binary. */
const struct test_file *matrix_file(int i)
{
	static const char *names[] = { "/paper1", "/obj1", "/sum" };
	const struct test_file *d = find_file(names[i]);
	return d ? d : &files[(size_t)i % n_files];
}

char zlib_msg[128]; /* zlib's message for the last zlib_decode */

/* zlib inflate of the whole of in; window_bits as inflateInit2 takes it. Returns zlib's final
 * code (Z_STREAM_END on success) and sets *out_len and *in_used. */
int zlib_decode(const uint8_t *in, size_t in_len, int window_bits, const uint8_t *dict,
                size_t dict_len, uint8_t *out, size_t out_cap, size_t *out_len, size_t *in_used,
                gz_header *gzh)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	int ret = inflateInit2(&z, window_bits);
	if (ret != Z_OK)
		return ret;
	if (gzh)
		inflateGetHeader(&z, gzh);
	if (dict && window_bits < 0)
		inflateSetDictionary(&z, dict, (uInt)dict_len);
	size_t in_pos = 0, out_pos = 0;
	for (;;) {
		size_t ni = in_len - in_pos, no = out_cap - out_pos;
		z.next_in = (Bytef *)(uintptr_t)(in + in_pos);
		z.avail_in = ni > (1u << 30) ? (1u << 30) : (uInt)ni;
		z.next_out = out + out_pos;
		z.avail_out = no > (1u << 30) ? (1u << 30) : (uInt)no;
		uInt ai = z.avail_in, ao = z.avail_out;
		ret = inflate(&z, Z_NO_FLUSH);
		in_pos += ai - z.avail_in;
		out_pos += ao - z.avail_out;
		if (ret == Z_NEED_DICT && dict) {
			ret = inflateSetDictionary(&z, dict, (uInt)dict_len);
			if (ret != Z_OK)
				break;
			continue;
		}
		if (ret != Z_OK)
			break;
		if (ai == z.avail_in && ao == z.avail_out) {
			ret = Z_BUF_ERROR;
			break;
		}
	}
	*out_len = out_pos;
	*in_used = in_pos;
	snprintf(zlib_msg, sizeof(zlib_msg), "%s", z.msg ? z.msg : "no message");
	inflateEnd(&z);
	return ret;
}

/* The library's own decoder, whole buffers in one call. Returns isal_inflate's code, or 100 when
 * the stream did not reach ISAL_BLOCK_FINISH. */
int isal_decode(const uint8_t *in, size_t in_len, uint32_t crc_flag, uint32_t hist_bits,
                uint8_t *dict, uint32_t dict_len, uint8_t *out, size_t out_cap, size_t *out_len)
{
	struct inflate_state *st = xmalloc(sizeof(*st));
	isal_inflate_init(st);
	st->crc_flag = crc_flag;
	st->hist_bits = hist_bits;
	int ret = ISAL_DECOMP_OK;
	if (dict)
		ret = isal_inflate_set_dict(st, dict, dict_len);
	st->next_in = (uint8_t *)(uintptr_t)in;
	st->avail_in = (uint32_t)in_len;
	st->next_out = out;
	st->avail_out = (uint32_t)out_cap;
	if (ret == ISAL_DECOMP_OK)
		ret = isal_inflate(st);
	if (ret == ISAL_NEED_DICT && dict) {
		/* A zlib header with FDICT: the dictionary goes in now. */
		ret = isal_inflate_set_dict(st, dict, dict_len);
		if (ret == ISAL_DECOMP_OK)
			ret = isal_inflate(st);
	}
	if (ret == ISAL_DECOMP_OK && st->block_state != ISAL_BLOCK_FINISH)
		ret = 100;
	*out_len = st->total_out;
	free(st);
	return ret;
}

static const char *const chunk_name[] = { "whole", "1-byte", "random", "64KiB" };
static const char *const flush_name[] = { "NO_FLUSH", "SYNC_FLUSH", "FULL_FLUSH" };
static const char *const wrap_name[] = { "deflate", "gzip", "gzip-no-hdr", "zlib", "zlib-no-hdr" };

struct dparams dparams_default(int level)
{
	struct dparams p;
	memset(&p, 0, sizeof(p));
	p.level = level;
	p.lbuf_size_index = -1;
	return p;
}

/* ISA-L's level_buf sizes of level L (MIN, SMALL, MEDIUM, LARGE, EXTRA_LARGE) and its default. */
#define LBUF_ROW(L)                                                                                \
	{                                                                                          \
		ISAL_DEF_LVL##L##_MIN, ISAL_DEF_LVL##L##_SMALL, ISAL_DEF_LVL##L##_MEDIUM,          \
		    ISAL_DEF_LVL##L##_LARGE, ISAL_DEF_LVL##L##_EXTRA_LARGE,                        \
		    ISAL_DEF_LVL##L##_DEFAULT                                                      \
	}

uint32_t level_buf_size(int level, int index)
{
	static const uint32_t sizes[STOA_DEF_MAX_LEVEL + 1][6] = {
		LBUF_ROW(0), LBUF_ROW(1), LBUF_ROW(2), LBUF_ROW(3), LBUF_ROW(4),
		LBUF_ROW(5), LBUF_ROW(6), LBUF_ROW(7), LBUF_ROW(8), LBUF_ROW(9), LBUF_ROW(10),
		LBUF_ROW(11), LBUF_ROW(12),
	};
	if (level < 0 || level > STOA_DEF_MAX_LEVEL)
		return 0;
	return sizes[level][index < 0 ? 5 : index];
}

/* A stream initialised (stateless or streaming) at level, with a level buffer of
 * level_buf_size(level, index) bytes (none at level 0) returned in *lb for the caller to free. */
struct isal_zstream *new_stream(int level, int index, int stateless, uint8_t **lb)
{
	struct isal_zstream *s = xmalloc(sizeof(*s));
	const uint32_t lbs = level_buf_size(level, index);
	*lb = level ? xmalloc(lbs) : NULL;
	if (stateless)
		isal_deflate_stateless_init(s);
	else
		isal_deflate_init(s);
	s->level = (uint32_t)level;
	s->level_buf = *lb;
	s->level_buf_size = *lb ? lbs : 0;
	return s;
}

static size_t chunk_size(enum chunking c)
{
	switch (c) {
	case CH_ONE:
		return 1;
	case CH_64K:
		return 64 * KIB;
	case CH_RANDOM:
		switch (test_rand_below(3)) {
		case 0:
			return 1 + test_rand_below(64);
		case 1:
			return 1 + test_rand_below(4096);
		default:
			return 1 + test_rand_below(100000);
		}
	default:
		return SIZE_MAX;
	}
}

static void describe(char *buf, size_t n, const char *what, const struct dparams *p, size_t len)
{
	snprintf(buf, n,
	         "%s (%zu bytes): level %d, %s, %s, hist_bits %d, in %s, out %s, %s, level_buf "
	         "%u, dict %s/%u",
	         what, len, p->level, flush_name[p->flush % 3], wrap_name[p->gzip_flag % 5],
	         p->hist_bits, chunk_name[p->in_chunk], chunk_name[p->out_chunk],
	         p->stateless ? "stateless" : "streaming",
	         level_buf_size(p->level, p->lbuf_size_index),
	         p->dict_mode == DICT_NONE  ? "none"
	         : p->dict_mode == DICT_SET ? "set_dict"
	                                    : "process+reset",
	         p->dict_len);
}

/* Compresses data with p into c. Returns COMP_OK or the first error isal_deflate* returned;
 * fails the test if the stream stalls. */
int deflate_run(const struct dparams *p, const uint8_t *data, size_t len, struct compressed *c)
{
	struct isal_zstream *s = xmalloc(sizeof(*s));
	uint32_t lbsize = level_buf_size(p->level, p->lbuf_size_index);
	uint8_t *lbuf = p->level > 0 ? xmalloc(lbsize) : NULL;
	struct isal_dict *pdict = NULL;
	int ret = COMP_OK;
	size_t cap = len + len / 4 + 64 * KIB, produced = 0;
	c->buf = xmalloc(cap);

	/* init must set every field it relies on: start from garbage, as malloc may. */
	memset(s, 0xa5, sizeof(*s));
	if (p->stateless)
		isal_deflate_stateless_init(s);
	else
		isal_deflate_init(s);
	s->next_in = NULL;
	s->avail_in = 0;
	s->next_out = NULL;
	s->avail_out = 0;
	s->level = (uint32_t)p->level;
	s->level_buf = lbuf;
	s->level_buf_size = lbuf ? lbsize : 0;
	s->flush = (uint16_t)p->flush;
	s->gzip_flag = (uint16_t)p->gzip_flag;
	s->hist_bits = (uint16_t)p->hist_bits;
	if (p->huff_set)
		ret = isal_deflate_set_hufftables(s, p->huff, p->huff_type);
	if (ret == COMP_OK && p->dict_mode == DICT_SET)
		ret = isal_deflate_set_dict(s, p->dict, p->dict_len);
	if (ret == COMP_OK && p->dict_mode == DICT_PROCESSED) {
		/* ISA-L 2.30 fails process_dict on a struct isal_dict holding garbage: zero it. */
		pdict = xmalloc(sizeof(*pdict));
		memset(pdict, 0, sizeof(*pdict));
		ret = isal_deflate_process_dict(s, pdict, p->dict, p->dict_len);
		if (ret == COMP_OK)
			ret = isal_deflate_reset_dict(s, pdict);
	}
	if (ret != COMP_OK)
		goto out;

	if (p->stateless) {
		s->next_in = (uint8_t *)(uintptr_t)data;
		s->avail_in = (uint32_t)len;
		s->end_of_stream = 1;
		s->next_out = c->buf;
		s->avail_out = (uint32_t)cap;
		ret = isal_deflate_stateless(s);
		produced = cap - s->avail_out;
		goto out;
	}

	/* Eager callers add input as soon as avail_in is 0, even while a flush still has output
	 * pending (the last call filled avail_out); others wait until a call returns with room
	 * left or the flush is complete (ZSTATE_NEW_HDR). Both are valid uses of the API. */
	int eager = (int)test_rand_below(4) != 0;
	size_t in_pos = 0;
	int fed = 0, stalls = 0;
	for (;;) {
		if (s->avail_in == 0 && (in_pos < len || !fed) &&
		    (eager || !fed || s->avail_out > 0 ||
		     s->internal_state.state == ZSTATE_NEW_HDR)) {
			size_t n = chunk_size(p->in_chunk);
			if (n > len - in_pos)
				n = len - in_pos;
			s->next_in = (uint8_t *)(uintptr_t)(data + in_pos);
			s->avail_in = (uint32_t)n;
			in_pos += n;
			s->end_of_stream = in_pos == len;
			fed = 1;
		}
		if (s->avail_out == 0) {
			if (produced > 64 * (size_t)len + 4 * MIB)
				TEST_FAIL("runaway output: %zu bytes for %zu bytes of input (state "
				          "%d)\n",
				          produced, len, (int)s->internal_state.state);
			if (produced == cap) {
				cap *= 2;
				c->buf = xrealloc(c->buf, cap);
			}
			size_t n = chunk_size(p->out_chunk);
			if (n > cap - produced)
				n = cap - produced;
			s->next_out = c->buf + produced;
			s->avail_out = (uint32_t)n;
		}
		uint32_t ai = s->avail_in, ao = s->avail_out;
		uint8_t *before = s->next_out;
		ret = isal_deflate(s);
		if (ret != COMP_OK)
			break;
		if (s->next_out != before + (ao - s->avail_out)) {
			TEST_FAIL("next_out and avail_out disagree after isal_deflate\n");
		}
		produced += ao - s->avail_out;
		if (s->internal_state.state == ZSTATE_END)
			break;
		if (ai == s->avail_in && ao == s->avail_out) {
			if (++stalls > 16)
				TEST_FAIL("isal_deflate makes no progress (state %d, avail_in %u, "
				          "avail_out %u, end_of_stream %u)\n",
				          (int)s->internal_state.state, s->avail_in, s->avail_out,
				          s->end_of_stream);
		} else {
			stalls = 0;
		}
	}
out:
	c->len = produced;
	c->state_crc = s->internal_state.crc;
	c->total_in = s->total_in;
	c->total_out = s->total_out;
	free(pdict);
	free(lbuf);
	free(s);
	return ret;
}

int deflate_once(struct isal_zstream *s, int stateless, const uint8_t *data, size_t len,
                 uint8_t *out, size_t cap, struct compressed *c)
{
	s->next_in = (uint8_t *)(uintptr_t)data;
	s->avail_in = (uint32_t)len;
	s->end_of_stream = 1;
	s->next_out = out;
	s->avail_out = (uint32_t)cap;
	int ret = stateless ? isal_deflate_stateless(s) : isal_deflate(s);
	*c = (struct compressed){ out, cap - s->avail_out, s->internal_state.crc, s->total_in,
		                  s->total_out };
	return ret;
}

void compressed_free(struct compressed *c)
{
	free(c->buf);
	c->buf = NULL;
}

static const uint8_t plain_gzip_header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };

/* A zlib header (RFC 1950, 2.2) for a window of 2^wbits and an optional dictionary. */
static size_t make_zlib_header(uint8_t *h, int wbits, const uint8_t *dict, size_t dict_len)
{
	unsigned cmf = (unsigned)(wbits - 8) << 4 | 8;
	unsigned flg = dict ? 0x20 : 0;
	flg |= 31 - ((cmf << 8 | flg) % 31);
	if ((cmf << 8 | flg) % 31)
		flg = 0; /* cannot happen; keeps the check below meaningful */
	h[0] = (uint8_t)cmf;
	h[1] = (uint8_t)flg;
	if (!dict)
		return 2;
	uint32_t id = zlib_adler32(dict, dict_len);
	h[2] = (uint8_t)(id >> 24);
	h[3] = (uint8_t)(id >> 16);
	h[4] = (uint8_t)(id >> 8);
	h[5] = (uint8_t)id;
	return 6;
}

unsigned n_checked_streams;

/* Decodes c with every decoder and checks it against data; returns the reference decoder's
 * statistics in st when st is not NULL (always decoded then). */
void verify(const char *what, const struct dparams *p, const uint8_t *data, size_t len,
            const struct compressed *c, struct ref_stats *st)
{
	char desc[512];
	describe(desc, sizeof(desc), what, p, len);
	int wb = p->hist_bits ? p->hist_bits : 15;
	int bad = 0;
	size_t hdr = 0, trl = 0;
	const uint8_t *b = c->buf;
	size_t n = c->len;
	uint8_t *dict = p->dict_mode != DICT_NONE ? p->dict : NULL;
	size_t dict_used = dict ? (p->dict_len > 32768 ? 32768 : p->dict_len) : 0;
	uint8_t *dict_tail = dict ? dict + p->dict_len - dict_used : NULL;

	/* The wrapper, byte by byte. */
	switch (p->gzip_flag) {
	case IGZIP_GZIP:
		if (n < 18 || memcmp(b, "\x1f\x8b\x08", 3) != 0)
			TEST_FAIL("%s: no gzip header\n", desc);
		hdr = 10;
		/* fallthrough */
	case IGZIP_GZIP_NO_HDR:
		trl = 8;
		if (n < hdr + trl + 2)
			TEST_FAIL("%s: %zu bytes is too short for the wrapper\n", desc, n);
		if (get_le32(b + n - 8) != zlib_crc32(data, len))
			VFAIL("%s: gzip trailer CRC %08x, expected %08x\n", desc,
			      get_le32(b + n - 8), zlib_crc32(data, len));
		if (get_le32(b + n - 4) != (uint32_t)len)
			VFAIL("%s: gzip trailer ISIZE %u, expected %u\n", desc, get_le32(b + n - 4),
			      (uint32_t)len);
		if (c->state_crc != zlib_crc32(data, len))
			VFAIL("%s: internal_state.crc %08x, CRC-32 of the input %08x\n", desc,
			      c->state_crc, zlib_crc32(data, len));
		break;
	case IGZIP_ZLIB:
		if (n < 6 || (b[0] & 0x0f) != 8 || ((unsigned)b[0] << 8 | b[1]) % 31 != 0)
			TEST_FAIL("%s: bad zlib header %02x %02x\n", desc, n ? b[0] : 0,
			          n > 1 ? b[1] : 0);
		if ((b[0] >> 4) + 8 > 15)
			VFAIL("%s: zlib header window %d bits\n", desc, (b[0] >> 4) + 8);
		if ((b[0] >> 4) + 8 < wb)
			VFAIL("%s: zlib header declares a %d-bit window, stream uses %d\n", desc,
			      (b[0] >> 4) + 8, wb);
		hdr = (b[1] & 0x20) ? 6 : 2;
		/* fallthrough */
	case IGZIP_ZLIB_NO_HDR:
		trl = 4;
		if (n < hdr + trl + 2)
			TEST_FAIL("%s: %zu bytes is too short for the wrapper\n", desc, n);
		if (get_be32(b + n - 4) != zlib_adler32(data, len))
			VFAIL("%s: zlib trailer Adler-32 %08x, expected %08x\n", desc,
			      get_be32(b + n - 4), zlib_adler32(data, len));
		break;
	default:
		break;
	}
	if (c->total_out != (uint32_t)c->len || c->total_in != (uint32_t)len)
		VFAIL("%s: total_in %u total_out %u, expected %u and %u\n", desc, c->total_in,
		      c->total_out, (uint32_t)len, (uint32_t)c->len);

	/* zlib, with the wrapper it understands (headers added for the _NO_HDR forms). */
	uint8_t *wrapped = xmalloc(n + 16);
	size_t wn = 0;
	int zwb;
	int gzip_wrap = p->gzip_flag == IGZIP_GZIP || p->gzip_flag == IGZIP_GZIP_NO_HDR;
	int zlib_fdict = p->gzip_flag == IGZIP_ZLIB && (b[1] & 0x20);
	if (zlib_fdict && (!dict || get_be32(b + 2) != zlib_adler32(dict_tail, dict_used)))
		VFAIL("%s: zlib header FDICT with DICTID %08x, dictionary's Adler-32 %08x\n", desc,
		      get_be32(b + 2), dict ? zlib_adler32(dict_tail, dict_used) : 0);
	if (dict && (gzip_wrap || (p->gzip_flag == IGZIP_ZLIB && !zlib_fdict))) {
		/* gzip has no dictionary, and ISA-L 2.30 writes a zlib header without FDICT
		 * even when it compresses against one: zlib decodes the raw deflate between the
		 * wrapper's header and trailer (both checked above). */
		memcpy(wrapped, b + hdr, n - hdr - trl);
		wn = n - hdr - trl;
		zwb = -(wb < 9 ? 9 : wb);
		goto decode;
	}
	if (p->gzip_flag == IGZIP_GZIP_NO_HDR) {
		memcpy(wrapped, plain_gzip_header, 10);
		wn = 10;
	} else if (p->gzip_flag == IGZIP_ZLIB_NO_HDR) {
		wn = make_zlib_header(wrapped, wb < 9 ? 9 : wb, dict_tail, dict_used);
	}
	memcpy(wrapped + wn, b, n);
	wn += n;
	switch (p->gzip_flag) {
	case IGZIP_GZIP:
	case IGZIP_GZIP_NO_HDR:
		zwb = 16 + (wb < 9 ? 9 : wb);
		break;
	case IGZIP_ZLIB:
		zwb = 15;
		break;
	case IGZIP_ZLIB_NO_HDR:
		zwb = wb < 9 ? 9 : wb;
		break;
	default:
		zwb = -(wb < 9 ? 9 : wb);
		break;
	}
decode:;
	uint8_t *out = xmalloc(len + 1);
	size_t out_len = 0, used = 0;
	int zr = zlib_decode(wrapped, wn, zwb, dict_tail, dict_used, out, len + 1, &out_len, &used,
	                     NULL);
	if (zr != Z_STREAM_END)
		VFAIL("%s: zlib inflate returned %d (%s) after %zu of %zu bytes (%zu out)\n", desc,
		      zr, zlib_msg, used, wn, out_len);
	if (used != wn)
		VFAIL("%s: %zu bytes follow the end of the stream\n", desc, wn - used);
	if (out_len != len || memcmp(out, data, len) != 0)
		VFAIL("%s: zlib decodes %zu bytes that differ from the input\n", desc, out_len);

	/* isal_inflate, checking the wrapper itself. */
	static const uint32_t crc_flags[5] = { ISAL_DEFLATE, ISAL_GZIP, ISAL_GZIP_NO_HDR_VER,
		                               ISAL_ZLIB, ISAL_ZLIB_NO_HDR_VER };
	memset(out, 0, len + 1);
	int ir = isal_decode(b, n, crc_flags[p->gzip_flag], (uint32_t)p->hist_bits, dict_tail,
	                     (uint32_t)dict_used, out, len + 1, &out_len);
	if (ir != ISAL_DECOMP_OK)
		VFAIL("%s: isal_inflate returned %d (%zu bytes out)\n", desc, ir, out_len);
	if (out_len != len || memcmp(out, data, len) != 0)
		VFAIL("%s: isal_inflate decodes %zu bytes that differ from the input\n", desc,
		      out_len);

	/* The reference decoder on the raw deflate part: contents and the window bound. */
	if (st || bad || p->hist_bits) {
		struct ref_stats local;
		struct ref_stats *rs = st ? st : &local;
		uint8_t *ro = xmalloc(dict_used + len + 1);
		if (dict_used)
			memcpy(ro, dict_tail, dict_used);
		const char *why;
		long r = ref_inflate(b + hdr, n - hdr - trl, ro, dict_used, dict_used + len + 1, rs,
		                     &why);
		if (r < 0)
			VFAIL("%s: reference decoder: %s\n", desc, why);
		if ((size_t)r != len || memcmp(ro + dict_used, data, len) != 0)
			VFAIL("%s: reference decoder output differs\n", desc);
		if (rs->in_used != n - hdr - trl)
			VFAIL("%s: deflate data ends %zu bytes before the trailer\n", desc,
			      n - hdr - trl - rs->in_used);
		if (rs->max_dist > (1u << wb))
			VFAIL("%s: a match reaches back %u bytes, beyond the 2^%d window\n", desc,
			      rs->max_dist, wb);
		free(ro);
	}
	free(out);
	free(wrapped);
	n_checked_streams++;
	if (bad) {
		/* STOA_DEFLATE_DUMP=dir keeps the input and the stream for a bug report. */
		const char *dir = getenv("STOA_DEFLATE_DUMP");
		if (dir && *dir) {
			char path[600];
			snprintf(path, sizeof(path), "%s/deflate_fail_%u.in", dir,
			         n_checked_streams);
			FILE *f = fopen(path, "wb");
			if (f) {
				fwrite(data, 1, len, f);
				fclose(f);
			}
			snprintf(path, sizeof(path), "%s/deflate_fail_%u.out", dir,
			         n_checked_streams);
			f = fopen(path, "wb");
			if (f) {
				fwrite(c->buf, 1, c->len, f);
				fclose(f);
			}
			print_error("input and stream written to %s/deflate_fail_%u.{in,out}\n",
			            dir, n_checked_streams);
		}
		fail();
	}
}

/* Compress with p, expect success, verify; returns the compressed size. */
size_t roundtrip(const char *what, const struct dparams *p, const uint8_t *data, size_t len,
                 struct ref_stats *st)
{
	struct compressed c;
	int ret = deflate_run(p, data, len, &c);
	if (ret != COMP_OK) {
		char desc[512];
		describe(desc, sizeof(desc), what, p, len);
		TEST_FAIL("%s: isal_deflate%s returned %d\n", desc,
		          p->stateless ? "_stateless" : "", ret);
	}
	verify(what, p, data, len, &c, st);
	size_t n = c.len;
	compressed_free(&c);
	return n;
}

int deflate_suite_setup(void **state)
{
	(void)state;
	test_seed();
	load_corpus();
	printf("%zu data files from %s\n", n_files, corpus_root);
	return 0;
}

int deflate_suite_teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_files; i++)
		free(files[i].data);
	printf("%u streams decoded and checked in all\n", n_checked_streams);
	return 0;
}
