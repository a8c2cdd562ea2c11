/* ascend_hostdev.c - the ascend-hostdev backend: a host+device sample
 * (op_host + tiling header + op_kernel) built as a CANN custom-operator
 * project, installed into a folder private to the build, and called
 * through its generated aclnn API (ASCENDC.md section 3).
 *
 * build(): op.json from the manifest (op_project.h); msopgen generates the
 * project; the sample's op_host/ and op_kernel/ sources replace msopgen's
 * templates; then the order of msopgen's own build.sh (8.0+): configure,
 * binary, package; the .run is installed into <work>/stage (absolute,
 * never the toolkit) (cann_probe.h); finally the aclnn program
 * (aclnn_program.c) is compiled against the staged operator. Each step
 * runs in the sandbox and its output joins the diagnostics.
 * run(): the aclnn program with the case's tensors (aclCreateTensor each,
 * tensor lists and absent optional inputs as the manifest says) and
 * attributes, ASCEND_CUSTOM_OPP_PATH and the library path pointing at the
 * stage, timed with device events; the NPU's health is checked after a
 * failure (npu_device.h). Without CANN everything is skipped with the
 * probe's reason, without a device every run is. */
#include <npukb/plugin.h>
#include <npukb/case_data.h>

/* Relative, so the plugin builds without an extra -I. */
#include "../ascend-common/build_step.h"
#include "../ascend-common/cann_probe.h"
#include "../ascend-common/cann_options.h"
#include "../ascend-common/npu_device.h"
#include "../ascend-common/npu_run.h"
#include "op_project.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define DEFAULT_SOC "ascend910b2"
#define OP_JSON "op.json"
#define PROJECT "op_project"
#define STAGE "stage"
#define PROGRAM_SRC "npukb_aclnn.cpp"
#define PROGRAM "npukb_aclnn"
#define BUILD_JOBS 2
#define DEFAULT_WARMUP 5u
#define DEFAULT_RUNS 20u
#define MAX_DIAGNOSTICS (256 * 1024)
#define MAX_KINDS 160

/* The NPU this process drives and its health between samples. */
static struct npukb_npu_health health;

static int hostdev_probe(char *reason, size_t len)
{
	struct npukb_cann_info info;
	int rc = npukb_cann_probe(&info, reason, len);

	if (rc < 0) {
		snprintf(reason, len, "CANN probe failed: %s", strerror(-rc));
		return 1;
	}
	return rc;
}

static int hostdev_identity(char *buf, size_t len)
{
	struct npukb_cann_info info;
	char reason[256];

	(void)npukb_cann_probe(&info, reason, sizeof reason);
	npukb_cann_identity(&info, buf, len);
	return 0;
}

/* a/b into out; 0, or -ENAMETOOLONG. */
static int join_path(char *out, size_t len, const char *a, const char *b)
{
	int n = snprintf(out, len, "%s/%s", a, b);

	return n >= 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

/* Empties a project folder of msopgen's template sources (its
 * CMakeLists.txt stays), then copies in the sample's files under the
 * same folder name, flattened. 1 done, 0 failed (msg says why), or
 * -ENOMEM. */
static int place_sources(const struct npukb_sample *s, const char *project, const char *sub,
			 char **msg)
{
	char dir[PATH_MAX], from[PATH_MAX], to[PATH_MAX];
	size_t sublen = strlen(sub);
	struct dirent *e;
	DIR *d;
	int rc, placed = 0;

	if (join_path(dir, sizeof dir, project, sub) < 0)
		return npukb_cann_set(msg, "project path too long");
	d = opendir(dir);
	if (!d)
		return npukb_cann_set(msg, "msopgen left no %s/ in the project", sub);
	while ((e = readdir(d))) {
		struct stat st;

		if (join_path(from, sizeof from, dir, e->d_name) == 0 && lstat(from, &st) == 0 && S_ISREG(st.st_mode) &&
		    strcmp(e->d_name, "CMakeLists.txt") != 0)
			unlink(from);
	}
	closedir(d);
	for (size_t i = 0; i < s->nfiles; i++) {
		const char *f = s->files[i], *base;

		if (strncmp(f, sub, sublen) != 0 || f[sublen] != '/')
			continue;
		base = strrchr(f, '/') + 1;
		if (strcmp(base, "CMakeLists.txt") == 0)
			continue;
		if ((rc = join_path(from, sizeof from, s->dir, f)) < 0 ||
		    (rc = join_path(to, sizeof to, dir, base)) < 0 ||
		    (rc = npukb_step_copy_file(from, to)) < 0)
			return npukb_cann_set(msg, "cannot place %s: %s", f, strerror(-rc));
		placed++;
	}
	if (!placed)
		return npukb_cann_set(msg, "the sample has no %s/ sources", sub);
	return 1;
}

/* The package the last build step wrote (build_out/custom_opp_*.run). */
static int find_package(const char *project, char *out, size_t len)
{
	char dir[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int found = 0;

	if (join_path(dir, sizeof dir, project, "build_out") < 0)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)) && !found) {
		size_t n = strlen(e->d_name);

		if (strncmp(e->d_name, "custom_opp_", 11) == 0 && n > 4 &&
		    strcmp(e->d_name + n - 4, ".run") == 0) {
			found = join_path(out, len, dir, e->d_name) == 0;
		}
	}
	closedir(d);
	return found;
}

