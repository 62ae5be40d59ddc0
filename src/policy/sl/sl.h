/*
 * sl/sl.h - policy `sl`: schedlab's own scheduler.  Per-CPU runqueues ordered
 * by weighted virtual runtime with generous, cache-friendly slices; a
 * topology-aware placement that fills whole idle cores before idle SMT
 * siblings and keeps ping-pong partners together; and a hierarchical
 * balancer (SMT core -> package -> node -> machine) that pulls queued,
 * cache-cold tasks, pushes a running task off a doubled-up core onto an
 * idle one through the migration thread, and crosses NUMA nodes only for
 * a lasting imbalance of a whole task.
 *
 * The code is split by idea:
 *   sl/queue.c    the per-CPU runqueue (a heap of vruntimes), slices,
 *                 sleeper credit, wakeup preemption, moving a queued task
 *   sl/place.c    where a forked, exec'ing or woken task goes
 *   sl/balance.c  the levels, periodic, newly-idle and active balancing
 *   sl/rt.c       SCHED_FIFO/RR: pushing and pulling RT tasks between CPUs,
 *                 live changes of class, nice and mask
 *   sl/sl.c          knobs, creation, the ops the engine calls, the check
 *
 * Sources: Nick Piggin's scheduler domains (2.6.12.1 kernel/sched.c: the
 * hierarchy and the newly-idle pull); Ingo Molnar's HT scheduler (F3, LKML
 * <Pine.LNX.4.44.0208270226190.12947-100000@localhost.localdomain>: an idle
 * package gets a task by active balancing); 6.12 kernel/sched/fair.c
 * select_idle_sibling() (the idle-core-first search); J.-P. Lozi et al., "The Linux Scheduler: a Decade of Wasted Cores", EuroSys 2016 (an idle core beside a queue
 * is a bug); docs/model.md (cache-hot tasks and migration cost; what
 * a switch, a migration and an SMT pair cost: the reason for each choice).
 * Docs: docs/policies/sl.md.
 */
#ifndef SL_POLICY_SL_SL_H
#define SL_POLICY_SL_SL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpumask.h"
#include "base/units.h"
#include "hw/topo.h"
#include "policy/prio_array.h"
#include "sim/sim.h"

#define SLS_NICE_0	1024	/* weight of a nice-0 task */
#define SLS_MAX_LEVELS	5	/* core, LLC, package, node, machine */
#define SLS_LOAD_MASKS	4	/* loads 0..3 each have a mask of their CPUs */

/* ---- per task ---- */

struct sls_ent {
	struct sl_prio_node rt_node;	/* RT: its place in the runqueue's rt array */
	struct sl_task *task;
	int cpu;		/* runqueue it belongs to (-1 before the first fork) */
	int heap_idx;		/* index in that queue's heap, -1 when not queued */
	bool on_rq;		/* queued or running (= runnable to the policy) */
	long weight;
	int nice;		/* the nice `weight` was computed for */
	int64_t vruntime;	/* ns of nice-0 CPU time */
	int64_t batch;		/* vruntime / batch_us when queued: the heap key */
	sl_time stamp;		/* when it last left its CPU (queued: the tie-break) */
	sl_time exec_start;	/* clock of the last vruntime update while running */
	sl_time sum_exec;	/* CPU time while picked */
	sl_time slice_start;	/* sum_exec when last picked */
	int mem_node;		/* where its image's memory went (first run after
				 * fork / exec), -1 not yet known */
	sl_time node_ns;	/* CPU time on the node it runs on, since it got there */
	int run_node;		/* that node */
	bool in_settled;	/* counted in its runqueue's nr_settled */
	bool rt;		/* SCHED_FIFO/RR as the policy last queued it */
	bool rt_queued;		/* on its runqueue's rt array */
	bool rt_tail;		/* RT: goes to the tail of its list when it stops
				 * running (RR slice over, yield), else the head */
	sl_time rr_start;	/* sum_exec when its current RR slice began */
	int mig_cpu;		/* the CPU whose migration thread is to move it, -1 */
};

/* An RT task's priority as the rt array orders it (0 best): 99 - rt_priority. */
static inline int sls_rt_prio(const struct sls_ent *e)
{
	return SL_MAX_RT_PRIO - 1 - e->task->rt_priority;
}

/* Queued, not running (in the heap or the rt array). */
static inline bool sls_queued(const struct sls_ent *e)
{
	return e->heap_idx >= 0 || e->rt_queued;
}

static inline struct sls_ent *sls_ent(const struct sl_task *t)
{
	return sl_task_policy(t);
}

