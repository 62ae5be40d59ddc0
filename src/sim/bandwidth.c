/*
 * bandwidth.c - a node's memory bandwidth, shared by the running tasks
 * that draw on it, and the re-timing of those tasks when its contention
 * changes (docs/model.md "NUMA locality", docs/engine.md "Bandwidth
 * contention").
 *
 * A running task draws on one node's memory: its home (where its image
 * first touched memory), or the kernel's in a kernel phase on a machine
 * whose kernel memory lives on one node (numaq-16: node 0's lowmem); a task
 * whose first touch spread its memory over nodes (first_touch.c) draws on
 * each in proportion to its pages there (SL_MEM_SPLIT).  Its
 * draw is its class's memory intensity (the kernel's for kernel work).  A
 * node whose summed draw exceeds its bandwidth (node_bw, in fully
 * memory-bound tasks) is oversubscribed by sum / node_bw, and every stall
 * on its memory stretches by that (hw/speed.c sl_speed_numa): so whenever
 * a node's contention changes, every running task that draws on it is
 * settled at its old speed and re-timed at the new one.
 *
 * The engine keeps, per node, the sum (in integers: exact whatever the
 * order of the changes) and a mask of the CPUs whose task draws on it, so
 * that a change visits those CPUs, not the machine; it re-times a node
 * once per event however often its contention changes (sl__flush_bursts
 * calls sl__bandwidth_flush), and not at all when the contention is back
 * at the event's end where it started.  Machines without a bandwidth limit
 * skip all of it.
 */
#include <stdlib.h>

#include "sim/internal.h"

void sl__bandwidth_init(struct sl_sim *sim)
{
	int nnodes = sim->topo->nnodes;

	sim->node_cont = sl_xcalloc((unsigned long)nnodes, sizeof(double));
	for (int n = 0; n < nnodes; n++)
		sim->node_cont[n] = sl_numa_contention(sim->model, 0.0);
	sim->draw_mask = sl_xcalloc((unsigned long)nnodes + 2, sizeof(sl_cpumask));
	sim->retime_nodes = sl_xcalloc((unsigned long)nnodes, sizeof(int));
	sim->retime_pending = sl_xcalloc((unsigned long)nnodes, 1);
	sim->retime_seq = sl_xcalloc((unsigned long)nnodes, sizeof(uint64_t));
	sim->retime_from = sl_xcalloc((unsigned long)nnodes, sizeof(double));
	sim->mask_words = (sim->ncpus + 63) / 64;
	for (int i = 0; i < sim->ncpus; i++)
		sim->cpus[i].draw_slot = -1;
}

void sl__bandwidth_free(struct sl_sim *sim)
{
	free(sim->node_cont);
	free(sim->draw_mask);
	free(sim->retime_nodes);
	free(sim->retime_pending);
	free(sim->retime_seq);
	free(sim->retime_from);
}

/* The draw mask running task t's CPU belongs in: t's memory node, the
 * nodes' mask while it draws on nothing, or the last while its memory is
 * split over nodes; -1 when t is not running. */
static int draw_slot_of(const struct sl_sim *sim, const struct sl_task *t)
{
	if (t->cpu < 0 || sim->cpus[t->cpu].curr != t)
		return -1;
	return t->mem_node >= 0 ? t->mem_node
	       : t->mem_node == SL_MEM_SPLIT ? sim->topo->nnodes + 1 : sim->topo->nnodes;
}

/* t's CPU, its running task or mem_node changed: move the CPU to its
 * mask.  Only where the bandwidth is limited (the callers test it), and
 * inlined into them.  Every change of a running task's draw passes here
 * (sl__mem_demand_limited, sl__kernel_phase_changes): a task switched in
 * is moved from no mask to its node's by its demand's +1, before anything
 * walks the masks (sched.c switch_in; until Dec 2026 a call of its own
 * first put it in the mask of those drawing on nothing: 0.9 % of a
 * numaq-16 kernbench's and SDET's instructions). */
static inline __attribute__((always_inline)) void draw_update(struct sl_sim *sim,
							      const struct sl_task *t)
{
	if (t->cpu < 0)
		return;
	struct sl_cpu *c = &sim->cpus[t->cpu];
	int slot = draw_slot_of(sim, t);
	if (slot == c->draw_slot)
		return;
	if (c->draw_slot >= 0)
		sl_cpumask_unset(&sim->draw_mask[c->draw_slot], c->id);
	if (slot >= 0)
		sl_cpumask_set(&sim->draw_mask[slot], c->id);
	c->draw_slot = slot;
	sim->draw_gen++;
}

