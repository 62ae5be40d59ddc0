/*
 * cfs/nohz.c - NO_HZ_IDLE: an idle CPU stops its tick, and with it its own
 * periodic balancing.  A busy CPU's tick that sees work to spread kicks one
 * idle CPU, the idle load balancer (ILB), which balances on behalf of
 * every idle CPU whose balance is due and brings their blocked load up to
 * date.
 *
 * Sources: Linux 6.12 kernel/sched/fair.c (nohz_balancer_kick, kick_ilb,
 * find_new_ilb, nohz_balance_enter_idle, nohz_balance_exit_idle,
 * set_cpu_sd_state_idle / _busy, update_nohz_stats, _nohz_idle_balance,
 * nohz_idle_balance, sched_balance_softirq, sched_balance_trigger,
 * cfs_rq_has_blocked), core.c (nohz_csd_func), kernel/time/tick-sched.c
 * (__tick_nohz_idle_stop_tick: nohz_balance_enter_idle when the tick goes
 * from running to stopped), kernel/time/Kconfig (NO_HZ_IDLE, the default).
 *
 * Choices (docs/policies/cfs.md, "NOHZ"):
 *   - An idle CPU's tick stops as soon as it goes idle: the idle
 *     governor's choice to keep it for an idle period it predicts short
 *     is not modelled.  It runs again when the CPU picks a task; the CPU
 *     stays in idle_cpus_mask until its first busy tick, as in the kernel.
 *   - The kick's IPI is the engine's (sl_resched, after the machine's IPI
 *     latency); the ILB handles it in that schedule(), where a CPU that is
 *     no longer idle by then drops it (nohz_csd_func).
 *   - sd_llc_shared's nr_busy_cpus is the LLC's size less its CPUs in
 *     idle_cpus_mask: the kernel changes the two together
 *     (set_cpu_sd_state_idle / _busy).
 *   - The ILB's scans are charged to the ILB, whose idle time pays them.
 *   - nohz=off gives a kernel without NO_HZ_IDLE (CONFIG_HZ_PERIODIC):
 *     every CPU ticks and an idle one balances for itself.
 *
 * A CPU whose newly-idle balance pulled nothing and that expects to idle
 * a while marks itself (NOHZ_NEWILB_KICK, nohz_newidle_balance) to bring
 * the idle CPUs' blocked load up to date as it enters its idle loop
 * (nohz_run_idle_balance), without an IPI: cfs_nohz_newidle and
 * cfs_nohz_run_idle.
 *
 * Omitted: asymmetric-packing and misfit kicks (no asymmetric CPUs);
 * housekeeping masks (every CPU is one).
 */
#include "policy/cfs/cfs.h"
#include "sim/sim.h"

#define NOHZ_BALANCE_KICK	(1u << 0)
#define NOHZ_STATS_KICK		(1u << 1)
#define NOHZ_NEXT_KICK		(1u << 2)
#define NOHZ_KICK_MASK		(NOHZ_BALANCE_KICK | NOHZ_STATS_KICK | NOHZ_NEXT_KICK)
/* not a kick (no IPI carries it): the CPU's own mark, cfs_nohz_newidle */
#define NOHZ_NEWILB_KICK	(1u << 3)
#define LOAD_AVG_PERIOD_MS	32	/* nohz.next_blocked: msecs_to_jiffies(LOAD_AVG_PERIOD) */

void cfs_nohz_init(struct cfs *s)
{
	s->lb_payer = -1;
	if (!s->nohz)
		return;
	sl_set_nohz(s->sim);
	/* the machine starts booted and idle: every CPU's tick stopped */
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		sl_tick_stop(s->sim, cpu);
		if (s->rq[cpu].nsd) {
			s->rq[cpu].nohz_tick_stopped = true;
			sl_cpumask_set(&s->nohz_idle, cpu);
			s->nohz_nr++;
		}
	}
}

void cfs_nohz_enter_idle(struct cfs *s, int cpu)
{
	struct cfs_rq *rq = &s->rq[cpu];

	if (!s->nohz || sl_tick_stopped(s->sim, cpu))
		return;	/* only when the tick goes from running to stopped */
	sl_tick_stop(s->sim, cpu);
	rq->has_blocked_load = true;
	if (!rq->nohz_tick_stopped) {
		if (!rq->nsd)
			return;	/* on_null_domain: a CPU alone does not play */
		rq->nohz_tick_stopped = true;
		sl_cpumask_set(&s->nohz_idle, cpu);
		s->nohz_nr++;
		s->nohz_needs_update = true;
	}
	s->nohz_has_blocked = true;
}

