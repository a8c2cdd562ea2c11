/* test_ascend.c - CANN probing, the Ascend command lines, and the three
 * backends that need no NPU to be tested: ascend-device, ascend-hostdev and
 * the skeleton.
 *
 * CANN installs are faked in a temporary directory (empty files where the
 * probe looks, a shell script standing in for the compiler). The plugin
 * sources are compiled into this test (#include below) so their static
 * functions can be called without dlopen; the loader tests cover loading. */
#include <criterion/criterion.h>

#include "cann_probe.h"
#include "cann_options.h"
#include "manifest.h"

#include "../../plugins/ascend-device/ascend_device.c"
#include "../../plugins/ascend-device/host_program.h"
#include "../../plugins/ascend-hostdev/ascend_hostdev.c"
#include "../../plugins/skeleton/skeleton.c"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char tmp[64];

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void make_tmp(void)
{
	strcpy(tmp, "/tmp/npukb-ascend-test-XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
}

static void remove_tmp(void)
{
	if (tmp[0])
		nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	tmp[0] = '\0';
}

/* Creates tmp/<rel> with its parent folders and the given content. */
static void put_file(const char *rel, const char *content, int executable)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", tmp, rel);
	for (char *p = path + strlen(tmp) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(content, f);
	fclose(f);
	chmod(path, executable ? 0755 : 0644);
}

/* tmp/<rel>; the result lives until the fourth call after this one. */
static const char *at(const char *rel)
{
	static char bufs[4][PATH_MAX];
	static int next;
	char *b = bufs[next++ % 4];

	snprintf(b, PATH_MAX, "%s/%s", tmp, rel);
	return b;
}

/* ---- a fake environment ------------------------------------------------------ */

struct fake_env {
	const char *names[4];
	const char *values[4];
};

static const char *fake_get(void *ctx, const char *name)
{
	struct fake_env *e = ctx;

	for (int i = 0; i < 4 && e->names[i]; i++)
		if (strcmp(e->names[i], name) == 0)
			return e->values[i];
	return NULL;
}

static int probe_with(struct fake_env *vars, struct npukb_cann_info *info, char *reason,
		      size_t len)
{
	struct npukb_cann_env env = { fake_get, vars, tmp, NULL };

	return npukb_cann_probe_env(&env, info, reason, len);
}

#define CCEC_TREE "usr/local/Ascend/ascend-toolkit/latest"
#define BISHENG_TREE "usr/local/Ascend/cann"

static void fake_ccec_tree(const char *root)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof rel, "%s/compiler/ccec_compiler/bin/ccec", root);
	put_file(rel, "", 1);
	snprintf(rel, sizeof rel, "%s/runtime/lib64/libascendcl.so", root);
	put_file(rel, "", 0);
	snprintf(rel, sizeof rel, "%s/compiler/version.info", root);
	put_file(rel, "# compiler\nVersion=8.0.RC3\nversion_dir=8.0.RC3\n", 0);
}

static void fake_bisheng_tree(const char *root)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof rel, "%s/bin/bisheng", root);
	put_file(rel, "", 1);
	snprintf(rel, sizeof rel, "%s/lib64/libascendcl.so", root);
	put_file(rel, "", 0);
	snprintf(rel, sizeof rel, "%s/version.cfg", root);
	put_file(rel, "runtime_running_version=[7.8.0.1.100:8.5.0]\n", 0);
}

TestSuite(cann, .init = make_tmp, .fini = remove_tmp, .timeout = 20);

Test(cann, empty_machine_is_not_usable)
{
	struct fake_env vars = { { NULL }, { NULL } };
	struct npukb_cann_info info;
	char reason[1024];

	cr_assert_eq(probe_with(&vars, &info, reason, sizeof reason), NPUKB_CANN_NOT_FOUND);
	cr_assert_not(info.found);
	cr_assert(strncmp(reason, "CANN toolkit not found: set ASCEND_HOME_PATH", 44) == 0,
		  "%s", reason);
	cr_assert(strstr(reason, "$ASCEND_HOME_PATH (unset)"), "%s", reason);
	cr_assert(strstr(reason, "$ASCEND_TOOLKIT_HOME (unset)"), "%s", reason);
	cr_assert(strstr(reason, "/usr/local/Ascend/cann (missing)"), "%s", reason);
	cr_assert(strstr(reason, "/usr/local/Ascend/ascend-toolkit/latest (missing)"), "%s", reason);
	cr_assert_null(strchr(reason, '\n'), "the reason must be one line");
}

Test(cann, says_what_is_missing_in_a_candidate)
{
	struct fake_env vars = { { "ASCEND_HOME_PATH" }, { NULL } };
	struct npukb_cann_info info;
	char reason[1024];

	vars.values[0] = at("opt/nothing-here");
	put_file(BISHENG_TREE "/bin/bisheng", "", 1); /* no runtime library */
	put_file(CCEC_TREE "/runtime/lib64/libascendcl.so", "", 0); /* no compiler */
	cr_assert_eq(probe_with(&vars, &info, reason, sizeof reason), NPUKB_CANN_NOT_FOUND);
	cr_assert(strstr(reason, "opt/nothing-here (missing)"), "%s", reason);
	cr_assert(strstr(reason, "cann (no lib64/libascendcl.so"), "%s", reason);
	cr_assert(strstr(reason, "latest (no bin/bisheng or compiler/ccec_compiler/bin/ccec)"),
		  "%s", reason);
}

Test(cann, fake_toolkit_without_device)
{
	struct fake_env vars = { { NULL }, { NULL } };
	struct npukb_cann_info info;
	char reason[1024], id[512];

	fake_ccec_tree(CCEC_TREE);
	cr_assert_eq(probe_with(&vars, &info, reason, sizeof reason), NPUKB_CANN_NO_DEVICE);
	cr_assert(info.found);
	cr_assert_str_eq(info.root, at(CCEC_TREE));
	cr_assert_str_eq(info.found_by, "default location");
	cr_assert_eq(info.compiler_kind, NPUKB_CANN_CCEC);
	cr_assert_str_eq(info.compiler, at(CCEC_TREE "/compiler/ccec_compiler/bin/ccec"));
	cr_assert_str_eq(info.runtime_lib, at(CCEC_TREE "/runtime/lib64/libascendcl.so"));
	cr_assert_str_eq(info.version, "8.0.RC3");
	cr_assert_not(info.has_device);
	cr_assert(strstr(reason, "CANN 8.0.RC3 found at"), "%s", reason);
	cr_assert(strstr(reason, "but no NPU device ("), "%s", reason);
	cr_assert(strstr(reason, "/dev/davinci0 missing)"), "%s", reason);
	npukb_cann_identity(&info, id, sizeof id);
	cr_assert(strncmp(id, "CANN 8.0.RC3 (ccec) at ", 23) == 0, "%s", id);
}

