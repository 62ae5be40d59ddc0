/*
 * sl/sl.c - policy `sl`: schedlab's own scheduler (see sl/sl.h for the design
 * and the file list).  This file holds the knobs, creation, the ops the
 * engine calls and the consistency check.
 *
 * What it models: no historical kernel, but a scheduler a kernel developer
 * could write with what the kernel knows - the topology, its own clock,
 * where it placed each task and when each task last ran.  It never reads
 * the speed model, a task's work class, footprint or the engine's record
 * of its memory node (DESIGN.md): it estimates the memory node itself, as
 * the node a task first ran on after fork or exec (first touch).
 *
 * Choices (each a knob; rationale in docs/policies/sl.md):
 *   hz             1000 (the tick drives slices and periodic balancing).
 *   slice_ms, latency_ms, min_slice_ms, sleep_credit_ms, wake_gran_ms,
 *   wake_protect, resume_preempted:  see sl/queue.c.
 *   idle_core_first, sync_wake, wake_away, exec_spread, fork_spread:
 *                  see sl/place.c.
 *   balance_ms, numa_balance_ms, numa_persist, active, newidle,
 *   newidle_numa, pull_scan:  see sl/balance.c.
 *   rr_slice_ms    SCHED_RR's slice (100 ms, Linux's RR_TIMESLICE); the RT
 *                  rule is in sl/rt.c.
 *
 * Omitted / simplified: SCHED_BATCH, SCHED_IDLE and SCHED_DEADLINE are
 * refused (sched_policies); no RT throttling (an RT hog keeps its CPU:
 * sl's balancer moves the normal tasks away); no group scheduling; a
 * move requested through the migration thread is dropped if the task
 * blocked or moved meanwhile; a task's yield puts it just behind the
 * first queued task (an RT task: at the tail of its list).
 */
#include "policy/sl/sl.h"

#include <stdlib.h>
#include <string.h>

#include "base/spec.h"
#include "policy/policy.h"

