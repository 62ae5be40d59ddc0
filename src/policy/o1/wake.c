/*
 * o1/wake.c - where tasks are queued when they become runnable in the O(1)
 * scheduler: try_to_wake_up (the last CPU, or the waker's for a sync
 * wakeup; no search for an idle CPU), the HT scheduler's wake_up_cpu (an
 * idle sibling, else a CPU the task preempts), the placement after a task
 * was moved, fork (the child on the parent's CPU at the tail of its list,
 * or from D7 on in front of the parent; the slice split; the parent's CPU
 * rescheduled so that the child runs first) and exit (the first slice back
 * to the parent).
 *
 * Sources: 2.6.0 kernel/sched.c try_to_wake_up, wake_up_forked_process,
 * sched_exit, and kernel/fork.c do_fork (set_need_resched after
 * wake_up_forked_process, there since 2.5.3: Ingo Molnar, LKML, 28 Jan
 * 2002, <Pine.LNX.4.33.0201281754050.10067-100000@localhost.localdomain>);
 * a 2.5.6x kernel/sched.c (the "-" side of Ingo's sched-2.5.68-A9,
 * LKML <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com>:
 * try_to_wake_up requeueing the waker); stock 2.5.59 wake_up_forked_process
 * (activate_task at the tail) as the "-" side of Ingo's sched-2.5.59-D7,
 * LKML <Pine.LNX.4.44.0301202204210.18235-100000@localhost.localdomain>,
 * which queues the child in front of the parent; wake_up_cpu and its
 * equal-priority rule (acting even without SMT) from A9, the sync rule of
 * F3 from Ingo, LKML, 7 Feb 2003, "Re: [patch] HT scheduler,
 * sched-2.5.59-F3", <Pine.LNX.4.44.0302071033530.8102-100000@localhost.localdomain>,
 * and A5's sync fix, LKML <Pine.LNX.4.58.0312011102540.3323@earth>.
 * Docs: docs/policies/o1.md, ht.md.
 *
 * Choices where the sources are uncertain:
 *   - Which 2.5.6x release took D7's fork placement is not known: the
 *     version rows say tail up to 2.5.59, front from 2.5.68 (knob
 *     fork_place).  The ht rows follow their base (e6 on 2.5.59: tail).
 *   - The child-runs-first reschedule is skipped when it cannot change
 *     the pick: the child went to the tail and the parent heads the
 *     highest list, so schedule() would keep the parent.  Only the cost
 *     of that schedule() is not charged.
 *   - A child forked with a different nice than its parent (the engine
 *     sets it at fork) gets the parent's dynamic priority shifted by the
 *     difference and goes to the tail of that list, as set_user_nice()
 *     right after fork would do.  A child forked into another class or RT
 *     priority (the engine can set them at fork) gets its own priority at
 *     the tail of its list, as sched_setscheduler() right after fork would
 *     do; one given a mask without the parent's CPU starts on the first
 *     CPU of its mask, as set_cpus_allowed() right after fork would move
 *     it.  An RT child of the parent's class goes in front of the parent
 *     at its prio whatever its nice.
 *   - A child's exit wakes its parent sync (knob exit_wake, o1/config.c):
 *     2.6.11 kernel/signal.c __wake_up_parent (wake_up_interruptible_sync);
 *     no 2.5 or 2.6.0 signal.c is at hand.  The engine delivers it while
 *     the dying child is still current, before its CPU's schedule()
 *     (exit_notify), so a parent queued there is that pick's to take.
 *   - Sync wakeups that the version does not keep quiet call wake_up_cpu
 *     only where the HT row says so: F3, which sends every wakeup through
 *     activate + wake_up_cpu (Ingo Molnar's 2.5.31 F3, 27 Aug 2002), and
 *     C1, whose 2.6.0 base keeps only a local sync wakeup quiet.  E6, built
 *     from 2.5.59 F3 (LKML, 7 Feb 2003), activates them without it: the
 *     separate sync path came with D7's SYNC_WAKEUPS (Jan 2003).
 *
 * Omitted / simplified:
 *   - 2.6.0's cross-CPU timestamp adjustment: one clock here.
 */
#include "policy/o1/core.h"
#include "sim/sim.h"

static bool o1_preempts(struct sl_sim *sim, const struct o1_task *p, int cpu,
			bool equal_prio_rule)
{
	int prio = o1_curr_prio(sim, cpu);

	if (p->prio < prio)
		return true;
	return equal_prio_rule && p->prio == prio && p->time_slice > o1_curr_slice(sim, cpu);
}

