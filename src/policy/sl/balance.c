/*
 * sl/balance.c - policy `sl`: load balancing over the topology.
 *
 * Each CPU has a chain of spans, smallest first: its SMT core, last-level
 * cache, package, node and the machine, dropping any that equals the one
 * below (a package of one core, a package of one LLC - every preset's -, a
 * node of one package).  A level compares the groups (child spans) inside
 * its span by tasks per CPU.
 *
 *   periodic    every balance_ms at the lowest level, doubling per level
 *               up, and every numa_balance_ms at a level whose span
 *               crosses nodes.  The least loaded CPU of the local group
 *               pulls one queued task from the busiest group if that
 *               leaves the busiest group at least as loaded as the local
 *               one (the move improves or evens out, never reverses an
 *               imbalance).  It takes the task that ran longest ago: its
 *               cache is the coldest, so the move costs least.
 *   active      if the busiest group has no queued task but one of its
 *               cores runs two tasks while this CPU's whole core is idle,
 *               the migration thread of one of them preempts it and
 *               pushes it here (knob active).  Only within a node.
 *   NUMA        a level whose span crosses nodes acts only after the same
 *               imbalance was seen numa_persist balances in a row
 *               (numa_balance_ms apart: 4 x 50 ms by default).  A task that
 *               has run numa_settle_ms on its node since it got there has
 *               settled there (its cache, and if that is its memory's
 *               node, its memory: at home).  The balancer first takes a
 *               task not settled at home, from the CPU of the busiest
 *               group with the most tasks waiting that has one: one whose
 *               memory is on this node (going home), else one whose memory
 *               is not on the busy node, else the one that has run least
 *               there.  Only if the busiest group has none does a settled
 *               task move, and only if the groups' settled tasks alone are
 *               imbalanced (moving one leaves the busy group at least as
 *               many per CPU: two tasks between equal nodes), and only one
 *               whose CPU holds another settled task (they would share it).
 *               Moving a task away from its memory costs remote accesses
 *               for the rest of its life (3.5x the latency on NUMA-Q), so
 *               a momentary imbalance (hackbench's bursts) is not a reason,
 *               and neither is a lasting one made of tasks that come and go.
 *               Traced (schedbench, numaq-16, 64 walkers: two settled at
 *               home on every CPU): hackbench's short-lived processes left
 *               node 0 at 21 tasks against 17 for the 200 ms, while every
 *               node held 16 settled walkers; a CPU of node 1 pulled from a
 *               CPU of node 0 whose queue held only walkers at that instant
 *               (the hackbench processes sat on other CPUs), so it took a
 *               walker, and so did another CPU in the same tick; node 0,
 *               now short, pulled walkers from the others: four walkers ran
 *               away from their memory, Elapsed 289 s against 236 s, in 8
 *               of 15 runs.  Before Dec 2026 the only guard was the CPU's
 *               second settled task, which two walkers per CPU always met.
 *               Counting settled tasks per CPU (rq->nr_settled) is 6.12's
 *               rq->nr_preferred_running; taking well-placed tasks last is
 *               its fbq_type (find_busiest_queue() skips runqueues holding
 *               only tasks on their preferred node while others exist).
 *   newly idle  a CPU about to idle pulls the coldest queued task from the
 *               CPU with the most queued tasks, nearest level first (knob
 *               newidle); across nodes only from a CPU that holds two
 *               settled tasks, the NUMA balancer's SLS_SHARING rule
 *               without its wait for a lasting imbalance (knob
 *               newidle_numa): a task woken onto a doubled-up CPU of one
 *               node need not wait out its neighbour's slice while a CPU
 *               of the other node idles (schbench, docs/policies/sl.md).
 *
 * Sources: Nick Piggin's scheduler domains (2.6.12.1 kernel/sched.c: the
 * hierarchy, intervals growing with the level, newly-idle balancing,
 * active balancing through the migration thread); Ingo Molnar's HT
 * scheduler (active balancing of an idle package, F3/A9); the 2.5.59 NUMA
 * scheduler (rare, cautious node balancing; docs/policies/o1.md); 6.12
 * kernel/sched/fair.c (account_numa_enqueue()'s nr_preferred_running,
 * fbq_classify_rq() and find_busiest_queue(): well-placed tasks last);
 * J.-P. Lozi et al., "The Linux Scheduler: a Decade of Wasted Cores", EuroSys 2016.
 *
 * Choices: load is the number of runnable tasks (nice is ignored by the
 * balancer, as in the 2.6 NUMA scheduler); a move between equal groups
 * needs a difference of two tasks.
 *
 * Cost: the balancer is charged as a scan of the span: one scan item per
 * CPU of the span (up to the first less loaded CPU of the local group,
 * where the walk stops) and per queued task a pull looks at.  The
 * simulator reaches the same decision without that walk: each group's
 * load is a sum kept up to date as CPUs' loads change (struct sls_group),
 * with an upper bound of the groups' loads per span (sls_level.max_load),
 * and the CPUs with tasks waiting are a mask (s->waiting), so a balance
 * reads one sum per group (none when the bound rules an imbalance out)
 * and walks only the local group; what it charges is what the walk would
 * have cost, so the simulated results are those of the walk
 * (docs/policies/sl.md, "Costs").  A NUMA decision also reads the settled
 * counts of the two groups' CPUs, which the walk of the span would read
 * beside their loads: not charged again.
 */
