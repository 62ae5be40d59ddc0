/*
 * trace/stats.h - `schedlab trace stats FILE`: `perf sched latency`'s
 * per-task summary of a perf-script or ftrace text trace (a real `perf
 * sched record`, or a simulated run's --trace), and the wait percentiles
 * every simulated run reports, computed the same way, so a real and a
 * simulated run can be set side by side in one form.
 *
 * A task's wait starts at its wakeup (sched_waking, or sched_wakeup when no
 * waking came first; sched_wakeup_new, or for want of it the fork that
 * created it) or at a switch-out that leaves it
 * runnable (prev_state R: preempted), and ends at its next switch-in:
 * perf sched latency's "delay".  Waits after a wakeup are wakeup_lat_us;
 * every wait is runq_delay_us (sim/latency.c's definitions).  Runtime is
 * the time between a task's switch-in and its switch-out on that CPU;
 * switches count switch-ins.  The idle task (pid 0) is not a task.
 */
#ifndef SL_TRACE_STATS_H
#define SL_TRACE_STATS_H

#include <stdio.h>

#include "base/err.h"
#include "base/hist.h"
#include "base/pidmap.h"
#include "base/units.h"

struct sl_trace_task_stats {
	int pid;
	char comm[16];		/* the name it last had */
	sl_time runtime;
	long switches;
	long waits;
	sl_time wait_sum, wait_max;
	sl_time wait_max_at;	/* when the longest wait ended (its switch-in) */
	/* reader state */
	sl_time on_since;	/* switched in here, -1: not on a CPU */
	sl_time queued_at;	/* runnable since, -1: not waiting */
	int woken;		/* the wait began at a wakeup */
};

struct sl_trace_stats {
	struct sl_trace_task_stats *tasks;
	int ntasks, cap;
	struct sl_pidmap pids;		/* pid -> index */
	struct sl_hist wakeup, runq;	/* every task's waits, ns */
	int root;			/* > 0: only root's descendants count */
	struct sl_pidmap members;	/* ... which are these (pid -> 1) */
	long lines;
	sl_time first, last;
};

/* Read `in` (named `path` in messages): 0, or -1 with err set (exit 2 for a
 * line that does not parse, a trace with more than SL_TRACE_MAX_TASKS
 * tasks, an over-long line). */
int sl_trace_stats_read(FILE *in, const char *path, struct sl_trace_stats *st,
			struct sl_err *err);
/* The same for the tasks that `root` (a pid) forked, directly or through
 * its descendants, in the trace (sched_process_fork lines), root itself
 * not included: a system-wide recording of a run that `root` started
 * (real --latency). */
int sl_trace_stats_read_tree(FILE *in, const char *path, int root, struct sl_trace_stats *st,
			     struct sl_err *err);
/* The perf sched latency table, tasks by longest wait, then the
 * percentiles. */
void sl_trace_stats_print(FILE *out, const struct sl_trace_stats *st);
void sl_trace_stats_free(struct sl_trace_stats *st);

#endif
