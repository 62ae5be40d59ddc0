/*
 * test_ht_versions.c - scenario tests that pin what distinguishes the
 * versions of Ingo Molnar's HT scheduler (F3 .. C1): the rows and the
 * knobs idle_steal, continue_bug, node_divisor; A9's equal-priority,
 * larger-slice preemption in wake_up_cpu, which acts even on a machine
 * without SMT; the idle steal per version (F3 hard-wired, E6 and A9 on,
 * B2 off), and where each base kernel passes idle=1 (the 2.5.33 and
 * 2.5.59 idle ticks; only 2.5.68's newly-idle balance); 2.5.59 F3's
 * `continue` bug waking the migration thread of a runqueue that has an
 * idle sibling; active balancing in every version; and, without SMT, e6
 * with the steal off being exactly o1 2.5.59.
 */
#include <string.h>

#include "policy/o1/core.h"
#include "policy/policy.h"
#include "test.h"
#include "test_o1_script.h"

#define HT22 "pack:2 core:1 pu:2"

/* ---- the rows and knobs ---- */

static struct o1 *htvt_state(struct o1t_run *r, const char *machine, const char *policy)
{
	if (!o1t_start(r, machine, policy, 0))
		return NULL;
	return sl_policy_data(r->sim);
}

static bool htvt_rejects(const char *machine, const char *policy, const char *words)
{
	struct sl_err err;
	bool ok = o1t_init(machine, policy, &err) == -1 && err.kind == SL_ERR_INPUT &&
		  strstr(err.msg, words);

	if (!ok)
		fprintf(stderr, "  %s: '%s', expected an input error with '%s'\n", policy,
			err.msg, words);
	return ok;
}

