/*
 * domains/balance.c - moving tasks between the runqueues of a domain:
 * can_migrate_task and move_tasks, load_balance with its failure counter
 * and interval back-off, newly-idle balancing, active balancing through
 * the busiest CPU's migration thread, and the migration thread itself
 * (which also serves exec balancing's sched_migrate_task).  The staggered
 * rebalance_tick that calls load_balance is domains/rebalance.c's.
 *
 * Sources: 2.6.12.1 kernel/sched.c (can_migrate_task, move_tasks,
 * load_balance, load_balance_newidle, idle_balance, active_load_balance,
 * rebalance_tick, migration_thread).  w26 (Nick Piggin's Dec 2003 CFT
 * against 2.6.0-test11) is read from the sched-domains code of early 2004,
 * before Nick's Feb 2004 "lessidle" patch, and his mails of the time:
 * "[CFT][RFC] HT scheduler" (LKML, Dec 2003), his reply to Jun Nakajima on
 * w26 vs w27 (Dec 2003), to Rick Lindsley on SD_FLAG_IDLE vs cpu_power
 * (Feb 2004), and "[PATCH] 2.6.3-rc3-mm1: sched-group-power"
 * <403480CA.7050804@cyberone.com.au>.
 *
 * Choices:
 *   - A balanced outcome leaves nr_balance_failed alone and doubles the
 *     interval (2.6.12.1 load_balance(), out_balanced): only a move resets
 *     the counter, so failures separated by balanced looks still add up to
 *     an active balance.  No w26-era source resets it either.
 *   - w26's interval rule is not known: here an imbalanced attempt resets
 *     the interval to min_interval and a failure bumps the counter without
 *     resetting it after an active kick.  INFERRED.
 *   - w26 kicks active balancing in SD_FLAG_IDLE domains after more than
 *     cache_nice_tries failures, waking the migration thread of every CPU
 *     of the busiest group; each pushes one task to every wholly idle group
 *     of its domain spanning push_cpu.  Its rounding to the nearest task
 *     means a lone task (1 vs 0) or 2 vs 1 tasks on two HT packages is no
 *     imbalance, so nothing bounces.
 *   - can_migrate_task: 2.6.12 lets any task go when our whole package
 *     idles or the domain failed more than cache_nice_tries times; w26 has
 *     no package override: a newly idle balance always respects cache-hot,
 *     any other balance ignores it once nr_balance_failed reaches
 *     cache_nice_tries.  The migration thread's push is an IDLE balance of
 *     the busiest CPU's own domain (as in the early-2004 code), whose
 *     counter has not failed: in w26 the task it just preempted is hot at
 *     the package level (5 ms) and stays, which is how its active
 *     balancing was "quite broken" (Nick, Dec 2003).
 *   - Both versions pull expired tasks into our expired array.
 *   - cache-hot compares against the task's own last_ran, stamped by
 *     every schedule() that had it as prev (re-picks included), as
 *     2.6.12's task_hot; a child that never ran has its parent's, as
 *     2.6.12.1's dup_task_struct copies it and sched_fork leaves it (w26:
 *     cold, no 2.6.0 tree at hand).
 *   - rebalance_tick (both versions): the stagger is HZ*cpu/NR_CPUS with
 *     NR_CPUS the machine's CPU count (the kernel's is the build's: 8 in
 *     i386's defconfig, 32 with X86_NUMAQ); each domain's last_balance
 *     starts at that offset, rounded down to its busy interval, so
 *     balancing starts staggered without a burst of catch-up balances.
 *     When the engine stopped the tick (nothing runnable), the missed
 *     jiffies' idle balances are replayed as the first task wakes
 *     (sd_ticks_skipped): each found nothing to move, so each doubled its
 *     domain's interval and moved its clock on; 2.6.12's cpu_load decays
 *     by them, w26's memories halve; timestamp_last_tick is the last of
 *     them.
 *
 * Omitted / simplified:
 *   - Locks (double_lock_balance) and their contention; the balancer's
 *     work is charged as scan_ns per CPU and per task looked at.
 *   - schedstats (all_pinned came in 2.6.13).
 */
#include "policy/domains/domains.h"
#include "sim/sim.h"

/* ---- moving queued tasks ---- */

