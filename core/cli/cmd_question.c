/* cmd_question.c - `npukb question TASK [--mode kernel|hostdev]`: print the
 * question of a task in either mode; --write stores the host+device one
 * as question-hostdev.md beside the manifest. */
#include "config.h"
#include "data_path.h"

#include "cmd_question.h"

#include "catalog.h"
#include "fsutil.h"
#include "question.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NPUKB_PKGDATADIR
#define NPUKB_PKGDATADIR "/usr/local/share/npukb"
#endif

static const char usage[] =
	"Usage: npukb question [--mode kernel|hostdev] [--write] [--levels DIR] TASK...\n"
	"Print the question a model is given for TASK (e.g. level1/Math/Neg):\n"
	"  --mode kernel    the kernel-only question (question-kernel.md; the default)\n"
	"  --mode hostdev   the host+device question, derived from the manifest and the\n"
	"                   kernel-only question (operator, inputs, attributes, files)\n"
	"  --write          with --mode hostdev: write it to question-hostdev.md in the\n"
	"                   task's folder instead of printing it\n"
	"Exit status 0, 1 when a task is unknown or its question unreadable, 2 on\n"
	"usage errors.\n";

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t size = 0, n;
	char chunk[8192];
	FILE *m;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &size);
	if (!m) {
		fclose(f);
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int write_file(const char *path, const char *text)
{
	char *tmp;
	FILE *f;
	int rc = 0;

	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return -ENOMEM;
	f = fopen(tmp, "w");
	if (!f) {
		rc = -errno;
		free(tmp);
		return rc;
	}
	fputs(text, f);
	if (fclose(f) != 0)
		rc = -EIO;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

static int one_task(const struct npukb_task *t, int hostdev, int write)
{
	char *kpath = NULL, *text = NULL, *q = NULL, *out = NULL, err[512] = "";
	int rc = 0;

	if (asprintf(&kpath, "%s/question-kernel.md", t->dir) < 0)
		return 4;
	text = read_file(kpath);
	if (!text) {
		fprintf(stderr, "npukb question: %s: cannot read %s: %s\n", t->id, kpath, strerror(errno));
		rc = 1;
		goto out;
	}
	if (!hostdev) {
		fputs(text, stdout);
		goto out;
	}
	if (npukb_question_hostdev(t, text, &q, err, sizeof err) != 0) {
		fprintf(stderr, "npukb question: %s\n", err);
		rc = 1;
		goto out;
	}
	if (!write) {
		fputs(q, stdout);
		goto out;
	}
	if (asprintf(&out, "%s/question-hostdev.md", t->dir) < 0) {
		rc = 4;
		goto out;
	}
	if (write_file(out, q) != 0) {
		fprintf(stderr, "npukb question: cannot write %s: %s\n", out, strerror(errno));
		rc = 1;
	}
out:
	free(kpath);
	free(text);
	free(q);
	free(out);
	return rc;
}

int npukb_cmd_question(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "write", no_argument, NULL, 'w' },
		{ "levels", required_argument, NULL, 'D' },
		{ "plugin-dir", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *levels = NULL, *schema = NULL, err[4096] = "";
	struct npukb_catalog cat;
	int c, rc = 0, hostdev = 0, write = 0;
	size_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (strcmp(optarg, "kernel") == 0) {
				hostdev = 0;
			} else if (strcmp(optarg, "hostdev") == 0) {
				hostdev = 1;
			} else {
				fprintf(stderr, "npukb question: --mode: invalid value '%s' (kernel or hostdev)\n",
					optarg);
				rc = 2;
			}
			break;
		case 'w': write = 1; break;
		case 'D': free(levels); levels = strdup(optarg); break;
		case 'P': break; /* accepted like every command; no plugin is loaded */
		case 'h': fputs(usage, stdout); free(levels); return 0;
		default: rc = 2; break;
		}
	}
	if (rc == 0 && optind >= argc) {
		fputs("npukb question: no task given\n", stderr);
		rc = 2;
	}
	if (rc == 0 && write && !hostdev) {
		fputs("npukb question: --write needs --mode hostdev (question-kernel.md is written by hand)\n",
		      stderr);
		rc = 2;
	}
	if (rc) {
		fputs("Try 'npukb question --help'.\n", stderr);
		free(levels);
		return rc;
	}
	if (!levels)
		levels = npukb_data_path("levels");
	if (!levels || asprintf(&schema, "%s/schema/task.rng", levels) < 0) {
		free(levels);
		return 4;
	}
	rc = npukb_catalog_load(&cat, levels, schema, 0, (const char *const *)(argv + optind), err,
				sizeof err);
	if (rc) {
		fprintf(stderr, "npukb question: %s\n", err);
		free(levels);
		free(schema);
		return 3;
	}
	for (i = 0; i < cat.nerrors; i++)
		fprintf(stderr, "%s\n", cat.errors[i].message);
	for (int a = optind; a < argc; a++) {
		const struct npukb_task *t = NULL;
		for (i = 0; i < cat.ntasks; i++)
			if (strcmp(cat.tasks[i]->id, argv[a]) == 0)
				t = cat.tasks[i];
		if (!t) {
			fprintf(stderr, "npukb question: no task %s under %s\n", argv[a], levels);
			rc = 1;
			continue;
		}
		int r = one_task(t, hostdev, write);
		if (r > rc)
			rc = r;
	}
	npukb_catalog_free(&cat);
	free(levels);
	free(schema);
	return rc;
}