struct build {
	const struct npukb_build_request *req;
	struct npukb_build_result *res;
	char **envp;
	const char *work;
	unsigned nlog;
	/* What every build step sees read-only besides the work folder: the
	 * toolkit (msopgen, the compilers, its cmake modules). The sample's
	 * files are copied in. */
	const char *reads[2];
};

/* Runs one step; 1 when it succeeded (and left `output`, if given), 0
 * when it failed (res says how), or a negative errno. */
static int step(struct build *b, const struct npukb_cann_cmd *cmd, const char *output)
{
	char log[PATH_MAX], err[512], desc[256];
	int rc;

	if (snprintf(log, sizeof log, "%s/build-%u.log", b->work, b->nlog++) >= (int)sizeof log)
		return -ENAMETOOLONG;
	rc = npukb_step_run(cmd, b->envp, b->work, b->reads, log,
			    b->req->options ? &b->req->options->build_limits : NULL, &b->res->proc,
			    err, sizeof err);
	if (rc < 0)
		return npukb_cann_set(&b->res->message, "%s: %s", cmd->what, err) ?: rc;
	b->res->diagnostics = npukb_step_join(b->res->diagnostics,
					      npukb_npu_read_text(log, MAX_DIAGNOSTICS));
	if (b->res->proc.kind == NPUKB_EXIT_NORMAL && b->res->proc.exit_code == 0 &&
	    (!output || access(output, F_OK) == 0))
		return 1;
	npukb_sandbox_describe(&b->res->proc, desc, sizeof desc);
	if (b->res->proc.kind == NPUKB_EXIT_NORMAL && b->res->proc.exit_code == 0)
		snprintf(desc, sizeof desc, "left no %s", output);
	return npukb_cann_set(&b->res->message, "%s: %s", cmd->what, desc) ?: 0;
}

/* Installs the freshly built package into the stage. */
static int install(struct build *b, const char *project, const char *stage)
{
	struct npukb_cann_cmd cmd;
	char run[PATH_MAX], err[512];
	int rc;

	if (!find_package(project, run, sizeof run))
		return npukb_cann_set(&b->res->message, "the package target left no build_out/custom_opp_*.run")
			       ?: 0;
	if ((rc = npukb_cann_hostdev_stage_cmd(run, stage, &cmd, err, sizeof err)) < 0)
		return npukb_cann_set(&b->res->message, "%s", err) ?: rc;
	rc = step(b, &cmd, NULL);
	npukb_cann_cmd_clear(&cmd);
	return rc;
}

