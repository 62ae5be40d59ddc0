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
 */
#include "trace/import.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <json.h>

#include "base/outfile.h"
#include "base/pidmap.h"
#include "base/units.h"
#include "trace/json_stream.h"
#include "trace/lines.h"
#include "trace/perf.h"

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

enum ti_op_kind { OP_RUN, OP_SLEEP, OP_WAIT, OP_WAIT_CHILD, OP_WAKE, OP_FORK, OP_EXEC, OP_EXIT };

/* An op of a task's timeline: 32 bytes, as a trace holds millions. */
struct ti_op {
	unsigned char kind;	/* enum ti_op_kind */
	char state;		/* SLEEP, WAIT, WAIT_CHILD: 'S' or 'D' */
	bool from_start;	/* SLEEP, WAIT: asleep since before the trace */
	bool at_end;		/* EXIT: the trace ended, not the task */
	int task;		/* WAIT: waker; WAIT_CHILD, FORK: child; WAKE: wakee */
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

struct ti_task {
	int pid, prio;
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

static void *grow(void *p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return p;
	int n = *cap ? *cap : 8;
	while (n < need)
		n *= 2;
	*cap = n;
	return sl_xrealloc(p, size * (unsigned long)n);
}

/* ---- tasks ---- */

/* A new task record for `pid` (a pid seen again after its task died gets
 * a new record).  Returns its index; pointers into m->tasks move. */
static int add_task(struct ti *m, int pid, const char *comm, int prio, sl_time ts)
{
	m->tasks = grow(m->tasks, &m->captasks, m->ntasks + 1, sizeof(*m->tasks));
	struct ti_task *t = &m->tasks[m->ntasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->prio = prio;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	snprintf(t->now_comm, sizeof(t->now_comm), "%s", comm);
	t->parent = -1;
	t->st = TS_NEW;
	t->first = t->last = ts;
	t->json_id = -1;
	t->perf_exec_op = -1;
	t->cpu = -1;
	t->lost_at = -1;
	sl_pidmap_put(&m->pids, pid, m->ntasks);
	return m->ntasks++;
}

/* The live task with `pid`, or a new record. */
static int task_of(struct ti *m, int pid, const char *comm, int prio, sl_time ts)
{
	int i = sl_pidmap_get(&m->pids, pid);

	if (i >= 0 && m->tasks[i].st != TS_DEAD)
		return i;
	return add_task(m, pid, comm, prio, ts);
}

static struct ti_op *add_op(struct ti *m, struct ti_task *t, enum ti_op_kind kind, sl_time at)
{
	if (at > t->last)
		t->last = at;
	m->stored++;
	t->ops = grow(t->ops, &t->capops, t->nops + 1, sizeof(*t->ops));
	struct ti_op *op = &t->ops[t->nops++];
	memset(op, 0, sizeof(*op));
	op->kind = (unsigned char)kind;
	op->t0 = at;
	op->task = -1;
	return op;
}

static void push_seg(struct ti *m, struct ti_task *t, sl_time len)
{
	m->stored++;
	t->segs = grow(t->segs, &t->capsegs, t->nsegs + 1, sizeof(*t->segs));
	t->segs[t->nsegs++] = len > 0 ? len : 0;
}

static void charge(struct ti *m, struct ti_task *t, sl_time ts);

/* End the run being gathered at `ts`: its segments become a run op (none
 * for a single empty segment). */
static void close_run(struct ti *m, struct ti_task *t, sl_time ts)
{
	sl_time total = 0;

	if (t->st == TS_RUNNING && t->cpu >= 0)
		charge(m, t, ts);
	for (int i = 0; i < t->nsegs; i++)
		total += t->segs[i];
	if (t->nsegs == 0 || (t->nsegs == 1 && total == 0)) {
		t->nsegs = 0;
		return;
	}
	struct ti_op *op = add_op(m, t, OP_RUN, ts);
	op->ns = total;
	op->seg0 = m->npool;
	op->nseg = t->nsegs;
	m->pool = grow(m->pool, &m->cappool, m->npool + t->nsegs, sizeof(*m->pool));
	memcpy(m->pool + m->npool, t->segs, sizeof(*t->segs) * (size_t)t->nsegs);
	m->npool += t->nsegs;
	t->nsegs = 0;
}

/* A sleep ends at `ts`: a timed sleep, or a wait for task `other`. */
static void end_sleep(struct ti *m, struct ti_task *t, sl_time ts, enum ti_op_kind kind, int other)
{
	struct ti_op *op = add_op(m, t, kind, t->asleep_since);
	op->t1 = ts;
	op->state = t->asleep_state;
	op->from_start = t->asleep_from_start;
	op->task = other;
	t->st = TS_RUNNABLE;
}

/* ---- the CPUs' timelines ----
 *
 * Each CPU runs one task at a time: the one its lines show.  A task holds
 * a CPU from its switch-in there (or from the start of the trace if it is
 * the first task the CPU shows, or from the first line in its name there
 * when its switch-in is missing) until its switch-out, the first line that
 * shows another task or idle there, or the end of the trace.  Only that
 * time is CPU time: no CPU's time is given twice, and the sum over the
 * tasks is at most CPUs x span.  A task cut off its CPU by another's line
 * (its switch-out is not in the trace) runs nowhere the trace shows until
 * a line names it again. */

/* Give t the time it held its CPU up to `ts` (a segment of its run). */
static void charge(struct ti *m, struct ti_task *t, sl_time ts)
{
	struct ti_cpu *k = &m->cpu[t->cpu];

	if (t->on_since < k->busy_until && m->overlap_task < 0) {	/* the check */
		m->overlap_task = (int)(t - m->tasks);
		m->overlap_cpu = t->cpu;
		m->overlap_at = t->on_since;
	}
	push_seg(m, t, ts - t->on_since);
	t->on_since = ts;
	if (ts > k->busy_until)
		k->busy_until = ts;
}

/* The trace shows t again at ts: since it was cut off its CPU, the trace
 * did not show it anywhere. */
static void found(struct ti_task *t, sl_time ts)
{
	if (t->lost_at >= 0 && ts > t->lost_at) {
		t->dropped += ts - t->lost_at;
		t->cuts++;
	}
	t->lost_at = -1;
}

/* CPU c's task leaves it at ts: switched out, or - `lost` - cut off by a
 * line showing another task (or idle) there, its switch-out missing. */
static void cpu_leave(struct ti *m, int c, sl_time ts, bool lost)
{
	struct ti_cpu *k = &m->cpu[c];

	if (k->task >= 0) {
		struct ti_task *t = &m->tasks[k->task];
		if (t->st == TS_RUNNING) {
			charge(m, t, ts);
			t->st = TS_RUNNABLE;
		} else if (t->st == TS_EXITING && lost) {	/* its last switch is missing */
			add_op(m, t, OP_EXIT, ts)->ns = ts - t->exit_at;
			t->st = TS_DEAD;
		}
		t->cpu = -1;
		if (lost && t->st != TS_DEAD)
			t->lost_at = ts;
	}
	k->task = -1;
	k->pid = 0;
	k->since = ts;
	k->start = false;
}

/* Task ti takes CPU c from `since` on. */
static void cpu_take(struct ti *m, int ti, int c, sl_time since)
{
	struct ti_task *t = &m->tasks[ti];
	struct ti_cpu *k = &m->cpu[c];

	if (t->st != TS_EXITING)
		t->st = TS_RUNNING;
	t->cpu = c;
	t->on_since = since;
	k->task = ti;
	k->pid = t->pid;
	k->since = since;
	k->seen = true;
}

/* Task ti is shown on CPU c at ts (a line's context, a switch's prev): if
 * the CPU's lines had not put it there, it holds it from now on - or, the
 * first task the CPU shows, since the trace began.  Whoever held the CPU
 * leaves it, and so does ti any other CPU it held. */
static void seen_on(struct ti *m, int ti, int c, sl_time ts)
{
	struct ti_task *t = &m->tasks[ti];
	struct ti_cpu *k = &m->cpu[c];

	if (t->st == TS_DEAD || k->task == ti) {
		found(t, ts);
		return;
	}
	sl_time since = ts;
	if (!k->seen) {
		since = m->first_ts;
		t->from_start = true;
	} else if (t->st == TS_NEW && k->task < 0 && k->pid == t->pid) {
		since = k->since;	/* the CPU showed it before it had a record */
		t->from_start = k->start;
	}
	if (t->cpu >= 0)
		cpu_leave(m, t->cpu, ts, true);
	cpu_leave(m, c, ts, true);
	found(t, ts);
	if (t->st == TS_DEAD)
		return;
	if (t->st == TS_SLEEPING)	/* its wakeup is not in the trace */
		end_sleep(m, t, ts, OP_SLEEP, -1);
	cpu_take(m, ti, c, since);
}

/* A line in the name of `pid`, which has no record yet: it holds the CPU
 * (its record, if one comes, takes the time from here). */
static void unknown_on(struct ti *m, int pid, int c, sl_time ts)
{
	struct ti_cpu *k = &m->cpu[c];
	bool first = !k->seen;

	if (k->seen && k->task < 0 && k->pid == pid)
		return;
	cpu_leave(m, c, ts, true);
	k->pid = pid;
	k->since = first ? m->first_ts : ts;
	k->start = first;
	k->seen = true;
}

/* A line's context is on its CPU (perf and ftrace write the CPU's current
 * task; an interrupt shows the task it interrupted).  Idle (pid 0),
 * unknown (perf's -1) and dead contexts say nothing: schedlab's own traces
 * write a wakeup no task caused in pid 0's name on a busy CPU, and an
 * exiting child's wakeup of its parent after its last switch. */
static void context_on(struct ti *m, const struct sl_trace_line *l)
{
	if (l->pid <= 0)
		return;
	int i = sl_pidmap_get(&m->pids, l->pid);
	if (i < 0)
		unknown_on(m, l->pid, l->cpu, l->ts);
	else if (m->tasks[i].st != TS_DEAD)
		seen_on(m, i, l->cpu, l->ts);
}

static void make_running(struct ti *m, struct ti_task *t, int cpu, sl_time ts)
{
	seen_on(m, (int)(t - m->tasks), cpu, ts);
}

static int ensure_cpu(struct ti *m, int cpu)
{
	if (cpu > SL_TRACE_MAX_CPU)
		return sl_trace_bad_line(&m->src, "CPU %d: expected at most %d", cpu, SL_TRACE_MAX_CPU);
	if (cpu < m->ncpus)
		return 0;
	int n = cpu + 1;
	m->cpu = sl_xrealloc(m->cpu, sizeof(*m->cpu) * (unsigned long)n);
	for (int i = m->ncpus; i < n; i++)
		m->cpu[i] = (struct ti_cpu){ .task = -1 };
	m->ncpus = n;
	return 0;
}

/* ---- parsing a line ---- */

/* ---- events ---- */

static int on_switch(struct ti *m, const struct sl_trace_line *l)
{
	char pcomm[TI_COMM], ncomm[TI_COMM];
	long ppid, pprio, npid, nprio;
	enum sl_trace_prev how = SL_PREV_PREEMPTED;

	if (sl_trace_field_comm(&m->src, l, "prev_comm", "prev_pid", pcomm) ||
	    sl_trace_field_int(&m->src, l, "prev_pid", 0, INT_MAX, &ppid) ||
	    sl_trace_field_int(&m->src, l, "prev_prio", -1000, 1000, &pprio) ||
	    sl_trace_field_state(&m->src, l, &how) ||
	    sl_trace_field_comm(&m->src, l, "next_comm", "next_pid", ncomm) ||
	    sl_trace_field_int(&m->src, l, "next_pid", 0, INT_MAX, &npid) ||
	    sl_trace_field_int(&m->src, l, "next_prio", -1000, 1000, &nprio))
		return -1;
	int pi = -1;
	if (ppid) {
		int i = pi = task_of(m, (int)ppid, pcomm, (int)pprio, l->ts);	/* may move tasks */
		struct ti_task *t = &m->tasks[i];
		t->switched = true;
		seen_on(m, i, l->cpu, l->ts);
		snprintf(t->now_comm, sizeof(t->now_comm), "%s", pcomm);
		if (t->st == TS_EXITING) {
			if (how == SL_PREV_DEAD) {
				add_op(m, t, OP_EXIT, l->ts)->ns = l->ts - t->exit_at;
				t->st = TS_DEAD;
			}
		} else {
			cpu_leave(m, l->cpu, l->ts, false);	/* a preemption ends here */
			if (how != SL_PREV_PREEMPTED)
				close_run(m, t, l->ts);
			if (how == SL_PREV_DEAD) {
				add_op(m, t, OP_EXIT, l->ts);
				t->st = TS_DEAD;
			} else if (how != SL_PREV_PREEMPTED) {
				t->st = TS_SLEEPING;
				t->asleep_since = l->ts;
				t->asleep_from_start = false;
				t->asleep_state = how == SL_PREV_SLEEP_D ? 'D' : 'S';
			}
		}
	}
	/* the CPU's task leaves it: prev, or one whose switch-out is missing */
	int held = m->cpu[l->cpu].task;
	cpu_leave(m, l->cpu, l->ts, held >= 0 && held != pi);
	m->cpu[l->cpu].seen = true;
	if (npid) {
		int i = task_of(m, (int)npid, ncomm, (int)nprio, l->ts);
		struct ti_task *t = &m->tasks[i];
		t->switched = true;
		snprintf(t->now_comm, sizeof(t->now_comm), "%s", ncomm);
		if (t->st == TS_SLEEPING)	/* its wakeup is not in the trace */
			end_sleep(m, t, l->ts, OP_SLEEP, -1);
		if (t->cpu >= 0)		/* shown on another CPU too: it left there */
			cpu_leave(m, t->cpu, l->ts, true);
		found(t, l->ts);
		if (t->st != TS_DEAD)
			cpu_take(m, i, l->cpu, l->ts);
	}
	return 0;
}

/* The task a wakeup line names (comm=, pid=, prio=), found or added:
 * 1 with *idx and its comm, 0 for pid 0 (an idle task), -1 on a
 * malformed field. */
static int wakee(struct ti *m, const struct sl_trace_line *l, char comm[TI_COMM], int *idx)
{
	long pid, prio;

	if (sl_trace_field_comm(&m->src, l, "comm", "pid", comm) ||
	    sl_trace_field_int(&m->src, l, "pid", 0, INT_MAX, &pid) ||
	    sl_trace_field_int(&m->src, l, "prio", -1000, 1000, &prio))
		return -1;
	if (!pid)
		return 0;
	*idx = task_of(m, (int)pid, comm, (int)prio, l->ts);
	return 1;
}

/* sched_waking / sched_wakeup: the line's context woke the task. */
static int on_wakeup(struct ti *m, const struct sl_trace_line *l)
{
	char comm[TI_COMM];
	int wi, rc = wakee(m, l, comm, &wi);

	if (rc <= 0)
		return rc;
	long pid = m->tasks[wi].pid;
	struct ti_task *w = &m->tasks[wi];
	snprintf(w->now_comm, sizeof(w->now_comm), "%s", comm);
	if (w->st == TS_NEW) {		/* asleep since before the trace */
		w->st = TS_SLEEPING;
		w->asleep_since = m->first_ts;
		w->asleep_from_start = true;
		w->asleep_state = 'S';
	}
	if (w->st != TS_SLEEPING)
		return 0;		/* already awake: a second tracepoint of one wakeup */
	if (l->pid <= 0 || l->pid == (int)pid) {
		end_sleep(m, w, l->ts, OP_SLEEP, -1);
		return 0;
	}
	/* the waker as it is, even dead: an exiting child wakes its parent
	 * after its last switch in schedlab's traces */
	int xi = sl_pidmap_get(&m->pids, l->pid);
	if (xi < 0)
		xi = add_task(m, l->pid, l->comm, 120, l->ts);
	w = &m->tasks[wi];
	struct ti_task *x = &m->tasks[xi];
	if ((x->st == TS_EXITING || x->st == TS_DEAD) && x->parent == wi) {
		end_sleep(m, w, l->ts, OP_WAIT_CHILD, xi);
		return 0;
	}
	end_sleep(m, w, l->ts, OP_WAIT, xi);
	if (x->st == TS_DEAD && x->nops && x->ops[x->nops - 1].kind == OP_EXIT) {
		/* woken after its last switch: the wake goes before its exit */
		struct ti_op ex = x->ops[x->nops - 1];
		x->nops--;
		m->stored--;
		add_op(m, x, OP_WAKE, l->ts)->task = wi;
		*add_op(m, x, OP_EXIT, ex.t0) = ex;
		return 0;
	}
	make_running(m, x, l->cpu, l->ts);
	close_run(m, x, l->ts);
	add_op(m, x, OP_WAKE, l->ts)->task = wi;
	return 0;
}

static int on_wakeup_new(struct ti *m, const struct sl_trace_line *l)
{
	char comm[TI_COMM];
	int i, rc = wakee(m, l, comm, &i);

	if (rc <= 0)
		return rc;
	struct ti_task *t = &m->tasks[i];
	if (t->st == TS_NEW)
		t->st = TS_RUNNABLE;	/* forked where the trace did not show it */
	return 0;
}

static int on_fork(struct ti *m, const struct sl_trace_line *l)
{
	char pcomm[TI_COMM], ccomm[TI_COMM];
	long ppid, cpid;

	if (sl_trace_field_comm(&m->src, l, "comm", "pid", pcomm) ||
	    sl_trace_field_int(&m->src, l, "pid", 0, INT_MAX, &ppid) ||
	    sl_trace_field_comm(&m->src, l, "child_comm", "child_pid", ccomm) ||
	    sl_trace_field_int(&m->src, l, "child_pid", 1, INT_MAX, &cpid))
		return -1;
	if (!ppid)
		return 0;	/* the kernel's own first tasks */
	int pi = task_of(m, (int)ppid, pcomm, 120, l->ts);
	make_running(m, &m->tasks[pi], l->cpu, l->ts);
	close_run(m, &m->tasks[pi], l->ts);
	int ci = add_task(m, (int)cpid, ccomm, m->tasks[pi].prio, l->ts);
	struct ti_task *p = &m->tasks[pi], *c = &m->tasks[ci];
	c->parent = pi;
	c->forked = true;
	c->st = TS_RUNNABLE;
	add_op(m, p, OP_FORK, l->ts)->task = ci;
	p->children = grow(p->children, &p->capchildren, p->nchildren + 1, sizeof(int));
	p->children[p->nchildren++] = ci;
	return 0;
}

static int on_exec(struct ti *m, const struct sl_trace_line *l)
{
	long pid, old;
	const char *fn = sl_trace_find_key(l->fields, "filename");
	const char *fe = fn ? sl_trace_find_key(fn, "pid") : NULL;

	if (!fn || !fe)
		return sl_trace_bad_line(&m->src, "%s: expected 'filename=FILE pid=PID old_pid=PID'", l->event);
	if (sl_trace_field_int(&m->src, l, "pid", 1, INT_MAX, &pid) ||
	    sl_trace_field_int(&m->src, l, "old_pid", 1, INT_MAX, &old))
		return -1;
	int i = sl_pidmap_get(&m->pids, (int)old);
	if (old != pid && i >= 0) {	/* a thread exec'd and took the leader's pid */
		sl_pidmap_put(&m->pids, (int)pid, i);
		m->tasks[i].pid = (int)pid;
	}
	i = task_of(m, (int)pid, l->comm, 120, l->ts);
	struct ti_task *t = &m->tasks[i];
	make_running(m, t, l->cpu, l->ts);
	close_run(m, t, l->ts);
	struct ti_op *op = add_op(m, t, OP_EXEC, l->ts);
	m->comms = grow(m->comms, &m->capcomms, m->ncomms + 1, sizeof(*m->comms));
	op->comm = m->ncomms++;
	char *comm = m->comms[op->comm];
	if (l->comm[0] && strcmp(l->comm, ":-1")) {
		snprintf(comm, TI_COMM, "%s", l->comm);
	} else {			/* no name in the context: the file's base name */
		const char *e = fe - strlen("pid") - 1, *b = e;
		while (b > fn && b[-1] != '/')
			b--;
		while (e > b && e[-1] == ' ')
			e--;
		sl_trace_copy_comm(comm, b, (size_t)(e - b));
	}
	if (!strcmp(t->now_comm, "perf-exec") && t->perf_exec_op < 0) {
		t->perf_exec = true;
		t->perf_exec_op = t->nops - 1;
	}
	snprintf(t->now_comm, sizeof(t->now_comm), "%s", comm);
	return 0;
}

static int on_exit_event(struct ti *m, const struct sl_trace_line *l)
{
	char comm[TI_COMM];
	long pid, prio;

	if (sl_trace_field_comm(&m->src, l, "comm", "pid", comm) ||
	    sl_trace_field_int(&m->src, l, "pid", 0, INT_MAX, &pid) ||
	    sl_trace_field_int(&m->src, l, "prio", -1000, 1000, &prio))
		return -1;
	if (!pid)
		return 0;
	int i = task_of(m, (int)pid, comm, (int)prio, l->ts);
	struct ti_task *t = &m->tasks[i];
	make_running(m, t, l->cpu, l->ts);
	close_run(m, t, l->ts);
	if (t->st == TS_RUNNING) {
		t->st = TS_EXITING;
		t->exit_at = l->ts;
	}
	return 0;
}

static void count_skipped(struct ti *m, const char *name)
{
	m->skipped++;
	for (int i = 0; i < m->nskip; i++)
		if (!strcmp(m->skip[i].name, name)) {
			m->skip[i].count++;
			return;
		}
	if (m->nskip == (int)(sizeof(m->skip) / sizeof(m->skip[0]))) {
		m->skip_other++;
		return;
	}
	snprintf(m->skip[m->nskip].name, sizeof(m->skip[0].name), "%s", name);
	m->skip[m->nskip++].count = 1;
}

static int on_line(struct ti *m, char *s)
{
	struct sl_trace_line l;

	if (sl_trace_parse_line(&m->src, s, &l))	/* in time order, one recording */
		return -1;
	if (!m->any)
		m->first_ts = l.ts;
	m->any = true;
	m->last_ts = l.ts;
	m->lines++;
	if (ensure_cpu(m, l.cpu))
		return -1;
	context_on(m, &l);

	int (*handler)(struct ti *, const struct sl_trace_line *) = NULL;
	if (!strcmp(l.event, "sched_switch"))
		handler = on_switch;
	else if (!strcmp(l.event, "sched_waking") || !strcmp(l.event, "sched_wakeup"))
		handler = on_wakeup;
	else if (!strcmp(l.event, "sched_wakeup_new"))
		handler = on_wakeup_new;
	else if (!strcmp(l.event, "sched_process_fork"))
		handler = on_fork;
	else if (!strcmp(l.event, "sched_process_exec"))
		handler = on_exec;
	else if (!strcmp(l.event, "sched_process_exit"))
		handler = on_exit_event;
	if (!handler) {
		count_skipped(m, l.event);
		return 0;
	}
	m->used++;
	if (handler(m, &l))
		return -1;
	/* the bounds (a line adds a few ops and at most two tasks) */
	if (m->stored > m->max_ops)
		return sl_trace_bad_line(&m->src, "the trace needs more than %ld ops and run segments, the "
				"import's limit (expected a shorter recording)", m->max_ops);
	if (m->ntasks > m->max_tasks)
		return sl_trace_bad_line(&m->src, "the trace has more than %d tasks, the import's limit "
				"(expected a shorter recording)", m->max_tasks);
	return 0;
}

/* The end of the trace: tasks still alive exit there. */
static void finish_tasks(struct ti *m)
{
	if (m->end_ts < m->last_ts)
		m->end_ts = m->last_ts;
	for (int i = 0; i < m->ntasks; i++) {
		struct ti_task *t = &m->tasks[i];
		if (t->st != TS_DEAD)
			found(t, m->end_ts);
		switch (t->st) {
		case TS_DEAD:
			continue;
		case TS_EXITING:	/* its last switch is not in the trace */
			add_op(m, t, OP_EXIT, t->exit_at);
			t->st = TS_DEAD;
			continue;
		case TS_SLEEPING:
			end_sleep(m, t, m->end_ts, OP_SLEEP, -1);
			break;
		case TS_RUNNING:
			close_run(m, t, m->end_ts);
			break;
		case TS_NEW:
		case TS_RUNNABLE:
			break;
		}
		t->st = TS_RUNNABLE;
		close_run(m, t, m->end_ts);
		add_op(m, t, OP_EXIT, m->end_ts)->at_end = true;
		t->st = TS_DEAD;
	}
}

static int on_text(void *arg, char *text)
{
	return on_line(arg, text);
}

/* The lines, one at a time: nothing of a line is kept but what the
 * tasks' timelines take from it. */
static int read_lines(struct ti *m, FILE *in)
{
	return sl_trace_read(in, &m->src, on_text, m, &m->end_ts);
}

/* ---- choosing and writing ---- */

static bool wanted_pid(const struct sl_trace_import_opts *o, int pid)
{
	for (int i = 0; i < o->npids; i++)
		if (o->pids[i] == pid)
			return true;
	return false;
}

/* The scheduler's own per-CPU threads: the replaying policy has its own. */
static bool scheduler_thread(const struct ti_task *t)
{
	return !strncmp(t->comm, "migration/", 10);
}

/* Mark the tasks to keep; returns the origin of the workload's time and
 * the index of perf's command (-1 if none was chosen). */
static sl_time select_tasks(struct ti *m, const struct sl_trace_import_opts *o, int *command)
{
	sl_time origin = m->first_ts;

	*command = -1;
	if (o->select == SL_SELECT_AUTO)
		for (int i = 0; i < m->ntasks && *command < 0; i++)
			if (m->tasks[i].perf_exec)
				*command = i;
	for (int i = 0; i < m->ntasks; i++) {
		struct ti_task *t = &m->tasks[i];
		bool parent_kept = t->parent >= 0 && m->tasks[t->parent].kept;
		switch (o->select) {
		case SL_SELECT_AUTO:
			t->kept = *command < 0 || i == *command || parent_kept;
			break;
		case SL_SELECT_ALL:
			t->kept = true;
			break;
		case SL_SELECT_PIDS:
			t->kept = wanted_pid(o, t->pid) || parent_kept;
			break;
		}
		t->kept &= !scheduler_thread(t);
	}
	if (*command >= 0) {
		const struct ti_task *c = &m->tasks[*command];
		origin = c->ops[c->perf_exec_op].t0;
	}
	return origin;
}

/* A task no sched_switch line names, and that did not hold a CPU from the
 * start of the trace, was never switched in: it has no CPU time, whatever
 * lines show it running (its switch-in and switch-out are not in the trace,
 * so nothing bounds its time). */
static bool no_cpu(const struct ti_task *t)
{
	return !t->switched && !t->from_start;
}

/* The ops a task's JSON starts from: perf's command after its exec. */
static int first_op(const struct ti_task *t, bool command)
{
	return command ? t->perf_exec_op + 1 : 0;
}

/* Whether an op other than a run is written: a wake or fork of a task not
 * kept is dropped (and the runs around it become one). */
static bool op_written(const struct ti *m, const struct ti_op *op)
{
	if (op->kind == OP_RUN)
		return false;
	if (op->kind == OP_WAKE || op->kind == OP_FORK)
		return m->tasks[op->task].kept;
	return true;
}

/* The CPU time the JSON gives a kept task: its runs, unless it has none. */
/* a + b for times that are not negative, held at INT64_MAX: a hostile
 * trace's clock may reach 292 years, and two such spans overflow */
static sl_time add_sat(sl_time a, sl_time b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static sl_time task_cpu(const struct ti_task *t, bool command)
{
	sl_time cpu = 0;

	if (no_cpu(t))
		return 0;
	for (int i = first_op(t, command); i < t->nops; i++)
		if (t->ops[i].kind == OP_RUN)
			cpu = add_sat(cpu, t->ops[i].ns);
	return cpu;
}

static void sleep_out(struct sl_json_stream *js, const char *kind, const struct ti_op *op,
		      sl_time origin)
{
	sl_time from = op->from_start ? origin : op->t0;

	sl_json_str(js, "op", kind);
	sl_json_int(js, "ns", op->t1 > from ? op->t1 - from : 0);
	sl_json_str(js, "state", op->state == 'D' ? "D" : "S");
}

/* The runs ops[i, end) (with dropped ops between them) as one run: its
 * total, and its segments, those that touch across a dropped op merged. */
static void run_out(struct sl_json_stream *js, const struct ti *m, const struct ti_task *t,
		    int i, int end)
{
	sl_time ns = 0;
	int nseg = 0, runs = 0;

	for (int k = i; k < end; k++)
		if (t->ops[k].kind == OP_RUN) {
			ns += t->ops[k].ns;
			nseg += t->ops[k].nseg;	/* at least 1 */
			runs++;
		}
	nseg -= runs - 1;
	sl_json_open(js, NULL, '{');
	sl_json_str(js, "op", "run");
	sl_json_int(js, "ns", ns);
	if (nseg > 1) {
		bool pending = false;
		sl_time last = 0;
		sl_json_open(js, "seg", '[');
		for (int k = i; k < end; k++) {
			const struct ti_op *op = &t->ops[k];
			if (op->kind != OP_RUN)
				continue;
			for (int s = 0; s < op->nseg; s++) {
				sl_time v = m->pool[op->seg0 + s];
				if (s == 0 && pending) {
					last += v;
					continue;
				}
				if (pending)
					sl_json_int(js, NULL, last);
				last = v;
				pending = true;
			}
		}
		sl_json_int(js, NULL, last);
		sl_json_close(js, ']');
	}
	sl_json_close(js, '}');
}

/* One op other than a run, if it is written. */
static void op_out(struct sl_json_stream *js, const struct ti *m, const struct ti_op *op,
		   sl_time origin)
{
	const struct ti_task *other = NULL;

	if (!op_written(m, op))
		return;
	if (op->kind == OP_WAIT || op->kind == OP_WAIT_CHILD)
		other = &m->tasks[op->task];
	sl_json_open(js, NULL, '{');
	switch ((enum ti_op_kind)op->kind) {
	case OP_RUN:		/* run_out's */
		break;
	case OP_SLEEP:
		sleep_out(js, "sleep", op, origin);
		break;
	case OP_WAIT:
		sleep_out(js, other->kept ? "wait" : "sleep", op, origin);
		if (other->kept)
			sl_json_int(js, "waker", other->json_id);
		break;
	case OP_WAIT_CHILD:
		sleep_out(js, other->kept ? "wait_child" : "sleep", op, origin);
		if (other->kept)
			sl_json_int(js, "child", other->json_id);
		break;
	case OP_WAKE:
		sl_json_str(js, "op", "wake");
		sl_json_int(js, "task", m->tasks[op->task].json_id);
		break;
	case OP_FORK:
		sl_json_str(js, "op", "fork");
		sl_json_int(js, "child", m->tasks[op->task].json_id);
		break;
	case OP_EXEC:
		sl_json_str(js, "op", "exec");
		sl_json_str(js, "comm", m->comms[op->comm]);
		break;
	case OP_EXIT:
		sl_json_str(js, "op", "exit");
		sl_json_int(js, "ns", op->ns);
		if (op->at_end)
			sl_json_bool(js, "end", true);
		break;
	}
	sl_json_close(js, '}');
}

/* A task's ops: runs that only dropped ops separate are one run. */
static void ops_out(struct sl_json_stream *js, const struct ti *m, const struct ti_task *t,
		    bool command, sl_time origin)
{
	bool root = t->parent < 0 || !m->tasks[t->parent].kept;

	sl_json_open(js, "ops", '[');
	if (root && t->forked && t->first > origin) {	/* its parent was not kept */
		sl_json_open(js, NULL, '{');
		sl_json_str(js, "op", "sleep");
		sl_json_int(js, "ns", t->first - origin);
		sl_json_str(js, "state", "S");
		sl_json_close(js, '}');
	}
	for (int i = first_op(t, command); i < t->nops;) {
		if (t->ops[i].kind != OP_RUN) {
			op_out(js, m, &t->ops[i++], origin);
			continue;
		}
		int end = i;
		while (end < t->nops && !op_written(m, &t->ops[end]))
			end++;
		if (!no_cpu(t))
			run_out(js, m, t, i, end);
		i = end;
	}
	sl_json_close(js, ']');
}

static void task_out(struct sl_json_stream *js, const struct ti *m, const struct ti_task *t,
		     bool command, sl_time origin)
{
	bool root = t->parent < 0 || !m->tasks[t->parent].kept;
	sl_time start = command ? t->ops[t->perf_exec_op].t0 : t->first;

	sl_json_open(js, NULL, '{');
	sl_json_int(js, "id", t->json_id);
	sl_json_int(js, "pid", t->pid);
	sl_json_str(js, "comm", command ? m->comms[t->ops[t->perf_exec_op].comm] : t->comm);
	sl_json_int(js, "prio", t->prio);
	if (root)
		sl_json_null(js, "parent");
	else
		sl_json_int(js, "parent", m->tasks[t->parent].json_id);
	sl_json_open(js, "children", '[');
	for (int i = 0; i < t->nchildren; i++)
		if (m->tasks[t->children[i]].kept)
			sl_json_int(js, NULL, m->tasks[t->children[i]].json_id);
	sl_json_close(js, ']');
	sl_json_int(js, "start_ns", start > origin ? start - origin : 0);
	sl_json_int(js, "cpu_ns", task_cpu(t, command));
	ops_out(js, m, t, command, origin);
	sl_json_close(js, '}');
}

static void note_drops(const struct ti_task *t, struct sl_trace_import_stats *st)
{
	sl_time dropped = t->dropped;

	if (no_cpu(t))
		for (int i = 0; i < t->nops; i++)
			if (t->ops[i].kind == OP_RUN)
				dropped += t->ops[i].ns;
	if (!dropped)
		return;
	st->cuts += t->cuts;
	st->never_switched += no_cpu(t);
	st->repaired_tasks++;
	st->dropped_ns += dropped;
	if (st->ndrops < SL_TRACE_DROPS)
		st->ndrops++;
	else if (st->drops[SL_TRACE_DROPS - 1].ns >= dropped)
		return;
	int k = st->ndrops - 1;
	while (k > 0 && st->drops[k - 1].ns < dropped) {
		st->drops[k] = st->drops[k - 1];
		k--;
	}
	snprintf(st->drops[k].comm, sizeof(st->drops[k].comm), "%s", t->comm);
	st->drops[k].pid = t->pid;
	st->drops[k].ns = dropped;
}

/* The import's check of the kept tasks: no CPU's time given twice, and
 * their CPU time at most CPUs x span; and what the repairs dropped.
 * Fails (the import refuses) if the timelines do not hold. */
static int check_timeline(struct ti *m, int command, sl_time span,
			  struct sl_trace_import_stats *st)
{
	int64_t cpu = 0;

	for (int i = 0; i < m->ntasks; i++)
		if (m->tasks[i].kept)
			cpu = add_sat(cpu, task_cpu(&m->tasks[i], i == command));
	st->cpu_ns = cpu;
	st->span_ns = span;
	st->cpus = m->ncpus;
	for (int i = 0; i < m->ntasks; i++)
		if (m->tasks[i].kept)
			note_drops(&m->tasks[i], st);
	if (m->overlap_task >= 0) {
		const struct ti_task *t = &m->tasks[m->overlap_task];
		return sl_fail(m->src.err, "%s: CPU %d's timeline overlaps at %lld.%09lld: %s (pid %d) "
			       "was given time another task had there (the import's repair "
			       "failed; expected one task per CPU)", m->src.path, m->overlap_cpu,
			       (long long)(m->overlap_at / SL_SEC),
			       (long long)(m->overlap_at % SL_SEC), t->comm, t->pid);
	}
	int64_t cap = m->ncpus > 0 && span <= INT64_MAX / m->ncpus ? (int64_t)m->ncpus * span
								    : INT64_MAX;
	if (cpu > cap)
		return sl_fail(m->src.err, "%s: the tasks kept have %.6f s of CPU time in a span of "
			       "%.6f s on %d CPUs (the import's repair failed; expected at most "
			       "CPUs x span)", m->src.path, (double)cpu / SL_SEC, (double)span / SL_SEC,
			       m->ncpus);
	return 0;
}

/* What the workload will be: the tasks kept and numbered, its origin and
 * span, checked.  0, or -1 with err set (nothing to write). */
struct ti_plan {
	int command;		/* perf's command, -1 none */
	sl_time origin, span;
};

static int plan_workload(struct ti *m, const struct sl_trace_import_opts *o, struct ti_plan *p,
			 struct sl_trace_import_stats *st)
{
	int n = 0;

	p->origin = select_tasks(m, o, &p->command);
	for (int i = 0; i < m->ntasks; i++)
		m->tasks[i].json_id = m->tasks[i].kept ? n++ : -1;
	if (!n)
		return sl_fail(m->src.err, "%s: no task of the trace was selected (expected --pid to "
			       "name a pid the trace shows)", m->src.path);
	sl_time end = p->origin;
	for (int i = 0; i < m->ntasks; i++)
		if (m->tasks[i].kept && m->tasks[i].last > end)
			end = m->tasks[i].last;
	p->span = end - p->origin;
	if (check_timeline(m, p->command, p->span, st))
		return -1;
	st->tasks_seen = m->ntasks;
	st->tasks_kept = n;
	st->command = p->command >= 0;
	if (p->command >= 0) {
		const struct ti_task *c = &m->tasks[p->command];
		st->command_pid = c->pid;
		snprintf(st->command_comm, sizeof(st->command_comm), "%s",
			 m->comms[c->ops[c->perf_exec_op].comm]);
	}
	return 0;
}

/* The workload as JSON, written as it goes (json_stream.h): no more
 * memory than the tasks' timelines already hold. */
static void workload_out(FILE *f, const struct ti *m, const struct ti_plan *p)
{
	struct sl_json_stream js;

	sl_json_stream_init(&js, f);
	sl_json_open(&js, NULL, '{');
	sl_json_int(&js, "schedlab_trace", SL_TRACE_FORMAT_VERSION);
	sl_json_str(&js, "source", m->src.path);
	sl_json_int(&js, "origin_ns", p->origin);
	sl_json_int(&js, "duration_ns", p->span);
	sl_json_int(&js, "cpus", m->ncpus);
	sl_json_open(&js, "tasks", '[');
	for (int i = 0; i < m->ntasks; i++)
		if (m->tasks[i].kept)
			task_out(&js, m, &m->tasks[i], i == p->command, p->origin);
	sl_json_close(&js, ']');
	sl_json_close(&js, '}');
	fputc('\n', f);
}

static void fill_stats(const struct ti *m, struct sl_trace_import_stats *st)
{
	bool taken[64] = { false };

	st->lines = m->lines;
	st->used = m->used;
	st->skipped = m->skipped;
	st->nnames = 0;
	while (st->nnames < SL_TRACE_SKIP_NAMES) {
		int best = -1;
		for (int i = 0; i < m->nskip; i++)
			if (!taken[i] && (best < 0 || m->skip[i].count > m->skip[best].count))
				best = i;
		if (best < 0)
			break;
		taken[best] = true;
		snprintf(st->names[st->nnames].name, sizeof(st->names[0].name), "%s",
			 m->skip[best].name);
		st->names[st->nnames++].count = m->skip[best].count;
	}
}


static void ti_free(struct ti *m)
{
	for (int i = 0; i < m->ntasks; i++) {
		free(m->tasks[i].segs);
		free(m->tasks[i].ops);
		free(m->tasks[i].children);
	}
	free(m->tasks);
	sl_pidmap_free(&m->pids);
	free(m->cpu);
	free(m->pool);
	free(m->comms);
}

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
	if (read_lines(&m, in) == 0) {
		if (!m.used)
			sl_fail(err, "%s: no scheduling events (expected the perf script output of "
				"'perf sched record', or ftrace text with sched events)", path);
		else {
			finish_tasks(&m);
			if (plan_workload(&m, opts, &plan, stats) == 0)
				rc = write(ctx, &m, &plan);
		}
	}
	fill_stats(&m, stats);
	ti_free(&m);
	return rc;
}

static int write_file(void *ctx, const struct ti *m, const struct ti_plan *p)
{
	workload_out(((struct sl_outfile *)ctx)->f, m, p);
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
	workload_out(f, m, p);
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
