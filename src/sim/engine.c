/*
 * engine.c - the event loop: creation of a run, the global tick, IPIs, the
 * migration thread, and the services policies call (sim.h).
 *
 * Ticks: each CPU's timer tick comes once per jiffy, at a phase the policy
 * chooses (sl_set_tick_mode, as it sets its HZ; sim.h says which kernel did
 * what).  STAGGERED (2.4's local APIC timers, one slice of the jiffy per
 * CPU) and BITREV (ia64's bit-reversed fractions of it) are one event that
 * walks through the CPUs in phase order, moving itself on to the next
 * CPU's phase; SYNC and ORDERED are one event at the
 * jiffy's start that ticks every CPU, in a random order drawn for that tick
 * (which CPU's handler takes a contended runqueue lock first is a race) or
 * in CPU index order.  Jiffies are derived from the clock, and every phase
 * lies inside its jiffy, so a CPU ticking late in the jiffy sees the jiffy
 * IRQ0 incremented at its start.  When no task is runnable the tick stops
 * (the first task to become runnable first lets the policy catch up what
 * the skipped ticks would have done, such as 2.6.12's cpu_load decay:
 * sl__ticks_resume) and restarts at the
 * first tick, of any CPU, after the moment a task becomes runnable: the
 * hardware timers ran on while the engine skipped them, so the phases and
 * jiffies stay exact across the gap.  Under a policy that stops the tick of
 * an idle CPU (sl_set_nohz: NO_HZ_IDLE) only the CPUs whose tick runs are
 * visited: a jiffy costs what its busy CPUs cost, not the machine.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"

static void tick_phases_update(struct sl_sim *sim);

/* Label of the tick race's PRNG stream (tasks' streams use 1). */
#define TICK_STREAM 0x7469636bULL	/* "tick" */

struct sl_sim *sl_sim_create(const struct sl_sim_config *cfg, struct sl_err *err)
{
	const struct sl_machine *m = cfg->machine;
	if (m->topo.ncpus <= 0 || m->topo.ncpus > SL_MAX_CPUS) {
		sl_fail(err, "machine '%s' has %d CPUs", m->name, m->topo.ncpus);
		return NULL;
	}
	struct sl_sim *sim = sl_xcalloc(1, sizeof(*sim));
	sim->machine = m;
	sim->topo = &m->topo;
	sim->model = &m->speed;
	sim->ops = cfg->policy;
	sim->seed = cfg->seed;
	sim->check = cfg->check;
	sim->obs = cfg->observer;
	sim->time_limit = cfg->time_limit;
	sim->step_limit = cfg->step_limit;
	sim->ctx_cpu = -1;
	sim->next_mm = 1;
	sim->hz = 1000;
	sim->tick_ns = SL_SEC / 1000;
	sim->timers.kind = SL_TIMERS_EXACT;	/* until the policy says (sl_set_timers) */
	sim->pipes.pages = 1;			/* until the policy says (sl_set_pipes) */
	sim->pipes.page_bytes = SL_PAGE_BYTES;
	sim->sockets = SL_SOCKETS_2_4;		/* until the policy says (sl_set_sockets) */
	sim->writeback = SL_WRITEBACK_2_6;	/* until the policy says (sl_set_writeback) */
	sim->task_stride = ((sizeof(struct sl_task) + 15) & ~(size_t)15) +
			   ((cfg->policy->task_size + 15) & ~(size_t)15);
	/* Tasks a multiple of 512 bytes apart put every task's hot fields
	 * on the same few L1 sets (2.6x the misses when cfs's came to
	 * 1,024): a line of padding breaks the stride. */
	if (sim->task_stride % 512 == 0)
		sim->task_stride += 64;
	sl_eventq_init(&sim->q);
	sl_event_init(&sim->tick_ev, EV_TICK, -1, NULL);
	sim->last_tick_at = -1;
	sim->tick_mode = SL_TICK_ORDERED;
	sl_rng_derive(&sim->tick_rng, sim->seed, TICK_STREAM, 0);

