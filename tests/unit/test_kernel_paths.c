/*
 * test_kernel_paths.c - sim/: the kernel paths a policy chooses for the
 * engine (sl_set_timers, sl_set_pipes) and a device's request queue,
 * driven by engine_harness.h's FIFO test policy: when a timed sleep ends
 * under each kernel's timers (timers.c: the 2.4 timer list, 2.6's per-CPU
 * wheels, 6.12's hrtimers and the interrupts that end them inside their
 * slack), how many pages the kernel's pipe holds, how a ring of pages
 * takes writes and hands on wakeups (2.6.12, 6.12) and whether its read
 * reads on (2.4, 2.6.12), and the waits on a device's queue.
 */
#include <string.h>

#include "engine_harness.h"
#include "test.h"

/* ---- the kernel's timers (sim/timers.c) ---- */

static struct sl_timers timers_under_test;
static enum sl_tick_mode tick_under_test;
static int pipe_pages_under_test = 1;
static bool pipe_read_on_under_test, pipe_exclusive_under_test;
static sl_time policy_hrtimer_under_test = -1;	/* CPU 0's, when >= 0 */

static void *timed_fifo_init(struct sl_sim *sim, const struct sl_params *k, struct sl_err *e)
{
	void *f = fifo_init(sim, k, e);
	sl_set_tick_mode(sim, tick_under_test);
	sl_set_timers(sim, &timers_under_test);
	sl_set_pipes(sim, (struct sl_pipes){ .pages = pipe_pages_under_test,
					    .read_on = pipe_read_on_under_test,
					    .exclusive = pipe_exclusive_under_test });
	if (policy_hrtimer_under_test >= 0)
		sl_hrtimer_start(sim, 0, 0, policy_hrtimer_under_test);
	return f;
}

static void timed_fifo_hrtimer(struct sl_sim *sim, int cpu, int id)
{
	(void)sim; (void)cpu; (void)id;
}

static const struct sl_policy_ops timed_fifo_ops = {
	.name = "fifo", .summary = "test FIFO with chosen timers and pipes",
	.task_size = sizeof(struct fifo_task), .init = timed_fifo_init,
	.fork = fifo_enqueue_new, .wakeup = fifo_wakeup, .pick_next = fifo_pick,
	.tick = fifo_tick, .hrtimer = timed_fifo_hrtimer,
};

/* When a root on a machine of `ncpus` that runs 2.3 ms (at 1000 HZ, from
 * 0), then does `sleep` (made real time first if `rt`), asks for what
 * comes after; its voluntary switches in *nvcsw.  -1 if it did not run. */
static sl_time sleep_ends(const struct sl_timers *tm, enum sl_tick_mode tick, int ncpus,
			  struct sl_action sleep, bool rt, long *nvcsw)
{
	struct sl_machine m;
	char shape[32];
	sl_time at = -1;

	timers_under_test = *tm;
	tick_under_test = tick;
	snprintf(shape, sizeof(shape), "pack:1 core:%d pu:1", ncpus);
	if (!load_zeroed(&m, shape))
		return -1;
	struct sl_sim *sim = checked_sim(&m, &timed_fifo_ops, 1, NULL);
	if (!sim)
		return -1;
	struct script *root = script_new(sim);
	if (rt)
		script_add(root, (struct sl_action){ .kind = SL_ACT_SETSCHED,
			.u.setsched = { .sched_policy = SL_SCHED_FIFO, .rt_priority = 50 } });
	script_add(root, sl_act_run(2.3e6, SL_WC_INT));
	script_add(root, sleep);
	script_add(root, sl_act_exit());
	sl_sim_spawn_root(sim, &script_prog, root, "sleeper");
	struct sl_run_stats st;
	if (run(sim, &st) == 0) {
		at = root->asked_at[root->n - 1];
		*nvcsw = st.nvcsw;
	}
	sl_sim_destroy(sim);
	return at;
}

/* 2.6.12 sys_nanosleep: timespec_to_jiffies(1.5 ms) + 1 = 3 jiffies from
 * jiffy 2, so the timer expires in jiffy 5; the per-CPU wheel runs it at
 * CPU 0's tick then (its phase: at the start under sync, a third of the
 * jiffy in under staggered with two CPUs), in the softirq after it. */
SL_TEST(engine_nanosleep_ends_at_a_tick_of_its_cpu)
{
	const struct sl_timers wheel = { .kind = SL_TIMERS_JIFFY };
	long sw;

	sl_time at = sleep_ends(&wheel, SL_TICK_SYNC, 1, sl_act_nanosleep(1500 * SL_USEC), false, &sw);
	CHECKF(at == 5 * SL_MSEC + 1, "woke at %lld", (long long)at);
	at = sleep_ends(&wheel, SL_TICK_STAGGERED, 2, sl_act_nanosleep(1500 * SL_USEC), false, &sw);
	CHECKF(at == 5 * SL_MSEC + SL_MSEC / 3 + 1, "staggered: woke at %lld", (long long)at);
	/* a whole number of jiffies still gets its extra one */
	at = sleep_ends(&wheel, SL_TICK_SYNC, 1, sl_act_nanosleep(2 * SL_MSEC), false, &sw);
	CHECKF(at == 5 * SL_MSEC + 1, "2 ms: woke at %lld", (long long)at);
	/* nanosleep(0) waits for the next run of the wheel */
	at = sleep_ends(&wheel, SL_TICK_SYNC, 1, sl_act_nanosleep(0), false, &sw);
	CHECKF(at == 3 * SL_MSEC + 1, "0: woke at %lld", (long long)at);
	/* a modelled wait is not a timer: it ends exactly */
	at = sleep_ends(&wheel, SL_TICK_SYNC, 1, sl_act_sleep(1500 * SL_USEC), false, &sw);
	CHECKF(at == 3800 * SL_USEC, "sleep: woke at %lld", (long long)at);
}

