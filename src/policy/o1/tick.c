/*
 * o1/tick.c - scheduler_tick of the O(1) scheduler: the running task's
 * slice counts down, an expired task goes to the expired array (or back to
 * the active one if interactive and nobody starves), 2.6.0's interactive
 * round-robin every TIMESLICE_GRANULARITY; then rebalance_tick; and, on a
 * runqueue shared by SMT siblings, what an idle sibling does at its tick.
 *
 * Sources: 2.6.0 kernel/sched.c scheduler_tick (TIMESLICE_GRANULARITY;
 * expired_timestamp set at any expiry); a 2.5.6x kernel/sched.c, the "-"
 * side of Ingo Molnar's sched-2.5.68-A9, LKML
 * <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com>
 * (sleep_avg -1 per running tick; expired_timestamp set only when a task
 * goes to the expired array, as from 2.5.31); the pickup and active
 * balancing of a shared runqueue from A9 and F3 (Ingo, LKML, 27 Aug 2002,
 * <Pine.LNX.4.44.0208270226190.12947-100000@localhost.localdomain>).
 * Docs: docs/policies/o1.md, ht.md.
 *
 * Choices where the sources are uncertain:
 *   - Idle siblings at their tick (ht knobs idle_pickup, idle_active).
 *     In every version the idle loop calls schedule() only when
 *     need_resched is set, and fork does not call wake_up_cpu, so nothing
 *     makes an idle sibling take a task queued on its shared runqueue (a
 *     forked child, a quietly woken task, a task left at an expiry) until
 *     something reschedules it.  idle_pickup=tick, in which the idle
 *     sibling takes such a task at its next tick, is therefore a what-if
 *     from no source, off by default.  Active balancing runs when a CPU
 *     goes idle in schedule(); on a real machine idle CPUs also re-enter
 *     schedule() whenever a kernel thread or a wakeup ran there, which the
 *     simulator lacks, so a wholly idle core asks again every idle_active
 *     ms (default every tick; 0 = only on going idle).  INFERRED.
 *
 * RT tasks (2.6.0 and 2.6.11 scheduler_tick, the rt_task branch): a FIFO
 * task's tick does nothing; an RR task whose slice runs out gets
 * task_timeslice again and goes to the tail of its list in the active
 * array, with need_resched; neither ever reaches the expired array.  The
 * 2.5.x jiffies sleep_avg is decremented before that branch, as in the
 * 2.5.6x scheduler_tick.
 *
 * Omitted / simplified:
 *   - The tick processed at fork when the parent's slice halves to 0 does
 *     the slice expiry only, not the rebalance_tick at its end.
 */
#include "policy/o1/core.h"
#include "policy/timeslice_rr.h"
#include "sim/sim.h"

/* The slice ran out: back to the expired array, or to the tail of the
 * active one if interactive and nobody is starving. */
static void o1_expire(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq, struct o1_task *p)
{
	uint64_t now_j = sl_jiffies(sim);

	o1_dequeue(p);
	p->prio = o1_effective_prio(s, p);
	p->time_slice = o1_task_timeslice(s, p);
	p->first_time_slice = false;
	/* 2.6.0 starts the starvation clock at any expiry; 2.5.x only when a
	 * task really goes to the expired array */
	if (s->cfg.v->expired_ts_always && rq->expired_timestamp < 0)
		rq->expired_timestamp = (int64_t)now_j;
	if (!o1_task_interactive(s, p) || o1_expired_starving(s, rq, now_j)) {
		if (rq->expired_timestamp < 0)
			rq->expired_timestamp = (int64_t)now_j;
		o1_enqueue(rq->expired, p);
	} else {
		o1_enqueue(rq->active, p);
	}
}

static void o1_round_robin(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq,
			   struct o1_task *p, int cpu)
{
	if (!o1_task_interactive(s, p))
		return;
	int slice = o1_task_timeslice(s, p);
	if (!sl_timeslice_rr_may_be_due(slice, p->time_slice, o1_granularity_base(s)) ||
	    !sl_timeslice_rr_due(slice, p->time_slice, o1_granularity(s, p)))
		return;
	o1_dequeue(p);
	sl_resched(sim, cpu);
	p->prio = o1_effective_prio(s, p);
	o1_enqueue(rq->active, p);
}

