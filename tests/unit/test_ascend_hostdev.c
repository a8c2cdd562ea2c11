/* test_ascend_hostdev.c - the ascend-hostdev flow without an NPU: op.json
 * and the aclnn program generated from real manifests (plain tensors, a
 * tensor list, an attribute, an optional input) against golden files, the
 * build commands of both CANN generations, and a whole build and run
 * through the fake toolkit (fake msopgen, fake cmake keeping msopgen's
 * build order, a fake operator package that installs only where it may,
 * the fake ACL runtime checking every call).
 *
 * The plugin source is compiled in (#include) so its static functions
 * (run_on_npu) can be called with a faked device. */
#include <criterion/criterion.h>

#include "ascend_fixture.h"
#include "manifest.h"

#include "../../plugins/ascend-hostdev/ascend_hostdev.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TestSuite(ascend_hostdev, .init = fx_make_tmp, .fini = fx_remove_tmp, .timeout = 120);

static struct npukb_task *load(const char *rel)
{
	struct npukb_task *t = NULL;
	char err[2048], path[4096];

	snprintf(path, sizeof path, "%s", fx_src(rel));
	cr_assert_eq(npukb_manifest_load(path, fx_src("levels/schema/task.rng"), &t, err,
					 sizeof err), 0, "%s: %s", rel, err);
	return t;
}

#define ADD "levels/level1/Math/AddCustom/task.xml"
#define LIST "levels/level1/Condition/NonFiniteCheckOp/task.xml"
#define ATTR "levels/level1/Index/GatherV3/task.xml"
#define OPTIONAL "tests/data/levels-variants/level1/Test/OptionalAdd/task.xml"

/* ---- generated from the manifests ------------------------------------------ */

static void op_json_matches(const char *manifest, const char *golden)
{
	struct npukb_task *t = load(manifest);
	char err[512] = "";
	char *json = npukb_op_json(t, err, sizeof err);

	cr_assert_not_null(json, "%s", err);
	fx_assert_golden(golden, json);
	free(json);
	npukb_task_free(t);
}

Test(ascend_hostdev, op_json_plain_tensors)
{
	op_json_matches(ADD, "hostdev-op-AddCustom.json");
}

Test(ascend_hostdev, op_json_tensor_list)
{
	op_json_matches(LIST, "hostdev-op-NonFiniteCheckOp.json");
}

Test(ascend_hostdev, op_json_attribute)
{
	op_json_matches(ATTR, "hostdev-op-GatherV3.json");
}

Test(ascend_hostdev, op_json_attributes_and_in_place)
{
	op_json_matches("levels/level1/Math/Sscal/task.xml", "hostdev-op-Sscal.json");
}

Test(ascend_hostdev, op_json_optional_input)
{
	op_json_matches(OPTIONAL, "hostdev-op-OptionalAdd.json");
}

Test(ascend_hostdev, operator_names)
{
	struct npukb_task t;
	char ty[64], sn[64], err[256];
	static const char *const cases[][2] = {
		{ "AddCustom", "add_custom" }, { "NonFiniteCheckOp", "non_finite_check_op" },
		{ "GatherV3", "gather_v3" }, { "Abs", "abs" },
	};

	memset(&t, 0, sizeof t);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t.name = (char *)cases[i][0];
		cr_assert_eq(npukb_op_names(&t, ty, sizeof ty, sn, sizeof sn, err, sizeof err), 0);
		cr_assert_str_eq(ty, cases[i][0]);
		cr_assert_str_eq(sn, cases[i][1]);
	}
	t.name = (char *)"add_custom";
	cr_assert_eq(npukb_op_names(&t, ty, sizeof ty, sn, sizeof sn, err, sizeof err), -EINVAL);
}

/* The program for AddCustom in full; for the others, their argument
 * kinds and the first phase's call. */
