/*
 * domains/build.c - the scheduler-domain versions as data, and the domain
 * hierarchy built once at init from the machine's topology.
 *
 * Every CPU gets, bottom-up, up to three domains linked child -> parent:
 *
 *   SMT   span: its SMT siblings (within its node); groups: single CPUs,
 *         cpu_power 128 each
 *   PHYS  span: the CPUs of its node; groups: cores (sibling sets), power
 *         128 + 128*(siblings-1)/10, so a 2-thread HT core is 140
 *   NODE  span: every CPU; groups: nodes, power the sum of their cores'
 *
 * 2.6.12 builds the SMT level where the machine has SMT, the NODE level
 * where it has nodes, and the PHYS level always, one group or not; w26
 * leaves out a level whose span would hold a single group (see the
 * choices below).  So a 2x2 HT Xeon gets SMT + PHYS, "node:4 pack:1 core:4
 * pu:1" PHYS + NODE, a plain SMP box PHYS only, a one-package HT box SMT +
 * PHYS under 2.6.12 and SMT alone under w26.  Groups of a span are kept in
 * ascending order of their first CPU, and each CPU's domain walks them
 * starting from its own group, as the kernel's circular group lists do.
 *
 * Sources: 2.6.12.1 include/linux/topology.h (SD_SIBLING_INIT,
 * SD_CPU_INIT), include/asm-i386/topology.h (SD_NODE_INIT), kernel/sched.c
 * (arch_init_sched_domains, cpu_to_phys_group, init_sched_build_groups,
 * the cpu_power of each level) and Documentation/sched-domains.txt (a
 * span contains its child's, groups partition it, the first group holds
 * the owning CPU).  w26: the SD_CPU_INIT and SD_NODE_INIT values before
 * Nick Piggin's Feb 2004 "lessidle" patch (read from the sched-domains
 * code of early 2004 and that mail), his w26 i386 setup quoted by Zwane
 * Mwaikambo in "[PATCH][RFC] make cpu_sibling_map a cpumask_t" (LKML,
 * 8 Dec 2003), and the 2.6.6-era include/linux/sched.h for the sibling row.
 *
 * Choices (documented in docs/policies/domains.md):
 *   - PHYS groups are cores, not packages: 2.6.12's generic builder groups
 *     the physical level by cpu_sibling_map (cpu_to_phys_group).  On the
 *     machines of the time a core was a package; multi-core packages got
 *     their own level (SD_MC) only in 2.6.17, outside this model, so a
 *     dual-core package is two groups of the physical level here.
 *   - Which levels a machine gets.  2.6.12 builds them whether or not
 *     they have two groups (arch_init_sched_domains): the physical level
 *     always, the sibling level under CONFIG_SCHED_SMT, the node level
 *     under CONFIG_NUMA; taken as configured where the machine has SMT or
 *     nodes.  So a one-package HT box keeps a physical level of one group,
 *     which balances nothing but is its highest SD_BALANCE_EXEC domain
 *     (sched_exec compares at imbalance_pct 125, not the sibling level's
 *     110), and a single CPU gets one too.  w26 leaves a level of one
 *     group out, as 2.6.13's sd_degenerate did (how w26 built its levels
 *     is not at hand).
 *   - The w26 rows: PHYS is SD_CPU_INIT before lessidle (1/8 ms, x32,
 *     125 %, cache_hot 5 ms, tries 2) with NEWIDLE, FASTMIGRATE and
 *     SD_FLAG_IDLE; NODE is SD_NODE_INIT before lessidle (min 20 ms, max
 *     1000 ms * fls(ncpus), x4, 125 %, 5 ms, tries 1), EXEC only.  The SMT
 *     row is not known: the 2.6.6-era SD_SIBLING_INIT numbers (1/2 ms, x8,
 *     110 %, cache_hot 0, tries 0) with NEWIDLE, WAKE and FASTMIGRATE.
 *     INFERRED.  Where SD_FLAG_IDLE sits is the knob idle_level (phys,
 *     default: the package level of the early-2004 code; smt: the sibling
 *     domain of the Dec 2003 i386 quote).  w26 had no SD_LOAD_BALANCE
 *     (every domain balanced): its rows carry it.  Its SMT row also carries
 *     SD_SHARE_CPUPOWER, which only matters with smt_nice=on
 *     (dependent_sleeper came after w26).
 *   - The 2.6.12 NODE row is i386's (NUMA-Q), which x86_64's equals; on a
 *     machine whose arch is ia64 it is ia64's (2.6.12.1
 *     include/asm-ia64/topology.h: 80/320 ms, x320, the rest the same).
 *     ia64's all-nodes level (arch/ia64/kernel/domain.c) is not built: it
 *     exists only where the machine has more CPUs than 6 nodes' worth
 *     (SD_NODES_PER_DOMAIN), and each NODE domain then spans the 6
 *     nearest nodes, not the machine.  w26 keeps its NODE row on ia64 (no
 *     ia64 SD_NODE_INIT of early 2004 is at hand).
 *   - Sockets: 2.6.12's are i386's with netfilter, bridge netfilter and
 *     traffic control configured (sizeof(struct sk_buff) 176: 2.6.12.1
 *     include/linux/skbuff.h, net/core/sock.c; SL_SOCKETS_2_6_12), on
 *     every machine; w26 keeps 2.4's (when 2.6 took up 2.6.12's formula is
 *     not known).
 *
 * Omitted / simplified:
 *   - isolcpus= and CPU hotplug: every CPU is in every domain of its span.
 *   - Arch-specific builders (ia64, ppc64): one generic builder.
 */
