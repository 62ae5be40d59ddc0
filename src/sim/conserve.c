/*
 * conserve.c - work conservation: CPUs left idle while tasks wait.
 *
 * After Lozi et al., "The Linux Scheduler: a Decade of Wasted Cores"
 * (EuroSys 2016): the CPU-time in which a CPU sat idle while a task it was
 * allowed to run was runnable and running nowhere.  At any instant that is
 * min(idle CPUs of the workload's set, waiting tasks) CPUs: every task may
 * run on every CPU of the set its root was given (sl_sim_set_root_allowed,
 * all CPUs by default), so a matching of waiting tasks to idle CPUs always
 * exists.  (Tasks pinned to smaller sets of their own would make this an
 * upper bound.)  The migration thread counts as busy: a CPU running it is
 * not idle, and the task it preempted waits.
 *
 * On SMT machines also: the core-time in which a core ran two or more
 * tasks on its siblings while another core ran nothing - min(shared cores,
 * idle cores) cores at any instant - the placement an SMT-aware scheduler
 * avoids and an SMT-blind one (stock O(1) on a 2x2 HT Xeon) does not.
 *
 * The state changes only inside events, so the engine integrates it once
 * per event over the stretch since the last (sl__conserve_advance), and
 * every change of a CPU's occupancy updates the counts in O(1)
 * (sl__occupancy), and the mask of idle CPUs that policies read
 * (sl_idle_cpus).
 */
#include <stdlib.h>

#include "base/err.h"
#include "sim/internal.h"

void sl__conserve_init(struct sl_sim *sim)
{
	struct sl_conserve *k = &sim->cons;
	int ncores = sim->topo->ncores;

	k->core_busy = sl_xcalloc((unsigned long)ncores, sizeof(int));
	k->core_running = sl_xcalloc((unsigned long)ncores, sizeof(int));
	k->ncores_idle = ncores;
	k->nallowed = sim->ncpus;
	k->episode_start = -1;
	k->smt = sim->ncpus > ncores;
}

void sl__conserve_free(struct sl_sim *sim)
{
	free(sim->cons.core_busy);
	free(sim->cons.core_running);
	sim->cons.core_busy = sim->cons.core_running = NULL;
}

static int waiting_tasks(const struct sl_sim *sim)
{
	int w = sim->nr_runnable - sim->cons.nrunning;
	return w > 0 ? w : 0;	/* < 0 only within an event, for no time */
}

void sl__conserve_advance(struct sl_sim *sim)
{
	struct sl_conserve *k = &sim->cons;
	sl_time span = sim->now - k->last;

	if (span <= 0)
		return;
	int idle = k->nallowed - k->nbusy_allowed, waiting = waiting_tasks(sim);
	int wasted = idle < waiting ? idle : waiting;
	if (wasted > 0) {
		k->idle_waiting_ns += span * wasted;
		if (k->episode_start < 0)
			k->episode_start = k->last;
	} else if (k->episode_start >= 0) {
		if (k->last - k->episode_start > k->longest_ns)
			k->longest_ns = k->last - k->episode_start;
		k->episode_start = -1;
	}
	if (k->smt) {
		int pairs = k->ncores_shared < k->ncores_idle ? k->ncores_shared : k->ncores_idle;
		k->smt_shared_idle_ns += span * pairs;
	}
	k->last = sim->now;
}

void sl__occupancy(struct sl_sim *sim, struct sl_cpu *c)
{
	struct sl_conserve *k = &sim->cons;
	bool running = c->curr != NULL, busy = running || c->in_migration;
	int *cb = &k->core_busy[c->core], *cr = &k->core_running[c->core];

	if (busy != c->occ_busy) {
		if (busy)
			sl_cpumask_unset(&sim->idle_cpus, c->id);
		else
			sl_cpumask_set(&sim->idle_cpus, c->id);
		k->ncores_idle -= *cb == 0;
		*cb += busy ? 1 : -1;
		k->ncores_idle += *cb == 0;
		if (sl_cpumask_test(&sim->root_allowed, c->id))
			k->nbusy_allowed += busy ? 1 : -1;
		c->occ_busy = busy;
	}
	if (running != c->occ_running) {
		k->ncores_shared -= *cr >= 2;
		*cr += running ? 1 : -1;
		k->ncores_shared += *cr >= 2;
		k->nrunning += running ? 1 : -1;
		c->occ_running = running;
	}
}

void sl__conserve_mask(struct sl_sim *sim)
{
	struct sl_conserve *k = &sim->cons;

	k->nallowed = k->nbusy_allowed = 0;
	sl_for_each_cpu(c, &sim->root_allowed) {
		k->nallowed++;
		k->nbusy_allowed += sim->cpus[c].occ_busy;
	}
}

/* The stretch still open at the end of the run counts too. */
void sl__conserve_stats(const struct sl_sim *sim, struct sl_run_stats *out)
{
	const struct sl_conserve *k = &sim->cons;
	sl_time longest = k->longest_ns;

	if (k->episode_start >= 0 && k->last - k->episode_start > longest)
		longest = k->last - k->episode_start;
	out->idle_waiting_ns = k->idle_waiting_ns;
	out->idle_waiting_max_ns = longest;
	out->smt_shared_idle_ns = k->smt_shared_idle_ns;
}
