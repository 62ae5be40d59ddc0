/*
 * javabench.c - the "everypoint internal bench" of seed 000: a Java program
 * (Sun 1.4.1 -server) that is "memory intensive (lots of search)" and has
 * "at least two active threads".  150 s under the HT-aware 2.5.33 on a 2x2
 * HT Xeon; 168, 188 and 218 s in three runs of stock 2.5.33; 154, 216 and
 * 224 s under 2.4.8 - "the best case for the HT-aware scheduler and the
 * worst for the existing implementations".
 *
 * The benchmark was never published: this model is an inference from those
 * two sentences and from what a 1.4 HotSpot server VM does.  One process
 * (the JVM, all tasks share its mm):
 *   - `threads` worker threads split a fixed amount of search work (so the
 *     elapsed time measures throughput).  A worker runs MEM-class search
 *     bursts (pointer chasing over a shared heap; exponential, mean
 *     `burst_ms`), and after each records its result under one shared lock
 *     (`lock_us` of work inside it).  `class` gives the search, lock and
 *     GC work another work class, for thread-scaling jobs of other kinds
 *     (default mem: the seed's bench); `split=pool` makes the workers take
 *     their bursts from one pool of work, as a job with a work queue does,
 *     instead of an even share each (default even);
 *   - stop-the-world garbage collection: after every `gc_every_ms` of its
 *     own search work each worker comes to a safepoint (a barrier of all
 *     workers); worker 0 then collects (`gc_ms` of MEM work, serial as in
 *     1.4's default collector) while the others wait at a second barrier;
 *   - the VM's low-activity threads: the server compiler, which sleeps on
 *     its compile queue until a worker finds a method hot (after about one
 *     search burst in `compile_every`) and then compiles for about 2 ms;
 *     and the periodic-task watcher, which wakes every 50 ms for a few
 *     microseconds;
 *   - the main thread starts them all, waits for the workers and exits
 *     (pthreads=linuxthreads: the threads cloned by LinuxThreads' manager,
 *     as on the JVMs of 2002, workload/linuxthreads.h; the last worker
 *     then tells main, which reaps the manager).
 * With two workers on a 2x2 HT machine the result hinges on whether they
 * share a package: MEM work next to MEM work on a sibling runs at ~0.65 of
 * its speed (docs/model.md [SMT]), and every safepoint makes the faster worker
 * wait for the slower one.
 *
 * Sources: seed-000 (Allan MacKinnon, LKML, 9 Sep 2002,
 * <m24rczzkq8.fsf@everypoint.net>); docs/model.md [SMT]
 * (memory-latency-bound Java/GC-heavy code: MEM class).
 *
 * Calibrated against: size=277 (reference seconds of search work) gives
 * seed 000's 150 s when the two workers have a package each (the HT-aware
 * column); nothing else is tuned.  The other columns (168-218 s) are what
 * the policies make of the same work.
 *
 * Omitted / simplified:
 *   - the heap is not modelled as memory: sharing shows only through the
 *     MEM work class, the common mm and the cache footprint;
 *   - GC is triggered per worker, not by the shared heap filling up, so all
 *     workers pass the same number of safepoints (which keeps the barrier
 *     simple) and safepoints come at burst boundaries;
 *   - JIT compilation keeps the same low rate for the whole run; no
 *     warm-up phase, no interpreter-speed start;
 *   - System.exit does not kill the VM's threads in the simulation: the
 *     compiler sees its queue closed and exits at once, the watcher at its
 *     next tick (at most 50 ms after the workers, which the run's elapsed
 *     time includes);
 *   - worker burst sizes come from each thread's own stream (run seed and
 *     task id), so repetitions differ slightly.
 */
#include <stdint.h>

#include "base/memsize.h"
#include "sim/sim.h"
#include "workload/linuxthreads.h"
#include "workload/workload.h"

