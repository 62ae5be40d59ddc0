/*
 * test_linux24.c - scenario tests that pin the Linux 2.4 scheduler's
 * distinctive decisions (docs/policies/linux24.md) on tiny machines: the
 * NICE_TO_TICKS quantum, the HT sibling tweak in reschedule_idle, sleepers
 * gaining up to twice the quantum through the recalculation, the
 * PROC_CHANGE_PENALTY cache affinity, and the O(n) scan cost.
 *
 * Every run has the engine's invariant checks on, which also run the
 * policy's own check op after each event.
 */
#include <string.h>

#include "base/spec.h"
#include "hw/machine.h"
#include "policy/linux24/linux24.h"
#include "policy/policy.h"
#include "sim/sim.h"
#include "test.h"

/* ---- a scripted program: do acts[] in order, note when each began ---- */

#define LX_MAX_ACTS 40

struct lx_script {
	int n, pc;
	struct sl_action acts[LX_MAX_ACTS];
	sl_time at[LX_MAX_ACTS + 1];	/* when act i was asked for (the previous one done) */
};

static void lx_script_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct lx_script *s = t->prog_state;

	s->at[s->pc] = sl_now(sim);
	*next = s->pc < s->n ? s->acts[s->pc++] : sl_act_exit();
}

static const struct sl_prog lx_script_prog = { .name = "lx_script", .step = lx_script_step };

static struct lx_script *lx_script_new(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct lx_script));
}

static void lx_add(struct lx_script *s, struct sl_action a)
{
	if (s->n < LX_MAX_ACTS)
		s->acts[s->n++] = a;
}

static void lx_add_fork(struct lx_script *s, struct lx_script *child, const char *comm)
{
	lx_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
				      .u.fork = { .prog = &lx_script_prog, .state = child,
						  .comm = comm } });
}

/* A child that computes `ms` of work and exits. */
static struct lx_script *lx_hog(struct sl_sim *sim, double ms)
{
	struct lx_script *s = lx_script_new(sim);
	lx_add(s, sl_act_run(ms * SL_MSEC, SL_WC_INT));
	return s;
}

/* A root that forks the given children, then reaps them all. */
static struct lx_script *lx_root(struct sl_sim *sim, struct lx_script **kids, int n,
				 const char *const *comms)
{
	struct lx_script *root = lx_script_new(sim);
	for (int i = 0; i < n; i++)
		lx_add_fork(root, kids[i], comms[i]);
	for (int i = 0; i < n; i++)
		lx_add(root, sl_act_wait());
	return root;
}

/* ---- building a run ---- */

struct lx_run {
	struct sl_machine machine;
	struct sl_params knobs;
	struct sl_sim *sim;
	struct sl_err err;
};

/* Create a run of `policy` (a linux24 spec) on `machine`; false on error. */
static bool lx_start(struct lx_run *r, const char *machine, const char *policy, sl_time limit)
{
	struct sl_spec spec;

	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &r->err) ||
	    sl_spec_parse(&spec, policy, "policy", &r->err) ||
	    sl_spec_bind(&r->knobs, &spec, sl_policy_linux24.knobs, NULL, "policy 'linux24'",
			 &r->err)) {
		fprintf(stderr, "lx_start: %s\n", r->err.msg);
		return false;
	}
	struct sl_sim_config cfg = {
		.machine = &r->machine,
		.policy = &sl_policy_linux24,
		.knobs = &r->knobs,
		.seed = 1,
		.time_limit = limit,
		.check = true,
	};
	r->sim = sl_sim_create(&cfg, &r->err);
	if (!r->sim)
		fprintf(stderr, "lx_start: %s\n", r->err.msg);
	return r->sim != NULL;
}

static int lx_run(struct lx_run *r)
{
	int rc = sl_sim_run(r->sim, &r->err);
	if (rc)
		fprintf(stderr, "lx_run: %s\n", r->err.msg);
	return rc;
}

static struct sl_task *lx_find(struct sl_sim *sim, const char *comm)
{
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t))
		if (!strcmp(t->comm, comm))
			return t;
	return NULL;
}

/* ---- knobs ---- */

static int lx_bind(const char *text, struct sl_params *p, struct sl_err *err)
{
	struct sl_spec spec;

	if (sl_spec_parse(&spec, text, "policy", err))
		return -1;
	return sl_spec_bind(p, &spec, sl_policy_linux24.knobs, NULL, "policy 'linux24'", err);
}

SL_TEST(linux24_knobs)
{
	struct sl_params p;
	struct sl_err err = { 0 };

	CHECK(lx_bind("linux24", &p, &err) == 0);
	CHECK(!sl_param_given(&p, "hz"));	/* the machine's arch's */
	CHECK(!sl_param_given(&p, "proc_change_penalty"));
	CHECK(!sl_param_given(&p, "scan_ns"));	/* the machine's cost */
	CHECK(!sl_param_given(&p, "recalc_ns"));
	CHECK(!sl_param_given(&p, "ht_tweak"));	/* on for i386 only */
	CHECK(sl_param_choice(&p, "exit_return") == 0);

	CHECK(lx_bind("linux24:hz=1000,ht_tweak=off", &p, &err) == 0);
	CHECK(sl_param_int(&p, "hz") == 1000);
	CHECK(sl_param_choice(&p, "ht_tweak") == 1);

	err = (struct sl_err){ 0 };
	CHECK(lx_bind("linux24:ht_tweak=maybe", &p, &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(strstr(err.msg, "ht_tweak") != NULL);
	err = (struct sl_err){ 0 };
	CHECK(lx_bind("linux24:hz=5", &p, &err) == -1 && err.kind == SL_ERR_INPUT);
	err = (struct sl_err){ 0 };
	CHECK(lx_bind("linux24:scan=1", &p, &err) == -1 && strstr(err.msg, "scan") != NULL);

	/* every knob documented; a derived default says how */
	for (const struct sl_param_def *d = sl_policy_linux24.knobs; d->name; d++)
		CHECK(d->doc && d->doc[0] && (d->def || strstr(d->doc, "default")));
}

/* ---- quantum: NICE_TO_TICKS at HZ ---- */

/* Two hogs of 1 s at `nice` on one CPU: how often is one preempted? */
static long lx_preemptions_on(const char *machine, const char *policy, int nice)
{
	struct lx_run r;
	if (!lx_start(&r, machine, policy, 0))
		return -1;
	struct lx_script *root = lx_script_new(r.sim);
	for (int i = 0; i < 2; i++) {
		lx_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
			.u.fork = { .prog = &lx_script_prog, .state = lx_hog(r.sim, 1000),
				    .comm = "hog", .set_nice = true, .nice = nice } });
	}
	lx_add(root, sl_act_wait());
	lx_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &lx_script_prog, root, "root");
	long n = -1;
	if (lx_run(&r) == 0) {
		struct sl_run_stats st;
		sl_sim_stats(r.sim, &st);
		n = st.nivcsw;
	}
	sl_sim_destroy(r.sim);
	return n;
}

