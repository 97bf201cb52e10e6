# The benchmark drivers and the report; included by the top Makefile.
#
#   make perfs         $(BUILD)/stoa_perf (stoa), $(BUILD)/stoa_perf_isal_system (the system's
#                      ISA-L, when its headers and library are installed),
#                      $(BUILD)/stoa_perf_isal_upstream (an upstream ISA-L build tree at
#                      ISAL_UPSTREAM, when present), and $(BUILD)/perf_report_writer
#   make perf_report   runs them all, interleaved function by function, and writes
#                      perf_report_<host>_<date>.txt and .html in the repository root
#                      (perf/perf_report.sh); FULL=1 for every variant, size and input
#   make perf_classes  the CPU-class table (perf/class_bench.sh): each class this CPU can run, stoa
#                      under the class's STOA_ISA cap against ISA-L's entry points for the class;
#                      writes perf_classes_<host>_<date>.txt (CLASS_* variables: see the script)
#   make perf_classes_pair   the same cells, each library's code for the class timed in one
#                      process in rotating turns (CLASS_PAIR in perf/class_bench.sh)
#   PERF_ARGS="--sizes 4K"   extra driver options for perf_report;
#                            PERF_TIME sets the timing (quick: --time 100 --reps 100 per row, full:
#                            --time 200 --reps 200), PERF_ROUNDS how many times the whole sequence
#                            runs (quick 1, full 2); PERF_COLD, PERF_THREADS(_CASES) below
#   STOA_CORPUS=dir          the igzip cases' corpora (calgary/, canterbury/ under dir; default
#                            ../shared/corpus beside the repository); PERF_IGZIP_TIME and
#                            PERF_IGZIP_MIX_TIME their timing; PERF_CLI=n skips the igzip
#                            command benchmark (perf/cli_bench.sh)
#
# The three drivers are one source tree built three ways. Nothing of ISA-L's is kept here: the
# upstream tree is only pointed at through ISAL_UPSTREAM.

ISAL_UPSTREAM ?= /tmp/isa-l
ISAL_CRYPTO_UPSTREAM ?= /tmp/isa-l_crypto
ZLIBNG ?= /tmp/levels_zng
PERF_ARGS ?=
# The default run is the quick selection (stoa_perf --quick: each library's public function and
# the peers, fewer sizes and igzip inputs, one round); FULL=1 runs every variant, size and input
# in two rounds.
FULL ?= 0
ifeq ($(FULL),1)
# 1 ms repetitions: on a shared machine most 5 ms ones are interrupted (the best of 40 swung by
# 20%), while the best of 200 short ones holds within a few percent.
PERF_TIME ?= --time 200 --reps 200
PERF_ROUNDS ?= 2
else
PERF_TIME ?= --time 100 --reps 100
PERF_ROUNDS ?= 1
endif
# Cases measured again with --cold (buffers beyond the last-level cache) and with more threads:
# --filter patterns, comma-separated (one naming a single case, with its parameters, runs as it
# is). PERF_THREADS: the thread counts (default the online CPUs, when more than one).
PERF_COLD ?= raid,ec_encode_data 10+4 encode,=crc32_iscsi
PERF_THREADS ?= $(filter-out 1,$(shell getconf _NPROCESSORS_ONLN 2>/dev/null))
PERF_THREADS_CASES ?= =crc32_iscsi,ec_encode_data 10+4 encode,sha256_mb jobs=16,=XTS_AES_128_enc,\
isal_inflate_stateless calgary.cat zlib-6,isal_deflate_stateless calgary.cat level=1$$