#define JB_FOOTPRINT_KB 4096	/* a heap far larger than the 512 KB L2 */
#define JB_COMPILE_WORK_NS (2 * SL_MSEC)
#define JB_QUEUE_BYTES (1L << 20)	/* the compile queue never fills */
#define JB_WATCHER_PERIOD_NS (50 * SL_MSEC)
#define JB_WATCHER_WORK_NS (5 * SL_USEC)

struct jb_run;

struct jb_worker {
	struct jb_run *run;
	int index;
	int64_t left;		/* search work still to do, ns */
	int64_t until_gc;	/* search work until the next safepoint */
	long tid;		/* its task id */
	unsigned char pc;
};

struct jb_helper {
	struct jb_run *run;
	bool wake_next;		/* the next action is the sleep */
};

struct jb_run {
	int threads;
	int64_t per_worker;
	int64_t gc_every, gc_work, lock_work;
	double burst_mean;
	struct sl_mutex *results;
	struct sl_barrier *safepoint, *resume;
	struct jb_worker *workers;
	struct sl_chan *compile_queue;
	double compile_every;	/* mean search bursts per compile request */
	enum sl_wclass wclass;	/* of the search and GC work */
	bool pool;		/* split=pool: one pool of work for all workers */
	int64_t pool_left;	/* search work still in the pool, ns */
	struct jb_helper compiler, watcher;
	bool linuxthreads;	/* threads created through LinuxThreads' manager */
	struct lt_manager lt;
	struct lt_create create;
	struct sl_chan *done;	/* LinuxThreads: the last worker's word to main */
	unsigned char lt_pc;	/* LinuxThreads: main's step (main_step_lt) */
	int started, finished, reaped;
	long searches, gcs;
};

/* ---- worker threads ---- */

enum { W_SEARCH, W_LOCK, W_RECORD, W_UNLOCK, W_COMPILE, W_SAFEPOINT, W_COLLECT, W_RESUME,
       W_CLOSE, W_EXIT };

/* Search work still to do for w: its own share, or the common pool. */
static int64_t *work_left(struct jb_worker *w)
{
	return w->run->pool ? &w->run->pool_left : &w->left;
}

static void search(struct sl_task *t, struct jb_worker *w, struct sl_action *next)
{
	int64_t burst = (int64_t)sl_rng_exp(&t->rng, w->run->burst_mean) + 1;
	int64_t *left = work_left(w);

	if (burst > *left)
		burst = *left;
	if (burst > w->until_gc)
		burst = w->until_gc;
	*left -= burst;
	w->until_gc -= burst;
	w->run->searches++;
	w->pc = W_LOCK;
	*next = sl_act_run((double)burst, w->run->wclass);
}

static void resume(struct jb_worker *w, struct sl_action *next)
{
	w->pc = W_SEARCH;
	w->until_gc = w->run->gc_every;
	*next = sl_act_barrier(w->run->resume);
}

static void worker_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct jb_worker *w = t->prog_state;
	struct jb_run *run = w->run;

	(void)sim;
	switch (w->pc) {
	case W_SEARCH:
		t->footprint_kb = JB_FOOTPRINT_KB;
		if (*work_left(w) > 0) {
			search(t, w, next);
			return;
		}
		w->pc = ++run->finished == run->threads ? W_CLOSE : W_EXIT;
		*next = sl_act_exit();
		if (w->pc == W_CLOSE)	/* the last one out closes the compile queue */
			*next = sl_act_chan(SL_ACT_CHAN_CLOSE, run->compile_queue, 0);
		return;
	case W_LOCK:
		w->pc = W_RECORD;
		*next = sl_act_mutex(SL_ACT_LOCK, run->results);
		return;
	case W_RECORD:
		w->pc = W_UNLOCK;
		*next = sl_act_run((double)run->lock_work, run->wclass);
		return;
	case W_UNLOCK:
		w->pc = W_COMPILE;
		*next = sl_act_mutex(SL_ACT_UNLOCK, run->results);
		return;
	case W_COMPILE:	/* now and then a method turns hot */
		w->pc = w->until_gc > 0 ? W_SEARCH : W_SAFEPOINT;
		if (sl_rng_uniform(&t->rng) * run->compile_every < 1) {
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, run->compile_queue, 1);
			return;
		}
		worker_step(sim, t, next);
		return;
	case W_SAFEPOINT:
		w->pc = W_COLLECT;
		*next = sl_act_barrier(run->safepoint);
		return;
	case W_COLLECT:	/* worker 0 collects while the others wait */
		if (w->index == 0) {
			w->pc = W_RESUME;
			run->gcs++;
			*next = sl_act_run((double)run->gc_work, run->wclass);
			return;
		}
		resume(w, next);
		return;
	case W_RESUME:
		resume(w, next);
		return;
	case W_CLOSE:	/* under LinuxThreads main waits for this word */
		w->pc = W_EXIT;
		if (run->linuxthreads) {
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, run->done, 1);
			return;
		}
		/* fall through */
	default:
		*next = sl_act_exit();
	}
}

