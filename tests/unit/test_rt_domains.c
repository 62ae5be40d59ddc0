/*
 * test_rt_domains.c - scenario tests of the real-time classes and of live
 * changes (nice, class, CPU mask) under `domains` (both versions, against
 * 2.6.12.1 kernel/sched.c: scheduler_tick, sched_setscheduler,
 * set_user_nice, set_cpus_allowed) and `sl` (its own rule,
 * docs/policies/sl.md):
 *
 *   - an RT task that wakes preempts a normal one at once;
 *   - a FIFO task is never preempted by a task of its own priority;
 *   - RR tasks of one priority take turns at their slice, above a normal
 *     task that gets nothing meanwhile;
 *   - a mask change moves a running task off its CPU within a migration
 *     thread's run;
 *   - a renice of a running hog changes its share at once, and a FIFO hog
 *     that makes itself SCHED_NORMAL shares the CPU from then on;
 *   - domains 2.6.12: an RT task holds back a normal one on its SMT sibling;
 *   - a task whose mask changed, and a pinned RT task, never run outside
 *     their masks afterwards (sleeps, wakeups, balancing);
 *   - sl: a woken RT task goes to the CPU where it runs at once.
 *
 * Programs are scripts of actions; an observer records every task's runs
 * (when, how long, on which CPU, and whether outside its mask).  Runs of
 * the mask tests have the engine's per-event check off: a running task
 * whose mask just changed is outside it until its migration thread runs,
 * which src/sim/check.c does not allow yet; the policy's own check is run
 * at the end, and the observer checks every switch-in.
 */
#include <string.h>

#include "hw/machine.h"
#include "policy/policy.h"
#include "sim/sim.h"
#include "test.h"

/* ---- scripts ---- */

#define RTT_MAX_ACTS 64

struct rtt_script {
	int n, pc;
	struct sl_action acts[RTT_MAX_ACTS];
	sl_time at[RTT_MAX_ACTS + 1];	/* when act i was asked for */
	int cpu[RTT_MAX_ACTS + 1];	/* on which CPU */
	int away_step;			/* this act's mask: every CPU but the current */
	sl_cpumask away;
	int outside;			/* acts asked for outside its mask, but the one
					 * right after a change (at the same instant) */
};

static void rtt_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct rtt_script *s = t->prog_state;

	if (s->pc == s->away_step && s->pc < s->n) {
		s->away = sl_topo(sim)->all_cpus;
		sl_cpumask_unset(&s->away, t->cpu);
	}
	if (t->cpu >= 0 && !sl_cpumask_test(&t->allowed, t->cpu) &&
	    !(s->pc > 0 && s->acts[s->pc - 1].kind == SL_ACT_SETAFFINITY))
		s->outside++;
	s->at[s->pc] = sl_now(sim);
	s->cpu[s->pc] = t->cpu;
	*next = s->pc < s->n ? s->acts[s->pc++] : sl_act_exit();
}

static const struct sl_prog rtt_prog = { .name = "rtt", .step = rtt_step };

static struct rtt_script *rtt_new(struct sl_sim *sim)
{
	struct rtt_script *s = sl_sim_alloc(sim, sizeof(struct rtt_script));
	s->away_step = -1;
	return s;
}

static int rtt_add(struct rtt_script *s, struct sl_action a)
{
	if (s->n < RTT_MAX_ACTS)
		s->acts[s->n++] = a;
	return s->n - 1;
}

static void rtt_run(struct rtt_script *s, double ms)
{
	rtt_add(s, sl_act_run(ms * SL_MSEC, SL_WC_INT));
}

static void rtt_sleep(struct rtt_script *s, double ms)
{
	rtt_add(s, sl_act_sleep((sl_time)(ms * SL_MSEC)));
}

static void rtt_setsched(struct rtt_script *s, int policy, int prio, int nice)
{
	rtt_add(s, (struct sl_action){ .kind = SL_ACT_SETSCHED,
		.u.setsched = { .sched_policy = policy, .rt_priority = prio, .nice = nice } });
}

/* sched_setaffinity(0, every CPU but the one it runs on) */
static void rtt_move_away(struct rtt_script *s)
{
	s->away_step = rtt_add(s, (struct sl_action){ .kind = SL_ACT_SETAFFINITY,
						       .u.allowed = &s->away });
}

