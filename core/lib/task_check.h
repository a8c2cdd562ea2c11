/* task_check.h - what `npukb validate` checks beyond the schema and the
 * loader: the reference function exists (in its plugin, when it has one), and no case needs a tensor
 * larger than a ceiling (a typo of a few digits would otherwise ask the
 * machine for terabytes at run time). Private. */
#ifndef NPUKB_TASK_CHECK_H
#define NPUKB_TASK_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <npukb/task.h>

/* 2^31 elements: four times the largest tensor of the published cases
 * (StridesliceNegConcatV2, 2^29). */
#define NPUKB_DEFAULT_MAX_ELEMENTS (UINT64_C(1) << 31)

/* 0 when t passes; else -EINVAL with every problem found in err
 * ("path: ..." lines). A reference plugin that is not built yet is no
 * problem: note says so (empty otherwise), and its function is checked
 * once the file exists. */
int npukb_task_check(const struct npukb_task *t, uint64_t max_elements, char *err,
		     size_t errlen, char *note, size_t notelen);

#endif
