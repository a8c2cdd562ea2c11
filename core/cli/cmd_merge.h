/* cmd_merge.h - `npukb merge DIR... -o OUT`: the journals of a run's
 * shards become one run. argv[0] is the command name. Returns the exit
 * status: 0 merged, 2 usage error, 3 the shards do not make one run (which
 * folder, which field or unit, on stderr) or a journal is unreadable,
 * 4 npukb could not work (memory, writing OUT). */
#ifndef NPUKB_CMD_MERGE_H
#define NPUKB_CMD_MERGE_H

int npukb_cmd_merge(int argc, char **argv);

#endif
