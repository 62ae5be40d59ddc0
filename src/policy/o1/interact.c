/*
 * o1/interact.c - timeslices and interactivity of the O(1) scheduler: the
 * slice by static priority, the dynamic priority from sleep_avg (the 2.5.x
 * jiffies estimator and Con Kolivas' ns estimator of 2.6.0 with its
 * interactive credit, its "just interactive" cap for long and for
 * uninterruptible sleeps, and its run-time charge), TASK_INTERACTIVE,
 * EXPIRED_STARVING, TIMESLICE_GRANULARITY and the fork and exit penalties.
 *
 * Sources: 2.6.0 kernel/sched.c (task_timeslice, effective_prio,
 * recalc_task_prio, the activated values, INTERACTIVE_SLEEP, CREDIT_LIMIT,
 * EXPIRED_STARVING, wake_up_forked_process, sched_exit); a 2.5.6x
 * kernel/sched.c, the "-" side of Ingo Molnar's sched-2.5.68-A9, LKML
 * <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com>
 * (activate_task: the sleep credit, the overflow passed to the waker and
 * requeue_waker); the 2.5.59 constants in Rick Lindsley's split of D7
 * (Martin J. Bligh, LKML, 13 Feb 2003, <7790000.1045177072@[10.10.2.4]>).
 * Docs: docs/policies/o1.md.
 *
 * Choices where the sources are uncertain:
 *   - 2.6.0's uninterruptible cap: a task woken from an uninterruptible
 *     sleep (the engine's t->uninterruptible: IO_WAIT) without high credit
 *     raises its sleep_avg at most to INTERACTIVE_SLEEP(p) and gets no
 *     "long sleeper" treatment, as recalc_task_prio of 2.6.0 has it with
 *     activated == -1.
 *
 * RT tasks (SCHED_FIFO, SCHED_RR) have prio MAX_USER_RT_PRIO-1 - rt_priority
 * (2.6.0 and 2.6.11 setscheduler / __setscheduler; effective_prio returns
 * it unchanged); their timeslice is still task_timeslice by static_prio (the
 * RR quantum) and sleep_avg is kept as for any task, without effect.
 *
 * Omitted / simplified:
 *   - 2.5.68's in_interrupt() test for passing credit to the waker: the
 *     wakeups the engine marks as made in interrupt context (a timer's, a
 *     disk completion's, loopback TCP's: SL_WAKE_IRQ, o1.md
 *     "in_interrupt()") are an interrupt's; a wakeup with no task running
 *     on the waker's CPU (an exit noticed after the switch) passes nothing.
 *   - 2.6.0's in_interrupt() test: those wakeups count as interrupt
 *     wakeups (activated = 2), any other as a task wakeup (1).
 */
#include "policy/kernel_arch.h"
#include "policy/o1/core.h"
#include "policy/timeslice_rr.h"
#include "sim/sim.h"

/* ---- timeslices (2.2) ---- */

int o1_timeslice_of(const struct o1 *s, int static_prio)
{
	return s->min_slice + (s->max_slice - s->min_slice) *
		(SL_MAX_PRIO - 1 - static_prio) / (O1_MAX_USER_PRIO - 1);
}

int o1_task_timeslice(const struct o1 *s, const struct o1_task *p)
{
	return o1_timeslice_of(s, p->static_prio);
}

/* ---- the bonus (2.3) ---- */

int o1_max_bonus(const struct o1 *s)
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

