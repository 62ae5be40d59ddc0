/*
 * first_touch.c - where a task's memory lands when its work touches it
 * for the first time.
 *
 * Linux puts an anonymous page on the node of the CPU whose fault brings
 * it in (2.6.11 mm/memory.c do_anonymous_page -> mm/mempolicy.c
 * alloc_page_vma, whose default policy takes numa_node_id()), and 2.5 and
 * 2.6 never move it afterwards.  A task that initialises its memory page
 * after page while the scheduler moves it (numa_test's 20 MB, touched
 * while a NUMA-blind balancer spreads the tasks that were forked on one
 * CPU) so has its pages on every node it ran on, in proportion to the work
 * it did there.
 *
 * A workload marks the work that touches (sl_act_first_touch: the page
 * faults and the initialisation).  While it runs, sched.c adds the work
 * done to the node it runs on (sl__touch_progress); once the task applies
 * any other action its memory is placed: all on one node (its home), or
 * split over the nodes in proportion (an sl_mem_split, whose draws on each
 * node's bandwidth and whose stalls per node bandwidth.c and sched.c
 * count).  Until then it draws on the memory it had: the node where its
 * exec was paid (a first touch of the image's own pages, sched.c).
 *
 * Simplified: the pages are placed in one step at the end, not as they are
 * touched (the touching itself runs against its earlier home; it is
 * under 1 % of numa_test's work).
 */
#include "sim/internal.h"

/* The memory t touched: one node, or a split (allocated from the
 * simulation's arena: once per touching task). */
static void place(struct sl_sim *sim, struct sl_task *t)
{
	const int nnodes = sim->topo->nnodes;
	double total = 0;
	int n = 0, most = -1;

	for (int i = 0; i < nnodes; i++) {
		if (t->touch_work[i] <= 0)
			continue;
		total += t->touch_work[i];
		n++;
		if (most < 0 || t->touch_work[i] > t->touch_work[most])
			most = i;
	}
	if (n == 0)
		return;		/* touched nothing: its memory stays */
	t->home_node = most;
	t->mem_split = NULL;
	if (n == 1)
		return;
	struct sl_mem_split *s = sl_sim_alloc(sim, sizeof(*s) + (size_t)n * sizeof(s->part[0]));
	s->n = 0;
	for (int i = 0; i < nnodes; i++)
		if (t->touch_work[i] > 0)
			s->part[s->n++] = (struct sl_mem_share){ i, t->touch_work[i] / total };
	t->mem_split = s;
}

void sl__touch_action(struct sl_sim *sim, struct sl_task *t, bool touch)
{
	if (touch) {
		if (!t->touch_work)
			t->touch_work = sl_sim_alloc(sim, (size_t)sim->topo->nnodes *
							  sizeof(double));
		t->touching = true;
		return;
	}
	t->touching = false;
	/* t runs (its action is being applied) and draws on its old memory:
	 * it stops, its memory moves, and it draws on the new */
	if (t->mem_node != -1)
		sl__mem_demand(sim, t, -1);
	place(sim, t);
	t->touch_work = NULL;
	sl__mem_demand(sim, t, +1);
}
