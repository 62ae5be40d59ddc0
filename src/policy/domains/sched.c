/*
 * domains/sched.c - the O(1) base under scheduler domains: one runqueue
 * per logical CPU with active and expired priority arrays, timeslices
 * (2.6.12's SCALE_PRIO, w26's 2.6.0 ones) and Con Kolivas' ns
 * interactivity, scheduler_tick, schedule()
 * with newly-idle balancing and the SMT nice hold-back, fork with the child
 * in front of its parent, exit and sched_yield.
 *
 * Sources: 2.6.12.1 kernel/sched.c (task_timeslice, recalc_task_prio,
 * scheduler_tick, EXPIRED_STARVING, schedule, sched_fork,
 * wake_up_new_task, sched_exit) for 2.6.12; 2.6.0 kernel/sched.c for w26,
 * a patch against 2.6.0-test11.  The 2.6.0 constants are read from the
 * `o1` version table (o1_version_find("2.6.0")), so both policies agree.
 *
 * Choices:
 *   - 2.6.12 runs on 2.6.12's O(1) base: slices from SCALE_PRIO with
 *     mainline's DEF_TIMESLICE (nice -20 800 ms, nice 0 100 ms, nice 19
 *     5 ms; 2.6.12.1 is a vendor tree whose DEF_TIMESLICE of 40 ms and
 *     PRIO_BONUS_RATIO of 3 are not mainline's 100 ms and 25),
 *     MAX_SLEEP_AVG = DEF_TIMESLICE * MAX_BONUS, EXPIRED_STARVING also when
 *     a task of better static priority has expired (best_expired_prio), no
 *     interactive_credit (every task's run time comes off its sleep_avg
 *     divided by CURRENT_BONUS), and sched_exit returns a child's unused
 *     first slice up to the child's full slice.  w26 runs on 2.6.0's
 *     (10..200 ms, nice 0 102 ms, credits).
 *   - Fork follows each version's kernel.  2.6.12.1 wake_up_new_task():
 *     a child not sharing the parent's mm goes in front of the parent at
 *     its priority and the parent is marked need_resched (child runs
 *     first); a thread (CLONE_VM) goes to the tail of its own priority and
 *     runs last.  2.6.0 (w26): wake_up_forked_process() puts every child,
 *     threads too, in front of the parent, and do_fork() marks the parent
 *     need_resched after it (child-runs-first from 2.5.3 until 2004).
 *   - Sync wakeups (domains/wake.c): 2.6.0 activates a sync wakeup on the
 *     waker's CPU without credit or preemption; 2.6.12 credits it but does
 *     not preempt.
 *   - A child forked with a nice other than its parent's gets the parent's
 *     dynamic priority shifted by the difference, at the tail of that list
 *     (as set_user_nice() right after fork would do); see o1/core.c.
 *
 * Real-time tasks (2.6.12.1 kernel/sched.c: effective_prio, scheduler_tick,
 * schedule, sys_sched_yield; domains/attr.c for sched_setscheduler):
 * SCHED_FIFO and SCHED_RR at prio 99 - rt_priority in the same arrays,
 * above every SCHED_OTHER task.  FIFO runs until it blocks, yields or a
 * higher one comes; RR gets task_timeslice (by its nice, as in 2.6.12) and
 * then goes to the tail of its list; neither ever enters the expired array
 * nor gets the runqueue-wait credit; yield puts an RT task at the tail of
 * its list.  Wakeup preemption and load balancing need nothing of their
 * own: TASK_PREEMPTS_CURR compares prio, and move_tasks walks the
 * priorities from 0, so RT tasks are pulled first and counted as one task
 * each, as can_migrate_task treats every task alike.
 *
 * Omitted / simplified:
 *   - The migration thread is the engine's.
 *   - The per-CPU clocks of 2.6 (sched_clock, timestamp adjustment in
 *     pull_task): one clock.
 *   - The tick processed at fork when the parent's slice halves to 0 does
 *     the slice expiry only, not the rebalance_tick.
 *   - The run time of prev is charged (and its timestamp reset) at every
 *     schedule(), also when prev is kept; 2.6.0 reset the timestamp only
 *     on a switch.
 */
#include <stdlib.h>

#include "policy/domains/domains.h"
#include "policy/kernel_arch.h"
#include "policy/o1/core.h"
#include "policy/runqueue_credit.h"
#include "policy/timeslice_rr.h"
#include "sim/sim.h"

