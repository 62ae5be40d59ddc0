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
 *   fork    a thread: near the parent, within its node (they share memory);
 *           a process: on the least loaded node (knob fork_spread; a new
 *           process has no memory of its own yet), near the parent if
 *           that is its node.
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
 *           crosses nodes by itself.
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
 * before an idle sibling); 2.6.0 kernel/sched.c sched_balance_exec() and
 * 2.6.12.1 wake_affine logic in try_to_wake_up() (sync wakeups); Ingo
 * Molnar's HT scheduler's wake_up_cpu() (an idle sibling).
 *
 * Cost: every CPU examined is charged to the deciding CPU as a scan item.
 */
#include "policy/sl/sl.h"

/* Load of `cpu` not counting `e` itself. */
static int sls_load(const struct sls *s, int cpu, const struct sls_ent *e)
{
	return sls_load_of(s, cpu) - (e->on_rq && e->cpu == cpu);
}

static bool sls_core_free(const struct sls *s, int cpu, const struct sls_ent *e)
{
	const sl_cpumask *sib = sl_topo_siblings(s->topo, cpu);

	sl_for_each_cpu(c, sib)
		if (sls_load(s, c, e))
			return false;
	return true;
}

/*
 * The allowed CPUs of a span in search order from near: near's package,
 * then the rest of near's node, then the rest of the span, each from near
 * upwards and round from CPU 0.  An iterator over bit masks, so that a
 * search that stops at its first idle core costs what it looked at, not
 * the size of the machine.
 */
struct sls_order {
	sl_cpumask set[3];	/* the CPUs of each stage not in an earlier one */
	int stage, near, next;
	bool wrapped;		/* this stage went past the last CPU to 0 */
};

static void sls_order_start(struct sls_order *o, const struct sls *s, const struct sl_task *t,
			    int near, const sl_cpumask *span)
{
	sl_cpumask in = sl_cpumask_and(*span, &t->allowed);

	o->set[0] = sl_cpumask_and(*sl_topo_package(s->topo, near), &in);
	o->set[1] = sl_cpumask_and(*sl_topo_node(s->topo, near), &in);
	o->set[2] = in;
	for (int w = 0; w < SL_CPUMASK_WORDS; w++) {
		o->set[2].w[w] &= ~o->set[1].w[w];
		o->set[1].w[w] &= ~o->set[0].w[w];
	}
	o->stage = 0;
	o->near = near;
	o->next = near;
	o->wrapped = false;
}

/* The next CPU in search order, or -1 at the end. */
static int sls_order_next(struct sls_order *o)
{
	while (o->stage < 3) {
		int c = sl_cpumask_next(&o->set[o->stage], o->next);
		if (c >= 0 && (!o->wrapped || c < o->near)) {
			o->next = c + 1;
			return c;
		}
		if (!o->wrapped) {
			o->wrapped = true;
			o->next = 0;
		} else {
			o->stage++;
			o->wrapped = false;
			o->next = o->near;
		}
	}
	return -1;
}

/* Idle core, else idle CPU, else least loaded CPU of span (-1: none allowed). */
static int sls_place(struct sls *s, struct sls_ent *e, int near, const sl_cpumask *span,
		     int charge_cpu)
{
	struct sls_order o;
	int best = -1, best_load = 0, idle = -1;
	long looked = 0;

	sls_order_start(&o, s, e->task, near, span);
	for (int c; (c = sls_order_next(&o)) >= 0;) {
		int load = sls_load(s, c, e);
		looked++;
		if (load == 0 && sls_core_free(s, c, e)) {
			best = c;
			idle = c;
			break;
		}
		if (load == 0 && idle < 0)
			idle = c;
		if (best < 0 || load < best_load) {
			best = c;
			best_load = load;
		}
	}
	sl_charge_sched(s->sim, charge_cpu, looked * s->scan_ns);
	return idle >= 0 ? idle : best;
}

static int sls_place_any(struct sls *s, struct sls_ent *e, int near, const sl_cpumask *span,
			 int charge_cpu)
{
	int c = sls_place(s, e, near, span, charge_cpu);

	return c >= 0 ? c : sls_place(s, e, near, &s->topo->all_cpus, charge_cpu);
}

/* CPUs of node nd that t may run on. */
static long sls_node_allowed(const struct sls *s, const struct sl_task *t, int nd)
{
	const sl_cpumask *m = &s->topo->node_cpus[nd];
	long w = 0;
	bool all = true;

	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		all &= (m->w[i] & t->allowed.w[i]) == m->w[i];
	if (all)
		return s->node_weight[nd];
	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		if (m->w[i] & t->allowed.w[i])
			w += __builtin_popcountll(m->w[i] & t->allowed.w[i]);
	return w;
}

/* The node with the fewest tasks per CPU (not counting e); among equals
 * e's own node, then the nearest, then the lowest id.  The nodes' loads
 * are sums kept as they change (s->node_load); this choice charges
 * nothing (it reads the nodes' totals). */
static int sls_idlest_node(const struct sls *s, const struct sls_ent *e, int cpu)
{
	const struct sl_topo *tp = s->topo;
	int own = tp->cpu_node[cpu];
	const int *order = &s->node_order[own * tp->nnodes];
	int best = own;
	long best_load = -1, best_w = 1;

	for (int i = 0; i < tp->nnodes; i++) {
		int nd = order[i];
		long w = sls_node_allowed(s, e->task, nd);
		if (!w)
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
	if (s->fork_spread && child->mm != parent->mm && s->topo->nnodes > 1) {
		/* a new process has no memory of its own yet */
		span = &s->topo->node_cpus[sls_idlest_node(s, e, near)];
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
		node = sls_idlest_node(s, e, cpu);
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

	if (s->sync_wake && (flags & SL_WAKE_SYNC) && !(flags & SL_WAKE_TIMER) &&
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
