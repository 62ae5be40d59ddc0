/*
 * sl/rt.c - policy `sl`: real-time tasks between CPUs, and live changes of
 * a task's class, nice and mask.
 *
 * sl's rule for SCHED_FIFO/RR (docs/policies/sl.md, "Real-time classes and
 * live changes"): on each CPU, strict priority above every SCHED_NORMAL
 * task with Linux's FIFO/RR semantics (sl/queue.c); across CPUs, an RT task
 * should never wait while an allowed CPU runs something less important.
 * Three moments keep it so:
 *
 *   placement  a woken or forked RT task goes where it runs soonest
 *              (sl/place.c, sls_select_rt);
 *   push       an RT task that stops running while still runnable (a better
 *              one preempted it) or becomes RT while queued moves to a CPU
 *              where it runs at once, if there is one;
 *   pull       a CPU about to pick takes the best RT task that waits on
 *              another CPU behind a running RT task at least as important,
 *              if it beats everything this CPU has queued.  A task queued
 *              where it is about to preempt is left alone (the CPU's
 *              reschedule is on its way).
 *
 * The periodic, newly-idle and NUMA balancers (sl/balance.c) move only
 * SCHED_NORMAL tasks; they count RT tasks as load, so normal tasks leave a
 * CPU an RT task holds.
 *
 * Live changes:
 *   nice   the weight changes at once (vruntime advances by it from now on).
 *   class  a queued task is requeued in the other structure (a task leaving
 *          RT starts at no less than its queue's min_vruntime: its vruntime
 *          stood still while it was RT), then preempts or is pushed as
 *          above; a running task stays, and its CPU reschedules if it fell.
 *   mask   a task allowed where it is stays; a sleeping one is placed
 *          within its mask when it wakes; a queued one moves at once; a
 *          running one is moved by its CPU's migration thread
 *          (sls_request_move), replacing whatever move that thread had
 *          pending.
 *
 * Sources: Linux 2.6.25+ kernel/sched_rt.c (push_rt_task after a
 * preemption, pull_rt_task before a pick, skipping a task about to preempt
 * its own CPU; cpupri's "lowest priority CPU" search); 2.6.12.1
 * kernel/sched.c (sched_setscheduler, set_user_nice, set_cpus_allowed:
 * the migration thread moves a running task).
 *
 * Cost: every CPU and task examined is charged as a scan item.
 */
#include "policy/sl/sl.h"

/* A queued task of src that waits behind a running RT task at least as
 * important and may run on cpu: the first in priority order, or NULL. */
static struct sls_ent *sls_waiting_rt(struct sls *s, int src, int cpu, long *looked)
{
	struct sls_rq *rq = &s->rq[src];
	const struct sls_ent *c = rq->curr;

	if (!rq->rt->nr_active || !c || !c->rt)
		return NULL;
	for (struct sl_prio_node *n = sl_prio_array_first(rq->rt); n;
	     n = sl_prio_array_next(rq->rt, n)) {
		struct sls_ent *e = (struct sls_ent *)n;
		(*looked)++;
		if (sls_rt_prio(e) < sls_rt_prio(c))
			return NULL;	/* about to preempt there */
		if (sl_cpumask_test(&e->task->allowed, cpu) && e != rq->mig_ent)
			return e;
	}
	return NULL;
}

void sls_pull_rt(struct sls *s, int cpu)
{
	struct sls_rq *rq = &s->rq[cpu];
	int mine = sl_prio_array_next_prio(rq->rt, 0);
	struct sls_ent *best = NULL;
	long looked = 0;

	for (int src = 0; src < s->ncpus; src++) {
		looked++;
		if (src == cpu)
			continue;
		struct sls_ent *e = sls_waiting_rt(s, src, cpu, &looked);
		if (e && sls_rt_prio(e) < mine && (!best || sls_rt_prio(e) < sls_rt_prio(best)))
			best = e;
	}
	if (best)
		sls_move_queued(s, best, cpu);
	sl_charge_sched(s->sim, cpu, looked * s->scan_ns);
}

void sls_push_rt(struct sls *s, struct sls_ent *e)
{
	if (!e->rt_queued)
		return;
	int dest = sls_select_rt(s, e, e->cpu, e->cpu);
	if (dest < 0 || dest == e->cpu || sls_top(s, dest, e) <= sls_rt_prio(e))
		return;
	sls_move_queued(s, e, dest);
	sls_check_preempt(s, &s->rq[dest], e, false);
}

/* ---- live changes ---- */

/* What a task's class and priority rank it at: an RT prio, or below them all. */
static int sls_rank(int policy, int rt_priority)
{
	bool rt = policy == SL_SCHED_FIFO || policy == SL_SCHED_RR;

	return rt ? SL_MAX_RT_PRIO - 1 - rt_priority : SL_MAX_RT_PRIO;
}

void sls_setscheduler(struct sl_sim *sim, struct sl_task *t, const struct sl_sched_attr *old)
{
	struct sls *s = sls_state(sim);
	struct sls_ent *e = sls_ent(t);
	struct sls_rq *rq = e->cpu >= 0 ? &s->rq[e->cpu] : NULL;

	if (rq)
		sls_update_curr(s, rq);	/* the time so far at the old weight */
	if (e->nice != t->nice) {
		e->nice = t->nice;
		e->weight = sls_nice_weight(t->nice);
	}
	bool rt = sl_task_rt(t);
	int was = sls_rank(old->sched_policy, old->rt_priority);
	int now = sls_rank(t->sched_policy, t->rt_priority);
	if (rt == e->rt && was == now && old->sched_policy == t->sched_policy)
		return;
	if (!e->on_rq || !rq) {
		e->rt = rt;	/* asleep: its wakeup places it */
		return;
	}
	if (rq->curr == e) {
		e->rt = rt;
		e->rr_start = e->sum_exec;
		if (!rt && e->vruntime < rq->min_vruntime)
			e->vruntime = rq->min_vruntime;
		if (now > was)
			sl_resched(sim, rq->cpu);	/* it fell: choose again */
		return;
	}
	sls_dequeue(s, rq, e);
	e->rt = rt;
	e->rr_start = e->sum_exec;
	if (!rt && e->vruntime < rq->min_vruntime)
		e->vruntime = rq->min_vruntime;
	sls_enqueue(s, rq, e);
	sls_check_preempt(s, rq, e, false);
	if (rt && sls_top(s, rq->cpu, e) <= sls_rt_prio(e))
		sls_push_rt(s, e);
}

void sls_set_allowed(struct sl_sim *sim, struct sl_task *t)
{
	struct sls *s = sls_state(sim);
	struct sls_ent *e = sls_ent(t);

	if (e->cpu < 0 || !e->on_rq || sl_cpumask_test(&t->allowed, e->cpu))
		return;		/* allowed where it is, or asleep: placed at wakeup */
	int dest = sls_select_allowed(s, t);
	if (sls_queued(e)) {
		sls_move_queued(s, e, dest);
		sls_check_preempt(s, &s->rq[dest], e, false);
		return;
	}
	/* running: its CPU's migration thread moves it; a move that thread
	 * had pending (exec spreading, active balancing) is dropped */
	sls_cancel_move(s, e->cpu);
	sls_request_move(s, e, dest);
}