static int build_project(struct build *b, const struct npukb_cann_info *info, const char *soc)
{
	const struct npukb_build_request *req = b->req;
	struct npukb_cann_plan plan = { 0, NULL };
	struct npukb_cann_cmd prog;
	char json[PATH_MAX], project[PATH_MAX], stage[PATH_MAX], src[PATH_MAX], exe[PATH_MAX];
	char err[512];
	char *text = NULL;
	int rc;

	memset(&prog, 0, sizeof prog);
	if (join_path(json, sizeof json, b->work, OP_JSON) < 0 ||
	    join_path(project, sizeof project, b->work, PROJECT) < 0 ||
	    join_path(stage, sizeof stage, b->work, STAGE) < 0 ||
	    join_path(src, sizeof src, b->work, PROGRAM_SRC) < 0 ||
	    join_path(exe, sizeof exe, b->work, PROGRAM) < 0)
		return npukb_cann_set(&b->res->message, "work directory path too long") ?: -ENAMETOOLONG;

	text = npukb_op_json(req->task, err, sizeof err);
	if (!text) {
		b->res->skipped = 1;
		return npukb_cann_set(&b->res->message, "cannot describe the operator to msopgen: %s", err);
	}
	rc = npukb_step_write_text(json, text);
	free(text);
	text = NULL;
	if (rc < 0)
		return npukb_cann_set(&b->res->message, "cannot write %s: %s", json, strerror(-rc)) ?: rc;
	rc = npukb_cann_hostdev_build_plan(info, soc, json, project, BUILD_JOBS, &plan, err,
					   sizeof err);
	if (rc < 0) {
		b->res->skipped = rc == -EINVAL;
		return npukb_cann_set(&b->res->message, "%s", err) ?: (rc == -EINVAL ? 0 : rc);
	}
	/* msopgen, then the sample's sources in place of its templates. */
	if ((rc = step(b, &plan.steps[0], project)) != 1)
		goto out;
	if ((rc = place_sources(req->sample, project, "op_host", &b->res->message)) != 1 ||
	    (rc = place_sources(req->sample, project, "op_kernel", &b->res->message)) != 1)
		goto out;
	/* configure, binary, package; then the package into the stage */
	for (size_t i = 1; i < plan.n; i++)
		if ((rc = step(b, &plan.steps[i], NULL)) != 1)
			goto out;
	if ((rc = install(b, project, stage)) != 1)
		goto out;
	text = npukb_aclnn_source(req->task, err, sizeof err);
	if (!text) {
		rc = npukb_cann_set(&b->res->message, "cannot generate the aclnn program: %s", err);
		goto out;
	}
	if ((rc = npukb_step_write_text(src, text)) < 0) {
		rc = npukb_cann_set(&b->res->message, "cannot write %s: %s", src, strerror(-rc)) ?: rc;
		goto out;
	}
	if ((rc = npukb_cann_hostdev_program_cmd(info, npukb_cann_host_cxx(), PROGRAM_SRC, stage,
						 PROGRAM, &prog, err, sizeof err)) < 0) {
		rc = npukb_cann_set(&b->res->message, "%s", err) ?: rc;
		goto out;
	}
	if ((rc = step(b, &prog, exe)) != 1)
		goto out;
	b->res->ok = 1;
	b->res->artifact = strdup(exe);
	rc = b->res->artifact ? npukb_cann_set(&b->res->message, "operator %s built with msopgen for %s, "
				    "staged in %s", req->task->name, soc, stage)
			      : -ENOMEM;
out:
	if (rc > 0)
		rc = 0;
	free(text);
	npukb_cann_cmd_clear(&prog);
	npukb_cann_plan_clear(&plan);
	return rc;
}

static int hostdev_build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	struct npukb_cann_info info;
	struct npukb_cann_soc soc;
	struct build b;
	char reason[1024];
	char *work = NULL;
	const char *soc_name;
	int rc;

	memset(res, 0, sizeof *res);
	if (!req || !req->sample || !req->workdir)
		return -EINVAL;
	rc = npukb_cann_probe(&info, reason, sizeof reason);
	res->skipped = 1;
	if (rc < 0)
		return npukb_cann_set(&res->message, "CANN probe failed: %s", strerror(-rc));
	if (rc == NPUKB_CANN_NOT_FOUND)
		return npukb_cann_set(&res->message, "%s", reason);
	/* No device is fine here: building needs only the toolkit. */
	if (req->sample->mode != NPUKB_MODE_HOST_DEVICE)
		return npukb_cann_set(&res->message, "ascend-hostdev builds host+device samples; "
					  "kernel-only samples go to ascend-device");
	soc_name = req->options && req->options->soc ? req->options->soc : DEFAULT_SOC;
	if (npukb_cann_soc_lookup(soc_name, &soc, reason, sizeof reason) < 0)
		return npukb_cann_set(&res->message, "%s", reason);
	if (!req->task)
		return npukb_cann_set(&res->message, "ascend-hostdev: build needs the task");
	res->skipped = 0;
	work = realpath(req->workdir, NULL);
	if (!work)
		return npukb_cann_set(&res->message, "cannot resolve work directory %s: %s", req->workdir,
			   strerror(errno));
	memset(&b, 0, sizeof b);
	b.req = req;
	b.res = res;
	b.work = work;
	b.reads[0] = info.root;
	b.reads[1] = NULL;
	b.envp = npukb_npu_device_envp(&info, NULL, -1);
	rc = b.envp ? build_project(&b, &info, soc.name) : -ENOMEM;
	npukb_cann_strv_free(b.envp);
	free(work);
	return rc;
}

