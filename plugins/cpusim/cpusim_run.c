/* cpusim_run.c - run(): one launch of a built variant on a case's tensor
 * files, in the sandbox; check reports and the cost model's cycles back. */
#include <npukb/util.h>
#include "cpusim_internal.h"

/* ---- run ------------------------------------------------------------------ */

/* Appends the n bytes at p and a newline to the malloc'd *out (length
 * *len). Defects are beside the verdict: on no memory, keep what fits. */
static void append_line(char **out, size_t *len, const char *p, size_t n)
{
	char *grown = realloc(*out, *len + n + 2);

	if (!grown)
		return;
	*out = grown;
	memcpy(*out + *len, p, n);
	*len += n;
	(*out)[(*len)++] = '\n';
	(*out)[*len] = '\0';
}

/* cycles= and time_us= are required; block_dim= (host+device: what the
 * tiling function chose) is read when present; each defect= line is one
 * of the launch's defects, appended to *defects (malloc'd, NULL: none). */
static int read_stats(const char *path, const char *token, double *cycles, double *time_us,
		      int *block_dim, char **defects)
{
	size_t ndefects = 0;
	FILE *f = fopen(path, "r");
	char line[256];
	int have = 0, genuine = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof line, f)) {
		char *end;
		if (strncmp(line, "token=", 6) == 0) {
			line[strcspn(line, "\n")] = '\0';
			genuine = strcmp(line + 6, token) == 0;
		} else if (strncmp(line, "cycles=", 7) == 0) {
			*cycles = npukb_strtod(line + 7, &end);
			if (end != line + 7)
				have |= 1;
		} else if (strncmp(line, "block_dim=", 10) == 0) {
			long b = strtol(line + 10, &end, 10);
			if (end != line + 10 && b > 0 && b <= 65535)
				*block_dim = (int)b;
		} else if (strncmp(line, "time_us=", 8) == 0) {
			*time_us = npukb_strtod(line + 8, &end);
			if (end != line + 8)
				have |= 2;
		} else if (strncmp(line, "defect=", 7) == 0 && line[7] && line[7] != '\n') {
			append_line(defects, &ndefects, line + 7, strcspn(line + 7, "\n"));
		}
	}
	fclose(f);
	if (!genuine) {
		free(*defects);
		*defects = NULL;
		return -EPERM;
	}
	return have == 3 ? 0 : -EINVAL;
}

/* A fresh token (32 hex digits from getrandom) in work/RUN_TOKEN_NAME,
 * readable by the sandbox's user, and no stats file left from before. */
static int write_run_token(const char *work, char *token, size_t len)
{
	unsigned char raw[16];
	char *path = format("%s/%s", work, RUN_TOKEN_NAME), *stats = format("%s/%s", work, STATS_NAME);
	int fd, rc = 0;

	if (!path || !stats || len < 2 * sizeof raw + 1) {
		rc = -ENOMEM;
		goto out;
	}
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
		rc = -errno;
		goto out;
	}
	for (size_t i = 0; i < sizeof raw; i++)
		snprintf(token + 2 * i, 3, "%02x", raw[i]);
	if (unlink(stats) != 0 && errno != ENOENT) {
		rc = -errno;
		goto out;
	}
	(void)unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, token, strlen(token)) != (ssize_t)strlen(token))
		rc = -errno;
	if (fd >= 0 && close(fd) != 0 && rc == 0)
		rc = -errno;
out:
	free(path);
	free(stats);
	return rc;
}

/* "npukb-cpusim: ub-overflow: ..." -> "ub-overflow" (malloc'd). */
static char *report_category(const char *line)
{
	const char *p = line + strlen(REPORT_PREFIX);
	size_t n = strcspn(p, ": \t");
	return n ? strndup(p, n) : NULL;
}

/* The defect lines of the harness's report, without their prefix, one a
 * line (malloc'd), or NULL when there are none. */
static char *report_defects(const char *text)
{
	const size_t np = strlen(DEFECT_PREFIX);
	char *out = NULL;
	size_t len = 0;

	for (const char *p = text; p && *p;) {
		const size_t n = strcspn(p, "\n");
		if (n > np && strncmp(p, DEFECT_PREFIX, np) == 0)
			append_line(&out, &len, p + np, n - np);
		p += n;
		if (*p == '\n')
			p++;
	}
	return out;
}

/* The executable built for the case's dtype combination (malloc'd). */
static char *run_exe(const struct npukb_run_request *req)
{
	const struct npukb_task *t = req->task;
	struct variants v;
	size_t k = 0;
	char *exe;

	if (!req->kcase || req->kcase < t->cases || req->kcase >= t->cases + t->ncases)
		return xstrdup(req->artifact);
	if (variants_compute(t, &v) < 0)
		return NULL;
	k = v.of_case[req->kcase - t->cases];
	variants_free(&v);
	exe = variant_exe(req->artifact, k);
	return exe;
}