	sim->ncpus = m->topo.ncpus;
	sim->cpus = sl_xcalloc((unsigned long)sim->ncpus, sizeof(*sim->cpus));
	sim->tick_order = sl_xcalloc((unsigned long)sim->ncpus, sizeof(*sim->tick_order));
	sim->tick_phase = sl_xcalloc((unsigned long)sim->ncpus, sizeof(*sim->tick_phase));
	sim->tick_walk = sl_xcalloc((unsigned long)sim->ncpus, sizeof(*sim->tick_walk));
	sim->tick_rank = sl_xcalloc((unsigned long)sim->ncpus, sizeof(*sim->tick_rank));
	tick_phases_update(sim);
	sim->deferred = sl_xcalloc((unsigned long)sim->ncpus, sizeof(*sim->deferred));
	sim->core_first = sl_xcalloc((unsigned long)m->topo.ncores + 1, sizeof(int));
	sim->core_cpus = sl_xcalloc((unsigned long)sim->ncpus, sizeof(int));
	for (int i = 0; i < sim->ncpus; i++)	/* counting sort by core: linear */
		sim->core_first[m->topo.cpu_core[i] + 1]++;
	for (int k = 0; k < m->topo.ncores; k++)
		sim->core_first[k + 1] += sim->core_first[k];
	/* tick_order, still all zero, counts each core's CPUs placed */
	for (int i = 0, *placed = sim->tick_order; i < sim->ncpus; i++) {
		int k = m->topo.cpu_core[i];
		sim->core_cpus[sim->core_first[k] + placed[k]++] = i;
	}
	for (int i = 0; i < sim->ncpus; i++)
		sim->tick_order[i] = i;
	sim->mem_demand = sl_xcalloc((unsigned long)m->topo.nnodes, sizeof(int64_t));
	sim->core_evicted_kb = sl_xcalloc((unsigned long)m->topo.ncores, sizeof(double));
	sim->llc_evicted_kb = sl_xcalloc((unsigned long)m->topo.nllcs, sizeof(double));
	for (int i = 0; i < sim->ncpus; i++) {
		struct sl_cpu *c = &sim->cpus[i];
		c->id = i;
		c->core = m->topo.cpu_core[i];
		c->node = m->topo.cpu_node[i];
		const int *core = &sim->core_cpus[sim->core_first[c->core]];
		int threads = sim->core_first[c->core + 1] - sim->core_first[c->core];
		c->alone = threads == 1;
		c->sibling = threads != 2 ? -1 : core[0] == i ? core[1] : core[0];
		sl_event_init(&c->burst_ev, EV_BURST_DONE, i, NULL);
		sl_event_init(&c->ipi_ev, EV_IPI, i, NULL);
		sl_event_init(&c->migr_ev, EV_MIGRATION, i, NULL);
		for (int k = 0; k < SL_HRTIMERS; k++)
			sl_event_init(&c->hrtimer_ev[k], EV_HRTIMER, i, NULL);
	}
	sl__sched_init(sim);
	sim->root_allowed = m->topo.all_cpus;
	sim->idle_cpus = m->topo.all_cpus;
	sl__conserve_init(sim);

	const struct sl_params *knobs = cfg->knobs;
	if (!knobs || !knobs->defs) {
		/* No knobs given: the policy's defaults, bound as if from "name". */
		struct sl_spec none = { .nkv = 0 };
		snprintf(none.name, sizeof(none.name), "%s", cfg->policy->name);
		if (sl_spec_bind(&sim->default_knobs, &none, cfg->policy->knobs, NULL,
				 cfg->policy->name, err)) {
			sl_sim_destroy(sim);
			return NULL;
		}
		knobs = &sim->default_knobs;
	}
	sim->run_err = err;
	sim->policy_data = cfg->policy->init(sim, knobs, err);
	if (!sim->policy_data) {
		sl_sim_destroy(sim);
		return NULL;
	}
	return sim;
}

void sl_sim_destroy(struct sl_sim *sim)
{
	if (!sim)
		return;
	if (sim->policy_data && sim->ops->destroy)
		sim->ops->destroy(sim);
	sl__free_all_tasks(sim);
	while (sim->blocks) {
		struct sl_block *b = sim->blocks->next;
		free(sim->blocks);
		sim->blocks = b;
	}
	sl_eventq_free(&sim->q);
	sl__lat_free(sim);
	sl__conserve_free(sim);
	free(sim->cpus);
	free(sim->tick_order);
	free(sim->tick_phase);
	free(sim->tick_walk);
	free(sim->tick_rank);
	free(sim->deferred);
	free(sim->core_first);
	free(sim->core_cpus);
	free(sim->mem_demand);
	sl__sched_free(sim);
	free(sim->core_evicted_kb);
	free(sim->llc_evicted_kb);
	free(sim);
}

void *sl_sim_alloc(struct sl_sim *sim, size_t size)
{
	struct sl_block *b = sl_xcalloc(1, sizeof(*b) + size);
	b->next = sim->blocks;
	sim->blocks = b;
	return b->data;
}

/* Where in the jiffy CPU n's tick comes under a walked mode.
 *   STAGGERED  2.4 setup_APIC_timer() waits until its timer is
 *              slice * (smp_processor_id() + 1) behind IRQ0, with
 *              slice = period / (smp_num_cpus + 1).
 *   BITREV     ia64_cpu_local_tick() (2.4.27 and 2.6.11 arch/ia64/kernel/
 *              time.c) sets CPU n > 0's first interval to itm_delta plus
 *              (2 * (n - hi) + 1) * delta / hi / 2, hi the highest power
 *              of two <= n: 1/2, 1/4, 3/4, 1/8, 3/8, ... of a tick. */
static sl_time walked_phase(const struct sl_sim *sim, int n)
{
	if (sim->tick_mode == SL_TICK_STAGGERED)
		return (sl_time)(n + 1) * sim->tick_ns / (sim->ncpus + 1);
	if (n == 0)
		return 0;
	sl_time hi = (sl_time)1 << (63 - __builtin_clzll((unsigned long long)n));
	return (2 * (n - hi) + 1) * sim->tick_ns / hi / 2;
}

_Static_assert(SL_MAX_CPUS <= 1 << 20, "a tick walk key holds a CPU number in 20 bits");

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The phases of the walked modes and the CPUs in phase order (ties, which
 * no mode has, in CPU order); called when the mode or HZ changes, at init:
 * O(n log n), each CPU sorted as one key, its phase (< 2^27 ns: HZ >= 10)
 * above its number (< 2^20). */
