/*
 * internal.h - the engine's private state, shared by the files of sim/.
 * Nothing outside src/sim includes this.
 */
#ifndef SL_SIM_INTERNAL_H
#define SL_SIM_INTERNAL_H

#include "base/rng.h"
#include "sim/eventq.h"
#include "sim/sim.h"

enum sl_ev_kind {
	EV_BURST_DONE,		/* the task on a CPU finished its outstanding work */
	EV_TIMER,		/* a task's sleep ended */
	EV_TICK,		/* one jiffy's tick on every CPU (one CPU's if staggered) */
	EV_IPI,			/* a reschedule IPI reaches a CPU */
	EV_MIGRATION,		/* a CPU's migration thread wakes */
	EV_MIGRATION_END,	/* ... and finishes */
	EV_HRTIMER,		/* a policy's hrtimer on a CPU expired */
	EV_DISK_DONE,		/* the disk finished the request in service */
};

struct sl_cpu {
	int id;
	int core;
	int node;			/* topo->cpu_node[id] */
	bool alone;			/* the only CPU of its core (no SMT siblings) */
	int sibling;			/* the other CPU of a two-thread core, else -1 */
	struct sl_task *curr;		/* NULL when idle or in the migration thread */
	bool in_migration;		/* migration thread on the CPU */
	bool need_resched;
	bool in_schedule;		/* inside the policy's pick_next */
	bool migration_pending;
	bool migration_waits;		/* woken, waits for the kernel exit (SL_PREEMPT_NONE)
					 * or for a task of its own priority to leave
					 * (sl_set_migration_fifo99) */
	bool migration_now;		/* runs at once, not at the kernel exit: the task
					 * running here asked for it in its own action
					 * (and sleeps), or the task it waited for slept */
	bool kexit_wait;		/* SL_PREEMPT_NONE: need_resched waits for curr's
					 * kernel work to end; its burst ends there */
	bool burst_at_debt;		/* the burst ends at curr's kernel debt, not its work */
	/* the tasks' nanosleep hrtimers armed on this CPU, in the order of
	 * their hard expiry (timers.c); beside need_resched, since every
	 * CPU's tick reads both (engine.c tick_cpu) */
	struct sl_dlist hrtimers;
	long migration_arg;
	sl_time seg_start;		/* start of the current run segment */
	double curr_touched_kb;		/* lines curr touched since it came */
	double curr_miss, curr_llc_miss;	/* part of curr's lines missing from the
						 * L2 / the LLC when it came */
	double sched_debt;		/* scheduler work to charge to the next task */
	sl_time sched_stall;		/* and wall time it spun on a lock */
	sl_time idle_work_until;	/* the idle CPU's own scheduler work ends then */
	struct sl_event burst_ev, ipi_ev, migr_ev;
	struct sl_event hrtimer_ev[SL_HRTIMERS];	/* the policy's, by id */
	/* burst_ev's re-timing, decided but not yet done (sched.c): */
	uint8_t burst_deferred;		/* 0 none, 1 pending, 2 cancelled since */
	double burst_owed;		/* what it completes (its speed is taken at the flush) */
	sl_time burst_stall;		/* after this much wall time spinning (sl_task.stall_ns) */
	uint64_t burst_seq;		/* its place among events of equal time */
	int draw_slot;			/* sched.c: the draw mask it is in, -1 none */
	struct sl_cpu_stats stats;
	bool occ_busy, occ_running;	/* as conserve.c last counted it */
};

struct sl_waitq {
	struct sl_task *head, *tail;
};

/* A 2.6.11+ pipe's ring of pages (2.6.12.1 pipe_inode_info's bufs,
 * 6.12 pipe->bufs): what each page holds, oldest first.  Reads take from
 * the oldest page and free it once it is empty; a write of less than a
 * page merges into the newest page while it fits (offset + len, which a
 * read of that page does not lower), other bytes take fresh pages. */
_Static_assert(SL_PAGE_BYTES_MAX <= INT16_MAX, "a ring's page lengths are int16_t");
struct sl_pipe_ring {
	int16_t len[SL_PIPE_BUFFERS];	/* bytes in each page, from `head` on */
	int16_t last_end;		/* the newest page's offset + len */
	uint8_t head, n, max;		/* oldest page, pages in use, pages (0: no ring) */
};

