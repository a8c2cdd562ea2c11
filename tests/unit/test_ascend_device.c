/* test_ascend_device.c - the ascend-device flow without an NPU: every
 * generated file and command line against golden files (one per CANN
 * generation), the fake toolkit's honesty, and the whole build and run
 * through the fake compiler and the fake ACL runtime, which checks call
 * order and arguments and records a trace (tests/data/fake_cann).
 *
 * The plugin source is compiled in (#include) so its static functions
 * (launch_on_npu) can be called with a faked device. */
#include <criterion/criterion.h>

#include "ascend_fixture.h"

#include "../../plugins/ascend-device/ascend_device.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TestSuite(ascend_device, .init = fx_make_tmp, .fini = fx_remove_tmp, .timeout = 120);

static struct npukb_param add_params[] = {
	{ (char *)"x", NPUKB_PARAM_INPUT, NULL, NULL },
	{ (char *)"y", NPUKB_PARAM_INPUT, NULL, NULL },
	{ (char *)"z", NPUKB_PARAM_OUTPUT, NULL, NULL },
	{ (char *)"workspace", NPUKB_PARAM_WORKSPACE, NULL, NULL },
	{ (char *)"tiling", NPUKB_PARAM_TILING, NULL, NULL },
};
#define NADD (sizeof add_params / sizeof add_params[0])

static struct npukb_task add_task(void)
{
	struct npukb_task t;

	memset(&t, 0, sizeof t);
	t.kernel_name = (char *)"add_custom";
	t.params = add_params;
	t.nparams = NADD;
	t.block_dim = 3;
	return t;
}

/* ---- generated files ---------------------------------------------------- */

Test(ascend_device, generated_files_match_golden)
{
	char err[256] = "";
	char *host = npukb_ascend_host_source("add_custom", add_params, NADD, err, sizeof err);
	char *wrap = npukb_ascend_wrapper_source("add_custom", "add_custom.cpp", add_params, NADD,
						 err, sizeof err);

	cr_assert_not_null(host, "%s", err);
	cr_assert_not_null(wrap, "%s", err);
	fx_assert_golden("launch-host.cpp", host);
	fx_assert_golden("launch-wrapper.cpp", wrap);
	free(host);
	free(wrap);
}

/* The compile of the kernel's TU (vector-only and mixed), the host compile
 * and the link, as one golden file per generation. */
static void commands_match_golden(int bisheng, const char *golden)
{
	struct npukb_cann_info info;
	struct npukb_cann_cmd c;
	char err[512];
	char *all = NULL;

	fx_fake_cann(bisheng, &info);
	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend910b2", NPUKB_CANN_CORES_VEC,
						   "npukb_launch.cpp", "kernel.o", &c, err,
						   sizeof err), 0, "%s", err);
	fx_add_cmd(&all, &c, info.root);
	npukb_cann_cmd_clear(&c);
	cr_assert_eq(npukb_cann_device_compile_cmd(&info, "ascend910b2", NPUKB_CANN_CORES_MIX,
						   "npukb_launch.cpp", "kernel.o", &c, err,
						   sizeof err), 0, "%s", err);
	fx_add_cmd(&all, &c, info.root);
	npukb_cann_cmd_clear(&c);
	cr_assert_eq(npukb_cann_device_host_cmd(&info, NULL, "npukb_host.cpp", "npukb_host.o", &c,
						err, sizeof err), 0, "%s", err);
	fx_add_cmd(&all, &c, info.root);
	npukb_cann_cmd_clear(&c);
	cr_assert_eq(npukb_cann_device_link_cmd(&info, "npukb_host.o", "kernel.o", "npukb_host",
						&c, err, sizeof err), 0, "%s", err);
	fx_add_cmd(&all, &c, info.root);
	npukb_cann_cmd_clear(&c);
	fx_assert_golden(golden, all);
	free(all);
}

Test(ascend_device, commands_cann_8_0_ccec)
{
	commands_match_golden(0, "device-commands-cann8.0.txt");
}

Test(ascend_device, commands_cann_8_5_bisheng)
{
	commands_match_golden(1, "device-commands-cann8.5.txt");
}

