/*
 * o1/config.c - the knobs that the policies o1, ht and up share, bound as a
 * struct o1_config of one version: the version's rules unless a knob chose
 * otherwise, and the checks that reject a combination the version cannot
 * have.  Each policy's own table says which of these knobs it offers; a
 * knob absent from the table keeps the version's rule.
 *
 * Sources: 2.5.59-2.6.0 kernel/sched.c load_balance() (imbalance rules,
 * the cache-hot test of each version: 2.5.x never, 2.6.0-test4 (!idle ||
 * cold), 2.6.0 idle || cold, RHEL3 both steals); 2.5.68 and 2.6.0
 * kernel/sched.c rebalance_tick() (inside `if (idle)`: balance_node() with
 * idle = 1, the node's own load_balance() with 0); 2.5.59 include/asm-ARCH/
 * topology.h NODE_BALANCE_RATE (i386 NUMA-Q 100, ia64 10, ppc64 10, x86-64
 * 30), taken for the machine's arch; Ingo Molnar's sched-2.5.59-B0 node
 * ticks.  HZ is the machine's arch's (policy/kernel_arch.h).
 *
 * Choices:
 *   - numa=on is rejected for 2.5.33: the NUMA scheduler came with 2.5.59,
 *     so that version has nothing to switch on.  numa=off is a kernel built
 *     without CONFIG_NUMA: one balancing domain of all CPUs, no node
 *     balancing, no exec balancing.
 *   - The node knobs (node_balance, node_balance_rate, idle_node_tick) are
 *     rejected when there is no NUMA scheduler, and node_balance_rate /
 *     idle_node_tick when the chosen node balancing does not use them,
 *     rather than ignored: a knob that cannot act is most likely a typo
 *     for another version.
 *   - idle_node_tick defaults to idle (idle = 1) whatever idle_tick says:
 *     the idle branch of 2.5.68's and 2.6.0's rebalance_tick passes its own
 *     idle flag to balance_node() but a literal 0 to the intra-node
 *     load_balance() beside it.  idle_node_tick=busy gives the node balance
 *     the 0 as well.
 *   - tick defaults to the arch's (policy/kernel_arch.h): bitrev on ia64,
 *     whose ia64_cpu_local_tick() staggers the ITC timers by bit-reversed
 *     fractions of a tick in 2.4.27 and 2.6.11 alike; elsewhere sync
 *     (every CPU's tick at the jiffy's start, the order a race) for every
 *     version.  2.4.27 i386 setup_APIC_timer()
 *     staggers the local APIC timers over smp_num_cpus+1 slices of the
 *     jiffy; 2.6.11's starts them all on the same IRQ0 edge.  No 2.5 or
 *     2.6.0 tree is at hand (UNVERIFIED): we take 2.6.11's form, because
 *     the slice is computed from smp_num_cpus, which 2.5 replaced by
 *     num_online_cpus() for CPU hotplug (INFERRED: the stagger went with
 *     it), and the O(1) code of 2.5 is 2.6's, not 2.4's.  tick=staggered
 *     gives 2.4's timers.
 *   - exit_wake defaults to the version row's (o1/versions.c): 2.6.11
 *     and 2.6.12.1 kernel/signal.c __wake_up_parent wake the parent with
 *     wake_up_interruptible_sync, 2.4.27's wake_up_parent with
 *     wake_up_interruptible.  No 2.5 or 2.6.0 signal.c is at hand
 *     (UNVERIFIED): 2.5.59 to 2.6.0 take the nearest source, 2.6.11's
 *     sync; 2.5.33 takes 2.4's plain wakeup, which the published make -j2
 *     runs of 2.5.31 and 2.5.33 show (a placement lottery: Ingo Molnar's
 *     stock runs "fluctuate much more", best 45.3 s against F3's 41.3;
 *     Allan MacKinnon's 138 and 147 s against 117) and a sync one does
 *     not (one outcome, the jobs on one package: docs/policies/o1.md).
 *   - yield defaults to the expired array for every version; which 2.5
 *     release first moved yielders there is not known (UNVERIFIED for
 *     2.5.33); yield=tail requeues within the active array.
 *   - preempt defaults to the machine's arch's defconfig (policy/
 *     kernel_arch.h): 2.6.11's i386 one sets CONFIG_PREEMPT=y, ia64's and
 *     x86_64's leave it out; 2.5's are not at hand (UNVERIFIED).  The
 *     published runs never say; preempt=none or full chooses.
 *   - timers defaults to jiffy with per-CPU wheels (sim/timers.c): a
 *     nanosleep wakes at the sleeping CPU's tick of jiffy
 *     now + timespec_to_jiffies(t) + 1 (2.6.12.1 kernel/timer.c).  The
 *     2.5 rows take it too: the per-CPU wheels came with Ingo Molnar's
 *     SMP timers in mid-2002, before 2.5.33 (UNVERIFIED, no 2.5 tree);
 *     timers=hrtimer or exact are what-ifs.
 *
 * Omitted / simplified: nothing beyond what the options describe.
 */
#include "policy/kernel_arch.h"
#include "policy/o1/core.h"
#include "sim/sim.h"

static const char *const o1_node_knobs[] = { "node_balance", "node_balance_rate",
					     "idle_node_tick", NULL };

