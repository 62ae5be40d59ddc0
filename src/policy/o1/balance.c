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

/*
 * The memo.  An idle CPU balances every tick and reads every runqueue of
 * its node (the kernel's O(N) per call, which stays the simulated cost):
 * on a big, mostly idle machine that is N^2 host reads per jiffy, nearly
 * all reading what the last one read.  A scan leaves this balancer's
 * prev_cpu_load[i] equal to the length it read for every CPU i of its
 * mask; after that, only CPUs whose runqueue length changed can differ,
 * and the change log (o1.chg_log) names them.  The scan's answer is the
 * first CPU, in CPU order, of the greatest load (min(nr, prev), or nr when
 * idle; >= 2; not ours).  Unchanged CPUs have prev == nr, so their best is
 * the memo's `busiest` (the first CPU of the greatest length), unless that
 * CPU's load as read now (its queue, or its memory, which another mask's
 * scan may have stored since) fell below the memo's length (one as long
 * or longer still comes first); the changed ones are read as the kernel
 * reads them, their memory stored, and the best of both taken (ties to the
 * lower CPU, as the scan's strict >).
 * So the answer, the memory left behind and the charge (looked *
 * scan_ns) are the scan's.  The memo is kept for this CPU's node mask
 * ([0]) and for another node's CPUs plus this one ([1]: balance_node,
 * 2.5.59's widened mask); other masks, more than O1_MEMO_CHANGES changes,
 * or a lower load at the memo's busiest CPU mean a scan.  The check op replays
 * every memo against a scan (o1_check_balance_memo).
 */

/* The answer of a scan: the busiest CPU (-1: none) and its load. */
struct o1_best {
	int cpu, load;
};

