/* run_samples.h - the samples a run judges for a task, in order: the
 * expert answer, the --sample folders, the --samples folders (private). */
#ifndef NPUKB_RUN_SAMPLES_H
#define NPUKB_RUN_SAMPLES_H

#include <stddef.h>
#include "run.h"
#include "samples.h"

struct npukb_sample_list {
	struct npukb_sample_entry *items;
	size_t n, cap;
};

/* Fills l with task t's samples; ids that would clash are made unique
 * from their folders' paths. 0, -ENOMEM, or another negative errno value
 * with err naming the folder at fault. */
int npukb_run_collect_samples(const struct npukb_run_config *cfg, const struct npukb_task *t,
			      struct npukb_sample_list *l, char *err, size_t errlen);
void npukb_sample_list_free(struct npukb_sample_list *l);

#endif