static void tick_phases_update(struct sl_sim *sim)
{
	uint64_t *key = sl_xcalloc((unsigned long)sim->ncpus, sizeof(*key));

	sim->tick_walked = sim->tick_mode == SL_TICK_STAGGERED ||
			   sim->tick_mode == SL_TICK_BITREV;
	sim->tick_walk_in_cpu_order = true;
	for (int cpu = 0; cpu < sim->ncpus; cpu++) {
		sim->tick_phase[cpu] = sim->tick_walked ? walked_phase(sim, cpu) : 0;
		key[cpu] = (uint64_t)sim->tick_phase[cpu] << 20 | (uint64_t)cpu;
	}
	qsort(key, (size_t)sim->ncpus, sizeof(*key), cmp_u64);
	for (int i = 0; i < sim->ncpus; i++)
		sim->tick_walk[i] = (int)(key[i] & ((1u << 20) - 1));
	free(key);
	for (int i = 0; i < sim->ncpus; i++) {
		sim->tick_rank[sim->tick_walk[i]] = i;
		if (sim->tick_walk[i] != i)
			sim->tick_walk_in_cpu_order = false;
	}
}

sl_time sl_tick_phase(const struct sl_sim *sim, int cpu)
{
	return sim->tick_phase[cpu];
}

/* The first CPU in phase order whose phase in the jiffy that began at
 * `start` lies after now (-1: none).  The walk is sorted by phase, so a
 * binary search: a restart after idle on a big machine costs log CPUs. */
static int first_phase_after_now(const struct sl_sim *sim, sl_time start)
{
	int lo = 0, hi = sim->ncpus;	/* the answer's rank lies in [lo, hi] */

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (start + sim->tick_phase[sim->tick_walk[mid]] > sim->now)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo < sim->ncpus ? sim->tick_walk[lo] : -1;
}

/* The first tick strictly after now in phase order: its CPU in *cpu, and
 * the start of its jiffy (this one, or the next when every phase of this
 * one has passed; always the next, CPU 0 first, when all phases are 0). */
static sl_time first_tick_after_now(const struct sl_sim *sim, int *cpu)
{
	sl_time start = sim->now / sim->tick_ns * sim->tick_ns;

	*cpu = first_phase_after_now(sim, start);
	if (*cpu >= 0)
		return start;
	*cpu = sim->tick_walk[0];
	return start + sim->tick_ns;
}

sl_time sl_next_tick(const struct sl_sim *sim, int cpu)
{
	sl_time start = sim->now / sim->tick_ns * sim->tick_ns;
	if (cpu >= 0) {
		sl_time at = start + sl_tick_phase(sim, cpu);
		return at > sim->now ? at : at + sim->tick_ns;
	}
	int c;
	sl_time jiffy = first_tick_after_now(sim, &c);
	return jiffy + sim->tick_phase[c];
}

sl_time sl_tick_time(const struct sl_sim *sim, int cpu, uint64_t jiffy)
{
	return (sl_time)jiffy * sim->tick_ns + sl_tick_phase(sim, cpu);
}

static void schedule_tick(struct sl_sim *sim, sl_time jiffy_start, int cpu)
{
	sim->tick_cpu = cpu;
	sl_eventq_schedule(&sim->q, &sim->tick_ev, jiffy_start + sl_tick_phase(sim, cpu));
}

/* The jiffy of `cpu`'s last tick at or before `t` (-1: none). */
static int64_t tick_jiffy_by(const struct sl_sim *sim, int cpu, sl_time t)
{
	sl_time since = t - sl_tick_phase(sim, cpu);

	return since < 0 ? -1 : since / sim->tick_ns;
}

void sl__ticks_resume(struct sl_sim *sim)
{
	if (!sim->ops->ticks_skipped || sim->last_tick_at < 0 || sim->nr_runnable > 0 ||
	    sl_event_queued(&sim->tick_ev))
		return;
	int saved = sim->ctx_cpu;
	for (int cpu = 0; cpu < sim->ncpus; cpu++) {
		/* the ticks after its last one, up to one due now (which would
		 * have come before the wakeup at the same instant: sl__arm_tick) */
		int64_t done = tick_jiffy_by(sim, cpu, sim->last_tick_at);
		int64_t due = tick_jiffy_by(sim, cpu, sim->now);
		if (due <= done)
			continue;
		/* what they charged was done in the idle time now past */
		struct sl_cpu *c = &sim->cpus[cpu];
		sl_time idle_work = c->idle_work_until;
		sim->ctx_cpu = cpu;
		sim->ops->ticks_skipped(sim, cpu, (uint64_t)(done + 1), (uint64_t)due);
		c->idle_work_until = idle_work;
	}
	sim->ctx_cpu = saved;
}

void sl__arm_tick(struct sl_sim *sim)
{
	if (sl_event_queued(&sim->tick_ev) || sim->nr_runnable == 0)
		return;
	/* The first tick strictly after now: one due now would have been
	 * queued before whatever made the task runnable, and found nothing. */
	int cpu;
	sl_time jiffy = first_tick_after_now(sim, &cpu);
	schedule_tick(sim, jiffy, cpu);
}

/* Inline, with sl__process_resched's first test: most ticks (an idle
 * CPU's, a task's mid-slice) ask for nothing, and every CPU ticks every
 * jiffy, so the engine's share of a tick is a few loads. */
