/*
 * cfs/attr.c - live changes to a task under policy `cfs`: its class
 * (fair <-> RT, NORMAL / BATCH / IDLE), RT priority and nice
 * (sched_setscheduler, setpriority), and its allowed CPUs
 * (sched_setaffinity).
 *
 * Sources: Linux 6.12 kernel/sched/syscalls.c (__sched_setscheduler:
 * dequeue with DEQUEUE_SAVE, put_prev, new class and priority, enqueue -
 * at the head of its list if an RT priority was lowered - set_next,
 * check_class_changed; set_user_nice), core.c (set_load_weight ->
 * reweight_task, __set_cpus_allowed_ptr_locked: the destination is
 * cpumask_any_and_distribute(new mask), affine_move_task: a running task
 * is moved by the stopper, migration_cpu_stop, a queued one at once by
 * move_queued_task, a sleeping one where its wakeup's select_task_rq
 * puts it), fair.c (reweight_entity, prio_changed_fair,
 * switched_from_fair / switched_to_fair: detach / attach_task_cfs_rq),
 * rt.c (prio_changed_rt, switched_from_rt, switched_to_rt).
 *
 * Simplified: a fair task asleep but still queued by DELAY_DEQUEUE
 * finishes its delayed dequeue before it changes class or weight (the
 * wakeup path does the same for a nice changed while it slept).
 */
#include "policy/cfs/cfs.h"
#include "sim/sim.h"

/* finish_delayed_dequeue_entity(): off the queue before the change. */
static void cfs_attr_undelay(struct cfs *s, struct cfs_entity *se)
{
	if (se->delayed)
		cfs_dequeue(s, &s->rq[se->cpu], se, CFS_DEQ_SLEEP | CFS_DEQ_DELAYED);
}

static void cfs_attr_rt_params(struct cfs *s, struct cfs_entity *se)
{
	const struct sl_task *t = se->task;

	se->policy = t->sched_policy;
	se->rt_prio = SL_RT_PRIO_MAX - t->rt_priority;
	if (!se->rt)
		se->rt_slice = s->rr_ticks;
	se->rt = true;
}

/* fair -> fair: the policy (NORMAL, BATCH, IDLE) or nice changed. */
static void cfs_attr_fair(struct cfs *s, struct cfs_entity *se)
{
	struct sl_task *t = se->task;
	struct cfs_rq *rq = &s->rq[se->cpu];
	long old = se->weight;

	cfs_attr_undelay(s, se);
	se->policy = t->sched_policy;
	se->nice = t->nice;
	cfs_reweight(s, se, cfs_task_weight(t));
	/* prio_changed_fair() */
	if (!se->on_rq || rq->nr_running == 1)
		return;
	if (rq->curr == se) {
		if (se->weight < old)
			sl_resched(s->sim, rq->cpu);
	} else {
		cfs_check_preempt(s, rq, se);
	}
}

/* RT -> RT: a new priority (or FIFO <-> RR). */
static void cfs_attr_rt(struct cfs *s, struct cfs_entity *se)
{
	int cpu = se->cpu, old = se->rt_prio;
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;

	if (se->rt_queued) {
		cfs_rt_dequeue(s, se);
		cfs_attr_rt_params(s, se);
		cfs_rt_enqueue(s, se, se->rt_prio > old);
	} else {
		cfs_attr_rt_params(s, se);
	}
	if (!se->rt_queued)
		return;
	/* prio_changed_rt() */
	if (rt->curr == se) {
		if (se->rt_prio > old)
			cfs_rt_pull(s, cpu);
		if (cfs_rt_first(s, cpu)->rt_prio < se->rt_prio)
			sl_resched(s->sim, cpu);
	} else {
		cfs_rt_check_preempt(s, se);
	}
}

/* fair -> RT: switched_from_fair (detach) then switched_to_rt. */
static void cfs_attr_to_rt(struct cfs *s, struct cfs_entity *se)
{
	struct sl_task *t = se->task;
	int cpu = se->cpu;
	struct cfs_rq *rq = &s->rq[cpu];
	bool running = rq->curr == se;

	cfs_attr_undelay(s, se);
	if (se->on_rq) {
		cfs_dequeue(s, rq, se, CFS_DEQ_MIGRATE);
	} else {
		cfs_pelt_se(s, se);
		cfs_pelt_rq(s, rq);
		cfs_gsum_touch(s, rq);
		cfs_pelt_detach(rq, se);
		if (s->pick == CFS_PICK_CFS)
			se->vruntime -= rq->min_vruntime;
	}
	cfs_attr_rt_params(s, se);
	if (t->state != SL_TASK_RUNNABLE)
		return;
	cfs_rt_enqueue(s, se, false);
	if (running) {
		cfs_pelt_rt(s, cpu, false);	/* switched_to_rt(): RT from now */
		rq->rt.curr = se;
		cfs_rtbw_account(s, cpu, CFS_ACCT_RT);
		return;
	}
	cfs_rt_check_preempt(s, se);
	if (rq->rt.nr_running > 1)
		cfs_rt_push(s, cpu);
}

