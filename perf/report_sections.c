/* The module sections of the report, in the order they are written. */
#include "report.h"

extern const struct report_section igzip_section;
extern const struct report_section roundtrip_section;
extern const struct report_section classes_section;

const struct report_section *const sections[] = { &igzip_section, &roundtrip_section,
						  &classes_section, NULL };
