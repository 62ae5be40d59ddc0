/*
 * schbench.c - Chris Mason's schbench (Meta, 2016-): message threads hand
 * requests to worker threads by futex; a worker sleeps, then multiplies
 * matrices under a per-CPU lock; schbench reports the workers' wakeup
 * latency, their request latency and the requests per second.
 *
 * Model (schbench.c at masoncl/schbench HEAD, read, not copied):
 *   main forks `message_threads` message threads (pthreads) and sleeps a
 *   second at a time; each message thread forks its `workers` workers and
 *   loops: set its futex BLOCKED, take its whole list of waiting workers,
 *   read the clock once, stamp every one of them with it and post each
 *   one's futex (FUTEX_WAKE when the worker is asleep), then wait on its
 *   own futex.  A worker loops: set its futex BLOCKED, stamp itself, put
 *   itself on its message thread's list, post the message thread, wait on
 *   its own futex; once woken its wakeup latency is now - the stamp (the
 *   message thread's clock read before it began waking the list); then one
 *   request: usleep(`sleep_us`), then, holding the lock of the CPU it runs
 *   on unless `lock=off`, `loops` multiplications of n x n matrices (three
 *   arrays of unsigned long filling `footprint_kb`: n = 104 for 256 KB);
 *   its request latency runs from before the usleep to after the unlock.
 *   With `rps` > 0, each message thread instead posts rps / message_threads
 *   requests a second round-robin to its workers (at the start of every
 *   second, skipping a worker with more than 128 queued by sleeping
 *   100 us), then sleeps out the second; a worker runs every request
 *   queued to it before it waits again, and records a wakeup latency only
 *   when it had to wait.
 *
 * The futexes: a futex is a state word (BLOCKED / RUNNING, changed at a
 * program step as schbench's cmpxchg does) and a channel on which its one
 * owner sleeps (FUTEX_WAIT: a read) and posters wake it (FUTEX_WAKE: a
 * one-byte write, only when the post changed the word from BLOCKED, as
 * fpost does).  The word is the truth; a byte left by a wake that found
 * the owner running is drained when the owner next sets the word, so
 * it causes no spurious wakeup.  Futex wakeups are plain (not sync).
 *
 * The per-CPU lock is schbench's: pthread_mutex_trylock in a loop of
 * `pause`, i.e. a spinlock.  A worker reads its CPU, spins on that CPU's
 * lock (polling every SCH_SPIN_NS of SPIN-class work), and once it has it
 * checks that it still runs there (else it drops it and starts again).
 * A worker preempted inside the math so keeps the CPU's lock while
 * another worker spins on it there: the cost of preemption schbench
 * means to show.
 *
 * Costs: a multiply-add is SCH_OP_CYCLES at the machine's clock
 * (schbench.h: measured alone on the host, not fitted).  Its work class
 * follows the footprint (`class=auto`): matrices that fit the package's
 * last-level cache (256 KB fit every preset's) make an integer loop out
 * of cache, INT (docs/model.md [SMT]: two on one core's siblings get 0.58
 * each on NetBurst; almost no NUMA penalty); larger ones come from
 * memory, MEM (each multiply-add reads a new line of the second matrix,
 * whose column walk strides n x 8 bytes); the workers' footprint is `footprint_kb` (their
 * cache refill after a migration).  A futex call's kernel work is
 * SCH_FUTEX_CTX context switches (schbench.h: measured on the host), a
 * wake that finds a sleeper adds hackbench's HB_WAKE_CTX (the same
 * try_to_wake_up path).
 *
 * Metrics (schbench's own, kept apart from the engine's wakeup_lat_us):
 * wakeup_us_* and request_us_* (p50, p90, p99, p99.9, max) of the samples
 * taken after `warmup_s`, `requests` completed after it and `rps` =
 * requests / (runtime_s - warmup_s); schbench's "sched delay" line,
 * the mean wait on a runqueue per switch-in of each role over the whole
 * run (sched_delay_us_msg, _workers: schbench reads them from
 * /proc/<tid>/schedstat); the engine's waits for a CPU also per role
 * (`msg_...`, `workers_...`).
 *
 * Omitted / simplified (docs/workloads.md "schbench"):
 *   - the run ends at runtime_s (the engine's time limit), not by the
 *     stopping flag and joins; requests still in flight are not counted;
 *   - usleep is a nanosleep on the policy's timers (sim/timers.c: jiffies
 *     or an hrtimer's 50 us of slack), but main's sleep_for_runtime
 *     loop is the engine's time limit;
 *   - gettimeofday, malloc of a request, the atomic list operations and
 *     main's once-a-second statistics are free;
 *   - schbench's histogram (usec, values of 0 dropped) is replaced by
 *     base/hist.h in ns, every sample kept;
 *   - rps is requests after the warm-up over the time after it (schbench
 *     prints every request over the whole runtime); its RPS percentiles,
 *     -A (auto rps), -p (pipe mode), --split, -C (calibrate), -z and the
 *     CPU pinning options (-M, -W) are not modelled;
 *   - the spinlock is polled every SCH_SPIN_NS, not continuously.
 */
