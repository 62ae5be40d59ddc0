/*
 * cfs/topology.c - scheduler domains, groups and CPU capacities built from
 * the machine's topology, as today's kernel builds them: an SMT level
 * (siblings, SD_SHARE_CPUCAPACITY), an MC level (the CPUs sharing the
 * last-level cache, x86's cpu_coregroup_mask: SD_SHARE_LLC; the package on
 * every preset, a chiplet's L3 on today's AMD), a PKG level (the node,
 * x86's cpu_cpu_mask) and one NUMA
 * level per distinct SLIT distance; a level whose span is one CPU or the
 * same as the level below is degenerate and dropped; the groups of a
 * domain are the spans of its child domains.
 *
 * Parameters (sd_init(), since 5.10): intervals from span_weight ms to
 * 2 x span_weight ms, busy_factor 16, imbalance_pct 110 at SMT and 117
 * elsewhere, cache_nice_tries 0 at SMT, 1 at MC/PKG, 2 at NUMA;
 * SD_PREFER_SIBLING on every non-NUMA level; NUMA levels farther than
 * RECLAIM_DISTANCE (30) lose fork/exec balancing and wake_affine;
 * imb_numa_nr as build_sched_domains() sets it.  Capacities: 1024 per CPU
 * (arch_scale_cpu_capacity() of a symmetric machine, SMT siblings
 * included); with smt_gain set, the 2.6.x-4.x rule that a core's siblings
 * share smt_gain (1178: one core = 1.15 CPUs).
 *
 * Sources: Linux kernel/sched/topology.c (sd_init, build_sched_groups,
 * sd_parent_degenerate and the SD_PREFER_SIBLING transfer in
 * cpu_attach_domain, update_top_cache_domain for sd_llc, the imb_numa_nr
 * loop in build_sched_domains), arch/x86/kernel/smpboot.c
 * (build_sched_topology: SMT, MC, PKG levels; cpu_coregroup_mask =
 * cpu_llc_shared_mask),
 * include/linux/sched/sd_flags.h, all of 6.12; smt_gain 1178 of the
 * 2.6.31-4.x sd_init / SD_SIBLING_INIT; 2.6.12.1 include/linux/topology.h
 * (SD_CPU_INIT: busy_factor 64 and imbalance_pct 125 have since come down).
 *
 * Omitted / simplified:
 *   - NUMA levels: the kernel builds overlapping groups when node distances
 *     are not transitive; here each level's spans are made a partition
 *     (nodes within the distance of each other, closed transitively) so
 *     groups never overlap.  For the uniform SLITs of the presets this is
 *     the kernel's result.
 *   - The CLUSTER level and asymmetric capacities (SD_ASYM_*): no machine
 *     here has them.
 *   - Domains are built per CPU from the same partitions, so every CPU of
 *     a span sees the same groups (sched_group objects are shared in the
 *     kernel too); a group's "flags" are its child domain's, or 0 when the
 *     child level was degenerate.
 */
#include <stdlib.h>
#include <string.h>

#include "policy/cfs/cfs.h"
#include "sim/sim.h"

enum cfs_level_kind {
	CFS_LV_SMT,
	CFS_LV_MC,
	CFS_LV_PKG,
	CFS_LV_NUMA,
};

struct cfs_level {
	enum cfs_level_kind kind;
	int distance;			/* NUMA: nodes within this SLIT distance */
	int rep[SL_MAX_CPUS];		/* each CPU's representative: the first CPU of its span */
	sl_cpumask *span;		/* [ncpus]: the span of each representative */
};

static int cfs_uf_find(int *rep, int x)
{
	while (rep[x] != x) {
		rep[x] = rep[rep[x]];
		x = rep[x];
	}
	return x;
}

/* The smaller root becomes the root: a representative is its set's first CPU. */
static void cfs_uf_union(int *rep, int a, int b)
{
	a = cfs_uf_find(rep, a);
	b = cfs_uf_find(rep, b);
	if (a < b)
		rep[b] = a;
	else if (b < a)
		rep[a] = b;
}

/* Join cpu with every CPU of its raw topology span at a level.  The raw
 * span is a union of whole sets (its core, package or node; at a NUMA
 * level the nodes within the distance), each of which holds its own first
 * CPU in its every member's raw span: joining cpu with each set's first
 * CPU gives the same partition as joining it with every CPU, in O(sets). */
