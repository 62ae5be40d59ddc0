/*
 * cfs/rt_bw.c - what keeps a spinning real-time task from starving the
 * fair tasks of its CPU: 6.12's fair server (rt_bandwidth=server, the
 * default) or the RT throttling of 2.6.25-6.11 (rt_bandwidth=throttle).
 *
 * 6.12 (kernel/sched/rt.c, deadline.c, fair.c): with
 * CONFIG_RT_GROUP_SCHED=n, its default, rt.c no longer accounts rt_time
 * (update_curr_rt does only under RT_GROUP_SCHED; sched_rt_do_global is
 * empty) and sched_rt_runtime_us (950000 of sched_rt_period_us 1000000)
 * only bounds SCHED_DEADLINE admission.  Fair tasks are protected by the
 * per-CPU fair server instead: a SCHED_DEADLINE reservation of 50 ms
 * every 1 s (dl_server_start's defaults, fair_server runtime / period in
 * debugfs) in defer mode.  While fair tasks are queued it waits; the time
 * they run anyway is taken from its runtime (update_curr ->
 * dl_server_update), and once that is used up the server is not needed
 * for this period and starts a new one (replenish_dl_new_period).  Idle
 * time is taken too (dl_server_update_idle_time), but using the runtime up
 * so only zeroes it and ends a service: the deadline stays, and the defer
 * timer fires at it (deadline - 0), where the runtime is replenished.  If
 * they are still starved at the zero-laxity time, deadline - runtime
 * (dl_server_timer), it starts running (dl_defer_running), in a new
 * period from then when runtime is left (replenish_dl_entity: the armed
 * defer overflows, dl_entity_overflow): as a deadline entity, above every
 * RT task, it runs the fair tasks for its runtime, is throttled to its
 * deadline, is replenished (deadline += period) and runs again, until the
 * fair tasks get their runtime without it (then it defers again).  A
 * restart (dl_server_start -> update_dl_entity) starts a new period if
 * the deadline passed or the runtime overflows it; a server stopped while
 * serving still has dl_defer_running and serves at once, rescheduling the
 * RT task (resched_curr).  A FIFO task
 * spinning beside a fair one gets 95 %, the fair task 5 %; alone, the RT
 * task gets 100 %.
 *
 * Before 6.12 (and 6.12 with RT_GROUP_SCHED=y) each CPU's rt_rq counted
 * its RT run time (update_curr_rt: rt_time += delta) and was throttled,
 * every RT task of the CPU held off, once rt_time passed sched_rt_runtime
 * (sched_rt_runtime_exceeded); the period timer (do_sched_rt_period_timer)
 * took rt_runtime off rt_time each period and unthrottled.  The CPU then
 * runs fair tasks, or idles; its throttled RT tasks are out of
 * rq->nr_running meanwhile (sched_rt_rq_dequeue -> dequeue_top_rt_rq), so
 * it is idle to the balancer (cfs_rtbw_throttle).  RT_RUNTIME_SHARE (borrowing runtime from
 * other CPUs of the root domain, balance_runtime) is off by default since
 * 5.1 (features.h), and is not modelled.
 *
 * The kernel's hrtimers (the server's defer and replenishment timers, the
 * RT period timer) are the engine's (sl_hrtimer_start): they fire at their
 * time on a CPU whose tick is stopped too.  What uses the runtime up is
 * seen where the kernel sees it, at update_curr (the tick, a schedule()).
 *
 * Simplified: the RT period timer runs in periods counted from the start
 * of the run, not from the first RT wakeup, and sleeps while no CPU has RT
 * time to pay back (the kernel's stays armed while an RT task is queued,
 * to no effect); the server's timers are set only while an RT task is
 * queued on its CPU (without one the fair tasks are not starved and the
 * server's timers change nothing); the server's runtime is not scaled by
 * capacity or frequency (GRUB off).
 */
