/* cmd_report.h - `npukb report JOURNAL... [--json FILE] [--by task|level|all]`.
 * argv[0] is the command name. Returns the exit status: 0 done, 2 usage
 * error, 3 unreadable or invalid journal (file:line on stderr), 4 npukb
 * could not work (out of memory, cannot write the JSON file). */
#ifndef NPUKB_CMD_REPORT_H
#define NPUKB_CMD_REPORT_H

int npukb_cmd_report(int argc, char **argv);

#endif
