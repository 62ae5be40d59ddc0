/*
 * trace/import_vfork.c - the trace import's vforks: a parent that forks
 * and at once sleeps uninterruptible until its child execs or exits is
 * in vfork() (do_fork's wait_for_completion(&vfork), ended by the
 * child's mm_release in exec_mmap or exit_mm: 2.4.27 and 2.6.11
 * kernel/fork.c, fs/exec.c).  The workload says so on the fork op
 * ("vfork": true) instead of a wait and a wake, so that the replay's
 * parent sleeps in its fork as the recorded one did, and is not, between
 * a fork and a wait, a runnable task another CPU may take (docs/traces.md,
 * "The workload").
 *
 * Only this pattern is taken: the fork op followed by the wait (runs aside:
 * a real parent runs a few us in do_fork after the fork tracepoint, which
 * the replay then runs after its wait), in state D, for that child, whose
 * first wake of its parent is next to its first exec or, with no exec
 * before, to its exit.  Anything else stays a wait and a wake.
 */
#include "trace/import_model.h"

/* The index of t's first op after ops[k] that is not a run, or -1. */
static int next_op(const struct ti_task *t, int k)
{
	for (k++; k < t->nops; k++)
		if (t->ops[k].kind != OP_RUN)
			return k;
	return -1;
}

/* The op of child c that ended parent p's vfork, or -1: its first wake of
 * p, at `woken`, next to its first exec (runs aside, on either side: the
 * kernel wakes the parent in exec_mmap, before the exec tracepoint;
 * schedlab's traces write the exec first), or, with no exec before it,
 * next before its exit. */
static int vfork_end(const struct ti_task *c, int p, sl_time woken)
{
	int exec = -1, wake = -1;

	for (int k = 0; k < c->nops && (exec < 0 || wake < 0); k++) {
		if (c->ops[k].kind == OP_EXEC && exec < 0)
			exec = k;
		if (c->ops[k].kind == OP_WAKE && c->ops[k].task == p && wake < 0)
			wake = k;
	}
	if (wake < 0 || c->ops[wake].t0 != woken)
		return -1;
	if (exec >= 0 && (next_op(c, exec) == wake || next_op(c, wake) == exec))
		return wake;
	if (exec < 0 || exec > wake) {
		int x = next_op(c, wake);
		return x >= 0 && c->ops[x].kind == OP_EXIT ? wake : -1;
	}
	return -1;
}

void ti_mark_vforks(struct ti *m)
{
	for (int i = 0; i < m->ntasks; i++) {
		struct ti_task *t = &m->tasks[i];
		if (!t->kept)
			continue;
		for (int k = 0; k + 1 < t->nops; k++) {
			struct ti_op *fork = &t->ops[k];
			int w = next_op(t, k);
			if (fork->kind != OP_FORK || w < 0)
				continue;
			struct ti_op *wait = &t->ops[w];
			if (wait->kind != OP_WAIT ||
			    wait->task != fork->task || wait->state != 'D' || wait->from_start)
				continue;
			struct ti_task *c = &m->tasks[fork->task];
			int end = c->kept ? vfork_end(c, i, wait->t1) : -1;
			if (end < 0)
				continue;
			fork->state = 'V';
			wait->kind = OP_VFORK_DONE;
			c->ops[end].kind = OP_VFORK_DONE;
		}
	}
}