/* 2.6.11+ timespec_to_jiffies divides by TICK_NSEC, the PIT's real jiffy
 * (2.6.12.1 include/linux/jiffies.h: LATCH 1193, ACTHZ, 999,848 ns at HZ
 * 1000 on i386): 2 ms are 3 jiffies, + 1, from jiffy 2 so jiffy 6; 1.5 ms
 * stay 2 + 1.  ia64's virtual CLOCK_TICK_RATE (HZ * 100000) makes its
 * jiffy 1e9 / 1024 to the ns, rounded. */
SL_TEST(engine_nanosleep_rounds_against_tick_nsec)
{
	CHECK(sl_tick_nsec(1193182, 1000) == 999848);
	CHECK(sl_tick_nsec(1193182, 100) == 10000000);	/* LATCH 11932: exact */
	CHECK(sl_tick_nsec(102400000, 1024) == 976563);
	struct sl_timers wheel = { .kind = SL_TIMERS_JIFFY,
				   .jiffy_nsec = sl_tick_nsec(1193182, 1000) };
	long sw;
	sl_time at = sleep_ends(&wheel, SL_TICK_SYNC, 1, sl_act_nanosleep(2 * SL_MSEC), false, &sw);
	CHECKF(at == 6 * SL_MSEC + 1, "2 ms: woke at %lld", (long long)at);
	at = sleep_ends(&wheel, SL_TICK_SYNC, 1, sl_act_nanosleep(1500 * SL_USEC), false, &sw);
	CHECKF(at == 5 * SL_MSEC + 1, "1.5 ms: woke at %lld", (long long)at);
}

/* 2.4.27: one list, run at IRQ0's jiffy start whatever the local ticks'
 * phases; a real-time task's sleep of 2 ms or less is a udelay and never
 * sleeps, a longer one sleeps as any. */
SL_TEST(engine_nanosleep_on_the_2_4_timer_list)
{
	long sw;

	sl_time at = sleep_ends(&SL_TIMERS_2_4, SL_TICK_STAGGERED, 2,
				sl_act_nanosleep(1500 * SL_USEC), false, &sw);
	CHECKF(at == 5 * SL_MSEC + 1, "woke at %lld", (long long)at);
	at = sleep_ends(&SL_TIMERS_2_4, SL_TICK_STAGGERED, 2, sl_act_nanosleep(1500 * SL_USEC),
			true, &sw);
	CHECKF(at == 3800 * SL_USEC && sw == 0, "rt 1.5 ms: asked at %lld after %ld sleeps",
	       (long long)at, sw);
	at = sleep_ends(&SL_TIMERS_2_4, SL_TICK_STAGGERED, 2, sl_act_nanosleep(1500 * SL_USEC + 1),
			true, &sw);	/* udelay rounds up to whole us */
	CHECKF(at == 3801 * SL_USEC, "rt 1.5 ms + 1 ns: asked at %lld", (long long)at);
	at = sleep_ends(&SL_TIMERS_2_4, SL_TICK_STAGGERED, 2, sl_act_nanosleep(2500 * SL_USEC),
			true, &sw);
	CHECKF(at == 6 * SL_MSEC + 1 && sw == 1, "rt 2.5 ms: woke at %lld after %ld sleeps",
	       (long long)at, sw);
}

/* 6.12 hrtimer_nanosleep: 50 us of slack for SCHED_OTHER, none for real
 * time; with exact timers a sleep is what it asked. */
SL_TEST(engine_nanosleep_on_an_hrtimer)
{
	const struct sl_timers exact = { .kind = SL_TIMERS_EXACT };
	long sw;

	sl_time at = sleep_ends(&SL_TIMERS_6_12, SL_TICK_SYNC, 1, sl_act_nanosleep(100 * SL_USEC),
				false, &sw);
	CHECKF(at == 2450 * SL_USEC, "woke at %lld", (long long)at);
	at = sleep_ends(&SL_TIMERS_6_12, SL_TICK_SYNC, 1, sl_act_nanosleep(100 * SL_USEC), true,
			&sw);
	CHECKF(at == 2400 * SL_USEC, "rt: woke at %lld", (long long)at);
	at = sleep_ends(&exact, SL_TICK_SYNC, 1, sl_act_nanosleep(1500 * SL_USEC), false, &sw);
	CHECKF(at == 3800 * SL_USEC, "exact: woke at %lld", (long long)at);
}

/* When a root on a 2-CPU machine that forks a sleeper (running 2.3 ms,
 * then asking nanosleep(ns)) and a task running 10 ms has its sleeper
 * asked for what comes after the sleep; the sleeper's CPU, idle while it
 * sleeps, keeps ticking at 1000 HZ (the test policy has no nohz). */