#include "policy/sl/sl.h"

#include <stdlib.h>

/* ---- building the levels ---- */

enum { SLS_SELF, SLS_CORE, SLS_LLC, SLS_PKG, SLS_NODE, SLS_ALL, SLS_KINDS };

/* The topology's mask of cpu's span of a kind above SLS_SELF. */
static const sl_cpumask *sls_span_of(const struct sl_topo *tp, int kind, int cpu)
{
	switch (kind) {
	case SLS_CORE:
		return sl_topo_siblings(tp, cpu);
	case SLS_LLC:
		return sl_topo_llc(tp, cpu);
	case SLS_PKG:
		return sl_topo_package(tp, cpu);
	case SLS_NODE:
		return sl_topo_node(tp, cpu);
	default:
		return &tp->all_cpus;
	}
}

/* The groups of a level spanning lv->span whose groups are spans of `kind`:
 * the same for every CPU of the span, so built by the first of them and
 * shared (as the kernel's sched_groups are), with everything about the
 * span; only `local`, `before_local` and the balancing state are per CPU.
 * idx[i * ncpus + c]: c's group in the span its owner built as level i. */
static void sls_level_groups(struct sls *s, int cpu, struct sls_level *lv, int kind, int *idx)
{
	const struct sl_topo *tp = s->topo;
	int first = sl_cpumask_first(lv->span), owner_level = -1;

	if (first < cpu) {
		const struct sls_rq *owner = &s->rq[first];
		for (int i = 0; i < owner->nlevels && owner_level < 0; i++)
			if (owner->lv[i].span == lv->span ||
			    sl_cpumask_equal(owner->lv[i].span, lv->span)) {
				const struct sls_level *o = &owner->lv[i];
				lv->ngroups = o->ngroups;
				lv->groups = o->groups;
				lv->group_cpus = o->group_cpus;
				lv->max_load = o->max_load;
				lv->span_weight = o->span_weight;
				lv->span_first = o->span_first;
				lv->span_last = o->span_last;
				lv->same_weight = o->same_weight;
				lv->numa = o->numa;	/* a property of the span */
				lv->owner = false;
				owner_level = i;
			}
	}
	if (owner_level >= 0) {
		int g = idx[owner_level * s->ncpus + cpu];
		if (g < 0 || g >= lv->ngroups || !sl_cpumask_test(&lv->group_cpus[g], cpu))
			for (g = 0; !sl_cpumask_test(&lv->group_cpus[g], cpu); g++)
				;	/* an uneven topology: look */
		lv->local = g;
		lv->before_local = lv->groups[g].before;
		return;
	}
	/* a group per distinct span of `kind` in it: walk the span once,
	 * skipping the CPUs a group already holds */
	int n = 0, cap = 4, level = (int)(lv - s->rq[cpu].lv);
	struct sls_group *groups = sl_xmalloc((unsigned long)cap * sizeof(*groups));
	sl_cpumask *cpus = sl_xmalloc((unsigned long)cap * sizeof(*cpus));
	sl_cpumask seen;
	sl_cpumask_clear(&seen);
	lv->span_weight = 0;
	lv->span_first = first;
	sl_for_each_cpu(c, lv->span) {
		lv->span_last = c;
		if (sl_cpumask_test(&seen, c))
			continue;
		sl_cpumask g;
		if (kind == SLS_SELF) {
			sl_cpumask_clear(&g);
			sl_cpumask_set(&g, c);
		} else {
			g = sl_cpumask_and(*sls_span_of(tp, kind, c), lv->span);
		}
		seen = sl_cpumask_or(seen, &g);
		if (n == cap) {
			cap *= 2;
			groups = sl_xrealloc(groups, (unsigned long)cap * sizeof(*groups));
			cpus = sl_xrealloc(cpus, (unsigned long)cap * sizeof(*cpus));
		}
		cpus[n] = g;
		groups[n].load = 0;	/* nothing runs yet */
		groups[n].weight = 0;
		groups[n].before = lv->span_weight;
		groups[n].first = sl_cpumask_first(&g);
		sl_for_each_cpu(x, &g) {
			groups[n].weight++;
			groups[n].last = x;
			idx[level * s->ncpus + x] = n;
		}
		lv->span_weight += groups[n].weight;
		if (sl_cpumask_test(&g, cpu))
			lv->local = n;
		n++;
	}
	lv->ngroups = n;
	lv->groups = groups;
	lv->group_cpus = cpus;
	lv->owner = true;
	lv->max_load = sl_xcalloc(1, sizeof(*lv->max_load));
	lv->before_local = groups[lv->local].before;
	lv->same_weight = true;
	for (int i = 0; i < n; i++)
		lv->same_weight &= groups[i].weight == groups[0].weight;
	/* crosses nodes: not within this CPU's node (then within no CPU's of
	 * the span: any of them in this node has it as its node) */
	lv->numa = !sl_cpumask_subset_in(lv->span, sl_topo_node(tp, cpu), 0, tp->ncpus);
}