static inline void tick_cpu(struct sl_sim *sim, int cpu)
{
	const struct sl_cpu *c = &sim->cpus[cpu];

	sim->ctx_cpu = cpu;
	sim->ops->tick(sim, cpu);
	/* under HRTIMER the tick is an hrtimer interrupt: the sleeps armed
	 * here whose soft expiry has passed end in it (timers.c) */
	if (c->hrtimers.head)
		sl__hrtimer_interrupt(sim, cpu);
	if (c->need_resched)
		sl__process_resched(sim, cpu);
}

/* Whether the tick must go on: a task wants a CPU, or a migration thread
 * runs (its end reschedules, and a policy may act on that at a tick). */
static bool tick_busy(const struct sl_sim *sim)
{
	if (sim->nr_runnable > 0)
		return true;
	for (int cpu = 0; cpu < sim->ncpus; cpu++)
		if (sim->cpus[cpu].in_migration)
			return true;
	return false;
}

static bool tick_runs(const struct sl_sim *sim, int cpu)
{
	return !sim->nohz || sl_cpumask_test(&sim->tick_on, cpu);
}

/* The next CPU in phase order from rank `from` on whose tick runs under
 * nohz (-1: none). */
static int next_ticking_in_walk(const struct sl_sim *sim, int from)
{
	if (sim->tick_walk_in_cpu_order)
		return sl_cpumask_next_in(&sim->tick_on, from, sim->ncpus);
	for (int i = from; i < sim->ncpus; i++)
		if (sl_cpumask_test(&sim->tick_on, sim->tick_walk[i]))
			return sim->tick_walk[i];
	return -1;
}

/* Walked modes: the tick after `cpu`'s, in phase order (under nohz the
 * next CPU whose tick runs, or the first of the next jiffy). */
static void next_walked(struct sl_sim *sim, sl_time start, int cpu)
{
	int rank = sim->tick_rank[cpu] + 1;

	if (sim->nohz) {
		int next = next_ticking_in_walk(sim, rank);
		if (next < 0) {	/* the first of the next jiffy (the first in phase order if none runs) */
			next = next_ticking_in_walk(sim, 0);
			schedule_tick(sim, start + sim->tick_ns, next >= 0 ? next : sim->tick_walk[0]);
			return;
		}
		schedule_tick(sim, start, next);
		return;
	}
	if (rank < sim->ncpus)
		schedule_tick(sim, start, sim->tick_walk[rank]);
	else
		schedule_tick(sim, start + sim->tick_ns, sim->tick_walk[0]);
}

/* SYNC and ORDERED under nohz: the CPUs whose tick runs, in CPU order
 * (then shuffled for SYNC); n of them. */
static int ticking_cpus(struct sl_sim *sim)
{
	int n = 0;

	for (int w = 0; w < sim->mask_words; w++)
		for (uint64_t bits = sim->tick_on.w[w]; bits; bits &= bits - 1)
			sim->tick_order[n++] = w * 64 + __builtin_ctzll(bits);
	return n;
}

/* SYNC: this jiffy's order of the first n entries of tick_order,
 * Fisher-Yates over the last order (uniform whatever it was).  Out of
 * line: inlined in the event loop it was short of registers. */
static __attribute__((noinline)) void shuffle_tick_order(struct sl_sim *sim, int n)
{
	int *o = sim->tick_order;

	for (uint64_t k = (uint64_t)n; k > 1; k--) {
		uint64_t j = sl_rng_below(&sim->tick_rng, k);
		int t = o[k - 1];
		o[k - 1] = o[j];
		o[j] = t;
	}
}

static void do_tick(struct sl_sim *sim)
{
	sl_time start = sim->now / sim->tick_ns * sim->tick_ns;

	sim->last_tick_at = sim->now;

	if (sim->tick_walked) {
		int cpu = sim->tick_cpu;
		if (tick_runs(sim, cpu))
			tick_cpu(sim, cpu);
		if (tick_busy(sim))
			next_walked(sim, start, cpu);
		return;
	}
	int n = sim->nohz ? ticking_cpus(sim) : sim->ncpus;
	if (sim->tick_mode == SL_TICK_SYNC)
		shuffle_tick_order(sim, n);
	/* read once: the policy's tick op can change neither (both are set
	 * at init); ORDERED's tick_order is CPU order (sl_set_tick_mode) */
	const int *order = sim->tick_order;
	bool nohz = sim->nohz;
	for (int i = 0; i < n && !sim->stopped; i++) {
		int cpu = order[i];
		/* not stopped by a CPU ticked before it */
		if (!nohz || sl_cpumask_test(&sim->tick_on, cpu))
			tick_cpu(sim, cpu);
	}
	if (tick_busy(sim))
		schedule_tick(sim, start + sim->tick_ns, 0);
}

/* A task the migration thread, SCHED_FIFO 99 under a 2.x kernel, cannot
 * preempt: one of its own priority (sl_set_migration_fifo99). */
static bool thread_waits_behind(const struct sl_sim *sim, const struct sl_task *t)
{
	return sim->migration_fifo99 && t && sl_task_rt(t) && t->rt_priority == SL_RT_PRIO_MAX;
}

