/* cmd_question.h - `npukb question`: the question a model is given. */
#ifndef NPUKB_CMD_QUESTION_H
#define NPUKB_CMD_QUESTION_H

/* argv[0] is "question". Returns the process exit status. */
int npukb_cmd_question(int argc, char **argv);

#endif