static void sls_build_cpu(struct sls *s, struct sls_rq *rq, int *idx)
{
	const struct sl_topo *tp = s->topo;
	int kinds[SLS_KINDS], n = 0, cpu = rq->cpu;
	const sl_cpumask *chain[SLS_KINDS];

	/* the spans of this CPU above itself, each a strict superset of the
	 * one before */
	for (int k = SLS_CORE; k < SLS_KINDS; k++) {
		const sl_cpumask *m = sls_span_of(tp, k, cpu);
		if (n && (m == chain[n - 1] || sl_cpumask_equal(m, chain[n - 1]) ||
			  !sl_cpumask_subset_in(chain[n - 1], m, 0, tp->ncpus)))
			continue;
		kinds[n] = k;
		chain[n++] = m;
	}
	rq->nlevels = 0;
	for (int i = 0; i < n && rq->nlevels < SLS_MAX_LEVELS; i++) {
		/* a core of one CPU: nothing to balance */
		if (i == 0 && sl_cpumask_next(chain[0], sl_cpumask_first(chain[0]) + 1) < 0)
			continue;
		struct sls_level *lv = &rq->lv[rq->nlevels++];
		lv->span = chain[i];
		sls_level_groups(s, cpu, lv, i ? kinds[i - 1] : SLS_SELF, idx);
		lv->interval = lv->numa ? s->numa_ticks : s->balance_ticks << (rq->nlevels - 1);
		lv->next = (uint64_t)lv->interval;
		lv->imb_count = 0;
		if (rq->nlevels == 1 || lv->next < s->next_balance[cpu])
			s->next_balance[cpu] = lv->next;
	}
}

/* Linear in CPUs for a machine of a few levels: each level's groups are
 * built once per span, not once per CPU (1,024 CPUs: 1.4 s and 81 MB
 * before). */
/* Each CPU's list of the groups that hold it (sls_rq.sums), from every
 * level's groups.  On a nested topology they are its own levels' local
 * groups; where a package crosses nodes a CPU can sit in a group of a span
 * it has no level of (its package is not inside that node), and that
 * group's load must count it too (the fuzzer found one). */