SL_TEST(ht_version_knobs)
{
	struct sl_err err;
	static const char *const good[] = {
		"ht:version=f3", "ht:version=e6", "ht:version=a9", "ht:version=b2", "ht:version=c1",
		"ht:idle_steal=aggressive", "ht:idle_steal=passive", "ht:continue_bug=on",
		"ht:continue_bug=off", "ht:yield=tail", "ht:version=e6,numa=off",
		"ht:version=e6,node_balance_rate=10", "ht:version=c1,node_divisor=runqueues",
		"ht:version=c1,node_divisor=cpus",
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECKF(o1t_init("node:2 pack:1 core:2 pu:2", good[i], &err) == 0, "%s: %s", good[i],
		       err.msg);
	CHECK(o1t_bind("ht:version=d7", &err) == -1 && err.kind == SL_ERR_INPUT &&
	      strstr(err.msg, "version"));
	CHECK(o1t_bind("ht:idle_steal=on", &err) == -1 && strstr(err.msg, "idle_steal"));
	CHECK(o1t_bind("ht:continue_bug=yes", &err) == -1 && strstr(err.msg, "continue_bug"));
	CHECK(o1t_bind("ht:node_divisor=nodes", &err) == -1 && strstr(err.msg, "node_divisor"));
	CHECK(o1t_bind("ht:steal_hot=idle", &err) == -1 && strstr(err.msg, "steal_hot"));
	CHECK(htvt_rejects(HT22, "ht:version=f3,numa=on", "2.5.33 has no NUMA"));
	CHECK(htvt_rejects(HT22, "ht:version=a9,node_divisor=cpus", "only c1"));
	CHECK(htvt_rejects(HT22, "ht:version=c1,numa=off,node_divisor=runqueues", "numa=off"));
	CHECK(htvt_rejects(HT22, "ht:version=c1,node_balance_rate=10", "node ticks"));
	for (const struct sl_param_def *d = sl_policy_ht.knobs; d->name; d++)
		CHECK(d->doc && d->doc[0] && (d->def || strstr(d->doc, "default")));
}

SL_TEST(ht_version_rows)
{
	struct o1t_run r;
	struct o1 *s;

	if ((s = htvt_state(&r, HT22, "ht:version=f3"))) {
		/* F3: the idle steal hard-wired, sync wakeups through wake_up_cpu */
		CHECK(!strcmp(s->cfg.v->name, "2.5.33") && s->cfg.hot == O1_HOT_IF_IDLE &&
		      s->cfg.active_flag == O1_ACTIVE_FLAG_REQUESTER && !s->cfg.active_skip_single &&
		      !s->cfg.continue_bug && !s->cfg.wake_equal_prio && s->cfg.wake_up_cpu_sync);
		/* what is not from any source is off */
		CHECK(!s->cfg.active_steal_hot && !s->cfg.idle_pickup_tick);
		sl_sim_destroy(r.sim);
	}
	if ((s = htvt_state(&r, HT22, "ht:version=e6"))) {
		CHECK(!strcmp(s->cfg.v->name, "2.5.59") && s->cfg.hot == O1_HOT_IF_IDLE &&
		      s->cfg.active_flag == O1_ACTIVE_FLAG_BUSY_RQ && !s->cfg.active_skip_single &&
		      s->cfg.continue_bug && !s->cfg.wake_equal_prio && !s->cfg.wake_up_cpu_sync);
		sl_sim_destroy(r.sim);
	}
	if ((s = htvt_state(&r, HT22, "ht:version=a9"))) {
		CHECK(!strcmp(s->cfg.v->name, "2.5.68") && s->cfg.hot == O1_HOT_IF_IDLE &&
		      s->cfg.active_skip_single && !s->cfg.continue_bug && s->cfg.wake_equal_prio);
		sl_sim_destroy(r.sim);
	}
	if ((s = htvt_state(&r, HT22, "ht:version=b2"))) {
		CHECK(!strcmp(s->cfg.v->name, "2.5.68") && s->cfg.hot == O1_HOT_NEVER &&
		      s->cfg.wake_equal_prio && !s->cfg.active_steal_hot);
		sl_sim_destroy(r.sim);
	}
	if ((s = htvt_state(&r, HT22, "ht:version=c1"))) {
		CHECK(!strcmp(s->cfg.v->name, "2.6.0") && s->cfg.hot == O1_HOT_IF_IDLE &&
		      s->cfg.wake_up_cpu_sync && s->cfg.wake_equal_prio);
		sl_sim_destroy(r.sim);
	}
	if ((s = htvt_state(&r, HT22, "ht:version=c1,idle_steal=passive,continue_bug=on"))) {
		CHECK(s->cfg.hot == O1_HOT_NEVER && s->cfg.continue_bug);
		sl_sim_destroy(r.sim);
	}
	/* without SMT: only what the patch changed outside the sibling code */
	if ((s = htvt_state(&r, "pack:2 core:1 pu:1", "ht:version=a9"))) {
		CHECK(s->nrqs == 2 && s->cfg.wake_up_cpu && s->cfg.wake_equal_prio &&
		      !s->cfg.share_siblings && !s->cfg.active_balance &&
		      s->cfg.hot == O1_HOT_IF_IDLE);
		sl_sim_destroy(r.sim);
	}
	if ((s = htvt_state(&r, "pack:2 core:1 pu:1", "ht:version=e6"))) {
		CHECK(!s->cfg.wake_up_cpu && !s->cfg.active_balance && s->cfg.hot == O1_HOT_IF_IDLE);
		sl_sim_destroy(r.sim);
	}
	/* c1 on NUMA + HT: node load per runqueue (2 per node) or per CPU (4) */
	if ((s = htvt_state(&r, "node:2 pack:2 core:1 pu:2", "ht:version=c1,node_divisor=runqueues"))) {
		CHECK(s->numa && s->node_weight[0] == 2 && s->node_weight[1] == 2);
		sl_sim_destroy(r.sim);
	}
	if ((s = htvt_state(&r, "node:2 pack:2 core:1 pu:2", "ht:version=c1"))) {
		CHECK(s->numa && s->node_weight[0] == 4 && s->node_weight[1] == 4);
		sl_sim_destroy(r.sim);
	}
}

/* ---- A9's equal-priority preemption, without SMT ---- */

/*
 * One CPU.  s runs 1 ms, sleeps `sleep_ms` and runs 1 ms beside a hog; both
 * have prio 125 (the sleep is worth no bonus level).  How late is its
 * second run, and how much system time has the hog had by 500 ms?  With a
 * scheduler cost of 0.2 ms per schedule(), a reschedule that keeps the hog
 * shows as 0.2 ms more of its system time.
 */
static sl_time htvt_late(const char *policy, int sleep_ms, sl_time *hog_sys)
{
	struct o1t_run r;
	sl_time late = -1;
	char p[160];

	snprintf(p, sizeof(p), "%s,scan_ns=200000", policy);
	if (!o1t_start(&r, "pack:1 core:1 pu:1", p, 500 * SL_MSEC))
		return -1;
	struct o1t_script *s = o1t_new(r.sim);
	o1t_add(s, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	o1t_add(s, sl_act_sleep(sleep_ms * SL_MSEC));
	o1t_add(s, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, s, "s", 0);
	o1t_fork(root, o1t_hog(r.sim, 1000), "hog", 0);
	o1t_add(root, sl_act_wait());
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r) && s->pc == s->n) {
		late = s->at[2] - (s->at[1] + sleep_ms * SL_MSEC);
		struct sl_task *hog = o1t_find(r.sim, "hog");
		*hog_sys = hog ? hog->sys_ns : -1;
	}
	sl_sim_destroy(r.sim);
	return late;
}

