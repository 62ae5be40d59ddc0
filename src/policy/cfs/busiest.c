/*
 * cfs/busiest.c - which group and which runqueue of a domain a balance
 * takes from, and how much: 6.12's update_sg_lb_stats and group_classify
 * (each group has spare capacity, is fully busy, holds a misfit task, is
 * an SMT core with two busy siblings, is imbalanced by pinned tasks or is
 * overloaded), update_sd_pick_busiest, update_sd_lb_stats (with SIS_UTIL's
 * update_idle_cpu_scan), sibling_imbalance, calculate_imbalance,
 * sched_balance_find_src_group (find_busiest_group) and
 * sched_balance_find_src_rq (find_busiest_queue).  What cfs/balance.c
 * then moves, and when it balances, is there; the rules and sources are in
 * its header and docs/policies/cfs.md.
 */
#include "policy/cfs/balance.h"
#include "sim/sim.h"

struct cfs_sd_stats {
	const struct cfs_group *busiest, *local;
	struct cfs_sg_stats busiest_stat, local_stat;
	long total_load, total_capacity, avg_load;
	bool prefer_sibling;
};

static enum cfs_fbq_type cfs_fbq_classify(int nr_running, int nr_numa, int nr_preferred)
{
	if (nr_running > nr_numa)
		return CFS_FBQ_REGULAR;
	if (nr_running > nr_preferred)
		return CFS_FBQ_REMOTE;
	return CFS_FBQ_ALL;
}

/* ---- statistics of the groups ---- */

/* update_sg_lb_stats()'s sums by its walk of the group's CPUs. */
static void cfs_sg_walk(const struct cfs *s, const struct cfs_group *g, const sl_cpumask *cpus,
			struct cfs_sg_stats *st)
{
	/* Summed in locals, not through st (which the compiler must assume
	 * may alias): every idle CPU's periodic balance visits every CPU of
	 * every group of each of its domains. */
	long load = 0, util = 0, runnable = 0;
	int nr = 0, nr_fair = 0, nr_numa = 0, nr_pref = 0, idle = 0;

	cfs_for_each_cpu_in(c, cpus, g->first_cpu, g->end_cpu) {
		const struct cfs_rq *rq = &s->rq[c];
		load += cfs_cpu_load(rq);
		util += cfs_cpu_util(rq);
		runnable += cfs_cpu_runnable(rq);
		nr += cfs_nr_all(rq);
		nr_fair += rq->nr_running;
		nr_numa += rq->nr_numa_running;
		nr_pref += rq->nr_preferred_running;
		if (cfs_cpu_idle(s, c))	/* !nr_running && idle_cpu() */
			idle++;
	}
	st->load = load;
	st->util = util;
	st->runnable = runnable;
	st->nr_running = nr;
	st->h_nr_running = nr_fair;
	st->nr_numa_running = nr_numa;
	st->nr_preferred_running = nr_pref;
	st->idle_cpus = idle;
}

/* update_sg_lb_stats()'s group_misfit_task_load on a symmetric machine,
 * for an idle balancer and a group other than its own: the largest load
 * of a CPU running one fair task on a capacity RT noticeably cut
 * (sched_reduced_capacity); 0 if none.  Asked only once an RT task has
 * been queued (rt_seen: before that no capacity is cut), so the groups'
 * kept sums serve every run without RT tasks as before (a count of the
 * CPUs with their capacity cut, kept at each refresh of a CPU's capacity,
 * cost 3.4 % of xeon-2s-smt javabench:size=200's instructions). */
static long cfs_sg_misfit_load(const struct cfs *s, const struct cfs_lb_env *env,
			       const struct cfs_group *g)
{
	long misfit = 0;

	cfs_for_each_group_cpu(c, g) {
		const struct cfs_rq *rq = &s->rq[c];
		if (!cfs_env_has(env, c) || rq->nr_running != 1 ||
		    !cfs_capacity_reduced(rq, env->sd))
			continue;
		long load = cfs_cpu_load(rq);
		if (misfit < load)
			misfit = load;
	}
	return misfit;
}