static sl_time hrtimer_sleeper_back(sl_time ns)
{
	struct sl_machine m;
	sl_time at = -1;

	timers_under_test = SL_TIMERS_6_12;
	tick_under_test = SL_TICK_SYNC;
	if (!load_zeroed(&m, "pack:1 core:2 pu:1"))
		return -1;
	struct sl_sim *sim = checked_sim(&m, &timed_fifo_ops, 1, NULL);
	if (!sim)
		return -1;
	struct script *sleeper = script_new(sim), *busy = script_new(sim);
	script_add(sleeper, sl_act_run(2.3e6, SL_WC_INT));
	script_add(sleeper, sl_act_nanosleep(ns));
	script_add(sleeper, sl_act_exit());
	script_add(busy, sl_act_run(10e6, SL_WC_INT));
	script_add(busy, sl_act_exit());
	spawn_pair(sim, fork_of(sleeper), fork_of(busy));
	struct sl_run_stats st;
	if (run(sim, &st) == 0)
		at = sleeper->asked_at[2];
	sl_sim_destroy(sim);
	return at;
}

/* 6.12 __hrtimer_run_queues: a tick (an hrtimer interrupt of the CPU)
 * that comes after a sleep's soft expiry and before its hard one ends the
 * sleep there.  Soft 3.98 ms, hard 4.03: the 4 ms tick ends it; soft
 * 3.9 ms, hard 3.95: no tick between, it ends at its hard expiry. */
SL_TEST(engine_hrtimer_sleep_ends_at_a_tick_inside_its_slack)
{
	sl_time at = hrtimer_sleeper_back(1680 * SL_USEC);
	CHECKF(at == 4 * SL_MSEC, "tick inside the slack: back at %lld", (long long)at);
	at = hrtimer_sleeper_back(1600 * SL_USEC);
	CHECKF(at == 3950 * SL_USEC, "no tick inside: back at %lld", (long long)at);
}

/* Three sleepers on one CPU, in the order they ran: a (0.2 ms, then
 * nanosleep 500 us: soft 0.70 ms, hard 0.75), c (0.1 ms, 420 us: soft 0.72,
 * hard 0.77) and, when `rt`, d (real time, no slack: 0.05 ms, 410 us: soft
 * = hard = 0.76); the policy's own hrtimer on the CPU at `policy_at` (-1:
 * none).  When each was asked for what follows its sleep, in
 * back[a, c, d]. */
static bool coalesced_sleeps(bool rt, sl_time policy_at, sl_time back[3])
{
	struct sl_machine m;
	bool ok = false;

	timers_under_test = SL_TIMERS_6_12;
	tick_under_test = SL_TICK_SYNC;
	if (!load_zeroed(&m, "pack:1 core:1 pu:1"))
		return false;
	policy_hrtimer_under_test = policy_at;
	struct sl_sim *sim = checked_sim(&m, &timed_fifo_ops, 1, NULL);
	policy_hrtimer_under_test = -1;
	if (!sim)
		return false;
	struct script *root = script_new(sim), *s[3];
	const double run_ms[3] = { 0.2, 0.1, 0.05 };
	const sl_time sleep_us[3] = { 500, 420, 410 };
	for (int k = 0; k < (rt ? 3 : 2); k++) {
		s[k] = script_new(sim);
		if (k == 2)
			script_add(s[k], (struct sl_action){ .kind = SL_ACT_SETSCHED,
				.u.setsched = { .sched_policy = SL_SCHED_FIFO, .rt_priority = 50 } });
		script_add(s[k], sl_act_run(run_ms[k] * 1e6, SL_WC_INT));
		script_add(s[k], sl_act_nanosleep(sleep_us[k] * SL_USEC));
		script_add(s[k], sl_act_exit());
		script_add(root, fork_of(s[k]));
	}
	for (int k = 0; k < (rt ? 3 : 2); k++)
		script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_run_stats st;
	if (run(sim, &st) == 0) {
		back[0] = s[0]->asked_at[2];
		back[1] = s[1]->asked_at[2];
		back[2] = rt ? s[2]->asked_at[3] : -1;
		ok = true;
	}
	sl_sim_destroy(sim);
	return ok;
}

/* One interrupt expires every timer of the CPU whose soft expiry has
 * passed: c ends at a's hard expiry, 20 us early, and both end at a
 * scheduler hrtimer of the policy at 0.73 ms.  The walk goes in the
 * order of the hard expiries and stops at the first timer still in the
 * future (its `break`): with d's slack-0 timer at 0.76 ms between them, c
 * waits behind it at 0.75 ms and ends with it. */
SL_TEST(engine_hrtimer_interrupt_expires_the_cpus_due_sleeps)
{
	sl_time back[3];

	CHECK(coalesced_sleeps(false, -1, back));
	CHECKF(back[0] == 750 * SL_USEC && back[1] == 750 * SL_USEC,
	       "a back at %lld, c at %lld", (long long)back[0], (long long)back[1]);
	CHECK(coalesced_sleeps(false, 730 * SL_USEC, back));
	CHECKF(back[0] == 730 * SL_USEC && back[1] == 730 * SL_USEC,
	       "policy's timer: a back at %lld, c at %lld", (long long)back[0], (long long)back[1]);
	CHECK(coalesced_sleeps(true, -1, back));
	CHECKF(back[0] == 750 * SL_USEC && back[2] == 760 * SL_USEC && back[1] == 760 * SL_USEC,
	       "a back at %lld, d at %lld, c at %lld", (long long)back[0], (long long)back[2],
	       (long long)back[1]);
}

/* ---- the kernel's pipe (sync.c sl_pipe_new) ---- */

/* A machine `shape` of no costs, exact timers, a kernel's pipe of `pages`
 * pages that reads on or not, whose waiters wait exclusively (6.12) or
 * not; *m lives as long as the sim. */