static void sls_build_sums(struct sls *s)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int cpu = 0; cpu < s->ncpus; cpu++) {
			struct sls_rq *rq = &s->rq[cpu];
			if (pass == 1) {
				rq->sums = sl_xcalloc((unsigned long)rq->nsums + 1, sizeof(int *));
				rq->max_loads = sl_xcalloc((unsigned long)rq->nsums + 1,
							   sizeof(int *));
			}
			rq->nsums = 0;
		}
		for (int cpu = 0; cpu < s->ncpus; cpu++) {
			const struct sls_rq *o = &s->rq[cpu];
			for (int i = 0; i < o->nlevels; i++) {
				const struct sls_level *lv = &o->lv[i];
				if (!lv->owner)
					continue;
				for (int g = 0; g < lv->ngroups; g++)
					sl_for_each_cpu(x, &lv->group_cpus[g]) {
						struct sls_rq *rx = &s->rq[x];
						if (pass == 1) {
							rx->sums[rx->nsums] = &lv->groups[g].load;
							rx->max_loads[rx->nsums] = lv->max_load;
						}
						rx->nsums++;
					}
			}
		}
	}
}

void sls_build_levels(struct sls *s)
{
	const struct sl_topo *tp = s->topo;

	int *idx = sl_xmalloc((unsigned long)SLS_MAX_LEVELS * (unsigned long)s->ncpus *
			      sizeof(*idx));

	for (int i = 0; i < SLS_MAX_LEVELS * s->ncpus; i++)
		idx[i] = -1;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		sls_build_cpu(s, &s->rq[cpu], idx);
	free(idx);
	sls_build_sums(s);
	/* the nodes in order of distance from each (itself first; ties by
	 * id), for sls_idlest_node */
	s->node_order = sl_xmalloc((unsigned long)tp->nnodes * (unsigned long)tp->nnodes *
				   sizeof(*s->node_order));
	for (int own = 0; own < tp->nnodes; own++) {
		int *order = &s->node_order[own * tp->nnodes], n = 0;
		for (int i = 0; i < tp->nnodes; i++) {
			int k = n++;
			int key = i == own ? -1 : tp->node_distance[own][i];
			while (k > 0) {
				int j = order[k - 1];
				int kj = j == own ? -1 : tp->node_distance[own][j];
				if (kj <= key)
					break;
				order[k] = j;
				k--;
			}
			order[k] = i;
		}
		s->node_weight[own] = sl_cpumask_weight(&tp->node_cpus[own]);
		s->node_lo[own] = sl_cpumask_first(&tp->node_cpus[own]) / 64;
		s->node_hi[own] = s->node_lo[own];
		sl_for_each_cpu(c, &tp->node_cpus[own])
			s->node_hi[own] = c / 64;
	}
	/* nothing runs yet: every CPU and core is idle */
	s->span_words = (s->ncpus + 63) / 64;
	s->core_busy = sl_xcalloc((unsigned long)tp->ncores, sizeof(*s->core_busy));
	s->load_is[0] = tp->all_cpus;
	s->idle_core = tp->all_cpus;
}

void sls_free_levels(struct sls *s)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		for (int i = 0; i < s->rq[cpu].nlevels; i++)
			if (s->rq[cpu].lv[i].owner) {
				free(s->rq[cpu].lv[i].groups);
				free(s->rq[cpu].lv[i].group_cpus);
				free(s->rq[cpu].lv[i].max_load);
			}
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		free(s->rq[cpu].sums);
		free(s->rq[cpu].max_loads);
	}
	free(s->node_order);
	free(s->core_busy);
}

