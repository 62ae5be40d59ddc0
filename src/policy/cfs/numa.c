/*
 * cfs/numa.c - a simplified NUMA balancing (kernel.numa_balancing=1, the
 * default of distribution kernels on NUMA machines): once a task has run
 * numa_scan_ms of CPU time, its preferred node becomes its home node (the
 * node of its memory: first touch, as the engine records it).  While it
 * runs elsewhere it tries, every numa_scan_ms/16, to go home: to an idle
 * CPU of the home node (an idle core first) if the move leaves the nodes
 * no more imbalanced than the load balancer tolerates, or by swapping with
 * a task running on the home node that prefers the task's current node.
 * The load balancer meanwhile counts, per CPU, the tasks with a preferred
 * node and those on it: it pulls tasks that have no preference first
 * (fbq_type), never pulls a task off its preferred node while others
 * there could go instead, and lets a task go home even if cache-hot
 * (migrate_degrades_locality).
 *
 * Sources: Linux kernel/sched/fair.c of 6.6-6.12 (task_tick_numa,
 * task_numa_placement, numa_migrate_preferred and numa_migrate_retry,
 * task_numa_migrate, update_numa_stats, numa_classify,
 * task_numa_find_cpu with the node_has_spare rule, task_numa_compare's
 * swap with dst_rq->curr, migrate_task_to / migrate_swap,
 * account_numa_enqueue, fbq_classify_group/rq,
 * migrate_degrades_locality, adjust_numa_imbalance);
 * kernel/sched/fair.c task_numa_work / task_numa_fault (the real balancer
 * works by page-fault sampling).
 *
 * Omitted / simplified (the preferred node is the home node):
 *   - Page-fault sampling: no scanner unmaps pages, no faults are counted,
 *     there are no per-node fault statistics, no numa_group of tasks that
 *     share memory, and pages are never migrated to follow the task (the
 *     home node is where the memory stays).  The first scan's delay and
 *     the retry period are kept; the scan period's adaptation is not.
 *   - task_numa_compare's scoring: a swap is taken when the other task's
 *     preferred node is this task's current node (both gain); a move to a
 *     busy node (not node_has_spare) is not tried, as the kernel would
 *     only do it with fault statistics to justify it.
 *   - migrate_degrades_locality has no fault weights to compare: beyond
 *     "leaving the preferred node" (worse) and "going to it" (better) it
 *     has no opinion.
 *   - Swaps go through each CPU's migration thread in turn, not through a
 *     single stop_two_cpus().
 */
#include "policy/cfs/cfs.h"
#include "sim/sim.h"

enum cfs_node_type {
	CFS_NODE_HAS_SPARE,
	CFS_NODE_FULLY_BUSY,
	CFS_NODE_OVERLOADED,
};

struct cfs_numa_stats {
	int nr_running, weight, idle_cpu;
	long util, runnable, capacity;
};

void cfs_numa_account(struct cfs *s, struct cfs_rq *rq, const struct cfs_entity *se, int sign)
{
	if (se->numa_nid < 0)
		return;
	cfs_gsum_touch(s, rq);
	rq->nr_numa_running += sign;
	if (se->numa_nid == s->topo->cpu_node[rq->cpu])
		rq->nr_preferred_running += sign;
}

/* sched_setnuma(): re-account a queued task under its new preference. */
static void cfs_set_preferred(struct cfs *s, struct cfs_entity *se, int nid)
{
	struct cfs_rq *rq = &s->rq[se->cpu];

	if (se->on_rq)
		cfs_numa_account(s, rq, se, -1);
	se->numa_nid = nid;
	if (se->on_rq)
		cfs_numa_account(s, rq, se, 1);
}

long cfs_numa_adjust_imbalance(long imbalance, int dst_running, int imb_numa_nr)
{
	/* allow a small imbalance while the destination is lightly used */
	if (dst_running > imb_numa_nr)
		return imbalance;
	return imbalance <= CFS_NUMA_IMBALANCE_MIN ? 0 : imbalance;
}

int cfs_numa_degrades_locality(const struct cfs *s, const struct cfs_entity *se, int src,
			       int dst, const struct cfs_domain *sd)
{
	const struct sl_topo *t = s->topo;

	/* migrate_degrades_locality(): no fault statistics, no locality
	 * (p->numa_faults, NULL until its first scan; an exec only zeroes it) */
	if (!s->numa || se->numa_nid < 0 || !se->numa_faults || !(sd->flags & CFS_SD_NUMA))
		return -1;
	int src_nid = t->cpu_node[src], dst_nid = t->cpu_node[dst];
	if (src_nid == dst_nid)
		return -1;
	if (src_nid == se->numa_nid) {
		const struct cfs_rq *rq = &s->rq[src];
		/* others there have no claim to the node: take them first */
		return cfs_nr_all(rq) > rq->nr_preferred_running ? 1 : -1;
	}
	if (dst_nid == se->numa_nid)
		return 0;
	return -1;
}

