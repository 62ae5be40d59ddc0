/*
 * speed.h - the hardware's truth: how fast a task runs on a logical CPU
 * given what its siblings run (SMT contention), where its memory lives
 * (NUMA locality) and how warm the caches are (refill cost on migration).
 *
 * Work is measured in reference nanoseconds: what a burst costs alone on an
 * idle CPU of this machine.  speed = smt x numa, in (0, 1]; cache refill is
 * charged as extra work at dispatch (simpler and deterministic).  Parameters
 * and sources: docs/model.md ([SMT], [NUMA], [CACHE] and the posts they
 * were checked against).
 *
 * Only the engine (sim/) calls these; policies never see them.
 */
#ifndef SL_HW_SPEED_H
#define SL_HW_SPEED_H

#include <stdbool.h>

#include "base/units.h"

/* Work classes (docs/model.md [SMT]). */
enum sl_wclass {
	SL_WC_INT,	/* integer, branchy: compilers, shells */
	SL_WC_FP,	/* floating point */
	SL_WC_MEM,	/* memory-latency bound: pointer chasing, JVM heaps */
	SL_WC_CACHE,	/* cache-thrashing streaming */
	SL_WC_SPIN,	/* spinning / polling */
	SL_WC_COUNT,
};

const char *sl_wclass_name(enum sl_wclass c);

#define SL_MAX_NODES_SPEED 64

struct sl_speed_model {
	/* SMT: speed of the row class when the column class runs on a sibling
	 * (two siblings).  For more siblings the demand formula is used:
	 * s_i = (1 - eps) / max(1, sum of demand). */
	double smt_pair[SL_WC_COUNT][SL_WC_COUNT];
	double smt_demand[SL_WC_COUNT];
	double smt_eps;

	/* NUMA: measured latency ratio r(run node, home node) (1.0 local) and
	 * memory intensity per class (fraction of solo time stalled on DRAM). */
	double numa_ratio[SL_MAX_NODES_SPEED][SL_MAX_NODES_SPEED];
	double mem_intensity[SL_WC_COUNT];
	/* Memory bandwidth of each node in "fully memory-bound task"
	 * equivalents: when the memory intensities of the running tasks whose
	 * memory lives on a node add up to more, their memory stalls stretch
	 * by sum / node_bw (docs/model.md [NUMA]).  0 = unlimited. */
	double node_bw;
	/* The kernel's own memory (docs/model.md "Kernel memory"): the node
	 * that holds it for every task's kernel work (system time), or -1 =
	 * each task's kernel memory lives with its own, and kernel work runs
	 * at the task's speed.  i386 NUMA-Q: node 0, the only node with
	 * lowmem (2.6.11 arch/i386/mm/discontig.c zone_sizes_init()).
	 * kernel_mem_intensity is the share of a kernel path stalled on
	 * memory when local (the quarter of speed_params.c's clock scaling). */
	int kernel_node;
	double kernel_mem_intensity;

	/* Cache: refill cost in ns by migration level of refill_ref_kb[level]
	 * KB of lost lines - the core level refills an L2 from the LLC the
	 * package shares, the others the whole cache hierarchy's share of a
	 * footprint from memory (docs/model.md [CACHE], "Which cache a refill
	 * refills"); the caches a footprint fits in; and how fast a running
	 * task touches (and so evicts) cache lines. */
	sl_time refill_ns[4];		/* index: enum sl_migr_level */
	unsigned refill_ref_kb[4];	/* KB refill_ns[level] brings back */
	unsigned l2_kb, llc_kb;		/* a core's L2, the last level it shares */
	double touch_kb_per_ms;

	/* Kernel costs (system time), in ns on this machine. */
	sl_time ctx_switch_ns;		/* direct cost of a context switch */
	sl_time fork_ns;		/* fork of a small process */
	sl_time exec_ns;		/* execve + mm setup */
	sl_time exit_ns;		/* exit + reap */
	sl_time ipi_ns;			/* latency of a reschedule IPI */
	sl_time migrate_ns;		/* runqueue migration bookkeeping */
	sl_time sched_scan_ns;		/* cost per task examined by an O(n) scan */
	sl_time sched_pick_ns;		/* cost of an O(1) pick */
};

/* How long a run of a CPU's migration thread keeps the CPU: the switch to
 * it and its runqueue work.  The switch away from it is the next task's
 * switch in, which that task pays (sim/sched.c switch_in), as every
 * switch's cost is its incoming task's. */
static inline sl_time sl_migration_run_ns(const struct sl_speed_model *m)
{
	return m->ctx_switch_ns + m->migrate_ns;
}

/* Where a task moves, for the cache refill cost. */
enum sl_migr_level {
	SL_MIGR_NONE = 0,	/* same logical CPU or an SMT sibling: shared caches */
	SL_MIGR_CORE = 1,	/* another core sharing the last-level cache (of the
				 * same package on every preset): private L2 lost */
	SL_MIGR_PACKAGE = 2,	/* another last-level cache, of another package or of
				 * a chiplet of the same one, on the same node */
	SL_MIGR_NODE = 3,	/* another node */
};

/* Speed factor of a task of class `self` on a core where the other busy
 * siblings run the classes in `others` (n of them; 0 = alone).  */
