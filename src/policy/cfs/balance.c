/*
 * cfs/balance.c - load balancing over the scheduler domains, as since
 * Linux 5.5's rework (Vincent Guittot) with the 6.x SMT rules:
 *
 *   periodic   each CPU at its tick, per domain bottom-up, every
 *              balance_interval ms (x busy_factor when busy), if it is the
 *              group's designated balancer (the first idle CPU, preferring
 *              one on an idle core; else the group's first CPU);
 *   newly idle a CPU about to idle pulls at once, level by level, while its
 *              expected idle time exceeds what balancing has cost (one task
 *              at most with CONFIG_PREEMPTION: knob preemption);
 *   active     when a pull of tasks to spread them (migrate_task) fails
 *              repeatedly, the busiest CPU's migration thread pushes its
 *              running task out.
 *
 * A balance (cfs/busiest.c) classifies every group of the domain (has
 * spare capacity < fully busy < misfit: one fair task on a CPU whose capacity RT cut, to an
 * idle balancer < SMT core with two busy siblings < overloaded: more tasks
 * than CPUs and utilisation or runnable over capacity by imbalance_pct),
 * picks the busiest, and decides what to move (the groups' task counts
 * are of every class, RT included, as 6.12's sum_nr_running; only "has it a
 * task to give" counts fair tasks, sum_h_nr_running): with spare capacity here,
 * tasks, to even out idle CPUs - or, when the child level prefers siblings
 * (SMT, MC), to spread running tasks per core, which sends the second of
 * two hogs on one SMT core to an idle core; utilisation, to fill spare
 * capacity from an overloaded group across LLCs; load (PELT, weighted by
 * nice) between overloaded groups, bounded by imbalance_pct.  Tasks are
 * taken from the least recently run end, skipping running and cache-hot
 * ones (ran within migration_cost, except between SMT siblings) until the
 * domain has failed cache_nice_tries times; NUMA balancing's preferences
 * are respected (cfs/numa.c).  Tasks pinned away are handled as 6.12 does
 * (cfs_load_balance): taken to another CPU of this group, a wholly pinned
 * queue dropped and the domain balanced again without it, a back-off up
 * to MAX_PINNED_INTERVAL, and a group that pinned tasks kept unbalanced
 * marked for the level above.
 *
 * Sources: Lozi et al., "The Linux Scheduler: a Decade of Wasted Cores"
 * (EuroSys 2016: an idle CPU must not stay idle while another has waiting
 * tasks - the group-imbalance and overload-on-wakeup bugs are what this
 * logic was reworked against); 2.6.12.1 kernel/sched.c (load_balance,
 * find_busiest_group, can_migrate_task, active_load_balance: the
 * ancestors of every function here); Linux kernel/sched/fair.c of 6.12
 * (sysctl_sched_migration_cost 0.5 ms, update_idle_cpu_scan for SIS_UTIL): sched_balance_trigger /
 * sched_balance_domains (rebalance_domains), get_sd_balance_interval,
 * should_we_balance, update_sg_lb_stats, group_classify,
 * group_has_capacity, group_is_overloaded, smt_balance,
 * update_sd_pick_busiest, sibling_imbalance, find_busiest_group,
 * calculate_imbalance, find_busiest_queue, can_migrate_task, task_hot,
 * detach_tasks, sched_balance_rq (load_balance: LBF_ALL_PINNED,
 * LBF_DST_PINNED, LBF_SOME_PINNED, MAX_PINNED_INTERVAL), sg_imbalanced,
 * need_active_balance,
 * active_load_balance_cpu_stop, sched_balance_newidle,
 * update_newidle_cost.
 *
 * Omitted / simplified:
 *   - NOHZ: under nohz=on an idle CPU stops its tick and the idle load
 *     balancer runs cfs_balance_domains for it (cfs/nohz.c); nohz=off keeps
 *     every tick, and an idle CPU balances for itself at the idle intervals.
 *   - rd->overloaded (which gates newly-idle balancing) is exact: the count
 *     of runqueues with two or more tasks, where the kernel clears it
 *     lazily at the next top-level balance.
 *   - Asymmetric packing, misfit tasks of asymmetric capacities (a misfit
 *     here is one fair task on a CPU whose capacity RT cut), IRQ pressure
 *     on capacity (RT's is in: cfs/capacity.c).
 *   - SD_SERIALIZE's flag is held for the balance's charged scan time from
 *     its start (cfs_serialize_hold), not until its CPU has done it.
 *   - A pinned task's other destination is looked for in the local
 *     group's span, not its balance mask (they differ only for NUMA
 *     levels whose groups overlap).
 *   - Tasks pulled in one pass are attached one by one as they are
 *     detached (the kernel detaches a batch, then attaches it).
 *   - The balancer's cost is the machine's scan cost per CPU and task it
 *     looks at, charged as scheduler time on the balancing CPU; the
 *     newly-idle cost bound uses that simulated cost.
 *   - The engine runs each CPU's tick, and the switch it asks for, in CPU
 *     order: a task preempted at CPU 0's tick looks cache-hot to CPU 1
 *     balancing in the same jiffy (in the kernel the two race), until the
 *     domain has failed cache_nice_tries times.
 */