#include <stdlib.h>
#include <string.h>

#include "policy/domains/domains.h"

#define SD_MS 1000000LL	/* ns */

/* 2.6.12.1 include/asm-ia64/topology.h SD_NODE_INIT */
static const struct sd_params sd_node_ia64_2612 = {
	.min_interval = 80, .max_interval = 320, .busy_factor = 320,
	.imbalance_pct = 125, .cache_hot_time = 10 * SD_MS,
	.cache_nice_tries = 1, .per_cpu_gain = 100,
	.flags = SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC |
		 SD_WAKE_IDLE | SD_WAKE_BALANCE,
};

static const struct sd_version sd_versions[] = {
	{
		.name = "2.6.12",
		.rules = SD_RULES_2612,
		.pipes = SL_PIPES_2_6_12,
		.sockets = SL_SOCKETS_2_6_12,
		.sockets_lp64 = SL_SOCKETS_2_6_12_LP64,
		.level = {
			[SD_LV_SMT] = {
				.min_interval = 1, .max_interval = 2, .busy_factor = 8,
				.imbalance_pct = 110, .cache_hot_time = 0,
				.cache_nice_tries = 0, .per_cpu_gain = 25,
				.flags = SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC |
					 SD_WAKE_AFFINE | SD_WAKE_IDLE | SD_SHARE_CPUPOWER,
			},
			[SD_LV_PHYS] = {
				.min_interval = 1, .max_interval = 4, .busy_factor = 64,
				.imbalance_pct = 125, .cache_hot_time = 5 * SD_MS / 2,
				.cache_nice_tries = 1, .per_cpu_gain = 100,
				.flags = SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC |
					 SD_WAKE_AFFINE | SD_WAKE_IDLE | SD_WAKE_BALANCE,
			},
			[SD_LV_NODE] = {
				.min_interval = 8, .max_interval = 32, .busy_factor = 32,
				.imbalance_pct = 125, .cache_hot_time = 10 * SD_MS,
				.cache_nice_tries = 1, .per_cpu_gain = 100,
				.flags = SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC |
					 SD_WAKE_IDLE | SD_WAKE_BALANCE,
			},
		},
		.node_ia64 = &sd_node_ia64_2612,
		.stagger = true,
		.smt_nice = true,
		.child_first = true,
		.thread_last = true,
		.sync_quiet = false,
		.exec_numa_only = false,
		.keep_single = true,
	},
	{
		.name = "w26",
		.rules = SD_RULES_W26,
		.pipes = SL_PIPES_2_6_0,
		.sockets = SL_SOCKETS_2_4,	/* 2.6.0's: UNVERIFIED (sim.h) */
		.sockets_lp64 = SL_SOCKETS_2_4_LP64,
		.level = {
			[SD_LV_SMT] = {
				.min_interval = 1, .max_interval = 2, .busy_factor = 8,
				.imbalance_pct = 110, .cache_hot_time = 0,
				.cache_nice_tries = 0, .per_cpu_gain = 15,
				.flags = SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_FLAG_WAKE |
					 SD_FLAG_FASTMIGRATE | SD_SHARE_CPUPOWER,
			},
			/* SD_CPU_INIT before lessidle */
			[SD_LV_PHYS] = {
				.min_interval = 1, .max_interval = 8, .busy_factor = 32,
				.imbalance_pct = 125, .cache_hot_time = 5 * SD_MS,
				.cache_nice_tries = 2, .per_cpu_gain = 100,
				.flags = SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE |
					 SD_FLAG_FASTMIGRATE | SD_FLAG_IDLE,
			},
			/* SD_NODE_INIT before lessidle: max 1000 ms * fls(ncpus) */
			[SD_LV_NODE] = {
				.min_interval = 20, .max_interval_fls = 1000, .busy_factor = 4,
				.imbalance_pct = 125, .cache_hot_time = 5 * SD_MS,
				.cache_nice_tries = 1, .per_cpu_gain = 100,
				.flags = SD_LOAD_BALANCE | SD_BALANCE_EXEC,
			},
		},
		.stagger = true,
		.smt_nice = false,
		.child_first = true,
		.thread_last = false,
		.sync_quiet = true,
		.exec_numa_only = true,
	},
};

