/*
 * domains/wake.c - where a task goes when it wakes up or execs: 2.6.12's
 * wake affine / wake balance / wake idle, w26's sched_balance_wake and
 * FASTMIGRATE rules, and exec balancing (sched_exec / find_idlest_cpu of
 * 2.6.12, w26's NUMA-only sched_balance_exec) through the migration thread.
 *
 * Sources: 2.6.12.1 kernel/sched.c (try_to_wake_up, wake_idle, sched_exec,
 * find_idlest_cpu, sched_migrate_task, migration_thread); 2.6.0
 * kernel/sched.c (the sync-wakeup rule); 2.6.11 and 2.6.12.1 kernel/signal.c
 * __wake_up_parent (a child's exit wakes its parent sync); for w26 the sched-domains code of
 * early 2004 (sched_balance_wake, the SD_FLAG_FASTMIGRATE walk, the
 * low/high guesses, NUMA-only sched_balance_exec with sched_best_cpu) and
 * Nick Piggin's mails of Dec 2003 on w26 (SD_FLAG_WAKE on the sibling
 * domain).
 *
 * Choices:
 *   - A sync wakeup subtracts one task from the waker's target load
 *     (2.6.12); the result is clamped at 0 where the kernel's unsigned
 *     arithmetic would wrap (never while the waker is its CPU's current,
 *     which the engine keeps so for an exit wakeup too: a guard).
 *   - task_hot for wake affine is measured against the old CPU's last
 *     tick, as can_migrate_task's.
 *   - w26's low/high guesses at wakeup read the waker's memory without
 *     updating it; only balancing updates it.
 *   - w26's exec balancing (sched_balance_exec, NUMA only): its
 *     sched_best_cpu rule is not known.  Used: the least loaded CPU
 *     of the lowest SD_BALANCE_EXEC domain, our own CPU counted with its
 *     low guess and every other with its high guess plus one task (the
 *     one that would move), first CPU on ties.  INFERRED.
 *   - Idle CPUs: the kernel's idle_cpu(), the CPU running its idle task,
 *     is the engine's sl_cpu_idle(): one given a task it has not yet
 *     switched to (its reschedule IPI in flight) is still idle, so two
 *     wakeups in that window both take it, as in the kernel, whose
 *     wake_idle() reads cpu_curr without that CPU's runqueue lock (until
 *     Dec 2026 the model also asked for an empty runqueue).
 *
 * Omitted / simplified:
 *   - SD_BALANCE_CLONE / wake_up_forked_thread of 2.6.7-2.6.8: neither
 *     modelled version has it.
 *   - A task woken while still current on its CPU: the engine switches a
 *     blocking task out before anything can wake it.
 */
#include "policy/domains/domains.h"
#include "sim/sim.h"

/* ---- 2.6.12 ---- */

/* The first CPU of span & allowed that is idle (sl_cpu_idle), or -1: the
 * kernel's walk over the span in CPU order, taken a word at a time from
 * the engine's mask of idle CPUs, so a busy span costs a few word
 * operations, not a test per CPU. */
static int sd_first_idle(struct sl_sim *sim, const struct sd_sched *s, const sl_cpumask *span,
			 const sl_cpumask *allowed)
{
	const sl_cpumask *idle = sl_idle_cpus(sim);
	int words = (s->ncpus + 63) / 64;

	for (int w = 0; w < words; w++) {
		uint64_t bits = span->w[w] & allowed->w[w] & idle->w[w];
		if (bits)
			return (w << 6) + __builtin_ctzll(bits);
	}
	return -1;
}

/* wake_idle: the CPU itself if idle, else the first idle CPU of each
 * SD_WAKE_IDLE domain outwards.  Compiled only with CONFIG_SCHED_SMT
 * (2.6.11/2.6.12.1 include/linux/topology.h ARCH_HAS_SCHED_WAKE_IDLE);
 * without it wake_idle() returns the CPU. */
static int sd_wake_idle(struct sl_sim *sim, struct sd_sched *s, int cpu,
			const struct sd_task *p)
{
	if (!s->wake_idle || sl_cpu_idle(sim, cpu))
		return cpu;
	sd_for_each_domain(s, cpu, sd) {
		if (!(sd->p.flags & SD_WAKE_IDLE))
			break;
		int idle = sd_first_idle(sim, s, &sd->span, &p->task->allowed);
		if (idle >= 0)
			return idle;
	}
	return cpu;
}

