/* socs.h - the SoCs cpusim can model: one soc/<prefix>.conf serves every
 * SoC whose name starts with <prefix> (ascend910b.conf: ascend910b2), as
 * the harness's load_soc resolves them. */
#ifndef NPUKB_CPUSIM_SOCS_H
#define NPUKB_CPUSIM_SOCS_H

#include <stddef.h>

/* 0 when socdir holds a file for soc; else 1 with the known families
 * ("ascend310p*, ascend910b*") in known. A folder that cannot be read
 * accepts every SoC: the backend's probe says what is wrong. */
int cpusim_soc_check(const char *socdir, const char *soc, char *known, size_t len);

#endif
