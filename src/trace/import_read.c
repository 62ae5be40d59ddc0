/*
 * trace/import_read.c - the trace import's first step: the lines of a
 * perf script or ftrace text, one pass, to each task's state and timeline
 * of ops and each CPU's holder (trace/import_model.h; the rules are in
 * import.c's header and docs/traces.md).
 */
#include "trace/import_model.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "trace/perf.h"

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

/* A line that names a task without its prio (sched_process_fork's parent,
 * sched_process_exec's task): the prio it shows is unchanged. */
#define TI_PRIO_UNSAID INT_MIN

/* A new task record for `pid` (a pid seen again after its task died gets
 * a new record; unsaid prio: 120).  Returns its index; pointers into
 * m->tasks move. */
static int add_task(struct ti *m, int pid, const char *comm, int prio, sl_time ts)
{
	if (prio == TI_PRIO_UNSAID)
		prio = 120;
	m->tasks = grow(m->tasks, &m->captasks, m->ntasks + 1, sizeof(*m->tasks));
	struct ti_task *t = &m->tasks[m->ntasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tgid = -1;
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

	if (i >= 0 && m->tasks[i].st != TS_DEAD) {
		if (prio != TI_PRIO_UNSAID)
			m->tasks[i].prio = prio;
		return i;
	}
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
	op->prio = t->prio;	/* what the line ending it showed (charge) */
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

/* t ran `ns` at `prio` (the prio the line that ends the time shows; a
 * prio changes while its task sleeps or runs, and the next line shows
 * it). */
static void ran_at(struct ti_task *t, int prio, sl_time ns)
{
	for (int i = 0; i < t->nran; i++)
		if (t->ran[i].prio == prio) {
			t->ran[i].ns = ti_add_sat(t->ran[i].ns, ns);
			return;
		}
	if (t->nran < TI_PRIOS)
		t->ran[t->nran++] = (struct ti_ran){ .prio = prio, .ns = ns };
}

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
	ran_at(t, t->prio, ts - t->on_since);
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
	/* its thread group, where the column shows it */
	if (l->tgid > 0 && (i = sl_pidmap_get(&m->pids, l->pid)) >= 0 && m->tasks[i].st != TS_DEAD)
		m->tasks[i].tgid = l->tgid;
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
	int pi = task_of(m, (int)ppid, pcomm, TI_PRIO_UNSAID, l->ts);
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
	i = task_of(m, (int)pid, l->comm, TI_PRIO_UNSAID, l->ts);
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

/* sched_process_wait: the task in the line's context entered wait(); a
 * reap op, where a replay reaps an exited child if there is one (the
 * policies' release_task credit comes then).  The pid field is the pid
 * waited for, not the waiter. */
static int on_wait_event(struct ti *m, const struct sl_trace_line *l)
{
	char comm[TI_COMM];
	long pid, prio;

	if (sl_trace_field_comm(&m->src, l, "comm", "pid", comm) ||
	    sl_trace_field_int(&m->src, l, "pid", INT_MIN, INT_MAX, &pid) ||
	    sl_trace_field_int(&m->src, l, "prio", -1000, 1000, &prio))
		return -1;
	m->saw_wait = true;
	if (l->pid <= 0)
		return 0;	/* perf could not tell who waited */
	int i = task_of(m, l->pid, comm, (int)prio, l->ts);
	struct ti_task *t = &m->tasks[i];
	make_running(m, t, l->cpu, l->ts);
	close_run(m, t, l->ts);
	add_op(m, t, OP_REAP, l->ts)->task = i;
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
	else if (!strcmp(l.event, "sched_process_wait"))
		handler = on_wait_event;
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

/* Whether the sleep of wait_child op j began in wait(): the task's last
 * op before it but runs is a reap (sched_process_wait: do_wait's
 * tracepoint, a few us of the task's own run before its schedule()). */
static bool asleep_in_wait(const struct ti_task *t, int j)
{
	while (--j >= 0 && t->ops[j].kind == OP_RUN)
		;
	return j >= 0 && t->ops[j].kind == OP_REAP;
}

/* A child's exit wakes a sleep outside wait() only through a SIGCHLD the
 * task catches (ignored by default, it wakes nobody): such a wakeup says
 * that the task's image catches it, and so the signal, a plain wakeup,
 * also woke its sleeps in wait() (2.4.27, 2.6.11 do_notify_parent:
 * signal_wake_up first; __wake_up_parent then finds it running).  A
 * handler lasts until exec.  Only a trace that shows where wait() begins
 * (sched_process_wait) tells the two sleeps apart. */
static void mark_caught_sigchld(struct ti *m, struct ti_task *t)
{
	int from = 0;
	bool caught = false;

	for (int j = 0; j <= t->nops; j++) {
		struct ti_op *op = j < t->nops ? &t->ops[j] : NULL;
		if (op && op->kind == OP_WAIT_CHILD)
			op->outside_wait = m->saw_wait && op->state == 'S' && !asleep_in_wait(t, j);
		if (op && op->kind != OP_EXEC) {
			caught |= op->kind == OP_WAIT_CHILD && op->outside_wait;
			continue;
		}
		for (int k = from; caught && k < j; k++)
			if (t->ops[k].kind == OP_WAIT_CHILD && t->ops[k].state == 'S')
				t->ops[k].caught = true;
		from = j + 1;
		caught = false;
	}
}

void ti_finish_tasks(struct ti *m)
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
	for (int i = 0; i < m->ntasks; i++)
		mark_caught_sigchld(m, &m->tasks[i]);
}

static int on_text(void *arg, char *text)
{
	return on_line(arg, text);
}

int ti_read_lines(struct ti *m, FILE *in)
{
	return sl_trace_read(in, &m->src, on_text, m, &m->end_ts);
}

void ti_fill_stats(const struct ti *m, struct sl_trace_import_stats *st)
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

void ti_free(struct ti *m)
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
