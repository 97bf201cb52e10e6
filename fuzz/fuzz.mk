# libFuzzer targets, included by the top Makefile. clang only (libFuzzer ships with it).
#
#   make fuzz        build-fuzz/fuzz_* (every fuzz/fuzz_*.c) and their seed corpora
#   make check-clang-san   the tests of NULL and edge buffers (test_empty, test_deflate_bounds)
#                    linked against the same instrumented library: clang's UBSan, unlike gcc's,
#                    also reports arithmetic on NULL
#   build-fuzz/fuzz_inflate_stream -max_total_time=600 build-fuzz/work_stream build-fuzz/seeds
#
# The library is rebuilt for them in $(FUZZ_BUILD)/lib with coverage instrumentation and
# ASan + UBSan. The seeds are made at build time from the corpus (FUZZ_CORPUS, default
# STOA_CORPUS, else this repository's own sources). A target fuzz_X takes its seeds from
# build-fuzz/seeds_fuzz_X when that exists, else from build-fuzz/seeds (the inflate targets):
#   seeds                each file's first 64 KiB compressed by gzip (gzip wrapper), pigz -z
#                        (zlib wrapper) and gzip without its 10-byte header (raw deflate plus
#                        trailer), each behind the three parameter bytes the targets read first
#   seeds_fuzz_deflate   each file's first 16 KiB behind 8 parameter bytes taken from a checksum
#                        of its name (so the seeds spread over levels, wrappers and chunkings)
#   seeds_fuzz_header    the gzip headers (with the file's name) and zlib headers of those
#                        files, and a gzip header with every optional field
# Nothing of it is committed.

FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
FUZZ_CORPUS ?= $(STOA_CORPUS)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LIB_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_NAMES := $(basename $(notdir $(wildcard fuzz/fuzz_*.c)))
FUZZ_PROGS := $(addprefix $(FUZZ_BUILD)/,$(FUZZ_NAMES))
FUZZ_LIB := $(FUZZ_BUILD)/lib/libstoa.a

.PHONY: fuzz fuzz-lib check-clang-san
# The sub-make that builds the instrumented library (STOA_FUZZ_LIB=1) must not see the rule
# that calls it.
ifneq ($(STOA_FUZZ_LIB),1)
FUZZ_SEEDS := $(addprefix $(FUZZ_BUILD)/,seeds/.done seeds_fuzz_deflate/.done seeds_fuzz_header/.done)
fuzz: $(FUZZ_PROGS) $(FUZZ_SEEDS)

# A separate make run, so the library objects get the fuzzing compiler and flags.
fuzz-lib:
	@$(MAKE) --no-print-directory STOA_FUZZ_LIB=1 CC=$(FUZZ_CC) SAN=0 \
		BUILD=$(FUZZ_BUILD)/lib CFLAGS="$(FUZZ_LIB_CFLAGS)" $(FUZZ_LIB)

# The empty recipe makes make look at the library's time again after the sub-make: without one
# it kept the time from before, and the targets linked against an older library stayed.
$(FUZZ_LIB): fuzz-lib
	@:
endif

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_check.h $(FUZZ_LIB) | fuzz-lib
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 $(WARN) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -Iinclude -Icommon -I. \
		$< $(FUZZ_LIB) -lz -o $@

FUZZ_TEST_NAMES := test_empty test_deflate_bounds
FUZZ_TESTS := $(addprefix $(FUZZ_BUILD)/tests/,$(FUZZ_TEST_NAMES))

$(FUZZ_BUILD)/tests/%: tests/%.c tests/testutil.c $(FUZZ_LIB) | fuzz-lib
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 $(WARN) -O1 -g $(FUZZ_SAN) -Iinclude -Icommon -I. -D_DEFAULT_SOURCE $(CORPUS_FLAGS) \
		$(filter %.c,$^) $(FUZZ_LIB) -lcmocka -lz -lcrypto -pthread -o $@

check-clang-san: $(FUZZ_TESTS)
	@failed=""; \
	for t in $(FUZZ_TESTS); do \
		echo "== $$t"; \
		"$$t" || failed="$$failed $${t##*/}"; \
	done; \
	if [ -n "$$failed" ]; then echo "stoa: FAILED:$$failed" >&2; exit 1; fi

# A seed rule's loop over the corpus files (f, its base name b), and its end.
FUZZ_FOR_FILES = files=$$(ls -d $(FUZZ_CORPUS)/*/* 2>/dev/null | grep -v README); \
	[ -n "$$files" ] || files="$$(ls README.md tests/*.c)"; \
	for f in $$files; do \
		[ -f "$$f" ] || continue; \
		b=$$(basename "$$f")
FUZZ_SEEDS_DONE = echo "fuzz seeds: $$(ls $(@D) | wc -l) files in $(@D)"; touch $@

$(FUZZ_BUILD)/seeds/.done: fuzz/fuzz.mk
	@mkdir -p $(@D)
	@$(FUZZ_FOR_FILES); \
		head -c 65536 "$$f" > $(@D)/.in; \
		{ printf '\001\000\000'; gzip -n -6 -c $(@D)/.in; } > $(@D)/gz_$$b; \
		{ printf '\003\017\001'; pigz -z -c $(@D)/.in; } > $(@D)/zl_$$b; \
		{ printf '\006\000\007'; gzip -n -1 -c $(@D)/.in | tail -c +11; } > $(@D)/raw_$$b; \
	done; \
	rm -f $(@D)/.in; \
	$(FUZZ_SEEDS_DONE)

# (Octal escapes: the recipes run in sh, whose printf has no \x.)
$(FUZZ_BUILD)/seeds_fuzz_deflate/.done: fuzz/fuzz.mk
	@mkdir -p $(@D)
	@$(FUZZ_FOR_FILES); \
		h=$$(printf '%s' "$$b" | cksum | cut -d' ' -f1); \
		p=""; \
		for i in 0 1 2 3 4 5 6 7; do \
			p="$$p$$(printf '\\%03o' $$(( (h >> (3 * i)) & 255 )))"; \
		done; \
		{ printf "$$p"; head -c 16384 "$$f"; } > $(@D)/pl_$$b; \
	done; \
	$(FUZZ_SEEDS_DONE)

$(FUZZ_BUILD)/seeds_fuzz_header/.done: fuzz/fuzz.mk
	@mkdir -p $(@D)
	@$(FUZZ_FOR_FILES); \
		{ printf '\000\020\010\010\003'; gzip -c "$$f" | head -c 48; } > $(@D)/gz_$$b; \
		{ printf '\001\000\000\000\000'; head -c 4096 "$$f" | pigz -z -c | head -c 6; } \
			> $(@D)/zl_$$b; \
	done; \
	printf '\000\005\005\005\001\037\213\010\036\000\000\000\000\000\003\004\000AB\002\000name\000note\000\000\000' \
		> $(@D)/gz_fields; \
	$(FUZZ_SEEDS_DONE)