static int o1_config_numa(struct o1_config *cfg, const struct sl_params *knobs,
			  const char *name, struct sl_err *err)
{
	const struct o1_version *v = cfg->v;

	if (sl_param_user_gave(knobs, "numa")) {
		bool on = sl_param_choice(knobs, "numa") == 0;
		if (on && !v->numa)
			return sl_fail(err, "policy '%s': numa=on: kernel %s has no NUMA "
				       "scheduler (it came with 2.5.59)", name, v->name);
		cfg->numa = on;
	}
	for (int i = 0; o1_node_knobs[i]; i++) {
		if (cfg->numa || !sl_param_user_gave(knobs, o1_node_knobs[i]))
			continue;
		if (v->numa)
			return sl_fail(err, "policy '%s': %s: needs the NUMA scheduler, which "
				       "numa=off switched off", name, o1_node_knobs[i]);
		return sl_fail(err, "policy '%s': %s: needs the NUMA scheduler, which kernel "
			       "%s does not have (it came with 2.5.59)", name, o1_node_knobs[i],
			       v->name);
	}
	cfg->node_balance = (enum o1_node_balance)sl_param_user_choice(knobs, "node_balance",
								       (int)v->node_balance);
	if (sl_param_user_gave(knobs, "node_balance_rate")) {
		if (cfg->node_balance != O1_NODE_RATE)
			return sl_fail(err, "policy '%s': node_balance_rate: only node_balance=rate "
				       "(2.5.59) counts load_balance calls; here node balancing "
				       "uses node ticks (kernel %s)", name, v->name);
		cfg->node_balance_rate = (int)sl_param_int(knobs, "node_balance_rate");
	}
	if (sl_param_user_gave(knobs, "idle_node_tick")) {
		if (cfg->node_balance != O1_NODE_TICKS)
			return sl_fail(err, "policy '%s': idle_node_tick: only node_balance=ticks "
				       "(2.5.68, 2.6.0) has node ticks; here node balancing counts "
				       "load_balance calls (kernel %s)", name, v->name);
		cfg->idle_node_tick_idle = sl_param_choice(knobs, "idle_node_tick") == 0;
	}
	return 0;
}

int o1_config_init(struct o1_config *cfg, struct sl_sim *sim, const struct sl_params *knobs,
		   const struct o1_version *v, bool smp, const char *name, struct sl_err *err)
{
	bool scan_given = sl_param_given(knobs, "scan_ns");
	enum sl_arch arch = sl_topo(sim)->arch;

	*cfg = (struct o1_config){
		.v = v,
		.hz = (unsigned)sl_param_int_or(knobs, "hz", sl_arch_hz_26(arch)),
		.scan_ns = scan_given ? sl_param_int(knobs, "scan_ns") : sl_cost_scan(sim, 1),
		.pick_ns = scan_given ? sl_param_int(knobs, "scan_ns") : sl_cost_pick(sim),
		.smp = smp,
		.hot = (enum o1_hot_rule)sl_param_user_choice(knobs, "steal_hot", (int)v->hot),
		.imbalance = (enum o1_imbalance_rule)sl_param_user_choice(knobs, "imbalance",
									  (int)v->imbalance),
		.idle_tick_idle = sl_param_user_choice(knobs, "idle_tick",
						       v->idle_tick_passes_idle ? 0 : 1) == 0,
		.yield = (enum o1_yield)sl_param_user_choice(knobs, "yield", O1_YIELD_EXPIRED),
		.fork_place = (enum o1_fork_place)sl_param_user_choice(knobs, "fork_place",
								       (int)v->fork_place),
		.tick = sl_arch_tick_knob(knobs, sl_arch_tick_26(arch)),
		.timers = (enum sl_timer_kind)sl_param_user_choice(knobs, "timers", SL_TIMERS_JIFFY),
		.exit_wake_sync = sl_param_user_choice(knobs, "exit_wake",
						       v->exit_wake_sync ? 0 : 1) == 0,
		.ulong_bits = sl_arch_ulong_knob_bits(arch, sl_param_user_choice(knobs, "ulong", 0)),
		.switch_stamp = sl_param_user_choice(knobs, "switch_stamp", 0) == 0,
		.preempt = sl_arch_preempt_knob(arch, sl_param_user_choice(knobs, "preempt", 0)),
		.numa = smp && v->numa,
		.node_balance = v->node_balance,
		.node_balance_rate = sl_arch_node_balance_rate(arch),
	};
	cfg->idle_node_tick_idle = true;	/* balance_node(this_rq, idle, ...) */
	if (sl_param_user_gave(knobs, "ulong") && v->interactivity != O1_SLEEP_NS)
		return sl_fail(err, "policy '%s': ulong: only 2.6.0's nanosecond sleep credit "
			       "can wrap; kernel %s counts sleep in jiffies", name, v->name);
	if (sl_param_user_gave(knobs, "switch_stamp") && v->interactivity != O1_SLEEP_NS)
		return sl_fail(err, "policy '%s': switch_stamp: only 2.6.0's nanosecond sleep "
			       "credit charges run time from a timestamp; kernel %s charges it by the tick",
			       name, v->name);
	if (sl_param_user_gave(knobs, "sched_clock") && v->interactivity != O1_SLEEP_NS)
		return sl_fail(err, "policy '%s': sched_clock: only 2.6.0's nanosecond sleep credit "
			       "reads it; kernel %s counts sleep in jiffies", name, v->name);
	cfg->cache_decay_ticks = sl_param_user_gave(knobs, "cache_decay_ticks") ?
		(int)sl_param_int(knobs, "cache_decay_ticks") :
		o1_cache_decay_ticks(sl_topo(sim), v, cfg->hz);
	if (o1_config_numa(cfg, knobs, name, err))
		return -1;
	/* CONFIG_NUMA is what cfg->numa stands for: numa=off, or a
	 * uniprocessor kernel (NUMA needs SMP), keeps the TSC's ns */
	cfg->jiffy_clock = v->interactivity == O1_SLEEP_NS &&
			   sl_arch_sched_clock_jiffies(arch, cfg->numa ? sl_topo(sim)->nnodes : 1,
						       sl_param_user_choice(knobs, "sched_clock", 0));
	return 0;
}
