/*
 * o1/versions.c - the stock O(1) scheduler's versions as data: one row per
 * kernel, constants plus the rules that changed between them (the NUMA
 * scheduler among them), and cache_decay_ticks as the machine's arch
 * computed it at boot.
 *
 * Sources: 2.6.0 kernel/sched.c and kernel/fork.c; a 2.5.6x kernel/sched.c
 * (the "-" side of Ingo Molnar's sched-2.5.68-A9, LKML
 * <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com>);
 * Ingo's 2.5.3 balancer post (LKML, 28 Jan 2002,
 * <Pine.LNX.4.33.0201281754050.10067-100000@localhost.localdomain>: child
 * runs first, rebalance ticks); Ingo's sched-2.5.59-D7 (LKML, 20 Jan 2003,
 * <Pine.LNX.4.44.0301202204210.18235-100000@localhost.localdomain>: the
 * child in front of the parent; its "-" side the stock 2.5.59 fork); the
 * 2.5.59 constants in Rick Lindsley's split of D7 (Martin J. Bligh, LKML,
 * 13 Feb 2003, <7790000.1045177072@[10.10.2.4]>); i386 smp_tune_scheduling
 * as quoted in Ingo's sched-2.6.0-test1-G3; Matthew Dobson's
 * sched_cleanup-2.5.40 (the 2.5.40 imbalance rule); Ingo's B0 node ticks
 * (LKML, 17 Jan 2003, <Pine.LNX.4.44.0301171607510.10244-100000@localhost.localdomain>);
 * Martin Bligh's numasched3 (decaying node load).
 *
 * Choices (documented in docs/policies/o1.md):
 *   2.5.33   No 2.5.33 sched.c is at hand.  It takes the 2.5.59-era
 *            values: MAX_TIMESLICE 300,
 *            MAX_SLEEP_AVG and STARVATION_LIMIT 2*HZ, CHILD_PENALTY 95, busy
 *            rebalance HZ/4, idle 1 ms passing idle=1, hot tasks never
 *            stolen, the half-difference imbalance.  It differs from 2.5.59
 *            only in having no NUMA scheduler (that came with 2.5.59)
 *            and in a child's exit waking its parent plainly, as 2.4's
 *            wake_up_parent (2.5.59 on: 2.6.11's sync __wake_up_parent;
 *            both UNVERIFIED, the choice and its evidence in o1/config.c).
 *   2.5.68   The interactivity retune, the HZ/5 busy tick, the node
 *            ticks and activate_task's requeue_waker are in the 2.5.68
 *            base of Ingo's A9; which 2.5.6x release first had them is
 *            UNVERIFIED.  D7's fork placement (child in front of the
 *            parent) reached mainline in 2.5.6x, before 2.5.68; which
 *            release is not known (knob fork_place).
 *   2.6.0    Node load normalised as 10 * node_nr_running / CPUs of the
 *            node; the 2.5.x rows use the raw count.  Its idle tick
 *            passes idle=0 to the intra-node load_balance, as 2.5.68's
 *            does (2.6.0 kernel/sched.c rebalance_tick(): inside
 *            `if (idle)`, balance_node(this_rq, idle, ...) but
 *            load_balance(this_rq, 0, ...)).
 *
 * The NUMA constants common to every NUMA row (NODE_THRESHOLD 125 %, the
 * decay load/2 + count, the default NODE_BALANCE_RATE 100 of i386 NUMA-Q)
 * are in o1/numa.c and o1/config.c.
 *
 * Omitted / simplified:
 *   - The 2.6.x EXPIRED_STARVING test on the best expired static priority:
 *     it arrived after 2.6.0 (with best_expired_prio), outside these rows.
 *   - B0's first node ticks (idle x2 = 2 ms, Jan 2003): the rows carry the
 *     x5 / x2 of the 2.5.6x file.
 */
#include <string.h>

#include "policy/o1/core.h"