static struct sl_sim *pipe_sim_on(struct sl_machine *m, const char *shape, int pages,
				  bool read_on, bool exclusive)
{
	timers_under_test = (struct sl_timers){ .kind = SL_TIMERS_EXACT };
	tick_under_test = SL_TICK_SYNC;
	pipe_pages_under_test = pages;
	pipe_read_on_under_test = read_on;
	pipe_exclusive_under_test = exclusive;
	bool loaded = load_zeroed(m, shape);
	struct sl_sim *sim = loaded ? checked_sim(m, &timed_fifo_ops, 1, NULL) : NULL;
	pipe_pages_under_test = 1;
	pipe_read_on_under_test = pipe_exclusive_under_test = false;
	return sim;
}

/* The same on two CPUs, a 2.x pipe. */
static struct sl_sim *pipe_sim(struct sl_machine *m, int pages, bool read_on)
{
	return pipe_sim_on(m, "pack:1 core:2 pu:1", pages, read_on, false);
}

/* When a writer that filled a pipe of `pages` pages and wrote one page
 * more finishes that write, while its reader (on the other CPU) reads 100
 * bytes at 10 ms and the rest of the first page at 20 ms, then what is
 * left; the run's voluntary switches in *write_wakeups. */
static sl_time page_writer_done(int pages, long *write_wakeups)
{
	struct sl_machine m;
	sl_time at = -1;
	struct sl_sim *sim = pipe_sim(&m, pages, false);
	if (!sim)
		return -1;
	struct sl_chan *pipe = sl_pipe_new(sim, 0);
	long full = sl_pipe_bytes(sim);
	struct script *w = script_new(sim), *r = script_new(sim);
	script_add(w, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, full));
	script_add(w, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, SL_PAGE_BYTES));
	script_add(w, sl_act_exit());
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 100));
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, SL_PAGE_BYTES - 100));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, full));
	spawn_pair(sim, fork_of(w), fork_of(r));
	struct sl_run_stats st;
	if (run(sim, &st) == 0) {
		at = w->asked_at[2];
		*write_wakeups = st.nvcsw;
	}
	sl_sim_destroy(sim);
	return at;
}

/* A pipe of several pages wakes its blocked writer only when a read
 * frees a page (2.6.12.1 pipe_readv: do_wakeup once a buffer is empty),
 * so the writer sleeps once; a page's pipe (2.4, 2.6.0) at any read, so
 * the writer wakes at 10 ms, writes 100 bytes and sleeps again.  Either
 * way the last page is written at 20 ms. */
SL_TEST(engine_pipe_of_pages_wakes_its_writer_when_a_page_frees)
{
	long pages16, page;

	sl_time at = page_writer_done(16, &pages16);
	CHECKF(at == 20 * SL_MSEC, "16 pages: the last page written at %lld", (long long)at);
	at = page_writer_done(1, &page);
	CHECKF(at == 20 * SL_MSEC, "a page: the last page written at %lld", (long long)at);
	/* the root's two waits, the reader's two sleeps, the writer's one
	 * wait for a page; a page's pipe has the writer (at least) sleep again */
	CHECKF(pages16 == 5 && page > pages16, "sleeps: %ld in a page's pipe, %ld in 16 pages'",
	       page, pages16);
}

/* A page's pipe, full, its writer blocked on 100 bytes more; the reader
 * (on the other CPU) asks for two pages at 10 ms.  What the read returns,
 * and when (*at). */
static long pipe_read_gets(bool read_on, sl_time *at)
{
	struct sl_machine m;
	long got = -1;
	struct sl_sim *sim = pipe_sim(&m, 1, read_on);
	if (!sim)
		return -1;
	struct sl_chan *pipe = sl_pipe_new(sim, 0);
	struct script *w = script_new(sim), *r = script_new(sim);
	script_add(w, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, SL_PAGE_BYTES));
	script_add(w, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 100));
	script_add(w, sl_act_exit());
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 2 * SL_PAGE_BYTES));
	script_add(r, sl_act_exit());
	spawn_pair(sim, fork_of(w), fork_of(r));
	struct sl_run_stats st;
	if (run(sim, &st) == 0) {
		got = r->result[2];
		*at = r->asked_at[2];
	}
	sl_sim_destroy(sim);
	return got;
}

/* 2.4.27 pipe_read and 2.6.12.1 pipe_readv read on: having emptied the
 * pipe with bytes still wanted while the writer is blocked, they wake it
 * (synchronously) and wait in the same call for what it writes, here its
 * 100 bytes, then return once no writer waits.  6.12's returns the page. */
SL_TEST(engine_pipe_read_reads_on_while_its_writer_waits)
{
	sl_time at_on = -1, at_off = -1;
	long on = pipe_read_gets(true, &at_on), off = pipe_read_gets(false, &at_off);

	CHECKF(on == SL_PAGE_BYTES + 100, "reading on: %ld bytes", on);
	CHECKF(off == SL_PAGE_BYTES, "not reading on: %ld bytes", off);
	/* (a machine of no costs: the writer's wakeup and write take no time) */
	CHECKF(at_on >= at_off && at_off >= 10 * SL_MSEC, "returned at %lld and %lld ns",
	       (long long)at_on, (long long)at_off);
}

/*
 * A page's pipe on two CPUs, one of them taken by a hog: W1 fills the
 * pipe and blocks on 100 bytes more, W2 blocks on a page of its own.  At
 * 10 ms the reader takes 100 bytes, which wakes both writers (a one-page
 * pipe's read does), and asks for three pages at once, the CPU still its
 * own: it empties the pipe with both writers woken and neither run.
 * 2.4.27's pipe_read and 2.6.12.1's pipe_readv test PIPE_WAITING_WRITERS,
 * which a writer lowers only once it has run (pipe_write: "--" after
 * pipe_wait()), so the read reads on and gets W2's page and W1's 100
 * bytes.  Until Dec 2026 the engine tested the wait queue, which the
 * wakeups had emptied, and the read returned the page's 3,996 bytes (the
 * run then ended with W1 blocked for good: the reader had left).  What
 * the second read returns, and in *rc the run's end (0: every task done).
 */
