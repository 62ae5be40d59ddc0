/*
 * rtapp.c - rt-app (scheduler-tools/rt-app, ARM/Linaro's workload
 * generator, used by LISA and the EAS work) as a workload: `rtapp:file=PATH`
 * runs the threads an rt-app JSON file describes.  parse.c reads and
 * checks the file; this file runs it and measures it as rt-app's per-phase
 * log would.
 *
 * Model (the semantics of rt-app 1.0 and its doc/tutorial.txt):
 *   - the root task ("rt-app") starts `instance` threads of every thread
 *     description at time 0, in file order (threads: they share its mm),
 *     and waits for them; a thread sleeps `delay` first, then runs its
 *     phases in order, each `loop` times, the whole sequence `loop` times
 *     (-1: for ever); a thread written without "phases" is one phase that
 *     the thread repeats for ever (rt-app 1.0's behaviour, checked with the
 *     Debian binary);
 *   - run N: N microseconds of work on the reference CPU.  rt-app turns N
 *     into iterations of a busy loop calibrated on one CPU ("calibration":
 *     "CPU0", or the ns per loop given), so a run takes N us alone on the
 *     calibration CPU at its speed and longer on a slower or shared one.
 *     The simulator's reference ns is by definition the cost alone on an
 *     idle CPU of the machine, so run N is N x 1000 reference ns of work,
 *     whatever the calibration value: the calibration CPU is the reference
 *     CPU.  Its work class is `class=` (default fp: rt-app's loop is
 *     floating-point arithmetic);
 *   - runtime N: busy until N us of wall time have passed since the event
 *     began, in 32 us chunks of work (the granularity of upstream rt-app's
 *     runtime loop), whatever the speed or preemption;
 *   - sleep N: a relative sleep; timer {ref, period, mode}: the timer's
 *     next expiry advances by period from where it was (its origin: the
 *     start of the thread that first uses it, rt-app 1.0's t_first, after
 *     the thread's delay; threads start together); the thread sleeps until then, or, when it
 *     is already late, goes on at once and - in "relative" mode - the timer
 *     restarts from now ("absolute" never re-bases).  Refs starting with
 *     "unique" are per thread; other names are shared by every thread that
 *     uses them, as in rt-app;
 *   - lock/unlock: the engine's mutexes by name; barrier: the engine's
 *     barrier, its parties the threads whose description names it (counted
 *     per instance, as rt-app 1.0 does); yield: sched_yield;
 *   - wait/signal/broad/sync and suspend/resume: condition variables (a
 *     count of waiters and a byte channel): signal wakes one waiter, broad
 *     all, and a signal with nobody waiting is lost; suspend NAME waits on
 *     condition NAME and resume NAME broadcasts it, each holding the mutex
 *     NAME, as rt-app 1.0 does;
 *   - "cpus" of a thread: its mask from its fork; of a phase: applied at
 *     each iteration of the phase when it changes the mask (rt-app's
 *     set_thread_affinity: the phase's, else the thread's, else all CPUs);
 *     "policy"/"priority" likewise (fork with a class; SETSCHED at a
 *     phase's iterations, rt-app's set_thread_param); "priority" is nice
 *     under SCHED_OTHER/BATCH/IDLE, rt_priority under FIFO/RR.  rt_check
 *     refuses CPUs the machine lacks and classes the policy lacks;
 *   - mem N: a memset of N bytes, mem-class work of N / mem_gbs reference
 *     ns; iorun N: one sequential disk write of N bytes (sim/blockdev.h);
 *   - fork NAME (upstream rt-app, not 1.0): starts one more thread of
 *     description NAME (give it "instance": 0 if it should run only when
 *     forked), child of the forking thread;
 *   - with global.duration (or `duration=`, which overrides it) the run
 *     lasts exactly that long, as rt-app 1.0's main thread sleeps for the
 *     duration and then stops every thread, even those that ended earlier
 *     or wait for ever; without one it ends when the last thread ends, or
 *     after RT_DEFAULT_HORIZON if a thread loops for ever (rt_note says
 *     so: rt-app would run until killed).
 *
 * Metrics (per timer event, as rt-app's log columns; docs/workloads.md):
 * slack = the expiry minus the time the timer event is reached (negative:
 * the period overran), a miss when it is <= 0, wakeup latency = from the
 * expiry until the thread runs again.  Headline: slack_mean_us.  Also the
 * wall time spent in run/runtime events, the stretch of run events (their
 * wall time over their reference time: 1 = as fast as alone on the
 * reference CPU), phase iterations and their mean duration, per thread
 * description and overall.
 *
 * Sources: rt-app doc/tutorial.txt and examples (Debian rt-app 1.0-1);
 * github.com/scheduler-tools/rt-app src/rt-app_parse_config.c (grammar, log
 * columns).
 *
 * Omitted / simplified:
 *   - no SCHED_DEADLINE (the engine's attributes have no deadline
 *     parameters), utilisation clamps or task groups: refused;
 *   - rt-app's own work is two numbers (measured with `validate` against
 *     Debian's rt-app 1.0 on the 2-CPU host, docs/workloads.md "rt-app's
 *     own cost"): iter_ns per phase iteration (its clock reads and the
 *     log row it formats and writes; 0.52-0.88 us, 0.7 taken) and
 *     event_ns per event (its dispatch and an uncontended mutex
 *     operation; 10 ns), integer work charged when the iteration ends, or
 *     as soon as RT_OWED_MAX of it has accrued inside one (a phase of
 *     thousands of events); the system calls of its events cost only what
 *     the engine charges (switches, fork);
 *   - rt-app's per-phase log files are written after the run from rows
 *     kept in memory (logdir=, log.c), at most RT_LOG_ROWS_MAX;
 *   - a thread that performs 10000 events without simulated time passing
 *     (e.g. an uncontended lock/unlock loop) ends and is counted in
 *     stalled_threads; a fork beyond 4096 live threads is refused
 *     (forks_refused);
 *   - the file is read again by every run (start() cannot fail): if it
 *     changed into something invalid after validation, the run has no
 *     threads and reports file_unreadable = 1.
 */
#include <ctype.h>
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/memsize.h"
#include "sim/blockdev.h"
#include "sim/policy_ops.h"
#include "sim/sim.h"
#include "workload/rtapp/config.h"
#include "workload/rtapp/rtapp.h"