#include "policy/cfs/cfs.h"
#include "sim/sim.h"

/* ---- the fair server ---- */

/* Set (or clear) cpu's server timer from the server's state: the defer
 * timer at the zero-laxity time, deadline - runtime, while it waits with
 * runtime left (dl_server_timer -> dl_defer_running); the replenishment
 * timer at its deadline while it is throttled (dl_task_timer). */
static void cfs_fs_arm(struct cfs *s, int cpu)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;
	sl_time at = -1;

	if (rt->nr_running && rt->fs_active) {
		if (!rt->fs_running && rt->fs_runtime >= 0)
			at = rt->fs_deadline - rt->fs_runtime;
		else if (rt->fs_running && rt->fs_runtime <= 0)
			at = rt->fs_deadline;
	}
	sl_time now = sl_now(s->sim);
	if (at >= 0 && at < now)
		at = now;	/* overdue: the timer fires at once */
	if (at == sl_hrtimer_expires(s->sim, cpu, CFS_HRT_SERVER))
		return;
	if (at < 0)
		sl_hrtimer_cancel(s->sim, cpu, CFS_HRT_SERVER);
	else
		sl_hrtimer_start(s->sim, cpu, CFS_HRT_SERVER, at);
}

static void cfs_fs_new_period(struct cfs *s, struct cfs_rt_rq *rt, sl_time now)
{
	rt->fs_deadline = now + s->fs_period;
	rt->fs_runtime = s->fs_runtime;
}

/* dl_entity_overflow(): whether the runtime left cannot be used by the
 * deadline without exceeding the server's bandwidth, runtime / (deadline
 * - now) > runtime_max / period, in the kernel's arithmetic (both sides
 * scaled down by DL_SCALE = 10 bits, unsigned, compared as dl_time_before:
 * a negative runtime overflows). */
static bool cfs_fs_overflow(const struct cfs *s, const struct cfs_rt_rq *rt, sl_time now)
{
	uint64_t left = ((uint64_t)s->fs_period >> 10) * (uint64_t)(rt->fs_runtime >> 10);
	uint64_t right = ((uint64_t)(rt->fs_deadline - now) >> 10) *
			 ((uint64_t)s->fs_runtime >> 10);

	return (int64_t)(right - left) < 0;
}

/* The server's timers, brought up to now. */
static void cfs_fs_update(struct cfs *s, struct cfs_rt_rq *rt, sl_time now)
{
	if (rt->fs_running && rt->fs_runtime <= 0 && now >= rt->fs_deadline) {
		/* replenish_dl_entity(): throttled until its deadline */
		while (rt->fs_runtime <= 0) {
			rt->fs_deadline += s->fs_period;
			rt->fs_runtime += s->fs_runtime;
		}
		if (rt->fs_deadline < now)
			cfs_fs_new_period(s, rt, now);
	}
	if (!rt->fs_running && rt->fs_active && rt->fs_runtime >= 0 &&
	    now >= rt->fs_deadline - rt->fs_runtime) {
		/* the defer timer: still starved (dl_server_timer ->
		 * replenish_dl_entity).  With runtime left, the armed defer
		 * overflows (runtime / (deadline - now) = 1 here): a new
		 * period from now, "a deferred reservation that was not able
		 * to consume its runtime in background"; a runtime idle time
		 * used up is replenished at its deadline */
		if (cfs_fs_overflow(s, rt, now)) {
			cfs_fs_new_period(s, rt, now);
		} else if (rt->fs_runtime == 0) {
			rt->fs_deadline += s->fs_period;
			rt->fs_runtime = s->fs_runtime;
		}
		if (rt->fs_deadline < now)	/* "lagged too much" */
			cfs_fs_new_period(s, rt, now);
		rt->fs_running = true;
	}
}