static const struct sl_param_def sls_knobs[] = {
	{ .name = "hz", .type = SL_PARAM_INT, .def = "1000", .min = 100, .max = 10000,
	  .doc = "timer ticks per second: slice ends and periodic balancing" },
	SL_TICK_KNOB("sync", "as modern kernels' default"),
	SL_TIMERS_KNOB("hrtimer", "the host kernel's, 6.12's"),
	SL_PREEMPT_KNOB("full", "the kernel sl is built into is taken as preemptible"),
	{ .name = "slice_ms", .type = SL_PARAM_INT, .def = "100", .min = 1, .max = 10000,
	  .doc = "longest slice a task runs before a queued task with less vruntime takes over" },
	{ .name = "latency_ms", .type = SL_PARAM_INT, .def = "400", .min = 1, .max = 100000,
	  .doc = "slice = latency / runnable tasks (clamped): bounds a full round of the queue" },
	{ .name = "min_slice_ms", .type = SL_PARAM_INT, .def = "3", .min = 1, .max = 10000,
	  .doc = "shortest slice however many tasks are runnable (cache refill ~1 ms)" },
	{ .name = "sleep_credit_ms", .type = SL_PARAM_INT, .def = "10", .min = 0, .max = 10000,
	  .doc = "a woken task's vruntime is at least min_vruntime minus this" },
	{ .name = "wake_gran_ms", .type = SL_PARAM_INT, .def = "4", .min = 0, .max = 10000,
	  .doc = "a woken task preempts only if the running one is this far ahead in vruntime" },
	{ .name = "wake_protect", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "a wakeup preempts a task only once it has run min_slice_ms since it was picked "
		 "(then at the next tick; as 6.12's RUN_TO_PARITY)" },
	{ .name = "resume_preempted", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "a task a wakeup preempted mid-slice runs again once the wakee leaves the CPU, "
		 "to finish its slice in a warm cache (as CFS's LAST_BUDDY before EEVDF)" },
	{ .name = "batch_us", .type = SL_PARAM_INT, .def = "10000", .min = 0, .max = 10000000,
	  .doc = "tasks within one vruntime quantum of this size run most recently run first "
		 "(warm cache); 0: strict vruntime order" },
	{ .name = "rr_slice_ms", .type = SL_PARAM_INT, .def = "100", .min = 1, .max = 10000,
	  .doc = "SCHED_RR's slice: then behind the RR tasks of its priority (Linux's "
		 "RR_TIMESLICE)" },
	{ .name = "idle_core_first", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "wakeups take a wholly idle core before the previous CPU with a busy sibling" },
	{ .name = "sync_wake", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "sync wakeups go to the waker's CPU (if it runs only the waker) or an idle "
		 "sibling of it" },
	{ .name = "wake_away", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "a task woken away from its NUMA node, none of whose CPUs is idle, takes an idle "
		 "CPU near its previous one there rather than wait on that busy CPU (off: it waits)" },
	{ .name = "exec_spread", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "exec moves the task to the least loaded NUMA node (a fresh image has no memory)" },
	{ .name = "fork_spread", .type = SL_PARAM_CHOICE, .def = "busy", .choices = "off|busy|on",
	  .doc = "where a forked process (not a thread) goes: its parent's NUMA node (off), "
		 "another node with an idle CPU only when the parent's has none (busy), or the "
		 "least loaded node (on)" },
	{ .name = "balance_ms", .type = SL_PARAM_INT, .def = "2", .min = 1, .max = 10000,
	  .doc = "periodic balance interval at the lowest level, doubling per level up" },
	{ .name = "numa_balance_ms", .type = SL_PARAM_INT, .def = "50", .min = 1, .max = 100000,
	  .doc = "periodic balance interval at levels that cross NUMA nodes" },
	{ .name = "numa_persist", .type = SL_PARAM_INT, .def = "4", .min = 1, .max = 1000,
	  .doc = "balances in a row an imbalance between nodes must last before a task moves" },
	{ .name = "numa_settle_ms", .type = SL_PARAM_INT, .def = "100", .min = 0, .max = 1000000,
	  .doc = "a task that ran this long on its node crosses nodes only off a shared CPU" },
	{ .name = "active", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "push a running task off a core running two onto a wholly idle core" },
	{ .name = "newidle", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "a CPU about to idle pulls a queued task from its node" },
	{ .name = "newidle_numa", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "... and, finding none, from another node's CPU that holds two settled tasks "
		 "(off: across nodes only the periodic balancer moves tasks)" },
	{ .name = "pull_scan", .type = SL_PARAM_INT, .def = "32", .min = 0, .max = 1000000,
	  .doc = "queued tasks a pull looks at, next to run first (Linux's sched_nr_migrate); "
		 "0: the whole queue" },
	{ .name = "scan_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "cost of each CPU or task examined and of a pick (default: the machine's)" },
	{ .name = NULL },
};

static bool sls_on(const struct sl_params *knobs, const char *name)
{
	return sl_param_choice(knobs, name) == 0;
}

static sl_time sls_ms(const struct sl_params *knobs, const char *name)
{
	return sl_param_int(knobs, name) * SL_MSEC;
}

static void *sls_init(struct sl_sim *sim, const struct sl_params *knobs, struct sl_err *err)
{
	if (sl_param_int(knobs, "min_slice_ms") > sl_param_int(knobs, "slice_ms")) {
		sl_fail(err, "policy 'sl': min_slice_ms: must not exceed slice_ms (%ld)",
			sl_param_int(knobs, "slice_ms"));
		return NULL;
	}
	struct sls *s = sl_xcalloc(1, sizeof(*s));
	s->sim = sim;
	s->topo = sl_topo(sim);
	s->ncpus = s->topo->ncpus;
	s->hz = (unsigned)sl_param_int(knobs, "hz");
	s->slice = sls_ms(knobs, "slice_ms");
	s->latency = sls_ms(knobs, "latency_ms");
	s->min_slice = sls_ms(knobs, "min_slice_ms");
	s->sleep_credit = sls_ms(knobs, "sleep_credit_ms");
	s->wake_gran = sls_ms(knobs, "wake_gran_ms");
	s->wake_protect = sls_on(knobs, "wake_protect");
	s->resume_preempted = sls_on(knobs, "resume_preempted");
	s->newidle_numa = sls_on(knobs, "newidle_numa");
	s->batch = sl_param_int(knobs, "batch_us") * SL_USEC;
	s->rr_slice = sls_ms(knobs, "rr_slice_ms");
	s->idle_core_first = sls_on(knobs, "idle_core_first");
	s->sync_wake = sls_on(knobs, "sync_wake");
	s->wake_away = sls_on(knobs, "wake_away");
	s->exec_spread = sls_on(knobs, "exec_spread");
	s->fork_spread = sl_param_choice(knobs, "fork_spread");	/* enum sls_fork_spread */
	s->active = sls_on(knobs, "active");
	s->newidle = sls_on(knobs, "newidle");
	s->numa_persist = (int)sl_param_int(knobs, "numa_persist");
	s->numa_settle = sls_ms(knobs, "numa_settle_ms");
	s->pull_scan = (int)sl_param_int(knobs, "pull_scan");
	long bt = sl_param_int(knobs, "balance_ms") * (long)s->hz / 1000;
	long nt = sl_param_int(knobs, "numa_balance_ms") * (long)s->hz / 1000;
	s->balance_ticks = bt > 0 ? (int)bt : 1;
	s->numa_ticks = nt > 0 ? (int)nt : 1;
	bool given = sl_param_given(knobs, "scan_ns");
	s->scan_ns = given ? sl_param_int(knobs, "scan_ns") : sl_cost_scan(sim, 1);
	s->pick_ns = given ? sl_param_int(knobs, "scan_ns") : sl_cost_pick(sim);
	s->rq = sl_xcalloc((unsigned long)s->ncpus, sizeof(struct sls_rq));
	s->load = sl_xcalloc((unsigned long)s->ncpus, sizeof(*s->load));
	s->next_balance = sl_xcalloc((unsigned long)s->ncpus, sizeof(*s->next_balance));
	sl_prio_array_init(&s->rt_none);
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		s->rq[cpu].cpu = cpu;
		s->rq[cpu].mig_dest = -1;
		s->rq[cpu].rt = &s->rt_none;
	}
	sls_build_levels(s);
	sl_set_hz(sim, s->hz);
	sl_set_tick_mode(sim, (enum sl_tick_mode)sl_param_choice(knobs, "tick"));
	sl_set_timers_as(sim, SL_TIMERS_6_12, sl_param_choice(knobs, "timers"));
	sl_set_pipes(sim, SL_PIPES_6_12);	/* the host's */
	sl_set_sockets(sim, SL_SOCKETS_6_12);
	sl_set_futex_by_prio(sim, true);
	sl_set_writeback(sim, SL_WRITEBACK_6_12);
	sl_set_kernel_preempt(sim, (enum sl_kernel_preempt)sl_param_choice(knobs, "preempt"));
	return s;
}

static void sls_destroy(struct sl_sim *sim)
{
	struct sls *s = sls_state(sim);

	sls_free_levels(s);
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		free(s->rq[cpu].heap);
		if (s->rq[cpu].rt != &s->rt_none)
			free(s->rq[cpu].rt);
	}
	free(s->rq);
	free(s->load);
	free(s->next_balance);
	free(s);
}