Test(cann, fake_toolkit_with_device_is_usable)
{
	struct fake_env vars = { { NULL }, { NULL } };
	struct npukb_cann_info info;
	char reason[1024] = "untouched";

	fake_bisheng_tree(BISHENG_TREE);
	put_file("dev/davinci0", "", 0);
	cr_assert_eq(probe_with(&vars, &info, reason, sizeof reason), NPUKB_CANN_OK);
	cr_assert(info.has_device);
	cr_assert_eq(info.compiler_kind, NPUKB_CANN_BISHENG);
	cr_assert_str_eq(info.version, "8.5.0");
	cr_assert_str_eq(reason, "");
}

Test(cann, search_order)
{
	struct fake_env vars = { { "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME" }, { NULL } };
	struct npukb_cann_info info;
	char reason[1024], tk[PATH_MAX], home[PATH_MAX], opt[PATH_MAX];

	/* at() reuses its buffers: keep the variables' values apart. */
	snprintf(tk, sizeof tk, "%s", at("opt/tk"));
	snprintf(home, sizeof home, "%s", at("opt/home"));
	snprintf(opt, sizeof opt, "%s", at("opt"));
	fake_ccec_tree(CCEC_TREE);
	fake_bisheng_tree(BISHENG_TREE);
	/* Both defaults: the newer layout comes first. */
	probe_with(&vars, &info, reason, sizeof reason);
	cr_assert_str_eq(info.root, at(BISHENG_TREE));

	/* ASCEND_TOOLKIT_HOME beats the defaults. */
	fake_ccec_tree("opt/tk");
	vars.values[1] = tk;
	probe_with(&vars, &info, reason, sizeof reason);
	cr_assert_str_eq(info.root, at("opt/tk"));
	cr_assert_str_eq(info.found_by, "ASCEND_TOOLKIT_HOME");

	/* ASCEND_HOME_PATH beats everything. */
	fake_bisheng_tree("opt/home");
	vars.values[0] = home;
	probe_with(&vars, &info, reason, sizeof reason);
	cr_assert_str_eq(info.root, at("opt/home"));
	cr_assert_str_eq(info.found_by, "ASCEND_HOME_PATH");

	/* An incomplete ASCEND_HOME_PATH falls through to the next. */
	vars.values[0] = opt;
	probe_with(&vars, &info, reason, sizeof reason);
	cr_assert_str_eq(info.root, at("opt/tk"));
}

/* The ascend-home option names the one root looked at: it beats the
 * variables, and a root it names that is incomplete is reported, not
 * replaced by another toolkit. */
Test(cann, ascend_home_option_is_the_only_root)
{
	struct fake_env vars = { { "ASCEND_HOME_PATH" }, { NULL } };
	struct npukb_cann_env env = { fake_get, &vars, tmp, NULL };
	struct npukb_cann_info info;
	char reason[1024], home[PATH_MAX], mine[PATH_MAX];

	snprintf(home, sizeof home, "%s", at("opt/home"));
	snprintf(mine, sizeof mine, "%s", at("opt/mine"));
	fake_bisheng_tree("opt/home");
	fake_ccec_tree("opt/mine");
	vars.values[0] = home;
	env.home = mine;
	cr_assert_eq(npukb_cann_probe_env(&env, &info, reason, sizeof reason), NPUKB_CANN_NO_DEVICE);
	cr_assert_str_eq(info.root, mine);
	cr_assert_str_eq(info.found_by, "the ascend-home option");
	env.home = at("opt");
	cr_assert_eq(npukb_cann_probe_env(&env, &info, reason, sizeof reason), NPUKB_CANN_NOT_FOUND);
	cr_assert(strstr(reason, "ascend-home="), "%s", reason);
	cr_assert_not(info.found, "another root replaced the one named");
}

static void require_no_real_cann(void);

/* Both backends take the same options; configure() checks and keeps them,
 * and the plugin's probe, host compiler and device follow them over the
 * environment. */
