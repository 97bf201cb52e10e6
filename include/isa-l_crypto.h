/* stoa: the isa-l_crypto umbrella header. Including it gives the whole isa-l_crypto API that stoa
 * provides; each family also has its own header under isa-l_crypto/. */
#ifndef STOA_ISAL_CRYPTO_H
#define STOA_ISAL_CRYPTO_H

#include <isa-l_crypto/isal_crypto_api.h>
#include <isa-l_crypto/types.h>

#include <isa-l_crypto/aes_keyexp.h>
#include <isa-l_crypto/aes_xts.h>
#include <isa-l_crypto/md5_mb.h>
#include <isa-l_crypto/multi_buffer.h>
#include <isa-l_crypto/sha1_mb.h>
#include <isa-l_crypto/sha256_mb.h>
#include <isa-l_crypto/sha512_mb.h>

#endif
