/* gen_program.c - see gen_program.h. */
#include "gen_program.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char npukb_gen_common_cxx[] =
	"// Shared by npukb's generated programs (ascend-common/gen_program.c).\n"
	"#define CHECK(call)                            \\\n"
	"\tdo {                                   \\\n"
	"\t\tint e_ = (int)(call);          \\\n"
	"\t\tif (e_ != 0)                   \\\n"
	"\t\t\tfailed(#call, e_);     \\\n"
	"\t} while (0)\n"
	"\n"
	"// The runtime's own account of the failure goes with the code.\n"
	"[[noreturn]] void failed(const char *call, int e)\n"
	"{\n"
	"\tconst char *msg = aclGetRecentErrMsg();\n"
	"\tstd::fprintf(stderr, \"%s: %s failed with error %d: %s\\n\", kProgram, call, e,\n"
	"\t\t     msg && *msg ? msg : \"(no message from the runtime)\");\n"
	"\tstd::exit(3);\n"
	"}\n"
	"\n"
	"[[noreturn]] void usage(const char *why)\n"
	"{\n"
	"\tstd::fprintf(stderr, \"%s: %s\\n\", kProgram, why);\n"
	"\tstd::exit(2);\n"
	"}\n"
	"\n"
	"unsigned number(const char *s, const char *what)\n"
	"{\n"
	"\tchar *end = nullptr;\n"
	"\tunsigned long v = std::strtoul(s, &end, 10);\n"
	"\tif (!*s || *end || v > 1000000ul)\n"
	"\t\tusage(what);\n"
	"\treturn (unsigned)v;\n"
	"}\n"
	"\n"
	"template <typename A> void read_file(A &a)\n"
	"{\n"
	"\tFILE *f = std::fopen(a.path.c_str(), \"rb\");\n"
	"\tif (!f)\n"
	"\t\tusage((\"cannot open \" + a.path).c_str());\n"
	"\tstd::fseek(f, 0, SEEK_END);\n"
	"\tlong n = std::ftell(f);\n"
	"\tstd::fseek(f, 0, SEEK_SET);\n"
	"\tif (n < 0)\n"
	"\t\tusage((\"cannot size \" + a.path).c_str());\n"
	"\ta.host.resize((size_t)n);\n"
	"\tif (n > 0 && std::fread(a.host.data(), 1, (size_t)n, f) != (size_t)n)\n"
	"\t\tusage((\"cannot read \" + a.path).c_str());\n"
	"\tstd::fclose(f);\n"
	"\ta.bytes = (size_t)n;\n"
	"}\n"
	"\n"
	"// In place, so a mapping of the file held by npukb stays valid.\n"
	"template <typename A> void write_file(const A &a)\n"
	"{\n"
	"\tFILE *f = std::fopen(a.path.c_str(), \"r+b\");\n"
	"\tif (!f || std::fwrite(a.host.data(), 1, a.host.size(), f) != a.host.size() ||\n"
	"\t    std::fclose(f) != 0)\n"
	"\t\tusage((\"cannot write \" + a.path).c_str());\n"
	"}\n"
	"\n"
	"// Median, fastest and slowest of the timed launches, in microseconds.\n"
	"void write_stats(const char *path, std::vector<float> ms, unsigned runs, unsigned warmup)\n"
	"{\n"
	"\tstd::sort(ms.begin(), ms.end());\n"
	"\tsize_t n = ms.size();\n"
	"\tdouble median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2.0;\n"
	"\tFILE *f = std::fopen(path, \"w\");\n"
	"\tif (!f)\n"
	"\t\tusage(\"cannot write the stats file\");\n"
	"\tstd::fprintf(f, \"median_us %.3f\\nmin_us %.3f\\nmax_us %.3f\\nruns %u\\nwarmup %u\\n\",\n"
	"\t\t     median * 1000.0, ms.front() * 1000.0, ms.back() * 1000.0, runs, warmup);\n"
	"\tif (std::fclose(f) != 0)\n"
	"\t\tusage(\"cannot write the stats file\");\n"
	"}\n"
	"\n"
	"// warmup untimed launches, then runs launches each between two events:\n"
	"// launch(start, stop) records start before its work and stop after it\n"
	"// (both null when untimed). Returns the times in milliseconds.\n"
	"template <typename L>\n"
	"std::vector<float> time_launches(aclrtStream stream, unsigned warmup, unsigned runs, L launch)\n"
	"{\n"
	"\taclrtEvent start = nullptr, stop = nullptr;\n"
	"\tstd::vector<float> ms;\n"
	"\tCHECK(aclrtCreateEvent(&start));\n"
	"\tCHECK(aclrtCreateEvent(&stop));\n"
	"\tfor (unsigned w = 0; w < warmup; w++)\n"
	"\t\tlaunch(nullptr, nullptr);\n"
	"\tCHECK(aclrtSynchronizeStream(stream));\n"
	"\tfor (unsigned r = 0; r < runs; r++) {\n"
	"\t\tfloat t = 0.0f;\n"
	"\t\tlaunch(start, stop);\n"
	"\t\tCHECK(aclrtSynchronizeStream(stream));\n"
	"\t\tCHECK(aclrtEventElapsedTime(&t, start, stop));\n"
	"\t\tms.push_back(t);\n"
	"\t}\n"
	"\tCHECK(aclrtDestroyEvent(start));\n"
	"\tCHECK(aclrtDestroyEvent(stop));\n"
	"\treturn ms;\n"
	"}\n"
	"\n"
	"// Between samples: is device 0 (the one ASCEND_RT_VISIBLE_DEVICES shows)\n"
	"// still usable? Exit 0 yes, 4 no, 3 an ACL call failed.\n"
	"int health()\n"
	"{\n"
	"\taclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_ABNORMAL;\n"
	"\tunsigned char probe[32] = { 0x5a }, back[32] = { 0 };\n"
	"\tvoid *dev = nullptr;\n"
	"\tCHECK(aclInit(nullptr));\n"
	"\tCHECK(aclrtSetDevice(0));\n"
	"\tCHECK(aclrtQueryDeviceStatus(0, &st));\n"
	"\tif (st != ACL_RT_DEVICE_STATUS_NORMAL) {\n"
	"\t\tstd::fprintf(stderr, \"%s: device status %d\\n\", kProgram, (int)st);\n"
	"\t\treturn 4;\n"
	"\t}\n"
	"\tCHECK(aclrtMalloc(&dev, sizeof probe, ACL_MEM_MALLOC_HUGE_FIRST));\n"
	"\tCHECK(aclrtMemcpy(dev, sizeof probe, probe, sizeof probe, ACL_MEMCPY_HOST_TO_DEVICE));\n"
	"\tCHECK(aclrtMemcpy(back, sizeof back, dev, sizeof probe, ACL_MEMCPY_DEVICE_TO_HOST));\n"
	"\tCHECK(aclrtFree(dev));\n"
	"\tCHECK(aclrtResetDevice(0));\n"
	"\tCHECK(aclFinalize());\n"
	"\tif (std::memcmp(probe, back, sizeof probe) != 0) {\n"
	"\t\tstd::fprintf(stderr, \"%s: device memory does not read back\\n\", kProgram);\n"
	"\t\treturn 4;\n"
	"\t}\n"
	"\treturn 0;\n"
	"}\n";

int npukb_gen_is_identifier(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return 0;
	return 1;
}

char *npukb_gen_expand(const char *tpl, npukb_gen_put put, void *ctx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const char *p = tpl;

	if (!f)
		return NULL;
	while (*p) {
		const char *at = strchr(p, '@'), *end = at ? strchr(at + 1, '@') : NULL;
		size_t klen;

		if (!at || !end) {
			fputs(p, f);
			break;
		}
		fwrite(p, 1, (size_t)(at - p), f);
		klen = (size_t)(end - at - 1);
		if (klen == 6 && strncmp(at + 1, "COMMON", 6) == 0) {
			fputs(npukb_gen_common_cxx, f);
		} else if (!put(f, at + 1, klen, ctx)) {
			/* Not a placeholder (an '@' in the text): keep it. */
			fputc('@', f);
			p = at + 1;
			continue;
		}
		p = end + 1;
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
