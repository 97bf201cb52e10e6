/* CRCs of the catalogue's check string "123456789" through ISA-L's API, against the check values
 * of the CRC catalogue (reveng): crc32_gzip_refl and crc64_ecma_refl take 0 and do the
 * inversions themselves; crc32_iscsi takes the register's start value and returns it without
 * the final inversion. */
#include <isa-l.h>
#include <stdio.h>

int main(void)
{
	const unsigned char check[] = "123456789";
	const uint32_t crc32 = crc32_gzip_refl(0, check, 9);
	const uint32_t crc32c = crc32_iscsi((unsigned char *)check, 9, 0xffffffff) ^ 0xffffffff;
	const uint64_t crc64 = crc64_ecma_refl(0, check, 9);
	printf("CRC-32 (gzip)   %08x\nCRC-32C (iSCSI) %08x\nCRC-64/XZ       %016llx\n", crc32,
	       crc32c, (unsigned long long)crc64);
	if (crc32 != 0xcbf43926 || crc32c != 0xe3069283 || crc64 != 0x995dc9bbdf1939faull) {
		printf("wrong check value\n");
		return 1;
	}
	return 0;
}
