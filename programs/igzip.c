/* igzip: a gzip-compatible command-line compressor built on the ISA-L deflate API.
 *
 * The program only uses the public API (<isa-l/igzip_lib.h>, <isa-l/crc.h>), so it builds against
 * stoa or against any ISA-L. The gzip wrapper (RFC 1952) is written and parsed here; the library
 * sees raw deflate when compressing and a headerless member with a checked trailer
 * (ISAL_GZIP_NO_HDR_VER) when decompressing.
 *
 * Files are never written in place: output goes to a temporary file in the destination directory,
 * which is renamed over the final name only once everything succeeded; SIGINT, SIGTERM and SIGHUP
 * remove it. With -T N (N > 1) the input is cut into blocks compressed on N threads, each block
 * primed with the 32 KiB of input before it and ended with a sync flush, so the blocks concatenate
 * into one deflate stream; the CRC-32 of each block is computed by its worker and combined in
 * order by the writer.
 *
 * A regular input file is mapped rather than read: read(2) copies every byte once more (on this
 * kind of machine 2 MiB reads run near 2-3 GB/s, a fifth of level 0's time), and with -T N the
 * workers then take their blocks and the 32 KiB before them straight from the mapping, so the
 * main thread only writes. A mapped file is cut into the same blocks with one thread, coded one
 * after another, so its output does not depend on N. Should the file shrink while it is mapped,
 * the SIGBUS that follows removes the temporary output and exits with an error. Pipes,
 * terminals and empty files are read, and with one thread go through one stream. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

#ifndef IGZIP_VERSION
#define IGZIP_VERSION "unknown"
#endif

/* RFC 1952 section 2.3: member header fields. */
#define GZ_ID1 0x1f
#define GZ_ID2 0x8b
#define GZ_CM_DEFLATE 8
#define GZ_FHCRC 0x02
#define GZ_FEXTRA 0x04
#define GZ_FNAME 0x08
#define GZ_FCOMMENT 0x10
#define GZ_FRESERVED 0xe0
#define GZ_XFL_FASTEST 4
#define GZ_OS_UNIX 3
#define GZ_FIXED_HDR 10
#define GZ_TRAILER 8

#define IO_CHUNK (1u << 20)             /* read and write size of the streaming paths */
#ifndef MT_BLOCK
#define MT_BLOCK (2u << 20) /* input per parallel job */
#endif
#define MT_DICT ISAL_DEF_HIST_SIZE      /* history each job is primed with */
#define MT_TAIL (2 * MT_BLOCK)          /* a mapped input's last bytes go in quarter blocks */
#define MT_MAX_THREADS 256
#define STORED_NAME_MAX 4096            /* longest FNAME kept when decompressing */
#define DEFAULT_SUFFIX ".gz"

enum mode { MODE_COMPRESS, MODE_DECOMPRESS, MODE_TEST, MODE_LIST };

struct options {
	enum mode mode;
	int to_stdout;
	int force;
	int remove_input; /* --rm; the default is to keep the input, like ISA-L's igzip */
	int verbose;
	int quiet;
	int save_name; /* -N / -n; -1 until decided by the mode */
	int level;
	int threads;
	int recursive; /* -r: descend into directories */
	const char *out_name;
	const char *suffix;
};

static struct options opt = {
	.mode = MODE_COMPRESS, .save_name = -1, .level = 1, .threads = 1, .suffix = DEFAULT_SUFFIX,
};

static int exit_code;     /* 0, 2 after a warning, 1 after an error */
static int in_walk;       /* the current file was found by -r, not named on the command line */
static mode_t new_file_mode; /* 0666 less the umask, for outputs that have no input file */
static int progress_shown;

/* ---- messages ------------------------------------------------------------------------------- */

