/*
 * test_rt_cfs.c - policy `cfs`'s other classes and live changes (issue
 * 12): an RT task preempts a fair one at once; FIFO is not preempted by an
 * equal priority and RR rotates at 100 ms; a spinning FIFO task leaves the
 * fair task beside it 5 % (6.12's fair server, and the RT throttling of
 * earlier kernels); a woken RT task goes to the CPU running the lowest
 * priority, nearest first, a waiting one is pushed there, and a CPU whose
 * priority drops pulls one; class changes both ways; BATCH
 * does not preempt on wakeup; SCHED_IDLE weighs 3 against 1024; a mask
 * change moves a running task; a nice change reweights a running task;
 * the fair balancer counts RT tasks among a group's tasks, and weighs
 * a CPU's fair load against what RT leaves of it (capacity_of).
 *
 * Every run has the engine's invariant checks on, and with them the
 * policy's check op (RT lists, bitmap, counts, each task in the class
 * and on a CPU its mask allows).
 */
#include <string.h>

#include "base/spec.h"
#include "hw/machine.h"
#include "policy/cfs/cfs.h"
#include "sim/sim.h"
#include "test.h"

/* ---- a scripted task: acts[] in order, noting when and where ---- */

#define RTC_ACTS 128

struct rtc_script {
	int n, pc;
	struct sl_action acts[RTC_ACTS];
	sl_time at[RTC_ACTS + 1];	/* when act i was asked for (i = n: the exit) */
	int cpu[RTC_ACTS + 1];
	sl_cpumask masks[RTC_ACTS];	/* storage for SETAFFINITY / fork masks */
};

static void rtc_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct rtc_script *s = t->prog_state;

	s->at[s->pc] = sl_now(sim);
	s->cpu[s->pc] = t->cpu;
	*next = s->pc < s->n ? s->acts[s->pc++] : sl_act_exit();
}

static const struct sl_prog rtc_prog = { .name = "rtc", .step = rtc_step };

static struct rtc_script *rtc_new(struct sl_sim *sim)
{
	struct rtc_script *s = sl_sim_alloc(sim, sizeof(*s));
	memset(s, 0, sizeof(*s));
	return s;
}

static void rtc_add(struct rtc_script *s, struct sl_action a)
{
	if (s->n < RTC_ACTS)
		s->acts[s->n++] = a;
}

static void rtc_run(struct rtc_script *s, double ms)
{
	rtc_add(s, sl_act_run(ms * SL_MSEC, SL_WC_INT));
}

static void rtc_sleep(struct rtc_script *s, double ms)
{
	rtc_add(s, sl_act_sleep((sl_time)(ms * SL_MSEC)));
}

/* A child of class `policy` (SL_SCHED_*), rt_priority `prio`, nice 0;
 * cpus >= 0: pinned to CPUs 0..cpus-1 shifted by `first`. */
static void rtc_fork(struct rtc_script *s, struct rtc_script *child, const char *comm, int policy,
		     int prio, int first, int ncpus)
{
	const sl_cpumask *allowed = NULL;

	if (ncpus > 0 && s->n < RTC_ACTS) {
		sl_cpumask *m = &s->masks[s->n];
		sl_cpumask_clear(m);
		for (int c = first; c < first + ncpus; c++)
			sl_cpumask_set(m, c);
		allowed = m;
	}
	rtc_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &rtc_prog, .state = child, .comm = comm, .set_nice = true,
			    .nice = 0, .set_sched = true, .sched_policy = policy,
			    .rt_priority = prio, .allowed = allowed } });
}

static void rtc_setsched(struct rtc_script *s, int policy, int prio, int nice)
{
	rtc_add(s, (struct sl_action){ .kind = SL_ACT_SETSCHED,
		.u.setsched = { .sched_policy = policy, .rt_priority = prio, .nice = nice } });
}

static void rtc_affinity(struct rtc_script *s, int cpu)
{
	if (s->n >= RTC_ACTS)
		return;
	sl_cpumask *m = &s->masks[s->n];
	sl_cpumask_clear(m);
	sl_cpumask_set(m, cpu);
	rtc_add(s, (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = m });
}

static void rtc_affinity_all(struct rtc_script *s, int ncpus)
{
	if (s->n >= RTC_ACTS)
		return;
	sl_cpumask *m = &s->masks[s->n];
	*m = sl_cpumask_first_n(ncpus);
	rtc_add(s, (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = m });
}

static struct sl_task *rtc_find(struct sl_sim *sim, const char *comm)
{
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t))
		if (!strcmp(t->comm, comm))
			return t;
	return NULL;
}

/* ---- a run ---- */

struct rtc_run {
	struct sl_machine machine;
	struct sl_params knobs;
	struct sl_sim *sim;
	struct sl_err err;
};

static bool rtc_start(struct rtc_run *r, const char *machine, const char *policy, sl_time limit)
{
	static const char *const extra[] = { "label", NULL };
	struct sl_spec spec;

	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &r->err) ||
	    sl_spec_parse(&spec, policy, "policy", &r->err) ||
	    sl_spec_bind(&r->knobs, &spec, sl_policy_cfs.knobs, extra, "policy 'cfs'", &r->err))
		return false;
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = &sl_policy_cfs, .knobs = &r->knobs,
		.seed = 1, .time_limit = limit, .check = true,
	};
	r->sim = sl_sim_create(&cfg, &r->err);
	return r->sim != NULL;
}

/* rtc_start that must succeed. */
static bool rtc_ok(struct rtc_run *r, const char *machine, const char *policy, sl_time limit)
{
	bool ok = rtc_start(r, machine, policy, limit);
	CHECKF(ok, "%s on %s: %s", policy, machine, r->err.msg);
	return ok;
}

static bool rtc_go(struct rtc_run *r, struct rtc_script *root)
{
	sl_sim_spawn_root(r->sim, &rtc_prog, root, "root");
	if (sl_sim_run(r->sim, &r->err) == 0)
		return true;
	CHECKF(0, "run: %s", r->err.msg);
	sl_sim_destroy(r->sim);
	r->sim = NULL;
	return false;
}

static double rtc_ms(sl_time t)
{
	return (double)t / SL_MSEC;
}

/* ---- the tests ---- */

SL_TEST(rt_cfs_classes_offered)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 0))
		return;
	CHECK(sl_sim_supports_sched(r.sim, SL_SCHED_FIFO) && sl_sim_supports_sched(r.sim, SL_SCHED_RR));
	CHECK(sl_sim_supports_sched(r.sim, SL_SCHED_BATCH) &&
	      sl_sim_supports_sched(r.sim, SL_SCHED_IDLE));
	/* SCHED_DEADLINE is not modelled: refused before the run */
	CHECK(!sl_sim_supports_sched(r.sim, SL_SCHED_DEADLINE));
	sl_sim_destroy(r.sim);
	/* knobs of the other bandwidth mode are refused, as the rest */
	static const char *const bad[] = { "cfs:rt_runtime_us=900000",
					   "cfs:rt_bandwidth=throttle,fair_server_us=1000",
					   "cfs:rt_bandwidth=throttle,rt_runtime_us=2000000",
					   "cfs:fair_server_us=2000000" };
	static const char *const named[] = { "rt_runtime_us", "fair_server_us", "rt_runtime_us",
					     "fair_server_us" };
	for (int i = 0; i < 4; i++) {
		struct rtc_run b;
		CHECKF(!rtc_start(&b, "pack:1 core:1 pu:1", bad[i], 0) &&
		       b.err.kind == SL_ERR_INPUT && strstr(b.err.msg, named[i]), "%s: %s", bad[i],
		       b.err.msg);
	}
}

