/* cmd_import.c - `npukb import`: read model responses (JSONL records, a
 * markdown file, NPUKernelBench's run folders), cut the code out of each
 * (extract.c says how) and write one sample folder per response.
 *
 * Nothing in a batch stops it: a response without code still becomes a
 * sample folder, holding NO_CODE (the reason) instead of sources, which the
 * compile stage turns into a `no-code` verdict; a record that cannot be a
 * sample (not JSON, unknown task, duplicate sample) is reported as
 * FILE:LINE on stderr, skipped, and the exit status says so. */
#include "config.h"
#include "data_path.h"

#include "cmd_import.h"
#include "catalog.h"
#include "extract.h"
#include "fsutil.h"
#include "sha256.h"
#include "text.h"

#include <npukb/util.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NPUKB_PKGDATADIR
#define NPUKB_PKGDATADIR "/usr/local/share/npukb"
#endif

enum { EXIT_OK = 0, EXIT_SKIPPED = 1, EXIT_USAGE = 2, EXIT_BADINPUT = 3, EXIT_INTERNAL = 4 };

/* A response is text a model wrote; beyond this it is not a kernel. */
#define MAX_RESPONSE_BYTES (16u << 20)
/* NPUKernelBench's run folder: lvl<N>/<Category>/<Op>/[fixed_case_<c>/]sample<S>/log/ */
#define MAX_RUN_DEPTH 12

static const char usage[] =
	"Usage: npukb import [OPTIONS] RESPONSES... -o ROOT\n"
	"Cut the code out of model responses and write a samples tree\n"
	"ROOT/<task id>/<model>-<sample>/ for `npukb run --samples ROOT`.\n"
	"\n"
	"RESPONSES are, by kind:\n"
	"  FILE.jsonl   one JSON object per line: \"task_id\" (or \"task\"), \"model\",\n"
	"               \"sample_id\" (or \"sample\"; optional), and the text in\n"
	"               \"response\" (or \"completion\")\n"
	"  DIR          an NPUKernelBench run folder: every\n"
	"               lvl<N>/<Category>/<Op>/sample<S>/log/*_code_gen_prompt.json\n"
	"               (its reasoning_content then gen_content, as NPUKernelBench reads it)\n"
	"  other FILE   one response (markdown); needs --task\n"
	"Code is taken from the first <kernel_impl> tag, else from NPUKernelBench's\n"
	"host+device file headers (=== op_host/x.cpp === or op_kernel/..., or\n"
	"CMakeLists.txt, then a fenced block, one file each), else from the first\n"
	"C/C++ or unlabelled fenced block. A response without code becomes a sample\n"
	"holding NO_CODE, judged `no-code`.\n"
	"Each sample gets response.json: model, source FILE:LINE, sha256 of the text.\n"
	"\n"
	"Options:\n"
	"  -o, --output ROOT  the samples tree (created; existing samples are kept)\n"
	"  --task ID          the task of markdown FILEs (e.g. level1/Math/AddCustom)\n"
	"  --model NAME       the model of markdown FILEs and run folders, and of\n"
	"                     JSONL records without one (default: unknown)\n"
	"  --sample ID        the sample id of a markdown FILE (default: a counter)\n"
	"  --levels DIR       task manifests (default: $NPUKB_DATADIR/levels)\n"
	"  -q, --quiet        no line per sample\n"
	"  -h, --help         this text\n"
	"\n"
	"Sample folders are <model>-<sample id>, with characters outside\n"
	"[A-Za-z0-9._-] as '_'; without a sample id, <model>-<n>, n counting that\n"
	"model's responses to that task in input order.\n"
	"Exit status: 0 every response became a sample (with or without code);\n"
	"1 some records were skipped (not JSON, no task or text, unknown task,\n"
	"duplicate sample; each named FILE:LINE on stderr); 2 usage error; 3 an\n"
	"input unreadable or nothing imported; 4 ROOT could not be written.\n";

struct import_state {
	const char *root;
	const char *model;  /* --model */
	const char *task;   /* --task */
	const char *sample; /* --sample */
	int quiet;
	struct npukb_catalog cat;
	size_t written, no_code, skipped;
	/* (task, model) -> how many responses seen, for generated sample ids */
	struct counter { char *key; unsigned n; } *counters;
	size_t ncounters;
};

