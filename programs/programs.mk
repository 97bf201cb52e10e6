# Command-line programs, included by the top Makefile (which defines CC, CFLAGS, BASE_CFLAGS,
# BUILD, STATIC_LIB, VERSION and the install directories).
#
#   make programs    $(BUILD)/igzip, the gzip-compatible command on stoa's deflate
#
# `make` (all) builds it; `make test` runs tests/test_igzip.sh against it; `make install` puts it
# in $(BINDIR) and its man page in $(PREFIX)/share/man/man1.

PROGRAM_SRCS := $(wildcard programs/*.c)
PROGRAM_HDRS := $(wildcard programs/*.h)
IGZIP_PROG := $(BUILD)/igzip
MANDIR ?= $(PREFIX)/share/man

.PHONY: programs install-programs uninstall-programs
all: programs
programs: $(IGZIP_PROG)

# The program uses only the public API, so it sees the installed layout (-Iinclude) and links the
# static library: the binary does not depend on where libstoa.so ends up. 64-bit file offsets on
# every target: with a 32-bit off_t (i686, armhf) stat fails with EOVERFLOW on files over 2 GiB,
# and igzip -r on any directory whose inode numbers do not fit.
$(IGZIP_PROG): $(PROGRAM_SRCS) $(PROGRAM_HDRS) $(STATIC_LIB)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(BASE_CFLAGS) -D_FILE_OFFSET_BITS=64 -DIGZIP_VERSION='"$(VERSION)"' \
		-pthread $(LDFLAGS) $(PROGRAM_SRCS) $(STATIC_LIB) -o $@

run-tests: $(IGZIP_PROG)

install: install-programs
uninstall: uninstall-programs

install-programs: $(IGZIP_PROG)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(IGZIP_PROG) $(DESTDIR)$(BINDIR)/igzip
	install -m 644 programs/igzip.1 $(DESTDIR)$(MANDIR)/man1/igzip.1

uninstall-programs:
	rm -f $(DESTDIR)$(BINDIR)/igzip $(DESTDIR)$(MANDIR)/man1/igzip.1
