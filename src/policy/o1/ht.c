/*
 * o1/ht.c - Ingo Molnar's "fully HT-aware" shared-runqueue scheduler, in the
 * versions posted from August 2002 to December 2003: the O(1) scheduler of
 * its base kernel, but one runqueue per SMT core served by all its
 * siblings.  From that one mechanism follow his five goals (the 2.5.31
 * post): passive balancing sees 2,0 between packages instead of 1,1,0,0;
 * a sibling picks up any queued task of its core, skipping those running
 * on the other sibling; wakeups go to an idle sibling (wake_up_cpu); and
 * an idle package makes the busy package's migration thread preempt one
 * of its two running tasks so that it can be pulled (active balancing).
 *
 * Versions (rows of ht_versions[], each a base o1 row plus the patch):
 *   f3  2.5.31-2.5.33 (Aug 2002) on 2.5.33: the latch on the asking CPU,
 *       runqueues of one CPU not skipped, the idle steal hard-wired
 *       (`idle ||` in CAN_MIGRATE_TASK), every wakeup, sync included,
 *       through wake_up_cpu.
 *   e6  2.5.59 (4 Feb 2003) on 2.5.59: AGRESSIVE_IDLE_STEAL (on), the
 *       latch on the busy runqueue, 2.5.59 F3's `continue` bug (every busy
 *       runqueue's migration thread woken), no one-CPU skip; D7's sync
 *       path (a sync wakeup is activated without wake_up_cpu).
 *   a9  2.5.68 (21 Apr 2003) on 2.5.68: the bug fixed, one-CPU runqueues
 *       skipped, equal-priority-larger-slice preemption in wake_up_cpu
 *       (also without SMT), idle steal on.
 *   b2  2.5.68 (23 Apr 2003): a9 with the idle steal off, so the
 *       migration thread's pull cannot take the hot task it preempted.
 *   c1  2.6.0-test11 (8 Dec 2003) on 2.6.0: a9's rules on the 2.6.0 base,
 *       whose sync rule (A5's fix: quiet only if task_cpu == this CPU)
 *       sends a non-local sync wakeup through wake_up_cpu.
 *
 * On a machine without SMT every runqueue has one CPU: the patch built with
 * NR_SIBLINGS=0.  Shared runqueues, the pickup walk and active balancing
 * are then off, and ht is o1 of its base version plus only what the patch
 * changed outside the sibling code: the idle steal (f3, e6, a9, c1 by
 * default) and, from a9 on, wake_up_cpu with its equal-priority
 * preemption for wakeups and pulled tasks.
 *
 * Sources (LKML): Ingo Molnar, 27 Aug 2002, "[patch] "fully HT-aware
 * scheduler" support, 2.5.31-BK-curr" (F3),
 * <Pine.LNX.4.44.0208270226190.12947-100000@localhost.localdomain>;
 * Rusty Russell's rework <20020901114842.4a03d264.rusty@rustcorp.com.au>;
 * Ingo Molnar, 20 Jan 2003, "[patch] HT scheduler, sched-2.5.59-D7"
 * <Pine.LNX.4.44.0301202204210.18235-100000@localhost.localdomain>;
 * Martin J. Bligh quoting E6, 4 Feb 2003, <376170000.1044392941@flay>;
 * Ingo Molnar, 7 Feb 2003, "Re: [patch] HT scheduler, sched-2.5.59-F3"
 * <Pine.LNX.4.44.0302071033530.8102-100000@localhost.localdomain>;
 * Ingo Molnar, 21 Apr 2003, "[patch] HT scheduler, sched-2.5.68-A9"
 * <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com>;
 * Martin J. Bligh quoting B2, 23 Apr 2003, <1535810000.1051120075@flay>;
 * Ingo Molnar, 1 Dec 2003, "[patch] sched-HT-2.6.0-test11-A5"
 * <Pine.LNX.4.58.0312011102540.3323@earth>, and C1, 8 Dec 2003,
 * <Pine.LNX.4.58.0312081859100.8707@earth>; Anton Blanchard's A5 review
 * <20031207163914.GB19412@krispykreme>.  The bases: see o1/o1.c.  Docs:
 * docs/policies/ht.md.
 *
 * Choices where the sources are uncertain (INFERRED or UNVERIFIED; knobs
 * where they change results):
 *   - A "package" of Ingo's patch (phys_proc_id on 2002 Xeons, one core
 *     each) is an SMT core of the topology: the runqueue is shared by
 *     sl_topo_siblings().
 *   - idle_steal: F3 and D7 hard-wire it (CAN_MIGRATE_TASK is "idle, or
 *     not cache-hot"), E6 made it AGRESSIVE_IDLE_STEAL (default 1), A9
 *     kept it, B2 turned it off.  C1's text is not available; on its 2.6.0
 *     base idle balancers steal hot tasks anyway, so c1 defaults to
 *     aggressive (= the base's rule) and passive makes its idle pulls
 *     respect hotness.  The steal sits in CAN_MIGRATE_TASK, outside the
 *     sibling code, so it applies without SMT too.
 *   - active_steal_hot: in A9 and B2 the migration thread's pull is a
 *     load_balance() with idle=1 on behalf of the idle runqueue, through
 *     the same CAN_MIGRATE_TASK; F3's and E6's texts are taken to do the
 *     same (UNVERIFIED).  So the pull takes the task it just preempted
 *     (hot: it ran this jiffy) exactly where the idle steal is on: not in
 *     b2, nor with idle_steal=passive.  The knob (default off: the
 *     source's form) makes the pull ignore hotness: a what-if.
 *   - e6 is built from 2.5.59 F3 (7 Feb 2003, the nearest full text): the
 *     continue bug and the latch on the busy runqueue (knob continue_bug).
 *     D7's interactivity retune, which the 2.5.59 patches may have carried,
 *     is not modelled: e6 has the stock 2.5.59 constants.
 *   - Without SMT, f3 and e6 keep the stock wakeup and pull_task rules;
 *     from a9 on wake_up_cpu is used (A9 applies its equal-priority rule
 *     on non-HT builds too).  With SMT a pulled task goes through
 *     wake_up_cpu in every version: read in A9 (pull_task -> wake_up_cpu),
 *     taken for F3 and E6 (UNVERIFIED), which drops 2.5.33's
 *     equal-priority, longer-slice preemption of a pulled task there.
 *   - e6's fork placement is its 2.5.59 base's (tail); whether the 2.5.59
 *     patches carried D7's "in front of the parent" is not known
 *     (fork_place=front).
 *   - C1's listed fixes (per-CPU rq_idx/cpu_idx, locking in
 *     sched_map_runqueue, no init_idle move, Anton Blanchard's
 *     "bounce-to-cpu1") concern data structures, locks and a ppc64 boot
 *     problem that the simulator does not have; nothing is modelled for
 *     them.  Whether C1 divided the node load by runqueues, as A5's
 *     reviewers asked, is not known: knob node_divisor (default cpus).
 *   - Sync wakeups: F3 sends every wakeup, sync included, through
 *     activate + wake_up_cpu.  The separate sync path came with D7's
 *     SYNC_WAKEUPS (Jan 2003), so e6 (from 2.5.59 F3) activates a sync
 *     wakeup without wake_up_cpu; whether D7 also withheld the sleep
 *     credit, as 2.5.68's path does, is not known: e6 keeps 2.5.59's
 *     credit.  a9 and b2 keep 2.5.68's quiet sync wakeups; c1 sends a
 *     non-local sync wakeup through wake_up_cpu.
 *   - idle_pickup (default off) is not from any source: an idle CPU runs
 *     schedule() only when need_resched is set, and fork does not call
 *     wake_up_cpu, so a task queued on a shared runqueue (a forked child,
 *     a quietly woken task) waits while a sibling idles until something
 *     reschedules that sibling.  `tick` is a what-if: the idle sibling
 *     takes such a task at its next tick (see o1/tick.c).
 *   - idle_active=1: see o1/tick.c.  With the continue bug, every
 *     idle_active ask of an idle core preempts a task on every busy
 *     runqueue: the cost of the bug grows with how often idle cores ask.
 *   - The F3 latch sits on the asking CPU; the answering migration thread
 *     clears it (see o1/active.c).
 *   - The pickup may keep prev, and the 2.5.31 sibling-idle check of
 *     active balancing works (the `continue` bug is 2.5.59 F3's).
 *
 * Omitted / simplified: those of the other files of policy/o1/; also the patch's
 * boot-time sched_map_runqueue and the test_ht option (the topology is
 * known from the start), the user affinity API (tasks keep their allowed
 * mask; the pickup honours it per logical CPU), A5's statistics bug
 * (nr_running counting idle threads: no load average here).
 */
