/*
 * lifecycle.c - tasks from fork to reaping, and the interpreter of their
 * actions (sim/action.h): fork, exec, exit, wait, sleep, compute.
 *
 * Kernel costs are charged as system-time debt that the task pays on its
 * CPU before it goes on (the machine's fork/exec/exit costs); an action
 * that may leave the CPU is applied only once the debt is paid, so a task
 * that forks and then waits really spends the fork's time first.
 *
 * Fork is a system call like the others: its cost is paid first and the
 * child exists at its end (2.4.27/2.6.11 kernel/fork.c do_fork: the child
 * is woken last).  Every action but user computation is kernel work whose
 * return to user space tests need_resched (2.4.27 arch/i386/kernel/entry.S
 * ret_from_sys_call, 2.6.11 syscall_exit): a reschedule pending on the
 * task's CPU after one (a child that runs first, a woken task that
 * preempts) stops the task's instant actions there.
 *
 * Blocking actions are retried when the task runs again after its wakeup,
 * as kernel code re-checks its condition in a loop: wakeups can be spurious
 * (several readers woken for one message) and that costs what it costs.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"

enum apply_result {
	APPLY_RUN,	/* the task has CPU work outstanding */
	APPLY_DONE,	/* finished at once; ask the program for the next */
	APPLY_BLOCK,	/* the task went to sleep */
	APPLY_EXIT,	/* the task exited */
};

/* Tasks are carved from chunks that double from TASK_CHUNK_FIRST to
 * TASK_CHUNK_MAX: a run of a few tasks zeroes and faults in a few KB,
 * not the 256 tasks' quarter megabyte a fixed chunk cost (half the set-up
 * of a short run on 8 CPUs, most of it page faults), and one of a million
 * still takes a chunk per 256 tasks. */
#define TASK_CHUNK_FIRST 8
#define TASK_CHUNK_MAX 256

struct sl_task *sl__task_alloc(struct sl_sim *sim)
{
	if (!sim->free_tasks) {
		size_t stride = sim->task_stride;
		int n = sim->chunk_tasks ? sim->chunk_tasks : TASK_CHUNK_FIRST;
		struct sl_task_chunk *ch = sl_xcalloc(1, sizeof(max_align_t) + stride * (size_t)n);
		ch->next = sim->chunks;
		sim->chunks = ch;
		sim->chunk_tasks = n < TASK_CHUNK_MAX ? 2 * n : TASK_CHUNK_MAX;
		char *base = (char *)ch + sizeof(max_align_t);
		for (int i = n - 1; i >= 0; i--) {
			struct sl_task *t = (struct sl_task *)(base + stride * (size_t)i);
			t->free_next = sim->free_tasks;
			sim->free_tasks = t;
		}
	}
	struct sl_task *t = sim->free_tasks;
	sim->free_tasks = t->free_next;
	memset(t, 0, sim->task_stride);
	t->policy_area = (char *)t + ((sizeof(struct sl_task) + 15) & ~(size_t)15);
	return t;
}

/* t's comm from name, cut to fit as snprintf's "%s" would: without a
 * formatter, every fork and exec sets one (snprintf was 1 % of a
 * fork-heavy run's instructions). */
static void set_comm(struct sl_task *t, const char *name)
{
	size_t n = strnlen(name, sizeof(t->comm) - 1);

	memmove(t->comm, name, n);
	t->comm[n] = '\0';
}

static void task_init(struct sl_sim *sim, struct sl_task *t, const char *comm)
{
	t->id = sim->next_id++;
	set_comm(t, comm ? comm : "task");
	t->state = SL_TASK_RUNNABLE;
	t->cpu = -1;
	t->last_cpu = -1;
	t->home_node = -1;
	t->mem_node = -1;
	t->allowed = sim->topo->all_cpus;
	t->wclass = SL_WC_INT;
	t->need_step = true;
	t->user_return = true;	/* its first switch ends in ret_from_fork */
	t->start_ns = sim->now;
	t->woken_at = sim->now;
	sl__lat_queued(sim, t, true);	/* sched_wakeup_new */
	sl_rng_derive(&t->rng, sim->seed, 1, (uint64_t)t->id);
	sl_event_init(&t->timer, EV_TIMER, -1, t);
	t->hrt_soft = -1;

	sl_dlist_push_back(&sim->all_tasks, &t->all_link);
	sim->nr_live++;
	sl__ticks_resume(sim);
	sim->nr_runnable++;
	sim->totals.tasks++;
}

