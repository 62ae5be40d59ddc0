/*
 * speed_params.c - the parameter sets of the speed model: SMT pair
 * matrices per processor generation, memory intensity per work class, NUMA
 * latency ratios derived from the SLIT, cache refill and decay, and the
 * kernel's own path costs scaled to the machine's clock.
 *
 * Every number is explained in docs/model.md ("The machine model"); in
 * short:
 * - NetBurst pair matrix: docs/model.md [SMT] starting values (INT+INT
 *   0.58 each, ...), consistent with Con Kolivas' ~60% per sibling
 *   ([Kolivas06]) and with seed-002's make -j2 gain (57.77 s vs 65.17 s on a P4 HT).
 *   Cells the sources leave open (FP next to MEM, SPIN's own speed) are
 *   chosen by analogy and marked below.
 * - Modern pair matrix: the [SMT] targets, combined 1.20-1.35 for typical
 *   pairs, a tail from just below 1.0 (cache thrashers) to ~1.6 (Zen 1 peak).
 * - SMT demands (used only with 3+ busy siblings): docs/model.md [SMT],
 *   times a generation factor 0.9 for modern cores (scaling all d values by
 *   one generation factor is enough to move between them).
 * - Memory intensity m: docs/model.md [NUMA] (MEM 0.6, CACHE 0.4, INT/FP
 *   0.05-0.1, SPIN 0); with r = 3.5 a MEM task runs at 0.40 off-node on a
 *   NUMA-Q, the 2.1-2.9x of Hohnbaum's and Bligh's schedbench runs ([Hohnbaum03],
 *   [Bligh02]).
 * - Memory bus: where a profile gives the bus all CPUs of a node share
 *   (a front-side bus and its one memory controller) in GB/s rather than
 *   a fitted node_bw, node_bw = bus / what one fully memory-bound CPU
 *   draws, and that draw is the model's own in-place refill rate: a full
 *   L2 from memory in refill_ns[NONE] (NetBurst: 512 KB in 1 ms = 0.52
 *   GB/s, one line per miss latency, as MEM's pointer chasing does).
 * - Kernel memory: where a profile puts the kernel's own memory on one
 *   node (i386 NUMA-Q: lowmem, node 0), kernel work stalls on that node
 *   for the share of a kernel path that is cache misses, the quarter
 *   KCOST_CLOCK_SHARE leaves out of the clock scaling below: one number
 *   for both, not a new one (docs/model.md "Kernel memory").
 * - NUMA ratio: the profile gives the latency ratio at the largest SLIT
 *   distance; nearer remote nodes get 1 + (ratio - 1)(d - 10)/(dmax - 10),
 *   so an EPYC-like 10/12/32 machine gets a small same-socket penalty.
 */
#include "hw/hw_internal.h"

#include <math.h>

enum { I = SL_WC_INT, F = SL_WC_FP, M = SL_WC_MEM, C = SL_WC_CACHE, S = SL_WC_SPIN };

/* Speed of the row class with the column class on the other sibling. */
static const double smt_netburst[SL_WC_COUNT][SL_WC_COUNT] = {
	/*            INT   FP    MEM   CACHE SPIN */
	[I] = {     0.58, 0.65, 0.75, 0.45, 0.95 },
	[F] = {     0.65, 0.55, 0.72, 0.45, 0.95 },	/* FP|MEM: by analogy with INT|MEM */
	[M] = {     0.85, 0.85, 0.65, 0.45, 0.95 },	/* MEM|FP: by analogy with MEM|INT */
	[C] = {     0.50, 0.50, 0.50, 0.45, 0.95 },	/* CACHE+CACHE 0.90 combined */
	[S] = {     0.80, 0.80, 0.80, 0.80, 0.80 },	/* a spinner's progress is not work */
};

static const double smt_modern[SL_WC_COUNT][SL_WC_COUNT] = {
	/*            INT   FP    MEM   CACHE SPIN */
	[I] = {     0.63, 0.68, 0.80, 0.55, 0.95 },	/* INT+INT 1.26 combined */
	[F] = {     0.68, 0.60, 0.80, 0.55, 0.95 },	/* FP+FP 1.20 */
	[M] = {     0.85, 0.85, 0.72, 0.55, 0.95 },	/* MEM+INT 1.65, MEM+MEM 1.44 */
	[C] = {     0.55, 0.55, 0.52, 0.48, 0.95 },	/* CACHE+CACHE 0.96 */
	[S] = {     0.80, 0.80, 0.80, 0.80, 0.80 },
};

