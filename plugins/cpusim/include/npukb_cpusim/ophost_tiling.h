/* cpusim emulation of the op_host tiling-data macros: the struct macros
 * (tiling_data_def.h) and REGISTER_TILING_DATA_CLASS, which on the host
 * records the class for the harness. */
#ifndef NPUKB_CPUSIM_OPHOST_TILING_H
#define NPUKB_CPUSIM_OPHOST_TILING_H
#include "npukb_cpusim/tiling_data_def.h"

#ifdef NPUKB_CPUSIM_KERNEL_SIDE
/* The plugin passes -DNPUKB_TILING_STRUCT=npukb_tiling_reg_<OpType> so that
 * GET_TILING_DATA picks the struct registered for the plain op name. */
#define REGISTER_TILING_DATA_CLASS(Op, Name) NPUKB_TILING_EXPORT(npukb_tiling_reg_##Op, Name)
#else
#include "npukb_cpusim/ophost_registry.h"
#define REGISTER_TILING_DATA_CLASS(Op, Name)                                    \
	using npukb_tiling_reg_##Op = Name;                                          \
	static const int npukb_tdreg_##Op = ::npukb_ophost::register_tiling_class(   \
		#Op, #Name, sizeof(Name));
#endif
#endif