struct sl_task *sl_sim_spawn_root(struct sl_sim *sim, const struct sl_prog *prog,
				  void *state, const char *comm)
{
	struct sl_task *t = sl__task_alloc(sim);
	task_init(sim, t, comm);
	t->prog = prog;
	t->prog_state = state;
	t->mm = sim->next_mm++;
	t->allowed = sim->root_allowed;
	if (!sim->root) {
		sim->root = t;
		sim->root_start = sim->now;
	}
	int saved = sim->ctx_cpu;
	sim->ctx_cpu = 0;
	OBSERVE(sim, sched_fork, NULL, t);
	sim->ops->fork(sim, NULL, t);
	sl__process_resched(sim, 0);
	sim->ctx_cpu = saved;
	sl__arm_tick(sim);
	return t;
}

struct sl_task *sl__fork(struct sl_sim *sim, struct sl_task *parent, const struct sl_action *a)
{
	struct sl_task *t = sl__task_alloc(sim);
	task_init(sim, t, a->u.fork.comm ? a->u.fork.comm : parent->comm);
	t->prog = a->u.fork.prog ? a->u.fork.prog : parent->prog;
	t->prog_state = a->u.fork.state;
	t->parent = parent;
	t->nice = a->u.fork.set_nice ? a->u.fork.nice : parent->nice;
	bool shares_mm = a->u.fork.thread || a->u.fork.vfork;
	t->mm = shares_mm ? parent->mm : sim->next_mm++;
	t->sched_policy = a->u.fork.set_sched ? a->u.fork.sched_policy : parent->sched_policy;
	t->rt_priority = a->u.fork.set_sched ? a->u.fork.rt_priority : parent->rt_priority;
	t->allowed = a->u.fork.allowed ? sl_cpumask_and(*a->u.fork.allowed, &sim->topo->all_cpus)
				       : parent->allowed;
	t->footprint_kb = parent->footprint_kb;
	t->random_access = parent->random_access;
	t->steady_speed = parent->steady_speed;
	t->lat_group = a->u.fork.lat_group ? a->u.fork.lat_group : parent->lat_group;
	t->home_node = shares_mm ? parent->home_node : -1;
	t->mem_split = shares_mm ? parent->mem_split : NULL;
	parent->nchildren++;
	OBSERVE(sim, sched_fork, parent, t);
	sim->ops->fork(sim, parent, t);
	sl__arm_tick(sim);
	return t;
}

void sl_sim_set_root_allowed(struct sl_sim *sim, const sl_cpumask *allowed)
{
	sl_cpumask m = sl_cpumask_and(*allowed, &sim->topo->all_cpus);

	if (sim->root || sl_cpumask_empty(&m))
		return;
	sim->root_allowed = m;
	sl__conserve_mask(sim);
}

void sl__add_task_totals(struct sl_run_stats *s, const struct sl_task *t)
{
	s->user_ns += t->user_ns;
	s->sys_ns += t->sys_ns;
	s->nvcsw += t->nvcsw;
	s->nivcsw += t->nivcsw;
	s->migrations += t->nmigrations;
}

static void task_free(struct sl_sim *sim, struct sl_task *t)
{
	if (t->prog && t->prog->release)
		t->prog->release(sim, t);
	sl__add_task_totals(&sim->totals, t);
	sl_dlist_del(&sim->all_tasks, &t->all_link);
	t->free_next = sim->free_tasks;
	sim->free_tasks = t;
	if (--sim->nr_live == 0) {
		sim->root_end = sim->now;	/* the workload is complete */
		sim->stopped = true;
	}
}

/* Reap the oldest zombie child of t; returns its id.  When t reaps it in
 * wait() the policy's release op runs first: the kernel's release_task,
 * in the reaper's context (2.4.27 kernel/exit.c: the child's counter goes
 * to current; 2.6.11: sched_exit, the time slice and sleep_avg to the
 * parent). */
static int reap_one(struct sl_sim *sim, struct sl_task *t, bool in_wait)
{
	struct sl_task *z = t->zombies;
	if (in_wait && sim->ops->release)
		sim->ops->release(sim, z);
	t->zombies = z->zombie_next;
	if (!t->zombies)
		t->zombies_tail = NULL;
	t->nchildren--;
	int id = z->id;
	task_free(sim, z);
	return id;
}

/* An exiting task leaves its children to nobody: they are reaped
 * automatically (init would do it, and any credit would be init's). */
