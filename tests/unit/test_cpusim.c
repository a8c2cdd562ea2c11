/* test_cpusim.c - the cpusim backend through its plugin descriptor: builds
 * AddCustom's expert answer and the broken samples of tests/samples/AddCustom,
 * runs them on hand-made case files, and checks outputs bit for bit, the
 * check each broken sample trips, the cycle model's ordering of double
 * against single buffering, and the half-precision selftest. The checks at
 * their boundaries, with generated kernels, are in test_cpusim_snippets.c;
 * the shared fixture in cpusim_fixture.c.
 *
 * Needs: NPUKB_SRCDIR (source tree; default "."), a C++17 g++ (or
 * NPUKB_CXX). NPUKB_CPUSIM_DIR defaults to $NPUKB_SRCDIR/plugins/cpusim. */
#include <criterion/criterion.h>

#include <npukb/plugin.h>

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpusim_fixture.h"

/* ---- the plugin descriptor ------------------------------------------------- */

Test(cpusim, descriptor)
{
	const struct npukb_plugin *p = &npukb_cpusim_plugin;
	cr_assert_eq(p->abi, NPUKB_PLUGIN_ABI);
	cr_assert_eq(p->kind, NPUKB_PLUGIN_BACKEND);
	cr_assert_str_eq(p->name, "cpusim");
	cr_assert_not_null(p->backend);
	cr_assert_not_null(p->backend->probe);
	cr_assert_not_null(p->backend->build);
	cr_assert_not_null(p->backend->run);
}

Test(cpusim, probe_and_identity)
{
	char reason[256] = "", id[256] = "";
	setup_env();
	cr_assert_eq(npukb_cpusim_plugin.backend->probe(reason, sizeof reason), 0, "%s", reason);
	/* reproducible: the line names the emulation the results come from */
	cr_assert_eq(npukb_cpusim_plugin.backend->identity(id, sizeof id),
		     NPUKB_IDENTITY_REPRODUCIBLE, "%s", id);
	cr_assert(strstr(id, "emulation ") && !strstr(id, "emulation unknown"), "%s", id);
}

Test(cpusim, probe_reports_missing_compiler)
{
	char reason[256] = "";
	setup_env();
	setenv("NPUKB_CXX", "/nonexistent/g++", 1);
	cr_assert_neq(npukb_cpusim_plugin.backend->probe(reason, sizeof reason), 0);
	cr_assert(strstr(reason, "/nonexistent/g++") != NULL, "reason: %s", reason);
}

Test(cpusim, probe_reports_missing_data)
{
	char reason[256] = "";
	setenv("NPUKB_CPUSIM_DIR", "/nonexistent/cpusim", 1);
	cr_assert_neq(npukb_cpusim_plugin.backend->probe(reason, sizeof reason), 0);
	cr_assert(strstr(reason, "NPUKB_CPUSIM_DIR") != NULL, "reason: %s", reason);
}

/* ---- the expert answer ------------------------------------------------------ */

Test(cpusim, answer_case0_bit_exact, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	size_t first, poisoned, bad;

	build_ok(&b, ANSWER);
	cr_assert(b.res.artifact && b.res.artifact[0] == '/');
	make_case(&c, CASE0_NUMEL, 48, 1);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 1, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
	cr_assert_null(r.category);
	cr_assert_eq(r.has_cycles, 1);
	cr_assert_gt(r.cycles, 0);
	/* 1800 MHz for ascend910b2. */
	cr_assert_float_eq(r.time_us, r.cycles / 1800.0, 0.01);
	bad = count_wrong(&c, &first, &poisoned);
	cr_assert_eq(bad, 0, "%zu wrong elements, first at %zu", bad, first);
	assert_inputs_intact(&c);
}

/* Lengths that are not multiples of 16 halves, of the core count, or tiny. */
static const size_t odd_lengths[] = { 5, 17, 48 * 16 + 7, 100003, 1000003 };

Test(cpusim, answer_odd_lengths_bit_exact, .timeout = 120)
{
	struct built b;
	size_t k;
	static const int blocks[] = { 48, 7 };

	build_ok(&b, ANSWER);
	for (k = 0; k < sizeof odd_lengths / sizeof odd_lengths[0]; k++) {
		for (size_t j = 0; j < 2; j++) {
			struct case_files c;
			struct npukb_run_result r;
			size_t first, poisoned, bad;

			make_case(&c, odd_lengths[k], blocks[j], 7 + k);
			run_case(&b, &c, &r);
			cr_assert_eq(r.ok, 1, "n=%zu: %s", odd_lengths[k], r.message);
			bad = count_wrong(&c, &first, &poisoned);
			cr_assert_eq(bad, 0, "n=%zu blocks=%d: %zu wrong, first at %zu", odd_lengths[k],
				     blocks[j], bad, first);
		}
	}
}