static const double smt_demand_netburst[SL_WC_COUNT] = {
	[I] = 0.85, [F] = 0.90, [M] = 0.55, [C] = 0.80, [S] = 0.30,
};

#define MODERN_GENERATION_FACTOR 0.9
#define SMT_EPS 0.03	/* [SMT]: fixed cost of sharing */

static const double mem_intensity[SL_WC_COUNT] = {
	[I] = 0.08, [F] = 0.08, [M] = 0.60, [C] = 0.40, [S] = 0.0,
};

/*
 * Kernel path costs (system time) at a reference clock; docs/model.md
 * "Kernel costs" gives the reasoning.  They are the minimum cost of each
 * path; workloads add their own page-fault and I/O system work.
 */
const struct hw_kernel_costs hw_costs_netburst = {
	.ref_mhz = 2200,
	.ctx_switch_ns = 3 * SL_USEC,
	.fork_ns = 120 * SL_USEC,
	.exec_ns = 250 * SL_USEC,
	.exit_ns = 50 * SL_USEC,
	.ipi_ns = 2 * SL_USEC,
	.migrate_ns = 1 * SL_USEC,
	.sched_scan_ns = 150,
	.sched_pick_ns = 500,
};

const struct hw_kernel_costs hw_costs_p6 = {
	.ref_mhz = 700,
	.ctx_switch_ns = 4 * SL_USEC,
	.fork_ns = 250 * SL_USEC,
	.exec_ns = 500 * SL_USEC,
	.exit_ns = 120 * SL_USEC,
	.ipi_ns = 5 * SL_USEC,
	.migrate_ns = 2 * SL_USEC,
	.sched_scan_ns = 300,
	.sched_pick_ns = 1000,
};

const struct hw_kernel_costs hw_costs_modern = {
	.ref_mhz = 2500,
	.ctx_switch_ns = 1500,
	.fork_ns = 70 * SL_USEC,
	.exec_ns = 150 * SL_USEC,
	.exit_ns = 40 * SL_USEC,
	.ipi_ns = 1 * SL_USEC,
	.migrate_ns = 500,
	.sched_scan_ns = 50,
	.sched_pick_ns = 200,
};

/* Share of a kernel path that scales with the core clock; the rest is
 * cache misses to a memory system of the same era. */
#define KCOST_CLOCK_SHARE 0.75

static void set_smt(struct sl_speed_model *s, enum hw_smt_kind kind)
{
	double gen = kind == HW_SMT_MODERN ? MODERN_GENERATION_FACTOR : 1.0;

	for (int a = 0; a < SL_WC_COUNT; a++) {
		for (int b = 0; b < SL_WC_COUNT; b++)
			s->smt_pair[a][b] = kind == HW_SMT_NETBURST ? smt_netburst[a][b] :
					    kind == HW_SMT_MODERN ? smt_modern[a][b] : 1.0;
		s->smt_demand[a] = kind == HW_SMT_OFF ? 0.0 : gen * smt_demand_netburst[a];
	}
	s->smt_eps = kind == HW_SMT_OFF ? 0.0 : SMT_EPS;
}

static void set_numa(struct sl_speed_model *s, const struct sl_topo *t, double far_ratio)
{
	int dmax = 10;

	for (int a = 0; a < t->nnodes; a++)
		for (int b = 0; b < t->nnodes; b++)
			if (t->node_distance[a][b] > dmax)
				dmax = t->node_distance[a][b];
	for (int a = 0; a < SL_MAX_NODES_SPEED; a++)
		for (int b = 0; b < SL_MAX_NODES_SPEED; b++) {
			double r = 1.0;
			if (a != b && a < t->nnodes && b < t->nnodes && dmax > 10) {
				double reach = (t->node_distance[a][b] - 10) / (double)(dmax - 10);
				r = 1.0 + (far_ratio - 1.0) * reach;
			}
			s->numa_ratio[a][b] = r;
		}
	for (int c = 0; c < SL_WC_COUNT; c++)
		s->mem_intensity[c] = mem_intensity[c];
}

