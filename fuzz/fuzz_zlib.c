/* libFuzzer target: stoa's zlib layer (linked in) against the system's zlib (tests/zlib_peer,
 * a process of its own: the names clash), on scripts of zlib calls (tests/zlib_script.h: init
 * variants, flushes with output in pieces, deflateParams, deflatePrime and deflateCopy
 * mid-stream, dictionaries).
 *
 * The input is a deflate script. Both libraries run it; then:
 *  - they agree whether deflateInit2 takes the parameters, and neither breaks zlib's contract
 *    where zlib keeps it;
 *  - zlib inflates stoa's stream to the data fed, and so does stoa;
 *  - stoa inflates zlib's stream to the data fed, with input and output in pieces and a flush
 *    mode chosen from the input, ending with zlib's counters, check value and unused input, and
 *    with Z_BLOCK or Z_TREES on whole buffers stopping where zlib stops;
 *  - the input itself as a stream (raw, zlib, gzip or detected): stoa ends with zlib's result,
 *    and with zlib's output when zlib finishes.
 * A disagreement traps. The reference process is zlib_peer beside this program. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/zlib_peer.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct zs_peer peer;

/* FNV-1a of the input: the choices of options beside the script. */
static uint64_t input_hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	char path[PATH_MAX + 16], self[PATH_MAX];
	const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		abort();
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/zlib_peer", self);
	(void)argv;
	if (zs_peer_start(&peer, path)) {
		fprintf(stderr, "fuzz_zlib: cannot start %s\n", path);
		abort();
	}
	return 0;
}

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_zlib: %s\n", what);
		__builtin_trap();
	}
}

static void same(const struct zs_buf *a, const struct zs_buf *b, const char *what)
{
	check(a->len == b->len && (!a->len || !memcmp(a->p, b->p, a->len)), what);
}

/* Options for inflating a stream written with window_bits, picked by h. */
static struct zs_inflate_opts pick_opts(uint64_t h, int window_bits, const struct zs_buf *dict)
{
	static const int flushes[] = { Z_NO_FLUSH, Z_SYNC_FLUSH, Z_FINISH, Z_BLOCK, Z_TREES };
	struct zs_inflate_opts o;
	memset(&o, 0, sizeof(o));
	o.window_bits = window_bits;
	if (window_bits > 0 && (h & 3) == 1)
		o.window_bits = (window_bits & 15) + 32; /* detect the wrapper */
	o.flush = flushes[(h >> 2) % 5];
	o.in_piece = (h >> 5) & 1 ? (unsigned)(1 + (h >> 8) % 300) : 0;
	o.out_piece = (h >> 6) & 1 ? (unsigned)(1 + (h >> 20) % 3000) : 0;
	o.dict = dict->p;
	o.dict_len = dict->len;
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	uint64_t h = input_hash(data, size);
	struct zs_deflate_result mine, ref;
	zs_run_deflate(data, size, &mine);
	check(zs_peer_deflate(&peer, data, size, &ref) == 0, "the reference zlib failed");
	check(mine.init_rc == ref.init_rc, "deflateInit2 results differ");
	if (mine.init_rc == Z_OK) {
		check(ref.failed || !mine.failed, mine.why);
		same(&mine.data, &ref.data, "the data fed differs");
		struct zs_inflate_result r, z;
		/* stoa's stream: zlib and stoa inflate it. */
		struct zs_inflate_opts o = pick_opts(h, mine.window_bits, &mine.dict);
		check(zs_peer_inflate(&peer, &o, mine.stream.p, mine.stream.len, &r) == 0,
		      "the reference zlib failed inflating");
		check(r.rc == Z_STREAM_END, "zlib does not inflate stoa's stream");
		same(&r.out, &mine.data, "zlib inflates stoa's stream to other data");
		zs_inflate_free(&r);
		zs_run_inflate(mine.stream.p, mine.stream.len, &o, &r);
		check(r.rc == Z_STREAM_END, "stoa does not inflate its own stream");
		same(&r.out, &mine.data, "stoa inflates its own stream to other data");
		zs_inflate_free(&r);
		/* zlib's stream: stoa inflates it and ends as zlib does. */
		if (!ref.failed) {
			o = pick_opts(h >> 32, ref.window_bits, &ref.dict);
			zs_run_inflate(ref.stream.p, ref.stream.len, &o, &r);
			check(zs_peer_inflate(&peer, &o, ref.stream.p, ref.stream.len, &z) == 0,
			      "the reference zlib failed inflating");
			check(r.rc == Z_STREAM_END, "stoa does not inflate zlib's stream");
			same(&r.out, &ref.data, "stoa inflates zlib's stream to other data");
			check(r.total_in == z.total_in && r.total_out == z.total_out &&
			          r.adler == z.adler && r.avail_in_left == z.avail_in_left,
			      "stoa ends zlib's stream elsewhere than zlib");
			same(&r.calls, &z.calls, "Z_BLOCK/Z_TREES stops differ from zlib's");
			zs_inflate_free(&r);
			zs_inflate_free(&z);
		}
	}
	zs_deflate_free(&mine);
	zs_deflate_free(&ref);

	/* The input as a stream. */
	static const int forms[] = { -15, 15, 31, 47 };
	const struct zs_buf none = { 0 };
	struct zs_inflate_opts o = pick_opts(h >> 16, forms[h % 4], &none);
	if (o.flush == Z_BLOCK || o.flush == Z_TREES)
		o.in_piece = o.out_piece = 0; /* (stops are comparable on whole buffers) */
	struct zs_inflate_result r, z;
	zs_run_inflate(data, size, &o, &r);
	check(zs_peer_inflate(&peer, &o, data, size, &z) == 0,
	      "the reference zlib failed inflating");
	check(r.rc == z.rc, "stoa's inflate result differs from zlib's on the input");
	if (z.rc == Z_STREAM_END)
		same(&r.out, &z.out, "stoa inflates the input to other data than zlib");
	zs_inflate_free(&r);
	zs_inflate_free(&z);
	return 0;
}