static void orphan_children(struct sl_sim *sim, struct sl_task *t)
{
	while (t->zombies)
		reap_one(sim, t, false);
	if (!t->nchildren)
		return;
	for (struct sl_task *c = sl__first_task(sim); c; c = sl__next_task(c))
		if (c->parent == t)
			c->parent = NULL;
	t->nchildren = 0;
}

/*
 * exit_notify: the dead task's children go to nobody and its parent learns
 * of its death, while the task is still its CPU's current.  The kernel's
 * do_exit wakes the parent here (2.4.27/2.6.11 kernel/exit.c exit_notify,
 * do_notify_parent) and calls schedule() only after it, so that pick sees
 * a parent queued by a wakeup on this CPU (a sync one: 2.6's
 * __wake_up_parent) and the dying task is still counted on its runqueue
 * while the wakeup weighs it.  The task's memory stays until schedule()
 * has switched it out (sl__after_switch_out).
 */
static void exit_notify(struct sl_sim *sim, struct sl_task *t)
{
	orphan_children(sim, t);
	struct sl_task *p = t->parent;
	if (!p)
		return;
	t->zombie_next = NULL;
	if (p->zombies_tail)
		p->zombies_tail->zombie_next = t;
	else
		p->zombies = t;
	p->zombies_tail = t;
	/* do_notify_parent(): the signal first, then __wake_up_parent().  A
	 * parent that catches SIGCHLD is woken by the signal (signal_wake_up:
	 * a plain wakeup, from any interruptible sleep; here its bell's read
	 * or wait()), and the wakeup that follows finds it running. */
	if (p->catches_sigchld) {
		if (p->sigchld_bell)
			sl__chan_post(sim, p->sigchld_bell, 1, t->cpu);
		if (p->state == SL_TASK_SLEEPING && p->act.kind == SL_ACT_WAIT)
			sl__wake(sim, p, t->cpu, 0);
		return;
	}
	if (p->state == SL_TASK_SLEEPING && p->act.kind == SL_ACT_WAIT)
		sl__wake(sim, p, t->cpu, SL_WAKE_CHILD_EXIT);
}

void sl_task_catch_sigchld(struct sl_task *t, bool catches, struct sl_chan *bell)
{
	t->catches_sigchld = catches;
	t->sigchld_bell = catches ? bell : NULL;
}

bool sl_task_has_zombie(const struct sl_task *t, int id)
{
	for (const struct sl_task *z = t->zombies; z; z = z->zombie_next)
		if (z->id == id)
			return true;
	return false;
}

bool sl_task_has_zombies(const struct sl_task *t)
{
	return t->zombies != NULL;
}

/* Called by schedule() once prev is off its CPU.  A dead task's policy
 * bookkeeping goes (the exit op); one without a parent is freed, one with
 * a parent stays a zombie until its parent reaps it (then the release op:
 * reap_one). */
void sl__after_switch_out(struct sl_sim *sim, struct sl_task *prev)
{
	if (prev->state != SL_TASK_DEAD)
		return;
	if (sim->ops->exit)
		sim->ops->exit(sim, prev);
	if (!prev->parent)
		task_free(sim, prev);
}

void sl__wake(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags)
{
	if (t->state != SL_TASK_SLEEPING)
		return;
	sl__waitq_remove(t);
	if (sl_event_queued(&t->timer))	/* (not for a wait on a channel) */
		sl_eventq_cancel(&sim->q, &t->timer);
	sl__hrtimer_disarm(sim, t);
	t->state = SL_TASK_RUNNABLE;
	t->woken_at = sim->now;
	sl__lat_queued(sim, t, true);
	sl__ticks_resume(sim);
	sim->nr_runnable++;
	if (waker_cpu < 0)
		waker_cpu = t->last_cpu >= 0 ? t->last_cpu : 0;
	OBSERVE(sim, sched_wakeup, t, waker_cpu);
	sim->ops->wakeup(sim, t, waker_cpu, flags);
	sl__arm_tick(sim);
}

/* mm_release(): a vfork()ed task that execs or exits wakes its parent
 * (complete(vfork_done): a plain wakeup, from the child's CPU). */
static void vfork_done(struct sl_sim *sim, struct sl_task *t)
{
	struct sl_task *p = t->vfork_parent;
	if (!p)
		return;
	t->vfork_parent = NULL;
	sl__wake(sim, p, t->cpu, 0);
}