void sl__migration_start(struct sl_sim *sim, struct sl_cpu *c)
{
	struct sl_task *t = c->curr;
	if (!c->migration_now && sl__waits_kernel_exit(sim, c)) {
		/* woken like any task: need_resched, acted on at the kernel exit */
		c->migration_waits = true;
		c->need_resched = true;
		return;
	}
	if (!c->migration_now && thread_waits_behind(sim, t)) {
		/* queued behind a task of its own priority, without
		 * need_resched: it runs at the schedule() that task's block,
		 * yield or rotation brings (sl__schedule, sl__process_resched) */
		c->migration_waits = true;
		return;
	}
	c->kexit_wait = false;
	c->migration_pending = false;
	if (t) {
		/* The SCHED_FIFO thread preempts whatever runs; the task stays
		 * on the policy's queue, runnable but not running. */
		sl__settle(sim, c);
		sl__switch_out(sim, c, t);
	}
	c->in_migration = true;
	sl__occupancy(sim, c);
	sl__core_changed(sim, c->core);
	sim->ctx_cpu = c->id;
	if (sim->ops->migration)
		sim->ops->migration(sim, c->id, c->migration_arg);
	sl_time cost = sl_migration_run_ns(sim->model);
	c->stats.kthread_ns += cost;
	c->migr_ev.kind = EV_MIGRATION_END;
	sl_eventq_schedule(&sim->q, &c->migr_ev, sim->now + cost);
}

static void migration_end(struct sl_sim *sim, struct sl_cpu *c)
{
	c->migr_ev.kind = EV_MIGRATION;
	c->in_migration = false;
	sl__occupancy(sim, c);
	/* its siblings' tasks no longer share the core with the thread:
	 * re-timed here, since sl__schedule does so only when it switches */
	sl__core_changed(sim, c->core);
	sl__schedule(sim, c->id);
	if (c->migration_pending) {
		/* requested while it ran: the kernel's thread takes it in
		 * the same loop, before it leaves the CPU */
		c->migration_now = true;
		sl_eventq_schedule(&sim->q, &c->migr_ev, sim->now);
	}
}

static void handle(struct sl_sim *sim, struct sl_event *e)
{
	struct sl_cpu *c = e->cpu >= 0 ? &sim->cpus[e->cpu] : NULL;

	sim->ctx_cpu = e->cpu;
	switch ((enum sl_ev_kind)e->kind) {
	case EV_BURST_DONE:
		sl__burst_done(sim, c);
		break;
	case EV_TIMER: {
		struct sl_task *t = e->obj;
		/* the timer interrupt's wakeup; an hrtimer's interrupt expires
		 * the CPU's other sleeps whose soft expiry has passed too */
		if (t->hrt_soft >= 0)
			sl__hrtimer_interrupt(sim, e->cpu);
		else
			sl__wake(sim, t, e->cpu, SL_WAKE_TIMER | SL_WAKE_IRQ);
		break;
	}
	case EV_TICK:
		do_tick(sim);
		return;
	case EV_IPI:
		break;	/* need_resched is acted on below */
	case EV_MIGRATION:
		/* the thread runs when the idle task's work is done */
		if (!sl__after_idle_work(sim, c, &c->migr_ev))
			sl__migration_start(sim, c);
		break;
	case EV_MIGRATION_END:
		migration_end(sim, c);
		break;
	case EV_HRTIMER:
		if (!sim->ops->hrtimer) {	/* a policy bug, reported in the run */
			sl_fail_internal(sim->run_err, "policy '%s' started an hrtimer but has no "
					 "hrtimer op", sim->ops->name);
			sim->stopped = true;
			return;
		}
		sim->ops->hrtimer(sim, e->cpu, (int)(e - c->hrtimer_ev));
		sl__hrtimer_interrupt(sim, e->cpu);	/* the same interrupt's later expiries */
		break;
	case EV_DISK_DONE:
		sl__disk_done(sim, e->obj);
		break;
	}
	/* A wakeup in this event may have asked this CPU to reschedule (a
	 * woken task preempting).  Bounded: each round is a real switch. */
	for (int i = 0; i < 8 && e->cpu >= 0 && !sim->stopped; i++) {
		if (!sim->cpus[e->cpu].need_resched)
			break;
		sim->ctx_cpu = e->cpu;
		sl__process_resched(sim, e->cpu);
		if (sim->cpus[e->cpu].kexit_wait || sl__idle_work_left(sim, &sim->cpus[e->cpu]))
			break;	/* it waits for the running task's kernel exit,
				 * or for its idle work's end */
	}
}

/* The task whose event e is, if any: what a horizon error names. */
static const struct sl_task *event_task(const struct sl_sim *sim, const struct sl_event *e)
{
	if (e->kind == EV_TIMER)
		return e->obj;
	if (e->cpu >= 0 && sim->cpus[e->cpu].curr)
		return sim->cpus[e->cpu].curr;
	return sl__first_task(sim);
}

/* The next event lies past the time limit (the run is over) or past the
 * simulated-time horizon: the workload needs more time than a run can
 * represent, which its input asked for (exit 2). */
static int past_stop(struct sl_sim *sim, const struct sl_event *e, struct sl_err *err)
{
	if (sim->time_limit && sim->time_limit <= SL_TIME_HORIZON) {
		sim->now = sim->time_limit;
		return 0;
	}
	const struct sl_task *t = event_task(sim, e);
	char who[96] = "";
	if (t)
		snprintf(who, sizeof(who), ": task %d (%s) is not done by then", t->id, t->comm);
	sim->stopped = true;
	return sl_fail(err, "simulated time would pass the horizon of %lld s (11.6 days), the "
		       "longest a run can last, after %.3f s%s", SL_TIME_HORIZON / SL_SEC,
		       sl_ns_to_s(sim->now), who);
}