struct sl_chan {
	long level, capacity;
	long write_space;	/* a read wakes blocked writers only when it
				 * leaves at most this many bytes queued */
	bool closed, sync, sync_always;
	bool pipe;		/* made with sync wakeups: its writes up to PIPE_BUF are atomic */
	bool read_woke_writer;	/* the last read woke a blocked writer */
	bool read_on;		/* a pipe whose kernel reads on (sl_set_pipes) */
	unsigned reader_wake, writer_wake;	/* a socket's: SL_WAKE_SOCK */
	bool newest_first;	/* a kernel wait queue's non-exclusive waiters */
	bool exclusive;		/* a 6.12 pipe: its waiters are woken one at a time */
	struct sl_pipe_ring ring;	/* the kernel's pipe of several pages */
	struct sl_waitq readers, writers;
	/* PIPE_WAITING_WRITERS: writers from their sleep until their retry
	 * runs, woken or not (a reader that reads on waits for these) */
	int waiting_writers;
};

struct sl_mutex {
	struct sl_task *owner;
	struct sl_waitq waiters;
	bool io;		/* waiters sleep uninterruptibly (sl_mutex_new_io) */
};

struct sl_barrier {
	int parties, arrived;
	unsigned long gen;
	struct sl_waitq waiters;
};

/* Work conservation (conserve.c): what the CPUs and cores were doing since
 * `last`, kept up to date by sl__occupancy() at every change. */
struct sl_conserve {
	sl_time last;			/* integrated up to here */
	int nrunning;			/* CPUs running a task */
	int ncores_idle;		/* cores with every sibling idle */
	int ncores_shared;		/* cores running two or more tasks */
	int nallowed, nbusy_allowed;	/* CPUs of the workload's set, and those busy */
	int *core_busy, *core_running;	/* per core: siblings busy / running a task */
	bool smt;			/* some core has two or more CPUs */
	sl_time idle_waiting_ns, smt_shared_idle_ns;
	sl_time episode_start;		/* of the current idle-while-waiting stretch, -1: none */
	sl_time longest_ns;
};

/* Memory blocks owned by the run. */
struct sl_block {
	struct sl_block *next;
	max_align_t data[];
};

struct sl_task_chunk {
	struct sl_task_chunk *next;
};

struct sl_sim {
	const struct sl_machine *machine;
	const struct sl_topo *topo;
	const struct sl_speed_model *model;
	const struct sl_policy_ops *ops;
	void *policy_data;
	struct sl_params default_knobs;	/* when the caller bound none */
	uint64_t seed;
	bool check;
	const struct sl_observer *obs;

	sl_time now;
	sl_time time_limit;
	sl_time stop_at;		/* the time limit or the horizon, the earlier */
	bool stopped;
	struct sl_eventq q;
	uint64_t events;
	uint64_t events_by_ev[EV_DISK_DONE + 1];	/* per enum sl_ev_kind */
	uint64_t bursts_timed, node_retimes;	/* sl_event_counts' */
	uint64_t steps, step_limit;	/* programs' steps, and the config's bound (0: none) */

	unsigned hz;
	sl_time tick_ns;
	struct sl_event tick_ev;
	sl_time last_tick_at;		/* the last tick event's time (-1: none yet) */
	enum sl_tick_mode tick_mode;
	int tick_cpu;			/* walked: the CPU whose tick tick_ev serves */
	int *tick_order;		/* SYNC and ORDERED: this jiffy's order, ncpus entries */
	/* STAGGERED and BITREV each give CPU a phase of its own, and one
	 * event walks through the CPUs in phase order (tick_walk, the CPUs
	 * by phase; tick_rank, each CPU's place in it); the other modes
	 * tick every CPU at phase 0 */
	bool tick_walked;
	bool tick_walk_in_cpu_order;	/* tick_walk[i] == i (STAGGERED) */
	sl_time *tick_phase;		/* ncpus entries */
	int *tick_walk, *tick_rank;	/* ncpus entries each */
	struct sl_rng tick_rng;		/* SYNC: the race for the runqueue locks */
	bool nohz;			/* the policy stops idle CPUs' ticks (sl_set_nohz) */
	bool preempt_none;		/* SL_PREEMPT_NONE (sl_set_kernel_preempt) */
	struct sl_timers timers;	/* when a NANOSLEEP ends (sl_set_timers) */
	struct sl_pipes pipes;		/* the kernel's pipe (sl_set_pipes) */
	struct sl_sockets sockets;	/* its socket buffers (sl_set_sockets) */
	bool futex_by_prio;		/* its futex's order (sl_set_futex_by_prio) */
	bool migration_fifo99;		/* its migration thread's class (sl_set_migration_fifo99) */
	struct sl_writeback writeback;	/* its dirty thresholds (sl_set_writeback) */
	struct sl_task *acting;		/* the task whose actions sl__continue applies */
	sl_cpumask tick_on;		/* nohz: the CPUs whose tick runs */

