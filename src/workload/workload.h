/*
 * workload.h - benchmarks as generators of task programs.
 *
 * A workload binds its parameters, creates the root task(s) of a run with
 * sl_sim_spawn_root(), and afterwards reports its own metrics beside the
 * engine's (elapsed, user, system, CPU%).  Workloads never know which
 * policy runs.
 */
#ifndef SL_WORKLOAD_WORKLOAD_H
#define SL_WORKLOAD_WORKLOAD_H

#include "base/spec.h"
#include "sim/sim.h"

#define SL_MAX_METRICS 320

struct sl_metric {
	char name[48];		/* "elapsed_s", "throughput", "cpu0_user_pct" */
	char unit[24];		/* "s", "%", "count", "MB/s" */
	double value;
	int better;		/* -1 lower is better, +1 higher, 0 neither */
};

struct sl_metrics {
	int n;
	struct sl_metric m[SL_MAX_METRICS];
};

void sl_metrics_add(struct sl_metrics *ms, const char *name, const char *unit,
		    double value, int better);
const struct sl_metric *sl_metrics_find(const struct sl_metrics *ms, const char *name);
/* The wait-for-a-CPU percentiles of latency group `group` (0: every task),
 * named wakeup_lat_us_p50 ... runq_delay_us_max, after "prefix_" if a
 * prefix is given (a workload's group: "senders_wakeup_lat_us_p99"). */
void sl_metrics_add_latency(struct sl_metrics *out, const struct sl_sim *sim, int group,
			    const char *prefix);
/* ... the same percentiles of two histograms of waits in ns (a real
 * recording's: real --latency). */
struct sl_hist;
void sl_metrics_add_waits(struct sl_metrics *out, const struct sl_hist *wakeup,
			  const struct sl_hist *runq, const char *prefix);

struct sl_workload_ops {
	const char *name;
	const char *summary;			/* one line */
	const char *metric;			/* headline metric name, e.g. "elapsed_s" */
	const struct sl_param_def *params;	/* NULL-terminated */

	/* Required.  Create the run's tasks (sl_sim_spawn_root) from bound
	 * params; per-run state goes in sl_sim_alloc() memory.  May set a time
	 * limit for open-ended workloads through `limit_out` (0 = none).
	 * Returns an opaque run state passed to report(). */
	void *(*start)(struct sl_sim *sim, const struct sl_params *params,
		       sl_time *limit_out);

	/* Required.  After the run: add the workload's metrics (the engine's
	 * standard ones are already in `out`). */
	void (*report)(struct sl_sim *sim, void *state, const struct sl_params *params,
		       struct sl_metrics *out);

	/* Optional: extra validation across params; -1 with err set. */
	int (*validate)(const struct sl_params *params, struct sl_err *err);

	/* Optional: the scheduling classes its tasks will use, as a mask of
	 * (1u << SL_SCHED_*) from the bound (and validated) params.  A policy
	 * whose sched_policies lacks one (SCHED_NORMAL it always has) is
	 * refused before any run (report/sweep.c).  Without it: NORMAL only. */
	unsigned (*sched_classes)(const struct sl_params *params);

	/* Optional: what one run needs (sim.h, struct sl_mem_need) on a
	 * machine of `topo`, from the bound (and validated) params, in
	 * saturating arithmetic (base/memsize.h): checked against the memory
	 * limit before any run starts.  Without it: the root task only. */
	void (*mem)(const struct sl_params *params, const struct sl_topo *topo,
		    struct sl_mem_need *need);

	/* Optional: the checks that need the machine and the policy (a CPU
	 * the machine lacks, a scheduling class the policy does not
	 * implement: sl_sim_supports_sched's rule), before any run; -1 with
	 * err set (bad input). */
	int (*check)(const struct sl_params *params, const struct sl_machine *machine,
		     const struct sl_policy_ops *policy, struct sl_err *err);

	/* Optional: a note for the user about how the run reads the params
	 * (a default it had to choose); `run` prints it on standard error.
	 * Returns 1 with the note in buf, 0 for none. */
	int (*note)(const struct sl_params *params, char *buf, size_t size);
};

extern const struct sl_workload_ops sl_workload_kernbench;
extern const struct sl_workload_ops sl_workload_spin;
extern const struct sl_workload_ops sl_workload_javabench;

extern const struct sl_workload_ops *const sl_workloads[];

const struct sl_workload_ops *sl_workload_find(const char *name);

/* The `cpus` parameter of the workloads that can be pinned (taskset -c on
 * the benchmark: every task may run only there), as a definition line for
 * their tables, and its value: the CPUs given, checked against a machine
 * of `ncpus` logical CPUs (all of them when not given).  -1 with err. */
#define SL_WORKLOAD_CPUS_PARAM \
	{ "cpus", SL_PARAM_STRING, "all", 0, 0, NULL, \
	  "CPUs its tasks may run on, as taskset -c: N or N-M joined by '+' (0-1+4), " \
	  "or all" }
int sl_workload_cpus(const struct sl_params *p, int ncpus, sl_cpumask *out, struct sl_err *err);
/* ... and pin the run's roots to them (start(): checked before the run). */
void sl_workload_pin(struct sl_sim *sim, const struct sl_params *p);
/* One run's memory, bytes (sl_sim_mem_estimate of the workload's need);
 * *tasks (may be NULL) receives the tasks it counted. */
uint64_t sl_workload_mem(const struct sl_workload_ops *w, const struct sl_params *params,
			 const struct sl_machine *machine, const struct sl_policy_ops *policy,
			 uint64_t *tasks);
/* A check() helper: refuse (-1, err set) a run that cannot end within
 * the simulated-time horizon, `least_s` being a lower bound of its
 * simulated length from its parameters and the machine alone, `what` what
 * it comes from ("1e+07 s of work on 4 CPUs"), before any work starts
 * rather than at the horizon, hours later. */
int sl_workload_fits_horizon(const char *name, double least_s, const char *what,
			     struct sl_err *err);
/* A lower bound for such a check of a sum of independent draws around
 * their means (sl_rng_vary's, log-sd `sigma`, mean kept) whose means add
 * up to `total`, none above `largest`: the mean less four standard
 * deviations, sqrt(expm1(sigma^2) * sum of squared means) <=
 * sqrt(expm1(sigma^2) * largest * total); 0 if that is negative. */
double sl_workload_sum_floor(double total, double largest, double sigma);
int sl_workload_parse(const char *text, const struct sl_workload_ops **ops,
		      struct sl_params *params, struct sl_err *err);

#endif
