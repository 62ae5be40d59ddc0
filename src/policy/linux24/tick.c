/*
 * linux24/tick.c - update_process_times(): the tick counts the running
 * task's quantum down, and one taken while interrupts are off (inside
 * schedule(), a wakeup, __schedule_tail) counts on the task in whose context
 * it is taken at the unlock (2.4.27 kernel/timer.c, kernel/sched.c).
 */
#include "policy/linux24/linux24.h"

/* update_process_times() on p: one tick off its quantum; at 0 it is
 * rescheduled where it runs (FIFO is priority preemption, not a quantum).
 * A tick deferred into the schedule() that switched p out finds it on no
 * CPU: the flag stays with p, as p->need_resched does in the kernel. */
static void linux24_count_tick(struct sl_sim *sim, struct linux24_task *p)
{
	struct linux24 *s = linux24_state(sim);

	--p->counter;
	if (p->counter < 0)
		p->counter = 0;
	linux24_touch(s, p);
	if (p->counter > 0)
		return;
	if (p->task->sched_policy == SL_SCHED_FIFO)
		return;
	if (p->has_cpu >= 0)
		linux24_resched(sim, p->has_cpu);
	else
		p->need_resched = true;
}

void linux24_tick(struct sl_sim *sim, int cpu)
{
	struct linux24 *s = linux24_state(sim);

	/* A tick while this CPU is still inside the schedule() that switched
	 * prev out (spinning on runqueue_lock or scanning, interrupts off) is
	 * taken at the unlock, still in prev's context: it counts down prev's
	 * quantum, not the next task's (2.4.27 schedule(): spin_lock_irq ...
	 * spin_unlock_irq before switch_to), and only one is taken there (the
	 * timer interrupt stays pending while they are off).  Without this a
	 * CPU that waited longer than a quantum for the lock switched in a
	 * task whose counter ran out before it ran: on 1,024 CPUs a
	 * hackbench never made progress again.  The same holds for the
	 * stretches of a wakeup and of __schedule_tail (linux24_irqs_off),
	 * in the running task's context: without it a waker spinning for the
	 * lock lost its whole quantum in one wakeup. */
	if (sl_now(sim) < s->sched_end[cpu]) {
		struct linux24_task *prev = s->sched_prev[cpu];
		if (prev) {
			linux24_defer_tick_to(s, cpu, NULL);
			linux24_count_tick(sim, prev);
		}
		return;
	}
	if (sl_now(sim) < s->irqs_off_end[cpu]) {
		if (s->irqs_off_ticked[cpu])
			return;
		s->irqs_off_ticked[cpu] = true;
	}
	struct sl_task *t = s->curr[cpu];
	if (t)
		linux24_count_tick(sim, linux24_of(t));
	else
		sl_tick_stop(sim, cpu);	/* until it picks a task */
}