void sl__vfork_after_move(struct sl_sim *sim, struct sl_task *t)
{
	t->vfork_after_move = false;
	vfork_done(sim, t);
	/* inside a schedule() (of a tick, an IPI...) that already acted on
	 * this CPU's need_resched: a preemption the wakeup asks for here is
	 * taken at once (preempt_enable after try_to_wake_up), as an IPI
	 * event of this instant would */
	struct sl_cpu *c = &sim->cpus[t->cpu];
	if (c->need_resched && !sl_event_queued(&c->ipi_ev))
		sl_eventq_schedule(&sim->q, &c->ipi_ev, sim->now);
}

static enum apply_result block(struct sl_sim *sim, struct sl_task *t)
{
	/* D: waiting on I/O, or in vfork() for the child (the one fork that
	 * blocks; do_fork's wait_for_completion) */
	t->uninterruptible = t->act.kind == SL_ACT_IO_WAIT || t->act.kind == SL_ACT_FORK;
	t->slept_at = sim->now;
	t->state = SL_TASK_SLEEPING;
	t->nvcsw++;
	sim->nr_runnable--;
	return APPLY_BLOCK;
}

static bool may_leave_cpu(enum sl_act_kind k)
{
	switch (k) {
	case SL_ACT_RUN:
	case SL_ACT_SYS:
	case SL_ACT_FORK:
	case SL_ACT_EXEC:
	case SL_ACT_UNLOCK:
	case SL_ACT_CHAN_CLOSE:
	case SL_ACT_REAP:
		return false;
	default:
		return true;
	}
}

/* Whether the action is kernel work the task returns to user space from:
 * everything but user computation and PAY_COSTS (whose burst of nothing
 * already let a pending preemption in). */
static bool enters_kernel(enum sl_act_kind k)
{
	return k != SL_ACT_RUN && k != SL_ACT_PAY_COSTS;
}

/* Whether the action's system call goes on with the next action
 * (sl_act_recv): no return to user space between them, where a kernel
 * without CONFIG_PREEMPT would switch. */
static inline bool call_goes_on(const struct sl_action *a)
{
	return a->kind == SL_ACT_CHAN_READ && a->u.chan.more;
}

/* Whether the action and the next are one step no preemption comes
 * between under any kernel: a write marked `more`, which only the trace
 * replay makes (a replayed wakeup its task slept right after, in the
 * recording without a switch between). */
static inline bool goes_on_unpreempted(const struct sl_action *a)
{
	return a->kind == SL_ACT_CHAN_WRITE && a->u.chan.more;
}

static enum apply_result apply_other(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t);

/* Apply t's action: compute work here, inlined in the loop of
 * continue_actions (half of all actions, which the frame the whole switch
 * needs cost 1 % of a chat run), the others in apply_other. */
static inline enum apply_result apply(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t)
{
	struct sl_action *a = &t->act;

	/* first touch: from the first work that touches to whatever the
	 * task does next (first_touch.c) */
	bool touch = (a->kind == SL_ACT_RUN || a->kind == SL_ACT_SYS) && a->u.run.touch;
	if (__builtin_expect(touch ? !t->touching : t->touch_work != NULL, 0))
		sl__touch_action(sim, t, touch);
	if (a->kind != SL_ACT_RUN && a->kind != SL_ACT_SYS)
		return apply_other(sim, c, t);
	if (a->u.run.work <= 0)
		return APPLY_DONE;
	t->work_left = a->u.run.work;
	t->act_sys = a->kind == SL_ACT_SYS;
	t->wclass = a->u.run.wclass;
	return APPLY_RUN;
}

/* apply() of an action that is not compute work (the first touch is
 * seen to) */
static __attribute__((noinline)) enum apply_result apply_other(struct sl_sim *sim,
							       struct sl_cpu *c, struct sl_task *t)
{
	const struct sl_speed_model *m = sim->model;
	struct sl_action *a = &t->act;

