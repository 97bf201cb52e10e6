# libFuzzer targets, included by the top Makefile. clang only (libFuzzer ships with it).
#
#   make fuzz        build-fuzz/fuzz_* (every fuzz/fuzz_*.c) and the seed corpus build-fuzz/seeds
#   build-fuzz/fuzz_inflate_stream -max_total_time=600 build-fuzz/work_stream build-fuzz/seeds
#
# The library is rebuilt for them in $(FUZZ_BUILD)/lib with coverage instrumentation and
# ASan + UBSan. The seeds are made at build time from the corpus (FUZZ_CORPUS, default
# STOA_CORPUS, else this repository's own sources): each file's first 64 KiB compressed by
# gzip (gzip wrapper), pigz -z (zlib wrapper) and gzip without its 10-byte header (raw deflate
# plus trailer), each behind the two parameter bytes the targets read first. Nothing of it is
# committed.

FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
FUZZ_CORPUS ?= $(STOA_CORPUS)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LIB_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_NAMES := $(basename $(notdir $(wildcard fuzz/fuzz_*.c)))
FUZZ_PROGS := $(addprefix $(FUZZ_BUILD)/,$(FUZZ_NAMES))
FUZZ_LIB := $(FUZZ_BUILD)/lib/libstoa.a

.PHONY: fuzz fuzz-lib
# The sub-make that builds the instrumented library (STOA_FUZZ_LIB=1) must not see the rule
# that calls it.
ifneq ($(STOA_FUZZ_LIB),1)
fuzz: $(FUZZ_PROGS) $(FUZZ_BUILD)/seeds/.done

# A separate make run, so the library objects get the fuzzing compiler and flags.
fuzz-lib:
	@$(MAKE) --no-print-directory STOA_FUZZ_LIB=1 CC=$(FUZZ_CC) SAN=0 \
		BUILD=$(FUZZ_BUILD)/lib CFLAGS="$(FUZZ_LIB_CFLAGS)" $(FUZZ_LIB)

$(FUZZ_LIB): fuzz-lib
endif

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_LIB) | fuzz-lib
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 $(WARN) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -Iinclude -Icommon -I. \
		$< $(FUZZ_LIB) -o $@

$(FUZZ_BUILD)/seeds/.done: fuzz/fuzz.mk
	@mkdir -p $(@D)
	@files=$$(ls -d $(FUZZ_CORPUS)/*/* 2>/dev/null | grep -v README); \
	[ -n "$$files" ] || files="$$(ls README.md tests/*.c)"; \
	for f in $$files; do \
		[ -f "$$f" ] || continue; \
		b=$$(basename "$$f"); \
		head -c 65536 "$$f" > $(@D)/.in; \
		{ printf '\001\000\000'; gzip -n -6 -c $(@D)/.in; } > $(@D)/gz_$$b; \
		{ printf '\003\017\001'; pigz -z -c $(@D)/.in; } > $(@D)/zl_$$b; \
		{ printf '\006\000\007'; gzip -n -1 -c $(@D)/.in | tail -c +11; } > $(@D)/raw_$$b; \
	done; \
	rm -f $(@D)/.in; \
	echo "fuzz seeds: $$(ls $(@D) | wc -l) files in $(@D)"; touch $@
