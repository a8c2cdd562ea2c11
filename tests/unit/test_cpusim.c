/* test_cpusim.c - the cpusim backend through its plugin descriptor: builds
 * AddCustom's expert answer and the broken samples of tests/samples/AddCustom,
 * runs them on hand-made case files, and checks outputs bit for bit, every
 * runtime check (trips and does not trip), the cycle model's ordering of
 * double against single buffering, and the half-precision selftest.
 *
 * Needs: NPUKB_SRCDIR (source tree; default "."), a C++17 g++ (or
 * NPUKB_CXX). NPUKB_CPUSIM_DIR defaults to $NPUKB_SRCDIR/plugins/cpusim. */
#include <criterion/criterion.h>

#include <npukb/plugin.h>
#include "../../plugins/cpusim/chevron.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const struct npukb_plugin npukb_cpusim_plugin;

#define POISON 0x7e55u
#define TILE_NUM 8u

/* ---- reference half arithmetic, independent of the emulation headers ----- */

static double h2d(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	double v;

	if (e == 0)
		v = ldexp(m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexp(m + 1024, e - 25);
	return (h & 0x8000) ? -v : v;
}

/* Round to nearest even by scaling to the target's ulp and using the FPU's
 * own (round-to-nearest-even) integer rounding. */
static uint16_t d2h(double d)
{
	uint16_t s = signbit(d) ? 0x8000 : 0;
	double a = fabs(d), r;
	int e, q, be;
	uint32_t m;

	if (isnan(d))
		return 0x7e00;
	if (a >= 65520.0)
		return s | 0x7c00;
	if (a == 0)
		return s;
	frexp(a, &e);
	q = e - 11;
	if (q < -24)
		q = -24;
	r = nearbyint(ldexp(a, -q));
	m = (uint32_t)r;
	if (m == 0)
		return s;
	while (m >= 2048) {
		m >>= 1;
		q++;
	}
	if (q == -24 && m < 1024)
		return (uint16_t)(s | m);
	while (m < 1024) {
		m <<= 1;
		q--;
	}
	be = q + 10 + 15;
	if (be >= 31)
		return s | 0x7c00;
	return (uint16_t)(s | (be << 10) | (m & 1023));
}

/* ---- fixtures ---------------------------------------------------------- */

static const char *srcdir(void)
{
	const char *s = getenv("NPUKB_SRCDIR");
	return s && *s ? s : ".";
}

static void setup_env(void)
{
	char dir[4096];

	if (!getenv("NPUKB_CPUSIM_DIR")) {
		snprintf(dir, sizeof dir, "%s/plugins/cpusim", srcdir());
		setenv("NPUKB_CPUSIM_DIR", dir, 1);
	}
}

/* Scratch directories, removed when the test's process exits unless
 * NPUKB_KEEP_TMP is set (to look at generated files after a failure). */
#define MAX_TEMPDIRS 64
static char *tempdirs[MAX_TEMPDIRS];
static int ntempdirs;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tempdirs(void)
{
	int i;

	if (getenv("NPUKB_KEEP_TMP"))
		return;
	for (i = 0; i < ntempdirs; i++)
		nftw(tempdirs[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static char *tempdir(void)
{
	char tmpl[] = "/tmp/npukb-cpusim-test-XXXXXX";
	char *d = mkdtemp(tmpl);

	cr_assert_not_null(d, "mkdtemp: %s", strerror(errno));
	/* Samples and builds are read by the sandbox's user (nobody). */
	cr_assert_eq(chmod(d, 0755), 0);
	cr_assert_lt(ntempdirs, MAX_TEMPDIRS);
	if (ntempdirs == 0)
		atexit(remove_tempdirs);
	tempdirs[ntempdirs++] = strdup(d);
	return strdup(d);
}

static char *path_in(const char *dir, const char *name)
{
	char *p = NULL;
	cr_assert(asprintf(&p, "%s/%s", dir, name) > 0);
	return p;
}

/* The task model's strings are mutable (char *): keep them in arrays. */
static char n_x[] = "x", n_y[] = "y", n_z[] = "z", n_ws[] = "workspace", n_tiling[] = "tiling";
static char task_id[] = "level1/Math/AddCustom", kernel_name[] = "add_custom";
static char tiling_struct[] = "AddCustomTilingData";
static char f_total[] = "totalLength", f_tiles[] = "tileNum", e_total[] = "numel(x)",
	    e_tiles[] = "8";
static struct npukb_tiling_field tiling_fields[] = {
	{ f_total, NPUKB_DT_INT32, 1, e_total },
	{ f_tiles, NPUKB_DT_INT32, 1, e_tiles },
};

static struct npukb_param params[] = {
	{ n_x, NPUKB_PARAM_INPUT, NULL },
	{ n_y, NPUKB_PARAM_INPUT, NULL },
	{ n_z, NPUKB_PARAM_OUTPUT, NULL },
	{ n_ws, NPUKB_PARAM_WORKSPACE, NULL },
	{ n_tiling, NPUKB_PARAM_TILING, NULL },
};

static void fake_task(struct npukb_task *t)
{
	memset(t, 0, sizeof(*t));
	t->id = task_id;
	t->kernel_name = kernel_name;
	t->nparams = 5;
	t->params = params;
	t->tiling_struct = tiling_struct;
	t->ntiling = 2;
	t->tiling = tiling_fields;
	t->block_dim = 48;
}

static void fake_options(struct npukb_options *o, double run_wall)
{
	memset(o, 0, sizeof(*o));
	o->soc = "ascend910b2";
	o->build_limits.wall_seconds = 120;
	o->run_limits.wall_seconds = run_wall;
	o->nseeds = 1;
}

static const char *const kernel_files[] = { "add_custom.cpp" };

struct built {
	struct npukb_task task;
	struct npukb_sample sample;
	struct npukb_options opts;
	struct npukb_build_result res;
	char *workdir;
};

/* Builds the sample in dir in workdir (which may hold files planted by the
 * test). */
static void build_dir_in(struct built *b, const char *dir, double run_wall, char *workdir)
{
	struct npukb_build_request req;
	int rc;

	setup_env();
	fake_task(&b->task);
	fake_options(&b->opts, run_wall);
	memset(&b->sample, 0, sizeof(b->sample));
	b->sample.id = "s";
	b->sample.dir = dir;
	b->sample.mode = NPUKB_MODE_KERNEL_ONLY;
	b->sample.nfiles = 1;
	b->sample.files = kernel_files;
	b->workdir = workdir;
	memset(&req, 0, sizeof(req));
	req.task = &b->task;
	req.sample = &b->sample;
	req.options = &b->opts;
	req.workdir = b->workdir;
	rc = npukb_cpusim_plugin.backend->build(&req, &b->res);
	cr_assert_eq(rc, 0, "build() failed: %s", b->res.message ? b->res.message : "?");
}

static void build_dir(struct built *b, const char *dir, double run_wall)
{
	build_dir_in(b, dir, run_wall, tempdir());
}

static void build_sample(struct built *b, const char *rel, double run_wall)
{
	char dir[4096];

	snprintf(dir, sizeof dir, "%s/%s", srcdir(), rel);
	build_dir(b, dir, run_wall);
}

static void build_ok(struct built *b, const char *rel)
{
	build_sample(b, rel, 30);
	cr_assert_eq(b->res.ok, 1, "%s did not compile: %s\n%s", rel, b->res.message,
		     b->res.diagnostics ? b->res.diagnostics : "");
}

/* One case's files: x, y random fp16 in [-100, 100], z poisoned, tiling. */
struct case_files {
	size_t n;
	uint16_t *x, *y;
	char *dir, *px, *py, *pz, *pt;
	struct npukb_kernel_arg args[5];
	struct npukb_case_data data;
};

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

static void make_case(struct case_files *c, size_t n, int block_dim, uint64_t seed)
{
	uint16_t *z;
	uint32_t tiling[2] = { (uint32_t)n, TILE_NUM };
	size_t i;

	c->n = n;
	c->x = malloc(2 * n + 2);
	c->y = malloc(2 * n + 2);
	z = malloc(2 * n + 2);
	cr_assert(c->x && c->y && z);
	for (i = 0; i < n; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		c->x[i] = d2h((double)(seed & 0xffffff) / 0xffffff * 200.0 - 100.0);
		c->y[i] = d2h((double)((seed >> 24) & 0xffffff) / 0xffffff * 200.0 - 100.0);
		z[i] = POISON;
	}
	c->dir = tempdir();
	c->px = path_in(c->dir, "x.bin");
	c->py = path_in(c->dir, "y.bin");
	c->pz = path_in(c->dir, "z.bin");
	c->pt = path_in(c->dir, "tiling.bin");
	write_file(c->px, c->x, 2 * n);
	write_file(c->py, c->y, 2 * n);
	write_file(c->pz, z, 2 * n);
	write_file(c->pt, tiling, sizeof tiling);
	free(z);
	c->args[0] = (struct npukb_kernel_arg){ NPUKB_PARAM_INPUT, c->px, 2 * n, NULL };
	c->args[1] = (struct npukb_kernel_arg){ NPUKB_PARAM_INPUT, c->py, 2 * n, NULL };
	c->args[2] = (struct npukb_kernel_arg){ NPUKB_PARAM_OUTPUT, c->pz, 2 * n, NULL };
	c->args[3] = (struct npukb_kernel_arg){ NPUKB_PARAM_WORKSPACE, NULL, 0, NULL };
	c->args[4] = (struct npukb_kernel_arg){ NPUKB_PARAM_TILING, c->pt, sizeof tiling, NULL };
	memset(&c->data, 0, sizeof(c->data));
	c->data.block_dim = block_dim;
	c->data.nargs = 5;
	c->data.args = c->args;
	c->data.tiling_path = c->pt;
	c->data.tiling_bytes = sizeof tiling;
}

static uint16_t *read_u16(const char *path, size_t n)
{
	uint16_t *buf = malloc(2 * n + 2);
	FILE *f = fopen(path, "rb");
	cr_assert(buf && f);
	cr_assert_eq(fread(buf, 2, n, f), n);
	fclose(f);
	return buf;
}

static void run_case(struct built *b, struct case_files *c, struct npukb_run_result *r)
{
	struct npukb_run_request req;
	/* As in npukb, the case's files live in the run's work folder: the
	 * sandbox shows the harness nothing else. */
	char *wd = strdup(c->dir);
	int rc;

	memset(&req, 0, sizeof(req));
	req.task = &b->task;
	req.sample = &b->sample;
	req.options = &b->opts;
	req.artifact = b->res.artifact;
	req.workdir = wd;
	req.data = &c->data;
	req.want_timing = 1;
	rc = npukb_cpusim_plugin.backend->run(&req, r);
	cr_assert_eq(rc, 0, "run() failed: %s", r->message ? r->message : "?");
	free(wd);
}

/* Number of z elements that differ from x + y rounded once; first in *first. */
static size_t count_wrong(struct case_files *c, size_t *first, size_t *poisoned)
{
	uint16_t *z = read_u16(c->pz, c->n);
	size_t i, bad = 0;

	*poisoned = 0;
	*first = (size_t)-1;
	for (i = 0; i < c->n; i++) {
		uint16_t want = d2h(h2d(c->x[i]) + h2d(c->y[i]));
		if (z[i] == POISON)
			(*poisoned)++;
		if (z[i] != want) {
			if (bad == 0)
				*first = i;
			bad++;
		}
	}
	free(z);
	return bad;
}

static void assert_inputs_intact(struct case_files *c)
{
	uint16_t *x = read_u16(c->px, c->n), *y = read_u16(c->py, c->n);
	cr_assert(memcmp(x, c->x, 2 * c->n) == 0, "input x was modified");
	cr_assert(memcmp(y, c->y, 2 * c->n) == 0, "input y was modified");
	free(x);
	free(y);
}

#define ANSWER "levels/level1/Math/AddCustom/answer"
#define SAMPLES "tests/samples/AddCustom/"
#define CASE0_NUMEL ((size_t)48 * 128 * 512)

/* ---- the plugin descriptor ------------------------------------------------- */

Test(cpusim, descriptor)
{
	const struct npukb_plugin *p = &npukb_cpusim_plugin;
	cr_assert_eq(p->abi, NPUKB_PLUGIN_ABI);
	cr_assert_eq(p->kind, NPUKB_PLUGIN_BACKEND);
	cr_assert_str_eq(p->name, "cpusim");
	cr_assert_not_null(p->backend);
	cr_assert_not_null(p->backend->probe);
	cr_assert_not_null(p->backend->build);
	cr_assert_not_null(p->backend->run);
}

Test(cpusim, probe_and_identity)
{
	char reason[256] = "", id[256] = "";
	setup_env();
	cr_assert_eq(npukb_cpusim_plugin.backend->probe(reason, sizeof reason), 0, "%s", reason);
	cr_assert_eq(npukb_cpusim_plugin.backend->identity(id, sizeof id), 0);
	cr_assert(strlen(id) > 0);
}

Test(cpusim, probe_reports_missing_compiler)
{
	char reason[256] = "";
	setup_env();
	setenv("NPUKB_CXX", "/nonexistent/g++", 1);
	cr_assert_neq(npukb_cpusim_plugin.backend->probe(reason, sizeof reason), 0);
	cr_assert(strstr(reason, "/nonexistent/g++") != NULL, "reason: %s", reason);
}

Test(cpusim, probe_reports_missing_data)
{
	char reason[256] = "";
	setenv("NPUKB_CPUSIM_DIR", "/nonexistent/cpusim", 1);
	cr_assert_neq(npukb_cpusim_plugin.backend->probe(reason, sizeof reason), 0);
	cr_assert(strstr(reason, "NPUKB_CPUSIM_DIR") != NULL, "reason: %s", reason);
}

/* ---- the expert answer ------------------------------------------------------ */

Test(cpusim, answer_case0_bit_exact, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	size_t first, poisoned, bad;

	build_ok(&b, ANSWER);
	cr_assert(b.res.artifact && b.res.artifact[0] == '/');
	make_case(&c, CASE0_NUMEL, 48, 1);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 1, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
	cr_assert_null(r.category);
	cr_assert_eq(r.has_cycles, 1);
	cr_assert_gt(r.cycles, 0);
	/* 1800 MHz for ascend910b2. */
	cr_assert_float_eq(r.time_us, r.cycles / 1800.0, 0.01);
	bad = count_wrong(&c, &first, &poisoned);
	cr_assert_eq(bad, 0, "%zu wrong elements, first at %zu", bad, first);
	assert_inputs_intact(&c);
}

/* Lengths that are not multiples of 16 halves, of the core count, or tiny. */
static const size_t odd_lengths[] = { 5, 17, 48 * 16 + 7, 100003, 1000003 };

Test(cpusim, answer_odd_lengths_bit_exact, .timeout = 120)
{
	struct built b;
	size_t k;
	static const int blocks[] = { 48, 7 };

	build_ok(&b, ANSWER);
	for (k = 0; k < sizeof odd_lengths / sizeof odd_lengths[0]; k++) {
		for (size_t j = 0; j < 2; j++) {
			struct case_files c;
			struct npukb_run_result r;
			size_t first, poisoned, bad;

			make_case(&c, odd_lengths[k], blocks[j], 7 + k);
			run_case(&b, &c, &r);
			cr_assert_eq(r.ok, 1, "n=%zu: %s", odd_lengths[k], r.message);
			bad = count_wrong(&c, &first, &poisoned);
			cr_assert_eq(bad, 0, "n=%zu blocks=%d: %zu wrong, first at %zu", odd_lengths[k],
				     blocks[j], bad, first);
		}
	}
}

Test(cpusim, cycles_deterministic_and_double_buffer_faster, .timeout = 120)
{
	struct built dbl, sgl;
	struct case_files c;
	struct npukb_run_result r1, r2, rs;
	size_t first, poisoned;

	build_ok(&dbl, ANSWER);
	build_ok(&sgl, SAMPLES "single_buffer");
	make_case(&c, CASE0_NUMEL, 48, 3);
	run_case(&dbl, &c, &r1);
	run_case(&dbl, &c, &r2);
	run_case(&sgl, &c, &rs);
	cr_assert(r1.ok && r2.ok && rs.ok);
	cr_assert_eq(r1.cycles, r2.cycles, "cycles differ between identical runs");
	cr_assert_eq(count_wrong(&c, &first, &poisoned), 0, "single buffer is correct too");
	cr_assert_lt(r1.cycles, rs.cycles, "double buffered %.0f cycles, single buffered %.0f",
		     r1.cycles, rs.cycles);
}

Test(cpusim, more_cores_are_faster, .timeout = 120)
{
	struct built b;
	struct case_files one, many;
	struct npukb_run_result r1, r48;
	size_t first, poisoned;

	build_ok(&b, ANSWER);
	make_case(&one, CASE0_NUMEL, 1, 5);
	run_case(&b, &one, &r1);
	cr_assert(r1.ok, "%s", r1.message);
	cr_assert_eq(count_wrong(&one, &first, &poisoned), 0, "1 block is correct too");
	make_case(&many, CASE0_NUMEL, 48, 5);
	run_case(&b, &many, &r48);
	cr_assert(r48.ok, "%s", r48.message);
	/* not 48x: the kernel is bounded below by HBM bandwidth */
	cr_assert_lt(r48.cycles * 4, r1.cycles, "48 blocks %.0f cycles, 1 block %.0f",
		     r48.cycles, r1.cycles);
}

/* ---- broken samples ------------------------------------------------------ */

Test(cpusim, compile_error_diagnostics, .timeout = 120)
{
	struct built b;

	build_sample(&b, SAMPLES "compile_error", 30);
	cr_assert_eq(b.res.ok, 0);
	cr_assert_null(b.res.artifact);
	cr_assert_eq(b.res.proc.kind, NPUKB_EXIT_NORMAL);
	cr_assert_neq(b.res.proc.exit_code, 0);
	cr_assert_not_null(b.res.diagnostics);
	cr_assert(strstr(b.res.diagnostics, "no matching function for call to") != NULL, "%s",
		  b.res.diagnostics);
	/* The message is the compiler's error line, though the sample's path
	 * (.../compile_error/) holds the word too. */
	cr_assert(strstr(b.res.message, "error: no matching function for call to") != NULL, "message: %s",
		  b.res.message);
	/* The details start with the failing command, the last one in
	 * commands.log, which lists every command of the build to repeat it
	 * by hand. */
	cr_assert(strncmp(b.res.diagnostics, "$ ", 2) == 0, "%s", b.res.diagnostics);
	{
		char path[4200], line[16384] = "", last[16384] = "";
		FILE *f;
		snprintf(path, sizeof path, "%s/commands.log", b.workdir);
		f = fopen(path, "r");
		cr_assert_not_null(f, "no %s", path);
		while (fgets(line, sizeof line, f))
			strcpy(last, line);
		fclose(f);
		cr_assert(strstr(last, "add_custom.cpp") != NULL, "last command: %s", last);
		cr_expect(strncmp(b.res.diagnostics + 2, last, strlen(last)) == 0,
			  "details: %.300s\nlast command: %s", b.res.diagnostics, last);
	}
}

Test(cpusim, compile_timeout)
{
	struct built b;
	struct npukb_build_request req;
	char dir[4096];

	setup_env();
	snprintf(dir, sizeof dir, "%s/%s", srcdir(), ANSWER);
	fake_task(&b.task);
	fake_options(&b.opts, 10);
	b.opts.build_limits.wall_seconds = 0.05;
	memset(&b.sample, 0, sizeof(b.sample));
	b.sample.dir = dir;
	b.sample.mode = NPUKB_MODE_KERNEL_ONLY;
	b.sample.nfiles = 1;
	b.sample.files = kernel_files;
	memset(&req, 0, sizeof(req));
	req.task = &b.task;
	req.sample = &b.sample;
	req.options = &b.opts;
	req.workdir = tempdir();
	cr_assert_eq(npukb_cpusim_plugin.backend->build(&req, &b.res), 0);
	cr_assert_eq(b.res.ok, 0);
	cr_assert_eq(b.res.proc.kind, NPUKB_EXIT_TIMEOUT, "kind %d", (int)b.res.proc.kind);
}

/* runtime/harness.cpp is compiled once per build into npukb_harness.o in
 * the work directory and linked into the kernel; an object already there
 * (stale, from another compiler or SoC, or garbage) is replaced, never
 * linked. */
Test(cpusim, harness_object_rebuilt_per_build, .timeout = 120)
{
	struct built b;
	char dir[4096], magic[4] = "";
	char *work = tempdir(), *obj;
	FILE *f;

	snprintf(dir, sizeof dir, "%s/%s", srcdir(), ANSWER);
	obj = path_in(work, "npukb_harness.o");
	write_file(obj, "not an object file\n", 19);
	build_dir_in(&b, dir, 30, work);
	cr_assert_eq(b.res.ok, 1, "%s\n%s", b.res.message, b.res.diagnostics ? b.res.diagnostics : "");
	f = fopen(obj, "rb");
	cr_assert_not_null(f, "no %s", obj);
	cr_assert_eq(fread(magic, 1, 4, f), 4);
	fclose(f);
	cr_assert(memcmp(magic, "\177ELF", 4) == 0, "%s is not an object file", obj);
	free(obj);
}

/* Host+device samples need op_host and op_kernel sources; the full mode is
 * tested end to end in test_cpusim_hostdev. */
Test(cpusim, host_device_sample_without_op_host_is_rejected)
{
	struct built b;
	struct npukb_build_request req;

	setup_env();
	fake_task(&b.task);
	fake_options(&b.opts, 10);
	memset(&b.sample, 0, sizeof(b.sample));
	b.sample.dir = ".";
	b.sample.mode = NPUKB_MODE_HOST_DEVICE;
	memset(&req, 0, sizeof(req));
	req.task = &b.task;
	req.sample = &b.sample;
	req.options = &b.opts;
	req.workdir = "/tmp";
	cr_assert_eq(npukb_cpusim_plugin.backend->build(&req, &b.res), 0);
	cr_assert_eq(b.res.skipped, 0);
	cr_assert_eq(b.res.ok, 0);
	cr_assert_not_null(b.res.message);
	cr_expect_not_null(strstr(b.res.message, "without op_host/ sources"), "%s", b.res.message);
}

Test(cpusim, wrong_result_runs_but_mismatches, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	size_t first, poisoned;

	build_ok(&b, SAMPLES "wrong_result");
	make_case(&c, CASE0_NUMEL, 48, 5);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 1, "%s", r.message);
	cr_assert_gt(count_wrong(&c, &first, &poisoned), CASE0_NUMEL / 2);
	cr_assert_eq(poisoned, 0);
}

Test(cpusim, unwritten_tail_leaves_poison, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	size_t first, poisoned, bad;

	build_ok(&b, SAMPLES "unwritten_tail");
	make_case(&c, CASE0_NUMEL, 48, 5);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 1, "%s", r.message);
	bad = count_wrong(&c, &first, &poisoned);
	/* One tile of 4096 halves per core is never written. */
	cr_assert_eq(poisoned, (size_t)48 * 4096);
	cr_assert_eq(bad, poisoned);
}

Test(cpusim, hang_times_out, .timeout = 60)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;

	build_sample(&b, SAMPLES "hang", 2);
	cr_assert_eq(b.res.ok, 1, "%s", b.res.message);
	make_case(&c, CASE0_NUMEL, 48, 5);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 0);
	cr_assert_null(r.category);
	cr_assert_eq(r.proc.kind, NPUKB_EXIT_TIMEOUT, "kind %d: %s", (int)r.proc.kind, r.message);
}