/* The CPUs that may run a task drawing on `node`, in word w: in the
 * node's mask, in the mask of those drawing on nothing (whose task may
 * draw on the node by sl__mem_node while its demand is being moved), or in
 * that of split memory (which may have pages there). */
static inline uint64_t drawing_word(const struct sl_sim *sim, int node, int w)
{
	int nnodes = sim->topo->nnodes;
	return sim->draw_mask[node].w[w] | sim->draw_mask[nnodes].w[w] |
	       sim->draw_mask[nnodes + 1].w[w];
}

/* Add (sign +1) or take (-1) memory intensity `mi` to or from the demand
 * on `node`; whether that changed the node's bandwidth contention. */
static inline __attribute__((always_inline)) bool add_demand(struct sl_sim *sim, int node,
								   int sign, double mi)
{
	if (node < 0 || mi == 0)
		return false;
	double before = sim->node_cont[node];
	if (!sim->retime_pending[node])
		sim->retime_from[node] = before;
	sim->mem_demand[node] += sign * sl__demand_units(mi);
	sim->node_cont[node] = sl_numa_contention(sim->model, sl__demand_intensity(sim->mem_demand[node]));
	return sim->node_cont[node] != before;
}

/* Whether running task t, drawing on `mem_node` (sl__mem_node's), has
 * memory on `node`. */
static inline bool draws_there(const struct sl_task *t, int mem_node, int node)
{
	return mem_node == node || (mem_node == SL_MEM_SPLIT && sl__split_has(t->mem_split, node));
}

/* Test builds: every CPU whose task draws on `node` is in the masks
 * restart_node walks, and was settled before it is re-timed. */
static void check_drawing(struct sl_sim *sim, int node)
{
	double mi;

	for (int i = 0; i < sim->ncpus; i++) {
		const struct sl_task *t = sim->cpus[i].curr;
		if (!t || !draws_there(t, sl__mem_node(sim, t, &mi), node))
			continue;
		if (!((drawing_word(sim, node, i >> 6) >> (i & 63)) & 1) ||
		    (t->mem_node >= 0 && t->mem_node != node)) {
			sl_fail_internal(sim->run_err, "CPU %d's task %d draws on node %d but is "
					 "listed on %d", i, t->id, node, sim->cpus[i].draw_slot);
			sim->stopped = true;
		} else if (sim->cpus[i].seg_start != sim->now) {
			sl_fail_internal(sim->run_err, "CPU %d's task %d draws on node %d but was "
					 "not settled before its re-timing", i, t->id, node);
			sim->stopped = true;
		}
	}
	/* the other way round: the node's own mask holds only CPUs whose
	 * task draws on it (the walks take it for granted: draws_on_bit) */
	for (int i = 0; i < sim->ncpus; i++) {
		const struct sl_task *t = sim->cpus[i].curr;
		if (!sl_cpumask_test(&sim->draw_mask[node], i) ||
		    (t && draws_there(t, sl__mem_node(sim, t, &mi), node)))
			continue;
		sl_fail_internal(sim->run_err, "CPU %d is in node %d's draw mask but its task "
				 "does not draw on it", i, node);
		sim->stopped = true;
	}
}

/* Whether c's running task draws on `node` (the masks hold more:
 * drawing_word). */
static inline bool draws_on(int kernel_node, const struct sl_cpu *c, int node)
{
	const struct sl_task *t = c->curr;
	if (!t)
		return false;
	if (__builtin_expect(t->mem_split != NULL, 0) && !t->kmem)
		return sl__split_has(t->mem_split, node);
	return sl__draw_node(kernel_node, t) == node;
}

/*
 * The same for the CPU of `bit` (its bit alone) in word `own` of node's
 * own mask, as the walks below see it: a CPU in the node's own mask draws
 * on the node, without a look at its task.  Its task's mem_node is the
 * node (draw_slot_of), set with sl__mem_node's sl__draw_node when it started
 * drawing, and whatever changes its kernel phase, home or split memory, or
 * the CPU's running task, moves the CPU between the masks (draw_update)
 * before a walk can see it (test builds check: check_drawing).  Most of
 * the walks' CPUs are in the own mask (numaq-16's kernel phases all draw
 * on node 0), and the three loads of their tasks' fields are saved.
 * restart_node reads the word again at each CPU: a re-timing may move a
 * CPU between the masks.
 */
