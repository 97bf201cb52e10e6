/* igzip's decompression: gzip member headers, inflating members one after another, the
 * trailing-data rule, and the listing (-l). */
#include "igzip.h"

/* Parse a member header (the magic already checked by the caller, not consumed). */
static enum hdr_status read_member_header(struct reader *r, struct gz_member *m, const char **why)
{
	uint8_t fixed[GZ_FIXED_HDR];
	uint32_t hcrc;
	int c, flags;

	for (int i = 0; i < GZ_FIXED_HDR; i++) {
		if ((c = reader_byte(r)) < 0)
			return HDR_TRUNCATED;
		fixed[i] = (uint8_t)c;
	}
	hcrc = crc32_gzip_refl(0, fixed, GZ_FIXED_HDR);
	flags = fixed[3];
	if (fixed[2] != GZ_CM_DEFLATE) {
		*why = "unknown compression method";
		return HDR_BAD;
	}
	if (flags & GZ_FRESERVED) {
		*why = "has reserved flags set -- not supported";
		return HDR_BAD;
	}
	m->mtime = (uint32_t)fixed[4] | (uint32_t)fixed[5] << 8 | (uint32_t)fixed[6] << 16 |
	           (uint32_t)fixed[7] << 24;
	m->has_name = 0;
	m->name[0] = 0;
	if (flags & GZ_FEXTRA) {
		uint8_t xlen[2];
		uint32_t len;
		for (int i = 0; i < 2; i++) {
			if ((c = reader_byte(r)) < 0)
				return HDR_TRUNCATED;
			xlen[i] = (uint8_t)c;
		}
		hcrc = crc32_gzip_refl(hcrc, xlen, 2);
		len = (uint32_t)xlen[0] | (uint32_t)xlen[1] << 8;
		while (len--) {
			uint8_t b;
			if ((c = reader_byte(r)) < 0)
				return HDR_TRUNCATED;
			b = (uint8_t)c;
			hcrc = crc32_gzip_refl(hcrc, &b, 1);
		}
	}
	for (int field = GZ_FNAME; field <= GZ_FCOMMENT; field <<= 1) {
		size_t n = 0;
		if (!(flags & field))
			continue;
		do {
			uint8_t b;
			if ((c = reader_byte(r)) < 0)
				return HDR_TRUNCATED;
			b = (uint8_t)c;
			hcrc = crc32_gzip_refl(hcrc, &b, 1);
			if (field == GZ_FNAME && n + 1 < sizeof(m->name))
				m->name[n++] = (char)b;
		} while (c != 0);
		if (field == GZ_FNAME) {
			m->name[n] = 0;
			m->has_name = 1;
		}
	}
	if (flags & GZ_FHCRC) {
		int lo, hi;
		if ((lo = reader_byte(r)) < 0 || (hi = reader_byte(r)) < 0)
			return HDR_TRUNCATED;
		if ((uint32_t)(lo | hi << 8) != (hcrc & 0xffff)) {
			*why = "header checksum error";
			return HDR_BAD;
		}
	}
	return HDR_OK;
}

/* A member's header read, or why not said under the reader's label: 0 when it was read. */
static int next_member_header(struct reader *r, struct gz_member *m)
{
	const char *why = NULL;
	switch (read_member_header(r, m, &why)) {
	case HDR_OK:
		return 0;
	case HDR_TRUNCATED:
		if (!r->failed)
			error_msg(r->label, "unexpected end of file");
		return -1;
	case HDR_BAD:
		error_msg(r->label, "%s", why);
		return -1;
	}
	return -1;
}

static int is_gzip_magic(struct reader *r)
{
	return reader_peek(r, 2) >= 2 && r->buf[r->pos] == GZ_ID1 && r->buf[r->pos + 1] == GZ_ID2;
}

/* Decode one member body and trailer. Returns 0, or -1 after reporting the error. */
static int inflate_member(struct reader *r, struct inflate_state *st, uint8_t *outbuf,
                          struct out_file *out, struct progress *pg)
{
	int stalls = 0;
	isal_inflate_reset(st);
	st->crc_flag = ISAL_GZIP_NO_HDR_VER;
	for (;;) {
		size_t used, produced;
		int ret;
		if (r->pos == r->len && !r->eof && reader_fill(r) < 0)
			return -1;
		st->next_in = r->buf + r->pos;
		/* (A mapped input may hold more than avail_in can say.) */
		st->avail_in =
		    (uint32_t)(r->len - r->pos < (1u << 30) ? r->len - r->pos : 1u << 30);
		st->next_out = outbuf;
		st->avail_out = IO_CHUNK;
		ret = isal_inflate(st);
		used = (size_t)(st->next_in - (r->buf + r->pos));
		if (used > r->len - r->pos) {
			error_msg(r->label, "decompression failed (input pointer out of range)");
			return -1;
		}
		r->pos += used;
		produced = IO_CHUNK - st->avail_out;
		if (produced && out_write(out, outbuf, produced))
			return -1;
		if (ret == ISAL_INCORRECT_CHECKSUM) {
			error_msg(r->label, "invalid compressed data--crc or length error");
			return -1;
		}
		if (ret < 0) {
			error_msg(r->label, "invalid compressed data--format violated");
			return -1;
		}
		if (st->block_state == ISAL_BLOCK_FINISH)
			return 0;
		progress_update(pg, r->consumed + r->pos);
		if (used || produced) {
			stalls = 0;
			continue;
		}
		/* Nothing consumed nor produced: the decoder waits for input that is not there. */
		if (r->eof) {
			error_msg(r->label, "unexpected end of file");
			return -1;
		}
		/* Give it more input behind what it left; a decoder that still does not move is
		 * broken, not waiting. */
		if (reader_fill(r) < 0)
			return -1;
		if (++stalls > 2) {
			error_msg(r->label, "invalid compressed data--format violated");
			return -1;
		}
	}
}