/* sched_setaffinity(0, mask) */
static void rtt_mask(struct rtt_script *s, const sl_cpumask *mask)
{
	rtt_add(s, (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = mask });
}

/* Fork `child` as `comm`: policy < 0 inherits the class; allowed NULL the mask. */
static void rtt_fork(struct rtt_script *s, struct rtt_script *child, const char *comm,
		     int policy, int prio, int nice, const sl_cpumask *allowed)
{
	rtt_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &rtt_prog, .state = child, .comm = comm,
			    .set_nice = nice != 0, .nice = nice,
			    .set_sched = policy >= 0, .sched_policy = policy < 0 ? 0 : policy,
			    .rt_priority = prio, .allowed = allowed } });
}

/* ---- what ran where ---- */

#define RTT_TASKS 8
#define RTT_RUNS 256

struct rtt_runs {
	char comm[16];
	int n;
	bool open;
	sl_time start[RTT_RUNS], len[RTT_RUNS];
	int cpu[RTT_RUNS];
	int outside;		/* switch-ins on a CPU outside its mask */
};

struct rtt_log {
	struct rtt_runs t[RTT_TASKS];
	int n;
};

static struct rtt_runs *rtt_of(struct rtt_log *log, const char *comm)
{
	for (int i = 0; i < log->n; i++)
		if (!strcmp(log->t[i].comm, comm))
			return &log->t[i];
	if (log->n == RTT_TASKS)
		return NULL;
	struct rtt_runs *r = &log->t[log->n++];
	memset(r, 0, sizeof(*r));
	strncpy(r->comm, comm, sizeof(r->comm) - 1);
	return r;
}

static void rtt_close(struct rtt_runs *r, sl_time now)
{
	if (r && r->open) {
		r->len[r->n - 1] = now - r->start[r->n - 1];
		r->open = false;
	}
}

static void rtt_switch(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
		       const struct sl_task *next)
{
	struct rtt_log *log = ctx;

	if (prev)
		rtt_close(rtt_of(log, prev->comm), now);
	if (!next)
		return;
	struct rtt_runs *r = rtt_of(log, next->comm);
	if (!r)
		return;
	rtt_close(r, now);	/* a migration thread took it off unseen */
	if (!sl_cpumask_test(&next->allowed, cpu))
		r->outside++;
	if (r->n < RTT_RUNS) {
		r->start[r->n] = now;
		r->cpu[r->n] = cpu;
		r->len[r->n++] = 0;
		r->open = true;
	}
}

struct rtt_sim {
	struct sl_machine machine;
	struct sl_params knobs;
	const struct sl_policy_ops *ops;
	struct sl_observer obs;
	struct rtt_log log;
	struct sl_sim *sim;
	struct sl_err err;
};

static bool rtt_start(struct rtt_sim *r, const char *machine, const char *policy, bool check)
{
	char label[64];

	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &r->err) ||
	    sl_policy_parse(policy, &r->ops, &r->knobs, label, sizeof(label), &r->err)) {
		fprintf(stderr, "rtt_start: %s\n", r->err.msg);
		return false;
	}
	r->obs = (struct sl_observer){ .ctx = &r->log, .sched_switch = rtt_switch };
	struct sl_sim_config cfg = { .machine = &r->machine, .policy = r->ops,
				     .knobs = &r->knobs, .seed = 5, .check = check,
				     .observer = &r->obs };
	r->sim = sl_sim_create(&cfg, &r->err);
	if (!r->sim)
		fprintf(stderr, "rtt_start: %s\n", r->err.msg);
	return r->sim != NULL;
}

/* Run to the end; then the policy's own consistency check. */
static bool rtt_finish(struct rtt_sim *r)
{
	bool ok = sl_sim_run(r->sim, &r->err) == 0;

	if (ok && r->ops->check && r->ops->check(r->sim, &r->err))
		ok = false;
	if (!ok)
		fprintf(stderr, "rtt_finish: %s\n", r->err.msg);
	return ok;
}

static const char *const rtt_policies[] = { "domains", "domains:version=w26", "sl" };
#define RTT_NPOL (sizeof(rtt_policies) / sizeof(rtt_policies[0]))

