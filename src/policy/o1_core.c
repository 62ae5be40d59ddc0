/*
 * o1_core.c - the O(1) scheduler of Linux 2.5/2.6.0 (Ingo Molnar, 2002),
 * shared by the policies o1 (stock SMP), ht (Ingo's shared-runqueue HT
 * scheduler) and up (a uniprocessor build): runqueues with active and
 * expired priority arrays, timeslices by static priority, the sleep_avg
 * interactivity bonus, scheduler_tick, schedule() with the newly-idle
 * balance and the HT pickup, try_to_wake_up with the sync fast-migrate
 * and the HT wake_up_cpu, fork (child in front of the parent, slice split)
 * and exit (first slice back to the parent).  Balancing is in
 * o1_balance.c, the version rows in o1_versions.c.
 *
 * Sources: research/policies.md sections 0 (HZ, priorities), 2.1 (data
 * structures), 2.2 (timeslices), 2.3 (interactivity, fork, exit), 2.4
 * (scheduler_tick, EXPIRED_STARVING), 2.5 (schedule), 2.6 (wakeup), 4.2
 * (shared runqueues), 4.3 (HT pickup), 4.4 (wake_up_cpu), 7.3 (nr_running
 * counts the running task), 7.7 (shared runqueue semantics); [S5] 2.6.0
 * sched.c, [S6] a 2.5.6x sched.c, [S10] 2.5.59 constants, [S12] A9, [S21]
 * F3.  Docs: docs/policies/o1.md, ht.md, up.md.
 *
 * Choices where the sources are uncertain:
 *   - The HT pickup (4.3) skips tasks running on a sibling; prev, running
 *     on this CPU, may be kept.  A9 says so explicitly; for F3 the research
 *     is ambiguous, and the literal alternative would idle a CPU while its
 *     own task is queued.
 *   - Idle siblings at their tick (knobs idle_pickup, idle_active; 4.3,
 *     4.6).  Nothing in the research makes an idle CPU notice a task
 *     queued on its shared runqueue (a forked child, a sync-woken task, a
 *     task left over at an expiry), yet seed 000's four folding@home tasks
 *     kept all four logical CPUs busy; with idle_pickup=tick the idle
 *     sibling takes such a task at its next tick.  Active balancing runs
 *     when a CPU goes idle in schedule(); on a real machine idle CPUs also
 *     re-enter schedule() whenever a kernel thread or a wakeup ran there,
 *     which the simulator lacks, so a wholly idle core asks again every
 *     idle_active ms (default every tick; 0 = only on going idle).
 *     Both INFERRED.
 *   - A child forked with a different nice than its parent (the engine
 *     sets it at fork) gets the parent's dynamic priority shifted by the
 *     difference and goes to the tail of that list, as set_user_nice()
 *     right after fork would do.
 *
 * Omitted / simplified:
 *   - SCHED_FIFO/SCHED_RR tasks: every simulated task is SCHED_OTHER; the
 *     migration thread is the engine's.
 *   - sched_yield (2.5/2.6.0 move the yielder to the expired array): the
 *     engine turns a yield into a plain reschedule and does not tell the
 *     policy, so the yielder is re-picked by priority.
 *   - 2.6.0's uninterruptible-sleep cap (activated = -1) and the in_interrupt
 *     test: the engine does not say how a task slept; a timer wakeup counts
 *     as an interrupt wakeup (activated = 2), any other as a task wakeup (1).
 *   - sched_exit runs when the child exits, not when it is reaped (the
 *     engine reports exits only).
 *   - The tick processed at fork when the parent's slice halves to 0 does
 *     the slice expiry only, not the rebalance_tick at its end.
 *   - The per-runqueue locks and their contention: the scheduler's own
 *     work is charged as scan_ns per schedule() and per runqueue or task
 *     looked at by the balancer, without lock waits.
 *   - 2.6.0's cross-CPU timestamp adjustment in pull_task: one clock here.
 */
#include <limits.h>
#include <stdlib.h>

#include "policy/o1_core.h"
#include "sim/sim.h"

#define O1_NICE0_PRIO 120
#define O1_MAX_USER_PRIO 40