#include "policy/cfs/balance.h"
#include "sim/sim.h"

/* __cpumask_clear_cpu(cpu, env->cpus) */
static void cfs_env_drop(struct cfs_lb_env *env, int cpu)
{
	if (!env->trimmed) {
		*env->cpus = env->sd->span->cpus;
		env->trimmed = true;
	}
	sl_cpumask_unset(env->cpus, cpu);
}

static bool cfs_allowed(const struct cfs_entity *se, int cpu)
{
	return sl_cpumask_test(&se->task->allowed, cpu);
}

/* ---- the moves ---- */

void cfs_request_move(struct cfs *s, struct cfs_entity *se, int dest)
{
	struct cfs_rq *rq = &s->rq[se->cpu];

	if (rq->mig_se || se->mig_rq >= 0 || dest == se->cpu)
		return;
	rq->mig_se = se;
	rq->mig_dest = dest;
	se->mig_rq = se->cpu;
	sl_migration_wake(s->sim, se->cpu, 0);
}

/* task_hot(): ran within migration_cost; SMT siblings share the caches. */
static bool cfs_task_hot(const struct cfs *s, const struct cfs_entity *se,
			 const struct cfs_lb_env *env)
{
	if (env->sd->flags & CFS_SD_SHARE_CPUCAPACITY)
		return false;
	if (s->migration_cost == 0)
		return false;
	return sl_now(s->sim) - se->exec_start < s->migration_cost;
}

static bool cfs_can_migrate(const struct cfs *s, const struct cfs_entity *se,
			    struct cfs_lb_env *env)
{
	if (!cfs_allowed(se, env->dst_cpu)) {
		env->some_pinned = true;
		/* remember another CPU of this group it may run on, to come
		 * back for it there (not when newly idle, nor twice a pass) */
		if (env->idle == CFS_NEWLY_IDLE || env->dst_pinned || env->active)
			return false;
		const struct cfs_group *g = env->dst_grp;
		cfs_for_each_group_cpu(c, g) {
			if (cfs_env_has(env, c) && cfs_allowed(se, c)) {
				env->dst_pinned = true;
				env->new_dst_cpu = c;
				break;
			}
		}
		return false;
	}
	env->all_pinned = false;	/* at least one could come here */
	if (env->src_rq->curr == se || se->mig_rq >= 0)
		return false;
	if (env->active)
		return true;
	int hot = cfs_numa_degrades_locality(s, se, env->src_cpu, env->dst_cpu, env->sd);
	if (hot < 0)
		hot = cfs_task_hot(s, se, env);
	return hot <= 0 || env->sd->nr_balance_failed > env->sd->cache_nice_tries;
}

