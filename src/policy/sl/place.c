/*
 * sl/place.c - policy `sl`: where a new, exec'ing or woken task goes.
 *
 * Every search looks at the CPUs of one span (a NUMA node) in a fixed
 * order of distance from a "near" CPU: near's package first, then near's
 * node, each from near onwards, and takes the first CPU whose whole SMT
 * core is idle, else the first idle CPU, else the least loaded one.  An
 * idle core comes first because two tasks on the siblings of one core
 * each run at about 0.6 of their solo speed on the NetBurst presets
 * (docs/model.md), while the same task alone on another core pays at
 * most one cache refill.
 *
 *   fork    near the parent, within its node: a thread shares the
 *           parent's memory, and so, until exec, does a process - its
 *           pages are the parent's, copied on write, and it usually talks
 *           to its parent and siblings through what it inherited (pipes,
 *           sockets).  Knob fork_spread: busy (the default: a process
 *           goes to another node only when its parent's node has no idle
 *           CPU and the other has one: the child runs at once there instead
 *           of waiting for the NUMA balancer's 200 ms), off (never), on (a
 *           process goes to the least loaded node, as before Dec 2026).
 *           Why not on (schedbench on numaq-16, traced): hackbench's 800
 *           processes, forked while a walker ran on every CPU, were spread
 *           over all four quads; no CPU was idle anywhere, so they gained
 *           no CPU time, only put every group's messages across nodes and
 *           every walker beside them, and their uneven end left a node
 *           imbalance that lasted past the NUMA balancer's 200 ms, so it
 *           moved settled walkers off their memory (hackbench 5.4 s against
 *           3.4 s, Elapsed up to 112 s against 57 s; hackbench alone on
 *           numaq-16 2.79 s against 1.64 s).  Exec is where a process
 *           changes node.  busy rather than off: they tie on sl.md's table
 *           (within 0.05 % on every row with more than one node) and on 15
 *           schedbench runs of -32 and -64 each, since the NUMA balancer
 *           no longer moves a settled walker for hackbench's passing
 *           imbalance (sl/balance.c); off a full node busy wins 2-6 %
 *           (kernbench -j16 on numaq-16 and azusa-16, spin, sdet), as a
 *           child that cannot run at home otherwise waits 200 ms for the
 *           NUMA balancer (docs/policies/sl.md, "Fork").
 *   exec    a fresh image has no memory yet, so this is the cheap moment
 *           to change node: the least loaded node (tasks per CPU), then
 *           the search above (knob exec_spread).
 *   wakeup  a sync wakeup (the waker is about to sleep: pipes, sockets)
 *           goes to the waker's CPU if the waker is alone there, else an
 *           idle sibling of it - the partner's message is in that cache
 *           (knob sync_wake).  Otherwise: the previous CPU if its whole
 *           core is idle (warm cache, no sharing); an idle core near it
 *           (knob idle_core_first); the previous CPU if idle; any idle
 *           CPU; else stay.  All within the node holding the task's
 *           memory (where it first ran after fork or exec): a wakeup never
 *           crosses nodes by itself.  But a task a balancer took off that
 *           node, finding no idle CPU at home and its previous CPU busy,
 *           takes an idle CPU of the node it is on, near the previous one
 *           (knob wake_away): it stays on its node rather than wait.
 *   RT      a SCHED_FIFO/RR task that wakes or is forked goes where it runs
 *           soonest: among its allowed CPUs, in the search order from its
 *           previous CPU (the parent's at fork) over the whole machine, the
 *           one whose most important task is least important - an idle CPU,
 *           else one running only SCHED_NORMAL tasks, else the one with the
 *           lowest RT priority - the first such CPU on ties, so the previous
 *           one if it is as good.  If no CPU would run it at once it waits on
 *           its previous CPU (warm cache; it runs there in priority order).
 *           A wait for a CPU costs an RT task its deadline, a cold cache
 *           only a refill, and memory placement does not hold it back.
 *   mask    a runnable task whose new mask forbids its CPU: RT as above,
 *           any other by the search over its memory node (then anywhere).
 *
 * Sources: 6.12 kernel/sched/fair.c select_idle_sibling() (an idle core
 * before an idle sibling) and sched_balance_find_dst_group() (a fork
 * leaves its NUMA node when the node is fully busy and another has spare
 * capacity, and stays while its node has spare capacity and few tasks:
 * group types, adjust_numa_imbalance()); 2.6.12.1
 * include/asm-i386/topology.h SD_NODE_INIT (NUMA-Q nodes balance at exec,
 * not at fork); 2.6.0 kernel/sched.c sched_balance_exec() and
 * 2.6.12.1 wake_affine logic in try_to_wake_up() (sync wakeups); Ingo
 * Molnar's HT scheduler's wake_up_cpu() (an idle sibling).
 *
 * Cost: every CPU the search order passes (up to the first idle core, else
 * all of it) is charged to the deciding CPU as a scan item.  The simulator
 * finds the same CPU in the masks sl keeps (s->load_is, s->idle_core)
 * and counts its place in the order, instead of visiting each CPU
 * (docs/policies/sl.md, "Costs").
 */
