/*
 * o1/attr.c - changing a live task under the O(1) scheduler: its class and
 * RT priority (sched_setscheduler), its nice (set_user_nice) and its
 * allowed CPUs (set_cpus_allowed, carried out by the migration thread).
 *
 * Sources: 2.6.11 kernel/sched.c sched_setscheduler() and __setscheduler()
 * (a queued task is deactivated, given prio MAX_USER_RT_PRIO-1 -
 * rt_priority, or static_prio for SCHED_NORMAL, and activated at the tail
 * of its list in the active array; its CPU reschedules if it runs there
 * and its priority fell, or if it is queued and now beats that CPU's
 * task), set_user_nice() (an RT task only gets the new static_prio; any
 * other is requeued in its array with prio += new static prio - old
 * dynamic prio, and its CPU reschedules if the priority rose, or fell
 * while it runs), set_cpus_allowed(), migrate_task() and
 * __migrate_task() (a task whose CPU is still allowed stays; a sleeping
 * one just gets any_online_cpu(new_mask) as its CPU; a queued or running
 * one is handed to the migration thread of its CPU, which moves it to
 * that CPU, preempting there if it has a better priority); 2.6.0's
 * set_cpus_allowed() and move_task_away() do the same (quoted in
 * o1/numa.c's sources).  Docs: docs/policies/o1.md, "Real-time classes and
 * live changes".
 *
 * Choices where the sources are uncertain:
 *   - The 2.5.x rows (2.5.33 .. 2.5.68) and the HT patches use the 2.6
 *     forms above: no 2.5 sched.c is at hand, and nothing in the HT
 *     patches' texts quoted by the ht sources touches them.  UNVERIFIED.
 *   - The engine calls one op for a class change and a nice change made
 *     together: the class part (sched_setscheduler) runs when the policy
 *     or RT priority changed, then the nice part (set_user_nice) when the
 *     nice changed; a renice alone does not requeue as sched_setscheduler
 *     would.
 *   - On a runqueue shared by SMT siblings (ht) "the runqueue's current"
 *     is the CPU in task_cpu(p); a queued task that now beats it goes
 *     through wake_up_cpu, as a pulled task does.
 *   - The migration thread finds the destination from the mask when it
 *     runs (2.6.0; 2.6.11 took it at the call and checked it was still
 *     allowed: the same unless the mask changed twice).  If a sibling of
 *     a shared runqueue took the task meanwhile, the request goes to that
 *     CPU's thread.
 *
 * Omitted / simplified:
 *   - The caller of set_cpus_allowed on itself sleeps on the completion in
 *     the kernel; here it runs on until its CPU's migration thread (an
 *     IPI's latency later) preempts it.  The invariant check allows a
 *     task outside its mask only while that thread is pending.
 *   - A UP build has no set_cpus_allowed: every task stays on CPU 0 (a
 *     mask without CPU 0 is refused before the run).
 */
#include "policy/o1/core.h"
#include "sim/sim.h"

int o1_first_allowed(const struct o1 *s, const struct o1_task *p)
{
	int cpu = sl_cpumask_first(&p->task->allowed);

	return cpu >= 0 && cpu < s->ncpus ? cpu : p->cpu;
}

/* ---- sched_setscheduler ---- */

static void o1_setscheduler_class(struct sl_sim *sim, struct o1 *s, struct o1_task *p)
{
	struct sl_task *t = p->task;
	int oldprio = p->prio;

	/* __setscheduler: RT by rt_priority, SCHED_NORMAL its static prio
	 * (the sleep bonus comes back at the next effective_prio) */
	int prio = sl_task_rt(t) ? o1_effective_prio(s, p) : p->static_prio;
	if (!p->array) {
		p->prio = prio;
		return;
	}
	struct o1_rq *rq = o1_rq(s, p->cpu);
	o1_deactivate(s, rq, p);
	p->prio = prio;
	o1_activate_quiet(s, rq, p);
	if (sl_task_running(t)) {
		if (p->prio > oldprio)
			sl_resched(sim, t->cpu);
	} else {
		o1_kick_moved(sim, s, p, p->cpu, false);
	}
}

