/* chevron.h - kernel sources whose CCE launch syntax g++ cannot parse.
 *
 * CANN's kernel compiler accepts a host launch of a kernel,
 * `name<<<blockDim, l2ctrl, stream>>>(args...)`, and some operator
 * projects keep such a wrapper in their kernel file (under
 * #ifndef __CCE_KT_TEST__, which cpusim does not define: kernels change
 * behaviour under it). This module writes a copy of such a file in which
 * every launch reads `npukb_cpusim_chevron_launch(blockDim, l2ctrl,
 * stream), name(args...)` (declared by kernel_operator.h), so that the
 * call still type-checks; the copy starts with a #line directive naming
 * the original file, and keeps every line where it was, so diagnostics
 * and check reports point into the original. */
#ifndef NPUKB_CPUSIM_CHEVRON_H
#define NPUKB_CPUSIM_CHEVRON_H

#include <stddef.h>

/* Rewrites src into dst when src has a launch; *rewritten says whether it
 * did (dst is then written, else left alone). Returns 0 or a negative
 * errno, with a message in err. */
int chevron_rewrite(const char *src, const char *dst, int *rewritten, char *err, size_t errlen);

/* The rewrite of text (NUL-terminated), without the #line directive, as a
 * malloc'd string in *out, or NULL when text has no launch. Returns 0 or
 * -ENOMEM. */
int chevron_rewrite_text(const char *text, char **out);

/* When s[i] starts a comment or a string or character literal (raw
 * strings too), the index just after it (the end of the text if
 * unterminated); else i. kernel_source.c scans with it too. */
size_t chevron_skip_opaque(const char *s, size_t i);

#endif