Test(cpusim, crash_is_a_signal, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;

	build_ok(&b, SAMPLES "crash");
	make_case(&c, CASE0_NUMEL, 48, 5);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 0);
	cr_assert_null(r.category);
	cr_assert_eq(r.proc.kind, NPUKB_EXIT_SIGNAL, "kind %d: %s", (int)r.proc.kind, r.message);
	cr_assert_eq(r.proc.signal, SIGSEGV);
}

/* Each sample must trip exactly the check its `expected` file names, and
 * the report must point into the sample's own source. */
static void expect_check(const char *name, const char *line_hint)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	char rel[256], path[4096], want[64] = "", prefix[128], buf[256];
	FILE *f;

	snprintf(rel, sizeof rel, SAMPLES "%s", name);
	snprintf(path, sizeof path, "%s/%s/expected", srcdir(), rel);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(buf, sizeof buf, f))
		if (strncmp(buf, "category=", 9) == 0)
			snprintf(want, sizeof want, "%.*s", (int)strcspn(buf + 9, "\n"), buf + 9);
	fclose(f);
	cr_assert(want[0]);

	build_ok(&b, rel);
	make_case(&c, CASE0_NUMEL, 48, 9);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 0, "%s passed", name);
	cr_assert_eq(r.proc.kind, NPUKB_EXIT_NORMAL);
	cr_assert_eq(r.proc.exit_code, 3, "%s: %s", name, r.message);
	cr_assert_not_null(r.category, "%s: %s", name, r.message);
	cr_assert_str_eq(r.category, want, "%s: %s", name, r.message);
	snprintf(prefix, sizeof prefix, "npukb-cpusim: %s: ", want);
	cr_assert(strncmp(r.message, prefix, strlen(prefix)) == 0, "%s", r.message);
	cr_assert(strstr(r.message, line_hint) != NULL, "%s: want '%s' in: %s", name, line_hint,
		  r.message);
	cr_assert(strstr(r.message, "kernel_operator.h") == NULL, "%s", r.message);
}

