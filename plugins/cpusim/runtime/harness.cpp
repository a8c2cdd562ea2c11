/* harness.cpp - main() of a cpusim kernel executable.
 *
 *   <exe> --blocks N --soc NAME --stats FILE [--soc-dir DIR] [--tiling-key K] ARG...
 *   ARG, in kernel parameter order: in=PATH | out=PATH | inout=PATH |
 *        list=MEMBERS@PATH | tiling=PATH | ws=BYTES | none= (an absent
 *        optional input: a null GM_ADDR)
 *
 * Maps every tensor file shared and writable (the core reads outputs from the
 * files and hashes inputs afterwards, so nothing is copied), loads the SoC's
 * parameters, runs blocks 0..N-1 one after the other through the generated
 * launcher, and writes the cost model's figures to the stats file.
 * Each block runs as a coroutine on its own stack so that SyncAll can
 * suspend it until every block has arrived (see run_blocks).
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
#include <ucontext.h>
#include <algorithm>
#include <string>
#include <vector>

#include "npukb_cpusim/runtime.h"
#include "npukb_cpusim/cube_mem.h"
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
	K_L1, K_L0A, K_L0B, K_L0C, K_BT, K_MTE1, K_FIXRATE, K_COUNT
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

/* ---- blocks as coroutines ---------------------------------------------------- */

/* Blocks run one at a time, in index order, each until it ends or reaches
 * SyncAll. Once every block has been started, the blocks waiting at SyncAll
 * are resumed in index order, all pipes at the barrier's time; and so on
 * until all have ended. Only one block's state is live in rt::g and the UB
 * arena at a time: a suspended block's state and UB contents are saved in
 * its slot. Deterministic: no threads, a fixed order. */
constexpr size_t STACK_BYTES = 4u << 20;
constexpr size_t GUARD_BYTES = 4096;

struct Slot {
	ucontext_t ctx;
	unsigned char *stack;
	bool done, waiting;
	rt::SrcLoc at;          /* the SyncAll it waits at */
	rt::State saved;
	unsigned char *ub_save;
	uint32_t ub_len;
};

ucontext_t main_ctx;
Slot *cur_slot;
uint8_t **kernel_args;
unsigned char *stack_pool[rt::MAX_GM_RANGES + 64];
int npool;