static int sd_wake_cpu_2612(struct sl_sim *sim, struct sd_sched *s, const struct sd_task *p,
			    int this_cpu, bool sync)
{
	int cpu = p->cpu, new_cpu = cpu;

	if (cpu == this_cpu || !sl_cpumask_test(&p->task->allowed, this_cpu))
		goto out_set;

	long load = (long)sd_source_load(sim, s, cpu);
	long this_load = (long)sd_target_load(sim, s, this_cpu);
	if (sync)
		this_load -= SD_LOAD_SCALE;	/* the waker is about to sleep */
	if (this_load < 0)
		this_load = 0;
	/* don't pull a task off an idle CPU onto a busy one */
	if (load < SD_LOAD_SCALE / 2 && this_load > SD_LOAD_SCALE / 2)
		goto out_set;

	new_cpu = this_cpu;
	sl_time last_tick = sd_rq(s, cpu)->timestamp_last_tick;
	sd_for_each_domain(s, this_cpu, sd) {
		long imb = sd->p.imbalance_pct + (sd->p.imbalance_pct - 100) / 2;
		if ((sd->p.flags & SD_WAKE_AFFINE) && !sd_task_hot(p, last_tick, sd)) {
			/* cold for this level: wake it beside its waker */
			if (sl_cpumask_test(&sd->span, cpu))
				goto out_set;
		} else if ((sd->p.flags & SD_WAKE_BALANCE) && imb * this_load <= 100 * load) {
			/* passive balancing at half the imbalance_pct */
			if (sl_cpumask_test(&sd->span, cpu))
				goto out_set;
		}
	}
	new_cpu = cpu;	/* no domain qualified: its own CPU */
out_set:
	return sd_wake_idle(sim, s, new_cpu, p);
}

/* ---- w26 ---- */

/* sched_balance_wake: a busy CPU whose base domain has SD_FLAG_WAKE hands
 * the task to the first idle CPU of that domain. */
static int sd_balance_wake(struct sl_sim *sim, struct sd_sched *s, int cpu,
			   const struct sd_task *p)
{
	const struct sd_domain *sd = sd_rq(s, cpu)->sd;

	if (sl_cpu_idle(sim, cpu) || !sd || !(sd->p.flags & SD_FLAG_WAKE))
		return cpu;
	int idle = sd_first_idle(sim, s, &sd->span, &p->task->allowed);
	return idle >= 0 ? idle : cpu;
}

static int sd_wake_cpu_w26(struct sl_sim *sim, struct sd_sched *s, const struct sd_task *p,
			   int this_cpu)
{
	int cpu = p->cpu;

	if (cpu == this_cpu || !sl_cpumask_test(&p->task->allowed, this_cpu))
		return sd_balance_wake(sim, s, cpu, p);
	/* its old CPU is busier than ours by more than a task: come here */
	if (sd_low_load(s, this_cpu, cpu, false) >
	    sd_high_load(s, this_cpu, this_cpu, false) + SD_LOAD_SCALE)
		return sd_balance_wake(sim, s, this_cpu, p);
	sl_time last_tick = sd_rq(s, cpu)->timestamp_last_tick;
	sd_for_each_domain(s, this_cpu, sd) {
		if (!(sd->p.flags & SD_FLAG_FASTMIGRATE) || sd_task_hot(p, last_tick, sd))
			break;
		if (sl_cpumask_test(&sd->span, cpu))
			return sd_balance_wake(sim, s, this_cpu, p);
	}
	return sd_balance_wake(sim, s, cpu, p);
}

/* ---- try_to_wake_up ---- */

