/* test_classify.c - the classify stage against the shipped rules file
 * (plugins/classify/rules.conf) and against small rules files of its own.
 *
 * The plugin source is compiled into this test (included below, so the
 * test needs no other source than this file) and driven through its
 * descriptor, as the core drives it. The shipped rules
 * file is found under $srcdir (exported by automake's test harness), or
 * under the directory given at build time as NPUKB_TEST_SRCDIR, or ".". */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <npukb/plugin.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../plugins/classify/classify.c"

#ifndef NPUKB_TEST_SRCDIR
#define NPUKB_TEST_SRCDIR "."
#endif

static void shipped_rules_path(char *buf, size_t len)
{
	const char *srcdir = getenv("srcdir");
	snprintf(buf, len, "%s/plugins/classify/rules.conf",
		 srcdir && *srcdir ? srcdir : NPUKB_TEST_SRCDIR);
}

static void load_shipped_rules(void)
{
	char path[4096], err[512];
	shipped_rules_path(path, sizeof(path));
	cr_assert_eq(access(path, R_OK), 0, "rules file %s not readable", path);
	setenv("NPUKB_CLASSIFY_RULES", path, 1);
	cr_assert_eq(npukb_classify_plugin.init(err, sizeof(err)), 0, "init: %s", err);
}