static double rtt_ms(sl_time t)
{
	return (double)t / SL_MSEC;
}

/* ---- the classes ---- */

/*
 * One CPU.  `rt` (SCHED_FIFO 50, nice 19) runs 200 ms, sleeps 1 ms, then
 * runs 1 ms; `hog` (SCHED_NORMAL, nice -20) runs 500 ms.  FIFO keeps the
 * CPU for its 200 ms against a nice -20 hog, and when it wakes it takes the
 * CPU from the hog at once.  As SCHED_NORMAL nice 19 it does neither.
 */
SL_TEST(rt_preempts_normal_at_once)
{
	for (size_t i = 0; i < RTT_NPOL; i++) {
		static struct rtt_sim r;
		const char *pol = rtt_policies[i];
		if (!rtt_start(&r, "pack:1 core:1 pu:1", pol, true)) {
			CHECK(0);
			continue;
		}
		struct rtt_script *rt = rtt_new(r.sim), *hog = rtt_new(r.sim);
		struct rtt_script *root = rtt_new(r.sim);
		rtt_run(rt, 200);
		rtt_sleep(rt, 1);
		rtt_run(rt, 1);
		rtt_run(hog, 500);
		rtt_fork(root, rt, "rt", SL_SCHED_FIFO, 50, 19, NULL);
		rtt_fork(root, hog, "hog", SL_SCHED_NORMAL, 0, -20, NULL);
		rtt_add(root, sl_act_wait());
		rtt_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
		CHECKF(rtt_finish(&r), "%s", pol);
		const struct rtt_runs *x = rtt_of(&r.log, "rt");
		/* its first run is the whole 200 ms (and a fork's costs) */
		CHECKF(x->n >= 2 && x->len[0] >= 200 * SL_MSEC && x->len[0] < 201 * SL_MSEC,
		       "%s: rt's first run %.3f ms", pol, rtt_ms(x->len[0]));
		/* woken at the end of its 1 ms sleep, it runs within 50 us */
		sl_time late = rt->at[2] - (rt->at[1] + SL_MSEC);
		CHECKF(late >= 0 && late < 50 * SL_USEC, "%s: rt ran %.3f ms after waking", pol,
		       rtt_ms(late));
		sl_sim_destroy(r.sim);
	}
}

/*
 * One CPU.  The root makes itself SCHED_FIFO 50; its children inherit it.
 * `b` runs 1 ms and sleeps 10 ms; `a` runs 300 ms.  b's wakeup, at equal
 * priority, must not preempt a: a runs once, all 300 ms, and b's second
 * run starts when a is done.  As SCHED_NORMAL a would share the CPU.
 */
SL_TEST(rt_fifo_not_preempted_by_equal)
{
	for (size_t i = 0; i < RTT_NPOL; i++) {
		static struct rtt_sim r;
		const char *pol = rtt_policies[i];
		if (!rtt_start(&r, "pack:1 core:1 pu:1", pol, true)) {
			CHECK(0);
			continue;
		}
		struct rtt_script *a = rtt_new(r.sim), *b = rtt_new(r.sim);
		struct rtt_script *root = rtt_new(r.sim);
		rtt_run(b, 1);
		rtt_sleep(b, 10);
		rtt_run(b, 1);
		rtt_run(a, 300);
		rtt_setsched(root, SL_SCHED_FIFO, 50, 0);
		rtt_fork(root, b, "b", -1, 0, 0, NULL);
		rtt_fork(root, a, "a", -1, 0, 0, NULL);
		rtt_add(root, sl_act_wait());
		rtt_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
		CHECKF(rtt_finish(&r), "%s", pol);
		const struct rtt_runs *ra = rtt_of(&r.log, "a");
		CHECKF(ra->n == 1 && ra->len[0] >= 300 * SL_MSEC, "%s: a ran %d times, first %.3f ms",
		       pol, ra->n, rtt_ms(ra->len[0]));
		CHECKF(b->at[2] >= ra->start[0] + 300 * SL_MSEC, "%s: b ran again at %.3f ms, a "
		       "started at %.3f", pol, rtt_ms(b->at[2]), rtt_ms(ra->start[0]));
		sl_sim_destroy(r.sim);
	}
}