#define RT_CHUNK_NS (32 * SL_USEC)	/* runtime events work in these chunks */
#define RT_STILL_MAX 10000		/* events without time passing before a thread stalls */
#define RT_CHAN_BYTES (1L << 30)	/* a condition's wakeup channel never fills */
#define RT_DEFAULT_HORIZON (10 * SL_SEC)	/* a run of threads that loop for ever,
						 * without a duration */
#define RT_LOG_ROWS_MAX (1L << 19)	/* log rows kept in a run (46 MB) */
#define RT_OWED_MAX SL_USEC		/* rt-app's own work is paid at the latest
					 * when this much has accrued */

/* ---- run state ---- */

struct rt_cond {
	struct sl_chan *chan;		/* one byte per wakeup */
	int waiting;			/* waiters not yet signalled */
};

struct rt_timer {
	bool init;
	sl_time next;			/* the next expiry */
};

struct rt_stats {			/* per thread description */
	long threads, loops;
	sl_time period_sum;		/* phase iterations' wall time */
	sl_time run_wall;		/* in run and runtime events */
	sl_time stretch_wall, stretch_ref;	/* completed run events */
	long timers, missed;
	double slack_sum;
	sl_time slack_min;
	long wakeups;
	double wu_sum;
	sl_time wu_max;
};

struct rt_thread;

struct rt_run {
	const struct rt_config *cfg;
	enum sl_wclass wclass;
	double mem_ns_per_byte;		/* mem events: reference ns per byte written */
	sl_cpumask all;			/* the machine's CPUs: a phase without "cpus"
					 * in a thread without them */
	bool logging;			/* logdir= given: keep the log rows */
	long log_rows, log_dropped;
	struct rt_thread **threads;	/* every thread started, in rt-app's index order */
	int nthreads, capthreads;
	struct sl_mutex **mutex;
	struct sl_barrier **barrier;
	struct rt_cond *cond;
	struct rt_timer *timer;
	struct rt_stats *stats;
	bool has_run;			/* the file has run events */
	long ns_per_loop;		/* the logs' perf: run work / this */
	bool load_failed;
	int next_task, next_instance;	/* the root's next thread to start */
	bool root_waiting;
	sl_time limit;			/* the run's duration (0: until the threads end) */
	int live;			/* threads not yet exited */
	bool zero_set;
	sl_time t_zero;			/* when the first thread began */
	long forks_refused, stalled;
	double iter_ns, event_ns;	/* rt-app's own work per phase iteration, per event */
};

enum rt_pending { P_NONE, P_RUN, P_RUNTIME, P_TIMER };

/* Steps of the events made of several actions. */
enum rt_uop {
	U_END,
	U_LOCK,		/* the event's mutex */
	U_UNLOCK,
	U_WAIT_UNLOCK,	/* count in as a waiter, release the event's mutex */
	U_SLEEP,	/* block on the condition until signalled */
	U_SIGNAL,
	U_BROAD,
};

static const enum rt_uop uops_wait[] = { U_WAIT_UNLOCK, U_SLEEP, U_LOCK, U_END };
static const enum rt_uop uops_sync[] = { U_LOCK, U_SIGNAL, U_WAIT_UNLOCK, U_SLEEP, U_LOCK,
					 U_UNLOCK, U_END };
/* suspend/resume NAME: with the mutex NAME, as rt-app 1.0 */
static const enum rt_uop uops_suspend[] = { U_LOCK, U_WAIT_UNLOCK, U_SLEEP, U_LOCK, U_UNLOCK,
					    U_END };
static const enum rt_uop uops_resume[] = { U_LOCK, U_BROAD, U_UNLOCK, U_END };

struct rt_thread {
	struct rt_run *run;
	const struct rt_task *task;
	struct rt_stats *st;
	int index;			/* rt-app's thread index (its log file's) */
	int policy, rt_priority, nice;	/* its class now */
	const sl_cpumask *mask;		/* its affinity now */
	int setup;			/* a phase iteration's start: 0 affinity,
					 * 1 class, 2 done (rt-app's set_thread_affinity
					 * and set_thread_param) */
	struct rt_log_row it;		/* the iteration being run (log row) */
	struct rt_log_chunk *log_head, *log_tail;
	struct rt_timer *unique;	/* its "unique..." timers */
	long loops_done, phase_done;	/* passes over the phases; iterations of this phase */
	int phase, ev;
	bool started, in_iter;
	sl_time iter_start;
	const struct rt_event *cur;	/* multi-action event in progress */
	const enum rt_uop *uop;
	enum rt_pending pending;
	sl_time ev_start, ev_ns, wake_due;
	sl_time still_at;		/* zero-time guard */
	sl_time t_first;		/* when it began (after its delay) */
	int still;
	double owed_ns;			/* rt-app's own work not yet run */
};

/* ---- actions ---- */

static void thread_exit(struct rt_thread *th, struct sl_action *next)
{
	th->run->live--;
	*next = sl_act_exit();
}

/* Run the rt-app bookkeeping th owes (false: none): integer work of its
 * own, outside every event and iteration period it measures. */
static bool pay_own_work(struct rt_thread *th, struct sl_action *next)
{
	if (th->owed_ns <= 0)
		return false;
	*next = sl_act_run(th->owed_ns, SL_WC_INT);
	th->owed_ns = 0;
	return true;
}

/* ---- threads ---- */

static const struct sl_prog rt_thread_prog;

static struct rt_thread *thread_new(struct sl_sim *sim, struct rt_run *run, int task)
{
	struct rt_thread *th = sl_sim_alloc(sim, sizeof(*th));
	const struct rt_sched *sc;

	th->run = run;
	th->task = &run->cfg->tasks[task];
	th->st = &run->stats[task];
	sc = &th->task->sched;
	th->policy = sc->policy;
	th->rt_priority = rt_class(sc->policy) ? sc->prio : 0;
	th->nice = rt_class(sc->policy) || sc->policy == SL_SCHED_DEADLINE ? 0 : sc->prio;
	th->mask = th->task->cpus.set ? &th->task->cpus.mask : &run->all;
	th->index = run->nthreads;
	if (run->logging) {	/* its log's rows are found from the run at the end */
		if (run->nthreads == run->capthreads) {
			int cap = run->capthreads ? 2 * run->capthreads : 64;
			struct rt_thread **t = sl_sim_alloc(sim, sizeof(*t) * (size_t)cap);
			if (run->nthreads)
				memcpy(t, run->threads, sizeof(*t) * (size_t)run->nthreads);
			run->threads = t;
			run->capthreads = cap;
		}
		run->threads[run->nthreads] = th;
	}
	run->nthreads++;
	th->unique = sl_sim_alloc(sim, sizeof(*th->unique) * (size_t)(th->task->nunique + 1));
	th->still_at = -1;
	th->st->threads++;
	run->live++;
	return th;
}