/* "d0,d1,...@offset" for each member, ';'-separated, into f. */
static void put_members(FILE *f, const struct npukb_case_tensor *t)
{
	size_t n = t->nmembers ? t->nmembers : 1;

	for (size_t m = 0; m < n; m++) {
		const struct npukb_shape *s = t->nmembers ? &t->members[m] : &t->shape;

		fputs(m ? ";" : "", f);
		for (int d = 0; d < s->rank; d++)
			fprintf(f, "%s%lld", d ? "," : "", (long long)s->dims[d]);
		fprintf(f, "@%zu", t->nmembers ? t->member_offsets[m] : (size_t)0);
	}
}

static const struct npukb_case_tensor *case_tensor(const struct npukb_case_data *d,
						   const char *name)
{
	for (size_t i = 0; i < d->ntensors; i++)
		if (strcmp(d->tensors[i].name, name) == 0)
			return &d->tensors[i];
	return NULL;
}

/* One program argument for operator tensor p (malloc'd), or NULL with a
 * reason. */
static char *tensor_arg(const struct npukb_op_param *p, const struct npukb_case_data *d,
			char *err, size_t errlen)
{
	static const char *const roles[] = { "in", "inout", "out" };
	const struct npukb_case_tensor *t = case_tensor(d, p->tensor->name);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!t) {
		snprintf(err, errlen, "the case has no tensor %s", p->tensor->name);
		return NULL;
	}
	if (npukb_acl_dtype(t->dtype) < 0 || (t->path && strchr(t->path, ':'))) {
		snprintf(err, errlen, "tensor %s: no ACL dtype for %s, or ':' in its path",
			 t->name, npukb_dtype_name(t->dtype));
		return NULL;
	}
	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	fprintf(f, "%s=%s:%d:", roles[p->role], t->is_absent ? "-" : t->path,
		npukb_acl_dtype(t->dtype));
	put_members(f, t);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The aclnn program's command line for this run (see op_project.h). */
static char **program_argv(const struct npukb_run_request *req, const char *work, char *err,
			   size_t errlen)
{
	struct npukb_op_param ps[MAX_KINDS];
	const struct npukb_task *t = req->task;
	const struct npukb_options *o = req->options;
	int n = npukb_op_params(t, ps, MAX_KINDS, err, errlen);
	size_t k = 0, cap;
	char **v;

	if (n < 0)
		return NULL;
	cap = (size_t)n + t->nattrs + 8;
	v = calloc(cap, sizeof *v);
	if (!v)
		return NULL;
	v[k++] = strdup(req->artifact);
	if (req->want_timing) {
		v[k++] = strdup("--stats");
		v[k++] = npukb_cann_strf("%s/%s", work, NPUKB_NPU_STATS_NAME);
		v[k++] = strdup("--warmup");
		v[k++] = npukb_cann_strf("%u", o && o->perf_warmup ? o->perf_warmup : DEFAULT_WARMUP);
		v[k++] = strdup("--runs");
		v[k++] = npukb_cann_strf("%u", o && o->perf_runs ? o->perf_runs : DEFAULT_RUNS);
	}
	/* Inputs, attributes, outputs: the aclnn call's order. */
	for (int i = 0; i < n; i++)
		if (ps[i].role != NPUKB_OP_OUT && !(v[k++] = tensor_arg(&ps[i], req->data, err, errlen)))
			goto fail;
	for (size_t a = 0; a < t->nattrs; a++) {
		const char *val = req->kcase ? npukb_case_attr(req->kcase, t->attrs[a].name) : NULL;

		if (!npukb_op_attr_is_operator(t, &t->attrs[a]))
			continue;
		if (!val) {
			snprintf(err, errlen, "the case gives no value for attribute %s",
				 t->attrs[a].name);
			goto fail;
		}
		v[k++] = npukb_cann_strf("attr=%s", val);
	}
	for (int i = 0; i < n; i++)
		if (ps[i].role == NPUKB_OP_OUT && !(v[k++] = tensor_arg(&ps[i], req->data, err, errlen)))
			goto fail;
	for (size_t i = 0; i < k; i++)
		if (!v[i]) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
	return v;
fail:
	npukb_cann_strv_free(v);
	return NULL;
}