static const struct npukb_task *find_task(const struct import_state *st, const char *id)
{
	size_t i;
	for (i = 0; i < st->cat.ntasks; i++)
		if (strcmp(st->cat.tasks[i]->id, id) == 0)
			return st->cat.tasks[i];
	return NULL;
}

/* The next number for (task, model): 1, 2, ... 0 on ENOMEM. */
static unsigned next_count(struct import_state *st, const char *task, const char *model)
{
	struct counter *grown;
	char *key;
	size_t i;
	if (asprintf(&key, "%s\n%s", task, model) < 0)
		return 0;
	for (i = 0; i < st->ncounters; i++)
		if (strcmp(st->counters[i].key, key) == 0) {
			free(key);
			return ++st->counters[i].n;
		}
	if (!(grown = realloc(st->counters, (st->ncounters + 1) * sizeof(*grown)))) {
		free(key);
		return 0;
	}
	st->counters = grown;
	grown[st->ncounters].key = key;
	grown[st->ncounters].n = 1;
	st->ncounters++;
	return 1;
}

/* Write text into rel (a safe path) under the folder dirfd, making its
 * parent folders. Every step is relative to a folder this import just
 * made, with O_NOFOLLOW: a symlink cannot redirect a write. */
static int write_at(int dirfd, const char *rel, const char *text, size_t len)
{
	char *copy = strdup(rel), *part, *slash;
	int fd = dup(dirfd), rc = 0;
	if (!copy || fd < 0) {
		free(copy);
		if (fd >= 0)
			close(fd);
		return copy ? -errno : -ENOMEM;
	}
	part = copy;
	while ((slash = strchr(part, '/')) != NULL) {
		int sub;
		*slash = '\0';
		if (mkdirat(fd, part, 0755) != 0 && errno != EEXIST) {
			rc = -errno;
			break;
		}
		sub = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if ((fd = sub) < 0) {
			rc = -errno;
			break;
		}
		part = slash + 1;
	}
	if (rc == 0) {
		int out = openat(fd, part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (out < 0) {
			rc = -errno;
		} else {
			size_t off = 0;
			while (off < len && rc == 0) {
				ssize_t w = write(out, text + off, len - off);
				if (w < 0 && errno != EINTR)
					rc = -errno;
				else if (w > 0)
					off += (size_t)w;
			}
			if (close(out) != 0 && rc == 0)
				rc = -errno;
		}
	}
	if (fd >= 0)
		close(fd);
	free(copy);
	return rc;
}

/* response.json: where the sample came from. A flat JSON object, so the
 * journal reader's parser reads it too. */
static char *provenance(const char *task, const char *model, const char *sample,
			const char *source, size_t line, const char *text, size_t len,
			const struct npukb_extraction *x)
{
	char hex[NPUKB_SHA256_HEX_LEN + 1], *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	if (!f)
		return NULL;
	npukb_sha256_hex(text, len, hex);
	fputs("{\"task\":", f);
	npukb_json_string(f, task);
	fputs(",\"model\":", f);
	npukb_json_string(f, model);
	fputs(",\"sample\":", f);
	npukb_json_string(f, sample);
	fputs(",\"source\":", f);
	npukb_json_string(f, source);
	fprintf(f, ",\"line\":%zu,\"response_sha256\":\"%s\",\"response_bytes\":%zu,\"form\":\"%s\"",
		line, hex, len, npukb_extract_form_name(x->form));
	if (x->form == NPUKB_EXTRACT_NONE) {
		fputs(",\"no_code\":", f);
		npukb_json_string(f, x->reason);
	}
	fputs("}\n", f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* One response into ROOT/<task>/<folder>/. Returns 0 (written), 1
 * (skipped: reported), -errno (ROOT cannot be written: reported). */
static int import_one(struct import_state *st, const char *where, size_t line, const char *task_id,
		      const char *model, const char *sample, const char *text, size_t len)
{
	const struct npukb_task *t = find_task(st, task_id);
	struct npukb_extraction x;
	char *name = NULL, *folder = NULL, *tdir = NULL, *sdir = NULL, *prov = NULL, *gen = NULL;
	int rc, dfd = -1;
	size_t i;

	if (!t) {
		fprintf(stderr, "%s:%zu: unknown task '%s' (see `npukb list`); skipped\n", where, line,
			task_id);
		st->skipped++;
		return 1;
	}
	if (!model || !*model)
		model = "unknown";
	if (!sample) {
		unsigned n = next_count(st, task_id, model);
		if (!n || asprintf(&gen, "%u", n) < 0)
			return -ENOMEM;
		sample = gen;
	}
	if (asprintf(&name, "%s-%s", model, sample) < 0) {
		free(gen);
		return -ENOMEM;
	}
	folder = npukb_safe_name(name);
	free(name);
	if (!folder || asprintf(&tdir, "%s/%s", st->root, task_id) < 0 ||
	    asprintf(&sdir, "%s/%s", tdir, folder) < 0) {
		free(gen);
		free(folder);
		free(tdir);
		return -ENOMEM;
	}
	if ((rc = npukb_extract(text, len, &x)) != 0)
		goto out;
	if ((rc = npukb_mkdir_p(tdir, 0755)) != 0) {
		fprintf(stderr, "npukb import: %s: %s\n", tdir, strerror(-rc));
		goto out_x;
	}
	if (mkdir(sdir, 0755) != 0) {
		rc = -errno;
		if (rc == -EEXIST) {
			fprintf(stderr, "%s:%zu: sample %s/%s exists already (duplicate sample id); "
				"skipped\n", where, line, task_id, folder);
			st->skipped++;
			rc = 1;
		} else {
			fprintf(stderr, "npukb import: %s: %s\n", sdir, strerror(-rc));
		}
		goto out_x;
	}
	dfd = open(sdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		rc = -errno;
		fprintf(stderr, "npukb import: %s: %s\n", sdir, strerror(-rc));
		goto out_x;
	}
	prov = provenance(task_id, model, sample, where, line, text, len, &x);
	if (!prov) {
		rc = -ENOMEM;
		goto out_x;
	}
	rc = write_at(dfd, "response.json", prov, strlen(prov));
	if (rc == 0 && x.form == NPUKB_EXTRACT_NONE) {
		char *why = NULL;
		if (asprintf(&why, "%s\n", x.reason) < 0)
			rc = -ENOMEM;
		else
			rc = write_at(dfd, "NO_CODE", why, strlen(why));
		free(why);
	}
	for (i = 0; rc == 0 && i < x.nfiles; i++) {
		char *path = NULL;
		if (!x.files[i].path && asprintf(&path, "%s.cpp", t->kernel_name) < 0) {
			rc = -ENOMEM;
			break;
		}
		rc = write_at(dfd, path ? path : x.files[i].path, x.files[i].text,
			      strlen(x.files[i].text));
		free(path);
	}
	if (rc) {
		fprintf(stderr, "npukb import: %s: %s\n", sdir, strerror(-rc));
		goto out_x;
	}
	st->written++;
	if (x.form == NPUKB_EXTRACT_NONE)
		st->no_code++;
	if (!st->quiet) {
		if (x.form == NPUKB_EXTRACT_NONE)
			printf("%s/%s: no code: %s\n", task_id, folder, x.reason);
		else
			printf("%s/%s: %zu file%s (%s)\n", task_id, folder, x.nfiles,
			       x.nfiles == 1 ? "" : "s", npukb_extract_form_name(x.form));
	}
out_x:
	npukb_extraction_free(&x);
out:
	if (dfd >= 0)
		close(dfd);
	free(prov);
	free(gen);
	free(folder);
	free(tdir);
	free(sdir);
	return rc;
}

static int import_jsonl(struct import_state *st, const char *path, FILE *f)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	int rc = 0;
	while (rc >= 0 && (n = getline(&line, &cap, f)) >= 0) {
		struct npukb_response_record r;
		char err[256];
		lineno++;
		if (strspn(line, " \t\r\n") == (size_t)n)
			continue;
		/* a NUL inside the line would cut it short and parse a prefix */
		if (memchr(line, '\0', (size_t)n) || (size_t)n > MAX_RESPONSE_BYTES) {
			fprintf(stderr, "%s:%zu: %s; skipped\n", path, lineno,
				(size_t)n > MAX_RESPONSE_BYTES ? "line longer than 16 MiB"
							       : "NUL byte in the line: not JSON");
			st->skipped++;
			continue;
		}
		rc = npukb_response_parse(line, &r, err, sizeof err);
		if (rc == -EINVAL) {
			fprintf(stderr, "%s:%zu: %s; skipped\n", path, lineno, err);
			st->skipped++;
			rc = 0;
			continue;
		}
		if (rc)
			break;
		rc = import_one(st, path, lineno, r.task, r.model ? r.model : st->model, r.sample,
				r.text, strlen(r.text));
		npukb_response_record_free(&r);
	}
	free(line);
	return rc < 0 ? rc : 0;
}

static int read_all(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	if (!f)
		return -errno;
	buf = malloc(MAX_RESPONSE_BYTES + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, MAX_RESPONSE_BYTES + 1, f);
	fclose(f);
	if (n > MAX_RESPONSE_BYTES) {
		free(buf);
		return -EFBIG;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

/* lvl<N>/<Category>/<Op>/ in the path of a run folder's prompt file: the
 * task id level<N>/<Category>/<Op>, and the sample<S> folder above log/. */
static int run_file_ids(const char *path, char **task, char **sample)
{
	const char *p = path, *lvl = NULL, *smp = NULL;
	char cat[256], op[256];
	int level;
	while ((p = strstr(p, "lvl")) != NULL) {
		if ((p == path || p[-1] == '/') && sscanf(p, "lvl%d/%255[^/]/%255[^/]/", &level, cat, op) == 3)
			lvl = p;
		p += 3;
	}
	for (p = path; (p = strstr(p, "/sample")) != NULL; p++)
		smp = p + 1;
	if (!lvl || sscanf(lvl, "lvl%d/%255[^/]/%255[^/]/", &level, cat, op) != 3)
		return -EINVAL;
	if (asprintf(task, "level%d/%s/%s", level, cat, op) < 0)
		return -ENOMEM;
	*sample = smp ? strndup(smp, strcspn(smp, "/")) : strdup("sample0");
	return *sample ? 0 : -ENOMEM;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static int import_run_file(struct import_state *st, const char *path)
{
	char *text = NULL, *all = NULL, *task = NULL, *sample = NULL, err[256];
	size_t len;
	int rc;

	if ((rc = run_file_ids(path, &task, &sample)) != 0) {
		if (rc == -EINVAL) {
			fprintf(stderr, "%s:1: not under lvl<N>/<Category>/<Op>/: no task id; skipped\n",
				path);
			st->skipped++;
			rc = 0;
		}
		return rc;
	}
	if ((rc = read_all(path, &text, &len)) != 0) {
		fprintf(stderr, "%s: cannot read: %s; skipped\n", path, strerror(-rc));
		st->skipped++;
		free(task);
		free(sample);
		return rc == -ENOMEM ? rc : 0;
	}
	rc = npukb_run_prompt_parse(text, &all, err, sizeof err);
	if (rc == -EINVAL) {
		fprintf(stderr, "%s:1: %s; skipped\n", path, err);
		st->skipped++;
		rc = 0;
	} else if (rc == 0) {
		rc = import_one(st, path, 1, task, st->model, sample, all, strlen(all));
	}
	free(all);
	free(text);
	free(task);
	free(sample);
	return rc < 0 ? rc : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *_code_gen_prompt.json under dir, in name order (stable ids). */
static int import_run_dir(struct import_state *st, const char *dir, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	int rc = 0;
	if (depth > MAX_RUN_DEPTH || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d)) != NULL) {
		char **grown;
		if (de->d_name[0] == '.')
			continue;
		if (!(grown = realloc(names, (n + 1) * sizeof(*grown)))) {
			rc = -ENOMEM;
			break;
		}
		names = grown;
		if (!(names[n] = strdup(de->d_name))) {
			rc = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; rc == 0 && i < n; i++) {
		char *p;
		struct stat sb;
		if (asprintf(&p, "%s/%s", dir, names[i]) < 0) {
			rc = -ENOMEM;
			break;
		}
		/* lstat: a run folder's symlinks are not followed out of it */
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			rc = import_run_dir(st, p, depth + 1);
		else if (lstat(p, &sb) == 0 && S_ISREG(sb.st_mode) &&
			 has_suffix(names[i], "_code_gen_prompt.json"))
			rc = import_run_file(st, p);
		free(p);
	}
	npukb_free_names(names, n);
	return rc;
}

static int import_markdown(struct import_state *st, const char *path)
{
	char *text = NULL;
	size_t len;
	int rc;
	if (!st->task) {
		fprintf(stderr, "%s: a markdown response needs --task ID; skipped\n", path);
		st->skipped++;
		return 0;
	}
	if ((rc = read_all(path, &text, &len)) != 0)
		return rc;
	rc = import_one(st, path, 1, st->task, st->model, st->sample, text, len);
	free(text);
	return rc < 0 ? rc : 0;
}

static char *levels_dir(const char *opt)
{
	return opt ? strdup(opt) : npukb_data_path("levels");
}

int npukb_cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "task", required_argument, NULL, 't' },
		{ "model", required_argument, NULL, 'm' },
		{ "sample", required_argument, NULL, 's' },
		{ "levels", required_argument, NULL, 'D' },
		{ "plugin-dir", required_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct import_state st;
	const char *levels_opt = NULL;
	char *levels = NULL, *schema = NULL, err[1024] = "";
	int c, rc = 0, unreadable = 0, i;
	size_t k;

	memset(&st, 0, sizeof st);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': st.root = optarg; break;
		case 't': st.task = optarg; break;
		case 'm': st.model = optarg; break;
		case 's': st.sample = optarg; break;
		case 'D': levels_opt = optarg; break;
		case 'P': break;
		case 'q': st.quiet = 1; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: fputs("Try 'npukb import --help'.\n", stderr); return EXIT_USAGE;
		}
	}
	if (!st.root || optind >= argc) {
		fprintf(stderr, "npukb import: %s\nTry 'npukb import --help'.\n",
			!st.root ? "-o ROOT is required" : "no RESPONSES given");
		return EXIT_USAGE;
	}
	levels = levels_dir(levels_opt);
	if (levels && asprintf(&schema, "%s/schema/task.rng", levels) < 0)
		schema = NULL;
	if (!levels || !schema) {
		free(levels);
		return EXIT_INTERNAL;
	}
	/* every level: a batch may mix them, and an unknown id is then truly unknown */
	if (npukb_catalog_load(&st.cat, levels, schema, 0, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "npukb import: %s\n", err);
		free(levels);
		free(schema);
		return EXIT_BADINPUT;
	}
	for (i = optind; rc >= 0 && i < argc; i++) {
		struct stat sb;
		FILE *f;
		if (stat(argv[i], &sb) != 0) {
			fprintf(stderr, "npukb import: %s: %s\n", argv[i], strerror(errno));
			unreadable++;
		} else if (S_ISDIR(sb.st_mode)) {
			rc = import_run_dir(&st, argv[i], 0);
		} else if (has_suffix(argv[i], ".jsonl") || has_suffix(argv[i], ".json")) {
			if (!(f = fopen(argv[i], "rb"))) {
				fprintf(stderr, "npukb import: %s: %s\n", argv[i], strerror(errno));
				unreadable++;
				continue;
			}
			rc = import_jsonl(&st, argv[i], f);
			fclose(f);
		} else {
			rc = import_markdown(&st, argv[i]);
			if (rc < 0 && rc != -ENOMEM) {
				fprintf(stderr, "npukb import: %s: %s\n", argv[i], strerror(-rc));
				unreadable++;
				rc = 0;
			}
		}
	}
	if (rc == -ENOMEM)
		fprintf(stderr, "npukb import: out of memory\n");
	if (!st.quiet || st.skipped)
		printf("%zu sample%s written to %s (%zu without code), %zu record%s skipped\n",
		       st.written, st.written == 1 ? "" : "s", st.root, st.no_code, st.skipped,
		       st.skipped == 1 ? "" : "s");
	for (k = 0; k < st.ncounters; k++)
		free(st.counters[k].key);
	free(st.counters);
	npukb_catalog_free(&st.cat);
	free(levels);
	free(schema);
	if (rc < 0)
		return EXIT_INTERNAL;
	if (unreadable || st.written == 0)
		return EXIT_BADINPUT;
	return st.skipped ? EXIT_SKIPPED : EXIT_OK;
}