#define SD_NICE0_PRIO 120
#define SD_MAX_USER_PRIO 40

static inline struct sd_sched *sd_state(const struct sl_sim *sim)
{
	return sl_policy_data(sim);
}

/* ---- timeslices and interactivity ---- */

static int sd_timeslice_of(const struct sd_sched *s, int static_prio)
{
	if (s->base_2612) {
		/* SCALE_PRIO: nice -20 800 ms, nice 0 100 ms, nice 19 5 ms */
		int x = static_prio < SD_NICE0_PRIO ? s->def_slice * 4 : s->def_slice;
		int slice = x * (SL_MAX_PRIO - static_prio) / (SD_MAX_USER_PRIO / 2);
		return slice > s->min_slice ? slice : s->min_slice;
	}
	return s->min_slice + (s->max_slice - s->min_slice) *
		(SL_MAX_PRIO - 1 - static_prio) / (SD_MAX_USER_PRIO - 1);
}

int sd_task_timeslice(const struct sd_sched *s, const struct sd_task *p)
{
	return sd_timeslice_of(s, p->static_prio);
}

/* a / b, in 32 bits when both fit (the same quotient, but the running
 * task's every tick asks for two of these and 64-bit division is slow). */
static inline int64_t sd_div(int64_t a, int64_t b)
{
	if ((uint64_t)a <= UINT32_MAX && (uint64_t)b <= UINT32_MAX)
		return (uint32_t)a / (uint32_t)b;
	return a / b;
}

/* CURRENT_BONUS: sleep_avg on a 0..MAX_BONUS scale. */
static int sd_current_bonus(const struct sd_sched *s, const struct sd_task *p)
{
	int64_t j = sd_div(p->sleep_avg, s->tick_ns);

	return (int)sd_div(j * s->max_bonus, s->max_sleep_avg);
}

int sd_effective_prio(const struct sd_sched *s, const struct sd_task *p)
{
	if (sd_rt(p))
		return sd_rt_prio(p->task);	/* no bonus: its own priority */
	int prio = p->static_prio - (sd_current_bonus(s, p) - s->max_bonus / 2);

	if (prio < SL_MAX_RT_PRIO)
		prio = SL_MAX_RT_PRIO;
	if (prio > SL_MAX_PRIO - 1)
		prio = SL_MAX_PRIO - 1;
	return prio;
}

/* DELTA(p): nice 0 needs a bonus of 2 to count as interactive. */
static int sd_delta(const struct sd_sched *s, const struct sd_task *p)
{
	int nice = p->static_prio - SD_NICE0_PRIO;

	return nice * s->max_bonus / SD_MAX_USER_PRIO + s->interactive_delta;
}

static bool sd_task_interactive(const struct sd_sched *s, const struct sd_task *p)
{
	return p->prio <= p->static_prio - sd_delta(s, p);
}

/* EXPIRED_STARVING: the first expired task waited too long, or (2.6.12) a
 * task of better static priority than curr's has expired. */
static bool sd_expired_starving(const struct sd_sched *s, const struct sd_rq *rq,
				const struct sd_task *curr, int64_t now_j)
{
	if (s->base_2612 && curr->static_prio > rq->best_expired_prio)
		return true;
	/* nr_running as the kernel counts it: a woken migration thread too */
	return rq->expired_timestamp >= 0 &&
	       now_j - rq->expired_timestamp >= s->starvation_limit * sd_nr_running(s, rq->cpu) + 1;
}

static sl_time sd_ns_max_sleep_avg(const struct sd_sched *s)
{
	return s->max_sleep_avg * s->tick_ns;
}

/* interactive_credit (2.6.0); 2.6.12 has none: nobody is high or low. */
static bool sd_high_credit(const struct sd_sched *s, const struct sd_task *p)
{
	return !s->base_2612 && p->interactive_credit > s->credit_limit;
}

static bool sd_low_credit(const struct sd_sched *s, const struct sd_task *p)
{
	return !s->base_2612 && p->interactive_credit < -s->credit_limit;
}