/* One CPU: a fair hog runs; an RT task wakes at 10 ms and runs 30 ms: it
 * takes the CPU at once and keeps it (fair: it would share the CPU). */
SL_TEST(rt_cfs_preempts_fair_at_once)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *hog = rtc_new(r.sim), *rt = rtc_new(r.sim);
	rtc_run(hog, 100);
	rtc_sleep(rt, 10);
	rtc_run(rt, 30);
	rtc_fork(root, hog, "hog", SL_SCHED_NORMAL, 0, 0, 0);
	rtc_fork(root, rt, "rt", SL_SCHED_FIFO, 10, 0, 0);
	if (!rtc_go(&r, root))
		return;
	/* at[1]: woken, asks for its run; at[2]: the run done */
	sl_time woke = rt->at[1], done = rt->at[2];
	CHECKF(woke - rt->at[0] < 10 * SL_MSEC + 50 * SL_USEC, "woken at %.3f ms", rtc_ms(woke));
	CHECKF(done - woke < 30 * SL_MSEC + 100 * SL_USEC, "30 ms of work took %.3f ms",
	       rtc_ms(done - woke));
	sl_sim_destroy(r.sim);
}

/* One CPU, two tasks of RT priority 10 each with 250 ms of work, forked
 * by a higher RT root: FIFO runs the first to completion (250, 500 ms),
 * RR alternates them every 100 ms: a 0-100, b 100-200, a 200-300, b
 * 300-400, a 400-450, b 450-500. */
static void rtc_two_equal(int policy, double first_ms, double second_ms)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *a = rtc_new(r.sim), *b = rtc_new(r.sim);
	rtc_setsched(root, SL_SCHED_FIFO, 50, 0);
	rtc_run(a, 250);
	rtc_run(b, 250);
	rtc_fork(root, a, "a", policy, 10, 0, 0);
	rtc_fork(root, b, "b", policy, 10, 0, 0);
	if (!rtc_go(&r, root))
		return;
	double ea = rtc_ms(a->at[1]), eb = rtc_ms(b->at[1]);
	/* switches and refill add well under a tick; the RR slice ends at a tick */
	CHECKF(ea > first_ms - 1 && ea < first_ms + 6, "%s: a ended at %.2f ms, want ~%.0f",
	       policy == SL_SCHED_RR ? "RR" : "FIFO", ea, first_ms);
	CHECKF(eb > second_ms - 1 && eb < second_ms + 6, "%s: b ended at %.2f ms, want ~%.0f",
	       policy == SL_SCHED_RR ? "RR" : "FIFO", eb, second_ms);
	sl_sim_destroy(r.sim);
}

SL_TEST(rt_cfs_fifo_not_preempted_by_equal)
{
	rtc_two_equal(SL_SCHED_FIFO, 250, 500);
}

SL_TEST(rt_cfs_rr_rotates_at_100ms)
{
	rtc_two_equal(SL_SCHED_RR, 450, 500);
}

/* sched_rr_timeslice_ms set to 10 at HZ 250 is msecs_to_jiffies(10) = 3
 * ticks, rounded up (6.12 sched_rr_handler): of two RR tasks of 30 ms, the
 * first runs about 12 ms (to its third tick) before the second's first
 * turn; until Dec 2026 the model truncated to 2 ticks, 8 ms. */
SL_TEST(rt_cfs_rr_timeslice_rounds_up_to_ticks)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs:hz=250,rr_timeslice_ms=10", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *a = rtc_new(r.sim), *b = rtc_new(r.sim);
	rtc_setsched(root, SL_SCHED_FIFO, 50, 0);
	rtc_run(a, 30);
	rtc_run(b, 30);
	rtc_fork(root, a, "a", SL_SCHED_RR, 10, 0, 0);
	rtc_fork(root, b, "b", SL_SCHED_RR, 10, 0, 0);
	if (!rtc_go(&r, root))
		return;
	/* a's first turn: from its start to b's first run */
	double a_end = rtc_ms(a->at[1]), b_start = rtc_ms(b->at[0]), a_start = rtc_ms(a->at[0]);
	CHECKF(b_start - a_start > 11 && b_start - a_start < 12.5,
	       "a ran from %.3f ms, b first at %.3f ms; a ended at %.3f ms", a_start, b_start,
	       a_end);
	sl_sim_destroy(r.sim);
}

/* FIFO: a woken task of equal priority waits; a higher one preempts. */
SL_TEST(rt_cfs_fifo_priorities)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *a = rtc_new(r.sim), *eq = rtc_new(r.sim),
			  *hi = rtc_new(r.sim);
	rtc_run(a, 50);
	rtc_sleep(eq, 10);
	rtc_run(eq, 1);
	rtc_sleep(hi, 20);
	rtc_run(hi, 1);
	rtc_setsched(root, SL_SCHED_FIFO, 90, 0);
	rtc_fork(root, a, "a", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, eq, "eq", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, hi, "hi", SL_SCHED_FIFO, 11, 0, 0);
	if (!rtc_go(&r, root))
		return;
	CHECKF(rtc_ms(eq->at[2]) > 50, "equal priority ran before a ended: %.2f ms",
	       rtc_ms(eq->at[2]));
	CHECKF(rtc_ms(hi->at[2]) < 21.5, "higher priority done at %.2f ms", rtc_ms(hi->at[2]));
	sl_sim_destroy(r.sim);
}

/* A FIFO 90 root of the run r forks `fair` (SCHED_NORMAL) and then `spin`
 * (SCHED_FIFO 10), and the run goes to its end; the root's script (its
 * forks asked for at root->at[1] and at[2]) in *root_out if not NULL. */
static bool rtc_fair_beside_spinner(struct rtc_run *r, struct rtc_script *fair,
				    struct rtc_script *spin, struct rtc_script **root_out)
{
	struct rtc_script *root = rtc_new(r->sim);

	rtc_setsched(root, SL_SCHED_FIFO, 90, 0);
	rtc_fork(root, fair, "fair", SL_SCHED_NORMAL, 0, 0, 0);
	rtc_fork(root, spin, "spin", SL_SCHED_FIFO, 10, 0, 0);
	if (root_out)
		*root_out = root;
	return rtc_go(r, root);
}

/* One CPU: a FIFO task spins beside a fair hog for 3 s.  6.12's fair
 * server gives the fair task 50 ms a second; RT throttling (before 6.12)
 * holds RT off 50 ms a second; with neither the fair task gets nothing. */
static void rtc_spin(const char *policy, double lo_pct, double hi_pct)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", policy, 3 * SL_SEC))
		return;
	struct rtc_script *spin = rtc_new(r.sim), *fair = rtc_new(r.sim);
	rtc_run(spin, 10000);
	rtc_run(fair, 10000);
	if (!rtc_fair_beside_spinner(&r, fair, spin, NULL))
		return;
	struct sl_task *f = rtc_find(r.sim, "fair"), *s = rtc_find(r.sim, "spin");
	if (!f || !s) {
		CHECK(0);
		sl_sim_destroy(r.sim);
		return;
	}
	double fpct = 100.0 * (double)(f->user_ns + f->sys_ns) / (3.0 * SL_SEC);
	double spct = 100.0 * (double)(s->user_ns + s->sys_ns) / (3.0 * SL_SEC);
	CHECKF(fpct >= lo_pct && fpct <= hi_pct && spct >= 100 - hi_pct - 0.5,
	       "%s: fair %.2f %%, FIFO %.2f %%", policy, fpct, spct);
	sl_sim_destroy(r.sim);
}