/* Write text to a fresh temporary rules file; returns its path (static). */
static const char *temp_rules(const char *text)
{
	static char path[64];
	int fd;
	FILE *f;
	snprintf(path, sizeof(path), "/tmp/npukb-rules-XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	cr_assert(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Classify one failure; out must be cleared by the caller. */
static void classify(enum npukb_stage_id stage, const char *category, const char *message,
		     const char *details, struct npukb_verdict *out)
{
	struct npukb_verdict failure;
	struct npukb_stage_ctx ctx;
	npukb_verdict_init(&failure, stage);
	npukb_verdict_fail(&failure, category, "%s", message);
	npukb_verdict_set_details(&failure, details);
	memset(&ctx, 0, sizeof(ctx));
	ctx.failure = &failure;
	cr_assert_eq(npukb_classify_plugin.stage->judge(&ctx, out), 0);
	cr_assert_eq(out->outcome, NPUKB_FAIL);
	npukb_verdict_clear(&failure);
}

Test(classify, descriptor_is_a_stage)
{
	cr_expect_eq(npukb_classify_plugin.abi, NPUKB_PLUGIN_ABI);
	cr_expect_eq(npukb_classify_plugin.kind, NPUKB_PLUGIN_STAGE);
	cr_expect_str_eq(npukb_classify_plugin.name, "classify");
	cr_assert_not_null(npukb_classify_plugin.stage);
	cr_expect_eq(npukb_classify_plugin.stage->stage, NPUKB_STAGE_CLASSIFY);
	cr_expect_not_null(npukb_classify_plugin.init);
	cr_expect_not_null(npukb_classify_plugin.fini);
}

/* ---- realistic diagnostics -> categories ------------------------------------ */

struct diag_row {
	char line[320];
	char category[24];
};

ParameterizedTestParameters(classify, shipped_rules)
{
	static struct diag_row rows[] = {
		/* api-signature */
		{ "add.cpp:41:9: error: no matching function for call to 'Add(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, uint32_t&)'", "api-signature" },
		{ "add.cpp:41:9: error: no matching function for call to 'DataCopy'", "api-signature" },
		{ "add.cpp:12:14: error: no matching member function for call to 'SetValue'", "api-signature" },
		{ "add.cpp:20:5: error: too many arguments to function 'void Compute(int32_t)'", "api-signature" },
		{ "add.cpp:20:5: error: too many arguments to function call, expected 2, have 3", "api-signature" },
		{ "add.cpp:20:5: error: too few arguments to function 'void Init(GM_ADDR, GM_ADDR, uint32_t)'", "api-signature" },
		{ "add.cpp:20:5: error: too few arguments to function call, single argument 'x' was not specified", "api-signature" },
		{ "add.cpp:20:5: note:   candidate expects 4 arguments, 3 provided", "api-signature" },
		{ "add.cpp:20:5: note: candidate function not viable: requires 3 arguments, but 4 were provided", "api-signature" },
		{ "add.cpp:33:5: error: call of overloaded 'Muls(AscendC::LocalTensor<float>&, AscendC::LocalTensor<float>&, double, int)' is ambiguous", "api-signature" },
		{ "add.cpp:33:5: error: call to 'Max' is ambiguous", "api-signature" },
		{ "add.cpp:7:30: error: macro \"ALIGN\" requires 2 arguments, but only 1 given", "api-signature" },
		/* type */
		{ "add.cpp:50:23: error: invalid conversion from 'int' to 'half*' [-fpermissive]", "type" },
		{ "add.cpp:50:23: error: cannot convert 'AscendC::LocalTensor<float>' to 'AscendC::LocalTensor<half>'", "type" },
		{ "add.cpp:50:23: error: narrowing conversion of 'n' from 'int32_t' {aka 'int'} to 'uint16_t' {aka 'short unsigned int'} [-Wnarrowing]", "type" },
		{ "add.cpp:50:23: error: non-constant-expression cannot be narrowed from type 'int' to 'uint16_t' (aka 'unsigned short') in initializer list [-Wc++11-narrowing]", "type" },
		{ "add.cpp:50:23: error: no viable conversion from 'LocalTensor<float>' to 'LocalTensor<half>'", "type" },
		{ "add.c:9:7: error: incompatible types when assigning to type 'half' from type 'struct tile'", "type" },
		{ "add.cpp:9:7: error: assigning to 'half *' from incompatible type 'float *'", "type" },
		{ "add.cpp:9:7: error: invalid operands of types 'half*' and 'float' to binary 'operator*'", "type" },
		{ "add.cpp:9:7: error: cannot initialize a variable of type 'half *' with an rvalue of type 'float *'", "type" },
		{ "add.cpp:9:7: error: cannot bind non-const lvalue reference of type 'uint32_t&' to an rvalue of type 'uint32_t'", "type" },
		{ "add.cpp:9:7: error: conversion from 'float' to non-scalar type 'AscendC::LocalTensor<float>' requested", "type" },
		{ "add.cpp:9:7: error: void value not ignored as it ought to be", "type" },
		{ "kernel_operator_vec_binary_impl.h:42:5: error: static assertion failed: Failed to check dtype in Add, current api support dtype combination is src and dst both: half / float", "type" },
		{ "kernel_operator_vec_binary_impl.h:42:5: error: static assertion failed due to requirement 'SupportType<signed char, half, float>()': Failed to check dtype in Add", "type" },
		/* scope */
		{ "add.cpp:18:5: error: 'tileLength' was not declared in this scope", "scope" },
		{ "add.cpp:18:5: error: 'tileLen' was not declared in this scope; did you mean 'tileLength'?", "scope" },
		{ "add.cpp:18:5: error: use of undeclared identifier 'BUFFER_NUM'", "scope" },
		{ "add.cpp:18:5: error: 'VecAdd' is not a member of 'AscendC'", "scope" },
		{ "add.cpp:18:5: error: 'AscendC' has not been declared", "scope" },
		{ "add.cpp:18:5: error: unknown type name 'half2'", "scope" },
		{ "add.cpp:18:5: error: 'half2' does not name a type; did you mean 'half'?", "scope" },
		{ "add.cpp:18:5: error: no member named 'VecAdd' in namespace 'AscendC'", "scope" },
		{ "add.cpp:18:5: error: 'class KernelAdd' has no member named 'tileNum'", "scope" },
		{ "add.cpp:18:5: error: invalid use of non-static data member 'KernelAdd::blockLength'", "scope" },
		/* a name defined twice is seen, not missing */
		{ "add.cpp:8:20: error: redefinition of 'constexpr const int32_t BUFFER_NUM'", "other-compile" },
		{ "add.cpp:8:20: error: conflicting declaration 'constexpr const uint32_t BUFFER_NUM'", "other-compile" },
		/* one colon where ';' or '::' goes */
		{ "add.cpp:27:42: error: found ':' in nested-name-specifier, expected '::'", "syntax" },
		/* memory-object */
		{ "add.cpp:60:12: error: no matching function for call to 'AscendC::TQue<AscendC::TPosition::VECIN, 2>::AllocTensor()'", "memory-object" },
		{ "add.cpp:60:12: error: no matching member function for call to 'AllocTensor'", "memory-object" },
		{ "add.cpp:60:12: error: no matching function for call to 'AscendC::TPipe::InitBuffer(AscendC::TQue<AscendC::TPosition::VECIN, 2>&, int)'", "memory-object" },
		{ "add.cpp:60:12: error: 'TQue' was not declared in this scope", "memory-object" },
		{ "add.cpp:60:12: error: no member named 'DeQue' in 'AscendC::TBuf<AscendC::TPosition::VECCALC>'", "memory-object" },
		{ "add.cpp:60:12: error: 'class AscendC::LocalTensor<half>' has no member named 'Data'", "memory-object" },
		{ "add.cpp:60:12: error: no member named 'Data' in 'AscendC::LocalTensor<half>'", "memory-object" },
		{ "add.cpp:60:12: error: no matching constructor for initialization of 'AscendC::GlobalTensor<float>'", "memory-object" },
		{ "add.cpp:60:12: error: no match for 'operator+' (operand types are 'AscendC::LocalTensor<half>' and 'AscendC::LocalTensor<half>')", "memory-object" },
		{ "add.cpp:60:12: error: invalid operands to binary expression ('LocalTensor<half>' and 'LocalTensor<half>')", "memory-object" },
		{ "add.cpp:60:12: error: request for member 'GetSize' in 'x', which is of pointer type 'AscendC::LocalTensor<half>*'", "memory-object" },
		/* template */
		{ "add.cpp:8:5: note:   template argument deduction/substitution failed:", "template" },
		{ "add.cpp:8:5: error: wrong number of template arguments (1, should be 2)", "template" },
		{ "add.cpp:8:5: error: too few template arguments for class template 'Foo'", "template" },
		/* gcc and clang agree on a queue missing its depth argument */
		{ "add.cpp:8:5: error: too few template arguments for class template 'TQue'", "template" },
		{ "add.cpp:8:5: error: template argument for template type parameter must be a type", "template" },
		{ "add.cpp:8:5: error: template argument 1 is invalid", "template" },
		{ "add.cpp:8:5: error: type/value mismatch at argument 1 in template parameter list for 'template<class T> struct Foo'", "template" },
		{ "add.cpp:8:5: error: no template named 'Vec' in namespace 'AscendC'", "template" },
		{ "add.cpp:8:5: error: template-id 'Copy<half>' for 'void Copy()' does not match any template declaration", "template" },
		{ "add.cpp:8:5: error: 'Tiling' is not a template", "template" },
		{ "add.cpp:8:5: error: missing template arguments before '(' token", "template" },
		/* syntax */
		{ "add.cpp:70:1: error: expected ';' before '}' token", "syntax" },
		{ "add.cpp:70:1: error: expected ';' after expression", "syntax" },
		{ "add.cpp:70:1: error: expected unqualified-id before 'return'", "syntax" },
		{ "add.cpp:70:1: error: expected unqualified-id", "syntax" },
		{ "add.cpp:70:1: error: expected primary-expression before ')' token", "syntax" },
		{ "add.cpp:70:1: error: expected expression", "syntax" },
		{ "add.cpp:70:1: error: expected '}' at end of input", "syntax" },
		{ "add.cpp:70:1: error: stray '\\342' in program", "syntax" },
		{ "add.cpp:70:1: error: stray '`' in program", "syntax" },
		{ "add.cpp:70:1: error: missing terminating \" character", "syntax" },
		{ "add.cpp:70:1: error: missing terminating '\"' character", "syntax" },
		{ "add.cpp:70:1: error: extraneous closing brace ('}')", "syntax" },
		{ "add.cpp:70:1: error: #endif without #if", "syntax" },
		/* link */
		{ "add.cpp:(.text+0x2a): undefined reference to `add_custom_do(unsigned int, void*, unsigned char*)'", "link" },
		{ "/usr/bin/ld: add.o: in function `main': add.cpp:(.text+0x1b): undefined reference to `Tiling'", "link" },
		{ "collect2: error: ld returned 1 exit status", "link" },
		{ "/usr/bin/ld: b.o: multiple definition of `tiling_data'; a.o:(.bss+0x0): first defined here", "link" },
		{ "ld.lld: error: undefined symbol: add_custom", "link" },
		{ "clang: error: linker command failed with exit code 1 (use -v to see invocation)", "link" },
		/* other-compile, named */
		{ "add.cpp:1:10: fatal error: kernel_operator.h: No such file or directory", "other-compile" },
		{ "add.cpp:1:10: fatal error: 'kernel_operator.h' file not found", "other-compile" },
		/* ... and the header not included: the names only it declares are unknown */
		{ "add.cpp:1:17: error: 'AscendC' is not a namespace-name", "other-compile" },
		{ "add.cpp:7:5: error: '__aicore__' does not name a type", "other-compile" },
		{ "add.cpp:1:8: error: 'GM_ADDR' was not declared in this scope", "other-compile" },
		/* a misspelt namespace is another name: scope */
		{ "add.cpp:1:17: error: 'AscendCC' is not a namespace-name", "scope" },
		/* a tensor type given where the element type goes: template */
		{ "add.cpp:47:69: error: conversion from 'LocalTensor<AscendC::LocalTensor<half>>' to non-scalar type 'LocalTensor<half>' requested", "template" },
		{ "add.cpp:49:76: error: conversion from 'LocalTensor<half>' to non-scalar type 'LocalTensor<AscendC::LocalTensor<half>>' requested", "template" },
	};
	return cr_make_param_array(struct diag_row, rows, sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(struct diag_row *row, classify, shipped_rules)
{
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile", "compile failed", row->line, &v);
	cr_expect_str_eq(v.category, row->category, "%s\n  -> %s (rule %s)", row->line,
			 v.category, v.rule ? v.rule : "-");
	cr_expect_not_null(v.rule);
	cr_expect_str_eq(v.message, "compile failed");
	npukb_verdict_clear(&v);
	npukb_classify_plugin.fini();
}

/* ---- whole logs: the first error line decides ----------------------------------- */

Test(classify, first_error_decides_over_later_notes)
{
	static const char log[] =
		"add_custom.cpp: In member function 'void KernelAdd::Compute(int32_t)':\n"
		"add_custom.cpp:58:12: error: no matching function for call to 'Add(AscendC::LocalTensor<half>&, AscendC::LocalTensor<float>&, AscendC::LocalTensor<half>&, uint32_t&)'\n"
		"   58 |         AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);\n"
		"kernel_operator_vec_binary_intf.h:40:13: note: candidate: 'template<class T> void AscendC::Add(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&)'\n"
		"kernel_operator_vec_binary_intf.h:40:13: note:   template argument deduction/substitution failed:\n"
		"add_custom.cpp:58:12: note:   deduced conflicting types for parameter 'T' ('half' and 'float')\n"
		"add_custom.cpp:70:5: error: 'tileNum' was not declared in this scope\n";
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile", "error: no matching function", log, &v);
	/* the first error decides, and its notes say why: two element types */
	cr_expect_str_eq(v.category, "type");
	cr_expect_str_eq(v.rule, "note-conflicting-types");
	cr_expect(v.details && strstr(v.details, "no matching function for call to 'Add"),
		  "details: %s", v.details);
	cr_expect(v.details && strstr(v.details, "deduced conflicting types"), "details: %s",
		  v.details);
	npukb_verdict_clear(&v);
}

/* The same wrong argument to a queue method and to a vector op is one
 * mistake: the notes under the error decide, not the function's name. */
/* A compile log per row, and the category and rule it must get. */
struct compile_row {
	const char *log, *category, *rule;
};

static void expect_compile_rows(const struct compile_row *rows, size_t n)
{
	struct npukb_verdict v;
	load_shipped_rules();
	for (size_t i = 0; i < n; i++) {
		classify(NPUKB_STAGE_COMPILE, "other-compile", "error", rows[i].log, &v);
		cr_expect_str_eq(v.category, rows[i].category, "row %zu", i);
		cr_expect_str_eq(v.rule, rows[i].rule, "row %zu", i);
		npukb_verdict_clear(&v);
	}
}

Test(classify, notes_decide_whichever_function_was_called)
{
	static const char queue[] =
		"add_custom.cpp:38:23: error: no matching function for call to 'AscendC::TQue<AscendC::TPosition::VECIN, 2>::EnQue(AscendC::LocalTensor<half>&, int32_t&)'\n"
		"kernel_operator.h:644:14: note: candidate: 'template<class T> bool AscendC::TQueBind<src, dst, depth>::EnQue(const AscendC::LocalTensor<U>&)'\n"
		"kernel_operator.h:644:14: note:   candidate expects 1 argument, 2 provided\n";
	static const char vector[] =
		"add_custom.cpp:46:12: error: no matching function for call to 'Add(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, uint32_t&, int)'\n"
		"vec.h:406:14: note: candidate: 'template<class T> void AscendC::Add(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&)'\n"
		"vec.h:406:14: note:   candidate expects 4 arguments, 5 provided\n";
	static const char gm_to_vector[] =
		"add_custom.cpp:46:12: error: no matching function for call to 'Add(AscendC::GlobalTensor<half>, AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, uint32_t&)'\n"
		"vec.h:406:14: note:   template argument deduction/substitution failed:\n"
		"add_custom.cpp:46:12: note:   'AscendC::GlobalTensor<half>' is not derived from 'const AscendC::LocalTensor<T>'\n"
		"vec.h:406:14: note:   candidate expects 6 arguments, 4 provided\n";
	static const struct compile_row rows[] = {
		/* no candidate takes the call's count (call_facts.c) */
		{ queue, "api-signature", "note-call-arity" },
		{ vector, "api-signature", "note-call-arity" },
		/* a tensor of the other kind outweighs the other overloads' arity */
		{ gm_to_vector, "memory-object", "note-tensor-kind" },
	};
	expect_compile_rows(rows, sizeof(rows) / sizeof(rows[0]));
}

/* The call's argument types against the candidates' parameters: two
 * arguments in each other's place, or a count no candidate takes, are the
 * call's shape, whichever note g++ printed first for a candidate; a scalar
 * of another type or a tensor of the other kind stays what it is. */
Test(classify, call_shape_from_argument_and_parameter_types)
{
	static const char count_before_scalar[] =
		"k.cpp:49:13: error: no matching function for call to 'Muls(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, uint32_t&, half)'\n"
		"vec.h:500:13: note: candidate: 'template<class T> void AscendC::Muls(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&)'\n"
		"vec.h:500:13: note:   template argument deduction/substitution failed:\n"
		"k.cpp:49:13: note:   deduced conflicting types for parameter 'T' ('half' and 'unsigned int')\n";
	static const char float_scalar[] =
		"k.cpp:49:13: error: no matching function for call to 'Muls(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, float, uint32_t&)'\n"
		"vec.h:500:13: note: candidate: 'template<class T> void AscendC::Muls(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&)'\n"
		"vec.h:500:13: note:   template argument deduction/substitution failed:\n"
		"k.cpp:49:13: note:   deduced conflicting types for parameter 'T' ('half' and 'float')\n";
	static const char mode_after_count[] =
		"k.cpp:46:17: error: no matching function for call to 'Cast(AscendC::LocalTensor<half>&, AscendC::LocalTensor<float>&, uint32_t&, AscendC::RoundMode)'\n"
		"vec.h:700:13: note: candidate: 'template<class T, class U> void AscendC::Cast(const LocalTensor<T>&, const LocalTensor<U>&, const AscendC::RoundMode&, const uint32_t&)'\n"
		"k.cpp:46:17: note:   cannot convert 'n' (type 'uint32_t' {aka 'unsigned int'}) to type 'const AscendC::RoundMode&'\n";
	static const char count_missing[] =
		"k.cpp:39:17: error: no matching function for call to 'DataCopy(AscendC::LocalTensor<half>&, AscendC::GlobalTensor<half>)'\n"
		"ko.h:900:13: note: candidate: 'template<class T> void AscendC::DataCopy(const LocalTensor<T>&, const GlobalTensor<T>&, uint32_t)'\n"
		"ko.h:900:13: note:   template argument deduction/substitution failed:\n"
		"k.cpp:39:17: note:   candidate expects 3 arguments, 2 provided\n"
		"ko.h:911:13: note: candidate: 'template<class T> void AscendC::DataCopy(const GlobalTensor<T>&, const LocalTensor<T>&, uint32_t)'\n"
		"ko.h:911:13: note:   template argument deduction/substitution failed:\n"
		"k.cpp:39:17: note:   'AscendC::LocalTensor<half>' is not derived from 'const AscendC::GlobalTensor<T>'\n";
	/* a candidate whose leading parameters fit may have defaults after
	 * them: its count is not known to be wrong */
	static const char maybe_defaults[] =
		"k.cpp:39:17: error: no matching function for call to 'Fill(AscendC::GlobalTensor<half>&)'\n"
		"ko.h:900:13: note: candidate: 'template<class T> void AscendC::Fill(const GlobalTensor<T>&, uint32_t)'\n"
		"k.cpp:39:17: note:   'AscendC::GlobalTensor<half>' is not derived from 'const AscendC::LocalTensor<T>'\n";
	static const char template_args_reversed[] =
		"k.cpp:41:30: error: no matching function for call to 'Cast<half, float>(AscendC::LocalTensor<float>&, AscendC::LocalTensor<half>&, AscendC::RoundMode, uint32_t&)'\n"
		"vec.h:700:13: note: candidate: 'template<class T, class U> void AscendC::Cast(const LocalTensor<T>&, const LocalTensor<U>&, const AscendC::RoundMode&, const uint32_t&)'\n"
		"k.cpp:41:30: note:   cannot convert 'b' (type 'AscendC::LocalTensor<float>') to type 'const AscendC::LocalTensor<half>&'\n";
	/* g++ prints a candidate already specialised by the explicit arguments */
	static const char template_args_specialised[] =
		"k.cpp:41:30: error: no matching function for call to 'Cast<half, float>(AscendC::LocalTensor<float>&, AscendC::LocalTensor<half>&, AscendC::RoundMode, uint32_t&)'\n"
		"cast.h:147:13: note: candidate: 'void AscendC::Cast(const LocalTensor<T>&, const LocalTensor<S0>&, const RoundMode&, uint32_t) [with D = half; S = float]'\n"
		"cast.h:147:40: note:   no known conversion for argument 1 from 'AscendC::LocalTensor<float>' to 'const AscendC::LocalTensor<half>&'\n";
	/* without template arguments written out, a tensor of another element
	 * type is a type mistake */
	static const char tensor_of_other_type[] =
		"k.cpp:46:12: error: no matching function for call to 'Add(AscendC::LocalTensor<half>&, AscendC::LocalTensor<float>&, AscendC::LocalTensor<half>&, uint32_t&)'\n"
		"vec.h:406:14: note: candidate: 'template<class T> void AscendC::Add(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&)'\n"
		"vec.h:406:14: note:   template argument deduction/substitution failed:\n"
		"k.cpp:46:12: note:   deduced conflicting types for parameter 'T' ('half' and 'float')\n";
	/* the explanation of a failed deduction is an error line of g++'s own */
	static const char enum_template_arg[] =
		"k.cpp:45:40: error: no matching function for call to 'PipeBarrier<AscendC::HardEvent::V_V>()'\n"
		"ko.h:186:13: note: candidate: 'template<pipe_t pipe> void AscendC::PipeBarrier()'\n"
		"ko.h:186:13: note:   template argument deduction/substitution failed:\n"
		"k.cpp:45:40: error: could not convert 'AscendC::HardEvent::V_V' from 'AscendC::HardEvent' to 'pipe_t'\n";
	static const char pointer_with_aka[] =
		"k.cpp:18:29: error: no matching function for call to 'AscendC::GlobalTensor<half>::SetGlobalBuffer(uint8_t*, uint32_t&)'\n"
		"ko.h:343:14: note: candidate: 'void AscendC::GlobalTensor<T>::SetGlobalBuffer(T*, uint64_t) [with T = half; uint64_t = long unsigned int]'\n"
		"ko.h:343:33: note:   no known conversion for argument 1 from 'uint8_t*' {aka 'unsigned char*'} to 'half*'\n"
		"ko.h:348:14: note: candidate: 'void AscendC::GlobalTensor<T>::SetGlobalBuffer(T*) [with T = half]'\n"
		"ko.h:348:14: note:   candidate expects 1 argument, 2 provided\n";
	static const char gm_to_vector[] =
		"k.cpp:46:12: error: no matching function for call to 'Add(AscendC::GlobalTensor<half>&, AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, uint32_t&)'\n"
		"vec.h:406:14: note: candidate: 'template<class T> void AscendC::Add(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&)'\n"
		"vec.h:406:14: note:   template argument deduction/substitution failed:\n"
		"k.cpp:46:12: note:   'AscendC::GlobalTensor<half>' is not derived from 'const AscendC::LocalTensor<T>'\n";
	static const struct compile_row rows[] = {
		{ count_before_scalar, "api-signature", "note-call-swapped" },
		{ float_scalar, "type", "note-conflicting-types" },
		{ mode_after_count, "api-signature", "note-call-swapped" },
		{ count_missing, "api-signature", "note-call-arity" },
		{ maybe_defaults, "memory-object", "note-tensor-kind" },
		{ template_args_reversed, "template", "note-call-template-args" },
		{ template_args_specialised, "template", "note-call-template-args" },
		{ tensor_of_other_type, "type", "note-conflicting-types" },
		{ enum_template_arg, "template", "note-template-arg-convert" },
		{ pointer_with_aka, "type", "note-pointer-type" },
		{ gm_to_vector, "memory-object", "note-tensor-kind" },
	};
	expect_compile_rows(rows, sizeof(rows) / sizeof(rows[0]));
}

/* The call's shape from what a careful reader compares: an argument left
 * out, two arguments of a templated struct type exchanged, the scalar form
 * of an API given a tensor, and two conversion errors of one function
 * whose arguments each fit the other's parameter. */
Test(classify, call_facts_missing_wrapped_and_crossed_arguments)
{
	static const char queue_left_out[] =
		"k.cpp:20:24: error: no matching function for call to 'AscendC::TPipe::InitBuffer(const int32_t&, long unsigned int)'\n"
		"ko.h:775:14: note: candidate: 'template<AscendC::TPosition s, AscendC::TPosition d, int depth> bool AscendC::TPipe::InitBuffer(AscendC::TQueBind<s, d, depth>&, uint8_t, uint32_t)'\n"
		"ko.h:775:14: note:   template argument deduction/substitution failed:\n"
		"k.cpp:20:24: note:   mismatched types 'AscendC::TQueBind<s, d, depth>' and 'const int32_t' {aka 'const int'}\n"
		"ko.h:790:14: note: candidate: 'template<AscendC::TPosition p> bool AscendC::TPipe::InitBuffer(AscendC::TBuf<p>&, uint32_t)'\n"
		"ko.h:790:14: note:   template argument deduction/substitution failed:\n"
		"k.cpp:20:24: note:   mismatched types 'AscendC::TBuf<p>' and 'const int32_t' {aka 'const int'}\n";
	static const char params_before_source[] =
		"k.cpp:41:20: error: no matching function for call to 'DataCopyPad(AscendC::LocalTensor<half>&, AscendC::DataCopyExtParams&, AscendC::GlobalTensor<half>, AscendC::DataCopyPadExtParams<half>&)'\n"
		"cp.h:107:13: note: candidate: 'template<class T> void AscendC::DataCopyPad(const LocalTensor<T>&, const GlobalTensor<T>&, const DataCopyExtParams&, const DataCopyPadExtParams<T>&)'\n"
		"cp.h:107:13: note:   template argument deduction/substitution failed:\n"
		"k.cpp:41:20: note:   'AscendC::DataCopyExtParams' is not derived from 'const AscendC::GlobalTensor<T>'\n";
	static const char tensor_for_scalar[] =
		"k.cpp:50:13: error: no matching function for call to 'Adds(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, uint32_t&)'\n"
		"vec.h:521:14: note: candidate: 'template<class T> void AscendC::Adds(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&)'\n"
		"vec.h:521:14: note:   template argument deduction/substitution failed:\n"
		"k.cpp:50:13: note:   deduced conflicting types for parameter 'const T' ('half' and 'AscendC::LocalTensor<half>')\n";
	static const char crossed_conversions[] =
		"k.cpp:18:35: error: invalid conversion from 'uint32_t' {aka 'unsigned int'} to 'half*' [-fpermissive]\n"
		"ko.h:343:33: note:   initializing argument 1 of 'void AscendC::GlobalTensor<T>::SetGlobalBuffer(T*, uint64_t) [with T = half; uint64_t = long unsigned int]'\n"
		"k.cpp:18:65: error: invalid conversion from 'half*' to 'uint64_t' {aka 'long unsigned int'} [-fpermissive]\n"
		"ko.h:343:50: note:   initializing argument 2 of 'void AscendC::GlobalTensor<T>::SetGlobalBuffer(T*, uint64_t) [with T = half; uint64_t = long unsigned int]'\n";
	/* one conversion error alone is a value of the wrong type */
	static const char one_conversion[] =
		"k.cpp:18:35: error: invalid conversion from 'uint32_t' {aka 'unsigned int'} to 'half*' [-fpermissive]\n"
		"ko.h:343:33: note:   initializing argument 1 of 'void AscendC::GlobalTensor<T>::SetGlobalBuffer(T*, uint64_t) [with T = half; uint64_t = long unsigned int]'\n"
		"k.cpp:30:5: error: 'x' was not declared in this scope\n";
	/* no argument missing: a candidate of the call's count fits it, and
	 * the template argument is what g++ could not deduce */
	static const char get_without_type[] =
		"k.cpp:51:43: error: no matching function for call to 'AscendC::TBuf<AscendC::TPosition::VECCALC>::Get()'\n"
		"ko.h:721:24: note: candidate: 'template<class T> AscendC::LocalTensor<U> AscendC::TBuf<pos>::Get() const [with AscendC::TPosition pos = AscendC::TPosition::VECCALC]'\n"
		"ko.h:721:24: note:   template argument deduction/substitution failed:\n"
		"k.cpp:51:43: note:   couldn't deduce template parameter 'T'\n"
		"ko.h:729:24: note: candidate: 'template<class T> AscendC::LocalTensor<U> AscendC::TBuf<pos>::Get(uint32_t) const [with AscendC::TPosition pos = AscendC::TPosition::VECCALC]'\n"
		"ko.h:729:24: note:   template argument deduction/substitution failed:\n"
		"k.cpp:51:43: note:   candidate expects 1 arguments, 0 provided\n";
	static const struct compile_row rows[] = {
		{ queue_left_out, "api-signature", "note-call-missing" },
		{ get_without_type, "template", "note-cannot-deduce" },
		{ params_before_source, "api-signature", "note-call-swapped" },
		{ tensor_for_scalar, "api-signature", "note-tensor-for-scalar" },
		{ crossed_conversions, "api-signature", "note-call-swapped" },
		{ one_conversion, "type", "type-invalid-conversion" },
	};
	expect_compile_rows(rows, sizeof(rows) / sizeof(rows[0]));
}

/* An argument passed by its address where the tensor goes: g++ says only
 * "mismatched types" per candidate; taking the '*' off makes the call fit. */
Test(classify, call_facts_see_an_address_passed_for_a_value)
{
	static const char address_of_dst[] =
		"k.cpp:50:12: error: no matching function for call to 'Add(AscendC::LocalTensor<half>*, AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, uint32_t&)'\n"
		"   50 |         Add(&zLocal, xLocal, yLocal, tileLength);\n"
		"vec.h:406:14: note: candidate: 'template<class T> void AscendC::Add(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&)'\n"
		"vec.h:406:14: note:   template argument deduction/substitution failed:\n"
		"k.cpp:50:12: note:   mismatched types 'const AscendC::LocalTensor<T>' and 'AscendC::LocalTensor<half>*'\n"
		"vec.h:406:14: note: candidate: 'template<class T, bool isSetMask> void AscendC::Add(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, uint64_t, int32_t, const BinaryRepeatParams&)'\n"
		"vec.h:406:14: note:   template argument deduction/substitution failed:\n"
		"k.cpp:50:12: note:   mismatched types 'const AscendC::LocalTensor<T>' and 'AscendC::LocalTensor<half>*'\n";
	static const char address_of_scalar[] =
		"k.cpp:49:13: error: no matching function for call to 'Adds(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, half*, uint32_t&)'\n"
		"vec.h:500:13: note: candidate: 'template<class T> void AscendC::Adds(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&)'\n"
		"vec.h:500:13: note:   template argument deduction/substitution failed:\n";
	char cand[] = "vec.h:406:14: note: candidate: 'template<class T> void AscendC::Add(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&)'";
	char *notes[] = { cand };
	char *fact;
	static const struct compile_row rows[] = {
		{ address_of_dst, "type", "note-call-pointer" },
		{ address_of_scalar, "type", "note-call-pointer" },
	};
	expect_compile_rows(rows, sizeof(rows) / sizeof(rows[0]));
	fact = classify_call_facts("k.cpp:50:12: error: no matching function for call to 'Add(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>*, AscendC::LocalTensor<half>&, uint32_t&)'",
				   notes, 1);
	cr_expect_str_eq(fact, "npukb-call: argument 2 is a pointer to what its parameter takes");
	free(fact);
	/* a pointer whose pointee does not fit either says nothing */
	fact = classify_call_facts("k.cpp:50:12: error: no matching function for call to 'Add(AscendC::LocalTensor<half>&, float*, AscendC::LocalTensor<half>&, uint32_t&)'",
				   notes, 1);
	cr_expect_null(fact, "%s", fact);
	free(fact);
}

/* The source line g++ quotes under the error (line_facts.c). */
struct line_row {
	const char *error, *quoted, *fact; /* fact NULL: nothing is said */
};

Test(classify, line_facts_read_the_quoted_line)
{
	static const char tpl[] = "k.cpp:1:1: error: template argument 1 is invalid";
	static const char parse[] = "k.cpp:1:1: error: parse error in template argument list";
	static const char type[] = "k.cpp:1:1: error: 'x' does not name a type";
	static const struct line_row rows[] = {
		{ type, "   70 | This kernel adds x and y tile by tile in float.", "npukb-line: the quoted line is prose, not code" },
		{ type, "    3 | Here is the corrected kernel:", "npukb-line: the quoted line is prose, not code" },
		{ type, "    3 | The kernel below adds the two inputs tile by tile", "npukb-line: the quoted line is prose, not code" },
		{ tpl, "   65 |     TQue<QuePosition:VECOUT, BUFFER_NUM> outQueueZ;", "npukb-line: a single ':' joins two names" },
		{ type, "   63 |     AscendC:TPipe pipe;", "npukb-line: a single ':' joins two names" },
		{ tpl, "   38 |         LocalTensor<half yLocal = inQueueY.AllocTensor<half>();", "npukb-line: a template argument list is not closed" },
		{ parse, "   65 |     TQue<QuePosition::VECOUT, BUFFER_NUM outQueueZ;", "npukb-line: a template argument list is not closed" },
		{ parse, "   49 |         LocalTensor<half> zLocal = outQueueZ.AllocTensor<half();", "npukb-line: a template argument list is not closed" },
		/* code, however it looks */
		{ type, "   12 |     unsigned long long int", NULL },
		{ type, "   12 |     using namespace AscendC;", NULL },
		{ type, "   12 |     TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;", NULL },
		{ type, "   12 |     for (auto x:xs) {", NULL },
		{ type, "   12 |     int y = a ? b:c;", NULL },
		{ type, "   12 | class KernelAdd:public Base {", NULL },
		{ type, "   12 |     uint32_t flag:1;", NULL },
		{ type, "   12 |     s = \"a:b\"; // see http://x", NULL },
		{ type, "   12 |     x = 1; // note:this", NULL },
		{ tpl, "   12 |     for (int i = 0; i<n; i++) {", NULL },
		{ tpl, "   12 |     if (a<b) { c = 1; }", NULL },
		{ tpl, "   12 |     TQue<QuePosition::VECOUT, BUFFER_NUM> q; x = a >= b;", NULL },
		/* an unclosed '<' is read only when g++ was reading template arguments */
		{ type, "   12 |     bool c = a<b;", NULL },
		{ type, "   38 |         LocalTensor<half yLocal = inQueueY.AllocTensor<half>();", NULL },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char quoted[256], caret[] = "      | ^~~~";
		char *notes[] = { quoted, caret };
		char *fact;
		snprintf(quoted, sizeof(quoted), "%s", rows[i].quoted);
		fact = classify_line_facts(rows[i].error, notes, 2);
		if (rows[i].fact)
			cr_expect(fact && strcmp(fact, rows[i].fact) == 0, "row %zu: %s", i,
				  fact ? fact : "(null)");
		else
			cr_expect_null(fact, "row %zu: %s", i, fact);
		free(fact);
	}
}

/* Only the line quoted for the error itself: not one a note quotes, and
 * nothing when no line is quoted. */
Test(classify, line_facts_only_under_the_error)
{
	char note[] = "k.cpp:3:1: note: candidate: 'void f()'";
	char quoted[] = "    3 | This kernel adds x and y tile by tile in float.";
	char *after_note[] = { note, quoted };
	char *none[] = { note };
	cr_expect_null(classify_line_facts("k.cpp:1:1: error: 'x' does not name a type", after_note, 2));
	cr_expect_null(classify_line_facts("k.cpp:1:1: error: 'x' does not name a type", none, 1));
	cr_expect_null(classify_line_facts(NULL, after_note + 1, 1));
}

/* Whole logs: the quoted line decides over what the message named. */
Test(classify, quoted_line_decides_syntax)
{
	static const char prose[] =
		"k.cpp:70:1: error: 'This' does not name a type\n"
		"   70 | This kernel adds x and y tile by tile in float.\n"
		"      | ^~~~\n";
	static const char single_colon[] =
		"k.cpp:65:40: error: template argument 1 is invalid\n"
		"   65 |     TQue<QuePosition:VECOUT, BUFFER_NUM> outQueueZ;\n"
		"      |                                        ^\n"
		"k.cpp: In member function 'void KernelAddTile::Init(uint8_t*, uint8_t*, uint8_t*, uint32_t, uint32_t)':\n"
		"k.cpp:22:24: error: no matching function for call to 'AscendC::TPipe::InitBuffer(int&, const int32_t&, long unsigned int)'\n";
	static const char unclosed[] =
		"k.cpp: In member function 'void KernelAddTile::CopyIn(uint32_t)':\n"
		"k.cpp:38:62: error: template argument 1 is invalid\n"
		"   38 |         LocalTensor<half yLocal = inQueueY.AllocTensor<half>();\n"
		"      |                                                              ^\n"
		"k.cpp:40:18: error: 'yLocal' was not declared in this scope; did you mean 'xLocal'?\n";
	/* a type name unknown on a line of code stays scope */
	static const char unknown_type[] =
		"k.cpp:12:5: error: 'half2' does not name a type; did you mean 'half'?\n"
		"   12 |     half2 tmp;\n"
		"      |     ^~~~~\n";
	/* and a template argument that is no type stays template */
	static const char invalid_arg[] =
		"k.cpp:12:5: error: template argument 1 is invalid\n"
		"   12 |     GlobalTensor<float16> xGm;\n"
		"      |                       ^\n";
	static const struct compile_row rows[] = {
		{ prose, "syntax", "note-line-prose" },
		{ single_colon, "syntax", "note-line-single-colon" },
		{ unclosed, "syntax", "note-line-angle-unclosed" },
		{ unknown_type, "scope", "scope-type-not-named" },
		{ invalid_arg, "template", "tpl-argument-invalid" },
	};
	expect_compile_rows(rows, sizeof(rows) / sizeof(rows[0]));
}

Test(classify, call_facts_ignore_what_they_cannot_read)
{
	char bad[] = "x.cpp:1:1: note: candidate: 'void f(int'";
	char *notes[] = { bad };
	cr_expect_null(classify_call_facts(NULL, notes, 1));
	cr_expect_null(classify_call_facts("x.cpp:1:1: error: 'x' was not declared in this scope", notes, 1));
	cr_expect_null(classify_call_facts("x.cpp:1:1: error: no matching function for call to 'f(int'", notes, 1));
	/* a candidate that cannot be read is no candidate: nothing is said */
	cr_expect_null(classify_call_facts("x.cpp:1:1: error: no matching function for call to 'f(int, int)'", notes, 1));
}

/* Notes belong to the error above them: those under a later error never
 * refine the first one. */
Test(classify, notes_under_a_later_error_do_not_refine)
{
	static const char log[] =
		"add_custom.cpp:20:5: error: 'tileNum' was not declared in this scope\n"
		"add_custom.cpp:46:12: error: no matching function for call to 'Adds(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, int, uint32_t&)'\n"
		"add_custom.cpp:46:12: note:   deduced conflicting types for parameter 'const T' ('half' and 'int')\n";
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile", "error", log, &v);
	cr_expect_str_eq(v.category, "scope");
	cr_expect_str_eq(v.rule, "scope-not-declared");
	npukb_verdict_clear(&v);
}

Test(classify, warnings_before_the_error_do_not_decide)
{
	static const char log[] =
		"add.cpp:10:20: warning: narrowing conversion of 'n' from 'int' to 'uint16_t' [-Wnarrowing]\n"
		"add.cpp:12:5: error: use of undeclared identifier 'tileNum'\n";
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile", "x", log, &v);
	cr_expect_str_eq(v.category, "scope");
	npukb_verdict_clear(&v);
}

/* A backend's "$ command" echo is not the compiler's words: a macro in it
 * that reads like a scope error must not decide. */
Test(classify, command_echo_does_not_decide)
{
	static const char log[] =
		"$ g++ -DWHY='use of undeclared identifier' -c add.cpp\n"
		"add.cpp:30:9: error: expected ';' before 'AscendC'\n";
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile", "x", log, &v);
	cr_expect_str_eq(v.category, "syntax");
	npukb_verdict_clear(&v);
}

Test(classify, context_lines_naming_tensors_do_not_decide)
{
	static const char log[] =
		"add.cpp: In member function 'void KernelAdd::CopyIn(AscendC::TQue<AscendC::TPosition::VECIN, 2>&)':\n"
		"add.cpp:30:9: error: expected ';' before 'AscendC'\n";
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile", "x", log, &v);
	cr_expect_str_eq(v.category, "syntax");
	npukb_verdict_clear(&v);
}

Test(classify, link_log)
{
	static const char log[] =
		"/usr/bin/ld: /tmp/ccA1.o: in function `main':\n"
		"main.cpp:(.text+0x51): undefined reference to `add_custom_do'\n"
		"collect2: error: ld returned 1 exit status\n";
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile", "x", log, &v);
	cr_expect_str_eq(v.category, "link");
	cr_expect_str_eq(v.rule, "link-undefined-reference");
	npukb_verdict_clear(&v);
}

Test(classify, utf8_quotes_and_colour_codes)
{
	/* gcc in a UTF-8 locale with colours forced on */
	static const char log[] =
		"\033[01m\033[Kadd.cpp:5:3:\033[m\033[K \033[01;31m\033[Kerror: \033[m\033[K"
		"\xe2\x80\x98\033[01m\033[KtileNum\033[m\033[K\xe2\x80\x99 was not declared in this scope\n";
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile", "x", log, &v);
	cr_expect_str_eq(v.category, "scope");
	cr_expect_str_eq(v.details, "add.cpp:5:3: error: 'tileNum' was not declared in this scope");
	npukb_verdict_clear(&v);
}

Test(classify, message_is_read_after_details)
{
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile",
		 "add.cpp:3:1: error: expected unqualified-id before '{' token", NULL, &v);
	cr_expect_str_eq(v.category, "syntax");
	npukb_verdict_clear(&v);
}

/* ---- fallbacks and categories that are kept ------------------------------------ */

Test(classify, compile_no_match_falls_back)
{
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "other-compile", "compiler exited with 1",
		 "something the rules have never seen\nand another line\n", &v);
	cr_expect_str_eq(v.category, "other-compile");
	cr_expect_str_eq(v.rule, "fallback");
	cr_expect_str_eq(v.message, "compiler exited with 1");
	npukb_verdict_clear(&v);
}

Test(classify, compile_timeout_is_kept)
{
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_COMPILE, "compile-timeout", "compiler timed out after 60 s",
		 "add.cpp:1:1: error: expected ';' before '}' token\n", &v);
	cr_expect_str_eq(v.category, "compile-timeout");
	cr_expect_str_eq(v.rule, "builtin:compile-timeout");
	npukb_verdict_clear(&v);
}

Test(classify, run_categories_from_checks_are_kept)
{
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_CORRECTNESS, "timeout", "seed 0: timed out after 10.0 s", NULL, &v);
	cr_expect_str_eq(v.category, "timeout");
	cr_expect_str_eq(v.rule, "builtin:timeout");
	npukb_verdict_clear(&v);
	classify(NPUKB_STAGE_CORRECTNESS, "ub-overflow", "UB overflow",
		 "==1== ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020\n", &v);
	cr_expect_str_eq(v.category, "ub-overflow");
	cr_expect_str_eq(v.rule, "builtin:ub-overflow");
	npukb_verdict_clear(&v);
	classify(NPUKB_STAGE_CORRECTNESS, "mismatch", "mismatch in z (seed 0)",
		 "  [17] expected 1.5, got 2 (abs err 0.5)\n", &v);
	cr_expect_str_eq(v.category, "mismatch");
	npukb_verdict_clear(&v);
}

