/*
 * o1.c - the stock O(1) scheduler of Linux 2.5/2.6.0, HT-unaware: one
 * runqueue per logical CPU with active/expired priority arrays, timeslices
 * by static priority, the sleep_avg interactivity bonus, wakeups on the
 * last CPU (or the waker's, for sync wakeups) with no idle-CPU search, and
 * a pull-only load balancer that sees the 1,1,0,0 of two tasks on one HT
 * package as balanced.  The mechanism is in o1_core.c / o1_balance.c; the
 * versions are rows of o1_versions.c.
 *
 * Sources: research/policies.md section 2 (2.1-2.8) and 7; [S5] 2.6.0
 * sched.c, [S6] 2.5.6x sched.c, [S7] [S8] cache_decay_ticks, [S10] 2.5.59
 * constants, [S11] 2.5.40 imbalance rule.  Docs: docs/policies/o1.md.
 *
 * Knobs: version (default 2.5.33, the most completely specified row and
 * the base of the `ht` policy's f3, so that `-p ht -p o1` compares like
 * with like), hz, cache_decay_ticks (derived from the topology's L2 size
 * and clock unless given), scan_ns.
 *
 * Omitted / simplified: see o1_core.c, o1_balance.c and o1_versions.c
 * (yield, RT classes, locks, the 2.6.0 uninterruptible-sleep cap, NUMA
 * balancing).
 */
#include <stdlib.h>

#include "base/spec.h"
#include "policy/o1_core.h"
#include "policy/policy.h"
#include "sim/sim.h"

static const struct sl_param_def o1_knobs[] = {
	{ .name = "version", .type = SL_PARAM_CHOICE, .def = "2.5.33",
	  .choices = o1_version_choices,
	  .doc = "stock kernel whose constants and rules to use" },
	{ .name = "hz", .type = SL_PARAM_INT, .def = "1000", .min = 100, .max = 10000,
	  .doc = "timer ticks per second (2.5/2.6 on i386: 1000); ms constants scale with it" },
	{ .name = "cache_decay_ticks", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 100000,
	  .doc = "ticks a task stays cache-hot (default: derived from the L2 size and clock "
		 "as i386 did)" },
	{ .name = "scan_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "scheduler cost per schedule() and per runqueue or task a balance looks at "
		 "(default: the machine's costs of a pick and of examining one item)" },
	{ .name = NULL },
};

static void *o1_init(struct sl_sim *sim, const struct sl_params *knobs, struct sl_err *err)
{
	struct o1_config cfg;

	o1_config_init(&cfg, sim, knobs, o1_version_find(sl_param_str(knobs, "version")), true);
	return o1_core_create(sim, &cfg, err);
}

const struct sl_policy_ops sl_policy_o1 = {
	.name = "o1",
	.summary = "O(1) scheduler of 2.5/2.6.0, HT-unaware: per-CPU runqueues, pull balancing",
	.knobs = o1_knobs,
	.task_size = sizeof(struct o1_task),
	.init = o1_init,
	.destroy = o1_core_destroy,
	.fork = o1_core_fork,
	.wakeup = o1_core_wakeup,
	.pick_next = o1_core_pick_next,
	.tick = o1_core_tick,
	.exit = o1_core_exit,
	.migration = o1_core_migration,
	.check = o1_core_check,
};
