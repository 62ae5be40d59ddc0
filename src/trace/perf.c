/*
 * trace/perf.c - the perf-script / ftrace text writer (see trace/perf.h).
 *
 * The writer keeps, per CPU, what its trace shows running there, so that
 * each line can be written in the context of the right task and the
 * engine's migration thread can be made visible: the engine takes a task
 * off its CPU for the migration thread without a sched_switch (observer.h),
 * so before every line the writer looks for CPUs whose shown task is no
 * longer there.  Such a task left at its last_ran; the writer then shows
 * "task ==> migration/N" at that time and "migration/N ==> next" when the
 * CPU switches again (or "==> swapper/N" once the thread's fixed run,
 * sl_migration_run_ns, is over and nothing was picked).  As
 * every callback looks before it writes, these lines are in time order.
 * The check is O(CPUs) per line, paid only when tracing.
 */
#include "trace/perf.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace/chrome.h"
#include "sim/sim.h"

#define TW_PERF_EVENT_WIDTH 24	/* strlen("sched:sched_process_fork"): perf aligns names */

/* One side of a line: its context task, or a sched_switch's prev / next. */
struct tw_who {
	char comm[24];
	int pid, tgid, prio;
	int group;		/* the task's latency group (sl_task.lat_group), 0: none */
	bool idle;
};

struct tw_cpu {
	const struct sl_task *curr;	/* the task the trace shows running (NULL: none) */
	sl_time since;			/* ... since its switch */
	bool migr;			/* the migration thread is shown running ... */
	sl_time migr_end;		/* ... until then */
	bool has_exited;
	struct tw_who exited;		/* the last task that exited here (wakes its parent) */
	struct tw_who lane;		/* what the last switch line put on this CPU ... */
	sl_time lane_at;		/* ... and when (chrome: a slice per lane) */
};

struct sl_trace_writer {
	FILE *out;
	enum sl_trace_format format;
	sl_trace_slice_fn slice_fn;	/* SL_TRACE_SLICES: where the lanes go */
	void *slice_ctx;
	int ncpus;
	sl_time migr_cost;		/* the migration thread's run */
	sl_time last;			/* time of the last line: lines stay in order */
	struct sl_observer obs;
	int *tgid;			/* ftrace: thread group id by address space */
	int ntgid;
	struct tw_cpu cpu[];
};

/* ---- who is who ---- */

static void who_task(const struct sl_trace_writer *w, const struct sl_task *t, struct tw_who *o)
{
	snprintf(o->comm, sizeof(o->comm), "%s", t->comm);
	o->pid = SL_TRACE_PID_BASE + t->id;
	/* the kernel's p->prio: MAX_RT_PRIO - 1 - rt_priority for FIFO and
	 * RR, 120 + nice for the others */
	o->prio = sl_task_rt(t) ? SL_RT_PRIO_MAX - t->rt_priority : 120 + t->nice;
	o->group = t->lat_group;
	o->tgid = t->mm >= 0 && t->mm < w->ntgid && w->tgid[t->mm] ? w->tgid[t->mm] : o->pid;
	o->idle = false;
}

static void who_idle(int cpu, struct tw_who *o)
{
	snprintf(o->comm, sizeof(o->comm), "swapper/%d", cpu);
	o->pid = o->tgid = 0;
	o->prio = 120;
	o->group = 0;
	o->idle = true;
}

static void who_migration(int cpu, struct tw_who *o)
{
	snprintf(o->comm, sizeof(o->comm), "migration/%d", cpu);
	o->pid = o->tgid = SL_TRACE_KTHREAD_PID + cpu;
	o->prio = 0;
	o->group = 0;
	o->idle = false;
}

/* What CPU `cpu` is shown running. */
static void who_on(const struct sl_trace_writer *w, int cpu, struct tw_who *o)
{
	const struct tw_cpu *tc = &w->cpu[cpu];

	if (tc->curr)
		who_task(w, tc->curr, o);
	else if (tc->migr)
		who_migration(cpu, o);
	else
		who_idle(cpu, o);
}

/* Remember the thread group of t's address space (ftrace's tgid column):
 * the first task seen with an mm leads its group. */