static long lx_preemptions(const char *policy, int nice)
{
	return lx_preemptions_on("pack:1 core:1 pu:1", policy, nice);
}

/*
 * When the second hog uses up its quantum both counters are 0: the
 * recalculation gives both NICE_TO_TICKS and the one that just ran wins
 * again by the same-mm +1, so each runs two quanta in a row.
 */
SL_TEST(linux24_quantum)
{
	/* HZ=100, nice 0: (20 >> 2) + 1 = 6 ticks; 2 s / 120 ms ~ 17 slices */
	long n = lx_preemptions("linux24", 0);
	CHECKF(n >= 14 && n <= 21, "hz=100 nice 0: %ld preemptions", n);
	/* nice 19: (1 >> 2) + 1 = 1 tick; 2 s / 20 ms ~ 100 */
	n = lx_preemptions("linux24", 19);
	CHECKF(n >= 90 && n <= 110, "hz=100 nice 19: %ld preemptions", n);
	/* nice -20: (40 >> 2) + 1 = 11 ticks; 2 s / 220 ms ~ 9 */
	n = lx_preemptions("linux24", -20);
	CHECKF(n >= 7 && n <= 13, "hz=100 nice -20: %ld preemptions", n);
	/* HZ=1000, nice 0: (20 << 1) + 1 = 41 ticks; 2 s / 82 ms ~ 24 */
	n = lx_preemptions("linux24:hz=1000", 0);
	CHECKF(n >= 21 && n <= 27, "hz=1000 nice 0: %ld preemptions", n);
	/* an ia64 kernel ticks at 1024 Hz: 41 ticks of 0.98 ms; 2 s / 80 ms ~ 25 */
	n = lx_preemptions_on("pack:1 core:1 pu:1,arch=ia64", "linux24", 0);
	CHECKF(n >= 22 && n <= 28, "ia64 nice 0: %ld preemptions", n);
}

/*
 * A tick inside schedule() is prev's (2.4.27: runqueue_lock is taken with
 * interrupts off, the tick comes after the unlock, before switch_to): the
 * task switched in keeps its whole quantum however long the scan took.
 * Twenty hogs on one CPU, 1 ms per task examined: every schedule() takes
 * 20 ms, two ticks.  Each slice then runs its 6 ticks of work after the
 * scan (50.7 ms a slice on average, recalculations and the same-mm
 * repicks included); counting the ticks inside schedule() against the new
 * task left 42.1 ms.
 */
/* n hogs of `ms` each forked by a root that reaps `waits` of them, run
 * until they are done or `limit` (0: none); the run's totals in *st. */
static int lx_hogs(const char *machine, const char *policy, sl_time limit, int n, double ms,
		   int waits, struct sl_run_stats *st)
{
	struct lx_run r;
	if (!lx_start(&r, machine, policy, limit))
		return -1;
	struct lx_script *root = lx_script_new(r.sim);
	for (int i = 0; i < n; i++)
		lx_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
			.u.fork = { .prog = &lx_script_prog, .state = lx_hog(r.sim, ms),
				    .comm = "hog" } });
	for (int i = 0; i < waits; i++)
		lx_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &lx_script_prog, root, "root");
	int rc = lx_run(&r);
	if (rc == 0)
		sl_sim_stats(r.sim, st);
	sl_sim_destroy(r.sim);
	return rc;
}

SL_TEST(linux24_tick_in_schedule_is_prevs)
{
	struct sl_run_stats st = { 0 };
	CHECK(lx_hogs("pack:1 core:1 pu:1", "linux24:scan_ns=1000000,recalc_ns=0", 0, 20, 200, 20,
		      &st) == 0);
	double per_slice_ms = st.nivcsw > 0 ? sl_ns_to_s(st.user_ns) * 1e3 / (double)st.nivcsw : 0;
	CHECKF(per_slice_ms >= 47 && per_slice_ms <= 61, "%.1f ms of work per slice (%ld slices)",
	       per_slice_ms, st.nivcsw);
}

/*
 * Spinning on runqueue_lock is wall time: a CPU whose sibling is busy is
 * not slower at waiting.  Forty hogs on two HT cores, 1 ms per task
 * scanned: every schedule() holds the lock 40 ms and the other three CPUs
 * wait for it.  Over 5 s (20 CPU-seconds) the hogs get 6.27 s of work;
 * 4.26 s with the wait paid as work at the sibling pair's speed (on 1,024
 * CPUs that, with the ticks inside schedule() counted against the task
 * switched in, made hackbench stall for good).  Every hog whose quantum
 * ran out takes the tick inside the schedule() that switches it out, and
 * its need_resched with it: switched in again, it goes straight back into
 * schedule(), one more 40 ms scan (8.12 and 7.58 s before that rule,
 * Dec 2026).  With preempt=full: the
 * figure is the lock's alone.  Without CONFIG_PREEMPT (2.4's default) a
 * task whose quantum runs out while it still pays the scan at its sibling
 * pair's speed (beyond the wall time schedule() held the lock, after which
 * ticks count on it) switches only once that is paid, and the hogs get
 * 4.94 s (6.4 s before the need_resched rule).
 */
SL_TEST(linux24_lock_spin_is_wall_time)
{
	struct sl_run_stats st = { 0 };
	CHECK(lx_hogs("pack:1 core:2 pu:2", "linux24:scan_ns=1000000,recalc_ns=0,preempt=full",
		      5 * SL_SEC, 40, 10000, 1, &st) == 0);
	CHECKF(sl_ns_to_s(st.user_ns) > 5.6, "%.2f s of work in 5 s on 4 CPUs",
	       sl_ns_to_s(st.user_ns));
}

/* ---- the HT sibling tweak ---- */

/* Two hogs forked on a 2x2 HT box built for `arch`; after 50 ms, are they
 * on one package? */
static int lx_hogs_share_package(const char *arch, const char *policy)
{
	char machine[64];
	snprintf(machine, sizeof(machine), "pack:2 core:1 pu:2,arch=%s", arch);
	struct lx_run r;
	if (!lx_start(&r, machine, policy, 50 * SL_MSEC))
		return -1;
	struct lx_script *kids[2] = { lx_hog(r.sim, 500), lx_hog(r.sim, 500) };
	static const char *const comms[2] = { "a", "b" };
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 2, comms), "root");
	int shared = -1;
	if (lx_run(&r) == 0) {
		const struct sl_topo *topo = sl_topo(r.sim);
		struct sl_task *a = lx_find(r.sim, "a"), *b = lx_find(r.sim, "b");
		if (a && b && a->cpu >= 0 && b->cpu >= 0)
			shared = topo->cpu_package[a->cpu] == topo->cpu_package[b->cpu];
	}
	sl_sim_destroy(r.sim);
	return shared;
}

