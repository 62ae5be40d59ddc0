/*
 * cfs/select.c - where a task runs when it wakes up, is created or execs
 * (select_task_rq_fair):
 *
 *   wakeup  wake_affine decides between the waker's CPU and the task's
 *           previous one (an idle CPU sharing the cache, a sync waker
 *           alone on its CPU, then the loads weighed with half the
 *           imbalance_pct as bias), unless the waker and wakee wake many
 *           others (wake_wide); then select_idle_sibling searches the
 *           last-level cache of that target: the target if idle, the
 *           previous CPU if idle and cache-affine, the recently used CPU,
 *           then - on SMT machines - a wholly idle core if the LLC has
 *           one, else an idle sibling of the previous CPU, else any idle
 *           CPU of the LLC, else the target.
 *   fork /  find_idlest_group from the highest domain with
 *   exec    SD_BALANCE_FORK/EXEC downwards: the group of the lowest type
 *           (spare capacity < fully busy < overloaded), then most idle
 *           CPUs, least utilisation or load; on NUMA the preferred node
 *           and a small allowed imbalance keep tasks local; within the
 *           group the most recently idled idle CPU, else the least loaded.
 *
 * Sources: Linux kernel/sched/fair.c of 6.12 (select_task_rq_fair,
 * record_wakee, wake_wide, wake_affine, wake_affine_idle,
 * wake_affine_weight, select_idle_sibling, select_idle_smt,
 * select_idle_cpu, select_idle_core, __update_idle_core / set_idle_cores,
 * sched_balance_find_dst_cpu/_group/_group_cpu (find_idlest_*),
 * update_sg_wakeup_stats, update_pick_idlest, cpu_*_without, sched_exec),
 * features.h (SIS_UTIL), ext.c of 6.12 (scx_select_cpu_dfl: the same
 * idle-core-first order in sched_ext's default).
 *
 * SIS_UTIL (on by default since 6.0): select_idle_cpu looks at no
 * more than the LLC's nr_idle_scan CPUs, which the periodic balance of the
 * LLC domain sets from its utilisation (cfs/busiest.c); from about 85%
 * busy it looks at none.  Each CPU looked at is charged as scheduler work
 * on the waking CPU.
 *
 * Omitted / simplified:
 *   - Energy-aware placement, asymmetric capacities, uclamp, core
 *     scheduling cookies, SCHED_IDLE CPUs, the cluster level, per-CPU
 *     kthread stacking: not modelled.
 *   - idle_cpu() ignores pending remote wakeups beyond what is queued:
 *     a CPU is idle when nothing runs there and its runqueue is empty.
 *   - find_idlest_group_cpu prefers the most recently idled CPU (the
 *     kernel compares idle_stamp, which only newly-idle balancing sets);
 *     idle-state exit latencies (cpuidle) do not exist here.
 *   - A new task's load and utilisation are not subtracted from its
 *     parent's CPU at fork, as in the kernel (cpu_load_without() finds the
 *     child's avg.last_update_time still 0 there); at exec the task's own
 *     share is.
 *   - A timer wakeup has no waking task: no wakee flips are recorded.
 */
#include <limits.h>

#include "policy/cfs/cfs.h"
#include "sim/sim.h"

static bool cfs_allowed(const struct cfs_entity *se, int cpu)
{
	return sl_cpumask_test(&se->task->allowed, cpu);
}

static void cfs_charge_scan(struct cfs *s, int cpu, long items)
{
	if (items > 0 && s->scan_ns > 0)
		sl_charge_sched(s->sim, cpu, items * s->scan_ns);
}

/* ---- wakee flips ---- */

static void cfs_record_wakee(struct cfs *s, struct cfs_entity *waker, const struct cfs_entity *p)
{
	uint64_t j = sl_jiffies(s->sim);

	if (j > waker->wakee_flip_decay + s->hz) {
		waker->wakee_flips >>= 1;
		waker->wakee_flip_decay = j;
	}
	if (waker->last_wakee != p->task) {
		waker->last_wakee = p->task;
		waker->wakee_flips++;
	}
}