SL_TEST(rt_cfs_spinning_fifo_gets_95pct)
{
	rtc_spin("cfs", 4.5, 5.7);
	rtc_spin("cfs:rt_bandwidth=throttle", 4.5, 5.7);
	rtc_spin("cfs:rt_bandwidth=throttle,rt_runtime_us=900000", 9.5, 10.7);
	rtc_spin("cfs:rt_bandwidth=off", 0, 0.01);
}

/*
 * Throttled RT tasks leave rq->nr_running (rt_bandwidth=throttle): a FIFO
 * spinner pinned to CPU 1 of two may run 400 ms a second; two fair hogs
 * share CPU 0.  In the 600 ms a second CPU 1's RT class is throttled the
 * CPU is idle to the balancer, which pulls a fair hog there, as
 * dequeue_top_rt_rq() lets the kernel's do.  Over 3 s the fair hogs get
 * their 3 s of CPU 0 and most of CPU 1's 1.8 throttled seconds (4.78 s
 * in all); 3.0 s while the throttled tasks still counted, CPU 1 then busy
 * to the balancer and idle in fact.
 */
static double rtc_fair_beside_throttled(void)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs:rt_bandwidth=throttle,rt_runtime_us=400000",
		    3 * SL_SEC))
		return -1;
	struct rtc_script *root = rtc_new(r.sim), *spin = rtc_new(r.sim);
	struct rtc_script *f0 = rtc_new(r.sim), *f1 = rtc_new(r.sim);
	rtc_run(spin, 10000);
	rtc_run(f0, 10000);
	rtc_run(f1, 10000);
	rtc_setsched(root, SL_SCHED_FIFO, 90, 0);
	rtc_fork(root, spin, "spin", SL_SCHED_FIFO, 10, 1, 1);
	rtc_fork(root, f0, "fair", SL_SCHED_NORMAL, 0, 0, 0);
	rtc_fork(root, f1, "fair", SL_SCHED_NORMAL, 0, 0, 0);
	if (!rtc_go(&r, root))
		return -1;
	double fair = 0;
	for (struct sl_task *t = sl_task_first(r.sim); t; t = sl_task_next(t))
		if (!strcmp(t->comm, "fair"))
			fair += sl_ns_to_s(t->user_ns + t->sys_ns);
	sl_sim_destroy(r.sim);
	return fair;
}

SL_TEST(rt_cfs_throttled_rt_leaves_nr_running)
{
	double fair = rtc_fair_beside_throttled();
	CHECKF(fair > 4.0, "the fair hogs got %.2f s of CPU in 3 s", fair);
}

/* The fair server's timers are hrtimers: a fair task starved by a FIFO
 * spinner on one CPU first runs at the server's zero-laxity time, its
 * period less its runtime after it was queued (1 s - 50 ms), to the
 * microsecond - not at the next tick after it. */
SL_TEST(rt_cfs_fair_server_starts_at_zero_laxity)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 3 * SL_SEC))
		return;
	struct rtc_script *spin = rtc_new(r.sim), *fair = rtc_new(r.sim);
	rtc_run(spin, 2000);
	rtc_run(fair, 1);
	struct rtc_script *root;
	if (!rtc_fair_beside_spinner(&r, fair, spin, &root))
		return;
	double queued_lo = rtc_ms(root->at[1]), queued_hi = rtc_ms(root->at[2]);
	double first = rtc_ms(fair->at[0]);
	CHECKF(first >= queued_lo + 950 && first <= queued_hi + 950 + 0.01,
	       "fair task queued at %.4f-%.4f ms, first ran at %.4f ms", queued_lo, queued_hi,
	       first);
	sl_sim_destroy(r.sim);
}

/*
 * Idle time comes off the fair server's runtime too, but using it up only
 * zeroes the runtime: the deadline stays, and no new period starts (6.12
 * dl_server_update_idle_time; a new period comes only when fair tasks use
 * the runtime up by running).  One CPU: a fair task is forked (the server
 * starts, its deadline a second later) and sleeps 301 ms; a FIFO spinner
 * wakes at 300 ms.  The CPU idled 300 ms, more than the 50 ms runtime, so
 * the server, started again when the fair task wakes, waits with runtime 0
 * for its old deadline, then is replenished and serves the fair task:
 * first run at about 1 s from the fork.  Until Dec 2026 idle time started
 * a new period as running did, and the fair task waited 950 ms from its
 * wakeup (an audit against 6.12).
 */
SL_TEST(rt_cfs_fair_server_idle_keeps_deadline)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 3 * SL_SEC))
		return;
	struct rtc_script *spin = rtc_new(r.sim), *fair = rtc_new(r.sim);
	rtc_sleep(fair, 301);
	rtc_run(fair, 1);
	rtc_sleep(spin, 300);
	rtc_run(spin, 2000);
	struct rtc_script *root;
	if (!rtc_fair_beside_spinner(&r, fair, spin, &root))
		return;
	double forked_lo = rtc_ms(root->at[1]), forked_hi = rtc_ms(root->at[2]);
	double first = rtc_ms(fair->at[1]);	/* its run asked for: after the sleep */
	CHECKF(first >= forked_lo + 1000 && first <= forked_hi + 1000 + 0.01,
	       "fair task forked at %.4f-%.4f ms, first ran after its sleep at %.4f ms",
	       forked_lo, forked_hi, first);
	sl_sim_destroy(r.sim);
}

/*
 * The zero-laxity timer finds the server's armed defer with runtime left,
 * which overflows (runtime / (deadline - now) = 1 > 5 %): 6.12's
 * replenish_dl_entity starts a new period from then, and the server
 * serves its 50 ms, is throttled a second from then and serves again
 * (dl_defer_running holds).  One CPU, a FIFO spinner and a fair task of
 * 1 ms runs queued at 0: the fair task runs 950-1000 ms (to the tick that
 * sees the runtime gone), then nothing until 1950 ms.  Until Dec 2026 the
 * model kept the old deadline and served the runtime left and then a
 * full one back to back, 950-1051 ms (an audit against 6.12).
 */
SL_TEST(rt_cfs_fair_server_serves_a_new_period_from_zero_laxity)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 3 * SL_SEC))
		return;
	struct rtc_script *spin = rtc_new(r.sim), *fair = rtc_new(r.sim);
	rtc_run(spin, 2500);
	for (int i = 0; i < 100; i++)
		rtc_run(fair, 1);
	if (!rtc_fair_beside_spinner(&r, fair, spin, NULL))
		return;
	/* at[k]: when the fair task's k-th 1 ms run ended */
	double first = rtc_ms(fair->at[1]);
	int k = 1;
	while (k < 100 && fair->at[k + 1] - fair->at[k] < 2 * SL_MSEC)
		k++;
	CHECKF(first > 950 && first < 952, "first run ended at %.3f ms", first);
	CHECKF(k >= 50 && k <= 55 && rtc_ms(fair->at[k]) < 1005,
	       "the first service ran %d ms, to %.3f ms", k, rtc_ms(fair->at[k]));
	CHECKF(rtc_ms(fair->at[k + 1]) > 1950 && rtc_ms(fair->at[k + 1]) < 1952,
	       "the next run ended at %.3f ms", rtc_ms(fair->at[k + 1]));
	sl_sim_destroy(r.sim);
}

