/*
 * trace/import_model.h - the trace import's model, shared by its steps
 * (internal to src/trace; the whole import is described in import.c):
 * per task its state and the timeline of ops the trace shows, per CPU who
 * holds it.  import_read.c builds it from the lines, import_plan.c chooses
 * the tasks to keep and checks their timelines, import_write.c writes them
 * as a workload, and import.c runs the three.
 */
#ifndef SL_TRACE_IMPORT_MODEL_H
#define SL_TRACE_IMPORT_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/pidmap.h"
#include "base/units.h"
#include "trace/import.h"
#include "trace/lines.h"

#define TI_COMM SL_TRACE_COMM

/* ---- the model ---- */

enum ti_state {
	TS_NEW,		/* seen, state before the trace unknown yet */
	TS_RUNNABLE,	/* preempted, woken or new */
	TS_RUNNING,	/* on cpu since on_since */
	TS_SLEEPING,	/* asleep since asleep_since */
	TS_EXITING,	/* past its exit event, still on a CPU */
	TS_DEAD,
};

enum ti_op_kind { OP_RUN, OP_SLEEP, OP_WAIT, OP_WAIT_CHILD, OP_WAKE, OP_FORK, OP_EXEC, OP_EXIT,
		  OP_REAP,
		  OP_VFORK_DONE };	/* a vfork's wait or its end's wake, which the
					 * fork op says (import_vfork.c): not written */

/* An op of a task's timeline: 32 bytes, as a trace holds millions. */
struct ti_op {
	unsigned char kind;	/* enum ti_op_kind */
	char state;		/* SLEEP, WAIT, WAIT_CHILD: 'S' or 'D'; FORK: 'V' for
				 * a vfork (import_vfork.c) */
	bool from_start : 1;	/* SLEEP, WAIT: asleep since before the trace */
	bool at_end : 1;	/* EXIT: the trace ended, not the task */
	bool outside_wait : 1;	/* WAIT_CHILD: an interruptible sleep that did not
				 * begin in wait(): woken by the child's SIGCHLD
				 * (ti_finish_tasks) */
	bool caught : 1;	/* WAIT_CHILD: its task's image catches SIGCHLD
				 * (ti_finish_tasks) */
	union {
		int task;	/* WAIT: waker; WAIT_CHILD, FORK: child; WAKE: wakee;
				 * REAP: the waiting task itself */
		int prio;	/* RUN: the prio its last segment ran at */
	};
	sl_time t0;		/* when; SLEEP, WAIT, WAIT_CHILD: asleep from t0 ... */
	union {
		sl_time t1;	/* ... to t1 */
		sl_time ns;	/* RUN: on-CPU time; EXIT: exit event to final switch */
	};
	union {
		int seg0;	/* RUN: its on-CPU segments in the pool */
		int comm;	/* EXEC: the new name in the comm pool */
	};
	int nseg;
};

/* Distinct prios a task's CPU time is counted under (ti_task.ran); a
 * fifth and later prio shown is not counted (a task renices or changes
 * class a few times at most). */
#define TI_PRIOS 4

struct ti_ran {
	int prio;
	sl_time ns;
};

struct ti_task {
	int pid;
	int tgid;		/* its thread group, once a line in its context shows
				 * it (perf's PID/TID, ftrace's TGID); -1 unknown */
	int prio;		/* shown by the latest line naming it with one (a
				 * child, until it runs: its parent's at the fork) */
	struct ti_ran ran[TI_PRIOS];	/* CPU time at each prio shown */
	int nran;
	char comm[TI_COMM];	/* name when first seen */
	char now_comm[TI_COMM];	/* name now */
	int parent;		/* index, -1 none known */
	bool forked;		/* its fork is in the trace */
	bool perf_exec;		/* perf's workload child: "perf-exec" that exec'd */
	int perf_exec_op;	/* ... its exec op */
	enum ti_state st;
	sl_time first, last;	/* first and last seen */
	sl_time on_since;	/* RUNNING: start of the open segment */
	sl_time asleep_since;	/* SLEEPING */
	bool asleep_from_start;
	char asleep_state;
	sl_time exit_at;	/* EXITING: its exit event */
	int cpu;		/* the CPU whose timeline it holds, -1 none */
	bool switched;		/* a sched_switch line names it */
	bool from_start;	/* it held a CPU from the start of the trace */
	sl_time lost_at;	/* cut off its CPU here, not seen since; -1 */
	sl_time dropped;	/* CPU time the repairs did not give it */
	int cuts;		/* runs cut short: their switch-out is missing */
	sl_time *segs;		/* closed segments of the run being gathered */
	int nsegs, capsegs;
	struct ti_op *ops;
	int nops, capops;
	int *children;
	int nchildren, capchildren;
	bool kept;
	int json_id;
};