static const struct sl_prog jb_worker_prog = { .name = "java-worker", .step = worker_step };

/* ---- the VM's own threads ---- */

/* The compiler: one compilation per request, until the queue is closed. */
static void compiler_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct jb_helper *h = t->prog_state;

	(void)sim;
	h->wake_next = !h->wake_next;
	if (h->wake_next) {
		*next = sl_act_chan(SL_ACT_CHAN_READ, h->run->compile_queue, 1);
		return;
	}
	if (t->result <= 0) {
		*next = sl_act_exit();
		return;
	}
	*next = sl_act_run(sl_rng_exp(&t->rng, (double)JB_COMPILE_WORK_NS), SL_WC_INT);
}

static const struct sl_prog jb_compiler_prog = { .name = "java-compiler", .step = compiler_step };

/* The watcher: a few microseconds every 50 ms while the workers run. */
static void watcher_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct jb_helper *h = t->prog_state;
	const struct jb_run *run = h->run;

	(void)sim;
	if (run->finished == run->threads) {
		*next = sl_act_exit();
		return;
	}
	h->wake_next = !h->wake_next;
	if (h->wake_next)
		*next = sl_act_nanosleep(JB_WATCHER_PERIOD_NS);
	else
		*next = sl_act_run((double)JB_WATCHER_WORK_NS, SL_WC_INT);
}

static const struct sl_prog jb_watcher_prog = { .name = "java-watcher", .step = watcher_step };

/* ---- the main thread: start everything, wait for the workers, exit
 * (System.exit: the VM's own threads go with it) ---- */

static bool is_worker(const struct jb_run *run, long id)
{
	for (int i = 0; i < run->threads; i++)
		if (run->workers[i].tid == id)
			return true;
	return false;
}

/* The VM's threads in the order main creates them. */
static void jb_thread(struct jb_run *run, int n, const struct sl_prog **prog, void **state,
		      const char **comm)
{
	if (n == 0) {
		*prog = &jb_compiler_prog, *state = &run->compiler, *comm = "CompilerThread0";
	} else if (n == 1) {
		*prog = &jb_watcher_prog, *state = &run->watcher, *comm = "VMPeriodicTask";
	} else {
		*prog = &jb_worker_prog, *state = &run->workers[n - 2], *comm = "java";
	}
}

/* main under LinuxThreads: each thread made by the manager while main is
 * suspended; then the last worker's word, then the manager reaped (it
 * reaps the threads). */
enum { JM_CREATE, JM_DONE, JM_REAP };

