/*
 * test_engine.c - sim/: the event queue against a sorted reference, and the
 * engine's mechanisms (progress under the SMT speed model, fork/wait/exit,
 * sleep, channels and pipes, mutexes, barriers, accounting, determinism)
 * driven by engine_harness.h's FIFO test policy so that no real policy's
 * decisions interfere.  The kernel paths a policy chooses (its timers, its
 * pipe, a device's queue) are test_kernel_paths.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/hist.h"
#include "base/rng.h"
#include "hw/machine.h"
#include "policy/policy.h"
#include "sim/eventq.h"
#include "sim/sim.h"
#include "engine_harness.h"
#include "test.h"

/* ---- event queue ---- */

/* Pop every event: how many, or -1 if they came out of (time, seq)
 * order or a popped one still counted as queued. */
static int pop_all(struct sl_eventq *q)
{
	sl_time last_t = -1;
	uint64_t last_seq = 0;
	int popped = 0;
	bool ok = true;
	struct sl_event *e;

	while ((e = sl_eventq_pop(q))) {
		if (e->time < last_t || (e->time == last_t && e->seq < last_seq))
			ok = false;
		ok &= !sl_event_queued(e);
		last_t = e->time;
		last_seq = e->seq;
		popped++;
	}
	return ok ? popped : -1;
}

/* n events, CPU i for event i, queued at random times below `span`. */
static void queue_random(struct sl_eventq *q, struct sl_event *ev, int n, struct sl_rng *r,
			 sl_time span)
{
	for (int i = 0; i < n; i++) {
		sl_event_init(&ev[i], 0, i, NULL);
		sl_eventq_schedule(q, &ev[i], (sl_time)sl_rng_below(r, (uint64_t)span));
	}
}

SL_TEST(engine_eventq_matches_sorted_reference)
{
	enum { N = 500 };
	static struct sl_event ev[N];
	struct sl_eventq q;
	struct sl_rng r;
	sl_eventq_init(&q);
	sl_rng_seed(&r, 9);
	queue_random(&q, ev, N, &r, 50);
	for (int i = 0; i < N; i += 3)	/* re-time a third, cancel a few */
		sl_eventq_schedule(&q, &ev[i], (sl_time)sl_rng_below(&r, 50));
	for (int i = 1; i < N; i += 7)
		sl_eventq_cancel(&q, &ev[i]);
	int popped = pop_all(&q);
	CHECK(popped >= 0);
	int cancelled = 0;
	for (int i = 1; i < N; i += 7)
		cancelled++;
	CHECK(popped == N - cancelled);
	sl_eventq_free(&q);
}

/* A batch of re-keyings (queued events moved, cancelled ones back, new
 * ones) then one rebuild pops in (time, seq) order, as sifts would. */
SL_TEST(engine_eventq_batch_rebuild_keeps_order)
{
	enum { N = 300 };
	static struct sl_event ev[N];
	struct sl_eventq q;
	struct sl_rng r;
	sl_eventq_init(&q);
	sl_rng_seed(&r, 11);
	for (int i = 0; i < N; i++) {
		sl_event_init(&ev[i], 0, i, NULL);
		if (i % 5)
			sl_eventq_schedule(&q, &ev[i], (sl_time)sl_rng_below(&r, 40));
	}
	for (int i = 0; i < N; i += 11)
		sl_eventq_cancel(&q, &ev[i]);
	for (int round = 0; round < 3; round++) {
		for (int i = round; i < N; i += 2)	/* half of them, in and out of the queue */
			sl_eventq_batch_set(&q, &ev[i], (sl_time)sl_rng_below(&r, 40),
					    sl_eventq_take_seq(&q));
		sl_eventq_batch_end(&q);
		struct sl_event *e = sl_eventq_pop(&q);	/* the earliest, then the rest stay */
		CHECK(e != NULL);
		for (int i = 0; i < N; i++)
			if (sl_event_queued(&ev[i]))
				CHECK(ev[i].time > e->time ||
				      (ev[i].time == e->time && ev[i].seq > e->seq));
	}
	CHECK(pop_all(&q) >= 0);
	sl_eventq_free(&q);
}

/* The event just popped queued again takes back the slot its pop kept
 * (eventq.h); whatever happens to the queue meanwhile (others queued,
 * cancelled, a batch rebuild that moves the kept slot), or if it is not
 * queued again, the pops stay in (time, seq) order and miss nothing. */
SL_TEST(engine_eventq_popped_event_requeued_in_order)
{
	enum { N = 64 };
	static struct sl_event ev[N];
	struct sl_eventq q;
	struct sl_rng r;
	sl_eventq_init(&q);
	sl_rng_seed(&r, 13);
	queue_random(&q, ev, N, &r, 30);
	sl_time now = 0;
	uint64_t last_seq = 0;
	for (int round = 0; round < 400; round++) {
		struct sl_event *e = sl_eventq_pop(&q);
		CHECK(e != NULL && !sl_event_queued(e));
		if (!e)
			break;
		/* (time, seq) order: all queued since come after the last pop */
		CHECK(e->time > now || (e->time == now && (round == 0 || e->seq > last_seq)));
		now = e->time;
		last_seq = e->seq;
		int other = (int)sl_rng_below(&r, N);
		switch (round % 4) {
		case 0:	/* re-queued after another's change */
			sl_eventq_schedule(&q, &ev[other], now + (sl_time)sl_rng_below(&r, 30));
			sl_eventq_schedule(&q, e, now + (sl_time)sl_rng_below(&r, 30));
			break;
		case 1:	/* in a batch that rebuilds the heap */
			sl_eventq_batch_set(&q, &ev[other], now + (sl_time)sl_rng_below(&r, 30),
					    sl_eventq_take_seq(&q));
			sl_eventq_batch_set(&q, e, now + (sl_time)sl_rng_below(&r, 30),
					    sl_eventq_take_seq(&q));
			sl_eventq_batch_end(&q);
			break;
		case 2:	/* not re-queued; another one cancelled */
			sl_eventq_cancel(&q, &ev[other]);
			break;
		default: /* a rebuild with the kept slot in it, then re-queued */
			sl_eventq_batch_set(&q, &ev[other], now + (sl_time)sl_rng_below(&r, 30),
					    sl_eventq_take_seq(&q));
			sl_eventq_batch_end(&q);
			sl_eventq_schedule(&q, e, now + (sl_time)sl_rng_below(&r, 30));
			break;
		}
	}
	int queued = 0;
	for (int i = 0; i < N; i++)
		queued += sl_event_queued(&ev[i]);
	CHECK(pop_all(&q) == queued);
	sl_eventq_free(&q);
}

/* A re-timing decided before another event's scheduling but carried out
 * after it keeps its earlier place among equal times (sched.c defers
 * burst re-timings so). */
SL_TEST(engine_eventq_reserved_seq_keeps_tie_order)
{
	struct sl_event a, b, c;
	struct sl_eventq q;
	sl_eventq_init(&q);
	sl_event_init(&a, 0, 0, NULL);
	sl_event_init(&b, 0, 1, NULL);
	sl_event_init(&c, 0, 2, NULL);
	sl_eventq_schedule(&q, &a, 50);		/* queued, then re-timed late */
	uint64_t seq_a = sl_eventq_take_seq(&q);
	uint64_t seq_c = sl_eventq_take_seq(&q);
	sl_eventq_schedule(&q, &b, 10);
	sl_eventq_schedule_seq(&q, &c, 10, seq_c);	/* new, with its place */
	sl_eventq_schedule_seq(&q, &a, 10, seq_a);
	CHECK(sl_eventq_pop(&q) == &a);
	CHECK(sl_eventq_pop(&q) == &c);
	CHECK(sl_eventq_pop(&q) == &b);
	CHECK(sl_eventq_pop(&q) == NULL);
	sl_eventq_free(&q);
}

SL_TEST(engine_single_burst_takes_its_work)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *s = script_new(sim);
	script_add(s, sl_act_run(1e9, SL_WC_INT));
	sl_sim_spawn_root(sim, &script_prog, s, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - SL_SEC) <= 2, "elapsed %lld", (long long)st.elapsed_ns);
	CHECKF(llabs(st.user_ns - SL_SEC) <= 2, "user %lld", (long long)st.user_ns);
	CHECK(st.sys_ns == 0);
	CHECK(st.tasks == 1);
	sl_sim_destroy(sim);
}

/* fifo whose every tick charges 100 us of scheduler work to the CPU. */
static void charging_tick(struct sl_sim *sim, int cpu)
{
	if (sl_curr(sim, cpu))
		sl_charge_sched(sim, cpu, 100000);
}

static const struct sl_policy_ops charging_ops = {
	.name = "charging", .summary = "test FIFO whose ticks cost 100 us",
	.task_size = sizeof(struct fifo_task), .init = fifo_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = charging_tick,
};

/* A script whose task absorbs the costs charged to it (task->absorb_costs,
 * as a replayed task does). */
static void absorbing_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->absorb_costs = true;
	script_step(sim, t, next);
}

static const struct sl_prog absorbing_prog = { .name = "absorbing", .step = absorbing_step };

/* One 10 ms burst under ticks that each charge 100 us (ten of them by its
 * end, at HZ 1000), then an exit whose 1 ms cost sees one more: a plain
 * task is delayed by the charges, one that absorbs them (a replayed task)
 * keeps its 11 ms of CPU time, the charges taken out of its work and, once
 * none is left, out of the exit's cost. */
static void burst_under_charges(bool absorb, struct sl_run_stats *st)
{
	struct sl_machine m;

	memset(st, 0, sizeof(*st));
	CHECK(load_zeroed(&m, "pack:1 core:1 pu:1"));
	m.speed.exit_ns = 1000000;
	struct sl_sim *sim = checked_sim(&m, &charging_ops, 1, NULL);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *s = script_new(sim);
	script_add(s, sl_act_run(1e7, SL_WC_INT));
	sl_sim_spawn_root(sim, absorb ? &absorbing_prog : &script_prog, s, "root");
	CHECK(run(sim, st) == 0);
	sl_sim_destroy(sim);
}

SL_TEST(engine_absorbing_burst_keeps_its_cpu_time)
{
	struct sl_run_stats plain, absorbing;

	burst_under_charges(false, &plain);
	burst_under_charges(true, &absorbing);
	/* plain: 10 ms of work, the 1 ms exit, and twelve charges (at 1..12
	 * ms) on top */
	CHECKF(plain.user_ns == 10000000 && plain.sys_ns == 2200000 &&
	       plain.elapsed_ns == plain.user_ns + plain.sys_ns,
	       "plain: user %lld sys %lld elapsed %lld", (long long)plain.user_ns,
	       (long long)plain.sys_ns, (long long)plain.elapsed_ns);
	/* absorbing: 11 ms in all; the charges at 1..9 ms come out of the
	 * work, those at 10 and 11 ms (the work is done at 10: the exit has
	 * begun when the tick there comes) out of the exit's cost */
	CHECKF(absorbing.elapsed_ns == 11000000 && absorbing.sys_ns == 1900000 &&
	       absorbing.user_ns == 9100000,
	       "absorbing: user %lld sys %lld elapsed %lld", (long long)absorbing.user_ns,
	       (long long)absorbing.sys_ns, (long long)absorbing.elapsed_ns);
}

/* fifo whose tick on an idle CPU charges 100 us (an idle balance) and
 * whose pick that leaves a CPU idle charges 200 us (a newly-idle one). */
static void idle_charging_tick(struct sl_sim *sim, int cpu)
{
	if (sl_cpu_idle(sim, cpu))
		sl_charge_sched(sim, cpu, 100000);
}

static struct sl_task *idle_charging_pick(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	struct sl_task *next = fifo_pick(sim, cpu, prev);

	if (!next)
		sl_charge_sched(sim, cpu, 200000);
	return next;
}

static const struct sl_policy_ops idle_charging_ops = {
	.name = "idle-charging", .summary = "test FIFO whose idle CPUs balance at a cost",
	.task_size = sizeof(struct fifo_task), .init = fifo_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = idle_charging_pick, .tick = idle_charging_tick,
};

/* On two CPUs the root forks a 19.5 ms hog (CPU 1: the ticks go on),
 * sleeps `sleep_ns` on CPU 0, runs 1 ms and waits for the hog: the
 * system time of the run (all the root's) in *sys, and how long after
 * its wakeup the root began to run in *waited. */
static void idle_work_paid(sl_time sleep_ns, sl_time *sys, sl_time *waited)
{
	struct sl_machine m;
	struct sl_run_stats st = { 0 };

	*sys = *waited = -1;
	CHECK(load_zeroed(&m, "pack:1 core:2 pu:1"));
	struct sl_sim *sim = checked_sim(&m, &idle_charging_ops, 1, NULL);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *hog = script_new(sim), *root = script_new(sim);
	script_add(hog, sl_act_run(19.5e6, SL_WC_INT));
	script_add(root, fork_of(hog));
	script_add(root, sl_act_sleep(sleep_ns));
	script_add(root, sl_act_run(1e6, SL_WC_INT));
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	CHECK(run(sim, &st) == 0);
	*sys = st.sys_ns;
	/* the sleep began when the fork returned; the program is asked
	 * for the run once the woken root runs, and for the wait when the
	 * run is done (the script is the run's memory: read before it is
	 * freed) */
	CHECKF(root->asked_at[3] == root->asked_at[2] + 1000000, "ran from %lld to %lld",
	       (long long)root->asked_at[2], (long long)root->asked_at[3]);
	*waited = root->asked_at[2] - root->asked_at[1] - sleep_ns;
	sl_sim_destroy(sim);
}

/*
 * An idle CPU's scheduler work (its ticks' idle balances, the newly-idle
 * balance of the schedule() that idled it) runs in its idle time, as the
 * kernel's idle task runs it: a task that wakes there after it is done
 * waits for nothing, one that wakes while it runs waits for the rest, and
 * that wait is the CPU's idle time, not the task's system time.  (The
 * work was the next task's system time, however late it woke, until Dec
 * 2026: 0.7 ms here after 5.2 or 5.05 ms asleep, 0.2 ms after 0.1 ms;
 * then only what was left of it when the task came, 0, 50 and 100 us.)
 */
SL_TEST(engine_idle_cpu_work_is_done_in_its_idle_time)
{
	sl_time sys, waited;

	/* the newly-idle balance at 0-0.2 ms, idle balances at 1-1.1 ...
	 * 5-5.1 ms: all done by 5.2 ms */
	idle_work_paid(5200000, &sys, &waited);
	CHECKF(sys == 0 && waited == 0, "woken at 5.2 ms: %lld ns of system time, waited %lld",
	       (long long)sys, (long long)waited);
	/* woken at 5.05 ms: the 5 ms balance has 50 us to go */
	idle_work_paid(5050000, &sys, &waited);
	CHECKF(sys == 0 && waited == 50000, "woken at 5.05 ms: %lld ns of system time, waited %lld",
	       (long long)sys, (long long)waited);
	/* woken at 0.1 ms: the newly-idle balance has 100 us to go */
	idle_work_paid(100000, &sys, &waited);
	CHECKF(sys == 0 && waited == 100000, "woken at 0.1 ms: %lld ns of system time, waited %lld",
	       (long long)sys, (long long)waited);
}

/* fifo whose ticks take one global lock for 50 us on every CPU, an idle
 * one after 100 us of idle balancing; what the idle CPU 1 spun, summed. */
static struct sl_spinlock tick_lock;
static sl_time idle_cpu_spun;

static void idle_locking_tick(struct sl_sim *sim, int cpu)
{
	if (sl_cpu_idle(sim, cpu)) {
		sl_charge_sched(sim, cpu, 100000);
		idle_cpu_spun += sl_charge_locked(sim, cpu, &tick_lock, 50000);
	} else {
		sl_charge_locked(sim, cpu, &tick_lock, 50000);
		fifo_tick(sim, cpu);
	}
}

static const struct sl_policy_ops idle_locking_ops = {
	.name = "idle-locking", .summary = "test FIFO whose ticks take a lock",
	.task_size = sizeof(struct fifo_task), .init = fifo_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = idle_locking_tick,
};

/*
 * An idle CPU takes a lock once the idle-time work it has queued is done.
 * CPU 0 runs a task and ticks first, holding the lock 50 us; idle CPU 1
 * then balances 100 us and takes the lock after that, when it is free
 * again: no spin.  (Until Dec 2026 its lock was reserved from the tick,
 * so it spun the 50 us CPU 0 held it, after its balance, at every tick.)
 */
SL_TEST(engine_idle_cpu_takes_a_lock_after_its_idle_work)
{
	struct sl_machine m;
	struct sl_run_stats st = { 0 };

	memset(&tick_lock, 0, sizeof(tick_lock));
	idle_cpu_spun = 0;
	CHECK(load_zeroed(&m, "pack:1 core:2 pu:1"));
	struct sl_sim *sim = checked_sim(&m, &idle_locking_ops, 1, NULL);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *root = script_new(sim);
	script_add(root, sl_act_run(4.5e6, SL_WC_INT));
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	CHECK(run(sim, &st) == 0);
	sl_sim_destroy(sim);
	CHECKF(idle_cpu_spun == 0, "the idle CPU spun %lld ns", (long long)idle_cpu_spun);
	CHECKF(tick_lock.holder > 0, "the lock was never taken");
}

/* fifo whose idle CPU 1, at its first tick, balances for 100 us and
 * wakes its own migration thread; when the tick and the thread ran. */
static sl_time idle_migr_tick_at, idle_migr_ran_at;

static void idle_migr_tick(struct sl_sim *sim, int cpu)
{
	if (cpu == 1 && sl_cpu_idle(sim, cpu) && idle_migr_tick_at < 0) {
		idle_migr_tick_at = sl_now(sim);
		sl_charge_sched(sim, cpu, 100000);
		sl_migration_wake(sim, cpu, 0);
	}
	fifo_tick(sim, cpu);
}

static void idle_migr_run(struct sl_sim *sim, int cpu, long arg)
{
	(void)arg;
	if (cpu == 1)
		idle_migr_ran_at = sl_now(sim);
}

static const struct sl_policy_ops idle_migr_ops = {
	.name = "idle-migr", .summary = "test FIFO whose idle CPU wakes its migration thread",
	.task_size = sizeof(struct fifo_task), .init = fifo_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = idle_migr_tick,
	.migration = idle_migr_run,
};

/* The migration thread of an idle CPU runs once the CPU's idle-time work
 * is done, as a task woken there does: with no IPI latency, 100 us after
 * the tick whose balance asked for it.  (Until Dec 2026 it ran at once.) */
SL_TEST(engine_idle_cpu_runs_its_migration_thread_after_its_idle_work)
{
	struct sl_machine m;
	struct sl_run_stats st = { 0 };

	idle_migr_tick_at = idle_migr_ran_at = -1;
	CHECK(load_zeroed(&m, "pack:1 core:2 pu:1"));
	struct sl_sim *sim = checked_sim(&m, &idle_migr_ops, 1, NULL);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *root = script_new(sim);
	script_add(root, sl_act_run(2.5e6, SL_WC_INT));
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	CHECK(run(sim, &st) == 0);
	sl_sim_destroy(sim);
	CHECKF(idle_migr_tick_at >= 0 && idle_migr_ran_at == idle_migr_tick_at + 100000,
	       "asked at %lld ns, ran at %lld", (long long)idle_migr_tick_at,
	       (long long)idle_migr_ran_at);
}

/* fifo that logs the ticks the engine skipped (and charges 1 ms of
 * scheduler work for them), and whether a wakeup came after them. */
static struct {
	int calls, wakeups_after;
	uint64_t first[2], last[2];
} gaplog;