Test(cpusim, check_ub_overflow, .timeout = 120) { expect_check("ub_overflow", "at add_custom.cpp:21"); }
Test(cpusim, check_misaligned, .timeout = 120) { expect_check("misaligned", "at add_custom.cpp:38"); }
Test(cpusim, check_gm_out_of_bounds, .timeout = 120) { expect_check("out_of_bounds", "(block 47) at add_custom.cpp:39"); }
Test(cpusim, check_vector_count, .timeout = 120) { expect_check("vector_count_oob", "at add_custom.cpp:50"); }
Test(cpusim, check_deque_empty, .timeout = 120) { expect_check("deque_empty", "at add_custom.cpp:47"); }
Test(cpusim, check_enque_full, .timeout = 120) { expect_check("enque_full", "at add_custom.cpp:44"); }
Test(cpusim, check_double_free, .timeout = 120) { expect_check("double_free", "at add_custom.cpp:53"); }
Test(cpusim, check_missing_free, .timeout = 120) { expect_check("missing_free", "at add_custom.cpp:49"); }
Test(cpusim, check_leak_at_end, .timeout = 120) { expect_check("leak_at_end", "at add_custom.cpp:24"); }

/* ---- checks at their boundaries, with small generated kernels ------------- */

static const char snippet_head[] =
	"#include \"kernel_operator.h\"\n"
	"using namespace AscendC;\n"
	"extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,\n"
	"                                                  GM_ADDR workspace, GM_ADDR tiling)\n"
	"{\n"
	"    GET_TILING_DATA(td, tiling);\n"
	"    TPipe pipe;\n"
	"    GlobalTensor<half> xGm, zGm;\n"
	"    xGm.SetGlobalBuffer((__gm__ half *)x, td.totalLength);\n"
	"    zGm.SetGlobalBuffer((__gm__ half *)z, td.totalLength);\n";

