/* igzip: the command line, the per-file driver and the messages. */
#include "igzip.h"

#define DEFAULT_SUFFIX ".gz"

struct options opt = {
	.mode = MODE_COMPRESS,
	.save_name = -1,
	.level = 1,
	.threads = 1,
	.suffix = DEFAULT_SUFFIX,
};

static int exit_code; /* 0, 2 after a warning, 1 after an error */
int in_walk;          /* the current file was found by -r, not named on the command line */
mode_t new_file_mode; /* 0666 less the umask, for outputs that have no input file */

static void vmessage(const char *file, const char *fmt, va_list ap)
{
	clear_progress();
	fputs("igzip: ", stderr);
	if (file)
		fprintf(stderr, "%s: ", file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

__attribute__((format(printf, 2, 3))) void error_msg(const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(file, fmt, ap);
	va_end(ap);
	exit_code = 1;
}

__attribute__((format(printf, 2, 3))) void warn_msg(const char *file, const char *fmt, ...)
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

const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

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
int strip_suffix(const char *path, char *out, size_t cap)
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

int open_input(const char *path, struct in_file *in)
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
	int nofollow =
	    !opt.force && !opt.to_stdout && opt.mode != MODE_TEST && opt.mode != MODE_LIST;
	in->fd = open(path, O_RDONLY | O_NOCTTY | (nofollow ? O_NOFOLLOW : 0));
	if (in->fd < 0) {
		struct stat lst;
		/* An error, as gzip makes it (exit status 1). */
		if (nofollow && errno == ELOOP && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
			error_msg(path, "is a symbolic link -- not followed (use -f or -c)");
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

void close_input(struct in_file *in)
{
	in_unmap(in);
	if (!in->is_stdin && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
}

int writes_to_stdout(const struct in_file *in)
{
	if (opt.to_stdout)
		return 1;
	return in->is_stdin && !opt.out_name;
}

void remove_input(const struct in_file *in)
{
	if (!opt.remove_input || in->is_stdin || writes_to_stdout(in) || opt.mode == MODE_TEST)
		return;
	if (unlink(in->path) != 0)
		error_msg(in->path, "cannot remove: %s", strerror(errno));
}

int copy_name(char *dst, size_t cap, const char *name)
{
	size_t len = strlen(name);
	if (len >= cap) {
		error_msg(name, "%s", strerror(ENAMETOOLONG));
		return -1;
	}
	memcpy(dst, name, len + 1);
	return 0;
}

double ratio_percent(uint64_t small, uint64_t big)
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
			error_msg(NULL,
			          "compressed data not written to a terminal. Use -f to force "
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
					warn_msg(in.path, "already has %s suffix -- unchanged",
					         opt.suffix);
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
		        out.final[0] ? (opt.remove_input ? "replaced with" : "created")
		                     : "written to",
		        out.final[0] ? out.final : "stdout");
	}
	remove_input(&in);
}

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: igzip [OPTION]... [FILE]...\n"
	    "Compress or decompress FILEs in the gzip format (stoa's ISA-L compatible deflate).\n"
	    "With no FILE, or when FILE is -, read standard input and write standard output.\n"
	    "\n"
	    "  -0 .. -9           compression level (default 1); --fast = -1, --best = -9\n"
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
		                     dir[strlen(dir) - 1] == '/' ? "" : "/",
		                     name) >= sizeof(path)) {
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

	while ((c = getopt_long(argc, argv, "0123456789cdzo:kfrS:tlNnT:vqhV", long_options, NULL)) !=
	       -1) {
		switch (c) {
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
		case '8':
		case '9':
			opt.level = c - '0';
			break;
		case OPT_FAST:
			opt.level = 1;
			break;
		case OPT_BEST:
			opt.level = 9; /* gzip's best */
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
			/* getopt said what was wrong. */
			fprintf(stderr, "Try 'igzip --help' for more information.\n");
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
