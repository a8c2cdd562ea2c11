/* harness.cpp - main() of a cpusim kernel executable.
 *
 *   <exe> --blocks N --soc NAME --stats FILE [--soc-dir DIR] [--tiling-key K] ARG...
 *   ARG, in kernel parameter order: in=PATH | out=PATH | inout=PATH |
 *        list=MEMBERS@PATH | tiling=PATH | ws=BYTES | none= (an absent
 *        optional input: a null GM_ADDR)
 *
 * Maps every tensor file shared and writable (the core reads outputs from the
 * files and hashes inputs afterwards, so nothing is copied), loads the SoC's
 * parameters, runs the launch's cores (npukb_cpusim/cores.h: a block each,
 * or a mix kernel's cube and vector cores) through the generated launcher,
 * and writes the cost model's figures to the stats file.
 * Exit status: 0 ran, 2 misuse of this command line or bad SoC data,
 * 3 a check failed (one `npukb-cpusim: <category>: ...` line on stderr). */
#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <algorithm>
#include <string>
#include <vector>

#include "npukb_cpusim/runtime.h"
#include "npukb_cpusim/cube_mem.h"
#include "npukb_cpusim/cores.h"
#include "gm_buffers.h"

#ifndef NPUKB_CPUSIM_SOCDIR
#define NPUKB_CPUSIM_SOCDIR "/usr/local/share/npukb/cpusim/soc"
#endif

extern "C" void npukb_cpusim_launch(uint8_t **args);
/* Emitted by the plugin's launcher; absent in hand-written launchers. */
extern "C" __attribute__((weak)) const int npukb_cpusim_nargs;
/* 0 when the sample's build turns CANN's --cce-auto-sync off. */
extern "C" __attribute__((weak)) const int npukb_cpusim_auto_sync;

namespace npukb_harness {

[[noreturn]] void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("npukb-cpusim-harness: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\nusage: <exe> --blocks N --soc NAME --stats FILE [--soc-dir DIR] [--tiling-key K] "
	      "{in=PATH|out=PATH|inout=PATH|list=MEMBERS@PATH|tiling=PATH|ws=BYTES|none=}...\n", stderr);
	va_end(ap);
	exit(2);
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

} // namespace npukb_harness