Test(ascend_device, kernel_cores_follow_the_source)
{
	fx_put_file("v.cpp", "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) {}\n", 0);
	fx_put_file("m.cpp", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);\n", 0);
	fx_put_file("mm.cpp", "AscendC::Mmad(c, a, b, p);\n", 0);
	fx_put_file("c.cpp", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); Mmad(c, a, b, p);\n",
		    0);
	cr_assert_eq(kernel_cores(fx_at("v.cpp")), NPUKB_CANN_CORES_VEC);
	cr_assert_eq(kernel_cores(fx_at("m.cpp")), NPUKB_CANN_CORES_MIX);
	cr_assert_eq(kernel_cores(fx_at("mm.cpp")), NPUKB_CANN_CORES_MIX);
	cr_assert_eq(kernel_cores(fx_at("c.cpp")), NPUKB_CANN_CORES_CUBE);
	cr_assert_eq(kernel_cores(fx_at("missing.cpp")), NPUKB_CANN_CORES_VEC);
}

/* ---- the fake toolkit is honest ------------------------------------------ */

Test(ascend_device, fake_acl_header_has_no_kernel_language)
{
	const char *inc = fx_src("tests/data/fake_cann/include");

	fx_put_file("plain.cpp", "#include \"acl/acl.h\"\nint main() { return ACL_SUCCESS; }\n", 0);
	cr_assert_eq(fx_shell("g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I'%s' '%s'",
			      inc, fx_at("plain.cpp")), 0);
	fx_put_file("q.cpp", "#include \"acl/acl.h\"\n__global__ __aicore__ void k();\n", 0);
	cr_assert_neq(fx_shell("g++ -std=c++17 -fsyntax-only -I'%s' '%s' 2>/dev/null", inc,
			       fx_at("q.cpp")), 0, "acl.h must not define kernel qualifiers");
	fx_put_file("g.cpp", "#include \"acl/acl.h\"\n#ifdef GM_ADDR\n#error GM_ADDR\n#endif\n",
		    0);
	cr_assert_eq(fx_shell("g++ -std=c++17 -fsyntax-only -I'%s' '%s'", inc, fx_at("g.cpp")), 0,
		     "acl.h must not define GM_ADDR");
	/* kernel_operator.h is kernel-side: __gm__ is unknown to a host compile. */
	fx_put_file("k.cpp", "#include \"kernel_operator.h\"\nvoid f(GM_ADDR p);\n", 0);
	cr_assert_neq(fx_shell("g++ -std=c++17 -fsyntax-only -I'%s' '%s' 2>/dev/null", inc,
			       fx_at("k.cpp")), 0);
}

/* The fake headers are laid out as the real ones (acl.h includes acl_rt.h,
 * which includes acl_base.h; aclnn/acl_meta.h includes acl_base.h only),
 * so a generated program that leans on an include the real headers do not
 * make fails here too; and a value read in the real acl_base.h. */
Test(ascend_device, fake_headers_include_what_the_real_ones_do)
{
	const char *inc = fx_src("tests/data/fake_cann/include");

	fx_put_file("meta.cpp",
		    "#include \"aclnn/acl_meta.h\"\n"
		    "aclTensor *t(void *p) { int64_t d = 1; return aclCreateTensor(&d, 1, ACL_FLOAT, "
		    "&d, 0, ACL_FORMAT_ND, &d, 1, p); }\n"
		    "aclrtStream s; aclError e = ACL_SUCCESS;\n"
		    "static_assert(ACL_ERROR_INVALID_DEVICE == 200002, \"acl_base.h's value\");\n",
		    0);
	cr_assert_eq(fx_shell("g++ -std=c++17 -Wall -Werror -fsyntax-only -I'%s' '%s'", inc,
			      fx_at("meta.cpp")), 0);
	fx_put_file("rt.cpp", "#include \"aclnn/acl_meta.h\"\nint f(void **p) "
		    "{ return aclrtMalloc(p, 1, ACL_MEM_MALLOC_HUGE_FIRST); }\n", 0);
	cr_assert_neq(fx_shell("g++ -std=c++17 -fsyntax-only -I'%s' '%s' 2>/dev/null", inc,
			       fx_at("rt.cpp")), 0, "acl_meta.h must not bring the runtime's calls");
	fx_put_file("init.cpp", "#include \"acl/acl_rt.h\"\nint f() { return aclInit(nullptr); }\n",
		    0);
	cr_assert_neq(fx_shell("g++ -std=c++17 -fsyntax-only -I'%s' '%s' 2>/dev/null", inc,
			       fx_at("init.cpp")), 0, "aclInit is acl.h's");
}