/* Many-to-many wakeups (a server and its clients) spread out. */
static bool cfs_wake_wide(const struct cfs *s, const struct cfs_entity *waker,
			  const struct cfs_entity *p, int this_cpu)
{
	unsigned master = waker->wakee_flips, slave = p->wakee_flips;
	unsigned factor = (unsigned)s->rq[this_cpu].llc_size;

	if (master < slave) {
		unsigned x = master;
		master = slave;
		slave = x;
	}
	return !(slave < factor || master < slave * factor);
}

/* ---- wake_affine ---- */

static int cfs_wake_affine_idle(struct cfs *s, int this_cpu, int prev_cpu, bool sync)
{
	if (cfs_cpu_idle(s, this_cpu) && cfs_share_cache(s, this_cpu, prev_cpu))
		return cfs_cpu_idle(s, prev_cpu) ? prev_cpu : this_cpu;
	if (sync && cfs_nr_all(&s->rq[this_cpu]) == 1)
		return this_cpu;
	if (cfs_cpu_idle(s, prev_cpu))
		return prev_cpu;
	return -1;
}

static int cfs_wake_affine_weight(struct cfs *s, const struct cfs_domain *sd,
				  struct cfs_entity *p, int this_cpu, int prev_cpu, bool sync,
				  struct cfs_entity *waker)
{
	int64_t this_eff = cfs_cpu_load(&s->rq[this_cpu]);

	if (sync && waker) {
		long current_load = cfs_task_h_load(s, waker);
		if (current_load > this_eff)
			return this_cpu;
		this_eff -= current_load;
	}
	long task_load = cfs_task_h_load(s, p);
	this_eff += task_load;
	this_eff *= 100;				/* WA_BIAS */
	this_eff *= s->rq[prev_cpu].capacity;

	int64_t prev_eff = cfs_cpu_load(&s->rq[prev_cpu]) - task_load;
	prev_eff *= 100 + (sd->imbalance_pct - 100) / 2;
	prev_eff *= s->rq[this_cpu].capacity;
	if (sync)
		prev_eff += 1;
	return this_eff < prev_eff ? this_cpu : -1;
}

static int cfs_wake_affine(struct cfs *s, const struct cfs_domain *sd, struct cfs_entity *p,
			   int this_cpu, int prev_cpu, bool sync, struct cfs_entity *waker)
{
	int target = cfs_wake_affine_idle(s, this_cpu, prev_cpu, sync);

	if (target < 0)
		target = cfs_wake_affine_weight(s, sd, p, this_cpu, prev_cpu, sync, waker);
	return target == this_cpu ? this_cpu : prev_cpu;
}

/* ---- select_idle_sibling ---- */

/* __update_idle_core(): cpu is going idle; if its whole core now is, the
 * LLC has an idle core. */
void cfs_update_idle_core(struct cfs *s, int cpu)
{
	if (s->topo->threads_per_core < 2 || s->has_idle_cores[s->rq[cpu].llc_id])
		return;
	cfs_for_each_cpu(s, c, sl_topo_siblings(s->topo, cpu))
		if (c != cpu && !cfs_cpu_idle(s, c))
			return;
	s->has_idle_cores[s->rq[cpu].llc_id] = true;
}

static int cfs_select_idle_smt(struct cfs *s, const struct cfs_entity *p, int target,
			       long *looked)
{
	const sl_cpumask *llc = s->rq[target].llc_span;

	cfs_for_each_cpu(s, c, sl_topo_siblings(s->topo, target)) {
		if (c == target || !cfs_allowed(p, c) || !sl_cpumask_test(llc, c))
			continue;
		(*looked)++;
		if (cfs_cpu_idle(s, c))
			return c;
	}
	return -1;
}

/* Is core's every sibling idle?  If not, drop them from cpus; note the
 * first idle CPU seen as a fallback. */
static int cfs_select_idle_core(struct cfs *s, int core, sl_cpumask *cpus, int *idle_cpu,
				long *looked)
{
	bool idle = true;
	const sl_cpumask *smt = sl_topo_siblings(s->topo, core);

	cfs_for_each_cpu(s, c, smt) {
		(*looked)++;
		if (!cfs_cpu_idle(s, c)) {
			idle = false;
			if (*idle_cpu == -1)
				continue;
			break;
		}
		if (*idle_cpu == -1 && sl_cpumask_test(cpus, c))
			*idle_cpu = c;
	}
	if (idle)
		return core;
	cfs_for_each_cpu(s, c, smt)
		sl_cpumask_unset(cpus, c);
	return -1;
}

