/*
 * trace/import_plan.c - the trace import's second step: which tasks the
 * workload keeps (perf's recorded command and its descendants, given
 * pids and theirs, or all; never the scheduler's own threads), their
 * numbering, the workload's origin and span, and the check that their
 * CPU time holds: no CPU's time given twice, at most CPUs x span, and
 * what the repairs dropped (trace/import_model.h, import.c).
 */
#include "trace/import_model.h"

#include <string.h>

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

int ti_task_prio(const struct ti_task *t)
{
	int best = -1;

	for (int i = 0; i < t->nran; i++)
		if (best < 0 || t->ran[i].ns > t->ran[best].ns)
			best = i;
	return best >= 0 ? t->ran[best].prio : t->prio;
}

/* The CPU time the JSON gives a kept task: its runs, unless it has none. */
sl_time ti_task_cpu(const struct ti_task *t, bool command)
{
	sl_time cpu = 0;

	if (ti_no_cpu(t))
		return 0;
	for (int i = ti_first_op(t, command); i < t->nops; i++)
		if (t->ops[i].kind == OP_RUN)
			cpu = ti_add_sat(cpu, t->ops[i].ns);
	return cpu;
}

static void note_drops(const struct ti_task *t, struct sl_trace_import_stats *st)
{
	sl_time dropped = t->dropped;

	if (ti_no_cpu(t))
		for (int i = 0; i < t->nops; i++)
			if (t->ops[i].kind == OP_RUN)
				dropped += t->ops[i].ns;
	if (!dropped)
		return;
	st->cuts += t->cuts;
	st->never_switched += ti_no_cpu(t);
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
			cpu = ti_add_sat(cpu, ti_task_cpu(&m->tasks[i], i == command));
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

int ti_plan_workload(struct ti *m, const struct sl_trace_import_opts *o, struct ti_plan *p,
			 struct sl_trace_import_stats *st)
{
	int n = 0;

	p->origin = select_tasks(m, o, &p->command);
	ti_mark_vforks(m);
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