/* INTERACTIVE_SLEEP(p): sleeping longer makes a task "just interactive". */
static sl_time sd_interactive_sleep(const struct sd_sched *s, const struct sd_task *p)
{
	int64_t j = s->max_sleep_avg * (s->max_bonus / 2 + sd_delta(s, p) + 1) / s->max_bonus - 1;

	return j * s->tick_ns;
}

/* recalc_task_prio: credit the sleep that ended at `now`. */
static void sd_recalc_task_prio(const struct sd_sched *s, struct sd_task *p, sl_time now)
{
	sl_time max_avg = sd_ns_max_sleep_avg(s);
	sl_time sleep_time = now - p->timestamp;
	bool user = !p->task->kthread;

	if (sleep_time > max_avg)
		sleep_time = max_avg;
	if (sleep_time > 0) {
		if (user && p->activated != -1 && sleep_time > sd_interactive_sleep(s, p)) {
			/* long sleepers are idle, not interactive: just enough */
			p->sleep_avg = (s->max_sleep_avg - sd_timeslice_of(s, SD_NICE0_PRIO)) *
				       s->tick_ns;
			if (!sd_high_credit(s, p))
				p->interactive_credit++;
		} else {
			/* the lower sleep_avg is, the faster sleep raises it */
			/* in an unsigned long: on i386 a sleep over 429 ms at
			 * bonus 0 wraps, and the task gets the remainder */
			int mult = s->max_bonus - sd_current_bonus(s, p);
			sleep_time = sl_kernel_ulong(s->ulong_bits, sleep_time * (mult ? mult : 1));
			sl_time slice_ns = sd_task_timeslice(s, p) * s->tick_ns;
			if (sd_low_credit(s, p) && sleep_time > slice_ns)
				sleep_time = slice_ns;
			/* waking from uninterruptible sleep: no more than just interactive */
			if (p->activated == -1 && !sd_high_credit(s, p) && user) {
				sl_time cap = sd_interactive_sleep(s, p);
				if (p->sleep_avg >= cap) {
					sleep_time = 0;
				} else if (sl_kernel_ulong(s->ulong_bits, p->sleep_avg + sleep_time) >=
					   cap) {
					p->sleep_avg = cap;
					sleep_time = 0;
				}
			}
			p->sleep_avg = sl_kernel_ulong(s->ulong_bits, p->sleep_avg + sleep_time);
			if (p->sleep_avg > max_avg) {
				p->sleep_avg = max_avg;
				if (!sd_high_credit(s, p))
					p->interactive_credit++;
			}
		}
	}
	p->prio = sd_effective_prio(s, p);
}

/* schedule(): the time prev ran comes off its sleep_avg. */
static void sd_charge_run_time(const struct sd_sched *s, struct sd_task *p, sl_time now)
{
	sl_time run_time = now - p->timestamp;
	sl_time max_avg = sd_ns_max_sleep_avg(s);

	if (run_time < 0)
		run_time = 0;
	if (run_time > max_avg)
		run_time = max_avg;
	/* tasks with credit (2.6.12: every task) lose their status more
	 * slowly, the more so the higher their sleep_avg */
	if (s->base_2612 || sd_high_credit(s, p)) {
		int bonus = sd_current_bonus(s, p);
		run_time /= bonus ? bonus : 1;
	}
	p->sleep_avg -= run_time;
	if (p->sleep_avg <= 0) {
		p->sleep_avg = 0;
		if (!s->base_2612 && !sd_high_credit(s, p) && !sd_low_credit(s, p))
			p->interactive_credit--;
	}
	p->timestamp = now;
}

/* ---- runqueue membership ---- */

void sd_enqueue(struct sl_prio_array *array, struct sd_task *p)
{
	sl_prio_array_enqueue(array, &p->run_list, p->prio);
	p->array = array;
}

void sd_dequeue(struct sd_task *p)
{
	sl_prio_array_dequeue(p->array, &p->run_list);
	p->array = NULL;
}

/* __activate_task: on the active array, counted. */
static void sd_activate_quiet(struct sd_sched *s, struct sd_rq *rq, struct sd_task *p)
{
	sd_enqueue(rq->active, p);
	sd_nr_add(s, rq->cpu, 1);
}

void sd_activate(struct sl_sim *sim, struct sd_sched *s, int cpu, struct sd_task *p,
		 bool credit, bool from_interrupt)
{
	struct sd_rq *rq = sd_rq(s, cpu);

	if (credit) {
		sl_time now = sd_sched_clock(sim, s);
		sd_recalc_task_prio(s, p, now);
		if (!p->activated)
			p->activated = from_interrupt ? 2 : 1;
		p->timestamp = now;
	}
	sd_activate_quiet(s, rq, p);
}