/* The first SL_LAT_GROUPS - 1 thread descriptions are latency groups of
 * their own (their waits for a CPU reported per description). */
static int lat_group(const struct rt_thread *th)
{
	long i = th->task - th->run->cfg->tasks;
	return i + 1 < SL_LAT_GROUPS ? (int)i + 1 : 0;
}

/* pthread_create of a thread of its description's class and "cpus" (rt-app
 * sets them first thing in the thread; here the thread is born with them). */
static struct sl_action fork_action(struct rt_thread *th)
{
	return (struct sl_action){
		.kind = SL_ACT_FORK,
		.u.fork = { .prog = &rt_thread_prog, .state = th, .comm = th->task->name,
			    .thread = true, .set_nice = true, .nice = th->nice,
			    .lat_group = lat_group(th), .set_sched = true,
			    .sched_policy = th->policy, .rt_priority = th->rt_priority,
			    .allowed = th->task->cpus.set ? &th->task->cpus.mask : NULL },
	};
}

/* The start of a phase iteration: rt-app's set_thread_affinity (the
 * phase's "cpus", else the thread's, else every CPU) and set_thread_param
 * (the phase's class, if it names one), each only when it changes
 * something.  True with the action in *next. */
static bool phase_setup(struct rt_thread *th, const struct rt_phase *ph, struct sl_action *next)
{
	const struct rt_task *t = th->task;

	if (th->setup == 0) {
		th->setup = 1;
		const sl_cpumask *want = ph->cpus.set ? &ph->cpus.mask
					 : t->cpus.set ? &t->cpus.mask : &th->run->all;
		if (!sl_cpumask_equal(want, th->mask)) {
			th->mask = want;
			*next = (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = want };
			return true;
		}
	}
	if (th->setup == 1) {
		th->setup = 2;
		const struct rt_sched *sc = &ph->sched;
		if (!sc->set)
			return false;
		int policy = sc->same_policy ? th->policy : sc->policy;
		int prio = sc->prio_given || !sc->same_policy ? sc->prio
			   : rt_class(policy) ? th->rt_priority : th->nice;
		int rt = rt_class(policy) ? prio : 0;
		int nice = rt_class(policy) ? th->nice : prio;
		if (policy == th->policy && rt == th->rt_priority && nice == th->nice)
			return false;
		th->policy = policy;
		th->rt_priority = rt;
		th->nice = nice;
		*next = (struct sl_action){ .kind = SL_ACT_SETSCHED,
					    .u.setsched = { policy, rt, nice } };
		return true;
	}
	return false;
}

/* The iteration is over: its log row. */
static void log_row(struct sl_sim *sim, struct rt_thread *th, sl_time now)
{
	struct rt_run *run = th->run;

	if (!run->logging)
		return;
	if (run->log_rows >= RT_LOG_ROWS_MAX) {
		run->log_dropped++;
		return;
	}
	if (!th->log_tail || th->log_tail->n == RT_LOG_CHUNK) {
		struct rt_log_chunk *c = sl_sim_alloc(sim, sizeof(*c));
		if (th->log_tail)
			th->log_tail->next = c;
		else
			th->log_head = c;
		th->log_tail = c;
	}
	struct rt_log_row *r = &th->log_tail->row[th->log_tail->n++];
	*r = th->it;
	r->end = now / SL_USEC;
	r->period = r->end - r->start;
	r->run /= SL_USEC;
	r->slack /= SL_USEC;
	r->wu_lat /= SL_USEC;
	run->log_rows++;
}

/* One step of a multi-action event; false when it is complete. */
static bool uop_step(struct rt_thread *th, struct sl_action *next)
{
	struct rt_run *run = th->run;
	const struct rt_event *ev = th->cur;
	struct rt_cond *c = &run->cond[ev->res];

	for (;;) {
		enum rt_uop u = *th->uop++;
		switch (u) {
		case U_END:
			th->cur = NULL;
			return false;
		case U_LOCK:
			*next = sl_act_mutex(SL_ACT_LOCK, run->mutex[ev->mutex]);
			return true;
		case U_UNLOCK:
			*next = sl_act_mutex(SL_ACT_UNLOCK, run->mutex[ev->mutex]);
			return true;
		case U_WAIT_UNLOCK:
			c->waiting++;
			*next = sl_act_mutex(SL_ACT_UNLOCK, run->mutex[ev->mutex]);
			return true;
		case U_SLEEP:
			*next = sl_act_chan(SL_ACT_CHAN_READ, c->chan, 1);
			return true;
		case U_SIGNAL:
			if (c->waiting == 0)
				break;	/* lost, as pthread_cond_signal with no waiter */
			c->waiting--;
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, c->chan, 1);
			return true;
		case U_BROAD:
			if (c->waiting == 0)
				break;
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, c->chan, c->waiting);
			c->waiting = 0;
			return true;
		}
	}
}

static bool timer_event(struct sl_sim *sim, struct rt_thread *th, const struct rt_event *ev,
			struct sl_action *next)
{
	struct rt_timer *tm = ev->unique ? &th->unique[ev->res] : &th->run->timer[ev->res];
	struct rt_stats *st = th->st;
	sl_time now = sl_now(sim);

	if (ev->ns == 0)	/* a disabled timer (tune_json.py's trick) */
		return false;
	if (!tm->init) {	/* its origin: the first user's start (rt-app 1.0's t_first) */
		tm->init = true;
		tm->next = th->t_first;
	}
	tm->next += ev->ns;
	sl_time slack = tm->next - now;
	th->it.c_period += ev->ns / SL_USEC;
	th->it.slack = th->run->cfg->cumulative_slack ? th->it.slack + slack : slack;
	st->slack_sum += (double)slack;
	if (st->timers == 0 || slack < st->slack_min)
		st->slack_min = slack;
	st->timers++;
	if (slack > 0) {
		th->pending = P_TIMER;
		th->wake_due = tm->next;
		*next = sl_act_nanosleep(slack);
		return true;
	}
	st->missed++;
	th->it.wu_lat = 0;	/* rt-app 1.0 zeroes the row's wu_lat on a miss */
	if (!ev->absolute)
		tm->next = now;
	return false;
}