static long pipe_read_with_woken_writers(int *rc)
{
	struct sl_machine m;
	long got = -1;
	struct sl_sim *sim = pipe_sim(&m, 1, true);
	if (!sim)
		return -1;
	struct sl_chan *pipe = sl_pipe_new(sim, 0);
	struct script *w1 = script_new(sim), *w2 = script_new(sim), *r = script_new(sim);
	struct script *hog = script_new(sim);
	script_add(w1, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, SL_PAGE_BYTES));
	script_add(w1, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 100));
	script_add(w1, sl_act_exit());
	script_add(w2, sl_act_sleep(SL_MSEC));
	script_add(w2, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, SL_PAGE_BYTES));
	script_add(w2, sl_act_exit());
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 100));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 3 * SL_PAGE_BYTES));
	script_add(r, sl_act_exit());
	script_add(hog, sl_act_run(30 * SL_MSEC, SL_WC_INT));
	script_add(hog, sl_act_exit());
	spawn_forks(sim, (struct sl_action[]){ fork_of(w1), fork_of(w2), fork_of(r), fork_of(hog) },
		    4);
	struct sl_err err = { 0 };
	*rc = sl_sim_run(sim, &err);
	if (r->pc > 3)
		got = r->result[3];
	sl_sim_destroy(sim);
	return got;
}

SL_TEST(engine_pipe_read_on_counts_woken_writers)
{
	int rc = -1;
	long got = pipe_read_with_woken_writers(&rc);
	CHECKF(got == SL_PAGE_BYTES - 100 + SL_PAGE_BYTES + 100, "the read returned %ld bytes", got);
	CHECKF(rc == 0, "the run ended with %d", rc);
}

/* A root that forks the n scripts, all at 0, and waits for them. */
/* A ring of two pages, filled by a first writer; A and B, both fresh,
 * block on 100 bytes each (at 1 and 2 ms); the reader frees the first
 * page at 10 ms; C writes 100 bytes at 15 ms; the reader reads 100 bytes
 * of the second page at 20 ms (if `partial`), the rest of it at 30 ms
 * (freeing it), then at 31 ms the 300 bytes left.  When the writes of A,
 * B and C end, what the last read got, and the run's voluntary switches.
 * On five CPUs, so that no task waits for one. */
struct ring_case {
	sl_time a_done, b_done, c_done;
	long last_read, nvcsw;
};

static bool pipe_ring_case(bool exclusive, bool partial, struct ring_case *out)
{
	struct sl_machine m;
	bool ok = false;

	/* 2.6.12.1 reads on, 6.12 does not */
	struct sl_sim *sim = pipe_sim_on(&m, "pack:1 core:5 pu:1", 2, !exclusive, exclusive);
	if (!sim)
		return false;
	struct sl_chan *pipe = sl_pipe_new(sim, 0);
	struct script *f = script_new(sim), *a = script_new(sim), *b = script_new(sim);
	struct script *c = script_new(sim), *r = script_new(sim);
	script_add(f, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 2 * SL_PAGE_BYTES));
	script_add(a, sl_act_sleep(1 * SL_MSEC));
	script_add(a, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 100));
	script_add(b, sl_act_sleep(2 * SL_MSEC));
	script_add(b, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 100));
	script_add(c, sl_act_sleep(15 * SL_MSEC));
	script_add(c, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 100));
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, SL_PAGE_BYTES));
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	if (partial)
		script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 100));
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, SL_PAGE_BYTES - (partial ? 100 : 0)));
	script_add(r, sl_act_sleep(1 * SL_MSEC));	/* the woken writer writes first */
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 300));
	spawn_forks(sim, (struct sl_action[]){ fork_of(f), fork_of(a), fork_of(b), fork_of(c),
					       fork_of(r) }, 5);
	struct sl_run_stats st;
	if (run(sim, &st) == 0) {
		*out = (struct ring_case){ .a_done = a->asked_at[2], .b_done = b->asked_at[2],
					   .c_done = c->asked_at[2], .last_read = r->result[r->n],
					   .nvcsw = st.nvcsw };
		ok = true;
	}
	sl_sim_destroy(sim);
	return ok;
}

/* 2.6.12.1 pipe_writev merges a small write into the newest page only
 * before the call first waits: woken when the reader frees the first
 * page, B (the newest sleeper, woken first) takes the free page, and A,
 * which must have a fresh page too, finds none and waits again until the
 * second page is freed at 30 ms, while C, a fresh call, merges its 100
 * bytes into B's page at 15 ms.  (Counting bytes alone, A would have
 * written at 10 ms.)  A read that frees no page wakes nobody. */
