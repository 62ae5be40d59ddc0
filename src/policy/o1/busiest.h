/*
 * o1/busiest.h - what load_balance and rebalance_tick ask of
 * find_busiest_queue's memo and ranking (o1/busiest.c) on their fast
 * paths: whether the unchanged memo, or the ranking, already answers "no
 * queue to pull from", and the charge of such a call, the scan's.  Inline,
 * so that an idle CPU's balance at every tick costs no call.
 */
#ifndef SL_POLICY_O1_BUSIEST_H
#define SL_POLICY_O1_BUSIEST_H

#include "policy/o1/core.h"
#include "sim/sim.h"

/* Does (cpu, load) rank before b?  Loads below 2 never rank. */
static inline bool o1_ranks_before(int cpu, int load, const struct o1_best *b)
{
	return load > 1 && (b->cpu < 0 || load > b->load || (load == b->load && cpu < b->cpu));
}

/* The change log a memo of runqueue rq replays: that of its node mask's
 * CPUs, or of the other node's ([1]). */
static inline const struct o1_chg_log *o1_memo_log(const struct o1 *s, const struct o1_rq *rq,
						   const struct o1_fbq_memo *m)
{
	return m->node < 0 ? o1_chg_log_of(s, rq) : &s->chg[m->node];
}

/*
 * o1_replay with no change logged since the memo: every CPU of the mask
 * reads what it read last (its memory is its length), so the answer is
 * the head of the list if it ranks before the bound, and memo and memory
 * stay as they are.  False where o1_replay would refuse (the call scans).
 * An idle CPU balances every tick: on a big machine, mostly idle, this is
 * most of its calls.
 */
static inline bool o1_memo_answer(const struct o1_fbq_memo *m, struct o1_best *out)
{
	struct o1_best real = m->ntop ? m->top[0] : (struct o1_best){ -1, 1 };

	if (m->bound.cpu >= 0 &&
	    (real.cpu < 0 || !o1_ranks_before(real.cpu, real.load, &m->bound)))
		return false;
	*out = real;
	return true;
}

/* m, runqueue rq's memo made for the mask (node, cpu), answers with
 * nothing changed in its log since it was made (o1_memo_answer)?  Our own
 * runqueue's memory is the caller's to read (o1_read_own). */
static inline bool o1_memo_fresh(const struct o1 *s, const struct o1_rq *rq,
				 const struct o1_fbq_memo *m, int node, int cpu,
				 struct o1_best *out)
{
	return m && m->valid && m->node == node && m->cpu == cpu &&
	       m->gen == o1_memo_log(s, rq, m)->gen && o1_memo_answer(m, out);
}

/* A call answered by the unchanged memo m: counted, and its scan's cost
 * charged as the scan's. */
static inline void o1_memo_charge(struct sl_sim *sim, struct o1 *s, int this_cpu,
				  const struct o1_fbq_memo *m)
{
	s->fbq_replays++;
	s->fbq_unchanged++;
	sl_charge_sched(sim, this_cpu, m->looked * s->cfg.scan_ns);
}

/* An idle balance of rq's node mask that the ranking answers "none" in
 * O(1): nothing logged since its last synced call (so its memory needs no
 * write) and no queue of 2 or more on the mask. */
static inline bool o1_rank_none(const struct o1 *s, const struct o1_rq *rq)
{
	const struct o1_chg_log *l = o1_chg_log_of(s, rq);

	return rq->rank_synced && rq->rank_gen == l->gen && !l->over && l->top < 2;
}

/* Such a call: counted, and charged as the scan of its mask. */
static inline void o1_rank_charge(struct sl_sim *sim, struct o1 *s, const struct o1_rq *rq,
				  int this_cpu)
{
	s->fbq_ranked++;
	sl_charge_sched(sim, this_cpu, o1_chg_log_of(s, rq)->ncpus * s->cfg.scan_ns);
}

struct o1_rq *o1_find_busiest_queue(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq,
				    int this_cpu, bool idle, const sl_cpumask *mask, int *imbalance);

#endif