static void gaplog_skipped(struct sl_sim *sim, int cpu, uint64_t first, uint64_t last)
{
	if (cpu < 2) {
		gaplog.first[cpu] = first;
		gaplog.last[cpu] = last;
	}
	gaplog.calls++;
	sl_charge_sched(sim, cpu, SL_MSEC);
}

static void gaplog_wakeup(struct sl_sim *sim, struct sl_task *t, int w, unsigned fl)
{
	if (gaplog.calls)
		gaplog.wakeups_after++;
	fifo_wakeup(sim, t, w, fl);
}

static const struct sl_policy_ops gaplog_ops = {
	.name = "gaplog", .summary = "test FIFO told of the ticks skipped",
	.task_size = sizeof(struct fifo_task), .init = fifo_init, .fork = fifo_enqueue_new,
	.wakeup = gaplog_wakeup, .pick_next = fifo_pick, .tick = fifo_tick,
	.ticks_skipped = gaplog_skipped,
};

/*
 * With nothing runnable the tick stops; the first wakeup after tells the
 * policy which jiffies each CPU did not tick, before the wakeup itself.
 * A task runs 2.5 ms and sleeps 10.2 ms on two CPUs: the tick at 3 ms is
 * the last (it finds nothing runnable), those of 4..12 ms are skipped
 * (12.7 ms: the wakeup), and the 1 ms each CPU's policy charges for them
 * was idle time long past: the task pays none of it.
 */
SL_TEST(engine_skipped_ticks_told_before_the_wakeup)
{
	struct sl_machine m;
	struct sl_run_stats st = { 0 };

	memset(&gaplog, 0, sizeof(gaplog));
	CHECK(load_zeroed(&m, "pack:1 core:2 pu:1"));
	struct sl_sim *sim = checked_sim(&m, &gaplog_ops, 1, NULL);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *s = script_new(sim);
	script_add(s, sl_act_run(2.5e6, SL_WC_INT));
	script_add(s, sl_act_sleep(10200000));
	script_add(s, sl_act_run(1e6, SL_WC_INT));
	sl_sim_spawn_root(sim, &script_prog, s, "root");
	CHECK(run(sim, &st) == 0);
	sl_sim_destroy(sim);
	CHECKF(gaplog.calls == 2 && gaplog.wakeups_after == 1, "%d calls, %d wakeups after",
	       gaplog.calls, gaplog.wakeups_after);
	for (int cpu = 0; cpu < 2; cpu++)
		CHECKF(gaplog.first[cpu] == 4 && gaplog.last[cpu] == 12,
		       "CPU %d: jiffies %llu..%llu skipped", cpu,
		       (unsigned long long)gaplog.first[cpu], (unsigned long long)gaplog.last[cpu]);
	CHECKF(st.sys_ns == 0 && st.elapsed_ns == 13700000, "sys %lld, elapsed %lld",
	       (long long)st.sys_ns, (long long)st.elapsed_ns);
}

SL_TEST(engine_smt_siblings_share_a_core)
{
	/* Two INT hogs on the two siblings of one core run at the model's
	 * INT+INT pair speed each; alone, at full speed. */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:2", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	double pair = m.speed.smt_pair[SL_WC_INT][SL_WC_INT];
	spawn_two_hogs(sim, &script_prog, 1e8);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	double want = 1e8 / pair;
	CHECKF(fabs((double)st.elapsed_ns - want) < want * 0.01, "elapsed %lld want %.0f",
	       (long long)st.elapsed_ns, want);
	CHECK(pair < 1.0);
	CHECK(st.tasks == 3);
	sl_sim_destroy(sim);
}

/* FIFO whose first tick on an idle CPU beside a busy sibling runs that
 * CPU's migration thread (a policy's active balancing that finds
 * nothing to move). */
static bool migr_started;

static void migr_tick(struct sl_sim *sim, int cpu)
{
	int sibling = cpu ^ 1;
	if (!migr_started && !sl_curr(sim, cpu) && sl_curr(sim, sibling)) {
		migr_started = true;
		sl_migration_wake(sim, cpu, 0);
	}
	fifo_tick(sim, cpu);
}

static const struct sl_policy_ops migr_fifo_ops = {
	.name = "fifo-migr", .summary = "test FIFO with one migration thread run",
	.task_size = sizeof(struct fifo_task), .init = fifo_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = migr_tick,
};

SL_TEST(engine_migration_thread_slows_its_sibling_only_while_it_runs)
{
	/* One INT hog on a core of two siblings; the other sibling runs its
	 * migration thread (an INT kernel thread) for 1 ms and goes idle
	 * again.  The hog runs at the INT+INT pair speed for that 1 ms and at
	 * full speed before and after: it loses (1 - pair) ms.  Before the
	 * thread's end re-timed the sibling, the hog ran on at the pair speed
	 * until its next re-timing (here: its end). */
	struct sl_machine m;
	CHECK(load_zeroed(&m, "pack:1 core:1 pu:2"));
	m.speed.migrate_ns = SL_MSEC;
	migr_started = false;
	struct sl_sim *sim = checked_sim(&m, &migr_fifo_ops, 1, NULL);
	CHECK(sim != NULL);
	if (!sim)
		return;
	spawn_one(sim, sl_act_run(50e6, SL_WC_INT));
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	double pair = m.speed.smt_pair[SL_WC_INT][SL_WC_INT];
	double want = 50e6 + (1.0 - pair) * SL_MSEC;
	CHECK(migr_started);
	CHECKF(fabs((double)st.elapsed_ns - want) < 1e3, "elapsed %lld ns, want %.0f",
	       (long long)st.elapsed_ns, want);
	sl_sim_destroy(sim);
}

/* FIFO whose first tick on idle CPU 1 wakes CPU 0's migration thread, in
 * a kernel with or without CONFIG_PREEMPT: when does the thread run? */
static sl_time kexit_migr_at;
static struct sl_task *kexit_task;

static void kexit_tick(struct sl_sim *sim, int cpu)
{
	if (!migr_started && cpu == 1 && !sl_curr(sim, 1) && sl_curr(sim, 0)) {
		migr_started = true;
		kexit_task = sl_curr(sim, 0);
		sl_migration_wake(sim, 0, 0);
	}
	fifo_tick(sim, cpu);
}

/* The thread moves nothing; the task it took the CPU from queues again
 * (FIFO keeps no running task on its queue). */
static void kexit_migration(struct sl_sim *sim, int cpu, long arg)
{
	(void)cpu; (void)arg;
	kexit_migr_at = sl_now(sim);
	fifo_push(sim, kexit_task);
}

static void *kexit_none_init(struct sl_sim *sim, const struct sl_params *k, struct sl_err *e)
{
	void *s = fifo_init(sim, k, e);
	sl_set_kernel_preempt(sim, SL_PREEMPT_NONE);
	return s;
}

static const struct sl_policy_ops kexit_full_ops = {
	.name = "fifo-kexit-full", .summary = "test FIFO waking a busy CPU's migration thread",
	.task_size = sizeof(struct fifo_task), .init = fifo_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = kexit_tick,
	.migration = kexit_migration,
};

static const struct sl_policy_ops kexit_none_ops = {
	.name = "fifo-kexit-none", .summary = "the same without CONFIG_PREEMPT",
	.task_size = sizeof(struct fifo_task), .init = kexit_none_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = kexit_tick,
	.migration = kexit_migration,
};

/* When CPU 0's migration thread, woken 1 ms in, runs beside a task that
 * makes `execs` calls to exec (5 ms of costs each) and then does 20 ms of
 * kernel work and 10 ms of user work (its first switch-in costing
 * `switch_ms`); -1 if the run failed. */
static sl_time kexit_migration_start(const struct sl_policy_ops *ops, double switch_ms,
				     int execs, sl_time *elapsed)
{
	struct sl_machine m;
	if (!load_zeroed(&m, "pack:1 core:2 pu:1"))
		return -1;
	m.speed.ctx_switch_ns = (sl_time)(switch_ms * SL_MSEC);
	m.speed.exec_ns = 5 * SL_MSEC;
	migr_started = false;
	kexit_migr_at = -1;
	struct sl_sim *sim = checked_sim(&m, ops, 1, NULL);
	if (!sim)
		return -1;
	struct script *sc = script_new(sim);
	for (int i = 0; i < execs; i++)
		script_add(sc, sl_act_exec("sys"));
	script_add(sc, sl_act_sys(20e6));
	script_add(sc, sl_act_run(10e6, SL_WC_INT));
	sl_sim_spawn_root(sim, &script_prog, sc, "sys");
	struct sl_run_stats st;
	sl_time at = run(sim, &st) == 0 && migr_started ? kexit_migr_at : -1;
	if (elapsed)
		*elapsed = st.elapsed_ns;
	sl_sim_destroy(sim);
	return at;
}

SL_TEST(engine_migration_thread_waits_for_the_kernel_exit)
{
	/* A woken kernel thread is a reschedule like any other: with
	 * CONFIG_PREEMPT it preempts the system call at once, without it it
	 * runs where the call returns to user space (20 ms) */
	sl_time full = kexit_migration_start(&kexit_full_ops, 0, 0, NULL);
	sl_time none = kexit_migration_start(&kexit_none_ops, 0, 0, NULL);
	CHECKF(full >= 0 && full <= 2 * SL_MSEC, "preemptible: the thread ran at %lld ns",
	       (long long)full);
	CHECKF(none == 20 * SL_MSEC, "not preemptible: the thread ran at %lld ns", (long long)none);
}

SL_TEST(engine_migration_thread_run_is_two_switches)
{
	/* The thread preempts a task (CONFIG_PREEMPT) and gives its CPU
	 * back: two context switches, the one to the thread, paid in its
	 * run, and the one back, paid by the task as every incoming task
	 * pays its switch.  1 ms each here: the task's first switch in, its
	 * 20 ms of kernel work and 10 ms of user work, and the two */
	sl_time elapsed = -1;
	sl_time at = kexit_migration_start(&kexit_full_ops, 1, 0, &elapsed);
	CHECKF(at >= 0, "the thread ran at %lld ns", (long long)at);
	CHECKF(elapsed == 33 * SL_MSEC, "elapsed %lld ns, want 33 ms", (long long)elapsed);
}

SL_TEST(engine_new_task_returns_to_user_before_its_first_call)
{
	/* A new task's first switch-in ends in ret_from_fork, which returns
	 * to user space before the task's first system call (i386 entry.S,
	 * 2.4.27 and 2.6.11): without CONFIG_PREEMPT a reschedule that
	 * came during its switch (5 ms of it here) is acted on there, not
	 * where the 20 ms call ends */
	sl_time none = kexit_migration_start(&kexit_none_ops, 5, 0, NULL);
	CHECKF(none == 5 * SL_MSEC, "not preemptible: the thread ran at %lld ns", (long long)none);
}

SL_TEST(engine_each_call_returns_to_user)
{
	/* Two calls to exec, each returning to user space after its 5 ms of
	 * costs, then 20 ms of kernel work: without CONFIG_PREEMPT the
	 * thread woken 1 ms in runs at the first call's return, 5 ms, not
	 * after the second's costs or the kernel work */
	sl_time none = kexit_migration_start(&kexit_none_ops, 0, 2, NULL);
	CHECKF(none == 5 * SL_MSEC, "not preemptible: the thread ran at %lld ns", (long long)none);
}

/* sched_exec's own request: the exec'ing task wakes its CPU's migration
 * thread in its exec (the policy's exec op, as o1's and domains' exec
 * balancing do). */
static void kexit_self_exec(struct sl_sim *sim, struct sl_task *t)
{
	migr_started = true;
	kexit_task = t;
	sl_migration_wake(sim, t->cpu, 0);
}

static const struct sl_policy_ops kexit_self_full_ops = {
	.name = "fifo-self-full", .summary = "test FIFO whose exec wakes its own migration thread",
	.task_size = sizeof(struct fifo_task), .init = fifo_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = fifo_tick,
	.migration = kexit_migration, .exec = kexit_self_exec,
};

static const struct sl_policy_ops kexit_self_none_ops = {
	.name = "fifo-self-none", .summary = "the same without CONFIG_PREEMPT",
	.task_size = sizeof(struct fifo_task), .init = kexit_none_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = fifo_tick,
	.migration = kexit_migration, .exec = kexit_self_exec,
};

SL_TEST(engine_self_requested_migration_needs_no_ipi)
{
	/* A task asking for its own CPU's migration thread wakes it on
	 * that CPU (no IPI) and sleeps in wait_for_completion(): the
	 * thread runs at the exec, not an IPI's latency (2 ms here) later,
	 * with or without CONFIG_PREEMPT */
	const struct sl_policy_ops *ops[] = { &kexit_self_full_ops, &kexit_self_none_ops };
	for (int i = 0; i < 2; i++) {
		struct sl_machine m;
		if (!load_zeroed(&m, "pack:1 core:2 pu:1"))
			return;
		m.speed.ipi_ns = 2 * SL_MSEC;
		m.speed.exec_ns = 5 * SL_MSEC;
		migr_started = false;
		kexit_migr_at = -1;
		struct sl_sim *sim = checked_sim(&m, ops[i], 1, NULL);
		if (!sim)
			return;
		struct script *sc = script_new(sim);
		script_add(sc, sl_act_run(1e6, SL_WC_INT));
		script_add(sc, sl_act_exec("sys"));
		script_add(sc, sl_act_run(10e6, SL_WC_INT));
		sl_sim_spawn_root(sim, &script_prog, sc, "sys");
		struct sl_run_stats st;
		CHECK(run(sim, &st) == 0 && migr_started);
		CHECKF(kexit_migr_at == 1 * SL_MSEC, "%s: the thread ran at %lld ns, want 1 ms",
		       ops[i]->name, (long long)kexit_migr_at);
		sl_sim_destroy(sim);
	}
}

/* The same FIFO waking CPU 0's migration thread a second time while the
 * task it preempted is switched back in: when does each run? */
static sl_time kexit_runs[2];
static int kexit_nruns;
static bool kexit_rewoken;

static void kexit_again_tick(struct sl_sim *sim, int cpu)
{
	if (kexit_nruns == 1 && !kexit_rewoken && cpu == 1 && sl_curr(sim, 0) == kexit_task) {
		kexit_rewoken = true;
		sl_migration_wake(sim, 0, 0);
	}
	kexit_tick(sim, cpu);
}

static void kexit_again_migration(struct sl_sim *sim, int cpu, long arg)
{
	if (kexit_nruns < 2)
		kexit_runs[kexit_nruns++] = sl_now(sim);
	kexit_migration(sim, cpu, arg);
}

static const struct sl_policy_ops kexit_again_ops = {
	.name = "fifo-kexit-again", .summary = "kexit-none, its migration thread woken twice",
	.task_size = sizeof(struct fifo_task), .init = kexit_none_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = kexit_again_tick,
	.migration = kexit_again_migration,
};

SL_TEST(engine_preempted_task_returns_to_user_after_its_switch_back)
{
	/* A task preempted where a call returned to user space comes back
	 * in the kernel's exit path (schedule() returns into entry.S's
	 * ret_from_sys_call, 2.4.27 and 2.6.11 i386), which checks
	 * need_resched again before user space: without CONFIG_PREEMPT a
	 * reschedule that came while it was switched back in (5 ms of
	 * switch costs here) is acted on there, not after its next call's
	 * 5 ms of exec costs */
	kexit_nruns = 0;
	kexit_rewoken = false;
	kexit_migration_start(&kexit_again_ops, 5, 2, NULL);
	CHECKF(kexit_nruns == 2, "%d runs", kexit_nruns);
	CHECKF(kexit_runs[0] == 5 * SL_MSEC, "first run at %lld ns", (long long)kexit_runs[0]);
	/* the switch to the thread and the task's switch back */
	CHECKF(kexit_runs[1] == kexit_runs[0] + 10 * SL_MSEC, "second run %lld ns after the first",
	       (long long)(kexit_runs[1] - kexit_runs[0]));
}

/* FIFO without CONFIG_PREEMPT whose first tick during the root's kernel
 * work wakes CPU 0's migration thread; the thread gives the policy back
 * the task it last picked if that one is not running. */
static struct sl_task *sleepfirst_picked;
static sl_time sleepfirst_migr_at;

static void sleepfirst_tick(struct sl_sim *sim, int cpu)
{
	struct sl_task *t = sl_curr(sim, cpu);
	if (!migr_started && t && !strcmp(t->comm, "root") && sl_now(sim) > SL_MSEC) {
		migr_started = true;
		sl_migration_wake(sim, cpu, 0);
	}
	fifo_tick(sim, cpu);
}

static struct sl_task *sleepfirst_pick(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	sleepfirst_picked = fifo_pick(sim, cpu, prev);
	return sleepfirst_picked;
}

static void sleepfirst_migration(struct sl_sim *sim, int cpu, long arg)
{
	(void)cpu; (void)arg;
	sleepfirst_migr_at = sl_now(sim);
	struct sl_task *t = sleepfirst_picked;
	if (t && t->cpu < 0 && t->state == SL_TASK_RUNNABLE)
		fifo_push(sim, t);
}

static const struct sl_policy_ops sleepfirst_ops = {
	.name = "fifo-sleepfirst", .summary = "kexit-none, its migration thread woken in a call that sleeps",
	.task_size = sizeof(struct fifo_task), .init = kexit_none_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = sleepfirst_pick, .tick = sleepfirst_tick,
	.migration = sleepfirst_migration,
};

SL_TEST(engine_migration_thread_runs_before_the_pick_of_a_sleep)
{
	/* One CPU, 1 ms per context switch.  The root forks B (5 ms of
	 * work), then does 20 ms of kernel work that ends in a 1 ms sleep;
	 * the migration thread, woken during that work, waits for the call
	 * (no CONFIG_PREEMPT) and runs when the root sleeps at 21 ms: the
	 * schedule() of the sleep switches to the thread (1 ms), the
	 * thread's end to B (1 ms), which runs 23-28 ms, never preempted;
	 * the root, woken at 22 ms, switches back after it and exits at
	 * 29 ms.  Until Dec 2026
	 * B was switched in first and preempted at once: one involuntary
	 * switch and 1 ms more. */
	struct sl_machine m;
	CHECK(load_zeroed(&m, "pack:1 core:1 pu:1"));
	m.speed.ctx_switch_ns = SL_MSEC;
	migr_started = false;
	sleepfirst_picked = NULL;
	sleepfirst_migr_at = -1;
	struct sl_sim *sim = checked_sim(&m, &sleepfirst_ops, 1, NULL);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *root = script_new(sim), *b = script_new(sim);
	script_add(b, sl_act_run(5e6, SL_WC_INT));
	script_add(root, fork_of(b));
	script_add(root, sl_act_sys(20e6));
	script_add(root, sl_act_sleep(SL_MSEC));
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(sleepfirst_migr_at == 21 * SL_MSEC, "the thread ran at %lld ns",
	       (long long)sleepfirst_migr_at);
	CHECKF(st.nivcsw == 0, "%ld involuntary switches", st.nivcsw);
	CHECKF(st.elapsed_ns == 29 * SL_MSEC, "elapsed %lld ns", (long long)st.elapsed_ns);
	sl_sim_destroy(sim);
}

/* ---- waits for a CPU (latency.c) and work conservation (conserve.c) ---- */

/* FIFO restricted to the CPUs of core 0 (`core0`) or to CPU 0 (`cpu0`):
 * the others stay idle whatever waits, the waste conserve.c measures. */
static bool restricted_cpu0;

static bool restricted_allows(struct sl_sim *sim, int cpu)
{
	return restricted_cpu0 ? cpu == 0 : sl_topo(sim)->cpu_core[cpu] == 0;
}