/* ---- ops ---- */

static void sls_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child)
{
	struct sls *s = sls_state(sim);
	struct sls_ent *e = sls_ent(child);

	memset(e, 0, sizeof(*e));
	e->task = child;
	e->cpu = -1;
	e->heap_idx = -1;
	e->nice = child->nice;
	e->weight = sls_nice_weight(child->nice);
	e->run_node = -1;
	e->mem_node = -1;
	e->mig_cpu = -1;
	e->rt = sl_task_rt(child);
	int cpu = sls_select_fork(s, parent, child);
	struct sls_rq *rq = &s->rq[cpu];
	e->vruntime = rq->min_vruntime;
	if (parent) {
		const struct sls_ent *pe = sls_ent(parent);
		struct sls_rq *prq = &s->rq[pe->cpu];
		sls_update_curr(s, prq);
		/* the child starts where its parent is, relative to its queue:
		 * forking cannot buy a place at the front */
		int64_t v = pe->vruntime - prq->min_vruntime + rq->min_vruntime;
		if (v > e->vruntime)
			e->vruntime = v;
		if (child->mm == parent->mm)
			e->mem_node = pe->mem_node;	/* a thread shares its memory */
	}
	sls_enqueue(s, rq, e);
	sls_check_preempt(s, rq, e, false);
}

