/*
 * speed.c - the speed model the engine evaluates on every dispatch: SMT
 * contention, NUMA locality and cache refill (docs/model.md [SMT], [NUMA],
 * [CACHE]).
 *
 * - SMT: with one busy sibling the calibrated pair matrix gives the speed
 *   (docs/model.md [SMT]); with more siblings (SMT4 synthetic machines)
 *   the demand formula s = (1 - eps) / max(1, sum of demands) ([SMT]).
 * - NUMA: s = 1 / (1 + m (r - 1)) with m the class's memory intensity and
 *   r the measured latency ratio between the run node and the home node
 *   (docs/model.md [NUMA]; r is not SLIT/10).  Kernel work on a machine
 *   whose kernel memory lives on one node (kernel_node, i386 NUMA-Q's
 *   lowmem on node 0) takes the same form with that node as home and the
 *   kernel's own memory intensity (docs/model.md "Kernel memory").
 * - Cache: warmth decays as exp(-evicted / cache size) with evicted = the
 *   KB of lines other tasks brought into the core the task left, on its CPU
 *   or an SMT sibling (docs/model.md
 *   [CACHE]): of the lines each touched (at most its own footprint), those
 *   it lacked - a hit evicts nothing; the refill penalty is charged as extra work, (1 - warmth) x
 *   lost KB x refill_ns[level] / refill_ref_kb[level]: the KB the cache
 *   being refilled must get back (the L2 from the package's LLC after a
 *   move to another core, the whole hierarchy from memory otherwise; less
 *   for a footprint larger than the cache touched at random,
 *   sl_cache_lost_kb) at the rate the preset's cost was stated for.
 *   refill_ns[NONE] is the cost of refilling in place a footprint that
 *   decayed while the task was away (its lines come back from memory); a
 *   hot return costs nothing because warmth is then 1.  Where the package
 *   has a last-level cache beyond the L2, a second warmth decays with what
 *   the whole package touched against the LLC's size, and lines still in
 *   the LLC cost the core level's refill instead (sl_cache_refill_in_place).
 *
 * Called on every dispatch: no allocation, O(busy siblings) at most.
 */
#include "hw/speed.h"

#include <math.h>

#include "base/minmax.h"

static const char *const wclass_names[SL_WC_COUNT] = {
	[SL_WC_INT] = "int",
	[SL_WC_FP] = "fp",
	[SL_WC_MEM] = "mem",
	[SL_WC_CACHE] = "cache",
	[SL_WC_SPIN] = "spin",
};

const char *sl_wclass_name(enum sl_wclass c)
{
	if ((unsigned)c >= SL_WC_COUNT)
		return "?";
	return wclass_names[c];
}

double sl_speed_smt(const struct sl_speed_model *m, enum sl_wclass self,
		    const enum sl_wclass *others, int n)
{
	if (n <= 0)
		return 1.0;
	if (n == 1)
		return m->smt_pair[self][others[0]];

	double demand = m->smt_demand[self];
	for (int i = 0; i < n; i++)
		demand += m->smt_demand[others[i]];
	return (1.0 - m->smt_eps) / (demand > 1.0 ? demand : 1.0);
}

/* The latency ratio of memory on node `home` seen from node `run`: 1 on
 * the same node, or where either is unknown or beyond the table. */
static inline double numa_ratio(const struct sl_speed_model *m, int run, int home)
{
	if (run != home && run >= 0 && home >= 0 &&
	    run < SL_MAX_NODES_SPEED && home < SL_MAX_NODES_SPEED)
		return m->numa_ratio[run][home];
	return 1.0;
}

double sl_speed_numa(const struct sl_speed_model *m, enum sl_wclass c, int run, int home,
		     double contention)
{
	double r = numa_ratio(m, run, home);
	if (r == 1.0 && contention <= 1.0)
		return 1.0;
	double mi = m->mem_intensity[c];
	/* solo time = (1 - m) computing + m stalled; stalls stretch by the
	 * latency ratio and by the bandwidth oversubscription */
	return 1.0 / (1.0 - mi + mi * r * (contention > 1.0 ? contention : 1.0));
}

double sl_speed_numa_mix(const struct sl_speed_model *m, enum sl_wclass c, int run,
			 const struct sl_mem_share *parts, int n, const double *contention)
{
	/* solo time = (1 - m) computing + m stalled, the stalls split over
	 * the nodes by where the pages are */
	double stalls = 0;
	for (int k = 0; k < n; k++) {
		double cont = contention[parts[k].node];
		stalls += parts[k].share * numa_ratio(m, run, parts[k].node) *
			  (cont > 1.0 ? cont : 1.0);
	}
	double mi = m->mem_intensity[c];
	return 1.0 / (1.0 - mi + mi * stalls);
}