/* detach_tasks() + attach_tasks(): from the least recently run end. */
static int cfs_detach_tasks(struct cfs *s, struct cfs_lb_env *env)
{
	struct cfs_rq *src = env->src_rq;
	struct cfs_entity *se = cfs_lru_entry(src->cfs_tasks.tail);
	int detached = 0;

	if (env->imbalance <= 0)
		return 0;
	while (se) {
		if (env->idle != CFS_NOT_IDLE && cfs_nr_all(src) <= 1)
			break;
		if (++env->loop > env->loop_max)
			break;
		env->looked++;
		struct cfs_entity *prev = cfs_lru_entry(se->lru.prev);
		int nbf = env->sd->nr_balance_failed < 62 ? env->sd->nr_balance_failed : 62;
		bool take = cfs_can_migrate(s, se, env);
		if (take) {
			switch (env->migration_type) {
			case CFS_MIGRATE_LOAD: {
				long load = cfs_task_h_load(s, se);
				if (load < 1)
					load = 1;
				if ((load >> nbf) > env->imbalance)
					take = false;
				else
					env->imbalance -= load;
				break;
			}
			case CFS_MIGRATE_UTIL: {
				long util = cfs_task_util_est(se);
				if ((util >> nbf) > env->imbalance)
					take = false;
				else
					env->imbalance -= util;
				break;
			}
			case CFS_MIGRATE_TASK:
				env->imbalance--;
				break;
			}
		}
		if (take) {
			cfs_move_queued(s, se, env->dst_cpu);
			detached++;
			/* CONFIG_PREEMPTION: newly idle balancing is latency,
			 * so it stops at the first task (detach_tasks) */
			if (s->preemption && env->idle == CFS_NEWLY_IDLE)
				break;
			if (env->imbalance <= 0)
				break;
		} else {
			/* list_move(): a skipped task goes to the front */
			sl_dlist_del(&src->cfs_tasks, &se->lru);
			sl_dlist_push_front(&src->cfs_tasks, &se->lru);
		}
		se = prev;
	}
	return detached;
}

static inline void cfs_set_balance_interval(const struct cfs *s, struct cfs_domain *sd, int ms);

/* should_we_balance(): one balancer per group: its first idle CPU (on an
 * idle core when balancing cores), or its first CPU. */
static bool cfs_should_we_balance(struct cfs *s, const struct cfs_lb_env *env)
{
	if (env->idle == CFS_NEWLY_IDLE)
		return cfs_nr_all(env->dst_rq) == 0;

	const struct cfs_group *g = &env->sd->span->groups[env->sd->local];
	int idle_smt = -1;
	/* the group's CPUs, less the siblings of idle SMT CPUs already
	 * seen: read from the group until the first such sibling, then
	 * from a copy of the group's words (the loop reads no others) */
	sl_cpumask swb;
	const sl_cpumask *walk = &g->span;
	for (int c = sl_cpumask_next_in(walk, g->first_cpu, g->end_cpu); c >= 0;
	     c = sl_cpumask_next_in(walk, c + 1, g->end_cpu)) {
		if (!cfs_env_has(env, c) || !cfs_cpu_idle(s, c))
			continue;
		if (!(env->sd->flags & CFS_SD_SHARE_CPUCAPACITY) && !cfs_core_idle(s, c)) {
			if (idle_smt < 0)
				idle_smt = c;
			if (walk != &swb) {
				for (int i = g->first_cpu >> 6; i <= (g->end_cpu - 1) >> 6; i++)
					swb.w[i] = g->span.w[i];
				walk = &swb;
			}
			cfs_for_each_cpu_in(x, sl_topo_siblings(s->topo, c), c, g->end_cpu)
				sl_cpumask_unset(&swb, x);
			continue;
		}
		return c == env->dst_cpu;
	}
	if (idle_smt >= 0)
		return idle_smt == env->dst_cpu;
	return g->first_cpu == env->dst_cpu;
}

/* 6.12 need_active_balance(): with no asymmetric packing here (and so no
 * migrate_misfit), imbalanced_active_balance() - a migrate_task imbalance (spreading tasks
 * over idle CPUs or SMT siblings) that failed more than cache_nice_tries
 * + 2 times - or an idle CPU taking the one fair task of a CPU whose
 * capacity RT has noticeably reduced, if it offers more.  A load or
 * utilisation imbalance is otherwise left to shr_bound()'s halving of what
 * a detach may take. */
static bool cfs_need_active_balance(const struct cfs_lb_env *env)
{
	if (env->migration_type == CFS_MIGRATE_TASK &&
	    env->sd->nr_balance_failed > env->sd->cache_nice_tries + 2)
		return true;
	const struct cfs_rq *src = env->src_rq;
	return env->idle != CFS_NOT_IDLE && src->nr_running == 1 &&
	       cfs_capacity_reduced(src, env->sd) &&
	       src->capacity * env->sd->imbalance_pct < env->dst_rq->capacity * 100;
}