#include <math.h>
#include <stdio.h>

#include "base/hist.h"
#include "base/memsize.h"
#include "sim/sim.h"
#include "workload/bench_workloads.h"
#include "workload/hackbench.h"
#include "workload/schbench.h"
#include "workload/workload.h"

#define SCH_SPIN_NS	2000.0		/* poll period of a spinning worker */
#define SCH_CHAN_BYTES	(1L << 30)	/* a futex's wake channel never fills */

enum { LAT_MSG = 1, LAT_WORKERS = 2 };	/* latency groups */
enum { FUTEX_BLOCKED, FUTEX_RUNNING };

struct sch_futex {
	int state;
	bool waiting;		/* its owner sleeps in FUTEX_WAIT */
	unsigned char wpc;	/* the owner's progress through fwait */
	struct sl_chan *chan;
};

struct sch_run;
struct sch_msg;

struct sch_worker {
	struct sch_run *run;
	struct sch_msg *msg;
	struct sch_futex futex;
	struct sch_worker *next;	/* on its message thread's list */
	sl_time wake_time;		/* the stamp: when it was posted */
	sl_time work_start;
	long queued;			/* rps mode: requests queued to it */
	long pending;			/* ... counted against SCH_RPS_BATCH */
	long nreq;			/* requests of this round still to do */
	int lock_cpu;			/* the CPU lock it spins on or holds, -1 */
	bool locked;
	unsigned char pc;
};

struct sch_msg {
	struct sch_run *run;
	struct sch_futex futex;
	struct sch_worker *workers;	/* its `nworkers` workers */
	struct sch_worker *list;	/* waiting to be woken (a stack, as xlist) */
	struct sch_worker *waking;	/* the list being woken */
	struct sch_worker *target;	/* the worker being posted */
	int forked;
	long posted;			/* rps mode: requests posted this second */
	long cur;			/* rps mode: round-robin index */
	sl_time second_start;
	unsigned char pc;
};

struct sch_run {
	int nmsg, nworkers, ncpus;
	bool lock, rps_mode;
	long rps_per_msg;
	sl_time sleep_ns, warm_ns, end_ns;
	double math_ns;			/* reference ns of a request's math */
	double op_ns;			/* of one multiply-add */
	enum sl_wclass wclass;		/* ... and its work class */
	double futex_ns, wake_ns;	/* kernel work of a futex call, a wakeup */
	unsigned footprint_kb;
	struct sch_msg *msgs;
	struct sch_worker **cpu_lock;	/* owner of each CPU's lock */
	struct sl_hist *wakeup, *request;
	long requests;
	int forked;
};

unsigned long sch_matrix_n(long footprint_kb)
{
	return (unsigned long)sqrt((double)(footprint_kb * 1024 / 3 / (long)sizeof(unsigned long)));
}

/* ---- actions ---- */

static struct sl_action act_fork(const struct sl_prog *prog, void *state, const char *comm,
				 int lat_group)
{
	return (struct sl_action){ .kind = SL_ACT_FORK,
				   .u.fork = { .prog = prog, .state = state, .comm = comm,
					       .thread = true, .lat_group = lat_group } };
}

/* ---- futexes ---- */

/* Set the word BLOCKED (its owner, at a step).  A byte a wake left while
 * the owner ran is drained (true, with the read in *next): only the owner
 * reads, so the read does not block. */
static bool futex_block(struct sch_futex *f, struct sl_action *next)
{
	f->state = FUTEX_BLOCKED;
	if (sl_chan_level(f->chan) > 0) {
		*next = sl_act_chan(SL_ACT_CHAN_READ, f->chan, SCH_CHAN_BYTES);
		return true;
	}
	return false;
}

/* fpost: true if the post changed the word from BLOCKED, so that the
 * poster makes the FUTEX_WAKE call (its kernel work in *ns, then the
 * byte write). */