static inline struct o1 *o1_state(const struct sl_sim *sim)
{
	return sl_policy_data(sim);
}

static inline struct o1_rq *o1_rq(const struct o1 *s, int cpu)
{
	return s->rq_of[cpu];
}

/* ---- timeslices (2.2) ---- */

static int o1_timeslice_of(const struct o1 *s, int static_prio)
{
	return s->min_slice + (s->max_slice - s->min_slice) *
		(SL_MAX_PRIO - 1 - static_prio) / (O1_MAX_USER_PRIO - 1);
}

static int o1_task_timeslice(const struct o1 *s, const struct o1_task *p)
{
	return o1_timeslice_of(s, p->static_prio);
}

/* ---- interactivity (2.3) ---- */

static int o1_max_bonus(const struct o1 *s)
{
	return O1_MAX_USER_PRIO * s->cfg.v->prio_bonus_ratio / 100;
}

/* 2.6.0: CURRENT_BONUS, sleep_avg (ns) on a 0..MAX_BONUS scale. */
static int o1_current_bonus(const struct o1 *s, const struct o1_task *p)
{
	int64_t j = p->sleep_avg / s->tick_ns;
	return (int)(j * o1_max_bonus(s) / s->max_sleep_avg);
}

static int o1_bonus(const struct o1 *s, const struct o1_task *p)
{
	int max_bonus = o1_max_bonus(s);

	if (s->cfg.v->interactivity == O1_SLEEP_NS)
		return o1_current_bonus(s, p) - max_bonus / 2;
	return (int)(O1_MAX_USER_PRIO * s->cfg.v->prio_bonus_ratio * p->sleep_avg /
		     s->max_sleep_avg / 100) - max_bonus / 2;
}

static int o1_effective_prio(const struct o1 *s, const struct o1_task *p)
{
	int prio = p->static_prio - o1_bonus(s, p);

	if (prio < SL_MAX_RT_PRIO)
		prio = SL_MAX_RT_PRIO;
	if (prio > SL_MAX_PRIO - 1)
		prio = SL_MAX_PRIO - 1;
	return prio;
}

/* DELTA(p): nice 0 needs a bonus of 2 to count as interactive. */
static int o1_delta(const struct o1 *s, const struct o1_task *p)
{
	int nice = p->static_prio - O1_NICE0_PRIO;
	return nice * o1_max_bonus(s) / O1_MAX_USER_PRIO + s->cfg.v->interactive_delta;
}

static bool o1_task_interactive(const struct o1 *s, const struct o1_task *p)
{
	return p->prio <= p->static_prio - o1_delta(s, p);
}

static bool o1_expired_starving(const struct o1 *s, const struct o1_rq *rq, uint64_t now_j)
{
	return s->starvation_limit && rq->expired_timestamp >= 0 &&
	       (int64_t)now_j - rq->expired_timestamp >=
		       s->starvation_limit * rq->nr_running + 1;
}

static sl_time o1_ns_max_sleep_avg(const struct o1 *s)
{
	return s->max_sleep_avg * s->tick_ns;
}

static bool o1_high_credit(const struct o1 *s, const struct o1_task *p)
{
	return p->interactive_credit > s->cfg.v->credit_limit;
}

static bool o1_low_credit(const struct o1 *s, const struct o1_task *p)
{
	return p->interactive_credit < -s->cfg.v->credit_limit;
}

/* INTERACTIVE_SLEEP: sleeping longer than this makes a task "just interactive". */
static sl_time o1_interactive_sleep(const struct o1 *s, const struct o1_task *p)
{
	int max_bonus = o1_max_bonus(s);
	int64_t j = s->max_sleep_avg * (max_bonus / 2 + o1_delta(s, p) + 1) / max_bonus - 1;
	return j * s->tick_ns;
}

