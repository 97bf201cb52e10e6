# The zlib-compatible library, included by the top Makefile (which defines CC, CFLAGS,
# BASE_CFLAGS, LIB_LDFLAGS, BUILD and STATIC_LIB).
#
#   make              also $(BUILD)/compat/libz.so.1: zlib 1.2.13's ABI on stoa's deflate and
#                     inflate, a drop-in for the system's libz.so.1 (LD_LIBRARY_PATH)
#   $(BUILD)/libstoa_zlib.a   the same layer as an archive (with libstoa.a) for static links
#
# The layer (igzip/zlib/*.c) is not part of libstoa: libstoa exports nothing of zlib's. The
# shared library links the layer with libstoa.a, whose symbols all stay local
# (--exclude-libs), under zlib's soname and symbol versions (libz.map), so it exports zlib's
# names and nothing else. `make install` leaves it out: installing it replaces the system's zlib
# for every program, a decision for whoever installs it.

ZLIB_LAYER_SRCS := $(wildcard igzip/zlib/*.c)
ZLIB_LAYER_OBJS := $(ZLIB_LAYER_SRCS:%.c=$(BUILD)/obj/%.o)
ZLIB_COMPAT_LIB := $(BUILD)/compat/libz.so.1
ZLIB_STATIC_LIB := $(BUILD)/libstoa_zlib.a

# zlib's *64 functions and the gzFile head take 64-bit offsets on 32-bit targets too (Debian's
# zlib is built with large-file support): off_t and lseek are 64-bit in the layer.
$(ZLIB_LAYER_OBJS): BASE_CFLAGS += -D_FILE_OFFSET_BITS=64

.PHONY: zlib-compat
lib: $(ZLIB_COMPAT_LIB)
zlib-compat: $(ZLIB_COMPAT_LIB) $(ZLIB_STATIC_LIB)

$(ZLIB_COMPAT_LIB): $(ZLIB_LAYER_OBJS) $(STATIC_LIB) igzip/zlib/libz.map
	@mkdir -p $(@D)
	$(Q)$(CC) -shared -Wl,-soname,libz.so.1 -Wl,--version-script=igzip/zlib/libz.map \
		-Wl,--exclude-libs,ALL $(LIB_LDFLAGS) $(LDFLAGS) $(ZLIB_LAYER_OBJS) $(STATIC_LIB) -o $@

$(ZLIB_STATIC_LIB): $(ZLIB_LAYER_OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

# Its tests (tests/test_zlib_*.c, tests/test_zlib_*.sh): the programs are built against the
# system's zlib.h and -lz like any zlib program and run on $(ZLIB_COMPAT_LIB); the reference
# zlib answers from a process of its own, $(TEST_DIR)/zlib_peer, on the system's libz.
ZLIB_TEST_PROGS := $(addprefix $(TEST_DIR)/,$(filter test_zlib_%,$(TEST_NAMES)))
ZLIB_PEER := $(TEST_DIR)/zlib_peer

$(ZLIB_TEST_PROGS): $(TEST_OBJ_DIR)/zlib_testutil.o

$(ZLIB_PEER): tests/zlib_peer.c tests/zlib_peer.h tests/zlib_script.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) $< -lz -ldl -o $@

tests: $(ZLIB_PEER)
run-tests: $(ZLIB_COMPAT_LIB) $(ZLIB_PEER)

# The differential fuzz target (fuzz/fuzz_zlib.c): the layer rebuilt for the fuzzer beside the
# instrumented libstoa.a (fuzz/fuzz.mk), and the reference process beside it, uninstrumented on
# the system's zlib.
FUZZ_ZLIB_LIB := $(FUZZ_BUILD)/lib/libstoa_zlib.a
FUZZ_ZLIB_PEER := $(FUZZ_BUILD)/zlib_peer

.PHONY: fuzz-zlib-lib
ifneq ($(STOA_FUZZ_LIB),1)
fuzz: $(FUZZ_ZLIB_PEER)

fuzz-zlib-lib: fuzz-lib
	@$(MAKE) --no-print-directory STOA_FUZZ_LIB=1 CC=$(FUZZ_CC) SAN=0 \
		BUILD=$(FUZZ_BUILD)/lib CFLAGS="$(FUZZ_LIB_CFLAGS)" $(FUZZ_ZLIB_LIB)

$(FUZZ_ZLIB_LIB): fuzz-zlib-lib
endif

$(FUZZ_BUILD)/fuzz_zlib: fuzz/fuzz_zlib.c tests/zlib_peer.h tests/zlib_script.h $(FUZZ_LIB) \
		$(FUZZ_ZLIB_LIB) | fuzz-lib fuzz-zlib-lib
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 $(WARN) -O1 -g -D_DEFAULT_SOURCE -fsanitize=fuzzer $(FUZZ_SAN) \
		-Iinclude -Icommon -I. $< $(FUZZ_ZLIB_LIB) $(FUZZ_LIB) -o $@

$(FUZZ_ZLIB_PEER): tests/zlib_peer.c tests/zlib_peer.h tests/zlib_script.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 $(WARN) -O1 -g -D_DEFAULT_SOURCE $< -lz -ldl -o $@

# The zlib API's benchmark cases (perf/perf_zlib.c) open $(ZLIB_COMPAT_LIB) beside the driver.
perfs: $(ZLIB_COMPAT_LIB)