bool sd_preempts(struct sl_sim *sim, const struct sd_task *p, int cpu)
{
	struct sl_task *curr = sl_curr(sim, cpu);

	if (!curr)
		return sl_cpu_idle(sim, cpu);	/* the migration thread is RT */
	return p->prio < sd_of(curr)->prio;
}

/* ---- scheduler_tick ---- */

/* The granularity at the greatest bonus, of which every task's is a
 * power-of-two multiple (sl_timeslice_rr_may_be_due's base). */
static int sd_granularity_base(const struct sd_sched *s)
{
	return s->granularity * s->ncpus;
}

/* Interactive tasks round-robin within their priority every
 * TIMESLICE_GRANULARITY, times the number of CPUs (2.6.0 and 2.6.12). */
static int sd_granularity(const struct sd_sched *s, const struct sd_task *p)
{
	return sl_timeslice_rr_granularity(sd_granularity_base(s),
					   s->max_bonus - sd_current_bonus(s, p));
}

/* sd_task_tick's rare cases, out of line (they would give every busy
 * tick a frame): p expired already, is RT, or its slice ends now. */
static __attribute__((noinline)) void sd_task_tick_slow(struct sl_sim *sim, struct sd_sched *s,
							 int cpu, struct sd_task *p)
{
	struct sd_rq *rq = sd_rq(s, cpu);

	/* it expired already but has not been switched out yet */
	if (p->array != rq->active) {
		sl_resched(sim, cpu);
		return;
	}
	if (sd_rt(p)) {
		/* FIFO has no timeslice; RR gets a fresh one at the tail of
		 * its list, never the expired array */
		if (p->task->sched_policy == SL_SCHED_RR && --p->time_slice <= 0) {
			p->time_slice = sd_task_timeslice(s, p);
			p->first_time_slice = false;
			sl_resched(sim, cpu);
			sd_dequeue(p);
			sd_enqueue(rq->active, p);
		}
		return;
	}
	if (--p->time_slice <= 0) {
		int64_t now_j = (int64_t)sl_jiffies(sim);
		sl_resched(sim, cpu);
		sd_dequeue(p);
		p->prio = sd_effective_prio(s, p);
		p->time_slice = sd_task_timeslice(s, p);
		p->first_time_slice = false;
		if (rq->expired_timestamp < 0)
			rq->expired_timestamp = now_j;
		if (!sd_task_interactive(s, p) || sd_expired_starving(s, rq, p, now_j)) {
			sd_enqueue(rq->expired, p);
			if (p->static_prio < rq->best_expired_prio)
				rq->best_expired_prio = p->static_prio;
		} else
			sd_enqueue(rq->active, p);
		return;
	}
	/* not reached: sd_task_tick sends a SCHED_NORMAL task of the
	 * active array here only with a slice of 1 or less, which ends above */
}

/* An interactive task's round robin, out of line as the above. */
static __attribute__((noinline)) void sd_task_requeue(struct sl_sim *sim, struct sd_sched *s,
						       int cpu, struct sd_task *p)
{
	int slice = sd_task_timeslice(s, p);

	if (!sl_timeslice_rr_may_be_due(slice, p->time_slice, sd_granularity_base(s)) ||
	    !sl_timeslice_rr_due(slice, p->time_slice, sd_granularity(s, p)))
		return;
	/* to the tail of its list; 2.6.0 (w26) recomputes its priority
	 * first, 2.6.11/2.6.12.1 keep it until it sleeps or its slice
	 * runs out (scheduler_tick: requeue_task) */
	sd_dequeue(p);
	sl_resched(sim, cpu);
	if (!s->base_2612)
		p->prio = sd_effective_prio(s, p);
	sd_enqueue(sd_rq(s, cpu)->active, p);
}

/*
 * The part of scheduler_tick that concerns the running task p.  Most busy
 * ticks of a SCHED_NORMAL task take a tick off its slice and find it not
 * interactive, or interactive and not due to round-robin: that inline,
 * the rest (sd_task_tick_slow, sd_task_requeue) out of line.
 */
