/* test_loader.c - the plugin loader accepts good plugins and rejects bad
 * ones with a reason that names the file and the fault. */
#include <criterion/criterion.h>

#include "plugin_loader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char test_plugins[4096];

static void setup(void)
{
	const char *b = getenv("NPUKB_BUILDDIR");
	snprintf(test_plugins, sizeof(test_plugins), "%s/tests/plugins/.libs", b ? b : ".");
}

static const struct npukb_loaded_plugin *load_one(struct npukb_plugin_set *set,
						  const char *name, int *rc)
{
	char path[8192], err[512] = "";
	snprintf(path, sizeof(path), "%s/%s.so", test_plugins, name);
	cr_assert(access(path, R_OK) == 0, "test plugin %s not built", path);
	*rc = npukb_plugins_load_file(set, path, err, sizeof(err));
	cr_assert_eq(set->n, 1);
	return &set->items[0];
}

TestSuite(loader, .init = setup);

Test(loader, good_plugin_loads)
{
	struct npukb_plugin_set set = { 0 };
	int rc;
	const struct npukb_loaded_plugin *lp = load_one(&set, "good", &rc);
	cr_assert_eq(rc, 0);
	cr_assert_eq(lp->status, NPUKB_PLUGIN_LOADED);
	cr_assert_str_eq(lp->desc->name, "good");
	cr_assert_not_null(npukb_plugins_find(&set, NPUKB_PLUGIN_BACKEND, "good"));
	cr_assert_null(npukb_plugins_find(&set, NPUKB_PLUGIN_STAGE, "good"));
	npukb_plugins_unload(&set);
}

Test(loader, unusable_backend_reports_probe_reason)
{
	struct npukb_plugin_set set = { 0 };
	struct npukb_backend b;
	struct npukb_build_result res;
	int rc;
	const struct npukb_loaded_plugin *lp = load_one(&set, "good", &rc);
	npukb_backend_open(&b, lp->desc);
	cr_assert_eq(b.usable, 0);
	cr_assert_str_eq(b.reason, "test backend: never usable");
	/* an unusable backend skips with the reason; it is never called */
	cr_assert_eq(npukb_backend_build(&b, NULL, &res), 0);
	cr_assert_eq(res.skipped, 1);
	cr_assert_str_eq(res.message, "test backend: never usable");
	npukb_build_result_clear(&res);
	npukb_plugins_unload(&set);
}

Test(loader, wrong_abi_is_rejected)
{
	struct npukb_plugin_set set = { 0 };
	int rc;
	const struct npukb_loaded_plugin *lp = load_one(&set, "wrongabi", &rc);
	char has[64], wants[64];

	/* wrongabi.c declares NPUKB_PLUGIN_ABI + 98 */
	snprintf(has, sizeof(has), "plugin ABI %d", NPUKB_PLUGIN_ABI + 98);
	snprintf(wants, sizeof(wants), "expects %d", NPUKB_PLUGIN_ABI);
	cr_assert_eq(rc, -EINVAL);
	cr_assert_eq(lp->status, NPUKB_PLUGIN_REJECTED);
	cr_assert_not_null(strstr(lp->reason, has), "reason: %s", lp->reason);
	cr_assert_not_null(strstr(lp->reason, wants), "reason: %s", lp->reason);
	cr_assert_not_null(strstr(lp->path, "wrongabi.so"));
	cr_assert_null(lp->handle);
	npukb_plugins_unload(&set);
}

Test(loader, missing_symbol_is_rejected)
{
	struct npukb_plugin_set set = { 0 };
	int rc;
	const struct npukb_loaded_plugin *lp = load_one(&set, "nosymbol", &rc);
	cr_assert_eq(rc, -EINVAL);
	cr_assert_eq(lp->status, NPUKB_PLUGIN_REJECTED);
	cr_assert_not_null(strstr(lp->reason, "npukb_nosymbol_plugin"), "reason: %s", lp->reason);
	npukb_plugins_unload(&set);
}

Test(loader, missing_function_is_rejected)
{
	struct npukb_plugin_set set = { 0 };
	int rc;
	const struct npukb_loaded_plugin *lp = load_one(&set, "nofunc", &rc);
	cr_assert_eq(rc, -EINVAL);
	cr_assert_eq(lp->status, NPUKB_PLUGIN_REJECTED);
	cr_assert_not_null(strstr(lp->reason, "run()"), "reason: %s", lp->reason);
	npukb_plugins_unload(&set);
}