Test(cann, backend_options)
{
	const struct npukb_backend_ops *const all[] = { npukb_ascend_device_plugin.backend,
							npukb_ascend_hostdev_plugin.backend };
	const char *const good[] = { "device=3", "cxx=/opt/cxx", NULL };
	const char *const empty_home[] = { "ascend-home=", NULL };
	const char *const bad_device[] = { "device=-1", NULL };
	const char *const big_device[] = { "device=1024", NULL };
	struct npukb_options o;
	char err[256], reason[1024], home[PATH_MAX];

	require_no_real_cann();
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(all[i]->options, npukb_cann_options);
		cr_assert_eq(all[i]->configure, npukb_cann_configure);
	}
	memset(&o, 0, sizeof o);
	o.backend_opts = empty_home;
	cr_assert_neq(npukb_cann_configure(&o, err, sizeof err), 0);
	cr_assert_str_eq(err, "ascend-home is empty");
	o.backend_opts = bad_device;
	cr_assert_neq(npukb_cann_configure(&o, err, sizeof err), 0);
	cr_assert(strstr(err, "0-1023"), "%s", err);
	o.backend_opts = big_device;
	cr_assert_neq(npukb_cann_configure(&o, err, sizeof err), 0);

	setenv("NPUKB_CXX", "/env/cxx", 1);
	setenv("NPUKB_ASCEND_DEVICE", "7", 1);
	cr_assert_eq(npukb_cann_configure(NULL, NULL, 0), 0);
	cr_assert_str_eq(npukb_cann_host_cxx(), "/env/cxx");
	cr_assert_eq(npukb_npu_device_id(), 7);
	fake_ccec_tree("opt/mine");
	snprintf(home, sizeof home, "%s", at("opt/mine"));
	o.backend_opts = good;
	cr_assert_eq(npukb_cann_configure(&o, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(npukb_cann_host_cxx(), "/opt/cxx");
	cr_assert_eq(npukb_npu_device_id(), 3);
	/* the probe of the real machine, with the option's root */
	{
		char opt_home[PATH_MAX + 16];
		const char *with_home[] = { opt_home, NULL };
		snprintf(opt_home, sizeof opt_home, "ascend-home=%s", home);
		o.backend_opts = with_home;
		cr_assert_eq(npukb_cann_configure(&o, err, sizeof err), 0, "%s", err);
		cr_assert_neq(all[0]->probe(reason, sizeof reason), 0);
		cr_assert(strstr(reason, home), "%s", reason);
		cr_assert(strstr(reason, "no NPU device"), "%s", reason);
	}
	/* forgotten with the plugin */
	npukb_ascend_device_plugin.fini();
	cr_assert_str_eq(npukb_cann_host_cxx(), "/env/cxx");
	cr_assert_eq(npukb_npu_device_id(), 7);
	unsetenv("NPUKB_CXX");
	unsetenv("NPUKB_ASCEND_DEVICE");
}

Test(cann, version_is_best_effort)
{
	struct fake_env vars = { { "ASCEND_HOME_PATH" }, { NULL } };
	struct npukb_cann_info info;
	char reason[1024], id[512];

	vars.values[0] = at("opt/nover");
	put_file("opt/nover/bin/bisheng", "", 1);
	put_file("opt/nover/lib64/libascendcl.so", "", 0);
	put_file("opt/nover/version.info", "no version in here\n", 0);
	cr_assert_eq(probe_with(&vars, &info, reason, sizeof reason), NPUKB_CANN_NO_DEVICE);
	cr_assert_str_eq(info.version, "");
	cr_assert(strstr(reason, "CANN found at "), "%s", reason);
	npukb_cann_identity(&info, id, sizeof id);
	cr_assert(strncmp(id, "CANN version unknown (bisheng) at ", 34) == 0, "%s", id);
	npukb_cann_identity(NULL, id, sizeof id);
	cr_assert_str_eq(id, "CANN not found");
}

/* ---- SoCs ---------------------------------------------------------------------- */

Test(cann, soc_table)
{
	struct npukb_cann_soc s;
	char err[512];

	cr_assert_eq(npukb_cann_soc_lookup("ascend910b2", &s, err, sizeof err), 0);
	cr_assert_str_eq(s.name, "ascend910b2");
	cr_assert_str_eq(s.soc_version, "Ascend910B2");
	cr_assert_str_eq(s.unit, "ascend910b");
	cr_assert_eq(s.npu_arch, 2201);
	cr_assert_str_eq(s.vec_arch, "dav-c220-vec");
	cr_assert_str_eq(s.cube_arch, "dav-c220-cube");

	cr_assert_eq(npukb_cann_soc_lookup("Ascend310P3", &s, err, sizeof err), 0);
	cr_assert_str_eq(s.name, "ascend310p3");
	cr_assert_str_eq(s.soc_version, "Ascend310P3");
	cr_assert_str_eq(s.unit, "ascend310p");
	cr_assert_eq(s.npu_arch, 2002);
	cr_assert_str_eq(s.vec_arch, "dav-m200");

	cr_assert_eq(npukb_cann_soc_lookup("ascend910_9392", &s, err, sizeof err), 0);
	cr_assert_str_eq(s.unit, "ascend910_93");
	cr_assert_str_eq(s.soc_version, "Ascend910_9392");
	cr_assert_str_eq(s.vec_arch, "dav-c220-vec");

	cr_assert_eq(npukb_cann_soc_lookup("ascend910b4-1", &s, err, sizeof err), 0);
	cr_assert_str_eq(s.soc_version, "Ascend910B4-1");
	cr_assert_eq(npukb_cann_soc_lookup("ascend910b2c", &s, err, sizeof err), 0);
}

Test(cann, unknown_soc_is_refused_clearly)
{
	static const char *const bad[] = {
		"ascend999", "ascend910", "ascend910b9", "ascend910_93", "ascend910_939",
		"ascend310p2", "ascend310b1", "gpu", "",
	};
	struct npukb_cann_soc s;
	char err[512];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		cr_assert_eq(npukb_cann_soc_lookup(bad[i], &s, err, sizeof err), -EINVAL, "%s",
			     bad[i]);
		cr_assert_neq(err[0], '\0');
	}
	npukb_cann_soc_lookup("ascend999", &s, err, sizeof err);
	cr_assert(strstr(err, "unknown SoC 'ascend999'"), "%s", err);
	cr_assert(strstr(err, "ascend910b2") && strstr(err, "ascend310p3"), "%s", err);
	cr_assert_eq(npukb_cann_soc_lookup(NULL, &s, err, sizeof err), -EINVAL);
}

/* ---- command lines ------------------------------------------------------------- */

static int has_arg(const struct npukb_cann_cmd *c, const char *arg)
{
	for (size_t i = 0; i < c->argc; i++)
		if (strcmp(c->argv[i], arg) == 0)
			return 1;
	return 0;
}

static int has_prefix_arg(const struct npukb_cann_cmd *c, const char *prefix)
{
	for (size_t i = 0; i < c->argc; i++)
		if (strncmp(c->argv[i], prefix, strlen(prefix)) == 0)
			return 1;
	return 0;
}

static void found_info(struct npukb_cann_info *info, int bisheng)
{
	struct fake_env vars = { { NULL }, { NULL } };
	char reason[1024];

	if (bisheng)
		fake_bisheng_tree(BISHENG_TREE);
	else
		fake_ccec_tree(CCEC_TREE);
	cr_assert_eq(probe_with(&vars, info, reason, sizeof reason), NPUKB_CANN_NO_DEVICE);
}