/* The staged operator of a build: <dir of the program>/stage. */
static char *stage_of(const char *artifact)
{
	const char *slash = strrchr(artifact, '/');

	return slash ? npukb_cann_strf("%.*s/%s", (int)(slash - artifact), artifact, STAGE) : NULL;
}

/* run() after the probe; tests call it with a faked device. */
static int run_on_npu(const struct npukb_cann_info *info, const struct npukb_run_request *req,
		      struct npukb_run_result *res)
{
	char err[512] = "out of memory";
	char **argv = NULL, **envp = NULL;
	char *work = NULL, *stage = NULL;
	int rc = 0;

	if (!req->task || !req->data || !req->workdir || !req->artifact ||
	    req->artifact[0] != '/') {
		res->message = strdup("ascend-hostdev: run needs the task, the case data, a work "
				      "directory and the absolute program path from build");
		return -EINVAL;
	}
	work = realpath(req->workdir, NULL);
	stage = stage_of(req->artifact);
	argv = work ? program_argv(req, work, err, sizeof err) : NULL;
	envp = stage ? npukb_npu_device_envp(info, stage, npukb_npu_device_id()) : NULL;
	if (!work || !argv || !envp || !stage) {
		rc = npukb_cann_set(&res->message, "ascend-hostdev: %s", work ? err : strerror(errno));
	} else {
		/* The program sees the toolkit, the run's stage (the operator
		 * package and its own build) and the NPU's device node. */
		const char *reads[] = { info->root, stage, info->has_device ? info->device : NULL, NULL };
		rc = npukb_npu_run("aclnn program", argv, envp, work, reads,
				   req->options ? &req->options->run_limits : NULL,
				   req->want_timing, &health, res);
	}
	npukb_cann_strv_free(argv);
	npukb_cann_strv_free(envp);
	free(work);
	free(stage);
	return rc;
}

static int hostdev_run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	struct npukb_cann_info info;
	char reason[1024];
	int rc;

	memset(res, 0, sizeof *res);
	if (!req)
		return -EINVAL;
	rc = npukb_cann_probe(&info, reason, sizeof reason);
	if (rc != NPUKB_CANN_OK) {
		res->skipped = 1;
		return rc < 0 ? npukb_cann_set(&res->message, "CANN probe failed: %s", strerror(-rc))
			      : npukb_cann_set(&res->message, "%s", reason);
	}
	if (req->sample && req->sample->mode != NPUKB_MODE_HOST_DEVICE) {
		res->skipped = 1;
		return npukb_cann_set(&res->message, "ascend-hostdev runs host+device samples");
	}
	return run_on_npu(&info, req, res);
}

/* The plugin's options are forgotten when it is unloaded. */
static void hostdev_forget_options(void)
{
	(void)npukb_cann_configure(NULL, NULL, 0);
}

static const struct npukb_backend_ops hostdev_ops = {
	.probe = hostdev_probe,
	.identity = hostdev_identity,
	.build = hostdev_build,
	.run = hostdev_run,
	.cleanup = NULL, /* project and stage live in the core's work directory */
	.options = npukb_cann_options,
	.configure = npukb_cann_configure,
	.max_workers = npukb_npu_max_workers,
	.worker_start = npukb_npu_worker_start,
};

NPUKB_PLUGIN_EXPORT const struct npukb_plugin npukb_ascend_hostdev_plugin = {
	.abi = NPUKB_PLUGIN_ABI,
	.kind = NPUKB_PLUGIN_BACKEND,
	.name = "ascend-hostdev",
	.version = "0.2",
	.description = "real CANN toolchain: custom operator project, staged, called through aclnn",
	.init = NULL,
	.fini = hostdev_forget_options,
	.backend = &hostdev_ops,
	.stage = NULL,
};