static inline void sd_task_tick(struct sl_sim *sim, struct sd_sched *s, int cpu,
				struct sd_task *p)
{
	/* the slow path's tests first, in its order: expired already, RT,
	 * the slice ending at this tick (its decrement then done there) */
	if (p->array != sd_rq(s, cpu)->active || sd_rt(p) || p->time_slice <= 1) {
		sd_task_tick_slow(sim, s, cpu, p);
		return;
	}
	--p->time_slice;
	if (sd_task_interactive(s, p))
		sd_task_requeue(sim, s, cpu, p);
}

/* A CPU running a task: its slice, then its balance. */
static __attribute__((noinline)) void sd_busy_tick(struct sl_sim *sim, struct sd_sched *s,
						   int cpu, struct sl_task *t)
{
	sd_task_tick(sim, s, cpu, sd_of(t));
	sd_rebalance_tick(sim, s, cpu, SD_NOT_IDLE);
}

/* An idle CPU with queued tasks under SMT nice: held back by
 * dependent_sleeper, it reschedules and balances as a busy CPU (2.6.12.1
 * scheduler_tick(): wake_priority_sleeper, then out). */
static __attribute__((noinline)) void sd_idle_queued_tick(struct sl_sim *sim, struct sd_sched *s,
							  int cpu)
{
	if (sd_wake_priority_sleeper(sim, s, cpu))
		sd_rebalance_tick(sim, s, cpu, SD_NOT_IDLE);
	else
		sd_rebalance_tick(sim, s, cpu, SD_IDLE);
}

static void sd_tick_new_instant(struct sl_sim *sim, struct sd_sched *s, int cpu);

void sd_tick(struct sl_sim *sim, int cpu)
{
	struct sd_sched *s = sd_state(sim);
	struct sd_rq *rq = sd_rq(s, cpu);

	/* each way out a tail call: an idle CPU's tick, most ticks of a big
	 * machine, needs no frame here */
	if (sl_now(sim) != s->tick_at) {
		sd_tick_new_instant(sim, s, cpu);
		return;
	}
	rq->timestamp_last_tick = s->tick_clock;
	sd_note_tick(s, cpu);
	struct sl_task *t = sl_curr(sim, cpu);
	if (t)
		sd_busy_tick(sim, s, cpu, t);
	else if (!sl_cpu_idle(sim, cpu))
		/* the migration thread, a task to the kernel */
		sd_rebalance_tick(sim, s, cpu, SD_NOT_IDLE);
	else if (!s->tick_flags[cpu])
		/* most idle ticks: nothing queued, cpu_load steady, one test
		 * of the due jiffies (sd_rebalance_tick's, inline) */
		sd_rebalance_tick(sim, s, cpu, SD_IDLE);
	else if (s->tick_flags[cpu] & SD_TICK_QUEUED)	/* smt_nice, tasks queued */
		sd_idle_queued_tick(sim, s, cpu);
	else
		sd_rebalance_tick(sim, s, cpu, SD_IDLE);
}

/* The first CPU's tick of an instant works out its jiffies and
 * sched_clock() for every CPU ticking then (a 64-bit division or two per
 * CPU per jiffy before), then ticks as the others do. */
static __attribute__((noinline)) void sd_tick_new_instant(struct sl_sim *sim, struct sd_sched *s,
							  int cpu)
{
	s->tick_at = sl_now(sim);
	s->tick_j = (int64_t)sl_jiffies(sim);
	s->tick_clock = sd_sched_clock(sim, s);
	sd_tick(sim, cpu);
}

/* ---- schedule() ---- */

void sd_put_prev(struct sl_sim *sim, struct sd_sched *s, struct sl_task *prev)
{
	struct sd_task *p = sd_of(prev);
	sl_time now = sd_sched_clock(sim, s);

	sd_charge_run_time(s, p, now);
	p->last_ran = now;	/* also when schedule() keeps prev */
	/* a ns clock reads later than the tick's stamp; whole jiffies do not */
	p->ran_after_tick = !s->jiffy_clock && sd_rq(s, p->cpu)->timestamp_last_tick == p->last_ran;
	if (prev->state != SL_TASK_RUNNABLE && p->array) {
		sd_dequeue(p);
		sd_nr_add(s, p->cpu, -1);
	}
}

/* The task schedule() would take: head of the active array, or of the
 * expired one when the active is empty (before the switch). */