static void restricted_kick(struct sl_sim *sim)
{
	for (int c = 0; c < sl_topo(sim)->ncpus; c++)
		if (sl_cpu_idle(sim, c) && restricted_allows(sim, c))
			sl_resched(sim, c);
}

static void restricted_fork(struct sl_sim *sim, struct sl_task *p, struct sl_task *t)
{
	(void)p;
	fifo_push(sim, t);
	restricted_kick(sim);
}

static void restricted_wakeup(struct sl_sim *sim, struct sl_task *t, int w, unsigned fl)
{
	(void)w; (void)fl;
	fifo_push(sim, t);
	restricted_kick(sim);
}

static struct sl_task *restricted_pick(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	return restricted_allows(sim, cpu) ? fifo_pick(sim, cpu, prev) : NULL;
}

static const struct sl_policy_ops restricted_ops = {
	.name = "restricted", .summary = "test FIFO on some CPUs",
	.task_size = sizeof(struct fifo_task), .init = fifo_init, .fork = restricted_fork,
	.wakeup = restricted_wakeup, .pick_next = restricted_pick, .tick = fifo_tick,
};

static struct sl_sim *make_restricted_sim(struct sl_machine *m, const char *shape, bool cpu0)
{
	struct sl_err err = { 0 };
	restricted_cpu0 = cpu0;
	if (sl_machine_load(m, shape, &err))
		return NULL;
	zero_costs(m);
	struct sl_sim_config cfg = { .machine = m, .policy = &restricted_ops, .seed = 1,
				     .check = true };
	return sl_sim_create(&cfg, &err);
}

SL_TEST(engine_wakeup_latency_is_the_remaining_slice)
{
	/* One CPU, FIFO with 10-tick slices.  S sleeps 3 ms while a hog runs
	 * from 0: woken at 3 ms onto the busy CPU, S waits exactly the rest
	 * of the hog's slice, 7 ms.  S is in latency group 1, alone. */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *root = script_new(sim), *s = script_new(sim), *h = script_new(sim);
	script_add(s, sl_act_sleep(3 * SL_MSEC));
	script_add(s, sl_act_run(1e6, SL_WC_INT));
	script_add(h, sl_act_run(50e6, SL_WC_INT));
	struct sl_action fs = fork_of(s);
	fs.u.fork.lat_group = 1;
	script_add(root, fs);
	script_add(root, fork_of(h));
	script_add(root, sl_act_wait());
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	const struct sl_hist *g = sl_sim_latency(sim, SL_LAT_WAKEUP, 1);
	CHECK(g != NULL);
	if (g) {
		CHECKF(g->count == 2 && g->min == 0 && g->max == 7 * SL_MSEC,
		       "count %llu min %llu max %llu", (unsigned long long)g->count,
		       (unsigned long long)g->min, (unsigned long long)g->max);
	}
	/* every task: six wakeups (root's spawn; S's and the hog's forks;
	 * S's timer; root woken at S's exit, 11 ms, waiting for the hog's
	 * next slice to end at 21 ms; root woken at the hog's exit, no
	 * wait), and in the run queue also the hog's two preemptions (1 ms
	 * while S ran; none at 21 ms, when root blocked at once) */
	const struct sl_hist *w = sl_sim_latency(sim, SL_LAT_WAKEUP, 0);
	const struct sl_hist *q = sl_sim_latency(sim, SL_LAT_RUNQ, 0);
	CHECK(w && w->count == 6 && w->max == 10 * SL_MSEC);
	CHECKF(q && q->count == 8 && q->max == 10 * SL_MSEC, "runq count %llu max %llu", q ? (unsigned long long)q->count : 0ull, q ? (unsigned long long)q->max : 0ull);
	CHECK(sl_sim_latency(sim, SL_LAT_RUNQ, 2) == NULL);	/* no task in group 2 */
	sl_sim_destroy(sim);
}

SL_TEST(engine_idle_while_waiting_counts_the_idle_cpu)
{
	/* Two CPUs, tasks run only on CPU 0: of two 10 ms hogs one waits
	 * 10 ms, then the root, woken at the first exit, waits 10 ms more,
	 * all while CPU 1 idles: 20 ms of CPU 1 wasted, in one stretch. */
	struct sl_machine m;
	struct sl_sim *sim = make_restricted_sim(&m, "pack:1 core:2 pu:1", true);
	CHECK(sim != NULL);
	if (!sim)
		return;
	spawn_two_hogs(sim, &script_prog, 10e6);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(st.elapsed_ns == 20 * SL_MSEC, "elapsed %lld", (long long)st.elapsed_ns);
	CHECKF(st.idle_waiting_ns == 20 * SL_MSEC, "wasted %lld", (long long)st.idle_waiting_ns);
	CHECK(st.idle_waiting_max_ns == 20 * SL_MSEC);
	CHECK(st.smt_shared_idle_ns == 0);	/* no SMT */
	sl_sim_destroy(sim);

	/* the FIFO that uses every idle CPU wastes nothing */
	sim = make_sim(&m, "pack:1 core:2 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	spawn_two_hogs(sim, &script_prog, 10e6);
	CHECK(run(sim, &st) == 0);
	CHECKF(st.idle_waiting_ns == 0 && st.idle_waiting_max_ns == 0, "wasted %lld",
	       (long long)st.idle_waiting_ns);
	sl_sim_destroy(sim);
}

SL_TEST(engine_smt_shared_while_a_core_idles)
{
	/* Two cores of two siblings, tasks only on core 0: the two hogs share
	 * it for the whole run while core 1 idles; nothing waits. */
	struct sl_machine m;
	struct sl_sim *sim = make_restricted_sim(&m, "pack:1 core:2 pu:2", false);
	CHECK(sim != NULL);
	if (!sim)
		return;
	spawn_two_hogs(sim, &script_prog, 10e6);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.smt_shared_idle_ns - st.elapsed_ns) <= 2, "shared %lld elapsed %lld",
	       (long long)st.smt_shared_idle_ns, (long long)st.elapsed_ns);
	CHECK(st.elapsed_ns > 10 * SL_MSEC);	/* siblings slow each other */
	CHECK(st.idle_waiting_ns == 0);
	sl_sim_destroy(sim);
}

/* A root whose tasks (and their children) run at the reference speed. */
static void steady_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->steady_speed = true;
	script_step(sim, t, next);
}

static const struct sl_prog steady_prog = { .name = "steady", .step = steady_step };

SL_TEST(engine_steady_speed_ignores_the_sibling)
{
	/* the two hogs of engine_smt_siblings_share_a_core, steady: each
	 * burst takes its work in wall time, as a replayed CPU time does */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:2", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	spawn_two_hogs(sim, &steady_prog, 1e8);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 100 * SL_MSEC) <= 2, "elapsed %lld", (long long)st.elapsed_ns);
	CHECKF(llabs(st.user_ns - 200 * SL_MSEC) <= 4, "user %lld", (long long)st.user_ns);
	sl_sim_destroy(sim);
}

/* Records, at each step, what the task still owes and when. */
struct probe {
	struct script s;
	int n;
	double owed[8];
	sl_time at[8];
};

static void probe_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct probe *p = t->prog_state;
	if (p->n < 8) {
		p->owed[p->n] = sl_task_costs_owed(t);
		p->at[p->n++] = sl_now(sim);
	}
	script_step(sim, t, next);
}

static const struct sl_prog probe_prog = { .name = "probe", .step = probe_step };

SL_TEST(engine_pay_costs_lets_the_costs_run_first)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.exec_ns = 200000;
	struct probe *p = sl_sim_alloc(sim, sizeof(*p));
	script_add(&p->s, (struct sl_action){ .kind = SL_ACT_EXEC });
	script_add(&p->s, (struct sl_action){ .kind = SL_ACT_PAY_COSTS });
	script_add(&p->s, sl_act_run(1e6, SL_WC_INT));
	sl_sim_spawn_root(sim, &probe_prog, &p->s, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	/* steps: exec at 0; PAY_COSTS with the exec's cost owed; the run
	 * once it is paid (0.2 ms), owing nothing */
	CHECK(p->n >= 3);
	CHECKF(p->owed[1] == 200000 && p->at[1] == 0, "owed %g at %lld", p->owed[1],
	       (long long)p->at[1]);
	CHECKF(p->owed[2] == 0 && p->at[2] == 200000, "owed %g at %lld", p->owed[2],
	       (long long)p->at[2]);
	sl_sim_destroy(sim);
}

/* A task with a 512 KB cache footprint. */
static void footprint_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->footprint_kb = 512;
	script_step(sim, t, next);
}

static const struct sl_prog footprint_prog = { .name = "footprint", .step = footprint_step };

/* A task whose footprint is more than any cache: it refills a whole one. */
static void big_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->footprint_kb = 1u << 20;
	script_step(sim, t, next);
}

static const struct sl_prog big_prog = { .name = "big", .step = big_step };

SL_TEST(engine_refill_is_paid_only_with_work)
{
	/* A runs 1 ms and sleeps 5; B's 20 ms hog runs meanwhile (FIFO: 10
	 * ms slices) and evicts A's cache, so A comes back cold to a 2 ms
	 * refill - but only to exit, which touches none of it: 21 ms in all.
	 * (Paying the refill before blocking made it 23, and made tasks that
	 * are preempted before they pay it stall for ever.) */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.refill_ns[SL_MIGR_NONE] = 2 * SL_MSEC;
	struct script *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_run(1e6, SL_WC_INT));
	script_add(a, sl_act_sleep(5 * SL_MSEC));
	script_add(b, sl_act_run(2e7, SL_WC_INT));
	sl_sim_spawn_root(sim, &footprint_prog, a, "a");
	sl_sim_spawn_root(sim, &footprint_prog, b, "b");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 21 * SL_MSEC) <= 2, "elapsed %lld", (long long)st.elapsed_ns);
	CHECKF(llabs(st.user_ns - 21 * SL_MSEC) <= 2, "user %lld", (long long)st.user_ns);
	sl_sim_destroy(sim);
}

/* Run tasks A and H (roots of programs pa and ph on scripts a and h) to
 * the end: their user time, or -1 if the run failed; sim is destroyed. */
static sl_time user_of_a_and_h(struct sl_sim *sim, const struct sl_prog *pa, struct script *a,
			       const struct sl_prog *ph, struct script *h)
{
	sl_sim_spawn_root(sim, pa, a, "a");
	sl_sim_spawn_root(sim, ph, h, "h");
	struct sl_run_stats st;
	int rc = run(sim, &st);
	sl_sim_destroy(sim);
	return rc ? -1 : st.user_ns;
}

/* A (1 ms, a 3 ms sleep, 2 ms; 512 KB) on CPU 0 and a 10 ms hog H on its
 * SMT sibling, from the start, on one core whose siblings do not slow each
 * other and whose L2 is its last cache (a P4 HT's 512 KB); H's lines are
 * `hog`'s.  Returns the user time of both. */
static sl_time user_beside_a_hog(const struct sl_prog *hog, sl_time *refill)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "p4ht-3066", 1);
	if (!sim)
		return -1;
	m.speed.smt_pair[SL_WC_INT][SL_WC_INT] = 1.0;
	m.speed.refill_ns[SL_MIGR_NONE] = SL_MSEC;
	m.speed.touch_kb_per_ms = 1e6;		/* a task touches its lines at once */
	*refill = sl_cache_refill(&m.speed, SL_MIGR_NONE, 0.0, 512, false);
	struct script *a = script_new(sim), *h = script_new(sim);
	script_add(a, sl_act_run(SL_MSEC, SL_WC_INT));
	script_add(a, sl_act_sleep(3 * SL_MSEC));
	script_add(a, sl_act_run(2 * SL_MSEC, SL_WC_INT));
	script_add(h, sl_act_run(10 * SL_MSEC, SL_WC_INT));
	return user_of_a_and_h(sim, &footprint_prog, a, hog, h);
}

/* SMT siblings share their core's L2: what the sibling brings in while a
 * task sleeps evicts it as if it ran on the task's own CPU; what it
 * brought in while both ran is in the SMT pair speed, and does not.
 * (Until Dec 2026 only the task's own CPU counted: A came back warm
 * beside any hog.) */
SL_TEST(engine_smt_sibling_evicts_a_sleeping_task)
{
	sl_time refill;
	/* H keeps bringing in new lines while A sleeps: A returns cold and
	 * pays a whole refill alongside its 2 ms */
	sl_time cold = user_beside_a_hog(&big_prog, &refill);
	CHECK(refill > 0 && refill < 2 * SL_MSEC);
	CHECKF(llabs(cold - (13 * SL_MSEC + refill)) <= 2, "user %lld, refill %lld",
	       (long long)cold, (long long)refill);
	/* H brought its 512 KB in at once, while A ran, and nothing after:
	 * A returns warm (the lines H touched before A left count before
	 * A's mark, though H is settled only after A's switch) */
	sl_time warm = user_beside_a_hog(&footprint_prog, &refill);
	CHECKF(llabs(warm - 13 * SL_MSEC) <= 2, "user %lld", (long long)warm);
}

/* A (1 ms, a 2 ms sleep, 2 ms) and H (a 1.5 ms sleep, then a 10 ms hog)
 * on two single-CPU cores of one package: A starts on CPU 0 and H on CPU
 * 1; H wakes onto CPU 0 while A sleeps, so A comes back on CPU 1: each
 * moved once, and refills its footprint alongside its next work.  With
 * `stream` H streams through a 1 GB footprint and everything evicts at
 * once; without, nothing evicts anything (no cache loses a line to the
 * other task).  Returns the tasks' user time, one refill at the level the
 * moves crossed, and one of A's footprint from memory. */
static sl_time moved_task_user(const char *shape, bool stream, sl_time *refill,
			       enum sl_migr_level *level, sl_time *from_memory)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, shape, 1);
	if (!sim)
		return -1;
	m.speed.refill_ns[SL_MIGR_CORE] = SL_MSEC / 2;
	m.speed.refill_ns[SL_MIGR_PACKAGE] = 2 * SL_MSEC;
	m.speed.refill_ns[SL_MIGR_NONE] = 2 * SL_MSEC;
	m.speed.touch_kb_per_ms = stream ? 1e6 : 0;
	*level = m.topo.cpu_llc[0] == m.topo.cpu_llc[1] ? SL_MIGR_CORE : SL_MIGR_PACKAGE;
	*refill = sl_cache_refill(&m.speed, *level, 0.0, m.topo.l2_kb / 2, false);
	*from_memory = sl_cache_refill_in_place(&m.speed, 0.0, 0.0, m.topo.l2_kb / 2, false);
	struct script *a = script_new(sim), *h = script_new(sim);
	script_add(a, sl_act_run(SL_MSEC, SL_WC_INT));
	script_add(a, sl_act_sleep(2 * SL_MSEC));
	script_add(a, sl_act_run(2 * SL_MSEC, SL_WC_INT));
	script_add(h, sl_act_sleep(3 * SL_MSEC / 2));
	script_add(h, sl_act_run(10 * SL_MSEC, SL_WC_INT));
	return user_of_a_and_h(sim, &script_prog, a, stream ? &big_prog : &script_prog, h);
}

/* Cores that share a last-level cache refill a moved task's L2 from it
 * (the core level); cores of one package with an L3 each (chiplets) do
 * not share one, and the move refills from memory (the package level),
 * as a move to another package does. */
SL_TEST(engine_move_between_llcs_of_a_package_refills_from_memory)
{
	sl_time shared_refill, split_refill, mem;
	enum sl_migr_level shared_level, split_level;
	sl_time shared = moved_task_user("pack:1 l3:1 core:2 pu:1", false, &shared_refill,
					 &shared_level, &mem);
	sl_time split = moved_task_user("pack:1 l3:2 core:1 pu:1", false, &split_refill,
					&split_level, &mem);

	CHECK(shared_level == SL_MIGR_CORE && split_level == SL_MIGR_PACKAGE);
	CHECK(shared_refill > 0 && split_refill > shared_refill);
	/* 13 ms of work and two refills, one per move */
	CHECKF(llabs(shared - (13 * SL_MSEC + 2 * shared_refill)) <= 2, "shared LLC: user %lld, "
	       "refill %lld", (long long)shared, (long long)shared_refill);
	CHECKF(llabs(split - (13 * SL_MSEC + 2 * split_refill)) <= 2, "an LLC each: user %lld, "
	       "refill %lld", (long long)split, (long long)split_refill);
}

/* A move to another core of the LLC refills the L2 from the LLC only with
 * what the LLC still holds: H streamed through it while A slept, so A's
 * footprint comes from memory (until Dec 2026 such a move always paid the
 * LLC's rate, cheaper than staying put, an audit of the engine found). */
SL_TEST(engine_move_within_an_llc_pays_what_the_llc_lost)
{
	sl_time core_refill, mem;
	enum sl_migr_level level;
	sl_time user = moved_task_user("pack:1 l3:1 core:2 pu:1", true, &core_refill, &level, &mem);

	CHECK(level == SL_MIGR_CORE && mem > core_refill);
	/* A's refill from memory (13.75 ms in all when it paid the LLC's
	 * rate); H's, which moved too, at least at the LLC's rate */
	CHECKF(user >= 13 * SL_MSEC + mem + core_refill - 2, "user %lld: A from memory %lld, "
	       "from the LLC %lld", (long long)user, (long long)mem, (long long)core_refill);
}

SL_TEST(engine_cold_task_runs_at_half_speed_or_better)
{
	/* Two 30 ms hogs take turns in 10 ms slices, each return to a cache
	 * the other evicted: a refill of 8 ms, paid alongside the work at
	 * half speed, so a slice does 5 ms of work and 5 of refill; the 3 ms
	 * of refill left over and the next 8 are capped at the footprint's
	 * 8.  First slices 10 ms of work each, then 5 per slice: 10 slices,
	 * 100 ms. */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.refill_ns[SL_MIGR_NONE] = 8 * SL_MSEC;
	m.speed.touch_kb_per_ms = 1e6;		/* a slice evicts the whole cache */
	struct script *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_run(3e7, SL_WC_INT));
	script_add(b, sl_act_run(3e7, SL_WC_INT));
	sl_sim_spawn_root(sim, &big_prog, a, "a");
	sl_sim_spawn_root(sim, &big_prog, b, "b");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 100 * SL_MSEC) <= 10, "elapsed %lld",
	       (long long)st.elapsed_ns);
	CHECKF(llabs(st.user_ns - st.elapsed_ns) <= 2, "user %lld", (long long)st.user_ns);
	sl_sim_destroy(sim);
}

/* Notes each task's birth (the fork's end) and first step. */
struct birth {
	struct script s;
	sl_time born, first;
};

static void birth_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct birth *b = t->prog_state;
	if (b->s.pc == 0) {
		b->born = t->start_ns;
		b->first = sl_now(sim);
	}
	script_step(sim, t, next);
}

static const struct sl_prog birth_prog = { .name = "birth", .step = birth_step };

static struct sl_action fork_birth(struct birth *child)
{
	struct sl_action a = fork_of(&child->s);
	a.u.fork.prog = &birth_prog;
	a.u.fork.state = child;
	return a;
}

/* fork() is a system call: the parent pays its cost, and the child exists
 * at its end (wake_up_forked_process at the end of do_fork), so a loop of
 * forks with no work between has its children born one fork cost apart,
 * and the cost is charged once. */