bool sd_task_hot(const struct sd_task *p, sl_time now, const struct sd_domain *sd)
{
	/* task_hot(): stamped by the task's last schedule() as prev, or, for
	 * a child that never ran, copied from its parent (sd_fork).  The
	 * test is signed: a schedule() that a tick caused stamps last_ran
	 * from a sched_clock() read after the tick's, so against that tick's
	 * timestamp_last_tick the task is hot even to a cache_hot_time of 0
	 * (the SMT level's) until the next tick; here both come at one
	 * instant, and ran_after_tick keeps their order. */
	sl_time d = now - p->last_ran;
	return d < sd->p.cache_hot_time || (d == 0 && p->ran_after_tick);
}

/* can_migrate_task; `pkg_idle` is cpu_and_siblings_are_idle(this_cpu) as
 * the pass began: the kernel's idle_cpu() reads rq->curr, which stays the
 * idle task while an idle balancer pulls, so its first pull does not make
 * it busy for the rest of the pass. */
static bool sd_can_migrate(const struct sd_sched *s, const struct sd_task *p, int src,
			   int this_cpu, const struct sd_domain *sd, enum sd_idle idle,
			   bool pkg_idle)
{
	const struct sl_task *t = p->task;

	if (sl_task_running(t) || !sl_cpumask_test(&t->allowed, this_cpu))
		return false;
	if (s->v->rules == SD_RULES_W26) {
		/* newly idle always respects cache-hot; the others stop caring
		 * once balancing has failed cache_nice_tries times */
		if (idle != SD_NEWLY_IDLE && sd->nr_balance_failed >= sd->p.cache_nice_tries)
			return true;
		return !sd_task_hot(p, sd_rq(s, src)->timestamp_last_tick, sd);
	}
	/* 2.6.12: aggressive if our whole package idles or balancing keeps
	 * failing */
	if (pkg_idle || sd->nr_balance_failed > sd->p.cache_nice_tries)
		return true;
	return !sd_task_hot(p, sd_rq(s, src)->timestamp_last_tick, sd);
}

void sd_move_queued(struct sl_sim *sim, struct sd_sched *s, struct sd_task *p,
		    int dest, struct sl_prio_array *dst_array)
{
	struct sd_rq *src = sd_rq(s, p->cpu), *dst = sd_rq(s, dest);

	sd_dequeue(p);
	sd_nr_add(s, src->cpu, -1);
	sl_note_migration(sim, p->task, p->cpu, dest);
	p->cpu = dest;
	sd_nr_add(s, dst->cpu, 1);
	sd_enqueue(dst_array ? dst_array : dst->active, p);
	/* the idle task has prio MAX_PRIO: an idle CPU always reschedules */
	if (sd_preempts(sim, p, dest))
		sl_resched(sim, dest);
}

/*
 * Pull up to max_nr_move tasks from busiest to this_cpu: expired tasks
 * first (least likely to run soon, most likely cache-cold), highest
 * priority first, each list from its tail.
 */
int sd_move_tasks(struct sl_sim *sim, struct sd_sched *s, int this_cpu, int busiest,
		  unsigned long max_nr_move, struct sd_domain *sd, enum sd_idle idle)
{
	struct sd_rq *src = sd_rq(s, busiest), *dst = sd_rq(s, this_cpu);
	unsigned long pulled = 0;
	long looked = 0;

	if (!max_nr_move || sd_nr_running(s, busiest) <= 1)
		return 0;
	struct sl_prio_array *array = src->active, *dst_array = dst->active;
	if (!sl_prio_array_empty(src->expired)) {
		array = src->expired;
		dst_array = dst->expired;	/* expired stays expired */
	}
	/* 2.6.12 can_migrate_task: cpu_and_siblings_are_idle(this_cpu) reads
	 * rq->curr, so a balance inside schedule() (prev, or the migration
	 * thread, still curr) never finds this CPU idle */
	bool pkg_idle = s->v->rules != SD_RULES_W26 && this_cpu != s->thread_pick &&
			sd_cpu_and_siblings_idle(sim, s, this_cpu);
	for (;;) {
		struct sl_prio_node *n = sl_prio_array_first_tailwise(array);
		while (n) {
			struct sl_prio_node *next = sl_prio_array_next_tailwise(array, n);
			struct sd_task *p = sd_of_node(n);
			looked++;
			if (sd_can_migrate(s, p, busiest, this_cpu, sd, idle, pkg_idle)) {
				sd_move_queued(sim, s, p, this_cpu, dst_array);
				if (++pulled >= max_nr_move)
					goto out;
			}
			n = next;
		}
		if (array != src->expired)
			break;
		array = src->active;
		dst_array = dst->active;
	}
out:
	sl_charge_sched(sim, this_cpu, looked * s->scan_ns);
	return (int)pulled;
}

