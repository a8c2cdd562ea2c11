/* cpu_debug_launch.h - the header CANN's CPU debug mode has .asc files
 * and kernel-launch mains include under #ifdef ASCENDC_CPU_DEBUG (defined
 * by cpusim's kernel_operator.h, as in that mode).
 *
 * In CANN it turns each `kernel<<<blockDim, l2ctrl, stream>>>(args)` of
 * the including file into a run of the kernel on the CPU. cpusim launches
 * the kernel itself from its own harness, compiles only the kernel part of
 * an .asc (its host functions blanked) and rewrites a launch left in a
 * kernel file (chevron.c): nothing here has to run a launch. What is left
 * is what the rest of such a file expects to be declared once the header
 * is in: the kernel API. */
#ifndef NPUKB_CPUSIM_CPU_DEBUG_LAUNCH_H
#define NPUKB_CPUSIM_CPU_DEBUG_LAUNCH_H
#include "kernel_operator.h"
#endif
