/* What the CRC suite stands on: the functions' table, the bit-at-a-time reference, every
 * callable form of a function with the fault report around its calls, and buffers at guard
 * pages; see crc_check.h. */
#include "crc_check.h"

const struct crc_fn crc_fns[] = {
	{ "crc16_t10dif", crc16_t10dif_variants, K_T10DIF, 16, 0x8BB7, 0, 0, cc_t10dif,
	  cc_t10dif_base, NULL },
	{ "crc16_t10dif_copy", crc16_t10dif_copy_variants, K_T10DIF_COPY, 16, 0x8BB7, 0, 0,
	  cc_t10dif_copy, cc_t10dif_copy_base, NULL },
	{ "crc32_ieee", crc32_ieee_variants, K_CRC32, 32, 0x04C11DB7, 0, 1, cc_ieee, cc_ieee_base,
	  NULL },
	{ "crc32_gzip_refl", crc32_gzip_refl_variants, K_CRC32, 32, 0x04C11DB7, 1, 1, cc_gzip,
	  cc_gzip_base, NULL },
	{ "crc32_iscsi", crc32_iscsi_variants, K_ISCSI, 32, 0x1EDC6F41, 1, 0, cc_iscsi, cc_iscsi_base,
	  NULL },
	CRC64_FN(ecma, refl, 0x42F0E1EBA9EA3693ull, 1),
	CRC64_FN(ecma, norm, 0x42F0E1EBA9EA3693ull, 0),
	CRC64_FN(iso, refl, 0x000000000000001Bull, 1),
	CRC64_FN(iso, norm, 0x000000000000001Bull, 0),
	CRC64_FN(jones, refl, 0xAD93D23594C935A9ull, 1),
	CRC64_FN(jones, norm, 0xAD93D23594C935A9ull, 0),
	CRC64_FN(rocksoft, refl, 0xAD93D23594C93659ull, 1),
	CRC64_FN(rocksoft, norm, 0xAD93D23594C93659ull, 0),
};

uint64_t width_mask(int width)
{
	return width == 64 ? ~0ull : (1ull << width) - 1;
}

const struct crc_fn *fn_named(const char *name)
{
	for (size_t i = 0; i < N_FNS; i++)
		if (strcmp(crc_fns[i].name, name) == 0)
			return &crc_fns[i];
	return NULL;
}

static uint64_t reflect_bits(uint64_t v, int bits)
{
	uint64_t r = 0;
	for (int i = 0; i < bits; i++, v >>= 1)
		r = (r << 1) | (v & 1);
	return r;
}

/* Polynomial division of the message (after the state) by the CRC polynomial, bit by bit; a
 * reflected CRC runs the same division on bit-reversed bytes with a bit-reversed register. */
static uint64_t ref_raw(const struct crc_fn *f, uint64_t state, const uint8_t *p, uint64_t len)
{
	uint64_t mask = width_mask(f->width);
	if (f->refl) {
		uint64_t rpoly = reflect_bits(f->poly, f->width);
		for (uint64_t i = 0; i < len; i++) {
			state ^= p[i];
			for (int b = 0; b < 8; b++)
				state = (state & 1) ? (state >> 1) ^ rpoly : state >> 1;
		}
		return state & mask;
	}
	uint64_t top = 1ull << (f->width - 1);
	for (uint64_t i = 0; i < len; i++) {
		state ^= (uint64_t)p[i] << (f->width - 8);
		for (int b = 0; b < 8; b++)
			state = ((state & top) ? (state << 1) ^ f->poly : state << 1) & mask;
	}
	return state & mask;
}

/* ISA-L's convention around the raw division. */
uint64_t ref_crc(const struct crc_fn *f, uint64_t init, const uint8_t *p, uint64_t len)
{
	uint64_t mask = width_mask(f->width);
	if (!f->inverts)
		return ref_raw(f, init & mask, p, len);
	return ~ref_raw(f, ~init & mask, p, len) & mask;
}

/* The call in progress, for the fault report: a guard page turns an overread into SIGSEGV, and
 * cmocka alone would then say only "Segmentation fault". */
static struct {
	const char *fn, *label, *where;
	uint64_t len, init;
} volatile in_flight;
static struct sigaction cmocka_segv, cmocka_bus;

