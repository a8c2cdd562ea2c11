/* cmd_task.h - `npukb task new NAME`: a folder for a task of your own,
 * from the templates in <data>/plugins/skeleton/task. */
#ifndef NPUKB_CMD_TASK_H
#define NPUKB_CMD_TASK_H

/* argv[0] is "task"; template_dir holds the templates. Returns the
 * process exit status. */
int npukb_cmd_task(int argc, char **argv, const char *template_dir);

#endif