/* ---- topology levels ---- */

/* A group of a level (a child span) and the load of its CPUs, kept up to
 * date as it changes (as the kernel keeps shared sched-domain state
 * between balances): the balancer reads one sum per group instead of
 * walking the group's CPUs. */
struct sls_group {
	int load;		/* sum of its CPUs' sls_load_of() */
	int weight;		/* CPUs in it */
	int before;		/* CPUs in the groups before it */
	int first, last;	/* its lowest and highest CPU */
};

/* One balancing level of one CPU: its span and the groups (child spans)
 * inside it, which are compared with each other.  The groups are the same
 * for every CPU of the span: the first CPU of the span owns them, the
 * others share them (sl/balance.c). */
struct sls_level {
	const sl_cpumask *span;	/* the topology's mask of a core, package, ... */
	int span_weight;	/* CPUs in the span */
	int span_first, span_last;	/* its lowest and highest CPU */
	int ngroups;
	struct sls_group *groups;	/* [ngroups], shared */
	sl_cpumask *group_cpus;		/* [ngroups], shared: their CPUs */
	int *max_load;		/* shared: at least every group's load (raised as
				 * loads rise, made exact by each full comparison) */
	int local;		/* this CPU's group */
	int before_local;	/* CPUs in the groups before the local one */
	bool same_weight;	/* all groups have as many CPUs */
	bool owner;		/* this CPU built (and frees) the shared parts */
	bool numa;		/* groups are NUMA nodes: the cautious rules apply */
	int interval;		/* ticks between balances */
	uint64_t next;		/* jiffy of the next balance */
	int imb_count;		/* consecutive balances that saw an imbalance (NUMA) */
};

/* ---- per CPU ---- */

struct sls_rq {
	int cpu;
	struct sls_ent **heap;	/* queued, not running: min-heap on vruntime */
	int nq, cap;
	struct sls_ent *curr;	/* running, not in the heap */
	struct sl_prio_array *rt;	/* queued RT tasks: FIFO lists by priority;
					 * sls.rt_none until the first arrives */
	int nr_running;		/* nq + rt.nr_active + (curr != NULL) */
	int64_t min_vruntime;	/* monotonic floor of the queue's vruntimes */
	bool wake_pending;	/* a wakeup would have preempted curr inside its
				 * protected first min_slice (knob wake_protect) */
	int64_t wake_vruntime;	/* the least vruntime of those woken tasks */
	struct sls_ent *preempted;	/* curr when a wakeup preempted it mid-slice
					 * (knob resume_preempted): the next pick
					 * after the wakee's takes it back */
	struct sls_ent *mig_ent;	/* the migration thread moves this task ... */
	int mig_dest;			/* ... to this CPU */
	int incoming;			/* moves to this CPU requested, not yet done */
	int nr_settled;			/* runnable tasks settled on this CPU's node
					 * (sls_settled), running one included */
	int nlevels;
	/* the loads of every group holding this CPU, and their levels'
	 * bounds: its own levels' local groups, and on an uneven topology
	 * (a package across nodes) groups of spans it has no level of */
	int nsums;
	int **sums, **max_loads;
	struct sls_level lv[SLS_MAX_LEVELS];
};

/* ---- the policy ---- */

/* Knob fork_spread: where the fork of a process (not a thread) goes
 * (sl/place.c). */
enum sls_fork_spread {
	SLS_FORK_OFF,		/* the parent's node */
	SLS_FORK_BUSY,		/* another node only when the parent's has no idle
				 * CPU (the default) */
	SLS_FORK_ALWAYS,	/* the least loaded node */
};