static void report_fault(int sig)
{
	char msg[512];
	/* Not async-signal-safe, but the fault came from a CRC kernel, not from stdio or malloc. */
	int n = snprintf(msg, sizeof(msg),
			 "FAULT (signal %d) in %s[%s] len=%" PRIu64 " init=0x%" PRIx64 " %s\n", sig,
			 in_flight.fn ? in_flight.fn : "?", in_flight.label ? in_flight.label : "?",
			 in_flight.len, in_flight.init, in_flight.where ? in_flight.where : "");
	fflush(stdout);
	if (n > 0 && write(1, msg, (size_t)n) < 0)
		n = 0;
	/* Back to cmocka's handler; the faulting access repeats and lands there. */
	sigaction(SIGSEGV, &cmocka_segv, NULL);
	sigaction(SIGBUS, &cmocka_bus, NULL);
}

/* Installed inside each test, after cmocka has installed its own handlers for that test. */
void arm_fault_report(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = report_fault;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &cmocka_segv);
	sigaction(SIGBUS, &sa, &cmocka_bus);
	memset((void *)&in_flight, 0, sizeof(in_flight));
}

void note_call(const char *fn, const char *label, uint64_t len, uint64_t init,
		      const char *where)
{
	in_flight.fn = fn;
	in_flight.label = label;
	in_flight.len = len;
	in_flight.init = init;
	if (where)
		in_flight.where = where;
}

uint64_t call_variant(enum kind k, stoa_fnptr fn, uint64_t init, const uint8_t *buf,
			     uint64_t len, uint8_t *dst)
{
	switch (k) {
	case K_T10DIF:
		return ((uint16_t(*)(uint16_t, const unsigned char *, uint64_t))fn)((uint16_t)init,
										    buf, len);
	case K_T10DIF_COPY:
		return ((uint16_t(*)(uint16_t, uint8_t *, uint8_t *, uint64_t))fn)(
			(uint16_t)init, dst, (uint8_t *)buf, len);
	case K_CRC32:
		return ((uint32_t(*)(uint32_t, const unsigned char *, uint64_t))fn)((uint32_t)init,
										    buf, len);
	case K_ISCSI:
		return ((unsigned int (*)(unsigned char *, int, unsigned int))fn)(
			(unsigned char *)buf, (int)len, (unsigned int)init);
	case K_CRC64:
		return ((uint64_t(*)(uint64_t, const unsigned char *, uint64_t))fn)(init, buf, len);
	}
	return 0;
}

uint64_t call_entry(const struct prepared *p, const struct entry *e, uint64_t init,
			   const uint8_t *buf, uint64_t len, uint8_t *dst)
{
	note_call(p->f->name, e->label, len, init, NULL);
	if (e->variant)
		return call_variant(p->f->kind, e->variant, init, buf, len, dst);
	return e->exported(init, buf, len, dst);
}

const struct stoa_func *table_of(const struct crc_fn *f)
{
	const struct stoa_func *sf = test_func(f->name);
	assert_ptr_equal(sf->variants, f->table);
	return sf;
}

static void add_entry(struct prepared *p, const char *label, stoa_fnptr v, crc_call_fn *x)
{
	assert_true(p->n < MAX_ENTRIES);
	struct entry *e = &p->e[p->n++];
	snprintf(e->label, sizeof(e->label), "%s", label);
	e->variant = v;
	e->exported = x;
}

/* The usable table entries (base included), then the exported public, _base and _by8 symbols. */
static void prepare(struct prepared *p, const struct crc_fn *f)
{
	const struct stoa_func *sf = table_of(f);
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->base = sf->variants[sf->count - 1].fn;
	const struct stoa_variant *vs[MAX_ENTRIES];
	size_t nv = test_variants(sf, vs, MAX_ENTRIES, &p->skipped);
	for (size_t i = 0; i < nv; i++)
		add_entry(p, vs[i]->name, vs[i]->fn, NULL);
	add_entry(p, "public", NULL, f->pub);
	add_entry(p, "_base", NULL, f->base);
	if (f->by8)
		add_entry(p, "_by8", NULL, f->by8);
}

struct prepared prep[N_FNS];