SL_TEST(linux24_ht_tweak)
{
	/* on (i386's default): the first child goes to the wholly idle package */
	CHECK(lx_hogs_share_package("i386", "linux24") == 0);
	/* off: the least recently active idle CPU is the parent's sibling, and
	 * 2.4 has no load balancer to undo it */
	CHECK(lx_hogs_share_package("i386", "linux24:ht_tweak=off") == 1);
	/* 2.4.27 compiled the check for i386 only: off on x86_64 and ia64
	 * unless asked for */
	CHECK(lx_hogs_share_package("x86_64", "linux24") == 1);
	CHECK(lx_hogs_share_package("ia64", "linux24") == 1);
	CHECK(lx_hogs_share_package("x86_64", "linux24:ht_tweak=on") == 0);
}

/* ---- sched_yield ---- */

/*
 * One CPU: A does 10 x { 1 ms of work; sched_yield }, B is a 20 ms hog
 * forked after it.  2.4.27's sys_sched_yield marks A SCHED_YIELD and puts
 * it at the tail while B waits (nr_pending 1), so goodness() ranks it below
 * B and B runs its whole 20 ms (its quantum is 60 ms) before A goes on: B
 * ends at about 21 ms, A at about 30.  Without SCHED_YIELD, A, first on
 * the runqueue with as good a counter, was picked again at every yield and
 * finished first.
 */
SL_TEST(linux24_yield_passes_the_cpu)
{
	struct lx_run r;
	CHECK(lx_start(&r, "pack:1 core:1 pu:1,arch=i386", "linux24", 0));
	struct lx_script *a = lx_script_new(r.sim);
	for (int i = 0; i < 10; i++) {
		lx_add(a, sl_act_run(1 * SL_MSEC, SL_WC_INT));
		lx_add(a, (struct sl_action){ .kind = SL_ACT_YIELD });
	}
	struct lx_script *kids[2] = { a, lx_hog(r.sim, 20) };
	static const char *const comms[2] = { "a", "b" };
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 2, comms), "root");
	CHECK(lx_run(&r) == 0);
	double a_end = sl_ns_to_s(a->at[a->n]) * 1e3, b_end = sl_ns_to_s(kids[1]->at[1]) * 1e3;
	CHECKF(b_end < 23 && a_end > b_end + 8, "A ends at %.2f ms, B at %.2f ms", a_end, b_end);
	sl_sim_destroy(r.sim);
}

/*
 * sys_sched_yield moves the yielder to the tail under
 * spin_lock_irq(&runqueue_lock): the hold is the yielder's system time,
 * one list operation (scan_ns).  Two tasks on one CPU yield to each other
 * after every 1 ms of work; with scan_ns = 1 ms each yield holds the lock
 * 1 ms besides the schedule() that follows.
 * Their system time over their user time at 30 ms, or -1.
 */
static double lx_yielders_sys_share(void)
{
	struct lx_run r;
	double share = -1;

	if (!lx_start(&r, "pack:1 core:1 pu:1,arch=i386", "linux24:scan_ns=1000000,recalc_ns=0",
		      30 * SL_MSEC))
		return -1;
	struct lx_script *kids[2];
	for (int k = 0; k < 2; k++) {
		kids[k] = lx_script_new(r.sim);
		for (int i = 0; i < 19; i++) {
			lx_add(kids[k], sl_act_run(1 * SL_MSEC, SL_WC_INT));
			lx_add(kids[k], (struct sl_action){ .kind = SL_ACT_YIELD });
		}
	}
	static const char *const comms[2] = { "a", "b" };
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 2, comms), "root");
	if (lx_run(&r) == 0) {
		struct sl_task *a = lx_find(r.sim, "a"), *b = lx_find(r.sim, "b");
		if (a && b && a->user_ns + b->user_ns > 0)
			share = (double)(a->sys_ns + b->sys_ns) / (double)(a->user_ns + b->user_ns);
	}
	sl_sim_destroy(r.sim);
	return share;
}

SL_TEST(linux24_yield_holds_runqueue_lock)
{
	double share = lx_yielders_sys_share();
	/* measured: 4.69; 3.56 without the hold, about one ms more per ms of
	 * work */
	CHECKF(share > 4.1 && share < 5.5, "system over user time %.2f", share);
}

/*
 * 2.4.27 sys_sched_yield with no task waiting for a CPU (nr_pending 0)
 * sets no need_resched: the yielder goes back to user space without a
 * schedule(), and pays no runqueue scan for it.  A lone task yielding
 * after every 200 us has, at 3 ms, the system time of one that does not
 * yield; until Dec 2026 every yield ran schedule() and added its scan.
 */
SL_TEST(linux24_lone_yield_runs_no_schedule)
{
	sl_time sys[2] = { -1, -1 };

	for (int k = 0; k < 2; k++) {
		struct lx_run r;
		if (!lx_start(&r, "pack:1 core:1 pu:1", "linux24", 3 * SL_MSEC)) {
			CHECK(false);
			return;
		}
		struct lx_script *a = lx_script_new(r.sim);
		for (int i = 0; i < 19; i++) {	/* 38 actions of LX_MAX_ACTS */
			lx_add(a, sl_act_run(200 * SL_USEC, SL_WC_INT));
			if (k)
				lx_add(a, (struct sl_action){ .kind = SL_ACT_YIELD });
		}
		struct lx_script *kids[1] = { a };
		static const char *const comms[1] = { "a" };
		sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 1, comms), "root");
		if (lx_run(&r) == 0) {
			struct sl_task *t = lx_find(r.sim, "a");
			if (t)
				sys[k] = t->sys_ns;
		}
		sl_sim_destroy(r.sim);
	}
	CHECKF(sys[0] > 0 && sys[1] == sys[0], "system time %lld ns without yields, %lld with",
	       (long long)sys[0], (long long)sys[1]);
}

/*
 * 2.4.27 __schedule_tail() releases every task it switches out
 * (task_release_cpu) and skips only reschedule_idle() for a yielder, so a
 * yielder waiting behind a hog is taken by the first CPU that goes idle.
 * Two CPUs: a hog of 8 ms, a task that yields after each of 15 ms of
 * work, a hog of 200 ms.  When the short hog ends, its CPU picks the
 * yielder up, which ends about 8 ms later; until Dec 2026 a yielder
 * stayed bound to the CPU it yielded on and ended at about 75 ms, the
 * other CPU idle from 8 to 63 ms.
 */