#include <string.h>

#include "base/spec.h"
#include "policy/kernel_arch.h"
#include "policy/o1/core.h"
#include "policy/policy.h"
#include "sim/sim.h"

struct ht_version {
	const char *name;
	const char *base;		/* o1 version row it patches */
	bool wake_up_cpu_sync;		/* wake_up_cpu for non-quiet sync wakeups */
	bool wake_equal_prio;		/* equal prio, larger slice preempts (A9) */
	bool nosmt_wake_up_cpu;		/* wake_up_cpu also without SMT (A9) */
	enum o1_active_flag active_flag;
	bool active_skip_single;
	bool continue_bug;		/* 2.5.59 F3: every busy runqueue asked */
	bool aggressive_idle_steal;	/* F3..A9: idle pulls ignore hotness */
};

static const struct ht_version ht_versions[] = {
	{
		.name = "f3", .base = "2.5.33",
		.wake_up_cpu_sync = true,
		.active_flag = O1_ACTIVE_FLAG_REQUESTER,
		.aggressive_idle_steal = true,
	},
	{
		.name = "e6", .base = "2.5.59",
		.active_flag = O1_ACTIVE_FLAG_BUSY_RQ,
		.continue_bug = true,
		.aggressive_idle_steal = true,
	},
	{
		.name = "a9", .base = "2.5.68",
		.wake_equal_prio = true, .nosmt_wake_up_cpu = true,
		.active_flag = O1_ACTIVE_FLAG_BUSY_RQ, .active_skip_single = true,
		.aggressive_idle_steal = true,
	},
	{
		.name = "b2", .base = "2.5.68",
		.wake_equal_prio = true, .nosmt_wake_up_cpu = true,
		.active_flag = O1_ACTIVE_FLAG_BUSY_RQ, .active_skip_single = true,
		.aggressive_idle_steal = false,
	},
	{
		.name = "c1", .base = "2.6.0",
		.wake_up_cpu_sync = true,
		.wake_equal_prio = true, .nosmt_wake_up_cpu = true,
		.active_flag = O1_ACTIVE_FLAG_BUSY_RQ, .active_skip_single = true,
		.aggressive_idle_steal = true,
	},
};