/* The launch program compiles as plain C++; the wrapper does not (its
 * <<<>>> belongs to the kernel compiler). */
Test(ascend_device, host_is_plain_cxx_and_wrapper_is_not)
{
	const char *inc = fx_src("tests/data/fake_cann/include");
	char err[256];
	char *host = npukb_ascend_host_source("add_custom", add_params, NADD, err, sizeof err);
	char *wrap = npukb_ascend_wrapper_source("add_custom", "add_custom.cpp", add_params, NADD,
						 err, sizeof err);

	fx_put_file("npukb_host.cpp", host, 0);
	fx_put_file("npukb_launch.cpp", wrap, 0);
	cr_assert_eq(fx_shell("cp '%s' '%s'", fx_src("tests/data/ascend/add_custom_kernel.cpp"),
			      fx_at("add_custom.cpp")), 0);
	cr_assert_eq(fx_shell("g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I'%s' '%s' "
			      "2>'%s'", inc, fx_at("npukb_host.cpp"), fx_at("host.log")), 0,
		     "see %s", fx_at("host.log"));
	cr_assert_neq(fx_shell("g++ -std=c++17 -fsyntax-only -I'%s' '%s' 2>/dev/null", inc,
			       fx_at("npukb_launch.cpp")), 0);
	free(host);
	free(wrap);
}

Test(ascend_device, fake_compiler_refuses_what_the_real_flow_cannot_link)
{
	struct npukb_cann_info info;

	fx_fake_cann(0, &info);
	fx_put_file("k.cpp", "int x;\n", 0);
	cr_assert_neq(fx_shell("cd '%s' && '%s' -c -xcce --cce-aicore-arch=dav-c220-vec "
			       "--cce-aicore-only k.cpp -o k.o 2>err", fx_tmp, info.compiler), 0);
	cr_assert_eq(fx_shell("grep -q 'device-only object' '%s'", fx_at("err")), 0);
	cr_assert_neq(fx_shell("cd '%s' && '%s' -c k.cpp -o k.o 2>err", fx_tmp, info.compiler),
		      0, "a kernel compile without the kernel language");
	cr_assert_eq(fx_shell("cd '%s' && '%s' -c -xcce --cce-aicore-arch=dav-c220-vec k.cpp "
			      "-o k.o", fx_tmp, info.compiler), 0);
	cr_assert_neq(fx_shell("cd '%s' && '%s' k.o -o k.so -shared 2>err", fx_tmp, info.compiler),
		      0);
	cr_assert_eq(fx_shell("grep -q -- '--cce-fatobj-link' '%s'", fx_at("err")), 0);
}

/* ---- build and run through the fake toolkit ---------------------------------- */

static void build_add(int bisheng, struct npukb_cann_info *info, struct npukb_build_result *res)
{
	static struct npukb_task task;
	static const char *const files[] = { "add_custom.cpp" };
	struct npukb_sample s;
	struct npukb_options opt;
	struct npukb_build_request req;

	fx_fake_cann(bisheng, info);
	cr_assert_eq(fx_shell("mkdir -p '%s' '%s' && cp '%s' '%s'", fx_at("sample"), fx_at("work"),
			      fx_src("tests/data/ascend/add_custom_kernel.cpp"),
			      fx_at("sample/add_custom.cpp")), 0);
	task = add_task();
	memset(&s, 0, sizeof s);
	s.id = "s1";
	s.dir = fx_at("sample");
	s.mode = NPUKB_MODE_KERNEL_ONLY;
	s.files = files;
	s.nfiles = 1;
	memset(&opt, 0, sizeof opt);
	opt.soc = "ascend910b2";
	opt.build_limits.wall_seconds = 60;
	memset(&req, 0, sizeof req);
	req.task = &task;
	req.sample = &s;
	req.options = &opt;
	req.workdir = fx_at("work");
	cr_assert_eq(npukb_ascend_device_plugin.backend->build(&req, res), 0);
	cr_assert(res->ok, "%s\n%s", res->message, res->diagnostics ? res->diagnostics : "");
}

static const float xs[5] = { 1, 2, 3, 4, 5 }, ys[5] = { 10, 20, 30, 40, 50 };

/* Runs the built program on the fake NPU: x, y, z files, a 64-byte
 * workspace, the tiling (n = 5), timed with 2 warm-ups and 3 runs. */
