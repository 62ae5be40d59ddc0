/*
 * cfs/gsum.c - each scheduling group's sums of its CPUs' load, utilisation,
 * runnable average and task counts, kept as the CPUs change, so that the
 * host reads a group's statistics in O(1) where the kernel walks its CPUs.
 *
 * What it models: nothing new.  6.12's update_sg_wakeup_stats() (fork and
 * exec placement, find_idlest_group) and update_sg_lb_stats() (the periodic
 * and newly-idle balance) visit every CPU of every group of a domain and
 * add up cpu_load(), cpu_util_cfs(), cpu_runnable(), nr_running and the
 * NUMA counts, and count the idle CPUs: O(CPUs) per call, the kernel's own
 * cost, which the simulation still charges (the walk's CPU count goes to
 * cfs_charge_scan as before).  The host no longer pays it: every group
 * keeps the sums of what its CPUs last contributed, and a CPU whose values
 * may have changed is marked (cfs_gsum_touch, where its PELT averages or
 * task counts are written); before any group is read the marked CPUs'
 * contributions are taken again and the differences added to the groups
 * that hold them (one per domain level: the spans of one level partition
 * the machine, topology.c).  The values are integers, so the sums are the
 * walk's exactly, in any order.  Idle CPUs are counted a word at a time
 * from masks: the engine's idle CPUs and this policy's CPUs without fair
 * (and without RT) tasks.  A task whose cpus_allowed leaves out part of a
 * group is placed by the walk (select.c), and so is everything on machines
 * under CFS_GSUM_MIN_CPUS.  cfs_gsum_check() compares every group with a
 * walk after every event of a checked run (the tests).
 *
 * Sources: Linux 6.12 kernel/sched/fair.c, update_sg_wakeup_stats and
 * update_sg_lb_stats (what is summed); idle_cpu() (what idle is).
 */
#include <stdlib.h>

#include "base/err.h"
#include "policy/cfs/cfs.h"
#include "sim/sim.h"

/* Below this many CPUs a walk of a group (at most a few CPUs at every
 * level of the presets) costs the host less than keeping the sums: a
 * 4-CPU sdet ran 2.7 % more instructions with them, 8 CPUs 1.9 %, 32
 * CPUs 0.6 % fewer, 128 CPUs 11 % fewer, 1,024 CPUs half (cfs
 * kernbench scaled with the machine, callgrind).  Test builds keep the
 * sums on every machine, to check them. */
#define CFS_GSUM_MIN_CPUS 32

static struct cfs_gsum cfs_gsum_now(const struct cfs_rq *rq)
{
	return (struct cfs_gsum){ .load = cfs_cpu_load(rq), .util = cfs_cpu_util(rq),
				  .runnable = cfs_cpu_runnable(rq), .nr_running = cfs_nr_all(rq),
				  .h_nr_running = rq->nr_running,
				  .nr_numa_running = rq->nr_numa_running,
				  .nr_preferred_running = rq->nr_preferred_running };
}

static inline void cfs_gsum_add(struct cfs_gsum *sum, const struct cfs_gsum *d)
{
	sum->load += d->load;
	sum->util += d->util;
	sum->runnable += d->runnable;
	sum->nr_running += d->nr_running;
	sum->h_nr_running += d->h_nr_running;
	sum->nr_numa_running += d->nr_numa_running;
	sum->nr_preferred_running += d->nr_preferred_running;
}

/* The group of rq's domain at `level` that holds rq's CPU. */
static struct cfs_group *cfs_gsum_group(struct cfs_rq *rq, int level)
{
	return &rq->sd[level].span->groups[rq->sd[level].local];
}

static inline void cfs_gsum_masks(struct cfs *s, const struct cfs_rq *rq)
{
	if (rq->nr_running)
		sl_cpumask_unset(&s->no_fair, rq->cpu);
	else
		sl_cpumask_set(&s->no_fair, rq->cpu);
	if (cfs_rt_nr_counted(rq))	/* none while throttled */
		sl_cpumask_unset(&s->no_rt, rq->cpu);
	else
		sl_cpumask_set(&s->no_rt, rq->cpu);
}

void cfs_gsum_init(struct cfs *s)
{
	s->gsum_dirty = sl_xcalloc((unsigned long)s->ncpus, sizeof(int));
	s->nr_gsum_dirty = 0;
	s->gsum_on = s->ncpus >= CFS_GSUM_MIN_CPUS;
#ifdef SL_TESTING
	s->gsum_on = true;	/* tests check the sums on every machine */
#endif
	if (!s->gsum_on) {
		/* marked for good: a touch is a test of the flag */
		for (int cpu = 0; cpu < s->ncpus; cpu++)
			s->rq[cpu].gsum_dirty = true;
		return;
	}
	for (int i = 0; i < s->nr_spans; i++)
		for (int g = 0; g < s->spans[i].ngroups; g++)
			s->spans[i].groups[g].sum = (struct cfs_gsum){ 0 };
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct cfs_rq *rq = &s->rq[cpu];
		rq->gsum = cfs_gsum_now(rq);
		rq->gsum_dirty = false;
		for (int l = 0; l < rq->nsd; l++)
			cfs_gsum_add(&cfs_gsum_group(rq, l)->sum, &rq->gsum);
		cfs_gsum_masks(s, rq);
	}
}