	int ncpus;
	struct sl_cpu *cpus;
	/* per node: memory intensity of the running tasks drawing there, in
	 * units of 2^-40 (sl__demand_units): integers, so that the sum does
	 * not depend on the order of the changes nor drift from rounding */
	int64_t *mem_demand;
	double *node_cont;		/* per node: sl_numa_contention of mem_demand */
	/* Per node, then one for CPUs whose task draws on nothing at the
	 * moment and one (the last) for those whose task's memory is split
	 * over nodes: the CPUs whose running task draws on the node's
	 * bandwidth (bandwidth.c retime_later, restart_node), so that a
	 * change of a node's contention visits those, not the machine. */
	sl_cpumask *draw_mask;
	int mask_words;			/* words of a mask that can have CPUs */
	unsigned long draw_gen;		/* counts the changes of the masks */
	/* The nodes whose contention changed in this event and whose drawing
	 * CPUs are not re-timed yet (bandwidth.c sl__bandwidth_flush) */
	int *retime_nodes;		/* a ring of nnodes entries, in the order of the changes */
	int retime_head, nretime;
	uint8_t *retime_pending;	/* per node: listed in retime_nodes */
	uint64_t *retime_seq;		/* per node: the event places reserved at its last change */
	double *retime_from;		/* per node: its contention before its first change */
	/* Memos of the NUMA speed factors (sched.c task_speed): per run node
	 * for kernel work, per (home, run, class) for user work; each entry
	 * holds the contention it was computed for (-1: none yet). */
	struct sl_speed_memo *kspeed, *uspeed;
	/* One node, no bandwidth limit: every NUMA factor but that of
	 * memory split over nodes is 1 (sched.c task_speed) */
	bool numa_flat;
	/* Copies for sl__settle_work (sched.c) of model->touch_kb_per_ms and
	 * of whether the topology's LLC lies beyond the L2, taken when
	 * sl_sim_run starts */
	struct {
		double touch_kb_per_ms;
		bool llc_beyond_l2;
	} settle_cache;
	double *core_evicted_kb;	/* per core: lines brought into its L2 by the tasks
					 * run on any of its CPUs, cumulative (sched.c) */
	double *llc_evicted_kb;		/* per LLC: lines brought in there, cumulative
					 * (kept only where an LLC lies beyond the L2) */
	int *core_first, *core_cpus;	/* core k's CPUs, ascending: core_cpus[core_first[k]
					 * .. core_first[k+1]-1] (a mask's walk costs
					 * SL_MAX_CPUS / 64 words, this one its siblings) */
	int *deferred;			/* CPUs whose burst_deferred is set (sched.c) */
	int ndeferred;
	int ctx_cpu;			/* CPU whose code is running now, -1 none */

	/* tasks */
	struct sl_dlist all_tasks;	/* live tasks, creation order */
	int nr_live;			/* not yet freed */
	int nr_runnable;		/* state RUNNABLE */
	int next_id;
	int next_mm;
	struct sl_task *root;
	sl_cpumask root_allowed;	/* roots' cpus_allowed (sl_sim_set_root_allowed) */
	sl_cpumask idle_cpus;		/* CPUs running nothing, migration thread included
					 * (sl_cpu_idle); kept by sl__occupancy */
	const char *program_source;	/* the user's file the programs come from, or NULL */
	struct sl_task *free_tasks;
	struct sl_task_chunk *chunks;
	int chunk_tasks;			/* tasks in the next chunk (sl__task_alloc) */
	size_t task_stride;		/* task + policy area, aligned */

	/* totals of reaped tasks */
	struct sl_run_stats totals;
	sl_time root_start, root_end;

	struct sl_hist *lat[2][SL_LAT_GROUPS];	/* latency.c: [kind][group], on first use */
	struct sl_conserve cons;