static void note_tgid(struct sl_trace_writer *w, const struct sl_task *t)
{
	if (w->format != SL_TRACE_FTRACE || t->mm < 0)
		return;
	if (t->mm >= w->ntgid) {
		int n = w->ntgid ? w->ntgid : 64;
		while (n <= t->mm)
			n *= 2;
		w->tgid = sl_xrealloc(w->tgid, sizeof(*w->tgid) * (unsigned long)n);
		memset(w->tgid + w->ntgid, 0, sizeof(*w->tgid) * (size_t)(n - w->ntgid));
		w->ntgid = n;
	}
	if (!w->tgid[t->mm])
		w->tgid[t->mm] = SL_TRACE_PID_BASE + t->id;
}

/* ---- lines ---- */

/* The lane formats (chrome, slices) show runs as slices, not switch lines. */
static bool lanes(const struct sl_trace_writer *w)
{
	return w->format == SL_TRACE_CHROME || w->format == SL_TRACE_SLICES;
}

static void emit_slice(struct sl_trace_writer *w, int cpu, const struct tw_who *who, sl_time start,
		       sl_time end)
{
	if (w->format == SL_TRACE_SLICES)
		w->slice_fn(w->slice_ctx, cpu, who->comm, who->pid, who->group, start, end);
	else
		sl_chrome_slice(w->out, cpu, who->comm, who->pid, start, end);
}

/* Write one line: `ctx` on `cpu` at `ts` (never before the last line),
 * event `name` (without "sched:") and its fields. */
static void line(struct sl_trace_writer *w, sl_time ts, int cpu, const struct tw_who *ctx,
		 const char *name, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void line(struct sl_trace_writer *w, sl_time ts, int cpu, const struct tw_who *ctx,
		 const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ts < w->last)
		ts = w->last;
	w->last = ts;
	if (w->format == SL_TRACE_SLICES)
		return;		/* only the lanes */
	if (w->format == SL_TRACE_CHROME) {
		char detail[512];
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
		sl_chrome_instant(w->out, cpu, ts, name, ctx->idle ? "swapper" : ctx->comm, ctx->pid,
				  detail);
		return;
	}
	int64_t sec = ts / SL_SEC, ns = ts % SL_SEC;
	if (w->format == SL_TRACE_PERF) {
		char event[48];
		snprintf(event, sizeof(event), "sched:%s", name);
		fprintf(w->out, "%16s %5d [%03d] %5" PRId64 ".%09" PRId64 ": %*s: ",
			ctx->idle ? "swapper" : ctx->comm, ctx->pid, cpu, sec, ns,
			TW_PERF_EVENT_WIDTH, event);
	} else if (ctx->idle) {
		fprintf(w->out, "%16s-%-7d (-------) [%03d] .... %5" PRId64 ".%09" PRId64 ": %s: ",
			"<idle>", 0, cpu, sec, ns, name);
	} else {
		fprintf(w->out, "%16s-%-7d (%7d) [%03d] .... %5" PRId64 ".%09" PRId64 ": %s: ",
			ctx->comm, ctx->pid, ctx->tgid, cpu, sec, ns, name);
	}
	va_start(ap, fmt);
	vfprintf(w->out, fmt, ap);
	va_end(ap);
	fputc('\n', w->out);
}

static void switch_line(struct sl_trace_writer *w, sl_time ts, int cpu, const struct tw_who *prev,
			const char *state, const struct tw_who *next)
{
	struct tw_cpu *tc = &w->cpu[cpu];

	if (lanes(w)) {
		if (ts < w->last)
			ts = w->last;
		w->last = ts;
		if (!tc->lane.idle && ts > tc->lane_at)
			emit_slice(w, cpu, &tc->lane, tc->lane_at, ts);
		tc->lane = *next;
		tc->lane_at = ts;
		return;
	}
	line(w, ts, cpu, prev, "sched_switch",
	     "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s "
	     "next_pid=%d next_prio=%d",
	     prev->comm, prev->pid, prev->prio, state, next->comm, next->pid, next->prio);
}