/* update_numa_stats(): the node's load, and an idle CPU (core first). */
static void cfs_numa_stats(struct cfs *s, int nid, const struct cfs_entity *se,
			   struct cfs_numa_stats *ns)
{
	int idle_core = -1;

	*ns = (struct cfs_numa_stats){ .idle_cpu = -1 };
	cfs_for_each_cpu(s, c, &s->topo->node_cpus[nid]) {
		struct cfs_rq *rq = &s->rq[c];
		ns->nr_running += rq->nr_running;
		ns->util += cfs_cpu_util(rq);
		ns->runnable += cfs_cpu_runnable(rq);
		ns->capacity += rq->capacity;
		ns->weight++;
		if (!cfs_cpu_idle(s, c) || !sl_cpumask_test(&se->task->allowed, c) ||
		    rq->mig_se)
			continue;
		if (ns->idle_cpu < 0)
			ns->idle_cpu = c;
		if (idle_core < 0 && cfs_core_idle(s, c))
			idle_core = c;
	}
	if (idle_core >= 0)
		ns->idle_cpu = idle_core;
	if (s->scan_ns > 0)
		sl_charge_sched(s->sim, se->cpu, ns->weight * s->scan_ns);
}

static enum cfs_node_type cfs_numa_classify(int imbalance_pct, const struct cfs_numa_stats *ns)
{
	if (ns->nr_running > ns->weight &&
	    (ns->capacity * 100 < ns->util * imbalance_pct ||
	     ns->capacity * imbalance_pct < ns->runnable * 100))
		return CFS_NODE_OVERLOADED;
	if (ns->nr_running < ns->weight ||
	    (ns->capacity * 100 > ns->util * imbalance_pct &&
	     ns->capacity * imbalance_pct > ns->runnable * 100))
		return CFS_NODE_HAS_SPARE;
	return CFS_NODE_FULLY_BUSY;
}

/* The lowest NUMA domain of cpu (sd_numa), or NULL. */
static const struct cfs_domain *cfs_sd_numa(const struct cfs *s, int cpu)
{
	const struct cfs_rq *rq = &s->rq[cpu];

	for (int i = 0; i < rq->nsd; i++)
		if (rq->sd[i].flags & CFS_SD_NUMA)
			return &rq->sd[i];
	return NULL;
}

/* task_numa_migrate() for the running task se on rq. */
static void cfs_numa_migrate(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se)
{
	const struct cfs_domain *sd = cfs_sd_numa(s, rq->cpu);
	int src_nid = s->topo->cpu_node[rq->cpu], dst_nid = se->numa_nid;

	if (!sd || se->mig_rq >= 0 || rq->mig_se)
		return;
	int imbalance_pct = 100 + (sd->imbalance_pct - 100) / 2;
	struct cfs_numa_stats src, dst;
	cfs_numa_stats(s, src_nid, se, &src);
	cfs_numa_stats(s, dst_nid, se, &dst);

	if (cfs_numa_classify(imbalance_pct, &dst) == CFS_NODE_HAS_SPARE) {
		int src_running = src.nr_running - 1, dst_running = dst.nr_running + 1;
		long imbalance = dst_running - src_running;
		if (imbalance < 0)
			imbalance = 0;
		imbalance = cfs_numa_adjust_imbalance(imbalance, dst_running, sd->imb_numa_nr);
		if (!imbalance && dst.idle_cpu >= 0) {
			cfs_request_move(s, se, dst.idle_cpu);
			return;
		}
	}
	/* swap with the running task of a home-node CPU that wants our node */
	cfs_for_each_cpu(s, c, &s->topo->node_cpus[dst_nid]) {
		struct cfs_entity *other = s->rq[c].curr;
		if (!other || !sl_cpumask_test(&se->task->allowed, c) ||
		    !sl_cpumask_test(&other->task->allowed, rq->cpu))
			continue;
		if (other->numa_nid != src_nid || other->mig_rq >= 0 || s->rq[c].mig_se)
			continue;
		cfs_request_move(s, se, c);
		cfs_request_move(s, other, rq->cpu);
		return;
	}
}

/* task_tick_numa() and numa_migrate_preferred() for the running task. */
void cfs_numa_tick(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se)
{
	struct sl_task *t = se->task;
	sl_time now = sl_now(s->sim);

	if (!s->numa || s->topo->nnodes < 2 || t->home_node < 0)
		return;
	if (!se->numa_scanned) {
		/* no faults of this image yet: nothing migrates it
		 * (numa_migrate_preferred runs from task_numa_fault) */
		if (se->sum_exec - se->numa_exec_at < s->numa_scan_delay)
			return;
		/* the first scan's faults point at the task's memory
		 * (task_numa_placement) */
		se->numa_scanned = se->numa_faults = true;
		cfs_set_preferred(s, se, t->home_node);
		se->numa_next = now;
	}
	if (s->topo->cpu_node[rq->cpu] == se->numa_nid || now < se->numa_next)
		return;
	se->numa_next = now + s->numa_retry;
	cfs_numa_migrate(s, rq, se);
}
