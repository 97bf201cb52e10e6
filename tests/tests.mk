# Tests, included by the top Makefile (which defines CC, CFLAGS, BASE_CFLAGS, BUILD, STATIC_LIB,
# COMPAT_LIB and SANFLAGS).
#
#   make tests      every test program, in $(BUILD)/tests/
#   make run-tests  build them and the compat library, run them all; fails if any fails
#   make run-tests TEST_ONLY="test_a test_b.sh"   build and run only those programs and scripts
#
# Each tests/test_*.c is one cmocka program. Each tests/<name>_oracle.c is built twice, as
# <name>_oracle_system against the system's ISA-L and <name>_oracle_stoa against stoa, for the
# differential and drop-in tests (see the comment at the top of tests/crc_oracle.c). Test programs
# find those siblings and ../compat next to their own executable, so they run from any directory.

TEST_DIR := $(BUILD)/tests
TEST_OBJ_DIR := $(TEST_DIR)/obj
TEST_NAMES := $(basename $(notdir $(wildcard tests/test_*.c)))
TEST_PROGS := $(addprefix $(TEST_DIR)/,$(TEST_NAMES))
TEST_CFLAGS = $(CFLAGS) $(BASE_CFLAGS) -D_DEFAULT_SOURCE $(CORPUS_FLAGS)
# OpenSSL's libcrypto is the oracle of the hash and AES tests.
TEST_LDLIBS := -lcmocka -lz -lcrypto -lm -pthread
ORACLE_NAMES := $(basename $(notdir $(wildcard tests/*_oracle.c)))
ORACLES := $(foreach o,$(ORACLE_NAMES),$(TEST_DIR)/$(o)_system $(TEST_DIR)/$(o)_stoa)

# The system build must see only /usr/include's ISA-L headers, so none of stoa's -I paths; it
# keeps the warnings and sanitizers. It links the system's libisal, or with ORACLE_ISAL=compat
# (cross builds, scripts/cross.sh) stoa's compat library: then it needs only ISA-L's headers, and
# the test programs run it on the compat library alone (tests/oracle.h).
ORACLE_SYSTEM_CFLAGS = $(CFLAGS) $(filter-out -I%,$(BASE_CFLAGS)) -D_DEFAULT_SOURCE -DORACLE_SYSTEM
ORACLE_ISAL ?= system
ifeq ($(ORACLE_ISAL),compat)
ORACLE_SYSTEM_DEPS := $(COMPAT_LIB)
ORACLE_SYSTEM_LDLIBS := -L$(dir $(COMPAT_LIB)) -lisal -ldl
else
ORACLE_SYSTEM_DEPS :=
ORACLE_SYSTEM_LDLIBS := -lisal -ldl
endif

.PHONY: tests run-tests
tests: $(TEST_PROGS) $(ORACLES)

# The corpus loader reads directories with 64-bit offsets: on 32-bit targets readdir fails with
# EOVERFLOW on 64-bit inode numbers without them, and the tests fell back to generated data. Only
# there: the zlib tests compare zlib.h's z_off_t with the library's, which stays long.
$(TEST_OBJ_DIR)/testutil.o: TEST_CFLAGS += -D_FILE_OFFSET_BITS=64

$(TEST_OBJ_DIR)/%.o: tests/%.c $(CC_STAMP)
	@mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) -MMD -MP -c $< -o $@

# The shared toolkit (every tests/*.c that is neither a test_* program nor an *_oracle): an
# archive, so each program links only the parts it uses.
TEST_TOOL_SRCS := $(filter-out tests/test_%.c tests/%_oracle.c,$(wildcard tests/*.c))
TEST_TOOL_LIB := $(TEST_DIR)/libtesttool.a

$(TEST_TOOL_LIB): $(TEST_TOOL_SRCS:tests/%.c=$(TEST_OBJ_DIR)/%.o)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(TEST_PROGS): $(TEST_DIR)/%: $(TEST_OBJ_DIR)/%.o $(TEST_TOOL_LIB) $(STATIC_LIB)
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) $< $(TEST_TOOL_LIB) $(STATIC_LIB) $(TEST_LDLIBS) -o $@

$(TEST_DIR)/%_oracle_stoa: tests/%_oracle.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) -MMD -MP -MF $@.d -MT $@ $< $(STATIC_LIB) -o $@

$(TEST_DIR)/%_oracle_system: tests/%_oracle.c $(ORACLE_SYSTEM_DEPS) $(CC_STAMP)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ORACLE_SYSTEM_CFLAGS) $(LDFLAGS) $< $(ORACLE_SYSTEM_LDLIBS) -o $@

-include $(wildcard $(TEST_OBJ_DIR)/*.d $(TEST_DIR)/*.d)

# Runs every program even after a failure, so one run shows every broken test, and ends with one
# line: programs run, checks (cmocka's tests and the shell tests' checks) and failures.
# Shell tests (tests/test_*.sh) run with BUILD in their environment; the makefile that builds what
# they need adds it as a prerequisite of run-tests. TEST_JOBS of them run at a time (default: one
# per CPU), the slowest first (tests/run_tests.sh); each one's output is printed whole.
# STOA_TEST_WRAPPER in the environment (an emulator: qemu-aarch64) runs the build's programs, and
# the suite starts every program of the build it runs itself through it too.
SCRIPT_TESTS := $(wildcard tests/test_*.sh)
TEST_ONLY ?=
RUN_PROGS := $(if $(TEST_ONLY),$(addprefix $(TEST_DIR)/,$(filter-out %.sh,$(TEST_ONLY))),$(TEST_PROGS))
RUN_SCRIPTS := $(if $(TEST_ONLY),$(addprefix tests/,$(filter %.sh,$(TEST_ONLY))),$(SCRIPT_TESTS))
# The example programs (examples/examples.mk) run after the tests when everything runs.
RUN_EXAMPLES := $(if $(TEST_ONLY),,$(EXAMPLES))
TEST_LOG := $(TEST_DIR)/run-tests.log

TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
TEST_FIRST ?= test_igzip.sh test_deflate_bounds test_raid test_deflate_edges \
	test_deflate_roundtrip test_igzip_faults.sh test_ec test_inflate_roundtrip

# (A subset of programs runs without the compat library, which only the drop-in tests need.)
run-tests: $(if $(TEST_ONLY),$(RUN_PROGS) $(if $(RUN_SCRIPTS),$(COMPAT_LIB) $(COMPAT_CRYPTO_LIB)),tests $(COMPAT_LIB) $(COMPAT_CRYPTO_LIB) $(EXAMPLES))
	@STOA_TEST_FIRST="$(TEST_FIRST)" sh tests/run_tests.sh $(TEST_LOG) $(TEST_JOBS) $(BUILD) \
		$(RUN_PROGS) $(RUN_SCRIPTS) $(RUN_EXAMPLES)