SL_TEST(engine_back_to_back_forks_are_one_fork_cost_apart)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.fork_ns = 200000;
	struct probe *p = sl_sim_alloc(sim, sizeof(*p));
	struct birth *kids[3];
	for (int i = 0; i < 3; i++) {
		kids[i] = sl_sim_alloc(sim, sizeof(*kids[i]));
		script_add(&kids[i]->s, sl_act_run(1e6, SL_WC_INT));
		script_add(&p->s, fork_birth(kids[i]));
	}
	for (int i = 0; i < 3; i++)
		script_add(&p->s, sl_act_wait());
	sl_sim_spawn_root(sim, &probe_prog, &p->s, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	for (int i = 0; i < 3; i++) {
		CHECKF(kids[i]->born == (i + 1) * 200000, "child %d born at %lld", i,
		       (long long)kids[i]->born);
		/* each fork returns with its cost paid */
		CHECKF(p->at[i + 1] == (i + 1) * 200000 && p->owed[i + 1] == 0,
		       "step %d at %lld owing %g", i + 1, (long long)p->at[i + 1], p->owed[i + 1]);
	}
	CHECKF(st.sys_ns == 3 * 200000, "sys %lld", (long long)st.sys_ns);
	CHECKF(st.user_ns == 3 * SL_MSEC, "user %lld", (long long)st.user_ns);
	sl_sim_destroy(sim);
}

/* A FIFO whose newcomers (forked or woken) go first and preempt: the
 * child-runs-first of 2.5/2.6's do_fork, a wakeup that preempts. */
static void fifo_push_front(struct sl_sim *sim, struct sl_task *t)
{
	struct fifo *f = sl_policy_data(sim);
	struct fifo_task *ft = sl_task_policy(t);
	ft->next = f->head;
	ft->queued = true;
	f->head = t;
	if (!f->tail)
		f->tail = t;
}

static void first_fork(struct sl_sim *sim, struct sl_task *p, struct sl_task *t)
{
	fifo_push_front(sim, t);
	sl_resched(sim, p ? p->cpu : 0);
}

static void first_wakeup(struct sl_sim *sim, struct sl_task *t, int w, unsigned fl)
{
	(void)fl;
	fifo_push_front(sim, t);
	sl_resched(sim, w >= 0 && sl_curr(sim, w) ? w : 0);
}

static struct sl_task *first_pick(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	(void)cpu;
	if (prev && prev->state == SL_TASK_RUNNABLE)
		fifo_push(sim, prev);	/* preempted: behind the newcomer */
	return fifo_pop(sim);
}

static const struct sl_policy_ops first_ops = {
	.name = "first", .summary = "test: newcomers first", .task_size = sizeof(struct fifo_task),
	.init = fifo_init, .fork = first_fork, .wakeup = first_wakeup,
	.pick_next = first_pick, .tick = fifo_tick,
};

static struct sl_sim *make_first_sim(struct sl_machine *m)
{
	struct sl_err err = { 0 };
	if (sl_machine_load(m, "pack:1 core:1 pu:1", &err))
		return NULL;
	zero_costs(m);
	struct sl_sim_config cfg = { .machine = m, .policy = &first_ops, .seed = 1, .check = true };
	return sl_sim_create(&cfg, &err);
}

/* The return to user space after a system call acts on need_resched: a
 * parent whose fork marked its CPU goes no further (not to its next fork)
 * until the child has had the CPU. */
SL_TEST(engine_need_resched_stops_the_parent_after_fork)
{
	struct sl_machine m;
	struct sl_sim *sim = make_first_sim(&m);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct probe *p = sl_sim_alloc(sim, sizeof(*p));
	struct birth *a = sl_sim_alloc(sim, sizeof(*a)), *b = sl_sim_alloc(sim, sizeof(*b));
	script_add(&a->s, sl_act_run(1e6, SL_WC_INT));
	script_add(&b->s, sl_act_run(1e6, SL_WC_INT));
	script_add(&p->s, fork_birth(a));
	script_add(&p->s, fork_birth(b));
	script_add(&p->s, sl_act_wait());
	script_add(&p->s, sl_act_wait());
	sl_sim_spawn_root(sim, &probe_prog, &p->s, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	/* a runs at once and to its end (1 ms); only then the second fork */
	CHECKF(a->first == 0, "a first ran at %lld", (long long)a->first);
	CHECKF(p->at[1] == SL_MSEC && b->born == SL_MSEC, "second fork asked at %lld, b born "
	       "at %lld", (long long)p->at[1], (long long)b->born);
	CHECK(st.nivcsw >= 2);	/* the root, preempted at each fork */
	sl_sim_destroy(sim);
}

/* sl_chan_reader_waits (a workload's wq_has_sleeper): true while a task
 * is blocked reading the channel, false once it is woken, whatever the
 * channel holds. */
static struct chan_log {
	struct sl_chan *ch;
	int n;
	bool rd[8];	/* a reader blocked on ch, at each step */
	bool woke[8];	/* ch's last read woke a writer, at each step */
} waits_log, space_log;

/* A script that logs `log`'s channel at each step. */
static void chan_log_step(struct chan_log *log, struct sl_sim *sim, struct sl_task *t,
			  struct sl_action *next)
{
	if (log->n < 8) {
		log->rd[log->n] = sl_chan_reader_waits(log->ch);
		log->woke[log->n++] = sl_chan_read_woke_writer(log->ch);
	}
	script_step(sim, t, next);
}

static void waits_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	chan_log_step(&waits_log, sim, t, next);
}

static const struct sl_prog waits_prog = { .name = "waits", .step = waits_step };

static struct sl_action chan_act(enum sl_act_kind kind, long bytes)
{
	return (struct sl_action){ .kind = kind, .u.chan = { .chan = waits_log.ch, .bytes = bytes } };
}

SL_TEST(engine_chan_tells_whether_a_reader_waits)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	waits_log.ch = sl_chan_new(sim, 1, false);
	waits_log.n = 0;
	/* the reader runs 2 ms, reads the byte written at 1 ms, and blocks
	 * on a second read until the writer, after 3 ms more, writes again */
	struct script *rd = script_new(sim), *w = script_new(sim);
	script_add(rd, sl_act_run(2e6, SL_WC_INT));
	script_add(rd, chan_act(SL_ACT_CHAN_READ, 1));
	script_add(rd, chan_act(SL_ACT_CHAN_READ, 1));
	script_add(w, sl_act_run(1e6, SL_WC_INT));
	script_add(w, chan_act(SL_ACT_CHAN_WRITE, 1));
	script_add(w, sl_act_run(3e6, SL_WC_INT));
	script_add(w, chan_act(SL_ACT_CHAN_WRITE, 1));
	struct sl_action fr = fork_of(rd), fw = fork_of(w);
	fw.u.fork.prog = &waits_prog;
	spawn_pair(sim, fr, fw);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	/* the writer's steps: at 1 ms before its first write (the channel
	 * empty, the reader running: nobody to wake, where the old "empty
	 * channel" rule paid a wakeup), at 4 ms before its second (the reader
	 * blocked since 2 ms), at its exit (the reader woken) */
	CHECKF(waits_log.n == 5, "%d steps", waits_log.n);
	CHECK(waits_log.n < 2 || !waits_log.rd[1]);
	CHECK(waits_log.n < 4 || waits_log.rd[3]);
	CHECK(waits_log.n < 5 || !waits_log.rd[4]);
	sl_sim_destroy(sim);
}

/* A channel's write space (an AF_UNIX socket's unix_writable: a quarter
 * of sk_sndbuf): a writer blocked on a full channel is woken only by the
 * read that leaves at most that much queued, and that read says so. */
static void space_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	chan_log_step(&space_log, sim, t, next);
}

static const struct sl_prog space_prog = { .name = "space", .step = space_step };

/* The time the writer's third step (after its blocked write) was asked,
 * with the channel's write space `space` (< 0: the default). */
static sl_time writer_woken_at(long space)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return -1;
	space_log.ch = sl_chan_new(sim, 4, false);
	space_log.n = 0;
	if (space >= 0)
		sl_chan_set_write_space(space_log.ch, space);
	/* w fills the channel and blocks on one byte more; r takes a byte
	 * every millisecond */
	struct probe *w = sl_sim_alloc(sim, sizeof(*w));
	struct script *rd = script_new(sim);
	script_add(&w->s, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = space_log.ch, .bytes = 4 } });
	script_add(&w->s, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = space_log.ch, .bytes = 1 } });
	for (int i = 0; i < 4; i++) {
		script_add(rd, sl_act_run(1e6, SL_WC_INT));
		script_add(rd, (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = space_log.ch, .bytes = 1 } });
	}
	struct sl_action fr = fork_of(rd), fw = fork_of(&w->s);
	fr.u.fork.prog = &space_prog;
	fw.u.fork.prog = &probe_prog;
	fw.u.fork.state = w;
	spawn_pair(sim, fw, fr);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	sl_time at = w->n >= 3 ? w->at[2] : -1;
	sl_sim_destroy(sim);
	return at;
}

SL_TEST(engine_chan_write_space_holds_the_writer)
{
	/* any read wakes it by default (a pipe): the first, at 1 ms */
	sl_time at = writer_woken_at(-1);
	CHECKF(at == SL_MSEC, "default: writer woken at %lld", (long long)at);
	CHECK(space_log.n >= 4 && space_log.woke[2] && !space_log.woke[4]);
	/* a quarter of 4 bytes: the third read, at 3 ms, leaves 1 queued */
	at = writer_woken_at(1);
	CHECKF(at == 3 * SL_MSEC, "write space 1: writer woken at %lld", (long long)at);
	/* r's steps: its start, then run/read pairs: woke is read after each
	 * read's step, so reads 1-3 are at steps 2, 4, 6 */
	CHECKF(space_log.n >= 8 && !space_log.woke[2] && !space_log.woke[4] &&
	       space_log.woke[6], "%d steps", space_log.n);
	/* none left queued: only the last read */
	at = writer_woken_at(0);
	CHECKF(at == 4 * SL_MSEC, "write space 0: writer woken at %lld", (long long)at);
}

/* A reader that records what each of its reads returned. */
static struct {
	long got[4];
	int n;
} atomic_log;

static void atomic_reader_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	if (t->act.kind == SL_ACT_CHAN_READ && atomic_log.n < 4)
		atomic_log.got[atomic_log.n++] = t->result;
	script_step(sim, t, next);
}

static const struct sl_prog atomic_reader_prog = { .name = "reader", .step = atomic_reader_step };

/* What the reader's two reads of 4096 get when the writer puts `first`
 * then `second` bytes into a 4096-byte pipe (or socket buffer) before
 * the reader's first read at 1 ms. */
static void pipe_reads(bool pipe, long first, long second, long got[2])
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	got[0] = got[1] = -1;
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct sl_chan *ch = sl_chan_new(sim, 4096, pipe);
	struct script *w = script_new(sim), *rd = script_new(sim);
	script_add(w, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = ch, .bytes = first } });
	script_add(w, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = ch, .bytes = second } });
	script_add(rd, sl_act_run(1e6, SL_WC_INT));
	script_add(rd, (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = ch, .bytes = 4096 } });
	script_add(rd, (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = ch, .bytes = 4096 } });
	atomic_log.n = 0;
	struct sl_action fr = fork_of(rd);
	fr.u.fork.prog = &atomic_reader_prog;
	spawn_pair(sim, fork_of(w), fr);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECK(atomic_log.n >= 2);
	got[0] = atomic_log.got[0];
	got[1] = atomic_log.got[1];
	sl_sim_destroy(sim);
}

SL_TEST(engine_pipe_write_up_to_pipe_buf_is_atomic)
{
	long got[2];
	/* 4000 bytes queued, then a write of 200: it waits for room for all
	 * 200 (2.4.27 pipe_write: count <= PIPE_BUF is atomic), so the first
	 * read finds 4000 and the second the 200; once it put 96 in at once */
	pipe_reads(true, 4000, 200, got);
	CHECKF(got[0] == 4000 && got[1] == 200, "pipe: reads of %ld and %ld", got[0], got[1]);
	/* a socket buffer takes what fits */
	pipe_reads(false, 4000, 200, got);
	CHECKF(got[0] == 4096 && got[1] == 104, "socket: reads of %ld and %ld", got[0], got[1]);
	/* beyond PIPE_BUF a pipe write goes in pieces too */
	pipe_reads(true, 100, 5000, got);
	CHECKF(got[0] == 4096 && got[1] == 1004, "pipe, 5000 B: reads of %ld and %ld", got[0],
	       got[1]);
}

/* ... and a writer whose write woke a reader that preempts it stops
 * there, runnable, until the reader has had the CPU. */
SL_TEST(engine_need_resched_stops_the_waker)
{
	struct sl_machine m;
	struct sl_sim *sim = make_first_sim(&m);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct sl_chan *pipe = sl_chan_new(sim, 4096, false);
	struct probe *w = sl_sim_alloc(sim, sizeof(*w)), *rd = sl_sim_alloc(sim, sizeof(*rd));
	script_add(&rd->s, (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = pipe, .bytes = 1 } });
	script_add(&rd->s, sl_act_run(1e6, SL_WC_INT));
	script_add(&w->s, sl_act_run(1e6, SL_WC_INT));
	script_add(&w->s, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = pipe, .bytes = 1 } });
	script_add(&w->s, (struct sl_action){ .kind = SL_ACT_CHAN_CLOSE, .u.chan = { .chan = pipe, .bytes = 0 } });
	script_add(&w->s, sl_act_run(1e6, SL_WC_INT));
	struct sl_action fr = fork_of(&rd->s), fw = fork_of(&w->s);
	fr.u.fork.prog = fw.u.fork.prog = &probe_prog;
	fr.u.fork.state = rd;
	fw.u.fork.state = w;
	spawn_pair(sim, fr, fw);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	/* r blocks at 0; w runs 1 ms and writes; r runs its 1 ms; only then
	 * does w go on to close the pipe */
	CHECKF(w->at[1] == SL_MSEC && rd->at[1] == SL_MSEC, "write at %lld, read done at %lld",
	       (long long)w->at[1], (long long)rd->at[1]);
	CHECKF(w->at[2] == 2 * SL_MSEC, "close asked at %lld", (long long)w->at[2]);
	sl_sim_destroy(sim);
}

SL_TEST(engine_fork_costs_are_system_time)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.fork_ns = 200000;
	m.speed.exit_ns = 100000;
	spawn_one(sim, sl_act_run(1e7, SL_WC_INT));
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	/* fork 0.2 ms + two exits 0.1 ms each, all system time */
	CHECKF(llabs(st.sys_ns - 400000) < 10, "sys %lld", (long long)st.sys_ns);
	CHECKF(llabs(st.user_ns - 10000000) < 10, "user %lld", (long long)st.user_ns);
	CHECK(st.nvcsw >= 1);	/* the parent waited */
	sl_sim_destroy(sim);
}

/* A task's name is cut to 15 characters at fork and at exec (the
 * kernel's TASK_COMM_LEN); a short one is copied whole. */
SL_TEST(engine_comm_cut_at_fork_and_exec)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *root = script_new(sim);
	script_add(root, sl_act_run(1e6, SL_WC_INT));
	struct sl_action ex = { .kind = SL_ACT_EXEC };
	ex.u.exec.comm = "cc1-with-a-long-name";
	script_add(root, ex);
	script_add(root, sl_act_run(1e9, SL_WC_INT));	/* alive at the time limit */
	struct sl_task *t = sl_sim_spawn_root(sim, &script_prog, root, "a-root-of-many-letters");
	CHECKF(strcmp(t->comm, "a-root-of-many-") == 0, "comm '%s'", t->comm);
	sl_sim_set_time_limit(sim, 10 * SL_MSEC);
	struct sl_err err = { 0 };
	CHECK(sl_sim_run(sim, &err) == 0);
	CHECKF(strcmp(t->comm, "cc1-with-a-long") == 0, "comm after exec '%s'", t->comm);
	sl_sim_destroy(sim);
}

SL_TEST(engine_sleep_blocks_for_its_time)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *s = script_new(sim);
	script_add(s, sl_act_run(1e6, SL_WC_INT));
	script_add(s, sl_act_sleep(50 * SL_MSEC));
	script_add(s, sl_act_run(1e6, SL_WC_INT));
	sl_sim_spawn_root(sim, &script_prog, s, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 52 * SL_MSEC) < 10, "elapsed %lld", (long long)st.elapsed_ns);
	CHECK(st.nvcsw == 1);
	const struct sl_cpu_stats *cs = sl_sim_cpu_stats(sim, 0);
	CHECK(llabs(cs->idle_ns - 50 * SL_MSEC) < 10);
	sl_sim_destroy(sim);
}

/* A pipe: the writer sends 10 x 1000 bytes through a 4096-byte pipe; the
 * reader reads 512 at a time until EOF and counts the bytes. */
struct pipe_state { struct sl_chan *ch; long got; int writes; };

static void writer_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	struct pipe_state *p = t->prog_state;
	if (p->writes < 10) {
		p->writes++;
		*next = (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = p->ch, .bytes = 1000 } };
	} else if (p->writes == 10) {
		p->writes++;
		*next = (struct sl_action){ .kind = SL_ACT_CHAN_CLOSE, .u.chan = { .chan = p->ch, .bytes = 0 } };
	} else {
		*next = sl_act_exit();
	}
}

static void reader_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	struct pipe_state *p = t->prog_state;
	if (t->act.kind == SL_ACT_CHAN_READ) {
		if (t->result == 0) {
			*next = sl_act_exit();
			return;
		}
		p->got += t->result;
	}
	*next = (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = p->ch, .bytes = 512 } };
}

static const struct sl_prog writer_prog = { .name = "writer", .step = writer_step };
static const struct sl_prog reader_prog = { .name = "reader", .step = reader_step };

SL_TEST(engine_pipe_moves_every_byte)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct pipe_state *p = sl_sim_alloc(sim, sizeof(*p));
	p->ch = sl_chan_new(sim, 4096, true);
	struct sl_task *r = sl_sim_spawn_root(sim, &reader_prog, p, "reader");
	sl_sim_spawn_root(sim, &writer_prog, p, "writer");
	CHECK(r->id == 0);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECK(p->got == 10000);
	CHECK(sl_chan_level(p->ch) == 0);
	sl_sim_destroy(sim);
}

/* Pipe wakeups (sync.c): sync only when the waker is about to sleep, as
 * 2.4.27 and 2.6.11 fs/pipe.c (pipe_write's "Synchronous wake-up: it knows
 * that this process is going to give up this CPU" before pipe_wait, and
 * "Signal readers asynchronously" / "writers asynchronously" when the call
 * returns); SL_WAKE_PIPE marks the others.  The FIFO policy, recording the
 * flags of every wakeup. */
struct flagrec { struct fifo f; int n; char who[8], curr[8]; unsigned flags[8]; };

static void *flagrec_init(struct sl_sim *sim, const struct sl_params *k, struct sl_err *e)
{
	(void)k; (void)e;
	sl_set_hz(sim, 1000);
	return sl_sim_alloc(sim, sizeof(struct flagrec));
}

static void flagrec_wakeup(struct sl_sim *sim, struct sl_task *t, int w, unsigned fl)
{
	struct flagrec *r = sl_policy_data(sim);
	if (r->n < 8) {
		struct sl_task *curr = sl_curr(sim, w);
		r->who[r->n] = t->comm[0];
		r->curr[r->n] = curr ? curr->comm[0] : '-';
		r->flags[r->n++] = fl;
	}
	fifo_wakeup(sim, t, w, fl);
}

static const struct sl_policy_ops flagrec_ops = {
	.name = "flagrec", .summary = "test FIFO recording wakeup flags",
	.task_size = sizeof(struct fifo_task), .init = flagrec_init, .fork = fifo_enqueue_new,
	.wakeup = flagrec_wakeup, .pick_next = fifo_pick, .tick = fifo_tick,
};

enum chan_kind { CH_PLAIN, CH_PIPE, CH_UNIX, CH_TCP };