/* ---- load_balance ---- */

static void sd_kick_active(struct sl_sim *sim, struct sd_sched *s, int cpu, int this_cpu)
{
	struct sd_rq *rq = sd_rq(s, cpu);

	if (rq->active_balance)
		return;
	rq->active_balance = true;
	rq->push_cpu = this_cpu;
	sd_wake_migration(sim, s, cpu, this_cpu);
}

/* 2.6.12: after more than cache_nice_tries + 2 failures, the busiest CPU
 * pushes. */
static void sd_failed_2612(struct sl_sim *sim, struct sd_sched *s, struct sd_domain *sd,
			   int this_cpu, int busiest)
{
	sd->nr_balance_failed++;
	if (sd->nr_balance_failed > sd->p.cache_nice_tries + 2) {
		sd_kick_active(sim, s, busiest, this_cpu);
		sd->nr_balance_failed = sd->p.cache_nice_tries;
	}
	if (sd->balance_interval < sd->p.max_interval)
		sd->balance_interval++;
}

/* w26: in SD_FLAG_IDLE domains, every CPU of the busiest group pushes. */
static void sd_failed_w26(struct sl_sim *sim, struct sd_sched *s, struct sd_domain *sd,
			  int this_cpu, const struct sd_group *group)
{
	if ((sd->p.flags & SD_FLAG_IDLE) && sd->nr_balance_failed > sd->p.cache_nice_tries) {
		sd_for_each_group_cpu(i, group)
			sd_kick_active(sim, s, i, this_cpu);
	}
	sd->nr_balance_failed++;
	sd->balance_interval = sd->p.min_interval;
}

int sd_load_balance(struct sl_sim *sim, struct sd_sched *s, int this_cpu, struct sd_domain *sd,
		    enum sd_idle idle)
{
	unsigned long imbalance = 0;
	int nr_moved = 0;
	struct sd_group *group;
	/* the memo's answer without sd_find_busiest_group's call */
	if (!sd_fbg_from_memo(sim, s, sd, this_cpu, idle, &imbalance, &group))
		group = sd_find_busiest_group(sim, s, sd, this_cpu, idle, &imbalance);

	if (!group)
		goto out_balanced;
	int busiest = sd_find_busiest_queue(sim, s, this_cpu, group);
	if (busiest < 0 || busiest == this_cpu)
		goto out_balanced;
	/* a lone running task cannot be pulled: that still counts as failing */
	if (sd_nr_running(s, busiest) > 1)
		nr_moved = sd_move_tasks(sim, s, this_cpu, busiest, imbalance, sd, idle);
	if (nr_moved) {
		sd->nr_balance_failed = 0;
		sd->balance_interval = sd->p.min_interval;
	} else if (s->v->rules == SD_RULES_W26) {
		sd_failed_w26(sim, s, sd, this_cpu, group);
	} else {
		sd_failed_2612(sim, s, sd, this_cpu, busiest);
	}
	return nr_moved;

out_balanced:
	sd_out_balanced(sd);
	return 0;
}

/* ---- newly idle ---- */

void sd_idle_balance(struct sl_sim *sim, struct sd_sched *s, int cpu)
{
	sd_for_each_domain(s, cpu, sd) {
		unsigned long imbalance = 0;
		if (!(sd->p.flags & SD_BALANCE_NEWIDLE))
			continue;
		struct sd_group *g = sd_find_busiest_group(sim, s, sd, cpu, SD_NEWLY_IDLE,
							   &imbalance);
		if (!g)
			continue;
		int busiest = sd_find_busiest_queue(sim, s, cpu, g);
		if (busiest < 0 || busiest == cpu)
			continue;
		if (sd_move_tasks(sim, s, cpu, busiest, imbalance, sd, SD_NEWLY_IDLE))
			break;	/* pulled: stop searching */
	}
}

/* ---- active balancing ---- */

