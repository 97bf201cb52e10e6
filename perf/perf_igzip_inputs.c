/* The igzip cases' inputs, found when the program starts: the corpus directory (calgary/ and
 * canterbury/ under it) is STOA_CORPUS, else the default the Makefile compiles in (../shared/corpus
 * beside the repository); a file slot or corpus that is absent leaves its cases with no sizes, so
 * they print no rows. The mix is
 * generated from the corpora's text (or from words, without them), random bytes and runs; the
 * runs input from byte runs alone. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perf_igzip.h"

#ifndef STOA_CORPUS_DEFAULT
#define STOA_CORPUS_DEFAULT "../shared/corpus"
#endif

static const char *const corpus_names[NCORPORA] = { "calgary", "canterbury" };
struct input inputs[NINPUTS];
static char corpus_dir[1024];

/* Deterministic data. */

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int read_file(const char *path, uint8_t *dst, size_t len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t got = fread(dst, 1, len, f);
	fclose(f);
	return got == len ? 0 : -1;
}

/* The concatenation of a corpus's files in name order, as cat of the directory gives it. */
static int read_concatenation(int corpus, uint8_t *dst)
{
	size_t at = 0;
	for (int s = 0; s < SLOTS; s++) {
		const struct input *in = &inputs[corpus * SLOTS + s];
		if (!in->len)
			continue;
		if (read_file(in->path, dst + at, in->len))
			return -1;
		at += in->len;
	}
	return 0;
}

/* Text for the mix: both corpora back to back, or generated words when they are absent. */
static uint8_t *mix_text(size_t *len)
{
	size_t n = inputs[IN_CAT0].len + inputs[IN_CAT0 + 1].len;
	uint8_t *t;
	if (n) {
		t = malloc(n);
		if (t && !read_concatenation(0, t) &&
		    !read_concatenation(1, t + inputs[IN_CAT0].len)) {
			*len = n;
			return t;
		}
		free(t);
	}
	static const char *const words[] = { "the ",    "of ",     "and ",     "storage ",
		                             "parity ", "block ",  "deflate ", "entropy ",
		                             "cache ",  "stream ", "a ",       "to ",
		                             "in ",     "data ",   ".\n" };
	n = 4 * MIB;
	t = malloc(n);
	if (!t)
		return NULL;
	uint64_t s = 7;
	for (size_t at = 0; at < n;) {
		const char *w = words[next_rand(&s) % (sizeof(words) / sizeof(words[0]))];
		for (; *w && at < n; w++)
			t[at++] = (uint8_t)*w;
	}
	*len = n;
	return t;
}

/* The mix: segments of 16 KiB to 528 KiB, 60% corpus text from a random offset, 15% random
 * bytes, 25% runs of one byte (1 to 256 long), in a fixed pseudo-random order. */
int make_mix(uint8_t *dst, size_t n)
{
	size_t tlen;
	uint8_t *text = mix_text(&tlen);
	if (!text)
		return -1;
	uint64_t s = 0x5eed;
	for (size_t at = 0; at < n;) {
		uint64_t r = next_rand(&s);
		size_t seg = 16 * KIB + (size_t)(r % (512 * KIB));
		if (seg > n - at)
			seg = n - at;
		unsigned kind = (unsigned)((r >> 40) % 20);
		if (kind < 12) {
			size_t from = (size_t)(next_rand(&s) % tlen);
			for (size_t k = 0; k < seg;) {
				size_t piece = tlen - from < seg - k ? tlen - from : seg - k;
				memcpy(dst + at + k, text + from, piece);
				k += piece;
				from = 0;
			}
		} else if (kind < 15) {
			for (size_t k = 0; k < seg; k += 8) {
				uint64_t v = next_rand(&s);
				memcpy(dst + at + k, &v, seg - k < 8 ? seg - k : 8);
			}
		} else {
			for (size_t k = 0; k < seg;) {
				uint64_t v = next_rand(&s);
				size_t run = 1 + (size_t)((v >> 8) & 0xff);
				if (run > seg - k)
					run = seg - k;
				memset(dst + at + k, (int)(v & 0xff), run);
				k += run;
			}
		}
		at += seg;
	}
	free(text);
	return 0;
}