int cpusim_run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	const struct npukb_case_data *d = req->data;
	const struct npukb_options *o = req->options;
	char err[512] = "", desc[256], blocks[32], token[40] = "";
	char **owned = NULL;
	const char **argv = NULL;
	char *work = NULL, *errpath = NULL, *stats = NULL, *text = NULL, *report, *exe = NULL;
	char *case_file = NULL, *data, *reads[3] = { NULL, NULL, NULL };
	size_t i, argc = 0;
	struct npukb_sandbox_spec spec;
	int rc = 0, block_dim;

	memset(res, 0, sizeof(*res));
	if (!req->artifact || req->artifact[0] != '/') {
		res->message = xstrdup("cpusim: run needs the absolute executable path from build");
		return -EINVAL;
	}
	work = absolute(req->workdir);
	if (!work) {
		rc = -errno;
		res->message = format("cpusim: cannot resolve work directory %s", req->workdir);
		return rc;
	}
	exe = run_exe(req);
	if (!exe) {
		rc = -ENOMEM;
		goto out;
	}
	block_dim = d->block_dim > 0 ? d->block_dim : (req->task->block_dim > 0 ? req->task->block_dim : 1);
	snprintf(blocks, sizeof blocks, "%d", block_dim);

	owned = calloc(d->nargs + 1, sizeof(*owned));
	argv = calloc(d->nargs + 10, sizeof(*argv));
	if (!owned || !argv) {
		rc = -ENOMEM;
		goto out;
	}
	argv[argc++] = exe;
	argv[argc++] = "--blocks";
	argv[argc++] = blocks;
	argv[argc++] = "--soc";
	argv[argc++] = o->soc && *o->soc ? o->soc : DEFAULT_SOC;
	argv[argc++] = "--stats";
	argv[argc++] = STATS_NAME;
	if (req->sample && req->sample->mode == NPUKB_MODE_HOST_DEVICE) {
		/* The sample's tiling function decides blocks, tiling data and
		 * workspace: the harness gets the case instead of arguments. */
		case_file = format("%s/%s", work, CASE_FILE);
		if (!case_file) {
			rc = -ENOMEM;
			goto out;
		}
		rc = cpusim_hostdev_write_case(case_file, req->task, req->kcase, d,
					       o->soc && *o->soc ? o->soc : DEFAULT_SOC, err, sizeof err);
		if (rc < 0) {
			res->message = format("cpusim: %s", err);
			goto out;
		}
		argv[argc++] = "--hostdev";
		argv[argc++] = CASE_FILE;
	}
	for (i = 0; case_file == NULL && i < d->nargs; i++) {
		const struct npukb_kernel_arg *a = &d->args[i];
		const char *role = NULL;
		char *abs = NULL;

		switch (a->role) {
		case NPUKB_PARAM_INPUT: role = "in"; break;
		case NPUKB_PARAM_OUTPUT: role = "out"; break;
		case NPUKB_PARAM_INOUT: role = "inout"; break;
		case NPUKB_PARAM_TILING: role = "tiling"; break;
		case NPUKB_PARAM_WORKSPACE: role = "ws"; break;
		/* The value's bytes, mapped like the tiling: the kernel
		 * unit's launcher copies them into the by-value parameter
		 * (cpusim_kernel_unit.c). */
		case NPUKB_PARAM_SCALAR: role = "tiling"; break;
		}
		if (!role) {
			rc = -EINVAL;
			res->message = format("cpusim: kernel argument %zu has an unknown role", i);
			goto out;
		}
		if (a->role == NPUKB_PARAM_WORKSPACE) {
			owned[i] = format("ws=%zu", a->bytes);
		} else if (a->tensor && a->tensor->is_absent) {
			owned[i] = format("none=");
		} else {
			if (!a->path) {
				rc = -EINVAL;
				res->message = format("cpusim: kernel argument %zu has no file", i);
				goto out;
			}
			/* The harness runs in its own work directory. */
			abs = a->path[0] == '/' ? NULL : absolute(a->path);
			if (a->tensor && a->tensor->nmembers > 0)
				owned[i] = list_arg(a->tensor, abs ? abs : a->path);
			else
				owned[i] = format("%s=%s", role, abs ? abs : a->path);
			free(abs);
		}
		if (!owned[i]) {
			rc = -ENOMEM;
			goto out;
		}
		argv[argc++] = owned[i];
	}
	argv[argc] = NULL;

	/* The harness sees its build and the SoC tables (read-only) and its
	 * own work folder. */
	reads[0] = xstrdup(exe);
	data = data_dir(err, sizeof err);
	reads[1] = data ? format("%s/soc", data) : NULL;
	free(data);
	if (!reads[0] || !reads[1]) {
		rc = -ENOMEM;
		goto out;
	}
	*strrchr(reads[0], '/') = '\0';
	rc = write_run_token(work, token, sizeof token);
	if (rc < 0) {
		res->message = format("cpusim: cannot write the run token in %s: %s", work, strerror(-rc));
		goto out;
	}
	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.workdir = work;
	spec.stdout_path = RUN_OUT;
	spec.stderr_path = RUN_ERR;
	spec.limits = o->run_limits;
	spec.isolate_network = 1;
	spec.read_paths = (const char *const *)reads;
	/* The case's tensor files live in the work folder: the quota is
	 * theirs plus what the kernel may write of its own (the default). */
	spec.workdir_quota = (uint64_t)1 << 30;
	for (i = 0; i < d->nargs; i++)
		spec.workdir_quota += d->args[i].bytes;
	rc = npukb_sandbox_run(&spec, &res->proc, err, sizeof err);
	if (rc < 0) {
		res->message = format("cpusim: cannot run the kernel: %s", err);
		goto out;
	}

	errpath = format("%s/%s", work, RUN_ERR);
	stats = format("%s/%s", work, STATS_NAME);
	if (!errpath || !stats) {
		rc = -ENOMEM;
		goto out;
	}
	/* The report is the harness's last words: keep the tail. */
	text = read_text(errpath, DIAG_MAX, 1);
	res->diagnostics = text;
	npukb_sandbox_describe(&res->proc, desc, sizeof desc);

	if (res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == 0) {
		/* A launch that ended well: its defects from the stats file,
		 * which the kernel's own output can neither cut nor forge
		 * (runtime.h, defect()) */
		int st = read_stats(stats, token, &res->cycles, &res->time_us, &block_dim, &res->defects);
		if (st == 0) {
			res->ok = 1;
			res->has_cycles = 1;
			res->cycles_modelled = 1;
			res->message = format("ran %d blocks: %.0f cycles, %.3f us", block_dim, res->cycles,
					      res->time_us);
		} else if (st == -EPERM) {
			res->cycles = res->time_us = 0;
			res->category = xstrdup("sandbox-violation");
			res->message = xstrdup("the timing file was not written by the harness (a kernel forging "
					       "its cycle count, then ending the process?)");
		} else {
			res->category = xstrdup("early-exit");
			res->message = xstrdup("the kernel process exited with status 0 before the launch finished "
					       "(exit() or _exit() inside the kernel?)");
		}
		goto out;
	}
	/* A failed launch: the defects it printed, beside its failure */
	res->defects = report_defects(text);
	report = text ? line_with(text, REPORT_PREFIX, 1) : NULL;
	if (res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == CHECK_EXIT && report) {
		res->category = report_category(report);
		res->message = report;
		goto out;
	}
	free(report);
	/* The harness itself exits 0, 2 (its command line or SoC data) or 3
	 * (a check, with its report line); any other status, or 3 without
	 * a report, is the kernel ending the process itself. */
	if (res->proc.kind == NPUKB_EXIT_NORMAL &&
	    !(res->proc.exit_code == USAGE_EXIT && text && strstr(text, USAGE_PREFIX)) &&
	    !(res->proc.exit_code == TILING_EXIT && text && strstr(text, TILING_PREFIX))) {
		res->category = xstrdup("early-exit");
		res->message = format("the kernel process exited with status %d before the launch finished "
				      "(exit() inside the kernel?)", res->proc.exit_code);
		goto out;
	}
	report = res->proc.kind == NPUKB_EXIT_NORMAL && res->proc.exit_code == TILING_EXIT && text
			 ? line_with(text, TILING_PREFIX, 1)
			 : NULL;
	if (report) {
		/* The op_host side failed before any kernel ran (the harness's
		 * hostdev driver, runtime/hostdev.cpp): not a kernel crash. */
		res->category = xstrdup(strstr(report, "declares no DataType combination") ? "unsupported-dtype"
											     : "tiling-failure");
		res->message = format("op_host: %s", report + strlen(TILING_PREFIX));
		free(report);
		goto out;
	}
	if (res->proc.kind == NPUKB_EXIT_NORMAL && text && text[0]) {
		char *first = strndup(text, strcspn(text, "\n"));
		res->message = format("kernel %s: %s", desc, first ? first : "");
		free(first);
	} else {
		res->message = format("kernel %s", desc);
	}
out:
	if (owned)
		for (i = 0; i < d->nargs; i++)
			free(owned[i]);
	free(owned);
	free(argv);
	free(work);
	free(errpath);
	free(stats);
	free(exe);
	free(case_file);
	free(reads[0]);
	free(reads[1]);
	return rc;
}