/* 2.6.0 recalc_task_prio: credit the sleep that ended at `now`. */
static void o1_recalc_task_prio(const struct o1 *s, struct o1_task *p, sl_time now)
{
	sl_time max_avg = o1_ns_max_sleep_avg(s);
	sl_time sleep_time = now - p->timestamp;

	if (sleep_time > max_avg)
		sleep_time = max_avg;
	if (sleep_time > 0) {
		bool user = !p->task->kthread;
		if (user && p->activated != -1 && sleep_time > o1_interactive_sleep(s, p)) {
			/* long sleepers are idle, not interactive: just enough */
			p->sleep_avg = (s->max_sleep_avg - o1_timeslice_of(s, O1_NICE0_PRIO)) *
				       s->tick_ns;
			if (!o1_high_credit(s, p))
				p->interactive_credit++;
		} else {
			/* the lower sleep_avg is, the faster sleep raises it */
			int mult = o1_max_bonus(s) - o1_current_bonus(s, p);
			sleep_time *= mult ? mult : 1;
			sl_time slice_ns = o1_task_timeslice(s, p) * s->tick_ns;
			if (o1_low_credit(s, p) && sleep_time > slice_ns)
				sleep_time = slice_ns;
			p->sleep_avg += sleep_time;
			if (p->sleep_avg > max_avg) {
				p->sleep_avg = max_avg;
				if (!o1_high_credit(s, p))
					p->interactive_credit++;
			}
		}
	}
	p->prio = o1_effective_prio(s, p);
}

/* 2.6.0 schedule(): the time prev ran comes off its sleep_avg. */
static void o1_charge_run_time(const struct o1 *s, struct o1_task *p, sl_time now)
{
	sl_time run_time = now - p->timestamp;
	sl_time max_avg = o1_ns_max_sleep_avg(s);

	if (run_time < 0)
		run_time = 0;
	if (run_time > max_avg)
		run_time = max_avg;
	/* tasks with credit lose their status more slowly */
	if (o1_high_credit(s, p)) {
		int bonus = o1_current_bonus(s, p);
		run_time /= bonus ? bonus : 1;
	}
	p->sleep_avg -= run_time;
	if (p->sleep_avg <= 0) {
		p->sleep_avg = 0;
		if (!o1_high_credit(s, p) && !o1_low_credit(s, p))
			p->interactive_credit--;
	}
	p->timestamp = now;
}

/* ---- runqueue membership ---- */

void o1_enqueue(struct sl_prio_array *array, struct o1_task *p)
{
	sl_prio_array_enqueue(array, &p->run_list, p->prio);
	p->array = array;
}

void o1_dequeue(struct o1_task *p)
{
	sl_prio_array_dequeue(p->array, &p->run_list);
	p->array = NULL;
}

/* __activate_task: on the active array, counted. */
static void o1_activate_quiet(struct o1_rq *rq, struct o1_task *p)
{
	o1_enqueue(rq->active, p);
	rq->nr_running++;
}

/* activate_task: credit the sleep, then queue. */
static void o1_activate(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq,
			struct o1_task *p, bool from_interrupt)
{
	if (s->cfg.v->interactivity == O1_SLEEP_NS) {
		sl_time now = sl_now(sim);
		o1_recalc_task_prio(s, p, now);
		if (!p->activated)
			p->activated = from_interrupt ? 2 : 1;
		p->timestamp = now;
	} else {
		int64_t sleep_time = (int64_t)sl_jiffies(sim) - p->last_run -
				     s->cfg.v->sleep_credit_offset;
		if (sleep_time > 0) {
			p->sleep_avg += sleep_time;
			if (p->sleep_avg > s->max_sleep_avg)
				p->sleep_avg = s->max_sleep_avg;
			p->prio = o1_effective_prio(s, p);
		}
	}
	o1_activate_quiet(rq, p);
}

static void o1_deactivate(struct o1_rq *rq, struct o1_task *p)
{
	o1_dequeue(p);
	rq->nr_running--;
}

/* ---- what runs where ---- */

/* Priority of what `cpu` runs: idle is MAX_PRIO so any task beats it; the
 * migration thread is SCHED_FIFO 99, which nothing beats. */
int o1_curr_prio(struct sl_sim *sim, int cpu)
{
	if (sl_cpu_idle(sim, cpu))
		return SL_MAX_PRIO;
	struct sl_task *t = sl_curr(sim, cpu);
	return t ? o1_of(t)->prio : 0;
}