/* ---- set_user_nice ---- */

static void o1_set_user_nice(struct sl_sim *sim, struct o1_task *p)
{
	struct sl_task *t = p->task;
	int new_static = O1_NICE0_PRIO + t->nice;

	if (sl_task_rt(t)) {
		p->static_prio = new_static;
		return;
	}
	struct sl_prio_array *array = p->array;
	if (array)
		o1_dequeue(p);
	/* literally 2.6.11: the delta is taken from the dynamic prio, so
	 * the task lands on its new static prio, bonus dropped */
	int delta = new_static - p->prio;
	p->static_prio = new_static;
	p->prio += delta;
	if (!array)
		return;
	o1_enqueue(array, p);
	if (delta < 0 || (delta > 0 && sl_task_running(t)))
		sl_resched(sim, sl_task_running(t) ? t->cpu : p->cpu);
}

void o1_core_setscheduler(struct sl_sim *sim, struct sl_task *t,
			  const struct sl_sched_attr *old)
{
	struct o1 *s = o1_state(sim);
	struct o1_task *p = o1_of(t);

	if (old->sched_policy != t->sched_policy || old->rt_priority != t->rt_priority)
		o1_setscheduler_class(sim, s, p);
	if (old->nice != t->nice)
		o1_set_user_nice(sim, p);
}

/* ---- set_cpus_allowed ---- */

static void o1_affinity_request(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int cpu)
{
	if (p->affinity_cpu >= 0)
		return;		/* its thread will look at the mask it then has */
	p->affinity_cpu = cpu;
	s->affinity_req[cpu]++;
	sl_migration_wake(sim, cpu, -1);
}

void o1_core_set_allowed(struct sl_sim *sim, struct sl_task *t)
{
	struct o1 *s = o1_state(sim);
	struct o1_task *p = o1_of(t);

	if (!s->cfg.smp || sl_cpumask_test(&t->allowed, p->cpu))
		return;
	if (!p->array && !sl_task_running(t)) {
		p->cpu = o1_first_allowed(s, p);	/* asleep: it wakes there */
		return;
	}
	o1_affinity_request(sim, s, p, p->cpu);
}

void o1_affinity_forget(struct o1 *s, struct o1_task *p)
{
	if (p->affinity_cpu < 0)
		return;
	s->affinity_req[p->affinity_cpu]--;
	p->affinity_cpu = -1;
}

/* __migrate_task for one task the thread of `cpu` was handed. */
static void o1_affinity_move(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int cpu)
{
	struct sl_task *t = p->task;

	if (sl_cpumask_test(&t->allowed, p->cpu))
		return;		/* its mask changed back, or it moved */
	if (sl_task_running(t) && t->cpu != cpu) {
		o1_affinity_request(sim, s, p, t->cpu);	/* a sibling took it */
		return;
	}
	int dest = o1_first_allowed(s, p);
	if (!p->array) {
		p->cpu = dest;		/* it slept meanwhile: it wakes there */
		return;
	}
	o1_migrate_task(sim, s, p, dest);
	o1_kick_moved(sim, s, p, dest, false);
}

void o1_affinity_moves(struct sl_sim *sim, struct o1 *s, int cpu)
{
	if (!s->affinity_req[cpu])
		return;
	for (struct sl_task *t = sl_task_first(sim); t && s->affinity_req[cpu];
	     t = sl_task_next(t)) {
		struct o1_task *p = o1_of(t);
		if (p->affinity_cpu != cpu || t->state == SL_TASK_DEAD)
			continue;
		o1_affinity_forget(s, p);
		o1_affinity_move(sim, s, p, cpu);
	}
}