Test(cann, device_compile_command_ccec)
{
	struct npukb_cann_info info;
	struct npukb_cann_cmd c;
	char err[512], inc[PATH_MAX + 32];

	found_info(&info, 0);
	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend910b2", NPUKB_CANN_CORES_VEC,
						   "k.cpp", "k.o", &c, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(c.argv[0], info.compiler);
	cr_assert_null(c.argv[c.argc]);
	cr_assert(has_arg(&c, "--cce-aicore-arch=dav-c220-vec"));
	cr_assert_not(has_arg(&c, "--cce-aicore-arch=dav-c220-cube"));
	cr_assert(has_arg(&c, "-c") && has_arg(&c, "-O2") && has_arg(&c, "-std=c++17"));
	cr_assert(has_arg(&c, "-xcce"), "the kernel's TU is compiled in the kernel language");
	/* A device-only object would lack the host side of the launch. */
	cr_assert_not(has_arg(&c, "--cce-aicore-only"));
	cr_assert(has_arg(&c, "--cce-auto-sync"));
	cr_assert(has_arg(&c, "-mllvm") && has_arg(&c, "-cce-aicore-stack-size=0x8000"));
	snprintf(inc, sizeof inc, "-I%s/compiler/tikcpp/tikcfw", info.root);
	cr_assert(has_arg(&c, inc), "%s", inc);
	cr_assert_str_eq(c.argv[c.argc - 3], "k.cpp");
	cr_assert_str_eq(c.argv[c.argc - 2], "-o");
	cr_assert_str_eq(c.argv[c.argc - 1], "k.o");
	cr_assert(strstr(c.what, "ascend910b2") && strstr(c.what, "dav-c220-vec"), "%s", c.what);
	npukb_cann_cmd_clear(&c);

	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend910b2", NPUKB_CANN_CORES_CUBE,
						   "k.cpp", "k.o", &c, err, sizeof err), 0);
	cr_assert(has_arg(&c, "--cce-aicore-arch=dav-c220-cube"));
	npukb_cann_cmd_clear(&c);
	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend910b2", NPUKB_CANN_CORES_MIX,
						   "k.cpp", "k.o", &c, err, sizeof err), 0);
	cr_assert(has_arg(&c, "--cce-aicore-arch=dav-c220"));
	npukb_cann_cmd_clear(&c);

	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend310p3", NPUKB_CANN_CORES_VEC,
						   "k.cpp", "k.o", &c, err, sizeof err), 0);
	cr_assert(has_arg(&c, "--cce-aicore-arch=dav-m200"));
	cr_assert_not(has_prefix_arg(&c, "--cce-aicore-arch=dav-c220"));
	npukb_cann_cmd_clear(&c);
	npukb_cann_cmd_clear(&c); /* clearing twice is harmless */
}

Test(cann, device_compile_command_bisheng)
{
	struct npukb_cann_info info;
	struct npukb_cann_cmd c;
	char err[512];

	found_info(&info, 1);
	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend910b2", 0, "k.cpp", "k.o", &c,
						   err, sizeof err), 0);
	cr_assert(has_arg(&c, "--npu-arch=dav-2201"));
	cr_assert_not(has_prefix_arg(&c, "--cce-aicore-arch"));
	npukb_cann_cmd_clear(&c);
	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend310p3", 0, "k.cpp", "k.o", &c,
						   err, sizeof err), 0);
	cr_assert(has_arg(&c, "--npu-arch=dav-2002"));
	npukb_cann_cmd_clear(&c);
}

Test(cann, device_compile_command_errors)
{
	struct npukb_cann_info info;
	struct npukb_cann_cmd c;
	char err[512] = "";

	found_info(&info, 0);
	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend42", 0, "k.cpp", "k.o", &c,
						   err, sizeof err), -EINVAL);
	cr_assert(strstr(err, "unknown SoC 'ascend42'"), "%s", err);
	cr_assert_null(c.argv);
	memset(&info, 0, sizeof info);
	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend910b2", 0, "k.cpp", "k.o", &c,
						   err, sizeof err), -ENOENT);
	cr_assert(strstr(err, "no CANN toolkit"), "%s", err);
}

Test(cann, hostdev_build_plan)
{
	struct npukb_cann_info info;
	struct npukb_cann_plan p;
	char err[512], arg[PATH_MAX + 64];

	found_info(&info, 0);
	cr_assert_eq(npukb_cann_hostdev_build_plan(&info, "ascend910b2", "/w/op.json", "/w/Proj", 4,
						   &p, err, sizeof err), 0, "%s", err);
	cr_assert_eq(p.n, NPUKB_CANN_HOSTDEV_STEPS);

	snprintf(arg, sizeof arg, "%s/python/site-packages/bin/msopgen", info.root);
	cr_assert_str_eq(p.steps[0].argv[0], arg);
	cr_assert_str_eq(p.steps[0].argv[1], "gen");
	cr_assert(has_arg(&p.steps[0], "/w/op.json"));
	cr_assert(has_arg(&p.steps[0], "ai_core-Ascend910B2"));
	cr_assert(has_arg(&p.steps[0], "-lan") && has_arg(&p.steps[0], "cpp"));
	cr_assert(has_arg(&p.steps[0], "/w/Proj"));

	cr_assert_str_eq(p.steps[1].argv[0], "cmake");
	cr_assert(has_arg(&p.steps[1], "--preset=default"));
	snprintf(arg, sizeof arg, "-DASCEND_CANN_PACKAGE_PATH=%s", info.root);
	cr_assert(has_arg(&p.steps[1], arg));
	cr_assert(has_arg(&p.steps[1], "-DASCEND_COMPUTE_UNIT=ascend910b"));
	cr_assert_str_eq(p.steps[1].workdir, "/w/Proj");

	/* msopgen's build.sh order (8.0+): binary, then package. */
	cr_assert(has_arg(&p.steps[2], "binary") && has_arg(&p.steps[2], "4"));
	cr_assert(!has_arg(&p.steps[2], "package"));
	cr_assert(has_arg(&p.steps[3], "package"));
	cr_assert_str_eq(p.steps[3].workdir, "/w/Proj");
	for (size_t i = 0; i < p.n; i++)
		cr_assert_not_null(p.steps[i].what);
	npukb_cann_plan_clear(&p);
	cr_assert_eq(p.n, 0);

	cr_assert_eq(npukb_cann_hostdev_build_plan(&info, "ascend910_9391", "o.json", "P", 0, &p,
						   err, sizeof err), 0);
	cr_assert(has_arg(&p.steps[1], "-DASCEND_COMPUTE_UNIT=ascend910_93"));
	cr_assert(has_arg(&p.steps[0], "ai_core-Ascend910_9391"));
	cr_assert(has_arg(&p.steps[2], "1"), "jobs below 1 become 1");
	npukb_cann_plan_clear(&p);

	cr_assert_eq(npukb_cann_hostdev_build_plan(&info, "npu9000", "o.json", "P", 2, &p, err,
						   sizeof err), -EINVAL);
	cr_assert(strstr(err, "unknown SoC 'npu9000'"), "%s", err);
	cr_assert_eq(p.n, 0);
}

