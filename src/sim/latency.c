/*
 * latency.c - how long tasks waited for a CPU.
 *
 * A task's wait starts when it becomes runnable off a CPU (a wakeup, its
 * fork, or a preemption that leaves it queued) and ends when it is switched
 * in: the interval between the sched_wakeup (or sched_wakeup_new) and the
 * sched_switch tracepoints that `perf sched latency` measures, and for
 * preempted tasks the run-queue delay of 6.x's schedstats.  Waits after a
 * wakeup or fork go into the WAKEUP histogram; every wait, into RUNQ.  The
 * context switch the task then pays is not part of its wait.
 *
 * Two histograms of every task, and two per workload group on first use:
 * fixed memory (base/hist.h), no allocation on the hot path after a
 * group's first sample.
 */
#include <stdlib.h>

#include "base/hist.h"
#include "base/err.h"
#include "sim/internal.h"

void sl__lat_queued(struct sl_sim *sim, struct sl_task *t, bool woken)
{
	t->queued_at = sim->now;
	t->lat_woken = woken;
}

static void record(struct sl_sim *sim, enum sl_lat_kind kind, int group, uint64_t ns)
{
	struct sl_hist **h = &sim->lat[kind][group];
	if (!*h)
		*h = sl_xcalloc(1, sizeof(**h));
	sl_hist_record(*h, ns);
}

void sl__lat_dispatched(struct sl_sim *sim, struct sl_task *t)
{
	uint64_t ns = sim->now > t->queued_at ? (uint64_t)(sim->now - t->queued_at) : 0;
	int g = t->lat_group > 0 && t->lat_group < SL_LAT_GROUPS ? t->lat_group : 0;

	record(sim, SL_LAT_RUNQ, 0, ns);
	if (g)
		record(sim, SL_LAT_RUNQ, g, ns);
	if (t->lat_woken) {
		record(sim, SL_LAT_WAKEUP, 0, ns);
		if (g)
			record(sim, SL_LAT_WAKEUP, g, ns);
		t->lat_woken = false;
	}
}

void sl__lat_free(struct sl_sim *sim)
{
	for (int k = 0; k < 2; k++)
		for (int g = 0; g < SL_LAT_GROUPS; g++) {
			free(sim->lat[k][g]);
			sim->lat[k][g] = NULL;
		}
}

const struct sl_hist *sl_sim_latency(const struct sl_sim *sim, enum sl_lat_kind kind, int group)
{
	if ((kind != SL_LAT_WAKEUP && kind != SL_LAT_RUNQ) || group < 0 || group >= SL_LAT_GROUPS)
		return NULL;
	return sim->lat[kind][group];
}