struct sls {
	struct sl_sim *sim;
	const struct sl_topo *topo;
	int ncpus;
	/* knobs */
	unsigned hz;
	sl_time slice, min_slice, latency;	/* slice = latency / nr, clamped */
	sl_time sleep_credit, wake_gran;
	bool wake_protect;	/* a picked task runs min_slice before a wakeup preempts it */
	bool newidle_numa;	/* a CPU about to idle pulls across nodes too (SLS_SHARING) */
	bool resume_preempted;	/* a task a wakeup preempted resumes its slice after the wakee */
	sl_time batch;		/* vruntime quantum within which the hottest runs first */
	sl_time rr_slice;	/* SCHED_RR's slice */
	int rt_queued;		/* RT tasks queued (not running) on every CPU */
	sl_time cache_hot;	/* a task that ran this recently is cache-hot */
	bool idle_core_first;	/* wakeups: an idle core beats a half-idle prev */
	bool sync_wake;		/* sync wakeups go to the waker's CPU / sibling */
	bool wake_away;		/* away from home, a wakeup takes an idle CPU there */
	bool active;		/* push a running task off a doubled-up core */
	bool newidle;
	bool exec_spread;	/* exec picks the least loaded node */
	int fork_spread;	/* where a forked process goes: enum sls_fork_spread */
	int numa_persist;	/* NUMA-level balances an imbalance must last */
	sl_time numa_settle;	/* CPU time on a node after which a task has settled */
	int pull_scan;		/* queued tasks a pull looks at (0: all) */
	sl_time scan_ns, pick_ns;
	int balance_ticks, numa_ticks;	/* periodic balance intervals */
	struct sls_rq *rq;	/* [ncpus] */
	/* kept as they change, so that no decision walks the machine */
	long node_load[SL_MAX_NODES];	/* sum of sls_load_of() per node */
	int node_weight[SL_MAX_NODES];	/* CPUs per node */
	int *node_order;	/* [nnodes][nnodes]: each node, then by distance */
	sl_cpumask waiting;	/* CPUs with tasks queued behind a running one */
	int *load;		/* [ncpus]: sls_load_of() of each, read by every scan */
	int *core_busy;		/* [ncores]: CPUs of the core with a load */
	sl_cpumask load_is[SLS_LOAD_MASKS];	/* CPUs with each small load (0: idle) */
	sl_cpumask idle_core;	/* CPUs whose whole core has no load */
	int span_words;		/* words of a mask that can hold a CPU */
	int node_lo[SL_MAX_NODES], node_hi[SL_MAX_NODES];	/* words of each node */
	uint64_t *next_balance;	/* [ncpus]: jiffy of its first rq->lv[].next */
	/* the rt array of every CPU no RT task has queued on yet: empty, never
	 * written (3.4 KB a CPU is not touched for nothing: 3.5 MB of page
	 * faults at start on 1,024 CPUs) */
	struct sl_prio_array rt_none;
};

static inline struct sls *sls_state(const struct sl_sim *sim)
{
	return sl_policy_data(sim);
}

/* What the balancer and placement count as a CPU's load: its runnable
 * tasks and the moves to it requested, not yet done. */
static inline int sls_load_of(const struct sls *s, int cpu)
{
	return s->load[cpu];	/* rq->nr_running + rq->incoming */
}

/* cpu's load went from `old` to or from a small one: the masks of loads
 * and of idle cores (sl/balance.c). */
void sls_load_masks(struct sls *s, int cpu, int old);

/* cpu's nr_running or incoming changed by delta (+-1): the sums and masks
 * that count it. */
static inline void sls_load_add(struct sls *s, int cpu, int delta)
{
	struct sls_rq *rq = &s->rq[cpu];
	int old = s->load[cpu];

	s->load[cpu] += delta;
	for (int i = 0; i < rq->nsums; i++) {
		int v = *rq->sums[i] += delta;
		if (v > *rq->max_loads[i])
			*rq->max_loads[i] = v;
	}
	s->node_load[s->topo->cpu_node[cpu]] += delta;
	if (old < SLS_LOAD_MASKS || s->load[cpu] < SLS_LOAD_MASKS)
		sls_load_masks(s, cpu, old);
}

static inline void sls_nr_add(struct sls *s, struct sls_rq *rq, int delta)
{
	rq->nr_running += delta;
	sls_load_add(s, rq->cpu, delta);
}

static inline void sls_incoming_add(struct sls *s, int cpu, int delta)
{
	s->rq[cpu].incoming += delta;
	sls_load_add(s, cpu, delta);
}

/* Tasks wait on rq's CPU behind a running one (an idle CPU's queued task
 * is about to run there: taking it would only move the wait); s->waiting
 * mirrors it for every CPU. */
static inline bool sls_waiting(const struct sls_rq *rq)
{
	return rq->nq && rq->curr;
}

/* rq's queue or running task changed: update s->waiting. */
static inline void sls_note_waiting(struct sls *s, const struct sls_rq *rq)
{
	if (sls_waiting(rq))
		sl_cpumask_set(&s->waiting, rq->cpu);
	else
		sl_cpumask_unset(&s->waiting, rq->cpu);
}

/* e has settled on the node of its runqueue: it has run numa_settle there
 * since it got there (its memory and cache are there to stay).  A task
 * queued on another node than the one it last ran on has not, whatever its
 * node_ns says (that is counted afresh when it first runs there). */