static const char *prev_state(const struct sl_task *t)
{
	switch (t->state) {
	case SL_TASK_RUNNABLE:
		return "R+";	/* preempted (the "+" of 4.14+ kernels) */
	case SL_TASK_SLEEPING:
		return t->uninterruptible ? "D" : "S";
	case SL_TASK_DEAD:
		return t->parent ? "Z" : "X";
	}
	return "R";
}

/*
 * Bring every CPU's lane up to `now`: a task the engine took off its CPU
 * without a switch went to the migration thread at its last_ran, and a
 * migration thread whose run is over gave the CPU to idle - except on
 * `switching`, whose switch now closes its lane itself.
 */
static void catch_up(struct sl_trace_writer *w, sl_time now, int switching)
{
	struct tw_who a, b;

	for (int c = 0; c < w->ncpus; c++) {
		struct tw_cpu *tc = &w->cpu[c];
		/* (the engine puts a task on its CPU after the switch's
		 * callback, so at that instant it is not there yet) */
		if (tc->curr && tc->curr->cpu != c && !(tc->curr->cpu < 0 && tc->since == now)) {
			sl_time at = tc->curr->last_ran < now ? tc->curr->last_ran : now;
			who_task(w, tc->curr, &a);
			who_migration(c, &b);
			switch_line(w, at, c, &a, "R+", &b);
			tc->curr = NULL;
			tc->migr = true;
			tc->migr_end = at + w->migr_cost;
		}
		if (c != switching && tc->migr && tc->migr_end <= now) {
			who_migration(c, &a);
			who_idle(c, &b);
			switch_line(w, tc->migr_end, c, &a, "S", &b);
			tc->migr = false;
		}
	}
}

/* ---- the observer ---- */

static void on_switch(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
		      const struct sl_task *next)
{
	struct sl_trace_writer *w = ctx;
	struct tw_cpu *tc = &w->cpu[cpu];
	struct tw_who a, b;
	const char *state = "R";

	catch_up(w, now, cpu);
	if (prev) {
		who_task(w, prev, &a);
		state = prev_state(prev);
	} else if (tc->migr) {
		who_migration(cpu, &a);
		state = "S";
	} else {
		who_idle(cpu, &a);
	}
	if (next)
		who_task(w, next, &b);
	else
		who_idle(cpu, &b);
	switch_line(w, now, cpu, &a, state, &b);
	tc->curr = next;
	tc->since = now;
	tc->migr = false;
}

/* The context of t's wakeup from `cpu`: what the task woke on tells who
 * woke it (see trace/perf.h). */
static void waker(const struct sl_trace_writer *w, const struct sl_task *t, int cpu,
		  struct tw_who *o)
{
	switch (t->act.kind) {
	case SL_ACT_SLEEP:
	case SL_ACT_NANOSLEEP:
	case SL_ACT_IO_WAIT:
		who_idle(cpu, o);
		return;
	case SL_ACT_WAIT:
		if (w->cpu[cpu].has_exited) {
			*o = w->cpu[cpu].exited;
			return;
		}
		break;
	default:
		break;
	}
	who_on(w, cpu, o);
}

/* sched_waking, sched_wakeup, sched_wakeup_new: one format for all three */
static void wakeup_line(struct sl_trace_writer *w, sl_time now, int cpu, const struct tw_who *by,
			const char *event, const struct tw_who *t, int target)
{
	line(w, now, cpu, by, event, "comm=%s pid=%d prio=%d target_cpu=%03d", t->comm, t->pid,
	     t->prio, target);
}

static void on_wakeup(void *ctx, sl_time now, const struct sl_task *t, int waker_cpu)
{
	struct sl_trace_writer *w = ctx;
	struct tw_who by, me;
	int target = t->last_cpu >= 0 ? t->last_cpu : waker_cpu;

	catch_up(w, now, -1);
	waker(w, t, waker_cpu, &by);
	who_task(w, t, &me);
	wakeup_line(w, now, waker_cpu, &by, "sched_waking", &me, target);
	wakeup_line(w, now, waker_cpu, &by, "sched_wakeup", &me, target);
}