/*
 * A restart of the server (a fair task queued again) checks the CBS
 * overflow (6.12 update_dl_entity -> dl_entity_overflow): runtime left
 * over time left to the deadline above 5 % starts a new period.  One CPU:
 * a fair task forked at 0 (the server starts, its deadline at 1 s) sleeps
 * 500 ms while a FIFO spinner, from 1 ms, takes the CPU; at its wakeup 50
 * ms over the 500 ms left is 10 %: a new period, deadline 1.5 s, and the
 * fair task runs at its zero-laxity time, 1450 ms.  Until Dec 2026 only a
 * passed deadline started one, and it ran at 950 ms.
 */
SL_TEST(rt_cfs_fair_server_restart_checks_the_overflow)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 3 * SL_SEC))
		return;
	struct rtc_script *spin = rtc_new(r.sim), *fair = rtc_new(r.sim);
	rtc_sleep(fair, 500);
	rtc_run(fair, 1);
	rtc_sleep(spin, 1);	/* the fair task first goes to sleep */
	rtc_run(spin, 2000);
	if (!rtc_fair_beside_spinner(&r, fair, spin, NULL))
		return;
	/* at[1]: its first run after the sleep, which ended at 500 ms */
	double ran = rtc_ms(fair->at[1]);
	CHECKF(ran >= 1450 && ran < 1451, "first ran at %.3f ms after its 500 ms sleep", ran);
	sl_sim_destroy(r.sim);
}

/*
 * A server that stops while serving keeps dl_defer_running (6.12
 * dl_server_stop clears only the armed defer and the throttle): a fair
 * task that sleeps and wakes inside its service is served at once, and
 * dl_server_start's resched_curr preempts the RT task then, not at the
 * next tick.  One CPU at HZ 250: served from 950 ms, the fair task runs
 * 20 ms, sleeps 5 ms and runs again as its sleep ends.
 */
SL_TEST(rt_cfs_fair_server_restarted_while_serving_preempts_at_once)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs:hz=250", 3 * SL_SEC))
		return;
	struct rtc_script *spin = rtc_new(r.sim), *fair = rtc_new(r.sim);
	rtc_run(fair, 20);
	rtc_sleep(fair, 5);
	rtc_run(fair, 1);
	rtc_run(spin, 1900);
	if (!rtc_fair_beside_spinner(&r, fair, spin, NULL))
		return;
	/* at[1]: its sleep began (its 20 ms ended); at[2]: it ran again */
	double slept = rtc_ms(fair->at[1]), ran = rtc_ms(fair->at[2]);
	CHECKF(slept > 969 && ran - slept < 5.01, "slept at %.3f ms, ran again at %.3f ms", slept,
	       ran);
	sl_sim_destroy(r.sim);
}

/* A FIFO task alone: the fair server leaves it the whole CPU; RT
 * throttling idles the CPU 5 % of the time, unless the runtime is the
 * whole period. */
SL_TEST(rt_cfs_spinning_fifo_alone)
{
	static const char *const policy[] = { "cfs", "cfs:rt_bandwidth=throttle",
					      "cfs:rt_bandwidth=throttle,rt_runtime_us=1000000" };
	static const double want[] = { 1000, 1050, 1000 };

	for (int i = 0; i < 3; i++) {
		struct rtc_run r;
		if (!rtc_ok(&r, "pack:1 core:1 pu:1", policy[i], 0))
			return;
		struct rtc_script *root = rtc_new(r.sim), *spin = rtc_new(r.sim);
		rtc_run(spin, 1000);
		rtc_fork(root, spin, "spin", SL_SCHED_FIFO, 10, 0, 0);
		if (!rtc_go(&r, root))
			return;
		double end = rtc_ms(spin->at[1]);
		CHECKF(end > want[i] - 3 && end < want[i] + 6, "%s: 1 s of work took %.2f ms",
		       policy[i], end);
		sl_sim_destroy(r.sim);
	}
}

/* Two CPUs, a fair hog pinned to CPU 1.  Two FIFO tasks sleep on CPU 0
 * and wake together: the second goes to CPU 1, the CPU running the
 * lowest priority (a fair task), at once. */
SL_TEST(rt_cfs_woken_rt_spreads)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *hog = rtc_new(r.sim), *a = rtc_new(r.sim),
			  *b = rtc_new(r.sim);
	rtc_run(hog, 40);
	rtc_sleep(a, 2);
	rtc_run(a, 10);
	rtc_sleep(b, 2);
	rtc_run(b, 10);
	rtc_fork(root, hog, "hog", SL_SCHED_NORMAL, 0, 1, 1);
	rtc_fork(root, a, "a", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, b, "b", SL_SCHED_FIFO, 10, 0, 0);
	if (!rtc_go(&r, root))
		return;
	CHECKF(a->cpu[0] == 0 && b->cpu[0] == 0, "forked on %d and %d", a->cpu[0], b->cpu[0]);
	CHECKF(a->cpu[2] != b->cpu[2], "both ran on CPU %d", a->cpu[2]);
	CHECKF(a->at[2] - a->at[1] < 10 * SL_MSEC + 200 * SL_USEC &&
	       b->at[2] - b->at[1] < 10 * SL_MSEC + 200 * SL_USEC,
	       "10 ms of work took %.2f and %.2f ms", rtc_ms(a->at[2] - a->at[1]),
	       rtc_ms(b->at[2] - b->at[1]));
	sl_sim_destroy(r.sim);
}

/* Two packages of two CPUs.  H (FIFO 50) runs on CPU 2; a fair hog on
 * CPU 3; CPUs 0 and 1 idle.  B (FIFO 10), last on CPU 2, wakes there: it
 * goes to CPU 3, in CPU 2's cache domain, preempting the fair task,
 * rather than to an idle CPU of the other package - cpupri has idle and
 * fair CPUs in one class, and find_lowest_rq walks the task's CPU's
 * domains (6.12), where a fair wakeup would take an idle CPU. */
SL_TEST(rt_cfs_lowest_cpu_in_domain)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:2 core:2 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *h = rtc_new(r.sim), *hog = rtc_new(r.sim),
			  *b = rtc_new(r.sim);
	rtc_sleep(h, 1);
	rtc_run(h, 20);
	rtc_run(hog, 30);
	rtc_run(b, 0.1);
	rtc_affinity_all(b, 4);
	rtc_sleep(b, 3);
	rtc_run(b, 5);
	rtc_fork(root, h, "h", SL_SCHED_FIFO, 50, 2, 1);
	rtc_fork(root, hog, "hog", SL_SCHED_NORMAL, 0, 3, 1);
	rtc_fork(root, b, "b", SL_SCHED_FIFO, 10, 2, 1);
	if (!rtc_go(&r, root))
		return;
	CHECKF(b->cpu[2] == 2, "slept on CPU %d", b->cpu[2]);
	CHECKF(b->cpu[4] == 3, "woke to run on CPU %d, not 3", b->cpu[4]);
	CHECKF(b->at[4] - b->at[3] < 5 * SL_MSEC + 200 * SL_USEC, "5 ms took %.2f ms",
	       rtc_ms(b->at[4] - b->at[3]));
	sl_sim_destroy(r.sim);
}

/* Two CPUs: a fair hog pinned to CPU 0, a fair task W pinned to CPU 1.
 * Two FIFO tasks wait on a barrier on CPU 0; W arrives last and wakes
 * both from CPU 1 at once.  Both stay on CPU 0 (a fair task runs there
 * when they are woken: select_task_rq_rt keeps them); CPU 0 picks one
 * and pushes the other to CPU 1 (push_rt_tasks), where it preempts W. */