int o1_effective_prio(const struct o1 *s, const struct o1_task *p)
{
	/* what __setscheduler set and effective_prio keeps for RT tasks */
	if (sl_task_rt(p->task))
		return SL_MAX_RT_PRIO - 1 - p->task->rt_priority;
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

bool o1_task_interactive(const struct o1 *s, const struct o1_task *p)
{
	return p->prio <= p->static_prio - o1_delta(s, p);
}

bool o1_expired_starving(const struct o1 *s, const struct o1_rq *rq, uint64_t now_j)
{
	return s->starvation_limit && rq->expired_timestamp >= 0 &&
	       (int64_t)now_j - rq->expired_timestamp >=
		       s->starvation_limit * rq->nr_running + 1;
}

/* ---- 2.5.x: sleep in jiffies ---- */

bool o1_credit_sleep_jiffies(const struct o1 *s, struct o1_task *p, struct o1_task *waker,
			     uint64_t now_j)
{
	int64_t sleep_time = (int64_t)now_j - p->last_run - s->cfg.v->sleep_credit_offset;
	bool requeue = false;

	if (sleep_time <= 0)
		return false;
	int64_t avg = p->sleep_avg + sleep_time;
	if (avg > s->max_sleep_avg) {
		/* 2.5.68: the overflow is not lost but boosts the waker, so
		 * that tasks related to interactive ones gain too */
		if (s->cfg.v->requeue_waker && waker) {
			int64_t w = waker->sleep_avg + avg - s->max_sleep_avg;
			if (w > s->max_sleep_avg)
				w = s->max_sleep_avg;
			if (w != waker->sleep_avg) {
				waker->sleep_avg = w;
				requeue = true;
			}
		}
		avg = s->max_sleep_avg;
	}
	/* the priority is recomputed only if sleep_avg changed */
	if (avg != p->sleep_avg) {
		p->sleep_avg = avg;
		p->prio = o1_effective_prio(s, p);
	}
	return requeue;
}

void o1_requeue_waker(const struct o1 *s, struct o1_task *waker)
{
	struct sl_prio_array *array = waker->array;

	if (!array)
		return;		/* already off its runqueue */
	o1_dequeue(waker);
	waker->prio = o1_effective_prio(s, waker);
	o1_enqueue(array, waker);
}

/* ---- 2.6.0: sleep in ns, with credits ---- */

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

/* The sleep credit of a task that is not a long sleeper (2.6.0). */
static sl_time o1_scaled_sleep(const struct o1 *s, struct o1_task *p, sl_time sleep_time)
{
	bool user = !p->task->kthread;
	/* the lower sleep_avg is, the faster sleep raises it */
	int mult = o1_max_bonus(s) - o1_current_bonus(s, p);
	/* an unsigned long: on i386 a sleep over 429 ms at bonus 0 wraps,
	 * and the task gets the remainder (ulong) */
	sleep_time = sl_kernel_ulong(s->cfg.ulong_bits, sleep_time * (mult ? mult : 1));
	/* low credit: at most one timeslice worth */
	sl_time slice_ns = o1_task_timeslice(s, p) * s->tick_ns;
	if (o1_low_credit(s, p) && sleep_time > slice_ns)
		sleep_time = slice_ns;
	/* uninterruptible sleepers (likely hogs waiting on I/O): at most
	 * just interactive */
	if (p->activated == -1 && !o1_high_credit(s, p) && user) {
		sl_time cap = o1_interactive_sleep(s, p);
		if (p->sleep_avg >= cap) {
			sleep_time = 0;
		} else if (sl_kernel_ulong(s->cfg.ulong_bits, p->sleep_avg + sleep_time) >= cap) {
			p->sleep_avg = cap;
			sleep_time = 0;
		}
	}
	return sleep_time;
}

void o1_recalc_task_prio(const struct o1 *s, struct o1_task *p, sl_time now)
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
			/* first: an uninterruptible sleeper's credit may set
			 * sleep_avg to the cap itself (and return 0), which
			 * the sum must read */
			sl_time credit = o1_scaled_sleep(s, p, sleep_time);
			p->sleep_avg = sl_kernel_ulong(s->cfg.ulong_bits, p->sleep_avg + credit);
			if (p->sleep_avg > max_avg) {
				p->sleep_avg = max_avg;
				if (!o1_high_credit(s, p))
					p->interactive_credit++;
			}
		}
	}
	p->prio = o1_effective_prio(s, p);
}

void o1_charge_run_time(const struct o1 *s, struct o1_task *p, sl_time now)
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

/* 2.6.0: interactive tasks round-robin within their priority every
 * TIMESLICE_GRANULARITY (times the number of CPUs on SMP). */
int o1_granularity(const struct o1 *s, const struct o1_task *p)
{
	return sl_timeslice_rr_granularity(o1_granularity_base(s),
					   o1_max_bonus(s) - o1_current_bonus(s, p));
}

/* ---- fork and exit ---- */

void o1_fork_penalties(const struct o1 *s, struct o1_task *pp, struct o1_task *c)
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

/* A CPU-hog child makes the parent look less interactive too. */
void o1_exit_penalty(const struct o1 *s, struct o1_task *pp, const struct o1_task *c)
{
	int w = s->cfg.v->exit_weight;

	if (c->sleep_avg < pp->sleep_avg)
		pp->sleep_avg = (pp->sleep_avg * w + c->sleep_avg) / (w + 1);
}
