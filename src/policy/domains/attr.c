/*
 * domains/attr.c - changing a live task under scheduler domains: its class
 * and RT priority (sched_setscheduler), its nice (set_user_nice) and its
 * allowed CPUs (set_cpus_allowed, carried out by the migration thread).
 *
 * Sources: 2.6.12.1 kernel/sched.c (set_user_nice, __setscheduler,
 * sched_setscheduler, set_cpus_allowed, migrate_task, __migrate_task,
 * migration_thread), include/linux/cpumask.h (any_online_cpu).
 *
 *   nice    an RT task only records it (static_prio: its RR slice); any
 *           other task is requeued at prio + the change in static_prio,
 *           and its CPU reschedules if the task rose, or fell while running.
 *   class   the task leaves its array and comes back at the tail of the
 *           active one at 99 - rt_priority (FIFO/RR) or at static_prio
 *           (SCHED_NORMAL: the sleep bonus is gone until it next sleeps or
 *           expires); a running task that fell reschedules its CPU, a
 *           queued one that now beats the running one preempts it.
 *   mask    a task still allowed where it is stays there.  Otherwise its
 *           destination is any_online_cpu(new_mask), the first CPU of the
 *           mask; a sleeping task is simply re-homed there
 *           (migrate_task's set_task_cpu), a running one is handed to the
 *           migration thread of its CPU, which preempts it, takes it off
 *           the runqueue and activates it on the destination
 *           (__migrate_task: activate_task, with the sleep credit of the
 *           time since its timestamp, as in the kernel), preempting there
 *           if it beats what runs.
 *
 * Choices:
 *   - A nice and a class change in one call are applied as renice, then
 *     chrt (the kernel has two system calls; the final state is the same).
 *   - set_user_nice takes the change from the dynamic prio (delta =
 *     new static_prio - prio), so the task lands on its new static prio,
 *     its bonus dropped until a sleep or an expiry recomputes it, as
 *     2.6.12.1 does (an earlier reading here added the nice change to prio
 *     and clamped it: docs/policies/domains.md).
 *   - A queued task that is not running is moved at once (the engine's
 *     contract, sim/policy_ops.h); 2.6.12 also went through the migration
 *     thread for it, which preempted that CPU for a few microseconds.
 *   - A second mask change before the migration thread ran replaces the
 *     first request (the kernel queued both; the first then found "affinity
 *     changed (again)" or moved the task to a CPU the mask still allows);
 *     one that allows the task's CPU again cancels it.
 *   - A task with a pending request that blocks and is woken before the
 *     migration thread ran is re-homed at the wakeup: the kernel's caller
 *     slept in wait_for_completion until the move was done, so nothing
 *     could wake it first.
 */
#include "policy/domains/domains.h"
#include "sim/sim.h"

#define SD_NICE0_PRIO 120

/* set_user_nice */
static void sd_set_nice(struct sl_sim *sim, struct sd_task *p, bool was_rt)
{
	int static_prio = SD_NICE0_PRIO + p->task->nice;
	struct sl_prio_array *array = p->array;

	if (was_rt) {
		p->static_prio = static_prio;	/* no effect until it is SCHED_NORMAL */
		return;
	}
	if (array)
		sd_dequeue(p);
	/* 2.6.12.1 literally: the delta is taken from the dynamic prio, so
	 * the task lands on its new static prio, its bonus dropped until
	 * its next sleep or expiry recomputes it */
	int delta = static_prio - p->prio;
	p->static_prio = static_prio;
	p->prio += delta;
	if (array) {
		sd_enqueue(array, p);
		/* it rose, or it runs and fell: let its CPU choose again */
		if (delta < 0 || (delta > 0 && sl_task_running(p->task)))
			sl_resched(sim, p->cpu);
	}
}

/* sched_setscheduler: deactivate, __setscheduler, __activate_task. */
static void sd_set_class(struct sl_sim *sim, struct sd_sched *s, struct sd_task *p)
{
	struct sd_rq *rq = sd_rq(s, p->cpu);
	struct sl_prio_array *array = p->array;
	int oldprio = p->prio;

	if (array) {
		sd_dequeue(p);
		sd_nr_add(s, rq->cpu, -1);
	}
	p->prio = sd_rt(p) ? sd_rt_prio(p->task) : p->static_prio;
	if (!array)
		return;
	sd_enqueue(rq->active, p);
	sd_nr_add(s, rq->cpu, 1);
	if (sl_task_running(p->task) ? p->prio > oldprio : sd_preempts(sim, p, p->cpu))
		sl_resched(sim, p->cpu);
}