Test(ascend_hostdev, aclnn_program_matches_golden)
{
	static const struct {
		const char *manifest, *kinds, *call;
	} others[] = {
		/* contains_non_finite and axis only shape the data: the
		 * operator gets the list, and axis as a tensor. */
		{ LIST, "lo", "aclnnNonFiniteCheckOpGetWorkspaceSize(a[0].list, a[1].tensor, " },
		{ ATTR, "iiio", "aclnnGatherV3GetWorkspaceSize(a[0].tensor, a[1].tensor, a[2].tensor, "
				"a[3].tensor, " },
		{ OPTIONAL, "iio", "aclnnOptionalAddGetWorkspaceSize(a[0].tensor, a[1].tensor, "
				   "a[2].tensor, " },
		/* operator attributes sit between inputs and outputs */
		{ "levels/level1/Math/Ccopy/task.xml", "iIIo",
		  "aclnnCcopyGetWorkspaceSize(a[0].tensor, a[1].i, a[2].i, a[3].tensor, " },
		{ "levels/level1/Math/Sscal/task.xml", "bIF",
		  "aclnnSscalGetWorkspaceSize(a[0].tensor, a[1].i, a[2].f, " },
	};
	struct npukb_task *t = load(ADD);
	char err[512] = "", kinds[64];
	char *src = npukb_aclnn_source(t, err, sizeof err);

	cr_assert_not_null(src, "%s", err);
	fx_assert_golden("hostdev-aclnn-AddCustom.cpp", src);
	free(src);
	npukb_task_free(t);
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		t = load(others[i].manifest);
		cr_assert_gt(npukb_aclnn_kinds(t, kinds, sizeof kinds, err, sizeof err), 0, "%s", err);
		cr_assert_str_eq(kinds, others[i].kinds);
		src = npukb_aclnn_source(t, err, sizeof err);
		cr_assert_not_null(src, "%s", err);
		cr_assert(strstr(src, others[i].call), "%s: %s", others[i].manifest, others[i].call);
		free(src);
		npukb_task_free(t);
	}
}

/* Plain host C++ against the ACL and aclnn headers, strict warnings. */
Test(ascend_hostdev, aclnn_program_is_plain_cxx)
{
	struct npukb_task *t = load(ADD);
	char err[512];
	char *src = npukb_aclnn_source(t, err, sizeof err);

	fx_put_file("p.cpp", src, 0);
	cr_assert_eq(fx_shell("g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I'%s' -I'%s' "
			      "'%s' 2>'%s'",
			      fx_src("tests/data/fake_cann/include"),
			      fx_src("tests/data/fake_cann/opapi"), fx_at("p.cpp"), fx_at("gxx.log")),
		     0, "see %s", fx_at("gxx.log"));
	free(src);
	npukb_task_free(t);
}

/* ---- command lines ------------------------------------------------------------ */

static void commands_match(int bisheng, const char *golden)
{
	struct npukb_cann_info info;
	struct npukb_cann_plan plan;
	struct npukb_cann_cmd c;
	char err[512];
	char *all = NULL, *masked;

	fx_fake_cann(bisheng, &info);
	cr_assert_eq(npukb_cann_hostdev_build_plan(&info, "ascend910b2", "/w/op.json",
						   "/w/op_project", 2, &plan, err, sizeof err), 0);
	for (size_t i = 0; i < plan.n; i++)
		fx_add_cmd(&all, &plan.steps[i], info.root);
	npukb_cann_plan_clear(&plan);
	cr_assert_eq(npukb_cann_hostdev_stage_cmd("/w/op_project/build_out/custom_opp_ubuntu_x86_64.run",
						  "/w/stage", &c, err, sizeof err), 0);
	fx_add_cmd(&all, &c, info.root);
	npukb_cann_cmd_clear(&c);
	cr_assert_eq(npukb_cann_hostdev_program_cmd(&info, NULL, "npukb_aclnn.cpp", "/w/stage",
						    "npukb_aclnn", &c, err, sizeof err), 0);
	fx_add_cmd(&all, &c, info.root);
	npukb_cann_cmd_clear(&c);
	masked = fx_replace(all, "\n# ", "\n# ");
	fx_assert_golden(golden, masked);
	free(masked);
	free(all);
	/* Never into the toolkit or a relative folder. */
	cr_assert_eq(npukb_cann_hostdev_stage_cmd("p.run", "stage", &c, err, sizeof err), -EINVAL);
}

Test(ascend_hostdev, commands_cann_8_0)
{
	commands_match(0, "hostdev-commands-cann8.0.txt");
}

Test(ascend_hostdev, commands_cann_8_5)
{
	commands_match(1, "hostdev-commands-cann8.5.txt");
}

/* ---- build and run through the fake toolkit ------------------------------------ */

static void put_sample(void)
{
	fx_put_file("sample/op_host/add_custom.cpp", "// the sample's op_host (tiling, OpDef)\n", 0);
	fx_put_file("sample/op_host/add_custom_tiling.h", "// the sample's tiling header\n", 0);
	fx_put_file("sample/op_kernel/add_custom.cpp", "// the sample's kernel\n", 0);
}