static void cfs_sg_stats(struct cfs *s, struct cfs_lb_env *env, const struct cfs_group *g,
			 bool local, struct cfs_sg_stats *st)
{
	*st = (struct cfs_sg_stats){ .capacity = g->capacity, .weight = g->weight };
	/* the walk visits every CPU of the group: charged either way */
	env->looked += g->weight;
	if (env->trimmed) {
		/* only the CPUs env->cpus still holds (update_sg_lb_stats) */
		sl_cpumask only = sl_cpumask_and(g->span, env->cpus);
		cfs_sg_walk(s, g, &only, st);
	} else if (s->gsum_on) {
		cfs_gsum_read(s, g, st);
		st->nr_numa_running = g->sum.nr_numa_running;
		st->nr_preferred_running = g->sum.nr_preferred_running;
	} else {
		cfs_sg_walk(s, g, &g->span, st);
	}
	st->imbalanced = g->imbalance;
	if (s->rt_seen && !local && env->idle != CFS_NOT_IDLE)
		st->misfit_load = cfs_sg_misfit_load(s, env, g);
	/* smt_balance(): two busy siblings should be spread to an idle CPU */
	st->smt_balance = !local && env->idle != CFS_NOT_IDLE &&
			  (g->flags & CFS_SD_SHARE_CPUCAPACITY) && st->h_nr_running > 1;
	st->type = cfs_group_classify(env->sd->imbalance_pct, st);
	if (st->type == CFS_GROUP_OVERLOADED)
		st->avg_load = st->load * CFS_CAPACITY_SCALE / st->capacity;
}

static bool cfs_pick_busiest(const struct cfs_sd_stats *sds, const struct cfs_sg_stats *st)
{
	const struct cfs_sg_stats *b = &sds->busiest_stat;

	if (!st->h_nr_running)
		return false;	/* no fair task to take */
	if (!sds->busiest)
		return true;
	if (st->type != b->type)
		return st->type > b->type;
	switch (st->type) {
	case CFS_GROUP_OVERLOADED:
		return st->avg_load > b->avg_load;
	case CFS_GROUP_IMBALANCED:
		return false;	/* the first: no way to prefer one */
	case CFS_GROUP_MISFIT:
		/* the biggest misfit */
		return st->misfit_load > b->misfit_load;
	case CFS_GROUP_SMT_BALANCE:
		if (st->idle_cpus || b->idle_cpus)
			goto has_spare;
		/* fall through */
	case CFS_GROUP_FULLY_BUSY:
		/* avg_load is not computed: the first, unless it is SMT */
		if (st->avg_load < b->avg_load)
			return false;
		if (st->avg_load == b->avg_load && (sds->busiest->flags & CFS_SD_SHARE_CPUCAPACITY))
			return false;
		return true;
	case CFS_GROUP_HAS_SPARE:
		break;
	}
has_spare:
	/* fewest idle CPUs, then most running tasks */
	if (st->idle_cpus > b->idle_cpus)
		return false;
	if (st->idle_cpus == b->idle_cpus && st->nr_running <= b->nr_running)
		return false;
	return true;
}

/*
 * update_idle_cpu_scan(): after a periodic (not newly-idle) balance of the
 * LLC domain, SIS_UTIL's bound for wakeup searches there: with x the mean
 * utilisation per CPU, scan llc_size * (1 - (x * pct / 100 / 1024)^2)
 * CPUs, none once x reaches 100/imbalance_pct (85% at 117).
 */
static bool cfs_updates_idle_cpu_scan(const struct cfs *s, const struct cfs_lb_env *env)
{
	return cfs_updates_idle_cpu_scan_of(s, env->dst_rq, env->sd, env->idle);
}