static struct sd_task *sd_peek(const struct sd_rq *rq)
{
	const struct sl_prio_array *array = sl_prio_array_empty(rq->active) ? rq->expired :
									     rq->active;
	return sd_of_node(sl_prio_array_first(array));
}

/* 2.6.0 and 2.6.12: the first pick after a wakeup credits the time spent
 * waiting on the runqueue (runqueue_credit.h). */
static void sd_credit_runqueue_wait(struct sl_sim *sim, struct sd_sched *s,
				    struct sd_task *next)
{
	if (!sd_rt(next) && next->activated > 0) {
		sl_time delta = sd_sched_clock(sim, s) - next->timestamp;
		if (next->activated == 1)
			delta = sl_runqueue_credit(delta, s->on_runqueue_weight);
		struct sl_prio_array *array = next->array;
		sd_dequeue(next);
		sd_recalc_task_prio(s, next, next->timestamp + delta);
		sd_enqueue(array, next);
	}
	next->activated = 0;
}

static struct sd_task *sd_choose(struct sl_sim *sim, struct sd_sched *s, int cpu)
{
	struct sd_rq *rq = sd_rq(s, cpu);

	if (rq->nr_running == 0) {
		sd_idle_balance(sim, s, cpu);
		if (rq->nr_running == 0) {
			rq->expired_timestamp = -1;
			if (s->smt_nice)
				sd_wake_sleeping_dependent(sim, s, cpu);
			return NULL;
		}
	} else if (s->smt_nice && sd_dependent_sleeper(sim, s, cpu, sd_peek(rq))) {
		return NULL;	/* the sibling runs something much more important */
	}
	if (sl_prio_array_empty(rq->active)) {
		struct sl_prio_array *array = rq->active;
		rq->active = rq->expired;
		rq->expired = array;
		rq->expired_timestamp = -1;
		rq->best_expired_prio = SL_MAX_PRIO;
	}
	return sd_of_node(sl_prio_array_first(rq->active));
}

struct sl_task *sd_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	struct sd_sched *s = sd_state(sim);
	struct sd_rq *rq = sd_rq(s, cpu);

	bool thread_ends = s->in_migration[cpu] && sl_cpu_idle(sim, cpu);
	if (thread_ends) {
		/* the schedule() that ends the migration thread's run */
		s->in_migration[cpu] = false;
		sd_load_changed(s, cpu);
	}
	if (prev)
		sd_put_prev(sim, s, prev);
	sl_charge_sched(sim, cpu, s->pick_ns);

	/* The thread is still rq->curr while its schedule() balances: to the
	 * newly-idle balance this CPU is not idle (move_tasks). */
	s->thread_pick = thread_ends ? cpu : -1;
	struct sd_task *next = sd_choose(sim, s, cpu);
	s->thread_pick = -1;
	if (next) {
		sd_credit_runqueue_wait(sim, s, next);
		next->timestamp = sd_sched_clock(sim, s);
	}
	rq->curr = next ? next->task : NULL;
	return rq->curr;
}

/* ---- fork, exit, yield ---- */

static void sd_fork_root(struct sl_sim *sim, struct sd_sched *s, struct sd_task *c)
{
	int cpu = sl_cpumask_test(&c->task->allowed, 0) ? 0 :
		  sl_cpumask_first(&c->task->allowed);

	c->cpu = cpu;
	c->sleep_avg = 0;
	c->prio = sd_effective_prio(s, c);
	c->time_slice = sd_task_timeslice(s, c);
	sd_activate_quiet(s, sd_rq(s, cpu), c);
	sl_resched(sim, cpu);
}

/* wake_up_forked_process: sleep_avg penalties for both (ns form). */
static void sd_fork_penalties(const struct sd_sched *s, struct sd_task *pp, struct sd_task *c)
{
	int64_t scale = s->max_sleep_avg / s->max_bonus;

	c->sleep_avg = sd_current_bonus(s, c) * s->child_penalty / 100 * scale * s->tick_ns;
	pp->sleep_avg = sd_current_bonus(s, pp) * s->parent_penalty / 100 * scale * s->tick_ns;
	c->interactive_credit = 0;
}