/* One CPU: r reads 100 bytes (and blocks: the pipe is empty), then reads
 * until EOF; w writes `bytes` into a 4096-byte channel (a pipe, an AF_UNIX
 * or a TCP socket, or a plain channel) and closes it.  The recorded
 * wakeups. */
static struct flagrec chan_wakeups(long bytes, enum chan_kind kind)
{
	bool pipe = kind == CH_PIPE;
	struct flagrec out = { .n = -1 };
	struct sl_machine m;
	struct sl_sim *sim = load_zeroed(&m, "pack:1 core:1 pu:1")
			     ? checked_sim(&m, &flagrec_ops, 1, NULL) : NULL;
	if (!sim)
		return out;
	struct sl_chan *ch = sl_chan_new(sim, 4096, pipe);
	if (kind != CH_PLAIN)	/* a pipe's wakeups stay a pipe's */
		sl_chan_mark_socket(ch, kind == CH_TCP ? SL_SOCK_TCP_LOOPBACK : SL_SOCK_UNIX);
	struct script *r = script_new(sim), *w = script_new(sim);
	script_add(r, (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = ch, .bytes = 100 } });
	for (int i = 0; i < 4; i++)
		script_add(r, (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = ch, .bytes = 8192 } });
	script_add(w, sl_act_run(1e6, SL_WC_INT));
	script_add(w, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = ch, .bytes = bytes } });
	script_add(w, (struct sl_action){ .kind = SL_ACT_CHAN_CLOSE, .u.chan = { .chan = ch, .bytes = 0 } });
	struct sl_action fr = fork_of(r), fw = fork_of(w);
	fr.u.fork.comm = "r";
	fw.u.fork.comm = "w";
	spawn_pair(sim, fr, fw);
	struct sl_run_stats st;
	if (run(sim, &st) == 0)
		out = *(struct flagrec *)sl_policy_data(sim);
	sl_sim_destroy(sim);
	return out;
}

SL_TEST(engine_pipe_wakeup_is_sync_only_before_the_waker_sleeps)
{
	/* a write that fits: w goes on, r's wakeup is the async one */
	struct flagrec a = chan_wakeups(100, CH_PIPE);
	CHECKF(a.n >= 1 && a.who[0] == 'r' && a.flags[0] == SL_WAKE_PIPE,
	       "fitting write: %d wakeups, first %c flags %#x", a.n, a.n > 0 ? a.who[0] : '-',
	       a.n > 0 ? a.flags[0] : 0u);
	/* 5000 bytes into 4096: w fills the pipe and sleeps (sync); r's read
	 * makes room and goes on (async); w's last 904 bytes wake r (async) */
	struct flagrec b = chan_wakeups(5000, CH_PIPE);
	CHECKF(b.n >= 3, "%d wakeups", b.n);
	if (b.n >= 3) {
		CHECKF(b.who[0] == 'r' && b.flags[0] == SL_WAKE_SYNC, "first %c %#x", b.who[0],
		       b.flags[0]);
		CHECKF(b.who[1] == 'w' && b.flags[1] == SL_WAKE_PIPE, "second %c %#x", b.who[1],
		       b.flags[1]);
		CHECKF(b.who[2] == 'r' && b.flags[2] == SL_WAKE_PIPE, "third %c %#x", b.who[2],
		       b.flags[2]);
	}
	/* a channel that is neither a pipe nor a socket: plain wakeups */
	struct flagrec c = chan_wakeups(5000, CH_PLAIN);
	CHECK(c.n >= 3);
	for (int i = 0; i < c.n; i++)	/* but the root's at its children's exits */
		CHECKF(c.flags[i] == 0 || c.flags[i] == SL_WAKE_CHILD_EXIT, "wakeup %d of %c: %#x",
		       i, c.who[i], c.flags[i]);
}

/* A socket's wakeups are SL_WAKE_SOCK, whether or not the waker sleeps
 * (6.12 sock_def_readable and unix_write_space: ..._sync_poll; plain in
 * 2.4.27 and 2.6.11): its reader's always, its writers' for AF_UNIX only
 * (TCP's sk_stream_write_space wakes plainly); loopback TCP's, both ways,
 * also SL_WAKE_IRQ (the NET_RX softirq makes them). */
SL_TEST(engine_socket_wakeups_are_marked)
{
	for (int unix_sock = 0; unix_sock <= 1; unix_sock++) {
		/* w fills the socket and sleeps, r's read wakes it, w's rest
		 * wakes r: the same three wakeups as the pipe's above */
		struct flagrec b = chan_wakeups(5000, unix_sock ? CH_UNIX : CH_TCP);
		CHECKF(b.n >= 3, "%d wakeups", b.n);
		if (b.n < 3)
			continue;
		/* loopback TCP's from the softirq, both ways (in_interrupt) */
		unsigned irq = unix_sock ? 0u : SL_WAKE_IRQ;
		CHECKF(b.who[0] == 'r' && b.flags[0] == (SL_WAKE_SOCK | irq), "first %c %#x",
		       b.who[0], b.flags[0]);
		CHECKF(b.who[1] == 'w' && b.flags[1] == (unix_sock ? SL_WAKE_SOCK : SL_WAKE_IRQ),
		       "unix %d: second %c %#x", unix_sock, b.who[1], b.flags[1]);
		CHECKF(b.who[2] == 'r' && b.flags[2] == (SL_WAKE_SOCK | irq), "third %c %#x",
		       b.who[2], b.flags[2]);
	}
	/* a pipe marked a socket keeps its pipe wakeups: the pipe test above */
}

enum waiter_kind { WAIT_PLAIN, WAIT_PIPE, WAIT_PIPE_EXCL, WAIT_UNIX, WAIT_TCP, WAIT_POLLED };

/* One CPU, FIFO: readers a, b and c block on an empty channel in that
 * order, then w writes three bytes, which wakes all three.  The order of
 * the wakeups, as a string ("cba"), or "" if the run failed. */
static void wake_order(enum waiter_kind kind, char out[4])
{
	struct sl_machine m;
	struct sl_sim *sim = load_zeroed(&m, "pack:1 core:1 pu:1")
			     ? checked_sim(&m, &flagrec_ops, 1, NULL) : NULL;
	out[0] = '\0';
	if (!sim)
		return;
	if (kind == WAIT_PIPE_EXCL)
		sl_set_pipes(sim, SL_PIPES_6_12);
	else if (kind == WAIT_PIPE)
		sl_set_pipes(sim, SL_PIPES_2_6_12);
	struct sl_chan *ch = kind == WAIT_PIPE || kind == WAIT_PIPE_EXCL ? sl_pipe_new(sim, 0)
									 : sl_chan_new(sim, 4096, false);
	if (kind == WAIT_UNIX || kind == WAIT_TCP)
		sl_chan_mark_socket(ch, kind == WAIT_TCP ? SL_SOCK_TCP_LOOPBACK : SL_SOCK_UNIX);
	if (kind == WAIT_POLLED)
		sl_chan_mark_polled(ch);
	struct script *root = script_new(sim);
	static const char *const names[] = { "a", "b", "c" };
	for (int i = 0; i < 3; i++) {
		struct script *rd = script_new(sim);
		script_add(rd, (struct sl_action){ .kind = SL_ACT_CHAN_READ,
						   .u.chan = { .chan = ch, .bytes = 1 } });
		struct sl_action f = fork_of(rd);
		f.u.fork.comm = names[i];
		script_add(root, f);
	}
	struct script *w = script_new(sim);
	script_add(w, sl_act_run(1e6, SL_WC_INT));
	script_add(w, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE,
					  .u.chan = { .chan = ch, .bytes = 3 } });
	struct sl_action fw = fork_of(w);
	fw.u.fork.comm = "w";
	script_add(root, fw);
	for (int i = 0; i < 4; i++)
		script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_run_stats st;
	if (run(sim, &st) == 0) {
		const struct flagrec *r = sl_policy_data(sim);
		int k = 0;
		for (int i = 0; i < r->n && k < 3; i++)
			if (r->who[i] >= 'a' && r->who[i] <= 'c')
				out[k++] = r->who[i];
		out[k] = '\0';
	}
	sl_sim_destroy(sim);
}

/* Who a wake-all reaches first.  A kernel wait queue takes a non-exclusive
 * waiter at its head (add_wait_queue, prepare_to_wait: 2.4.27, 2.6.12.1,
 * 6.12) and wakes from the head, newest first: 2.x pipes (pipe_wait),
 * sockets (sk_sleep) and poll()'s entries.  6.12's pipes wait exclusively,
 * oldest first, and so does a futex (a plain channel).  Until Dec 2026
 * every queue woke oldest first. */
SL_TEST(engine_kernel_wait_queues_wake_the_newest_first)
{
	static const struct { enum waiter_kind kind; const char *order; } cases[] = {
		{ WAIT_PLAIN, "abc" }, { WAIT_PIPE, "cba" }, { WAIT_PIPE_EXCL, "abc" },
		{ WAIT_UNIX, "cba" },  { WAIT_TCP, "cba" },  { WAIT_POLLED, "cba" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char got[4];
		wake_order(cases[i].kind, got);
		CHECKF(strcmp(got, cases[i].order) == 0, "kind %d: woken %s, not %s",
		       (int)cases[i].kind, got, cases[i].order);
	}
}

/* release_task: the policy's release op runs when the parent reaps the
 * child in wait() - REAP's WNOHANG or a WAIT - not at the child's exit
 * (2.4.27 kernel/exit.c sys_wait4 -> release_task; 2.6.11 wait_task_zombie
 * -> release_task -> sched_exit), and never for a child nobody reaps. */
struct relrec { struct fifo f; int n; char who[8]; sl_time at[8]; };

static void *relrec_init(struct sl_sim *sim, const struct sl_params *k, struct sl_err *e)
{
	(void)k; (void)e;
	sl_set_hz(sim, 1000);
	return sl_sim_alloc(sim, sizeof(struct relrec));
}

static void relrec_release(struct sl_sim *sim, struct sl_task *t)
{
	struct relrec *r = sl_policy_data(sim);
	if (r->n < 8) {
		r->who[r->n] = t->comm[0];
		r->at[r->n++] = sl_now(sim);
	}
}

static const struct sl_policy_ops relrec_ops = {
	.name = "relrec", .summary = "test FIFO recording release_task",
	.task_size = sizeof(struct fifo_task), .init = relrec_init, .fork = fifo_enqueue_new,
	.wakeup = fifo_wakeup, .pick_next = fifo_pick, .tick = fifo_tick,
	.release = relrec_release,
};

SL_TEST(engine_release_comes_at_the_reap)
{
	struct sl_machine m;
	CHECK(load_zeroed(&m, "pack:2 core:1 pu:1"));
	struct sl_sim *sim = checked_sim(&m, &relrec_ops, 1, NULL);
	CHECK(sim != NULL);
	if (!sim)
		return;
	/* a exits at 1 ms while the root computes; the root's REAP at 5 ms
	 * reaps it; b, forked then, exits at 6 ms and wakes the root's WAIT;
	 * c outlives the root, and nobody reaps it */
	struct script *a = script_new(sim), *b = script_new(sim), *c = script_new(sim);
	struct probe *root = sl_sim_alloc(sim, sizeof(*root));
	script_add(a, sl_act_run(1e6, SL_WC_INT));
	script_add(b, sl_act_run(1e6, SL_WC_INT));
	script_add(c, sl_act_run(20e6, SL_WC_INT));
	struct sl_action fa = fork_of(a), fb = fork_of(b), fc = fork_of(c);
	fa.u.fork.comm = "a";
	fb.u.fork.comm = "b";
	fc.u.fork.comm = "c";
	script_add(&root->s, fa);
	script_add(&root->s, sl_act_run(5e6, SL_WC_INT));
	script_add(&root->s, sl_act_reap());
	script_add(&root->s, sl_act_reap());	/* nothing left to reap: -1, no sleep */
	script_add(&root->s, fb);
	script_add(&root->s, sl_act_wait());
	script_add(&root->s, fc);
	sl_sim_spawn_root(sim, &probe_prog, root, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	struct relrec *r = sl_policy_data(sim);
	CHECKF(r->n == 2, "%d releases", r->n);
	CHECKF(r->n < 1 || (r->who[0] == 'a' && r->at[0] == 5 * SL_MSEC), "first release: %c at "
	       "%lld", r->n > 0 ? r->who[0] : '-', r->n > 0 ? (long long)r->at[0] : -1LL);
	CHECKF(r->n < 2 || (r->who[1] == 'b' && r->at[1] == 6 * SL_MSEC), "second release: %c at "
	       "%lld", r->n > 1 ? r->who[1] : '-', r->n > 1 ? (long long)r->at[1] : -1LL);
	/* the second REAP did not block: the root asked for b's fork at 5 ms */
	CHECKF(root->n >= 5 && root->at[4] == 5 * SL_MSEC, "fork of b asked at %lld",
	       root->n >= 5 ? (long long)root->at[4] : -1LL);
	sl_sim_destroy(sim);
}

/* A child's exit wakes its parent in wait() with SL_WAKE_CHILD_EXIT, for
 * each policy to read as its kernel did (2.4.27 wake_up_parent: plain; 2.6
 * __wake_up_parent: sync).  It comes while the dying child is still its
 * CPU's current, before that CPU's schedule() (2.4.27/2.6.11 do_exit:
 * exit_notify, then schedule), so that pick sees the parent queued.  One
 * CPU: the root forks c, which works 1 ms and exits, and waits for it. */
SL_TEST(engine_exit_wakeup_is_marked)
{
	struct sl_machine m;
	CHECK(load_zeroed(&m, "pack:1 core:1 pu:1"));
	struct sl_sim *sim = checked_sim(&m, &flagrec_ops, 1, NULL);
	CHECK(sim);
	if (!sim)
		return;
	struct script *root = script_new(sim), *c = script_new(sim);
	script_add(c, sl_act_run(1e6, SL_WC_INT));
	struct sl_action fc = fork_of(c);
	fc.u.fork.comm = "c";
	script_add(root, fc);
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	struct flagrec *r = sl_policy_data(sim);
	CHECKF(r->n == 1 && r->who[0] == 'r' && r->flags[0] == SL_WAKE_CHILD_EXIT,
	       "%d wakeups, first %c flags %#x", r->n, r->n > 0 ? r->who[0] : '-',
	       r->n > 0 ? r->flags[0] : 0u);
	CHECKF(r->n == 1 && r->curr[0] == 'c', "the waker CPU ran %c at the exit wakeup",
	       r->n > 0 ? r->curr[0] : '?');
	sl_sim_destroy(sim);
}

/* A parent that catches SIGCHLD (sl_task_catch_sigchld) is woken by the
 * signal, plainly (2.4.27, 2.6.11 do_notify_parent: signal_wake_up, a plain
 * try_to_wake_up, before __wake_up_parent, which finds it running): reading
 * its bell, where the exit put a byte, and in wait() alike, at the exit
 * (after the exit's own cost).  An exec resets the handler
 * (flush_signal_handlers): wait() then gets the parent wakeup,
 * SL_WAKE_CHILD_EXIT.  One CPU, exits costing 0.5 ms; the parent forks c,
 * reads its bell, forks d, waits, execs, forks e, waits. */
struct sigchld_parent { struct sl_chan *bell; struct script *kid[3]; long got; sl_time woke; };

static void sigchld_parent_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct sigchld_parent *p = t->prog_state;
	switch (t->tag++) {
	case 0:
		sl_task_catch_sigchld(t, true, p->bell);
		*next = fork_of(p->kid[0]);
		return;
	case 1:
		*next = sl_act_chan(SL_ACT_CHAN_READ, p->bell, 8);
		return;
	case 2:
		p->got = t->result;
		p->woke = sl_now(sim);
		*next = sl_act_wait();		/* reaps c */
		return;
	case 3:
		*next = fork_of(p->kid[1]);
		return;
	case 4:
		*next = sl_act_wait();
		return;
	case 5:
		*next = sl_act_exec("p");
		return;
	case 6:
		*next = fork_of(p->kid[2]);
		return;
	case 7:
		*next = sl_act_wait();
		return;
	default:
		*next = sl_act_exit();
	}
}

static const struct sl_prog sigchld_parent_prog = { .name = "parent", .step = sigchld_parent_step };

SL_TEST(engine_caught_sigchld_wakes_plainly_at_the_exit)
{
	struct sl_machine m;
	CHECK(load_zeroed(&m, "pack:1 core:1 pu:1"));
	m.speed.exit_ns = 500e3;
	struct sl_sim *sim = checked_sim(&m, &flagrec_ops, 1, NULL);
	CHECK(sim);
	if (!sim)
		return;
	struct sigchld_parent *p = sl_sim_alloc(sim, sizeof(*p));
	p->bell = sl_chan_new(sim, 64, false);
	for (int i = 0; i < 3; i++) {
		p->kid[i] = script_new(sim);
		script_add(p->kid[i], sl_act_run(1e6, SL_WC_INT));
	}
	sl_sim_spawn_root(sim, &sigchld_parent_prog, p, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	struct flagrec *r = sl_policy_data(sim);
	/* three exits wake the root, each while the child is still current */
	CHECKF(r->n == 3, "%d wakeups", r->n);
	for (int i = 0; i < r->n && i < 3; i++)	/* the root is "p" after its exec */
		CHECKF(r->who[i] == (i < 2 ? 'r' : 'p') && r->curr[i] == 'c',
		       "wakeup %d: %c woken, %c ran", i, r->who[i], r->curr[i]);
	CHECKF(r->n < 3 || (r->flags[0] == 0 && r->flags[1] == 0 &&
			    r->flags[2] == SL_WAKE_CHILD_EXIT),
	       "flags %#x %#x %#x", r->flags[0], r->flags[1], r->n > 2 ? r->flags[2] : 0u);
	CHECKF(p->got == 1, "the bell held %ld bytes", p->got);
	/* woken at c's exit_notify: its 1 ms of work, then the exit's 0.5 ms */
	CHECKF(p->woke == 1500 * SL_USEC, "woken at %lld ns", (long long)p->woke);
	sl_sim_destroy(sim);
}

/* Four threads each take a mutex 5 times around a short burst and meet at a
 * barrier twice; the run completes and counts every critical section. */
struct lock_state { struct sl_mutex *mu; struct sl_barrier *bar; int inside, max_inside, done; };

static void locker_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	struct lock_state *s = t->prog_state;
	switch (t->tag++) {
	case 0: case 4: case 8: case 12: case 16:
		*next = (struct sl_action){ .kind = SL_ACT_LOCK, .u.mutex = s->mu };
		return;
	case 1: case 5: case 9: case 13: case 17:
		if (++s->inside > s->max_inside)
			s->max_inside = s->inside;
		*next = sl_act_run(1e5, SL_WC_INT);
		return;
	case 2: case 6: case 10: case 14: case 18:
		s->inside--;
		s->done++;
		*next = (struct sl_action){ .kind = SL_ACT_UNLOCK, .u.mutex = s->mu };
		return;
	case 3: case 11:
		*next = (struct sl_action){ .kind = SL_ACT_BARRIER, .u.barrier = s->bar };
		return;
	case 7: case 15:
		*next = sl_act_run(3e5, SL_WC_INT);
		return;
	default:
		*next = sl_act_exit();
	}
}

static const struct sl_prog locker_prog = { .name = "locker", .step = locker_step };

SL_TEST(engine_mutex_excludes_and_barrier_releases)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:2", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct lock_state *s = sl_sim_alloc(sim, sizeof(*s));
	s->mu = sl_mutex_new(sim);
	s->bar = sl_barrier_new(sim, 4);
	for (int i = 0; i < 4; i++)
		sl_sim_spawn_root(sim, &locker_prog, s, "locker");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECK(s->done == 20);
	CHECK(s->max_inside == 1);
	CHECK(st.tasks == 4);
	sl_sim_destroy(sim);
}

