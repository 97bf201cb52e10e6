/* MD5 in YMM registers: 16 messages at once (two sets of 8 dword lanes), and 8 (one set) for a
 * manager with few jobs. */
#include "hash_arch.h"

#define HV_BITS   256
#define MB_GROUPS 2
#define MB_NAME   md5_x16_avx2
#include "md5_mb_tpl.h"

#define HV_BITS   256
#define MB_GROUPS 1
#define MB_NAME   md5_x8_avx2
#include "md5_mb_tpl.h"