static const struct o1_version o1_versions[] = {
	{
		.name = "2.5.33",	/* 2.5.31/2.5.59-era constants */
		.min_timeslice_ms = 10, .max_timeslice_ms = 300,
		.interactivity = O1_SLEEP_JIFFIES,
		.max_sleep_avg_ms = 2000, .starvation_limit_ms = 2000,
		.child_penalty = 95, .parent_penalty = 100, .exit_weight = 3,
		.prio_bonus_ratio = 25, .interactive_delta = 2,
		.sleep_credit_offset = 0,
		.requeue_waker = false,
		.sync_rule = O1_SYNC_CREDIT,
		.fork_place = O1_FORK_TAIL, .expired_ts_always = false,
		.exit_wake_sync = false,
		.preempt_equal_prio = true,
		.busy_rebalance_ms = 250, .idle_rebalance_ms = 1,
		.idle_tick_passes_idle = true,
		.imbalance = O1_IMBALANCE_HALF,
		.hot = O1_HOT_NEVER,
		.decay_plus_one = false,
		.numa = false,
	},
	{
		.name = "2.5.59",	/* Jan 2003, base of Ingo's D7/E6/F3 */
		.min_timeslice_ms = 10, .max_timeslice_ms = 300,
		.interactivity = O1_SLEEP_JIFFIES,
		.max_sleep_avg_ms = 2000, .starvation_limit_ms = 2000,
		.child_penalty = 95, .parent_penalty = 100, .exit_weight = 3,
		.prio_bonus_ratio = 25, .interactive_delta = 2,
		.sleep_credit_offset = 0,
		.requeue_waker = false,
		.sync_rule = O1_SYNC_CREDIT,
		.fork_place = O1_FORK_TAIL, .expired_ts_always = false,
		.exit_wake_sync = true,
		.preempt_equal_prio = true,
		.busy_rebalance_ms = 250, .idle_rebalance_ms = 1,
		.idle_tick_passes_idle = true,
		.imbalance = O1_IMBALANCE_HALF,
		.hot = O1_HOT_NEVER,
		.decay_plus_one = false,
		.numa = true, .node_balance = O1_NODE_RATE,
		.node_load_per_cpu = false,
		.idle_node_factor = 5, .busy_node_factor = 2,	/* node_balance=ticks only */
	},
	{
		.name = "2.5.68",	/* Apr 2003: interactivity retune, HZ/5 */
		.min_timeslice_ms = 10, .max_timeslice_ms = 200,
		.interactivity = O1_SLEEP_JIFFIES,
		.max_sleep_avg_ms = 10000, .starvation_limit_ms = 10000,
		.child_penalty = 50, .parent_penalty = 100, .exit_weight = 3,
		.prio_bonus_ratio = 25, .interactive_delta = 2,
		.sleep_credit_offset = 1,
		.requeue_waker = true,
		.sync_rule = O1_SYNC_QUIET,
		.fork_place = O1_FORK_FRONT, .expired_ts_always = false,
		.exit_wake_sync = true,
		.preempt_equal_prio = true,
		.busy_rebalance_ms = 200, .idle_rebalance_ms = 1,
		.idle_tick_passes_idle = false,
		.imbalance = O1_IMBALANCE_HALF,
		.hot = O1_HOT_NEVER,
		.decay_plus_one = false,
		.numa = true, .node_balance = O1_NODE_TICKS,
		.node_load_per_cpu = false,
		.idle_node_factor = 5, .busy_node_factor = 2,
	},
	{
		.name = "2.6.0",	/* Dec 2003: ns interactivity, Nick's fixes */
		.min_timeslice_ms = 10, .max_timeslice_ms = 200,
		.interactivity = O1_SLEEP_NS,
		.max_sleep_avg_ms = 0, .starvation_limit_ms = 0,	/* derived */
		.child_penalty = 95, .parent_penalty = 100, .exit_weight = 3,
		.prio_bonus_ratio = 25, .interactive_delta = 2,
		.sleep_credit_offset = 0,
		.requeue_waker = false,
		.on_runqueue_weight = 30, .credit_limit = 100,
		.sync_rule = O1_SYNC_QUIET_LOCAL,
		.fork_place = O1_FORK_FRONT, .expired_ts_always = true,
		.exit_wake_sync = true,
		.preempt_equal_prio = false,
		.busy_rebalance_ms = 200, .idle_rebalance_ms = 1,
		.idle_tick_passes_idle = false,	/* load_balance(this_rq, 0, ...) */
		.imbalance = O1_IMBALANCE_QUARTER,
		.hot = O1_HOT_IF_IDLE,
		.decay_plus_one = true,
		.numa = true, .node_balance = O1_NODE_TICKS,
		.node_load_per_cpu = true,
		.idle_node_factor = 5, .busy_node_factor = 2,
	},
};

const char o1_version_choices[] = "2.5.33|2.5.59|2.5.68|2.6.0";

const struct o1_version *o1_version_find(const char *name)
{
	for (size_t i = 0; i < sizeof(o1_versions) / sizeof(o1_versions[0]); i++)
		if (!strcmp(o1_versions[i].name, name))
			return &o1_versions[i];
	return NULL;
}

/*
 * cache_decay_ticks, as each arch's smp_tune_scheduling() set it at boot.
 *
 * i386: cacheflush_time = (cpu_khz>>10) * (L2 kB<<10) / 350 cycles, the
 * time to refill the L2 at an assumed 350 MB/s (16 kB at 100 MB/s when
 * the L2 size is unknown).  2.5 divided by cpu_khz and scaled by
 * HZ/1000; 2.6.0-test1 onwards adds one and no longer scales (2.6.11
 * `cache_decay_ticks = (long)cacheflush_time/cpu_khz + 1`: i386's HZ was
 * fixed at 1000, so the milliseconds were ticks; a 512 kB P4 Xeon: 1 tick
 * on 2.5, 2 on 2.6; at a what-if hz=100, 2 ticks of 10 ms).
 * x86_64 (2.6.11 arch/x86_64/kernel/smpboot.c): the same at 1000 MB/s,
 * scaled by HZ/1000, without the one.
 * ia64 (2.6.11 arch/ia64/kernel/smpboot.c): 10 ticks whatever the CPU,
 * "equal to MIN_TIMESLICE" (UNVERIFIED for 2.5: no 2.5 ia64 tree at hand).
 */
int o1_cache_decay_ticks(const struct sl_topo *topo, const struct o1_version *v, unsigned hz)
{
	unsigned long long khz = topo->cpu_khz;
	unsigned long long flush, bandwidth = topo->arch == SL_ARCH_X86_64 ? 1000 : 350;
	bool plus_one = v->decay_plus_one && topo->arch == SL_ARCH_I386;

	if (topo->arch == SL_ARCH_IA64)
		return 10;
	if (!khz)
		return plus_one ? 1 : 0;
	if (topo->l2_kb)
		flush = (khz >> 10) * ((unsigned long long)topo->l2_kb << 10) / bandwidth;
	else
		flush = (khz >> 10) * (16ULL << 10) / 100;
	long long ms = (long long)(flush / khz);
	long long ticks = plus_one ? ms + 1 : ms * hz / 1000;
	return ticks > 100000 ? 100000 : (int)ticks;
}