/* What the balancer looked at is scheduler work on the balancing CPU. */
static void cfs_charge_balance(struct cfs *s, int cpu, long looked)
{
	s->lb_looked += looked;
	/* the idle load balancer pays for the CPUs it balances (nohz.c) */
	if (looked > 0 && s->scan_ns > 0)
		sl_charge_sched(s->sim, s->lb_payer >= 0 ? s->lb_payer : cpu, looked * s->scan_ns);
}

/* Whether env->cpus holds a CPU outside this CPU's group: one whose
 * queue another pass could still pull from (!cpumask_subset). */
static bool cfs_env_beyond_dst_group(const struct cfs *s, const struct cfs_lb_env *env)
{
	cfs_for_each_cpu(s, c, env->cpus)
		if (!sl_cpumask_test(&env->dst_grp->span, c))
			return true;
	return false;
}

/* out_one_pinned's tail, where every balance that moved nothing ends:
 * the scan's charge, and a periodic balance's interval doubled, up to the
 * domain's maximum (or, when every task was pinned, up to
 * MAX_PINNED_INTERVAL).  Always inlined (cfs_only_local_busy_in says
 * why). */
static inline __attribute__((always_inline)) void
cfs_lb_back_off(struct cfs *s, int this_cpu, struct cfs_domain *sd, enum cfs_idle idle,
		bool all_pinned, long looked)
{
	cfs_charge_balance(s, this_cpu, looked);
	if (idle == CFS_NEWLY_IDLE)
		return;
	if ((all_pinned && sd->balance_interval < CFS_MAX_PINNED_INTERVAL) ||
	    sd->balance_interval < sd->max_interval)
		cfs_set_balance_interval(s, sd, sd->balance_interval * 2);
}

/*
 * sched_balance_rq() (load_balance): returns the number of tasks pulled.
 * Affinity, as 6.12 has it: tasks that may not come to dst_cpu but may go
 * to another CPU of its group are taken there (LBF_DST_PINNED); a queue
 * whose every task is pinned away is dropped and the domain balanced again
 * without it (LBF_ALL_PINNED), and if none is left outside this group the
 * interval backs off up to MAX_PINNED_INTERVAL; a balance that pinned
 * tasks kept from evening out marks this group imbalanced one level up
 * (sgc->imbalance), which a later balance there clears.
 */
static int cfs_load_balance(struct cfs *s, int this_cpu, int idx, enum cfs_idle idle,
			    bool *continue_balancing)
{
	struct cfs_rq *this_rq = &s->rq[this_cpu];
	struct cfs_domain *sd = &this_rq->sd[idx];
	struct cfs_domain *parent = idx + 1 < this_rq->nsd ? &this_rq->sd[idx + 1] : NULL;
	sl_cpumask cpus;	/* env.cpus: filled when first trimmed */
	struct cfs_lb_env env = {
		.sd = sd, .dst_cpu = this_cpu, .dst_rq = this_rq, .idle = idle,
		.fbq_type = CFS_FBQ_ALL, .dst_grp = &sd->span->groups[sd->local],
		.cpus = &cpus,
	};
	int moved = 0;
	bool active = false;
	struct cfs_rq *busiest;

redo:
	if (!cfs_should_we_balance(s, &env)) {
		*continue_balancing = false;
		goto out_balanced;
	}
	const struct cfs_group *g = cfs_find_busiest_group(s, &env);
	if (!g)
		goto out_balanced;
	busiest = cfs_find_busiest_queue(s, &env, g);
	if (!busiest)
		goto out_balanced;
	env.src_cpu = busiest->cpu;
	env.src_rq = busiest;
	moved = 0;
	env.all_pinned = true;	/* cleared by the first task that may come */
	if (cfs_nr_all(busiest) > 1) {
		int nr = cfs_nr_all(busiest);
		env.loop_max = nr < CFS_NR_MIGRATE ? nr : CFS_NR_MIGRATE;
more_balance:
		moved += cfs_detach_tasks(s, &env);
		if (env.dst_pinned && env.imbalance > 0) {
			/* the same queue, for the group's other CPU */
			cfs_env_drop(&env, env.dst_cpu);
			env.dst_cpu = env.new_dst_cpu;
			env.dst_rq = &s->rq[env.dst_cpu];
			env.dst_pinned = false;
			env.loop = 0;
			goto more_balance;
		}
		if (parent && env.some_pinned && env.imbalance > 0)
			parent->span->groups[parent->local].imbalance = true;
		if (env.all_pinned) {
			cfs_env_drop(&env, busiest->cpu);
			if (cfs_env_beyond_dst_group(s, &env)) {
				env.loop = 0;
				goto redo;
			}
			goto out_all_pinned;
		}
	}
	if (!moved) {
		if (idle != CFS_NEWLY_IDLE)
			sd->nr_balance_failed++;
		if (cfs_need_active_balance(&env)) {
			/* busiest->curr, of whatever class, must be allowed
			 * here (the stopper then moves a queued fair task,
			 * the one it preempted among them) */
			const struct sl_task *curr = sl_curr(s->sim, busiest->cpu);
			if (curr && !sl_cpumask_test(&curr->allowed, this_cpu))
				goto out_one_pinned;
			env.all_pinned = false;
			if (!busiest->active_balance && curr) {
				busiest->active_balance = true;
				busiest->push_cpu = this_cpu;
				s->active_kicks++;
				active = true;
				sl_migration_wake(s->sim, busiest->cpu, 0);
			}
		}
	} else {
		sd->nr_balance_failed = 0;
	}
	if (!active || cfs_need_active_balance(&env))
		cfs_set_balance_interval(s, sd, sd->min_interval);
	cfs_charge_balance(s, this_cpu, env.looked);
	return moved;

out_balanced:
	/* balanced with every task free to move: the imbalance pinned
	 * tasks left one level up is gone */
	if (parent && !env.all_pinned)
		parent->span->groups[parent->local].imbalance = false;
out_all_pinned:
	sd->nr_balance_failed = 0;
out_one_pinned:
	cfs_lb_back_off(s, this_cpu, sd, idle, env.all_pinned, env.looked);
	return 0;
}