SL_TEST(ht_equal_prio_wakeup_without_smt)
{
	sl_time o1_sys = -1, a9_sys = -1, b2_sys = -1, sys = -1;

	/*
	 * 2.5.68 slices: at 109 ms s has ~50 ticks left, the hog ~20.  A9's
	 * wake_up_cpu reschedules the CPU for an equal priority and a larger
	 * slice, even without SMT; stock 2.5 only for a better priority.  The
	 * O(1) pick then keeps the hog, which runs at the head of the list the
	 * woken task joined at the tail: the reschedule costs one schedule()
	 * and s still waits for the hog's slice to end.
	 */
	sl_time o1 = htvt_late("o1:version=2.5.68", 108, &o1_sys);
	sl_time a9 = htvt_late("ht:version=a9", 108, &a9_sys);
	sl_time b2 = htvt_late("ht:version=b2", 108, &b2_sys);
	CHECKF(o1 > 10 * SL_MSEC && a9 == o1 && b2 == o1, "late: o1 %.2f, a9 %.2f, b2 %.2f ms",
	       (double)o1 / SL_MSEC, (double)a9 / SL_MSEC, (double)b2 / SL_MSEC);
	CHECKF(a9_sys - o1_sys >= 150000 && a9_sys - o1_sys <= 250000 && b2_sys == a9_sys,
	       "hog system time: o1 %lld, a9 %lld, b2 %lld ns", (long long)o1_sys,
	       (long long)a9_sys, (long long)b2_sys);
	/* at 60 ms the hog has more slice left than s: no reschedule */
	htvt_late("o1:version=2.5.68", 60, &o1_sys);
	htvt_late("ht:version=a9", 60, &a9_sys);
	CHECKF(a9_sys == o1_sys, "at 60 ms: o1 %lld, a9 %lld ns", (long long)o1_sys,
	       (long long)a9_sys);
	/* e6 and f3 keep the stock wakeup without SMT */
	CHECK(htvt_late("ht:version=e6", 130, &sys) == htvt_late("o1:version=2.5.59", 130, &o1_sys));
	CHECK(sys == o1_sys);
	CHECK(htvt_late("ht:version=f3", 108, &sys) == htvt_late("o1:version=2.5.33", 108, &o1_sys));
	CHECK(sys == o1_sys);
}

/* ---- the idle steal per version ---- */

/* Two hogs forked on CPU 0 of two CPUs without SMT, hot for 40 ticks:
 * when does the second start (on CPU 1, idle since boot)? */
static sl_time htvt_second_start(const char *policy)
{
	struct o1t_run r;
	sl_time t = -1;

	if (!o1t_start(&r, "pack:2 core:1 pu:1", policy, 0))
		return -1;
	struct o1t_script *a = o1t_hog(r.sim, 200), *b = o1t_hog(r.sim, 200);
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, a, "a", 0);
	o1t_fork(root, b, "b", 0);
	o1t_add(root, sl_act_wait());
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r) && b->cpu[0] == 1)
		t = b->at[0];
	sl_sim_destroy(r.sim);
	return t;
}

/*
 * Two CPUs without SMT: e (30 ms) is pulled to CPU 1 once cold (~41 ms);
 * at 60 ms the root (on a fresh slice since 51 ms) forks hogs a and b on
 * CPU 0 and waits; a runs for its 47 ms share of the slice.  When e exits
 * (~71 ms) CPU 1 goes idle in schedule(): a newly-idle balance.  When does
 * b (hot until ~100 ms) start on CPU 1?
 */
static sl_time htvt_newidle_start(const char *policy)
{
	struct o1t_run r;
	sl_time t = -1;

	if (!o1t_start(&r, "pack:2 core:1 pu:1", policy, 0))
		return -1;
	struct o1t_script *b = o1t_hog(r.sim, 200);
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, o1t_hog(r.sim, 30), "e", 0);
	o1t_add(root, sl_act_run(60 * SL_MSEC, SL_WC_INT));
	o1t_fork(root, o1t_hog(r.sim, 200), "a", 0);
	o1t_fork(root, b, "b", 0);
	for (int i = 0; i < 3; i++)
		o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r) && b->cpu[0] == 1)
		t = b->at[0];
	sl_sim_destroy(r.sim);
	return t;
}