SL_TEST(linux24_yielder_is_released_to_any_cpu)
{
	struct lx_run r;
	CHECK(lx_start(&r, "pack:1 core:2 pu:1,arch=i386", "linux24", 0));
	struct lx_script *y = lx_script_new(r.sim);
	for (int i = 0; i < 15; i++) {
		lx_add(y, sl_act_run(1 * SL_MSEC, SL_WC_INT));
		lx_add(y, (struct sl_action){ .kind = SL_ACT_YIELD });
	}
	struct lx_script *kids[3] = { lx_hog(r.sim, 8), y, lx_hog(r.sim, 200) };
	static const char *const comms[3] = { "h1", "y", "h2" };
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 3, comms), "root");
	CHECK(lx_run(&r) == 0);
	double y_end = sl_ns_to_s(y->at[y->n]) * 1e3, h1_end = sl_ns_to_s(kids[0]->at[1]) * 1e3;
	CHECKF(h1_end < 10 && y_end < h1_end + 15, "the yielder ends at %.2f ms, the short hog at %.2f ms",
	       y_end, h1_end);
	sl_sim_destroy(r.sim);
}

/* ---- no CONFIG_PREEMPT: kernel work runs to its return to user space ---- */

/*
 * One CPU: a task in 300 ms of kernel work (one system call), then 10 ms of
 * user work, beside one that sleeps 50 ms and then computes.  With `call`
 * other than LX_ONE_CALL the task first does another 300 ms of kernel work
 * and a read, either of its own call or the start of the call the 300 ms
 * after it belong to.  Returns how late the sleeper started after its
 * sleep, or -1.
 */
enum lx_call { LX_ONE_CALL, LX_READ_THEN_COPY, LX_READ_ALONE };

static sl_time lx_kernel_work_wake_delay(const char *policy, enum lx_call call)
{
	struct lx_run r;
	sl_time delay = -1;

	if (!lx_start(&r, "pack:1 core:1 pu:1,arch=i386", policy, 0))
		return -1;
	struct lx_script *sys = lx_script_new(r.sim);
	if (call != LX_ONE_CALL) {
		/* a read of what it wrote itself (it does not block), after
		 * 300 ms of kernel work and before 300 ms more: the copy of
		 * the same read, or a call of its own */
		struct sl_chan *ch = sl_chan_new(r.sim, 64, false);
		lx_add(sys, sl_act_chan(SL_ACT_CHAN_WRITE, ch, 1));
		lx_add(sys, sl_act_sys(300 * SL_MSEC));
		lx_add(sys, call == LX_READ_THEN_COPY ? sl_act_recv(ch, 1)
						      : sl_act_chan(SL_ACT_CHAN_READ, ch, 1));
	}
	lx_add(sys, sl_act_sys(300 * SL_MSEC));
	lx_add(sys, sl_act_run(10 * SL_MSEC, SL_WC_INT));
	struct lx_script *sleeper = lx_script_new(r.sim);
	lx_add(sleeper, sl_act_sleep(50 * SL_MSEC));
	lx_add(sleeper, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	struct lx_script *kids[2] = { sleeper, sys };
	static const char *const comms[2] = { "sleeper", "sys" };
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 2, comms), "root");
	if (lx_run(&r) == 0)
		delay = sleeper->at[1] - (sleeper->at[0] + 50 * SL_MSEC);
	sl_sim_destroy(r.sim);
	return delay;
}

SL_TEST(linux24_kernel_work_runs_to_user_return)
{
	/* 2.4 (i386 entry.S ret_from_intr) reschedules only on the way back
	 * to user mode: the woken sleeper, whose counter beats the task's,
	 * waits for the system call's end, 250 ms later; with Love's
	 * preempt patch (preempt=full) it runs at once */
	sl_time none = lx_kernel_work_wake_delay("linux24", LX_ONE_CALL);
	sl_time full = lx_kernel_work_wake_delay("linux24:preempt=full", LX_ONE_CALL);
	CHECKF(none >= 245 * SL_MSEC && none <= 255 * SL_MSEC,
	       "without CONFIG_PREEMPT the sleeper started %.2f ms late", sl_ns_to_s(none) * 1e3);
	CHECKF(full >= 0 && full < 3 * SL_MSEC, "with preempt=full it started %.2f ms late",
	       sl_ns_to_s(full) * 1e3);
	/* a read returns to user space and switches there, unless its call
	 * goes on with the copy (sl_act_recv): then only after that */
	sl_time alone = lx_kernel_work_wake_delay("linux24", LX_READ_ALONE);
	sl_time copy = lx_kernel_work_wake_delay("linux24", LX_READ_THEN_COPY);
	CHECKF(alone >= 245 * SL_MSEC && alone <= 255 * SL_MSEC,
	       "after a read of its own call the sleeper started %.2f ms late",
	       sl_ns_to_s(alone) * 1e3);
	CHECKF(copy >= 545 * SL_MSEC && copy <= 555 * SL_MSEC,
	       "after a read whose call goes on it started %.2f ms late", sl_ns_to_s(copy) * 1e3);
}

/* A parent that forks and then does 300 ms of kernel work: 2.4's do_fork
 * asks for a reschedule when the parent's half of its counter is 0 (here
 * after 52 ms of its 60), and the fork's return to user space (after the
 * fork's own costs) runs the child, not the end of the next call. */
SL_TEST(linux24_fork_returns_to_user_before_next_call)
{
	struct lx_run r;
	CHECK(lx_start(&r, "pack:1 core:1 pu:1,arch=i386", "linux24", 0));
	struct lx_script *child = lx_hog(r.sim, 1);
	struct lx_script *parent = lx_script_new(r.sim);
	lx_add(parent, sl_act_run(52 * SL_MSEC, SL_WC_INT));
	lx_add_fork(parent, child, "child");
	lx_add(parent, sl_act_sys(300 * SL_MSEC));
	lx_add(parent, sl_act_wait());
	sl_sim_spawn_root(r.sim, &lx_script_prog, parent, "parent");
	CHECK(lx_run(&r) == 0);
	double late_ms = sl_ns_to_s(child->at[0] - parent->at[1]) * 1e3;
	CHECKF(late_ms > 0 && late_ms < 1, "the child started %.3f ms after the fork", late_ms);
	sl_sim_destroy(r.sim);
}

/* ---- recalculation: sleepers keep half, up to ~2x the quantum ---- */

/*
 * One CPU: a hog and a task that sleeps 500 ms (about eight recalculations
 * while only the hog runs) and then computes `ms`.  Returns the wall time
 * of that computation, or -1; *wake_delay gets how late it started.
 */
