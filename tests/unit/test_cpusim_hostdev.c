/* test_cpusim_hostdev.c - cpusim's host+device mode end to end: a CANN
 * operator project (op_host tiling function and OpDef, op_kernel kernel)
 * built and run on AddCustom's cases, its tiling deciding blocks, tiling
 * data and workspace; a tiling function that rejects some shapes, whose
 * cases fail with the reason while the others pass; one that crashes; an
 * operator with a tensor-list (DYNAMIC) input, one with a list output, one
 * with an OPTIONAL input some cases leave out; and one whose output dtype
 * (bool, complex64) differs from the task's; a tiling that reads an
 * input's data; an operator project whose CMakeLists.txt keeps op_host
 * files out of the build; one whose CANN targets each define a helper; a
 * tiling header with a constant the kernel defines too; a kernel file with
 * a host launch wrapper in CCE's <<<>>> syntax. */
#include <criterion/criterion.h>

#include "cpusim_run.h"
#include "results.h"

#include <stdio.h>
#include <string.h>

static struct npukb_results results;
static struct npukb_plugin_set plugins;

static const struct npukb_sample_result *sample(const char *id)
{
	for (size_t i = 0; i < results.n; i++)
		if (strcmp(results.items[i].sample_id, id) == 0)
			return &results.items[i];
	cr_assert_fail("no result for sample %s", id);
	return NULL;
}

Test(cpusim_hostdev, operator_project_runs_its_own_tiling, .timeout = 600)
{
	static char outdir[] = "/tmp/npukb-hostdev-XXXXXX";
	static const char *const names[] = { "add_custom", "tiling_fails", NULL };
	static const char *const ids[] = { "level1/Math/AddCustom", NULL };
	struct npukb_run_config cfg;
	const struct npukb_sample_result *good, *bad;
	char err[8192] = "";

	test_cpusim_config(&cfg, &plugins, "levels", outdir);
	cfg.task_ids = ids;
	cfg.sample_dirs = test_sample_dirs("tests/samples/hostdev", names);
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);

	good = sample("add_custom");
	cr_assert_eq(good->compile.outcome, NPUKB_PASS, "%s\n%s", good->compile.message,
		     good->compile.details ? good->compile.details : "");
	cr_assert_eq(good->ncases, 5);
	for (size_t i = 0; i < good->ncases; i++) {
		cr_expect_eq(good->cases[i].correctness.outcome, NPUKB_PASS, "case %s: %s",
			     good->cases[i].case_id, good->cases[i].correctness.message);
		cr_expect_eq(good->cases[i].performance.outcome, NPUKB_PASS, "case %s timed",
			     good->cases[i].case_id);
	}

	/* Shapes above 4M elements (cases 1 and 3) are refused by the tiling. */
	bad = sample("tiling_fails");
	cr_assert_eq(bad->compile.outcome, NPUKB_PASS, "%s", bad->compile.message);
	for (size_t i = 0; i < bad->ncases; i++) {
		const char *id = bad->cases[i].case_id;
		const struct npukb_verdict *v = &bad->cases[i].correctness;
		if (strcmp(id, "1") == 0 || strcmp(id, "3") == 0) {
			cr_expect_eq(v->outcome, NPUKB_FAIL, "case %s passed", id);
			cr_expect_not_null(strstr(v->message ? v->message : "",
						  "the tiling function of AddCustom returned 4294967295 (not GRAPH_SUCCESS)"),
					   "case %s: %s", id, v->message);
		} else {
			cr_expect_eq(v->outcome, NPUKB_PASS, "case %s: %s", id, v->message);
		}
	}
}

/* Runs the samples under tests/samples/hostdev on one task (some cases)
 * of the levels under `data`. */
static void run_task_in(const char *data, const char *task, const char *const *case_ids,
			const char *const *names)
{
	static char outdir[64];
	static const char *ids[2];
	struct npukb_run_config cfg;
	char err[8192] = "";

	snprintf(outdir, sizeof(outdir), "/tmp/npukb-hostdev-XXXXXX");
	test_cpusim_config(&cfg, &plugins, data, outdir);
	ids[0] = task;
	ids[1] = NULL;
	cfg.task_ids = ids;
	cfg.case_ids = case_ids;
	cfg.sample_dirs = test_sample_dirs("tests/samples/hostdev", names);
	cr_assert_eq(npukb_run_execute(&cfg, &results, err, sizeof(err)), 0, "run failed: %s", err);
}

static void run_task(const char *task, const char *const *case_ids, const char *const *names)
{
	run_task_in("levels", task, case_ids, names);
}

