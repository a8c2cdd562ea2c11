/* hostdev_case.h - the case file of cpusim's host+device mode (private to
 * the cpusim plugin).
 *
 * In host+device mode the sample's own tiling function decides the block
 * count, the tiling data, the tiling key and the workspace, so the kernel
 * executable is told the case itself, one item per line:
 *
 *   input  <name> <dtype> <d0,d1,...|scalar> <path>     (kernel order)
 *   output <name> <dtype> <d0,d1,...|scalar> <path>
 *   attr   <name> <int|float|bool|str|list> <value>    (a str value is the rest
 *                                                     of the line; empty: none)
 *   soc    <soc name>
 *
 * A tensor list (an OpDef DYNAMIC input or output) has instead of its dims
 * "list:" and per member its byte offset in the file and its dims:
 * list:0x16x32,2048x8 (the harness's list= argument takes the same form).
 *
 * dtype names are npukb's (float16, float32, bfloat16, int8 ... complex64).
 * A "dtype" attribute is written as an int: the ge::DataType number; a
 * list attribute as its values separated by commas ("-" when empty). */
#ifndef NPUKB_CPUSIM_HOSTDEV_CASE_H
#define NPUKB_CPUSIM_HOSTDEV_CASE_H

#include <stddef.h>
#include <npukb/case_data.h>
#include <npukb/task.h>

int cpusim_hostdev_write_case(const char *path, const struct npukb_task *t,
			      const struct npukb_case *c, const struct npukb_case_data *d,
			      const char *soc, char *err, size_t errlen);

/* ge::DataType number of an npukb dtype, or -1. */
int cpusim_ge_datatype(enum npukb_dtype dt);

#endif
