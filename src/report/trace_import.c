/*
 * trace_import.c - perf script / ftrace text to a replayable workload (see
 * trace_import.h; the model is described in docs/traces.md).
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
#include "report/trace_import.h"

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
#include "base/units.h"
#include "report/trace_perf.h"

#define TI_MAX_CPU 65535
#define TI_COMM 16

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

struct ti_op {
	enum ti_op_kind kind;
	char state;		/* SLEEP, WAIT, WAIT_CHILD: 'S' or 'D' */
	bool from_start;	/* SLEEP, WAIT: asleep since before the trace */
	bool at_end;		/* EXIT: the trace ended, not the task */
	int task;		/* WAIT: waker; WAIT_CHILD, FORK: child; WAKE: wakee */
	sl_time t0, t1;		/* SLEEP, WAIT, WAIT_CHILD: asleep from t0 to t1 */
	sl_time ns;		/* RUN: on-CPU time; EXIT: exit event to final switch */
	int seg0, nseg;		/* RUN: its on-CPU segments in the pool */
	char comm[TI_COMM];	/* EXEC: the new name */
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
	const char *path;
	long lineno;
	struct sl_err *err;
	bool any;			/* an event line was seen */
	sl_time first_ts, last_ts;
	sl_time end_ts;			/* the end of the trace: its last line, or later */
	struct ti_task *tasks;
	int ntasks, captasks;
	int *hkey, *hval;		/* pid -> task index, open addressing */
	int hcap, hn;
	struct ti_cpu *cpu;		/* each CPU's timeline */
	int ncpus;
	int overlap_task;		/* the timelines' check: a task given */
	int overlap_cpu;		/* time another had on its CPU (-1 none) */
	sl_time overlap_at;
	sl_time *pool;			/* run segments of all run ops */
	int npool, cappool;
	struct ti_skip skip[64];	/* skipped events by name */
	int nskip;
	long skip_other;
	long lines, used, skipped;
};