/* A narrowing conversion in braces is an error for CANN's kernel compiler
 * (clang); g++ only warns, so cpusim makes it an error for kernel sources:
 * a kernel cpusim builds must build on the device. */
Test(cpusim, narrowing_in_braces_fails_the_kernel_build, .timeout = 120)
{
	struct built b;
	char *dir = tempdir(), *file = path_in(dir, "add_custom.cpp");
	FILE *f = fopen(file, "w");

	cr_assert_not_null(f);
	fputs(snippet_head, f);
	fputs("    uint16_t n16{td.totalLength};\n"
	      "    zGm.SetValue(0, xGm.GetValue(n16 - n16));\n"
	      "}\n", f);
	fclose(f);
	build_dir(&b, dir, 30);
	cr_assert_eq(b.res.ok, 0, "the narrowing kernel built");
	cr_assert_not_null(b.res.diagnostics);
	cr_assert(strstr(b.res.diagnostics, "narrowing conversion") != NULL, "%s", b.res.diagnostics);
	cr_assert(strstr(b.res.message, "error:") != NULL, "message: %s", b.res.message);
}

/* Builds a sample whose add_custom.cpp is head + body (body may be NULL)
 * and runs it on n elements in `blocks` blocks; the build must succeed. */
static void run_source_blocks(const char *head, const char *body, size_t n, int blocks,
			      struct case_files *c, struct npukb_run_result *r)
{
	struct built b;
	char *dir = tempdir(), *file = path_in(dir, "add_custom.cpp");
	FILE *f = fopen(file, "w");

	cr_assert_not_null(f);
	fputs(head, f);
	if (body)
		fprintf(f, "%s}\n", body);
	fclose(f);
	build_dir(&b, dir, 30);
	cr_assert_eq(b.res.ok, 1, "%s\n%s", b.res.message, b.res.diagnostics ? b.res.diagnostics : "");
	make_case(c, n, blocks, 11);
	run_case(&b, c, r);
}