int o1_curr_slice(struct sl_sim *sim, int cpu)
{
	if (sl_cpu_idle(sim, cpu))
		return 0;
	struct sl_task *t = sl_curr(sim, cpu);
	return t ? o1_of(t)->time_slice : INT_MAX;
}

static bool o1_preempts(struct sl_sim *sim, const struct o1_task *p, int cpu,
			bool equal_prio_rule)
{
	int prio = o1_curr_prio(sim, cpu);

	if (p->prio < prio)
		return true;
	return equal_prio_rule && p->prio == prio && p->time_slice > o1_curr_slice(sim, cpu);
}

/*
 * The HT scheduler's wake_up_cpu (4.4): the task's own CPU if idle, else an
 * idle sibling, else a CPU it preempts.  Used for wakeups, pulled tasks and
 * tasks moved by the migration thread.
 */
void o1_wake_up_cpu(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq, int cpu,
		    struct o1_task *p)
{
	const sl_cpumask *allowed = &p->task->allowed;

	if (sl_cpu_idle(sim, cpu)) {
		sl_resched(sim, cpu);
		return;
	}
	sl_for_each_cpu(sib, &rq->cpus) {
		if (sl_cpumask_test(allowed, sib) && sl_cpu_idle(sim, sib)) {
			sl_resched(sim, sib);
			return;
		}
	}
	if (o1_preempts(sim, p, cpu, s->cfg.wake_equal_prio)) {
		sl_resched(sim, cpu);
		return;
	}
	sl_for_each_cpu(sib, &rq->cpus) {
		if (sib != cpu && sl_cpumask_test(allowed, sib) &&
		    o1_preempts(sim, p, sib, s->cfg.wake_equal_prio)) {
			sl_resched(sim, sib);
			return;
		}
	}
}

/* ---- scheduler_tick (2.4) ---- */

/* The slice ran out: back to the expired array, or to the tail of the
 * active one if interactive and nobody is starving. */
static void o1_expire(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq, struct o1_task *p)
{
	uint64_t now_j = sl_jiffies(sim);

	o1_dequeue(p);
	p->prio = o1_effective_prio(s, p);
	p->time_slice = o1_task_timeslice(s, p);
	p->first_time_slice = false;
	if (rq->expired_timestamp < 0)
		rq->expired_timestamp = (int64_t)now_j;
	if (!o1_task_interactive(s, p) || o1_expired_starving(s, rq, now_j))
		o1_enqueue(rq->expired, p);
	else
		o1_enqueue(rq->active, p);
}

/* 2.6.0: interactive tasks round-robin within their priority every
 * TIMESLICE_GRANULARITY (times the number of CPUs on SMP). */
static int o1_granularity(const struct o1 *s, const struct o1_task *p)
{
	int n = o1_max_bonus(s) - o1_current_bonus(s, p);
	int g = s->min_slice * (1 << ((n ? n : 1) - 1));

	return s->cfg.smp ? g * s->ncpus : g;
}

static void o1_round_robin(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq,
			   struct o1_task *p, int cpu)
{
	int g = o1_granularity(s, p);
	int used = o1_task_timeslice(s, p) - p->time_slice;

	if (!o1_task_interactive(s, p) || used % g || p->time_slice < g)
		return;
	o1_dequeue(p);
	sl_resched(sim, cpu);
	p->prio = o1_effective_prio(s, p);
	o1_enqueue(rq->active, p);
}

/* The part of scheduler_tick that concerns the running task p. */
static void o1_task_tick(struct sl_sim *sim, struct o1 *s, int cpu, struct o1_task *p)
{
	struct o1_rq *rq = o1_rq(s, cpu);

	/* it expired already but has not been switched out yet */
	if (p->array != rq->active) {
		sl_resched(sim, cpu);
		return;
	}
	if (s->cfg.v->interactivity == O1_SLEEP_JIFFIES && p->sleep_avg > 0)
		p->sleep_avg--;
	if (--p->time_slice <= 0) {
		sl_resched(sim, cpu);
		o1_expire(sim, s, rq, p);
	} else if (s->cfg.v->interactivity == O1_SLEEP_NS) {
		o1_round_robin(sim, s, rq, p, cpu);
	}
}