static void cfs_join_raw_span(const struct sl_topo *t, struct cfs_level *lv, int cpu)
{
	switch (lv->kind) {
	case CFS_LV_SMT:
		cfs_uf_union(lv->rep, cpu, sl_cpumask_first(sl_topo_siblings(t, cpu)));
		return;
	case CFS_LV_MC:
		cfs_uf_union(lv->rep, cpu, sl_cpumask_first(sl_topo_llc(t, cpu)));
		return;
	case CFS_LV_PKG:
		cfs_uf_union(lv->rep, cpu, sl_cpumask_first(sl_topo_node(t, cpu)));
		return;
	case CFS_LV_NUMA:
		break;
	}
	int n = t->cpu_node[cpu];
	for (int j = 0; j < t->nnodes; j++)
		if (t->node_distance[n][j] <= lv->distance && !sl_cpumask_empty(&t->node_cpus[j]))
			cfs_uf_union(lv->rep, cpu, sl_cpumask_first(&t->node_cpus[j]));
}

/* Make level l a partition that refines into level l-1's: join the raw
 * spans with the level below (union-find); then each set's span. */
static void cfs_level_partition(const struct sl_topo *t, struct cfs_level *lv,
				const struct cfs_level *below)
{
	for (int c = 0; c < t->ncpus; c++)
		lv->rep[c] = c;
	for (int c = 0; c < t->ncpus; c++) {
		cfs_join_raw_span(t, lv, c);
		if (below)
			cfs_uf_union(lv->rep, c, below->rep[c]);
	}
	lv->span = sl_xcalloc((unsigned long)t->ncpus, sizeof(sl_cpumask));
	for (int c = 0; c < t->ncpus; c++) {
		lv->rep[c] = cfs_uf_find(lv->rep, c);
		sl_cpumask_set(&lv->span[lv->rep[c]], c);
	}
}

static const sl_cpumask *cfs_level_span(const struct cfs_level *lv, int cpu)
{
	return &lv->span[lv->rep[cpu]];
}

static unsigned cfs_level_flags(const struct cfs_level *lv)
{
	unsigned f = CFS_SD_BALANCE_NEWIDLE | CFS_SD_BALANCE_EXEC | CFS_SD_BALANCE_FORK |
		     CFS_SD_WAKE_AFFINE | CFS_SD_PREFER_SIBLING;

	switch (lv->kind) {
	case CFS_LV_SMT:
		return f | CFS_SD_SHARE_CPUCAPACITY | CFS_SD_SHARE_LLC;
	case CFS_LV_MC:
		return f | CFS_SD_SHARE_LLC;
	case CFS_LV_PKG:
		return f;
	case CFS_LV_NUMA:
		break;
	}
	f = (f & ~CFS_SD_PREFER_SIBLING) | CFS_SD_NUMA | CFS_SD_SERIALIZE;
	if (lv->distance > CFS_RECLAIM_DISTANCE)
		f &= ~(CFS_SD_BALANCE_EXEC | CFS_SD_BALANCE_FORK | CFS_SD_WAKE_AFFINE);
	return f;
}

static const char *cfs_level_name(enum cfs_level_kind k)
{
	static const char *const names[] = { "SMT", "MC", "PKG", "NUMA" };
	return names[k];
}

/* capacity_orig of cpu. */
static long cfs_cpu_capacity(const struct cfs *s, int cpu)
{
	int n = sl_cpumask_weight(sl_topo_siblings(s->topo, cpu));

	/* 4.x arch_scale_cpu_capacity(): smt_gain only where there are siblings */
	if (!s->smt_gain || n < 2)
		return CFS_CAPACITY_SCALE;
	return s->smt_gain / n;
}

static void cfs_group_init(const struct cfs *s, struct cfs_group *g, const sl_cpumask *span,
			   unsigned flags)
{
	const struct sl_topo *t = s->topo;
	sl_cpumask cores;

	g->span = *span;
	g->weight = sl_cpumask_weight(span);
	g->first_cpu = sl_cpumask_first(span);
	g->end_cpu = g->first_cpu;
	sl_for_each_cpu(c, span)
		g->end_cpu = c + 1;
	g->flags = flags;
	g->capacity = 0;
	sl_cpumask_clear(&cores);
	sl_for_each_cpu(c, span) {
		g->capacity += cfs_cpu_capacity(s, c);
		sl_cpumask_set(&cores, t->cpu_core[c]);
	}
	g->cores = sl_cpumask_weight(&cores);
}

/* The span object for (level, span), shared by all its CPUs: span_at[level
 * x ncpus + representative] is its index once made, else -1. */