Test(cann, hostdev_staging_and_environment)
{
	struct npukb_cann_info info;
	struct npukb_cann_cmd c;
	char err[256], want[PATH_MAX * 2];
	char **env;
	int seen_custom = 0, seen_ld = 0, seen_home = 0;

	found_info(&info, 0);
	cr_assert_eq(npukb_cann_hostdev_stage_cmd("/w/P/build_out/custom_opp_ubuntu_x86_64.run",
						  "/w/stage", &c, err, sizeof err), 0);
	cr_assert_str_eq(c.argv[0], "bash");
	cr_assert_str_eq(c.argv[1], "/w/P/build_out/custom_opp_ubuntu_x86_64.run");
	cr_assert(has_arg(&c, "--install-path=/w/stage"));
	npukb_cann_cmd_clear(&c);

	env = npukb_cann_runtime_env(&info, "/w/stage");
	cr_assert_not_null(env);
	for (char **e = env; *e; e++) {
		if (strcmp(*e, "ASCEND_CUSTOM_OPP_PATH=/w/stage/vendors/customize") == 0)
			seen_custom = 1;
		snprintf(want, sizeof want, "LD_LIBRARY_PATH=/w/stage/vendors/customize/op_api/lib:%s/runtime/lib64",
			 info.root);
		if (strncmp(*e, want, strlen(want)) == 0)
			seen_ld = 1;
		snprintf(want, sizeof want, "ASCEND_HOME_PATH=%s", info.root);
		if (strcmp(*e, want) == 0)
			seen_home = 1;
	}
	cr_assert(seen_custom && seen_ld && seen_home);
	npukb_cann_strv_free(env);
	cr_assert_null(npukb_cann_runtime_env(NULL, NULL));
}

Test(cann, merge_env_replaces_and_adds)
{
	char a[] = "A=1", path_x[] = "PATH=/x", ab[] = "AB=3", path_y[] = "PATH=/y", b[] = "B=2";
	char *const base[] = { a, path_x, ab, NULL };
	char *const extra[] = { path_y, b, NULL };
	char **m = npukb_cann_merge_env(base, extra);

	cr_assert_not_null(m);
	cr_assert_str_eq(m[0], "A=1");
	cr_assert_str_eq(m[1], "AB=3");
	cr_assert_str_eq(m[2], "PATH=/y");
	cr_assert_str_eq(m[3], "B=2");
	cr_assert_null(m[4]);
	npukb_cann_strv_free(m);
}

/* ---- the backends themselves --------------------------------------------------- */

/* The backends use the real environment and root: skip where a real CANN
 * or NPU would change the answers. */
static void require_no_real_cann(void)
{
	unsetenv("ASCEND_HOME_PATH");
	unsetenv("ASCEND_TOOLKIT_HOME");
	if (access("/usr/local/Ascend/cann", F_OK) == 0 ||
	    access("/usr/local/Ascend/ascend-toolkit/latest", F_OK) == 0 ||
	    access("/dev/davinci0", F_OK) == 0)
		cr_skip_test("this machine has CANN or an NPU");
}

static struct npukb_sample kernel_sample(const char *const *files, size_t n)
{
	struct npukb_sample s;

	memset(&s, 0, sizeof s);
	s.id = "s001";
	s.dir = strdup(at("sample"));
	s.mode = NPUKB_MODE_KERNEL_ONLY;
	s.files = files;
	s.nfiles = n;
	return s;
}

Test(cann, device_backend_without_cann_skips)
{
	struct npukb_build_request breq;
	struct npukb_build_result bres;
	struct npukb_run_request rreq;
	struct npukb_run_result rres;
	char reason[1024], id[256];

	require_no_real_cann();
	cr_assert_neq(npukb_ascend_device_plugin.backend->probe(reason, sizeof reason), 0);
	cr_assert(strstr(reason, "ASCEND_HOME_PATH"), "%s", reason);
	cr_assert_eq(npukb_ascend_device_plugin.backend->identity(id, sizeof id), 0);
	cr_assert_str_eq(id, "CANN not found");

	memset(&breq, 0, sizeof breq);
	breq.workdir = tmp;
	{
		const char *files[] = { "op_kernel/k.cpp" };
		struct npukb_sample s = kernel_sample(files, 1);

		breq.sample = &s;
		cr_assert_eq(npukb_ascend_device_plugin.backend->build(&breq, &bres), 0);
		free((char *)s.dir);
	}
	cr_assert(bres.skipped);
	cr_assert_not(bres.ok);
	cr_assert_str_eq(bres.message, reason);
	npukb_build_result_clear(&bres);

	memset(&rreq, 0, sizeof rreq);
	cr_assert_eq(npukb_ascend_device_plugin.backend->run(&rreq, &rres), 0);
	cr_assert(rres.skipped);
	cr_assert_not(rres.ok);
	cr_assert_str_eq(rres.message, reason);
	npukb_run_result_clear(&rres);
}

/* A stand-in compiler: prints its arguments (the "diagnostics") and creates
 * the -o file, or fails like a real compile error. */
static void fake_compiler_tree(int fails)
{
	put_file("cann/compiler/ccec_compiler/bin/ccec",
		 fails ? "#!/bin/sh\necho \"k.cpp:3:5: error: no matching function for call to 'DataCopy'\" >&2\nexit 1\n"
		       : "#!/bin/sh\necho \"fake ccec $*\"\nout=\nwhile [ $# -gt 0 ]; do\n"
			 "  [ \"$1\" = -o ] && out=$2\n  shift\ndone\n: > \"$out\"\n",
		 1);
	put_file("cann/runtime/lib64/libascendcl.so", "", 0);
	put_file("cann/compiler/version.info", "Version=8.0.RC3\n", 0);
	put_file("sample/op_kernel/add_custom.cpp", "// kernel\n", 0);
	mkdir(at("work"), 0755);
	setenv("ASCEND_HOME_PATH", at("cann"), 1);
	/* The launch program's host compile goes through the stand-in too. */
	setenv("NPUKB_CXX", at("cann/compiler/ccec_compiler/bin/ccec"), 1);
}

/* AddCustom's kernel: x, y in; z out; workspace; tiling. */
static struct npukb_param add_params[] = {
	{ (char *)"x", NPUKB_PARAM_INPUT, NULL, NULL },
	{ (char *)"y", NPUKB_PARAM_INPUT, NULL, NULL },
	{ (char *)"z", NPUKB_PARAM_OUTPUT, NULL, NULL },
	{ (char *)"workspace", NPUKB_PARAM_WORKSPACE, NULL, NULL },
	{ (char *)"tiling", NPUKB_PARAM_TILING, NULL, NULL },
};