void sd_setscheduler(struct sl_sim *sim, struct sl_task *t, const struct sl_sched_attr *old)
{
	struct sd_sched *s = sl_policy_data(sim);
	struct sd_task *p = sd_of(t);
	bool was_rt = old->sched_policy == SL_SCHED_FIFO || old->sched_policy == SL_SCHED_RR;

	if (old->nice != t->nice)
		sd_set_nice(sim, p, was_rt);
	if (old->sched_policy != t->sched_policy || old->rt_priority != t->rt_priority)
		sd_set_class(sim, s, p);
}

/* ---- set_cpus_allowed ---- */

void sd_cancel_affinity(struct sd_sched *s, struct sd_task *p)
{
	if (p->move_rq < 0)
		return;
	for (struct sd_task **pp = &sd_rq(s, p->move_rq)->moves; *pp; pp = &(*pp)->move_next) {
		if (*pp == p) {
			*pp = p->move_next;
			break;
		}
	}
	p->move_rq = -1;
	p->move_next = NULL;
}

/* __migrate_task's move of p (not running) to dest: a queued task is
 * deactivated and activated there, with activate_task's sleep credit and
 * runqueue-wait mark (2.6.12.1 kernel/sched.c __migrate_task; 2.6.0's
 * move_task_away did the same).  Exec balancing's moves come here too. */
void sd_migrate_task(struct sl_sim *sim, struct sd_sched *s, struct sd_task *p, int dest)
{
	sl_note_migration(sim, p->task, p->cpu, dest);
	if (!p->array) {
		p->cpu = dest;	/* asleep: it wakes there */
		return;
	}
	sd_dequeue(p);
	sd_nr_add(s, p->cpu, -1);
	p->cpu = dest;
	sd_activate(sim, s, dest, p, true, false);
	if (sd_preempts(sim, p, dest))
		sl_resched(sim, dest);
}

void sd_set_allowed(struct sl_sim *sim, struct sl_task *t)
{
	struct sd_sched *s = sl_policy_data(sim);
	struct sd_task *p = sd_of(t);

	sd_cancel_affinity(s, p);
	if (sl_cpumask_test(&t->allowed, p->cpu))
		return;		/* it may stay where it is */
	int dest = sl_cpumask_first(&t->allowed);	/* any_online_cpu(new_mask) */
	if (!sl_task_running(t)) {
		sd_migrate_task(sim, s, p, dest);
		return;
	}
	/* running: migrate_task queues a request (list_add: at the head) and
	 * the caller wakes the migration thread of the task's CPU */
	struct sd_rq *rq = sd_rq(s, p->cpu);
	p->move_dest = dest;
	p->move_rq = p->cpu;
	p->move_next = rq->moves;
	rq->moves = p;
	sd_wake_migration(sim, s, p->cpu, dest);
}

void sd_migrate_affinity(struct sl_sim *sim, struct sd_sched *s, int cpu)
{
	struct sd_rq *rq = sd_rq(s, cpu);

	while (rq->moves) {
		struct sd_task *p = rq->moves;
		rq->moves = p->move_next;
		p->move_next = NULL;
		p->move_rq = -1;
		/* already moved (a balance pulled it), or the mask changed */
		if (p->cpu != cpu || !sl_cpumask_test(&p->task->allowed, p->move_dest))
			continue;
		sd_migrate_task(sim, s, p, p->move_dest);
	}
}

void sd_settle_affinity(struct sl_sim *sim, struct sd_sched *s, struct sd_task *p)
{
	if (p->move_rq < 0)
		return;
	int dest = p->move_dest;
	sd_cancel_affinity(s, p);
	if (p->cpu != dest && sl_cpumask_test(&p->task->allowed, dest))
		sd_migrate_task(sim, s, p, dest);
}