/*
 * One CPU.  The root makes itself SCHED_RR 50 and forks `a` and `b` (RR 50,
 * 400 ms each) and a SCHED_NORMAL `n` (50 ms).  a and b alternate, each
 * run but the first (half the forker's slice) and last a full RR slice
 * (100 ms: domains' task_timeslice at nice 0, sl's rr_slice_ms), and n
 * runs only once both are done.
 */
SL_TEST(rt_rr_rotates_at_its_slice)
{
	for (size_t i = 0; i < RTT_NPOL; i++) {
		static struct rtt_sim r;
		const char *pol = rtt_policies[i];
		/* w26 runs on 2.6.0's base: nice 0 is 102 ms there */
		sl_time slice = strstr(pol, "w26") ? 102 * SL_MSEC : 100 * SL_MSEC;
		if (!rtt_start(&r, "pack:1 core:1 pu:1", pol, true)) {
			CHECK(0);
			continue;
		}
		struct rtt_script *a = rtt_new(r.sim), *b = rtt_new(r.sim), *n = rtt_new(r.sim);
		struct rtt_script *root = rtt_new(r.sim);
		rtt_run(a, 400);
		rtt_run(b, 400);
		rtt_run(n, 50);
		rtt_setsched(root, SL_SCHED_RR, 50, 0);
		rtt_fork(root, n, "n", SL_SCHED_NORMAL, 0, 0, NULL);
		rtt_fork(root, a, "a", -1, 0, 0, NULL);
		rtt_fork(root, b, "b", -1, 0, 0, NULL);
		for (int k = 0; k < 3; k++)
			rtt_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
		CHECKF(rtt_finish(&r), "%s", pol);
		const struct rtt_runs *ra = rtt_of(&r.log, "a"), *rb = rtt_of(&r.log, "b");
		const struct rtt_runs *rn = rtt_of(&r.log, "n");
		CHECKF(ra->n >= 4 && rb->n >= 4, "%s: a ran %d times, b %d", pol, ra->n, rb->n);
		int full = 0;
		for (int k = 1; k + 1 < ra->n; k++) {
			CHECKF(ra->len[k] > slice - SL_MSEC && ra->len[k] < slice + SL_MSEC,
			       "%s: a's run %d %.3f ms", pol, k, rtt_ms(ra->len[k]));
			full++;
		}
		CHECKF(full >= 2, "%s: %d full slices", pol, full);
		sl_time a_end = ra->start[ra->n - 1] + ra->len[ra->n - 1];
		sl_time b_end = rb->start[rb->n - 1] + rb->len[rb->n - 1];
		CHECKF(rn->n >= 1 && rn->start[0] >= a_end && rn->start[0] >= b_end,
		       "%s: n first ran at %.3f ms, a and b ended at %.3f, %.3f", pol,
		       rn->n ? rtt_ms(rn->start[0]) : -1.0, rtt_ms(a_end), rtt_ms(b_end));
		sl_sim_destroy(r.sim);
	}
}

/* ---- live changes ---- */

/*
 * One CPU, two nice 0 hogs: `a` runs 300 ms, renices itself to 10 and runs
 * 1000 ms more; `b` runs 1300 ms.  From the renice on, b gets the larger
 * share (domains: 100 ms slices against 50; sl: weight 1024 against 110)
 * and finishes well before a.  If the change waited for a wakeup, which
 * hogs never have, they would finish together.
 */
SL_TEST(rt_renice_takes_effect)
{
	for (size_t i = 0; i < RTT_NPOL; i++) {
		static struct rtt_sim r;
		const char *pol = rtt_policies[i];
		if (!rtt_start(&r, "pack:1 core:1 pu:1", pol, true)) {
			CHECK(0);
			continue;
		}
		struct rtt_script *a = rtt_new(r.sim), *b = rtt_new(r.sim);
		struct rtt_script *root = rtt_new(r.sim);
		rtt_run(a, 300);
		rtt_setsched(a, SL_SCHED_NORMAL, 0, 10);
		rtt_run(a, 1000);
		rtt_run(b, 1300);
		rtt_fork(root, a, "a", -1, 0, 0, NULL);
		rtt_fork(root, b, "b", -1, 0, 0, NULL);
		rtt_add(root, sl_act_wait());
		rtt_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
		CHECKF(rtt_finish(&r), "%s", pol);
		sl_time a_end = a->at[3], b_end = b->at[1];
		CHECKF(a_end - b_end > 300 * SL_MSEC, "%s: a ended at %.1f ms, b at %.1f", pol,
		       rtt_ms(a_end), rtt_ms(b_end));
		sl_sim_destroy(r.sim);
	}
}