void sls_load_masks(struct sls *s, int cpu, int old)
{
	int core = s->topo->cpu_core[cpu], now = s->load[cpu];
	const sl_cpumask *sib = sl_topo_siblings(s->topo, cpu);

	if (old < SLS_LOAD_MASKS)
		sl_cpumask_unset(&s->load_is[old], cpu);
	if (now < SLS_LOAD_MASKS)
		sl_cpumask_set(&s->load_is[now], cpu);
	if (old && now)
		return;		/* busy before and after */
	if (!now) {
		if (--s->core_busy[core] == 0)
			for (int w = 0; w < s->span_words; w++)
				s->idle_core.w[w] |= sib->w[w];
	} else {
		if (s->core_busy[core]++ == 0)
			for (int w = 0; w < s->span_words; w++)
				s->idle_core.w[w] &= ~sib->w[w];
	}
}

int sls_check_sums(const struct sls *s, struct sl_err *err)
{
	long node[SL_MAX_NODES] = { 0 };

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		const struct sls_rq *rq = &s->rq[cpu];
		if (sls_load_of(s, cpu) != rq->nr_running + rq->incoming)
			return sl_fail_internal(err, "sl: CPU %d: load %d, %d running + %d incoming",
						cpu, sls_load_of(s, cpu), rq->nr_running,
						rq->incoming);
		node[s->topo->cpu_node[cpu]] += sls_load_of(s, cpu);
		bool core_idle = true;
		sl_for_each_cpu(c, sl_topo_siblings(s->topo, cpu))
			core_idle &= sls_load_of(s, c) == 0;
		for (int l = 0; l < SLS_LOAD_MASKS; l++)
			if (sl_cpumask_test(&s->load_is[l], cpu) != (sls_load_of(s, cpu) == l))
				return sl_fail_internal(err, "sl: CPU %d: load %d, in the mask of "
							"load %d: %d", cpu, sls_load_of(s, cpu),
							l, sl_cpumask_test(&s->load_is[l], cpu));
		if (sl_cpumask_test(&s->load_is[0], cpu) != (sls_load_of(s, cpu) == 0) ||
		    sl_cpumask_test(&s->idle_core, cpu) != core_idle ||
		    sls_core_idle(s, cpu) != core_idle)
			return sl_fail_internal(err, "sl: CPU %d: load %d, idle bit %d, idle-core "
						"bit %d, core's busy CPUs %d", cpu,
						sls_load_of(s, cpu),
						sl_cpumask_test(&s->load_is[0], cpu),
						sl_cpumask_test(&s->idle_core, cpu),
						s->core_busy[s->topo->cpu_core[cpu]]);
		if (sls_waiting(rq) != sl_cpumask_test(&s->waiting, cpu))
			return sl_fail_internal(err, "sl: CPU %d: %d queued behind %d, waiting bit %d",
						cpu, rq->nq, rq->curr ? rq->curr->task->id : -1,
						sl_cpumask_test(&s->waiting, cpu));
		for (int i = 0; i < rq->nlevels; i++) {
			const struct sls_level *lv = &rq->lv[i];
			if (!lv->owner)
				continue;	/* its owner checks them */
			for (int g = 0; g < lv->ngroups; g++) {
				int sum = 0;
				sl_for_each_cpu(c, &lv->group_cpus[g])
					sum += sls_load_of(s, c);
				if (sum != lv->groups[g].load)
					return sl_fail_internal(err, "sl: CPU %d level %d group %d: "
								"load %d, its CPUs' %d", cpu, i,
								g, lv->groups[g].load, sum);
				if (sum > *lv->max_load)
					return sl_fail_internal(err, "sl: CPU %d level %d group %d: "
								"load %d above the bound %d", cpu,
								i, g, sum, *lv->max_load);
			}
		}
	}
	for (int n = 0; n < s->topo->nnodes; n++)
		if (node[n] != s->node_load[n])
			return sl_fail_internal(err, "sl: node %d: load %ld, its CPUs' %ld", n,
						s->node_load[n], node[n]);
	return 0;
}

/* ---- moving ---- */

void sls_request_move(struct sls *s, struct sls_ent *e, int dest)
{
	struct sls_rq *rq = &s->rq[e->cpu];

	if (rq->mig_ent || dest == e->cpu)
		return;
	rq->mig_ent = e;
	rq->mig_dest = dest;
	e->mig_cpu = e->cpu;
	sls_incoming_add(s, dest, 1);
	sl_migration_wake(s->sim, e->cpu, dest);
}