/* The tick runs again (tick_nohz_idle_exit).  sl_tick_restart() does
 * nothing unless the tick is stopped, which it is at a pick that ends an
 * idle period only: asked first, the call is not made at the others
 * (132,702 calls of 23 instructions in a p4dpe-2x2ht kernbench). */
void cfs_nohz_leave_idle(struct cfs *s, int cpu)
{
	if (s->nohz && sl_tick_stopped(s->sim, cpu))
		sl_tick_restart(s->sim, cpu);
}

/* nohz_balance_exit_idle(): at its first busy tick. */
static void nohz_exit_idle(struct cfs *s, struct cfs_rq *rq)
{
	if (!rq->nohz_tick_stopped)
		return;
	rq->nohz_tick_stopped = false;
	sl_cpumask_unset(&s->nohz_idle, rq->cpu);
	s->nohz_nr--;
}

/* sd_llc_shared->nr_busy_cpus */
static int llc_busy_cpus(const struct cfs *s, const struct cfs_rq *rq)
{
	return rq->llc_size - sl_cpumask_weight_and(&s->nohz_idle, rq->llc_span);
}

/* find_new_ilb(): the first CPU of idle_cpus_mask, other than this one,
 * that is idle. */
static int find_new_ilb(const struct cfs *s, int this_cpu)
{
	sl_for_each_cpu(cpu, &s->nohz_idle)
		if (cpu != this_cpu && cfs_cpu_idle(s, cpu))
			return cpu;
	return -1;
}

static void kick_ilb(struct cfs *s, int this_cpu, unsigned flags)
{
	if (flags & NOHZ_BALANCE_KICK)
		s->nohz_next_balance = sl_jiffies(s->sim) + 1;
	int ilb = find_new_ilb(s, this_cpu);
	if (ilb < 0)
		return;
	struct cfs_rq *irq = &s->rq[ilb];
	if ((irq->nohz_flags & flags) == flags)
		return;	/* nothing new for it */
	unsigned before = irq->nohz_flags;
	irq->nohz_flags |= flags;
	if (before & NOHZ_KICK_MASK)
		return;	/* a kick is on its way: it takes these too */
	sl_resched(s->sim, ilb);
}

void cfs_nohz_kick(struct cfs *s, int cpu)
{
	struct cfs_rq *rq = &s->rq[cpu];
	uint64_t j = sl_jiffies(s->sim);
	unsigned flags = 0;

	if (!s->nohz || !rq->nsd || cfs_cpu_idle(s, cpu))
		return;	/* rq->idle_balance: an idle CPU's tick kicks nobody */
	nohz_exit_idle(s, rq);
	if (!s->nohz_nr)
		return;
	if (s->nohz_has_blocked && j > s->nohz_next_blocked)
		flags = NOHZ_STATS_KICK;
	if (j >= s->nohz_next_balance) {
		/* rq->nr_running: every class's tasks; a fair task on a CPU
		 * RT has shrunk may find a better one (check_cpu_capacity) */
		if (cfs_nr_all(rq) >= 2 ||
		    (rq->nr_running >= 1 && cfs_capacity_reduced(rq, &rq->sd[0])) ||
		    (rq->sd_llc >= 0 && llc_busy_cpus(s, rq) > 1))
			flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
	}
	if (s->nohz_needs_update)
		flags |= NOHZ_NEXT_KICK;
	if (flags)
		kick_ilb(s, cpu, flags);
}

/* sched_balance_update_blocked_averages() for an idle CPU in
 * idle_cpus_mask, at most once a jiffy (update_nohz_stats); whether it
 * still has blocked load. */
static bool update_nohz_stats(struct cfs *s, int cpu, uint64_t j)
{
	struct cfs_rq *rq = &s->rq[cpu];

	if (!rq->has_blocked_load)
		return false;
	if (j <= rq->last_blocked_tick)
		return true;
	cfs_pelt_blocked(s, cpu);
	return rq->has_blocked_load;
}

/* One idle CPU of _nohz_idle_balance()'s loop: false when the ILB has
 * work of its own and the loop stops. */
static inline __attribute__((always_inline)) bool
nohz_balance_one(struct cfs *s, const struct cfs_rq *self, int cpu, unsigned flags, uint64_t j,
		 bool *has_blocked, uint64_t *next_balance, bool *update_next)
{
	if (!cfs_cpu_idle(s, cpu))
		return true;
	if (cfs_nr_all(self)) {
		/* the ILB has work of its own: the next kick goes on */
		if (flags & NOHZ_STATS_KICK)
			*has_blocked = true;
		if (flags & NOHZ_NEXT_KICK)
			s->nohz_needs_update = true;
		return false;
	}
	struct cfs_rq *rq = &s->rq[cpu];
	if (flags & NOHZ_STATS_KICK)
		*has_blocked |= update_nohz_stats(s, cpu, j);
	/* cpu is idle (the test above; the blocked averages' update does
	 * not change it) */
	if (j >= rq->next_balance && (flags & NOHZ_BALANCE_KICK))
		cfs_balance_domains(s, cpu, j, CFS_IDLE);
	if (*next_balance > rq->next_balance) {
		*next_balance = rq->next_balance;
		*update_next = true;
	}
	return true;
}