static void cfs_update_idle_cpu_scan(struct cfs *s, const struct cfs_lb_env *env, long sum_util)
{
	const struct cfs_rq *rq = env->dst_rq;

	if (!cfs_updates_idle_cpu_scan(s, env))
		return;
	int64_t x = sum_util / rq->llc_size, pct = env->sd->imbalance_pct;
	int64_t tmp = x * x * pct * pct / (10000 * CFS_CAPACITY_SCALE);
	if (tmp > CFS_CAPACITY_SCALE)
		tmp = CFS_CAPACITY_SCALE;
	s->nr_idle_scan[rq->llc_id] =
		(int)((CFS_CAPACITY_SCALE - tmp) * rq->llc_size / CFS_CAPACITY_SCALE);
}

static void cfs_sd_stats(struct cfs *s, struct cfs_lb_env *env, struct cfs_sd_stats *sds)
{
	long sum_util = 0;

	const struct cfs_span *sp = env->sd->span;
	int idx = (int)(env->sd - env->dst_rq->sd);

	*sds = (struct cfs_sd_stats){ 0 };
	sds->prefer_sibling = idx > 0 && (env->dst_rq->sd[idx - 1].flags & CFS_SD_PREFER_SIBLING);
	for (int k = 0, gi = env->sd->local; k < sp->ngroups;
	     k++, gi = gi + 1 < sp->ngroups ? gi + 1 : 0) {
		const struct cfs_group *g = &sp->groups[gi];
		bool local = k == 0;
		struct cfs_sg_stats st;
		cfs_sg_stats(s, env, g, local, &st);
		if (local) {
			sds->local = g;
			sds->local_stat = st;
		} else if (cfs_pick_busiest(sds, &st)) {
			sds->busiest = g;
			sds->busiest_stat = st;
		}
		sds->total_load += st.load;
		sds->total_capacity += st.capacity;
		sum_util += st.util;
	}
	env->fbq_type = CFS_FBQ_ALL;
	if ((env->sd->flags & CFS_SD_NUMA) && sds->busiest)
		env->fbq_type = cfs_fbq_classify(sds->busiest_stat.h_nr_running,
						 sds->busiest_stat.nr_numa_running,
						 sds->busiest_stat.nr_preferred_running);
	cfs_update_idle_cpu_scan(s, env, sum_util);
}

/* Spread running tasks evenly per core between the two groups. */
static long cfs_sibling_imbalance(const struct cfs_lb_env *env, const struct cfs_sd_stats *sds)
{
	const struct cfs_sg_stats *busiest = &sds->busiest_stat, *local = &sds->local_stat;

	if (env->idle == CFS_NOT_IDLE || !busiest->nr_running)
		return 0;
	long nb = sds->busiest->cores, nl = sds->local->cores, imb;
	if (nb == nl) {
		imb = busiest->nr_running - local->nr_running;
		return imb > 0 ? imb : 0;
	}
	imb = nl * busiest->nr_running - nb * local->nr_running;
	if (imb < 0)
		imb = 0;
	imb = (2 * imb + nl + nb) / (nl + nb);
	if (imb <= 1 && local->nr_running == 0 && busiest->nr_running > 1)
		imb = 2;
	return imb;
}