int sl_sim_run(struct sl_sim *sim, struct sl_err *err)
{
	bool drained = false;

	if (err)
		err->kind = SL_ERR_NONE;
	sim->run_err = err;
	/* One comparison per event covers both the time limit and the
	 * horizon; past_stop() tells them apart. */
	sim->stop_at = sim->time_limit && sim->time_limit < SL_TIME_HORIZON ? sim->time_limit
									    : SL_TIME_HORIZON;
	/* sl__settle_work's copies, taken where the run starts: time passes
	 * only in here, and a caller may set the machine's model or caches
	 * after sl_sim_create (the unit tests do) */
	sim->settle_cache.touch_kb_per_ms = sim->model->touch_kb_per_ms;
	sim->settle_cache.llc_beyond_l2 = sim->topo->llc_kb > sim->topo->l2_kb;
	while (!sim->stopped) {
		sl__flush_bursts(sim);
		if (sim->check && sl__check_timing(sim, err))
			return -1;
		struct sl_event *e = sl_eventq_peek(&sim->q);
		if (!e) {
			drained = true;
			break;
		}
		if (e->time > sim->stop_at) {
			if (past_stop(sim, e, err))
				return -1;
			break;
		}
		sl_eventq_pop(&sim->q);
		sim->now = e->time;
		sl__conserve_advance(sim);
		sim->events++;
		sim->events_by_ev[e->kind]++;
		handle(sim, e);
		if (sim->check && !sim->stopped && sl__check(sim, err))
			return -1;
		if (sim->step_limit && sim->steps >= sim->step_limit)
			sim->stopped = true;
	}
	for (int i = 0; i < sim->ncpus; i++)
		sl__settle(sim, &sim->cpus[i]);
	sl__conserve_advance(sim);
	if (err && err->kind != SL_ERR_NONE)
		return -1;
	if (drained && sim->nr_live > 0) {
		/* Nothing left to happen but tasks remain: they all sleep on
		 * something no one will signal.  Name one that waits for more
		 * than its children; a file's programs are the file's doing. */
		const struct sl_task *stuck = NULL;
		for (const struct sl_task *t = sl__first_task(sim); t; t = sl__next_task(t))
			if (t->state == SL_TASK_SLEEPING &&
			    (!stuck || (stuck->act.kind == SL_ACT_WAIT && t->act.kind != SL_ACT_WAIT)))
				stuck = t;
		if (stuck && sim->program_source)
			return sl_fail(err, "%s: deadlock at %.6f s: task %d (%s) sleeps for ever and "
				       "nothing is left to wake it (a barrier, lock or wait the file "
				       "never completes: the real program would hang)",
				       sim->program_source, sl_ns_to_s(sim->now), stuck->id, stuck->comm);
		if (stuck)
			return sl_fail_internal(err, "deadlock at %.6f s: task %d (%s) sleeps forever",
						sl_ns_to_s(sim->now), stuck->id, stuck->comm);
	}
	return 0;
}

void sl_sim_set_program_source(struct sl_sim *sim, const char *what)
{
	size_t n = strlen(what) + 1;
	char *copy = sl_sim_alloc(sim, n);

	memcpy(copy, what, n);
	sim->program_source = copy;
}

void sl_sim_stop(struct sl_sim *sim) { sim->stopped = true; }
void sl_sim_set_time_limit(struct sl_sim *sim, sl_time limit) { sim->time_limit = limit; }

/* ---- services ---- */

sl_time sl_now(const struct sl_sim *sim) { return sim->now; }
const struct sl_topo *sl_topo(const struct sl_sim *sim) { return sim->topo; }
uint64_t sl_seed(const struct sl_sim *sim) { return sim->seed; }
void *sl_policy_data(const struct sl_sim *sim) { return sim->policy_data; }
const struct sl_machine *sl_sim_machine(const struct sl_sim *sim) { return sim->machine; }

void sl_set_hz(struct sl_sim *sim, unsigned hz)
{
	if (hz < 10)
		hz = 10;
	sim->hz = hz;
	sim->tick_ns = SL_SEC / hz;
	tick_phases_update(sim);
}

unsigned sl_hz(const struct sl_sim *sim) { return sim->hz; }

void sl_set_tick_mode(struct sl_sim *sim, enum sl_tick_mode mode)
{
	sim->tick_mode = mode;
	/* a jiffy's ticks go in tick_order (do_tick): CPU order unless
	 * shuffled, for SYNC, or listed, under nohz */
	if (mode != SL_TICK_SYNC)
		for (int i = 0; i < sim->ncpus; i++)
			sim->tick_order[i] = i;
	tick_phases_update(sim);
}

void sl_set_kernel_preempt(struct sl_sim *sim, enum sl_kernel_preempt model)
{
	sim->preempt_none = model == SL_PREEMPT_NONE;
}

void sl_set_nohz(struct sl_sim *sim)
{
	sim->nohz = true;
	sim->tick_on = sl_cpumask_first_n(sim->ncpus);
}

void sl_tick_stop(struct sl_sim *sim, int cpu)
{
	if (sim->nohz)
		sl_cpumask_unset(&sim->tick_on, cpu);
}