#include "policy/sl/sl.h"

/*
 * The allowed CPUs of a span in search order from near: the CPUs sharing
 * near's last-level cache (its package on every preset), then the rest of
 * near's node, then the rest of the span, each from near upwards and round
 * from CPU 0.  Kept as three bit masks (stages) over the words [lo, hi]
 * that can hold a CPU of the span, so that a search costs the words of a
 * node, not the size of the machine.
 */
struct sls_order {
	sl_cpumask set[3];	/* the CPUs of each stage not in an earlier one */
	int lo, hi;		/* the words of set[] in use (the others are not set) */
	int near;
	int stage, pass, next;	/* sls_order_next: where it is */
};

/* Walk the order again from its first CPU (sls_order_next). */
static void sls_order_rewind(struct sls_order *o)
{
	o->stage = 0;
	o->pass = 0;
	o->next = o->near > o->lo * 64 ? o->near : o->lo * 64;
}

static void sls_order_start(struct sls_order *o, const struct sls *s, const struct sl_task *t,
			    int near, const sl_cpumask *span)
{
	const sl_cpumask *llc = sl_topo_llc(s->topo, near);	/* the cache it may find warm */
	const sl_cpumask *node = sl_topo_node(s->topo, near);
	const sl_cpumask *nodes = s->topo->node_cpus;

	if (span >= nodes && span < nodes + s->topo->nnodes) {
		o->lo = s->node_lo[span - nodes];
		o->hi = s->node_hi[span - nodes];
	} else {
		o->lo = 0;
		o->hi = s->span_words - 1;
	}
	for (int w = o->lo; w <= o->hi; w++) {
		uint64_t in = span->w[w] & t->allowed.w[w];
		o->set[0].w[w] = in & llc->w[w];
		o->set[1].w[w] = in & node->w[w] & ~llc->w[w];
		o->set[2].w[w] = in & ~node->w[w] & ~llc->w[w];
	}
	o->near = near;
	sls_order_rewind(o);
}

/* The first CPU of m at or after c within words ..hi, or -1. */
static int sls_next_upto(const sl_cpumask *m, int c, int hi)
{
	while (c >> 6 <= hi) {
		uint64_t w = m->w[c >> 6] >> (c & 63);
		if (w)
			return c + __builtin_ctzll(w);
		c = (c | 63) + 1;
	}
	return -1;
}

/* CPUs of m in [from, to), within words lo..hi. */
static int sls_count(const sl_cpumask *m, int from, int to)
{
	int n = 0;

	for (int w = from >> 6; w <= (to - 1) >> 6 && from < to; w++) {
		uint64_t x = m->w[w];
		if (w == from >> 6)
			x &= ~0ULL << (from & 63);
		if (w == (to - 1) >> 6 && (to & 63))
			x &= ~(~0ULL << (to & 63));
		n += sl_popcount64(x);
	}
	return n;
}

/* The first CPU of stage k in order that is also in m (-1: none); *pos is
 * its place in the stage's order, from 1. */