SL_TEST(rt_cfs_push_queued_rt)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs", 0))
		return;
	struct sl_barrier *bar = sl_barrier_new(r.sim, 3);
	struct rtc_script *root = rtc_new(r.sim), *hog = rtc_new(r.sim), *w = rtc_new(r.sim),
			  *a = rtc_new(r.sim), *b = rtc_new(r.sim);
	struct sl_action wait = { .kind = SL_ACT_BARRIER, .u.barrier = bar };
	rtc_run(hog, 50);
	rtc_run(w, 1);
	rtc_add(w, wait);
	rtc_run(w, 30);
	rtc_add(a, wait);
	rtc_run(a, 10);
	rtc_add(b, wait);
	rtc_run(b, 10);
	rtc_fork(root, a, "a", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, b, "b", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, hog, "hog", SL_SCHED_NORMAL, 0, 0, 1);
	rtc_fork(root, w, "w", SL_SCHED_NORMAL, 0, 1, 1);
	if (!rtc_go(&r, root))
		return;
	CHECKF(a->cpu[0] == 0 && b->cpu[0] == 0, "waited on CPU %d and %d", a->cpu[0], b->cpu[0]);
	CHECKF(a->cpu[2] != b->cpu[2], "both ran on CPU %d", a->cpu[2]);
	CHECKF(a->at[2] - a->at[1] < 10 * SL_MSEC + 200 * SL_USEC &&
	       b->at[2] - b->at[1] < 10 * SL_MSEC + 200 * SL_USEC,
	       "10 ms of work took %.2f and %.2f ms", rtc_ms(a->at[2] - a->at[1]),
	       rtc_ms(b->at[2] - b->at[1]));
	sl_sim_destroy(r.sim);
}

/*
 * Among RT tasks of one priority, push and pull take the one that became
 * pushable first: 6.12's rq->rt.pushable_tasks is a plist by priority,
 * and a task is added behind its equals when it is enqueued and when it
 * is put back after running (put_prev_task_rt), so the task a higher one
 * preempts, still first on its run list, comes last there.  Two CPUs: A
 * and B (FIFO 10, 100 and 50 ms) queue on CPU 0 while D (FIFO 20, pinned,
 * 20 ms) holds CPU 1; A runs, C (FIFO 30, pinned to CPU 0) preempts it at
 * 10 ms, and at 20 ms CPU 1 pulls B, which ends at about 70 ms there,
 * before A.  Until Dec 2026 the model took the head of the run list, A,
 * and B ran only after C (an audit against 6.12).
 */
SL_TEST(rt_cfs_pull_takes_the_longest_pushable_of_equals)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs", 2 * SL_SEC))
		return;
	struct rtc_script *root = rtc_new(r.sim), *a = rtc_new(r.sim), *b = rtc_new(r.sim);
	struct rtc_script *c = rtc_new(r.sim), *d = rtc_new(r.sim);
	rtc_run(d, 20);
	rtc_run(a, 100);
	rtc_run(b, 50);
	rtc_sleep(c, 10);
	rtc_run(c, 40);
	rtc_setsched(root, SL_SCHED_FIFO, 99, 0);
	rtc_fork(root, d, "d", SL_SCHED_FIFO, 20, 1, 1);
	rtc_fork(root, a, "a", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, b, "b", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, c, "c", SL_SCHED_FIFO, 30, 0, 1);
	for (int i = 0; i < 4; i++)
		rtc_add(root, sl_act_wait());
	if (!rtc_go(&r, root))
		return;
	double a_end = rtc_ms(a->at[1]), b_end = rtc_ms(b->at[1]);
	CHECKF(b_end > 69 && b_end < 72 && b->cpu[1] == 1 && a_end > 139,
	       "B ended at %.3f ms on CPU %d, A at %.3f ms", b_end, b->cpu[1], a_end);
	sl_sim_destroy(r.sim);
}

/*
 * After the stopper ran on a CPU, 6.12's schedule() has it as prev, at
 * prio 0, and prev_balance's balance_rt pulls RT tasks (need_pull_rt_task).
 * Three CPUs: B (FIFO 10) runs on CPU 1, sleeps 10 ms and waits there
 * behind C (FIFO 60, pinned); A (FIFO 50, pinned to CPU 0) runs 20 ms and
 * then moves itself to CPU 2, where E (FIFO 70) runs: CPU 0, left with
 * nothing, pulls B at once, which runs its 30 ms there.  Until Dec 2026
 * nothing pulled after such a move, and B waited for C to end at 55 ms
 * (an audit against 6.12).
 */
SL_TEST(rt_cfs_cpu_pulls_after_its_rt_task_moves_away)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:3 pu:1", "cfs", 2 * SL_SEC))
		return;
	struct rtc_script *root = rtc_new(r.sim), *a = rtc_new(r.sim), *b = rtc_new(r.sim);
	struct rtc_script *c = rtc_new(r.sim), *e = rtc_new(r.sim);
	rtc_run(b, 1);
	rtc_sleep(b, 10);
	rtc_run(b, 30);
	rtc_sleep(c, 5);
	rtc_run(c, 50);
	rtc_sleep(e, 5);
	rtc_run(e, 50);
	rtc_run(a, 20);
	rtc_affinity(a, 2);
	rtc_run(a, 10);
	rtc_setsched(root, SL_SCHED_FIFO, 99, 0);
	rtc_fork(root, b, "b", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, c, "c", SL_SCHED_FIFO, 60, 1, 1);
	rtc_fork(root, e, "e", SL_SCHED_FIFO, 70, 2, 1);
	rtc_fork(root, a, "a", SL_SCHED_FIFO, 50, 0, 1);
	for (int i = 0; i < 4; i++)
		rtc_add(root, sl_act_wait());
	if (!rtc_go(&r, root))
		return;
	double moved = rtc_ms(a->at[1]), b_end = rtc_ms(b->at[3]);
	CHECKF(b->cpu[3] == 0 && b_end > moved + 30 && b_end < moved + 30.5,
	       "A moved at %.3f ms; B ended at %.3f ms on CPU %d", moved, b_end, b->cpu[3]);
	sl_sim_destroy(r.sim);
}

/* Two CPUs: C (FIFO 50, pinned to CPU 1) runs 20 ms, then lowers itself
 * to FIFO 5 and runs 30 ms more; A and B (FIFO 10) wake on CPU 0 at 2 ms,
 * where one must wait (CPU 1 runs higher).  When C lowers itself, CPU 1's
 * priority drops and it pulls the waiting one at once (prio_changed_rt ->
 * pull_rt_task), which preempts C there. */
SL_TEST(rt_cfs_pull_when_priority_drops)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *c = rtc_new(r.sim), *a = rtc_new(r.sim),
			  *b = rtc_new(r.sim);
	rtc_run(c, 20);
	rtc_setsched(c, SL_SCHED_FIFO, 5, 0);
	rtc_run(c, 30);
	rtc_sleep(a, 2);
	rtc_run(a, 30);
	rtc_sleep(b, 2);
	rtc_run(b, 30);
	rtc_fork(root, c, "c", SL_SCHED_FIFO, 50, 1, 1);
	rtc_fork(root, a, "a", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, b, "b", SL_SCHED_FIFO, 10, 0, 0);
	if (!rtc_go(&r, root))
		return;
	/* whichever of A and B waited ends ~30 ms after C lowered itself,
	 * not after the other's 30 ms; C's last 30 ms wait for it */
	double cend = rtc_ms(c->at[1]);
	double late = rtc_ms(a->at[2] > b->at[2] ? a->at[2] : b->at[2]);
	CHECKF(cend > 19 && cend < 22, "C lowered itself at %.2f ms", cend);
	CHECKF(late < cend + 31, "the waiting task ended at %.2f ms (C lowered at %.2f)", late,
	       cend);
	CHECKF(a->cpu[2] != b->cpu[2], "both ended on CPU %d", a->cpu[2]);
	CHECKF(rtc_ms(c->at[3]) > late + 29, "C ended at %.2f ms", rtc_ms(c->at[3]));
	sl_sim_destroy(r.sim);
}