void o1_wake_up_cpu(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq, int cpu,
		    struct o1_task *p)
{
	const sl_cpumask *allowed = &p->task->allowed;

	if (sl_cpu_idle(sim, cpu)) {
		sl_resched(sim, cpu);
		return;
	}
	o1_for_each_cpu(sib, s, &rq->cpus) {
		if (sl_cpumask_test(allowed, sib) && sl_cpu_idle(sim, sib)) {
			sl_resched(sim, sib);
			return;
		}
	}
	if (o1_preempts(sim, p, cpu, s->cfg.wake_equal_prio)) {
		sl_resched(sim, cpu);
		return;
	}
	o1_for_each_cpu(sib, s, &rq->cpus) {
		if (sib != cpu && sl_cpumask_test(allowed, sib) &&
		    o1_preempts(sim, p, sib, s->cfg.wake_equal_prio)) {
			sl_resched(sim, sib);
			return;
		}
	}
}

void o1_kick_moved(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int cpu,
		   bool equal_prio)
{
	if (s->cfg.wake_up_cpu) {
		o1_wake_up_cpu(sim, s, o1_rq(s, cpu), cpu, p);
		return;
	}
	/* idle has prio MAX_PRIO, so an idle CPU always reschedules */
	if (o1_preempts(sim, p, cpu, equal_prio))
		sl_resched(sim, cpu);
}

/* ---- try_to_wake_up (2.6, 4.4) ---- */

void o1_core_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags)
{
	struct o1 *s = o1_state(sim);
	struct o1_task *p = o1_of(t);
	/* 2.6 __wake_up_parent: the exiting child wakes its parent sync */
	bool sync = (flags & SL_WAKE_SYNC) ||
		    ((flags & SL_WAKE_CHILD_EXIT) && s->cfg.exit_wake_sync);

	if (!s->cfg.smp) {
		p->cpu = 0;
	} else if (sync && p->cpu != waker_cpu && sl_cpumask_test(&t->allowed, waker_cpu)) {
		/* fast-migrate: the waker is about to sleep, its CPU is free */
		if (o1_rq(s, p->cpu) != o1_rq(s, waker_cpu))
			sl_note_migration(sim, t, p->cpu, waker_cpu);
		p->cpu = waker_cpu;
	}
	/* 2.6.0: involuntary sleepers earn no more than just interactive */
	if (t->uninterruptible && s->cfg.v->interactivity == O1_SLEEP_NS)
		p->activated = -1;
	struct o1_rq *rq = o1_rq(s, p->cpu);
	enum o1_sync_rule rule = s->cfg.v->sync_rule;
	bool quiet = sync && (rule == O1_SYNC_QUIET ||
			      (rule == O1_SYNC_QUIET_LOCAL && p->cpu == waker_cpu));
	if (quiet) {
		o1_activate_quiet(s, rq, p);
		return;
	}
	struct sl_task *current = sl_curr(sim, waker_cpu);
	struct o1_task *waker = current ? o1_of(current) : NULL;
	bool requeue_waker = o1_activate(sim, s, rq, p, flags & SL_WAKE_IRQ, waker);
	if (s->cfg.wake_up_cpu) {
		if (!sync || s->cfg.wake_up_cpu_sync)
			o1_wake_up_cpu(sim, s, rq, p->cpu, p);
	} else if (o1_preempts(sim, p, p->cpu, false)) {
		sl_resched(sim, p->cpu);
	}
	/* 2.5.68: after the preemption test, which saw its old priority */
	if (requeue_waker)
		o1_requeue_waker(s, waker);
}

/* ---- fork and exit (2.3) ---- */

static void o1_fork_root(struct sl_sim *sim, struct o1 *s, struct o1_task *c)
{
	/* CPU 0, or the first it may run on (a pinned benchmark) */
	const sl_cpumask *allowed = &c->task->allowed;
	int cpu = !s->cfg.smp || sl_cpumask_test(allowed, 0) ? 0 : sl_cpumask_first(allowed);

	c->cpu = cpu;
	c->sleep_avg = 0;
	c->prio = o1_effective_prio(s, c);
	c->time_slice = o1_task_timeslice(s, c);
	o1_activate_quiet(s, o1_rq(s, cpu), c);
	sl_resched(sim, cpu);
}