void sl_tick_restart(struct sl_sim *sim, int cpu)
{
	if (!sim->nohz || sl_cpumask_test(&sim->tick_on, cpu))
		return;
	sl_cpumask_set(&sim->tick_on, cpu);
	/* walked: the walk may have been set to pass over this CPU's next
	 * phase (in this jiffy, or in the next when the walk waits there for
	 * a later CPU): it comes to this one first */
	if (sim->tick_walked && sl_event_queued(&sim->tick_ev)) {
		sl_time at = sl_next_tick(sim, cpu);
		if (at < sim->tick_ev.time) {
			sl_eventq_cancel(&sim->q, &sim->tick_ev);
			schedule_tick(sim, at - sl_tick_phase(sim, cpu), cpu);
		}
	}
}

bool sl_tick_stopped(const struct sl_sim *sim, int cpu)
{
	return sim->nohz && !sl_cpumask_test(&sim->tick_on, cpu);
}
enum sl_tick_mode sl_tick_mode(const struct sl_sim *sim) { return sim->tick_mode; }
uint64_t sl_jiffies(const struct sl_sim *sim) { return (uint64_t)(sim->now / sim->tick_ns); }

struct sl_task *sl_curr(const struct sl_sim *sim, int cpu) { return sim->cpus[cpu].curr; }

bool sl_cpu_idle(const struct sl_sim *sim, int cpu)
{
	return !sim->cpus[cpu].curr && !sim->cpus[cpu].in_migration;
}

const sl_cpumask *sl_idle_cpus(const struct sl_sim *sim) { return &sim->idle_cpus; }

void sl_resched(struct sl_sim *sim, int cpu)
{
	struct sl_cpu *c = &sim->cpus[cpu];
	c->need_resched = true;
	if (cpu == sim->ctx_cpu || sl_event_queued(&c->ipi_ev))
		return;
	sl_eventq_schedule(&sim->q, &c->ipi_ev, sim->now + sim->model->ipi_ns);
}

bool sl_need_resched(const struct sl_sim *sim, int cpu) { return sim->cpus[cpu].need_resched; }

void sl_hrtimer_start(struct sl_sim *sim, int cpu, int id, sl_time at)
{
	sl_eventq_schedule(&sim->q, &sim->cpus[cpu].hrtimer_ev[id], at > sim->now ? at : sim->now);
}

void sl_hrtimer_cancel(struct sl_sim *sim, int cpu, int id)
{
	sl_eventq_cancel(&sim->q, &sim->cpus[cpu].hrtimer_ev[id]);
}

bool sl_hrtimer_queued(const struct sl_sim *sim, int cpu, int id)
{
	return sl_event_queued(&sim->cpus[cpu].hrtimer_ev[id]);
}

sl_time sl_hrtimer_expires(const struct sl_sim *sim, int cpu, int id)
{
	const struct sl_event *e = &sim->cpus[cpu].hrtimer_ev[id];
	return sl_event_queued(e) ? e->time : -1;
}

void sl_set_migration_fifo99(struct sl_sim *sim, bool fifo99) { sim->migration_fifo99 = fifo99; }

bool sl_migration_pending(const struct sl_sim *sim, int cpu)
{
	return sim->cpus[cpu].migration_pending;
}

void sl_migration_wake(struct sl_sim *sim, int cpu, long arg)
{
	struct sl_cpu *c = &sim->cpus[cpu];
	if (c->migration_pending)
		return;
	c->migration_pending = true;
	c->migration_arg = arg;
	c->migration_now = c->curr && sim->acting == c->curr;
	/* asked for by the task running there, in its own action: a wakeup
	 * on the same CPU needs no IPI, and the caller sleeps in
	 * wait_for_completion() at once, so the thread runs now */
	if (!c->in_migration)
		sl_eventq_schedule(&sim->q, &c->migr_ev,
				   sim->now + (c->migration_now ? 0 : sim->model->ipi_ns));
}

/* Out of line: an idle CPU's balancing at every tick charges its scan
 * here, and the settle and re-timing would give that path a frame. */
static __attribute__((noinline)) void charge_running(struct sl_sim *sim, struct sl_cpu *c,
						     sl_time work_ns, sl_time spin_ns)
{
	sl__settle(sim, c);
	sl__charge_running(c->curr, (double)work_ns, spin_ns);
	sl__start_burst(sim, c);
}

/* Whether a charge on c now is work of the idle task, in its idle time. */
static inline bool charges_idle_time(const struct sl_cpu *c)
{
	return !c->curr && !c->in_migration && !c->in_schedule;
}

/*
 * Scheduler work (`work_ns`, done at the task's speed) and a spin on a
 * lock (`spin_ns`, wall time: a spinning CPU waits for the holder, not for
 * its own speed, so a busy SMT sibling does not lengthen it), both system
 * time.  Done in a tick or a wakeup, they delay the running task.  One
 * that is leaving the CPU (dead, its exit waking its parent in
 * exit_notify) runs no more bursts: the task switched in pays, as for
 * work done inside schedule().  Inline: an idle CPU's balancing charges
 * its scan through sl_charge_sched at every tick, which then needs no
 * second call and no lock spin.
 */