namespace {

namespace rt = npukb_cpusim;
using namespace npukb_harness;


/* ---- SoC parameters ----------------------------------------------------- */

struct Key {
	const char *name;
	double value;
	bool set;
};

enum {
	K_UB, K_CORES, K_CLOCK, K_GMRATE, K_HBM, K_MTE2LAT, K_MTE3LAT, K_ISSUE, K_VECLAT,
	K_REP, K_REPMUL, K_REPDIV, K_REPTR, K_SCALAR, K_GMSCALAR, K_LAUNCH, K_SYNCALL, K_CUBE,
	K_L1, K_L0A, K_L0B, K_L0C, K_BT, K_MTE1, K_FIXRATE, K_AIVPERAIC, K_COUNT
};

Key keys[K_COUNT] = {
	{"ub_bytes", 0, false}, {"cores", 0, false}, {"clock_mhz", 0, false},
	{"gm_bytes_per_cycle", 0, false}, {"hbm_gbps", 0, false}, {"mte2_latency", 0, false},
	{"mte3_latency", 0, false}, {"issue_cycles", 0, false}, {"vec_latency", 0, false},
	{"vec_repeat_cycles", 0, false}, {"vec_repeat_cycles_mul", 0, false},
	{"vec_repeat_cycles_div", 0, false}, {"vec_repeat_cycles_transc", 0, false},
	{"scalar_cycles", 0, false}, {"gm_scalar_cycles", 0, false}, {"launch_cycles", 0, false},
	/* Optional (a default), so older SoC files stay valid. */
	{"sync_all_cycles", 500, true},
	{"cube_fractal_cycles", 1, true},
	/* The cube buffers and pipes; defaults are 910B's (soc/ascend910b.conf). */
	{"l1_bytes", 524288, true}, {"l0a_bytes", 65536, true}, {"l0b_bytes", 65536, true},
	{"l0c_bytes", 131072, true}, {"bt_bytes", 1024, true},
	{"mte1_fractal_cycles", 1, true}, {"fix_bytes_per_cycle", 64, true},
	/* 910B's split: an AI core is 1 cube core and 2 vector cores. */
	{"aiv_per_aic", 2, true},
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
			p.sync_all_cycles = keys[K_SYNCALL].value;
			p.cube_fractal_cycles = keys[K_CUBE].value;
			p.l1_bytes = (uint32_t)keys[K_L1].value;
			p.l0a_bytes = (uint32_t)keys[K_L0A].value;
			p.l0b_bytes = (uint32_t)keys[K_L0B].value;
			p.l0c_bytes = (uint32_t)keys[K_L0C].value;
			p.bt_bytes = (uint32_t)keys[K_BT].value;
			p.mte1_fractal_cycles = keys[K_MTE1].value;
			p.fix_bytes_per_cycle = keys[K_FIXRATE].value;
			p.aiv_per_aic = (uint32_t)keys[K_AIVPERAIC].value;
			if (p.l1_bytes > rt::CUBE_ROOM[rt::M_L1] || p.l0a_bytes > rt::CUBE_ROOM[rt::M_L0A] ||
			    p.l0b_bytes > rt::CUBE_ROOM[rt::M_L0B] || p.l0c_bytes > rt::CUBE_ROOM[rt::M_L0C] ||
			    p.bt_bytes > rt::CUBE_ROOM[rt::M_BT] || p.fix_bytes_per_cycle <= 0)
				usage_error("%s: a cube buffer is larger than cpusim's arena holds, or fix_bytes_per_cycle is 0",
					    path);
			if (p.ub_bytes == 0 || p.ub_bytes > rt::UB_ARENA_BYTES || p.cores == 0 ||
			    p.clock_mhz <= 0 || p.gm_bytes_per_cycle <= 0 || p.hbm_bytes_per_cycle <= 0)
				usage_error("%s: ub_bytes, cores, clock_mhz, gm_bytes_per_cycle and hbm_gbps must be positive (ub_bytes <= %u)",
					    path, rt::UB_ARENA_BYTES);
			return;
		}
	}
	usage_error("unknown SoC '%s' (no %s/<prefix>.conf)", name, dir);
}

/* Two blocks wrote the same GM bytes between two SyncAlls: a race. It is
 * an error when the values differ (the output depends on which core is
 * last), a defect when the block that ran later wrote, in the overlap,
 * the very bytes the other had written (ForeachZeroInplace's zeros). */
void check_gm_write_overlap()
{
	rt::GmWrite *w = rt::gm_log;
	const size_t n = rt::gm_log_n;
	std::sort(w, w + n, [](const rt::GmWrite &a, const rt::GmWrite &b) {
		return a.epoch != b.epoch ? a.epoch < b.epoch : a.lo < b.lo;
	});
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n && w[j].epoch == w[i].epoch && w[j].lo < w[i].hi; j++) {
			if (w[j].block == w[i].block)
				continue;
			const rt::GmRange *r = rt::gm_find(w[j].lo);
			const uintptr_t end = w[i].hi < w[j].hi ? w[i].hi : w[j].hi;
			const rt::GmWrite &later = w[j].block > w[i].block ? w[j] : w[i];
			const bool same = later.chg_lo == later.chg_hi || later.chg_hi <= w[j].lo ||
					  later.chg_lo >= end;
			auto report = same ? rt::defect : rt::fail;
			report("sync-race", w[j].at,
			       "blocks %lld and %lld both write bytes %llu..%llu of argument %d (%s) with no SyncAll between "
			       "(block %lld's write at %s:%d): %s",
			       (long long)w[i].block, (long long)w[j].block,
			       (unsigned long long)(w[j].lo - (r ? r->lo : 0)),
			       (unsigned long long)(end - (r ? r->lo : 0) - 1), r ? r->arg : -1,
			       r ? r->role : "?", (long long)w[i].block, w[i].at.file ? w[i].at.file : "?",
			       w[i].at.line,
			       same ? "the same values, so the output does not depend on which core is last"
				    : "the result depends on which core is last");
		}
}

} // namespace

/* ---- run token -------------------------------------------------------------- */

/* The plugin writes a random token into the work folder before each
 * launch; the harness reads and deletes it before any code of the sample
 * runs (an executable's .preinit_array runs before every constructor, of
 * shared libraries too, and the harness object is linked first), and
 * writes it into the stats file. A kernel that writes a stats file of its
 * own and ends the process cannot know it, and the plugin then refuses
 * the timing. */
