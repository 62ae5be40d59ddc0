/*
 * topo.h - the machine as a scheduler sees it: logical CPUs and how they
 * group into cores (SMT siblings), last-level caches, packages and NUMA
 * nodes, plus the few numbers the 2002-2004 kernels read at boot (cpu_khz
 * and the L2 size for cache_decay_ticks, SLIT distances for the NUMA
 * balancer), and the architecture the kernel was built for, whose headers
 * fix HZ and a few scheduler constants.
 *
 * This is everything a policy may know about the hardware (DESIGN.md: the
 * truth about speed lives in hw/speed.h and is invisible to policies).
 */
#ifndef SL_HW_TOPO_H
#define SL_HW_TOPO_H

#include "base/cpumask.h"

#define SL_MAX_NODES 64

/* The kernel's architecture, whose headers fix HZ and a few scheduler
 * constants; the policies read them by it. */
enum sl_arch {
	SL_ARCH_I386,
	SL_ARCH_IA64,
	SL_ARCH_X86_64,
	SL_NARCH
};

const char *sl_arch_name(enum sl_arch arch);
/* The arch named "i386", "ia64" or "x86_64" (sl_arch_name's), or -1. */
int sl_arch_parse(const char *name);

struct sl_topo {
	int ncpus;		/* logical CPUs, numbered 0..ncpus-1 */
	int ncores;		/* physical cores (SMT groups) */
	int nllcs;		/* last-level caches: one per package, or several (a
				 * chiplet's L3, a module's L2, a node of an SNC
				 * package), each in one package and one node */
	int npackages;		/* sockets */
	int nnodes;		/* NUMA nodes (1 on a UMA machine) */

	/* Per logical CPU: ids are dense, 0-based, assigned in CPU order. */
	int cpu_core[SL_MAX_CPUS];
	int cpu_llc[SL_MAX_CPUS];
	int cpu_package[SL_MAX_CPUS];
	int cpu_node[SL_MAX_CPUS];
	int cpu_thread[SL_MAX_CPUS];	/* index among its core's siblings */

	sl_cpumask core_cpus[SL_MAX_CPUS];	/* indexed by core id: its siblings */
	sl_cpumask llc_cpus[SL_MAX_CPUS];	/* indexed by LLC id: the CPUs sharing it */
	sl_cpumask package_cpus[SL_MAX_CPUS];	/* indexed by package id */
	sl_cpumask node_cpus[SL_MAX_NODES];	/* indexed by node id */
	sl_cpumask all_cpus;

	int threads_per_core;	/* max siblings per core (1 = no SMT) */
	int node_distance[SL_MAX_NODES][SL_MAX_NODES];	/* SLIT, 10 = local */

	unsigned cpu_khz;	/* clock, as /proc/cpuinfo would say */
	unsigned l2_kb;		/* per-core L2 (what smp_tune_scheduling read) */
	unsigned llc_kb;	/* last-level cache, each of nllcs */
	enum sl_arch arch;	/* what the kernel was built for */
};

static inline const sl_cpumask *sl_topo_siblings(const struct sl_topo *t, int cpu)
{
	return &t->core_cpus[t->cpu_core[cpu]];
}
/* The CPUs sharing cpu's last-level cache (the kernel's
 * cpu_llc_shared_mask; the package on every preset). */
static inline const sl_cpumask *sl_topo_llc(const struct sl_topo *t, int cpu)
{
	return &t->llc_cpus[t->cpu_llc[cpu]];
}
/* Whether some package holds several last-level caches (chiplets,
 * modules, sub-NUMA clusters): only then do the machine's summary and the
 * traces name them, since on every preset the LLC is the package. */
static inline bool sl_topo_llcs_split_packages(const struct sl_topo *t)
{
	return t->nllcs > t->npackages;
}
static inline const sl_cpumask *sl_topo_package(const struct sl_topo *t, int cpu)
{
	return &t->package_cpus[t->cpu_package[cpu]];
}
static inline const sl_cpumask *sl_topo_node(const struct sl_topo *t, int cpu)
{
	return &t->node_cpus[t->cpu_node[cpu]];
}

/* Check internal consistency (masks match the id arrays, ids dense,
 * distances symmetric with 10 on the diagonal).  0 or -1 with a reason. */
struct sl_err;
int sl_topo_check(const struct sl_topo *t, struct sl_err *err);

#endif
