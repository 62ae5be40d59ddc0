/*
 * timers.c - when a task's timed sleep ends: the kernel's timers, which
 * the policy chooses as it chooses its HZ (sim.h sl_set_timers).
 *
 * A SLEEP stands for a modelled wait (a replayed trace's recorded sleeps;
 * IO_WAIT, uninterruptible, kernbench's disk time) and ends exactly when
 * asked.  A NANOSLEEP is a
 * sleep on the kernel's timer (nanosleep, usleep, rt-app's period), and
 * ends where the policy's kernel fired that timer:
 *
 *   JIFFY: 2.4.27 and 2.6.12.1 kernel/timer.c sys_nanosleep asks
 *     schedule_timeout() for timespec_to_jiffies(t) + (t != 0) jiffies
 *     (rounded up, and one more for the part of this jiffy already gone),
 *     and the timer runs when its wheel is run with jiffies at or past
 *     the expiry:
 *     - 2.5/2.6 (per-CPU wheels, run_local_timers from each CPU's tick):
 *       by the sleeping CPU's first tick of that jiffy or later, in the
 *       timer softirq, after the tick's scheduler_tick;
 *     - 2.4 (global_list: one list, run by TIMER_BH, which do_timer marks
 *       in IRQ0's handler): at the jiffy's start, on CPU 0, the CPU IRQ0
 *       is routed to here (the IO-APIC may route it elsewhere; nothing in
 *       the model depends on which);
 *     - 2.4 also busy-waits a real-time task's sleep of 2 ms or less
 *       (udelay), and the task never sleeps.
 *     The softirq or bottom half runs after the hardirq that ticked: the
 *     wakeup comes 1 ns after the tick, so that the tick event at the same
 *     instant comes first.  An absolute clock_nanosleep (rt-app's period)
 *     is taken as a relative sleep of what is left: 2.6.12
 *     posix-timers.c common_nsleep rounds it to jiffies alike.
 *   HRTIMER: 6.12 hrtimer_nanosleep arms the timer for [t, t + slack],
 *     slack the task's timer_slack_ns (50 us from init_task; 0 for
 *     real-time and deadline tasks: kernel/sched/syscalls.c
 *     __setscheduler_params), on the sleeping CPU (a non-idle CPU is
 *     its own nohz timer target).  The CPU's timers wait in the order of
 *     their hard expiry (timerqueue_add: equal expiries in arming order),
 *     and the hardware timer is programmed for the first.  Whatever hrtimer
 *     interrupt the CPU takes - that expiry, its tick (tick_sched_timer, an
 *     hrtimer itself while high resolution is on), a scheduler hrtimer of
 *     the policy - runs __hrtimer_run_queues: from the head, every timer
 *     whose soft expiry t has passed expires, up to the first one that has
 *     not (its `break`: a later one behind it waits even if its own t has
 *     passed, which only a slack-0 timer among them can cause).  So a sleep
 *     ends at t + slack unless a tick or another sleep's timer of the CPU
 *     comes inside its range first (at HZ 250 a busy CPU's tick lands in a
 *     50 us range once in 80 sleeps; sleeps of about equal length on one
 *     CPU end together).  The wakeups come after the tick's
 *     scheduler_tick or the policy's timer handler (later expiries, one
 *     interrupt), before the interrupt's exit reschedules.
 *   EXACT: at t.  No kernel; what-ifs, and the engine's default so that a
 *     policy that says nothing keeps exact sleeps.
 */
#include "sim/internal.h"

void sl_set_timers(struct sl_sim *sim, const struct sl_timers *timers)
{
	sim->timers = *timers;
}

void sl_set_timers_as(struct sl_sim *sim, struct sl_timers timers, int kind_choice)
{
	timers.kind = (enum sl_timer_kind)kind_choice;
	sl_set_timers(sim, &timers);
}

/* JIFFY: the jiffy a sleep of ns asked for now expires in.
 * timespec_to_jiffies rounds up against TICK_NSEC where the kernel has it
 * (2.6.11 and 2.6.12.1 include/linux/jiffies.h: the PIT's real period,
 * 999,848 ns at HZ 1000 on i386, so n whole ms are n + 1 jiffies); its
 * fixed-point form is taken as the ceiling it stands for. */