static void run_add(const struct npukb_build_result *b, struct npukb_cann_info *info,
		    struct npukb_run_result *res)
{
	static struct npukb_task task;
	static struct npukb_kernel_arg args[5];
	static struct npukb_case_data data;
	static struct npukb_options opt;
	static char paths[4][4096];
	struct npukb_run_request req;
	float z[5] = { -1, -1, -1, -1, -1 };
	uint32_t n = 5;
	const char *names[4] = { "run/x.bin", "run/y.bin", "run/z.bin", "run/tiling.bin" };

	cr_assert_eq(fx_shell("mkdir -p '%s'", fx_at("run")), 0);
	fx_write_bin(names[0], xs, sizeof xs);
	fx_write_bin(names[1], ys, sizeof ys);
	fx_write_bin(names[2], z, sizeof z);
	fx_write_bin(names[3], &n, sizeof n);
	for (int i = 0; i < 4; i++)
		snprintf(paths[i], sizeof paths[i], "%s", fx_at(names[i]));
	task = add_task();
	memset(args, 0, sizeof args);
	args[0] = (struct npukb_kernel_arg){ NPUKB_PARAM_INPUT, paths[0], sizeof xs, NULL };
	args[1] = (struct npukb_kernel_arg){ NPUKB_PARAM_INPUT, paths[1], sizeof ys, NULL };
	args[2] = (struct npukb_kernel_arg){ NPUKB_PARAM_OUTPUT, paths[2], sizeof z, NULL };
	args[3] = (struct npukb_kernel_arg){ NPUKB_PARAM_WORKSPACE, NULL, 64, NULL };
	args[4] = (struct npukb_kernel_arg){ NPUKB_PARAM_TILING, paths[3], sizeof n, NULL };
	memset(&data, 0, sizeof data);
	data.args = args;
	data.nargs = 5;
	memset(&opt, 0, sizeof opt);
	opt.perf_warmup = 2;
	opt.perf_runs = 3;
	opt.run_limits.wall_seconds = 60;
	opt.run_limits.memory_bytes = 1 << 20; /* dropped for the NPU program */
	memset(&req, 0, sizeof req);
	req.task = &task;
	req.options = &opt;
	req.artifact = b->artifact;
	req.workdir = fx_at("run");
	req.data = &data;
	req.want_timing = 1;
	info->has_device = 1;
	setenv("ASCEND_FAKE_ACL_TRACE", fx_at("trace.log"), 1);
	unlink(fx_at("trace.log"));
	cr_assert_eq(launch_on_npu(info, &req, res), 0);
}

static void check_sums(void)
{
	float z[5];
	FILE *f = fopen(fx_at("run/z.bin"), "rb");

	cr_assert_not_null(f);
	cr_assert_eq(fread(z, 1, sizeof z, f), sizeof z);
	fclose(f);
	for (int i = 0; i < 5; i++)
		cr_assert_float_eq(z[i], xs[i] + ys[i], 1e-6, "z[%d] = %g", i, (double)z[i]);
}