/* Scan the LLC of target from target+1, wrapping. */
static int cfs_select_idle_cpu(struct cfs *s, const struct cfs_entity *p, bool has_idle_core,
			       int target, long *looked)
{
	/* the LLC's CPUs p may use: only the words of CPUs below ncpus, the
	 * only ones the scan and the idle-core search below read (both stop
	 * at s->ncpus), not all 16 of the 128-byte mask at each wakeup */
	sl_cpumask cpus;
	const sl_cpumask *llc = s->rq[target].llc_span;
	for (int i = 0; i <= (s->ncpus - 1) >> 6; i++)
		cpus.w[i] = llc->w[i] & p->task->allowed.w[i];
	int idle_cpu = -1, nr = INT_MAX;

	if (s->sis_util) {
		/* SIS_UTIL: at most nr_idle_scan CPUs, none if the LLC was busy */
		nr = s->nr_idle_scan[s->rq[target].llc_id] + 1;
		if (nr == 1)
			return -1;
	}
	/* for_each_cpu_wrap(cpu, cpus, target + 1): target + 1 up, then from 0
	 * to target itself, over the set bits only (not every CPU of the
	 * machine); the next bit is found in cpus as it is now, which the
	 * idle-core search trims */
	bool wrapped = false;
	for (int c = sl_cpumask_next_in(&cpus, target + 1, s->ncpus);;
	     c = sl_cpumask_next_in(&cpus, c + 1, s->ncpus)) {
		if (c < 0 && !wrapped) {
			wrapped = true;
			c = sl_cpumask_next_in(&cpus, 0, s->ncpus);
		}
		if (c < 0 || (wrapped && c > target))
			break;
		if (has_idle_core) {
			/* the idle-core search is not bounded */
			int i = cfs_select_idle_core(s, c, &cpus, &idle_cpu, looked);
			if (i >= 0)
				return i;
		} else {
			if (--nr <= 0)
				return -1;
			(*looked)++;
			if (cfs_cpu_idle(s, c))
				return c;
		}
	}
	if (has_idle_core)
		s->has_idle_cores[s->rq[target].llc_id] = false;
	return idle_cpu;
}

static int cfs_select_idle_sibling(struct cfs *s, struct cfs_entity *p, int prev, int target,
				   long *looked)
{
	/* target and prev are taken idle whatever p's mask (6.12 tests only
	 * recent_used_cpu against it): one p may not use is left to
	 * select_task_rq's fallback (cfs_fallback_cpu) */
	(*looked)++;
	if (cfs_cpu_idle(s, target))
		return target;
	if (prev != target && cfs_share_cache(s, prev, target) && cfs_cpu_idle(s, prev)) {
		(*looked)++;
		return prev;
	}
	int recent = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent >= 0 && recent != prev && recent != target &&
	    cfs_share_cache(s, recent, target) && cfs_allowed(p, recent)) {
		(*looked)++;
		if (cfs_cpu_idle(s, recent))
			return recent;
	}
	if (s->rq[target].sd_llc < 0)
		return target;

	bool has_idle_core = false;
	if (s->idle_core && s->topo->threads_per_core > 1) {
		has_idle_core = s->has_idle_cores[s->rq[target].llc_id];
		if (!has_idle_core && cfs_share_cache(s, prev, target)) {
			int i = cfs_select_idle_smt(s, p, prev, looked);
			if (i >= 0)
				return i;
		}
	}
	int i = cfs_select_idle_cpu(s, p, has_idle_core, target, looked);
	return i >= 0 ? i : target;
}

/* ---- find_idlest_group / find_idlest_group_cpu ---- */

/* p's CPU as update_sg_wakeup_stats() counts it, without p (idle_cpu_without()
 * and cpu_load_without() and friends, floored at 0): what sums that took the
 * CPU with p (a walk's, or the kept ones) are corrected by. */