static void sls_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags)
{
	struct sls *s = sls_state(sim);
	struct sls_ent *e = sls_ent(t);

	if (e->nice != t->nice) {
		e->nice = t->nice;
		e->weight = sls_nice_weight(t->nice);
	}
	if (waker_cpu >= s->ncpus)
		waker_cpu = -1;
	int from = e->cpu;
	int cpu = sls_select_wake(s, t, waker_cpu, flags);
	struct sls_rq *rq = &s->rq[cpu];
	if (from >= 0 && cpu != from)
		sl_note_migration(sim, t, from, cpu);
	sls_rebase(s, e, cpu);
	sls_update_curr(s, rq);
	if (e->vruntime < rq->min_vruntime - s->sleep_credit)
		e->vruntime = rq->min_vruntime - s->sleep_credit;
	sls_enqueue(s, rq, e);
	sls_check_preempt(s, rq, e, (flags & SL_WAKE_SYNC_MODERN) && cpu == waker_cpu);
}

static struct sl_task *sls_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	struct sls *s = sls_state(sim);
	struct sls_rq *rq = &s->rq[cpu];

	if (prev) {
		if (prev->state != SL_TASK_RUNNABLE)
			sls_dequeue(s, rq, sls_ent(prev));
		else
			sls_put_prev(s, rq);
	}
	if (s->pick_ns > 0)
		sl_charge_sched(sim, cpu, s->pick_ns);
	if (s->rt_queued)
		sls_pull_rt(s, cpu);
	if (!rq->nq && !rq->rt->nr_active && s->newidle)
		sls_newidle(s, cpu);
	struct sls_ent *e = sls_pick(s, rq, prev ? sls_ent(prev) : NULL);
	/* an RT task a better one just took the CPU from: elsewhere? */
	if (prev && prev->state == SL_TASK_RUNNABLE && sls_ent(prev) != e && sls_ent(prev)->rt)
		sls_push_rt(s, sls_ent(prev));
	return e ? e->task : NULL;
}

static void sls_tick(struct sl_sim *sim, int cpu)
{
	struct sls *s = sls_state(sim);

	/* an idle CPU's tick reads only compact arrays (nothing runs
	 * without a load) */
	if (sls_load_of(s, cpu) && s->rq[cpu].curr)
		sls_tick_curr(s, &s->rq[cpu]);
	sls_balance_tick(s, cpu);
}

/* Exec: the cheapest moment to move (nothing in the cache or memory yet). */
static void sls_exec(struct sl_sim *sim, struct sl_task *t)
{
	struct sls *s = sls_state(sim);
	struct sls_ent *e = sls_ent(t);

	if (t->cpu < 0)
		return;
	int dest = sls_select_exec(s, t);
	if (dest >= 0 && dest != t->cpu && !s->rq[t->cpu].mig_ent) {
		e->mem_node = -1;	/* set where it first runs after the move */
		sls_request_move(s, e, dest);
	} else {
		e->mem_node = s->topo->cpu_node[t->cpu];
	}
	e->run_node = s->topo->cpu_node[t->cpu];
	e->node_ns = 0;
	sls_note_settled(s, e);	/* a new image starts afresh */
}

