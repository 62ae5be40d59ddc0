/*
 * o1/numa.c - the NUMA scheduler of 2.5.59 (Erich Focht, Michael Hohnbaum,
 * Martin Bligh) and its 2.5.6x / 2.6.0 form, on the O(1) scheduler: every
 * balance stays within the CPU's node, except that now and then a CPU
 * looks for the busiest node, by its decayed load and a 125 % threshold,
 * and balances against that node's CPUs plus itself; and sched_balance_exec
 * moves a task that execs off a busy runqueue to the least loaded CPU of
 * the least loaded node, through the migration thread.
 *
 * When a CPU looks across nodes (node_balance):
 *   rate   2.5.59: load_balance counts its calls (newly-idle, idle tick,
 *          busy tick alike) and every NODE_BALANCE_RATE-th one balances
 *          against the busiest node (knob node_balance_rate, default 100 =
 *          i386 NUMA-Q; ia64 and ppc64 10, x86-64 30): an idle CPU every
 *          ~100 ms on NUMA-Q, a busy one every 100 x 250 ms.
 *   ticks  2.5.68 / 2.6.0: separate node ticks, idle every 5 ms and busy
 *          every 400 ms, done before the node's own balance of that tick;
 *          the newly-idle balance stays in the node.
 * The node load is the raw node_nr_running in 2.5.59 / 2.5.6x and
 * 10 * node_nr_running / CPUs of the node in 2.6.0 (nodes without CPUs
 * skipped).
 *
 * Sources: 2.5.59 kernel/sched.c (node_nr_running, find_busiest_node()
 * with NODE_THRESHOLD 125 and the decay load/2 + count, cpus_to_balance()
 * counting load_balance() calls against NODE_BALANCE_RATE,
 * sched_best_cpu() and sched_balance_exec(), exec balancing only when
 * numnodes > 1, ties to the first minimum); 2.5.59 include/asm-ARCH/
 * topology.h NODE_BALANCE_RATE; 2.5.68 and 2.6.0 kernel/sched.c
 * (balance_node(), rebalance_tick() with IDLE_NODE_REBALANCE_TICK =
 * 5 x IDLE_REBALANCE_TICK and BUSY_NODE_REBALANCE_TICK = 2 x
 * BUSY_REBALANCE_TICK, node balance before the node's own); 2.6.0
 * kernel/sched.c find_busiest_node() (10 * node_nr_running / nr_cpus_node,
 * CPU-less nodes skipped) and set_cpus_allowed() / migration_thread() (the
 * move, preempting the destination only for a better priority); the review
 * of Ingo Molnar's sched-SMT-A5 (LKML, Nov 2003: on NUMA+HT "node
 * balancing should count runqueues, not CPUs").
 * Docs: docs/policies/o1.md ("NUMA").
 *
 * Choices where the sources are uncertain:
 *   - The exec move is a request to the exec'ing CPU's migration thread
 *     (sched_migrate_task -> set_cpus_allowed): the thread preempts the
 *     task and queues it on the destination, preempting there only for a
 *     strictly better priority (wake_up_cpu with the HT patch).  One move
 *     may be pending per CPU; a second exec on that CPU before its thread
 *     ran stays where it is.
 *   - The HT scheduler on a NUMA machine (ht knob node_divisor): 2.6.0's
 *     node load divides by the node's CPUs; with shared runqueues A5's
 *     reviewers asked for runqueues instead, and whether C1 did so is not
 *     known.  Both are offered; CPUs is the default.
 *
 * Omitted / simplified:
 *   - The exec'ing task's own CPU's migration thread preempts it at the
 *     exec (no IPI); the kernel blocked it on the completion, so the
 *     thread ran then too, but the task here is preempted, not asleep.
 *     The exec cost is paid after the move, as in the kernel.
 *   - The migration thread moves the task with activate_task
 *     (o1_migrate_task): a sleep credit for its time since it was
 *     preempted, and in 2.6.0 the activated mark whose runqueue-wait
 *     credit the pick on the destination adds.  2.6.0's timestamp rebase
 *     is moot (one clock here).
 *   - Memory does not follow the task: its home node stays where it first
 *     touched memory (the hardware model charges remote accesses).
 */
#include "policy/o1/core.h"
#include "sim/sim.h"

#define O1_NODE_THRESHOLD 125	/* percent */
#define O1_NODE_LOAD_SCALE 10	/* 2.6.0: 10 * count / CPUs */

const sl_cpumask *o1_node_mask(const struct o1 *s, int cpu)
{
	return s->numa ? sl_topo_node(s->topo, cpu) : &s->topo->all_cpus;
}

/* A node's load as find_busiest_node and sched_best_cpu see it now. */
static int o1_node_load(const struct o1 *s, int node)
{
	int n = s->node_nr_running[node];

	if (!s->cfg.v->node_load_per_cpu)
		return n;
	return O1_NODE_LOAD_SCALE * n / s->node_weight[node];
}

