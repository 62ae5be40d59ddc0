/*
 * trace/import.c - perf script / ftrace text to a replayable workload (see
 * trace/import.h; the model is described in docs/traces.md).
 *
 * One pass over the lines keeps, per task, its state (running on a CPU,
 * runnable, asleep since, exiting, dead) and appends ops as the trace
 * shows them:
 *   - on-CPU time is gathered into a run op until something ends it: the
 *     task sleeps, exits, forks, execs or wakes another task.  Preemptions
 *     (prev_state R) do not end a run (LinSched's replay rule: Calandrino
 *     et al., "LinSched: The Linux Scheduler Simulator", 2008); the on-CPU
 *     segments between them are kept, so that a replay on the recorded
 *     machine and policy can follow the recorded schedule;
 *   - a sleep ends at the wakeup (sched_waking, or sched_wakeup when there
 *     is no sched_waking).  The line's context tells who woke it: pid 0 (an
 *     interrupt on an idle CPU) or the task itself make a timed sleep; an
 *     exiting child waking its parent makes a wait for that child; any
 *     other task makes a wait for that task, which gets a wake op at that
 *     point of its own timeline;
 *   - tasks that existed before the trace start as they are first seen:
 *     asleep (first seen being woken) or running or runnable since the
 *     trace began; tasks still alive at the end exit there.
 * Then the tasks to keep are chosen (perf's recorded command and its
 * descendants, given pids and theirs, or all), renumbered in order of
 * first appearance, and written as JSON; waits for tasks not kept become
 * timed sleeps.
 *
 * Memory: the lines are read one at a time (at most SL_TRACE_MAX_LINE
 * bytes each) and only the tasks' timelines are kept - 32 bytes an op, 8
 * a run segment - and the JSON is written as it is produced
 * (trace/json_stream.h), never built as a tree (which took ten times the
 * text).  The ops and segments and the tasks are capped
 * (SL_TRACE_MAX_OPS, SL_TRACE_MAX_TASKS): the line that goes over is an
 * input error naming the limit.
 *
 * CPU time comes only from the CPUs' timelines: each CPU runs the one task
 * its lines show (a line's context is on its CPU), from its switch-in (or
 * the trace's start, or its first line there when the switch-in is
 * missing) to its switch-out or the first line showing another task there;
 * a task no sched_switch names gets none.  So a trace that lost lines - a
 * busy host's perf record does - cannot give a CPU's time twice; what the
 * repairs dropped is reported (sl_trace_import_stats), and the import
 * refuses a result whose CPU time still exceeds CPUs x span or overlaps.
 * Other inconsistencies (a wakeup of a task that never slept) are resolved
 * in the simplest way; lines that do not parse, or out of time order, are
 * errors.
 *
 * The three steps - reading the lines (import_read.c), choosing and
 * checking the tasks (import_plan.c), writing the workload
 * (import_write.c) - share the model of import_model.h; this file runs
 * them and holds the entry points.
 */
#include "trace/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "base/outfile.h"
#include "trace/import_model.h"

/* Read the trace, plan the workload and write it to `out` (opened by
 * `open_out`, which may fail); 0 or -1 with err set. */
static int import(FILE *in, const char *path, const struct sl_trace_import_opts *opts,
		  struct sl_trace_import_stats *stats, struct sl_err *err,
		  int (*write)(void *ctx, const struct ti *m, const struct ti_plan *p), void *ctx)
{
	static const struct sl_trace_import_opts autosel = { .select = SL_SELECT_AUTO };
	struct sl_trace_import_stats local;
	struct ti m = { .src = { .path = path, .err = err }, .overlap_task = -1 };
	struct ti_plan plan;
	int rc = -1;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	if (!opts)
		opts = &autosel;
	m.max_ops = opts->max_ops > 0 ? opts->max_ops : SL_TRACE_MAX_OPS;
	m.max_tasks = opts->max_tasks > 0 ? opts->max_tasks : SL_TRACE_MAX_TASKS;
	if (ti_read_lines(&m, in) == 0) {
		if (!m.used)
			sl_fail(err, "%s: no scheduling events (expected the perf script output of "
				"'perf sched record', or ftrace text with sched events)", path);
		else {
			ti_finish_tasks(&m);
			if (ti_plan_workload(&m, opts, &plan, stats) == 0)
				rc = write(ctx, &m, &plan);
		}
	}
	ti_fill_stats(&m, stats);
	ti_free(&m);
	return rc;
}

static int write_file(void *ctx, const struct ti *m, const struct ti_plan *p)
{
	ti_workload_out(((struct sl_outfile *)ctx)->f, m, p);
	return 0;
}

int sl_trace_import_to(FILE *in, const char *path, const char *out,
		       const struct sl_trace_import_opts *opts,
		       struct sl_trace_import_stats *stats, struct sl_err *err)
{
	struct sl_outfile f;

	/* first: a place that cannot hold it is bad input before any work */
	if (sl_outfile_open(&f, out, "trace import -o", err)) {
		if (stats)
			memset(stats, 0, sizeof(*stats));
		return -1;
	}
	if (import(in, path, opts, stats, err, write_file, &f)) {
		sl_outfile_abort(&f);
		return -1;
	}
	return sl_outfile_commit(&f, "trace import -o", err);
}

struct to_json {
	struct json_object *w;
	struct sl_err *err;
};

static int write_json(void *ctx, const struct ti *m, const struct ti_plan *p)
{
	struct to_json *t = ctx;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return sl_fail_internal(t->err, "open_memstream: %s", strerror(errno));
	ti_workload_out(f, m, p);
	bool bad = ferror(f) != 0;
	bad |= fclose(f) != 0;
	if (!bad)
		t->w = json_tokener_parse(text);
	free(text);
	if (!t->w)
		return sl_fail_internal(t->err, "%s: the workload's JSON did not parse back",
					m->src.path);
	return 0;
}

struct json_object *sl_trace_import(FILE *in, const char *path,
				    const struct sl_trace_import_opts *opts,
				    struct sl_trace_import_stats *stats, struct sl_err *err)
{
	struct to_json t = { .err = err };

	if (import(in, path, opts, stats, err, write_json, &t))
		return NULL;
	return t.w;
}

int sl_trace_write_json(const struct json_object *workload, const char *path, struct sl_err *err)
{
	const char *text = json_object_to_json_string_ext((struct json_object *)workload,
							  JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	struct sl_outfile out;

	if (sl_outfile_open(&out, path, "trace import -o", err))
		return -1;
	fputs(text, out.f);
	fputc('\n', out.f);
	return sl_outfile_commit(&out, "trace import -o", err);
}