/* Tasks of cpu's runqueue that are queued but not running anywhere. */
static int o1_rq_waiting(struct sl_sim *sim, const struct o1_rq *rq)
{
	int running = 0;

	sl_for_each_cpu(c, &rq->cpus)
		running += sl_curr(sim, c) != NULL;
	return rq->nr_running - running;
}

/*
 * An idle CPU of a shared runqueue at its tick (knobs idle_pickup and
 * idle_active, see the header): take a task of its core that waits while
 * the CPU idles, or ask for active balancing when the whole core is idle.
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

void o1_core_tick(struct sl_sim *sim, int cpu)
{
	struct o1 *s = o1_state(sim);

	if (!s->cfg.smp && cpu != 0)
		return;
	struct sl_task *t = sl_curr(sim, cpu);
	if (!t) {
		bool idle = sl_cpu_idle(sim, cpu);	/* else: the migration thread */
		o1_rebalance_tick(sim, s, cpu, idle);
		if (idle && o1_rq(s, cpu)->ncpus > 1)
			o1_idle_sibling_tick(sim, s, cpu);
		return;
	}
	o1_task_tick(sim, s, cpu, o1_of(t));
	o1_rebalance_tick(sim, s, cpu, false);
}

/* ---- schedule() (2.5, 4.3) ---- */

/* What schedule() does to prev before choosing: its last_run, the 2.6.0
 * run-time charge, and removal if it blocked or exited. */
static void o1_put_prev(struct sl_sim *sim, struct o1 *s, struct sl_task *prev)
{
	struct o1_task *p = o1_of(prev);

	p->last_run = (int64_t)sl_jiffies(sim);
	if (s->cfg.v->interactivity == O1_SLEEP_NS)
		o1_charge_run_time(s, p, sl_now(sim));
	if (prev->state != SL_TASK_RUNNABLE && p->array)
		o1_deactivate(o1_rq(s, p->cpu), p);
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
 * the runqueue (30% if woken by a task, all of it if by an interrupt). */
static void o1_credit_runqueue_wait(struct sl_sim *sim, struct o1 *s, struct o1_task *next)
{
	if (next->activated > 0) {
		sl_time delta = sl_now(sim) - next->timestamp;
		if (next->activated == 1)
			delta = delta * s->cfg.v->on_runqueue_weight / 100;
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
		o1_load_balance(sim, s, rq, cpu, true, false);
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

	if (prev)
		o1_put_prev(sim, s, prev);
	if (!s->cfg.smp && cpu != 0)
		return NULL;
	sl_charge_sched(sim, cpu, s->cfg.pick_ns);

	struct o1_task *next = o1_choose(sim, s, cpu, prev);
	if (next && s->cfg.v->interactivity == O1_SLEEP_NS) {
		o1_credit_runqueue_wait(sim, s, next);
		next->timestamp = sl_now(sim);
	}
	if (next)
		next->cpu = cpu;	/* a sibling may take it: set_task_cpu */
	s->curr[cpu] = next ? next->task : NULL;
	return s->curr[cpu];
}

/* ---- try_to_wake_up (2.6, 4.4) ---- */

void o1_core_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags)
{
	struct o1 *s = o1_state(sim);
	struct o1_task *p = o1_of(t);
	bool sync = flags & SL_WAKE_SYNC;

	if (!s->cfg.smp) {
		p->cpu = 0;
	} else if (sync && p->cpu != waker_cpu && sl_cpumask_test(&t->allowed, waker_cpu)) {
		/* fast-migrate: the waker is about to sleep, its CPU is free */
		if (o1_rq(s, p->cpu) != o1_rq(s, waker_cpu))
			sl_note_migration(sim, t, p->cpu, waker_cpu);
		p->cpu = waker_cpu;
	}
	struct o1_rq *rq = o1_rq(s, p->cpu);
	enum o1_sync_rule rule = s->cfg.v->sync_rule;
	bool quiet = sync && (rule == O1_SYNC_QUIET ||
			      (rule == O1_SYNC_QUIET_LOCAL && p->cpu == waker_cpu));
	if (quiet) {
		o1_activate_quiet(rq, p);
		return;
	}
	o1_activate(sim, s, rq, p, flags & SL_WAKE_TIMER);
	if (s->cfg.wake_up_cpu) {
		if (!sync || s->cfg.wake_up_cpu_sync)
			o1_wake_up_cpu(sim, s, rq, p->cpu, p);
	} else if (o1_preempts(sim, p, p->cpu, false)) {
		sl_resched(sim, p->cpu);
	}
}

/* ---- fork and exit (2.3) ---- */

static void o1_fork_root(struct sl_sim *sim, struct o1 *s, struct o1_task *c)
{
	c->cpu = 0;
	c->sleep_avg = 0;
	c->prio = o1_effective_prio(s, c);
	c->time_slice = o1_task_timeslice(s, c);
	o1_activate_quiet(o1_rq(s, 0), c);
	sl_resched(sim, 0);
}

/* wake_up_forked_process: sleep_avg penalties for both. */
static void o1_fork_penalties(const struct o1 *s, struct o1_task *pp, struct o1_task *c)
{
	const struct o1_version *v = s->cfg.v;

	if (v->interactivity == O1_SLEEP_NS) {
		int64_t scale = s->max_sleep_avg / o1_max_bonus(s);
		c->sleep_avg = o1_current_bonus(s, c) * v->child_penalty / 100 * scale * s->tick_ns;
		pp->sleep_avg = o1_current_bonus(s, pp) * v->parent_penalty / 100 * scale *
				s->tick_ns;
		c->interactive_credit = 0;
	} else {
		pp->sleep_avg = pp->sleep_avg * v->parent_penalty / 100;
		c->sleep_avg = c->sleep_avg * v->child_penalty / 100;
	}
}

void o1_core_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child)
{
	struct o1 *s = o1_state(sim);
	struct o1_task *c = o1_of(child);

	c->task = child;
	c->static_prio = O1_NICE0_PRIO + child->nice;
	c->last_run = (int64_t)sl_jiffies(sim);
	c->timestamp = sl_now(sim);
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
	struct o1_rq *rq = o1_rq(s, c->cpu);
	if (!pp->array) {
		c->prio = o1_effective_prio(s, c);
		o1_activate_quiet(rq, c);
		return;
	}
	/* the child runs first: just in front of the parent, at its prio */
	if (c->static_prio == pp->static_prio) {
		c->prio = pp->prio;
		sl_prio_array_enqueue_before(pp->array, &c->run_list, &pp->run_list);
		c->array = pp->array;
	} else {
		int prio = pp->prio + c->static_prio - pp->static_prio;
		c->prio = prio < SL_MAX_RT_PRIO ? SL_MAX_RT_PRIO :
			  prio > SL_MAX_PRIO - 1 ? SL_MAX_PRIO - 1 : prio;
		o1_enqueue(pp->array, c);
	}
	rq->nr_running++;
}