static int sls_order_first(const struct sls_order *o, int k, const sl_cpumask *m, int *pos)
{
	const sl_cpumask *set = &o->set[k];
	int hi = o->hi, end = (hi + 1) * 64, lo = o->lo * 64, near = o->near;
	int from = near > lo ? near : lo;
	sl_cpumask x;

	for (int w = o->lo; w <= hi; w++)
		x.w[w] = set->w[w] & m->w[w];
	int c = sls_next_upto(&x, from, hi);
	if (c >= 0) {
		*pos = sls_count(set, from, c + 1);
		return c;
	}
	c = sls_next_upto(&x, lo, hi);
	if (c < 0 || c >= near)
		return -1;
	*pos = sls_count(set, from, end) + sls_count(set, lo, c + 1);
	return c;
}

/* The next CPU in search order, or -1 at the end: each stage from near
 * upwards (pass 0), then from its lowest CPU up to near (pass 1). */
static int sls_order_next(struct sls_order *o)
{
	int lo = o->lo * 64, from = o->near > lo ? o->near : lo;

	while (o->stage < 3) {
		int c = sls_next_upto(&o->set[o->stage], o->next, o->hi);
		if (c >= 0 && (!o->pass || c < o->near)) {
			o->next = c + 1;
			return c;
		}
		if (!o->pass) {
			o->pass = 1;
			o->next = lo;
		} else {
			o->stage++;
			o->pass = 0;
			o->next = from;
		}
	}
	return -1;
}

/* CPUs in stage k: all of its words, as sls_count over them. */
static int sls_order_size(const struct sls_order *o, int k)
{
	int n = 0;

	for (int w = o->lo; w <= o->hi; w++)
		n += sl_popcount64(o->set[k].w[w]);
	return n;
}

/*
 * Idle core, else idle CPU, else least loaded CPU of span (-1: none
 * allowed), in search order, e's own load aside.  The first idle core is
 * found in s->idle_core, the first CPU of the least load in the mask of
 * that load (s->load_is: idle, then a load of 1, 2, 3); only when every
 * CPU of the span has a larger load are the loads compared one by one.
 * What is charged is the scan of the order up to the first idle core, or
 * of all of it.
 *
 * Each mask is first tested against the whole order (the union of its
 * stages): most searches on a busy machine find no idle core and no small
 * load, and then the three stages' ordered searches would each find
 * nothing.  The least load is found over the order's CPUs in CPU order and
 * its first CPU in search order from the mask of the CPUs that have it:
 * the CPU the walk in search order took (the first of equals).
 */
