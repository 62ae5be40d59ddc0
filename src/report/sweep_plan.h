/*
 * sweep_plan.h - the cells of a `run` sweep: machines x rows x columns,
 * where the rows are the values of the workload spec's lists and the
 * columns the policies, each -p expanded in place (report/spec_list.h,
 * docs/experiments.md).  One sl_sweep per machine runs the cells.
 *
 * sl_sweep_plan_cell() is the one enumeration of the cells: cell i is
 * machine i / (rows x columns), row (i / columns) % rows, column
 * i % columns.  Results are written in that order; a shard of the sweep
 * takes a slice of these indices (cells it does not add have cell_of -1
 * and are left out of every output).
 */
#ifndef SL_REPORT_SWEEP_PLAN_H
#define SL_REPORT_SWEEP_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "report/spec_list.h"
#include "report/sweep.h"

struct sl_sweep_plan {
	const char *workload_text;	/* -w as given: "kernbench:jobs=1..8" */
	int nmachines;
	struct sl_sweep **sweeps;	/* one per machine, in -m order */
	int nrows;
	char **rows;			/* the expanded workload specs */
	char **row_labels;		/* "jobs=2": the listed keys' values, or the spec */
	int ncols;
	char **cols;			/* the expanded policy specs */
	int ncells;			/* nmachines x nrows x ncols */
	int *cell_of;			/* plan cell -> cell of its machine's sweep, -1: not run */
	bool view;			/* sl_sweep_plan_wrap: nothing of it is owned */
};

static inline void sl_sweep_plan_cell(const struct sl_sweep_plan *p, int i, int *machine, int *row,
				      int *col)
{
	*machine = i / (p->nrows * p->ncols);
	*row = i / p->ncols % p->nrows;
	*col = i % p->ncols;
}

/* Parse, expand and check everything (specs, labels, memory) without
 * running: 0, or -1 with err set.  Two columns may not share a label. */
int sl_sweep_plan_new(struct sl_sweep_plan *p, const char *const *machines, int nmachines,
		      const char *const *policies, int npolicies, const char *workload, int reps,
		      uint64_t seed, struct sl_err *err);

/* A plan over one sweep whose cells are the columns of one row (`real`,
 * and `run` outputs written from a sweep). */
void sl_sweep_plan_wrap(struct sl_sweep_plan *p, const struct sl_sweep *s);

/* Runs (cells x repetitions) sl_sweep_plan_run will make. */
long sl_sweep_plan_runs(const struct sl_sweep_plan *p);

/* Run every machine's sweep in turn on up to `nthreads` threads. */
int sl_sweep_plan_run(struct sl_sweep_plan *p, int nthreads, struct sl_sweep_progress *progress,
		      struct sl_err *err);

/* The sweep and its cell for plan cell i (NULL when not run). */
const struct sl_sweep_cell *sl_sweep_plan_get(const struct sl_sweep_plan *p, int i,
					      const struct sl_sweep **sweep, int *cell);

void sl_sweep_plan_free(struct sl_sweep_plan *p);

#endif