static void cfs_wake_without_p(struct cfs *s, const struct cfs_entity *p,
			       struct cfs_sg_stats *st)
{
	int here_cpu = p->cpu;
	const struct cfs_rq *rq = &s->rq[here_cpu];
	long load = cfs_cpu_load(rq), util = cfs_cpu_util(rq);
	long runnable = cfs_cpu_runnable(rq);
	long load_w = load - cfs_task_h_load(s, p), util_w = cfs_cpu_util_without(rq, p);
	long runnable_w = runnable - (long)p->avg.runnable_avg;

	st->load += (load_w > 0 ? load_w : 0) - load;
	st->util += util_w - util;
	st->runnable += (runnable_w > 0 ? runnable_w : 0) - runnable;
	st->nr_running--;
	bool idle_here = sl_cpu_idle(s->sim, here_cpu);
	st->idle_cpus -= !cfs_nr_all(rq) && idle_here;
	st->idle_cpus += cfs_nr_all(rq) == 1 &&
			 (idle_here || sl_curr(s->sim, here_cpu) == p->task);
}

/* update_sg_wakeup_stats()'s sums, by its walk of the group's whole span
 * (p's affinity chooses only among groups and CPUs, not what a group's
 * statistics count), every CPU as it is; the caller takes p out of its
 * own CPU (cfs_wake_without_p): the sums are integers, so that is the
 * walk's answer exactly, and the loop over every CPU does not test each
 * for p's.  The kernel sums h_nr_running here too but nothing on this
 * path reads it, so neither the walk nor the kept sums give it. */
static void cfs_wake_walk(const struct cfs *s, const struct cfs_group *g,
			  struct cfs_sg_stats *st)
{
	/* Summed in locals, not through st (which the compiler must assume
	 * may alias): this loop visits every CPU of a group. */
	long load_sum = 0, util_sum = 0, runnable_sum = 0;
	int nr_sum = 0, idle = 0;

	if (g->weight == 1) {
		/* a group of one CPU, as every group of a level whose child
		 * is a single CPU (an SMT level, numaq-16's nodes): no loop,
		 * for half the groups a placement reads on numaq-16 */
		const struct cfs_rq *rq = &s->rq[g->first_cpu];

		st->load = cfs_cpu_load(rq);
		st->util = cfs_cpu_util(rq);
		st->runnable = cfs_cpu_runnable(rq);
		st->nr_running = cfs_nr_all(rq);
		st->idle_cpus = !st->nr_running && sl_cpu_idle(s->sim, g->first_cpu);
		return;
	}
	/* the span a word at a time, one step per set bit (it lies within
	 * first_cpu..end_cpu - 1) */
	for (int wi = g->first_cpu >> 6; wi <= (g->end_cpu - 1) >> 6; wi++) {
		for (uint64_t w = g->span.w[wi]; w; w &= w - 1) {
			int c = wi * 64 + __builtin_ctzll(w);
			const struct cfs_rq *rq = &s->rq[c];
			int nr = cfs_nr_all(rq);

			load_sum += cfs_cpu_load(rq);
			util_sum += cfs_cpu_util(rq);
			runnable_sum += cfs_cpu_runnable(rq);
			nr_sum += nr;
			if (!nr && sl_cpu_idle(s->sim, c))
				idle++;
		}
	}
	st->load = load_sum;
	st->util = util_sum;
	st->runnable = runnable_sum;
	st->nr_running = nr_sum;
	st->idle_cpus = idle;
}

#ifdef SL_TESTING
/* update_sg_wakeup_stats() as the kernel writes it, p's CPU taken without
 * p as the walk reaches it: what test builds check the sums against. */
