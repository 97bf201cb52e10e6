# stoa: the only build entry point. See README.md for the targets.
#
#   make                 libraries: build/libstoa.a, build/libstoa.so, and the drop-ins
#                        build/compat/libisal.so.2 and build/compat/libisal_crypto.so.2
#   make test            dependencies (installed when root), build, every test  (= make check)
#   make test SAN=1      the same under ASan + UBSan, in build-san/            (= make check-san)
#   make check-clang-san the empty-buffer and buffer-edge tests with clang's ASan + UBSan (which
#                        also reports arithmetic on NULL), on the fuzz build's library
#   make check-tsan      the concurrency test under ThreadSanitizer, in build-tsan/
#   make perfs           the benchmark driver build/stoa_perf
#   make perf_report     run every benchmark, write perf_report_<host>_<date>.{txt,html}
#   make install PREFIX=/usr/local   /   make uninstall PREFIX=/usr/local   (COMPAT=0: libstoa
#                        alone, headers under include/stoa/, without libisal.so and its names)
#   make cross-test TARGET=aarch64   also armhf, i686, s390x: build in build-<target>/, run the
#                        suite under qemu-user (scripts/cross.sh; README, "Cross builds")
#   CC=clang works for all of them (in build-clang/); V=1 prints the compiler commands.

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
# The CRC table generator runs on the build machine, so it is built by the build machine's
# compiler, whatever CC targets.
HOSTCC ?= cc

# The build folder follows the compiler: build/ for cc and gcc, build-clang/ for CC=clang (and
# build-san-clang/ ...), so that `make CC=clang` after `make` builds with clang instead of finding
# gcc's objects up to date. A folder also remembers its compiler (cc.id below), so BUILD=dir
# with another CC rebuilds everything in it.
CC_TAG := $(if $(filter cc gcc,$(notdir $(firstword $(CC)))),,-$(notdir $(firstword $(CC))))
SAN ?= 0
TSAN ?= 0
ifeq ($(SAN),1)
BUILD ?= build-san$(CC_TAG)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(TSAN),1)
BUILD ?= build-tsan$(CC_TAG)
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
else
BUILD ?= build$(CC_TAG)
SANFLAGS :=
endif
CC_ID := $(CC) $(shell $(CC) --version 2>/dev/null | head -n 1)
CC_STAMP := $(BUILD)/cc.id
ifneq ($(CC_ID),$(shell cat $(CC_STAMP) 2>/dev/null))
$(shell mkdir -p $(BUILD) && printf '%s\n' '$(CC_ID)' > $(CC_STAMP))
endif

# Compiler and linker commands are printed with V=1 only (their errors always are).
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

VERSION := 0.1.0
SOVERSION := 0

# The Calgary and Canterbury corpora (calgary/ and canterbury/ under one directory), read in place
# by the tests, the benchmark and the fuzz seeds: STOA_CORPUS from the environment, else
# ../shared/corpus beside the repository. The C programs have this default compiled in and read
# STOA_CORPUS first, so they find the corpora from any working directory; the shell tests find it
# from their own location (tests/testlib.sh).
STOA_CORPUS_DEFAULT := $(abspath ../shared/corpus)
STOA_CORPUS ?= $(STOA_CORPUS_DEFAULT)
CORPUS_FLAGS := -DSTOA_CORPUS_DEFAULT='"$(STOA_CORPUS_DEFAULT)"'

OPT ?= -O2
CFLAGS ?= $(OPT) -g
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
BASE_CFLAGS := -std=c11 $(WARN) -fPIC -fvisibility=hidden -Iinclude -Icommon -I. $(SANFLAGS)
LDFLAGS ?=
LIB_LDFLAGS := -Wl,-z,noexecstack -Wl,-z,defs $(SANFLAGS)

# The target's architecture folder (x86, arm, ...), as common/arch.h names it for this compiler
# and these flags; empty for a target with portable code only.
ARCH_DIR := $(filter-out STOA_ARCH,$(shell printf '\043include "common/arch.h"\nSTOA_ARCH\n' |     \
	$(CC) $(CFLAGS) -E -P -x c - 2>/dev/null))

