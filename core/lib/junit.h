/* junit.h - JUnit XML (the Ant/Jenkins/GitLab dialect) from a run's
 * results (private). One <testsuite> per task, one <testcase> per
 * (sample, case); failure types are DESIGN.md's category names. */
#ifndef NPUKB_JUNIT_H
#define NPUKB_JUNIT_H

#include <stddef.h>
#include "results.h"

int npukb_junit_write(const struct npukb_results *r, const char *path,
		      char *err, size_t errlen);

#endif