/* Tensor files larger than the run's file-size limit whose last page is
 * partial: the harness holds that page in memory during the launch and
 * puts it back afterwards, which must neither trip the limit (SIGXFSZ) nor
 * lose the output's last elements. */
Test(cpusim, partial_last_page_past_the_file_size_limit, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	size_t first, poisoned, bad;

	build_ok(&b, ANSWER);
	b.opts.run_limits.file_bytes = 4096;
	make_case(&c, 3000, 7, 5); /* 6000 bytes a tensor */
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 1, "%s\n%s", r.message, r.diagnostics ? r.diagnostics : "");
	bad = count_wrong(&c, &first, &poisoned);
	cr_assert_eq(bad, 0, "%zu wrong, first at %zu", bad, first);
	assert_inputs_intact(&c);
}

Test(cpusim, cycles_deterministic_and_double_buffer_faster, .timeout = 120)
{
	struct built dbl, sgl;
	struct case_files c;
	struct npukb_run_result r1, r2, rs;
	size_t first, poisoned;

	build_ok(&dbl, ANSWER);
	build_ok(&sgl, SAMPLES "single_buffer");
	make_case(&c, CASE0_NUMEL, 48, 3);
	run_case(&dbl, &c, &r1);
	run_case(&dbl, &c, &r2);
	run_case(&sgl, &c, &rs);
	cr_assert(r1.ok && r2.ok && rs.ok);
	cr_assert_eq(r1.cycles, r2.cycles, "cycles differ between identical runs");
	cr_assert_eq(count_wrong(&c, &first, &poisoned), 0, "single buffer is correct too");
	cr_assert_lt(r1.cycles, rs.cycles, "double buffered %.0f cycles, single buffered %.0f",
		     r1.cycles, rs.cycles);
}

Test(cpusim, more_cores_are_faster, .timeout = 120)
{
	struct built b;
	struct case_files one, many;
	struct npukb_run_result r1, r48;
	size_t first, poisoned;

	build_ok(&b, ANSWER);
	make_case(&one, CASE0_NUMEL, 1, 5);
	run_case(&b, &one, &r1);
	cr_assert(r1.ok, "%s", r1.message);
	cr_assert_eq(count_wrong(&one, &first, &poisoned), 0, "1 block is correct too");
	make_case(&many, CASE0_NUMEL, 48, 5);
	run_case(&b, &many, &r48);
	cr_assert(r48.ok, "%s", r48.message);
	/* not 48x: the kernel is bounded below by HBM bandwidth */
	cr_assert_lt(r48.cycles * 4, r1.cycles, "48 blocks %.0f cycles, 1 block %.0f",
		     r48.cycles, r1.cycles);
}

/* ---- broken samples ------------------------------------------------------ */

Test(cpusim, compile_error_diagnostics, .timeout = 120)
{
	struct built b;

	build_sample(&b, SAMPLES "compile_error", 30);
	cr_assert_eq(b.res.ok, 0);
	cr_assert_null(b.res.artifact);
	cr_assert_eq(b.res.proc.kind, NPUKB_EXIT_NORMAL);
	cr_assert_neq(b.res.proc.exit_code, 0);
	cr_assert_not_null(b.res.diagnostics);
	cr_assert(strstr(b.res.diagnostics, "no matching function for call to") != NULL, "%s",
		  b.res.diagnostics);
	/* The message is the compiler's error line, though the sample's path
	 * (.../compile_error/) holds the word too. */
	cr_assert(strstr(b.res.message, "error: no matching function for call to") != NULL, "message: %s",
		  b.res.message);
	/* The details start with the failing command, the last one in
	 * commands.log, which lists every command of the build to repeat it
	 * by hand. */
	cr_assert(strncmp(b.res.diagnostics, "$ ", 2) == 0, "%s", b.res.diagnostics);
	{
		char path[4200], line[16384] = "", last[16384] = "";
		FILE *f;
		snprintf(path, sizeof path, "%s/commands.log", b.workdir);
		f = fopen(path, "r");
		cr_assert_not_null(f, "no %s", path);
		while (fgets(line, sizeof line, f))
			strcpy(last, line);
		fclose(f);
		cr_assert(strstr(last, "add_custom.cpp") != NULL, "last command: %s", last);
		cr_expect(strncmp(b.res.diagnostics + 2, last, strlen(last)) == 0,
			  "details: %.300s\nlast command: %s", b.res.diagnostics, last);
	}
}