void o1_core_exit(struct sl_sim *sim, struct sl_task *t)
{
	struct o1 *s = o1_state(sim);
	struct sl_task *parent = t->parent;

	if (!parent || parent->state == SL_TASK_DEAD)
		return;
	struct o1_task *c = o1_of(t), *pp = o1_of(parent);
	/* a child that did not finish its first slice gives the rest back */
	if (c->first_time_slice) {
		pp->time_slice += c->time_slice;
		if (pp->time_slice > s->max_slice)
			pp->time_slice = s->max_slice;
	}
	/* a CPU-hog child makes the parent look less interactive too */
	int w = s->cfg.v->exit_weight;
	if (c->sleep_avg < pp->sleep_avg)
		pp->sleep_avg = (pp->sleep_avg * w + c->sleep_avg) / (w + 1);
}

/* ---- the migration thread ---- */

void o1_core_migration(struct sl_sim *sim, int cpu, long arg)
{
	struct o1 *s = o1_state(sim);
	struct sl_task *t = s->curr[cpu];

	(void)arg;
	/* the thread preempted t: schedule() ran for it as prev */
	if (t) {
		o1_put_prev(sim, s, t);
		s->curr[cpu] = NULL;
	}
	o1_do_active_balance(sim, s, cpu);
}

/* ---- creation ---- */

