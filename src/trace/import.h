/*
 * trace/import.h - a kernel scheduling trace turned into a replayable
 * workload (the `trace` workload, workload/trace_replay.h).
 *
 * Input: the text `perf script` prints for a `perf sched record` session
 * (comm, tid, [cpu], timestamp, "sched:event:", fields), or ftrace's text
 * (comm-pid, optional (tgid), [cpu], flags, timestamp, "event:", fields),
 * as schedlab's own exporter writes them (trace/perf.h) and as real
 * kernels do (the TP_printk formats of 6.12 include/trace/events/sched.h;
 * Documentation/trace/ftrace.rst, "Output format"; perf-script(1)).  sched_switch, sched_waking,
 * sched_wakeup, sched_wakeup_new and sched_process_fork / exec / exit shape
 * the workload; every other event is skipped and counted; lines starting
 * with '#' and blank lines are comments.  Lines must be in time order.
 *
 * Output: a JSON object (json-c) describing each task: pid, comm, prio (the
 * one it ran at longest), parent and children, its recorded CPU time, and
 * its ops in order - CPU bursts (with the on-CPU segments between
 * preemptions), timed sleeps, waits for a wakeup by a named task or for a
 * child's exit, the wakeups it gives, forks, execs and its exit.
 * docs/traces.md describes the format and the model; the field names are
 * the replay's contract.
 *
 * CPU time is what the CPUs' timelines give (one task per CPU at a time; a
 * task never switched in has none; docs/traces.md "The CPUs' timelines"),
 * so the kept tasks' CPU time is at most CPUs x span; the stats say what
 * the repairs of a trace with missing lines dropped.
 *
 * Errors: a line that does not parse, or a sched event with a missing or
 * malformed field, is an input error "FILE:LINE: ..." (exit 2); so is a
 * result that fails the timelines' check (a guard).
 */
#ifndef SL_TRACE_IMPORT_H
#define SL_TRACE_IMPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"
#include "trace/lines.h"

struct json_object;

#define SL_TRACE_FORMAT_VERSION 1	/* "schedlab_trace" in the JSON */
#define SL_TRACE_MAX_PIDS 16
#define SL_TRACE_SKIP_NAMES 6		/* skipped event names reported by count */
#define SL_TRACE_DROPS 3		/* repaired tasks named, by CPU time dropped */

/* Which tasks become the workload. */
enum sl_trace_select {
	SL_SELECT_AUTO,		/* the command perf recorded ("perf-exec" that execs), else all */
	SL_SELECT_ALL,		/* every task but the idle ones (pid 0) */
	SL_SELECT_PIDS,		/* the tasks of `pids` and their descendants */
};

/* What an import holds is bounded (docs/robustness.md, "Files"): the
 * tasks' timelines, at most this many ops and run segments (32 and 8
 * bytes each; a workload the replay's 1 GiB of JSON could hardly hold)
 * and tasks; a trace that needs more is refused at the line that
 * exceeds it (exit 2).  A line is at most SL_TRACE_MAX_LINE bytes. */
#define SL_TRACE_MAX_OPS (1L << 23)
#define SL_TRACE_MAX_TASKS (1 << 20)

struct sl_trace_import_opts {
	enum sl_trace_select select;
	int npids;
	int pids[SL_TRACE_MAX_PIDS];
	long max_ops;		/* 0: SL_TRACE_MAX_OPS */
	int max_tasks;		/* 0: SL_TRACE_MAX_TASKS */
};

struct sl_trace_import_stats {
	long lines;		/* event lines read */
	long used;		/* sched events that shaped the workload */
	long skipped;		/* other events */
	int nnames;		/* the most frequent skipped event names, by count */
	struct {
		char name[48];
		long count;
	} names[SL_TRACE_SKIP_NAMES];
	int tasks_seen, tasks_kept;
	bool command;		/* SL_SELECT_AUTO found perf's command ... */
	int command_pid;	/* ... this pid */
	char command_comm[16];	/* ... named so after its exec */
	/* the workload's check (of the tasks kept) */
	long long cpu_ns;	/* their CPU time */
	long long span_ns;	/* the workload's span */
	int cpus;
	/* the repairs (of the tasks kept; docs/traces.md "Repairs") */
	long cuts;		/* runs cut short: another task showed on the CPU */
	int never_switched;	/* tasks never switched in, their runs dropped */
	int repaired_tasks;	/* tasks with CPU time dropped */
	long long dropped_ns;	/* CPU time the trace alone would have given them */
	int ndrops;
	struct {
		char comm[16];
		int pid;
		long long ns;
	} drops[SL_TRACE_DROPS];	/* the largest drops */
};

/*
 * Read the trace text from `in` (named `path` in messages), a line at a
 * time, select tasks by `opts` (NULL: SL_SELECT_AUTO) and write the
 * workload to the file `out` as it goes ("-": standard output; otherwise
 * a temporary file beside it, renamed over it once complete: base/
 * outfile.h), pretty-printed as json-c prints it.  0, or -1 with err set
 * and nothing written.  `stats` may be NULL.
 */
int sl_trace_import_to(FILE *in, const char *path, const char *out,
		       const struct sl_trace_import_opts *opts,
		       struct sl_trace_import_stats *stats, struct sl_err *err);

/*
 * The same, the workload returned as a new JSON object (release with
 * json_object_put), or NULL with err set: for tests and small traces, as
 * the tree takes about ten times the size of the text.
 */
struct json_object *sl_trace_import(FILE *in, const char *path,
				    const struct sl_trace_import_opts *opts,
				    struct sl_trace_import_stats *stats, struct sl_err *err);

/* Write `workload` to `path` (pretty-printed JSON); -1 with err set. */
int sl_trace_write_json(const struct json_object *workload, const char *path,
			struct sl_err *err);

#endif
