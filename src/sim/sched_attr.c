/*
 * sched_attr.c - changing a live task: its scheduling class, RT priority
 * and nice (sched_setscheduler, setpriority/renice) and its allowed CPUs
 * (sched_setaffinity/taskset -p).
 *
 * The kernel split these between generic code and the scheduler: the
 * syscall checks and sets the fields, the scheduler moves the task where
 * the new values put it (2.6.11 kernel/sched.c: sched_setscheduler
 * dequeues, sets, requeues and preempts; set_cpus_allowed hands a task on
 * a now-forbidden CPU to the migration thread).  Here the engine does the
 * first half and calls the policy's op for the second.
 */
#include "sim/internal.h"

bool sl_policy_supports_sched(const struct sl_policy_ops *ops, int sched_policy)
{
	if (sched_policy == SL_SCHED_NORMAL)
		return true;
	if (sched_policy < 0 || sched_policy >= 32)
		return false;
	return (ops->sched_policies >> sched_policy) & 1;
}

bool sl_sim_supports_sched(const struct sl_sim *sim, int sched_policy)
{
	return sl_policy_supports_sched(sim->ops, sched_policy);
}

const char *sl_sched_policy_name(int sched_policy)
{
	switch (sched_policy) {
	case SL_SCHED_NORMAL:
		return "SCHED_NORMAL";
	case SL_SCHED_FIFO:
		return "SCHED_FIFO";
	case SL_SCHED_RR:
		return "SCHED_RR";
	case SL_SCHED_BATCH:
		return "SCHED_BATCH";
	case SL_SCHED_IDLE:
		return "SCHED_IDLE";
	case SL_SCHED_DEADLINE:
		return "SCHED_DEADLINE";
	}
	return "SCHED_?";
}

void sl_task_setscheduler(struct sl_sim *sim, struct sl_task *t,
			  const struct sl_sched_attr *attr)
{
	struct sl_sched_attr old = {
		.sched_policy = t->sched_policy,
		.rt_priority = t->rt_priority,
		.nice = t->nice,
	};

	t->sched_policy = attr->sched_policy;
	t->rt_priority = attr->rt_priority;
	t->nice = attr->nice;
	if (sim->ops->setscheduler && t->state != SL_TASK_DEAD)
		sim->ops->setscheduler(sim, t, &old);
}

void sl_task_set_allowed(struct sl_sim *sim, struct sl_task *t, const sl_cpumask *mask)
{
	t->allowed = sl_cpumask_and(*mask, &sim->topo->all_cpus);
	if (sim->ops->set_allowed && t->state != SL_TASK_DEAD)
		sim->ops->set_allowed(sim, t);
}