	struct sl_blockdev *disk;	/* created on first use (blockdev.c) */
	struct sl_pagecache *pcache;	/* created on first use (pagecache.c) */

	struct sl_block *blocks;
	struct sl_err *run_err;		/* set when an invariant fails */
};

/* The live tasks in creation order (sim->all_tasks): the first, the next. */
static inline struct sl_task *sl__first_task(const struct sl_sim *sim)
{
	return sl_dlist_entry(sim->all_tasks.head, struct sl_task, all_link);
}

static inline struct sl_task *sl__next_task(const struct sl_task *t)
{
	return sl_dlist_entry(t->all_link.next, struct sl_task, all_link);
}

/* The task whose armed nanosleep hrtimer is link l of a CPU's hrtimers
 * (NULL for none). */
static inline struct sl_task *sl__hrtimer_task(const struct sl_dlink *l)
{
	return sl_dlist_entry(l, struct sl_task, hrt_link);
}

/*
 * The time `delta` after now, for an event.  While a run goes on, now is
 * at most SL_TIME_HORIZON (the event loop stops there); a delta beyond
 * the horizon (a sleep no loader bounded, a burst at a crawling speed)
 * lands beyond it too, at a time that cannot overflow, and the run stops
 * there with an input error (sl_sim_run).  One comparison: this is on
 * the path of every event.
 */
static inline sl_time sl__after(const struct sl_sim *sim, sl_time delta)
{
	return sim->now + (delta <= SL_TIME_HORIZON ? delta : SL_TIME_HORIZON + 1);
}

/*
 * Scheduler work an idle CPU does in its idle time (its tick's idle
 * balance, the schedule() that found nothing): it runs from now, after
 * any such work still running, and delays only a task that comes to the
 * CPU before it ends (sl__process_resched, the migration event), as the
 * kernel's idle task runs rebalance_tick or idle_balance and is accounted
 * idle, not to the next task.
 */
static inline sl_time sl__idle_work_from(const struct sl_sim *sim, const struct sl_cpu *c)
{
	return c->idle_work_until > sim->now ? c->idle_work_until : sim->now;
}

static inline void sl__idle_work(const struct sl_sim *sim, struct sl_cpu *c, sl_time ns)
{
	if (ns > 0)
		c->idle_work_until = sl__idle_work_from(sim, c) + ns;
}

/* Whether idle CPU c is still doing such work: it switches to a task, or
 * to its migration thread, only when that is done. */
static inline bool sl__idle_work_left(const struct sl_sim *sim, const struct sl_cpu *c)
{
	return !c->curr && !c->in_migration && c->idle_work_until > sim->now;
}

/* If idle CPU c is still doing such work, (re)queue `ev` (its IPI or its
 * migration thread's start) for the work's end, not earlier than it is
 * queued already, and say so: the caller acts then, not now. */
static inline bool sl__after_idle_work(struct sl_sim *sim, const struct sl_cpu *c,
				       struct sl_event *ev)
{
	if (!sl__idle_work_left(sim, c))
		return false;
	if (!sl_event_queued(ev) || ev->time < c->idle_work_until)
		sl_eventq_schedule(&sim->q, ev, c->idle_work_until);
	return true;
}

/* engine.c: the first task to become runnable while the tick is stopped
 * (nothing was runnable) calls this first: the policy's ticks_skipped. */
void sl__ticks_resume(struct sl_sim *sim);

/* sched.c */
/* The last two contentions a speed was computed for, newest first: a
 * node's contention flips between a few values (numaq-16's node 0 as
 * kernel phases start and end), and one entry missed at every flip back. */
struct sl_speed_memo {
	double cont[2], speed[2];
};
void sl__schedule(struct sl_sim *sim, int cpu);
/* t owes kernel costs (a switch's, a call's, the scheduler's, a lock's
 * spin) before its next action or its user work. */
static inline bool sl__owes_costs(const struct sl_task *t)
{
	return t->debt_sys > 0 || t->stall_ns > 0;
}
/* prev leaves c (preempted under SL_PREEMPT_NONE: its next burst ends at
 * a user return); the caller then updates c's occupancy */
void sl__switch_out(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *prev);
/* Set up and free sched.c's per-node state (the speed memos, and
 * bandwidth.c's). */
void sl__sched_init(struct sl_sim *sim);
void sl__sched_free(struct sl_sim *sim);
/* A running task's progress and accounting up to now; nothing to do
 * (most calls of a re-timing at one instant) costs a test. */
