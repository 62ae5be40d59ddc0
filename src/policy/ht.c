/*
 * ht.c - Ingo Molnar's "fully HT-aware" shared-runqueue scheduler, the F3
 * form of 2.5.31-2.5.33 (27 Aug 2002): the O(1) scheduler of its base
 * kernel, but one runqueue per SMT core served by all its siblings.  From
 * that one mechanism follow his five goals (policies.md 4.1): passive
 * balancing sees 2,0 between packages instead of 1,1,0,0; a sibling picks
 * up any queued task of its core, skipping those running on the other
 * sibling; wakeups go to an idle sibling (wake_up_cpu); and an idle
 * package makes the busy package's migration thread preempt one of its two
 * running tasks so that it can be pulled (active balancing).
 *
 * Sources: research/policies.md 4.1-4.6 (goals, data structures, pickup,
 * wake_up_cpu, passive and active balancing, the F3/A9 differences), 7.7
 * (shared runqueue semantics); [S21] the 2.5.31 F3 post, [S22] Rusty's
 * rework, [S23] the 2.5.33-HT-aware benchmarks (seed 000), [S12] A9 for
 * the details F3's text does not show, [S24] 2.5.59 F3.  Docs:
 * docs/policies/ht.md.
 *
 * Versions are rows of ht_versions[] (a base o1 version plus the HT
 * features); only f3 exists.  E6/A9/B2/C1 slot in as rows: A9 sets the
 * latch on the busy runqueue, skips one-CPU runqueues, adds the equal-
 * priority preemption to wake_up_cpu and AGRESSIVE_IDLE_STEAL (hot rule
 * O1_HOT_IF_IDLE) on the 2.5.68 base; B2 turns the steal off.
 *
 * Choices where the sources are uncertain (INFERRED; knobs where they
 * change results):
 *   - A "package" of Ingo's patch (phys_proc_id on 2002 Xeons, one core
 *     each) is an SMT core of the topology: the runqueue is shared by
 *     sl_topo_siblings().  On a machine without SMT every runqueue has one
 *     CPU, which is the patch built with NR_SIBLINGS=0: the stock
 *     scheduler, so ht behaves exactly as o1 of its base version there
 *     (all HT features are switched off).
 *   - Sync wakeups are activated without wake_up_cpu, as in 2.5.59 F3
 *     [S24]; the 2.5.31 text does not show this detail.
 *   - active_steal_hot=on: the migration thread's pull may take the task
 *     it just preempted (see o1_balance.c).
 *   - idle_pickup=tick: an idle sibling takes a task waiting on its
 *     core's runqueue at its next tick (nothing else would kick it after a
 *     fork or a sync wakeup; seed 000's four folding@home tasks used all
 *     four logical CPUs).  See o1_core.c.
 *   - idle_active=1: a wholly idle core asks for active balancing every
 *     1 ms, standing in for the idle entries that kernel threads and
 *     wakeups caused on a real machine (the code asks only when a CPU goes
 *     idle in schedule(): idle_active=0).  A core idle since boot never
 *     goes idle again in the simulator, so with 0 two hogs that both run
 *     on one package stay there.
 *   - The F3 latch sits on the asking CPU; the answering migration thread
 *     clears it (see o1_balance.c).
 *   - The pickup may keep prev, and the 2.5.31 sibling-idle check of
 *     active balancing works (the "continue" bug is 2.5.59 F3's).  See
 *     o1_core.c and o1_balance.c.
 *
 * Omitted / simplified: those of o1_core.c and o1_balance.c; also the
 * patch's boot-time sched_map_runqueue and the test_ht option (the
 * topology is known from the start), and the user affinity API (tasks
 * keep their allowed mask; the pickup honours it per logical CPU).
 */
#include <string.h>

#include "base/spec.h"
#include "policy/o1_core.h"
#include "policy/policy.h"
#include "sim/sim.h"

struct ht_version {
	const char *name;
	const char *base;		/* o1 version row it patches */
	bool wake_up_cpu_sync;		/* wake_up_cpu for sync wakeups too */
	bool wake_equal_prio;		/* equal prio, larger slice preempts (A9) */
	enum o1_active_flag active_flag;
	bool active_skip_single;
	bool aggressive_idle_steal;	/* E6..A9: idle pulls ignore hotness */
};