/* Builds and runs a kernel made of snippet_head + body on n elements, in
 * `blocks` blocks. */
static void run_snippet_blocks(const char *body, size_t n, int blocks, struct case_files *c,
			       struct npukb_run_result *r)
{
	run_source_blocks(snippet_head, body, n, blocks, c, r);
}

static void run_snippet(const char *body, size_t n, struct case_files *c, struct npukb_run_result *r)
{
	run_snippet_blocks(body, n, 1, c, r);
}

static void snippet_passes(const char *body)
{
	struct case_files c;
	struct npukb_run_result r;
	run_snippet(body, 1024, &c, &r);
	cr_assert_eq(r.ok, 1, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
}

static void snippet_trips(const char *body, const char *category)
{
	struct case_files c;
	struct npukb_run_result r;
	run_snippet(body, 1024, &c, &r);
	cr_assert_eq(r.ok, 0, "passed: %s", body);
	cr_assert_not_null(r.category, "%s", r.message);
	cr_assert_str_eq(r.category, category, "%s", r.message);
}

/* A kernel-only source with a host launch wrapper in CCE's syntax, the
 * launch spread over three lines: compiled from a rewritten copy, the
 * kernel's check report still names the original file and line 19. */
Test(cpusim, launch_wrapper_keeps_file_and_lines, .timeout = 60)
{
	static const char src[] =
		"#include \"kernel_operator.h\"\n"
		"using namespace AscendC;\n"
		"extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,\n"
		"                                                  GM_ADDR workspace, GM_ADDR tiling);\n"
		"#ifndef __CCE_KT_TEST__\n"
		"void add_custom_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y,\n"
		"                   uint8_t *z, uint8_t *workspace, uint8_t *tiling)\n"
		"{\n"
		"    add_custom\n"
		"        <<<blockDim, l2ctrl,\n"
		"           stream>>>(x, y, z, workspace, tiling);\n"
		"}\n"
		"#endif\n"
		"extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,\n"
		"                                                  GM_ADDR workspace, GM_ADDR tiling)\n"
		"{\n"
		"    TPipe pipe;\n"
		"    TBuf<TPosition::VECCALC> a;\n"
		"    pipe.InitBuffer(a, 262144);\n"
		"}\n";
	struct case_files c;
	struct npukb_run_result r;

	run_source_blocks(src, NULL, 1024, 1, &c, &r);
	cr_assert_eq(r.ok, 0, "passed");
	cr_assert_str_eq(r.category ? r.category : "", "ub-overflow", "%s", r.message);
	cr_assert_not_null(strstr(r.message, "at add_custom.cpp:19"), "%s", r.message);
}

/* The rewrite itself: launches only, never inside comments or literals,
 * every line break kept. */
static char *rewrite(const char *text)
{
	char *out = (char *)"unset";

	cr_assert_eq(chevron_rewrite_text(text, &out), 0);
	return out;
}

static size_t newlines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

Test(cpusim, chevron_rewrite_text_cases)
{
	static const char multi[] = "void f() {\n  ns::k\n    <<<a,\n b(c, d), s>>>(x,\n y);\n}\n";
	char *out = rewrite("k<<<a, b(c), d>>>(x, y);\n");

	cr_assert_str_eq(out, "npukb_cpusim_chevron_launch(a, b(c), d), k(x, y);\n");
	free(out);
	out = rewrite(multi);
	cr_assert_not_null(strstr(out, "npukb_cpusim_chevron_launch(a,\n b(c, d), s), ns::k(x,"), "%s", out);
	cr_assert_eq(newlines(out), newlines(multi), "%s", out);
	free(out);
	/* nothing to rewrite: *out is NULL */
	cr_assert_null(rewrite("// k<<<1, 2, 3>>>(x);\n/* k<<<1>>>() */ int a = 1;\n"));
	cr_assert_null(rewrite("const char *s = \"k<<<1, 2, 3>>>(x)\"; char c = '<';\n"));
	cr_assert_null(rewrite("auto r = R\"(k<<<1>>>(x))\";\n"));
	cr_assert_null(rewrite("x = a << b; y = 1 <<<;\n")); /* no name before <<< */
	cr_assert_null(rewrite("k<<<a, b; >>>(x);\n")); /* a ; ends the search */
}

/* The search for >>> is bounded: a configuration longer than any launch's
 * is left alone (and a file of nothing but launches-to-be is scanned in
 * linear time). */
Test(cpusim, chevron_long_configuration_is_not_a_launch)
{
	char text[1024] = "k<<<";

	memset(text + 4, 'a', 600);
	strcpy(text + 604, ">>>(x);\n");
	cr_assert_null(rewrite(text));
}

Test(cpusim, ub_exactly_full_passes, .timeout = 60)
{
	snippet_passes("    TBuf<TPosition::VECCALC> a, b;\n"
		       "    pipe.InitBuffer(a, 131072);\n"
		       "    pipe.InitBuffer(b, 65536);\n");
}

Test(cpusim, ub_one_byte_over_trips, .timeout = 60)
{
	/* 65537 rounds up to 65568: 32 bytes past 192 KiB. */
	snippet_trips("    TBuf<TPosition::VECCALC> a, b;\n"
		      "    pipe.InitBuffer(a, 131072);\n"
		      "    pipe.InitBuffer(b, 65537);\n", "ub-overflow");
}

Test(cpusim, aligned_ub_offset_passes, .timeout = 60)
{
	snippet_passes("    TBuf<TPosition::VECCALC> a;\n"
		       "    pipe.InitBuffer(a, 4096);\n"
		       "    LocalTensor<half> t = a.Get<half>();\n"
		       "    DataCopy(t[16], xGm, 16);\n");
}

Test(cpusim, unaligned_ub_offset_trips, .timeout = 60)
{
	snippet_trips("    TBuf<TPosition::VECCALC> a;\n"
		      "    pipe.InitBuffer(a, 4096);\n"
		      "    LocalTensor<half> t = a.Get<half>();\n"
		      "    DataCopy(t[8], xGm, 16);\n", "misaligned");
}

Test(cpusim, copy_up_to_gm_end_passes, .timeout = 60)
{
	/* 17 halves round down to 16: the copy ends exactly at the end of x. */
	snippet_passes("    TBuf<TPosition::VECCALC> a;\n"
		       "    pipe.InitBuffer(a, 4096);\n"
		       "    LocalTensor<half> t = a.Get<half>();\n"
		       "    DataCopy(t, xGm[td.totalLength - 16], 17);\n");
}

Test(cpusim, copy_past_gm_end_trips, .timeout = 60)
{
	/* x is 2048 bytes, its device allocation 2560 (32 more, rounded up
	 * to 512): this read ends at byte 3056. */
	snippet_trips("    TBuf<TPosition::VECCALC> a;\n"
		      "    pipe.InitBuffer(a, 4096);\n"
		      "    LocalTensor<half> t = a.Get<half>();\n"
		      "    DataCopy(t, xGm[td.totalLength - 8], 512);\n", "out-of-bounds");
}

Test(cpusim, copy_into_the_allocation_guard_passes, .timeout = 60)
{
	/* x is 2048 bytes, a multiple of 512: the 32 bytes every device
	 * allocation has past its end are still there. */
	snippet_passes("    TBuf<TPosition::VECCALC> a;\n"
		       "    pipe.InitBuffer(a, 4096);\n"
		       "    LocalTensor<half> t = a.Get<half>();\n"
		       "    DataCopy(t, xGm[td.totalLength - 8], 16);\n");
}

Test(cpusim, device_build_macros_are_defined, .timeout = 60)
{
	/* What kernels test in #if: the 910B architecture and the ge::DataType
	 * numbers ORIG_DTYPE_<TENSOR> are compared with (this task declares no
	 * tensors; the host+device IsFinite sample checks ORIG_DTYPE_X). */
	snippet_passes("#if !defined(__CCE_AICORE__) || __CCE_AICORE__ != 220 || __NPU_ARCH__ != 2201\n"
		       "#error architecture macros\n"
		       "#endif\n"
		       "#if DT_FLOAT != 0 || DT_FLOAT16 != 1 || DT_BF16 != 27\n"
		       "#error DT_ numbers\n"
		       "#endif\n");
}

Test(cpusim, copy_rounds_down_to_32_bytes, .timeout = 60)
{
	struct case_files c;
	struct npukb_run_result r;
	uint16_t *z;
	size_t i;

	run_snippet("    TBuf<TPosition::VECCALC> a;\n"
		    "    pipe.InitBuffer(a, 4096);\n"
		    "    LocalTensor<half> t = a.Get<half>();\n"
		    "    DataCopy(t, xGm, 31);\n"
		    "    PipeBarrier<PIPE_ALL>();\n"
		    "    DataCopy(zGm, t, 31);\n", 1024, &c, &r);
	cr_assert_eq(r.ok, 1, "%s", r.message);
	z = read_u16(c.pz, c.n);
	for (i = 0; i < 16; i++)
		cr_assert_eq(z[i], c.x[i], "element %zu", i);
	for (i = 16; i < 32; i++)
		cr_assert_eq(z[i], POISON, "element %zu was written", i);
	free(z);
}

Test(cpusim, depth_two_queue_takes_two_enques, .timeout = 60)
{
	snippet_passes("    TQue<QuePosition::VECIN, 2> q;\n"
		       "    pipe.InitBuffer(q, 2, 512);\n"
		       "    LocalTensor<half> a = q.AllocTensor<half>();\n"
		       "    LocalTensor<half> b = q.AllocTensor<half>();\n"
		       "    DataCopy(a, xGm, 256);\n"
		       "    DataCopy(b, xGm[256], 256);\n"
		       "    q.EnQue(a);\n"
		       "    q.EnQue(b);\n"
		       "    a = q.DeQue<half>();\n"
		       "    b = q.DeQue<half>();\n"
		       "    q.FreeTensor(a);\n"
		       "    q.FreeTensor(b);\n");
}

Test(cpusim, free_of_foreign_tensor_trips, .timeout = 60)
{
	snippet_trips("    TQue<QuePosition::VECIN, 1> q, r;\n"
		      "    pipe.InitBuffer(q, 1, 512);\n"
		      "    pipe.InitBuffer(r, 1, 512);\n"
		      "    LocalTensor<half> a = q.AllocTensor<half>();\n"
		      "    r.FreeTensor(a);\n", "queue-misuse");
}

Test(cpusim, tiling_shorter_than_struct_trips, .timeout = 60)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	char *dir = tempdir(), *file = path_in(dir, "add_custom.cpp");
	FILE *f = fopen(file, "w");

	/* The framework declares the tiling struct in kernel-only mode: a
	 * kernel that declares it again does not compile, as the question says. */
	cr_assert_not_null(f);
	fputs("#include \"kernel_operator.h\"\n"
	      "struct AddCustomTilingData { uint32_t totalLength; uint32_t tileNum; };\n"
	      "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,\n"
	      "    GM_ADDR workspace, GM_ADDR tiling) { GET_TILING_DATA(td, tiling); (void)td; }\n", f);
	fclose(f);
	setup_env();
	build_dir(&b, dir, 30);
	cr_assert_eq(b.res.ok, 0, "compiled although the kernel redefines AddCustomTilingData");
	cr_assert(strstr(b.res.diagnostics, "redefinition") != NULL, "%s", b.res.diagnostics);

	/* A kernel reading a struct larger than the tiling data it was given. */
	f = fopen(file, "w");
	cr_assert_not_null(f);
	fputs("#include \"kernel_operator.h\"\n"
	      "struct Big { uint32_t a[4]; };\n"
	      "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,\n"
	      "    GM_ADDR workspace, GM_ADDR tiling) { GET_TILING_DATA_WITH_STRUCT(Big, td, tiling); (void)td; }\n", f);
	fclose(f);
	npukb_build_result_clear(&b.res);
	build_dir(&b, dir, 30);
	cr_assert_eq(b.res.ok, 1, "%s", b.res.diagnostics ? b.res.diagnostics : "");
	make_case(&c, 64, 1, 1);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 0);
	cr_assert_str_eq(r.category, "out-of-bounds", "%s", r.message);
	cr_assert(strstr(r.message, "Big is 16 bytes") != NULL, "%s", r.message);
}