static bool htvt_in(sl_time t, double lo_ms, double hi_ms, const char *what)
{
	bool ok = t > lo_ms * SL_MSEC && t < hi_ms * SL_MSEC;

	if (!ok)
		fprintf(stderr, "  %s: %.2f ms, expected %.0f..%.0f\n", what, (double)t / SL_MSEC,
			lo_ms, hi_ms);
	return ok;
}

SL_TEST(ht_idle_steal_per_version)
{
	/* 2.5.59 (e6): the idle tick passes idle=1, so the steal acts at once */
	CHECK(htvt_in(htvt_second_start("ht:version=e6,cache_decay_ticks=40"), 0, 3, "e6"));
	CHECK(htvt_in(htvt_second_start("ht:version=e6,cache_decay_ticks=40,idle_steal=passive"),
		      40, 44, "e6 passive"));
	/* 2.5.33 (f3): the idle tick passes idle=1 too, and F3's steal is
	 * hard-wired */
	CHECK(htvt_in(htvt_second_start("ht:version=f3,cache_decay_ticks=40"), 0, 3, "f3"));
	CHECK(htvt_in(htvt_second_start("ht:version=f3,cache_decay_ticks=40,idle_steal=passive"),
		      40, 44, "f3 passive"));
	/* 2.5.68 (a9): the idle tick passes idle=0, so the steal does not act
	 * there ... */
	CHECK(htvt_in(htvt_second_start("ht:version=a9,cache_decay_ticks=40"), 40, 44, "a9"));
	/* ... only in the newly-idle balance, where b2 waits for the decay
	 * (fork_place=tail: the root forks on without its children running
	 * first, so that the queue is the one this scenario is about) */
	CHECK(htvt_in(htvt_newidle_start("ht:version=a9,cache_decay_ticks=40,fork_place=tail"),
		      69, 75, "a9 newly idle"));
	CHECK(htvt_in(htvt_newidle_start("ht:version=b2,cache_decay_ticks=40,fork_place=tail"),
		      99, 105, "b2 newly idle"));
	CHECK(htvt_in(htvt_newidle_start("o1:version=2.5.68,cache_decay_ticks=40,"
					 "fork_place=tail"), 99, 105, "o1 2.5.68 newly idle"));
	/* 2.6.0 (c1): its idle tick passes idle=0 as 2.5.68's did, so the
	 * steal acts only in the newly-idle balance; passive makes it wait */
	CHECK(htvt_in(htvt_second_start("ht:version=c1,cache_decay_ticks=40"), 40, 44, "c1"));
	CHECK(htvt_in(htvt_newidle_start("ht:version=c1,cache_decay_ticks=40,fork_place=tail"),
		      69, 75, "c1 newly idle"));
	CHECK(htvt_in(htvt_newidle_start("ht:version=c1,cache_decay_ticks=40,fork_place=tail,"
					 "idle_steal=passive"), 99, 105, "c1 passive newly idle"));
}

/* ---- active balancing: the continue bug ---- */

/* One hog on a 2x2 HT box for 100 ms: how often was it preempted, and how
 * long did migration threads run? */
static long htvt_lone_hog(const char *policy, sl_time *kthread)
{
	struct o1t_run r;
	long preempted = -1;

	if (!o1t_start(&r, HT22, policy, 100 * SL_MSEC))
		return -1;
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, o1t_hog(r.sim, 5000), "hog", 0);
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r)) {
		struct sl_task *t = o1t_find(r.sim, "hog");
		preempted = t ? t->nivcsw : -1;
		*kthread = 0;
		for (int c = 0; c < 4; c++)
			*kthread += sl_sim_cpu_stats(r.sim, c)->kthread_ns;
	}
	sl_sim_destroy(r.sim);
	return preempted;
}

