/* test_extract.c - code out of model responses (extract.h): each form
 * NPUKernelBench and KernelBench-style responses take, junk, safe file
 * names, JSONL records, and the SHA-256 of provenance records. */
#include <criterion/criterion.h>

#include "extract.h"
#include "sha256.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct npukb_extraction x;

static void done(void)
{
	npukb_extraction_free(&x);
}

static void extract(const char *text)
{
	cr_assert_eq(npukb_extract(text, strlen(text), &x), 0);
}

TestSuite(extract, .fini = done);

Test(extract, fenced_cpp_block)
{
	extract("Here is the kernel:\n```cpp\nint k;\n```\nThat is all.\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_FENCE);
	cr_assert_eq(x.nfiles, 1);
	cr_assert_null(x.files[0].path);
	cr_assert_str_eq(x.files[0].text, "int k;\n");
}

Test(extract, unlabelled_and_tilde_fences_count)
{
	extract("~~~\nint a;\n~~~\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_FENCE);
	cr_assert_str_eq(x.files[0].text, "int a;\n");
}

Test(extract, first_c_block_of_two)
{
	extract("```python\nprint(1)\n```\n```c++\nint first;\n```\n```cpp\nint second;\n```\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_FENCE);
	cr_assert_str_eq(x.files[0].text, "int first;\n");
}

Test(extract, fence_lines_inside_another_language_are_skipped)
{
	/* a markdown block quoting a fence must not open a C block */
	extract("````markdown\n```cpp\nint quoted;\n```\n````\n```cpp\nint real;\n```\n");
	cr_assert_eq(x.nfiles, 1);
	cr_assert_str_eq(x.files[0].text, "int real;\n");
}

Test(extract, kernel_impl_wins_over_an_earlier_fence)
{
	extract("```cpp\nint draft;\n```\n<kernel_impl>\n```cpp\nint final_;\n```\n</kernel_impl>\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_KERNEL_IMPL);
	cr_assert_eq(x.nfiles, 1);
	cr_assert_str_eq(x.files[0].text, "int final_;\n");
}

Test(extract, kernel_impl_without_fence_is_trimmed)
{
	extract("<kernel_impl>\n\n  int k;\n\n</kernel_impl>");
	cr_assert_eq(x.form, NPUKB_EXTRACT_KERNEL_IMPL);
	cr_assert_str_eq(x.files[0].text, "int k;\n");
}

Test(extract, empty_kernel_impl_is_no_code)
{
	extract("<kernel_impl>\n   \n</kernel_impl>\n```cpp\nint not_taken;\n```\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_NONE);
	cr_assert_eq(x.nfiles, 0);
	cr_assert(strstr(x.reason, "kernel_impl"));
}

Test(extract, unclosed_kernel_impl_falls_back_to_fence)
{
	extract("<kernel_impl>\n```cpp\nint cut;\n```\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_FENCE);
	cr_assert_str_eq(x.files[0].text, "int cut;\n");
}

Test(extract, host_device_file_headers)
{
	extract("Files:\n"
		"================== op_host/add_custom_tiling.h ==================\n"
		"```cpp\nstruct T {};\n```\n"
		"================== op_host/add_custom.cpp ==================\n"
		"```cpp\nint host;\n```\n"
		"================== op_kernel/add_custom.cpp ==================\n"
		"\n```cpp\nint kernel;\n```\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_FILE_HEADERS);
	cr_assert_eq(x.nfiles, 3);
	cr_assert_str_eq(x.files[0].path, "op_host/add_custom_tiling.h");
	cr_assert_str_eq(x.files[0].text, "struct T {};\n");
	cr_assert_str_eq(x.files[1].path, "op_host/add_custom.cpp");
	cr_assert_str_eq(x.files[2].path, "op_kernel/add_custom.cpp");
	cr_assert_str_eq(x.files[2].text, "int kernel;\n");
}

/* An operator project's own build file travels with its sources; any other
 * top-level name is no header. */
Test(extract, project_cmakelists_is_a_file_header)
{
	extract("=== CMakeLists.txt ===\n```cmake\nadd_ops_compile_options(ALL OPTIONS --cce-auto-sync=off)\n```\n"
		"=== op_kernel/add_custom.cpp ===\n```cpp\nint kernel;\n```\n"
		"=== build.sh ===\n```sh\nrm -rf /\n```\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_FILE_HEADERS);
	cr_assert_eq(x.nfiles, 2);
	cr_assert_str_eq(x.files[0].path, "CMakeLists.txt");
	cr_assert_str_eq(x.files[0].text, "add_ops_compile_options(ALL OPTIONS --cce-auto-sync=off)\n");
	cr_assert_str_eq(x.files[1].path, "op_kernel/add_custom.cpp");
}

Test(extract, file_headers_never_escape_the_sample)
{
	extract("=== op_kernel/../../etc/passwd ===\n```cpp\nint a;\n```\n"
		"=== op_host//abs.cpp ===\n```cpp\nint b;\n```\n"
		"=== /etc/x.cpp ===\n```cpp\nint c;\n```\n");
	/* the unsafe headers are dropped, and the third (not under op_host/ or
	 * op_kernel/) is no header: a response that named files but gave none
	 * usable has no code, rather than one of its blocks in the wrong place */
	cr_assert_eq(x.form, NPUKB_EXTRACT_NONE);
	cr_assert(strstr(x.reason, "unsafe"));
}

Test(extract, crlf_reads_as_lf)
{
	extract("text\r\n```cpp\r\nint a;\r\nint b;\r\n```\r\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_FENCE);
	cr_assert_str_eq(x.files[0].text, "int a;\nint b;\n");
}

Test(extract, empty_response)
{
	extract("");
	cr_assert_eq(x.form, NPUKB_EXTRACT_NONE);
	cr_assert_str_eq(x.reason, "empty response");
	extract(" \n\t\r\n");
	cr_assert_str_eq(x.reason, "empty response");
	cr_assert_eq(npukb_extract(NULL, 0, &x), 0);
	cr_assert_eq(x.form, NPUKB_EXTRACT_NONE);
}

Test(extract, prose_only_is_no_code)
{
	extract("I am sorry, I cannot write this kernel.");
	cr_assert_eq(x.form, NPUKB_EXTRACT_NONE);
	cr_assert(strstr(x.reason, "no fenced code block"));
}

Test(extract, other_languages_only_is_no_code)
{
	extract("```python\nimport torch\n```\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_NONE);
	cr_assert(strstr(x.reason, "other languages"));
}

Test(extract, empty_c_block_is_no_code)
{
	extract("```cpp\n```\n");
	cr_assert_eq(x.form, NPUKB_EXTRACT_NONE);
}

Test(extract, unterminated_fence_runs_to_the_end)
{
	extract("```cpp\nint a;\nint b");
	cr_assert_eq(x.form, NPUKB_EXTRACT_FENCE);
	cr_assert_str_eq(x.files[0].text, "int a;\nint b");
}

Test(extract, binary_bytes_do_not_stop_it)
{
	static const char bin[] = "\x00\xff\xfe```cpp\n\x01\x00int a;\n```\n";
	cr_assert_eq(npukb_extract(bin, sizeof bin - 1, &x), 0);
	/* bytes before the backticks on the same line: not a fence */
	cr_assert_eq(x.form, NPUKB_EXTRACT_NONE);
	npukb_extraction_free(&x);
	static const char bin2[] = "\xff\n```cpp\n\x01\x00int a;\n```\n";
	cr_assert_eq(npukb_extract(bin2, sizeof bin2 - 1, &x), 0);
	cr_assert_eq(x.form, NPUKB_EXTRACT_FENCE);
	cr_assert_str_eq(x.files[0].text, "\x01\xef\xbf\xbdint a;\n");
}

/* Random bytes, and random mixes of the syntax the extractor looks for,
 * never crash it or break its invariants. */
Test(extract, fuzz)
{
	static const char *const bits[] = { "```", "```cpp", "~~~", "\n", "\r\n", "<kernel_impl>",
					    "</kernel_impl>", "=== op_kernel/a.cpp ===",
					    "=== op_host/../x ===", "int a;", " ", "\0", "`" };
	char buf[512];
	unsigned seed = 12345, i, k;
	for (i = 0; i < 20000; i++) {
		size_t n = 0;
		unsigned parts = (seed = seed * 1103515245u + 12345u) % 24;
		for (k = 0; k < parts; k++) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 3 == 0) {
				buf[n++] = (char)(seed >> 8);
			} else {
				const char *b = bits[(seed >> 16) % (sizeof bits / sizeof *bits)];
				size_t l = *b ? strlen(b) : 1;
				if (n + l >= sizeof buf)
					break;
				memcpy(buf + n, b, l);
				n += l;
			}
		}
		cr_assert_eq(npukb_extract(buf, n, &x), 0);
		if (x.form == NPUKB_EXTRACT_NONE)
			cr_assert(x.reason && x.nfiles == 0);
		else
			cr_assert(x.nfiles > 0);
		for (k = 0; k < x.nfiles; k++)
			cr_assert(!x.files[k].path || npukb_sample_path_is_safe(x.files[k].path));
		npukb_extraction_free(&x);
	}
}

Test(paths, safe_and_unsafe)
{
	cr_assert(npukb_sample_path_is_safe("op_kernel/add_custom.cpp"));
	cr_assert(npukb_sample_path_is_safe("op_host/add_custom_tiling.h"));
	cr_assert(npukb_sample_path_is_safe("k.cpp"));
	cr_assert_not(npukb_sample_path_is_safe("/etc/passwd"));
	cr_assert_not(npukb_sample_path_is_safe("../x.cpp"));
	cr_assert_not(npukb_sample_path_is_safe("op_kernel/../../x.cpp"));
	cr_assert_not(npukb_sample_path_is_safe("op_kernel/./x.cpp"));
	cr_assert_not(npukb_sample_path_is_safe("op_kernel//x.cpp"));
	cr_assert_not(npukb_sample_path_is_safe("op_kernel/"));
	cr_assert_not(npukb_sample_path_is_safe("a b.cpp"));
	cr_assert_not(npukb_sample_path_is_safe("a\\b.cpp"));
	cr_assert_not(npukb_sample_path_is_safe("a/b/c/d.cpp"));
	cr_assert_not(npukb_sample_path_is_safe(""));
	cr_assert_not(npukb_sample_path_is_safe(NULL));
}

Test(paths, safe_names)
{
	char *s;
	cr_assert_str_eq(s = npukb_safe_name("org/model 7b"), "org_model_7b");
	free(s);
	cr_assert_str_eq(s = npukb_safe_name(".."), "_..");
	free(s);
	cr_assert_str_eq(s = npukb_safe_name(""), "_");
	free(s);
	cr_assert_eq(strlen(s = npukb_safe_name("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")), 64);
	free(s);
}

Test(records, fields_and_aliases)
{
	struct npukb_response_record r;
	char err[256];
	cr_assert_eq(npukb_response_parse("{\"task_id\":\"level1/Math/AddCustom\",\"model\":\"m\","
					  "\"sample_id\":3,\"response\":\"a\\nb\"}", &r, err, sizeof err), 0);
	cr_assert_str_eq(r.task, "level1/Math/AddCustom");
	cr_assert_str_eq(r.model, "m");
	cr_assert_str_eq(r.sample, "3");
	cr_assert_str_eq(r.text, "a\nb");
	npukb_response_record_free(&r);
	cr_assert_eq(npukb_response_parse("{\"task\":\"t\",\"completion\":\"c\",\"extra\":[1,{}]}",
					  &r, err, sizeof err), 0);
	cr_assert_str_eq(r.text, "c");
	cr_assert_null(r.model);
	cr_assert_null(r.sample);
	npukb_response_record_free(&r);
}

Test(records, bad_records_say_why)
{
	struct npukb_response_record r;
	char err[256];
	cr_assert_eq(npukb_response_parse("\x01\x02 not json", &r, err, sizeof err), -EINVAL);
	cr_assert(strstr(err, "not a JSON object"));
	cr_assert_eq(npukb_response_parse("[1,2]", &r, err, sizeof err), -EINVAL);
	cr_assert_eq(npukb_response_parse("{\"response\":\"x\"}", &r, err, sizeof err), -EINVAL);
	cr_assert(strstr(err, "task"));
	cr_assert_eq(npukb_response_parse("{\"task\":\"t\"}", &r, err, sizeof err), -EINVAL);
	cr_assert(strstr(err, "response"));
	cr_assert_eq(npukb_response_parse("{\"task\":\"t\",\"response\":3}", &r, err, sizeof err),
		     -EINVAL);
	cr_assert_eq(npukb_response_parse("{\"task\":\"t\",\"response\":\"x\"", &r, err, sizeof err),
		     -EINVAL);
}

Test(records, npukernelbench_saved_generation)
{
	char *text, err[256];
	cr_assert_eq(npukb_run_prompt_parse("{\n  \"prompt\": [\"p\"],\n  \"reasoning_content\": \"r\",\n"
					    "  \"gen_content\": \"<kernel_impl>k</kernel_impl>\"\n}\n",
					    &text, err, sizeof err), 0);
	cr_assert_str_eq(text, "r\n<kernel_impl>k</kernel_impl>");
	free(text);
	cr_assert_eq(npukb_run_prompt_parse("{\"x\":1}", &text, err, sizeof err), -EINVAL);
	cr_assert(strstr(err, "gen_content"));
}

Test(sha256, known_answers)
{
	char hex[NPUKB_SHA256_HEX_LEN + 1];
	npukb_sha256_hex("", 0, hex);
	cr_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	npukb_sha256_hex("abc", 3, hex);
	cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* 56 bytes: the padding needs a second block */
	npukb_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	cr_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