void sls_cancel_move(struct sls *s, int cpu)
{
	struct sls_rq *rq = &s->rq[cpu];

	if (!rq->mig_ent)
		return;
	sls_incoming_add(s, rq->mig_dest, -1);
	rq->mig_ent->mig_cpu = -1;
	rq->mig_ent = NULL;
	rq->mig_dest = -1;
}

/* Which settled tasks (sls_settled) a pull may take across nodes. */
enum sls_settled_rule {
	SLS_ANY,		/* within a node: settling does not matter */
	SLS_KEEP_HOME,		/* none settled on the node of its memory */
	SLS_SHARING,		/* one whose CPU holds another settled task */
};

/* The queued task of src to move to dst: the coldest one; across nodes,
 * one whose memory is on dst's node, else not on src's, else the one
 * that has run least on src's node, settled ones as `rule` allows. */
static struct sls_ent *sls_pick_pull(struct sls *s, int src, int dst, enum sls_settled_rule rule,
				     long *looked)
{
	struct sls_rq *rq = &s->rq[src];
	int snode = s->topo->cpu_node[src], dnode = s->topo->cpu_node[dst];
	bool numa = rule != SLS_ANY;
	struct sls_ent *best = NULL;
	int best_rank = 0, settled = 0;
	/* the first entries of the heap: the next to run and the ones
	 * just behind them (a long queue is not walked whole, as Linux's
	 * detach_tasks stops at sched_nr_migrate) */
	int n = s->pull_scan && s->pull_scan < rq->nq ? s->pull_scan : rq->nq;

	if (rule == SLS_SHARING) {
		settled = rq->curr && sls_settled(s, rq->curr);
		for (int i = 0; i < n; i++)
			settled += sls_settled(s, rq->heap[i]);
	}
	for (int i = 0; i < n; i++) {
		struct sls_ent *e = rq->heap[i];
		(*looked)++;
		if (!sl_cpumask_test(&e->task->allowed, dst) || e == rq->mig_ent)
			continue;
		/* rank 2: its memory is on src's node */
		int rank = !numa ? 0 : e->mem_node == dnode ? 0 : e->mem_node != snode ? 1 : 2;
		if (numa && sls_settled(s, e) &&
		    (rule == SLS_KEEP_HOME ? rank == 2 : settled < 2))
			continue;
		if (best && rank > best_rank)
			continue;
		if (best && rank == best_rank) {
			if (numa && rank == 2 && e->node_ns != best->node_ns) {
				if (e->node_ns > best->node_ns)
					continue;
			} else if (e->task->last_ran > best->task->last_ran ||
				   (e->task->last_ran == best->task->last_ran &&
				    e->task->id > best->task->id)) {
				continue;
			}
		}
		best = e;
		best_rank = rank;
	}
	return best;
}

/* Pull one queued task from src to cpu; true if one moved. */
static bool sls_pull(struct sls *s, int src, int cpu, enum sls_settled_rule rule, bool kick,
		     long *looked)
{
	struct sls_ent *e = sls_pick_pull(s, src, cpu, rule, looked);

	if (!e)
		return false;
	sls_move_queued(s, e, cpu);
	if (kick)
		sls_check_preempt(s, &s->rq[cpu], e, false);
	return true;
}

/* Siblings of cpu's core running a task that is not leaving. */
static int sls_core_running(const struct sls *s, int cpu)
{
	int n = 0;

	sl_for_each_cpu(c, sl_topo_siblings(s->topo, cpu))
		n += s->rq[c].curr && !s->rq[c].mig_ent;
	return n;
}

/* ---- periodic ---- */

/* The CPU of m (whose CPUs are first..last) with the most tasks waiting
 * behind a running one (the first such in CPU order), cpu aside; -1 if
 * none has any. */
static int sls_most_waiting(const struct sls *s, const sl_cpumask *m, int first, int last,
			    int cpu)
{
	int src = -1;

	for (int w = first >> 6; w <= last >> 6; w++) {
		for (uint64_t x = m->w[w] & s->waiting.w[w]; x; x &= x - 1) {
			int c = w * 64 + __builtin_ctzll(x);
			if (c != cpu && (src < 0 || s->rq[c].nq > s->rq[src].nq))
				src = c;
		}
	}
	return src;
}