/* After the last member: zeros are padding (tape and block devices add them); anything else is
 * reported like gzip does. Returns 0 for clean, 1 for garbage. */
static int check_trailing(struct reader *r)
{
	for (;;) {
		while (r->pos < r->len) {
			if (r->buf[r->pos] != 0)
				return 1;
			r->pos++;
		}
		if (r->eof || reader_fill(r) <= 0)
			return 0;
	}
}

/* Copy the rest of the input unchanged (-c -f on data that is not gzip, like gzip). */
static int pass_through(struct reader *r, struct out_file *out)
{
	for (;;) {
		if (out_write(out, r->buf + r->pos, r->len - r->pos))
			return -1;
		r->pos = r->len;
		if (r->eof)
			return 0;
		if (reader_fill(r) < 0)
			return -1;
	}
}

/* Every member from the one whose header was just read (into *m) to the end of the input,
 * decoded into out; trailing zeros are padding, anything else after a member is warned about.
 * Returns 0 or -1 after an error message; *members counts the members decoded. */
static int inflate_members(struct reader *rd, struct gz_member *m, struct out_file *out,
                           struct progress *pg, uint64_t *members)
{
	uint8_t *outbuf = malloc(IO_CHUNK);
	struct inflate_state *st = malloc(sizeof(*st));
	int rc = -1;

	if (!outbuf || !st) {
		error_msg(rd->label, "out of memory");
		goto done;
	}
	isal_inflate_init(st);
	for (;;) {
		if (inflate_member(rd, st, outbuf, out, pg))
			goto done;
		++*members;
		if (reader_peek(rd, 1) == 0)
			break;
		if (!is_gzip_magic(rd)) {
			if (rd->failed)
				goto done;
			if (check_trailing(rd)) {
				if (rd->failed)
					goto done;
				warn_msg(rd->label, "decompression OK, trailing garbage ignored");
			}
			break;
		}
		if (next_member_header(rd, m))
			goto done;
	}
	rc = rd->failed ? -1 : 0;
done:
	free(outbuf);
	free(st);
	return rc;
}

/* The input's first member header, or an error said: not gzip, or cut short. */
static int first_member_header(struct reader *rd, struct gz_member *m)
{
	if (!is_gzip_magic(rd)) {
		if (rd->failed)
			return -1;
		if (rd->len - rd->pos < 2)
			error_msg(rd->label, "unexpected end of file");
		else
			error_msg(rd->label, "not in gzip format");
		return -1;
	}
	return next_member_header(rd, m);
}

