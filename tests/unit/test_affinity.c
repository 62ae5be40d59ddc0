/*
 * test_affinity.c - pinned workloads (`cpus=`, taskset -c on the benchmark):
 * the CPU-list syntax, every policy keeping every task on its allowed CPUs
 * (the invariant check fails a run otherwise), the time it then gets, and
 * the idle-while-waiting count staying inside the workload's CPUs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/cpulist.h"
#include "checked_run.h"
#include "policy/policy.h"
#include "test.h"

SL_TEST(affinity_cpulist_syntax)
{
	struct sl_err err = { 0 };
	sl_cpumask m;

	CHECK(sl_cpulist_parse("0-1+4", 8, "cpus", &m, &err) == 0);
	CHECK(sl_cpumask_weight(&m) == 3 && sl_cpumask_test(&m, 4) && !sl_cpumask_test(&m, 2));
	CHECK(sl_cpulist_parse("7", 8, "cpus", &m, &err) == 0 && sl_cpumask_test(&m, 7));
	CHECK(sl_cpulist_parse("0-3+2", 8, "cpus", &m, &err) == 0 && sl_cpumask_weight(&m) == 4);
	const char *bad[] = { "", "8", "3-1", "1x", "+1", "1+", "-1", " 1", "1-", "0x3",
			      "99999999999999999999", "1,2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.kind = SL_ERR_NONE;
		CHECKF(sl_cpulist_parse(bad[i], 8, "cpus", &m, &err) < 0 &&
		       strstr(err.msg, "cpus '") != NULL, "'%s' accepted or unnamed: %s", bad[i],
		       err.msg);
	}
}

/* Run `workload` under `policy` on p4dpe-2x2ht with every invariant
 * checked after every event; 0 with the metrics, or -1. */
static int run_checked(const char *policy, const char *workload, struct sl_metrics *out)
{
	return checked_run("p4dpe-2x2ht", policy, workload, 3, out, NULL) ? 0 : -1;
}

static double metric(const struct sl_metrics *ms, const char *name)
{
	const struct sl_metric *m = sl_metrics_find(ms, name);
	return m ? m->value : NAN;
}

static const char *const every_policy[] = {
	"linux24", "o1:version=2.5.33", "o1:version=2.5.59", "o1:version=2.5.68",
	"o1:version=2.6.0", "ht:version=f3", "ht:version=e6", "ht:version=a9", "ht:version=b2",
	"ht:version=c1", "domains", "domains:version=w26", "cfs", "sl",
};

SL_TEST(affinity_every_policy_keeps_pinned_tasks_on_their_cpus)
{
	static struct sl_metrics ms;

	for (size_t i = 0; i < sizeof(every_policy) / sizeof(every_policy[0]); i++) {
		const char *p = every_policy[i];
		/* three hogs on CPUs 1 and 3: the others get nothing, and the
		 * two get everything (top's user share) */
		CHECKF(run_checked(p, "spin:tasks=3,seconds=1,cpus=1+3", &ms) == 0, "%s spin", p);
		CHECKF(metric(&ms, "cpu0_user_pct") == 0 && metric(&ms, "cpu2_user_pct") == 0 &&
		       metric(&ms, "cpu1_user_pct") > 95 && metric(&ms, "cpu3_user_pct") > 95,
		       "%s: user %% %g %g %g %g", p, metric(&ms, "cpu0_user_pct"),
		       metric(&ms, "cpu1_user_pct"), metric(&ms, "cpu2_user_pct"),
		       metric(&ms, "cpu3_user_pct"));
		/* forks, pipes, wakeups, exits: all on CPUs 0 and 2 */
		CHECKF(run_checked(p, "hackbench:groups=2,loops=5,cpus=0+2", &ms) == 0,
		       "%s hackbench", p);
		CHECKF(run_checked(p, "pingpong:loops=200,cpus=2", &ms) == 0, "%s pingpong", p);
	}
	/* the uniprocessor kernel: CPU 0 is in the set */
	CHECK(run_checked("up", "spin:tasks=2,seconds=1,cpus=0-1", &ms) == 0);
}

SL_TEST(affinity_idle_while_waiting_counts_only_the_workloads_cpus)
{
	static struct sl_metrics ms;

	/* two hogs pinned to one CPU: one always waits, but the three CPUs
	 * idling are not theirs to use (counting them would give 75 %; what
	 * is left is the root's first wait, an IPI's microseconds) */
	CHECK(run_checked("o1:version=2.6.0", "spin:tasks=2,seconds=1,cpus=2", &ms) == 0);
	CHECKF(metric(&ms, "idle_while_waiting_pct") < 0.001, "%g",
	       metric(&ms, "idle_while_waiting_pct"));
	CHECK(metric(&ms, "cpu2_user_pct") > 99);
}

/* A thread forked with a mask that lacks its parent's CPU (rt-app's
 * thread-level "cpus": the root runs on CPU 0, the thread may use only
 * CPU 2) runs there at once: o1 and ht queued it on CPU 2 and rescheduled
 * the parent's CPU, so the idle CPU 2 never looked (it ran 0 of its 666
 * loops). */
SL_TEST(affinity_child_forked_away_from_its_parent_runs)
{
	static struct sl_metrics ms;

	for (size_t i = 0; i < sizeof(every_policy) / sizeof(every_policy[0]); i++) {
		const char *p = every_policy[i];
		CHECKF(run_checked(p, "rtapp:file=tests/data/rtapp/forked-away.json", &ms) == 0,
		       "%s", p);
		/* (the checked run: only ever on CPU 2) */
		CHECKF(metric(&ms, "t_loops") >= 650, "%s: %g loops", p, metric(&ms, "t_loops"));
	}
}