static struct npukb_task add_task(void)
{
	struct npukb_task t;

	memset(&t, 0, sizeof t);
	t.kernel_name = (char *)"add_custom";
	t.params = add_params;
	t.nparams = sizeof add_params / sizeof add_params[0];
	t.block_dim = 8;
	return t;
}

static void build_with_fake(int fails, struct npukb_build_result *res)
{
	static struct npukb_task task;
	static const char *const files[] = { "add_custom.md", "op_kernel/add_custom.cpp" };
	struct npukb_sample s = kernel_sample(files, 2);
	struct npukb_options opt;
	struct npukb_build_request req;

	fake_compiler_tree(fails);
	task = add_task();
	memset(&opt, 0, sizeof opt);
	opt.soc = "ascend910b2";
	opt.build_limits.wall_seconds = 10;
	memset(&req, 0, sizeof req);
	req.task = &task;
	req.sample = &s;
	req.options = &opt;
	req.workdir = at("work");
	cr_assert_eq(npukb_ascend_device_plugin.backend->build(&req, res), 0);
	free((char *)s.dir);
}

Test(cann, device_backend_compiles_with_the_toolkit)
{
	struct npukb_build_result res;
	struct npukb_run_request rreq;
	struct npukb_run_result rres;
	char reason[1024];

	require_no_real_cann();
	build_with_fake(0, &res);
	cr_assert_not(res.skipped, "%s", res.message);
	cr_assert(res.ok, "%s | %s", res.message, res.diagnostics);
	{
		char *work = realpath(at("work"), NULL);
		char want[PATH_MAX + 16];

		cr_assert_not_null(work);
		snprintf(want, sizeof want, "%s/npukb_host", work);
		cr_assert_str_eq(res.artifact, want);
		free(work);
	}
	cr_assert_eq(access(res.artifact, F_OK), 0);
	cr_assert_eq(access(at("work/kernel.o"), F_OK), 0, "kernel not compiled");
	cr_assert_eq(access(at("work/npukb_host.cpp"), F_OK), 0, "launch program not generated");
	cr_assert_eq(access(at("work/npukb_launch.cpp"), F_OK), 0, "launch wrapper not generated");
	cr_assert(strstr(res.diagnostics, "npukb_host.cpp -o npukb_host.o"), "%s", res.diagnostics);
	cr_assert(strstr(res.diagnostics, "--cce-fatobj-link npukb_host.o kernel.o"), "%s",
		  res.diagnostics);
	cr_assert(strstr(res.diagnostics, "-lascendcl -lruntime -lstdc++ -o npukb_host"), "%s",
		  res.diagnostics);
	cr_assert(strstr(res.message, "link the launch program"), "%s", res.message);
	cr_assert_eq(access(at("work/add_custom.cpp"), F_OK), 0, "source not copied");
	cr_assert(strstr(res.message, "dav-c220-vec"), "%s", res.message);
	cr_assert_not_null(res.diagnostics);
	cr_assert(strstr(res.diagnostics, "--cce-aicore-arch=dav-c220-vec"), "%s", res.diagnostics);
	cr_assert(strstr(res.diagnostics, "npukb_launch.cpp -o kernel.o"), "%s", res.diagnostics);
	cr_assert_eq(res.proc.kind, NPUKB_EXIT_NORMAL);
	npukb_build_result_clear(&res);

	/* With CANN but no device: the probe fails on the device, and run
	 * says so. */
	cr_assert_neq(npukb_ascend_device_plugin.backend->probe(reason, sizeof reason), 0);
	cr_assert(strstr(reason, "no NPU device"), "%s", reason);
	memset(&rreq, 0, sizeof rreq);
	cr_assert_eq(npukb_ascend_device_plugin.backend->run(&rreq, &rres), 0);
	cr_assert(rres.skipped);
	cr_assert(strstr(rres.message, "/dev/davinci0 missing"), "%s", rres.message);
	npukb_run_result_clear(&rres);
}

Test(cann, device_backend_reports_compile_errors)
{
	struct npukb_build_result res;

	require_no_real_cann();
	build_with_fake(1, &res);
	cr_assert_not(res.skipped);
	cr_assert_not(res.ok);
	cr_assert_null(res.artifact);
	cr_assert_eq(res.proc.kind, NPUKB_EXIT_NORMAL);
	cr_assert_eq(res.proc.exit_code, 1);
	cr_assert(strstr(res.message, "exited with status 1"), "%s", res.message);
	cr_assert(strstr(res.diagnostics, "error: no matching function"), "%s", res.diagnostics);
	npukb_build_result_clear(&res);
}

Test(cann, device_backend_refuses_unknown_soc_and_host_device_samples)
{
	static const char *const files[] = { "op_kernel/add_custom.cpp" };
	struct npukb_sample s;
	struct npukb_options opt;
	struct npukb_build_request req;
	struct npukb_build_result res;

	struct npukb_task task = add_task();

	require_no_real_cann();
	fake_compiler_tree(0);
	s = kernel_sample(files, 1);
	memset(&opt, 0, sizeof opt);
	opt.soc = "ascend123";
	memset(&req, 0, sizeof req);
	req.task = &task;
	req.sample = &s;
	req.options = &opt;
	req.workdir = at("work");
	cr_assert_eq(npukb_ascend_device_plugin.backend->build(&req, &res), 0);
	cr_assert(res.skipped);
	cr_assert(strstr(res.message, "unknown SoC 'ascend123'"), "%s", res.message);
	npukb_build_result_clear(&res);

	s.mode = NPUKB_MODE_HOST_DEVICE;
	cr_assert_eq(npukb_ascend_device_plugin.backend->build(&req, &res), 0);
	cr_assert(res.skipped);
	cr_assert(strstr(res.message, "ascend-hostdev"), "%s", res.message);
	npukb_build_result_clear(&res);
	free((char *)s.dir);
}

