/*
 * sl/balance.c - policy `sl`: load balancing over the topology.
 *
 * Each CPU has a chain of spans, smallest first: its SMT core, package,
 * node and the machine, dropping any that equals the one below (a
 * package of one core, a node of one package).  A level compares the
 * groups (child spans) inside its span by tasks per CPU.
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
 *               (numa_balance_ms apart: 4 x 50 ms by default), and then
 *               prefers a task whose memory is on this node (going home),
 *               then one whose memory is not on the busy node, then the
 *               one that has run least on the busy node since it got there.
 *               A task that has run numa_settle_ms there is taken only if
 *               its CPU holds another such task (they would share it).
 *               Moving a task away from its memory costs remote accesses
 *               for the rest of its life (3.5x the latency on NUMA-Q), so
 *               a momentary imbalance (hackbench's bursts) is not a reason.
 *   newly idle  a CPU about to idle pulls the coldest queued task from the
 *               CPU with the most queued tasks, nearest level first, never
 *               across nodes (knob newidle).
 *
 * Sources: Nick Piggin's scheduler domains (2.6.12.1 kernel/sched.c: the
 * hierarchy, intervals growing with the level, newly-idle balancing,
 * active balancing through the migration thread); Ingo Molnar's HT
 * scheduler (active balancing of an idle package, F3/A9); the 2.5.59 NUMA
 * scheduler (rare, cautious node balancing; docs/policies/o1.md);
 * J.-P. Lozi et al., "The Linux Scheduler: a Decade of Wasted Cores", EuroSys 2016.
 *
 * Choices: load is the number of runnable tasks (nice is ignored by the
 * balancer, as in the 2.6 NUMA scheduler); a move between equal groups
 * needs a difference of two tasks.  Every CPU and task examined is
 * charged to the balancing CPU as a scan item.
 */
#include "policy/sl/sl.h"

#include <stdlib.h>

/* ---- building the levels ---- */

enum { SLS_SELF, SLS_CORE, SLS_PKG, SLS_NODE, SLS_ALL, SLS_KINDS };

static sl_cpumask sls_span_of(const struct sl_topo *tp, int kind, int cpu)
{
	sl_cpumask m;

	switch (kind) {
	case SLS_SELF:
		sl_cpumask_clear(&m);
		sl_cpumask_set(&m, cpu);
		return m;
	case SLS_CORE:
		return *sl_topo_siblings(tp, cpu);
	case SLS_PKG:
		return *sl_topo_package(tp, cpu);
	case SLS_NODE:
		return *sl_topo_node(tp, cpu);
	default:
		return tp->all_cpus;
	}
}

static bool sls_subset(const sl_cpumask *a, const sl_cpumask *b)
{
	sl_cpumask x = sl_cpumask_and(*a, b);
	return sl_cpumask_equal(&x, a);
}

static int sls_nodes_in(const struct sl_topo *tp, const sl_cpumask *m)
{
	int n = 0;

	for (int i = 0; i < tp->nnodes; i++) {
		sl_cpumask x = sl_cpumask_and(tp->node_cpus[i], m);
		n += !sl_cpumask_empty(&x);
	}
	return n;
}

/* The groups of a level spanning `span` whose groups are spans of `kind`:
 * the same for every CPU of the span, so built by the first of them and
 * shared (as the kernel's sched_groups are); only `local` is per CPU. */
static sl_cpumask *sls_level_groups(struct sls *s, int cpu, const sl_cpumask *span, int kind,
				    int *ngroups)
{
	const struct sl_topo *tp = s->topo;
	int first = sl_cpumask_first(span);

	if (first < cpu) {
		const struct sls_rq *owner = &s->rq[first];
		for (int i = 0; i < owner->nlevels; i++)
			if (sl_cpumask_equal(&owner->lv[i].span, span)) {
				*ngroups = owner->lv[i].ngroups;
				return owner->lv[i].groups;
			}
	}
	/* a group per distinct span of `kind` in it: walk the span once,
	 * skipping the CPUs a group already holds */
	int n = 0, cap = 4;
	sl_cpumask *groups = sl_xmalloc((unsigned long)cap * sizeof(*groups));
	sl_cpumask seen;
	sl_cpumask_clear(&seen);
	sl_for_each_cpu(c, span) {
		if (sl_cpumask_test(&seen, c))
			continue;
		sl_cpumask g = sls_span_of(tp, kind, c);
		g = sl_cpumask_and(g, span);
		seen = sl_cpumask_or(seen, &g);
		if (n == cap) {
			cap *= 2;
			groups = sl_xrealloc(groups, (unsigned long)cap * sizeof(*groups));
		}
		groups[n++] = g;
	}
	*ngroups = n;
	return groups;
}