void prepare_all(void)
{
	for (size_t i = 0; i < N_FNS; i++)
		prepare(&prep[i], &crc_fns[i]);
}

/* One line per test saying what ran, so a log shows skipped variants without the inventory. */
void say_entries(const char *what)
{
	size_t entries = 0, skipped = 0;
	for (size_t i = 0; i < N_FNS; i++) {
		entries += prep[i].n;
		skipped += prep[i].skipped;
	}
	print_message("%s: %zu functions, %zu callable forms", what, N_FNS, entries);
	if (skipped)
		print_message(" (%zu variants SKIPPED: not usable on this CPU / STOA_ISA)",
			      skipped);
	print_message("\n");
}

void area_open(struct area *a, int where)
{
	a->src = guard_alloc(AREA, where);
	a->dst = guard_alloc(AREA, where);
	a->where = where;
}

void area_close(struct area *a)
{
	guard_free(a->src, AREA, a->where);
	guard_free(a->dst, AREA, a->where);
}

/* len bytes that end at the guard page (GUARD_BACK) or start right after it (GUARD_FRONT),
 * moved slack bytes away from it. */
uint8_t *place(uint8_t *base, int where, uint64_t len, size_t slack)
{
	assert_true(len + slack <= AREA);
	return where == GUARD_BACK ? base + AREA - len - slack : base + slack;
}

uint64_t random_init(int width)
{
	switch (test_rand_below(8)) {
	case 0:
		return 0;
	case 1:
		return width_mask(width);
	default:
		return test_rand() & width_mask(width);
	}
}

/* Up to 64 KiB, biased towards short and medium lengths where the tail paths live. */
uint64_t random_len(void)
{
	switch (test_rand_below(4)) {
	case 0:
		return test_rand_below(257);
	case 1:
		return test_rand_below(2049);
	default:
		return test_rand_below(65537);
	}
}

static unsigned long long n_calls, n_bytes;

void count_reset(void)
{
	n_calls = n_bytes = 0;
}

void count_say(const char *what)
{
	print_message("%s: %llu calls, %.1f MiB, all equal\n", what, n_calls,
		      (double)n_bytes / (1 << 20));
}

/* Every form of p's function on src[0..len) equals the base entry; the copy forms also leave
 * dst equal to src. where names the buffer placement for the failure message. */
void check_forms(const struct prepared *p, const uint8_t *src, uint8_t *dst, uint64_t len,
			uint64_t init, const char *where)
{
	int copy = p->f->kind == K_T10DIF_COPY;
	uint64_t mask = width_mask(p->f->width);
	if (copy)
		for (uint64_t i = 0; i < len; i++)
			dst[i] = (uint8_t)~src[i];
	note_call(p->f->name, "base (table)", len, init, where);
	uint64_t want = call_variant(p->f->kind, p->base, init, src, len, dst) & mask;
	for (size_t i = 0; i < p->n; i++) {
		if (copy)
			for (uint64_t j = 0; j < len; j++)
				dst[j] = (uint8_t)~src[j];
		uint64_t got = call_entry(p, &p->e[i], init, src, len, dst) & mask;
		n_calls++;
		n_bytes += len;
		if (got != want)
			TEST_FAIL("%s[%s] len=%" PRIu64 " init=0x%" PRIx64
				  " %s (address %% 64 = %u):"
				  " got 0x%" PRIx64 ", base gives 0x%" PRIx64 "\n",
				  p->f->name, p->e[i].label, len, init, where,
				  (unsigned)((uintptr_t)src % 64), got, want);
		if (copy && len && memcmp(dst, src, len) != 0)
			TEST_FAIL("%s[%s] len=%" PRIu64
				  " %s: dst differs from src after the copy\n",
				  p->f->name, p->e[i].label, len, where);
	}
}

/* One case at one placement: fresh random data, a random init, every form. */
void check_placed(const struct prepared *p, struct area *a, uint64_t len, size_t slack,
			 const char *where)
{
	uint8_t *src = place(a->src, a->where, len, slack);
	uint8_t *dst = place(a->dst, a->where, len, slack);
	test_fill_random(src, len);
	check_forms(p, src, dst, len, random_init(p->f->width), where);
}
