/* harness.cpp - main() of a cpusim kernel executable.
 *
 *   <exe> --blocks N --soc NAME --stats FILE [--soc-dir DIR] ARG...
 *   ARG, in kernel parameter order: in=PATH | out=PATH | tiling=PATH | ws=BYTES
 *
 * Maps every tensor file shared and writable (the core reads outputs from the
 * files and hashes inputs afterwards, so nothing is copied), loads the SoC's
 * parameters, runs blocks 0..N-1 one after the other through the generated
 * launcher, and writes the cost model's figures to the stats file.
 * Exit status: 0 ran, 2 misuse of this command line or bad SoC data,
 * 3 a check failed (one `npukb-cpusim: <category>: ...` line on stderr). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "npukb_cpusim/runtime.h"

#ifndef NPUKB_CPUSIM_SOCDIR
#define NPUKB_CPUSIM_SOCDIR "/usr/local/share/npukb/cpusim/soc"
#endif

extern "C" void npukb_cpusim_launch(uint8_t **args);
/* Emitted by the plugin's launcher; absent in hand-written launchers. */
extern "C" __attribute__((weak)) const int npukb_cpusim_nargs;

namespace {

namespace rt = npukb_cpusim;

[[noreturn]] void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("npukb-cpusim-harness: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\nusage: <exe> --blocks N --soc NAME --stats FILE [--soc-dir DIR] "
	      "{in=PATH|out=PATH|tiling=PATH|ws=BYTES}...\n", stderr);
	va_end(ap);
	exit(2);
}

/* ---- SoC parameters ----------------------------------------------------- */

struct Key {
	const char *name;
	double value;
	bool set;
};

enum {
	K_UB, K_CORES, K_CLOCK, K_GMRATE, K_HBM, K_MTE2LAT, K_MTE3LAT, K_ISSUE, K_VECLAT,
	K_REP, K_REPMUL, K_REPDIV, K_REPTR, K_SCALAR, K_GMSCALAR, K_LAUNCH, K_COUNT
};

Key keys[K_COUNT] = {
	{"ub_bytes", 0, false}, {"cores", 0, false}, {"clock_mhz", 0, false},
	{"gm_bytes_per_cycle", 0, false}, {"hbm_gbps", 0, false}, {"mte2_latency", 0, false},
	{"mte3_latency", 0, false}, {"issue_cycles", 0, false}, {"vec_latency", 0, false},
	{"vec_repeat_cycles", 0, false}, {"vec_repeat_cycles_mul", 0, false},
	{"vec_repeat_cycles_div", 0, false}, {"vec_repeat_cycles_transc", 0, false},
	{"scalar_cycles", 0, false}, {"gm_scalar_cycles", 0, false}, {"launch_cycles", 0, false},
};

char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Applies the keys outside any section, then those of section [soc]. */
void parse_conf(const char *path, const char *soc)
{
	FILE *f = fopen(path, "r");
	if (!f)
		usage_error("cannot open %s: %s", path, strerror(errno));
	char line[512];
	int lineno = 0;
	bool in_scope = true;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *s = trim(line);
		if (!*s)
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');
			if (!end)
				usage_error("%s:%d: unterminated section", path, lineno);
			*end = '\0';
			in_scope = strcmp(trim(s + 1), soc) == 0;
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq)
			usage_error("%s:%d: expected key = value", path, lineno);
		*eq = '\0';
		const char *k = trim(s);
		char *v = trim(eq + 1), *endp;
		errno = 0;
		double d = strtod(v, &endp);
		if (errno || endp == v || *endp || d < 0)
			usage_error("%s:%d: bad value '%s'", path, lineno, v);
		int i;
		for (i = 0; i < K_COUNT; i++)
			if (strcmp(keys[i].name, k) == 0)
				break;
		if (i == K_COUNT)
			usage_error("%s:%d: unknown key '%s'", path, lineno, k);
		if (in_scope) {
			keys[i].value = d;
			keys[i].set = true;
		}
	}
	fclose(f);
}

/* ascend910b2 -> soc/ascend910b2.conf, else the longest prefix that has a
 * file (ascend910b.conf), so one file serves a family. */
