/* igzip's compression: the gzip member written around one deflate stream, on one thread
 * (read or mapped input) or on N (blocks primed with the 32 KiB before them); the blocks'
 * CRC-32s are joined by stoa_crc32_gzip_refl_combine. */
#include "igzip.h"

#ifndef MT_BLOCK
#define MT_BLOCK (2u << 20) /* input per parallel job */
#endif
#define MT_DICT ISAL_DEF_HIST_SIZE /* history each job is primed with */
#define MT_TAIL (2 * MT_BLOCK)     /* a mapped input's last bytes go in quarter blocks */

static uint32_t level_buf_size(int level)
{
	switch (level) {
	case 1:
		return ISAL_DEF_LVL1_DEFAULT;
	case 2:
		return ISAL_DEF_LVL2_DEFAULT;
	case 3:
		return (ISAL_DEF_LVL3_DEFAULT);
	case 4:
		return ISAL_DEF_LVL4_DEFAULT;
	case 5:
		return ISAL_DEF_LVL5_DEFAULT;
	case 6:
		return ISAL_DEF_LVL6_DEFAULT;
	case 7:
		return ISAL_DEF_LVL7_DEFAULT;
	case 8:
		return ISAL_DEF_LVL8_DEFAULT;
	case 9:
		return ISAL_DEF_LVL9_DEFAULT;
	case 10:
		return ISAL_DEF_LVL10_DEFAULT;
	case 11:
		return ISAL_DEF_LVL11_DEFAULT;
	case 12:
		return ISAL_DEF_LVL12_DEFAULT;
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

static size_t gzip_header(uint8_t *h, size_t cap, const char *name, uint32_t mtime)
{
	size_t n = GZ_FIXED_HDR, name_len = name ? strlen(name) : 0;
	if (name_len + 1 > cap - GZ_FIXED_HDR)
		name = NULL; /* cannot happen for a path component; store no name rather than a cut
		                one */
	h[0] = GZ_ID1;
	h[1] = GZ_ID2;
	h[2] = GZ_CM_DEFLATE;
	h[3] = name ? GZ_FNAME : 0;
	h[4] = (uint8_t)mtime;
	h[5] = (uint8_t)(mtime >> 8);
	h[6] = (uint8_t)(mtime >> 16);
	h[7] = (uint8_t)(mtime >> 24);
	h[8] = opt.level <= 1 ? GZ_XFL_FASTEST : opt.level >= 9 ? GZ_XFL_BEST : 0;
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

enum job_state { JOB_FREE, JOB_QUEUED, JOB_DONE, JOB_FAILED };

struct mt_job {
	uint8_t *in;        /* read input: MT_DICT bytes of room for history, then the block */
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

/* One thread: the blocks of -T N, one after another, so that the output is the same for every N
 * (a mapped input ends in shorter blocks). A mapped input is compressed in place; a read one
 * (stdin, a pipe) goes through one buffer whose first MT_DICT bytes keep the end of the block
 * before, instead of through one isal_deflate stream, which copies its input through its own
 * buffer. */
static int compress_blocks(struct in_file *in, struct out_file *out, struct progress *pg,
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
	j.in = in->map ? NULL : malloc(MT_DICT + MT_BLOCK);
	if (!w.zs || !w.level_buf || !j.out || (!in->map && !j.in)) {
		error_msg(in->label, "out of memory");
		goto done;
	}
	res->crc = 0;
	res->in_bytes = 0;
	while (!j.last) {
		if (in->map) {
			j.dict_len = (uint32_t)(in->map_pos < MT_DICT ? in->map_pos : MT_DICT);
		} else if (res->in_bytes) {
			/* Every block but the last is full: it holds a whole window. */
			memmove(j.in, j.src + j.len - MT_DICT, MT_DICT);
			j.dict_len = MT_DICT;
		}
		const size_t want = mt_block_len(in);
		const ssize_t n = in_next(in, j.in ? j.in + MT_DICT : NULL, want, &j.src);
		if (n < 0) {
			error_msg(in->label, "read failed: %s", strerror(errno));
			goto done;
		}
		j.len = (uint32_t)n;
		j.last = (size_t)n < want;
		const int ret = mt_compress_job(&w, &j);
		if (ret) {
			mt_job_error(in, ret);
			goto done;
		}
		if (out_write(out, j.out, j.out_len))
			goto done;
		res->crc = stoa_crc32_gzip_refl_combine(res->crc, j.crc, j.len);
		res->in_bytes += j.len;
		progress_update(pg, res->in_bytes);
	}
	rc = 0;
done:
	free(w.zs);
	free(w.level_buf);
	free(j.out);
	free(j.in);
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
	res->crc = stoa_crc32_gzip_refl_combine(res->crc, j->crc, j->len);
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

	/* Workers never handle the signals: the main thread's handler removes the temporary file.
	 */
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
			/* Every block but the last is full, so the previous one holds a whole
			 * window. */
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
int compress_stream(struct in_file *in, struct out_file *out, struct compress_result *res)
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
	else
		rc = compress_blocks(in, out, &pg, res);
	clear_progress();
	if (rc)
		return rc;
	put_le32(trailer, res->crc);
	put_le32(trailer + 4, (uint32_t)res->in_bytes);
	return out_write(out, trailer, sizeof(trailer));
}
