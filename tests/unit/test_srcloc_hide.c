/* test_srcloc_hide.c - compiler output read by users and the classifier
 * names no hidden source-location parameter of the emulation (issue 15):
 * g++'s lines as it prints them for a call with one argument too many. */
#include <criterion/criterion.h>

#include "../../plugins/cpusim/srcloc_hide.c"

/* g++'s quotes in a UTF-8 locale */
#define LQ "\xe2\x80\x98"
#define RQ "\xe2\x80\x99"

static char *hide(const char *in)
{
	char *out = NULL;
	cr_assert_eq(cpusim_srcloc_hide(in, &out), 0);
	cr_assert_not_null(out);
	return out;
}

Test(srcloc_hide, one_candidate_conversion_reads_as_too_many_arguments)
{
	char *out = hide(
		"k.cpp:38:52: error: cannot convert " LQ "uint32_t" RQ " {aka " LQ "unsigned int" RQ "} to " LQ "npukb_cpusim::SrcLoc" RQ "\n"
		"   38 |         LocalTensor<half> a = qx.AllocTensor<half>(n);\n"
		"      |                                                    ^\n"
		"/inc/kernel_operator.h:637:43: note:   initializing argument 1 of " LQ "AscendC::LocalTensor<U> AscendC::TQueBind<src, dst, depth>::AllocTensor(npukb_cpusim::SrcLoc)" RQ "\n"
		"  637 |         LocalTensor<T> AllocTensor(SrcLoc loc = NPUKB_LOC)\n"
		"      |                                    ~~~~~~~^~~~~~~~~~~~~~~\n");
	cr_assert(strstr(out, "k.cpp:38:52: error: too many arguments to function: " LQ "uint32_t" RQ),
		  "%s", out);
	cr_assert(strstr(out, "qx.AllocTensor<half>(n);"), "the user's line stays: %s", out);
	cr_assert_null(strstr(out, "SrcLoc"), "%s", out);
	cr_assert_null(strstr(out, "NPUKB_LOC"), "%s", out);
	cr_assert_null(strstr(out, "initializing argument"), "%s", out);
	free(out);
}

Test(srcloc_hide, ascii_quotes_of_lang_c)
{
	char *out = hide("k.cpp:3:5: error: cannot convert 'int' to 'npukb_cpusim::SrcLoc'\n");
	cr_assert_str_eq(out, "k.cpp:3:5: error: too many arguments to function: 'int' is past its last parameter\n");
	free(out);
}

/* A braced or template-argument initialisation says "could not convert"
 * and names the argument and its type: the argument is what is too many. */
Test(srcloc_hide, could_not_convert_names_the_argument)
{
	char *out = hide("k.cpp:40:52: error: could not convert " LQ "EVENT_ID1" RQ " from " LQ "event_t" RQ " to " LQ "npukb_cpusim::SrcLoc" RQ "\n");
	cr_assert_str_eq(out, "k.cpp:40:52: error: too many arguments to function: " LQ "EVENT_ID1" RQ " is past its last parameter\n");
	free(out);
}

Test(srcloc_hide, candidates_lose_the_parameter_and_its_count)
{
	char *out = hide(
		"k.cpp:51:12: error: no matching function for call to " LQ "Add(A&, A&, A&, uint32_t&, int)" RQ "\n"
		"vec.h:406:14: note: candidate: " LQ "template<class T> void AscendC::Add(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&, npukb_cpusim::SrcLoc)" RQ "\n"
		"k.cpp:51:33: note:   cannot convert " LQ "5" RQ " (type " LQ "int" RQ ") to type " LQ "npukb_cpusim::SrcLoc" RQ "\n"
		"vec.h:406:14: note: candidate: " LQ "template<class T, class ... NoLoc, typename std::enable_if<(sizeof... (NoLoc) == 0), int>::type <anonymous> > void AscendC::Add(const LocalTensor<T>&, const int32_t&, NoLoc ...)" RQ "\n"
		"/inc/npukb_cpusim/vec.h:362:91: error: no type named " LQ "type" RQ " in " LQ "struct std::enable_if<false, int>" RQ "\n"
		"vec.h:406:14: note: candidate: " LQ "template<class T, bool isSetMask> void AscendC::Add(uint64_t, int32_t, const BinaryRepeatParams&, npukb_cpusim::SrcLoc)" RQ "\n"
		"k.cpp:51:12: note:   candidate expects 7 arguments, 5 provided\n"
		"vec.h:9:1: note: candidate: " LQ "void AscendC::Other(int)" RQ "\n"
		"k.cpp:51:12: note:   candidate expects 1 argument, 5 provided\n");
	cr_assert(strstr(out, "const int32_t&)" RQ "\n"), "%s", out);
	cr_assert(strstr(out, "note:   too many arguments: " LQ "5" RQ " (type " LQ "int" RQ ") is past the last parameter"),
		  "%s", out);
	cr_assert(strstr(out, "candidate expects 6 arguments, 5 provided"), "%s", out);
	cr_assert(strstr(out, "candidate expects 1 argument, 5 provided"), "an ordinary count stays: %s", out);
	cr_assert_null(strstr(out, "SrcLoc"), "%s", out);
	cr_assert_null(strstr(out, "NoLoc"), "%s", out);
	cr_assert_null(strstr(out, "enable_if"), "%s", out);
	free(out);
}

Test(srcloc_hide, ordinary_output_is_unchanged)
{
	static const char in[] = "k.cpp:1:1: error: 'x' was not declared in this scope\n"
				 "    1 | x = 1;\n      | ^\n";
	char *out = hide(in);
	cr_assert_str_eq(out, in);
	free(out);
}