static inline bool draws_on_bit(int kernel_node, const struct sl_cpu *c, int node, uint64_t own,
				uint64_t bit)
{
	return (own & bit) || draws_on(kernel_node, c, node);
}

/*
 * Settle every running task that draws on `node`, in CPU order: the walk
 * at the node's first change in an event (retime_later).  On numaq-16
 * every kernel phase draws on node 0, so a walk settles about 12 CPUs, and
 * those settles are 86 % of all of chat's.  flatten: sl__settle_work is
 * inlined into the walk (its call, argument moves and the walk's spills
 * around it were a tenth of each settle); out of line, so that the later
 * changes of the event, which only reserve places, need no frame for it.
 */
static __attribute__((noinline, flatten)) void settle_drawing(struct sl_sim *sim, int node)
{
	const int kernel_node = sim->model->kernel_node;

	for (int w = 0; w < sim->mask_words; w++) {
		const uint64_t own = sim->draw_mask[node].w[w];
		for (uint64_t bits = drawing_word(sim, node, w); bits; bits &= bits - 1) {
			struct sl_cpu *c = &sim->cpus[w * 64 + __builtin_ctzll(bits)];
			if (draws_on_bit(kernel_node, c, node, own, bits & -bits))
				sl__settle(sim, c);
		}
	}
}

/*
 * A change of node's bandwidth contention: every running task that draws
 * on the node progressed at its old speed up to now, and its completion
 * must be re-timed at the new one.
 *
 * The settling is done here, in CPU order, at the node's first change since
 * the last event (whatever reads the CPUs' progress or their caches'
 * evictions later in the event sees it done; the CPUs that join the node
 * afterwards are settled at now already, which test builds check).  The
 * re-timing waits for sl__flush_bursts (restart_node), once however often
 * the node changes in the event: a context switch, an exec or a change of work class moves
 * demand off a node and back, and numaq-16's kernel phases change node 0's
 * contention two or three times per event, each of which used to re-time
 * every drawing CPU where only the last re-timing counts.  The places the
 * re-timed events take among equal times are reserved now, one per CPU, so
 * that the event order is the same as re-timing at each change - but for
 * a task whose kernel phase ends at this very instant, found when it is
 * re-timed: its change of phase, and the re-timings that causes, come at
 * the flush, and may order equal times otherwise (each order is as good:
 * the ties are of simultaneous ends).
 */
static __attribute__((noinline)) void first_change(struct sl_sim *sim, int node)
{
	settle_drawing(sim, node);
	int nnodes = sim->topo->nnodes;
	sim->retime_nodes[(sim->retime_head + sim->nretime) % nnodes] = node;
	sim->nretime++;
	sim->retime_pending[node] = 1;
}

/* Inlined into change_draw: 43 % of the calls (numaq-16 kernbench) are a
 * node's later changes in an event, which only reserve places; the first
 * change's walk is out of line (first_change). */
static inline __attribute__((always_inline)) void retime_later(struct sl_sim *sim, int node)
{
	if (!sim->retime_pending[node])
		first_change(sim, node);
	sim->retime_seq[node] = sl_eventq_take_seqs(&sim->q, (uint64_t)sim->ncpus);
}

/*
 * Re-time every running task that draws on `node` (settled: retime_later),
 * in CPU order, each tested when it is reached, as a scan of every
 * CPU would; CPU i's event takes the place reserved for it at the node's
 * last change.  A CPU whose burst was started after that change keeps its
 * own place (it is timed at the new contention already).  The masks' words
 * are read again whenever a re-timing moved some task's demand
 * (draw_gen), so a CPU that joined the node meanwhile is still visited.
 */
static void restart_node(struct sl_sim *sim, int node)
{
	/* read once: the stores of the walk would make the compiler read
	 * them again at every CPU */
	const int kernel_node = sim->model->kernel_node;
	const uint64_t base = sim->retime_seq[node], after = base + (uint64_t)sim->ncpus;

	if (sim->check)
		check_drawing(sim, node);
	unsigned long gen = sim->draw_gen;
	for (int w = 0; w < sim->mask_words; w++) {
		uint64_t bits = drawing_word(sim, node, w), own = sim->draw_mask[node].w[w];
		while (bits) {
			int b = __builtin_ctzll(bits);
			struct sl_cpu *c = &sim->cpus[w * 64 + b];
			bits &= bits - 1;
			if (!draws_on_bit(kernel_node, c, node, own, 1ULL << b) ||
			    (c->burst_deferred == 1 && c->burst_seq >= after))
				continue;
			sl__start_burst_at(sim, c, kernel_node, base + (uint64_t)c->id);
			if (sim->draw_gen != gen) {
				gen = sim->draw_gen;
				bits = drawing_word(sim, node, w) & ~((2ULL << b) - 1);
				own = sim->draw_mask[node].w[w];
			}
		}
	}
}