/* The API subset beyond AddCustom, on float, int32_t, half and bfloat16_t:
 * the kernel traps (a crash, so the run fails) when a result is wrong. */
Test(cpusim, api_subset_computes, .timeout = 60)
{
	snippet_passes(
		/* A barrier before each scalar read: the vector results must have
		 * landed (on the device as on cpusim, which reports the race). */
		"#define CHECK(c) do { PipeBarrier<PIPE_ALL>(); if (!(c)) { printf(\"check failed: line %d\\n\", __LINE__); __builtin_trap(); } } while (0)\n"
		"    TBuf<TPosition::VECCALC> buf;\n"
		"    pipe.InitBuffer(buf, 8192);\n"
		"    LocalTensor<float> a = buf.Get<float>(64);\n"
		"    LocalTensor<float> b = buf.GetWithOffset<float>(64, 1024);\n"
		"    LocalTensor<float> c = buf.GetWithOffset<float>(64, 2048);\n"
		"    LocalTensor<int32_t> ia = buf.GetWithOffset<int32_t>(64, 3072);\n"
		"    LocalTensor<int32_t> ib = buf.GetWithOffset<int32_t>(64, 3584);\n"
		"    LocalTensor<int32_t> ic = buf.GetWithOffset<int32_t>(64, 4096);\n"
		"    LocalTensor<half> h = buf.GetWithOffset<half>(64, 5120);\n"
		"    for (int i = 0; i < 64; i++) {\n"
		"        a.SetValue(i, (float)(i - 32)); b.SetValue(i, 2.0f);\n"
		"        ia.SetValue(i, i - 32); ib.SetValue(i, 3);\n"
		"    }\n"
		"    Add(c, a, b, 64);  for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == i - 30);\n"
		"    Sub(c, a, b, 64);  for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == i - 34);\n"
		"    Mul(c, a, b, 64);  for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == 2 * (i - 32));\n"
		"    Div(c, a, b, 64);  for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == (i - 32) / 2.0f);\n"
		"    Max(c, a, b, 64);  for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == (i - 32 > 2 ? i - 32 : 2));\n"
		"    Min(c, a, b, 64);  for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == (i - 32 < 2 ? i - 32 : 2));\n"
		"    Adds(c, a, 0.5f, 64); for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == i - 31.5f);\n"
		"    Muls(c, a, -3.0f, 64); for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == -3.0f * (i - 32));\n"
		"    Abs(c, a, 64);     for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == (i < 32 ? 32 - i : i - 32));\n"
		"    Relu(c, a, 64);    for (int i = 0; i < 64; i++) CHECK(c.GetValue(i) == (i < 32 ? 0 : i - 32));\n"
		"    Sqrt(c, b, 64);    CHECK(c.GetValue(5) == sqrtf(2.0f));\n"
		"    Exp(c, a, 64);     CHECK(c.GetValue(32) == 1.0f); CHECK(c.GetValue(33) == expf(1.0f));\n"
		"    Duplicate(c, 1.25f, 64); CHECK(c.GetValue(63) == 1.25f);\n"
		"    Add(ic, ia, ib, 64); CHECK(ic.GetValue(0) == -29);\n"
		"    Mul(ic, ia, ib, 64); CHECK(ic.GetValue(0) == -96);\n"
		"    Adds(ic, ia, 5, 64); CHECK(ic.GetValue(40) == 13);\n"
		"    Relu(ic, ia, 64);   CHECK(ic.GetValue(3) == 0 && ic.GetValue(40) == 8);\n"
		"    Duplicate(h, half(1.0f), 64);\n"
		"    Adds(h, h, half(0.5f), 64); CHECK((float)h.GetValue(7) == 1.5f);\n"
		"    Muls(h, h, half(2.0f), 64); CHECK(h.GetValue(7) == 3);\n"
		"    Exp(h, h, 64);  CHECK(h.GetValue(0).bits == half(exp(3.0)).bits);\n"
		"    PipeBarrier<PIPE_V>();\n"
		"    SetFlag<HardEvent::V_S>(EVENT_ID0);\n"
		"    WaitFlag<HardEvent::V_S>(EVENT_ID0);\n"
		"    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));\n"
		"    SetFlag<HardEvent::V_MTE3>(e);\n"
		"    WaitFlag<HardEvent::V_MTE3>(e);\n"
		"    bfloat16_t bf = 1.0f + 1.0f / 256;\n"
		"    CHECK((float)bf == 1.0f);\n"
		"    bfloat16_t bf2 = 1.0f + 3.0f / 256;\n"
		"    CHECK((float)bf2 == 1.0f + 4.0f / 256);\n"
		"    CHECK(GetBlockIdx() == 0 && GetBlockNum() == 1);\n");
}