Test(cpusim, compile_timeout)
{
	struct built b;
	struct npukb_build_request req;
	char dir[4096];

	setup_env();
	snprintf(dir, sizeof dir, "%s/%s", srcdir(), ANSWER);
	fake_task(&b.task);
	fake_options(&b.opts, 10);
	b.opts.build_limits.wall_seconds = 0.05;
	memset(&b.sample, 0, sizeof(b.sample));
	b.sample.dir = dir;
	b.sample.mode = NPUKB_MODE_KERNEL_ONLY;
	b.sample.nfiles = 1;
	b.sample.files = kernel_files;
	memset(&req, 0, sizeof(req));
	req.task = &b.task;
	req.sample = &b.sample;
	req.options = &b.opts;
	req.workdir = tempdir();
	cr_assert_eq(npukb_cpusim_plugin.backend->build(&req, &b.res), 0);
	cr_assert_eq(b.res.ok, 0);
	cr_assert_eq(b.res.proc.kind, NPUKB_EXIT_TIMEOUT, "kind %d", (int)b.res.proc.kind);
}

/* runtime/harness.cpp is compiled once per build into npukb_harness.o in
 * the work directory and linked into the kernel; an object already there
 * (stale, from another compiler or SoC, or garbage) is replaced, never
 * linked. */
Test(cpusim, harness_object_rebuilt_per_build, .timeout = 120)
{
	struct built b;
	char dir[4096], magic[4] = "";
	char *work = tempdir(), *obj;
	FILE *f;

	snprintf(dir, sizeof dir, "%s/%s", srcdir(), ANSWER);
	obj = path_in(work, "npukb_harness.o");
	write_file(obj, "not an object file\n", 19);
	build_dir_in(&b, dir, 30, work);
	cr_assert_eq(b.res.ok, 1, "%s\n%s", b.res.message, b.res.diagnostics ? b.res.diagnostics : "");
	f = fopen(obj, "rb");
	cr_assert_not_null(f, "no %s", obj);
	cr_assert_eq(fread(magic, 1, 4, f), 4);
	fclose(f);
	cr_assert(memcmp(magic, "\177ELF", 4) == 0, "%s is not an object file", obj);
	free(obj);
}

/* Host+device samples need op_host and op_kernel sources; the full mode is
 * tested end to end in test_cpusim_hostdev. */
Test(cpusim, host_device_sample_without_op_host_is_rejected)
{
	struct built b;
	struct npukb_build_request req;

	setup_env();
	fake_task(&b.task);
	fake_options(&b.opts, 10);
	memset(&b.sample, 0, sizeof(b.sample));
	b.sample.dir = ".";
	b.sample.mode = NPUKB_MODE_HOST_DEVICE;
	memset(&req, 0, sizeof(req));
	req.task = &b.task;
	req.sample = &b.sample;
	req.options = &b.opts;
	req.workdir = "/tmp";
	cr_assert_eq(npukb_cpusim_plugin.backend->build(&req, &b.res), 0);
	cr_assert_eq(b.res.skipped, 0);
	cr_assert_eq(b.res.ok, 0);
	cr_assert_not_null(b.res.message);
	cr_expect_not_null(strstr(b.res.message, "without op_host/ sources"), "%s", b.res.message);
}

Test(cpusim, wrong_result_runs_but_mismatches, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	size_t first, poisoned;

	build_ok(&b, SAMPLES "wrong_result");
	make_case(&c, CASE0_NUMEL, 48, 5);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 1, "%s", r.message);
	cr_assert_gt(count_wrong(&c, &first, &poisoned), CASE0_NUMEL / 2);
	cr_assert_eq(poisoned, 0);
}