/* A CPU's timeline: who holds it now.  `task` is the task the CPU's lines
 * show (-1: idle, or a pid with no record yet, `pid`), since `since`. */
struct ti_cpu {
	int task;
	int pid;		/* its pid, 0 idle or unknown */
	sl_time since;
	sl_time busy_until;	/* the end of the last time given on it */
	bool seen;		/* a line has shown this CPU */
	bool start;		/* `pid` has held it since the trace began */
};

struct ti_skip {
	char name[48];
	long count;
};

struct ti {
	struct sl_trace_src src;	/* the input, its line, where errors go */
	bool any;			/* an event line was seen */
	bool saw_wait;			/* a sched_process_wait line was seen */
	sl_time first_ts, last_ts;
	sl_time end_ts;			/* the end of the trace: its last line, or later */
	struct ti_task *tasks;
	int ntasks, captasks;
	struct sl_pidmap pids;		/* pid -> task index */
	struct ti_cpu *cpu;		/* each CPU's timeline */
	int ncpus;
	int overlap_task;		/* the timelines' check: a task given */
	int overlap_cpu;		/* time another had on its CPU (-1 none) */
	sl_time overlap_at;
	sl_time *pool;			/* run segments of all run ops */
	int npool, cappool;
	char (*comms)[TI_COMM];		/* exec ops' names */
	int ncomms, capcomms;
	long stored;			/* ops and run segments stored */
	long max_ops;			/* ... at most; tasks at most: */
	int max_tasks;
	struct ti_skip skip[64];	/* skipped events by name */
	int nskip;
	long skip_other;
	long lines, used, skipped;
};

/* What the workload will be: the tasks kept and numbered, its origin and
 * span, checked.  0, or -1 with err set (nothing to write). */
struct ti_plan {
	int command;		/* perf's command, -1 none */
	sl_time origin, span;
};

/* ---- reading (import_read.c) ---- */

/* The lines, one at a time: nothing of a line is kept but what the
 * tasks' timelines take from it.  0, or -1 with m->src.err set. */
int ti_read_lines(struct ti *m, FILE *in);
/* The end of the trace: tasks still alive exit there. */
void ti_finish_tasks(struct ti *m);
/* What was read and what skipped, by event name. */
void ti_fill_stats(const struct ti *m, struct sl_trace_import_stats *st);
void ti_free(struct ti *m);

/* ---- choosing (import_plan.c) ---- */

/* Keep and number the tasks, set the workload's origin and span, and
 * check the timelines; 0, or -1 with err set (nothing to write). */
int ti_plan_workload(struct ti *m, const struct sl_trace_import_opts *o, struct ti_plan *p,
		     struct sl_trace_import_stats *st);

/* The CPU time the JSON gives a kept task: its runs, unless it has none. */
sl_time ti_task_cpu(const struct ti_task *t, bool command);
/* Whether child c is a thread of its parent p: both seen in one thread
 * group (a trace whose task column shows no groups has no threads). */
static inline bool ti_is_thread_of(const struct ti_task *c, const struct ti_task *p)
{
	return c->tgid > 0 && c->tgid == p->tgid;
}
/* The prio the JSON gives a task: the one it ran longest at (the first
 * such), or the last it was shown with if it never ran. */
int ti_task_prio(const struct ti_task *t);

/* ---- vforks (import_vfork.c) ---- */

/* Mark the forks of kept tasks that were vforks: the parent's next op but
 * runs is an uninterruptible wait for the child, which the child's first
 * exec (or its exit) ends. */
void ti_mark_vforks(struct ti *m);

/* ---- writing (import_write.c) ---- */

/* The workload as JSON, written as it goes (json_stream.h): no more
 * memory than the tasks' timelines already hold. */
void ti_workload_out(FILE *f, const struct ti *m, const struct ti_plan *p);

/* ---- shared by the steps ---- */

/* A task no sched_switch line names, and that did not hold a CPU from the
 * start of the trace, was never switched in: it has no CPU time, whatever
 * lines show it running (its switch-in and switch-out are not in the trace,
 * so nothing bounds its time). */
static inline bool ti_no_cpu(const struct ti_task *t)
{
	return !t->switched && !t->from_start;
}

/* The ops a task's JSON starts from: perf's command after its exec. */
static inline int ti_first_op(const struct ti_task *t, bool command)
{
	return command ? t->perf_exec_op + 1 : 0;
}

/* a + b for times that are not negative, held at INT64_MAX: a hostile
 * trace's clock may reach 292 years, and two such spans overflow */
static inline sl_time ti_add_sat(sl_time a, sl_time b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

#endif
