/* igzip's I/O: the progress line, the temporary output file and the signals that remove it,
 * the mapped or read input, and the buffered reader of the decompressor. */
#include "igzip.h"

static int progress_shown;

void clear_progress(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(struct progress *p, const char *label, uint64_t total)
{
	p->enabled = opt.verbose && !opt.quiet && isatty(STDERR_FILENO);
	p->label = label;
	p->total = total;
	p->start = p->last = p->enabled ? now_seconds() : 0.0;
}

void progress_update(struct progress *p, uint64_t done)
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

void install_signal_handlers(void)
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

void block_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++)
		sigaddset(&set, caught_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Read until n bytes or end of file; returns the count or -1 (errno set). */
ssize_t read_full(int fd, void *buf, size_t n)
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

/* Map a regular, non-empty input from its current offset (stdin may have been read from). On any
 * failure the input is simply read. */
void in_map(struct in_file *in)
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

void in_unmap(struct in_file *in)
{
	if (!in->map)
		return;
	munmap(in->map_addr, in->map_size);
	/* Leave a shared descriptor (stdin) where reading it to the end would have. */
	if (in->is_stdin)
		lseek(in->fd, in->st.st_size, SEEK_SET);
	in->map = NULL;
}

/* Fault a mapped piece in with one call before it is read (level 1, 50 MB from tmpfs: 1325 page
 * faults down to 564; with -T N the reading thread does it while the workers compress). A
 * kernel without MADV_POPULATE_READ (before 5.14) refuses it and the pages fault in as before. */
static void populate(const uint8_t *p, size_t n)
{
#ifdef MADV_POPULATE_READ
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	const uintptr_t start = (uintptr_t)p & ~(page - 1);
	if (n)
		madvise((void *)start, (uintptr_t)p + n - start, MADV_POPULATE_READ);
#else
	(void)p;
	(void)n;
#endif
}

/* The next piece of input, at most cap bytes: from the mapping, or read into buf. Returns its
 * length (less than cap only at the end of the input) or -1 with errno set. */
ssize_t in_next(struct in_file *in, uint8_t *buf, size_t cap, const uint8_t **piece)
{
	if (in->map) {
		size_t n = in->map_len - in->map_pos;
		if (n > cap)
			n = cap;
		*piece = in->map + in->map_pos;
		in->map_pos += n;
		populate(*piece, n);
		return (ssize_t)n;
	}
	*piece = buf;
	return read_full(in->fd, buf, cap);
}

void out_init_discard(struct out_file *o)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->label = "(test)";
}

void out_init_stdout(struct out_file *o)
{
	memset(o, 0, sizeof(*o));
	o->fd = STDOUT_FILENO;
	o->label = "(stdout)";
}

/* An output that exists and is not a regular file (a device such as /dev/null, a FIFO): written
 * in place, as gzip's shell redirection would; renaming a file over it would replace the node. */
static int out_open_node(struct out_file *o, const char *path)
{
	int fd = open(path, O_WRONLY | O_NOCTTY);
	if (fd < 0) {
		error_msg(path, "cannot write: %s", strerror(errno));
		return -1;
	}
	o->fd = fd;
	o->is_node = 1;
	return 0;
}

/* Open the output named final_path. A new or regular file is written to a temporary file in the
 * directory of the file it replaces (a symbolic link's target: the link stays), renamed once
 * everything succeeded; a device or FIFO is written in place; a directory or a link to nothing is
 * refused. Returns 0, 1 when the output was skipped (exists, warned) or -1 after an error
 * message. */
int out_open(struct out_file *o, const char *final_path, const struct in_file *in)
{
	struct stat st, lst;
	const char *slash, *base, *target;
	int dir_len, n, fd;
	sigset_t old;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (strlen(final_path) >= sizeof(o->final)) {
		error_msg(final_path, "%s", strerror(ENAMETOOLONG));
		return -1;
	}
	strcpy(o->final, final_path);
	strcpy(o->target, final_path);
	o->label = o->final;

	if (lstat(final_path, &lst) == 0) {
		if (stat(final_path, &st) != 0) {
			error_msg(final_path, "is a symbolic link to nothing; not replaced");
			return -1;
		}
		if (in && !in->is_stdin && st.st_dev == in->st.st_dev &&
		    st.st_ino == in->st.st_ino) {
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
		if (!S_ISREG(st.st_mode))
			return out_open_node(o, final_path);
		if (S_ISLNK(lst.st_mode) && !realpath(final_path, o->target)) {
			error_msg(final_path, "cannot follow the symbolic link: %s",
			          strerror(errno));
			return -1;
		}
	}

	target = o->target;
	slash = strrchr(target, '/');
	base = slash ? slash + 1 : target;
	dir_len = slash ? (int)(slash - target) + 1 : 0;
	n = snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.igzip-XXXXXX", dir_len, target, base);
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

int out_write(struct out_file *o, const void *buf, size_t n)
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

/* Drop the temporary file of a failed run (a device or FIFO keeps what it was given). */
void out_abort(struct out_file *o)
{
	if (o->is_node) {
		close(o->fd);
		o->is_node = 0;
		o->fd = -1;
		return;
	}
	if (!o->is_temp)
		return;
	close(o->fd);
	unlink(o->tmp);
	sig_tmp_live = 0;
	o->is_temp = 0;
	o->fd = -1;
}

/* Give the temporary file the input's mode, owner and times (mtime: header_mtime when non-zero)
 * and move it over its target. A device or FIFO is only closed: its mode and owner stay. */
int out_commit(struct out_file *o, const struct in_file *in, uint32_t header_mtime)
{
	struct timespec times[2];
	int have_times = 0;

	if (o->is_node) {
		int rc = close(o->fd);
		o->is_node = 0;
		o->fd = -1;
		if (rc != 0) {
			error_msg(o->label, "write failed: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
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
	if (rename(o->tmp, o->target) != 0) {
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

/* A reader over the input: its mapping when it has one (never read nor moved), else a buffer
 * read into. Returns 0, or -1 after an error message. */
int reader_open(struct reader *r, struct in_file *in)
{
	memset(r, 0, sizeof(*r));
	r->fd = in->fd;
	r->label = in->label;
	in_map(in);
	if (in->map) {
		r->mapped = 1;
		r->buf = (uint8_t *)(uintptr_t)in->map;
		r->cap = r->len = in->map_len;
		r->eof = 1;
		return 0;
	}
	r->cap = IO_CHUNK;
	r->buf = malloc(r->cap);
	if (!r->buf) {
		error_msg(in->label, "out of memory");
		return -1;
	}
	return 0;
}

void reader_close(struct reader *r)
{
	if (!r->mapped)
		free(r->buf);
	r->buf = NULL;
}

/* Keep the unread bytes and read more behind them. Returns bytes added, 0 at end of input or
 * when full, -1 after reporting a read error. */
ssize_t reader_fill(struct reader *r)
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
int reader_byte(struct reader *r)
{
	while (r->pos == r->len) {
		if (r->eof || reader_fill(r) <= 0)
			return -1;
	}
	return r->buf[r->pos++];
}

/* Make at least n bytes available if the input has them; returns how many are. */
size_t reader_peek(struct reader *r, size_t n)
{
	while (r->len - r->pos < n && !r->eof)
		if (reader_fill(r) < 0)
			break;
	return r->len - r->pos;
}