static void cfs_wake_walk_ref(struct cfs *s, const struct cfs_group *g,
			      const struct cfs_entity *p, struct cfs_sg_stats *st)
{
	int here_cpu = p->on_rq ? p->cpu : -1;

	*st = (struct cfs_sg_stats){ 0 };
	cfs_for_each_group_cpu(c, g) {
		const struct cfs_rq *rq = &s->rq[c];
		bool here = c == here_cpu;
		long load = cfs_cpu_load(rq), util = cfs_cpu_util(rq);
		long runnable = cfs_cpu_runnable(rq);
		if (here) {
			load -= cfs_task_h_load(s, p);
			util = cfs_cpu_util_without(rq, p);
			runnable -= (long)p->avg.runnable_avg;
			load = load > 0 ? load : 0;
			runnable = runnable > 0 ? runnable : 0;
		}
		st->load += load;
		st->util += util;
		st->runnable += runnable;
		int nr = cfs_nr_all(rq) - here;
		st->nr_running += nr;
		/* idle_cpu_without(): idle, or running only p */
		if (!nr && (sl_cpu_idle(s->sim, c) || (here && sl_curr(s->sim, c) == p->task)))
			st->idle_cpus++;
	}
}
#endif

/* The same sums from the group's kept ones (cfs/gsum.c), when p may run
 * on all of g: O(1) for the host, where the walk was O(CPUs). */
static void cfs_wake_kept(struct cfs *s, const struct cfs_group *g, struct cfs_sg_stats *st)
{
	cfs_gsum_read(s, g, st);
	st->h_nr_running = 0;	/* not read on this path, as the walk's (cfs_wake_walk) */
}

/* update_sg_wakeup_stats(): the group as it would be without p.  The
 * walk's cost is charged (looked) whichever way the host adds it up. */
static void cfs_wake_stats(struct cfs *s, const struct cfs_domain *sd, const struct cfs_group *g,
			   struct cfs_entity *p, struct cfs_sg_stats *st, long *looked)
{
	*st = (struct cfs_sg_stats){ .capacity = g->capacity, .weight = g->weight };
	if (s->gsum_on)
		cfs_wake_kept(s, g, st);
	else
		cfs_wake_walk(s, g, st);
	if (p->on_rq && sl_cpumask_test(&g->span, p->cpu))
		cfs_wake_without_p(s, p, st);
#ifdef SL_TESTING
	/* test builds: the sums must be the kernel's walk's, p left out CPU
	 * by CPU (reported by the policy's check after the event) */
	struct cfs_sg_stats w;
	cfs_wake_walk_ref(s, g, p, &w);
	if (w.load != st->load || w.util != st->util || w.runnable != st->runnable ||
	    w.nr_running != st->nr_running || w.idle_cpus != st->idle_cpus)
		s->gsum_wrong = g->first_cpu + 1;
#endif
	*looked += g->weight;	/* the walk visits every CPU of the span */
	st->imbalanced = g->imbalance;
	st->type = cfs_group_classify(sd->imbalance_pct, st);
	if (st->type == CFS_GROUP_FULLY_BUSY || st->type == CFS_GROUP_OVERLOADED)
		st->avg_load = st->load * CFS_CAPACITY_SCALE / st->capacity;
}

static bool cfs_update_pick_idlest(const struct cfs_sg_stats *idlest,
				   const struct cfs_sg_stats *st)
{
	if (st->type != idlest->type)
		return st->type < idlest->type;
	if (st->type == CFS_GROUP_IMBALANCED)
		return false;	/* not used in the slow wakeup path */
	if (st->type != CFS_GROUP_HAS_SPARE)
		return idlest->avg_load > st->avg_load;
	if (idlest->idle_cpus != st->idle_cpus)
		return st->idle_cpus > idlest->idle_cpus;
	return idlest->util > st->util;
}

