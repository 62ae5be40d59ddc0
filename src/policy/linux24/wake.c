/*
 * linux24/wake.c - where a woken or forked task goes: try_to_wake_up()
 * queues it and reschedule_idle() pokes a CPU (its own idle one, a whole
 * idle package with the HT tweak, the least recently active idle CPU, or
 * the one it would preempt most), under runqueue_lock with interrupts off;
 * do_fork() splits the parent's counter (2.4.27 kernel/sched.c,
 * kernel/fork.c).
 */
#include "policy/linux24/linux24.h"

/* How much better p would be than the task running on cpu (> 0: preempt). */
static int linux24_preemption_goodness(const struct linux24 *s, const struct linux24_task *running,
				       const struct linux24_task *p, int cpu)
{
	int mm = s->active_mm[cpu];

	return linux24_goodness(s, p, cpu, mm) - linux24_goodness(s, running, cpu, mm);
}

static bool linux24_siblings_idle(const struct linux24 *s, int cpu)
{
	const sl_cpumask *sib = sl_topo_siblings(s->topo, cpu);

	sl_for_each_cpu(c, sib)
		if (c != cpu && s->curr[c])
			return false;
	return true;
}

/* Set need_resched on `cpu`.  An idle CPU halted in the idle loop (2.4.27
 * default_idle: hlt unless need_resched) is woken by the IPI or by its
 * next timer interrupt, whichever comes first: so its tick runs again. */
void linux24_resched(struct sl_sim *sim, int cpu)
{
	sl_resched(sim, cpu);
	sl_tick_restart(sim, cpu);
}

/*
 * reschedule_idle(): find a CPU for p and poke it.  The poked CPU then runs
 * a full goodness scan, so p is not bound to it.  Returns the number of
 * CPUs looked at, for the cost.
 */
int linux24_reschedule_idle(struct sl_sim *sim, struct linux24 *s,
			    struct linux24_task *p)
{
	int best = p->processor;

	/* fast path: p's own last CPU is idle, its cache is p's */
	if (best >= 0 && linux24_can_schedule(p, best) && !s->curr[best]) {
		linux24_resched(sim, best);
		return 1;
	}

	bool smt = s->ht_tweak && s->topo->threads_per_core >= 2;
	bool found_idle = false;
	sl_time oldest = SL_TIME_MAX;
	int target = -1, max_prio = 0, looked = 1;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		if (!linux24_can_schedule(p, cpu))
			continue;
		looked++;
		struct sl_task *running = s->curr[cpu];
		if (!running) {
			/* a whole idle package beats a half-busy one: no sharing */
			if (smt && linux24_siblings_idle(s, cpu)) {
				target = cpu;
				found_idle = true;
				break;
			}
			/* least recently active: the least of its cache is worth keeping */
			if (!found_idle || s->last_schedule[cpu] < oldest) {
				oldest = s->last_schedule[cpu];
				target = cpu;
				found_idle = true;
			}
		} else if (!found_idle) {
			int prio = linux24_preemption_goodness(s, linux24_of(running), p, cpu);
			if (prio > max_prio) {
				max_prio = prio;
				target = cpu;
			}
		}
	}
	if (target >= 0)
		linux24_resched(sim, target);
	return looked;
}

/*
 * cpu keeps interrupts off for `len` from now, in the context of the task
 * running there (runqueue_lock taken with interrupts off in
 * try_to_wake_up, __schedule_tail and sys_sched_yield, linux24_locked:
 * the spin and the hold; schedule() keeping prev: its whole work).  The timer interrupt stays
 * pending meanwhile and is taken once, at the unlock: the first tick
 * inside counts down that task's quantum, the others are lost
 * (linux24_tick).  A stretch that begins inside another (charges queued
 * at one instant: a wake_up's wakeups under its wait queue's irqsave)
 * extends it: one stretch, one tick.
 */
void linux24_irqs_off(struct sl_sim *sim, struct linux24 *s, int cpu, sl_time len)
{
	sl_time now = sl_now(sim);

	if (now >= s->irqs_off_end[cpu]) {
		s->irqs_off_end[cpu] = now + len;
		s->irqs_off_ticked[cpu] = false;
	} else if (now + len > s->irqs_off_end[cpu]) {
		s->irqs_off_end[cpu] = now + len;
	}
}

/* `hold` of work on cpu under runqueue_lock taken with interrupts off
 * (spin_lock_irq/irqsave): the spin for it, the hold, one stretch. */
void linux24_locked(struct sl_sim *sim, struct linux24 *s, int cpu, sl_time hold)
{
	sl_time wait = sl_charge_locked(sim, cpu, &s->runqueue_lock, hold);

	linux24_irqs_off(sim, s, cpu, wait + hold);
}

/* try_to_wake_up(), for a wakeup and for do_fork's wake_up_process():
 * queue, then place. */
static void linux24_activate(struct sl_sim *sim, struct linux24 *s, struct linux24_task *p,
			     int this_cpu, bool sync)
{
	int looked = 0;

	linux24_add_to_runqueue(s, p);
	/* a sync waker is about to sleep: its own CPU will pick p up */
	if (!sync || !sl_cpumask_test(&p->task->allowed, this_cpu))
		looked = linux24_reschedule_idle(sim, s, p);
	linux24_locked(sim, s, this_cpu, (1 + looked) * s->scan_ns);
}

void linux24_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child)
{
	struct linux24 *s = linux24_state(sim);
	struct linux24_task *c = linux24_of(child);

	c->task = child;
	c->has_cpu = -1;
	c->prev_of = -1;
	linux24_sync(s, c);
	if (!parent) {
		/* CPU 0, or the first it may run on (a pinned benchmark) */
		int cpu = sl_cpumask_test(&child->allowed, 0) ? 0 : sl_cpumask_first(&child->allowed);
		c->counter = linux24_nice_to_ticks(s, child->nice);
		c->processor = cpu;
		linux24_add_to_runqueue(s, c);
		linux24_resched(sim, cpu);
		return;
	}

	/* the quantum is split so that forking cannot create CPU time */
	struct linux24_task *p = linux24_of(parent);
	c->counter = (p->counter + 1) / 2;
	p->counter /= 2;
	linux24_touch(s, p);
	if (!p->counter)
		linux24_resched(sim, parent->cpu);
	c->processor = p->processor;
	linux24_activate(sim, s, c, parent->cpu, false);
}

void linux24_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu,
		    unsigned flags)
{
	struct linux24 *s = linux24_state(sim);
	struct linux24_task *p = linux24_of(t);

	if (waker_cpu < 0)
		waker_cpu = p->processor >= 0 ? p->processor : 0;
	linux24_activate(sim, s, p, waker_cpu, flags & SL_WAKE_SYNC);
}