PERF_REPORT_SRCS := $(wildcard perf/report*.c)
# perf/zlib_pair.c is a program of its own (below).
PERF_SRCS := $(filter-out $(PERF_REPORT_SRCS) perf/zlib_pair.c,$(wildcard perf/*.c))
# The igzip functions run with their own timing (their calls take milliseconds), the mix with a
# few repetitions of one call each; the igzip command benchmark is perf/cli_bench.sh.
PERF_IGZIP_TIME ?= --time 60 --reps 12
PERF_IGZIP_MIX_TIME ?= --time 2 --reps 2
PERF_CLI ?= y
# The round-trip table (perf/perf_roundtrip.c, stoa_perf --roundtrip in each driver): n skips it.
PERF_ROUNDTRIP ?= y
# The CPU-class table (perf/class_bench.sh) inside the report: y or n; and its paired form
# (CLASS_PAIR: both libraries in one process, on build/libstoa.so), y or n.
PERF_CLASSES ?= y
PERF_CLASSES_PAIR ?= y
PERF_HDRS := $(wildcard perf/*.h)
# The library's own include paths and hidden visibility stay out: each build names the
# headers of the library it measures.
PERF_CFLAGS = $(CFLAGS) $(filter-out -I% -fvisibility=hidden,$(BASE_CFLAGS)) -D_GNU_SOURCE \
	$(CORPUS_FLAGS)
PERF_LDLIBS := -lpthread -Wl,-z,noexecstack

PERF_STOA := $(BUILD)/stoa_perf
PERF_SYSTEM := $(BUILD)/stoa_perf_isal_system
PERF_UPSTREAM := $(BUILD)/stoa_perf_isal_upstream
PERF_WRITER := $(BUILD)/perf_report_writer
PERF_CRYPTO := $(BUILD)/stoa_perf_isal_crypto
# stoa's libz.so.1 against zlib-ng's compat build in paired, alternating runs (perf/zlib_pair.c).
PERF_ZLIB_PAIR := $(BUILD)/zlib_pair
PERF_CRYPTO_SRCS := perf/stoa_perf.c perf/perf_clock.c perf/perf_registry.c perf/perf_hash.c \
	perf/perf_aes.c perf/perf_class.c perf/perf_pair.c

# The probes below run only when a perf target is asked for, so other builds do not pay for them.
PERF_GOALS := $(filter perfs perf_report perf_classes perf_classes_pair $(BUILD)/stoa_perf% $(BUILD)/perf_report% \
	$(PERF_ZLIB_PAIR),\
	$(MAKECMDGOALS))
ifneq ($(PERF_GOALS),)
# zlib is the peer of crc32_gzip_refl, measured in the stoa build when its header is there.
PERF_HAVE_ZLIB := $(shell $(CC) -E -include zlib.h -x c /dev/null >/dev/null 2>&1 && echo y)
PERF_ZLIB_FLAGS := $(if $(PERF_HAVE_ZLIB),-DPERF_HAVE_ZLIB)
PERF_ZLIB_LIBS := $(if $(PERF_HAVE_ZLIB),-lz)
# OpenSSL's libcrypto is the peer of the hash and AES-XTS cases, likewise.
PERF_HAVE_OPENSSL := $(shell $(CC) -E -include openssl/evp.h -x c /dev/null >/dev/null 2>&1 && echo y)
PERF_OPENSSL_FLAGS := $(if $(PERF_HAVE_OPENSSL),-DPERF_HAVE_OPENSSL)
PERF_OPENSSL_LIBS := $(if $(PERF_HAVE_OPENSSL),-lcrypto)
# libdeflate is the igzip cases' other peer. zlib and libdeflate are also linked into the ISA-L
# builds, only to compress the inflate cases' inputs and to check deflate's output.
PERF_HAVE_LIBDEFLATE := $(shell $(CC) -E -include libdeflate.h -x c /dev/null >/dev/null 2>&1 && echo y)
PERF_IGZIP_FLAGS := $(PERF_ZLIB_FLAGS) $(if $(PERF_HAVE_LIBDEFLATE),-DPERF_HAVE_LIBDEFLATE)
PERF_IGZIP_LIBS := $(PERF_ZLIB_LIBS) $(if $(PERF_HAVE_LIBDEFLATE),-ldeflate)
# zlib-ng (its native zng_ API, so it links beside zlib) for the round-trip table
# (perf/perf_roundtrip.c), stoa build only: a build tree at ZLIBNG with zlib-ng.h and libz-ng.a.
# Its kernels' names (adler32_avx2 ...) are also stoa's, so the archive is linked as one object
# in which only the zng_ API stays global.
PERF_ZNG_OK := $(and $(wildcard $(ZLIBNG)/zlib-ng.h),$(wildcard $(ZLIBNG)/libz-ng.a))
PERF_ZNG_FLAGS := $(if $(PERF_ZNG_OK),-DPERF_HAVE_ZLIBNG -I$(ZLIBNG))
PERF_ZNG_LIBS := $(if $(PERF_ZNG_OK),$(BUILD)/perf/zlib-ng.o)

PERF_STOA_GIT := $(shell git describe --always --dirty 2>/dev/null)
PERF_STOA_FLAGS = \
	-DPERF_LIB_DESCRIBE='"static $(STATIC_LIB)$(if $(PERF_STOA_GIT), of git $(PERF_STOA_GIT))"'

# The system ISA-L (Debian's libisal-dev): headers in /usr/include/isa-l, -lisal. Older
# releases lack crc64_rocksoft_*; the header decides.
PERF_SYS_INC := /usr/include/isa-l
PERF_SYS_SO := $(shell $(CC) -print-file-name=libisal.so 2>/dev/null)
PERF_SYS_OK := $(and $(wildcard $(PERF_SYS_INC)/crc.h),$(filter /%,$(PERF_SYS_SO)))
PERF_SYS_VERSION := $(shell sed -n 's/^.define ISAL_M[AI][JN]OR_VERSION *\([0-9]*\).*/\1/p' \
	/usr/include/isa-l.h 2>/dev/null | paste -sd. -)
PERF_SYS_PKG := $(shell dpkg-query -W -f '$${Package} $${Version}' libisal2 2>/dev/null)
PERF_SYS_FLAGS = -DPERF_LIB_ISAL -DPERF_LIBRARY='"isa-l $(or $(PERF_SYS_VERSION),system)"' \
	-DPERF_LIB_DESCRIBE='"$(if $(PERF_SYS_PKG),Debian package $(PERF_SYS_PKG))"' \
	$(if $(shell grep -s -l crc64_rocksoft $(PERF_SYS_INC)/crc64.h),,-DPERF_NO_CRC64_ROCKSOFT)

# Upstream isa-l_crypto, likewise (include/isa-l_crypto/*.h, bin/isa-l_crypto.a): the peer of
# the hash and AES cases, through a build of the driver with only the crypto modules.
PERF_CRYPTO_OK := $(and $(wildcard $(ISAL_CRYPTO_UPSTREAM)/include/isa-l_crypto/aes_xts.h), \
	$(wildcard $(ISAL_CRYPTO_UPSTREAM)/bin/isa-l_crypto.a))
PERF_CRYPTO_DESCRIBE := $(shell git -C $(ISAL_CRYPTO_UPSTREAM) describe --tags --always --dirty \
	2>/dev/null)
PERF_CRYPTO_FLAGS = -DPERF_LIB_ISAL -DPERF_LIB_ISAL_CRYPTO -DPERF_LIBRARY='"isa-l_crypto"' \
	-DPERF_LIB_DESCRIBE='"static $(ISAL_CRYPTO_UPSTREAM)/bin/isa-l_crypto.a$(if \
	$(PERF_CRYPTO_DESCRIBE), from git $(PERF_CRYPTO_DESCRIBE))"'

# Upstream ISA-L, already built in its own tree: include/*.h and bin/isa-l.a.
PERF_UP_OK := $(and $(wildcard $(ISAL_UPSTREAM)/include/crc.h), \
	$(wildcard $(ISAL_UPSTREAM)/bin/isa-l.a))
PERF_UP_DESCRIBE := $(shell git -C $(ISAL_UPSTREAM) describe --tags --always --dirty 2>/dev/null)
PERF_UP_GIT := $(if $(PERF_UP_DESCRIBE), from git $(PERF_UP_DESCRIBE))
PERF_UP_FLAGS = -DPERF_LIB_ISAL -DPERF_ISAL_UPSTREAM -DPERF_LIBRARY='"isa-l upstream"' \
	-DPERF_LIB_DESCRIBE='"static $(ISAL_UPSTREAM)/bin/isa-l.a$(PERF_UP_GIT)"'
endif

PERF_TARGETS := $(PERF_STOA) $(PERF_WRITER) $(if $(PERF_SYS_OK),$(PERF_SYSTEM)) \
	$(if $(PERF_UP_OK),$(PERF_UPSTREAM)) $(if $(PERF_CRYPTO_OK),$(PERF_CRYPTO)) \
	$(if $(PERF_HAVE_ZLIB),$(PERF_ZLIB_PAIR))

perfs: $(PERF_TARGETS)

PERF_STOA_HDRS := $(wildcard include/*.h include/*/*.h common/*.h)
# The igzip cases are compiled in as far as the library has the functions (asked of the built
# archive, so a module under construction does not break the driver).
PERF_STOA_IGZIP = $$(nm $(STATIC_LIB) 2>/dev/null | awk '$$2 == "T" { t[$$3] = 1 } END { \
	if (!t["isal_inflate"] || !t["isal_inflate_stateless"] || !t["isal_inflate_init"]) \
		print "-DPERF_NO_INFLATE"; \
	if (!t["isal_deflate"] || !t["isal_deflate_stateless"] || !t["isal_deflate_init"] || \
	    !t["isal_deflate_stateless_init"]) print "-DPERF_NO_DEFLATE" }')

$(BUILD)/perf/zlib-ng.o: $(wildcard $(ZLIBNG)/libz-ng.a)
	@mkdir -p $(@D)
	ld -r -o $@.all --whole-archive $<
	objcopy --wildcard --keep-global-symbol='zng_*' $@.all $@
	rm -f $@.all

$(PERF_STOA): $(PERF_SRCS) $(PERF_HDRS) $(STATIC_LIB) $(PERF_STOA_HDRS) $(PERF_ZNG_LIBS)
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) -DPERF_LIB_STOA $(PERF_IGZIP_FLAGS) $(PERF_ZNG_FLAGS) $(PERF_OPENSSL_FLAGS) \
		$(PERF_STOA_FLAGS) $(PERF_STOA_IGZIP) -Iinclude/isa-l -Iinclude -Icommon \
		$(PERF_SRCS) $(STATIC_LIB) $(PERF_IGZIP_LIBS) $(PERF_ZNG_LIBS) $(PERF_OPENSSL_LIBS) \
		$(PERF_LDLIBS) -o $@

$(PERF_SYSTEM): $(PERF_SRCS) $(PERF_HDRS)
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) $(PERF_SYS_FLAGS) $(PERF_IGZIP_FLAGS) -I$(PERF_SYS_INC) $(PERF_SRCS) \
		-lisal $(PERF_IGZIP_LIBS) $(PERF_LDLIBS) -o $@

# The ISA-L drivers link copies of the static libraries whose dispatch pointers and their
# initialisers are global symbols, so that --class can set them (perf/perf_class.c); the code is
# the same.
PERF_UP_LIB := $(BUILD)/perf/isa-l.a
PERF_CRYPTO_LIB := $(BUILD)/perf/isa-l_crypto.a
PERF_GLOBALIZE = objcopy --wildcard --globalize-symbol='*_dispatched' \
	--globalize-symbol='*_dispatch_init' $< $@

$(PERF_UP_LIB): $(wildcard $(ISAL_UPSTREAM)/bin/isa-l.a)
	@mkdir -p $(@D)
	$(PERF_GLOBALIZE)

$(PERF_CRYPTO_LIB): $(wildcard $(ISAL_CRYPTO_UPSTREAM)/bin/isa-l_crypto.a)
	@mkdir -p $(@D)
	$(PERF_GLOBALIZE)

$(PERF_UPSTREAM): $(PERF_SRCS) $(PERF_HDRS) $(PERF_UP_LIB)
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) $(PERF_UP_FLAGS) $(PERF_IGZIP_FLAGS) -I$(ISAL_UPSTREAM)/include \
		$(PERF_SRCS) $(PERF_UP_LIB) $(PERF_IGZIP_LIBS) $(PERF_LDLIBS) -o $@

$(PERF_CRYPTO): $(PERF_CRYPTO_SRCS) $(PERF_HDRS) $(PERF_CRYPTO_LIB)
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) $(PERF_CRYPTO_FLAGS) -I$(ISAL_CRYPTO_UPSTREAM)/include \
		$(PERF_CRYPTO_SRCS) $(PERF_CRYPTO_LIB) $(PERF_LDLIBS) -o $@

$(PERF_ZLIB_PAIR): perf/zlib_pair.c
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) $< -lz -ldl -o $@

$(PERF_WRITER): $(PERF_REPORT_SRCS) perf/report.h
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) $(PERF_REPORT_SRCS) -lm -o $@

PERF_HOST = $(shell uname -n | cut -d. -f1)
PERF_DATE = $(shell date +%Y-%m-%d)

# stoa's igzip command, for perf/cli_bench.sh, once programs/ has it. Built by the recipe, so
# a command that does not build yet costs its rows only.
PERF_IGZIP_CMD := $(if $(wildcard programs/igzip.c),$(BUILD)/igzip)

# perf/perf_report.sh runs the drivers (function by function, each in every driver) and the
# commands, then the writer; everything it needs comes through the environment.
perf_report: perfs $(SHARED_LIB)
	@if [ -n "$(PERF_IGZIP_CMD)" ] && [ "$(PERF_CLI)" = y ]; then \
		$(MAKE) --no-print-directory $(PERF_IGZIP_CMD) >&2 || true; fi
	@drivers="$(PERF_STOA):stoa"; notes=""; \
	if [ -n "$(PERF_SYS_OK)" ]; then drivers="$$drivers $(PERF_SYSTEM):system"; \
	else notes="system ISA-L: not available (no $(PERF_SYS_INC)/crc.h or libisal.so)"; fi; \
	if [ -n "$(PERF_UP_OK)" ]; then drivers="$$drivers $(PERF_UPSTREAM):upstream"; \
	else notes="$${notes:+$$notes;}isa-l upstream: not available (no built tree at \
	ISAL_UPSTREAM=$(ISAL_UPSTREAM))"; fi; \
	if [ -n "$(PERF_CRYPTO_OK)" ]; then drivers="$$drivers $(PERF_CRYPTO):crypto"; \
	else notes="$${notes:+$$notes;}isa-l_crypto: not available (no built tree at \
	ISAL_CRYPTO_UPSTREAM=$(ISAL_CRYPTO_UPSTREAM))"; fi; \
	DIR=$(BUILD)/perf OUT=perf_report_$(PERF_HOST)_$(PERF_DATE) DRIVERS="$$drivers" \
	NOTES="$$notes" WRITER=$(PERF_WRITER) IGZIP_CMD="$(PERF_IGZIP_CMD)" FULL="$(FULL)" \
	PERF_TIME="$(PERF_TIME)" PERF_ROUNDS="$(PERF_ROUNDS)" PERF_ARGS="$(PERF_ARGS)" \
	PERF_COLD="$(PERF_COLD)" PERF_THREADS="$(PERF_THREADS)" \
	PERF_THREADS_CASES="$(PERF_THREADS_CASES)" PERF_IGZIP_TIME="$(PERF_IGZIP_TIME)" \
	PERF_IGZIP_MIX_TIME="$(PERF_IGZIP_MIX_TIME)" PERF_CLI="$(PERF_CLI)" PERF_ROUNDTRIP="$(PERF_ROUNDTRIP)" \
	PERF_CLASSES="$(PERF_CLASSES)" PERF_CLASSES_PAIR="$(PERF_CLASSES_PAIR)" STOA_SO="$(SHARED_LIB)" \
	ISAL_UPSTREAM_SO="$(wildcard $(ISAL_UPSTREAM)/bin/libisal.so.2)" \
	STOA_CORPUS="$(STOA_CORPUS)" HOST="$(PERF_HOST)" DATE="$(PERF_DATE)" \
	sh perf/perf_report.sh

# The paired form (CLASS_PAIR: the ISA-L drivers time stoa's shared library in the same process,
# perf/perf_pair.c): perf_classes_pair_<host>_<date>.txt. CLASS_GROUPS, CLASS_ONLY as above.
perf_classes_pair: perfs $(SHARED_LIB)
	STOA_CORPUS="$(STOA_CORPUS)" CLASS_PAIR=$(SHARED_LIB) perf/class_bench.sh $(BUILD)/perf/classes_pair $(PERF_STOA) \
		$(if $(PERF_UP_OK),$(PERF_UPSTREAM),-) $(if $(PERF_CRYPTO_OK),$(PERF_CRYPTO),-) \
		> perf_classes_pair_$(PERF_HOST)_$(PERF_DATE).txt
	@cat perf_classes_pair_$(PERF_HOST)_$(PERF_DATE).txt

perf_classes: perfs
	STOA_CORPUS="$(STOA_CORPUS)" perf/class_bench.sh $(BUILD)/perf/classes $(PERF_STOA) \
		$(if $(PERF_UP_OK),$(PERF_UPSTREAM),-) $(if $(PERF_CRYPTO_OK),$(PERF_CRYPTO),-) \
		> perf_classes_$(PERF_HOST)_$(PERF_DATE).txt
	@cat perf_classes_$(PERF_HOST)_$(PERF_DATE).txt
