/* test_cpusim_shapes.c - kernel-only samples in the shapes people write
 * (tests/samples/shapes, each saying which public layout it imitates),
 * judged end to end on cpusim against tasks of tests/samples/shapes/tasks
 * (and AddCustom's own): a kernel-launch project (kernel .cpp, host
 * main.cpp, CMake's probe file) on the blocks its <launch> says, a
 * kernel taking a scalar by value, a single-source .asc file, and a
 * kernel that defines its tiling struct itself. */
#include <criterion/criterion.h>

#include "cpusim_run.h"
#include "results.h"

#include <string.h>

static struct npukb_results results;
static struct npukb_plugin_set plugins;

/* Judges the sample tests/samples/shapes/<name> on task `id` of the levels
 * under levels_rel, one seed, the cases named (NULL: all) with the backend
 * options given (NULL: none); returns its result. */
static const struct npukb_sample_result *judge_with(const char *levels_rel, const char *id, const char *name,
						   const char *const *cases, const char *const *opts)
{
	static char outdir[] = "/tmp/npukb-shapes-XXXXXX";
	const char *ids[] = { id, NULL };
	const char *names[] = { name, NULL };
	struct npukb_run_config cfg;
	char err[8192] = "";

	strcpy(outdir, "/tmp/npukb-shapes-XXXXXX");
	test_cpusim_config(&cfg, &plugins, levels_rel, outdir);
	cfg.task_ids = ids;
	cfg.case_ids = cases;
	cfg.options.backend_opts = opts;
	cfg.sample_dirs = test_sample_dirs("tests/samples/shapes", names);
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
	return test_find_sample(&results, name);
}

static const struct npukb_sample_result *judge(const char *levels_rel, const char *id, const char *name)
{
	return judge_with(levels_rel, id, name, NULL, NULL);
}

/* main.cpp (ACL host code) and CMake's compiler probe (a main() of its
 * own) would not compile or link with the kernel: only add_custom.cpp,
 * the one file that defines a __global__ function, is built. The kernel
 * splits a fixed length over 8 blocks: on fewer, most of z stays
 * unwritten, so a pass says <launch block-dim="8"/> was obeyed. */
Test(cpusim_shapes, launch_project_builds_its_kernel_only_on_its_blocks, .timeout = 300)
{
	test_assert_all_pass(judge("tests/samples/shapes/tasks", "level1/Shapes/AddLaunch", "launch_project"), 1);
}

/* totalLength is a uint32_t passed by value: the two cases differ in it,
 * and both are right only when the kernel receives numel(x). */
Test(cpusim_shapes, scalar_parameter_is_passed_by_value, .timeout = 300)
{
	test_assert_all_pass(judge("tests/samples/shapes/tasks", "level1/Shapes/AddLaunchScalar", "launch_scalar"),
			2);
}

/* add.asc: host main, ACL calls and a <<<>>> launch beside a kernel with
 * C++ linkage that takes its tiling struct by value. */
Test(cpusim_shapes, single_source_asc_file_runs_its_kernel_part, .timeout = 300)
{
	test_assert_all_pass(judge("tests/samples/shapes/tasks", "level1/Shapes/AddSingleSource", "single_source"),
			1);
}

/* AddCustomTilingData defined in the kernel source, as the manifest
 * names it: not defined a second time by cpusim's forced header. */
Test(cpusim_shapes, kernel_defining_its_own_tiling_struct, .timeout = 300)
{
	test_assert_all_pass(judge("levels", "level1/Math/AddCustom", "own_tiling"), 5);
}

/* A host+device sample's failure before the kernel runs, on the float32
 * case of level1/Shapes/AddCustom (the float16 case passes): category and
 * message of case 1. */
static void expect_op_host_failure(const char *name, const char *category, const char *what)
{
	const struct npukb_sample_result *s = judge("tests/samples/shapes/tasks", "level1/Shapes/AddCustom", name);
	const char *cat, *rule;

	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s", s->compile.message);
	cr_assert_eq(s->ncases, 2);
	cr_expect_eq(s->cases[0].correctness.outcome, NPUKB_PASS, "%s", s->cases[0].correctness.message);
	cr_assert_eq(s->cases[1].correctness.outcome, NPUKB_FAIL, "the float32 case passed");
	npukb_case_outcome(s, 1, &cat, &rule);
	cr_expect_str_eq(cat, category, "%s", s->cases[1].correctness.message);
	cr_expect_not_null(strstr(s->cases[1].correctness.message, what), "%s", s->cases[1].correctness.message);
}

/* The OpDef declares float16 only: CANN's aclnn call would reject a
 * float32 case before any tiling; its tiling, which traps on any dtype
 * but float16, must not run. */
Test(cpusim_shapes, case_dtype_the_opdef_does_not_declare, .timeout = 300)
{
	expect_op_host_failure("undeclared_dtype", "unsupported-dtype",
			       "the OpDef of AddCustom declares no DataType combination for the case's inputs "
			       "(x float32, y float32): CANN would reject the call");
}

/* Declared, so the tiling runs on float32 and traps (SIGILL on x86): a
 * tiling failure naming the signal, not a kernel crash. */
Test(cpusim_shapes, tiling_dying_of_a_trap_is_a_tiling_failure, .timeout = 300)
{
	expect_op_host_failure("tiling_traps", "tiling-failure", "the tiling function of AddCustom crashed (signal ");
}

/* Two operators in one project, one folder each under op_host/ and
 * op_kernel/, whose tiling headers both declare AddCustomTilingData:
 * only the operator that registers the task's OpType is built. */
Test(cpusim_shapes, project_of_several_operators_builds_the_one_under_test, .timeout = 300)
{
	static const char *const cases[] = { "0", NULL };

	test_assert_all_pass(judge_with("tests/samples/shapes/tasks", "level1/Shapes/AddCustom", "multi_op", cases,
					NULL),
			     1);
}

/* The task is named Add, the project's OpType AddCustom: without the
 * op-type option no operator of the project is the task's (a compile
 * failure saying so); with it, the AddCustom operator runs. */
Test(cpusim_shapes, optype_that_differs_from_the_task_name, .timeout = 300)
{
	static const char *const cases[] = { "0", NULL };
	static const char *const opts[] = { "op-type=AddCustom", NULL };
	const struct npukb_sample_result *s;

	s = judge_with("tests/samples/shapes/tasks", "level1/Shapes/Add", "multi_op", cases, NULL);
	cr_assert_eq(s->compile.outcome, NPUKB_FAIL);
	cr_expect_not_null(strstr(s->compile.message ? s->compile.message : "",
				  "none registers OP_ADD(Add); name the project's OpType with --backend-opt op-type=NAME"),
			   "%s", s->compile.message);
	test_assert_all_pass(judge_with("tests/samples/shapes/tasks", "level1/Shapes/Add", "multi_op", cases, opts), 1);
}