/* Add (+1) or take (-1) t's draw of intensity mi on mem_node (a node,
 * SL_MEM_SPLIT: on each node of its split in proportion, or -1: none),
 * and have the nodes whose contention that changed re-timed.  Only where
 * the bandwidth is limited (the callers test it). */
static __attribute__((noinline)) void change_split_draw(struct sl_sim *sim,
							 const struct sl_task *t, int sign, double mi)
{
	const struct sl_mem_split *s = t->mem_split;
	for (int k = 0; k < s->n; k++)
		if (add_demand(sim, s->part[k].node, sign, mi * s->part[k].share))
			retime_later(sim, s->part[k].node);
}

/* Inlined into its callers (a kernel phase change makes two, a switch
 * two): the one-node draw is all but a few of them, and the frame of an
 * out-of-line change_draw, add_demand and retime_later were a third of
 * their own instructions; split memory is out of line (change_split_draw). */
static inline __attribute__((always_inline)) void change_draw(struct sl_sim *sim,
							      const struct sl_task *t, int mem_node,
							      int sign, double mi)
{
	if (mem_node != SL_MEM_SPLIT) {
		if (add_demand(sim, mem_node, sign, mi))
			retime_later(sim, mem_node);
		return;
	}
	change_split_draw(sim, t, sign, mi);
}

/* sl__mem_demand's change where the bandwidth is limited: t's CPU moves
 * between the draw masks, and the demand of intensity mi on mem_node
 * changes (if that changes a node's bandwidth contention, every running
 * task drawing on it is settled at its old speed and re-timed:
 * retime_later). */
void sl__mem_demand_limited(struct sl_sim *sim, const struct sl_task *t, int sign, int mem_node,
			    double mi)
{
	draw_update(sim, t);
	change_draw(sim, t, mem_node, sign, mi);
}

/* sl__mem_demand_stop's paused -1 where the bandwidth is limited: the demand
 * changes, the CPU stays in its mask. */
void sl__mem_undraw_limited(struct sl_sim *sim, const struct sl_task *t, int mem_node,
			    double mi)
{
	change_draw(sim, t, mem_node, -1, mi);
}

/*
 * Running task t enters (kernel) or leaves a kernel phase: its demand
 * moves between its own node and the kernel's in one step.  A task that
 * draws nothing at the moment because its caller is moving its demand
 * only changes phase; one exec'd and not yet touching its memory draws
 * only in a kernel phase, so its phase change starts or ends that draw.
 * t itself is re-timed by its caller, after the places the nodes'
 * re-timings reserve, so that those leave it alone (restart_node).
 */
void sl__kernel_phase_changes(struct sl_sim *sim, struct sl_task *t, bool kernel)
{
	double mi_from = t->mem_mi, mi_to;
	int from = t->mem_node;

	t->kmem = kernel;
	if (from == -1 && t->home_node >= 0)
		return;
	int to = t->mem_node = sl__mem_node(sim, t, &mi_to);
	t->mem_mi = mi_to;
	if (!sl__bandwidth_limited(sim))
		return;
	draw_update(sim, t);
	change_draw(sim, t, from, -1, mi_from);
	change_draw(sim, t, to, +1, mi_to);
}

/* Re-time the nodes whose contention changed in this event, in the order
 * of their first change (a re-timing may change a task's phase,
 * which lists a node again).  A node whose contention is back at what it
 * was before its first change (an exec takes its task's demand off the
 * kernel's node and puts it back; a switch between two tasks of one draw)
 * is left alone: its tasks' speeds never changed, and the events they
 * have stand (settled meanwhile, each still ends when it would have, to
 * the ns a re-timing would round to); 14-42 % of numaq-16's re-timings
 * under kernbench and SDET were such. */
void sl__bandwidth_flush(struct sl_sim *sim)
{
	while (sim->nretime > 0) {
		int node = sim->retime_nodes[sim->retime_head];
		sim->retime_head = (sim->retime_head + 1) % sim->topo->nnodes;
		sim->nretime--;
		sim->retime_pending[node] = 0;
		if (sim->node_cont[node] == sim->retime_from[node])
			continue;
		sim->node_retimes++;
		restart_node(sim, node);
	}
}