static void o1_rq_init(struct o1_rq *rq, int ncpus)
{
	sl_prio_array_init(&rq->arrays[0]);
	sl_prio_array_init(&rq->arrays[1]);
	rq->active = &rq->arrays[0];
	rq->expired = &rq->arrays[1];
	rq->expired_timestamp = -1;
	rq->prev_cpu_load = sl_xcalloc((unsigned long)ncpus, sizeof(int));
	sl_cpumask_clear(&rq->cpus);
	rq->first_cpu = -1;
}

static void o1_rq_add_cpu(struct o1 *s, struct o1_rq *rq, int cpu)
{
	sl_cpumask_set(&rq->cpus, cpu);
	if (rq->first_cpu < 0)
		rq->first_cpu = cpu;
	rq->ncpus++;
	s->rq_of[cpu] = rq;
}

/* One runqueue per CPU, per SMT core (share_siblings), or one on CPU 0 (UP). */
static void o1_build_runqueues(struct o1 *s)
{
	const struct sl_topo *topo = s->topo;

	s->rqs = sl_xcalloc((unsigned long)s->ncpus, sizeof(struct o1_rq));
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		if (!s->cfg.smp && cpu > 0) {
			s->rq_of[cpu] = &s->rqs[0];	/* never used to run anything */
			continue;
		}
		int first = sl_cpumask_first(sl_topo_siblings(topo, cpu));
		if (s->cfg.share_siblings && first != cpu) {
			o1_rq_add_cpu(s, s->rq_of[first], cpu);
			continue;
		}
		struct o1_rq *rq = &s->rqs[s->nrqs++];
		o1_rq_init(rq, s->ncpus);
		o1_rq_add_cpu(s, rq, cpu);
	}
}

static int o1_ms_to_ticks(int ms, unsigned hz)
{
	int t = (int)((long long)ms * hz / 1000);
	return t > 0 ? t : 1;
}

struct o1 *o1_core_create(struct sl_sim *sim, const struct o1_config *cfg,
			  struct sl_err *err)
{
	const struct o1_version *v = cfg->v;

	if (!v) {
		sl_fail_internal(err, "o1: no version");
		return NULL;
	}
	struct o1 *s = sl_xcalloc(1, sizeof(*s));
	s->cfg = *cfg;
	s->topo = sl_topo(sim);
	s->ncpus = s->topo->ncpus;
	s->tick_ns = SL_SEC / cfg->hz;
	s->min_slice = o1_ms_to_ticks(v->min_timeslice_ms, cfg->hz);
	s->max_slice = o1_ms_to_ticks(v->max_timeslice_ms, cfg->hz);
	if (s->max_slice < s->min_slice)
		s->max_slice = s->min_slice;
	if (v->interactivity == O1_SLEEP_NS) {
		/* MAX_SLEEP_AVG = AVG_TIMESLICE * MAX_BONUS; starvation the same */
		s->max_sleep_avg = (int64_t)o1_timeslice_of(s, O1_NICE0_PRIO) * o1_max_bonus(s);
		s->starvation_limit = s->max_sleep_avg;
	} else {
		s->max_sleep_avg = o1_ms_to_ticks(v->max_sleep_avg_ms, cfg->hz);
		s->starvation_limit = v->starvation_limit_ms ?
			o1_ms_to_ticks(v->starvation_limit_ms, cfg->hz) : 0;
	}
	s->busy_ticks = o1_ms_to_ticks(v->busy_rebalance_ms, cfg->hz);
	s->idle_ticks = o1_ms_to_ticks(v->idle_rebalance_ms, cfg->hz);
	s->idle_active_ticks = cfg->idle_active_ms ? o1_ms_to_ticks(cfg->idle_active_ms, cfg->hz) : 0;
	o1_build_runqueues(s);
	sl_set_hz(sim, cfg->hz);
	return s;
}

void o1_core_destroy(struct sl_sim *sim)
{
	struct o1 *s = o1_state(sim);

	for (int i = 0; i < s->nrqs; i++)
		free(s->rqs[i].prev_cpu_load);
	free(s->rqs);
	free(s);
}

/*
 * The knobs o1, ht and up share, as a configuration of version `v`: hz,
 * scan_ns (default: the machine's costs of a pick and of examining one
 * item) and, where the policy's table has it, cache_decay_ticks (default:
 * derived from the L2 size and clock as i386 did).
 */
