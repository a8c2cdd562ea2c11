/* test_diag_loc.c - the sample's own line in a failure's messages: the
 * first location inside the sample folder, never one in npukb's headers
 * or an include chain, and nothing on junk. */
#include <criterion/criterion.h>

#include "diag_loc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void setup(void)
{
	char path[128];
	FILE *f;
	snprintf(dir, sizeof(dir), "/tmp/npukb-diagloc-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/add_custom.cpp", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fclose(f);
	snprintf(path, sizeof(path), "%s/op_kernel", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/op_kernel/k.cpp", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fclose(f);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(diag_loc, .init = setup, .fini = teardown);

Test(diag_loc, skips_the_emulation_headers_and_include_chains)
{
	char text[2048], file[256];
	long line = 0;
	snprintf(text, sizeof(text),
		 "In file included from %s/add_custom.cpp:1:\n"
		 "/usr/local/share/npukb/plugins/cpusim/include/kernel_operator.h:900:1: error: x\n"
		 "                 from %s/add_custom.cpp:2,\n"
		 "%s/add_custom.cpp:39:17: error: no matching function for call to 'DataCopy'\n"
		 "%s/add_custom.cpp:50:3: note: later\n",
		 dir, dir, dir, dir);
	cr_assert_eq(npukb_diag_sample_location(text, dir, file, sizeof(file), &line), 0);
	cr_assert_str_eq(file, "add_custom.cpp");
	cr_assert_eq(line, 39);
}

Test(diag_loc, relative_paths_name_files_of_the_sample)
{
	char file[256];
	long line = 0;
	cr_assert_eq(npukb_diag_sample_location(
			     "npukb-cpusim: out-of-bounds: run past its end at nothere.cpp:7, "
			     "at op_kernel/k.cpp:12 (exited with status 3)",
			     dir, file, sizeof(file), &line), 0);
	cr_assert_str_eq(file, "op_kernel/k.cpp");
	cr_assert_eq(line, 12);
}

Test(diag_loc, nothing_outside_the_sample)
{
	char text[1024], file[256] = "unchanged";
	long line = -1;
	snprintf(text, sizeof(text),
		 "/usr/include/stdio.h:3:1: error\n%s/../etc/passwd:1: x\n../add_custom.cpp:4: y\n"
		 "%sx/add_custom.cpp:5: z\nadd_custom.cpp:0: zero\nadd_custom.cpp:1234567890: long\n"
		 "add_custom.cpp:12abc\n:5: no path\n",
		 dir, dir);
	cr_assert_eq(npukb_diag_sample_location(text, dir, file, sizeof(file), &line), -ENOENT);
	cr_assert_str_eq(file, "unchanged");
	cr_assert_eq(npukb_diag_sample_location(NULL, dir, file, sizeof(file), &line), -ENOENT);
	cr_assert_eq(npukb_diag_sample_location("a.cpp:3: x", NULL, file, sizeof(file), &line),
		     -ENOENT);
	cr_assert_eq(npukb_diag_sample_location("", dir, file, sizeof(file), &line), -ENOENT);
}

Test(diag_loc, junk_does_not_crash)
{
	char text[4096], file[8];
	long line;
	size_t i;
	for (i = 0; i < sizeof(text) - 1; i++)
		text[i] = (char)(i % 3 == 0 ? ':' : i % 3 == 1 ? '9' : '/');
	text[sizeof(text) - 1] = '\0';
	cr_assert_eq(npukb_diag_sample_location(text, dir, file, sizeof(file), &line), -ENOENT);
	/* a long path is cut to fit file */
	snprintf(text, sizeof(text), "%s/op_kernel/k.cpp:3: e", dir);
	cr_assert_eq(npukb_diag_sample_location(text, dir, file, sizeof(file), &line), 0);
	cr_assert_str_eq(file, "op_kern");
	cr_assert_eq(line, 3);
}