/*
 * cfs_load_balance() of a periodic balance, in the case that ends it
 * nearly always, without its frame and environment: the local group is
 * this CPU alone (an SMT level; the lowest level of a machine without
 * SMT) and no other group of the domain has a fair task.  Then
 * should_we_balance() is true (the group's one CPU is its balancer,
 * idle or not, as env->cpus is still whole), find_busiest_group()
 * refreshes the group's capacity and stops at cfs_only_local_busy, and
 * the balance ends at out_balanced with all_pinned unset: the same steps
 * in the same order here.  Of xeon-2s-smt javabench:size=200's 1,717,131
 * balances, 1,517,023 are this one, at the SMT level of an idle CPU
 * whose sibling is idle too.  False (nothing done) when the full balance
 * must run.  j: now's jiffies; sd is the caller's loop's pointer, not
 * derived again from the indices (975.2 -> 939.1 M instructions in that
 * javabench).
 */
static inline __attribute__((always_inline)) bool
cfs_load_balance_quiet(struct cfs *s, int this_cpu, struct cfs_domain *sd, enum cfs_idle idle,
		       uint64_t j)
{
	/* sd->quiet_shape: the local group's weight is 1 and the level does
	 * not update SIS_UTIL's bound (for an idle other than NEWLY_IDLE,
	 * which returns here anyway), both fixed at the build: a load for
	 * the seven of the tests (their lines 30.0 -> 3.4 M instructions
	 * in xeon-2s-smt javabench:size=200) */
	if (idle == CFS_NEWLY_IDLE || !sd->quiet_shape)
		return false;
	if (!cfs_only_local_busy_in(s, sd))
		return false;
	cfs_update_group_capacity(s, this_cpu, sd, j + cfs_balance_interval(sd, false));
	/* out_balanced, no task pinned: the parent's local group, if the
	 * domain has a parent, kept as a pointer (18.3 -> 6.1 M) */
	if (sd->parent_local)
		sd->parent_local->imbalance = false;
	sd->nr_balance_failed = 0;
	cfs_lb_back_off(s, this_cpu, sd, idle, false, sd->span->weight);
	return true;
}

/* get_sd_balance_interval(): ms to jiffies, longer when busy. */
static uint64_t cfs_balance_interval_of(const struct cfs *s, const struct cfs_domain *sd,
					bool busy)
{
	uint64_t ms = (uint64_t)sd->balance_interval;

	if (busy)
		ms *= (uint64_t)sd->busy_factor;
	/* msecs_to_jiffies() rounds up */
	uint64_t j = (ms * s->hz + 999) / 1000;
	if (busy && j > 1)
		j -= 1;
	if (j < 1)
		j = 1;
	if (j > s->max_lb_interval)
		j = s->max_lb_interval;
	return j;
}

