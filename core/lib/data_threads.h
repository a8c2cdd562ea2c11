/* data_threads.h - how many threads the core's data path (input
 * generation) may use. Private to the core. */
#ifndef NPUKB_DATA_THREADS_H
#define NPUKB_DATA_THREADS_H

/* The number set last, else the CPUs online (at least 1, at most 64). */
unsigned npukb_data_threads(void);
/* 0 goes back to the CPUs online. */
void npukb_set_data_threads(unsigned n);

#endif
