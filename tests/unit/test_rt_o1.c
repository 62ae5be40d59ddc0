/*
 * test_rt_o1.c - real-time classes and live changes in linux24, up, o1 and
 * ht (issue 12): an RT task preempts a normal one at once, FIFO is never
 * preempted by an equal priority, RR rotates at its slice, a mask change
 * moves a running task (with the invariant check on), and a nice change
 * takes effect.  Each scenario runs tiny machines with invariant checks
 * after every event and reads the switches through the observer.
 */
#include <stdio.h>
#include <string.h>

#include "policy/policy.h"
#include "test.h"
#include "test_o1_script.h"

/* ---- a run with a switch log ---- */

#define RT_LOG_MAX 4096

struct rt_switch {
	sl_time now;
	int cpu;
	char prev[16], next[16];	/* "" for idle */
	bool prev_runnable;		/* prev was preempted, not blocked or dead */
};

struct rt_log {
	int n;
	struct rt_switch s[RT_LOG_MAX];
};

static void rt_on_switch(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
			 const struct sl_task *next)
{
	struct rt_log *log = ctx;

	if (log->n >= RT_LOG_MAX)
		return;
	struct rt_switch *s = &log->s[log->n++];
	s->now = now;
	s->cpu = cpu;
	snprintf(s->prev, sizeof(s->prev), "%s", prev ? prev->comm : "");
	snprintf(s->next, sizeof(s->next), "%s", next ? next->comm : "");
	s->prev_runnable = prev && prev->state == SL_TASK_RUNNABLE;
}

struct rt_run {
	struct sl_machine machine;
	struct sl_params knobs;
	struct sl_observer obs;
	struct rt_log log;
	struct sl_sim *sim;
	struct sl_err err;
};

static bool rt_start(struct rt_run *r, const char *machine, const char *policy)
{
	const struct sl_policy_ops *ops;
	char label[64];

	memset(r, 0, sizeof(*r));
	r->obs.ctx = &r->log;
	r->obs.sched_switch = rt_on_switch;
	if (sl_machine_load(&r->machine, machine, &r->err) ||
	    sl_policy_parse(policy, &ops, &r->knobs, label, sizeof(label), &r->err)) {
		fprintf(stderr, "  %s: %s\n", policy, r->err.msg);
		return false;
	}
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = ops, .knobs = &r->knobs, .seed = 1,
		.time_limit = 5 * SL_SEC, .check = true, .observer = &r->obs,
	};
	r->sim = sl_sim_create(&cfg, &r->err);
	if (!r->sim)
		fprintf(stderr, "  %s: %s\n", policy, r->err.msg);
	return r->sim != NULL;
}

static bool rt_finish(struct rt_run *r, const char *policy)
{
	bool ok = sl_sim_run(r->sim, &r->err) == 0;

	if (!ok)
		fprintf(stderr, "  %s: %s\n", policy, r->err.msg);
	return ok;
}

/* The scripts live in the run's memory: destroy once they are read. */
static void rt_done(struct rt_run *r)
{
	sl_sim_destroy(r->sim);
	r->sim = NULL;
}

/* The first switch to `next` at or after `from` (-1: none). */
static int rt_first_in(const struct rt_log *log, const char *next, sl_time from)
{
	for (int i = 0; i < log->n; i++)
		if (log->s[i].now >= from && !strcmp(log->s[i].next, next))
			return i;
	return -1;
}

/* When `comm` last left a CPU (its exit, if it ran to the end). */
static sl_time rt_last_out(const struct rt_log *log, const char *comm)
{
	sl_time t = -1;

	for (int i = 0; i < log->n; i++)
		if (!strcmp(log->s[i].prev, comm))
			t = log->s[i].now;
	return t;
}

/* ---- actions ---- */

static struct sl_action rt_setsched(int policy, int rtprio, int nice)
{
	return (struct sl_action){ .kind = SL_ACT_SETSCHED,
		.u.setsched = { .sched_policy = policy, .rt_priority = rtprio, .nice = nice } };
}