static void cfs_calculate_imbalance(struct cfs_lb_env *env, struct cfs_sd_stats *sds)
{
	struct cfs_sg_stats *local = &sds->local_stat, *busiest = &sds->busiest_stat;
	const struct cfs_domain *sd = env->sd;

	/* a task on a CPU RT cut: its load may move (symmetric machines;
	 * the detach cannot take a running task, so it is the active
	 * balance cfs_need_active_balance asks for that moves it) */
	if (busiest->type == CFS_GROUP_MISFIT) {
		env->migration_type = CFS_MIGRATE_LOAD;
		env->imbalance = busiest->misfit_load;
		return;
	}
	/* two busy siblings, or a group pinned tasks unbalanced (whose
	 * averages mean nothing): move any one task */
	if (busiest->type == CFS_GROUP_SMT_BALANCE || busiest->type == CFS_GROUP_IMBALANCED) {
		env->migration_type = CFS_MIGRATE_TASK;
		env->imbalance = 1;
		return;
	}
	if (local->type == CFS_GROUP_HAS_SPARE) {
		if (busiest->type > CFS_GROUP_FULLY_BUSY && !(sd->flags & CFS_SD_SHARE_LLC)) {
			/* fill our spare capacity from the overloaded group */
			env->migration_type = CFS_MIGRATE_UTIL;
			long cap = local->capacity > local->util ? local->capacity : local->util;
			env->imbalance = cap - local->util;
			if (env->idle != CFS_NOT_IDLE && env->imbalance == 0) {
				env->migration_type = CFS_MIGRATE_TASK;
				env->imbalance = 1;
			}
			return;
		}
		env->migration_type = CFS_MIGRATE_TASK;
		if (busiest->weight == 1 || sds->prefer_sibling) {
			env->imbalance = cfs_sibling_imbalance(env, sds);
		} else {
			long d = local->idle_cpus - busiest->idle_cpus;
			env->imbalance = d > 0 ? d : 0;
		}
		if (sd->flags & CFS_SD_NUMA)
			env->imbalance = cfs_numa_adjust_imbalance(env->imbalance,
								   local->nr_running + 1,
								   sd->imb_numa_nr);
		env->imbalance >>= 1;
		return;
	}
	if (local->type < CFS_GROUP_OVERLOADED) {
		/* local will become overloaded: compare loads */
		local->avg_load = local->load * CFS_CAPACITY_SCALE / local->capacity;
		if (local->avg_load >= busiest->avg_load) {
			env->imbalance = 0;
			return;
		}
		sds->avg_load = sds->total_load * CFS_CAPACITY_SCALE / sds->total_capacity;
		if (local->avg_load >= sds->avg_load) {
			env->imbalance = 0;
			return;
		}
	}
	/* bring both towards the average, neither past it */
	env->migration_type = CFS_MIGRATE_LOAD;
	env->imbalance = cfs_migrate_load_imbalance(busiest, local, sds->avg_load);
}

/* ... adding the CPUs looked at to env->looked */
static bool cfs_only_local_busy(struct cfs *s, struct cfs_lb_env *env)
{
	if (!cfs_only_local_busy_in(s, env->sd))
		return false;
	env->looked += env->sd->span->weight;
	return true;
}

/* The sum of cfs_sd_stats' groups' util (integers: in any order), from
 * the kept sums, which cfs_only_local_busy_in flushed. */
static long cfs_sum_util(const struct cfs_domain *sd)
{
	const struct cfs_span *sp = sd->span;
	long util = 0;

	for (int k = 0; k < sp->ngroups; k++)
		util += sp->groups[k].sum.util;
	return util;
}

