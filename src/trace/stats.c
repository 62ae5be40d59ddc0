/*
 * trace/stats.c - per-task waits, runtime and switches of a trace (see
 * trace/stats.h).  One pass over the lines (trace/lines.h); per task
 * a fixed record, found through an open-addressing pid table; the waits of
 * all tasks go into two histograms (base/hist.h), so memory grows with the
 * tasks only, never with the trace's length.
 */
#include "trace/stats.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "trace/import.h"	/* SL_TRACE_MAX_TASKS */
#include "trace/lines.h"

struct reader {
	struct sl_trace_src src;
	struct sl_trace_stats *st;
	struct sl_trace_task_stats ignored;	/* any task outside the tree
						 * (sl_trace_stats_read_tree) */
};

/* The record of pid (> 0), added if new; &ignored for a task outside the
 * tree (a scratch record); NULL past the task limit. */
static struct sl_trace_task_stats *task_of(struct reader *r, int pid, const char *comm)
{
	struct sl_trace_stats *st = r->st;

	if (st->root > 0 && sl_pidmap_get(&st->members, pid) < 0) {
		r->ignored = (struct sl_trace_task_stats){ .on_since = -1, .queued_at = -1 };
		return &r->ignored;
	}

	int i = sl_pidmap_get(&st->pids, pid);
	if (i < 0) {
		if (st->ntasks >= SL_TRACE_MAX_TASKS) {
			sl_trace_bad_line(&r->src, "the trace has more than %d tasks, the limit "
					  "(expected a shorter recording)", SL_TRACE_MAX_TASKS);
			return NULL;
		}
		if (st->ntasks == st->cap) {
			st->cap = st->cap ? 2 * st->cap : 256;
			st->tasks = sl_xrealloc(st->tasks, sizeof(*st->tasks) * (unsigned long)st->cap);
		}
		i = st->ntasks++;
		sl_pidmap_put(&st->pids, pid, i);
		st->tasks[i] = (struct sl_trace_task_stats){
			.pid = pid, .on_since = -1, .queued_at = -1 };
	}
	struct sl_trace_task_stats *t = &st->tasks[i];
	if (comm && *comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return t;
}

static void queued(struct sl_trace_task_stats *t, sl_time ts, int woken)
{
	if (t->queued_at >= 0 || t->on_since >= 0)
		return;		/* waiting already (waking then wakeup), or running */
	t->queued_at = ts;
	t->woken = woken;
}

static int on_switch(struct reader *r, const struct sl_trace_line *l)
{
	char pcomm[SL_TRACE_COMM], ncomm[SL_TRACE_COMM];
	long ppid, npid;
	enum sl_trace_prev how;

	if (sl_trace_field_comm(&r->src, l, "prev_comm", "prev_pid", pcomm) ||
	    sl_trace_field_int(&r->src, l, "prev_pid", 0, INT_MAX, &ppid) ||
	    sl_trace_field_state(&r->src, l, &how) ||
	    sl_trace_field_comm(&r->src, l, "next_comm", "next_pid", ncomm) ||
	    sl_trace_field_int(&r->src, l, "next_pid", 0, INT_MAX, &npid))
		return -1;
	if (ppid) {
		struct sl_trace_task_stats *t = task_of(r, (int)ppid, pcomm);
		if (!t)
			return -1;
		if (t->on_since >= 0)
			t->runtime += l->ts - t->on_since;
		t->on_since = -1;
		if (how == SL_PREV_PREEMPTED)
			queued(t, l->ts, 0);
	}
	if (npid) {
		struct sl_trace_task_stats *t = task_of(r, (int)npid, ncomm);
		if (!t)
			return -1;
		t->switches++;
		if (t->queued_at >= 0) {
			sl_time w = l->ts - t->queued_at;
			t->waits++;
			t->wait_sum += w;
			if (w > t->wait_max || t->waits == 1) {
				t->wait_max = w;
				t->wait_max_at = l->ts;
			}
			if (t != &r->ignored) {
				sl_hist_record(&r->st->runq, (uint64_t)w);
				if (t->woken)
					sl_hist_record(&r->st->wakeup, (uint64_t)w);
			}
			t->queued_at = -1;
		}
		t->on_since = l->ts;
	}
	return 0;
}

static int on_wakeup(struct reader *r, const struct sl_trace_line *l)
{
	char comm[SL_TRACE_COMM];
	long pid;

	if (sl_trace_field_comm(&r->src, l, "comm", "pid", comm) ||
	    sl_trace_field_int(&r->src, l, "pid", 0, INT_MAX, &pid))
		return -1;
	if (!pid)
		return 0;
	struct sl_trace_task_stats *t = task_of(r, (int)pid, comm);
	if (!t)
		return -1;
	queued(t, l->ts, 1);
	return 0;
}

/* sched_process_fork: the child is runnable from its fork (perf's
 * recordings also have its sched_wakeup_new; schedlab's traces have it
 * only for a workload's root, which no fork shows). */
static int on_fork(struct reader *r, const struct sl_trace_line *l)
{
	char comm[SL_TRACE_COMM];
	long pid, parent;

	if (sl_trace_field_comm(&r->src, l, "child_comm", "child_pid", comm) ||
	    sl_trace_field_int(&r->src, l, "child_pid", 1, INT_MAX, &pid))
		return -1;
	if (r->st->root > 0) {
		if (sl_trace_field_int(&r->src, l, "pid", 0, INT_MAX, &parent))
			return -1;
		if (parent == r->st->root || sl_pidmap_get(&r->st->members, (int)parent) >= 0)
			sl_pidmap_put(&r->st->members, (int)pid, 1);
	}
	struct sl_trace_task_stats *t = task_of(r, (int)pid, comm);
	if (!t)
		return -1;
	queued(t, l->ts, 1);
	return 0;
}

static int on_text(void *arg, char *text)
{
	struct reader *r = arg;
	struct sl_trace_line l;

	if (sl_trace_parse_line(&r->src, text, &l))	/* in time order, one recording */
		return -1;
	if (!r->st->lines++)
		r->st->first = l.ts;
	r->st->last = l.ts;
	if (!strcmp(l.event, "sched_switch"))
		return on_switch(r, &l);
	if (!strcmp(l.event, "sched_waking") || !strcmp(l.event, "sched_wakeup") ||
	    !strcmp(l.event, "sched_wakeup_new"))
		return on_wakeup(r, &l);
	if (!strcmp(l.event, "sched_process_fork"))
		return on_fork(r, &l);
	return 0;
}

int sl_trace_stats_read(FILE *in, const char *path, struct sl_trace_stats *st,
			struct sl_err *err)
{
	return sl_trace_stats_read_tree(in, path, 0, st, err);
}

int sl_trace_stats_read_tree(FILE *in, const char *path, int root, struct sl_trace_stats *st,
			     struct sl_err *err)
{
	struct reader r = { .src = { .path = path, .err = err }, .st = st };
	sl_time end = 0;

