# Small programs that use the public API the way a user would (examples/*.c), included by the
# top Makefile: each is built from the installed-layout headers (include/) and the static library
# only, and make test runs them.

EXAMPLE_NAMES := $(basename $(notdir $(wildcard examples/*.c)))
EXAMPLES := $(addprefix $(BUILD)/examples/,$(EXAMPLE_NAMES))

.PHONY: examples
examples: $(EXAMPLES)

$(BUILD)/examples/%: examples/%.c $(STATIC_LIB) $(CC_STAMP)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -std=c11 $(WARN) $(SANFLAGS) -Iinclude $(LDFLAGS) $< $(STATIC_LIB) \
		-pthread -o $@
