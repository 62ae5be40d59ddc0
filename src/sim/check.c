/*
 * check.c - invariants verified after every event when a run is created
 * with check = true (the tests do): every task accounted for, each running
 * task on exactly one CPU and runnable, on a CPU it is allowed on (or one
 * whose migration thread or reschedule is pending after a mask change),
 * runnable count consistent, every sleeper with something to wake it (a
 * vfork()ing parent: exactly one child that will), CPU time never more
 * than CPUs x elapsed, and the policy's own consistency check; and
 * before each event, a tick to come while a task is runnable and every
 * running task with its completion queued, at the speed its last timing
 * took.
 */
#include "sim/internal.h"

/* Whether t sleeps in a vfork(), until its child's exec or exit. */
static bool vfork_waiting(const struct sl_task *t)
{
	return t->state == SL_TASK_SLEEPING && t->act.kind == SL_ACT_FORK && t->act.u.fork.vfork;
}

/*
 * What times the run, checked once the re-timings an event decided are
 * done (sl__flush_bursts): a tick to come while a task is runnable; each
 * running task's completion queued, and at the speed its progress is
 * settled at, the one its last timing took: whatever changes a running
 * task's speed (what its siblings run, its node's contention, its kernel
 * phase) must re-time it.
 */
int sl__check_timing(struct sl_sim *sim, struct sl_err *err)
{
	/* a runnable task's slice is counted down by ticks */
	if (sim->nr_runnable > 0 && !sl_event_queued(&sim->tick_ev))
		return sl_fail_internal(err, "check: %d runnable tasks and no tick to come",
					sim->nr_runnable);
	for (int i = 0; i < sim->ncpus; i++) {
		struct sl_cpu *c = &sim->cpus[i];
		if (!c->curr)
			continue;
		if (!sl_event_queued(&c->burst_ev))
			return sl_fail_internal(err, "check: CPU %d runs task %d with no completion "
						"queued", i, c->curr->id);
		double now = sl__speed_now(sim, c);
		if (now != c->curr->speed)
			return sl_fail_internal(err, "check: CPU %d's task %d runs at speed %g but "
						"was timed at %g: its speed changed without a "
						"re-timing", i, c->curr->id, now, c->curr->speed);
	}
	return 0;
}

/* Each CPU's armed nanosleep hrtimers (timers.c): sleeping tasks whose
 * timer is queued on that CPU, soft expiry at or before the hard one,
 * hard expiries in order, and as many listed as the `armed` tasks. */
static int check_hrtimers(const struct sl_sim *sim, long armed, struct sl_err *err)
{
	long listed = 0;

	for (int i = 0; i < sim->ncpus; i++) {
		const struct sl_dlist *list = &sim->cpus[i].hrtimers;
		long n = sl_dlist_check(list, armed - listed);
		if (n < 0)
			return sl_fail_internal(err, "check: CPU %d's hrtimer list is broken or holds "
						"more than the %ld armed", i, armed);
		listed += n;
		const struct sl_task *before = NULL;
		for (const struct sl_dlink *l = list->head; l; l = l->next) {
			const struct sl_task *t = sl__hrtimer_task(l);
			if (t->hrt_soft < 0 || t->state != SL_TASK_SLEEPING ||
			    !sl_event_queued(&t->timer) || t->timer.cpu != i ||
			    t->hrt_soft > t->timer.time || (before && before->timer.time > t->timer.time))
				return sl_fail_internal(err, "check: task %d's nanosleep hrtimer is out of "
							"place on CPU %d's list", t->id, i);
			before = t;
		}
	}
	if (armed != listed)
		return sl_fail_internal(err, "check: %ld nanosleep hrtimers armed, %ld listed", armed,
					listed);
	return 0;
}