SL_TEST(engine_pipe_ring_woken_writer_takes_a_fresh_page)
{
	struct ring_case k, p;

	if (!pipe_ring_case(false, false, &k) || !pipe_ring_case(false, true, &p)) {
		CHECK(!"the pipe ring cases ran");
		return;
	}
	CHECKF(k.b_done == 10 * SL_MSEC && k.a_done == 30 * SL_MSEC, "B wrote at %lld, A at %lld",
	       (long long)k.b_done, (long long)k.a_done);
	CHECKF(k.c_done == 15 * SL_MSEC, "C wrote at %lld", (long long)k.c_done);
	CHECKF(k.last_read == 300, "the last read got %ld", k.last_read);
	CHECKF(p.a_done == 30 * SL_MSEC && p.nvcsw == k.nvcsw,
	       "a partial read: A wrote at %lld, %ld sleeps against %ld",
	       (long long)p.a_done, p.nvcsw, k.nvcsw);
}

/* 6.12 waits exclusively, oldest first: the read that frees a page of
 * the full pipe wakes A alone, and B sleeps on untouched until 30 ms (one
 * sleep fewer than 2.6.12's wake-all).  A read that begins on a full pipe
 * wakes a writer even when it frees nothing (was_full): B wakes at 20 ms,
 * finds no page and sleeps again. */
SL_TEST(engine_pipe_6_12_wakes_one_writer_when_it_was_full)
{
	struct ring_case old, k, p;

	if (!pipe_ring_case(false, false, &old) || !pipe_ring_case(true, false, &k) ||
	    !pipe_ring_case(true, true, &p)) {
		CHECK(!"the pipe ring cases ran");
		return;
	}
	CHECKF(k.a_done == 10 * SL_MSEC && k.b_done == 30 * SL_MSEC && k.c_done == 15 * SL_MSEC &&
	       k.last_read == 300, "A at %lld, B at %lld, C at %lld, last read %ld",
	       (long long)k.a_done, (long long)k.b_done, (long long)k.c_done, k.last_read);
	CHECKF(k.nvcsw == old.nvcsw - 1, "sleeps: %ld waking one, %ld waking all", k.nvcsw,
	       old.nvcsw);
	CHECKF(p.b_done == 30 * SL_MSEC && p.nvcsw == k.nvcsw + 1,
	       "a partial read of the full pipe: B at %lld, %ld sleeps against %ld",
	       (long long)p.b_done, p.nvcsw, k.nvcsw);
}

/*
 * 2.6.12.1 pipe_readv's do_wakeup stays set once the call has freed a
 * page: through the read-on's sync wakeup and wait, to the call's end,
 * which wakes the writers again though its last chunk freed nothing.  A
 * ring of two pages on five CPUs: F fills it; G, H and K block on a page
 * each (at 1, 2 and 3 ms).  At 10 ms the reader asks for two pages and
 * 100 bytes: it frees both, wakes the three writers and waits (reading
 * on); two of them take the two fresh pages, the third finds none and
 * sleeps again; the reader wakes and takes 100 bytes of a page, freeing
 * none, and returns.  At that return the kernel wakes the third writer
 * once more (it sleeps again: nothing is free) - one sleep more than a
 * wakeup by what the last chunk freed.  It writes once the reader frees
 * a page at 20 ms.  Returns the run's voluntary switches, and in *done
 * when the third writer's write ended; -1 if it did not run.
 */
static long ring_call_end_wakes(sl_time *done)
{
	struct sl_machine m;
	long nvcsw = -1;
	struct sl_sim *sim = pipe_sim_on(&m, "pack:1 core:5 pu:1", 2, true, false);
	if (!sim)
		return -1;
	struct sl_chan *pipe = sl_pipe_new(sim, 0);
	struct script *f = script_new(sim), *w[3], *r = script_new(sim);
	script_add(f, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 2 * SL_PAGE_BYTES));
	for (int i = 0; i < 3; i++) {
		w[i] = script_new(sim);
		script_add(w[i], sl_act_sleep((i + 1) * SL_MSEC));
		script_add(w[i], sl_act_chan(SL_ACT_CHAN_WRITE, pipe, SL_PAGE_BYTES));
	}
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 2 * SL_PAGE_BYTES + 100));
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 2 * SL_PAGE_BYTES));
	spawn_forks(sim, (struct sl_action[]){ fork_of(f), fork_of(w[0]), fork_of(w[1]),
					       fork_of(w[2]), fork_of(r) }, 5);
	struct sl_run_stats st;
	if (run(sim, &st) == 0) {
		nvcsw = st.nvcsw;
		*done = 0;
		for (int i = 0; i < 3; i++)	/* the last writer done */
			if (w[i]->asked_at[2] > *done)
				*done = w[i]->asked_at[2];
	}
	sl_sim_destroy(sim);
	return nvcsw;
}

SL_TEST(engine_pipe_ring_read_call_end_wakes_writers_again)
{
	sl_time done = -1;
	long nvcsw = ring_call_end_wakes(&done);

	/* sleeps: F none (it fills the pipe and exits at once); G, H and K
	 * their timed sleeps and one each on the full pipe; the third writer
	 * again after the read-on's wakeup and once more after the call's
	 * end (15 while only what the last chunk freed could wake it); the
	 * reader its two timed sleeps and its read-on wait; the root one
	 * wait per child: 3 + 3 + 2 + 3 + 5 */
	CHECKF(nvcsw == 16, "%ld voluntary switches", nvcsw);
	CHECKF(done == 20 * SL_MSEC, "the third writer wrote at %lld ns", (long long)done);
}

/* A ring of two pages under 2.6.12.1 (reading on) or 6.12: a writer
 * fills it and blocks on a third page; the reader asks for three pages
 * at 10 ms.  What that read returns. */