Test(classify, crash_is_refined_by_run_rules)
{
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_CORRECTNESS, "crash", "seed 0: killed by SIGABRT",
		 "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000018\n", &v);
	cr_expect_str_eq(v.category, "out-of-bounds");
	cr_expect_str_eq(v.rule, "run-asan-buffer-overflow");
	npukb_verdict_clear(&v);
	classify(NPUKB_STAGE_CORRECTNESS, "crash", "seed 0: killed by SIGSEGV", "", &v);
	cr_expect_str_eq(v.category, "crash");
	cr_expect_str_eq(v.rule, "builtin:crash");
	npukb_verdict_clear(&v);
}

/* UndefinedBehaviorSanitizer's words for the two run rules it feeds (a
 * build with --enable-sanitizers reports array and alignment faults so,
 * and the run then ends as a bare crash). */
Test(classify, ubsan_reports_refine_a_crash)
{
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_CORRECTNESS, "crash", "seed 0: killed by SIGABRT",
		 "add_custom.cpp:41:17: runtime error: index 8 out of bounds for type 'float [8]'\n"
		 "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior add_custom.cpp:41:17\n",
		 &v);
	cr_expect_str_eq(v.category, "out-of-bounds");
	cr_expect_str_eq(v.rule, "run-ubsan-out-of-bounds");
	npukb_verdict_clear(&v);
	classify(NPUKB_STAGE_CORRECTNESS, "crash", "seed 0: killed by SIGABRT",
		 "add_custom.cpp:30:9: runtime error: load of misaligned address 0x7f3a00000012 for type "
		 "'float', which requires 4 byte alignment\n",
		 &v);
	cr_expect_str_eq(v.category, "misaligned");
	cr_expect_str_eq(v.rule, "run-ubsan-misaligned");
	npukb_verdict_clear(&v);
}