int sl__check(struct sl_sim *sim, struct sl_err *err)
{
	int live = 0, runnable = 0, vfork_parents = 0, vfork_children = 0;
	long hrtimers_armed = 0;
	double max_refill = sl_cache_refill_max(sim->model);

	for (struct sl_task *t = sl__first_task(sim); t; t = sl__next_task(t)) {
		live++;
		if (t->state == SL_TASK_RUNNABLE)
			runnable++;
		if (t->cpu >= 0) {
			if (t->cpu >= sim->ncpus || sim->cpus[t->cpu].curr != t)
				return sl_fail_internal(err, "check: task %d claims CPU %d, which runs %d",
							t->id, t->cpu,
							t->cpu < sim->ncpus && sim->cpus[t->cpu].curr
								? sim->cpus[t->cpu].curr->id : -1);
			if (t->state != SL_TASK_RUNNABLE)
				return sl_fail_internal(err, "check: task %d runs on CPU %d but is not runnable",
							t->id, t->cpu);
			/* A mask just changed (set_cpus_allowed) leaves the task
			 * running where it is until what the policy asked for
			 * takes it off: that CPU's migration thread (2.6) or its
			 * reschedule (2.4).  Only while one is pending: once it
			 * has run, the task must be elsewhere. */
			const struct sl_cpu *on = &sim->cpus[t->cpu];
			if (!sl_cpumask_test(&t->allowed, t->cpu) && !on->migration_pending &&
			    !on->need_resched)
				return sl_fail_internal(err, "check: task %d runs on CPU %d, outside its "
							"cpus_allowed, and nothing is to move it",
							t->id, t->cpu);
		}
		if (t->debt_user > max_refill + 1.0)
			return sl_fail_internal(err, "check: task %d owes %.0f ns of cache refill, more "
						"than a whole footprint costs (%.0f)", t->id,
						t->debt_user, max_refill);
		if (t->state == SL_TASK_SLEEPING && !t->waitq && !sl_event_queued(&t->timer) &&
		    t->act.kind != SL_ACT_WAIT && t->act.kind != SL_ACT_DISK_IO && !vfork_waiting(t))
			return sl_fail_internal(err, "check: task %d sleeps with nothing to wake it", t->id);
		/* a vfork()ing parent is woken by its child (result: the
		 * child's id), which points back at it: one child each */
		vfork_parents += vfork_waiting(t);
		hrtimers_armed += t->hrt_soft >= 0;
		if (t->vfork_parent) {
			if (!vfork_waiting(t->vfork_parent) || t->vfork_parent->result != t->id)
				return sl_fail_internal(err, "check: task %d would wake task %d at its "
							"exec, which is not waiting for it in vfork()",
							t->id, t->vfork_parent->id);
			vfork_children++;
		}
	}
	if (vfork_children != vfork_parents)
		return sl_fail_internal(err, "check: %d tasks wait in vfork(), %d children will wake "
					"them", vfork_parents, vfork_children);
	if (live != sim->nr_live)
		return sl_fail_internal(err, "check: %d live tasks listed, %d counted", live, sim->nr_live);
	if (runnable != sim->nr_runnable)
		return sl_fail_internal(err, "check: %d runnable tasks, %d counted", runnable,
					sim->nr_runnable);

	sl_time cpu_time = 0;
	for (int i = 0; i < sim->ncpus; i++) {
		const struct sl_cpu *c = &sim->cpus[i];
		if (c->curr && c->curr->cpu != i)
			return sl_fail_internal(err, "check: CPU %d runs task %d which says CPU %d",
						i, c->curr->id, c->curr->cpu);
		if (c->curr && c->in_migration)
			return sl_fail_internal(err, "check: CPU %d runs a task during migration", i);
		if (c->curr && c->idle_work_until)
			return sl_fail_internal(err, "check: CPU %d runs task %d with idle work left",
						i, c->curr->id);
		if (sl_cpumask_test(&sim->idle_cpus, i) != sl_cpu_idle(sim, i))
			return sl_fail_internal(err, "check: CPU %d is %sin the idle mask", i,
						sl_cpu_idle(sim, i) ? "not " : "");
		if (__builtin_add_overflow(cpu_time, c->stats.user_ns + c->stats.sys_ns, &cpu_time))
			return sl_fail_internal(err, "check: CPU time overflows at CPU %d", i);
	}
	if (check_hrtimers(sim, hrtimers_armed, err))
		return -1;
	if (sl__bandwidth_limited(sim)) {
		for (int n = 0; n < sim->topo->nnodes; n++) {
			int64_t d = 0;
			for (int i = 0; i < sim->ncpus; i++) {
				const struct sl_task *t = sim->cpus[i].curr;
				double mi;
				int mem = t ? sl__mem_node(sim, t, &mi) : -1;
				if (mem == n)
					d += sl__demand_units(mi);
				else if (mem == SL_MEM_SPLIT)
					d += sl__demand_units(mi * sl__split_share(t->mem_split, n));
			}
			if (d != sim->mem_demand[n])	/* integers: exact */
				return sl_fail_internal(err, "check: node %d memory demand %.6f, running tasks %.6f",
							n, sl__demand_intensity(sim->mem_demand[n]),
							sl__demand_intensity(d));
		}
	}
	/* Settling is lazy: allow each CPU its unsettled segment.  The bound
	 * is computed without overflow whatever now is (the horizon keeps it
	 * small, but this check must not be what breaks on a broken clock). */
	sl_time bound;
	if (__builtin_mul_overflow((sl_time)sim->ncpus, sim->now, &bound) ||
	    __builtin_add_overflow(bound, (sl_time)sim->ncpus, &bound))
		bound = SL_TIME_MAX;
	if (cpu_time > bound)
		return sl_fail_internal(err, "check: %.6f s of CPU time in %.6f s on %d CPUs",
					sl_ns_to_s(cpu_time), sl_ns_to_s(sim->now), sim->ncpus);
	if (sim->ops->check && sim->ops->check(sim, err))
		return -1;
	return 0;
}