/* ... computed once per value of balance_interval: every CPU asks for
 * each of its domains at every balancing tick (an idle one every tick),
 * and the division by 1000 was 3 % of an idle 64-CPU machine's
 * instructions. */
static __attribute__((noinline)) void cfs_balance_interval_set(const struct cfs *s,
							       struct cfs_domain *sd)
{
	sd->ivl_ms = sd->balance_interval;
	sd->ivl_j[0] = cfs_balance_interval_of(s, sd, false);
	sd->ivl_j[1] = cfs_balance_interval_of(s, sd, true);
}

/* Every write of balance_interval after the domains are built (the
 * doubling of the back-off, the reset to min_interval) comes through
 * here, and cfs_balance_init computed the first memo: so the
 * memo is always balance_interval's, and the reads below need no test.
 * They are eight million in xeon-2s-smt javabench:size=200 (three a
 * due domain, one a domain not due), the writes a few thousand. */
static inline void cfs_set_balance_interval(const struct cfs *s, struct cfs_domain *sd, int ms)
{
	sd->balance_interval = ms;
	if (sd->ivl_ms != ms)
		cfs_balance_interval_set(s, sd);
}

void cfs_balance_init(struct cfs *s)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct cfs_rq *rq = &s->rq[cpu];
		for (int i = 0; i < rq->nsd; i++) {
			struct cfs_domain *sd = &rq->sd[i];
			cfs_balance_interval_set(s, sd);
			/* the idle argument aside (the quiet balance tests it
			 * first), cfs_updates_idle_cpu_scan_of reads only what
			 * the build fixed and the sis_util knob */
			sd->quiet_shape = sd->span->groups[sd->local].weight == 1 &&
					  !cfs_updates_idle_cpu_scan_of(s, rq, sd, CFS_IDLE);
			sd->parent_local = i + 1 < rq->nsd ?
					   &sd[1].span->groups[sd[1].local] : NULL;
		}
	}
}

/* update_newidle_cost()'s decay, ~1%/s; true if it decayed (the
 * kernel's need_decay).  sched_balance_domains()' call at each domain,
 * update_newidle_cost(sd, 0), is this alone: max_newidle_lb_cost is never
 * negative (0 at the domain's memset, then a cost, a count of CPUs and
 * tasks looked at times scan_ns >= 0, or 253/256 of itself), so `0 > max`
 * never holds and the first branch is never taken; without its test, 4.7
 * million domain visits in xeon-2s-smt javabench:size=200 skip a load and
 * a branch. */
static inline bool cfs_decay_newidle_cost(struct cfs *s, struct cfs_domain *sd, uint64_t j)
{
	if (j <= sd->last_decay_max_lb_cost + s->hz)
		return false;
	sd->max_newidle_lb_cost = sd->max_newidle_lb_cost * 253 / 256;
	sd->last_decay_max_lb_cost = j;
	return true;
}

/* update_newidle_cost(): the most a newly-idle balance cost, decaying ~1%/s. */
static void cfs_update_newidle_cost(struct cfs *s, struct cfs_domain *sd, sl_time cost,
				    uint64_t j)
{
	if (cost > sd->max_newidle_lb_cost) {
		sd->max_newidle_lb_cost = cost;
		sd->last_decay_max_lb_cost = j;
	} else {
		cfs_decay_newidle_cost(s, sd, j);
	}
}

/* sched_balance_domains()'s rq->max_idle_balance_cost when the pass's
 * last domain decays: the sum of the domains' newly-idle costs, never
 * below migration_cost (6.12's floor against avg_idle's "funnies").  Out
 * of line: it is rare. */
static __attribute__((noinline)) void cfs_set_max_idle_balance_cost(const struct cfs *s,
								     struct cfs_rq *rq)
{
	sl_time max_cost = 0;

	for (int i = 0; i < rq->nsd; i++)
		max_cost += rq->sd[i].max_newidle_lb_cost;
	rq->max_idle_balance_cost = max_cost > s->migration_cost ? max_cost : s->migration_cost;
}