static inline void charge_cpu(struct sl_sim *sim, int cpu, sl_time work_ns, sl_time spin_ns)
{
	struct sl_cpu *c = &sim->cpus[cpu];
	if (c->curr && !c->in_schedule && c->curr->state == SL_TASK_RUNNABLE) {
		charge_running(sim, c, work_ns, spin_ns);
	} else if (charges_idle_time(c)) {
		sl__idle_work(sim, c, work_ns + spin_ns);	/* an idle CPU's */
	} else {
		c->sched_debt += (double)work_ns;	/* paid by the task switched in */
		c->sched_stall += spin_ns;
	}
}

void sl_charge_sched(struct sl_sim *sim, int cpu, sl_time ns)
{
	charge_cpu(sim, cpu, ns, 0);
}

sl_time sl_charge_locked(struct sl_sim *sim, int cpu, struct sl_spinlock *lock, sl_time hold_ns)
{
	/* An idle CPU takes the lock once the idle-time work it has queued
	 * is done (charge_cpu puts this after it). */
	const struct sl_cpu *c = &sim->cpus[cpu];
	sl_time from = charges_idle_time(c) ? sl__idle_work_from(sim, c) : sim->now;
	sl_time start = lock->free_at > from ? lock->free_at : from;
	/* A CPU taking the lock again right after itself queues behind its
	 * own work, which is already charged: only other CPUs spin. */
	sl_time wait = lock->holder == cpu + 1 ? 0 : start - from;
	lock->free_at = start + hold_ns;
	lock->holder = cpu + 1;
	charge_cpu(sim, cpu, hold_ns, wait);
	return wait;
}

sl_time sl_cost_scan(const struct sl_sim *sim, long items)
{
	return items * sim->model->sched_scan_ns;
}

sl_time sl_cost_pick(const struct sl_sim *sim) { return sim->model->sched_pick_ns; }
sl_time sl_cost_ctx_switch(const struct sl_sim *sim) { return sim->model->ctx_switch_ns; }
sl_time sl_cost_exit(const struct sl_sim *sim) { return sim->model->exit_ns; }
sl_time sl_cost_fork(const struct sl_sim *sim) { return sim->model->fork_ns; }

double sl_task_costs_owed(const struct sl_task *t) { return t->debt_sys; }
double sl_task_refill_owed(const struct sl_task *t) { return t->debt_user; }
double sl_task_speed(const struct sl_task *t) { return t->speed > 0 ? t->speed : 1.0; }

void sl_note_migration(struct sl_sim *sim, struct sl_task *t, int from_cpu, int to_cpu)
{
	OBSERVE(sim, sched_migrate, t, from_cpu, to_cpu);
}

struct sl_task *sl_task_first(const struct sl_sim *sim) { return sl__first_task(sim); }
struct sl_task *sl_task_next(const struct sl_task *t) { return sl__next_task(t); }
int sl_nr_tasks(const struct sl_sim *sim) { return sim->nr_live; }

/* ---- statistics ---- */

void sl_sim_stats(const struct sl_sim *sim, struct sl_run_stats *out)
{
	*out = sim->totals;
	for (const struct sl_task *t = sl__first_task(sim); t; t = sl__next_task(t))
		sl__add_task_totals(out, t);
	sl_time end = sim->root_end ? sim->root_end : sim->now;
	out->elapsed_ns = end - sim->root_start;
	out->events = (struct sl_event_counts){ .total = sim->events,
						 .bursts_timed = sim->bursts_timed,
						 .node_retimes = sim->node_retimes,
						 .steps = sim->steps };
	static const enum sl_event_kind public_kind[EV_DISK_DONE + 1] = {
		[EV_BURST_DONE] = SL_EVK_BURST, [EV_TIMER] = SL_EVK_TIMER,
		[EV_TICK] = SL_EVK_TICK, [EV_IPI] = SL_EVK_IPI,
		[EV_MIGRATION] = SL_EVK_MIGRATION, [EV_MIGRATION_END] = SL_EVK_MIGRATION,
		[EV_HRTIMER] = SL_EVK_TIMER, [EV_DISK_DONE] = SL_EVK_DISK,
	};
	for (int k = 0; k <= EV_DISK_DONE; k++)
		out->events.kind[public_kind[k]] += sim->events_by_ev[k];
	sl__conserve_stats(sim, out);
}

const struct sl_cpu_stats *sl_sim_cpu_stats(const struct sl_sim *sim, int cpu)
{
	struct sl_cpu_stats *s = &sim->cpus[cpu].stats;
	s->idle_ns = sim->now - s->user_ns - s->sys_ns - s->kthread_ns;
	if (s->idle_ns < 0)
		s->idle_ns = 0;
	return s;
}

const char *sl_event_kind_name(enum sl_event_kind k)
{
	static const char *const names[SL_EVK_COUNT] = {
		[SL_EVK_BURST] = "burst", [SL_EVK_TIMER] = "timer", [SL_EVK_TICK] = "tick",
		[SL_EVK_IPI] = "ipi", [SL_EVK_MIGRATION] = "migration", [SL_EVK_DISK] = "disk",
	};
	return (unsigned)k < SL_EVK_COUNT ? names[k] : "?";
}

void sl_event_counts_add(struct sl_event_counts *to, const struct sl_event_counts *from)
{
	to->total += from->total;
	for (int k = 0; k < SL_EVK_COUNT; k++)
		to->kind[k] += from->kind[k];
	to->bursts_timed += from->bursts_timed;
	to->node_retimes += from->node_retimes;
	to->steps += from->steps;
}