static sl_time scale(sl_time ns, double factor)
{
	return (sl_time)((double)ns * factor + 0.5);
}

static void set_kernel_costs(struct sl_speed_model *s, const struct hw_kernel_costs *k,
			     unsigned mhz, double kcost)
{
	double f = 1.0 - KCOST_CLOCK_SHARE + KCOST_CLOCK_SHARE * k->ref_mhz / (double)mhz;

	if (kcost > 0)
		f *= kcost;	/* the machine option kcost=F */

	s->ctx_switch_ns = scale(k->ctx_switch_ns, f);
	s->fork_ns = scale(k->fork_ns, f);
	s->exec_ns = scale(k->exec_ns, f);
	s->exit_ns = scale(k->exit_ns, f);
	s->ipi_ns = k->ipi_ns;
	s->migrate_ns = scale(k->migrate_ns, f);
	s->sched_scan_ns = scale(k->sched_scan_ns, f);
	s->sched_pick_ns = scale(k->sched_pick_ns, f);
}

/*
 * node_bw (fully memory-bound task equivalents) of a bus of `gbs` GB/s: a
 * CPU that does nothing but miss pulls refill_ref_kb[NONE] KB (its L2, or
 * what the profile says refill_ns refills) back from memory in
 * refill_ns[NONE] (docs/model.md "NUMA locality", the shared bus).
 */
static double bus_tasks(const struct sl_speed_model *s, double gbs)
{
	double ns = (double)s->refill_ns[SL_MIGR_NONE];
	unsigned kb = s->refill_ref_kb[SL_MIGR_NONE];

	if (ns <= 0 || kb == 0)
		return 0;	/* no refill model: the bus cannot be converted */
	return gbs / ((double)kb * 1024.0 / ns);	/* bytes per ns = GB/s */
}

void hw_speed_init(struct sl_speed_model *s, const struct sl_topo *t,
		   const struct hw_profile *p, const struct hw_options *o)
{
	enum hw_smt_kind smt = o->smt >= 0 ? (enum hw_smt_kind)o->smt : p->smt;
	double ratio = o->ratio > 0 ? o->ratio : p->far_ratio;
	unsigned mhz = t->cpu_khz / 1000 ? t->cpu_khz / 1000 : p->mhz;

	set_smt(s, smt);
	set_numa(s, t, ratio);
	for (int level = 0; level < 4; level++)
		s->refill_ns[level] = o->refill > 0
			? (sl_time)llround((double)p->refill_ns[level] * o->refill)
			: p->refill_ns[level];
	/* The core level refills an L2; the others what the profile's
	 * refill_ns were stated for (its L2 unless it says otherwise). */
	s->l2_kb = t->l2_kb;
	s->llc_kb = t->llc_kb > t->l2_kb ? t->llc_kb : t->l2_kb;
	for (int level = 0; level < 4; level++)
		s->refill_ref_kb[level] = level == SL_MIGR_CORE || !p->refill_kb ? t->l2_kb
									       : p->refill_kb;
	/* precedence: bw=, bus=, the profile's fitted node_bw, its bus */
	if (o->bw > 0)
		s->node_bw = o->bw;
	else if (o->bus_gbs > 0)
		s->node_bw = bus_tasks(s, o->bus_gbs);
	else if (p->node_bw > 0)
		s->node_bw = p->node_bw;
	else
		s->node_bw = p->bus_gbs > 0 ? bus_tasks(s, p->bus_gbs) : 0;
	s->touch_kb_per_ms = p->evict_kb_per_ms;
	set_kernel_costs(s, p->costs, mhz, o->kcost);
	s->kernel_node = o->kmem != HW_KMEM_PROFILE ? o->kmem
			 : p->kernel_mem == HW_KMEM_NODE0 ? 0 : -1;
	s->kernel_mem_intensity = 1.0 - KCOST_CLOCK_SHARE;
	if (o->ipi_us > 0)
		s->ipi_ns = (sl_time)llround(o->ipi_us * 1e3);
}
