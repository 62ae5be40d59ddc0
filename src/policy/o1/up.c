/*
 * o1/up.c - a uniprocessor kernel: the O(1) scheduler of the chosen version
 * built without CONFIG_SMP, so only logical CPU 0 exists for it.  Every
 * task is queued on CPU 0's runqueue; there is no load balancing, no
 * migration thread, and 2.6.0's TIMESLICE_GRANULARITY has no
 * num_online_cpus factor.  The other CPUs of the machine stay idle: on an
 * HT P4 this is the "UP" row of seed 002 (a 2.6.0-test11 UP build).
 *
 * Sources: the O(1) scheduler's sources (docs/policies/o1.md); 2.6.0
 * kernel/sched.c TIMESLICE_GRANULARITY (its num_online_cpus factor exists
 * only under CONFIG_SMP); seed 002's report (Con Kolivas, LKML, 13 Dec 2003:
 * "UP = uniprocessor build", one logical CPU used; the experiment's source
 * line).  Docs: docs/policies/up.md.
 *
 * Choices: the default version is 2.6.0, the nearest row to the
 * 2.6.0-test11 UP kernel of seed 002 (test11 already had the 2.6.0
 * interactivity and balancing code; UNVERIFIED in detail).
 *
 * Knobs: version, hz, scan_ns, yield, fork_place (as o1).  A UP kernel has no
 * balancing, so no cache_decay_ticks, and no NUMA scheduler.
 *
 * The other CPUs' ticks are stopped (sl_set_nohz): the kernel has no such
 * CPUs, its tick op returns at once on them, and a big machine's jiffy
 * then visits one CPU, not all (results unchanged, byte for byte).
 *
 * Omitted / simplified: those of the other files of policy/o1/; also the UP kernel's cheaper
 * primitives (no lock prefixes, no IPIs) beyond having no balancing: the
 * machine's context-switch cost is the same for every policy.  A workload
 * pinned to CPUs without CPU 0 is refused (a UP kernel's sched_setaffinity
 * finds no online CPU in such a mask: EINVAL).
 */
#include "base/spec.h"
#include "policy/kernel_arch.h"
#include "policy/o1/core.h"
#include "policy/policy.h"
#include "sim/sim.h"

static const struct sl_param_def up_knobs[] = {
	{ .name = "version", .type = SL_PARAM_CHOICE, .def = "2.6.0",
	  .choices = o1_version_choices,
	  .doc = "O(1) version built for one CPU (seed 002's UP is 2.6.0-test11)" },
	SL_ARCH_HZ_KNOB(100, SL_ARCH_HZ_26_DOC, ""),
	{ .name = "scan_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "scheduler cost per schedule() and per runqueue or task a balance looks at "
		 "(default: the machine's costs of a pick and of examining one item)" },
	O1_KNOB_YIELD,
	O1_KNOB_FORK_PLACE,
	O1_KNOB_EXIT_WAKE,
	O1_KNOB_ULONG,
	O1_KNOB_SWITCH_STAMP,
	O1_KNOB_PREEMPT,
	O1_KNOB_TIMERS,
	{ .name = NULL },
};

static void *up_init(struct sl_sim *sim, const struct sl_params *knobs, struct sl_err *err)
{
	struct o1_config cfg;

	if (o1_config_init(&cfg, sim, knobs, o1_version_find(sl_param_str(knobs, "version")),
			   false, "up", err))
		return NULL;
	void *s = o1_core_create(sim, &cfg, err);
	if (s) {
		/* The other CPUs are not this kernel's: nothing ticks on them
		 * (o1_core_tick would return at once), so the engine need not
		 * visit them at every jiffy. */
		sl_set_nohz(sim);
		for (int cpu = 1; cpu < sl_topo(sim)->ncpus; cpu++)
			sl_tick_stop(sim, cpu);
	}
	return s;
}

const struct sl_policy_ops sl_policy_up = {
	.name = "up",
	.summary = "uniprocessor kernel: the O(1) scheduler on CPU 0 only",
	.knobs = up_knobs,
	.task_size = sizeof(struct o1_task),
	.sched_policies = O1_SCHED_POLICIES,
	.cpu0_only = true,
	.init = up_init,
	.destroy = o1_core_destroy,
	.fork = o1_core_fork,
	.wakeup = o1_core_wakeup,
	.pick_next = o1_core_pick_next,
	.tick = o1_core_tick,
	.ticks_skipped = o1_core_ticks_skipped,
	.yield = o1_core_yield,
	.exit = o1_core_exit,
	.release = o1_core_release,
	.setscheduler = o1_core_setscheduler,
	.check = o1_core_check,
};