Test(cpusim, unwritten_tail_leaves_poison, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	size_t first, poisoned, bad;

	build_ok(&b, SAMPLES "unwritten_tail");
	make_case(&c, CASE0_NUMEL, 48, 5);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 1, "%s", r.message);
	bad = count_wrong(&c, &first, &poisoned);
	/* One tile of 4096 halves per core is never written. */
	cr_assert_eq(poisoned, (size_t)48 * 4096);
	cr_assert_eq(bad, poisoned);
}

Test(cpusim, hang_times_out, .timeout = 60)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;

	build_sample(&b, SAMPLES "hang", 2);
	cr_assert_eq(b.res.ok, 1, "%s", b.res.message);
	make_case(&c, CASE0_NUMEL, 48, 5);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 0);
	cr_assert_null(r.category);
	cr_assert_eq(r.proc.kind, NPUKB_EXIT_TIMEOUT, "kind %d: %s", (int)r.proc.kind, r.message);
}

Test(cpusim, crash_is_a_signal, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;

	build_ok(&b, SAMPLES "crash");
	make_case(&c, CASE0_NUMEL, 48, 5);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 0);
	cr_assert_null(r.category);
	cr_assert_eq(r.proc.kind, NPUKB_EXIT_SIGNAL, "kind %d: %s", (int)r.proc.kind, r.message);
	cr_assert_eq(r.proc.signal, SIGSEGV);
}

/* Each sample must trip exactly the check its `expected` file names, and
 * the report must point into the sample's own source. */
static void expect_check(const char *name, const char *line_hint)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;
	char rel[256], path[4096], want[64] = "", prefix[128], buf[256];
	FILE *f;

	snprintf(rel, sizeof rel, SAMPLES "%s", name);
	snprintf(path, sizeof path, "%s/%s/expected", srcdir(), rel);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(buf, sizeof buf, f))
		if (strncmp(buf, "category=", 9) == 0)
			snprintf(want, sizeof want, "%.*s", (int)strcspn(buf + 9, "\n"), buf + 9);
	fclose(f);
	cr_assert(want[0]);

	build_ok(&b, rel);
	make_case(&c, CASE0_NUMEL, 48, 9);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 0, "%s passed", name);
	cr_assert_eq(r.proc.kind, NPUKB_EXIT_NORMAL);
	cr_assert_eq(r.proc.exit_code, 3, "%s: %s", name, r.message);
	cr_assert_not_null(r.category, "%s: %s", name, r.message);
	cr_assert_str_eq(r.category, want, "%s: %s", name, r.message);
	snprintf(prefix, sizeof prefix, "npukb-cpusim: %s: ", want);
	cr_assert(strncmp(r.message, prefix, strlen(prefix)) == 0, "%s", r.message);
	cr_assert(strstr(r.message, line_hint) != NULL, "%s: want '%s' in: %s", name, line_hint,
		  r.message);
	cr_assert(strstr(r.message, "kernel_operator.h") == NULL, "%s", r.message);
}

/* Its InitBuffer at line 21 takes the pool past the UB: only a defect
 * (CANN checks the pool in CPU-debug builds only); the error is the first
 * operand past the UB's end, qz's first buffer in the Add (line 50). */
Test(cpusim, check_ub_overflow, .timeout = 120)
{
	expect_check("ub_overflow", "at add_custom.cpp:50");
}
Test(cpusim, check_misaligned, .timeout = 120) { expect_check("misaligned", "at add_custom.cpp:38"); }
Test(cpusim, check_gm_out_of_bounds, .timeout = 120) { expect_check("out_of_bounds", "(block 47) at add_custom.cpp:39"); }
Test(cpusim, check_vector_count, .timeout = 120) { expect_check("vector_count_oob", "at add_custom.cpp:50"); }
Test(cpusim, check_deque_empty, .timeout = 120) { expect_check("deque_empty", "at add_custom.cpp:47"); }
Test(cpusim, check_enque_full, .timeout = 120) { expect_check("enque_full", "at add_custom.cpp:44"); }
Test(cpusim, check_double_free, .timeout = 120) { expect_check("double_free", "at add_custom.cpp:53"); }
Test(cpusim, check_missing_free, .timeout = 120) { expect_check("missing_free", "at add_custom.cpp:49"); }
/* A scratch tensor never freed breaks the queue's contract but computes
 * the right sums: the launch passes with the defect listed, with its place
 * (plugins/cpusim/API.md, "Checks and their severities"). */