Test(loader, garbage_file_is_rejected_with_dlerror_and_hint)
{
	struct npukb_plugin_set set = { 0 };
	char dir[] = "/tmp/npukb-loader-XXXXXX", path[256], err[256];
	FILE *f;
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/junk.so", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("this is not an ELF file\n", f);
	fclose(f);
	cr_assert_eq(npukb_plugins_load_file(&set, path, err, sizeof(err)), -EINVAL);
	cr_assert_eq(set.items[0].status, NPUKB_PLUGIN_REJECTED);
	cr_assert_not_null(strstr(set.items[0].reason, "cannot load"));
	cr_assert_not_null(strstr(set.items[0].reason, "ldd"));
	npukb_plugins_unload(&set);
	unlink(path);
	rmdir(dir);
}

Test(loader, directory_scan_goes_on_past_bad_plugins)
{
	struct npukb_plugin_set set = { 0 };
	char *dirs[] = { test_plugins, NULL }, err[256];
	size_t i, loaded = 0, rejected = 0;
	cr_assert_eq(npukb_plugins_load(&set, dirs, err, sizeof(err)), 0);
	for (i = 0; i < set.n; i++) {
		loaded += set.items[i].status == NPUKB_PLUGIN_LOADED;
		rejected += set.items[i].status == NPUKB_PLUGIN_REJECTED;
	}
	cr_assert_eq(loaded, 1, "loaded %zu", loaded);
	cr_assert_eq(rejected, 3, "rejected %zu", rejected);
	npukb_plugins_unload(&set);
}

Test(loader, earlier_directory_shadows_later)
{
	struct npukb_plugin_set set = { 0 };
	char *dirs[] = { test_plugins, test_plugins, NULL }, err[256];
	size_t i, shadowed = 0;
	cr_assert_eq(npukb_plugins_load(&set, dirs, err, sizeof(err)), 0);
	for (i = 0; i < set.n; i++)
		if (set.items[i].status == NPUKB_PLUGIN_SHADOWED) {
			shadowed++;
			cr_assert_not_null(strstr(set.items[i].reason, "shadowed by"));
		}
	cr_assert_eq(shadowed, 1, "only the one loaded plugin can shadow: %zu", shadowed);
	npukb_plugins_unload(&set);
}

Test(loader, search_path_order)
{
	char **dirs, err[128];
	setenv("NPUKB_PLUGIN_PATH", "/a:/b::/c", 1);
	cr_assert_eq(npukb_plugin_dirs("/cli", &dirs, err, sizeof(err)), 0);
	cr_assert_str_eq(dirs[0], "/cli");
	cr_assert_str_eq(dirs[1], "/a");
	cr_assert_str_eq(dirs[2], "/b");
	cr_assert_str_eq(dirs[3], "/c");
	cr_assert_str_eq(dirs[4], NPUKB_PKGLIBDIR);
	cr_assert_null(dirs[5]);
	npukb_plugin_dirs_free(dirs);
}

Test(loader, file_names_must_be_plugin_names)
{
	struct npukb_plugin_set set = { 0 };
	char err[256] = "";
	cr_assert_eq(npukb_plugins_load_file(&set, "/tmp/Bad.Name.so", err, sizeof(err)), -EINVAL);
	cr_assert_not_null(strstr(err, "not a plugin file name"));
	cr_assert_eq(set.n, 0);
	npukb_plugins_unload(&set);
}

/* ---- backend options (--backend-opt) ------------------------------------- */

static int dummy_probe(char *reason, size_t len)
{
	(void)reason;
	(void)len;
	return 0;
}

static int dummy_build(const struct npukb_build_request *req, struct npukb_build_result *res)
{
	(void)req;
	(void)res;
	return 0;
}

static int dummy_run(const struct npukb_run_request *req, struct npukb_run_result *res)
{
	(void)req;
	(void)res;
	return 0;
}

/* A backend descriptor named "opts" whose ops carry the option table t. */
static struct npukb_plugin backend_with(struct npukb_backend_ops *ops,
					const struct npukb_backend_option *t)
{
	struct npukb_plugin p;
	memset(ops, 0, sizeof(*ops));
	ops->probe = dummy_probe;
	ops->build = dummy_build;
	ops->run = dummy_run;
	ops->options = t;
	memset(&p, 0, sizeof(p));
	p.abi = NPUKB_PLUGIN_ABI;
	p.kind = NPUKB_PLUGIN_BACKEND;
	p.name = "opts";
	p.backend = ops;
	return p;
}

