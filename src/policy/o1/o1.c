/*
 * o1/o1.c - the stock O(1) scheduler of Linux 2.5/2.6.0, HT-unaware: one
 * runqueue per logical CPU with active/expired priority arrays, timeslices
 * by static priority, the sleep_avg interactivity bonus, wakeups on the
 * last CPU (or the waker's, for sync wakeups) with no idle-CPU search, and
 * a pull-only load balancer that sees the 1,1,0,0 of two tasks on one HT
 * package as balanced.  From 2.5.59 on, a machine of several nodes runs the
 * NUMA scheduler of the version: node-local balancing, a look across nodes
 * every NODE_BALANCE_RATE balances (2.5.59) or every node tick (2.5.68,
 * 2.6.0), and exec balancing.  The mechanism is in the other files of policy/o1/ (see
 * o1/core.h); the versions are rows of o1/versions.c.
 *
 * Sources (the full list with LKML Message-IDs: docs/policies/o1.md,
 * "Sources"): 2.6.0 kernel/sched.c and kernel/fork.c do_fork(); a 2.5.6x
 * kernel/sched.c (the "-" side of Ingo Molnar's A9); i386
 * smp_tune_scheduling() (cache_decay_ticks); Rick Lindsley's split of D7
 * (the 2.5.59 constants); Matthew Dobson's sched_cleanup-2.5.40 (the
 * imbalance rule); Andrew Theurer's "CAN_MIGRATE seems screwed up" (the
 * 2.6.0-test4 hot rule); the NUMA scheduler patches of Erich Focht, Ingo
 * Molnar and Martin Bligh (2.5.58-2.5.59).  Docs: docs/policies/o1.md.
 *
 * Knobs: version (default 2.5.33, the most completely specified row and
 * the base of the `ht` policy's f3, so that `-p ht -p o1` compares like
 * with like), hz, cache_decay_ticks (derived from the topology's L2 size
 * and clock unless given), scan_ns; the version's rules as knobs: steal_hot (never / idle / 2.6.0-test4's busy / RHEL3's always),
 * imbalance, idle_tick, yield; NUMA: numa, node_balance, node_balance_rate,
 * idle_node_tick (checked in o1/config.c).
 *
 * Omitted / simplified: see the other files of policy/o1/ (RT classes, locks, the exec
 * move's timing).
 */
#include <stdlib.h>

#include "base/spec.h"
#include "policy/kernel_arch.h"
#include "policy/o1/core.h"
#include "policy/policy.h"
#include "sim/sim.h"

static const struct sl_param_def o1_knobs[] = {
	{ .name = "version", .type = SL_PARAM_CHOICE, .def = "2.5.33",
	  .choices = o1_version_choices,
	  .doc = "stock kernel whose constants and rules to use" },
	SL_ARCH_HZ_KNOB(100, SL_ARCH_HZ_26_DOC, "; ms constants scale with it"),
	{ .name = "cache_decay_ticks", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 100000,
	  .doc = "ticks a task stays cache-hot (default: derived from the L2 size and clock "
		 "as the machine's arch did; ia64 10)" },
	{ .name = "scan_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "scheduler cost per schedule() and per runqueue or task a balance looks at "
		 "(default: the machine's costs of a pick and of examining one item)" },
	{ .name = "steal_hot", .type = SL_PARAM_CHOICE, .def = NULL,
	  .choices = "never|idle|busy|always",
	  .doc = "when load_balance may take a cache-hot task: never (2.5.x), idle balancers "
		 "(2.6.0), busy ones (2.6.0-test4), always (RHEL3) (default: the version's)" },
	{ .name = "imbalance", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "half|quarter",
	  .doc = "find_busiest_queue rule: 2.5's half difference or 2.6.0's 25% with half "
		 "pulled (default: the version's)" },
	{ .name = "idle_tick", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "idle|busy",
	  .doc = "what an idle CPU's 1 ms rebalance tick passes: idle=1 as 2.5.33 and 2.5.59 "
		 "did, or idle=0 as 2.5.68 and 2.6.0 did (default: the version's)" },
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
	{ .name = "node_balance", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "rate|ticks",
	  .doc = "when a CPU looks across nodes: every node_balance_rate-th balance (2.5.59) "
		 "or on node ticks of 5 ms idle / 400 ms busy (default: the version's)" },
	O1_KNOB_NODE_BALANCE_RATE,
	O1_KNOB_IDLE_NODE_TICK,
	{ .name = NULL },
};

static void *o1_init(struct sl_sim *sim, const struct sl_params *knobs, struct sl_err *err)
{
	struct o1_config cfg;

	if (o1_config_init(&cfg, sim, knobs, o1_version_find(sl_param_str(knobs, "version")),
			   true, "o1", err))
		return NULL;
	return o1_core_create(sim, &cfg, err);
}

const struct sl_policy_ops sl_policy_o1 = {
	.name = "o1",
	.summary = "O(1) scheduler of 2.5/2.6.0, HT-unaware: per-CPU runqueues, pull "
		   "balancing, NUMA scheduler from 2.5.59",
	.knobs = o1_knobs,
	.task_size = sizeof(struct o1_task),
	.sched_policies = O1_SCHED_POLICIES,
	.init = o1_init,
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