static void sls_build_cpu(struct sls *s, struct sls_rq *rq)
{
	const struct sl_topo *tp = s->topo;
	int kinds[SLS_KINDS], n = 0, cpu = rq->cpu;
	sl_cpumask chain[SLS_KINDS];

	/* the spans of this CPU, each a strict superset of the one before */
	for (int k = SLS_SELF; k < SLS_KINDS; k++) {
		sl_cpumask m = sls_span_of(tp, k, cpu);
		if (n && (sl_cpumask_equal(&m, &chain[n - 1]) || !sls_subset(&chain[n - 1], &m)))
			continue;
		kinds[n] = k;
		chain[n++] = m;
	}
	rq->nlevels = 0;
	for (int i = 1; i < n && rq->nlevels < SLS_MAX_LEVELS; i++) {
		struct sls_level *lv = &rq->lv[rq->nlevels++];
		lv->span = chain[i];
		lv->groups = sls_level_groups(s, cpu, &chain[i], kinds[i - 1], &lv->ngroups);
		for (int g = 0; g < lv->ngroups; g++)
			if (sl_cpumask_test(&lv->groups[g], cpu))
				lv->local = g;
		lv->numa = sls_nodes_in(tp, &lv->span) > 1;
		lv->interval = lv->numa ? s->numa_ticks : s->balance_ticks << (rq->nlevels - 1);
		lv->next = (uint64_t)lv->interval;
		lv->imb_count = 0;
	}
}

/* Linear in CPUs for a machine of a few levels: each level's groups are
 * built once per span, not once per CPU (1,024 CPUs: 1.4 s and 81 MB
 * before). */
void sls_build_levels(struct sls *s)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		sls_build_cpu(s, &s->rq[cpu]);
}

/* Whether rq's level lv uses groups another CPU built (the first of its
 * span, sls_level_groups). */
static bool sls_groups_shared(const struct sls *s, const struct sls_rq *rq,
			      const struct sls_level *lv)
{
	int first = sl_cpumask_first(&lv->span);

	if (first == rq->cpu)
		return false;
	for (int i = 0; i < s->rq[first].nlevels; i++)
		if (s->rq[first].lv[i].groups == lv->groups)
			return true;
	return false;
}

void sls_free_levels(struct sls *s)
{
	/* the sharers first: they look at the owners' levels */
	for (int cpu = s->ncpus - 1; cpu >= 0; cpu--)
		for (int i = 0; i < s->rq[cpu].nlevels; i++)
			if (!sls_groups_shared(s, &s->rq[cpu], &s->rq[cpu].lv[i]))
				free(s->rq[cpu].lv[i].groups);
}

/* ---- moving ---- */

void sls_request_move(struct sls *s, struct sls_ent *e, int dest)
{
	struct sls_rq *rq = &s->rq[e->cpu];

	if (rq->mig_ent || dest == e->cpu)
		return;
	rq->mig_ent = e;
	rq->mig_dest = dest;
	s->rq[dest].incoming++;
	sl_migration_wake(s->sim, e->cpu, dest);
}

/* The queued task of src to move to dst: the coldest one; across nodes,
 * one whose memory is on dst's node, else not on src's, else the one
 * that has run least on src's node. */
static struct sls_ent *sls_pick_pull(struct sls *s, int src, int dst, bool numa, long *looked)
{
	struct sls_rq *rq = &s->rq[src];
	int snode = s->topo->cpu_node[src], dnode = s->topo->cpu_node[dst];
	struct sls_ent *best = NULL;
	int best_rank = 0, settled = 0;
	/* the first entries of the heap: the next to run and the ones
	 * just behind them (a long queue is not walked whole, as Linux's
	 * detach_tasks stops at sched_nr_migrate) */
	int n = s->pull_scan && s->pull_scan < rq->nq ? s->pull_scan : rq->nq;