static void assert_all_pass(const struct npukb_sample_result *s, size_t ncases)
{
	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s\n%s", s->compile.message,
		     s->compile.details ? s->compile.details : "");
	cr_assert_eq(s->ncases, ncases);
	for (size_t i = 0; i < s->ncases; i++)
		cr_expect_eq(s->cases[i].correctness.outcome, NPUKB_PASS, "case %s: %s", s->cases[i].case_id,
			     s->cases[i].correctness.message);
}

Test(cpusim_hostdev, crashing_tiling_function_is_named, .timeout = 300)
{
	static const char *const names[] = { "tiling_crashes", NULL };
	static const char *const cases[] = { "0", "2", NULL };
	const struct npukb_sample_result *s;

	run_task("level1/Math/AddCustom", cases, names);
	s = sample("tiling_crashes");
	cr_assert_eq(s->compile.outcome, NPUKB_PASS, "%s", s->compile.message);
	cr_assert_eq(s->ncases, 2);
	for (size_t i = 0; i < s->ncases; i++) {
		const struct npukb_verdict *v = &s->cases[i].correctness;
		cr_expect_eq(v->outcome, NPUKB_FAIL, "case %s passed", s->cases[i].case_id);
		cr_expect_not_null(strstr(v->message ? v->message : "",
					  "the tiling function of AddCustom crashed (signal 11)"),
				   "case %s: %s", s->cases[i].case_id, v->message);
	}
}

/* The tiling finds the list's members by IR index (instance info,
 * GetDynamicInputShape/Desc); the kernel gets the ListTensorDesc. */
Test(cpusim_hostdev, tensor_list_input_reaches_tiling_and_kernel, .timeout = 600)
{
	static const char *const names[] = { "non_finite_check", NULL };
	/* Case 0 is 12M elements, too many for a scalar kernel. */
	static const char *const cases[] = { "1", "2", "3", "4", "5", "6", "7", NULL };

	run_task("level1/Condition/NonFiniteCheckOp", cases, names);
	assert_all_pass(sample("non_finite_check"), 7);
}

/* The operator writes bool where the task wants x's dtype: converted. */
Test(cpusim_hostdev, bool_output_is_converted_to_the_task_dtype, .timeout = 600)
{
	static const char *const names[] = { "is_finite_bool", NULL };
	static const char *const cases[] = { "0", "2", "3", NULL };

	run_task("level1/Condition/IsFinite", cases, names);
	assert_all_pass(sample("is_finite_bool"), 3);
}

/* The tiling reads an input's data (a ValueDepend input's, in CANN). */
Test(cpusim_hostdev, tiling_reads_input_data, .timeout = 600)
{
	static const char *const names[] = { "value_depend", NULL };
	static const char *const cases[] = { "4", NULL };

	run_task("level1/Math/AddCustom", cases, names);
	assert_all_pass(sample("value_depend"), 1);
}

/* Fill's shape arrives both as the dims input's data and as a ListInt
 * attribute from the task's list attribute. */
Test(cpusim_hostdev, list_attribute_and_value_depend_input, .timeout = 600)
{
	static const char *const names[] = { "fill_dims", NULL };
	static const char *const cases[] = { "1", "2", NULL };

	run_task("level1/TensorCreation/Fill", cases, names);
	assert_all_pass(sample("fill_dims"), 2);
}

/* The operator writes complex64 where the task wants float32: the real parts. */
Test(cpusim_hostdev, complex_output_converts_to_its_real_part, .timeout = 600)
{
	static const char *const names[] = { "abs_complex_real", NULL };
	static const char *const cases[] = { "16", NULL };

	run_task("level1/Math/AbsMath", cases, names);
	assert_all_pass(sample("abs_complex_real"), 1);
}

/* The project's CMakeLists.txt decides which op_host sources are built:
 * the opapi target's aclnn layer (it includes op-api headers nobody
 * emulates) and a file no target names are left out, as CANN leaves them
 * out of the tiling and OpDef libraries. The targets name their file in
 * NPUKernelBench's template form (op_host/custom_op.cpp): were the
 * placeholder not replaced by the kernel's name, no named file would
 * exist, everything would be built and the #error file would fail. */
Test(cpusim_hostdev, cmake_opapi_sources_are_not_compiled, .timeout = 600)
{
	static const char *const names[] = { "opapi_layer", NULL };
	static const char *const cases[] = { "0", "2", NULL };

	run_task("level1/Math/AddCustom", cases, names);
	assert_all_pass(sample("opapi_layer"), 2);
}

