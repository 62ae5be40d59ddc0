/*
 * o1/balance.c - load balancing of the O(1) scheduler: load_balance
 * pulling from the busiest queue (find_busiest_queue, with each balancer's
 * own memory of every queue's length and the version's imbalance rule:
 * o1/busiest.c) expired tasks first and each list from its tail, the
 * cache-hot test against cache_decay_ticks with each version's exceptions,
 * the newly-idle balance and rebalance_tick (with the NUMA scheduler's
 * node balancing, o1/numa.c).
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
#include "policy/o1/busiest.h"
#include "sim/sim.h"

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