static sl_time lx_sleeper_burst(double ms, sl_time *wake_delay)
{
	struct lx_run r;
	sl_time wall = -1;

	if (!lx_start(&r, "pack:1 core:1 pu:1", "linux24", 0))
		return -1;
	struct lx_script *sleeper = lx_script_new(r.sim);
	lx_add(sleeper, sl_act_sleep(500 * SL_MSEC));
	lx_add(sleeper, sl_act_run(ms * SL_MSEC, SL_WC_INT));
	struct lx_script *kids[2] = { lx_hog(r.sim, 1500), sleeper };
	static const char *const comms[2] = { "hog", "sleeper" };
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 2, comms), "root");
	if (lx_run(&r) == 0) {
		wall = sleeper->at[2] - sleeper->at[1];
		*wake_delay = sleeper->at[1] - (sleeper->at[0] + 500 * SL_MSEC);
	}
	sl_sim_destroy(r.sim);
	return wall;
}

SL_TEST(linux24_recalc_sleeper_bonus)
{
	sl_time delay = -1;

	/* counter 11 after the sleep: goodness 46 beats the hog's <= 42, so
	 * the sleeper preempts at once and runs 80 ms (> 6 ticks) unbroken */
	sl_time wall = lx_sleeper_burst(80, &delay);
	CHECKF(delay >= 0 && delay < 3 * SL_MSEC, "woken sleeper started %lld ns late",
	       (long long)delay);
	CHECKF(wall >= 80 * SL_MSEC && wall < 90 * SL_MSEC, "80 ms burst took %lld ns",
	       (long long)wall);
	/* ... but the bonus is capped near 2x: 150 ms is cut after ~11 ticks */
	wall = lx_sleeper_burst(150, &delay);
	CHECKF(wall > 170 * SL_MSEC, "150 ms burst took %lld ns", (long long)wall);
}

/* ---- PROC_CHANGE_PENALTY keeps tasks on their CPU ---- */

static long lx_migrations(const char *policy)
{
	struct lx_run r;
	if (!lx_start(&r, "pack:2 core:1 pu:1", policy, 0))
		return -1;
	struct lx_script *kids[6];
	static const char *const comms[6] = { "a", "b", "c", "d", "e", "f" };
	for (int i = 0; i < 6; i++)
		kids[i] = lx_hog(r.sim, 1000);
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 6, comms), "root");
	long n = -1;
	if (lx_run(&r) == 0) {
		struct sl_run_stats st;
		sl_sim_stats(r.sim, &st);
		n = st.migrations;
	}
	sl_sim_destroy(r.sim);
	return n;
}

/*
 * Six hogs on two CPUs: with the bonus each CPU keeps choosing the tasks
 * that last ran on it; without it the first of equal goodness in the
 * global list wins, wherever it ran.  (With it: 4 since an exit wakes the
 * root while the dying hog is still current; 3 while the engine woke it
 * only after the hog's CPU had picked.  Which move is the fourth is not
 * traced.)
 */
SL_TEST(linux24_proc_change_penalty)
{
	long sticky = lx_migrations("linux24");
	long loose = lx_migrations("linux24:proc_change_penalty=0");
	CHECKF(sticky >= 0 && loose >= 0 && sticky <= 4 && 4 * sticky < loose,
	       "migrations: %ld with the penalty, %ld without", sticky, loose);
}

/* ---- the O(n) scan under the global lock shows as system time ---- */

/* System time per simulated second on `machine` with `ntasks` hogs: the
 * quantum is the same for any number of hogs, so schedule() runs about as
 * often, and only the scan's length changes.  The hogs start together (not
 * forked: a forking parent whose counter halves to 0 is preempted on its
 * return from fork, so a loop of forks starts them over several epochs). */
static double lx_sys_per_second(const char *machine, int ntasks, const char *policy)
{
	struct lx_run r;
	if (!lx_start(&r, machine, policy, 0))
		return -1;
	struct lx_script *kids[16];
	static const char *const comms[16] = { "h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7",
					       "h8", "h9", "h10", "h11", "h12", "h13", "h14", "h15" };
	for (int i = 0; i < ntasks; i++) {
		kids[i] = lx_hog(r.sim, 300);
		sl_sim_spawn_root(r.sim, &lx_script_prog, kids[i], comms[i]);
	}
	double per = -1;
	if (lx_run(&r) == 0) {
		sl_time sys = 0;
		for (int c = 0; c < sl_topo(r.sim)->ncpus; c++)
			sys += sl_sim_cpu_stats(r.sim, c)->sys_ns;
		per = sl_now(r.sim) > 0 ? (double)sys / sl_ns_to_s(sl_now(r.sim)) : -1;
	}
	sl_sim_destroy(r.sim);
	return per;
}

/* Scheduler cost per second: with the scan at 10 us minus at 0. */
static double lx_scan_cost(const char *machine, int ntasks)
{
	double with = lx_sys_per_second(machine, ntasks, "linux24:scan_ns=10000,recalc_ns=0");
	double without = lx_sys_per_second(machine, ntasks, "linux24:scan_ns=0,recalc_ns=0");
	return with < 0 || without < 0 ? -1 : with - without;
}

SL_TEST(linux24_scan_cost)
{
	double two = lx_scan_cost("pack:1 core:1 pu:1", 2);
	double sixteen = lx_scan_cost("pack:1 core:1 pu:1", 16);
	CHECKF(two > 0 && sixteen > 4 * two, "scan cost per second: %.0f ns (2 tasks), "
	       "%.0f ns (16 tasks)", two, sixteen);
	/* four CPUs rescheduling on the same tick spin on runqueue_lock */
	double smp = lx_scan_cost("pack:4 core:1 pu:1", 16);
	CHECKF(smp > sixteen, "per second: %.0f ns on 4 CPUs, %.0f ns on 1", smp, sixteen);
}

/* ---- recalculation cost is over all tasks, sleeping ones too ---- */

SL_TEST(linux24_recalc_cost)
{
	/* a hog alone recalculates every 6 ticks; 30 sleepers make each
	 * recalculation 31x dearer but the scan no longer */
	const char *pol = "linux24:scan_ns=0,recalc_ns=100000";
	sl_time sys[2] = { -1, -1 };

	for (int v = 0; v < 2; v++) {
		struct lx_run r;
		if (!lx_start(&r, "pack:1 core:1 pu:1", pol, 0))
			return;
		struct lx_script *root = lx_script_new(r.sim);
		int nsleep = v ? 30 : 0;
		for (int i = 0; i < nsleep; i++) {
			struct lx_script *s = lx_script_new(r.sim);
			lx_add(s, sl_act_sleep(2 * SL_SEC));
			lx_add_fork(root, s, "sleeper");
		}
		lx_add_fork(root, lx_hog(r.sim, 600), "hog");
		for (int i = 0; i <= nsleep; i++)
			lx_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &lx_script_prog, root, "root");
		if (lx_run(&r) == 0)
			sys[v] = sl_sim_cpu_stats(r.sim, 0)->sys_ns;
		sl_sim_destroy(r.sim);
	}
	/* ~10 recalculations in 600 ms: 10 x 30 x 100 us = 30 ms more */
	CHECKF(sys[0] >= 0 && sys[1] - sys[0] > 20 * SL_MSEC,
	       "sys %lld ns alone, %lld ns with 30 sleepers", (long long)sys[0],
	       (long long)sys[1]);
}