Test(cann, hostdev_backend_skips_with_reasons)
{
	static const char *const files[] = { "op_host/add_custom.cpp", "op_kernel/add_custom.cpp" };
	struct npukb_sample s;
	struct npukb_build_request req;
	struct npukb_build_result res;
	struct npukb_run_request rreq;
	struct npukb_run_result rres;
	char reason[1024], id[256];

	require_no_real_cann();
	s = kernel_sample(files, 2);
	s.mode = NPUKB_MODE_HOST_DEVICE;
	memset(&req, 0, sizeof req);
	req.sample = &s;
	req.workdir = tmp;
	memset(&rreq, 0, sizeof rreq);
	rreq.sample = &s;

	/* No CANN: the probe's reason everywhere. */
	cr_assert_neq(npukb_ascend_hostdev_plugin.backend->probe(reason, sizeof reason), 0);
	cr_assert(strstr(reason, "CANN toolkit not found: set ASCEND_HOME_PATH"), "%s", reason);
	cr_assert_eq(npukb_ascend_hostdev_plugin.backend->build(&req, &res), 0);
	cr_assert(res.skipped && !res.ok);
	cr_assert_str_eq(res.message, reason);
	npukb_build_result_clear(&res);
	cr_assert_eq(npukb_ascend_hostdev_plugin.backend->run(&rreq, &rres), 0);
	cr_assert(rres.skipped && !rres.ok);
	cr_assert_str_eq(rres.message, reason);
	npukb_run_result_clear(&rres);
	npukb_ascend_hostdev_plugin.backend->identity(id, sizeof id);
	cr_assert_str_eq(id, "CANN not found");

	/* CANN without a device: the build runs (it needs no NPU) and fails
	 * where this fake toolkit has no msopgen; the run has no device. */
	fake_compiler_tree(0);
	cr_assert_eq(npukb_ascend_hostdev_plugin.backend->build(&req, &res), 0);
	cr_assert(res.skipped, "no task: %s", res.message);
	cr_assert(strstr(res.message, "needs the task"), "%s", res.message);
	npukb_build_result_clear(&res);
	{
		struct npukb_task *task = NULL;
		char path[PATH_MAX], schema[PATH_MAX], err[1024];
		const char *src = getenv("NPUKB_SRCDIR");

		snprintf(path, sizeof path, "%s/levels/level1/Math/AddCustom/task.xml",
			 src && *src ? src : ".");
		snprintf(schema, sizeof schema, "%s/levels/schema/task.rng", src && *src ? src : ".");
		cr_assert_eq(npukb_manifest_load(path, schema, &task, err, sizeof err), 0, "%s", err);
		req.task = task;
		cr_assert_eq(npukb_ascend_hostdev_plugin.backend->build(&req, &res), 0);
		req.task = NULL;
		npukb_task_free(task);
	}
	cr_assert_not(res.skipped, "%s", res.message);
	cr_assert_not(res.ok);
	cr_assert(strstr(res.message, "generate the operator project for Ascend910B2"), "%s",
		  res.message);
	npukb_build_result_clear(&res);
	cr_assert_eq(npukb_ascend_hostdev_plugin.backend->run(&rreq, &rres), 0);
	cr_assert(rres.skipped);
	cr_assert(strstr(rres.message, "no NPU device"), "%s", rres.message);
	npukb_run_result_clear(&rres);
	npukb_ascend_hostdev_plugin.backend->identity(id, sizeof id);
	cr_assert(strncmp(id, "CANN 8.0.RC3 (ccec)", 19) == 0, "%s", id);

	/* Kernel-only samples belong to ascend-device. */
	s.mode = NPUKB_MODE_KERNEL_ONLY;
	cr_assert_eq(npukb_ascend_hostdev_plugin.backend->build(&req, &res), 0);
	cr_assert(strstr(res.message, "ascend-device"), "%s", res.message);
	npukb_build_result_clear(&res);
	free((char *)s.dir);
}

Test(cann, descriptors_are_complete)
{
	const struct npukb_plugin *const all[] = {
		&npukb_ascend_device_plugin, &npukb_ascend_hostdev_plugin, &npukb_skeleton_plugin,
	};
	const char *const names[] = { "ascend-device", "ascend-hostdev", "skeleton" };

	for (int i = 0; i < 3; i++) {
		cr_assert_eq(all[i]->abi, NPUKB_PLUGIN_ABI);
		cr_assert_eq(all[i]->kind, NPUKB_PLUGIN_BACKEND);
		cr_assert_str_eq(all[i]->name, names[i]);
		cr_assert_not_null(all[i]->version);
		cr_assert_not_null(all[i]->description);
		cr_assert_not_null(all[i]->backend);
		cr_assert_null(all[i]->stage);
		cr_assert_not_null(all[i]->backend->probe);
		cr_assert_not_null(all[i]->backend->build);
		cr_assert_not_null(all[i]->backend->run);
		cr_assert_not_null(all[i]->backend->identity);
	}
}

/* ---- the skeleton ----------------------------------------------------------------- */

Test(cann, skeleton_is_never_usable_and_says_why)
{
	struct npukb_build_request breq;
	struct npukb_build_result bres;
	struct npukb_run_request rreq;
	struct npukb_run_result rres;
	char reason[256], id[128];
	const struct npukb_backend_ops *ops = npukb_skeleton_plugin.backend;

	cr_assert_neq(ops->probe(reason, sizeof reason), 0);
	cr_assert_str_eq(reason, "skeleton backend: copy plugins/skeleton/ to start a new target");
	cr_assert_eq(ops->identity(id, sizeof id), 0);
	cr_assert_neq(id[0], '\0');
	memset(&breq, 0, sizeof breq);
	cr_assert_eq(ops->build(&breq, &bres), 0);
	cr_assert(bres.skipped && !bres.ok);
	cr_assert_str_eq(bres.message, reason);
	npukb_build_result_clear(&bres);
	memset(&rreq, 0, sizeof rreq);
	cr_assert_eq(ops->run(&rreq, &rres), 0);
	cr_assert(rres.skipped && !rres.ok);
	cr_assert_str_eq(rres.message, reason);
	npukb_run_result_clear(&rres);
	/* A short buffer still gets a terminated reason. */
	cr_assert_neq(ops->probe(reason, 9), 0);
	cr_assert_str_eq(reason, "skeleton");
}

/* ---- the launch program -------------------------------------------------- */

