/* parallel.c - the data path's loop runner (npukb/parallel.h). */
#include <npukb/parallel.h>

#include "data_threads.h"

#include <pthread.h>

struct part_job {
	npukb_range_fn fn;
	void *ctx;
	unsigned part;
	size_t begin, end;
};

static void *part_thread(void *arg)
{
	const struct part_job *j = arg;
	j->fn(j->ctx, j->part, j->begin, j->end);
	return NULL;
}

unsigned npukb_parallel_parts(size_t n, size_t min_per_part)
{
	unsigned threads = npukb_data_threads(), parts;
	size_t by_size;
	if (min_per_part == 0)
		min_per_part = 1;
	by_size = n / min_per_part;
	parts = threads < NPUKB_PARALLEL_MAX_PARTS ? threads : NPUKB_PARALLEL_MAX_PARTS;
	if (by_size < parts)
		parts = (unsigned)by_size;
	return parts ? parts : 1;
}

void npukb_parallel_run(size_t n, unsigned parts, npukb_range_fn fn, void *ctx)
{
	struct part_job jobs[NPUKB_PARALLEL_MAX_PARTS];
	pthread_t tids[NPUKB_PARALLEL_MAX_PARTS];
	int started[NPUKB_PARALLEL_MAX_PARTS] = { 0 };
	unsigned p;

	if (parts < 1)
		parts = 1;
	if (parts > NPUKB_PARALLEL_MAX_PARTS)
		parts = NPUKB_PARALLEL_MAX_PARTS;
	for (p = 0; p < parts; p++) {
		/* n*p/parts without overflow for any size_t n */
		size_t b = n / parts * p + n % parts * p / parts;
		size_t e = n / parts * (p + 1) + n % parts * (p + 1) / parts;
		jobs[p] = (struct part_job){ fn, ctx, p, b, e };
	}
	for (p = 1; p < parts; p++)
		started[p] = pthread_create(&tids[p], NULL, part_thread, &jobs[p]) == 0;
	part_thread(&jobs[0]);
	for (p = 1; p < parts; p++) {
		if (started[p])
			pthread_join(tids[p], NULL);
		else
			part_thread(&jobs[p]);
	}
}