/* RT -> fair: switched_from_rt (pull if the CPU has no RT left) then
 * switched_to_fair (attach; a running task is rescheduled, a queued one
 * may preempt). */
static void cfs_attr_to_fair(struct cfs *s, struct cfs_entity *se)
{
	struct sl_task *t = se->task;
	int cpu = se->cpu;
	struct cfs_rq *rq = &s->rq[cpu];
	bool running = rq->rt.curr == se;

	if (se->rt_queued)
		cfs_rt_dequeue(s, se);
	if (running) {
		cfs_pelt_rt(s, cpu, true);	/* put_prev_task_rt(): RT until now */
		rq->rt.curr = NULL;
	}
	se->rt = false;
	se->policy = t->sched_policy;
	se->nice = t->nice;
	se->weight = cfs_task_weight(t);
	if (t->state == SL_TASK_RUNNABLE) {
		cfs_enqueue(s, rq, se, CFS_ENQ_ATTACH);
		if (running) {
			cfs_set_next(s, rq, se, false);
			cfs_rtbw_account(s, cpu, CFS_ACCT_FAIR);
		}
	} else {
		cfs_pelt_se(s, se);
		cfs_pelt_rq(s, rq);
		cfs_gsum_touch(s, rq);
		cfs_pelt_attach(rq, se);
		if (s->pick == CFS_PICK_CFS)
			se->vruntime += rq->min_vruntime;
	}
	if (!rq->rt.nr_running)
		cfs_rt_pull(s, cpu);
	if (t->state != SL_TASK_RUNNABLE)
		return;
	if (running)
		sl_resched(s->sim, cpu);
	else
		cfs_check_preempt(s, rq, se);
}

void cfs_setscheduler(struct sl_sim *sim, struct sl_task *t, const struct sl_sched_attr *old)
{
	struct cfs *s = cfs_state(sim);
	struct cfs_entity *se = cfs_se(t);
	bool to_rt = sl_task_rt(t);

	(void)old;
	if (se->rt && to_rt)
		cfs_attr_rt(s, se);
	else if (to_rt)
		cfs_attr_to_rt(s, se);
	else if (se->rt)
		cfs_attr_to_fair(s, se);
	else
		cfs_attr_fair(s, se);
}

/* Move a queued, not running task of this_cpu's choosing off a CPU its
 * mask forbids (move_queued_task). */
static void cfs_attr_move(struct cfs *s, struct cfs_entity *se, int this_cpu)
{
	int dest = cfs_any_and_distribute(s, this_cpu, &se->task->allowed, NULL);

	if (se->rt)
		cfs_rt_move_task(s, se, dest);
	else
		cfs_move_queued(s, se, dest);
}

/*
 * __set_cpus_allowed_ptr(): nothing to do if t's CPU is still allowed,
 * or t sleeps (its wakeup chooses among the allowed CPUs); a queued task
 * is moved at once, a running one by its CPU's stopper, here the
 * schedule() its resched causes (cfs_attr_fix_cpu from pick_next).
 */
void cfs_set_allowed(struct sl_sim *sim, struct sl_task *t)
{
	struct cfs *s = cfs_state(sim);
	struct cfs_entity *se = cfs_se(t);
	int cpu = se->cpu;

	if (t->state != SL_TASK_RUNNABLE || sl_cpumask_test(&t->allowed, cpu))
		return;
	if (t->cpu >= 0) {
		/* the task changed its own mask (sched_setaffinity on itself):
		 * stop_one_cpu() on its own CPU preempts it at once, no IPI;
		 * schedule() then does the stopper's move (cfs_attr_fix_cpu) */
		s->rq[cpu].fix_pending = true;
		sl_resched(sim, cpu);
	} else {
		cfs_attr_move(s, se, cpu);
	}
}

/* migration_cpu_stop(): the stopper of cpu moves the tasks queued there
 * that their mask no longer allows (the one it preempted, or one
 * preempted meanwhile).  Called by schedule() with the preempted task
 * put back, and by the migration thread. */
void cfs_attr_fix_cpu(struct cfs *s, int cpu)
{
	struct cfs_rq *rq = &s->rq[cpu];

	if (!rq->fix_pending)
		return;
	rq->fix_pending = false;
	for (struct cfs_entity *se = cfs_lru_entry(rq->cfs_tasks.head), *next; se; se = next) {
		next = cfs_lru_entry(se->lru.next);
		if (!sl_cpumask_test(&se->task->allowed, cpu) && !se->delayed)
			cfs_attr_move(s, se, cpu);
	}
	for (int n = rq->rt.nr_running; n > 0; n--) {
		struct cfs_entity *bad = NULL;
		for (int p = 0; p < CFS_RT_PRIOS && !bad; p++)
			for (struct cfs_entity *se = cfs_rt_entry(rq->rt.queue[p].head); se && !bad;
			     se = cfs_rt_entry(se->rt_link.next))
				if (!sl_cpumask_test(&se->task->allowed, cpu))
					bad = se;
		if (!bad)
			return;
		cfs_attr_move(s, bad, cpu);
	}
}