/* RT tasks never go to the expired array: FIFO has no timeslice, RR gets
 * a new one and goes to the tail of its list in the active array. */
static void o1_rt_tick(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq, struct o1_task *p,
		       int cpu)
{
	if (p->task->sched_policy != SL_SCHED_RR || --p->time_slice > 0)
		return;
	p->time_slice = o1_task_timeslice(s, p);
	p->first_time_slice = false;
	sl_resched(sim, cpu);
	o1_dequeue(p);
	o1_enqueue(rq->active, p);
}

void o1_task_tick(struct sl_sim *sim, struct o1 *s, int cpu, struct o1_task *p)
{
	struct o1_rq *rq = o1_rq(s, cpu);

	/* it expired already but has not been switched out yet */
	if (p->array != rq->active) {
		sl_resched(sim, cpu);
		return;
	}
	if (s->cfg.v->interactivity == O1_SLEEP_JIFFIES && p->sleep_avg > 0)
		p->sleep_avg--;
	if (sl_task_rt(p->task)) {
		o1_rt_tick(sim, s, rq, p, cpu);
		return;
	}
	if (--p->time_slice <= 0) {
		sl_resched(sim, cpu);
		o1_expire(sim, s, rq, p);
	} else if (s->cfg.v->interactivity == O1_SLEEP_NS) {
		o1_round_robin(sim, s, rq, p, cpu);
	}
}

/* Tasks of the runqueue that are queued but not running anywhere. */
static int o1_rq_waiting(struct sl_sim *sim, const struct o1_rq *rq)
{
	int running = 0;

	sl_for_each_cpu(c, &rq->cpus)
		running += sl_curr(sim, c) != NULL;
	return rq->nr_running - running;
}

/*
 * An idle CPU of a shared runqueue at its tick (knobs idle_pickup and
 * idle_active, see the header): ask for active balancing when the whole
 * core is idle, or (the what-if idle_pickup=tick) take a task of its core
 * that waits while the CPU idles.
 */
static void o1_idle_sibling_tick(struct sl_sim *sim, struct o1 *s, int cpu)
{
	struct o1_rq *rq = o1_rq(s, cpu);

	if (s->cfg.idle_pickup_tick && o1_rq_waiting(sim, rq) > 0)
		sl_resched(sim, cpu);
	else if (s->idle_active_ticks && rq->nr_running == 0 &&
		 sl_jiffies(sim) % (uint64_t)s->idle_active_ticks == 0)
		o1_active_load_balance(sim, s, rq, cpu);
}

/* An idle CPU of a shared runqueue: its balance, then its sibling part. */
static __attribute__((noinline)) void o1_idle_shared_tick(struct sl_sim *sim, struct o1 *s,
							  int cpu)
{
	o1_rebalance_tick(sim, s, cpu, true);
	o1_idle_sibling_tick(sim, s, cpu);
}

/* A CPU running a task: its slice, then its balance. */
static __attribute__((noinline)) void o1_busy_tick(struct sl_sim *sim, struct o1 *s, int cpu,
						   struct sl_task *t)
{
	o1_task_tick(sim, s, cpu, o1_of(t));
	o1_rebalance_tick(sim, s, cpu, false);
}

void o1_core_tick(struct sl_sim *sim, int cpu)
{
	struct o1 *s = o1_state(sim);

	if (!s->cfg.smp && cpu != 0)
		return;
	/* each way out a tail call: an idle CPU's tick, most ticks of a big
	 * machine, needs no frame here */
	struct sl_task *t = sl_curr(sim, cpu);
	if (t) {
		o1_busy_tick(sim, s, cpu, t);
		return;
	}
	bool idle = sl_cpu_idle(sim, cpu);	/* else: the migration thread */
	if (idle && o1_rq(s, cpu)->ncpus > 1)
		o1_idle_shared_tick(sim, s, cpu);
	else
		o1_rebalance_tick(sim, s, cpu, idle);
}