SL_TEST(ht_continue_bug)
{
	sl_time kt = -1;

	/* package 1 is idle and asks every 1 ms; package 0 has an idle
	 * sibling, so there is no SMT imbalance.  With the bug its migration
	 * thread is woken anyway and preempts the hog each time */
	long n = htvt_lone_hog("ht:version=e6", &kt);
	CHECKF(n > 50 && kt > 0, "e6: %ld preemptions, %lld ns of migration threads", n,
	       (long long)kt);
	n = htvt_lone_hog("ht:version=e6,continue_bug=off", &kt);
	CHECKF(n < 3 && kt == 0, "e6 fixed: %ld preemptions, %lld ns", n, (long long)kt);
	/* (fork_place=tail: the root waits before the hog runs; with the
	 * child in front, the root queued behind it is a second task) */
	n = htvt_lone_hog("ht:version=a9,fork_place=tail", &kt);
	CHECKF(n < 3 && kt == 0, "a9: %ld preemptions, %lld ns", n, (long long)kt);
	n = htvt_lone_hog("ht:version=f3,continue_bug=on", &kt);
	CHECKF(n > 50 && kt > 0, "f3 with the bug: %ld preemptions", n);
	/* asked only when a CPU goes idle, the bug costs next to nothing */
	n = htvt_lone_hog("ht:version=e6,idle_active=0", &kt);
	CHECKF(n < 3, "e6 idle_active=0: %ld preemptions", n);
}

/*
 * The guard of do_active_balance: a migration thread that finds a sibling
 * of its runqueue idle gives the task it preempted back and pulls nothing
 * (no SMT imbalance).  With the continue bug that is every request made of
 * a runqueue with an idle sibling.  Here the root forks h (fork_place=tail:
 * h waits on package 0's queue beside the idle CPU 1, since fork kicks
 * nobody) and computes 30 ms.  Package 1 is wholly idle: each ms its own
 * pull fails (idle_steal=passive, h is hot for cache_decay_ticks=10) and
 * it asks package 0, whose thread preempts the root.  With the guard h
 * stays until it turns cold, ~10 jiffies after the fork, and package 1's
 * own pull takes it; the root is preempted about once a ms meanwhile and
 * never leaves CPU 0.  Without the guard the thread's pull (told to ignore
 * hotness by active_steal_hot=on) takes h at the first request, ~1 ms.
 * When h first ran, and where; the root's preemptions in *preempted.
 */
static sl_time htvt_guard_h_start(const char *policy, int *h_cpu, long *preempted)
{
	struct o1t_run r;
	sl_time start = -1;

	*h_cpu = -1;
	*preempted = -1;
	if (!o1t_start(&r, HT22, policy, 40 * SL_MSEC))
		return -1;
	struct o1t_script *root = o1t_new(r.sim), *h = o1t_hog(r.sim, 5000);
	o1t_fork(root, h, "h", 0);
	o1t_add(root, sl_act_run(30 * SL_MSEC, SL_WC_INT));
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r)) {
		start = h->pc > 0 ? h->at[0] : -1;
		*h_cpu = h->cpu[0];
		struct sl_task *t = o1t_find(r.sim, "root");
		*preempted = t ? t->nivcsw : -1;
		for (int i = 0; i < root->pc; i++)
			CHECKF(root->cpu[i] == 0, "%s: root step %d on CPU %d", policy, i,
			       root->cpu[i]);
	}
	sl_sim_destroy(r.sim);
	return start;
}

SL_TEST(ht_active_balance_gives_back_when_a_sibling_is_idle)
{
	static const char *const policies[] = {
		"ht:version=e6,fork_place=tail,cache_decay_ticks=10,idle_steal=passive,"
		"active_steal_hot=on",
		"ht:version=f3,continue_bug=on,fork_place=tail,cache_decay_ticks=10,"
		"idle_steal=passive,active_steal_hot=on",
	};
	for (int i = 0; i < 2; i++) {
		int cpu;
		long n;
		sl_time at = htvt_guard_h_start(policies[i], &cpu, &n);
		CHECKF(at >= 10 * SL_MSEC && at < 13 * SL_MSEC,
		       "%s: h first ran at %lld ns, not when cold (10-12 ms)", policies[i],
		       (long long)at);
		CHECKF(cpu == 2 || cpu == 3, "%s: h first ran on CPU %d", policies[i], cpu);
		CHECKF(n >= 5, "%s: root preempted %ld times", policies[i], n);
	}
}

/* ---- active balancing in every version ---- */