/* One CPU, a fair hog; a task wakes at 20 ms: NORMAL takes the CPU at
 * once (EEVDF picks it), BATCH waits for the hog's slice to end at a tick. */
static sl_time rtc_wake_wait(int policy)
{
	struct rtc_run r;
	sl_time wait = -1;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 0))
		return -1;
	struct rtc_script *root = rtc_new(r.sim), *hog = rtc_new(r.sim), *w = rtc_new(r.sim);
	rtc_run(hog, 60);
	rtc_sleep(w, 20.1);
	rtc_run(w, 0.01);
	rtc_fork(root, hog, "hog", SL_SCHED_NORMAL, 0, 0, 0);
	rtc_fork(root, w, "w", policy, 0, 0, 0);
	if (!rtc_go(&r, root))
		return -1;
	wait = w->at[1] - (w->at[0] + (sl_time)(20.1 * SL_MSEC));
	sl_sim_destroy(r.sim);
	return wait;
}

SL_TEST(rt_cfs_batch_no_wakeup_preemption)
{
	sl_time normal = rtc_wake_wait(SL_SCHED_NORMAL), batch = rtc_wake_wait(SL_SCHED_BATCH);

	CHECKF(normal >= 0 && normal < 50 * SL_USEC, "NORMAL waited %.3f ms", rtc_ms(normal));
	CHECKF(batch > 1 * SL_MSEC, "BATCH waited %.3f ms", rtc_ms(batch));
}

/* 6.12 select_task_rq_fair() calls record_wakee() on current whatever its
 * class: a FIFO task that wakes a fair one counts the wakee in its flips
 * (wake_wide reads them).  Two CPUs (with one, select_task_rq is not
 * asked): w blocks reading a channel, rt runs 1 ms and writes to it; the
 * run stops before rt's exit wakes its parent.  Until Dec 2026 only a fair
 * waker recorded. */
SL_TEST(rt_cfs_rt_waker_records_its_wakee)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs", 1500 * SL_USEC))
		return;
	struct sl_chan *ch = sl_chan_new(r.sim, 64, false);
	struct rtc_script *root = rtc_new(r.sim), *rt = rtc_new(r.sim), *w = rtc_new(r.sim);
	rtc_add(w, (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = ch, .bytes = 1 } });
	rtc_run(rt, 1);
	rtc_add(rt, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = ch, .bytes = 1 } });
	rtc_run(rt, 1);
	rtc_fork(root, w, "w", SL_SCHED_NORMAL, 0, 0, 0);
	rtc_fork(root, rt, "rt", SL_SCHED_FIFO, 10, 0, 0);
	if (!rtc_go(&r, root))
		return;
	const struct sl_task *waker = rtc_find(r.sim, "rt"), *wakee = rtc_find(r.sim, "w");
	CHECKF(waker && wakee && cfs_se(waker)->last_wakee == wakee &&
	       cfs_se(waker)->wakee_flips == 1, "rt's last wakee %s, flips %u",
	       waker && cfs_se(waker)->last_wakee ? cfs_se(waker)->last_wakee->comm : "none",
	       waker ? cfs_se(waker)->wakee_flips : 0u);
	sl_sim_destroy(r.sim);
}

/* One CPU, 10 s: a SCHED_IDLE hog beside a nice-0 hog gets 3 / 1027. */
SL_TEST(rt_cfs_idle_weight)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 10 * SL_SEC))
		return;
	struct rtc_script *root = rtc_new(r.sim), *n = rtc_new(r.sim), *i = rtc_new(r.sim);
	rtc_run(n, 20000);
	rtc_run(i, 20000);
	rtc_fork(root, n, "normal", SL_SCHED_NORMAL, 0, 0, 0);
	rtc_fork(root, i, "idle", SL_SCHED_IDLE, 0, 0, 0);
	if (!rtc_go(&r, root))
		return;
	struct sl_task *t = rtc_find(r.sim, "idle");
	double pct = t ? 100.0 * (double)(t->user_ns + t->sys_ns) / (10.0 * SL_SEC) : -1;
	/* 3 / 1027 = 0.29 %; it runs a tick at a time */
	CHECKF(pct > 0.15 && pct < 0.5, "SCHED_IDLE got %.3f %%", pct);
	sl_sim_destroy(r.sim);
}

/* Two CPUs: a task runs 5 ms on CPU 0, then sets its mask to CPU 1 and
 * runs 5 ms more: the stopper moves it (fair and FIFO alike). */
static void rtc_mask_move(int policy, int prio)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *t = rtc_new(r.sim), *other = rtc_new(r.sim);
	rtc_run(t, 5);
	rtc_affinity(t, 1);
	rtc_run(t, 5);
	rtc_run(other, 1);
	rtc_fork(root, t, "t", policy, prio, 0, 1);
	rtc_fork(root, other, "o", SL_SCHED_NORMAL, 0, 1, 1);
	if (!rtc_go(&r, root))
		return;
	CHECKF(t->cpu[0] == 0 && t->cpu[1] == 0, "started on %d, %d", t->cpu[0], t->cpu[1]);
	CHECKF(t->cpu[3] == 1, "ended on CPU %d", t->cpu[3]);
	CHECKF(t->at[3] - t->at[2] < 5 * SL_MSEC + 200 * SL_USEC, "the last 5 ms took %.2f ms",
	       rtc_ms(t->at[3] - t->at[2]));
	struct sl_task *task = rtc_find(r.sim, "t");
	(void)task;
	sl_sim_destroy(r.sim);
}

SL_TEST(rt_cfs_mask_change_moves_running)
{
	rtc_mask_move(SL_SCHED_NORMAL, 0);
	rtc_mask_move(SL_SCHED_FIFO, 10);
}

/* One CPU: two nice-0 hogs; one renices itself to 5 at once: 335 / 1359
 * of the CPU (24.7 %), not half. */
SL_TEST(rt_cfs_nice_change_reweights)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 2 * SL_SEC))
		return;
	struct rtc_script *root = rtc_new(r.sim), *a = rtc_new(r.sim), *b = rtc_new(r.sim);
	rtc_run(a, 1);
	rtc_setsched(a, SL_SCHED_NORMAL, 0, 5);
	rtc_run(a, 10000);
	rtc_run(b, 10000);
	rtc_fork(root, a, "a", SL_SCHED_NORMAL, 0, 0, 0);
	rtc_fork(root, b, "b", SL_SCHED_NORMAL, 0, 0, 0);
	if (!rtc_go(&r, root))
		return;
	struct sl_task *ta = rtc_find(r.sim, "a"), *tb = rtc_find(r.sim, "b");
	if (ta && tb) {
		double sa = (double)(ta->user_ns + ta->sys_ns), sb = (double)(tb->user_ns + tb->sys_ns);
		double pct = 100.0 * sa / (sa + sb);
		CHECKF(pct > 23.5 && pct < 26, "reniced to 5: %.2f %%", pct);
		CHECK(cfs_se(ta)->weight == 335);
	} else {
		CHECK(0);
	}
	sl_sim_destroy(r.sim);
}