static int sls_place(struct sls *s, struct sls_ent *e, int near, const sl_cpumask *span,
		     int charge_cpu)
{
	struct sls_order o;
	sl_cpumask all, m;
	int before = 0, pos, c = -1, mine = -1;
	uint64_t hit = 0;

	sls_order_start(&o, s, e->task, near, span);
	for (int w = o.lo; w <= o.hi; w++)
		all.w[w] = o.set[0].w[w] | o.set[1].w[w] | o.set[2].w[w];
	/* e's CPU without e: a load one less; idle if e was all it had, and
	 * its core then free if nothing else of the core has a load */
	if (e->on_rq && e->cpu >= 0)
		mine = e->cpu;
	const sl_cpumask *sib = NULL;
	if (mine >= 0 && sls_load_of(s, mine) == 1 &&
	    s->core_busy[s->topo->cpu_core[mine]] == 1)
		sib = sl_topo_siblings(s->topo, mine);
	/* one loop per mask, copy and test together (a loop that only
	 * copied would be a call to memcpy) */
	for (int w = o.lo; w <= o.hi; w++) {
		m.w[w] = s->idle_core.w[w] | (sib ? sib->w[w] : 0);
		hit |= m.w[w] & all.w[w];
	}
	for (int k = 0; k < 3 && hit; k++) {
		c = sls_order_first(&o, k, &m, &pos);
		if (c >= 0) {
			sl_charge_sched(s->sim, charge_cpu, (before + pos) * s->scan_ns);
			return c;
		}
		before += sls_order_size(&o, k);
	}
	if (!hit)
		for (int w = o.lo; w <= o.hi; w++)
			before += sl_popcount64(all.w[w]);
	sl_charge_sched(s->sim, charge_cpu, before * s->scan_ns);
	/* the first CPU in order of the least load, if that is small; e's
	 * CPU (if in the span's words: else not searched) has a load one
	 * less than its mask says */
	int mw = mine >= 0 && mine >> 6 >= o.lo && mine >> 6 <= o.hi ? mine >> 6 : -1;
	int ml = mw >= 0 ? sls_load_of(s, mine) - 1 : -1;
	uint64_t mbit = mw >= 0 ? 1ULL << (mine & 63) : 0;
	for (int l = 0; l < SLS_LOAD_MASKS; l++) {
		hit = 0;
		for (int w = o.lo; w <= o.hi; w++) {
			uint64_t x = s->load_is[l].w[w];
			if (w == mw)
				x = (x & ~mbit) | (ml == l ? mbit : 0);
			m.w[w] = x;
			hit |= x & all.w[w];
		}
		for (int k = 0; k < 3 && hit; k++)
			if ((c = sls_order_first(&o, k, &m, &pos)) >= 0)
				return c;
	}
	/* every CPU has more: the least loaded, the first of equals in order */
	int best_load = -1, best_w = o.lo;
	for (int w = o.lo; w <= o.hi; w++) {
		uint64_t x = 0;
		for (uint64_t a = all.w[w]; a; a &= a - 1) {
			int b = __builtin_ctzll(a), load = sls_load_of(s, w * 64 + b);
			load -= w * 64 + b == mine;
			if (best_load >= 0 && load > best_load)
				continue;
			if (load < best_load || best_load < 0) {
				best_load = load;
				best_w = w;
				x = 0;
			}
			x |= 1ULL << b;
		}
		m.w[w] = x;
	}
	for (int w = o.lo; w < best_w; w++)
		m.w[w] = 0;	/* had only larger loads */
	for (int k = 0; k < 3 && best_load >= 0; k++)
		if ((c = sls_order_first(&o, k, &m, &pos)) >= 0)
			return c;
	return -1;
}

static int sls_place_any(struct sls *s, struct sls_ent *e, int near, const sl_cpumask *span,
			 int charge_cpu)
{
	int c = sls_place(s, e, near, span, charge_cpu);

	return c >= 0 ? c : sls_place(s, e, near, &s->topo->all_cpus, charge_cpu);
}

/* CPUs of node nd that t may run on: the node's words only (the rest of
 * its mask is empty), a sixteenth of the mask's on 1,024 CPUs. */
static long sls_node_allowed(const struct sls *s, const struct sl_task *t, int nd)
{
	const sl_cpumask *m = &s->topo->node_cpus[nd];
	long w = 0;
	bool all = true;

	for (int i = s->node_lo[nd]; i <= s->node_hi[nd]; i++)
		all &= (m->w[i] & t->allowed.w[i]) == m->w[i];
	if (all)
		return s->node_weight[nd];
	for (int i = s->node_lo[nd]; i <= s->node_hi[nd]; i++)
		w += __builtin_popcountll(m->w[i] & t->allowed.w[i]);
	return w;
}

/* Node nd has a CPU t may run on with nothing on it (no task, no move
 * pending): a word of s->load_is[0] per word of the node. */
static bool sls_node_has_idle(const struct sls *s, const struct sl_task *t, int nd)
{
	const sl_cpumask *m = &s->topo->node_cpus[nd];

	for (int w = s->node_lo[nd]; w <= s->node_hi[nd]; w++)
		if (s->load_is[0].w[w] & m->w[w] & t->allowed.w[w])
			return true;
	return false;
}

/* The node with the fewest tasks per CPU (not counting e), among those
 * with an idle CPU for it if need_idle (-1: none has one); among equals
 * e's own node, then the nearest, then the lowest id.  The nodes' loads
 * are sums kept as they change (s->node_load); this choice charges
 * nothing (it reads the nodes' totals). */
