/* srcloc_hide.h - compiler output as it would read against the real
 * AscendC API: the emulation's hidden source-location parameters (SrcLoc,
 * NoLoc) never reach a user's message or the classifier. */
#ifndef NPUKB_CPUSIM_SRCLOC_HIDE_H
#define NPUKB_CPUSIM_SRCLOC_HIDE_H

/* The rewrite of text (NULL gives NULL) as a malloc'd string in *out.
 * Returns 0 or -ENOMEM. */
int cpusim_srcloc_hide(const char *text, char **out);

#endif
