/*
 * schbench.c - the real `schbench`: Chris Mason's schbench as threads of one
 * root process on the host (the simulated schbench's counterpart,
 * src/workload/schbench.c, whose header describes the benchmark).  Written
 * for schedlab after schbench.c at masoncl/schbench (not packaged in
 * Debian), the same structure in its normal and -R modes:
 *
 *   message threads (pthreads) each start their workers and loop: set the
 *   futex word BLOCKED, splice the list of waiting workers, read the clock
 *   once, stamp and post each (FUTEX_WAKE when the post turned the word
 *   from BLOCKED), wait on the own futex; workers loop: word BLOCKED,
 *   stamp, push themselves on the list (a compare-and-swap stack), post
 *   the message thread, wait; woken, wakeup latency = now - stamp; one
 *   request: usleep, then under the lock of the CPU they run on (a
 *   pthread mutex taken by trylock and pause, re-checked against
 *   sched_getcpu) `loops` naive multiplications of three n x n arrays of
 *   unsigned long in `footprint_kb`, mapped anonymous and never
 *   initialised, as schbench's malloc'd ones: two of them read the zero
 *   page.  -R mode: each message thread posts rps / message_threads
 *   requests at the start of each second round-robin, then sleeps the
 *   second out.
 *   Each worker also times its math in its own CPU time
 *   (CLOCK_THREAD_CPUTIME_ID), for the metric op_ns: ns per multiply-add.
 *
 * Clocks are CLOCK_MONOTONIC in ns (schbench: gettimeofday in us, zero
 * samples dropped); samples and requests count after `warmup_s` and the
 * run stops at `runtime_s`: the stopping flag, a post to every thread,
 * joins.  A FUTEX_WAIT times out after a second so that no lost post
 * can hang the run.  Each worker has its own two histograms (base/hist.h,
 * merged at the end), so real workers are limited to SCH_REAL_MAX_WORKERS.
 * Each thread reads its own schedstat as it ends, for schbench's "sched
 * delay" (the mean run delay per switch-in of each role).
 * The root writes the results to memory shared with schedlab.
 */
#include "real/real.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/hist.h"
#include "real/proc.h"
#include "workload/schbench.h"

#define SCH_REAL_MAX_WORKERS 1024	/* 2 x 58 KB of histograms each */
#define SCH_REAL_MAX_FOOTPRINT_KB 65536	/* a worker writes a third of it */

enum { FX_BLOCKED = 0, FX_RUNNING = 1 };
enum { SB_OK = 0, SB_ESETUP = 4 };

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __asm__ __volatile__("pause" ::: "memory")
#else
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif

struct sbr_run;

struct sbr_thread {
	struct sbr_run *run;
	struct sbr_thread *msg;		/* a worker's message thread */
	struct sbr_thread *workers;	/* a message thread's */
	struct sbr_thread *next;	/* on the message thread's list */
	struct sbr_thread *list;	/* a message thread's waiting workers */
	int futex;
	int64_t wake_time;		/* ns, the stamp */
	long queued;			/* -R: requests queued to this worker */
	long pending;
	unsigned long *data;		/* the three matrices */
	struct sl_hist *wakeup, *request;
	long requests;
	double math_ns;			/* CPU time of the math of those requests */
	double delay_ns, pcount;	/* its schedstat at its end */
	pthread_t tid;
};

struct sbr_result {
	struct sl_hist wakeup, request;
	long requests;
	double math_ns;			/* their math's CPU time, all workers */
	double seconds;			/* the measured span after the warm-up */
	double msg_delay_ns, msg_pcount, w_delay_ns, w_pcount;
};

