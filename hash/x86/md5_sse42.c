/* MD5 in XMM registers: 8 messages at once (two sets of 4 dword lanes), and 4 (one set) for a
 * manager with few jobs. */
#include "hash_arch.h"

#define HV_BITS   128
#define MB_GROUPS 2
#define MB_NAME   md5_x8_sse42
#include "md5_mb_tpl.h"

#define HV_BITS   128
#define MB_GROUPS 1
#define MB_NAME   md5_x4_sse42
#include "md5_mb_tpl.h"
