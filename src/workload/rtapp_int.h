/*
 * rtapp_int.h - private to rtapp.c and rtapp_parse.c: an rt-app JSON file
 * as the loader leaves it (rtapp_parse.c), ready to be run by the thread
 * programs of rtapp.c.  Times are in nanoseconds (the file's microseconds
 * times 1000); resources (mutexes, barriers, condition variables, shared
 * timers) are numbered in the order the file first names them.
 */
#ifndef SL_WORKLOAD_RTAPP_INT_H
#define SL_WORKLOAD_RTAPP_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "base/units.h"

#define RT_MAX_THREADS 4096	/* threads started at once, and live at any time */

enum rt_ev_kind {
	RT_EV_RUN,		/* work on the reference CPU */
	RT_EV_RUNTIME,		/* busy for a wall time, whatever the speed */
	RT_EV_SLEEP,		/* relative sleep */
	RT_EV_TIMER,		/* sleep to the next period boundary of a timer */
	RT_EV_LOCK,
	RT_EV_UNLOCK,
	RT_EV_BARRIER,
	RT_EV_FORK,		/* start a thread from another description */
	RT_EV_YIELD,
	RT_EV_WAIT,		/* condition variable wait (with its mutex) */
	RT_EV_SIGNAL,
	RT_EV_BROAD,
	RT_EV_SYNC,		/* lock; signal; wait; unlock */
	RT_EV_SUSPEND,		/* wait on the named condition */
	RT_EV_RESUME,		/* broadcast the named condition */
};

struct rt_event {
	enum rt_ev_kind kind;
	sl_time ns;		/* run, runtime, sleep: duration; timer: period */
	int res;		/* mutex, barrier, cond or shared-timer index; fork: task
				 * index; unique timer: index in the task's own timers */
	int mutex;		/* wait, sync: the mutex */
	bool unique;		/* timer: one per thread ("unique..." ref) */
	bool absolute;		/* timer: "absolute" mode (never re-based) */
};

struct rt_phase {
	long loop;		/* iterations; -1 = for ever */
	int nev;
	struct rt_event *ev;
};

struct rt_task {
	const char *name;
	int instance;		/* threads started at time 0 */
	long loop;		/* passes over the phases; -1 = for ever */
	sl_time delay;
	int nice;		/* "priority" under SCHED_OTHER */
	int nphases;
	struct rt_phase *phases;
	int nunique;		/* its "unique..." timers */
	bool has_timer;
	bool forked;		/* named by some fork event */
	bool forever;		/* never ends by itself */
	sl_time time;		/* a finite thread: its delay plus its loops of run,
				 * runtime, sleep and timer periods (saturated at
				 * SL_TIME_MAX); what it needs of the clock at least */
};

enum rt_res_kind { RT_RES_MUTEX, RT_RES_BARRIER, RT_RES_COND, RT_RES_TIMER };

struct rt_config {
	const char *path;
	sl_time duration;	/* global.duration; 0 = until the threads end */
	int ntasks;
	struct rt_task *tasks;
	int nres[4];		/* per enum rt_res_kind */
	int *barrier_parties;	/* threads that use each barrier */
	int threads;		/* threads started at time 0 */
	bool has_timers, has_forks;
	int forever_task;	/* a task that runs for ever (-1: none) */
	unsigned long key_compares;	/* name comparisons the loader's lookups made:
					 * O(1) per name read (tests bound it) */
};

/* Where the loader's memory comes from: the run's (sl_sim_alloc) when
 * starting a run, a scratch arena when only validating. */
struct rt_alloc {
	void *(*alloc)(void *ctx, size_t size);	/* zeroed memory */
	void *ctx;
};

/* Read and check an rt-app file.  Returns 0, or -1 with a one-line
 * SL_ERR_INPUT error naming the file, the line when it is known, and the
 * key ("tasks.thread0.run"). */
int rt_config_load(struct rt_config *cfg, const char *path, const struct rt_alloc *a,
		   struct sl_err *err);

#endif