void sd_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child)
{
	struct sd_sched *s = sd_state(sim);
	struct sd_task *c = sd_of(child);

	c->task = child;
	c->static_prio = SD_NICE0_PRIO + child->nice;
	c->move_rq = -1;
	c->move_next = NULL;
	c->timestamp = sd_sched_clock(sim, s);
	/* as long before as boot: cold */
	c->last_ran = -SL_TIME_HORIZON;
	c->ran_after_tick = false;
	if (!parent) {
		sd_fork_root(sim, s, c);
		return;
	}

	/* copy_process: the slice is split so that forking creates no time */
	struct sd_task *pp = sd_of(parent);
	/* dup_task_struct copies last_ran, sched_fork leaves it: the parent's
	 * last schedule() as prev, a switch out or a re-pick (or what it was
	 * given at its own fork), so a child forked soon after is cache-hot
	 * to the balancers until it runs (2.6.12.1; w26's 2.6.0 base is not
	 * at hand, and keeps a never-run child cold) */
	if (s->base_2612) {
		c->last_ran = pp->last_ran;
		c->ran_after_tick = pp->ran_after_tick;
	}
	int cpu = parent->cpu >= 0 ? parent->cpu : pp->cpu;
	c->sleep_avg = pp->sleep_avg;
	c->interactive_credit = pp->interactive_credit;
	c->time_slice = (pp->time_slice + 1) / 2;
	c->first_time_slice = true;
	pp->time_slice /= 2;
	if (!pp->time_slice) {
		/* sched_fork()'s scheduler_tick(): its stamp of the runqueue's
		 * tick clock (which task_hot() measures the queued tasks
		 * against), then the slice's expiry; its rebalance_tick is
		 * left out (domains.md, "Omitted") */
		pp->time_slice = 1;
		sd_rq(s, cpu)->timestamp_last_tick = sd_sched_clock(sim, s);
		sd_task_tick(sim, s, cpu, pp);
	}
	sd_fork_penalties(s, pp, c);

	bool away = !sl_cpumask_test(&child->allowed, cpu);
	if (away)
		cpu = sl_cpumask_first(&child->allowed);
	c->cpu = cpu;
	struct sd_rq *rq = sd_rq(s, cpu);
	bool last = s->v->thread_last && child->mm == parent->mm;
	bool same_class = child->sched_policy == parent->sched_policy &&
			  child->rt_priority == parent->rt_priority;
	if (away || !same_class) {
		/* forked with a class or a mask of its own: as
		 * sched_setscheduler / set_cpus_allowed on the new child (the
		 * kernel's fork has neither; the child would inherit, then be
		 * changed): at the tail of its priority, on any_online_cpu of
		 * its mask if the parent's CPU is not in it */
		c->prio = sd_effective_prio(s, c);
		sd_activate_quiet(s, rq, c);
		if ((!away && !last && s->v->child_first) || sd_preempts(sim, c, cpu))
			sl_resched(sim, cpu);
		return;
	}
	if (!pp->array || last) {
		/* at the tail of its own priority: a thread in 2.6.12 (run child
		 * last), or any child of a parent that is not queued */
		c->prio = sd_effective_prio(s, c);
		sd_activate_quiet(s, rq, c);
		if (!last && s->v->child_first)
			sl_resched(sim, cpu);
		return;
	}
	/* the child runs first: just in front of the parent, at its prio */
	if (c->static_prio == pp->static_prio || sd_rt(c)) {
		c->prio = pp->prio;	/* an RT child: the priority it shares */
		sl_prio_array_enqueue_before(pp->array, &c->run_list, &pp->run_list);
		c->array = pp->array;
	} else {
		int prio = pp->prio + c->static_prio - pp->static_prio;
		c->prio = prio < SL_MAX_RT_PRIO ? SL_MAX_RT_PRIO :
			  prio > SL_MAX_PRIO - 1 ? SL_MAX_PRIO - 1 : prio;
		sd_enqueue(pp->array, c);
	}
	sd_nr_add(s, rq->cpu, 1);
	if (s->v->child_first)
		sl_resched(sim, cpu);
}

void sd_exit(struct sl_sim *sim, struct sl_task *t)
{
	struct sd_sched *s = sd_state(sim);

	/* a pending exec migration or affinity move of t dies with it */
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (sd_rq(s, cpu)->migrate_task == t)
			sd_rq(s, cpu)->migrate_task = NULL;
	sd_cancel_affinity(s, sd_of(t));
}