/* sched_balance_trigger() + sched_balance_softirq(), at a tick. */
void cfs_rebalance_tick(struct cfs *s, int cpu)
{
	uint64_t j = sl_jiffies(s->sim);

	/* on_null_domain(): a CPU without domains (the only CPU of its
	 * machine) raises no balancing softirq, so its blocked averages
	 * are not brought up to date from the tick either */
	if (!s->rq[cpu].nsd || j < s->rq[cpu].next_balance)
		return;
	cfs_pelt_blocked(s, cpu);
	cfs_balance_domains(s, cpu, j, cfs_cpu_idle(s, cpu) ? CFS_IDLE : CFS_NOT_IDLE);
}

/*
 * SD_SERIALIZE (the NUMA levels): one CPU at a time balances them, by
 * sched_balance_running, which sched_balance_domains() takes with a
 * cmpxchg before it even asks whether the level is due, and releases
 * after.  A CPU that finds it taken skips the level (its due balance
 * waits for a later tick; last_balance stays).  6.12's ticks are not
 * skewed (sched_skew_tick is off), so CPUs due at the same jiffy race
 * for it; here they tick at the same instant in turn, and the flag is
 * held from the balance's start for the scan time it charges.  The
 * idle load balancer's passes for other CPUs follow one another on its
 * own CPU, each after the last.
 */
static bool cfs_serialize_taken(const struct cfs *s, int payer)
{
	const struct sl_spinlock *l = &s->balance_running;

	return l->holder != payer + 1 && l->free_at > sl_now(s->sim);
}

static void cfs_serialize_hold(struct cfs *s, int payer, long looked)
{
	struct sl_spinlock *l = &s->balance_running;
	sl_time now = sl_now(s->sim);
	sl_time from = l->holder == payer + 1 && l->free_at > now ? l->free_at : now;

	/* not sl_charge_locked: the balance charged its scan already */
	l->holder = payer + 1;
	l->free_at = from + (sl_time)looked * s->scan_ns;
}

/* sched_balance_domains(): balance cpu in each of its domains whose
 * interval has passed, and set when it balances next.  The jiffies and
 * whether cpu is idle come from the caller, which has them: the idle
 * load balancer calls this for each due idle CPU (1,564,448 times in
 * xeon-2s-smt javabench:size=200), and each call divided the clock by
 * the jiffy again (the clock does not move within a policy's call).
 * Inlined into its two callers (the idle load balancer's loop, through
 * LTO, and cfs_rebalance_tick), and cfs_load_balance_quiet into it,
 * which gcc then left out of line unless told: the call cost about 40
 * instructions a due idle CPU in spills, reloads and the frame
 * (xeon-2s-smt javabench:size=200 865.5 -> 837.9 M instructions). */
__attribute__((always_inline)) inline void
cfs_balance_domains(struct cfs *s, int cpu, uint64_t j, enum cfs_idle idle)
{
	struct cfs_rq *rq = &s->rq[cpu];
	bool busy = idle != CFS_IDLE, cont = true;
	uint64_t next = j + 60 * (uint64_t)s->hz;
	int payer = s->lb_payer >= 0 ? s->lb_payer : cpu;

	for (int i = 0; i < rq->nsd; i++) {
		struct cfs_domain *sd = &rq->sd[i];
		bool decayed = cfs_decay_newidle_cost(s, sd, j);
		/* the last domain of the pass decayed: so does the CPU's
		 * whole cost (after the loop in 6.12, which sums the costs as
		 * it goes: the pass ends early only at a domain that did not
		 * decay, and nothing after the top domain's decay changes a
		 * cost, so it is the same sum; a sum at every visit cost 4.6 %
		 * of xeon-2s-smt javabench:size=200's instructions for an
		 * update made about once a second) */
		if (decayed && i == rq->nsd - 1)
			cfs_set_max_idle_balance_cost(s, rq);
		/* a balance below asked to stop (another CPU of its group
		 * balances more actively): 6.12 goes on up the domains while
		 * each one's newly-idle cost decays (need_decay), balancing
		 * none of them and leaving next_balance as it is */
		if (!cont) {
			if (decayed)
				continue;
			break;
		}
		uint64_t interval = cfs_balance_interval(sd, busy);
		bool serialize = sd->flags & CFS_SD_SERIALIZE;
		/* a level not due skips the balance either way: the flag
		 * (which the kernel takes first) is asked only of a due one */
		if (j >= sd->last_balance + interval && !(serialize && cfs_serialize_taken(s, payer))) {
			long before = s->lb_looked;
			if (!cfs_load_balance_quiet(s, cpu, sd, idle, j) &&
			    cfs_load_balance(s, cpu, i, idle, &cont)) {
				idle = cfs_cpu_idle(s, cpu) ? CFS_IDLE : CFS_NOT_IDLE;
				busy = idle != CFS_IDLE;
			}
			if (serialize)
				cfs_serialize_hold(s, payer, s->lb_looked - before);
			sd->last_balance = j;
			interval = cfs_balance_interval(sd, busy);
		}
		if (next > sd->last_balance + interval)
			next = sd->last_balance + interval;
	}
	rq->next_balance = next;
}

