/* npukb_cpusim/cores.h - the cores of one launch as coroutines, and what
 * passes between them: SyncAll and the cross-core flags.
 *
 * Owns: the launch's cores (one per block, or in a mix kernel one cube
 * core (AIC) and 1 or 2 vector cores (AIV) per AI core, as the kernel's
 * type and the SoC's cube:vector split say), each on its own stack; which
 * one runs; their saved state while suspended; the flag counters; the
 * deadlock report; the cycles each core is charged. Used by the harness
 * (runtime/harness.cpp) and by tests that run a kernel function directly.
 *
 * One core runs at a time until it ends, reaches SyncAll or waits for a
 * flag whose counter is 0. Then a core made ready by a flag runs, else
 * the next core not started yet (in launch order: an AI core's AIC, then
 * its AIVs), else a SyncAll whose every participant has arrived releases
 * them. When none of these is possible while cores wait, the device would
 * hang: an error naming every waiter. Deterministic: no threads.
 *
 * Only the running core's state is live in g, the UB arena and the cube
 * arena; a suspended core keeps g in its slot, and its arena bytes stay in
 * place until another core needs that arena (an AIV never touches the cube
 * arena, nor an AIC the UB). */
#ifndef NPUKB_CPUSIM_CORES_H
#define NPUKB_CPUSIM_CORES_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <deque>
#include <vector>

#include "npukb_cpusim/runtime.h"
#include "npukb_cpusim/cube_mem.h"

