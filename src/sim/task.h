/*
 * task.h - a simulated task (process or thread), as the engine keeps it.
 *
 * Policies read the fields in the first block and keep their own state in
 * the private area (sl_task_policy()); workloads drive a task through its
 * program (sim/prog.h).  The rest is the engine's.
 */
#ifndef SL_SIM_TASK_H
#define SL_SIM_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpumask.h"
#include "base/dlist.h"
#include "base/rng.h"
#include "base/units.h"
#include "hw/speed.h"
#include "sim/action.h"
#include "sim/eventq.h"

enum sl_task_state {
	SL_TASK_RUNNABLE,	/* queued or running */
	SL_TASK_SLEEPING,	/* blocked: timer, wait queue, child */
	SL_TASK_DEAD,		/* exited; awaiting reaping by its parent */
};

/* sched_setscheduler's policies, with the kernel's numbers (include/linux/sched.h). */
enum sl_sched_policy {
	SL_SCHED_NORMAL = 0,	/* SCHED_OTHER: the policy's time-sharing class */
	SL_SCHED_FIFO = 1,	/* real time: runs until it blocks, yields or a higher one comes */
	SL_SCHED_RR = 2,	/* real time: FIFO with a timeslice among equals */
	SL_SCHED_BATCH = 3,	/* 2.6.16+: never preempts on wakeup */
	SL_SCHED_IDLE = 5,	/* 2.6.23+: weight 3, below every nice level */
	SL_SCHED_DEADLINE = 6,	/* 3.14+: CBS + EDF */
};
#define SL_RT_PRIO_MAX 99	/* rt_priority 1..99 for FIFO and RR */

struct sl_prog;
struct sl_waitq;

/* A task's memory spread over nodes by where it was first touched
 * (first_touch.c): parts in ascending node order, shares summing to 1.
 * Never changed once made; threads share their creator's. */
struct sl_mem_split {
	int n;
	struct sl_mem_share part[];
};

struct sl_task {
	/* ---- read by policies ---- */
	int id;			/* creation index, 0 = the workload's root */
	char comm[16];
	enum sl_task_state state;
	int cpu;		/* logical CPU it is running on, -1 if not running */
	int last_cpu;		/* CPU it last ran on (-1 before its first run) */
	int nice;		/* -20..19 */
	int sched_policy;	/* enum sl_sched_policy */
	int rt_priority;	/* 1..99 for FIFO/RR (higher runs first), 0 otherwise */
	int mm;			/* address-space id: threads share it (2.4 goodness) */
	bool kthread;		/* kernel thread (no user mm) */
	sl_cpumask allowed;	/* cpus_allowed */
	struct sl_task *parent;
	struct sl_task *vfork_parent;	/* vfork()ed by it, which sleeps until this
					 * task execs or exits (mm_release) */
	bool vfork_after_move;	/* its exec asked to be moved: mm_release wakes
				 * vfork_parent where it next runs (lifecycle.c) */
	sl_time last_ran;	/* engine time it last left a CPU (ns) */
	sl_time woken_at;	/* engine time of its last wakeup */
	sl_time slept_at;	/* engine time it last blocked */
	bool uninterruptible;	/* its last sleep was uninterruptible (I/O) */

	/* ---- workload ---- */
	const struct sl_prog *prog;
	void *prog_state;		/* owned by the workload */
	struct sl_rng rng;		/* this task's own stream */
	struct sl_action act;		/* the action in progress */
	long result;			/* result of the last finished action */
	enum sl_wclass wclass;		/* class of the current compute work */
	unsigned footprint_kb;		/* cache footprint */
	bool random_access;		/* touches it at random (a footprint larger
					 * than a cache then mostly misses there;
					 * hw/speed.h sl_cache_lost_kb) */
	int home_node;			/* memory node by first touch (-1 before); with
					 * mem_split, the node holding the most of it */
	const struct sl_mem_split *mem_split;	/* its memory over several nodes
					 * (first_touch.c); NULL: all on home_node */
	bool touch_pending;		/* exec'd: first touch when exec's cost is paid */
	bool touching;			/* its action first-touches its memory: the
					 * pages land where it runs (first_touch.c) */
	double *touch_work;		/* per node, the work done while touching */
	bool steady_speed;		/* runs at the reference speed whatever shares its
					 * core or memory: its work is CPU time (a trace
					 * replayed with bursts=time) */
	int tag;			/* workload's own label (e.g. "measured") */
	int lat_group;			/* latency group (1 .. SL_LAT_GROUPS - 1) its
					 * waits are also counted in; 0: none */
	int *oncpu_count;		/* if the workload sets it: a count the engine
					 * keeps, +1 while the task is some CPU's
					 * sl_curr() (how many of a group run now,
					 * without a scan of the CPUs) */