static struct cfs_span *cfs_span_get(struct cfs *s, const struct cfs_level *lv, int cpu,
				     const struct cfs_level *child_lv, unsigned child_flags,
				     int level_id, int *span_at)
{
	int *at = &span_at[level_id * s->ncpus + lv->rep[cpu]];
	if (*at >= 0)
		return &s->spans[*at];

	const sl_cpumask *cpus = cfs_level_span(lv, cpu);
	*at = s->nr_spans;
	struct cfs_span *sp = &s->spans[s->nr_spans++];
	sp->cpus = *cpus;
	sp->weight = sl_cpumask_weight(cpus);
	sp->w_first = sl_cpumask_first(cpus) >> 6;
	sp->w_last = sl_cpumask_last(cpus) >> 6;
	sp->groups = sl_xcalloc((unsigned long)sp->weight, sizeof(struct cfs_group));
	sp->ngroups = 0;
	sl_cpumask left = *cpus;
	for (int c = sl_cpumask_first(&left); c >= 0; c = sl_cpumask_first(&left)) {
		sl_cpumask g;
		if (child_lv) {
			g = sl_cpumask_and(*cfs_level_span(child_lv, c), cpus);
		} else {
			sl_cpumask_clear(&g);
			sl_cpumask_set(&g, c);
		}
		cfs_group_init(s, &sp->groups[sp->ngroups++], &g, child_lv ? child_flags : 0);
		sl_for_each_cpu(x, &g)
			sl_cpumask_unset(&left, x);
	}
	return sp;
}

static void cfs_domain_init(struct cfs_domain *sd, const struct cfs_level *lv,
			    struct cfs_span *sp, int cpu)
{
	unsigned f = cfs_level_flags(lv);

	memset(sd, 0, sizeof(*sd));
	sd->name = cfs_level_name(lv->kind);
	sd->span = sp;
	sd->flags = f;
	sd->min_interval = sp->weight;
	sd->max_interval = 2 * sp->weight;
	sd->balance_interval = sp->weight;
	sd->busy_factor = 16;
	sd->imbalance_pct = 117;
	if (f & CFS_SD_SHARE_CPUCAPACITY)
		sd->cache_nice_tries = 0, sd->imbalance_pct = 110;
	else if (f & CFS_SD_NUMA)
		sd->cache_nice_tries = 2;
	else
		sd->cache_nice_tries = 1;
	for (int i = 0; i < sp->ngroups; i++)
		if (sl_cpumask_test(&sp->groups[i].span, cpu))
			sd->local = i;
}

/*
 * imb_numa_nr: how many tasks a node may run beyond its share.  The kernel
 * computes it over every level it built (6.12 topology.c
 * build_sched_domains), before cpu_attach_domain drops the degenerate
 * ones: x86 always builds SMT, MC and PKG, so on a machine without SMT or
 * shared caches the one-CPU SMT and MC levels still count as the LLC
 * child of PKG (NUMA-Q: PKG spans a quad of four LLCs, imb_numa_nr 4).
 * `weight` and `flags` are this CPU's levels, degenerate ones included;
 * `at` maps each level to its attached domain, or -1.
 */
static void cfs_set_imb_numa_nr(struct cfs_rq *rq, int nlv, const int *weight,
				const unsigned *flags, const int *at)
{
	int imb = 0, imb_span = 1;

	for (int l = 0; l < nlv; l++) {
		int v;
		if (!(flags[l] & CFS_SD_SHARE_LLC) && l && (flags[l - 1] & CFS_SD_SHARE_LLC)) {
			int nr_llcs = weight[l] / weight[l - 1];
			imb = nr_llcs == 1 ? weight[l] >> 3 : nr_llcs;
			if (imb < 1)
				imb = 1;
			v = imb;
			imb_span = weight[l];
			for (int j = l + 1; j < nlv; j++) {
				if (flags[j] & CFS_SD_NUMA) {
					imb_span = weight[j];
					break;
				}
			}
		} else {
			int factor = weight[l] / imb_span;
			v = imb * (factor > 1 ? factor : 1);
		}
		if (at[l] >= 0)
			rq->sd[at[l]].imb_numa_nr = v;
	}
}