static inline bool sls_settled(const struct sls *s, const struct sls_ent *e)
{
	return e->cpu >= 0 && e->run_node == s->topo->cpu_node[e->cpu] &&
	       e->node_ns >= s->numa_settle;
}

/* e's runnable state, CPU, node or node_ns changed: count it in its
 * runqueue's nr_settled if it is runnable and settled there. */
static inline void sls_note_settled(struct sls *s, struct sls_ent *e)
{
	bool now = e->on_rq && sls_settled(s, e);

	if (now != e->in_settled) {
		s->rq[e->cpu].nr_settled += now ? 1 : -1;
		e->in_settled = now;
	}
}

/* ---- sl/queue.c ---- */

long sls_nice_weight(int nice);
/* Heap order: a runs before b. */
bool sls_before(const struct sls_ent *a, const struct sls_ent *b);
void sls_update_curr(struct sls *s, struct sls_rq *rq);
void sls_enqueue(struct sls *s, struct sls_rq *rq, struct sls_ent *e);
void sls_dequeue(struct sls *s, struct sls_rq *rq, struct sls_ent *e);
struct sls_ent *sls_peek(const struct sls_rq *rq);
void sls_put_prev(struct sls *s, struct sls_rq *rq);
void sls_set_curr(struct sls *s, struct sls_rq *rq, struct sls_ent *e);
/* The next task to run on rq after prev (sls_peek's, or the task a wakeup
 * preempted, to finish its slice: knob resume_preempted). */
struct sls_ent *sls_pick(struct sls *s, struct sls_rq *rq, const struct sls_ent *prev);
sl_time sls_slice(const struct sls *s, const struct sls_rq *rq);
/* A woken or new task is on rq: make that CPU reschedule if it should. */
void sls_check_preempt(struct sls *s, struct sls_rq *rq, struct sls_ent *e, bool sync);
void sls_tick_curr(struct sls *s, struct sls_rq *rq);
/* Rebase a vruntime from one queue to another (sleeping or queued task). */
void sls_rebase(struct sls *s, struct sls_ent *e, int dst);
/* Move a queued, not running task to dst and let dst reschedule. */
void sls_move_queued(struct sls *s, struct sls_ent *e, int dst);
/* Nothing runs or waits on cpu, and nothing is about to (no move to it
 * is pending). */
bool sls_idle(const struct sls *s, int cpu);
/* Every sibling of cpu's core is idle. */
bool sls_core_idle(const struct sls *s, int cpu);

/* ---- sl/place.c ---- */

int sls_select_fork(struct sls *s, struct sl_task *parent, struct sl_task *child);
int sls_select_exec(struct sls *s, struct sl_task *t);
int sls_select_wake(struct sls *s, struct sl_task *t, int waker_cpu, unsigned flags);
/* The most important task of cpu, e aside: an RT prio 0..99,
 * SL_MAX_RT_PRIO for a SCHED_NORMAL one, SL_MAX_PRIO if nothing is there. */
int sls_top(const struct sls *s, int cpu, const struct sls_ent *e);
/* Where RT task e runs soonest (see sl/place.c); prev may be -1. */
int sls_select_rt(struct sls *s, struct sls_ent *e, int prev, int charge_cpu);
/* Where a runnable task goes that its new mask forbids its CPU. */
int sls_select_allowed(struct sls *s, struct sl_task *t);

/* ---- sl/balance.c ---- */

void sls_build_levels(struct sls *s);
void sls_free_levels(struct sls *s);
void sls_balance_tick(struct sls *s, int cpu);
bool sls_newidle(struct sls *s, int cpu);
/* Ask cpu's migration thread to move e (running or queued there) to dest. */
void sls_request_move(struct sls *s, struct sls_ent *e, int dest);
/* Drop the move cpu's migration thread has pending, if any. */
void sls_cancel_move(struct sls *s, int cpu);
/* The load sums and the waiting mask agree with the runqueues (check op). */
int sls_check_sums(const struct sls *s, struct sl_err *err);

/* ---- sl/rt.c ---- */

/* A CPU is about to pick: pull the best RT task waiting elsewhere behind
 * an RT task as important as itself, if it beats what this CPU has. */
void sls_pull_rt(struct sls *s, int cpu);
/* Queued RT task e cannot run on its CPU now: move it where it can. */
void sls_push_rt(struct sls *s, struct sls_ent *e);
void sls_setscheduler(struct sl_sim *sim, struct sl_task *t, const struct sl_sched_attr *old);
void sls_set_allowed(struct sl_sim *sim, struct sl_task *t);

#endif