void o1_core_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child)
{
	struct o1 *s = o1_state(sim);
	struct o1_task *c = o1_of(child);

	c->task = child;
	c->exec_cpu = -1;
	c->affinity_cpu = -1;
	c->static_prio = O1_NICE0_PRIO + child->nice;
	c->last_run = (int64_t)sl_jiffies(sim);
	c->timestamp = o1_sched_clock(sim, s);
	if (!parent) {
		o1_fork_root(sim, s, c);
		return;
	}

	/* copy_process: the slice is split so that forking creates no time */
	struct o1_task *pp = o1_of(parent);
	c->sleep_avg = pp->sleep_avg;
	c->interactive_credit = pp->interactive_credit;
	c->time_slice = (pp->time_slice + 1) / 2;
	c->first_time_slice = true;
	pp->time_slice /= 2;
	if (!pp->time_slice) {
		pp->time_slice = 1;
		o1_task_tick(sim, s, parent->cpu, pp);
	}

	o1_fork_penalties(s, pp, c);
	c->cpu = s->cfg.smp ? parent->cpu : 0;
	/* a child given a mask without the parent's CPU: where
	 * set_cpus_allowed right after fork would put it */
	if (s->cfg.smp && !sl_cpumask_test(&child->allowed, c->cpu))
		c->cpu = o1_first_allowed(s, c);
	struct o1_rq *rq = o1_rq(s, c->cpu);
	bool same_class = child->sched_policy == parent->sched_policy &&
			  child->rt_priority == parent->rt_priority;
	if (!pp->array || s->cfg.fork_place == O1_FORK_TAIL || !same_class ||
	    rq != o1_rq(s, pp->cpu)) {
		/* activate_task: its own priority, the tail of that list */
		c->prio = o1_effective_prio(s, c);
		o1_activate_quiet(s, rq, c);
	} else if (c->static_prio == pp->static_prio || sl_task_rt(child)) {
		/* D7: just in front of the parent, at its prio (an RT
		 * child's nice does not change its prio) */
		c->prio = pp->prio;
		sl_prio_array_enqueue_before(pp->array, &c->run_list, &pp->run_list);
		c->array = pp->array;
		o1_nr_inc(s, rq);
	} else {
		int prio = pp->prio + c->static_prio - pp->static_prio;
		c->prio = prio < SL_MAX_RT_PRIO ? SL_MAX_RT_PRIO :
			  prio > SL_MAX_PRIO - 1 ? SL_MAX_PRIO - 1 : prio;
		o1_enqueue(pp->array, c);
		o1_nr_inc(s, rq);
	}
	/* a child queued away from its parent (its mask lacks the parent's
	 * CPU) is a task moved there: that CPU reschedules if the child
	 * preempts what runs there, as pull_task and 2.6.11's
	 * wake_up_new_task on another CPU do - an idle CPU always */
	if (rq != o1_rq(s, pp->cpu)) {
		o1_kick_moved(sim, s, c, c->cpu, false);
		return;
	}
	/* do_fork: the parent's CPU reschedules so that the child runs first
	 * (2.5.3 to mid-2004).  With the child at the tail, schedule() keeps
	 * a parent that heads the highest list; that call is skipped (see
	 * the header). */
	if (sl_prio_array_first(rq->active) != &pp->run_list)
		sl_resched(sim, parent->cpu >= 0 ? parent->cpu : c->cpu);
}

void o1_core_exit(struct sl_sim *sim, struct sl_task *t)
{
	struct o1 *s = o1_state(sim);
	struct o1_task *c = o1_of(t);

	o1_exec_forget(s, c);
	o1_affinity_forget(s, c);
}

/* sched_exit, which release_task calls when the parent reaps the child in
 * wait() (2.6.11 kernel/exit.c release_task; 2.5.x and 2.6.0 are taken to
 * call it there too, INFERRED: the 2.4 credit it replaced sat there). */
void o1_core_release(struct sl_sim *sim, struct sl_task *t)
{
	struct o1 *s = o1_state(sim);
	struct sl_task *parent = t->parent;
	struct o1_task *c = o1_of(t);

	if (!parent || parent->state == SL_TASK_DEAD)
		return;
	struct o1_task *pp = o1_of(parent);
	/* a child that did not finish its first slice gives the rest back */
	if (c->first_time_slice) {
		pp->time_slice += c->time_slice;
		if (pp->time_slice > s->max_slice)
			pp->time_slice = s->max_slice;
	}
	o1_exit_penalty(s, pp, c);
}