	switch (a->kind) {
	case SL_ACT_SLEEP:
	case SL_ACT_IO_WAIT:
		if (t->act_phase++ > 0 || a->u.ns <= 0)
			return APPLY_DONE;
		t->timer.cpu = c->id;
		sl_eventq_schedule(&sim->q, &t->timer, sl__after(sim, a->u.ns));
		return block(sim, t);
	case SL_ACT_NANOSLEEP: {
		if (t->act_phase++ > 0)
			return APPLY_DONE;
		int waker;
		sl_time wait = sl__nanosleep_wait(sim, c->id, t, a->u.ns, &waker);
		if (wait < 0) {
			/* 2.4's udelay((ns + 999) / 1000): a kernel busy loop,
			 * calibrated on an idle CPU, so a busy sibling slows it */
			sl_time us = (a->u.ns + SL_USEC - 1) / SL_USEC;
			*a = sl_act_sys_as((double)(us * SL_USEC), SL_WC_SPIN);
			return apply(sim, c, t);
		}
		t->timer.cpu = waker;
		sl_eventq_schedule(&sim->q, &t->timer, sl__after(sim, wait));
		sl__hrtimer_arm(sim, waker, t, a->u.ns);
		return block(sim, t);
	}
	case SL_ACT_FORK:
		/* fork() is a system call that takes the machine's fork cost
		 * in the parent; the child becomes runnable at the end of
		 * do_fork (wake_up_forked_process), so the cost is paid
		 * first and the child born after it: a loop of forks has its
		 * k-th child born k fork costs after the first. */
		if (t->act_phase == 0) {
			t->act_phase = 1;
			if (m->fork_ns > 0) {
				t->debt_sys += (double)m->fork_ns;
				return APPLY_RUN;
			}
		}
		if (t->act_phase == 1) {
			t->act_phase = 2;
			struct sl_task *child = sl__fork(sim, t, a);
			t->result = child->id;
			if (a->u.fork.vfork) {
				/* do_fork's wait_for_completion(&vfork):
				 * TASK_UNINTERRUPTIBLE until the child's
				 * mm_release; the action ends when woken */
				child->vfork_parent = t;
				return block(sim, t);
			}
		}
		return APPLY_DONE;
	case SL_ACT_EXEC:
		if (a->u.exec.comm)
			set_comm(t, a->u.exec.comm);
		t->debt_sys += (double)m->exec_ns;
		/* a caught signal reverts to its default (flush_signal_handlers) */
		t->catches_sigchld = false;
		t->sigchld_bell = NULL;
		/* A new image, new memory: first touch happens once exec is
		 * done, after any exec balancing has moved the task. */
		sl__mem_demand(sim, t, -1);
		t->home_node = -1;
		t->mem_split = NULL;
		t->touch_pending = true;
		sl__mem_demand(sim, t, +1);	/* its kernel work still draws */
		/* the new image's own mm (exec_mmap; the policy's exec op sees
		 * it), then mm_release of the old one, which ends a
		 * vfork()ing parent's wait */
		t->mm = sim->next_mm++;
		OBSERVE(sim, sched_exec, t);
		if (sim->ops->exec)
			sim->ops->exec(sim, t);
		/* 2.6's do_execve calls sched_exec() before it reads the
		 * binary, so exec_mmap's mm_release comes after the move, on
		 * the new CPU: the task waits for its migration thread
		 * (continue_actions) and wakes the parent when it runs again
		 * (sl__vfork_after_move, at that switch-in) */
		if (t->vfork_parent && sl__self_migration(c))
			t->vfork_after_move = true;
		else
			vfork_done(sim, t);
		return APPLY_DONE;
	case SL_ACT_REAP:
		OBSERVE(sim, sched_wait, t);
		t->result = t->zombies ? reap_one(sim, t, true) : -1;
		return APPLY_DONE;
	case SL_ACT_WAIT:
		if (t->act_phase++ == 0)	/* not again when woken to retry */
			OBSERVE(sim, sched_wait, t);
		if (t->zombies) {
			t->result = reap_one(sim, t, true);
			return APPLY_DONE;
		}
		if (!t->nchildren) {
			t->result = -1;
			return APPLY_DONE;
		}
		return block(sim, t);
	case SL_ACT_EXIT:
		if (t->act_phase++ == 0) {
			t->debt_sys += (double)m->exit_ns;
			return APPLY_RUN;
		}
		vfork_done(sim, t);	/* exit_mm's mm_release */
		t->state = SL_TASK_DEAD;
		t->end_ns = sim->now;
		sim->nr_runnable--;
		OBSERVE(sim, sched_exit, t);
		exit_notify(sim, t);
		return APPLY_EXIT;
	case SL_ACT_YIELD:
		if (!sim->ops->yield || sim->ops->yield(sim, t))
			sl_resched(sim, c->id);
		return APPLY_DONE;
	case SL_ACT_SETSCHED: {
		struct sl_sched_attr attr = {
			.sched_policy = a->u.setsched.sched_policy,
			.rt_priority = a->u.setsched.rt_priority,
			.nice = a->u.setsched.nice,
		};
		sl_task_setscheduler(sim, t, &attr);
		return APPLY_DONE;
	}
	case SL_ACT_SETAFFINITY:
		sl_task_set_allowed(sim, t, a->u.allowed);
		return APPLY_DONE;
	case SL_ACT_PAY_COSTS:
		/* sl__continue had the costs paid first; then a burst of
		 * nothing, where a pending preemption takes the CPU */
		return t->act_phase++ == 0 ? APPLY_RUN : APPLY_DONE;
	default:
		return sl__apply_sync(sim, c, t) ? APPLY_DONE : APPLY_BLOCK;
	}
}