void sl__settle_work(struct sl_sim *sim, struct sl_cpu *c, sl_time wall);
static inline void sl__settle(struct sl_sim *sim, struct sl_cpu *c)
{
	sl_time wall = sim->now - c->seg_start;

	c->seg_start = sim->now;
	if (c->curr && wall > 0)
		sl__settle_work(sim, c, wall);
}
void sl__core_changed(struct sl_sim *sim, int core);

/* bandwidth.c: the nodes' memory bandwidth and the re-timing of the
 * tasks drawing on a node when its contention changes. */
void sl__bandwidth_init(struct sl_sim *sim);
void sl__bandwidth_free(struct sl_sim *sim);
/* Whether the machine's nodes have a bandwidth limit: only then does a
 * node's contention change and the draw masks matter. */
static inline bool sl__bandwidth_limited(const struct sl_sim *sim)
{
	return sim->model->node_bw > 0;
}
/* The node running task t draws on (sl__mem_node's, without its
 * intensity): the kernel's in a kernel phase, else its home (-1 until its
 * image touches memory).  kernel_node is sim->model->kernel_node, passed
 * in by the walks that read it once. */
static inline int sl__draw_node(int kernel_node, const struct sl_task *t)
{
	return t->kmem ? kernel_node : t->home_node;
}
/* mem_node of a task whose memory is split over the nodes of its
 * mem_split: it draws on each in proportion to its pages there. */
#define SL_MEM_SPLIT (-2)
/* The node whose memory running task t draws on now, and how much
 * (its memory intensity), or -1: none. */
static inline int sl__mem_node(const struct sl_sim *sim, const struct sl_task *t,
			       double *intensity)
{
	/* kernel work, its exec's included, runs against the kernel's
	 * memory whether or not the image has touched its own yet; user work
	 * of an image exec'd and not yet touching draws on nothing */
	int node = sl__draw_node(sim->model->kernel_node, t);
	*intensity = node < 0 ? 0 : t->kmem ? sim->model->kernel_mem_intensity
					  : sim->model->mem_intensity[t->wclass];
	return node >= 0 && !t->kmem && t->mem_split ? SL_MEM_SPLIT : node;
}
void sl__mem_demand_limited(struct sl_sim *sim, const struct sl_task *t, int sign, int mem_node,
			    double mi);
/*
 * Running task t starts (sign +1) or stops (-1) drawing on the memory of
 * its node (its home, or the kernel's in a kernel phase; the nodes of its
 * split memory); it stops drawing what it started with (t->mem_node,
 * t->mem_mi).  Inline: without a bandwidth limit (no mask is kept and no
 * contention changes) it only notes what t draws, and its call was 1.7 %
 * of a chat run on xeon-1600ht (a switch makes two, a change of work
 * class one).
 */
static inline void sl__mem_demand(struct sl_sim *sim, struct sl_task *t, int sign)
{
	double mi = t->mem_mi;
	int node = t->mem_node;

	if (sign > 0) {
		node = t->mem_node = sl__mem_node(sim, t, &mi);
		t->mem_mi = mi;
	} else {
		t->mem_node = -1;
		t->mem_mi = 0;
	}
	if (sl__bandwidth_limited(sim))
		sl__mem_demand_limited(sim, t, sign, node, mi);
}
void sl__mem_undraw_limited(struct sl_sim *sim, const struct sl_task *t, int mem_node,
			    double mi);
/*
 * Running task t stops drawing: sl__mem_demand's -1, or with `pause` one
 * for a +1 that follows before anything else looks at the draw masks (a
 * change of work class; a switch to another task, whose +1 it is): t's
 * CPU stays in its mask, out of which the +1 moves it only if that draws
 * elsewhere.  The -1's own walks (bandwidth.c first_change) find the CPU
 * in its node's own mask, where its task still draws (or, switched out,
 * without a task: its settle does nothing), and settle it as they did
 * when the -1 put it among those drawing on nothing (or in no mask): the
 * same settles, in the same CPU order.  Two mask moves fewer (a change of
 * class draws on the same node after as before; on numaq-16 most
 * switches are from kernel work to kernel work, on node 0).
 */