static void main_step_lt(struct jb_run *run, struct sl_task *t, struct sl_action *next)
{
	switch (run->lt_pc) {
	case JM_CREATE:
		while (run->started < 2 + run->threads) {
			const struct sl_prog *prog;
			void *state;
			const char *comm;
			jb_thread(run, run->started, &prog, &state, &comm);
			if (lt_create_step(&run->lt, &run->create, prog, state, comm, next))
				return;
			run->started++;
		}
		run->lt_pc = JM_DONE;
		*next = sl_act_chan(SL_ACT_CHAN_READ, run->done, 1);
		return;
	case JM_DONE:
		run->lt_pc = JM_REAP;
		*next = lt_done(&run->lt);
		return;
	default:
		*next = t->result < 0 ? sl_act_exit() : sl_act_wait();
	}
}

static void main_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct jb_run *run = t->prog_state;
	int n = run->started;

	(void)sim;
	t->footprint_kb = JB_FOOTPRINT_KB;
	if (run->linuxthreads) {
		main_step_lt(run, t, next);
		return;
	}
	if (n > 2 && n <= 2 + run->threads)	/* t->result: the worker just forked */
		run->workers[n - 3].tid = t->result;
	if (n < 2 + run->threads) {
		const struct sl_prog *prog;
		void *state;
		const char *comm;
		jb_thread(run, n, &prog, &state, &comm);
		run->started++;
		*next = sl_act_fork(prog, state, comm, true);
		return;
	}
	if (n == 2 + run->threads)
		run->started++;		/* the last fork's result is recorded */
	else if (t->result >= 0 && is_worker(run, t->result))
		run->reaped++;
	bool more = run->reaped < run->threads && (n == 2 + run->threads || t->result >= 0);
	*next = more ? sl_act_wait() : sl_act_exit();
}

static const struct sl_prog jb_main_prog = { .name = "java", .step = main_step };

/* ---- parameters, start, report ---- */

static const struct sl_param_def jb_params[] = {
	{ "threads", SL_PARAM_INT, "2", 1, 1024, NULL,
	  "active worker threads (the seed: at least two)" },
	{ "size", SL_PARAM_REAL, "277", 0.001, 1e6, NULL,
	  "reference CPU seconds of search work, split evenly among the workers" },
	{ "burst_ms", SL_PARAM_REAL, "2", 0.001, 10000, NULL,
	  "mean search burst between result updates, ms" },
	{ "lock_us", SL_PARAM_REAL, "20", 0, 1e6, NULL,
	  "work inside the shared results lock per update, us" },
	{ "gc_every_ms", SL_PARAM_REAL, "250", 1, 1e6, NULL,
	  "search work per worker between stop-the-world collections, ms" },
	{ "gc_ms", SL_PARAM_REAL, "15", 0, 1e6, NULL,
	  "work of one collection (done by one thread while the others wait), ms" },
	{ "compile_every", SL_PARAM_REAL, "100", 1, 1e9, NULL,
	  "mean search bursts per JIT compile request (each ~2 ms of compiling)" },
	{ "class", SL_PARAM_CHOICE, "mem", 0, 0, "mem|int|fp|cache|spin",
	  "work class of the search and GC work (the seed's bench: mem)" },
	{ "split", SL_PARAM_CHOICE, "even", 0, 0, "even|pool",
	  "even: each worker does size/threads; pool: workers take bursts from one pool "
	  "until it is empty (a work queue: they finish together)" },
	LT_PTHREADS_PARAM,
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

/* In the order of the "class" choices. */
static const enum sl_wclass jb_classes[] = { SL_WC_MEM, SL_WC_INT, SL_WC_FP, SL_WC_CACHE,
					     SL_WC_SPIN };

static void *jb_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct jb_run *run = sl_sim_alloc(sim, sizeof(*run));
	int n = (int)sl_param_int(p, "threads");

	run->threads = n;
	run->per_worker = (int64_t)(sl_param_real(p, "size") * 1e9 / n);
	if (run->per_worker < 1)
		run->per_worker = 1;
	run->gc_every = (int64_t)(sl_param_real(p, "gc_every_ms") * 1e6);
	run->gc_work = (int64_t)(sl_param_real(p, "gc_ms") * 1e6);
	run->lock_work = (int64_t)(sl_param_real(p, "lock_us") * 1e3);
	run->burst_mean = sl_param_real(p, "burst_ms") * 1e6;
	run->results = sl_mutex_new(sim);
	run->safepoint = sl_barrier_new(sim, n);
	run->resume = sl_barrier_new(sim, n);
	run->workers = sl_sim_alloc(sim, sizeof(*run->workers) * (size_t)n);
	for (int i = 0; i < n; i++) {
		run->workers[i].run = run;
		run->workers[i].index = i;
		run->workers[i].left = run->per_worker;
		run->workers[i].until_gc = run->gc_every;
	}
	run->compile_queue = sl_chan_new(sim, JB_QUEUE_BYTES, false);
	run->compile_every = sl_param_real(p, "compile_every");
	run->wclass = jb_classes[sl_param_choice(p, "class")];
	run->pool = sl_param_choice(p, "split") == 1;
	run->pool_left = (int64_t)(sl_param_real(p, "size") * 1e9);
	run->compiler.run = run;
	run->watcher.run = run;
	run->linuxthreads = sl_param_choice(p, "pthreads") == 1;
	if (run->linuxthreads) {
		lt_manager_init(sim, &run->lt);
		lt_create_init(sim, &run->create);
		run->done = sl_chan_new(sim, 1, false);
	}
	sl_sim_spawn_root(sim, &jb_main_prog, run, "java");
	*limit_out = 0;
	return run;
}