/*
 * Two CPUs.  `t` runs 5 ms, then sets its mask to the other CPU and runs
 * 20 ms more: its CPU's migration thread preempts it and it goes on over
 * there at once (the other CPU is idle), not when it next blocks (which
 * it never does).
 */
SL_TEST(rt_mask_change_moves_running_task)
{
	for (size_t i = 0; i < RTT_NPOL; i++) {
		static struct rtt_sim r;
		const char *pol = rtt_policies[i];
		if (!rtt_start(&r, "pack:2 core:1 pu:1", pol, false)) {
			CHECK(0);
			continue;
		}
		struct rtt_script *t = rtt_new(r.sim), *root = rtt_new(r.sim);
		rtt_run(t, 5);
		rtt_move_away(t);
		rtt_run(t, 20);
		rtt_fork(root, t, "t", -1, 0, 0, NULL);
		rtt_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
		CHECKF(rtt_finish(&r), "%s", pol);
		const struct rtt_runs *x = rtt_of(&r.log, "t");
		int from = t->cpu[1];
		/* the run after the change starts on the other CPU within 100 us */
		int k = 0;
		while (k < x->n && x->start[k] <= t->at[1])
			k++;
		CHECKF(k < x->n && x->cpu[k] != from && x->start[k] - t->at[1] < 100 * SL_USEC,
		       "%s: changed on CPU %d at %.3f ms; next run %s on CPU %d at %.3f ms", pol,
		       from, rtt_ms(t->at[1]), k < x->n ? "" : "(none)", k < x->n ? x->cpu[k] : -1,
		       k < x->n ? rtt_ms(x->start[k]) : -1.0);
		CHECKF(t->cpu[3] != from, "%s: t finished on CPU %d", pol, t->cpu[3]);
		CHECKF(x->outside == 0 && t->outside == 0, "%s: %d runs, %d acts outside the mask",
		       pol, x->outside, t->outside);
		sl_sim_destroy(r.sim);
	}
}

/*
 * Two CPUs.  `t` (SCHED_FIFO 10) starts pinned to CPU 0, moves itself to
 * CPU 1 after 2 ms, runs 2 ms more, then sleeps and runs 1 ms at a time,
 * 20 times;
 * `p` (SCHED_FIFO 20, pinned to CPU 1 from its fork) does the same with
 * 2 ms runs, and two normal hogs run on either CPU.  Neither RT task ever
 * starts a run outside its mask: not at wakeups (t's old CPU is idle when
 * it wakes), not by balancing, not by sl's RT placement (CPU 0 is free
 * while p holds CPU 1 and t waits).
 */