static void on_fork(void *ctx, sl_time now, const struct sl_task *parent,
		    const struct sl_task *child)
{
	struct sl_trace_writer *w = ctx;
	struct tw_who p, c;

	note_tgid(w, child);
	catch_up(w, now, -1);
	if (!parent) {
		/* a workload's root, runnable from its start (as a shell's
		 * fork would have made it): its first wait for a CPU is one
		 * the run counts too, so trace stats must see it start */
		who_idle(0, &p);
		who_task(w, child, &c);
		wakeup_line(w, now, 0, &p, "sched_wakeup_new", &c, 0);
		return;
	}
	who_task(w, parent, &p);
	who_task(w, child, &c);
	line(w, now, parent->cpu >= 0 ? parent->cpu : 0, &p, "sched_process_fork",
	     "comm=%s pid=%d child_comm=%s child_pid=%d", p.comm, p.pid, c.comm, c.pid);
}

static void on_exec_task(void *ctx, sl_time now, const struct sl_task *t)
{
	struct sl_trace_writer *w = ctx;
	struct tw_who me;

	catch_up(w, now, -1);
	who_task(w, t, &me);
	line(w, now, t->cpu >= 0 ? t->cpu : 0, &me, "sched_process_exec",
	     "filename=%s pid=%d old_pid=%d", me.comm, me.pid, me.pid);
	if (lanes(w) && t->cpu >= 0) {
		/* the slice takes the new name from here */
		struct tw_cpu *tc = &w->cpu[t->cpu];
		if (!tc->lane.idle && tc->lane.pid == me.pid) {
			if (now > tc->lane_at)
				emit_slice(w, t->cpu, &tc->lane, tc->lane_at, now);
			tc->lane = me;
			tc->lane_at = now;
		}
	}
}

static void on_exit_task(void *ctx, sl_time now, const struct sl_task *t)
{
	struct sl_trace_writer *w = ctx;
	int cpu = t->cpu >= 0 ? t->cpu : 0;
	struct tw_who me;

	catch_up(w, now, -1);
	who_task(w, t, &me);
	line(w, now, cpu, &me, "sched_process_exit", "comm=%s pid=%d prio=%d",
	     me.comm, me.pid, me.prio);
	w->cpu[cpu].exited = me;
	w->cpu[cpu].has_exited = true;
}

/* sched_process_wait (6.x prints the pid waited for; any child: 0).  The
 * import makes it a reap op, so that a replay reaps where this run did and
 * the policies' release_task credit comes at the same moment.  Not in a
 * timeline view: it says nothing about who runs. */
static void on_wait_task(void *ctx, sl_time now, const struct sl_task *t)
{
	struct sl_trace_writer *w = ctx;
	struct tw_who me;

	if (w->format == SL_TRACE_CHROME || w->format == SL_TRACE_SLICES)
		return;
	catch_up(w, now, -1);
	who_task(w, t, &me);
	line(w, now, t->cpu >= 0 ? t->cpu : 0, &me, "sched_process_wait", "comm=%s pid=0 prio=%d",
	     me.comm, me.prio);
}

static void on_migrate(void *ctx, sl_time now, const struct sl_task *t, int from_cpu, int to_cpu)
{
	struct sl_trace_writer *w = ctx;
	struct tw_who by, me;
	int cpu = to_cpu;

	catch_up(w, now, -1);
	if (from_cpu >= 0 && from_cpu < w->ncpus && w->cpu[from_cpu].migr)
		cpu = from_cpu;		/* the migration thread pushes it away */
	who_on(w, cpu, &by);
	who_task(w, t, &me);
	line(w, now, cpu, &by, "sched_migrate_task", "comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d",
	     me.comm, me.pid, me.prio, from_cpu, to_cpu);
}

/* ---- the writer ---- */

