/*
 * real.h - workloads run as real processes on the host and timed as GNU
 * time does (see usage.h): the real counterparts of the simulator's
 * benchmarks.
 *
 * A real workload binds "name:key=value,..." parameters like a simulated
 * one, resolves the defaults that depend on the host (one task per CPU,
 * make -j 2 x CPUs) once the CPUs are known, may prepare once before the
 * repetitions (unpack and configure a kernel tree, a warm-up build), and
 * then runs one timed repetition at a time, filling the engine's standard
 * metrics (elapsed_s, user_s, sys_s, cpu_pct, ctx_switches, sleeps) and
 * its own.  Nothing here prints; errors come back in struct sl_err.
 */
#ifndef SL_REAL_REAL_H
#define SL_REAL_REAL_H

#include <sched.h>
#include <stdint.h>

#include "base/spec.h"
#include "workload/workload.h"

/* Where and how a real run happens. */
struct sl_real_env {
	cpu_set_t cpus;		/* the CPUs the run may use */
	int ncpus;		/* CPU_COUNT(&cpus) */
	bool pinned;		/* --cpus was given: children are pinned to cpus */
	uint64_t seed;		/* of this repetition (random indices of schedbench) */
	/* Optional, around each timed repetition, outside the host marks of
	 * other_cpu_pct (real --latency records the repetition with perf
	 * and adds its wait percentiles to its metrics): 0 or -1 with err. */
	int (*rep_begin)(void *arg, struct sl_err *err);
	int (*rep_end)(void *arg, struct sl_metrics *out, struct sl_err *err);
	void *rep_arg;
};

struct sl_real_workload {
	const char *name;
	const char *summary;			/* one line */
	const char *metric;			/* headline metric name */
	const struct sl_param_def *params;	/* NULL-terminated */

	/* Optional: fill the parameters whose default is derived from env
	 * (sl_real_param_set), so that printing and the simulated counterpart
	 * see the values used. */
	void (*resolve)(struct sl_params *p, const struct sl_real_env *env);
	/* Optional: once before the repetitions.  0 or -1 with err set. */
	int (*prepare)(const struct sl_params *p, const struct sl_real_env *env,
		       struct sl_err *err);
	/* Required: one timed repetition.  0 or -1 with err set. */
	int (*run)(const struct sl_params *p, const struct sl_real_env *env,
		   struct sl_metrics *out, struct sl_err *err);
	/* Optional: the host memory one repetition touches at most, bytes
	 * (saturating: base/memsize.h), from the resolved params; *procs
	 * gets the processes it counted.  Without it (kernbench: the
	 * compilers' memory is not ours to know) nothing is checked. */
	uint64_t (*mem)(const struct sl_params *p, const struct sl_real_env *env,
			uint64_t *procs);
};

/* What a process of a real run costs the host besides the memory it
 * touches on purpose: kernel stack, task and page tables, the pages its
 * copy-on-write writes duplicate, the stack buffer of hackbench's 64 KB
 * reads.  Generous: measured as 200-300 KB of Pss per hackbench child. */
#define SL_REAL_PROC_BYTES (512ULL << 10)
/* What a socket pair or pipe can hold in the kernel: the default socket
 * send buffer (net.core.wmem_default, 208 KB) or a pipe's 16 pages. */
#define SL_REAL_CHAN_BYTES (212992ULL)

/* The hackbench of `hb`'s memory (sl_real_workload.mem), for schedbench's
 * background one too. */
uint64_t sl_real_hb_mem(long groups, long fds, uint64_t *procs);

/* Refuse (-1, err set) a run of `w` whose memory (its mem op) exceeds the
 * host's MemAvailable or the memory limit (base/memsize.h); `cmd` names
 * the command in the message. */
int sl_real_check_mem(const char *cmd, const struct sl_real_workload *w,
		      const struct sl_params *p, const struct sl_real_env *env,
		      struct sl_err *err);

extern const struct sl_real_workload sl_real_spin;
/* The most a real hackbench receiver asks per read (its readsize=; by
 * default one message per call, as Rusty Russell's hackbench). */
#define SL_REAL_HB_READ_MAX 65536
extern const struct sl_real_workload sl_real_hackbench;
extern const struct sl_real_workload sl_real_schedbench;
extern const struct sl_real_workload sl_real_kernbench;
extern const struct sl_real_workload sl_real_pingpong;
extern const struct sl_real_workload sl_real_schbench;
extern const struct sl_real_workload sl_real_rtapp;

/* What rt-app's logs (rt-app-<thread>-<index>.log) add up to for one
 * thread description: its logs, their rows, the rows of phases with a
 * timer, and those rows' slack and wake-up latency sums (us). */
struct sl_real_rtapp_log {
	long threads, rows, timer_rows;
	double slack_sum, wu_sum;
};
/* Add one line of a log (a comment or a malformed line adds nothing). */
void sl_real_rtapp_log_line(const char *line, struct sl_real_rtapp_log *st);

extern const struct sl_real_workload *const sl_real_workloads[];

const struct sl_real_workload *sl_real_find(const char *name);

/* Parse "name:key=value,..." against the real workloads' tables. */
int sl_real_parse(const char *text, const struct sl_real_workload **w,
		  struct sl_params *params, struct sl_err *err);

/* Give a parameter a value (a derived default), as if bound from text. */
void sl_real_param_set(struct sl_params *p, const char *name, double value);

/* "name:key=value,..." with every parameter that has a value, in table
 * order: the resolved workload as run. */
void sl_real_spec_text(const struct sl_real_workload *w, const struct sl_params *p,
		       char *buf, size_t size);

/* The cache directory: $SCHEDLAB_CACHE, else $XDG_CACHE_HOME/schedlab,
 * else $HOME/.cache/schedlab; created if missing.  NULL + err. */
const char *sl_real_cache_dir(struct sl_err *err);

/* An environment for the CPUs in `cpus` (NULL: every CPU we may use). */
int sl_real_env_init(struct sl_real_env *env, const cpu_set_t *cpus, struct sl_err *err);

/*
 * Prepare once, then run `reps` repetitions (repetition i with seed
 * seed + i) into out[0..reps-1], with the signal handlers of proc.h
 * installed throughout: Ctrl-C kills every child and returns -1 with err
 * "interrupted ..." (sl_real_interrupted() then names the signal).  Each
 * repetition's metrics end with other_cpu_pct: the CPU other processes
 * used while it ran, % of one CPU (host.h) - a busy host shows there.
 */
int sl_real_run_reps(const struct sl_real_workload *w, const struct sl_params *p,
		     struct sl_real_env *env, int reps, uint64_t seed,
		     struct sl_metrics *out, struct sl_err *err);

#endif