/* reweight_entity() moves the CPU's load at once (6.12: dequeue_load_avg,
 * the entity's load_avg at its new weight, enqueue_load_avg): one CPU, a
 * hog of 200 ms (load_avg about 1,000) renices itself to 19 (weight 15);
 * half a millisecond later its CPU's load_avg is its own, about 15, where
 * PELT's decay alone would have left about 990 (the model until Dec 2026,
 * found by an audit against 6.12). */
SL_TEST(rt_cfs_nice_change_moves_the_cpu_load_at_once)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 200 * SL_MSEC + 500 * SL_USEC))
		return;
	struct rtc_script *root = rtc_new(r.sim), *a = rtc_new(r.sim);
	rtc_run(a, 200);
	rtc_setsched(a, SL_SCHED_NORMAL, 0, 19);
	rtc_run(a, 10);
	rtc_fork(root, a, "a", SL_SCHED_NORMAL, 0, 0, 0);
	if (!rtc_go(&r, root))
		return;
	struct sl_task *ta = rtc_find(r.sim, "a");
	const struct cfs *s = sl_policy_data(r.sim);
	CHECK(ta != NULL);
	if (ta) {
		const struct cfs_entity *se = cfs_se(ta);
		long cpu_load = cfs_cpu_load(&s->rq[se->cpu]);
		CHECKF(se->weight == 15 && se->avg.load_avg <= 16 && cpu_load <= 20,
		       "weight %ld: its load_avg %llu, its CPU's %ld", se->weight,
		       (unsigned long long)se->avg.load_avg, cpu_load);
	}
	sl_sim_destroy(r.sim);
}

/* A FIFO task that switches itself back to fair shares the CPU again;
 * one that becomes RT takes it. */
SL_TEST(rt_cfs_class_changes)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:1 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *a = rtc_new(r.sim), *b = rtc_new(r.sim);
	rtc_run(a, 10);
	rtc_setsched(a, SL_SCHED_NORMAL, 0, 0);
	rtc_run(a, 20);
	rtc_run(b, 10);
	rtc_setsched(b, SL_SCHED_RR, 5, 0);
	rtc_run(b, 10);
	rtc_setsched(root, SL_SCHED_FIFO, 90, 0);
	rtc_fork(root, a, "a", SL_SCHED_FIFO, 10, 0, 0);
	rtc_fork(root, b, "b", SL_SCHED_NORMAL, 0, 0, 0);
	if (!rtc_go(&r, root))
		return;
	/* a: RT 0-10 ms; then fair beside b, half the CPU each, until b has
	 * had its 10 ms (~30 ms); b, now RR, runs its last 10 ms alone */
	CHECKF(rtc_ms(a->at[1]) < 10.5, "a's RT part ended at %.2f", rtc_ms(a->at[1]));
	CHECKF(rtc_ms(b->at[1]) > 28 && rtc_ms(b->at[1]) < 35, "b's fair part ended at %.2f",
	       rtc_ms(b->at[1]));
	CHECKF(rtc_ms(a->at[3]) > 48, "a ended at %.2f", rtc_ms(a->at[3]));
	CHECKF(b->at[3] - b->at[2] < 10 * SL_MSEC + 100 * SL_USEC, "b's RT part took %.2f ms",
	       rtc_ms(b->at[3] - b->at[2]));
	sl_sim_destroy(r.sim);
}

/* One package of two cores of two siblings.  R (FIFO 10) runs on CPU 0
 * and a fair task F beside it on CPU 1, its sibling; core 1 (CPUs 2, 3) is
 * idle.  6.12's group statistics count every class (sum_nr_running): core
 * 0 holds two tasks to core 1's none, sibling_imbalance() says 2, and the
 * idle core's balancer, unable to pull a CPU's only task, ends with the
 * migration thread pushing F to core 1.  Counting only fair tasks it saw
 * one task against none and left F sharing R's core to the end. */
SL_TEST(rt_cfs_rt_task_counts_in_group_statistics)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:2", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *rt = rtc_new(r.sim), *f = rtc_new(r.sim);
	rtc_run(rt, 300);
	rtc_affinity_all(f, 4);
	rtc_run(f, 100);
	rtc_fork(root, rt, "r", SL_SCHED_FIFO, 10, 0, 1);
	rtc_fork(root, f, "f", SL_SCHED_NORMAL, 0, 1, 1);
	if (!rtc_go(&r, root))
		return;
	CHECKF(f->cpu[1] == 1, "F began its work on CPU %d, not 1", f->cpu[1]);
	CHECKF(f->cpu[2] == 2 || f->cpu[2] == 3, "F ended on CPU %d, not on core 1", f->cpu[2]);
	sl_sim_destroy(r.sim);
}

/* Fork, from root, an RT task (FIFO 10) pinned to CPU 0 that runs on_ms
 * and sleeps off_ms, n times (n <= RTC_ACTS / 2). */
static void rtc_fork_rt_duty(struct rtc_run *r, struct rtc_script *root, double on_ms,
			     double off_ms, int n)
{
	struct rtc_script *rt = rtc_new(r->sim);

	for (int i = 0; i < n; i++) {
		rtc_run(rt, on_ms);
		rtc_sleep(rt, off_ms);
	}
	rtc_fork(root, rt, "r", SL_SCHED_FIFO, 10, 0, 1);
}

/* The CPU time task `comm` got. */
static sl_time rtc_cpu_time(struct sl_sim *sim, const char *comm)
{
	const struct sl_task *t = rtc_find(sim, comm);
	return t ? t->user_ns + t->sys_ns : -1;
}

/* An RT hog on CPU 0 of two: its average (avg_rt) climbs to nearly a full
 * CPU, and CPU 0's own balancing (update_cpu_capacity) leaves the fair
 * class what is left: capacity_of(0) = 1024 - avg_rt.util_avg, the lowest
 * level's group the same, the package's the sum with CPU 1's 1024. */
SL_TEST(rt_cfs_rt_load_lowers_capacity_of)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs:nohz=off", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *rt = rtc_new(r.sim);
	rtc_run(rt, 300);
	rtc_fork(root, rt, "r", SL_SCHED_FIFO, 10, 0, 1);
	if (!rtc_go(&r, root))
		return;
	const struct cfs *s = cfs_state(r.sim);
	const struct cfs_rq *rq0 = &s->rq[0];
	long util = (long)rq0->rt.avg.util_avg;
	CHECKF(util > 950, "avg_rt %ld after 300 ms of RT", util);
	/* the last update came at a balance in the hog's last ms: within
	 * what 1 ms more of RT adds */
	CHECKF(rq0->capacity_orig == 1024 && rq0->capacity < 1024 - util + 40 &&
	       rq0->capacity >= 1024 - util, "capacity_of(0) %ld with avg_rt %ld", rq0->capacity,
	       util);
	CHECK(rq0->nsd == 1 && rq0->sd[0].span->groups[rq0->sd[0].local].capacity == rq0->capacity);
	CHECKF(s->rq[1].capacity == 1024, "capacity_of(1) %ld", s->rq[1].capacity);
	sl_sim_destroy(r.sim);
}

/* Two CPUs, four fair hogs, and an RT task on CPU 0 that runs half the
 * time (4 ms on, 4 off).  Counted by weight alone the hogs split two and
 * two, and CPU 0's pair gets a quarter of a CPU each; weighed against
 * capacity_of, CPU 0 (half a CPU left) looks twice as loaded, and CPU 1
 * takes a third hog.  The balancer moves them on from there, and the four
 * share the 1.5 CPUs nearly evenly. */