void make_runs(uint8_t *dst, size_t n)
{
	uint64_t s = 0x52554e53; /* fixed: the same bytes in every run */
	for (size_t at = 0; at < n;) {
		const uint64_t r = next_rand(&s);
		size_t run = 50 + (size_t)((r >> 8) % 4951);
		if (run > n - at)
			run = n - at;
		memset(dst + at, (int)(r & 0xff), run);
		at += run;
	}
}

/* An input cut or repeated to size bytes; NULL when it cannot be read. */
uint8_t *load_input(int idx, size_t size)
{
	const struct input *in = &inputs[idx];
	size_t len = in->len;
	uint8_t *buf = malloc(size > len ? size : len);
	if (!buf)
		return NULL;
	int bad;
	if (idx == IN_MIX)
		bad = make_mix(buf, len);
	else if (idx == IN_RUNS)
		make_runs(buf, len), bad = 0;
	else if (idx >= IN_CAT0)
		bad = read_concatenation(idx - IN_CAT0, buf);
	else
		bad = read_file(in->path, buf, len);
	if (bad) {
		free(buf);
		return NULL;
	}
	for (size_t at = len; at < size; at += len)
		memcpy(buf + at, buf, size - at < len ? size - at : len);
	return buf;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void scan_corpus(int corpus)
{
	char dir[1100], *names[256];
	size_t n = 0, total = 0;
	snprintf(dir, sizeof(dir), "%s/%s", corpus_dir, corpus_names[corpus]);
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d)) && n < 256;) {
		if (e->d_name[0] == '.')
			continue;
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_name);
	int slot = 0;
	for (size_t i = 0; i < n; i++) {
		struct input *in = &inputs[corpus * SLOTS + slot];
		struct stat sb;
		snprintf(in->path, sizeof(in->path), "%s/%s", dir, names[i]);
		if (slot < SLOTS && stat(in->path, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    sb.st_size > 0 && !strpbrk(names[i], ", \"\n")) {
			snprintf(in->name, sizeof(in->name), "%s/%s", corpus_names[corpus],
			         names[i]);
			in->len = (size_t)sb.st_size;
			total += in->len;
			slot++;
		} else if (slot == SLOTS) {
			fprintf(stderr, "stoa_perf: %s: more than %d files, %s left out\n", dir,
			        SLOTS, names[i]);
		}
		free(names[i]);
	}
	struct input *cat = &inputs[IN_CAT0 + corpus];
	snprintf(cat->name, sizeof(cat->name), "%s.cat", corpus_names[corpus]);
	cat->len = total;
}

/* STOA_PERF_MIX_OUT=FILE: write the mix for the command benchmark. */
static void write_mix(const char *path)
{
	uint8_t *buf = malloc(MIX_LEN);
	FILE *f = buf ? fopen(path, "wb") : NULL;
	int bad = !f || make_mix(buf, MIX_LEN) || fwrite(buf, 1, MIX_LEN, f) != MIX_LEN;
	if (f && fclose(f))
		bad = 1;
	free(buf);
	if (bad) {
		fprintf(stderr, "stoa_perf: cannot write the mix to %s\n", path);
		exit(2);
	}
}

void find_inputs(void)
{
	const char *dir = getenv("STOA_CORPUS");
	snprintf(corpus_dir, sizeof(corpus_dir), "%s", dir && *dir ? dir : STOA_CORPUS_DEFAULT);
	for (int c = 0; c < NCORPORA; c++)
		scan_corpus(c);
	snprintf(inputs[IN_MIX].name, sizeof(inputs[IN_MIX].name), "mix");
	inputs[IN_MIX].len = MIX_LEN;
	snprintf(inputs[IN_RUNS].name, sizeof(inputs[IN_RUNS].name), "runs");
	inputs[IN_RUNS].len = RUNS_LEN;

	const char *mix = getenv("STOA_PERF_IGZIP_MIX");
	int skip_mix = mix && strcmp(mix, "skip") == 0, only_mix = mix && strcmp(mix, "only") == 0;
	for (int i = 0; i < NINPUTS; i++) {
		struct input *in = &inputs[i];
		int wanted = i == IN_MIX ? !skip_mix : !only_mix;
		in->sizes[0] = wanted ? in->len : 0;
		in->sizes[1] = 0;
		if (!in->name[0])
			snprintf(in->name, sizeof(in->name), "%s/absent-%d",
			         corpus_names[i / SLOTS], i % SLOTS);
	}

	const char *out = getenv("STOA_PERF_MIX_OUT");
	if (out && *out)
		write_mix(out);
}