static int64_t jiffy_expiry(const struct sl_sim *sim, sl_time ns)
{
	sl_time per = sim->timers.jiffy_nsec > 0 ? sim->timers.jiffy_nsec : sim->tick_ns;
	int64_t now_j = sim->now / sim->tick_ns;
	int64_t want = (ns + per - 1) / per;	/* timespec_to_jiffies */

	return now_j + want + (ns > 0);
}

/* SH_DIV of 2.6.12.1 include/linux/jiffies.h: nom / den << lsh, rounded. */
static uint64_t sh_div(uint64_t nom, uint64_t den, unsigned lsh)
{
	return ((nom / den) << lsh) + (((nom % den) << lsh) + den / 2) / den;
}

sl_time sl_tick_nsec(uint64_t clock_tick_rate, unsigned hz)
{
	uint64_t latch = (clock_tick_rate + hz / 2) / hz;
	uint64_t acthz = sh_div(clock_tick_rate, latch, 8);

	return (sl_time)sh_div(1000000000ULL, acthz, 8);
}

sl_time sl__nanosleep_wait(const struct sl_sim *sim, int cpu, const struct sl_task *t,
			  sl_time ns, int *waker_cpu)
{
	const struct sl_timers *tm = &sim->timers;

	*waker_cpu = cpu;
	if (ns < 0)
		ns = 0;
	switch (tm->kind) {
	case SL_TIMERS_EXACT:
		break;
	case SL_TIMERS_HRTIMER:
		if (!sl_task_rt(t) && t->sched_policy != SL_SCHED_DEADLINE)
			ns += tm->slack_ns;
		break;
	case SL_TIMERS_JIFFY: {
		if (sl_task_rt(t) && ns <= tm->rt_busywait_ns)
			return -1;
		if (ns > SL_TIME_HORIZON)	/* beyond any run: sl__after bounds it */
			break;
		int64_t expires = jiffy_expiry(sim, ns);
		sl_time at;
		if (tm->global_list) {
			/* the first IRQ0 at or after the expiry, strictly after now */
			int64_t j = expires > sim->now / sim->tick_ns ? expires
								     : sim->now / sim->tick_ns + 1;
			at = (sl_time)j * sim->tick_ns;
			*waker_cpu = 0;
		} else {
			/* the sleeping CPU's first tick in that jiffy or later,
			 * strictly after now */
			at = (sl_time)expires * sim->tick_ns + sl_tick_phase(sim, cpu);
			sl_time next = sl_next_tick(sim, cpu);
			if (at < next)
				at = next;
		}
		return at + 1 - sim->now;	/* the softirq after the tick */
	}
	}
	return ns;
}

/* ---- HRTIMER: each CPU's armed sleeps, by hard expiry ---- */

void sl__hrtimer_arm(struct sl_sim *sim, int cpu, struct sl_task *t, sl_time ns)
{
	if (sim->timers.kind != SL_TIMERS_HRTIMER)
		return;
	struct sl_dlist *armed = &sim->cpus[cpu].hrtimers;
	sl_time hard = t->timer.time;
	struct sl_dlink *after = armed->tail;

	/* mostly at the tail: sleeps of one length are armed in expiry order */
	while (after && sl__hrtimer_task(after)->timer.time > hard)
		after = after->prev;
	t->hrt_soft = sl__after(sim, ns > 0 ? ns : 0);
	sl_dlist_insert_after(armed, after, &t->hrt_link);
}

void sl__hrtimer_disarm(struct sl_sim *sim, struct sl_task *t)
{
	if (t->hrt_soft < 0)
		return;
	sl_dlist_del(&sim->cpus[t->timer.cpu].hrtimers, &t->hrt_link);
	t->hrt_soft = -1;
}

void sl__hrtimer_interrupt(struct sl_sim *sim, int cpu)
{
	const struct sl_dlist *armed = &sim->cpus[cpu].hrtimers;
	struct sl_task *t;

	while ((t = sl__hrtimer_task(armed->head)) && t->hrt_soft <= sim->now && !sim->stopped) {
		sl__hrtimer_disarm(sim, t);
		sl__wake(sim, t, cpu, SL_WAKE_TIMER | SL_WAKE_IRQ);	/* and its event off */
	}
}
