/*
 * o1/sched.c - schedule() of the O(1) scheduler: prev's bookkeeping (its
 * last_run, 2.6.0's run-time charge, removal if it blocked), the newly-idle
 * balance and the HT scheduler's active balancing when the runqueue ran
 * empty, the array switch, the pick (first set bit, head of that list; on
 * a shared runqueue the HT pickup walk), 2.6.0's runqueue-wait credit; and
 * sched_yield.
 *
 * Sources: 2.6.0 kernel/sched.c schedule() (the first pick after a wakeup
 * credits the runqueue wait) and sys_sched_yield(); a 2.5.6x
 * kernel/sched.c schedule(); Ingo Molnar's A9 (LKML, 21 Apr 2003,
 * <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com>) and
 * F3 (LKML, 27 Aug 2002,
 * <Pine.LNX.4.44.0208270226190.12947-100000@localhost.localdomain>) for the
 * HT pickup and active balancing on going idle.  Docs: docs/policies/o1.md,
 * ht.md.
 *
 * Choices where the sources are uncertain:
 *   - The HT pickup skips tasks running on a sibling; prev, running
 *     on this CPU, may be kept.  A9 says so explicitly; for F3 the patch text
 *     is ambiguous, and the literal alternative would idle a CPU while its
 *     own task is queued.
 *   - sched_yield moves the yielder to the expired array (2.5.6x, 2.6.0)
 *     in every version by default; which 2.5 release made that change is
 *     UNVERIFIED.  yield=tail requeues it at the tail of its list in the
 *     active array instead (what RT tasks get).
 *
 * RT tasks: sched_yield puts them at the tail of their list in the active
 * array (2.6.0 sys_sched_yield's "special rule"), never in the expired one;
 * the runqueue-wait credit of the first pick is skipped for them, as
 * 2.6.11's schedule() does with !rt_task(next) (2.6.0's text is not at
 * hand: its requeue would move an RT task behind its equals; CHOSEN).
 *
 * Omitted / simplified:
 *   - sched_exit runs when the parent reaps the child (o1_core_release),
 *     as 2.6.11's release_task calls it.
 */
#include "policy/o1/core.h"
#include "policy/runqueue_credit.h"
#include "sim/sim.h"

void o1_put_prev(struct sl_sim *sim, struct o1 *s, struct sl_task *prev)
{
	struct o1_task *p = o1_of(prev);

	p->last_run = (int64_t)sl_jiffies(sim);
	if (s->cfg.v->interactivity == O1_SLEEP_NS)
		o1_charge_run_time(s, p, o1_sched_clock(sim, s));
	if (prev->state != SL_TASK_RUNNABLE && p->array)
		o1_deactivate(s, o1_rq(s, p->cpu), p);
}

/* May `cpu` take p in the HT pickup walk?  Not if p runs on a sibling. */
static bool o1_can_pickup(const struct o1_task *p, int cpu, const struct sl_task *prev)
{
	const struct sl_task *t = p->task;

	if (sl_task_running(t) && t != prev)
		return false;
	return sl_cpumask_test(&t->allowed, cpu);
}

/*
 * The highest-priority queued task; on a shared runqueue walk on past
 * tasks running on a sibling or not allowed here, and when the active
 * array is exhausted look once in the expired one without switching.
 */
static struct o1_task *o1_pick_from(struct o1_rq *rq, int cpu, const struct sl_task *prev)
{
	struct sl_prio_array *array = rq->active;
	struct sl_prio_node *n = sl_prio_array_first(array);
	struct o1_task *next = o1_of_node(n);

	if (rq->ncpus == 1 || next->task == prev)
		return next;
	for (bool retried = false;; retried = true) {
		for (; n; n = sl_prio_array_next(array, n))
			if (o1_can_pickup(o1_of_node(n), cpu, prev))
				return o1_of_node(n);
		if (retried || sl_prio_array_empty(rq->expired))
			return NULL;
		array = rq->expired;
		n = sl_prio_array_first(array);
	}
}

/* 2.6.0: the first pick after a wakeup credits the time spent waiting on
 * the runqueue (30% if woken by a task, all of it if by an interrupt;
 * runqueue_credit.h). */
static void o1_credit_runqueue_wait(struct sl_sim *sim, struct o1 *s, struct o1_task *next)
{
	if (next->activated > 0 && !sl_task_rt(next->task)) {
		sl_time delta = o1_sched_clock(sim, s) - next->timestamp;
		if (next->activated == 1)
			delta = sl_runqueue_credit(delta, s->cfg.v->on_runqueue_weight);
		struct sl_prio_array *array = next->array;
		o1_dequeue(next);
		o1_recalc_task_prio(s, next, next->timestamp + delta);
		o1_enqueue(array, next);
	}
	next->activated = 0;
}

static struct o1_task *o1_choose(struct sl_sim *sim, struct o1 *s, int cpu,
				 const struct sl_task *prev)
{
	struct o1_rq *rq = o1_rq(s, cpu);

	if (rq->nr_running == 0 && s->cfg.smp) {
		o1_newidle_balance(sim, s, cpu);
		if (rq->nr_running == 0)
			o1_active_load_balance(sim, s, rq, cpu);
	}
	if (rq->nr_running == 0) {
		rq->expired_timestamp = -1;
		return NULL;
	}
	if (sl_prio_array_empty(rq->active)) {
		struct sl_prio_array *array = rq->active;
		rq->active = rq->expired;
		rq->expired = array;
		rq->expired_timestamp = -1;
	}
	return o1_pick_from(rq, cpu, prev);
}

struct sl_task *o1_core_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	struct o1 *s = o1_state(sim);

	if (s->in_migration[cpu] && sl_cpu_idle(sim, cpu)) {
		/* the schedule() that ends the migration thread's run */
		s->in_migration[cpu] = false;
		s->rq_of[cpu]->nmig--;
		o1_full_update(s, s->rq_of[cpu]);
	}
	if (prev)
		o1_put_prev(sim, s, prev);
	if (!s->cfg.smp && cpu != 0)
		return NULL;
	sl_charge_sched(sim, cpu, s->cfg.pick_ns);

	struct o1_task *next = o1_choose(sim, s, cpu, prev);
	if (next && s->cfg.v->interactivity == O1_SLEEP_NS) {
		o1_credit_runqueue_wait(sim, s, next);
		/* 2.6.11 schedule(): next->timestamp = now, so the run
		 * charged at its switch-out starts here.  Whether 2.6.0 had
		 * the line is UNVERIFIED (switch_stamp=off: its run is
		 * charged from its wakeup or last switch-out, the wait on
		 * the runqueue included; o1.md) */
		if (s->cfg.switch_stamp)
			next->timestamp = o1_sched_clock(sim, s);
	}
	if (next)
		next->cpu = cpu;	/* a sibling may take it: set_task_cpu */
	s->curr[cpu] = next ? next->task : NULL;
	return s->curr[cpu];
}

/* sys_sched_yield: requeue, then schedule() follows at once. */
bool o1_core_yield(struct sl_sim *sim, struct sl_task *t)
{
	struct o1 *s = o1_state(sim);
	struct o1_task *p = o1_of(t);

	if (!p->array)
		return true;
	struct o1_rq *rq = o1_rq(s, p->cpu);
	o1_dequeue(p);
	/* RT tasks round-robin in the active array */
	bool expired = s->cfg.yield == O1_YIELD_EXPIRED && !sl_task_rt(t);
	o1_enqueue(expired ? rq->expired : rq->active, p);
	return true;
}
