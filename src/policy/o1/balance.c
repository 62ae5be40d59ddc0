/*
 * o1/balance.c - load balancing of the O(1) scheduler: find_busiest_queue
 * with each balancer's own memory of every queue's length (prev_cpu_load),
 * the version's imbalance rule, load_balance pulling expired tasks first and
 * each list from its tail, the cache-hot test against cache_decay_ticks
 * with each version's exceptions, the newly-idle balance and rebalance_tick
 * (with the NUMA scheduler's node balancing, o1/numa.c).
 *
 * Sources: 2.6.0 kernel/sched.c (load_balance, find_busiest_queue with
 * its 25% rule and literal imbalance/2 == 0, can_migrate_task measuring
 * cache-hotness as sched_clock() - timestamp, rebalance_tick: jiffies %
 * TICK == 0, so all CPUs balance on the same jiffy); a 2.5.6x
 * kernel/sched.c, the "-" side of Ingo Molnar's sched-2.5.68-A9, LKML
 * <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com>
 * (the half-difference rule, CAN_MIGRATE_TASK on jiffies - last_run, the
 * per-balancer prev_cpu_load, the idle tick passing idle=0, node ticks;
 * pull_task -> wake_up_cpu and AGRESSIVE_IDLE_STEAL in A9 itself); the
 * 2.5.40 imbalance rule in Matthew Dobson's sched_cleanup-2.5.40; Nick
 * Piggin, LKML, 7 Sep 2003, <3F5B6727.2010201@cyberone.com.au>; Andrew
 * Theurer, LKML, 27 Aug 2003, "CAN_MIGRATE seems screwed up",
 * <200308271008.01939.habanero@us.ibm.com> (2.6.0-test4's rule); the
 * RHEL3 backport's BUSY_STEAL and AGRESSIVE_IDLE_STEAL.
 *
 * Choices where the sources are uncertain:
 *   - The 2.6.0 rule is reproduced literally: a difference of 1 halves to
 *     0 and the pull loop then takes every movable task (the extra task
 *     is most likely unintended: INFERRED).  imbalance=half
 *     gives such a kernel the 2.5 rule instead.
 *   - 2.6.0-test4's (!idle || cold) and RHEL3's "always" are not rows but
 *     values of the o1 knob steal_hot (lineage INFERRED).
 *
 * Omitted / simplified:
 *   - double_lock_balance: no locks, so this queue's length never has to
 *     be re-read after taking the busiest queue's lock.
 */
#include <string.h>

#include "policy/o1/core.h"
#include "sim/sim.h"

/* ---- find_busiest_queue ---- */

/* The CPUs of runqueue idx in the mask. */
#define o1_for_each_rq_cpu(i, s, idx, mask) \
	sl_for_each_cpu_and_in(i, &(s)->rqs[idx].cpus, mask, (s)->rqs[idx].first_cpu, \
			       (s)->rqs[idx].last_cpu + 1)

/*
 * The memo.  An idle CPU balances every tick and reads every runqueue of
 * its node (the kernel's O(N) per call, which stays the simulated cost):
 * on a big, mostly idle machine that is N^2 host reads per jiffy, nearly
 * all reading what the last one read.  A scan leaves this balancer's
 * prev_cpu_load[i] equal to the length it read for every CPU i of its
 * mask; after that, only CPUs whose runqueue length changed can read
 * differently (load = min(nr, prev), or nr when idle), and the change log
 * (o1_chg_log) names them.  The scan's answer is the first CPU in rank
 * order: greatest load (>= 2, not ours), then lowest CPU, as its strict >
 * in CPU order gives.  So the memo keeps the first few CPUs by length
 * (o1_fbq_memo.top) and a bound every other one ranks after; a call reads
 * the changed CPUs as the kernel would (storing their memory) and ranks
 * them with the unchanged ones of the list.  The answer stands if it
 * ranks before the bound; else, after more changes than a quarter of the
 * mask, or on a mask of no memo, the call scans.  The answer, the memory
 * left behind and the charge (looked * scan_ns) are the scan's.  The memo
 * is kept for this CPU's node mask ([0]) and for another node's CPUs plus
 * this one ([1]: balance_node, 2.5.59's widened mask).  Each replays its
 * node's change log (o1_chg_log_of), so changes elsewhere on a big
 * machine do not make it scan; our own runqueue, which the scan reads but
 * never ranks, is read on every call (in [1] its changes are in another
 * node's log).  The check op replays every memo against a scan
 * (o1_check_balance_memo).
 */

/* Does (cpu, load) rank before b?  Loads below 2 never rank. */
static inline bool o1_ranks_before(int cpu, int load, const struct o1_best *b)
{
	return load > 1 && (b->cpu < 0 || load > b->load || (load == b->load && cpu < b->cpu));
}

/* Rank (cpu, load) into the memo's list (at most O1_MEMO_TOP); what falls
 * off the end (or never gets in) is kept in the bound, the best of those. */