Test(classify, compile_rules_do_not_apply_to_runs)
{
	struct npukb_verdict v;
	load_shipped_rules();
	classify(NPUKB_STAGE_CORRECTNESS, "crash", "crash",
		 "add.cpp:1:1: error: 'x' was not declared in this scope\n", &v);
	cr_expect_str_eq(v.category, "crash");
	npukb_verdict_clear(&v);
}

/* ---- the rules file itself ------------------------------------------------------ */

Test(rules_file, bad_regex_fails_init_with_file_and_line)
{
	char err[512], want[128];
	const char *path = temp_rules("# comment\n"
				      "ok-rule compile syntax error: expected\n"
				      "\n"
				      "broken compile type error: (unclosed\n");
	setenv("NPUKB_CLASSIFY_RULES", path, 1);
	cr_expect_neq(npukb_classify_plugin.init(err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s:4: bad regex", path);
	cr_expect(strstr(err, want) != NULL, "err: %s", err);
	unlink(path);
}

struct bad_file_row {
	char text[128];
	int line;
	char words[48];
};

ParameterizedTestParameters(rules_file, rejected)
{
	static struct bad_file_row rows[] = {
		{ "r1 compile syntax x\nr2 linker link y\n", 2, "unknown stage 'linker'" },
		{ "r1 compile typo x\n", 1, "unknown category 'typo'" },
		{ "r1 compile syntax\n", 1, "expected '<rule-id>" },
		{ "r1 compile syntax a\n# c\nr1 run crash b\n", 3, "already used on line 1" },
		{ "r1 any crash [[:nope:]]\n", 1, "bad regex" },
	};
	return cr_make_param_array(struct bad_file_row, rows, sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(struct bad_file_row *row, rules_file, rejected)
{
	char err[512], want[128];
	const char *path = temp_rules(row->text);
	setenv("NPUKB_CLASSIFY_RULES", path, 1);
	cr_expect_neq(npukb_classify_plugin.init(err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s:%d: ", path, row->line);
	cr_expect(strstr(err, want) != NULL, "err: %s (want %s)", err, want);
	cr_expect(strstr(err, row->words) != NULL, "err: %s (want %s)", err, row->words);
	unlink(path);
}

Test(rules_file, missing_file_names_the_path)
{
	char err[512];
	setenv("NPUKB_CLASSIFY_RULES", "/nonexistent/npukb/rules.conf", 1);
	cr_expect_eq(npukb_classify_plugin.init(err, sizeof(err)), -ENOENT);
	cr_expect(strstr(err, "/nonexistent/npukb/rules.conf") != NULL, "err: %s", err);
}

Test(rules_file, earliest_rule_wins_on_a_line_and_earliest_line_wins)
{
	char err[512];
	struct npukb_verdict v;
	const char *path = temp_rules("  # indented comment\n"
				      "late-line   compile link   second\n"
				      "specific    compile type   first line\n"
				      "generic     compile syntax first\n");
	setenv("NPUKB_CLASSIFY_RULES", path, 1);
	cr_assert_eq(npukb_classify_plugin.init(err, sizeof(err)), 0, "init: %s", err);
	/* both "specific" and "generic" match line 1: the earlier rule wins;
	 * "late-line" is first in the file but its line comes later */
	classify(NPUKB_STAGE_COMPILE, "other-compile", "m", "the first line\nthe second line\n", &v);
	cr_expect_str_eq(v.category, "type");
	cr_expect_str_eq(v.rule, "specific");
	npukb_verdict_clear(&v);
	npukb_classify_plugin.fini();
	unlink(path);
}

Test(rules_file, any_stage_and_regex_with_spaces)
{
	char err[512];
	struct npukb_verdict v;
	const char *path = temp_rules("sync any sync-race data race on (queue|buffer) [0-9]+   \n");
	setenv("NPUKB_CLASSIFY_RULES", path, 1);
	cr_assert_eq(npukb_classify_plugin.init(err, sizeof(err)), 0, "init: %s", err);
	classify(NPUKB_STAGE_CORRECTNESS, "crash", "m", "check: data race on queue 3\n", &v);
	cr_expect_str_eq(v.category, "sync-race");
	npukb_verdict_clear(&v);
	classify(NPUKB_STAGE_COMPILE, "other-compile", "m", "data race on buffer 12\n", &v);
	cr_expect_str_eq(v.category, "sync-race");
	npukb_verdict_clear(&v);
	npukb_classify_plugin.fini();
	unlink(path);
}

Test(rules_file, init_again_replaces_the_rules)
{
	char err[512];
	struct npukb_verdict v;
	const char *p1 = temp_rules("one compile type alpha\n");
	const char *p1copy;
	char first[64];
	snprintf(first, sizeof(first), "%s", p1);
	p1copy = first;
	setenv("NPUKB_CLASSIFY_RULES", p1copy, 1);
	cr_assert_eq(npukb_classify_plugin.init(err, sizeof(err)), 0, "init: %s", err);
	setenv("NPUKB_CLASSIFY_RULES", temp_rules("two compile scope alpha\n"), 1);
	cr_assert_eq(npukb_classify_plugin.init(err, sizeof(err)), 0, "init: %s", err);
	classify(NPUKB_STAGE_COMPILE, "other-compile", "m", "alpha\n", &v);
	cr_expect_str_eq(v.rule, "two");
	npukb_verdict_clear(&v);
	npukb_classify_plugin.fini();
	unlink(p1copy);
	unlink(getenv("NPUKB_CLASSIFY_RULES"));
}
