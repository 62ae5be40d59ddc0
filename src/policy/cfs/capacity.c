/*
 * cfs/capacity.c - what the RT class leaves the fair class of each CPU
 * (capacity_of) and of each sched_group: a CPU whose RT tasks ran a share
 * u of the recent past (avg_rt, PELT, cfs/pelt.c) offers fair tasks
 * capacity_orig - u, and the balancer weighs loads against that.
 *
 * The kernel refreshes it lazily: a CPU that balances a domain first
 * refreshes its own group there (update_group_capacity; a newly-idle
 * balance only once the group's next_update has passed), its own
 * capacity at the lowest level (update_cpu_capacity, scale_rt_capacity),
 * above that the sum of the child domain's groups as they were last left.
 * So another CPU's RT load shows in a group only after that CPU balanced.
 *
 * Sources: Linux 6.12 kernel/sched/fair.c (scale_rt_capacity,
 * update_cpu_capacity, update_group_capacity, check_cpu_capacity, and
 * their callers update_sd_lb_stats, sched_balance_find_src_rq,
 * need_active_balance, nohz_balancer_kick), pelt.h (cpu_util_rt).
 *
 * Omitted: IRQ time (scale_irq_capacity: no IRQ time is modelled), the
 * deadline class (avg_dl), hardware pressure (fixed clocks), min/max
 * capacity (read only on asymmetric machines); the groups of a NUMA level
 * never overlap here (cfs/topology.c), so a group's capacity is always the
 * sum of its child's groups.
 */
#include "policy/cfs/cfs.h"
#include "sim/sim.h"

/* update_group_capacity() above the lowest level: the sum of the child
 * domain's groups as they were last left (the lowest level's case,
 * update_cpu_capacity with scale_rt_capacity, is inline in cfs.h:
 * cfs_update_group_capacity). */
long cfs_group_capacity_sum(const struct cfs_domain *sd)
{
	const struct cfs_span *child = sd[-1].span;
	long sum = 0;
	for (int i = 0; i < child->ngroups; i++)
		sum += child->groups[i].capacity;
	return sum;
}