/* Start event `ev`; false if it completed without an action. */
static bool event(struct sl_sim *sim, struct rt_thread *th, const struct rt_event *ev,
		  struct sl_action *next)
{
	struct rt_run *run = th->run;

	switch (ev->kind) {
	case RT_EV_RUN:
	case RT_EV_RUNTIME:
		if (ev->ns == 0)
			return false;
		th->pending = ev->kind == RT_EV_RUN ? P_RUN : P_RUNTIME;
		th->ev_start = sl_now(sim);
		th->ev_ns = ev->ns;
		th->it.c_duration += ev->ns / SL_USEC;
		*next = sl_act_run((double)(ev->kind == RT_EV_RUN ? ev->ns : RT_CHUNK_NS), run->wclass);
		return true;
	case RT_EV_SLEEP:
		if (ev->ns == 0)
			return false;
		*next = sl_act_nanosleep(ev->ns);
		return true;
	case RT_EV_TIMER:
		return timer_event(sim, th, ev, next);
	case RT_EV_LOCK:
	case RT_EV_UNLOCK:
		*next = sl_act_mutex(ev->kind == RT_EV_LOCK ? SL_ACT_LOCK : SL_ACT_UNLOCK,
				  run->mutex[ev->res]);
		return true;
	case RT_EV_BARRIER:
		*next = sl_act_barrier(run->barrier[ev->res]);
		return true;
	case RT_EV_FORK:
		if (run->live >= RT_MAX_THREADS) {
			run->forks_refused++;
			return false;
		}
		*next = fork_action(thread_new(sim, run, ev->res));
		return true;
	case RT_EV_YIELD:
		*next = (struct sl_action){ .kind = SL_ACT_YIELD };
		return true;
	case RT_EV_MEM:
		/* memset of the bytes, as memory-bound work (docs/workloads.md) */
		if (ev->bytes == 0)
			return false;
		*next = sl_act_run((double)ev->bytes * run->mem_ns_per_byte, SL_WC_MEM);
		return true;
	case RT_EV_IORUN:
		/* write(io_device) of the bytes: one sequential request to the disk */
		if (ev->bytes == 0)
			return false;
		*next = sl_act_disk_io(sl_sim_disk(sim), (long)ev->bytes, false);
		return true;
	case RT_EV_WAIT:
	case RT_EV_SYNC:
	case RT_EV_SUSPEND:
	case RT_EV_SIGNAL:
	case RT_EV_BROAD:
	case RT_EV_RESUME:
		break;
	}
	static const enum rt_uop uops_signal[] = { U_SIGNAL, U_END };
	static const enum rt_uop uops_broad[] = { U_BROAD, U_END };
	th->cur = ev;
	th->uop = ev->kind == RT_EV_WAIT ? uops_wait
		: ev->kind == RT_EV_SYNC ? uops_sync
		: ev->kind == RT_EV_SUSPEND ? uops_suspend
		: ev->kind == RT_EV_RESUME ? uops_resume
		: ev->kind == RT_EV_SIGNAL ? uops_signal : uops_broad;
	return uop_step(th, next);
}

/* Move to the next phase iteration to run; false when the thread is done. */
static bool next_iteration(struct rt_thread *th)
{
	const struct rt_task *t = th->task;

	for (int k = 0; k <= t->nphases; k++) {
		if (t->loop >= 0 && th->loops_done >= t->loop)
			return false;
		const struct rt_phase *ph = &t->phases[th->phase];
		if (ph->loop < 0 || th->phase_done < ph->loop)
			return true;
		th->phase_done = 0;
		if (++th->phase == t->nphases) {
			th->phase = 0;
			th->loops_done++;
		}
	}
	return false;
}

/* The previous action is over: account for it.  True if it goes on. */
static bool finish(struct sl_sim *sim, struct rt_thread *th, struct sl_action *next)
{
	struct rt_stats *st = th->st;
	sl_time now = sl_now(sim), took = now - th->ev_start;

	switch (th->pending) {
	case P_RUN:
		st->run_wall += took;
		st->stretch_wall += took;
		st->stretch_ref += th->ev_ns;
		th->it.run += took;
		th->it.perf += th->ev_ns / th->run->ns_per_loop;
		break;
	case P_RUNTIME:
		th->it.perf += RT_CHUNK_NS / th->run->ns_per_loop;
		if (took < th->ev_ns) {
			*next = sl_act_run((double)RT_CHUNK_NS, th->run->wclass);
			return true;
		}
		st->run_wall += took;
		th->it.run += took;
		break;
	case P_TIMER: {
		sl_time wu = now - th->wake_due;
		th->it.wu_lat += wu;
		st->wu_sum += (double)wu;
		if (st->wakeups == 0 || wu > st->wu_max)
			st->wu_max = wu;
		st->wakeups++;
		break;
	}
	case P_NONE:
		break;
	}
	th->pending = P_NONE;
	return false;
}

static void thread_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct rt_thread *th = t->prog_state;
	const struct rt_task *task = th->task;
	sl_time now = sl_now(sim);

	if (finish(sim, th, next))
		return;
	if (now != th->still_at) {
		th->still_at = now;
		th->still = 0;
	} else if (++th->still > RT_STILL_MAX) {
		th->run->stalled++;
		thread_exit(th, next);
		return;
	}
	if (!th->started) {
		/* rt-app 1.0: the threads start together at t_zero (a barrier),
		 * each at t_first = t_zero + its delay, its timers' origin */
		struct rt_run *run = th->run;
		th->started = true;
		if (!run->zero_set) {
			run->zero_set = true;
			run->t_zero = now;
		}
		th->t_first = (th->task->forked ? now : run->t_zero) + task->delay;
		if (th->t_first > now) {
			*next = sl_act_nanosleep(th->t_first - now);
			return;
		}
	}
	for (;;) {
		if (th->cur) {
			if (uop_step(th, next))
				return;
			continue;
		}
		if (!th->in_iter) {
			if (!next_iteration(th)) {
				thread_exit(th, next);
				return;
			}
			th->in_iter = true;
			th->setup = 0;
			th->ev = 0;
		}
		const struct rt_phase *ph = &task->phases[th->phase];
		if (th->setup < 2) {
			if (phase_setup(th, ph, next))
				return;
			th->iter_start = now;
			th->it = (struct rt_log_row){ .start = now / SL_USEC, .rel_st = now / SL_USEC };
		}
		if (th->ev == ph->nev) {
			th->in_iter = false;
			th->phase_done++;
			th->st->loops++;
			th->st->period_sum += now - th->iter_start;
			log_row(sim, th, now);
			/* after its end time is read: the row's formatting and
			 * write, and the events' dispatch */
			th->owed_ns += th->run->iter_ns;
			if (pay_own_work(th, next))
				return;
			continue;
		}
		if (th->owed_ns >= RT_OWED_MAX && pay_own_work(th, next))
			return;
		th->owed_ns += th->run->event_ns;
		if (event(sim, th, &ph->ev[th->ev++], next))
			return;
	}
}