/* Kernel-only mode defines DTYPE_<TENSOR> like CANN's op build, for the
 * tensors whose dtype is the same in every case. */
Test(cpusim, dtype_macros_for_fixed_dtypes, .timeout = 60)
{
	struct built b;
	struct npukb_build_request req;
	static char t_x[] = "x", t_z[] = "z", d_f16[] = "float16", d_var[] = "$dtype";
	struct npukb_tensor_decl tensors[2];
	char *dir = tempdir(), *file = path_in(dir, "add_custom.cpp");
	FILE *f = fopen(file, "w");

	cr_assert_not_null(f);
	fputs("#include \"kernel_operator.h\"\n"
	      "#include <type_traits>\n"
	      "static_assert(std::is_same<DTYPE_X, half>::value, \"DTYPE_X\");\n"
	      "#ifdef DTYPE_Z\n#error DTYPE_Z varies with the case\n#endif\n"
	      "template <class T> struct K { AscendC::GlobalTensor<T> g; };\n"
	      "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,\n"
	      "    GM_ADDR workspace, GM_ADDR tiling) { K<DTYPE_X> k; k.g.SetGlobalBuffer((__gm__ DTYPE_X *)x, 1); }\n", f);
	fclose(f);
	setup_env();
	memset(tensors, 0, sizeof tensors);
	tensors[0].name = t_x;
	tensors[0].dtype = d_f16;
	tensors[1].name = t_z;
	tensors[1].dtype = d_var;
	tensors[1].is_output = 1;
	fake_task(&b.task);
	b.task.ntensors = 2;
	b.task.tensors = tensors;
	fake_options(&b.opts, 30);
	memset(&b.sample, 0, sizeof(b.sample));
	b.sample.id = "s";
	b.sample.dir = dir;
	b.sample.mode = NPUKB_MODE_KERNEL_ONLY;
	b.sample.nfiles = 1;
	b.sample.files = kernel_files;
	memset(&req, 0, sizeof(req));
	req.task = &b.task;
	req.sample = &b.sample;
	req.options = &b.opts;
	req.workdir = tempdir();
	cr_assert_eq(npukb_cpusim_plugin.backend->build(&req, &b.res), 0);
	cr_assert_eq(b.res.ok, 1, "%s\n%s", b.res.message, b.res.diagnostics ? b.res.diagnostics : "");
}

/* ---- SyncAll: blocks run as coroutines and meet at the barrier ------------- */

/* Each block publishes b+1; after the barrier block 0 sums what all blocks
 * wrote, and after a second barrier every block copies that sum. Run one
 * block after another, block 0 would sum before the others wrote. */
static const char sync_body[] =
	"    int64_t b = GetBlockIdx(), n = GetBlockNum();\n"
	"    zGm.SetValue(b * 16, half((float)(b + 1)));\n"
	"    TBuf<TPosition::VECCALC> t;\n"
	"    pipe.InitBuffer(t, 64);\n"
	"    LocalTensor<float> keep = t.Get<float>();\n"
	"    keep.SetValue(0, (float)(b * 100));\n"
	"    SyncAll();\n"
	"    if (b == 0) {\n"
	"        float s = 0;\n"
	"        for (int64_t i = 0; i < n; i++) s += (float)zGm.GetValue(i * 16);\n"
	"        zGm.SetValue(1, half(s));\n"
	"    }\n"
	"    SyncAll();\n"
	"    zGm.SetValue(b * 16 + 2, zGm.GetValue(1));\n"
	"    /* the block's own UB survived the other blocks' turns */\n"
	"    zGm.SetValue(b * 16 + 3, half(keep.GetValue(0)));\n";