static bool futex_post(const struct sch_run *run, struct sch_futex *f, double *ns)
{
	if (f->state != FUTEX_BLOCKED)
		return false;
	f->state = FUTEX_RUNNING;
	*ns = run->futex_ns + (f->waiting ? run->wake_ns : 0);
	return true;
}

enum { FW_CHECK, FW_READ, FW_BACK, FW_DONE };

/* fwait, one step at a time: true once the owner may go on (no action),
 * false with the next action in *next. */
static bool futex_wait(const struct sch_run *run, struct sch_futex *f, struct sl_action *next)
{
	for (;;) {
		switch (f->wpc) {
		case FW_CHECK:
			if (f->state == FUTEX_RUNNING) {
				f->wpc = FW_DONE;
				if (futex_block(f, next))
					return false;
				continue;
			}
			f->waiting = true;
			f->wpc = FW_READ;
			*next = sl_act_sys(run->futex_ns);
			return false;
		case FW_READ:
			f->wpc = FW_BACK;
			*next = sl_act_chan(SL_ACT_CHAN_READ, f->chan, SCH_CHAN_BYTES);
			return false;
		case FW_BACK:
			f->waiting = false;
			f->wpc = FW_CHECK;
			continue;
		case FW_DONE:
		default:
			f->wpc = FW_CHECK;
			return true;
		}
	}
}

/* ---- workers ---- */

static void record(const struct sch_run *run, struct sl_sim *sim, struct sl_hist *h,
		   sl_time since)
{
	sl_time now = sl_now(sim);

	if (now >= run->warm_ns)
		sl_hist_record(h, now > since ? (uint64_t)(now - since) : 0);
}

enum { W_START, W_MSG, W_POST, W_POST_WRITE, W_WAIT, W_WOKEN, W_REQ, W_LOCK, W_MATH, W_DONE };

static void worker_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct sch_worker *w = t->prog_state;
	struct sch_run *run = w->run;
	double ns;

	for (;;) {
		switch (w->pc) {
		case W_START:
			t->footprint_kb = run->footprint_kb;
			w->pc = W_MSG;
			continue;
		case W_MSG:	/* msg_and_wait */
			w->wake_time = sl_now(sim);
			w->pc = W_POST;
			if (run->rps_mode) {
				w->pending = 0;
				if (w->queued > 0) {
					w->nreq = w->queued;
					w->queued = 0;
					w->futex.state = FUTEX_RUNNING;
					w->pc = W_REQ;
					continue;
				}
			} else {
				w->next = w->msg->list;
				w->msg->list = w;
			}
			if (futex_block(&w->futex, next))
				return;
			continue;
		case W_POST:
			w->pc = W_WAIT;
			if (futex_post(run, &w->msg->futex, &ns)) {
				w->pc = W_POST_WRITE;
				*next = sl_act_sys(ns);
				return;
			}
			continue;
		case W_POST_WRITE:
			w->pc = W_WAIT;
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, w->msg->futex.chan, 1);
			return;
		case W_WAIT:
			if (!futex_wait(run, &w->futex, next))
				return;
			w->pc = W_WOKEN;
			continue;
		case W_WOKEN:
			record(run, sim, run->wakeup, w->wake_time);
			if (run->rps_mode) {
				w->pc = W_MSG;	/* take what was queued */
				continue;
			}
			w->nreq = 1;
			w->pc = W_REQ;
			continue;
		case W_REQ:
			if (w->nreq <= 0) {
				w->pc = W_MSG;
				continue;
			}
			w->work_start = sl_now(sim);
			w->lock_cpu = -1;
			w->pc = W_LOCK;
			if (run->sleep_ns > 0) {
				*next = sl_act_nanosleep(run->sleep_ns);
				return;
			}
			continue;
		case W_LOCK:	/* lock_this_cpu */
			if (!run->lock) {
				w->pc = W_MATH;
				continue;
			}
			if (w->lock_cpu < 0)
				w->lock_cpu = t->cpu;
			if (run->cpu_lock[w->lock_cpu]) {
				*next = sl_act_run(SCH_SPIN_NS, SL_WC_SPIN);
				return;
			}
			if (t->cpu != w->lock_cpu) {	/* moved while spinning: again */
				w->lock_cpu = -1;
				continue;
			}
			run->cpu_lock[w->lock_cpu] = w;
			w->locked = true;
			w->pc = W_MATH;
			continue;
		case W_MATH:
			w->pc = W_DONE;
			*next = sl_act_run(run->math_ns, run->wclass);
			return;
		case W_DONE:
		default:
			if (w->locked) {
				run->cpu_lock[w->lock_cpu] = NULL;
				w->locked = false;
			}
			record(run, sim, run->request, w->work_start);
			if (sl_now(sim) >= run->warm_ns)
				run->requests++;
			w->nreq--;
			w->pc = W_REQ;
			continue;
		}
	}
}

