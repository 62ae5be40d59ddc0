/*
 * reproduce.h - running an experiment: every row x column cell on the
 * experiment's machine, `reps` times, summarised and compared with the
 * published values (the miss rule is sl_stats_misses()).
 */
#ifndef SL_REPORT_REPRODUCE_H
#define SL_REPORT_REPRODUCE_H

#include <stdbool.h>

#include "report/experiment.h"
#include "report/stats.h"
#include "report/sweep.h"

struct sl_exp_cell_result {
	char unit[24];
	double *values;			/* one per repetition */
	struct sl_summary sim;
	bool miss;			/* published and missed */
};

struct sl_exp_result {
	const struct sl_experiment *exp;
	struct sl_sweep *sweep;
	int reps;
	struct sl_exp_cell_result *cells;	/* [row * exp->ncols + col] */
};

static inline const struct sl_exp_cell_result *
sl_exp_cell(const struct sl_exp_result *r, int row, int col)
{
	return &r->cells[row * r->exp->ncols + col];
}

/* Run experiment `e` with `reps` repetitions (0: the file's).  0, or -1
 * with err set. */
int sl_experiment_run(const struct sl_experiment *e, int reps, int nthreads,
		      struct sl_exp_result *out, struct sl_err *err);

void sl_exp_result_free(struct sl_exp_result *r);

#endif