# Modules in the library; each is <module>/*.c plus, for an architecture with kernels,
# <module>/<arch>/*.c (and common/<arch>/*.c, its CPU probe).
MODULES := crc raid erasure_code hash aes igzip misc
LIB_SRCS := $(wildcard common/*.c) $(foreach m,$(MODULES),$(wildcard $(m)/*.c))
ifneq ($(ARCH_DIR),)
LIB_SRCS += $(foreach m,common $(MODULES),$(wildcard $(m)/$(ARCH_DIR)/*.c))
include common/$(ARCH_DIR)/arch.mk
endif
GEN_SRCS := $(BUILD)/gen/crc_tables.c
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(GEN_SRCS:$(BUILD)/gen/%.c=$(BUILD)/obj/gen/%.o)

# Per-file instruction-set flags, chosen by the file name's suffix (ec_encode_avx512_gfni.c), so
# the library as a whole targets the architecture's baseline. The tokens are read from their one
# list, the "#define STOA_NEED_<token> (...)" lines of common/<arch>/tokens.h, as
# token=FEATURE|STOA_NEED_other|...; a token's flags are arch_flags (common/<arch>/arch.mk) of
# every feature it needs, through the tokens it builds on.
TOKENS_JOIN_LINES := -e ':a' -e '/\\$$/N; s/\\\n//; ta'
TOKENS_DEFINES := 's/^.define STOA_NEED_\([a-z0-9_]*\)[[:space:]]*(\(.*\))[[:space:]]*$$/\1=\2/p'
ARCH_TOKEN_DEFS := $(if $(ARCH_DIR),$(shell sed $(TOKENS_JOIN_LINES) common/$(ARCH_DIR)/tokens.h | \
	sed -n $(TOKENS_DEFINES) | tr -d ' \t' | sed 's/STOA_CPU_//g'))
ISA_TOKENS := $(foreach d,$(ARCH_TOKEN_DEFS),$(firstword $(subst =, ,$(d))))
$(foreach d,$(ARCH_TOKEN_DEFS),$(eval                                                              \
	TOKEN_NEED_$(firstword $(subst =, ,$(d))) := $(subst |, ,$(lastword $(subst =, ,$(d))))))
token_features = $(sort $(foreach n,$(TOKEN_NEED_$(1)),$(if $(filter STOA_NEED_%,$(n)),$(call      \
	token_features,$(patsubst STOA_NEED_%,%,$(n))),$(n))))
$(foreach t,$(ISA_TOKENS),$(eval ISA_FLAGS_$(t) := $(call arch_flags,$(call token_features,$(t)))))
isa_flags = $(foreach t,$(ISA_TOKENS),$(if $(filter %_$(t),$(basename $(notdir $(1)))),$(ISA_FLAGS_$(t))))

STATIC_LIB := $(BUILD)/libstoa.a
SHARED_LIB := $(BUILD)/libstoa.so.$(VERSION)
COMPAT_LIB := $(BUILD)/compat/libisal.so.2
COMPAT_CRYPTO_LIB := $(BUILD)/compat/libisal_crypto.so.2

.PHONY: all lib test check check-san check-tsan cross-test deps tests perfs perf_report \
	perf_classes perf_classes_pair install uninstall clean format
all: lib
lib: $(STATIC_LIB) $(SHARED_LIB) $(COMPAT_LIB) $(COMPAT_CRYPTO_LIB)

$(BUILD)/obj/%.o: %.c $(CC_STAMP)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(BASE_CFLAGS) $(call isa_flags,$<) -MMD -MP -c $< -o $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(CC_STAMP)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(BASE_CFLAGS) -Icrc -MMD -MP -c $< -o $@

# Generators run on the build host, without sanitizers.
$(BUILD)/gen/crc_gen: crc/gen/crc_gen.c
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) -O2 -std=gnu11 -Wall -Wextra -Werror $< -o $@
$(BUILD)/gen/crc_tables.c: $(BUILD)/gen/crc_gen
	$(Q)$< $@

$(STATIC_LIB): $(LIB_OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(SHARED_LIB): $(LIB_OBJS)
	$(Q)$(CC) -shared -Wl,-soname,libstoa.so.$(SOVERSION) $(LIB_LDFLAGS) $(LDFLAGS) $^ -o $@
	$(Q)ln -sf libstoa.so.$(VERSION) $(BUILD)/libstoa.so.$(SOVERSION)
	$(Q)ln -sf libstoa.so.$(SOVERSION) $(BUILD)/libstoa.so

# The drop-in library: the same objects under ISA-L's soname.
$(COMPAT_LIB): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(Q)$(CC) -shared -Wl,-soname,libisal.so.2 $(LIB_LDFLAGS) $(LDFLAGS) $^ -o $@
	$(Q)ln -sf libisal.so.2 $(BUILD)/compat/libisal.so

# The isa-l_crypto drop-in: the same objects under its soname, exporting only isa-l_crypto's names
# and stoa's own (misc/libisal_crypto.map).
$(COMPAT_CRYPTO_LIB): $(LIB_OBJS) misc/libisal_crypto.map
	@mkdir -p $(@D)
	$(Q)$(CC) -shared -Wl,-soname,libisal_crypto.so.2 -Wl,--version-script=misc/libisal_crypto.map \
		$(LIB_LDFLAGS) $(LDFLAGS) $(LIB_OBJS) -o $@
	$(Q)ln -sf libisal_crypto.so.2 $(BUILD)/compat/libisal_crypto.so

-include $(wildcard $(BUILD)/obj/*/*.d $(BUILD)/obj/*/*/*.d)