Test(loader, option_tables_are_checked)
{
	static const struct npukb_backend_option good[] = { { "cxx", "the compiler" },
							    { "data-dir", "the data" }, { NULL, NULL } };
	static const struct npukb_backend_option upper[] = { { "CXX", "x" }, { NULL, NULL } };
	static const struct npukb_backend_option nohelp[] = { { "cxx", "" }, { NULL, NULL } };
	static const struct npukb_backend_option twice[] = { { "a", "x" }, { "b", "y" }, { "a", "z" },
							     { NULL, NULL } };
	static const struct npukb_backend_option empty[] = { { "", "x" }, { NULL, NULL } };
	static struct npukb_backend_option endless[70];
	struct npukb_backend_ops ops;
	struct npukb_plugin p;
	char why[256];

	p = backend_with(&ops, good);
	cr_assert_eq(npukb_plugin_check(&p, "opts", why, sizeof why), 0, "%s", why);
	p = backend_with(&ops, NULL);
	cr_assert_eq(npukb_plugin_check(&p, "opts", why, sizeof why), 0, "%s", why);
	p = backend_with(&ops, upper);
	cr_assert_eq(npukb_plugin_check(&p, "opts", why, sizeof why), -EINVAL);
	cr_assert(strstr(why, "'CXX'") != NULL, "%s", why);
	p = backend_with(&ops, nohelp);
	cr_assert_eq(npukb_plugin_check(&p, "opts", why, sizeof why), -EINVAL);
	cr_assert(strstr(why, "no help") != NULL, "%s", why);
	p = backend_with(&ops, twice);
	cr_assert_eq(npukb_plugin_check(&p, "opts", why, sizeof why), -EINVAL);
	cr_assert(strstr(why, "'a' is listed twice") != NULL, "%s", why);
	p = backend_with(&ops, empty);
	cr_assert_eq(npukb_plugin_check(&p, "opts", why, sizeof why), -EINVAL);
	static char names[70][8];
	for (size_t i = 0; i < sizeof endless / sizeof endless[0] - 1; i++) {
		snprintf(names[i], sizeof names[i], "o%zu", i);
		endless[i].name = names[i];
		endless[i].help = "h";
	}
	p = backend_with(&ops, endless);
	cr_assert_eq(npukb_plugin_check(&p, "opts", why, sizeof why), -EINVAL);
	cr_assert(strstr(why, "more than") != NULL, "%s", why);
}

Test(loader, backend_options_are_looked_up_and_checked)
{
	static const struct npukb_backend_option t[] = { { "cxx", "the compiler" },
							 { "data-dir", "the data" }, { NULL, NULL } };
	const char *given[] = { "cxx=g++", "data-dir=/a=b", "cxx=clang++", NULL };
	const char *unknown[] = { "cxx=g++", "cx=g++", NULL };
	const char *bare[] = { "cxx", NULL };
	struct npukb_backend_ops ops;
	struct npukb_plugin p = backend_with(&ops, t);
	struct npukb_options o;
	char err[256];

	memset(&o, 0, sizeof(o));
	cr_assert_null(npukb_backend_opt(&o, "cxx"));
	cr_assert_eq(npukb_backend_opts_check(&p, &o, err, sizeof err), 0);
	o.backend_opts = given;
	cr_assert_str_eq(npukb_backend_opt(&o, "cxx"), "clang++"); /* the last one wins */
	cr_assert_str_eq(npukb_backend_opt(&o, "data-dir"), "/a=b");
	cr_assert_null(npukb_backend_opt(&o, "cx"));
	cr_assert_null(npukb_backend_opt(&o, "data"));
	cr_assert_eq(npukb_backend_opts_check(&p, &o, err, sizeof err), 0, "%s", err);
	o.backend_opts = unknown;
	cr_assert_eq(npukb_backend_opts_check(&p, &o, err, sizeof err), -EINVAL);
	cr_assert_str_eq(err, "--backend-opt cx: the opts backend has no such option; it takes cxx, data-dir");
	o.backend_opts = bare;
	cr_assert_eq(npukb_backend_opts_check(&p, &o, err, sizeof err), -EINVAL);
	cr_assert(strstr(err, "NAME=VALUE") != NULL, "%s", err);
	ops.options = NULL;
	o.backend_opts = given;
	cr_assert_eq(npukb_backend_opts_check(&p, &o, err, sizeof err), -EINVAL);
	cr_assert(strstr(err, "it takes none") != NULL, "%s", err);
}
