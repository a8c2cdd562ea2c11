/* cmd_lint.h - `npukb lint`: manifests that a trivial sample would pass. */
#ifndef NPUKB_CMD_LINT_H
#define NPUKB_CMD_LINT_H

/* argv[0] is "lint". Returns the process exit status. */
int npukb_cmd_lint(int argc, char **argv);

#endif