static const struct cfs_group *cfs_find_idlest_group(struct cfs *s, const struct cfs_domain *sd,
						     struct cfs_entity *p, int this_cpu,
						     long *looked)
{
	const struct cfs_span *sp = sd->span;
	const struct cfs_group *idlest = NULL, *local = NULL;
	struct cfs_sg_stats local_st = { 0 }, idlest_st = { .avg_load = LONG_MAX,
							      .type = CFS_GROUP_OVERLOADED };

	for (int k = 0, gi = sd->local; k < sp->ngroups; k++, gi = gi + 1 < sp->ngroups ? gi + 1 : 0) {
		const struct cfs_group *g = &sp->groups[gi];
		if (!sl_cpumask_intersects_in(&g->span, &p->task->allowed, g->first_cpu,
					      g->end_cpu))
			continue;
		struct cfs_sg_stats st;
		cfs_wake_stats(s, sd, g, p, &st, looked);
		if (sl_cpumask_test(&g->span, this_cpu)) {
			local = g;
			local_st = st;
		} else if (!idlest || cfs_update_pick_idlest(&idlest_st, &st)) {
			idlest = g;
			idlest_st = st;
		}
	}
	if (!idlest)
		return NULL;
	if (!local)
		return idlest;
	if (local_st.type != idlest_st.type)
		return local_st.type < idlest_st.type ? NULL : idlest;
	if (local_st.type == CFS_GROUP_IMBALANCED)
		return NULL;

	if (local_st.type != CFS_GROUP_HAS_SPARE) {
		long imbalance = CFS_NICE_0_LOAD * (sd->imbalance_pct - 100) / 100;
		if ((sd->flags & CFS_SD_NUMA) && idlest_st.avg_load + imbalance >= local_st.avg_load)
			return NULL;
		if (idlest_st.avg_load >= local_st.avg_load + imbalance)
			return NULL;
		if (100 * local_st.avg_load <= sd->imbalance_pct * idlest_st.avg_load)
			return NULL;
		return idlest;
	}
	if (sd->flags & CFS_SD_NUMA) {
		int imb_numa_nr = sd->imb_numa_nr;
		if (s->numa && p->numa_nid >= 0) {
			/* spare capacity at NUMA: try the preferred node */
			if (s->topo->cpu_node[this_cpu] == p->numa_nid)
				return NULL;
			if (s->topo->cpu_node[idlest->first_cpu] == p->numa_nid)
				return idlest;
		}
		sl_cpumask allowed = sl_cpumask_and(local->span, &p->task->allowed);
		int w = sl_cpumask_weight(&allowed);
		if (w < imb_numa_nr)
			imb_numa_nr = w;
		long imbalance = local_st.idle_cpus - idlest_st.idle_cpus;
		if (imbalance < 0)
			imbalance = -imbalance;
		if (!cfs_numa_adjust_imbalance(imbalance, local_st.nr_running + 1, imb_numa_nr))
			return NULL;
	}
	if (local_st.idle_cpus >= idlest_st.idle_cpus)
		return NULL;
	return idlest;
}

static int cfs_find_idlest_group_cpu(struct cfs *s, const struct cfs_group *g,
				     const struct cfs_entity *p, int this_cpu, long *looked)
{
	long min_load = LONG_MAX;
	sl_time latest_idle = 0;
	int least_loaded = this_cpu, shallowest = -1;

	if (g->weight == 1)
		return g->first_cpu;
	cfs_for_each_group_cpu(c, g) {
		if (!cfs_allowed(p, c))
			continue;
		(*looked)++;
		struct cfs_rq *rq = &s->rq[c];
		if (cfs_cpu_idle(s, c)) {
			if (shallowest < 0 || rq->last_idle > latest_idle) {
				latest_idle = rq->last_idle;
				shallowest = c;
			}
		} else if (shallowest < 0) {
			long load = cfs_cpu_load(rq);
			if (load < min_load) {
				min_load = load;
				least_loaded = c;
			}
		}
	}
	return shallowest >= 0 ? shallowest : least_loaded;
}

static int cfs_find_idlest_cpu(struct cfs *s, int idx, struct cfs_entity *p, int cpu,
			       int prev_cpu, unsigned sd_flag, long *looked)
{
	int new_cpu = cpu;

	if (!sl_cpumask_intersects(&s->rq[cpu].sd[idx].span->cpus, &p->task->allowed))
		return prev_cpu;
	/* the task's own util for cpu_util_without: synced to its CPU's
	 * last update (not at fork: a new task has nothing to sync) */
	if (sd_flag != CFS_SD_BALANCE_FORK)
		cfs_pelt_sync(s, p);
	while (idx >= 0) {
		const struct cfs_domain *sd = &s->rq[cpu].sd[idx];
		if (!(sd->flags & sd_flag)) {
			idx--;
			continue;
		}
		const struct cfs_group *g = cfs_find_idlest_group(s, sd, p, cpu, looked);
		if (!g) {
			idx--;
			continue;
		}
		new_cpu = cfs_find_idlest_group_cpu(s, g, p, cpu, looked);
		if (new_cpu == cpu) {
			idx--;
			continue;
		}
		/* go on below, in new_cpu's own domains */
		int weight = sd->span->weight;
		cpu = new_cpu;
		idx = -1;
		for (int i = 0; i < s->rq[cpu].nsd; i++) {
			const struct cfs_domain *tmp = &s->rq[cpu].sd[i];
			if (weight <= tmp->span->weight)
				break;
			if (tmp->flags & sd_flag)
				idx = i;
		}
	}
	return new_cpu;
}