void load_soc(const char *dir, const char *name)
{
	char soc[64];
	size_t n = strlen(name);
	if (n == 0 || n >= sizeof soc)
		usage_error("bad --soc '%s'", name);
	for (size_t i = 0; i <= n; i++)
		soc[i] = (char)tolower((unsigned char)name[i]);
	char path[4096];
	for (size_t len = n; len > 0; len--) {
		int w = snprintf(path, sizeof path, "%s/%.*s.conf", dir, (int)len, soc);
		if (w < 0 || (size_t)w >= sizeof path)
			usage_error("SoC directory path too long");
		if (access(path, R_OK) == 0) {
			parse_conf(path, soc);
			for (int i = 0; i < K_COUNT; i++)
				if (!keys[i].set)
					usage_error("%s lacks key '%s'", path, keys[i].name);
			rt::SocParams &p = rt::g.soc;
			snprintf(p.name, sizeof p.name, "%s", soc);
			p.ub_bytes = (uint32_t)keys[K_UB].value;
			p.cores = (uint32_t)keys[K_CORES].value;
			p.clock_mhz = keys[K_CLOCK].value;
			p.gm_bytes_per_cycle = keys[K_GMRATE].value;
			p.hbm_bytes_per_cycle = keys[K_HBM].value * 1e3 / p.clock_mhz;
			p.mte2_latency = keys[K_MTE2LAT].value;
			p.mte3_latency = keys[K_MTE3LAT].value;
			p.issue_cycles = keys[K_ISSUE].value;
			p.vec_latency = keys[K_VECLAT].value;
			p.vec_repeat_cycles = keys[K_REP].value;
			p.vec_repeat_cycles_mul = keys[K_REPMUL].value;
			p.vec_repeat_cycles_div = keys[K_REPDIV].value;
			p.vec_repeat_cycles_transc = keys[K_REPTR].value;
			p.scalar_cycles = keys[K_SCALAR].value;
			p.gm_scalar_cycles = keys[K_GMSCALAR].value;
			p.launch_cycles = keys[K_LAUNCH].value;
			if (p.ub_bytes == 0 || p.ub_bytes > rt::UB_ARENA_BYTES || p.cores == 0 ||
			    p.clock_mhz <= 0 || p.gm_bytes_per_cycle <= 0 || p.hbm_bytes_per_cycle <= 0)
				usage_error("%s: ub_bytes, cores, clock_mhz, gm_bytes_per_cycle and hbm_gbps must be positive (ub_bytes <= %u)",
					    path, rt::UB_ARENA_BYTES);
			return;
		}
	}
	usage_error("unknown SoC '%s' (no %s/<prefix>.conf)", name, dir);
}

/* ---- kernel arguments ------------------------------------------------------ */

unsigned char empty_arg[32];