void o1_config_init(struct o1_config *cfg, struct sl_sim *sim, const struct sl_params *knobs,
		    const struct o1_version *v, bool smp)
{
	bool scan_given = sl_param_given(knobs, "scan_ns");

	*cfg = (struct o1_config){
		.v = v,
		.hz = (unsigned)sl_param_int(knobs, "hz"),
		.hot = v->hot,
		.scan_ns = scan_given ? sl_param_int(knobs, "scan_ns") : sl_cost_scan(sim, 1),
		.pick_ns = scan_given ? sl_param_int(knobs, "scan_ns") : sl_cost_pick(sim),
		.smp = smp,
	};
	cfg->cache_decay_ticks = sl_param_exists(knobs, "cache_decay_ticks") &&
				 sl_param_given(knobs, "cache_decay_ticks") ?
		(int)sl_param_int(knobs, "cache_decay_ticks") :
		o1_cache_decay_ticks(sl_topo(sim), v, cfg->hz);
}

/* ---- consistency (tests, --check) ---- */

/*
 * Checked after every event in test builds, so it must stay cheap on big
 * machines: O(tasks + runqueues).  Each runnable task must sit, properly
 * linked and with its priority's bit set, in an array of its CPU's
 * runqueue; the counts must add up.
 */
static int o1_check_task(struct o1 *s, struct sl_task *t, int *count, struct sl_err *err)
{
	struct o1_task *p = o1_of(t);

	if (t->state != SL_TASK_RUNNABLE) {
		if (p->array)
			return sl_fail_internal(err, "o1: task %d is queued but not runnable", t->id);
		return 0;
	}
	struct o1_rq *rq = o1_rq(s, p->cpu);
	const struct sl_prio_node *n = &p->run_list;
	if (!p->array || (p->array != rq->active && p->array != rq->expired))
		return sl_fail_internal(err, "o1: runnable task %d is not on the runqueue of "
					"CPU %d", t->id, p->cpu);
	if (n->next->prev != n || n->prev->next != n || n->prio < 0 || n->prio >= SL_MAX_PRIO ||
	    !((p->array->bitmap[n->prio >> 6] >> (n->prio & 63)) & 1))
		return sl_fail_internal(err, "o1: task %d badly linked at prio %d", t->id, n->prio);
	if (t->cpu >= 0 && o1_rq(s, t->cpu) != rq)
		return sl_fail_internal(err, "o1: task %d runs on CPU %d but is queued for "
					"CPU %d", t->id, t->cpu, p->cpu);
	if (!s->cfg.smp && (p->cpu != 0 || t->cpu > 0))
		return sl_fail_internal(err, "o1: UP kernel has task %d on CPU %d", t->id,
					t->cpu > 0 ? t->cpu : p->cpu);
	if (p->time_slice <= 0 && t->cpu < 0)
		return sl_fail_internal(err, "o1: queued task %d has slice %d", t->id,
					p->time_slice);
	count[rq - s->rqs]++;
	return 0;
}

int o1_core_check(struct sl_sim *sim, struct sl_err *err)
{
	struct o1 *s = o1_state(sim);
	int count[SL_MAX_CPUS] = { 0 };

	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t))
		if (o1_check_task(s, t, count, err))
			return -1;
	for (int i = 0; i < s->nrqs; i++) {
		struct o1_rq *rq = &s->rqs[i];
		int a = rq->active->nr_active, e = rq->expired->nr_active;
		if (a + e != rq->nr_running || count[i] != rq->nr_running)
			return sl_fail_internal(err, "o1: runqueue of CPU %d: %d active + %d "
						"expired, %d tasks, nr_running %d", rq->first_cpu,
						a, e, count[i], rq->nr_running);
	}
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct sl_task *t = sl_curr(sim, cpu);
		if (t && t != s->curr[cpu])
			return sl_fail_internal(err, "o1: CPU %d runs task %d, schedule() chose %d",
						cpu, t->id, s->curr[cpu] ? s->curr[cpu]->id : -1);
	}
	return 0;
}