/*
 * A futex's waiters, and a plain channel's, wake first-in first-out (a
 * kernel wait queue's non-exclusive ones do not:
 * engine_kernel_wait_queues_wake_the_newest_first).  On one CPU under the
 * FIFO test policy a woken task is queued in the order it was woken, so
 * the order in which the waiters get through is the order they were
 * woken.  Three waiters block in order 1, 2, 3 (they are spawned, so run,
 * in that order): on a held mutex, on an empty plain channel fed one byte
 * at a time, on a barrier of four.  Expected logs, by hand: mutex 1 2 3; pipe 1 2 3 (the
 * first woken reads the byte, the others sleep again in order); barrier
 * 4 1 2 3 (the last to arrive goes on at once).  Newest-first wakeups
 * give 3 2 1, 3 1 2 and 4 3 2 1.
 */
enum { WQ_MUTEX, WQ_PIPE, WQ_BARRIER };
struct wq_shared { int kind; struct sl_mutex *mu; struct sl_chan *ch; struct sl_barrier *bar;
		   int log[8], n; long sleeps; int rt_id; };
struct wq_task { struct wq_shared *sh; int id, pc; bool rt_set; };

static void wq_log(struct wq_shared *sh, int id)
{
	if (sh->n < 8)
		sh->log[sh->n++] = id;
}

/* id 0: the mutex holder or the pipe writer; 1-3: the waiters; 4: the
 * barrier's last arrival. */
static void wq_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	struct wq_task *w = t->prog_state;
	struct wq_shared *sh = w->sh;
	if (w->id == sh->rt_id && !w->rt_set) {	/* made SCHED_FIFO first */
		w->rt_set = true;
		*next = (struct sl_action){ .kind = SL_ACT_SETSCHED,
			.u.setsched = { .sched_policy = SL_SCHED_FIFO, .rt_priority = 50 } };
		return;
	}
	int pc = w->pc++;

	*next = sl_act_exit();
	if (sh->kind == WQ_MUTEX) {
		struct sl_action lock = { .kind = SL_ACT_LOCK, .u.mutex = sh->mu };
		struct sl_action unlock = { .kind = SL_ACT_UNLOCK, .u.mutex = sh->mu };
		if (w->id == 0 && pc <= 2)	/* lock, sleep 1 ms holding it, unlock */
			*next = pc == 0 ? lock : pc == 1 ? sl_act_sleep(SL_MSEC) : unlock;
		else if (w->id > 0 && pc == 0)
			*next = lock;
		else if (w->id > 0 && pc == 1) {
			wq_log(sh, w->id);
			sh->sleeps += t->nvcsw;	/* the times it slept to get here */
			*next = sl_act_run(1e5, SL_WC_INT);
		} else if (w->id > 0 && pc == 2)
			*next = unlock;
	} else if (sh->kind == WQ_PIPE) {
		struct sl_action wr = { .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = sh->ch, .bytes = 1 } };
		if (w->id == 0 && pc < 6)	/* three bytes 1 ms apart */
			*next = pc % 2 ? wr : sl_act_sleep(SL_MSEC);
		else if (w->id == 0 && pc == 6)
			*next = (struct sl_action){ .kind = SL_ACT_CHAN_CLOSE, .u.chan = { .chan = sh->ch, .bytes = 0 } };
		else if (w->id > 0 && pc == 0)
			*next = (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = sh->ch, .bytes = 1 } };
		else if (w->id > 0 && pc == 1 && t->result > 0) {
			wq_log(sh, w->id);
			sh->sleeps += t->nvcsw;	/* the times it slept to get here */
		}
	} else {
		if (pc == 0)
			*next = (struct sl_action){ .kind = SL_ACT_BARRIER, .u.barrier = sh->bar };
		else if (pc == 1) {
			wq_log(sh, w->id);
			*next = sl_act_run(1e5, SL_WC_INT);
		}
	}
}

static const struct sl_prog wq_prog = { .name = "wq", .step = wq_step };

/* Run `kind` on `machine`, waiter `rt_id` (if 1-3) real time, under a
 * futex that orders its waiters by priority or not; the log, as digits
 * ("123"), in out[]; the waiters' sleeps before they got through, in
 * *sleeps (if not NULL). */
static void wq_order_rt(const char *machine, int kind, int rt_id, bool by_prio, char out[9],
			long *sleeps)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, machine, 1);
	out[0] = 0;
	if (!sim)
		return;
	sl_set_futex_by_prio(sim, by_prio);
	struct wq_shared *sh = sl_sim_alloc(sim, sizeof(*sh));
	sh->kind = kind;
	sh->rt_id = rt_id;
	sh->mu = sl_mutex_new(sim);
	sh->ch = sl_chan_new(sim, 64, false);
	sh->bar = sl_barrier_new(sim, 4);
	/* spawn (so run) order: the holder takes the mutex first; the
	 * pipe's readers block before the writer's first byte */
	static const int order[3][4] = { { 0, 1, 2, 3 }, { 1, 2, 3, 0 }, { 1, 2, 3, 4 } };
	for (int i = 0; i < 4; i++) {
		struct wq_task *w = sl_sim_alloc(sim, sizeof(*w));
		w->sh = sh;
		w->id = order[kind][i];
		sl_sim_spawn_root(sim, &wq_prog, w, "wq");
	}
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	for (int i = 0; i < sh->n; i++)
		out[i] = (char)('0' + sh->log[i]);
	out[sh->n] = 0;
	if (sleeps)
		*sleeps = sh->sleeps;
	sl_sim_destroy(sim);
}

static void wq_order(const char *machine, int kind, char out[9], long *sleeps)
{
	wq_order_rt(machine, kind, -1, false, out, sleeps);
}

SL_TEST(engine_waiters_wake_first_in_first_out)
{
	char got[9];

	wq_order("pack:1 core:1 pu:1", WQ_MUTEX, got, NULL);
	CHECKF(!strcmp(got, "123"), "mutex: got the lock in order %s", got);
	wq_order("pack:1 core:1 pu:1", WQ_PIPE, got, NULL);
	CHECKF(!strcmp(got, "123"), "pipe: readers got the bytes in order %s", got);
	wq_order("pack:1 core:1 pu:1", WQ_BARRIER, got, NULL);
	CHECKF(!strcmp(got, "4123"), "barrier: went on in order %s", got);
}

/*
 * An unlock wakes one waiter, as glibc's unlock asks FUTEX_WAKE for one
 * (2.6.12.1 kernel/futex.c futex_wake stops at nr_wake): in
 * wq_order's mutex run each of the three waiters sleeps once, and the
 * lock goes 1, 2, 3.  Waking them all, as the engine did until Dec 2026,
 * had waiters 2 and 3 retry and sleep again at every unlock: 6 sleeps.
 */
SL_TEST(engine_unlock_wakes_one_waiter)
{
	char got[9];
	long sleeps = -1;

	wq_order("pack:1 core:4 pu:1", WQ_MUTEX, got, &sleeps);
	CHECKF(!strcmp(got, "123") && sleeps == 3, "order %s, %ld sleeps", got, sleeps);
}

/*
 * A plain channel is the engine's futex: a post of one byte wakes one
 * waiter, as pthread_cond_signal's FUTEX_WAKE asks for one (2.6.12.1
 * kernel/futex.c futex_wake; 6.12 the same), oldest first.  In wq_order's
 * channel run three readers wait and three single bytes come 1 ms apart:
 * each reader sleeps once and they get the bytes 1, 2, 3.  Waking them
 * all, as the engine did until Dec 2026 (an audit against 2.6.12.1), had
 * the readers who found the byte gone sleep again: 6 sleeps.
 */
SL_TEST(engine_futex_post_wakes_one_waiter_per_byte)
{
	char got[9];
	long sleeps = -1;

	wq_order("pack:1 core:4 pu:1", WQ_PIPE, got, &sleeps);
	CHECKF(!strcmp(got, "123") && sleeps == 3, "order %s, %ld sleeps", got, sleeps);
}

/*
 * 6.12 queues a futex's waiters on a plist by min(normal_prio,
 * MAX_RT_PRIO) (kernel/futex/core.c __futex_queue): a real-time waiter
 * goes ahead of every SCHED_OTHER one.  In wq_order's runs the last
 * waiter to block, 3, is SCHED_FIFO: under 6.12's futex it gets the
 * mutex and the first posted byte first and leaves the barrier first;
 * 2.6.12.1's (list_add_tail) keeps arrival order.
 */
SL_TEST(engine_6_12_futex_wakes_real_time_waiters_first)
{
	char got[9];

	wq_order_rt("pack:1 core:1 pu:1", WQ_MUTEX, 3, true, got, NULL);
	CHECKF(!strcmp(got, "312"), "mutex, by priority: %s", got);
	wq_order_rt("pack:1 core:1 pu:1", WQ_MUTEX, 3, false, got, NULL);
	CHECKF(!strcmp(got, "123"), "mutex, in arrival order: %s", got);
	wq_order_rt("pack:1 core:1 pu:1", WQ_PIPE, 3, true, got, NULL);
	CHECKF(!strcmp(got, "312"), "futex channel, by priority: %s", got);
	wq_order_rt("pack:1 core:1 pu:1", WQ_BARRIER, 3, true, got, NULL);
	CHECKF(!strcmp(got, "4312"), "barrier, by priority: %s", got);
}

static void fan_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	if (t->tag < 6) {
		t->tag++;
		struct sl_action a = { .kind = SL_ACT_FORK };
		a.u.fork.prog = NULL;	/* children run this same program */
		a.u.fork.state = NULL;
		a.u.fork.comm = "leaf";
		if (t->parent) {
			*next = sl_act_run(1e6 + (double)sl_rng_below(&t->rng, 1000000), SL_WC_INT);
			t->tag = 100;
			return;
		}
		*next = a;
		return;
	}
	if (t->tag < 12 && !t->parent) {
		t->tag++;
		*next = sl_act_wait();
		return;
	}
	*next = sl_act_exit();
}

static const struct sl_prog fan_prog = { .name = "fan", .step = fan_step };

static void fan_run(uint64_t seed, struct sl_run_stats *st)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:2", seed);
	if (!sim)
		return;
	m.speed.ctx_switch_ns = 3000;
	m.speed.fork_ns = 100000;
	sl_sim_spawn_root(sim, &fan_prog, NULL, "fan");
	run(sim, st);
	sl_sim_destroy(sim);
}

SL_TEST(engine_same_seed_same_result)
{
	struct sl_run_stats a, b, c;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	fan_run(5, &a);
	fan_run(5, &b);
	fan_run(6, &c);
	CHECK(a.tasks == 7);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	CHECK(a.elapsed_ns != c.elapsed_ns);
	/* CPU time never exceeds CPUs x elapsed */
	CHECK(a.user_ns + a.sys_ns <= 4 * a.elapsed_ns);
}

/* Two memory-bound tasks homed on one node whose bandwidth serves 0.6 of a
 * fully memory-bound task: demand 2 x 0.6 = 1.2, contention 2, so their
 * stalls (m = 0.6 of solo time) take twice as long: speed 1/(0.4 + 1.2).
 * When one finishes the other speeds up again. */
SL_TEST(engine_node_bandwidth_contention)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1,bw=0.6", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	double mi = m.speed.mem_intensity[SL_WC_MEM];
	struct script *root = script_new(sim), *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_run(1e8, SL_WC_MEM));
	script_add(b, sl_act_run(2e8, SL_WC_MEM));
	script_add(root, fork_of(a));
	script_add(root, fork_of(b));
	script_add(root, sl_act_wait());
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	double k = 2 * mi / 0.6;
	double slow = 1.0 / (1.0 - mi + mi * k);
	/* a: 1e8 at the slow speed; b: as much meanwhile, then 1e8 alone */
	double want = 1e8 / slow + 1e8;
	CHECKF(fabs((double)st.elapsed_ns - want) < want * 0.001, "elapsed %lld want %.0f",
	       (long long)st.elapsed_ns, want);
	sl_sim_destroy(sim);
}

/* ---- tick phases (sim.h enum sl_tick_mode) ---- */

/* A policy that records every tick: which CPU, when, and the jiffies it
 * saw; it schedules as the FIFO policy does. */
enum { TICK_LOG_MAX = 512 };
static struct tick_log {
	enum sl_tick_mode mode;
	int n;
	int cpu[TICK_LOG_MAX];
	sl_time at[TICK_LOG_MAX];
	uint64_t jiffies[TICK_LOG_MAX];
} tick_log;

static void *ticklog_init(struct sl_sim *sim, const struct sl_params *k, struct sl_err *e)
{
	void *f = fifo_init(sim, k, e);
	sl_set_tick_mode(sim, tick_log.mode);
	tick_log.n = 0;
	return f;
}

static void ticklog_tick(struct sl_sim *sim, int cpu)
{
	if (tick_log.n < TICK_LOG_MAX) {
		tick_log.cpu[tick_log.n] = cpu;
		tick_log.at[tick_log.n] = sl_now(sim);
		tick_log.jiffies[tick_log.n] = sl_jiffies(sim);
		tick_log.n++;
	}
	fifo_tick(sim, cpu);
}

static const struct sl_policy_ops ticklog_ops = {
	.name = "ticklog", .summary = "test FIFO recording ticks",
	.task_size = sizeof(struct fifo_task), .init = ticklog_init,
	.fork = fifo_enqueue_new, .wakeup = fifo_wakeup, .pick_next = fifo_pick,
	.tick = ticklog_tick,
};

/* A 4-CPU machine (HZ 1000, no costs) under `ops`, its ticks in `mode`
 * logged to tick_log (m holds the machine while the run lasts). */
static struct sl_sim *tick_sim(struct sl_machine *m, const struct sl_policy_ops *ops,
			       enum sl_tick_mode mode, uint64_t seed)
{
	struct sl_err err = { 0 };
	if (sl_machine_load(m, "pack:4 core:1 pu:1", &err))
		return NULL;
	zero_costs(m);
	tick_log.mode = mode;
	struct sl_sim_config cfg = { .machine = m, .policy = ops, .seed = seed, .check = true };
	struct sl_sim *sim = sl_sim_create(&cfg, &err);
	if (sim)
		CHECK(sl_tick_mode(sim) == mode);
	return sim;
}

/* Run the sim's root to the end and free it: whether it ran clean. */
static bool tick_finish(struct sl_sim *sim, struct script *root)
{
	struct sl_run_stats st;

	sl_sim_spawn_root(sim, &script_prog, root, "root");
	int rc = run(sim, &st);
	sl_sim_destroy(sim);
	return rc == 0;
}

/* One task: runs `run_ms`, sleeps `sleep_ms` (0: no sleep), runs `run_ms`
 * again.  The ticks land in tick_log. */
static bool tick_run(enum sl_tick_mode mode, uint64_t seed, double run_ms, double sleep_ms)
{
	struct sl_machine m;
	struct sl_sim *sim = tick_sim(&m, &ticklog_ops, mode, seed);
	if (!sim)
		return false;
	struct script *s = script_new(sim);
	script_add(s, sl_act_run(run_ms * SL_MSEC, SL_WC_INT));
	if (sleep_ms > 0) {
		script_add(s, sl_act_sleep((sl_time)(sleep_ms * SL_MSEC)));
		script_add(s, sl_act_run(run_ms * SL_MSEC, SL_WC_INT));
	}
	return tick_finish(sim, s);
}

/* Today's order, kept for what-ifs: every CPU at the jiffy's start, CPU 0
 * first, from the first jiffy after the task became runnable. */
SL_TEST(engine_tick_ordered_all_at_the_jiffy_in_cpu_order)
{
	CHECK(tick_run(SL_TICK_ORDERED, 1, 3.5, 0));
	CHECKF(tick_log.n == 12, "%d ticks", tick_log.n);
	for (int i = 0; i < tick_log.n; i++) {
		CHECKF(tick_log.cpu[i] == i % 4, "tick %d on CPU %d", i, tick_log.cpu[i]);
		CHECK(tick_log.at[i] == (sl_time)(i / 4 + 1) * SL_MSEC);
		CHECK(tick_log.jiffies[i] == (uint64_t)(i / 4 + 1));
	}
}

/* 2.4 setup_APIC_timer(): CPU n ticks (n+1)/(ncpus+1) into each jiffy,
 * from the first such moment after the task became runnable (CPU 0 at
 * 0.2 ms of jiffy 0), and sees the jiffy that began at IRQ0. */
SL_TEST(engine_tick_staggered_cpu_n_at_slice_n_plus_1)
{
	CHECK(tick_run(SL_TICK_STAGGERED, 1, 2.5, 0));
	/* the run ends with the task at 2.5 ms, after CPU 1's tick of jiffy 2 */
	CHECKF(tick_log.n == 10, "%d ticks", tick_log.n);
	for (int i = 0; i < tick_log.n; i++) {
		int cpu = i % 4;
		sl_time jiffy = i / 4;
		CHECKF(tick_log.cpu[i] == cpu, "tick %d on CPU %d", i, tick_log.cpu[i]);
		CHECKF(tick_log.at[i] == jiffy * SL_MSEC + (cpu + 1) * SL_MSEC / 5,
		       "tick %d at %lld", i, (long long)tick_log.at[i]);
		CHECK(tick_log.jiffies[i] == (uint64_t)jiffy);
	}
}

/* ia64_cpu_local_tick() (2.4.27 and 2.6.11 arch/ia64/kernel/time.c): CPU
 * n > 0 ticks (2(n - hi) + 1) / (2 hi) into each jiffy, hi the highest
 * power of two <= n, so four CPUs tick in the order 0, 2, 1, 3 at 0, 1/4,
 * 1/2 and 3/4 of it (not in CPU order: the walk follows the phases).  The
 * task is runnable from 0, after CPU 0's phase of jiffy 0, and runs
 * 2.6 ms, past CPU 1's tick of jiffy 2 at 2.5 ms. */
SL_TEST(engine_tick_bitrev_ia64_phases_out_of_cpu_order)
{
	static const int order[] = { 0, 2, 1, 3 };
	CHECK(tick_run(SL_TICK_BITREV, 1, 2.6, 0));
	CHECKF(tick_log.n == 10, "%d ticks", tick_log.n);
	for (int i = 0; i < tick_log.n; i++) {
		int k = i + 1;	/* CPU 0's tick of jiffy 0 came before the task */
		sl_time jiffy = k / 4;
		CHECKF(tick_log.cpu[i] == order[k % 4], "tick %d on CPU %d", i, tick_log.cpu[i]);
		CHECKF(tick_log.at[i] == jiffy * SL_MSEC + (k % 4) * SL_MSEC / 4,
		       "tick %d at %lld", i, (long long)tick_log.at[i]);
		CHECK(tick_log.jiffies[i] == (uint64_t)jiffy);
	}
}

/* Each policy's tick mode is its kernel's for the machine's arch
 * (policy/kernel_arch.h): ia64's stagger under every 2.x kernel, i386's
 * slices under 2.4 and its aligned timers under 2.5/2.6, 6.12's aligned
 * ticks for cfs and sl whatever the arch; a given `tick` wins. */