	/* ---- accounting (read by reports) ---- */
	sl_time user_ns, sys_ns;	/* wall time on CPU, as the kernel charges */
	sl_time start_ns, end_ns;
	double work_done;		/* reference ns completed */
	long nvcsw, nivcsw;		/* voluntary / involuntary switches */
	long nmigrations;
	sl_time node_ns[4];		/* run time on nodes 0..3 (schedbench tables) */

	/* ---- engine private ---- */
	struct sl_dlink all_link;		/* in sim's all_tasks, creation order */
	struct sl_task *wq_next;		/* link in the wait queue it sleeps on */
	struct sl_waitq *waitq;			/* that wait queue, or NULL */
	struct sl_task *zombie_next;		/* link in the parent's zombie FIFO */
	struct sl_task *zombies, *zombies_tail;	/* exited children, in exit order */
	int nchildren;				/* children not yet reaped */
	bool catches_sigchld;			/* a handler for SIGCHLD (until exec):
						 * sl_task_catch_sigchld */
	struct sl_chan *sigchld_bell;		/* its trace of the handler, or NULL */
	double work_left;			/* of the current compute action (ref ns) */
	double debt_sys;			/* kernel work to do first (ref ns) */
	sl_time stall_ns;			/* before even that: wall time spinning on a
						 * lock, which no speed shortens */
	double debt_user;			/* cache refill stalls, before the work */
	bool act_sys;				/* current compute counts as system time */
	bool absorb_costs;			/* set by its program: costs charged while
						 * it runs come out of its work, or of the
						 * cost it is paying (sched.c
						 * sl__charge_running; a replayed task) */
	bool kmem;				/* in a kernel phase on a machine whose kernel
						 * memory is on one node: its speed and memory
						 * demand are the kernel's (sched.c) */
	int mem_node;				/* node its running adds to mem_demand, -1: none,
						 * SL_MEM_SPLIT: the nodes of mem_split */
	double mem_mi;				/* ... and how much */
	bool need_step;				/* ask the program for the next action */
	bool need_apply;			/* t->act has not taken effect yet */
	bool user_return;			/* its burst ends where it returns to user
						 * space: a call's last costs (sl__continue),
						 * or a new task's first switch-in, which ends
						 * in ret_from_fork */
	int act_phase;				/* progress of a multi-step action */
	unsigned long barrier_gen;		/* generation it waits for to pass */
	struct sl_event timer;			/* its sleep timer */
	/* an HRTIMER nanosleep's place on its CPU's list (timers.c): the
	 * expiry it asked for (the event's time is the hard one), -1 when
	 * not armed */
	sl_time hrt_soft;
	struct sl_dlink hrt_link;
	double cache_mark;			/* its core's L2 evictions when it left */
	double llc_mark;			/* its package's llc_evicted_kb then */
	sl_time dispatched_at;			/* when it last came onto a CPU */
	sl_time queued_at;			/* when it last became runnable off a CPU */
	bool lat_woken;				/* ... by a wakeup or fork (latency.c) */
	double speed;				/* current speed while running */
	struct sl_task *free_next;		/* task pool free list */
	void *policy_area;			/* policy private (task_size bytes) */
};

static inline void *sl_task_policy(const struct sl_task *t) { return t->policy_area; }
static inline bool sl_task_rt(const struct sl_task *t)
{
	return t->sched_policy == SL_SCHED_FIFO || t->sched_policy == SL_SCHED_RR;
}

#endif
