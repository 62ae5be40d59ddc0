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
 * Only the exact pattern is taken: the fork op followed by the wait, with
 * nothing between them, in state D, for that child, whose first wake of
 * its parent is next to its first exec (after it, runs aside) or to its
 * exit with no exec before.  Anything else stays a wait and a wake.
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

/* The op of child c that ended parent p's vfork, or -1. */
static int vfork_end(const struct ti_task *c, int p, sl_time woken)
{
	for (int k = 0; k < c->nops; k++) {
		const struct ti_op *op = &c->ops[k];
		if (op->kind == OP_EXEC) {
			int w = next_op(c, k);
			return w >= 0 && c->ops[w].kind == OP_WAKE && c->ops[w].task == p &&
			       c->ops[w].t0 == woken ? w : -1;
		}
		if (op->kind == OP_WAKE && op->task == p) {
			int x = next_op(c, k);
			return x >= 0 && c->ops[x].kind == OP_EXIT && op->t0 == woken ? k : -1;
		}
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
			struct ti_op *fork = &t->ops[k], *wait = &t->ops[k + 1];
			if (fork->kind != OP_FORK || wait->kind != OP_WAIT ||
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
