/*
 * schbench.h - what the simulated schbench (schbench.c) and its real
 * counterpart (src/real/schbench.c) share: the matrix a request multiplies,
 * the assumed cost of one multiply-add, and the metrics both report.
 */
#ifndef SL_WORKLOAD_SCHBENCH_H
#define SL_WORKLOAD_SCHBENCH_H

#include "base/hist.h"
#include "workload/workload.h"

/*
 * The side of the square matrices of a request: three n x n arrays of
 * unsigned long fill the footprint, n = floor(sqrt(KB x 1024 / 3 / 8)),
 * as schbench computes matrix_size (104 for the default 256 KB).  One
 * multiplication is n^3 multiply-adds.
 */
unsigned long sch_matrix_n(long footprint_kb);

/*
 * Cycles of one multiply-add of schbench's naive multiplication (the
 * inner loop gcc -O2 makes of it: two loads, an imul, an add into a
 * register, a store), measured alone on the project's host as the
 * thread's CPU time (CLOCK_THREAD_CPUTIME_ID, so other load does not
 * count): 200 multiplications of 104 x 104, never-written matrices as
 * schbench's, 0.516 ns per multiply-add at 2.596 GHz (AMD EPYC VM) =
 * 1.34 cycles.  The simulation charges it at each machine's clock; it was
 * not fitted to any schbench result.  It is the least certain input: the
 * README's calibration run (-F 256 -n 5, 52 workers busy, an unknown
 * 2016-era machine) took 16.9 ms for 5 x 104^3, 3.0 ns per multiply-add,
 * 6-7 cycles at 2-2.5 GHz (the source's header says -O0); an older core
 * needs more cycles too.  op_ns= sets it.
 */
#define SCH_OP_CYCLES 1.34

/*
 * Kernel work of a futex call (FUTEX_WAKE or the entry of FUTEX_WAIT), in
 * context switches of the machine: FUTEX_WAKE on a word nobody waits on
 * took 0.153 us of the thread's CPU time on the host (200,000 calls), whose
 * context switch costs 1.458 us.  A wake that finds a sleeper adds
 * hackbench's HB_WAKE_CTX (the same try_to_wake_up path).
 */
#define SCH_FUTEX_CTX 0.105

/* Bounds shared by both sides' parameter tables. */
#define SCH_MAX_MSG 1024
#define SCH_MAX_WORKERS 4096
#define SCH_MAX_TASKS 16384	/* message threads x workers */
/* rps mode: a worker with more requests queued than this gets no more
 * (schbench's `batch`); the message thread sleeps 100 us instead */
#define SCH_RPS_BATCH 128
#define SCH_RPS_BACKOFF_NS 100000

/* Add schbench's own metrics: `wakeup_us_p50` ... `_max` and
 * `request_us_p50` ... `_max` from the two histograms (ns), `requests`
 * counted after the warm-up and `rps` = requests / seconds measured. */
void sch_metrics_add(struct sl_metrics *out, const struct sl_hist *wakeup,
		     const struct sl_hist *request, long requests, double seconds);

/* schbench's "sched delay" line: the mean wait on a runqueue per switch-in
 * of the message threads and of the workers, us (`sched_delay_us_msg`,
 * `sched_delay_us_workers`), over the whole run; a side with no switch-in
 * (count 0) is left out. */
void sch_sched_delay_add(struct sl_metrics *out, double msg_ns, double msg_count,
			 double workers_ns, double workers_count);

/* The parameters the simulated and the real schbench share, with their
 * own limits on workers and footprint (a definition-table fragment). */
#define SCH_PARAMS(max_workers, max_footprint_kb) \
	{ "message_threads", SL_PARAM_INT, "1", 1, SCH_MAX_MSG, NULL, \
	  "message threads (schbench -m)" }, \
	{ "workers", SL_PARAM_INT, NULL, 1, (max_workers), NULL, \
	  "worker threads per message thread (-t); default CPUs / message_threads, rounded up" }, \
	{ "runtime_s", SL_PARAM_REAL, "30", 0.001, 86400, NULL, \
	  "seconds the run lasts (-r), warm-up included" }, \
	{ "warmup_s", SL_PARAM_REAL, "0", 0, 86400, NULL, \
	  "seconds after which the statistics start (-w), less than runtime_s" }, \
	{ "sleep_us", SL_PARAM_REAL, "100", 0, 1e6, NULL, \
	  "usleep at the start of each request, us (-s)" }, \
	{ "loops", SL_PARAM_INT, "5", 0, 1000000, NULL, \
	  "matrix multiplications per request (-n, 'operations')" }, \
	{ "footprint_kb", SL_PARAM_INT, "256", 1, (max_footprint_kb), NULL, \
	  "KB of the three matrices a worker multiplies (-F; 256: 104 x 104)" }, \
	{ "lock", SL_PARAM_CHOICE, "on", 0, 0, "on|off", \
	  "on: hold the per-CPU spinlock during the math; off: schbench -L" }, \
	{ "rps", SL_PARAM_INT, "0", 0, 10000000, NULL, \
	  "requests per second, shared by the message threads (-R); 0: as fast as possible" }

#endif