/* update_next_balance(): an idle CPU balances at the idle intervals. */
static void cfs_update_next_balance(const struct cfs_domain *sd, uint64_t *next)
{
	uint64_t at = sd->last_balance + cfs_balance_interval(sd, false);

	if (*next > at)
		*next = at;
}

/* sched_balance_newidle(): pull before going idle. */
bool cfs_newidle_balance(struct cfs *s, int cpu)
{
	struct cfs_rq *rq = &s->rq[cpu];
	bool pulled = false, cont = true;
	sl_time curr_cost = 0;
	uint64_t j = sl_jiffies(s->sim);	/* now's: the same all through */
	uint64_t next = j + s->hz;

	rq->idle_stamp = sl_now(s->sim);
	if (!rq->nsd)
		return false;
	if (!s->nr_overloaded || rq->avg_idle < rq->sd[0].max_newidle_lb_cost) {
		cfs_update_next_balance(&rq->sd[0], &next);
		goto out;
	}
	cfs_pelt_blocked(s, cpu);
	for (int i = 0; i < rq->nsd; i++) {
		struct cfs_domain *sd = &rq->sd[i];
		cfs_update_next_balance(sd, &next);
		if (rq->avg_idle < curr_cost + sd->max_newidle_lb_cost)
			break;
		if (s->newidle && (sd->flags & CFS_SD_BALANCE_NEWIDLE)) {
			long before = s->lb_looked;
			pulled = cfs_load_balance(s, cpu, i, CFS_NEWLY_IDLE, &cont) > 0;
			sl_time cost = (sl_time)(s->lb_looked - before) * s->scan_ns;
			cfs_update_newidle_cost(s, sd, cost, j);
			curr_cost += cost;
		}
		if (pulled || !cont)
			break;
	}
	if (curr_cost > rq->max_idle_balance_cost)
		rq->max_idle_balance_cost = curr_cost;
out:
	if (rq->next_balance > next)
		rq->next_balance = next;
	if (rq->nr_running)
		pulled = true;
	if (pulled)
		rq->idle_stamp = 0;
	else
		cfs_nohz_newidle(s, cpu);
	return pulled;
}

/* active_load_balance_cpu_stop(): the migration thread of the busiest
 * CPU pushes one task (the one it preempted is queued now) to push_cpu. */
void cfs_active_balance(struct cfs *s, int cpu)
{
	struct cfs_rq *rq = &s->rq[cpu];
	int target = rq->push_cpu;

	if (!rq->active_balance)
		return;
	rq->active_balance = false;
	if (cfs_nr_all(rq) < 1 || target == cpu)
		return;	/* nothing but the thread itself (nr_running <= 1) */
	struct cfs_rq *trq = &s->rq[target];
	struct cfs_domain *sd = NULL;
	for (int i = 0; i < trq->nsd && !sd; i++)
		if (sl_cpumask_test(&trq->sd[i].span->cpus, cpu))
			sd = &trq->sd[i];
	if (!sd)
		return;
	struct cfs_lb_env env = {
		.sd = sd, .dst_cpu = target, .dst_rq = trq, .src_cpu = cpu, .src_rq = rq,
		.idle = CFS_IDLE, .active = true,
	};
	for (struct cfs_entity *se = cfs_lru_entry(rq->cfs_tasks.tail); se;
	     se = cfs_lru_entry(se->lru.prev)) {
		env.looked++;
		if (!cfs_can_migrate(s, se, &env))
			continue;
		cfs_move_queued(s, se, target);
		sd->nr_balance_failed = 0;
		break;
	}
	cfs_charge_balance(s, cpu, env.looked);
}