SL_TEST(engine_tick_mode_is_the_kernels_for_the_arch)
{
	static const struct { const char *machine, *policy; enum sl_tick_mode mode; } c[] = {
		{ "azusa-16", "o1:version=2.5.33", SL_TICK_BITREV },
		{ "azusa-16", "ht:version=f3", SL_TICK_BITREV },
		{ "azusa-16", "domains", SL_TICK_BITREV },
		{ "azusa-16", "linux24", SL_TICK_BITREV },
		{ "azusa-16", "cfs", SL_TICK_SYNC },
		{ "azusa-16", "sl", SL_TICK_SYNC },
		{ "azusa-16", "o1:version=2.5.33,tick=sync", SL_TICK_SYNC },
		{ "numaq-16", "o1:version=2.5.59", SL_TICK_SYNC },
		{ "numaq-16", "domains", SL_TICK_SYNC },
		{ "numaq-16", "linux24", SL_TICK_STAGGERED },
		{ "numaq-16", "linux24:tick=bitrev", SL_TICK_BITREV },
		{ "xeon-2s-smt", "linux24", SL_TICK_STAGGERED },
		{ "xeon-2s-smt", "o1:version=2.6.0", SL_TICK_SYNC },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct sl_err err = { 0 };
		struct sl_machine m;
		const struct sl_policy_ops *ops;
		struct sl_params knobs;
		char label[64];
		if (sl_machine_load(&m, c[i].machine, &err) ||
		    sl_policy_parse(c[i].policy, &ops, &knobs, label, sizeof(label), &err)) {
			CHECKF(0, "%s on %s: %s", c[i].policy, c[i].machine, err.msg);
			continue;
		}
		struct sl_sim_config cfg = { .machine = &m, .policy = ops, .knobs = &knobs, .seed = 1 };
		struct sl_sim *sim = sl_sim_create(&cfg, &err);
		CHECKF(sim != NULL, "%s on %s: %s", c[i].policy, c[i].machine, err.msg);
		if (!sim)
			continue;
		CHECKF(sl_tick_mode(sim) == c[i].mode, "%s on %s: tick mode %d, not %d",
		       c[i].policy, c[i].machine, (int)sl_tick_mode(sim), (int)c[i].mode);
		if (i == 0) {
			/* ia64's HZ 1024: itm_delta 976,562 ns; CPU 13 (hi 8)
			 * at (2 * 5 + 1) * delta / 8 / 2, CPU 8 at delta / 16 */
			CHECKF(sl_tick_phase(sim, 13) == 671386, "CPU 13 at %lld ns",
			       (long long)sl_tick_phase(sim, 13));
			CHECK(sl_tick_phase(sim, 8) == 61035);
		}
		sl_sim_destroy(sim);
	}
}

/* The tick stops while nothing is runnable and comes back at the first
 * CPU's phase after the wakeup, mid-jiffy: here the task sleeps from
 * 0.3 ms to 5.35 ms, so CPU 1's tick at 0.4 ms is the last one before and
 * CPU 1's at 5.4 ms the first one after. */
SL_TEST(engine_tick_staggered_restarts_at_the_next_phase)
{
	CHECK(tick_run(SL_TICK_STAGGERED, 1, 0.3, 5.05));
	CHECK(tick_log.n >= 4);
	if (tick_log.n < 4)
		return;
	CHECK(tick_log.cpu[0] == 0 && tick_log.at[0] == 200000);
	CHECK(tick_log.cpu[1] == 1 && tick_log.at[1] == 400000);
	CHECKF(tick_log.cpu[2] == 1 && tick_log.at[2] == 5400000, "CPU %d at %lld",
	       tick_log.cpu[2], (long long)tick_log.at[2]);
	CHECK(tick_log.jiffies[2] == 5);
	CHECK(tick_log.cpu[3] == 2 && tick_log.at[3] == 5600000);
}

/* After an idle period the tick comes back on the tick grid, never at
 * "wakeup + one tick": every tick of every mode lies at its CPU's phase
 * of a whole jiffy (phase 0 for ordered and sync; (cpu+1)/(ncpus+1) of a
 * jiffy for staggered, 2.4's setup_APIC_timer; bit-reversed fractions for
 * bitrev, ia64's), worked out here from the modes' definitions in sim.h,
 * not with sl_tick_phase.  The task runs
 * 2.3 ms, sleeps to 5.35 ms, off the grid, so a restart at wake + 1 ms
 * (6.35 ms) is caught; ordered and sync restart at 6 ms, the first whole
 * jiffy after the wakeup. */
SL_TEST(engine_tick_on_the_jiffy_grid_after_idle)
{
	static const enum sl_tick_mode modes[] = { SL_TICK_ORDERED, SL_TICK_SYNC,
						   SL_TICK_STAGGERED, SL_TICK_BITREV };
	/* bitrev on four CPUs: 0, 1/2, 1/4, 3/4 of a jiffy */
	static const sl_time bitrev[] = { 0, SL_MSEC / 2, SL_MSEC / 4, 3 * SL_MSEC / 4 };
	/* the first tick after the wakeup at 5.35 ms */
	static const sl_time first_at[] = { 6000000, 6000000, 5400000, 5500000 };
	for (int k = 0; k < 4; k++) {
		CHECK(tick_run(modes[k], 1, 2.3, 3.05));
		CHECKF(tick_log.n >= 12, "mode %d: %d ticks", (int)modes[k], tick_log.n);
		int after = -1;
		for (int i = 0; i < tick_log.n; i++) {
			sl_time phase = modes[k] == SL_TICK_STAGGERED
				? (sl_time)(tick_log.cpu[i] + 1) * SL_MSEC / 5
				: modes[k] == SL_TICK_BITREV ? bitrev[tick_log.cpu[i]] : 0;
			CHECKF(tick_log.at[i] % SL_MSEC == phase,
			       "mode %d: tick %d on CPU %d at %lld ns, phase %lld", (int)modes[k], i,
			       tick_log.cpu[i], (long long)tick_log.at[i], (long long)phase);
			if (after < 0 && tick_log.at[i] > 5350000)
				after = i;
		}
		CHECK(after > 0);
		if (after <= 0)
			continue;
		/* the tick stops (after the one already queued) while all
		 * sleep; the first one after is the next grid point: 6 ms,
		 * or CPU 1's 5.4 ms when staggered */
		CHECKF(tick_log.at[after - 1] <= 3000000, "mode %d: tick at %lld ns",
		       (int)modes[k], (long long)tick_log.at[after - 1]);
		CHECKF(tick_log.at[after] == first_at[k],
		       "mode %d: first tick after the wakeup at %lld ns", (int)modes[k],
		       (long long)tick_log.at[after]);
		CHECK(tick_log.jiffies[after] == (uint64_t)(first_at[k] / SL_MSEC));
	}
}

/* NO_HZ_IDLE (sim.h sl_set_nohz): a policy that stops the tick of every
 * idle CPU and restarts it when the CPU picks a task. */
static void *nohzlog_init(struct sl_sim *sim, const struct sl_params *k, struct sl_err *e)
{
	void *f = ticklog_init(sim, k, e);
	sl_set_nohz(sim);
	for (int cpu = 0; cpu < sl_topo(sim)->ncpus; cpu++)
		sl_tick_stop(sim, cpu);
	return f;
}

static struct sl_task *nohzlog_pick(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	struct sl_task *next = fifo_pick(sim, cpu, prev);
	if (next)
		sl_tick_restart(sim, cpu);
	else
		sl_tick_stop(sim, cpu);
	return next;
}

static const struct sl_policy_ops nohzlog_ops = {
	.name = "nohzlog", .summary = "test FIFO recording ticks, idle CPUs tickless",
	.task_size = sizeof(struct fifo_task), .init = nohzlog_init,
	.fork = fifo_enqueue_new, .wakeup = fifo_wakeup, .pick_next = nohzlog_pick,
	.tick = ticklog_tick,
};

/* Four CPUs (HZ 1000).  The root runs 0.3 ms on CPU 0, forks a child that
 * CPU 1 picks at once, runs 1 ms more and waits; the child runs 1.5 ms.
 * Only busy CPUs tick; under staggered ticks CPU 1, restarted at 0.3 ms,
 * still gets its tick of jiffy 0 at 0.4 ms (the walk had passed on to
 * CPU 0's next jiffy). */
static bool nohz_tick_run(enum sl_tick_mode mode)
{
	struct sl_machine m;
	struct sl_sim *sim = tick_sim(&m, &nohzlog_ops, mode, 1);
	if (!sim)
		return false;
	struct script *root = script_new(sim), *child = script_new(sim);
	script_add(child, sl_act_run(1.5 * SL_MSEC, SL_WC_INT));
	script_add(root, sl_act_run(0.3 * SL_MSEC, SL_WC_INT));
	script_add(root, fork_of(child));
	script_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	script_add(root, sl_act_wait());
	return tick_finish(sim, root);
}

SL_TEST(engine_nohz_ticks_only_busy_cpus)
{
	/* staggered: CPU n at (n+1)/5 ms of each jiffy */
	static const int cpu[] = { 0, 1, 0, 1 };
	static const sl_time at[] = { 200000, 400000, 1200000, 1400000 };

	CHECK(nohz_tick_run(SL_TICK_STAGGERED));
	CHECKF(tick_log.n == 4, "staggered: %d ticks", tick_log.n);
	for (int i = 0; i < tick_log.n && i < 4; i++)
		CHECKF(tick_log.cpu[i] == cpu[i] && tick_log.at[i] == at[i],
		       "staggered: tick %d on CPU %d at %lld ns", i, tick_log.cpu[i],
		       (long long)tick_log.at[i]);
	/* bitrev (CPU n > 0 at 1/2, 1/4, 3/4 of each jiffy): the walk passes
	 * over CPU 2's phase at 0.25 ms and CPU 3's, in phase order */
	static const sl_time bitrev_at[] = { 500000, 1000000, 1500000 };
	CHECK(nohz_tick_run(SL_TICK_BITREV));
	CHECKF(tick_log.n == 3, "bitrev: %d ticks", tick_log.n);
	for (int i = 0; i < tick_log.n && i < 3; i++)
		CHECKF(tick_log.cpu[i] == (i == 1 ? 0 : 1) && tick_log.at[i] == bitrev_at[i],
		       "bitrev: tick %d on CPU %d at %lld ns", i, tick_log.cpu[i],
		       (long long)tick_log.at[i]);
	/* sync and ordered: at each jiffy's start, CPUs 0 and 1 only */
	static const enum sl_tick_mode modes[] = { SL_TICK_SYNC, SL_TICK_ORDERED };
	for (int k = 0; k < 2; k++) {
		CHECK(nohz_tick_run(modes[k]));
		CHECKF(tick_log.n == 2, "mode %d: %d ticks", (int)modes[k], tick_log.n);
		for (int i = 0; i < tick_log.n; i++)
			CHECKF(tick_log.cpu[i] <= 1 && tick_log.at[i] == SL_MSEC,
			       "mode %d: tick on CPU %d at %lld ns", (int)modes[k], tick_log.cpu[i],
			       (long long)tick_log.at[i]);
	}
}

/* Staggered, a CPU restarted after its phase of this jiffy while the walk
 * waits in the next jiffy for a later CPU: its tick of the next jiffy
 * still comes, before the later CPU's.  The root runs 0.1 ms on CPU 0,
 * forks A (CPU 1 takes it), runs 0.05 ms and waits: CPU 0 goes tickless
 * before its phase (0.2 ms).  A runs 0.4 ms, forks B and runs 1.5 ms; B,
 * on CPU 0 from 0.5 ms (its phase of jiffy 0 past), runs 1.5 ms.  CPU 0
 * ticks at 1.2 ms, though the walk waited for CPU 1's 1.4. */
SL_TEST(engine_nohz_staggered_restart_after_its_phase)
{
	struct sl_machine m;
	struct sl_sim *sim = tick_sim(&m, &nohzlog_ops, SL_TICK_STAGGERED, 1);
	CHECK(sim);
	if (!sim)
		return;
	struct script *root = script_new(sim), *a = script_new(sim), *b = script_new(sim);
	script_add(b, sl_act_run(1.5 * SL_MSEC, SL_WC_INT));
	script_add(a, sl_act_run(0.4 * SL_MSEC, SL_WC_INT));
	script_add(a, fork_of(b));
	script_add(a, sl_act_run(1.5 * SL_MSEC, SL_WC_INT));
	script_add(root, sl_act_run(0.1 * SL_MSEC, SL_WC_INT));
	script_add(root, fork_of(a));
	script_add(root, sl_act_run(0.05 * SL_MSEC, SL_WC_INT));
	script_add(root, sl_act_wait());
	CHECK(tick_finish(sim, root));
	static const int cpu[] = { 1, 0, 1 };
	static const sl_time at[] = { 400000, 1200000, 1400000 };
	CHECKF(tick_log.n >= 3, "%d ticks", tick_log.n);
	for (int i = 0; i < tick_log.n && i < 3; i++)
		CHECKF(tick_log.cpu[i] == cpu[i] && tick_log.at[i] == at[i],
		       "tick %d on CPU %d at %lld ns", i, tick_log.cpu[i], (long long)tick_log.at[i]);
}

/* A policy's hrtimers (sim.h sl_hrtimer_start): they fire on their CPU at
 * their time, whether its tick runs or not; a start moves a queued timer,
 * a cancel removes it; an expiry's resched is acted on at once. */
static struct { int n, cpu[8], id[8]; sl_time at[8]; } hrt_log;

static void *hrtlog_init(struct sl_sim *sim, const struct sl_params *k, struct sl_err *e)
{
	void *f = nohzlog_init(sim, k, e);
	hrt_log.n = 0;
	sl_hrtimer_start(sim, 3, 0, 700000);	/* an idle, tickless CPU */
	sl_hrtimer_start(sim, 2, 1, 250000);
	sl_hrtimer_start(sim, 2, 1, 450000);	/* moved */
	sl_hrtimer_start(sim, 2, 0, 500000);
	sl_hrtimer_cancel(sim, 2, 0);		/* never fires */
	return f;
}

static void hrtlog_hrtimer(struct sl_sim *sim, int cpu, int id)
{
	if (hrt_log.n < 8) {
		hrt_log.cpu[hrt_log.n] = cpu;
		hrt_log.id[hrt_log.n] = id;
		hrt_log.at[hrt_log.n] = sl_now(sim);
		hrt_log.n++;
	}
	CHECK(!sl_hrtimer_queued(sim, cpu, id));
	if (cpu == 3 && id == 0)
		sl_hrtimer_start(sim, 3, 1, sl_now(sim) + 100000);	/* from within */
}

static const struct sl_policy_ops hrtlog_ops = {
	.name = "hrtlog", .summary = "test FIFO with hrtimers, idle CPUs tickless",
	.task_size = sizeof(struct fifo_task), .init = hrtlog_init,
	.fork = fifo_enqueue_new, .wakeup = fifo_wakeup, .pick_next = nohzlog_pick,
	.tick = ticklog_tick, .hrtimer = hrtlog_hrtimer,
};

SL_TEST(engine_hrtimers_fire_on_tickless_cpus)
{
	struct sl_machine m;
	struct sl_sim *sim = tick_sim(&m, &hrtlog_ops, SL_TICK_SYNC, 1);
	if (!sim) {
		CHECK(!"sim");
		return;
	}
	struct script *root = script_new(sim), *child = script_new(sim);
	script_add(child, sl_act_run(1.5 * SL_MSEC, SL_WC_INT));
	script_add(root, sl_act_run(0.3 * SL_MSEC, SL_WC_INT));
	script_add(root, fork_of(child));
	script_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	script_add(root, sl_act_wait());
	CHECK(tick_finish(sim, root));
	static const int cpu[] = { 2, 3, 3 }, id[] = { 1, 0, 1 };
	static const sl_time at[] = { 450000, 700000, 800000 };
	CHECKF(hrt_log.n == 3, "%d expiries", hrt_log.n);
	for (int i = 0; i < hrt_log.n && i < 3; i++)
		CHECKF(hrt_log.cpu[i] == cpu[i] && hrt_log.id[i] == id[i] && hrt_log.at[i] == at[i],
		       "expiry %d: CPU %d timer %d at %lld ns", i, hrt_log.cpu[i], hrt_log.id[i],
		       (long long)hrt_log.at[i]);
	/* CPUs 2 and 3 never ran a task: their ticks never came */
	for (int i = 0; i < tick_log.n; i++)
		CHECKF(tick_log.cpu[i] <= 1, "tick on CPU %d", tick_log.cpu[i]);
}

/* hrtlog without the op to take its timers: the run fails with an
 * internal error naming the policy, not silently. */
static const struct sl_policy_ops hrtbad_ops = {
	.name = "hrtbad", .summary = "test FIFO starting hrtimers it cannot take",
	.task_size = sizeof(struct fifo_task), .init = hrtlog_init,
	.fork = fifo_enqueue_new, .wakeup = fifo_wakeup, .pick_next = nohzlog_pick,
	.tick = ticklog_tick,
};

SL_TEST(engine_hrtimer_without_op_fails_the_run)
{
	struct sl_machine m;
	struct sl_sim *sim = tick_sim(&m, &hrtbad_ops, SL_TICK_SYNC, 1);
	if (!sim) {
		CHECK(!"sim");
		return;
	}
	struct script *root = script_new(sim);
	script_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_err err = { 0 };
	CHECK(sl_sim_run(sim, &err) == -1);
	CHECKF(err.kind == SL_ERR_INTERNAL && strstr(err.msg, "hrtbad") &&
	       strstr(err.msg, "hrtimer op"), "%s", err.msg);
	sl_sim_destroy(sim);
}

/* 2.6 setup_APIC_timer(): all at the jiffy's start, each CPU once per
 * jiffy, in an order drawn per tick from the run's seed: the same seed
 * gives the same orders, another seed others, and every CPU comes first
 * some of the time. */
SL_TEST(engine_tick_sync_random_order_by_seed)
{
	enum { N = 4 * 40 };
	int first[N], again[N], other[N];
	int firsts[4] = { 0 };

	CHECK(tick_run(SL_TICK_SYNC, 7, 40.5, 0));
	CHECKF(tick_log.n == N, "%d ticks", tick_log.n);
	if (tick_log.n != N)
		return;
	for (int j = 0; j < N / 4; j++) {
		int seen = 0;
		for (int k = 0; k < 4; k++) {
			int i = 4 * j + k;
			CHECK(tick_log.at[i] == (sl_time)(j + 1) * SL_MSEC);
			CHECK(tick_log.jiffies[i] == (uint64_t)(j + 1));
			seen |= 1 << tick_log.cpu[i];
		}
		CHECKF(seen == 0xf, "jiffy %d: CPUs %#x", j + 1, seen);
		firsts[tick_log.cpu[4 * j]]++;
	}
	for (int c = 0; c < 4; c++)
		CHECKF(firsts[c] >= 3, "CPU %d first %d times in 40", c, firsts[c]);
	memcpy(first, tick_log.cpu, sizeof(first));
	CHECK(tick_run(SL_TICK_SYNC, 7, 40.5, 0) && tick_log.n == N);
	memcpy(again, tick_log.cpu, sizeof(again));
	CHECK(tick_run(SL_TICK_SYNC, 8, 40.5, 0) && tick_log.n == N);
	memcpy(other, tick_log.cpu, sizeof(other));
	CHECK(memcmp(first, again, sizeof(first)) == 0);
	CHECK(memcmp(first, other, sizeof(first)) != 0);
}

/* ---- who pulls a task forked on CPU 0 of an idle NUMA-Q ---- */

static void note_first_pull(void *ctx, sl_time now, const struct sl_task *t, int from, int to)
{
	(void)now;
	(void)t;
	int *first = ctx;
	if (*first < 0 && from == 0)
		*first = to;
}

/* On numaq-16 (16 CPUs, all idle), under `policy` and `seed`, a root runs
 * `delay_us`, forks a 20 ms hog and computes 20 ms itself: the CPU that
 * first takes one of the two off CPU 0 (-1: none did). */