/* sched_exit, called by release_task when the parent reaps t in wait()
 * (2.6.11 kernel/exit.c; 2.6.12.1 the same). */
void sd_release(struct sl_sim *sim, struct sl_task *t)
{
	struct sd_sched *s = sd_state(sim);
	struct sl_task *parent = t->parent;

	if (!parent || parent->state == SL_TASK_DEAD)
		return;
	struct sd_task *c = sd_of(t), *pp = sd_of(parent);
	/* a child that did not finish its first slice gives the rest back */
	if (c->first_time_slice) {
		/* 2.6.0 caps at MAX_TIMESLICE, 2.6.12.1 sched_exit() at the
		 * child's full slice */
		int cap = s->base_2612 ? sd_task_timeslice(s, c) : s->max_slice;
		pp->time_slice += c->time_slice;
		if (pp->time_slice > cap)
			pp->time_slice = cap;
	}
	/* a CPU-hog child makes the parent look less interactive too: each
	 * part divided before it is weighted, as 2.6.11's and 2.6.12.1's
	 * sched_exit() write it (two truncations, not one) */
	if (c->sleep_avg < pp->sleep_avg)
		pp->sleep_avg = pp->sleep_avg / (s->exit_weight + 1) * s->exit_weight +
				c->sleep_avg / (s->exit_weight + 1);
}

/* sys_sched_yield (2.6.0, 2.6.12): a SCHED_OTHER task moves to the expired
 * array; an RT task to the tail of its list in the active one. */
bool sd_yield(struct sl_sim *sim, struct sl_task *t)
{
	struct sd_sched *s = sd_state(sim);
	struct sd_task *p = sd_of(t);
	struct sd_rq *rq = sd_rq(s, p->cpu);

	if (!p->array)
		return true;
	sd_dequeue(p);
	sd_enqueue(sd_rt(p) ? rq->active : rq->expired, p);
	return true;
}

/* ---- constants ---- */

static int sd_ms_to_ticks(int ms, unsigned hz)
{
	int t = (int)((long long)ms * hz / 1000);

	return t > 0 ? t : 1;
}

int sd_sched_init(struct sd_sched *s, struct sl_err *err)
{
	const struct o1_version *v = o1_version_find("2.6.0");

	if (!v)
		return sl_fail_internal(err, "domains: the o1 version table has no 2.6.0 row");
	s->base_2612 = s->v->rules == SD_RULES_2612;
	if (s->base_2612) {
		/*
		 * 2.6.12.1 kernel/sched.c with mainline's DEF_TIMESLICE (100 ms;
		 * that tree's vendor edit has 40) and PRIO_BONUS_RATIO (25, as
		 * 2.6.0; the vendor tree has 3).  MIN_TIMESLICE 5 ms, the
		 * round-robin unit GRANULARITY 10 ms.
		 */
		s->def_slice = sd_ms_to_ticks(100, s->hz);
		s->min_slice = sd_ms_to_ticks(5, s->hz);
		s->max_slice = s->def_slice * 8;
		s->granularity = sd_ms_to_ticks(10, s->hz);
	} else {
		s->min_slice = sd_ms_to_ticks(v->min_timeslice_ms, s->hz);
		s->max_slice = sd_ms_to_ticks(v->max_timeslice_ms, s->hz);
		if (s->max_slice < s->min_slice)
			s->max_slice = s->min_slice;
		s->def_slice = sd_timeslice_of(s, SD_NICE0_PRIO);
		s->granularity = s->min_slice;
	}
	s->max_bonus = SD_MAX_USER_PRIO * v->prio_bonus_ratio / 100;
	s->interactive_delta = v->interactive_delta;
	/* MAX_SLEEP_AVG = DEF_TIMESLICE (2.6.0: AVG_TIMESLICE) * MAX_BONUS;
	 * STARVATION_LIMIT the same */
	s->max_sleep_avg = (int64_t)sd_timeslice_of(s, SD_NICE0_PRIO) * s->max_bonus;
	s->starvation_limit = s->max_sleep_avg;
	s->child_penalty = v->child_penalty;
	s->parent_penalty = v->parent_penalty;
	s->exit_weight = v->exit_weight;
	s->on_runqueue_weight = v->on_runqueue_weight;
	s->credit_limit = v->credit_limit;
	return 0;
}