double sl_speed_smt(const struct sl_speed_model *m, enum sl_wclass self,
		    const enum sl_wclass *others, int n);

/* NUMA factor of a task of class `c` running on node `run` with its memory
 * on node `home`, whose memory bandwidth is oversubscribed by `contention`
 * (>= 1; 1 = not at all, see sl_numa_contention). */
double sl_speed_numa(const struct sl_speed_model *m, enum sl_wclass c, int run, int home,
		     double contention);

/* Part of a task's memory: the share of its pages on one node. */
struct sl_mem_share {
	int node;
	double share;
};

/* NUMA factor of a task of class `c` running on node `run` whose memory is
 * spread over n nodes (shares summing to 1), node k's bandwidth
 * oversubscribed by contention[parts[k].node]: each share of the stalls
 * stretches by its own node's latency ratio and contention.  With one
 * part it is sl_speed_numa. */
double sl_speed_numa_mix(const struct sl_speed_model *m, enum sl_wclass c, int run,
			 const struct sl_mem_share *parts, int n, const double *contention);

/* NUMA factor of kernel work on node `run` whose memory lives on
 * m->kernel_node, whose bandwidth is oversubscribed by `contention`:
 * sl_speed_numa with the kernel's memory intensity.  1 when kernel_node
 * is -1 (then kernel work runs at its task's own speed). */
double sl_speed_numa_kernel(const struct sl_speed_model *m, int run, double contention);

/* Oversubscription of a node's memory bandwidth when running tasks of
 * total memory intensity `demand` have their memory there (>= 1).
 * Inline: the engine evaluates it at every change of a node's demand. */
static inline double sl_numa_contention(const struct sl_speed_model *m, double demand)
{
	if (m->node_bw <= 0 || demand <= m->node_bw)
		return 1.0;
	return demand / m->node_bw;
}

/* KB of lines a task with `footprint_kb` must bring back into a cache of
 * `cache_kb` that lost all of them, over what it would miss anyway at
 * steady state.  A footprint that fits: all of it.  A larger one reused
 * as a cache-sized hot set (a compiler's): the cache.  One touched at
 * random (`random_access`: numa_test's walkers), which at steady state
 * hits only C/F of the time: the integral of (C - c) / (F - c) over the
 * c = 0..C lines refilled, C - (F - C) ln(F / (F - C)) (docs/model.md
 * "Footprints larger than the cache"). */
double sl_cache_lost_kb(unsigned footprint_kb, unsigned cache_kb, bool random_access);

/* Refill cost (reference ns of extra work) of dispatching a task whose cache
 * warmth at the destination is `warmth` in [0,1], moving by `level`, with
 * footprint `footprint_kb`: a move to another core of the package refills
 * its L2 from the shared LLC, any other its share of the whole hierarchy
 * (the LLC) from memory; in place without an LLC beyond the L2, its L2. */
sl_time sl_cache_refill(const struct sl_speed_model *m, enum sl_migr_level level,
			double warmth, unsigned footprint_kb, bool random_access);

/* Refill cost of coming back to the core a task left, on a package whose
 * last-level cache lies beyond the core's L2: of its footprint,
 * 1 - `l2_warmth` is gone from the L2, and 1 - `llc_warmth` from the LLC.
 * Lines only the L2 lost come back from the LLC at the core level's cost
 * (docs/model.md [CACHE]: cores sharing an LLC pay the L2 refill only),
 * lines the LLC lost too (at most the L2's loss of the L2's part, and
 * the LLC's of the part beyond the L2) from memory at the in-place cost. */
sl_time sl_cache_refill_in_place(const struct sl_speed_model *m, double l2_warmth,
				 double llc_warmth, unsigned footprint_kb, bool random_access);

/* The most refill any one dispatch can charge (the engine's check). */
double sl_cache_refill_max(const struct sl_speed_model *m);

/* KB of cache lines a task with `footprint_kb` has touched after running
 * `ns` at `touch_kb_per_ms` (it cannot displace more than its own
 * footprint).  Inline: the engine evaluates it at every settle of a
 * running task. */
static inline double sl_cache_touched_kb_at(double touch_kb_per_ms, sl_time ns,
					    unsigned footprint_kb)
{
	double kb = (double)ns / (double)SL_MSEC * touch_kb_per_ms;
	return kb < footprint_kb ? kb : footprint_kb;
}
/* ... at the rate m->touch_kb_per_ms (the engine passes a copy of it to
 * the above: sim/sched.c sl__settle_work). */
static inline double sl_cache_touched_kb(const struct sl_speed_model *m, sl_time ns,
					 unsigned footprint_kb)
{
	return sl_cache_touched_kb_at(m->touch_kb_per_ms, ns, footprint_kb);
}
/* Warmth left in a `cache_kb` cache after others brought in `evicted_kb`
 * (lines they missed; hits evict nothing): exp(-evicted / cache), the
 * survival of a line under random replacement (docs/model.md [CACHE]);
 * exactly 0 from SL_CACHE_COLD cache sizes on, where exp() is below
 * 2^-57 and 1 - warmth is 1.0 in double either way. */
#define SL_CACHE_COLD 40.0
double sl_cache_warmth(double evicted_kb, unsigned cache_kb);

#endif
