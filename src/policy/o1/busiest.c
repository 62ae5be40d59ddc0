/*
 * o1/busiest.c - the O(1) scheduler's find_busiest_queue: the busiest
 * runqueue of a mask, read through this balancer's own memory of every
 * queue's length (prev_cpu_load), and the version's imbalance rule; and
 * the two devices that give the scan's answer without reading every
 * runqueue again - the memo of the last scan, replayed against a log of
 * the lengths that changed since, and the ranking of the CPUs by length
 * for idle balances.  Both leave behind the memory the scan would, and
 * charge what the scan cost: the simulated cost stays the kernel's O(N)
 * walk (docs/policies/o1.md, "What the simulation costs"); the check op
 * replays every memo and ranking against a scan.
 *
 * Sources: 2.6.0 kernel/sched.c find_busiest_queue (its 25% rule and
 * literal imbalance/2 == 0); a 2.5.6x kernel/sched.c, the "-" side of
 * Ingo Molnar's sched-2.5.68-A9, LKML
 * <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com> (the
 * half-difference rule, the per-balancer prev_cpu_load); the 2.5.40
 * imbalance rule in Matthew Dobson's sched_cleanup-2.5.40.
 */
#include <string.h>

#include "policy/o1/busiest.h"
#include "sim/sim.h"


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
struct o1_rq *o1_find_busiest_queue(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq,
				    int this_cpu, bool idle, const sl_cpumask *mask, int *imbalance)
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
