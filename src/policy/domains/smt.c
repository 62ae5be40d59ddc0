/*
 * domains/smt.c - SMT nice handling of 2.6.12 (Con Kolivas): a logical CPU
 * idles rather than run a task much less important than what its sibling
 * runs, because the two share one core's execution resources
 * (dependent_sleeper), kicks a sibling that runs something much less
 * important, and wakes held-back siblings when it goes idle
 * (wake_sleeping_dependent) or at its idle tick (wake_priority_sleeper).
 *
 * "Much more important" compares one task's remaining slice, discounted by
 * per_cpu_gain (the share of a core a second thread is assumed to add,
 * 25 % in 2.6.12, 15 % in the 2.6.6 era), against the other's full slice.
 * Since the slice is a monotone function of nice, a nice 19 task beside a
 * nice 0 one runs only in the last stretch of the nice 0 task's slice
 * (2.6.12's slices: while it has at most 7 of its 100 ms left, 7 x 75 /
 * 100 = 5 being no more than the nice 19 task's 5 ms in integers).
 *
 * Sources: 2.6.12.1 kernel/sched.c (dependent_sleeper,
 * wake_sleeping_dependent, wake_priority_sleeper, scheduler_tick,
 * schedule) and include/linux/topology.h (per_cpu_gain 25 in
 * SD_SIBLING_INIT); the 2.6.6-era include/linux/sched.h for per_cpu_gain 15.
 *
 * Choices:
 *   - Applies to the CPU's base domain when it has SD_SHARE_CPUPOWER (the
 *     SMT level) and the knob smt_nice is on (default: on for 2.6.12, off
 *     for w26, which predates it).
 *   - The migration thread on a sibling is a kernel thread: it neither
 *     holds a task back nor is kicked.
 *   - RT tasks as 2.6.12.1: an RT sibling holds back any user task that is
 *     not RT, and an RT task kicks a sibling running one that is not.
 *
 * Omitted / simplified:
 *   - The lock dance of the kernel (releasing this runqueue's lock to take
 *     all the siblings') and the re-checks it forces.
 */
#include "policy/domains/domains.h"
#include "sim/sim.h"

static const struct sd_domain *sd_smt_domain(const struct sd_sched *s, int cpu)
{
	const struct sd_domain *sd = sd_rq(s, cpu)->sd;

	return sd && (sd->p.flags & SD_SHARE_CPUPOWER) ? sd : NULL;
}

/* A sibling idles (the idle task, not the migration thread) with work. */
static bool sd_idle_with_work(struct sl_sim *sim, const struct sd_sched *s, int cpu)
{
	return sl_cpu_idle(sim, cpu) && sd_rq(s, cpu)->nr_running > 0;
}

bool sd_dependent_sleeper(struct sl_sim *sim, struct sd_sched *s, int cpu,
			  const struct sd_task *p)
{
	const struct sd_domain *sd = sd_smt_domain(s, cpu);
	bool ret = false;

	if (!sd)
		return false;
	int keep = 100 - sd->p.per_cpu_gain;
	bool p_user = !p->task->kthread;
	sd_for_each_cpu(i, s, &sd->span) {
		if (i == cpu)
			continue;
		struct sl_task *sc = sl_curr(sim, i);
		if (!sc) {
			if (sd_idle_with_work(sim, s, i))
				sl_resched(sim, i);
			continue;
		}
		const struct sd_task *q = sd_of(sc);
		if (!p_user || sc->kthread)
			continue;	/* kernel threads never sleep for this */
		/* the sibling runs something much more important (or RT):
		 * hold p back, unless p is RT itself */
		if ((q->time_slice * keep / 100 > sd_task_timeslice(s, p) || sd_rt(q)) &&
		    !sd_rt(p))
			ret = true;
		/* p is much more important (or RT) than what the sibling runs,
		 * which is not RT: kick it */
		if ((p->time_slice * keep / 100 > sd_task_timeslice(s, q) || sd_rt(p)) &&
		    !sd_rt(q))
			sl_resched(sim, i);
	}
	return ret;
}

void sd_wake_sleeping_dependent(struct sl_sim *sim, struct sd_sched *s, int cpu)
{
	const struct sd_domain *sd = sd_smt_domain(s, cpu);

	if (!sd)
		return;
	sd_for_each_cpu(i, s, &sd->span)
		if (i != cpu && sd_idle_with_work(sim, s, i))
			sl_resched(sim, i);
}

bool sd_wake_priority_sleeper(struct sl_sim *sim, struct sd_sched *s, int cpu)
{
	if (!sd_rq(s, cpu)->nr_running)
		return false;
	/* held back for priority reasons: see whether it may run now */
	sl_resched(sim, cpu);
	return true;
}