static inline void sl__mem_demand_stop(struct sl_sim *sim, struct sl_task *t, bool pause)
{
	double mi = t->mem_mi;
	int node = t->mem_node;

	t->mem_node = -1;
	t->mem_mi = 0;
	if (!sl__bandwidth_limited(sim))
		return;
	if (pause)
		sl__mem_undraw_limited(sim, t, node, mi);
	else
		sl__mem_demand_limited(sim, t, -1, node, mi);
}
/* Running task t enters (kernel) or leaves a kernel phase.  Out of line:
 * rare beside the re-timings that test for it (sched.c start_burst). */
void sl__kernel_phase_changes(struct sl_sim *sim, struct sl_task *t, bool kernel)
	__attribute__((noinline));
/* Re-time the nodes whose contention changed in this event (called by
 * sl__flush_bursts first). */
void sl__bandwidth_flush(struct sl_sim *sim);
/* The share of split memory s on `node` (0: none there; a part's share
 * is never 0). */
static inline double sl__split_share(const struct sl_mem_split *s, int node)
{
	for (int k = 0; k < s->n; k++)
		if (s->part[k].node == node)
			return s->part[k].share;
	return 0;
}
static inline bool sl__split_has(const struct sl_mem_split *s, int node)
{
	return sl__split_share(s, node) > 0;
}

/* first_touch.c: the pages of memory a task's actions touch first land on
 * the nodes where that work runs.  Running task t applies its next action,
 * which does (touch) or does not first-touch: its first touch starts, or
 * ends and its memory is placed. */
void sl__touch_action(struct sl_sim *sim, struct sl_task *t, bool touch);
/* t's work `work` on node `node` while touching. */
static inline void sl__touch_progress(struct sl_task *t, int node, double work)
{
	t->touch_work[node] += work;
}

/* A memory intensity (>= 0, at most 1) in the units of sim->mem_demand. */
static inline int64_t sl__demand_units(double intensity)
{
	return (int64_t)(intensity * 0x1p40 + 0.5);
}
/* ... and back: a demand in those units as memory intensity. */
static inline double sl__demand_intensity(int64_t units)
{
	return (double)units * 0x1p-40;
}
void sl__start_burst(struct sl_sim *sim, struct sl_cpu *c);
void sl__charge_running(struct sl_task *t, double work_ns, sl_time spin_ns);
/* The same, its event at place `seq` among equal times (one reserved
 * earlier with sl_eventq_take_seqs). */
void sl__start_burst_at(struct sl_sim *sim, struct sl_cpu *c, int kernel_node, uint64_t seq);
/* Cancel c's completion event, queued or deferred. */
void sl__cancel_burst(struct sl_sim *sim, struct sl_cpu *c);
/* Queue the completion events re-timed since the last call: before the
 * next event is taken (sched.c). */
void sl__flush_bursts(struct sl_sim *sim);
/* The speed c's running task has now (its timing took the speed then:
 * sl_task.speed); for the checks. */
double sl__speed_now(struct sl_sim *sim, struct sl_cpu *c);
void sl__burst_done(struct sl_sim *sim, struct sl_cpu *c);
void sl__process_resched(struct sl_sim *sim, int cpu);
/* SL_PREEMPT_NONE: whether a reschedule of c must wait for its task's
 * kernel exit (and if so, its burst now ends there). */
bool sl__waits_kernel_exit(struct sl_sim *sim, struct sl_cpu *c);
/* The migration thread takes c now (engine.c). */
void sl__migration_start(struct sl_sim *sim, struct sl_cpu *c);

/* lifecycle.c */
struct sl_task *sl__task_alloc(struct sl_sim *sim);
struct sl_task *sl__fork(struct sl_sim *sim, struct sl_task *parent,
			 const struct sl_action *a);
/* Run t's actions until it needs the CPU (true: including when a pending
 * reschedule of c stops it on its way back to user space) or blocked or
 * exited (false). */
bool sl__continue(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t);
/* An exec that asked to be moved runs again (on its new CPU, at the switch
 * in, before the switch's costs): its mm_release wakes its vfork parent. */
void sl__vfork_after_move(struct sl_sim *sim, struct sl_task *t);
void sl__after_switch_out(struct sl_sim *sim, struct sl_task *prev);
void sl__wake(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags);
void sl__free_all_tasks(struct sl_sim *sim);
void sl__add_task_totals(struct sl_run_stats *s, const struct sl_task *t);