/*
 * A task that does this many actions in a row without using the CPU is a
 * program that cannot make progress (a bug in a workload): the run stops
 * with an internal error.  Legitimate runs of instant actions are bounded
 * by what the run holds: a parent reaps each of its children with one
 * wait that may find it already dead, so every task created adds one to
 * the bound (hackbench's root reaps 400,000 processes in a row).
 */
#define MAX_INSTANT_ACTIONS 100000

static bool continue_actions(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t)
{
	long limit = MAX_INSTANT_ACTIONS + (long)sim->next_id;
	long n;

	/* an exec that asked to be moved goes on only after a switch in,
	 * which wakes its vfork parent (sl__schedule): the migration thread
	 * preempts it in the event of its request */
	if (__builtin_expect(t->vfork_after_move, 0)) {
		sl_fail_internal(sim->run_err, "task %d (%s) goes on after its exec's move "
				 "without a switch in", t->id, t->comm);
		sim->stopped = true;
		return false;
	}

	for (n = 0; n < limit; n++) {
		if (t->need_step) {
			t->need_step = false;
			t->need_apply = true;
			t->act_phase = 0;
			sim->steps++;
			t->prog->step(sim, t, &t->act);
		}
		if (sl__owes_costs(t) && may_leave_cpu(t->act.kind))
			return true;	/* pay the kernel's costs first */
		switch (apply(sim, c, t)) {
		case APPLY_RUN:
			if (t->act.kind == SL_ACT_RUN || t->act.kind == SL_ACT_SYS)
				t->need_apply = false;
			return true;
		case APPLY_DONE:
			t->need_step = true;
			/* The return to user space after a system call checks
			 * need_resched and calls schedule(): a reschedule
			 * pending on this CPU (the child of a fork that runs
			 * first, a woken task that preempts) takes the CPU
			 * before the task's next action.  The task stays
			 * runnable; the caller starts a burst of what it
			 * owes (maybe nothing) and the event loop acts on
			 * need_resched at once.  Without CONFIG_PREEMPT each
			 * call's costs are paid so, before the next action,
			 * whether or not a reschedule is pending yet: one
			 * that comes while they are paid switches at this
			 * call's return, not at the end of the calls after
			 * it. */
			if (enters_kernel(t->act.kind) &&
			    !(sim->preempt_none && call_goes_on(&t->act)) &&
			    !goes_on_unpreempted(&t->act) &&
			    (c->need_resched ||
			     (sim->preempt_none && sl__owes_costs(t)))) {
				t->user_return = true;
				return true;
			}
			/* A task that asked its own CPU's migration thread to
			 * move it (set_cpus_allowed, sched_exec) sleeps in
			 * wait_for_completion until the thread has: its next
			 * action is the new CPU's. */
			if (sl__self_migration(c))
				return true;
			break;
		case APPLY_BLOCK:
		case APPLY_EXIT:
			return false;
		}
	}
	sl_fail_internal(sim->run_err, "task %d (%s) did %ld actions without using the CPU",
			 t->id, t->comm, n);
	sim->stopped = true;
	return false;
}

bool sl__continue(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t)
{
	/* who asks, for a migration thread woken in an action
	 * (sl_migration_wake) */
	sim->acting = t;
	bool runs = continue_actions(sim, c, t);
	sim->acting = NULL;
	return runs;
}

void sl__free_all_tasks(struct sl_sim *sim)
{
	while (sim->chunks) {
		struct sl_task_chunk *next = sim->chunks->next;
		free(sim->chunks);
		sim->chunks = next;
	}
	sim->free_tasks = NULL;
	sim->all_tasks = (struct sl_dlist){ 0 };
}
