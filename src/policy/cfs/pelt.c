/*
 * cfs/pelt.c - per-entity load tracking: exponentially decaying averages
 * of how much a task, and a CPU, was runnable (load: weighted; runnable:
 * 1024 per runnable task) and running (util: up to the CPU's capacity),
 * with a half-life of 32 periods of 1024 us.  A CPU's averages keep the
 * decaying contribution of its sleeping tasks (blocked load); a task that
 * changes CPU takes its own averages with it (attach / detach).
 *
 * Sources: Linux kernel/sched/pelt.c (___update_load_sum/avg, the y^32 =
 * 1/2 decay), fair.c (attach/detach_entity_load_avg,
 * post_init_entity_util_avg, cpu_util_cfs, cpu_load, cpu_runnable,
 * task_h_load); CPU invariance: a running task contributes the capacity of
 * its CPU (arch_scale_cpu_capacity), 1024 unless smt_gain is set.
 *
 * Omitted / simplified:
 *   - The kernel sums whole 1024 us periods with a table of y^n and carries
 *     the partial period; here the average decays continuously,
 *     avg' = avg * y^dt + contribution * (1 - y^dt), which is the same
 *     signal without the period quantisation.
 *   - util_est (the estimated utilisation of sleeping tasks) and uclamp:
 *     utilisation is util_avg alone.
 *   - Frequency invariance: machines run at a fixed clock.
 *   - Group entities (task_h_load is the task's own load_avg).
 */
#include <math.h>

#include "policy/cfs/cfs.h"
#include "sim/sim.h"

/* 32 periods of 1024 * 1024 ns: the half-life of every signal. */
#define CFS_PELT_HALFLIFE_NS (32.0 * 1024.0 * 1024.0)

/* y^dt.  Most steps repeat the last interval (a CPU's tick, a task's
 * period between two ticks), so the last one is remembered: the same
 * value without another exp2 (per thread: a sweep runs several sims). */
static double cfs_decay(sl_time dt)
{
	static _Thread_local sl_time memo_dt = -1;
	static _Thread_local double memo_y;

	if (dt != memo_dt) {
		memo_y = exp2(-(double)dt / CFS_PELT_HALFLIFE_NS);
		memo_dt = dt;
	}
	return memo_y;
}

static void cfs_avg_step(struct cfs_avg *a, sl_time now, double load, double runnable,
			 double util)
{
	sl_time dt = now - a->last;

	if (dt <= 0)
		return;
	double y = cfs_decay(dt);
	a->load = a->load * y + load * (1.0 - y);
	a->runnable = a->runnable * y + runnable * (1.0 - y);
	a->util = a->util * y + util * (1.0 - y);
	a->last = now;
}

void cfs_pelt_rq(struct cfs *s, struct cfs_rq *rq)
{
	cfs_avg_step(&rq->avg, sl_now(s->sim), (double)rq->load,
		     (double)rq->nr_running * CFS_CAPACITY_SCALE,
		     rq->curr ? (double)rq->capacity : 0.0);
}

void cfs_pelt_se(struct cfs *s, struct cfs_entity *se)
{
	const struct cfs_rq *rq = &s->rq[se->cpu];
	bool running = se->on_rq && rq->curr == se;

	cfs_avg_step(&se->avg, sl_now(s->sim), se->on_rq ? (double)se->weight : 0.0,
		     se->on_rq ? (double)CFS_CAPACITY_SCALE : 0.0,
		     running ? (double)rq->capacity : 0.0);
}

/* Both brought to the same clock by the caller. */
void cfs_pelt_attach(struct cfs_rq *rq, const struct cfs_entity *se)
{
	rq->avg.load += se->avg.load;
	rq->avg.runnable += se->avg.runnable;
	rq->avg.util += se->avg.util;
}

static double cfs_sub_positive(double a, double b)
{
	return a > b ? a - b : 0.0;
}

void cfs_pelt_detach(struct cfs_rq *rq, const struct cfs_entity *se)
{
	rq->avg.load = cfs_sub_positive(rq->avg.load, se->avg.load);
	rq->avg.runnable = cfs_sub_positive(rq->avg.runnable, se->avg.runnable);
	rq->avg.util = cfs_sub_positive(rq->avg.util, se->avg.util);
}

/*
 * init_entity_runnable_average() and post_init_entity_util_avg(): a new
 * task starts with its full weight as load, and with a share of its CPU's
 * utilisation proportional to its weight, capped at half the CPU's spare
 * capacity.
 */
void cfs_pelt_init_new(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se)
{
	cfs_pelt_rq(s, rq);
	double cap = ((double)rq->capacity - rq->avg.util) / 2.0;
	double util = 0.0;

	if (cap > 0) {
		if (rq->avg.util > 0) {
			util = rq->avg.util * (double)se->weight / (rq->avg.load + 1.0);
			if (util > cap)
				util = cap;
		} else {
			util = cap;
		}
	}
	se->avg.load = (double)se->weight;
	se->avg.util = util;
	se->avg.runnable = util;
	se->avg.last = sl_now(s->sim);
}

long cfs_cpu_load(struct cfs *s, struct cfs_rq *rq)
{
	cfs_pelt_rq(s, rq);
	return lround(rq->avg.load);
}

/* cpu_util_cfs(): never above the CPU's capacity. */
long cfs_cpu_util(struct cfs *s, struct cfs_rq *rq)
{
	cfs_pelt_rq(s, rq);
	long util = lround(rq->avg.util);
	return util < rq->capacity ? util : rq->capacity;
}

long cfs_cpu_runnable(struct cfs *s, struct cfs_rq *rq)
{
	cfs_pelt_rq(s, rq);
	return lround(rq->avg.runnable);
}

long cfs_task_load(struct cfs *s, struct cfs_entity *se)
{
	cfs_pelt_se(s, se);
	return lround(se->avg.load);
}

long cfs_task_util(struct cfs *s, struct cfs_entity *se)
{
	cfs_pelt_se(s, se);
	return lround(se->avg.util);
}