static const struct ht_version ht_versions[] = {
	{
		.name = "f3",
		.base = "2.5.33",
		.wake_up_cpu_sync = false,
		.wake_equal_prio = false,
		.active_flag = O1_ACTIVE_FLAG_REQUESTER,
		.active_skip_single = false,
		.aggressive_idle_steal = false,
	},
};

static const struct sl_param_def ht_knobs[] = {
	{ .name = "version", .type = SL_PARAM_CHOICE, .def = "f3", .choices = "f3",
	  .doc = "patch version: f3 = 2.5.31-2.5.33 (Aug 2002), on stock 2.5.33" },
	{ .name = "hz", .type = SL_PARAM_INT, .def = "1000", .min = 100, .max = 10000,
	  .doc = "timer ticks per second (2.5 on i386: 1000)" },
	{ .name = "cache_decay_ticks", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 100000,
	  .doc = "ticks a task stays cache-hot (default: derived from the L2 size and clock)" },
	{ .name = "scan_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "scheduler cost per schedule() and per runqueue or task a balance looks at "
		 "(default: the machine's costs of a pick and of examining one item)" },
	{ .name = "active_steal_hot", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "the migration thread's pull may take the cache-hot task it just preempted" },
	{ .name = "idle_pickup", .type = SL_PARAM_CHOICE, .def = "tick", .choices = "tick|off",
	  .doc = "an idle sibling takes a task waiting on its core's runqueue at its next tick" },
	{ .name = "idle_active", .type = SL_PARAM_INT, .def = "1", .min = 0, .max = 1000000,
	  .doc = "ms between active-balance requests of a wholly idle core "
		 "(0: only when a CPU goes idle)" },
	{ .name = NULL },
};

static const struct ht_version *ht_version_find(const char *name)
{
	for (size_t i = 0; i < sizeof(ht_versions) / sizeof(ht_versions[0]); i++)
		if (!strcmp(ht_versions[i].name, name))
			return &ht_versions[i];
	return NULL;
}

/* The HT features of row hv, if the machine has SMT siblings at all. */
static void ht_configure(struct o1_config *cfg, const struct ht_version *hv,
			 const struct sl_params *knobs, const struct sl_topo *topo)
{
	if (topo->threads_per_core < 2)
		return;		/* NR_SIBLINGS=0: the stock scheduler */
	cfg->share_siblings = true;
	cfg->wake_up_cpu = true;
	cfg->wake_up_cpu_sync = hv->wake_up_cpu_sync;
	cfg->wake_equal_prio = hv->wake_equal_prio;
	cfg->active_balance = true;
	cfg->active_flag = hv->active_flag;
	cfg->active_skip_single = hv->active_skip_single;
	cfg->active_steal_hot = sl_param_choice(knobs, "active_steal_hot") == 0;
	cfg->idle_pickup_tick = sl_param_choice(knobs, "idle_pickup") == 0;
	cfg->idle_active_ms = (int)sl_param_int(knobs, "idle_active");
	if (hv->aggressive_idle_steal)
		cfg->hot = O1_HOT_IF_IDLE;
}

static void *ht_init(struct sl_sim *sim, const struct sl_params *knobs, struct sl_err *err)
{
	const struct ht_version *hv = ht_version_find(sl_param_str(knobs, "version"));
	struct o1_config cfg;

	o1_config_init(&cfg, sim, knobs, o1_version_find(hv->base), true);
	ht_configure(&cfg, hv, knobs, sl_topo(sim));
	return o1_core_create(sim, &cfg, err);
}

const struct sl_policy_ops sl_policy_ht = {
	.name = "ht",
	.summary = "Ingo Molnar's shared-runqueue HT scheduler (F3, 2.5.31-33) on O(1)",
	.knobs = ht_knobs,
	.task_size = sizeof(struct o1_task),
	.init = ht_init,
	.destroy = o1_core_destroy,
	.fork = o1_core_fork,
	.wakeup = o1_core_wakeup,
	.pick_next = o1_core_pick_next,
	.tick = o1_core_tick,
	.exit = o1_core_exit,
	.migration = o1_core_migration,
	.check = o1_core_check,
};
