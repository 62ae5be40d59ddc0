/*
 * sweep.h - many runs on one machine: a list of (policy, workload) cells,
 * each repeated `reps` times with seeds seed, seed + 1, ...
 *
 * The runs are independent simulations, executed on a few worker threads;
 * each result is stored by its index, so the output is identical to that of
 * a serial run.  Used by `run` (one workload, several policies) and by
 * `reproduce` (an experiment's rows x columns).
 */
#ifndef SL_REPORT_SWEEP_H
#define SL_REPORT_SWEEP_H

#include <stdint.h>

#include "base/err.h"
#include "hw/machine.h"
#include "report/run.h"
#include "sim/policy_ops.h"
#include "workload/workload.h"

#define SL_SWEEP_MAX_THREADS 256	/* -j N */
#define SL_SWEEP_MAX_REPS 10000

/* Told after each run finishes (from the worker that ran it, so the
 * callback locks what it shares); the CLI draws its progress line. */
struct sl_sweep_progress {
	void (*run_done)(struct sl_sweep_progress *p);
};

struct sl_sweep_cell {
	char *policy_text;		/* as given: "ht:version=f3" */
	char label[128];		/* column label: the text, or its label= */
	const struct sl_policy_ops *policy;
	struct sl_params knobs;
	char *workload_text;
	const struct sl_workload_ops *workload;
	struct sl_params params;
	uint64_t mem;			/* bytes one run of it needs (estimate) */
};

struct sl_sweep {
	struct sl_machine machine;
	int reps;
	uint64_t seed;
	int ncells;
	struct sl_sweep_cell **cells;	/* pointers: sl_params must not move */
	struct sl_metrics *metrics;	/* [cell * reps + rep], after sl_sweep_run */
	struct sl_event_counts events;	/* events processed by all runs */
};

/* Repetition i runs with seed + i: the last one's must be a seed -s
 * accepts (0 to LONG_MAX), or that run could not be repeated alone.  -1
 * with err set.  sl_sweep_new checks it; a command whose sweep comes after
 * other work (validate's real runs) checks it first. */
int sl_sweep_check_seeds(int reps, uint64_t seed, struct sl_err *err);

/* A sweep on `machine` (any name sl_machine_load accepts).  NULL + err. */
struct sl_sweep *sl_sweep_new(const char *machine, int reps, uint64_t seed,
			      struct sl_err *err);

/* Add a cell (or find the identical one already added): its index, or -1
 * with err set when a spec is bad, or when one run of it and the results
 * of the sweep need more memory than the limit (base/memsize.h). */
int sl_sweep_add(struct sl_sweep *s, const char *policy, const char *workload,
		 struct sl_err *err);

/* The run of cell `cell`, repetition `rep` (seed + rep), as sl_sweep_run
 * runs it; callers add an observer or a latency copy to look at it. */
struct sl_run_spec sl_sweep_spec(const struct sl_sweep *s, int cell, int rep);

/* Run every cell x rep on up to `nthreads` threads (fewer when the runs
 * at once would need more memory than the limit).  0, or -1 with err set
 * to the error of the first failing run (in index order). */
int sl_sweep_run(struct sl_sweep *s, int nthreads, struct sl_err *err);
/* The same, telling `progress` (may be NULL) of each run done. */
int sl_sweep_run_progress(struct sl_sweep *s, int nthreads, struct sl_sweep_progress *progress,
			  struct sl_err *err);

/* The default of -j: the CPUs this process may run on (at least 1, at
 * most SL_SWEEP_MAX_THREADS). */
int sl_sweep_default_threads(void);

static inline const struct sl_metrics *sl_sweep_metrics(const struct sl_sweep *s,
							int cell, int rep)
{
	return &s->metrics[cell * s->reps + rep];
}

void sl_sweep_free(struct sl_sweep *s);

#endif