SL_TEST(rt_pinned_never_leaves_its_mask)
{
	for (size_t i = 0; i < RTT_NPOL; i++) {
		static struct rtt_sim r;
		static sl_cpumask cpu0, cpu1;
		const char *pol = rtt_policies[i];
		if (!rtt_start(&r, "pack:2 core:1 pu:1", pol, false)) {
			CHECK(0);
			continue;
		}
		sl_cpumask_clear(&cpu0);
		sl_cpumask_set(&cpu0, 0);
		sl_cpumask_clear(&cpu1);
		sl_cpumask_set(&cpu1, 1);
		struct rtt_script *t = rtt_new(r.sim), *p = rtt_new(r.sim);
		struct rtt_script *h0 = rtt_new(r.sim), *h1 = rtt_new(r.sim);
		struct rtt_script *root = rtt_new(r.sim);
		rtt_run(t, 2);
		rtt_move_away(t);
		rtt_run(t, 2);
		for (int k = 0; k < 20; k++) {
			rtt_sleep(t, 1);
			rtt_run(t, 1);
			rtt_sleep(p, 1);
			rtt_run(p, 2);
		}
		rtt_run(h0, 100);
		rtt_run(h1, 100);
		rtt_fork(root, h0, "h0", -1, 0, 0, NULL);
		rtt_fork(root, h1, "h1", -1, 0, 0, NULL);
		rtt_fork(root, t, "t", SL_SCHED_FIFO, 10, 0, &cpu0);
		rtt_fork(root, p, "p", SL_SCHED_FIFO, 20, 0, &cpu1);
		for (int k = 0; k < 4; k++)
			rtt_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
		CHECKF(rtt_finish(&r), "%s", pol);
		const struct rtt_runs *rt = rtt_of(&r.log, "t"), *rp = rtt_of(&r.log, "p");
		CHECKF(t->cpu[1] == 0, "%s: t changed its mask on CPU %d", pol, t->cpu[1]);
		CHECKF(rt->n > 20 && rp->n >= 20, "%s: t ran %d times, p %d", pol, rt->n, rp->n);
		CHECKF(rt->outside == 0 && rp->outside == 0 && t->outside == 0 && p->outside == 0,
		       "%s: runs outside the mask: t %d, p %d; acts: t %d, p %d", pol, rt->outside,
		       rp->outside, t->outside, p->outside);
		int t_on0 = 0;
		for (int k = 0; k < rt->n; k++)
			t_on0 += rt->cpu[k] == 0 && rt->start[k] > t->at[1];
		CHECKF(t_on0 == 0, "%s: t started %d runs on CPU 0 after leaving it", pol, t_on0);
		sl_sim_destroy(r.sim);
	}
}

/* ---- sl's own placement of RT tasks ---- */

/*
 * Two CPUs.  `a` (SCHED_FIFO 50, pinned to CPU 0) runs 100 ms; a normal
 * `h` (pinned to CPU 1) runs 100 ms.  `b` (SCHED_FIFO 40) starts pinned to
 * CPU 0, runs 1 ms, frees its mask, sleeps 5 ms and runs 10 ms.  When it
 * wakes, its previous CPU runs a more important RT task: sl puts it on
 * CPU 1, where it preempts the normal task at once, and a is never
 * disturbed.  (2.6.12 queues it behind a on CPU 0: domains has no such
 * rule.)
 */
SL_TEST(sl_rt_wakes_where_it_runs_at_once)
{
	static struct rtt_sim r;
	static sl_cpumask cpu0, cpu1, both;

	if (!rtt_start(&r, "pack:2 core:1 pu:1", "sl", true)) {
		CHECK(0);
		return;
	}
	sl_cpumask_clear(&cpu0);
	sl_cpumask_set(&cpu0, 0);
	sl_cpumask_clear(&cpu1);
	sl_cpumask_set(&cpu1, 1);
	both = sl_cpumask_or(cpu0, &cpu1);
	struct rtt_script *a = rtt_new(r.sim), *b = rtt_new(r.sim), *h = rtt_new(r.sim);
	struct rtt_script *root = rtt_new(r.sim);
	rtt_run(b, 1);
	rtt_mask(b, &both);
	rtt_sleep(b, 5);
	rtt_run(b, 10);
	rtt_run(a, 100);
	rtt_run(h, 100);
	rtt_fork(root, b, "b", SL_SCHED_FIFO, 40, 0, &cpu0);
	rtt_fork(root, a, "a", SL_SCHED_FIFO, 50, 0, &cpu0);
	rtt_fork(root, h, "h", SL_SCHED_NORMAL, 0, 0, &cpu1);
	for (int k = 0; k < 3; k++)
		rtt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
	CHECK(rtt_finish(&r));
	sl_time late = b->at[3] - (b->at[2] + 5 * SL_MSEC);
	CHECKF(b->cpu[2] == 0 && b->cpu[3] == 1 && late >= 0 && late < 50 * SL_USEC,
	       "b slept on CPU %d, ran on CPU %d %.3f ms after waking", b->cpu[2], b->cpu[3],
	       rtt_ms(late));
	const struct rtt_runs *ra = rtt_of(&r.log, "a");
	CHECKF(ra->n == 1, "a ran %d times", ra->n);
	sl_sim_destroy(r.sim);
}