static const struct sl_prog rt_thread_prog = { .name = "rt-app-thread", .step = thread_step };

/* The root: start every description's instances, then reap them. */
static void root_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct rt_run *run = t->prog_state;
	const struct rt_config *cfg = run->cfg;

	if (run->root_waiting) {
		*next = t->result >= 0 ? sl_act_wait() : sl_act_exit();
		return;
	}
	while (!run->load_failed && run->next_task < cfg->ntasks) {
		int task = run->next_task;
		if (run->next_instance < cfg->tasks[task].instance) {
			run->next_instance++;
			*next = fork_action(thread_new(sim, run, task));
			return;
		}
		run->next_task++;
		run->next_instance = 0;
	}
	run->root_waiting = true;
	if (run->limit > 0) {	/* rt-app's main thread: sleep(duration), then stop all */
		*next = sl_act_sleep(run->limit - sl_now(sim) + SL_USEC);
		return;
	}
	*next = sl_act_wait();
}

static const struct sl_prog rt_root_prog = { .name = "rt-app", .step = root_step };

/* ---- parameters, loading, start ---- */

static const struct sl_param_def rt_params[] = {
	{ "file", SL_PARAM_STRING, NULL, 0, 0, NULL,
	  "rt-app JSON file (required; see docs/workloads.md for the subset accepted)" },
	{ "duration", SL_PARAM_REAL, NULL, 1e-6, (double)(SL_TIME_HORIZON / SL_SEC), NULL,
	  "simulated seconds to run (at most 1000000, the simulated-time horizon); default the "
	  "file's global.duration, else 10 if a thread loops for ever (a note says so)" },
	{ "class", SL_PARAM_CHOICE, "fp", 0, 0, "fp|int|mem|cache|spin",
	  "work class of run events (rt-app's busy loop: fp)" },
	SL_RTAPP_KEYS_PARAM,
	{ "mem_gbs", SL_PARAM_REAL, "2", 0.01, 1000, NULL,
	  "GB/s a mem event's memset writes alone on a CPU (an assumed figure: a 2002 Xeon's "
	  "memset on its 3.2 GB/s bus)" },
	{ "iter_ns", SL_PARAM_REAL, "700", 0, 1e6, NULL,
	  "rt-app's own work per phase iteration, reference ns: its clock reads and log row "
	  "(measured: Debian's rt-app 1.0 on the 2-CPU host; 0: free)" },
	{ "event_ns", SL_PARAM_REAL, "10", 0, 1e6, NULL,
	  "rt-app's own work per event, reference ns: its dispatch and an uncontended mutex "
	  "operation (measured as iter_ns; 0: free)" },
	{ "logdir", SL_PARAM_STRING, NULL, 0, 0, NULL,
	  "directory for rt-app's per-thread log files of one run (run --rtapp-logdir sets it): "
	  "created if missing, refused if it has logs of this file's threads" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static const enum sl_wclass rt_classes[] = {
	SL_WC_FP, SL_WC_INT, SL_WC_MEM, SL_WC_CACHE, SL_WC_SPIN,
};

/* Scratch memory for validation, freed at once; `bytes` counts what the
 * same blocks cost from the run (rt_mem). */
struct rt_arena {
	struct rt_block *head;
	uint64_t bytes;
};

struct rt_block {
	struct rt_block *next;
	alignas(max_align_t) unsigned char data[];
};

static void *arena_alloc(void *ctx, size_t size)
{
	struct rt_arena *a = ctx;
	struct rt_block *b = sl_xcalloc(1, sizeof(*b) + size);

	b->next = a->head;
	a->head = b;
	a->bytes = sl_sat_add(a->bytes, sl_sim_alloc_cost(size));
	return b->data;
}

static void arena_free(struct rt_arena *a)
{
	while (a->head) {
		struct rt_block *next = a->head->next;
		free(a->head);
		a->head = next;
	}
}

static void *sim_alloc(void *ctx, size_t size)
{
	return sl_sim_alloc(ctx, size);
}

static const char *rt_file(const struct sl_params *p)
{
	const char *path = sl_param_str(p, "file");
	return path ? path : "";
}

/* The file as keys= reads it. */
static int load(struct rt_config *cfg, const struct sl_params *p, const struct rt_alloc *a,
		struct sl_err *err)
{
	return rt_config_load_keys(cfg, rt_file(p), a, sl_param_choice(p, "keys") == 0, err);
}

static int rt_validate(const struct sl_params *p, struct sl_err *err)
{
	struct rt_arena arena = { 0 };
	struct rt_alloc a = { arena_alloc, &arena };
	struct rt_config cfg;
	const char *path = rt_file(p);

	if (!*path)
		return sl_fail(err, "workload 'rtapp': file= is required (an rt-app JSON file)");
	int rc = load(&cfg, p, &a, err);
	/* Without a duration the run lasts as long as its longest thread,
	 * which must end within the horizon (with one, the run stops there;
	 * threads that loop for ever stop at RT_DEFAULT_HORIZON, see rt_note). */
	for (int i = 0; rc == 0 && cfg.duration == 0 && !sl_param_given(p, "duration") &&
			cfg.forever_task < 0 && i < cfg.ntasks; i++) {
		const struct rt_task *t = &cfg.tasks[i];
		/* rt-app's own work counts too: a loop of instant events
		 * takes iter_ns and event_ns each time round */
		sl_time need = rt_task_time(t, (sl_time)ceil(sl_param_real(p, "iter_ns")),
					    (sl_time)ceil(sl_param_real(p, "event_ns")));
		if (need <= SL_TIME_HORIZON)
			continue;
		char took[48];
		if (need == SL_TIME_MAX)
			snprintf(took, sizeof(took), "more than %lld s", SL_TIME_MAX / SL_SEC);
		else
			snprintf(took, sizeof(took), "%.6f s", sl_ns_to_s(need));
		rc = sl_fail(err, "%s: tasks.%s: needs %s of simulated time (its delay and loops "
			     "of run, runtime, sleep and timer periods, and rt-app's own work per "
			     "iteration and event), beyond the horizon of %lld s a run can last: "
			     "shorten it, or set global.duration or duration=SECONDS", path,
			     t->name, took, SL_TIME_HORIZON / SL_SEC);
	}
	if (rc == 0 && sl_param_given(p, "logdir"))
		rc = rt_logdir_check(&cfg, sl_param_str(p, "logdir"), err);
	arena_free(&arena);
	return rc;
}

/* The run's length: duration=, else global.duration, else (threads that
 * loop for ever) the default horizon, else until the threads end (0). */
static sl_time rt_limit(const struct sl_params *p, const struct rt_config *cfg)
{
	if (sl_param_given(p, "duration"))
		return sl_s_to_ns(sl_param_real(p, "duration"));
	if (cfg->duration)
		return cfg->duration;
	return cfg->forever_task >= 0 ? RT_DEFAULT_HORIZON : 0;
}

static int rt_note(const struct sl_params *p, char *buf, size_t size)
{
	struct rt_arena arena = { 0 };
	struct rt_alloc a = { arena_alloc, &arena };
	struct sl_err err = { 0 };
	struct rt_config cfg;
	int n = 0;

	if (load(&cfg, p, &a, &err) == 0 && cfg.forever_task >= 0 &&
	    !cfg.duration && !sl_param_given(p, "duration"))
		n = snprintf(buf, size, "%s: thread '%s' loops for ever and the file sets no "
			     "global.duration: the run stops after %lld s of simulated time (rt-app "
			     "runs until it is killed; give duration=SECONDS for another length)",
			     cfg.path, cfg.tasks[cfg.forever_task].name, RT_DEFAULT_HORIZON / SL_SEC);
	arena_free(&arena);
	return n > 0;
}

/* Where a CPU list is, for messages: "tasks.T.cpus" or "tasks.T.phases.P.cpus". */
static void where(char *buf, size_t size, const struct rt_task *t, const struct rt_phase *ph,
		  const char *key)
{
	if (ph)
		snprintf(buf, size, "tasks.%s.phases.%s.%s", t->name, ph->name, key);
	else
		snprintf(buf, size, "tasks.%s.%s", t->name, key);
}

static int check_cpus(const struct rt_config *cfg, const struct rt_task *t,
		      const struct rt_phase *ph, const struct rt_cpus *c,
		      const struct sl_machine *m, const struct sl_policy_ops *policy,
		      struct sl_err *err)
{
	char at[300];

	if (!c->set)
		return 0;
	where(at, sizeof(at), t, ph, "cpus");
	for (int cpu = sl_cpumask_next(&c->mask, 0); cpu >= 0; cpu = sl_cpumask_next(&c->mask, cpu + 1))
		if (!sl_cpumask_test(&m->topo.all_cpus, cpu))
			return sl_fail(err, "%s: %s: CPU %d: machine '%s' has CPUs 0-%d", cfg->path,
				       at, cpu, m->name, m->topo.ncpus - 1);
	if (policy->cpu0_only && !sl_cpumask_test(&c->mask, 0))
		return sl_fail(err, "%s: %s: policy '%s' knows CPU 0 only (a uniprocessor kernel) "
			       "and the thread is pinned elsewhere", cfg->path, at, policy->name);
	return 0;
}

static int check_class(const struct rt_config *cfg, const struct rt_task *t,
		       const struct rt_phase *ph, const struct rt_sched *sc,
		       const struct sl_policy_ops *policy, struct sl_err *err)
{
	char at[300];

	if (sc->same_policy || sc->policy == SL_SCHED_NORMAL)
		return 0;
	where(at, sizeof(at), t, ph, "policy");
	if (!sl_policy_supports_sched(policy, sc->policy))
		return sl_fail(err, "%s: %s: thread '%s' asks for %s, which policy '%s' does not "
			       "implement", cfg->path, at, t->name, rt_policy_name(sc->policy),
			       policy->name);
	if (sc->policy == SL_SCHED_DEADLINE)
		return sl_fail(err, "%s: %s: thread '%s': SCHED_DEADLINE's dl-runtime, dl-period "
			       "and dl-deadline cannot be handed to the simulated kernel yet (the "
			       "engine's sched attributes lack them)", cfg->path, at, t->name);
	return 0;
}

/* The classes the file's threads and phases ask for (the sweep's own
 * check; rt_check, first, names the thread). */
static unsigned rt_sched_classes(const struct sl_params *p)
{
	struct rt_arena arena = { 0 };
	struct rt_alloc a = { arena_alloc, &arena };
	struct sl_err err = { 0 };
	struct rt_config cfg;
	unsigned mask = 0;

	if (load(&cfg, p, &a, &err) == 0)
		for (int i = 0; i < cfg.ntasks; i++)
			for (int k = -1; k < cfg.tasks[i].nphases; k++) {
				const struct rt_sched *sc = k < 0 ? &cfg.tasks[i].sched
							   : &cfg.tasks[i].phases[k].sched;
				if (!sc->same_policy)
					mask |= 1u << sc->policy;
			}
	arena_free(&arena);
	return mask;
}

/* What needs the machine and the policy: every CPU named exists, every
 * class named is implemented (rt-app's sched_setaffinity and
 * sched_setscheduler would fail on the real system). */
static int rt_check(const struct sl_params *p, const struct sl_machine *m,
		    const struct sl_policy_ops *policy, struct sl_err *err)
{
	struct rt_arena arena = { 0 };
	struct rt_alloc a = { arena_alloc, &arena };
	struct rt_config cfg;
	int rc = load(&cfg, p, &a, err);

	for (int i = 0; rc == 0 && i < cfg.ntasks; i++) {
		const struct rt_task *t = &cfg.tasks[i];
		rc = check_cpus(&cfg, t, NULL, &t->cpus, m, policy, err) ||
		     check_class(&cfg, t, NULL, &t->sched, policy, err) ? -1 : 0;
		for (int k = 0; rc == 0 && k < t->nphases; k++)
			rc = check_cpus(&cfg, t, &t->phases[k], &t->phases[k].cpus, m, policy, err) ||
			     check_class(&cfg, t, &t->phases[k], &t->phases[k].sched, policy, err)
			     ? -1 : 0;
	}
	arena_free(&arena);
	return rc;
}

static void make_resources(struct sl_sim *sim, struct rt_run *run)
{
	const struct rt_config *cfg = run->cfg;
	int nm = cfg->nres[RT_RES_MUTEX], nb = cfg->nres[RT_RES_BARRIER];
	int nc = cfg->nres[RT_RES_COND], nt = cfg->nres[RT_RES_TIMER];

	run->mutex = sl_sim_alloc(sim, sizeof(*run->mutex) * (size_t)(nm + 1));
	for (int i = 0; i < nm; i++)
		run->mutex[i] = sl_mutex_new(sim);
	run->barrier = sl_sim_alloc(sim, sizeof(*run->barrier) * (size_t)(nb + 1));
	for (int i = 0; i < nb; i++)
		run->barrier[i] = sl_barrier_new(sim, cfg->barrier_parties[i]);
	run->cond = sl_sim_alloc(sim, sizeof(*run->cond) * (size_t)(nc + 1));
	for (int i = 0; i < nc; i++)
		run->cond[i].chan = sl_chan_new(sim, RT_CHAN_BYTES, false);
	run->timer = sl_sim_alloc(sim, sizeof(*run->timer) * (size_t)(nt + 1));
	run->stats = sl_sim_alloc(sim, sizeof(*run->stats) * (size_t)(cfg->ntasks + 1));
	for (int i = 0; i < cfg->ntasks; i++)
		for (int p = 0; p < cfg->tasks[i].nphases; p++)
			for (int e = 0; e < cfg->tasks[i].phases[p].nev; e++)
				run->has_run |= cfg->tasks[i].phases[p].ev[e].kind == RT_EV_RUN;
}

static void *rt_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct rt_run *run = sl_sim_alloc(sim, sizeof(*run));
	struct rt_config *cfg = sl_sim_alloc(sim, sizeof(*cfg));
	struct rt_alloc a = { sim_alloc, sim };
	struct sl_err err = { 0 };

	run->cfg = cfg;
	run->wclass = rt_classes[sl_param_choice(p, "class")];
	run->mem_ns_per_byte = 1.0 / sl_param_real(p, "mem_gbs");	/* GB/s = bytes per ns */
	run->iter_ns = sl_param_real(p, "iter_ns");
	run->event_ns = sl_param_real(p, "event_ns");
	run->all = sl_topo(sim)->all_cpus;
	run->logging = sl_param_given(p, "logdir");
	run->load_failed = load(cfg, p, &a, &err) != 0;
	if (run->load_failed)
		memset(cfg, 0, sizeof(*cfg));
	/* rt_check refused CPUs the machine lacks before any run; a caller
	 * that did not ask it gets each list cut to the machine (none empty) */
	for (int i = 0; i < cfg->ntasks; i++) {
		struct rt_task *t = &cfg->tasks[i];
		for (int k = -1; k < t->nphases; k++) {
			struct rt_cpus *c = k < 0 ? &t->cpus : &t->phases[k].cpus;
			c->mask = sl_cpumask_and(c->mask, &run->all);
			c->set &= !sl_cpumask_empty(&c->mask);
		}
	}
	/* the logs' perf column: loops of rt-app's busy loop ("CPUn": 1 us each) */
	run->ns_per_loop = cfg->ns_per_loop > 0 ? cfg->ns_per_loop : SL_USEC;
	make_resources(sim, run);
	run->limit = rt_limit(p, cfg);
	*limit_out = run->limit;
	sl_sim_set_program_source(sim, rt_file(p));
	sl_sim_spawn_root(sim, &rt_root_prog, run, "rt-app");
	return run;
}

/* ---- metrics ---- */

static double us(double ns)
{
	return ns / 1000.0;
}

void rt_metric_prefix(const struct rt_task *t, int i, char *out, size_t size)
{
	size_t n = strlen(t->name);

	if (n == 0 || n > 20) {
		snprintf(out, size, "t%d", i);
		return;
	}
	for (size_t k = 0; k < n && k + 1 < size; k++) {
		unsigned char c = (unsigned char)t->name[k];
		out[k] = isalnum(c) || c == '-' ? (char)c : '_';
		out[k + 1] = 0;
	}
}

static void add(struct sl_metrics *out, const char *prefix, const char *name, const char *unit,
		double value, int better)
{
	char full[64];

	snprintf(full, sizeof(full), "%s%s%s", prefix, *prefix ? "_" : "", name);
	sl_metrics_add(out, full, unit, value, better);
}

static void timer_metrics(struct sl_metrics *out, const char *prefix, const struct rt_stats *s,
			  bool detail)
{
	double n = s->timers > 0 ? (double)s->timers : 1;
	double w = s->wakeups > 0 ? (double)s->wakeups : 1;

	if (detail) {
		add(out, prefix, "timers", "count", (double)s->timers, 0);
		add(out, prefix, "missed", "count", (double)s->missed, -1);
		add(out, prefix, "missed_pct", "%", 100.0 * (double)s->missed / n, -1);
		add(out, prefix, "slack_mean_us", "us", us(s->slack_sum / n), +1);
		add(out, prefix, "slack_min_us", "us", us((double)s->slack_min), +1);
		add(out, prefix, "wu_lat_mean_us", "us", us(s->wu_sum / w), -1);
		add(out, prefix, "wu_lat_max_us", "us", us((double)s->wu_max), -1);
		return;
	}
	add(out, prefix, "slack_us", "us", us(s->slack_sum / n), +1);
	add(out, prefix, "missed", "count", (double)s->missed, -1);
	add(out, prefix, "wu_lat_us", "us", us(s->wu_sum / w), -1);
}

static void total(struct rt_stats *sum, const struct rt_stats *s)
{
	if (s->timers && (sum->timers == 0 || s->slack_min < sum->slack_min))
		sum->slack_min = s->slack_min;
	if (s->wakeups && (sum->wakeups == 0 || s->wu_max > sum->wu_max))
		sum->wu_max = s->wu_max;
	sum->threads += s->threads;
	sum->loops += s->loops;
	sum->period_sum += s->period_sum;
	sum->run_wall += s->run_wall;
	sum->stretch_wall += s->stretch_wall;
	sum->stretch_ref += s->stretch_ref;
	sum->timers += s->timers;
	sum->missed += s->missed;
	sum->slack_sum += s->slack_sum;
	sum->wakeups += s->wakeups;
	sum->wu_sum += s->wu_sum;
}

/* rt-app's log files of the run (logdir=): one per thread started. */
static void write_logs(const struct rt_run *run, const char *dir, struct sl_metrics *out)
{
	long written = 0, failed = 0;

	for (int i = 0; i < run->nthreads; i++) {
		const struct rt_thread *th = run->threads[i];
		const struct rt_sched *sc = &th->task->sched;
		if (rt_log_write(dir, run->cfg, th->task->name, th->index, sc->policy, sc->prio,
				 th->log_head))
			failed++;
		else
			written++;
	}
	sl_metrics_add(out, "log_files", "count", (double)written, 0);
	if (failed)	/* a file of that name appeared during the run */
		sl_metrics_add(out, "log_files_failed", "count", (double)failed, -1);
	if (run->log_dropped)
		sl_metrics_add(out, "log_rows_dropped", "count", (double)run->log_dropped, -1);
}

static void rt_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		      struct sl_metrics *out)
{
	const struct rt_run *run = state;
	const struct rt_config *cfg = run->cfg;
	struct rt_stats sum = { 0 };
	char prefix[32];
	int shown = 0;

	if (run->load_failed) {
		sl_metrics_add(out, "file_unreadable", "count", 1, -1);
		return;
	}
	if (run->logging)
		write_logs(run, sl_param_str(p, "logdir"), out);
	for (int i = 0; i < cfg->ntasks; i++)
		total(&sum, &run->stats[i]);
	sl_metrics_add(out, "threads", "count", (double)sum.threads, 0);
	sl_metrics_add(out, "loops", "count", (double)sum.loops, +1);
	sl_metrics_add(out, "run_s", "s", sl_ns_to_s(sum.run_wall), 0);
	if (run->has_run)
		sl_metrics_add(out, "run_stretch", "x", sum.stretch_ref > 0
			       ? (double)sum.stretch_wall / (double)sum.stretch_ref : 0, -1);
	if (cfg->has_timers)
		timer_metrics(out, "", &sum, true);
	if (cfg->has_forks)
		sl_metrics_add(out, "forks_refused", "count", (double)run->forks_refused, -1);
	if (run->stalled)
		sl_metrics_add(out, "stalled_threads", "count", (double)run->stalled, -1);
	for (int i = 0; i < cfg->ntasks && shown < RT_TASK_METRICS; i++) {
		const struct rt_task *t = &cfg->tasks[i];
		const struct rt_stats *s = &run->stats[i];
		if (t->instance == 0 && !t->forked)
			continue;
		shown++;
		rt_metric_prefix(t, i, prefix, sizeof(prefix));
		add(out, prefix, "loops", "count", (double)s->loops, +1);
		add(out, prefix, "period_us", "us",
		    s->loops ? us((double)s->period_sum / (double)s->loops) : 0, 0);
		add(out, prefix, "run_s", "s", sl_ns_to_s(s->run_wall), 0);
		if (t->has_timer)
			timer_metrics(out, prefix, s, false);
		if (i + 1 < SL_LAT_GROUPS)
			sl_metrics_add_latency(out, sim, i + 1, prefix);
	}
}