void cfs_gsum_free(struct cfs *s)
{
	free(s->gsum_dirty);
	s->gsum_dirty = NULL;
}

void cfs_gsum_flush_dirty(struct cfs *s)
{
	for (int i = 0; i < s->nr_gsum_dirty; i++) {
		struct cfs_rq *rq = &s->rq[s->gsum_dirty[i]];
		struct cfs_gsum now = cfs_gsum_now(rq), *was = &rq->gsum;
		struct cfs_gsum d = {
			.load = now.load - was->load, .util = now.util - was->util,
			.runnable = now.runnable - was->runnable,
			.nr_running = now.nr_running - was->nr_running,
			.h_nr_running = now.h_nr_running - was->h_nr_running,
			.nr_numa_running = now.nr_numa_running - was->nr_numa_running,
			.nr_preferred_running = now.nr_preferred_running - was->nr_preferred_running,
		};
		cfs_gsum_masks(s, rq);
		if (d.load || d.util || d.runnable || d.nr_running || d.h_nr_running ||
		    d.nr_numa_running || d.nr_preferred_running)
			for (int l = 0; l < rq->nsd; l++)
				cfs_gsum_add(&cfs_gsum_group(rq, l)->sum, &d);
		*was = now;
		rq->gsum_dirty = false;
	}
	s->nr_gsum_dirty = 0;
}

int cfs_gsum_idle(const struct cfs *s, const struct cfs_group *g)
{
	const sl_cpumask *idle = sl_idle_cpus(s->sim);
	int n = 0;

	for (int wi = g->first_cpu >> 6; wi <= (g->end_cpu - 1) >> 6; wi++)
		n += sl_popcount64(g->span.w[wi] & s->no_fair.w[wi] & s->no_rt.w[wi] &
				   idle->w[wi]);
	return n;
}

void cfs_gsum_read(struct cfs *s, const struct cfs_group *g, struct cfs_sg_stats *st)
{
	cfs_gsum_flush(s);
	st->load = g->sum.load;
	st->util = g->sum.util;
	st->runnable = g->sum.runnable;
	st->nr_running = g->sum.nr_running;
	st->h_nr_running = g->sum.h_nr_running;
	st->idle_cpus = cfs_gsum_idle(s, g);
}

int cfs_gsum_check(struct cfs *s, struct sl_err *err)
{
	if (!s->gsum_on)
		return 0;
	if (s->gsum_wrong)
		return sl_fail_internal(err, "cfs: fork/exec placement read sums of the group of "
					"CPU %d unlike a walk of its CPUs", s->gsum_wrong - 1);
	cfs_gsum_flush(s);
	for (int i = 0; i < s->nr_spans; i++) {
		for (int gi = 0; gi < s->spans[i].ngroups; gi++) {
			const struct cfs_group *g = &s->spans[i].groups[gi];
			struct cfs_gsum walk = { 0 };
			int idle = 0;
			cfs_for_each_group_cpu(c, g) {
				struct cfs_gsum v = cfs_gsum_now(&s->rq[c]);
				cfs_gsum_add(&walk, &v);
				idle += cfs_cpu_idle(s, c);
			}
			const struct cfs_gsum *k = &g->sum;
			if (walk.load != k->load || walk.util != k->util ||
			    walk.runnable != k->runnable || walk.nr_running != k->nr_running ||
			    walk.h_nr_running != k->h_nr_running ||
			    walk.nr_numa_running != k->nr_numa_running ||
			    walk.nr_preferred_running != k->nr_preferred_running)
				return sl_fail_internal(err, "cfs: group of CPU %d (span %d): kept sums "
							"load %ld util %ld runnable %ld nr %d/%d/%d/%d, its "
							"CPUs load %ld util %ld runnable %ld nr %d/%d/%d/%d",
							g->first_cpu, i, k->load, k->util, k->runnable,
							k->nr_running, k->h_nr_running, k->nr_numa_running,
							k->nr_preferred_running, walk.load, walk.util,
							walk.runnable, walk.nr_running, walk.h_nr_running,
							walk.nr_numa_running,
							walk.nr_preferred_running);
			if (cfs_gsum_idle(s, g) != idle)
				return sl_fail_internal(err, "cfs: group of CPU %d (span %d): %d idle "
							"CPUs counted from masks, %d by asking each",
							g->first_cpu, i, cfs_gsum_idle(s, g), idle);
		}
	}
	return 0;
}