static int cfs_cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int cfs_build_domains(struct cfs *s, struct sl_err *err)
{
	const struct sl_topo *t = s->topo;
	int nlv = 0, dist[SL_MAX_NODES * SL_MAX_NODES], nd = 0;
	struct cfs_level *lv = sl_xcalloc(CFS_MAX_LEVELS, sizeof(*lv));

	/* the distinct remote distances, ascending: one NUMA level each */
	for (int a = 0; a < t->nnodes; a++)
		for (int b = 0; b < t->nnodes; b++)
			if (t->node_distance[a][b] > 10)
				dist[nd++] = t->node_distance[a][b];
	qsort(dist, (size_t)nd, sizeof(int), cfs_cmp_int);
	lv[nlv++].kind = CFS_LV_SMT;
	lv[nlv++].kind = CFS_LV_MC;
	lv[nlv++].kind = CFS_LV_PKG;
	for (int i = 0; i < nd; i++) {
		if (i && dist[i] == dist[i - 1])
			continue;
		if (nlv == CFS_MAX_LEVELS) {
			free(lv);
			return sl_fail(err, "cfs: more than %d distinct node distances",
				       CFS_MAX_LEVELS - 3);
		}
		lv[nlv].kind = CFS_LV_NUMA;
		lv[nlv++].distance = dist[i];
	}
	for (int l = 0; l < nlv; l++)
		cfs_level_partition(t, &lv[l], l ? &lv[l - 1] : NULL);

	s->spans = sl_xcalloc((unsigned long)(nlv * t->ncpus), sizeof(struct cfs_span));
	int *span_at = sl_xcalloc((unsigned long)(nlv * t->ncpus), sizeof(int));
	for (int i = 0; i < nlv * t->ncpus; i++)
		span_at[i] = -1;
	for (int cpu = 0; cpu < t->ncpus; cpu++) {
		struct cfs_rq *rq = &s->rq[cpu];
		const struct cfs_level *child = NULL;
		sl_cpumask prev;

		rq->capacity_orig = rq->capacity = cfs_cpu_capacity(s, cpu);
		sl_cpumask_clear(&prev);
		sl_cpumask_set(&prev, cpu);
		rq->nsd = 0;
		int weight[CFS_MAX_LEVELS], at[CFS_MAX_LEVELS];
		unsigned flags[CFS_MAX_LEVELS];
		for (int l = 0; l < nlv; l++) {
			const sl_cpumask *span = cfs_level_span(&lv[l], cpu);
			unsigned f = cfs_level_flags(&lv[l]);
			weight[l] = sl_cpumask_weight(span);
			flags[l] = f;
			at[l] = -1;
			if (sl_cpumask_equal(span, &prev)) {
				/* degenerate: the child keeps SD_PREFER_SIBLING */
				if (rq->nsd && (f & CFS_SD_PREFER_SIBLING))
					rq->sd[rq->nsd - 1].flags |= CFS_SD_PREFER_SIBLING;
				continue;
			}
			unsigned child_flags = child ? rq->sd[rq->nsd - 1].flags : 0;
			struct cfs_span *sp = cfs_span_get(s, &lv[l], cpu, child, child_flags, l,
							   span_at);
			at[l] = rq->nsd;
			cfs_domain_init(&rq->sd[rq->nsd++], &lv[l], sp, cpu);
			child = &lv[l];
			prev = *span;
		}
		/* sd_llc: the highest domain sharing the last-level cache */
		rq->sd_llc = -1;
		for (int i = 0; i < rq->nsd; i++)
			if (rq->sd[i].flags & CFS_SD_SHARE_LLC)
				rq->sd_llc = i;
		sl_cpumask_clear(&rq->self);
		sl_cpumask_set(&rq->self, cpu);
		rq->llc_span = rq->sd_llc >= 0 ? &rq->sd[rq->sd_llc].span->cpus : &rq->self;
		rq->llc_id = sl_cpumask_first(rq->llc_span);
		rq->llc_size = sl_cpumask_weight(rq->llc_span);
		rq->sib_first = sl_cpumask_first(sl_topo_siblings(t, cpu));
		rq->sib_end = sl_cpumask_last(sl_topo_siblings(t, cpu)) + 1;
		cfs_set_imb_numa_nr(rq, nlv, weight, flags, at);
	}
	free(span_at);
	for (int l = 0; l < nlv; l++)
		free(lv[l].span);
	free(lv);
	return 0;
}

void cfs_free_domains(struct cfs *s)
{
	for (int i = 0; i < s->nr_spans; i++)
		free(s->spans[i].groups);
	free(s->spans);
	s->spans = NULL;
	s->nr_spans = 0;
}

bool cfs_share_cache(const struct cfs *s, int a, int b)
{
	return s->rq[a].llc_id == s->rq[b].llc_id;
}

/* The siblings' CPUs only: the loop from CPU 0 over the machine's words
 * called cpumask_next for each sibling (88 instructions a call in
 * xeon-2s-smt javabench:size=200, 149,132 calls).  The same CPUs, in the
 * same order. */
bool cfs_core_idle(const struct cfs *s, int cpu)
{
	const struct cfs_rq *rq = &s->rq[cpu];

	sl_for_each_cpu_in(c, sl_topo_siblings(s->topo, cpu), rq->sib_first, rq->sib_end)
		if (!cfs_cpu_idle(s, c))
			return false;
	return true;
}