static const struct sl_prog sch_worker_prog = { .name = "schbench-worker", .step = worker_step };

/* ---- message threads ---- */

enum { M_FORK, M_LOOP, M_WAKE, M_WAKE_WRITE, M_WAIT, R_SECOND, R_POST, R_POST_WRITE, R_SLEEP };

/* run_rps_thread: one step. */
static void rps_step(struct sl_sim *sim, struct sch_msg *m, struct sl_action *next)
{
	struct sch_run *run = m->run;
	double ns;

	for (;;) {
		switch (m->pc) {
		case R_SECOND:
			m->second_start = sl_now(sim);
			m->posted = 0;
			m->pc = R_POST;
			continue;
		case R_POST: {
			if (m->posted >= run->rps_per_msg) {
				m->pc = R_SLEEP;
				continue;
			}
			m->posted++;
			struct sch_worker *w = &m->workers[m->cur++ % run->nworkers];
			if (w->pending > SCH_RPS_BATCH) {
				*next = sl_act_nanosleep(SCH_RPS_BACKOFF_NS);
				return;
			}
			w->pending++;
			w->queued++;
			w->wake_time = sl_now(sim);
			if (futex_post(run, &w->futex, &ns)) {
				m->target = w;
				m->pc = R_POST_WRITE;
				*next = sl_act_sys(ns);
				return;
			}
			continue;
		}
		case R_POST_WRITE:
			m->pc = R_POST;
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, m->target->futex.chan, 1);
			return;
		case R_SLEEP:
		default: {
			sl_time done = sl_now(sim) - m->second_start;
			if (done < SL_SEC) {
				*next = sl_act_nanosleep(SL_SEC - done);
				return;
			}
			m->pc = R_SECOND;
			continue;
		}
		}
	}
}

static void msg_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct sch_msg *m = t->prog_state;
	struct sch_run *run = m->run;
	double ns;

	for (;;) {
		switch (m->pc) {
		case M_FORK:
			if (m->forked < run->nworkers) {
				*next = act_fork(&sch_worker_prog, &m->workers[m->forked++],
						 "schbench-worker", LAT_WORKERS);
				return;
			}
			m->pc = run->rps_mode ? R_SECOND : M_LOOP;
			continue;
		case M_LOOP:	/* futex BLOCKED, then xlist_wake_all */
			m->waking = m->list;
			m->list = NULL;
			for (struct sch_worker *w = m->waking; w; w = w->next)
				w->wake_time = sl_now(sim);
			m->pc = M_WAKE;
			if (futex_block(&m->futex, next))
				return;
			continue;
		case M_WAKE: {
			struct sch_worker *w = m->waking;
			if (!w) {
				m->pc = M_WAIT;
				continue;
			}
			m->waking = w->next;
			w->next = NULL;
			if (futex_post(run, &w->futex, &ns)) {
				m->target = w;
				m->pc = M_WAKE_WRITE;
				*next = sl_act_sys(ns);
				return;
			}
			continue;
		}
		case M_WAKE_WRITE:
			m->pc = M_WAKE;
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, m->target->futex.chan, 1);
			return;
		case M_WAIT:
			if (!futex_wait(run, &m->futex, next))
				return;
			m->pc = M_LOOP;
			continue;
		default:
			rps_step(sim, m, next);
			return;
		}
	}
}

static const struct sl_prog sch_msg_prog = { .name = "schbench-msg", .step = msg_step };

/* ---- main ---- */

static void main_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct sch_run *run = t->prog_state;

	(void)sim;
	if (run->forked < run->nmsg) {
		*next = act_fork(&sch_msg_prog, &run->msgs[run->forked++], "schbench-msg", LAT_MSG);
		return;
	}
	*next = sl_act_sleep(SL_SEC);	/* sleep_for_runtime's loop; the time limit ends it */
}

static const struct sl_prog sch_main_prog = { .name = "schbench", .step = main_step };

/* ---- parameters, start, report ---- */