/* Runnable tasks settled on their node on the CPUs of lv's group g. */
static int sls_group_settled(const struct sls *s, const struct sls_level *lv, int g)
{
	int n = 0;

	sl_for_each_cpu(c, &lv->group_cpus[g])
		n += s->rq[c].nr_settled;
	return n;
}

/* Across nodes, group b having been busier than cpu's for long (see the
 * header): a task not settled at home - it has not settled, or its memory
 * is elsewhere anyway - from the CPU of b with the most tasks waiting that
 * has one to give; else a settled one, as before, but only if b's settled
 * tasks alone are imbalanced against the local group's (moving one would
 * not reverse that imbalance); else nothing. */
static void sls_numa_pull(struct sls *s, int cpu, const struct sls_level *lv, int b, long *looked)
{
	const struct sls_group *gr = lv->groups;
	int l = lv->local;
	sl_cpumask left = lv->group_cpus[b];

	for (;;) {
		int src = sls_most_waiting(s, &left, gr[b].first, gr[b].last, -1);
		if (src < 0)
			break;
		if (sls_pull(s, src, cpu, SLS_KEEP_HOME, true, looked))
			return;
		sl_cpumask_unset(&left, src);
	}
	/* the settled counts are per-CPU sums read with the loads the
	 * span's walk (already charged) reads */
	int st_l = sls_group_settled(s, lv, l), st_b = sls_group_settled(s, lv, b);
	if ((long)(st_b - 1) * gr[l].weight < (long)(st_l + 1) * gr[b].weight)
		return;
	int src = sls_most_waiting(s, &lv->group_cpus[b], gr[b].first, gr[b].last, -1);
	if (src >= 0)
		sls_pull(s, src, cpu, SLS_SHARING, true, looked);
}

/*
 * The scan of my group (CPUs ascending) for one with a load below
 * `mine`, 0 < mine <= SLS_LOAD_MASKS, a word at a time: the group's CPUs
 * in the masks of the loads below mine.  The CPUs the scan looks at up
 * to the first found, or 0 if none is (the caller then counts the whole
 * span).  The same CPU and count as the CPU-by-CPU walk (a load read
 * and a step to the next bit per CPU, at every balance of every busy
 * CPU: 4 % of a 64-CPU spin), since load_is[k] holds exactly the CPUs
 * of load k (sls_load_masks; the check op checks).
 */
static long sls_scan_below_masks(const struct sls *s, const struct sls_level *lv, int l,
				 int mine)
{
	const sl_cpumask *g = &lv->group_cpus[l];
	int w0 = lv->groups[l].first >> 6, w1 = lv->groups[l].last >> 6;

	for (int w = w0; w <= w1; w++) {
		uint64_t below = s->load_is[0].w[w];
		for (int k = 1; k < mine; k++)
			below |= s->load_is[k].w[w];
		uint64_t x = g->w[w] & below;
		if (!x)
			continue;
		/* found: the group's CPUs up to it, itself included */
		int bit = __builtin_ctzll(x);
		long n = sl_popcount64(g->w[w] & (bit == 63 ? ~0ULL : (2ULL << bit) - 1));
		for (int v = w0; v < w; v++)
			n += sl_popcount64(g->w[v]);
		return n;
	}
	return 0;
}

