/*
 * o1/active.c - the migration thread of the O(1) scheduler and the HT
 * scheduler's active balancing (Ingo Molnar's HT patches): a CPU whose
 * whole (package) runqueue is idle, and whose own pull failed, wakes the
 * migration thread of a runqueue whose siblings are all busy; that
 * SCHED_FIFO thread preempts one of the running tasks, and then balances
 * on behalf of the first wholly idle runqueue, which can now pull the
 * preempted task.  The thread also carries out sched_balance_exec's moves
 * (o1/numa.c) and set_cpus_allowed's (o1/attr.c).
 *
 * The versions differ in where the "requested" latch lives and which
 * runqueues are asked (ht rows, knob continue_bug):
 *   F3 (2.5.31)    the latch of the asking CPU; runqueues of one CPU are
 *                  not skipped;
 *   2.5.59 F3/E6   the sibling-idle test uses `continue` inside the sibling
 *                  loop, so it skips nothing: every busy runqueue's thread
 *                  is woken, each preempting a task it then gives back;
 *   A9 and later   the latch of the busy runqueue, a label that makes the
 *                  test work, and runqueues of one CPU skipped.
 *
 * Sources (LKML): Ingo Molnar's F3 for 2.5.31, 27 Aug 2002,
 * <Pine.LNX.4.44.0208270226190.12947-100000@localhost.localdomain>; his
 * 2.5.59 F3, 7 Feb 2003,
 * <Pine.LNX.4.44.0302071033530.8102-100000@localhost.localdomain>; A9,
 * 21 Apr 2003, <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com>
 * (active_load_balance, do_active_balance); B2 as quoted by Martin J.
 * Bligh, <1535810000.1051120075@flay>.  Docs: docs/policies/ht.md.
 *
 * Choices where the sources are uncertain:
 *   - F3 sets the latch on the idle CPU that asks, but who clears it is
 *     not known.  Here the migration thread that answers clears the latch
 *     of every CPU that asked it, so that an idle CPU can ask again later.
 *   - The pull made by the migration thread is a load_balance() with
 *     idle=1 on behalf of the idle runqueue (A9, B2), so it goes through
 *     CAN_MIGRATE_TASK like every idle balance: the task it preempted ran
 *     this jiffy and is hot, so it is taken only where the idle steal is
 *     on (F3's hard-wired `idle ||`, E6's and A9's AGRESSIVE_IDLE_STEAL,
 *     2.6.0's own rule under C1).  In B2, which turned the steal off, the
 *     pull cannot take it.  That F3 and E6 pass idle=1 too is read from
 *     A9 (UNVERIFIED; with their steal on it makes no difference).  The
 *     ht knob active_steal_hot makes the pull ignore hotness anyway: a
 *     what-if, not from any source.
 *   - The pull runs with the busy CPU's node mask ("load_balance(rq_i,
 *     idle=1, node mask)", the mask of the migration thread's own CPU), so
 *     on a NUMA machine the first wholly idle runqueue may pull across
 *     nodes.  It is not counted towards 2.5.59's NODE_BALANCE_RATE.
 *     INFERRED.
 *   - With the continue bug a "busy" runqueue is one with a task: an empty
 *     runqueue is not asked.  E6's own text is not available; the bug is
 *     that of 2.5.59 F3, three days newer (UNVERIFIED for E6).
 *
 * Omitted / simplified:
 *   - The migration thread does not need to decrement nr_running for
 *     itself while it balances: the engine's thread is not a policy task.
 */
#include "policy/o1/core.h"
#include "sim/sim.h"

static bool o1_rq_has_idle_cpu(struct sl_sim *sim, const struct o1_rq *rq)
{
	sl_for_each_cpu_in(c, &rq->cpus, rq->first_cpu, rq->last_cpu + 1)
		if (sl_cpu_idle(sim, c))
			return true;
	return false;
}

/* Is `rq` worth asking?  Every sibling busy, or (the bug) any task at all. */
static bool o1_rq_smt_busy(struct sl_sim *sim, const struct o1 *s, const struct o1_rq *rq)
{
	if (s->cfg.active_skip_single && rq->ncpus == 1)
		return false;
	if (rq->nr_running == 0)
		return false;
	if (s->cfg.continue_bug)
		return true;
	/* a busy CPU runs a task of its runqueue (counted in nr_running) or
	 * its migration thread: with fewer of those than CPUs, one is idle,
	 * which the walk below would find */
	if (rq->nr_running + rq->nmig < rq->ncpus)
		return false;
	return !o1_rq_has_idle_cpu(sim, rq);
}