static void build(int bisheng, const struct npukb_task *t, struct npukb_cann_info *info,
		  struct npukb_build_result *res)
{
	static const char *const files[] = { "op_host/add_custom.cpp", "op_host/add_custom_tiling.h",
					     "op_kernel/add_custom.cpp" };
	struct npukb_sample s;
	struct npukb_options opt;
	struct npukb_build_request req;

	fx_fake_cann(bisheng, info);
	put_sample();
	cr_assert_eq(fx_shell("mkdir -p '%s'", fx_at("work")), 0);
	memset(&s, 0, sizeof s);
	s.id = "s1";
	s.dir = fx_at("sample");
	s.mode = NPUKB_MODE_HOST_DEVICE;
	s.files = files;
	s.nfiles = 3;
	memset(&opt, 0, sizeof opt);
	opt.soc = "ascend910b2";
	opt.build_limits.wall_seconds = 60;
	memset(&req, 0, sizeof req);
	req.task = t;
	req.sample = &s;
	req.options = &opt;
	req.workdir = fx_at("work");
	cr_assert_eq(npukb_ascend_hostdev_plugin.backend->build(&req, res), 0);
}

static const float xs[5] = { 1.5f, -2, 3, 4, 5 }, ys[5] = { 10, 20, 30, 40, 50.25f };

/* x, y, z of 5 float32, timed with 2 warm-ups and 3 runs. */
static void run_add(const struct npukb_task *t, const struct npukb_build_result *b,
		    struct npukb_cann_info *info, struct npukb_run_result *res)
{
	static struct npukb_case_tensor ts[3];
	static struct npukb_case_data data;
	static struct npukb_options opt;
	static char paths[3][4096];
	static const char *const names[3] = { "x", "y", "z" };
	struct npukb_run_request req;
	float z[5] = { -1, -1, -1, -1, -1 };

	cr_assert_eq(fx_shell("mkdir -p '%s'", fx_at("run")), 0);
	fx_write_bin("run/x.bin", xs, sizeof xs);
	fx_write_bin("run/y.bin", ys, sizeof ys);
	fx_write_bin("run/z.bin", z, sizeof z);
	memset(ts, 0, sizeof ts);
	for (int i = 0; i < 3; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/%s.bin", fx_at("run"), names[i]);
		ts[i].name = (char *)names[i];
		ts[i].is_output = i == 2;
		ts[i].dtype = NPUKB_DT_FLOAT32;
		ts[i].shape.rank = 1;
		ts[i].shape.dims[0] = 5;
		ts[i].numel = 5;
		ts[i].bytes = sizeof xs;
		ts[i].path = paths[i];
	}
	memset(&data, 0, sizeof data);
	data.tensors = ts;
	data.ntensors = 3;
	memset(&opt, 0, sizeof opt);
	opt.perf_warmup = 2;
	opt.perf_runs = 3;
	opt.run_limits.wall_seconds = 60;
	memset(&req, 0, sizeof req);
	req.task = t;
	req.kcase = &t->cases[0];
	req.options = &opt;
	req.artifact = b->artifact;
	req.workdir = fx_at("run");
	req.data = &data;
	req.want_timing = 1;
	info->has_device = 1;
	setenv("ASCEND_FAKE_ACL_TRACE", fx_at("trace.log"), 1);
	unlink(fx_at("trace.log"));
	cr_assert_eq(run_on_npu(info, &req, res), 0);
}