Test(cpusim, sync_all_meets_every_block, .timeout = 60)
{
	struct case_files c;
	struct npukb_run_result r;
	uint16_t *z;
	int b;

	run_snippet_blocks(sync_body, 1024, 8, &c, &r);
	cr_assert_eq(r.ok, 1, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
	z = read_u16(c.pz, c.n);
	cr_assert_eq(z[1], d2h(36.0), "sum %f", h2d(z[1]));
	for (b = 0; b < 8; b++) {
		cr_assert_eq(z[b * 16 + 2], d2h(36.0), "block %d saw %f", b, h2d(z[b * 16 + 2]));
		cr_assert_eq(z[b * 16 + 3], d2h(b * 100.0), "block %d UB %f", b, h2d(z[b * 16 + 3]));
	}
	/* Two barriers of 500 cycles each (ascend910b.conf's default). */
	cr_assert_gt(r.cycles, 1000.0);
	free(z);
}

/* Mode-0 cross-core flags meet every block like SyncAll. */
Test(cpusim, cross_core_flags_meet_every_block, .timeout = 60)
{
	static const char body[] =
		"    int64_t b = GetBlockIdx(), n = GetBlockNum();\n"
		"    zGm.SetValue(b * 16, half((float)(b + 1)));\n"
		"    CrossCoreSetFlag<0, PIPE_MTE3>(3);\n"
		"    CrossCoreWaitFlag(3);\n"
		"    float s = 0;\n"
		"    for (int64_t i = 0; i < n; i++) s += (float)zGm.GetValue(i * 16);\n"
		"    zGm.SetValue(b * 16 + 1, half(s));\n";
	struct case_files c;
	struct npukb_run_result r;
	uint16_t *z;

	run_snippet_blocks(body, 1024, 8, &c, &r);
	cr_assert_eq(r.ok, 1, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
	z = read_u16(c.pz, c.n);
	for (int b = 0; b < 8; b++)
		cr_expect_eq(z[b * 16 + 1], d2h(36.0), "block %d saw %f", b, h2d(z[b * 16 + 1]));
	free(z);
}

Test(cpusim, cross_core_wait_without_set_trips, .timeout = 60)
{
	struct case_files c;
	struct npukb_run_result r;

	run_snippet_blocks("    CrossCoreWaitFlag(2);\n", 1024, 4, &c, &r);
	cr_assert_eq(r.ok, 0);
	cr_assert_str_eq(r.category, "sync-race", "%s", r.message);
	cr_assert(strstr(r.message, "did not set the flag first") != NULL, "%s", r.message);
}

Test(cpusim, sync_all_block_skipping_it_trips, .timeout = 60)
{
	struct case_files c;
	struct npukb_run_result r;

	run_snippet_blocks("    if (GetBlockIdx() == 3) return;\n    SyncAll();\n", 1024, 8, &c, &r);
	cr_assert_eq(r.ok, 0);
	cr_assert_str_eq(r.category, "sync-race", "%s", r.message);
	cr_assert(strstr(r.message, "1 of 8 blocks ended") != NULL, "%s", r.message);
	cr_assert(strstr(r.message, "add_custom.cpp:") != NULL, "%s", r.message);
}

Test(cpusim, sync_all_more_blocks_than_cores_trips, .timeout = 60)
{
	struct case_files c;
	struct npukb_run_result r;

	run_snippet_blocks("    SyncAll();\n", 1024, 49, &c, &r);
	cr_assert_eq(r.ok, 0);
	cr_assert_str_eq(r.category, "sync-race", "%s", r.message);
}

/* The new API families end to end through the plugin: DataCopyPad with odd
 * byte lengths, Cast half->float->half, Muls in float. */
Test(cpusim, pad_cast_muls_end_to_end, .timeout = 60)
{
	struct case_files c;
	struct npukb_run_result r;
	uint16_t *z;
	size_t i;

	run_snippet_blocks(
		"    TBuf<TPosition::VECCALC> a, f;\n"
		"    pipe.InitBuffer(a, 4096);\n"
		"    pipe.InitBuffer(f, 8192);\n"
		"    LocalTensor<half> h = a.Get<half>();\n"
		"    LocalTensor<float> w = f.Get<float>();\n"
		"    for (uint32_t off = 0; off < td.totalLength; off += 1000) {\n"
		"        uint32_t n = td.totalLength - off < 1000 ? td.totalLength - off : 1000;\n"
		"        DataCopyPad(h, xGm[off], DataCopyExtParams(1, n * 2, 0, 0, 0), DataCopyPadExtParams<half>(false, 0, 0, half(0)));\n"
		"        SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);\n"
		"        Cast(w, h, RoundMode::CAST_NONE, n);\n"
		"        Muls(w, w, 0.1f, n);\n"
		"        Cast(h, w, RoundMode::CAST_RINT, n);\n"
		"        SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);\n"
		"        DataCopyPad(zGm[off], h, DataCopyExtParams(1, n * 2, 0, 0, 0));\n"
		"        SetFlag<HardEvent::MTE3_MTE2>(0); WaitFlag<HardEvent::MTE3_MTE2>(0);\n"
		"    }\n", 2017, 1, &c, &r);
	cr_assert_eq(r.ok, 1, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
	z = read_u16(c.pz, c.n);
	for (i = 0; i < c.n; i++) {
		float prod = (float)(h2d(c.x[i]) * (double)0.1f);
		cr_assert_eq(z[i], d2h((double)prod), "element %zu: %f", i, h2d(z[i]));
	}
	free(z);
}

/* ---- the harness and the fp16 types --------------------------------------- */

Test(cpusim, harness_rejects_bad_command_line, .timeout = 120)
{
	struct built b;
	struct npukb_sandbox_spec spec;
	struct npukb_sandbox_result res;
	char err[256], *wd, build[4096], soc[4096];
	const char *reads[] = { build, soc, NULL };
	const char *argv[] = { NULL, "--blocks", "0", "--soc", "ascend910b2", "--stats", "s.txt", NULL };
	const char *argv2[] = { NULL, "--blocks", "1", "--soc", "nosuchsoc", "--stats", "s.txt", NULL };

	build_ok(&b, ANSWER);
	argv[0] = argv2[0] = b.res.artifact;
	wd = tempdir();
	/* The harness sees its build and the SoC tables, as in cpusim_run. */
	snprintf(build, sizeof build, "%s", b.res.artifact);
	*strrchr(build, '/') = '\0';
	snprintf(soc, sizeof soc, "%s/soc", getenv("NPUKB_CPUSIM_DIR"));
	memset(&spec, 0, sizeof(spec));
	spec.read_paths = reads;
	spec.argv = argv;
	spec.workdir = wd;
	spec.limits.wall_seconds = 10;
	cr_assert_eq(npukb_sandbox_run(&spec, &res, err, sizeof err), 0, "%s", err);
	cr_assert_eq(res.kind, NPUKB_EXIT_NORMAL);
	cr_assert_eq(res.exit_code, 2);
	spec.argv = argv2;
	cr_assert_eq(npukb_sandbox_run(&spec, &res, err, sizeof err), 0, "%s", err);
	cr_assert_eq(res.exit_code, 2);
}

Test(cpusim, fp16_selftest, .timeout = 120)
{
	struct npukb_sandbox_spec spec;
	struct npukb_sandbox_result res;
	char err[256], src[4096], inc[4096], *wd = tempdir();
	const char *cc[] = { "g++", "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", inc, src,
			     "-o", "fp16_selftest", NULL };
	const char *run[] = { "./fp16_selftest", NULL };
	char *dir;
	const char *reads[2] = { NULL, NULL };

	setup_env();
	/* The sandbox binds read paths at their own path: a VPATH build's
	 * NPUKB_CPUSIM_DIR (.../_build/sub/../../plugins/cpusim under
	 * distcheck) is resolved first. */
	dir = realpath(getenv("NPUKB_CPUSIM_DIR"), NULL);
	cr_assert_not_null(dir, "NPUKB_CPUSIM_DIR %s", getenv("NPUKB_CPUSIM_DIR"));
	reads[0] = dir;
	if (getenv("NPUKB_CXX"))
		cc[0] = getenv("NPUKB_CXX");
	snprintf(src, sizeof src, "%s/selftest/fp16_selftest.cpp", dir);
	snprintf(inc, sizeof inc, "-I%s/include", dir);
	memset(&spec, 0, sizeof(spec));
	spec.read_paths = reads;
	spec.argv = cc;
	spec.workdir = wd;
	spec.stderr_path = "cc.err";
	spec.limits.wall_seconds = 100;
	cr_assert_eq(npukb_sandbox_run(&spec, &res, err, sizeof err), 0, "%s", err);
	cr_assert_eq(res.exit_code, 0, "selftest did not compile (see %s/cc.err)", wd);
	spec.argv = run;
	spec.stderr_path = "run.err";
	cr_assert_eq(npukb_sandbox_run(&spec, &res, err, sizeof err), 0, "%s", err);
	cr_assert_eq(res.kind, NPUKB_EXIT_NORMAL);
	cr_assert_eq(res.exit_code, 0, "fp16 selftest failed (see %s/run.err)", wd);
	free(dir);
}