Test(cpusim, check_leak_at_end, .timeout = 120)
{
	struct built b;
	struct case_files c;
	struct npukb_run_result r;

	build_ok(&b, SAMPLES "leak_at_end");
	make_case(&c, CASE0_NUMEL, 48, 9);
	run_case(&b, &c, &r);
	cr_assert_eq(r.ok, 1, "leak_at_end failed: %s", r.message);
	cr_assert_not_null(r.defects, "no defect listed");
	cr_assert_not_null(strstr(r.defects, "queue-misuse: "), "%s", r.defects);
	cr_assert_not_null(strstr(r.defects, "at add_custom.cpp:24"), "%s", r.defects);
	cr_assert_null(strstr(r.defects, "kernel_operator.h"), "%s", r.defects);
}

/* ---- the harness and the fp16 types --------------------------------------- */

Test(cpusim, harness_rejects_bad_command_line, .timeout = 120)
{
	struct built b;
	struct npukb_sandbox_spec spec;
	struct npukb_sandbox_result res;
	char err[256], *wd, build[4096], soc[4096];
	const char *reads[] = { build, soc, NULL };
	const char *argv[] = { NULL, "--blocks", "0", "--soc", "ascend910b2", "--stats", "s.txt", NULL };
	const char *argv2[] = { NULL, "--blocks", "1", "--soc", "nosuchsoc", "--stats", "s.txt", NULL };

	build_ok(&b, ANSWER);
	argv[0] = argv2[0] = b.res.artifact;
	wd = tempdir();
	/* The harness sees its build and the SoC tables, as in cpusim_run. */
	snprintf(build, sizeof build, "%s", b.res.artifact);
	*strrchr(build, '/') = '\0';
	snprintf(soc, sizeof soc, "%s/soc", getenv("NPUKB_CPUSIM_DIR"));
	memset(&spec, 0, sizeof(spec));
	spec.read_paths = reads;
	spec.argv = argv;
	spec.workdir = wd;
	spec.limits.wall_seconds = 10;
	cr_assert_eq(npukb_sandbox_run(&spec, &res, err, sizeof err), 0, "%s", err);
	cr_assert_eq(res.kind, NPUKB_EXIT_NORMAL);
	cr_assert_eq(res.exit_code, 2);
	spec.argv = argv2;
	cr_assert_eq(npukb_sandbox_run(&spec, &res, err, sizeof err), 0, "%s", err);
	cr_assert_eq(res.exit_code, 2);
}

Test(cpusim, fp16_selftest, .timeout = 120)
{
	struct npukb_sandbox_spec spec;
	struct npukb_sandbox_result res;
	char err[256], src[4096], inc[4096], *wd = tempdir();
	const char *cc[] = { "g++", "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", inc, src,
			     "-o", "fp16_selftest", NULL };
	const char *run[] = { "./fp16_selftest", NULL };
	char *dir;
	const char *reads[2] = { NULL, NULL };

	setup_env();
	/* The sandbox binds read paths at their own path: a VPATH build's
	 * NPUKB_CPUSIM_DIR (.../_build/sub/../../plugins/cpusim under
	 * distcheck) is resolved first. */
	dir = realpath(getenv("NPUKB_CPUSIM_DIR"), NULL);
	cr_assert_not_null(dir, "NPUKB_CPUSIM_DIR %s", getenv("NPUKB_CPUSIM_DIR"));
	reads[0] = dir;
	if (getenv("NPUKB_CXX"))
		cc[0] = getenv("NPUKB_CXX");
	snprintf(src, sizeof src, "%s/selftest/fp16_selftest.cpp", dir);
	snprintf(inc, sizeof inc, "-I%s/include", dir);
	memset(&spec, 0, sizeof(spec));
	spec.read_paths = reads;
	spec.argv = cc;
	spec.workdir = wd;
	spec.stderr_path = "cc.err";
	spec.limits.wall_seconds = 100;
	cr_assert_eq(npukb_sandbox_run(&spec, &res, err, sizeof err), 0, "%s", err);
	cr_assert_eq(res.exit_code, 0, "selftest did not compile (see %s/cc.err)", wd);
	spec.argv = run;
	spec.stderr_path = "run.err";
	cr_assert_eq(npukb_sandbox_run(&spec, &res, err, sizeof err), 0, "%s", err);
	cr_assert_eq(res.kind, NPUKB_EXIT_NORMAL);
	cr_assert_eq(res.exit_code, 0, "fp16 selftest failed (see %s/run.err)", wd);
	free(dir);
}