void decompress_file(const char *path)
{
	struct in_file in;
	struct out_file out;
	struct reader rd;
	struct gz_member m;
	struct progress pg;
	char final[PATH_MAX];
	uint64_t members = 0;
	int to_file = 0, failed = 1;

	if (open_input(path, &in))
		return;
	memset(&rd, 0, sizeof(rd));
	memset(&m, 0, sizeof(m));
	memset(&out, 0, sizeof(out));
	out.fd = -1;

	if (opt.mode == MODE_TEST) {
		out_init_discard(&out);
	} else if (writes_to_stdout(&in)) {
		out_init_stdout(&out);
	} else if (opt.out_name) {
		if (copy_name(final, sizeof(final), opt.out_name)) {
			close_input(&in);
			return;
		}
		to_file = 1;
	} else if (!strip_suffix(in.path, final, sizeof(final))) {
		if (!in_walk || opt.verbose)
			warn_msg(in.path, "unknown suffix -- ignored");
		close_input(&in);
		return;
	} else {
		to_file = 1;
	}
	if (in.is_stdin && isatty(STDIN_FILENO) && !opt.force) {
		error_msg(NULL, "compressed data not read from a terminal. Use -f to force "
		                "decompression.");
		close_input(&in);
		return;
	}

	if (reader_open(&rd, &in))
		goto done;
	if (!is_gzip_magic(&rd) && !rd.failed && opt.mode == MODE_DECOMPRESS && opt.force &&
	    writes_to_stdout(&in)) {
		failed = pass_through(&rd, &out) != 0;
		goto done;
	}
	if (first_member_header(&rd, &m))
		goto done;

	if (to_file) {
		if (opt.save_name > 0 && !opt.out_name && m.has_name) {
			/* Only the last path component of the stored name, in the input's
			 * directory. */
			const char *stored = base_name(m.name);
			const char *slash = in.path ? strrchr(in.path, '/') : NULL;
			int dir_len = slash ? (int)(slash - in.path) + 1 : 0;
			size_t slen = strlen(stored);
			if (stored[0] && strcmp(stored, ".") && strcmp(stored, "..") &&
			    (size_t)dir_len + slen < sizeof(final)) {
				memcpy(final, in.path, (size_t)dir_len);
				memcpy(final + dir_len, stored, slen + 1);
			}
		}
		if (out_open(&out, final, &in) != 0)
			goto done_no_out;
	}

	progress_start(&pg, in.label, S_ISREG(in.st.st_mode) ? (uint64_t)in.st.st_size : 0);
	failed = inflate_members(&rd, &m, &out, &pg, &members) != 0;

done:
	clear_progress();
	if (failed) {
		out_abort(&out);
	} else if (to_file) {
		/* The first member's mtime is restored with -N, as gzip does. */
		failed = out_commit(&out, &in, opt.save_name > 0 ? m.mtime : 0) != 0;
	}
done_no_out:
	close_input(&in);
	reader_close(&rd);
	if (failed)
		return;
	if (opt.verbose && !opt.quiet) {
		uint64_t csize = rd.consumed + rd.pos;
		if (opt.mode == MODE_TEST)
			fprintf(stderr, "%s:\t OK\n", in.label);
		else
			fprintf(stderr, "%s:\t%5.1f%% -- %s %s\n", in.label,
			        ratio_percent(csize, out.bytes),
			        to_file ? (opt.remove_input ? "replaced with" : "created")
			                : "written to",
			        to_file ? out.final : "stdout");
	}
	if (members)
		remove_input(&in);
}

/* -lv's first columns, as gzip prints them: the method, the CRC-32 of the file's trailer (the
 * last member's; dashes when the input is not a regular file) and the first member's time. */
static void list_verbose_columns(const struct in_file *in, const struct gz_member *first)
{
	uint8_t t[4];
	char when[32] = "";
	const time_t mtime = (time_t)first->mtime;
	struct tm tm;
	if (S_ISREG(in->st.st_mode) && in->st.st_size >= GZ_TRAILER &&
	    pread(in->fd, t, 4, in->st.st_size - GZ_TRAILER) == 4)
		printf("defla %08x ",
		       (unsigned)(t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24));
	else
		printf("defla -------- ");
	if (localtime_r(&mtime, &tm))
		strftime(when, sizeof(when), "%b %e %H:%M", &tm);
	printf("%-12s ", when);
}

/* -l: the sizes come from decoding every member, as gzip 1.12 does, because a member's ISIZE
 * holds its length modulo 2^32 only. */
void list_file(const char *path, struct list_totals *tot)
{
	struct in_file in;
	struct out_file out;
	struct reader rd;
	struct gz_member m, first;
	struct progress pg;
	char shown[PATH_MAX];
	uint64_t csize, members = 0;

	if (open_input(path, &in))
		return;
	memset(&rd, 0, sizeof(rd));
	out_init_discard(&out);
	if (reader_open(&rd, &in) || first_member_header(&rd, &m))
		goto done;
	first = m;
	progress_start(&pg, in.label, S_ISREG(in.st.st_mode) ? (uint64_t)in.st.st_size : 0);
	if (inflate_members(&rd, &m, &out, &pg, &members))
		goto done;
	clear_progress();
	/* What follows the last member counts too, as the file's size does. */
	while (!rd.eof) {
		rd.pos = rd.len;
		if (reader_fill(&rd) < 0)
			goto done;
	}
	csize = S_ISREG(in.st.st_mode) ? (uint64_t)in.st.st_size : rd.consumed + rd.len;
	if (opt.save_name > 0 && first.has_name)
		snprintf(shown, sizeof(shown), "%s", first.name);
	else if (in.is_stdin)
		snprintf(shown, sizeof(shown), "stdout");
	else if (!strip_suffix(in.path, shown, sizeof(shown)))
		snprintf(shown, sizeof(shown), "%s", in.path);
	if (tot->files == 0)
		printf("%s%19s %19s %6s %s\n", opt.verbose ? "method  crc     date  time  " : "",
		       "compressed", "uncompressed", "ratio", "uncompressed_name");
	if (opt.verbose)
		list_verbose_columns(&in, &first);
	printf("%19llu %19llu %5.1f%% %s\n", (unsigned long long)csize,
	       (unsigned long long)out.bytes, ratio_percent(csize, out.bytes), shown);
	tot->compressed += csize;
	tot->uncompressed += out.bytes;
	tot->files++;
done:
	clear_progress();
	reader_close(&rd);
	close_input(&in);
}