void sd_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags)
{
	struct sd_sched *s = sl_policy_data(sim);
	struct sd_task *p = sd_of(t);
	/* 2.6.11/2.6.12.1 __wake_up_parent: wake_up_interruptible_sync */
	bool sync = flags & (SL_WAKE_SYNC | SL_WAKE_CHILD_EXIT);

	sd_settle_affinity(sim, s, p);
	int old = p->cpu;
	int cpu = s->v->rules == SD_RULES_W26 ? sd_wake_cpu_w26(sim, s, p, waker_cpu) :
						sd_wake_cpu_2612(sim, s, p, waker_cpu, sync);

	if (cpu != old) {
		sl_note_migration(sim, t, old, cpu);
		p->cpu = cpu;
	}
	/* try_to_wake_up: an involuntary sleeper earns no more than just
	 * interactive (2.6.0, 2.6.12.1); a move by the migration thread
	 * (activate_task alone) leaves the mark as it is */
	if (t->uninterruptible)
		p->activated = -1;
	bool local = sync && cpu == waker_cpu;
	if (local && s->v->sync_quiet) {
		/* 2.6.0: the waker will schedule at once; no credit, no preemption */
		sd_activate(sim, s, cpu, p, false, false);
	} else {
		sd_activate(sim, s, cpu, p, true, flags & SL_WAKE_IRQ);
		if (!local && sd_preempts(sim, p, cpu))
			sl_resched(sim, cpu);
	}
}

/* ---- exec balancing ---- */

/* 2.6.12 find_idlest_cpu: least target_load in sd, if moving beats half
 * the imbalance_pct against our source_load plus the task itself. */
static int sd_find_idlest_cpu(struct sl_sim *sim, struct sd_sched *s, const struct sd_task *p,
			      int this_cpu, const struct sd_domain *sd)
{
	unsigned long min_load = (unsigned long)-1;
	int min_cpu = this_cpu;
	long looked = 0;

	sd_for_each_cpu_and(i, s, &sd->span, &p->task->allowed) {
		unsigned long load = sd_target_load(sim, s, i);
		looked++;
		if (load < min_load) {
			min_cpu = i;
			min_load = load;
			if (!min_load)
				break;	/* an empty CPU: look no further */
		}
	}
	sl_charge_sched(sim, this_cpu, looked * s->scan_ns);
	unsigned long this_load = sd_source_load(sim, s, this_cpu) + SD_LOAD_SCALE;
	unsigned long pct = 100 + (unsigned long)(sd->p.imbalance_pct - 100) / 2;
	return min_load * pct < this_load * 100 ? min_cpu : this_cpu;
}

/* w26 sched_best_cpu (INFERRED, see the header). */
static int sd_best_cpu_w26(struct sd_sched *s, const struct sd_task *p, int this_cpu,
			   const struct sd_domain *sd)
{
	unsigned long min_load = (unsigned long)-1;
	int best = this_cpu;

	sd_for_each_cpu_and(i, s, &sd->span, &p->task->allowed) {
		unsigned long load = i == this_cpu ?
			sd_low_load(s, this_cpu, i, false) :
			sd_high_load(s, this_cpu, i, false) + SD_LOAD_SCALE;
		if (load < min_load) {
			min_load = load;
			best = i;
		}
	}
	return best;
}

void sd_exec(struct sl_sim *sim, struct sl_task *t)
{
	struct sd_sched *s = sl_policy_data(sim);
	struct sd_task *p = sd_of(t);
	int this_cpu = t->cpu;
	struct sd_domain *exec_sd = NULL;

	if (this_cpu < 0 || (s->v->exec_numa_only && s->topo->nnodes < 2))
		return;
	/* prefer the current CPU if this is the only task there */
	if (sd_nr_running(s, this_cpu) <= 1)
		return;
	sd_for_each_domain(s, this_cpu, sd) {
		if (!(sd->p.flags & SD_BALANCE_EXEC))
			continue;
		exec_sd = sd;
		if (s->v->rules == SD_RULES_W26)
			break;		/* w26: the lowest such domain */
	}				/* 2.6.12: the highest */
	if (!exec_sd)
		return;
	int new_cpu = s->v->rules == SD_RULES_W26 ?
		      sd_best_cpu_w26(s, p, this_cpu, exec_sd) :
		      sd_find_idlest_cpu(sim, s, p, this_cpu, exec_sd);
	struct sd_rq *rq = sd_rq(s, this_cpu);
	if (new_cpu == this_cpu || rq->migrate_task)
		return;
	/* sched_migrate_task: the migration thread preempts t and moves it */
	rq->migrate_task = t;
	rq->migrate_dest = new_cpu;
	sd_wake_migration(sim, s, this_cpu, new_cpu);
}