/* The tiling and OpDef (optiling target) and the InferShape (opsproto and
 * op_host_aclnn) both include a header defining a helper that is not
 * inline. CANN links each target into a library of its own, so the project
 * builds there; linking every op_host object into one program would fail
 * on a multiple definition of optiling::TileCount. */
Test(cpusim_hostdev, cmake_targets_link_separately, .timeout = 600)
{
	static const char *const names[] = { "split_targets", NULL };
	static const char *const cases[] = { "0", "2", NULL };

	run_task("level1/Math/AddCustom", cases, names);
	assert_all_pass(sample("split_targets"), 2);
}

/* The tiling header defines BUFFER_NUM in namespace optiling, and so does
 * the kernel at global scope: the kernel sees the tiling structs (by name
 * and through GET_TILING_DATA) but not the op_host's other names, as with
 * CANN, where the kernel gets generated structs only. */
Test(cpusim_hostdev, kernel_sees_tiling_structs_only, .timeout = 600)
{
	static const char *const names[] = { "tiling_constant", NULL };
	static const char *const cases[] = { "0", "2", NULL };

	run_task("level1/Math/AddCustom", cases, names);
	assert_all_pass(sample("tiling_constant"), 2);
}

/* The kernel file ends with a host launch wrapper, name<<<blockDim, l2ctrl,
 * stream>>>(args), which g++ rejects: the build compiles a rewritten copy
 * that names the original file and keeps its lines (the sample checks both
 * with static_assert). */
Test(cpusim_hostdev, kernel_launch_wrapper_compiles, .timeout = 600)
{
	static const char *const names[] = { "launch_wrapper", NULL };
	static const char *const cases[] = { "0", NULL };

	run_task("level1/Math/AddCustom", cases, names);
	assert_all_pass(sample("launch_wrapper"), 1);
}

/* A string attribute reaches the tiling, the empty string too (the case
 * file writes it without a value field) and one with blanks (the rest of
 * its line): the sample's tiling refuses the OpDef default and any other
 * value with a blank. */
Test(cpusim_hostdev, string_attributes_reach_the_tiling, .timeout = 600)
{
	static const char *const names[] = { "str_attr", NULL };

	run_task_in("tests/data/levels-variants", "level1/Test/StrAttrAdd", NULL, names);
	assert_all_pass(sample("str_attr"), 3);
}

/* A DYNAMIC output: the tiling finds the output list's members by IR index
 * (and refuses the case unless there is one per input member, of its
 * size); the kernel writes through the ListTensorDesc. */
Test(cpusim_hostdev, tensor_list_output_reaches_tiling_and_kernel, .timeout = 600)
{
	static const char *const names[] = { "list_neg", NULL };

	run_task_in("tests/data/levels-variants", "level1/Test/ListNeg", NULL, names);
	assert_all_pass(sample("list_neg"), 2);
}

/* An OPTIONAL input a case leaves out: the tiling gets null for it by IR
 * index (and the output stays instance 0); the kernel is told by the
 * tiling whether to read it. */
Test(cpusim_hostdev, absent_optional_input_reaches_tiling_as_null, .timeout = 600)
{
	static const char *const names[] = { "optional_add", NULL };

	run_task_in("tests/data/levels-variants", "level1/Test/OptionalAdd", NULL, names);
	assert_all_pass(sample("optional_add"), 4);
}

/* A KERNEL_TYPE_MIX_AIC_1_2 kernel whose tiling (MultiCoreMatmulTiling)
 * sets the block dim to half its vector blocks: the blocks past the block
 * dim multiply the later rows with Matmul, and the kernel writes nothing
 * unless GetBlockNum() * GetTaskRation() is the tiling's vector block count. */
Test(cpusim_hostdev, mix_kernel_runs_two_vector_blocks_per_core_with_matmul, .timeout = 600)
{
	static const char *const names[] = { "mix_matmul", NULL };

	run_task_in("tests/data/levels-variants", "level1/Test/MixMatmul", NULL, names);
	assert_all_pass(sample("mix_matmul"), 4);
}

/* An output whose shape the kernel computes (OutputShapeDependOnCompute):
 * the tiling sees only the OpDef's output, the kernel gets the shape
 * buffer after it and reports y's real shape there, which is compared. */
Test(cpusim_hostdev, computed_output_shape_goes_to_its_buffer, .timeout = 600)
{
	static const char *const names[] = { "masked_select", NULL };

	run_task_in("tests/data/levels-variants", "level1/Test/MaskedSelect", NULL, names);
	assert_all_pass(sample("masked_select"), 2);
}