const char sd_version_choices[] = "2.6.12|w26";

const struct sd_version *sd_version_find(const char *name)
{
	for (size_t i = 0; i < sizeof(sd_versions) / sizeof(sd_versions[0]); i++)
		if (!strcmp(sd_versions[i].name, name))
			return &sd_versions[i];
	return NULL;
}

/* ---- spans and groups ---- */

static sl_cpumask sd_span_of(const struct sl_topo *t, enum sd_level lv, int cpu)
{
	switch (lv) {
	case SD_LV_SMT:
		/* siblings spanning nodes are split apart */
		return sl_cpumask_and(*sl_topo_siblings(t, cpu), sl_topo_node(t, cpu));
	case SD_LV_PHYS:
		return *sl_topo_node(t, cpu);
	default:
		return t->all_cpus;
	}
}

/* The CPUs grouped with `cpu` at level lv, within span. */
static sl_cpumask sd_group_mask(const struct sl_topo *t, enum sd_level lv, int cpu,
				const sl_cpumask *span)
{
	sl_cpumask m;

	switch (lv) {
	case SD_LV_SMT:
		sl_cpumask_clear(&m);
		sl_cpumask_set(&m, cpu);
		return m;
	case SD_LV_PHYS:
		m = *sl_topo_siblings(t, cpu);
		break;
	default:
		m = *sl_topo_node(t, cpu);
		break;
	}
	return sl_cpumask_and(m, span);
}

/* A core with n siblings: one CPU plus 10 % per extra sibling. */
static int sd_core_power(int n)
{
	return SD_LOAD_SCALE + SD_LOAD_SCALE * (n - 1) / 10;
}

static int sd_group_power(const struct sl_topo *t, enum sd_level lv, const sl_cpumask *mask)
{
	if (lv == SD_LV_SMT)
		return SD_LOAD_SCALE;
	if (lv == SD_LV_PHYS)
		return sd_core_power(sl_cpumask_weight(mask));
	/* a node: the sum of its cores' powers */
	sl_cpumask done;
	int power = 0;

	sl_cpumask_clear(&done);
	sl_for_each_cpu(c, mask) {
		if (sl_cpumask_test(&done, c))
			continue;
		sl_cpumask core = sl_cpumask_and(*sl_topo_siblings(t, c), mask);
		done = sl_cpumask_or(done, &core);
		power += sd_core_power(sl_cpumask_weight(&core));
	}
	return power;
}

/* Partition span into level lv's groups, appended to the store. */
static int sd_make_groups(struct sd_sched *s, enum sd_level lv, const sl_cpumask *span,
			  struct sd_group **first)
{
	sl_cpumask covered;
	int n = 0;

	*first = &s->group_store[s->ngroups_used];
	sl_cpumask_clear(&covered);
	sl_for_each_cpu(c, span) {
		if (sl_cpumask_test(&covered, c))
			continue;
		struct sd_group *g = &s->group_store[s->ngroups_used++];
		g->cpumask = sd_group_mask(s->topo, lv, c, span);
		g->first = sl_cpumask_first(&g->cpumask);
		g->end = sl_cpumask_last(&g->cpumask) + 1;
		g->ncpus = sl_cpumask_weight(&g->cpumask);
		g->dense = g->ncpus == g->end - g->first;
		g->cpu_power = sd_group_power(s->topo, lv, &g->cpumask);
		covered = sl_cpumask_or(covered, &g->cpumask);
		n++;
	}
	return n;
}