# make test: packages first (a separate make run, so a fresh machine has the headers before any
# test source is compiled), then every test. tests/tests.mk defines run-tests.
deps:
	@sh scripts/deps.sh

test check: deps
	@$(MAKE) --no-print-directory run-tests

check-san:
	@$(MAKE) --no-print-directory test SAN=1

check-tsan: deps
	@$(MAKE) --no-print-directory run-tests TSAN=1 TEST_ONLY=test_threads

# Cross builds: the script installs (as root) or names what it needs, builds with BUILD, CC and
# the target's sysroot set, and runs run-tests under qemu. The targets are the script's (one case
# line each), listed nowhere else.
cross-test:
	@sh scripts/cross.sh "$(TARGET)" test

include examples/examples.mk
include tests/tests.mk
include perf/perf.mk
include programs/programs.mk
include fuzz/fuzz.mk
include igzip/zlib/zlib.mk

# Installation.
PREFIX ?= /usr/local
DESTDIR ?=
LIBDIR ?= $(PREFIX)/lib
INCDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
PCDIR ?= $(LIBDIR)/pkgconfig
# Headers install as they are laid out under include/: top-level umbrellas and one folder per API
# family (isa-l/, isa-l_crypto/, ...).
HEADER_DIRS := $(patsubst include/%/,%,$(sort $(dir $(wildcard include/*/*.h))))
# COMPAT=0 installs libstoa alone: no libisal.so / libisal_crypto.so and their .pc files, and the
# headers under INCDIR/stoa/ (stoa.pc points there), so that ISA-L's header names do not shadow
# a distribution's ISA-L for other programs.
COMPAT ?= 1
STOA_INCDIR = $(if $(filter 0,$(COMPAT)),$(INCDIR)/stoa,$(INCDIR))
PC_SUBST = sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(STOA_INCDIR)|; \
	s|@VERSION@|$(VERSION)|'

install: lib
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR) $(DESTDIR)$(BINDIR)
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libstoa.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libstoa.so.$(SOVERSION)
	ln -sf libstoa.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libstoa.so
	install -d $(DESTDIR)$(STOA_INCDIR) $(addprefix $(DESTDIR)$(STOA_INCDIR)/,$(HEADER_DIRS))
	install -m 644 $(wildcard include/*.h) $(DESTDIR)$(STOA_INCDIR)/
	for d in $(HEADER_DIRS); do install -m 644 include/$$d/*.h $(DESTDIR)$(STOA_INCDIR)/$$d/; done
	$(PC_SUBST) stoa.pc.in > $(DESTDIR)$(PCDIR)/stoa.pc
ifneq ($(COMPAT),0)
	install -m 755 $(COMPAT_LIB) $(DESTDIR)$(LIBDIR)/libisal.so.2
	ln -sf libisal.so.2 $(DESTDIR)$(LIBDIR)/libisal.so
	install -m 755 $(COMPAT_CRYPTO_LIB) $(DESTDIR)$(LIBDIR)/libisal_crypto.so.2
	ln -sf libisal_crypto.so.2 $(DESTDIR)$(LIBDIR)/libisal_crypto.so
	$(PC_SUBST) libisal.pc.in > $(DESTDIR)$(PCDIR)/libisal.pc
	$(PC_SUBST) libisal_crypto.pc.in > $(DESTDIR)$(PCDIR)/libisal_crypto.pc
endif

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libstoa.a $(DESTDIR)$(LIBDIR)/libstoa.so*
	rm -f $(DESTDIR)$(LIBDIR)/libisal.so.2 $(DESTDIR)$(LIBDIR)/libisal.so
	rm -f $(DESTDIR)$(LIBDIR)/libisal_crypto.so.2 $(DESTDIR)$(LIBDIR)/libisal_crypto.so
	rm -f $(addprefix $(DESTDIR)$(STOA_INCDIR)/,$(patsubst include/%,%,$(wildcard include/*.h include/*/*.h)))
	-for d in $(HEADER_DIRS); do rmdir $(DESTDIR)$(STOA_INCDIR)/$$d 2>/dev/null; done
	rm -f $(DESTDIR)$(PCDIR)/stoa.pc $(DESTDIR)$(PCDIR)/libisal.pc $(DESTDIR)$(PCDIR)/libisal_crypto.pc

clean:
	rm -rf build build-san build-clang build-tsan build-fuzz build-*

# Every C file and header of the tree (library, headers, programs, perf, tests, fuzz, generators);
# the build folders hold only generated code.
FORMAT_FILES = $(filter-out build%,$(wildcard *.[ch] */*.[ch] */*/*.[ch] */*/*/*.[ch]))

format:
	clang-format -i $(FORMAT_FILES)
