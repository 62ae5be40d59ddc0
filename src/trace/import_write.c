/*
 * trace/import_write.c - the trace import's last step: the kept tasks as
 * a replayable workload (docs/traces.md, "The workload"), written as it
 * goes; runs that only dropped ops separate become one run, and waits for
 * tasks not kept become timed sleeps (trace/import_model.h, import.c).
 */
#include "trace/import_model.h"

#include "trace/json_stream.h"

/* Whether an op other than a run is written: a wake or fork of a task not
 * kept is dropped (and the runs around it become one). */
static bool op_written(const struct ti *m, const struct ti_op *op)
{
	if (op->kind == OP_RUN || op->kind == OP_VFORK_DONE)
		return false;
	if (op->kind == OP_WAKE || op->kind == OP_FORK)
		return m->tasks[op->task].kept;
	if (op->kind == OP_REAP) {	/* only where a child of the workload may be reaped */
		const struct ti_task *t = &m->tasks[op->task];
		for (int c = 0; c < t->nchildren; c++)
			if (m->tasks[t->children[c]].kept)
				return true;
		return false;
	}
	return true;
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
 * total, and its segments, those that touch across a dropped op merged;
 * and, where it ran at another prio than the task's run before it (*prio,
 * from the task's own), that prio: the last of the runs' (a renice, a
 * change of class or a priority boost since). */
static void run_out(struct sl_json_stream *js, const struct ti *m, const struct ti_task *t,
		    int i, int end, int *prio)
{
	sl_time ns = 0;
	int nseg = 0, runs = 0, at = *prio;

	for (int k = i; k < end; k++)
		if (t->ops[k].kind == OP_RUN) {
			ns += t->ops[k].ns;
			nseg += t->ops[k].nseg;	/* at least 1 */
			runs++;
			at = t->ops[k].prio;
		}
	nseg -= runs - 1;
	sl_json_open(js, NULL, '{');
	sl_json_str(js, "op", "run");
	sl_json_int(js, "ns", ns);
	if (at != *prio) {
		sl_json_int(js, "prio", at);
		*prio = at;
	}
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
static void op_out(struct sl_json_stream *js, const struct ti *m, const struct ti_task *t,
		   const struct ti_op *op, sl_time origin)
{
	const struct ti_task *other = NULL;

	if (!op_written(m, op))
		return;
	if (op->kind == OP_WAIT || op->kind == OP_WAIT_CHILD)
		other = &m->tasks[op->task];
	sl_json_open(js, NULL, '{');
	switch ((enum ti_op_kind)op->kind) {
	case OP_RUN:		/* run_out's */
	case OP_VFORK_DONE:	/* the fork op's "vfork" */
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
		/* woken by a SIGCHLD its task catches, outside wait() or in
		 * it (mark_caught_sigchld) */
		if (other->kept && op->caught)
			sl_json_bool(js, "signal", true);
		if (other->kept && op->caught && op->outside_wait)
			sl_json_bool(js, "outside_wait", true);
		break;
	case OP_WAKE:
		sl_json_str(js, "op", "wake");
		sl_json_int(js, "task", m->tasks[op->task].json_id);
		break;
	case OP_FORK:
		sl_json_str(js, "op", "fork");
		sl_json_int(js, "child", m->tasks[op->task].json_id);
		if (op->state == 'V')
			sl_json_bool(js, "vfork", true);
		if (ti_is_thread_of(&m->tasks[op->task], t))
			sl_json_bool(js, "thread", true);
		break;
	case OP_EXEC:
		sl_json_str(js, "op", "exec");
		sl_json_str(js, "comm", m->comms[op->comm]);
		break;
	case OP_REAP:
		sl_json_str(js, "op", "reap");
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
	int prio = ti_task_prio(t);	/* what the replay starts it at */

	sl_json_open(js, "ops", '[');
	if (root && t->forked && t->first > origin) {	/* its parent was not kept */
		sl_json_open(js, NULL, '{');
		sl_json_str(js, "op", "sleep");
		sl_json_int(js, "ns", t->first - origin);
		sl_json_str(js, "state", "S");
		sl_json_close(js, '}');
	}
	for (int i = ti_first_op(t, command); i < t->nops;) {
		if (t->ops[i].kind != OP_RUN) {
			op_out(js, m, t, &t->ops[i++], origin);
			continue;
		}
		int end = i;
		while (end < t->nops && !op_written(m, &t->ops[end]))
			end++;
		if (!ti_no_cpu(t))
			run_out(js, m, t, i, end, &prio);
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
	sl_json_int(js, "prio", ti_task_prio(t));
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
	sl_json_int(js, "cpu_ns", ti_task_cpu(t, command));
	ops_out(js, m, t, command, origin);
	sl_json_close(js, '}');
}

void ti_workload_out(FILE *f, const struct ti *m, const struct ti_plan *p)
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