static int sls_idlest_node(const struct sls *s, const struct sls_ent *e, int cpu, bool need_idle)
{
	const struct sl_topo *tp = s->topo;
	int own = tp->cpu_node[cpu];
	const int *order = &s->node_order[own * tp->nnodes];
	int best = need_idle ? -1 : own;
	long best_load = -1, best_w = 1;

	for (int i = 0; i < tp->nnodes; i++) {
		int nd = order[i];
		long w = sls_node_allowed(s, e->task, nd);
		if (!w || (need_idle && !sls_node_has_idle(s, e->task, nd)))
			continue;
		long load = s->node_load[nd] - (e->on_rq && e->cpu >= 0 &&
						tp->cpu_node[e->cpu] == nd);
		if (best_load < 0 || load * best_w < best_load * w) {
			best = nd;
			best_load = load;
			best_w = w;
		}
	}
	return best;
}

int sls_select_fork(struct sls *s, struct sl_task *parent, struct sl_task *child)
{
	struct sls_ent *e = sls_ent(child);

	if (!parent)
		return sl_cpumask_test(&child->allowed, 0) ? 0 : sl_cpumask_first(&child->allowed);
	int near = parent->cpu >= 0 ? parent->cpu : sls_ent(parent)->cpu;
	if (e->rt)
		return sls_select_rt(s, e, near, near);
	const sl_cpumask *span = sl_topo_node(s->topo, near);
	if (s->fork_spread != SLS_FORK_OFF && child->mm != parent->mm && s->topo->nnodes > 1) {
		int nd = -1;
		if (s->fork_spread == SLS_FORK_ALWAYS)
			nd = sls_idlest_node(s, e, near, false);
		else if (!sls_node_has_idle(s, child, s->topo->cpu_node[near]))
			/* the parent's node is full: an idle CPU elsewhere
			 * runs the child now (none: it waits here as well as
			 * anywhere, beside its parent) */
			nd = sls_idlest_node(s, e, near, true);
		if (nd >= 0)
			span = &s->topo->node_cpus[nd];
		if (!sl_cpumask_test(span, near))
			return sls_place_any(s, e, sl_cpumask_first(span), span, near);
	}
	return sls_place_any(s, e, near, span, near);
}

int sls_select_exec(struct sls *s, struct sl_task *t)
{
	struct sls_ent *e = sls_ent(t);
	int cpu = t->cpu;
	int node = s->topo->cpu_node[cpu];

	if (s->exec_spread && s->topo->nnodes > 1)
		node = sls_idlest_node(s, e, cpu, false);
	const sl_cpumask *span = &s->topo->node_cpus[node];
	int near = sl_cpumask_test(span, cpu) ? cpu : sl_cpumask_first(span);
	return sls_place_any(s, e, near, span, cpu);
}

static bool sls_ok(const struct sl_task *t, int cpu)
{
	return cpu >= 0 && sl_cpumask_test(&t->allowed, cpu);
}