/*
 * _nohz_idle_balance(): every idle CPU in the mask, from the one after
 * the ILB round to the ILB itself (for_each_cpu_wrap(cpu,
 * idle_cpus_mask, ilb + 1)).  The walk is two plain ranges, ilb + 1 to
 * the last CPU, then 0 to ilb, each a cpumask_next over the mask's word
 * as it is at that step (sl_for_each_cpu_in): the word is read again after each CPU's
 * balance, so a change to the mask inside the loop is seen as the
 * kernel's walk would see it, and the CPUs visited are the same.  It
 * replaced a helper that chose the range and the wrap at every step
 * (about 60 instructions an idle CPU, outside its balance, with the one
 * below; 1.59 million of them in xeon-2s-smt javabench:size=200).
 * Out of line: inlined into cfs_pick_next, whose every call it is not
 * part of, it cost that function a register more at each pick
 * (`p4dpe-2x2ht` kernbench 421.87 -> 422.14 M instructions).
 */
static __attribute__((noinline)) void nohz_idle_balance(struct cfs *s, int ilb, unsigned flags)
{
	const struct cfs_rq *self = &s->rq[ilb];
	uint64_t j = sl_jiffies(s->sim);
	uint64_t next_balance = j + 60 * (uint64_t)s->hz;
	bool has_blocked = false, update_next = false;

	if (flags & NOHZ_STATS_KICK)
		s->nohz_has_blocked = false;
	if (flags & NOHZ_NEXT_KICK)
		s->nohz_needs_update = false;
	s->lb_payer = ilb;
	for (int pass = 0; pass < 2; pass++) {
		int from = pass ? 0 : ilb + 1, end = pass ? ilb + 1 : s->ncpus;
		sl_for_each_cpu_in(cpu, &s->nohz_idle, from, end)
			if (!nohz_balance_one(s, self, cpu, flags, j, &has_blocked, &next_balance,
					      &update_next))
				goto out;
	}
	if (update_next)
		s->nohz_next_balance = next_balance;
	if (flags & NOHZ_STATS_KICK)
		s->nohz_next_blocked = j + ((uint64_t)LOAD_AVG_PERIOD_MS * s->hz + 999) / 1000;
out:
	if (has_blocked)
		s->nohz_has_blocked = true;
	s->lb_payer = -1;
}

bool cfs_nohz_kicked(struct cfs *s, int cpu)
{
	struct cfs_rq *rq = &s->rq[cpu];
	unsigned flags = rq->nohz_flags & NOHZ_KICK_MASK;

	if (!flags)
		return false;
	rq->nohz_flags = 0;	/* the kicks and the CPU's own mark: its softirq does both */
	/* nohz_csd_func: a CPU that has work by the time the IPI lands
	 * drops the kick */
	if (cfs_nr_all(rq))
		return false;
	nohz_idle_balance(s, cpu, flags);
	return !cfs_nr_all(rq);
}

/* nohz_newidle_balance(): a newly-idle balance that pulled nothing, on a
 * CPU expected to idle at least migration_cost (avg_idle), marks the CPU
 * to update the idle CPUs' blocked load itself when some is due
 * (nohz.has_blocked, nohz.next_blocked come). */
void cfs_nohz_newidle(struct cfs *s, int cpu)
{
	struct cfs_rq *rq = &s->rq[cpu];

	if (!s->nohz || rq->avg_idle < s->migration_cost)
		return;
	if (!s->nohz_has_blocked || sl_jiffies(s->sim) < s->nohz_next_blocked)
		return;
	rq->nohz_flags |= NOHZ_NEWILB_KICK;
}

/* nohz_run_idle_balance(), as cpu enters its idle loop (do_idle): its
 * mark taken off, and the blocked-load pass of _nohz_idle_balance run
 * here, unless a kick is on its way (its softirq will do as much) or a
 * reschedule is pending. */
void cfs_nohz_run_idle(struct cfs *s, int cpu)
{
	struct cfs_rq *rq = &s->rq[cpu];
	unsigned flags = rq->nohz_flags;

	if (!(flags & NOHZ_NEWILB_KICK))
		return;
	rq->nohz_flags = flags & ~NOHZ_NEWILB_KICK;
	if (flags == NOHZ_NEWILB_KICK && !sl_need_resched(s->sim, cpu))
		nohz_idle_balance(s, cpu, NOHZ_STATS_KICK);
}