static void header(struct sl_trace_writer *w, const struct sl_machine *m, const char *title)
{
	if (w->format == SL_TRACE_SLICES)
		return;
	if (w->format == SL_TRACE_CHROME) {
		sl_chrome_header(w->out, m, title);
		return;
	}
	if (w->format == SL_TRACE_FTRACE) {
		fprintf(w->out,
			"# tracer: nop\n"
			"#\n"
			"# schedlab: machine %s (%s), %d CPUs\n"
			"# %s\n"
			"#\n"
			"#           TASK-PID     TGID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
			"#              | |         |        |   ||||      |         |\n",
			m->name, m->summary, m->topo.ncpus, title);
		return;
	}
	fprintf(w->out,
		"# ========\n"
		"# captured on    : simulated by schedlab\n"
		"# hostname       : %s (%s)\n"
		"# nrcpus avail   : %d\n"
		"# cmdline        : %s\n"
		"# event          : sched:sched_switch, sched:sched_waking, sched:sched_wakeup, "
		"sched:sched_wakeup_new, sched:sched_process_fork, sched:sched_process_exec, sched:sched_process_exit, "
		"sched:sched_process_wait, sched:sched_migrate_task\n"
		"# ========\n"
		"#\n",
		m->name, m->summary, m->topo.ncpus, title);
}

struct sl_trace_writer *sl_trace_writer_new(FILE *out, enum sl_trace_format format,
					    const struct sl_machine *machine, const char *title)
{
	int n = machine->topo.ncpus;
	struct sl_trace_writer *w = sl_xcalloc(1, sizeof(*w) + sizeof(struct tw_cpu) * (size_t)n);

	w->out = out;
	w->format = format;
	w->ncpus = n;
	w->migr_cost = sl_migration_run_ns(&machine->speed);
	for (int c = 0; c < n; c++)
		who_idle(c, &w->cpu[c].lane);
	w->obs = (struct sl_observer){
		.ctx = w,
		.sched_switch = on_switch,
		.sched_wakeup = on_wakeup,
		.sched_fork = on_fork,
		.sched_exec = on_exec_task,
		.sched_exit = on_exit_task,
		.sched_wait = on_wait_task,
		.sched_migrate = on_migrate,
	};
	header(w, machine, title);
	return w;
}

const struct sl_observer *sl_trace_writer_observer(struct sl_trace_writer *w)
{
	return &w->obs;
}

int sl_trace_writer_finish(struct sl_trace_writer *w, sl_time end, struct sl_err *err)
{
	struct tw_who a, b;

	/* The run is over and its tasks are gone: only close migration
	 * threads whose run ended by the last line. */
	for (int c = 0; c < w->ncpus; c++) {
		struct tw_cpu *tc = &w->cpu[c];
		if (tc->migr && tc->migr_end <= w->last) {
			who_migration(c, &a);
			who_idle(c, &b);
			switch_line(w, tc->migr_end, c, &a, "S", &b);
			tc->migr = false;
		}
	}
	if (end < w->last)
		end = w->last;
	if (lanes(w)) {
		for (int c = 0; c < w->ncpus; c++) {
			struct tw_cpu *tc = &w->cpu[c];
			if (!tc->lane.idle && end > tc->lane_at)
				emit_slice(w, c, &tc->lane, tc->lane_at, end);
		}
		if (w->format == SL_TRACE_SLICES)
			return 0;
		sl_chrome_footer(w->out, end);
	} else {
		fprintf(w->out, SL_TRACE_END_COMMENT "%" PRId64 ".%09" PRId64 "\n", (int64_t)(end / SL_SEC),
		(int64_t)(end % SL_SEC));
	}
	if (fflush(w->out) || ferror(w->out))
		return sl_fail_internal(err, "trace: error writing the trace");
	return 0;
}

void sl_trace_writer_free(struct sl_trace_writer *w)
{
	if (!w)
		return;
	free(w->tgid);
	free(w);
}

struct sl_trace_writer *sl_trace_writer_slices(const struct sl_machine *machine,
					       sl_trace_slice_fn fn, void *ctx)
{
	struct sl_trace_writer *w = sl_trace_writer_new(NULL, SL_TRACE_SLICES, machine, "");

	w->slice_fn = fn;
	w->slice_ctx = ctx;
	return w;
}

int sl_trace_format_parse(const char *opt, const char *text, enum sl_trace_format *format,
			  struct sl_err *err)
{
	if (!strcmp(text, "perf"))
		*format = SL_TRACE_PERF;
	else if (!strcmp(text, "ftrace"))
		*format = SL_TRACE_FTRACE;
	else if (!strcmp(text, "chrome"))
		*format = SL_TRACE_CHROME;
	else
		return sl_fail(err, "%s '%s': expected perf, ftrace or chrome", opt, text);
	return 0;
}
