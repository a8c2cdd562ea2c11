/* data_threads.c - the data path's thread count (data_threads.h). The data
 * a seed gives never depends on it: work is cut into fixed chunks with
 * streams of their own, whatever number of threads takes them. */
#include "data_threads.h"

#include <stdatomic.h>
#include <unistd.h>

#define DATA_THREADS_MAX 64

static atomic_uint chosen;

unsigned npukb_data_threads(void)
{
	unsigned n = atomic_load(&chosen);
	if (n == 0) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		n = online > 0 ? (unsigned)online : 1;
	}
	return n > DATA_THREADS_MAX ? DATA_THREADS_MAX : n;
}

void npukb_set_data_threads(unsigned n)
{
	atomic_store(&chosen, n);
}