double sl_speed_numa_kernel(const struct sl_speed_model *m, int run, double contention)
{
	if (m->kernel_node < 0)
		return 1.0;
	double r = numa_ratio(m, run, m->kernel_node);
	if (r == 1.0 && contention <= 1.0)
		return 1.0;
	double mi = m->kernel_mem_intensity;
	return 1.0 / (1.0 - mi + mi * r * (contention > 1.0 ? contention : 1.0));
}

double sl_cache_warmth(double evicted_kb, unsigned cache_kb)
{
	if (evicted_kb <= 0)
		return 1.0;
	if (cache_kb == 0)
		return 0.0;
	/* Past 40 cache sizes exp() is below 2^-57, which every reader, all
	 * of them taking 1 - warmth, rounds away: the cold answer at once,
	 * without exp (a deep runqueue's tasks come back this cold). */
	if (evicted_kb >= SL_CACHE_COLD * (double)cache_kb)
		return 0.0;
	return exp(-evicted_kb / (double)cache_kb);
}

double sl_cache_lost_kb(unsigned footprint_kb, unsigned cache_kb, bool random_access)
{
	if (footprint_kb <= cache_kb || cache_kb == 0)
		return footprint_kb;
	if (!random_access)
		return cache_kb;
	/* c of the cache's C lines are back: an access misses with
	 * probability 1 - c/F, of which 1 - C/F is the steady state's; each
	 * miss brings one line back, so the extra misses are the integral of
	 * (C - c) / (F - c) dc from 0 to C. */
	double f = footprint_kb, c = cache_kb;
	return c - (f - c) * log(f / (f - c));
}

/* The cache a refill at `level` brings a footprint back into: the L2 from
 * the LLC it shares after a move to another core, the whole hierarchy
 * (whose last level is the LLC) otherwise. */
static unsigned refill_reach(const struct sl_speed_model *m, enum sl_migr_level level)
{
	return level == SL_MIGR_CORE ? m->l2_kb : m->llc_kb;
}

sl_time sl_cache_refill(const struct sl_speed_model *m, enum sl_migr_level level,
			double warmth, unsigned footprint_kb, bool random_access)
{
	if ((unsigned)level > SL_MIGR_NODE || footprint_kb == 0 || warmth >= 1.0 ||
	    m->refill_ref_kb[level] == 0)
		return 0;
	if (warmth < 0.0)
		warmth = 0.0;
	/* part of the KB refill_ns[level] brings back that is lost */
	double share = sl_cache_lost_kb(footprint_kb, refill_reach(m, level), random_access) /
		       (double)m->refill_ref_kb[level];
	return (sl_time)((1.0 - warmth) * share * (double)m->refill_ns[level] + 0.5);
}

sl_time sl_cache_refill_in_place(const struct sl_speed_model *m, double l2_warmth,
				 double llc_warmth, unsigned footprint_kb, bool random_access)
{
	unsigned ref_core = m->refill_ref_kb[SL_MIGR_CORE], ref_mem = m->refill_ref_kb[SL_MIGR_NONE];
	if (footprint_kb == 0 || (l2_warmth >= 1.0 && llc_warmth >= 1.0) || ref_core == 0 ||
	    ref_mem == 0)
		return 0;
	double in_l2 = sl_cache_lost_kb(footprint_kb, m->l2_kb, random_access);
	double beyond_l2 = sl_cache_lost_kb(footprint_kb, m->llc_kb, random_access) - in_l2;
	double lost_l2 = 1.0 - sl_min_d(sl_max_d(l2_warmth, 0.0), 1.0);
	double lost_llc_all = 1.0 - sl_min_d(sl_max_d(llc_warmth, 0.0), 1.0);
	double lost_llc = sl_min_d(lost_l2, lost_llc_all);
	/* The L2's part at the core level's rate, what of it the LLC lost
	 * at memory's (per KB: refill_ns / refill_ref_kb; the factor is 1
	 * where both refer to the L2), then the part only the LLC held. */
	double mem_per_core = (double)ref_core / (double)ref_mem;
	double ns = in_l2 / (double)ref_core *
		    (lost_llc * ((double)m->refill_ns[SL_MIGR_NONE] * mem_per_core) +
		     (lost_l2 - lost_llc) * (double)m->refill_ns[SL_MIGR_CORE]);
	if (beyond_l2 > 0)
		ns += lost_llc_all * beyond_l2 / (double)ref_mem * (double)m->refill_ns[SL_MIGR_NONE];
	return (sl_time)(ns + 0.5);
}

double sl_cache_refill_max(const struct sl_speed_model *m)
{
	double max = 0;
	for (int level = SL_MIGR_NONE; level <= SL_MIGR_NODE; level++) {
		sl_time r = sl_cache_refill(m, (enum sl_migr_level)level, 0.0,
					    refill_reach(m, (enum sl_migr_level)level), false);
		if ((double)r > max)
			max = (double)r;
	}
	return max;
}