/* Set the version's latch; false if it was set already. */
static bool o1_latch(struct o1 *s, struct o1_rq *rq, int this_cpu)
{
	if (s->cfg.active_flag == O1_ACTIVE_FLAG_REQUESTER) {
		if (s->active_req[this_cpu])
			return false;
		s->active_req[this_cpu] = true;
		s->active_req_rq[this_cpu] = rq;
		return true;
	}
	if (rq->active_balance)
		return false;
	rq->active_balance = true;
	return true;
}

static __attribute__((noinline)) void o1_active_walk(struct sl_sim *sim, struct o1 *s,
						     struct o1_rq *this_rq, int this_cpu,
						     const sl_cpumask *cand)
{
	for (int w = 0; w < s->mask_words; w++) {
		for (uint64_t bits = cand->w[w]; bits; bits &= bits - 1) {
			struct o1_rq *rq = &s->rqs[(w << 6) + __builtin_ctzll(bits)];
			s->active_looked++;
			if (rq == this_rq || !o1_rq_smt_busy(sim, s, rq))
				continue;
			if (!o1_latch(s, rq, this_cpu))
				continue;
			s->active_woken[rq->first_cpu] = true;
			sl_migration_wake(sim, rq->first_cpu, this_cpu);
		}
	}
}

void o1_active_load_balance(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq,
			    int this_cpu)
{
	if (!s->cfg.active_balance)
		return;
	/* every runqueue in order, as the patches walk them (the kernel's
	 * O(N) per call); an empty one never qualifies, nor, unless the
	 * continue bug makes any task enough, one with fewer tasks plus
	 * running migration threads than CPUs: only those of o1.rq_busy,
	 * or of o1.rq_full, are looked at.  With none (an idle CPU's tick
	 * on a mostly idle machine, most calls) nothing is walked, without
	 * the walk's frame. */
	const sl_cpumask *cand = s->cfg.continue_bug ? &s->rq_busy : &s->rq_full;
	for (int w = 0; w < s->mask_words; w++)
		if (cand->w[w]) {
			o1_active_walk(sim, s, this_rq, this_cpu, cand);
			return;
		}
}

/* The first CPU whose runqueue is completely empty, or -1: the first
 * runqueue not in o1.rq_busy. */
static int o1_first_idle_rq_cpu(const struct o1 *s)
{
	for (int w = 0; w < s->mask_words; w++) {
		uint64_t free = ~s->rq_busy.w[w];
		if (!free)
			continue;
		int i = (w << 6) + __builtin_ctzll(free);
		return i < s->nrqs ? s->rqs[i].first_cpu : -1;
	}
	return -1;
}

/*
 * The busy runqueue's migration thread answers: its CPU's task is now
 * queued-not-running, so a balance run on behalf of a wholly idle
 * runqueue can pull it.
 */
static void o1_do_active_balance(struct sl_sim *sim, struct o1 *s, int cpu)
{
	struct o1_rq *rq = s->rq_of[cpu];

	rq->active_balance = false;
	for (int c = 0; c < s->ncpus; c++)
		if (s->active_req[c] && s->active_req_rq[c] == rq)
			s->active_req[c] = false;
	if (o1_rq_has_idle_cpu(sim, rq))
		return;		/* a sibling went idle meanwhile: no SMT imbalance */
	int target = o1_first_idle_rq_cpu(s);
	if (target < 0)
		return;
	o1_load_balance(sim, s, s->rq_of[target], target, true, o1_node_mask(s, cpu),
			s->cfg.active_steal_hot);
}

void o1_core_migration(struct sl_sim *sim, int cpu, long arg)
{
	struct o1 *s = o1_state(sim);
	struct sl_task *t = s->curr[cpu];

	(void)arg;	/* merged requests keep the first arg: the state says why */
	if (!s->in_migration[cpu]) {
		s->in_migration[cpu] = true;
		s->rq_of[cpu]->nmig++;
		o1_full_update(s, s->rq_of[cpu]);
	}
	/* the thread preempted t: schedule() ran for it as prev */
	if (t) {
		o1_put_prev(sim, s, t);
		s->curr[cpu] = NULL;
	}
	o1_exec_move(sim, s, cpu);
	o1_affinity_moves(sim, s, cpu);
	if (s->active_woken[cpu]) {
		s->active_woken[cpu] = false;
		o1_do_active_balance(sim, s, cpu);
	}
}