/* Whether sd, one level of one CPU, is one of that CPU's domains: under
 * 2.6.12 whether the kernel is taken to be configured for the level, else
 * whether it has two groups to balance. */
static bool sd_level_built(const struct sd_sched *s, const struct sd_domain *sd)
{
	if (!s->v->keep_single)
		return sd->ngroups >= 2;
	switch (sd->level) {
	case SD_LV_SMT:
		return s->topo->threads_per_core > 1;
	case SD_LV_PHYS:
		return true;
	default:
		return s->topo->nnodes > 1;
	}
}

static struct sd_domain *sd_slot(const struct sd_sched *s, int cpu, enum sd_level lv)
{
	return &s->domains[cpu * SD_NR_LEVELS + lv];
}

/* Level lv of `cpu`: share the groups of the span's first CPU if it has the
 * same span, else partition the span anew. */
static void sd_build_level(struct sd_sched *s, int cpu, enum sd_level lv)
{
	struct sd_domain *sd = sd_slot(s, cpu, lv);
	sl_cpumask span = sd_span_of(s->topo, lv, cpu);
	int first = sl_cpumask_first(&span);
	struct sd_domain *owner = sd_slot(s, first, lv);

	sd->level = lv;
	sd->cpu = cpu;
	sd->span = span;
	if (first < cpu && sl_cpumask_equal(&owner->span, &span)) {
		sd->groups = owner->groups;
		sd->ngroups = owner->ngroups;
	} else {
		int used = s->ngroups_used;
		sd->ngroups = sd_make_groups(s, lv, &span, &sd->groups);
		if (!sd_level_built(s, sd))
			s->ngroups_used = used;	/* not a domain: give the slots back */
	}
	sd->local = 0;
	for (int g = 0; g < sd->ngroups; g++)
		if (sl_cpumask_test(&sd->groups[g].cpumask, cpu))
			sd->local = g;
	sd->p = s->level[lv];
	sd->last_balance = 0;
	sd->balance_interval = 1;
	sd->nr_balance_failed = 0;
}

int sd_build_domains(struct sd_sched *s, struct sl_err *err)
{
	int n = s->ncpus;

	s->domains = sl_xcalloc((unsigned long)n * SD_NR_LEVELS, sizeof(struct sd_domain));
	s->group_store = sl_xcalloc((unsigned long)n * SD_NR_LEVELS, sizeof(struct sd_group));
	s->ngroups_used = 0;
	for (int lv = 0; lv < SD_NR_LEVELS; lv++)
		for (int cpu = 0; cpu < n; cpu++)
			sd_build_level(s, cpu, (enum sd_level)lv);
	for (int cpu = 0; cpu < n; cpu++) {
		s->sib_first[cpu] = sl_cpumask_first(sl_topo_siblings(s->topo, cpu));
		s->sib_end[cpu] = sl_cpumask_last(sl_topo_siblings(s->topo, cpu)) + 1;
	}

	/* link the levels the version builds */
	for (int cpu = 0; cpu < n; cpu++) {
		struct sd_domain *below = NULL;
		sd_rq(s, cpu)->sd = NULL;
		for (int lv = 0; lv < SD_NR_LEVELS; lv++) {
			struct sd_domain *sd = sd_slot(s, cpu, (enum sd_level)lv);
			if (!sd_level_built(s, sd))
				continue;
			sl_cpumask inner = below ? sl_cpumask_and(sd->span, &below->span) : sd->span;
			if (below && !sl_cpumask_equal(&inner, &below->span))
				return sl_fail_internal(err, "domains: CPU %d: level %d does not "
							"contain level %d", cpu, lv, below->level);
			sd->child = below;
			if (below)
				below->parent = sd;
			else
				sd_rq(s, cpu)->sd = sd;
			below = sd;
		}
	}
	return 0;
}

void sd_free_domains(struct sd_sched *s)
{
	free(s->domains);
	free(s->group_store);
	s->domains = NULL;
	s->group_store = NULL;
}
