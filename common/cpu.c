/* CPU feature detection and the STOA_ISA cap. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "dispatch.h"

#ifndef STOA_ARCH
/* A target with portable code only: no features, no words beyond base and native. */
const struct stoa_arch stoa_arch = { "portable", NULL, NULL, 0, NULL, 0 };
#endif

uint64_t stoa_cpu_probe(void)
{
	return stoa_arch.probe ? stoa_arch.probe() : 0;
}

static const struct stoa_isa_word common_words[] = {
	{ "base", 0, 0 },
	{ "native", ~0ull, 0 },
};

static const struct stoa_isa_word *find_word(const char *name, size_t len)
{
	const size_t ncommon = STOA_COUNT(common_words);
	for (size_t i = 0; i < ncommon + stoa_arch.nwords; i++) {
		const struct stoa_isa_word *w =
			i < ncommon ? &common_words[i] : &stoa_arch.words[i - ncommon];
		if (strlen(w->name) == len && memcmp(w->name, name, len) == 0)
			return w;
	}
	return NULL;
}

static const struct stoa_feature *find_feature(const char *name, size_t len)
{
	for (size_t i = 0; i < stoa_arch.nfeatures; i++) {
		const struct stoa_feature *f = &stoa_arch.features[i];
		if ((strlen(f->name) == len && memcmp(f->name, name, len) == 0) ||
		    (f->alias && strlen(f->alias) == len && memcmp(f->alias, name, len) == 0))
			return f;
	}
	return NULL;
}

int stoa_isa_parse(const char *value, uint64_t *mask)
{
	size_t len = strcspn(value, ",");
	const struct stoa_isa_word *w = find_word(value, len);
	if (!w)
		return -1;
	uint64_t m = w->mask;
	for (const char *p = value + len; *p; p += len) {
		/* p is at a comma: "+feature" or "-feature" follows. */
		const char sign = p[1];
		if (sign != '+' && sign != '-')
			return -1;
		p += 2;
		len = strcspn(p, ",");
		const struct stoa_feature *f = find_feature(p, len);
		if (!f)
			return -1;
		m = sign == '+' ? m | f->bit : m & ~f->bit;
	}
	*mask = m;
	return 0;
}

/* The probe result and the enabled mask, computed once; `probed` publishes them. Every bit of
 * the two words may be a feature. */
static _Atomic uint64_t detected_word;
static _Atomic uint64_t enabled_word;
static atomic_int probed;

static void probe_once(void)
{
	if (atomic_load_explicit(&probed, memory_order_acquire))
		return;
	uint64_t det = stoa_cpu_probe();
	uint64_t cap = ~0ull;
	const char *isa = getenv("STOA_ISA");
	if (isa && *isa && stoa_isa_parse(isa, &cap) != 0) {
		fprintf(stderr, "stoa: STOA_ISA='%s' is not valid (a word: base native", isa);
		for (size_t i = 0; i < stoa_arch.nwords; i++)
			fprintf(stderr, " %s", stoa_arch.words[i].name);
		fprintf(stderr, "%s); using base\n",
			stoa_arch.nfeatures ? ", then any ,+feature or ,-feature" : "");
		cap = 0;
	}
	/* Racing threads compute the same values; the message may print more than once. */
	atomic_store_explicit(&detected_word, det, memory_order_relaxed);
	atomic_store_explicit(&enabled_word, det & cap, memory_order_relaxed);
	atomic_store_explicit(&probed, 1, memory_order_release);
}

STOA_API uint64_t stoa_cpu_features(void)
{
	probe_once();
	return atomic_load_explicit(&detected_word, memory_order_relaxed);
}

STOA_API uint64_t stoa_cpu_features_enabled(void)
{
	probe_once();
	return atomic_load_explicit(&enabled_word, memory_order_relaxed);
}

STOA_API const char *stoa_cpu_feature_name(uint64_t feature)
{
	for (size_t i = 0; i < stoa_arch.nfeatures; i++)
		if (feature == stoa_arch.features[i].bit)
			return stoa_arch.features[i].name;
	return NULL;
}

int stoa_variant_usable(const struct stoa_variant *v)
{
	return (v->need & ~stoa_cpu_features_enabled()) == 0;
}