static int first_puller(const char *policy, uint64_t seed, double delay_us)
{
	struct sl_machine m;
	struct sl_params knobs;
	const struct sl_policy_ops *ops;
	struct sl_err err = { 0 };
	char label[64];
	int first = -1;

	if (sl_machine_load(&m, "numaq-16", &err) ||
	    sl_policy_parse(policy, &ops, &knobs, label, sizeof(label), &err)) {
		fprintf(stderr, "first_puller: %s\n", err.msg);
		return -2;
	}
	struct sl_observer obs = { .ctx = &first, .sched_migrate = note_first_pull };
	struct sl_sim_config cfg = { .machine = &m, .policy = ops, .knobs = &knobs, .seed = seed,
				     .check = true, .observer = &obs };
	struct sl_sim *sim = sl_sim_create(&cfg, &err);
	if (!sim) {
		fprintf(stderr, "first_puller: %s\n", err.msg);
		return -2;
	}
	struct script *root = script_new(sim), *hog = script_new(sim);
	script_add(hog, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	if (delay_us > 0)
		script_add(root, sl_act_run(delay_us * SL_USEC, SL_WC_INT));
	script_add(root, fork_of(hog));
	script_add(root, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	if (sl_sim_run(sim, &err))
		fprintf(stderr, "first_puller: %s\n", err.msg);
	sl_sim_destroy(sim);
	return first;
}

/* The engine used to tick every CPU at once in CPU order, so the idle
 * CPU 1 always pulled first (numasched schedbench: every task stayed on
 * node 0).  With 2.6's synchronous timers the race goes to a different CPU
 * from run to run; with 2.4's staggered ones to the CPU whose slice of the
 * jiffy comes next after the fork (here with steal_hot=always, so that the
 * first idle tick after the fork may take the child). */
SL_TEST(engine_tick_mode_decides_who_pulls_first)
{
	int pulled_by[SL_MAX_CPUS] = { 0 };
	int distinct = 0, others = 0;

	for (uint64_t seed = 1; seed <= 8; seed++) {
		int ordered = first_puller("o1:version=2.5.33,tick=ordered", seed, 0);
		CHECKF(ordered == 1, "ordered, seed %d: CPU %d", (int)seed, ordered);
		int sync = first_puller("o1:version=2.5.33", seed, 0);
		CHECKF(sync > 0, "sync, seed %d: CPU %d", (int)seed, sync);
		if (sync > 0 && !pulled_by[sync]++)
			distinct++;
		others += sync > 1;
	}
	CHECKF(distinct >= 3 && others >= 4, "sync: %d CPUs pulled first, not CPU 1 %d times in 8",
	       distinct, others);

	memset(pulled_by, 0, sizeof(pulled_by));
	distinct = others = 0;
	for (int k = 0; k < 8; k++) {
		int stag = first_puller("o1:version=2.5.33,tick=staggered,steal_hot=always", 1,
					50 + 110 * k);
		CHECKF(stag > 0, "staggered, fork at %d us: CPU %d", 50 + 110 * k, stag);
		if (stag > 0 && !pulled_by[stag]++)
			distinct++;
		others += stag > 1;
	}
	CHECKF(distinct >= 4 && others >= 4, "staggered: %d CPUs pulled first, not CPU 1 %d times "
	       "in 8", distinct, others);
}

/* A task with a quarter of the synthetic machine's 1 MB L2 for footprint. */
static void quarter_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->footprint_kb = sl_topo(sim)->l2_kb / 4;
	script_step(sim, t, next);
}

static const struct sl_prog quarter_prog = { .name = "quarter", .step = quarter_step };

SL_TEST(engine_only_missing_lines_evict)
{
	/* Two 30 ms hogs take turns in 10 ms slices on one CPU; each touches
	 * its 256 KB at once (a full refill of it: 10 ms).  Both fit in the
	 * 1 MB cache, so after each has brought its lines in once, a slice
	 * evicts only what its task was missing: A's first return finds B's
	 * 256 KB in (warmth e^-1/4, 2.21 ms of refill), B then lacks only
	 * the 57 KB A brought back (0.54 ms), A the 14 KB B did (0.13 ms),
	 * ...: 2.93 ms of refill in all, 62.93 ms.  (Counting every touched
	 * line as an eviction, as the first model did, had each return pay
	 * 2.21 ms for ever: 73.3 ms.) */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.refill_ns[SL_MIGR_NONE] = m.speed.refill_ns[SL_MIGR_CORE] = 40 * SL_MSEC;
	m.speed.touch_kb_per_ms = 1e6;		/* a task touches its lines at once */
	struct script *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_run(3e7, SL_WC_INT));
	script_add(b, sl_act_run(3e7, SL_WC_INT));
	sl_sim_spawn_root(sim, &quarter_prog, a, "a");
	sl_sim_spawn_root(sim, &quarter_prog, b, "b");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 62930 * SL_USEC) <= 20 * SL_USEC, "elapsed %lld",
	       (long long)st.elapsed_ns);
	sl_sim_destroy(sim);
}

/* A task with four times the 1 MB L2 for footprint, touched at random
 * (numa_test's walkers), or as a hot set of that size. */
static void walker_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->footprint_kb = 4 * sl_topo(sim)->l2_kb;
	t->random_access = true;
	script_step(sim, t, next);
}

static void hot_set_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->footprint_kb = 4 * sl_topo(sim)->l2_kb;
	script_step(sim, t, next);
}

static const struct sl_prog walker_prog = { .name = "walker", .step = walker_step };
static const struct sl_prog hot_set_prog = { .name = "hot set", .step = hot_set_step };

static void note_exit(void *ctx, sl_time now, const struct sl_task *t)
{
	if (strcmp(t->comm, "s") == 0)
		*(sl_time *)ctx = now;
}

/* Two 30 ms hogs `a` and `b` in 10 ms slices on one CPU whose one cache
 * level is the 1 MB L2 (a full refill: 4 ms), each touching its lines at
 * once; the run's elapsed time, and when a task named "s" exited. */
static sl_time alternate(const struct sl_prog *a, const struct sl_prog *b, sl_time *s_exit)
{
	struct sl_machine m;
	if (!load_zeroed(&m, "pack:1 core:1 pu:1"))
		return -1;
	m.topo.llc_kb = m.speed.llc_kb = m.topo.l2_kb;
	m.speed.refill_ns[SL_MIGR_NONE] = 4 * SL_MSEC;
	m.speed.touch_kb_per_ms = 1e6;
	struct sl_observer obs = { .ctx = s_exit, .sched_exit = note_exit };
	struct sl_sim *sim = checked_sim(&m, &fifo_ops, 1, &obs);
	if (!sim)
		return -1;
	struct script *sa = script_new(sim), *sb = script_new(sim);
	script_add(sa, sl_act_run(3e7, SL_WC_INT));
	script_add(sb, sl_act_run(3e7, SL_WC_INT));
	sl_sim_spawn_root(sim, a, sa, a == &quarter_prog ? "s" : "a");
	sl_sim_spawn_root(sim, b, sb, "b");
	struct sl_run_stats st;
	int rc = run(sim, &st);
	sl_sim_destroy(sim);
	return rc ? -1 : st.elapsed_ns;
}

SL_TEST(engine_random_walkers_refill_little_and_evict_always)
{
	/* Two 4 MB footprints taking turns in a 1 MB cache.  Reused as hot
	 * sets, each return after the other's slice refills most of a full
	 * cache (4 ms a time).  Touched at random, a walker hits only a
	 * quarter of the time even when warm: a full eviction costs it
	 * 1024 - 3072 ln(4/3) = 140 KB of extra misses (0.55 ms), and since
	 * three quarters of its touches miss and evict, the other's lines
	 * are gone after each of its slices all the same. */
	sl_time s_exit = 0;
	sl_time hot = alternate(&hot_set_prog, &hot_set_prog, &s_exit);
	sl_time random = alternate(&walker_prog, &walker_prog, &s_exit);
	sl_time work = 60 * SL_MSEC;
	CHECKF(hot > work && random > work && random - work < (hot - work) / 5,
	       "refill: hot sets %lld us, random walkers %lld us",
	       (long long)(hot - work) / 1000, (long long)(random - work) / 1000);
	/* With a 256 KB task, a hot-set partner warm from its last slice
	 * evicts only what it lacked, a walker three quarters of what it
	 * touches: the small task pays more refill, and exits later. */
	sl_time s_after_hot = 0, s_after_walker = 0;
	CHECK(alternate(&quarter_prog, &hot_set_prog, &s_after_hot) > 0);
	CHECK(alternate(&quarter_prog, &walker_prog, &s_after_walker) > 0);
	CHECKF(s_after_hot > 0 && s_after_walker > s_after_hot + SL_MSEC / 2,
	       "s exits at %lld us after a hot set, %lld us after a walker",
	       (long long)s_after_hot / 1000, (long long)s_after_walker / 1000);
}

/* ---- vfork ---- */

struct vfork_watch {
	bool shared_at_fork, shared_at_exit, parent_uninterruptible;
	int root;
};

static void vfork_note_fork(void *ctx, sl_time now, const struct sl_task *parent,
			    const struct sl_task *child)
{
	struct vfork_watch *w = ctx;
	(void)now;
	if (parent)
		w->shared_at_fork = child->mm == parent->mm;
	else
		w->root = child->id;
}

static void vfork_note_exit(void *ctx, sl_time now, const struct sl_task *t)
{
	struct vfork_watch *w = ctx;
	(void)now;
	if (t->parent)
		w->shared_at_exit = t->mm == t->parent->mm;
}

static void vfork_note_switch(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
			      const struct sl_task *next)
{
	struct vfork_watch *w = ctx;
	(void)now, (void)cpu, (void)next;
	if (prev && prev->id == w->root && prev->state == SL_TASK_SLEEPING &&
	    prev->act.kind == SL_ACT_FORK)
		w->parent_uninterruptible = prev->uninterruptible;
}

/* On two CPUs the root forks (or vforks) a child that runs 5 ms, execs
 * (or not) and runs 5 ms more; the root runs 20 ms after its fork, then
 * waits.  The run's elapsed time. */
static sl_time vfork_run(bool vfork, bool exec, struct vfork_watch *w)
{
	struct sl_machine m;
	if (!load_zeroed(&m, "pack:2 core:1 pu:1"))
		return -1;
	struct sl_observer obs = { .ctx = w, .sched_fork = vfork_note_fork,
				   .sched_exit = vfork_note_exit, .sched_switch = vfork_note_switch };
	struct sl_sim *sim = checked_sim(&m, &fifo_ops, 1, &obs);
	if (!sim)
		return -1;
	struct script *root = script_new(sim), *child = script_new(sim);
	script_add(child, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	if (exec)
		script_add(child, (struct sl_action){ .kind = SL_ACT_EXEC, .u.exec.comm = "new" });
	script_add(child, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	struct sl_action f = fork_of(child);
	f.u.fork.vfork = vfork;
	script_add(root, f);
	script_add(root, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_run_stats st;
	int rc = run(sim, &st);
	sl_sim_destroy(sim);
	return rc ? -1 : st.elapsed_ns;
}

SL_TEST(engine_vfork_parent_sleeps_until_exec_or_exit)
{
	/* fork: the parent goes on at once, beside its child (20 ms);
	 * vfork: it sleeps, uninterruptible, until its child execs (at 5
	 * ms) or exits without exec (at 10 ms), sharing its mm until then
	 * (2.4.27 and 2.6.11 kernel/fork.c do_fork, mm_release) */
	struct vfork_watch w = { 0 };
	CHECK(vfork_run(false, true, &w) == 20 * SL_MSEC);
	CHECK(!w.shared_at_fork);
	memset(&w, 0, sizeof(w));
	sl_time t = vfork_run(true, true, &w);
	CHECKF(t == 25 * SL_MSEC, "vfork then exec: %lld us", (long long)t / 1000);
	CHECK(w.shared_at_fork && !w.shared_at_exit && w.parent_uninterruptible);
	memset(&w, 0, sizeof(w));
	t = vfork_run(true, false, &w);
	CHECKF(t == 30 * SL_MSEC, "vfork, no exec: %lld us", (long long)t / 1000);
	CHECK(w.shared_at_fork && w.shared_at_exit);
}

/* The engine's check holds a vfork()ing parent to a child that will wake
 * it: a child that forgets its parent (here, cleared by the observer once
 * the parent sleeps) fails the run. */
static struct sl_task *vfork_child_seen;

static void vfork_forget_fork(void *ctx, sl_time now, const struct sl_task *parent,
			      const struct sl_task *child)
{
	(void)ctx, (void)now;
	if (parent)
		vfork_child_seen = (struct sl_task *)child;
}

static void vfork_forget_switch(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
				const struct sl_task *next)
{
	(void)ctx, (void)now, (void)cpu, (void)next;
	if (vfork_child_seen && prev && prev->state == SL_TASK_SLEEPING &&
	    prev->act.kind == SL_ACT_FORK)
		vfork_child_seen->vfork_parent = NULL;	/* the corruption */
}

SL_TEST(engine_check_holds_vfork_parent_to_its_child)
{
	struct sl_machine m;
	struct sl_err err = { 0 };
	CHECK(load_zeroed(&m, "pack:2 core:1 pu:1"));
	vfork_child_seen = NULL;
	struct sl_observer obs = { .sched_fork = vfork_forget_fork,
				   .sched_switch = vfork_forget_switch };
	struct sl_sim *sim = checked_sim(&m, &fifo_ops, 1, &obs);
	CHECK(sim);
	if (!sim)
		return;
	struct script *root = script_new(sim), *child = script_new(sim);
	script_add(child, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	script_add(child, (struct sl_action){ .kind = SL_ACT_EXEC, .u.exec.comm = "new" });
	struct sl_action f = fork_of(child);
	f.u.fork.vfork = true;
	script_add(root, f);
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	int rc = sl_sim_run(sim, &err);
	CHECKF(rc != 0 && strstr(err.msg, "wait in vfork()"), "rc %d: %s", rc, err.msg);
	sl_sim_destroy(sim);
}

/* A program that never uses the CPU: waits with no child, for ever. */
static void stuck_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	(void)t;
	*next = sl_act_wait();
}

static const struct sl_prog stuck_prog = { .name = "stuck", .step = stuck_step };

/* The guard against a program that cannot make progress stops a stuck
 * task (a run with many dead children to reap in a row, e.g. hackbench's
 * root with 400,000, is allowed one more instant action per task created;
 * too slow to pin here under the sanitizers). */
SL_TEST(engine_instant_actions_bounded)
{
	struct sl_machine m;
	struct sl_err err = { 0 };
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	sl_sim_spawn_root(sim, &stuck_prog, NULL, "stuck");
	CHECK(sl_sim_run(sim, &err) != 0 && strstr(err.msg, "without using the CPU"));
	sl_sim_destroy(sim);
}

/* A program of 999 instant actions (a wait with no child) per
 * microsecond of work, for ever: time passes, so the guard above never
 * fires, but a run's work per simulated second is large. */
static void busy_waiter_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	long *n = t->prog_state;
	*next = ++*n % 1000 ? sl_act_wait() : sl_act_run(SL_USEC, SL_WC_INT);
}

static const struct sl_prog busy_waiter_prog = { .name = "busy-waiter", .step = busy_waiter_step };

/* The config's step limit stops such a run after that many steps (a few
 * more: the step that crosses it finishes its event), with the steps
 * counted in the stats; without one, only the time limit stops it. */
SL_TEST(engine_step_limit_stops_a_run_of_instant_actions)
{
	struct sl_machine m;
	struct sl_err err = { 0 };
	uint64_t steps[2];
	sl_time now[2];

	CHECK(load_zeroed(&m, "pack:1 core:1 pu:1"));
	for (int limited = 0; limited < 2; limited++) {
		struct sl_sim_config cfg = { .machine = &m, .policy = &fifo_ops, .seed = 1,
					     .check = true, .time_limit = 100 * SL_USEC,
					     .step_limit = limited ? 5000 : 0 };
		struct sl_sim *sim = sl_sim_create(&cfg, &err);
		CHECK(sim != NULL);
		if (!sim)
			return;
		long n = 0;
		sl_sim_spawn_root(sim, &busy_waiter_prog, &n, "busy-waiter");
		struct sl_run_stats st;
		CHECK(run(sim, &st) == 0);
		steps[limited] = st.events.steps;
		now[limited] = sl_now(sim);
		sl_sim_destroy(sim);
	}
	/* 100 us of 1 us runs, each with its 999 waits */
	CHECKF(steps[0] >= 99000 && now[0] == 100 * SL_USEC, "unlimited: %llu steps, %lld ns",
	       (unsigned long long)steps[0], (long long)now[0]);
	CHECKF(steps[1] >= 5000 && steps[1] <= 6000 && now[1] <= 6 * SL_USEC,
	       "limited: %llu steps, %lld ns", (unsigned long long)steps[1], (long long)now[1]);
}

/* ---- the simulated-time horizon (docs/robustness.md, "Simulated time") ---- */

/* Run a one-task script of `n` sleeps of `ns` each on one CPU, with a time
 * limit (0: none); returns sl_sim_run's result, err and stats filled. */
static int run_sleeps(int n, sl_time ns, sl_time limit, struct sl_err *err,
		      struct sl_run_stats *st)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	if (!sim)
		return -2;
	struct script *s = script_new(sim);
	for (int i = 0; i < n; i++)
		script_add(s, sl_act_sleep(ns));
	sl_sim_spawn_root(sim, &script_prog, s, "sleeper");
	sl_sim_set_time_limit(sim, limit);
	int rc = sl_sim_run(sim, err);
	sl_sim_stats(sim, st);
	sl_sim_destroy(sim);
	return rc;
}

/* Each sleep is representable, their sum is not (issue 10's reproducer:
 * three sleeps of 2^62 ns wrapped the clock, and the run ended "fine" with
 * a negative elapsed time); sleeps that add up past the horizon without
 * overflowing are refused the same way.  Bad input: exit 2, naming the
 * horizon and the task. */
SL_TEST(engine_refuses_to_run_past_the_time_horizon)
{
	struct sl_err err = { 0 };
	struct sl_run_stats st;

	CHECK(run_sleeps(3, (sl_time)1 << 62, 0, &err, &st) == -1);
	CHECKF(err.kind == SL_ERR_INPUT && strstr(err.msg, "horizon of 1000000 s") &&
	       strstr(err.msg, "task 0 (sleeper)"), "%s", err.msg);
	CHECK(st.elapsed_ns >= 0 && st.elapsed_ns <= SL_TIME_HORIZON);

	memset(&err, 0, sizeof(err));
	CHECK(run_sleeps(3, SL_TIME_HORIZON / 2, 0, &err, &st) == -1);
	CHECKF(err.kind == SL_ERR_INPUT && strstr(err.msg, "horizon") &&
	       strstr(err.msg, "after 1000000.000 s"), "%s", err.msg);

	/* up to the horizon is a run like any other */
	memset(&err, 0, sizeof(err));
	CHECKF(run_sleeps(2, SL_TIME_HORIZON / 2, 0, &err, &st) == 0, "%s", err.msg);
	CHECK(st.elapsed_ns == SL_TIME_HORIZON);
}

/* A time limit comes first: a sleep past the horizon (even one of
 * SL_TIME_MAX, whose end has no sl_time) is cut there as any other. */
SL_TEST(engine_time_limit_cuts_a_sleep_past_the_horizon)
{
	struct sl_err err = { 0 };
	struct sl_run_stats st;

	CHECKF(run_sleeps(1, SL_TIME_MAX, 10 * SL_SEC, &err, &st) == 0, "%s", err.msg);
	CHECK(st.elapsed_ns == 10 * SL_SEC);
	memset(&err, 0, sizeof(err));
	CHECK(run_sleeps(1, SL_TIME_MAX, 0, &err, &st) == -1 && err.kind == SL_ERR_INPUT);
}