/* ---- select_task_rq_fair ---- */

int cfs_select_task_rq(struct cfs *s, struct cfs_entity *se, int prev_cpu, int this_cpu,
		       unsigned wf, struct cfs_entity *waker)
{
	bool sync = wf & CFS_WF_SYNC;
	/* fork_balance=off: no domain has SD_BALANCE_FORK or _EXEC, so a
	 * new or exec'ing task stays where it is (if it may run there) */
	unsigned sd_flag = !s->fork_balance ? 0 :
			   wf & CFS_WF_FORK ? CFS_SD_BALANCE_FORK :
			   wf & CFS_WF_EXEC ? CFS_SD_BALANCE_EXEC : 0;
	bool want_affine = false;
	int new_cpu = prev_cpu, sd = -1;
	long looked = 0;
	const struct cfs_rq *rq = &s->rq[this_cpu];

	if (wf & CFS_WF_TTWU) {
		if (waker)
			cfs_record_wakee(s, waker, se);
		want_affine = s->wake_affine && cfs_allowed(se, this_cpu) &&
			      !(waker && cfs_wake_wide(s, waker, se, this_cpu));
	}
	for (int i = 0; i < rq->nsd; i++) {
		const struct cfs_domain *tmp = &rq->sd[i];
		if (want_affine && (tmp->flags & CFS_SD_WAKE_AFFINE) &&
		    sl_cpumask_test(&tmp->span->cpus, prev_cpu)) {
			if (this_cpu != prev_cpu)
				new_cpu = cfs_wake_affine(s, tmp, se, this_cpu, prev_cpu, sync, waker);
			sd = -1;
			break;
		}
		if (sd_flag && (tmp->flags & sd_flag))
			sd = i;
		else if (!want_affine)
			break;
	}
	if (sd >= 0)
		new_cpu = cfs_find_idlest_cpu(s, sd, se, this_cpu, prev_cpu, sd_flag, &looked);
	else if (wf & CFS_WF_TTWU)
		new_cpu = cfs_select_idle_sibling(s, se, prev_cpu, new_cpu, &looked);
	cfs_charge_scan(s, this_cpu, looked);

	if (!cfs_allowed(se, new_cpu))
		new_cpu = cfs_fallback_cpu(s, se, prev_cpu);
	return new_cpu;
}

int cfs_fallback_cpu(const struct cfs *s, const struct cfs_entity *se, int prev_cpu)
{
	const sl_cpumask *allowed = &se->task->allowed;
	int cpu = sl_cpumask_next_and_in(allowed, sl_topo_node(s->topo, prev_cpu), 0, s->ncpus);

	return cpu >= 0 ? cpu : sl_cpumask_first(allowed);
}

/* core.c select_task_rq(), around the class's: a task allowed on one CPU
 * goes there without asking the class (no record_wakee, no search). */
int cfs_select_task_rq_core(struct cfs *s, struct cfs_entity *se, int prev_cpu, int this_cpu,
			    unsigned wf, struct cfs_entity *waker)
{
	const sl_cpumask *allowed = &se->task->allowed;

	/* sl_cpumask_weight() == 1 without counting all 16 words at every
	 * wakeup, fork and exec */
	if (sl_cpumask_weight_upto2(allowed) == 1)
		return sl_cpumask_first(allowed);
	return cfs_select_task_rq(s, se, prev_cpu, this_cpu, wf, waker);
}