static void jb_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		      struct sl_metrics *out)
{
	const struct jb_run *run = state;
	struct sl_run_stats st;

	(void)p;
	sl_sim_stats(sim, &st);
	double elapsed = sl_ns_to_s(st.elapsed_ns);
	sl_metrics_add(out, "throughput", "searches/s",
		       elapsed > 0 ? (double)run->searches / elapsed : 0, +1);
	sl_metrics_add(out, "gcs", "count", (double)run->gcs, 0);
}

/* the VM's main thread, its workers and the JIT compiler thread
 * (LinuxThreads: and the manager) */
static void jb_mem(const struct sl_params *p, const struct sl_topo *topo,
		   struct sl_mem_need *need)
{
	uint64_t n = (uint64_t)sl_param_int(p, "threads");
	uint64_t b = sl_sim_alloc_cost(sizeof(struct jb_run));

	(void)topo;
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(n, sizeof(struct jb_worker))));
	b = sl_sat_add(b, sl_sim_mutexes_cost(1) + sl_sim_barriers_cost(2) + sl_sim_chans_cost(1));
	if (sl_param_choice(p, "pthreads") == 1) {	/* the manager, three channels */
		n = sl_sat_add(n, 1);
		b = sl_sat_add(b, sl_sim_chans_cost(3));
	}
	need->tasks = sl_sat_add(need->tasks, sl_sat_add(n, 1));
	need->bytes = sl_sat_add(need->bytes, b);
}

/* The search work alone, on as many CPUs as there are workers or CPUs. */
static int jb_check(const struct sl_params *p, const struct sl_machine *m,
		    const struct sl_policy_ops *policy, struct sl_err *err)
{
	double size = sl_param_real(p, "size");
	long threads = sl_param_int(p, "threads");
	int on = threads < m->topo.ncpus ? (int)threads : m->topo.ncpus;
	char what[96];

	(void)policy;
	snprintf(what, sizeof(what), "size=%g s of work on %d CPU%s", size, on, on > 1 ? "s" : "");
	return sl_workload_fits_horizon("javabench", size / on, what, err);
}

const struct sl_workload_ops sl_workload_javabench = {
	.name = "javabench",
	.summary = "seed 000's Java search bench (inferred): MEM-bound threads, a lock, stop-the-world GC",
	.metric = "elapsed_s",
	.params = jb_params,
	.start = jb_start,
	.report = jb_report,
	.mem = jb_mem,
	.check = jb_check,
};