static const struct sl_param_def ht_knobs[] = {
	{ .name = "version", .type = SL_PARAM_CHOICE, .def = "f3", .choices = "f3|e6|a9|b2|c1",
	  .doc = "patch: f3 = 2.5.31-33 (on 2.5.33), e6 = 2.5.59, a9 and b2 = 2.5.68, "
		 "c1 = 2.6.0-test11 (on 2.6.0)" },
	SL_ARCH_HZ_KNOB(100, SL_ARCH_HZ_26_DOC, ""),
	{ .name = "cache_decay_ticks", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 100000,
	  .doc = "ticks a task stays cache-hot (default: derived from the L2 size and clock)" },
	{ .name = "scan_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "scheduler cost per schedule() and per runqueue or task a balance looks at "
		 "(default: the machine's costs of a pick and of examining one item)" },
	{ .name = "idle_steal", .type = SL_PARAM_CHOICE, .def = NULL,
	  .choices = "aggressive|passive",
	  .doc = "AGRESSIVE_IDLE_STEAL (F3: hard-wired): idle balancers take cache-hot tasks "
		 "(default: aggressive for f3, e6, a9, c1; passive for b2)" },
	{ .name = "continue_bug", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "on|off",
	  .doc = "2.5.59 F3's sibling-idle test that skips nothing: an idle package wakes "
		 "every busy runqueue's migration thread (default: on for e6 only)" },
	{ .name = "active_steal_hot", .type = SL_PARAM_CHOICE, .def = "off", .choices = "on|off",
	  .doc = "on: the migration thread's pull ignores cache hotness (what-if); off: it goes "
		 "through CAN_MIGRATE_TASK with idle=1, so it takes the hot task it preempted "
		 "only under an aggressive idle_steal (not b2)" },
	{ .name = "idle_pickup", .type = SL_PARAM_CHOICE, .def = "off", .choices = "tick|off",
	  .doc = "tick: an idle sibling takes a task waiting on its core's runqueue at its next "
		 "tick (what-if, in no source); off: only when something reschedules it" },
	{ .name = "idle_active", .type = SL_PARAM_INT, .def = "1", .min = 0, .max = 1000000,
	  .doc = "ms between active-balance requests of a wholly idle core "
		 "(0: only when a CPU goes idle)" },
	O1_KNOB_YIELD,
	O1_KNOB_FORK_PLACE,
	O1_KNOB_EXIT_WAKE,
	O1_KNOB_ULONG,
	O1_KNOB_SWITCH_STAMP,
	O1_KNOB_SCHED_CLOCK,
	O1_KNOB_PREEMPT,
	O1_KNOB_TICK,
	O1_KNOB_TIMERS,
	O1_KNOB_NUMA,
	O1_KNOB_NODE_BALANCE_RATE,
	O1_KNOB_IDLE_NODE_TICK,
	{ .name = "node_divisor", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "cpus|runqueues",
	  .doc = "c1 only: 2.6.0's node load is 10 * tasks / the node's CPUs, or / its "
		 "runqueues as A5's reviewers asked (default: cpus)" },
	{ .name = NULL },
};