Test(cann, launch_program_refuses_what_it_cannot_spell)
{
	struct npukb_param bad_role[] = { { (char *)"x", (enum npukb_param_role)0, NULL, NULL } };
	struct npukb_param odd_name[] = { { (char *)"my-x", NPUKB_PARAM_INPUT, NULL, NULL } };
	char err[256];
	char *text;

	cr_assert_null(npukb_ascend_host_source("add custom", add_params, 5, err, sizeof err));
	cr_assert(strstr(err, "not a C identifier"), "%s", err);
	cr_assert_null(npukb_ascend_host_source("k", add_params, 0, err, sizeof err));
	cr_assert(strstr(err, "no parameters"), "%s", err);
	cr_assert_null(npukb_ascend_host_source("k", bad_role, 1, err, sizeof err));
	cr_assert(strstr(err, "unknown role"), "%s", err);
	/* Parameter names never reach the generated code: any name works. */
	text = npukb_ascend_wrapper_source("k", "k.cpp", odd_name, 1, err, sizeof err);
	cr_assert_not_null(text, "%s", err);
	cr_assert(strstr(text, "k<<<blocks, nullptr, stream>>>((GM_ADDR)args[0]);"), "%s", text);
	free(text);
	/* The wrapper includes the kernel file by its plain name only. */
	cr_assert_null(npukb_ascend_wrapper_source("k", "../k.cpp", odd_name, 1, err, sizeof err));
	cr_assert(strstr(err, "cannot be included"), "%s", err);
	cr_assert_null(npukb_ascend_wrapper_source("k", "a\"b.cpp", odd_name, 1, err, sizeof err));
	cr_assert_null(npukb_ascend_wrapper_source("k bad", "k.cpp", odd_name, 1, err, sizeof err));
	cr_assert(strstr(err, "not a C identifier"), "%s", err);
}

Test(cann, timing_stats_are_checked)
{
	struct npukb_ascend_stats st;

	put_file("ok.stats", "median_us 12.5\nmin_us 11\nmax_us 20.25\nruns 20\nwarmup 5\n", 0);
	cr_assert_eq(npukb_ascend_read_stats(at("ok.stats"), &st), 0);
	cr_assert_float_eq(st.median_us, 12.5, 1e-9);
	cr_assert_float_eq(st.max_us, 20.25, 1e-9);
	cr_assert_eq(st.runs, 20);
	cr_assert_eq(st.warmup, 5);
	put_file("short.stats", "median_us 12.5\nmin_us 11\nruns 20\n", 0);
	cr_assert_eq(npukb_ascend_read_stats(at("short.stats"), &st), -EINVAL);
	put_file("zero.stats", "median_us 0\nmin_us 0\nmax_us 0\nruns 0\n", 0);
	cr_assert_eq(npukb_ascend_read_stats(at("zero.stats"), &st), -EINVAL);
	cr_assert_eq(npukb_ascend_read_stats(at("none.stats"), &st), -ENOENT);
}

Test(cann, launch_program_host_and_link_commands)
{
	struct npukb_cann_info info;
	struct npukb_cann_cmd c;
	char err[512], want[PATH_MAX + 32];

	found_info(&info, 0);
	/* The launch program is plain host C++. */
	cr_assert_eq(npukb_cann_device_host_cmd(&info, NULL, "h.cpp", "h.o", &c, err, sizeof err),
		     0, "%s", err);
	cr_assert_str_eq(c.argv[0], "g++");
	cr_assert(has_arg(&c, "-c"));
	cr_assert_not(has_prefix_arg(&c, "--cce") || has_prefix_arg(&c, "-xcce") ||
		      has_prefix_arg(&c, "--npu-arch"));
	snprintf(want, sizeof want, "-I%s/include", info.root);
	cr_assert(has_arg(&c, want), "%s", want);
	npukb_cann_cmd_clear(&c);
	cr_assert_eq(npukb_cann_device_host_cmd(&info, "clang++", "h.cpp", "h.o", &c, err,
						sizeof err), 0);
	cr_assert_str_eq(c.argv[0], "clang++");
	npukb_cann_cmd_clear(&c);

	/* 8.0.x: the kernel compiler links, merging the fat object. */
	cr_assert_eq(npukb_cann_device_link_cmd(&info, "h.o", "k.o", "h", &c, err, sizeof err), 0);
	cr_assert_str_eq(c.argv[0], info.compiler);
	cr_assert(has_arg(&c, "--cce-fatobj-link"));
	cr_assert(has_arg(&c, "h.o") && has_arg(&c, "k.o"));
	snprintf(want, sizeof want, "-L%s/runtime/lib64", info.root);
	cr_assert(has_arg(&c, want), "%s", want);
	cr_assert(has_arg(&c, "-lascendcl") && has_arg(&c, "-lruntime"));
	cr_assert_str_eq(c.argv[c.argc - 2], "-o");
	cr_assert_str_eq(c.argv[c.argc - 1], "h");
	npukb_cann_cmd_clear(&c);
	cr_assert_eq(npukb_cann_device_link_cmd(&info, NULL, "k.o", "h", &c, err, sizeof err),
		     -EINVAL);

	found_info(&info, 1);
	cr_assert_eq(npukb_cann_device_link_cmd(&info, "h.o", "k.o", "h", &c, err, sizeof err), 0);
	cr_assert_str_eq(c.argv[0], info.compiler);
	cr_assert_not(has_arg(&c, "--cce-fatobj-link"));
	snprintf(want, sizeof want, "-L%s/lib64", info.root);
	cr_assert(has_arg(&c, want), "%s", want);
	npukb_cann_cmd_clear(&c);
}

/* With CANN but no NPU, a full run request is still skipped, with the
 * probe's reason, and the launch program is never started. */
Test(cann, device_run_without_npu_is_skipped_with_the_reason)
{
	struct npukb_build_result bres;
	struct npukb_run_request rreq;
	struct npukb_run_result rres;
	struct npukb_case_data data;
	struct npukb_task task = add_task();
	struct npukb_options opt;

	require_no_real_cann();
	build_with_fake(0, &bres);
	cr_assert(bres.ok, "%s", bres.message);
	memset(&data, 0, sizeof data);
	memset(&opt, 0, sizeof opt);
	memset(&rreq, 0, sizeof rreq);
	rreq.task = &task;
	rreq.options = &opt;
	rreq.artifact = bres.artifact;
	rreq.workdir = at("work");
	rreq.data = &data;
	rreq.want_timing = 1;
	cr_assert_eq(npukb_ascend_device_plugin.backend->run(&rreq, &rres), 0);
	cr_assert(rres.skipped);
	cr_assert_not(rres.ok);
	cr_assert_not(rres.has_spread);
	cr_assert(strstr(rres.message, "/dev/davinci0 missing"), "%s", rres.message);
	cr_assert_neq(access(at("work/run.err"), F_OK), 0, "the program was started");
	npukb_run_result_clear(&rres);
	npukb_build_result_clear(&bres);
}