/* Is load at `cpu` better than b, as the scan's strict > in CPU order? */
static inline bool o1_better(const struct o1_best *b, int cpu, int load)
{
	return load > 1 && (load > b->load || (load == b->load && cpu < b->cpu));
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

/* Read CPU i as the scan does (storing its memory) into *real, and by its
 * length into *steady. */
static inline void o1_read_cpu(const struct o1 *s, int this_idx, bool idle, int *prev, int i,
			       struct o1_best *real, struct o1_best *steady)
{
	int idx = s->rq_idx[i], nr = s->rq_nr[idx];
	int load = idle || nr < prev[i] ? nr : prev[i];

	prev[i] = nr;
	if (idx == this_idx)
		return;
	if (o1_better(real, i, load))
		*real = (struct o1_best){ i, load };
	if (o1_better(steady, i, nr))
		*steady = (struct o1_best){ i, nr };
}

/* The kernel's scan of every CPU of the mask; sets memo m from it. */
static struct o1_best o1_scan(const struct o1 *s, int this_idx, bool idle,
			      const sl_cpumask *mask, int *prev, struct o1_fbq_memo *m)
{
	struct o1_best real = { -1, 1 }, steady = { -1, 1 };
	int looked = 0;

	for (int w = 0; w < s->mask_words; w++) {
		for (uint64_t bits = mask->w[w]; bits; bits &= bits - 1) {
			o1_read_cpu(s, this_idx, idle, prev, (w << 6) + __builtin_ctzll(bits),
				    &real, &steady);
			looked++;
		}
	}
	m->valid = true;
	m->gen = s->chg_gen;
	m->busiest = steady.cpu;
	m->max_load = steady.load;
	m->looked = looked;
	return real;
}

/*
 * The same answer from memo m and the changes logged since: false if the
 * memo cannot give it (too many changes, or its busiest CPU's load fell).
 */
static bool o1_replay(const struct o1 *s, int this_idx, bool idle, const sl_cpumask *mask,
		      int *prev, struct o1_fbq_memo *m, struct o1_best *out)
{
	uint64_t n = s->chg_gen - m->gen;
	int changed[O1_MEMO_CHANGES], nchanged = 0;

	if (n > O1_MEMO_CHANGES)
		return false;
	for (uint64_t g = m->gen; g < s->chg_gen; g++) {
		int idx = s->chg_log[g % O1_CHG_LOG], k = 0;
		while (k < nchanged && changed[k] != idx)
			k++;
		if (k == nchanged)
			changed[nchanged++] = idx;
	}
	/* the memo's busiest CPU stays the best of the unchanged ones only
	 * if it did not shrink below what the others may have (a longer
	 * queue is read below like any changed one and still beats them) */
	if (m->busiest >= 0) {
		int b = m->busiest, nr = s->rq_nr[s->rq_idx[b]];
		if (nr < m->max_load || (!idle && prev[b] < m->max_load))
			return false;
	}
	struct o1_best real = { m->busiest, m->max_load }, steady = real;
	for (int k = 0; k < nchanged; k++) {
		const struct o1_rq *rq = &s->rqs[changed[k]];
		if (rq->ncpus == 1) {
			if (sl_cpumask_test(mask, rq->first_cpu))
				o1_read_cpu(s, this_idx, idle, prev, rq->first_cpu, &real, &steady);
			continue;
		}
		sl_for_each_cpu_and_in(i, &rq->cpus, mask, 0, s->ncpus)
			o1_read_cpu(s, this_idx, idle, prev, i, &real, &steady);
	}
	m->gen = s->chg_gen;
	m->busiest = steady.cpu;
	m->max_load = steady.load;
	*out = real;
	return true;
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
	int nr_running = idle || this_rq->nr_running > prev[this_cpu] ?
			 this_rq->nr_running : prev[this_cpu];
	struct o1_fbq_memo key, scratch;
	struct o1_fbq_memo *memo = o1_memo_slot(s, this_rq, this_cpu, mask, &key);
	struct o1_best best;

	if (!memo || !memo->valid || memo->node != key.node || memo->cpu != key.cpu ||
	    !o1_replay(s, this_rq->index, idle, mask, prev, memo, &best)) {
		if (!memo)
			memo = &scratch;
		*memo = key;
		best = o1_scan(s, this_rq->index, idle, mask, prev, memo);
	} else {
		s->fbq_replays++;
	}
	sl_charge_sched(sim, this_cpu, memo->looked * s->cfg.scan_ns);
	if (best.cpu < 0)
		return NULL;
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

/*
 * One memo, replayed against a scan from a copy of the same memory, busy
 * and idle: same answer, same memory left, same memo after.
 */
static int o1_check_memo(const struct o1 *s, const struct o1_rq *rq,
			 const struct o1_fbq_memo *m, struct sl_err *err)
{
	static int a[SL_MAX_CPUS], b[SL_MAX_CPUS];
	sl_cpumask mask = o1_memo_mask(s, rq, m);

	if (!m->valid)
		return 0;
	for (int idle = 0; idle < 2; idle++) {
		struct o1_fbq_memo ma = *m, mb = *m;
		memcpy(a, rq->prev_cpu_load, sizeof(int) * (size_t)s->ncpus);
		memcpy(b, rq->prev_cpu_load, sizeof(int) * (size_t)s->ncpus);
		struct o1_best want = o1_scan(s, rq->index, idle, &mask, a, &ma), got;
		if (!o1_replay(s, rq->index, idle, &mask, b, &mb, &got))
			return 0;	/* the next call scans */
		if (got.cpu != want.cpu || (want.cpu >= 0 && got.load != want.load) ||
		    memcmp(a, b, sizeof(int) * (size_t)s->ncpus) || mb.busiest != ma.busiest ||
		    (ma.busiest >= 0 && mb.max_load != ma.max_load) || mb.looked != ma.looked)
			return sl_fail_internal(err, "o1: runqueue of CPU %d: find_busiest_queue's "
						"memo (node %d) gives CPU %d of %d (idle %d), a "
						"scan CPU %d of %d, or leaves another memory",
						rq->first_cpu, m->node, got.cpu, got.load, idle,
						want.cpu, want.load);
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
		return sl_now(sim) - p->timestamp <= s->cfg.cache_decay_ticks * s->tick_ns;
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
void o1_load_balance(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq, int this_cpu,
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

void o1_rebalance_tick(struct sl_sim *sim, struct o1 *s, int cpu, bool idle)
{
	uint64_t j = sl_jiffies(sim);
	struct o1_rq *rq = s->rq_of[cpu];
	uint64_t every = (uint64_t)(idle ? s->idle_ticks : s->busy_ticks);
	bool flag = idle && s->cfg.idle_tick_idle;	/* 2.5.68, 2.6.0: idle ticks pass 0 */

	if (!s->cfg.smp)
		return;
	if (s->numa && s->cfg.node_balance == O1_NODE_RATE) {
		/* 2.5.59: load_balance itself counts calls and widens the mask */
		if (o1_on_tick(j, every)) {
			sl_cpumask mask = o1_cpus_to_balance(s, rq, cpu);
			o1_load_balance(sim, s, rq, cpu, flag, &mask, false);
		}
		return;
	}
	if (s->numa) {
		/* node ticks first, then the node's own balance (3.3) */
		uint64_t node_every = (uint64_t)(idle ? s->idle_node_ticks : s->busy_node_ticks);
		if (o1_on_tick(j, node_every))
			o1_balance_node(sim, s, cpu, idle && s->cfg.idle_node_tick_idle);
	}
	if (o1_on_tick(j, every))
		o1_load_balance(sim, s, rq, cpu, flag, o1_node_mask(s, cpu), false);
}
