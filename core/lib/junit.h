/* junit.h - JUnit XML (the Ant/Jenkins/GitLab dialect) from a run's
 * results (private). One <testsuite> per task; per sample a <testcase>
 * "build" (the build's time and verdict), then one per case; failure
 * types are DESIGN.md's category names. */
#ifndef NPUKB_JUNIT_H
#define NPUKB_JUNIT_H

#include <stddef.h>
#include "results.h"

/* Case i of s as JUnit names it: "case-03 float16 48x128x512", a numeric
 * id zero-padded to the digits of the sample's case count (or its longest
 * numeric id), then the case's description when known. */
void npukb_junit_case_name(const struct npukb_sample_result *s, size_t i, char *buf,
			   size_t len);

int npukb_junit_write(const struct npukb_results *r, const char *path,
		      char *err, size_t errlen);

#endif