static void build_and_run(int bisheng, const char *calls_golden)
{
	struct npukb_cann_info info;
	struct npukb_build_result b;
	struct npukb_run_result r;
	char *calls, *trace;

	build_add(bisheng, &info, &b);
	calls = fx_masked_calls(&info);
	fx_assert_golden(calls_golden, calls);
	free(calls);
	cr_assert(strstr(b.message, bisheng ? "(dav-2201)" : "(dav-c220-vec)"), "%s", b.message);

	run_add(&b, &info, &r);
	cr_assert(r.ok, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
	check_sums();
	/* Timed launches take 1.5, 2.0 and 2.5 ms after two warm-ups. */
	cr_assert(r.has_spread);
	cr_assert_float_eq(r.time_us, 2000.0, 1e-3, "%g", r.time_us);
	cr_assert_float_eq(r.time_min_us, 1500.0, 1e-3);
	cr_assert_float_eq(r.time_max_us, 2500.0, 1e-3);
	cr_assert_eq(r.timed_runs, 3);
	trace = fx_slurp(fx_at("trace.log"));
	cr_assert_not_null(trace);
	fx_assert_golden("device-run.trace", trace);
	free(trace);
	npukb_run_result_clear(&r);
	npukb_build_result_clear(&b);
}

Test(ascend_device, build_and_run_cann_8_0_ccec)
{
	build_and_run(0, "device-calls-cann8.0.txt");
}

Test(ascend_device, build_and_run_cann_8_5_bisheng)
{
	build_and_run(1, "device-calls-cann8.5.txt");
}

/* A failing ACL call ends the run with the runtime's own message, and the
 * device is checked (and found healthy) afterwards. */
Test(ascend_device, acl_errors_carry_the_runtime_message)
{
	struct npukb_cann_info info;
	struct npukb_build_result b;
	struct npukb_run_result r;
	char *trace;

	build_add(0, &info, &b);
	setenv("ASCEND_FAKE_ACL_FAIL", "aclrtSynchronizeStream", 1);
	run_add(&b, &info, &r);
	cr_assert_not(r.ok);
	cr_assert_eq(r.proc.exit_code, NPUKB_ASCEND_HOST_EXIT_ACL);
	cr_assert(strstr(r.message, "aclrtSynchronizeStream(stream) failed with error 507011: "
				    "injected failure of aclrtSynchronizeStream"),
		  "%s", r.message);
	cr_assert_null(strstr(r.message, "health"), "%s", r.message);
	cr_assert_not(health.wedged);
	trace = fx_slurp(fx_at("trace.log"));
	cr_assert(strstr(trace, "aclrtQueryDeviceStatus 0"), "no health check:\n%s", trace);
	free(trace);
	npukb_run_result_clear(&r);
	npukb_build_result_clear(&b);
}

/* The run was skipped, not judged, for the device's failed check. */
static void assert_kept_off_the_device(struct npukb_run_result *r)
{
	cr_assert(r->skipped, "%s", r->message);
	cr_assert_not(r->ok);
	cr_assert(strstr(r->message, "not run: NPU health check exited with status 4"), "%s",
		  r->message);
	cr_assert_neq(access(fx_at("run/timing.stats"), F_OK), 0, "the sample ran");
	npukb_run_result_clear(r);
}

/* A sample that leaves the device unhealthy costs that sample; the next
 * ones are skipped while the device fails its check, and run again once
 * it passes. */
Test(ascend_device, a_wedged_device_does_not_poison_later_verdicts)
{
	struct npukb_cann_info info;
	struct npukb_build_result b;
	struct npukb_run_result r;

	build_add(0, &info, &b);
	setenv("ASCEND_FAKE_ACL_FAIL", "aclrtSynchronizeStream", 1);
	setenv("ASCEND_FAKE_ACL_DEVICE_STATUS", "abnormal", 1);
	run_add(&b, &info, &r);
	cr_assert_not(r.ok);
	cr_assert_not(r.skipped);
	cr_assert(strstr(r.message, "; then NPU health check exited with status 4: "
				    "npukb-host: device status 1"), "%s", r.message);
	cr_assert(health.wedged);
	npukb_run_result_clear(&r);

	unsetenv("ASCEND_FAKE_ACL_FAIL");
	run_add(&b, &info, &r);
	assert_kept_off_the_device(&r);

	unsetenv("ASCEND_FAKE_ACL_DEVICE_STATUS");
	run_add(&b, &info, &r);
	cr_assert(r.ok, "%s", r.message);
	cr_assert_not(health.wedged);
	check_sums();
	npukb_run_result_clear(&r);
	npukb_build_result_clear(&b);
}

/* A sample may break the device and still pass its own runs: between
 * samples (a program other than the last one run) the device is checked
 * first, so the next sample is skipped with the reason rather than failed;
 * runs of the same program are not checked again. */
/* Runs the sample (it must pass); whether the device was checked first. */
static int run_checks_health(const struct npukb_build_result *b, struct npukb_cann_info *info)
{
	struct npukb_run_result r;
	char *trace;
	int checked;

	memset(&r, 0, sizeof r);
	cr_assert_eq(fx_shell("rm -f '%s'", fx_at("trace.log")), 0);
	run_add(b, info, &r);
	cr_assert(r.ok, "%s", r.message);
	npukb_run_result_clear(&r);
	trace = fx_slurp(fx_at("trace.log"));
	cr_assert_not_null(trace);
	checked = strstr(trace, "aclrtQueryDeviceStatus") != NULL;
	free(trace);
	return checked;
}

Test(ascend_device, the_device_is_checked_between_samples)
{
	struct npukb_cann_info info;
	struct npukb_build_result b;
	struct npukb_run_result r;

	memset(&r, 0, sizeof r);
	build_add(0, &info, &b);
	run_add(&b, &info, &r);
	cr_assert(r.ok, "%s", r.message);
	npukb_run_result_clear(&r);
	/* the same sample again: no check before its run */
	cr_assert_not(run_checks_health(&b, &info), "checked again");

	/* another sample ran last and left the device broken */
	snprintf(health.last, sizeof health.last, "/elsewhere/npukb_host");
	setenv("ASCEND_FAKE_ACL_DEVICE_STATUS", "abnormal", 1);
	run_add(&b, &info, &r);
	assert_kept_off_the_device(&r);
	unsetenv("ASCEND_FAKE_ACL_DEVICE_STATUS");

	/* a healthy device: checked, then the sample runs */
	snprintf(health.last, sizeof health.last, "/elsewhere/npukb_host");
	cr_assert(run_checks_health(&b, &info), "not checked");
	check_sums();
	npukb_build_result_clear(&b);
}

/* One worker per NPU: the worker's device becomes the only one its
 * programs see. */
Test(ascend_device, a_worker_sees_its_device_alone)
{
	struct npukb_cann_info info;
	struct npukb_build_result b;
	struct npukb_run_result r;
	struct npukb_limits base = { 0 }, l;
	char **envp;
	int seen = 0;

	unsetenv("NPUKB_ASCEND_DEVICE");
	cr_assert_eq(npukb_npu_device_id(), -1);
	setenv("NPUKB_ASCEND_DEVICE", "x", 1);
	cr_assert_eq(npukb_npu_device_id(), -1);
	setenv("NPUKB_ASCEND_DEVICE", "5", 1);
	cr_assert_eq(npukb_npu_device_id(), 5);

	build_add(0, &info, &b);
	envp = npukb_npu_device_envp(&info, NULL, 5);
	cr_assert_not_null(envp);
	for (char **e = envp; *e; e++)
		seen += strcmp(*e, "ASCEND_RT_VISIBLE_DEVICES=5") == 0;
	cr_assert_eq(seen, 1);
	npukb_cann_strv_free(envp);

	/* The program, started for device 5, runs on its logical device 0. */
	setenv("ASCEND_RT_VISIBLE_DEVICES", "0,1,2,3,4,5,6,7", 1);
	run_add(&b, &info, &r);
	cr_assert(r.ok, "%s", r.message);
	npukb_run_result_clear(&r);
	npukb_build_result_clear(&b);

	base.wall_seconds = 7;
	base.memory_bytes = 123;
	base.max_processes = 9;
	l = npukb_npu_run_limits(&base);
	cr_assert_eq(l.memory_bytes, 0);
	cr_assert_eq(l.wall_seconds, 7);
	cr_assert_eq(l.max_processes, 9);
}

/* A tensor list reaches the kernel as a ListTensorDesc in device memory,
 * an absent optional input as a null address. */
Test(ascend_device, tensor_lists_and_absent_inputs)
{
	static struct npukb_param params[] = {
		{ (char *)"xs", NPUKB_PARAM_INPUT, NULL, NULL },
		{ (char *)"bias", NPUKB_PARAM_INPUT, NULL, NULL },
		{ (char *)"z", NPUKB_PARAM_OUTPUT, NULL, NULL },
		{ (char *)"workspace", NPUKB_PARAM_WORKSPACE, NULL, NULL },
		{ (char *)"tiling", NPUKB_PARAM_TILING, NULL, NULL },
	};
	static const char *const files[] = { "list_add.cpp" };
	/* Two members of 3 floats, the second at element 128 (512 bytes). */
	static float members_data[128 + 3] = { 1, 2, 3 };
	struct npukb_shape member = { 1, { 3 } };
	struct npukb_shape members[2] = { member, member };
	size_t offsets[2] = { 0, 128 };
	struct npukb_case_tensor ts[3];
	struct npukb_kernel_arg args[5];
	struct npukb_case_data data;
	struct npukb_task task;
	struct npukb_sample s;
	struct npukb_options opt;
	struct npukb_build_request breq;
	struct npukb_build_result b;
	struct npukb_run_request rreq;
	struct npukb_run_result r;
	struct npukb_cann_info info;
	float z[3] = { -1, -1, -1 };
	uint32_t n = 3;
	char paths[3][4096];
	char *trace;
	FILE *f;

	members_data[128] = 10;
	members_data[129] = 20;
	members_data[130] = 30;
	fx_fake_cann(0, &info);
	cr_assert_eq(fx_shell("mkdir -p '%s' '%s' '%s' && cp '%s' '%s'", fx_at("sample"),
			      fx_at("work"), fx_at("run"),
			      fx_src("tests/data/ascend/list_add_kernel.cpp"),
			      fx_at("sample/list_add.cpp")), 0);
	memset(&task, 0, sizeof task);
	task.kernel_name = (char *)"list_add";
	task.params = params;
	task.nparams = 5;
	memset(&s, 0, sizeof s);
	s.dir = fx_at("sample");
	s.mode = NPUKB_MODE_KERNEL_ONLY;
	s.files = files;
	s.nfiles = 1;
	memset(&opt, 0, sizeof opt);
	opt.soc = "ascend910b2";
	memset(&breq, 0, sizeof breq);
	breq.task = &task;
	breq.sample = &s;
	breq.options = &opt;
	breq.workdir = fx_at("work");
	cr_assert_eq(npukb_ascend_device_plugin.backend->build(&breq, &b), 0);
	cr_assert(b.ok, "%s\n%s", b.message, b.diagnostics ? b.diagnostics : "");

	fx_write_bin("run/xs.bin", members_data, sizeof members_data);
	fx_write_bin("run/z.bin", z, sizeof z);
	fx_write_bin("run/tiling.bin", &n, sizeof n);
	snprintf(paths[0], sizeof paths[0], "%s", fx_at("run/xs.bin"));
	snprintf(paths[1], sizeof paths[1], "%s", fx_at("run/z.bin"));
	snprintf(paths[2], sizeof paths[2], "%s", fx_at("run/tiling.bin"));
	memset(ts, 0, sizeof ts);
	ts[0].name = (char *)"xs";
	ts[0].dtype = NPUKB_DT_FLOAT32;
	ts[0].nmembers = 2;
	ts[0].members = members;
	ts[0].member_offsets = offsets;
	ts[0].path = paths[0];
	ts[1].name = (char *)"bias";
	ts[1].dtype = NPUKB_DT_FLOAT32;
	ts[1].is_absent = 1;
	ts[2].name = (char *)"z";
	ts[2].dtype = NPUKB_DT_FLOAT32;
	ts[2].path = paths[1];
	memset(args, 0, sizeof args);
	args[0] = (struct npukb_kernel_arg){ NPUKB_PARAM_INPUT, paths[0], sizeof members_data, &ts[0] };
	args[1] = (struct npukb_kernel_arg){ NPUKB_PARAM_INPUT, NULL, 0, &ts[1] };
	args[2] = (struct npukb_kernel_arg){ NPUKB_PARAM_OUTPUT, paths[1], sizeof z, &ts[2] };
	args[3] = (struct npukb_kernel_arg){ NPUKB_PARAM_WORKSPACE, NULL, 0, NULL };
	args[4] = (struct npukb_kernel_arg){ NPUKB_PARAM_TILING, paths[2], sizeof n, NULL };
	memset(&data, 0, sizeof data);
	data.args = args;
	data.nargs = 5;
	memset(&rreq, 0, sizeof rreq);
	rreq.task = &task;
	rreq.options = &opt;
	rreq.artifact = b.artifact;
	rreq.workdir = fx_at("run");
	rreq.data = &data;
	info.has_device = 1;
	setenv("ASCEND_FAKE_ACL_TRACE", fx_at("trace.log"), 1);
	cr_assert_eq(launch_on_npu(&info, &rreq, &r), 0);
	cr_assert(r.ok, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
	f = fopen(fx_at("run/z.bin"), "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(z, 1, sizeof z, f), sizeof z);
	fclose(f);
	cr_assert_float_eq(z[0], 11.0f, 1e-6);
	cr_assert_float_eq(z[1], 22.0f, 1e-6);
	cr_assert_float_eq(z[2], 33.0f, 1e-6);
	trace = fx_slurp(fx_at("trace.log"));
	/* data, then its descriptor: the kernel gets the descriptor */
	cr_assert(strstr(trace, "aclrtMalloc d2 524 policy=0\naclrtMemcpy d2 host 524 H2D\n"
				"aclrtMalloc d3 56 policy=0\naclrtMemcpy d3 host 56 H2D\n"), "%s", trace);
	cr_assert(strstr(trace, "  arg d3\n  arg null:0\n"), "%s", trace);
	free(trace);
	npukb_run_result_clear(&r);
	npukb_build_result_clear(&b);
}