static const struct sl_param_def sch_params[] = {
	SCH_PARAMS(SCH_MAX_WORKERS, 1 << 20),
	{ "class", SL_PARAM_CHOICE, "auto", 0, 0, "auto|int|fp|mem|cache",
	  "work class of the math; auto: int while footprint_kb fits the machine's last-level cache, "
	  "else mem" },
	{ "op_ns", SL_PARAM_REAL, NULL, 0, 1e6, NULL,
	  "ns of one multiply-add (default: 1.34 cycles at the machine's clock, measured on the host)" },
	SL_WORKLOAD_CPUS_PARAM,
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static int sch_validate(const struct sl_params *p, struct sl_err *err)
{
	long m = sl_param_int(p, "message_threads");

	if (sl_param_real(p, "warmup_s") >= sl_param_real(p, "runtime_s"))
		return sl_fail(err, "workload 'schbench': warmup_s (%g) must be less than "
			       "runtime_s (%g)", sl_param_real(p, "warmup_s"),
			       sl_param_real(p, "runtime_s"));
	if (sl_param_given(p, "workers") && m * sl_param_int(p, "workers") > SCH_MAX_TASKS)
		return sl_fail(err, "workload 'schbench': message_threads x workers = %ld, "
			       "more than %d threads", m * sl_param_int(p, "workers"),
			       SCH_MAX_TASKS);
	if (sl_param_int(p, "rps") > 0 && sl_param_int(p, "rps") < m)
		return sl_fail(err, "workload 'schbench': rps=%ld gives %ld message threads "
			       "no request (each posts rps / message_threads a second)",
			       sl_param_int(p, "rps"), m);
	return 0;
}

static void *sch_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct sch_run *run = sl_sim_alloc(sim, sizeof(*run));
	const struct sl_topo *topo = sl_topo(sim);
	double ctx = (double)sl_cost_ctx_switch(sim);
	unsigned long n = sch_matrix_n(sl_param_int(p, "footprint_kb"));
	double op_ns = sl_param_given(p, "op_ns") ? sl_param_real(p, "op_ns")
						  : SCH_OP_CYCLES * 1e6 / topo->cpu_khz;

	run->nmsg = (int)sl_param_int(p, "message_threads");
	run->nworkers = (int)sl_param_int_or(p, "workers", (topo->ncpus + run->nmsg - 1) / run->nmsg);
	run->ncpus = topo->ncpus;
	run->lock = sl_param_choice(p, "lock") == 0;
	run->rps_mode = sl_param_int(p, "rps") > 0;
	run->rps_per_msg = sl_param_int(p, "rps") / run->nmsg;
	run->sleep_ns = (sl_time)llround(sl_param_real(p, "sleep_us") * 1e3);
	run->warm_ns = sl_s_to_ns(sl_param_real(p, "warmup_s"));
	run->end_ns = sl_s_to_ns(sl_param_real(p, "runtime_s"));
	run->op_ns = op_ns;
	run->math_ns = (double)sl_param_int(p, "loops") * (double)n * (double)n * (double)n * op_ns;
	static const enum sl_wclass classes[] = { SL_WC_INT, SL_WC_INT, SL_WC_FP, SL_WC_MEM,
						  SL_WC_CACHE };
	int cls = sl_param_choice(p, "class");
	run->wclass = cls ? classes[cls]
			  : sl_param_int(p, "footprint_kb") <= (long)topo->llc_kb ? SL_WC_INT : SL_WC_MEM;
	run->futex_ns = SCH_FUTEX_CTX * ctx;
	run->wake_ns = HB_WAKE_CTX * ctx;
	run->footprint_kb = (unsigned)sl_param_int(p, "footprint_kb");
	run->cpu_lock = sl_sim_alloc(sim, sizeof(*run->cpu_lock) * (size_t)run->ncpus);
	run->wakeup = sl_sim_alloc(sim, sizeof(*run->wakeup));
	run->request = sl_sim_alloc(sim, sizeof(*run->request));
	run->msgs = sl_sim_alloc(sim, sizeof(*run->msgs) * (size_t)run->nmsg);
	for (int i = 0; i < run->nmsg; i++) {
		struct sch_msg *m = &run->msgs[i];
		m->run = run;
		m->futex.chan = sl_chan_new(sim, SCH_CHAN_BYTES, false);
		m->workers = sl_sim_alloc(sim, sizeof(*m->workers) * (size_t)run->nworkers);
		for (int k = 0; k < run->nworkers; k++) {
			struct sch_worker *w = &m->workers[k];
			w->run = run;
			w->msg = m;
			w->lock_cpu = -1;
			w->futex.chan = sl_chan_new(sim, SCH_CHAN_BYTES, false);
		}
	}
	sl_workload_pin(sim, p);
	sl_sim_spawn_root(sim, &sch_main_prog, run, "schbench");
	*limit_out = run->end_ns;
	return run;
}