static long ring_read_on_gets(bool exclusive)
{
	struct sl_machine m;
	long got = -1;

	struct sl_sim *sim = pipe_sim_on(&m, "pack:1 core:2 pu:1", 2, !exclusive, exclusive);
	if (!sim)
		return -1;
	struct sl_chan *pipe = sl_pipe_new(sim, 0);
	struct script *w = script_new(sim), *r = script_new(sim);
	script_add(w, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 3 * SL_PAGE_BYTES));
	script_add(w, sl_act_chan(SL_ACT_CHAN_CLOSE, pipe, 0));
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 3 * SL_PAGE_BYTES));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 3 * SL_PAGE_BYTES));
	spawn_pair(sim, fork_of(w), fork_of(r));
	struct sl_run_stats st;
	if (run(sim, &st) == 0)
		got = r->result[2];
	sl_sim_destroy(sim);
	return got;
}

/* 2.6.12.1's pipe_readv reads on through a ring too: having emptied both
 * pages with a page still wanted while the writer waits for one, it wakes
 * the writer and waits in the same call for the third page.  6.12's read
 * returns the two pages it found. */
SL_TEST(engine_pipe_ring_reads_on_while_its_writer_waits)
{
	long on = ring_read_on_gets(false), off = ring_read_on_gets(true);

	CHECKF(on == 3 * SL_PAGE_BYTES, "2.6.12: %ld bytes", on);
	CHECKF(off == 2 * SL_PAGE_BYTES, "6.12: %ld bytes", off);
}

/* 6.12 hands a wakeup on.  Two writers blocked on a full ring of two
 * pages: the read of both pages at 10 ms wakes one (was_full), which
 * writes and, having waited and leaving a page free, wakes the next
 * (wake_next_writer).  Two readers blocked on an empty ring: a write
 * into it wakes one (was_empty), the next write nobody, and the woken
 * reader, having waited and leaving bytes, wakes the other
 * (wake_next_reader).  When the second writer's write and the second
 * reader's read end. */
static bool ring_hand_on(sl_time *writer2, sl_time *reader2)
{
	struct sl_machine m;
	bool ok = false;

	struct sl_sim *sim = pipe_sim_on(&m, "pack:1 core:5 pu:1", 2, false, true);
	if (!sim)
		return false;
	struct sl_chan *full = sl_pipe_new(sim, 0), *empty = sl_pipe_new(sim, 0);
	struct script *f = script_new(sim), *w1 = script_new(sim), *w2 = script_new(sim);
	struct script *r1 = script_new(sim), *r2 = script_new(sim);
	/* f fills `full`, w1 and w2 block on it; at 10 ms f reads both
	 * pages of it and writes two 100-byte messages into `empty`, where
	 * r1 and r2 wait */
	script_add(f, sl_act_chan(SL_ACT_CHAN_WRITE, full, 2 * SL_PAGE_BYTES));
	script_add(f, sl_act_sleep(10 * SL_MSEC));
	script_add(f, sl_act_chan(SL_ACT_CHAN_READ, full, 2 * SL_PAGE_BYTES));
	script_add(f, sl_act_chan(SL_ACT_CHAN_WRITE, empty, 100));
	script_add(f, sl_act_chan(SL_ACT_CHAN_WRITE, empty, 100));
	script_add(w1, sl_act_sleep(1 * SL_MSEC));
	script_add(w1, sl_act_chan(SL_ACT_CHAN_WRITE, full, 100));
	script_add(w2, sl_act_sleep(2 * SL_MSEC));
	script_add(w2, sl_act_chan(SL_ACT_CHAN_WRITE, full, 100));
	script_add(r1, sl_act_sleep(1 * SL_MSEC));
	script_add(r1, sl_act_chan(SL_ACT_CHAN_READ, empty, 100));
	script_add(r2, sl_act_sleep(2 * SL_MSEC));
	script_add(r2, sl_act_chan(SL_ACT_CHAN_READ, empty, 100));
	spawn_forks(sim, (struct sl_action[]){ fork_of(f), fork_of(w1), fork_of(w2), fork_of(r1),
					       fork_of(r2) }, 5);
	struct sl_run_stats st;
	if (run(sim, &st) == 0) {
		*writer2 = w2->asked_at[2];
		*reader2 = r2->result[2] == 100 ? r2->asked_at[2] : -1;
		ok = true;
	}
	sl_sim_destroy(sim);
	return ok;
}

SL_TEST(engine_pipe_6_12_hands_a_wakeup_on)
{
	sl_time writer2 = -1, reader2 = -1;

	CHECK(ring_hand_on(&writer2, &reader2));
	CHECKF(writer2 == 10 * SL_MSEC, "the second writer wrote at %lld", (long long)writer2);
	CHECKF(reader2 == 10 * SL_MSEC, "the second reader read at %lld", (long long)reader2);
}

/* A pipe of 400 bytes (hackbench's buf=400: four messages) under a
 * kernel of pages, 2.6.12's or 6.12's: a first writer fills it, A and B
 * block on 100 bytes each (at 1 and 2 ms), the reader reads `first` bytes
 * at 10 ms and, at 20 ms, the 400 then queued (no read that reads on).
 * When A's and B's writes end, and the run's voluntary switches. */