static void build_and_run(int bisheng, const char *calls_golden)
{
	struct npukb_task *t = load(ADD);
	struct npukb_cann_info info;
	struct npukb_build_result b;
	struct npukb_run_result r;
	char *calls, *trace, *stage;
	float z[5];
	FILE *f;

	build(bisheng, t, &info, &b);
	cr_assert(b.ok, "%s\n%s", b.message, b.diagnostics ? b.diagnostics : "");
	calls = fx_masked_calls(&info);
	fx_assert_golden(calls_golden, calls);
	free(calls);
	/* The operator sits in the build's own stage, not in the toolkit. */
	stage = stage_of(b.artifact);
	cr_assert_eq(access(fx_at("work/stage/vendors/customize/op_api/lib/libcust_opapi.so"), F_OK),
		     0);
	cr_assert_eq(fx_shell("test -z \"$(find '%s' -name libcust_opapi.so)\"", fx_at("cann")), 0);
	free(stage);

	run_add(t, &b, &info, &r);
	cr_assert(r.ok, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
	f = fopen(fx_at("run/z.bin"), "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(z, 1, sizeof z, f), sizeof z);
	fclose(f);
	for (int i = 0; i < 5; i++)
		cr_assert_float_eq(z[i], xs[i] + ys[i], 1e-6);
	cr_assert_float_eq(r.time_us, 2000.0, 1e-3, "%g", r.time_us);
	cr_assert_eq(r.timed_runs, 3);
	trace = fx_slurp(fx_at("trace.log"));
	fx_assert_golden("hostdev-run.trace", trace);
	free(trace);
	npukb_run_result_clear(&r);
	npukb_build_result_clear(&b);
	npukb_task_free(t);
}

Test(ascend_hostdev, build_and_run_cann_8_0)
{
	build_and_run(0, "hostdev-calls-cann8.0.txt");
}

Test(ascend_hostdev, build_and_run_cann_8_5)
{
	build_and_run(1, "hostdev-calls-cann8.5.txt");
}

/* Without ASCEND_CUSTOM_OPP_PATH at the stage the operator has no kernel:
 * the run fails with the aclnn status, not a silent pass. */
Test(ascend_hostdev, the_stage_is_what_the_run_uses)
{
	struct npukb_task *t = load(ADD);
	struct npukb_cann_info info;
	struct npukb_build_result b;
	struct npukb_run_result r;

	build(0, t, &info, &b);
	cr_assert(b.ok, "%s", b.message);
	cr_assert_eq(fx_shell("rm -r '%s'", fx_at("work/stage/vendors/customize/op_impl")), 0);
	run_add(t, &b, &info, &r);
	cr_assert_not(r.ok);
	cr_assert(strstr(r.message, "aclnnAddCustomGetWorkspaceSize") &&
		  strstr(r.message, "failed with error 561003"), "%s", r.message);
	npukb_run_result_clear(&r);
	npukb_build_result_clear(&b);
	npukb_task_free(t);
}

/* A sample without op_kernel sources fails where the project is filled,
 * naming what is missing; the fake tools stage no kernel when msopgen's
 * order is broken. */
Test(ascend_hostdev, missing_sources_and_broken_order_fail)
{
	static const char *const files[] = { "op_host/add_custom.cpp" };
	struct npukb_task *t = load(ADD);
	struct npukb_cann_info info;
	struct npukb_build_result b;
	struct npukb_sample s;
	struct npukb_build_request req;

	fx_fake_cann(0, &info);
	put_sample();
	cr_assert_eq(fx_shell("mkdir -p '%s'", fx_at("work")), 0);
	memset(&s, 0, sizeof s);
	s.dir = fx_at("sample");
	s.mode = NPUKB_MODE_HOST_DEVICE;
	s.files = files;
	s.nfiles = 1;
	memset(&req, 0, sizeof req);
	req.task = t;
	req.sample = &s;
	req.workdir = fx_at("work");
	cr_assert_eq(npukb_ascend_hostdev_plugin.backend->build(&req, &b), 0);
	cr_assert_not(b.ok);
	cr_assert(strstr(b.message, "no op_kernel/ sources"), "%s", b.message);
	npukb_build_result_clear(&b);
	npukb_task_free(t);

	/* The fake tools keep msopgen's order honest: with the sources in
	 * place, a package built before binary stages no kernel, one built
	 * after it does. */
	cr_assert_eq(fx_shell("cp '%s' '%s/op_kernel/add_custom.cpp'", fx_at("sample/op_kernel/add_custom.cpp"),
			      fx_at("work/op_project")), 0);
	cr_assert_eq(fx_shell("cd '%s' && cmake -S . -B build_out --preset=default "
			      "-DASCEND_CANN_PACKAGE_PATH=\"$ASCEND_HOME_PATH\" >/dev/null && "
			      "cmake --build build_out --target package -j 1 && "
			      "bash build_out/custom_opp_ubuntu_x86_64.run --quiet --install-path='%s'",
			      fx_at("work/op_project"), fx_at("early")), 0);
	cr_assert_neq(access(fx_at("early/vendors/customize/op_api/lib/libcust_opapi.so"), F_OK), -1);
	cr_assert_eq(access(fx_at("early/vendors/customize/op_impl/ai_core/tbe/kernel/npukb_fake_binary"),
			    F_OK), -1, "a package built before binary carries no kernel");
	cr_assert_eq(fx_shell("cd '%s' && cmake --build build_out --target binary -j 1 && "
			      "cmake --build build_out --target package -j 1 && "
			      "bash build_out/custom_opp_ubuntu_x86_64.run --quiet --install-path='%s'",
			      fx_at("work/op_project"), fx_at("late")), 0);
	cr_assert_eq(access(fx_at("late/vendors/customize/op_impl/ai_core/tbe/kernel/npukb_fake_binary"),
			    F_OK), 0);
}