const struct stoa_variant *stoa_select(const struct stoa_variant *table, size_t count)
{
	for (size_t i = 0; i + 1 < count; i++)
		if (stoa_variant_usable(&table[i]))
			return &table[i];
	return &table[count - 1]; /* the base entry, usable everywhere */
}

const struct stoa_variant *stoa_select_within(const struct stoa_variant *table, size_t count,
                                              uint64_t cap)
{
	for (size_t i = 0; i + 1 < count; i++)
		if ((table[i].need & ~cap) == 0 && stoa_variant_usable(&table[i]))
			return &table[i];
	return &table[count - 1];
}

const struct stoa_variant *stoa_select_func_within(const char *func, uint64_t cap)
{
	const struct stoa_func *f = stoa_find_func(func);
	return stoa_select_within(f->variants, f->count, cap);
}

const struct stoa_func *stoa_find_func(const char *name)
{
	for (size_t m = 0; stoa_modules[m]; m++)
		for (size_t i = 0; i < stoa_modules[m]->count; i++)
			if (strcmp(stoa_modules[m]->funcs[i].name, name) == 0)
				return &stoa_modules[m]->funcs[i];
	return NULL;
}

STOA_API const char *stoa_function_variant(const char *function)
{
	const struct stoa_func *f = function ? stoa_find_func(function) : NULL;
	return f ? stoa_select(f->variants, f->count)->name : NULL;
}

/* Appends to a bounded buffer, counting what would have been written. */
struct sink {
	char *buf;
	size_t size, len;
};

static void put(struct sink *s, const char *text)
{
	size_t n = strlen(text);
	if (s->len < s->size) {
		size_t room = s->size - s->len - 1;
		memcpy(s->buf + s->len, text, n < room ? n : room);
	}
	s->len += n;
	if (s->size)
		s->buf[s->len < s->size ? s->len : s->size - 1] = '\0';
}

size_t stoa_isa_describe(uint64_t enabled, char *buf, size_t size)
{
	struct sink s = { buf, buf ? size : 0, 0 };
	const struct stoa_isa_word *best = &common_words[0];
	for (size_t i = 0; i < stoa_arch.nwords; i++)
		if (stoa_arch.words[i].is_class && (stoa_arch.words[i].mask & ~enabled) == 0)
			best = &stoa_arch.words[i];
	put(&s, best->name);
	for (size_t i = 0; i < stoa_arch.nfeatures; i++) {
		const struct stoa_feature *f = &stoa_arch.features[i];
		if ((enabled & f->bit) && !(best->mask & f->bit)) {
			put(&s, ",+");
			put(&s, f->alias ? f->alias : f->name);
		}
	}
	return s.len;
}

STOA_API size_t stoa_cpu_report(char *buf, size_t size)
{
	struct sink s = { buf, buf ? size : 0, 0 };
	uint64_t det = stoa_cpu_features(), en = stoa_cpu_features_enabled();
	const char *isa = getenv("STOA_ISA");
	char class[512];

	put(&s, "stoa " STOA_VERSION_STRING "; ");
	put(&s, stoa_arch.name);
	put(&s, " cpu:");
	for (size_t i = 0; i < stoa_arch.nfeatures; i++) {
		const struct stoa_feature *f = &stoa_arch.features[i];
		if (det & f->bit) {
			put(&s, " ");
			put(&s, f->name);
			if (!(en & f->bit))
				put(&s, "(off)");
		}
	}
	put(&s, "; class ");
	stoa_isa_describe(en, class, sizeof(class));
	put(&s, class);
	put(&s, "; STOA_ISA=");
	put(&s, isa && *isa ? isa : "(unset)");
	put(&s, ";");
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++) {
			const struct stoa_func *f = &stoa_modules[m]->funcs[i];
			put(&s, " ");
			put(&s, f->name);
			put(&s, "=");
			put(&s, stoa_select(f->variants, f->count)->name);
		}
	}
	return s.len;
}

STOA_API const char *stoa_version(void)
{
	return STOA_VERSION_STRING;
}

/* The DRAM probe's mode (common/cpu.h), shared by every kernel that asks. */
_Atomic int stoa_cold_mode;