SL_TEST(rt_cfs_balancer_weighs_load_against_rt_reduced_capacity)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs", 600 * SL_MSEC))
		return;
	struct rtc_script *root = rtc_new(r.sim), *hog[4];
	rtc_fork_rt_duty(&r, root, 4, 4, 60);
	static const char *const names[] = { "h0", "h1", "h2", "h3" };
	for (int i = 0; i < 4; i++) {
		hog[i] = rtc_new(r.sim);
		rtc_run(hog[i], 2000);
		rtc_fork(root, hog[i], names[i], SL_SCHED_NORMAL, 0, 0, 0);
	}
	if (!rtc_go(&r, root))
		return;
	sl_time lo = SL_TIME_MAX, hi = 0;
	for (int i = 0; i < 4; i++) {
		sl_time u = rtc_cpu_time(r.sim, names[i]);
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	/* (weights alone: 180 .. 300 ms) */
	CHECKF(lo > 205 * SL_MSEC && hi < 275 * SL_MSEC, "hogs' CPU time %.1f .. %.1f ms of 600",
	       rtc_ms(lo), rtc_ms(hi));
	sl_sim_destroy(r.sim);
}

/* Two CPUs.  CPU 0: fair hog A beside an RT task that runs 3.6 ms of
 * every 3.9; CPU 1: fair hogs B and C.  Weighed against its capacity,
 * CPU 0 is the busiest, but its one fair task is heavier than the
 * imbalance: find_busiest_queue passes over such a queue unless RT has
 * shrunk its CPU (check_cpu_capacity); with the rule CPU 1 takes A, queued
 * while RT runs, once it has failed enough (and CPU 0, idle between RT's
 * runs, takes a hog back): A ran 32.4 ms of 240, 23.5 without the rule,
 * stuck behind RT. */
SL_TEST(rt_cfs_lone_task_leaves_a_cpu_rt_shrank)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs", 240 * SL_MSEC))
		return;
	struct rtc_script *root = rtc_new(r.sim), *hog[3];
	rtc_fork_rt_duty(&r, root, 3.6, 0.3, 60);
	static const char *const names[] = { "A", "B", "C" };
	for (int i = 0; i < 3; i++) {
		hog[i] = rtc_new(r.sim);
		rtc_affinity_all(hog[i], 2);
		rtc_run(hog[i], 1000);
		rtc_fork(root, hog[i], names[i], SL_SCHED_NORMAL, 0, i ? 1 : 0, 1);
	}
	if (!rtc_go(&r, root))
		return;
	sl_time u = rtc_cpu_time(r.sim, "A");
	CHECKF(u > 28 * SL_MSEC, "A ran %.1f ms of 240", rtc_ms(u));
	sl_sim_destroy(r.sim);
}

/* find_lowest_rq spreads: among equally low CPUs it takes, with
 * cpumask_any_and_distribute, the first after the one the CPU running it
 * chose last.  A FIFO 90 root on CPU 0 forks three FIFO 10 children, one
 * at a time, each done (1 ms) before the next: each finds CPUs 1-3 idle
 * and goes to the next of them (the first of the mask every time would
 * be CPU 1 thrice). */
SL_TEST(rt_cfs_lowest_cpu_choice_is_distributed)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:4 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *kid[3];
	rtc_setsched(root, SL_SCHED_FIFO, 90, 0);
	for (int i = 0; i < 3; i++) {
		kid[i] = rtc_new(r.sim);
		rtc_run(kid[i], 1);
		rtc_fork(root, kid[i], "k", SL_SCHED_FIFO, 10, 0, 0);
		rtc_sleep(root, 3);
	}
	if (!rtc_go(&r, root))
		return;
	for (int i = 0; i < 3; i++)
		CHECKF(kid[i]->cpu[0] == i + 1, "child %d ran on CPU %d, not %d", i, kid[i]->cpu[0],
		       i + 1);
	sl_sim_destroy(r.sim);
}

/* check_preempt_equal_prio: a FIFO 10 task that may run anywhere runs on
 * CPU 0 while a fair task runs on CPU 1; that one forks a FIFO 10 task
 * pinned to CPU 0.  Equal priorities do not preempt, but the new one can
 * run nowhere else and the running one can: the new one goes to the head
 * of the list and runs at once, and the other is pushed to CPU 1 (without
 * the rule the new one waits for the other's 20 ms). */
SL_TEST(rt_cfs_equal_priority_pinned_wakeup_displaces_a_movable_one)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:2 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *mover = rtc_new(r.sim), *pin = rtc_new(r.sim),
			  *forker = rtc_new(r.sim);
	rtc_run(forker, 2);
	rtc_fork(forker, pin, "pin", SL_SCHED_FIFO, 10, 0, 1);
	rtc_affinity_all(mover, 2);
	rtc_run(mover, 20);
	rtc_run(pin, 5);
	rtc_fork(root, forker, "forker", SL_SCHED_NORMAL, 0, 1, 1);
	rtc_fork(root, mover, "mover", SL_SCHED_FIFO, 10, 0, 1);
	if (!rtc_go(&r, root))
		return;
	CHECKF(mover->cpu[1] == 0, "mover began its run on CPU %d", mover->cpu[1]);
	CHECKF(pin->at[0] < 3 * SL_MSEC && pin->cpu[0] == 0, "pin began at %.3f ms on CPU %d",
	       rtc_ms(pin->at[0]), pin->cpu[0]);
	CHECKF(mover->cpu[2] == 1, "mover ended on CPU %d", mover->cpu[2]);
	sl_sim_destroy(r.sim);
}

/* The same rule when the migration thread moves a task (move_queued_task
 * calls wakeup_preempt as a wakeup does): on three CPUs a FIFO 10 task P
 * runs on CPU 0, a movable FIFO 10 task on CPU 1 and a fair hog on CPU 2;
 * P pins itself to CPU 1 after 1 ms.  Moved there, it can run nowhere
 * else and the running one can: it runs at once and the other is pushed
 * (without the rule P waited for the other's 20 ms). */
SL_TEST(rt_cfs_equal_priority_pinned_move_displaces_a_movable_one)
{
	struct rtc_run r;

	if (!rtc_ok(&r, "pack:1 core:3 pu:1", "cfs", 0))
		return;
	struct rtc_script *root = rtc_new(r.sim), *hog = rtc_new(r.sim), *mover = rtc_new(r.sim),
			  *pin = rtc_new(r.sim);
	rtc_run(hog, 40);
	rtc_affinity_all(mover, 3);
	rtc_run(mover, 20);
	rtc_run(pin, 1);
	rtc_affinity(pin, 1);
	rtc_run(pin, 5);
	rtc_fork(root, hog, "hog", SL_SCHED_NORMAL, 0, 2, 1);
	rtc_fork(root, mover, "mover", SL_SCHED_FIFO, 10, 1, 1);
	rtc_fork(root, pin, "pin", SL_SCHED_FIFO, 10, 0, 1);
	if (!rtc_go(&r, root))
		return;
	CHECKF(mover->cpu[1] == 1, "mover began its run on CPU %d", mover->cpu[1]);
	CHECKF(pin->at[2] < 2 * SL_MSEC && pin->cpu[2] == 1, "pin went on at %.3f ms on CPU %d",
	       rtc_ms(pin->at[2]), pin->cpu[2]);
	CHECKF(mover->cpu[2] != 1, "mover ended on CPU %d", mover->cpu[2]);
	sl_sim_destroy(r.sim);
}