/*
 * schedule() that keeps prev (same_process) runs with interrupts off as
 * well (spin_lock_irq ... spin_unlock_irq before the prev == next test):
 * of the ticks that come meanwhile one is taken, at the unlock.  A hog
 * alone with 30 sleepers, 1 ms per task recalculated (32 ms, three ticks
 * at HZ 100): at every end of its quantum schedule() recalculates and
 * keeps it.  Counting every tick of those 32 ms against the 6 the
 * recalculation gave back left 25 ms of work per recalculation, one tick
 * 38 ms (measured, below).  The CPU's system time over its user time, or
 * -1.
 */
static double lx_same_process_sys_share(void)
{
	struct lx_run r;
	double share = -1;

	if (!lx_start(&r, "pack:1 core:1 pu:1", "linux24:scan_ns=0,recalc_ns=1000000", 0))
		return -1;
	struct lx_script *root = lx_script_new(r.sim);
	for (int i = 0; i < 30; i++) {
		struct lx_script *sl = lx_script_new(r.sim);
		lx_add(sl, sl_act_sleep(20 * SL_SEC));
		lx_add_fork(root, sl, "sleeper");
	}
	lx_add_fork(root, lx_hog(r.sim, 1000), "hog");
	for (int i = 0; i <= 30; i++)
		lx_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &lx_script_prog, root, "root");
	if (lx_run(&r) == 0) {
		const struct sl_cpu_stats *c = sl_sim_cpu_stats(r.sim, 0);
		share = c->user_ns > 0 ? (double)c->sys_ns / (double)c->user_ns : -1;
	}
	sl_sim_destroy(r.sim);
	return share;
}

SL_TEST(linux24_same_process_takes_one_tick)
{
	double share = lx_same_process_sys_share();
	/* 0.85 (32 ms of recalculation per 38 ms of work); 1.30 counting
	 * every tick (per 25 ms) */
	CHECKF(share > 0.6 && share < 1.05, "system over user time %.2f", share);
}

/*
 * add_to_runqueue's end (runqueue_add): two SCHED_FIFO tasks of one
 * priority, equal in goodness, are released together from a barrier by
 * the root on one CPU; the first of equals in list order wins the scan.
 * 2.4.27 adds at the tail, so the one woken first runs first; earlier
 * 2.4's list_add put the one woken last in front.  Which task ends
 * first: 'a', 'b', or 0.
 */
static char lx_first_of_equals(const char *policy)
{
	struct lx_run r;
	char first = 0;

	if (!lx_start(&r, "pack:1 core:1 pu:1,arch=i386", policy, 0))
		return 0;
	struct sl_barrier *bar = sl_barrier_new(r.sim, 3);
	struct lx_script *kids[2], *root = lx_script_new(r.sim);
	static const char *const comms[2] = { "a", "b" };
	for (int k = 0; k < 2; k++) {
		kids[k] = lx_script_new(r.sim);
		lx_add(kids[k], (struct sl_action){ .kind = SL_ACT_SETSCHED,
						    .u.setsched = { .sched_policy = SL_SCHED_FIFO,
								    .rt_priority = 10 } });
		lx_add(kids[k], sl_act_barrier(bar));
		lx_add(kids[k], sl_act_run(5 * SL_MSEC, SL_WC_INT));
		lx_add_fork(root, kids[k], comms[k]);
	}
	lx_add(root, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	lx_add(root, sl_act_barrier(bar));
	lx_add(root, sl_act_wait());
	lx_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &lx_script_prog, root, "root");
	if (lx_run(&r) == 0) {
		sl_time a = kids[0]->at[3], b = kids[1]->at[3];
		first = a < b ? 'a' : b < a ? 'b' : 0;
	}
	sl_sim_destroy(r.sim);
	return first;
}

SL_TEST(linux24_runqueue_add_end)
{
	char tail = lx_first_of_equals("linux24");
	char head = lx_first_of_equals("linux24:runqueue_add=head");
	CHECKF(tail && head && tail != head, "first to end: %c at the tail, %c at the head",
	       tail ? tail : '-', head ? head : '-');
}

/* ---- exiting children give their counter back (release_task) ---- */

/* A shell-like loop on one CPU: fork a 2 ms child, wait for it, 20 times.
 * Recalculations are made expensive so that they can be counted. */
static sl_time lx_fork_loop_sys(const char *policy)
{
	struct lx_run r;
	sl_time sys = -1;

	if (!lx_start(&r, "pack:1 core:1 pu:1", policy, 0))
		return -1;
	struct lx_script *root = lx_script_new(r.sim);
	for (int i = 0; i < 20; i++) {
		lx_add_fork(root, lx_hog(r.sim, 2), "child");
		lx_add(root, sl_act_wait());
	}
	sl_sim_spawn_root(r.sim, &lx_script_prog, root, "root");
	if (lx_run(&r) == 0)
		sys = sl_sim_cpu_stats(r.sim, 0)->sys_ns;
	sl_sim_destroy(r.sim);
	return sys;
}

SL_TEST(linux24_exit_return)
{
	/* without the return the parent's counter halves to 0 after three
	 * forks, its children start at 0, and every wait finds nothing but
	 * zero counters: a recalculation per child */
	sl_time back = lx_fork_loop_sys("linux24:scan_ns=0,recalc_ns=1000000");
	sl_time lost = lx_fork_loop_sys("linux24:scan_ns=0,recalc_ns=1000000,exit_return=off");
	CHECKF(back >= 0 && lost - back > 10 * SL_MSEC,
	       "sys %lld ns with the return, %lld ns without", (long long)back, (long long)lost);
}

/* ---- sync wakeups keep a pipe pair on one CPU ---- */

struct lx_pingpong {
	struct sl_chan *in, *out;
	bool serves;		/* reads first, then answers */
	int rounds;
	int done;		/* actions done */
};

enum { LX_PP_RUN, LX_PP_WRITE, LX_PP_READ };