static void o1_top_insert(struct o1_fbq_memo *m, int cpu, int load)
{
	struct o1_best out = { cpu, load };
	int k = m->ntop;

	if (k == O1_MEMO_TOP) {
		if (o1_ranks_before(cpu, load, &m->top[k - 1])) {
			out = m->top[--k];
		} else {
			k = -1;		/* it stays out */
		}
		if (o1_ranks_before(out.cpu, out.load, &m->bound))
			m->bound = out;
		if (k < 0)
			return;
	} else {
		m->ntop++;
	}
	while (k > 0 && o1_ranks_before(cpu, load, &m->top[k - 1])) {
		m->top[k] = m->top[k - 1];
		k--;
	}
	m->top[k] = (struct o1_best){ cpu, load };
}

/* The memo slot for a scan of `mask` by this CPU and the key it must
 * have; NULL for a mask of no slot. */
static struct o1_fbq_memo *o1_memo_slot(const struct o1 *s, struct o1_rq *rq, int this_cpu,
					const sl_cpumask *mask, struct o1_fbq_memo *key)
{
	const sl_cpumask *own = o1_node_mask(s, this_cpu);

	key->node = -1;
	key->cpu = -1;
	if (mask == own || sl_cpumask_equal(mask, own))
		return &rq->fbq[0];
	if (!s->numa)
		return NULL;
	int other = sl_cpumask_first(mask);
	if (other == this_cpu)
		other = sl_cpumask_next(mask, this_cpu + 1);
	if (other < 0 || other >= s->ncpus)
		return NULL;
	int node = s->topo->cpu_node[other];
	sl_cpumask want = s->topo->node_cpus[node];
	sl_cpumask_set(&want, this_cpu);
	if (!sl_cpumask_equal(mask, &want))
		return NULL;
	key->node = node;
	key->cpu = this_cpu;
	return &rq->fbq[1];
}

/* The change log a memo of runqueue rq replays: that of its node mask's
 * CPUs, or of the other node's ([1]). */
static const struct o1_chg_log *o1_memo_log(const struct o1 *s, const struct o1_rq *rq,
					    const struct o1_fbq_memo *m)
{
	return m->node < 0 ? o1_chg_log_of(s, rq) : &s->chg[m->node];
}

/* The scan's memory of our own runqueue's CPUs of the mask: their length.
 * (A memo's log may not name our runqueue's changes.) */
static inline void o1_read_own(const struct o1 *s, int this_idx, const sl_cpumask *mask, int *prev)
{
	o1_for_each_rq_cpu(i, s, this_idx, mask)
		prev[i] = s->rq_nr[this_idx];
}

/* The mask a memo covers. */
static sl_cpumask o1_memo_mask(const struct o1 *s, const struct o1_rq *rq,
			       const struct o1_fbq_memo *m)
{
	if (m->node < 0)
		return *o1_node_mask(s, rq->first_cpu);
	sl_cpumask mask = s->topo->node_cpus[m->node];
	sl_cpumask_set(&mask, m->cpu);
	return mask;
}

/* The kernel's scan of every CPU of the mask; sets memo m from it, as of
 * change gen of its log. */
static struct o1_best o1_scan(const struct o1 *s, int this_idx, bool idle,
			      const sl_cpumask *mask, int *prev, struct o1_fbq_memo *m,
			      uint64_t gen)
{
	struct o1_best real = { -1, 1 };
	int looked = 0;

	m->ntop = 0;
	m->bound = (struct o1_best){ -1, 1 };
	for (int w = 0; w < s->mask_words; w++) {
		for (uint64_t bits = mask->w[w]; bits; bits &= bits - 1) {
			int i = (w << 6) + __builtin_ctzll(bits);
			int idx = s->rq_idx[i], nr = s->rq_nr[idx];
			int load = idle || nr < prev[i] ? nr : prev[i];
			prev[i] = nr;
			looked++;
			if (idx == this_idx)
				continue;
			if (o1_ranks_before(i, load, &real))
				real = (struct o1_best){ i, load };
			if (nr > 1)
				o1_top_insert(m, i, nr);
		}
	}
	m->valid = true;
	m->gen = gen;
	m->looked = looked;
	return real;
}

/*
 * The same answer from memo m and the changes logged since in its log l,
 * storing the changed CPUs' memory (and our own) and bringing m up to
 * date; false (nothing stored) if the memo cannot give it.
 */
static bool o1_replay(const struct o1 *s, const struct o1_chg_log *l, int this_idx, bool idle,
		      const sl_cpumask *mask, int *prev, struct o1_fbq_memo *m,
		      struct o1_best *out)
{
	uint64_t n = l->gen - m->gen;
	int limit = m->looked / 4 > 4 ? m->looked / 4 : 4;
	sl_cpumask changed;

	if (n > O1_CHG_LOG || n > (uint64_t)limit)
		return false;
	for (int w = 0; w < s->mask_words; w++)
		changed.w[w] = 0;
	for (uint64_t g = m->gen; g < l->gen; g++)
		sl_cpumask_set(&changed, l->log[g % O1_CHG_LOG]);