/* The file as rt_start loads it (loaded here and measured), its resources,
 * and the root and each thread started at time 0 with its state.  Threads
 * forked later (fork events) are not counted: how many is a matter of the
 * schedule. */
static void rt_mem(const struct sl_params *p, const struct sl_topo *topo,
		   struct sl_mem_need *need)
{
	struct rt_arena arena = { NULL, 0 };
	struct rt_alloc a = { arena_alloc, &arena };
	struct sl_err err = { 0 };
	struct rt_config cfg;
	uint64_t b, threads = 0;

	(void)topo;
	if (load(&cfg, p, &a, &err)) {
		arena_free(&arena);	/* validate refused it already */
		return;
	}
	b = sl_sat_add(arena.bytes, sl_sim_alloc_cost(sizeof(struct rt_run) + sizeof(cfg)));
	for (int i = 0; i < cfg.ntasks; i++) {
		uint64_t n = (uint64_t)cfg.tasks[i].instance;
		threads = sl_sat_add(threads, n);
		b = sl_sat_add(b, sl_sat_mul(n, sl_sim_alloc_cost(sizeof(struct rt_thread)) +
			       sl_sim_alloc_cost(sizeof(struct rt_timer) *
						 ((uint64_t)cfg.tasks[i].nunique + 1))));
	}
	b = sl_sat_add(b, sl_sim_mutexes_cost((uint64_t)cfg.nres[RT_RES_MUTEX]));
	b = sl_sat_add(b, sl_sim_barriers_cost((uint64_t)cfg.nres[RT_RES_BARRIER]));
	b = sl_sat_add(b, sl_sim_chans_cost((uint64_t)cfg.nres[RT_RES_COND]));
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul((uint64_t)cfg.ntasks + 1,
						       sizeof(struct rt_stats))));
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul((uint64_t)cfg.nres[RT_RES_TIMER] + 1,
						       sizeof(struct rt_timer))));
	if (sl_param_given(p, "logdir"))	/* the log rows, at most RT_LOG_ROWS_MAX */
		b = sl_sat_add(b, sl_sat_mul(RT_LOG_ROWS_MAX / RT_LOG_CHUNK + (uint64_t)threads,
					     sl_sim_alloc_cost(sizeof(struct rt_log_chunk))));
	need->tasks = sl_sat_add(need->tasks, threads);
	need->bytes = sl_sat_add(need->bytes, b);
	arena_free(&arena);
}

const struct sl_workload_ops sl_workload_rtapp = {
	.name = "rtapp",
	.summary = "an rt-app JSON file: periodic, locking, pinned, real-time threads; timer slack "
		   "and latency",
	.metric = "slack_mean_us",
	.params = rt_params,
	.start = rt_start,
	.report = rt_report,
	.mem = rt_mem,
	.validate = rt_validate,
	.check = rt_check,
	.sched_classes = rt_sched_classes,
	.note = rt_note,
};
