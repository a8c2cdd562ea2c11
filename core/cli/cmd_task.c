/* cmd_task.c - `npukb task new NAME [-o DIR]`: write a task folder (task.xml,
 * the reference plugin's source and Makefile, an answer) from the
 * skeleton task's templates, renamed after the task. */
#include "cmd_task.h"

#include "fsutil.h"

#include <npukb/util.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char task_usage[] =
	"Usage: npukb task new NAME [-o DIR]\n"
	"Write a folder for a task of your own, judged without rebuilding npukb:\n"
	"  task.xml          the manifest: kernel, tensors, tiling, one example case\n"
	"                    (and a commented one taking golden .npy files)\n"
	"  NAME_ref.c        the reference plugin computing the expected outputs\n"
	"  Makefile          builds NAME_ref.so with pkg-config npukb\n"
	"  answer/name.cpp   the expert answer (a plain kernel to replace)\n"
	"NAME is the task's name in CamelCase (e.g. MyScale: id level1/Custom/MyScale,\n"
	"kernel and reference function my_scale, plugin my_scale_ref).\n"
	"  -o, --output DIR  the folder to create (default: ./NAME); it must not\n"
	"                    exist, or be empty\n"
	"Then: make -C DIR; npukb validate DIR/task.xml; npukb run --task DIR\n"
	"(and --sample SAMPLE_DIR for a kernel of yours). Exit status 2 for a bad\n"
	"NAME or option, 3 when DIR is not empty, 4 when a file cannot be written.\n";

/* MyScale -> my_scale: an underscore before a capital that follows a
 * lower-case letter or a digit, then all lower case. */
static int snake_of(const char *name, char *out, size_t len)
{
	size_t o = 0;

	if (!isalpha((unsigned char)name[0]))
		return -EINVAL;
	for (size_t i = 0; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];
		if (!isalnum(c) || c > 127)
			return -EINVAL;
		if (isupper(c) && i > 0 &&
		    (islower((unsigned char)name[i - 1]) || isdigit((unsigned char)name[i - 1])))
			out[o++] = '_';
		if (o + 2 >= len)
			return -EINVAL;
		out[o++] = (char)tolower(c);
	}
	out[o] = '\0';
	return 0;
}

/* text with every "Skeleton" made name and every "skeleton" snake. */
static char *renamed(const char *text, const char *name, const char *snake)
{
	size_t cap = strlen(text) * 2 + 64, o = 0, nl = strlen(name), sl = strlen(snake);
	char *out;

	if (nl > 64 || sl > 64)
		return NULL;
	out = malloc(cap + 1);
	for (const char *p = text; out && *p;) {
		if (o + 64 >= cap) {
			char *grown = realloc(out, cap * 2 + 1);
			if (!grown) {
				free(out);
				return NULL;
			}
			out = grown;
			cap *= 2;
		}
		if (strncmp(p, "Skeleton", 8) == 0) {
			memcpy(out + o, name, nl);
			o += nl;
			p += 8;
		} else if (strncmp(p, "skeleton", 8) == 0) {
			memcpy(out + o, snake, sl);
			o += sl;
			p += 8;
		} else {
			out[o++] = *p++;
		}
	}
	if (out)
		out[o] = '\0';
	return out;
}

static int write_one(const char *template_dir, const char *rel, const char *dst_name,
		     const char *dir, const char *name, const char *snake)
{
	char *src = NULL, *dst_rel = NULL, *dst = NULL, *text = NULL, *out = NULL;
	int rc = -ENOMEM;

	if (asprintf(&src, "%s/%s", template_dir, rel) < 0) {
		src = NULL;
		goto out;
	}
	rc = npukb_read_text(src, 1 << 20, &text);
	if (rc < 0) {
		fprintf(stderr, "npukb task new: template %s: %s\n", src, strerror(-rc));
		goto out;
	}
	rc = -ENOMEM;
	dst_rel = renamed(dst_name, name, snake);
	out = renamed(text, name, snake);
	if (!dst_rel || !out || asprintf(&dst, "%s/%s", dir, dst_rel) < 0) {
		dst = NULL;
		goto out;
	}
	rc = npukb_write_file(dst, out, strlen(out));
	if (rc < 0)
		fprintf(stderr, "npukb task new: %s: %s\n", dst, strerror(-rc));
	else
		printf("  %s\n", dst);
out:
	if (rc == -ENOMEM)
		fprintf(stderr, "npukb task new: out of memory\n");
	free(src);
	free(dst_rel);
	free(dst);
	free(text);
	free(out);
	return rc;
}

static int dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int empty = 1;

	if (!d)
		return 0;
	while (empty && (de = readdir(d)))
		empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
	closedir(d);
	return empty;
}

int npukb_cmd_task(int argc, char **argv, const char *template_dir)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	/* template, file written (renamed); the Makefile's template has
	 * another name: the source tree's "Makefile"s are made by configure */
	static const char *const files[][2] = { { "task.xml", "task.xml" },
						{ "skeleton.mk", "Makefile" },
						{ "skeleton_ref.c", "skeleton_ref.c" },
						{ "answer/skeleton.cpp", "answer/skeleton.cpp" } };
	const char *dir = NULL, *name;
	char snake[128], *answer_dir = NULL;
	int c, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case 'h': fputs(task_usage, stdout); return 0;
		default: fputs(task_usage, stderr); return 2;
		}
	}
	if (argc - optind != 2 || strcmp(argv[optind], "new") != 0) {
		fputs(task_usage, stderr);
		return 2;
	}
	name = argv[optind + 1];
	if (snake_of(name, snake, sizeof(snake)) != 0 || strlen(name) > 64) {
		fprintf(stderr, "npukb task new: '%s' is not a task name: letters and digits, "
			"starting with a letter, at most 64 (e.g. MyScale)\n", name);
		return 2;
	}
	if (!dir)
		dir = name;
	if (npukb_is_file(dir) || (npukb_is_dir(dir) && !dir_is_empty(dir))) {
		fprintf(stderr, "npukb task new: %s exists and is not an empty folder; "
			"choose another with -o DIR\n", dir);
		return 3;
	}
	if (asprintf(&answer_dir, "%s/answer", dir) < 0)
		return 4;
	rc = npukb_mkdir_p(answer_dir, 0755);
	if (rc != 0) {
		fprintf(stderr, "npukb task new: cannot create %s: %s\n", answer_dir, strerror(-rc));
		free(answer_dir);
		return 4;
	}
	free(answer_dir);
	printf("task %s (level1/Custom/%s) in %s:\n", name, name, dir);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && rc == 0; i++)
		rc = write_one(template_dir, files[i][0], files[i][1], dir, name, snake);
	if (rc)
		return 4;
	printf("next: make -C %s && npukb validate %s/task.xml && npukb run --task %s\n", dir, dir,
	       dir);
	return 0;
}
