/*
 * observer.h - watching a run: the scheduling events a trace records.
 *
 * The engine calls these at the points where the kernel fires its sched
 * tracepoints (include/trace/events/sched.h: sched_switch, sched_wakeup,
 * sched_process_fork/exec/exit, sched_migrate_task), so an observer can
 * write a perf-script or ftrace-style trace, or compute statistics the
 * engine does not keep.  Every callback is optional; the engine pays one
 * pointer test per event when nothing observes.  The migration thread is
 * not a task here: its preemptions show as the task leaving and, later,
 * coming back (or being pulled elsewhere).
 */
#ifndef SL_SIM_OBSERVER_H
#define SL_SIM_OBSERVER_H

#include "base/units.h"

struct sl_task;

struct sl_observer {
	void *ctx;
	/* `cpu` switches from prev to next (either NULL = the idle task);
	 * prev->state tells whether prev was preempted, blocked or exited. */
	void (*sched_switch)(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
			     const struct sl_task *next);
	/* t became runnable, woken from `waker_cpu` (its own last CPU for a
	 * timer). */
	void (*sched_wakeup)(void *ctx, sl_time now, const struct sl_task *t, int waker_cpu);
	/* parent (running on parent->cpu) created child; parent NULL for a
	 * workload's root task. */
	void (*sched_fork)(void *ctx, sl_time now, const struct sl_task *parent,
			   const struct sl_task *child);
	/* t, running, replaced its image (t->comm is the new name). */
	void (*sched_exec)(void *ctx, sl_time now, const struct sl_task *t);
	/* t exited (it is still on its CPU). */
	void (*sched_exit)(void *ctx, sl_time now, const struct sl_task *t);
	/* t, running, entered wait() (WAIT, or REAP's WNOHANG): the kernel's
	 * sched_process_wait, before any child is reaped. */
	void (*sched_wait)(void *ctx, sl_time now, const struct sl_task *t);
	/* the policy moved t from one CPU's queue to another's. */
	void (*sched_migrate)(void *ctx, sl_time now, const struct sl_task *t, int from_cpu,
			      int to_cpu);
};

#endif
