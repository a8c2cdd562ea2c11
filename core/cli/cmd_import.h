/* cmd_import.h - `npukb import`: model responses in, a samples tree out
 * (ROOT/<task id>/<sample>/) that `npukb run --samples ROOT` judges. */
#ifndef NPUKB_CMD_IMPORT_H
#define NPUKB_CMD_IMPORT_H

/* argv[0] is "import". Returns the process exit status. */
int npukb_cmd_import(int argc, char **argv);

#endif