	if (numa) {
		settled = rq->curr && rq->curr->node_ns >= s->numa_settle;
		for (int i = 0; i < n; i++)
			settled += rq->heap[i]->node_ns >= s->numa_settle;
	}
	for (int i = 0; i < n; i++) {
		struct sls_ent *e = rq->heap[i];
		(*looked)++;
		if (!sl_cpumask_test(&e->task->allowed, dst) || e == rq->mig_ent)
			continue;
		/* a task settled on its node leaves it only if it would
		 * otherwise share its CPU with another settled task */
		if (numa && e->node_ns >= s->numa_settle && settled < 2)
			continue;
		int rank = !numa ? 0 : e->mem_node == dnode ? 0 : e->mem_node != snode ? 1 : 2;
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

/* Tasks wait on cpu behind a running one (an idle CPU's queued task is
 * about to run there: taking it would only move the wait). */
static bool sls_waiting(const struct sls *s, int cpu)
{
	return s->rq[cpu].nq && s->rq[cpu].curr;
}

/* Pull one queued task from src to cpu; true if one moved. */
static bool sls_pull(struct sls *s, int src, int cpu, bool numa, bool kick, long *looked)
{
	struct sls_ent *e = sls_pick_pull(s, src, cpu, numa, looked);

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

static void sls_balance_level(struct sls *s, int cpu, struct sls_level *lv)
{
	long nr[SL_MAX_CPUS], w[SL_MAX_CPUS], looked = 0;
	int l = lv->local, b = -1, mine = s->rq[cpu].nr_running + s->rq[cpu].incoming;

	for (int g = 0; g < lv->ngroups; g++) {
		nr[g] = 0;
		w[g] = 0;
		sl_for_each_cpu(c, &lv->groups[g]) {
			int load = s->rq[c].nr_running + s->rq[c].incoming;
			nr[g] += load;
			w[g]++;
			looked++;
			if (g == l && load < mine)
				goto out;	/* a less loaded CPU of my group pulls */
		}
	}
	for (int g = 0; g < lv->ngroups; g++)
		if (g != l && (b < 0 || nr[g] * w[b] > nr[b] * w[g]))
			b = g;
	if (b < 0 || (nr[b] - 1) * w[l] < (nr[l] + 1) * w[b]) {
		lv->imb_count = 0;
		goto out;
	}
	if (lv->numa && ++lv->imb_count < s->numa_persist)
		goto out;
	lv->imb_count = 0;

	/* the CPU of the busiest group with the most queued tasks */
	int src = -1;
	sl_for_each_cpu(c, &lv->groups[b])
		if (sls_waiting(s, c) && (src < 0 || s->rq[c].nq > s->rq[src].nq))
			src = c;
	if (src >= 0 && sls_pull(s, src, cpu, lv->numa, true, &looked))
		goto out;
	if (!s->active || lv->numa || !sls_core_idle(s, cpu))
		goto out;
	/* nothing queued: a core of the busiest group runs two tasks while
	 * this whole core idles; its migration thread pushes one here */
	sl_for_each_cpu(c, &lv->groups[b]) {
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

	for (int i = 0; i < rq->nlevels; i++) {
		struct sls_level *lv = &rq->lv[i];
		if (now < lv->next)
			continue;
		lv->next = now + (uint64_t)lv->interval;
		sls_balance_level(s, cpu, lv);
	}
}

/* ---- newly idle ---- */

bool sls_newidle(struct sls *s, int cpu)
{
	struct sls_rq *rq = &s->rq[cpu];
	long looked = 0;
	bool moved = false;

	for (int i = 0; i < rq->nlevels && !moved; i++) {
		struct sls_level *lv = &rq->lv[i];
		if (lv->numa)
			break;
		int src = -1;
		sl_for_each_cpu(c, &lv->span) {
			looked++;
			if (c != cpu && sls_waiting(s, c) && (src < 0 || s->rq[c].nq > s->rq[src].nq))
				src = c;
		}
		if (src >= 0)
			moved = sls_pull(s, src, cpu, false, false, &looked);
	}
	sl_charge_sched(s->sim, cpu, looked * s->scan_ns);
	return moved;
}