static void sch_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		       struct sl_metrics *out)
{
	const struct sch_run *run = state;

	(void)p;
	sch_metrics_add(out, run->wakeup, run->request, run->requests,
			sl_ns_to_s(run->end_ns - run->warm_ns));
	sl_metrics_add(out, "op_ns", "ns", run->op_ns, -1);	/* given, as the real run's */
	const struct sl_hist *mq = sl_sim_latency(sim, SL_LAT_RUNQ, LAT_MSG);
	const struct sl_hist *wq = sl_sim_latency(sim, SL_LAT_RUNQ, LAT_WORKERS);
	sch_sched_delay_add(out, mq ? mq->sum : 0, mq ? (double)mq->count : 0, wq ? wq->sum : 0,
			    wq ? (double)wq->count : 0);
	sl_metrics_add_latency(out, sim, LAT_MSG, "msg");
	sl_metrics_add_latency(out, sim, LAT_WORKERS, "workers");
}

void sch_metrics_add(struct sl_metrics *out, const struct sl_hist *wakeup,
		     const struct sl_hist *request, long requests, double seconds)
{
	static const struct { const char *name; double p; } pct[] = {
		{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99.9", 99.9 }, { "max", 100 },
	};
	char name[32];

	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		snprintf(name, sizeof(name), "wakeup_us_%s", pct[i].name);
		sl_metrics_add(out, name, "us", (double)sl_hist_percentile(wakeup, pct[i].p) / 1e3,
			       -1);
	}
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		snprintf(name, sizeof(name), "request_us_%s", pct[i].name);
		sl_metrics_add(out, name, "us", (double)sl_hist_percentile(request, pct[i].p) / 1e3,
			       -1);
	}
	sl_metrics_add(out, "requests", "count", (double)requests, +1);
	sl_metrics_add(out, "rps", "req/s", seconds > 0 ? (double)requests / seconds : 0, +1);
}

void sch_sched_delay_add(struct sl_metrics *out, double msg_ns, double msg_count,
			 double workers_ns, double workers_count)
{
	if (msg_count > 0)
		sl_metrics_add(out, "sched_delay_us_msg", "us", msg_ns / msg_count / 1e3, -1);
	if (workers_count > 0)
		sl_metrics_add(out, "sched_delay_us_workers", "us",
			       workers_ns / workers_count / 1e3, -1);
}

/* main, the message threads and their workers, their futexes and the
 * run's structures (as sch_start allocates them). */
static void sch_mem(const struct sl_params *p, const struct sl_topo *topo,
		    struct sl_mem_need *need)
{
	uint64_t nmsg = (uint64_t)sl_param_int(p, "message_threads");
	uint64_t nworkers = sl_param_given(p, "workers") ? (uint64_t)sl_param_int(p, "workers")
			    : ((uint64_t)topo->ncpus + nmsg - 1) / nmsg;
	uint64_t threads = sl_sat_mul(nmsg, nworkers + 1);

	need->tasks = sl_sat_add(need->tasks, threads);
	need->bytes = sl_sat_add(need->bytes, sl_sim_alloc_cost(sizeof(struct sch_run)));
	need->bytes = sl_sat_add(need->bytes, sl_sim_allocs_cost(2, sizeof(struct sl_hist)));
	need->bytes = sl_sat_add(need->bytes, sl_sim_alloc_cost(sizeof(struct sch_msg) * nmsg));
	need->bytes = sl_sat_add(need->bytes, sl_sim_allocs_cost(nmsg, sizeof(struct sch_worker) *
								    nworkers));
	need->bytes = sl_sat_add(need->bytes, sl_sim_chans_cost(threads));
	need->bytes = sl_sat_add(need->bytes, sl_sim_alloc_cost(sizeof(struct sch_worker *) * (uint64_t)topo->ncpus));
}

const struct sl_workload_ops sl_workload_schbench = {
	.name = "schbench",
	.summary = "Chris Mason's schbench: message threads wake workers by futex; each request "
		   "sleeps, then multiplies matrices under a per-CPU lock",
	.metric = "wakeup_us_p99",
	.params = sch_params,
	.start = sch_start,
	.report = sch_report,
	.validate = sch_validate,
	.mem = sch_mem,
};
