/* stoa: ISA-L's library-level API: the version of the ISA-L API the library provides, and the
 * mark its headers put on the per-instruction-set entry points it keeps only for old callers.
 *
 * ISAL_LIB_DEPRECATED(msg) expands to the compiler's deprecation attribute unless ISAL_UNIT_TEST
 * or ISAL_DEPRECATED_INTERNAL is defined before the first include (then to nothing), as in
 * ISA-L. */
#ifndef STOA_ISAL_API_H
#define STOA_ISAL_API_H

#if (defined(__GNUC__) || defined(__clang__)) && !defined(ISAL_UNIT_TEST) &&                       \
    !defined(ISAL_DEPRECATED_INTERNAL)
#define ISAL_LIB_DEPRECATED(message) __attribute__((deprecated(message)))
#elif defined(_MSC_VER) && !defined(ISAL_UNIT_TEST) && !defined(ISAL_DEPRECATED_INTERNAL)
#define ISAL_LIB_DEPRECATED(message) __declspec(deprecated(message))
#else
#define ISAL_LIB_DEPRECATED(message)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The ISA-L release whose API this library provides (every public function of its headers). A
 * program may define these itself before the include, as ISA-L allows. */
#ifndef ISAL_MAJOR_VERSION
#define ISAL_MAJOR_VERSION 2
#endif
#ifndef ISAL_MINOR_VERSION
#define ISAL_MINOR_VERSION 32
#endif
#ifndef ISAL_PATCH_VERSION
#define ISAL_PATCH_VERSION 1
#endif
#ifndef ISAL_MAKE_VERSION
#define ISAL_MAKE_VERSION(maj, min, patch) ((maj)*0x10000 + (min)*0x100 + (patch))
#endif
#ifndef ISAL_VERSION
#define ISAL_VERSION ISAL_MAKE_VERSION(ISAL_MAJOR_VERSION, ISAL_MINOR_VERSION, ISAL_PATCH_VERSION)
#endif
/* "2.32.1": the same numbers as a string literal. */
#define ISAL_VERSION_STR_(maj, min, patch)  #maj "." #min "." #patch
#define ISAL_VERSION_STR_X(maj, min, patch) ISAL_VERSION_STR_(maj, min, patch)
#define ISAL_VERSION_STR                                                                           \
	ISAL_VERSION_STR_X(ISAL_MAJOR_VERSION, ISAL_MINOR_VERSION, ISAL_PATCH_VERSION)

/* The version the library was built with: ISAL_VERSION_STR and ISAL_VERSION of this header as
 * the library saw it (stoa's own version is stoa_version() in <stoa.h>). */
const char *isal_get_version_str(void);
unsigned isal_get_version(void);

#ifdef __cplusplus
}
#endif

#endif