int o1_find_busiest_node(struct o1 *s, struct o1_rq *rq, int this_node)
{
	int *prev = rq->prev_node_load;
	int node = -1;

	if (!s->node_weight[this_node])
		return -1;
	int this_load = prev[this_node] / 2 + o1_node_load(s, this_node);
	int max_load = this_load;
	prev[this_node] = this_load;
	for (int i = 0; i < s->nnodes; i++) {
		if (i == this_node || !s->node_weight[i])
			continue;
		int load = prev[i] / 2 + o1_node_load(s, i);
		prev[i] = load;
		if (load > max_load && 100 * load > O1_NODE_THRESHOLD * this_load) {
			max_load = load;
			node = i;
		}
	}
	return node;
}

sl_cpumask o1_node_plus_cpu(const struct o1 *s, int node, int cpu)
{
	sl_cpumask mask = s->topo->node_cpus[node];

	sl_cpumask_set(&mask, cpu);
	return mask;
}

sl_cpumask o1_cpus_to_balance(struct o1 *s, struct o1_rq *rq, int cpu)
{
	int this_node = s->topo->cpu_node[cpu];

	if (++rq->nr_balanced >= s->cfg.node_balance_rate) {
		rq->nr_balanced = 0;
		int node = o1_find_busiest_node(s, rq, this_node);
		if (node >= 0)
			return o1_node_plus_cpu(s, node, cpu);
	}
	return s->topo->node_cpus[this_node];
}

/* Out of line: inlined, its masks gave rebalance_tick, which every idle
 * CPU runs at every tick, a frame of their size. */
__attribute__((noinline)) void o1_balance_node(struct sl_sim *sim, struct o1 *s, int cpu,
					       bool idle)
{
	struct o1_rq *rq = o1_rq(s, cpu);
	int node = o1_find_busiest_node(s, rq, s->topo->cpu_node[cpu]);

	if (node < 0)
		return;
	sl_cpumask mask = o1_node_plus_cpu(s, node, cpu);
	o1_load_balance(sim, s, rq, cpu, idle, &mask, false);
}

/* ---- sched_balance_exec ---- */

/* The least loaded node, then its least loaded CPU (first minima). */
static int o1_best_cpu(const struct o1 *s)
{
	int node = 0, min_load = -1;

	for (int n = 0; n < s->nnodes; n++) {
		if (!s->node_weight[n])
			continue;
		int load = o1_node_load(s, n);
		if (min_load < 0 || load < min_load) {
			min_load = load;
			node = n;
		}
	}
	int best = -1;
	min_load = -1;
	o1_for_each_cpu(c, s, &s->topo->node_cpus[node]) {
		int load = s->rq_of[c]->nr_running;
		if (min_load < 0 || load < min_load) {
			min_load = load;
			best = c;
		}
	}
	return best;
}

void o1_core_exec(struct sl_sim *sim, struct sl_task *t)
{
	struct o1 *s = o1_state(sim);
	struct o1_task *p = o1_of(t);
	int cpu = t->cpu;

	if (!s->numa || cpu < 0 || o1_rq(s, cpu)->nr_running <= 2)
		return;		/* lightly loaded: keep it */
	int dest = o1_best_cpu(s);
	if (dest < 0 || dest == cpu || !sl_cpumask_test(&t->allowed, dest))
		return;
	struct o1_exec_req *x = &s->exec_req[cpu];
	if (x->p || p->exec_cpu >= 0)
		return;		/* the thread has a move to do already */
	x->p = p;
	x->dest = dest;
	p->exec_cpu = cpu;
	sl_migration_wake(sim, cpu, -1);
}

void o1_exec_forget(struct o1 *s, struct o1_task *p)
{
	if (p->exec_cpu < 0)
		return;
	s->exec_req[p->exec_cpu].p = NULL;
	p->exec_cpu = -1;
}

void o1_exec_move(struct sl_sim *sim, struct o1 *s, int cpu)
{
	struct o1_exec_req *x = &s->exec_req[cpu];
	struct o1_task *p = x->p;

	if (!p)
		return;
	x->p = NULL;
	p->exec_cpu = -1;
	struct sl_task *t = p->task;
	/* moved already, running elsewhere, or no longer allowed there */
	if (o1_rq(s, p->cpu) != o1_rq(s, cpu) || sl_task_running(t) ||
	    !sl_cpumask_test(&t->allowed, x->dest))
		return;
	if (!p->array) {
		p->cpu = x->dest;	/* asleep: it wakes there */
		return;
	}
	o1_migrate_task(sim, s, p, x->dest);
	o1_kick_moved(sim, s, p, x->dest, false);
}