/*
 * One CPU.  `a` (SCHED_FIFO 50) runs 250 ms, makes itself SCHED_NORMAL and
 * runs 300 ms more; `b` (SCHED_NORMAL) runs 300 ms.  b gets nothing while
 * a is FIFO; after the change they share the CPU: b's first run starts
 * when a's slice allows (2.6.12: at once, a's priority having fallen to
 * its static_prio; w26: when a's slice runs out; sl: after a's slice,
 * their vruntimes being equal), long before a is done.
 */
SL_TEST(rt_class_change_takes_effect)
{
	for (size_t i = 0; i < RTT_NPOL; i++) {
		static struct rtt_sim r;
		const char *pol = rtt_policies[i];
		if (!rtt_start(&r, "pack:1 core:1 pu:1", pol, true)) {
			CHECK(0);
			continue;
		}
		struct rtt_script *a = rtt_new(r.sim), *b = rtt_new(r.sim);
		struct rtt_script *root = rtt_new(r.sim);
		rtt_run(a, 250);
		rtt_setsched(a, SL_SCHED_NORMAL, 0, 0);
		rtt_run(a, 300);
		rtt_run(b, 300);
		rtt_fork(root, a, "a", SL_SCHED_FIFO, 50, 0, NULL);
		rtt_fork(root, b, "b", SL_SCHED_NORMAL, 0, 0, NULL);
		rtt_add(root, sl_act_wait());
		rtt_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
		CHECKF(rtt_finish(&r), "%s", pol);
		const struct rtt_runs *rb = rtt_of(&r.log, "b");
		sl_time change = a->at[1];
		CHECKF(rb->n >= 1 && rb->start[0] >= change &&
		       rb->start[0] + 150 * SL_MSEC < a->at[3],
		       "%s: a changed at %.3f ms and ended at %.3f, b first ran at %.3f", pol,
		       rtt_ms(change), rtt_ms(a->at[3]), rb->n ? rtt_ms(rb->start[0]) : -1.0);
		sl_sim_destroy(r.sim);
	}
}

/*
 * 2.6.12's SMT nice (dependent_sleeper): on one core's two siblings, a
 * SCHED_FIFO task on CPU 0 holds back a normal hog pinned to CPU 1 for as
 * long as it runs (an RT sibling holds back any user task that is not
 * RT); the hog starts when the FIFO task is done.  Without the RT rule the
 * hog, whose nice equals the FIFO task's, would run beside it.
 */
SL_TEST(rt_domains_smt_rt_holds_sibling_back)
{
	static struct rtt_sim r;
	static sl_cpumask cpu0, cpu1;

	if (!rtt_start(&r, "pack:1 core:1 pu:2", "domains", true)) {
		CHECK(0);
		return;
	}
	sl_cpumask_clear(&cpu0);
	sl_cpumask_set(&cpu0, 0);
	sl_cpumask_clear(&cpu1);
	sl_cpumask_set(&cpu1, 1);
	struct rtt_script *f = rtt_new(r.sim), *h = rtt_new(r.sim);
	struct rtt_script *root = rtt_new(r.sim);
	rtt_run(f, 50);
	rtt_run(h, 50);
	rtt_fork(root, f, "f", SL_SCHED_FIFO, 50, 0, &cpu0);
	rtt_fork(root, h, "h", SL_SCHED_NORMAL, 0, 0, &cpu1);
	rtt_add(root, sl_act_wait());
	rtt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
	CHECK(rtt_finish(&r));
	const struct rtt_runs *rf = rtt_of(&r.log, "f"), *rh = rtt_of(&r.log, "h");
	sl_time f_end = f->at[1];
	CHECKF(rf->n == 1 && rh->n >= 1 && rh->start[0] >= f_end,
	       "f ran %d times, ended at %.3f ms; h first ran at %.3f", rf->n, rtt_ms(f_end),
	       rh->n ? rtt_ms(rh->start[0]) : -1.0);
	sl_sim_destroy(r.sim);
}

/*
 * Two CPUs, `domains` (2.6.12 and w26).  `rt` (SCHED_FIFO `prio`) starts
 * pinned to CPU 0 beside `other` (SCHED_NORMAL, pinned there for good),
 * runs 20 ms, then allows both CPUs and runs 200 ms more.  CPU 1's
 * balancer finds CPU 0 busiest with nothing it may take, and after
 * cache_nice_tries + 2 failures wakes CPU 0's migration thread to push.
 * 2.6.12.1's thread is SCHED_FIFO at MAX_RT_PRIO-1 (migration_call), prio
 * 0 as a task of rt_priority 99, which a wakeup does not preempt: at 99 it
 * waits behind `rt`, which keeps CPU 0 to its end, and `other` starts
 * only then; at 98 it preempts `rt` and (2.6.12) pushes it to CPU 1, and
 * `other` runs on CPU 0 from about 21 ms.  When `other` first ran.
 */