static void lx_pingpong_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	/* each side keeps computing after it wakes the other: a sync wakeup
	 * is a promise the kernel cannot check */
	static const int client[4] = { LX_PP_RUN, LX_PP_WRITE, LX_PP_RUN, LX_PP_READ };
	static const int server[4] = { LX_PP_READ, LX_PP_RUN, LX_PP_WRITE, LX_PP_RUN };
	struct lx_pingpong *p = t->prog_state;
	(void)sim;

	if (p->done == 4 * p->rounds) {
		*next = sl_act_exit();
		return;
	}
	int what = (p->serves ? server : client)[p->done++ % 4];
	if (what == LX_PP_RUN)
		*next = sl_act_run(200 * SL_USEC, SL_WC_INT);
	else if (what == LX_PP_WRITE)
		*next = (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = p->out, .bytes = 1 } };
	else
		*next = (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = p->in, .bytes = 1 } };
}

static const struct sl_prog lx_pingpong_prog = { .name = "lx_pingpong", .step = lx_pingpong_step };

/* Busy time of the less busy of two CPUs, as a fraction of the busier. */
static double lx_pingpong_balance(bool sync)
{
	struct lx_run r;
	double frac = -1;

	/* tick=ordered: with 2.4's staggered ticks the writer's quantum runs
	 * out at a phase where schedule()'s reschedule_idle of the preempted
	 * writer kicks the other CPU some rounds (0.64 of the busier CPU with
	 * sync, 1.00 without): still the sync effect, less cleanly */
	if (!lx_start(&r, "pack:2 core:1 pu:1", "linux24:tick=ordered", 0))
		return -1;
	struct sl_chan *ab = sl_chan_new(r.sim, 4096, sync);
	struct sl_chan *ba = sl_chan_new(r.sim, 4096, sync);
	if (sync) {	/* the sync rule alone: a real pipe's 1-byte write is async */
		sl_chan_sync_always(ab);
		sl_chan_sync_always(ba);
	}
	struct lx_pingpong *client = sl_sim_alloc(r.sim, sizeof(*client));
	struct lx_pingpong *server = sl_sim_alloc(r.sim, sizeof(*server));
	*client = (struct lx_pingpong){ .in = ba, .out = ab, .serves = false, .rounds = 300 };
	*server = (struct lx_pingpong){ .in = ab, .out = ba, .serves = true, .rounds = 300 };
	struct lx_script *root = lx_script_new(r.sim);
	lx_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &lx_pingpong_prog, .state = client, .comm = "client" } });
	lx_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &lx_pingpong_prog, .state = server, .comm = "server" } });
	lx_add(root, sl_act_wait());
	lx_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &lx_script_prog, root, "root");
	if (lx_run(&r) == 0) {
		const struct sl_cpu_stats *c0 = sl_sim_cpu_stats(r.sim, 0);
		double b0 = (double)(c0->user_ns + c0->sys_ns);
		const struct sl_cpu_stats *c1 = sl_sim_cpu_stats(r.sim, 1);
		double b1 = (double)(c1->user_ns + c1->sys_ns);
		frac = (b0 < b1 ? b0 : b1) / (b0 > b1 ? b0 : b1);
	}
	sl_sim_destroy(r.sim);
	return frac;
}

SL_TEST(linux24_sync_wakeup)
{
	/* sync: the woken reader waits for the writer's CPU, which it gets
	 * when the writer blocks reading the answer */
	double sync = lx_pingpong_balance(true);
	/* not sync: reschedule_idle pokes the idle CPU, and the two overlap */
	double async = lx_pingpong_balance(false);
	CHECKF(sync >= 0 && sync < 0.1 && async > 0.5, "less busy CPU: %.2f of the busier "
	       "with sync wakeups, %.2f without", sync, async);
}

/* ---- an idle CPU poked in vain keeps its idle-since time ---- */

/*
 * Three CPUs.  B runs on CPU 1 until 2 ms, D on CPU 2 until 4 ms: CPU 1 is
 * the least recently active idle CPU.  At 6 ms root forks E and sleeps:
 * reschedule_idle(E) pokes CPU 1, but CPU 0, left by root at once, takes
 * E first, and CPU 1's schedule() finds nothing (prev == next, idle).  E
 * then forks F while CPU 0 is busy: the CPU F runs on, or -1.
 */
static int lx_cpu_after_vain_poke(void)
{
	struct lx_run r;
	int cpu = -1;

	if (!lx_start(&r, "pack:1 core:3 pu:1", "linux24", 7 * SL_MSEC))
		return -1;
	struct lx_script *e = lx_script_new(r.sim);
	lx_add(e, sl_act_run(0.5 * SL_MSEC, SL_WC_INT));
	lx_add_fork(e, lx_hog(r.sim, 5), "F");
	lx_add(e, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	struct lx_script *root = lx_script_new(r.sim);
	lx_add_fork(root, lx_hog(r.sim, 2), "B");
	lx_add_fork(root, lx_hog(r.sim, 4), "D");
	lx_add(root, sl_act_run(6 * SL_MSEC, SL_WC_INT));
	lx_add_fork(root, e, "E");
	lx_add(root, sl_act_sleep(10 * SL_MSEC));
	sl_sim_spawn_root(r.sim, &lx_script_prog, root, "root");
	if (lx_run(&r) == 0) {
		struct sl_task *b = lx_find(r.sim, "B"), *d = lx_find(r.sim, "D");
		struct sl_task *et = lx_find(r.sim, "E"), *f = lx_find(r.sim, "F");
		if (b && d && et && f && b->last_cpu == 1 && d->last_cpu == 2 && et->cpu == 0)
			cpu = f->cpu;
	}
	sl_sim_destroy(r.sim);
	return cpu;
}

/* 2.4.27 schedule(): an idle CPU that picks idle again takes the
 * same_process path, which skips last_schedule = get_cycles(). */
SL_TEST(linux24_vain_poke_keeps_idle_age)
{
	int cpu = lx_cpu_after_vain_poke();
	CHECKF(cpu == 1, "F ran on CPU %d: the CPU idle since 2 ms is 1", cpu);
}

/*
 * 2.4.27 schedule() stamps last_schedule with get_cycles() after
 * spin_unlock_irq(&runqueue_lock): after the scan it paid for.  One CPU,
 * 1 ms per task examined: A runs 5 ms and sleeps, and the schedule() that
 * finds nothing to run examines no task but still walks an empty list (a
 * scan of one, 1 ms).  Returns last_schedule minus the moment A blocked,
 * or -1.  (Until Dec 2026 the stamp was schedule()'s start: 0.)
 */
static sl_time lx_idle_stamp_after_block(void)
{
	struct lx_run r;
	if (!lx_start(&r, "pack:1 core:1 pu:1", "linux24:scan_ns=1000000,recalc_ns=0",
		      50 * SL_MSEC))
		return -1;
	struct lx_script *a = lx_script_new(r.sim);
	lx_add(a, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	lx_add(a, sl_act_sleep(100 * SL_MSEC));
	struct lx_script *kids[1] = { a };
	static const char *const comms[1] = { "A" };
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 1, comms), "root");
	sl_time lag = -1;
	if (lx_run(&r) == 0 && a->n >= 2 && a->at[1] > 0)
		lag = linux24_state(r.sim)->last_schedule[0] - a->at[1];
	sl_sim_destroy(r.sim);
	return lag;
}

