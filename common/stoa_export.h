/* Visibility control: the library is built with -fvisibility=hidden, so a definition is exported
 * only when it carries STOA_API. Everything else (variants, tables, helpers) stays internal. */
#ifndef STOA_EXPORT_H
#define STOA_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define STOA_API __attribute__((visibility("default")))
#define STOA_ALIAS(target) __attribute__((alias(#target), visibility("default")))
#else
#define STOA_API
#endif

#endif