int sls_select_wake(struct sls *s, struct sl_task *t, int waker_cpu, unsigned flags)
{
	struct sls_ent *e = sls_ent(t);
	const struct sl_topo *tp = s->topo;
	int prev = e->cpu >= 0 ? e->cpu : waker_cpu;
	int charge = waker_cpu >= 0 ? waker_cpu : prev;

	if (e->rt)
		return sls_select_rt(s, e, prev, charge);

	/* a pipe's wakeup is sync whether or not the waker sleeps, as in
	 * modern kernels' pipe code (6.12 fs/pipe.c); so is an exiting
	 * child's wakeup of its parent, whose CPU it leaves for good (6.12
	 * kernel/exit.c __wake_up_parent) */
	if (s->sync_wake && (flags & SL_WAKE_SYNC_MODERN) && !(flags & SL_WAKE_TIMER) &&
	    waker_cpu >= 0 && (e->mem_node < 0 || tp->cpu_node[waker_cpu] == e->mem_node)) {
		const sl_cpumask *sib = sl_topo_siblings(tp, waker_cpu);
		/* prev shares the waker's core and is idle: warm and free */
		if (sls_ok(t, prev) && sl_cpumask_test(sib, prev) && sls_idle(s, prev))
			return prev;
		if (sls_ok(t, waker_cpu) && s->rq[waker_cpu].nr_running <= 1)
			return waker_cpu;
		sl_for_each_cpu(c, sib)
			if (c != waker_cpu && sls_ok(t, c) && sls_idle(s, c))
				return c;
	}
	int home = e->mem_node >= 0 ? e->mem_node : tp->cpu_node[prev];
	const sl_cpumask *span = &tp->node_cpus[home];
	bool prev_home = sl_cpumask_test(span, prev) && sls_ok(t, prev);

	sl_charge_sched(s->sim, charge, s->scan_ns);
	if (prev_home && sls_core_idle(s, prev))
		return prev;
	if (!s->idle_core_first && prev_home && sls_idle(s, prev))
		return prev;
	int near = prev_home ? prev : sl_cpumask_first(span);
	int c = sls_place(s, e, near, span, charge);
	if (c >= 0 && sls_idle(s, c))
		return c;
	/* A task already running away from home (a balancer took it there)
	 * whose home has no idle CPU: an idle CPU near its previous one on
	 * that node, rather than a wait on the busy previous CPU - it
	 * crosses no node it is not on (knob wake_away) */
	if (s->wake_away && !prev_home && sls_ok(t, prev) && !sls_idle(s, prev)) {
		int away = sls_place(s, e, prev, &tp->node_cpus[tp->cpu_node[prev]], charge);
		if (away >= 0 && sls_idle(s, away))
			return away;
	}
	if (sls_ok(t, prev))
		return prev;
	return c >= 0 ? c : sls_place(s, e, prev, &tp->all_cpus, charge);
}

/* ---- RT tasks and mask changes ---- */

int sls_top(const struct sls *s, int cpu, const struct sls_ent *e)
{
	const struct sls_rq *rq = &s->rq[cpu];
	int top = sl_prio_array_next_prio(rq->rt, 0);
	const struct sls_ent *c = rq->curr;

	if (e->rt_queued && e->cpu == cpu && e->rt_node.prio == top) {
		/* e itself may head the list: look past it */
		const struct sl_prio_node *n = &e->rt_node;
		if (n->next == &rq->rt->queue[top] && n->prev == &rq->rt->queue[top])
			top = sl_prio_array_next_prio(rq->rt, top + 1);
	}
	if (c && c != e) {
		int cp = c->rt ? sls_rt_prio(c) : SL_MAX_RT_PRIO;
		if (cp < top)
			top = cp;
	}
	if (top == SL_MAX_PRIO && rq->nr_running + rq->incoming - (e->on_rq && e->cpu == cpu) > 0)
		top = SL_MAX_RT_PRIO;	/* SCHED_NORMAL tasks only */
	return top;
}

int sls_select_rt(struct sls *s, struct sls_ent *e, int prev, int charge_cpu)
{
	struct sls_order o;
	int near = prev >= 0 ? prev : sl_cpumask_first(&e->task->allowed);
	int best = -1, best_top = -1, n = 0;

	sls_order_start(&o, s, e->task, near, &s->topo->all_cpus);
	for (int c; (c = sls_order_next(&o)) >= 0; n++) {
		int top = sls_top(s, c, e);
		if (top > best_top) {
			best = c;
			best_top = top;
		}
	}
	sl_charge_sched(s->sim, charge_cpu, n * s->scan_ns);
	if (best_top <= sls_rt_prio(e) && sls_ok(e->task, prev))
		return prev;	/* nowhere at once: wait where its cache is */
	return best;
}

int sls_select_allowed(struct sls *s, struct sl_task *t)
{
	struct sls_ent *e = sls_ent(t);
	int from = e->cpu;

	if (e->rt)
		return sls_select_rt(s, e, from, from);
	int home = e->mem_node >= 0 ? e->mem_node : s->topo->cpu_node[from];
	return sls_place_any(s, e, from, &s->topo->node_cpus[home], from);
}
