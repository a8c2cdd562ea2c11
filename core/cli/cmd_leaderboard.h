/* cmd_leaderboard.h - `npukb leaderboard JOURNAL_OR_RUN_DIR... -o DIR`.
 * argv[0] is the command name. Returns the exit status: 0 done, 2 usage
 * error, 3 unreadable or invalid journal, 4 npukb could not work (out of
 * memory, cannot write or render the page). */
#ifndef NPUKB_CMD_LEADERBOARD_H
#define NPUKB_CMD_LEADERBOARD_H

int npukb_cmd_leaderboard(int argc, char **argv);

#endif