	struct o1_fbq_memo nm = *m;
	struct o1_best real = { -1, 1 };
	nm.gen = l->gen;
	nm.ntop = 0;
	/* the unchanged CPUs of the list: their loads are their lengths */
	for (int k = 0; k < m->ntop; k++) {
		const struct o1_best *e = &m->top[k];
		if (sl_cpumask_test(&changed, s->rq_idx[e->cpu]))
			continue;
		if (o1_ranks_before(e->cpu, e->load, &real))
			real = *e;
		o1_top_insert(&nm, e->cpu, e->load);
	}
	/* the changed ones, read as the scan reads them (each runqueue once) */
	for (uint64_t g = m->gen; g < l->gen; g++) {
		int idx = l->log[g % O1_CHG_LOG];
		if (!sl_cpumask_test(&changed, idx))
			continue;
		sl_cpumask_unset(&changed, idx);
		if (idx == this_idx)
			continue;
		o1_for_each_rq_cpu(i, s, idx, mask) {
			int nr = s->rq_nr[idx];
			int load = idle || nr < prev[i] ? nr : prev[i];
			if (o1_ranks_before(i, load, &real))
				real = (struct o1_best){ i, load };
			/* behind the bound: as unknown as the unchanged rest */
			if (o1_ranks_before(i, nr, &m->bound))
				o1_top_insert(&nm, i, nr);
		}
	}
	/* every CPU not looked at ranks after the bound */
	if (m->bound.cpu >= 0 &&
	    (real.cpu < 0 || !o1_ranks_before(real.cpu, real.load, &m->bound)))
		return false;
	for (uint64_t g = m->gen; g < l->gen; g++) {
		int idx = l->log[g % O1_CHG_LOG];
		o1_for_each_rq_cpu(i, s, idx, mask)
			prev[i] = s->rq_nr[idx];
	}
	o1_read_own(s, this_idx, mask, prev);
	*m = nm;
	*out = real;
	return true;
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

/*
 * The ranking.  An idle balance (idle=1) reads every CPU's load as its
 * length, so its answer depends on the lengths alone: the first CPU of the
 * mask, not ours, by the greatest length >= 2, then the lowest number.
 * Each change log ranks its CPUs by length (o1_chg_log.bits, kept at every
 * nr_running_inc/dec), and an idle balance of its own node mask takes the
 * answer from there: the greatest length with a CPU not ours, its lowest
 * such CPU (O(lengths), not O(CPUs)).  What the scan leaves behind, its
 * memory of every CPU's length, is written for the runqueues its log named
 * since this balancer's last such call (o1_rank_read): the others' memory
 * is their length already, as every balance writes only lengths read now
 * (an empty read, o1_read_empty, ends that).  The memos stay true: they
 * too need only that an unchanged CPU's memory is its length.  On 1,024
 * CPUs under 2.5.33 a kernbench's lengths change at every tick, and each
 * idle balancer replayed hundreds of changes (through a CPU mask) or read
 * the machine again.  The check op compares every ranking with the
 * lengths and every synced memory with them (o1_check_rank).
 */

/* One CPU of log l from length `from` to `to`. */
static inline void o1_rank_move_cpu(struct o1_chg_log *l, int mw, int i, int from, int to)
{
	uint64_t bit = 1ULL << (i & 63);
	int w = i >> 6;

	if (from >= O1_RANK_CAP) {
		l->over--;
	} else if (from >= 2) {
		l->cnt[from]--;
		l->bits[from * mw + w] &= ~bit;
	}
	if (to >= O1_RANK_CAP) {
		l->over++;
	} else if (to >= 2) {
		l->cnt[to]++;
		l->bits[to * mw + w] |= bit;
	}
}

void o1_rank_move(struct o1 *s, struct o1_rq *rq, int from, int to)
{
	struct o1_chg_log *l = o1_chg_log_of(s, rq);
	int mw = s->mask_words;

	/* its CPUs from the dense list: no walk of its mask */
	for (int k = s->rq_cpu_at[rq->index]; k < s->rq_cpu_at[rq->index + 1]; k++)
		o1_rank_move_cpu(l, mw, s->rq_cpu[k], from, to);
	if (to < O1_RANK_CAP && to > l->top)
		l->top = to;
	while (l->top >= 2 && !l->cnt[l->top])
		l->top--;
}

/* The idle scan's answer over log l's mask for runqueue `own`; false if
 * a queue there is too long for the ranking. */
static bool o1_rank_best(struct o1 *s, const struct o1_chg_log *l, const struct o1_rq *own,
			 struct o1_best *out)
{
	int mw = s->mask_words;