static void rt_fork(struct o1t_script *s, struct o1t_script *child, const char *comm,
		    int policy, int rtprio, int nice)
{
	o1t_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &o1t_prog, .state = child, .comm = comm,
			    .set_nice = true, .nice = nice, .set_sched = true,
			    .sched_policy = policy, .rt_priority = rtprio } });
}

static struct o1t_script *rt_hog(struct sl_sim *sim, double ms)
{
	return o1t_hog(sim, ms);
}

/* A FIFO 90 root, so that it forks everything before any child runs. */
static struct o1t_script *rt_root(struct sl_sim *sim)
{
	struct o1t_script *root = o1t_new(sim);
	o1t_add(root, rt_setsched(SL_SCHED_FIFO, 90, 0));
	return root;
}

static void rt_reap(struct o1t_script *root, int n)
{
	for (int i = 0; i < n; i++)
		o1t_add(root, sl_act_wait());
}

static const char *const rt_policies[] = {
	"linux24", "up", "o1:version=2.5.33", "o1:version=2.6.0", "ht:version=f3",
	"ht:version=c1",
};
#define RT_NPOLICIES (sizeof(rt_policies) / sizeof(rt_policies[0]))

/* ---- an RT task preempts a normal one at once ---- */

/*
 * Two nice -20 hogs; a FIFO 50 task wakes from a 50 ms sleep and must be
 * on a CPU within a millisecond (the IPI latency and a switch).  As a
 * normal task (nice 0) it could not preempt a nice -20 hog in any of these
 * schedulers.  On one CPU it must take it from a hog; with two, ht's
 * shared runqueue leaves a sibling idle (nothing kicks it for a forked
 * hog), where wake_up_cpu then puts the RT task.
 */