namespace {
char run_token[64];

void read_run_token(int, char **, char **)
{
	int fd = open("npukb-run-token", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, run_token, sizeof run_token - 1);
	run_token[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink("npukb-run-token");
}
} // namespace

__attribute__((section(".preinit_array"), used)) static void (*npukb_read_run_token)(int, char **, char **) =
	read_run_token;

/* hostdev.cpp, linked into host+device builds only. */
extern "C" void npukb_hostdev_args(const char *case_path, uint64_t *blocks, uint64_t *tiling_key,
				   std::vector<std::string> *args) __attribute__((weak));
extern "C" void npukb_hostdev_finish(void) __attribute__((weak));

/* One kernel argument, ROLE=VALUE: mapped and registered as a GM range. */
static void add_arg(const char *a, uint8_t **args, int &nargs)
{
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
	} else if (rl == 5 && strncmp(a, "inout", 5) == 0) {
		p = map_file(v, true, &size);
		r.role = "inout";
	} else if (rl == 4 && strncmp(a, "list", 4) == 0) {
		uint8_t *data;
		uint64_t data_size;
		if (rt::g.ngm + 2 > rt::MAX_GM_RANGES)
			usage_error("too many kernel arguments");
		p = build_list(v, &size, &data, &data_size);
		r.role = "list";
		/* The members' data: a range of its own, after the descriptor's. */
		rt::GmRange &dr = rt::g.gm[rt::g.ngm + 1];
		dr.lo = (uintptr_t)data;
		dr.hi = (uintptr_t)data + data_size;
		dr.read_hi = dr.hi;
		dr.arg = nargs;
		dr.role = "list data";
	} else if (rl == 6 && strncmp(a, "tiling", 6) == 0) {
		p = map_file(v, false, &size);
		r.role = "tiling";
	} else if (rl == 4 && strncmp(a, "none", 4) == 0) {
		/* An absent optional input: null, and no GM range of its own,
		 * so any access through it is outside every argument. */
		p = nullptr;
		r.role = "none";
	} else if (rl == 2 && strncmp(a, "ws", 2) == 0) {
		if (!parse_u64(v, &size))
			usage_error("bad workspace size '%s'", v);
		r.role = "ws";
		if (size == 0) {
			p = nullptr;
		} else {
			p = reserve_guarded(size, "ws");
			poison_tail(p);
		}
	} else {
		usage_error("unknown argument role in '%s'", a);
	}
	r.lo = (uintptr_t)p;
	r.hi = (uintptr_t)p + size;
	/* map_file reserves the whole device allocation of a tensor file. */
	r.read_hi = 0;
	if (strcmp(r.role, "in") == 0 || strcmp(r.role, "out") == 0 || strcmp(r.role, "inout") == 0)
		r.read_hi = r.lo + rt::gm_alloc_bytes(size);
	r.arg = nargs;
	if (p && size > 0)
		name_guarded(p, nargs, r.role);
	if (strcmp(r.role, "list") == 0)
		name_guarded(rt::g.gm[rt::g.ngm + 1].hi > rt::g.gm[rt::g.ngm + 1].lo
				     ? (uint8_t *)rt::g.gm[rt::g.ngm + 1].lo : nullptr,
			     nargs, "list data");
	if (size > 0)
		rt::g.ngm++;
	if (strcmp(r.role, "list") == 0) {
		/* Keep the data range next to the descriptor's. */
		if (rt::g.gm[rt::g.ngm].hi > rt::g.gm[rt::g.ngm].lo)
			rt::g.ngm++;
	}
	args[nargs++] = p;
}