/* Fair tasks ran, or the CPU idled, for delta. */
static void cfs_fs_consume(struct cfs *s, struct cfs_rt_rq *rt, sl_time now, sl_time delta)
{
	if (rt->acct == CFS_ACCT_IDLE) {
		/* dl_server_update_idle_time(): idle time comes off the
		 * runtime too, but using it up only zeroes it and ends a
		 * service; the deadline stays (no new period) */
		if (rt->fs_runtime >= 0) {
			rt->fs_runtime -= delta;
			if (rt->fs_runtime < 0) {
				rt->fs_running = false;
				rt->fs_runtime = 0;
			}
		}
		return;
	}
	if (!rt->fs_running) {
		/* deferred: what the fair tasks got without it counts */
		rt->fs_runtime -= delta;
		if (rt->fs_runtime <= 0)
			cfs_fs_new_period(s, rt, now);
	} else if (rt->fs_runtime > 0) {
		rt->fs_runtime -= delta;	/* serving; may end throttled */
	} else {
		/* throttled, yet the fair tasks ran: not starved any more */
		rt->fs_running = false;
		cfs_fs_new_period(s, rt, now);
	}
}

static void cfs_fs_check(struct cfs *s, int cpu);

void cfs_rtbw_fair_queued(struct cfs *s, int cpu, bool any)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;
	sl_time now = sl_now(s->sim);

	if (s->rt_bw != CFS_RTBW_SERVER || rt->fs_active == any)
		return;
	cfs_rtbw_account(s, cpu, rt->acct);
	rt->fs_active = any;
	/* dl_server_start -> update_dl_entity(): a past deadline, or a
	 * runtime the deadline left cannot take (dl_entity_overflow), starts
	 * a new period; the server then defers, unless it was serving when
	 * it stopped (dl_defer_running outlives dl_server_stop): then it
	 * serves at once, and dl_server_start's resched_curr preempts the
	 * RT task (cfs_fs_check) */
	if (any && (now >= rt->fs_deadline || cfs_fs_overflow(s, rt, now)))
		cfs_fs_new_period(s, rt, now);
	cfs_fs_arm(s, cpu);
	if (any)
		cfs_fs_check(s, cpu);
}

bool cfs_rtbw_fair_first(struct cfs *s, int cpu)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;

	if (s->rt_bw != CFS_RTBW_SERVER || !rt->fs_active)
		return false;
	cfs_fs_update(s, rt, sl_now(s->sim));
	return rt->fs_running && rt->fs_runtime > 0;
}

/* ---- RT throttling ---- */

bool cfs_rtbw_rt_throttled(const struct cfs *s, int cpu)
{
	return s->rt_bw == CFS_RTBW_THROTTLE && s->rq[cpu].rt.throttled;
}

/* start_rt_bandwidth(): RT time to pay back sets the period timer, at the
 * end of the current period. */
static void cfs_rt_period_arm(struct cfs *s, sl_time now)
{
	if (sl_hrtimer_queued(s->sim, 0, CFS_HRT_RT_PERIOD))
		return;
	while (now >= s->rt_period_end)	/* no CPU had RT time to pay back */
		s->rt_period_end += s->rt_period;
	sl_hrtimer_start(s->sim, 0, CFS_HRT_RT_PERIOD, s->rt_period_end);
}

/* sched_rt_rq_dequeue() / sched_rt_rq_enqueue() at a throttle and its end:
 * the CPU's RT tasks leave rq->nr_running and come back (cfs_nr_all), so
 * the groups' sums and rd->overloaded follow. */
static void cfs_rtbw_throttle(struct cfs *s, int cpu, bool throttled)
{
	struct cfs_rq *rq = &s->rq[cpu];
	int nr_all = cfs_nr_all(rq);

	rq->rt.throttled = throttled;
	cfs_gsum_touch(s, rq);
	cfs_nr_all_changed(s, nr_all, cfs_nr_all(rq));
}