/* sync.c */
void sl__waitq_add(struct sl_waitq *wq, struct sl_task *t);
void sl__waitq_remove(struct sl_task *t);
void sl__waitq_wake_all(struct sl_sim *sim, struct sl_waitq *wq, int waker_cpu, unsigned flags);
/* Wake the first waiter of wq, if any (a futex's FUTEX_WAKE of one). */
void sl__waitq_wake_one(struct sl_sim *sim, struct sl_waitq *wq, int waker_cpu, unsigned flags);
/* Bytes put on a channel by the kernel, not by a task's write (a caught
 * signal's trace): as much as fits, and its readers woken plainly, as by
 * a write (a plain channel's one per byte). */
void sl__chan_post(struct sl_sim *sim, struct sl_chan *ch, long bytes, int waker_cpu);
/* Apply a synchronisation action: 1 done, 0 blocked (t queued, state set). */
int sl__apply_sync(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t);

/* blockdev.c, pagecache.c: 1 done, 0 blocked (t asleep, uninterruptible) */
int sl__apply_disk(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t);
int sl__apply_dirty(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t);
void sl__disk_done(struct sl_sim *sim, struct sl_blockdev *d);
/* Put t to sleep on wq (NULL: on nothing, a request will wake it). */
void sl__sleep_io(struct sl_sim *sim, struct sl_waitq *wq, struct sl_task *t);

/* latency.c: t became runnable off a CPU (woken: by a wakeup or fork, else
 * preempted); t comes onto a CPU now. */
void sl__lat_queued(struct sl_sim *sim, struct sl_task *t, bool woken);
void sl__lat_dispatched(struct sl_sim *sim, struct sl_task *t);
void sl__lat_free(struct sl_sim *sim);

/* conserve.c */
void sl__conserve_init(struct sl_sim *sim);
void sl__conserve_free(struct sl_sim *sim);
/* Count the time since the last call with the state that held over it. */
void sl__conserve_advance(struct sl_sim *sim);
/* c's occupancy (curr, in_migration) may have changed: recount it. */
void sl__occupancy(struct sl_sim *sim, struct sl_cpu *c);
void sl__conserve_stats(const struct sl_sim *sim, struct sl_run_stats *out);
/* The workload's CPUs (root_allowed) changed: recount them. */
void sl__conserve_mask(struct sl_sim *sim);

/* Whether the task running on c asked c's migration thread, in its own
 * action, to move it and the thread has not run yet (sl_migration_wake):
 * it sleeps in wait_for_completion, so it does nothing more here. */
static inline bool sl__self_migration(const struct sl_cpu *c)
{
	return c->migration_pending && c->migration_now;
}

/* timers.c: how long after now task t's nanosleep of ns, started on
 * `cpu`, ends, and from which CPU its timer wakes it (*waker_cpu); or -1
 * when the kernel busy-waits it instead (2.4's real-time udelay). */
sl_time sl__nanosleep_wait(const struct sl_sim *sim, int cpu, const struct sl_task *t,
			  sl_time ns, int *waker_cpu);
/* timers.c: task t's nanosleep of ns, whose timer event is queued on `cpu`
 * at the end sl__nanosleep_wait gave (under HRTIMER its hard expiry), is
 * armed there with its soft expiry, now + ns; nothing under the other
 * kinds of timers. */
void sl__hrtimer_arm(struct sl_sim *sim, int cpu, struct sl_task *t, sl_time ns);
/* timers.c: an hrtimer interrupt of `cpu` now (its tick, an hrtimer's hard
 * expiry): every armed sleep whose soft expiry has passed ends, in the
 * order of their hard expiries, up to the first that has not. */
void sl__hrtimer_interrupt(struct sl_sim *sim, int cpu);
/* timers.c: t's armed nanosleep timer is off its CPU's list (it fired). */
void sl__hrtimer_disarm(struct sl_sim *sim, struct sl_task *t);

/* engine.c */
void sl__arm_tick(struct sl_sim *sim);
int sl__check(struct sl_sim *sim, struct sl_err *err);
int sl__check_timing(struct sl_sim *sim, struct sl_err *err);
/* Fire an observer callback if one is registered: OBSERVE(sim, sched_fork, a, b). */
#define OBSERVE(sim, cb, ...) do { \
	if ((sim)->obs && (sim)->obs->cb) \
		(sim)->obs->cb((sim)->obs->ctx, (sim)->now, __VA_ARGS__); \
} while (0)

#endif