static bool sized_pipe_case(bool exclusive, long first, sl_time *a_done, sl_time *b_done,
			    long *nvcsw)
{
	struct sl_machine m;
	bool ok = false;

	struct sl_sim *sim = pipe_sim_on(&m, "pack:1 core:4 pu:1", 2, !exclusive, exclusive);
	if (!sim)
		return false;
	struct sl_chan *pipe = sl_pipe_new(sim, 400);
	struct script *f = script_new(sim), *a = script_new(sim), *b = script_new(sim);
	struct script *r = script_new(sim);
	script_add(f, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 400));
	script_add(a, sl_act_sleep(1 * SL_MSEC));
	script_add(a, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 100));
	script_add(b, sl_act_sleep(2 * SL_MSEC));
	script_add(b, sl_act_chan(SL_ACT_CHAN_WRITE, pipe, 100));
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, first));
	script_add(r, sl_act_sleep(10 * SL_MSEC));
	script_add(r, sl_act_chan(SL_ACT_CHAN_READ, pipe, 400));
	spawn_forks(sim, (struct sl_action[]){ fork_of(f), fork_of(a), fork_of(b), fork_of(r) },
		    4);
	struct sl_run_stats st;
	if (run(sim, &st) == 0) {
		*a_done = a->asked_at[2];
		*b_done = b->asked_at[2];
		*nvcsw = st.nvcsw;
		ok = r->result[4] == 400;
	}
	sl_sim_destroy(sim);
	return ok;
}

/* 6.12's waiters wait exclusively in a pipe of any size (F_SETPIPE_SZ
 * changes only how many pages it holds).  2.6.12's read of 100 bytes at
 * 10 ms wakes both writers, B (the newest) first, and A finds the pipe
 * full again and sleeps until 20 ms; 6.12's wakes A alone, and B sleeps on
 * untouched until 20 ms, one sleep fewer.  A read of 200 bytes leaves room
 * after A's write, and A, having waited, wakes B (wake_next_writer). */
SL_TEST(engine_pipe_6_12_of_any_size_wakes_one_waiter)
{
	sl_time a = -1, b = -1, a_old = -1, b_old = -1, a_two = -1, b_two = -1;
	long sleeps = -1, sleeps_old = -1, sleeps_two = -1;

	CHECK(sized_pipe_case(false, 100, &a_old, &b_old, &sleeps_old));
	CHECK(sized_pipe_case(true, 100, &a, &b, &sleeps));
	CHECK(sized_pipe_case(true, 200, &a_two, &b_two, &sleeps_two));
	CHECKF(b_old == 10 * SL_MSEC && a_old == 20 * SL_MSEC, "2.6.12: B at %lld, A at %lld",
	       (long long)b_old, (long long)a_old);
	CHECKF(a == 10 * SL_MSEC && b == 20 * SL_MSEC && sleeps == sleeps_old - 1,
	       "6.12: A at %lld, B at %lld, %ld sleeps against %ld", (long long)a, (long long)b,
	       sleeps, sleeps_old);
	CHECKF(a_two == 10 * SL_MSEC && b_two == 10 * SL_MSEC,
	       "6.12, a read of two messages: A at %lld, B at %lld", (long long)a_two,
	       (long long)b_two);
}

/* ---- a device's request queue (sl_mutex_new_io) ---- */

struct lock_sleep_watch {
	const struct sl_task *waiter;	/* the second child, once it blocks */
	int blocked;			/* its switches out asleep */
	int uninterruptible;		/* of which in D */
};

static void lock_sleep_note_switch(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
				   const struct sl_task *next)
{
	struct lock_sleep_watch *w = ctx;
	(void)now, (void)cpu, (void)next;
	if (prev && prev->state == SL_TASK_SLEEPING && prev->act.kind == SL_ACT_LOCK) {
		w->blocked++;
		w->uninterruptible += prev->uninterruptible;
	}
}

/* Two tasks on two CPUs take one mutex; the second finds it held for
 * 5 ms and sleeps on it: in D on a device's queue, in S on a user lock. */
static bool lock_waiter_uninterruptible(bool io, int *blocked)
{
	struct sl_machine m;
	struct lock_sleep_watch w = { 0 };
	struct sl_observer obs = { .ctx = &w, .sched_switch = lock_sleep_note_switch };
	bool d = false;

	*blocked = -1;
	if (!load_zeroed(&m, "pack:1 core:2 pu:1"))
		return false;
	struct sl_sim *sim = checked_sim(&m, &fifo_ops, 1, &obs);
	if (!sim)
		return false;
	struct sl_mutex *mx = io ? sl_mutex_new_io(sim) : sl_mutex_new(sim);
	struct script *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_mutex(SL_ACT_LOCK, mx));
	script_add(a, sl_act_sleep(5 * SL_MSEC));
	script_add(a, sl_act_mutex(SL_ACT_UNLOCK, mx));
	script_add(b, sl_act_sleep(1 * SL_MSEC));
	script_add(b, sl_act_mutex(SL_ACT_LOCK, mx));
	script_add(b, sl_act_mutex(SL_ACT_UNLOCK, mx));
	spawn_pair(sim, fork_of(a), fork_of(b));
	if (sl_sim_run(sim, NULL) == 0) {
		*blocked = w.blocked;
		d = w.blocked > 0 && w.uninterruptible == w.blocked;
	}
	sl_sim_destroy(sim);
	return d;
}

/* kernbench's disk: a cc1 queued behind another's read waits for its page
 * (wait_on_page_locked) in TASK_UNINTERRUPTIBLE, which 2.6.0's and 2.6.12's
 * sleep credit tell from a user lock's interruptible wait. */
SL_TEST(engine_io_queue_waiters_sleep_uninterruptibly)
{
	int blocked = -1;

	CHECKF(lock_waiter_uninterruptible(true, &blocked) && blocked == 1,
	       "device queue: %d blocked", blocked);
	CHECKF(!lock_waiter_uninterruptible(false, &blocked) && blocked == 1,
	       "user lock: %d blocked", blocked);
}