SL_TEST(linux24_last_schedule_after_the_unlock)
{
	sl_time lag = lx_idle_stamp_after_block();
	CHECKF(lag >= SL_MSEC && lag < 2 * SL_MSEC, "last_schedule %.3f ms after A blocked",
	       (double)lag / SL_MSEC);
}

/* ---- the tick inside schedule() counts on prev ---- */

/*
 * One CPU, HZ 100, 1 ms per task examined and eight hogs: a schedule()
 * holds the CPU about 9 ms.  A sleeper runs 1 ms and sleeps 30 ms, 19
 * times.  When it blocks, the schedule() that switches it out usually
 * takes a tick in its context, one off its quantum (2.4.27
 * update_process_times() on current, which is still prev), so after a
 * few sleeps its counter is gone: its wakeups no longer preempt a hog
 * (preemption_goodness) and it waits for the next recalculation.  Returns
 * the sleeper's summed delay from the end of each sleep to its next run,
 * or -1.
 */
static sl_time lx_sleeper_delay(void)
{
	struct lx_run r;
	if (!lx_start(&r, "pack:1 core:1 pu:1", "linux24:scan_ns=1000000,recalc_ns=0", 0))
		return -1;
	struct lx_script *sleeper = lx_script_new(r.sim);
	for (int i = 0; i < 19; i++) {
		lx_add(sleeper, sl_act_run(1 * SL_MSEC, SL_WC_INT));
		lx_add(sleeper, sl_act_sleep(30 * SL_MSEC));
	}
	struct lx_script *kids[9] = { sleeper };
	static const char *const comms[9] = { "sleeper", "hog", "hog", "hog", "hog", "hog", "hog",
					      "hog", "hog" };
	for (int i = 1; i < 9; i++)
		kids[i] = lx_hog(r.sim, 1000);
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 9, comms), "root");
	sl_time delay = -1;
	if (lx_run(&r) == 0) {
		delay = 0;
		for (int i = 1; i + 1 < sleeper->n; i += 2)
			delay += sleeper->at[i + 1] - sleeper->at[i] - 30 * SL_MSEC;
	}
	sl_sim_destroy(r.sim);
	return delay;
}

/* 1,384 ms in all; 162 ms while the tick inside schedule() counted on
 * nobody, when every wakeup preempted a hog at once. */
SL_TEST(linux24_tick_in_schedule_counts_on_prev)
{
	sl_time d = lx_sleeper_delay();
	CHECKF(d > 700 * SL_MSEC, "the sleeper waited %.1f ms after its sleeps",
	       (double)d / SL_MSEC);
}

/* ---- idle CPUs' ticks ---- */

/* A hog of 200 ms on one CPU of four (HZ 100, staggered): the idle CPUs'
 * ticks, which do nothing in 2.4, are not simulated (the tick stops at an
 * idle tick and restarts when the CPU picks a task); under `sync` every
 * jiffy is one event for all CPUs.  The tick events of the run, or -1. */
static long lx_tick_events(const char *policy)
{
	struct lx_run r;
	if (!lx_start(&r, "pack:1 core:4 pu:1", policy, 0))
		return -1;
	struct lx_script *kids[1] = { lx_hog(r.sim, 200) };
	static const char *const comms[1] = { "hog" };
	sl_sim_spawn_root(r.sim, &lx_script_prog, lx_root(r.sim, kids, 1, comms), "root");
	long n = -1;
	if (lx_run(&r) == 0) {
		struct sl_run_stats st;
		sl_sim_stats(r.sim, &st);
		n = (long)st.events.kind[SL_EVK_TICK];
	}
	sl_sim_destroy(r.sim);
	return n;
}

SL_TEST(linux24_idle_ticks_skipped)
{
	long staggered = lx_tick_events("linux24"), sync = lx_tick_events("linux24:tick=sync");
	CHECKF(staggered >= 20 && staggered <= 26, "%ld tick events staggered: the hog's 20, "
	       "and the idle CPUs' first", staggered);
	CHECKF(sync >= 20 && sync <= 22, "%ld tick events under sync", sync);
}

/* Two CPUs (HZ 100, staggered: CPU 1 ticks at 2/3 of each 10 ms jiffy)
 * and an IPI of 500 us.  Root runs `fork_at`, forks a child and keeps
 * running: reschedule_idle pokes idle CPU 1, which is woken from its halt
 * by the IPI or by its timer interrupt, whichever comes first (2.4.27
 * default_idle: hlt unless need_resched), though the idle CPU's tick had
 * stopped.  How long after the fork the child started (ns), or -1. */
static sl_time lx_poked_idle_delay(sl_time fork_at)
{
	struct lx_run r;
	if (!lx_start(&r, "pack:1 core:2 pu:1,ipi=500", "linux24", 0))
		return -1;
	struct lx_script *child = lx_hog(r.sim, 1), *root = lx_script_new(r.sim);
	lx_add(root, sl_act_run((double)fork_at, SL_WC_INT));
	lx_add_fork(root, child, "child");
	lx_add(root, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	lx_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &lx_script_prog, root, "root");
	sl_time d = lx_run(&r) == 0 ? child->at[0] - root->at[1] : -1;
	sl_sim_destroy(r.sim);
	return d;
}

SL_TEST(linux24_poked_idle_cpu_wakes_at_its_tick)
{
	/* a fork 2 ms before CPU 1's tick of jiffy 1: the IPI wakes it;
	 * 0.2 ms before: its tick (within a microsecond: the switch) */
	sl_time tick = 10 * SL_MSEC + 2 * 10 * SL_MSEC / 3;
	sl_time far = lx_poked_idle_delay(tick - 2 * SL_MSEC);
	sl_time near = lx_poked_idle_delay(tick - 200 * SL_USEC);
	CHECKF(far > 500 * SL_USEC && near >= 200 * SL_USEC && near < 201 * SL_USEC,
	       "the child started %lld ns after a fork 2 ms before CPU 1's tick, %lld ns after "
	       "one 0.2 ms before", (long long)far, (long long)near);
}