static void clear_progress(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

static void vmessage(const char *file, const char *fmt, va_list ap)
{
	clear_progress();
	fputs("igzip: ", stderr);
	if (file)
		fprintf(stderr, "%s: ", file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

__attribute__((format(printf, 2, 3))) static void error_msg(const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(file, fmt, ap);
	va_end(ap);
	exit_code = 1;
}

__attribute__((format(printf, 2, 3))) static void warn_msg(const char *file, const char *fmt, ...)
{
	va_list ap;
	if (exit_code == 0)
		exit_code = 2;
	if (opt.quiet)
		return;
	va_start(ap, fmt);
	vmessage(file, fmt, ap);
	va_end(ap);
}

/* ---- progress line (stderr is a terminal and -v) -------------------------------------------- */

struct progress {
	int enabled;
	const char *label;
	uint64_t total; /* input size, 0 when unknown */
	double start, last;
};

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress_start(struct progress *p, const char *label, uint64_t total)
{
	p->enabled = opt.verbose && !opt.quiet && isatty(STDERR_FILENO);
	p->label = label;
	p->total = total;
	p->start = p->last = p->enabled ? now_seconds() : 0.0;
}

static void progress_update(struct progress *p, uint64_t done)
{
	double t, rate;
	if (!p->enabled)
		return;
	t = now_seconds();
	if (t - p->last < 0.25)
		return;
	p->last = t;
	rate = (double)done / (t - p->start) / (1024.0 * 1024.0);
	if (p->total)
		fprintf(stderr, "\r\033[K%s: %3.0f%% %.1f MiB/s", p->label,
			100.0 * (double)done / (double)p->total, rate);
	else
		fprintf(stderr, "\r\033[K%s: %.1f MiB %.1f MiB/s", p->label,
			(double)done / (1024.0 * 1024.0), rate);
	progress_shown = 1;
}

/* ---- the temporary output file and the signal handler that removes it ---------------------- */

static char sig_tmp_path[PATH_MAX];
static volatile sig_atomic_t sig_tmp_live;
static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* A mapped input that shrank under us: the bytes are gone, so is the output. (SIGBUS is a
 * fault of the thread that touched the page, so it is never blocked, unlike the ones above.) */
static void on_sigbus(int sig)
{
	static const char msg[] = "igzip: input file changed size while being read\n";
	(void)sig;
	if (sig_tmp_live)
		unlink(sig_tmp_path);
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to do */
	}
	_exit(1);
}

static void on_fatal_signal(int sig)
{
	if (sig_tmp_live)
		unlink(sig_tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signal_handlers(void)
{
	for (size_t i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++) {
		struct sigaction sa, old;
		if (sigaction(caught_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue; /* keep ignoring what nohup and friends asked us to ignore */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(caught_signals[i], &sa, NULL);
	}
	struct sigaction bus;
	memset(&bus, 0, sizeof(bus));
	bus.sa_handler = on_sigbus;
	sigemptyset(&bus.sa_mask);
	sigaction(SIGBUS, &bus, NULL);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++)
		sigaddset(&set, caught_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* ---- plain I/O ---------------------------------------------------------------------------- */

/* Read until n bytes or end of file; returns the count or -1 (errno set). */
static ssize_t read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (uint8_t *)buf + got, n - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static int write_full(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* ---- input and output files --------------------------------------------------------------- */

struct in_file {
	int fd;
	int is_stdin;
	const char *path;  /* NULL for standard input */
	const char *label; /* for messages */
	struct stat st;
	const uint8_t *map; /* a regular file's bytes from its offset on, or NULL: read(2) it */
	size_t map_len;     /* how many */
	size_t map_pos;     /* how many were handed out (in_next) */
	void *map_addr;     /* the mapping itself, from the page the offset is in */
	size_t map_size;
};

/* Map a regular, non-empty input from its current offset (stdin may have been read from). On any
 * failure the input is simply read. */
static void in_map(struct in_file *in)
{
	const long page = sysconf(_SC_PAGESIZE);
	off_t off;
	if (!S_ISREG(in->st.st_mode) || in->st.st_size <= 0 || page <= 0 ||
	    (uint64_t)in->st.st_size > SIZE_MAX / 2)
		return;
	off = lseek(in->fd, 0, SEEK_CUR);
	if (off < 0 || off >= in->st.st_size)
		return;
	const off_t start = off - off % page;
	const size_t size = (size_t)(in->st.st_size - start);
	void *addr = mmap(NULL, size, PROT_READ, MAP_PRIVATE, in->fd, start);
	if (addr == MAP_FAILED)
		return;
	in->map_addr = addr;
	in->map_size = size;
	in->map = (const uint8_t *)addr + (off - start);
	in->map_len = (size_t)(in->st.st_size - off);
	in->map_pos = 0;
}

static void in_unmap(struct in_file *in)
{
	if (!in->map)
		return;
	munmap(in->map_addr, in->map_size);
	/* Leave a shared descriptor (stdin) where reading it to the end would have. */
	if (in->is_stdin)
		lseek(in->fd, in->st.st_size, SEEK_SET);
	in->map = NULL;
}

/* The next piece of input, at most cap bytes: from the mapping, or read into buf. Returns its
 * length (less than cap only at the end of the input) or -1 with errno set. */
static ssize_t in_next(struct in_file *in, uint8_t *buf, size_t cap, const uint8_t **piece)
{
	if (in->map) {
		size_t n = in->map_len - in->map_pos;
		if (n > cap)
			n = cap;
		*piece = in->map + in->map_pos;
		in->map_pos += n;
		return (ssize_t)n;
	}
	*piece = buf;
	return read_full(in->fd, buf, cap);
}

struct out_file {
	int fd;      /* -1 when output is discarded (-t) */
	int is_temp; /* fd is tmp, to be renamed to final */
	const char *label;
	uint64_t bytes;
	char final[PATH_MAX];
	char tmp[PATH_MAX];
};

static void out_init_discard(struct out_file *o)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->label = "(test)";
}

static void out_init_stdout(struct out_file *o)
{
	memset(o, 0, sizeof(*o));
	o->fd = STDOUT_FILENO;
	o->label = "(stdout)";
}

/* Create a temporary file beside final_path. Returns 0, 1 when the output was skipped (exists,
 * warned) or -1 after an error message. */
static int out_open(struct out_file *o, const char *final_path, const struct in_file *in)
{
	struct stat st;
	const char *slash, *base;
	int dir_len, n, fd;
	sigset_t old;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (strlen(final_path) >= sizeof(o->final)) {
		error_msg(final_path, "%s", strerror(ENAMETOOLONG));
		return -1;
	}
	strcpy(o->final, final_path);
	o->label = o->final;

	if (stat(final_path, &st) == 0) {
		if (in && !in->is_stdin && st.st_dev == in->st.st_dev && st.st_ino == in->st.st_ino) {
			error_msg(final_path, "output would overwrite the input file");
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			error_msg(final_path, "is a directory");
			return -1;
		}
		if (!opt.force) {
			warn_msg(final_path, "already exists; not overwritten (use -f to force)");
			return 1;
		}
	}

	slash = strrchr(final_path, '/');
	base = slash ? slash + 1 : final_path;
	dir_len = slash ? (int)(slash - final_path) + 1 : 0;
	n = snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.igzip-XXXXXX", dir_len, final_path, base);
	if (n < 0 || (size_t)n >= sizeof(o->tmp)) {
		error_msg(final_path, "%s", strerror(ENAMETOOLONG));
		return -1;
	}

	/* No signal may arrive between creating the file and registering it for removal. */
	block_signals(&old);
	fd = mkstemp(o->tmp);
	if (fd >= 0) {
		memcpy(sig_tmp_path, o->tmp, sizeof(sig_tmp_path));
		sig_tmp_live = 1;
	}
	restore_signals(&old);
	if (fd < 0) {
		error_msg(final_path, "cannot create output: %s", strerror(errno));
		return -1;
	}
	o->fd = fd;
	o->is_temp = 1;
	return 0;
}

static int out_write(struct out_file *o, const void *buf, size_t n)
{
	o->bytes += n;
	if (o->fd < 0 || n == 0)
		return 0;
	if (write_full(o->fd, buf, n)) {
		error_msg(o->label, "write failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Drop the temporary file of a failed run. */
static void out_abort(struct out_file *o)
{
	if (!o->is_temp)
		return;
	close(o->fd);
	unlink(o->tmp);
	sig_tmp_live = 0;
	o->is_temp = 0;
	o->fd = -1;
}

/* Give the temporary file the input's mode, owner and times (mtime: header_mtime when non-zero)
 * and move it to its final name. */
static int out_commit(struct out_file *o, const struct in_file *in, uint32_t header_mtime)
{
	struct timespec times[2];
	int have_times = 0;

	if (!o->is_temp)
		return 0;
	if (in && !in->is_stdin) {
		if (fchown(o->fd, in->st.st_uid, in->st.st_gid) != 0) {
			/* Only root may give files away; keep the group if possible. */
			if (fchown(o->fd, (uid_t)-1, in->st.st_gid) != 0)
				errno = 0;
		}
		fchmod(o->fd, in->st.st_mode & 07777);
		times[0] = in->st.st_atim;
		times[1] = in->st.st_mtim;
		have_times = 1;
	} else {
		fchmod(o->fd, new_file_mode);
		times[0].tv_sec = 0;
		times[0].tv_nsec = UTIME_OMIT;
		times[1] = times[0];
	}
	if (header_mtime) {
		times[1].tv_sec = (time_t)header_mtime;
		times[1].tv_nsec = 0;
		have_times = 1;
	}
	if (have_times)
		futimens(o->fd, times);
	if (close(o->fd) != 0) {
		o->fd = -1;
		error_msg(o->label, "write failed: %s", strerror(errno));
		unlink(o->tmp);
		sig_tmp_live = 0;
		o->is_temp = 0;
		return -1;
	}
	o->fd = -1;
	if (rename(o->tmp, o->final) != 0) {
		error_msg(o->label, "cannot rename temporary file: %s", strerror(errno));
		unlink(o->tmp);
		sig_tmp_live = 0;
		o->is_temp = 0;
		return -1;
	}
	sig_tmp_live = 0;
	o->is_temp = 0;
	return 0;
}

/* ---- CRC-32 combination ------------------------------------------------------------------- */

/* Polynomials over GF(2) modulo the CRC-32 polynomial, in the reflected bit order gzip uses
 * (bit 31 is x^0). crc(A|B) = crc(A) * x^(8 |B|) + crc(B): the pre- and post-conditioning of both
 * halves cancel out. */
#define CRC32_POLY_REFLECTED 0xedb88320u

static uint32_t gf2_mulmod(uint32_t a, uint32_t b)
{
	uint32_t product = 0;
	for (uint32_t bit = 1u << 31; bit; bit >>= 1) {
		if (a & bit)
			product ^= b;
		b = (b & 1) ? (b >> 1) ^ CRC32_POLY_REFLECTED : b >> 1;
	}
	return product;
}

static uint32_t crc32_combine_len(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
{
	uint32_t power = 1u << 31;      /* x^0 */
	uint32_t square = 1u << 23;     /* x^8: one byte */
	for (; len_b; len_b >>= 1) {
		if (len_b & 1)
			power = gf2_mulmod(power, square);
		square = gf2_mulmod(square, square);
	}
	return gf2_mulmod(power, crc_a) ^ crc_b;
}

/* ---- compression -------------------------------------------------------------------------- */

static uint32_t level_buf_size(int level)
{
	switch (level) {
	case 1:
		return ISAL_DEF_LVL1_DEFAULT;
	case 2:
		return ISAL_DEF_LVL2_DEFAULT;
	case 3:
		return (ISAL_DEF_LVL3_DEFAULT);
	default:
		return 0;
	}
}

static void deflate_setup(struct isal_zstream *zs, uint8_t *level_buf)
{
	isal_deflate_init(zs);
	zs->level = (uint32_t)opt.level;
	zs->level_buf = level_buf;
	zs->level_buf_size = level_buf_size(opt.level);
	zs->gzip_flag = IGZIP_DEFLATE;
	zs->flush = NO_FLUSH;
	zs->end_of_stream = 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static size_t gzip_header(uint8_t *h, size_t cap, const char *name, uint32_t mtime)
{
	size_t n = GZ_FIXED_HDR, name_len = name ? strlen(name) : 0;
	if (name_len + 1 > cap - GZ_FIXED_HDR)
		name = NULL; /* cannot happen for a path component; store no name rather than a cut one */
	h[0] = GZ_ID1;
	h[1] = GZ_ID2;
	h[2] = GZ_CM_DEFLATE;
	h[3] = name ? GZ_FNAME : 0;
	h[4] = (uint8_t)mtime;
	h[5] = (uint8_t)(mtime >> 8);
	h[6] = (uint8_t)(mtime >> 16);
	h[7] = (uint8_t)(mtime >> 24);
	h[8] = opt.level <= 1 ? GZ_XFL_FASTEST : 0;
	h[9] = GZ_OS_UNIX;
	if (name) {
		memcpy(h + n, name, name_len + 1);
		n += name_len + 1;
	}
	return n;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

struct compress_result {
	uint32_t crc;
	uint64_t in_bytes;
};

/* One stream on the calling thread, for input that is read (pipes, terminals). */
static int compress_single(struct in_file *in, struct out_file *out, struct progress *pg,
			   struct compress_result *res)
{
	uint8_t *inbuf = malloc(IO_CHUNK), *outbuf = malloc(IO_CHUNK);
	uint32_t lb_size = level_buf_size(opt.level);
	uint8_t *level_buf = malloc(lb_size ? lb_size : 1);
	struct isal_zstream *zs = malloc(sizeof(*zs));
	int rc = -1, eof = 0;

	if (!inbuf || !outbuf || !level_buf || !zs) {
		error_msg(in->label, "out of memory");
		goto done;
	}
	deflate_setup(zs, level_buf);
	res->crc = 0;
	res->in_bytes = 0;
	while (!eof) {
		ssize_t n = read_full(in->fd, inbuf, IO_CHUNK);
		if (n < 0) {
			error_msg(in->label, "read failed: %s", strerror(errno));
			goto done;
		}
		eof = (size_t)n < IO_CHUNK;
		res->crc = crc32_gzip_refl(res->crc, inbuf, (uint64_t)n);
		res->in_bytes += (uint64_t)n;
		zs->next_in = inbuf;
		zs->avail_in = (uint32_t)n;
		zs->end_of_stream = (uint16_t)eof;
		for (;;) {
			uint32_t avail_before = zs->avail_in;
			size_t produced;
			int ret;
			zs->next_out = outbuf;
			zs->avail_out = IO_CHUNK;
			ret = isal_deflate(zs);
			if (ret != COMP_OK) {
				error_msg(in->label, "compression failed (isal_deflate: %d)", ret);
				goto done;
			}
			produced = IO_CHUNK - zs->avail_out;
			if (out_write(out, outbuf, produced))
				goto done;
			if (zs->avail_in == 0 && zs->avail_out != 0 &&
			    (!eof || zs->internal_state.state == ZSTATE_END))
				break;
			if (produced == 0 && zs->avail_in == avail_before) {
				error_msg(in->label, "compression failed (no progress)");
				goto done;
			}
		}
		progress_update(pg, res->in_bytes);
	}
	rc = 0;
done:
	free(inbuf);
	free(outbuf);
	free(level_buf);
	free(zs);
	return rc;
}

/* ---- parallel compression ----------------------------------------------------------------- */

enum job_state { JOB_FREE, JOB_QUEUED, JOB_DONE, JOB_FAILED };

struct mt_job {
	uint8_t *in; /* read input: MT_DICT bytes of room for history, then the block */
	const uint8_t *src; /* the block: in + MT_DICT, or in the mapped input */
	uint32_t dict_len;  /* bytes of history right before src */
	uint32_t len;
	int last;
	uint8_t *out;
	size_t out_cap;
	size_t out_len;
	uint32_t crc;
	int err;
	enum job_state state;
};

struct mt_pool {
	pthread_mutex_t lock;
	pthread_cond_t work; /* a job was queued, or shutdown */
	pthread_cond_t done; /* a job finished */
	struct mt_job *jobs;
	unsigned nslots;
	uint64_t next_run;   /* sequence number the next idle worker takes */
	uint64_t queued_end; /* one past the last queued sequence number */
	int shutdown;
};

struct mt_worker {
	struct mt_pool *pool;
	pthread_t thread;
	struct isal_zstream *zs;
	uint8_t *level_buf;
	int started;
};

#define MT_OUT_SLACK (MT_BLOCK / 8 + 64 * 1024)
#define MT_ERR_NOMEM 1000
#define MT_ERR_STALL 1001

/* Level 0 codes a block as a stream: a stream tries each 16 KiB of level 0's output against its
 * stored form, which one stateless call does only for the whole block (the 100 MiB mix of text,
 * random bytes and runs: 38.6% against 42.4%). */
static int mt_compress_stream(struct isal_zstream *zs, struct mt_job *j)
{
	zs->next_in = (uint8_t *)(uintptr_t)j->src;
	zs->avail_in = j->len;
	zs->end_of_stream = (uint16_t)j->last;
	/* A sync flush ends a block that is not the last on a byte boundary. */
	zs->flush = j->last ? NO_FLUSH : SYNC_FLUSH;
	j->out_len = 0;
	for (;;) {
		uint32_t avail_before = zs->avail_in;
		size_t produced;
		if (j->out_cap - j->out_len < 4096) {
			size_t cap = j->out_cap * 2;
			uint8_t *p = realloc(j->out, cap);
			if (!p)
				return MT_ERR_NOMEM;
			j->out = p;
			j->out_cap = cap;
		}
		zs->next_out = j->out + j->out_len;
		zs->avail_out = (uint32_t)(j->out_cap - j->out_len);
		int ret = isal_deflate(zs);
		if (ret != COMP_OK)
			return ret;
		produced = (size_t)(zs->next_out - (j->out + j->out_len));
		j->out_len += produced;
		if (zs->avail_in == 0 && zs->avail_out != 0 &&
		    (!j->last || zs->internal_state.state == ZSTATE_END))
			return 0;
		if (produced == 0 && zs->avail_in == avail_before)
			return MT_ERR_STALL;
	}
}

/* Levels 1-3 code a block in one stateless call, straight from the input (a stream copies its
 * input through its buffer: 4-5% of level 1's time); FULL_FLUSH ends a block that is not the
 * last on a byte boundary. The call falls back to stored blocks, whose size out_cap
 * (MT_BLOCK + MT_OUT_SLACK) always holds, so an overflow means a library that wants more. */
static int mt_compress_stateless(struct isal_zstream *zs, struct mt_job *j)
{
	zs->next_in = (uint8_t *)(uintptr_t)j->src;
	zs->avail_in = j->len;
	zs->end_of_stream = (uint16_t)j->last;
	zs->flush = j->last ? NO_FLUSH : FULL_FLUSH;
	zs->next_out = j->out;
	zs->avail_out = (uint32_t)j->out_cap;
	int ret = isal_deflate_stateless(zs);
	if (ret == STATELESS_OVERFLOW)
		return MT_ERR_STALL;
	j->out_len = (size_t)(zs->next_out - j->out);
	return ret;
}

/* One block, a stream of its own primed with the 32 KiB before it, so that the blocks'
 * outputs concatenate into one deflate stream. */
static int mt_compress_job(struct mt_worker *w, struct mt_job *j)
{
	struct isal_zstream *zs = w->zs;
	int ret;

	deflate_setup(zs, w->level_buf);
	if (j->dict_len) {
		ret = isal_deflate_set_dict(zs, (uint8_t *)(uintptr_t)(j->src - j->dict_len),
					    j->dict_len);
		if (ret != COMP_OK)
			return ret;
	}
	ret = opt.level == 0 ? mt_compress_stream(zs, j) : mt_compress_stateless(zs, j);
	/* The CRC after the compressor, which brought the block into the caches. */
	j->crc = crc32_gzip_refl(0, j->src, j->len);
	return ret;
}

static void mt_job_error(const struct in_file *in, int err)
{
	if (err == MT_ERR_NOMEM)
		error_msg(in->label, "out of memory");
	else if (err == MT_ERR_STALL)
		error_msg(in->label, "compression failed (no progress)");
	else
		error_msg(in->label, "compression failed (%d)", err);
}

/* How much input the next block takes. Near the end of a mapped input the blocks are a quarter
 * of MT_BLOCK: while the last block of a file runs, the other threads have nothing to do (for
 * half a block on average, 2% of a 100 MiB file on two threads). The cut depends only on the
 * input's length, never on the thread count, so the output stays the same for every -T. */
static size_t mt_block_len(const struct in_file *in)
{
	if (in->map && in->map_len - in->map_pos <= MT_TAIL)
		return MT_BLOCK / 4;
	return MT_BLOCK;
}

/* A mapped input on the calling thread: the blocks of -T N, one after another, so that the
 * output is the same for every N (and no stream copies the input through its buffer). */
static int compress_mapped(struct in_file *in, struct out_file *out, struct progress *pg,
			   struct compress_result *res)
{
	const uint32_t lb_size = level_buf_size(opt.level);
	struct mt_worker w;
	struct mt_job j;
	int rc = -1;

	memset(&w, 0, sizeof(w));
	memset(&j, 0, sizeof(j));
	w.zs = malloc(sizeof(*w.zs));
	w.level_buf = malloc(lb_size ? lb_size : 1);
	j.out_cap = MT_BLOCK + MT_OUT_SLACK;
	j.out = malloc(j.out_cap);
	if (!w.zs || !w.level_buf || !j.out) {
		error_msg(in->label, "out of memory");
		goto done;
	}
	res->crc = 0;
	res->in_bytes = 0;
	while (!j.last) {
		j.dict_len = (uint32_t)(in->map_pos < MT_DICT ? in->map_pos : MT_DICT);
		const size_t want = mt_block_len(in);
		j.len = (uint32_t)in_next(in, NULL, want, &j.src); /* (a mapping: no error) */
		j.last = j.len < want;
		const int ret = mt_compress_job(&w, &j);
		if (ret) {
			mt_job_error(in, ret);
			goto done;
		}
		if (out_write(out, j.out, j.out_len))
			goto done;
		res->crc = crc32_combine_len(res->crc, j.crc, j.len);
		res->in_bytes += j.len;
		progress_update(pg, res->in_bytes);
	}
	rc = 0;
done:
	free(w.zs);
	free(w.level_buf);
	free(j.out);
	return rc;
}

static void *mt_worker_main(void *arg)
{
	struct mt_worker *w = arg;
	struct mt_pool *p = w->pool;
	for (;;) {
		struct mt_job *j;
		int ret;
		pthread_mutex_lock(&p->lock);
		while (!p->shutdown && p->next_run == p->queued_end)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->shutdown) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		j = &p->jobs[p->next_run % p->nslots];
		p->next_run++;
		pthread_mutex_unlock(&p->lock);

		ret = mt_compress_job(w, j);

		pthread_mutex_lock(&p->lock);
		j->err = ret;
		j->state = ret ? JOB_FAILED : JOB_DONE;
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->lock);
	}
}

/* Wait for job seq, write it out and free its slot. */
static int mt_write_job(struct mt_pool *p, uint64_t seq, struct in_file *in, struct out_file *out,
			struct compress_result *res)
{
	struct mt_job *j = &p->jobs[seq % p->nslots];
	pthread_mutex_lock(&p->lock);
	while (j->state == JOB_QUEUED)
		pthread_cond_wait(&p->done, &p->lock);
	pthread_mutex_unlock(&p->lock);
	if (j->state == JOB_FAILED) {
		mt_job_error(in, j->err);
		return -1;
	}
	if (out_write(out, j->out, j->out_len))
		return -1;
	res->crc = crc32_combine_len(res->crc, j->crc, j->len);
	j->state = JOB_FREE;
	return 0;
}

static int compress_parallel(struct in_file *in, struct out_file *out, struct progress *pg,
			     struct compress_result *res)
{
	struct mt_pool pool;
	struct mt_worker *workers;
	unsigned nthreads = (unsigned)opt.threads, started = 0;
	uint32_t lb_size = level_buf_size(opt.level);
	uint64_t seq = 0, written = 0;
	int rc = -1, eof = 0;
	sigset_t old;

	memset(&pool, 0, sizeof(pool));
	pool.nslots = 2 * nthreads;
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.work, NULL);
	pthread_cond_init(&pool.done, NULL);
	pool.jobs = calloc(pool.nslots, sizeof(*pool.jobs));
	workers = calloc(nthreads, sizeof(*workers));
	if (!pool.jobs || !workers)
		goto nomem;
	for (unsigned i = 0; i < pool.nslots; i++) {
		pool.jobs[i].in = in->map ? NULL : malloc(MT_DICT + MT_BLOCK);
		pool.jobs[i].out_cap = MT_BLOCK + MT_OUT_SLACK;
		pool.jobs[i].out = malloc(pool.jobs[i].out_cap);
		if ((!in->map && !pool.jobs[i].in) || !pool.jobs[i].out)
			goto nomem;
	}
	for (unsigned i = 0; i < nthreads; i++) {
		workers[i].pool = &pool;
		workers[i].zs = malloc(sizeof(*workers[i].zs));
		workers[i].level_buf = malloc(lb_size ? lb_size : 1);
		if (!workers[i].zs || !workers[i].level_buf)
			goto nomem;
	}

	/* Workers never handle the signals: the main thread's handler removes the temporary file. */
	block_signals(&old);
	for (unsigned i = 0; i < nthreads; i++) {
		if (pthread_create(&workers[i].thread, NULL, mt_worker_main, &workers[i]) != 0)
			break;
		workers[i].started = 1;
		started++;
	}
	restore_signals(&old);
	if (started == 0) {
		error_msg(in->label, "cannot start threads");
		goto cleanup;
	}

	res->crc = 0;
	res->in_bytes = 0;
	while (!eof) {
		struct mt_job *j = &pool.jobs[seq % pool.nslots];
		ssize_t n;
		if (seq >= pool.nslots) {
			if (mt_write_job(&pool, written, in, out, res))
				goto cleanup;
			written++;
		}
		if (in->map) {
			/* The history is simply the mapped bytes before the block. */
			j->dict_len = (uint32_t)(in->map_pos < MT_DICT ? in->map_pos : MT_DICT);
		} else if (seq == 0) {
			j->dict_len = 0;
		} else {
			const struct mt_job *prev = &pool.jobs[(seq - 1) % pool.nslots];
			/* Every block but the last is full, so the previous one holds a whole window. */
			memcpy(j->in, prev->src + prev->len - MT_DICT, MT_DICT);
			j->dict_len = MT_DICT;
		}
		const size_t want = mt_block_len(in);
		n = in_next(in, j->in ? j->in + MT_DICT : NULL, want, &j->src);
		if (n < 0) {
			error_msg(in->label, "read failed: %s", strerror(errno));
			goto cleanup;
		}
		eof = (size_t)n < want;
		j->len = (uint32_t)n;
		j->last = eof;
		res->in_bytes += (uint64_t)n;
		pthread_mutex_lock(&pool.lock);
		j->state = JOB_QUEUED;
		pool.queued_end = seq + 1;
		pthread_cond_signal(&pool.work);
		pthread_mutex_unlock(&pool.lock);
		seq++;
		progress_update(pg, res->in_bytes);
	}
	while (written < seq) {
		if (mt_write_job(&pool, written, in, out, res))
			goto cleanup;
		written++;
	}
	rc = 0;
	goto cleanup;

nomem:
	error_msg(in->label, "out of memory");
cleanup:
	pthread_mutex_lock(&pool.lock);
	pool.shutdown = 1;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.lock);
	if (workers) {
		for (unsigned i = 0; i < nthreads; i++) {
			if (workers[i].started)
				pthread_join(workers[i].thread, NULL);
			free(workers[i].zs);
			free(workers[i].level_buf);
		}
	}
	if (pool.jobs) {
		for (unsigned i = 0; i < pool.nslots; i++) {
			free(pool.jobs[i].in);
			free(pool.jobs[i].out);
		}
	}
	free(pool.jobs);
	free(workers);
	pthread_cond_destroy(&pool.done);
	pthread_cond_destroy(&pool.work);
	pthread_mutex_destroy(&pool.lock);
	return rc;
}

/* Header, deflate data, trailer. */
static int compress_stream(struct in_file *in, struct out_file *out, struct compress_result *res)
{
	uint8_t hdr[GZ_FIXED_HDR + PATH_MAX + 1], trailer[GZ_TRAILER];
	const char *name = NULL;
	uint32_t mtime = 0;
	struct progress pg;
	size_t hlen;
	int rc;

	if (opt.save_name && !in->is_stdin) {
		name = base_name(in->path);
		if (in->st.st_mtime > 0 && (uint64_t)in->st.st_mtime <= UINT32_MAX)
			mtime = (uint32_t)in->st.st_mtime;
	}
	hlen = gzip_header(hdr, sizeof(hdr), name, mtime);
	if (out_write(out, hdr, hlen))
		return -1;
	progress_start(&pg, in->label, S_ISREG(in->st.st_mode) ? (uint64_t)in->st.st_size : 0);
	if (opt.threads > 1)
		rc = compress_parallel(in, out, &pg, res);
	else if (in->map)
		rc = compress_mapped(in, out, &pg, res);
	else
		rc = compress_single(in, out, &pg, res);
	clear_progress();
	if (rc)
		return rc;
	put_le32(trailer, res->crc);
	put_le32(trailer + 4, (uint32_t)res->in_bytes);
	return out_write(out, trailer, sizeof(trailer));
}

/* ---- decompression ------------------------------------------------------------------------ */

struct reader {
	int fd;
	const char *label;
	uint8_t *buf;
	size_t cap, pos, len;
	int eof;
	int failed;        /* a read error was reported */
	int mapped;        /* buf is the whole mapped input (read-only) */
	uint64_t consumed; /* bytes before buf[0] */
};

/* Keep the unread bytes and read more behind them. Returns bytes added, 0 at end of input or
 * when full, -1 after reporting a read error. */
static ssize_t reader_fill(struct reader *r)
{
	ssize_t n;
	if (r->mapped)
		return 0;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->consumed += r->pos;
		r->len -= r->pos;
		r->pos = 0;
	}
	if (r->eof || r->len == r->cap)
		return 0;
	for (;;) {
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n >= 0 || errno != EINTR)
			break;
	}
	if (n < 0) {
		error_msg(r->label, "read failed: %s", strerror(errno));
		r->failed = 1;
		r->eof = 1;
		return -1;
	}
	if (n == 0)
		r->eof = 1;
	r->len += (size_t)n;
	return n;
}

/* Next byte, or -1 at end of input (or after a read error). */
static int reader_byte(struct reader *r)
{
	while (r->pos == r->len) {
		if (r->eof || reader_fill(r) <= 0)
			return -1;
	}
	return r->buf[r->pos++];
}

/* Make at least n bytes available if the input has them; returns how many are. */
static size_t reader_peek(struct reader *r, size_t n)
{
	while (r->len - r->pos < n && !r->eof)
		if (reader_fill(r) < 0)
			break;
	return r->len - r->pos;
}

struct gz_member {
	uint32_t mtime;
	int has_name;
	char name[STORED_NAME_MAX];
};

enum hdr_status { HDR_OK, HDR_TRUNCATED, HDR_BAD };

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
		st->avail_in = (uint32_t)(r->len - r->pos < (1u << 30) ? r->len - r->pos : 1u << 30);
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

/* ---- per-file driver ---------------------------------------------------------------------- */

static const char *const known_suffixes[] = { ".gz", "-gz", ".z", "-z", "_z", ".tgz", ".taz" };

static size_t suffix_match(const char *name, const char *suffix)
{
	size_t nl = strlen(name), sl = strlen(suffix);
	if (sl == 0 || nl <= sl || strcmp(name + nl - sl, suffix) != 0)
		return 0;
	if (name[nl - sl - 1] == '/')
		return 0; /* the whole file name is the suffix */
	return sl;
}

/* The decompressed name for path, or 0 when its suffix is unknown. */
static int strip_suffix(const char *path, char *out, size_t cap)
{
	size_t plen = strlen(path), sl = suffix_match(path, opt.suffix);
	const char *add = "";
	if (!sl) {
		for (size_t i = 0; i < sizeof(known_suffixes) / sizeof(known_suffixes[0]); i++) {
			if ((sl = suffix_match(path, known_suffixes[i]))) {
				if (i >= 5)
					add = ".tar";
				break;
			}
		}
	}
	if (!sl || plen - sl + strlen(add) + 1 > cap)
		return 0;
	memcpy(out, path, plen - sl);
	strcpy(out + plen - sl, add);
	return 1;
}

static int open_input(const char *path, struct in_file *in)
{
	memset(in, 0, sizeof(*in));
	if (!path || strcmp(path, "-") == 0) {
		in->fd = STDIN_FILENO;
		in->is_stdin = 1;
		in->label = "stdin";
		if (fstat(in->fd, &in->st) != 0)
			memset(&in->st, 0, sizeof(in->st));
		return 0;
	}
	in->path = path;
	in->label = path;
	/* Like gzip, a symbolic link is not followed when the result replaces files, unless -f. */
	int nofollow = !opt.force && !opt.to_stdout && opt.mode != MODE_TEST && opt.mode != MODE_LIST;
	in->fd = open(path, O_RDONLY | O_NOCTTY | (nofollow ? O_NOFOLLOW : 0));
	if (in->fd < 0) {
		struct stat lst;
		if (nofollow && errno == ELOOP && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
			warn_msg(path, "is a symbolic link -- ignored (use -f or -c to follow it)");
		else
			error_msg(path, "%s", strerror(errno));
		return -1;
	}
	if (fstat(in->fd, &in->st) != 0) {
		error_msg(path, "%s", strerror(errno));
		close(in->fd);
		return -1;
	}
	if (S_ISDIR(in->st.st_mode)) {
		warn_msg(path, "is a directory -- ignored%s", opt.recursive ? "" : " (use -r)");
		close(in->fd);
		return -1;
	}
	if (!S_ISREG(in->st.st_mode) && !opt.to_stdout && opt.mode != MODE_TEST &&
	    opt.mode != MODE_LIST && !opt.force) {
		warn_msg(path, "is not a directory or a regular file -- ignored");
		close(in->fd);
		return -1;
	}
	return 0;
}

static void close_input(struct in_file *in)
{
	in_unmap(in);
	if (!in->is_stdin && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
}

static int writes_to_stdout(const struct in_file *in)
{
	if (opt.to_stdout)
		return 1;
	return in->is_stdin && !opt.out_name;
}

static void remove_input(const struct in_file *in)
{
	if (!opt.remove_input || in->is_stdin || writes_to_stdout(in) || opt.mode == MODE_TEST)
		return;
	if (unlink(in->path) != 0)
		error_msg(in->path, "cannot remove: %s", strerror(errno));
}

static int copy_name(char *dst, size_t cap, const char *name)
{
	size_t len = strlen(name);
	if (len >= cap) {
		error_msg(name, "%s", strerror(ENAMETOOLONG));
		return -1;
	}
	memcpy(dst, name, len + 1);
	return 0;
}

static double ratio_percent(uint64_t small, uint64_t big)
{
	return big ? 100.0 * (1.0 - (double)small / (double)big) : 0.0;
}

static void compress_file(const char *path)
{
	struct in_file in;
	struct out_file out;
	struct compress_result res;
	char final[PATH_MAX];

	if (open_input(path, &in))
		return;
	if (writes_to_stdout(&in)) {
		if (isatty(STDOUT_FILENO) && !opt.force) {
			error_msg(NULL, "compressed data not written to a terminal. Use -f to force "
					"compression.");
			close_input(&in);
			return;
		}
		out_init_stdout(&out);
	} else {
		if (opt.out_name) {
			if (copy_name(final, sizeof(final), opt.out_name)) {
				close_input(&in);
				return;
			}
		} else {
			if (suffix_match(in.path, opt.suffix) && !opt.force) {
				/* gzip stays quiet about these in a -r walk unless -v */
				if (!in_walk || opt.verbose)
					warn_msg(in.path, "already has %s suffix -- unchanged", opt.suffix);
				close_input(&in);
				return;
			}
			if ((size_t)snprintf(final, sizeof(final), "%s%s", in.path, opt.suffix) >=
			    sizeof(final)) {
				error_msg(in.path, "%s", strerror(ENAMETOOLONG));
				close_input(&in);
				return;
			}
		}
		if (out_open(&out, final, &in) != 0) {
			close_input(&in);
			return;
		}
	}
	in_map(&in);
	if (compress_stream(&in, &out, &res) || out_commit(&out, &in, 0)) {
		out_abort(&out);
		close_input(&in);
		return;
	}
	close_input(&in);
	if (opt.verbose && !opt.quiet) {
		fprintf(stderr, "%s:\t%5.1f%% -- %s %s\n", in.label,
			ratio_percent(out.bytes, res.in_bytes),
			out.final[0] ? (opt.remove_input ? "replaced with" : "created") : "written to",
			out.final[0] ? out.final : "stdout");
	}
	remove_input(&in);
}

static void decompress_file(const char *path)
{
	struct in_file in;
	struct out_file out;
	struct reader rd;
	struct gz_member m;
	struct inflate_state *st = NULL;
	struct progress pg;
	uint8_t *outbuf = NULL;
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

	rd.fd = in.fd;
	rd.label = in.label;
	in_map(&in);
	if (in.map) {
		/* The whole input is there: the reader never reads nor moves it. */
		rd.mapped = 1;
		rd.buf = (uint8_t *)(uintptr_t)in.map;
		rd.cap = rd.len = in.map_len;
		rd.eof = 1;
	} else {
		rd.cap = IO_CHUNK;
		rd.buf = malloc(rd.cap);
	}
	outbuf = malloc(IO_CHUNK);
	st = malloc(sizeof(*st));
	if (!rd.buf || !outbuf || !st) {
		error_msg(in.label, "out of memory");
		goto done;
	}
	isal_inflate_init(st);

	if (!is_gzip_magic(&rd)) {
		if (rd.failed)
			goto done;
		if (opt.mode == MODE_DECOMPRESS && opt.force && writes_to_stdout(&in)) {
			failed = pass_through(&rd, &out) != 0;
			goto done;
		}
		if (rd.len - rd.pos < 2)
			error_msg(in.label, "unexpected end of file");
		else
			error_msg(in.label, "not in gzip format");
		goto done;
	}
	if (next_member_header(&rd, &m))
		goto done;

	if (to_file) {
		if (opt.save_name > 0 && !opt.out_name && m.has_name) {
			/* Only the last path component of the stored name, in the input's directory. */
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
	for (;;) {
		if (inflate_member(&rd, st, outbuf, &out, &pg))
			goto done;
		members++;
		if (reader_peek(&rd, 1) == 0)
			break;
		if (!is_gzip_magic(&rd)) {
			if (rd.failed)
				goto done;
			if (check_trailing(&rd)) {
				if (rd.failed)
					goto done;
				warn_msg(in.label, "decompression OK, trailing garbage ignored");
			}
			break;
		}
		if (next_member_header(&rd, &m))
			goto done;
	}
	if (rd.failed)
		goto done;
	failed = 0;

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
	if (!rd.mapped)
		free(rd.buf);
	free(outbuf);
	free(st);
	if (failed)
		return;
	if (opt.verbose && !opt.quiet) {
		uint64_t csize = rd.consumed + rd.pos;
		if (opt.mode == MODE_TEST)
			fprintf(stderr, "%s:\t OK\n", in.label);
		else
			fprintf(stderr, "%s:\t%5.1f%% -- %s %s\n", in.label,
				ratio_percent(csize, out.bytes),
				to_file ? (opt.remove_input ? "replaced with" : "created") : "written to",
				to_file ? out.final : "stdout");
	}
	if (members)
		remove_input(&in);
}

/* ---- listing (-l) ------------------------------------------------------------------------- */

struct list_totals {
	uint64_t compressed, uncompressed;
	unsigned files;
};

static void list_file(const char *path, struct list_totals *tot)
{
	struct in_file in;
	struct reader rd;
	struct gz_member m;
	const char *why = NULL;
	char shown[PATH_MAX];
	uint8_t tail[4];
	uint64_t csize, usize;

	if (open_input(path, &in))
		return;
	memset(&rd, 0, sizeof(rd));
	rd.fd = in.fd;
	rd.label = in.label;
	rd.cap = 64 * 1024;
	rd.buf = malloc(rd.cap);
	if (!rd.buf) {
		error_msg(in.label, "out of memory");
		goto done;
	}
	if (!is_gzip_magic(&rd)) {
		if (!rd.failed)
			error_msg(in.label, "not in gzip format");
		goto done;
	}
	if (read_member_header(&rd, &m, &why) != HDR_OK) {
		if (!rd.failed)
			error_msg(in.label, "%s", why ? why : "unexpected end of file");
		goto done;
	}
	/* ISIZE of the last member: the input's last four bytes. */
	if (S_ISREG(in.st.st_mode) && in.st.st_size >= GZ_FIXED_HDR + GZ_TRAILER) {
		csize = (uint64_t)in.st.st_size;
		if (pread(in.fd, tail, 4, in.st.st_size - 4) != 4) {
			error_msg(in.label, "read failed: %s", strerror(errno));
			goto done;
		}
	} else {
		size_t keep;
		while (!rd.eof) {
			if (rd.len - rd.pos > 4)
				rd.pos = rd.len - 4;
			if (reader_fill(&rd) < 0)
				goto done;
		}
		csize = rd.consumed + rd.len;
		keep = rd.len - rd.pos;
		if (csize < GZ_FIXED_HDR + GZ_TRAILER || keep < 4) {
			error_msg(in.label, "unexpected end of file");
			goto done;
		}
		memcpy(tail, rd.buf + rd.len - 4, 4);
	}
	usize = (uint64_t)tail[0] | (uint64_t)tail[1] << 8 | (uint64_t)tail[2] << 16 |
		(uint64_t)tail[3] << 24;
	if (opt.save_name > 0 && m.has_name)
		snprintf(shown, sizeof(shown), "%s", m.name);
	else if (in.is_stdin)
		snprintf(shown, sizeof(shown), "stdout");
	else if (!strip_suffix(in.path, shown, sizeof(shown)))
		snprintf(shown, sizeof(shown), "%s", in.path);
	if (tot->files == 0)
		printf("%19s %19s %6s %s\n", "compressed", "uncompressed", "ratio", "uncompressed_name");
	printf("%19llu %19llu %5.1f%% %s\n", (unsigned long long)csize, (unsigned long long)usize,
	       ratio_percent(csize, usize), shown);
	tot->compressed += csize;
	tot->uncompressed += usize;
	tot->files++;
done:
	free(rd.buf);
	close_input(&in);
}

/* ---- command line ------------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: igzip [OPTION]... [FILE]...\n"
		"Compress or decompress FILEs in the gzip format (stoa's ISA-L compatible deflate).\n"
		"With no FILE, or when FILE is -, read standard input and write standard output.\n"
		"\n"
		"  -0 .. -3           compression level (default 1); --fast = -1, --best = -3\n"
		"  -c, --stdout       write to standard output, keep the input files\n"
		"  -d, --decompress   decompress\n"
		"  -z, --compress     compress (the default)\n"
		"  -o, --output FILE  write to FILE (one input only)\n"
		"  -k, --keep         keep the input files (the default)\n"
		"      --rm           remove each input file after it was (de)compressed\n"
		"  -f, --force        overwrite existing outputs, compress to a terminal,\n"
		"                     follow symbolic links, pass non-gzip data through with -dc\n"
		"  -r, --recursive    operate on the files in directories, recursively\n"
		"  -S, --suffix SUF   suffix of compressed files (default .gz)\n"
		"  -t, --test         check the integrity (CRC and length) of compressed files\n"
		"  -l, --list         list compressed and uncompressed sizes\n"
		"  -N, --name         compress: store the file name and time (the default);\n"
		"                     decompress: restore them\n"
		"  -n, --no-name      compress: store neither; decompress: do not restore (default)\n"
		"  -T, --threads N    compress on N threads (default 1)\n"
		"  -v, --verbose      report each file; progress on a terminal\n"
		"  -q, --quiet        suppress warnings\n"
		"  -h, --help         show this help\n"
		"  -V, --version      show the version\n"
		"\n"
		"Exit status: 0 success, 1 error, 2 warning.\n");
}

enum { OPT_RM = 256, OPT_FAST, OPT_BEST };

static const struct option long_options[] = {
	{ "stdout", no_argument, NULL, 'c' },
	{ "to-stdout", no_argument, NULL, 'c' },
	{ "decompress", no_argument, NULL, 'd' },
	{ "uncompress", no_argument, NULL, 'd' },
	{ "compress", no_argument, NULL, 'z' },
	{ "output", required_argument, NULL, 'o' },
	{ "keep", no_argument, NULL, 'k' },
	{ "rm", no_argument, NULL, OPT_RM },
	{ "force", no_argument, NULL, 'f' },
	{ "recursive", no_argument, NULL, 'r' },
	{ "suffix", required_argument, NULL, 'S' },
	{ "test", no_argument, NULL, 't' },
	{ "list", no_argument, NULL, 'l' },
	{ "name", no_argument, NULL, 'N' },
	{ "no-name", no_argument, NULL, 'n' },
	{ "threads", required_argument, NULL, 'T' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "fast", no_argument, NULL, OPT_FAST },
	{ "best", no_argument, NULL, OPT_BEST },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void process_one(const char *path, struct list_totals *tot)
{
	switch (opt.mode) {
	case MODE_COMPRESS:
		compress_file(path);
		break;
	case MODE_DECOMPRESS:
	case MODE_TEST:
		decompress_file(path);
		break;
	case MODE_LIST:
		list_file(path, tot);
		break;
	}
}

/* -r: every entry of dir, in name order, depth first. Entries are examined with lstat, so a
 * symbolic link to a directory is never descended into and a walk cannot loop; links to files
 * reach open_input, which refuses them as it does on the command line. */
static void process_dir(const char *dir, struct list_totals *tot)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		error_msg(dir, "%s", strerror(errno));
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char path[PATH_MAX];
		struct stat st;
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s%s%s", dir,
				     dir[strlen(dir) - 1] == '/' ? "" : "/", name) >= sizeof(path)) {
			error_msg(name, "%s", strerror(ENAMETOOLONG));
			continue;
		}
		if (lstat(path, &st) != 0) {
			error_msg(path, "%s", strerror(errno));
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			process_dir(path, tot);
			continue;
		}
		/* -t and -l look only at files that carry a compressed suffix in a walk, as gzip */
		if (opt.mode == MODE_TEST || opt.mode == MODE_LIST) {
			char plain[PATH_MAX];
			if (!strip_suffix(path, plain, sizeof(plain)))
				continue;
		}
		in_walk = 1;
		process_one(path, tot);
		in_walk = 0;
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* A command-line operand: with -r a directory is walked, anything else is one file. */
static void process_arg(const char *path, struct list_totals *tot)
{
	struct stat st;
	if (opt.recursive && path && strcmp(path, "-") != 0 && lstat(path, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		process_dir(path, tot);
		return;
	}
	process_one(path, tot);
}

static int parse_threads(const char *s)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > MT_MAX_THREADS)
		return -1;
	return (int)v;
}

int main(int argc, char **argv)
{
	struct list_totals tot = { 0, 0, 0 };
	int c;

	while ((c = getopt_long(argc, argv, "0123cdzo:kfrS:tlNnT:vqhV", long_options, NULL)) != -1) {
		switch (c) {
		case '0':
		case '1':
		case '2':
		case '3':
			opt.level = c - '0';
			break;
		case OPT_FAST:
			opt.level = 1;
			break;
		case OPT_BEST:
			opt.level = ISAL_DEF_MAX_LEVEL;
			break;
		case 'c':
			opt.to_stdout = 1;
			break;
		case 'd':
			opt.mode = MODE_DECOMPRESS;
			break;
		case 'z':
			opt.mode = MODE_COMPRESS;
			break;
		case 'o':
			opt.out_name = optarg;
			break;
		case 'k':
			opt.remove_input = 0;
			break;
		case OPT_RM:
			opt.remove_input = 1;
			break;
		case 'f':
			opt.force = 1;
			break;
		case 'r':
			opt.recursive = 1;
			break;
		case 'S':
			if (!optarg[0] || strchr(optarg, '/') || strlen(optarg) > 64) {
				error_msg(NULL, "invalid suffix '%s'", optarg);
				return 1;
			}
			opt.suffix = optarg;
			break;
		case 't':
			opt.mode = MODE_TEST;
			break;
		case 'l':
			opt.mode = MODE_LIST;
			break;
		case 'N':
			opt.save_name = 1;
			break;
		case 'n':
			opt.save_name = 0;
			break;
		case 'T':
			if ((opt.threads = parse_threads(optarg)) < 0) {
				error_msg(NULL, "invalid thread count '%s' (1..%d)", optarg,
					  MT_MAX_THREADS);
				return 1;
			}
			break;
		case 'v':
			opt.verbose = 1;
			opt.quiet = 0;
			break;
		case 'q':
			opt.quiet = 1;
			opt.verbose = 0;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("igzip (stoa) %s\n", IGZIP_VERSION);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (opt.save_name < 0)
		opt.save_name = opt.mode == MODE_COMPRESS;
	if (opt.out_name) {
		if (opt.to_stdout) {
			error_msg(NULL, "-o and -c cannot be used together");
			return 1;
		}
		if (argc - optind > 1 || opt.recursive) {
			error_msg(NULL, "-o takes a single input file (and no -r)");
			return 1;
		}
		if (!opt.out_name[0]) {
			error_msg(NULL, "empty output file name");
			return 1;
		}
	}
	{
		mode_t mask = umask(0);
		umask(mask);
		new_file_mode = 0666 & ~mask;
	}
	install_signal_handlers();

	if (optind == argc)
		process_one(NULL, &tot);
	for (int i = optind; i < argc; i++)
		process_arg(argv[i], &tot);
	if (opt.mode == MODE_LIST && tot.files > 1)
		printf("%19llu %19llu %5.1f%% (totals)\n", (unsigned long long)tot.compressed,
		       (unsigned long long)tot.uncompressed,
		       ratio_percent(tot.compressed, tot.uncompressed));
	if (fflush(stdout) != 0 || ferror(stdout)) {
		error_msg(NULL, "write failed: %s", strerror(errno));
		return 1;
	}
	return exit_code;
}
