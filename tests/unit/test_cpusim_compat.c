/* test_cpusim_compat.c - samples in the shapes issue 21's corpus found
 * cpusim could not build, built and run end to end: a kernel template
 * launched as `kernel<half><<<...>>>` from a host wrapper (the arguments
 * given by --backend-opt kernel-template-args), and a single-source .asc
 * in CANN 8.5's form (cpu_debug_launch.h under ASCENDC_CPU_DEBUG, the
 * __vector__ qualifier, a host main), a kernel naming its tiling struct with
 * REGISTER_TILING_DEFAULT, and an operator project whose op_host and
 * op_kernel tiling headers share one include guard. Needs what
 * test_cpusim.c needs. */
#include <criterion/criterion.h>

#include <npukb/plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpusim_fixture.h"
#include "cpusim_run.h"

/* Half add over the blocks, the kernel's element type a template
 * parameter. */
#define ADD_BODY                                                                       \
	"{\n"                                                                          \
	"    GET_TILING_DATA(td, tiling);\n"                                           \
	"    uint32_t n = td.totalLength / AscendC::GetBlockNum();\n"                  \
	"    uint32_t off = n * AscendC::GetBlockIdx();\n"                             \
	"    AscendC::GlobalTensor<T> xg, yg, zg;\n"                                   \
	"    xg.SetGlobalBuffer((__gm__ T *)x + off, n);\n"                            \
	"    yg.SetGlobalBuffer((__gm__ T *)y + off, n);\n"                            \
	"    zg.SetGlobalBuffer((__gm__ T *)z + off, n);\n"                            \
	"    AscendC::TPipe pipe;\n"                                                   \
	"    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;\n"                        \
	"    pipe.InitBuffer(buf, 3 * n * sizeof(T));\n"                               \
	"    AscendC::LocalTensor<T> a = buf.Get<T>(), b = a[n], c = a[2 * n];\n"      \
	"    AscendC::DataCopy(a, xg, n);\n"                                           \
	"    AscendC::DataCopy(b, yg, n);\n"                                           \
	"    AscendC::PipeBarrier<PIPE_ALL>();\n"                                      \
	"    AscendC::Add(c, a, b, n);\n"                                              \
	"    AscendC::PipeBarrier<PIPE_ALL>();\n"                                      \
	"    AscendC::DataCopy(zg, c, n);\n"                                           \
	"}\n"

static const char template_kernel[] =
	"#include \"kernel_operator.h\"\n"
	"template <typename T>\n"
	"__global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)\n"
	ADD_BODY
	"void launch_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, GM_ADDR t, void *stream)\n"
	"{\n"
	"    add_custom<half><<<8, nullptr, stream>>>(x, y, z, w, t);\n"
	"}\n";

static const char asc_file[] =
	"#include <cstdint>\n#include <vector>\n"
	"#include \"acl/acl.h\"\n"
	"#include \"kernel_operator.h\"\n"
	"#ifdef ASCENDC_CPU_DEBUG\n#include \"cpu_debug_launch.h\"\n#endif\n"
	"using T = half;\n"
	"__vector__ __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,\n"
	"                                                GM_ADDR tiling)\n"
	ADD_BODY
	"int main()\n"
	"{\n"
	"    std::vector<uint8_t> buf(64);\n"
	"    aclrtStream stream = nullptr;\n"
	"    add_custom<<<8, nullptr, stream>>>(buf.data(), buf.data(), buf.data(), nullptr, buf.data());\n"
	"    return 0;\n"
	"}\n";

/* A kernel of CANN 8.5's operator projects: its own tiling struct, named
 * by REGISTER_TILING_DEFAULT before GET_TILING_DATA (field names unlike
 * the task's, so reading the task's struct would not compile). */
static const char registered_tiling_kernel[] =
	"#include \"kernel_operator.h\"\n"
	"struct KernelOwnTiling { uint32_t elems; uint32_t pieces; };\n"
	"using T = half;\n"
	"extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,\n"
	"                                                 GM_ADDR tiling)\n"
	"{\n"
	"    REGISTER_TILING_DEFAULT(KernelOwnTiling);\n"
	"    GET_TILING_DATA(own, tiling);\n"
	"    uint32_t n = own.elems / AscendC::GetBlockNum();\n"
	"    uint32_t off = n * AscendC::GetBlockIdx();\n"
	"    AscendC::GlobalTensor<T> xg, yg, zg;\n"
	"    xg.SetGlobalBuffer((__gm__ T *)x + off, n);\n"
	"    yg.SetGlobalBuffer((__gm__ T *)y + off, n);\n"
	"    zg.SetGlobalBuffer((__gm__ T *)z + off, n);\n"
	"    AscendC::TPipe pipe;\n"
	"    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;\n"
	"    pipe.InitBuffer(buf, 3 * n * sizeof(T));\n"
	"    AscendC::LocalTensor<T> a = buf.Get<T>(), b = a[n], c = a[2 * n];\n"
	"    AscendC::DataCopy(a, xg, n);\n"
	"    AscendC::DataCopy(b, yg, n);\n"
	"    AscendC::PipeBarrier<PIPE_ALL>();\n"
	"    AscendC::Add(c, a, b, n);\n"
	"    AscendC::PipeBarrier<PIPE_ALL>();\n"
	"    AscendC::DataCopy(zg, c, n);\n"
	"}\n";