static void sls_balance_level(struct sls *s, int cpu, struct sls_level *lv)
{
	const struct sls_group *gr = lv->groups;
	int l = lv->local, b = -1, mine = sls_load_of(s, cpu);
	long looked = lv->before_local;

	/* a less loaded CPU of my group pulls; the scan of the span, group
	 * by group, would stop there.  An idle CPU has no less loaded one,
	 * and what its walk counts is replaced below: it skips the walk. */
	if (mine > 0 && mine <= SLS_LOAD_MASKS) {
		long n = sls_scan_below_masks(s, lv, l, mine);
		if (n) {
			looked += n;
			goto out;
		}
	} else if (mine > 0) {
		for (int c = gr[l].first;; c = sl_cpumask_next(&lv->group_cpus[l], c + 1)) {
			looked++;
			if (sls_load_of(s, c) < mine)
				goto out;
			if (c == gr[l].last)
				break;
		}
	}
	looked = lv->span_weight;
	/* the busiest group other than mine (the first of equals) */
	if (lv->same_weight) {
		/* none can have two tasks more than mine: no imbalance, as
		 * the comparison below would find */
		if (*lv->max_load < gr[l].load + 2) {
			lv->imb_count = 0;
			goto out;
		}
		int max = gr[l].load;
		for (int g = 0; g < lv->ngroups; g++) {
			if (g != l && (b < 0 || gr[g].load > gr[b].load))
				b = g;
			if (gr[g].load > max)
				max = gr[g].load;
		}
		*lv->max_load = max;
	} else {
		for (int g = 0; g < lv->ngroups; g++)
			if (g != l && (b < 0 || (long)gr[g].load * gr[b].weight >
						(long)gr[b].load * gr[g].weight))
				b = g;
	}
	if (b < 0 ||
	    (long)(gr[b].load - 1) * gr[l].weight < (long)(gr[l].load + 1) * gr[b].weight) {
		lv->imb_count = 0;
		goto out;
	}
	if (lv->numa && ++lv->imb_count < s->numa_persist)
		goto out;
	lv->imb_count = 0;

	if (lv->numa) {
		sls_numa_pull(s, cpu, lv, b, &looked);
		goto out;
	}
	/* the CPU of the busiest group with the most queued tasks */
	int src = sls_most_waiting(s, &lv->group_cpus[b], gr[b].first, gr[b].last, -1);
	if (src >= 0 && sls_pull(s, src, cpu, SLS_ANY, true, &looked))
		goto out;
	if (!s->active || !sls_core_idle(s, cpu))
		goto out;
	/* nothing queued: a core of the busiest group runs two tasks while
	 * this whole core idles; its migration thread pushes one here */
	sl_for_each_cpu(c, &lv->group_cpus[b]) {
		struct sls_ent *e = s->rq[c].curr;
		if (e && !s->rq[c].mig_ent && sls_core_running(s, c) >= 2 &&
		    sl_cpumask_test(&e->task->allowed, cpu)) {
			sls_request_move(s, e, cpu);
			break;
		}
	}
out:
	sl_charge_sched(s->sim, cpu, looked * s->scan_ns);
}

void sls_balance_tick(struct sls *s, int cpu)
{
	struct sls_rq *rq = &s->rq[cpu];
	uint64_t now = sl_jiffies(s->sim);

	if (now < s->next_balance[cpu])
		return;		/* most ticks: one look at a compact array */
	uint64_t next = UINT64_MAX;
	for (int i = 0; i < rq->nlevels; i++) {
		struct sls_level *lv = &rq->lv[i];
		if (now >= lv->next) {
			lv->next = now + (uint64_t)lv->interval;
			sls_balance_level(s, cpu, lv);
		}
		if (lv->next < next)
			next = lv->next;
	}
	s->next_balance[cpu] = next;
}

/* ---- newly idle ---- */

bool sls_newidle(struct sls *s, int cpu)
{
	struct sls_rq *rq = &s->rq[cpu];
	long looked = 0;
	bool moved = false;

	for (int i = 0; i < rq->nlevels && !moved; i++) {
		struct sls_level *lv = &rq->lv[i];
		if (lv->numa && !s->newidle_numa)
			break;
		/* charged as a walk of the span */
		looked += lv->span_weight;
		int src = sls_most_waiting(s, lv->span, lv->span_first, lv->span_last, cpu);
		if (src < 0)
			continue;
		/* across nodes (knob newidle_numa): only a task that waits on
		 * a CPU holding another settled task (SLS_SHARING), the
		 * periodic balancer's rule, without its wait for the
		 * imbalance to last: a CPU about to idle beside a node whose
		 * one doubled-up CPU makes a woken task wait takes it */
		moved = sls_pull(s, src, cpu, lv->numa ? SLS_SHARING : SLS_ANY, false, &looked);
		if (lv->numa)
			break;
	}
	sl_charge_sched(s->sim, cpu, looked * s->scan_ns);
	return moved;
}