/* 2.6.12: push one task at a time to CPUs whose whole package idles,
 * from the busiest CPU's own domains outwards.  The kernel visits every
 * CPU of each group; only idle ones can take a task, and none becomes
 * idle during the walk (tasks only leave `busiest`), so the walk visits
 * the idle CPUs alone: the same pushes, in the same order, without the
 * O(CPUs) walk per active balance that was most of a 1,024-CPU spin. */
static void sd_active_2612(struct sl_sim *sim, struct sd_sched *s, int busiest)
{
	sl_cpumask visited;
	const sl_cpumask *idle = sl_idle_cpus(sim);

	sl_cpumask_clear(&visited);
	sd_for_each_domain(s, busiest, sd) {
		if (!(sd->p.flags & SD_LOAD_BALANCE))
			break;
		for (int k = 0; k < sd->ngroups; k++) {
			sd_for_each_group_cpu_and(cpu, sd_group_at(sd, k), idle) {
				if (sd_nr_running(s, busiest) <= 1)
					return;	/* no more tasks to move */
				if (sl_cpumask_test(&visited, cpu))
					continue;
				sl_cpumask_set(&visited, cpu);
				if (cpu == busiest || !sd_cpu_and_siblings_idle(sim, s, cpu))
					continue;
				sd_move_tasks(sim, s, cpu, busiest, 1, sd, SD_IDLE);
			}
		}
	}
}

/* w26 (the early-2004 form): push one task to every wholly idle group of the
 * domain that spans push_cpu, to the group's last CPU. */
static void sd_active_w26(struct sl_sim *sim, struct sd_sched *s, int busiest)
{
	struct sd_rq *rq = sd_rq(s, busiest);
	struct sd_domain *sd = rq->sd;

	if (sd_nr_running(s, busiest) <= 1 || rq->push_cpu < 0)
		return;
	while (sd && !sl_cpumask_test(&sd->span, rq->push_cpu))
		sd = sd->parent;
	if (!sd)
		return;
	for (int k = 0; k < sd->ngroups; k++) {
		const struct sd_group *g = sd_group_at(sd, k);
		int target = -1;
		if (sl_cpumask_test(&g->cpumask, busiest))
			continue;
		sd_for_each_group_cpu(i, g) {
			if (!sl_cpu_idle(sim, i)) {
				target = -1;
				break;
			}
			target = i;
		}
		if (target >= 0)
			sd_move_tasks(sim, s, target, busiest, 1, sd, SD_IDLE);
	}
}

/* __migrate_task: exec balancing's move of the task it preempted, as a
 * set_cpus_allowed move (activate_task on the destination). */
static void sd_migrate_request(struct sl_sim *sim, struct sd_sched *s, int cpu)
{
	struct sd_rq *rq = sd_rq(s, cpu);
	struct sl_task *t = rq->migrate_task;

	rq->migrate_task = NULL;
	if (!t)
		return;
	struct sd_task *p = sd_of(t);
	int dest = rq->migrate_dest;
	if (t->state != SL_TASK_RUNNABLE || !p->array || p->cpu != cpu ||
	    sl_task_running(t) || !sl_cpumask_test(&t->allowed, dest))
		return;
	sd_migrate_task(sim, s, p, dest);
}

/*
 * The migration thread of `cpu` runs: the task it preempted is queued and
 * not running.  Active balancing first, then the migration requests (exec
 * balancing's, then set_cpus_allowed's, domains/attr.c), as 2.6.12's
 * migration_thread loop does.
 */
void sd_migration(struct sl_sim *sim, int cpu, long arg)
{
	struct sd_sched *s = sl_policy_data(sim);
	struct sd_rq *rq = sd_rq(s, cpu);

	(void)arg;
	/* the thread, counted in nr_running since its wakeup, runs
	 * (domains/load.c): until the schedule() at its end (sd_pick_next) */
	s->in_migration[cpu] = true;
	s->thread_woken[cpu] = false;
	sd_load_changed(s, cpu);
	if (rq->curr) {
		sd_put_prev(sim, s, rq->curr);	/* schedule() for the preemption */
		rq->curr = NULL;
	}
	if (rq->active_balance) {
		if (s->v->rules == SD_RULES_W26)
			sd_active_w26(sim, s, cpu);
		else
			sd_active_2612(sim, s, cpu);
		rq->active_balance = false;
	}
	sd_migrate_request(sim, s, cpu);
	sd_migrate_affinity(sim, s, cpu);
}