namespace npukb_cpusim {
namespace cores {

constexpr size_t STACK_BYTES = 4u << 20;
constexpr size_t GUARD_BYTES = 4096;
constexpr int FLAG_IDS = 16;
/* A flag counter holds 0..15 (CrossCoreSetFlag's documented range). */
constexpr int COUNTER_MAX = 15;

enum Wait : uint8_t { W_NONE, W_BARRIER, W_FLAG, W_READY };
/* Who meets at a SyncAll or a mode-0 flag: every core, or every core of
 * one kind. */
enum Class : uint8_t { C_ALL, C_AIC, C_AIV };

/* One core's cross-core flags: the counter of each id, as the times its
 * increments took effect (oldest first), and the sets of each family it
 * made that still wait for the other participants' (0: mode 0, 1: mode 1,
 * 2: mode 2 from an AIV). */
struct Flags {
	uint8_t n[FLAG_IDS], head[FLAG_IDS];
	double at[FLAG_IDS][COUNTER_MAX];
	uint8_t pn[3][FLAG_IDS], phead[3][FLAG_IDS];
	double pat[3][FLAG_IDS][COUNTER_MAX];
};

struct Core {
	ucontext_t ctx;
	unsigned char *stack;
	int64_t unit, idx, group;
	int32_t type;
	bool checks, started, done;
	uint8_t wait, cls;
	int flag;
	SrcLoc at;          /* where it waits */
	double release;     /* SyncAll: the barrier's time */
	State *saved;
	Flags *fl;
	unsigned char *ub_save, *cube_save;
};

/* What the kernel's type and the SoC make of a launch of `blocks`. */
struct Layout {
	int64_t blocks;
	int aic, aiv;  /* cores per block, split: the units' kinds */
	bool split;    /* the cores have one unit each, checked */
	int64_t ratio; /* not split: blocks * ratio cores with both units */
};

inline Layout layout(int64_t blocks)
{
	Layout l{blocks, 0, 0, false, 1};
	if (declared_kernel_type >= 0 && g.soc.aiv_per_aic > 0 && (declared_aic || declared_aiv)) {
		l.split = true;
		l.aic = declared_aic;
		l.aiv = declared_aiv;
	} else {
		l.ratio = declared_task_ratio > 1 ? declared_task_ratio : 1;
	}
	return l;
}

struct Sched {
	Layout l;
	int64_t per, units;
	void (*launch)(uint8_t **);
	uint8_t **args;
	std::vector<Core *> core;
	std::vector<uint8_t> ended;
	std::vector<double> end;
	std::deque<Core *> ready;
	int64_t next, nended;
	Core *cur, *ub_owner, *cube_owner;
	ucontext_t main_ctx;
	std::vector<unsigned char *> pool;
};

inline Sched *S;

[[noreturn]] inline void die(const char *what)
{
	fprintf(stderr, "npukb-cpusim-harness: %s\n", what);
	exit(2);
}

inline const char *kind(const Core *c)
{
	return !c->checks ? "block" : c->type == CORE_AIC ? "AIC" : "AIV";
}

inline Class class_of(const Core *c)
{
	return !c->checks ? C_ALL : c->type == CORE_AIC ? C_AIC : C_AIV;
}

/* The Core of unit u, made (not started) on first use; null once ended. */
inline Core *get(int64_t u)
{
	if (S->ended[u])
		return nullptr;
	Core *&c = S->core[u];
	if (c)
		return c;
	c = (Core *)calloc(1, sizeof(Core));
	if (!c)
		die("out of memory");
	c->unit = u;
	const Layout &l = S->l;
	if (l.split) {
		const int64_t grp = u / S->per, k = u % S->per;
		c->group = grp;
		c->checks = true;
		if (k < l.aic) {
			c->type = CORE_AIC;
			c->idx = grp;
		} else {
			c->type = CORE_AIV;
			c->idx = grp * l.aiv + (k - l.aic);
		}
	} else {
		c->group = u;
		c->idx = u;
		c->type = CORE_AIV;
	}
	return c;
}

inline Flags *flags(Core *c)
{
	if (!c->fl) {
		c->fl = (Flags *)calloc(1, sizeof(Flags));
		if (!c->fl)
			die("out of memory");
	}
	return c->fl;
}

/* ---- arenas -------------------------------------------------------------- */

inline bool uses_ub(const Core *c) { return !(c->checks && c->type == CORE_AIC); }
inline bool uses_cube(const Core *c) { return !(c->checks && c->type == CORE_AIV); }

/* The bytes a core holds in the cube arena and its race shadow. */
inline size_t cube_bytes(const State &st)
{
	size_t n = 0;
	for (int m = M_L1; m < M_COUNT; m++) {
		const uint32_t blocks = (st.cube_used[m] + 31) / 32;
		n += (size_t)blocks * (32 + 2 * sizeof(double) + 2 + sizeof(const char *) + sizeof(int));
	}
	return n;
}

/* save: arena -> buf, else buf -> arena. */
inline void cube_move(const State &st, unsigned char *buf, bool save)
{
	CubeShadow &sh = cube_shadow;
	for (int m = M_L1; m < M_COUNT; m++) {
		const uint32_t blocks = (st.cube_used[m] + 31) / 32, b0 = CUBE_ORIGIN[m] / 32;
		struct Part {
			void *p;
			size_t n;
		} parts[] = {{cube_arena + CUBE_ORIGIN[m], (size_t)blocks * 32},
			     {sh.w_done + b0, blocks * sizeof(double)},
			     {sh.r_done + b0, blocks * sizeof(double)},
			     {sh.w_pipe + b0, blocks},
			     {sh.r_pipe + b0, blocks},
			     {sh.w_file + b0, blocks * sizeof(const char *)},
			     {sh.w_line + b0, blocks * sizeof(int)}};
		for (const Part &p : parts) {
			if (save)
				memcpy(buf, p.p, p.n);
			else
				memcpy(p.p, buf, p.n);
			buf += p.n;
		}
	}
}

/* Makes the arenas c uses hold c's bytes, moving their holder's out. */
inline void claim(Core *c)
{
	if (uses_ub(c) && S->ub_owner != c) {
		Core *o = S->ub_owner;
		if (o && !o->done && o->saved) {
			o->ub_save = (unsigned char *)malloc(o->saved->ub_used ? o->saved->ub_used : 1);
			if (!o->ub_save)
				die("out of memory");
			memcpy(o->ub_save, ub_arena, o->saved->ub_used);
		}
		if (c->ub_save) {
			memcpy(ub_arena, c->ub_save, c->saved->ub_used);
			free(c->ub_save);
			c->ub_save = nullptr;
		}
		S->ub_owner = c;
	}
	if (uses_cube(c) && S->cube_owner != c) {
		Core *o = S->cube_owner;
		if (o && !o->done && o->saved) {
			o->cube_save = (unsigned char *)malloc(cube_bytes(*o->saved) + 1);
			if (!o->cube_save)
				die("out of memory");
			cube_move(*o->saved, o->cube_save, true);
		}
		if (c->cube_save) {
			cube_move(*c->saved, c->cube_save, false);
			free(c->cube_save);
			c->cube_save = nullptr;
		}
		S->cube_owner = c;
	}
}

/* ---- switching ----------------------------------------------------------- */

inline void entry()
{
	S->launch(S->args);
	S->cur->done = true;
	/* returns to main_ctx through uc_link */
}

inline unsigned char *get_stack()
{
	if (!S->pool.empty()) {
		unsigned char *s = S->pool.back();
		S->pool.pop_back();
		return s;
	}
	void *m = mmap(nullptr, STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
		       -1, 0);
	if (m == MAP_FAILED)
		die("cannot allocate a core's stack");
	/* A guard page turns a stack overflow into SIGSEGV, as on a thread. */
	mprotect(m, GUARD_BYTES, PROT_NONE);
	return (unsigned char *)m;
}

/* Apart from start(): getcontext "returns twice" for the compiler, which
 * would then have to assume the caller's locals clobbered. */
__attribute__((noinline)) inline void make_context(Core *c)
{
	c->stack = get_stack();
	getcontext(&c->ctx);
	c->ctx.uc_stack.ss_sp = c->stack;
	c->ctx.uc_stack.ss_size = STACK_BYTES;
	c->ctx.uc_link = &S->main_ctx;
	makecontext(&c->ctx, entry, 0);
}

inline void finish(Core *c)
{
	S->end[c->unit] = end_block();
	if (S->ub_owner == c)
		S->ub_owner = nullptr;
	if (S->cube_owner == c)
		S->cube_owner = nullptr;
	S->pool.push_back(c->stack);
	free(c->saved);
	free(c->ub_save);
	free(c->cube_save);
	free(c->fl);
	S->ended[c->unit] = 1;
	S->core[c->unit] = nullptr;
	S->nended++;
	free(c);
}

/* Runs c until it ends or waits. */
inline void run(Core *c)
{
	S->cur = c;
	if (swapcontext(&S->main_ctx, &c->ctx) != 0)
		die("swapcontext failed");
	if (c->done) {
		finish(c);
		return;
	}
	if (!c->saved && !(c->saved = (State *)malloc(sizeof(State))))
		die("out of memory");
	*c->saved = g;
}

inline void start(Core *c)
{
	const Layout &l = S->l;
	claim(c);
	begin_block(c->idx, l.blocks, l.split ? (c->type == CORE_AIC ? 1 : l.aiv) : l.ratio,
		    !uses_cube(c));
	g.core_type = c->type;
	g.core_checks = c->checks;
	g.race_unit = c->group;
	c->started = true;
	make_context(c);
	run(c);
}

/* Puts a suspended core back, keeping the launch-wide counters. */
inline void resume(Core *c)
{
	claim(c);
	const uint64_t gm_bytes = g.gm_bytes, vec = g.vec_instrs, dma = g.dma_instrs;
	const uint32_t peak = g.ub_peak;
	g = *c->saved;
	g.gm_bytes = gm_bytes;
	g.vec_instrs = vec;
	g.dma_instrs = dma;
	g.ub_peak = peak;
	run(c);
}

inline void suspend(Core *c)
{
	if (swapcontext(&c->ctx, &S->main_ctx) != 0)
		die("swapcontext failed");
}

/* ---- flags --------------------------------------------------------------- */

/* Whether unit u is of class k. */
inline bool in_class(int64_t u, Class k)
{
	if (k == C_ALL)
		return true;
	const bool aic = S->l.split && u % S->per < S->l.aic;
	return (k == C_AIC) == aic;
}

inline int64_t class_size(Class k)
{
	if (k == C_ALL)
		return S->units;
	return S->l.blocks * (k == C_AIC ? S->l.aic : S->l.aiv);
}

inline void counter_add(Core *t, int flag, double at, SrcLoc loc)
{
	Flags *f = flags(t);
	if (f->n[flag] >= COUNTER_MAX)
		fail("sync-race", loc,
		     "CrossCoreSetFlag(%d): the flag's counter on %s %lld would pass %d (its sets outrun its waits): "
		     "the device raises an error",
		     flag, kind(t), (long long)t->idx, COUNTER_MAX);
	f->at[flag][(f->head[flag] + f->n[flag]) % COUNTER_MAX] = at;
	f->n[flag]++;
	if (t->wait == W_FLAG && t->flag == flag) {
		t->wait = W_READY;
		S->ready.push_back(t);
	}
}

/* A set of family fam by c at time t; once every participant (units
 * [u0, u0 + n) of class k) has one pending, one of each is taken and each
 * target gets its counter raised at the latest of their times. Targets:
 * the participants, or for mode 2 from the AIVs their AIC. */
inline void family_set(Core *c, int fam, int flag, double t, int64_t u0, int64_t n, Class k, SrcLoc loc)
{
	Flags *f = flags(c);
	if (f->pn[fam][flag] >= COUNTER_MAX)
		fail("sync-race", loc,
		     "CrossCoreSetFlag<%d>(%d): %d sets by this core that the other cores have not matched: the "
		     "counter would pass %d",
		     fam, flag, COUNTER_MAX, COUNTER_MAX);
	f->pat[fam][flag][(f->phead[fam][flag] + f->pn[fam][flag]) % COUNTER_MAX] = t;
	f->pn[fam][flag]++;
	for (int64_t u = u0; u < u0 + n; u++) {
		if (!in_class(u, k))
			continue;
		Core *p = get(u);
		if (!p || !p->fl || p->fl->pn[fam][flag] == 0)
			return;
	}
	double at = 0;
	for (int64_t u = u0; u < u0 + n; u++) {
		if (!in_class(u, k))
			continue;
		Flags *pf = get(u)->fl;
		const double pt = pf->pat[fam][flag][pf->phead[fam][flag]];
		at = at > pt ? at : pt;
		pf->phead[fam][flag] = (uint8_t)((pf->phead[fam][flag] + 1) % COUNTER_MAX);
		pf->pn[fam][flag]--;
	}
	if (fam == 2) {
		if (Core *aic = get(c->group * S->per))
			counter_add(aic, flag, at, loc);
		return;
	}
	if (fam == 0)
		gm_epoch++; /* like SyncAll: the writes before it are ordered before those after */
	for (int64_t u = u0; u < u0 + n; u++)
		if (in_class(u, k))
			if (Core *tc = get(u))
				counter_add(tc, flag, at, loc);
}

inline void cross_set(int mode, int flag, double t, SrcLoc loc)
{
	Core *c = S->cur;
	const Layout &l = S->l;
	if (!l.split && g.soc.aiv_per_aic == 0)
		fail("sync-race", loc, "CrossCoreSetFlag: %s's AI cores are not split into cube and vector cores and have "
				       "no cross-core flags", g.soc.name);
	if (mode == 0) {
		const Class k = class_of(c);
		const int64_t n = class_size(k);
		const uint64_t room = k == C_AIC ? g.soc.cores / g.soc.aiv_per_aic : g.soc.cores;
		if ((uint64_t)n > room)
			fail("sync-race", loc,
			     "CrossCoreSetFlag<0>: %lld %s cores meet at the flag but %s has %llu: not all can be resident, "
			     "the device deadlocks",
			     (long long)n, k == C_AIC ? "cube" : "vector", g.soc.name, (unsigned long long)room);
		family_set(c, 0, flag, t, 0, S->units, k, loc);
		return;
	}
	const int64_t u0 = c->group * S->per;
	if (mode == 1) {
		if (c->type == CORE_AIC)
			fail("sync-race", loc, "CrossCoreSetFlag<1>: mode 1 pairs the vector cores of an AI core; this is its "
					       "cube core");
		family_set(c, 1, flag, t, u0, S->per, C_AIV, loc);
		return;
	}
	if (c->type == CORE_AIC) {
		for (int64_t u = u0 + l.aic; u < u0 + S->per; u++)
			if (Core *v = get(u))
				counter_add(v, flag, t, loc);
		return;
	}
	family_set(c, 2, flag, t, u0, S->per, C_AIV, loc);
}

inline void cross_wait(int flag, SrcLoc loc)
{
	Core *c = S->cur;
	Flags *f = flags(c);
	while (f->n[flag] == 0) {
		c->wait = W_FLAG;
		c->flag = flag;
		c->at = loc;
		suspend(c);
	}
	c->wait = W_NONE;
	const double at = f->at[flag][f->head[flag]];
	f->head[flag] = (uint8_t)((f->head[flag] + 1) % COUNTER_MAX);
	f->n[flag]--;
	/* The wait holds back every pipe's later instructions: all issue
	 * through the scalar unit. */
	wait_until(P_S, at);
}

/* ---- SyncAll ------------------------------------------------------------- */

inline void sync_all(SrcLoc loc, bool aiv_only)
{
	Core *c = S->cur;
	c->wait = W_BARRIER;
	c->cls = (uint8_t)(aiv_only ? class_of(c) : C_ALL);
	c->at = loc;
	suspend(c);
	c->wait = W_NONE;
	for (int p = 0; p < P_COUNT; p++)
		g.busy[p] = g.done[p] = c->release;
}

inline void end_core()
{
	Core *c = S->cur;
	c->done = true;
	suspend(c);
	die("a core that ended was resumed");
}

inline double core_time(const State &st)
{
	double t = 0;
	for (int i = 0; i < P_COUNT; i++)
		t = max2(t, max2(st.busy[i], st.done[i]));
	return t;
}

/* Releases one SyncAll whose every participant waits; false if none. */
inline bool release_barrier()
{
	for (int k = C_ALL; k <= C_AIV; k++) {
		int64_t n = 0;
		double t = 0;
		for (int64_t u = 0; u < S->units; u++) {
			Core *c = S->ended[u] ? nullptr : S->core[u];
			if (c && c->wait == W_BARRIER && c->cls == k) {
				n++;
				t = max2(t, core_time(*c->saved));
			}
		}
		if (n == 0 || n < class_size((Class)k))
			continue;
		t += g.soc.sync_all_cycles;
		gm_epoch++;
		for (int64_t u = 0; u < S->units; u++) {
			Core *c = S->ended[u] ? nullptr : S->core[u];
			if (c && c->wait == W_BARRIER && c->cls == k) {
				c->wait = W_READY;
				c->release = t;
				S->ready.push_back(c);
			}
		}
		return true;
	}
	return false;
}

/* Every live core waits and none can free another: the device hangs. */
[[noreturn]] inline void report_stuck()
{
	Core *first = nullptr;
	char msg[400] = "";
	size_t len = 0;
	int listed = 0, more = 0;
	bool barrier = false;
	for (int64_t u = 0; u < S->units; u++) {
		Core *c = S->ended[u] ? nullptr : S->core[u];
		if (!c || c->wait == W_NONE)
			continue;
		if (!first)
			first = c;
		barrier |= c->wait == W_BARRIER;
		if (listed == 6) {
			more++;
			continue;
		}
		char one[160];
		if (c->wait == W_FLAG)
			snprintf(one, sizeof one, "%s%s %lld waits for flag %d at %s:%d", listed ? "; " : "", kind(c),
				 (long long)c->idx, c->flag, c->at.file ? c->at.file : "?", c->at.line);
		else
			snprintf(one, sizeof one, "%s%s %lld waits at SyncAll at %s:%d", listed ? "; " : "", kind(c),
				 (long long)c->idx, c->at.file ? c->at.file : "?", c->at.line);
		if (len + strlen(one) < sizeof msg) {
			memcpy(msg + len, one, strlen(one) + 1);
			len += strlen(one);
		}
		listed++;
	}
	if (!first)
		die("no core waits, yet the launch is stuck");
	g = *first->saved; /* the report names its block */
	if (barrier && S->nended > 0 && !S->l.split)
		fail("sync-race", first->at,
		     "SyncAll: %lld of %lld blocks ended without reaching it (the others wait forever on the device)",
		     (long long)S->nended, (long long)S->units);
	fail("sync-race", first->at,
	     "deadlock: every core still running waits and none will set what they wait for (%lld of %lld cores "
	     "have ended); the device hangs: %s%s",
	     (long long)S->nended, (long long)S->units, msg, more ? "; and more" : "");
}

/* Runs the launch to its end; the cycles each core took are in
 * S->end, by unit. */
inline void run_launch(void (*launch)(uint8_t **), uint8_t **args, int64_t blocks)
{
	static Sched s;
	S = &s;
	s.l = layout(blocks);
	s.per = s.l.split ? s.l.aic + s.l.aiv : s.l.ratio;
	s.units = s.l.split ? blocks * s.per : blocks * s.l.ratio;
	s.launch = launch;
	s.args = args;
	s.core.assign((size_t)s.units, nullptr);
	s.ended.assign((size_t)s.units, 0);
	s.end.assign((size_t)s.units, 0.0);
	s.ready.clear();
	s.next = s.nended = 0;
	s.cur = s.ub_owner = s.cube_owner = nullptr;
	g.sync_all = sync_all;
	g.cross_set = cross_set;
	g.cross_wait = cross_wait;
	g.end_core = end_core;
	for (;;) {
		if (!s.ready.empty()) {
			Core *c = s.ready.front();
			s.ready.pop_front();
			resume(c);
		} else if (s.next < s.units) {
			start(get(s.next++));
		} else if (s.nended == s.units) {
			break;
		} else if (!release_barrier()) {
			report_stuck();
		}
	}
}

/* Adds each core's cycles to the physical core it ran on (cores: how
 * many the SoC has, blocks spread over them round-robin). An AI core's
 * cube and vector cores run side by side: each vector core is charged
 * until both it and its cube core are done. */
inline void charge(double *core_cycles, uint32_t cores)
{
	const Layout &l = S->l;
	for (int64_t u = 0; u < S->units; u++) {
		if (!l.split) {
			core_cycles[u % cores] += S->end[u];
			continue;
		}
		const int64_t grp = u / S->per, k = u % S->per;
		if (k < l.aic && l.aiv > 0)
			continue;
		const int64_t idx = k < l.aic ? grp : grp * l.aiv + (k - l.aic);
		double t = S->end[u];
		if (l.aic > 0 && k >= l.aic)
			t = max2(t, S->end[grp * S->per]);
		core_cycles[idx % cores] += t;
	}
}

} // namespace cores
} // namespace npukb_cpusim

#endif
