/*
 * trace/perf.h - a simulated run written as a kernel scheduling trace.
 *
 * The writer is an engine observer (sim/observer.h): every sched_switch,
 * wakeup, fork, exec, exit and migration of the run becomes one line of
 * the text `perf script --ns` prints for a `perf sched record` session
 * (perf-script(1); the fields are the TP_printk formats of 6.12
 * include/trace/events/sched.h), or of ftrace's `trace` file
 * (Documentation/trace/ftrace.rst, "Output format"), which Perfetto opens
 * with one track per CPU (its systrace text importer).  `schedlab trace import` reads both
 * back (trace/import.h).
 *
 * What the trace shows (docs/traces.md has examples):
 *   - one CPU per logical CPU of the machine, numbered as the machine is;
 *   - task id N as pid SL_TRACE_PID_BASE + N, its comm, prio 120 + nice;
 *     the idle task as pid 0 ("swapper/N" in sched_switch, "swapper" in
 *     perf's comm column, "<idle>" in ftrace's);
 *   - the engine's migration thread as the kernel thread "migration/N",
 *     pid SL_TRACE_KTHREAD_PID + N, prio 0, on the CPU it preempts;
 *   - each wakeup as sched_waking then sched_wakeup, in the context of
 *     the task that caused it (a writer, an unlocker, the last task at a
 *     barrier, an exiting child waking its parent); wakeups no task
 *     caused (a sleep's timer, an I/O completion) in the context of pid 0,
 *     as on an idle CPU.  target_cpu is the CPU the task last ran on: the
 *     policy places it after the tracepoint (a sched_migrate_task line
 *     follows when it moves);
 *   - sched_process_fork, sched_process_exec (filename = the new comm),
 *     sched_process_exit, and sched_migrate_task for every move a policy
 *     notes.  No sched_wakeup_new: a new task's CPU is chosen after the
 *     fork tracepoint.
 * Timestamps are simulated time from 0, in seconds with 9 decimals (as
 * `perf script --ns`), and lines are in time order.  The chrome format
 * shows the same events as JSON (trace/chrome.h): each CPU's lane between
 * two switches as a slice, every other line as an instant event.
 *
 * Writing a line formats text; nothing else is allocated per event except
 * the ftrace tgid table, which grows (doubling) with the address spaces.
 */
#ifndef SL_TRACE_PERF_H
#define SL_TRACE_PERF_H

#include <stdio.h>

#include "base/err.h"
#include "hw/machine.h"
#include "sim/observer.h"

#define SL_TRACE_PID_BASE 1000		/* pid of the workload's task 0 */
#define SL_TRACE_KTHREAD_PID 2		/* pid of migration/0 */

enum sl_trace_format {
	SL_TRACE_PERF,		/* `perf script --ns` output of `perf sched record` */
	SL_TRACE_FTRACE,	/* ftrace's trace file ("# tracer: nop"): Perfetto's CPU tracks */
	SL_TRACE_CHROME,	/* Chrome trace-event JSON (trace/chrome.h) */
	SL_TRACE_SLICES,	/* no text: each CPU's lanes to a callback (sl_trace_writer_slices) */
};

struct sl_trace_writer;

/* A writer of `format` lines to `out` (opened and closed by the caller)
 * for a run on `machine`.  `title` (one line: policy, workload, seed) goes
 * into the header comment. */
struct sl_trace_writer *sl_trace_writer_new(FILE *out, enum sl_trace_format format,
					    const struct sl_machine *machine, const char *title);
/* `comm` (pid, latency group `group`, 0: none) ran on `cpu` from `start`
 * to `end`: a task, or the migration thread ("migration/N", pid
 * SL_TRACE_KTHREAD_PID + N); idle is the time no slice covers.  Called in
 * order of `end`. */
typedef void (*sl_trace_slice_fn)(void *ctx, int cpu, const char *comm, int pid, int group,
				  sl_time start, sl_time end);
/* A writer that writes nothing and hands every CPU's lanes, as the chrome
 * format shows them, to `fn` (the HTML report's timeline, report/html.h);
 * sl_trace_writer_finish() closes the lanes still open. */
struct sl_trace_writer *sl_trace_writer_slices(const struct sl_machine *machine,
					       sl_trace_slice_fn fn, void *ctx);
/* The observer to put in sl_run_spec.observer; valid while the writer is. */
const struct sl_observer *sl_trace_writer_observer(struct sl_trace_writer *w);
/* After the run, which ended at `end` (its elapsed time: a time limit
 * may stop it after its last event): close what is still open (a
 * migration thread's run), note the end in a comment that import reads
 * ("# schedlab: end of run at SECONDS"), and flush.  -1 with an internal
 * error if the output could not be written. */
int sl_trace_writer_finish(struct sl_trace_writer *w, sl_time end, struct sl_err *err);

#define SL_TRACE_END_COMMENT "# schedlab: end of run at "
void sl_trace_writer_free(struct sl_trace_writer *w);

/* "perf", "ftrace" or "chrome"; -1 with err naming `opt` otherwise. */
int sl_trace_format_parse(const char *opt, const char *text, enum sl_trace_format *format,
			  struct sl_err *err);

#endif