	memset(st, 0, sizeof(*st));
	st->root = root;
	sl_hist_reset(&st->wakeup);
	sl_hist_reset(&st->runq);
	if (sl_trace_read(in, &r.src, on_text, &r, &end))
		return -1;
	if (!st->lines)
		return sl_fail(err, "%s: no event lines (expected perf script or ftrace text of "
			       "sched events)", path);
	if (end > st->last)
		st->last = end;
	/* tasks on a CPU at the end ran until it */
	for (int i = 0; i < st->ntasks; i++)
		if (st->tasks[i].on_since >= 0)
			st->tasks[i].runtime += st->last - st->tasks[i].on_since;
	return 0;
}

static int by_longest_wait(const void *a, const void *b)
{
	const struct sl_trace_task_stats *x = a, *y = b;
	if (x->wait_max != y->wait_max)
		return x->wait_max < y->wait_max ? 1 : -1;
	if (x->runtime != y->runtime)
		return x->runtime < y->runtime ? 1 : -1;
	return x->pid - y->pid;
}

static double ms(sl_time ns) { return (double)ns / 1e6; }

static void percentiles(FILE *out, const char *name, const struct sl_hist *h)
{
	fprintf(out, "%-14s p50 %10.2f  p90 %10.2f  p99 %10.2f  p99.9 %10.2f  max %10.2f  (%llu "
		"waits)\n", name, (double)sl_hist_percentile(h, 50) / 1e3,
		(double)sl_hist_percentile(h, 90) / 1e3, (double)sl_hist_percentile(h, 99) / 1e3,
		(double)sl_hist_percentile(h, 99.9) / 1e3, (double)sl_hist_percentile(h, 100) / 1e3,
		(unsigned long long)h->count);
}

void sl_trace_stats_print(FILE *out, const struct sl_trace_stats *st)
{
	struct sl_trace_task_stats *t = sl_xmalloc(sizeof(*t) * (unsigned long)(st->ntasks + 1));
	sl_time runtime = 0;
	long switches = 0;
	const char *rule = " ------------------------------------------------------------------"
			   "---------------------------------\n";

	if (st->ntasks)
		memcpy(t, st->tasks, sizeof(*t) * (size_t)st->ntasks);
	qsort(t, (size_t)st->ntasks, sizeof(*t), by_longest_wait);
	fputs(rule, out);
	fprintf(out, "  %-22s | %12s | %8s | %13s | %13s | %14s\n", "Task", "Runtime ms",
		"Switches", "Avg delay ms", "Max delay ms", "Max delay at s");
	fputs(rule, out);
	for (int i = 0; i < st->ntasks; i++) {
		char name[40];
		snprintf(name, sizeof(name), "%s:%d", t[i].comm, t[i].pid);
		fprintf(out, "  %-22s | %12.3f | %8ld | %13.3f | %13.3f | %14.6f\n", name,
			ms(t[i].runtime), t[i].switches,
			t[i].waits ? ms(t[i].wait_sum) / (double)t[i].waits : 0, ms(t[i].wait_max),
			t[i].waits ? (double)t[i].wait_max_at / 1e9 : 0);
		runtime += t[i].runtime;
		switches += t[i].switches;
	}
	fputs(rule, out);
	fprintf(out, "  %-22s | %12.3f | %8ld |\n", "TOTAL:", ms(runtime), switches);
	fputs(rule, out);
	fprintf(out, "\n%d tasks, %.6f s of trace; waits for a CPU, us:\n", st->ntasks,
		(double)(st->last - st->first) / 1e9);
	percentiles(out, "wakeup_lat_us", &st->wakeup);
	percentiles(out, "runq_delay_us", &st->runq);
	free(t);
}

void sl_trace_stats_free(struct sl_trace_stats *st)
{
	free(st->tasks);
	sl_pidmap_free(&st->pids);
	sl_pidmap_free(&st->members);
	memset(st, 0, sizeof(*st));
}
