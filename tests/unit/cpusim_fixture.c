/* cpusim_fixture.c - see cpusim_fixture.h. */
#include "cpusim_fixture.h"

#include <criterion/criterion.h>

#include <npukb/plugin.h>

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- reference half arithmetic, independent of the emulation headers ----- */

double h2d(uint16_t h)
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
uint16_t d2h(double d)
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

const char *srcdir(void)
{
	const char *s = getenv("NPUKB_SRCDIR");
	return s && *s ? s : ".";
}

void setup_env(void)
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

char *tempdir(void)
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

char *path_in(const char *dir, const char *name)
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
	{ n_x, NPUKB_PARAM_INPUT, NULL, NULL },
	{ n_y, NPUKB_PARAM_INPUT, NULL, NULL },
	{ n_z, NPUKB_PARAM_OUTPUT, NULL, NULL },
	{ n_ws, NPUKB_PARAM_WORKSPACE, NULL, NULL },
	{ n_tiling, NPUKB_PARAM_TILING, NULL, NULL },
};

void fake_task(struct npukb_task *t)
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

void fake_options(struct npukb_options *o, double run_wall)
{
	memset(o, 0, sizeof(*o));
	o->soc = "ascend910b2";
	o->build_limits.wall_seconds = 120;
	o->run_limits.wall_seconds = run_wall;
	o->nseeds = 1;
}

const char *const kernel_files[] = { "add_custom.cpp" };


/* Builds the sample in dir in workdir (which may hold files planted by the
 * test). */
void build_dir_in(struct built *b, const char *dir, double run_wall, char *workdir)
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

void build_dir(struct built *b, const char *dir, double run_wall)
{
	build_dir_in(b, dir, run_wall, tempdir());
}

void build_sample(struct built *b, const char *rel, double run_wall)
{
	char dir[4096];

	snprintf(dir, sizeof dir, "%s/%s", srcdir(), rel);
	build_dir(b, dir, run_wall);
}

void build_ok(struct built *b, const char *rel)
{
	build_sample(b, rel, 30);
	cr_assert_eq(b->res.ok, 1, "%s did not compile: %s\n%s", rel, b->res.message,
		     b->res.diagnostics ? b->res.diagnostics : "");
}


void write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

void make_case(struct case_files *c, size_t n, int block_dim, uint64_t seed)
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

uint16_t *read_u16(const char *path, size_t n)
{
	uint16_t *buf = malloc(2 * n + 2);
	FILE *f = fopen(path, "rb");
	cr_assert(buf && f);
	cr_assert_eq(fread(buf, 2, n, f), n);
	fclose(f);
	return buf;
}

void run_case(struct built *b, struct case_files *c, struct npukb_run_result *r)
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
size_t count_wrong(struct case_files *c, size_t *first, size_t *poisoned)
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

void assert_inputs_intact(struct case_files *c)
{
	uint16_t *x = read_u16(c->px, c->n), *y = read_u16(c->py, c->n);
	cr_assert(memcmp(x, c->x, 2 * c->n) == 0, "input x was modified");
	cr_assert(memcmp(y, c->y, 2 * c->n) == 0, "input y was modified");
	free(x);
	free(y);
}