static void rt_preempt_case(const char *machine, const char *policy)
{
	static struct rt_run r;

	if (!rt_start(&r, machine, policy)) {
		CHECK(0);
		return;
	}
	struct o1t_script *root = rt_root(r.sim);
	struct o1t_script *rt = o1t_new(r.sim);
	o1t_add(rt, sl_act_sleep(50 * SL_MSEC));
	o1t_add(rt, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	rt_fork(root, rt_hog(r.sim, 500), "n0", SL_SCHED_NORMAL, 0, -20);
	rt_fork(root, rt_hog(r.sim, 500), "n1", SL_SCHED_NORMAL, 0, -20);
	rt_fork(root, rt, "r", SL_SCHED_FIFO, 50, 0);
	rt_reap(root, 3);
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	bool ok = rt_finish(&r, policy);

	sl_time woke = rt->at[0] + 50 * SL_MSEC;
	int i = rt_first_in(&r.log, "r", woke);
	CHECKF(ok && rt->at[0] > 0 && i >= 0, "%s on %s: run failed or r never ran", policy,
	       machine);
	rt_done(&r);
	if (i < 0)
		return;
	const struct rt_switch *s = &r.log.s[i];
	bool one_cpu = strstr(machine, "core:1 pu:1") != NULL;
	CHECKF(s->now - woke < SL_MSEC && (!one_cpu || (s->prev[0] == 'n' && s->prev_runnable)),
	       "%s on %s: r woke at %.3f ms, ran at %.3f ms after '%s'", policy, machine,
	       sl_ns_to_s(woke) * 1e3, sl_ns_to_s(s->now) * 1e3, s->prev);
}

SL_TEST(rt_o1_rt_task_preempts_normal_at_once)
{
	for (size_t k = 0; k < RT_NPOLICIES; k++) {
		rt_preempt_case("pack:1 core:1 pu:1", rt_policies[k]);
		rt_preempt_case("pack:1 core:1 pu:2", rt_policies[k]);
		rt_preempt_case("pack:1 core:2 pu:1", rt_policies[k]);
	}
}

/* ---- FIFO is never preempted by an equal priority ---- */

/*
 * On one CPU: b (FIFO 50) runs first and sleeps 10 ms; a (FIFO 50) then
 * computes 300 ms.  b wakes long before a ends and must wait for it.
 * In ht a9 and c1 the woken b has the larger slice, so wake_up_cpu's
 * equal-priority rule reschedules a's CPU, but schedule() takes the head
 * of the list, a, again.
 */
SL_TEST(rt_o1_fifo_not_preempted_by_equal_priority)
{
	static const char *const policies[] = {
		"linux24", "up", "o1:version=2.5.33", "o1:version=2.5.68", "o1:version=2.6.0",
		"ht:version=f3", "ht:version=e6", "ht:version=a9", "ht:version=c1",
	};
	static struct rt_run r;

	for (size_t k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		const char *policy = policies[k];
		if (!rt_start(&r, "pack:1 core:1 pu:1", policy)) {
			CHECK(0);
			continue;
		}
		struct o1t_script *root = rt_root(r.sim);
		struct o1t_script *b = o1t_new(r.sim);
		o1t_add(b, sl_act_sleep(10 * SL_MSEC));
		o1t_add(b, sl_act_run(10 * SL_MSEC, SL_WC_INT));
		rt_fork(root, b, "b", SL_SCHED_FIFO, 50, 0);
		rt_fork(root, rt_hog(r.sim, 300), "a", SL_SCHED_FIFO, 50, 0);
		rt_reap(root, 2);
		sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
		bool ok = rt_finish(&r, policy);

		sl_time a_end = rt_last_out(&r.log, "a");
		int i = rt_first_in(&r.log, "b", b->at[0] + 10 * SL_MSEC);
		rt_done(&r);
		CHECKF(ok && i >= 0 && a_end > 300 * SL_MSEC && r.log.s[i].now >= a_end,
		       "%s: b ran again at %.3f ms, a ended at %.3f ms", policy,
		       i >= 0 ? sl_ns_to_s(r.log.s[i].now) * 1e3 : -1.0,
		       sl_ns_to_s(a_end) * 1e3);
	}
}

/* ---- RR rotates at its slice ---- */

/*
 * On one CPU two RR 50 tasks of 400 ms share it slice by slice, and a nice
 * -20 hog waits until both are done.  The second full slice (the first
 * ones are the fork's halves) is measured between switches.
 */
static void rt_rr_case(const char *policy, sl_time slice, sl_time tick)
{
	static struct rt_run r;

	if (!rt_start(&r, "pack:1 core:1 pu:1", policy)) {
		CHECK(0);
		return;
	}
	struct o1t_script *root = rt_root(r.sim);
	rt_fork(root, rt_hog(r.sim, 400), "x", SL_SCHED_RR, 50, 0);
	rt_fork(root, rt_hog(r.sim, 400), "y", SL_SCHED_RR, 50, 0);
	rt_fork(root, rt_hog(r.sim, 20), "n", SL_SCHED_NORMAL, 0, -20);
	rt_reap(root, 3);
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	bool ok = rt_finish(&r, policy);
	rt_done(&r);

	sl_time at[4];
	int n = 0;
	for (int i = 0; i < r.log.n && n < 4; i++) {
		const struct rt_switch *s = &r.log.s[i];
		bool xy = (!strcmp(s->prev, "x") && !strcmp(s->next, "y")) ||
			  (!strcmp(s->prev, "y") && !strcmp(s->next, "x"));
		if (xy && s->prev_runnable)
			at[n++] = s->now;
	}
	sl_time full = n >= 3 ? at[2] - at[1] : 0;
	int nrun = rt_first_in(&r.log, "n", 0);
	sl_time n_in = nrun >= 0 ? r.log.s[nrun].now : -1;
	CHECKF(ok && n >= 3 && full >= slice - tick - SL_MSEC && full <= slice + SL_MSEC,
	       "%s: %d rotations, a full slice of %.3f ms (want %.0f)", policy, n,
	       sl_ns_to_s(full) * 1e3, sl_ns_to_s(slice) * 1e3);
	CHECKF(n_in >= rt_last_out(&r.log, "x") && n_in >= rt_last_out(&r.log, "y"),
	       "%s: the nice -20 hog ran at %.3f ms, before the RR tasks ended", policy,
	       sl_ns_to_s(n_in) * 1e3);
}

SL_TEST(rt_o1_rr_rotates_at_its_slice)
{
	/* linux24: NICE_TO_TICKS(0) = 6 ticks of 10 ms; O(1): task_timeslice
	 * of nice 0, 151 ms (2.5: 10..300) or 102 ms (2.6.0: 10..200) */
	rt_rr_case("linux24", 60 * SL_MSEC, 10 * SL_MSEC);
	rt_rr_case("up", 102 * SL_MSEC, SL_MSEC);
	rt_rr_case("o1:version=2.5.33", 151 * SL_MSEC, SL_MSEC);
	rt_rr_case("o1:version=2.6.0", 102 * SL_MSEC, SL_MSEC);
	rt_rr_case("ht:version=f3", 151 * SL_MSEC, SL_MSEC);
	rt_rr_case("ht:version=c1", 102 * SL_MSEC, SL_MSEC);
}

/* ---- linux24: a quantum ended inside schedule() ---- */

/*
 * 2.4.27 takes the tick that comes while schedule() holds runqueue_lock at
 * its spin_unlock_irq, still in prev's context, after schedule() cleared
 * prev->need_resched: a tick that ends prev's quantum there leaves the flag
 * set on a task that is no longer running, and the next schedule() that
 * switches it in goes straight back (need_resched_back), an RR task behind
 * its equals.  On one CPU, x and y (RR 50, nice 19: one tick of quantum at
 * HZ 100) and f (FIFO 60: 1 ms of work, then 23 ms asleep, exact timers),
 * with 1 ms per task scanned: when f wakes, the schedule() that preempts
 * the running one of x and y holds the lock 3 ms, and a tick in that
 * stretch ends its quantum.  When f sleeps again, the preempted task is
 * first of its equals: it resumes if its quantum is left and hands the CPU
 * to the other at once if not.  The log's count of each, and the number of
 * preemptions whose 3 ms held a tick (CPU 0's, every 10 ms from its phase).
 * preempt=full, so that the scan charged to the task switched in does not
 * hold a tick's reschedule until its return to user space.  Before the
 * rule (Dec 2026): 11 resumed, 0 handed, the preempted task running on with
 * no quantum until the next tick; now 7 and 4, as the ticks say.
 */
static void rt_l24_quantum_in_schedule(int *resumed, int *handed, int *ticked)
{
	static struct rt_run r;
	const sl_time scan = 1 * SL_MSEC;

	*resumed = *handed = *ticked = -1;
	if (!rt_start(&r, "pack:1 core:1 pu:1",
		      "linux24:scan_ns=1000000,recalc_ns=0,timers=exact,preempt=full")) {
		CHECK(0);
		return;
	}
	struct o1t_script *f = o1t_new(r.sim);
	for (int i = 0; i < 12; i++) {
		o1t_add(f, sl_act_run(1 * SL_MSEC, SL_WC_INT));
		o1t_add(f, sl_act_sleep(23 * SL_MSEC));
	}
	struct o1t_script *root = rt_root(r.sim);
	rt_fork(root, rt_hog(r.sim, 400), "x", SL_SCHED_RR, 50, 19);
	rt_fork(root, rt_hog(r.sim, 400), "y", SL_SCHED_RR, 50, 19);
	rt_fork(root, f, "f", SL_SCHED_FIFO, 60, 0);
	rt_reap(root, 3);
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	sl_time tick0 = sl_tick_phase(r.sim, 0);
	bool ok = rt_finish(&r, "linux24");
	rt_done(&r);
	CHECK(ok);

	*resumed = *handed = *ticked = 0;
	const char *preempted = NULL;
	for (int i = 0; i < r.log.n; i++) {
		const struct rt_switch *s = &r.log.s[i];
		if (!strcmp(s->next, "f") && s->prev_runnable &&
		    (!strcmp(s->prev, "x") || !strcmp(s->prev, "y"))) {
			preempted = !strcmp(s->prev, "x") ? "x" : "y";
			sl_time since = (s->now - tick0) % (10 * SL_MSEC);
			if (since + 3 * scan > 10 * SL_MSEC)
				++*ticked;
		} else if (preempted && !strcmp(s->prev, "f") && !s->prev_runnable) {
			if (!strcmp(s->next, preempted))
				++*resumed;
			else if (!strcmp(s->next, "x") || !strcmp(s->next, "y"))
				++*handed;
			preempted = NULL;
		}
	}
}

SL_TEST(rt_linux24_quantum_ended_in_schedule_rotates_at_switch_in)
{
	int resumed, handed, ticked;
	rt_l24_quantum_in_schedule(&resumed, &handed, &ticked);
	CHECKF(handed > 0 && handed == ticked && resumed + handed >= 10,
	       "after f: %d resumed, %d handed to the equal, %d preemptions held a tick",
	       resumed, handed, ticked);
}

/* ---- a mask change moves a running task ---- */

/*
 * m runs on CPU 0, then allows itself CPU 1 only: it must be on CPU 1
 * within a millisecond (its migration thread, or its reschedule in 2.4)
 * and finish there; the invariant check runs after every event (the
 * migration thread's preemption is no switch the observer sees).
 */
static void rt_mask_case(const char *machine, const char *policy)
{
	static struct rt_run r;

	if (!rt_start(&r, machine, policy)) {
		CHECK(0);
		return;
	}
	sl_cpumask *one = sl_sim_alloc(r.sim, sizeof(*one));
	sl_cpumask_clear(one);
	sl_cpumask_set(one, 1);
	struct o1t_script *m = o1t_new(r.sim);
	o1t_add(m, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	o1t_add(m, (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = one });
	o1t_add(m, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &o1t_prog, m, "m");
	bool ok = rt_finish(&r, policy);

	sl_time set = m->at[1];
	sl_time on1 = -1;
	for (int i = 0; i < r.log.n; i++) {
		const struct rt_switch *s = &r.log.s[i];
		if (s->cpu == 1 && !strcmp(s->next, "m") && on1 < 0)
			on1 = s->now;
	}
	int cpu_set = m->cpu[1], cpu_end = m->cpu[3];
	rt_done(&r);
	CHECKF(ok && cpu_set == 0 && on1 >= set && on1 - set < SL_MSEC && cpu_end == 1,
	       "%s on %s: mask set at %.3f ms on CPU %d, on CPU 1 at %.3f, ended on CPU %d",
	       policy, machine, sl_ns_to_s(set) * 1e3, cpu_set, sl_ns_to_s(on1) * 1e3,
	       cpu_end);
}

SL_TEST(rt_o1_mask_change_moves_running_task)
{
	/* up knows CPU 0 only: no set_cpus_allowed to test */
	static const char *const policies[] = {
		"linux24", "o1:version=2.5.33", "o1:version=2.6.0", "ht:version=f3",
		"ht:version=c1",
	};
	for (size_t k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		rt_mask_case("pack:1 core:2 pu:1", policies[k]);
		rt_mask_case("pack:1 core:1 pu:2", policies[k]);
	}
}

/* ---- a nice change takes effect ---- */

/*
 * On one CPU, a renices itself to 19 at once and b (nice 0) takes the CPU:
 * b's 300 ms are done before a's, within 460 ms (O(1): a keeps the rest of
 * its nice 0 slice, 151 ms in 2.5, until it expires; then 10 ms slices).
 * Unreniced, a runs first and ends first.  (linux24 reads nice afresh in
 * goodness and the refill, so it needed no hook.)
 */
SL_TEST(rt_o1_nice_change_takes_effect)
{
	static struct rt_run r;

	for (size_t k = 0; k < RT_NPOLICIES; k++) {
		const char *policy = rt_policies[k];
		if (!rt_start(&r, "pack:1 core:1 pu:1", policy)) {
			CHECK(0);
			continue;
		}
		struct o1t_script *a = o1t_new(r.sim);
		o1t_add(a, rt_setsched(SL_SCHED_NORMAL, 0, 19));
		o1t_add(a, sl_act_run(300 * SL_MSEC, SL_WC_INT));
		sl_sim_spawn_root(r.sim, &o1t_prog, a, "a");
		sl_sim_spawn_root(r.sim, &o1t_prog, rt_hog(r.sim, 300), "b");
		bool ok = rt_finish(&r, policy);
		rt_done(&r);
		sl_time a_end = rt_last_out(&r.log, "a"), b_end = rt_last_out(&r.log, "b");
		CHECKF(ok && b_end < 460 * SL_MSEC && b_end < a_end,
		       "%s: b ended at %.3f ms, a at %.3f ms", policy, sl_ns_to_s(b_end) * 1e3,
		       sl_ns_to_s(a_end) * 1e3);
	}
}

/* A class change of a running task: a normal hog makes itself FIFO and
 * keeps the CPU from a nice -20 hog that would otherwise share it. */
SL_TEST(rt_o1_setscheduler_running_task)
{
	static struct rt_run r;

	for (size_t k = 0; k < RT_NPOLICIES; k++) {
		const char *policy = rt_policies[k];
		if (!rt_start(&r, "pack:1 core:1 pu:1", policy)) {
			CHECK(0);
			continue;
		}
		struct o1t_script *f = o1t_new(r.sim);
		o1t_add(f, rt_setsched(SL_SCHED_FIFO, 10, 0));
		o1t_add(f, sl_act_run(400 * SL_MSEC, SL_WC_INT));
		sl_sim_spawn_root(r.sim, &o1t_prog, f, "f");
		struct o1t_script *n = o1t_new(r.sim);
		o1t_add(n, rt_setsched(SL_SCHED_NORMAL, 0, -20));
		o1t_add(n, sl_act_run(100 * SL_MSEC, SL_WC_INT));
		sl_sim_spawn_root(r.sim, &o1t_prog, n, "n");
		bool ok = rt_finish(&r, policy);
		rt_done(&r);
		int i = rt_first_in(&r.log, "n", 0);
		CHECKF(ok && i >= 0 && r.log.s[i].now >= rt_last_out(&r.log, "f"),
		       "%s: n ran at %.3f ms, f ended at %.3f ms", policy,
		       i >= 0 ? sl_ns_to_s(r.log.s[i].now) * 1e3 : -1.0,
		       sl_ns_to_s(rt_last_out(&r.log, "f")) * 1e3);
	}
}

/* ---- sched_yield of an RT task ---- */

/*
 * On one CPU a (FIFO 50) yields after 20 ms: b (FIFO 50) runs next, and a
 * then comes back before a normal task n (2.4: to the tail of the
 * runqueue; O(1): to the tail of its list in the active array, never the
 * expired one).
 */
SL_TEST(rt_o1_rt_yield_round_robins_among_equals)
{
	static struct rt_run r;

	for (size_t k = 0; k < RT_NPOLICIES; k++) {
		const char *policy = rt_policies[k];
		if (!rt_start(&r, "pack:1 core:1 pu:1", policy)) {
			CHECK(0);
			continue;
		}
		struct o1t_script *root = rt_root(r.sim);
		struct o1t_script *a = o1t_new(r.sim);
		o1t_add(a, sl_act_run(20 * SL_MSEC, SL_WC_INT));
		o1t_yield(a);
		o1t_add(a, sl_act_run(20 * SL_MSEC, SL_WC_INT));
		rt_fork(root, a, "a", SL_SCHED_FIFO, 50, 0);
		rt_fork(root, rt_hog(r.sim, 20), "b", SL_SCHED_FIFO, 50, 0);
		rt_fork(root, rt_hog(r.sim, 20), "n", SL_SCHED_NORMAL, 0, 0);
		rt_reap(root, 3);
		sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
		bool ok = rt_finish(&r, policy);
		sl_time yielded = a->at[1];
		int ib = rt_first_in(&r.log, "b", 0), in = rt_first_in(&r.log, "n", 0);
		sl_time a_end = rt_last_out(&r.log, "a");
		rt_done(&r);
		CHECKF(ok && ib >= 0 && in >= 0 && r.log.s[ib].now >= yielded &&
		       r.log.s[ib].now - yielded < SL_MSEC && r.log.s[in].now >= a_end,
		       "%s: a yielded at %.3f ms, b ran at %.3f, n at %.3f, a ended at %.3f",
		       policy, sl_ns_to_s(yielded) * 1e3,
		       ib >= 0 ? sl_ns_to_s(r.log.s[ib].now) * 1e3 : -1.0,
		       in >= 0 ? sl_ns_to_s(r.log.s[in].now) * 1e3 : -1.0,
		       sl_ns_to_s(a_end) * 1e3);
	}
}

/* ---- a mask change of a queued and of a sleeping task ---- */

/*
 * On two CPUs with everything on CPU 0: s sleeps until 50 ms, h runs and q
 * waits behind it.  At 30 ms (the run paused) q and s are allowed CPU 1
 * only: q must next run on CPU 1, within a millisecond under O(1) (its
 * CPU's migration thread moves it; 2.4 changes nothing for a task that is
 * not running, and idle CPU 1 takes q at its next scan, here when s's
 * wakeup pokes it), and s must wake there.
 */
SL_TEST(rt_o1_mask_change_of_queued_and_sleeping_tasks)
{
	static const char *const policies[] = {
		"linux24", "o1:version=2.5.33", "o1:version=2.6.0", "ht:version=f3",
		"ht:version=c1",
	};
	static struct rt_run r;

	for (size_t k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		const char *policy = policies[k];
		if (!rt_start(&r, "pack:1 core:2 pu:1", policy)) {
			CHECK(0);
			continue;
		}
		sl_cpumask zero, one;
		sl_cpumask_clear(&zero);
		sl_cpumask_set(&zero, 0);
		sl_cpumask_clear(&one);
		sl_cpumask_set(&one, 1);
		sl_sim_set_root_allowed(r.sim, &zero);
		struct o1t_script *sl = o1t_new(r.sim);
		o1t_add(sl, sl_act_sleep(50 * SL_MSEC));
		o1t_add(sl, sl_act_run(10 * SL_MSEC, SL_WC_INT));
		sl_sim_spawn_root(r.sim, &o1t_prog, sl, "s");
		sl_sim_spawn_root(r.sim, &o1t_prog, rt_hog(r.sim, 100), "h");
		sl_sim_spawn_root(r.sim, &o1t_prog, rt_hog(r.sim, 100), "q");
		sl_sim_set_time_limit(r.sim, 30 * SL_MSEC);
		bool ok = sl_sim_run(r.sim, &r.err) == 0;
		struct sl_task *q = o1t_find(r.sim, "q"), *s = o1t_find(r.sim, "s");
		bool queued = q && q->state == SL_TASK_RUNNABLE && q->cpu < 0 &&
			      s && s->state == SL_TASK_SLEEPING;
		if (ok && queued) {
			sl_task_set_allowed(r.sim, q, &one);
			sl_task_set_allowed(r.sim, s, &one);
			sl_sim_set_time_limit(r.sim, 0);
			ok = rt_finish(&r, policy);
		}
		int iq = rt_first_in(&r.log, "q", 30 * SL_MSEC);
		int is = rt_first_in(&r.log, "s", 50 * SL_MSEC);
		bool at_once = strcmp(policy, "linux24") != 0;
		CHECKF(ok && queued && iq >= 0 && r.log.s[iq].cpu == 1 &&
		       (!at_once || r.log.s[iq].now < 31 * SL_MSEC) && is >= 0 &&
		       r.log.s[is].cpu == 1,
		       "%s: ok %d queued %d, q on CPU %d at %.3f ms, s on CPU %d at %.3f ms", policy,
		       ok, queued, iq >= 0 ? r.log.s[iq].cpu : -1,
		       iq >= 0 ? sl_ns_to_s(r.log.s[iq].now) * 1e3 : -1.0,
		       is >= 0 ? r.log.s[is].cpu : -1,
		       is >= 0 ? sl_ns_to_s(r.log.s[is].now) * 1e3 : -1.0);
		rt_done(&r);
	}
}