	if (l->over) {
		s->rank_over++;
		return false;
	}
	for (int v = l->top; v >= 2; v--) {
		if (!l->cnt[v])
			continue;
		const uint64_t *b = &l->bits[v * mw];
		for (int w = 0; w < mw; w++) {
			uint64_t x = b[w] & ~own->cpus.w[w];
			if (x) {
				*out = (struct o1_best){ (w << 6) + __builtin_ctzll(x), v };
				return true;
			}
		}
	}
	*out = (struct o1_best){ -1, 1 };
	return true;
}

/* The scan's memory of its node mask, from the changes of log l since
 * this balancer's last synced call (all of the mask after many). */
static void o1_rank_read(const struct o1 *s, struct o1_rq *rq, const struct o1_chg_log *l,
			 const sl_cpumask *mask, int *prev)
{
	uint64_t n = l->gen - rq->rank_gen;

	if (!rq->rank_synced || n > O1_CHG_LOG || n > (uint64_t)l->ncpus / 4) {
		if (s->rq_is_cpu && l->whole)	/* the machine, CPU by CPU */
			memcpy(prev, s->rq_nr, sizeof(int) * (size_t)s->ncpus);
		else if (l->whole)
			for (int i = 0; i < s->ncpus; i++)
				prev[i] = s->rq_nr[s->rq_idx[i]];
		else
			for (int w = 0; w < s->mask_words; w++)
				for (uint64_t b = mask->w[w]; b; b &= b - 1) {
					int i = (w << 6) + __builtin_ctzll(b);
					prev[i] = s->rq_nr[s->rq_idx[i]];
				}
	} else if (s->rq_is_cpu) {
		/* runqueue idx is CPU idx's: no look at the runqueue */
		for (uint64_t g = rq->rank_gen; g < l->gen; g++) {
			int idx = l->log[g % O1_CHG_LOG];
			prev[idx] = s->rq_nr[idx];
		}
	} else {
		/* the ranking's machines list every runqueue's CPUs, all in
		 * its node's mask (rq_listed), this log's */
		for (uint64_t g = rq->rank_gen; g < l->gen; g++) {
			int idx = l->log[g % O1_CHG_LOG], nr = s->rq_nr[idx];
			for (int k = s->rq_cpu_at[idx]; k < s->rq_cpu_at[idx + 1]; k++)
				prev[s->rq_cpu[k]] = nr;
		}
	}
	rq->rank_synced = true;
	rq->rank_gen = l->gen;
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

int o1_check_rank(const struct o1 *s, struct sl_err *err)
{
	int nlogs = s->numa ? s->nnodes : 1, mw = s->mask_words;

	for (int n = 0; n < nlogs && s->rank; n++) {
		const struct o1_chg_log *l = &s->chg[n];
		int cnt[O1_RANK_CAP] = { 0 }, over = 0, top = 1;
		for (int r = 0; r < s->nrqs; r++) {
			const struct o1_rq *rq = &s->rqs[r];
			if (o1_chg_log_of(s, rq) != l)
				continue;
			sl_for_each_cpu(i, &rq->cpus) {
				int v = rq->nr_running;
				bool in = v >= 2 && v < O1_RANK_CAP &&
					  ((l->bits[v * mw + (i >> 6)] >> (i & 63)) & 1);
				if (v >= O1_RANK_CAP)
					over++;
				else if (v >= 2)
					cnt[v]++;
				if (v >= 2 && v < O1_RANK_CAP && !in)
					return sl_fail_internal(err, "o1: CPU %d (length %d) "
								"not ranked", i, v);
			}
		}
		for (int v = 2; v < O1_RANK_CAP; v++) {
			int bits = 0;	/* no CPU ranked twice or of another length */
			for (int w = 0; w < mw; w++)
				bits += sl_popcount64(l->bits[v * mw + w]);
			if (cnt[v] != l->cnt[v] || bits != cnt[v])
				return sl_fail_internal(err, "o1: log %d ranks %d CPUs at length "
							"%d, not %d", n, l->cnt[v], v, cnt[v]);
			if (cnt[v])
				top = v;
		}
		if (over != l->over || top != l->top)
			return sl_fail_internal(err, "o1: log %d's ranking: %d long, top %d; not "
						"%d, %d", n, l->over, l->top, over, top);
	}
	for (int r = 0; r < s->nrqs && s->cfg.smp; r++) {
		const struct o1_rq *rq = &s->rqs[r];
		const struct o1_chg_log *l = o1_chg_log_of(s, rq);
		if (!rq->rank_synced || l->gen - rq->rank_gen > O1_CHG_LOG)
			continue;
		o1_for_each_cpu(i, s, o1_node_mask(s, rq->first_cpu)) {
			int idx = s->rq_idx[i];
			if (rq->prev_cpu_load[i] == s->rq_nr[idx])
				continue;
			bool named = false;
			for (uint64_t g = rq->rank_gen; g < l->gen && !named; g++)
				named = l->log[g % O1_CHG_LOG] == idx;
			if (!named)
				return sl_fail_internal(err, "o1: runqueue of CPU %d remembers %d "
							"for CPU %d of length %d, unlogged",
							rq->first_cpu, rq->prev_cpu_load[i], i,
							s->rq_nr[idx]);
		}
	}
	return 0;
}

/*
 * Lengths are smoothed against this balancer's memory: our own queue
 * counts as the longer of now and last time, the others as the shorter,
 * unless we are idle.  Returns the queue to pull from and *imbalance.
 * Every CPU of the mask is read, as in the kernel (its O(N) cost); the
 * lengths come from the dense copies o1.rq_idx/rq_nr, the same numbers;
 * what a memo gives is what that read would give (see above).
 */
static struct o1_rq *o1_find_busiest_queue(struct sl_sim *sim, struct o1 *s,
					   struct o1_rq *this_rq, int this_cpu, bool idle,
					   const sl_cpumask *mask, int *imbalance)
{
	int *prev = this_rq->prev_cpu_load;
	int prev_this = prev[this_cpu];	/* our own memory, as it was before the scan */
	struct o1_fbq_memo key, scratch;
	struct o1_fbq_memo *memo = o1_memo_slot(s, this_rq, this_cpu, mask, &key);
	struct o1_best best;
	const struct o1_chg_log *l = o1_chg_log_of(s, this_rq);

	if (s->rank && idle && memo == &this_rq->fbq[0] && o1_rank_best(s, l, this_rq, &best)) {
		/* an idle balance of its node mask: the ranking's answer */
		o1_rank_read(s, this_rq, l, mask, prev);
		o1_rank_charge(sim, s, this_rq, this_cpu);
	} else if (o1_memo_fresh(s, this_rq, memo, key.node, key.cpu, &best)) {
		/* nothing changed: o1_replay's answer in O(1), only our own
		 * memory written */
		o1_read_own(s, this_rq->index, mask, prev);
		o1_memo_charge(sim, s, this_cpu, memo);
	} else {
		if (!memo || !memo->valid || memo->node != key.node || memo->cpu != key.cpu ||
		    !o1_replay(s, o1_memo_log(s, this_rq, memo), this_rq->index, idle, mask, prev,
			       memo, &best)) {
			if (!memo)
				memo = &scratch;
			*memo = key;
			/* (a scan without a memo slot keeps no gen worth the name) */
			best = o1_scan(s, this_rq->index, idle, mask, prev, memo,
				       o1_memo_log(s, this_rq, memo)->gen);
		} else {
			s->fbq_replays++;
		}
		sl_charge_sched(sim, this_cpu, memo->looked * s->cfg.scan_ns);
	}
	if (best.cpu < 0)
		return NULL;
	int nr_running = idle || this_rq->nr_running > prev_this ? this_rq->nr_running : prev_this;
	struct o1_rq *busiest = s->rq_of[best.cpu];
	int max_load = best.load;

	if (s->cfg.imbalance == O1_IMBALANCE_HALF) {
		/* pull half the difference, and only for a ~25% imbalance */
		*imbalance = (max_load - nr_running) / 2;
		if (!idle && *imbalance < (max_load + 3) / 4)
			return NULL;
		if (busiest->nr_running <= nr_running + 1)
			return NULL;
	} else {
		*imbalance = max_load - nr_running;
		if (!idle && *imbalance * 4 < max_load)
			return NULL;
		if (busiest->nr_running <= nr_running)
			return NULL;
	}
	return busiest;
}

/* The same memo, field by field (a struct copy need not copy padding). */
static bool o1_memo_same(const struct o1_fbq_memo *a, const struct o1_fbq_memo *b)
{
	if (a->valid != b->valid || a->node != b->node || a->cpu != b->cpu || a->gen != b->gen ||
	    a->looked != b->looked || a->ntop != b->ntop || a->bound.cpu != b->bound.cpu ||
	    a->bound.load != b->bound.load)
		return false;
	for (int k = 0; k < a->ntop; k++)
		if (a->top[k].cpu != b->top[k].cpu || a->top[k].load != b->top[k].load)
			return false;
	return true;
}

/*
 * One memo, replayed against a scan from a copy of the same memory, busy
 * and idle: same answer, same memory left, same memo after.
 */
static int o1_check_memo(const struct o1 *s, const struct o1_rq *rq,
			 const struct o1_fbq_memo *m, struct sl_err *err)
{
	int a[SL_MAX_CPUS], b[SL_MAX_CPUS];	/* runs of one process share no state */
	sl_cpumask mask = o1_memo_mask(s, rq, m);

	if (!m->valid)
		return 0;
	for (int idle = 0; idle < 2; idle++) {
		struct o1_fbq_memo ma = *m, mb = *m;
		memcpy(a, rq->prev_cpu_load, sizeof(int) * (size_t)s->ncpus);
		memcpy(b, rq->prev_cpu_load, sizeof(int) * (size_t)s->ncpus);
		const struct o1_chg_log *l = o1_memo_log(s, rq, m);
		struct o1_best want = o1_scan(s, rq->index, idle, &mask, a, &ma, l->gen), got;
		struct o1_best fast;
		bool fast_ok = o1_memo_fresh(s, rq, m, m->node, m->cpu, &fast);
		if (!o1_replay(s, l, rq->index, idle, &mask, b, &mb, &got)) {
			if (fast_ok)
				return sl_fail_internal(err, "o1: runqueue of CPU %d: the unchanged "
							"memo (node %d) answers where a replay "
							"scans", rq->first_cpu, m->node);
			return 0;	/* the next call scans */
		}
		if (fast_ok && (fast.cpu != got.cpu || fast.load != got.load ||
				!o1_memo_same(&mb, m)))
			return sl_fail_internal(err, "o1: runqueue of CPU %d: the unchanged memo "
						"(node %d) answers CPU %d, a replay CPU %d",
						rq->first_cpu, m->node, fast.cpu, got.cpu);
		bool same = got.cpu == want.cpu && (want.cpu < 0 || got.load == want.load) &&
			    !memcmp(a, b, sizeof(int) * (size_t)s->ncpus) &&
			    mb.looked == ma.looked && mb.ntop <= ma.ntop &&
			    (mb.bound.cpu >= 0 || (mb.ntop == ma.ntop && ma.bound.cpu < 0));
		for (int k = 0; same && k < mb.ntop; k++)
			same = mb.top[k].cpu == ma.top[k].cpu && mb.top[k].load == ma.top[k].load;
		if (!same)
			return sl_fail_internal(err, "o1: runqueue of CPU %d: find_busiest_queue's "
						"memo (node %d) gives CPU %d of %d (idle %d), a "
						"scan CPU %d of %d, or leaves another memory or "
						"ranking", rq->first_cpu, m->node, got.cpu,
						got.load, idle, want.cpu, want.load);
	}
	return 0;
}

int o1_check_balance_memo(const struct o1 *s, struct sl_err *err)
{
	for (int r = 0; r < s->nrqs; r++)
		for (int k = 0; k < 2; k++)
			if (o1_check_memo(s, &s->rqs[r], &s->rqs[r].fbq[k], err))
				return -1;
	return 0;
}

/* ---- load_balance ---- */

static bool o1_task_hot(struct sl_sim *sim, const struct o1 *s, const struct o1_task *p)
{
	if (s->cfg.v->interactivity == O1_SLEEP_NS) {
		/* 2.6.0: sched_clock() - timestamp, ns since its last switch
		 * measured from now (the last tick came with sched domains) */
		return o1_sched_clock(sim, s) - p->timestamp <=
		       s->cfg.cache_decay_ticks * s->tick_ns;
	}
	return (int64_t)sl_jiffies(sim) - p->last_run <= s->cfg.cache_decay_ticks;
}

/* May this balance take a cache-hot task? */
static bool o1_hot_ok(const struct o1 *s, bool idle)
{
	switch (s->cfg.hot) {
	case O1_HOT_IF_IDLE:
		return idle;
	case O1_HOT_IF_BUSY:
		return !idle;
	case O1_HOT_ALWAYS:
		return true;
	case O1_HOT_NEVER:
		break;
	}
	return false;
}

/* CAN_MIGRATE_TASK: not running, allowed here, and cold enough. */
static bool o1_can_migrate(struct sl_sim *sim, const struct o1 *s, const struct o1_task *p,
			   int this_cpu, bool idle, bool steal_hot)
{
	if (sl_task_running(p->task) || !sl_cpumask_test(&p->task->allowed, this_cpu))
		return false;
	if (steal_hot || o1_hot_ok(s, idle))
		return true;
	return !o1_task_hot(sim, s, p);
}

/* pull_task: onto this runqueue's active array; preempt if it should. */
static void o1_pull_task(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int this_cpu)
{
	o1_move_task(sim, s, p, this_cpu);
	o1_kick_moved(sim, s, p, this_cpu, s->cfg.v->preempt_equal_prio);
}

/*
 * Pull from the busiest queue of `mask`: expired tasks first (least likely
 * to run soon, most likely cache-cold), highest priority first, each list
 * from its tail.  An idle balancer takes one task; a busy one `imbalance`.
 */
static __attribute__((noinline)) void o1_balance_scan(struct sl_sim *sim, struct o1 *s,
						      struct o1_rq *this_rq, int this_cpu,
						      bool idle, const sl_cpumask *mask,
						      bool steal_hot);

void o1_load_balance(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq, int this_cpu,
		     bool idle, const sl_cpumask *mask, bool steal_hot)
{
	if (mask == o1_node_mask(s, this_cpu)) {
		/* o1_find_busiest_queue's first test for the balancer's own
		 * mask (o1_memo_slot's fbq[0]) when its answer is no queue:
		 * an idle CPU's balance at every tick, on a mostly idle big
		 * machine most calls, without the frames of the rest */
		const struct o1_fbq_memo *m = &this_rq->fbq[0];
		struct o1_best best;
		if (s->rank && idle && o1_rank_none(s, this_rq)) {
			o1_rank_charge(sim, s, this_rq, this_cpu);
			return;
		}
		if (o1_memo_fresh(s, this_rq, m, -1, -1, &best) && best.cpu < 0) {
			o1_memo_charge(sim, s, this_cpu, m);
			return;
		}
	}
	o1_balance_scan(sim, s, this_rq, this_cpu, idle, mask, steal_hot);
}

/* The rest of load_balance: find the busiest queue, pull from it. */
static void o1_balance_scan(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq, int this_cpu,
			    bool idle, const sl_cpumask *mask, bool steal_hot)
{
	int imbalance = 0;
	struct o1_rq *busiest = o1_find_busiest_queue(sim, s, this_rq, this_cpu, idle, mask,
						      &imbalance);
	if (!busiest)
		return;
	/* 2.6.0: half the difference.  A difference of 1 gives 0, and the
	 * loop below then never reaches 0: it takes every movable task. */
	if (s->cfg.imbalance == O1_IMBALANCE_QUARTER)
		imbalance /= 2;

	struct sl_prio_array *array = sl_prio_array_empty(busiest->expired) ?
				      busiest->active : busiest->expired;
	int looked = 0;
	for (;;) {
		struct sl_prio_node *n = sl_prio_array_first_tailwise(array);
		while (n) {
			struct sl_prio_node *next = sl_prio_array_next_tailwise(array, n);
			struct o1_task *p = o1_of_node(n);
			looked++;
			if (o1_can_migrate(sim, s, p, this_cpu, idle, steal_hot)) {
				o1_pull_task(sim, s, p, this_cpu);
				if (idle || !--imbalance)
					goto out;
			}
			n = next;
		}
		if (array != busiest->expired)
			break;
		array = busiest->active;
	}
out:
	sl_charge_sched(sim, this_cpu, looked * s->cfg.scan_ns);
}

/* schedule() found the runqueue empty: in 2.5.59 the call is counted
 * towards NODE_BALANCE_RATE; later kernels stay in the node (3.3). */
void o1_newidle_balance(struct sl_sim *sim, struct o1 *s, int cpu)
{
	struct o1_rq *rq = o1_rq(s, cpu);

	if (s->numa && s->cfg.node_balance == O1_NODE_RATE) {
		sl_cpumask mask = o1_cpus_to_balance(s, rq, cpu);
		o1_load_balance(sim, s, rq, cpu, true, &mask, false);
		return;
	}
	o1_load_balance(sim, s, rq, cpu, true, o1_node_mask(s, cpu), false);
}

/* ---- rebalance_tick ---- */

/* 2.5.59's balance with the mask its call count widens: out of line,
 * the mask's 128 bytes would give every tick's call a frame. */
static __attribute__((noinline)) void o1_balance_counted(struct sl_sim *sim, struct o1 *s,
							 struct o1_rq *rq, int cpu, bool idle)
{
	sl_cpumask mask = o1_cpus_to_balance(s, rq, cpu);
	o1_load_balance(sim, s, rq, cpu, idle, &mask, false);
}

/* jiffies % every == 0, without a 64-bit division on every CPU's every
 * tick (idle CPUs balance every tick: every == 1). */
static inline bool o1_on_tick(uint64_t j, uint64_t every)
{
	if (every == 1)
		return true;
	if (j <= UINT32_MAX && every <= UINT32_MAX)
		return (uint32_t)j % (uint32_t)every == 0;
	return j % every == 0;
}

/* A balance that read every runqueue of `mask` empty remembers each as
 * 0 (o1_scan), which the memos cannot tell from a change they logged. */
static void o1_read_empty(struct o1 *s, struct o1_rq *rq, const sl_cpumask *mask)
{
	o1_for_each_cpu(c, s, mask)
		rq->prev_cpu_load[c] = 0;
	rq->fbq[0].valid = rq->fbq[1].valid = false;
	rq->rank_synced = false;
}

static bool o1_node_memory_empty(const struct o1 *s, const struct o1_rq *rq)
{
	for (int n = 0; s->numa && n < s->nnodes; n++)
		if (rq->prev_node_load[n])
			return false;
	return true;
}

/*
 * 2.5.59's skipped idle balances, one per `every` jiffies: each counts
 * itself, and the node_balance_rate-th looks across nodes (halving the
 * node memory, maybe widening its mask to the node it still finds
 * busier).  Between looks every call reads the node's runqueues empty, so
 * the walk goes from look to look, and stops at the first look that finds
 * no node busier (an empty memory stays empty): what follows is counting.
 */
static void o1_skip_counted(struct o1 *s, struct o1_rq *rq, int cpu, uint64_t first,
			    uint64_t last)
{
	uint64_t every = (uint64_t)s->idle_ticks, rate = (uint64_t)s->cfg.node_balance_rate;
	uint64_t call = (first + every - 1) / every * every;	/* the first call's jiffy */

	while (call <= last) {
		uint64_t calls = (last - call) / every + 1;	/* calls from here on */
		uint64_t to_look = rate - (uint64_t)rq->nr_balanced;	/* the look's number */
		if (to_look > 1)	/* plain calls first: the node's mask */
			o1_read_empty(s, rq, o1_node_mask(s, cpu));
		if (calls < to_look) {
			rq->nr_balanced += (int)calls;
			return;
		}
		rq->nr_balanced = 0;
		int node = o1_find_busiest_node(s, rq, s->topo->cpu_node[cpu]);
		if (node < 0) {
			o1_read_empty(s, rq, o1_node_mask(s, cpu));
			if (o1_node_memory_empty(s, rq)) {
				rq->nr_balanced = (int)((calls - to_look) % rate);
				return;
			}
		} else {
			sl_cpumask mask = o1_node_plus_cpu(s, node, cpu);
			o1_read_empty(s, rq, &mask);
		}
		call += to_look * every;
	}
}

/*
 * The engine skips the ticks of a machine with nothing runnable; the
 * kernel's idle CPUs ran rebalance_tick at each.  Every runqueue was
 * empty (and still is: the task that ends the gap is not queued yet), so
 * a balance moved nothing and only remembered: prev_cpu_load 0 over its
 * mask, and at each look across nodes the node loads halved.  Replayed
 * without the charges (idle time, long past), up to the first jiffy after
 * which each jiffy would do what the last did.
 */
void o1_core_ticks_skipped(struct sl_sim *sim, int cpu, uint64_t first, uint64_t last)
{
	struct o1 *s = o1_state(sim);
	struct o1_rq *rq = s->rq_of[cpu];
	uint64_t every = (uint64_t)s->idle_ticks, node_every = (uint64_t)s->idle_node_ticks;

	if (!s->cfg.smp)
		return;
	if (s->numa && s->cfg.node_balance == O1_NODE_RATE) {
		o1_skip_counted(s, rq, cpu, first, last);
		return;
	}
	/* 2.5.68 and 2.6.0: a node tick every node_every jiffies, then the
	 * node's own balance every `every` */
	for (uint64_t j = first; j <= last; j++) {
		if (j - first >= every + node_every && o1_node_memory_empty(s, rq))
			return;
		if (s->numa && o1_on_tick(j, node_every)) {
			int node = o1_find_busiest_node(s, rq, s->topo->cpu_node[cpu]);
			if (node >= 0) {
				sl_cpumask mask = o1_node_plus_cpu(s, node, cpu);
				o1_read_empty(s, rq, &mask);
			}
		}
		if (o1_on_tick(j, every))
			o1_read_empty(s, rq, o1_node_mask(s, cpu));
	}
}

/* The jiffies % TICK == 0 tests of instant `now`, idle and busy, for
 * rebalance_tick: the same for every CPU ticking at it, so worked out
 * once (two or three 64-bit divisions per CPU per jiffy before). */
static __attribute__((noinline)) void o1_due_at(struct sl_sim *sim, struct o1 *s, sl_time now)
{
	uint64_t j = sl_jiffies(sim);

	s->due_at = now;
	for (int idle = 0; idle < 2; idle++) {
		uint64_t every = (uint64_t)(idle ? s->idle_ticks : s->busy_ticks);
		uint64_t node_every = (uint64_t)(idle ? s->idle_node_ticks : s->busy_node_ticks);
		s->due_bal[idle] = o1_on_tick(j, every);
		/* no node ticks without the NUMA scheduler (their factor is 0) */
		s->due_node[idle] = s->numa && node_every && o1_on_tick(j, node_every);
	}
}

/* rebalance_tick in full: o1_rebalance_tick below hands it the ticks of
 * a new instant and the node ticks of 2.5.68 and 2.6.0. */
static __attribute__((noinline)) void o1_rebalance_full(struct sl_sim *sim, struct o1 *s,
							int cpu, bool idle)
{
	struct o1_rq *rq = s->rq_of[cpu];
	bool flag = idle && s->cfg.idle_tick_idle;	/* 2.5.68, 2.6.0: idle ticks pass 0 */
	sl_time now = sl_now(sim);

	if (now != s->due_at)
		o1_due_at(sim, s, now);
	if (s->numa && s->cfg.node_balance == O1_NODE_RATE) {
		/* 2.5.59: load_balance itself counts calls and widens the mask */
		if (s->due_bal[idle])
			o1_balance_counted(sim, s, rq, cpu, flag);
		return;
	}
	/* node ticks first, then the node's own balance (3.3) */
	if (s->numa && s->due_node[idle])
		o1_balance_node(sim, s, cpu, idle && s->cfg.idle_node_tick_idle);
	if (s->due_bal[idle])
		o1_load_balance(sim, s, rq, cpu, flag, o1_node_mask(s, cpu), false);
}

/* The balance of cpu's node mask: a call of five arguments, which
 * o1_rank_rebalance below can make as its last without a frame. */
static __attribute__((noinline)) void o1_rank_balance(struct sl_sim *sim, struct o1 *s,
						      struct o1_rq *rq, int cpu, bool flag)
{
	o1_balance_scan(sim, s, rq, cpu, flag, o1_node_mask(s, cpu), false);
}

/*
 * Most ticks of a big machine are an idle CPU's that balances its node
 * and finds, from the unchanged memo, nothing to pull: this path does
 * only that (or hands 2.5.59's counted balance on), every call in it a
 * tail call, so that it needs no frame.  A new instant's due tests and a
 * node tick are o1_rebalance_full's.  `rank` (a constant in each of the
 * two copies the compiler makes): a machine with the ranking (masks of
 * O1_RANK_MIN_CPUS or more), where an idle balance (idle=1) that nothing
 * changed for and that finds no queue of 2 answers in O(1) from the
 * ranking; its copy is a function of its own (o1_rank_rebalance), so that
 * the path of a machine without the ranking stays as it was.
 */
static inline __attribute__((always_inline)) void o1_rebalance_tick_body(struct sl_sim *sim,
									  struct o1 *s, int cpu,
									  bool idle, bool rank)
{
	if (sl_now(sim) != s->due_at || (s->numa && s->cfg.node_balance != O1_NODE_RATE &&
					  s->due_node[idle])) {
		o1_rebalance_full(sim, s, cpu, idle);
		return;
	}
	if (!s->due_bal[idle])
		return;
	struct o1_rq *rq = s->rq_of[cpu];
	bool flag = idle && s->cfg.idle_tick_idle;
	if (s->numa && s->cfg.node_balance == O1_NODE_RATE) {
		o1_balance_counted(sim, s, rq, cpu, flag);
		return;
	}
	if (rank && flag && o1_rank_none(s, rq)) {
		o1_rank_charge(sim, s, rq, cpu);
		return;
	}
	/* o1_load_balance's first test, here without its call */
	const struct o1_fbq_memo *m = &rq->fbq[0];
	struct o1_best best;
	if (o1_memo_fresh(s, rq, m, -1, -1, &best) && best.cpu < 0) {
		o1_memo_charge(sim, s, cpu, m);
		return;
	}
	if (rank)
		o1_rank_balance(sim, s, rq, cpu, flag);
	else
		o1_balance_scan(sim, s, rq, cpu, flag, o1_node_mask(s, cpu), false);
}

static __attribute__((noinline)) void o1_rank_rebalance(struct sl_sim *sim, struct o1 *s, int cpu,
							bool idle)
{
	o1_rebalance_tick_body(sim, s, cpu, idle, true);
}

void o1_rebalance_tick(struct sl_sim *sim, struct o1 *s, int cpu, bool idle)
{
	if (!s->cfg.smp)
		return;
	if (s->rank) {
		o1_rank_rebalance(sim, s, cpu, idle);
		return;
	}
	o1_rebalance_tick_body(sim, s, cpu, idle, false);
}