int main(int argc, char **argv)
{
	uint64_t blocks = 0;
	const char *soc = nullptr, *stats = nullptr, *soc_dir = NPUKB_CPUSIM_SOCDIR;
	uint8_t *args[rt::MAX_GM_RANGES];
	int nargs = 0;
	const char *hostdev = nullptr;

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
			} else if (strcmp(a, "--tiling-key") == 0) {
				if (!parse_u64(v, &rt::g.tiling_key))
					usage_error("--tiling-key must be an unsigned integer, not '%s'", v);
			} else if (strcmp(a, "--hostdev") == 0) {
				hostdev = v;
			} else {
				usage_error("unknown option %s", a);
			}
			continue;
		}
		add_arg(a, args, nargs);
	}
	if (hostdev) {
		/* Host+device: the sample's tiling decides blocks, key, tiling
		 * data and workspace; the case file gives the tensors. */
		if (!npukb_hostdev_args)
			usage_error("--hostdev: this build has no op-host driver (kernel-only sample)");
		if (nargs > 0)
			usage_error("--hostdev takes the kernel arguments from the case file, not the command line");
		std::vector<std::string> extra;
		npukb_hostdev_args(hostdev, &blocks, &rt::g.tiling_key, &extra);
		for (const std::string &e : extra)
			add_arg(e.c_str(), args, nargs);
	}
	if (!blocks || !soc || !stats)
		usage_error("--blocks, --soc and --stats are required");
	if (&npukb_cpusim_auto_sync)
		rt::auto_sync = npukb_cpusim_auto_sync != 0;
	if (&npukb_cpusim_nargs && npukb_cpusim_nargs != nargs)
		usage_error("the kernel takes %d arguments, %d given", npukb_cpusim_nargs, nargs);
	load_soc(soc_dir, soc);

	/* Blocks are spread round-robin over the cores; a core runs its blocks
	 * back to back. */
	const uint32_t cores = rt::g.soc.cores;
	double *core_cycles = (double *)calloc(cores, sizeof(double));
	if (!core_cycles)
		usage_error("out of memory");
	/* Known before any block runs: KERNEL_TASK_TYPE_DEFAULT registers
	 * during static initialisation. */
	const rt::cores::Layout lay = rt::cores::layout((int64_t)blocks);
	const uint64_t ratio = lay.split ? (uint64_t)(lay.aiv > 0 ? lay.aiv : 1) : (uint64_t)lay.ratio;
	install_guard_handler();
	rt::cores::run_launch(npukb_cpusim_launch, args, (int64_t)blocks);
	rt::cores::charge(core_cycles, cores);
	check_gm_write_overlap();
	check_poison();
	write_back_tails();
	if (hostdev)
		npukb_hostdev_finish();
	double slowest = 0;
	for (uint32_t c = 0; c < cores; c++)
		slowest = rt::max2(slowest, core_cycles[c]);
	const double hbm_bound = (double)rt::g.gm_bytes / rt::g.soc.hbm_bytes_per_cycle;
	const double cycles = ceil(rt::max2(slowest, hbm_bound) + rt::g.soc.launch_cycles);

	fflush(stdout);
	/* Created here, never found: one that exists was written by the
	 * kernel. */
	const int sfd = open(stats, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (sfd < 0 && errno == EEXIST)
		rt::fail("sandbox-violation", rt::SrcLoc(rt::SrcLocTag(), "?", 0),
			 "the kernel wrote the harness's stats file %s itself", stats);
	FILE *f = sfd >= 0 ? fdopen(sfd, "w") : nullptr;
	if (!f)
		usage_error("cannot write %s: %s", stats, strerror(errno));
	fprintf(f, "token=%s\n", run_token);
	fprintf(f, "cycles=%.0f\ntime_us=%.3f\nsoc=%s\nblocks=%llu\ncore_cycles_max=%.0f\n"
		   "hbm_bound_cycles=%.0f\ngm_bytes=%llu\nub_peak_bytes=%u\ndma_instrs=%llu\nvec_instrs=%llu\n"
		   "vector_blocks=%llu\n",
		cycles, cycles / rt::g.soc.clock_mhz, rt::g.soc.name, (unsigned long long)blocks, slowest,
		hbm_bound, (unsigned long long)rt::g.gm_bytes, rt::g.ub_peak,
		(unsigned long long)rt::g.dma_instrs, (unsigned long long)rt::g.vec_instrs,
		(unsigned long long)(blocks * ratio));
	for (int i = 0; i < rt::defects_n; i++)
		fprintf(f, "defect=%s\n", rt::defects_seen[i].text);
	if (fclose(f) != 0)
		usage_error("cannot write %s", stats);
	/* The kernel's static objects are not torn down: their checks belong to
	 * the blocks, which are over. */
	_exit(0);
}