static sl_time rt_other_first_run(const char *pol, int prio)
{
	static struct rtt_sim r;
	sl_time at = -1;

	if (!rtt_start(&r, "pack:2 core:1 pu:1", pol, false))
		return -1;
	static sl_cpumask cpu0;
	sl_cpumask_clear(&cpu0);
	sl_cpumask_set(&cpu0, 0);
	struct rtt_script *rt = rtt_new(r.sim), *other = rtt_new(r.sim);
	struct rtt_script *root = rtt_new(r.sim);
	rtt_run(rt, 20);
	rtt_mask(rt, &sl_topo(r.sim)->all_cpus);
	rtt_run(rt, 200);
	rtt_run(other, 50);
	rtt_fork(root, rt, "rt", SL_SCHED_FIFO, prio, 0, &cpu0);
	rtt_fork(root, other, "other", SL_SCHED_NORMAL, 0, 0, &cpu0);
	rtt_add(root, sl_act_wait());
	rtt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
	if (rtt_finish(&r)) {
		const struct rtt_runs *o = rtt_of(&r.log, "other");
		at = o->n > 0 ? o->start[0] : -1;
	}
	sl_sim_destroy(r.sim);
	return at;
}

SL_TEST(rt_domains_migration_thread_waits_behind_fifo_99)
{
	static const char *const pols[] = { "domains", "domains:version=w26" };

	for (size_t i = 0; i < 2; i++) {
		sl_time at99 = rt_other_first_run(pols[i], 99);
		sl_time at98 = rt_other_first_run(pols[i], 98);
		CHECKF(at99 >= 220 * SL_MSEC, "%s: other first ran at %.3f ms beside FIFO 99",
		       pols[i], rtt_ms(at99));
		/* (w26's push goes through can_migrate_task, which keeps the
		 * task the thread just preempted, always hot: no push) */
		CHECKF(i == 1 || (at98 >= 0 && at98 < 40 * SL_MSEC),
		       "%s: other first ran at %.3f ms beside FIFO 98", pols[i], rtt_ms(at98));
	}
}

/*
 * One CPU, `domains:version=w26` (2.6.0's child-runs-first: a child in
 * front of its parent).  A SCHED_FIFO 50 parent forks a child of SCHED_RR
 * 50: the class differs, so the child is the kernel's child changed by
 * sched_setscheduler right after the fork, queued at the tail of its
 * priority (as o1 does), and the parent, which it does not preempt, runs
 * on its 30 ms before the child's first run.
 */
SL_TEST(rt_domains_child_of_another_rt_class_goes_to_the_tail)
{
	static struct rtt_sim r;

	if (!rtt_start(&r, "pack:1 core:1 pu:1", "domains:version=w26", true)) {
		CHECK(0);
		return;
	}
	struct rtt_script *p = rtt_new(r.sim), *c = rtt_new(r.sim);
	struct rtt_script *root = rtt_new(r.sim);
	rtt_run(c, 10);
	rtt_setsched(p, SL_SCHED_FIFO, 50, 0);
	rtt_fork(p, c, "c", SL_SCHED_RR, 50, 0, NULL);
	rtt_run(p, 30);
	rtt_add(p, sl_act_wait());
	rtt_fork(root, p, "p", -1, 0, 0, NULL);
	rtt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &rtt_prog, root, "root");
	CHECK(rtt_finish(&r));
	const struct rtt_runs *x = rtt_of(&r.log, "c");
	CHECKF(x->n > 0 && x->start[0] >= p->at[2] + 30 * SL_MSEC,
	       "the child first ran at %.3f ms, the parent forked it at %.3f ms",
	       x->n > 0 ? rtt_ms(x->start[0]) : -1.0, rtt_ms(p->at[2]));
	sl_sim_destroy(r.sim);
}