/* One parsed line. */
struct ti_line {
	char comm[TI_COMM];
	int pid;
	int cpu;
	sl_time ts;
	char *event;		/* without "sched:" */
	char *fields;
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

static void copy_comm(char out[TI_COMM], const char *s, size_t len)
{
	if (len > TI_COMM - 1)
		len = TI_COMM - 1;
	memcpy(out, s, len);
	out[len] = 0;
}

static int bad_line(struct ti *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad_line(struct ti *m, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return sl_fail(m->err, "%s:%ld: %s", m->path, m->lineno, what);
}

/* ---- pid map ---- */

static void map_put(struct ti *m, int pid, int idx);

static void map_grow(struct ti *m)
{
	int *k = m->hkey, *v = m->hval, n = m->hcap;

	m->hcap = n ? n * 2 : 1024;
	m->hkey = sl_xcalloc((unsigned long)m->hcap, sizeof(int));
	m->hval = sl_xcalloc((unsigned long)m->hcap, sizeof(int));
	m->hn = 0;
	for (int i = 0; i < n; i++)
		if (k[i])
			map_put(m, k[i], v[i]);
	free(k);
	free(v);
}

static void map_put(struct ti *m, int pid, int idx)
{
	if (2 * (m->hn + 1) > m->hcap)
		map_grow(m);
	unsigned h = ((unsigned)pid * 2654435761u) & (unsigned)(m->hcap - 1);
	while (m->hkey[h] && m->hkey[h] != pid)
		h = (h + 1) & (unsigned)(m->hcap - 1);
	if (!m->hkey[h])
		m->hn++;
	m->hkey[h] = pid;
	m->hval[h] = idx;
}

static int map_get(const struct ti *m, int pid)
{
	if (!m->hcap)
		return -1;
	unsigned h = ((unsigned)pid * 2654435761u) & (unsigned)(m->hcap - 1);
	while (m->hkey[h]) {
		if (m->hkey[h] == pid)
			return m->hval[h];
		h = (h + 1) & (unsigned)(m->hcap - 1);
	}
	return -1;
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
	map_put(m, pid, m->ntasks);
	return m->ntasks++;
}

/* The live task with `pid`, or a new record. */
static int task_of(struct ti *m, int pid, const char *comm, int prio, sl_time ts)
{
	int i = map_get(m, pid);

	if (i >= 0 && m->tasks[i].st != TS_DEAD)
		return i;
	return add_task(m, pid, comm, prio, ts);
}

static struct ti_op *add_op(struct ti_task *t, enum ti_op_kind kind, sl_time at)
{
	if (at > t->last)
		t->last = at;
	t->ops = grow(t->ops, &t->capops, t->nops + 1, sizeof(*t->ops));
	struct ti_op *op = &t->ops[t->nops++];
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->t0 = op->t1 = at;
	op->task = -1;
	return op;
}

static void push_seg(struct ti_task *t, sl_time len)
{
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
	struct ti_op *op = add_op(t, OP_RUN, ts);
	op->ns = total;
	op->seg0 = m->npool;
	op->nseg = t->nsegs;
	m->pool = grow(m->pool, &m->cappool, m->npool + t->nsegs, sizeof(*m->pool));
	memcpy(m->pool + m->npool, t->segs, sizeof(*t->segs) * (size_t)t->nsegs);
	m->npool += t->nsegs;
	t->nsegs = 0;
}

/* A sleep ends at `ts`: a timed sleep, or a wait for task `other`. */
static void end_sleep(struct ti_task *t, sl_time ts, enum ti_op_kind kind, int other)
{
	struct ti_op *op = add_op(t, kind, t->asleep_since);
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
	push_seg(t, ts - t->on_since);
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
			add_op(t, OP_EXIT, ts)->ns = ts - t->exit_at;
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
		end_sleep(t, ts, OP_SLEEP, -1);
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
static void context_on(struct ti *m, const struct ti_line *l)
{
	if (l->pid <= 0)
		return;
	int i = map_get(m, l->pid);
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
	if (cpu > TI_MAX_CPU)
		return bad_line(m, "CPU %d: expected at most %d", cpu, TI_MAX_CPU);
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

static bool all_digits(const char *s, const char *e)
{
	if (s >= e)
		return false;
	for (; s < e; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* "TID" or "PID/TID" (perf's pid column). */
static bool pid_token(const char *s, const char *e)
{
	const char *slash = memchr(s, '/', (size_t)(e - s));
	if (slash)
		return all_digits(s, slash) && all_digits(slash + 1, e);
	return all_digits(s, e);
}

static bool to_int(const char *s, const char *e, long lo, long hi, long *out)
{
	bool neg = s < e && *s == '-';
	long v = 0;

	if (!all_digits(s + neg, e) || e - s > 12)
		return false;
	for (const char *p = s + neg; p < e; p++)
		v = v * 10 + (*p - '0');
	v = neg ? -v : v;
	if (v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* "SECONDS[.FRACTION]" to ns; digits past 9 decimals are dropped. */
static bool to_time(const char *s, const char *e, sl_time *out)
{
	const char *dot = memchr(s, '.', (size_t)(e - s));
	const char *ie = dot ? dot : e;
	sl_time sec = 0, frac = 0;
	int nfrac = 0;

	if (!all_digits(s, ie) || ie - s > 10 || (dot && !all_digits(dot + 1, e)))
		return false;
	for (const char *p = s; p < ie; p++)
		sec = sec * 10 + (*p - '0');
	if (dot)
		for (const char *p = dot + 1; p < e && nfrac < 9; p++, nfrac++)
			frac = frac * 10 + (*p - '0');
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	*out = sec * SL_SEC + frac;
	return true;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *token_end(const char *p)
{
	while (*p && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* The first " [CPU] " of the line. */
static char *find_cpu(char *p)
{
	for (char *q = p; (q = strchr(q, '[')); q++) {
		if (q == p || (q[-1] != ' ' && q[-1] != '\t'))
			continue;
		char *r = q + 1;
		while (isdigit((unsigned char)*r))
			r++;
		if (r > q + 1 && *r == ']' && (r[1] == ' ' || r[1] == '\t'))
			return q;
	}
	return NULL;
}

#define TI_SYNTAX "expected 'COMM TID [CPU] SECONDS: EVENT: FIELDS' (perf script) or " \
		  "'COMM-PID [CPU] FLAGS SECONDS: EVENT: FIELDS' (ftrace)"

/* Split the task column ("COMM TID", "COMM PID/TID", "COMM-PID", each
 * maybe with " (TGID)") into comm and pid. */
static int parse_task(struct ti *m, const char *p, const char *end, struct ti_line *l)
{
	long pid;

	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end > p && end[-1] == ')') {
		const char *open = end - 1;
		while (open > p && *open != '(')
			open--;
		if (*open != '(')
			return bad_line(m, TI_SYNTAX);
		end = open;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
	}
	const char *tok = end;
	while (tok > p && tok[-1] != ' ' && tok[-1] != '\t')
		tok--;
	if (tok > p && end - tok == 2 && !strncmp(tok, "-1", 2)) {	/* perf: unknown */
		l->comm[0] = 0;
		l->pid = -1;
		return 0;
	}
	if (tok > p && pid_token(tok, end)) {		/* perf: COMM TID */
		const char *slash = memchr(tok, '/', (size_t)(end - tok));
		if (!to_int(slash ? slash + 1 : tok, end, 0, INT_MAX, &pid))
			return bad_line(m, "pid '%.*s' is out of range", (int)(end - tok), tok);
		const char *ce = tok;
		while (ce > p && (ce[-1] == ' ' || ce[-1] == '\t'))
			ce--;
		copy_comm(l->comm, p, (size_t)(ce - p));
	} else {					/* ftrace: COMM-PID */
		const char *dash = end;
		while (dash > p && dash[-1] != '-')
			dash--;
		if (dash == p || !to_int(dash, end, 0, INT_MAX, &pid))
			return bad_line(m, TI_SYNTAX);
		copy_comm(l->comm, p, (size_t)(dash - 1 - p));
	}
	l->pid = (int)pid;
	return 0;
}

/* Parse the part of a line before the fields.  0, or -1 with err set. */
static int parse_line(struct ti *m, char *s, struct ti_line *l)
{
	const char *p = skip_blank(s);
	char *br = find_cpu((char *)p);
	long cpu;

	if (!br)
		return bad_line(m, "no [CPU] column: " TI_SYNTAX);
	if (parse_task(m, p, br, l))
		return -1;
	char *close = strchr(br, ']');
	if (!to_int(br + 1, close, 0, TI_MAX_CPU, &cpu))
		return bad_line(m, "CPU '%.*s': expected 0 to %d", (int)(close - br - 1), br + 1,
				TI_MAX_CPU);
	l->cpu = (int)cpu;

	/* [flags] SECONDS: */
	const char *q = skip_blank(close + 1);
	const char *e = token_end(q);
	if (e == q || e[-1] != ':' || !to_time(q, e - 1, &l->ts)) {
		bool flags = e - q <= 6;
		for (const char *f = q; f < e && flags; f++)
			flags = isalnum((unsigned char)*f) || *f == '.';
		if (!flags || e == q)
			return bad_line(m, "'%.*s': expected a timestamp 'SECONDS.FRACTION:' "
					"after the CPU", (int)(e - q), q);
		q = skip_blank(e);
		e = token_end(q);
		if (e == q || e[-1] != ':' || !to_time(q, e - 1, &l->ts))
			return bad_line(m, "'%.*s': expected a timestamp 'SECONDS.FRACTION:'",
					(int)(e - q), q);
	}

	/* EVENT: */
	q = skip_blank(e);
	e = token_end(q);
	if (e == q)
		return bad_line(m, "no event name after the timestamp: " TI_SYNTAX);
	if (all_digits(q, e) && *skip_blank(e)) {	/* perf's sample period */
		q = skip_blank(e);
		e = token_end(q);
	}
	char *ev = (char *)q, *eve = (char *)e;
	if (eve[-1] == ':')
		eve--;
	char *fields = (char *)skip_blank(e);
	*eve = 0;
	if (!strncmp(ev, "sched:", 6))
		ev += 6;
	l->event = ev;
	l->fields = fields;
	return 0;
}

/* ---- fields ---- */

/* The value of key= in the fields: after "key=" at the start or a blank. */
static const char *find_key(const char *f, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = f; (p = strstr(p, key)); p++)
		if ((p == f || p[-1] == ' ') && p[n] == '=')
			return p + n + 1;
	return NULL;
}

static int field_int(struct ti *m, const struct ti_line *l, const char *key, long lo, long hi,
		     long *out)
{
	const char *v = find_key(l->fields, key);

	if (!v)
		return bad_line(m, "%s: no field '%s='", l->event, key);
	const char *e = token_end(v);
	if (!to_int(v, e, lo, hi, out))
		return bad_line(m, "%s: %s='%.*s': expected an integer from %ld to %ld", l->event,
				key, (int)(e - v), v, lo, hi);
	return 0;
}

/* A comm (which may hold blanks): from key= to the blank before next=. */
static int field_comm(struct ti *m, const struct ti_line *l, const char *key, const char *next,
		      char out[TI_COMM])
{
	const char *v = find_key(l->fields, key);

	if (!v)
		return bad_line(m, "%s: no field '%s='", l->event, key);
	const char *nv = find_key(v, next);
	if (!nv)
		return bad_line(m, "%s: no field '%s=' after '%s='", l->event, next, key);
	const char *e = nv - strlen(next) - 1;
	while (e > v && e[-1] == ' ')
		e--;
	copy_comm(out, v, (size_t)(e - v));
	return 0;
}

/* prev_state: 'R' preempted, 'X'/'Z'/'x' dead, else asleep ('D' if any). */
enum ti_prev { PREV_PREEMPTED, PREV_SLEEP, PREV_SLEEP_D, PREV_DEAD };

static int field_state(struct ti *m, const struct ti_line *l, enum ti_prev *out)
{
	const char *v = find_key(l->fields, "prev_state");

	if (!v)
		return bad_line(m, "%s: no field 'prev_state='", l->event);
	const char *e = token_end(v);
	bool dead = false, d = false, ok = e > v;
	for (const char *p = v; p < e; p++) {
		ok &= isalpha((unsigned char)*p) || *p == '|' || *p == '+';
		dead |= *p == 'X' || *p == 'Z' || *p == 'x';
		d |= *p == 'D';
	}
	if (!ok)
		return bad_line(m, "%s: prev_state='%.*s': expected state letters (R, S, D, Z, "
				"X, ...)", l->event, (int)(e - v), v);
	*out = *v == 'R' ? PREV_PREEMPTED : dead ? PREV_DEAD : d ? PREV_SLEEP_D : PREV_SLEEP;
	return 0;
}

/* ---- events ---- */

static int on_switch(struct ti *m, const struct ti_line *l)
{
	char pcomm[TI_COMM], ncomm[TI_COMM];
	long ppid, pprio, npid, nprio;
	enum ti_prev how = PREV_PREEMPTED;

	if (field_comm(m, l, "prev_comm", "prev_pid", pcomm) ||
	    field_int(m, l, "prev_pid", 0, INT_MAX, &ppid) ||
	    field_int(m, l, "prev_prio", -1000, 1000, &pprio) || field_state(m, l, &how) ||
	    field_comm(m, l, "next_comm", "next_pid", ncomm) ||
	    field_int(m, l, "next_pid", 0, INT_MAX, &npid) ||
	    field_int(m, l, "next_prio", -1000, 1000, &nprio))
		return -1;
	int pi = -1;
	if (ppid) {
		int i = pi = task_of(m, (int)ppid, pcomm, (int)pprio, l->ts);	/* may move tasks */
		struct ti_task *t = &m->tasks[i];
		t->switched = true;
		seen_on(m, i, l->cpu, l->ts);
		snprintf(t->now_comm, sizeof(t->now_comm), "%s", pcomm);
		if (t->st == TS_EXITING) {
			if (how == PREV_DEAD) {
				add_op(t, OP_EXIT, l->ts)->ns = l->ts - t->exit_at;
				t->st = TS_DEAD;
			}
		} else {
			cpu_leave(m, l->cpu, l->ts, false);	/* a preemption ends here */
			if (how != PREV_PREEMPTED)
				close_run(m, t, l->ts);
			if (how == PREV_DEAD) {
				add_op(t, OP_EXIT, l->ts);
				t->st = TS_DEAD;
			} else if (how != PREV_PREEMPTED) {
				t->st = TS_SLEEPING;
				t->asleep_since = l->ts;
				t->asleep_from_start = false;
				t->asleep_state = how == PREV_SLEEP_D ? 'D' : 'S';
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
			end_sleep(t, l->ts, OP_SLEEP, -1);
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
static int wakee(struct ti *m, const struct ti_line *l, char comm[TI_COMM], int *idx)
{
	long pid, prio;

	if (field_comm(m, l, "comm", "pid", comm) || field_int(m, l, "pid", 0, INT_MAX, &pid) ||
	    field_int(m, l, "prio", -1000, 1000, &prio))
		return -1;
	if (!pid)
		return 0;
	*idx = task_of(m, (int)pid, comm, (int)prio, l->ts);
	return 1;
}

/* sched_waking / sched_wakeup: the line's context woke the task. */
static int on_wakeup(struct ti *m, const struct ti_line *l)
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
		end_sleep(w, l->ts, OP_SLEEP, -1);
		return 0;
	}
	/* the waker as it is, even dead: an exiting child wakes its parent
	 * after its last switch in schedlab's traces */
	int xi = map_get(m, l->pid);
	if (xi < 0)
		xi = add_task(m, l->pid, l->comm, 120, l->ts);
	w = &m->tasks[wi];
	struct ti_task *x = &m->tasks[xi];
	if ((x->st == TS_EXITING || x->st == TS_DEAD) && x->parent == wi) {
		end_sleep(w, l->ts, OP_WAIT_CHILD, xi);
		return 0;
	}
	end_sleep(w, l->ts, OP_WAIT, xi);
	if (x->st == TS_DEAD && x->nops && x->ops[x->nops - 1].kind == OP_EXIT) {
		/* woken after its last switch: the wake goes before its exit */
		struct ti_op ex = x->ops[x->nops - 1];
		x->nops--;
		add_op(x, OP_WAKE, l->ts)->task = wi;
		*add_op(x, OP_EXIT, ex.t0) = ex;
		return 0;
	}
	make_running(m, x, l->cpu, l->ts);
	close_run(m, x, l->ts);
	add_op(x, OP_WAKE, l->ts)->task = wi;
	return 0;
}

static int on_wakeup_new(struct ti *m, const struct ti_line *l)
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

static int on_fork(struct ti *m, const struct ti_line *l)
{
	char pcomm[TI_COMM], ccomm[TI_COMM];
	long ppid, cpid;

	if (field_comm(m, l, "comm", "pid", pcomm) || field_int(m, l, "pid", 0, INT_MAX, &ppid) ||
	    field_comm(m, l, "child_comm", "child_pid", ccomm) ||
	    field_int(m, l, "child_pid", 1, INT_MAX, &cpid))
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
	add_op(p, OP_FORK, l->ts)->task = ci;
	p->children = grow(p->children, &p->capchildren, p->nchildren + 1, sizeof(int));
	p->children[p->nchildren++] = ci;
	return 0;
}

static int on_exec(struct ti *m, const struct ti_line *l)
{
	long pid, old;
	const char *fn = find_key(l->fields, "filename");
	const char *fe = fn ? find_key(fn, "pid") : NULL;

	if (!fn || !fe)
		return bad_line(m, "%s: expected 'filename=FILE pid=PID old_pid=PID'", l->event);
	if (field_int(m, l, "pid", 1, INT_MAX, &pid) ||
	    field_int(m, l, "old_pid", 1, INT_MAX, &old))
		return -1;
	int i = map_get(m, (int)old);
	if (old != pid && i >= 0) {	/* a thread exec'd and took the leader's pid */
		map_put(m, (int)pid, i);
		m->tasks[i].pid = (int)pid;
	}
	i = task_of(m, (int)pid, l->comm, 120, l->ts);
	struct ti_task *t = &m->tasks[i];
	make_running(m, t, l->cpu, l->ts);
	close_run(m, t, l->ts);
	struct ti_op *op = add_op(t, OP_EXEC, l->ts);
	if (l->comm[0] && strcmp(l->comm, ":-1")) {
		snprintf(op->comm, sizeof(op->comm), "%s", l->comm);
	} else {			/* no name in the context: the file's base name */
		const char *e = fe - strlen("pid") - 1, *b = e;
		while (b > fn && b[-1] != '/')
			b--;
		while (e > b && e[-1] == ' ')
			e--;
		copy_comm(op->comm, b, (size_t)(e - b));
	}
	if (!strcmp(t->now_comm, "perf-exec") && t->perf_exec_op < 0) {
		t->perf_exec = true;
		t->perf_exec_op = t->nops - 1;
	}
	snprintf(t->now_comm, sizeof(t->now_comm), "%s", op->comm);
	return 0;
}

static int on_exit_event(struct ti *m, const struct ti_line *l)
{
	char comm[TI_COMM];
	long pid, prio;

	if (field_comm(m, l, "comm", "pid", comm) || field_int(m, l, "pid", 0, INT_MAX, &pid) ||
	    field_int(m, l, "prio", -1000, 1000, &prio))
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
	struct ti_line l;

	if (parse_line(m, s, &l))
		return -1;
	if (m->any && l.ts < m->last_ts)
		return bad_line(m, "time %lld.%09lld is before the previous line's %lld.%09lld "
				"(expected lines in time order, as perf script writes them)",
				(long long)(l.ts / SL_SEC), (long long)(l.ts % SL_SEC),
				(long long)(m->last_ts / SL_SEC), (long long)(m->last_ts % SL_SEC));
	if (!m->any)
		m->first_ts = l.ts;
	m->any = true;
	m->last_ts = l.ts;
	m->lines++;
	if (ensure_cpu(m, l.cpu))
		return -1;
	context_on(m, &l);

	int (*handler)(struct ti *, const struct ti_line *) = NULL;
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
	return handler(m, &l);
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
			add_op(t, OP_EXIT, t->exit_at);
			t->st = TS_DEAD;
			continue;
		case TS_SLEEPING:
			end_sleep(t, m->end_ts, OP_SLEEP, -1);
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
		add_op(t, OP_EXIT, m->end_ts)->at_end = true;
		t->st = TS_DEAD;
	}
}

static int read_lines(struct ti *m, FILE *in)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	errno = 0;
	while ((n = getline(&buf, &cap, in)) >= 0) {
		m->lineno++;
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			buf[--n] = 0;
		if ((size_t)n != strlen(buf)) {
			rc = bad_line(m, "a NUL byte: expected text");
			break;
		}
		const char *p = skip_blank(buf);
		if (!strncmp(p, SL_TRACE_END_COMMENT, strlen(SL_TRACE_END_COMMENT))) {
			const char *v = p + strlen(SL_TRACE_END_COMMENT);
			if (!to_time(v, v + strcspn(v, " \t"), &m->end_ts))
				m->end_ts = 0;
		}
		if (!*p || *p == '#')
			continue;
		if ((rc = on_line(m, buf)))
			break;
	}
	if (!rc && ferror(in))
		rc = sl_fail(m->err, "%s: read error (%s)", m->path, strerror(errno));
	free(buf);
	return rc;
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

static void add_int(struct json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

static void add_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

static struct json_object *sleep_json(const char *kind, const struct ti_op *op, sl_time origin)
{
	struct json_object *j = json_object_new_object();
	sl_time from = op->from_start ? origin : op->t0;

	add_str(j, "op", kind);
	add_int(j, "ns", op->t1 > from ? op->t1 - from : 0);
	add_str(j, "state", op->state == 'D' ? "D" : "S");
	return j;
}

/* A run being gathered for output: runs whose separating op was dropped
 * (a wake of a task not kept) are one run, their touching segments one. */
struct run_acc {
	sl_time ns;
	sl_time *seg;
	int nseg, cap;
};

static void acc_add(struct run_acc *a, const struct ti *m, const struct ti_op *op)
{
	const sl_time *seg = m->pool + op->seg0;

	a->seg = grow(a->seg, &a->cap, a->nseg + op->nseg, sizeof(*a->seg));
	a->ns += op->ns;
	for (int i = 0; i < op->nseg; i++) {
		if (i == 0 && a->nseg)
			a->seg[a->nseg - 1] += seg[0];
		else
			a->seg[a->nseg++] = seg[i];
	}
}

static void acc_flush(struct run_acc *a, struct json_object *ops, int64_t *cpu)
{
	if (!a->nseg)
		return;
	struct json_object *j = json_object_new_object();
	add_str(j, "op", "run");
	add_int(j, "ns", a->ns);
	if (a->nseg > 1) {
		struct json_object *arr = json_object_new_array();
		for (int i = 0; i < a->nseg; i++)
			json_object_array_add(arr, json_object_new_int64(a->seg[i]));
		json_object_object_add(j, "seg", arr);
	}
	json_object_array_add(ops, j);
	*cpu += a->ns;
	a->ns = 0;
	a->nseg = 0;
}

/* One op other than a run as JSON (NULL: dropped). */
static struct json_object *op_json(const struct ti *m, const struct ti_op *op, sl_time origin)
{
	struct json_object *j;
	const struct ti_task *other = op->task >= 0 ? &m->tasks[op->task] : NULL;

	switch (op->kind) {
	case OP_RUN:		/* gathered by task_json */
		return NULL;
	case OP_SLEEP:
		return sleep_json("sleep", op, origin);
	case OP_WAIT:
		if (!other->kept)
			return sleep_json("sleep", op, origin);
		j = sleep_json("wait", op, origin);
		add_int(j, "waker", other->json_id);
		return j;
	case OP_WAIT_CHILD:
		if (!other->kept)
			return sleep_json("sleep", op, origin);
		j = sleep_json("wait_child", op, origin);
		add_int(j, "child", other->json_id);
		return j;
	case OP_WAKE:
		if (!other->kept)
			return NULL;
		j = json_object_new_object();
		add_str(j, "op", "wake");
		add_int(j, "task", other->json_id);
		return j;
	case OP_FORK:
		if (!other->kept)
			return NULL;
		j = json_object_new_object();
		add_str(j, "op", "fork");
		add_int(j, "child", other->json_id);
		return j;
	case OP_EXEC:
		j = json_object_new_object();
		add_str(j, "op", "exec");
		add_str(j, "comm", op->comm);
		return j;
	case OP_EXIT:
		j = json_object_new_object();
		add_str(j, "op", "exit");
		add_int(j, "ns", op->ns);
		if (op->at_end)
			json_object_object_add(j, "end", json_object_new_boolean(1));
		return j;
	}
	return NULL;
}

/* A task no sched_switch line names, and that did not hold a CPU from the
 * start of the trace, was never switched in: it has no CPU time, whatever
 * lines show it running (its switch-in and switch-out are not in the trace,
 * so nothing bounds its time). */
static bool no_cpu(const struct ti_task *t)
{
	return !t->switched && !t->from_start;
}

static struct json_object *task_json(const struct ti *m, const struct ti_task *t, bool command,
				     sl_time origin)
{
	struct json_object *j = json_object_new_object(), *ops = json_object_new_array();
	struct json_object *kids = json_object_new_array();
	bool root = t->parent < 0 || !m->tasks[t->parent].kept;
	int first = command ? t->perf_exec_op + 1 : 0;
	sl_time start = command ? t->ops[t->perf_exec_op].t0 : t->first;
	int64_t cpu = 0;

	add_int(j, "id", t->json_id);
	add_int(j, "pid", t->pid);
	add_str(j, "comm", command ? t->ops[t->perf_exec_op].comm : t->comm);
	add_int(j, "prio", t->prio);
	json_object_object_add(j, "parent",
			       root ? NULL : json_object_new_int(m->tasks[t->parent].json_id));
	for (int i = 0; i < t->nchildren; i++)
		if (m->tasks[t->children[i]].kept)
			json_object_array_add(kids,
					      json_object_new_int(m->tasks[t->children[i]].json_id));
	json_object_object_add(j, "children", kids);
	add_int(j, "start_ns", start > origin ? start - origin : 0);
	if (root && t->forked && t->first > origin) {	/* its parent was not kept */
		struct json_object *s = json_object_new_object();
		add_str(s, "op", "sleep");
		add_int(s, "ns", t->first - origin);
		add_str(s, "state", "S");
		json_object_array_add(ops, s);
	}
	struct run_acc acc = { 0 };
	for (int i = first; i < t->nops; i++) {
		if (t->ops[i].kind == OP_RUN) {
			if (!no_cpu(t))
				acc_add(&acc, m, &t->ops[i]);
			continue;
		}
		struct json_object *o = op_json(m, &t->ops[i], origin);
		if (!o)
			continue;
		acc_flush(&acc, ops, &cpu);
		json_object_array_add(ops, o);
	}
	acc_flush(&acc, ops, &cpu);
	free(acc.seg);
	add_int(j, "cpu_ns", cpu);
	json_object_object_add(j, "ops", ops);
	return j;
}

/* Note what the repairs took from the kept tasks (the largest first). */
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
static int check_timeline(struct ti *m, struct json_object *w, struct sl_trace_import_stats *st)
{
	struct json_object *tasks = NULL, *v = NULL;
	int64_t cpu = 0, span = 0;

	json_object_object_get_ex(w, "tasks", &tasks);
	for (size_t i = 0; i < json_object_array_length(tasks); i++) {
		struct json_object *t = json_object_array_get_idx(tasks, i);
		if (json_object_object_get_ex(t, "cpu_ns", &v))
			cpu += json_object_get_int64(v);
	}
	if (json_object_object_get_ex(w, "duration_ns", &v))
		span = json_object_get_int64(v);
	st->cpu_ns = cpu;
	st->span_ns = span;
	st->cpus = m->ncpus;
	for (int i = 0; i < m->ntasks; i++)
		if (m->tasks[i].kept)
			note_drops(&m->tasks[i], st);
	if (m->overlap_task >= 0) {
		const struct ti_task *t = &m->tasks[m->overlap_task];
		return sl_fail(m->err, "%s: CPU %d's timeline overlaps at %lld.%09lld: %s (pid %d) "
			       "was given time another task had there (the import's repair "
			       "failed; expected one task per CPU)", m->path, m->overlap_cpu,
			       (long long)(m->overlap_at / SL_SEC),
			       (long long)(m->overlap_at % SL_SEC), t->comm, t->pid);
	}
	if (cpu > (int64_t)m->ncpus * span)
		return sl_fail(m->err, "%s: the tasks kept have %.6f s of CPU time in a span of "
			       "%.6f s on %d CPUs (the import's repair failed; expected at most "
			       "CPUs x span)", m->path, (double)cpu / SL_SEC, (double)span / SL_SEC,
			       m->ncpus);
	return 0;
}

static struct json_object *workload_json(struct ti *m, const struct sl_trace_import_opts *o,
					 struct sl_trace_import_stats *st)
{
	int command, n = 0;
	sl_time origin = select_tasks(m, o, &command);

	for (int i = 0; i < m->ntasks; i++)
		m->tasks[i].json_id = m->tasks[i].kept ? n++ : -1;
	if (!n) {
		sl_fail(m->err, "%s: no task of the trace was selected (expected --pid to name "
			"a pid the trace shows)", m->path);
		return NULL;
	}
	struct json_object *w = json_object_new_object(), *tasks = json_object_new_array();
	add_int(w, "schedlab_trace", SL_TRACE_FORMAT_VERSION);
	add_str(w, "source", m->path);
	add_int(w, "origin_ns", origin);
	sl_time end = origin;
	for (int i = 0; i < m->ntasks; i++)
		if (m->tasks[i].kept && m->tasks[i].last > end)
			end = m->tasks[i].last;
	add_int(w, "duration_ns", end - origin);
	add_int(w, "cpus", m->ncpus);
	for (int i = 0; i < m->ntasks; i++)
		if (m->tasks[i].kept)
			json_object_array_add(tasks, task_json(m, &m->tasks[i], i == command,
							       origin));
	json_object_object_add(w, "tasks", tasks);

	if (check_timeline(m, w, st)) {
		json_object_put(w);
		return NULL;
	}
	st->tasks_seen = m->ntasks;
	st->tasks_kept = n;
	st->command = command >= 0;
	if (command >= 0) {
		const struct ti_task *c = &m->tasks[command];
		st->command_pid = c->pid;
		snprintf(st->command_comm, sizeof(st->command_comm), "%s",
			 c->ops[c->perf_exec_op].comm);
	}
	return w;
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
	free(m->hkey);
	free(m->hval);
	free(m->cpu);
	free(m->pool);
}

struct json_object *sl_trace_import(FILE *in, const char *path,
				    const struct sl_trace_import_opts *opts,
				    struct sl_trace_import_stats *stats, struct sl_err *err)
{
	static const struct sl_trace_import_opts autosel = { .select = SL_SELECT_AUTO };
	struct sl_trace_import_stats local;
	struct ti m = { .path = path, .err = err, .overlap_task = -1 };
	struct json_object *w = NULL;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	if (!opts)
		opts = &autosel;
	if (read_lines(&m, in) == 0) {
		if (!m.used)
			sl_fail(err, "%s: no scheduling events (expected the perf script output of "
				"'perf sched record', or ftrace text with sched events)", path);
		else {
			finish_tasks(&m);
			w = workload_json(&m, opts, stats);
		}
	}
	fill_stats(&m, stats);
	ti_free(&m);
	return w;
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
