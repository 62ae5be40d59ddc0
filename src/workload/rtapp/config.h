/*
 * config.h - an rt-app JSON file as the loader leaves it (parse.c), shared
 * by the simulated rt-app (rtapp.c, log.c) and the real one
 * (src/real/rtapp.c), ready to be run by the thread
 * programs of rtapp.c.  Times are in nanoseconds (the file's microseconds
 * times 1000); resources (mutexes, barriers, condition variables, shared
 * timers) are numbered in the order the file first names them.
 */
#ifndef SL_WORKLOAD_RTAPP_CONFIG_H
#define SL_WORKLOAD_RTAPP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/cpumask.h"
#include "base/err.h"
#include "base/units.h"
#include "sim/task.h"

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
	RT_EV_MEM,		/* memset of `bytes`: memory-bound work */
	RT_EV_IORUN,		/* write of `bytes` to the disk */
};

struct rt_event {
	enum rt_ev_kind kind;
	sl_time ns;		/* run, runtime, sleep: duration; timer: period */
	long long bytes;	/* mem, iorun: size */
	int res;		/* mutex, barrier, cond or shared-timer index; fork: task
				 * index; unique timer: index in the task's own timers */
	int mutex;		/* wait, sync: the mutex */
	bool unique;		/* timer: one per thread ("unique..." ref) */
	bool absolute;		/* timer: "absolute" mode (never re-based) */
};

/* A thread's or a phase's scheduling class (rt-app's sched_data): its
 * "policy" and "priority" (the nice value under SCHED_OTHER, BATCH and
 * IDLE; rt_priority 1..99 under FIFO and RR). */
struct rt_sched {
	bool set;		/* phase: it has policy or priority keys */
	bool same_policy;	/* phase: no "policy": the thread's current one */
	bool prio_given;	/* "priority" given (else the class's default) */
	int policy;		/* enum sl_sched_policy */
	int prio;
	sl_time dl_runtime, dl_period, dl_deadline;	/* SCHED_DEADLINE */
};

/* A "cpus" list: rt-app's sched_setaffinity at a thread's or a phase's
 * start.  The mask lives as long as the loaded file (SETAFFINITY and fork
 * actions point to it). */
struct rt_cpus {
	bool set;
	int max;		/* the largest CPU named (checked against the machine) */
	sl_cpumask mask;
};

struct rt_phase {
	const char *name;
	long loop;		/* iterations; -1 = for ever */
	int nev;
	struct rt_event *ev;
	struct rt_cpus cpus;	/* unset: the thread's own "cpus" (or all) */
	struct rt_sched sched;	/* unset: unchanged */
};

struct rt_task {
	const char *name;
	int instance;		/* threads started at time 0 */
	long loop;		/* passes over the phases; -1 = for ever */
	sl_time delay;
	struct rt_sched sched;	/* its class at its start (policy resolved) */
	struct rt_cpus cpus;	/* unset: every CPU */
	int nphases;
	struct rt_phase *phases;
	int nunique;		/* its "unique..." timers */
	bool has_timer;
	bool forked;		/* named by some fork event */
	bool forever;		/* never ends by itself */
};

enum rt_res_kind { RT_RES_MUTEX, RT_RES_BARRIER, RT_RES_COND, RT_RES_TIMER };

struct rt_config {
	const char *path;
	sl_time duration;	/* global.duration; 0 = until the threads end */
	int default_policy;	/* global.default_policy */
	long long mem_buffer;	/* global.mem_buffer_size (bytes) */
	long ns_per_loop;	/* global.calibration as ns per loop; 0: "CPUn" */
	const char *log_basename;	/* global.log_basename ("rt-app") */
	bool has_mem, has_io, has_deadline;
	bool cumulative_slack;	/* global.cumulative_slack (the logs' slack) */
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

/* ---- rt-app's log files (log.c) ---- */

#define RT_LOG_CHUNK 256		/* log rows allocated at once, per thread */

/* One line of rt-app's per-thread log: one phase iteration (rt-app.c's
 * timing_point_t; times in microseconds). */
struct rt_log_row {
	long long perf, run, period, start, end, rel_st, slack, c_duration, c_period, wu_lat;
};

struct rt_log_chunk {
	struct rt_log_chunk *next;
	int n;
	struct rt_log_row row[RT_LOG_CHUNK];
};

/* Before a run: `dir` exists (created if missing) and holds no log of the
 * file's threads ("<basename>-<thread>-<index>.log").  -1 with err. */
int rt_logdir_check(const struct rt_config *cfg, const char *dir, struct sl_err *err);
/* After it: one thread's log, as rt-app writes it; never replaces a file.
 * -1 if the file cannot be created or written. */
int rt_log_write(const char *dir, const struct rt_config *cfg, const char *thread, int index,
		 int policy, int prio, const struct rt_log_chunk *rows);

/* FIFO and RR: "priority" is an rt_priority, not a nice value. */
static inline bool rt_class(int policy)
{
	return policy == SL_SCHED_FIFO || policy == SL_SCHED_RR;
}

/* "SCHED_FIFO" for SL_SCHED_FIFO, ... */
const char *rt_policy_name(int policy);

#define RT_TASK_METRICS 12	/* thread descriptions with metrics of their own: the
				 * first that start threads (instance > 0 or forked) */

/* A description's name as a metric prefix ("audio" -> "audio_slack_us"):
 * other characters than letters, digits and '-' as '_', "t<i>" if it is
 * longer than 20 characters. */
void rt_metric_prefix(const struct rt_task *t, int i, char *out, size_t size);

/* The file's text as workgen hands it to rt-app: repeated events and
 * phases numbered ("run#2", which rt-app reads as a run by its prefix) and
 * bare "suspend" keys completed; *len its length.  NULL with err set if the
 * file cannot be read.  (For the real rt-app: src/real/rtapp.c.) */
char *rt_workgen_text(const char *path, size_t *len, struct sl_err *err);

/* Read and check an rt-app file.  Returns 0, or -1 with a one-line
 * SL_ERR_INPUT error naming the file, the line when it is known, and the
 * key ("tasks.thread0.run"). */
int rt_config_load(struct rt_config *cfg, const char *path, const struct rt_alloc *a,
		   struct sl_err *err);
/* The same, reading repeated keys as workgen does (rt_config_load) or, with
 * `workgen` false, as json-c does when rt-app is given the file directly:
 * each key once, at its first place, with its last value. */
int rt_config_load_keys(struct rt_config *cfg, const char *path, const struct rt_alloc *a,
			bool workgen, struct sl_err *err);

/* The simulated time finite thread t needs at least (0 for a forever
 * one): its delay, then its loops over its phases, each its loops over the
 * events that take time (a run at the reference speed; a timer waits its
 * period at most, but a thread that keeps to its period takes that long)
 * and rt-app's own work, iter_ns per phase iteration and event_ns per
 * event; saturated at SL_TIME_MAX. */
sl_time rt_task_time(const struct rt_task *t, sl_time iter_ns, sl_time event_ns);

#endif