static const struct ht_version *ht_version_find(const char *name)
{
	for (size_t i = 0; i < sizeof(ht_versions) / sizeof(ht_versions[0]); i++)
		if (!strcmp(ht_versions[i].name, name))
			return &ht_versions[i];
	return NULL;
}

/* The patch's changes outside the sibling code: they act without SMT too. */
static void ht_configure_any(struct o1_config *cfg, const struct ht_version *hv,
			     const struct sl_params *knobs)
{
	bool aggressive = hv->aggressive_idle_steal;

	if (sl_param_user_gave(knobs, "idle_steal"))
		aggressive = sl_param_choice(knobs, "idle_steal") == 0;
	cfg->hot = aggressive ? O1_HOT_IF_IDLE : O1_HOT_NEVER;
	if (hv->nosmt_wake_up_cpu) {
		cfg->wake_up_cpu = true;
		cfg->wake_up_cpu_sync = hv->wake_up_cpu_sync;
		cfg->wake_equal_prio = hv->wake_equal_prio;
	}
	cfg->node_load_per_rq = sl_param_user_gave(knobs, "node_divisor") &&
				sl_param_choice(knobs, "node_divisor") == 1;
}

/* The HT features of row hv, if the machine has SMT siblings at all. */
static void ht_configure_smt(struct o1_config *cfg, const struct ht_version *hv,
			     const struct sl_params *knobs, const struct sl_topo *topo)
{
	if (topo->threads_per_core < 2)
		return;		/* NR_SIBLINGS=0 */
	cfg->share_siblings = true;
	cfg->wake_up_cpu = true;
	cfg->wake_up_cpu_sync = hv->wake_up_cpu_sync;
	cfg->wake_equal_prio = hv->wake_equal_prio;
	cfg->active_balance = true;
	cfg->active_flag = hv->active_flag;
	cfg->active_skip_single = hv->active_skip_single;
	cfg->continue_bug = sl_param_user_on(knobs, "continue_bug", hv->continue_bug);
	cfg->active_steal_hot = sl_param_choice(knobs, "active_steal_hot") == 0;
	cfg->idle_pickup_tick = sl_param_choice(knobs, "idle_pickup") == 0;
	cfg->idle_active_ms = (int)sl_param_int(knobs, "idle_active");
}

static void *ht_init(struct sl_sim *sim, const struct sl_params *knobs, struct sl_err *err)
{
	const struct ht_version *hv = ht_version_find(sl_param_str(knobs, "version"));
	struct o1_config cfg;

	if (o1_config_init(&cfg, sim, knobs, o1_version_find(hv->base), true, "ht", err))
		return NULL;
	if (sl_param_user_gave(knobs, "node_divisor") && !cfg.v->node_load_per_cpu) {
		sl_fail(err, "policy 'ht': node_divisor: only c1 (on 2.6.0) divides the node "
			"load; %s uses the raw count", hv->name);
		return NULL;
	}
	if (sl_param_user_gave(knobs, "node_divisor") && !cfg.numa) {
		sl_fail(err, "policy 'ht': node_divisor: needs the NUMA scheduler, which "
			"numa=off switched off");
		return NULL;
	}
	ht_configure_any(&cfg, hv, knobs);
	ht_configure_smt(&cfg, hv, knobs, sl_topo(sim));
	return o1_core_create(sim, &cfg, err);
}

const struct sl_policy_ops sl_policy_ht = {
	.name = "ht",
	.summary = "Ingo Molnar's shared-runqueue HT scheduler (F3 2.5.33 .. C1 2.6.0) on O(1)",
	.knobs = ht_knobs,
	.task_size = sizeof(struct o1_task),
	.sched_policies = O1_SCHED_POLICIES,
	.init = ht_init,
	.destroy = o1_core_destroy,
	.fork = o1_core_fork,
	.wakeup = o1_core_wakeup,
	.pick_next = o1_core_pick_next,
	.tick = o1_core_tick,
	.ticks_skipped = o1_core_ticks_skipped,
	.exec = o1_core_exec,
	.yield = o1_core_yield,
	.exit = o1_core_exit,
	.release = o1_core_release,
	.migration = o1_core_migration,
	.setscheduler = o1_core_setscheduler,
	.set_allowed = o1_core_set_allowed,
	.check = o1_core_check,
};