static bool sls_yield(struct sl_sim *sim, struct sl_task *t)
{
	struct sls *s = sls_state(sim);
	struct sls_ent *e = sls_ent(t);
	struct sls_rq *rq = &s->rq[e->cpu];

	if (e->rt) {
		e->rt_tail = true;	/* behind the others of its priority */
		return true;
	}
	sls_update_curr(s, rq);
	if (rq->nq && e->vruntime <= rq->heap[0]->vruntime)
		e->vruntime = rq->heap[0]->vruntime + 1;
	return true;
}

/* Forget a pending move of e (it died). */
static void sls_exit(struct sl_sim *sim, struct sl_task *t)
{
	struct sls_ent *e = sls_ent(t);

	if (e->mig_cpu >= 0)
		sls_cancel_move(sls_state(sim), e->mig_cpu);
}

/* The migration thread preempted whatever ran on cpu: queue it again,
 * then carry out the requested move if it still makes sense. */
static void sls_migration(struct sl_sim *sim, int cpu, long arg)
{
	struct sls *s = sls_state(sim);
	struct sls_rq *rq = &s->rq[cpu];
	struct sls_ent *e = rq->mig_ent;
	int dest = rq->mig_dest;

	(void)arg;
	sls_put_prev(s, rq);
	if (!e)
		return;
	sls_cancel_move(s, cpu);
	if (e->on_rq && e->cpu == cpu && sls_queued(e) &&
	    sl_cpumask_test(&e->task->allowed, dest)) {
		sls_move_queued(s, e, dest);
		sls_check_preempt(s, &s->rq[dest], e, false);
	}
}

/* ---- consistency (tests, --check) ---- */

static int sls_check_rq(struct sl_sim *sim, struct sls *s, struct sls_rq *rq, struct sl_err *err)
{
	int cpu = rq->cpu;
	struct sl_task *running = sl_curr(sim, cpu);

	if ((rq->curr ? rq->curr->task : NULL) != running)
		return sl_fail_internal(err, "sl: CPU %d runs task %d, its runqueue's curr is %d",
					cpu, running ? running->id : -1,
					rq->curr ? rq->curr->task->id : -1);
	if (rq->nq + rq->rt->nr_active + (rq->curr != NULL) != rq->nr_running || rq->incoming < 0)
		return sl_fail_internal(err, "sl: CPU %d: %d + %d RT queued + %d running, "
					"nr_running %d, incoming %d", cpu, rq->nq,
					rq->rt->nr_active, rq->curr != NULL, rq->nr_running,
					rq->incoming);
	if (rq->curr && rq->curr->rt_queued)
		return sl_fail_internal(err, "sl: CPU %d runs task %d, which is queued", cpu,
					rq->curr->task->id);
	for (int i = 0; i < rq->nq; i++) {
		const struct sls_ent *e = rq->heap[i];
		if (e->heap_idx != i || !e->on_rq || e->cpu != cpu ||
		    e->task->state != SL_TASK_RUNNABLE || e->task->cpu >= 0)
			return sl_fail_internal(err, "sl: task %d queued on CPU %d at %d (its cpu %d, "
						"index %d, on_rq %d)", e->task->id, cpu, i, e->cpu,
						e->heap_idx, e->on_rq);
		if (i && sls_before(e, rq->heap[(i - 1) / 2]))
			return sl_fail_internal(err, "sl: CPU %d: heap order broken at %d", cpu, i);
	}
	if (rq->mig_ent && (rq->mig_dest < 0 || rq->mig_dest >= s->ncpus))
		return sl_fail_internal(err, "sl: CPU %d: move to CPU %d", cpu, rq->mig_dest);
	return 0;
}