struct sbr_run {
	int nmsg, nworkers, nlocks;
	long loops, rps_per_msg;
	unsigned long n;
	long sleep_us;
	bool lock;
	double runtime_s, warmup_s;
	int64_t t0, warm_ns;
	int stopping;
	pthread_mutex_t *locks;
	struct sbr_thread *msgs;
	struct sbr_result *out;		/* shared with schedlab */
	int result_fd;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The calling thread's CPU time, ns: what its math cost, whatever else ran
 * on the CPU meanwhile. */
static int64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool stopping(const struct sbr_run *run)
{
	return __atomic_load_n(&run->stopping, __ATOMIC_SEQ_CST);
}

/* ---- futexes, as schbench's fpost / fwait ---- */

static void fpost(int *f)
{
	int blocked = FX_BLOCKED;

	if (__atomic_compare_exchange_n(f, &blocked, FX_RUNNING, false, __ATOMIC_SEQ_CST,
					__ATOMIC_SEQ_CST))
		syscall(SYS_futex, f, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void fwait(const struct sbr_run *run, int *f)
{
	struct timespec timeout = { 1, 0 };	/* only against a lost post at the end */

	for (;;) {
		int running = FX_RUNNING;
		if (__atomic_compare_exchange_n(f, &running, FX_BLOCKED, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return;
		if (stopping(run))
			return;
		syscall(SYS_futex, f, FUTEX_WAIT_PRIVATE, FX_BLOCKED, &timeout, NULL, 0);
	}
}

static void fset(int *f, int v)
{
	__atomic_store_n(f, v, __ATOMIC_SEQ_CST);
}

/* ---- the request ---- */

static volatile unsigned long sink;

static void multiply(unsigned long *d, unsigned long n)
{
	unsigned long *m1 = d, *m2 = d + n * n, *m3 = d + 2 * n * n;

	for (unsigned long i = 0; i < n; i++)
		for (unsigned long j = 0; j < n; j++) {
			m3[i * n + j] = 0;
			for (unsigned long k = 0; k < n; k++)
				m3[i * n + j] += m1[i * n + k] * m2[k * n + j];
		}
	sink = m3[n * n - 1];
}

/* lock_this_cpu: spin on the lock of the CPU we run on; start again if
 * we got it elsewhere. */
static pthread_mutex_t *lock_this_cpu(struct sbr_run *run)
{
	for (;;) {
		int cpu = sched_getcpu();
		if (cpu < 0 || cpu >= run->nlocks)
			cpu = 0;
		pthread_mutex_t *l = &run->locks[cpu];
		while (pthread_mutex_trylock(l))
			cpu_relax();
		if (sched_getcpu() == cpu)
			return l;
		pthread_mutex_unlock(l);
	}
}

static void record(const struct sbr_run *run, struct sl_hist *h, int64_t since, int64_t now)
{
	if (now >= run->warm_ns)
		sl_hist_record(h, now > since ? (uint64_t)(now - since) : 0);
}

static void request(struct sbr_thread *w)
{
	struct sbr_run *run = w->run;
	int64_t start = now_ns();
	pthread_mutex_t *l = NULL;

	if (run->sleep_us > 0)
		usleep((useconds_t)run->sleep_us);
	if (run->lock)
		l = lock_this_cpu(run);
	int64_t cpu0 = thread_cpu_ns();
	for (long i = 0; i < run->loops; i++)
		multiply(w->data, run->n);
	int64_t math = thread_cpu_ns() - cpu0;
	if (l)
		pthread_mutex_unlock(l);
	int64_t end = now_ns();
	record(run, w->request, start, end);
	if (end >= run->warm_ns && end - run->t0 <= (int64_t)(run->runtime_s * 1e9)) {
		w->requests++;
		w->math_ns += (double)math;
	}
}

/* ---- workers ---- */

static void push(struct sbr_thread *msg, struct sbr_thread *w)
{
	struct sbr_thread *old = __atomic_load_n(&msg->list, __ATOMIC_SEQ_CST);

	do
		w->next = old;
	while (!__atomic_compare_exchange_n(&msg->list, &old, w, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST));
}

/* msg_and_wait: true when woken (normal mode) or with requests queued
 * (-R mode), the number in *nreq. */
static void msg_and_wait(struct sbr_thread *w, long *nreq)
{
	struct sbr_run *run = w->run;

	*nreq = 0;
	fset(&w->futex, FX_BLOCKED);
	w->wake_time = now_ns();
	if (run->rps_per_msg) {
		w->pending = 0;
		*nreq = __atomic_exchange_n(&w->queued, 0, __ATOMIC_SEQ_CST);
		if (*nreq) {
			fset(&w->futex, FX_RUNNING);
			return;
		}
	} else {
		push(w->msg, w);
	}
	fpost(&w->msg->futex);
	if (stopping(run))
		return;
	fwait(run, &w->futex);
	int64_t woken = now_ns();
	/* the posts that end the run are not wakeups the run measures (the
	 * simulation stops at runtime_s without them) */
	if (!stopping(run))
		record(run, w->wakeup, __atomic_load_n(&w->wake_time, __ATOMIC_SEQ_CST), woken);
	if (!run->rps_per_msg)
		*nreq = 1;
}

/* The calling thread's run delay and switch-ins (/proc/thread-self/
 * schedstat: run time, run delay, pcount); zero where the kernel has no
 * schedstat. */
static void own_schedstat(struct sbr_thread *t)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	unsigned long long run, delay, count;

	if (!f)
		return;
	if (fscanf(f, "%llu %llu %llu", &run, &delay, &count) == 3) {
		t->delay_ns = (double)delay;
		t->pcount = (double)count;
	}
	fclose(f);
}

static void *worker_main(void *arg)
{
	struct sbr_thread *w = arg;
	long nreq;

	pthread_setname_np(pthread_self(), "schbench-worker");
	while (!stopping(w->run)) {
		msg_and_wait(w, &nreq);
		while (nreq-- > 0 && !stopping(w->run))
			request(w);
	}
	own_schedstat(w);
	return NULL;
}

/* ---- message threads ---- */

static void wake_all(struct sbr_thread *m)
{
	struct sbr_thread *list = __atomic_exchange_n(&m->list, NULL, __ATOMIC_SEQ_CST);
	int64_t now = now_ns();

	while (list) {
		struct sbr_thread *next = list->next;
		list->next = NULL;
		__atomic_store_n(&list->wake_time, now, __ATOMIC_SEQ_CST);
		fpost(&list->futex);
		list = next;
	}
}

static void msg_loop(struct sbr_thread *m)
{
	struct sbr_run *run = m->run;

	for (;;) {
		fset(&m->futex, FX_BLOCKED);
		wake_all(m);
		if (stopping(run)) {
			wake_all(m);
			return;
		}
		fwait(run, &m->futex);
	}
}

static void rps_loop(struct sbr_thread *m)
{
	struct sbr_run *run = m->run;
	long cur = 0;

	while (!stopping(run)) {
		int64_t start = now_ns();
		for (long i = 0; i < run->rps_per_msg && !stopping(run); i++) {
			struct sbr_thread *w = &m->workers[cur++ % run->nworkers];
			if (__atomic_load_n(&w->pending, __ATOMIC_SEQ_CST) > SCH_RPS_BATCH) {
				usleep(SCH_RPS_BACKOFF_NS / 1000);
				continue;
			}
			__atomic_add_fetch(&w->pending, 1, __ATOMIC_SEQ_CST);
			__atomic_add_fetch(&w->queued, 1, __ATOMIC_SEQ_CST);
			__atomic_store_n(&w->wake_time, now_ns(), __ATOMIC_SEQ_CST);
			fpost(&w->futex);
		}
		int64_t left;
		while (!stopping(run) && (left = start + 1000000000 - now_ns()) > 0)
			usleep((useconds_t)(left / 1000 > 0 ? left / 1000 : 1));
	}
}

static void *msg_main(void *arg)
{
	struct sbr_thread *m = arg;
	struct sbr_run *run = m->run;
	int started = 0;

	pthread_setname_np(pthread_self(), "schbench-msg");
	for (; started < run->nworkers; started++)
		if (pthread_create(&m->workers[started].tid, NULL, worker_main,
				   &m->workers[started])) {
			__atomic_store_n(&run->stopping, 1, __ATOMIC_SEQ_CST);
			break;
		}
	if (run->rps_per_msg)
		rps_loop(m);
	else
		msg_loop(m);
	own_schedstat(m);
	for (int i = 0; i < started; i++) {
		fpost(&m->workers[i].futex);
		pthread_join(m->workers[i].tid, NULL);
	}
	return NULL;
}

/* ---- the root process ---- */

static int setup(struct sbr_run *run)
{
	size_t bytes = 3 * run->n * run->n * sizeof(unsigned long);

	run->nlocks = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (run->nlocks < 1)
		run->nlocks = 1;
	run->locks = calloc((size_t)run->nlocks, sizeof(*run->locks));
	run->msgs = calloc((size_t)run->nmsg, sizeof(*run->msgs));
	if (!run->locks || !run->msgs)
		return -1;
	for (int i = 0; i < run->nlocks; i++)
		pthread_mutex_init(&run->locks[i], NULL);
	for (int i = 0; i < run->nmsg; i++) {
		struct sbr_thread *m = &run->msgs[i];
		m->run = run;
		m->workers = calloc((size_t)run->nworkers, sizeof(*m->workers));
		if (!m->workers)
			return -1;
		for (int k = 0; k < run->nworkers; k++) {
			struct sbr_thread *w = &m->workers[k];
			w->run = run;
			w->msg = m;
			w->wakeup = calloc(1, sizeof(*w->wakeup));
			w->request = calloc(1, sizeof(*w->request));
			/* as schbench's malloc of more than 128 KB: fresh pages,
			 * never written but for the product */
			w->data = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (!w->wakeup || !w->request || w->data == MAP_FAILED)
				return -1;
		}
	}
	return 0;
}

static int sbr_root_main(void *arg)
{
	struct sbr_run *run = arg;
	int started = 0;

	if (setup(run))
		return SB_ESETUP;
	run->t0 = now_ns();
	run->warm_ns = run->t0 + (int64_t)(run->warmup_s * 1e9);
	for (; started < run->nmsg; started++)
		if (pthread_create(&run->msgs[started].tid, NULL, msg_main, &run->msgs[started]))
			break;
	/* sleep_for_runtime, without the once-a-second statistics */
	int64_t end = run->t0 + (int64_t)(run->runtime_s * 1e9), left;
	while (started == run->nmsg && (left = end - now_ns()) > 0) {
		struct timespec ts = { left / 1000000000, left % 1000000000 };
		nanosleep(&ts, NULL);
	}
	__atomic_store_n(&run->stopping, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < started; i++) {
		fpost(&run->msgs[i].futex);
		pthread_join(run->msgs[i].tid, NULL);
	}
	struct sbr_result *out = run->out;
	for (int i = 0; i < run->nmsg; i++) {
		out->msg_delay_ns += run->msgs[i].delay_ns;
		out->msg_pcount += run->msgs[i].pcount;
		for (int k = 0; k < run->nworkers; k++) {
			const struct sbr_thread *w = &run->msgs[i].workers[k];
			sl_hist_merge(&out->wakeup, w->wakeup);
			sl_hist_merge(&out->request, w->request);
			out->requests += w->requests;
			out->math_ns += w->math_ns;
			out->w_delay_ns += w->delay_ns;
			out->w_pcount += w->pcount;
		}
	}
	out->seconds = run->runtime_s - run->warmup_s;
	double t = (double)(now_ns() - run->t0) / 1e9;
	if (started < run->nmsg)
		return SB_ESETUP;
	return write(run->result_fd, &t, sizeof(t)) == (ssize_t)sizeof(t) ? SB_OK : SB_ESETUP;
}

/* ---- the workload ---- */

static const struct sl_param_def sbr_params[] = {
	SCH_PARAMS(SCH_REAL_MAX_WORKERS, SCH_REAL_MAX_FOOTPRINT_KB),
	SL_WORKLOAD_CPUS_PARAM,	/* taskset -c: the same as --cpus */
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static void sbr_resolve(struct sl_params *p, const struct sl_real_env *env)
{
	long m = sl_param_int(p, "message_threads");

	if (!sl_param_given(p, "workers"))
		sl_real_param_set(p, "workers", (double)((env->ncpus + m - 1) / m));
}

static int sbr_check(const struct sl_params *p, struct sl_err *err)
{
	long m = sl_param_int(p, "message_threads"), w = sl_param_int(p, "workers");

	if (sl_param_real(p, "warmup_s") >= sl_param_real(p, "runtime_s"))
		return sl_fail(err, "workload 'schbench': warmup_s (%g) must be less than "
			       "runtime_s (%g)", sl_param_real(p, "warmup_s"),
			       sl_param_real(p, "runtime_s"));
	if (m * w > SCH_REAL_MAX_WORKERS)
		return sl_fail(err, "workload 'schbench': message_threads x workers = %ld, more "
			       "than the %d real workers", m * w, SCH_REAL_MAX_WORKERS);
	if (sl_param_int(p, "rps") > 0 && sl_param_int(p, "rps") < m)
		return sl_fail(err, "workload 'schbench': rps=%ld gives %ld message threads "
			       "no request (each posts rps / message_threads a second)",
			       sl_param_int(p, "rps"), m);
	return 0;
}

/* Before any repetition: what the parameter table cannot say alone. */
static int sbr_prepare(const struct sl_params *p, const struct sl_real_env *env,
		       struct sl_err *err)
{
	(void)env;
	return sbr_check(p, err);
}

static int sbr_run(const struct sl_params *p, const struct sl_real_env *env,
		   struct sl_metrics *out, struct sl_err *err)
{
	struct sbr_run r = {
		.nmsg = (int)sl_param_int(p, "message_threads"),
		.nworkers = (int)sl_param_int(p, "workers"),
		.loops = sl_param_int(p, "loops"),
		.n = sch_matrix_n(sl_param_int(p, "footprint_kb")),
		.sleep_us = (long)sl_param_real(p, "sleep_us"),
		.lock = sl_param_choice(p, "lock") == 0,
		.runtime_s = sl_param_real(p, "runtime_s"),
		.warmup_s = sl_param_real(p, "warmup_s"),
	};
	struct sl_real_usage u;
	double t = 0;

	r.rps_per_msg = sl_param_int(p, "rps") / r.nmsg;
	r.out = mmap(NULL, sizeof(*r.out), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (r.out == MAP_FAILED)
		return sl_fail_internal(err, "schbench: mmap: %s", strerror(errno));
	int rc = sl_real_root_run(env->pinned ? &env->cpus : NULL, sbr_root_main, &r,
				  &r.result_fd, &t, &u, err);
	if (rc) {
		if (!sl_real_interrupted())
			sl_err_prefix(err, "schbench: ");
	} else {
		sl_real_usage_metrics(&u, out);
		sch_metrics_add(out, &r.out->wakeup, &r.out->request, r.out->requests,
				r.out->seconds);
		/* the cost of a multiply-add as the host did it: what the
		 * model's op_ns stands for (validate's counterpart takes it) */
		double ops = (double)r.out->requests * (double)r.loops * (double)r.n *
			     (double)r.n * (double)r.n;
		if (ops > 0)
			sl_metrics_add(out, "op_ns", "ns", r.out->math_ns / ops, -1);
		sch_sched_delay_add(out, r.out->msg_delay_ns, r.out->msg_pcount,
				    r.out->w_delay_ns, r.out->w_pcount);
	}
	munmap(r.out, sizeof(*r.out));
	return rc;
}

const struct sl_real_workload sl_real_schbench = {
	.name = "schbench",
	.summary = "Chris Mason's schbench as threads: message threads wake workers by futex; "
		   "requests sleep, then multiply matrices under a per-CPU lock",
	.metric = "wakeup_us_p99",
	.params = sbr_params,
	.resolve = sbr_resolve,
	.prepare = sbr_prepare,
	.run = sbr_run,
};
