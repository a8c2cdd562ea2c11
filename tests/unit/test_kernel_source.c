/* test_kernel_source.c - plugins/cpusim/kernel_source.c: which sources
 * define a __global__ kernel (a declaration does not), with which
 * linkage, whether a source defines the tiling struct at global scope,
 * and the kernel part of a single-source file (host functions and ACL
 * includes blanked, every line kept). */
#include <criterion/criterion.h>

#include "../../plugins/cpusim/kernel_source.h"

#include <stdlib.h>
#include <string.h>

static struct kernel_source_info scan(const char *text, const char *kernel, const char *type)
{
	struct kernel_source_info i;

	kernel_source_scan(text, kernel, type, &i);
	return i;
}

Test(kernel_source, a_declaration_is_no_kernel_source)
{
	struct kernel_source_info i = scan(
		"#include \"data_utils.h\"\n"
		"#ifndef ASCENDC_CPU_DEBUG\n#include \"acl/acl.h\"\n"
		"extern void run_k(uint32_t n, void *s);\n"
		"#else\nextern \"C\" __global__ __aicore__ void k(GM_ADDR x);\n#endif\n"
		"int32_t main(int32_t argc, char *argv[])\n{\n    run_k(8, nullptr);\n    return 0;\n}\n",
		"k", NULL);

	cr_expect_eq(i.kernels, 0);
	cr_expect_eq(i.defines_kernel, 0);
	cr_expect_eq(i.host_functions, 1);
}

Test(kernel_source, kernel_definitions_and_their_linkage)
{
	struct kernel_source_info c = scan("/* __global__ k() { } in a comment */\n"
					   "class K { public: __aicore__ inline void Run() { if (1) { } } };\n"
					   "extern \"C\" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)\n{\n"
					   "    K op; op.Run();\n}\n"
					   "void wrap(uint32_t b, void *s, uint8_t *x) { k<<<b, nullptr, s>>>(x, x); }\n",
					   "k", NULL);
	struct kernel_source_info block = scan("namespace n { int v = 1; }\n"
					       "extern \"C\" {\n__global__ __aicore__ void k(GM_ADDR x) { }\n}\n",
					       "k", NULL);
	struct kernel_source_info cxx = scan("template <typename T, int N = 2> __aicore__ inline T id(T v) { return v; }\n"
					     "__global__ __aicore__ void other(GM_ADDR x) { }\n"
					     "__global__ __aicore__ void k(GM_ADDR x, Tiling t) { }\n",
					     "k", NULL);

	cr_expect_eq(c.kernels, 1);
	cr_expect_eq(c.defines_kernel, 1);
	cr_expect_eq(c.kernel_c_linkage, 1);
	cr_expect_eq(c.host_functions, 1, "the <<<>>> wrapper is host code");
	cr_expect_eq(block.defines_kernel, 1);
	cr_expect_eq(block.kernel_c_linkage, 1, "inside an extern \"C\" block");
	cr_expect_eq(cxx.kernels, 2);
	cr_expect_eq(cxx.defines_kernel, 1);
	cr_expect_eq(cxx.kernel_c_linkage, 0);
	cr_expect_eq(cxx.host_functions, 0);
	cr_expect_eq(scan("__global__ __aicore__ void k2(GM_ADDR x) { }\n", "k", NULL).defines_kernel, 0);
}

Test(kernel_source, tiling_struct_defined_at_global_scope)
{
	cr_expect_eq(scan("#include \"kernel_operator.h\"\n\nstruct TD\n{\n    uint32_t n;\n};\n", NULL, "TD").type_line,
		     3);
	cr_expect_eq(scan("typedef struct {\n    uint32_t n;\n} TD;\n", NULL, "TD").defines_type, 1);
	cr_expect_eq(scan("using TD = Other;\n", NULL, "TD").defines_type, 1);
	cr_expect_eq(scan("class TD : public Base { int a; };\n", NULL, "TD").defines_type, 1);
	cr_expect_eq(scan("extern \"C\" { struct TD { int a; }; }\n", NULL, "TD").defines_type, 1);
	/* not these */
	cr_expect_eq(scan("struct TD;\nvoid f(TD *t);\n", NULL, "TD").defines_type, 0);
	cr_expect_eq(scan("namespace ns { struct TD { int a; }; }\n", NULL, "TD").defines_type, 0);
	cr_expect_eq(scan("struct TDX { int a; };\n// struct TD { };\n", NULL, "TD").defines_type, 0);
	cr_expect_eq(scan("struct Outer { struct TD { int a; } td; };\n", NULL, "TD").defines_type, 0);
}

static size_t lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

Test(kernel_source, kernel_part_blanks_host_code_and_keeps_lines)
{
	static const char text[] =
		"#include <vector>\n"
		"#include \"acl/acl.h\"\n"
		"#include \"kernel_operator.h\"\n"
		"struct T { uint32_t n; };\n"
		"class Q {\npublic:\n    __aicore__ inline void Run() { }\n};\n"
		"__global__ __aicore__ void k(GM_ADDR x, T t)\n{\n    Q q; q.Run();\n}\n"
		"static std::vector<float> host(const std::vector<float> &x)\n{\n"
		"    aclrtStream s = nullptr;\n    k<<<8, nullptr, s>>>(nullptr, T{1});\n    return x;\n}\n"
		"int32_t main(int32_t argc, char *argv[])\n{\n    return host({}).size() == 0 ? 0 : 1;\n}\n";
	char *part = NULL;

	cr_assert_eq(kernel_source_kernel_part(text, &part), 0);
	cr_assert_not_null(part);
	cr_expect_eq(strlen(part), strlen(text));
	cr_expect_eq(lines(part), lines(text));
	cr_expect_null(strstr(part, "acl/acl.h"), "%s", part);
	cr_expect_null(strstr(part, "main"), "%s", part);
	cr_expect_null(strstr(part, "aclrtStream"), "%s", part);
	cr_expect_null(strstr(part, "<<<"), "%s", part);
	cr_expect_not_null(strstr(part, "#include <vector>\n"), "%s", part);
	cr_expect_not_null(strstr(part, "struct T { uint32_t n; };\n"), "%s", part);
	cr_expect_not_null(strstr(part, "__aicore__ inline void Run() { }"), "%s", part);
	cr_expect_not_null(strstr(part, "__global__ __aicore__ void k(GM_ADDR x, T t)\n{\n    Q q; q.Run();\n}\n"),
			   "%s", part);
	free(part);
}
