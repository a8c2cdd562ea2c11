/* machine.h - what the report says about the machine a run used (private).
 * Read from hwloc, so the figures match what the scheduler sees. */
#ifndef NPUKB_MACHINE_H
#define NPUKB_MACHINE_H

struct npukb_machine {
	unsigned packages, cores, pus;      /* 0 when hwloc could not tell */
	unsigned long long memory_bytes;
	char cpu_model[128];                /* "" when unknown */
	char os[256];                       /* "Linux 6.1.0 x86_64" */
};

/* Never fails: unknown figures stay 0 or "". */
void npukb_machine_probe(struct npukb_machine *m);

#endif