const struct cfs_group *cfs_find_busiest_group(struct cfs *s, struct cfs_lb_env *env)
{
	struct cfs_sd_stats sds;

	/* update_sd_lb_stats() refreshes the local group's capacity first (a
	 * newly-idle balance only when its next update is due): the one
	 * thing gathering the statistics changes, so it comes before the
	 * shortcut below */
	uint64_t j = sl_jiffies(s->sim);
	if (env->idle != CFS_NEWLY_IDLE ||
	    j >= env->sd->span->groups[env->sd->local].cap_next_update)
		cfs_update_group_capacity(s, env->dst_cpu, env->sd,
					  j + cfs_balance_interval(env->sd, false));

	/* An idle machine's every idle CPU balances at every tick: without
	 * a task elsewhere there is no busiest group, and the statistics
	 * need not be gathered (fbq_type is left at ALL, as they would
	 * leave it).  SIS_UTIL's bound, if taken from them, needs only their
	 * sum of utilisation, which the kept sums give at once (without
	 * them, on small machines, the test and the sum would often be
	 * spent before the statistics are gathered anyway: not tried). */
	bool scan = cfs_updates_idle_cpu_scan(s, env);
	if (env->fbq_type == CFS_FBQ_ALL && !env->trimmed && (!scan || s->gsum_on) &&
	    cfs_only_local_busy(s, env)) {
		if (scan)
			cfs_update_idle_cpu_scan(s, env, cfs_sum_util(env->sd));
		return NULL;
	}
	cfs_sd_stats(s, env, &sds);
	if (!sds.busiest)
		return NULL;
	struct cfs_sg_stats *local = &sds.local_stat, *busiest = &sds.busiest_stat;
	/* a misfit task is dealt with whatever the average loads; pinned
	 * tasks make the usual comparisons of an imbalanced group
	 * meaningless: force the balance */
	if (busiest->type == CFS_GROUP_MISFIT || busiest->type == CFS_GROUP_IMBALANCED)
		goto force_balance;
	if (local->type > busiest->type)
		return NULL;
	if (local->type == CFS_GROUP_OVERLOADED) {
		if (local->avg_load >= busiest->avg_load)
			return NULL;
		sds.avg_load = sds.total_load * CFS_CAPACITY_SCALE / sds.total_capacity;
		if (local->avg_load >= sds.avg_load)
			return NULL;
		if (100 * busiest->avg_load <= env->sd->imbalance_pct * local->avg_load)
			return NULL;
	}
	if (!(sds.prefer_sibling && local->type == CFS_GROUP_HAS_SPARE &&
	      cfs_sibling_imbalance(env, &sds) > 1) &&
	    busiest->type != CFS_GROUP_OVERLOADED) {
		if (env->idle == CFS_NOT_IDLE)
			return NULL;
		/* (SMT vs non-SMT groups do not occur on symmetric machines) */
		if (busiest->weight > 1 && local->idle_cpus <= busiest->idle_cpus + 1)
			return NULL;
		if (busiest->h_nr_running == 1)
			return NULL;
	}
force_balance:
	cfs_calculate_imbalance(env, &sds);
	return env->imbalance > 0 ? sds.busiest : NULL;
}

struct cfs_rq *cfs_find_busiest_queue(struct cfs *s, struct cfs_lb_env *env,
				      const struct cfs_group *g)
{
	struct cfs_rq *busiest = NULL;
	long busiest_load = 0, busiest_cap = 1, busiest_util = 0;
	int busiest_nr = 0;

	cfs_for_each_group_cpu(c, g) {
		struct cfs_rq *rq = &s->rq[c];
		if (!cfs_env_has(env, c))
			continue;
		if (cfs_fbq_classify(cfs_nr_all(rq), rq->nr_numa_running,
				     rq->nr_preferred_running) > env->fbq_type)
			continue;
		int nr = rq->nr_running;
		if (!nr)
			continue;
		switch (env->migration_type) {
		case CFS_MIGRATE_LOAD: {
			long load = cfs_cpu_load(rq);
			/* one task too big to move, unless RT shrank its CPU */
			if (nr == 1 && load > env->imbalance && !cfs_capacity_reduced(rq, env->sd))
				break;
			if (load * busiest_cap > busiest_load * rq->capacity) {
				busiest_load = load;
				busiest_cap = rq->capacity;
				busiest = rq;
			}
			break;
		}
		case CFS_MIGRATE_UTIL: {
			long util = cfs_cpu_util_boost(rq);
			if (nr <= 1)
				break;
			if (busiest_util < util) {
				busiest_util = util;
				busiest = rq;
			}
			break;
		}
		case CFS_MIGRATE_TASK:
			if (busiest_nr < nr) {
				busiest_nr = nr;
				busiest = rq;
			}
			break;
		}
	}
	return busiest;
}