uint8_t *map_file(const char *path, bool writable, uint64_t *size)
{
	int fd = open(path, writable ? O_RDWR : O_RDONLY);
	if (fd < 0)
		usage_error("cannot open %s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		usage_error("%s is not a regular file", path);
	*size = (uint64_t)st.st_size;
	if (st.st_size == 0) {
		close(fd);
		return empty_arg;
	}
	/* Tiling is read through a private copy-on-write mapping: a kernel
	 * that scribbles on it must not change the file the core reuses. */
	void *p = mmap(nullptr, (size_t)st.st_size, PROT_READ | PROT_WRITE,
		       writable ? MAP_SHARED : MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		usage_error("cannot map %s: %s", path, strerror(errno));
	close(fd);
	return (uint8_t *)p;
}

bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

} // namespace

int main(int argc, char **argv)
{
	uint64_t blocks = 0;
	const char *soc = nullptr, *stats = nullptr, *soc_dir = NPUKB_CPUSIM_SOCDIR;
	uint8_t *args[rt::MAX_GM_RANGES];
	int nargs = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "--", 2) == 0) {
			if (i + 1 >= argc)
				usage_error("%s needs a value", a);
			const char *v = argv[++i];
			if (strcmp(a, "--blocks") == 0) {
				if (!parse_u64(v, &blocks) || blocks < 1 || blocks > 65535)
					usage_error("--blocks must be 1..65535, not '%s'", v);
			} else if (strcmp(a, "--soc") == 0) {
				soc = v;
			} else if (strcmp(a, "--stats") == 0) {
				stats = v;
			} else if (strcmp(a, "--soc-dir") == 0) {
				soc_dir = v;
			} else {
				usage_error("unknown option %s", a);
			}
			continue;
		}
		if (nargs >= rt::MAX_GM_RANGES)
			usage_error("more than %d kernel arguments", rt::MAX_GM_RANGES);
		const char *eq = strchr(a, '=');
		if (!eq)
			usage_error("argument '%s' is not ROLE=VALUE", a);
		const size_t rl = (size_t)(eq - a);
		const char *v = eq + 1;
		rt::GmRange &r = rt::g.gm[rt::g.ngm];
		uint64_t size = 0;
		uint8_t *p;
		if (rl == 2 && strncmp(a, "in", 2) == 0) {
			p = map_file(v, true, &size);
			r.role = "in";
		} else if (rl == 3 && strncmp(a, "out", 3) == 0) {
			p = map_file(v, true, &size);
			r.role = "out";
		} else if (rl == 6 && strncmp(a, "tiling", 6) == 0) {
			p = map_file(v, false, &size);
			r.role = "tiling";
		} else if (rl == 2 && strncmp(a, "ws", 2) == 0) {
			if (!parse_u64(v, &size))
				usage_error("bad workspace size '%s'", v);
			r.role = "ws";
			if (size == 0) {
				p = nullptr;
			} else {
				void *m = mmap(nullptr, size, PROT_READ | PROT_WRITE,
					       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
				if (m == MAP_FAILED)
					usage_error("cannot allocate a %llu-byte workspace", (unsigned long long)size);
				p = (uint8_t *)m;
			}
		} else {
			usage_error("unknown argument role in '%s'", a);
		}
		r.lo = (uintptr_t)p;
		r.hi = (uintptr_t)p + size;
		r.arg = nargs;
		if (size > 0)
			rt::g.ngm++;
		args[nargs++] = p;
	}
	if (!blocks || !soc || !stats)
		usage_error("--blocks, --soc and --stats are required");
	if (&npukb_cpusim_nargs && npukb_cpusim_nargs != nargs)
		usage_error("the kernel takes %d arguments, %d given", npukb_cpusim_nargs, nargs);
	load_soc(soc_dir, soc);

	/* Blocks are spread round-robin over the cores; a core runs its blocks
	 * back to back. */
	const uint32_t cores = rt::g.soc.cores;
	double *core_cycles = (double *)calloc(cores, sizeof(double));
	if (!core_cycles)
		usage_error("out of memory");
	for (uint64_t b = 0; b < blocks; b++) {
		rt::begin_block((int64_t)b, (int64_t)blocks);
		npukb_cpusim_launch(args);
		core_cycles[b % cores] += rt::end_block();
	}
	double slowest = 0;
	for (uint32_t c = 0; c < cores; c++)
		slowest = rt::max2(slowest, core_cycles[c]);
	const double hbm_bound = (double)rt::g.gm_bytes / rt::g.soc.hbm_bytes_per_cycle;
	const double cycles = ceil(rt::max2(slowest, hbm_bound) + rt::g.soc.launch_cycles);

	fflush(stdout);
	FILE *f = fopen(stats, "w");
	if (!f)
		usage_error("cannot write %s: %s", stats, strerror(errno));
	fprintf(f, "cycles=%.0f\ntime_us=%.3f\nsoc=%s\nblocks=%llu\ncore_cycles_max=%.0f\n"
		   "hbm_bound_cycles=%.0f\ngm_bytes=%llu\nub_peak_bytes=%u\ndma_instrs=%llu\nvec_instrs=%llu\n",
		cycles, cycles / rt::g.soc.clock_mhz, rt::g.soc.name, (unsigned long long)blocks, slowest,
		hbm_bound, (unsigned long long)rt::g.gm_bytes, rt::g.ub_peak,
		(unsigned long long)rt::g.dma_instrs, (unsigned long long)rt::g.vec_instrs);
	if (fclose(f) != 0)
		usage_error("cannot write %s", stats);
	/* The kernel's static objects are not torn down: their checks belong to
	 * the blocks, which are over. */
	_exit(0);
}