unsigned char *get_stack()
{
	if (npool > 0)
		return stack_pool[--npool];
	void *m = mmap(nullptr, STACK_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (m == MAP_FAILED)
		usage_error("cannot allocate a block stack");
	/* A guard page turns a stack overflow into SIGSEGV, as on a thread. */
	mprotect(m, GUARD_BYTES, PROT_NONE);
	return (unsigned char *)m;
}

void put_stack(unsigned char *s)
{
	if (npool < (int)(sizeof stack_pool / sizeof stack_pool[0]))
		stack_pool[npool++] = s;
	else
		munmap(s, STACK_BYTES);
}

void block_entry();

/* Apart from run_blocks: getcontext "returns twice" for the compiler, which
 * would then have to assume run_blocks' locals clobbered. */
__attribute__((noinline)) Slot *new_slot()
{
	Slot *s = (Slot *)calloc(1, sizeof(Slot));
	if (!s)
		usage_error("out of memory");
	s->stack = get_stack();
	getcontext(&s->ctx);
	s->ctx.uc_stack.ss_sp = s->stack;
	s->ctx.uc_stack.ss_size = STACK_BYTES;
	s->ctx.uc_link = &main_ctx;
	makecontext(&s->ctx, block_entry, 0);
	return s;
}

void block_entry()
{
	npukb_cpusim_launch(kernel_args);
	cur_slot->done = true;
	/* returns to main_ctx through uc_link */
}

void sync_all_hook(rt::SrcLoc loc)
{
	Slot *s = cur_slot;
	s->waiting = true;
	s->at = loc;
	swapcontext(&s->ctx, &main_ctx);
}

/* Switches to the slot's block and back; returns true if it now waits. */
bool run_slot(Slot *s)
{
	cur_slot = s;
	if (swapcontext(&main_ctx, &s->ctx) != 0)
		usage_error("swapcontext failed");
	return s->waiting;
}

void save_slot(Slot *s)
{
	s->saved = rt::g;
	s->ub_len = rt::g.ub_used;
	s->ub_save = (unsigned char *)malloc(s->ub_len ? s->ub_len : 1);
	if (!s->ub_save)
		usage_error("out of memory");
	memcpy(s->ub_save, rt::ub_arena, s->ub_len);
}

/* Puts a saved block back, keeping the launch-wide counters. */
void restore_slot(Slot *s)
{
	const uint64_t gm_bytes = rt::g.gm_bytes, vec = rt::g.vec_instrs, dma = rt::g.dma_instrs;
	const uint32_t peak = rt::g.ub_peak;
	rt::g = s->saved;
	rt::g.gm_bytes = gm_bytes;
	rt::g.vec_instrs = vec;
	rt::g.dma_instrs = dma;
	rt::g.ub_peak = peak;
	memcpy(rt::ub_arena, s->ub_save, s->ub_len);
	free(s->ub_save);
	s->ub_save = nullptr;
}

double block_time(const rt::State &st)
{
	double t = 0;
	for (int i = 0; i < rt::P_COUNT; i++)
		t = rt::max2(t, rt::max2(st.busy[i], st.done[i]));
	return t;
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

/* blocks: the launch's block dim; a mix kernel (KERNEL_TYPE_MIX_AIC_1_2)
 * runs `ratio` vector blocks per launched block. */
void run_blocks(uint64_t launched, uint64_t ratio, double *core_cycles)
{
	const uint64_t blocks = launched * ratio;
	const uint32_t cores = rt::g.soc.cores;
	Slot **waiting = (Slot **)calloc(blocks, sizeof(Slot *));
	Slot **next = (Slot **)calloc(blocks, sizeof(Slot *));
	uint64_t *idx = (uint64_t *)calloc(blocks, sizeof(uint64_t));
	uint64_t *nidx = (uint64_t *)calloc(blocks, sizeof(uint64_t));
	if (!waiting || !next || !idx || !nidx)
		usage_error("out of memory");
	uint64_t nwait = 0, nended = 0;
	rt::g.sync_all = sync_all_hook;

	/* Runs the slot until it ends or waits, and files it accordingly. */
	auto step = [&](Slot *s, uint64_t b, Slot **into, uint64_t *into_idx, uint64_t *n) {
		if (run_slot(s)) {
			save_slot(s);
			into[*n] = s;
			into_idx[*n] = b;
			(*n)++;
			return;
		}
		core_cycles[b % cores] += rt::end_block();
		put_stack(s->stack);
		free(s);
		nended++;
	};

	for (uint64_t b = 0; b < blocks; b++) {
		rt::begin_block((int64_t)b, (int64_t)launched, (int64_t)ratio);
		step(new_slot(), b, waiting, idx, &nwait);
	}
	while (nwait > 0) {
		if (nended > 0) {
			restore_slot(waiting[0]);
			rt::fail("sync-race", waiting[0]->at,
				 "SyncAll: %llu of %llu blocks ended without reaching it (the others wait forever on the device)",
				 (unsigned long long)nended, (unsigned long long)blocks);
		}
		double t = 0;
		for (uint64_t i = 0; i < nwait; i++)
			t = rt::max2(t, block_time(waiting[i]->saved));
		t += rt::g.soc.sync_all_cycles;
		rt::gm_epoch++;
		uint64_t nnext = 0;
		for (uint64_t i = 0; i < nwait; i++) {
			Slot *s = waiting[i];
			restore_slot(s);
			s->waiting = false;
			for (int p = 0; p < rt::P_COUNT; p++)
				rt::g.busy[p] = rt::g.done[p] = t;
			step(s, idx[i], next, nidx, &nnext);
		}
		Slot **ts = waiting;
		waiting = next;
		next = ts;
		uint64_t *ti = idx;
		idx = nidx;
		nidx = ti;
		nwait = nnext;
	}
	free(waiting);
	free(next);
	free(idx);
	free(nidx);
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
	kernel_args = args;
	/* Known before any block runs: KERNEL_TASK_TYPE_DEFAULT registers
	 * during static initialisation. */
	const uint64_t ratio = rt::declared_task_ratio > 1 ? (uint64_t)rt::declared_task_ratio : 1;
	install_guard_handler();
	run_blocks(blocks, ratio, core_cycles);
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