static int htvt_two_hogs_apart(const char *policy, double ms)
{
	struct o1t_run r;
	int apart = -1;

	if (!o1t_start(&r, HT22, policy, (sl_time)(ms * SL_MSEC)))
		return -1;
	sl_sim_spawn_root(r.sim, &o1t_prog, o1t_hogs(r.sim, 2, 5000, 0), "root");
	if (o1t_run(&r)) {
		const struct sl_topo *topo = sl_topo(r.sim);
		struct sl_task *a = o1t_find(r.sim, "h0"), *b = o1t_find(r.sim, "h1");
		if (a && b && a->cpu >= 0 && b->cpu >= 0)
			apart = topo->cpu_package[a->cpu] != topo->cpu_package[b->cpu];
	}
	sl_sim_destroy(r.sim);
	return apart;
}

SL_TEST(ht_two_hogs_apart_every_version)
{
	static const char *const pols[] = { "ht:version=f3", "ht:version=e6", "ht:version=a9",
					    "ht:version=b2", "ht:version=c1" };
	for (int i = 0; i < 5; i++) {
		CHECKF(htvt_two_hogs_apart(pols[i], 10) == 1, "%s at 10 ms", pols[i]);
		CHECKF(htvt_two_hogs_apart(pols[i], 2000) == 1, "%s at 2 s", pols[i]);
	}
	/* stock o1 of every base keeps them on one package (1,1,0,0); the
	 * root forks both before either runs (fork_place=tail), else it is
	 * queued too and an idle CPU of the other package pulls a hog; and
	 * the sibling pulls first (ordered ticks), not the other package */
	CHECK(htvt_two_hogs_apart("o1:version=2.5.68,fork_place=tail,tick=ordered", 2000) == 0);
	CHECK(htvt_two_hogs_apart("o1:version=2.6.0,fork_place=tail,tick=ordered", 2000) == 0);
}

/* ---- without SMT: the base plus only the patch's own changes ---- */

struct htvt_result {
	struct sl_run_stats st;
	sl_time end[6];
};

/* Hogs, sleepers and a pipe pair on 2x2 without SMT. */
static bool htvt_mixed(const char *policy, struct htvt_result *out)
{
	struct o1t_run r;
	bool ok = false;

	memset(out, 0, sizeof(*out));
	if (!o1t_start(&r, "pack:2 core:2 pu:1", policy, 0))
		return false;
	struct sl_chan *pipe = sl_chan_new(r.sim, 4096, true);
	struct o1t_script *kids[6];
	struct o1t_script *root = o1t_new(r.sim);
	for (int i = 0; i < 6; i++) {
		struct o1t_script *k = kids[i] = o1t_new(r.sim);
		for (int j = 0; j < 6; j++) {
			o1t_add(k, sl_act_run((double)(5 + 7 * i + 3 * j) * SL_MSEC, SL_WC_INT));
			if (i == 4)
				o1t_add(k, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE,
							       .u.chan = { .chan = pipe, .bytes = 1000 } });
			else if (i == 5)
				o1t_add(k, (struct sl_action){ .kind = SL_ACT_CHAN_READ,
							       .u.chan = { .chan = pipe, .bytes = 1000 } });
			else if (i % 2)
				o1t_add(k, sl_act_sleep((sl_time)(3 + i + j) * SL_MSEC));
		}
		o1t_fork(root, k, "k", 0);
	}
	for (int i = 0; i < 6; i++)
		o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r)) {
		sl_sim_stats(r.sim, &out->st);
		for (int i = 0; i < 6; i++)
			out->end[i] = kids[i]->at[kids[i]->n];
		ok = true;
	}
	sl_sim_destroy(r.sim);
	return ok;
}

static bool htvt_same(const struct htvt_result *a, const struct htvt_result *b)
{
	return a->st.elapsed_ns == b->st.elapsed_ns && a->st.user_ns == b->st.user_ns &&
	       a->st.nivcsw == b->st.nivcsw && a->st.migrations == b->st.migrations &&
	       a->st.events.total == b->st.events.total && !memcmp(a->end, b->end, sizeof(a->end));
}

SL_TEST(ht_without_smt_is_base_plus_patch)
{
	struct htvt_result h, o;

	CHECK(htvt_mixed("ht:version=e6,idle_steal=passive", &h) &&
	      htvt_mixed("o1:version=2.5.59", &o));
	CHECK(htvt_same(&h, &o));
	CHECK(htvt_mixed("ht:version=e6", &h) && htvt_mixed("o1:version=2.5.59,steal_hot=idle", &o));
	CHECK(htvt_same(&h, &o));
	CHECK(htvt_mixed("ht:version=c1,idle_steal=aggressive", &h) &&
	      htvt_mixed("ht:version=c1", &o));
	CHECK(htvt_same(&h, &o));
}