/* build_dir_in with one source named `file` and the given backend
 * options (NULL-terminated, or NULL). */
static void build_one(struct built *b, const char *name, const char *text, const char *const *backend_opts)
{
	static const char *files[1];
	struct npukb_build_request req;
	char *dir = tempdir(), *path = path_in(dir, name);
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	setup_env();
	fake_task(&b->task);
	fake_options(&b->opts, 30);
	b->opts.backend_opts = backend_opts;
	memset(&b->sample, 0, sizeof(b->sample));
	files[0] = name;
	b->sample.id = "s";
	b->sample.dir = dir;
	b->sample.mode = NPUKB_MODE_KERNEL_ONLY;
	b->sample.nfiles = 1;
	b->sample.files = files;
	b->workdir = tempdir();
	memset(&req, 0, sizeof(req));
	req.task = &b->task;
	req.sample = &b->sample;
	req.options = &b->opts;
	req.workdir = b->workdir;
	cr_assert_eq(npukb_cpusim_plugin.backend->build(&req, &b->res), 0, "build() failed: %s",
		     b->res.message ? b->res.message : "?");
}

static void run_and_check(struct built *b)
{
	struct case_files c;
	struct npukb_run_result r;
	size_t first = 0, poisoned = 0, wrong;

	cr_assert_eq(b->res.ok, 1, "%s\n%s", b->res.message ? b->res.message : "",
		     b->res.diagnostics ? b->res.diagnostics : "");
	make_case(&c, 8 * 1024, 8, 5);
	run_case(b, &c, &r);
	cr_assert_eq(r.ok, 1, "%s\n%s", r.message ? r.message : "", r.diagnostics ? r.diagnostics : "");
	cr_expect(r.defects == NULL, "%s", r.defects);
	wrong = count_wrong(&c, &first, &poisoned);
	cr_expect_eq(wrong, 0, "%zu wrong from %zu (%zu unwritten)", wrong, first, poisoned);
	assert_inputs_intact(&c);
}

Test(cpusim_compat_build, kernel_template_with_its_arguments_from_the_option, .timeout = 240)
{
	static const char opt[] = "kernel-template-args=half";
	const char *const opts[] = { opt, NULL };
	struct built b;

	build_one(&b, "add_custom.cpp", template_kernel, opts);
	run_and_check(&b);
}

Test(cpusim_compat_build, kernel_template_without_the_option_does_not_build, .timeout = 240)
{
	struct built b;

	build_one(&b, "add_custom.cpp", template_kernel, NULL);
	cr_expect_eq(b.res.ok, 0, "a kernel template built with no template arguments");
}

Test(cpusim_compat_build, kernel_template_args_reject_code, .timeout = 60)
{
	static const char opt[] = "kernel-template-args=half>(nullptr); int evil(";
	const char *const opts[] = { opt, NULL };
	struct built b;

	build_one(&b, "add_custom.cpp", template_kernel, opts);
	cr_expect_eq(b.res.ok, 0);
	cr_assert_not_null(b.res.message);
	cr_expect(strstr(b.res.message, "kernel-template-args") != NULL, "%s", b.res.message);
}

Test(cpusim_compat_build, asc_in_cann_cpu_debug_form_builds_and_runs, .timeout = 240)
{
	struct built b;

	build_one(&b, "add.asc", asc_file, NULL);
	run_and_check(&b);
}

Test(cpusim_compat_build, register_tiling_default_names_the_kernels_struct, .timeout = 240)
{
	struct built b;

	build_one(&b, "add_custom.cpp", registered_tiling_kernel, NULL);
	run_and_check(&b);
}

/* tests/samples/hostdev/shared_guard: the kernel's own tiling header has the
 * op_host tiling header's include guard; cpusim's forced header (which
 * includes the op_host one) must not hide it. Case 2 of AddCustom. */
Test(cpusim_compat_build, kernel_header_sharing_the_op_host_guard_is_seen, .timeout = 600)
{
	static char outdir[] = "/tmp/npukb-compat-XXXXXX";
	static const char *const names[] = { "shared_guard", NULL };
	static const char *const tasks[] = { "level1/Math/AddCustom", NULL };
	static const char *const cases[] = { "2", NULL };
	static struct npukb_results results;
	static struct npukb_plugin_set plugins;
	struct npukb_run_config cfg;
	char err[8192] = "";

	test_cpusim_config(&cfg, &plugins, "levels", outdir);
	cfg.task_ids = tasks;
	cfg.case_ids = cases;
	cfg.sample_dirs = test_sample_dirs("tests/samples/hostdev", names);
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
	test_assert_all_pass(test_find_sample(&results, "shared_guard"), 1);
}