static int sls_check(struct sl_sim *sim, struct sl_err *err)
{
	struct sls *s = sls_state(sim);
	int incoming[SL_MAX_CPUS] = { 0 }, settled[SL_MAX_CPUS] = { 0 }, rt_queued = 0;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		if (sls_check_rq(sim, s, &s->rq[cpu], err))
			return -1;
		rt_queued += s->rq[cpu].rt->nr_active;
		if (s->rq[cpu].mig_ent) {
			incoming[s->rq[cpu].mig_dest]++;
			if (s->rq[cpu].mig_ent->mig_cpu != cpu)
				return sl_fail_internal(err, "sl: CPU %d is to move task %d, which "
							"says CPU %d", cpu,
							s->rq[cpu].mig_ent->task->id,
							s->rq[cpu].mig_ent->mig_cpu);
		}
	}
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (incoming[cpu] != s->rq[cpu].incoming)
			return sl_fail_internal(err, "sl: CPU %d: %d moves to it pending, counted %d",
						cpu, incoming[cpu], s->rq[cpu].incoming);
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t)) {
		const struct sls_ent *e = sls_ent(t);
		bool runnable = t->state == SL_TASK_RUNNABLE;
		if (e->on_rq != runnable)
			return sl_fail_internal(err, "sl: task %d is %s but %s queued", t->id,
						runnable ? "runnable" : "not runnable",
						e->on_rq ? "is" : "is not");
		if (e->in_settled != (e->on_rq && sls_settled(s, e)))
			return sl_fail_internal(err, "sl: task %d %s counted as settled on CPU %d "
						"(runnable %d, %lld ns on node %d)", t->id,
						e->in_settled ? "is" : "is not", e->cpu, e->on_rq,
						(long long)e->node_ns, e->run_node);
		if (e->in_settled)
			settled[e->cpu]++;
		if (t->cpu >= 0 && (t->cpu != e->cpu || s->rq[t->cpu].curr != e))
			return sl_fail_internal(err, "sl: task %d runs on CPU %d but belongs to %d",
						t->id, t->cpu, e->cpu);
		/* outside its mask only until the migration thread moves it */
		if (runnable && !sl_cpumask_test(&t->allowed, e->cpu) && s->rq[e->cpu].mig_ent != e)
			return sl_fail_internal(err, "sl: task %d queued on CPU %d, not allowed",
						t->id, e->cpu);
		if (e->rt_queued && (!e->rt || !e->on_rq || t->cpu >= 0 || e->heap_idx >= 0 ||
				     e->rt_node.prio != sls_rt_prio(e)))
			return sl_fail_internal(err, "sl: task %d in the RT queue of CPU %d (rt %d, "
						"on_rq %d, running on %d, prio %d of %d)", t->id,
						e->cpu, e->rt, e->on_rq, t->cpu, e->rt_node.prio,
						sls_rt_prio(e));
		if (e->rt != sl_task_rt(t) && t->state != SL_TASK_DEAD)
			return sl_fail_internal(err, "sl: task %d's class %d, queued as %s", t->id,
						t->sched_policy, e->rt ? "RT" : "normal");
	}
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (settled[cpu] != s->rq[cpu].nr_settled)
			return sl_fail_internal(err, "sl: CPU %d: %d settled tasks, counted %d", cpu,
						settled[cpu], s->rq[cpu].nr_settled);
	if (s->rt_none.nr_active)
		return sl_fail_internal(err, "sl: %d RT tasks in the shared empty array",
					s->rt_none.nr_active);
	if (rt_queued != s->rt_queued)
		return sl_fail_internal(err, "sl: %d RT tasks queued, counted %d", rt_queued,
					s->rt_queued);
	return sls_check_sums(s, err);
}

const struct sl_policy_ops sl_policy_sl = {
	.name = "sl",
	.summary = "schedlab's own: vruntime queues with long slices, idle-core-first placement, "
		   "topology balancing, cautious NUMA",
	.knobs = sls_knobs,
	.task_size = sizeof(struct sls_ent),
	.sched_policies = (1u << SL_SCHED_FIFO) | (1u << SL_SCHED_RR),
	.init = sls_init,
	.destroy = sls_destroy,
	.fork = sls_fork,
	.wakeup = sls_wakeup,
	.pick_next = sls_pick_next,
	.tick = sls_tick,
	.exec = sls_exec,
	.yield = sls_yield,
	.exit = sls_exit,
	.migration = sls_migration,
	.setscheduler = sls_setscheduler,
	.set_allowed = sls_set_allowed,
	.check = sls_check,
};