/* do_sched_rt_period_timer(): each CPU's rt_time is paid back by the
 * runtime of every period that passed; below the runtime, RT runs again.
 * The timer is set again while some CPU has RT time left to pay back. */
static void cfs_rt_period(struct cfs *s, sl_time now)
{
	long overrun = 0;
	bool again = false;

	while (now >= s->rt_period_end) {
		s->rt_period_end += s->rt_period;
		overrun++;
	}
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct cfs_rt_rq *rt = &s->rq[cpu].rt;
		cfs_rtbw_account(s, cpu, rt->acct);
		sl_time pay = overrun * s->rt_runtime;
		rt->rt_time -= rt->rt_time < pay ? rt->rt_time : pay;
		if (rt->throttled && rt->rt_time < s->rt_runtime) {
			cfs_rtbw_throttle(s, cpu, false);
			if (rt->nr_running)
				sl_resched(s->sim, cpu);
		}
		again |= rt->rt_time > 0;
	}
	if (again)
		cfs_rt_period_arm(s, now);
}

/* ---- both ---- */

/* update_curr_rt() + sched_rt_runtime_exceeded(): RT ran for delta.
 * Out of line and cold: only rt_bandwidth=throttle with RT tasks comes
 * here, and its calls made cfs_rtbw_account save six registers on every
 * call (2-3 a schedule(), one a tick). */
static __attribute__((noinline, cold)) void cfs_rt_time_add(struct cfs *s, int cpu,
							    sl_time now, sl_time delta)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;

	rt->rt_time += delta;
	cfs_rt_period_arm(s, now);
	if (!rt->throttled && rt->rt_time > s->rt_runtime) {
		cfs_rtbw_throttle(s, cpu, true);
		sl_resched(s->sim, cpu);
	}
}

void cfs_rtbw_account_out(struct cfs *s, int cpu, enum cfs_acct runs)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;
	sl_time now = sl_now(s->sim), delta = now - rt->acct_at;

	if (delta > 0) {
		if (rt->acct != CFS_ACCT_RT) {
			if (s->rt_bw == CFS_RTBW_SERVER)
				cfs_fs_consume(s, rt, now, delta);
		} else if (s->rt_bw == CFS_RTBW_THROTTLE) {
			cfs_rt_time_add(s, cpu, now, delta);
		}
		rt->acct_at = now;
	}
	rt->acct = runs;
	if (s->rt_bw == CFS_RTBW_SERVER &&
	    (rt->nr_running || sl_hrtimer_queued(s->sim, cpu, CFS_HRT_SERVER)))
		cfs_fs_arm(s, cpu);
}

/* The server starts serving (its defer timer), or its runtime is gone
 * (update_curr at a tick), or it is replenished: if that changes which
 * class goes first, reschedule. */
static void cfs_fs_check(struct cfs *s, int cpu)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;

	if (!rt->nr_running)
		return;
	bool fair_first = cfs_rtbw_fair_first(s, cpu);
	if (rt->curr ? fair_first : !fair_first)
		sl_resched(s->sim, cpu);
}

void cfs_rtbw_tick(struct cfs *s, int cpu)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;

	if (s->rt_bw == CFS_RTBW_OFF)
		return;
	cfs_rtbw_account(s, cpu, rt->acct);
	/* cfs_fs_check() returns at once without an RT task queued: asked
	 * here, the tick of a CPU without one makes no call */
	if (s->rt_bw == CFS_RTBW_SERVER && rt->nr_running)
		cfs_fs_check(s, cpu);
}

/* The hrtimer `id` of cpu expired. */
void cfs_rtbw_hrtimer(struct cfs *s, int cpu, int id)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;
	sl_time now = sl_now(s->sim);

	if (id == CFS_HRT_RT_PERIOD) {
		cfs_rt_period(s, now);
		return;
	}
	cfs_rtbw_account(s, cpu, rt->acct);
	cfs_fs_check(s, cpu);
	cfs_fs_arm(s, cpu);
}
