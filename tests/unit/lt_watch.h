/*
 * lt_watch.h - an observer for the tests of pthreads=linuxthreads
 * (workload/linuxthreads.h): which thread clones the threads, whether the
 * creator waits meanwhile, and whether each manager reaps its threads
 * before it exits.  Shared by test_workload_net.c (chat) and
 * test_workload_bench.c (javabench).
 */
#ifndef SL_TESTS_LT_WATCH_H
#define SL_TESTS_LT_WATCH_H

#include <string.h>

#include "sim/observer.h"
#include "sim/prog.h"
#include "sim/task.h"

struct lt_watch {
	int by_creator;		/* threads cloned by a thread that is not a manager */
	int by_manager;		/* threads cloned by a manager ... */
	int creator_awake;	/* ... while the creator had not suspended */
	int managers_exited;
	int exited_unreaped;	/* managers that exited with children not reaped */
};

static inline bool lt_watch_is_manager(const struct sl_task *t)
{
	return t && t->prog && !strcmp(t->prog->name, "linuxthreads-manager");
}

static inline void lt_watch_fork(void *ctx, sl_time now, const struct sl_task *parent,
				 const struct sl_task *child)
{
	struct lt_watch *w = ctx;
	(void)now;
	if (!parent || child->mm != parent->mm)	/* threads only */
		return;
	if (lt_watch_is_manager(parent)) {
		w->by_manager++;
		if (parent->parent->state != SL_TASK_SLEEPING)
			w->creator_awake++;
	} else {
		w->by_creator++;
	}
}

static inline void lt_watch_exit(void *ctx, sl_time now, const struct sl_task *t)
{
	struct lt_watch *w = ctx;
	(void)now;
	if (!lt_watch_is_manager(t))
		return;
	w->managers_exited++;
	if (t->nchildren)
		w->exited_unreaped++;
}

static inline struct sl_observer lt_watch_observer(struct lt_watch *w)
{
	return (struct sl_observer){ .ctx = w, .sched_fork = lt_watch_fork,
				     .sched_exit = lt_watch_exit };
}

#endif
